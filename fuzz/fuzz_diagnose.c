/*
 * fuzz_diagnose.c - libFuzzer target for the back half of `diagnose`: any
 * bytes read as logs, then the facts, the snapshot rebuilt from TS dumps
 * and kernel lines, the wait-for graph and its deadlock proof, the
 * verdict, and every report writer (text, JSON, DOT) into /dev/null.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		null = fopen("/dev/null", "w");
		if (null) {
			hangdx_diagnosis_write_text(d, null, HANGDX_COLOR);
			hangdx_diagnosis_write_json(d, null);
			hangdx_diagnosis_write_dot(d, null);
			fclose(null);
		}
	}
	hangdx_diagnosis_free(d);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	return 0;
}
