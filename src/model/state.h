/*
 * state.h - the dynamic half of the shared runtime model: devices (one per
 * rank), streams with head and tail, tasks, notifies, events, the AICPU
 * core pool and the HCCL communicator resources of runtime-model.md §3.
 * The simulator runs a state forward; ingest (later) rebuilds a snapshot of
 * one from logs; waitgraph.c builds the wait-for graph of either.
 * All arrays are owned by the state and grow with ceilings.
 */
#ifndef HX_STATE_H
#define HX_STATE_H

#include "model.h"

enum hx_task_kind {
	HX_T_AICORE,
	HX_T_AICPU,         /* ordinary AICPU op: needs a core */
	HX_T_KERNEL,        /* HCCL expansion kernel: needs a core */
	HX_T_NOTIFY_RECORD, /* peer >= 0: records the peer's notify */
	HX_T_NOTIFY_WAIT,
	HX_T_EVENT_RECORD,
	HX_T_EVENT_WAIT,
	HX_T_COPY,          /* SDMA (same node) or RDMA copy to peer */
	HX_T_KIND_COUNT
};

enum hx_task_state {
	HX_TS_QUEUED,   /* in the SQ, not at head yet */
	HX_TS_WAITING,  /* at head, blocked (notify, event, core) */
	HX_TS_RUNNING,  /* started, holds head (and a core for kernels) */
	HX_TS_DONE,
	HX_TS_FAILED,   /* ended in error (timeout, error CQE) */
	HX_TS_ABORTED   /* discarded by a stream stop or a process death */
};

enum hx_stream_role {
	HX_SR_USER,     /* a stream the program names (compute, comm...) */
	HX_SR_KERNEL,   /* K_c: receives HCCL kernels, stop mode */
	HX_SR_ORDER,    /* Ord: order-launch stream, stop mode */
	HX_SR_MAIN,     /* M_c: device main stream of a communicator */
	HX_SR_SLAVE     /* S_c[i] */
};

/* Why a notify exists (for names in logs, graphs and explanations). */
enum hx_notify_role {
	HX_NR_USER,     /* named in the program */
	HX_NR_H0, HX_NR_H1, HX_NR_O0, HX_NR_O1,
	HX_NR_MAIN2SUB, HX_NR_SUB2MAIN,
	HX_NR_PEER      /* transport notify written by a peer (TxAck/RxAck) */
};

/* How a notify rebuilt from logs without its id was tied to its record
 * (the analyzer's; a notify the model made has its id). */
enum hx_notify_link {
	HX_NL_ID,       /* by its id, or made by the model */
	HX_NL_INFERRED, /* to the likeliest stream: an assumption */
	HX_NL_NAMED,    /* to the launching stream a log line names */
	HX_NL_ALONE     /* to the one stream of the rank that can hold it */
};

struct hx_task {
	uint8_t kind;            /* enum hx_task_kind */
	uint8_t state;           /* enum hx_task_state */
	uint8_t rdma;            /* COPY over RoCE */
	uint8_t retried;         /* a COPY that was retried */
	uint32_t stream;         /* index in state.streams */
	uint32_t pos;            /* position in its stream (0, 1, ...) */
	uint32_t task_id;        /* id as logged: 16 bits, wraps */
	int32_t notify;          /* NOTIFY_*: index in state.notifies */
	int32_t event;           /* EVENT_*: scenario event index */
	int32_t dep;             /* EVENT_WAIT: the record task it waits for, -1 none */
	int32_t comm;            /* communicator instance, -1 none */
	uint32_t op;             /* op index in the communicator */
	int32_t peer;            /* remote rank of a handshake or copy, -1 none */
	int32_t core;            /* core held while running, -1 none */
	uint64_t tag;            /* handshake identity (op signature) */
	uint64_t dur_ns;
	uint64_t timeout_ns;     /* 0 = none */
	uint64_t t_ready;        /* reached head */
	uint64_t t_start;        /* began running (after a core grant) */
	uint64_t t_end;
	const char *name;        /* op name (borrowed from the scenario) */
	uint32_t end_pos;        /* KERNEL: M_c tail after its expansion */
	uint32_t kstate;         /* KERNEL: sim-private progress */
	uint32_t xref;           /* KERNEL/COPY: owner's op descriptor */
	uint32_t arm;            /* timeout generation */
};

struct hx_stream {
	uint32_t rank;
	uint8_t role;            /* enum hx_stream_role */
	uint8_t stopped;         /* stop-on-failure fired or process died */
	uint8_t stop_mode;       /* created in STOP_ON_FAILURE mode */
	int32_t comm;            /* owning communicator instance, -1 none */
	int32_t user;            /* scenario stream index for USER streams */
	uint32_t id;             /* runtime stream id as logged */
	uint32_t sq_id;          /* SQ id as logged (differs from id) */
	uint32_t *q;             /* task indices, position order */
	size_t n, cap;           /* n = tail position */
	uint32_t head;           /* position of the task being executed */
	uint32_t next_task_id;
	uint32_t depth;          /* SQ depth */
};

struct hx_notify {
	uint32_t rank;           /* device that owns (waits on) it */
	uint8_t role;            /* enum hx_notify_role */
	uint8_t value;           /* latched record */
	uint8_t link;            /* enum hx_notify_link */
	int32_t comm;
	int32_t peer;            /* PEER: the rank that records it */
	int32_t user;            /* USER: scenario notify index */
	uint32_t rt_id;          /* runtime decimal notify_id */
	uint64_t hccl_id;        /* HCCL 64-bit id: local rank << 32 | n */
	uint64_t tag;            /* tag of the latched record */
	int32_t waiter;          /* task blocked on it, -1 none */
};

struct hx_pool {
	uint32_t cap;
	uint32_t busy;
	int32_t *holder;         /* per core: task index or -1 */
	uint32_t *wait;          /* FIFO of waiting task indices */
	size_t nwait, capwait;
	uint32_t grants;         /* grants so far (schedule replay index) */
};

/* One communicator instance as seen from one rank. */
struct hx_comm_rank {
	int32_t me;              /* rank in the communicator, -1 not a member */
	uint32_t kstream, mstream, ordstream;
	uint32_t sstream[8];
	int32_t h0, h1, o0, o1, m2s, s2m;
	uint32_t ops_issued;     /* host side op index */
	uint32_t ops_done;
	bool retry;
	uint32_t exec_timeout_s;
};

struct hx_comm {
	char name[64];
	uint32_t group;
	uint32_t *members;       /* global ranks, in communicator rank order */
	uint32_t nmembers;
	char identifier[96];     /* as printed in tag[...] / group:[...] */
};

struct hx_device {
	uint32_t rank;
	uint32_t node;
	uint32_t device_id;      /* logical device id on the node */
	uint32_t host_pid, dev_pid;
	bool alive;
	struct hx_pool pool;
	uint32_t *user_stream;   /* scenario stream index -> state stream */
	int32_t *user_notify;    /* scenario notify index -> state notify */
	int32_t *event_last;     /* scenario event -> last record task, -1 */
	struct hx_comm_rank *comm; /* per communicator instance */
	uint32_t next_stream_id;
	uint32_t next_notify_id;
	uint32_t ncolls;         /* collectives issued (for mismatch faults) */
};

struct hx_state {
	struct hangdx_ctx *ctx;
	const struct hangdx_scenario *sc;
	uint32_t nranks, ncomms;
	struct hx_device *dev;
	struct {                 /* the devices' tables, one block each */
		int32_t *holder, *user_notify, *event_last;
		uint32_t *user_stream;
		struct hx_comm_rank *comm;
	} slab;
	struct hx_comm *comms;
	struct hx_stream *streams;
	size_t nstreams, capstreams;
	struct hx_task *tasks;
	size_t ntasks, captasks;
	struct hx_notify *notifies;
	size_t nnotifies, capnotifies;
};

int hx_state_init(struct hx_state *st, struct hangdx_ctx *ctx,
		  const struct hangdx_scenario *sc);
void hx_state_free(struct hx_state *st);
int hx_state_add_stream(struct hx_state *st, uint32_t rank, uint8_t role,
			int32_t comm, uint32_t *out);
int hx_state_add_notify(struct hx_state *st, uint32_t rank, uint8_t role,
			int32_t comm, int32_t peer, int32_t *out);
/* Append a task at the stream's tail; HANGDX_ELIMIT past the ceiling.
 * Does not check the SQ depth (the caller does). */
int hx_state_append(struct hx_state *st, uint32_t stream,
		    const struct hx_task *proto, uint32_t *out);
/* The task at a stream's head, or -1 when the stream is empty. */
long hx_state_head(const struct hx_state *st, uint32_t stream);

/* Human names used in logs, graphs and explanations. */
const char *hx_task_kind_name(enum hx_task_kind k);   /* "NOTIFY_WAIT" */
const char *hx_task_state_name(enum hx_task_state s);
/* "comm", "K_c3", "M_c3", "S0_c3", "Ord" */
void hx_stream_label(const struct hx_state *st, uint32_t stream, char *buf,
		     size_t n);
/* "H0_c3", "E", "rx(c3,r1<-r0,op2,round0)" */
void hx_notify_label(const struct hx_state *st, int32_t notify, char *buf,
		     size_t n);
/* "rank0 M_c3 #5 NOTIFY_WAIT(H0_c3)" */
void hx_task_label(const struct hx_state *st, uint32_t task, char *buf,
		   size_t n);

/* ---- residency of an HCCL AICPU kernel (resident.c) ---- */

/*
 * Everything that decides whether an HCCL AICPU kernel holding a core
 * keeps it.  retry and mode are the configuration (the simulator and the
 * checker take them from the model, hx_kcond_of; the snapshot from what
 * the logs echo); the rest is the kernel's situation.
 */
struct hx_kcond {
	bool retry;        /* op retry on for the kernel's communicator */
	uint8_t mode;      /* enum hx_mode of its rank */
	bool expanded;     /* every SQE of its op is written (M_c, S0) */
	bool sq_full;      /* not expanded: the SQEs do not fit in the SQ */
	bool drained;      /* expanded: M_c's head is past the op's last SQE */
};

enum hx_kres {          /* why the kernel keeps its core, or leaves it */
	HX_KRES_EXPANDING, /* keeps: still writing its SQEs (§6.1, LAUNCH) */
	HX_KRES_SQ_FULL,   /* keeps: waits for SQ room, retry on or off (§3.2, §8) */
	HX_KRES_RETRY,     /* keeps: retry on, polls until M_c drains (§6.2, E1) */
	HX_KRES_DRAINED,   /* leaves: retry on and M_c drained (§6.2) */
	HX_KRES_NO_RETRY   /* leaves right after expansion: retry off, or
			    * inactive outside AI_CPU mode (§6.2, §6) */
};

/*
 * The rule (runtime-model.md §6.2): a kernel keeps its core while it has
 * not written its op's SQEs (expanding, or waiting for room in a full SQ,
 * whatever the retry setting); once they are written it returns at once
 * unless op retry is active (retry on and AI_CPU mode), in which case it
 * stays until M_c drains.  Returns true when the kernel keeps its core;
 * *why (may be NULL) gets the reason.  Only HX_KRES_RETRY waits for M_c to
 * drain (the E1 edge of the wait-for graph, a task's end_pos).
 */
bool hx_kernel_resident(const struct hx_kcond *c, enum hx_kres *why);
const char *hx_kres_name(enum hx_kres r);      /* "retry", "sq-full" */
/* The model's configuration for communicator comm on rank (its retry as
 * hx_retry_active decided it, the rank's mode); situation fields zero. */
void hx_kcond_of(const struct hx_state *st, uint32_t rank, uint32_t comm,
		 struct hx_kcond *c);

/* ---- wait-for graph (waitgraph.c) ---- */

enum hx_wnode_kind {
	HX_WN_TASK,     /* a task (blocked, running or queued) */
	HX_WN_POOL,     /* an AICPU pool: an OR over its holders */
	HX_WN_LOST,     /* a dead rank: nothing will ever come */
	HX_WN_NEVER     /* a record no queued or future task makes (id: notify) */
};

enum hx_wedge_why {
	HX_WE_STREAM,   /* E3: stream order, waits for the task ahead */
	HX_WE_NOTIFY,   /* E2: waits for the task that records the notify */
	HX_WE_REMOTE,   /* E6: a peer rank's record (RxAck <- TxAck) */
	HX_WE_EVENT,    /* E4: waits for the recording stream to pass */
	HX_WE_CORE,     /* E5: waits for a free AICPU core */
	HX_WE_HOLDS,    /* pool -> a task holding a core */
	HX_WE_DRAIN,    /* E1: resident kernel waits for M_c to drain */
	HX_WE_ORDER,    /* E7: order launch */
	HX_WE_PEER_DEAD,/* waits for a record from a lost rank */
	HX_WE_NEVER     /* waits for a record no queued task will make */
};

struct hx_wnode {
	uint8_t kind;
	uint32_t id;    /* task index, rank (POOL, LOST) */
};

struct hx_wedge {
	uint32_t from, to;   /* node indices */
	uint8_t why;
	int32_t obj;         /* notify / event / core count involved */
};

struct hx_wgraph {
	struct hangdx_ctx *ctx;
	struct hx_wnode *nodes;
	size_t nnodes, capnodes;
	struct hx_wedge *edges;
	size_t nedges, capedges;
	uint32_t *cycle;     /* node indices of one minimal cycle */
	size_t ncycle;
	uint32_t *lead;      /* after hx_wgraph_anchor: the path to the cycle */
	size_t nlead;
	uint8_t *released;   /* per node, after detection */
	size_t ndead;        /* nodes never released */
	bool starts_cut;     /* the cycle search stopped at its start limit */
};

/* Build the wait-for graph of every blocked task of the state. */
int hx_wgraph_build(struct hx_wgraph *g, const struct hx_state *st);
/*
 * Deadlock detection sound for AND waits and the OR wait of a multi-unit
 * pool (graph reduction in the style of Holt): a node is released if it is
 * not blocked, a task if all its out-edges lead to released nodes, a pool
 * if any holder is released.  What is never released is deadlocked
 * (g->ndead nodes); among it, a shortest cycle is kept in g->cycle.
 * HANGDX_ENOMEM (nothing found must not read as no deadlock), or OK.
 */
int hx_wgraph_detect(struct hx_wgraph *g, const struct hx_state *st);
/*
 * Begin the chain at node start (the first error's task): when start is
 * never released, g->cycle becomes a shortest cycle through start or,
 * when start only leads to one, the cycle nearest to it (begun where the
 * path enters it) with that path in g->lead.  Otherwise nothing changes.
 */
int hx_wgraph_anchor(struct hx_wgraph *g, uint32_t start);
/* The node of a task, or -1 (linear: called once per diagnosis). */
int32_t hx_wgraph_task_node(const struct hx_wgraph *g, uint32_t task);
/*
 * After detection: mark[r] = 1 for every rank whose own never-released
 * nodes (its tasks, its AICPU pool) wait for each other in a cycle, using
 * only edges between nodes of that rank.  A rank that is only blocked
 * through another rank is left 0.  mark has st->nranks entries.
 */
int hx_wgraph_local_cycles(const struct hx_wgraph *g, const struct hx_state *st,
			   uint8_t *mark);
const char *hx_wedge_why_name(enum hx_wedge_why w);
void hx_wgraph_free(struct hx_wgraph *g);

#endif
