/*
 * check.h - internals of the static checker (`hangdx check`).  program.c
 * unrolls a scenario through the shared op sequence (src/model/opseq.c)
 * into static stream contents and host entries; explore.c searches the
 * untimed state space breadth first with stubborn sets and rank-rotation
 * symmetry; witness.c replays the path to a stuck state, explains it with
 * the shared wait-for graph and writes the replayable scenario;
 * promela.c exports the same transition system for SPIN.
 *
 * The transition system (docs/CHECKER.md): processes are each rank's host
 * (issues its program one call at a time) and each stream (completes its
 * head task).  A task reaching a stream head that needs an AICPU core
 * takes a free one at once or waits; a release hands the core to any one
 * waiter (one successor per waiter).  Durations are abstracted away: any
 * enabled step may come next.  Timeouts are never taken.
 */
#ifndef HX_CHECK_H
#define HX_CHECK_H

#include "../model/opseq.h"

/* Phase of a stream's head task (pool tasks and kernels). */
enum { PH_NONE = 0, PH_WAIT = 1, PH_RUN = 2, PH_RES = 3 };

/* Conflict flags of the transition that completes a task.  A grab (an
 * arrival: the step puts a core user at a head, which takes a free core
 * or waits) and a release (gives a core back to any one waiter) both
 * conflict with arrivals only: two releases commute (the same waiters end
 * up running), and an arrival taken before a release reaches every state
 * the other order reaches (docs/CHECKER.md). */
#define CK_F_GRAB 1u       /* may put a core user at a head (an arrival) */
#define CK_F_REL 2u        /* may give an AICPU core back */
#define CK_F_POOL (CK_F_GRAB | CK_F_REL)

#define CK_NONE UINT32_MAX

struct ck_task {
	uint8_t kind;          /* enum hx_task_kind */
	uint8_t pool;          /* takes a core when it reaches the head */
	uint8_t flags;         /* CK_F_* of the transition completing it */
	uint8_t kstart;        /* a kernel: records O1 when it starts */
	int32_t notify;        /* notify index (= static state's), -1 */
	uint32_t dep_stream;   /* EVENT_WAIT: stream of its record, CK_NONE */
	uint32_t dep_pos;
	uint32_t kern;         /* KERNEL: index in ck_model.kern */
	uint32_t htask;        /* task index in the static hx_state */
};

struct ck_kern {           /* one HCCL kernel */
	uint32_t kstream, pos; /* where it sits */
	uint32_t mstream, m_end; /* M_c and its tail after the expansion */
	uint32_t sstream, s_end; /* S0 (CK_NONE when not kernel-fed) */
	uint32_t room;         /* SQ slots the expansion needs */
	uint8_t stays;         /* the rule: once expanded, keeps its core
				  until M_c drains (HX_KRES_RETRY) */
	int32_t o1;            /* O1 notify to record at start, -1 */
	struct hx_kcond cond;  /* its configuration, for hx_kernel_resident */
};

enum { FEED_HOST, FEED_KERNEL };

struct ck_stream {
	uint32_t rank;
	uint32_t hstream;      /* stream index in the static hx_state */
	uint8_t role;          /* enum hx_stream_role */
	uint8_t feed;          /* FEED_HOST or FEED_KERNEL */
	uint8_t stays;         /* M_c whose kernels stay until it drains */
	uint32_t len;          /* static length */
	uint32_t base;         /* first task in ck_model.task */
	uint32_t kstream;      /* M/S: its K_c; K: itself */
	uint32_t *pool_from;   /* core users at positions >= p (len + 1) */
	uint32_t grab_last;    /* last head position with CK_F_GRAB, CK_NONE */
	uint32_t rel_last;     /* last head position with CK_F_REL, CK_NONE */
	/* host-fed: tail after host entry bp_entry[i] is bp_tail[i] */
	uint32_t *bp_entry, *bp_tail;
	uint32_t nbp;
	/* K_c: kernels before each position, and the kernels in order */
	uint32_t *kbefore;     /* len + 1 entries */
	uint32_t *kerns;       /* ck_model.kern indices, in stream order */
	uint32_t nkerns;
};

enum { E_APPEND, E_SYNC_STREAM, E_SYNC_ALL };

#define CK_MAX_APP 4
struct ck_entry {          /* one runtime call of a host */
	uint8_t kind;
	uint8_t flags;         /* CK_F_GRAB: may put a core user at a head */
	uint8_t napp, nroom;
	uint32_t sync_stream;
	uint32_t app_stream[CK_MAX_APP], app_from[CK_MAX_APP], app_to[CK_MAX_APP];
	uint32_t room_stream[CK_MAX_APP], room_n[CK_MAX_APP];
	uint32_t step;         /* scenario step, for messages */
	int32_t comm;          /* collective: communicator instance */
};

struct ck_nuse {           /* a stream that records or waits on a notify */
	uint32_t stream;
	uint32_t last;         /* last position doing it */
	uint32_t first;
	uint8_t rec;           /* 1 record, 0 wait */
};

struct ck_notify {
	int32_t bit;           /* explicit value bit, or -1: derived */
	uint8_t o1;            /* an O1 notify (part of the pool object) */
	uint32_t rank;         /* owner */
	uint32_t rec_stream, rec_pos;    /* derived: the one record */
	uint32_t wait_stream, wait_pos;  /* derived: the one wait */
	uint32_t use_first, nuse;        /* in ck_model.use */
};

struct ck_model {
	struct hangdx_ctx *ctx;
	const struct hangdx_scenario *sc;
	struct hx_state st;        /* the whole program unrolled (static) */
	uint32_t nranks, cores, depth;
	bool shares_pool, order_launch;

	struct ck_task *task;
	size_t ntask, captask;
	struct ck_kern *kern;
	size_t nkern, capkern;
	struct ck_stream *stream;  /* rank-major: rank r's are [rs_first[r], rs_first[r+1]) */
	uint32_t nstream;
	uint32_t *rs_first;
	uint32_t *of_hstream;      /* static hx stream -> ck stream */
	struct ck_entry *entry;    /* rank r's are [re_first[r], re_first[r+1]) */
	size_t nentry, capentry;
	uint32_t *re_first;
	uint32_t *host_grab_last;  /* per rank: last entry with CK_F_GRAB, CK_NONE */
	struct ck_notify *notify;  /* = static state's notifies */
	uint32_t nnotify;
	struct ck_nuse *use;
	size_t nuse;
	uint32_t *rank_bits;       /* explicit bits per rank: [rank_bits[r], rank_bits[r+1]) */
	uint32_t nbits;

	/* packed layout: per rank a block of words */
	bool w16;                  /* 16-bit words */
	uint32_t *blk_first;       /* word offset of each rank's block (+1) */
	uint32_t nwords;
	size_t state_bytes;
	bool symmetric;            /* rank rotations are automorphisms */
	unsigned long ignored_faults;

	/* Unbounded-pool abstraction (docs/CHECKER.md): free_pool[r] when
	 * every core user of rank r gives its core back by itself once it
	 * runs (AICPU ops; retry-off kernels whose expansion always finds SQ
	 * room).  With abstract set, such ranks' pools never run out. */
	uint8_t *free_pool;
	uint32_t nfree_pool;        /* of them, ranks where a task could wait */
	bool abstract;
};


/* The working (unpacked) state. */
struct ck_ws {
	uint32_t *pc;
	uint32_t *head;
	uint8_t *ph;
	uint8_t *bit;
	uint32_t *tail;            /* derived */
	uint32_t *busy;            /* derived, per rank */
	uint8_t *slack;            /* derived, per rank: the core users still to
				      come and those holding or waiting fit in
				      the pool (no task will ever wait) */
};

/* Does rank r's pool never make a task wait (abstract search only)? */
static inline bool ck_unbounded(const struct ck_model *m, uint32_t r)
{
	return m->abstract && m->free_pool[r];
}

/* Do rank r's pool steps commute with everything in w: its pool never
 * runs out from w on (slack), or it is abstracted as unbounded? */
static inline bool ck_pool_free(const struct ck_model *m,
				const struct ck_ws *w, uint32_t r)
{
	return w->slack[r] || ck_unbounded(m, r);
}

/* What one transition did, for witness text. */
struct ck_effect {
	int32_t grab_stream;       /* took a core at once */
	int32_t wait_stream;       /* waits for a core */
	int32_t rel_stream;        /* gave a core back */
	int32_t granted;           /* waiter that got the released core */
	int32_t kdone;             /* resident kernel completed inline */
	int32_t grab2, wait2;      /* a second arrival (after kdone) */
	uint32_t nchoices;         /* waiters the release could pick */
};

/* program.c */
int ck_model_build(struct ck_model *m, struct hangdx_ctx *ctx,
		   const struct hangdx_scenario *sc);
void ck_model_free(struct ck_model *m);
/* The residency rule (src/model/resident.c) for kernel k, its op expanded:
 * does it keep its core, M_c drained or not? */
bool ck_kern_keeps(const struct ck_kern *k, bool drained);
static inline const struct ck_task *ck_at(const struct ck_model *m,
					  uint32_t s, uint32_t pos)
{
	return &m->task[m->stream[s].base + pos];
}

/* explore.c: working states and transitions (shared with witness.c) */
int ck_ws_alloc(const struct ck_model *m, struct ck_ws *w);
void ck_ws_free(const struct ck_model *m, struct ck_ws *w);
void ck_ws_copy(const struct ck_model *m, struct ck_ws *dst,
		const struct ck_ws *src);
void ck_ws_init(const struct ck_model *m, struct ck_ws *w);
void ck_unpack(const struct ck_model *m, const void *packed, struct ck_ws *w);
void ck_pack(const struct ck_model *m, const struct ck_ws *w, void *packed);
bool ck_enabled(const struct ck_model *m, const struct ck_ws *w, uint32_t proc);
/* Apply proc's transition; choice names the waiter stream a release
 * grants (CK_NONE: the first).  Fills e if not NULL. */
void ck_apply(const struct ck_model *m, struct ck_ws *w, uint32_t proc,
	      uint32_t choice, struct ck_effect *e);
bool ck_done(const struct ck_model *m, const struct ck_ws *w);
uint8_t ck_value(const struct ck_model *m, const struct ck_ws *w, int32_t n);
/* processes: 0..nranks-1 hosts, then nranks + ck stream index */
static inline uint32_t ck_nproc(const struct ck_model *m)
{
	return m->nranks + m->nstream;
}

/* The search. */
struct ck_result {
	int verdict;               /* enum hangdx_verdict */
	uint64_t states, transitions;
	double seconds;
	uint32_t *path_proc, *path_choice;  /* canonical frame, root first */
	size_t npath;
	uint32_t *path_rot;        /* rotation of the state after each step */
	bool real_frame;           /* path steps are in the real frame */
	bool lockstep;             /* found by the lockstep search */
};
/* lockstep: search only the executions in which every rank of a
 * symmetric program takes the same step (witnesses are real; "safe"
 * there proves nothing about the rest). */
int ck_explore(struct ck_model *m, uint64_t max_states, uint64_t max_memory,
	       bool por, bool symmetry, bool lockstep, struct ck_result *r);
/* The same over the unbounded-pool abstraction of the ranks in
 * m->free_pool: "safe" there is safe for the model; a stuck state there
 * proves nothing (r->verdict -1 without a path). */
int ck_explore_abstract(struct ck_model *m, uint64_t max_states,
			uint64_t max_memory, bool symmetry, struct ck_result *r);
void ck_result_free(struct hangdx_ctx *ctx, struct ck_result *r);
uint32_t ck_rotate_proc(const struct ck_model *m, uint32_t proc, uint32_t k);

#endif
