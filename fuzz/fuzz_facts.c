/*
 * fuzz_facts.c - libFuzzer target for facts (docs/FACTS.md): any bytes
 * read as a facts file, written back, and diagnosed in two phases with a
 * fetch that delivers nothing (so no file the input names is ever read),
 * then every report writer into /dev/null.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int no_fetch(void *ud, const int32_t *ranks, size_t n,
		    struct hangdx_evidence *into)
{
	(void)ud, (void)ranks, (void)n, (void)into;
	return HANGDX_EIO;
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
			hangdx_facts_write(f, null);
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
