/*
 * fuzz_line.c - libFuzzer target for the line level of ingest: any bytes
 * as log text (a leading newline keeps them from being sniffed as an
 * archive) through the colour strip, the console envelope, the pre-filter, the prefix grammar, the key/value
 * scanner, every family and both writers; each line also goes straight to
 * the pure line functions (watch's alarm test among them).  Diagnostics are dropped.  Invariants (a broken
 * one aborts): a time read formats to text that reads back as the same
 * time; stripping colour never lengthens a line; the evidence written as
 * JSON Lines loads back, writes as many lines, and is a fixed point from
 * there (read and written again: the same bytes).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hangdx.h"
#include "ingest/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_line: invariant broken: %s\n", what);
		abort();
	}
}

static void time_round_trip(const char *s, size_t n)
{
	int64_t v = hx_parse_ts(s, n);
	char t[32];

	if (v == HX_NONE)
		return;
	hx_format_ts(v, t);
	check(hx_parse_ts(t, strlen(t)) == v, "a time formatted reads back");
}

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
			check(k <= len, "colour stripped never lengthens");
			(void)hx_parse_envelope(clean, k, &e);
			(void)hx_decolour(clean, k, clean);
		}
		k = hx_parse_envelope(s, len, &e);
		(void)hx_classify(s + k, len - k);
		(void)hx_classify(s, len);
		if (hx_parse_prefix(s, len, &p))
			(void)hx_kv_scan(p.body, p.bodylen, kv, HX_MAX_KV);
		(void)hx_kv_scan(s, len, kv, HX_MAX_KV);
		time_round_trip(s, len);
		check(hangdx_line_alarm(s, len) <= 1, "an alarm is 0 or 1");
		if (!nl)
			break;
		n -= len + 1;
		s = nl + 1;
	}
	free(clean);
}

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;

	while (n--)
		k += *s++ == '\n';
	return k;
}

/* Evidence written as JSON Lines loaded and written again: its text, or
 * NULL.  Loading never fails on what the writer wrote. */
static char *reload(struct hangdx_ctx *ctx, const char *text, size_t len,
		    size_t *outlen)
{
	struct hangdx_evidence *ev = NULL;
	char *again = NULL;
	FILE *fp;

	*outlen = 0;
	if (hangdx_evidence_new(ctx, &ev) != HANGDX_OK)
		return NULL;
	check(hangdx_evidence_load_mem(ev, "fuzz.jsonl", text, len) == HANGDX_OK,
	      "written evidence loads back");
	fp = open_memstream(&again, outlen);
	if (fp) {
		check(hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL) == HANGDX_OK,
		      "loaded evidence writes");
		fclose(fp);
	}
	hangdx_evidence_free(ev);
	return again;
}

/* The same records after a round trip (invalid UTF-8, written as
 * \ufffd, comes back as U+FFFD itself), and a fixed point after it. */
static void round_trip(struct hangdx_ctx *ctx, const char *text, size_t len)
{
	size_t n1, n2;
	char *t1 = reload(ctx, text, len, &n1), *t2;

	if (!t1)
		return;
	check(count_lines(t1, n1) == count_lines(text, len),
	      "loaded evidence writes as many lines");
	t2 = reload(ctx, t1, n1, &n2);
	if (t2)
		check(n2 == n1 && memcmp(t1, t2, n1) == 0,
		      "evidence read and written twice writes the same lines");
	free(t1);
	free(t2);
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
		int werr = hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL);

		fclose(fp);
		if (werr == HANGDX_OK)
			round_trip(ctx, out, outlen);
		free(out);
		out = NULL;
	}
	fp = open_memstream(&out, &outlen);
	if (fp) {
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
