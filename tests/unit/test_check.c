/* test_check.c - unit tests of the static checker through the public API:
 * the reference deadlocks with the simulator's cycle and its witness
 * replays; retry off and alike programs without the dependency are safe;
 * the communicator threshold equals the simulator's; a deadlock that
 * needs a particular core-grant order is found; the reductions change
 * nothing but the state count; limits end undecided; allocation failure. */
#include <stdio.h>
#include <unistd.h>
#include "testutil.h"

static struct hangdx_scenario *preset(struct hangdx_ctx *ctx, const char *name)
{
	struct hangdx_scenario *sc = NULL;

	assert_int_equal(hangdx_scenario_preset(ctx, name, &sc), HANGDX_OK);
	return sc;
}

static void set(struct hangdx_scenario *sc, const char *k, const char *v)
{
	assert_int_equal(hangdx_scenario_set(sc, k, v), HANGDX_OK);
}

static struct hangdx_check *check(struct hangdx_ctx *ctx,
				  const struct hangdx_scenario *sc,
				  const struct hangdx_check_opts *o)
{
	struct hangdx_check *ck = NULL;

	assert_int_equal(hangdx_check(ctx, sc, o, &ck), HANGDX_OK);
	assert_non_null(ck);
	return ck;
}

static enum hangdx_outcome simulate(struct hangdx_ctx *ctx,
				    const struct hangdx_scenario *sc,
				    struct hangdx_sim_summary *sum)
{
	assert_int_equal(hangdx_simulate(ctx, sc, NULL, sum), HANGDX_OK);
	return sum->outcome;
}

static void test_reference(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_check *ck = check(ctx, sc, NULL);
	struct hangdx_sim_summary sum;

	(void)state;
	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_DEADLOCK);
	assert_true(hangdx_check_seconds(ck) < 1.0);
	assert_true(hangdx_check_witness_len(ck) > 0);
	assert_non_null(strstr(hangdx_check_witness_step(ck, 0), "1. "));
	/* the same explanation as the simulator's truth */
	assert_int_equal(simulate(ctx, sc, &sum), HANGDX_DEADLOCK);
	assert_string_equal(hangdx_check_cycle(ck), sum.cycle);
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

/* The witness, written as a scenario, replays into the same deadlock. */
static void replay(const char *name, const char *path)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, name), *w = NULL;
	struct hangdx_check *ck = check(ctx, sc, NULL);
	struct hangdx_sim_summary sum;

	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_DEADLOCK);
	assert_int_equal(hangdx_check_write_witness(ck, hangdx_preset_text(name),
						    path), HANGDX_OK);
	assert_int_equal(hangdx_scenario_load(ctx, path, &w), HANGDX_OK);
	assert_int_equal(simulate(ctx, w, &sum), HANGDX_DEADLOCK);
	assert_string_equal(sum.cycle, hangdx_check_cycle(ck));
	remove(path);
	hangdx_scenario_free(w);
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

static void test_witness_replays(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof path, "/tmp/hx-test-check-%d.yaml", (int)getpid());
	replay("reference", path);
}

/* FIFO completes; a grant order the queue does not follow deadlocks;
 * the witness makes the simulator take it. */
static void test_grant_order(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "grant-order");
	struct hangdx_sim_summary sum;
	char path[64];

	(void)state;
	assert_int_equal(simulate(ctx, sc, &sum), HANGDX_COMPLETED);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
	snprintf(path, sizeof path, "/tmp/hx-test-grant-%d.yaml", (int)getpid());
	replay("grant-order", path);
}

static void test_retry_off_safe(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_check *ck;

	(void)state;
	set(sc, "retry", "off");
	set(sc, "communicators", "8");
	ck = check(ctx, sc, NULL);
	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_SAFE);
	assert_int_equal(hangdx_check_witness_len(ck), 0);
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

/* With retry on, check and simulate agree on every communicator count:
 * the same threshold (cores - 1 safe). */
static void test_threshold(void **state)
{
	static const char *const cores[] = { "4", "6" };
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_sim_summary sum;
	char n[16];
	size_t c;
	int k;

	(void)state;
	for (c = 0; c < 2; c++) {
		for (k = 1; k <= 8; k++) {
			struct hangdx_scenario *sc = preset(ctx, "reference");
			struct hangdx_check *ck;
			snprintf(n, sizeof n, "%d", k);
			set(sc, "cores", cores[c]);
			set(sc, "communicators", n);
			ck = check(ctx, sc, NULL);
			assert_int_equal(hangdx_check_verdict(ck) ==
					 HANGDX_CHECK_SAFE,
					 simulate(ctx, sc, &sum) == HANGDX_COMPLETED);
			assert_int_equal(hangdx_check_verdict(ck) == HANGDX_CHECK_SAFE,
					 k < atoi(cores[c]));
			hangdx_check_free(ck);
			hangdx_scenario_free(sc);
		}
	}
	hangdx_ctx_free(ctx);
}

/* The reference and grant-order programs without the event dependency. */
static const char *const nodep[] = {
	"name: nodep\ncluster: {ranks: 2, aicpu_cores: 6}\n"
	"env: {HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"}\n"
	"communicators:\n  - {name: c, count: 14}\n"
	"program:\n"
	"  - aicore: {stream: compute, name: FA, duration: 2ms}\n"
	"  - aicpu: {stream: compute, name: NonZero, duration: 200us}\n"
	"  - event_record: {stream: compute, event: E}\n"
	"  - allreduce: {stream: comm, comm: c, bytes: 64MiB}\n"
	"  - host_sync: all\n",
	"name: nodep2\ncluster: {ranks: 2, aicpu_cores: 4}\n"
	"env: {HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"}\n"
	"communicators:\n  - {name: c, count: 4}\n"
	"program:\n"
	"  - aicpu: {stream: l0, name: G, duration: 1ms}\n"
	"  - aicpu: {stream: l1, name: G, duration: 1ms}\n"
	"  - aicpu: {stream: l2, name: G, duration: 1ms}\n"
	"  - aicpu: {stream: l3, name: G, duration: 1ms}\n"
	"  - aicpu: {stream: compute, name: NonZero, duration: 200us}\n"
	"  - allreduce: {stream: comm, comm: c, bytes: 64MiB}\n"
	"  - host_sync: all\n",
};

static void test_no_dependency_safe(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	size_t i;

	(void)state;
	for (i = 0; i < (sizeof nodep / sizeof nodep[0]); i++) {
		struct hangdx_scenario *sc = NULL;
		struct hangdx_check *ck;
		assert_int_equal(hangdx_scenario_load_mem(ctx, "nodep", nodep[i],
							  strlen(nodep[i]), &sc),
				 HANGDX_OK);
		ck = check(ctx, sc, NULL);
		assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_SAFE);
		hangdx_check_free(ck);
		hangdx_scenario_free(sc);
	}
	hangdx_ctx_free(ctx);
}

/* Partial-order and symmetry reduction change the state count only. */
static void test_reductions_agree(void **state)
{
	static const char *const sets[][3] = {
		{ "reference", "2", "2" }, { "reference", "3", "2" },
		{ "reference", "2", "3" }, { "reference-safe", "3", "2" },
		{ "grant-order", "2", "2" },
	};
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_check_opts none = { 0, 0, 1, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < (sizeof sets / sizeof sets[0]); i++) {
		struct hangdx_scenario *sc = preset(ctx, sets[i][0]);
		struct hangdx_check *a, *b;
		set(sc, "communicators", sets[i][1]);
		set(sc, "cores", sets[i][2]);
		a = check(ctx, sc, NULL);
		b = check(ctx, sc, &none);
		assert_int_equal(hangdx_check_verdict(a), hangdx_check_verdict(b));
		assert_int_equal(hangdx_check_witness_len(a),
				 hangdx_check_witness_len(b));
		assert_true(hangdx_check_states(a) < hangdx_check_states(b));
		hangdx_check_free(a);
		hangdx_check_free(b);
		hangdx_scenario_free(sc);
	}
	hangdx_ctx_free(ctx);
}

static void test_undecided(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_check_opts o = { 50, 0, 0, 0 };
	struct hangdx_check_opts mem = { 0, 4096, 0, 0 };
	struct hangdx_check *ck;

	(void)state;
	set(sc, "retry", "off");
	ck = check(ctx, sc, &o);
	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_UNDECIDED);
	assert_int_equal(hangdx_check_witness_len(ck), 0);
	hangdx_check_free(ck);
	ck = check(ctx, sc, &mem);
	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_UNDECIDED);
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

/* Every allocation failure ends in HANGDX_ENOMEM and frees everything. */
static void test_alloc_failure(void **state)
{
	struct failalloc fa;
	long n;
	int done = 0;

	(void)state;
	for (n = 1; !done && n < 4000; n++) {
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_scenario *sc = preset(ctx, "reference");
		struct hangdx_check *ck = NULL;
		int err;

		set(sc, "communicators", "3");
		fa.fail_at = fa.count + n;
		err = hangdx_check(ctx, sc, NULL, &ck);
		fa.fail_at = 0;
		if (err == HANGDX_OK) {
			done = 1;
			hangdx_check_free(ck);
		} else {
			assert_int_equal(err, HANGDX_ENOMEM);
			assert_null(ck);
		}
		hangdx_scenario_free(sc);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(done);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_witness_replays),
		cmocka_unit_test(test_grant_order),
		cmocka_unit_test(test_retry_off_safe),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_no_dependency_safe),
		cmocka_unit_test(test_reductions_agree),
		cmocka_unit_test(test_undecided),
		cmocka_unit_test(test_alloc_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
