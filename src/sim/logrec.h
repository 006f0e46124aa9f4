/*
 * logrec.h - what the simulated cluster "logs": typed records the
 * simulator emits in time order, and the writer (simlog.c) that turns them
 * into CANN log files in the real layout with the line formats of
 * log-formats.md.  The simulator decides what happens; the writer decides
 * only how it looks.  Records borrow strings from the scenario and state.
 */
#ifndef HX_LOGREC_H
#define HX_LOGREC_H

#include "../model/state.h"

enum hx_lr_kind {
	HX_LR_PROC_START,    /* process start: ATRACE, env echo lines */
	HX_LR_COMM_INIT,     /* communicator created on this rank */
	HX_LR_OP_LAUNCH,     /* host: an HCCL op was issued (INFO) */
	HX_LR_KERNEL_START,  /* device: HCCL kernel got a core (INFO) */
	HX_LR_KERNEL_END,    /* device: HCCL kernel returned (INFO) */
	HX_LR_KERNEL_STATUS, /* device: waiting kernel, every 30 s (RUN_INFO) */
	HX_LR_KERNEL_EXPANDED, /* device: kernel wrote its op's SQEs (INFO) */
	HX_LR_AICPU_OP,      /* device: ordinary AICPU op started, or ended
				(text "end") on its core (INFO) */
	HX_LR_COMPUTE,       /* host: AI Core kernel launched (DEBUG) */
	HX_LR_NOTIFY_TIMEOUT,/* a notify wait timed out (see below) */
	HX_LR_LINK_ERROR,    /* SDMA/RDMA error CQE on a copy */
	HX_LR_RETRY,         /* op retry state transition */
	HX_LR_HEARTBEAT_LOST,
	HX_LR_HEARTBEAT_STUCK,
	HX_LR_AICPU_TIMEOUT, /* ordinary AICPU op exceeded its limit */
	HX_LR_KERNEL_TIMEOUT,/* KFC timeout of a resident kernel */
	HX_LR_STREAM_DUMP,   /* TSCH dump of a stream stuck at its head */
	HX_LR_STREAM_ABORT,  /* stop-on-failure: a stream was stopped */
	HX_LR_PROC_EXIT      /* the process died: no line after this */
};

/* A snapshot of one stream for TSCH dumps and [TaskException] lines. */
struct hx_lr_pos {
	uint32_t task_id;
	uint8_t kind;        /* enum hx_task_kind */
	int32_t notify_rt;   /* notify rt_id, -1 */
	int32_t event;       /* event id, -1 */
	int32_t peer;        /* remote rank, -1 */
};

struct hx_lr_stream {
	uint32_t stream_id, sq_id;
	uint8_t role;        /* enum hx_stream_role */
	uint32_t head_task_id, tail_task_id;
	uint32_t head_pos, tail_pos;   /* positions (head == tail: empty) */
	uint64_t wait_ns;    /* how long the head has waited */
	uint32_t first_pos;  /* index into hx_simlog_input.pos */
	uint32_t npos;       /* queued SQEs from head (bounded, <= 16) */
};

/*
 * One record.  Which fields are meaningful depends on kind:
 *  NOTIFY_TIMEOUT: stream_* / task_id / notify_* / peer / comm / op /
 *    timeout_s; host_side = 1 for waits on host-issued streams (U, K_c,
 *    Ord), 0 for the kernel's device streams (M_c, S_c).  first_stream /
 *    nstreams give the [TaskException] per-stream lines (device side; 0
 *    streams when M_c is still parked on NW(H0), the op not activated).
 *    trail: the op's task sequence as "NW(1,760),SD(1,/),..." (borrowed).
 *  LINK_ERROR: like NOTIFY_TIMEOUT, with rdma, and peer = other end.
 *  RETRY: text = state transition ("RUNNING -> CMD_STOP_AICPU"), retry_cnt.
 *  HEARTBEAT_*: peer = the crimer (lost / stuck rank), rank = observer.
 *  KERNEL_START/END: comm, op, core, stream (K_c); KERNEL_EXPANDED and
 *    KERNEL_STATUS: head/tail = SQ positions of M_c (docs/LOGS-SIMULATED.md).
 *  STREAM_DUMP: first_stream / nstreams (usually 1).
 */
struct hx_logrec {        /* fields by size: 128 bytes, no padding */
	uint8_t kind;            /* enum hx_lr_kind */
	uint8_t host_side;
	uint8_t rdma;
	uint8_t role;            /* stream role of stream_id */
	uint8_t task_kind;
	uint8_t coll;            /* enum hx_coll */
	uint8_t dtype;           /* enum hx_dtype */
	int32_t rank;
	int32_t peer;            /* remote rank, -1 none */
	int32_t comm;            /* communicator instance, -1 none */
	uint32_t op;             /* op index within the communicator */
	int32_t core;
	uint32_t stream_id, sq_id, task_id;
	uint32_t head, tail;     /* task ids at head / tail of that stream */
	uint32_t notify_rt;
	int32_t event;
	uint32_t retry_cnt;
	uint32_t sqe_cnt;        /* KERNEL_STATUS rtsq: SQEs to write */
	uint32_t first_stream, nstreams;  /* into hx_simlog_input.streams */
	uint64_t t_ns;           /* simulated time (skew is the writer's job) */
	uint64_t notify_hccl;
	uint64_t timeout_s;
	uint64_t bytes;
	const char *name;        /* op name or tag source */
	const char *text;
	const char *trail;
};

/* Everything the writer needs besides the records. */
struct hx_simlog_input {
	const struct hangdx_scenario *sc;
	const struct hx_state *st;      /* devices, comms, streams (final) */
	const struct hx_logrec *recs;   /* sorted by t_ns, then emission */
	size_t nrecs;
	const struct hx_lr_stream *streams;
	size_t nstreams;
	const struct hx_lr_pos *pos;
	size_t npos;
	int64_t *skew_ns;               /* per rank */
	uint64_t epoch_us;              /* wall clock of t = 0 (UTC, us) */
	bool completed;                 /* the run ended normally: every
					   rank destroys its communicators */
	uint64_t end_ns;                /* when it ended */
};

/*
 * Write rank-N/ascend/log/debug/plog/plog-PID_TS.log,
 * rank-N/ascend/log/debug/device-D/device-PID_TS.log and the run logs
 * run/plog/ and run/device-D/ for every rank under dir (which exists; or
 * the node / flat layout), honouring sc->log_level for INFO/DEBUG noise
 * and sc->log_fidelity (verified: no invented line).
 * Deterministic: same input, same bytes.  The files are written in place:
 * dir is a fresh directory the caller renames into place when this
 * succeeds and removes when it fails (simulate's temporary output).
 */
int hx_simlog_write(struct hangdx_ctx *ctx, const char *dir,
		    const struct hx_simlog_input *in);

#endif
