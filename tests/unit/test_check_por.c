/* test_check_por.c - the checker's reductions, state by state: for small
 * scenarios the whole unreduced state graph is built, and at every
 * reachable state the stubborn set the search would take must keep every
 * stuck state reachable (the union over its steps of what their
 * successors reach equals what the state reaches).  The same for the
 * unbounded-pool abstraction, whose stuck states must include every stuck
 * state of the exact model.  This file includes explore.c to reach the
 * search's own set selection. */
#include <stdio.h>
#include "testutil.h"
#include "check/explore.c"

#define MAX_NODES 300000u

struct graph {
	size_t sb;                  /* packed state bytes */
	uint8_t *st;                /* nodes' packed states */
	size_t n, cap;
	uint32_t *slot;
	size_t nslot;
	uint32_t *first, *edge, *eproc; /* CSR successors and their process */
	size_t nedge, capedge;
	uint64_t *reach;            /* per node: stuck states reachable (bits) */
	size_t words;
	uint32_t *stuck;            /* stuck node ids */
	size_t nstuck;
};

static uint32_t g_find(struct graph *g, const uint8_t *p, bool *added)
{
	uint64_t h = state_hash(p, g->sb);
	size_t j, i;

	if ((g->n + 1) * 2 > g->nslot) {
		size_t ns = g->nslot ? g->nslot * 2 : 1024;
		uint32_t *s = calloc(ns, sizeof *s);
		assert_non_null(s);
		for (i = 0; i < g->n; i++) {
			for (j = state_hash(g->st + i * g->sb, g->sb) & (ns - 1); s[j];
			     j = (j + 1) & (ns - 1))
				;
			s[j] = (uint32_t)i + 1;
		}
		free(g->slot);
		g->slot = s;
		g->nslot = ns;
	}
	for (j = h & (g->nslot - 1); g->slot[j]; j = (j + 1) & (g->nslot - 1))
		if (!memcmp(g->st + (g->slot[j] - 1) * g->sb, p, g->sb)) {
			*added = false;
			return g->slot[j] - 1;
		}
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->st = realloc(g->st, g->cap * g->sb);
		assert_non_null(g->st);
	}
	memcpy(g->st + g->n * g->sb, p, g->sb);
	g->slot[j] = (uint32_t)g->n + 1;
	*added = true;
	return (uint32_t)g->n++;
}

static void g_edge(struct graph *g, uint32_t to, uint32_t proc)
{
	if (g->nedge == g->capedge) {
		g->capedge = g->capedge ? g->capedge * 2 : 4096;
		g->edge = realloc(g->edge, g->capedge * sizeof *g->edge);
		g->eproc = realloc(g->eproc, g->capedge * sizeof *g->eproc);
		assert_non_null(g->edge);
		assert_non_null(g->eproc);
	}
	g->edge[g->nedge] = to;
	g->eproc[g->nedge++] = proc;
}

/* Every reachable state, every successor (one per waiter a release may
 * pick); false when the graph is too large for the test. */
static bool g_build(struct graph *g, struct ck_model *m)
{
	struct ck_ws w, v;
	uint8_t *pk;
	uint32_t np = ck_nproc(m), *waiters, p, s, k, id;
	size_t i, q;
	bool added;

	memset(g, 0, sizeof *g);
	g->sb = m->state_bytes;
	pk = calloc(g->sb + 8, 1);
	waiters = calloc(m->nstream + 1, sizeof *waiters);
	g->first = calloc(MAX_NODES + 2, sizeof *g->first);
	assert_non_null(pk);
	assert_non_null(waiters);
	assert_non_null(g->first);
	assert_int_equal(ck_ws_alloc(m, &w), HANGDX_OK);
	assert_int_equal(ck_ws_alloc(m, &v), HANGDX_OK);
	ck_ws_init(m, &w);
	ck_pack(m, &w, pk);
	g_find(g, pk, &added);
	for (i = 0; i < g->n && g->n < MAX_NODES; i++) {
		g->first[i] = (uint32_t)g->nedge;
		ck_unpack(m, g->st + i * g->sb, &w);
		for (p = 0; p < np; p++) {
			struct ck_effect e;
			uint32_t nw = 0, r, kn;

			if (!ck_enabled(m, &w, p))
				continue;
			ck_ws_copy(m, &v, &w);
			ck_apply(m, &v, p, CK_NONE, &e);
			r = p < m->nranks ? p : m->stream[p - m->nranks].rank;
			for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
				if (w.ph[s] == PH_WAIT)
					waiters[nw++] = s;
			kn = e.nchoices < 2 ? 1 : nw;
			for (k = 0; k < kn; k++) {
				ck_ws_copy(m, &v, &w);
				ck_apply(m, &v, p, e.nchoices < 2 ? CK_NONE : waiters[k],
					 NULL);
				ck_pack(m, &v, pk);
				id = g_find(g, pk, &added);
				g_edge(g, id, p);
			}
		}
	}
	g->first[g->n] = (uint32_t)g->nedge;
	ck_ws_free(m, &w);
	ck_ws_free(m, &v);
	free(pk);
	free(waiters);
	if (g->n >= MAX_NODES)
		return false;
	/* stuck states and what each state reaches (every edge goes one
	 * step deeper, so reverse discovery order is a topological order) */
	g->stuck = calloc(g->n + 1, sizeof *g->stuck);
	assert_non_null(g->stuck);
	assert_int_equal(ck_ws_alloc(m, &w), HANGDX_OK);
	for (i = 0; i < g->n; i++) {
		ck_unpack(m, g->st + i * g->sb, &w);
		if (g->first[i] == g->first[i + 1] && !ck_done(m, &w))
			g->stuck[g->nstuck++] = (uint32_t)i;
	}
	ck_ws_free(m, &w);
	g->words = g->nstuck / 64 + 1;
	g->reach = calloc(g->n * g->words, sizeof *g->reach);
	assert_non_null(g->reach);
	for (q = 0; q < g->nstuck; q++)
		g->reach[g->stuck[q] * g->words + q / 64] |= 1ULL << (q % 64);
	for (i = g->n; i-- > 0;)
		for (q = g->first[i]; q < g->first[i + 1]; q++) {
			size_t t = g->edge[q], b;
			assert_true(t > i);
			for (b = 0; b < g->words; b++)
				g->reach[i * g->words + b] |= g->reach[t * g->words + b];
		}
	return true;
}

static void g_free(struct graph *g)
{
	free(g->st);
	free(g->slot);
	free(g->first);
	free(g->edge);
	free(g->eproc);
	free(g->reach);
	free(g->stuck);
}

/* At every state, the reduced successors reach what the state reaches.
 * Returns how many states took fewer steps than were enabled. */
static size_t g_validate(struct graph *g, struct ck_model *m, const char *name)
{
	struct search x;
	uint64_t *u = calloc(g->words, sizeof *u);
	size_t i, a, q, b, reduced = 0, bad = 0;

	assert_non_null(u);
	assert_int_equal(search_init(&x, m, 1ULL << 32, true, false), HANGDX_OK);
	for (i = 0; i < g->n; i++) {
		size_t n, nen = 0;

		if (g->first[i] == g->first[i + 1])
			continue;
		ck_unpack(m, g->st + i * g->sb, &x.cur);
		n = ss_choose(&x.ss, true, x.steps);
		memset(u, 0, g->words * sizeof *u);
		for (q = g->first[i]; q < g->first[i + 1]; q++) {
			if (q == g->first[i] || g->eproc[q] != g->eproc[q - 1])
				nen++;
			for (a = 0; a < n; a++)
				if (g->eproc[q] == x.steps[a])
					break;
			if (a == n)
				continue;
			for (b = 0; b < g->words; b++)
				u[b] |= g->reach[g->edge[q] * g->words + b];
		}
		reduced += n < nen;
		if (memcmp(u, g->reach + i * g->words, g->words * sizeof *u)) {
			if (!bad)
				print_error("%s: the stubborn set of state %zu loses a "
					    "stuck state\n", name, i);
			bad++;
		}
	}
	search_free(&x);
	free(u);
	assert_int_equal(bad, 0);
	return reduced;
}

static const char *const cases[] = {
	/* the reference incident, small: a pool deadlock */
	"name: ref\ncluster: {ranks: 2, aicpu_cores: 2}\n"
	"env: {HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - aicore: {stream: compute, name: FA, duration: 2ms}\n"
	"  - aicpu: {stream: compute, name: NonZero, duration: 200us}\n"
	"  - event_record: {stream: compute, event: E}\n"
	"  - event_wait: {stream: comm, event: E}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - host_sync: all\n",
	/* grant order on rank 1 only */
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
	/* one communicator on two streams, fed again after a host sync */
	"name: twostreams\ncluster: {ranks: 2, aicpu_cores: 1}\n"
	"model: {order_launch: false, slave_streams: 0}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - allreduce: {stream: s1, comm: c2}\n"
	"  - allgather: {stream: comm, comm: c}\n"
	"  - host_sync: {stream: comm}\n"
	"  - event_record: {stream: s1, event: F}\n",
	/* retry off, 1 core, a user notify that can collapse */
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
	/* retry off, AICPU ops after and between collectives, small SQs */
	"name: offsq\ncluster: {ranks: 2, aicpu_cores: 1, sq_depth: 4}\n"
	"model: {slave_streams: 0}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - aicpu: {stream: a, name: A, duration: 1ms}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - aicpu: {stream: comm, name: B, duration: 1ms}\n"
	"  - host_sync: all\n",
	/* the reference program with retry off and one core */
	"name: refoff\ncluster: {ranks: 2, aicpu_cores: 1}\n"
	"communicators:\n  - {name: c, count: 2}\n"
	"program:\n"
	"  - aicore: {stream: compute, name: FA, duration: 2ms}\n"
	"  - aicpu: {stream: compute, name: NonZero, duration: 200us}\n"
	"  - event_record: {stream: compute, event: E}\n"
	"  - event_wait: {stream: comm, event: E}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - host_sync: all\n",
	/* two ops per communicator with retry off (O0/O1 reused) */
	"name: twoopsoff\ncluster: {ranks: 1, aicpu_cores: 1}\n"
	"communicators:\n  - {name: c}\n  - {name: d}\n"
	"program:\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - allreduce: {stream: comm2, comm: d}\n"
	"  - aicpu: {stream: x, name: X, duration: 1ms}\n"
	"  - notify_record: {stream: x, notify: N}\n"
	"  - notify_wait: {stream: comm, notify: N}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - allreduce: {stream: comm2, comm: d}\n"
	"  - host_sync: all\n",
	/* two ops per communicator (O0/O1 reused), retry on for one group */
	"name: twoops\ncluster: {ranks: 1, aicpu_cores: 2}\n"
	"communicators:\n  - {name: c, retry: on}\n  - {name: d}\n"
	"program:\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - allreduce: {stream: comm2, comm: d}\n"
	"  - aicpu: {stream: x, name: X, duration: 1ms}\n"
	"  - allreduce: {stream: comm, comm: c}\n"
	"  - allreduce: {stream: comm2, comm: d}\n"
	"  - host_sync: all\n",
};

static void test_stubborn_sets_keep_stuck_states(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	size_t i, stuck = 0, reduced = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hangdx_scenario *sc = NULL;
		struct ck_model m;
		struct graph g;

		assert_int_equal(hangdx_scenario_load_mem(ctx, "por", cases[i],
							  strlen(cases[i]), &sc),
				 HANGDX_OK);
		assert_int_equal(ck_model_build(&m, ctx, sc), HANGDX_OK);
		assert_true(g_build(&g, &m));
		stuck += g.nstuck;
		reduced += g_validate(&g, &m, cases[i]);
		g_free(&g);
		ck_model_free(&m);
		hangdx_scenario_free(sc);
	}
	/* the cases have stuck states, and the sets do leave steps out */
	assert_true(stuck >= 4);
	assert_true(reduced > 100);
	hangdx_ctx_free(ctx);
}

/* The unbounded-pool abstraction: its own stubborn sets are sound, and
 * every stuck state of the exact model is one of its stuck states. */
static void test_abstraction_keeps_stuck_states(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	size_t i, j, q, used = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hangdx_scenario *sc = NULL;
		struct ck_model m;
		struct graph ex, ab;

		assert_int_equal(hangdx_scenario_load_mem(ctx, "abs", cases[i],
							  strlen(cases[i]), &sc),
				 HANGDX_OK);
		assert_int_equal(ck_model_build(&m, ctx, sc), HANGDX_OK);
		if (m.nfree_pool) {
			used++;
			assert_true(g_build(&ex, &m));
			m.abstract = true;
			assert_true(g_build(&ab, &m));
			g_validate(&ab, &m, cases[i]);
			m.abstract = false;
			for (q = 0; q < ex.nstuck; q++) {
				const uint8_t *p = ex.st + ex.stuck[q] * ex.sb;
				for (j = 0; j < ab.nstuck; j++)
					if (!memcmp(p, ab.st + ab.stuck[j] * ab.sb, ab.sb))
						break;
				assert_true(j < ab.nstuck);
			}
			g_free(&ex);
			g_free(&ab);
		}
		ck_model_free(&m);
		hangdx_scenario_free(sc);
	}
	assert_true(used >= 3);
	hangdx_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stubborn_sets_keep_stuck_states),
		cmocka_unit_test(test_abstraction_keeps_stuck_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
