/* test_check.c - unit tests of the static checker through the public API:
 * the reference deadlocks with the simulator's cycle and its witness
 * replays; retry off and alike programs without the dependency are safe;
 * the communicator threshold equals the simulator's; a deadlock that
 * needs a particular core-grant order is found; the reductions change
 * nothing but the state count; limits end undecided; allocation failure;
 * and, on the model itself, an event wait passes only after its record. */
#include <stdio.h>
#include <unistd.h>
#include "testutil.h"
#include "check/check.h"
#include "model/state.h"

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

/* An event wait at a stream's head passes only once its record has run:
 * while the record is still at the head of its own stream (not run), the
 * wait is not enabled.  A walk through the reference program that runs
 * such a record last of all enabled processes must meet that moment. */
static bool record_awaited(const struct ck_model *m, const struct ck_ws *w,
			   uint32_t s)
{
	uint32_t t;

	for (t = 0; t < m->nstream; t++) {
		const struct ck_task *c;

		if (w->head[t] >= w->tail[t])
			continue;
		c = ck_at(m, t, w->head[t]);
		if (c->kind == HX_T_EVENT_WAIT && c->dep_stream == s &&
		    w->head[s] == c->dep_pos)
			return true;
	}
	return false;
}

static void test_event_wait_after_record(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference-safe");
	struct ck_model m;
	struct ck_ws w;
	uint32_t s, p, step, met = 0;

	(void)state;
	assert_int_equal(ck_model_build(&m, ctx, sc), HANGDX_OK);
	assert_int_equal(ck_ws_alloc(&m, &w), HANGDX_OK);
	ck_ws_init(&m, &w);
	for (step = 0; step < 100000; step++) {
		uint32_t pick = CK_NONE, late = CK_NONE;

		for (s = 0; s < m.nstream; s++) {
			const struct ck_task *c;

			if (w.head[s] >= w.tail[s])
				continue;
			c = ck_at(&m, s, w.head[s]);
			if (c->kind != HX_T_EVENT_WAIT || c->dep_stream == CK_NONE ||
			    w.head[c->dep_stream] != c->dep_pos)
				continue;
			met++;
			assert_false(ck_enabled(&m, &w, m.nranks + s));
		}
		for (p = 0; p < ck_nproc(&m); p++) {
			if (!ck_enabled(&m, &w, p))
				continue;
			if (p >= m.nranks && record_awaited(&m, &w, p - m.nranks)) {
				if (late == CK_NONE)
					late = p;
			} else if (pick == CK_NONE) {
				pick = p;
			}
		}
		if (pick == CK_NONE)
			pick = late;
		if (pick == CK_NONE)
			break;
		ck_apply(&m, &w, pick, CK_NONE, NULL);
	}
	assert_true(met > 0);
	ck_ws_free(&m, &w);
	ck_model_free(&m);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
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
	struct hangdx_check_opts none = { .no_por = 1, .no_symmetry = 1,
					  .no_pool_abstraction = 1 };
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

/*
 * Scenarios where a deadlock or hang needs a particular schedule, and
 * where a reduction that dropped the wrong interleaving would hide it:
 * each is checked with every reduction and with none, and must give the
 * same verdict and the same witness length.
 */
static const char *const hard[] = {
	/* rank 1 only: its loaders hold both cores; the deadlock needs its
	 * kernels granted before NonZero (FIFO completes) */
	"name: grant1\ncluster: {ranks: 2, aicpu_cores: 2}\n"
	"env: {HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - aicpu: {stream: load0, name: G, duration: 1ms, ranks: [1]}\n"
	"  - aicpu: {stream: load1, name: G, duration: 1ms, ranks: [1]}\n"
	"  - aicpu: {stream: compute, name: NonZero, duration: 200us}\n"
	"  - event_record: {stream: compute, event: E}\n"
	"  - event_wait: {stream: comm, event: E}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - host_sync: all\n",
	/* c2 used on two streams: H0/H1 records collapse in some orders
	 * (a stream that empties and is fed again by the host) */
	"name: twostreams\ncluster: {ranks: 2, aicpu_cores: 1}\n"
	"model: {order_launch: false, slave_streams: 0}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - allreduce: {stream: s1, comm: c2}\n"
	"  - allgather: {stream: comm, comm: c}\n"
	"  - host_sync: {stream: comm}\n"
	"  - event_record: {stream: s1, event: F}\n",
	/* user notify: two records before the first wait collapse */
	"name: collapse\ncluster: {ranks: 1}\n"
	"program:\n"
	"  - notify_wait: {stream: c, notify: N}\n"
	"  - notify_wait: {stream: c, notify: N}\n"
	"  - notify_record: {stream: a, notify: N}\n"
	"  - notify_record: {stream: b, notify: N}\n"
	"  - host_sync: all\n",
	/* retry off with 1 core: the unbounded-pool abstraction applies
	 * and must not hide the collapse on a user notify */
	"name: offcollapse\ncluster: {ranks: 2, aicpu_cores: 1}\n"
	"communicators:\n  - {name: c}\n"
	"program:\n"
	"  - notify_wait: {stream: w, notify: N}\n"
	"  - notify_wait: {stream: w, notify: N}\n"
	"  - aicpu: {stream: a, name: A, duration: 1ms}\n"
	"  - notify_record: {stream: a, notify: N}\n"
	"  - aicpu: {stream: b, name: B, duration: 1ms}\n"
	"  - notify_record: {stream: b, notify: N}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - host_sync: all\n",
};

static void test_reductions_keep_deadlocks(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_check_opts none = { .no_por = 1, .no_symmetry = 1,
					  .no_pool_abstraction = 1 };
	struct hangdx_check_opts noabs = { .no_pool_abstraction = 1 };
	size_t i;

	(void)state;
	for (i = 0; i < (sizeof hard / sizeof hard[0]); i++) {
		struct hangdx_scenario *sc = NULL;
		struct hangdx_check *a, *b, *c;

		assert_int_equal(hangdx_scenario_load_mem(ctx, "hard", hard[i],
							  strlen(hard[i]), &sc),
				 HANGDX_OK);
		a = check(ctx, sc, NULL);
		b = check(ctx, sc, &none);
		c = check(ctx, sc, &noabs);
		assert_int_not_equal(hangdx_check_verdict(b), HANGDX_CHECK_SAFE);
		assert_int_not_equal(hangdx_check_verdict(b),
				     HANGDX_CHECK_UNDECIDED);
		assert_int_equal(hangdx_check_verdict(a), hangdx_check_verdict(b));
		assert_int_equal(hangdx_check_verdict(c), hangdx_check_verdict(b));
		assert_int_equal(hangdx_check_witness_len(a),
				 hangdx_check_witness_len(b));
		assert_int_equal(hangdx_check_witness_len(c),
				 hangdx_check_witness_len(b));
		assert_false(hangdx_check_pool_abstraction(a));
		assert_true(hangdx_check_states(a) <= hangdx_check_states(b));
		hangdx_check_free(a);
		hangdx_check_free(b);
		hangdx_check_free(c);
		hangdx_scenario_free(sc);
	}
	hangdx_ctx_free(ctx);
}

/* grant1: the FIFO simulation completes, the witness (which fixes rank
 * 1's grants) replays into the deadlock.  collapse: the simulation
 * completes, the witness's sequence makes it hang in the same place. */
static void test_replay_needs_schedule(void **state)
{
	static const size_t which[] = { 0, 2 };
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	char path[64];
	size_t i;

	(void)state;
	snprintf(path, sizeof path, "/tmp/hx-test-seq-%d.yaml", (int)getpid());
	for (i = 0; i < 2; i++) {
		const char *text = hard[which[i]];
		struct hangdx_scenario *sc = NULL, *w = NULL;
		struct hangdx_check *ck;
		struct hangdx_sim_summary sum;

		assert_int_equal(hangdx_scenario_load_mem(ctx, "hard", text,
							  strlen(text), &sc),
				 HANGDX_OK);
		assert_int_equal(simulate(ctx, sc, &sum), HANGDX_COMPLETED);
		ck = check(ctx, sc, NULL);
		assert_int_equal(hangdx_check_write_witness(ck, text, path),
				 HANGDX_OK);
		assert_int_equal(hangdx_scenario_load(ctx, path, &w), HANGDX_OK);
		assert_int_equal(simulate(ctx, w, &sum),
				 hangdx_check_verdict(ck) == HANGDX_CHECK_DEADLOCK
				 ? HANGDX_DEADLOCK : HANGDX_HANG);
		assert_string_equal(sum.cycle, hangdx_check_cycle(ck));
		remove(path);
		hangdx_scenario_free(w);
		hangdx_check_free(ck);
		hangdx_scenario_free(sc);
	}
	hangdx_ctx_free(ctx);
}

/* Retry off: every core user gives its core back by itself, so the
 * search with pools that never run out decides, and agrees with the
 * exact search; 64 ranks x 16 communicators is decided. */
static void test_pool_abstraction(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_check_opts exact = { .no_pool_abstraction = 1 };
	struct hangdx_check *a, *b;

	(void)state;
	set(sc, "retry", "off");
	set(sc, "communicators", "6");
	set(sc, "cores", "2");
	a = check(ctx, sc, NULL);
	b = check(ctx, sc, &exact);
	assert_int_equal(hangdx_check_verdict(a), HANGDX_CHECK_SAFE);
	assert_int_equal(hangdx_check_verdict(b), HANGDX_CHECK_SAFE);
	assert_true(hangdx_check_pool_abstraction(a));
	assert_false(hangdx_check_pool_abstraction(b));
	assert_true(hangdx_check_states(a) < hangdx_check_states(b));
	hangdx_check_free(a);
	hangdx_check_free(b);
	/* a full SQ keeps kernels resident: no abstraction, the exact answer */
	set(sc, "sq_depth", "4");
	a = check(ctx, sc, NULL);
	assert_false(hangdx_check_pool_abstraction(a));
	assert_int_not_equal(hangdx_check_verdict(a), HANGDX_CHECK_UNDECIDED);
	hangdx_check_free(a);
	set(sc, "sq_depth", "2048");
	set(sc, "ranks", "64");
	set(sc, "communicators", "16");
	set(sc, "cores", "6");
	a = check(ctx, sc, NULL);
	assert_int_equal(hangdx_check_verdict(a), HANGDX_CHECK_SAFE);
	assert_true(hangdx_check_pool_abstraction(a));
	hangdx_check_free(a);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

/* s with every "rankN" as "rank?" (ranks alike deadlock alike). */
static void unrank(const char *s, char *out, size_t n)
{
	size_t k = 0;

	while (*s && k + 1 < n) {
		if (strncmp(s, "rank", 4) == 0) {
			memcpy(out + k, "rank?", 5 < n - k - 1 ? 5 : n - k - 1);
			k += 5 < n - k - 1 ? 5 : n - k - 1;
			for (s += 4; *s >= '0' && *s <= '9'; s++)
				;
			continue;
		}
		out[k++] = *s++;
	}
	out[k] = '\0';
}

/* A deadlock that needs a duration inside a range: the simulator reaches
 * it for some seeds and completes for others; check finds it. */
static void test_duration_range(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "duration-race");
	struct hangdx_sim_summary sum;
	struct hangdx_check *ck = check(ctx, sc, NULL);
	int dead = 0, done = 0, seed;
	char v[16], a[2048], b[2048];

	(void)state;
	assert_int_equal(hangdx_check_verdict(ck), HANGDX_CHECK_DEADLOCK);
	for (seed = 1; seed <= 24; seed++) {
		snprintf(v, sizeof v, "%d", seed);
		set(sc, "seed", v);
		switch (simulate(ctx, sc, &sum)) {
		case HANGDX_DEADLOCK:
			dead++;
			unrank(sum.cycle, a, sizeof a);
			unrank(hangdx_check_cycle(ck), b, sizeof b);
			assert_string_equal(a, b);
			break;
		case HANGDX_COMPLETED:
			done++;
			break;
		default:
			fail();
		}
	}
	assert_true(dead > 0);
	assert_true(done > 0);
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

static void test_undecided(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = preset(ctx, "reference");
	struct hangdx_check_opts o = { .max_states = 50 };
	struct hangdx_check_opts mem = { .max_memory = 4096 };
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

/* The writers too: the witness scenario and the Promela export, with the
 * Nth allocation failing, end in HANGDX_ENOMEM, leave no file behind
 * and leak nothing. */
static void test_writers_alloc_failure(void **state)
{
	char dir[] = "/tmp/hangdx-ck-XXXXXX", w[64], pml[64];
	long n;
	int done = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(w, sizeof w, "%s/w.yaml", dir);
	snprintf(pml, sizeof pml, "%s/m.pml", dir);
	for (n = 1; !done && n < 4000; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_scenario *sc = preset(ctx, "reference");
		struct hangdx_check *ck = NULL;
		int e1, e2;

		assert_int_equal(hangdx_check(ctx, sc, NULL, &ck), HANGDX_OK);
		fa.fail_at = fa.count + n;
		e1 = hangdx_check_write_witness(ck, hangdx_preset_text("reference"),
						w);
		e2 = hangdx_check_write_promela(ctx, sc, pml);
		fa.fail_at = 0;
		if (!(e1 == HANGDX_OK || e1 == HANGDX_ENOMEM))
			fail_msg("n=%ld e1=%d %s", n, e1, hangdx_strerror(e1));
		assert_true(e2 == HANGDX_OK || e2 == HANGDX_ENOMEM);
		if (e1 != HANGDX_OK)
			assert_int_not_equal(access(w, F_OK), 0);
		if (e2 != HANGDX_OK)
			assert_int_not_equal(access(pml, F_OK), 0);
		done = e1 == HANGDX_OK && e2 == HANGDX_OK;
		unlink(w);
		unlink(pml);
		hangdx_check_free(ck);
		hangdx_scenario_free(sc);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(done);
	assert_true(n > 3);             /* the writers do allocate */
	assert_int_equal(rmdir(dir), 0);
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
		cmocka_unit_test(test_reductions_keep_deadlocks),
		cmocka_unit_test(test_replay_needs_schedule),
		cmocka_unit_test(test_pool_abstraction),
		cmocka_unit_test(test_duration_range),
		cmocka_unit_test(test_undecided),
		cmocka_unit_test(test_alloc_failure),
		cmocka_unit_test(test_writers_alloc_failure),
		cmocka_unit_test(test_event_wait_after_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
