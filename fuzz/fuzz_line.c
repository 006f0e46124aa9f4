/*
 * fuzz_line.c - libFuzzer target for the line level of ingest: any bytes
 * as log text (a leading newline keeps them from being sniffed as an
 * archive) through the colour strip, the console envelope, the pre-filter, the prefix grammar, the key/value
 * scanner, every family and both writers; each line also goes straight to
 * the pure line functions.  Diagnostics are dropped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hangdx.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lines(const char *s, size_t n)
{
	struct hx_kv kv[HX_MAX_KV];
	struct hx_envelope e;
	struct hx_prefix p;
	char *clean = malloc(n ? n : 1);
	size_t k;

	while (clean && n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;

		if (hx_coloured(s, len)) {
			k = hx_decolour(s, len, clean);
			(void)hx_parse_envelope(clean, k, &e);
			(void)hx_decolour(clean, k, clean);
		}
		k = hx_parse_envelope(s, len, &e);
		(void)hx_classify(s + k, len - k);
		(void)hx_classify(s, len);
		if (hx_parse_prefix(s, len, &p))
			(void)hx_kv_scan(p.body, p.bodylen, kv, HX_MAX_KV);
		(void)hx_kv_scan(s, len, kv, HX_MAX_KV);
		(void)hx_parse_ts(s, len);
		if (!nl)
			break;
		n -= len + 1;
		s = nl + 1;
	}
	free(clean);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ingest_opts o = { .threads = 1, .max_line = 4096 };
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = NULL;
	char *text = malloc(size + 1), *out = NULL;
	size_t outlen = 0;
	FILE *fp;

	if (!ctx || !text)
		goto out_free;
	text[0] = '\n';
	memcpy(text + 1, data, size);
	lines(text, size + 1);
	if (hangdx_evidence_new(ctx, &ev) != HANGDX_OK)
		goto out_free;
	hangdx_ingest_mem(ev, "fuzz.log", text, size + 1, &o);
	fp = open_memstream(&out, &outlen);
	if (fp) {
		hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL);
		hangdx_evidence_write_text(ev, fp, HANGDX_EV_ALL);
		fclose(fp);
		free(out);
	}
out_free:
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	free(text);
	return 0;
}
