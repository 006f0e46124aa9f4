/*
 * test_resident.c - the one rule of residency (src/model/resident.c): its
 * contract row by row; for every preset (and five variants of the
 * reference) the simulator's, the checker's and the snapshot's views of
 * each kernel give the rule the same configuration, so the three decide
 * alike in every situation; the kernels the simulator left on cores are
 * those the snapshot rebuilds from its logs, each waiting for its main
 * stream to drain exactly when the rule says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "testutil.h"
#include "analyze/analyze.h"
#include "check/check.h"

/* ---- the contract ---- */

struct row {
	bool retry;
	enum hx_mode mode;
	bool expanded, sq_full, drained;
	bool resident;
	enum hx_kres why;
};

static const struct row rows[] = {
	/* before expansion: kept, retry on or off, any mode */
	{ false, HX_MODE_AI_CPU, false, false, false, true, HX_KRES_EXPANDING },
	{ true, HX_MODE_AI_CPU, false, false, false, true, HX_KRES_EXPANDING },
	{ false, HX_MODE_AI_CPU, false, true, false, true, HX_KRES_SQ_FULL },
	{ true, HX_MODE_AI_CPU, false, true, false, true, HX_KRES_SQ_FULL },
	{ true, HX_MODE_HOST, false, true, false, true, HX_KRES_SQ_FULL },
	/* expanded, retry active: kept until M_c drains */
	{ true, HX_MODE_AI_CPU, true, false, false, true, HX_KRES_RETRY },
	{ true, HX_MODE_AI_CPU, true, false, true, false, HX_KRES_DRAINED },
	/* expanded, retry off or inactive outside AI_CPU: returns */
	{ false, HX_MODE_AI_CPU, true, false, false, false, HX_KRES_NO_RETRY },
	{ false, HX_MODE_AI_CPU, true, false, true, false, HX_KRES_NO_RETRY },
	{ true, HX_MODE_HOST, true, false, false, false, HX_KRES_NO_RETRY },
	{ true, HX_MODE_AIV, true, false, false, false, HX_KRES_NO_RETRY },
	{ true, HX_MODE_AICPU_TS, true, false, false, false, HX_KRES_NO_RETRY },
	/* sq_full and drained only count where they apply */
	{ true, HX_MODE_AI_CPU, true, true, false, true, HX_KRES_RETRY },
	{ false, HX_MODE_AI_CPU, false, false, true, true, HX_KRES_EXPANDING },
};

static void test_contract(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(rows); i++) {
		struct hx_kcond c = { rows[i].retry, (uint8_t)rows[i].mode,
				      rows[i].expanded, rows[i].sq_full,
				      rows[i].drained };
		enum hx_kres why = HX_KRES_NO_RETRY;

		if (hx_kernel_resident(&c, &why) != rows[i].resident ||
		    why != rows[i].why)
			fail_msg("row %zu: %s, want %s", i, hx_kres_name(why),
				 hx_kres_name(rows[i].why));
		assert_int_equal(hx_kernel_resident(&c, NULL), rows[i].resident);
	}
	assert_string_equal(hx_kres_name(HX_KRES_SQ_FULL), "sq-full");
}

/* ---- the three views of one preset ---- */

/* The situations a kernel can be in, as hx_kcond's last three fields. */
static const bool situations[4][3] = {
	{ false, false, false },        /* expanding */
	{ false, true, false },         /* waiting for SQ room */
	{ true, false, false },         /* expanded, M_c not drained */
	{ true, false, true },          /* expanded, M_c drained */
};

static void situate(struct hx_kcond *c, int k)
{
	c->expanded = situations[k][0];
	c->sq_full = situations[k][1];
	c->drained = situations[k][2];
}

/* The rule's decision and reason in each situation, for one configuration. */
static void decide(struct hx_kcond c, bool res[4], enum hx_kres why[4])
{
	int k;

	for (k = 0; k < 4; k++) {
		situate(&c, k);
		res[k] = hx_kernel_resident(&c, &why[k]);
	}
}

static void same_decisions(const char *p, const char *who, uint32_t r,
			   uint32_t comm, struct hx_kcond a, struct hx_kcond b)
{
	bool ra[4], rb[4];
	enum hx_kres wa[4], wb[4];
	int k;

	decide(a, ra, wa);
	decide(b, rb, wb);
	for (k = 0; k < 4; k++)
		if (ra[k] != rb[k] || wa[k] != wb[k])
			fail_msg("%s: rank %u comm %u, situation %d: simulator "
				 "says %s, %s says %s", p, r, comm, k,
				 hx_kres_name(wa[k]), who, hx_kres_name(wb[k]));
}

/* The checker: each compiled kernel decides as the simulator's view of
 * its communicator does, expanded, drained or not. */
static void checker_agrees(const char *p, const struct hx_state *st,
			   const struct ck_model *m)
{
	size_t i;

	for (i = 0; i < m->nkern; i++) {
		const struct ck_kern *k = &m->kern[i];
		const struct hx_task *t =
			&m->st.tasks[ck_at(m, k->kstream, k->pos)->htask];
		uint32_t r = m->stream[k->kstream].rank;
		struct hx_kcond c;

		hx_kcond_of(st, r, (uint32_t)t->comm, &c);
		same_decisions(p, "the checker", r, (uint32_t)t->comm, c, k->cond);
		c.expanded = true;
		assert_int_equal(k->stays, hx_kernel_resident(&c, NULL));
		c.drained = true;
		assert_int_equal(ck_kern_keeps(k, true), hx_kernel_resident(&c, NULL));
	}
}

/* The snapshot: what the simulated logs of each rank echo gives the
 * rule what the scenario gives the simulator, for every communicator. */
static void snapshot_agrees(const char *p, const struct hx_state *st,
			    const struct hangdx_diagnosis *d)
{
	uint32_t i, c;

	for (i = 0; i < d->nranks; i++) {
		int32_t r = d->ranks[i].rank;
		struct hx_kcond snap;

		if (r < 0 || (uint32_t)r >= st->nranks || d->ranks[i].pseudo)
			continue;
		hx_snap_kcond(d, i, false, &snap);
		for (c = 0; c < st->ncomms; c++) {
			struct hx_kcond sim;

			if (st->dev[r].comm[c].me < 0)
				continue;
			hx_kcond_of(st, (uint32_t)r, c, &sim);
			same_decisions(p, "the snapshot", (uint32_t)r, c, sim, snap);
		}
	}
}

/* ---- what the simulator left holding cores, and the snapshot's rebuild ---- */

/* Running HCCL kernels per rank in truth.json's "blocked" list (one task
 * a line), the simulator's holders when nothing moved any more. */
static void truth_holders(const char *dir, uint32_t *n, uint32_t nranks)
{
	char path[600], line[4096];
	bool in = false;
	FILE *fp;

	snprintf(path, sizeof path, "%s/truth.json", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	memset(n, 0, nranks * sizeof *n);
	while (fgets(line, sizeof line, fp)) {
		unsigned r;

		if (strncmp(line, "  \"blocked\": [", 14) == 0)
			in = strstr(line, "[]") == NULL;
		else if (in && strncmp(line, "  ]", 3) == 0)
			in = false;
		else if (in && sscanf(line, " {\"rank\": %u,", &r) == 1 &&
			 r < nranks && strstr(line, "\"kind\": \"KERNEL_HCCL\", "
					      "\"state\": \"running\""))
			n[r]++;
	}
	fclose(fp);
}

/* Does the snapshot show rank's device (a TS dump of it was read)? */
static bool dumped(const struct hangdx_diagnosis *d, int32_t rank)
{
	size_t i;

	for (i = 0; d->have_snapshot && i < d->st.nstreams; i++)
		if (d->st.streams[i].rank == (uint32_t)rank)
			return true;
	return false;
}

/* Kernels the snapshot holds on rank's cores that wait for M_c to drain. */
static uint32_t drain_waits(const struct hangdx_diagnosis *d, int32_t rank)
{
	uint32_t n = 0;
	size_t i;

	for (i = 0; d->have_snapshot && i < d->st.ntasks; i++) {
		const struct hx_task *t = &d->st.tasks[i];
		if (t->kind == HX_T_KERNEL && t->state == HX_TS_RUNNING &&
		    t->end_pos && d->st.streams[t->stream].rank == (uint32_t)rank)
			n++;
	}
	return n;
}

static void holders_agree(const char *p, const char *dir,
			  const struct hangdx_diagnosis *d, uint32_t nranks)
{
	uint32_t *n = calloc(nranks + 1, sizeof *n), i;

	assert_non_null(n);
	truth_holders(dir, n, nranks);
	for (i = 0; i < d->nranks; i++) {
		int32_t r = d->ranks[i].rank;
		struct hx_kcond c;
		bool stays;

		if (r < 0 || (uint32_t)r >= nranks || d->ranks[i].pseudo ||
		    !dumped(d, r))
			continue;       /* no device state to rebuild */
		if (d->ranks[i].kernels != n[r])
			fail_msg("%s: rank %d: the simulator left %u kernels on "
				 "cores, the snapshot %u", p, r, n[r],
				 d->ranks[i].kernels);
		hx_snap_kcond(d, i, true, &c);
		c.expanded = true;
		stays = hx_kernel_resident(&c, NULL);
		assert_int_equal(drain_waits(d, r), stays ? n[r] : 0);
	}
	free(n);
}

/* Simulate preset p with logs into a fresh directory, then diagnose them. */
static struct hangdx_diagnosis *sim_and_diagnose(struct hangdx_ctx *ctx,
						 struct hangdx_scenario *sc,
						 const char *dir,
						 struct hangdx_evidence **ev)
{
	struct hangdx_sim_opts o = { dir, 1, 0, 1 };
	struct hangdx_diagnosis *d = NULL;

	assert_int_equal(hangdx_simulate(ctx, sc, &o, NULL), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_path(*ev, dir, NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(*ev, NULL, &d), HANGDX_OK);
	return d;
}

/* Preset p with the --set pairs of set (NULL-terminated), run and read. */
static void one_preset(const char *p, const char *const *set,
		       const char *root)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = NULL;
	struct hangdx_evidence *ev = NULL;
	struct hangdx_diagnosis *d;
	struct ck_model m;
	struct hx_state st;
	char dir[512];
	static unsigned runs;   /* a directory of its own per run */

	assert_int_equal(hangdx_scenario_preset(ctx, p, &sc), HANGDX_OK);
	for (; set && set[0]; set += 2)
		assert_int_equal(hangdx_scenario_set(sc, set[0], set[1]),
				 HANGDX_OK);
	assert_int_equal(hx_state_init(&st, ctx, sc), HANGDX_OK);
	assert_int_equal(hx_opseq_setup(&st, NULL, NULL), HANGDX_OK);
	assert_int_equal(ck_model_build(&m, ctx, sc), HANGDX_OK);
	checker_agrees(p, &st, &m);
	snprintf(dir, sizeof dir, "%s/%s-%u", root, p, runs++);
	d = sim_and_diagnose(ctx, sc, dir, &ev);
	snapshot_agrees(p, &st, d);
	holders_agree(p, dir, d, st.nranks);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	ck_model_free(&m);
	hx_state_free(&st);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

/* Variants where a kernel keeps its core for another reason: a full SQ
 * with retry off (the simulator keeps it, HX_KRES_SQ_FULL), retry off,
 * fewer communicators than cores, expansion on the host. */
static const char *const variants[][8] = {
	{ "sq_depth", "4", "retry", "off", "communicators", "1", NULL },
	{ "sq_depth", "4", NULL },
	{ "retry", "off", NULL },
	{ "communicators", "5", NULL },
	{ "mode", "HOST", NULL },
};

static void test_presets_agree(void **state)
{
	const char *const *names = hangdx_preset_names();
	char root[] = "/tmp/hangdx-resident-XXXXXX", cmd[64];
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (i = 0; names[i]; i++)
		one_preset(names[i], NULL, root);
	assert_true(i >= 12);
	for (i = 0; i < HX_ARRAY_LEN(variants); i++)
		one_preset("reference", variants[i], root);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* ---- the snapshot's configuration from what the logs echo ---- */

static void test_snapshot_echo(void **state)
{
	static const struct {
		const char *retry, *mode;
		bool stays;
	} cases[] = {
		{ "L0:1,L1:1,L2:0", "AI_CPU", true },
		{ "L0:0,L1:1,L2:0", NULL, true },       /* not echoed: A3's */
		{ "L0:0,L1:0,L2:1", "AI_CPU", true },   /* any level */
		{ "L0:0,L1:0,L2:0", "AI_CPU", false },
		{ NULL, "AI_CPU", false },              /* not echoed: off */
		{ "L0:1,L1:1,L2:0", "HOST", false },    /* inactive (§6) */
		{ "L1:1", "AIV", false },
		{ "L1:1", "NEW_MODE", false },          /* unknown: not AI_CPU */
	};
	struct hx_rankinfo ri;
	struct hangdx_diagnosis d;
	struct hx_kcond c;
	size_t i;

	(void)state;
	memset(&d, 0, sizeof d);
	memset(&ri, 0, sizeof ri);
	d.ranks = &ri;
	d.nranks = 1;
	for (i = 0; i < HX_ARRAY_LEN(cases); i++) {
		ri.retry_env = cases[i].retry;
		ri.mode = cases[i].mode;
		if (hx_snap_kernels_stay(&d, 0) != cases[i].stays)
			fail_msg("case %zu: retry %s, mode %s", i,
				 cases[i].retry ? cases[i].retry : "-",
				 cases[i].mode ? cases[i].mode : "-");
	}
	ri.retry_env = NULL;
	ri.mode = NULL;
	hx_snap_kcond(&d, 0, true, &c);         /* observed: lines show it */
	assert_true(c.retry && c.mode == HX_MODE_AI_CPU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_snapshot_echo),
		cmocka_unit_test(test_presets_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
