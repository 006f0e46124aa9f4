/*
 * write.c - evidence out: JSON Lines (the schema of docs/EVIDENCE.md, what
 * `hangdx parse --json` prints and hangdx_evidence_load reads back) and a
 * text view with one line per record.  Attribution is resolved here, over
 * everything the evidence holds.  The summaries are derived here too: per
 * file (how far each writer got), per process (first and last timestamp,
 * first error), per stream (last known task, head and tail) and per rank
 * (from the communicator creation lines), then the totals.
 */
#include <stdlib.h>
#include <string.h>
#include "ingest.h"

#define LINE_MAX_BYTES (256 * 1024)

static const char *const fstatus_names[] = {
	"ok", "empty", "binary", "unreadable", "truncated", "size_limit"
};

/* ---- JSON text ---- */

/* A JSON string; bytes that are not UTF-8 (GBK, binary) become U+FFFD,
 * written \ufffd, as U+FFFD itself is (which is how the reader stores
 * them: src/core/utf8.c): one spelling, as in the diagnosis JSON. */
static void json_str(struct hx_buf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	hx_buf_putc(b, '"');
	while (*u) {
		size_t n = hx_utf8_seq(u, 4);  /* NUL ends any sequence */

		if (n == 0 || (n == 3 && u[0] == 0xef && u[1] == 0xbf &&
			       u[2] == 0xbd)) {
			hx_buf_puts(b, "\\ufffd");
			u += n ? n : 1;
		} else if (*u == '"' || *u == '\\') {
			hx_buf_putc(b, '\\');
			hx_buf_putc(b, (char)*u++);
		} else if (*u < 0x20 || *u == 0x7f) {
			hx_buf_printf(b, "\\u%04x", *u++);
		} else {
			hx_buf_add(b, u, n);
			u += n;
		}
	}
	hx_buf_putc(b, '"');
}

static void json_key(struct hx_buf *b, const char *k)
{
	hx_buf_puts(b, ",\"");
	hx_buf_puts(b, k);
	hx_buf_puts(b, "\":");
}

static void json_int(struct hx_buf *b, int64_t v)
{
	char t[24], *p = t + sizeof t;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	hx_buf_add(b, p, (size_t)(t + sizeof t - p));
}

static void json_kstr(struct hx_buf *b, const char *k, const char *v)
{
	json_key(b, k);
	if (v)
		json_str(b, v);
	else
		hx_buf_puts(b, "null");
}

static void json_knum(struct hx_buf *b, const char *k, int64_t v)
{
	json_key(b, k);
	json_int(b, v);
}

static void json_kts(struct hx_buf *b, const char *k, int64_t us)
{
	char t[32];

	json_key(b, k);
	if (us == HX_NONE) {
		hx_buf_puts(b, "null");
		return;
	}
	hx_format_ts(us, t);
	hx_buf_putc(b, '"');
	hx_buf_puts(b, t);
	hx_buf_putc(b, '"');
}

/* ---- text values ---- */

static void text_val(struct hx_buf *b, const char *v)
{
	const unsigned char *u = (const unsigned char *)v;
	bool quote = !*v || strpbrk(v, " \t\"=,\\") != NULL;

	if (quote)
		hx_buf_putc(b, '"');
	for (; *u; u++) {
		if (*u == '"' || *u == '\\')
			hx_buf_putc(b, '\\');
		if (*u < 0x20 || *u == 0x7f)
			hx_buf_printf(b, "\\x%02x", *u);
		else
			hx_buf_putc(b, (char)*u);
	}
	if (quote)
		hx_buf_putc(b, '"');
}

/* ---- one record ---- */

struct out {
	const struct hangdx_evidence *ev;
	struct hx_attrib *at;
	FILE *fp;
	struct hx_buf b;
	bool json;
	bool delta;             /* HX_EV_DELTA: keys as the record before left out */
	struct hx_rec prev;     /* the record before, for delta */
	int err;
};

static void field_value(struct out *o, const struct hx_field *f, bool raw)
{
	struct hx_buf *b = &o->b;
	const char *s;
	char t[32];

	switch (hx_field_type(f->key)) {
	case HX_T_HEX:
		hx_buf_printf(b, o->json ? "\"0x%016llx\"" : "0x%016llx",
			      (unsigned long long)f->num);
		break;
	case HX_T_ADDR:
		hx_buf_printf(b, o->json ? "\"0x%llx\"" : "0x%llx",
			      (unsigned long long)f->num);
		break;
	case HX_T_STR:
		s = hx_ev_str(o->ev, f->str);
		if (o->json)
			json_str(b, s ? s : "");
		else
			text_val(b, s ? s : "");
		break;
	case HX_T_RANK:
		if (raw) {
			s = hx_ev_str(o->ev, f->str);
			if (o->json)
				json_str(b, s ? s : "");
			else
				text_val(b, s ? s : "");
		} else {
			hx_buf_printf(b, "%lld", (long long)f->num);
		}
		break;
	case HX_T_TS:
		hx_format_ts(f->num, t);
		hx_buf_printf(b, o->json ? "\"%s\"" : "%s", t);
		break;
	default:
		hx_buf_printf(b, "%lld", (long long)f->num);
		break;
	}
}

static void put_field(struct out *o, const struct hx_field *f)
{
	const char *name = hx_field_name(f->key);
	int pass, passes = hx_field_type(f->key) == HX_T_RANK &&
				   f->str != HX_NOSTR ? 2 : 1;

	for (pass = 0; pass < passes; pass++) {
		if (o->json)
			hx_buf_printf(&o->b, ",\"%s%s\":", name,
				      pass ? "_raw" : "");
		else
			hx_buf_printf(&o->b, " %s%s=", name, pass ? "_raw" : "");
		field_value(o, f, pass == 1);
	}
}

static void delta_str(struct out *o, const char *k, uint32_t v, uint32_t prev)
{
	if (v != prev)
		json_kstr(&o->b, k, v == HX_NOSTR ? NULL : hx_ev_str(o->ev, v));
}

static void delta_num(struct out *o, const char *k, int64_t v, int64_t prev)
{
	if (v == prev)
		return;
	if (v == HX_NONE) {
		json_key(&o->b, k);
		hx_buf_puts(&o->b, "null");
	} else {
		json_knum(&o->b, k, v);
	}
}

/* A record for facts: the common keys the record before has too are left
 * out (null where a value goes away), the attribution (node, rank,
 * device) too: a loader makes it again from the files. */
static void record_delta(struct out *o, const struct hx_rec *r)
{
	struct hx_buf *b = &o->b;
	struct hx_rec *p = &o->prev;
	uint32_t i;

	hx_buf_puts(b, "{\"kind\":");
	json_str(b, hx_kind_name(r->kind));
	delta_str(o, "file", r->file, p->file);
	json_knum(b, "line", (int64_t)r->line);
	json_knum(b, "off", (int64_t)r->off);
	if (r->vpath != r->file)        /* left out: the record's file */
		json_kstr(b, "vpath", hx_ev_str(o->ev, r->vpath));
	if (r->level != p->level) {
		json_key(b, "level");
		if (r->level)
			json_str(b, hx_lvl_name(r->level));
		else
			hx_buf_puts(b, "null");
	}
	delta_str(o, "module", r->module, p->module);
	delta_num(o, "pid", r->pid, p->pid);
	delta_str(o, "pname", r->pname, p->pname);
	delta_num(o, "tid", r->tid, p->tid);
	if (r->ts != p->ts)
		json_kts(b, "ts", r->ts);
	delta_str(o, "src", r->src, p->src);
	for (i = 0; i < r->nfield; i++)
		put_field(o, &o->ev->fields[r->ffirst + i]);
	hx_buf_puts(b, "}\n");
	*p = *r;
}

static void record_json(struct out *o, const struct hx_rec *r,
			const struct hx_attr *a)
{
	const struct hangdx_evidence *ev = o->ev;
	struct hx_buf *b = &o->b;
	size_t i;

	hx_buf_puts(b, "{\"kind\":");
	json_str(b, hx_kind_name(r->kind));
	json_kstr(b, "file", hx_ev_str(ev, r->file));
	json_knum(b, "line", (int64_t)r->line);
	json_knum(b, "off", (int64_t)r->off);
	if (r->vpath != r->file)
		json_kstr(b, "vpath", hx_ev_str(ev, r->vpath));
	if (r->level)
		json_kstr(b, "level", hx_lvl_name(r->level));
	if (r->module != HX_NOSTR)
		json_kstr(b, "module", hx_ev_str(ev, r->module));
	if (r->pid != HX_NONE)
		json_knum(b, "pid", r->pid);
	if (r->pname != HX_NOSTR)
		json_kstr(b, "pname", hx_ev_str(ev, r->pname));
	if (r->tid != HX_NONE)
		json_knum(b, "tid", r->tid);
	if (r->ts != HX_NONE)
		json_kts(b, "ts", r->ts);
	if (r->src != HX_NOSTR)
		json_kstr(b, "src", hx_ev_str(ev, r->src));
	json_kstr(b, "node", a->node);
	json_key(b, "rank");
	hx_buf_printf(b, a->rank >= 0 ? "%lld" : "null", (long long)a->rank);
	if (a->rank_from)
		json_kstr(b, "rank_from", a->rank_from);
	json_key(b, "device");
	hx_buf_printf(b, a->device >= 0 ? "%lld" : "null", (long long)a->device);
	if (a->device_from)
		json_kstr(b, "device_from", a->device_from);
	for (i = 0; i < r->nfield; i++)
		put_field(o, &ev->fields[r->ffirst + i]);
	hx_buf_puts(b, "}\n");
}

static void record_text(struct out *o, const struct hx_rec *r,
			const struct hx_attr *a)
{
	const struct hangdx_evidence *ev = o->ev;
	struct hx_buf *b = &o->b;
	size_t i;

	hx_buf_printf(b, "%s:%llu: %s", hx_ev_str(ev, r->file),
		      (unsigned long long)r->line, hx_kind_name(r->kind));
	if (r->pid != HX_NONE)
		hx_buf_printf(b, " pid=%lld", (long long)r->pid);
	if (r->ts != HX_NONE) {
		char t[32];

		hx_format_ts(r->ts, t);
		hx_buf_printf(b, " ts=%s", t);
	}
	if (a->node)
		hx_buf_printf(b, " node=%s", a->node);
	if (a->rank >= 0)
		hx_buf_printf(b, " rank=%lld", (long long)a->rank);
	else if (a->rank_from)
		hx_buf_puts(b, " rank=ambiguous");
	if (a->device >= 0)
		hx_buf_printf(b, " device=%lld", (long long)a->device);
	else if (a->device_from)
		hx_buf_puts(b, " device=ambiguous");
	for (i = 0; i < r->nfield; i++)
		put_field(o, &ev->fields[r->ffirst + i]);
	hx_buf_putc(b, '\n');
}

static void flush_line(struct out *o)
{
	if (o->b.len && fwrite(o->b.p, 1, o->b.len, o->fp) != o->b.len)
		o->err = HANGDX_EIO;
	hx_buf_reset(&o->b);
}

/* ---- summaries ---- */

struct psum {                   /* per process */
	char node[64];
	int64_t pid;
	uint64_t files, lines, errors, records;
	int64_t first_ts, last_ts, first_err_ts;
	uint32_t first_err_file;
	uint64_t first_err_line;
	int first_err_kind;
};

static int psum_cmp(const void *a, const void *b)
{
	const struct psum *x = a, *y = b;
	int c = strcmp(x->node, y->node);

	if (c)
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void ts_min(int64_t *d, int64_t v)
{
	if (v != HX_NONE && (*d == HX_NONE || v < *d))
		*d = v;
}

static void ts_max(int64_t *d, int64_t v)
{
	if (v != HX_NONE && (*d == HX_NONE || v > *d))
		*d = v;
}

static void psum_fold(struct psum *d, const struct psum *s)
{
	d->files += s->files;
	d->lines += s->lines;
	d->errors += s->errors;
	d->records += s->records;
	ts_min(&d->first_ts, s->first_ts);
	ts_max(&d->last_ts, s->last_ts);
	if (s->first_err_ts != HX_NONE &&
	    (d->first_err_ts == HX_NONE || s->first_err_ts < d->first_err_ts)) {
		d->first_err_ts = s->first_err_ts;
		d->first_err_file = s->first_err_file;
		d->first_err_line = s->first_err_line;
		d->first_err_kind = s->first_err_kind;
	}
}

/*
 * A small map from a summary's key (a string) to a dense index: the
 * interner does the hashing.  Summaries cost memory per key, not per
 * record.
 */
struct smap {
	struct hx_intern keys;
	void *v;                /* the summaries, indexed by key id */
	size_t cap, elsize;
};

static void smap_init(struct smap *m, struct hangdx_ctx *ctx, size_t elsize)
{
	hx_intern_init(&m->keys, ctx, 0);
	m->v = NULL;
	m->cap = 0;
	m->elsize = elsize;
}

static void smap_free(struct smap *m)
{
	hx_free(m->keys.arena.ctx, m->v);
	hx_intern_free(&m->keys);
}

/* The entry for key (fresh ones zeroed, *fresh set), or NULL on ENOMEM. */
static void *smap_get(struct smap *m, const char *key, size_t n, bool *fresh)
{
	size_t before = m->keys.n;
	int err = 0;
	long id = hx_intern_add(&m->keys, key, n, &err);
	char *e;

	if (id < 0)
		return NULL;
	if (hx_vec_reserve(m->keys.arena.ctx, &m->v, &m->cap, (size_t)id + 1,
			   m->elsize, SIZE_MAX / 2 / m->elsize))
		return NULL;
	e = (char *)m->v + (size_t)id * m->elsize;
	*fresh = m->keys.n > before;
	if (*fresh)
		memset(e, 0, m->elsize);
	return e;
}

/* Add p to its process's summary; the summary's index, or SIZE_MAX. */
static size_t psum_add(struct smap *m, const struct psum *p, int *err)
{
	char key[96];
	int n = snprintf(key, sizeof key, "%s\x1f%lld", p->node, (long long)p->pid);
	bool fresh;
	struct psum *d = smap_get(m, key, (size_t)n, &fresh);

	if (!d) {
		*err = HANGDX_ENOMEM;
		return SIZE_MAX;
	}
	if (fresh)
		*d = *p;
	else
		psum_fold(d, p);
	return (size_t)(d - (struct psum *)m->v);
}

static void psum_put(struct out *o, const struct psum *p)
{
	const struct hangdx_evidence *ev = o->ev;

	if (o->json) {
		hx_buf_puts(&o->b, "{\"kind\":\"process\"");
		json_kstr(&o->b, "node", p->node[0] ? p->node : NULL);
		json_knum(&o->b, "pid", p->pid);
		json_knum(&o->b, "files", (int64_t)p->files);
		json_knum(&o->b, "lines", (int64_t)p->lines);
		json_knum(&o->b, "errors", (int64_t)p->errors);
		json_knum(&o->b, "records", (int64_t)p->records);
		json_kts(&o->b, "first_ts", p->first_ts);
		json_kts(&o->b, "last_ts", p->last_ts);
		json_kts(&o->b, "first_error_ts", p->first_err_ts);
		if (p->first_err_ts != HX_NONE) {
			json_kstr(&o->b, "first_error_file",
				  hx_ev_str(ev, p->first_err_file));
			json_knum(&o->b, "first_error_line",
				  (int64_t)p->first_err_line);
			json_kstr(&o->b, "first_error_kind",
				  hx_kind_name(p->first_err_kind));
		}
		hx_buf_puts(&o->b, "}\n");
	} else {
		char a[32] = "-", z[32] = "-", e[32] = "-";

		if (p->first_ts != HX_NONE)
			hx_format_ts(p->first_ts, a);
		if (p->last_ts != HX_NONE)
			hx_format_ts(p->last_ts, z);
		if (p->first_err_ts != HX_NONE)
			hx_format_ts(p->first_err_ts, e);
		hx_buf_printf(&o->b, "# process node=%s pid=%lld files=%llu "
			      "lines=%llu errors=%llu records=%llu "
			      "first=%s last=%s first_error=%s\n",
			      p->node[0] ? p->node : "-", (long long)p->pid,
			      (unsigned long long)p->files,
			      (unsigned long long)p->lines,
			      (unsigned long long)p->errors,
			      (unsigned long long)p->records, a, z, e);
	}
	flush_line(o);
}

static int write_processes(struct out *o, const uint32_t *order, size_t nord)
{
	const struct hangdx_evidence *ev = o->ev;
	const struct hx_pathattr *pa = NULL;
	struct smap m;
	struct psum p, *all;
	size_t i, last_id = SIZE_MAX;
	uint32_t last_vpath = 0;
	bool have_vpath = false;
	int64_t last_pid = 0;
	int err = 0;

	smap_init(&m, ev->ctx, sizeof p);
	for (i = 0; i < ev->nfile && !err; i++) {
		const struct hx_filesum *f = &ev->files[i];
		struct hx_pathattr fa;

		/* only files named after their process (plog-PID_...) */
		hx_path_attr(hx_ev_str(ev, f->path), &fa);
		if (fa.pid < 0)
			continue;
		memset(&p, 0, sizeof p);
		memcpy(p.node, fa.node, sizeof p.node);
		p.pid = fa.pid;
		p.files = 1;
		p.lines = f->lines;
		p.errors = f->errors;
		p.first_ts = f->first_ts;
		p.last_ts = f->last_ts;
		p.first_err_ts = HX_NONE;
		(void)psum_add(&m, &p, &err);
	}
	for (i = 0; i < nord && !err; i++) {
		const struct hx_rec *r = &ev->recs[order[i]];

		if (!have_vpath || r->vpath != last_vpath) {
			pa = hx_attrib_vpath(o->at, r->vpath);
			last_vpath = r->vpath;
			have_vpath = true;
			last_id = SIZE_MAX;
		}
		memset(&p, 0, sizeof p);
		p.pid = pa && pa->pid >= 0 ? pa->pid : r->pid;
		if (p.pid == HX_NONE || p.pid < 0)
			continue;
		if (pa)
			memcpy(p.node, pa->node, sizeof p.node);
		p.records = 1;
		p.first_ts = p.last_ts = r->ts;
		p.first_err_ts = HX_NONE;
		if ((r->level == HX_LV_ERROR || r->level == HX_LV_CRITICAL) &&
		    r->ts != HX_NONE) {
			p.first_err_ts = r->ts;
			p.first_err_file = r->file;
			p.first_err_line = r->line;
			p.first_err_kind = r->kind;
		}
		if (last_id != SIZE_MAX && p.pid == last_pid) {
			psum_fold((struct psum *)m.v + last_id, &p);
			continue;
		}
		last_id = psum_add(&m, &p, &err);
		last_pid = p.pid;
	}
	all = m.v;
	if (!err && m.keys.n)
		qsort(all, m.keys.n, sizeof *all, psum_cmp);
	for (i = 0; !err && i < m.keys.n && !o->err; i++)
		psum_put(o, &all[i]);
	smap_free(&m);
	return err;
}

struct ssum {                   /* per stream */
	char node[64];
	int64_t device, stream;
	uint64_t records, kinds;
	int64_t first_ts, last_ts;
	int64_t task, head, tail;
	uint32_t last_file;
	uint64_t last_line;
};

static int ssum_cmp(const void *a, const void *b)
{
	const struct ssum *x = a, *y = b;
	int c = strcmp(x->node, y->node);

	if (c)
		return c;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->stream < y->stream ? -1 : x->stream > y->stream;
}

static int64_t fnum(const struct hangdx_evidence *ev, const struct hx_rec *r,
		    int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	return f ? f->num : -1;
}

static void ssum_fold(struct ssum *d, const struct ssum *s)
{
	d->records += s->records;
	d->kinds |= s->kinds;
	ts_min(&d->first_ts, s->first_ts);
	if (s->last_ts == HX_NONE || d->last_ts == HX_NONE ||
	    s->last_ts >= d->last_ts) {
		ts_max(&d->last_ts, s->last_ts);
		if (s->task >= 0)
			d->task = s->task;
		if (s->head >= 0)
			d->head = s->head;
		if (s->tail >= 0)
			d->tail = s->tail;
		d->last_file = s->last_file;
		d->last_line = s->last_line;
	}
}

static void ssum_put(struct out *o, const struct ssum *s)
{
	const struct hangdx_evidence *ev = o->ev;
	char kinds[512];
	size_t k = 0;
	int i;

	kinds[0] = '\0';
	for (i = 0; i < HX_K_COUNT && i < 64; i++)
		if (s->kinds & (1ull << i))
			k += (size_t)snprintf(kinds + k, sizeof kinds - k, "%s%s",
					      k ? "," : "", hx_kind_name(i));
	if (o->json) {
		hx_buf_puts(&o->b, "{\"kind\":\"stream\"");
		json_kstr(&o->b, "node", s->node[0] ? s->node : NULL);
		json_key(&o->b, "device");
		hx_buf_printf(&o->b, s->device >= 0 ? "%lld" : "null",
			      (long long)s->device);
		json_knum(&o->b, "stream", s->stream);
		json_knum(&o->b, "records", (int64_t)s->records);
		json_kstr(&o->b, "kinds", kinds);
		json_kts(&o->b, "first_ts", s->first_ts);
		json_kts(&o->b, "last_ts", s->last_ts);
		if (s->task >= 0)
			json_knum(&o->b, "last_task", s->task);
		if (s->head >= 0)
			json_knum(&o->b, "head", s->head);
		if (s->tail >= 0)
			json_knum(&o->b, "tail", s->tail);
		json_kstr(&o->b, "last_file", hx_ev_str(ev, s->last_file));
		json_knum(&o->b, "last_line", (int64_t)s->last_line);
		hx_buf_puts(&o->b, "}\n");
	} else {
		hx_buf_printf(&o->b, "# stream node=%s device=%lld stream=%lld "
			      "records=%llu last_task=%lld head=%lld tail=%lld "
			      "last=%s:%llu kinds=%s\n",
			      s->node[0] ? s->node : "-", (long long)s->device,
			      (long long)s->stream,
			      (unsigned long long)s->records, (long long)s->task,
			      (long long)s->head, (long long)s->tail,
			      hx_ev_str(ev, s->last_file),
			      (unsigned long long)s->last_line, kinds);
	}
	flush_line(o);
}

static int write_streams(struct out *o, const uint32_t *order, size_t nord)
{
	const struct hangdx_evidence *ev = o->ev;
	struct smap m;
	struct ssum s, *d, *all;
	size_t i, last_id = SIZE_MAX;
	const char *last_node = NULL;
	int64_t last_dev = 0, last_stream = 0;
	int err = 0;

	smap_init(&m, ev->ctx, sizeof s);
	for (i = 0; i < nord && !err; i++) {
		const struct hx_rec *r = &ev->recs[order[i]];
		struct hx_attr a;
		char key[112];
		bool fresh;
		int n;

		memset(&s, 0, sizeof s);
		s.stream = fnum(ev, r, HX_F_STREAM);
		if (s.stream < 0)
			continue;
		hx_attrib_rec(o->at, r, &a);
		if (a.node)
			snprintf(s.node, sizeof s.node, "%s", a.node);
		s.device = a.device;
		s.records = 1;
		s.kinds = r->kind < 64 ? 1ull << r->kind : 0;
		s.first_ts = s.last_ts = r->ts;
		s.task = fnum(ev, r, HX_F_TASK);
		s.head = fnum(ev, r, HX_F_HEAD);
		s.tail = fnum(ev, r, HX_F_TAIL);
		s.last_file = r->file;
		s.last_line = r->line;
		if (last_id != SIZE_MAX && a.node == last_node &&
		    s.device == last_dev && s.stream == last_stream) {
			ssum_fold((struct ssum *)m.v + last_id, &s);
			continue;
		}
		n = snprintf(key, sizeof key, "%s\x1f%lld\x1f%lld", s.node,
			     (long long)s.device, (long long)s.stream);
		d = smap_get(&m, key, (size_t)n, &fresh);
		if (!d) {
			err = HANGDX_ENOMEM;
			break;
		}
		if (fresh)
			*d = s;
		else
			ssum_fold(d, &s);
		last_id = (size_t)(d - (struct ssum *)m.v);
		last_node = a.node;
		last_dev = s.device;
		last_stream = s.stream;
	}
	all = m.v;
	if (!err && m.keys.n)
		qsort(all, m.keys.n, sizeof *all, ssum_cmp);
	for (i = 0; !err && i < m.keys.n && !o->err; i++)
		ssum_put(o, &all[i]);
	smap_free(&m);
	return err;
}

struct rsum {                   /* per rank of a communicator */
	const char *group;
	int64_t rank, rank_size, pid, device, phy;
	char node[64];
	uint32_t server, ip;
};

static int rsum_cmp(const void *a, const void *b)
{
	const struct rsum *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->node, y->node)) != 0)
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void rsum_fold(struct rsum *d, const struct rsum *s)
{
	if (d->rank_size < 0)
		d->rank_size = s->rank_size;
	if (d->device < 0)
		d->device = s->device;
	if (d->phy < 0)
		d->phy = s->phy;
	if (d->server == HX_NOSTR)
		d->server = s->server;
	if (d->ip == HX_NOSTR)
		d->ip = s->ip;
}

static void rsum_put(struct out *o, const struct rsum *s)
{
	const struct hangdx_evidence *ev = o->ev;

	if (o->json) {
		hx_buf_puts(&o->b, "{\"kind\":\"rank\"");
		json_kstr(&o->b, "group", s->group);
		json_knum(&o->b, "rank", s->rank);
		if (s->rank_size >= 0)
			json_knum(&o->b, "rank_size", s->rank_size);
		json_kstr(&o->b, "node", s->node[0] ? s->node : NULL);
		json_knum(&o->b, "pid", s->pid);
		json_key(&o->b, "device");
		hx_buf_printf(&o->b, s->device >= 0 ? "%lld" : "null",
			      (long long)s->device);
		if (s->phy >= 0)
			json_knum(&o->b, "phy_device", s->phy);
		if (s->server != HX_NOSTR)
			json_kstr(&o->b, "server", hx_ev_str(ev, s->server));
		if (s->ip != HX_NOSTR)
			json_kstr(&o->b, "device_ip", hx_ev_str(ev, s->ip));
		hx_buf_puts(&o->b, "}\n");
	} else {
		hx_buf_printf(&o->b, "# rank group=%s rank=%lld size=%lld "
			      "node=%s pid=%lld device=%lld\n", s->group,
			      (long long)s->rank, (long long)s->rank_size,
			      s->node[0] ? s->node : "-", (long long)s->pid,
			      (long long)s->device);
	}
	flush_line(o);
}

static int write_ranks(struct out *o, const uint32_t *order, size_t nord)
{
	const struct hangdx_evidence *ev = o->ev;
	struct rsum *rs;
	size_t n = 0, i, m;

	for (i = 0; i < nord; i++)
		n += ev->recs[order[i]].kind == HX_K_COMM_INIT;
	rs = hx_calloc(ev->ctx, n + 1, sizeof *rs);
	if (!rs)
		return HANGDX_ENOMEM;
	n = 0;
	for (i = 0; i < nord; i++) {
		const struct hx_rec *r = &ev->recs[order[i]];
		const struct hx_field *g = hx_rec_field(ev, r, HX_F_GROUP);
		const struct hx_field *f;
		struct rsum *s = &rs[n];
		struct hx_attr a;

		if (r->kind != HX_K_COMM_INIT || !g ||
		    (s->rank = fnum(ev, r, HX_F_LOCAL_RANK)) < 0)
			continue;
		hx_attrib_rec(o->at, r, &a);
		s->group = hx_ev_str(ev, g->str);
		if (a.node)
			snprintf(s->node, sizeof s->node, "%s", a.node);
		s->pid = r->pid;
		s->rank_size = fnum(ev, r, HX_F_RANK_SIZE);
		s->device = fnum(ev, r, HX_F_DEVICE_ID);
		s->phy = fnum(ev, r, HX_F_PHY_DEVICE);
		f = hx_rec_field(ev, r, HX_F_SERVER);
		s->server = f ? f->str : HX_NOSTR;
		f = hx_rec_field(ev, r, HX_F_DEVICE_IP);
		s->ip = f ? f->str : HX_NOSTR;
		n++;
	}
	qsort(rs, n, sizeof *rs, rsum_cmp);
	for (i = 0, m = 0; i < n; i++) {
		if (m && rsum_cmp(&rs[m - 1], &rs[i]) == 0)
			rsum_fold(&rs[m - 1], &rs[i]);
		else
			rs[m++] = rs[i];
	}
	for (i = 0; i < m && !o->err; i++)
		rsum_put(o, &rs[i]);
	hx_free(ev->ctx, rs);
	return HANGDX_OK;
}

static int fs_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A file summary for facts: the keys a loader reads, left out at their
 * defaults (0, none). */
static void file_delta(struct out *o, const char *path, const char *st,
		       const struct hx_filesum *f)
{
	hx_buf_puts(&o->b, "{\"kind\":\"file\"");
	json_kstr(&o->b, "file", path);
	json_kstr(&o->b, "status", st);
	if (f->bytes)
		json_knum(&o->b, "bytes", (int64_t)f->bytes);
	if (f->lines)
		json_knum(&o->b, "lines", (int64_t)f->lines);
	if (f->records)
		json_knum(&o->b, "records", (int64_t)f->records);
	if (f->errors)
		json_knum(&o->b, "errors", (int64_t)f->errors);
	if (f->skipped)
		json_knum(&o->b, "skipped", (int64_t)f->skipped);
	if (f->first_ts != HX_NONE)
		json_kts(&o->b, "first_ts", f->first_ts);
	if (f->last_ts != HX_NONE)
		json_kts(&o->b, "last_ts", f->last_ts);
	if (f->cut_line)
		json_knum(&o->b, "cut_line", (int64_t)f->cut_line);
	if (f->rec_cut)
		json_knum(&o->b, "kept", (int64_t)f->kept);
	hx_buf_puts(&o->b, "}\n");
}

static int write_files(struct out *o)
{
	const struct hangdx_evidence *ev = o->ev;
	const char **keys = hx_calloc(ev->ctx, ev->nfile + 1, 2 * sizeof *keys);
	size_t i;

	if (!keys)
		return HANGDX_ENOMEM;
	/* pairs (path, summary) sorted by path */
	for (i = 0; i < ev->nfile; i++) {
		keys[2 * i] = hx_ev_str(ev, ev->files[i].path);
		keys[2 * i + 1] = (const char *)&ev->files[i];
	}
	qsort(keys, ev->nfile, 2 * sizeof *keys, fs_cmp);
	for (i = 0; i < ev->nfile && !o->err; i++) {
		const struct hx_filesum *f =
			(const struct hx_filesum *)(const void *)keys[2 * i + 1];
		const char *st = f->status < HX_ARRAY_LEN(fstatus_names)
					 ? fstatus_names[f->status] : "?";
		struct hx_pathattr pa;

		if (i && strcmp(keys[2 * i], keys[2 * i - 2]) == 0)
			continue;
		if (o->json && o->delta) {
			file_delta(o, keys[2 * i], st, f);
		} else if (o->json) {
			hx_path_attr(keys[2 * i], &pa);
			hx_buf_puts(&o->b, "{\"kind\":\"file\"");
			json_kstr(&o->b, "file", keys[2 * i]);
			json_kstr(&o->b, "status", st);
			json_knum(&o->b, "bytes", (int64_t)f->bytes);
			json_knum(&o->b, "lines", (int64_t)f->lines);
			json_knum(&o->b, "records", (int64_t)f->records);
			json_knum(&o->b, "errors", (int64_t)f->errors);
			json_knum(&o->b, "skipped", (int64_t)f->skipped);
			json_kts(&o->b, "first_ts", f->first_ts);
			json_kts(&o->b, "last_ts", f->last_ts);
			if (f->cut_line)
				json_knum(&o->b, "cut_line", (int64_t)f->cut_line);
			json_key(&o->b, "pid");
			hx_buf_printf(&o->b, pa.pid >= 0 ? "%lld" : "null",
				      (long long)pa.pid);
			json_kstr(&o->b, "node", pa.node[0] ? pa.node : NULL);
			json_key(&o->b, "rank");
			hx_buf_printf(&o->b, pa.rank >= 0 ? "%lld" : "null",
				      (long long)pa.rank);
			json_key(&o->b, "device");
			hx_buf_printf(&o->b, pa.device >= 0 ? "%lld" : "null",
				      (long long)pa.device);
			hx_buf_puts(&o->b, "}\n");
		} else {
			hx_buf_printf(&o->b, "# file %s status=%s bytes=%llu "
				      "lines=%llu records=%llu errors=%llu "
				      "skipped=%llu\n", keys[2 * i], st,
				      (unsigned long long)f->bytes,
				      (unsigned long long)f->lines,
				      (unsigned long long)f->records,
				      (unsigned long long)f->errors,
				      (unsigned long long)f->skipped);
		}
		flush_line(o);
	}
	hx_free(ev->ctx, keys);
	return HANGDX_OK;
}

static void write_totals(struct out *o, size_t nrec)
{
	const struct hx_counts *c = &o->ev->c;
	int i;

	if (o->json) {
		hx_buf_puts(&o->b, "{\"kind\":\"totals\"");
		json_knum(&o->b, "inputs", (int64_t)c->inputs);
		json_knum(&o->b, "files", (int64_t)c->files);
		json_knum(&o->b, "archives", (int64_t)c->archives);
		json_knum(&o->b, "bytes", (int64_t)c->bytes);
		json_knum(&o->b, "lines", (int64_t)c->lines);
		json_knum(&o->b, "candidates", (int64_t)c->candidates);
		json_knum(&o->b, "records", (int64_t)nrec);
		json_knum(&o->b, "files_skipped", (int64_t)c->files_skipped);
		for (i = 0; i < HX_S_COUNT; i++) {
			char k[48];

			snprintf(k, sizeof k, "skipped_%s", hx_skip_name(i));
			json_knum(&o->b, k, (int64_t)c->skipped[i]);
		}
		hx_buf_puts(&o->b, "}\n");
	} else {
		hx_buf_printf(&o->b, "# totals inputs=%llu files=%llu "
			      "archives=%llu bytes=%llu lines=%llu "
			      "candidates=%llu records=%zu files_skipped=%llu\n",
			      (unsigned long long)c->inputs,
			      (unsigned long long)c->files,
			      (unsigned long long)c->archives,
			      (unsigned long long)c->bytes,
			      (unsigned long long)c->lines,
			      (unsigned long long)c->candidates, nrec,
			      (unsigned long long)c->files_skipped);
		hx_buf_puts(&o->b, "# skipped");
		for (i = 0; i < HX_S_COUNT; i++)
			hx_buf_printf(&o->b, " %s=%llu", hx_skip_name(i),
				      (unsigned long long)c->skipped[i]);
		hx_buf_putc(&o->b, '\n');
	}
	flush_line(o);
}

static int write_all(const struct hangdx_evidence *ev, FILE *fp,
		     unsigned what, bool json)
{
	struct out o;
	uint32_t *order;
	size_t n, i;
	int err;

	if (!ev || !fp)
		return HANGDX_EINVAL;
	memset(&o, 0, sizeof o);
	o.ev = ev;
	o.fp = fp;
	o.json = json;
	o.delta = json && (what & HX_EV_DELTA);
	o.prev.file = o.prev.vpath = o.prev.module = HX_NOSTR;
	o.prev.pname = o.prev.src = HX_NOSTR;
	o.prev.pid = o.prev.tid = o.prev.ts = HX_NONE;
	/* One buffer, reserved up front, so writing a line never allocates;
	 * a line is at most 64 fields of 512 bytes, escaped. */
	hx_buf_init(&o.b, ev->ctx, LINE_MAX_BYTES - 1);
	{
		void *v = NULL;

		err = hx_vec_reserve(ev->ctx, &v, &o.b.cap, LINE_MAX_BYTES, 1,
				     LINE_MAX_BYTES);
		if (err)
			return err;
		o.b.p = v;
		o.b.p[0] = '\0';
	}
	err = hx_ev_sorted(ev, &order, &n);
	if (err) {
		hx_buf_free(&o.b);
		return err;
	}
	if (!o.delta || (what & HANGDX_EV_SUMMARY))   /* delta: no attribution */
		err = hx_attrib_build(ev, &o.at);
	if (err)
		goto out_free_order;
	for (i = 0; (what & HANGDX_EV_RECORDS) && i < n && !o.err; i++) {
		const struct hx_rec *r = &ev->recs[order[i]];
		struct hx_attr a;

		if (o.delta) {
			record_delta(&o, r);
			flush_line(&o);
			continue;
		}
		hx_attrib_rec(o.at, r, &a);
		if (json)
			record_json(&o, r, &a);
		else
			record_text(&o, r, &a);
		flush_line(&o);
	}
	if (what & HANGDX_EV_SUMMARY) {
		err = write_files(&o);
		if (!err)
			err = write_processes(&o, order, n);
		if (!err)
			err = write_streams(&o, order, n);
		if (!err)
			err = write_ranks(&o, order, n);
		if (!err)
			write_totals(&o, n);
	} else if (what & HX_EV_FILES) {
		err = write_files(&o);
		if (!err)
			write_totals(&o, n);
	}
	if (!err && fflush(fp) != 0)
		o.err = HANGDX_EIO;
	if (o.at)
		hx_attrib_free(ev, o.at);
out_free_order:
	hx_free(ev->ctx, order);
	hx_buf_free(&o.b);
	return err ? err : o.err;
}

int hangdx_evidence_write_jsonl(const struct hangdx_evidence *ev, FILE *fp,
				unsigned what)
{
	return write_all(ev, fp, what, true);
}

int hangdx_evidence_write_text(const struct hangdx_evidence *ev, FILE *fp,
			       unsigned what)
{
	return write_all(ev, fp, what, false);
}
