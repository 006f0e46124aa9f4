/*
 * analyze.h - the analyzer, the heart of `diagnose`: evidence (from
 * ingest) -> facts per rank (facts.c) -> a snapshot of the shared runtime
 * model rebuilt from the TS stream dumps and kernel lines, with its
 * wait-for graph and deadlock proof (snapshot.c) -> the verdict: category,
 * root and first failing rank, the chain hop by hop with its evidence,
 * alike ranks grouped, fixes, what is missing (verdict.c); the roots among
 * many ranks and the victims waiting on them (roots.c).
 * A diagnosis borrows the evidence it was made from; free it first.
 */
#ifndef HX_ANALYZE_H
#define HX_ANALYZE_H

#include "../ingest/ingest.h"
#include "../model/state.h"
#include "../core/thresholds.h"

#define HX_CAT_MAP(XX)                                                   \
	XX(NONE, "none", "no hang found")                                \
	XX(AICPU_DEADLOCK, "aicpu_exhaustion_deadlock",                  \
	   "AICPU exhaustion deadlock")                                  \
	XX(WAIT_CYCLE, "wait_cycle", "circular wait")                    \
	XX(RANK_LOST, "remote_rank_lost", "a rank was lost")             \
	XX(MISMATCH, "collective_mismatch", "collective mismatch")       \
	XX(BEHIND, "rank_behind", "a rank fell behind its peers")       \
	XX(LINK, "link_error", "link error")                             \
	XX(EVENT_CHAIN, "event_wait_chain",                              \
	   "event-wait chain on a blocked task")                         \
	XX(AICPU_TIMEOUT, "aicpu_op_timeout", "AICPU operator timeout")  \
	XX(SQ_FULL, "sq_full", "submission queue full")                  \
	XX(CONFIG, "config_mismatch", "configuration mismatch")          \
	XX(SILENT, "silent_hang", "hang without an error line")          \
	XX(UNKNOWN, "unknown", "hang of unknown cause")                  \
	XX(CONNECT, "connect_timeout",                                   \
	   "connection set-up timed out or failed")                      \
	XX(FFTS, "fftsplus_timeout", "HCCL FFTS+ task timeout")          \
	XX(COLLECTIVE, "collective_timeout",                             \
	   "a collective timed out in the framework (its watchdog, a process group's work, an RPC)")      \
	XX(DEVICE_TIMEOUT, "device_timeout",                             \
	   "device task timeout without a collective")                   \
	XX(NOT_HANG, "not_a_hang", "not a hang: the job failed")         \
	XX(OTHER, "other", "a failure outside the categories above")     \
	XX(UNDETERMINED, "not_determined",                               \
	   "no failure, and no normal end in the logs")

enum hx_cat {
#define HX_CAT_ENUM(name, id, text) HX_CAT_##name,
	HX_CAT_MAP(HX_CAT_ENUM)
#undef HX_CAT_ENUM
	HX_CAT_COUNT
};

const char *hx_cat_id(enum hx_cat c);
const char *hx_cat_text(enum hx_cat c);

#define HX_NOREC UINT32_MAX

/* What the evidence says about one rank. */
/* pool_peer: a member of a held group whose logs are not at hand. */
#define HX_PEER_ABSENT (-3)

struct hx_rankinfo {
	int32_t rank;
	bool pseudo;              /* "rank ?": no rank in the logs */
	int64_t pseudo_pid;       /* its process, -1 none (a file) */
	const char *pseudo_where; /* its node (NULL: none) or file */
	int64_t device, pid;
	const char *node;
	bool seen;                /* some record is attributed to it */
	bool ended;               /* its logs run to a normal end */
	uint32_t open_rec;        /* its first line that reads as an error
				     or a timeout and no family knows */
	bool device_seen;         /* some record comes from its device log */
	bool lost;                /* named LOST by a heartbeat */
	uint32_t lost_rec;
	uint32_t first_err_rec;   /* earliest ERROR-level evidence */
	uint32_t fail_rec;        /* earliest task failure: wait timeout, link
				     error, AICPU timeout (not heartbeats) */
	uint32_t task_rec;        /* the runtime's "Task execute failed, base
				     info" line: the task that failed, where
				     fail_rec is its model stream's report */
	int64_t first_err_ts;     /* fail_rec's time corrected for clock skew */
	int64_t last_ts;          /* last timestamp in its logs (raw) */
	int64_t skew_us;          /* estimated clock offset */
	int64_t skew_left_us;     /* measured offset minus skew_us (an
				     offset under HX_SKEW_MIN_US is left) */
	bool skew_known;          /* an offset was measured (the reference
				     rank's too) */
	/* its first HCCL wait failure */
	uint32_t wait_rec;
	int64_t wait_peer;        /* global rank waited on, -1 local/unknown */
	int64_t wait_crank;       /* the remote rank of that failure when its
				     global rank is unknown (a rank of its
				     communicator), -1 */
	const char *wait_group;   /* that communicator's name, NULL unknown */
	int64_t index;            /* op index, -1 */
	const char *op;           /* op name from the tag */
	const char *group;
	int64_t count;            /* element count, -1 */
	const char *dtype;
	int64_t stream, task;
	/* other failures */
	uint32_t link_rec;
	bool link_recovered;      /* op retry got past it */
	bool link_setup;          /* the link never came up (socket, p2p,
				     transport init) rather than a CQE */
	int64_t setup_peer;       /* the rank it could not reach; -2 when the
				     logs do not identify it */
	int setup_strength;       /* how surely: 0 none, 1 unknown, 2 comm
				     rank only, 3 address or device id */
	const char *server;       /* "1.1.1.1" from communicator creation */
	const char *device_ip;
	int64_t phy_device;
	uint32_t dma_rec;         /* AICPU dump of the failed copy (stream, task) */
	int64_t link_peer;
	uint32_t aicpu_timeout_rec;
	uint32_t sq_full_rec;
	uint32_t stuck_rec;
	uint32_t retry_rec;       /* last op-retry line */
	/* configuration echoed at start-up */
	const char *retry_env;    /* HCCL_OP_RETRY_ENABLE value */
	int64_t exec_timeout;     /* HCCL_EXEC_TIMEOUT, -1 unknown */
	const char *mode;         /* HCCL_OP_EXPANSION_MODE */
	uint32_t ncomm;           /* communicators created */
	uint32_t kernels;         /* HCCL kernels holding a core (seen or inferred) */
	uint32_t kernels_inferred;/* of which inferred from the TS dumps alone */
	uint32_t kernels_config;  /* of which inferred from the configuration:
				     no dumped stream shows them either */
	uint32_t stalled;         /* resident kernels whose main stream did not
				     move for HX_STALL_MIN_US or more */
	int64_t stall_us;         /* the longest such stall */
	uint32_t stall_rec;       /* a status line that shows it */
	uint32_t pool_held;       /* resident kernels still looping whose
				     main stream did not move between two
				     status lines (HX_POOL_HELD_US) */
	int64_t pool_held_us;     /* the shortest such hold */
	uint32_t pool_rec;        /* the status line of that hold */
	bool pool_ahead;          /* one of them started its collective
				     further than a peer's kernel of the
				     same group: it waits on that peer */
	int64_t pool_moved_us;    /* the longest wait of one of its resident
				     kernels that then moved (0 none) */
	int32_t pool_peer;        /* a member with logs of one of their
				     groups that has no kernel looping in
				     it (the one holding fewest cores), -1
				     none: while its pool is not full it
				     can still come, and this rank waits
				     on it (a checkpoint, a slow rank);
				     HX_PEER_ABSENT: a member whose logs
				     are not here, who may as well */
	const char *pool_groups;  /* the groups it has kernels looping in, as
				     its facts say them (facts.c), NULL none */
	int64_t last_progress_ts; /* last line that shows work moving */
	/* the rank-level wait-for graph (roots.c): every remote rank this
	 * rank's failures say it waits on, at most HX_MAX_WAIT_PEERS */
	int32_t peers[HX_MAX_WAIT_PEERS];
	uint8_t npeers;
	uint8_t role;             /* enum hx_role, set by hx_roots_find */
	int64_t cores_logged;     /* largest aicpuCoreNum its lines give, 0 */
	int64_t core_top;         /* highest AICPU core id named + 1, 0 */
	unsigned cores;           /* its device's AICPU pool (snapshot.c
				     size_pool), 0 before it is sized */
	bool cores_wide;          /* widened past its count by a core id */
	char state[160];          /* one line, for grouping alike ranks */
};

/* Console and plog signals of whole-job outcome, first record of each
 * class in (file, line) order (facts.c hx_signals_collect): what decides
 * when the logs hold no per-rank wait chain, and what says "not a hang". */
struct hx_signals {
	uint32_t fftsplus;        /* HCCL FFTS+ timeout (err_type 13, stuck
				     notify num, desc fftsplus timeout) */
	uint32_t event_wait;      /* event wait timeout, EVENT_WAIT failure */
	uint32_t notify_wait;     /* notify wait timeout (EI0002, RUNTIME) */
	uint32_t connect;         /* set-up timeout: EI0006, socket, topo */
	uint32_t connect_fail;    /* set-up failure: EI0009, transport init */
	uint32_t link_fail;       /* link failure checklist, no timeout */
	uint32_t watchdog;        /* framework collective timeout, the one
				     with the smallest SeqNum */
	uint32_t lost;            /* heartbeat LOST */
	uint32_t stall;           /* vLLM shared-memory broadcast stall */
	uint32_t dev_timeout;     /* AI Core timeout */
	uint32_t aicpu_timeout;   /* a code named for an AICPU timeout (the
				     task scheduler's 0x28, the runtime's
				     inner RT_ERROR_TSFW_AICPU_TIMEOUT) */
	uint32_t timeout;         /* stream sync / task timeout (cause unseen) */
	uint32_t not_hang;        /* out of memory, failed start-up */
	uint32_t device_fault;    /* device lost, SDMA error */
	uint32_t stopped;         /* a failure that does not say why */
	uint32_t sdma;            /* the last SDMA exception read so far */
	uint32_t code_rec;        /* first record with a numeric error code */
	uint32_t timeout_text;    /* a line no family knows that says a
				     wait ran out ("timed out", ...) */
	uint32_t unknown_err;     /* an error line no family knows */
	uint32_t end_rec;         /* a normal end (communicator destroyed) */
	uint32_t coded_fail;      /* a code of the vendor's tables that fails
				     at once: device exception, resource,
				     parameter (docs/VOCABULARY.md) */
	uint32_t exited;          /* a process ended on an exception */
	int64_t missing_rank;     /* not in the connected-rank lists, -1 */
	int64_t link_peer;        /* the peer of a link table's row that
				     timed out (LINK_ERROR_INFO), -1 */
	int64_t behind_rank;      /* smallest SeqNum when ranks differ, -1 */
	int64_t seq_min, seq_max;
	int64_t named_rank;       /* RankID of a torch_npu screen line, -1 */
	uint32_t nwatchdog, nstall;
	uint64_t nunknown;        /* error lines no family knows, all */
};

/*
 * What a node's own analysis of one rank's full evidence found, kept in
 * its facts (factfile.c): everything the verdict takes from that rank's
 * TS dumps and kernel lines, which the facts leave behind.  When a
 * diagnosis is made from facts, a rank whose full evidence was not read
 * again takes these values (hx_rf_* hooks below).
 */
struct hx_rankfact {
	int32_t rank;
	bool device_seen, local_cycle;
	bool proven;              /* the node's analysis proved its cycle */
	bool has_dumps;           /* its logs hold TS stream dumps */
	uint32_t stalled, kernels, kernels_inferred;
	int64_t last_ts, last_progress_ts;  /* HX_NONE if none */
	int64_t stall_us, stall_under_us;
	int64_t cores_logged, core_top;
	uint32_t dead_pools;      /* its AICPU pools never released */
	uint32_t stall_file;      /* the status line of the longest stall: */
	uint64_t stall_line;      /* its file (string id in the facts) */
	uint32_t pool_held;       /* hx_rankinfo's pool_held .. pool_moved_us: */
	int64_t pool_held_us;     /* the pool held by its resident kernels */
	bool pool_ahead;          /* while the job runs (verdict.c */
	bool pool_inferred;       /* its cycle is try_pool_held's inference */
	int32_t pool_peer;        /* try_pool_held); pool_peer -1 none */
	uint32_t pool_groups;     /* its looping groups (hx_rankinfo's, a
				     string id in the facts), HX_NOSTR none */
	int64_t pool_moved_us;
	uint32_t pool_file;       /* the status line of that hold: its file */
	uint64_t pool_line;       /* (string id in the facts) and line */
	uint32_t f0, nf;          /* its files: facts->fid[f0, f0 + nf) */
	bool files_cut;           /* it named more than HX_MAX_RANK_FILES */
};

/* One hop of the explained chain. */
struct hx_hop {
	int32_t rank;
	char kind[24];            /* task kind, "AICPU_POOL", or "" */
	int64_t stream_id, task_id;  /* -1 when not a task */
	char what[200];
	char why[64];             /* how it waits for the next hop */
	uint32_t rec;             /* evidence record, HX_NOREC */
};

/* What a rank is to the hang (roots.c). */
enum hx_role {
	HX_ROLE_NONE,             /* no failure of its own, or not decided */
	HX_ROLE_ROOT,             /* its own state holds the hang */
	HX_ROLE_VICTIM            /* it only waits, on a root or a peer */
};

struct hx_group {
	char state[160];
	int32_t *ranks;
	uint32_t nranks;
	uint8_t role;             /* enum hx_role of its ranks */
	int32_t *waits;           /* roots its victims wait on, ascending */
	uint32_t nwaits;
	/* ranks its victims wait on whose waits lead to no root these logs
	 * show (a rank without logs): the first HX_GROUP_LEAD, ascending,
	 * and how many more */
	int32_t *lead;
	uint32_t nlead, lead_more;
};
#define HX_GROUP_LEAD 16

/* Why the first failing rank and the next cannot be ordered by time
 * (verdict.c): no creation exits aligned the clocks; the exits of one
 * creation on one server spread that far; an offset under
 * HX_SKEW_MIN_US was left uncorrected; a rank's offset was not measured
 * (nor the spread). */
enum hx_margin_why {
	HX_MARGIN_UNALIGNED, HX_MARGIN_SPREAD, HX_MARGIN_LEFT,
	HX_MARGIN_UNMEASURED
};

/* A file left out of timing (timing.c): why, and what decided it. */
enum hx_leftout_why {
	HX_LEFT_NONE, HX_LEFT_CUT_LINE, HX_LEFT_EARLIER_RUN,
	HX_LEFT_EARLIER_PROCESS, HX_LEFT_NOT_IN_CREATION
};
struct hx_leftout {
	uint32_t file;
	uint8_t why;            /* enum hx_leftout_why */
	uint64_t line;          /* the cut line */
	int64_t pid, other;     /* its process; the rank's process in the
				   creation (earlier process, not in it) */
	int64_t gap;            /* us before the job's logs (earlier run) */
	int64_t rank;           /* the rank both are of, -1 a node */
};

struct hangdx_diagnosis {
	struct hangdx_ctx *ctx;
	const struct hangdx_evidence *ev;   /* borrowed */
	struct hx_arena arena;
	struct hx_attrib *at;
	int oom;                            /* HANGDX_ENOMEM once an allocation
					       failed where no error is
					       returned: the whole diagnosis
					       fails (hx_dcalloc) */
	uint32_t *order;                    /* records in (file, line) order */
	size_t norder;
	int32_t *rank_of;                   /* per record: rank (or pseudo), -1 */
	uint8_t *pinned;                    /* per record: 1 facts keep it: it
					       bounds its process's span, rank
					       or creation (timing.c), or its
					       rank was given to other records
					       of its process or file (facts.c) */
	uint8_t *untimed;                   /* per record: 1 its time is not
					       used (a cut line), timing.c */
	struct hx_leftout *left;            /* files left out of timing */
	size_t nleft, capleft;
	/* processes that read as an earlier run by their times but are the
	 * only ones of their rank: kept, their clock taken to be off (the
	 * first four, and how many) */
	struct hx_clockoff {
		int64_t pid, rank, gap;
	} clockoff[4];
	uint32_t nclockoff;
	uint32_t pseudo_base, npseudo;      /* pseudo ranks: [base, base + n) */
	uint32_t real_ranks;                /* ranks the logs attribute or name */
	int64_t *pseudo_pids;
	const char **pseudo_where;

	int verdict;                        /* enum hangdx_verdict */
	enum hx_cat cat;
	int32_t root_rank, first_rank;
	int32_t first_err_rank;             /* rank of the first failure line */
	int32_t *roots;                     /* every root rank, root_rank first
					       then ascending (roots.c) */
	uint32_t nroots;
	uint8_t *local_cycle;               /* per rank: its own snapshot state
					       holds a cycle */
	int64_t first_ts;
	int64_t last_ts;                    /* newest line of the whole job */
	int64_t newest_ts;                  /* newest record, a rank's or not
					       (hangdx_diagnosis_log_time) */
	unsigned cores;                     /* AICPU cores per device: the
					       largest pool of the job once
					       sized; hx_rank_cores for one */
	bool cores_given;                   /* by --cores; else the product's */
	bool cores_logged;                  /* by HCCL's aicpuCoreNum lines */
	unsigned cores_named;               /* > cores given or the product's:
					       widened to the highest core id
					       the logs name + 1; else 0 */
	bool proven;                        /* deadlock proven on the snapshot:
					       every input seen in the logs */
	bool proof_common;                  /* the inputs of the proof no one
					       rank owns were seen: no cut, a
					       dump line for every task of the
					       cycle, no notify linked by
					       inference (hx_rank_proven) */
	char assumption[1024];              /* a deadlock not proven: why */
	uint32_t thr_hits;                  /* HX_THR_* that decided something */
	int64_t stall_under_us;             /* longest kernel stall below
					       HX_STALL_MIN_US, 0 */
	int32_t tie_rank;                   /* failed earlier than first_rank,
					       within HX_TIE_US, -1 */
	int64_t tie_us;                     /* by how much */
	bool clocks_unaligned;              /* no creation exits measured an
					       offset (facts.c) */
	int64_t clock_spread_us;            /* exits of one creation on one
					       server spread this far, -1
					       none measured (facts.c) */
	int64_t skew_floor_us;              /* offsets up to this are noise:
					       that spread (at least
					       HX_TIE_US), HX_SKEW_MIN_US at
					       most or unmeasured */
	int32_t margin_rank;                /* failed after first_rank within
					       what the clocks can order
					       (margin_within_us), -1 */
	int64_t margin_us;                  /* how long after */
	int64_t margin_within_us;           /* the precision it is within */
	uint8_t margin_why;                 /* enum hx_margin_why */
	char summary[2560];
	int hang;                           /* 1 hung, 0 not a hang, -1 the
					       text cannot tell */
	uint32_t id_rec;                    /* the record whose ids decide */
	bool by_signals;                    /* decided on the job-wide signals
					       (verdict.c field_set) */
	struct hx_signals sig;
	bool fault_first;         /* a failure at once came before every wait
				     that ran out (verdict.c) */
	int64_t aicpu_end_stream; /* an event-wait chain ends at the AICPU
				     task at this stream's head, -1 */
	int32_t *notify_rec;      /* per snapshot notify: the first task that
				     records it, -1 (verdict.c) */

	struct hx_rankinfo *ranks;
	uint32_t nranks;
	struct hx_hop *hops;
	size_t nhops, caphops;
	size_t cycle_at;                    /* hop where the cycle begins */
	struct hx_group *groups;
	size_t ngroups, capgroups;
	const char **fixes, **missing, **warnings, **facts;
	size_t nfixes, nmissing, nwarnings, nfacts;
	size_t capfixes, capmissing, capwarnings, capfacts;

	/* snapshot of the runtime model rebuilt from the logs */
	struct hangdx_scenario snap_sc;
	struct hx_state st;
	struct hx_wgraph wg;
	bool have_snapshot;
	bool pool_held;           /* the verdict is try_pool_held's: every core
				     held by kernels still looping, no error */
	/* a ceiling cut the evidence (records counted, not kept): counts from
	 * records are lower bounds and no rank is said to be without logs */
	bool partial;
	uint32_t *task_rec;                 /* snapshot task -> evidence */
	uint32_t *pool_rec;                 /* rank -> record showing its pool */
	size_t captask_rec;

	/* made from facts (twophase.c) */
	const struct hangdx_facts *facts_src;   /* borrowed, or NULL */
	const uint8_t *fetched_mask;        /* per rank (< nfetch_mask): its
					       full evidence was read again */
	size_t nfetch_mask;
	const struct hx_rankfact **rf;      /* per rank: the facts that stand
					       for its devices, or NULL */
	struct hangdx_evidence *own_ev;     /* the evidence it owns, or NULL */
	int32_t *fetched;                   /* ranks read again, ascending */
	size_t nfetched;
};

/* hx_calloc for a step that returns no error: a failure marks the
 * diagnosis (d->oom), which then fails as a whole, so that a smaller
 * answer is never given for want of memory. */
static inline void *hx_dcalloc(struct hangdx_diagnosis *d, size_t n, size_t size)
{
	void *p = hx_calloc(d->ctx, n, size);

	if (!p)
		d->oom = HANGDX_ENOMEM;
	return p;
}

/* factfile.c / rankfacts.c: facts standing in for a rank's devices */

/* A rank fact's cycle that is its node's inference from a pool held
 * while the job runs (no dead pool, not proven): judged again over every
 * node's ranks (try_pool_held), not taken as it is. */
static inline bool hx_rf_pool_running(const struct hx_rankfact *x)
{
	return x->pool_inferred;
}

/* One entry of a rank fact's pool_groups: "h" (held) or "l" (looping),
 * for a held one the fewest and most SQEs left of its kernels' ops in
 * that group when the lines give them ("h3,16"), ':', the group's name;
 * entries are tab-separated. */
struct hx_pgroup {
	bool held;
	int64_t lmin, lmax;       /* -1: not given */
	const char *name;         /* not terminated */
	size_t len;
};
/* The entry at *p into out, *p moved past it; false at the end.  An
 * entry not of that form has len 0. */
bool hx_pgroup_next(const char **p, struct hx_pgroup *out);
/* Write g at *o (a tab first unless first), terminated; *o moved to the
 * terminator.  Room: g->len + 48 bytes. */
void hx_pgroup_put(char **o, const struct hx_pgroup *g, bool first);
const struct hx_rankfact *hx_facts_rank(const struct hangdx_facts *f,
					int32_t rank);
uint32_t hx_facts_record(const struct hangdx_diagnosis *d, uint32_t file,
			 uint64_t line, int kind);
int32_t hx_facts_max_rank(const struct hangdx_facts *f);
/* Files phase 2 did not read again, and why (fetch.c). */
#define HX_NOTFETCHED_MAX 8
struct hx_notfetched {
	char line[HX_NOTFETCHED_MAX][600];
	size_t n, total;
};
/* The --cores the facts were made with (0: none), and the record ceiling
 * of a node that cut (0: none cut). */
unsigned hx_facts_cores(const struct hangdx_facts *f);
size_t hx_facts_cut(const struct hangdx_facts *f);
/* The records the nodes that cut kept, summed over the facts files (0:
 * none said): the nodes' cut, which the records of a diagnosis from facts
 * (the facts' records and those read again) do not count. */
size_t hx_facts_cut_kept(const struct hangdx_facts *f);
/* The record ceiling that cut d's evidence (a node's, from its facts) and
 * the records kept under it (the nodes' own count when the facts say it). */
size_t hx_cut_ceiling(const struct hangdx_diagnosis *d);
size_t hx_cut_kept(const struct hangdx_diagnosis *d);
/* The reading options phase 2 reads files again with (the caller's). */
void hx_facts_ingest_opts(const struct hangdx_facts *f,
			  struct hangdx_ingest_opts *o);
/* The i-th file of a rank's fact (borrowed), NULL past its last. */
const char *hx_facts_file(const struct hangdx_facts *f,
			  const struct hx_rankfact *r, uint32_t i);
const struct hangdx_evidence *hx_facts_evidence(const struct hangdx_facts *f);
struct hangdx_evidence *hx_facts_evidence_mut(struct hangdx_facts *f);
/* hangdx_diagnose, with f's rank facts standing in for the devices of the
 * ranks not set in fetched[0..nfetched) (f NULL: none). */
int hx_diagnose_with(const struct hangdx_evidence *ev,
		     const struct hangdx_diagnose_opts *opts,
		     const struct hangdx_facts *f, const uint8_t *fetched,
		     size_t nfetched, struct hangdx_diagnosis **out);
/* rankfacts.c: the rank facts of d->facts_src bound to the ranks not
 * read in full, and given to the analysis after each of its steps */
int hx_rf_bind(struct hangdx_diagnosis *d);
void hx_rf_after_collect(struct hangdx_diagnosis *d);
void hx_rf_after_kernels(struct hangdx_diagnosis *d);
void hx_rf_after_detect(struct hangdx_diagnosis *d);
static inline const struct hx_rankfact *hx_rf(const struct hangdx_diagnosis *d,
					      int64_t rank)
{
	return d->rf && rank >= 0 && (uint64_t)rank < d->nranks
	       ? d->rf[rank] : NULL;
}

/* fetch.c: the ranks' files read again for phase 2 (twophase.c).  A
 * file path -> its summary's index in ev; the summary of path p there. */
int hx_fetch_index_files(const struct hangdx_evidence *ev, struct hx_map *m);
const struct hx_filesum *hx_fetch_file_of(const struct hangdx_evidence *ev,
					  const struct hx_map *m, const char *p);
/* Every file of the rank's facts can be read again here (else each file
 * refused is said in nf, when given). */
bool hx_fetch_readable(const struct hangdx_facts *f, const struct hx_map *fidx,
		       int32_t rank, struct hx_notfetched *nf);
void hx_fetch_refused(struct hx_notfetched *nf, int32_t rank, const char *p,
		      const char *why);
/* The ranks' files read again into `into` (what cannot be, said in nf). */
int hx_fetch_local(const struct hangdx_facts *f, struct hx_notfetched *nf,
		   const int32_t *ranks, size_t n, struct hangdx_evidence *into);

/* facts.c */
int hx_facts_collect(struct hangdx_diagnosis *d);
/* The clock rank's lines are stamped by: the server its communicator
 * creation names, else its node; NULL unknown. */
const char *hx_rank_clock(const struct hangdx_diagnosis *d, int32_t rank);
/* timing.c: the processes of earlier runs or earlier processes leave
 * d->order, cut lines are marked untimed, each in d->left; then the
 * notes that say so. */
int hx_timing_exclude(struct hangdx_diagnosis *d);
int hx_timing_notes(struct hangdx_diagnosis *d);
const char *hx_leftout_why_name(int why);
const struct hx_field *hx_df(const struct hangdx_diagnosis *d, uint32_t rec,
			     int key);
int64_t hx_dnum(const struct hangdx_diagnosis *d, uint32_t rec, int key,
		int64_t dflt);
const char *hx_dstr(const struct hangdx_diagnosis *d, uint32_t rec, int key);
/* Record rec's remote rank is this rank's own: HCCL's "remote
 * rank:[local]" or EI0002's all-ones "4294967295" (its notify is
 * recorded here). */
bool hx_remote_local(const struct hangdx_diagnosis *d, uint32_t rec);
/* "rank 3", or "rank ? (process P on NODE)" for a pseudo rank; where a
 * pseudo rank's evidence comes from ("process P on NODE", "file F"). */
void hx_rank_where(const struct hangdx_diagnosis *d, int64_t r, char *buf,
		   size_t n);
void hx_rank_label(const struct hangdx_diagnosis *d, int64_t r, char *buf,
		   size_t n);
int32_t hx_drank(const struct hangdx_diagnosis *d, uint32_t rec);
/* Where a record was written: its file and line, or for a line of a
 * pasted grep output, the file and the line grep named ("plog/plog-1769_
 * 20260815015103482.log:19", not "paste.txt:3"). */
void hx_dcite(const struct hangdx_diagnosis *d, uint32_t rec,
	      const char **path, uint64_t *line);
/* "file:line" of a record as hx_dcite gives it. */
void hx_dwhere(const struct hangdx_diagnosis *d, uint32_t rec, char *buf,
	       size_t n);

void hx_signals_collect(struct hangdx_diagnosis *d);
const char *hx_rec_code(const struct hangdx_diagnosis *d, uint32_t rec);
/* A framework's line that an HCCL call returned a code ("HCCL function
 * error: CALL, error code is N"); and that call one that creates a
 * communicator (hcclCommInit..., HcclGetRootInfo). */
bool hx_rec_hccl_api(const struct hangdx_diagnosis *d, uint32_t rec);
bool hx_rec_hccl_init(const struct hangdx_diagnosis *d, uint32_t rec);
/* A record of an SDMA copy that ran into an exception (EI0012, the
 * runtime's "fftsplus sdma error", an SDMA SQE's exception): a page-table
 * miss as often as a link; and a record that is HCCL's host "Task run
 * failed" report of such an exception of the same process within
 * HX_WAIT_TIE_US after it (a host-mode block says "[Timeout]" whatever
 * failed), not a wait that ran out. */
bool hx_rec_sdma_exception(const struct hangdx_diagnosis *d, uint32_t rec);
/* A record whose text is torch.distributed's store in its own words (the
 * DistStoreError it raises, the TCPStore it names). */
bool hx_rec_store_text(const struct hangdx_diagnosis *d, uint32_t rec);
/* What SDMA fault a link record is, if any: 2 an FFTS+ SDMA error
 * (507049, "fftsplus sdma"), 1 another DMA fault (the runtime's
 * sdma_error, 507013, a text that says "sdma", an SDMA copy's exception
 * above), 0 none.  The one place the SDMA words are looked for. */
int hx_rec_sdma_fault(const struct hangdx_diagnosis *d, uint32_t rec);
bool hx_rec_sdma_report(const struct hangdx_diagnosis *d, uint32_t sdma,
			uint32_t rec);
/* The row a record's code names (its numeric code, else its code). */
const struct hx_vocab *hx_rec_row(const struct hangdx_diagnosis *d,
				  uint32_t rec);
/* The runtime's report of an AICPU task's exception without a code of
 * its own: 507018, "[aicpu exception]", the device's "during AICPU
 * execution", the kernel's "Aicpu kernel execute failed" (not HCCL's). */
bool hx_rec_aicpu_exception(const struct hangdx_diagnosis *d, uint32_t rec);
/* The record nearest rec (the same file, within HX_EXPLAIN_LINES lines)
 * that names both a stream and a task: the task the lines around a
 * failure name when its own line names none; HX_NOREC if none. */
uint32_t hx_rec_task_near(const struct hangdx_diagnosis *d, uint32_t rec);
/* An id (key: HX_F_STREAM, HX_F_TASK, HX_F_NOTIFY_RT, HX_F_REMOTE_RANK)
 * rec does not name, from the records around it: the same file, within
 * HX_EXPLAIN_LINES lines, the same process when both name one, and for a
 * task or notify the stream `stream` when it is not -1 (the record's own
 * stream).  -1 when none names it or two name it differently: an id is
 * never guessed. */
int64_t hx_rec_id_near(const struct hangdx_diagnosis *d, uint32_t rec,
		       int key, int64_t stream);
/* A status that a transfer engine's call returns to its caller
 * (LLM-DataDist's and ADXL's codes: each has a timeout code of its own,
 * so any other code of theirs did not run out of time). */
bool hx_row_returned(const struct hx_vocab *row);

/* snapshot.c */
int hx_snapshot_build(struct hangdx_diagnosis *d);
/*
 * The residency rule's configuration (hx_kernel_resident) for the HCCL
 * kernels of rank, from what its logs echo: retry on when
 * HCCL_OP_RETRY_ENABLE turns it on at some level (the logs do not say
 * which communicators span servers), unknown_retry when it is not echoed;
 * the mode of HCCL_OP_EXPANSION_MODE, AI_CPU when not echoed (the default
 * of Atlas A3, the only product with op retry).  Situation fields zero.
 */
void hx_snap_kcond(const struct hangdx_diagnosis *d, uint32_t rank,
		   bool unknown_retry, struct hx_kcond *c);
/* Do rank's kernels, once expanded, keep their cores until their main
 * streams drain, by the rule and what its logs echo (a retry setting not
 * echoed counts as off)? */
bool hx_snap_kernels_stay(const struct hangdx_diagnosis *d, uint32_t rank);
/* The AICPU cores of rank's device: its own aicpuCoreNum when it logged
 * one (and --cores gave none), else --cores or the product's count,
 * widened by a core id its lines name past it; d->cores for a rank out
 * of range or not yet sized. */
unsigned hx_rank_cores(const struct hangdx_diagnosis *d, int64_t rank);
/* Is the cycle in rank's own state proven from its own evidence?  The
 * root's is the proof shown (d->proven); another rank's holds when the
 * proof's common inputs were seen and its own pool's holders and capacity
 * are in its logs (no kernel inferred, no pool widened past its count).
 * False for a rank with no cycle of its own. */
bool hx_rank_proven(const struct hangdx_diagnosis *d, uint32_t rank);

/* roots.c: the roots among many ranks */
void hx_rank_add_peer(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
		      int64_t peer);
int hx_roots_local(struct hangdx_diagnosis *d);
uint32_t hx_roots_nlocal(const struct hangdx_diagnosis *d);
int hx_roots_find(struct hangdx_diagnosis *d);
bool hx_roots_tag_states(const struct hangdx_diagnosis *d);
void hx_roots_state(struct hx_rankinfo *ri);
int hx_roots_groups(struct hangdx_diagnosis *d);

/* verdict.c */
/* HCCL_OP_RETRY_ENABLE's value turns retry on at some level. */
bool hx_retry_env_on(const char *env);
int hx_verdict(struct hangdx_diagnosis *d);
/* Snapshot stream sid is stuck at its head on an event wait whose chain
 * stays on its rank and ends at an AICPU task at its stream's head: its
 * rank's own tasks hold the hang (an event-wait chain's root). */
bool hx_event_root(const struct hangdx_diagnosis *d, uint32_t sid);
/* The sentence of a partial report (d->partial), translated, into buf. */
void hx_partial_text(const struct hangdx_diagnosis *d, char *buf, size_t n);
int hx_dlist_add(struct hangdx_diagnosis *d, const char ***v, size_t *n,
		 size_t *cap, const char *fmt, ...) HX_PRINTF(5, 6);
int hx_hop_add(struct hangdx_diagnosis *d, int32_t rank, uint32_t rec,
	       const char *why, const char *fmt, ...) HX_PRINTF(5, 6);

#endif
