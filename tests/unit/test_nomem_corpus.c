/* test_nomem_corpus.c - allocation failures over the real logs of the
 * repository: every excerpt of tests/field and tests/data/samples is read
 * from memory and diagnosed while the nth allocation fails, for every n
 * until a run makes fewer than n.  Each run ends in HANGDX_ENOMEM with
 * nothing left allocated, or gives the unbroken run's diagnosis (JSON
 * byte for byte): an allocation failure never turns into a smaller or
 * other answer, on any path the real logs take.  The same on the logs the
 * simulator writes for each built-in scenario at 4 ranks (device logs,
 * stream dumps, run logs).  HANGDX_NOMEM_CORPUS_STRIDE=k fails every kth
 * allocation only (tests/valgrind-units.sh, for time). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

static long stride(void)
{
	const char *s = getenv("HANGDX_NOMEM_CORPUS_STRIDE");
	long k = s ? atol(s) : 1;

	return k > 0 ? k : 1;
}

/* Read text (or the directory name when text is NULL) and diagnose it in
 * ctx: OK or the first error. */
static int run(struct hangdx_ctx *ctx, const char *name, const char *text,
	       size_t len, char **json)
{
	struct hangdx_ingest_opts one = { .threads = 1 };
	struct hangdx_evidence *ev = NULL;
	struct hangdx_diagnosis *d = NULL;
	int err = hangdx_evidence_new(ctx, &ev);

	if (!err)
		err = text ? hangdx_ingest_mem(ev, name, text, len, &one)
			   : hangdx_ingest_path(ev, name, &one);
	if (!err)
		err = hangdx_diagnose(ev, NULL, &d);
	if (!err)
		*json = json_of(d);
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	return err;
}

/* The runs made on one file, or on a directory (dir true). */
static long nomem_file(const char *path, bool dir)
{
	struct failalloc fa;
	struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
	size_t len = 0;
	char *text = dir ? NULL : read_text(path, &len), *want = NULL;
	long n, runs = 0;
	bool hit = true;

	assert_non_null(ctx);
	assert_int_equal(run(ctx, path, text, len, &want), HANGDX_OK);
	for (n = 1; hit; n += stride()) {
		char *got = NULL;
		int err;

		fa.fail_at = fa.count + n;
		err = run(ctx, path, text, len, &got);
		hit = fa.count >= fa.fail_at;
		fa.fail_at = 0;
		runs++;
		if (err != HANGDX_OK && err != HANGDX_ENOMEM)
			fail_msg("%s: allocation %ld: error %d", path, n, err);
		if (!hit && err)
			fail_msg("%s: error %d with no allocation failed", path, err);
		if (!err && strcmp(got, want) != 0)
			fail_msg("%s: allocation %ld failed and the diagnosis "
				 "changed", path, n);
		free(got);
		if (fa.live != 1)               /* the context alone */
			fail_msg("%s: allocation %ld: %ld blocks left", path, n,
				 (long)fa.live);
	}
	free(want);
	free(text);
	hangdx_ctx_free(ctx);
	assert_int_equal(fa.live, 0);
	return runs;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.log of dir, in name order. */
static void nomem_dir(const char *dir, size_t min_files)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;
	long runs = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)) != NULL) {
		size_t l = strlen(e->d_name);

		if (l < 5 || strcmp(e->d_name + l - 4, ".log") != 0)
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		assert_non_null(names);
		names[n] = malloc(strlen(dir) + l + 2);
		assert_non_null(names[n]);
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(dp);
	assert_true(n >= min_files);
	qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		runs += nomem_file(names[i], false);
		free(names[i]);
	}
	free(names);
	print_message("%s: %zu files, %ld allocation-failure runs\n", dir, n, runs);
}

static void test_field_corpus(void **state)
{
	(void)state;
	nomem_dir("tests/field", 140);
}

static void test_samples(void **state)
{
	(void)state;
	nomem_dir("tests/data/samples", 9);
	nomem_dir("tests/data/samples/field", 19);
}

static void test_presets(void **state)
{
	char root[] = "/tmp/hangdx-nomem-XXXXXX", dir[300], cmd[400];
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	const char *const *names = hangdx_preset_names();
	size_t i;
	long runs = 0;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (i = 0; names[i]; i++) {
		struct hangdx_scenario *sc = NULL;
		struct hangdx_sim_opts so = { 0 };
		struct hangdx_sim_summary sum;

		assert_int_equal(hangdx_scenario_preset(ctx, names[i], &sc), 0);
		(void)hangdx_scenario_set(sc, "ranks", "4");
		snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
		so.outdir = dir;
		so.write_logs = 1;
		assert_int_equal(hangdx_simulate(ctx, sc, &so, &sum), HANGDX_OK);
		hangdx_scenario_free(sc);
		runs += nomem_file(dir, true);
	}
	assert_true(i >= 10);
	print_message("%zu presets, %ld allocation-failure runs\n", i, runs);
	hangdx_ctx_free(ctx);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_field_corpus),
		cmocka_unit_test(test_presets),
	};

	hangdx_set_translate(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
