/*
 * err.c - error codes, levels and the context: the first stop of every
 * pipeline stage.  The error text comes from the one table in hangdx.h;
 * the context carries the allocator hook and the diagnostic callback that
 * parsers report bad input through (they keep going).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include "core.h"

static const char *const err_text[] = {
#define HX_ERR_TEXT(name, text) text,
	HANGDX_ERR_MAP(HX_ERR_TEXT)
#undef HX_ERR_TEXT
};

const char *hangdx_strerror(int err)
{
	if (err < 0 || err >= HANGDX_E_COUNT)
		return _("unknown error");
	return _(err_text[err]);
}

const char *hangdx_level_name(enum hangdx_level level)
{
	switch (level) {
	case HANGDX_NOTE: return N_("note");
	case HANGDX_WARNING: return N_("warning");
	case HANGDX_ERROR: return N_("error");
	}
	return "error";
}

#define HUGE_PAGE ((size_t)2 << 20)

/* Ask for huge pages under a block of at least two of them: a first touch
 * then costs one fault per 2 MiB, not one per 4 KiB (the evidence of a
 * large job is gigabytes written once).  An advice only: where the kernel
 * has no transparent huge pages it changes nothing. */
static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE_PAGE - 1);

	if (e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

static void *libc_realloc(void *ud, void *p, size_t n)
{
	void *q;

	(void)ud;
	if (n == 0) {
		free(p);
		return NULL;
	}
	q = p ? realloc(p, n) : malloc(n);
	if (q && n >= 2 * HUGE_PAGE)
		advise_huge(q, n);
	return q;
}

struct hangdx_ctx *hangdx_ctx_new(const struct hangdx_alloc *alloc)
{
	struct hangdx_alloc a = { libc_realloc, NULL };
	struct hangdx_ctx *ctx;

	if (alloc && alloc->realloc)
		a = *alloc;
	ctx = a.realloc(a.ud, NULL, sizeof *ctx);
	if (!ctx)
		return NULL;
	memset(ctx, 0, sizeof *ctx);
	ctx->alloc = a;
	return ctx;
}

void hangdx_ctx_free(struct hangdx_ctx *ctx)
{
	if (ctx)
		ctx->alloc.realloc(ctx->alloc.ud, ctx, 0);
}

void hangdx_ctx_set_diag(struct hangdx_ctx *ctx, hangdx_diag_fn *fn, void *ud)
{
	ctx->diag_fn = fn;
	ctx->diag_ud = ud;
}

unsigned long hangdx_ctx_diag_count(const struct hangdx_ctx *ctx,
				    enum hangdx_level level)
{
	if ((unsigned)level > HANGDX_ERROR)
		return 0;
	return ctx->diag_count[level];
}

void hx_vdiag(struct hangdx_ctx *ctx, enum hangdx_level level, const char *file,
	      unsigned long line, unsigned long col, const char *fmt,
	      va_list ap)
{
	char msg[1024];
	struct hangdx_diag d;

	if ((unsigned)level <= HANGDX_ERROR)
		ctx->diag_count[level]++;
	if (!ctx->diag_fn)
		return;
	vsnprintf(msg, sizeof msg, _(fmt), ap);
	d.file = file;
	d.line = line;
	d.col = col;
	d.level = level;
	d.msg = msg;
	ctx->diag_fn(ctx->diag_ud, &d);
}

void hx_diag(struct hangdx_ctx *ctx, enum hangdx_level level, const char *file,
	     unsigned long line, unsigned long col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hx_vdiag(ctx, level, file, line, col, fmt, ap);
	va_end(ap);
}

void *hx_alloc(struct hangdx_ctx *ctx, size_t n)
{
	return ctx->alloc.realloc(ctx->alloc.ud, NULL, n ? n : 1);
}

/* With the C library's allocator, calloc: memory fresh from the system is
 * zero already and is not written, so the pages of a large table that
 * stay unused (the devices of ranks without logs) are never touched. */
void *hx_calloc(struct hangdx_ctx *ctx, size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size)
		return NULL;
	if (ctx->alloc.realloc == libc_realloc) {
		p = calloc(count ? count : 1, size ? size : 1);
		if (p && count * size >= 2 * HUGE_PAGE)
			advise_huge(p, count * size);
		return p;
	}
	p = hx_alloc(ctx, count * size);
	if (p)
		memset(p, 0, (count * size) != 0 ? count * size : 1);
	return p;
}

void *hx_realloc(struct hangdx_ctx *ctx, void *p, size_t n)
{
	return ctx->alloc.realloc(ctx->alloc.ud, p, n ? n : 1);
}

void hx_free(struct hangdx_ctx *ctx, void *p)
{
	if (p)
		ctx->alloc.realloc(ctx->alloc.ud, p, 0);
}

char *hx_strdup(struct hangdx_ctx *ctx, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = hx_alloc(ctx, n);

	if (d)
		memcpy(d, s, n);
	return d;
}
