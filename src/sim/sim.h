/*
 * sim.h - internals of the discrete-event simulator.  sim.c holds the
 * engine (event heap, streams, tasks, the AICPU pool), hccl.c the HCCL op
 * sequence of runtime-model.md §5-§6 (host issue, kernel expansion,
 * transports), fault.c faults, errors, heartbeats and the stop cascade,
 * out.c the truth, trace and summary.  One struct sim per run.
 */
#ifndef HX_SIM_H
#define HX_SIM_H

#include "../model/state.h"
#include "logrec.h"

enum sim_ev {
	EV_HOST,        /* a = rank: the host issues its next call */
	EV_DONE,        /* a = task: a running task's duration elapsed */
	EV_LAND,        /* a = notify, b = tag: a remote record arrives */
	EV_TIMEOUT,     /* a = task, b = arm generation */
	EV_EXPANDED,    /* a = kernel task: expansion time elapsed */
	EV_FAULT,       /* a = fault index */
	EV_LINKFAIL,    /* a = copy task: error CQE */
	EV_RETRY,       /* a = copy task: retried after HoldTime */
	EV_LOST,        /* a = dead rank: heartbeat LOST after 30 s */
	EV_STUCK,       /* a = rank: heartbeat STUCK check (passive) */
	EV_STATUS,      /* a = kernel task, b = 1 while its SQ is full: 30 s
			 * status line (passive) */
	EV_GATE         /* a sequence step is next: do it if it was held */
};

struct sim_event {
	uint64_t t;
	uint64_t seq;
	uint32_t type;
	uint32_t a;
	uint64_t b;
};

/* One entry of the flattened SPMD program. */
struct sim_entry {
	uint32_t step;
	int32_t instance;   /* communicator instance for "each" expansions */
};

enum host_state { HOST_RUN, HOST_WAIT_SQ, HOST_WAIT_SYNC, HOST_DONE,
		  HOST_DEAD, HOST_GATED };

struct sim_host {
	uint8_t state;
	uint32_t pc;           /* next entry of the flat program */
	int32_t wait_stream;   /* SQ full / sync target; -2 = all streams */
	uint32_t ncolls;       /* collectives issued so far */
	uint32_t ncalls;       /* runtime calls made so far (not host_sleep) */
	int32_t deferred;      /* ORDER mismatch: entry to issue after the swap */
	int32_t skip;          /* ORDER mismatch: entry already issued early */
	uint64_t last_progress;/* time of the last HCCL task completion */
	uint32_t stuck_checks;
	bool stuck_logged;
	bool dumped;           /* the TS dump of every stream was written */
	uint64_t pending;      /* tasks appended and not yet ended */
	double slow;           /* duration factor */
};

/* One issued collective on one rank: what its kernel expands. */
struct sim_op {
	uint8_t coll, dtype;
	uint64_t bytes;
	int32_t peer, root;      /* ranks in the communicator */
	uint64_t tag;            /* op identity carried by its handshakes */
	uint32_t rank, comm, op;
	uint32_t ustream;        /* the user stream it was issued on */
	const char *name;
};

struct sim_error {         /* one error the run raised */
	uint64_t t;
	int32_t rank, peer;
	uint32_t stream_id, task_id;
	const char *kind;      /* "EI0002", "EI0012", "EI0013", ... (static) */
};

struct sim_tmap_slot {     /* transport notify map entry */
	uint64_t key;
	int32_t notify;        /* removed once both ends have looked it up */
};

struct sim_grant {         /* a scheduled core grant, resolved */
	uint8_t kernel;
	int32_t obj;           /* communicator instance or user stream */
	uint32_t n;            /* op index or task position */
};

struct sim_seq {           /* a sequence step, resolved */
	uint64_t key;          /* SEQ_CALL | rank << 32 | n, or stream << 32 | n */
};

/* What a sequence held back, per task. */
enum { G_NONE, G_START, G_DONE, G_EXPAND };

struct sim_waitlist {      /* tasks blocked on one (rank, event) */
	uint32_t *v;
	size_t n, cap;
};

struct sim {
	struct hangdx_ctx *ctx;
	const struct hangdx_scenario *sc;
	struct hx_state st;
	int err;               /* first internal error (ENOMEM, LIMIT) */

	struct sim_event *heap;
	size_t nheap, capheap;
	uint64_t now, seq;
	uint64_t active;       /* events in the heap that are not passive */
	uint64_t ntimeouts;    /* EV_TIMEOUT events in the heap */
	uint32_t *ready;       /* streams to advance at the current time */
	size_t nready, capready, readyhead;
	uint8_t *inready;      /* per stream */
	uint64_t nevents, ntasks_done;

	struct sim_entry *prog;
	size_t nprog, capprog;
	struct sim_host *host;
	uint64_t rng;          /* grant order (random) */
	uint64_t drng;         /* durations given as ranges */
	uint64_t *fault_at;    /* each fault's time, drawn from its range */
	bool *fault_done;      /* a link fault consumed */
	bool *fault_armed;     /* a link fault's time has come */
	uint32_t *rs_first;    /* streams of rank r: rs_list[rs_first[r]..] */
	uint32_t *rs_list;

	struct sim_op *ops;
	size_t nops, capops;
	struct sim_tmap_slot *tmap;
	size_t ntmap, captmap;
	struct sim_waitlist *evwait;   /* nranks * nevents */
	struct sim_grant *sched;   /* scheduled grants, rank by rank */
	uint32_t *sched_first; /* rank r's: [sched_first[r], sched_first[r+1]) */
	struct sim_seq *order; /* the sequence (witness replay), in order */
	uint32_t nseq, seq_next;
	uint32_t *seq_slot;    /* hash of keys -> index + 1 */
	size_t seq_nslot;
	uint8_t *tgate;        /* per task: G_* held back */
	size_t captgate;
	uint32_t *held;        /* tasks outside the sequence held until its end */
	size_t nheld, capheld;
	int32_t *resident;     /* nranks * ncomms: kernel task waiting drain */
	int32_t *expanding;    /* nranks * ncomms: kernel blocked on a full SQ */

	/* outcome */
	bool completed;
	uint64_t block_time;   /* UINT64_MAX until the system stops moving */
	bool have_error;
	uint64_t error_time;
	int32_t error_rank;
	int32_t error_task;
	char error_text[256];
	uint64_t stop_at;
	struct sim_error *errors;
	size_t nerrors, caperrors;
	struct hx_buf error_json;   /* the first error's task, when it failed */
	struct hx_buf block_json;   /* truth's cycle and blocked tasks, at block */
	struct hx_buf block_dot;    /* the wait-for graph at block, as DOT */
	char cycle_text[1024];
	struct hx_wgraph wg;   /* wait-for graph at block time */
	bool have_graph;
	uint32_t ndone_ranks;

	/* log records */
	struct hx_logrec *recs;
	size_t nrecs, caprecs;
	struct hx_lr_stream *lrs;
	size_t nlrs, caplrs;
	struct hx_lr_pos *lpos;
	size_t nlpos, caplpos;
	char **trails;         /* owned trail strings */
	size_t ntrails, captrails;
	bool want_logs;
	bool want_dot;
};

#define SIM_NEVER UINT64_MAX

/* engine (sim.c) */
void sim_push(struct sim *s, uint64_t t, uint32_t type, uint32_t a,
	      uint64_t b);
void sim_kick(struct sim *s, uint32_t stream);
void sim_complete(struct sim *s, uint32_t task);
void sim_fail_task(struct sim *s, uint32_t task, uint8_t state);
int sim_append(struct sim *s, uint32_t stream, const struct hx_task *proto,
	       uint32_t *out);
void sim_notify_set(struct sim *s, int32_t notify, uint64_t tag,
		    int32_t from);
void sim_pool_release(struct sim *s, uint32_t task);
void sim_pool_remove_waiter(struct sim *s, uint32_t task);
bool sim_sq_room(const struct sim *s, uint32_t stream, uint32_t n);
uint64_t sim_rand(struct sim *s);
/* A duration from [lo, hi], drawn from the run's seed (lo when equal:
 * single values use no randomness). */
uint64_t sim_dur(struct sim *s, uint64_t lo, uint64_t hi);
void sim_oom(struct sim *s, int err);
double sim_slow(const struct sim *s, uint32_t rank);

const struct hx_fault *sim_mismatch(const struct sim *s, uint32_t rank,
				    uint32_t ncoll);

/* HCCL (hccl.c) */
int sim_hccl_setup(struct sim *s);
/* Appends the host side of a collective; returns false when an SQ is full
 * (nothing appended; *full names the stream to wait for). */
bool sim_hccl_issue(struct sim *s, uint32_t rank, const struct hx_step *step,
		    uint32_t comm, uint32_t *full);
void sim_hccl_kernel_start(struct sim *s, uint32_t task);
void sim_hccl_arm_launch(struct sim *s, uint32_t task);
void sim_hccl_expanded(struct sim *s, uint32_t task);
/* Sequence (witness replay): may task do what (G_START, G_DONE, G_EXPAND)
 * now?  If not, it is held and done when its turn comes.  Without a
 * sequence always true.  sim_gate_pass: task's step has happened. */
bool sim_gate(struct sim *s, uint32_t task, uint8_t what);
void sim_gate_pass(struct sim *s, uint32_t task);
void sim_hccl_stream_moved(struct sim *s, uint32_t stream);
int32_t sim_tnotify(struct sim *s, uint32_t comm, uint32_t dst, uint32_t src,
		    uint32_t op, uint32_t round, uint32_t ch);
uint64_t sim_op_tag(const struct sim *s, uint32_t comm, uint32_t op,
		    enum hx_coll coll, uint64_t bytes, enum hx_dtype dt);

/* faults, errors, heartbeats (fault.c) */
void sim_fault_fire(struct sim *s, uint32_t idx);
void sim_timeout(struct sim *s, uint32_t task);
bool sim_copy_start(struct sim *s, uint32_t task);
void sim_copy_failed(struct sim *s, uint32_t task);
void sim_copy_retry(struct sim *s, uint32_t task);
void sim_heartbeat_lost(struct sim *s, uint32_t dead);
void sim_stuck_check(struct sim *s, uint32_t rank);
void sim_status(struct sim *s, uint32_t task, uint32_t sqfull);
uint32_t sim_hccl_expand_room(struct sim *s, uint32_t task);
void sim_error(struct sim *s, uint32_t rank, int32_t task, const char *kind,
	       const char *text);
void sim_stop_device(struct sim *s, uint32_t rank);
void sim_kill_rank(struct sim *s, uint32_t rank);

/* records (out.c) */
struct hx_logrec *sim_rec(struct sim *s, uint8_t kind, uint32_t rank);
void sim_rec_stream(struct sim *s, struct hx_logrec *r, uint32_t stream,
		    uint64_t wait_ns);
void sim_rec_task(struct sim *s, struct hx_logrec *r, uint32_t task);
const char *sim_trail(struct sim *s, uint32_t rank, uint32_t comm,
		      uint32_t op);
int sim_write_truth(struct sim *s, const char *path);
void sim_snapshot_block(struct sim *s);
void sim_snapshot_error(struct sim *s, uint32_t task);
int sim_write_trace(struct sim *s, const char *path);
int sim_write_dot(struct sim *s, const char *path);
void sim_summarize(struct sim *s, struct hangdx_sim_summary *sum);

#endif
