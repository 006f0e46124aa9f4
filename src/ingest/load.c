/*
 * load.c - evidence back in: the JSON Lines that write.c prints (records,
 * file summaries, totals) are read into an evidence, so summaries made on
 * many machines can be shipped and merged.  Derived lines (process,
 * stream, rank) are skipped: they are computed again when written.  The
 * JSON is the flat subset write.c emits: one object per line, values are
 * strings, integers or null.  A malformed line is diagnosed and skipped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ingest.h"

#define MAX_LINE (1024 * 1024)
#define MAX_KEYS 128

struct jval {
	char key[48];
	size_t klen;
	bool is_str, is_null;
	int64_t num;
	char *str;              /* decoded, NUL-terminated, in the line buffer */
	size_t len;
};

struct jobj {
	struct jval v[MAX_KEYS];
	size_t n;
};

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode a JSON string in place; p points after the opening quote. */
static char *jstring(char *p, char **out, size_t *len)
{
	char *w = p;

	*out = p;
	while (*p && *p != '"') {
		unsigned cp = 0;
		int i;

		if (*p != '\\') {
			*w++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'n': *w++ = '\n'; p++; continue;
		case 'r': *w++ = '\r'; p++; continue;
		case 't': *w++ = '\t'; p++; continue;
		case 'b': *w++ = '\b'; p++; continue;
		case 'f': *w++ = '\f'; p++; continue;
		case '"': case '\\': case '/': *w++ = *p++; continue;
		case 'u': break;
		default: return NULL;
		}
		for (i = 1; i <= 4; i++) {
			int h = hexval((unsigned char)p[i]);

			if (h < 0)
				return NULL;
			cp = cp * 16 + (unsigned)h;
		}
		p += 5;
		if (cp == 0)
			return NULL;            /* no NUL inside strings */
		if (cp < 0x80) {
			*w++ = (char)cp;
		} else if (cp < 0x800) {
			*w++ = (char)(0xc0 | (cp >> 6));
			*w++ = (char)(0x80 | (cp & 0x3f));
		} else {                        /* BMP only, as written */
			*w++ = (char)(0xe0 | (cp >> 12));
			*w++ = (char)(0x80 | ((cp >> 6) & 0x3f));
			*w++ = (char)(0x80 | (cp & 0x3f));
		}
	}
	if (*p != '"')
		return NULL;
	*len = (size_t)(w - *out);
	*w = '\0';
	return p + 1;
}

/* Parse {"k":v,...} from a writable line. */
static bool jparse(char *p, struct jobj *o)
{
	o->n = 0;
	p = (char *)skip_ws(p);
	if (*p++ != '{')
		return false;
	p = (char *)skip_ws(p);
	if (*p == '}')
		return *skip_ws(p + 1) == '\0' || *skip_ws(p + 1) == '\n';
	for (;;) {
		struct jval *v;
		char *k;
		size_t kl;

		if (o->n >= MAX_KEYS || *p++ != '"')
			return false;
		v = &o->v[o->n++];
		memset(v, 0, sizeof *v);
		p = jstring(p, &k, &kl);
		if (!p || kl >= sizeof v->key)
			return false;
		memcpy(v->key, k, kl + 1);
		v->klen = kl;
		p = (char *)skip_ws(p);
		if (*p++ != ':')
			return false;
		p = (char *)skip_ws(p);
		if (*p == '"') {
			v->is_str = true;
			p = jstring(p + 1, &v->str, &v->len);
			if (!p)
				return false;
		} else if (strncmp(p, "null", 4) == 0) {
			v->is_null = true;
			p += 4;
		} else {
			char *e;

			errno = 0;
			v->num = strtoll(p, &e, 10);
			if (e == p || errno)
				return false;
			p = e;
		}
		p = (char *)skip_ws(p);
		if (*p == '}')
			break;
		if (*p++ != ',')
			return false;
		p = (char *)skip_ws(p);
	}
	p = (char *)skip_ws(p + 1);
	return *p == '\0' || *p == '\n';
}

static const struct jval *jget(const struct jobj *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0)
			return &o->v[i];
	return NULL;
}

static int64_t jnum(const struct jobj *o, const char *key, int64_t def)
{
	const struct jval *v = jget(o, key);

	return v && !v->is_str && !v->is_null ? v->num : def;
}

/* "2025-10-24T11:18:29.499235" */
static int64_t iso_ts(const char *s, size_t n)
{
	int64_t t;
	size_t i;
	int64_t us = 0;

	if (n != 26 || s[19] != '.')
		return HX_NONE;
	t = hx_parse_ts(s, 19);
	if (t == HX_NONE)
		return HX_NONE;
	for (i = 20; i < 26; i++) {
		if (s[i] < '0' || s[i] > '9')
			return HX_NONE;
		us = us * 10 + (s[i] - '0');
	}
	return t + us;
}

struct loader {
	struct hangdx_evidence *ev;
	hx_jhook *hook;
	void *hook_ud;
	const char *path;
	unsigned long line;
	unsigned long bad;
	uint32_t last_file;
	uint64_t last_line;
	uint16_t sub;
	bool delta;             /* records are delta-coded (HX_JHOOK_DELTA) */
	struct hx_rec prev;     /* the record before, for delta */
	unsigned long unknown;  /* records of kinds not known, skipped */
	unsigned long odd;      /* fields not known or out of range, skipped */
};

static void bad_line(struct loader *l, const char *why)
{
	l->bad++;
	hx_ingest_diag_lock();
	hx_diag(l->ev->ctx, HANGDX_WARNING, l->path, l->line, 0,
		"%s; line skipped", why);
	hx_ingest_diag_unlock();
}

static uint32_t intern_val(struct hx_recb *b, const struct jval *v)
{
	int err = 0;
	uint32_t id;

	if (!v || !v->is_str)
		return HX_NOSTR;
	id = hx_ev_intern(b->ev, v->str, v->len, &err);
	if (err && !b->err)
		b->err = err;
	return id;
}

static int level_of(const struct jval *v)
{
	int i;

	for (i = 1; v && v->is_str && i < HX_LV_COUNT; i++)
		if (strcmp(v->str, hx_lvl_name(i)) == 0)
			return i;
	return HX_LV_NONE;
}

/* One field of a record, by its JSON key and the field's type. */
static bool put_field(struct hx_recb *b, const struct jobj *o,
		      const struct jval *v)
{
	int key = hx_field_from_name(v->key, v->klen);
	const struct jval *raw;
	char rawkey[64];
	uint64_t u;

	if (key < 0)
		return false;
	switch (hx_field_type(key)) {
	case HX_T_STR:
		if (!v->is_str)
			return false;
		hx_rb_str(b, key, v->str, v->len);
		return true;
	case HX_T_HEX:
	case HX_T_ADDR:
		if (!v->is_str || !hx_parse_u64(v->str, v->len, &u))
			return false;
		hx_rb_num(b, key, (int64_t)u);
		return true;
	case HX_T_TS:
		if (!v->is_str || iso_ts(v->str, v->len) == HX_NONE)
			return false;
		hx_rb_num(b, key, iso_ts(v->str, v->len));
		return true;
	case HX_T_RANK:
		if (v->is_str || v->is_null)
			return false;
		snprintf(rawkey, sizeof rawkey, "%s_raw", v->key);
		raw = jget(o, rawkey);
		if (raw && raw->is_str)
			hx_rb_rank(b, key, raw->str, raw->len);
		else
			hx_rb_num(b, key, v->num);
		return true;
	default:
		if (v->is_str || v->is_null)
			return false;
		hx_rb_num(b, key, v->num);
		return true;
	}
}

/* The keys every record has, read into the record itself. */
enum common {
	C_KIND, C_FILE, C_LINE, C_OFF, C_VPATH, C_LEVEL, C_MODULE, C_PID,
	C_PNAME, C_TID, C_TS, C_SRC, C_NODE, C_RANK, C_RANK_FROM, C_DEVICE,
	C_DEVICE_FROM, C__N
};

static const char *const common_names[C__N] = {
	"kind", "file", "line", "off", "vpath", "level", "module", "pid",
	"pname", "tid", "ts", "src", "node", "rank", "rank_from",
	"device", "device_from"
};

static struct hx_names common_index;
static pthread_once_t common_once = PTHREAD_ONCE_INIT;

static void index_common(void)
{
	hx_names_init(&common_index, common_names, C__N);
}

/* A common key's index; C__N for a key that names a field ("remote_rank_raw"
 * goes with "remote_rank" and is C__N + 1: read with it). */
static int common_of(const struct jval *v)
{
	int c, f;

	pthread_once(&common_once, index_common);
	c = hx_names_find(&common_index, v->key, v->klen);
	if (c >= 0)
		return c;
	if (v->klen <= 4 || strcmp(v->key + v->klen - 4, "_raw") != 0)
		return C__N;
	f = hx_field_from_name(v->key, v->klen - 4);
	return f >= 0 && hx_field_type(f) == HX_T_RANK ? C__N + 1 : C__N;
}

static uint64_t unum(const struct jval *v)
{
	return v && !v->is_str && !v->is_null ? (uint64_t)v->num : 0;
}

static int64_t snum(const struct jval *v)
{
	return v && !v->is_str && !v->is_null ? v->num : HX_NONE;
}

/* The common keys of a delta-coded record: a key left out is the record
 * before's, null is none. */
static void delta_common(struct loader *l, struct hx_recb *b,
			 const struct jval *const *c)
{
	const struct hx_rec *p = &l->prev;

	b->rec.file = c[C_FILE] ? intern_val(b, c[C_FILE]) : p->file;
	b->rec.vpath = c[C_VPATH] ? intern_val(b, c[C_VPATH]) : b->rec.file;
	b->rec.level = c[C_LEVEL] ? (uint8_t)level_of(c[C_LEVEL]) : p->level;
	b->rec.module = c[C_MODULE] ? intern_val(b, c[C_MODULE]) : p->module;
	b->rec.pname = c[C_PNAME] ? intern_val(b, c[C_PNAME]) : p->pname;
	b->rec.src = c[C_SRC] ? intern_val(b, c[C_SRC]) : p->src;
	b->rec.pid = c[C_PID] ? snum(c[C_PID]) : p->pid;
	b->rec.tid = c[C_TID] ? snum(c[C_TID]) : p->tid;
	if (!c[C_TS])
		b->rec.ts = p->ts;
	else
		b->rec.ts = c[C_TS]->is_str ? iso_ts(c[C_TS]->str, c[C_TS]->len)
					    : HX_NONE;
}

static void full_common(struct hx_recb *b, const struct jval *const *c)
{
	const struct jval *ts = c[C_TS];

	b->rec.file = intern_val(b, c[C_FILE]);
	b->rec.vpath = c[C_VPATH] ? intern_val(b, c[C_VPATH]) : b->rec.file;
	b->rec.level = (uint8_t)level_of(c[C_LEVEL]);
	b->rec.module = intern_val(b, c[C_MODULE]);
	b->rec.pname = intern_val(b, c[C_PNAME]);
	b->rec.src = intern_val(b, c[C_SRC]);
	b->rec.pid = snum(c[C_PID]);
	b->rec.tid = snum(c[C_TID]);
	if (ts && ts->is_str)
		b->rec.ts = iso_ts(ts->str, ts->len);
}

/* Beyond any log: a line number past 2^48, a number past 2^53 (what a
 * JSON number holds exactly), a rank past 2^32 - 1. */
#define MAX_LINE_NO ((uint64_t)1 << 48)
#define MAX_JNUM ((int64_t)1 << 53)
#define MAX_OFF ((uint64_t)1 << 62)

/* Facts (a hook's stream) come from other machines, maybe a newer
 * hangdx: a field not known, or a number out of range, is skipped with
 * the record kept, said once a stream. */
static bool facts_field_ok(struct loader *l, const struct jval *v)
{
	int key = hx_field_from_name(v->key, v->klen);
	const char *why = NULL;

	if (key < 0)
		why = "is not one this hangdx knows (a newer writer's?)";
	else if (!v->is_str && !v->is_null &&
		 (v->num > MAX_JNUM || v->num < -MAX_JNUM ||
		  (hx_field_type(key) == HX_T_RANK &&
		   (v->num < -1 || v->num >= (int64_t)0xFFFFFFFF))))
		why = "holds a number out of range";
	if (!why)
		return true;
	if (l->odd++ == 0) {
		hx_ingest_diag_lock();
		hx_diag(l->ev->ctx, HANGDX_WARNING, l->path, l->line, 0,
			"field \"%.*s\" %s: skipped", (int)(v->klen > 32 ? 32 : v->klen),
			v->key, why);
		hx_ingest_diag_unlock();
	}
	return false;
}

/* Number the records of one line in order (rec->sub) and keep it as the
 * previous record, which the delta form is relative to. */
static void same_line(struct loader *l, struct hx_rec *rec)
{
	if (rec->file == l->last_file && rec->line == l->last_line)
		l->sub++;
	else
		l->sub = 0;
	l->last_file = rec->file;
	l->last_line = rec->line;
	rec->sub = l->sub;
	l->prev = *rec;
}

static int load_record(struct loader *l, const struct jobj *o, int kind)
{
	const struct jval *c[C__N] = { NULL };
	struct hx_recb b;
	size_t i;
	int err, k;

	for (i = 0; i < o->n; i++) {
		k = common_of(&o->v[i]);
		if (k < C__N && !c[k])
			c[k] = &o->v[i];
	}
	hx_rb_init(&b, l->ev, kind);
	if (l->delta)
		delta_common(l, &b, c);
	else
		full_common(&b, c);
	b.rec.line = unum(c[C_LINE]);
	b.rec.off = unum(c[C_OFF]);
	if (b.rec.file == HX_NOSTR || !b.rec.line) {
		bad_line(l, "record without file or line");
		return b.err;
	}
	if (b.rec.line > MAX_LINE_NO || b.rec.off > MAX_OFF) {
		bad_line(l, "line number or offset out of range");
		return b.err;
	}
	/* records of one line keep their order */
	same_line(l, &b.rec);
	for (i = 0; i < o->n; i++) {
		if (common_of(&o->v[i]) != C__N)
			continue;
		if (l->hook && !facts_field_ok(l, &o->v[i]))
			continue;
		if (!put_field(&b, o, &o->v[i])) {
			bad_line(l, "bad field in a record");
			return b.err;
		}
	}
	err = hx_rb_commit(&b);
	if (err == HANGDX_ELIMIT) {
		l->ev->c.skipped[HX_S_RECORDS]++;
		return HANGDX_OK;
	}
	return err;
}

/* Facts of a newer writer: a record of a kind not known is skipped, said
 * once, and its common keys stay the record before's for the next
 * delta-coded one. */
static void skip_record(struct loader *l, const struct jobj *o,
			const struct jval *k)
{
	const struct jval *c[C__N] = { NULL };
	struct hx_recb b;
	size_t i;
	int ci;

	for (i = 0; i < o->n; i++) {
		ci = common_of(&o->v[i]);
		if (ci < C__N && !c[ci])
			c[ci] = &o->v[i];
	}
	hx_rb_init(&b, l->ev, 0);
	if (l->delta)
		delta_common(l, &b, c);
	else
		full_common(&b, c);
	b.rec.line = unum(c[C_LINE]);
	if (b.rec.file != HX_NOSTR && b.rec.line)
		same_line(l, &b.rec);
	if (l->unknown++ == 0) {
		hx_ingest_diag_lock();
		hx_diag(l->ev->ctx, HANGDX_WARNING, l->path, l->line, 0,
			"record kind \"%.*s\" is not one this hangdx knows (a "
			"newer writer's?): skipped", (int)(k->len > 32 ? 32 : k->len),
			k->str);
		hx_ingest_diag_unlock();
	}
}

static int load_file(struct loader *l, const struct jobj *o)
{
	static const char *const st[] = { "ok", "empty", "binary",
					  "unreadable", "truncated",
					  "size_limit" };
	const struct jval *f = jget(o, "file"), *s = jget(o, "status");
	const struct jval *a = jget(o, "first_ts"), *z = jget(o, "last_ts");
	struct hx_filesum fs;
	int err = 0;
	size_t i;

	if (!f || !f->is_str) {
		bad_line(l, "file summary without a file");
		return HANGDX_OK;
	}
	memset(&fs, 0, sizeof fs);
	fs.path = hx_ev_intern(l->ev, f->str, f->len, &err);
	if (err)
		return err;
	for (i = 0; s && s->is_str && i < HX_ARRAY_LEN(st); i++)
		if (strcmp(s->str, st[i]) == 0)
			fs.status = (uint8_t)i;
	fs.bytes = (uint64_t)jnum(o, "bytes", 0);
	fs.lines = (uint64_t)jnum(o, "lines", 0);
	fs.records = (uint64_t)jnum(o, "records", 0);
	fs.errors = (uint64_t)jnum(o, "errors", 0);
	fs.skipped = (uint64_t)jnum(o, "skipped", 0);
	fs.first_ts = a && a->is_str ? iso_ts(a->str, a->len) : HX_NONE;
	fs.last_ts = z && z->is_str ? iso_ts(z->str, z->len) : HX_NONE;
	fs.cut_line = (uint64_t)jnum(o, "cut_line", 0);
	fs.rec_cut = jnum(o, "kept", -1) >= 0;
	fs.kept = fs.rec_cut ? (uint64_t)jnum(o, "kept", 0) : 0;
	fs.pid = HX_NONE;
	fs.loaded = 1;
	return hx_ev_add_file(l->ev, &fs);
}

static void load_totals(struct loader *l, const struct jobj *o)
{
	struct hx_counts *c = &l->ev->c;
	int i;

	c->inputs += (uint64_t)jnum(o, "inputs", 0);
	c->files += (uint64_t)jnum(o, "files", 0);
	c->archives += (uint64_t)jnum(o, "archives", 0);
	c->bytes += (uint64_t)jnum(o, "bytes", 0);
	c->lines += (uint64_t)jnum(o, "lines", 0);
	c->candidates += (uint64_t)jnum(o, "candidates", 0);
	c->files_skipped += (uint64_t)jnum(o, "files_skipped", 0);
	for (i = 0; i < HX_S_COUNT; i++) {
		char k[48];

		snprintf(k, sizeof k, "skipped_%s", hx_skip_name(i));
		c->skipped[i] += (uint64_t)jnum(o, k, 0);
	}
}

static int load_line(struct loader *l, char *s, struct jobj *o)
{
	const struct jval *k;
	int kind;

	if (*skip_ws(s) == '\0' || *skip_ws(s) == '\n')
		return HANGDX_OK;
	if (!jparse(s, o)) {
		bad_line(l, "not a JSON object of the evidence schema");
		return HANGDX_OK;
	}
	k = jget(o, "kind");
	if (!k && l->hook) {
		int err = l->hook(l->hook_ud, (const struct hx_jobj *)o, l->path,
				  l->line);

		if (err != HX_JHOOK_DELTA)
			return err;
		l->delta = true;
		return HANGDX_OK;
	}
	if (!k || !k->is_str) {
		bad_line(l, "no \"kind\"");
		return HANGDX_OK;
	}
	kind = hx_kind_from_name(k->str, k->len);
	if (kind >= 0)
		return load_record(l, o, kind);
	if (strcmp(k->str, "file") == 0)
		return load_file(l, o);
	if (strcmp(k->str, "totals") == 0) {
		load_totals(l, o);
		return HANGDX_OK;
	}
	if (strcmp(k->str, "process") && strcmp(k->str, "stream") &&
	    strcmp(k->str, "rank")) {
		if (!l->hook)
			bad_line(l, "unknown kind");
		else
			skip_record(l, o, k);
	}
	return HANGDX_OK;
}

/* Read fp line by line; lines over MAX_LINE are skipped while they pass. */
static int load_stream(struct loader *l, FILE *fp)
{
	struct jobj *o = hx_alloc(l->ev->ctx, sizeof *o);
	char *buf = hx_alloc(l->ev->ctx, MAX_LINE + 2);
	int err = HANGDX_OK;

	if (!o || !buf) {
		hx_free(l->ev->ctx, o);
		hx_free(l->ev->ctx, buf);
		return HANGDX_ENOMEM;
	}
	while (!err && fgets(buf, MAX_LINE + 2, fp)) {
		size_t n = strlen(buf);

		l->line++;
		if (n == MAX_LINE + 1 && buf[n - 1] != '\n') {
			int c;

			while ((c = getc(fp)) != EOF && c != '\n')
				;
			bad_line(l, "line too long");
			continue;
		}
		err = load_line(l, buf, o);
	}
	if (!err && ferror(fp))
		err = HANGDX_EIO;
	hx_free(l->ev->ctx, o);
	hx_free(l->ev->ctx, buf);
	return err;
}

bool hx_jstr(const struct hx_jobj *jo, const char *key, const char **s,
	     size_t *n)
{
	const struct jval *v = jget((const struct jobj *)jo, key);

	if (!v || !v->is_str)
		return false;
	*s = v->str;
	*n = v->len;
	return true;
}

bool hx_jint(const struct hx_jobj *jo, const char *key, int64_t *num)
{
	const struct jval *v = jget((const struct jobj *)jo, key);

	if (!v || v->is_str || v->is_null)
		return false;
	*num = v->num;
	return true;
}

/*
 * Append the stream to ev: a file ev already held keeps its first copy,
 * and the stream may add up to maxrec records of its own, as if it were
 * loaded apart and merged (hangdx_evidence_merge) but without the copy.
 * On an error ev is as it was, but for strings interned.
 */
static int load_append(struct loader *l, FILE *fp)
{
	struct hangdx_evidence *ev = l->ev;
	struct hx_ev_mark m;
	struct hx_counts c = ev->c;
	size_t maxrec = ev->maxrec;
	bool warned = ev->limit_warned;
	int err;

	hx_ev_mark(ev, &m);
	ev->maxrec = maxrec > SIZE_MAX - ev->nrec ? SIZE_MAX : ev->nrec + maxrec;
	err = load_stream(l, fp);
	if (!err)
		err = hx_ev_drop_dups_since(ev, &m);
	ev->maxrec = ev->nrec > maxrec ? ev->nrec : maxrec;
	if (err) {
		ev->nrec = m.nrec;
		ev->nfield = m.nfield;
		ev->nfile = m.nfile;
		ev->c = c;
		ev->limit_warned = warned;
		ev->maxrec = maxrec;
	}
	return err;
}

int hx_ev_load_fp(struct hangdx_evidence *ev, const char *name, FILE *fp,
		  hx_jhook *hook, void *ud)
{
	struct loader l;
	int err;

	memset(&l, 0, sizeof l);
	l.ev = ev;
	l.path = name;
	l.hook = hook;
	l.hook_ud = ud;
	l.last_file = HX_NOSTR;
	l.prev.file = l.prev.vpath = l.prev.module = HX_NOSTR;
	l.prev.pname = l.prev.src = HX_NOSTR;
	l.prev.pid = l.prev.tid = l.prev.ts = HX_NONE;
	/* a budget shared with readers counts records as they come: such an
	 * evidence, unless empty, takes the stream apart, then merged */
	if (!ev->budget || (ev->nrec == 0 && ev->nfile == 0)) {
		err = load_append(&l, fp);
		goto out_bad;
	}
	err = hangdx_evidence_new(ev->ctx, &l.ev);
	if (!err) {
		l.ev->maxrec = ev->maxrec;
		err = load_stream(&l, fp);
	}
	if (!err)
		err = hangdx_evidence_merge(ev, l.ev);
	if (!err && l.ev->limit_warned)
		ev->limit_warned = true;
	hangdx_evidence_free(l.ev);
out_bad:
	if (!err && l.bad)
		err = HANGDX_EPARSE;
	return err;
}

int hangdx_evidence_load(struct hangdx_evidence *ev, const char *path)
{
	FILE *fp;
	int err;

	if (!ev || !path)
		return HANGDX_EINVAL;
	fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!fp) {
		hx_ingest_diag_lock();
		hx_diag(ev->ctx, HANGDX_ERROR, path, 0, 0, "cannot open: %s",
			strerror(errno));
		hx_ingest_diag_unlock();
		return HANGDX_EIO;
	}
	err = hx_ev_load_fp(ev, path, fp, NULL, NULL);
	if (fp != stdin)
		fclose(fp);
	return err;
}

int hangdx_evidence_probe(const char *path)
{
	static const char magic[] = "{\"kind\":\"";
	char buf[sizeof magic];
	struct stat st;
	FILE *fp;
	size_t n;

	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof magic - 1, fp);
	fclose(fp);
	return n == sizeof magic - 1 && memcmp(buf, magic, n) == 0;
}

int hangdx_evidence_load_fp(struct hangdx_evidence *ev, const char *name,
			    FILE *fp)
{
	if (!ev || !name || !fp)
		return HANGDX_EINVAL;
	return hx_ev_load_fp(ev, name, fp, NULL, NULL);
}

int hangdx_evidence_load_mem(struct hangdx_evidence *ev, const char *name,
			     const void *data, size_t len)
{
	FILE *fp;
	int err;

	if (!ev || !name || (!data && len))
		return HANGDX_EINVAL;
	if (len == 0)
		return HANGDX_OK;
	fp = fmemopen((void *)(uintptr_t)data, len, "r");
	if (!fp)
		return HANGDX_ENOMEM;
	err = hx_ev_load_fp(ev, name, fp, NULL, NULL);
	fclose(fp);
	return err;
}
