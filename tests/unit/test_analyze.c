/* test_analyze.c - unit tests of the analyzer through the public API:
 * evidence read from log text in memory, then diagnosed (among them the
 * two kinds of wait_cycle, proven on one rank and a ring of ranks); the
 * allocation-failure loop over hangdx_diagnose; quotes of the HTML report
 * from a file that changed; lists cut at their limit; DOT drawn on two
 * threads at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

/* Two ranks of one communicator stop at op index 21 with different
 * collectives (the shape of the vendor doc's mismatch example). */
static const char mismatch_log[] =
	"# file: w0/plog/plog-100_1.log\n"
	"[INFO] HCCL(100,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [100]Entry-HcclCommInitRootInfoInner:ranks[2], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n"
	"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
	"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.240 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x1], dst[0x2], dataType[float32].\n"
	"# file: w1/plog/plog-200_1.log\n"
	"[INFO] HCCL(200,python3):2025-10-24-11:16:52.719.313 [op_base.cc:1292] [200]Entry-HcclCommInitRootInfoInner:ranks[2], rank[1], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[1]\n"
	"[ERROR] HCCL(200,python3):2025-10-24-11:18:29.499.335 [task_exception_handler.cc:908] [200][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllGather_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
	"[ERROR] HCCL(200,python3):2025-10-24-11:18:29.499.340 [task_exception_handler.cc:908] [200][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[1], index[21], count[256], dataType[float32].\n";

#define INIT_LINE "[INFO] HCCL(100,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [100]Entry-HcclCommInitRootInfoInner:ranks[2], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n"
/* a job that ends destroys its communicators (HCCL's run log) */
static const char healthy_log[] = INIT_LINE
	"[INFO] HCCL(100,python3):2025-10-24-11:20:01.100.000 [op_base.cc:3629] [100]op_base comm destroy complete, take time [1200]us, group[g1], deviceLogicId[0].\n";
/* the same job without its end: silence is not health */
static const char unended_log[] = INIT_LINE;

static struct hangdx_diagnosis *diagnose_text(struct hangdx_ctx *ctx,
					      struct hangdx_evidence **ev,
					      const char *text)
{
	struct hangdx_diagnosis *d = NULL;

	assert_int_equal(hangdx_evidence_new(ctx, ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(*ev, "mem.log", text, strlen(text),
					   NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(*ev, NULL, &d), HANGDX_OK);
	return d;
}

static void test_mismatch(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, mismatch_log);

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "collective_mismatch");
	assert_true(hangdx_diagnosis_root_rank(d) == 0 ||
		    hangdx_diagnosis_root_rank(d) == 1);
	assert_int_equal(hangdx_diagnosis_first_rank(d), 0);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_not_determined(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, unended_log);

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "not_determined");
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_no_hang(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, healthy_log);

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_NO_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "none");
	assert_int_equal(hangdx_diagnosis_root_rank(d), -1);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_reports(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, mismatch_log);
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	(void)state;
	fp = open_memstream(&buf, &n);
	assert_int_equal(hangdx_diagnosis_write_json(d, fp), HANGDX_OK);
	fclose(fp);
	assert_non_null(strstr(buf, "\"category\": \"collective_mismatch\""));
	assert_non_null(strstr(buf, "\"verdict\": \"hang\""));
	free(buf);
	fp = open_memstream(&buf, &n);
	assert_int_equal(hangdx_diagnosis_write_text(d, fp, 0), HANGDX_OK);
	fclose(fp);
	assert_non_null(strstr(buf, "hangdx: HANG"));
	assert_null(strchr(buf, '\033'));
	free(buf);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}
/* Three ranks of one communicator time out at the same op, each waiting
 * for the next (remote rank 1, 2, 0), and no device log: a circular wait
 * across ranks, unproven, with no single root; rank 0 failed first. */
static const char ring_log[] =
	"# file: w0/plog/plog-100_1.log\n"
	"[INFO] HCCL(100,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [100]Entry-HcclCommInitRootInfoInner:ranks[3], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n"
	"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
	"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:842] [100][TaskExecStage][Timeout][Host]Task run failed, para information is notify id:[0x0000000000000001], stage:[0], remote rank:[1], tag[AllReduce_g1].\n"
	"# file: w1/plog/plog-101_1.log\n"
	"[INFO] HCCL(101,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [101]Entry-HcclCommInitRootInfoInner:ranks[3], rank[1], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[1]\n"
	"[ERROR] HCCL(101,python3):2025-10-24-11:18:29.499.245 [task_exception_handler.cc:908] [101][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
	"[ERROR] HCCL(101,python3):2025-10-24-11:18:29.499.245 [task_exception_handler.cc:842] [101][TaskExecStage][Timeout][Host]Task run failed, para information is notify id:[0x0000000000000001], stage:[0], remote rank:[2], tag[AllReduce_g1].\n"
	"# file: w2/plog/plog-102_1.log\n"
	"[INFO] HCCL(102,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [102]Entry-HcclCommInitRootInfoInner:ranks[3], rank[2], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[2]\n"
	"[ERROR] HCCL(102,python3):2025-10-24-11:18:29.499.255 [task_exception_handler.cc:908] [102][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
	"[ERROR] HCCL(102,python3):2025-10-24-11:18:29.499.255 [task_exception_handler.cc:842] [102][TaskExecStage][Timeout][Host]Task run failed, para information is notify id:[0x0000000000000001], stage:[0], remote rank:[0], tag[AllReduce_g1].\n";

static void test_ring_wait_cycle(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, ring_log);
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "wait_cycle");
	assert_int_equal(hangdx_diagnosis_root_rank(d), -1);
	assert_int_equal(hangdx_diagnosis_first_rank(d), 0);
	js = json_of(d);
	assert_non_null(strstr(js, "\"proven\": false"));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* One rank's TS dumps: stream 3 waits at its head for event 9, which
 * stream 5 records behind its own head, an event wait for event 8 that
 * stream 3 records behind its head.  A cycle of four tasks and no AICPU
 * pool, every task dumped: a proven wait_cycle on rank 0, not an AICPU
 * exhaustion deadlock. */
static const char event_cycle_log[] =
	"# file: rank-0/ascend/log/debug/device-0/device-80029_20240208014114.log\n"
	"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.406 3986 (dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=80029, sq_id=3, is_need_process=1, exe_time=16, time_out=10, stream_id=3, task_id=43, cur_head=43, wait_sqe_head=43\n"
	"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.431 3987 (dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=3, type=5, sq_pid=80029\n"
	"stream_id=3, rtsq_id=3, sq_fsm=0x9, cur_wait_time=16, head=43, tail=45, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=10, cq_tail=10, pid=80029, vf_id=0, is_mc2_sq=0\n"
	"pos=43: stream_id=3, task_id=43, sqe_type=5, Event Wait, event_id=9\n"
	"pos=44: stream_id=3, task_id=44, sqe_type=4, Event Record, event_id=8, isSync=0\n"
	"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.506 3986 (dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=80029, sq_id=5, is_need_process=1, exe_time=16, time_out=10, stream_id=5, task_id=12, cur_head=12, wait_sqe_head=12\n"
	"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.531 3987 (dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=5, type=5, sq_pid=80029\n"
	"stream_id=5, rtsq_id=5, sq_fsm=0x9, cur_wait_time=16, head=12, tail=14, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=10, cq_tail=10, pid=80029, vf_id=0, is_mc2_sq=0\n"
	"pos=12: stream_id=5, task_id=12, sqe_type=5, Event Wait, event_id=8\n"
	"pos=13: stream_id=5, task_id=13, sqe_type=4, Event Record, event_id=9, isSync=0\n";

static void test_event_cycle_proven(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev, event_cycle_log);
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_DEADLOCK);
	assert_string_equal(hangdx_diagnosis_category(d), "wait_cycle");
	assert_int_equal(hangdx_diagnosis_root_rank(d), 0);
	js = json_of(d);
	assert_non_null(strstr(js, "\"proven\": true"));
	assert_non_null(strstr(js, "\"what\": \"rank0 stream3 #43 EVENT_WAIT(event 9)\", \"waits_for\": \"event\""));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Never "no hang" on a timeout: three ranks' watchdogs time out one
 * collective, and a fourth rank ran out of memory.  SeqNum is logical
 * progress: rank 2, at 195, is behind the others. */
static void test_watchdog_behind_over_oom(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
		"[rank0]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
		"[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
		"[rank2]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 2] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=195, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
		"[rank3]: torch.OutOfMemoryError: NPU out of memory. Tried to allocate 72.00 MiB (NPU 3; 61.27 GiB total capacity)\n");
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "collective_timeout");
	assert_int_equal(hangdx_diagnosis_root_rank(d), 2);
	js = json_of(d);
	assert_non_null(strstr(js, "\"hang\": true"));
	assert_non_null(strstr(js, "\"seq_num\": 195"));
	assert_non_null(strstr(js, "\"op_type\": \"ALLREDUCE\""));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* A failure that is not a hang is named, with exit-0 verdict. */
static void test_not_a_hang(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
		"(EngineCore_DP0 pid=553) EL0004: [PID: 553] 2025-09-17-04:55:13.065.712 Failed to allocate memory.\n"
		"(EngineCore_DP0 pid=553)         alloc device memory failed, runtime result = 207001[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
		"(EngineCore_DP0 pid=553) RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:508 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507013\n");
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_NO_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "not_a_hang");
	js = json_of(d);
	assert_non_null(strstr(js, "\"hang\": false"));
	assert_non_null(strstr(js, "Not a hang: the job stopped on out of device "
				   "memory at mem.log:1"));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* A failure that may come from a wait elsewhere: not "no hang". */
static void test_hang_undetermined(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
		"(Worker pid=17148) (Worker_DP0_TP6_EP6 pid=17148) ERROR 03-25 06:14:02 [multiproc_executor.py:880]        synchronize stream with timeout failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n");
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "other");
	js = json_of(d);
	assert_non_null(strstr(js, "\"hang\": null"));
	assert_non_null(strstr(js, "\"error_code\": \"507011\""));
	assert_non_null(strstr(js, "ASCEND_GLOBAL_LOG_LEVEL"));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* An AI Core timeout with no collective in the text (a DeepEP bench
 * note quoting the screen): device_timeout, a hang. */
static void test_device_timeout(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
		"[rank0] warmup...\n"
		"EZ9999: Kernel task happen error, retCode=0x25, [aicore timeout]\n");

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "device_timeout");
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* An FFTS+ timeout with its stuck notifies (the A2 form of
 * Ascend/pytorch#43) lists them in the ids. */
static void test_fftsplus_stuck_notifies(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
		"EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), serial number is 1, hccl fftsplus task timeout occurred during task execution, stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.\n"
		"        The 0 stuck notify wait context info:(context_id=2, notify_id=7).\n");
	char *js;

	(void)state;
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_HANG);
	assert_string_equal(hangdx_diagnosis_category(d), "fftsplus_timeout");
	js = json_of(d);
	assert_non_null(strstr(js, "\"stream\": 4, \"task\": 5"));
	assert_non_null(strstr(js, "\"stuck_notifies\": [{\"context_id\": 2, "
				   "\"notify_id\": 7}]"));
	free(js);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Every allocation of a diagnosis may fail: HANGDX_ENOMEM, nothing leaked. */
/* Console text decided on the job-wide signals (field reports). */
static const char console_log[] =
	"[rank0]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
	"[rank2]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 2] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=195, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
	"EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), serial number is 1, hccl fftsplus task timeout occurred during task execution, stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.\n"
	"        The 0 stuck notify wait context info:(context_id=2, notify_id=7).\n"
	"torch.OutOfMemoryError: NPU out of memory. Tried to allocate 72.00 MiB\n";

static void nomem_on(const char *text)
{
	long n;
	int ok = 0;

	for (n = 1; n < 5000 && !ok; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_evidence *ev = NULL;
		struct hangdx_diagnosis *d = NULL;
		struct hangdx_ingest_opts o = { .threads = 1 };
		int err;

		assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
		assert_int_equal(hangdx_ingest_mem(ev, "mem.log", text,
						   strlen(text), &o),
				 HANGDX_OK);
		fa.fail_at = fa.count + n;
		err = hangdx_diagnose(ev, NULL, &d);
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
		assert_true(err == HANGDX_OK ? d != NULL : d == NULL);
		ok = err == HANGDX_OK;
		hangdx_diagnosis_free(d);
		hangdx_evidence_free(ev);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(ok);
	assert_true(n > 10);
}

static void test_nomem(void **state)
{
	(void)state;
	nomem_on(mismatch_log);
	nomem_on(console_log);
}

/* One report of each kind into memory; the first error. */
static int write_reports(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	int err;

	assert_non_null(fp);
	err = hangdx_diagnosis_write_text(d, fp, HANGDX_COLOR);
	if (!err)
		err = hangdx_diagnosis_write_json(d, fp);
	if (!err)
		err = hangdx_diagnosis_write_dot(d, fp);
	if (!err)
		err = hangdx_diagnosis_write_html(d, fp, NULL, HANGDX_HTML_QUOTE);
	fclose(fp);
	free(buf);
	return err;
}

/* Every allocation of the report writers may fail: HANGDX_ENOMEM,
 * nothing leaked, and the diagnosis still writes afterwards. */
static void test_reports_nomem(void **state)
{
	long n;
	int ok = 0;

	(void)state;
	for (n = 1; n < 20000 && !ok; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_evidence *ev = NULL;
		struct hangdx_diagnosis *d = diagnose_text(ctx, &ev,
							   mismatch_log);
		int err;

		fa.fail_at = fa.count + n;
		err = write_reports(d);
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
		ok = err == HANGDX_OK;
		fa.fail_at = 0;
		assert_int_equal(write_reports(d), HANGDX_OK);
		hangdx_diagnosis_free(d);
		hangdx_evidence_free(ev);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(ok);
	assert_true(n > 3);
}

/* The same on the simulated reference incident: a proven deadlock with
 * its chain, graph and timeline, the log lines quoted from disk. */
static void test_deadlock_reports_nomem(void **state)
{
	char dir[] = "/tmp/hangdx-test-XXXXXX", cmd[64];
	struct hangdx_ctx *ctx0 = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_opts so = { 0 };
	struct hangdx_sim_summary sum;
	/* one reading thread: the counting allocator is not thread-safe */
	struct hangdx_ingest_opts one = { .threads = 1 };
	long n;
	int ok = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(hangdx_scenario_preset(ctx0, "reference", &sc), 0);
	so.outdir = dir;
	so.write_logs = 1;
	assert_int_equal(hangdx_simulate(ctx0, sc, &so, &sum), HANGDX_OK);
	assert_int_equal(sum.outcome, HANGDX_DEADLOCK);
	for (n = 1; n < 20000 && !ok; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_evidence *ev = NULL;
		struct hangdx_diagnosis *d = NULL;
		int err;

		assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
		assert_int_equal(hangdx_ingest_path(ev, dir, &one), HANGDX_OK);
		assert_int_equal(hangdx_diagnose(ev, NULL, &d), HANGDX_OK);
		assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_DEADLOCK);
		fa.fail_at = fa.count + n;
		err = write_reports(d);
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
		ok = err == HANGDX_OK;
		hangdx_diagnosis_free(d);
		hangdx_evidence_free(ev);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(ok);
	assert_true(n > 3);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Write text to path. */
static void put_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *html_of(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	assert_int_equal(hangdx_diagnosis_write_html(d, fp, NULL,
						     HANGDX_HTML_QUOTE), HANGDX_OK);
	fclose(fp);
	return buf;
}

/* The HTML report quotes a cited line only while the file still holds
 * the line that was parsed: a log rewritten (rotated) after it was read,
 * with lines starting at the same offsets, is not quoted. */
static void test_html_quote_changed_file(void **state)
{
	char dir[] = "/tmp/hangdx-test-XXXXXX", path[96], cmd[64];
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = NULL;
	const char *at = strstr(mismatch_log, "[ERROR]");
	const char *end = strstr(mismatch_log, "# file: w1");
	char *text, *html, *p;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/plog-100_1.log", dir);
	text = strndup(at, (size_t)(end - at));
	assert_non_null(text);
	put_file(path, text);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_path(ev, path, NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(ev, NULL, &d), HANGDX_OK);
	html = html_of(d);
	assert_non_null(strstr(html, "<pre>[ERROR] HCCL(100,python3):2025-10-24-11:18:29"));
	free(html);
	/* the same shape, other times: as after a rotation */
	while ((p = strstr(text, "11:18:29")) != NULL)
		memcpy(p, "11:44:44", 8);
	put_file(path, text);
	html = html_of(d);
	assert_null(strstr(html, "11:44:44"));
	assert_null(strstr(html, "<pre>"));
	assert_non_null(strstr(html, "is not the one that was parsed"));
	free(html);
	free(text);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* More distinct rank states than a list holds: the groups are cut (the
 * last one takes the other states) and a note says so; the diagnosis
 * does not fail (it reported the limit as "out of memory"). */
static void test_list_cut(void **state)
{
	enum { NR = 4200 };
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = NULL;
	size_t cap = (size_t)NR * 700, n = 0;
	char *text = malloc(cap), *json = NULL;
	size_t jn = 0;
	FILE *fp;
	int r;

	(void)state;
	assert_non_null(text);
	for (r = 0; r < NR; r++)
		n += (size_t)snprintf(text + n, cap - n,
			"# file: w%d/plog/plog-%d_1.log\n"
			"[INFO] HCCL(%d,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [%d]Entry-HcclCommInitRootInfoInner:ranks[%d], rank[%d], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n"
			"[ERROR] HCCL(%d,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [%d][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[%d], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n",
			r, 1000 + r, 1000 + r, 1000 + r, NR, r, 1000 + r, 1000 + r, r);
	assert_true(n < cap);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "mem.log", text, n, NULL),
			 HANGDX_OK);
	assert_int_equal(hangdx_diagnose(ev, NULL, &d), HANGDX_OK);
	fp = open_memstream(&json, &jn);
	assert_int_equal(hangdx_diagnosis_write_json(d, fp), HANGDX_OK);
	fclose(fp);
	assert_non_null(strstr(json, "other states (the list of groups was cut at 4096)"));
	assert_non_null(strstr(json, "reached its limit of 4096 entries and was cut"));
	free(json);
	free(text);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* The reference preset, KEY=VALUE set if KEY, simulated (it must end as
 * WANT says), read back and diagnosed. */
static struct hangdx_diagnosis *sim_diagnose(struct hangdx_ctx *ctx,
					     struct hangdx_evidence **ev,
					     const char *key, const char *value,
					     enum hangdx_outcome want)
{
	char dir[] = "/tmp/hangdx-test-XXXXXX", cmd[64];
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_opts so = { 0 };
	struct hangdx_sim_summary sum;
	struct hangdx_diagnosis *d = NULL;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(hangdx_scenario_preset(ctx, "reference", &sc), 0);
	if (key)
		assert_int_equal(hangdx_scenario_set(sc, key, value), 0);
	so.outdir = dir;
	so.write_logs = 1;
	assert_int_equal(hangdx_simulate(ctx, sc, &so, &sum), HANGDX_OK);
	assert_int_equal(sum.outcome, want);
	assert_int_equal(hangdx_evidence_new(ctx, ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_path(*ev, dir, NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(*ev, NULL, &d), HANGDX_OK);
	hangdx_scenario_free(sc);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return d;
}

static char *dot_of(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (!fp)
		return NULL;
	if (hangdx_diagnosis_write_dot(d, fp) != HANGDX_OK) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	return buf;
}

struct drawer {
	const struct hangdx_diagnosis *d;
	const char *want;
	int bad;
};

static void *draw_loop(void *arg)
{
	struct drawer *w = arg;
	int i;

	for (i = 0; i < 20000; i++) {
		char *got = dot_of(w->d);
		w->bad += !got || strcmp(got, w->want) != 0;
		free(got);
	}
	return NULL;
}

/* Two graphs drawn at once on two threads come out as drawn alone (the
 * DOT writer kept its sort context in file statics).  A race: on a loaded
 * two-core machine the old writer failed this in about one run of four. */
static void test_dot_reentrant(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev1, *ev2;
	struct hangdx_diagnosis *d1 = sim_diagnose(ctx, &ev1, NULL, NULL, HANGDX_DEADLOCK);
	struct hangdx_diagnosis *d2 = sim_diagnose(ctx, &ev2, "communicators", "7", HANGDX_DEADLOCK);
	struct drawer w[2] = { { d1, NULL, 0 }, { d2, NULL, 0 } };
	pthread_t th[2];
	int i;

	(void)state;
	w[0].want = dot_of(d1);
	w[1].want = dot_of(d2);
	assert_non_null(w[0].want);
	assert_non_null(w[1].want);
	assert_string_not_equal(w[0].want, w[1].want);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, draw_loop, &w[i]), 0);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(w[0].bad, 0);
	assert_int_equal(w[1].bad, 0);
	free((void *)w[0].want);
	free((void *)w[1].want);
	hangdx_diagnosis_free(d1);
	hangdx_diagnosis_free(d2);
	hangdx_evidence_free(ev1);
	hangdx_evidence_free(ev2);
	hangdx_ctx_free(ctx);
}

/* A rank past 4,096 missing from the root-info exchange's connected-rank
 * lists is the rank that never joined; a list longer than the reader
 * keeps names no gap (rank 64 is not missing: it was cut). */
static char *connected_lists(size_t per_line, size_t lines, size_t gap)
{
	size_t cap = 400000, n, line, r;
	char *text = malloc(cap);

	assert_non_null(text);
	n = (size_t)snprintf(text, cap, "%s",
		"[ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.200 [topoinfo_exchange_server.cc:187][57044][TopoInfoExchangeServer][GetConnection]get socket timeout, timeout[720000 ms]\n");
	for (line = 0; line < lines; line++) {
		n += (size_t)snprintf(text + n, cap - n, "[ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.3%02zu [topoinfo_exchange_server.cc:253][57044][TopoInfoExchangeServer][DisplayConnectedRank]connected rankinfo[LINE %zu]: ", line % 100, line + 1);
		for (r = line * per_line; r < (line + 1) * per_line; r++)
			if (r != gap)
				n += (size_t)snprintf(text + n, cap - n, "%s[%016zu]",
						      r % per_line ? "," : "", r);
		n += (size_t)snprintf(text + n, cap - n, ";\n");
	}
	return text;
}

static void test_missing_rank_large(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d;
	char *text = connected_lists(10, 500, 4500);

	(void)state;
	d = diagnose_text(ctx, &ev, text);
	assert_string_equal(hangdx_diagnosis_category(d), "connect_timeout");
	assert_int_equal(hangdx_diagnosis_root_rank(d), 4500);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	free(text);
	text = connected_lists(2000, 3, 4500);
	d = diagnose_text(ctx, &ev, text);
	assert_int_not_equal(hangdx_diagnosis_root_rank(d), 64);
	assert_int_not_equal(hangdx_diagnosis_root_rank(d), 4500);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_rank_large),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_no_hang),
		cmocka_unit_test(test_not_determined),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_watchdog_behind_over_oom),
		cmocka_unit_test(test_ring_wait_cycle),
		cmocka_unit_test(test_event_cycle_proven),
		cmocka_unit_test(test_not_a_hang),
		cmocka_unit_test(test_hang_undetermined),
		cmocka_unit_test(test_fftsplus_stuck_notifies),
		cmocka_unit_test(test_device_timeout),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_reports_nomem),
		cmocka_unit_test(test_deadlock_reports_nomem),
		cmocka_unit_test(test_html_quote_changed_file),
		cmocka_unit_test(test_list_cut),
		cmocka_unit_test(test_dot_reentrant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
