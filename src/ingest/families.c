/*
 * families.c - the hang-relevant message families of log-formats.md §3-§4
 * turned into typed records: communicator creation, HCCL Task run failed
 * blocks (grouped by pid and tid), EI0002 in its four generations and the
 * other error-manager codes, RUNTIME device errors and task failures,
 * device-side AICPU exception dumps, TSCH timeouts and stream dumps,
 * heartbeat / cluster exception / CQE lines, op retry, env echo, link
 * errors and framework (torch_npu) errors; console text (launcher
 * prefixes, messages anywhere on the line: watchdogs, stalls, failures).
 * A line that matches no family costs a few memmem calls and leaves
 * nothing behind.
 */
#include <ctype.h>
#include <pthread.h>
#include <string.h>
#include "ingest.h"
#include "../core/thresholds.h"

enum layer { L_HCCL, L_RT, L_AICPU, L_TSCH };

#define HAS(s, n, lit) (HX_FIND_LIT(s, n, lit) != NULL)

static bool mod_is(const struct hx_prefix *p, const char *m)
{
	size_t l = strlen(m);

	return p->modlen == l && memcmp(p->mod, m, l) == 0;
}

/* ---- building records ---- */

/* Interning with a one-entry cache: module, process name and source
 * location repeat from line to line. */
static uint32_t intern_cached(struct hx_reader *r, struct hx_icache *c,
			      const char *s, size_t n, int *errp)
{
	char buf[256];
	const char *v;
	size_t vn;
	uint32_t id;
	int err = 0;

	if (c->id != HX_NOSTR && c->n == n && memcmp(c->buf, s, n) == 0)
		return c->id;
	v = hx_utf8_clean(s, n, sizeof buf, buf, &vn);
	id = hx_ev_intern(r->ev, v, vn, &err);
	if (err) {
		if (!*errp)
			*errp = err;
		return HX_NOSTR;
	}
	c->id = HX_NOSTR;
	if (n <= sizeof c->buf) {       /* longer ones are not cached */
		memcpy(c->buf, s, n);
		c->n = n;
		c->id = id;
	}
	return id;
}

static void rb_source(struct hx_reader *r, struct hx_recb *b, int kind)
{
	r->taken = true;
	hx_rb_init(b, r->ev, kind);
	b->rec.file = r->file;
	b->rec.vpath = r->vpath;
	b->rec.line = r->line;
	b->rec.off = r->off;
	b->rec.sub = r->sub++;
	if (r->vline)
		hx_rb_num(b, HX_F_VLINE, (int64_t)r->vline);
	hx_env_stamp(r, b);
}

/* A record from a prefixed line, or (p NULL) from a continuation line
 * that inherits the prefix of the message it continues. */
static void rb_start(struct hx_reader *r, struct hx_recb *b, int kind,
		     const struct hx_prefix *p)
{
	rb_source(r, b, kind);
	if (p) {
		/* module and process name were interned by set_context */
		b->rec.level = (uint8_t)p->level;
		b->rec.ts = p->ts;
		b->rec.pid = p->pid;
		b->rec.tid = p->tid;
		b->rec.module = r->ctxline.module;
		b->rec.pname = r->ctxline.pname;
		if (p->src)
			b->rec.src = intern_cached(r, &r->csrc, p->src, p->srclen,
						   &b->err);
	} else if (r->ctxline.valid) {
		/* a continuation: the process and time of its message; its
		 * level and module are not printed on the line */
		b->rec.ts = r->ctxline.ts;
		b->rec.pid = r->ctxline.pid;
		b->rec.tid = r->ctxline.tid;
		b->rec.pname = r->ctxline.pname;
		if (r->ctxline.line != r->line)
			hx_rb_num(b, HX_F_PARENT_LINE, (int64_t)r->ctxline.line);
	}
}

static int emit(struct hx_reader *r, struct hx_recb *b)
{
	int err;

	/* an error of a line printed after a silence says how long */
	if (b->rec.line == r->silence_line && r->silence >= HX_SILENCE_KEEP_S &&
	    (b->rec.level == HX_LV_NONE || b->rec.level == HX_LV_ERROR ||
	     b->rec.level == HX_LV_CRITICAL))
		hx_rb_num(b, HX_F_SILENCE, r->silence);
	err = hx_rb_commit(b);

	if (err == HANGDX_ELIMIT) {
		r->ev->c.skipped[HX_S_RECORDS]++;
		if (!r->ev->limit_warned) {
			r->ev->limit_warned = true;
			if (!r->ev->budget ||
			    !atomic_exchange(&r->ev->budget->warned, true))
				hx_rdiag(r, HANGDX_WARNING, b->rec.line,
					 "record limit (%zu) reached; further "
					 "evidence is counted, not kept",
					 r->ev->maxrec);
		}
		return HANGDX_OK;
	}
	if (err) {
		r->err = err;
		return err;
	}
	r->fs.records++;
	return HANGDX_OK;
}

static void put_u64(struct hx_recb *b, int key, const char *v, size_t n)
{
	uint64_t x;

	if (hx_parse_u64(v, n, &x) && x <= INT64_MAX)
		hx_rb_num(b, key, (int64_t)x);
}

static void put_i64(struct hx_recb *b, int key, const char *v, size_t n)
{
	int64_t x;

	if (hx_parse_i64(v, n, &x))
		hx_rb_num(b, key, x);
	else
		put_u64(b, key, v, n);
}

static void put_lit(struct hx_recb *b, int key, const char *lit)
{
	hx_rb_str(b, key, lit, strlen(lit));
}

/* "234s", "1868", "1836", "30min(default)", "3s", "0ms", "130 s" */
static void put_timeout(struct hx_recb *b, const char *v, size_t n,
			bool unit_known)
{
	uint64_t x = 0, mul = 1000;
	size_t i = 0;

	hx_rb_str(b, HX_F_TIMEOUT_RAW, v, n);
	while (i < n && v[i] >= '0' && v[i] <= '9' && i < 18)
		x = x * 10 + (uint64_t)(v[i++] - '0');
	if (i == 0 || !unit_known || hx_ellipsis(v + i, n - i))
		return;
	while (i < n && v[i] == ' ')
		i++;
	if (n - i >= 2 && memcmp(v + i, "ms", 2) == 0)
		mul = 1;
	else if (n - i >= 3 && memcmp(v + i, "min", 3) == 0)
		mul = 60000;
	hx_rb_num(b, HX_F_TIMEOUT_MS, (int64_t)(x * mul));
}

#define NOT_MINE (-1)      /* a line of no kernel family */

/* Roles of a line in the run of an AICPU worker (worker_fold). */
enum { KR_NONE, KR_OPEN, KR_ENTRY, KR_MID, KR_CLOSE };
static bool worker_fold(struct hx_reader *r, const struct hx_prefix *p,
			int role, int *err);
static int worker_flush(struct hx_reader *r, const struct hx_prefix *p);

/* Body starts with lit: the memcmp every dispatch below begins with. */
static bool starts(const char *s, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && memcmp(s, lit, l) == 0;
}

/* The number after lit, up to a non-digit. */
static void num_after(struct hx_recb *b, int key, const char *s, size_t n,
		      const char *lit)
{
	const char *v = hx_find(s, n, lit), *e, *end = s + n;

	if (!v)
		return;
	v += strlen(lit);
	for (e = v; e < end && e - v < 20 && *e >= '0' && *e <= '9'; e++)
		;
	if (e > v && !hx_ellipsis(e, (size_t)(end - e)))
		put_u64(b, key, v, (size_t)(e - v));
}

/* The text in brackets after lit ("group[" -> up to the next ']'). */
static void str_after(struct hx_recb *b, int key, const char *s, size_t n,
		      const char *lit)
{
	const char *v;
	size_t vl;

	if (hx_after(s, n, lit, "]", &v, &vl))
		hx_rb_str(b, key, v, vl);
}

/* A record of kind with what (and folded_runs on the first line of a
 * held run replayed), after the held run of the line's worker: a line
 * that becomes a record, not one that no family takes, ends a run. */
static void kstart(struct hx_reader *r, struct hx_recb *b,
		   const struct hx_prefix *p, int kind, const char *what)
{
	int err = worker_flush(r, p);   /* a worker's held run goes first */

	rb_start(r, b, kind, p);
	if (err)
		b->err = err;
	put_lit(b, HX_F_WHAT, what);
	if (r->replaying && r->replay_folded)   /* the first line of a run */
		hx_rb_num(b, HX_F_FOLDED_RUNS, (int64_t)r->replay_folded);
}

/* Op names seen in tags; a tag's op matches leniently ("Alleduce"). */
static const char *const op_names[] = {
	"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce",
	"AlltoAll", "AlltoAllV", "AlltoAllVC", "Send", "Recv", "Gather",
	"Scatter", "BatchSendRecv", "AllGatherV", "ReduceScatterV"
};

static int ci_eq(int a, int b)
{
	if (a >= 'A' && a <= 'Z')
		a += 32;
	if (b >= 'A' && b <= 'Z')
		b += 32;
	return a == b;
}

/* Edit distance at most 1, ASCII case-insensitive. */
static bool near(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0, j = 0;
	int edits = 0;

	if (na > nb + 1 || nb > na + 1)
		return false;
	while (i < na && j < nb) {
		if (ci_eq((unsigned char)a[i], (unsigned char)b[j])) {
			i++;
			j++;
			continue;
		}
		if (++edits > 1)
			return false;
		if (na > nb)
			i++;
		else if (nb > na)
			j++;
		else {
			i++;
			j++;
		}
	}
	return edits + (int)(na - i) + (int)(nb - j) <= 1;
}

static void put_tag(struct hx_recb *b, const char *v, size_t n)
{
	size_t k = 0, i, best = HX_ARRAY_LEN(op_names);
	const char *op = v;

	if (hx_rb_has(b, HX_F_TAG))
		return;
	hx_rb_str(b, HX_F_TAG, v, n);
	while (k < n && v[k] != '_')
		k++;
	if (k == 0 || k == n)
		return;
	if (k > 4 && memcmp(v, "Hcom", 4) == 0) {
		op += 4;
		k -= 4;
	}
	for (i = 0; i < HX_ARRAY_LEN(op_names); i++) {
		size_t m = strlen(op_names[i]);

		if (m == k && near(op, k, op_names[i], m)) {
			best = i;
			break;
		}
		if (best == HX_ARRAY_LEN(op_names) && m >= 6 &&
		    near(op, k, op_names[i], m))
			best = i;
	}
	if (best < HX_ARRAY_LEN(op_names))
		put_lit(b, HX_F_OP, op_names[best]);
	else
		hx_rb_str(b, HX_F_OP, op, k);
}

/* "a" or "a b" (local rank, space, remote rank). */
static void put_rank_id(struct hx_recb *b, const char *v, size_t n)
{
	const char *sp = memchr(v, ' ', n);

	if (!sp) {
		hx_rb_rank(b, HX_F_LOCAL_RANK, v, n);
		return;
	}
	hx_rb_rank(b, HX_F_LOCAL_RANK, v, (size_t)(sp - v));
	hx_rb_rank(b, hx_rb_has(b, HX_F_REMOTE_RANK) ? HX_F_REMOTE_RANK_ALT
						      : HX_F_REMOTE_RANK,
		   sp + 1, n - (size_t)(sp - v) - 1);
}

static void put_addr(struct hx_recb *b, int key, const struct hx_kv *hi,
		     const struct hx_kv *lo)
{
	uint64_t h, l;

	if (hi && lo && hx_parse_u64(hi->v, hi->vlen, &h) &&
	    hx_parse_u64(lo->v, lo->vlen, &l) && h <= 0xFFFFFFFFu &&
	    l <= 0xFFFFFFFFu)
		hx_rb_num(b, key, (int64_t)((h << 32) | l));
}

static void put_notify(struct hx_recb *b, int layer, const struct hx_kv *k)
{
	uint64_t v;

	if (!hx_parse_u64(k->v, k->vlen, &v))
		return;
	if (layer == L_HCCL)
		hx_rb_num(b, HX_F_NOTIFY_HCCL, (int64_t)v);
	else if (layer == L_AICPU)
		hx_rb_num(b, HX_F_NOTIFY_AICPU, (int64_t)v);
	else if (v <= INT64_MAX)
		hx_rb_num(b, HX_F_NOTIFY_RT, (int64_t)v);
}

/* The value's leading number and the "(name)" or "[name]" after it:
 * "3(EVENT_WAIT)", "0x20(sq sw status error)", "13[hccl fftsplus timeout]" */
static void put_coded(struct hx_recb *b, int key, int desc_key,
		      const char *s, size_t n, const struct hx_kv *k)
{
	const char *v = k->v, *end = s + n, *e;

	hx_rb_str(b, key, k->v, k->vlen);
	v += k->vlen;
	if (v < end && (*v == '(' || *v == '[')) {
		char close = *v == '(' ? ')' : ']';

		e = memchr(v, close, (size_t)(end - v));
		if (e && desc_key >= 0)
			hx_rb_str(b, desc_key, v + 1, (size_t)(e - v - 1));
	}
}

static void kv_one(struct hx_recb *b, int layer, const struct hx_kv *k,
		   const char *s, size_t n)
{
	switch (k->key) {
	case HX_KV_STREAM: put_u64(b, HX_F_STREAM, k->v, k->vlen); break;
	case HX_KV_TASK: put_u64(b, HX_F_TASK, k->v, k->vlen); break;
	case HX_KV_SQ: put_u64(b, HX_F_SQ, k->v, k->vlen); break;
	case HX_KV_CQ: put_u64(b, HX_F_CQ, k->v, k->vlen); break;
	case HX_KV_HEAD:
	case HX_KV_CUR_HEAD: put_u64(b, HX_F_HEAD, k->v, k->vlen); break;
	case HX_KV_TAIL: put_u64(b, HX_F_TAIL, k->v, k->vlen); break;
	case HX_KV_WAIT_SQE_HEAD: put_u64(b, HX_F_WAIT_HEAD, k->v, k->vlen); break;
	case HX_KV_NOTIFY: put_notify(b, layer, k); break;
	case HX_KV_EVENT: put_u64(b, HX_F_EVENT, k->v, k->vlen); break;
	case HX_KV_EVENT_FLAG: hx_rb_str(b, HX_F_EVENT_FLAG, k->v, k->vlen); break;
	case HX_KV_DEVID:
		if (layer == L_AICPU) {
			put_i64(b, HX_F_SQCQ_DEV, k->v, k->vlen);
			break;
		}
		/* fall through */
	case HX_KV_DEVICE:
	case HX_KV_LOGIC_DEV:
	case HX_KV_DEVICE_PLAIN: put_i64(b, HX_F_DEVICE_ID, k->v, k->vlen); break;
	case HX_KV_PHY_DEV: put_i64(b, HX_F_PHY_DEVICE, k->v, k->vlen); break;
	case HX_KV_CHIP: put_i64(b, HX_F_CHIP, k->v, k->vlen); break;
	case HX_KV_DIE: put_i64(b, HX_F_DIE, k->v, k->vlen); break;
	case HX_KV_REMOTE_RANK:
		hx_rb_rank(b, hx_rb_has(b, HX_F_REMOTE_RANK)
				      ? HX_F_REMOTE_RANK_ALT : HX_F_REMOTE_RANK,
			   k->v, k->vlen);
		break;
	case HX_KV_LOCAL_RANK: hx_rb_rank(b, HX_F_LOCAL_RANK, k->v, k->vlen); break;
	case HX_KV_RANK_ID: put_rank_id(b, k->v, k->vlen); break;
	case HX_KV_RANK_SIZE: put_u64(b, HX_F_RANK_SIZE, k->v, k->vlen); break;
	case HX_KV_TAG: put_tag(b, k->v, k->vlen); break;
	case HX_KV_INDEX: put_u64(b, HX_F_INDEX, k->v, k->vlen); break;
	case HX_KV_GROUP:
	case HX_KV_IDENTIFIER: hx_rb_str(b, HX_F_GROUP, k->v, k->vlen); break;
	case HX_KV_TASK_TYPE: put_coded(b, HX_F_TASK_TYPE, -1, s, n, k); break;
	case HX_KV_TYPE:
		if (layer == L_TSCH)
			put_u64(b, HX_F_SQE_TYPE, k->v, k->vlen);
		else
			hx_rb_str(b, HX_F_TYPE, k->v, k->vlen);
		break;
	case HX_KV_STAGE: hx_rb_str(b, HX_F_STAGE, k->v, k->vlen); break;
	case HX_KV_LINK_TYPE: hx_rb_str(b, HX_F_LINK_TYPE, k->v, k->vlen); break;
	case HX_KV_SRC: put_u64(b, HX_F_SRC_ADDR, k->v, k->vlen); break;
	case HX_KV_DST: put_u64(b, HX_F_DST_ADDR, k->v, k->vlen); break;
	case HX_KV_SIZE: put_u64(b, HX_F_SIZE, k->v, k->vlen); break;
	case HX_KV_COUNT: put_u64(b, HX_F_COUNT, k->v, k->vlen); break;
	case HX_KV_DATA_TYPE: hx_rb_str(b, HX_F_DATA_TYPE, k->v, k->vlen); break;
	case HX_KV_OP_TYPE: hx_rb_str(b, HX_F_OP_TYPE, k->v, k->vlen); break;
	case HX_KV_REDUCE_TYPE: hx_rb_str(b, HX_F_REDUCE_TYPE, k->v, k->vlen); break;
	case HX_KV_ROOT: hx_rb_rank(b, HX_F_ROOT, k->v, k->vlen); break;
	case HX_KV_TIMESTAMP: {
		int64_t ts = hx_parse_ts(k->v, k->vlen);

		if (ts != HX_NONE)
			hx_rb_num(b, HX_F_OP_TS, ts);
		break;
	}
	case HX_KV_USER_DEFINE: hx_rb_str(b, HX_F_USER_DEFINE, k->v, k->vlen); break;
	case HX_KV_FLIP: put_u64(b, HX_F_FLIP, k->v, k->vlen); break;
	case HX_KV_TIMEOUT:
		if (!hx_rb_has(b, HX_F_TIMEOUT_RAW))
			put_timeout(b, k->v, k->vlen, layer != L_TSCH);
		break;
	case HX_KV_EXE_TIME:
	case HX_KV_WAIT_TIME: put_u64(b, HX_F_WAIT_TIME, k->v, k->vlen); break;
	case HX_KV_SQ_PID: put_i64(b, HX_F_SQ_PID, k->v, k->vlen); break;
	case HX_KV_PID:
		if (layer == L_TSCH)
			put_i64(b, HX_F_SQ_PID, k->v, k->vlen);
		break;
	case HX_KV_SQ_FSM:
	case HX_KV_SQ_SW_STATUS: hx_rb_str(b, HX_F_SQ_STATUS, k->v, k->vlen); break;
	case HX_KV_CONTEXT: put_u64(b, HX_F_CONTEXT, k->v, k->vlen); break;
	case HX_KV_THREAD: put_u64(b, HX_F_THREAD_ID, k->v, k->vlen); break;
	case HX_KV_ERR_TYPE:
	case HX_KV_ERROR_TYPE:
		put_coded(b, HX_F_ERR_TYPE, HX_F_ERR_DESC, s, n, k);
		break;
	case HX_KV_ERROR_CODE:
	case HX_KV_RET_CODE:
	case HX_KV_ERR_CODE:
	case HX_KV_EXCEP_CODE: hx_rb_str(b, HX_F_RET_CODE, k->v, k->vlen); break;
	case HX_KV_INNER_CODE: hx_rb_str(b, HX_F_INNER_CODE, k->v, k->vlen); break;
	case HX_KV_SQE_TYPE: {
		uint64_t v;

		if (hx_parse_u64(k->v, k->vlen, &v))
			hx_rb_num(b, HX_F_SQE_TYPE, (int64_t)v);
		put_coded(b, HX_F_TEXT, HX_F_SQE_NAME, s, n, k);
		break;
	}
	case HX_KV_COMM_ID: hx_rb_str(b, HX_F_COMM_ID, k->v, k->vlen); break;
	case HX_KV_SERVER: hx_rb_str(b, HX_F_SERVER, k->v, k->vlen); break;
	case HX_KV_DEVICE_IP: hx_rb_str(b, HX_F_DEVICE_IP, k->v, k->vlen); break;
	case HX_KV_STATUS: hx_rb_str(b, HX_F_STATUS, k->v, k->vlen); break;
	case HX_KV_POS: put_u64(b, HX_F_POS, k->v, k->vlen); break;
	case HX_KV_SERIAL_NO: put_u64(b, HX_F_SERIAL, k->v, k->vlen); break;
	case HX_KV_THREAD_INDEX: put_u64(b, HX_F_CORE, k->v, k->vlen); break;
	case HX_KV_OP_NAME: hx_rb_str(b, HX_F_OP_NAME, k->v, k->vlen); break;
	case HX_KV_RETRY_CNT: put_u64(b, HX_F_RETRY_CNT, k->v, k->vlen); break;
	case HX_KV_REASON:
		if (layer == L_RT)
			hx_rb_str(b, HX_F_ERR_DESC, k->v, k->vlen);
		break;
	case HX_KV_DESC: hx_rb_str(b, HX_F_ERR_DESC, k->v, k->vlen); break;
	case HX_KV_ROLE: hx_rb_str(b, HX_F_ROLE, k->v, k->vlen); break;
	case HX_KV_IP: hx_rb_str(b, HX_F_REMOTE_IP, k->v, k->vlen); break;
	case HX_KV_STUCK_NUM: put_u64(b, HX_F_STUCK_NUM, k->v, k->vlen); break;
	default: break;
	}
}

/* Every key/value of s in the record, per the layer's meaning of ids. */
static void kv_all(struct hx_recb *b, int layer, const char *s, size_t n)
{
	struct hx_kv kv[HX_MAX_KV];
	size_t nk = hx_kv_scan(s, n, kv, HX_MAX_KV), i;

	for (i = 0; i < nk; i++)
		kv_one(b, layer, &kv[i], s, n);
	put_addr(b, HX_F_ADDR1, hx_kv_get(kv, nk, HX_KV_ADDR1_HIGH, 0),
		 hx_kv_get(kv, nk, HX_KV_ADDR1_LOW, 0));
	put_addr(b, HX_F_ADDR2, hx_kv_get(kv, nk, HX_KV_ADDR2_HIGH, 0),
		 hx_kv_get(kv, nk, HX_KV_ADDR2_LOW, 0));
}

/* Drop the TEXT placeholder put_coded stores for sqe_type. */
static void drop_field(struct hx_recb *b, int key)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->f[i].key == key) {
			memmove(&b->f[i], &b->f[i + 1],
				(b->n - i - 1) * sizeof b->f[0]);
			b->n--;
			return;
		}
}

/* "Communicator information: [group:[], ..., rankSize[0], rankId[0]]":
 * no communicator was known; rankId[0] names no rank. */
static void drop_empty_comm(struct hx_recb *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->f[i].key == HX_F_RANK_SIZE && b->f[i].num == 0) {
			drop_field(b, HX_F_LOCAL_RANK);
			return;
		}
}

static void put_alg(struct hx_recb *b, const char *s, size_t n)
{
	const char *v;
	size_t vl;

	if (hx_after(s, n, "AlgType(level 0-1-2):[", "]", &v, &vl))
		hx_rb_str(b, HX_F_ALG, v, vl);
}

/* ---- pending multi-line records ---- */

int hx_families_flush(struct hx_reader *r)
{
	static const char *const part_names[] = {
		"header", "base", "para", "group_rank", "op_data"
	};
	struct hx_pending *pd = &r->pend;
	char parts[64];
	size_t i, m = 0;

	if (!pd->open)
		return HANGDX_OK;
	pd->open = false;
	parts[0] = '\0';
	for (i = 0; i < HX_ARRAY_LEN(part_names); i++) {
		if (!(pd->parts & (1u << i)))
			continue;
		m += (size_t)snprintf(parts + m, sizeof parts - m, "%s%s",
				      m ? "," : "", part_names[i]);
	}
	put_lit(&pd->b, HX_F_PARTS, parts);
	return emit(r, &pd->b);
}

enum { PART_H = 1, PART_B = 2, PART_P = 4, PART_G = 8, PART_O = 16 };

/* Continue the pending block or start a new one. */
static struct hx_recb *pending(struct hx_reader *r, int kind,
			       const struct hx_prefix *p, unsigned part)
{
	struct hx_pending *pd = &r->pend;
	int64_t dt = pd->ts != HX_NONE && p->ts != HX_NONE ? p->ts - pd->ts : 0;

	if (pd->open && pd->kind == kind && pd->pid == p->pid &&
	    pd->tid == p->tid && !(pd->parts & part) && part != PART_H &&
	    dt >= -1000000 && dt <= 1000000) {
		pd->parts |= part;
		pd->ts = p->ts;
		r->taken = true;
		return &pd->b;
	}
	if (hx_families_flush(r))
		return NULL;
	pd->open = true;
	pd->kind = kind;
	pd->pid = p->pid;
	pd->tid = p->tid;
	pd->ts = p->ts;
	pd->parts = part;
	rb_start(r, &pd->b, kind, p);
	return &pd->b;
}

/* "[TaskExecStage][Timeout][Host]" before the text. */
static void put_stage_tags(struct hx_recb *b, const char *s, size_t n)
{
	const char *t[3];
	size_t tl[3], nt = 0, i = 0;

	while (i < n && s[i] == '[' && nt < 3) {
		const char *e = memchr(s + i, ']', n - i);

		if (!e)
			break;
		t[nt] = s + i + 1;
		tl[nt] = (size_t)(e - s) - i - 1;
		nt++;
		i = (size_t)(e - s) + 1;
	}
	if (nt < 2 || tl[0] < 5 || memcmp(t[0] + tl[0] - 5, "Stage", 5) != 0)
		return;
	hx_rb_str(b, HX_F_EXEC_STAGE, t[0], tl[0]);
	hx_rb_str(b, HX_F_FAIL_KIND, t[1], tl[1]);
	if (nt == 3 && tl[2] < 16) {
		char up[16];

		for (i = 0; i < tl[2]; i++)
			up[i] = (char)(t[2][i] >= 'a' && t[2][i] <= 'z'
					       ? t[2][i] - 32 : t[2][i]);
		hx_rb_str(b, HX_F_EXP_MODE, up, tl[2]);
	}
}

/* ---- HCCL host: Task run failed blocks (§4.2) ---- */

static int hccl_task_fail(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *info;
	size_t n = p->bodylen;
	struct hx_recb *b;
	unsigned part;

	if (HAS(s, n, "Task from HCCL run failed"))
		part = PART_H;
	else if ((info = hx_find(s, n, "base information is")))
		part = PART_B;
	else if ((info = hx_find(s, n, "para information is")))
		part = PART_P;
	else if ((info = hx_find(s, n, "groupRank information is")))
		part = PART_G;
	else if ((info = hx_find(s, n, "opData information is")))
		part = PART_O;
	else
		return HANGDX_OK;
	b = pending(r, HX_K_HCCL_TASK_FAIL, p, part);
	if (!b)
		return r->err;
	put_stage_tags(b, s, n);
	if (part != PART_H) {
		size_t off = (size_t)(info - s);

		kv_all(b, L_HCCL, s + off, n - off);
		put_alg(b, s + off, n - off);
	}
	return HANGDX_OK;
}

/* ---- HCCL on the device: AI_CPU exception dump (§4.4) ---- */

static int aicpu_trail(struct hx_reader *r, const struct hx_prefix *p,
		       const char *t, size_t n)
{
	struct hx_recb b;
	size_t i, entries = 0;
	const char *op;

	if (hx_families_flush(r))
		return r->err;
	rb_start(r, &b, HX_K_AICPU_TRAIL, p);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '.'))
		n--;
	for (i = 0; i < n; i++)
		entries += t[i] == '(';
	op = hx_find(t, n, "OP(");
	if (op)
		put_u64(&b, HX_F_INDEX, op + 3, n - (size_t)(op + 3 - t));
	hx_rb_str(&b, HX_F_TRAIL, t, n);
	hx_rb_num(&b, HX_F_TRAIL_LEN, (int64_t)entries);
	return emit(r, &b);
}

/* ---- HCCL host: FFTS+ context trail (§4.2) ---- */

static void set_context(struct hx_reader *r, const struct hx_prefix *p);

/* Trail entries: one to three capitals and a parenthesised list,
 * "NW(1,760),M(1),RS(1,12)". */
static bool trail_entries(const char *s, size_t n)
{
	size_t i = 0, k = 0;

	while (i < n && s[i] == ' ')
		i++;
	while (i + k < n && k < 3 && s[i + k] >= 'A' && s[i + k] <= 'Z')
		k++;
	return k > 0 && i + k < n && s[i + k] == '(' &&
	       memchr(s + i + k, ')', n - i - k) != NULL;
}

/* One line of entries: a record with the entries verbatim (p may be NULL
 * for a line without a prefix: the header's context stands). */
static int ffts_trail(struct hx_reader *r, const struct hx_prefix *p,
		      const char *t, size_t n)
{
	struct hx_recb b;
	size_t i, entries = 0;

	while (n && *t == ' ') {
		t++;
		n--;
	}
	while (n && (t[n - 1] == ' ' || t[n - 1] == '.' || t[n - 1] == ','))
		n--;
	if (hx_families_flush(r))
		return r->err;
	rb_start(r, &b, HX_K_FFTS_TRAIL, p);
	for (i = 0; i < n; i++)
		entries += t[i] == '(';
	hx_rb_str(&b, HX_F_TRAIL, t, n);
	hx_rb_num(&b, HX_F_TRAIL_LEN, (int64_t)entries);
	return emit(r, &b);
}

/* "Task run failed, context sequence before error task is [NotifyRecord:
 * NR(rank,id), ...]:" (the legend), entries after it or on the next
 * lines. */
static int ffts_header(struct hx_reader *r, const struct hx_prefix *p,
		       const char *at)
{
	const char *e = p->body + p->bodylen;
	const char *close = memchr(at, ']', (size_t)(e - at));

	r->ffts_trail = true;
	if (close && close + 1 < e && close[1] == ':' &&
	    trail_entries(close + 2, (size_t)(e - close - 2)))
		return ffts_trail(r, p, close + 2, (size_t)(e - close - 2));
	return HANGDX_OK;
}

int hx_families_noise(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_prefix p;

	if (s[0] != '[') {
		if (r->ffts_trail && trail_entries(s, n))
			return ffts_trail(r, NULL, s, n);
		r->ffts_trail = false;
		return HANGDX_OK;
	}
	if (r->ffts_trail && hx_parse_prefix(s, n, &p) && mod_is(&p, "HCCL") &&
	    trail_entries(p.body, p.bodylen)) {
		set_context(r, &p);
		return r->err ? r->err : ffts_trail(r, &p, p.body, p.bodylen);
	}
	r->ffts_trail = false;
	r->ctxline.valid = false;
	return HANGDX_OK;
}

static int aicpu_exception(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *info;
	size_t n = p->bodylen, off;
	struct hx_recb *b;

	if ((info = hx_find(s, n, "task sequence is "))) {
		off = (size_t)(info - s) + 17;
		return aicpu_trail(r, p, s + off, n - off);
	}
	if ((info = hx_find(s, n, "base information is"))) {
		if (hx_families_flush(r))
			return r->err;
		b = pending(r, HX_K_AICPU_EXCEPTION, p, PART_B);
	} else if ((info = hx_find(s, n, "opData information is"))) {
		b = pending(r, HX_K_AICPU_EXCEPTION, p, PART_O);
	} else {
		return HANGDX_OK;
	}
	if (!b)
		return r->err;
	if (HAS(s, (size_t)(info - s), "[AICPU]"))
		put_lit(b, HX_F_EXP_MODE, "AICPU");
	off = (size_t)(info - s);
	kv_all(b, L_AICPU, s + off, n - off);
	/* a task's report that names no type hangdx reads ("taskType:[2]",
	 * newer HCCL's number): no wait it can follow, but a task that
	 * failed, for the open world */
	r->open_too = !hx_rb_has(b, HX_F_TYPE) &&
		      info == hx_find(s, n, "base information is");
	return HANGDX_OK;
}

static int aicpu_sqcq(struct hx_reader *r, const struct hx_prefix *p)
{
	struct hx_recb b;

	rb_start(r, &b, HX_K_AICPU_SQCQ, p);
	kv_all(&b, L_AICPU, p->body, p->bodylen);
	drop_field(&b, HX_F_TEXT);
	return emit(r, &b);
}

/* ---- heartbeat, cluster exception, CQE (§4.7) ---- */

static void put_between(struct hx_recb *b, int key, const char *s, size_t n,
			const char *lit, const char *stop)
{
	const char *v;
	size_t vl;

	if (hx_after(s, n, lit, stop, &v, &vl))
		hx_rb_str(b, key, v, vl);
}

static int heartbeat_event(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *st = hx_find(s, p->bodylen, "status[");
	const char *first, *last = NULL, *q, *by;
	size_t n = p->bodylen, pre;
	struct hx_recb b;

	if (!st)
		return HANGDX_OK;
	pre = (size_t)(st - s);
	first = hx_find(s, pre, "rank [");
	for (q = first; q; q = hx_find(q + 1, pre - (size_t)(q + 1 - s), "rank ["))
		last = q;
	if (!first || last == first)
		return HANGDX_OK;
	rb_start(r, &b, HX_K_HEARTBEAT, p);
	put_between(&b, HX_F_LOCAL, first, pre - (size_t)(first - s), "[", "]");
	put_between(&b, HX_F_CRIMER, last, pre - (size_t)(last - s), "[", "]");
	put_between(&b, HX_F_STATUS, st, n - pre, "status[", "]");
	by = hx_find(st, n - pre, " by ");
	if (by)
		put_between(&b, HX_F_INFORMER, by, n - (size_t)(by - s), "[", "]");
	return emit(r, &b);
}

static void put_exc_type(struct hx_recb *b, const char *s, size_t n)
{
	if (HAS(s, n, "Heartbeat Lost"))
		put_lit(b, HX_F_STATUS, "LOST");
	else if (HAS(s, n, "Stuck Occurred"))
		put_lit(b, HX_F_STATUS, "STUCK");
	else if (hx_find_ci(s, n, "cqe"))
		put_lit(b, HX_F_STATUS, "ERROR CQE");
}

static int cluster_exception(struct hx_reader *r, const struct hx_prefix *p,
			     const char *s, size_t n)
{
	const char *v, *v2;
	size_t vl, vl2;
	struct hx_recb b;

	rb_start(r, &b, HX_K_CLUSTER_EXCEPTION, p);
	if (HAS(s, n, "Cluster Exception Location")) {
		put_lit(&b, HX_F_WHAT, "location");
		put_between(&b, HX_F_LOCATION, s, n, "Location[IP/ID]:[", "]");
		put_between(&b, HX_F_ARRIVAL, s, n, "Arrival Time:[", "]");
		put_between(&b, HX_F_DISCOVERER, s, n, "Discoverer:[", "]");
		put_between(&b, HX_F_TYPE, s, n, "ExceptionType:[", "]");
	} else if (hx_after(s, n, "server:", ",", &v, &vl)) {
		/* 2024: "server:IP/5, server:IP/1, Heartbeat Lost Occurred" */
		put_lit(&b, HX_F_WHAT, "server_pair");
		hx_rb_str(&b, HX_F_LOCATION, v, vl);
		if (hx_after(v + vl, n - (size_t)(v + vl - s), "server:", ",",
			     &v2, &vl2))
			hx_rb_str(&b, HX_F_DISCOVERER, v2, vl2);
	} else if (hx_after(s, n, "serverId[", "]", &v, &vl) &&
		   hx_after(s, n, "deviceId[", "]", &v2, &vl2)) {
		/* 2022, inside EI0002: "serverId[..], deviceId[0], Heartbeat ..." */
		char loc[160];
		int m = snprintf(loc, sizeof loc, "%.*s/%.*s", (int)vl, v,
				 (int)vl2, v2);

		put_lit(&b, HX_F_WHAT, "abnormal_device");
		hx_rb_str(&b, HX_F_LOCATION, loc,
			  m < (int)sizeof loc ? (size_t)m : sizeof loc - 1);
	} else {
		return HANGDX_OK;
	}
	put_exc_type(&b, s, n);
	return emit(r, &b);
}

static int cqe_error(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *lo, *re;
	size_t n = p->bodylen;
	struct hx_recb b;

	/* without its status ("Get Cqe err info failed") the line is no
	 * CQE's report: the open world reads it */
	if (!hx_after(s, n, "status[", "]", &lo, &n) &&
	    !hx_after(s, p->bodylen, "status: ", " ,", &lo, &n))
		return HANGDX_OK;
	rb_start(r, &b, HX_K_CQE_ERROR, p);
	put_lit(&b, HX_F_WHAT, mod_is(p, "HCCL") ? "heartbeat"
			       : mod_is(p, "HCCP") ? "hccp" : "roce");
	hx_rb_str(&b, HX_F_STATUS, lo, n);
	n = p->bodylen;
	put_between(&b, HX_F_ARRIVAL, s, n, "time:[", "]");
	lo = hx_find(s, n, "localInfo{");
	re = hx_find(s, n, "remoteIP{");
	if (lo) {
		size_t m = re && re > lo ? (size_t)(re - lo) : n - (size_t)(lo - s);

		put_between(&b, HX_F_SERVER, lo, m, "server[", "]");
		put_between(&b, HX_F_DEVICE_IP, lo, m, "deviceIp[", "]");
	}
	if (re) {
		size_t m = n - (size_t)(re - s);

		put_between(&b, HX_F_REMOTE_SERVER, re, m, "server[", "]");
		put_between(&b, HX_F_REMOTE_IP, re, m, "deviceIp[", "]");
	}
	put_between(&b, HX_F_REMOTE_IP, s, n, "ip:[", "]");
	put_between(&b, HX_F_REMOTE_IP, s, n, "remoteIP:[", "]");
	return emit(r, &b);
}

/* ---- op retry and env echo (§4.8) ---- */

static int op_retry(struct hx_reader *r, const struct hx_prefix *p,
		    const char *at)
{
	const char *s = p->body;
	size_t n = p->bodylen, left = n - (size_t)(at - s);
	struct hx_recb b;
	const char *what = "other", *v;
	size_t vl;

	rb_start(r, &b, HX_K_OP_RETRY, p);
	if (HAS(at, left, "State Transfer"))
		what = "state_transfer";
	else if (hx_find_ci(at, left, "can not retry"))
		what = "cannot_retry";
	else if (HAS(at, left, "retry launch start"))
		what = "launch";
	else if (HAS(at, left, "unmatched ack"))
		what = "unmatched_ack";
	else if (hx_find_ci(at, left, "timeout"))
		what = "timeout";
	else if (HAS(at, left, "ErrorCode["))
		what = "error_code";
	else if (HAS(at, left, "stop by"))
		what = "stop";
	put_lit(&b, HX_F_WHAT, what);
	/* retry's own failure at error level ("[OpRetry][Server]
	 * OpRetryServerWaitResp fail ..."): the open world reads it; a
	 * timeout of retry's is a wait that ran out by itself (facts.c) */
	r->open_too = strcmp(what, "timeout") != 0;
	put_lit(&b, HX_F_SIDE, hx_find(at, left, "[AICPU]") ? "aicpu" : "host");
	if (hx_after(at, left, "cur state ", ",", &v, &vl))
		hx_rb_str(&b, HX_F_CUR_STATE, v, vl);
	if (hx_after(at, left, "next state ", ",. ", &v, &vl))
		hx_rb_str(&b, HX_F_NEXT_STATE, v, vl);
	if (hx_after(at, left, "ErrorCode[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_RET_CODE, v, vl);
	if (hx_after(at, left, "timeout[", "]", &v, &vl))
		put_timeout(&b, v, vl, true);
	kv_all(&b, L_HCCL, at, left);
	hx_rb_str(&b, HX_F_TEXT, at, left > 200 ? 200 : left);
	return emit(r, &b);
}

static bool env_name(const char *s, size_t n, const char **nm, size_t *nl)
{
	const char *p = s, *end = s + n;

	while ((p = hx_find(p, (size_t)(end - p), "HCCL_")) != NULL) {
		const char *e = p + 5;

		while (e < end && ((*e >= 'A' && *e <= 'Z') || *e == '_' ||
				   (*e >= '0' && *e <= '9')))
			e++;
		if (e - p > 5 && (e >= end || *e != ']')) {
			*nm = p;
			*nl = (size_t)(e - p);
			return true;
		}
		p = e;
	}
	return false;
}

/* Seconds unless the line names a unit: the *_TIMEOUT values of HCCL_EXEC
 * and HCCL_CONNECT; HCCL_RDMA_TIMEOUT is an exponent, not a time. */
static void env_timeout(struct hx_recb *b, const char *nm, size_t nl,
			const char *v, size_t vl, const char *unit,
			const char *end)
{
	char t[48];
	size_t tl = vl > 30 ? 30 : vl, extra = 0;
	bool secs = (nl == 17 && memcmp(nm, "HCCL_EXEC_TIMEOUT", 17) == 0) ||
		    (nl == 20 && memcmp(nm, "HCCL_CONNECT_TIMEOUT", 20) == 0);

	memcpy(t, v, tl);
	while (unit && unit + extra < end && extra < 3 &&
	       unit[extra] >= 'a' && unit[extra] <= 'z') {
		t[tl + extra] = unit[extra];
		extra++;
	}
	if (secs || extra)
		put_timeout(b, t, tl + extra, true);
}

static bool name_is(const char *nm, size_t nl, const char *lit)
{
	return nl == strlen(lit) && memcmp(nm, lit, nl) == 0;
}

/* The value an echo prints without "to [..]" (H platform/common/
 * externalinput.cc): retry off at every level when HCCL_OP_RETRY_ENABLE
 * is not set; the expansion mode from "aicpuUnfold is [1], aivMode is
 * [0]"; the retry parameters after "is set, ". */
static bool env_implied(struct hx_recb *b, const char *nm, size_t nl,
			const char *s, size_t n, bool not_set)
{
	const char *v, *a;
	size_t vl, al;

	if (name_is(nm, nl, "HCCL_OP_RETRY_ENABLE") && not_set) {
		put_lit(b, HX_F_VALUE, "L0:0,L1:0,L2:0");
		return true;
	}
	if (name_is(nm, nl, "HCCL_OP_EXPANSION_MODE") && not_set &&
	    hx_after(s, n, "aicpuUnfold is [", "]", &v, &vl)) {
		bool aiv = hx_after(s, n, "aivMode is [", "]", &a, &al) &&
			   al == 1 && a[0] == '1';

		put_lit(b, HX_F_VALUE, vl == 1 && v[0] == '1' ? "AI_CPU"
				       : aiv ? "AIV" : "HOST");
		return true;
	}
	if (name_is(nm, nl, "HCCL_OP_RETRY_PARAMS") && !not_set &&
	    hx_after(s, n, " is set, ", "", &v, &vl)) {
		while (vl && v[vl - 1] == '.')
			vl--;
		hx_rb_str(b, HX_F_VALUE, v, vl);
		return true;
	}
	return false;
}

static int env_echo(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *nm, *v, *end = s + p->bodylen;
	size_t n = p->bodylen, nl, vl;
	struct hx_recb b;
	bool set_by = HAS(s, n, " set by "), not_set = HAS(s, n, "is not set");
	bool is_set = !not_set && HAS(s, n, " is set");
	bool env_is = HAS(s, n, "environmental variable ");

	if (!env_name(s, n, &nm, &nl)) {
		if (!HAS(s, n, "ExecTimeOut is set"))
			return HANGDX_OK;
		nm = "HCCL_EXEC_TIMEOUT";       /* ascend-fd's key line */
		nl = 17;
	}
	if (!set_by && !is_set && !not_set && !env_is)
		return HANGDX_OK;
	rb_start(r, &b, HX_K_ENV, p);
	/* "environmental variable HCCL_SOCKET_FAMILY[...] is invalid" at
	 * error level: a setting refused, a failure as well as the value */
	r->open_too = true;
	hx_rb_str(&b, HX_F_NAME, nm, nl);
	put_lit(&b, HX_F_SOURCE, HAS(s, n, "set by commconfig") ? "commconfig"
		: (set_by && !HAS(s, n, "set by default")) || is_set || env_is
		? "environment" : "default");
	if ((set_by && hx_after(s, n, " to [", "]", &v, &vl)) ||
	    (is_set && hx_after(s, n, "timeOut[", "]", &v, &vl))) {
		hx_rb_str(&b, HX_F_VALUE, v, vl);
		env_timeout(&b, nm, nl, v, vl, v + vl + 1 <= end ? v + vl + 1
								: NULL, end);
	} else if (env_is && hx_after(s, n, " is [", "]", &v, &vl)) {
		hx_rb_str(&b, HX_F_VALUE, v, vl);
	} else if (hx_after(s, n, "default value ", "", &v, &vl)) {
		while (vl && v[vl - 1] == '.')
			vl--;
		hx_rb_str(&b, HX_F_VALUE, v, vl);
	} else {
		env_implied(&b, nm, nl, s, n, not_set);
	}
	return emit(r, &b);
}

/* ---- communicator creation (§3) ---- */

/* HCCL's "errNo[0x0000000005000002]": its HcclResult as HX_F_RET_CODE. */
static void put_errno(struct hx_recb *b, const char *s, size_t n)
{
	const char *v;
	size_t vl, i;
	uint64_t x = 0;
	char num[6];
	size_t k;

	if (!hx_after(s, n, "errNo[0x", "]", &v, &vl) || vl == 0 || vl > 16)
		return;
	for (i = 0; i < vl; i++) {
		int c = v[i], d = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return;
		x = x << 4 | (uint64_t)d;
	}
	if ((k = hx_vocab_hccl_number(x, num)) != 0)
		hx_rb_str(b, HX_F_RET_CODE, num, k);
}

static int comm_init(struct hx_reader *r, const struct hx_prefix *p,
		     const char *what)
{
	struct hx_kv kv[HX_MAX_KV];
	const char *s = p->body, *v;
	size_t n = p->bodylen, nk, i, vl;
	struct hx_recb b;

	rb_start(r, &b, HX_K_COMM_INIT, p);
	put_lit(&b, HX_F_WHAT, what);
	/* a step of the set-up at error level ("RankInfoDetect SetupAgent
	 * fail"): the open world reads its failure */
	r->open_too = strcmp(what, "init_failed") != 0;
	nk = hx_kv_scan(s, n, kv, HX_MAX_KV);
	for (i = 0; i < nk; i++) {
		if (kv[i].key == HX_KV_RANK)
			hx_rb_rank(&b, HX_F_LOCAL_RANK, kv[i].v, kv[i].vlen);
		else if (kv[i].key == HX_KV_OP_TYPE)
			hx_rb_str(&b, HX_F_OP_TYPE, kv[i].v, kv[i].vlen);
		else if (kv[i].key != HX_KV_TIMEOUT)
			kv_one(&b, L_HCCL, &kv[i], s, n);
	}
	if (hx_after(s, n, "return[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_RET_CODE, v, vl);
	else
		put_errno(&b, s, n);
	/* "[hccl-<pid>-<n>-<epoch>-<group>][<rank>]" (P4, hcom init) */
	if (!hx_rb_has(&b, HX_F_COMM_ID) && n > 6 && s[0] == '[' &&
	    memcmp(s + 1, "hccl-", 5) == 0 && hx_after(s, n, "[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_COMM_ID, v, vl);
	if (!hx_rb_has(&b, HX_F_GROUP) && hx_rb_has(&b, HX_F_COMM_ID)) {
		const struct hx_field *f = NULL;
		const char *c;
		int dashes = 0;

		for (i = 0; i < b.n; i++)
			if (b.f[i].key == HX_F_COMM_ID)
				f = &b.f[i];
		c = f ? hx_ev_str(r->ev, f->str) : NULL;
		while (c && *c && dashes < 4)
			dashes += *c++ == '-';
		if (c && *c)
			hx_rb_str(&b, HX_F_GROUP, c, strlen(c));
	}
	/* a failed creation decides even when the line names no rank */
	if (!hx_rb_has(&b, HX_F_LOCAL_RANK) && !hx_rb_has(&b, HX_F_TAG) &&
	    strcmp(what, "init_failed") != 0)
		return HANGDX_OK;
	return emit(r, &b);
}

/* ---- link and init errors (peer fixtures) ---- */

/* "|  124.0.0.11(1)   |   124.0.0.21(0)   |  server  | no connect |" */
static int link_table_row(struct hx_reader *r, const struct hx_prefix *p,
			  const char *s, size_t n)
{
	const char *cell[8];
	size_t cl[8], nc = 0, i = 0;
	struct hx_recb b;

	while (i < n && nc < 8) {
		const char *c, *e;

		while (i < n && s[i] != '|')
			i++;
		if (++i >= n)
			break;
		c = s + i;
		while (i < n && s[i] != '|')
			i++;
		if (i >= n)
			break;
		e = s + i;
		while (c < e && *c == ' ')
			c++;
		while (e > c && e[-1] == ' ')
			e--;
		cell[nc] = c;
		cl[nc++] = (size_t)(e - c);
	}
	if (nc < 4 || !cl[0] || cell[0][0] < '0' || cell[0][0] > '9' ||
	    !memchr(cell[0], '(', cl[0]))
		return HANGDX_OK;
	rb_start(r, &b, HX_K_LINK_ERROR, p);
	put_lit(&b, HX_F_WHAT, "link_table");
	for (i = 0; i < 2; i++) {
		size_t c = i == 0 ? 0 : (nc >= 6 ? 2 : 1);
		const char *par = memchr(cell[c], '(', cl[c]);
		const char *end = cell[c] + cl[c];

		if (!par)
			continue;
		hx_rb_str(&b, i == 0 ? HX_F_REMOTE_IP : HX_F_DEVICE_IP, cell[c],
			  (size_t)(par - cell[c]));
		hx_rb_rank(&b, i == 0 ? HX_F_REMOTE_RANK : HX_F_LOCAL_RANK,
			   par + 1, (size_t)(end - par - 1) -
				    (end[-1] == ')' ? 1 : 0));
	}
	hx_rb_str(&b, HX_F_ROLE, cell[nc - 2], cl[nc - 2]);
	hx_rb_str(&b, HX_F_STATUS, cell[nc - 1], cl[nc - 1]);
	return emit(r, &b);
}

static int link_error(struct hx_reader *r, const struct hx_prefix *p,
		      const char *what)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;
	struct hx_kv kv[HX_MAX_KV];
	size_t nk, i;

	rb_start(r, &b, HX_K_LINK_ERROR, p);
	put_lit(&b, HX_F_WHAT, what);
	nk = hx_kv_scan(s, n, kv, HX_MAX_KV);
	for (i = 0; i < nk; i++) {
		if (kv[i].key == HX_KV_RANK)
			hx_rb_rank(&b, HX_F_LOCAL_RANK, kv[i].v, kv[i].vlen);
		else if (kv[i].key == HX_KV_REMOTE_PHY)
			put_i64(&b, HX_F_REMOTE_DEVICE, kv[i].v, kv[i].vlen);
		else
			kv_one(&b, L_HCCL, &kv[i], s, n);
	}
	if (hx_after(s, n, "remoteIpAddr[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_REMOTE_IP, v, vl);
	if (hx_after(s, n, "remote rank[", "]", &v, &vl))
		hx_rb_rank(&b, HX_F_REMOTE_RANK, v, vl);
	hx_rb_str(&b, HX_F_TEXT, s, n > 200 ? 200 : n);
	return emit(r, &b);
}

/* ---- connection set-up: root-info topology exchange, connect detection ---- */

/* "[0000000000000008],[0000000000000010],..." (after "]: ") or
 * "agent[9,]": the ranks, comma-separated, at most 64 of them; how many
 * more the line names goes to rank_list_cut. */
static void put_rank_list(struct hx_recb *b, const char *s, size_t n)
{
	char out[512];
	size_t o = 0, i = 0, cnt = 0;

	while (i < n && cnt < 64) {
		uint64_t v = 0;
		size_t j = i;

		while (j < n && s[j] >= '0' && s[j] <= '9' && j - i < 19)
			v = v * 10 + (uint64_t)(s[j++] - '0');
		if (j > i) {
			int m = snprintf(out + o, sizeof out - o, "%s%llu",
					 o ? "," : "", (unsigned long long)v);

			if (m < 0 || (size_t)m >= sizeof out - o)
				break;
			o += (size_t)m;
			cnt++;
			i = j;
		} else {
			i++;
		}
	}
	if (o)
		hx_rb_str(b, HX_F_RANK_LIST, out, o);
	for (cnt = 0; i < n; i++)       /* the ranks past the ceiling */
		if (s[i] >= '0' && s[i] <= '9' && (i == 0 || s[i - 1] < '0' || s[i - 1] > '9'))
			cnt++;
	if (cnt)
		hx_rb_num(b, HX_F_RANK_LIST_CUT, (int64_t)cnt);
}

/* "... fails to connect to dstRank (server 192.168.200.100, device ID 0)" */
static void put_dst_rank(struct hx_recb *b, const char *s, size_t n)
{
	const char *v = hx_find(s, n, "dstRank ("), *d;
	size_t vn, dl;

	if (!v)
		return;
	vn = n - (size_t)(v - s);
	put_between(b, HX_F_REMOTE_SERVER, v, vn, "server ", ",");
	if (hx_after(v, vn, "device ID ", ")", &d, &dl))
		put_i64(b, HX_F_REMOTE_DEVICE, d, dl);
}

static int connect_line(struct hx_reader *r, const struct hx_prefix *p,
			const char *what)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;

	rb_start(r, &b, HX_K_LINK_ERROR, p);
	put_lit(&b, HX_F_WHAT, what);
	if (hx_after(s, n, "total connected num is [", "]", &v, &vl))
		put_u64(&b, HX_F_COUNT, v, vl);
	if ((v = hx_find(s, n, "rankinfo[LINE ")) != NULL &&
	    (v = hx_find(v, n - (size_t)(v - s), "]:")) != NULL)
		put_rank_list(&b, v + 2, n - (size_t)(v + 2 - s));
	if (hx_after(s, n, "connect agent[", "]", &v, &vl)) {
		put_rank_list(&b, v, vl);
		if (vl && memchr(v, ',', vl) == v + vl - 1)
			hx_rb_rank(&b, HX_F_REMOTE_RANK, v, vl - 1);
	}
	put_dst_rank(&b, s, n);
	if (hx_after(s, n, "timeout[", "]", &v, &vl))
		put_timeout(&b, v, vl, true);
	if (!hx_rb_has(&b, HX_F_RANK_LIST))
		hx_rb_str(&b, HX_F_TEXT, s, n > 200 ? 200 : n);
	return emit(r, &b);
}

/* ---- the error manager: EI0002 and other codes (§2.1, §4.1) ---- */

static int runtime_text(struct hx_reader *r, const struct hx_prefix *p,
			const char *s, size_t n);
static int em_carried(struct hx_reader *r, const char *s, size_t n);

/* "EI0002", "EE9999", "E30008": 'E', five capitals or digits, the last
 * four of them digits. */
static bool em_code6(const char *s, size_t n)
{
	size_t i;

	if (n < 6 || s[0] != 'E')
		return false;
	for (i = 1; i < 6; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	for (i = 2; i < 6; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static bool em_code_at(const char *s, size_t n)
{
	return n >= 7 && em_code6(s, n) && s[6] == ':';
}

static int ei0002_gen(const char *s, size_t n)
{
	if (HAS(s, n, "Waiting peer rank") ||
	    HAS(s, n, "timeout occurs when the Notify register waits"))
		return 4;
	if (HAS(s, n, "group information"))
		return 3;
	if (HAS(s, n, "taskType["))
		return 1;
	return 2;
}

static void ei0013_fields(struct hx_recb *b, const char *s, size_t n)
{
	const char *peer = hx_find(s, n, "Peer information:"), *v;
	size_t ln = peer ? (size_t)(peer - s) : n, vl;

	put_between(b, HX_F_SERVER, s, ln, "Local information: server ", ",");
	if (hx_after(s, ln, "device IP ", ",", &v, &vl)) {
		while (vl && v[vl - 1] == '.')
			vl--;
		hx_rb_str(b, HX_F_DEVICE_IP, v, vl);
	}
	if (peer) {
		size_t pn = n - (size_t)(peer - s);

		put_between(b, HX_F_REMOTE_SERVER, peer, pn, "server ", ",");
		if (hx_after(peer, pn, "device ID ", ",", &v, &vl))
			put_i64(b, HX_F_REMOTE_DEVICE, v, vl);
		if (hx_after(peer, pn, "device IP ", ",", &v, &vl)) {
			while (vl && v[vl - 1] == '.')
				vl--;
			hx_rb_str(b, HX_F_REMOTE_IP, v, vl);
		}
	}
	if (hx_after(s, ln, "device ID ", ",", &v, &vl))
		put_i64(b, HX_F_DEVICE_ID, v, vl);
}

/*
 * s points at "EIxxxx: ..." or "[PID: n] ts Title(EIxxxx): ...".  p is
 * the prefix of the line that embeds it (MindSpore), or NULL.
 */
static int em_message(struct hx_reader *r, const struct hx_prefix *p,
		      const char *s, size_t n)
{
	const char *code = NULL, *text, *end = s + n;
	int64_t pid = HX_NONE, ts = HX_NONE;
	struct hx_recb b;
	int gen;
	size_t i;

	if (n > 6 && memcmp(s, "[PID: ", 6) == 0) {
		const char *cl = hx_find(s, n, "):");

		i = 6;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		hx_parse_i64(s + 6, i - 6, &pid);
		if (i + 2 < n)
			ts = hx_parse_ts(s + i + 2, n - i - 2);
		if (!cl || cl - s < 7 || !em_code6(cl - 6, 6))
			return HANGDX_OK;
		code = cl - 6;
		text = cl + 2;
		while (text < end && *text == ' ')
			text++;
		gen = 4;
	} else {
		if (!em_code_at(s, n))
			return HANGDX_OK;
		code = s;
		text = s + 7;
		while (text < end && *text == ' ')
			text++;
		gen = 1;
		if (end - text > 6 && memcmp(text, "[PID: ", 6) == 0) {
			i = (size_t)(text - s) + 6;
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			hx_parse_i64(text + 6, i - (size_t)(text - s) - 6, &pid);
			if (i + 2 < n)
				ts = hx_parse_ts(s + i + 2, n - i - 2);
			gen = 3;
			text = s + i + 2;
		} else {
			ts = hx_parse_ts(text, (size_t)(end - text));
			if (ts != HX_NONE)
				gen = 2;
		}
		if (ts != HX_NONE) {
			while (text < end && *text != ' ')
				text++;
			while (text < end && *text == ' ')
				text++;
		}
	}
	if (text > end)
		text = end;
	rb_start(r, &b, memcmp(code, "EI0002", 6) == 0 ? HX_K_EI0002
							: HX_K_ERR_CODE, p);
	if (!p) {
		if (pid != HX_NONE)
			b.rec.pid = pid;
		if (ts != HX_NONE)
			b.rec.ts = ts;
	}
	hx_rb_str(&b, HX_F_CODE, code, 6);
	hx_rb_num(&b, HX_F_EM_GEN, gen);
	n = (size_t)(end - text);
	if (b.rec.kind == HX_K_EI0002)
		hx_rb_num(&b, HX_F_GEN, ei0002_gen(text, n));
	else
		hx_rb_str(&b, HX_F_TEXT, text, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	/* the quote keeps HX_QUOTE_MAX bytes; what the rest says of a timeout is
	 * kept apart (EI0015: "... can connect to the root node within the
	 * timeout period") */
	if (b.rec.kind == HX_K_ERR_CODE && n > HX_QUOTE_MAX &&
	    (HAS(text + HX_QUOTE_MAX, n - HX_QUOTE_MAX, "timeout") ||
	     HAS(text + HX_QUOTE_MAX, n - HX_QUOTE_MAX, "timed out")))
		put_lit(&b, HX_F_WHAT, "timeout");
	if (HAS(code, 6, "EI0013"))
		ei0013_fields(&b, text, n);
	else
		kv_all(&b, L_HCCL, text, n);
	if (HAS(code, 6, "EI0006"))
		put_dst_rank(&b, text, n);
	drop_empty_comm(&b);
	put_alg(&b, text, n);
	if (!p) {
		r->ctxline.valid = true;
		r->ctxline.line = r->line;
		r->ctxline.pid = b.rec.pid;
		r->ctxline.tid = HX_NONE;
		r->ctxline.ts = b.rec.ts;
		r->ctxline.level = HX_LV_NONE;
		r->ctxline.module = HX_NOSTR;
		r->ctxline.pname = HX_NOSTR;
	}
	if (emit(r, &b))
		return r->err;
	if (!p && b.rec.kind == HX_K_ERR_CODE)
		return em_carried(r, text, (size_t)(end - text));
	return HANGDX_OK;
}

/* ---- RUNTIME (§4.3, §4.6) ---- */

static int rt_record(struct hx_reader *r, const struct hx_prefix *p,
		     int kind, const char *what, const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	rb_start(r, &b, kind, p);
	put_lit(&b, HX_F_WHAT, what);
	kv_all(&b, L_RT, s, n);
	/* "retCode=0x91, [the model stream execute failed]." */
	if (hx_after(s, n, ", [", "]", &v, &vl))
		hx_rb_str(&b, HX_F_ERR_DESC, v, vl);
	if (hx_rb_has(&b, HX_F_SQE_TYPE) && hx_rb_has(&b, HX_F_TEXT))
		drop_field(&b, HX_F_TEXT);
	return emit(r, &b);
}

/* The row of the code an AICPU kernel ended on, in the device's report
 * ("an exception occurred during AICPU execution, stream_id:7, task_id:2,
 * errcode:21008, msg:inner error"): vocab/aicpu.tsv. */
static const struct hx_vocab *aicpu_errcode(const char *s, size_t n)
{
	const char *v;
	size_t vl;

	if (!hx_after(s, n, "errcode:", ", ", &v, &vl))
		return NULL;
	return hx_vocab_code(HX_VF_AICPU, v, vl);
}

static int rt_device_error(struct hx_reader *r, const struct hx_prefix *p,
			   const char *s, size_t n)
{
	const char *v, *d, *what = NULL;
	size_t vl, dl;
	struct hx_recb b;
	int kind = HX_K_RT_TIMEOUT;
	bool aicpu = HAS(s, n, "during AICPU execution");
	const struct hx_vocab *row = aicpu ? aicpu_errcode(s, n) : NULL;

	if (row && row->cls == HX_VC_WAIT_TIMEOUT) {
		what = "aicpu_timeout";         /* 21007, 0x21007: ran out */
		kind = HX_K_AICPU_OP_TIMEOUT;
	} else if (HAS(s, n, "notify wait timeout"))
		what = "notify_wait";
	else if (HAS(s, n, "event wait timeout"))
		what = "event_wait";
	else if (HAS(s, n, "fftsplus task timeout"))
		what = "fftsplus";
	else if (HAS(s, n, "aicore timeout") || HAS(s, n, "vector core timeout") ||
		 HAS(s, n, "timeout or trap"))
		what = "core_timeout";  /* the core's task ran out of time */
	else if (hx_find_ci(s, n, "timeout"))
		what = "other_timeout";
	else {
		what = aicpu ? "aicpu_error" : "device_error";
		kind = HX_K_RT_TASK_FAIL;
	}
	rb_start(r, &b, kind, p);
	put_lit(&b, HX_F_WHAT, what);
	v = NULL;
	if (hx_after(s, n, "serial number is ", ",.", &v, &vl))
		put_u64(&b, HX_F_SERIAL, v, vl);
	if (!HAS(s, n, "chipId") && hx_after(s, n, "device(", ")", &d, &dl))
		put_i64(&b, HX_F_DEVICE_ID, d, dl);
	kv_all(&b, L_RT, s, n);
	drop_field(&b, HX_F_TEXT);
	drop_field(&b, HX_F_STATUS);
	if (kind != HX_K_RT_TIMEOUT && (v || aicpu)) {
		const char *t = v ? v + vl : hx_find_ci(s, n, "an exception occurred"),
			   *end = s + n;

		if (!t)
			t = s;

		while (t < end && (*t == '.' || *t == ',' || *t == ' '))
			t++;
		hx_rb_str(&b, HX_F_TEXT, t, (size_t)(end - t) > HX_QUOTE_MAX
						    ? HX_QUOTE_MAX : (size_t)(end - t));
	}
	r->last_rt_timeout = r->line;
	return emit(r, &b);
}

static int rt_stuck_notify(struct hx_reader *r, const struct hx_prefix *p,
			   const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	rb_start(r, &b, HX_K_RT_STUCK_NOTIFY, p);
	if (hx_after(s, n, "The ", " ", &v, &vl))
		put_u64(&b, HX_F_IDX, v, vl);
	kv_all(&b, L_RT, s, n);
	if (r->last_rt_timeout)
		hx_rb_num(&b, HX_F_PARENT_LINE, (int64_t)r->last_rt_timeout);
	return emit(r, &b);
}

/* "rtStreamSynchronize:ErrCode=507011, desc=[...], InnerCode=0x7150050"
 * and "rtStreamSynchronize execute failed, reason=[...]". */
static int rt_api_error(struct hx_reader *r, const struct hx_prefix *p,
			const char *s, size_t n)
{
	struct hx_recb b;
	size_t k = 0;

	rb_start(r, &b, HX_K_RT_API_ERROR, p);
	while (k < n && k < 64 && s[k] != ':' && s[k] != ' ')
		k++;
	if (k > 0 && k < n)
		hx_rb_str(&b, HX_F_NAME, s, k);
	kv_all(&b, L_RT, s, n);
	return emit(r, &b);
}

static int aicpu_kernel_fail(struct hx_reader *r, const struct hx_prefix *p,
			     const char *what, const char *s, size_t n)
{
	struct hx_recb b;
	const struct hx_vocab *row = NULL;
	const char *v;
	size_t vl;
	/* "..., soName=libscatter_aicpu_kernel.so, funcName=HcclLaunchAicpuKernel":
	 * a kernel of HCCL's, whose failure may be a wait on other ranks */
	bool hccl = hx_find_ci(s, n, "Name=hccl") || hx_find_ci(s, n, "Name=libhccl");

	/* the task scheduler's code for the task ("errorCode=0x28": aicpu
	 * timeout, vocab/ts.tsv) */
	if (hx_after(s, n, "errorCode=", "., ", &v, &vl))
		row = hx_vocab_code(HX_VF_TS, v, vl);
	if (!hccl && row && row->cls == HX_VC_WAIT_TIMEOUT) {
		rb_start(r, &b, HX_K_AICPU_OP_TIMEOUT, p);
		what = "aicpu_timeout";
	} else {
		rb_start(r, &b, HX_K_AICPU_KERNEL_FAIL, p);
	}
	put_lit(&b, HX_F_WHAT, hccl ? "hccl_kernel" : what);
	kv_all(&b, L_RT, s, n);
	if (HAS(s, n, "op_name=[FUNC:"))
		drop_field(&b, HX_F_OP_NAME);   /* "fault op_name=[FUNC:GetError]": none */
	if (!hx_rb_has(&b, HX_F_STREAM))
		hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

/* "fftsplus streamId=50, ..., rtCode=0x715006c,[fftsplus task exception]" */
static int rt_callback(struct hx_reader *r, const struct hx_prefix *p,
		       const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	rb_start(r, &b, HX_K_RT_TASK_FAIL, p);
	put_lit(&b, HX_F_WHAT, "fftsplus_callback");
	kv_all(&b, L_RT, s, n);
	if (hx_after(s, n, ",[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_ERR_DESC, v, vl);
	return emit(r, &b);
}

/* The runtime's notify wait call that failed on a wait that ran out
 * (api_impl.cc: "Notify wait failed, notify_id=33013, time_out = 1836s,
 * retCode=0x7150059."): a notify wait timed out; with another code it is
 * a call that returned. */
static bool api_notify_timeout(const char *s, size_t n)
{
	const struct hx_vocab *row;
	const char *v;
	size_t vl;

	return HAS(s, n, "Notify wait failed, notify_id=") &&
	       hx_after(s, n, "retCode=", ".,[ ", &v, &vl) &&
	       (row = hx_vocab_code(HX_VF_RT_INNER, v, vl)) != NULL &&
	       row->cls == HX_VC_WAIT_TIMEOUT;
}

/* RUNTIME text after "Func:"; also used for traceback continuations. */
static int runtime_text(struct hx_reader *r, const struct hx_prefix *p,
			const char *s, size_t n)
{
	if (HAS(s, n, "The error from device") ||
	    HAS(s, n, "during AICPU execution"))
		return rt_device_error(r, p, s, n);
	if (HAS(s, n, "stuck notify wait context"))
		return rt_stuck_notify(r, p, s, n);
	if (HAS(s, n, "Aicpu kernel execute failed") ||
	    HAS(s, n, "AI CPU kernel execute failed"))
		return aicpu_kernel_fail(r, p, "aicpu_kernel", s, n);
	if (HAS(s, n, "Stream synchronize timeout"))
		return rt_record(r, p, HX_K_RT_TIMEOUT, "stream_sync", s, n);
	if (HAS(s, n, "fftsplus task execute failed"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "fftsplus", s, n);
	if (HAS(s, n, "fftsplus streamId="))
		return rt_callback(r, p, s, n);
	if (HAS(s, n, "event_flag="))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "event_wait_task", s, n);
	if (HAS(s, n, "Notify wait execute failed") || api_notify_timeout(s, n))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "notify_wait", s, n);
	if (HAS(s, n, "model execute task failed"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "model_task", s, n);
	if (HAS(s, n, "Task exception!"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "task_exception", s, n);
	if (HAS(s, n, "Task execute failed") || HAS(s, n, "Taskexecute failed"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "task_exec", s, n);
	if (HAS(s, n, "Task run failed, device_id="))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "logic_cq", s, n);
	if (HAS(s, n, "Memory async copy failed"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "memcpy", s, n);
	if (HAS(s, n, "task fail start.notify")) {
		struct hx_recb b;
		const char *v;
		size_t vl;

		rb_start(r, &b, HX_K_RT_TASK_FAIL, p);
		put_lit(&b, HX_F_WHAT, "fail_callback");
		if (hx_after(s, n, "notify [", "]", &v, &vl))
			hx_rb_str(&b, HX_F_NAME, v, vl);
		kv_all(&b, L_RT, s, n);
		return emit(r, &b);
	}
	if (HAS(s, n, "Stream Synchronize failed"))
		return rt_record(r, p, HX_K_RT_TASK_FAIL, "stream_sync", s, n);
	if (HAS(s, n, "ErrCode=") || HAS(s, n, "execute failed, reason=["))
		return rt_api_error(r, p, s, n);
	if (HAS(s, n, "module_name=")) {
		struct hx_recb b;
		const char *v;
		size_t vl;

		if (!hx_after(s, n, "module_name=", ", ", &v, &vl) || vl != 6 ||
		    !em_code6(v, vl))
			return HANGDX_OK;
		rb_start(r, &b, HX_K_ERR_CODE, p);
		hx_rb_str(&b, HX_F_CODE, v, vl);
		put_lit(&b, HX_F_WHAT, "report");
		return emit(r, &b);
	}
	return HANGDX_OK;
}

static int runtime_line(struct hx_reader *r, const struct hx_prefix *p)
{
	return runtime_text(r, p, p->body, p->bodylen);
}

/* ---- AICPU / CCECPU (§4.6) ---- */

/* The text of a CCECPU line after "[Func][tid:N] " (the body as is when
 * there is no [tid:] bracket among the first three). */
static void ccecpu_text(const char *s, size_t n, const char **t, size_t *tn)
{
	size_t i = 0, k;

	*t = s;
	*tn = n;
	for (k = 0; k < 3 && i < n && s[i] == '['; k++) {
		const char *e = memchr(s + i, ']', n - i);
		bool tid = n - i > 5 && memcmp(s + i, "[tid:", 5) == 0;

		if (!e)
			return;
		i = (size_t)(e - s) + 1;
		if (tid) {
			while (i < n && s[i] == ' ')
				i++;
			*t = s + i;
			*tn = n - i;
			return;
		}
	}
}

/* A scheduler task line held in its worker's run: true, *err set. */
static bool aicpu_task_fold(struct hx_reader *r, const struct hx_prefix *p,
			    const char *s, size_t n, int *err)
{
	const char *v;
	size_t vl;
	int role = KR_NONE;

	*err = HANGDX_OK;
	if (starts(s, n, "kfc task, ") ||
	    starts(s, n, "Begin to ExecuteTsKernelTask,"))
		role = KR_OPEN;
	else if (starts(s, n, "End send ack to Ts,") &&
		 hx_after(s, n, " result[", "]", &v, &vl) && vl == 1 &&
		 v[0] == '0')
		role = KR_CLOSE;
	if (role != KR_NONE && worker_fold(r, p, role, err))
		return true;
	return *err != 0;
}

/*
 * The AICPU scheduler's task lines (R aicpusd_event_manager.cpp, main.cpp
 * of hicann/runtime@681ef761): a TS kernel task begins on a worker and
 * ends (its core freed), a KFC (HCCL) kernel starts, the scheduler
 * starts.  Not one of them: NOT_MINE.
 */
static int aicpu_task(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s, *v;
	size_t n, vl;
	struct hx_recb b;
	bool end = false;
	int err;

	ccecpu_text(p->body, p->bodylen, &s, &n);
	if (aicpu_task_fold(r, p, s, n, &err))
		return err;
	if (starts(s, n, "Begin to ExecuteTsKernelTask,")) {
		kstart(r, &b, p, HX_K_AICPU_TASK, "begin");
	} else if (starts(s, n, "End send ack to Ts,")) {
		kstart(r, &b, p, HX_K_AICPU_TASK, "end");
		end = true;
	} else if (starts(s, n, "kfc task, streamId[")) {
		kstart(r, &b, p, HX_K_AICPU_TASK, "kfc");
	} else if (starts(s, n, "Aicpu schedule start successfully")) {
		kstart(r, &b, p, HX_K_AICPU_TASK, "sched_start");
		return emit(r, &b);
	} else {
		return NOT_MINE;
	}
	num_after(&b, HX_F_STREAM, s, n, "streamId[");
	num_after(&b, HX_F_TASK, s, n, "taskId[");
	num_after(&b, HX_F_KERNEL_TYPE, s, n, "kernelType[");
	if (end && hx_after(s, n, " result[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_RESULT, v, vl);
	return emit(r, &b);
}

static int aicpu_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body;
	size_t n = p->bodylen;
	struct hx_kv kv[HX_MAX_KV];
	size_t nk;
	struct hx_recb b;
	const struct hx_kv *now, *start, *to, *fq;
	uint64_t vn, vs, vt, vf;
	int err;

	if (p->level == HX_LV_INFO && (err = aicpu_task(r, p)) != NOT_MINE)
		return err;
	if (!HAS(s, n, "HandleTaskTimeout") && !HAS(s, n, "Send timeout to tsdaemon")) {
		if (HAS(s, n, "failed") && p->level == HX_LV_ERROR)
			return aicpu_kernel_fail(r, p, "ccecpu", s, n);
		return HANGDX_OK;
	}
	rb_start(r, &b, HX_K_AICPU_OP_TIMEOUT, p);
	kv_all(&b, L_AICPU, s, n);
	nk = hx_kv_scan(s, n, kv, HX_MAX_KV);
	now = hx_kv_get(kv, nk, HX_KV_NOW_TICK, 0);
	start = hx_kv_get(kv, nk, HX_KV_START_TICK, 0);
	to = hx_kv_get(kv, nk, HX_KV_TIMEOUT, 0);
	fq = hx_kv_get(kv, nk, HX_KV_TICK_FREQ, 0);
	drop_field(&b, HX_F_TIMEOUT_MS);
	if (fq && hx_parse_u64(fq->v, fq->vlen, &vf) && vf >= 1000) {
		if (to && hx_parse_u64(to->v, to->vlen, &vt))
			hx_rb_num(&b, HX_F_TIMEOUT_MS, (int64_t)(vt / (vf / 1000)));
		if (now && start && hx_parse_u64(now->v, now->vlen, &vn) &&
		    hx_parse_u64(start->v, start->vlen, &vs) && vn >= vs)
			hx_rb_num(&b, HX_F_ELAPSED_MS,
				  (int64_t)((vn - vs) / (vf / 1000)));
	}
	return emit(r, &b);
}

/* ---- TSCH (§4.5) ---- */

static void put_func(struct hx_recb *b, const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k < 64 && s[k] != ':' && s[k] != ' ')
		k++;
	if (k && k < n && s[k] == ':')
		hx_rb_str(b, HX_F_WHAT, s, k);
}

static int tsch_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body;
	size_t n = p->bodylen;
	struct hx_recb b;
	int kind;

	if (!HAS(s, n, "stream_id") && !HAS(s, n, "rtsq_id") &&
	    !HAS(s, n, "sq_id"))
		return HANGDX_OK;
	kind = hx_find_ci(s, n, "timeout") ? HX_K_TSCH_TIMEOUT
					   : HX_K_TS_EXCEPTION;
	r->tsch_dump = true;
	rb_start(r, &b, kind, p);
	if (HAS(s, n, "stars_wait_sqe_is_timeout"))
		put_lit(&b, HX_F_WHAT, "sqe_timeout");
	else if (HAS(s, n, "wait task timeout"))
		put_lit(&b, HX_F_WHAT, "wait_task");
	else
		put_func(&b, s, n);
	kv_all(&b, L_TSCH, s, n);
	drop_field(&b, HX_F_TEXT);
	return emit(r, &b);
}

static int tsch_dump_line(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_recb b;
	const struct hx_field *f;
	size_t i;

	if (s[0] == 'p') {
		const char *st;

		/* a dump's "pos=39: ...", not a console message that starts
		 * with a 'p' once its c10 head is cut ("proxy ... failed") */
		if (n < 5 || memcmp(s, "pos=", 4) != 0)
			return HANGDX_OK;
		st = hx_find(s, n, "sqe_type=");
		rb_start(r, &b, HX_K_TSCH_SQE, NULL);
		kv_all(&b, L_TSCH, s, n);
		drop_field(&b, HX_F_TEXT);
		if (st) {       /* ", Event Wait, event_id=1": the name */
			const char *c = memchr(st, ',', (size_t)(s + n - st));
			const char *e;

			if (c) {
				c++;
				while (c < s + n && *c == ' ')
					c++;
				e = c;
				while (e < s + n && *e != ',')
					e++;
				if (e > c && !memchr(c, '=', (size_t)(e - c)))
					hx_rb_str(&b, HX_F_SQE_NAME, c,
						  (size_t)(e - c));
			}
		}
	} else {
		if (n < 11 || memcmp(s, "stream_id=", 10) != 0 ||
		    !HAS(s, n, "head=") || !HAS(s, n, "tail="))
			return HANGDX_OK;
		rb_start(r, &b, HX_K_TSCH_STREAM, NULL);
		kv_all(&b, L_TSCH, s, n);
	}
	for (i = 0, f = NULL; i < b.n; i++)
		if (b.f[i].key == HX_F_STREAM)
			f = &b.f[i];
	if (f && (f->num & 0x8000) && f->num < 0x10000)
		hx_rb_num(&b, HX_F_STREAM_BASE, f->num & 0x7fff);
	return emit(r, &b);
}

/* ---- torch_npu, MindSpore and other framework lines ---- */

/* The name of the call in "NAME(args...), error code is": HX_F_OP. */
static void put_call(struct hx_recb *b, const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k < 64 && (isalnum((unsigned char)s[k]) || s[k] == '_'))
		k++;
	if (k)
		hx_rb_str(b, HX_F_OP, s, k);
}

/* A framework's record of a call that returned code v. */
static int code_record(struct hx_reader *r, const struct hx_prefix *p,
		       const char *what, const char *call, size_t cl,
		       const char *v, size_t vl, const char *s, size_t n)
{
	struct hx_recb b;

	rb_start(r, &b, HX_K_FRAMEWORK_ERROR, p);
	put_lit(&b, HX_F_WHAT, what);
	if (call)
		put_call(&b, call, cl);
	hx_rb_str(&b, HX_F_CODE, v, vl);
	hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

static int framework_code(struct hx_reader *r, const struct hx_prefix *p,
			  const char *what, const char *s, size_t n)
{
	const char *v, *hf;
	size_t vl;

	if (!hx_after(s, n, "error code is ", " ,.[", &v, &vl))
		return HANGDX_OK;
	/* torch_npu's HCCL_CHECK_ERROR: "HCCL function error: CALL, error
	 * code is N", N an HcclResult (HCCLUtils.hpp) */
	hf = hx_find(s, (size_t)(v - s), "HCCL function error: ");
	if (!hf)
		return code_record(r, p, what, NULL, 0, v, vl, s, n);
	return code_record(r, p, "hccl_api", hf + 21, (size_t)(v - hf - 21),
			   v, vl, s, n);
}

/* A call's code as HCCL's examples and hccl_test print it (the HCCLCHECK
 * and ACLCHECK macros: hicann/hccl, examples/.../main.cc; hicann/oam-tools,
 * src/hccl_test/common/src/hccl_test_common.h): "hccl interface return
 * err FILE:LINE, retcode: N", N an HcclResult, the call returned its
 * failure as torch_npu's HCCL_CHECK_ERROR says it; "acl interface return
 * err FILE:LINE, retcode: N.", N an ACL or runtime code (507033). */
static int call_retcode(struct hx_reader *r, const char *s, size_t n)
{
	static const char *const head[] = {
		"hccl interface return err ", "acl interface return err ",
	};
	static const char *const what[] = { "hccl_api", "acl_api" };
	const char *v;
	size_t vl, i;

	for (i = 0; i < 2; i++)
		if (n > strlen(head[i]) && memcmp(s, head[i], strlen(head[i])) == 0 &&
		    hx_after(s, n, "retcode: ", " ,.", &v, &vl))
			return code_record(r, NULL, what[i], NULL, 0, v, vl, s, n);
	return HANGDX_OK;
}

/* hccl_test's root rank, as it creates its communicator: "the minbytes is
 * 8192, maxbytes is 67108864, iters is 20, warmup_iters is 5"
 * (hccl_test_common.cc, HcclTest::init_hcclComm). */
static int hccl_test_start(struct hx_reader *r, const char *s, size_t n)
{
	const char *v;
	size_t vl;
	int64_t max;

	if (n > 16 && memcmp(s, "the minbytes is ", 16) == 0 &&
	    hx_after(s, n, "maxbytes is ", " ,", &v, &vl) &&
	    hx_parse_i64(v, vl, &max) && max > 0)
		r->ht_max = (uint64_t)max;
	return HANGDX_OK;
}

/* hccl_test's check of a collective's result that failed: "local rank_id
 * 3, check result failed, 8192 | 764.55 | 0.00998 | failed" (that rank's,
 * rank_id its MPI rank) or the root rank's row ending "failed"
 * (hccl_opbase_rootinfo_base.cc, print_execution_time): the collective
 * completed with wrong data, no wait ran out. */
static int hccl_test_check(struct hx_reader *r, const char *s, size_t n,
			   int64_t rank)
{
	struct hx_recb b;

	rb_start(r, &b, HX_K_FAILURE, NULL);
	b.rec.level = HX_LV_ERROR;
	put_lit(&b, HX_F_WHAT, "hccl_test_check");
	if (rank >= 0)
		hx_rb_num(&b, HX_F_CONSOLE_RANK, rank);
	hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

static int hccl_test_local(struct hx_reader *r, const char *s, size_t n)
{
	const char *v;
	size_t vl;
	int64_t rank;

	if (n > 40 && memcmp(s, "local rank_id ", 14) == 0 &&
	    hx_find(s, n, ", check result failed,") &&
	    hx_after(s, n, "rank_id ", ",", &v, &vl) && hx_parse_i64(v, vl, &rank))
		return hccl_test_check(r, s, n, rank);
	return HANGDX_OK;
}

/* A row of hccl_test's result table, "67108864          |    2630.20    |
 * 23.76245        | success" (hccl_opbase_rootinfo_base.cc,
 * print_execution_time: success, NULL unchecked, failed): the row of the
 * maxbytes its start line printed, not failed, is the test run to its
 * end. */
static int hccl_test_row(struct hx_reader *r, const char *s, size_t n)
{
	const char *bar = memchr(s, '|', n), *last = NULL, *t;
	struct hx_recb b;
	int64_t size;
	size_t k = 0, tl;

	if (!r->ht_max || !bar)
		return HANGDX_OK;
	while (k < (size_t)(bar - s) && s[k] >= '0' && s[k] <= '9')
		k++;
	for (t = bar; t; t = memchr(t + 1, '|', n - (size_t)(t + 1 - s)))
		last = t;
	for (t = last + 1; t < s + n && *t == ' '; t++)
		;
	tl = n - (size_t)(t - s);
	if (!hx_parse_i64(s, k, &size))
		return HANGDX_OK;
	if (tl == 6 && memcmp(t, "failed", 6) == 0)
		return hccl_test_check(r, s, n, -1);
	if ((uint64_t)size < r->ht_max || r->ended ||
	    !((tl == 7 && memcmp(t, "success", 7) == 0) ||
	      (tl == 4 && memcmp(t, "NULL", 4) == 0)))
		return HANGDX_OK;
	r->ended = true;
	rb_start(r, &b, HX_K_NORMAL_END, NULL);
	put_lit(&b, HX_F_WHAT, "hccl_test_done");
	return emit(r, &b);
}

/* "[ERROR] 2025-06-25-10:45:23 (PID:13075, Device:0, RankID:8) ERR00100 text" */
static int torch_screen(struct hx_reader *r, const char *s, size_t n)
{
	const char *par = memchr(s, '(', n), *cl, *t;
	struct hx_kv kv[8];
	size_t nk, i, end;
	struct hx_recb b;
	int64_t ts;

	if (!par)
		return HANGDX_OK;
	t = memchr(s, ']', (size_t)(par - s));
	if (!t || t + 2 > par)
		return HANGDX_OK;
	ts = hx_parse_ts(t + 2, (size_t)(par - t - 2));
	cl = memchr(par, ')', n - (size_t)(par - s));
	if (ts == HX_NONE || !cl)
		return HANGDX_OK;
	rb_start(r, &b, HX_K_FRAMEWORK_ERROR, NULL);
	b.rec.ts = ts;
	b.rec.level = HX_LV_ERROR;
	put_lit(&b, HX_F_WHAT, "torch_npu");
	nk = hx_kv_scan(par, (size_t)(cl - par) + 1, kv, 8);
	for (i = 0; i < nk; i++) {
		if (kv[i].key == HX_KV_PID)
			hx_parse_i64(kv[i].v, kv[i].vlen, &b.rec.pid);
		else if (kv[i].key == HX_KV_DEVICE_PLAIN)
			put_i64(&b, HX_F_DEVICE_ID, kv[i].v, kv[i].vlen);
		else if (kv[i].key == HX_KV_RANK_ID)
			hx_rb_rank(&b, HX_F_GLOBAL_RANK, kv[i].v, kv[i].vlen);
	}
	t = cl + 1;
	while (t < s + n && *t == ' ')
		t++;
	end = (size_t)(s + n - t);
	for (i = 0; i < end && t[i] != ' '; i++)
		;
	if (i)
		hx_rb_str(&b, HX_F_CODE, t, i);
	hx_rb_str(&b, HX_F_TEXT, t, end > HX_QUOTE_MAX ? HX_QUOTE_MAX : end);
	return emit(r, &b);
}

static int app_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;

	if (!HAS(s, n, "dispatch timeout"))
		return framework_code(r, p, "app", s, n);
	rb_start(r, &b, HX_K_FRAMEWORK_ERROR, p);
	put_lit(&b, HX_F_WHAT, "dispatch_timeout");
	if (hx_after(s, n, "Process group work ", ", ", &v, &vl))
		hx_rb_str(&b, HX_F_OP_NAME, v, vl);
	if (hx_after(s, n, "seq_num ", " ,", &v, &vl))
		put_u64(&b, HX_F_SEQ_NUM, v, vl);
	if (hx_after(s, n, "device ", ":, ", &v, &vl))
		put_i64(&b, HX_F_DEVICE_ID, v, vl);
	return emit(r, &b);
}

static int kernel_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;

	if (!HAS(s, n, "ts exception"))
		return HANGDX_OK;
	rb_start(r, &b, HX_K_TS_EXCEPTION, p);
	put_lit(&b, HX_F_WHAT, "driver");
	if (hx_after(s, n, "excep_code=", ", ", &v, &vl))
		hx_rb_str(&b, HX_F_RET_CODE, v, vl);
	if (hx_after(s, n, "devid=", ", ", &v, &vl))
		put_i64(&b, HX_F_DEVICE_ID, v, vl);
	return emit(r, &b);
}

static int watchdog_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;

	if (!HAS(s, n, "watchdog timeout"))
		return HANGDX_OK;
	rb_start(r, &b, HX_K_WATCHDOG, p);
	if (hx_after(s, n, "dogId ", ", ", &v, &vl))
		hx_rb_str(&b, HX_F_NAME, v, vl);
	if (hx_after(s, n, "timeout : ", ", ", &v, &vl))
		put_timeout(&b, v, vl, true);
	return emit(r, &b);
}

/* ---- HCCL host and device lines ---- */

/*
 * A resident kernel prints its state every 30 s while it waits; a run of
 * equal lines (same process and stream, same text after the prefix) says
 * one thing: it has not moved since the first.  Keep the first and the
 * latest line of a run, the latest with "repeats" (lines in the run),
 * overwritten in place as the run grows: evidence stays the size of what
 * changed, and a repeat costs a hash and a compare, not a parse.
 */
static struct hx_krun *krun_slot(struct hx_reader *r, int64_t pid,
				 int64_t stream)
{
	struct hx_krun *free_slot = NULL;
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(r->krun); i++) {
		struct hx_krun *k = &r->krun[i];

		if (!k->used) {
			if (!free_slot)
				free_slot = k;
		} else if (k->pid == pid && k->stream == stream) {
			return k;
		}
	}
	if (free_slot) {
		memset(free_slot, 0, sizeof *free_slot);
		free_slot->used = true;
		free_slot->pid = pid;
		free_slot->stream = stream;
		free_slot->last = free_slot->first = free_slot->anchor = SIZE_MAX;
		free_slot->moved = -1;
	}
	return free_slot;
}

/* A hash of a status text, eight bytes at a time (FNV is a byte loop). */
static uint64_t text_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static bool krun_same(const struct hx_krun *k, const char *s, size_t n,
		      uint64_t h)
{
	return k->len == n && k->hash == h && memcmp(k->body, s, n) == 0;
}

/* The slot of process pid whose latest status line is s (a repeat): the
 * stream is read from the text, so the same text has the same slot. */
static struct hx_krun *krun_same_text(struct hx_reader *r, int64_t pid,
				      const char *s, size_t n, uint64_t h)
{
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(r->krun); i++)
		if (r->krun[i].used && r->krun[i].hash == h &&
		    r->krun[i].pid == pid && krun_same(&r->krun[i], s, n, h))
			return &r->krun[i];
	return NULL;
}

/* A repeat folded into the latest record of its run: true. */
static bool kernel_repeat(struct hx_reader *r, const struct hx_prefix *p,
			  struct hx_krun *k, uint64_t h)
{
	struct hangdx_evidence *ev = r->ev;
	struct hx_rec *last;
	struct hx_field *rep;

	if (!k || k->last == SIZE_MAX || k->last >= ev->nrec ||
	    !krun_same(k, p->body, p->bodylen, h))
		return false;
	last = &ev->recs[k->last];
	if (!last->nfield)
		return false;
	rep = &ev->fields[last->ffirst + last->nfield - 1];
	if (rep->key != HX_F_REPEATS)
		return false;
	last->line = r->line;
	last->off = r->off;
	last->ts = p->ts;
	last->tid = p->tid;
	if (ev->fields[last->ffirst].key == HX_F_VLINE)        /* grep's line */
		ev->fields[last->ffirst].num = (int64_t)r->vline;
	rep->num++;
	r->fs.records++;        /* as if kept: the file summary counts it */
	if (p->ts != HX_NONE)
		k->seen = p->ts;
	return true;
}

/*
 * A kernel's status lines over a long job: each time its head moves a
 * new run begins, and the runs before it say only how long the head
 * stood each time.  Kept: the first line with the current head (the
 * anchor: since when it stands), the current run's first and latest
 * line; the records of the runs before are taken back, and the longest
 * time a head stood before it moved goes on the anchor (moved_wait_us):
 * what the analysis reads of them.  A healthy job's status evidence then
 * stays the size of its kernels, however long it runs.
 */
#define HX_SWEEP_MIN 1024

static void take_back(struct hx_reader *r, size_t *rec)
{
	if (*rec != SIZE_MAX && *rec >= r->rec0 && *rec < r->ev->nrec &&
	    r->ev->recs[*rec].kind != HX_K_DEAD) {
		r->ev->recs[*rec].kind = HX_K_DEAD;
		r->ndead++;
	}
	*rec = SIZE_MAX;
}

/* The records taken back go (at the end of a file, or once they are half
 * of the file's records). */
static void sweep(struct hx_reader *r, bool end)
{
	size_t *refs[3 * HX_KRUN_SLOTS], n = 0, i, gone;
	struct hangdx_evidence *ev = r->ev;

	if (!r->ndead || (!end && (r->ndead < HX_SWEEP_MIN ||
				   r->ndead * 2 < ev->nrec - r->rec0)))
		return;
	for (i = 0; i < HX_ARRAY_LEN(r->krun); i++) {
		if (!r->krun[i].used)
			continue;
		refs[n++] = &r->krun[i].first;
		refs[n++] = &r->krun[i].anchor;
		refs[n++] = &r->krun[i].last;
	}
	gone = hx_ev_sweep(ev, r->rec0, refs, n);
	if (gone && ev->budget)
		atomic_fetch_sub(&ev->budget->used, gone);
	if (gone)
		r->ndead = 0;
}

/* Before a status line that begins a run is kept (b; head its head): a
 * moved head takes back every record of the slot and puts the longest
 * stand on b; the same head keeps the anchor only.  True when b is the
 * new anchor. */
static bool status_runs(struct hx_reader *r, struct hx_krun *k,
			struct hx_recb *b, int64_t head)
{
	if (!k->has_head)
		return true;
	if (head == k->head) {
		if (k->first != k->anchor)
			take_back(r, &k->first);
		if (k->last != k->anchor)
			take_back(r, &k->last);
		return false;
	}
	if (k->seen - k->since > k->moved)
		k->moved = k->seen - k->since;
	take_back(r, &k->anchor);
	take_back(r, &k->first);
	take_back(r, &k->last);
	hx_rb_num(b, HX_F_MOVED_WAIT, k->moved);
	return true;
}

/* Parse a held line now, to keep it: the reader looks as it did when the
 * line was read, and is put back after. */
static int replay(struct hx_reader *r, const struct hx_rawline *l,
		  uint64_t folded)
{
	uint64_t line = r->line, off = r->off, vline = r->vline;
	uint32_t vpath = r->vpath;
	uint16_t sub = r->sub;
	bool trail = r->ffts_trail;
	const char *cur = r->cur;
	size_t ncur = r->ncur;
	int err;

	struct hx_ctxline ctx = r->ctxline;

	r->line = l->line;
	r->off = l->off;
	r->vpath = l->vpath;
	r->vline = l->vline;
	r->replaying = true;
	r->replay_folded = folded;
	err = hx_families_line(r, l->s, l->len);
	r->replaying = false;
	r->replay_folded = 0;
	r->line = line;
	r->off = off;
	r->vpath = vpath;
	r->vline = vline;
	r->sub = sub;
	r->ffts_trail = trail;
	r->cur = cur;
	r->ncur = ncur;
	r->ctxline = ctx;
	return err;
}

/* The held kernel run of slot k becomes records: its first line (with
 * the count of earlier runs folded into it) and the rest. */
static int held_flush(struct hx_reader *r, struct hx_krun *k)
{
	struct hx_rawline *h =
		&r->held[HX_HELD_PER_SLOT * (size_t)(k - r->krun)];
	uint8_t n = k->nheld, i;
	uint64_t folded = k->folded;
	int err = HANGDX_OK;

	k->nheld = 0;
	k->closed = false;
	k->folded = 0;
	for (i = 0; i < n && !err; i++)
		err = replay(r, &h[i], i == 0 ? folded : 0);
	return err;
}

static int held_flush_all(struct hx_reader *r)
{
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < HX_ARRAY_LEN(r->krun) && !err; i++)
		if (r->krun[i].used && r->krun[i].nheld)
			err = held_flush(r, &r->krun[i]);
	return err;
}

static void hold(struct hx_reader *r, struct hx_krun *k, int i)
{
	struct hx_rawline *l =
		&r->held[HX_HELD_PER_SLOT * (size_t)(k - r->krun) + (size_t)i];

	l->line = r->line;
	l->off = r->off;
	l->vpath = r->vpath;
	l->vline = r->vline;
	l->len = r->ncur;
	memcpy(l->s, r->cur, r->ncur);
}

/*
 * A healthy job logs a kernel start and end for every op, millions over
 * its life; the hang needs only the last ones.  Per kernel stream, the
 * latest start/end pair that ended ok is held back as text; when the next
 * start comes, the held pair is folded (counted in folded_runs of the
 * start that is kept) without ever being parsed.  Anything else -- a
 * start without an end, an end not ok, a status line, the end of the
 * file, any ERROR line in the file -- turns what is held into records
 * first, and after an ERROR line nothing is folded: a run that may
 * overlap the hang is always kept.  True if the line was taken.
 */
static bool kernel_fold(struct hx_reader *r, const struct hx_prefix *p,
			bool start, int *err)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	int64_t stream = -1;
	struct hx_krun *k;

	*err = HANGDX_OK;
	if (r->no_fold || r->replaying || !r->held || !r->cur ||
	    r->ncur > HX_HELD_LINE || p->level == HX_LV_ERROR ||
	    p->level == HX_LV_CRITICAL || p->level == HX_LV_WARNING ||
	    !hx_after(s, n, "streamId:", ",. ", &v, &vl) ||
	    !hx_parse_i64(v, vl, &stream) || stream < 0 ||
	    !(k = krun_slot(r, p->pid, stream)))
		return false;
	if (start) {
		if (k->nheld == 2) {
			k->folded++;
			k->nheld = 0;
			r->fs.records += 2;     /* counted as if kept */
		} else if (k->nheld && (*err = held_flush(r, k)) != 0) {
			return true;
		}
		hold(r, k, 0);
		k->nheld = 1;
		return true;
	}
	if (k->nheld == 1 && hx_after(s, n, "state[", "]", &v, &vl) &&
	    vl == 2 && memcmp(v, "ok", 2) == 0) {
		hold(r, k, 1);
		k->nheld = 2;
		return true;
	}
	if (k->nheld)
		*err = held_flush(r, k);
	return false;
}

/* The slot of key, or NULL; none is taken. */
static struct hx_krun *krun_find(struct hx_reader *r, int64_t pid,
				 int64_t key)
{
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(r->krun); i++)
		if (r->krun[i].used && r->krun[i].pid == pid &&
		    r->krun[i].stream == key)
			return &r->krun[i];
	return NULL;
}

/* The slot key of an AICPU worker thread: below every stream and group
 * key (streams >= -1, groups > -2^62 - 2). */
static int64_t worker_key(int64_t tid)
{
	return INT64_MIN + (tid & ((INT64_C(1) << 60) - 1));
}

/* A record from any other line of a worker turns its held run into
 * records first. */
static int worker_flush(struct hx_reader *r, const struct hx_prefix *p)
{
	struct hx_krun *k;

	if (p->tid == HX_NONE || p->tid < 0 ||
	    !(k = krun_find(r, p->pid, worker_key(p->tid))) || !k->nheld)
		return HANGDX_OK;
	return held_flush(r, k);
}

/*
 * The real runs of one AICPU worker (pid, tid): the scheduler's "kfc
 * task" or "Begin to ExecuteTsKernelTask" opens a run (or D1
 * "RunAicpuRpcSrvLaunchV2 KFCTask" when no run is open), D6, D8, D10 and
 * D11 go on, D13 "end RunAicpuRpcSrvLaunchV2" and "End send ack to Ts"
 * with result[0] close it.  As for the start/end pairs above, the latest
 * closed run is held as text and folded (counted in folded_runs of the
 * first line of the run that is kept) when the next run opens; a run
 * that does not close, any other line of the worker, a WARNING or ERROR,
 * the end of the file turn what is held into records.  True if the line
 * was taken.
 */
static bool worker_fold(struct hx_reader *r, const struct hx_prefix *p,
			int role, int *err)
{
	struct hx_krun *k;

	*err = HANGDX_OK;
	if (r->no_fold || r->replaying || !r->held || !r->cur ||
	    r->ncur > HX_HELD_LINE || p->level != HX_LV_INFO ||
	    p->tid == HX_NONE || p->tid < 0 ||
	    !(k = krun_slot(r, p->pid, worker_key(p->tid))))
		return false;
	if (role == KR_ENTRY)
		role = k->nheld && !k->closed ? KR_MID : KR_OPEN;
	if (role == KR_OPEN) {
		if (k->nheld && k->closed) {
			k->folded++;
			r->fs.records += k->nheld;      /* counted as if kept */
			k->nheld = 0;
			k->closed = false;
		} else if (k->nheld && (*err = held_flush(r, k)) != 0) {
			return true;
		}
		hold(r, k, 0);
		k->nheld = 1;
		return true;
	}
	if (!k->nheld || k->nheld == HX_HELD_PER_SLOT ||
	    (k->closed && role == KR_MID)) {
		if (k->nheld)
			*err = held_flush(r, k);
		return false;
	}
	hold(r, k, k->nheld++);
	if (role == KR_CLOSE)
		k->closed = true;
	return true;
}

static int open_tail(struct hx_reader *r);

int hx_families_end(struct hx_reader *r)
{
	int err = hx_families_flush(r);

	if (!err)
		err = open_tail(r);
	if (!err)
		err = held_flush_all(r);
	sweep(r, true);
	return err;
}

int hx_families_file(struct hx_reader *r)
{
	int err = hx_families_end(r);

	if (err)
		return err;
	memset(r->krun, 0, sizeof r->krun);
	r->no_fold = false;
	r->ctxline.valid = false;
	r->tsch_dump = false;
	r->ffts_trail = false;
	r->last_rt_timeout = 0;
	r->warn_timeouts = 0;
	r->clk_seen = false;            /* its lines have a clock of their own */
	r->silence = -1;
	r->ht_max = 0;
	r->el_root = 0;
	return HANGDX_OK;
}

/* Emit the record of a line of a run (k its slot, NULL: none; same: the
 * line repeats the run's text, h its hash): the first line of a run is
 * kept as it is, the second with "repeats" as its last field, which
 * kernel_repeat then counts up for every later repeat. */
static int run_emit(struct hx_reader *r, struct hx_recb *b, struct hx_krun *k,
		    bool same, uint64_t h, const char *s, size_t n)
{
	size_t before = r->ev->nrec;
	int err;

	if (same)
		hx_rb_num(b, HX_F_REPEATS, 2);         /* the last field */
	err = emit(r, b);
	if (err || !k || r->ev->nrec == before)
		return err;
	if (same) {
		k->last = r->ev->nrec - 1;
	} else {
		k->last = SIZE_MAX;
		k->hash = h;
		k->len = SIZE_MAX;              /* too long: never the same */
		if (n <= sizeof k->body) {
			memcpy(k->body, s, n);
			k->len = n;
		}
	}
	return HANGDX_OK;
}

/* A status line's record, as run_emit, with its runs kept short. */
static int status_emit(struct hx_reader *r, struct hx_recb *b,
		       struct hx_krun *k, bool same, uint64_t h,
		       const struct hx_prefix *p)
{
	const struct hx_field *f = NULL;
	size_t i, before = r->ev->nrec;
	bool anchor = false;
	int err;

	for (i = 0; i < b->n && !f; i++)
		if (b->f[i].key == HX_F_HEAD)
			f = &b->f[i];
	if (!k || !f || p->ts == HX_NONE || r->no_fold)
		return run_emit(r, b, k, same, h, p->body, p->bodylen);
	if (!same)
		anchor = status_runs(r, k, b, f->num);
	err = run_emit(r, b, k, same, h, p->body, p->bodylen);
	if (err || r->ev->nrec == before)
		return err;
	k->seen = p->ts;
	if (!same)
		k->first = r->ev->nrec - 1;
	if (anchor) {
		k->anchor = r->ev->nrec - 1;
		k->has_head = true;
		k->head = f->num;
		k->since = p->ts;
	}
	sweep(r, false);
	return HANGDX_OK;
}

/* Device-side HCCL kernel lifetime (INFO): which AICPU core a kernel
 * holds, and, resident with op retry on, the main stream it waits to
 * drain:  "[HcclCommAicpu][Orchestrate]kernel start, tag[..], index[..],
 * streamId:5, core[0]."; "...kernel end, ..., streamId:5, state[ok].";
 * "[HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:10, head:0,
 * tail:4, tag[..], index[..], streamId:5." */
static int aicpu_kernel(struct hx_reader *r, const struct hx_prefix *p,
			const char *what)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	bool status = strcmp(what, "status") == 0, same = false;
	struct hx_krun *k = NULL;
	struct hx_recb b;
	uint64_t h = 0;
	int err;

	if (!status && (strcmp(what, "start") == 0 || strcmp(what, "end") == 0)) {
		if (kernel_fold(r, p, what[0] == 's', &err) || err)
			return err;
	}
	if (status) {
		h = text_hash(s, n);
		/* a repeat's stream is the same line's: not looked for again */
		if ((k = krun_same_text(r, p->pid, s, n, h)) == NULL) {
			int64_t stream = -1;

			if (hx_after(s, n, "streamId:", ",. ", &v, &vl))
				hx_parse_i64(v, vl, &stream);
			else if (hx_after(s, n, "group[", "]", &v, &vl))
				stream = -2 - (int64_t)(text_hash(v, vl) >> 2);
			k = krun_slot(r, p->pid, stream);
		}
		if (k && k->nheld && (err = held_flush(r, k)) != 0)
			return err;
		if (kernel_repeat(r, p, k, h))
			return HANGDX_OK;
		same = k && krun_same(k, s, n, h);
	}
	rb_start(r, &b, HX_K_AICPU_KERNEL, p);
	put_lit(&b, HX_F_WHAT, what);
	kv_all(&b, L_HCCL, s, n);
	if (!status && hx_after(s, n, "core[", "]", &v, &vl))
		put_u64(&b, HX_F_CORE, v, vl);
	if (!status && hx_after(s, n, "state[", "]", &v, &vl))
		hx_rb_str(&b, HX_F_STATUS, v, vl);
	if (r->replaying && r->replay_folded)
		hx_rb_num(&b, HX_F_FOLDED_RUNS, (int64_t)r->replay_folded);
	if (!status)
		return emit(r, &b);
	return status_emit(r, &b, k, same, h, p);
}

/* ---- real HCCL AICPU kernel lines (docs/HCCL-SOURCE-STRINGS.md §1-§6,
 * libochao-huawei/hcomm@8958adbf) ---- */

/* A host tag "<OpName>_<identifier>": the identifier is the group. */
static void group_of_tag(struct hx_recb *b, const char *t, size_t n)
{
	size_t k = 0;

	while (k < n && ((t[k] >= 'A' && t[k] <= 'Z') ||
			 (t[k] >= 'a' && t[k] <= 'z')))
		k++;
	if (k && k + 1 < n && t[k] == '_')
		hx_rb_str(b, HX_F_GROUP, t + k + 1, n - k - 1);
}

/* The slot of the host's launches of one text in one process (a key no
 * kernel stream has), or NULL past HX_LAUNCH_SLOTS of them: a job that
 * launches the same kernel every step keeps the first launch and the
 * latest one of each run, not one record a step. */
#define HX_LAUNCH_SLOTS (HX_KRUN_SLOTS / 2)
static struct hx_krun *launch_slot(struct hx_reader *r, int64_t pid,
				   uint64_t h)
{
	int64_t key = INT64_MIN + (int64_t)(h >> 2);
	size_t i, used = 0;

	for (i = 0; i < HX_ARRAY_LEN(r->krun); i++) {
		if (!r->krun[i].used || r->krun[i].stream >= INT64_MIN / 2)
			continue;
		if (r->krun[i].pid == pid && r->krun[i].stream == key)
			return &r->krun[i];
		used++;
	}
	return used < HX_LAUNCH_SLOTS ? krun_slot(r, pid, key) : NULL;
}

/* L1: "AicpuKfcTilingDataLaunchIn profName[..] tag[..] kfcOpStreamId[5]
 * mainStreamId[3] kfcStreamId[5] isCapture[0] mode[1] " (host).  Equal
 * launch lines of one process fold as a kernel's status lines do. */
static int kernel_launch(struct hx_reader *r, const struct hx_prefix *p,
			 const char *s, size_t n)
{
	uint64_t h = text_hash(p->body, p->bodylen);
	struct hx_krun *k = launch_slot(r, p->pid, h);
	struct hx_recb b;
	const char *v;
	size_t vl;

	if (kernel_repeat(r, p, k, h))
		return HANGDX_OK;
	rb_start(r, &b, HX_K_AICPU_KERNEL, p);
	put_lit(&b, HX_F_WHAT, "launch");
	num_after(&b, HX_F_STREAM, s, n, "kfcOpStreamId[");
	num_after(&b, HX_F_MAIN_STREAM, s, n, "mainStreamId[");
	if (hx_after(s, n, " tag[", "]", &v, &vl)) {
		put_tag(&b, v, vl);
		group_of_tag(&b, v, vl);
	}
	return run_emit(r, &b, k, k && krun_same(k, p->body, p->bodylen, h), h,
			p->body, p->bodylen);
}

/* "[HcclCommAicpu]..." after the tag: Orchestrate start (D6), ExecOp
 * success (D11) and fail (D14), KFC timeout (T1).  Not one of them: NOT_MINE. */
static int kernel_comm_aicpu(struct hx_reader *r, const struct hx_prefix *p,
			     const char *s, size_t n)
{
	const char *t = s + 15;
	size_t tn = n - 15;
	struct hx_recb b;
	const char *v;
	size_t vl;

	if (starts(t, tn, "[Orchestrate]start tag[")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "start");
	} else if (starts(t, tn, "[ExecOp] executor op success")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "done");
	} else if (starts(t, tn, "[ExecOp] executor op fail, tag[")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "fail");
		r->open_too = true;    /* the kernel's op failed */
	} else if (starts(t, tn, "KFC timeout..")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "timeout");
		str_after(&b, HX_F_GROUP, t, tn, "group[");
		hx_rb_str(&b, HX_F_TEXT, s, n > 200 ? 200 : n);
		return emit(r, &b);
	} else {
		return NOT_MINE;
	}
	if (hx_after(t, tn, "tag[", "]", &v, &vl))
		put_tag(&b, v, vl);
	str_after(&b, HX_F_ALG, t, tn, "algName[");
	str_after(&b, HX_F_GROUP, t, tn, "identifier[");
	return emit(r, &b);
}

/* "head:%u, tail:%u" and the like: the numbers of a wait line. */
static void put_sq_head_tail(struct hx_recb *b, const char *s, size_t n)
{
	num_after(b, HX_F_SQ, s, n, "sqid:");
	num_after(b, HX_F_HEAD, s, n, "head:");
	num_after(b, HX_F_TAIL, s, n, "tail:");
}

/* Lines that start with '[' other than [HcclCommAicpu]: the SQ-full waits
 * (R3, R4), "Rtsq full" on the batch path (R2) and the dump's "op is not
 * activated" (W4).  Not one of them: NOT_MINE. */
static int kernel_bracket(struct hx_reader *r, const struct hx_prefix *p,
			  const char *s, size_t n)
{
	struct hx_recb b;

	if (starts(s, n, "[LaunchTask][WaitLaunchWhileLoop]Current state.")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "rtsq_wait");
		put_sq_head_tail(&b, s, n);
		num_after(&b, HX_F_COUNT, s, n, "cnt:");
		return emit(r, &b);
	}
	if (starts(s, n, "[DispatcherAicpu][WaitRtsq] ")) {
		const char *t = s + 28;
		size_t tn = n - 28;

		if (starts(t, tn, "Current state.")) {
			kstart(r, &b, p, HX_K_AICPU_KERNEL, "rtsq_wait");
			put_sq_head_tail(&b, t, tn);
			num_after(&b, HX_F_COUNT, t, tn, "sqeCount:");
			return emit(r, &b);
		}
		return NOT_MINE;       /* Rtsq full: the ERROR path */
	}
	if (starts(s, n, "[PrintTaskExceptionAllStreams] group[") &&
	    HAS(s, n, "op is not activated")) {
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "not_activated");
		str_after(&b, HX_F_GROUP, s, n, "group[");
		return emit(r, &b);
	}
	return NOT_MINE;
}

/* C1 "AicpuComm: group[g], status[inExec], op[tag: t, newTag: n, index:
 * 2], aicpuCoreNum[6]" and C2 "In Execution group num[6], total group
 * num[8], bigger than Aicpu cores num[6]. ...". */
static int aicpu_comm(struct hx_reader *r, const struct hx_prefix *p,
		      const char *s, size_t n, bool overload)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	if (overload) {
		kstart(r, &b, p, HX_K_AICPU_COMM, "overload");
		num_after(&b, HX_F_BUSY, s, n, "In Execution group num[");
		num_after(&b, HX_F_TOTAL, s, n, "total group num[");
		num_after(&b, HX_F_CORES, s, n, "Aicpu cores num[");
		return emit(r, &b);
	}
	kstart(r, &b, p, HX_K_AICPU_COMM, "comm");
	str_after(&b, HX_F_GROUP, s, n, "group[");
	str_after(&b, HX_F_STATUS, s, n, "status[");
	if (hx_after(s, n, "op[tag: ", ",]", &v, &vl))
		put_tag(&b, v, vl);
	num_after(&b, HX_F_INDEX, s, n, " index: ");
	num_after(&b, HX_F_CORES, s, n, "aicpuCoreNum[");
	return emit(r, &b);
}

/* The other real lines, keyed on how the message text starts (s after
 * "[TID]" and an HCCL_ENTRY_INFO ": ").  Not one of them: NOT_MINE. */
static int kernel_plain(struct hx_reader *r, const struct hx_prefix *p,
			const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	switch (s[0]) {
	case 'A':
		if (starts(s, n, "AicpuKfcTilingDataLaunchIn profName["))
			return kernel_launch(r, p, s, n);
		if (starts(s, n, "AicpuComm: group["))
			return aicpu_comm(r, p, s, n, false);
		return NOT_MINE;
	case 'I':
		if (starts(s, n, "In Execution group num["))
			return aicpu_comm(r, p, s, n, true);
		return NOT_MINE;
	case 'R':
		if (!starts(s, n, "RunAicpuRpcSrvLaunchV2 KFCTask"))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "entry");
		return emit(r, &b);
	case 'e':
		if (!starts(s, n, "end RunAicpuRpcSrvLaunchV2"))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "end");
		return emit(r, &b);
	case 'a':
		if (!starts(s, n, "aicpu is suspended"))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "suspended");
		return emit(r, &b);
	case 'r':
		if (!starts(s, n, "run AicpuRunRpcServerV2 failed."))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "fail");
		if (hx_after(s, n, "ret[", "]", &v, &vl))
			hx_rb_str(&b, HX_F_RET_CODE, v, vl);
		return emit(r, &b);
	case 'H':
		if (!starts(s, n, "HcclOpExecFsmInitProcess tag:"))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "op_init");
		if (hx_after(s, n, " tag:", ",", &v, &vl))
			put_tag(&b, v, vl);
		num_after(&b, HX_F_INDEX, s, n, "index:");
		return emit(r, &b);
	case 'h':
		if (starts(s, n, "hccl aicpu launch hccl op task success.")) {
			kstart(r, &b, p, HX_K_AICPU_KERNEL, "launched");
			num_after(&b, HX_F_SQ, s, n, "sqid:");
			num_after(&b, HX_F_HEAD, s, n, "begin:");
			num_after(&b, HX_F_TAIL, s, n, "end:");
			return emit(r, &b);
		}
		if (!starts(s, n, "hccl aicpu set kfcStatus["))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "kfc_status");
		str_after(&b, HX_F_STATUS, s, n, "kfcStatus[");
		return emit(r, &b);
	case 'K':
		/* T2 (MC2): "stream %u" is the rank index, not a stream */
		if (!starts(s, n, "KFC timeout..["))
			return NOT_MINE;
		kstart(r, &b, p, HX_K_AICPU_KERNEL, "timeout");
		if (hx_after(s, n, "commId ", ",", &v, &vl))
			hx_rb_str(&b, HX_F_COMM_ID, v, vl);
		num_after(&b, HX_F_SQ, s, n, " sqid ");
		num_after(&b, HX_F_HEAD, s, n, " head ");
		num_after(&b, HX_F_TAIL, s, n, " tail ");
		if (hx_after(s, n, "KFC timeout..[", "]", &v, &vl))
			put_timeout(&b, v, vl, true);
		hx_rb_str(&b, HX_F_TEXT, s, n > 200 ? 200 : n);
		return emit(r, &b);
	default:
		return NOT_MINE;
	}
}

/* A real kernel line of HCCL: handled (true, *err set). */
/* The role of a real kernel line in its worker's run: D1 entry, D6,
 * D8, D10, D11 within, D13 closes; others KR_NONE. */
static int kernel_role(const char *s, size_t n)
{
	switch (s[0]) {
	case 'R':
		return starts(s, n, "RunAicpuRpcSrvLaunchV2 KFCTask") ? KR_ENTRY
								     : KR_NONE;
	case 'e':
		return starts(s, n, "end RunAicpuRpcSrvLaunchV2") ? KR_CLOSE
								 : KR_NONE;
	case 'H':
		return starts(s, n, "HcclOpExecFsmInitProcess tag:") ? KR_MID
								    : KR_NONE;
	case 'h':
		return starts(s, n, "hccl aicpu launch hccl op task success.")
			       ? KR_MID : KR_NONE;
	case '[':
		return starts(s, n, "[HcclCommAicpu][Orchestrate]start tag[") ||
		       starts(s, n, "[HcclCommAicpu][ExecOp] executor op "
				    "success") ? KR_MID : KR_NONE;
	default:
		return KR_NONE;
	}
}

static bool kernel_real(struct hx_reader *r, const struct hx_prefix *p,
			int *err)
{
	const char *s = p->body;
	size_t n = p->bodylen;
	int rc, role;

	*err = HANGDX_OK;

	if (n > 2 && s[0] == ':' && s[1] == ' ') {     /* HCCL_ENTRY_INFO */
		s += 2;
		n -= 2;
	} else if (starts(s, n, "ErrToWarn: ")) {      /* an ERROR as WARNING */
		s += 11;
		n -= 11;
	}
	if (n < 16)
		return false;
	role = kernel_role(s, n);
	if (role != KR_NONE && worker_fold(r, p, role, err))
		return true;
	if (*err)
		return true;
	if (s[0] != '[')
		rc = kernel_plain(r, p, s, n);
	else if (memcmp(s, "[HcclCommAicpu]", 15) == 0)
		rc = kernel_comm_aicpu(r, p, s, n);
	else
		rc = kernel_bracket(r, p, s, n);
	if (rc == NOT_MINE)
		return false;
	*err = rc;
	return true;
}

static bool hccl_comm_init_line(const char *s, size_t n)
{
	return HAS(s, n, "CommInit") || HAS(s, n, "SetupAgent") ||
	       HAS(s, n, "hcom init by file success") ||
	       HAS(s, n, "GenerateOpTag");
}

/* Communicator creation, in its forms (§3). */
static int hccl_comm_init(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body;
	size_t n = p->bodylen;

	if (HAS(s, n, "Entry-HcclCommInit"))
		return comm_init(r, p, "entry");
	if (HAS(s, n, "SetupAgent"))
		return comm_init(r, p, "setup_agent");
	if (HAS(s, n, "hcclCommInitInfo"))
		return comm_init(r, p, "init_info");
	if (HAS(s, n, "HcclCommInitRootInfo success"))
		return comm_init(r, p, "init_ok");
	if (HAS(s, n, "HcclCommInitRootInfo failed"))
		return comm_init(r, p, "init_failed");
	if (HAS(s, n, "hcom init by file success"))
		return comm_init(r, p, "hcom_init");
	if (HAS(s, n, "GenerateOpTag"))
		return comm_init(r, p, "op_tag");
	return HANGDX_OK;
}

/* A kernel start, end or status line: handled (true, *err set). */
static bool kernel_lifetime(struct hx_reader *r, const struct hx_prefix *p,
			    int *err)
{
	const char *s = p->body;
	size_t n = p->bodylen;
	const char *what = HAS(s, n, "kernel start") ? "start"
			   : HAS(s, n, "kernel end") ? "end"
			   : HAS(s, n, "Current state.") ? "status" : NULL;

	if (!what)
		return false;
	*err = aicpu_kernel(r, p, what);
	return true;
}

/*
 * INFO, DEBUG, TRACE and EVENT lines of HCCL that passed the pre-filter
 * can only be kernel lifetime, communicator creation, env echo, heartbeat
 * events or op retry: the error families are not tried on them.
 */
static int normal_end(struct hx_reader *r, const struct hx_prefix *p);

static int hccl_info_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *at;
	size_t n = p->bodylen;
	int err;

	if (HAS(s, n, "[HcclCommAicpu]") && kernel_lifetime(r, p, &err))
		return err;
	if (HAS(s, n, "status[") && HAS(s, n, "rank ["))
		return heartbeat_event(r, p);
	if ((at = hx_find_ci(s, n, "[opretry")) != NULL)
		return op_retry(r, p, at);
	if ((HAS(s, n, "HCCL_") || HAS(s, n, "ExecTimeOut")) &&
	    (HAS(s, n, " set by ") || HAS(s, n, "is not set") ||
	     HAS(s, n, " is set") || HAS(s, n, "environmental variable ")))
		return env_echo(r, p);
	if (HAS(s, n, "estroy") && (HAS(s, n, "destroy complete") ||
				     HAS(s, n, "] success")))
		return normal_end(r, p);
	return hccl_comm_init(r, p);
}

static int hccl_line(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *at;
	size_t n = p->bodylen;
	int err;

	if (r->ffts_trail) {
		if (trail_entries(s, n))
			return ffts_trail(r, p, s, n);
		r->ffts_trail = false;
	}
	/* the kernel status lines come every 30 s per kernel: test first */
	if (n > 15 && memcmp(s, "[HcclCommAicpu]", 15) == 0) {
		if (HAS(s, n, "Current state."))
			return (err = worker_flush(r, p)) != 0
				       ? err : aicpu_kernel(r, p, "status");
	}
	if (kernel_real(r, p, &err))
		return err;
	if (p->level != HX_LV_ERROR && p->level != HX_LV_WARNING &&
	    p->level != HX_LV_CRITICAL)
		return hccl_info_line(r, p);
	if ((at = hx_find(s, n, "context sequence before error task is")))
		return ffts_header(r, p, at);
	if (HAS(s, n, "Task run failed") || HAS(s, n, "Task from HCCL run failed"))
		return hccl_task_fail(r, p);
	if (HAS(s, n, "Rtsq full"))
		return aicpu_kernel(r, p, "rtsq_full");
	if (HAS(s, n, "[HcclCommAicpu]") && kernel_lifetime(r, p, &err))
		return err;
	if (HAS(s, n, "[TaskException]"))
		return aicpu_exception(r, p);
	if (HAS(s, n, "run failed of exception"))
		return aicpu_sqcq(r, p);
	if (HAS(s, n, "Cluster Exception Location") ||
	    HAS(s, n, "Heartbeat Lost Occurred") || HAS(s, n, "Stuck Occurred"))
		return cluster_exception(r, p, s, n);
	if (HAS(s, n, "status[") && HAS(s, n, "rank ["))
		return heartbeat_event(r, p);
	if (hx_find_ci(s, n, "cqe err"))
		return cqe_error(r, p);
	if ((at = hx_find_ci(s, n, "[opretry")) != NULL)
		return op_retry(r, p, at);
	if ((HAS(s, n, "HCCL_") || HAS(s, n, "ExecTimeOut")) &&
	    (HAS(s, n, " set by ") || HAS(s, n, "is not set") ||
	     HAS(s, n, " is set") || HAS(s, n, "environmental variable ")))
		return env_echo(r, p);
	if (hccl_comm_init_line(s, n))
		return hccl_comm_init(r, p);
	if (p->level != HX_LV_ERROR)
		return HANGDX_OK;
	if (HAS(s, n, "socket establish timeout"))
		return link_error(r, p, "socket_timeout");
	if (HAS(s, n, "connected p2p timeout"))
		return link_error(r, p, "p2p_timeout");
	if (HAS(s, n, "Transport init error"))
		return link_error(r, p, "transport_init");
	if (HAS(s, n, "transport create fail"))
		return link_error(r, p, "transport_create");
	if (HAS(s, n, "get socket timeout") &&
	    (HAS(s, n, "rank[") || HAS(s, n, "timeout[")))
		return link_error(r, p, "get_socket_timeout");
	if (HAS(s, n, "Wait timeout for sockets recv"))
		return link_error(r, p, "socket_recv_timeout");
	if (HAS(s, n, "DisplayConnectedRank"))
		return connect_line(r, p, "connected_ranks");
	if (HAS(s, n, "Failed to connect agent["))
		return connect_line(r, p, "connect_agent");
	if (HAS(s, n, "CONNECT TIMEOUT DETECT RESULT") ||
	    HAS(s, n, "fails to connect to dstRank"))
		return connect_line(r, p, "connect_detect");
	if (HAS(s, n, "the connection failure between this device and target "
		      "device"))
		return connect_line(r, p, "connect_reasons");
	if (memchr(s, '|', n) && memchr(s, '(', n))
		return link_table_row(r, p, s, n);
	return HANGDX_OK;
}

/* An error-manager message embedded in any module's line. */
static int embedded_em(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *m = hx_find(s, p->bodylen, "Error Message:");
	size_t n = p->bodylen;

	if (m) {
		m += 14;
		while (m < s + n && *m == ' ')
			m++;
		return em_message(r, p, m, n - (size_t)(m - s));
	}
	return framework_code(r, p, "framework", s, n);
}

static int prefixed_line(struct hx_reader *r, const struct hx_prefix *p)
{
	if (p->form == HX_PF_WATCHDOG)
		return watchdog_line(r, p);
	if (mod_is(p, "HCCL"))
		return hccl_line(r, p);
	if (mod_is(p, "RUNTIME"))
		return runtime_line(r, p);
	if (mod_is(p, "TSCH"))
		return tsch_line(r, p);
	if (mod_is(p, "AICPU") || mod_is(p, "CCECPU"))
		return aicpu_line(r, p);
	if (mod_is(p, "ROCE") || mod_is(p, "HCCP")) {
		if (hx_find_ci(p->body, p->bodylen, "cqe status"))
			return cqe_error(r, p);
		return HANGDX_OK;
	}
	if (mod_is(p, "APP"))
		return app_line(r, p);
	if (mod_is(p, "KERNEL"))
		return kernel_line(r, p);
	return embedded_em(r, p);
}

/* ---- console text: launcher prefixes, messages anywhere on a line ---- */

/*
 * What is left before a console message once the line envelope (line.c,
 * hx_parse_envelope) has taken the launcher prefixes and logger heads:
 * indentation and a c10 log head ("[E324 13:00:25.428029551
 * compiler_depend.ts:574]").  Returns the offset of the message.
 */
/* "[E324 13:00:25.428029551 compiler_depend.ts:574] " */
static size_t skip_c10(const char *s, size_t n, size_t i)
{
	const char *e;

	if (n - i < 8 || s[i] != '[' || !strchr("EWIF", s[i + 1]) ||
	    s[i + 2] < '0' || s[i + 2] > '9')
		return i;
	e = memchr(s + i, ']', n - i < 128 ? n - i : 128);
	if (!e || !memchr(s + i, ':', (size_t)(e - s) - i))
		return i;
	return (size_t)(e - s) + 1;
}

static size_t message_skip(const char *s, size_t n)
{
	size_t i = 0, j;
	int round;

	for (round = 0; round < 4 && i < n; round++) {
		j = i;
		while (j < n && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j < n)
			j = skip_c10(s, n, j);
		if (j == i)
			break;
		i = j;
	}
	return i;
}

/*
 * The anchors a console line must hold to be worth a look, found in one
 * pass over its bytes (a memmem per anchor costs more than the line):
 * which of them a line holds decides which families are tried.
 */
enum {
	A_TIMEOUT = 1u << 0,    /* "timeout", "Timeout", "timeOut", "times out" */
	A_ERROR = 1u << 1,      /* "error", "Error", "ERROR" */
	A_FAILED = 1u << 2,     /* "failed", "Failed" */
	A_MEMORY = 1u << 3,     /* "memory", "Memory" */
	A_LOST = 1u << 4,       /* "Lost", "LOST", "heartbeat" */
	A_WATCHDOG = 1u << 5,   /* "watchdog", "Watchdog" */
	A_STUCK = 1u << 6,      /* "stuck", "Stuck" */
	A_EMCODE = 1u << 7,     /* "EI0006:" after a space or ':' or at 0 */
	A_WAITWORD = 1u << 8,   /* "timed out", "TIMEOUT", "deadlock" */
	A_EXCEPT = 1u << 9,     /* "exception", "Exception" */
	A_MISSING = 1u << 10,   /* "No such", "command" */
	A_INVOKED = 1u << 11    /* pybind11's "Invoked with: " */
};

/* s[i..i+4) == lit, as one 32-bit compare (the caller has i + 4 <= n) */
static inline bool at4(const char *s, size_t n, size_t i, const char *lit)
{
	uint32_t a, b;

	(void)n;
	memcpy(&a, s + i, 4);
	memcpy(&b, lit, 4);
	return a == b;
}

/* The first two bytes of every anchor, as a 65536-bit set: one bit test
 * per byte of a line that holds none of them. */
static uint8_t anchor_pairs[8192];
static pthread_once_t anchor_once = PTHREAD_ONCE_INIT;

static void pair_set(unsigned char a, unsigned char b)
{
	unsigned k = (unsigned)a << 8 | b;

	anchor_pairs[k >> 3] = (uint8_t)(anchor_pairs[k >> 3] | 1u << (k & 7));
}

static void anchor_init(void)
{
	static const char *const pairs[] = { "me", "rr", "RR", "ai", "em",
					     "ea", "Lo", "LO", "tc", "tu",
					     "ME", "dl", "DL", "xc", "No",
					     "mm", "In" };
	const char *up = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t i;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		pair_set((unsigned char)pairs[i][0], (unsigned char)pairs[i][1]);
	for (i = 0; up[i]; i++)
		pair_set('E', (unsigned char)up[i]);
}

static unsigned field_anchors(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned a = 0;
	size_t i;

	pthread_once(&anchor_once, anchor_init);
	for (i = 0; i + 4 <= n; i++) {
		unsigned k = (unsigned)u[i] << 8 | u[i + 1];

		if (!(anchor_pairs[k >> 3] >> (k & 7) & 1))
			continue;
		switch (s[i]) {
		case 'm':
			if (at4(s, n, i, "meou") || at4(s, n, i, "meOu") ||
			    at4(s, n, i, "mes "))
				a |= A_TIMEOUT;     /* HCCL's "timeOut[%u s]" too */
			else if (at4(s, n, i, "med ") && i + 4 < n && s[i + 4] == 'o')
				a |= A_WAITWORD;
			else if (at4(s, n, i, "ment") && i + 15 <= n &&
				 memcmp(s + i + 4, "ation fault", 11) == 0)
				a |= A_FAILED;  /* "Segmentation fault": the shell's */
			else if (at4(s, n, i, "mman"))
				a |= A_MISSING; /* "command not found" */
			break;
		case 'M':
			if (at4(s, n, i, "MEOU"))
				a |= A_WAITWORD | A_TIMEOUT;
			break;
		case 'd':
			if (at4(s, n, i, "dloc"))
				a |= A_WAITWORD;
			break;
		case 'D':
			if (at4(s, n, i, "DLOC"))
				a |= A_WAITWORD;
			break;
		case 'x':
			if (at4(s, n, i, "xcep"))
				a |= A_EXCEPT;
			break;

		case 'N':
			if (at4(s, n, i, "No s"))
				a |= A_MISSING;
			break;
		case 'r':
			if (at4(s, n, i, "rror"))
				a |= A_ERROR;
			break;
		case 'R':
			if (at4(s, n, i, "RROR"))
				a |= A_ERROR;
			break;
		case 'a':
			if (at4(s, n, i, "aile"))
				a |= A_FAILED;
			else if (at4(s, n, i, "aili") && i + 17 <= n &&
				 memcmp(s + i + 4, "ng at address", 13) == 0)
				a |= A_FAILED;  /* Open MPI's "Failing at address:" */
			break;
		case 'e':
			if (at4(s, n, i, "emor"))
				a |= A_MEMORY;
			else if (at4(s, n, i, "eart"))
				a |= A_LOST;
			break;
		case 'I':       /* pybind11's "Invoked with: ", the last line of its
				 * TypeError of a C++ call whose arguments match no
				 * signature (the TypeError line itself is python_type's) */
			if (at4(s, n, i, "Invo") && i + 14 <= n &&
			    memcmp(s + i + 4, "ked with: ", 10) == 0)
				a |= A_INVOKED;
			break;
		case 'L':
			if (at4(s, n, i, "Lost") || at4(s, n, i, "LOST"))
				a |= A_LOST;
			break;
		case 't':
			if (at4(s, n, i, "tchd"))
				a |= A_WATCHDOG;
			else if (at4(s, n, i, "tuck"))
				a |= A_STUCK;
			break;
		case 'E':
			if ((i == 0 || s[i - 1] == ' ' || s[i - 1] == ':') &&
			    em_code_at(s + i, n - i))
				a |= A_EMCODE;
			break;
		default:
			break;
		}
	}
	return a;
}

/* A line in Chinese that says a failure or a wait that ran out (错误
 * "error", 失败 "failed", 异常 "exception", 超时 "timed out": the words
 * error_words and timeout_words know), looked for by their lead bytes
 * only where no ASCII anchor was found. */
static bool cjk_words(const char *s, size_t n)
{
	static const char *const w[] = {
		"\xe9\x94\x99\xe8\xaf\xaf", "\xe5\xa4\xb1\xe8\xb4\xa5",
		"\xe5\xbc\x82\xe5\xb8\xb8", "\xe8\xb6\x85\xe6\x97\xb6",
	};
	size_t i;

	if (!memchr(s, 0xe5, n) && !memchr(s, 0xe8, n) && !memchr(s, 0xe9, n))
		return false;
	for (i = 0; i < sizeof w / sizeof w[0]; i++)
		if (hx_find(s, n, w[i]))
			return true;
	return false;
}

bool hx_field_candidate(const char *s, size_t n)
{
	return field_anchors(s, n) != 0 || cjk_words(s, n);
}

/* An error-manager code inside a line: "... ERROR [x.py:1] EI0006: ..." */
static const char *em_inside(const char *s, size_t n)
{
	const char *q = s, *end = s + n;

	while ((q = memchr(q, 'E', (size_t)(end - q))) != NULL) {
		if ((q == s || q[-1] == ' ' || q[-1] == ':') &&
		    em_code_at(q, (size_t)(end - q)))
			return q;
		q++;
	}
	return NULL;
}

static void put_code_after(struct hx_recb *b, const char *s, size_t n,
			   const char *lit)
{
	const char *v;
	size_t vl = 0;

	if (!hx_after(s, n, lit, " ,.[]", &v, &vl) || !vl)
		return;
	hx_rb_str(b, HX_F_RET_CODE, v, vl);
}

/* torch_npu's watchdog (the "[Rank N]" is the global rank):
 * "[Rank 1] Watchdog caught collective operation timeout:
 *  WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for
 *  3600185 milliseconds before timing out." */
static int collective_timeout(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	rb_start(r, &b, HX_K_COLLECTIVE_TIMEOUT, NULL);
	b.rec.level = HX_LV_ERROR;
	if (hx_after(s, n, "[Rank ", "]", &v, &vl))
		hx_rb_rank(&b, HX_F_GLOBAL_RANK, v, vl);
	put_between(&b, HX_F_NAME, s, n, "caught collective operation timeout: ",
		    "(");
	if (hx_after(s, n, "SeqNum=", ",)", &v, &vl))
		put_u64(&b, HX_F_SEQ_NUM, v, vl);
	put_between(&b, HX_F_OP_TYPE, s, n, "OpType=", ",)");
	if (hx_after(s, n, "Timeout(ms)=", ",)", &v, &vl))
		put_u64(&b, HX_F_TIMEOUT_MS, v, vl);
	if (hx_after(s, n, "ran for ", " ", &v, &vl))
		put_u64(&b, HX_F_ELAPSED_MS, v, vl);
	return emit(r, &b);
}

/* vLLM: "No available shared memory broadcast block found in 60 seconds." */
static int shm_stall(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;
	uint64_t sec;

	rb_start(r, &b, HX_K_STALL, NULL);
	put_lit(&b, HX_F_WHAT, "shm_broadcast");
	if (hx_after(s, n, "found in ", " ", &v, &vl) &&
	    hx_parse_u64(v, vl, &sec) && sec < 1000000000)
		hx_rb_num(&b, HX_F_TIMEOUT_MS, (int64_t)(sec * 1000));
	return emit(r, &b);
}

/* A failure that stops a job without a wait: out of memory, a failed
 * start-up, a device fault.  what names it; the text is kept. */
static int failure(struct hx_reader *r, const char *what, const char *s,
		   size_t n)
{
	struct hx_recb b;

	rb_start(r, &b, HX_K_FAILURE, NULL);
	put_lit(&b, HX_F_WHAT, what);
	kv_all(&b, L_RT, s, n);
	drop_field(&b, HX_F_TEXT);
	put_code_after(&b, s, n, "runtime result = ");
	put_code_after(&b, s, n, "error code is ");
	if (!hx_rb_has(&b, HX_F_ERR_DESC))
		put_between(&b, HX_F_ERR_DESC, s, n, "reason=[", "]");
	hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

/* "wait for compute device to finish failed, runtime result = 507018." */
static int runtime_result(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_recb b;
	const char *e = hx_find(s, n, " failed");

	rb_start(r, &b, HX_K_RT_API_ERROR, NULL);
	if (e && e - s < 80)
		hx_rb_str(&b, HX_F_NAME, s, (size_t)(e - s));
	put_code_after(&b, s, n, "runtime result = ");
	return emit(r, &b);
}

/* what a failure line says, the anchors it needs, and a word it shares
 * with others (tested once per line) */
enum { G_NONE, G_SDMA, G_AICPU };
static const struct {
	const char *lit, *what;
	unsigned need, gate;
} failure_words[] = {
	{ "out of memory", "out_of_memory", A_MEMORY, G_NONE },
	{ "OutOfMemoryError", "out_of_memory", A_MEMORY, G_NONE },
	{ "Failed to allocate memory", "out_of_memory", A_MEMORY, G_NONE },
	{ "lost heartbeat", "device_lost", A_LOST, G_NONE },
	{ "loses the heartbeat", "device_lost", A_LOST, G_NONE },
	{ "hwts sdma error", "sdma_error", A_ERROR, G_SDMA },
	{ "fftsplus sdma error", "sdma_error", A_ERROR, G_SDMA },
	{ "sdma copy error", "sdma_error", A_ERROR, G_SDMA },
	{ "aicpu exception", "aicpu_exception", A_FAILED | A_ERROR, G_AICPU },
	{ "aicpu execution is abnormal", "aicpu_exception", A_ERROR, G_AICPU },
	{ "Failed to initialize the HCCP process", "hccp_init", A_FAILED, G_NONE },
	{ "No supported Ops kernel and engine", "not_supported", A_EMCODE, G_NONE },
	{ "valid device range is", "device_id", A_EMCODE | A_FAILED, G_NONE },
};

/* The failure a line names, or NULL; gates: -1 untested, 0 no, 1 yes. */
static const char *failure_word(const char *s, size_t n, unsigned a)
{
	static const char *const gate_lit[] = { NULL, "sdma", "aicpu" };
	int gate[3] = { 1, -1, -1 };
	size_t i;

	for (i = 0; i < sizeof failure_words / sizeof failure_words[0]; i++) {
		unsigned g = failure_words[i].gate;

		if (!(a & failure_words[i].need))
			continue;
		if (gate[g] < 0)
			gate[g] = (hx_find(s, n, gate_lit[g]) != NULL);
		if (gate[g] && hx_find(s, n, failure_words[i].lit))
			return failure_words[i].what;
	}
	return NULL;
}

/* torch_npu: "[Rank 7] HCCL watchdog thread terminated with exception:"
 * (the exception text, an error-manager block, follows or is on the line) */
static int hccl_watchdog(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_recb b;
	const char *v;
	size_t vl;

	rb_start(r, &b, HX_K_FRAMEWORK_ERROR, NULL);
	b.rec.level = HX_LV_ERROR;
	put_lit(&b, HX_F_WHAT, "hccl_watchdog");
	if (hx_after(s, n, "[Rank ", "]", &v, &vl))
		hx_rb_rank(&b, HX_F_GLOBAL_RANK, v, vl);
	hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

/*
 * The text of a console error-manager message may carry a RUNTIME line
 * ("EI9999: ts  The error from device(...), ... hccl fftsplus task timeout
 * ..."), or a whole block joined into one line ("EH9999: Inner Error!
 * rtDeviceSynchronize execute failed, reason=[sdma copy error] ..."):
 * its records too.
 */
static int em_carried(struct hx_reader *r, const char *s, size_t n)
{
	unsigned a = field_anchors(s, n);
	const char *at, *what;

	if (!(a & (A_ERROR | A_FAILED | A_MEMORY | A_LOST | A_TIMEOUT)))
		return HANGDX_OK;
	if ((at = hx_find(s, n, "The error from device")) != NULL ||
	    (at = hx_find(s, n, "fftsplus task execute failed")) != NULL ||
	    (at = hx_find(s, n, "Task execute failed")) != NULL) {
		if (runtime_text(r, NULL, at, n - (size_t)(at - s)))
			return r->err;
	} else if ((at = hx_find(s, n, "execute failed, reason=[")) != NULL ||
		   (at = hx_find(s, n, "execution failed, reason=")) != NULL) {
		while (at > s && at[-1] == ' ')
			at--;
		while (at > s && at[-1] != ' ')
			at--;
		if (rt_api_error(r, NULL, at, n - (size_t)(at - s)))
			return r->err;
	}
	if ((what = failure_word(s, n, a)) != NULL)
		return failure(r, what, s, n);
	return HANGDX_OK;
}

/* The families of console text, wherever they sit on the line. */
static int field_text(struct hx_reader *r, const char *s, size_t n)
{
	unsigned a = field_anchors(s, n);
	const char *at, *what;

	if ((a & A_WATCHDOG) &&
	    HAS(s, n, "Watchdog caught collective operation timeout"))
		return collective_timeout(r, s, n);
	if ((a & A_MEMORY) &&
	    HAS(s, n, "No available shared memory broadcast block"))
		return shm_stall(r, s, n);
	if ((a & A_WATCHDOG) &&
	    HAS(s, n, "HCCL watchdog thread terminated with exception"))
		return hccl_watchdog(r, s, n);
	if ((a & A_STUCK) && HAS(s, n, "stuck notify wait context info"))
		return rt_stuck_notify(r, NULL, s, n);
	if (((a & A_ERROR) &&
	     (at = hx_find(s, n, "The error from device")) != NULL) ||
	    ((a & A_FAILED) &&
	     ((at = hx_find(s, n, "fftsplus task execute failed")) != NULL ||
	      (at = hx_find(s, n, "Task execute failed")) != NULL)))
		return runtime_text(r, NULL, at, n - (size_t)(at - s));
	if ((a & (A_LOST | A_STUCK)) &&
	    (HAS(s, n, "Heartbeat Lost Occurred") ||
	     HAS(s, n, "Cluster Exception Location")))
		return cluster_exception(r, NULL, s, n);
	if ((a & A_EMCODE) && (at = em_inside(s, n)) != NULL) {
		/* "call aclnnArange failed, detail:EZ9999: Inner Error!": the
		 * operator call that returned the code, then the code */
		if ((a & A_FAILED) && hx_find(s, (size_t)(at - s), "call aclnn") &&
		    failure(r, "aclnn_call", s, (size_t)(at - s)))
			return r->err;
		return em_message(r, NULL, at, n - (size_t)(at - s));
	}
	if ((what = failure_word(s, n, a)) != NULL)
		return failure(r, what, s, n);
	if (!(a & A_FAILED))
		return HANGDX_OK;
	if (HAS(s, n, "execute failed, reason=[") ||
	    HAS(s, n, "execution failed, reason="))
		return rt_api_error(r, NULL, s, n);
	if (HAS(s, n, "runtime result = ")) {
		/* "EH9999  wait for ... failed": the code is not the name */
		if (n > 8 && em_code6(s, n) && s[6] == ' ') {
			size_t k = 6;

			while (k < n && s[k] == ' ')
				k++;
			return runtime_result(r, s + k, n - k);
		}
		return runtime_result(r, s, n);
	}
	return HANGDX_OK;
}

/* A line no family took at its start: a plog line or a message behind a
 * launcher prefix is read again without it; else the console families. */
static int field_line(struct hx_reader *r, const char *s, size_t n)
{
	size_t k = message_skip(s, n);
	uint16_t sub = r->sub;
	int err;

	if (k > 0 && k < n) {
		if ((err = hx_families_line(r, s + k, n - k)) != 0)
			return err;
		r->cur = s;
		r->ncur = n;
		if (r->sub > sub)
			return HANGDX_OK;
	}
	return field_text(r, s + k, n - k);
}

/* ---- lines without the plog prefix ---- */

static int file_marker(struct hx_reader *r, const char *s, size_t n)
{
	char buf[4096];
	int err = 0;
	uint32_t id;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || n > 4096)
		return HANGDX_OK;
	if (hx_families_file(r))
		return r->err;
	s = hx_utf8_clean(s, n, sizeof buf, buf, &n);
	id = hx_ev_intern(r->ev, s, n, &err);
	if (err) {
		r->err = err;
		return err;
	}
	r->vpath = id;
	return HANGDX_OK;
}

static int framework_end(struct hx_reader *r, const char *what);

/*
 * torch elastic's summary of a failed run (torchrun, the launcher's
 * ChildFailedError, torch/distributed/elastic/multiprocessing/errors):
 * "Root Cause (first observed failure):", "[0]:", then "  time      :
 * 2024-05-31_13:24:51", "  host      : ...", "  rank      : 2 (local_rank:
 * 2)", "  exitcode  : 1 (pid: 1345689)": the rank that failed first as
 * the launcher saw it, at that time, a record of that worker's failure
 * at its rank line (the row of ChildFailedError: its cause is in the
 * worker's output; a paste may end there).
 */
static int elastic_root(struct hx_reader *r, const char *s, size_t n)
{
	const char *v;
	size_t vl, i;
	char ts[19];
	struct hx_recb b;
	int64_t x;

	if (r->line > r->el_root + 8) {
		r->el_root = 0;
		return HANGDX_OK;
	}
	if (n > 20 && memcmp(s, "time", 4) == 0 &&
	    hx_after(s, n, ": ", " ", &v, &vl) && vl == 19) {
		for (i = 0; i < 19; i++)
			ts[i] = v[i] == '_' ? ' ' : v[i];
		r->el_ts = hx_parse_ts(ts, 19);
		return HANGDX_OK;
	}
	if (n < 12 || memcmp(s, "rank ", 5) != 0 ||
	    !hx_after(s, n, ": ", " (", &v, &vl) || !hx_parse_i64(v, vl, &x) ||
	    x < 0)
		return HANGDX_OK;
	r->el_root = 0;
	rb_start(r, &b, HX_K_FRAMEWORK_ERROR, NULL);
	b.rec.ts = r->el_ts;
	b.rec.level = HX_LV_ERROR;
	put_lit(&b, HX_F_WHAT, "elastic_root");
	hx_rb_num(&b, HX_F_GLOBAL_RANK, x);
	/* the launcher names the worker's global rank, as a "[rankN]:"
	 * prefix does the printer's (attrib.c) */
	hx_rb_num(&b, HX_F_CONSOLE_RANK, x);
	put_lit(&b, HX_F_CODE, "ChildFailedError");
	hx_rb_str(&b, HX_F_TEXT, s, n > HX_QUOTE_MAX ? HX_QUOTE_MAX : n);
	return emit(r, &b);
}

static int indented(struct hx_reader *r, const char *s, size_t n)
{
	const char *what;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (r->el_root)
		return elastic_root(r, s, n);
	if (n < 8)
		return HANGDX_OK;
	if ((what = hx_run_end(s, n)) != NULL)
		return framework_end(r, what);  /* a centred banner */
	if (HAS(s, n, "Cluster Exception Location") ||
	    HAS(s, n, "Heartbeat Lost Occurred"))
		return cluster_exception(r, NULL, s, n);
	if (em_code_at(s, n))
		return em_message(r, NULL, s, n);
	if (HAS(s, n, "failed") || HAS(s, n, "timeout") ||
	    HAS(s, n, "error from device"))
		return runtime_text(r, NULL, s, n);
	return HANGDX_OK;
}


static int bare_start(struct hx_reader *r, const char *s, size_t n)
{
	const char *what;

	switch (s[0]) {
	case '#':
		if (n > 7 && memcmp(s, "# file:", 7) == 0) {
			size_t k = 7;

			while (k < n && s[k] == ' ')
				k++;
			return file_marker(r, s + k, n - k);
		}
		if (n >= 4 && memcmp(s, "####", 4) == 0)
			r->tsch_dump = true;
		return HANGDX_OK;
	case 'p':
	case 's':
		return tsch_dump_line(r, s, n);
	case ' ':
	case '\t':
		return indented(r, s, n);
	case 'E':
		return em_message(r, NULL, s, n);
	case '[':
		if (n > 6 && memcmp(s, "[PID: ", 6) == 0)
			return em_message(r, NULL, s, n);
		if ((what = hx_run_end(s, n)) != NULL)
			return framework_end(r, what);
		if (n > 10 && s[1] == 'E' && memchr(s, '(', n < 40 ? n : 40))
			return torch_screen(r, s, n);
		return framework_code(r, NULL, "torch_npu", s, n);
	case 'R':
		if ((what = hx_run_end(s, n)) != NULL)
			return framework_end(r, what);
		if (n >= 36 && memcmp(s, "Root Cause (first observed failure):", 36) == 0) {
			r->el_root = r->line;
			r->el_ts = HX_NONE;
			return HANGDX_OK;
		}
		return framework_code(r, NULL, "torch_npu", s, n);
	case 'h':
	case 'a':
		return call_retcode(r, s, n);
	case 't':
		return hccl_test_start(r, s, n);
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return hccl_test_row(r, s, n);
	case '=':
		/* tail's and head's "==> PATH <==" before each file's lines */
		if (n > 8 && memcmp(s, "==> ", 4) == 0 &&
		    memcmp(s + n - 4, " <==", 4) == 0)
			return file_marker(r, s + 4, n - 8);
		return framework_end(r, hx_run_end(s, n));
	case 'l':
		if (s[1] == 'o')
			return hccl_test_local(r, s, n);
		return framework_end(r, hx_run_end(s, n));
	case 'T':
	case 'F':
	case '(':
	case 'P':
	case 'S':
	case '|':
	case 'A':
	case 'I':
	case 'w':
	case 'd':
	case 'G':
		return framework_end(r, hx_run_end(s, n));
	default:
		return HANGDX_OK;
	}
}

/*
 * A framework's or a tool's own line for a run that finished, as
 * hx_run_end (line.c) names it: the Hugging Face Trainer's "Training
 * completed", a benchmark's result, pytest's summary without a failure,
 * llama.cpp's timings as it exits, ...  A normal end of the process that
 * wrote it, like HCCL's communicator destroyed; the first a file holds
 * is recorded.  what: the end's name, NULL when the line is none.
 */
static int framework_end(struct hx_reader *r, const char *what)
{
	struct hx_recb b;

	if (!what)
		return HANGDX_OK;
	if (r->ended) {
		r->taken = true;
		return HANGDX_OK;
	}
	r->ended = true;
	rb_start(r, &b, HX_K_NORMAL_END, NULL);
	put_lit(&b, HX_F_WHAT, what);
	return emit(r, &b);
}

/* HCCL's report of a failed task wrapped under its head (a web page's
 * copy): "Task run failed, base information is streamID:[..]" on a line
 * of its own, at most two lines under an HCCL ERROR line, is that line's. */
static int hccl_wrapped(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_prefix q;

	memset(&q, 0, sizeof q);
	q.level = r->ctxline.level;
	q.pid = r->ctxline.pid;
	q.tid = r->ctxline.tid;
	q.ts = r->ctxline.ts;
	q.gline = HX_NONE;
	q.body = s;
	q.bodylen = n;
	return hccl_task_fail(r, &q);
}

/* A line without a plog prefix: the forms that start the line, then
 * (comments aside) the console families anywhere on it. */
static int bare_line(struct hx_reader *r, const char *s, size_t n)
{
	uint16_t sub = r->sub;
	int err;

	if (r->ctxline.valid && r->ctxline.hccl && r->line - r->ctxline.line <= 2 &&
	    r->ctxline.level == HX_LV_ERROR && n > 40 &&
	    memcmp(s, "Task run failed, base information is", 36) == 0)
		return hccl_wrapped(r, s, n);
	err = bare_start(r, s, n);

	if (err || r->sub > sub || s[0] == '#')
		return err;
	return field_line(r, s, n);
}

static void set_context(struct hx_reader *r, const struct hx_prefix *p)
{
	int err = 0;

	r->ctxline.valid = true;
	r->ctxline.line = r->line;
	r->ctxline.pid = p->pid;
	r->ctxline.tid = p->tid;
	r->ctxline.ts = p->ts;
	r->ctxline.level = p->level;
	r->ctxline.hccl = mod_is(p, "HCCL");
	r->ctxline.module = p->mod ? intern_cached(r, &r->cmod, p->mod,
						   p->modlen, &err)
				   : HX_NOSTR;
	r->ctxline.pname = p->pname ? intern_cached(r, &r->cpname, p->pname,
						    p->pnamelen, &err)
				    : HX_NOSTR;
	if (err)
		r->err = err;
}

int hx_families_line(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_prefix p;
	uint32_t saved = r->vpath;
	uint64_t saved_line = r->vline;
	int err;

	if (r->line != r->sub_line) {   /* the pieces of one line (a JSON
					 * string, glued lines) go on */
		r->sub = 0;
		r->sub_line = r->line;
	}
	r->cur = s;
	r->ncur = n;
	r->lastp_at = NULL;
	/* a traceback's first line: no family reads it (the open world
	 * does, hx_families_open) */
	if (hx_traceback_head(s, n)) {
		r->ffts_trail = false;
		return HANGDX_OK;
	}
	if (!hx_parse_prefix(s, n, &p)) {
		if (r->ffts_trail && trail_entries(s, n))
			return ffts_trail(r, NULL, s, n);
		r->ffts_trail = false;
		return bare_line(r, s, n);
	}
	if (r->ffts_trail && !mod_is(&p, "HCCL"))
		r->ffts_trail = false;
	if (p.level == HX_LV_ERROR || p.level == HX_LV_CRITICAL) {
		r->fs.errors++;
		if (!r->no_fold) {
			r->no_fold = true;
			if ((err = held_flush_all(r)) != 0)
				return err;
		}
	}
	if (p.gpath) {
		int e = 0;
		uint32_t id = hx_ev_intern(r->ev, p.gpath, p.gpathlen, &e);

		if (e)
			return r->err = e;
		r->vpath = id;
	}
	if (p.gline > 0)
		r->vline = (uint64_t)p.gline;
	set_context(r, &p);
	if (r->err)
		return r->err;
	r->lastp = p;
	r->lastp_at = s;
	err = prefixed_line(r, &p);
	r->vpath = saved;
	r->vline = saved_line;
	return err ? err : r->err;
}

/* ---- the open world: lines no family knows ---- */

/*
 * A line that no family took is still evidence when it reads as an error
 * or as a wait that ran out: silence is not health, and an error that
 * hangdx has no family for must leave the hang undetermined, not "no
 * hang".  The level comes from the plog prefix, the launcher's logger
 * head (envelope) or a c10 head; a line at INFO, DEBUG or WARNING level
 * is no error.  The first HX_OPEN_PER_FILE such lines of a file become
 * records, the rest are counted (one record with "repeats" at its end).
 */

/* One of the n words w[] is in s. */
static bool has_any(const char *s, size_t n, const char *const *w, size_t nw)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (hx_find(s, n, w[i]))
			return true;
	return false;
}

/* "timed out", "Timed out", "TimeoutError", "timeout after", "wait
 * timeout": a wait that ran out, whatever the level word says */
static bool has_word(const char *s, size_t n, const char *w, bool camel);

static bool timeout_words(const char *s, size_t n)
{
	static const char *const w[] = {
		"timed out", "Timed out", "TIMED OUT", "TimeoutError",
		"timeout after", "Timeout after", "wait timeout", "Wait timeout",
		"WaitTimeout", "time out", "Time out", "Time Out", "timeout!",
		"Timeout!",
		"TIMEOUT_EXIT", "deadline exceeded", "DeadlineExceeded",
		/* HCCL's tag of a task that failed, by stage and kind
		 * ("[TaskExecStage][Timeout][HOST]", task_exception_handler) */
		"][Timeout]",
		"\xe8\xb6\x85\xe6\x97\xb6",     /* chaoshi, "timed out" */
	};

	/* a deadlock declared, not a name ("deadlock_detection=off") */
	if (has_any(s, n, w, sizeof w / sizeof w[0]))
		return true;
	/* a deadlock declared, not one a message warns of ("This might
	 * cause deadlock in distributed execution", vLLM's worker) */
	return (HAS(s, n, "eadlock") || HAS(s, n, "EADLOCK")) &&
	       (has_word(s, n, "deadlock", false) ||
		has_word(s, n, "Deadlock", false) || has_word(s, n, "DEADLOCK", false)) &&
	       !HAS(s, n, "ight cause deadlock") && !HAS(s, n, "ay cause deadlock") &&
	       !HAS(s, n, "avoid deadlock") &&
	       /* a check's name (GE's "deadlock check did not converge") */
	       !HAS(s, n, "deadlock check");
}

/* "timeout" as a word of the text, not an environment variable's name
 * (HCCL_EXEC_TIMEOUT) or a setting ("timeout=1836", "timeout:10000 ms") */
/* A status printed as its number and then its name, the name ending at
 * q: "sched_error_code=100 SCHEDULER_TIMEOUT" (a capital name after
 * "=N " or ":N "). */
static bool status_name(const char *s, const char *q)
{
	const char *b = q, *d;

	while (b > s && ((b[-1] >= 'A' && b[-1] <= 'Z') || b[-1] == '_' ||
			 (b[-1] >= '0' && b[-1] <= '9')))
		b--;
	if (b == q || b - s < 3 || b[-1] != ' ' || !(*b >= 'A' && *b <= 'Z'))
		return false;
	for (d = b - 1; d > s && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	return d < b - 1 && d > s && (d[-1] == '=' || d[-1] == ':');
}

/* From q, "_" and a name, then '=' or ':': the rest of a key's name
 * (the driver's "(ret=-1; ...; timeout_ms=3000ms)", HIXL's
 * "timeout_ms=%llu"), not HCCL's "get qp status timeout_=[5 s]" whose
 * name ends at the '_'. */
static bool key_name(const char *q, const char *end)
{
	const char *k = q + 1;

	while (k < end && (isalnum((unsigned char)*k) || *k == '_'))
		k++;
	return k > q + 1 && k < end && (*k == '=' || *k == ':');
}

static bool timeout_word(const char *s, size_t n)
{
	const char *q = s, *end = s + n;

	while ((q = hx_find_ci(q, (size_t)(end - q), "timeout")) != NULL) {
		/* HCCL_EXEC_TIMEOUT, a-timeout, ConnectImplWithTimeout: a
		 * name, not the word; but a status's name after its number */
		bool ident = (q > s && (q[-1] == '_' || q[-1] == '-' ||
					isalnum((unsigned char)q[-1]))) ||
			     /* timeOutEnv, timeoutSec: a name; "timeouts" not */
			     (q + 7 < end && isalnum((unsigned char)q[7]) &&
			      !(q[7] == 's' && (q + 8 == end ||
						!isalnum((unsigned char)q[8])))) ||
			     /* a key's name ("timeout_ms=3000") */
			     (q + 7 < end && q[7] == '_' && key_name(q + 7, end));
		bool set = q + 7 < end && (q[7] == '=' ||
					   (q[7] == ':' && q + 8 < end &&
					    ((q[8] >= '0' && q[8] <= '9') || q[8] == '[')));

		if ((!ident && !set) ||
		    (ident && !set && q[0] == 'T' && q[-1] == '_' &&
		     (q + 7 == end || !hx_name_byte(q[7])) &&
		     status_name(s, q)))
			return true;
		q += 7;
	}
	return false;
}

/* The timeout a line names is a setting refused, not a wait that ran
 * out: "[%s] in cpu timeOut[%f s] is invalid.", "timeOut[%f s], not
 * support in cpu.", "parameter error : notify[%p], stream[%p],
 * timeOut[%u ms]", "set qp attr timeout[%u s] failed" (HCCL's checks of
 * its arguments and settings), the driver's "Input parameter timeout is
 * error", "Set socket timeout failed"; torch_npu's "Failed to find
 * function aclrtSetOpWaitTimeout" (the library lacks the setter: no call
 * ran), torch's "TypeError: Expected timeout argument to be of type
 * datetime.timedelta" (an argument of the wrong type), GE's "Timeout
 * value:%d is incorrect."; but "fftsplus task timeout dfx print failed,
 * ... descAlignBuf is invalid" tells of a task that ran out. */
static bool timeout_setting(const char *s, size_t n)
{
	if (HAS(s, n, "timeout dfx"))   /* the details of one that ran out */
		return false;
	return HAS(s, n, "is invalid") || HAS(s, n, "not support") ||
	       HAS(s, n, "parameter error") || HAS(s, n, "parse ") ||
	       HAS(s, n, "Invalid") || HAS(s, n, "in the range") ||
	       HAS(s, n, "out of range") || HAS(s, n, "timeout interval") ||
	       HAS(s, n, "qp attr timeout") || HAS(s, n, "Input parameter") ||
	       HAS(s, n, "timeout failed") || HAS(s, n, "to find function") ||
	       HAS(s, n, "TypeError") || HAS(s, n, "is incorrect");
}

/* A wait that ran out in the line's own words, not a setting it names. */
static bool said_timeout(const char *s, size_t n, unsigned a)
{
	/* the anchors first: a coded line seldom says it ran out */
	if (!(a & (A_TIMEOUT | A_WAITWORD)) && !HAS(s, n, "ime out") &&
	    !HAS(s, n, "ime Out"))
		return false;
	return (timeout_words(s, n) || ((a & A_TIMEOUT) && timeout_word(s, n))) &&
	       !timeout_setting(s, n);
}

/* The task scheduler's error line names the function that printed it:
 * one that ends in "_timeout" handles a task that ran out of time
 * ("ai_core_dispatcher.c:1012 bs_done_exception_proc_timeout: ..."). */
static bool handler_timeout(const char *s, size_t n)
{
	const char *q = s, *end = s + n;

	while ((q = hx_findn(q, (size_t)(end - q), "_timeout", 8)) != NULL) {
		q += 8;
		if (q == end || !hx_name_byte(*q))
			return true;
	}
	return false;
}

/* glog's head (Mooncake, brpc, many C++ services): a level letter, the
 * date as MMDD or YYYYMMDD, a space, then hh:mm:ss. */
static bool glog_head(const char *s, size_t n)
{
	size_t d = 0;

	if (n < 16 || !strchr("IWEF", s[0]) || s[0] == '\0')
		return false;
	while (d + 1 < n && d < 8 && s[d + 1] >= '0' && s[d + 1] <= '9')
		d++;
	return (d == 4 || d == 8) && s[d + 1] == ' ' && n > d + 4 &&
	       s[d + 2] >= '0' && s[d + 2] <= '9' && s[d + 4] == ':';
}

/* The level a line states: the plog prefix, the logger head of the
 * envelope, a c10 head ("[E324 ...", "[W324 ..."), or a level word. */
/* onnxruntime's log sink: "DATE TIME [E:onnxruntime:LOGGER, FILE:LINE
 * FUNC] text", the severity a letter (V, I, W, E, F); HX_LV_NONE when
 * not. */
static int ort_severity(const char *s, size_t n)
{
	const char *q = hx_find(s, n < 64 ? n : 64, ":onnxruntime:");

	if (!q || q - s < 2 || q[-2] != '[')
		return HX_LV_NONE;
	switch (q[-1]) {
	case 'E': case 'F': return HX_LV_ERROR;
	case 'W': return HX_LV_WARNING;
	case 'I': case 'V': return HX_LV_INFO;
	default: return HX_LV_NONE;
	}
}

/* The level of a line in NCCL's form, which other collective libraries
 * keep ("host:1378:1378 [0] NCCL INFO ...", "... [0] FLAGCX WARN ..."):
 * after the device's "] ", the library's name in capitals, then the
 * level. */
static int ccl_level(const char *s, size_t n)
{
	const char *q = n > 8 ? hx_find(s, n < 96 ? n : 96, "] ") : NULL;
	size_t i, w;

	if (!q)
		return HX_LV_NONE;
	i = (size_t)(q - s) + 2;
	for (w = i; w < n && w - i <= 12 && ((s[w] >= 'A' && s[w] <= 'Z') ||
					     (s[w] >= '0' && s[w] <= '9') || s[w] == '_'); w++)
		;
	if (w - i < 2 || w >= n || s[w] != ' ')
		return HX_LV_NONE;
	w++;
	if (n - w > 5 && memcmp(s + w, "INFO ", 5) == 0)
		return HX_LV_INFO;
	if (n - w > 5 && memcmp(s + w, "WARN ", 5) == 0)
		return HX_LV_WARNING;
	if (n - w > 6 && memcmp(s + w, "TRACE ", 6) == 0)
		return HX_LV_TRACE;
	return HX_LV_NONE;
}

static int open_level(const struct hx_reader *r, const char *s, size_t n,
		      const struct hx_prefix *p, bool prefixed)
{
	size_t k;
	int lv;

	if (prefixed && p->level != HX_LV_NONE)
		return p->level;
	/* a launcher's logger writes every line of a traceback at ERROR:
	 * its lower levels say something of one line, and ERROR of a
	 * message of its own (hx_logger_error) */
	if (r->env.level != HX_LV_NONE && r->env.level != HX_LV_ERROR &&
	    r->env.level != HX_LV_CRITICAL)
		return r->env.level;
	if (!prefixed && hx_logger_error(r->env.level, s, n))
		return r->env.level;
	k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (n - k > 3 && s[k] == '[' && s[k + 2] >= '0' && s[k + 2] <= '9') {
		if (s[k + 1] == 'E' || s[k + 1] == 'F')
			return HX_LV_ERROR;
		if (s[k + 1] == 'W')
			return HX_LV_WARNING;
		if (s[k + 1] == 'I')
			return HX_LV_INFO;
	}
	if ((lv = ort_severity(s, n)) != HX_LV_NONE ||
	    (lv = ccl_level(s + k, n - k)) != HX_LV_NONE)
		return lv;
	if (glog_head(s + k, n - k)) {  /* "E20260608 14:45:44.404089 ..." */
		if (s[k] == 'E' || s[k] == 'F')
			return HX_LV_ERROR;
		return s[k] == 'W' ? HX_LV_WARNING : HX_LV_INFO;
	}
	if (HAS(s, n, "Warning") || HAS(s, n, "WARNING") || HAS(s, n, "[WARN"))
		return HX_LV_WARNING;
	if (n - k >= 5 && (memcmp(s + k, "INFO ", 5) == 0 ||
			   memcmp(s + k, "INFO:", 5) == 0 ||
			   memcmp(s + k, "[INFO", 5) == 0))
		return HX_LV_INFO;
	return HX_LV_NONE;
}

/* w in s as a word: not inside an identifier ("first_error",
 * "error_code", "errors"); a class name may end in it ("RuntimeError:",
 * and an acronym's before a colon, "OSError:") when camel == true. */
static bool has_word(const char *s, size_t n, const char *w, bool camel)
{
	const char *q = s, *end = s + n;
	size_t l = strlen(w);

	while ((q = hx_find(q, (size_t)(end - q), w)) != NULL) {
		bool right = q + l == end || !hx_name_byte(q[l]);
		bool left = q == s || !hx_name_byte(q[-1]) ||
			    (camel && q[-1] >= 'a' && q[-1] <= 'z') ||
			    (camel && q[-1] >= 'A' && q[-1] <= 'Z' &&
			     q + l < end && q[l] == ':');

		if (left && right)
			return true;
		q += l;
	}
	return false;
}

/* Words that make a line an error when its level is not stated. */
static bool error_words(const char *s, size_t n, unsigned a)
{
	static const char *const w[] = {
		"error", "ERROR", "failed", "Failed", "FAILED", "exception",
		"Exception", "fatal", "Fatal", "FATAL", "Aborted", "abort",
	};
	static const char *const phrase[] = {
		"Segmentation fault", "core dumped", "terminate called",
		"Failing at address:",
		"\xe9\x94\x99\xe8\xaf\xaf",     /* cuowu, "error" */
		"\xe5\xa4\xb1\xe8\xb4\xa5",     /* shibai, "failed" */
		"\xe5\xbc\x82\xe5\xb8\xb8",     /* yichang, "exception" */
	};
	size_t i;

	if ((a & A_ERROR) && (has_word(s, n, "Error", true) ||
			      has_word(s, n, "error", false) ||
			      has_word(s, n, "ERROR", false)))
		return true;
	for (i = 0; i < sizeof w / sizeof w[0]; i++)
		if (has_word(s, n, w[i], w[i][0] >= 'A' && w[i][0] <= 'Z'))
			return true;
	return has_any(s, n, phrase, sizeof phrase / sizeof phrase[0]);
}

/* A reporter's sentence that introduces the log under it ("I got the
 * following error when running the training:"): three words or more, of
 * letters, blanks and a little punctuation, ended by a colon. */
static bool intro(const char *s, size_t n)
{
	size_t i, words = 0;

	if (n < 2 || s[n - 1] != ':')
		return false;
	for (i = 0; i + 1 < n; i++) {
		int c = (unsigned char)s[i];

		if (!(((c | 32) >= 'a' && (c | 32) <= 'z') || c == ' ' ||
		      c == ',' || c == '\'' || c == '-'))
			return false;
		if (c == ' ' && i > 0 && s[i - 1] != ' ')
			words++;
	}
	/* Python's own "The above exception was the direct cause of the
	 * following exception:" is a traceback's */
	return words >= 3 && !hx_find_ci(s, n, "exception");
}

/* A section heading of a framework's report, the errors under it:
 * MindSpore's "- Ascend Error Message:", "- Framework Error Message: (For
 * framework developers)", "- C++ Call Stack: (For framework developers)". */
static bool heading(const char *s, size_t n)
{
	static const char dev[] = " (For framework developers)";

	if (n > sizeof dev && memcmp(s + n - (sizeof dev - 1), dev, sizeof dev - 1) == 0)
		n -= sizeof dev - 1;
	return (n > 9 && memcmp(s + n - 9, " Message:", 9) == 0) ||
	       (n > 7 && memcmp(s + n - 7, " Stack:", 7) == 0);
}

/* Advice text of an error-manager block, not an event; a warning's line
 * that says what to set "to avoid this error". */
static bool advice(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return HAS(s, n, "Possible Cause") || HAS(s, n, "Solution:") ||
	       HAS(s, n, "TraceBack (most recent call last)") ||
	       HAS(s, n, "to avoid this error") ||
	       (n - k >= 2 && s[k] == 'F' && s[k + 1] == 'i' &&
		HAS(s, n, "File \""));
}

/* A Python traceback's frame line: keep its file's base name and its
 * function ("shm_broadcast.py:acquire_read") for a wait that ran out
 * under it. */
static bool frame_line(struct hx_reader *r, const char *s, size_t n)
{
	const char *f, *q, *e = s + n, *fn;
	size_t k = 0, fl, nl;

	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (n - k < 8 || memcmp(s + k, "File \"", 6) != 0)
		return false;
	f = s + k + 6;
	if (!(q = memchr(f, '"', (size_t)(e - f))))
		return false;
	for (fn = q; fn > f && fn[-1] != '/' && fn[-1] != '\\'; fn--)
		;
	fl = (size_t)(q - fn);
	r->frame_len = 0;
	r->frame_line = r->line;
	if (!(f = hx_find(q, (size_t)(e - q), ", in ")) || fl == 0 ||
	    fl >= sizeof r->frame - 2)
		return true;
	f += 5;
	for (nl = 0; f + nl < e && hx_name_byte(f[nl]); nl++)
		;
	if (nl > sizeof r->frame - 2 - fl)
		nl = sizeof r->frame - 2 - fl;
	memcpy(r->frame, fn, fl);
	r->frame[fl] = ':';
	memcpy(r->frame + fl + 1, f, nl);
	r->frame_len = (uint8_t)(fl + 1 + nl);
	return true;
}

/* The field an id's key names, by the key (the word or two before a
 * '=' or ':', in any case): "stream_id", "streamId", "stream id"; the
 * task's, "fault_task" too (the TS's "bs_done_exception_proc_timeout:
 * ..., fault_task=0"); the notify's.  0 if none. */
static int id_key(const char *k, size_t kl)
{
	static const struct { const char *w; int key; } ids[] = {
		{ "stream_id", HX_F_STREAM }, { "streamid", HX_F_STREAM },
		{ "stream id", HX_F_STREAM }, { "task_id", HX_F_TASK },
		{ "taskid", HX_F_TASK }, { "task id", HX_F_TASK },
		{ "fault_task", HX_F_TASK }, { "notify_id", HX_F_NOTIFY_RT },
		{ "notifyid", HX_F_NOTIFY_RT }, { "notify id", HX_F_NOTIFY_RT },
	};
	size_t i, j;

	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		if (strlen(ids[i].w) != kl)
			continue;
		for (j = 0; j < kl && (k[j] >= 'A' && k[j] <= 'Z' ? k[j] | 0x20 : k[j]) ==
				      ids[i].w[j]; j++)
			;
		if (j == kl)
			return ids[i].key;
	}
	return 0;
}

/* The key that ends at e (exclusive): the identifier before it, with
 * the word before when it is "id" after a blank ("stream id"). */
static size_t key_before(const char *s, const char *e, const char **k)
{
	const char *b = e;

	while (b > s && hx_name_byte(b[-1]))
		b--;
	if (e - b == 2 && (b[0] | 0x20) == 'i' && (b[1] | 0x20) == 'd' &&
	    b - s >= 2 && b[-1] == ' ' && hx_name_byte(b[-2])) {
		b--;
		while (b > s && hx_name_byte(b[-1]))
			b--;
	}
	*k = b;
	return (size_t)(e - b);
}

/* The stream, the task and the notify an open-world line names, in the
 * runtime's and the driver's words: the first number after each key, in
 * the line's first 1 KiB (the ids stand near the start); a key inside a
 * longer word ("report_stream_id") is another key.  The separators are
 * found with memchr: most of a line is no key. */
static void open_ids(struct hx_recb *b, const char *s, size_t n)
{
	static const char seps[2] = { '=', ':' };
	const char *end = s + (n > 1024 ? 1024 : n);
	const char *at[3] = { NULL, NULL, NULL }, *val[3] = { NULL, NULL, NULL };
	size_t vlen[3] = { 0, 0, 0 }, si;
	static const int keys[3] = { HX_F_STREAM, HX_F_TASK, HX_F_NOTIFY_RT };
	int slot;

	for (si = 0; si < 2; si++) {
		const char *p = s;

		while (p < end && (p = memchr(p, seps[si], (size_t)(end - p))) != NULL) {
			const char *k, *v, *e;
			size_t kl;
			int key;

			/* every key ends in "id" or "task" */
			if (p == s || ((p[-1] | 0x20) != 'd' && (p[-1] | 0x20) != 'k')) {
				p++;
				continue;
			}
			kl = key_before(s, p, &k);
			key = kl >= 6 && kl <= 10 ? id_key(k, kl) : 0;
			p++;
			if (!key)
				continue;
			slot = key == HX_F_STREAM ? 0 : key == HX_F_TASK ? 1 : 2;
			if (at[slot] && at[slot] < k)
				continue;
			for (v = p; v < end && *v == ' '; v++)
				;
			for (e = v; e < end && e - v < 20 && *e >= '0' && *e <= '9'; e++)
				;
			if (e == v || (e < end && hx_name_byte(*e)) ||
			    hx_ellipsis(e, (size_t)(end - e)))
				continue;
			at[slot] = k;
			val[slot] = v;
			vlen[slot] = (size_t)(e - v);
		}
	}
	for (slot = 0; slot < 3; slot++)
		if (at[slot])
			put_u64(b, keys[slot], val[slot], vlen[slot]);
}

/* The MindIE code of the line that a row of an error type ("MIE04*1C")
 * stands for: "MIE04", an error or critical level, the type at its end. */
static const char *mie_code(const char *s, size_t n, const struct hx_vocab *row)
{
	const char *p = s, *q;

	if (row->family != HX_VF_MINDIE || row->keylen != 8)
		return NULL;
	while ((q = hx_findn(p, (size_t)(s + n - p), row->key, 5)) != NULL) {
		if (q + 12 <= s + n && (q[5] == 'E' || q[5] == 'C') &&
		    q[10] == row->key[6] && q[11] == row->key[7])
			return q;
		p = q + 5;
	}
	return NULL;
}

/* One open-world record: the row's code and class when a table row
 * names the line, else the class cls alone (a coded line in words no row
 * holds), then the text.  Past HX_OPEN_PER_FILE a file's lines are only
 * counted. */
static int open_record(struct hx_reader *r, int kind,
		       const struct hx_prefix *p, const char *s, size_t n,
		       const struct hx_vocab *row, const char *cls)
{
	struct hx_recb b;
	const char *mie;

	r->open_line = r->line;
	if (r->open_kept >= HX_OPEN_PER_FILE) {
		r->open_more++;
		return HANGDX_OK;
	}
	r->open_kept++;
	rb_start(r, &b, kind, p);
	if (!p)
		b.rec.level = HX_LV_ERROR;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (row && (mie = mie_code(s, n, row)) != NULL) {
		hx_rb_str(&b, HX_F_CODE, mie, 12);      /* the line's own code */
		put_lit(&b, HX_F_WHAT, hx_vocab_class_id(row->cls));
		put_lit(&b, HX_F_NAME, row->name);
	} else if (row) {
		hx_rb_str(&b, HX_F_CODE, row->key, row->keylen);
		put_lit(&b, HX_F_WHAT, hx_vocab_class_id(row->cls));
		put_lit(&b, HX_F_NAME, row->name);
	} else if (cls) {
		put_lit(&b, HX_F_WHAT, cls);
	}
	hx_rb_str(&b, HX_F_TEXT, s, n > 200 ? 200 : n);
	open_ids(&b, s, n);
	/* a wait that ran out a few lines under a traceback's frame (its
	 * source line, then the exception) was raised in that frame */
	if (kind == HX_K_TIMEOUT_TEXT && r->frame_len &&
	    r->line - r->frame_line <= 3)
		hx_rb_str(&b, HX_F_FRAME, r->frame, r->frame_len);
	return emit(r, &b);
}

/* A line that says how a task or a process failed, in words no table
 * row holds: a coded record of that class without a code. */
static int open_class(struct hx_reader *r, const struct hx_prefix *p,
		      const char *s, size_t n, const char *cls)
{
	return open_record(r, HX_K_CODED, p, s, n, NULL, cls);
}

/* A field of the report's "1. Basic information": "task id : 60" and
 * "stream id : 517" are kept for the error code's record. */
static int aicerr_field(struct hx_reader *r, const char *s, size_t n)
{
	int64_t *to = NULL, v;
	size_t k = 0, d;

	if (n > 9 && memcmp(s, "task id ", 8) == 0) {
		to = &r->aicerr_task;
		k = 7;
	} else if (n > 11 && memcmp(s, "stream id ", 10) == 0) {
		to = &r->aicerr_stream;
		k = 9;
	}
	while (k < n && s[k] == ' ')
		k++;
	if (!to || k >= n || s[k] != ':')
		return HANGDX_OK;
	for (k++; k < n && s[k] == ' '; k++)
		;
	for (d = k; d < n && d - k < 12 && s[d] >= '0' && s[d] <= '9'; d++)
		;
	if (d > k && (d == n || s[d] == ' ' || s[d] == '\r') &&
	    hx_parse_i64(s + k, d - k, &v))
		*to = v;
	return HANGDX_OK;
}

/*
 * The report of the AI Core error analysis tool (msaicerr's info.txt):
 * from a heading of stars ("Root cause conclusion", "1. Basic
 * information", a paste may start at either), then under "2. AICERROR
 * code" or "2. Ai Core DFX Register" the core's error code ("code : 0x10", "error code  :
 * 0x10"): an exception of an AI Core task, which failed at once.  The
 * report's other lines are its fields, up to a log line.
 */
static int aicerr_report(struct hx_reader *r, const char *s, size_t n)
{
	size_t k = 0, vl;
	const char *v;
	char t[80];
	int tl;

	if (s[0] == '*') {
		bool head = n > 8 && s[1] == '*';
		bool code = head && (HAS(s, n, "AICERROR code") ||
				     HAS(s, n, "Ai Core DFX Register"));
		bool basic = head && !code && (HAS(s, n, "Root cause conclusion") ||
					       HAS(s, n, "Basic information"));

		/* a report starts, or its basic information: no ids yet */
		if (basic || (code && r->aicerr == 0))
			r->aicerr_task = r->aicerr_stream = -1;
		if (code)
			r->aicerr = 2;
		else if (basic)
			r->aicerr = 1;
		else if (r->aicerr == 2)
			r->aicerr = 1;
		return HANGDX_OK;
	}
	if (s[0] == '[') {              /* a log line: the report ended */
		r->aicerr = 0;
		return NOT_MINE;
	}
	if (r->aicerr != 2)             /* its fields ("error time : ...") */
		return aicerr_field(r, s, n);
	if (n > 6 && memcmp(s, "error ", 6) == 0)
		k = 6;
	if (n - k < 8 || memcmp(s + k, "code", 4) != 0)
		return HANGDX_OK;
	for (k += 4; k < n && s[k] == ' '; k++)
		;
	if (k + 3 >= n || s[k] != ':' || !(v = hx_find(s + k, n - k, "0x")))
		return HANGDX_OK;
	for (vl = 2; v + vl < s + n && isxdigit((unsigned char)v[vl]); vl++)
		;
	r->aicerr = 1;
	tl = snprintf(t, sizeof t, "AI Core error code %.*s (msaicerr's report)",
		      (int)vl, v);
	if (r->aicerr_stream >= 0 && r->aicerr_task >= 0)
		tl = snprintf(t, sizeof t, "AI Core error code %.*s (msaicerr's report, "
			      "stream_id=%lld, task_id=%lld)", (int)vl, v,
			      (long long)r->aicerr_stream, (long long)r->aicerr_task);
	r->aicerr_task = r->aicerr_stream = -1;
	return open_class(r, NULL, t, (size_t)tl,
			  hx_vocab_class_id(HX_VC_DEVICE_EXCEPTION));
}

/* torch_npu's "[Error]: The vector core execution is abnormal." under a
 * failed call: the runtime code's own description (the part of its
 * meaning after "; " in the table), when the code itself is on another
 * line or wrapped away. */
static const struct hx_vocab *error_message_row(const char *s, size_t n)
{
	const struct hx_vocab *rows;
	size_t nrows, i;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n < 8)
		return NULL;
	rows = hx_vocab_family(HX_VF_RUNTIME, &nrows);
	for (i = 0; i < nrows; i++) {
		const char *d = strstr(rows[i].meaning, "; ");

		if (d && strlen(d + 2) == n && memcmp(d + 2, s, n) == 0)
			return &rows[i];
	}
	return NULL;
}

/* The table row that decides a line: its first mention of a class that
 * says something (a timeout, a fault); else its first mention. */
static const struct hx_vocab *open_row(const char *s, size_t n,
				       enum hx_vocab_mod mod)
{
	const struct hx_vocab *any, *row = hx_vocab_line_row(s, n, mod, &any);

	return row ? row : any;
}

/* A table's border or a row of figures: no message of its own. */
static bool no_words(const char *s, size_t n, bool plog)
{
	size_t i, letters = 0;

	for (i = 0; i < n && letters < 8; i++)    /* a CJK character (a UTF-8
						   * lead byte of three) counts two */
		letters += (size_t)((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) +
			   2 * (size_t)((unsigned char)s[i] >= 0xe0 && (unsigned char)s[i] < 0xf0);
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	/* in a plog line, a border is "____", "----", "====" (three of the
	 * byte at least), not a C name or an option the message starts with
	 * ("__dm_session_recv_proc failed", "-d must use with -g"); on a
	 * console any such first byte */
	if (plog && n >= 2 && strchr("_-=", s[0]))
		return letters < 8 || (n >= 3 && s[1] == s[0] && s[2] == s[0]);
	return letters < 8 || (n && strchr("|_-={\"", s[0]));
}

/* A summary's row that counts failures and counts none ("Failed
 * requests:                         0", "errors = 0"): a label of a few
 * words with no colon of its own, then ':' or '=' or a column's blanks,
 * then 0.  Not an error. */
static bool zero_tally(const char *s, size_t n)
{
	size_t i, words = 1;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 4 || s[n - 1] != '0' || hx_name_byte(s[n - 2]) || s[n - 2] == '.')
		return false;
	for (i = n - 1; i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'); i--)
		;
	if (i == 0 || (s[i - 1] != ':' && s[i - 1] != '=' && n - 1 - i < 2))
		return false;
	if (s[i - 1] == ':' || s[i - 1] == '=')
		i--;
	while (i && s[i - 1] == ' ')
		i--;
	if (i == 0 || i > 48 || memchr(s, ':', i) || memchr(s, '=', i))
		return false;
	for (n = 0; n < i; n++)
		words += s[n] == ' ' && n && s[n - 1] != ' ';
	return words <= 5;
}

/* The device's own words for an exception of a task on an AI Core or a
 * vector core (RUNTIME's device error text, the 310P HWTS block): the task
 * failed at once.  Not an AICPU exception: HCCL's own kernels run there in
 * AI_CPU mode, so a communication failure surfaces as one. */
bool hx_device_exception_words(const char *s, size_t n)
{
	static const char *const w[] = {
		"aicore exception", "aicore error", "aivec error",
		"aivector error", "aivector exception",
		"vector core exception", "hwts_task_exception",
		"exception of aivec", "exception of aicore",
		/* the task scheduler's HWTS interrupt of an AI Core or a vector
		 * core ("int_process_hwts_aic_exception: hwts aic exception") */
		"hwts aic exception", "hwts aiv exception",
	};

	return !HAS(s, n, "timeout") && has_any(s, n, w, sizeof w / sizeof w[0]);
}

/* A fault of the hardware in the words of the kernel's error report and
 * the driver's memory manager: an uncorrectable memory error ("[Hardware
 * Error] ... multi-bit ECC", "uncorrectable ECC") or a page fault the
 * device may not take ("[devmm] [ERROR] ... Device fault error"): the
 * work on that device failed at once. */
static bool hardware_fault_words(const char *s, size_t n)
{
	static const char *const w[] = {
		"multi-bit ECC", "Multi-bit ECC", "multi bit ECC",
		"uncorrectable ECC", "Uncorrectable ECC", "ECC uncorrectable",
	};

	return (HAS(s, n, "ECC") && has_any(s, n, w, sizeof w / sizeof w[0])) ||
	       HAS(s, n, "evice fault error");
}

/* The runtime's report of an AI Core task that failed ("[DFX_INFO]AI
 * Core kernel execution failed, device_id=%u, stream_id=%d, ..., fault
 * kernel_name=%s", davinci_kernel_task.cc; "Aicore kernel execute
 * failed" in earlier releases): an operator's exception, unless the
 * kernel is one of HCCL's (its AIV collectives, "aiv_all_gather_...";
 * MC2's dispatch and combine), which may have waited on its peers. */
static bool aicore_kernel_failed(const char *s, size_t n)
{
	static const char *const comm[] = {
		"aiv_all", "aiv_reduce", "aiv_broadcast", "all_gather", "all_reduce",
		"reduce_scatter", "alltoall", "all_to_all", "Hccl", "hccl",
		"Distribute", "Dispatch", "Combine",
	};
	const char *k;
	size_t at, rest;

	if (!(k = hx_find(s, n, "kernel execut")))
		return false;
	at = (size_t)(k - s);
	rest = n - at;
	if (!((at >= 7 && memcmp(k - 7, "Aicore ", 7) == 0 && rest >= 21 &&
	       memcmp(k, "kernel execute failed", 21) == 0) ||
	      (at >= 8 && memcmp(k - 8, "AI Core ", 8) == 0 && rest >= 23 &&
	       memcmp(k, "kernel execution failed", 23) == 0)))
		return false;
	k = hx_find(s, n, "kernel_name=");
	return !k || !has_any(k, n - (size_t)(k - s), comm,
			      sizeof comm / sizeof comm[0]);
}

/* A process that ended with a status it gave on an error line: "failed
 * (exit 2)", "exit code 1", "exit code: 1", "exit status 1", "exitcode:
 * 1", "exited with code 1", "exit_code=1" (not 0: a normal exit). */
static bool exit_status(const char *s, size_t n)
{
	static const char *const tail[] = {
		" ", " code ", " code: ", " status ", "code: ", "ed with code ",
		"_code=",
	};
	const char *q = s, *end = s + n;
	size_t i;

	while ((q = hx_find(q, (size_t)(end - q), "exit")) != NULL) {
		q += 4;
		for (i = 0; i < sizeof tail / sizeof tail[0]; i++) {
			size_t l = strlen(tail[i]);

			if ((i > 0 || ((size_t)(q - s) >= 5 && q[-5] == '(')) &&
			    (size_t)(end - q) > l && memcmp(q, tail[i], l) == 0 &&
			    (q[l] == '-' || (q[l] >= '1' && q[l] <= '9')))
				return true;
		}
	}
	return false;
}

/* A process that ended on an exception: the last line of a Python
 * traceback ("ValueError: ...", "ray.exceptions.RayTaskError: ..."), C++'s
 * "terminate called after throwing", a crash.  Not a wait: the caller
 * has already taken lines that say a wait ran out. */
static bool exited_words(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (k = i; k < n && k - i < 96 && (hx_name_byte(s[k]) || s[k] == '.'); k++)
		;
	/* "RuntimeError: ...", pasted without its blank ("RuntimeError:No
	 * module named ..."), or with an empty message ("...Error: ", its
	 * blank trimmed) */
	if (k > i + 5 && k < n && s[k] == ':' && (k + 1 == n || s[k + 1] != ':') &&
	    (has_word(s + i, k - i, "Error", true) ||
	     has_word(s + i, k - i, "Exception", true) ||
	     /* pynvml's kind of subclass: "DCMIError_LibraryNotFound" */
	     HAS(s + i, k - i, "Error_")) &&
	    !HAS(s + i, k - i, "KeyboardInterrupt"))
		return true;
	if ((HAS(s, n, "ASSERT") || HAS(s, n, "Assertion")) &&
	    has_word(s, n, "failed", false))
		return true;
	if (n - i > 20 && memcmp(s + i, "Exception in thread ", 20) == 0)
		return true;    /* Python's threading: a thread ended on it */
	/* CANN's TBE compile workers when the process that started them has
	 * ended (printed at every normal exit too) */
	if (HAS(s, n, "main process disappeared"))
		return true;
	/* glog's CHECK that failed aborts the process ("Check failed: ...",
	 * then "*** Check failure stack trace: ***"); a worker or server
	 * that says it failed to start has returned */
	if (HAS(s, n, "heck fail") || HAS(s, n, "ailed to start"))
		return true;
	/* Open MPI's handler of a fatal signal ("[host:pid] *** Process
	 * received signal ***", "Signal: Segmentation fault (11)", "Failing
	 * at address: 0xb8", the frames): opal/util/stacktrace.c */
	if (HAS(s, n, "Failing at address:") ||
	    HAS(s, n, "*** Process received signal ***"))
		return true;
	return HAS(s, n, "terminate called after throwing") ||
	       HAS(s, n, "Segmentation fault") || HAS(s, n, "core dumped") ||
	       HAS(s, n, "exits for this inner error") ||
	       HAS(s, n, "terminated with the following error");
}

/* An error line that says device memory ran short in other words than
 * "out of memory" (MindSpore's allocator: "... is more than total mem
 * size", "memory isn't enough"), or that a resource could not be
 * allocated (a device plugin's "Allocate failed due to no healthy devices
 * present", "cannot allocate"): it failed at once. */
static bool memory_short(const char *s, size_t n)
{
	static const char *const w[] = {
		"memory isn't enough", "memory is not enough", "emory not enough",
	};

	return HAS(s, n, "llocate failed") || HAS(s, n, "annot allocate") ||
	       HAS(s, n, "more than total mem") ||
	       (HAS(s, n, " enough") && has_any(s, n, w, sizeof w / sizeof w[0]));
}

/* A line that says a program, library or file the job needs is not
 * there: a set-up that failed at once ("npu-smi not found in [...] or
 * PATH", bash's "command not found", "No such file or directory"). */
static bool missing_words(const char *s, size_t n, bool err)
{
	static const char *const w[] = {
		"command not found", "No such file or directory",
	};
	static const char *const werr[] = {
		"not found in", "ibrary not found", "ibrary Not Found",
	};

	if (!HAS(s, n, "ot found") && !HAS(s, n, "ot Found") &&
	    !HAS(s, n, "No such file"))
		return false;
	return has_any(s, n, w, sizeof w / sizeof w[0]) ||
	       (err && has_any(s, n, werr, sizeof werr / sizeof werr[0]));
}

/* An error line that says a call was given what it does not accept (or
 * a listen or bind on an address it could not have: it returned). */
static bool parameter_words(const char *s, size_t n)
{
	const char *q;
	static const char *const w[] = {
		"ailed to listen", "ailed to bind", "Address already in use",
		"is invalid", "invalid argument", "Invalid argument",
		"which is incorrect",   /* HCCL: "HCCL_X is set to [v], which
					 * is incorrect" */
		"not support", "unsupported", "Unsupported",
		"check fail", "check failed",
		/* dlerror(3): a library of the install that does not load */
		"undefined symbol", "cannot open shared object",
		/* a graph or an operator that did not compile: it returned */
		"ompile failed", "uild graph failed",
		/* a build without what the job asks for ("Torch not compiled
		 * with CUDA enabled") */
		"not compiled with",
	};

	/* "Failed to compile graph ...", "Failed to re-compile op ...",
	 * "failed to build graph" */
	if ((q = hx_find(s, n, "ailed to ")) != NULL) {
		size_t k = (size_t)(q - s) + 9;

		if ((n - k >= 7 && memcmp(s + k, "compile", 7) == 0) ||
		    (n - k >= 10 && memcmp(s + k, "re-compile", 10) == 0) ||
		    (n - k >= 11 && memcmp(s + k, "build graph", 11) == 0))
			return true;
	}
	/* GE's error line of its compile or init stage ("ErrorNo: N(desc)
	 * [COMP][DEFAULT]...", "[INIT][DEFAULT]"): a graph that did not
	 * build or load returned at once */
	if (HAS(s, n, "ErrorNo: ") && (HAS(s, n, "[COMP][") || HAS(s, n, "[INIT][")))
		return true;
	/* "Invalid DP number per node: 0", "invalid device id": a value
	 * refused (the word, not "invalidate") */
	if (HAS(s, n, "nvalid") && (has_word(s, n, "Invalid", false) ||
				     has_word(s, n, "invalid", false)))
		return true;
	/* an operator whose shapes did not infer ("nodes[1] infershape  fail",
	 * GE's "InferShape failed"): it returned */
	if ((q = hx_find(s, n, "nferShape")) != NULL ||
	    (q = hx_find(s, n, "nfershape")) != NULL) {
		size_t k = (size_t)(q - s) + 9;

		while (k < n && s[k] == ' ')
			k++;
		if (n - k >= 4 && memcmp(s + k, "fail", 4) == 0)
			return true;
	}
	/* a constraint a value broke ("--max-input-token-len must be in the
	 * range (0, --max-seq-len]", "strides must not be zero") */
	if (HAS(s, n, "must ") && (HAS(s, n, "must be ") || HAS(s, n, "must not be ")))
		return true;
	return has_any(s, n, w, sizeof w / sizeof w[0]);
}

/* A traceback's frame logged at error level (its prefix's or its
 * launcher's) with no error line before it in its file: an exception
 * was being logged, its head cut. */
static int error_frame(struct hx_reader *r, const struct hx_prefix *p,
		       const char *s, size_t n)
{
	int lv = p ? p->level : r->env.level;

	if (r->open_kept || (lv != HX_LV_ERROR && lv != HX_LV_CRITICAL))
		return HANGDX_OK;
	while (*s == ' ' || *s == '\t')
		s++, n--;
	return open_record(r, HX_K_UNKNOWN_ERROR, p, s, n, NULL, "traceback");
}

int hx_families_open(struct hx_reader *r, const char *s, size_t n)
{
	/* the prefix hx_families_line parsed for this very line, if any */
	bool prefixed = r->lastp_at == s;
	struct hx_prefix p;
	const char *m;
	size_t mn;
	int lv;
	const struct hx_vocab *row;
	unsigned a;
	bool err, tsch = false;
	enum hx_vocab_mod mod = HX_VM_ANY;

	if ((!r->open_too && (r->sub > r->piece_sub || r->taken)) || n < 8 ||
	    s[0] == '#' || hx_traceback_link(s, n))
		return HANGDX_OK;
	if (prefixed) {
		p = r->lastp;
		if (p.level == HX_LV_INFO || p.level == HX_LV_DEBUG ||
		    p.level == HX_LV_TRACE || p.level == HX_LV_EVENT)
			return HANGDX_OK;
		mod = p.modlen != 4 ? HX_VM_ANY :
		      memcmp(p.mod, "HCCL", 4) == 0 ? HX_VM_HCCL :
		      memcmp(p.mod, "HCCP", 4) == 0 ||
		      memcmp(p.mod, "ROCE", 4) == 0 ? HX_VM_HCCP : HX_VM_ANY;
		tsch = p.modlen == 4 && memcmp(p.mod, "TSCH", 4) == 0;
	}
	m = prefixed ? p.body : s;
	mn = prefixed ? p.bodylen : n;
	if (mn >= 8 && (m[0] == ' ' || m[0] == 'F') && frame_line(r, m, mn))
		return error_frame(r, prefixed ? &p : NULL, m, mn);
	if (mn && (m[0] == '*' || r->aicerr) &&
	    (lv = aicerr_report(r, m, mn)) != NOT_MINE)
		return lv;
	lv = open_level(r, s, n, &p, prefixed);
	/* a wait that timed out at warning level is retried ("has timed
	 * out, will retry") or may still clear (torch_npu's "dispatch
	 * timeout", a row of class wait_timeout); the same file saying so
	 * again is a wait that keeps running out */
	if (lv == HX_LV_WARNING && mn >= 8 &&
	    (HAS(m, mn, "timed out") || HAS(m, mn, "Timed out") ||
	     (HAS(m, mn, "timeout") && (row = open_row(m, mn, HX_VM_ANY)) &&
	      row->cls == HX_VC_WAIT_TIMEOUT)) &&
	    r->warn_timeouts++ == 1)
		return open_record(r, HX_K_TIMEOUT_TEXT, prefixed ? &p : NULL,
				   m, mn, open_row(m, mn, HX_VM_ANY), NULL);
	/* a warning that a task failed with a device exception's code (the
	 * runtime's exception callback, "exception_cb ... failed:500002"):
	 * an exception is not retried */
	if (lv == HX_LV_WARNING && mn >= 8 && HAS(m, mn, "failed") &&
	    (row = open_row(m, mn, HX_VM_ANY)) && row->cls == HX_VC_DEVICE_EXCEPTION)
		return open_record(r, HX_K_CODED, prefixed ? &p : NULL, m, mn,
				   row, NULL);
	if (mn < 8 || lv == HX_LV_INFO || lv == HX_LV_DEBUG ||
	    lv == HX_LV_TRACE || lv == HX_LV_EVENT || lv == HX_LV_WARNING ||
	    advice(m, mn) || no_words(m, mn, prefixed) || heading(m, mn) ||
	    (lv != HX_LV_ERROR && lv != HX_LV_CRITICAL &&
	     (intro(m, mn) || zero_tally(m, mn))))
		return HANGDX_OK;
	a = field_anchors(m, mn);
	/* a Python traceback's first line: an exception was raised (its
	 * last line, when the paste holds it, says which) */
	err = lv == HX_LV_ERROR || lv == HX_LV_CRITICAL || error_words(m, mn, a) ||
	      hx_traceback_head(m, mn);
	/* an error line that says it was none ("Client reconnect 2 times to
	 * success, so the above or this error log can be ignored", SGLang's
	 * "The following error message '...' can be ignored."; HCCL's banner
	 * "---- THE ABOVE AND THIS ERROR LOG CAN BE IGNORED. ----" is a
	 * border's line, no_words) */
	if (err && (a & A_ERROR) && HAS(m, mn, "can be ignored"))
		return HANGDX_OK;
	/* MindSpore's dump of a failed task names its node: a data queue's
	 * GetNext waits for the dataset ("Dump node (Default/GetNext-op18)
	 * task error ...", then its own hint "GetNext error may be caused by
	 * slow data processing (bigger than 20s / batch)"): its wait ran out */
	if (err && HAS(m, mn, "Dump node (") && HAS(m, mn, "GetNext") &&
	    HAS(m, mn, ") task error"))
		return open_record(r, HX_K_AICPU_OP_TIMEOUT, prefixed ? &p : NULL,
				   m, mn, NULL, "getnext");
	row = open_row(m, mn, mod);
	if (!row && mn > 9 && memcmp(m, "[Error]: ", 9) == 0)
		row = error_message_row(m + 9, mn - 9);
	/* a code of another class on a line that says its wait ran out
	 * (HCCL's "errNo[0x...5000004] waiting Callback Thread time out"):
	 * the code is the caller's catch-all, the words say what happened */
	if (row && row->cls != HX_VC_UNKNOWN && (err || row->family ==
						  HX_VF_FRAMEWORK))
		return open_record(r, row->cls == HX_VC_WAIT_TIMEOUT ||
				   (err && said_timeout(m, mn, a))
				   ? HX_K_TIMEOUT_TEXT : HX_K_CODED,
				   prefixed ? &p : NULL, m, mn, row, NULL);
	/* a line of an error-manager block ("EI9999: Inner Error!" and the
	 * lines under it) is the error's own text: a timeout it names ran
	 * out; so is the line right under an error line ("PTO2 runtime
	 * failed: ...", then "PTO2 scheduler timeout ...") */
	if (((timeout_words(m, mn) ||
	      ((a & A_TIMEOUT) && (err || r->curblk ||
				   (r->open_line && r->open_line + 1 == r->line)) &&
	       timeout_word(m, mn))) && !timeout_setting(m, mn)) ||
	    (tsch && err && handler_timeout(m, mn)) ||
	    /* a watchdog that fired (SGLang's scheduler) */
	    ((a & A_WATCHDOG) && HAS(m, mn, "atchdog timeout")))
		return open_record(r, HX_K_TIMEOUT_TEXT, prefixed ? &p : NULL,
				   m, mn, row, NULL);
	if (hx_device_exception_words(m, mn) ||
	    (err && (hardware_fault_words(m, mn) || aicore_kernel_failed(m, mn))))
		return open_class(r, prefixed ? &p : NULL, m, mn,
				  hx_vocab_class_id(HX_VC_DEVICE_EXCEPTION));
	if (err && (HAS(m, mn, "out of memory") || HAS(m, mn, "Out of memory") ||
		    HAS(m, mn, "OUT OF MEMORY") || memory_short(m, mn)))
		return open_class(r, prefixed ? &p : NULL, m, mn,
				  hx_vocab_class_id(HX_VC_RESOURCE));
	/* under an error-manager code, its text that says a feature is not
	 * supported ("EE9999 get device msg feature can not support ...");
	 * but a framework's message whose row holds those words itself
	 * ("Invalid size for the timeout rank ID") is what its row says */
	if ((err && parameter_words(m, mn) &&
	     !(row && row->family == HX_VF_FRAMEWORK &&
	       parameter_words(row->key, row->keylen))) || (a & A_INVOKED) ||
	    (r->curblk && HAS(m, mn, "not support")) ||
	    ((err || (a & A_MISSING)) && missing_words(m, mn, err)))
		return open_class(r, prefixed ? &p : NULL, m, mn,
				  hx_vocab_class_id(HX_VC_PARAMETER));
	if (r->ended && HAS(m, mn, "main process disappeared"))
		return HANGDX_OK;       /* the TBE workers' echo of that end */
	/* an exception whose own text says its cause is elsewhere (a row of
	 * class unknown: "The Inner error is reported as above") keeps the row */
	if (exited_words(m, mn) || (err && exit_status(m, mn)))
		return open_record(r, HX_K_CODED, prefixed ? &p : NULL, m, mn,
				   row && row->cls == HX_VC_UNKNOWN &&
				   row->family == HX_VF_FRAMEWORK ? row : NULL, "exited");
	if (err)
		return open_record(r, HX_K_UNKNOWN_ERROR, prefixed ? &p : NULL,
				   m, mn, row, NULL);
	return HANGDX_OK;
}

/* The count of open-world lines past the ones kept, at a file's end. */
static int open_tail(struct hx_reader *r)
{
	struct hx_recb b;

	if (!r->open_more)
		return HANGDX_OK;
	rb_start(r, &b, HX_K_UNKNOWN_ERROR, NULL);
	b.rec.level = HX_LV_ERROR;
	hx_rb_num(&b, HX_F_REPEATS, (int64_t)r->open_more);
	r->open_more = 0;
	return emit(r, &b);
}

/* HCCL's run line of a communicator destroyed: the job ended normally
 * (one record a file is enough to say so). */
static int normal_end(struct hx_reader *r, const struct hx_prefix *p)
{
	const char *s = p->body, *v;
	size_t n = p->bodylen, vl;
	struct hx_recb b;

	if (r->ended)
		return HANGDX_OK;
	r->ended = true;
	rb_start(r, &b, HX_K_NORMAL_END, p);
	put_lit(&b, HX_F_WHAT, "comm_destroy");
	if (hx_after(s, n, "group[", "]", &v, &vl) ||
	    hx_after(s, n, "group [", "]", &v, &vl))
		hx_rb_str(&b, HX_F_GROUP, v, vl);
	return emit(r, &b);
}
