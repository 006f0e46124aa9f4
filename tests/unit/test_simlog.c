/*
 * test_simlog.c - unit tests of src/sim/simlog.c: a hand-built two-rank
 * state and a few records become CANN log files; the tests check the file
 * names, exact lines, the prefix grammar, clock skew, PROC_EXIT, log
 * levels, the device run log, log_fidelity, determinism, bad input and
 * allocation failures.
 */
#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
#include "testutil.h"
#include "core/core.h"
#include "sim/logrec.h"

#define EPOCH_US 1793516400000000ULL /* 2026-11-01 07:00:00 UTC */
#define IDENT "127.10.0.1%enp_60000_0_1700000000000000"

/* Everything hx_simlog_write reads, built by hand. */
struct fix {
	struct hangdx_scenario sc;
	struct hx_state st;
	struct hx_device dev[2];
	struct hx_comm_rank cr[2];
	struct hx_comm comm;
	uint32_t members[2];
	struct hx_stream streams[4];
	struct hx_lr_stream lrs[3];
	struct hx_lr_pos pos[5];
	struct hx_logrec recs[64];
	int64_t skew[2];
	struct hx_simlog_input in;
};

static void fix_state(struct fix *f)
{
	uint32_t r;

	f->st.nranks = 2;
	f->st.ncomms = 1;
	f->st.dev = f->dev;
	f->st.comms = &f->comm;
	f->st.streams = f->streams;
	f->st.nstreams = 4;
	f->st.sc = &f->sc;
	snprintf(f->comm.name, sizeof f->comm.name, "world");
	snprintf(f->comm.identifier, sizeof f->comm.identifier, "%s", IDENT);
	f->comm.members = f->members;
	f->comm.nmembers = 2;
	for (r = 0; r < 2; r++) {
		f->members[r] = r;
		f->dev[r].rank = r;
		f->dev[r].device_id = r;
		f->dev[r].host_pid = 1000 + r;
		f->dev[r].dev_pid = 5000 + r;
		f->dev[r].comm = &f->cr[r];
		f->cr[r].me = (int32_t)r;
		f->cr[r].kstream = 2 * r;
		f->cr[r].mstream = 2 * r + 1;
		f->streams[2 * r].id = 2;
		f->streams[2 * r].sq_id = 2;
		f->streams[2 * r + 1].id = 149;
		f->streams[2 * r + 1].sq_id = 153;
	}
}

/* Snapshots: rank 1's M_c and S_c for the [TaskException] dump, rank 0's
 * user stream stuck on an event wait for the TSCH dump. */
static void fix_snapshots(struct fix *f)
{
	f->pos[0] = (struct hx_lr_pos){ 26064, HX_T_NOTIFY_WAIT, 760, -1, 0 };
	f->pos[1] = (struct hx_lr_pos){ 26065, HX_T_COPY, -1, -1, 0 };
	f->pos[2] = (struct hx_lr_pos){ 300, HX_T_NOTIFY_WAIT, 438, -1, -1 };
	f->pos[3] = (struct hx_lr_pos){ 47, HX_T_EVENT_WAIT, -1, 1, -1 };
	f->pos[4] = (struct hx_lr_pos){ 48, HX_T_EVENT_RECORD, -1, 8, -1 };
	f->lrs[0] = (struct hx_lr_stream){ 149, 153, HX_SR_MAIN, 26064, 26066,
					  1488, 2184, 0, 0, 2 };
	f->lrs[1] = (struct hx_lr_stream){ 150, 154, HX_SR_SLAVE, 300, 301,
					  10, 11, 0, 2, 1 };
	f->lrs[2] = (struct hx_lr_stream){ 3, 3, HX_SR_USER, 47, 49, 47, 49,
					  16 * HX_NS_PER_S, 3, 2 };
}

static struct hx_logrec *add(struct fix *f, uint8_t kind, int32_t rank,
			     uint64_t t_ns)
{
	struct hx_logrec *r = &f->recs[f->in.nrecs++];

	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->rank = rank;
	r->t_ns = t_ns;
	r->peer = -1;
	r->comm = -1;
	r->core = -1;
	r->event = -1;
	return r;
}

static void add_timeout(struct fix *f, uint64_t t_ns)
{
	struct hx_logrec *r = add(f, HX_LR_NOTIFY_TIMEOUT, 1, t_ns);

	r->task_kind = HX_T_NOTIFY_WAIT;
	r->comm = 0;
	r->op = 21;
	r->coll = HX_COLL_ALLREDUCE;
	r->dtype = HX_DT_FP32;
	r->bytes = 1024;
	r->stream_id = 149;
	r->sq_id = 153;
	r->task_id = 26064;
	r->notify_rt = 760;
	r->notify_hccl = 0x0000000100000058ULL;
	r->peer = 0;
	r->timeout_s = 1836;
	r->trail = "NW(0,760),SD(0,/),NR(0,761)";
	r->first_stream = 0;
	r->nstreams = 2;
}

static void fix_records(struct fix *f)
{
	struct hx_logrec *r;

	add(f, HX_LR_PROC_START, 0, 0);
	add(f, HX_LR_PROC_START, 1, 0);
	add(f, HX_LR_COMM_INIT, 0, HX_NS_PER_MS)->comm = 0;
	add(f, HX_LR_COMM_INIT, 1, HX_NS_PER_MS)->comm = 0;
	r = add(f, HX_LR_OP_LAUNCH, 0, 2 * HX_NS_PER_MS);
	r->comm = 0;
	r->op = 21;
	r->coll = HX_COLL_ALLREDUCE;
	r->dtype = HX_DT_FP32;
	r->bytes = 1024;
	r->stream_id = 2;
	add_timeout(f, 1836005 * HX_NS_PER_MS);
	add_timeout(f, 1836006 * HX_NS_PER_MS);
	add(f, HX_LR_HEARTBEAT_LOST, 0, 1900 * HX_NS_PER_S)->peer = 1;
	r = add(f, HX_LR_STREAM_DUMP, 0, 1901 * HX_NS_PER_S);
	r->timeout_s = 10;
	r->first_stream = 2;
	r->nstreams = 1;
	add(f, HX_LR_PROC_EXIT, 1, 1950 * HX_NS_PER_S);
	r = add(f, HX_LR_STREAM_ABORT, 1, 1960 * HX_NS_PER_S);
	r->stream_id = 2;
	r->task_id = 8885;
	add(f, HX_LR_HEARTBEAT_STUCK, 1, 1970 * HX_NS_PER_S)->peer = 0;
}

static struct fix *fix_new(void)
{
	struct fix *f = calloc(1, sizeof *f);

	assert_non_null(f);
	hx_scenario_defaults(&f->sc);
	f->sc.log_level = HX_LOG_INFO;
	fix_state(f);
	fix_snapshots(f);
	f->skew[1] = -2500 * (int64_t)HX_NS_PER_MS;
	f->in.sc = &f->sc;
	f->in.st = &f->st;
	f->in.recs = f->recs;
	f->in.streams = f->lrs;
	f->in.nstreams = 3;
	f->in.pos = f->pos;
	f->in.npos = 5;
	f->in.skew_ns = f->skew;
	f->in.epoch_us = EPOCH_US;
	fix_records(f);
	return f;
}

/* ---- helpers: temp dirs and files ---- */

static char *tmpdir(void)
{
	char *d = strdup("/tmp/test_simlog-XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void rmdir_free(char *d)
{
	assert_int_equal(hx_rmtree(d), HANGDX_OK);
	free(d);
}

static char *slurp(const char *dir, const char *rel)
{
	char path[4096];
	FILE *fp;
	long n;
	char *s;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	fp = fopen(path, "rb");
	if (!fp)
		fail_msg("missing file %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	s[n] = '\0';
	fclose(fp);
	return s;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay++;
	}
	return n;
}

static void has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected line not found: %s", needle);
}

static void has_line(const char *hay, const char *line)
{
	char buf[4096];

	snprintf(buf, sizeof buf, "%s\n", line);
	if (!strstr(hay, buf))
		fail_msg("expected full line not found: %s", line);
}

#define P0 "rank-0/ascend/log/debug/plog/plog-1000_20261101070000000.log"
#define D0 "rank-0/ascend/log/debug/device-0/device-1000_20261101070000000.log"
#define R0 "rank-0/ascend/log/run/plog/plog-1000_20261101070000000.log"
#define P1 "rank-1/ascend/log/debug/plog/plog-1001_20261101065957500.log"
#define D1 "rank-1/ascend/log/debug/device-1/device-1001_20261101065957500.log"
#define R1 "rank-1/ascend/log/run/plog/plog-1001_20261101065957500.log"
#define DR0 "rank-0/ascend/log/run/device-0/device-1000_20261101070000000.log"
#define DR1 "rank-1/ascend/log/run/device-1/device-1001_20261101065957500.log"
static const char *const files[] = { P0, D0, R0, DR0, P1, D1, R1, DR1 };

static char *write_fix(struct fix *f)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	char *d = tmpdir();

	assert_int_equal(hx_simlog_write(ctx, d, &f->in), HANGDX_OK);
	hangdx_ctx_free(ctx);
	return d;
}

/* ---- prefix grammar: [LEVEL] MODULE(PID,PNAME):TS<sp> ---- */

static const char *skip_digits(const char *p, int n)
{
	for (; n > 0; n--, p++)
		if (*p < '0' || *p > '9')
			return NULL;
	return p;
}

static const char *match_ts(const char *p)
{
	static const char shape[] = "dddd-dd-dd-dd:dd:dd.ddd.ddd";
	size_t i;

	for (i = 0; shape[i]; i++, p++) {
		if (shape[i] == 'd' ? !skip_digits(p, 1) : *p != shape[i])
			return NULL;
	}
	return p;
}

static bool prefixed(const char *l)
{
	static const char *const lv[] = { "[ERROR] ", "[WARNING] ", "[INFO] ",
					  "[DEBUG] " };
	const char *p = NULL;
	size_t i;

	for (i = 0; i < 4 && !p; i++)
		if (!strncmp(l, lv[i], strlen(lv[i])))
			p = l + strlen(lv[i]);
	if (!p || *p < 'A' || *p > 'Z')
		return false;
	while ((*p >= 'A' && *p <= 'Z') || *p == '_')
		p++;
	if (*p++ != '(')
		return false;
	if (*p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != ',')
		return false;
	p = strchr(p, ')');
	if (!p || p[1] != ':')
		return false;
	p = match_ts(p + 2);
	return p && *p == ' ';
}

static bool continuation(const char *l)
{
	static const char *const ok[] = { "[PID: ", "####", "stream_id=",
					  "pos=", "Possible Cause", "Solution" };
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(ok); i++)
		if (!strncmp(l, ok[i], strlen(ok[i])))
			return true;
	return false;
}

/* Every line is prefixed or a known continuation; timestamps of the
 * prefixed lines never go backwards. */
static void check_grammar(const char *text)
{
	char last[32] = "";
	const char *l = text;

	while (*l) {
		const char *nl = strchr(l, '\n');
		char line[4096];
		size_t n;

		assert_non_null(nl);
		n = (size_t)(nl - l) < sizeof line - 1 ? (size_t)(nl - l)
						       : sizeof line - 1;
		memcpy(line, l, n);
		line[n] = '\0';
		if (prefixed(line)) {
			const char *ts = strchr(line, ':') + 1;
			char cur[32];

			memcpy(cur, ts, 27);
			cur[27] = '\0';
			assert_true(strcmp(last, cur) <= 0);
			memcpy(last, cur, sizeof last);
		} else if (!continuation(line)) {
			fail_msg("line outside the grammar: %s", line);
		}
		l = nl + 1;
	}
}

/* ---- tests ---- */

static void test_names_and_grammar(void **state)
{
	struct fix *f = fix_new();
	char *d = write_fix(f);
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(files); i++) {
		char *s = slurp(d, files[i]);
		check_grammar(s);
		free(s);
	}
	rmdir_free(d);
	free(f);
}

static void test_host_lines(void **state)
{
	struct fix *f = fix_new();
	char *d = write_fix(f);
	char *p0 = slurp(d, P0), *r0 = slurp(d, R0);

	(void)state;
	has_line(p0, "[INFO] ATRACE(1000,python3):2026-11-01-07:00:00.000.000 [trace_attr.c:189](tid:1000) attr init success, timeout=0ms.");
	has(p0, "[externalinput.cc:1856] [1000][HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE is not set. The retryEnable of all levels is set to false.\n");
	has(p0, "[externalinput.cc:1892] [1000][HCCL_ENV] HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is [1], HoldTime is [5000]ms, IntervalTime is [1000]ms\n");
	has(p0, "[externalinput.cc:1712] [1000][HCCL_ENV] HCCL_OP_EXPANSION_MODE is not set, aicpuUnfold is [1], aivMode is [0], aicpuCacheEnable is [1]\n");
	assert_null(strstr(p0, "set by default to [AI_CPU]"));
	has(p0, "[1000][HCCL_ENV] HCCL_EXEC_TIMEOUT set by default to [1836]s\n");
	has(p0, "[1000]HCCL_CONNECT_TIMEOUT set by default to [120]s\n");
	has(p0, "[op_base.cc:1292] [1000]Entry-HcclCommInitRootInfoInner:ranks[2], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[" IDENT "], deviceLogicId[0]\n");
	has(p0, "[hccl_comm.cc:129] [1000]hcclCommInitInfo:commId[hccl-1000-0-1793516400-world], rank[0], totalRanks[2], serverId[127.10.0.1], deviceType[4],logicDevId[0], identifier[" IDENT "]\n");
	has(p0, "[hccl_communicator_host.cc:7998] [1000]AicpuKfcTilingDataLaunchIn profName[allreduceAicpuKernel] tag[AllReduce_" IDENT "] kfcOpStreamId[2] mainStreamId[2] kfcStreamId[2] isCapture[0] mode[1] \n");
	has(p0, "[hccl_communicator_host.cc:8219] [1000][HcclCommunicator]context[0x");
	has(p0, "[hccl_communicator_host.cc:8241] [1000][HcclCommunicator][AicpuUnfoldKernelLaunchV2] exec succ, isCustom[0].\n");
	assert_null(strstr(p0, "Entry-HcclAllReduce"));
	assert_null(strstr(p0, "KernelLaunch:launch aicpu kernel"));
	has_line(p0, "[ERROR] HCCL(1000,python3):2026-11-01-07:31:40.000.005 [task_exception_handler.cc:610] [1003][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Sun Nov  1 07:31:40 2026], Discoverer:[127.10.0.1/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected");
	/* the run log holds the run-level lines only */
	has_line(r0, "[INFO] HCCL(1000,python3):2026-11-01-07:31:40.000.000 [heartbeat.cc:951] [1005][TaskExecStage][HeartbeatAbnormal]local rank [127.10.0.1/0]: crimer rank [127.10.0.1/1] status[LOST] by informer rank [127.10.0.1/0]");
	has(r0, "Entry-HcclCommInitRootInfoInner");
	assert_null(strstr(r0, "[ERROR]"));
	assert_null(strstr(r0, "AicpuKfcTilingDataLaunchIn"));
	free(p0);
	free(r0);
	rmdir_free(d);
	free(f);
}

static void test_notify_timeout(void **state)
{
	struct fix *f = fix_new();
	char *d = write_fix(f);
	char *p1 = slurp(d, P1), *d1 = slurp(d, D1);

	(void)state;
	/* device: one base line per stream, skewed clock (-2.5 s) */
	has_line(d1, "[ERROR] HCCL(5001,aicpu_scheduler):2026-11-01-07:30:33.505.000 [aicpu_communicator.cc:3083] [5005][TaskException]base information is streamId:149, sqid:153, head:1488, tail:136, type:NOTIFY WAIT, localRank:1, remoteRank:0, taskId:26064, notifyId:760, addr1High:0x0, addr1Low:0x0, addr2High:0x0, addr2Low:0x0.");
	has_line(d1, "[ERROR] HCCL(5001,aicpu_scheduler):2026-11-01-07:30:33.505.005 [aicpu_communicator.cc:3083] [5005][TaskException]base information is streamId:150, sqid:154, head:10, tail:11, type:NOTIFY WAIT, localRank:1, remoteRank:4294967295, taskId:300, notifyId:438, addr1High:0x0, addr1Low:0x0, addr2High:0x0, addr2Low:0x0.");
	has(d1, "[5005][TaskException]opData information is tag:AllReduce_" IDENT "AllReduceMeshExecutor_device, group:" IDENT ", opIndex:21, count:256, dataType:4, opType:2, rootId:4294967295, dstAddr:0x");
	has(d1, "[aicpu_communicator.cc:3807] [5005][TaskException]task sequence is OP(21),NW(0,760),SD(0,/),NR(0,761)\n");
	/* host: RUNTIME line, Task run failed block with its header, EI0002
	 * once */
	has(p1, "[task_exception_handler.cc:1365] [1004][TaskExecStage][Timeout][AICPU]Task from HCCL run failed.\n");
	has(p1, "[device_error_proc.cc:1593]1004 ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:1, dieId:0), serial number is 1, notify wait timeout occurred during task execution, stream_id:149, sq_id:153, task_id:26064, notify_id=760, timeout=1836s.\n");
	has(p1, "serial number is 2, notify wait timeout");
	has(p1, "[task_exception_handler.cc:908] [1004][TaskExecStage][Timeout][AICPU]Task run failed, base information is streamID:[149], taskID[26064], taskType[Notify Wait], tag[AllReduce_" IDENT "], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n");
	has(p1, "[TaskExecStage][Timeout][AICPU]Task run failed, para information is notify id:[0x0000000100000058], stage:[ffffffff], remote rank:[0], tag[AllReduce_" IDENT "AllReduceMeshExecutor_device].\n");
	has(p1, "[TaskExecStage][Timeout][AICPU]Task run failed, groupRank information is group:[" IDENT "], user define information[], rankSize[2], rankId[1 0].\n");
	has(p1, "[TaskExecStage][Timeout][AICPU]Task run failed, opData information is deviceId:[1], index[21], count[256], reduceType[sum], src[0x");
	assert_int_equal(count(p1, "Communication_Error_Timeout(EI0002)"), 1);
	has(p1, "\n[PID: 1001] 2026-11-01-07:30:33.505.030 Communication_Error_Timeout(EI0002): An timeout occurs when the Notify register waits for execution. Waiting peer rank: 0; task information: streamID:[149], taskID[26064], taskType[Notify Wait], tag[AllReduce_" IDENT "AllReduceMeshExecutor_device], AlgType(level 0-1-2):[fullmesh-ring-NHR].; communication operator information: notify id:[0x0000000100000058], stage:[ffffffff], remote rank:[0]; communicator: " IDENT ".\n");
	free(p1);
	free(d1);
	rmdir_free(d);
	free(f);
}

static void test_stream_dump(void **state)
{
	struct fix *f = fix_new();
	char *d = write_fix(f);
	char *d0 = slurp(d, D0);

	(void)state;
	has(d0, "[ERROR] TSCH(-1,null):2026-11-01-07:31:41.000.000 1000 (dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=1000, sq_id=3, is_need_process=1, exe_time=16, time_out=10, stream_id=3, task_id=47, cur_head=47, wait_sqe_head=47.\n");
	has(d0, " 1001 (dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=3, type=5, sq_pid=1000\n");
	has(d0, "\nstream_id=3, rtsq_id=3, sq_fsm=0x9, cur_wait_time=16, head=47, tail=49, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=47, cq_tail=47, pid=1000, vf_id=0, is_mc2_sq=0\n");
	has(d0, "\nstream_id=3, overflow_en=0, ge_op_tag=4294967295, has_overflow=0\n");
	has(d0, "\npos=47: stream_id=3, task_id=47, sqe_type=5, Event Wait, event_id=1\n");
	has(d0, "\npos=48: stream_id=3, task_id=48, sqe_type=4, Event Record, event_id=8, isSync=0\n");
	assert_int_equal(count(d0, "################################################################\n"), 2);
	free(d0);
	rmdir_free(d);
	free(f);
}

static void test_proc_exit(void **state)
{
	struct fix *f = fix_new();
	char *d = write_fix(f);
	char *p1 = slurp(d, P1), *r1 = slurp(d, R1);

	(void)state;
	assert_null(strstr(p1, "ProcLogicCqReport"));
	assert_null(strstr(p1, "Stuck Occurred"));
	assert_null(strstr(r1, "STUCK"));
	/* the record itself is fine on a live rank */
	f->recs[f->in.nrecs - 2].rank = 0;
	free(p1);
	free(r1);
	rmdir_free(d);
	d = write_fix(f);
	p1 = slurp(d, P0);
	has(p1, "[stars_engine.cc:1551]1003 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=0, stream_id=2, task_id=8885, sqe_type=3(place holder), errType=0x20(sq sw status error), sqSwStatus=0x105\n");
	free(p1);
	rmdir_free(d);
	free(f);
}

static void test_levels(void **state)
{
	struct fix *f = fix_new();
	char *d, *p0, *r0, *d0;

	(void)state;
	f->sc.log_level = HX_LOG_ERROR;
	d = write_fix(f);
	p0 = slurp(d, P0);
	r0 = slurp(d, R0);
	d0 = slurp(d, D0);
	assert_null(strstr(p0, "[INFO]"));
	assert_null(strstr(d0, "[INFO]"));
	has(p0, "ExceptionType:[Heartbeat Lost Occurred]");
	has(r0, "HCCL_EXEC_TIMEOUT set by default to [1836]s");
	has(r0, "status[LOST]");
	free(p0);
	free(r0);
	free(d0);
	rmdir_free(d);
	f->sc.log_level = HX_LOG_DEBUG;
	d = write_fix(f);
	p0 = slurp(d, P0);
	has(p0, "[DEBUG] RUNTIME(1000,python3):");
	free(p0);
	rmdir_free(d);
	free(f);
}

static void test_deterministic(void **state)
{
	struct fix *f = fix_new();
	char *a = write_fix(f), *b = write_fix(f);
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(files); i++) {
		char *x = slurp(a, files[i]), *y = slurp(b, files[i]);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	rmdir_free(a);
	rmdir_free(b);
	free(f);
}

/* Rank 0 after its op launch: every other record kind. */
static struct hx_logrec *add_op(struct fix *f, uint8_t kind, uint64_t t_ms)
{
	struct hx_logrec *r = add(f, kind, 0, t_ms * HX_NS_PER_MS);

	r->comm = 0;
	r->op = 21;
	r->coll = HX_COLL_ALLREDUCE;
	r->dtype = HX_DT_FP32;
	r->bytes = 1024;
	r->core = 2;
	r->stream_id = 2;
	r->sq_id = 2;
	r->head = 1488;
	r->tail = 136;
	return r;
}

static void add_link(struct fix *f, uint64_t t_ms, uint8_t rdma)
{
	struct hx_logrec *r = add_op(f, HX_LR_LINK_ERROR, t_ms);

	r->rdma = rdma;
	r->op = 22;
	r->coll = HX_COLL_ALLGATHER;
	r->dtype = HX_DT_FP16;
	r->bytes = 4096;
	r->stream_id = 149;
	r->sq_id = 153;
	r->task_id = 26063;
	r->peer = 1;
	r->nstreams = 1;
	r->trail = rdma ? "OP(22),RS(1,/)" : "SD(1,/)";
}

static void add_retries(struct fix *f)
{
	static const char *const sel[] = {
		"RUNNING -> CMD_STOP_AICPU", "Agent:RUNNING -> WAIT_AICPU_STOPED",
		"stop", "retry", "wait_timeout", "inplace", "error",
		"constraint", "cmd_timeout", "custom text",
		"state:CMD_STOP_AICPU>WAIT_AICPU_STOPED", "Agent:A->B", NULL,
	};
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(sel); i++) {
		struct hx_logrec *r = add_op(f, HX_LR_RETRY, 52000 + i);
		r->text = sel[i];
		r->retry_cnt = 1;
		r->timeout_s = 200;
	}
}

static void fix_other_kinds(struct fix *f)
{
	struct hx_logrec *r;

	f->in.nrecs = 5;  /* PROC_START, COMM_INIT x2, OP_LAUNCH */
	add_op(f, HX_LR_KERNEL_START, 3);
	r = add_op(f, HX_LR_KERNEL_EXPANDED, 4);
	r->head = 0;
	r->tail = 4;
	add_op(f, HX_LR_KERNEL_STATUS, 33);
	add_op(f, HX_LR_KERNEL_END, 40);
	r = add_op(f, HX_LR_AICPU_OP, 41);
	r->name = "RealDiv";
	add_op(f, HX_LR_AICPU_OP, 41)->text = "end";
	add_op(f, HX_LR_COMPUTE, 42)->name = "MatMul";
	add_link(f, 50000, 0);
	add_link(f, 51000, 1);
	add_retries(f);
	add(f, HX_LR_HEARTBEAT_STUCK, 0, 60 * HX_NS_PER_S)->peer = 1;
	r = add_op(f, HX_LR_AICPU_TIMEOUT, 70000);
	r->name = "RealDiv";
	r->stream_id = 7;
	r->task_id = 6812;
	r->timeout_s = 28;
	add_op(f, HX_LR_KERNEL_START, 1857000);
	add_op(f, HX_LR_KERNEL_TIMEOUT, 1858000)->timeout_s = 1858;
	r = add_op(f, HX_LR_NOTIFY_TIMEOUT, 1863000);
	r->host_side = 1;
	r->task_id = 5;
	r->notify_rt = 11;
	r->notify_hccl = 0x50;
	r->timeout_s = 1863;
	r = add_op(f, HX_LR_NOTIFY_TIMEOUT, 1864000);
	r->comm = -1;
	r->stream_id = 4;
	r->notify_rt = 12;
	r->timeout_s = 60;
	add_op(f, HX_LR_STREAM_ABORT, 1865000)->task_id = 8885;
}

static void check_other_host(const char *p0, const char *r0)
{
	has(p0, "PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, dev_id=0, stream_id=149, task_id=26063, context_id=0, thread_id=0, err_type=4[fftsplus sdma error]\n");
	has(p0, "[TaskExecStage][RunFailed][AICPU]Task run failed, base information is streamID:[149], taskID[26063], taskType[Memcpy], tag[AllGather_" IDENT "], index[22]");
	has(p0, "para information is src:[0x12c0c2c00000], dst:[0x12c0c3c00000], size:[0x1000], notify id:[0xffffffffffffffff], link type:[HCCS], remote rank:[1], tag[AllGather_" IDENT "AllGatherMeshExecutor_device].\n");
	has(p0, "opData information is deviceId:[0], index[22], count[2048], src[0x12c0c2c00000], dst[0x12c0c3c00000], dataType[float16].\n");
	has(p0, " Execution_Error_SDMA(EI0012): SDMA memory copy task exception occurred. Remote rank: [1]. Base information: [streamID:[149], taskID[26063], taskType[Memcpy], tag[AllGather_" IDENT "], AlgType(level 0-1-2):[fullmesh-ring-NHR].]. Task information: [src:[0x12c0c2c00000], dst:[0x12c0c3c00000], size:[0x1000], notify id:[0xffffffffffffffff], link type:[HCCS], remote rank:[1]]. Communicator information: [group:[" IDENT "], user define information[], rankSize[2], rankId[0]].\n");
	has(p0, "[ERROR] ROCE(1000,python3):2026-11-01-07:00:51.000.000 [hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15\n");
	has(p0, "[hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000003): 0x1500047c\n");
	has(p0, "[ra_hdc_lite.c:794]tid:1009,ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]\n");
	has(p0, "[heartbeat.cc:1229] [1005][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2026-11-01 07:00:51.000000],localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.2]}\n");
	has(p0, " Execution Error ROCE CQE(EI0013): An error CQE occurred during operator execution. Local information: server 127.10.0.1, device ID 0, device IP 127.11.0.1. Peer information: server 127.10.0.1, device ID 1, device IP 127.11.0.2.\n");
	has(r0, "[1007][OpRetry][Server]State Transfer, cur state RUNNING, next state CMD_STOP_AICPU\n");
	has(r0, "[1007][OpRetry][Agent]State Transfer, cur state RUNNING, next state WAIT_AICPU_STOPED\n");
	has(r0, "[1007][OpRetry][Agent]Get ErrorCode[1] rertryCnt[1]\n");
	has(r0, "[1007][OpRetry]custom text\n");
	has(r0, "[1007][OpRetry][Server]State Transfer, cur state CMD_STOP_AICPU, next state WAIT_AICPU_STOPED\n");
	has(r0, "[1007][OpRetry][Agent]State Transfer, cur state A, next state B\n");
	assert_null(strstr(r0, "[1007][OpRetry]\n"));
	has(p0, "[1007][OpRetry][Agent]can not retry for constraint\n");
	has(p0, "[1007][OpRetry]WaitCommand timeout\n");
	has(p0, "[1003][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Sun Nov  1 07:01:00 2026], ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck\n");
	has(r0, "crimer rank [127.10.0.1/1] status[STUCK] by informer rank [127.10.0.1/0]\n");
	has(p0, "[task_info.cc:1495]1003 PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=0, stream_id=7, task_id=6812, flip_num=0, fault so_name=, fault kernel_name=, fault op_name=RealDiv, extend_info=(info_type:4, info_len:7, msg_info:RealDiv).\n");
	has(p0, "[api_c.cc:661]1000 rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a\n");
	has(p0, "[TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[2], taskID[5], taskType[Notify Wait], tag[AllReduce_" IDENT "], index[21]");
	has(p0, "[TaskExecStage][Timeout][HOST]Task run failed, para information is notify id:[0x0000000000000050], stage:[ffffffff], remote rank:[local].\n");
	has(p0, "[TaskExecStage][Timeout][HOST]Task run failed, groupRank information is group:[" IDENT "], user define information[], rankSize[2], rankId[0 4294967295].\n");
	has(p0, "[TaskExecStage][Timeout][HOST]Task run failed, opData information is timeStamp:[2026-11-01-07:00:00.000.000], deviceId[0], index[21], count[256], reduceType[sum], src[0x");
	has(p0, "notify wait timeout occurred during task execution, stream_id:4, sq_id:2, task_id:0, notify_id=12, timeout=60s.\n");
	assert_int_equal(count(p0, "Task run failed, base information"), 2);
	assert_int_equal(count(p0, "EI0002"), 0);
	has(p0, "ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=0, stream_id=2, task_id=8885,");
	assert_null(strstr(p0, "[DEBUG]"));
}

static void check_other_device(const char *d0)
{
	has(d0, "[aicpu_communicator.cc:2378] [5012][HcclCommAicpu][Orchestrate]kernel start, tag[AllReduce_" IDENT "AllReduceMeshExecutor_device], index[21], streamId:2, core[2].\n");
	has(d0, "[INFO] CCECPU(5000,aicpu_scheduler):2026-11-01-07:00:00.003.000 [aicpusd_event_manager.cpp:667][ExecuteHWTSKFCEventTask][tid:5012] kfc task, streamId[2], taskId[0].\n");
	has(d0, "[hccl_aicpu_interface.cc:69] [5012]RunAicpuRpcSrvLaunchV2 KFCTask task 0x12c100000000, context 0x12c100001000, tilingData 0x12c100002000\n");
	has(d0, "[aicpu_communicator.cc:2387] [5012][HcclCommAicpu][Orchestrate]start tag[AllReduce_" IDENT "] newTag[AllReduce_" IDENT "AllReduceMeshExecutor_device] algName[AllReduceMeshExecutor] identifier[" IDENT "]\n");
	has(d0, "[aicpu_communicator.cc:2631] [5012]HcclOpExecFsmInitProcess tag:AllReduce_" IDENT ", isDeviceMode:0, index:1\n");
	has(d0, "[aicpu_communicator.cc:3739] [5012]hccl aicpu launch hccl op task success. stream sqid:153 begin:0 end:4\n");
	has(d0, "[aicpu_communicator.cc:3888] [5012][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:153, head:1488, tail:136, group[" IDENT "] tag[AllReduce_" IDENT "]\n");
	has(d0, "[5012][HcclCommAicpu][Orchestrate]kernel end, tag[AllReduce_" IDENT "AllReduceMeshExecutor_device], index[21], streamId:2, state[END].\n");
	has(d0, "[aicpu_communicator.cc:2146] [5012][HcclCommAicpu][ExecOp] executor op success tag[AllReduce_" IDENT "], newTag[AllReduce_" IDENT "AllReduceMeshExecutor_device], algName[AllReduceMeshExecutor], identifier[" IDENT "].\n");
	has(d0, "[hccl_aicpu_interface.cc:122] [5012]end RunAicpuRpcSrvLaunchV2\n");
	has(d0, "[INFO] CCECPU(5000,aicpu_scheduler):2026-11-01-07:00:00.041.000 [aicpusd_event_manager.cpp:769][ExecuteHWTSEventTask][tid:5012] Begin to ExecuteTsKernelTask, mailboxId[0], serialNo[0], streamId[2], taskId[0], dataDumpEnableMode[0], kernelType[2], subeventId[0].\n");
	has(d0, "[aicpusd_event_manager.cpp:754][ProcessHWTSKernelEvent][tid:5012] End send ack to Ts, kernelType[2], deviceId[0], subevent_id[0], mailboxId[0], serialNo[0], streamId[2], taskId[0], result[0], originResult[0], status[0].\n");
	has(d0, "[5004][HcclCommAicpu][PrintTaskExceptionByTaskId]streamId:149 tail:136 cqeType:11\n");
	has(d0, "[aicpu_communicator.cc:3750] [5004][TaskException][AICPU]base information is streamId:149, sqid:153, head:1488, tail:136, type:SDMA, localRank:0, remoteRank:1, taskId:26063, notifyId:0, addr1High:0x12c0, addr1Low:0xc3c00000, addr2High:0x12c0, addr2Low:0xc2c00000.\n");
	has(d0, "type:WRITE VALUE, localRank:0, remoteRank:1, taskId:26063,");
	has(d0, "[5004][TaskException]task sequence is OP(22),SD(1,/)\n");
	has(d0, "[5004][TaskException]task sequence is OP(22),RS(1,/)\n");
	has(d0, "[INFO] HCCL(5000,aicpu_scheduler):2026-11-01-07:00:52.002.000 [aicpu_communicator.cc:2952] [5012][OpRetry][AICPU]hccl aicpu stop by sdma/write task exception, can retry.\n");
	has(d0, "[aicpu_communicator.cc:3427] [5012][OpRetry][AICPU]retry launch start, retryCnt:1, tag[AllReduce_" IDENT "].\n");
	has(d0, "[aicpu_communicator.cc:2491] [5012][OpRetry][AICPU]hccl aicpu wait retry timeout[200000 ms].\n");
	has(d0, "[aicpu_communicator.cc:2905] [5012][Opretry][AICPU][HcclOpExecFsmStoppedProcess]can not retry for inpace error.\n");
	has(d0, "[ERROR] AICPU(5000,aicpu_scheduler):2026-11-01-07:01:10.000.000 [aicpusd_monitor.cpp:437][HandleTaskTimeout][tid:5002] Send timeout to tsdaemon, tsdaemon will kill aicpu-sd process, thread index[2], op name[RealDiv], serialNo=1, stream_id=7, task_id=6812, nowTick:1803500000000, startTick:1802100000000, timeOut:1400000000, tickFreq:50000000.\n");
	has(d0, "[ERROR] HCCL(5000,aicpu_scheduler):2026-11-01-07:30:58.000.000 [aicpu_communicator.cc:3909] [5012][HcclCommAicpu]KFC timeout.. group[" IDENT "].\n");
	has(d0, "[aicpu_communicator.cc:2694] [5012]WaitTaskFinish failed, ret:9, identifier[" IDENT "]\n");
	has(d0, "[aicpu_communicator.cc:2556] [5012]hccl aicpu set kfcStatus[2]\n");
	has(d0, "[aicpu_communicator.cc:2132] [5012][HcclCommAicpu][ExecOp] executor op fail, tag[AllReduce_" IDENT "AllReduceMeshExecutor_device], algName[AllReduceMeshExecutor], identifier[" IDENT "]\n");
	has(d0, "[aicpu_communicator.cc:3526] [5012]AicpuComm: group[" IDENT "], status[inExec], op[tag: AllReduce_" IDENT ", newTag: AllReduce_" IDENT "AllReduceMeshExecutor_device, index: 2], aicpuCoreNum[6]\n");
	has(d0, "[hccl_aicpu_interface.cc:115] [5012]run AicpuRunRpcServerV2 failed. ret[9]\n");
	assert_null(strstr(d0, "In Execution group num"));  /* 1 comm, 6 cores */
	assert_null(strstr(d0, "[DEBUG]"));
}

static void test_other_kinds(void **state)
{
	struct fix *f = fix_new();
	char *d, *p0, *r0, *d0;
	size_t i;

	(void)state;
	fix_other_kinds(f);
	d = write_fix(f);
	for (i = 0; i < HX_ARRAY_LEN(files); i++) {
		char *s = slurp(d, files[i]);
		check_grammar(s);
		free(s);
	}
	p0 = slurp(d, P0);
	r0 = slurp(d, R0);
	d0 = slurp(d, D0);
	check_other_host(p0, r0);
	check_other_device(d0);
	free(p0);
	free(r0);
	free(d0);
	rmdir_free(d);
	f->sc.log_level = HX_LOG_DEBUG;
	d = write_fix(f);
	p0 = slurp(d, P0);
	d0 = slurp(d, D0);
	has(p0, "KernelLaunch:launch kernel, device_id=0, stream_id=2, task_id=0, kernel_name=MatMul.\n");
	assert_null(strstr(d0, "execute kernel, op name"));
	free(p0);
	free(d0);
	rmdir_free(d);
	free(f);
}

/* Run-level device lines (W1, C1) are in the device run log at every
 * level, as host run-level lines are in run/plog; flat: the device file. */
static void test_device_run_log(void **state)
{
	struct fix *f = fix_new();
	char *d, *dr0, *d0;

	(void)state;
	fix_other_kinds(f);
	f->sc.log_level = HX_LOG_ERROR;
	d = write_fix(f);
	dr0 = slurp(d, DR0);
	d0 = slurp(d, D0);
	check_grammar(dr0);
	has(dr0, "[INFO] HCCL(5000,aicpu_scheduler):2026-11-01-07:00:00.033.000 [aicpu_communicator.cc:3888] [5012][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:153, ");
	has(dr0, "[5012]AicpuComm: group[" IDENT "], status[inExec], ");
	has(dr0, "[5012][OpRetry][AICPU]retry launch start, retryCnt:1, ");
	has(dr0, "[INFO] CCECPU(5000,aicpu_scheduler):2026-11-01-07:00:00.000.000 [main.cpp:352][ComputeProcessMain][tid:5000] Aicpu schedule start successfully, LD_LIBRARY_PATH=");
	assert_null(strstr(dr0, "[ERROR]"));
	assert_null(strstr(dr0, "RunAicpuRpcSrvLaunchV2 KFCTask"));
	assert_null(strstr(d0, "[INFO]"));
	free(dr0);
	free(d0);
	rmdir_free(d);
	f->sc.log_level = HX_LOG_INFO;
	f->sc.layout = HX_LAYOUT_FLAT;
	d = write_fix(f);
	d0 = slurp(d, "logs/device-1000_20261101070000000.log");
	assert_int_equal(count(d0, "WaitFinishWhileLoop]Current state."), 1);
	free(d0);
	rmdir_free(d);
	free(f);
}

/* Rtsq full: R3 every 30 s, then R1, R6 and the failure exit, ret 20. */
static void test_rtsq_full(void **state)
{
	struct fix *f = fix_new();
	struct hx_logrec *r;
	char *d, *d0;

	(void)state;
	f->in.nrecs = 5;
	add_op(f, HX_LR_KERNEL_START, 3);
	r = add_op(f, HX_LR_KERNEL_STATUS, 30003);
	r->text = "rtsq";
	r->head = 2047;
	r->tail = 2048 + 2040;
	r->sqe_cnt = 18;
	r = add_op(f, HX_LR_KERNEL_TIMEOUT, 1856003);
	r->text = "rtsq";
	r->timeout_s = 1856;
	r->head = 2047;
	d = write_fix(f);
	d0 = slurp(d, D0);
	has(d0, "[INFO] HCCL(5000,aicpu_scheduler):2026-11-01-07:00:30.003.000 [dispatcher_aicpu.cc:759] [5012][LaunchTask][WaitLaunchWhileLoop]Current state. sqid:153, head:2047, tail:2040, cnt:18\n");
	has(d0, "[ERROR] HCCL(5000,aicpu_scheduler):2026-11-01-07:30:56.003.000 [dispatcher_aicpu.cc:750] [5012]Rtsq full, timeout 1856s. curhead:2047, sqId:153\n");
	has(d0, "[aicpu_communicator.cc:3722] [5012][HcclCommAicpu][LaunchTask]algName[AllReduceMeshExecutor] ret = 20\n");
	has(d0, "[5012]AicpuComm: group[" IDENT "], status[inExec], ");
	has(d0, "[hccl_aicpu_interface.cc:115] [5012]run AicpuRunRpcServerV2 failed. ret[20]\n");
	assert_null(strstr(d0, "WaitRtsqAvailable"));
	free(d0);
	d0 = slurp(d, DR0);
	has(d0, "[LaunchTask][WaitLaunchWhileLoop]Current state. sqid:153, ");
	free(d0);
	rmdir_free(d);
	free(f);
}

/* log_fidelity verified: no invented line; full keeps them. */
static void test_fidelity(void **state)
{
	static const char *const invented[] = {
		"kernel start", "kernel end", "Init:open device",
		"Record:notify record", "KernelLaunch:", "sqe_type=7, Notify Wait",
		"[OpRetry]custom text",
	};
	struct fix *f = fix_new();
	char *d, *all;
	size_t i, j;

	(void)state;
	fix_other_kinds(f);
	add(f, HX_LR_STREAM_DUMP, 0, 1866 * HX_NS_PER_S)->first_stream = 0;
	f->recs[f->in.nrecs - 1].nstreams = 1;
	f->sc.log_level = HX_LOG_DEBUG;
	for (j = 0; j < 2; j++) {
		f->sc.log_fidelity = j ? HX_FID_VERIFIED : HX_FID_FULL;
		d = write_fix(f);
		all = slurp(d, D0);
		for (i = 0; i < HX_ARRAY_LEN(invented); i++) {
			char *p0 = slurp(d, P0), *r0 = slurp(d, R0);
			bool in = strstr(all, invented[i]) ||
				  strstr(p0, invented[i]) ||
				  strstr(r0, invented[i]);

			if (in == (j == 1))
				fail_msg("%s: %s", j ? "verified has" : "full lacks",
					 invented[i]);
			free(p0);
			free(r0);
		}
		/* the real lines stay */
		has(all, "RunAicpuRpcSrvLaunchV2 KFCTask task 0x");
		has(all, "end RunAicpuRpcSrvLaunchV2\n");
		free(all);
		rmdir_free(d);
	}
	free(f);
}

static int diags;
static void count_diag(void *ud, const struct hangdx_diag *dg)
{
	(void)ud;
	(void)dg;
	diags++;
}

static void test_bad_input(void **state)
{
	struct fix *f = fix_new();
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	char *d = tmpdir();

	(void)state;
	hangdx_ctx_set_diag(ctx, count_diag, NULL);
	f->recs[3].rank = 7;
	assert_int_equal(hx_simlog_write(ctx, d, &f->in), HANGDX_EINVAL);
	f->recs[3].rank = 1;
	f->recs[5].nstreams = 9;
	assert_int_equal(hx_simlog_write(ctx, d, &f->in), HANGDX_EINVAL);
	f->recs[5].nstreams = 2;
	f->lrs[1].npos = 99;
	assert_int_equal(hx_simlog_write(ctx, d, &f->in), HANGDX_EINVAL);
	assert_int_equal(diags, 3);
	hangdx_ctx_free(ctx);
	rmdir_free(d);
	free(f);
}

static void test_nomem(void **state)
{
	struct fix *f = fix_new();
	long n;
	int err = HANGDX_ENOMEM;

	(void)state;
	for (n = 1; err != HANGDX_OK && n < 100; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, n + 1);
		char *d = tmpdir();

		err = hx_simlog_write(ctx, d, &f->in);
		/* hx_outfile_open reports EIO when the hook fails */
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM ||
			    err == HANGDX_EIO);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
		rmdir_free(d);
	}
	assert_int_equal(err, HANGDX_OK);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_grammar),
		cmocka_unit_test(test_host_lines),
		cmocka_unit_test(test_notify_timeout),
		cmocka_unit_test(test_stream_dump),
		cmocka_unit_test(test_proc_exit),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_other_kinds),
		cmocka_unit_test(test_device_run_log),
		cmocka_unit_test(test_fidelity),
		cmocka_unit_test(test_rtsq_full),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_nomem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
