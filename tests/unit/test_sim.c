/* test_sim.c - unit tests of the simulator through the public API: the
 * reference deadlock, retry off, the communicator threshold, faults, and
 * allocation failure; the ranks whose own nodes hold a cycle, on a wait-for
 * graph built by hand. */
#include <stdio.h>
#include "testutil.h"
#include "model/state.h"

static struct hangdx_scenario *preset(struct hangdx_ctx *ctx, const char *name)
{
	struct hangdx_scenario *sc = NULL;

	assert_int_equal(hangdx_scenario_preset(ctx, name, &sc), HANGDX_OK);
	assert_non_null(sc);
	return sc;
}

static void set(struct hangdx_scenario *sc, const char *k, const char *v)
{
	assert_int_equal(hangdx_scenario_set(sc, k, v), HANGDX_OK);
}

static struct hangdx_sim_summary run(const char *name, const char *k1,
				     const char *v1, const char *k2,
				     const char *v2)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, name);
	struct hangdx_sim_summary sum;

	if (k1)
		set(sc, k1, v1);
	if (k2)
		set(sc, k2, v2);
	assert_int_equal(hangdx_simulate(ctx, sc, NULL, &sum), HANGDX_OK);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
	return sum;
}

static void test_reference_deadlocks(void **state)
{
	struct hangdx_sim_summary s = run("reference", NULL, NULL, NULL, NULL);

	(void)state;
	assert_int_equal(s.outcome, HANGDX_DEADLOCK);
	assert_int_equal(s.communicators, 14);
	assert_int_equal(s.retry, 1);
	/* the cycle closes within milliseconds; EI0002 fires T_exec later */
	assert_true(s.block_time_s > 0 && s.block_time_s < 0.1);
	assert_non_null(strstr(s.first_error, "EI0002"));
	assert_non_null(strstr(s.first_error, "M_c1"));
	assert_true(s.first_error_time_s >= s.block_time_s + 1836.0 - 0.01);
	assert_true(s.first_error_time_s <= s.block_time_s + 1836.0 + 0.01);
	/* pool -> kernel -> M_c NW(H0) -> U NR(H0) -> U EVENT_WAIT ->
	 * compute EVENT_RECORD -> compute AICPU op -> pool */
	assert_int_equal(s.cycle_len, 7);
	assert_non_null(strstr(s.cycle, "AICPU pool (6/6 cores held)"));
	assert_non_null(strstr(s.cycle, "KERNEL_HCCL(c1 op0)"));
	assert_non_null(strstr(s.cycle, "NOTIFY_WAIT(H0_c1)"));
	assert_non_null(strstr(s.cycle, "EVENT_WAIT(E)"));
	assert_non_null(strstr(s.cycle, "AICPU(NonZero)"));
}

static void test_retry_off_completes(void **state)
{
	struct hangdx_sim_summary s = run("reference", "retry", "off", NULL, NULL);

	(void)state;
	assert_int_equal(s.outcome, HANGDX_COMPLETED);
	assert_int_equal(s.retry, 0);
	assert_int_equal(s.first_error_rank, -1);
	assert_int_equal(s.cycle_len, 0);
}

/* With retry on, the job deadlocks exactly when the communicators with
 * an op in flight can hold every AICPU core: communicators >= cores. */
static void test_threshold(void **state)
{
	static const char *const cores[] = { "4", "6" };
	size_t c;
	int n;

	(void)state;
	for (c = 0; c < 2; c++) {
		int k = atoi(cores[c]);
		for (n = 1; n <= 9; n++) {
			char nb[16];
			struct hangdx_sim_summary s;

			snprintf(nb, sizeof nb, "%d", n);
			s = run("reference", "cores", cores[c], "communicators", nb);
			if (n >= k)
				assert_int_equal(s.outcome, HANGDX_DEADLOCK);
			else
				assert_int_equal(s.outcome, HANGDX_COMPLETED);
		}
	}
}

static void test_safe_order_completes(void **state)
{
	struct hangdx_sim_summary s = run("reference-safe", NULL, NULL, NULL, NULL);

	(void)state;
	assert_int_equal(s.outcome, HANGDX_COMPLETED);
}

static void test_faults(void **state)
{
	struct hangdx_sim_summary s;

	(void)state;
	s = run("healthy", NULL, NULL, NULL, NULL);
	assert_int_equal(s.outcome, HANGDX_COMPLETED);
	s = run("rank-death", NULL, NULL, NULL, NULL);
	assert_int_equal(s.outcome, HANGDX_HANG);
	assert_non_null(strstr(s.first_error, "EI0002"));
	assert_int_equal(s.cycle_len, 0);
	s = run("mismatch", NULL, NULL, NULL, NULL);
	assert_int_equal(s.outcome, HANGDX_HANG);
	assert_int_equal(s.cycle_len, 0);
	s = run("link-error", NULL, NULL, NULL, NULL);
	assert_non_null(strstr(s.first_error, "EI0013"));
	assert_int_equal(s.first_error_rank, 1);
	s = run("link-error-retry", NULL, NULL, NULL, NULL);
	assert_int_equal(s.outcome, HANGDX_COMPLETED);
	s = run("slow-rank", NULL, NULL, NULL, NULL);
	assert_int_equal(s.outcome, HANGDX_COMPLETED);
	/* the straggler makes the others wait: slower than healthy runs */
	assert_true(s.end_time_s > 1.0);
}

/* An SQ too small for one op's expansion: the kernel stays resident until
 * T_exec + 20 s, then gives up with "Rtsq full" (runtime-model.md §7). */
static void test_rtsq_full(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_sim_summary s;

	(void)state;
	set(sc, "sq_depth", "4");
	set(sc, "communicators", "1");
	set(sc, "retry", "off");
	assert_int_equal(hangdx_simulate(ctx, sc, NULL, &s), HANGDX_OK);
	assert_int_not_equal(s.outcome, HANGDX_COMPLETED);
	assert_non_null(strstr(s.first_error, "RTSQ_FULL"));
	assert_true(s.first_error_time_s > 1856.0 && s.first_error_time_s < 1856.1);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

static void test_deterministic(void **state)
{
	struct hangdx_sim_summary a, b;

	(void)state;
	a = run("reference", "grant", "random", "seed", "42");
	b = run("reference", "grant", "random", "seed", "42");
	assert_int_equal(a.outcome, b.outcome);
	assert_int_equal(a.events, b.events);
	assert_int_equal(a.tasks, b.tasks);
	assert_string_equal(a.cycle, b.cycle);
}

static struct hangdx_sim_summary run_text(const char *text, const char *seed)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_summary sum;

	assert_int_equal(hangdx_scenario_load_mem(ctx, "r.yaml", text,
						  strlen(text), &sc), HANGDX_OK);
	if (seed)
		set(sc, "seed", seed);
	assert_int_equal(hangdx_simulate(ctx, sc, NULL, &sum), HANGDX_OK);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
	return sum;
}

/* Durations given as ranges: a single value (also "x..x") is exact and
 * draws nothing; a range is drawn from the seed, the same for the same
 * seed, and the draws move the run's timing. */
static void test_duration_ranges(void **state)
{
	static const char *const base =
		"name: r\ncluster: {ranks: 2}\n"
		"model: {link_latency: %s, host_api: %s}\n"
		"communicators:\n  - {name: c, count: 2}\n"
		"program:\n"
		"  - aicore: {stream: s, name: A, duration: %s}\n"
		"  - aicpu: {stream: s, name: B, duration: 200us}\n"
		"  - host_sleep: {duration: %s}\n"
		"  - allreduce: {stream: s, comm: c}\n"
		"  - host_sync: all\n";
	char one[1024], same[1024], range[1024];
	struct hangdx_sim_summary a, b, c, d, e;
	int seed, differ = 0;
	char v[16];

	(void)state;
	snprintf(one, sizeof one, base, "5us", "5us", "2ms", "1ms");
	snprintf(same, sizeof same, base, "5us..5us", "5000ns..5us", "2ms..2ms",
		 "1..1ms");
	snprintf(range, sizeof range, base, "1us..20us", "1us..9us",
		 "100us..5ms", "0..3ms");
	a = run_text(one, "1");
	b = run_text(same, "7");
	assert_int_equal(a.outcome, HANGDX_COMPLETED);
	assert_true(a.end_time_s == b.end_time_s);
	assert_int_equal(a.events, b.events);
	c = run_text(range, "3");
	d = run_text(range, "3");
	assert_int_equal(c.outcome, HANGDX_COMPLETED);
	assert_true(c.end_time_s == d.end_time_s);
	assert_int_equal(c.events, d.events);
	for (seed = 1; seed <= 8; seed++) {
		snprintf(v, sizeof v, "%d", seed);
		e = run_text(range, v);
		assert_int_equal(e.outcome, HANGDX_COMPLETED);
		/* within the bounds: at least the minima, at most the maxima */
		assert_true(e.end_time_s > 0.0001 && e.end_time_s < 0.05);
		differ += e.end_time_s != c.end_time_s;
	}
	assert_true(differ > 0);
}

static void test_nomem(void **state)
{
	long n, ok = 0;

	(void)state;
	for (n = 1; n < 4000 && !ok; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_scenario *sc = NULL;
		struct hangdx_sim_summary sum;
		int err;

		assert_int_equal(hangdx_scenario_preset(ctx, "reference", &sc),
				 HANGDX_OK);
		assert_int_equal(hangdx_scenario_set(sc, "communicators", "2"),
				 HANGDX_OK);
		fa.fail_at = fa.count + n;
		err = hangdx_simulate(ctx, sc, NULL, &sum);
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
		ok = err == HANGDX_OK;
		hangdx_scenario_free(sc);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(ok);
	assert_true(n > 20);   /* a run makes many allocations; all were failed once */
}

/* Rank 0: its pool waits for a holder that waits for the pool (its own
 * cycle).  Rank 1: a task waits on rank 0's holder, another on it; rank 2:
 * two tasks wait for each other only through rank 1 (no cycle of its own).
 * Only rank 0 is marked; with nothing deadlocked, none is. */
static void test_local_cycles(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_stream streams[3];
	struct hx_task tasks[5];
	struct hx_wnode nodes[6] = {
		{ HX_WN_POOL, 0 }, { HX_WN_TASK, 0 }, { HX_WN_TASK, 1 },
		{ HX_WN_TASK, 2 }, { HX_WN_TASK, 3 }, { HX_WN_TASK, 4 } };
	struct hx_wedge edges[] = {
		{ 0, 1, HX_WE_HOLDS, 0 }, { 1, 0, HX_WE_CORE, -1 },
		{ 2, 1, HX_WE_REMOTE, 0 }, { 3, 2, HX_WE_STREAM, -1 },
		{ 4, 2, HX_WE_REMOTE, 1 }, { 5, 4, HX_WE_STREAM, -1 } };
	uint8_t released[6] = { 0 }, mark[3];
	struct hx_state st;
	struct hx_wgraph g;
	uint32_t i;

	(void)state;
	memset(streams, 0, sizeof streams);
	memset(tasks, 0, sizeof tasks);
	memset(&st, 0, sizeof st);
	memset(&g, 0, sizeof g);
	for (i = 0; i < 3; i++)
		streams[i].rank = i;
	tasks[1].stream = tasks[2].stream = 1;
	tasks[3].stream = tasks[4].stream = 2;
	st.ctx = ctx;
	st.nranks = 3;
	st.streams = streams;
	st.nstreams = 3;
	st.tasks = tasks;
	st.ntasks = 5;
	g.ctx = ctx;
	g.nodes = nodes;
	g.nnodes = 6;
	g.edges = edges;
	g.nedges = HX_ARRAY_LEN(edges);
	g.released = released;
	g.ndead = 6;
	assert_int_equal(hx_wgraph_local_cycles(&g, &st, mark), HANGDX_OK);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 0);
	assert_int_equal(mark[2], 0);
	released[0] = released[1] = 1;      /* rank 0's cycle released */
	assert_int_equal(hx_wgraph_local_cycles(&g, &st, mark), HANGDX_OK);
	assert_int_equal(mark[0] | mark[1] | mark[2], 0);
	hangdx_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_deadlocks),
		cmocka_unit_test(test_retry_off_completes),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_safe_order_completes),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_rtsq_full),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_duration_ranges),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_local_cycles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
