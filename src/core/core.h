/*
 * core.h - internals every stage of the pipeline stands on: the context
 * (allocator hook, diagnostics), arenas for parse-lifetime data, bounded
 * growable buffers and vectors, and string interning.
 *
 * Ownership: an arena owns everything allocated from it and frees it all at
 * once; a buffer or vector owns its storage until _free.  Every growable
 * thing has a ceiling and fails with HANGDX_ELIMIT past it.
 */
#ifndef HX_CORE_H
#define HX_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include "hangdx.h"
#include "i18n.h"

#define HX_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define HX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HX_PRINTF(f, a)
#endif

struct hangdx_ctx {
	struct hangdx_alloc alloc;
	hangdx_diag_fn *diag_fn;
	void *diag_ud;
	unsigned long diag_count[3];
};

/* ---- allocation through the context's hook ---- */
void *hx_alloc(struct hangdx_ctx *ctx, size_t n);
void *hx_calloc(struct hangdx_ctx *ctx, size_t count, size_t size);
void *hx_realloc(struct hangdx_ctx *ctx, void *p, size_t n);
void hx_free(struct hangdx_ctx *ctx, void *p);
char *hx_strdup(struct hangdx_ctx *ctx, const char *s);

/* ---- diagnostics ---- */
void hx_diag(struct hangdx_ctx *ctx, enum hangdx_level level, const char *file,
	     unsigned long line, unsigned long col, const char *fmt, ...)
	HX_PRINTF(6, 7);
void hx_vdiag(struct hangdx_ctx *ctx, enum hangdx_level level, const char *file,
	      unsigned long line, unsigned long col, const char *fmt,
	      va_list ap);

/* ---- arena: bump allocation in chunks, freed all at once ---- */
struct hx_arena_chunk;
struct hx_arena {
	struct hangdx_ctx *ctx;
	struct hx_arena_chunk *head;
	size_t used;   /* bytes handed out plus chunk overhead */
	size_t limit;  /* ceiling; 0 = SIZE_MAX */
};

void hx_arena_init(struct hx_arena *a, struct hangdx_ctx *ctx, size_t limit);
void *hx_arena_alloc(struct hx_arena *a, size_t n); /* 16-byte aligned, zeroed */
char *hx_arena_strndup(struct hx_arena *a, const char *s, size_t n);
char *hx_arena_strdup(struct hx_arena *a, const char *s);
void hx_arena_free(struct hx_arena *a);

/* ---- buf: growable bytes with a ceiling, always NUL-terminated ---- */
struct hx_buf {
	struct hangdx_ctx *ctx;
	char *p;
	size_t len, cap, max;
};

void hx_buf_init(struct hx_buf *b, struct hangdx_ctx *ctx, size_t max);
int hx_buf_add(struct hx_buf *b, const void *p, size_t n);
int hx_buf_puts(struct hx_buf *b, const char *s);
int hx_buf_putc(struct hx_buf *b, char c);
int hx_buf_printf(struct hx_buf *b, const char *fmt, ...) HX_PRINTF(2, 3);
int hx_buf_vprintf(struct hx_buf *b, const char *fmt, va_list ap);
void hx_buf_reset(struct hx_buf *b);
void hx_buf_free(struct hx_buf *b);
/* Append s as the body of a JSON string (no quotes), escaping as needed. */
int hx_buf_json_str(struct hx_buf *b, const char *s);

/*
 * vec: a growable array of any element type with a ceiling.
 *   struct foo *v = NULL; size_t n = 0, cap = 0;
 *   if (hx_vec_reserve(ctx, (void **)&v, &cap, n + 1, sizeof *v, MAX)) ...
 */
int hx_vec_reserve(struct hangdx_ctx *ctx, void **v, size_t *cap, size_t need,
		   size_t elsize, size_t max);

/* ---- intern: one copy of each string, with a dense id ---- */
struct hx_intern {
	struct hx_arena arena;
	const char **strs;  /* id -> string */
	uint32_t *slots;    /* open addressing; 0 = empty, else id + 1 */
	size_t n, cap_strs, nslots, max;
};

int hx_intern_init(struct hx_intern *in, struct hangdx_ctx *ctx, size_t max);
/* Returns the id of s (adding it if new) or -1 on ENOMEM/LIMIT (err set). */
long hx_intern_add(struct hx_intern *in, const char *s, size_t len, int *err);
long hx_intern_find(const struct hx_intern *in, const char *s, size_t len);
const char *hx_intern_str(const struct hx_intern *in, uint32_t id);
void hx_intern_free(struct hx_intern *in);

/* utf8.c: the length of the valid UTF-8 sequence at s (n bytes there), or
 * 0.  hx_utf8_clean: s[0..n) as valid UTF-8 of at most max bytes, cut
 * between characters, each byte that is not UTF-8 as U+FFFD: s itself
 * when it is valid (then *len may be less than n), else buf (max bytes),
 * with its length in *len. */
size_t hx_utf8_seq(const unsigned char *s, size_t n);
const char *hx_utf8_clean(const char *s, size_t n, size_t max, char *buf,
			  size_t *len);
uint64_t hx_hash(const void *p, size_t n);

/* ---- map: 64-bit key -> int32 value, open addressing ---- */
struct hx_map_slot {
	uint64_t key;       /* 0 = empty; use hx_map_key() to make keys */
	int32_t val;
};

struct hx_map {
	struct hx_map_slot *v;
	size_t n, cap;
};

/* A well-mixed non-zero key from any 64-bit value (splitmix64's
 * finalizer: the slot comes from the low bits, every input bit reaches
 * them). */
uint64_t hx_map_key(uint64_t x);
/* The slot of key, added with val -1 when missing; NULL (and *err set)
 * on ENOMEM or past 2^28 entries. */
struct hx_map_slot *hx_map_slot(struct hangdx_ctx *ctx, struct hx_map *m,
				uint64_t key, int *err);
/* Room for n entries without growing (one allocation, not a doubling
 * chain of them); HANGDX_ENOMEM or HANGDX_ELIMIT. */
int hx_map_reserve(struct hangdx_ctx *ctx, struct hx_map *m, size_t n);
/* The value of key, or -1. */
int32_t hx_map_find(const struct hx_map *m, uint64_t key);
void hx_map_free(struct hangdx_ctx *ctx, struct hx_map *m);

/* ---- names: a fixed table of up to HX_NAMES_MAX strings, found by hash ---- */
#define HX_NAMES_MAX 512
struct hx_names {
	const char *const *name;
	size_t n;
	uint16_t slot[HX_NAMES_MAX * 2];    /* index + 1; 0 = empty */
};

/* Index names[0..n) (n <= HX_NAMES_MAX; NULL entries are left out). */
void hx_names_init(struct hx_names *t, const char *const *names, size_t n);
/* The index of s[0..len), or -1. */
int hx_names_find(const struct hx_names *t, const char *s, size_t len);

/* ---- output files: write to a temp file, rename when complete ---- */
struct hx_outfile {
	FILE *fp;
	char *path;
	char *tmp;
};
int hx_outfile_open(struct hangdx_ctx *ctx, struct hx_outfile *o,
		    const char *path);
/* Written in place, for a file inside a directory that is itself
 * temporary (simulate's output, renamed into place when complete or
 * removed): no temp name, no rename. */
int hx_outfile_open_direct(struct hangdx_ctx *ctx, struct hx_outfile *o,
			   const char *path);
int hx_outfile_commit(struct hangdx_ctx *ctx, struct hx_outfile *o);
void hx_outfile_abort(struct hangdx_ctx *ctx, struct hx_outfile *o);

/* Create directories along path (like mkdir -p). */
int hx_mkdirs(const char *path);
/* Remove a directory tree (used to clean up a failed temp output). */
int hx_rmtree(const char *path);

#endif
