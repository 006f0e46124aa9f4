/*
 * fuzz_facts.c - libFuzzer target for facts (docs/FACTS.md): any bytes
 * read as a facts file, written back, and diagnosed in two phases with a
 * fetch that delivers nothing (so no file the input names is ever read),
 * then every report writer into /dev/null.  Invariant (a broken one
 * aborts): what the facts write loads back without a complaint, and is a
 * fixed point from there (loaded and written again: the same bytes).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int no_fetch(void *ud, const int32_t *ranks, size_t n,
		    struct hangdx_evidence *into)
{
	(void)ud, (void)ranks, (void)n, (void)into;
	return HANGDX_EIO;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_facts: invariant broken: %s\n", what);
		abort();
	}
}

/* f written: its text (NULL when the writer failed). */
static char *written(const struct hangdx_facts *f, size_t *n)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, n);
	int err;

	if (!fp)
		return NULL;
	err = hangdx_facts_write(f, fp);
	fclose(fp);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* text read into fresh facts and written again, or NULL. */
static char *again(struct hangdx_ctx *ctx, const char *text, size_t len,
		   size_t *n)
{
	struct hangdx_facts *g = NULL;
	char *out = NULL;

	if (hangdx_facts_new(ctx, &g) != HANGDX_OK)
		return NULL;
	check(hangdx_facts_load_mem(g, "written.facts", text, len) == HANGDX_OK,
	      "written facts load back");
	out = written(g, n);
	hangdx_facts_free(g);
	return out;
}

static void round_trip(struct hangdx_ctx *ctx, const struct hangdx_facts *f)
{
	size_t n0, n1, n2;
	char *t0 = written(f, &n0), *t1 = NULL, *t2 = NULL;

	if (t0)
		t1 = again(ctx, t0, n0, &n1);
	if (t1)
		t2 = again(ctx, t1, n1, &n2);
	if (t2)
		check(n1 == n2 && memcmp(t1, t2, n1) == 0,
		      "facts read and written twice write the same bytes");
	free(t0);
	free(t1);
	free(t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_facts *f = NULL;
	struct hangdx_diagnosis *d = NULL;
	FILE *null;
	int err;

	if (!ctx)
		return 0;
	null = fopen("/dev/null", "w");
	if (null && hangdx_facts_new(ctx, &f) == HANGDX_OK) {
		err = hangdx_facts_load_mem(f, "fuzz.facts", data, size);
		if (err == HANGDX_OK || err == HANGDX_EPARSE) {
			round_trip(ctx, f);
			if (hangdx_diagnose_facts(f, NULL, no_fetch, NULL, &d) == HANGDX_OK) {
				hangdx_diagnosis_write_text(d, null, 0);
				hangdx_diagnosis_write_json(d, null);
				hangdx_diagnosis_write_dot(d, null);
			}
		}
	}
	hangdx_diagnosis_free(d);
	hangdx_facts_free(f);
	if (null)
		fclose(null);
	hangdx_ctx_free(ctx);
	return 0;
}
