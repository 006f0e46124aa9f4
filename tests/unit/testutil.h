/*
 * testutil.h - shared by the unit tests: cmocka, the library internals,
 * and an allocator hook that fails the Nth allocation, for the
 * allocation-failure loops (every public entry point must return
 * HANGDX_ENOMEM and leak nothing when any allocation fails).  The
 * hook's counters are atomic: the reader's two threads call it at once.
 * Also: a file read whole, and a diagnosis as JSON (the caller frees).
 */
#ifndef HX_TESTUTIL_H
#define HX_TESTUTIL_H

#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "hangdx.h"

struct failalloc {
	long fail_at;           /* 1-based allocation to fail; 0 = never */
	_Atomic long count;     /* allocations so far */
	_Atomic long live;      /* blocks not yet freed */
};

static inline void *failalloc_realloc(void *ud, void *p, size_t n)
{
	struct failalloc *fa = ud;
	void *q;

	if (n == 0) {
		if (p)
			atomic_fetch_sub(&fa->live, 1);
		free(p);
		return NULL;
	}
	if (atomic_fetch_add(&fa->count, 1) + 1 == fa->fail_at)
		return NULL;
	q = realloc(p, n);
	if (q && !p)
		atomic_fetch_add(&fa->live, 1);
	return q;
}

static inline struct hangdx_ctx *failalloc_ctx(struct failalloc *fa, long n)
{
	struct hangdx_alloc a = { failalloc_realloc, fa };

	fa->fail_at = n;
	fa->count = 0;
	fa->live = 0;
	return hangdx_ctx_new(&a);
}

/* The file at path, NUL-terminated; its length in *len. */
static inline char *read_text(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* The JSON report of d. */
static inline char *json_of(const struct hangdx_diagnosis *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	assert_int_equal(hangdx_diagnosis_write_json(d, fp), HANGDX_OK);
	fclose(fp);
	return buf;
}

#endif
