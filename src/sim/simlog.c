/*
 * simlog.c - the last step of `simulate`: turns the simulator's typed log
 * records (logrec.h) into CANN log files laid out and worded like a real
 * cluster's (shared/docs/log-formats.md), so that real tools and hangdx's
 * own ingest read them.  The simulator decides what happens; this file
 * decides only how it looks.  Ranks are written one after another (four
 * files open at a time), each from a per-rank bucket of record indices.
 * Every line carries its status (verbatim, format string, invented) for
 * log_fidelity.  Conventions and sources: docs/LOGS-SIMULATED.md.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "logrec.h"

#define SL_LINE 16384              /* longest line; longer ones are cut */
#define SL_VBUF (256 * 1024)       /* stdio buffer per open file */
#define SL_GAP_US 5                /* spacing of the lines of one record */
#define SL_TICK_HZ 50000000ULL     /* AICPU monitor tickFreq */
#define SL_TICK_BOOT 1800000000000ULL  /* device uptime at t = 0, ticks */
#define SL_TSBUF 160               /* any formatted time */
#define SL_ALG "fullmesh-ring-NHR"

enum sl_lv { LV_DEBUG, LV_INFO, LV_WARNING, LV_ERROR };  /* = hx_loglevel */
static const char *const lv_name[] = { "DEBUG", "INFO", "WARNING", "ERROR" };
#define RUN 8   /* or-ed into a level: a run-level line (HCCL_RUN_INFO ...) */

/* How far a line's wording is backed (docs/LOGS-SIMULATED.md): the shape
 * of a real log line, the text of a source format string, or invented.
 * log_fidelity=verified writes no S_INV line. */
enum sl_st { S_VERB, S_FMT, S_INV };

/* host debug plog, device debug log, host run plog, device run log */
enum sl_fileid { F_PLOG, F_DEV, F_RUN, F_DRUN, F_COUNT };

/* Who speaks: module, side and (through the rank) pid and process name. */
enum sl_who { W_HCCL, W_RT, W_ATRACE, W_ROCE, W_HCCP,
	      W_DHCCL, W_DAICPU, W_CCECPU, W_TSCH };
static const struct {
	const char *module;
	uint8_t file;
} who_tab[] = {
	[W_HCCL] = { "HCCL", F_PLOG },     [W_RT] = { "RUNTIME", F_PLOG },
	[W_ATRACE] = { "ATRACE", F_PLOG }, [W_ROCE] = { "ROCE", F_PLOG },
	[W_HCCP] = { "HCCP", F_PLOG },     [W_DHCCL] = { "HCCL", F_DEV },
	[W_DAICPU] = { "AICPU", F_DEV },   [W_CCECPU] = { "CCECPU", F_DEV },
	[W_TSCH] = { "TSCH", F_DEV },
};

/* Thread ids: pid + a fixed offset per role (docs/LOGS-SIMULATED.md). */
enum { T_MAIN = 0, T_CALLBACK = 3, T_HEARTBEAT = 5, T_RETRY = 7, T_POLL = 9,
       T_DMONITOR = 2, T_DEXCEPT = 4, T_DWORKER = 10 };

struct sl_file {
	struct hx_outfile o;
	uint64_t last_us;   /* timestamps never go backwards in a file */
	unsigned k;         /* lines of the current record so far */
};

/* Everything hx_simlog_write holds for the whole run. */
struct sl_writer {
	struct hangdx_ctx *ctx;
	const char *dir;
	const struct hx_simlog_input *in;
	size_t *off;        /* nranks + 2: bucket bounds in idx */
	size_t *idx;        /* record indices, grouped by rank, in order */
	char *vbuf;         /* F_COUNT stdio buffers */
	size_t *doff;       /* debug level: nranks + 2 bounds in done */
	struct sl_done *done;   /* finished tasks by rank, by end time */
	struct sl_comm *cs;     /* ncomms: the rank being written */
};

struct sl_done {
	uint64_t t;         /* t_end, ns */
	uint32_t task;
};

/* The state of the rank being written. */
struct sl_rank {
	const struct hx_simlog_input *in;
	const struct hx_device *dev;
	uint32_t rank;
	int level;          /* least level written to the debug logs */
	uint64_t rec_us;    /* wall clock of the current record */
	struct sl_file f[F_COUNT];
	char ip[24];
	int64_t ts_sec;     /* cache of the date part of timestamps */
	char ts_date[SL_TSBUF];
	bool ei0002;        /* EI0002 already reported by this device */
	uint32_t serial;    /* RUNTIME device-error serial number */
	uint32_t tsch_seq;  /* TSCH line sequence number */
	uint32_t aicpu_serial;
	uint64_t early_us;  /* started this long before the last rank */
	bool init_done;     /* the first communicator is created */
	bool verified;      /* log_fidelity verified: no invented line */
	struct sl_comm *cs; /* per communicator, as this device saw it */
};

/* One communicator as the rank's device saw it so far (C1 lines). */
struct sl_comm {
	bool open;          /* created on this rank */
	bool in_exec;       /* its kernel is running (holds a core) */
	uint32_t exec_idx;  /* ops executed, from 1 (HCCL's op index) */
	uint8_t coll;       /* last op, for the C1 tags */
};

/* ---- tables: HCCL spellings of the model's enums ---- */

static const char *const dt_hccl_name[] = {
	[HX_DT_FP16] = "float16", [HX_DT_FP32] = "float32",
	[HX_DT_BF16] = "bfloat16", [HX_DT_INT8] = "int8",
	[HX_DT_INT32] = "int32", [HX_DT_INT64] = "int64",
	[HX_DT_UINT8] = "uint8",
};
/* HcclDataType values, printed as dataType:N on the device */
static const uint8_t dt_hccl_num[] = {
	[HX_DT_FP16] = 3, [HX_DT_FP32] = 4, [HX_DT_BF16] = 11,
	[HX_DT_INT8] = 0, [HX_DT_INT32] = 2, [HX_DT_INT64] = 5,
	[HX_DT_UINT8] = 7,
};
/* HcclCMDType values, printed as opType:N on the device */
static const uint8_t coll_cmd[] = {
	[HX_COLL_ALLREDUCE] = 2, [HX_COLL_ALLGATHER] = 6,
	[HX_COLL_REDUCESCATTER] = 7, [HX_COLL_BROADCAST] = 1,
	[HX_COLL_ALLTOALL] = 10, [HX_COLL_SEND] = 4, [HX_COLL_RECV] = 5,
};
static const char *const coll_exec[] = {
	[HX_COLL_ALLREDUCE] = "AllReduceMeshExecutor",
	[HX_COLL_ALLGATHER] = "AllGatherMeshExecutor",
	[HX_COLL_REDUCESCATTER] = "ReduceScatterMeshExecutor",
	[HX_COLL_BROADCAST] = "BroadCastMeshExecutor",
	[HX_COLL_ALLTOALL] = "AlltoAllDirectFullmeshExecutor",
	[HX_COLL_SEND] = "SendExecutor", [HX_COLL_RECV] = "ReceiveExecutor",
};

static const char *dt_name(uint8_t d)
{
	return d < HX_ARRAY_LEN(dt_hccl_name) ? dt_hccl_name[d] : "unknown";
}

static unsigned dt_num(uint8_t d)
{
	return d < HX_ARRAY_LEN(dt_hccl_num) ? dt_hccl_num[d] : 255;
}

static const char *coll_name(uint8_t c)
{
	return c < HX_COLL_COUNT ? hx_coll_name((enum hx_coll)c) : "Unknown";
}

static bool coll_reduces(uint8_t c)
{
	return c == HX_COLL_ALLREDUCE || c == HX_COLL_REDUCESCATTER;
}

static uint64_t rec_count(const struct hx_logrec *rec)
{
	uint32_t sz = rec->dtype < HX_DT_COUNT
		? hx_dtype_size((enum hx_dtype)rec->dtype) : 1;

	return rec->bytes / (sz ? sz : 1);
}

/* STARS SQE type codes (rtStarsSqeType) and the TSCH dump names. */
static unsigned sqe_type(uint8_t kind, bool rdma)
{
	switch (kind) {
	case HX_T_AICORE: return 0;
	case HX_T_AICPU: case HX_T_KERNEL: return 1;
	case HX_T_EVENT_RECORD: return 4;
	case HX_T_EVENT_WAIT: return 5;
	case HX_T_NOTIFY_RECORD: return 6;
	case HX_T_NOTIFY_WAIT: return 7;
	case HX_T_COPY: return rdma ? 8 : 11;
	}
	return 3;
}

/* The `type:` of a [TaskException] line (RtsqTaskTypeToStr). */
static const char *exc_type(uint8_t kind, bool rdma, char *buf, size_t n)
{
	switch (kind) {
	case HX_T_NOTIFY_WAIT: return "NOTIFY WAIT";
	case HX_T_NOTIFY_RECORD: return "NOTIFY RECORD";
	case HX_T_COPY: return rdma ? "WRITE VALUE" : "SDMA";
	}
	snprintf(buf, n, "%u", sqe_type(kind, rdma));
	return buf;
}

/* ---- time ---- */

/* Wall clock of simulated time t on a rank, in us: epoch + t + skew. */
static uint64_t wall_us(const struct hx_simlog_input *in, uint32_t rank,
			uint64_t t_ns)
{
	int64_t skew = in->skew_ns ? in->skew_ns[rank] : 0;
	int64_t t = t_ns > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)t_ns;
	int64_t ns, us;

	if (skew < -INT64_MAX / 2)
		skew = -INT64_MAX / 2;
	if (skew > INT64_MAX / 2)
		skew = INT64_MAX / 2;
	ns = t + skew;
	us = ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
	if (us < 0 && (uint64_t)-us > in->epoch_us)
		return 0;
	return us < 0 ? in->epoch_us - (uint64_t)-us
		      : in->epoch_us + (uint64_t)us;
}

/* Broken-down UTC time; the year is clamped to four digits. */
struct sl_tm {
	unsigned y, mo, d, h, mi, s, wd;
};

static void utc(uint64_t us, struct sl_tm *c)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;

	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof tm);
	c->y = tm.tm_year + 1900 < 0 ? 0 : tm.tm_year + 1900 > 9999
		? 9999 : (unsigned)(tm.tm_year + 1900);
	c->mo = (unsigned)tm.tm_mon % 12 + 1;
	c->d = (unsigned)tm.tm_mday % 32;
	c->h = (unsigned)tm.tm_hour % 24;
	c->mi = (unsigned)tm.tm_min % 60;
	c->s = (unsigned)tm.tm_sec % 61;
	c->wd = (unsigned)tm.tm_wday % 7;
}

/* Write v as exactly w digits, then sep (if not NUL); return the end. */
static char *digits(char *p, unsigned v, int w, char sep)
{
	int i;

	for (i = w - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	p += w;
	if (sep)
		*p++ = sep;
	return p;
}

/* "2025-10-24-11:18:29" + sep between date and time */
static char *date_time(char *p, const struct sl_tm *c, char sep)
{
	p = digits(p, c->y, 4, '-');
	p = digits(p, c->mo, 2, '-');
	p = digits(p, c->d, 2, sep);
	p = digits(p, c->h, 2, ':');
	p = digits(p, c->mi, 2, ':');
	return digits(p, c->s, 2, 0);
}

/* "2025-10-24-11:18:29.499.235" into out[SL_TSBUF] */
static void fmt_ts(struct sl_rank *r, uint64_t us, char *out)
{
	int64_t sec = (int64_t)(us / 1000000);
	unsigned frac = (unsigned)(us % 1000000);
	char *p = out;

	if (sec != r->ts_sec) {
		struct sl_tm c;

		utc(us, &c);
		*date_time(r->ts_date, &c, '-') = '\0';
		r->ts_sec = sec;
	}
	memcpy(p, r->ts_date, 19);
	p[19] = '.';
	p = digits(p + 20, frac / 1000, 3, '.');
	*digits(p, frac % 1000, 3, 0) = '\0';
}

/* "20251024111652406" (file names) */
static void fmt_fname_ts(uint64_t us, char *out)
{
	struct sl_tm c;
	char *p = out;

	utc(us, &c);
	p = digits(p, c.y, 4, 0);
	p = digits(p, c.mo, 2, 0);
	p = digits(p, c.d, 2, 0);
	p = digits(p, c.h, 2, 0);
	p = digits(p, c.mi, 2, 0);
	p = digits(p, c.s, 2, 0);
	*digits(p, (unsigned)(us % 1000000 / 1000), 3, 0) = '\0';
}

/* "Thu Oct  3 17:25:58 2025" (ctime; heartbeat Arrival Time) */
static void fmt_ctime(uint64_t us, char *out)
{
	static const char day[] = "SunMonTueWedThuFriSat";
	static const char mon[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	struct sl_tm c;
	char *p = out;

	utc(us, &c);
	memcpy(p, day + 3 * c.wd, 3);
	p[3] = ' ';
	memcpy(p + 4, mon + 3 * (c.mo - 1), 3);
	p[7] = ' ';
	p[8] = c.d < 10 ? ' ' : (char)('0' + c.d / 10);
	p = digits(p + 9, c.d % 10, 1, ' ');
	p = digits(p, c.h, 2, ':');
	p = digits(p, c.mi, 2, ':');
	p = digits(p, c.s, 2, ' ');
	*digits(p, c.y, 4, 0) = '\0';
}

/* "2025-09-15 08:38:12.776654" (CQE heartbeat time) */
static void fmt_cqe_time(uint64_t us, char *out)
{
	struct sl_tm c;
	char *p;

	utc(us, &c);
	p = date_time(out, &c, ' ');
	*p++ = '.';
	*digits(p, (unsigned)(us % 1000000), 6, 0) = '\0';
}

/* The wall clock of the next line of a file: the record's time plus a
 * few us per line already written for it, never before the last line. */
static uint64_t tick(struct sl_rank *r, int file)
{
	struct sl_file *f = &r->f[file];
	uint64_t us = r->rec_us + (uint64_t)f->k * SL_GAP_US;

	f->k++;
	if (us < f->last_us)
		us = f->last_us;
	f->last_us = us;
	return us;
}

/* ---- lines ---- */

static void put(struct sl_rank *r, int file, const char *s, size_t n)
{
	fwrite(s, 1, n, r->f[file].o.fp);
}

/* Finish a formatted line: cut it if too long, add the newline. */
static size_t line_end(char *line, size_t len, int n)
{
	if (n < 0)
		n = 0;
	len += (size_t)n;
	if (len > SL_LINE - 2)
		len = SL_LINE - 2;
	line[len++] = '\n';
	line[len] = '\0';
	return len;
}

/* The one place a prefixed line is written: lv is a level, or-ed with
 * RUN for run-level lines, which go to the run log of their side whatever
 * the level; st is the line's status, which log_fidelity filters on. */
static void vsay(struct sl_rank *r, enum sl_who w, int lv, enum sl_st st,
		 const char *fmt, va_list ap)
{
	char line[SL_LINE], ts[SL_TSBUF];
	int file = who_tab[w].file;
	uint64_t us = tick(r, file);  /* same timestamps at every fidelity */
	bool run = (lv & RUN) != 0;
	bool dbg;
	size_t len;
	int n;

	lv &= ~RUN;
	dbg = lv >= r->level;
	if ((!dbg && !run) || (st == S_INV && r->verified))
		return;
	fmt_ts(r, us, ts);
	if (w == W_TSCH)
		n = snprintf(line, SL_LINE, "[%s] TSCH(-1,null):%s %u ",
			     lv_name[lv], ts, r->tsch_seq++);
	else
		n = snprintf(line, SL_LINE, "[%s] %s(%u,%s):%s ", lv_name[lv],
			     who_tab[w].module,
			     file == F_DEV ? r->dev->dev_pid : r->dev->host_pid,
			     file == F_DEV ? "aicpu_scheduler" : "python3", ts);
	len = n < 0 ? 0 : (size_t)n;
	n = vsnprintf(line + len, SL_LINE - len, fmt, ap);
	len = line_end(line, len, n);
	if (dbg)
		put(r, file, line, len);
	if (run && r->in->sc->layout == HX_LAYOUT_FLAT) {
		if (!dbg)       /* one file per process and side: run lines too */
			put(r, file, line, len);
	} else if (run) {
		put(r, file == F_DEV ? F_DRUN : F_RUN, line, len);
	}
}

/* A prefixed line: in the debug log of its side if the level allows, and
 * in the run log of its side when lv has RUN. */
HX_PRINTF(5, 6)
static void say(struct sl_rank *r, enum sl_who w, int lv, enum sl_st st,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(r, w, lv, st, fmt, ap);
	va_end(ap);
}

/* A line without the prefix (error-manager text, TSCH dump body). */
HX_PRINTF(4, 5)
static void raw(struct sl_rank *r, int file, enum sl_st st,
		const char *fmt, ...)
{
	char line[SL_LINE];
	va_list ap;
	int n;

	if (st == S_INV && r->verified)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, SL_LINE, fmt, ap);
	va_end(ap);
	put(r, file, line, line_end(line, 0, n));
}

/* ---- names, ranks, addresses ---- */

static uint32_t tid(const struct sl_rank *r, unsigned role)
{
	return r->dev->host_pid + role;
}

static uint32_t dtid(const struct sl_rank *r, unsigned role)
{
	return r->dev->dev_pid + role;
}

static uint32_t worker_tid(const struct sl_rank *r, int32_t core)
{
	return dtid(r, T_DWORKER) + (core > 0 ? (uint32_t)core : 0);
}

/* Host ip of a node: 127.10.0.1 for node 0 (docs/LOGS-SIMULATED.md). */
static void node_ip(uint32_t node, char *buf, size_t n)
{
	uint32_t v = node + 1;

	snprintf(buf, n, "127.%u.%u.%u", 10 + (v >> 16), (v >> 8) & 255,
		 v & 255);
}

static void rank_ip(const struct hx_simlog_input *in, uint32_t rank,
		    char *buf, size_t n)
{
	node_ip(in->st->dev[rank].node, buf, n);
}

/* Device NIC ip of a rank: 127.11.0.1 for rank 0. */
static void dev_ip(uint32_t rank, char *buf, size_t n)
{
	uint32_t v = rank + 1;

	snprintf(buf, n, "127.%u.%u.%u", 11 + 2 * (v >> 16), (v >> 8) & 255,
		 v & 255);
}

static const struct hx_comm *comm_of(const struct sl_rank *r, int32_t c)
{
	return c >= 0 ? &r->in->st->comms[c] : NULL;
}

static const char *ident(const struct sl_rank *r, int32_t c)
{
	return c >= 0 ? r->in->st->comms[c].identifier : "none";
}

/* Rank of a global rank in communicator c, or -1. */
static int32_t crank(const struct hx_simlog_input *in, int32_t rank,
		     int32_t c)
{
	const struct hx_device *d;

	if (rank < 0 || c < 0)
		return -1;
	d = &in->st->dev[rank];
	return d->comm ? d->comm[c].me : -1;
}

static int32_t my_crank(const struct sl_rank *r, int32_t c)
{
	return crank(r->in, (int32_t)r->rank, c);
}

static void peer_str(const struct sl_rank *r, const struct hx_logrec *rec,
		     const char *none, char *buf, size_t n)
{
	int32_t p = crank(r->in, rec->peer, rec->comm);

	if (p < 0)
		snprintf(buf, n, "%s", none);
	else
		snprintf(buf, n, "%d", p);
}

/* "AllReduce_<identifier>" */
static void op_tag(const struct sl_rank *r, const struct hx_logrec *rec,
		   char *buf, size_t n)
{
	snprintf(buf, n, "%s_%s", coll_name(rec->coll), ident(r, rec->comm));
}

/* "AllReduce_<identifier>AllReduceMeshExecutor_device" (AI_CPU form) */
static void dev_tag(const struct sl_rank *r, const struct hx_logrec *rec,
		    char *buf, size_t n)
{
	snprintf(buf, n, "%s_%s%s_device", coll_name(rec->coll),
		 ident(r, rec->comm),
		 rec->coll < HX_COLL_COUNT ? coll_exec[rec->coll] : "Executor");
}

/* Device buffer addresses of an op: src, and dst = src + 16 MiB. */
static uint64_t op_addr(const struct hx_logrec *rec, int dst)
{
	uint64_t c = rec->comm < 0 ? 0 : (uint64_t)rec->comm;

	return 0x12c0c0000000ULL + ((c & 0xfff) << 28) +
	       ((uint64_t)(rec->op & 0x7f) << 21) + (dst ? 1ULL << 24 : 0);
}

static uint32_t comm_size(const struct sl_rank *r, int32_t c)
{
	return c >= 0 ? r->in->st->comms[c].nmembers : 0;
}

/* SQ position as printed: modulo the SQ depth. */
static uint32_t sqpos(const struct sl_rank *r, uint32_t pos)
{
	uint32_t depth = r->in->sc->sq_depth ? r->in->sc->sq_depth : 2048;

	return pos % depth;
}

static uint32_t stream_id_of(const struct sl_rank *r, uint32_t s,
			     uint32_t dflt)
{
	return s < r->in->st->nstreams ? r->in->st->streams[s].id : dflt;
}

static uint32_t stream_sq_of(const struct sl_rank *r, uint32_t s,
			     uint32_t dflt)
{
	return s < r->in->st->nstreams ? r->in->st->streams[s].sq_id : dflt;
}

/* ---- PROC_START, COMM_INIT, OP_LAUNCH, noise ---- */

static uint8_t retry_level(const struct hx_env *e, char *v, size_t n)
{
	if (e->retry_has_l0)
		snprintf(v, n, "L0:%u,L1:%u,L2:%u", e->retry[0], e->retry[1],
			 e->retry[2]);
	else
		snprintf(v, n, "L1:%u,L2:%u", e->retry[1], e->retry[2]);
	return (uint8_t)(e->retry[0] | e->retry[1] | e->retry[2]);
}

/* The HCCL_OP_RETRY_* and HCCL_OP_EXPANSION_MODE echo of
 * externalinput.cc (docs/HCCL-SOURCE-STRINGS.md §8, §11). */
static void env_retry_mode(struct sl_rank *r, const struct hx_env *e)
{
	uint32_t pid = tid(r, T_MAIN);
	unsigned unfold = e->mode == HX_MODE_AI_CPU;
	char v[64];

	retry_level(e, v, sizeof v);
	if (e->set_retry)
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1881] [%u][HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE set by environment variable to [%s].",
		    pid, v);
	else
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1856] [%u][HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE is not set. The retryEnable of all levels is set to false.",
		    pid);
	if (e->set_params)
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1916] [%u][HCCL_ENV] HCCL_OP_RETRY_PARAMS is set, MaxCnt is [%u], HoldTime is [%u]ms, IntervalTime is [%u]ms.",
		    pid, e->retry_max_cnt, e->retry_hold_ms,
		    e->retry_interval_ms);
	else
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1892] [%u][HCCL_ENV] HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is [%u], HoldTime is [%u]ms, IntervalTime is [%u]ms",
		    pid, e->retry_max_cnt, e->retry_hold_ms,
		    e->retry_interval_ms);
	if (e->set_mode)
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1750] [%u][HCCL_ENV] environmental variable HCCL_OP_EXPANSION_MODE is [%s], aicpuUnfold[%u], aivMode[0], enableFfts[%u], aicpuCacheEnable[%u]",
		    pid, hx_mode_name(e->mode), unfold, !unfold, unfold);
	else
		say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[externalinput.cc:1712] [%u][HCCL_ENV] HCCL_OP_EXPANSION_MODE is not set, aicpuUnfold is [%u], aivMode is [0], aicpuCacheEnable is [%u]",
		    pid, unfold, unfold);
}

static const char *set_by(bool set)
{
	return set ? "environment variable" : "default";
}

static void env_lines(struct sl_rank *r)
{
	const struct hx_env *e = hx_scenario_env(r->in->sc, r->rank);
	uint32_t pid = tid(r, T_MAIN);

	env_retry_mode(r, e);
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[env_config.cc:271] [%u][HCCL_ENV] HCCL_EXEC_TIMEOUT set by %s to [%u]s",
	    pid, set_by(e->set_exec_timeout), e->exec_timeout_s);
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[env_config.cc:240] [%u]HCCL_CONNECT_TIMEOUT set by %s to [%u]s",
	    pid, set_by(e->set_connect), e->connect_timeout_s);
}

static void on_proc_start(struct sl_rank *r)
{
	uint32_t pid = tid(r, T_MAIN);

	say(r, W_ATRACE, LV_INFO | RUN, S_VERB, "[trace_attr.c:189](tid:%u) attr init success, timeout=0ms.",
	    pid);
	env_lines(r);
	say(r, W_RT, LV_INFO, S_INV, "[runtime.cc:1905] %u Init:open device success, device_id=%u, pid=%u.",
	    pid, r->dev->device_id, r->dev->host_pid);
	say(r, W_CCECPU, LV_INFO | RUN, S_FMT, "[main.cpp:352][ComputeProcessMain][tid:%u] Aicpu schedule start successfully, LD_LIBRARY_PATH=/usr/lib64:/usr/lib64/aicpu_kernels/0/aicpu_kernels_device",
	    r->dev->dev_pid);
}

static void on_comm_init(struct sl_rank *r, const struct hx_logrec *rec)
{
	const struct hx_comm *c = comm_of(r, rec->comm);
	uint32_t pid = tid(r, T_MAIN);
	uint64_t wait_us = 3 * SL_GAP_US;
	char root_ip[24];

	if (!c)
		return;
	r->cs[rec->comm].open = true;
	if (c->nmembers > 0)
		rank_ip(r->in, c->members[0], root_ip, sizeof root_ip);
	else
		snprintf(root_ip, sizeof root_ip, "%s", r->ip);
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[op_base.cc:1292] [%u]Entry-HcclCommInitRootInfoInner:ranks[%u], rank[%u], rootinfo: host ip[%s] port[60000] nicDeploy[1] identifier[%s], deviceLogicId[%u]",
	    pid, c->nmembers, (uint32_t)my_crank(r, rec->comm), root_ip,
	    c->identifier, r->dev->device_id);
	/* the first creation waits in its barrier for the last rank */
	if (!r->init_done) {
		r->rec_us += r->early_us;
		wait_us += r->early_us;
		r->init_done = true;
	}
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[hccl_comm.cc:129] [%u]hcclCommInitInfo:commId[hccl-%u-%d-%" PRIu64 "-%s], rank[%u], totalRanks[%u], serverId[%s], deviceType[4],logicDevId[%u], identifier[%s]",
	    pid, r->dev->host_pid, rec->comm, r->rec_us / 1000000, c->name,
	    (uint32_t)my_crank(r, rec->comm), c->nmembers, r->ip,
	    r->dev->device_id, c->identifier);
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[op_base.cc:489][%u][HCCL_TRACE]HcclCommInitRootInfo success,take time [%" PRIu64 "]us, rankNum[%u], rank[%u],rootInfo identifier[%s], server[%s], logicDevId[%u]",
	    pid, wait_us, c->nmembers, (uint32_t)my_crank(r, rec->comm),
	    c->identifier, r->ip, r->dev->device_id);
}

/* GetCMDTypeEnumStr: the lower-case op name of profName[...AicpuKernel] */
static const char *cmd_str(uint8_t coll)
{
	static const char *const n[] = {
		[HX_COLL_ALLREDUCE] = "allreduce",
		[HX_COLL_ALLGATHER] = "allgather",
		[HX_COLL_REDUCESCATTER] = "reduce_scatter",
		[HX_COLL_BROADCAST] = "broadcast",
		[HX_COLL_ALLTOALL] = "alltoall",
		[HX_COLL_SEND] = "send", [HX_COLL_RECV] = "receive",
	};
	return coll < HX_ARRAY_LEN(n) && n[coll] ? n[coll] : NULL;
}

/* Device addresses of a kernel's launch arguments (invented values):
 * 0 KFC task, 1 context, 2 tiling data. */
static uint64_t kfc_addr(const struct hx_logrec *rec, unsigned which)
{
	uint64_t c = rec->comm < 0 ? 0 : (uint64_t)rec->comm;

	return UINT64_C(0x12c100000000) + ((c & 0xfff) << 24) + which * UINT64_C(0x1000);
}

static uint32_t kfc_stream(const struct sl_rank *r, const struct hx_logrec *rec)
{
	return rec->comm >= 0 && r->dev->comm
		? stream_id_of(r, r->dev->comm[rec->comm].kstream,
			       rec->stream_id)
		: rec->stream_id;
}

/* L1, L3, L5 of HcclCommunicator::AicpuKfcTilingDataLaunchIn and
 * AicpuUnfoldKernelLaunchV2 (HCCL-SOURCE-STRINGS.md §1).  The op entry
 * line is not written: HCCL prints it only with HCCL_ENTRY_LOG_ENABLE. */
static void on_op_launch(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t pid = tid(r, T_MAIN), ks = kfc_stream(r, rec);
	const char *cmd = cmd_str(rec->coll);
	char tag[256];

	op_tag(r, rec, tag, sizeof tag);
	say(r, W_HCCL, LV_INFO, S_FMT, "[hccl_communicator_host.cc:7998] [%u]AicpuKfcTilingDataLaunchIn profName[%s%s] tag[%s] kfcOpStreamId[%u] mainStreamId[%u] kfcStreamId[%u] isCapture[0] mode[1] ",
	    pid, cmd ? cmd : "HcclOp", "AicpuKernel", tag, ks,
	    rec->stream_id, ks);
	say(r, W_HCCL, LV_INFO, S_FMT, "[hccl_communicator_host.cc:8219] [%u][HcclCommunicator]context[0x%" PRIx64 "] tilingDataPtr[0x%" PRIx64 "] tilingData[0x2c8]",
	    pid, kfc_addr(rec, 1), kfc_addr(rec, 2) + UINT64_C(0x100000000000));
	say(r, W_HCCL, LV_INFO, S_FMT, "[hccl_communicator_host.cc:8241] [%u][HcclCommunicator][AicpuUnfoldKernelLaunchV2] exec succ, isCustom[0].",
	    pid);
	say(r, W_RT, LV_DEBUG, S_INV, "[notify.cc:262] %u Record:notify record, device_id=%u, stream_id=%u.",
	    pid, r->dev->device_id, rec->stream_id);
	say(r, W_RT, LV_DEBUG, S_INV, "[notify.cc:318] %u Wait:notify wait, device_id=%u, stream_id=%u.",
	    pid, r->dev->device_id, rec->stream_id);
}

static void on_compute(struct sl_rank *r, const struct hx_logrec *rec)
{
	say(r, W_RT, LV_DEBUG, S_INV, "[kernel.cc:1184] %u KernelLaunch:launch kernel, device_id=%u, stream_id=%u, task_id=%u, kernel_name=%s.",
	    tid(r, T_MAIN), r->dev->device_id, rec->stream_id, rec->task_id,
	    rec->name ? rec->name : "unknown");
}

/* An ordinary AICPU op on a core: the AICPU scheduler's start and ack
 * lines (§10; kernelType 2).  serialNo follows the task id (invented). */
static void on_aicpu_op(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t w = worker_tid(r, rec->core);

	if (rec->text && !strcmp(rec->text, "end"))
		say(r, W_CCECPU, LV_INFO, S_FMT, "[aicpusd_event_manager.cpp:754][ProcessHWTSKernelEvent][tid:%u] End send ack to Ts, kernelType[2], deviceId[%u], subevent_id[0], mailboxId[0], serialNo[%u], streamId[%u], taskId[%u], result[0], originResult[0], status[0].",
		    w, r->dev->device_id, rec->task_id, rec->stream_id,
		    rec->task_id);
	else
		say(r, W_CCECPU, LV_INFO, S_FMT, "[aicpusd_event_manager.cpp:769][ExecuteHWTSEventTask][tid:%u] Begin to ExecuteTsKernelTask, mailboxId[0], serialNo[%u], streamId[%u], taskId[%u], dataDumpEnableMode[0], kernelType[2], subeventId[0].",
		    w, rec->task_id, rec->stream_id, rec->task_id);
}

/* ---- HCCL kernels on the AICPU (§2-§6 of HCCL-SOURCE-STRINGS.md) ---- */

static uint32_t main_sq(const struct sl_rank *r, const struct hx_logrec *rec)
{
	if (rec->comm < 0 || !r->dev->comm)
		return rec->sq_id;
	return stream_sq_of(r, r->dev->comm[rec->comm].mstream, rec->sq_id);
}

static const char *alg_name(uint8_t coll)
{
	return coll < HX_COLL_COUNT ? coll_exec[coll] : "Executor";
}

/* The communicator of a kernel record as this device saw it, or NULL. */
static struct sl_comm *kcomm(struct sl_rank *r, const struct hx_logrec *rec)
{
	return rec->comm >= 0 ? &r->cs[rec->comm] : NULL;
}

static void kernel_freed(struct sl_rank *r, const struct hx_logrec *rec)
{
	struct sl_comm *c = kcomm(r, rec);

	if (c)
		c->in_exec = false;
}

static void kernel_start(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t t = worker_tid(r, rec->core);
	struct sl_comm none = { 0 }, *c = kcomm(r, rec);
	char tag[256], dtag[256];

	if (!c)
		c = &none;
	c->in_exec = true;
	c->exec_idx++;
	c->coll = rec->coll;
	op_tag(r, rec, tag, sizeof tag);
	dev_tag(r, rec, dtag, sizeof dtag);
	say(r, W_CCECPU, LV_INFO, S_FMT, "[aicpusd_event_manager.cpp:667][ExecuteHWTSKFCEventTask][tid:%u] kfc task, streamId[%u], taskId[%u].",
	    t, rec->stream_id, rec->task_id);
	say(r, W_DHCCL, LV_INFO, S_FMT, "[hccl_aicpu_interface.cc:69] [%u]RunAicpuRpcSrvLaunchV2 KFCTask task 0x%" PRIx64 ", context 0x%" PRIx64 ", tilingData 0x%" PRIx64,
	    t, kfc_addr(rec, 0), kfc_addr(rec, 1), kfc_addr(rec, 2));
	say(r, W_DHCCL, LV_INFO, S_INV, "[aicpu_communicator.cc:2378] [%u][HcclCommAicpu][Orchestrate]kernel start, tag[%s], index[%u], streamId:%u, core[%d].",
	    t, dtag, rec->op, rec->stream_id, rec->core);
	say(r, W_DHCCL, LV_INFO, S_FMT, "[aicpu_communicator.cc:2387] [%u][HcclCommAicpu][Orchestrate]start tag[%s] newTag[%s] algName[%s] identifier[%s]",
	    t, tag, dtag, alg_name(rec->coll), ident(r, rec->comm));
	say(r, W_DHCCL, LV_INFO, S_FMT, "[aicpu_communicator.cc:2631] [%u]HcclOpExecFsmInitProcess tag:%s, isDeviceMode:0, index:%u",
	    t, tag, c->exec_idx);
}

static void kernel_expanded(struct sl_rank *r, const struct hx_logrec *rec)
{
	say(r, W_DHCCL, LV_INFO, S_FMT, "[aicpu_communicator.cc:3739] [%u]hccl aicpu launch hccl op task success. stream sqid:%u begin:%u end:%u",
	    worker_tid(r, rec->core), main_sq(r, rec), sqpos(r, rec->head),
	    sqpos(r, rec->tail));
}

/* W1 (resident kernel waiting for M_c to drain) or R3 (SQ full). */
static void kernel_status(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t t = worker_tid(r, rec->core);
	char tag[256];

	if (rec->text && !strcmp(rec->text, "rtsq")) {
		say(r, W_DHCCL, LV_INFO | RUN, S_FMT, "[dispatcher_aicpu.cc:759] [%u][LaunchTask][WaitLaunchWhileLoop]Current state. sqid:%u, head:%u, tail:%u, cnt:%u",
		    t, main_sq(r, rec), sqpos(r, rec->head),
		    sqpos(r, rec->tail), rec->sqe_cnt);
		return;
	}
	op_tag(r, rec, tag, sizeof tag);
	say(r, W_DHCCL, LV_INFO | RUN, S_FMT, "[aicpu_communicator.cc:3888] [%u][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:%u sqid:%u, head:%u, tail:%u, group[%s] tag[%s]",
	    t, r->dev->device_id, main_sq(r, rec), sqpos(r, rec->head),
	    sqpos(r, rec->tail), ident(r, rec->comm), tag);
}

/* C1 for every communicator open on the device, C2 when the busy ones
 * fill the cores and there are more communicators than cores (§5). */
static void comm_status(struct sl_rank *r, uint32_t t)
{
	const struct hx_state *st = r->in->st;
	long long cores = r->in->sc->cores, busy = 0;
	uint32_t i, total = 0;
	char tag[256], dtag[256];

	for (i = 0; i < st->ncomms; i++) {
		struct hx_logrec op = { .comm = (int32_t)i,
					.coll = r->cs[i].coll };

		if (!r->cs[i].open)
			continue;
		total++;
		busy += r->cs[i].in_exec;
		op_tag(r, &op, tag, sizeof tag);
		dev_tag(r, &op, dtag, sizeof dtag);
		say(r, W_DHCCL, LV_INFO | RUN, S_FMT, "[aicpu_communicator.cc:3526] [%u]AicpuComm: group[%s], status[%s], op[tag: %s, newTag: %s, index: %u], aicpuCoreNum[%lld]",
		    t, st->comms[i].identifier,
		    r->cs[i].in_exec ? "inExec" : "unExec",
		    r->cs[i].exec_idx ? tag : "", r->cs[i].exec_idx ? dtag : "",
		    r->cs[i].exec_idx, cores);
	}
	if (busy >= cores && total > cores)
		say(r, W_DHCCL, LV_WARNING | RUN, S_FMT, "[aicpu_communicator.cc:3533] [%u]In Execution group num[%lld], total group num[%u], bigger than Aicpu cores num[%lld]. Aicpu core being fully utilized may cause tasks to get stuck, and it is necessary to reduce the num of comm.",
		    t, busy, total, cores);
}

/* The exit of a failing kernel (§4 T1a, §6): K1, D14, D15 with retry on,
 * C1/C2, D16 with HcclResult ret; then its core is free. */
static void kernel_fail(struct sl_rank *r, const struct hx_logrec *rec,
			int ret)
{
	uint32_t t = worker_tid(r, rec->core);
	char dtag[256];

	dev_tag(r, rec, dtag, sizeof dtag);
	say(r, W_DHCCL, LV_INFO, S_FMT, "[aicpu_communicator.cc:2556] [%u]hccl aicpu set kfcStatus[2]",
	    t);
	say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:2132] [%u][HcclCommAicpu][ExecOp] executor op fail, tag[%s], algName[%s], identifier[%s]",
	    t, dtag, alg_name(rec->coll), ident(r, rec->comm));
	if (rec->comm >= 0 && r->dev->comm && r->dev->comm[rec->comm].retry)
		say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:2136] [%u][HcclCommAicpu][ExecOp] executor op fail, some error logs may be recorded in the log/run/device directory, search keyword [ErrToWarn]",
		    t);
	comm_status(r, t);
	say(r, W_DHCCL, LV_ERROR, S_FMT, "[hccl_aicpu_interface.cc:115] [%u]run AicpuRunRpcServerV2 failed. ret[%d]",
	    t, ret);
	kernel_freed(r, rec);
}

static void kernel_end(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t t = worker_tid(r, rec->core);
	bool ok = !rec->text || !strcmp(rec->text, "ok") ||
		  !strcmp(rec->text, "END");
	char tag[256], dtag[256];

	op_tag(r, rec, tag, sizeof tag);
	dev_tag(r, rec, dtag, sizeof dtag);
	if (ok)
		say(r, W_DHCCL, LV_INFO, S_FMT, "[aicpu_communicator.cc:2146] [%u][HcclCommAicpu][ExecOp] executor op success tag[%s], newTag[%s], algName[%s], identifier[%s].",
		    t, tag, dtag, alg_name(rec->coll), ident(r, rec->comm));
	say(r, W_DHCCL, LV_INFO, S_INV, "[aicpu_communicator.cc:2561] [%u][HcclCommAicpu][Orchestrate]kernel end, tag[%s], index[%u], streamId:%u, state[%s].",
	    t, dtag, rec->op, rec->stream_id, rec->text ? rec->text : "END");
	if (!ok) {
		kernel_fail(r, rec, 4);         /* HCCL_E_INTERNAL */
		return;
	}
	say(r, W_DHCCL, LV_INFO, S_FMT, "[hccl_aicpu_interface.cc:122] [%u]end RunAicpuRpcSrvLaunchV2",
	    t);
	kernel_freed(r, rec);
}

static void on_kernel(struct sl_rank *r, const struct hx_logrec *rec)
{
	switch (rec->kind) {
	case HX_LR_KERNEL_START: kernel_start(r, rec); break;
	case HX_LR_KERNEL_EXPANDED: kernel_expanded(r, rec); break;
	case HX_LR_KERNEL_END: kernel_end(r, rec); break;
	default: kernel_status(r, rec); break;
	}
}

static void on_kernel_timeout(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t t = worker_tid(r, rec->core);

	/* text: "rtsq" (SQ full inside the kernel, HCCL_E_AGAIN after
	 * T_exec + 20 s), "launch" (never got a core, T_exec + 25 s), else
	 * the KFC poll of a resident kernel */
	if (rec->text && strcmp(rec->text, "rtsq") == 0) {
		say(r, W_DHCCL, LV_ERROR, S_FMT, "[dispatcher_aicpu.cc:750] [%u]Rtsq full, timeout %" PRIu64 "s. curhead:%u, sqId:%u",
		    t, rec->timeout_s, sqpos(r, rec->head), main_sq(r, rec));
		say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:3722] [%u][HcclCommAicpu][LaunchTask]algName[%s] ret = 20",
		    t, alg_name(rec->coll));
		kernel_fail(r, rec, 20);        /* HCCL_E_AGAIN */
		return;
	}
	if (rec->text && strcmp(rec->text, "launch") == 0) {
		say(r, W_RT, LV_ERROR, S_VERB, "[stream.cc:1133]%u GetError:Aicpu kernel execute failed, device_id=%u, stream_id=%u, task_id=%u, flip_num=0, fault so_name=libccl_kernel.so, fault kernel_name=RunAicpuRpcSrvLaunchV2_%s, fault op_name=, extend_info=(info_type:4, info_len:0, msg_info:).",
		    tid(r, T_CALLBACK), r->dev->device_id, rec->stream_id,
		    rec->task_id, cmd_str(rec->coll) ? cmd_str(rec->coll) : "allreduce");
		return;
	}
	say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:3909] [%u][HcclCommAicpu]KFC timeout.. group[%s].",
	    t, ident(r, rec->comm));
	say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:2694] [%u]WaitTaskFinish failed, ret:9, identifier[%s]",
	    t, ident(r, rec->comm));
	kernel_fail(r, rec, 9);                 /* HCCL_E_TIMEOUT */
}

/* ---- device-side [TaskException] dump ---- */

/* The failing task: a notify wait, or the copy of a link error. */
static uint8_t rec_task_kind(const struct hx_logrec *rec)
{
	return rec->kind == HX_LR_LINK_ERROR ? HX_T_COPY : HX_T_NOTIFY_WAIT;
}

/* One base line for a stream snapshot; the failing stream takes the
 * record's task, peer and (for copies) addresses. */
static void exc_base(struct sl_rank *r, const struct hx_logrec *rec,
		     const struct hx_lr_stream *s, const char *srcline)
{
	const struct hx_lr_pos *head = s->npos ? &r->in->pos[s->first_pos]
					       : NULL;
	bool failing = s->stream_id == rec->stream_id;
	uint8_t kind = failing ? rec_task_kind(rec)
			       : head ? head->kind : HX_T_NOTIFY_WAIT;
	bool rdma = failing && rec->rdma;
	int32_t peer = failing ? rec->peer : head ? head->peer : -1;
	int32_t nt = failing ? (int32_t)rec->notify_rt
			     : head ? head->notify_rt : -1;
	uint64_t a1 = 0, a2 = 0;
	char tb[16];

	if (failing && kind == HX_T_COPY) {
		a1 = op_addr(rec, 1);
		a2 = op_addr(rec, 0);
	}
	say(r, W_DHCCL, LV_ERROR, S_VERB, "%s [%u]%sbase information is streamId:%u, sqid:%u, head:%u, tail:%u, type:%s, localRank:%u, remoteRank:%u, taskId:%u, notifyId:%u, addr1High:0x%" PRIx64 ", addr1Low:0x%" PRIx64 ", addr2High:0x%" PRIx64 ", addr2Low:0x%" PRIx64 ".",
	    srcline, dtid(r, T_DEXCEPT),
	    kind == HX_T_COPY ? "[TaskException][AICPU]" : "[TaskException]",
	    s->stream_id, s->sq_id, sqpos(r, s->head_pos),
	    sqpos(r, s->tail_pos), exc_type(kind, rdma, tb, sizeof tb),
	    (uint32_t)my_crank(r, rec->comm),
	    (uint32_t)crank(r->in, peer, rec->comm),
	    failing ? rec->task_id : s->head_task_id,
	    nt < 0 ? 0U : (uint32_t)nt, a1 >> 32, a1 & UINT64_C(0xffffffff),
	    a2 >> 32, a2 & UINT64_C(0xffffffff));
}

static void exc_opdata(struct sl_rank *r, const struct hx_logrec *rec)
{
	char tag[256];

	dev_tag(r, rec, tag, sizeof tag);
	say(r, W_DHCCL, LV_ERROR, S_VERB, "[aicpu_communicator.cc:3806] [%u][TaskException]opData information is tag:%s, group:%s, opIndex:%u, count:%" PRIu64 ", dataType:%u, opType:%u, rootId:4294967295, dstAddr:0x%" PRIx64 ", srcAddr:0x%" PRIx64 ".",
	    dtid(r, T_DEXCEPT), tag, ident(r, rec->comm), rec->op,
	    rec_count(rec), dt_num(rec->dtype),
	    rec->coll < HX_COLL_COUNT ? coll_cmd[rec->coll] : 0U,
	    op_addr(rec, 1), op_addr(rec, 0));
}

/* "task sequence is OP(i),<trail>"; a trail may bring its own OP(i). */
static void trail_line(struct sl_rank *r, const struct hx_logrec *rec)
{
	char op[32] = "";

	if (strncmp(rec->trail, "OP(", 3) != 0)
		snprintf(op, sizeof op, "OP(%u),", rec->op);
	say(r, W_DHCCL, LV_ERROR, S_VERB, "[aicpu_communicator.cc:3807] [%u][TaskException]task sequence is %s%s",
	    dtid(r, T_DEXCEPT), op, rec->trail);
}

static void device_dump(struct sl_rank *r, const struct hx_logrec *rec,
			const char *srcline)
{
	uint32_t i;

	if (rec->nstreams == 0)
		return;  /* op not activated: HCCL prints nothing (§7) */
	if (rec->kind == HX_LR_LINK_ERROR)
		say(r, W_DHCCL, LV_ERROR, S_VERB, "[aicpu_communicator.cc:3737] [%u][HcclCommAicpu][PrintTaskExceptionByTaskId]streamId:%u tail:%u cqeType:%u",
		    dtid(r, T_DEXCEPT), rec->stream_id, sqpos(r, rec->tail),
		    sqe_type(HX_T_COPY, rec->rdma));
	for (i = 0; i < rec->nstreams; i++)
		exc_base(r, rec, &r->in->streams[rec->first_stream + i],
			 srcline);
	exc_opdata(r, rec);
	if (rec->trail)
		trail_line(r, rec);
}

/* ---- host-side HCCL "Task run failed" block ---- */

struct blk {
	const char *kind;       /* Timeout, RunFailed */
	const char *mode;       /* AICPU, HOST */
	const char *task_type;  /* Notify Wait, Memcpy */
	const char *link;       /* DMA para form when non-NULL */
};

static void blk_base(struct sl_rank *r, const struct hx_logrec *rec,
		     const struct blk *b)
{
	char tag[256];

	op_tag(r, rec, tag, sizeof tag);
	say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:908] [%u][TaskExecStage][%s][%s]Task run failed, base information is streamID:[%u], taskID[%u], taskType[%s], tag[%s], index[%u], AlgType(level 0-1-2):[" SL_ALG "].",
	    tid(r, T_CALLBACK), b->kind, b->mode, rec->stream_id, rec->task_id,
	    b->task_type, tag, rec->op);
}

static void blk_para(struct sl_rank *r, const struct hx_logrec *rec,
		     const struct blk *b)
{
	bool aicpu = strcmp(b->mode, "AICPU") == 0;
	char peer[16], tag[280] = "";

	peer_str(r, rec, "local", peer, sizeof peer);
	if (aicpu) {
		char dt[256];

		dev_tag(r, rec, dt, sizeof dt);
		snprintf(tag, sizeof tag, ", tag[%s]", dt);
	}
	if (b->link)
		say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:842] [%u][TaskExecStage][%s][%s]Task run failed, para information is src:[0x%" PRIx64 "], dst:[0x%" PRIx64 "], size:[0x%" PRIx64 "], notify id:[0xffffffffffffffff], link type:[%s], remote rank:[%s]%s.",
		    tid(r, T_CALLBACK), b->kind, b->mode, op_addr(rec, 0),
		    op_addr(rec, 1), rec->bytes, b->link, peer, tag);
	else
		say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:842] [%u][TaskExecStage][%s][%s]Task run failed, para information is notify id:[0x%016" PRIx64 "], stage:[ffffffff], remote rank:[%s]%s.",
		    tid(r, T_CALLBACK), b->kind, b->mode, rec->notify_hccl, peer,
		    tag);
}

static void blk_group(struct sl_rank *r, const struct hx_logrec *rec,
		      const struct blk *b)
{
	say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:771] [%u][TaskExecStage][%s][%s]Task run failed, groupRank information is group:[%s], user define information[], rankSize[%u], rankId[%u %u].",
	    tid(r, T_CALLBACK), b->kind, b->mode, ident(r, rec->comm),
	    comm_size(r, rec->comm), (uint32_t)my_crank(r, rec->comm),
	    (uint32_t)crank(r->in, rec->peer, rec->comm));
}

static void blk_opdata(struct sl_rank *r, const struct hx_logrec *rec,
		       const struct blk *b)
{
	bool host = strcmp(b->mode, "HOST") == 0;
	char ts[SL_TSBUF] = "", start[SL_TSBUF + 32] = "";

	if (host) {
		uint64_t wait = rec->timeout_s * 1000000;

		fmt_ts(r, r->rec_us > wait ? r->rec_us - wait : 0, ts);
		snprintf(start, sizeof start, "timeStamp:[%s], ", ts);
	}
	say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:704] [%u][TaskExecStage][%s][%s]Task run failed, opData information is %sdeviceId%s[%u], index[%u], count[%" PRIu64 "], %ssrc[0x%" PRIx64 "], dst[0x%" PRIx64 "], dataType[%s].",
	    tid(r, T_CALLBACK), b->kind, b->mode, start, host ? "" : ":",
	    r->dev->device_id, rec->op, rec_count(rec),
	    coll_reduces(rec->coll) ? "reduceType[sum], " : "",
	    op_addr(rec, 0), op_addr(rec, 1), dt_name(rec->dtype));
}

static void host_block(struct sl_rank *r, const struct hx_logrec *rec,
		       const struct blk *b)
{
	if (strcmp(b->mode, "AICPU") == 0)      /* PrintAicpuErrorMessage */
		say(r, W_HCCL, LV_ERROR, S_FMT, "[task_exception_handler.cc:1365] [%u][TaskExecStage][%s][AICPU]Task from HCCL run failed.",
		    tid(r, T_CALLBACK), b->kind);
	blk_base(r, rec, b);
	blk_para(r, rec, b);
	blk_group(r, rec, b);
	blk_opdata(r, rec, b);
}

/* ---- NOTIFY_TIMEOUT ---- */

static void rt_notify_timeout(struct sl_rank *r, const struct hx_logrec *rec)
{
	say(r, W_RT, LV_ERROR, S_FMT, "[device_error_proc.cc:1593]%u ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:%u, dieId:0), serial number is %u, notify wait timeout occurred during task execution, stream_id:%u, sq_id:%u, task_id:%u, notify_id=%u, timeout=%" PRIu64 "s.",
	    tid(r, T_CALLBACK), r->dev->device_id, ++r->serial, rec->stream_id,
	    rec->sq_id, rec->task_id, rec->notify_rt, rec->timeout_s);
}

static void ei0002(struct sl_rank *r, const struct hx_logrec *rec)
{
	char ts[SL_TSBUF], tag[256], peer[16], local[16];

	if (r->ei0002)
		return;
	r->ei0002 = true;
	fmt_ts(r, tick(r, F_PLOG), ts);
	dev_tag(r, rec, tag, sizeof tag);
	peer_str(r, rec, "4294967295", peer, sizeof peer);
	peer_str(r, rec, "local", local, sizeof local);
	raw(r, F_PLOG, S_FMT, "[PID: %u] %s Communication_Error_Timeout(EI0002): An timeout occurs when the Notify register waits for execution. Waiting peer rank: %s; task information: streamID:[%u], taskID[%u], taskType[Notify Wait], tag[%s], AlgType(level 0-1-2):[" SL_ALG "].; communication operator information: notify id:[0x%016" PRIx64 "], stage:[ffffffff], remote rank:[%s]; communicator: %s.",
	    r->dev->host_pid, ts, peer, rec->stream_id, rec->task_id, tag,
	    rec->notify_hccl, local, ident(r, rec->comm));
}

static void on_notify_timeout(struct sl_rank *r, const struct hx_logrec *rec)
{
	static const struct blk dev = { "Timeout", "AICPU", "Notify Wait",
					NULL };
	static const struct blk host = { "Timeout", "HOST", "Notify Wait",
					 NULL };

	rt_notify_timeout(r, rec);
	if (rec->comm < 0)
		return;  /* a program's own notify: no HCCL involved */
	if (rec->host_side) {
		host_block(r, rec, &host);
		return;
	}
	host_block(r, rec, &dev);
	ei0002(r, rec);
	device_dump(r, rec, "[aicpu_communicator.cc:3083]");
}

/* ---- LINK_ERROR ---- */

static void sdma_error(struct sl_rank *r, const struct hx_logrec *rec)
{
	static const struct blk b = { "RunFailed", "AICPU", "Memcpy", "HCCS" };
	char ts[SL_TSBUF], tag[256], peer[16];

	say(r, W_RT, LV_ERROR, S_VERB, "[task_info.cc:1170]%u PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, dev_id=%u, stream_id=%u, task_id=%u, context_id=0, thread_id=0, err_type=4[fftsplus sdma error]",
	    tid(r, T_CALLBACK), r->dev->device_id, rec->stream_id,
	    rec->task_id);
	host_block(r, rec, &b);
	fmt_ts(r, tick(r, F_PLOG), ts);
	op_tag(r, rec, tag, sizeof tag);
	peer_str(r, rec, "4294967295", peer, sizeof peer);
	raw(r, F_PLOG, S_VERB, "[PID: %u] %s Execution_Error_SDMA(EI0012): SDMA memory copy task exception occurred. Remote rank: [%s]. Base information: [streamID:[%u], taskID[%u], taskType[Memcpy], tag[%s], AlgType(level 0-1-2):[" SL_ALG "].]. Task information: [src:[0x%" PRIx64 "], dst:[0x%" PRIx64 "], size:[0x%" PRIx64 "], notify id:[0xffffffffffffffff], link type:[HCCS], remote rank:[%s]]. Communicator information: [group:[%s], user define information[], rankSize[%u], rankId[%u]].",
	    r->dev->host_pid, ts, peer, rec->stream_id, rec->task_id, tag,
	    op_addr(rec, 0), op_addr(rec, 1), rec->bytes, peer,
	    ident(r, rec->comm), comm_size(r, rec->comm),
	    (uint32_t)my_crank(r, rec->comm));
}

static void roce_dump(struct sl_rank *r)
{
	static const uint32_t words[8] = { 0x00041580, 0, 0, 0x1500047c,
					   0, 0, 0, 0 };
	unsigned i;

	say(r, W_ROCE, LV_ERROR, S_VERB, "[hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15");
	for (i = 0; i < 8; i++)
		say(r, W_ROCE, LV_ERROR, S_VERB, "[hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x%08x): 0x%08x",
		    i, words[i]);
	say(r, W_HCCP, LV_ERROR, S_VERB, "[ra_hdc_lite.c:794]tid:%u,ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]",
	    tid(r, T_POLL));
}

static void rdma_error(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t peer = rec->peer >= 0 ? (uint32_t)rec->peer : r->rank;
	char cqe[SL_TSBUF], ts[SL_TSBUF], pip[24], dip[24], pdip[24];

	rank_ip(r->in, peer, pip, sizeof pip);
	dev_ip(r->rank, dip, sizeof dip);
	dev_ip(peer, pdip, sizeof pdip);
	roce_dump(r);
	fmt_cqe_time(r->rec_us, cqe);
	say(r, W_HCCL, LV_ERROR, S_VERB, "[heartbeat.cc:1229] [%u][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[%s],localInfo{server[%s],deviceId[%s],deviceIp[%s]}, remoteIP{server[%s],deviceId[%s],deviceIp[%s]}",
	    tid(r, T_HEARTBEAT), cqe, r->ip, r->ip, dip, pip, pip, pdip);
	fmt_ts(r, tick(r, F_PLOG), ts);
	raw(r, F_PLOG, S_VERB, "[PID: %u] %s Execution Error ROCE CQE(EI0013): An error CQE occurred during operator execution. Local information: server %s, device ID %u, device IP %s. Peer information: server %s, device ID %u, device IP %s.",
	    r->dev->host_pid, ts, r->ip, r->dev->device_id, dip, pip,
	    r->in->st->dev[peer].device_id, pdip);
	raw(r, F_PLOG, S_VERB, "Possible Cause: 1. The network between two devices is abnormal. For example, the network port is intermittently disconnected.2. The peer process exits abnormally in advance. As a result, the local end cannot receive the response from the peer end.");
	raw(r, F_PLOG, S_VERB, "Solution: 1. Check whether the network devices between the two ends are abnormal.2. Check whether the peer process exits first. If yes, check the cause of the process exit.");
}

static void on_link_error(struct sl_rank *r, const struct hx_logrec *rec)
{
	if (rec->rdma)
		rdma_error(r, rec);
	else
		sdma_error(r, rec);
	if (rec->comm >= 0)
		device_dump(r, rec, "[aicpu_communicator.cc:3750]");
}

/* ---- RETRY: rec->text selects the line (docs/LOGS-SIMULATED.md) ---- */

/* "CUR -> NEXT", "CUR->NEXT" or "CUR>NEXT", optionally after "Agent:" or
 * "Server:", then "state:": a host State Transfer line. */
static bool retry_transfer(struct sl_rank *r, const struct hx_logrec *rec,
			   const char *t)
{
	const char *role = my_crank(r, rec->comm) == 0 ? "Server" : "Agent";
	const char *gt, *end, *next;

	if (!strncmp(t, "Agent:", 6) || !strncmp(t, "Server:", 7)) {
		role = t[0] == 'A' ? "Agent" : "Server";
		t = strchr(t, ':') + 1;
	}
	if (!strncmp(t, "state:", 6))
		t += 6;
	gt = strchr(t, '>');
	if (!gt)
		return false;
	for (end = gt; end > t && (end[-1] == '-' || end[-1] == ' '); end--)
		;
	for (next = gt + 1; *next == ' '; next++)
		;
	if (end == t || !*next)
		return false;
	say(r, W_HCCL, LV_INFO | RUN, S_FMT, "[opretry_base.h:236] [%u][OpRetry][%s]State Transfer, cur state %.*s, next state %s",
	       tid(r, T_RETRY), role, end - t > 200 ? 200 : (int)(end - t), t,
	       next);
	return true;
}

/* Device lines of the op retry FSM (§7): levels and texts of ac.cc. */
static bool retry_device(struct sl_rank *r, const struct hx_logrec *rec,
			 const char *t)
{
	uint32_t wt = worker_tid(r, rec->core);
	char tag[256];

	op_tag(r, rec, tag, sizeof tag);
	if (!strcmp(t, "stop"))
		say(r, W_DHCCL, LV_INFO | RUN, S_FMT, "[aicpu_communicator.cc:2952] [%u][OpRetry][AICPU]hccl aicpu stop by sdma/write task exception, can retry.", wt);
	else if (!strcmp(t, "retry"))
		say(r, W_DHCCL, LV_INFO | RUN, S_FMT, "[aicpu_communicator.cc:3427] [%u][OpRetry][AICPU]retry launch start, retryCnt:%u, tag[%s].",
		    wt, rec->retry_cnt, tag);
	else if (!strcmp(t, "wait_timeout"))
		say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:2491] [%u][OpRetry][AICPU]hccl aicpu wait retry timeout[%" PRIu64 " ms].",
		    wt, rec->timeout_s * 1000);
	else if (!strcmp(t, "inplace"))
		say(r, W_DHCCL, LV_ERROR, S_FMT, "[aicpu_communicator.cc:2905] [%u][Opretry][AICPU][HcclOpExecFsmStoppedProcess]can not retry for inpace error.", wt);
	else
		return false;
	return true;
}

static void on_retry(struct sl_rank *r, const struct hx_logrec *rec)
{
	const char *t = rec->text;
	uint32_t rt = tid(r, T_RETRY);

	if (!t || !*t)
		return;
	if (retry_transfer(r, rec, t) || retry_device(r, rec, t))
		return;
	if (!strcmp(t, "error"))        /* HCCL logs no ErrorCode 2 (RDMA) */
		say(r, W_HCCL, LV_INFO | RUN, rec->rdma ? S_INV : S_FMT, "[opretry_agent.cc:343] [%u][OpRetry][Agent]Get ErrorCode[%d] rertryCnt[%u]",
		    rt, rec->rdma ? 2 : 1, rec->retry_cnt);
	else if (!strcmp(t, "constraint"))
		say(r, W_HCCL, LV_ERROR, S_FMT, "[opretry_agent.cc:591] [%u][OpRetry][Agent]can not retry for constraint", rt);
	else if (!strcmp(t, "cmd_timeout"))
		say(r, W_HCCL, LV_ERROR, S_FMT, "[opretry_agent.cc:400] [%u][OpRetry]WaitCommand timeout", rt);
	else
		say(r, W_HCCL, LV_INFO | RUN, S_INV, "[opretry_base.cc:140] [%u][OpRetry]%s", rt, t);
}

/* ---- heartbeat ---- */

static void on_heartbeat(struct sl_rank *r, const struct hx_logrec *rec)
{
	bool lost = rec->kind == HX_LR_HEARTBEAT_LOST;
	char pip[24], when[SL_TSBUF];

	if (rec->peer < 0)
		return;
	rank_ip(r->in, (uint32_t)rec->peer, pip, sizeof pip);
	say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[heartbeat.cc:951] [%u][TaskExecStage][HeartbeatAbnormal]local rank [%s/%u]: crimer rank [%s/%d] status[%s] by informer rank [%s/%u]",
	       tid(r, T_HEARTBEAT), r->ip, r->rank, pip, rec->peer,
	       lost ? "LOST" : "STUCK", r->ip, r->rank);
	fmt_ctime(r->rec_us, when);
	if (lost)
		say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:610] [%u][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[%s/%d], Arrival Time:[%s], Discoverer:[%s/%u], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected",
		    tid(r, T_CALLBACK), pip, rec->peer, when, r->ip, r->rank);
	else
		say(r, W_HCCL, LV_ERROR, S_VERB, "[task_exception_handler.cc:610] [%u][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[%s/%d], Arrival Time:[%s], ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck",
		    tid(r, T_CALLBACK), pip, rec->peer, when);
}

/* ---- AICPU op timeout, TSCH dumps, stream aborts ---- */

static void on_aicpu_timeout(struct sl_rank *r, const struct hx_logrec *rec)
{
	const char *op = rec->name ? rec->name : "unknown";
	uint64_t now = SL_TICK_BOOT + rec->t_ns / (1000000000ULL / SL_TICK_HZ);
	uint64_t lim = rec->timeout_s * SL_TICK_HZ;

	say(r, W_DAICPU, LV_ERROR, S_VERB, "[aicpusd_monitor.cpp:437][HandleTaskTimeout][tid:%u] Send timeout to tsdaemon, tsdaemon will kill aicpu-sd process, thread index[%d], op name[%s], serialNo=%u, stream_id=%u, task_id=%u, nowTick:%" PRIu64 ", startTick:%" PRIu64 ", timeOut:%" PRIu64 ", tickFreq:%llu.",
	    dtid(r, T_DMONITOR), rec->core < 0 ? 0 : rec->core, op,
	    ++r->aicpu_serial, rec->stream_id, rec->task_id, now,
	    now > lim ? now - lim : 0, lim, SL_TICK_HZ);
	say(r, W_RT, LV_ERROR, S_VERB, "[task_info.cc:1495]%u PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=%u, stream_id=%u, task_id=%u, flip_num=0, fault so_name=, fault kernel_name=, fault op_name=%s, extend_info=(info_type:4, info_len:%zu, msg_info:%s).",
	    tid(r, T_CALLBACK), r->dev->device_id, rec->stream_id,
	    rec->task_id, op, strlen(op), op);
	say(r, W_RT, LV_ERROR, S_VERB, "[api_c.cc:661]%u rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a",
	    tid(r, T_MAIN));
}

/* SQE types whose detail text no real dump shows: the detail is invented;
 * with log_fidelity verified only the verbatim common part is written
 * ("pos=N: stream_id=S, task_id=T, sqe_type=K", the shape samples/14 and
 * the vendor's stuck-process guide print before each type's detail). */
static void dump_pos_other(struct sl_rank *r, const struct hx_lr_stream *s,
			   const struct hx_lr_pos *p, uint32_t at)
{
	unsigned type = p->kind == HX_T_NOTIFY_WAIT ? 7
			: p->kind == HX_T_NOTIFY_RECORD ? 6
			: p->kind == HX_T_COPY ? 11 : 1;

	if (r->verified) {
		raw(r, F_DEV, S_VERB, "pos=%u: stream_id=%u, task_id=%u, sqe_type=%u",
		    at, s->stream_id, p->task_id, type);
		return;
	}
	if (type == 7 || type == 6)
		raw(r, F_DEV, S_INV, "pos=%u: stream_id=%u, task_id=%u, sqe_type=%u, %s, notify_id=%d",
		    at, s->stream_id, p->task_id, type,
		    type == 7 ? "Notify Wait" : "Notify Record", p->notify_rt);
	else
		raw(r, F_DEV, S_INV, "pos=%u: stream_id=%u, task_id=%u, sqe_type=%u, %s",
		    at, s->stream_id, p->task_id, type, type == 11 ? "SDMA" : "AICPU");
}

static void dump_pos(struct sl_rank *r, const struct hx_lr_stream *s,
		     uint32_t i)
{
	const struct hx_lr_pos *p = &r->in->pos[s->first_pos + i];
	uint32_t at = sqpos(r, s->head_pos + i);

	switch (p->kind) {
	case HX_T_EVENT_WAIT:
		raw(r, F_DEV, S_VERB, "pos=%u: stream_id=%u, task_id=%u, sqe_type=5, Event Wait, event_id=%d",
		    at, s->stream_id, p->task_id, p->event);
		break;
	case HX_T_EVENT_RECORD:
		raw(r, F_DEV, S_VERB, "pos=%u: stream_id=%u, task_id=%u, sqe_type=4, Event Record, event_id=%d, isSync=0",
		    at, s->stream_id, p->task_id, p->event);
		break;
	case HX_T_AICORE:
		raw(r, F_DEV, S_VERB, "pos=%u: stream_id=%u, task_id=%u, sqe_type=0, FFTS",
		    at, s->stream_id, p->task_id);
		break;
	default:
		dump_pos_other(r, s, p, at);
		break;
	}
}

static void dump_stream(struct sl_rank *r, const struct hx_logrec *rec,
			const struct hx_lr_stream *s)
{
	static const char sep[] = "################################################################";
	const struct hx_lr_pos *head = s->npos ? &r->in->pos[s->first_pos]
					       : NULL;
	unsigned type = head ? sqe_type(head->kind, false) : 3;
	uint64_t waited = s->wait_ns / 1000000000ULL;
	uint32_t pid = r->dev->host_pid, hp = sqpos(r, s->head_pos), i;

	if (rec->timeout_s)
		say(r, W_TSCH, LV_ERROR, S_VERB, "(dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=%u, sq_id=%u, is_need_process=1, exe_time=%" PRIu64 ", time_out=%" PRIu64 ", stream_id=%u, task_id=%u, cur_head=%u, wait_sqe_head=%u.",
		    pid, s->sq_id, waited, rec->timeout_s, s->stream_id,
		    s->head_task_id, hp, hp);
	say(r, W_TSCH, LV_ERROR, S_VERB, "(dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=%u, type=%u, sq_pid=%u",
	    s->sq_id, type, pid);
	raw(r, F_DEV, S_VERB, "%s", sep);
	raw(r, F_DEV, S_VERB, "stream_id=%u, rtsq_id=%u, sq_fsm=0x9, cur_wait_time=%" PRIu64 ", head=%u, tail=%u, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=%u, cq_tail=%u, pid=%u, vf_id=0, is_mc2_sq=0",
	    s->stream_id, s->sq_id, waited, hp, sqpos(r, s->tail_pos),
	    hp % 1024, hp % 1024, pid);
	raw(r, F_DEV, S_VERB, "stream_id=%u, overflow_en=0, ge_op_tag=4294967295, has_overflow=0",
	    s->stream_id);
	for (i = 0; i < s->npos; i++)
		dump_pos(r, s, i);
	raw(r, F_DEV, S_VERB, "%s", sep);
}

static void on_stream_dump(struct sl_rank *r, const struct hx_logrec *rec)
{
	uint32_t i;

	for (i = 0; i < rec->nstreams; i++)
		dump_stream(r, rec, &r->in->streams[rec->first_stream + i]);
}

static void on_stream_abort(struct sl_rank *r, const struct hx_logrec *rec)
{
	say(r, W_RT, LV_ERROR, S_VERB, "[stars_engine.cc:1551]%u ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=%u, stream_id=%u, task_id=%u, sqe_type=3(place holder), errType=0x20(sq sw status error), sqSwStatus=0x105",
	    tid(r, T_CALLBACK), r->dev->device_id, rec->stream_id,
	    rec->task_id);
}

static void write_rec(struct sl_rank *r, const struct hx_logrec *rec)
{
	switch (rec->kind) {
	case HX_LR_PROC_START: on_proc_start(r); break;
	case HX_LR_COMM_INIT: on_comm_init(r, rec); break;
	case HX_LR_OP_LAUNCH: on_op_launch(r, rec); break;
	case HX_LR_KERNEL_START:
	case HX_LR_KERNEL_END:
	case HX_LR_KERNEL_EXPANDED:
	case HX_LR_KERNEL_STATUS: on_kernel(r, rec); break;
	case HX_LR_AICPU_OP: on_aicpu_op(r, rec); break;
	case HX_LR_COMPUTE: on_compute(r, rec); break;
	case HX_LR_NOTIFY_TIMEOUT: on_notify_timeout(r, rec); break;
	case HX_LR_LINK_ERROR: on_link_error(r, rec); break;
	case HX_LR_RETRY: on_retry(r, rec); break;
	case HX_LR_HEARTBEAT_LOST:
	case HX_LR_HEARTBEAT_STUCK: on_heartbeat(r, rec); break;
	case HX_LR_AICPU_TIMEOUT: on_aicpu_timeout(r, rec); break;
	case HX_LR_KERNEL_TIMEOUT: on_kernel_timeout(r, rec); break;
	case HX_LR_STREAM_DUMP: on_stream_dump(r, rec); break;
	case HX_LR_STREAM_ABORT: on_stream_abort(r, rec); break;
	default: break;
	}
}

/* ---- input checks and bucketing ---- */

HX_PRINTF(3, 4)
static int bad_input(struct hangdx_ctx *ctx, size_t i, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hx_diag(ctx, HANGDX_ERROR, "simlog", 0, 0, "record %zu: %s", i, msg);
	return HANGDX_EINVAL;
}

static bool range_ok(uint32_t first, uint32_t n, size_t total)
{
	return (uint64_t)first + n <= total;
}

static int check_rec(struct hangdx_ctx *ctx, const struct hx_simlog_input *in,
		     size_t i)
{
	const struct hx_logrec *rec = &in->recs[i];

	if (rec->rank < 0 || (uint32_t)rec->rank >= in->st->nranks)
		return bad_input(ctx, i, "rank %d out of range", rec->rank);
	if (rec->peer >= 0 && (uint32_t)rec->peer >= in->st->nranks)
		return bad_input(ctx, i, "peer %d out of range", rec->peer);
	if (rec->comm >= 0 && (uint32_t)rec->comm >= in->st->ncomms)
		return bad_input(ctx, i, "comm %d out of range", rec->comm);
	if (!range_ok(rec->first_stream, rec->nstreams, in->nstreams))
		return bad_input(ctx, i, "streams %u+%u out of range",
				 rec->first_stream, rec->nstreams);
	return HANGDX_OK;
}

static int check_input(struct hangdx_ctx *ctx, const struct hx_simlog_input *in)
{
	size_t i;
	int err;

	if (!in || !in->sc || !in->st || (in->nrecs && !in->recs) ||
	    (in->nstreams && !in->streams) || (in->npos && !in->pos) ||
	    (in->st->nranks && !in->st->dev))
		return HANGDX_EINVAL;
	for (i = 0; i < in->nstreams; i++)
		if (!range_ok(in->streams[i].first_pos, in->streams[i].npos,
			      in->npos)) {
			hx_diag(ctx, HANGDX_ERROR, "simlog", 0, 0,
				"stream snapshot %zu: positions out of range",
				i);
			return HANGDX_EINVAL;
		}
	for (i = 0; i < in->nrecs; i++) {
		err = check_rec(ctx, in, i);
		if (err)
			return err;
	}
	if (in->sc->layout == HX_LAYOUT_FLAT && in->sc->same_pids &&
	    in->sc->ranks_per_node < in->st->nranks) {
		hx_diag(ctx, HANGDX_ERROR, "simlog", 0, 0,
			"layout flat cannot hold pids reused across nodes: "
			"their file names would collide");
		return HANGDX_EINVAL;
	}
	return HANGDX_OK;
}

/* Group record indices by rank, keeping their order (a counting sort):
 * afterwards rank r's records are idx[off[r] .. off[r + 1]). */
static int bucket(struct sl_writer *w)
{
	const struct hx_simlog_input *in = w->in;
	uint32_t n = in->st->nranks, k;
	size_t i;

	w->off = hx_calloc(w->ctx, (size_t)n + 2, sizeof *w->off);
	w->idx = hx_calloc(w->ctx, in->nrecs ? in->nrecs : 1, sizeof *w->idx);
	if (!w->off || !w->idx)
		return HANGDX_ENOMEM;
	for (i = 0; i < in->nrecs; i++)
		w->off[(uint32_t)in->recs[i].rank + 2]++;
	for (k = 2; k <= n + 1; k++)
		w->off[k] += w->off[k - 1];
	for (i = 0; i < in->nrecs; i++)
		w->idx[w->off[(uint32_t)in->recs[i].rank + 1]++] = i;
	return HANGDX_OK;
}

/* How long before the last rank this rank started (start_spread): a
 * spread of offsets drawn from the seed, one rank the latest of all. */
static uint64_t early_us(const struct hx_simlog_input *in, uint32_t rank)
{
	const struct hangdx_scenario *sc = in->sc;
	uint64_t spread = sc->start_spread_ns / 1000, x;

	if (!spread || !in->st->nranks || rank == sc->seed % in->st->nranks)
		return 0;
	x = (sc->seed + 1) * 0x9e3779b97f4a7c15ULL ^ (rank + 1) * 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 29;
	return spread - spread * (x % 1001) / 1000;
}

static uint64_t early_start(const struct hx_simlog_input *in, uint32_t rank,
			    uint64_t us)
{
	uint64_t e = early_us(in, rank);

	return us > e ? us - e : 0;
}

/* Process start: the rank's PROC_START, else its first record. */
static uint64_t start_us(const struct sl_writer *w, uint32_t rank)
{
	size_t i, lo = w->off[rank], hi = w->off[rank + 1];

	for (i = lo; i < hi; i++) {
		const struct hx_logrec *rec = &w->in->recs[w->idx[i]];

		if (rec->kind == HX_LR_PROC_START)
			return early_start(w->in, rank,
					   wall_us(w->in, rank, rec->t_ns));
	}
	return early_start(w->in, rank, wall_us(w->in, rank, lo < hi
				? w->in->recs[w->idx[lo]].t_ns : 0));
}

static void rank_init(const struct sl_writer *w, struct sl_rank *r,
		      uint32_t rank)
{
	int lv = (int)w->in->sc->log_level;

	memset(r, 0, sizeof *r);
	r->in = w->in;
	r->rank = rank;
	r->dev = &w->in->st->dev[rank];
	r->level = lv < LV_DEBUG || lv > LV_ERROR ? LV_INFO : lv;
	r->ts_sec = INT64_MIN;
	r->tsch_seq = 1000;
	r->early_us = early_us(w->in, rank);
	r->verified = w->in->sc->log_fidelity == HX_FID_VERIFIED;
	r->cs = w->cs;
	memset(w->cs, 0, (size_t)w->in->st->ncomms * sizeof *w->cs);
	node_ip(r->dev->node, r->ip, sizeof r->ip);
}

HX_PRINTF(3, 4)
static int fmt_path(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return len < 0 || (size_t)len >= n ? HANGDX_ELIMIT : HANGDX_OK;
}

static int open_one(struct sl_writer *w, struct sl_file *f, char *vbuf,
		    const char *dir, const char *name)
{
	char path[4096];
	int err;

	err = hx_mkdirs(dir);
	if (!err)
		err = fmt_path(path, sizeof path, "%s/%s", dir, name);
	if (!err)
		err = hx_outfile_open_direct(w->ctx, &f->o, path);
	if (!err)
		setvbuf(f->o.fp, vbuf, _IOFBF, SL_VBUF);
	return err;
}

/* The directory above ascend/log: rank-N/, or the node's directory. */
static int top_dir(const struct sl_writer *w, const struct sl_rank *r,
		   char *buf, size_t n)
{
	const struct hangdx_scenario *sc = w->in->sc;
	char ip[24];

	if (sc->layout == HX_LAYOUT_RANK)
		return fmt_path(buf, n, "%s/rank-%u", w->dir, r->rank);
	if (sc->node_dirs == HX_NODEDIR_IP) {
		node_ip(r->dev->node, ip, sizeof ip);
		return fmt_path(buf, n, "%s/%s", w->dir, ip);
	}
	return fmt_path(buf, n, "%s/%s-%u", w->dir,
			sc->node_dirs == HX_NODEDIR_NODE ? "node" : "host",
			r->dev->node);
}

static int rank_dirs(const struct sl_writer *w, const struct sl_rank *r,
		     char dirs[F_COUNT][4096])
{
	char top[4000];
	int err, i;

	if (w->in->sc->layout == HX_LAYOUT_FLAT) {
		for (i = 0, err = 0; i < F_COUNT && !err; i++)
			err = fmt_path(dirs[i], 4096, "%s/logs", w->dir);
		return err;
	}
	err = top_dir(w, r, top, sizeof top);
	if (!err)
		err = fmt_path(dirs[F_PLOG], 4096, "%s/ascend/log/debug/plog",
			       top);
	if (!err)
		err = fmt_path(dirs[F_DEV], 4096,
			       "%s/ascend/log/debug/device-%u", top,
			       r->dev->device_id);
	if (!err)
		err = fmt_path(dirs[F_RUN], 4096, "%s/ascend/log/run/plog", top);
	if (!err)
		err = fmt_path(dirs[F_DRUN], 4096,
			       "%s/ascend/log/run/device-%u", top,
			       r->dev->device_id);
	return err;
}

static bool is_run(int file)
{
	return file == F_RUN || file == F_DRUN;
}

static int open_files(struct sl_writer *w, struct sl_rank *r, uint64_t start)
{
	char dirs[F_COUNT][4096], names[F_COUNT][SL_TSBUF + 64];
	char ts[SL_TSBUF];
	uint32_t pid = r->dev->host_pid;
	int i, err;

	fmt_fname_ts(start, ts);
	snprintf(names[F_PLOG], sizeof names[F_PLOG], "plog-%u_%s.log", pid, ts);
	snprintf(names[F_DEV], sizeof names[F_DEV], "device-%u_%s.log", pid, ts);
	snprintf(names[F_RUN], sizeof names[F_RUN], "plog-%u_%s.log", pid, ts);
	snprintf(names[F_DRUN], sizeof names[F_DRUN], "device-%u_%s.log", pid,
		 ts);
	err = rank_dirs(w, r, dirs);
	if (err)
		return err;
	for (i = 0; i < F_COUNT; i++) {
		if (is_run(i) && w->in->sc->layout == HX_LAYOUT_FLAT)
			continue;       /* its lines are in the debug file */
		err = open_one(w, &r->f[i], w->vbuf + (size_t)i * SL_VBUF,
			       dirs[i], names[i]);
		if (err)
			goto out_abort_opened;
	}
	return HANGDX_OK;

out_abort_opened:
	while (i-- > 0)
		if (r->f[i].o.fp)
			hx_outfile_abort(w->ctx, &r->f[i].o);
	return err;
}

/* Commit every file; after a failure abort the rest. */
static int commit_files(struct sl_writer *w, struct sl_rank *r)
{
	int i, err = HANGDX_OK;

	for (i = 0; i < F_COUNT; i++) {
		if (is_run(i) && w->in->sc->layout == HX_LAYOUT_FLAT)
			continue;
		if (err)
			hx_outfile_abort(w->ctx, &r->f[i].o);
		else
			err = hx_outfile_commit(w->ctx, &r->f[i].o);
	}
	return err;
}

static void begin_rec(struct sl_rank *r, const struct hx_logrec *rec)
{
	int i;

	r->rec_us = wall_us(r->in, r->rank, rec->t_ns);
	if (rec->kind == HX_LR_PROC_START ||
	    (rec->kind == HX_LR_COMM_INIT && !r->init_done))
		r->rec_us = early_start(r->in, r->rank, r->rec_us);
	for (i = 0; i < F_COUNT; i++)
		r->f[i].k = 0;
}

/* ---- debug level: the runtime's completion trace ---- */

static int done_cmp(const void *a, const void *b)
{
	const struct sl_done *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

/*
 * At log_level debug the runtime's CQ thread logs every completion it
 * reads (log-formats.md P5): the bulk of a real debug plog.  Finished
 * tasks are grouped by rank (a counting sort) and ordered by end time.
 */
static int trace_index(struct sl_writer *w)
{
	const struct hx_state *st = w->in->st;
	uint32_t n = st->nranks, k;
	size_t i;

	if (w->in->sc->log_level != HX_LOG_DEBUG)
		return HANGDX_OK;
	w->doff = hx_calloc(w->ctx, (size_t)n + 2, sizeof *w->doff);
	w->done = hx_calloc(w->ctx, st->ntasks ? st->ntasks : 1,
			    sizeof *w->done);
	if (!w->doff || !w->done)
		return HANGDX_ENOMEM;
	for (i = 0; i < st->ntasks; i++)
		if (st->tasks[i].state == HX_TS_DONE)
			w->doff[st->streams[st->tasks[i].stream].rank + 2]++;
	for (k = 2; k <= n + 1; k++)
		w->doff[k] += w->doff[k - 1];
	for (i = 0; i < st->ntasks; i++) {
		const struct hx_task *t = &st->tasks[i];

		if (t->state != HX_TS_DONE)
			continue;
		k = st->streams[t->stream].rank;
		w->done[w->doff[k + 1]].t = t->t_end;
		w->done[w->doff[k + 1]++].task = (uint32_t)i;
	}
	for (k = 0; k < n; k++)
		qsort(w->done + w->doff[k], w->doff[k + 1] - w->doff[k],
		      sizeof *w->done, done_cmp);
	return HANGDX_OK;
}

/* Completions of the rank up to time t (ns); the next index. */
static size_t trace_until(struct sl_rank *r, const struct sl_writer *w,
			  size_t d, size_t end, uint64_t t)
{
	int i;

	for (; d < end && w->done[d].t <= t; d++) {
		r->rec_us = wall_us(r->in, r->rank, w->done[d].t);
		for (i = 0; i < F_COUNT; i++)
			r->f[i].k = 0;
		say(r, W_RT, LV_DEBUG, S_VERB, "[npu_driver.cc:1393] %u LogicCqReportV2:logic_cq real cnt=1",
		    tid(r, T_POLL));
	}
	return d;
}

/* A job that ends normally destroys its communicators (torch's
 * destroy_process_group): HCCL's run line for each (op_base.cc,
 * HcclCommDestroy, HCCL_RUN_INFO), positive evidence of a normal end. */
static void on_job_end(struct sl_rank *r, uint64_t t_ns)
{
	uint32_t c;

	r->rec_us = wall_us(r->in, r->rank, t_ns);
	for (c = 0; c < r->in->st->ncomms; c++) {
		const struct hx_comm *cm = comm_of(r, (int32_t)c);

		if (!cm || !r->cs[c].open)
			continue;
		say(r, W_HCCL, LV_INFO | RUN, S_VERB, "[op_base.cc:3629] [%u]op_base comm destroy complete, take time [%u]us, group[%s], deviceLogicId[%u].",
		    tid(r, T_MAIN), 1200u + 7u * c, cm->identifier,
		    r->dev->device_id);
		r->cs[c].open = false;
	}
}

static int write_rank(struct sl_writer *w, uint32_t rank)
{
	struct sl_rank r;
	size_t i, d = 0, dend = 0;
	bool died = false;
	int err;

	rank_init(w, &r, rank);
	err = open_files(w, &r, start_us(w, rank));
	if (err)
		return err;
	if (w->doff) {
		d = w->doff[rank];
		dend = w->doff[rank + 1];
	}
	for (i = w->off[rank]; i < w->off[rank + 1]; i++) {
		const struct hx_logrec *rec = &w->in->recs[w->idx[i]];

		if (rec->kind == HX_LR_PROC_EXIT) {
			died = true;
			break;  /* the process died: nothing after this */
		}
		d = trace_until(&r, w, d, dend, rec->t_ns);
		begin_rec(&r, rec);
		write_rec(&r, rec);
	}
	if (!died)
		trace_until(&r, w, d, dend, UINT64_MAX);
	if (!died && w->in->completed)
		on_job_end(&r, w->in->end_ns);
	return commit_files(w, &r);
}

int hx_simlog_write(struct hangdx_ctx *ctx, const char *dir,
		    const struct hx_simlog_input *in)
{
	struct sl_writer w = { ctx, dir, in, NULL, NULL, NULL, NULL, NULL,
			       NULL };
	uint32_t r;
	int err;

	if (!dir)
		return HANGDX_EINVAL;
	err = check_input(ctx, in);
	if (err)
		return err;
	err = bucket(&w);
	if (!err)
		err = trace_index(&w);
	if (err)
		goto out_free_index;
	w.vbuf = hx_alloc(ctx, (size_t)F_COUNT * SL_VBUF);
	w.cs = hx_calloc(ctx, in->st->ncomms ? in->st->ncomms : 1, sizeof *w.cs);
	if (!w.vbuf || !w.cs) {
		hx_free(ctx, w.vbuf);
		err = HANGDX_ENOMEM;
		goto out_free_index;
	}
	for (r = 0; r < in->st->nranks && !err; r++)
		err = write_rank(&w, r);
	hx_free(ctx, w.vbuf);
out_free_index:
	hx_free(ctx, w.cs);
	hx_free(ctx, w.done);
	hx_free(ctx, w.doff);
	hx_free(ctx, w.idx);
	hx_free(ctx, w.off);
	return err;
}
