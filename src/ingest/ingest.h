/*
 * ingest.h - internals of log ingest, the front half of `diagnose`:
 * bytes -> lines (reader.c) -> prefix and key/value fields (line.c) ->
 * typed evidence records (families.c) -> a mergeable evidence store with
 * attribution and summaries (evidence.c, attrib.c, write.c, load.c).
 *
 * Ownership: an evidence owns its interned strings, records and field
 * array; records refer to strings by interned id (HX_NOSTR = none) and to
 * their fields by index, so an evidence can be merged, sorted and written
 * without pointers into it going stale.  Every vector has a ceiling.
 * Format reference: ../shared/docs/log-formats.md; record kinds and the
 * JSON Lines schema: docs/EVIDENCE.md.
 */
#ifndef HX_INGEST_H
#define HX_INGEST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "../core/core.h"

#define HX_NOSTR UINT32_MAX
#define HX_NONE INT64_MIN           /* absent number (pid, tid, ts) */
#define HX_QUOTE_MAX 160            /* bytes of a message a record keeps
				       (its text field); a longer one is cut */

/* ---- record kinds: one per hang-relevant message family ---- */
#define HX_KIND_MAP(XX)                                                \
	XX(COMM_INIT, "comm_init")                                     \
	XX(HCCL_TASK_FAIL, "hccl_task_fail")                           \
	XX(EI0002, "ei0002")                                           \
	XX(ERR_CODE, "err_code")                                       \
	XX(RT_TIMEOUT, "rt_timeout")                                   \
	XX(RT_STUCK_NOTIFY, "rt_stuck_notify")                         \
	XX(RT_TASK_FAIL, "rt_task_fail")                               \
	XX(RT_API_ERROR, "rt_api_error")                               \
	XX(AICPU_EXCEPTION, "aicpu_exception")                         \
	XX(AICPU_TRAIL, "aicpu_trail")                                 \
	XX(FFTS_TRAIL, "ffts_trail")                                   \
	XX(AICPU_SQCQ, "aicpu_sqcq")                                   \
	XX(AICPU_OP_TIMEOUT, "aicpu_op_timeout")                       \
	XX(AICPU_KERNEL_FAIL, "aicpu_kernel_fail")                     \
	XX(TSCH_TIMEOUT, "tsch_timeout")                               \
	XX(TSCH_STREAM, "tsch_stream")                                 \
	XX(TSCH_SQE, "tsch_sqe")                                       \
	XX(HEARTBEAT, "heartbeat")                                     \
	XX(CLUSTER_EXCEPTION, "cluster_exception")                     \
	XX(CQE_ERROR, "cqe_error")                                     \
	XX(OP_RETRY, "op_retry")                                       \
	XX(ENV, "env")                                                 \
	XX(LINK_ERROR, "link_error")                                   \
	XX(FRAMEWORK_ERROR, "framework_error")                         \
	XX(WATCHDOG, "watchdog")                                       \
	XX(TS_EXCEPTION, "ts_exception")                               \
	XX(AICPU_KERNEL, "aicpu_kernel")                               \
	XX(AICPU_COMM, "aicpu_comm")                                   \
	XX(AICPU_TASK, "aicpu_task")                                   \
	XX(COLLECTIVE_TIMEOUT, "collective_timeout")                   \
	XX(STALL, "stall")                                             \
	XX(FAILURE, "failure")                                         \
	XX(NORMAL_END, "normal_end")                                   \
	XX(TIMEOUT_TEXT, "timeout_text")                               \
	XX(UNKNOWN_ERROR, "unknown_error")                             \
	XX(CODED, "coded")

enum hx_kind {
#define HX_KIND_ENUM(name, text) HX_K_##name,
	HX_KIND_MAP(HX_KIND_ENUM)
#undef HX_KIND_ENUM
	HX_K_COUNT
};
/* A record the reader took back (a status line another made stale); it
 * goes at the next hx_ev_sweep and is never seen past the reader. */
#define HX_K_DEAD 0xffu

/* ---- typed fields of a record ---- */
enum hx_ftype {
	HX_T_U64,   /* unsigned decimal */
	HX_T_I64,   /* signed decimal */
	HX_T_HEX,   /* 64-bit id printed as "0x%016llx" (HCCL notify id) */
	HX_T_ADDR,  /* address printed as "0x%llx" */
	HX_T_STR,   /* interned string */
	HX_T_RANK,  /* rank: number, -1 for "no peer"; raw text kept if not a plain rank */
	HX_T_TS     /* microseconds since 1970, naive local time */
};

/* name, JSON key, type.  Notify ids are kept per layer. */
#define HX_FIELD_MAP(XX)                                               \
	XX(WHAT, "what", STR)                                          \
	XX(CODE, "code", STR)                                          \
	XX(GEN, "gen", U64)                                            \
	XX(EM_GEN, "em_gen", U64)                                      \
	XX(EXEC_STAGE, "exec_stage", STR)                              \
	XX(FAIL_KIND, "fail_kind", STR)                                \
	XX(EXP_MODE, "exp_mode", STR)                                  \
	XX(PARTS, "parts", STR)                                        \
	XX(STREAM, "stream", U64)                                      \
	XX(STREAM_BASE, "stream_base", U64)                            \
	XX(TASK, "task", U64)                                          \
	XX(FLIP, "flip_num", U64)                                      \
	XX(SQ, "sq", U64)                                              \
	XX(CQ, "cq", U64)                                              \
	XX(HEAD, "head", U64)                                          \
	XX(TAIL, "tail", U64)                                          \
	XX(WAIT_HEAD, "wait_head", U64)                                \
	XX(POS, "pos", U64)                                            \
	XX(NOTIFY_HCCL, "notify_hccl", HEX)                            \
	XX(NOTIFY_RT, "notify_rt", U64)                                \
	XX(NOTIFY_AICPU, "notify_aicpu", U64)                          \
	XX(EVENT, "event", U64)                                        \
	XX(EVENT_FLAG, "event_flag", STR)                              \
	XX(CONTEXT, "context_id", U64)                                 \
	XX(THREAD_ID, "thread_id", U64)                                \
	XX(STUCK_NUM, "stuck_notify_num", U64)                         \
	XX(IDX, "idx", U64)                                            \
	XX(DEVICE_ID, "device_id", I64)                                \
	XX(PHY_DEVICE, "phy_device", I64)                              \
	XX(REMOTE_DEVICE, "remote_device", I64)                        \
	XX(CHIP, "chip", I64)                                          \
	XX(DIE, "die", I64)                                            \
	XX(SQCQ_DEV, "sqcq_dev", I64)                                  \
	XX(LOCAL_RANK, "local_rank", RANK)                             \
	XX(REMOTE_RANK, "remote_rank", RANK)                           \
	XX(REMOTE_RANK_ALT, "remote_rank_alt", RANK)                 \
	XX(RANK_SIZE, "rank_size", U64)                                \
	XX(ROOT, "root", RANK)                                         \
	XX(GLOBAL_RANK, "global_rank", RANK)                           \
	XX(GROUP, "group", STR)                                        \
	XX(COMM_ID, "comm_id", STR)                                    \
	XX(USER_DEFINE, "user_define", STR)                            \
	XX(TAG, "tag", STR)                                            \
	XX(OP, "op", STR)                                              \
	XX(INDEX, "index", U64)                                        \
	XX(ALG, "alg", STR)                                            \
	XX(TASK_TYPE, "task_type", STR)                                \
	XX(TYPE, "type", STR)                                          \
	XX(STAGE, "stage", STR)                                        \
	XX(LINK_TYPE, "link_type", STR)                                \
	XX(SRC_ADDR, "src_addr", ADDR)                                      \
	XX(DST_ADDR, "dst_addr", ADDR)                                      \
	XX(ADDR1, "addr1", ADDR)                                       \
	XX(ADDR2, "addr2", ADDR)                                       \
	XX(SIZE, "size", U64)                                          \
	XX(COUNT, "count", U64)                                        \
	XX(DATA_TYPE, "data_type", STR)                                \
	XX(OP_TYPE, "op_type", STR)                                    \
	XX(REDUCE_TYPE, "reduce_type", STR)                            \
	XX(OP_TS, "op_ts", TS)                                         \
	XX(OP_NAME, "op_name", STR)                                    \
	XX(SEQ_NUM, "seq_num", U64)                                    \
	XX(TIMEOUT_MS, "timeout_ms", U64)                              \
	XX(TIMEOUT_RAW, "timeout_raw", STR)                            \
	XX(ELAPSED_MS, "elapsed_ms", U64)                              \
	XX(SERIAL, "serial", U64)                                      \
	XX(SQE_TYPE, "sqe_type", U64)                                  \
	XX(SQE_NAME, "sqe_name", STR)                                  \
	XX(ERR_TYPE, "err_type", STR)                                  \
	XX(ERR_DESC, "err_desc", STR)                                  \
	XX(RET_CODE, "ret_code", STR)                                  \
	XX(INNER_CODE, "inner_code", STR)                              \
	XX(SQ_STATUS, "sq_status", STR)                                \
	XX(SQ_PID, "sq_pid", I64)                                      \
	XX(WAIT_TIME, "wait_time", U64)                                \
	XX(CORE, "core", U64)                                          \
	XX(CORES, "cores", U64)                                        \
	XX(BUSY, "busy", U64)                                          \
	XX(TOTAL, "total", U64)                                        \
	XX(MAIN_STREAM, "main_stream", U64)                            \
	XX(KERNEL_TYPE, "kernel_type", U64)                            \
	XX(STATUS, "status", STR)                                      \
	XX(LOCAL, "local", STR)                                        \
	XX(CRIMER, "crimer", STR)                                      \
	XX(INFORMER, "informer", STR)                                  \
	XX(LOCATION, "location", STR)                                  \
	XX(DISCOVERER, "discoverer", STR)                              \
	XX(ARRIVAL, "arrival", STR)                                    \
	XX(SERVER, "server", STR)                                      \
	XX(DEVICE_IP, "device_ip", STR)                                \
	XX(REMOTE_SERVER, "remote_server", STR)                        \
	XX(REMOTE_IP, "remote_ip", STR)                                \
	XX(ROLE, "role", STR)                                          \
	XX(NAME, "name", STR)                                          \
	XX(VALUE, "value", STR)                                        \
	XX(SOURCE, "source", STR)                                      \
	XX(RESULT, "result", STR)                                      \
	XX(SIDE, "side", STR)                                          \
	XX(CUR_STATE, "cur_state", STR)                                \
	XX(NEXT_STATE, "next_state", STR)                              \
	XX(RETRY_CNT, "retry_cnt", U64)                                \
	XX(TRAIL, "trail", STR)                                        \
	XX(TRAIL_LEN, "trail_len", U64)                                \
	XX(PARENT_LINE, "parent_line", U64)                            \
	XX(REPEATS, "repeats", U64)                                    \
	XX(FOLDED_RUNS, "folded_runs", U64)                            \
	XX(TEXT, "text", STR)                                          \
	XX(CONSOLE_RANK, "console_rank", RANK)                         \
	XX(WORKER, "worker", STR)                                      \
	XX(CONSOLE_PID, "console_pid", I64)                            \
	XX(CONSOLE_NODE, "console_node", STR)                          \
	XX(RANK_LIST, "rank_list", STR)                                \
	XX(RANK_LIST_CUT, "rank_list_cut", U64)                        \
	XX(VLINE, "vline", U64)                                        \
	XX(MOVED_WAIT, "moved_wait_us", U64)                           \
	XX(FRAME, "frame", STR)                                        \
	XX(SILENCE, "silence_s", U64)

enum hx_field_key {
#define HX_FIELD_ENUM(name, json, type) HX_F_##name,
	HX_FIELD_MAP(HX_FIELD_ENUM)
#undef HX_FIELD_ENUM
	HX_F__N
};

struct hx_field {
	uint16_t key;       /* enum hx_field_key */
	uint16_t pad;
	uint32_t str;       /* STR value, RANK raw text, or HX_NOSTR */
	int64_t num;        /* numeric value */
};

/* Line levels, in the order of the format reference. */
enum hx_lvl {
	HX_LV_NONE, HX_LV_ERROR, HX_LV_WARNING, HX_LV_INFO, HX_LV_DEBUG,
	HX_LV_EVENT, HX_LV_TRACE, HX_LV_CRITICAL, HX_LV_COUNT
};
const char *hx_lvl_name(int lvl);

/* One piece of evidence, with its source and its line prefix. */
struct hx_rec {
	uint32_t file;      /* interned path of the input, as given */
	uint32_t vpath;     /* path used for attribution (grep prefix, "# file:") */
	uint64_t line;      /* 1-based */
	uint64_t off;       /* byte offset of the line in the (decompressed) input */
	int64_t ts;         /* microseconds, HX_NONE if absent */
	int64_t pid, tid;   /* HX_NONE if absent */
	uint32_t module, pname, src;   /* interned or HX_NOSTR */
	uint32_t ffirst;    /* index of the first field in the evidence */
	uint16_t nfield;
	uint8_t kind;       /* enum hx_kind */
	uint8_t level;      /* enum hx_lvl */
	uint16_t sub;       /* order among records of the same line */
};

/* Why a line (too_long, nul_bytes), a file (binary_file, unreadable,
 * truncated, size_limit: files read in part or not at all) or a record
 * (record_limit) was skipped. */
#define HX_SKIP_MAP(XX)                                                \
	XX(TOO_LONG, "too_long")                                       \
	XX(NUL, "nul_bytes")                                           \
	XX(BINARY, "binary_file")                                      \
	XX(UNREADABLE, "unreadable")                                   \
	XX(TRUNCATED, "truncated")                                     \
	XX(LIMIT, "size_limit")                                        \
	XX(RECORDS, "record_limit")

enum hx_skip {
#define HX_SKIP_ENUM(name, text) HX_S_##name,
	HX_SKIP_MAP(HX_SKIP_ENUM)
#undef HX_SKIP_ENUM
	HX_S_COUNT
};
const char *hx_skip_name(int reason);

/* Per-input summary: what a file held and how far its writer got. */
enum hx_fstatus { HX_FS_OK, HX_FS_EMPTY, HX_FS_BINARY, HX_FS_UNREADABLE,
		  HX_FS_TRUNCATED, HX_FS_LIMIT };

struct hx_filesum {
	uint32_t path;      /* interned display path */
	uint8_t status;     /* enum hx_fstatus */
	uint8_t loaded;     /* from saved evidence (--evidence), not read */
	uint64_t bytes, lines, records, errors, skipped;
	int64_t first_ts, last_ts;  /* of lines with a plog prefix */
	int64_t pid;        /* of the first prefixed line */
	uint64_t cut_line;  /* the last line, when no newline ended it; 0 */
	uint64_t kept;      /* with rec_cut: the records of the file a record
			       ceiling left (the first ones, in line order) */
	bool rec_cut;       /* a record ceiling cut the file's records */
};

struct hx_counts {
	uint64_t inputs, files, archives, bytes, lines, candidates, records;
	uint64_t files_skipped, dup_records;
	uint64_t skipped[HX_S_COUNT];
};

/* A record ceiling shared by the evidences of concurrent readers. */
struct hx_budget {
	atomic_size_t used;
	size_t max;
	atomic_bool warned;     /* the ceiling was reported once */
	atomic_size_t empty;    /* empty files met; the first HX_EMPTY_NOTED noted */
};

#define HX_EMPTY_NOTED 8

struct hangdx_evidence {
	struct hangdx_ctx *ctx;
	struct hx_budget *budget;   /* NULL: maxrec alone */
	struct hx_intern strs;
	struct hx_rec *recs;
	size_t nrec, caprec, maxrec;
	struct hx_field *fields;
	size_t nfield, capfield;
	struct hx_filesum *files;
	size_t nfile, capfile;
	struct hx_counts c;
	bool limit_warned;
	uint32_t *roots;            /* the paths the user gave (attrib.c) */
	size_t nroots, caproots;
	struct hx_map rootset;      /* root string id -> index in roots */
#define HX_MAX_ROOTS ((size_t)1 << 24)
	struct hx_map tagset;       /* node tags "NODE:" (string ids) */
};

/* ---- evidence store (evidence.c) ---- */
uint32_t hx_ev_intern(struct hangdx_evidence *ev, const char *s, size_t n,
		      int *err);
const char *hx_ev_str(const struct hangdx_evidence *ev, uint32_t id);
int hx_ev_add_file(struct hangdx_evidence *ev, const struct hx_filesum *fs);
/* The field key of record r, or NULL (inline: the analysis asks for a
 * few fields of every record). */
static inline const struct hx_field *hx_rec_field(const struct hangdx_evidence *ev,
						  const struct hx_rec *r, int key)
{
	const struct hx_field *f, *end;

	if (!r->nfield)         /* no fields: ev->fields may be NULL */
		return NULL;
	for (f = ev->fields + r->ffirst, end = f + r->nfield; f < end; f++)
		if (f->key == key)
			return f;
	return NULL;
}
const char *hx_kind_name(int kind);
int hx_kind_from_name(const char *s, size_t n);
const char *hx_field_name(int key);
int hx_field_type(int key);
int hx_field_from_name(const char *s, size_t n);

/* Record builder: fields are interned as they are added. */
#define HX_MAX_FIELDS 64
#define HX_KRUN_SLOTS 64
#define HX_HELD_PER_SLOT 8          /* lines of one held kernel run */
#define HX_HELD_LINE 1024

/* A log line held back unparsed (families.c: healthy kernel runs). */
struct hx_rawline {
	uint64_t line, off;
	uint32_t vpath;             /* the reader's vpath and vline then */
	uint64_t vline;
	size_t len;
	char s[HX_HELD_LINE];
};
struct hx_recb {
	struct hangdx_evidence *ev;
	struct hx_rec rec;
	struct hx_field f[HX_MAX_FIELDS];
	size_t n;
	int err;            /* first error, sticky */
};

void hx_rb_init(struct hx_recb *b, struct hangdx_evidence *ev, int kind);
void hx_rb_num(struct hx_recb *b, int key, int64_t v);
void hx_rb_str(struct hx_recb *b, int key, const char *s, size_t n);
void hx_rb_rank(struct hx_recb *b, int key, const char *s, size_t n);
bool hx_rb_has(const struct hx_recb *b, int key);
int hx_rb_commit(struct hx_recb *b);
/* Room for nrec more records and nfield more fields (a hint, cut at the
 * record ceiling, 4 M records and 8 fields a record): one allocation
 * instead of a chain of doublings. */
int hx_ev_reserve(struct hangdx_evidence *ev, size_t nrec, size_t nfield);

/* A copy of src whose string ids, records, fields and files are src's
 * own (a reading stopped before its end is ended on the copy: reader.c). */
int hx_ev_clone(const struct hangdx_evidence *src,
		struct hangdx_evidence **out);

/* hangdx_evidence_merge with a choice: only the records of src with
 * keep_rec[i] set and the files with keep_file[i] set (NULL: all); a file
 * left out counts as one dst already holds. */
int hx_ev_merge_sel(struct hangdx_evidence *dst,
		    const struct hangdx_evidence *src, const uint8_t *keep_rec,
		    const uint8_t *keep_file);

/* Take the files src_files holds (by path) out of ev, with their records,
 * in place: what a full reading of those files then replaces. */
int hx_ev_drop_files(struct hangdx_evidence *ev,
		     const struct hangdx_evidence *src_files);

/* Take the files named (and their records) out of ev, in place. */
int hx_ev_drop_named(struct hangdx_evidence *ev, const char *const *paths,
		     size_t n);
/* Of each file named, keep its first keep[i] records only (in place):
 * the ones a record ceiling left when the file was read elsewhere; the
 * rest count as records not kept. */
int hx_ev_keep_first(struct hangdx_evidence *ev, const char *const *paths,
		     const uint64_t *keep, size_t n);
/* Two summaries of one path tell the same content (bytes, lines, first
 * and last time). */
bool hx_filesum_same(const struct hx_filesum *a, const struct hx_filesum *b);

/* The records of ev from index `from` on whose kind is HX_K_DEAD go, in
 * place, with their fields (which lie in record order from there);
 * *refs[i] (record indices, or SIZE_MAX) follow their records.  The
 * number of records gone. */
size_t hx_ev_sweep(struct hangdx_evidence *ev, size_t from,
		   size_t *const *refs, size_t nref);

/* Where ev ends: what was appended after it can be looked at, or taken
 * back (hx_ev_drop_dups_since). */
struct hx_ev_mark {
	size_t nrec, nfield, nfile;
};
void hx_ev_mark(const struct hangdx_evidence *ev, struct hx_ev_mark *m);

/* The files appended since m that ev held before m (same path) go, with
 * their records and counts: the first copy of a file wins, as in
 * hangdx_evidence_merge. */
int hx_ev_drop_dups_since(struct hangdx_evidence *ev, const struct hx_ev_mark *m);

/*
 * Node tags: a file read on another node is keyed "NODE:path", so the
 * same local path on two nodes names two files (and the same pid two
 * processes).  hx_ev_add_tag registers "NODE:"; hx_ev_tag_len is the
 * length of the registered tag path begins with (0: none).  hx_ev_retag
 * puts tag before every path of ev (records, files, roots) and of the
 * nextra string ids given; map (when asked) is old id -> new id for the
 * ids that existed before.
 */
#define HX_MAX_TAG 128
int hx_ev_add_tag(struct hangdx_evidence *ev, const char *tag);
size_t hx_ev_tag_len(const struct hangdx_evidence *ev, const char *path);
int hx_ev_retag(struct hangdx_evidence *ev, const char *tag,
		const uint32_t *extra, size_t nextra, uint32_t **map);
/* A file of src held by dst under the same path (src's with tag before
 * it) with other content (bytes, lines, records or times differ): its
 * path in dst, else NULL. */
const char *hx_ev_clash(const struct hangdx_evidence *dst,
			const struct hangdx_evidence *src, const char *tag,
			int *err);

/* ---- reading JSON Lines back (load.c) ---- */
/* One flat JSON object of a line; lines without "kind" go to the hook
 * (facts lines), which returns an error code to stop. */
struct hx_jobj;
typedef int hx_jhook(void *ud, const struct hx_jobj *o, const char *file,
		     unsigned long line);
bool hx_jstr(const struct hx_jobj *o, const char *key, const char **s,
	     size_t *n);
bool hx_jint(const struct hx_jobj *o, const char *key, int64_t *num);
/* Load fp (named name) into ev; HANGDX_EPARSE at the end if a line was
 * malformed. */
int hx_ev_load_fp(struct hangdx_evidence *ev, const char *name, FILE *fp,
		  hx_jhook *hook, void *ud);
#define HX_EV_FILES HANGDX_EV_FILES
/* Records delta-coded (write.c record_delta), for facts; a loader reads
 * them after its hook returned HX_JHOOK_DELTA. */
#define HX_EV_DELTA 0x100u
#define HX_JHOOK_DELTA (-2)

/* Sorted view used by the writers: records in (file, line, sub) order,
 * duplicates (same file, line, sub, kind) removed. */
int hx_ev_sorted(const struct hangdx_evidence *ev, uint32_t **order,
		 size_t *n);

/* ---- attribution (attrib.c) ---- */
struct hx_pathattr {
	int64_t rank, device, pid;      /* -1 if unknown */
	char node[64];                  /* "" if unknown */
	bool device_log;                /* under device-N/ or named device-* */
};
void hx_path_attr(const char *path, struct hx_pathattr *pa);
/* Only what lies below the first skip bytes (the input root) counts. */
void hx_path_attr_below(const char *path, size_t skip, struct hx_pathattr *pa);
/* The inputs as given: directories above them name no rank. */
int hx_ev_add_root(struct hangdx_evidence *ev, const char *path);
size_t hx_ev_root_len(const struct hangdx_evidence *ev, uint32_t path);

struct hx_attr {
	int64_t rank, device;           /* -1 unknown */
	int64_t pid;                    /* the process (file name, else line), -1 */
	const char *node;               /* NULL unknown */
	const char *rank_from, *device_from;  /* "path", "console", "record", "init",
						 "name", "ambiguous" or NULL */
};
struct hx_attrib;
int hx_attrib_build(const struct hangdx_evidence *ev, struct hx_attrib **out);
void hx_attrib_rec(struct hx_attrib *at, const struct hx_rec *r,
		   struct hx_attr *a);
void hx_attrib_free(const struct hangdx_evidence *ev, struct hx_attrib *at);
/* Processes in more communicators than the guard HX_MAX_GROUPS_PER_PROC:
 * how many, how many memberships went, and the first of them. */
struct hx_attrib_cut {
	size_t procs, dropped;
	char node[64];
	int64_t pid;
	size_t groups;          /* the first one's communicators */
	uint32_t drop_first, drop_last;  /* the first one's dropped, by
					    identifier (interned, the order
					    the logs name them): lowest, highest */
};
const struct hx_attrib_cut *hx_attrib_groups_cut(const struct hx_attrib *at);
/* The name a communicator's creation gave it (its failure lines use),
 * for any of its names (root info identifier, group name); a name with
 * no other, itself. */
uint32_t hx_attrib_canon(const struct hx_attrib *at, uint32_t group);
/* The global rank of communicator rank crank in group (HX_NOSTR: no group
 * named): itself in a world group, else through the group's creation
 * lines; -1 unknown, -2 claimed twice. */
int64_t hx_attrib_global(const struct hx_attrib *at, uint32_t group,
			 int64_t crank);
/* The same, only through what the logs say of that group: its members
 * (creation lines), or its being a world group; -1 for a group no
 * creation line names or for no group, where hx_attrib_global takes
 * the communicator rank for global when no sub-group is known. */
int64_t hx_attrib_global_known(const struct hx_attrib *at, uint32_t group,
			       int64_t crank);
/* The ranks of the job: the largest communicator seen (0 unknown). */
int64_t hx_attrib_job_size(const struct hx_attrib *at);
/* The path attributes of a record's vpath (NULL if no record has it). */
const struct hx_pathattr *hx_attrib_vpath(const struct hx_attrib *at,
					  uint32_t id);

/* ---- line level (line.c) ---- */
struct hx_prefix {
	int level;                      /* enum hx_lvl */
	const char *mod, *pname, *src, *gpath, *body;
	size_t modlen, pnamelen, srclen, gpathlen, bodylen;
	int64_t pid, tid, ts;           /* HX_NONE if absent */
	int64_t gline;                  /* line number of a grep prefix, HX_NONE */
	int form;                       /* HX_PF_* */
};
enum { HX_PF_NONE, HX_PF_PLOG, HX_PF_TSCH, HX_PF_WATCHDOG };

/* Parse the plog prefix of one line (no newline).  Returns true and fills
 * p when the line has one; p->body is then the message text. */
bool hx_parse_prefix(const char *s, size_t n, struct hx_prefix *p);
/* "2025-10-24-11:18:29.499.235" -> microseconds, or HX_NONE. */
int64_t hx_parse_ts(const char *s, size_t n);
/* Format microseconds as "2025-10-24T11:18:29.499235". */
void hx_format_ts(int64_t us, char out[32]);

/*
 * The console envelope: what launchers and pastes put before the message
 * a process printed.  hx_parse_envelope returns the number of bytes before
 * the message text (0: none); the text after them is what the pre-filter
 * and the families see, so a console line matches like a plog line.  The
 * attribution stays in e: pointers into the line, valid while it is.
 */
enum {
	HX_EV_RANK = 1u << 0,       /* "[rank3]:" torchrun: global rank */
	HX_EV_MPI = 1u << 1,        /* "[1,3]<stderr>:" Open MPI: global rank */
	HX_EV_WORKER = 1u << 2,     /* "(VllmWorker TP1 pid=961)", "[Name pid=N]" */
	HX_EV_NODE = 1u << 3,       /* "worker-1: ", "10.0.0.1: " (pdsh) */
	HX_EV_COMPOSE = 1u << 4,    /* "service   | " docker compose */
	HX_EV_GREP = 1u << 5,       /* "path:N:", "path-N-", "path:", "N:" */
	HX_EV_LOGGER = 1u << 6,     /* "ERROR 03-25 06:14:02 [file.py:880] " */
	HX_EV_INDENT = 1u << 7,     /* blanks before a prefix */
	HX_EV_QUOTE = 1u << 8,      /* "> " a pasted Markdown quote, "- " a
				     * list item, "`" a line quoted as code */
	HX_EV_LABEL = 1u << 9,      /* "[default0]:", "[TP0] ", srun's "0: " */
	HX_EV_KUBE = 1u << 10,      /* "[pod/P/C] ", "2025-01-01T00:00:08.1Z " */
	HX_EV_SRUN = 1u << 11       /* srun's "0: " (with HX_EV_LABEL) */
};

struct hx_envelope {
	size_t skip;                /* bytes before the message text */
	size_t first;               /* bytes of the outermost element */
	unsigned forms;             /* HX_EV_* seen */
	int64_t rank;               /* global rank, -1 unknown */
	int64_t pid;                /* the launcher's pid, HX_NONE */
	const char *worker, *node, *gpath;  /* innermost worker name or
					     * compose service; node (pdsh
					     * host, Ray ip=); grep path */
	size_t workerlen, nodelen, gpathlen;
	int64_t gline;              /* the line number grep printed, HX_NONE
				     * (set with HX_EV_GREP only) */
	int level;                  /* from the logger prefix, HX_LV_NONE */
	bool srun_indent;           /* in, kept: srun's label may come before
				     * a line's own blanks (the caller saw a
				     * label before text in the same file);
				     * else "4:    text" is grep -n's */
};
size_t hx_parse_envelope(const char *s, size_t n, struct hx_envelope *e);

/* A byte of a name: a letter, a digit or '_' (ASCII only). */
static inline bool hx_name_byte(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* The clock a console line starts with, within its first 96 bytes (a
 * logger's "INFO 05-19 14:27:19", "2025-09-29 07:27:30", glog's
 * "I0612 10:00:01", a plog's "2025-01-31-08:23:58"): seconds of the day,
 * plus the day's index (month * 31 + day, with the year before it when
 * there is one) * 86400.  *dated is 0 without a date, 1 with a day and
 * month, 2 with the year too: clocks compare only at the same *dated.
 * False when the line has none. */
bool hx_line_clock(const char *s, size_t n, int64_t *clk, int *dated);

/* Python's "Traceback (most recent call last):" at the start of s: an
 * exception was raised (its last line says which). */
static inline bool hx_traceback_head(const char *s, size_t n)
{
	static const char tb[] = "Traceback (most recent call last):";

	return n >= sizeof tb - 1 && s[0] == 'T' && memcmp(s, tb, sizeof tb - 1) == 0;
}

/* Python's lines between two tracebacks of one chain ("The above
 * exception was the direct cause of the following exception:", "During
 * handling of the above exception, another exception occurred:"): no
 * error of their own. */
static inline bool hx_traceback_link(const char *s, size_t n)
{
	static const char a[] = "The above exception was the direct cause of";
	static const char b[] = "During handling of the above exception";

	return (n >= sizeof a - 1 && s[0] == 'T' && memcmp(s, a, sizeof a - 1) == 0) ||
	       (n >= sizeof b - 1 && s[0] == 'D' && memcmp(s, b, sizeof b - 1) == 0);
}

/* A message its logger's prefix put at ERROR or CRITICAL (level), of
 * its own: not indented (a traceback's frames and code are; its links
 * are no error line anywhere, hx_families_open). */
static inline bool hx_logger_error(int level, const char *s, size_t n)
{
	return (level == HX_LV_ERROR || level == HX_LV_CRITICAL) && n >= 8 &&
	       s[0] != ' ' && s[0] != '\t';
}

/* "[DEBUG] ...", "[ERROR] ...": a line that starts with capitals in
 * brackets, a plog level; no envelope is around it.  Most lines are. */
static inline bool hx_plog_start(const char *s, size_t n)
{
	size_t end;

	if (n < 3 || s[0] != '[' || s[1] < 'A' || s[1] > 'Z')
		return false;
	for (end = 2; end < n && end < 10 && s[end] >= 'A' && s[end] <= 'Z';
	     end++)
		;
	return end < n && s[end] == ']';
}

/*
 * Terminal colour a paste kept, with or without its ESC bytes
 * ("\x1b[0;36m", "[0;36m", "[38;5;196m", grep's "[m[K"): hx_coloured says
 * whether a line holds any (a plog line "[ERROR] ..." is never looked
 * at; colour without ESC counts among the first 256 bytes, where launcher
 * and logger colours are), hx_decolour copies the line to out without
 * it and returns the new length (out may be s; it needs n bytes).
 * "[rank3]:", "[ERROR]", "[0]" and "[mindspore/...]" are no colour.
 * A web page's blanks (U+00A0 no-break space, U+3000 ideographic space)
 * count too (in a plog line's first 64 bytes: a page that made its
 * blanks no-break did so from the prefix on): hx_decolour writes a space
 * for each.
 */
bool hx_coloured(const char *s, size_t n);
size_t hx_decolour(const char *s, size_t n, char *out);

/* Cheap pre-filter: may this line hold evidence?  0 = noise.  Besides
 * the plog prefix forms it passes error-manager codes at the start of a
 * line ("EI0002:", "EE9999  ", "EE9999[PID: n]"), a plog line that lost
 * its '[', c10 "[E324 ...]" lines, vLLM "No available shared memory ..."
 * and "torch.*Error" lines: console texts some family reads. */
enum { HX_CL_NOISE, HX_CL_PREFIXED, HX_CL_BARE };
int hx_classify(const char *s, size_t n);
/* Console text without a plog prefix that may still hold a family
 * (families.c): the pre-filter's second chance for a noise line. */
bool hx_field_candidate(const char *s, size_t n);

/* Key/value fields of a message body, keys normalised per §5 of the
 * format reference. */
#define HX_KEY_MAP(XX)                                                 \
	XX(STREAM) XX(TASK) XX(SQ) XX(CQ) XX(HEAD) XX(TAIL) XX(CUR_HEAD) \
	XX(WAIT_SQE_HEAD) XX(NOTIFY) XX(EVENT) XX(EVENT_FLAG)           \
	XX(DEVICE) XX(DEVID) XX(LOGIC_DEV) XX(PHY_DEV) XX(CHIP) XX(DIE) \
	XX(DEVICE_PLAIN) XX(REMOTE_RANK) XX(LOCAL_RANK) XX(RANK_ID)     \
	XX(RANK) XX(RANK_SIZE) XX(TAG) XX(INDEX) XX(GROUP)              \
	XX(IDENTIFIER) XX(TASK_TYPE) XX(TYPE) XX(STAGE) XX(LINK_TYPE)   \
	XX(SRC) XX(DST) XX(SIZE) XX(COUNT) XX(DATA_TYPE) XX(OP_TYPE)    \
	XX(REDUCE_TYPE) XX(ROOT) XX(TIMESTAMP) XX(USER_DEFINE) XX(FLIP) \
	XX(TIMEOUT) XX(EXE_TIME) XX(WAIT_TIME) XX(SQ_PID) XX(SQ_FSM)    \
	XX(PID) XX(CONTEXT) XX(THREAD) XX(ERR_TYPE) XX(ERROR_TYPE)      \
	XX(ERROR_CODE) XX(RET_CODE) XX(ERR_CODE) XX(INNER_CODE)         \
	XX(SQE_TYPE) XX(SQ_SW_STATUS) XX(ADDR1_HIGH) XX(ADDR1_LOW)      \
	XX(ADDR2_HIGH) XX(ADDR2_LOW) XX(COMM_ID) XX(SERVER)             \
	XX(DEVICE_IP) XX(STATUS) XX(MODEL_ID) XX(POS) XX(NOW_TICK)      \
	XX(START_TICK) XX(TICK_FREQ) XX(SERIAL_NO) XX(THREAD_INDEX)     \
	XX(OP_NAME) XX(RETRY_CNT) XX(REASON) XX(DESC) XX(EXCEP_CODE)    \
	XX(REMOTE_PHY) XX(ROLE) XX(IP) XX(STUCK_NUM) XX(IGNORE)

enum hx_kv_key {
#define HX_KEY_ENUM(name) HX_KV_##name,
	HX_KEY_MAP(HX_KEY_ENUM)
#undef HX_KEY_ENUM
	HX_KV__N
};

struct hx_kv {
	uint16_t key;       /* enum hx_kv_key */
	const char *v;      /* value, brackets and trailing '.' removed */
	size_t vlen;
	size_t at;          /* offset of the key in the scanned text */
};

#define HX_MAX_KV 64
size_t hx_kv_scan(const char *s, size_t n, struct hx_kv *kv, size_t max);
const struct hx_kv *hx_kv_get(const struct hx_kv *kv, size_t n, int key,
			      int nth);
/* A number at s (decimal, or hex after "0x"), up to the first character
 * that is not one of its digits; false when there is none, or when an
 * ellipsis follows it ("87…", "0x…": a reporter cut it, it is unknown). */
bool hx_parse_u64(const char *s, size_t n, uint64_t *out);
bool hx_parse_i64(const char *s, size_t n, int64_t *out);
/* n > 0 bytes at s, every one an ASCII digit. */
bool hx_all_digits(const char *s, size_t n);
/* "…" (U+2026) or ".." at s: text a reporter left out. */
bool hx_ellipsis(const char *s, size_t n);
/* A framework's or a tool's own line for a run that finished, at the
 * start of a line (docs/DIAGNOSIS.md, category `none`): the Hugging Face
 * Trainer's "Training completed" and what its train() returns, printed;
 * a benchmark's result banner or its first row; lm-evaluation-harness's
 * table; sglang's evals' and benchmarks' last figures; OpenCompass's and
 * AISBench's summary; vLLM's offline bar at every prompt and its
 * example's output; verl's final validation; pytest's summary without a
 * failure; llama.cpp's and whisper.cpp's total time; the ACL samples' and
 * ATC's last lines.  The end's name ("training_completed", ...), or NULL.
 * The pre-filter keeps such a line and the console family records it, a
 * normal end of the process that wrote it. */
const char *hx_run_end(const char *s, size_t n);
/* Like memmem; ASCII case-insensitive variant too.  hx_findn takes the
 * literal's length (a line is short: the first byte by memchr, then a
 * compare, costs less than memmem's set-up). */
const char *hx_find(const char *s, size_t n, const char *lit);
const char *hx_findn(const char *s, size_t n, const char *lit, size_t m);
#define HX_FIND_LIT(s, n, lit) hx_findn((s), (n), "" lit "", sizeof(lit) - 1)
const char *hx_find_ci(const char *s, size_t n, const char *lit);
/* Value after a literal: "lit" then up to one of stop, trimmed. */
bool hx_after(const char *s, size_t n, const char *lit, const char *stop,
	      const char **v, size_t *vlen);

/* ---- message families (families.c) ---- */
struct hx_reader;
/* Parse one candidate line into zero or more records.  Returns an error
 * only for ENOMEM (bad input never fails).  s is the message text: on a
 * console line the envelope is gone (r->env keeps what it said, put on
 * each record by rb_source -> hx_env_stamp), a hard-wrapped line comes
 * whole, and a body line of an error-manager block ("EE9999  text",
 * "TraceBack ...", an unindented line after it) starts with a blank, with
 * r->curblk its block and r->ctxline its header (line, pid, time). */
int hx_families_line(struct hx_reader *r, const char *s, size_t n);
/* End of a file: the pending block and the held kernel runs become
 * records. */
int hx_families_end(struct hx_reader *r);
/* Another file begins inside the text (a "# file:" marker, the next file
 * of a pasted grep output): what is pending becomes records, and nothing
 * of the file before goes on (context, dumps, held kernel runs, no
 * folding after an ERROR line), as when a file ends and one begins. */
int hx_families_file(struct hx_reader *r);
/* A line the pre-filter calls noise, while an FFTS+ context trail may be
 * going on: its entries ("NW(1,760),M(1),..."), else the trail ends. */
int hx_families_noise(struct hx_reader *r, const char *s, size_t n);
/* A line the families took nothing from: if it reads as an error or a
 * wait that ran out, keep it (timeout_text, unknown_error records). */
int hx_families_open(struct hx_reader *r, const char *s, size_t n);
/* The device's own words for a task that failed at once on an AI Core or
 * a vector core ("there is an aivec error", "aicore exception"), and no
 * timeout in them. */
bool hx_device_exception_words(const char *s, size_t n);
/* Flush records held back to group consecutive lines. */
int hx_families_flush(struct hx_reader *r);

/* ---- reading (reader.c) ---- */
struct hx_ingest_limits {
	size_t max_line;
	uint64_t max_member;
	uint64_t max_ratio;
	uint64_t min_ratio_bytes;
};

/* A pending multi-line record (Task run failed block, AICPU dump). */
struct hx_pending {
	bool open;
	int kind;
	int64_t pid, tid, ts;
	unsigned parts;
	struct hx_recb b;
};

/* The last string interned for one prefix field, and its id. */
struct hx_icache {
	uint32_t id;                /* HX_NOSTR: empty */
	size_t n;
	char buf[96];
};

/*
 * An error-manager block of console output ("EE9999: Inner Error!", then
 * "EE9999  text", "TraceBack (most recent call last):" and the lines
 * after it, indented or not): one open block per console source (the
 * envelope's rank, pid, worker and node).  Its body lines reach the
 * families as continuation lines (they start with a blank), with
 * r->ctxline set to the block's header (line, pid, time), whatever the
 * lines of other sources printed in between.
 */
#define HX_EM_SLOTS 4
/* error-looking lines no family knows (families.c, the open world):
 * the first ones of a file are kept as records, the rest counted */
#define HX_OPEN_PER_FILE 16
#define HX_EM_MAX_LINES 64
struct hx_emblock {
	bool open;
	uint64_t key;               /* the source; 0: no envelope */
	char code[6];               /* "EE9999" */
	unsigned lines;             /* body lines so far */
	uint64_t used;              /* for replacement: last line seen */
	uint64_t line;              /* of the header */
	int64_t pid, ts;
};

struct hx_reader {
	struct hangdx_evidence *ev;
	struct hangdx_ctx *ctx;
	const struct hx_ingest_limits *lim;
	const char *path;           /* display path (interned string) */
	uint32_t file, vpath;
	uint32_t gfile;             /* the file of the last grep prefix */
	int64_t gprev;              /* and the line number it gave, 0 none, */
	uint64_t gprev_at;          /* on the reader's line gprev_at */
	uint64_t vline;             /* the line number a grep prefix gave
				     * the line being handled, 0 none */
	uint64_t line, off;         /* of the line being handled */
	uint16_t sub;               /* records emitted for this line */
	uint16_t piece_sub;         /* sub when this piece of it began */
	uint64_t sub_line;          /* the line sub counts for */
	/* context for continuation lines */
	struct hx_ctxline {
		bool valid;
		uint64_t line;
		int64_t pid, tid, ts;
		int level;
		uint32_t module, pname;
		bool hccl;              /* its module is HCCL */
	} ctxline;
	bool tsch_dump;             /* inside a TSCH stream dump */
	bool ffts_trail;            /* after "context sequence before error
				     * task is [...]:": entry lines follow */
	uint64_t last_rt_timeout;   /* line of the last RUNTIME device error */
	struct hx_pending pend;
	struct hx_icache cmod, cpname, csrc;
	struct hx_krun {            /* one kernel stream of one process */
		bool used;
		int64_t pid, stream;
		/* runs of equal kernel status lines */
		uint64_t hash;
		size_t len;         /* of body; SIZE_MAX: not kept */
		size_t last;        /* record of the latest line, or SIZE_MAX */
		char body[256];
		/* healthy kernel runs: the latest start/end pair, or the
		 * latest entry-to-end run of one AICPU worker, is held
		 * (held[HX_HELD_PER_SLOT * slot], not yet records), earlier
		 * ones folded; closed: the held run has ended well */
		uint8_t nheld;
		bool closed;
		uint64_t folded;
		/* status lines with a head: the record of the current run's
		 * first line (its latest is `last`) and of the first line
		 * with the current head (anchor); the head, its first and
		 * latest time; the longest a head stood before it moved, over
		 * the lines taken back (-1: no move yet) */
		size_t first, anchor;
		bool has_head;
		int64_t head, since, seen, moved;
	} krun[HX_KRUN_SLOTS];
	size_t rec0;                /* the file's first record in ev */
	size_t ndead;               /* records taken back, not yet swept */
	struct hx_rawline *held;    /* HX_HELD_PER_SLOT * HX_KRUN_SLOTS,
				     * the worker's */
	bool no_fold;               /* an ERROR line was seen: keep all */
	bool ended;                 /* a normal end was recorded */
	uint64_t ht_max;            /* hccl_test's maxbytes, 0: none seen */
	uint64_t el_root;           /* the line of torch elastic's "Root Cause
				     * (first observed failure):", 0 none */
	int64_t el_ts;              /* its time, HX_NONE */
	bool taken;                 /* a family took the current line */
	bool open_too;              /* it kept a fact of the line (an
				     * environment variable, a communicator's
				     * step): the open world reads it too, by
				     * its own rules (an error line only) */
	struct hx_prefix lastp;     /* the plog prefix of the line below, */
	const char *lastp_at;       /* parsed once by hx_families_line */
	uint32_t open_kept;         /* open-world records of this file */
	uint64_t open_line;         /* the line of the last one, 0 none */
	/* the console's clock (hx_line_clock) of the last line that had one,
	 * and the seconds no line was printed before the current line's
	 * (silence, for records of line silence_line only) */
	int64_t clk_prev;
	bool clk_seen;
	int clk_dated;
	int64_t silence;
	uint64_t silence_line;
	uint32_t warn_timeouts;     /* warning lines of a wait that ran out */
	/* the last frame of a Python traceback ("File \".../shm_broadcast.py\",
	 * line 536, in acquire_read" -> "shm_broadcast.py:acquire_read"): a
	 * wait that ran out just below it was raised there */
	char frame[96];
	uint8_t frame_len;
	uint64_t frame_line;
	uint8_t aicerr;             /* in msaicerr's report: 1, 2 under its
				     * error code's heading */
	int64_t aicerr_task, aicerr_stream; /* its "task id : 60", "stream id
					     * : 517" (-1: not seen) */
	uint64_t open_more;         /* ... and the lines past them */
	bool replaying;             /* parsing a held line, to keep it */
	uint64_t replay_folded;     /* runs folded into the line replayed */
	/* console: the envelope of the line being handled (its attribution
	 * goes on every record the line starts, see hx_env_stamp), the
	 * open error-manager blocks, the block of the current line */
	struct hx_envelope env;
	struct hx_emblock blk[HX_EM_SLOTS];
	struct hx_emblock *curblk;
	/* a hard-wrapped line being put back together (reader.c) */
	char *join;
	size_t njoin;
	uint64_t join_line, join_off;
	unsigned join_parts;
	size_t join_last;           /* length of the last piece */
	int join_how;
	int8_t dedent;              /* 0 not yet known, 1 on, -1 off */
	int8_t numbered;            /* cat -n's numbers: 0 not yet, 1 on, -1 off */
	bool srun_seen;             /* a line behind srun's label, text after it */
	int64_t c10_rank;           /* the rank of a "[rankN]:[W...] Warning:
				     * EZ9999: ..." line whose message goes on
				     * unprefixed (an error-manager block), -1 */
	uint64_t number;            /* the last line's number (numbered) */
	uint8_t nindent;            /* the indentation every line had */
	char indent[16];
	uint64_t join_env;          /* the held line's envelope (wrap_env),
				     * 0: none */
	bool scratch;               /* the line is not in the read buffer */
	char *clean;                /* a line without its colour (max_line) */
	const char *cur;            /* the line being handled, whole */
	size_t ncur;
	/* per-file summary being built */
	struct hx_filesum fs;
	unsigned diag_left[HX_S_COUNT];
	uint64_t diag_dropped;
	/* line assembly */
	char *carry;
	size_t ncarry;
	bool skipping;              /* inside an over-long line */
	uint64_t skip_line;
	bool carry_nul;
	const char *lastpre_ptr;    /* last prefixed line of this chunk */
	size_t lastpre_len;
	char lastpre[96];           /* head of the last prefixed line */
	size_t nlastpre;
	uint64_t pos;               /* stream offset of the current chunk */
	uint64_t carry_off;         /* stream offset of the carried line */
	int err;                    /* ENOMEM, sticky */
};

/* Put the envelope's attribution (console_rank, worker, console_pid,
 * console_node) on a record the current line starts. */
void hx_env_stamp(struct hx_reader *r, struct hx_recb *b);

void hx_rdiag(struct hx_reader *r, enum hangdx_level lvl, uint64_t line,
	      const char *fmt, ...) HX_PRINTF(4, 5);
void hx_ingest_diag_lock(void);
void hx_ingest_diag_unlock(void);


/*
 * ---- the vendor's vocabulary (vocab.c; docs/VOCABULARY.md) ----
 * The codes and phrases of CANN, HCCL, torch_npu and the frameworks above
 * them, one table per family, generated from vocab/<family>.tsv into
 * $(B)/gen/vocab_tab.c (scripts/vocab-gen.sh): each row has its key as
 * logs write it, the vendor's name, a class (how the failure behaves in a
 * job) and the source it was taken from (repo@commit:path).  The rows are
 * static: pointers to them stay valid for the life of the program.
 */
#define HX_VOCAB_FAMILY_MAP(XX)                                        \
	XX(RUNTIME, "runtime")      /* ACL/RT/GE/aclnn codes: 507014 */ \
	XX(RT_INNER, "rt_inner")    /* runtime inner codes: 0x07150050 */ \
	XX(ERRMGR, "errmgr")        /* error manager: EI0002, EE9999 */  \
	XX(HCCL, "hccl")            /* HcclResult: 9 */                  \
	XX(DRV, "drv")              /* the driver's drvError_t: 87 */    \
	XX(AICPU, "aicpu")          /* an AICPU kernel's errcode: 21008 */ \
	XX(TS, "ts")                /* the task scheduler's ts_error_t: 0x2a */ \
	XX(DCMI, "dcmi")            /* DCMI's (npu-smi's) codes: -8020 */ \
	XX(ERRNO, "errno")          /* -errno, as HCCP returns it: -12 */ \
	XX(TORCH_NPU, "torch_npu")  /* ERR02200, sub-modules: DIST */    \
	XX(MINDIE, "mindie")        /* MindIE: MIE05E010019, MIE04*1C */ \
	XX(FRAMEWORK, "framework")  /* phrases: c10d, Gloo, vLLM, Ray */

enum hx_vocab_family {
#define HX_VOCAB_FAMILY_ENUM(name, id) HX_VF_##name,
	HX_VOCAB_FAMILY_MAP(HX_VOCAB_FAMILY_ENUM)
#undef HX_VOCAB_FAMILY_ENUM
	HX_VF_COUNT
};

/* How a failure behaves; the rules that choose a row's class are in
 * docs/VOCABULARY.md. */
#define HX_VOCAB_CLASS_MAP(XX)                                         \
	XX(WAIT_TIMEOUT, "wait_timeout")         /* a wait ran out: a hang */ \
	XX(DEVICE_EXCEPTION, "device_exception") /* fails at once */       \
	XX(RESOURCE, "resource")     /* memory, streams, events exhausted */ \
	XX(PARAMETER, "parameter")   /* a parameter or configuration */   \
	XX(COMM_SETUP, "comm_setup") /* communication set-up failed */     \
	XX(LOST, "lost")             /* a lost device or link */           \
	XX(UNKNOWN, "unknown")       /* says nothing by itself */

enum hx_vocab_class {
#define HX_VOCAB_CLASS_ENUM(name, id) HX_VC_##name,
	HX_VOCAB_CLASS_MAP(HX_VOCAB_CLASS_ENUM)
#undef HX_VOCAB_CLASS_ENUM
	HX_VC_COUNT
};

struct hx_vocab {
	const char *key;        /* "507014", "0x07150050", "EI0002", "9",
				 * "ERR02200", "DIST", or a phrase (one '*'
				 * may stand for any text on the line) */
	const char *name;       /* ACL_ERROR_RT_AICORE_TIMEOUT, ... */
	const char *meaning;    /* the vendor's words where it has some */
	uint16_t keylen;
	uint8_t family;         /* enum hx_vocab_family */
	uint8_t cls;            /* enum hx_vocab_class */
	uint16_t src;           /* index in hx_vocab_sources */
};

struct hx_vocab_source {
	const char *id;         /* vocab/sources/<id>.txt */
	const char *repo, *commit, *path;
};

/* the generated tables: rows by family, each family sorted by key */
struct hx_vocab_span {
	uint32_t first, count;
};
extern const struct hx_vocab hx_vocab_rows[];
extern const size_t hx_vocab_nrows;
extern const struct hx_vocab_span hx_vocab_spans[HX_VF_COUNT];
extern const struct hx_vocab_source hx_vocab_sources[];
extern const size_t hx_vocab_nsources;

/* The row of key in family f, or NULL: a binary search.  key is as logs
 * write it, n bytes; an rt_inner key may have fewer than 8 hex digits or
 * capitals ("0x7150050"); a ts key may lack its "0x" or have capitals and
 * leading zeros ("2A", "0x002a").  Never fails otherwise. */
const struct hx_vocab *hx_vocab_code(enum hx_vocab_family f, const char *key,
				     size_t n);
/* The row a code names whatever its family, by its shape: six digits a
 * runtime code ("507014"), "ERR" and five digits torch_npu's ("ERR02200"),
 * "E", a letter or digit and four digits the error manager's
 * ("EI0002"), "0x" and one to three hex digits the task scheduler's
 * ("0x2a"), "0x" and more an inner runtime code ("0x7150050"), "-" and
 * four or five digits DCMI's ("-8020"), "-" and one to three digits an
 * errno negated ("-12"), else a phrase of framework.tsv;
 * NULL if none (an HcclResult needs its context: use hx_vocab_code). */
const struct hx_vocab *hx_vocab_key(const char *code);
/* The rows of family f (*n of them), in key order. */
const struct hx_vocab *hx_vocab_family(enum hx_vocab_family f, size_t *n);
/* "wait_timeout", ...; "family" ids "runtime", ...; NULL out of range. */
const char *hx_vocab_class_id(enum hx_vocab_class c);
const char *hx_vocab_family_id(enum hx_vocab_family f);
/* Where a row was taken from. */
const struct hx_vocab_source *hx_vocab_source(const struct hx_vocab *row);
/* An HCCL error number ("errNo[0x0000000005000002]", "0x5000007"):
 * module 5, sub-module 0 or 1 (HCCL_ERROR_CODE), its low 16 bits the
 * HcclResult.  Writes that HcclResult in decimal to out and returns its
 * length, or 0 when v is no such number. */
size_t hx_vocab_hccl_number(uint64_t v, char out[6]);

/* How a mention was recognised. */
enum hx_vocab_how {
	HX_VH_CODE,     /* by its shape: "EI0002", "ERR02200", "DIST" after it */
	HX_VH_RESULT,   /* a number after a result word: "error code is 507014",
			 * "ErrCode=507011", "runtime result = 507018" */
	HX_VH_HCCL,     /* a small number after a result word, in a line that
			 * names an Hccl* / hccl* function: "ret = 9" */
	HX_VH_DRV,      /* a small number after the driver's own result
			 * word: "drvRetCode=87", "drvErr=87" */
	HX_VH_AICPU,    /* an AICPU kernel's code in the device's report:
			 * "... AICPU execution, ..., errcode:21008" */
	HX_VH_HEX,      /* "InnerCode=0x7150050", "errNo[0x000000000500000a]" */
	HX_VH_PHRASE    /* a phrase of framework.tsv, or "[PTA]" */
};

struct hx_vocab_hit {
	const struct hx_vocab *row;
	size_t off, len;        /* the mention: bytes [off, off + len) */
	uint8_t how;            /* enum hx_vocab_how */
};

/*
 * The code and phrase mentions of one log line s (n bytes, no newline),
 * into hits, in the order of their offsets: returns how many were stored
 * (at most max; past max, the mentions furthest in the line are dropped).
 * A code counts only in its context (hx_vocab_how); one that no table
 * knows is not a mention.  A line with none of the anchors (a run of six
 * digits, "0x", 'E' or 'W' before a code shape, "ccl", "drv", a phrase's
 * rarest byte) costs a few memchr and one pass over its digits.
 * Thread-safe; no allocation.
 */
size_t hx_vocab_scan(const char *s, size_t n, struct hx_vocab_hit *hits,
		     size_t max);
/* The module whose plog line a message is (its head's "HCCL(", ...):
 * some codes are read only in its own lines. */
enum hx_vocab_mod {
	HX_VM_ANY,      /* not known, or another's */
	HX_VM_HCCL,     /* HCCL's: an HcclResult after a result word counts
			 * from the line's start ("[Wait][LinksEstablish
			 * Completed] is failed. ret[9]."), as it does in any
			 * line after an HCCL function name */
	HX_VM_HCCP      /* HCCP's or its RoCE driver's: "ret(-12)" is -errno */
};
/* The same for a line the module mod wrote. */
size_t hx_vocab_scan_mod(const char *s, size_t n, enum hx_vocab_mod mod,
			 struct hx_vocab_hit *hits, size_t max);
/* The row a line names: the first mention (of its first eight) whose class
 * is not unknown, else NULL; but an HcclResult that says only that a call
 * failed (HCCL_E_RUNTIME, HCCL_E_NETWORK, HCCL_E_INTERNAL, ...) is passed
 * over for a runtime or HCCP code (vocab/runtime.tsv) after it.
 * *any, when given, the first mention of any class.  mod: the module that
 * wrote the line. */
const struct hx_vocab *hx_vocab_line_row(const char *s, size_t n,
					 enum hx_vocab_mod mod,
					 const struct hx_vocab **any);
/* For the tests: the masks the scanner takes of the 64 bytes at p (bit
 * k: byte k): out[0] the digits, out[1] the bytes that may start a code
 * or a phrase, out[2] the 'c' and out[3] the 'l' bytes; by the code the
 * scanner uses (SSE2 where the compiler has it) or the portable code. */
void hx_vocab_block_masks(const unsigned char *p, bool portable,
			  uint64_t out[4]);

#endif
