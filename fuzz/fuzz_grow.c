/*
 * fuzz_grow.c - libFuzzer target for the reading watch does of a file that
 * grows: any bytes as log text (a leading newline keeps them from being
 * sniffed as an archive), written to a file in four pieces cut where the
 * first three bytes say (mid-line too), read through one cache after
 * each piece; from the third reading the cache reads on from where the
 * last stopped.  Invariant (a broken one aborts): each reading gives the
 * evidence, byte for byte, that a reading of the whole file without the
 * cache gives.  Diagnostics are dropped.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PIECES 4

static char *jsonl(const struct hangdx_evidence *ev, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (!fp)
		return NULL;
	if (hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL) != HANGDX_OK)
		*len = 0;
	fclose(fp);
	return buf;
}

/* The evidence of dir, read with o, as JSON Lines (NULL: out of memory). */
static char *read_dir(struct hangdx_ctx *ctx, const char *dir,
		      const struct hangdx_ingest_opts *o, size_t *len)
{
	struct hangdx_evidence *ev = NULL;
	char *s = NULL;

	if (hangdx_evidence_new(ctx, &ev) == HANGDX_OK &&
	    hangdx_ingest_path(ev, dir, o) == HANGDX_OK)
		s = jsonl(ev, len);
	hangdx_evidence_free(ev);
	return s;
}

static void compare(struct hangdx_ctx *ctx, const char *dir,
		    struct hangdx_ingest_cache *c)
{
	struct hangdx_ingest_opts plain = { .threads = 1, .max_line = 4096 };
	struct hangdx_ingest_opts cached = { .cache = c, .max_line = 4096 };
	size_t na = 0, nb = 0;
	char *a = read_dir(ctx, dir, &plain, &na);
	char *b = read_dir(ctx, dir, &cached, &nb);

	if (a && b && (na != nb || memcmp(a, b, na) != 0)) {
		fprintf(stderr, "fuzz_grow: a reading read on differs from a "
			"whole one\n");
		abort();
	}
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_ingest_cache *c = NULL;
	char dir[] = "/tmp/hx-fuzz-grow-XXXXXX", path[64];
	size_t cut[PIECES], at = 0, i, n;
	const uint8_t *text;
	FILE *fp;

	if (!ctx || size < PIECES - 1 || !mkdtemp(dir))
		goto out_ctx;
	text = data + PIECES - 1;
	n = size - (PIECES - 1);
	for (i = 0; i + 1 < PIECES; i++)
		cut[i] = n * data[i] / 255;
	cut[PIECES - 1] = n;
	for (i = 1; i < PIECES; i++)
		if (cut[i] < cut[i - 1])
			cut[i] = cut[i - 1];
	snprintf(path, sizeof path, "%s/plog-1_20250101000000000.log", dir);
	if (hangdx_ingest_cache_new(ctx, &c) != HANGDX_OK)
		goto out_dir;
	for (i = 0; i < PIECES; i++) {
		fp = fopen(path, i ? "ab" : "wb");
		if (!fp)
			break;
		if (i == 0)
			fputc('\n', fp);
		fwrite(text + at, 1, cut[i] - at, fp);
		fclose(fp);
		at = cut[i];
		compare(ctx, dir, c);
	}
	hangdx_ingest_cache_free(c);
	unlink(path);
out_dir:
	rmdir(dir);
out_ctx:
	hangdx_ctx_free(ctx);
	return 0;
}
