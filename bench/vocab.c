/*
 * bench/vocab.c - the cost of hx_vocab_scan per log line, next to the
 * reader's own pre-filter (hx_classify) on the same lines: every line of
 * the file given, held in memory, scanned REPEAT times; best run, in ns
 * per line of thread CPU time (the machine may be shared): every line
 * through hx_classify, every line through hx_vocab_scan, and every line
 * through hx_classify then the candidates through hx_vocab_scan (how the
 * reader would call it after its pre-filter).  Built and run by
 * bench/vocab.sh against the library.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ingest/ingest.h"

struct lines {
	char *buf;
	size_t n, cap, *off, *len, nline, capline;
};

static void add_file(struct lines *L, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p, *e, *q;
	size_t got;

	if (!f) {
		perror(path);
		exit(1);
	}
	for (;;) {
		if (L->cap - L->n < 1 << 20) {
			L->cap = L->cap * 2 + (1 << 20);
			if (!(L->buf = realloc(L->buf, L->cap)))
				exit(1);
		}
		got = fread(L->buf + L->n, 1, L->cap - L->n, f);
		if (!got)
			break;
		L->n += got;
	}
	fclose(f);
	L->nline = 0;
	for (p = L->buf, e = L->buf + L->n; p < e; p = q + 1) {
		if (!(q = memchr(p, '\n', (size_t)(e - p))))
			q = e;
		if (L->nline == L->capline) {
			L->capline = L->capline * 2 + 4096;
			L->off = realloc(L->off, L->capline * sizeof *L->off);
			L->len = realloc(L->len, L->capline * sizeof *L->len);
			if (!L->off || !L->len)
				exit(1);
		}
		L->off[L->nline] = (size_t)(p - L->buf);
		L->len[L->nline++] = (size_t)(q - p);
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double run(const struct lines *L, int what, size_t *found)
{
	struct hx_vocab_hit h[16];
	double t0 = now();
	size_t i;

	*found = 0;
	for (i = 0; i < L->nline; i++) {
		const char *s = L->buf + L->off[i];

		if (what == 1)
			*found += hx_vocab_scan(s, L->len[i], h, 16);
		else if (hx_classify(s, L->len[i]) != HX_CL_NOISE)
			*found += what ? hx_vocab_scan(s, L->len[i], h, 16) : 1;
	}
	return (now() - t0) * 1e9 / (double)L->nline;
}

int main(int argc, char **argv)
{
	struct lines L = { 0 };
	int r, repeat = getenv("REPEAT") ? atoi(getenv("REPEAT")) : 5, w;
	static const char *const name[] = {
		"hx_classify", "hx_vocab_scan", "both"
	};

	if (argc < 2) {
		fprintf(stderr, "usage: vocab FILE\n");
		return 2;
	}
	add_file(&L, argv[1]);
	printf("%zu lines, %zu bytes, %.0f bytes a line\n", L.nline, L.n,
	       (double)L.n / (double)L.nline);
	for (w = 0; w < 3; w++) {
		double best = 1e30, t;
		size_t found = 0;

		for (r = 0; r < repeat; r++)
			if ((t = run(&L, w, &found)) < best)
				best = t;
		printf("%-14s %7.1f ns/line  (%zu %s)\n", name[w], best, found,
		       w ? "mentions" : "candidate lines");
	}
	return 0;
}
