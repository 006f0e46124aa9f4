/*
 * testutil.h - shared by the unit tests: cmocka, the library internals,
 * and an allocator hook that fails the Nth allocation, for the
 * allocation-failure loops (every public entry point must return
 * HANGDX_ENOMEM and leak nothing when any allocation fails).  The
 * hook's counters are atomic: the reader's two threads call it at once.
 */
#ifndef HX_TESTUTIL_H
#define HX_TESTUTIL_H

#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

#endif
