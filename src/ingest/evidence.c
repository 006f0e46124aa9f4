/*
 * evidence.c - the evidence store: typed records with interned strings,
 * per-file summaries and counters; the record builder the families fill;
 * the associative merge that lets many machines read parts of a job and
 * meet with small summaries; the sorted, de-duplicated view the writers
 * print.  Nothing here knows a log format.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingest.h"

#define DEFAULT_MAX_RECORDS (4u * 1024 * 1024)
#define RESERVE_MAX ((size_t)1 << 22)   /* records a hint reserves at most */

static const char *const kind_names[HX_K_COUNT] = {
#define HX_KIND_NAME(name, text) text,
	HX_KIND_MAP(HX_KIND_NAME)
#undef HX_KIND_NAME
};

static const char *const field_names[HX_F__N] = {
#define HX_FIELD_NAME(name, json, type) json,
	HX_FIELD_MAP(HX_FIELD_NAME)
#undef HX_FIELD_NAME
};

static const unsigned char field_types[HX_F__N] = {
#define HX_FIELD_TYPE(name, json, type) HX_T_##type,
	HX_FIELD_MAP(HX_FIELD_TYPE)
#undef HX_FIELD_TYPE
};

static const char *const skip_names[HX_S_COUNT] = {
#define HX_SKIP_NAME(name, text) text,
	HX_SKIP_MAP(HX_SKIP_NAME)
#undef HX_SKIP_NAME
};

const char *hx_kind_name(int kind)
{
	return kind >= 0 && kind < HX_K_COUNT ? kind_names[kind] : "?";
}

/* The names of kinds and fields, found by hash (a loader looks up every
 * key of millions of records). */
static struct hx_names kind_index, field_index;
_Static_assert(HX_K_COUNT <= HX_NAMES_MAX && HX_F__N <= HX_NAMES_MAX,
	       "a name index holds every kind and field");
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void index_names(void)
{
	hx_names_init(&kind_index, kind_names, HX_K_COUNT);
	hx_names_init(&field_index, field_names, HX_F__N);
}

int hx_kind_from_name(const char *s, size_t n)
{
	pthread_once(&index_once, index_names);
	return hx_names_find(&kind_index, s, n);
}

const char *hx_field_name(int key)
{
	return key >= 0 && key < HX_F__N ? field_names[key] : "?";
}

int hx_field_type(int key)
{
	return key >= 0 && key < HX_F__N ? field_types[key] : HX_T_STR;
}

int hx_field_from_name(const char *s, size_t n)
{
	pthread_once(&index_once, index_names);
	return hx_names_find(&field_index, s, n);
}

const char *hx_skip_name(int reason)
{
	return reason >= 0 && reason < HX_S_COUNT ? skip_names[reason] : "?";
}

const char *hangdx_skip_reason_name(int reason)
{
	return reason >= 0 && reason < HX_S_COUNT ? skip_names[reason] : NULL;
}

/* ---- lifecycle ---- */

int hangdx_evidence_new(struct hangdx_ctx *ctx, struct hangdx_evidence **out)
{
	struct hangdx_evidence *ev;

	*out = NULL;
	if (!ctx)
		return HANGDX_EINVAL;
	ev = hx_calloc(ctx, 1, sizeof *ev);
	if (!ev)
		return HANGDX_ENOMEM;
	ev->ctx = ctx;
	hx_intern_init(&ev->strs, ctx, 0);
	ev->maxrec = DEFAULT_MAX_RECORDS;
	*out = ev;
	return HANGDX_OK;
}

void hangdx_evidence_free(struct hangdx_evidence *ev)
{
	if (!ev)
		return;
	hx_intern_free(&ev->strs);
	hx_free(ev->ctx, ev->recs);
	hx_free(ev->ctx, ev->fields);
	hx_free(ev->ctx, ev->files);
	hx_free(ev->ctx, ev->roots);
	hx_map_free(ev->ctx, &ev->rootset);
	hx_map_free(ev->ctx, &ev->tagset);
	hx_free(ev->ctx, ev);
}

size_t hangdx_evidence_count(const struct hangdx_evidence *ev)
{
	return ev->nrec;
}

void hangdx_evidence_stats(const struct hangdx_evidence *ev,
			   struct hangdx_ingest_stats *st)
{
	int i;

	memset(st, 0, sizeof *st);
	st->inputs = ev->c.inputs;
	st->files = ev->c.files;
	st->archives = ev->c.archives;
	st->bytes = ev->c.bytes;
	st->lines = ev->c.lines;
	st->candidates = ev->c.candidates;
	st->records = ev->nrec;
	st->files_skipped = ev->c.files_skipped;
	for (i = 0; i < HX_S_COUNT && i < HANGDX_SKIP_REASONS; i++) {
		st->skipped[i] = ev->c.skipped[i];
		if (i == HX_S_TOO_LONG || i == HX_S_NUL)
			st->lines_skipped += ev->c.skipped[i];
	}
}

/* ---- strings ---- */

uint32_t hx_ev_intern(struct hangdx_evidence *ev, const char *s, size_t n,
		      int *err)
{
	long id = hx_intern_add(&ev->strs, s, n, err);

	return id < 0 ? HX_NOSTR : (uint32_t)id;
}

const char *hx_ev_str(const struct hangdx_evidence *ev, uint32_t id)
{
	return id == HX_NOSTR ? NULL : hx_intern_str(&ev->strs, id);
}

int hx_ev_add_file(struct hangdx_evidence *ev, const struct hx_filesum *fs)
{
	void *v = ev->files;
	int err = hx_vec_reserve(ev->ctx, &v, &ev->capfile, ev->nfile + 1,
				 sizeof *ev->files, (size_t)1 << 28);

	if (err)
		return err;
	ev->files = v;
	ev->files[ev->nfile++] = *fs;
	return HANGDX_OK;
}

/* ---- the record builder ---- */

void hx_rb_init(struct hx_recb *b, struct hangdx_evidence *ev, int kind)
{
	memset(&b->rec, 0, sizeof b->rec);
	b->ev = ev;
	b->n = 0;
	b->err = 0;
	b->rec.kind = (uint8_t)kind;
	b->rec.ts = b->rec.pid = b->rec.tid = HX_NONE;
	b->rec.file = b->rec.vpath = HX_NOSTR;
	b->rec.module = b->rec.pname = b->rec.src = HX_NOSTR;
}

bool hx_rb_has(const struct hx_recb *b, int key)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->f[i].key == key)
			return true;
	return false;
}

/* First value wins: later spellings of the same field are ignored. */
static struct hx_field *rb_slot(struct hx_recb *b, int key)
{
	struct hx_field *f;

	if (b->n >= HX_MAX_FIELDS || hx_rb_has(b, key))
		return NULL;
	f = &b->f[b->n++];
	f->key = (uint16_t)key;
	f->pad = 0;
	f->str = HX_NOSTR;
	f->num = 0;
	return f;
}

void hx_rb_num(struct hx_recb *b, int key, int64_t v)
{
	struct hx_field *f = rb_slot(b, key);

	if (f)
		f->num = v;
}

void hx_rb_str(struct hx_recb *b, int key, const char *s, size_t n)
{
	struct hx_field *f;
	char buf[512];
	int err = 0;
	uint32_t id;

	if (hx_rb_has(b, key))
		return;
	s = hx_utf8_clean(s, n, sizeof buf, buf, &n);
	id = hx_ev_intern(b->ev, s, n, &err);
	if (err) {
		if (!b->err)
			b->err = err;
		return;
	}
	f = rb_slot(b, key);
	if (f)
		f->str = id;
}

static bool plain_uint(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0 && n < 11;
}

/*
 * Ranks: a plain number is kept as is; 4294967295, "local", "unknown",
 * "/" and anything else that names no peer become -1 with the raw text.
 */
void hx_rb_rank(struct hx_recb *b, int key, const char *s, size_t n)
{
	struct hx_field *f;
	char buf[64];
	uint64_t v = 0;
	int err = 0;
	uint32_t id = HX_NOSTR;

	while (n && *s == ' ') {
		s++;
		n--;
	}
	while (n && s[n - 1] == ' ')
		n--;
	if (n && s[n - 1] == '.' && (n < 2 || s[n - 2] != '.'))
		n--;            /* a full stop; "..." stays: a rank cut */
	if (hx_rb_has(b, key))
		return;
	if (plain_uint(s, n) && hx_parse_u64(s, n, &v) && v < 0xFFFFFFFFull) {
		f = rb_slot(b, key);
		if (f)
			f->num = (int64_t)v;
		return;
	}
	s = hx_utf8_clean(s, n, sizeof buf, buf, &n);
	id = hx_ev_intern(b->ev, s, n, &err);
	if (err) {
		if (!b->err)
			b->err = err;
		return;
	}
	f = rb_slot(b, key);
	if (f) {
		f->num = -1;
		f->str = id;
	}
}

int hx_ev_reserve(struct hangdx_evidence *ev, size_t nrec, size_t nfield)
{
	void *v = ev->recs;
	int err;

	if (nrec > ev->maxrec - (ev->nrec < ev->maxrec ? ev->nrec : ev->maxrec))
		nrec = ev->maxrec - (ev->nrec < ev->maxrec ? ev->nrec : ev->maxrec);
	if (nrec > RESERVE_MAX)
		nrec = RESERVE_MAX;
	if (nfield > nrec * 8)
		nfield = nrec * 8;
	err = hx_vec_reserve(ev->ctx, &v, &ev->caprec, ev->nrec + nrec,
			     sizeof *ev->recs, SIZE_MAX / 2 / sizeof *ev->recs);
	if (err)
		return err;
	ev->recs = v;
	v = ev->fields;
	err = hx_vec_reserve(ev->ctx, &v, &ev->capfield, ev->nfield + nfield,
			     sizeof *ev->fields, SIZE_MAX / 2 / sizeof *ev->fields);
	if (!err)
		ev->fields = v;
	return err;
}

int hx_rb_commit(struct hx_recb *b)
{
	struct hangdx_evidence *ev = b->ev;
	void *v;
	int err;

	if (b->err)
		return b->err;
	if (ev->budget) {
		size_t used = atomic_fetch_add(&ev->budget->used, 1);

		if (used >= ev->budget->max) {
			atomic_fetch_sub(&ev->budget->used, 1);
			return HANGDX_ELIMIT;
		}
	}
	if (ev->nrec >= ev->maxrec) {
		if (ev->budget)
			atomic_fetch_sub(&ev->budget->used, 1);
		return HANGDX_ELIMIT;
	}
	v = ev->recs;
	err = hx_vec_reserve(ev->ctx, &v, &ev->caprec, ev->nrec + 1,
			     sizeof *ev->recs, SIZE_MAX / 2 / sizeof *ev->recs);
	if (err)
		return err;
	ev->recs = v;
	v = ev->fields;
	err = hx_vec_reserve(ev->ctx, &v, &ev->capfield, ev->nfield + b->n,
			     sizeof *ev->fields,
			     SIZE_MAX / 2 / sizeof *ev->fields);
	if (err)
		return err;
	ev->fields = v;
	b->rec.ffirst = (uint32_t)ev->nfield;
	b->rec.nfield = (uint16_t)b->n;
	if (b->n)
		memcpy(ev->fields + ev->nfield, b->f, b->n * sizeof b->f[0]);
	ev->nfield += b->n;
	ev->recs[ev->nrec++] = b->rec;
	return HANGDX_OK;
}

/* ---- merge ---- */

static uint32_t remap(const uint32_t *map, uint32_t id)
{
	return id == HX_NOSTR ? HX_NOSTR : map[id];
}

static int merge_strings(struct hangdx_evidence *dst,
			 const struct hangdx_evidence *src, uint32_t **mapp)
{
	uint32_t *map = hx_calloc(dst->ctx, src->strs.n ? src->strs.n : 1,
				  sizeof *map);
	size_t i;
	int err = 0;

	if (!map)
		return HANGDX_ENOMEM;
	for (i = 0; i < src->strs.n; i++) {
		const char *s = hx_intern_str(&src->strs, (uint32_t)i);

		map[i] = hx_ev_intern(dst, s, strlen(s), &err);
		if (err) {
			hx_free(dst->ctx, map);
			return err;
		}
	}
	*mapp = map;
	return HANGDX_OK;
}

static int merge_reserve(struct hangdx_evidence *dst,
			 const struct hangdx_evidence *src)
{
	size_t maxrec = dst->maxrec > src->nrec + dst->nrec
				? dst->maxrec : src->nrec + dst->nrec;
	void *v = dst->recs;
	int err;

	err = hx_vec_reserve(dst->ctx, &v, &dst->caprec, dst->nrec + src->nrec,
			     sizeof *dst->recs, maxrec);
	if (err)
		return err;
	dst->recs = v;
	v = dst->fields;
	err = hx_vec_reserve(dst->ctx, &v, &dst->capfield,
			     dst->nfield + src->nfield, sizeof *dst->fields,
			     maxrec * HX_MAX_FIELDS);
	if (err)
		return err;
	dst->fields = v;
	v = dst->files;
	err = hx_vec_reserve(dst->ctx, &v, &dst->capfile,
			     dst->nfile + src->nfile, sizeof *dst->files,
			     (size_t)1 << 28);
	if (!err)
		dst->files = v;
	return err;
}

static void merge_counts(struct hx_counts *d, const struct hx_counts *s)
{
	int i;

	d->inputs += s->inputs;
	d->files += s->files;
	d->archives += s->archives;
	d->bytes += s->bytes;
	d->lines += s->lines;
	d->candidates += s->candidates;
	d->records += s->records;
	d->files_skipped += s->files_skipped;
	d->dup_records += s->dup_records;
	for (i = 0; i < HX_S_COUNT; i++)
		d->skipped[i] += s->skipped[i];
}

/* A file skipped whole (file_skipped() in reader.c: nothing read, counted
 * in files_skipped) rather than read.  An empty archive, skipped, looks
 * like an empty file, read: counted as read here. */
static bool skipped_file(const struct hx_filesum *f)
{
	return f->bytes == 0 && f->lines == 0 && f->status != HX_FS_OK &&
	       f->status != HX_FS_EMPTY;
}

static int skip_reason(int status)
{
	switch (status) {
	case HX_FS_BINARY: return HX_S_BINARY;
	case HX_FS_UNREADABLE: return HX_S_UNREADABLE;
	case HX_FS_TRUNCATED: return HX_S_TRUNCATED;
	case HX_FS_LIMIT: return HX_S_LIMIT;
	default: return -1;
	}
}

/* Take a file's counts out of c (a file not added after all). */
static void uncount(struct hx_counts *c, const struct hx_filesum *f)
{
	if (skipped_file(f)) {
		c->files_skipped--;
		if (skip_reason(f->status) >= 0)
			c->skipped[skip_reason(f->status)]--;
	} else {
		c->files--;
		c->bytes -= f->bytes;
		c->lines -= f->lines;
	}
}

/*
 * Files of src already in dst (the same path read twice, on one machine or
 * two): marked in dup (by dst string id), their counts taken back out of
 * the counts src brings (the lines a file skipped, and its candidate
 * lines, are not kept per file: those two totals stay sums).  Evidence is
 * a set of files: merging is a union, the first summary of a file wins,
 * and merging one twice changes nothing else.  Files keep_file leaves out
 * (when given) are treated the same way.
 */
static int merge_dups(struct hangdx_evidence *dst,
		      const struct hangdx_evidence *src, const uint8_t *keep_file,
		      const uint32_t *map, struct hx_map *dup, struct hx_counts *add)
{
	struct hx_map have = { 0 };
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < dst->nfile && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(dst->ctx, &have,
			hx_map_key(dst->files[i].path), &err);
		if (sl)
			sl->val = 1;
	}
	for (i = 0; i < src->nfile && !err; i++) {
		const struct hx_filesum *f = &src->files[i];
		uint64_t key = hx_map_key(remap(map, f->path));
		bool in_dst = hx_map_find(&have, key) >= 0;
		struct hx_map_slot *sl;

		if (!in_dst && (!keep_file || keep_file[i]))
			continue;
		if (!in_dst && hx_map_find(dup, key) >= 0)
			continue;       /* left out, and counted out, once */
		sl = hx_map_slot(dst->ctx, dup, key, &err);
		if (!sl)
			break;
		sl->val = 1;
		uncount(add, f);
	}
	hx_map_free(dst->ctx, &have);
	return err;
}

/*
 * Append src to dst.  Strings are interned first and capacity reserved
 * next, so a failure leaves dst's records as they were.
 */
int hangdx_evidence_merge(struct hangdx_evidence *dst,
			  const struct hangdx_evidence *src)
{
	return hx_ev_merge_sel(dst, src, NULL, NULL);
}

int hx_ev_clone(const struct hangdx_evidence *src,
		struct hangdx_evidence **out)
{
	struct hangdx_evidence *ev;
	int err = hangdx_evidence_new(src->ctx, &ev);

	if (err)
		return err;
	err = hangdx_evidence_merge(ev, src);
	if (!err && (ev->strs.n != src->strs.n || ev->nrec != src->nrec ||
		     ev->nfile != src->nfile))
		err = HANGDX_EINVAL;    /* a merge into nothing renames nothing */
	if (err) {
		hangdx_evidence_free(ev);
		return err;
	}
	ev->maxrec = src->maxrec;
	ev->limit_warned = src->limit_warned;
	*out = ev;
	return HANGDX_OK;
}

int hx_ev_merge_sel(struct hangdx_evidence *dst,
		    const struct hangdx_evidence *src, const uint8_t *keep_rec,
		    const uint8_t *keep_file)
{
	struct hx_map dup = { 0 };
	struct hx_counts add;
	uint32_t *map = NULL;
	size_t i;
	int err;

	if (!dst || !src || dst == src)
		return HANGDX_EINVAL;
	err = merge_strings(dst, src, &map);
	if (err)
		return err;
	add = src->c;
	err = merge_dups(dst, src, keep_file, map, &dup, &add);
	if (!err)
		err = merge_reserve(dst, src);
	if (err)
		goto out_free_map;
	for (i = 0; i < src->nrec; i++) {
		struct hx_rec r = src->recs[i];
		size_t j;

		r.file = remap(map, r.file);
		if ((keep_rec && !keep_rec[i]) ||
		    (dup.n && hx_map_find(&dup, hx_map_key(r.file)) >= 0))
			continue;
		r.vpath = remap(map, r.vpath);
		r.module = remap(map, r.module);
		r.pname = remap(map, r.pname);
		r.src = remap(map, r.src);
		r.ffirst = (uint32_t)dst->nfield;
		for (j = 0; j < r.nfield; j++) {
			struct hx_field f = src->fields[src->recs[i].ffirst + j];

			f.str = remap(map, f.str);
			dst->fields[dst->nfield++] = f;
		}
		dst->recs[dst->nrec++] = r;
	}
	for (i = 0; i < src->nfile; i++) {
		struct hx_filesum fs = src->files[i];

		fs.path = remap(map, fs.path);
		if (dup.n && hx_map_find(&dup, hx_map_key(fs.path)) >= 0)
			continue;
		dst->files[dst->nfile++] = fs;
	}
	for (i = 0; i < src->nroots && !err; i++)
		err = hx_ev_add_root(dst, hx_ev_str(src, src->roots[i]));
	for (i = 0; i < src->tagset.cap && src->tagset.n && !err; i++)
		if (src->tagset.v[i].key)
			err = hx_ev_add_tag(dst, hx_ev_str(src,
					    (uint32_t)src->tagset.v[i].val));
	if (dst->maxrec < dst->nrec)
		dst->maxrec = dst->nrec;
	merge_counts(&dst->c, &add);
out_free_map:
	hx_map_free(dst->ctx, &dup);
	hx_free(dst->ctx, map);
	return err;
}

/* The fields of the records from `from` on lie in record order. */
static bool fields_in_order(const struct hangdx_evidence *ev, size_t from)
{
	size_t i;

	for (i = from + 1; i < ev->nrec; i++)
		if (ev->recs[i].ffirst < ev->recs[i - 1].ffirst + ev->recs[i - 1].nfield)
			return false;
	return true;
}

/* Record i and its fields move down to slots nr and nf (not above them). */
static void move_down(struct hangdx_evidence *ev, size_t i, size_t *nr, size_t *nf)
{
	struct hx_rec r = ev->recs[i];

	memmove(&ev->fields[*nf], &ev->fields[r.ffirst], r.nfield * sizeof *ev->fields);
	r.ffirst = (uint32_t)*nf;
	*nf += r.nfield;
	ev->recs[(*nr)++] = r;
}

static int ref_cmp(const void *a, const void *b)
{
	size_t x = **(size_t *const *)a, y = **(size_t *const *)b;

	return x < y ? -1 : x > y;
}

size_t hx_ev_sweep(struct hangdx_evidence *ev, size_t from,
		   size_t *const *refs, size_t nref)
{
	size_t *sorted[3 * HX_KRUN_SLOTS + 1], i, j = 0, nr = from, nf;

	if (from >= ev->nrec || nref > HX_ARRAY_LEN(sorted) ||
	    !fields_in_order(ev, from))
		return 0;
	memcpy(sorted, refs, nref * sizeof *refs);
	qsort(sorted, nref, sizeof *sorted, ref_cmp);
	while (j < nref && *sorted[j] < from)
		j++;
	nf = ev->recs[from].ffirst;
	for (i = from; i < ev->nrec; i++) {
		for (; j < nref && *sorted[j] == i; j++)
			*sorted[j] = ev->recs[i].kind == HX_K_DEAD ? SIZE_MAX : nr;
		if (ev->recs[i].kind != HX_K_DEAD)
			move_down(ev, i, &nr, &nf);
	}
	i = ev->nrec - nr;
	ev->nrec = nr;
	ev->nfield = nf;
	return i;
}

/* The records and files of ev from the mark on whose file is in drop
 * go, in place: records and their fields move down, keeping their order;
 * the counts lose what those files brought. */
static int drop_marked(struct hangdx_evidence *ev, const struct hx_map *drop,
		       const struct hx_ev_mark *m)
{
	size_t i, nr = m->nrec, nf = m->nfield, nfile = m->nfile;

	if (!fields_in_order(ev, m->nrec) ||
	    (m->nrec < ev->nrec && ev->recs[m->nrec].ffirst < m->nfield))
		return HANGDX_EINVAL;
	for (i = m->nrec; i < ev->nrec; i++)
		if (hx_map_find(drop, hx_map_key(ev->recs[i].file)) < 0)
			move_down(ev, i, &nr, &nf);
	ev->nrec = nr;
	ev->nfield = nf;
	for (i = m->nfile; i < ev->nfile; i++) {
		const struct hx_filesum *f = &ev->files[i];

		if (hx_map_find(drop, hx_map_key(f->path)) < 0) {
			ev->files[nfile++] = *f;
			continue;
		}
		uncount(&ev->c, f);
	}
	ev->nfile = nfile;
	return HANGDX_OK;
}

/* Mark the file at path p (if ev holds one) in drop. */
static void mark_path(struct hangdx_evidence *ev, struct hx_map *drop,
		      const char *p, int *err)
{
	long id = p ? hx_intern_find(&ev->strs, p, strlen(p)) : -1;
	struct hx_map_slot *sl;

	if (id < 0)
		return;
	sl = hx_map_slot(ev->ctx, drop, hx_map_key((uint64_t)id), err);
	if (sl)
		sl->val = 1;
}

static int drop_finish(struct hangdx_evidence *ev, struct hx_map *drop, int err)
{
	static const struct hx_ev_mark all = { 0, 0, 0 };

	if (!err && drop->n)
		err = drop_marked(ev, drop, &all);
	hx_map_free(ev->ctx, drop);
	return err;
}

/* Take out the files of src_files (and their records), in place. */
int hx_ev_drop_files(struct hangdx_evidence *ev,
		     const struct hangdx_evidence *src_files)
{
	struct hx_map drop = { 0 };
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < src_files->nfile && !err; i++)
		mark_path(ev, &drop, hx_ev_str(src_files, src_files->files[i].path),
			  &err);
	return drop_finish(ev, &drop, err);
}

/* Record i goes when its file has had its share: seen counts per file. */
static bool past_share(struct hangdx_evidence *ev, const struct hx_map *lim,
		       const uint64_t *keep, struct hx_map *seen, size_t i,
		       int *err)
{
	uint64_t key = hx_map_key(ev->recs[i].file);
	int32_t j = hx_map_find(lim, key);
	struct hx_map_slot *sl;

	if (j < 0)
		return false;
	sl = hx_map_slot(ev->ctx, seen, key, err);
	if (!sl)
		return false;
	if (sl->val < 0)
		sl->val = 0;
	if ((uint64_t)sl->val >= keep[j])
		return true;
	sl->val++;
	return false;
}

int hx_ev_keep_first(struct hangdx_evidence *ev, const char *const *paths,
		     const uint64_t *keep, size_t n)
{
	struct hx_map lim = { 0 }, seen = { 0 };
	uint8_t *go = NULL;
	size_t i, nr = 0, nf = 0;
	int err = HANGDX_OK;

	for (i = 0; i < n && !err; i++) {
		long id = paths[i] ? hx_intern_find(&ev->strs, paths[i],
						    strlen(paths[i])) : -1;
		struct hx_map_slot *sl;

		if (id < 0)
			continue;
		sl = hx_map_slot(ev->ctx, &lim, hx_map_key((uint64_t)id), &err);
		if (sl)
			sl->val = (int32_t)i;
	}
	if (!err && lim.n && !fields_in_order(ev, 0))
		err = HANGDX_EINVAL;
	if (!err && lim.n && !(go = hx_calloc(ev->ctx, ev->nrec + 1, 1)))
		err = HANGDX_ENOMEM;
	/* decide first (it allocates), then move: a failure leaves ev whole */
	for (i = 0; go && !err && i < ev->nrec; i++)
		go[i] = past_share(ev, &lim, keep, &seen, i, &err);
	for (i = 0; go && !err && i < ev->nrec; i++) {
		if (go[i])
			ev->c.skipped[HX_S_RECORDS]++;
		else
			move_down(ev, i, &nr, &nf);
	}
	if (go && !err) {
		ev->nrec = nr;
		ev->nfield = nf;
	}
	hx_free(ev->ctx, go);
	hx_map_free(ev->ctx, &lim);
	hx_map_free(ev->ctx, &seen);
	return err;
}

int hx_ev_drop_named(struct hangdx_evidence *ev, const char *const *paths,
		     size_t n)
{
	struct hx_map drop = { 0 };
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < n && !err; i++)
		mark_path(ev, &drop, paths[i], &err);
	return drop_finish(ev, &drop, err);
}

void hx_ev_mark(const struct hangdx_evidence *ev, struct hx_ev_mark *m)
{
	m->nrec = ev->nrec;
	m->nfield = ev->nfield;
	m->nfile = ev->nfile;
}

int hx_ev_drop_dups_since(struct hangdx_evidence *ev, const struct hx_ev_mark *m)
{
	struct hx_map have = { 0 }, drop = { 0 };
	size_t i;
	int err = HANGDX_OK;

	if (m->nfile == 0 || m->nfile == ev->nfile)
		return HANGDX_OK;
	for (i = 0; i < m->nfile && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(ev->ctx, &have,
			hx_map_key(ev->files[i].path), &err);
		if (sl)
			sl->val = 1;
	}
	for (i = m->nfile; i < ev->nfile && !err; i++) {
		uint64_t key = hx_map_key(ev->files[i].path);
		struct hx_map_slot *sl;

		if (hx_map_find(&have, key) < 0)
			continue;
		sl = hx_map_slot(ev->ctx, &drop, key, &err);
		if (sl)
			sl->val = 1;
	}
	if (!err && drop.n)
		err = drop_marked(ev, &drop, m);
	hx_map_free(ev->ctx, &have);
	hx_map_free(ev->ctx, &drop);
	return err;
}

/* ---- node tags ---- */

static uint64_t tag_key(uint32_t id)
{
	return hx_map_key((uint64_t)id + 7);
}

int hx_ev_add_tag(struct hangdx_evidence *ev, const char *tag)
{
	int err = HANGDX_OK;
	size_t n = tag ? strlen(tag) : 0;
	uint32_t id;
	struct hx_map_slot *sl;

	if (!n || n > HX_MAX_TAG || tag[n - 1] != ':')
		return HANGDX_EINVAL;
	id = hx_ev_intern(ev, tag, n, &err);
	if (err)
		return err;
	sl = hx_map_slot(ev->ctx, &ev->tagset, tag_key(id), &err);
	if (sl)
		sl->val = (int32_t)id;
	return err;
}

size_t hx_ev_tag_len(const struct hangdx_evidence *ev, const char *path)
{
	const char *c;
	long id;

	if (!ev->tagset.n || !path)
		return 0;
	c = memchr(path, ':', strnlen(path, HX_MAX_TAG));
	if (!c)
		return 0;
	id = hx_intern_find(&ev->strs, path, (size_t)(c - path) + 1);
	return id >= 0 && hx_map_find(&ev->tagset, tag_key((uint32_t)id)) >= 0
	       ? (size_t)(c - path) + 1 : 0;
}

static int retag_one(struct hangdx_evidence *ev, const char *tag,
		     uint32_t *map, size_t nmap, uint32_t id, char **buf,
		     size_t *cap)
{
	const char *s;
	size_t tn = strlen(tag), n;
	int err = HANGDX_OK;
	void *v = *buf;

	if (id == HX_NOSTR || id >= nmap || map[id] != HX_NOSTR)
		return HANGDX_OK;
	s = hx_ev_str(ev, id);
	n = strlen(s);
	err = hx_vec_reserve(ev->ctx, &v, cap, tn + n + 1, 1, (size_t)1 << 24);
	if (err)
		return err;
	*buf = v;
	memcpy(*buf, tag, tn);
	memcpy(*buf + tn, s, n + 1);
	map[id] = hx_ev_intern(ev, *buf, tn + n, &err);
	return err;
}

static uint32_t mapped(const uint32_t *map, size_t nmap, uint32_t id)
{
	return id == HX_NOSTR || id >= nmap || map[id] == HX_NOSTR ? id : map[id];
}

int hx_ev_retag(struct hangdx_evidence *ev, const char *tag,
		const uint32_t *extra, size_t nextra, uint32_t **mapp)
{
	size_t nmap = ev->strs.n, i, cap = 0;
	uint32_t *map;
	char *buf = NULL;
	int err;

	if (mapp)
		*mapp = NULL;
	err = hx_ev_add_tag(ev, tag);
	if (err)
		return err;
	map = hx_alloc(ev->ctx, (nmap + 1) * sizeof *map);
	if (!map)
		return HANGDX_ENOMEM;
	for (i = 0; i < nmap; i++)
		map[i] = HX_NOSTR;
	for (i = 0; i < ev->nrec && !err; i++) {
		err = retag_one(ev, tag, map, nmap, ev->recs[i].file, &buf, &cap);
		if (!err)
			err = retag_one(ev, tag, map, nmap, ev->recs[i].vpath, &buf, &cap);
	}
	for (i = 0; i < ev->nfile && !err; i++)
		err = retag_one(ev, tag, map, nmap, ev->files[i].path, &buf, &cap);
	for (i = 0; i < ev->nroots && !err; i++)
		err = retag_one(ev, tag, map, nmap, ev->roots[i], &buf, &cap);
	for (i = 0; i < nextra && !err; i++)
		err = retag_one(ev, tag, map, nmap, extra[i], &buf, &cap);
	hx_free(ev->ctx, buf);
	if (!err) {
		uint32_t *roots = ev->roots;
		size_t nroots = ev->nroots;

		for (i = 0; i < ev->nrec; i++) {
			ev->recs[i].file = mapped(map, nmap, ev->recs[i].file);
			ev->recs[i].vpath = mapped(map, nmap, ev->recs[i].vpath);
		}
		for (i = 0; i < ev->nfile; i++)
			ev->files[i].path = mapped(map, nmap, ev->files[i].path);
		ev->roots = NULL;
		ev->nroots = ev->caproots = 0;
		hx_map_free(ev->ctx, &ev->rootset);
		for (i = 0; i < nroots && !err; i++)
			err = hx_ev_add_root(ev, hx_ev_str(ev, mapped(map, nmap, roots[i])));
		hx_free(ev->ctx, roots);
	}
	if (err || !mapp)
		hx_free(ev->ctx, map);
	else
		*mapp = map;
	return err;
}

bool hx_filesum_same(const struct hx_filesum *a, const struct hx_filesum *b)
{
	return a->bytes == b->bytes && a->lines == b->lines &&
	       a->first_ts == b->first_ts && a->last_ts == b->last_ts;
}

const char *hx_ev_clash(const struct hangdx_evidence *dst,
			const struct hangdx_evidence *src, const char *tag,
			int *err)
{
	char buf[4096 + HX_MAX_TAG];
	struct hx_map have = { 0 };
	const char *clash = NULL;
	size_t i;

	*err = HANGDX_OK;
	for (i = 0; i < dst->nfile && !*err; i++) {
		struct hx_map_slot *sl = hx_map_slot(dst->ctx, &have,
			hx_map_key(dst->files[i].path), err);
		if (sl)
			sl->val = (int32_t)i;
	}
	for (i = 0; i < src->nfile && !*err && !clash && have.n; i++) {
		const char *p = hx_ev_str(src, src->files[i].path);
		long id;

		if (tag && tag[0]) {
			snprintf(buf, sizeof buf, "%s%s", tag, p);
			p = buf;
		}
		id = hx_intern_find(&dst->strs, p, strlen(p));
		int32_t j = id < 0 ? -1 : hx_map_find(&have, hx_map_key((uint64_t)id));

		if (j >= 0 && !hx_filesum_same(&dst->files[j], &src->files[i]))
			clash = hx_ev_str(dst, dst->files[j].path);
	}
	hx_map_free(dst->ctx, &have);
	return clash;
}

/* ---- sorted view ---- */

/* Sort keys: comparing them needs no look-up into the records, so the
 * sort walks one array, and no global context (sorts may run at once). */
struct skey {
	uint32_t frank;         /* rank of the file path in byte order */
	uint32_t subkind;       /* sub << 8 | kind */
	uint64_t line;
	uint32_t idx;
};

static int skey_cmp(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;

	if (x->frank != y->frank)
		return x->frank < y->frank ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->subkind != y->subkind)
		return x->subkind < y->subkind ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct pkey {
	const char *s;
	uint32_t id;
};

static int pkey_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pkey *)a)->s, ((const struct pkey *)b)->s);
}

/* Rank of every file path in byte order; other strings get 0. */
static int path_ranks(const struct hangdx_evidence *ev, uint32_t **out)
{
	size_t ns = ev->strs.n ? ev->strs.n : 1, i, np = 0;
	uint32_t *rank = hx_calloc(ev->ctx, ns, sizeof *rank);
	struct pkey *ids = hx_calloc(ev->ctx, ns, sizeof *ids);

	if (!rank || !ids) {
		hx_free(ev->ctx, rank);
		hx_free(ev->ctx, ids);
		return HANGDX_ENOMEM;
	}
	for (i = 0; i < ev->nrec; i++)
		rank[ev->recs[i].file] = 1;
	for (i = 0; i < ev->nfile; i++)
		rank[ev->files[i].path] = 1;
	for (i = 0; i < ev->strs.n; i++)
		if (rank[i]) {
			ids[np].s = hx_intern_str(&ev->strs, (uint32_t)i);
			ids[np++].id = (uint32_t)i;
		}
	qsort(ids, np, sizeof *ids, pkey_cmp);
	for (i = 0; i < np; i++)
		rank[ids[i].id] = (uint32_t)i;
	hx_free(ev->ctx, ids);
	*out = rank;
	return HANGDX_OK;
}

int hx_ev_sorted(const struct hangdx_evidence *ev, uint32_t **order,
		 size_t *n)
{
	uint32_t *o, *frank;
	struct skey *k;
	size_t i, m = 0;
	int err;

	*order = NULL;
	*n = 0;
	o = hx_calloc(ev->ctx, ev->nrec ? ev->nrec : 1, sizeof *o);
	k = hx_calloc(ev->ctx, ev->nrec ? ev->nrec : 1, sizeof *k);
	if (!o || !k) {
		err = HANGDX_ENOMEM;
		goto out_free_keys;
	}
	err = path_ranks(ev, &frank);
	if (err)
		goto out_free_keys;
	for (i = 0; i < ev->nrec; i++) {
		const struct hx_rec *r = &ev->recs[i];

		k[i].frank = frank[r->file];
		k[i].subkind = (uint32_t)r->sub << 8 | r->kind;
		k[i].line = r->line;
		k[i].idx = (uint32_t)i;
	}
	hx_free(ev->ctx, frank);
	qsort(k, ev->nrec, sizeof *k, skey_cmp);
	for (i = 0; i < ev->nrec; i++) {
		/* the same line read twice (an input given twice): once */
		if (m && k[i].frank == k[i - 1].frank &&
		    k[i].line == k[i - 1].line &&
		    k[i].subkind == k[i - 1].subkind)
			continue;
		o[m++] = k[i].idx;
	}
out_free_keys:
	hx_free(ev->ctx, k);
	if (err) {
		hx_free(ev->ctx, o);
		return err;
	}
	*order = o;
	*n = m;
	return HANGDX_OK;
}
