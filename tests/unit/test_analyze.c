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

/* Every allocation of a diagnosis may fail: HANGDX_ENOMEM, nothing leaked. */
static void test_nomem(void **state)
{
	long n;
	int ok = 0;

	(void)state;
	for (n = 1; n < 5000 && !ok; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_evidence *ev = NULL;
		struct hangdx_diagnosis *d = NULL;
		struct hangdx_ingest_opts o = { .threads = 1 };
		int err;

		assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
		assert_int_equal(hangdx_ingest_mem(ev, "mem.log", mismatch_log,
						   strlen(mismatch_log), &o),
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
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_reports_nomem),
		cmocka_unit_test(test_deadlock_reports_nomem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
