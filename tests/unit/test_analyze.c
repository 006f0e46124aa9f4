/* test_analyze.c - unit tests of the analyzer through the public API:
 * evidence read from log text in memory, then diagnosed; and the
 * allocation-failure loop over hangdx_diagnose. */
#include <stdio.h>
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

static const char healthy_log[] =
	"[INFO] HCCL(100,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [100]Entry-HcclCommInitRootInfoInner:ranks[2], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n";

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

/* The JSON of a diagnosis, for the checks below (the caller frees). */
static char *json_of(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	assert_int_equal(hangdx_diagnosis_write_json(d, fp), HANGDX_OK);
	fclose(fp);
	return buf;
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
	assert_true(hangdx_simulate(ctx0, sc, &so, &sum) >= 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_no_hang),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_watchdog_behind_over_oom),
		cmocka_unit_test(test_not_a_hang),
		cmocka_unit_test(test_hang_undetermined),
		cmocka_unit_test(test_fftsplus_stuck_notifies),
		cmocka_unit_test(test_device_timeout),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_reports_nomem),
		cmocka_unit_test(test_deadlock_reports_nomem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
