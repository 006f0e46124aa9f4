/*
 * fuzz_diagnose.c - libFuzzer target for the back half of `diagnose`: any
 * bytes read as logs, then the facts, the snapshot rebuilt from TS dumps
 * and kernel lines, the wait-for graph and its deadlock proof, the
 * verdict, and every report writer (text, JSON, DOT) into /dev/null.
 * Also an invariant (a broken one aborts): the same logs reduced to
 * facts, the facts written and read back, and diagnosed in two phases
 * with a fetch from the evidence in memory, give the single pass's JSON
 * byte for byte (docs/FACTS.md), for reports under 4 MB.
 * FUZZ_DIAGNOSE_FACTS=0 in the environment leaves it out.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hangdx.h"

#define MAX_INVARIANT_JSON ((size_t)4 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_diagnose: invariant broken: %s\n", what);
		abort();
	}
}

static char *json_of(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	if (!fp)
		return NULL;
	if (hangdx_diagnosis_write_json(d, fp) != HANGDX_OK) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	return buf;
}

/* The owner's side of a fetch: the ranks' records of ev in memory. */
static int mem_fetch(void *ud, const int32_t *ranks, size_t n,
		     struct hangdx_evidence *into)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int err;

	if (!fp)
		return HANGDX_ENOMEM;
	err = hangdx_evidence_write_ranks(ud, ranks, n, fp);
	fclose(fp);
	if (!err)
		err = hangdx_evidence_load_mem(into, "fetched", buf, len);
	free(buf);
	return err;
}

/* Facts of ev, written and read back, diagnosed in two phases: the
 * single pass's JSON. */
static void same_by_facts(struct hangdx_ctx *ctx, struct hangdx_evidence *ev,
			  const char *want)
{
	struct hangdx_facts *f = NULL, *g = NULL;
	struct hangdx_diagnosis *d = NULL;
	char *text = NULL, *got;
	size_t len = 0;
	FILE *fp;

	if (hangdx_facts_new(ctx, &f) != HANGDX_OK ||
	    hangdx_facts_add_evidence(f, ev, NULL) != HANGDX_OK ||
	    !(fp = open_memstream(&text, &len)))
		goto out_free;
	check(hangdx_facts_write(f, fp) == HANGDX_OK, "facts write");
	fclose(fp);
	if (hangdx_facts_new(ctx, &g) != HANGDX_OK)
		goto out_free;
	check(hangdx_facts_load_mem(g, "node.facts", text, len) == HANGDX_OK,
	      "written facts load back");
	if (hangdx_diagnose_facts(g, NULL, mem_fetch, ev, &d) == HANGDX_OK &&
	    (got = json_of(d)) != NULL) {
		if (getenv("FUZZ_DIAGNOSE_DUMP")) {
			fprintf(stderr, "%s\n----\n%s\n", want, got);
		}
		check(strcmp(got, want) == 0,
		      "the two-phase diagnosis from facts is the single pass's");
		free(got);
	}
out_free:
	hangdx_diagnosis_free(d);
	hangdx_facts_free(g);
	hangdx_facts_free(f);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = NULL;
	struct hangdx_diagnosis *d = NULL;
	struct hangdx_ingest_opts o = { .threads = 1 };
	FILE *null;

	if (!ctx)
		return 0;
	if (hangdx_evidence_new(ctx, &ev) == HANGDX_OK &&
	    hangdx_ingest_mem(ev, "rank-0/ascend/log/debug/device-0/device-1_1.log",
			      data, size, &o) == HANGDX_OK &&
	    hangdx_diagnose(ev, NULL, &d) == HANGDX_OK) {
		char *want = json_of(d);
		const char *facts = getenv("FUZZ_DIAGNOSE_FACTS");

		null = fopen("/dev/null", "w");
		if (null) {
			hangdx_diagnosis_write_text(d, null, HANGDX_COLOR);
			hangdx_diagnosis_write_dot(d, null);
			fclose(null);
		}
		/* a line naming rank 490,429 makes a job of that many ranks
		 * and a 50 MB report: fine once, too slow twice under ASan */
		if (want && strlen(want) < MAX_INVARIANT_JSON &&
		    !(facts && strcmp(facts, "0") == 0))
			same_by_facts(ctx, ev, want);
		free(want);
	}
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	return 0;
}
