/*
 * mem.c - arenas, bounded buffers and vectors, string interning.
 * Parse-lifetime data lives in arenas and dies with them; buffers and
 * vectors grow geometrically up to a ceiling their owner chooses, so no
 * input can make them grow without end.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "core.h"

#define ARENA_CHUNK (64 * 1024)
#define VEC_MOVE ((size_t)4 << 20)
#define VEC_REMAP ((size_t)32 << 20)   /* glibc's largest mmap threshold */
#define ARENA_ALIGN 16

struct hx_arena_chunk {
	struct hx_arena_chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

void hx_arena_init(struct hx_arena *a, struct hangdx_ctx *ctx, size_t limit)
{
	a->ctx = ctx;
	a->head = NULL;
	a->used = 0;
	a->limit = limit ? limit : SIZE_MAX;
}

static struct hx_arena_chunk *arena_grow(struct hx_arena *a, size_t n)
{
	size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
	struct hx_arena_chunk *c;

	if (size > a->limit - a->used)
		return NULL;
	c = hx_alloc(a->ctx, sizeof *c + size);
	if (!c)
		return NULL;
	c->next = a->head;
	c->size = size;
	c->used = 0;
	a->head = c;
	a->used += size + sizeof *c;
	return c;
}

void *hx_arena_alloc(struct hx_arena *a, size_t n)
{
	struct hx_arena_chunk *c = a->head;
	void *p;

	if (n > SIZE_MAX - ARENA_ALIGN)
		return NULL;
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (!c || c->size - c->used < n) {
		c = arena_grow(a, n);
		if (!c)
			return NULL;
	}
	p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *hx_arena_strndup(struct hx_arena *a, const char *s, size_t n)
{
	char *d = hx_arena_alloc(a, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *hx_arena_strdup(struct hx_arena *a, const char *s)
{
	return hx_arena_strndup(a, s, strlen(s));
}

void hx_arena_free(struct hx_arena *a)
{
	struct hx_arena_chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		hx_free(a->ctx, c);
	}
	a->head = NULL;
	a->used = 0;
}

int hx_vec_reserve(struct hangdx_ctx *ctx, void **v, size_t *cap, size_t need,
		   size_t elsize, size_t max)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return HANGDX_OK;
	if (need > max || need > SIZE_MAX / elsize)
		return HANGDX_ELIMIT;
	ncap = *cap ? *cap : 8;
	while (ncap < need)
		ncap = ncap > max / 2 ? max : ncap * 2;
	if (ncap * elsize >= VEC_MOVE && *cap * elsize < VEC_REMAP) {
		/* a fresh block, advised before its first touch (hx_alloc);
		 * from VEC_REMAP on, the C library moves pages, not bytes */
		p = hx_alloc(ctx, ncap * elsize);
		if (p && *cap)
			memcpy(p, *v, *cap * elsize);
		if (p)
			hx_free(ctx, *v);
	} else {
		p = hx_realloc(ctx, *v, ncap * elsize);
	}
	if (!p)
		return HANGDX_ENOMEM;
	*v = p;
	*cap = ncap;
	return HANGDX_OK;
}

void hx_buf_init(struct hx_buf *b, struct hangdx_ctx *ctx, size_t max)
{
	b->ctx = ctx;
	b->p = NULL;
	b->len = b->cap = 0;
	b->max = max ? max : SIZE_MAX - 1;
}

int hx_buf_add(struct hx_buf *b, const void *p, size_t n)
{
	void *v = b->p;
	int err;

	if (n > b->max - b->len)
		return HANGDX_ELIMIT;
	err = hx_vec_reserve(b->ctx, &v, &b->cap, b->len + n + 1, 1,
			     b->max + 1);
	if (err)
		return err;
	b->p = v;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return HANGDX_OK;
}

int hx_buf_puts(struct hx_buf *b, const char *s)
{
	return hx_buf_add(b, s, strlen(s));
}

int hx_buf_putc(struct hx_buf *b, char c)
{
	return hx_buf_add(b, &c, 1);
}

int hx_buf_vprintf(struct hx_buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list ap2;
	int n;
	int err;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof small, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return HANGDX_EINVAL;
	if ((size_t)n < sizeof small)
		return hx_buf_add(b, small, (size_t)n);
	err = hx_buf_add(b, NULL, 0);
	if (err)
		return err;
	if ((size_t)n > b->max - b->len)
		return HANGDX_ELIMIT;
	{
		void *v = b->p;
		err = hx_vec_reserve(b->ctx, &v, &b->cap, b->len + (size_t)n + 1,
				     1, b->max + 1);
		if (err)
			return err;
		b->p = v;
	}
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return HANGDX_OK;
}

int hx_buf_printf(struct hx_buf *b, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = hx_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return err;
}

void hx_buf_reset(struct hx_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void hx_buf_free(struct hx_buf *b)
{
	hx_free(b->ctx, b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int hx_buf_json_str(struct hx_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0;
	int err = 0;

	for (;;) {
		unsigned char c = u[run];
		char esc[7] = "\\u00";
		const char *rep = NULL;
		size_t rlen = 2;

		if (c == '\0')
			break;
		if (c == '"') rep = "\\\"";
		else if (c == '\\') rep = "\\\\";
		else if (c == '\n') rep = "\\n";
		else if (c == '\r') rep = "\\r";
		else if (c == '\t') rep = "\\t";
		else if (c < 0x20 || c == 0x7f) {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			rep = esc;
			rlen = 6;
		} else if (c == '<' || c == '>' || c == '&') {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			rep = esc;
			rlen = 6;
		}
		if (!rep) {
			run++;
			continue;
		}
		err = hx_buf_add(b, u, run);
		if (!err)
			err = hx_buf_add(b, rep, rlen);
		if (err)
			return err;
		u += run + 1;
		run = 0;
	}
	return hx_buf_add(b, u, run);
}

uint64_t hx_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

int hx_intern_init(struct hx_intern *in, struct hangdx_ctx *ctx, size_t max)
{
	memset(in, 0, sizeof *in);
	hx_arena_init(&in->arena, ctx, 0);
	in->max = max ? max : (size_t)UINT32_MAX - 1;
	return HANGDX_OK;
}

static size_t intern_slot(const struct hx_intern *in, const char *s, size_t len)
{
	size_t mask = in->nslots - 1;
	size_t i = (size_t)hx_hash(s, len) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t id = in->slots[i];
		const char *t;

		if (id == 0)
			return i;
		t = in->strs[id - 1];
		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return i;
	}
}

static int intern_rehash(struct hx_intern *in)
{
	struct hangdx_ctx *ctx = in->arena.ctx;
	size_t n = in->nslots ? in->nslots * 2 : 64, i;
	uint32_t *old = in->slots;
	size_t oldn = in->nslots;

	in->slots = hx_calloc(ctx, n, sizeof *in->slots);
	if (!in->slots) {
		in->slots = old;
		return HANGDX_ENOMEM;
	}
	in->nslots = n;
	for (i = 0; i < oldn; i++) {
		if (old[i]) {
			const char *s = in->strs[old[i] - 1];
			in->slots[intern_slot(in, s, strlen(s))] = old[i];
		}
	}
	hx_free(ctx, old);
	return HANGDX_OK;
}

long hx_intern_find(const struct hx_intern *in, const char *s, size_t len)
{
	uint32_t id;

	if (!in->nslots)
		return -1;
	id = in->slots[intern_slot(in, s, len)];
	return id ? (long)id - 1 : -1;
}

long hx_intern_add(struct hx_intern *in, const char *s, size_t len, int *err)
{
	struct hangdx_ctx *ctx = in->arena.ctx;
	long found = hx_intern_find(in, s, len);
	size_t slot;
	char *copy;
	void *v;

	*err = 0;
	if (found >= 0)
		return found;
	if (in->n >= in->max) {
		*err = HANGDX_ELIMIT;
		return -1;
	}
	if ((in->n + 1) * 2 > in->nslots && (*err = intern_rehash(in)))
		return -1;
	v = (void *)in->strs;
	*err = hx_vec_reserve(ctx, &v, &in->cap_strs, in->n + 1,
			      sizeof *in->strs, in->max);
	if (*err)
		return -1;
	in->strs = v;
	copy = hx_arena_strndup(&in->arena, s, len);
	if (!copy) {
		*err = HANGDX_ENOMEM;
		return -1;
	}
	slot = intern_slot(in, s, len);
	in->strs[in->n] = copy;
	in->slots[slot] = (uint32_t)(in->n + 1);
	return (long)in->n++;
}

const char *hx_intern_str(const struct hx_intern *in, uint32_t id)
{
	return id < in->n ? in->strs[id] : NULL;
}

void hx_intern_free(struct hx_intern *in)
{
	struct hangdx_ctx *ctx = in->arena.ctx;

	hx_free(ctx, in->slots);
	hx_free(ctx, (void *)in->strs);
	hx_arena_free(&in->arena);
	memset(in, 0, sizeof *in);
}
