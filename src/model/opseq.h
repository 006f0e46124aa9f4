/*
 * opseq.h - the HCCL op sequence of runtime-model.md §5-§6 as data: the
 * per-rank resources of a communicator, the tasks the host appends for one
 * op in AI_CPU mode (§5.1), and the kernel's expansion into M_c and S_c
 * with its ring or point-to-point handshakes (§5.2), as task templates
 * (stream role, kind, notify role or transport key, tag, timeout class).
 * The simulator (src/sim/hccl.c) turns each template into a task at its
 * time; the checker (src/check) unrolls them into static stream contents.
 * One description, so both run exactly the same program.
 */
#ifndef HX_OPSEQ_H
#define HX_OPSEQ_H

#include "state.h"

/* Seconds added to T_exec by the timeout classes (runtime-model.md §7). */
#define HX_H2D_INC_S 27   /* AICPU_H2D_TIMEOUT_INC: host-issued waits */
#define HX_KFC_INC_S 22   /* KFC completion poll of a resident kernel */
#define HX_LOCAL_SLACK_S 1 /* local main/slave waits: a peer's RxAck fires first */

/* The stream a template task goes to. */
enum hx_op_where {
	HX_OW_USER,      /* U: the stream the op was issued on */
	HX_OW_KERNEL,    /* K_c */
	HX_OW_ORDER,     /* Ord */
	HX_OW_MAIN,      /* M_c, or U in HOST mode */
	HX_OW_WORK       /* S0_c when there are slave streams, else main */
};

/* The notify a template records or waits on. */
enum hx_op_notify {
	HX_ON_NONE,
	HX_ON_H0, HX_ON_H1, HX_ON_O0, HX_ON_O1, HX_ON_M2S, HX_ON_S2M,
	HX_ON_PEER       /* transport notify of (comm, dst, src, op, round, ch) */
};

/* How long a wait may last. */
enum hx_op_tmo {
	HX_OT_NONE,
	HX_OT_H2D,       /* T_exec + 27 s: host-issued waits on U, K_c, Ord */
	HX_OT_DEV,       /* T_exec: device waits on M_c / S_c */
	HX_OT_LOCAL      /* T_exec + 1 s: local main/slave synchronisation */
};

struct hx_optask {
	uint8_t kind;        /* enum hx_task_kind */
	uint8_t where;       /* enum hx_op_where */
	uint8_t notify;      /* enum hx_op_notify */
	uint8_t tmo;         /* enum hx_op_tmo */
	bool tagged;         /* carries the op's identity (handshakes, kernel) */
	uint32_t dst, src;   /* HX_ON_PEER: global ranks of the two ends */
	uint32_t round, ch;  /* HX_ON_PEER: ring round and channel */
	int32_t peer;        /* remote rank of a record or copy, -1 none */
	uint64_t bytes;      /* COPY: bytes moved */
};

/* One collective as one rank issues it. */
struct hx_opdesc {
	enum hx_coll coll;
	uint64_t bytes;
	int32_t peer;                /* send/recv peer, rank in the communicator */
	uint32_t rank;               /* the issuing global rank */
	const uint32_t *members;     /* global ranks in communicator order */
	uint32_t nmembers;
	int32_t me;                  /* rank in the communicator */
	bool slave;                  /* slave streams exist (slave_streams > 0) */
	bool order_launch;
};

typedef void hx_optask_fn(void *ud, const struct hx_optask *t);

/* Host side of one op in AI_CPU mode, in host program order (§5.1). */
void hx_opseq_issue(const struct hx_opdesc *op, hx_optask_fn *fn, void *ud);

/* The algorithm tasks of one op on main (M_c; U in HOST mode), with the
 * exchange on the work stream; hccl_device adds the H0 wait first and the
 * H1 record last (§5.2). */
void hx_opseq_expand(const struct hx_opdesc *op, bool hccl_device,
		     hx_optask_fn *fn, void *ud);

/* SQ slots the expansion must find free on main (and on S0) before it
 * is written, as the kernel checks them. */
uint32_t hx_opseq_expand_room(const struct hx_opdesc *op);

/* SQ slots the host wants free on each of U, K_c and Ord to issue one op. */
#define HX_OPSEQ_ISSUE_ROOM 2

/* Timeout of a class in seconds for an exec timeout (0 = never). */
uint64_t hx_opseq_timeout_s(enum hx_op_tmo t, uint32_t exec_timeout_s);

/* The identity an op's handshakes carry (send and recv match). */
uint64_t hx_opseq_tag(uint32_t comm, uint32_t op, enum hx_coll coll,
		      uint64_t bytes, enum hx_dtype dt);

/* Ring rounds of a collective (AllReduce 2, the others 1). */
uint32_t hx_opseq_rounds(enum hx_coll c);

/* The communicator notify a template names on one rank (H0, H1, O0, O1,
 * main->sub, sub->main); -1 for a transport notify (HX_ON_PEER: the caller
 * resolves it) and for none. */
int32_t hx_opseq_local_notify(const struct hx_comm_rank *cr, int on);

/*
 * Resources, created in one fixed order so that stream and notify
 * indices (and the ids logged) agree wherever a state is built: every
 * rank's user streams and notifies first, then per rank the order stream
 * (when order launch is on and there are communicators) and per
 * communicator K_c, M_c, S_c[i], H0, H1, O0, O1, MS, SM.  on_comm, if not
 * NULL, is called after each (rank, communicator) the rank is a member of.
 */
int hx_opseq_setup(struct hx_state *st,
		   void (*on_comm)(void *ud, uint32_t rank, uint32_t comm),
		   void *ud);

/* The task an ordinary (non-collective) step appends on rank's stream:
 * kind, name, duration, event (with the record it waits for) or notify. */
void hx_opseq_simple(const struct hx_state *st, uint32_t rank,
		     const struct hx_step *step, struct hx_task *t);
/* After appending it as task: remember an event record for later waits. */
void hx_opseq_simple_appended(struct hx_state *st, uint32_t rank,
			      const struct hx_step *step, uint32_t task);

/* Communicator instance of (group, instance >= 0). */
uint32_t hx_opseq_comm(const struct hangdx_scenario *sc, uint32_t group,
		       uint32_t instance);

#endif
