/* test_facts.c - per-rank facts and the two-phase diagnosis through the
 * public API: on the simulated reference incident (16 ranks, roots on
 * every rank) and with retry off (no hang), the diagnosis from facts equals
 * the single-pass one byte for byte, by files read again and by a fetch
 * from evidence in memory (the owner's side of an MPI fetch); facts
 * round-trip and merge as a set; a failed fetch leaves facts standing
 * with the missing evidence named; bad facts are diagnosed; every
 * allocation of the whole path fails in turn (ENOMEM, no leak, or the
 * unbroken answer). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

static char g_dir[] = "/tmp/hangdx-facts-XXXXXX";
static struct hangdx_ctx *g_fctx;

static char *facts_text(const struct hangdx_facts *f, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(hangdx_facts_write(f, fp), HANGDX_OK);
	fclose(fp);
	return buf;
}

/* The reference preset at 16 ranks, KEY=VALUE set if KEY: it must run and
 * end as WANT says. */
static void simulate(struct hangdx_ctx *ctx, const char *dir, const char *key,
		     const char *value, enum hangdx_outcome want)
{
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_opts so = { 0 };
	struct hangdx_sim_summary sum;

	assert_int_equal(hangdx_scenario_preset(ctx, "reference", &sc), 0);
	assert_int_equal(hangdx_scenario_set(sc, "ranks", "16"), 0);
	if (key)
		assert_int_equal(hangdx_scenario_set(sc, key, value), 0);
	so.outdir = dir;
	so.write_logs = 1;
	assert_int_equal(hangdx_simulate(ctx, sc, &so, &sum), HANGDX_OK);
	assert_int_equal(sum.outcome, want);
	hangdx_scenario_free(sc);
}

static struct hangdx_evidence *read_dir(struct hangdx_ctx *ctx, const char *dir)
{
	struct hangdx_evidence *ev = NULL;

	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_path(ev, dir, NULL), HANGDX_OK);
	return ev;
}

/* Fetch from evidence in memory through write_ranks/load_mem. */
struct memfetch {
	const struct hangdx_evidence *ev;
	size_t calls, ranks;
	int fail;
};

static int mem_fetch(void *ud, const int32_t *ranks, size_t n,
		     struct hangdx_evidence *into)
{
	struct memfetch *m = ud;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	m->calls++;
	m->ranks += n;
	if (m->fail)
		return HANGDX_EIO;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	err = hangdx_evidence_write_ranks(m->ev, ranks, n, fp);
	fclose(fp);
	if (!err)
		err = hangdx_evidence_load_mem(into, "fetched", buf, len);
	free(buf);
	return err;
}

/* The owner that kept only its facts: it reads its files again. */
static int facts_fetch(void *ud, const int32_t *ranks, size_t n,
		       struct hangdx_evidence *into)
{
	const struct hangdx_facts *own = ud;
	struct hangdx_evidence *tmp = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	assert_int_equal(hangdx_evidence_new(g_fctx, &tmp), HANGDX_OK);
	err = hangdx_facts_fetch(own, ranks, n, tmp);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	if (!err)
		err = hangdx_evidence_write_jsonl(tmp, fp, HANGDX_EV_RECORDS |
						  HANGDX_EV_FILES);
	fclose(fp);
	if (!err)
		err = hangdx_evidence_load_mem(into, "owner", buf, len);
	free(buf);
	hangdx_evidence_free(tmp);
	return err;
}

struct fixture {
	struct hangdx_ctx *ctx;
	struct hangdx_evidence *ev;
	struct hangdx_facts *f;
	char *single;
};

static void fixture(struct fixture *x, const char *key, const char *value,
		    enum hangdx_outcome want)
{
	struct hangdx_diagnosis *d = NULL;
	char dir[300], cmd[400];

	snprintf(dir, sizeof dir, "%s/%s", g_dir, key ? value : "ref");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	x->ctx = hangdx_ctx_new(NULL);
	hangdx_set_translate(0);
	simulate(x->ctx, dir, key, value, want);
	x->ev = read_dir(x->ctx, dir);
	assert_int_equal(hangdx_diagnose(x->ev, NULL, &d), HANGDX_OK);
	x->single = json_of(d);
	hangdx_diagnosis_free(d);
	assert_int_equal(hangdx_facts_new(x->ctx, &x->f), HANGDX_OK);
	assert_int_equal(hangdx_facts_add_evidence(x->f, x->ev, NULL), HANGDX_OK);
	assert_int_equal(hangdx_facts_ranks(x->f), 16);
}

static void fixture_free(struct fixture *x)
{
	free(x->single);
	hangdx_facts_free(x->f);
	hangdx_evidence_free(x->ev);
	hangdx_ctx_free(x->ctx);
}

static void same_by_files(struct fixture *x)
{
	struct hangdx_diagnosis *d = NULL;
	struct hangdx_facts *g = NULL;
	size_t len;
	char *text = facts_text(x->f, &len), *json;
	int32_t got[16];

	/* through the text, as a facts file copied from a node */
	assert_int_equal(hangdx_facts_new(x->ctx, &g), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(g, "node.facts", text, len), HANGDX_OK);
	assert_int_equal(hangdx_diagnose_facts(g, NULL, NULL, NULL, &d), HANGDX_OK);
	json = json_of(d);
	assert_string_equal(json, x->single);
	/* phase 2 read some ranks again, never all when every rank is alike */
	assert_true(hangdx_diagnosis_fetched(d, got, 16) >= 1);
	assert_true(hangdx_diagnosis_fetched(d, got, 16) < 16);
	free(json);
	hangdx_diagnosis_free(d);
	hangdx_facts_free(g);
	free(text);
}

static void same_by_memory(struct fixture *x)
{
	struct memfetch m = { x->ev, 0, 0, 0 };
	struct hangdx_diagnosis *d = NULL;
	char *json;

	assert_int_equal(hangdx_diagnose_facts(x->f, NULL, mem_fetch, &m, &d), HANGDX_OK);
	json = json_of(d);
	assert_string_equal(json, x->single);
	assert_true(m.calls >= 1 && m.ranks >= 1 && m.ranks < 16);
	free(json);
	hangdx_diagnosis_free(d);
}

static void same_by_owner_facts(struct fixture *x)
{
	struct hangdx_facts *own = NULL, *all = NULL;
	struct hangdx_diagnosis *d = NULL;
	char *json;

	size_t len;
	char *text;

	g_fctx = x->ctx;
	assert_int_equal(hangdx_facts_new(x->ctx, &own), HANGDX_OK);
	assert_int_equal(hangdx_facts_add_evidence(own, x->ev, NULL), HANGDX_OK);
	/* its facts sent, the owner keeps what a fetch needs, not the records */
	text = facts_text(own, &len);
	assert_non_null(strstr(text, "{\"kind\":"));
	free(text);
	hangdx_facts_shed(own);
	hangdx_facts_shed(NULL);
	text = facts_text(own, &len);
	assert_null(strstr(text, "{\"kind\":\"comm_init\""));
	assert_null(strstr(text, "{\"kind\":\"file\""));
	assert_non_null(strstr(text, "{\"fact\":\"rank\",\"rank\":15"));
	free(text);
	assert_int_equal(hangdx_facts_ranks(own), 16);
	assert_int_equal(hangdx_facts_new(x->ctx, &all), HANGDX_OK);
	assert_int_equal(hangdx_facts_add_evidence(all, x->ev, NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose_facts(all, NULL, facts_fetch, own, &d),
			 HANGDX_OK);
	json = json_of(d);
	assert_string_equal(json, x->single);
	free(json);
	hangdx_diagnosis_free(d);
	hangdx_facts_free(all);
	hangdx_facts_free(own);
}

static void test_reference_same(void **state)
{
	struct fixture x;

	(void)state;
	fixture(&x, NULL, NULL, HANGDX_DEADLOCK);
	assert_non_null(strstr(x.single, "\"proven\": true"));
	same_by_files(&x);
	same_by_memory(&x);
	same_by_owner_facts(&x);
	fixture_free(&x);
}

static void test_retry_off_same(void **state)
{
	struct fixture x;

	(void)state;
	fixture(&x, "retry", "off", HANGDX_COMPLETED);
	same_by_files(&x);
	same_by_memory(&x);
	fixture_free(&x);
}

/* Written, read back and written again: the same text; read twice (the
 * same facts copied twice): nothing changes. */
static void test_roundtrip_and_set(void **state)
{
	struct fixture x;
	struct hangdx_facts *g = NULL;
	size_t n1, n2;
	char *t1, *t2;

	(void)state;
	fixture(&x, NULL, NULL, HANGDX_DEADLOCK);
	t1 = facts_text(x.f, &n1);
	assert_non_null(strstr(t1, "{\"format\":\"hangdx-facts-2\""));
	assert_int_equal(hangdx_facts_new(x.ctx, &g), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(g, "a", t1, n1), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(g, "b", t1, n1), HANGDX_OK);
	t2 = facts_text(g, &n2);
	assert_int_equal(hangdx_facts_ranks(g), 16);
	/* all but the totals: inputs and candidate lines stay sums
	 * (docs/EVIDENCE.md, merging) */
	assert_non_null(strstr(t1, "{\"kind\":\"totals\""));
	*strstr(t1, "{\"kind\":\"totals\"") = '\0';
	*strstr(t2, "{\"kind\":\"totals\"") = '\0';
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	hangdx_facts_free(g);
	fixture_free(&x);
}

/* A fetch that fails: the facts stand in, the missing evidence is named,
 * and the verdict is still a hang. */
static void test_fetch_fails(void **state)
{
	struct fixture x;
	struct memfetch m;
	struct hangdx_diagnosis *d = NULL;
	char *json;

	(void)state;
	fixture(&x, NULL, NULL, HANGDX_DEADLOCK);
	m = (struct memfetch){ x.ev, 0, 0, 1 };
	assert_int_equal(hangdx_diagnose_facts(x.f, NULL, mem_fetch, &m, &d), HANGDX_OK);
	json = json_of(d);
	/* the nodes proved the cycle on their ranks: still a deadlock,
	 * without its chain */
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_DEADLOCK);
	assert_string_equal(hangdx_diagnosis_category(d), "aicpu_exhaustion_deadlock");
	assert_non_null(strstr(json, "its facts say so"));
	assert_non_null(strstr(json, "\"aicpu_cores\": 6"));
	assert_non_null(strstr(json, "could not be read here"));
	assert_null(strstr(json, "no TS stream dumps"));
	assert_int_equal(hangdx_diagnosis_fetched(d, NULL, 0), 0);
	free(json);
	hangdx_diagnosis_free(d);
	fixture_free(&x);
}

/* Version 2 codes a record's common keys against the record before: a key
 * left out is the same, null is gone.  Read and written again: the same
 * lines.  Version 1 (every key written) is still read, and its records
 * come out the same in version 2. */
static void test_delta_and_v1(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_facts *f = NULL, *g = NULL;
	static const char *const lines[] = {
		"{\"kind\":\"env\",\"file\":\"r/rank-3/plog-1_2.log\",\"line\":1,"
		"\"off\":0,\"level\":\"INFO\",\"module\":\"HCCL\",\"pid\":7,"
		"\"ts\":\"2026-11-01T07:00:00.000010\",\"name\":\"A\","
		"\"source\":\"environment\",\"value\":\"1\"}\n",
		"{\"kind\":\"env\",\"line\":2,\"off\":10,\"pid\":null,"
		"\"name\":\"B\",\"source\":\"environment\",\"value\":\"2\"}\n",
		"{\"kind\":\"env\",\"file\":\"r/rank-4/plog-2_2.log\",\"line\":3,"
		"\"off\":20,\"level\":null,\"ts\":null,\"name\":\"C\","
		"\"source\":\"environment\",\"value\":\"3\"}\n",
	};
	static const char v1[] = "{\"format\":\"hangdx-facts-1\",\"ranks\":0}\n"
		"{\"kind\":\"env\",\"file\":\"r/rank-3/plog-1_2.log\",\"line\":1,"
		"\"off\":0,\"level\":\"INFO\",\"module\":\"HCCL\",\"pid\":7,"
		"\"ts\":\"2026-11-01T07:00:00.000010\",\"node\":null,\"rank\":3,"
		"\"rank_from\":\"path\",\"device\":null,\"name\":\"A\","
		"\"source\":\"environment\",\"value\":\"1\"}\n"
		"{\"kind\":\"env\",\"file\":\"r/rank-3/plog-1_2.log\",\"line\":2,"
		"\"off\":10,\"level\":\"INFO\",\"module\":\"HCCL\","
		"\"ts\":\"2026-11-01T07:00:00.000010\",\"node\":null,\"rank\":3,"
		"\"name\":\"B\",\"source\":\"environment\",\"value\":\"2\"}\n"
		"{\"kind\":\"env\",\"file\":\"r/rank-4/plog-2_2.log\",\"line\":3,"
		"\"off\":20,\"module\":\"HCCL\",\"name\":\"C\","
		"\"source\":\"environment\",\"value\":\"3\"}\n";
	char v2[2048], *t1, *t2;
	size_t i, n1, n2;

	(void)state;
	snprintf(v2, sizeof v2, "{\"format\":\"hangdx-facts-2\",\"ranks\":0}\n"
		 "%s%s%s", lines[0], lines[1], lines[2]);
	assert_int_equal(hangdx_facts_new(ctx, &f), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(f, "v2", v2, strlen(v2)), HANGDX_OK);
	t1 = facts_text(f, &n1);
	for (i = 0; i < 3; i++)
		assert_non_null(strstr(t1, lines[i]));
	assert_int_equal(hangdx_facts_new(ctx, &g), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(g, "v1", v1, strlen(v1)), HANGDX_OK);
	t2 = facts_text(g, &n2);
	for (i = 0; i < 3; i++)
		assert_non_null(strstr(t2, lines[i]));
	free(t1);
	free(t2);
	hangdx_facts_free(f);
	hangdx_facts_free(g);
	hangdx_ctx_free(ctx);
}

static void test_bad_facts(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_facts *f = NULL;
	static const char other[] = "{\"format\":\"hangdx-facts-9\"}\n";
	static const char none[] = "{\"kind\":\"env\",\"file\":\"a\",\"line\":1}\n";
	static const char junk[] = "{\"format\":\"hangdx-facts-1\"}\nnot json\n"
		"{\"fact\":\"file\",\"rank\":3,\"path\":\"x\"}\n";

	(void)state;
	assert_int_equal(hangdx_facts_new(ctx, &f), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(f, "o", other, strlen(other)),
			 HANGDX_EUNSUPPORTED);
	assert_int_equal(hangdx_facts_load_mem(f, "n", none, strlen(none)),
			 HANGDX_EUNSUPPORTED);
	/* a line skipped is a warning: the rest of the facts stand */
	assert_int_equal(hangdx_facts_load_mem(f, "j", junk, strlen(junk)),
			 HANGDX_OK);
	assert_true(hangdx_ctx_diag_count(ctx, HANGDX_WARNING) >= 2);
	assert_int_equal(hangdx_facts_load(f, "/nonexistent/x.facts"), HANGDX_EIO);
	assert_int_equal(hangdx_facts_ranks(f), 0);
	hangdx_facts_free(f);
	hangdx_ctx_free(ctx);
}

/* Two nodes' facts naming one path: another node's are keyed NODE:path,
 * two copies from one node with other content get NODE#2:, and every
 * rank keeps its own file; loading the same facts again changes nothing;
 * a value past a log's range is said and not used; a fact and a record
 * kind not known are skipped with a warning, the rest kept. */
static const char node_facts[] =
	"{\"format\":\"hangdx-facts-2\",\"node\":\"%s\"}\n"
	"{\"fact\":\"root\",\"path\":\"v\"}\n"
	"{\"fact\":\"rank\",\"rank\":%d,\"core_top\":%s}\n"
	"{\"fact\":\"file\",\"rank\":%d,\"path\":\"v/plog-7_1.log\"}\n"
	"{\"fact\":\"quantum\"}\n"
	"{\"kind\":\"warp\",\"file\":\"v/plog-7_1.log\",\"line\":1}\n"
	"{\"kind\":\"file\",\"file\":\"v/plog-7_1.log\",\"status\":\"ok\","
	"\"bytes\":%d,\"lines\":3}\n";

static int load_node(struct hangdx_facts *f, const char *node, int rank,
		     const char *core_top, int bytes)
{
	char buf[1024];
	int n = snprintf(buf, sizeof buf, node_facts, node, rank, core_top, rank,
			 bytes);

	return hangdx_facts_load_mem(f, node, buf, (size_t)n);
}

static void test_nodes(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_facts *f = NULL;
	size_t warned;

	(void)state;
	assert_int_equal(hangdx_facts_new(ctx, &f), HANGDX_OK);
	assert_int_equal(hangdx_facts_set_node(f, "here"), HANGDX_OK);
	assert_int_equal(hangdx_facts_set_node(f, "a:b"), HANGDX_EINVAL);
	assert_int_equal(load_node(f, "here", 0, "1", 100), HANGDX_OK);
	assert_string_equal(hangdx_facts_tag(f), "");
	warned = hangdx_ctx_diag_count(ctx, HANGDX_WARNING);
	assert_true(warned >= 2);               /* the fact and the kind */
	assert_int_equal(load_node(f, "n1", 1, "1", 100), HANGDX_OK);
	assert_string_equal(hangdx_facts_tag(f), "n1:");
	assert_int_equal(load_node(f, "here", 2, "1", 200), HANGDX_OK);
	assert_string_equal(hangdx_facts_tag(f), "here#2:");
	assert_int_equal(hangdx_facts_ranks(f), 3);
	/* the same facts again: nothing new, no copy */
	assert_int_equal(load_node(f, "n1", 1, "1", 100), HANGDX_OK);
	assert_int_equal(hangdx_facts_ranks(f), 3);
	/* a core id past any log: said, not used */
	warned = hangdx_ctx_diag_count(ctx, HANGDX_WARNING);
	assert_int_equal(load_node(f, "n2", 3, "2147483648", 100), HANGDX_OK);
	assert_true(hangdx_ctx_diag_count(ctx, HANGDX_WARNING) > warned);
	assert_int_equal(hangdx_facts_ranks(f), 4);
	hangdx_facts_free(f);
	hangdx_ctx_free(ctx);
}

/* A facts file is known by its first line, plain or gzip; a log, a
 * directory, a missing file and another JSON file are not facts. */
static void test_probe(void **state)
{
	static const struct { const char *name, *text; int want; } cases[] = {
		{ "a.facts", "{\"format\":\"hangdx-facts-2\",\"ranks\":1}\n", 1 },
		{ "old.facts", "{\"format\":\"hangdx-facts-1\"}\n", 1 },
		{ "plog.log", "[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 x\n", 0 },
		{ "ev.json", "{\"format\":\"hangdx-evidence-1\"}\n", 0 },
		{ "short", "{\"format\"", 0 },
		{ "empty", "", 0 },
	};
	char p[512], cmd[1100];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *fp;

		snprintf(p, sizeof p, "%s/%s", g_dir, cases[i].name);
		fp = fopen(p, "w");
		assert_non_null(fp);
		fputs(cases[i].text, fp);
		fclose(fp);
		if (hangdx_facts_probe(p) != cases[i].want)
			fail_msg("%s: probe %d", cases[i].name, !cases[i].want);
	}
	snprintf(cmd, sizeof cmd, "gzip -c '%s/a.facts' > '%s/a.facts.gz'", g_dir, g_dir);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof p, "%s/a.facts.gz", g_dir);
	assert_int_equal(hangdx_facts_probe(p), 1);
	assert_int_equal(hangdx_facts_probe(g_dir), 0);
	snprintf(p, sizeof p, "%s/missing.facts", g_dir);
	assert_int_equal(hangdx_facts_probe(p), 0);
	assert_int_equal(hangdx_facts_probe(NULL), 0);
}

/* Allocation failures at every step of the facts path, on the reference
 * incident at 4 ranks: reading the logs, the single pass, reducing to
 * facts and writing them, reading them back and the two-phase diagnosis
 * (phase 2 reading files again, or fetching from the owner's evidence).  The nth allocation fails for every n until a run makes
 * fewer than n: each run ends in HANGDX_ENOMEM with nothing left
 * allocated, or (a failed size hint is only a hint) in what an unbroken
 * run gives; a run that was not failed must succeed. */
struct nomem {
	struct failalloc fa;
	struct hangdx_ctx *ctx;
	struct hangdx_evidence *ev;
	char *single, *text;
	size_t len;
	long runs;
};

/* Every allocation fails in turn; under valgrind (tests/valgrind-units.sh
 * sets HANGDX_NOMEM_STRIDE) every kth, for time. */
static long nomem_stride(void)
{
	const char *s = getenv("HANGDX_NOMEM_STRIDE");
	long k = s ? atol(s) : 1;

	return k > 0 ? k : 1;
}

static long nomem_arm(struct nomem *m, long n)
{
	m->fa.fail_at = m->fa.count + n;
	m->runs++;
	return m->fa.live;
}

/* Disarm; true when the armed allocation was reached. */
static bool nomem_disarm(struct nomem *m, int err)
{
	bool hit = m->fa.count >= m->fa.fail_at;

	m->fa.fail_at = 0;
	assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
	if (!hit)
		assert_int_equal(err, HANGDX_OK);
	return hit;
}

static void same_json(const struct hangdx_diagnosis *d, const char *want)
{
	char *json = json_of(d);

	assert_string_equal(json, want);
	free(json);
}

static void nomem_single(struct nomem *m)
{
	long n, live;
	bool hit = true;

	for (n = 1; hit; n += nomem_stride()) {
		struct hangdx_diagnosis *d = NULL;
		int err;

		live = nomem_arm(m, n);
		err = hangdx_diagnose(m->ev, NULL, &d);
		hit = nomem_disarm(m, err);
		assert_true(err ? d == NULL : d != NULL);
		if (!err)
			same_json(d, m->single);
		hangdx_diagnosis_free(d);
		assert_int_equal(m->fa.live, live);
	}
	assert_true(n > 20);
}

/* Facts of ev written to text, or an error. */
static int reduce(struct nomem *m, char **text, size_t *len)
{
	struct hangdx_facts *f = NULL;
	FILE *fp;
	int err = hangdx_facts_new(m->ctx, &f);

	if (!err)
		err = hangdx_facts_add_evidence(f, m->ev, NULL);
	if (!err) {
		fp = open_memstream(text, len);
		assert_non_null(fp);
		err = hangdx_facts_write(f, fp);
		fclose(fp);
		if (err) {
			free(*text);
			*text = NULL;
		}
	}
	hangdx_facts_free(f);
	return err;
}

static void nomem_reduce(struct nomem *m)
{
	long n, live;
	bool hit = true;

	assert_int_equal(reduce(m, &m->text, &m->len), HANGDX_OK);
	for (n = 1; hit; n += nomem_stride()) {
		char *text = NULL;
		size_t len = 0;
		int err;

		live = nomem_arm(m, n);
		err = reduce(m, &text, &len);
		hit = nomem_disarm(m, err);
		if (!err)
			assert_string_equal(text, m->text);
		free(text);
		assert_int_equal(m->fa.live, live);
	}
	assert_true(n > 20);
}

/* The two-phase diagnosis: phase 2 reads files again (by_fetch false)
 * or fetches from the owner's evidence in memory, whose writing then
 * fails in turn too. */
static void nomem_two_phase(struct nomem *m, bool by_fetch)
{
	long n, live;
	bool hit = true;

	for (n = 1; hit; n += nomem_stride()) {
		struct memfetch mf = { m->ev, 0, 0, 0 };
		struct hangdx_facts *f = NULL;
		struct hangdx_diagnosis *d = NULL;
		int err;

		live = nomem_arm(m, n);
		err = hangdx_facts_new(m->ctx, &f);
		if (!err)
			err = hangdx_facts_load_mem(f, "node.facts", m->text, m->len);
		if (!err)
			assert_int_equal(hangdx_facts_ranks(f), 4);
		if (!err)
			err = hangdx_diagnose_facts(f, NULL, by_fetch ? mem_fetch : NULL,
						    by_fetch ? &mf : NULL, &d);
		hit = nomem_disarm(m, err);
		if (!err) {
			same_json(d, m->single);
			assert_true(by_fetch ? mf.calls >= 1
					     : hangdx_diagnosis_fetched(d, NULL, 0) >= 1);
		}
		hangdx_diagnosis_free(d);
		hangdx_facts_free(f);
		assert_int_equal(m->fa.live, live);
	}
	assert_true(n > 20);
}

/* The evidence of m->ev as JSON Lines (records and files). */
static char *evidence_text(const struct hangdx_evidence *ev)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	assert_int_equal(hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_RECORDS |
						      HANGDX_EV_FILES),
			 HANGDX_OK);
	fclose(fp);
	return buf;
}

static void nomem_ingest(struct nomem *m, const char *dir)
{
	struct hangdx_ingest_opts one = { .threads = 1 };
	char *want = evidence_text(m->ev);
	long n, live;
	bool hit = true;

	for (n = 1; hit; n += nomem_stride()) {
		struct hangdx_evidence *ev = NULL;
		int err;

		live = nomem_arm(m, n);
		err = hangdx_evidence_new(m->ctx, &ev);
		if (!err)
			err = hangdx_ingest_path(ev, dir, &one);
		hit = nomem_disarm(m, err);
		if (!err) {
			char *got = evidence_text(ev);

			assert_string_equal(got, want);
			free(got);
		}
		hangdx_evidence_free(ev);
		assert_int_equal(m->fa.live, live);
	}
	free(want);
	assert_true(n > 20);
}

static void test_facts_nomem(void **state)
{
	struct nomem m = { 0 };
	struct hangdx_diagnosis *d = NULL;
	struct hangdx_ingest_opts one = { .threads = 1 };
	char dir[300];

	(void)state;
	snprintf(dir, sizeof dir, "%s/nomem", g_dir);
	m.ctx = failalloc_ctx(&m.fa, 0);
	hangdx_set_translate(0);
	simulate(m.ctx, dir, "ranks", "4", HANGDX_DEADLOCK);
	assert_int_equal(hangdx_evidence_new(m.ctx, &m.ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_path(m.ev, dir, &one), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(m.ev, NULL, &d), HANGDX_OK);
	assert_int_equal(hangdx_diagnosis_verdict(d), HANGDX_V_DEADLOCK);
	m.single = json_of(d);
	hangdx_diagnosis_free(d);
	nomem_ingest(&m, dir);
	nomem_single(&m);
	nomem_reduce(&m);
	nomem_two_phase(&m, false);
	nomem_two_phase(&m, true);
	free(m.text);
	free(m.single);
	hangdx_evidence_free(m.ev);
	hangdx_ctx_free(m.ctx);
	assert_int_equal(m.fa.live, 0);
	print_message("allocation-failure runs: %ld\n", m.runs);
}

/* A log whose last line no newline ends: the single pass leaves that
 * line out of timing and says so; through facts and a fetch from the
 * owner's evidence (its JSON Lines carry the file's cut_line) the same. */
static void test_cut_line_fetched(void **state)
{
	static const char text[] =
		"[INFO] HCCL(100,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [100]Entry-HcclCommInitRootInfoInner:ranks[2], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[0]\n"
		"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
		"[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.240 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run fail";
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = NULL;
	struct hangdx_facts *f = NULL, *g = NULL;
	struct hangdx_diagnosis *d = NULL;
	struct memfetch m;
	char *single, *facts, *got;
	size_t len;

	(void)state;
	hangdx_set_translate(0);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "w0/plog/plog-100_1.log", text,
					   strlen(text), NULL), HANGDX_OK);
	assert_int_equal(hangdx_diagnose(ev, NULL, &d), HANGDX_OK);
	single = json_of(d);
	hangdx_diagnosis_free(d);
	assert_non_null(strstr(single, "\"why\": \"cut_line\""));
	assert_int_equal(hangdx_facts_new(ctx, &f), HANGDX_OK);
	assert_int_equal(hangdx_facts_add_evidence(f, ev, NULL), HANGDX_OK);
	facts = facts_text(f, &len);
	assert_int_equal(hangdx_facts_new(ctx, &g), HANGDX_OK);
	assert_int_equal(hangdx_facts_load_mem(g, "node.facts", facts, len), HANGDX_OK);
	m = (struct memfetch){ ev, 0, 0, 0 };
	assert_int_equal(hangdx_diagnose_facts(g, NULL, mem_fetch, &m, &d), HANGDX_OK);
	assert_true(m.calls >= 1);
	got = json_of(d);
	assert_string_equal(got, single);
	free(got);
	free(facts);
	free(single);
	hangdx_diagnosis_free(d);
	hangdx_facts_free(g);
	hangdx_facts_free(f);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_same),
		cmocka_unit_test(test_retry_off_same),
		cmocka_unit_test(test_roundtrip_and_set),
		cmocka_unit_test(test_fetch_fails),
		cmocka_unit_test(test_delta_and_v1),
		cmocka_unit_test(test_bad_facts),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_facts_nomem),
		cmocka_unit_test(test_cut_line_fetched),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
