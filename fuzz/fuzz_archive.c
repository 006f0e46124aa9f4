/*
 * fuzz_archive.c - libFuzzer target for the byte end of ingest: any bytes
 * as an input file, sniffed as an archive or compressed stream (tar, zip,
 * 7z, cpio; gzip, zstd, xz, bzip2, lz4) or as text, read with small
 * ceilings so that bombs end fast.  The evidence is written and dropped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ingest_opts o = {
		.threads = 1, .max_line = 4096, .max_member = 4 << 20,
		.max_ratio = 200, .max_records = 10000
	};
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = NULL;
	char *out = NULL;
	size_t outlen = 0;
	FILE *fp;

	if (!ctx)
		return 0;
	if (hangdx_evidence_new(ctx, &ev) == HANGDX_OK) {
		hangdx_ingest_mem(ev, "fuzz.bin", data, size, &o);
		fp = open_memstream(&out, &outlen);
		if (fp) {
			hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL);
			fclose(fp);
			free(out);
		}
	}
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	return 0;
}
