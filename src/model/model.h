/*
 * model.h - the scenario: the static half of the shared runtime model.
 * A scenario names a cluster, the HCCL environment of every rank, the
 * communicators, the program each rank's host issues and the faults to
 * inject.  The YAML loader (scenario.c) and the presets fill it; the
 * simulator (src/sim) runs it, the checker (src/check) explores it.
 * Names are resolved to indices at load time; counts that `--set` may
 * change (ranks, communicators) are expanded only when a run starts.
 */
#ifndef HX_MODEL_H
#define HX_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "../core/core.h"

#define HX_NS_PER_S 1000000000ULL
#define HX_NS_PER_MS 1000000ULL
#define HX_NS_PER_US 1000ULL

/* Ceilings on what a scenario may ask for (hostile-input limits). */
#define HX_MAX_RANKS 1048576   /* 2^20, as the facts of a diagnosis */
#define HX_MAX_CORES 64
#define HX_MAX_COMMS 4096      /* communicator instances after expansion */
#define HX_MAX_STEPS 1000000   /* program steps before expansion */
#define HX_MAX_NAMES 65536     /* streams, events, notifies */
#define HX_MAX_FAULTS 4096
#define HX_MAX_SQ_DEPTH 65536

enum hx_product { HX_PROD_A3, HX_PROD_A2, HX_PROD_910 };

enum hx_mode {            /* HCCL_OP_EXPANSION_MODE */
	HX_MODE_AI_CPU,
	HX_MODE_HOST,
	HX_MODE_HOST_TS,
	HX_MODE_AIV,
	HX_MODE_AICPU_TS
};

enum hx_grant { HX_GRANT_FIFO, HX_GRANT_RANDOM };

enum hx_loglevel { HX_LOG_DEBUG, HX_LOG_INFO, HX_LOG_WARNING, HX_LOG_ERROR };

/* How the logs are laid out: rank-N/ascend/log/...; one directory per
 * node (every process of the node in one ascend/log); every file in one
 * directory. */
enum hx_layout { HX_LAYOUT_RANK, HX_LAYOUT_NODE, HX_LAYOUT_FLAT };
/* Which log lines are written: every line, or only those whose wording
 * is a real log line or a source format string (docs/LOGS-SIMULATED.md). */
enum hx_fidelity { HX_FID_FULL, HX_FID_VERIFIED };
/* Names of the node directories: host-N, node-N, the node's IP. */
enum hx_nodedir { HX_NODEDIR_HOST, HX_NODEDIR_NODE, HX_NODEDIR_IP };

/* HCCL environment of one rank, with whether each value was set or default
 * (the env echo lines print "set by environment variable" or "by default"). */
struct hx_env {
	uint32_t exec_timeout_s;      /* HCCL_EXEC_TIMEOUT, default 1836 */
	uint8_t retry[3];             /* HCCL_OP_RETRY_ENABLE L0, L1, L2 */
	bool retry_has_l0;            /* written in the L0:x,L1:y,L2:z form */
	uint32_t retry_max_cnt;       /* HCCL_OP_RETRY_PARAMS MaxCnt, 1 */
	uint32_t retry_hold_ms;       /* HoldTime, 5000 */
	uint32_t retry_interval_ms;   /* IntervalTime, 1000 */
	enum hx_mode mode;            /* HCCL_OP_EXPANSION_MODE, AI_CPU on A3 */
	uint32_t connect_timeout_s;   /* HCCL_CONNECT_TIMEOUT, 120 */
	bool set_exec_timeout, set_retry, set_params, set_mode, set_connect;
};

/* A group of alike communicators: count 1 gives one named `name`,
 * count N gives name1..nameN. */
struct hx_comm_group {
	const char *name;
	uint32_t count;
	int32_t *ranks;               /* member ranks; NULL = every rank */
	uint32_t nranks;
	int8_t retry;                 /* -1 follow the env, 0 off, 1 on */
	uint32_t exec_timeout_s;      /* 0 = follow the env */
	bool count_from_set;          /* count is the `communicators` knob */
};

enum hx_step_kind {
	HX_STEP_AICORE,         /* AI Core kernel: stream, name, duration */
	HX_STEP_AICPU,          /* ordinary AICPU op: needs a core */
	HX_STEP_EVENT_RECORD,   /* obj = event */
	HX_STEP_EVENT_WAIT,     /* obj = event */
	HX_STEP_NOTIFY_RECORD,  /* obj = notify (user notify on this device) */
	HX_STEP_NOTIFY_WAIT,    /* obj = notify, timeout_ns (0 = forever) */
	HX_STEP_HOST_SYNC,      /* host waits until stream (or all, stream < 0) drains */
	HX_STEP_HOST_SLEEP,     /* host busy for dur_ns before the next call */
	HX_STEP_COLL            /* an HCCL collective */
};

enum hx_coll {
	HX_COLL_ALLREDUCE,
	HX_COLL_ALLGATHER,
	HX_COLL_REDUCESCATTER,
	HX_COLL_BROADCAST,
	HX_COLL_ALLTOALL,
	HX_COLL_SEND,
	HX_COLL_RECV,
	HX_COLL_COUNT
};

enum hx_dtype {
	HX_DT_FP16, HX_DT_FP32, HX_DT_BF16, HX_DT_INT8, HX_DT_INT32,
	HX_DT_INT64, HX_DT_UINT8, HX_DT_COUNT
};

struct hx_step {
	enum hx_step_kind kind;
	int32_t stream;          /* index into scenario streams; -1 = all (sync) */
	const char *name;        /* op name (kernels), may be NULL */
	uint64_t dur_ns;         /* compute duration / sleep (the minimum) */
	uint64_t dur_max_ns;     /* its maximum (= dur_ns: a single value) */
	int32_t obj;             /* event or notify index */
	uint64_t timeout_ns;     /* notify wait timeout; 0 = forever */
	/* collectives */
	int32_t group;           /* communicator group index */
	int32_t instance;        /* 0-based instance in the group; -1 = each */
	enum hx_coll coll;
	uint64_t bytes;
	enum hx_dtype dtype;
	int32_t peer;            /* send/recv peer (rank in the communicator) */
	int32_t root;            /* broadcast root */
	/* which ranks issue it: NULL = every rank */
	int32_t *only;
	uint32_t nonly;
	uint32_t line;           /* source line in the scenario, for messages */
};

enum hx_fault_kind {
	HX_FAULT_RANK_DEATH,     /* rank's process dies at at_ns */
	HX_FAULT_LINK_ERROR,     /* SDMA/RDMA error CQE between rank and peer */
	HX_FAULT_SLOW_RANK,      /* durations on rank scaled by factor */
	HX_FAULT_MISMATCH,       /* rank issues a different collective */
	HX_FAULT_CLOCK_SKEW      /* rank's log timestamps shifted by skew_ns */
};

enum hx_mismatch { HX_MISMATCH_TYPE, HX_MISMATCH_SIZE, HX_MISMATCH_ORDER };

struct hx_fault {
	enum hx_fault_kind kind;
	int32_t rank;
	int32_t peer;            /* link error: the other end */
	uint64_t at_ns;          /* rank death, link error: when (minimum) */
	uint64_t at_max_ns;      /* its maximum (= at_ns: a single time) */
	double factor;           /* slow rank */
	int64_t skew_ns;         /* clock skew */
	bool rdma;               /* link error over RoCE (else SDMA) */
	/* mismatch: the op_index-th collective the rank issues (0-based) */
	uint32_t op_index;
	enum hx_mismatch what;
	enum hx_coll coll;       /* new type (TYPE) */
	uint64_t bytes;          /* new size (SIZE) */
	uint32_t line;
};

/* A rank whose HCCL environment differs from the scenario's. */
struct hx_env_override {
	int32_t rank;
	struct hx_env env;
};

/* One AICPU core grant fixed by a schedule (written by `check` for
 * witness replay): the next grant on device `rank` goes to the HCCL
 * kernel of communicator `name` for its op `n` (kernel), or to the AICPU
 * op at position `n` of the user stream `name`.  Names are resolved when a
 * run starts, since --set may change what exists. */
struct hx_grant_ref {
	uint32_t rank;
	bool kernel;
	const char *name;
	uint32_t n;
	uint32_t line, col;
};

/* One step of a fixed order of the whole run (witness replay): host
 * `rank` makes its runtime call number n (call; counted from 0, every
 * call the host makes but host_sleep), or the task at position n of the
 * stream labelled `stream` on `rank` completes (an HCCL kernel: writes
 * its expansion).  Resolved when a run starts. */
struct hx_seq_ref {
	uint32_t rank;
	bool call;
	const char *stream;
	uint32_t n;
	uint32_t line, col;
};

/* Each device grants its cores to its own grants, in order, first (a core
 * stays free until the named task asks for it); then as `grant` says.
 * With a sequence, the steps it names happen in its order, one after the
 * other, and nothing else happens before it is done. */
struct hx_schedule {
	struct hx_grant_ref *grants;
	uint32_t ngrants;
	struct hx_seq_ref *seq;
	uint32_t nseq;
};

struct hangdx_scenario {
	struct hangdx_ctx *ctx;
	struct hx_arena arena;        /* owns every string and array below */
	const char *name;
	const char *file;             /* for diagnostics */

	/* cluster */
	uint32_t nranks;              /* processes, one device each */
	uint32_t ranks_per_node;      /* for node grouping and L0/L1 levels, 8 */
	uint32_t cores;               /* AICPU cores per device, 6 */
	uint32_t sq_depth;            /* SQEs per stream, 2048 */
	enum hx_product product;

	/* model parameters (runtime-model.md "unknown: make it a parameter") */
	/* durations given as ranges [x_ns, x_max_ns] (equal: one value);
	 * the simulator draws each use from its seeded generator */
	uint64_t link_latency_ns;     /* remote notify record latency */
	uint64_t expand_ns;           /* kernel expansion time per op */
	uint64_t host_api_ns;         /* host time per runtime call */
	uint64_t dispatch_ns;         /* stream task dispatch overhead */
	uint64_t link_latency_max_ns, expand_max_ns, host_api_max_ns,
		 dispatch_max_ns;
	double link_gbps;             /* SDMA/RDMA copy bandwidth, GB/s */
	uint32_t slave_streams;       /* S_c per communicator */
	enum hx_grant grant;          /* AICPU queue order */
	bool order_launch;            /* HCCL order stream on */
	bool hccl_shares_pool;        /* HCCL kernels and AICPU ops share cores */
	bool stuck_with_retry;        /* heartbeat STUCK still fires with retry */
	uint64_t aicpu_timeout_ns;    /* ordinary AICPU op limit; 0 = none */

	/* run control */
	uint64_t seed;
	uint64_t tail_ns;             /* keep running after the first error */
	uint64_t time_limit_ns;
	enum hx_loglevel log_level;
	/* what a real collection looks like (the logs only) */
	enum hx_layout layout;
	enum hx_fidelity log_fidelity; /* full, or verified lines only */
	enum hx_nodedir node_dirs;
	bool same_pids;               /* containers: every node has the same pids */
	uint64_t start_spread_ns;     /* ranks start up to this much apart */

	struct hx_env env;
	struct hx_env_override *overrides;
	uint32_t noverrides;

	const char **streams;         /* stream names used by the program */
	uint32_t nstreams;
	const char **events;
	uint32_t nevents;
	const char **notifies;
	uint32_t nnotifies;

	struct hx_comm_group *groups;
	uint32_t ngroups;
	struct hx_step *steps;
	uint32_t nsteps;
	struct hx_fault *faults;
	uint32_t nfaults;
	struct hx_schedule schedule;  /* empty = grant order above */
};

/* Defaults of runtime-model.md (A3, AI_CPU, retry off). */
void hx_env_defaults(struct hx_env *env);
void hx_scenario_defaults(struct hangdx_scenario *sc);

/* Environment in force for a rank (override or the scenario's). */
const struct hx_env *hx_scenario_env(const struct hangdx_scenario *sc,
				     uint32_t rank);

/* Whether retry mode is active for a communicator group on a rank: the
 * group override, else the env level that applies (L0 inside a node, L1
 * across nodes), and only in AI_CPU mode on A3. */
bool hx_retry_active(const struct hangdx_scenario *sc, uint32_t group,
		     uint32_t rank);

/* Parse HCCL_OP_RETRY_ENABLE ("L0:x,L1:y,L2:z" or "L1:x,L2:y"). */
int hx_env_parse_retry(struct hx_env *env, const char *s);
/* Parse HCCL_OP_RETRY_PARAMS ("MaxCnt:1,HoldTime:5000,IntervalTime:1000"). */
int hx_env_parse_retry_params(struct hx_env *env, const char *s);
int hx_mode_parse(const char *s, enum hx_mode *out);
const char *hx_mode_name(enum hx_mode m);
const char *hx_coll_name(enum hx_coll c);      /* "AllReduce" */
int hx_coll_parse(const char *s, enum hx_coll *out);
const char *hx_dtype_name(enum hx_dtype d);    /* "fp16" */
int hx_dtype_parse(const char *s, enum hx_dtype *out);
uint32_t hx_dtype_size(enum hx_dtype d);

/* Whether rank issues a step (its `only` list is empty or names it). */
bool hx_step_for_rank(const struct hx_step *st, uint32_t rank);

/* Communicator instances after expansion: group g has instances
 * [first[g], first[g] + count[g]). */
uint32_t hx_scenario_ncomms(const struct hangdx_scenario *sc);
/* Name of instance i of group g into buf ("c3" or "world"). */
void hx_comm_name(const struct hangdx_scenario *sc, uint32_t g, uint32_t i,
		  char *buf, size_t n);

#endif
