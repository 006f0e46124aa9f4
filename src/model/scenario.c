/*
 * scenario.c - the text front of the model: reads a scenario from YAML
 * (libyaml events -> a small node tree -> struct hangdx_scenario) and
 * applies `--set key=value` overrides to a loaded one.  Every problem is
 * reported as file:line:col and the loader keeps going, so one run shows
 * them all.  Names are resolved to indices here and every number is held
 * to the HX_MAX_* ceilings of model.h.  The format: docs/SCENARIO.md.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "model.h"

#define SC_MAX_INPUT (16u << 20)        /* bytes of YAML text */
#define SC_MAX_NODES 4000000u           /* YAML nodes in one scenario */
#define SC_MAX_DEPTH 64                 /* YAML nesting */
#define SC_MAX_DUR_NS (10000000ULL * HX_NS_PER_S)   /* 1e7 s */
#define SC_MAX_BYTES (1ULL << 40)       /* one collective moves <= 1 TiB */
#define SC_MAX_NAME 256                 /* bytes in a name */
#define SC_MAX_REPEAT 1000000u
#define SC_MAX_TIMEOUT_S 2147483647u
#define SC_MAX_MSGS 20                  /* --set: messages per call */

/* ==== values: durations, sizes, booleans, integers, names ================ */

enum vt { VT_U32, VT_U64, VT_DUR, VT_SDUR, VT_SIZE, VT_BOOL, VT_ENUM, VT_REAL,
	  VT_DRANGE };

struct vtype {
	enum vt kind;
	uint64_t min, max;          /* integers; ns for durations; bytes */
	double rmin, rmax;          /* VT_REAL: rmin < x <= rmax */
	const char *const *names;   /* VT_ENUM: NULL-terminated, index = value */
	uint64_t bare;              /* VT_DUR: ns meant by a bare number */
};

union val {
	uint64_t u;
	int64_t i;
	double d;
	bool b;
	struct { uint64_t lo, hi; } r;  /* VT_DRANGE */
};

struct unit {
	const char *name;
	uint64_t scale;
};

static const struct unit dur_units[] = {
	{ "ns", 1 }, { "us", HX_NS_PER_US }, { "ms", HX_NS_PER_MS },
	{ "s", HX_NS_PER_S }, { "min", 60 * HX_NS_PER_S },
	{ "h", 3600 * HX_NS_PER_S }, { NULL, 0 }
};

static const struct unit size_units[] = {
	{ "B", 1 }, { "KB", 1000 }, { "KiB", 1ULL << 10 },
	{ "MB", 1000000 }, { "MiB", 1ULL << 20 },
	{ "GB", 1000000000 }, { "GiB", 1ULL << 30 },
	{ "TB", 1000000000000ULL }, { "TiB", 1ULL << 40 }, { NULL, 0 }
};

static const char *const bool_true[] = { "true", "on", "yes", NULL };
static const char *const bool_false[] = { "false", "off", "no", NULL };

/* Index of s in a NULL-terminated list, ignoring case, or -1. */
static int list_index(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strcasecmp(names[i], s) == 0)
			return i;
	return -1;
}

static bool parse_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		uint64_t d = (uint64_t)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return *s == '\0';
}

struct decimal {
	uint64_t ip;        /* integer part */
	uint64_t fnum, fden;/* fraction fnum / fden */
	bool neg;
};

/* "[+-]digits[.digits]"; returns the rest of s, or NULL. */
static const char *parse_decimal(const char *s, bool sign_ok,
				 struct decimal *d)
{
	bool any = false;

	memset(d, 0, sizeof *d);
	d->fden = 1;
	if (sign_ok && (*s == '-' || *s == '+'))
		d->neg = *s++ == '-';
	for (; isdigit((unsigned char)*s); s++, any = true) {
		uint64_t v = (uint64_t)(*s - '0');

		if (d->ip > (UINT64_MAX - v) / 10)
			return NULL;
		d->ip = d->ip * 10 + v;
	}
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, any = true)
			if (d->fden < 1000000000000000000ULL) {
				d->fnum = d->fnum * 10 + (uint64_t)(*s - '0');
				d->fden *= 10;
			}
	return any ? s : NULL;
}

/* A number with an optional unit from units[] (bare: scale `bare`),
 * rounded to a whole count of the smallest unit. */
static bool parse_quantity(const char *s, const struct unit *units,
			   uint64_t bare, bool sign_ok, uint64_t *mag,
			   bool *neg)
{
	struct decimal d;
	uint64_t scale = bare, frac;
	size_t i;

	s = parse_decimal(s, sign_ok, &d);
	if (!s)
		return false;
	while (*s == ' ')
		s++;
	if (*s) {
		for (i = 0; units[i].name && strcasecmp(units[i].name, s); i++)
			;
		if (!units[i].name)
			return false;
		scale = units[i].scale;
	}
	if (d.ip > UINT64_MAX / scale)
		return false;
	frac = (uint64_t)((double)d.fnum / (double)d.fden * (double)scale +
			  0.5);
	if (d.ip * scale > UINT64_MAX - frac)
		return false;
	*mag = d.ip * scale + frac;
	*neg = d.neg && *mag != 0;
	return true;
}

static bool parse_real(const char *s, double *out)
{
	struct decimal d;

	s = parse_decimal(s, false, &d);
	if (!s || *s)
		return false;
	*out = (double)d.ip + (double)d.fnum / (double)d.fden;
	return true;
}

static bool val_parse_quantity(const struct vtype *t, const char *s,
			       union val *v)
{
	bool neg;

	if (t->kind == VT_SIZE) {
		if (!parse_quantity(s, size_units, 1, false, &v->u, &neg))
			return false;
		return v->u >= t->min && v->u <= t->max;
	}
	if (!parse_quantity(s, dur_units, t->bare ? t->bare : HX_NS_PER_S,
			    t->kind == VT_SDUR, &v->u, &neg))
		return false;
	if (v->u < t->min || v->u > t->max)
		return false;
	if (t->kind == VT_SDUR)
		v->i = neg ? -(int64_t)v->u : (int64_t)v->u;
	else if (neg)
		return false;
	return true;
}

/* A duration or a range "LO..HI" of two (LO <= HI).  A bare number on
 * the left of a range takes the unit on the right ("10..50us").  Sets
 * *inverted when both sides parse but LO > HI. */
static bool val_parse_drange(const struct vtype *t, const char *s,
			     union val *v, bool *inverted)
{
	struct vtype one = *t;
	const char *dots = strstr(s, "..");
	char left[64];
	size_t n, k;
	union val a, b;

	one.kind = VT_DUR;
	*inverted = false;
	if (!dots) {
		if (!val_parse_quantity(&one, s, &a))
			return false;
		v->r.lo = v->r.hi = a.u;
		return true;
	}
	n = (size_t)(dots - s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof left || strstr(dots + 2, ".."))
		return false;
	memcpy(left, s, n);
	left[n] = '\0';
	dots += 2;
	while (*dots == ' ')
		dots++;
	if (!val_parse_quantity(&one, dots, &b))
		return false;
	/* "10..50us": the unit of the right side, if the left has none */
	for (k = 0; k < n && (isdigit((unsigned char)left[k]) || left[k] == '.');
	     k++)
		;
	if (k == n) {
		const char *u = dots;
		while (*u && (isdigit((unsigned char)*u) || *u == '.' || *u == ' '))
			u++;
		if (*u && n + strlen(u) < sizeof left) {
			memcpy(left + n, u, strlen(u) + 1);
		}
	}
	if (!val_parse_quantity(&one, left, &a))
		return false;
	v->r.lo = a.u;
	v->r.hi = b.u;
	*inverted = a.u > b.u;
	return !*inverted;
}

/* Parse s as a value of type t; false if it is not one. */
static bool val_parse(const struct vtype *t, const char *s, union val *v)
{
	bool inverted;
	int i;

	switch (t->kind) {
	case VT_DRANGE:
		return val_parse_drange(t, s, v, &inverted);
	case VT_U32:
	case VT_U64:
		return parse_uint(s, &v->u) && v->u >= t->min && v->u <= t->max;
	case VT_DUR:
	case VT_SDUR:
	case VT_SIZE:
		return val_parse_quantity(t, s, v);
	case VT_BOOL:
		v->b = list_index(bool_true, s) >= 0;
		return v->b || list_index(bool_false, s) >= 0;
	case VT_ENUM:
		i = list_index(t->names, s);
		v->u = (uint64_t)(i < 0 ? 0 : i);
		return i >= 0;
	case VT_REAL:
		return parse_real(s, &v->d) && v->d > t->rmin && v->d <= t->rmax;
	}
	return false;
}

static void expect_enum(const char *const *names, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names[i] && len < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s",
				 i == 0 ? "one of " : names[i + 1] ? ", " : " or ",
				 names[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* What a value of type t looks like, for messages ("an integer from..."). */
static void val_expect(const struct vtype *t, char *buf, size_t n)
{
	switch (t->kind) {
	case VT_U32:
	case VT_U64:
		snprintf(buf, n, "an integer from %llu to %llu",
			 (unsigned long long)t->min, (unsigned long long)t->max);
		break;
	case VT_DUR:
		snprintf(buf, n, "a %sduration up to 10000000s (e.g. 500us, "
			 "1.5s, 2h; a bare number means %s)",
			 t->min ? "positive " : "",
			 t->bare == HX_NS_PER_US ? "microseconds" : "seconds");
		break;
	case VT_SDUR:
		snprintf(buf, n, "a duration from -10000000s to 10000000s "
			 "(e.g. 250ms, -1.5s)");
		break;
	case VT_DRANGE:
		snprintf(buf, n, "a duration up to 10000000s or a range LO..HI "
			 "of two with LO <= HI (e.g. 500us, 10us..50us; a bare "
			 "number means %s)",
			 t->bare == HX_NS_PER_US ? "microseconds" : "seconds");
		break;
	case VT_SIZE:
		snprintf(buf, n, "a size up to 1TiB (e.g. 4096, 4KiB, 64MiB, 1GB)");
		break;
	case VT_BOOL:
		snprintf(buf, n, "true/false, on/off or yes/no");
		break;
	case VT_ENUM:
		expect_enum(t->names, buf, n);
		break;
	case VT_REAL:
		snprintf(buf, n, "a number above %g and at most %g", t->rmin,
			 t->rmax);
		break;
	}
}

/* ==== "did you mean" ====================================================== */

/* Levenshtein distance, or a large number for long words. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev;

	if (la > 64 || lb > 64)
		return 1000;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t del = row[j] + 1, ins = row[j - 1] + 1;
			size_t sub = prev + (tolower((unsigned char)a[i - 1]) !=
					     tolower((unsigned char)b[j - 1]));
			size_t best = del < ins ? del : ins;

			prev = row[j];
			row[j] = best < sub ? best : sub;
		}
	}
	return row[lb];
}

/* The string at element i of a table whose elements hold a const char *
 * at a fixed position (base points at it in element 0). */
static const char *key_at(const void *base, size_t stride, size_t i)
{
	const char *const *p = (const void *)((const char *)base + i * stride);

	return *p;
}

/* Keep in *best the candidate of the table closest to word, if close. */
static void suggest_in(const char *word, const void *base, size_t stride,
		       size_t n, const char **best, size_t *bestd)
{
	size_t i, d, lw = strlen(word);

	for (i = 0; i < n; i++) {
		const char *c = key_at(base, stride, i);

		if (!c)
			continue;
		d = edit_distance(word, c);
		if (lw >= 4 && strstr(c, word) && d > 1)
			d = 2;
		if (d <= 2 && d < lw && d < *bestd) {
			*best = c;
			*bestd = d;
		}
	}
}

static const char *suggest(const char *word, const void *base, size_t stride,
			   size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	suggest_in(word, base, stride, n, &best, &bestd);
	return best;
}

/* ==== the YAML tree ======================================================= */

enum yn_kind { YN_NULL, YN_SCALAR, YN_MAP, YN_SEQ, YN_BAD };

/* One YAML node; a mapping's children alternate key, value. */
struct yn {
	enum yn_kind kind;
	uint32_t line, col;         /* 1-based */
	const char *s;              /* scalar text */
	size_t len;
	struct yn *kid, *last, *next;
	uint32_t nkids;
};

/* State of one load. */
struct ld {
	struct hangdx_ctx *ctx;
	struct hangdx_scenario *sc;
	const char *file;
	const char *text;
	size_t len;
	struct hx_arena tree;       /* the YAML nodes; dies with the load */
	size_t nnodes;
	bool nomem;                 /* an allocation failed: give up */
	bool halt;                  /* a ceiling was hit: stop reading */
	unsigned long errors;
	bool ranks_ok;              /* cluster.ranks is valid: check ranks */
	struct hx_intern names[3];  /* streams, events, notifies */
	struct hx_intern comm_names;/* names a program may use for a comm */
	struct comm_ref {
		int32_t group, instance;
	} *comm_refs;               /* by comm_names id */
	struct hx_step *steps;
	size_t nsteps, capsteps;
	struct hx_fault *faults;
	size_t nfaults, capfaults;
	struct hx_grant_ref *grants;
	size_t ngrants, capgrants;
	struct hx_seq_ref *seq;
	size_t nseq, capseq;
	struct hx_env_override *ovr;
	size_t novr, capovr;
	uint8_t *ovr_seen;          /* rank_env ranks seen, by rank */
	struct hx_comm_group *groups;
	size_t ngroups, capgroups;
	uint32_t ncomms;            /* instances so far */
	uint64_t *colls;            /* collectives per rank, once computed */
};

enum { NM_STREAM, NM_EVENT, NM_NOTIFY };
static const char *const name_kinds[] = { "stream", "event", "notify" };

static bool ld_stopped(const struct ld *ld)
{
	return ld->nomem || ld->halt;
}

static void ld_verr(struct ld *ld, unsigned long line, unsigned long col,
		    const char *fmt, va_list ap)
{
	ld->errors++;
	hx_vdiag(ld->ctx, HANGDX_ERROR, ld->file, line, col, fmt, ap);
}

static void ld_err_at(struct ld *ld, unsigned long line, unsigned long col,
		      const char *fmt, ...) HX_PRINTF(4, 5);
static void ld_err_at(struct ld *ld, unsigned long line, unsigned long col,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ld_verr(ld, line, col, fmt, ap);
	va_end(ap);
}

static void ld_err(struct ld *ld, const struct yn *at, const char *fmt, ...)
	HX_PRINTF(3, 4);
static void ld_err(struct ld *ld, const struct yn *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ld_verr(ld, at ? at->line : 0, at ? at->col : 0, fmt, ap);
	va_end(ap);
}

/* ---- building the tree from libyaml events ---- */

struct ybuild {
	struct ld *ld;
	yaml_parser_t parser;
	struct yn *stack[SC_MAX_DEPTH];
	unsigned depth;
	struct yn *root;
	unsigned docs;
	bool broken;                /* syntax error: the tree is unusable */
};

static struct yn *yb_node(struct ybuild *b, enum yn_kind kind, yaml_mark_t m)
{
	struct ld *ld = b->ld;
	struct yn *n;

	if (++ld->nnodes > SC_MAX_NODES) {
		ld_err_at(ld, m.line + 1, m.column + 1,
			  "scenario has more than %u YAML nodes", SC_MAX_NODES);
		ld->halt = true;
		return NULL;
	}
	n = hx_arena_alloc(&ld->tree, sizeof *n);
	if (!n) {
		ld->nomem = true;
		return NULL;
	}
	n->kind = kind;
	n->line = (uint32_t)m.line + 1;
	n->col = (uint32_t)m.column + 1;
	return n;
}

static void yb_attach(struct ybuild *b, struct yn *n)
{
	struct yn *parent = b->depth ? b->stack[b->depth - 1] : NULL;

	if (!parent) {
		b->root = n;
		return;
	}
	if (parent->last)
		parent->last->next = n;
	else
		parent->kid = n;
	parent->last = n;
	parent->nkids++;
}

static bool scalar_is_null(const yaml_event_t *ev)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	const char *s = (const char *)ev->data.scalar.value;
	size_t i;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	for (i = 0; i < HX_ARRAY_LEN(nulls); i++)
		if (strcmp(s, nulls[i]) == 0)
			return true;
	return false;
}

static void yb_scalar(struct ybuild *b, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	struct yn *n;

	n = yb_node(b, scalar_is_null(ev) ? YN_NULL : YN_SCALAR,
		    ev->start_mark);
	if (!n)
		return;
	if (memchr(v, '\0', len)) {
		ld_err(b->ld, n, "NUL character in a value");
		n->kind = YN_BAD;
	} else {
		n->s = hx_arena_strndup(&b->ld->tree, v, len);
		n->len = len;
		if (!n->s)
			b->ld->nomem = true;
	}
	yb_attach(b, n);
}

static void yb_open(struct ybuild *b, enum yn_kind kind, yaml_mark_t m)
{
	struct yn *n;

	if (b->depth >= SC_MAX_DEPTH) {
		ld_err_at(b->ld, m.line + 1, m.column + 1,
			  "nesting deeper than %d levels", SC_MAX_DEPTH);
		b->ld->halt = true;
		return;
	}
	n = yb_node(b, kind, m);
	if (!n)
		return;
	yb_attach(b, n);
	b->stack[b->depth++] = n;
}

static void yb_alias(struct ybuild *b, const yaml_event_t *ev)
{
	struct yn *n = yb_node(b, YN_BAD, ev->start_mark);

	if (!n)
		return;
	ld_err(b->ld, n, "YAML aliases (*%s) are not supported; write the "
	       "value out", (const char *)ev->data.alias.anchor);
	yb_attach(b, n);
}

/* Handle one event; false when the document is over. */
static bool yb_event(struct ybuild *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++b->docs > 1) {
			ld_err_at(b->ld, ev->start_mark.line + 1,
				  ev->start_mark.column + 1,
				  "a scenario is one YAML document; found a second");
			return false;
		}
		return true;
	case YAML_SCALAR_EVENT:
		yb_scalar(b, ev);
		return true;
	case YAML_SEQUENCE_START_EVENT:
		yb_open(b, YN_SEQ, ev->start_mark);
		return true;
	case YAML_MAPPING_START_EVENT:
		yb_open(b, YN_MAP, ev->start_mark);
		return true;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth)
			b->depth--;
		return true;
	case YAML_ALIAS_EVENT:
		yb_alias(b, ev);
		return true;
	case YAML_STREAM_END_EVENT:
		return false;
	default:
		return true;
	}
}

/* 1-based line and column of a byte offset in the text. */
static void offset_mark(const struct ld *ld, size_t off, unsigned long *line,
			unsigned long *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < ld->len; i++) {
		if (ld->text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

static void yb_syntax_error(struct ybuild *b)
{
	const yaml_parser_t *p = &b->parser;
	unsigned long line, col;
	const char *problem = p->problem ? p->problem : "unknown error";

	b->broken = true;
	if (p->error == YAML_MEMORY_ERROR) {
		b->ld->nomem = true;
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		offset_mark(b->ld, p->problem_offset, &line, &col);
		ld_err_at(b->ld, line, col, "YAML: %s (byte 0x%02x)", problem,
			  (unsigned)p->problem_value & 0xffu);
		return;
	}
	line = (unsigned long)p->problem_mark.line + 1;
	col = (unsigned long)p->problem_mark.column + 1;
	if (p->context)
		ld_err_at(b->ld, line, col, "YAML: %s %s (line %lu, column %lu)",
			  problem, p->context,
			  (unsigned long)p->context_mark.line + 1,
			  (unsigned long)p->context_mark.column + 1);
	else
		ld_err_at(b->ld, line, col, "YAML: %s", problem);
}

/* The document's root node, or NULL (after a diagnostic, or when empty). */
static struct yn *ld_tree(struct ld *ld)
{
	struct ybuild b;
	yaml_event_t ev;
	bool more = true;

	memset(&b, 0, sizeof b);
	b.ld = ld;
	if (!yaml_parser_initialize(&b.parser)) {
		ld->nomem = true;
		return NULL;
	}
	yaml_parser_set_input_string(&b.parser, (const unsigned char *)ld->text,
				     ld->len);
	while (more && !ld_stopped(ld)) {
		if (!yaml_parser_parse(&b.parser, &ev)) {
			yb_syntax_error(&b);
			break;
		}
		more = yb_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&b.parser);
	return b.broken || ld_stopped(ld) ? NULL : b.root;
}

/* ==== reading nodes ======================================================= */

static const char *yn_what(const struct yn *n)
{
	switch (n->kind) {
	case YN_MAP: return _("a mapping");
	case YN_SEQ: return _("a list");
	case YN_NULL: return _("empty");
	default: return _("a single value");
	}
}

/* The text of a scalar value, or NULL after saying why there is none. */
static const char *ld_str(struct ld *ld, const struct yn *v, const char *key)
{
	switch (v->kind) {
	case YN_SCALAR:
		return v->s;
	case YN_NULL:
		ld_err(ld, v, "missing value for '%s'", key);
		return NULL;
	case YN_BAD:
		return NULL;
	default:
		ld_err(ld, v, "'%s' must be a single value, not %s", key,
		       yn_what(v));
		return NULL;
	}
}

/* Parse a value of type t; false after a diagnostic. */
static bool ld_val(struct ld *ld, const struct yn *v, const char *key,
		   const struct vtype *t, union val *out)
{
	const char *s = ld_str(ld, v, key);
	char expect[160];

	if (!s)
		return false;
	if (val_parse(t, s, out))
		return true;
	if (t->kind == VT_DRANGE) {
		bool inverted;
		val_parse_drange(t, s, out, &inverted);
		if (inverted) {
			ld_err(ld, v, "bad range '%s' for '%s': the minimum is "
			       "above the maximum", s, key);
			return false;
		}
	}
	val_expect(t, expect, sizeof expect);
	ld_err(ld, v, "bad value '%s' for '%s': expected %s", s, key, expect);
	return false;
}

/* An optional integer, duration or size: def when v is absent; when it is
 * bad, *ok becomes false (after a diagnostic) and def is returned. */
static uint64_t ld_get_u(struct ld *ld, const struct yn *v, const char *key,
			 const struct vtype *t, uint64_t def, bool *ok)
{
	union val x;

	if (!v)
		return def;
	if (ld_val(ld, v, key, t, &x))
		return x.u;
	*ok = false;
	return def;
}

/* The same for a boolean. */
static bool ld_get_b(struct ld *ld, const struct yn *v, const char *key,
		     bool def, bool *ok)
{
	static const struct vtype t = { .kind = VT_BOOL };
	union val x;

	if (!v)
		return def;
	if (ld_val(ld, v, key, &t, &x))
		return x.b;
	*ok = false;
	return def;
}

/* A name: 1 to SC_MAX_NAME printable bytes. */
static const char *ld_name(struct ld *ld, const struct yn *v, const char *key)
{
	const char *s = ld_str(ld, v, key);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < v->len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			break;
	if (v->len == 0 || v->len > SC_MAX_NAME || i < v->len) {
		ld_err(ld, v, "bad %s '%s': expected 1 to %d printable "
		       "characters", key, s, SC_MAX_NAME);
		return NULL;
	}
	return s;
}

static void ld_unknown(struct ld *ld, const struct yn *k, const char *what,
		       const char *where, const void *keys, size_t stride,
		       size_t n)
{
	const char *s = suggest(k->s, keys, stride, n);

	if (s)
		ld_err(ld, k, "unknown %s '%s' in %s; did you mean '%s'?", what,
		       k->s, where, s);
	else
		ld_err(ld, k, "unknown %s '%s' in %s", what, k->s, where);
}

/*
 * Match the keys of a mapping against a table (element i holds its key at
 * base + i * stride): vals[i] = the value of key i, or NULL when absent.
 * Unknown and duplicate keys are errors.  An empty node counts as an empty
 * mapping.  Returns false when map is not a mapping.
 */
static bool ld_fields(struct ld *ld, const struct yn *map, const char *where,
		      const void *keys, size_t stride, size_t n,
		      const struct yn **vals)
{
	const struct yn *k, *v;
	size_t i;

	for (i = 0; i < n; i++)
		vals[i] = NULL;
	if (map->kind == YN_NULL)
		return true;
	if (map->kind != YN_MAP) {
		if (map->kind != YN_BAD)
			ld_err(ld, map, "%s must be a mapping, not %s", where,
			       yn_what(map));
		return false;
	}
	for (k = map->kid; k && (v = k->next); k = v->next) {
		if (k->kind != YN_SCALAR) {
			if (k->kind != YN_BAD)
				ld_err(ld, k, "keys in %s must be names", where);
			continue;
		}
		for (i = 0; i < n && strcmp(key_at(keys, stride, i), k->s); i++)
			;
		if (i == n)
			ld_unknown(ld, k, _("key"), where, keys, stride, n);
		else if (vals[i])
			ld_err(ld, k, "duplicate key '%s' in %s", k->s, where);
		else
			vals[i] = v;
	}
	return true;
}

#define KEYS(arr) (arr), sizeof (arr)[0], HX_ARRAY_LEN(arr)

/* A list node (empty counts as an empty list); false if it is not one. */
static bool ld_list(struct ld *ld, const struct yn *v, const char *where)
{
	if (v->kind == YN_SEQ || v->kind == YN_NULL)
		return true;
	if (v->kind != YN_BAD)
		ld_err(ld, v, "%s must be a list, not %s", where, yn_what(v));
	return false;
}

/* A rank number, inside the cluster when its size is known. */
static bool ld_rank(struct ld *ld, const struct yn *v, const char *key,
		    int32_t *out)
{
	static const struct vtype t = { .kind = VT_U32, .max = HX_MAX_RANKS - 1 };
	union val x;

	if (!ld_val(ld, v, key, &t, &x))
		return false;
	if (ld->ranks_ok && x.u >= ld->sc->nranks) {
		ld_err(ld, v, "%s %llu is out of range: the cluster has %u "
		       "ranks (0..%u)", key, (unsigned long long)x.u,
		       ld->sc->nranks, ld->sc->nranks - 1);
		return false;
	}
	*out = (int32_t)x.u;
	return true;
}

static int int32_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* A non-empty list of distinct ranks, sorted, in the scenario's arena. */
static bool ld_rank_list(struct ld *ld, const struct yn *v, const char *key,
			 int32_t **out, uint32_t *nout)
{
	const struct yn *it;
	int32_t *r;
	uint32_t n = 0, i;
	bool ok = true;

	if (!ld_list(ld, v, key))
		return false;
	if (v->nkids == 0 || v->nkids > HX_MAX_RANKS) {
		ld_err(ld, v, "'%s' must list 1 to %d ranks", key, HX_MAX_RANKS);
		return false;
	}
	r = hx_arena_alloc(&ld->sc->arena, v->nkids * sizeof *r);
	if (!r) {
		ld->nomem = true;
		return false;
	}
	for (it = v->kid; it; it = it->next)
		ok = ld_rank(ld, it, "rank", &r[n++]) && ok;
	if (!ok)
		return false;
	qsort(r, n, sizeof *r, int32_cmp);
	for (i = 1; i < n; i++) {
		if (r[i] == r[i - 1]) {
			ld_err(ld, v, "rank %d is listed twice in '%s'", r[i], key);
			return false;
		}
	}
	*out = r;
	*nout = n;
	return true;
}

/* ==== cluster, model, run: knobs shared with --set ======================== */

static const char *const product_names[] = { "A3", "A2", "910", NULL };
static const char *const grant_names[] = { "fifo", "random", NULL };
static const char *const level_names[] = { "debug", "info", "warning",
					   "error", NULL };
static const char *const layout_names[] = { "rank", "node", "flat", NULL };
static const char *const nodedir_names[] = { "host", "node", "ip", NULL };
static const char *const fidelity_names[] = { "full", "verified", NULL };

_Static_assert(sizeof(enum hx_product) == sizeof(int), "enum size");
_Static_assert(sizeof(enum hx_grant) == sizeof(int), "enum size");
_Static_assert(sizeof(enum hx_loglevel) == sizeof(int), "enum size");
_Static_assert(sizeof(enum hx_layout) == sizeof(int), "enum size");
_Static_assert(sizeof(enum hx_nodedir) == sizeof(int), "enum size");
_Static_assert(sizeof(enum hx_fidelity) == sizeof(int), "enum size");

/* One scalar parameter of the scenario struct. */
struct knob {
	const char *key;            /* YAML key; NULL for --set only */
	const char *set_key;        /* --set key; NULL: special or none */
	struct vtype t;
	size_t off;                 /* in struct hangdx_scenario */
	size_t off2;                /* VT_DRANGE: where the maximum goes */
};

#define T_U32(lo, hi) { .kind = VT_U32, .min = (lo), .max = (hi) }
#define T_U64(lo, hi) { .kind = VT_U64, .min = (lo), .max = (hi) }
#define T_DUR(lo) { .kind = VT_DUR, .min = (lo), .max = SC_MAX_DUR_NS, \
		    .bare = HX_NS_PER_S }
#define T_DUR_US { .kind = VT_DUR, .max = SC_MAX_DUR_NS, .bare = HX_NS_PER_US }
#define T_RANGE { .kind = VT_DRANGE, .max = SC_MAX_DUR_NS, .bare = HX_NS_PER_S }
#define T_RANGE_US { .kind = VT_DRANGE, .max = SC_MAX_DUR_NS, \
		     .bare = HX_NS_PER_US }
#define T_BOOL { .kind = VT_BOOL }
#define T_ENUM(list) { .kind = VT_ENUM, .names = (list) }
#define T_REAL(lo, hi) { .kind = VT_REAL, .rmin = (lo), .rmax = (hi) }
#define SC_OFF(f) offsetof(struct hangdx_scenario, f)

static const struct knob cluster_knobs[] = {
	{ "ranks", NULL, T_U32(1, HX_MAX_RANKS), SC_OFF(nranks), 0 },
	{ "ranks_per_node", "ranks_per_node", T_U32(1, HX_MAX_RANKS),
	  SC_OFF(ranks_per_node), 0 },
	{ "aicpu_cores", "cores", T_U32(1, HX_MAX_CORES), SC_OFF(cores), 0 },
	{ "sq_depth", "sq_depth", T_U32(2, HX_MAX_SQ_DEPTH), SC_OFF(sq_depth), 0 },
	{ "product", NULL, T_ENUM(product_names), SC_OFF(product), 0 },
};

static const struct knob model_knobs[] = {
	{ "link_latency", "link_latency", T_RANGE, SC_OFF(link_latency_ns),
	  SC_OFF(link_latency_max_ns) },
	{ "expand", "expand", T_RANGE, SC_OFF(expand_ns), SC_OFF(expand_max_ns) },
	{ "host_api", "host_api", T_RANGE, SC_OFF(host_api_ns),
	  SC_OFF(host_api_max_ns) },
	{ "dispatch", "dispatch", T_RANGE, SC_OFF(dispatch_ns),
	  SC_OFF(dispatch_max_ns) },
	{ "link_gbps", "link_gbps", T_REAL(0.0, 100000.0), SC_OFF(link_gbps), 0 },
	{ "slave_streams", "slave_streams", T_U32(0, 8), SC_OFF(slave_streams), 0 },
	{ "grant_order", "grant", T_ENUM(grant_names), SC_OFF(grant), 0 },
	{ "order_launch", "order_launch", T_BOOL, SC_OFF(order_launch), 0 },
	{ "hccl_shares_pool", "hccl_shares_pool", T_BOOL,
	  SC_OFF(hccl_shares_pool), 0 },
	{ "stuck_with_retry", "stuck_with_retry", T_BOOL,
	  SC_OFF(stuck_with_retry), 0 },
	{ "aicpu_op_timeout", "aicpu_op_timeout", T_DUR(0),
	  SC_OFF(aicpu_timeout_ns), 0 },
};

static const struct knob run_knobs[] = {
	{ "seed", "seed", T_U64(0, UINT64_MAX), SC_OFF(seed), 0 },
	{ "tail", "tail", T_DUR(0), SC_OFF(tail_ns), 0 },
	{ "time_limit", "time_limit", T_DUR(1), SC_OFF(time_limit_ns), 0 },
	{ "log_level", "log_level", T_ENUM(level_names), SC_OFF(log_level), 0 },
	{ "layout", "layout", T_ENUM(layout_names), SC_OFF(layout), 0 },
	{ "log_fidelity", "log_fidelity", T_ENUM(fidelity_names),
	  SC_OFF(log_fidelity), 0 },
	{ "node_dirs", "node_dirs", T_ENUM(nodedir_names), SC_OFF(node_dirs), 0 },
	{ "same_pids", "same_pids", T_BOOL, SC_OFF(same_pids), 0 },
	{ "start_spread", "start_spread", T_DUR(0), SC_OFF(start_spread_ns), 0 },
};

/* --set names of the hangdx.h examples: bare numbers in microseconds. */
static const struct knob set_only_knobs[] = {
	{ NULL, "link_latency_us", T_RANGE_US, SC_OFF(link_latency_ns),
	  SC_OFF(link_latency_max_ns) },
	{ NULL, "expand_us", T_RANGE_US, SC_OFF(expand_ns), SC_OFF(expand_max_ns) },
};

_Static_assert(HX_ARRAY_LEN(cluster_knobs) <= 16 &&
	       HX_ARRAY_LEN(model_knobs) <= 16 && HX_ARRAY_LEN(run_knobs) <= 16,
	       "ld_knobs holds 16 values");

static void knob_store(const struct knob *k, struct hangdx_scenario *sc,
		       const union val *v)
{
	char *p = (char *)sc + k->off;
	uint32_t u32 = (uint32_t)v->u;
	int e = (int)v->u;

	switch (k->t.kind) {
	case VT_U32:
		memcpy(p, &u32, sizeof u32);
		break;
	case VT_U64:
	case VT_DUR:
	case VT_SIZE:
		memcpy(p, &v->u, sizeof v->u);
		break;
	case VT_SDUR:
		memcpy(p, &v->i, sizeof v->i);
		break;
	case VT_BOOL:
		memcpy(p, &v->b, sizeof v->b);
		break;
	case VT_ENUM:
		memcpy(p, &e, sizeof e);
		break;
	case VT_REAL:
		memcpy(p, &v->d, sizeof v->d);
		break;
	case VT_DRANGE:
		memcpy(p, &v->r.lo, sizeof v->r.lo);
		memcpy((char *)sc + k->off2, &v->r.hi, sizeof v->r.hi);
		break;
	}
}

static void ld_knobs(struct ld *ld, const struct yn *map, const char *where,
		     const struct knob *tab, size_t n)
{
	const struct yn *vals[16];
	union val v;
	size_t i;

	if (!ld_fields(ld, map, where, tab, sizeof *tab, n, vals))
		return;
	for (i = 0; i < n; i++) {
		if (!vals[i])
			continue;
		if (ld_val(ld, vals[i], tab[i].key, &tab[i].t, &v))
			knob_store(&tab[i], ld->sc, &v);
		else if (tab[i].off == SC_OFF(nranks))
			ld->ranks_ok = false;
	}
}

/* ==== env and rank_env ==================================================== */

static int env_exec_timeout(struct hx_env *env, const char *s)
{
	uint64_t v;

	if (!parse_uint(s, &v) || v > SC_MAX_TIMEOUT_S)
		return HANGDX_EINVAL;
	env->exec_timeout_s = (uint32_t)v;
	env->set_exec_timeout = true;
	return HANGDX_OK;
}

static int env_mode(struct hx_env *env, const char *s)
{
	if (hx_mode_parse(s, &env->mode))
		return HANGDX_EINVAL;
	env->set_mode = true;
	return HANGDX_OK;
}

static int env_connect(struct hx_env *env, const char *s)
{
	uint64_t v;

	if (!parse_uint(s, &v) || v < 120 || v > 7200)
		return HANGDX_EINVAL;
	env->connect_timeout_s = (uint32_t)v;
	env->set_connect = true;
	return HANGDX_OK;
}

/* The HCCL variables a scenario may set; entry 0 is rank_env's "rank". */
struct envvar {
	const char *key;
	int (*apply)(struct hx_env *env, const char *s);
	const char *expect;
};

static const struct envvar envvars[] = {
	{ "rank", NULL, NULL },
	{ "HCCL_EXEC_TIMEOUT", env_exec_timeout,
	  "seconds from 0 to 2147483647 (0 = never)" },
	{ "HCCL_OP_RETRY_ENABLE", hx_env_parse_retry,
	  "\"L0:x,L1:y,L2:z\" or \"L1:y,L2:z\" with each value 0 or 1" },
	{ "HCCL_OP_RETRY_PARAMS", hx_env_parse_retry_params,
	  "\"MaxCnt:n,HoldTime:ms,IntervalTime:ms\" (any of them) with MaxCnt "
	  "1..10 and the times 0..60000" },
	{ "HCCL_OP_EXPANSION_MODE", env_mode,
	  "one of AI_CPU, HOST, HOST_TS, AIV or AICPU_TS" },
	{ "HCCL_CONNECT_TIMEOUT", env_connect, "seconds from 120 to 7200" },
};

static void ld_env_apply(struct ld *ld, const struct yn **vals,
			 struct hx_env *env)
{
	size_t i;

	for (i = 1; i < HX_ARRAY_LEN(envvars); i++) {
		const char *s;

		if (!vals[i] || !(s = ld_str(ld, vals[i], envvars[i].key)))
			continue;
		if (envvars[i].apply(env, s))
			ld_err(ld, vals[i], "bad value '%s' for %s: expected %s",
			       s, envvars[i].key, envvars[i].expect);
	}
}

static void ld_env(struct ld *ld, const struct yn *map)
{
	const struct yn *vals[HX_ARRAY_LEN(envvars)];

	vals[0] = NULL;
	if (ld_fields(ld, map, "env", envvars + 1, sizeof envvars[0],
		      HX_ARRAY_LEN(envvars) - 1, vals + 1))
		ld_env_apply(ld, vals, &ld->sc->env);
}

static void ld_rank_env_item(struct ld *ld, const struct yn *item)
{
	const struct yn *vals[HX_ARRAY_LEN(envvars)];
	struct hx_env_override o;
	void *v = ld->ovr;

	if (!ld_fields(ld, item, "rank_env entry", KEYS(envvars), vals))
		return;
	if (!vals[0]) {
		ld_err(ld, item, "rank_env entry needs 'rank'");
		return;
	}
	if (!ld_rank(ld, vals[0], "rank", &o.rank))
		return;
	if (!ld->ovr_seen &&
	    !(ld->ovr_seen = hx_arena_alloc(&ld->tree, HX_MAX_RANKS))) {
		ld->nomem = true;
		return;
	}
	if (ld->ovr_seen[o.rank]++) {
		ld_err(ld, vals[0], "rank %d has two rank_env entries", o.rank);
		return;
	}
	o.env = ld->sc->env;
	ld_env_apply(ld, vals, &o.env);
	if (hx_vec_reserve(ld->ctx, &v, &ld->capovr, ld->novr + 1, sizeof o,
			   HX_MAX_RANKS)) {
		ld->nomem = true;
		return;
	}
	ld->ovr = v;
	ld->ovr[ld->novr++] = o;
}

static void ld_rank_env(struct ld *ld, const struct yn *seq)
{
	const struct yn *it;

	if (!ld_list(ld, seq, "rank_env"))
		return;
	if (seq->nkids > HX_MAX_RANKS) {
		ld_err(ld, seq, "rank_env has more than %d entries", HX_MAX_RANKS);
		return;
	}
	for (it = seq->kid; it && !ld_stopped(ld); it = it->next)
		ld_rank_env_item(ld, it);
}

/* ==== communicators ======================================================= */

static const char *const comm_keys[] = {
	"name", "count", "ranks", "retry", "exec_timeout", "sweep"
};
enum { CK_NAME, CK_COUNT, CK_RANKS, CK_RETRY, CK_TIMEOUT, CK_SWEEP };

static bool comm_name_ok(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/* Name of instance i of g (-1: the group's own name) into buf; false
 * when that is the same string as the group's name. */
static bool comm_inst_name(const struct hx_comm_group *g, int32_t i,
			   char *buf, size_t n)
{
	if (i < 0)
		snprintf(buf, n, "%s", g->name);
	else if (g->count > 1)
		snprintf(buf, n, "%s%d", g->name, i + 1);
	return i < 0 || g->count > 1;
}

/*
 * Record the names a program may use for g (its own, and name1..nameN when
 * count > 1), mapped to (group, instance); false, after a diagnostic, when
 * one is taken.  All are checked before any is added.
 */
static bool ld_comm_names(struct ld *ld, const struct hx_comm_group *g,
			  const struct yn *at)
{
	char buf[SC_MAX_NAME + 16];
	int32_t i;
	long id;
	int err;

	for (i = -1; i < (int32_t)g->count; i++) {
		if (comm_inst_name(g, i, buf, sizeof buf) &&
		    hx_intern_find(&ld->comm_names, buf, strlen(buf)) >= 0) {
			ld_err(ld, at, "communicator name '%s' is used twice", buf);
			return false;
		}
	}
	if (!ld->comm_refs && !(ld->comm_refs = hx_arena_alloc(&ld->tree,
			2 * HX_MAX_COMMS * sizeof *ld->comm_refs))) {
		ld->nomem = true;
		return false;
	}
	for (i = -1; i < (int32_t)g->count; i++) {
		if (!comm_inst_name(g, i, buf, sizeof buf))
			continue;
		id = hx_intern_add(&ld->comm_names, buf, strlen(buf), &err);
		if (id < 0) {
			ld->nomem = true;
			return false;
		}
		ld->comm_refs[id].group = (int32_t)ld->ngroups;
		ld->comm_refs[id].instance = i;
	}
	return true;
}

static bool ld_group_name(struct ld *ld, const struct yn *v,
			  struct hx_comm_group *g)
{
	const char *s = ld_name(ld, v, "name");

	if (!s)
		return false;
	if (v->len > 64 || !comm_name_ok(s)) {
		ld_err(ld, v, "bad communicator name '%s': expected a letter "
		       "or '_', then letters, digits, '_', '.' or '-' (at most "
		       "64)", s);
		return false;
	}
	g->name = hx_arena_strndup(&ld->sc->arena, s, v->len);
	if (!g->name)
		ld->nomem = true;
	return g->name != NULL;
}

static bool ld_group_count(struct ld *ld, const struct yn *v,
			   struct hx_comm_group *g)
{
	static const struct vtype t = T_U32(1, HX_MAX_COMMS);
	union val x;

	if (!ld_val(ld, v, "count", &t, &x))
		return false;
	if (x.u > HX_MAX_COMMS - ld->ncomms) {
		ld_err(ld, v, "communicators add up to more than %d instances",
		       HX_MAX_COMMS);
		return false;
	}
	g->count = (uint32_t)x.u;
	return true;
}

/* retry, exec_timeout and sweep of one group. */
static bool ld_group_opts(struct ld *ld, const struct yn **vals,
			  struct hx_comm_group *g, bool *sweep)
{
	static const struct vtype tt = T_U32(0, SC_MAX_TIMEOUT_S);
	bool ok = true;

	if (vals[CK_RETRY])
		g->retry = ld_get_b(ld, vals[CK_RETRY], "retry", false, &ok) ? 1
									   : 0;
	g->exec_timeout_s = (uint32_t)ld_get_u(ld, vals[CK_TIMEOUT],
					       "exec_timeout", &tt, 0, &ok);
	*sweep = ld_get_b(ld, vals[CK_SWEEP], "sweep", false, &ok);
	return ok;
}

static void ld_group_push(struct ld *ld, const struct hx_comm_group *g)
{
	void *v = ld->groups;

	if (hx_vec_reserve(ld->ctx, &v, &ld->capgroups, ld->ngroups + 1,
			   sizeof *g, HX_MAX_COMMS)) {
		ld->nomem = true;
		return;
	}
	ld->groups = v;
	ld->groups[ld->ngroups++] = *g;
	ld->ncomms += g->count;
}

static void ld_group(struct ld *ld, const struct yn *item, bool *have_sweep)
{
	const struct yn *vals[HX_ARRAY_LEN(comm_keys)];
	struct hx_comm_group g = { .count = 1, .retry = -1 };
	bool ok, sweep = false;

	if (!ld_fields(ld, item, "communicator", KEYS(comm_keys), vals))
		return;
	if (!vals[CK_NAME]) {
		ld_err(ld, item, "communicator needs a 'name'");
		return;
	}
	ok = ld_group_name(ld, vals[CK_NAME], &g);
	if (vals[CK_COUNT])
		ok = ld_group_count(ld, vals[CK_COUNT], &g) && ok;
	if (vals[CK_RANKS])
		ok = ld_rank_list(ld, vals[CK_RANKS], "ranks", &g.ranks,
				  &g.nranks) && ok;
	ok = ld_group_opts(ld, vals, &g, &sweep) && ok;
	if (sweep && *have_sweep) {
		ld_err(ld, vals[CK_SWEEP], "only one communicator can have "
		       "'sweep: true'");
		ok = false;
	}
	if (!ok || !ld_comm_names(ld, &g, vals[CK_NAME]))
		return;
	*have_sweep = *have_sweep || sweep;
	g.count_from_set = sweep;
	ld_group_push(ld, &g);
}

/* The group `communicators=N` changes: the sweep one, else the first
 * with count > 1. */
static void ld_pick_sweep(struct ld *ld)
{
	size_t i;

	for (i = 0; i < ld->ngroups; i++)
		if (ld->groups[i].count_from_set)
			return;
	for (i = 0; i < ld->ngroups; i++) {
		if (ld->groups[i].count > 1) {
			ld->groups[i].count_from_set = true;
			return;
		}
	}
}

static void ld_groups(struct ld *ld, const struct yn *seq)
{
	const struct yn *it;
	bool have_sweep = false;

	if (!ld_list(ld, seq, "communicators"))
		return;
	for (it = seq->kid; it && !ld_stopped(ld); it = it->next)
		ld_group(ld, it, &have_sweep);
	ld_pick_sweep(ld);
}

/* ==== program ============================================================= */

enum {
	SF_STREAM, SF_NAME, SF_DURATION, SF_EVENT, SF_NOTIFY, SF_TIMEOUT,
	SF_COMM, SF_BYTES, SF_DTYPE, SF_PEER, SF_ROOT, SF_RANKS, SF_COUNT,
	SF_STEPS, SF_N
};
static const char *const step_fields[SF_N] = {
	"stream", "name", "duration", "event", "notify", "timeout", "comm",
	"bytes", "dtype", "peer", "root", "ranks", "count", "steps"
};
#define B(f) (1u << (f))
#define SF_COLL (B(SF_STREAM) | B(SF_COMM) | B(SF_BYTES) | B(SF_DTYPE) | \
		 B(SF_RANKS))
#define SF_KERNEL (B(SF_STREAM) | B(SF_NAME) | B(SF_DURATION) | B(SF_RANKS))

enum { STEP_REPEAT = -1 };

struct stepkind {
	const char *key;
	int kind;                   /* enum hx_step_kind or STEP_REPEAT */
	enum hx_coll coll;
	unsigned allowed, required;
};

static const struct stepkind stepkinds[] = {
	{ "aicore", HX_STEP_AICORE, 0, SF_KERNEL,
	  B(SF_STREAM) | B(SF_DURATION) },
	{ "aicpu", HX_STEP_AICPU, 0, SF_KERNEL, B(SF_STREAM) | B(SF_DURATION) },
	{ "event_record", HX_STEP_EVENT_RECORD, 0,
	  B(SF_STREAM) | B(SF_EVENT) | B(SF_RANKS), B(SF_STREAM) | B(SF_EVENT) },
	{ "event_wait", HX_STEP_EVENT_WAIT, 0,
	  B(SF_STREAM) | B(SF_EVENT) | B(SF_RANKS), B(SF_STREAM) | B(SF_EVENT) },
	{ "notify_record", HX_STEP_NOTIFY_RECORD, 0,
	  B(SF_STREAM) | B(SF_NOTIFY) | B(SF_RANKS),
	  B(SF_STREAM) | B(SF_NOTIFY) },
	{ "notify_wait", HX_STEP_NOTIFY_WAIT, 0,
	  B(SF_STREAM) | B(SF_NOTIFY) | B(SF_TIMEOUT) | B(SF_RANKS),
	  B(SF_STREAM) | B(SF_NOTIFY) },
	{ "allreduce", HX_STEP_COLL, HX_COLL_ALLREDUCE, SF_COLL,
	  B(SF_STREAM) | B(SF_COMM) },
	{ "allgather", HX_STEP_COLL, HX_COLL_ALLGATHER, SF_COLL,
	  B(SF_STREAM) | B(SF_COMM) },
	{ "reducescatter", HX_STEP_COLL, HX_COLL_REDUCESCATTER, SF_COLL,
	  B(SF_STREAM) | B(SF_COMM) },
	{ "alltoall", HX_STEP_COLL, HX_COLL_ALLTOALL, SF_COLL,
	  B(SF_STREAM) | B(SF_COMM) },
	{ "broadcast", HX_STEP_COLL, HX_COLL_BROADCAST, SF_COLL | B(SF_ROOT),
	  B(SF_STREAM) | B(SF_COMM) },
	{ "send", HX_STEP_COLL, HX_COLL_SEND, SF_COLL | B(SF_PEER),
	  B(SF_STREAM) | B(SF_COMM) | B(SF_PEER) },
	{ "recv", HX_STEP_COLL, HX_COLL_RECV, SF_COLL | B(SF_PEER),
	  B(SF_STREAM) | B(SF_COMM) | B(SF_PEER) },
	{ "host_sync", HX_STEP_HOST_SYNC, 0, B(SF_STREAM) | B(SF_RANKS), 0 },
	{ "host_sleep", HX_STEP_HOST_SLEEP, 0, B(SF_DURATION) | B(SF_RANKS),
	  B(SF_DURATION) },
	{ "repeat", STEP_REPEAT, 0, B(SF_COUNT) | B(SF_STEPS),
	  B(SF_COUNT) | B(SF_STEPS) },
	{ "ranks", 0, 0, 0, 0 },    /* not an operation: the sibling key */
};
#define N_STEPKINDS (HX_ARRAY_LEN(stepkinds) - 1)

static void ld_steps(struct ld *ld, const struct yn *seq);

/* Values of one step body, indexed by SF_*. */
struct stepvals {
	const struct yn *v[SF_N];
};

/* Match a step body against the fields its kind allows. */
static bool ld_step_fields(struct ld *ld, const struct stepkind *sk,
			   const struct yn *body, struct stepvals *sv)
{
	const char *keys[SF_N];
	const struct yn *vals[SF_N];
	unsigned idx[SF_N], f, n = 0, i;
	char where[48];

	for (f = 0; f < SF_N; f++) {
		sv->v[f] = NULL;
		if (sk->allowed & B(f)) {
			idx[n] = f;
			keys[n++] = step_fields[f];
		}
	}
	snprintf(where, sizeof where, "%s step", sk->key);
	if (!ld_fields(ld, body, where, keys, sizeof keys[0], n, vals))
		return false;
	for (i = 0; i < n; i++)
		sv->v[idx[i]] = vals[i];
	for (f = 0; f < SF_N; f++) {
		if ((sk->required & B(f)) && !sv->v[f]) {
			ld_err(ld, body, "%s needs '%s'", where, step_fields[f]);
			return false;
		}
	}
	return true;
}

static int32_t ld_intern(struct ld *ld, int which, const struct yn *v)
{
	const char *s = ld_name(ld, v, name_kinds[which]);
	long id;
	int err;

	if (!s)
		return -1;
	id = hx_intern_add(&ld->names[which], s, v->len, &err);
	if (id >= 0)
		return (int32_t)id;
	if (err == HANGDX_ENOMEM) {
		ld->nomem = true;
	} else {
		ld_err(ld, v, "more than %d %s names", HX_MAX_NAMES,
		       name_kinds[which]);
		ld->halt = true;
	}
	return -1;
}

/* Say why s names no communicator. */
static void ld_comm_unknown(struct ld *ld, const struct yn *v, const char *s)
{
	size_t len = v->len;
	long id;
	const char *hint = NULL;

	while (len && isdigit((unsigned char)s[len - 1]))
		len--;
	id = len < v->len ? hx_intern_find(&ld->comm_names, s, len) : -1;
	if (id >= 0 && ld->comm_refs[id].instance < 0) {
		const struct hx_comm_group *g = &ld->groups[ld->comm_refs[id].group];

		if (g->count == 1)      /* a group of one is not numbered */
			ld_err(ld, v, "no communicator '%s': '%s' is one "
			       "communicator, named '%s'", s, g->name, g->name);
		else
			ld_err(ld, v, "no communicator '%s': '%s' has %u "
			       "(%s1..%s%u)", s, g->name, g->count, g->name,
			       g->name, g->count);
		return;
	}
	if (ld->ngroups && ld->ngroups <= 64)
		hint = suggest(s, &ld->groups[0].name, sizeof ld->groups[0],
			       ld->ngroups);
	if (hint)
		ld_err(ld, v, "unknown communicator '%s'; did you mean '%s'?",
		       s, hint);
	else
		ld_err(ld, v, "unknown communicator '%s'%s", s, ld->ngroups ? "" :
		       " (the scenario declares no communicators)");
}

/* "c" is group c (instance -1 = each); "c3" is instance 2 of group c. */
static bool ld_comm_ref(struct ld *ld, const struct yn *v, struct hx_step *st)
{
	const char *s = ld_str(ld, v, "comm");
	long id;

	if (!s)
		return false;
	id = hx_intern_find(&ld->comm_names, s, v->len);
	if (id < 0) {
		ld_comm_unknown(ld, v, s);
		return false;
	}
	st->group = ld->comm_refs[id].group;
	st->instance = ld->comm_refs[id].instance;
	return true;
}

static bool step_issued_by(const struct hx_step *st, int32_t rank)
{
	return !st->only || bsearch(&rank, st->only, st->nonly,
				    sizeof *st->only, int32_cmp) != NULL;
}

/* Issuing ranks must belong to the group; default them to its members. */
static void ld_coll_members(struct ld *ld, struct hx_step *st,
			    const struct stepvals *sv)
{
	const struct hx_comm_group *g = &ld->groups[st->group];
	uint32_t i;

	if (!g->ranks)
		return;
	if (!st->only) {
		st->only = g->ranks;
		st->nonly = g->nranks;
		return;
	}
	for (i = 0; i < st->nonly; i++) {
		if (!bsearch(&st->only[i], g->ranks, g->nranks, sizeof *g->ranks,
			     int32_cmp)) {
			ld_err(ld, sv->v[SF_RANKS], "rank %d is not a member of "
			       "communicator '%s'", st->only[i], g->name);
			return;
		}
	}
}

/* Peer and root are ranks inside the communicator; nobody sends to itself. */
static void ld_coll_peers(struct ld *ld, struct hx_step *st,
			  const struct stepvals *sv)
{
	const struct hx_comm_group *g = &ld->groups[st->group];
	uint32_t size = g->ranks ? g->nranks : ld->sc->nranks;
	const struct yn *at = sv->v[SF_PEER] ? sv->v[SF_PEER] : sv->v[SF_ROOT];
	int32_t who = sv->v[SF_PEER] ? st->peer : st->root, global;

	if (!at || (!g->ranks && !ld->ranks_ok))
		return;
	if ((uint32_t)who >= size) {
		ld_err(ld, at, "%s %d is outside communicator '%s' (%u ranks)",
		       sv->v[SF_PEER] ? "peer" : "root", who, g->name, size);
		return;
	}
	global = g->ranks ? g->ranks[who] : who;
	if (sv->v[SF_PEER] && step_issued_by(st, global))
		ld_err(ld, at, "rank %d would %s itself; give the step 'ranks:' "
		       "without it", global,
		       st->coll == HX_COLL_SEND ? _("send to") : _("receive from"));
}

static bool ld_step_coll(struct ld *ld, struct hx_step *st,
			 const struct stepvals *sv)
{
	static const struct vtype tsize = { .kind = VT_SIZE,
					    .max = SC_MAX_BYTES };
	static const struct vtype trank = T_U32(0, HX_MAX_RANKS - 1);
	bool ok = ld_comm_ref(ld, sv->v[SF_COMM], st);
	const char *s;

	st->bytes = ld_get_u(ld, sv->v[SF_BYTES], "bytes", &tsize, st->bytes,
			     &ok);
	if (sv->v[SF_DTYPE] && (s = ld_str(ld, sv->v[SF_DTYPE], "dtype")) &&
	    hx_dtype_parse(s, &st->dtype)) {
		ld_err(ld, sv->v[SF_DTYPE], "bad value '%s' for 'dtype': "
		       "expected one of fp16, fp32, bf16, int8, int32, int64 or "
		       "uint8", s);
		ok = false;
	}
	st->peer = (int32_t)ld_get_u(ld, sv->v[SF_PEER], "peer", &trank, 0, &ok);
	st->root = (int32_t)ld_get_u(ld, sv->v[SF_ROOT], "root", &trank, 0, &ok);
	if (ok) {
		ld_coll_members(ld, st, sv);
		ld_coll_peers(ld, st, sv);
	}
	return ok;
}

static bool ld_step_stream(struct ld *ld, struct hx_step *st,
			   const struct yn *v)
{
	if (st->kind == HX_STEP_HOST_SYNC && v->kind == YN_SCALAR &&
	    strcmp(v->s, "all") == 0) {
		st->stream = -1;
		return true;
	}
	st->stream = ld_intern(ld, NM_STREAM, v);
	return st->stream >= 0;
}

/* stream, name, duration, event, notify, timeout, ranks. */
static bool ld_step_common(struct ld *ld, struct hx_step *st,
			   const struct stepvals *sv)
{
	static const struct vtype tdur = T_DUR(0);
	static const struct vtype trange = T_RANGE;
	union val x;
	const char *s;
	bool ok = true;

	if (sv->v[SF_STREAM])
		ok = ld_step_stream(ld, st, sv->v[SF_STREAM]);
	if (sv->v[SF_NAME]) {
		s = ld_name(ld, sv->v[SF_NAME], "name");
		if (s && !(st->name = hx_arena_strdup(&ld->sc->arena, s)))
			ld->nomem = true;
		ok = s && ok;
	}
	if (sv->v[SF_DURATION]) {
		if (ld_val(ld, sv->v[SF_DURATION], "duration", &trange, &x)) {
			st->dur_ns = x.r.lo;
			st->dur_max_ns = x.r.hi;
		} else {
			ok = false;
		}
	}
	if (sv->v[SF_EVENT]) {
		st->obj = ld_intern(ld, NM_EVENT, sv->v[SF_EVENT]);
		ok = st->obj >= 0 && ok;
	}
	if (sv->v[SF_NOTIFY]) {
		st->obj = ld_intern(ld, NM_NOTIFY, sv->v[SF_NOTIFY]);
		ok = st->obj >= 0 && ok;
	}
	st->timeout_ns = ld_get_u(ld, sv->v[SF_TIMEOUT], "timeout", &tdur, 0,
				  &ok);
	if (sv->v[SF_RANKS])
		ok = ld_rank_list(ld, sv->v[SF_RANKS], "ranks", &st->only,
				  &st->nonly) && ok;
	return ok;
}

static void ld_push_step(struct ld *ld, const struct hx_step *st,
			 const struct yn *at)
{
	void *v = ld->steps;
	int err = hx_vec_reserve(ld->ctx, &v, &ld->capsteps, ld->nsteps + 1,
				 sizeof *st, HX_MAX_STEPS);

	if (err == HANGDX_ENOMEM) {
		ld->nomem = true;
	} else if (err) {
		ld_err(ld, at, "the program has more than %d steps",
		       HX_MAX_STEPS);
		ld->halt = true;
	} else {
		ld->steps = v;
		ld->steps[ld->nsteps++] = *st;
	}
}

static void ld_op(struct ld *ld, const struct stepkind *sk,
		  const struct yn *key, const struct yn *body,
		  const struct yn *ranks)
{
	struct hx_step st = {
		.kind = (enum hx_step_kind)sk->kind, .coll = sk->coll,
		.stream = -1, .obj = -1, .group = -1, .instance = -1,
		.bytes = 1ULL << 20, .dtype = HX_DT_FP16, .line = key->line
	};
	struct stepvals sv;
	bool ok;

	if (st.kind == HX_STEP_HOST_SYNC && body->kind != YN_MAP) {
		memset(&sv, 0, sizeof sv);
		sv.v[SF_STREAM] = body;
	} else if (!ld_step_fields(ld, sk, body, &sv)) {
		return;
	}
	if (ranks && sv.v[SF_RANKS]) {
		ld_err(ld, ranks, "'ranks' is given twice for this step");
		return;
	}
	if (ranks)
		sv.v[SF_RANKS] = ranks;
	ok = ld_step_common(ld, &st, &sv);
	if (ok && st.kind == HX_STEP_COLL)
		ok = ld_step_coll(ld, &st, &sv);
	if (ok && !ld_stopped(ld))
		ld_push_step(ld, &st, key);
}

/* Append copies of steps [s0, nsteps) until there are count of them. */
static void ld_expand(struct ld *ld, size_t s0, uint64_t count,
		      const struct yn *at)
{
	size_t n = ld->nsteps - s0, c;
	void *v = ld->steps;
	int err;

	if (count == 0 || n == 0) {
		ld->nsteps = s0;
		return;
	}
	if (count - 1 > (HX_MAX_STEPS - ld->nsteps) / n) {
		ld_err(ld, at, "repeat makes the program longer than %d steps",
		       HX_MAX_STEPS);
		ld->nsteps = s0;
		return;
	}
	err = hx_vec_reserve(ld->ctx, &v, &ld->capsteps,
			     ld->nsteps + n * (size_t)(count - 1),
			     sizeof *ld->steps, HX_MAX_STEPS);
	if (err) {
		ld->nomem = true;
		return;
	}
	ld->steps = v;
	for (c = 1; c < count; c++)
		memcpy(ld->steps + s0 + c * n, ld->steps + s0,
		       n * sizeof *ld->steps);
	ld->nsteps = s0 + n * (size_t)count;
}

/* Nesting is bounded by the YAML depth limit, so recursion is too. */
static void ld_repeat(struct ld *ld, const struct stepkind *sk,
		      const struct yn *body, const struct yn *ranks)
{
	static const struct vtype tcount = T_U64(0, SC_MAX_REPEAT);
	struct stepvals sv;
	unsigned long errors = ld->errors;
	size_t s0 = ld->nsteps;
	union val x;
	bool ok;

	if (ranks)
		ld_err(ld, ranks, "'ranks' does not apply to repeat; give it "
		       "to the steps inside");
	if (!ld_step_fields(ld, sk, body, &sv))
		return;
	ok = ld_val(ld, sv.v[SF_COUNT], "count", &tcount, &x);
	if (!ld_list(ld, sv.v[SF_STEPS], "steps"))
		return;
	ld_steps(ld, sv.v[SF_STEPS]);
	if (ok && ld->errors == errors && !ld_stopped(ld))
		ld_expand(ld, s0, x.u, sv.v[SF_COUNT]);
}

/* One program item: a mapping with one operation key (and maybe ranks). */
static void ld_step(struct ld *ld, const struct yn *item)
{
	const struct yn *k, *v, *key = NULL, *body = NULL, *ranks = NULL;
	const struct stepkind *sk = NULL;
	size_t i;

	if (item->kind != YN_MAP) {
		if (item->kind != YN_BAD)
			ld_err(ld, item, "a step must be a mapping such as "
			       "'aicore: {stream: s, duration: 1ms}', not %s",
			       yn_what(item));
		return;
	}
	for (k = item->kid; k && (v = k->next); k = v->next) {
		if (k->kind != YN_SCALAR) {
			if (k->kind != YN_BAD)
				ld_err(ld, k, "keys in a step must be names");
			continue;
		}
		for (i = 0; i < HX_ARRAY_LEN(stepkinds) &&
			    strcmp(stepkinds[i].key, k->s); i++)
			;
		if (i == HX_ARRAY_LEN(stepkinds))
			ld_unknown(ld, k, _("operation"), _("the program"), KEYS(stepkinds));
		else if (i == N_STEPKINDS && ranks)
			ld_err(ld, k, "duplicate key 'ranks' in a step");
		else if (i == N_STEPKINDS)
			ranks = v;
		else if (sk)
			ld_err(ld, k, "a step has one operation; '%s' follows "
			       "'%s' (start a new '- ' item)", k->s, sk->key);
		else {
			sk = &stepkinds[i];
			key = k;
			body = v;
		}
	}
	if (!sk) {
		ld_err(ld, item, "this step names no operation");
		return;
	}
	if (sk->kind == STEP_REPEAT)
		ld_repeat(ld, sk, body, ranks);
	else
		ld_op(ld, sk, key, body, ranks);
}

static void ld_steps(struct ld *ld, const struct yn *seq)
{
	const struct yn *it;

	if (!ld_list(ld, seq, "program"))
		return;
	for (it = seq->kid; it && !ld_stopped(ld); it = it->next)
		ld_step(ld, it);
}

/* ==== collectives per rank (mismatch faults) ============================== */

struct only_acc {
	const int32_t *only;
	uint32_t n;
	uint64_t count;
};

static int acc_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct only_acc *)a)->only;
	uintptr_t y = (uintptr_t)((const struct only_acc *)b)->only;

	return (x > y) - (x < y);
}

/* Add count to out[r] for every rank r in each distinct `only` list. */
static void acc_spread(struct only_acc *acc, size_t n, uint32_t nranks,
		       uint64_t *out)
{
	size_t i = 0, j;
	uint32_t r;

	if (!n)
		return;
	qsort(acc, n, sizeof *acc, acc_cmp);
	while (i < n) {
		uint64_t c = 0;

		for (j = i; j < n && acc[j].only == acc[i].only; j++)
			c += acc[j].count;
		for (r = 0; r < acc[i].n; r++)
			if ((uint32_t)acc[i].only[r] < nranks)
				out[acc[i].only[r]] += c;
		i = j;
	}
}

/*
 * out[r] = collectives rank r issues (an op on "each" instance counts once
 * per instance).  Steps with the same `only` list are summed first, so the
 * work is the steps plus the distinct lists, whatever `repeat` did.
 */
static int count_colls(struct hangdx_ctx *ctx, const struct hx_step *st,
		       size_t n, const struct hx_comm_group *groups,
		       uint32_t nranks, uint64_t *out)
{
	struct only_acc *acc = NULL;
	size_t nacc = 0, cap = 0, i;
	uint64_t all = 0;
	void *v;

	for (i = 0; i < n; i++) {
		uint64_t m;

		if (st[i].kind != HX_STEP_COLL)
			continue;
		m = st[i].instance < 0 ? groups[st[i].group].count : 1;
		if (!st[i].only) {
			all += m;
			continue;
		}
		if (nacc && acc[nacc - 1].only == st[i].only) {
			acc[nacc - 1].count += m;
			continue;
		}
		v = acc;
		if (hx_vec_reserve(ctx, &v, &cap, nacc + 1, sizeof *acc,
				   SIZE_MAX / sizeof *acc)) {
			hx_free(ctx, acc);
			return HANGDX_ENOMEM;
		}
		acc = v;
		acc[nacc++] = (struct only_acc){ st[i].only, st[i].nonly, m };
	}
	memset(out, 0, nranks * sizeof *out);
	acc_spread(acc, nacc, nranks, out);
	for (i = 0; i < nranks; i++)
		out[i] += all;
	hx_free(ctx, acc);
	return HANGDX_OK;
}

/* ==== faults ============================================================== */

enum {
	FF_RANK, FF_PEER, FF_AT, FF_TRANSPORT, FF_FACTOR, FF_OP, FF_TYPE,
	FF_BYTES, FF_ORDER, FF_OFFSET, FF_N
};
static const char *const fault_fields[FF_N] = {
	"rank", "peer", "at", "transport", "factor", "op", "type", "bytes",
	"order", "offset"
};

struct faultkind {
	const char *key;
	enum hx_fault_kind kind;
	unsigned allowed, required;
};

static const struct faultkind faultkinds[] = {
	{ "rank_death", HX_FAULT_RANK_DEATH, B(FF_RANK) | B(FF_AT),
	  B(FF_RANK) | B(FF_AT) },
	{ "link_error", HX_FAULT_LINK_ERROR,
	  B(FF_RANK) | B(FF_PEER) | B(FF_AT) | B(FF_TRANSPORT),
	  B(FF_RANK) | B(FF_PEER) | B(FF_AT) },
	{ "slow_rank", HX_FAULT_SLOW_RANK, B(FF_RANK) | B(FF_FACTOR),
	  B(FF_RANK) | B(FF_FACTOR) },
	{ "mismatch", HX_FAULT_MISMATCH,
	  B(FF_RANK) | B(FF_OP) | B(FF_TYPE) | B(FF_BYTES) | B(FF_ORDER),
	  B(FF_RANK) | B(FF_OP) },
	{ "clock_skew", HX_FAULT_CLOCK_SKEW, B(FF_RANK) | B(FF_OFFSET),
	  B(FF_RANK) | B(FF_OFFSET) },
};

struct faultvals {
	const struct yn *v[FF_N];
};

static bool ld_fault_fields(struct ld *ld, const struct faultkind *fk,
			    const struct yn *body, struct faultvals *fv)
{
	const char *keys[FF_N];
	const struct yn *vals[FF_N];
	unsigned idx[FF_N], f, n = 0, i;
	char where[48];

	for (f = 0; f < FF_N; f++) {
		fv->v[f] = NULL;
		if (fk->allowed & B(f)) {
			idx[n] = f;
			keys[n++] = fault_fields[f];
		}
	}
	snprintf(where, sizeof where, "%s fault", fk->key);
	if (!ld_fields(ld, body, where, keys, sizeof keys[0], n, vals))
		return false;
	for (i = 0; i < n; i++)
		fv->v[idx[i]] = vals[i];
	for (f = 0; f < FF_N; f++) {
		if ((fk->required & B(f)) && !fv->v[f]) {
			ld_err(ld, body, "%s needs '%s'", where, fault_fields[f]);
			return false;
		}
	}
	return true;
}

static bool ld_fault_link(struct ld *ld, struct hx_fault *f,
			  const struct faultvals *fv)
{
	static const char *const transports[] = { "sdma", "rdma", NULL };
	static const struct vtype tt = T_ENUM(transports);
	uint32_t rpn = ld->sc->ranks_per_node;
	union val x;

	if (f->peer == f->rank) {
		ld_err(ld, fv->v[FF_PEER], "a link joins two ranks; peer is "
		       "rank %d itself", f->rank);
		return false;
	}
	f->rdma = (uint32_t)f->rank / rpn != (uint32_t)f->peer / rpn;
	if (!fv->v[FF_TRANSPORT])
		return true;
	if (!ld_val(ld, fv->v[FF_TRANSPORT], "transport", &tt, &x))
		return false;
	f->rdma = x.u == 1;
	return true;
}

/* The op index must name a collective the rank issues (and op + 1 for a
 * swap). */
static bool ld_fault_op(struct ld *ld, struct hx_fault *f, const struct yn *at)
{
	uint64_t need = (uint64_t)f->op_index + (f->what == HX_MISMATCH_ORDER);
	uint32_t nranks = ld->sc->nranks;

	if (!ld->ranks_ok)
		return true;
	if (!ld->colls) {
		ld->colls = hx_arena_alloc(&ld->tree, nranks * sizeof *ld->colls);
		if (!ld->colls || count_colls(ld->ctx, ld->steps, ld->nsteps,
					      ld->groups, nranks, ld->colls)) {
			ld->colls = NULL;
			ld->nomem = true;
			return false;
		}
	}
	if (need < ld->colls[f->rank])
		return true;
	ld_err(ld, at, "rank %d issues %llu collectives (op counts from 0); "
	       "op %llu does not exist", f->rank,
	       (unsigned long long)ld->colls[f->rank], (unsigned long long)need);
	return false;
}

static bool ld_fault_mismatch(struct ld *ld, struct hx_fault *f,
			      const struct faultvals *fv)
{
	static const struct vtype top = T_U32(0, UINT32_MAX - 1);
	static const struct vtype tsize = { .kind = VT_SIZE,
					    .max = SC_MAX_BYTES };
	const struct yn *t = fv->v[FF_TYPE], *b = fv->v[FF_BYTES];
	const struct yn *o = fv->v[FF_ORDER];
	const char *s;
	union val x;

	if (!ld_val(ld, fv->v[FF_OP], "op", &top, &x))
		return false;
	f->op_index = (uint32_t)x.u;
	if (!!t + !!b + !!o != 1) {
		ld_err(ld, fv->v[FF_OP], "a mismatch takes exactly one of "
		       "'type', 'bytes' or 'order'");
		return false;
	}
	if (t) {
		f->what = HX_MISMATCH_TYPE;
		if (!(s = ld_str(ld, t, "type")))
			return false;
		if (hx_coll_parse(s, &f->coll) || f->coll == HX_COLL_SEND ||
		    f->coll == HX_COLL_RECV) {
			ld_err(ld, t, "bad value '%s' for 'type': expected one of "
			       "allreduce, allgather, reducescatter, broadcast "
			       "or alltoall", s);
			return false;
		}
	} else if (b) {
		f->what = HX_MISMATCH_SIZE;
		if (!ld_val(ld, b, "bytes", &tsize, &x))
			return false;
		f->bytes = x.u;
	} else {
		f->what = HX_MISMATCH_ORDER;
		if (!(s = ld_str(ld, o, "order")))
			return false;
		if (strcmp(s, "swap")) {
			ld_err(ld, o, "bad value '%s' for 'order': expected swap", s);
			return false;
		}
	}
	return ld_fault_op(ld, f, fv->v[FF_OP]);
}

static bool ld_fault_body(struct ld *ld, struct hx_fault *f,
			  const struct faultvals *fv)
{
	static const struct vtype trange = T_RANGE;
	static const struct vtype tskew = { .kind = VT_SDUR,
					    .max = SC_MAX_DUR_NS };
	static const struct vtype tfactor = T_REAL(0.0, 10000.0);
	union val x;

	if (!ld_rank(ld, fv->v[FF_RANK], "rank", &f->rank))
		return false;
	if (fv->v[FF_PEER] && !ld_rank(ld, fv->v[FF_PEER], "peer", &f->peer))
		return false;
	if (fv->v[FF_AT]) {
		if (!ld_val(ld, fv->v[FF_AT], "at", &trange, &x))
			return false;
		f->at_ns = x.r.lo;
		f->at_max_ns = x.r.hi;
	}
	switch (f->kind) {
	case HX_FAULT_LINK_ERROR:
		return ld_fault_link(ld, f, fv);
	case HX_FAULT_SLOW_RANK:
		if (!ld_val(ld, fv->v[FF_FACTOR], "factor", &tfactor, &x))
			return false;
		f->factor = x.d;
		return true;
	case HX_FAULT_MISMATCH:
		return ld_fault_mismatch(ld, f, fv);
	case HX_FAULT_CLOCK_SKEW:
		if (!ld_val(ld, fv->v[FF_OFFSET], "offset", &tskew, &x))
			return false;
		f->skew_ns = x.i;
		return true;
	default:
		return true;
	}
}

static void ld_push_fault(struct ld *ld, const struct hx_fault *f,
			  const struct yn *at)
{
	void *v = ld->faults;
	int err = hx_vec_reserve(ld->ctx, &v, &ld->capfaults, ld->nfaults + 1,
				 sizeof *f, HX_MAX_FAULTS);

	if (err == HANGDX_ENOMEM) {
		ld->nomem = true;
	} else if (err) {
		ld_err(ld, at, "more than %d faults", HX_MAX_FAULTS);
		ld->halt = true;
	} else {
		ld->faults = v;
		ld->faults[ld->nfaults++] = *f;
	}
}

static void ld_fault(struct ld *ld, const struct yn *item)
{
	const struct yn *vals[HX_ARRAY_LEN(faultkinds)];
	struct hx_fault f = { .peer = -1, .factor = 1.0 };
	struct faultvals fv;
	size_t i, found = HX_ARRAY_LEN(faultkinds);

	if (!ld_fields(ld, item, "a fault", KEYS(faultkinds), vals))
		return;
	for (i = 0; i < HX_ARRAY_LEN(faultkinds); i++) {
		if (!vals[i])
			continue;
		if (found < HX_ARRAY_LEN(faultkinds)) {
			ld_err(ld, item, "a fault has one kind; start a new "
			       "'- ' item for '%s'", faultkinds[i].key);
			return;
		}
		found = i;
	}
	if (found == HX_ARRAY_LEN(faultkinds)) {
		ld_err(ld, item, "this fault names no kind (rank_death, "
		       "link_error, slow_rank, mismatch or clock_skew)");
		return;
	}
	f.kind = faultkinds[found].kind;
	f.line = item->line;
	if (ld_fault_fields(ld, &faultkinds[found], vals[found], &fv) &&
	    ld_fault_body(ld, &f, &fv))
		ld_push_fault(ld, &f, item);
}

static void ld_faults(struct ld *ld, const struct yn *seq)
{
	const struct yn *it;

	if (!ld_list(ld, seq, "faults"))
		return;
	for (it = seq->kid; it && !ld_stopped(ld); it = it->next)
		ld_fault(ld, it);
}

/* ==== schedule (witness replay) =========================================== */

static const char *const sched_keys[] = { "rank", "grants" };
static const char *const grant_keys[] = { "kernel", "op", "aicpu", "task" };

static void ld_push_grant(struct ld *ld, const struct hx_grant_ref *g,
			  const struct yn *at)
{
	void *v = ld->grants;
	int err = hx_vec_reserve(ld->ctx, &v, &ld->capgrants, ld->ngrants + 1,
				 sizeof *ld->grants, HX_MAX_STEPS);

	if (err == HANGDX_ELIMIT) {
		ld_err(ld, at, "more than %d scheduled grants", HX_MAX_STEPS);
		ld->halt = true;
	} else if (err) {
		ld->nomem = true;
	} else {
		ld->grants = v;
		ld->grants[ld->ngrants++] = *g;
	}
}

/* {kernel: COMM, op: N} or {aicpu: STREAM, task: N} */
static void ld_grant(struct ld *ld, const struct yn *item, uint32_t rank)
{
	static const struct vtype u = { .kind = VT_U32, .max = UINT32_MAX };
	const struct yn *v[HX_ARRAY_LEN(grant_keys)];
	struct hx_grant_ref g;
	const char *name;
	bool ok = true;

	if (!ld_fields(ld, item, "a scheduled grant", KEYS(grant_keys), v))
		return;
	memset(&g, 0, sizeof g);
	g.rank = rank;
	g.line = item->line;
	g.col = item->col;
	g.kernel = v[0] != NULL;
	if (!v[0] == !v[2] || (g.kernel ? !v[1] || v[3] : !v[3] || v[1])) {
		ld_err(ld, item, "a scheduled grant is {kernel: COMM, op: N} "
		       "or {aicpu: STREAM, task: N}");
		return;
	}
	name = ld_name(ld, g.kernel ? v[0] : v[2], g.kernel ? "kernel" : "aicpu");
	g.n = (uint32_t)ld_get_u(ld, g.kernel ? v[1] : v[3],
				 g.kernel ? "op" : "task", &u, 0, &ok);
	if (!name || !ok)
		return;
	g.name = hx_arena_strdup(&ld->sc->arena, name);
	if (!g.name) {
		ld->nomem = true;
		return;
	}
	ld_push_grant(ld, &g, item);
}

static void ld_sched_item(struct ld *ld, const struct yn *item)
{
	static const struct vtype t = { .kind = VT_U32, .max = HX_MAX_RANKS - 1 };
	const struct yn *v[HX_ARRAY_LEN(sched_keys)], *it;
	bool ok = true;
	uint32_t rank;

	if (!ld_fields(ld, item, "a schedule item", KEYS(sched_keys), v))
		return;
	if (!v[0] || !v[1]) {
		ld_err(ld, item, "a schedule item needs 'rank' and 'grants'");
		return;
	}
	rank = (uint32_t)ld_get_u(ld, v[0], "rank", &t, 0, &ok);
	if (!ok || !ld_list(ld, v[1], "grants"))
		return;
	for (it = v[1]->kid; it && !ld_stopped(ld); it = it->next)
		ld_grant(ld, it, rank);
}

static void ld_schedule(struct ld *ld, const struct yn *seq)
{
	const struct yn *it;

	if (!ld_list(ld, seq, "schedule"))
		return;
	for (it = seq->kid; it && !ld_stopped(ld); it = it->next)
		ld_sched_item(ld, it);
}

/* ==== sequence (witness replay) =========================================== */

static const char *const seq_keys[] = { "rank", "call", "stream", "task" };

/* {rank: R, call: N} or {rank: R, stream: LABEL, task: N} */
static void ld_seq_item(struct ld *ld, const struct yn *item)
{
	static const struct vtype tr = { .kind = VT_U32, .max = HX_MAX_RANKS - 1 };
	static const struct vtype u = { .kind = VT_U32, .max = UINT32_MAX };
	const struct yn *v[HX_ARRAY_LEN(seq_keys)];
	struct hx_seq_ref q;
	const char *name = NULL;
	bool ok = true;
	void *vec = ld->seq;
	int err;

	if (!ld_fields(ld, item, "a sequence step", KEYS(seq_keys), v))
		return;
	if (!v[0] || (v[1] ? v[2] || v[3] : !v[2] || !v[3])) {
		ld_err(ld, item, "a sequence step is {rank: R, call: N} or "
		       "{rank: R, stream: NAME, task: N}");
		return;
	}
	memset(&q, 0, sizeof q);
	q.line = item->line;
	q.col = item->col;
	q.rank = (uint32_t)ld_get_u(ld, v[0], "rank", &tr, 0, &ok);
	q.call = v[1] != NULL;
	q.n = (uint32_t)ld_get_u(ld, q.call ? v[1] : v[3], q.call ? "call" : "task",
				 &u, 0, &ok);
	if (!q.call && !(name = ld_name(ld, v[2], "stream")))
		ok = false;
	if (!ok)
		return;
	if (name && !(q.stream = hx_arena_strdup(&ld->sc->arena, name))) {
		ld->nomem = true;
		return;
	}
	err = hx_vec_reserve(ld->ctx, &vec, &ld->capseq, ld->nseq + 1,
			     sizeof *ld->seq, HX_MAX_STEPS);
	if (err == HANGDX_ELIMIT) {
		ld_err(ld, item, "more than %d sequence steps", HX_MAX_STEPS);
		ld->halt = true;
	} else if (err) {
		ld->nomem = true;
	} else {
		ld->seq = vec;
		ld->seq[ld->nseq++] = q;
	}
}

static void ld_sequence(struct ld *ld, const struct yn *list)
{
	const struct yn *it;

	if (!ld_list(ld, list, "sequence"))
		return;
	for (it = list->kid; it && !ld_stopped(ld); it = it->next)
		ld_seq_item(ld, it);
}

/* ==== the whole scenario ================================================== */

static const char *const top_keys[] = {
	"name", "about", "cluster", "model", "run", "env", "rank_env",
	"communicators", "program", "faults", "schedule", "sequence"
};
enum {
	TK_NAME, TK_ABOUT, TK_CLUSTER, TK_MODEL, TK_RUN, TK_ENV, TK_RANK_ENV,
	TK_COMMS, TK_PROGRAM, TK_FAULTS, TK_SCHEDULE, TK_SEQUENCE
};

static void ld_top_strings(struct ld *ld, const struct yn **v)
{
	const char *s;

	if (v[TK_NAME] && (s = ld_name(ld, v[TK_NAME], "name")) &&
	    !(ld->sc->name = hx_arena_strdup(&ld->sc->arena, s)))
		ld->nomem = true;
	if (v[TK_ABOUT] && v[TK_ABOUT]->kind != YN_NULL)
		(void)ld_str(ld, v[TK_ABOUT], "about");
}

/* Without HCCL_OP_EXPANSION_MODE, A2 and 910 expand on the host. */
static void ld_product_mode(struct ld *ld)
{
	if (ld->sc->product != HX_PROD_A3 && !ld->sc->env.set_mode)
		ld->sc->env.mode = HX_MODE_HOST;
}

/* Sections in dependency order, whatever order the file has them in. */
static void ld_scenario(struct ld *ld, const struct yn *root)
{
	const struct yn *v[HX_ARRAY_LEN(top_keys)];

	if (root->kind != YN_MAP) {
		ld_err(ld, root, "a scenario must be a mapping of sections "
		       "(cluster:, communicators:, program:, ...), not %s",
		       yn_what(root));
		return;
	}
	if (!ld_fields(ld, root, "the scenario", KEYS(top_keys), v))
		return;
	ld_top_strings(ld, v);
	if (v[TK_CLUSTER])
		ld_knobs(ld, v[TK_CLUSTER], "cluster", cluster_knobs,
			 HX_ARRAY_LEN(cluster_knobs));
	if (v[TK_MODEL])
		ld_knobs(ld, v[TK_MODEL], "model", model_knobs,
			 HX_ARRAY_LEN(model_knobs));
	if (v[TK_RUN])
		ld_knobs(ld, v[TK_RUN], "run", run_knobs,
			 HX_ARRAY_LEN(run_knobs));
	if (v[TK_ENV])
		ld_env(ld, v[TK_ENV]);
	ld_product_mode(ld);
	if (v[TK_RANK_ENV] && !ld_stopped(ld))
		ld_rank_env(ld, v[TK_RANK_ENV]);
	if (v[TK_COMMS] && !ld_stopped(ld))
		ld_groups(ld, v[TK_COMMS]);
	if (v[TK_PROGRAM] && !ld_stopped(ld))
		ld_steps(ld, v[TK_PROGRAM]);
	if (v[TK_FAULTS] && !ld_stopped(ld))
		ld_faults(ld, v[TK_FAULTS]);
	if (v[TK_SCHEDULE] && !ld_stopped(ld))
		ld_schedule(ld, v[TK_SCHEDULE]);
	if (v[TK_SEQUENCE] && !ld_stopped(ld))
		ld_sequence(ld, v[TK_SEQUENCE]);
}

/* ---- moving the result into the scenario's arena ---- */

static void *arena_dup(struct ld *ld, const void *p, size_t n)
{
	void *d;

	if (!n)
		return NULL;
	d = hx_arena_alloc(&ld->sc->arena, n);
	if (!d)
		ld->nomem = true;
	else
		memcpy(d, p, n);
	return d;
}

static const char **ld_names_out(struct ld *ld, const struct hx_intern *in,
				 uint32_t *n)
{
	const char **out;
	size_t i;

	*n = (uint32_t)in->n;
	if (!in->n)
		return NULL;
	out = hx_arena_alloc(&ld->sc->arena, in->n * sizeof *out);
	if (!out) {
		ld->nomem = true;
		return NULL;
	}
	for (i = 0; i < in->n && !ld->nomem; i++)
		if (!(out[i] = hx_arena_strdup(&ld->sc->arena, in->strs[i])))
			ld->nomem = true;
	return out;
}

static int ovr_cmp(const void *a, const void *b)
{
	return int32_cmp(&((const struct hx_env_override *)a)->rank,
			 &((const struct hx_env_override *)b)->rank);
}

static void ld_finish(struct ld *ld)
{
	struct hangdx_scenario *sc = ld->sc;

	if (ld->novr)
		qsort(ld->ovr, ld->novr, sizeof *ld->ovr, ovr_cmp);
	sc->steps = arena_dup(ld, ld->steps, ld->nsteps * sizeof *ld->steps);
	sc->nsteps = (uint32_t)ld->nsteps;
	sc->faults = arena_dup(ld, ld->faults, ld->nfaults * sizeof *ld->faults);
	sc->nfaults = (uint32_t)ld->nfaults;
	sc->schedule.grants = arena_dup(ld, ld->grants,
					ld->ngrants * sizeof *ld->grants);
	sc->schedule.ngrants = (uint32_t)ld->ngrants;
	sc->schedule.seq = arena_dup(ld, ld->seq, ld->nseq * sizeof *ld->seq);
	sc->schedule.nseq = (uint32_t)ld->nseq;
	sc->overrides = arena_dup(ld, ld->ovr, ld->novr * sizeof *ld->ovr);
	sc->noverrides = (uint32_t)ld->novr;
	sc->groups = arena_dup(ld, ld->groups, ld->ngroups * sizeof *ld->groups);
	sc->ngroups = (uint32_t)ld->ngroups;
	sc->streams = ld_names_out(ld, &ld->names[NM_STREAM], &sc->nstreams);
	sc->events = ld_names_out(ld, &ld->names[NM_EVENT], &sc->nevents);
	sc->notifies = ld_names_out(ld, &ld->names[NM_NOTIFY], &sc->nnotifies);
}

static void ld_init(struct ld *ld, struct hangdx_scenario *sc,
		    const char *text, size_t len)
{
	size_t i;

	memset(ld, 0, sizeof *ld);
	ld->ctx = sc->ctx;
	ld->sc = sc;
	ld->file = sc->file;
	ld->text = text;
	ld->len = len;
	ld->ranks_ok = true;
	hx_arena_init(&ld->tree, sc->ctx, 0);
	for (i = 0; i < HX_ARRAY_LEN(ld->names); i++)
		hx_intern_init(&ld->names[i], sc->ctx, HX_MAX_NAMES);
	hx_intern_init(&ld->comm_names, sc->ctx, 2 * HX_MAX_COMMS);
}

static void ld_release(struct ld *ld)
{
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(ld->names); i++)
		hx_intern_free(&ld->names[i]);
	hx_intern_free(&ld->comm_names);
	hx_free(ld->ctx, ld->steps);
	hx_free(ld->ctx, ld->faults);
	hx_free(ld->ctx, ld->grants);
	hx_free(ld->ctx, ld->seq);
	hx_free(ld->ctx, ld->ovr);
	hx_free(ld->ctx, ld->groups);
	hx_arena_free(&ld->tree);
}

/* Parse and check the text into sc; returns the load's error code. */
static int ld_run(struct hangdx_scenario *sc, const char *text, size_t len)
{
	struct ld ld;
	struct yn *root;
	int err;

	ld_init(&ld, sc, text, len);
	root = ld_tree(&ld);
	if (root && root->kind != YN_NULL)
		ld_scenario(&ld, root);
	else if (!ld.errors && !ld.nomem)
		ld_err_at(&ld, 1, 1, "the scenario is empty");
	if (!ld.errors && !ld.nomem)
		ld_finish(&ld);
	err = ld.nomem ? HANGDX_ENOMEM : ld.errors ? HANGDX_EPARSE : HANGDX_OK;
	ld_release(&ld);
	return err;
}

/* A new scenario with the defaults, named defname, reporting as file. */
static struct hangdx_scenario *sc_new(struct hangdx_ctx *ctx,
				      const char *file, const char *defname)
{
	struct hangdx_scenario *sc = hx_calloc(ctx, 1, sizeof *sc);

	if (!sc)
		return NULL;
	sc->ctx = ctx;
	hx_arena_init(&sc->arena, ctx, 0);
	hx_scenario_defaults(sc);
	sc->file = hx_arena_strdup(&sc->arena, file);
	sc->name = hx_arena_strdup(&sc->arena, defname);
	if (!sc->file || !sc->name) {
		hangdx_scenario_free(sc);
		return NULL;
	}
	return sc;
}

static int load_text(struct hangdx_ctx *ctx, const char *file,
		     const char *defname, const char *text, size_t len,
		     struct hangdx_scenario **out)
{
	struct hangdx_scenario *sc;
	int err;

	if (len > SC_MAX_INPUT) {
		hx_diag(ctx, HANGDX_ERROR, file, 0, 0,
			"the scenario is larger than 16 MiB");
		return HANGDX_EPARSE;
	}
	sc = sc_new(ctx, file, defname);
	if (!sc)
		return HANGDX_ENOMEM;
	err = ld_run(sc, text, len);
	if (err) {
		hangdx_scenario_free(sc);
		return err;
	}
	*out = sc;
	return HANGDX_OK;
}

/* The file name without directories and a .yaml / .yml suffix. */
static void default_name(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	else if (len > 4 && strcmp(base + len - 4, ".yml") == 0)
		len -= 4;
	if (len >= n)
		len = n - 1;
	memcpy(buf, base, len);
	buf[len] = '\0';
}

int hangdx_scenario_load_mem(struct hangdx_ctx *ctx, const char *name,
			     const char *text, size_t len,
			     struct hangdx_scenario **out)
{
	char defname[SC_MAX_NAME + 1];

	if (!out)
		return HANGDX_EINVAL;
	*out = NULL;
	if (!ctx || (!text && len))
		return HANGDX_EINVAL;
	if (!name)
		name = "<memory>";
	default_name(name, defname, sizeof defname);
	return load_text(ctx, name, defname, text ? text : "", len, out);
}

/* Read all of fp into b (at most SC_MAX_INPUT bytes). */
static int read_all(struct hangdx_ctx *ctx, FILE *fp, const char *file,
		    struct hx_buf *b)
{
	char chunk[65536];
	size_t n;
	int err;

	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
		err = hx_buf_add(b, chunk, n);
		if (err == HANGDX_ELIMIT) {
			hx_diag(ctx, HANGDX_ERROR, file, 0, 0,
				"the scenario is larger than 16 MiB");
			return HANGDX_EPARSE;
		}
		if (err)
			return err;
	}
	if (ferror(fp)) {
		hx_diag(ctx, HANGDX_ERROR, file, 0, 0, "cannot read: %s",
			strerror(errno));
		return HANGDX_EIO;
	}
	return HANGDX_OK;
}

int hangdx_scenario_load(struct hangdx_ctx *ctx, const char *path,
			 struct hangdx_scenario **out)
{
	bool use_stdin;
	const char *file;
	char defname[SC_MAX_NAME + 1];
	struct hx_buf b;
	FILE *fp;
	int err;

	if (!out)
		return HANGDX_EINVAL;
	*out = NULL;
	if (!ctx || !path)
		return HANGDX_EINVAL;
	use_stdin = strcmp(path, "-") == 0;
	file = use_stdin ? "<stdin>" : path;
	fp = use_stdin ? stdin : fopen(path, "rb");
	if (!fp) {
		hx_diag(ctx, HANGDX_ERROR, file, 0, 0, "cannot open: %s",
			strerror(errno));
		return HANGDX_EIO;
	}
	hx_buf_init(&b, ctx, SC_MAX_INPUT);
	err = read_all(ctx, fp, file, &b);
	if (!use_stdin)
		fclose(fp);
	if (err)
		goto out_free_buf;
	default_name(use_stdin ? "stdin" : path, defname, sizeof defname);
	err = load_text(ctx, file, defname, b.p ? b.p : "", b.len, out);
out_free_buf:
	hx_buf_free(&b);
	return err;
}

int hangdx_scenario_preset(struct hangdx_ctx *ctx, const char *name,
			   struct hangdx_scenario **out)
{
	const char *const *names = hangdx_preset_names();
	const char *text = name ? hangdx_preset_text(name) : NULL;
	const char *hint;
	char file[SC_MAX_NAME + 16];
	size_t n;

	if (!out)
		return HANGDX_EINVAL;
	*out = NULL;
	if (!ctx || !name)
		return HANGDX_EINVAL;
	if (!text) {
		for (n = 0; names[n]; n++)
			;
		hint = suggest(name, names, sizeof *names, n);
		hx_diag(ctx, HANGDX_ERROR, NULL, 0, 0,
			"no preset '%s'%s%s%s", name, hint ? _("; did you mean '") : "",
			hint ? hint : "", hint ? _("'?") : "");
		return HANGDX_ENOTFOUND;
	}
	snprintf(file, sizeof file, "preset:%s", name);
	return load_text(ctx, file, name, text, strlen(text), out);
}

/* ==== --set =============================================================== */

static int set_error(struct hangdx_scenario *sc, const char *fmt, ...)
	HX_PRINTF(2, 3);
static int set_error(struct hangdx_scenario *sc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hx_vdiag(sc->ctx, HANGDX_ERROR, "--set", 0, 0, fmt, ap);
	va_end(ap);
	return HANGDX_EINVAL;
}

static int set_bad_value(struct hangdx_scenario *sc, const char *key,
			 const char *value, const struct vtype *t)
{
	char expect[160];

	val_expect(t, expect, sizeof expect);
	return set_error(sc, "bad value '%s' for '%s': expected %s", value, key,
			 expect);
}

/* ---- after ranks or communicators change: every reference still valid ---- */

struct refcheck {
	struct hangdx_scenario *sc;
	const char *key, *value;
	unsigned long bad;
	uint32_t last_line;
};

static void rc_err(struct refcheck *rc, uint32_t line, const char *fmt, ...)
	HX_PRINTF(3, 4);
static void rc_err(struct refcheck *rc, uint32_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (line && line == rc->last_line)
		return;
	rc->last_line = line;
	if (++rc->bad > SC_MAX_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, _(fmt), ap);
	va_end(ap);
	hx_diag(rc->sc->ctx, HANGDX_ERROR, rc->sc->file, line, 0,
		"%s (after --set %s=%s)", msg, rc->key, rc->value);
}

static void rc_env_groups(struct refcheck *rc)
{
	const struct hangdx_scenario *sc = rc->sc;
	uint32_t i;

	for (i = 0; i < sc->noverrides; i++)
		if ((uint32_t)sc->overrides[i].rank >= sc->nranks)
			rc_err(rc, 0, "rank_env names rank %d, but the cluster "
			       "has %u ranks", sc->overrides[i].rank, sc->nranks);
	for (i = 0; i < sc->ngroups; i++) {
		const struct hx_comm_group *g = &sc->groups[i];

		if (g->ranks && (uint32_t)g->ranks[g->nranks - 1] >= sc->nranks)
			rc_err(rc, 0, "communicator '%s' has rank %d, but the "
			       "cluster has %u ranks", g->name,
			       g->ranks[g->nranks - 1], sc->nranks);
	}
	if (hx_scenario_ncomms(sc) > HX_MAX_COMMS)
		rc_err(rc, 0, "communicators add up to more than %d instances",
		       HX_MAX_COMMS);
}

static void rc_coll(struct refcheck *rc, const struct hx_step *st)
{
	const struct hangdx_scenario *sc = rc->sc;
	const struct hx_comm_group *g = &sc->groups[st->group];
	uint32_t size = g->ranks ? g->nranks : sc->nranks;
	int32_t global;

	if (st->instance >= 0 && (uint32_t)st->instance >= g->count)
		rc_err(rc, st->line, "communicator '%s%d' does not exist: '%s' "
		       "has %u", g->name, st->instance + 1, g->name, g->count);
	if (st->coll == HX_COLL_BROADCAST && (uint32_t)st->root >= size)
		rc_err(rc, st->line, "broadcast root %d is outside communicator "
		       "'%s' (%u ranks)", st->root, g->name, size);
	if (st->coll != HX_COLL_SEND && st->coll != HX_COLL_RECV)
		return;
	if ((uint32_t)st->peer >= size) {
		rc_err(rc, st->line, "peer %d is outside communicator '%s' (%u "
		       "ranks)", st->peer, g->name, size);
		return;
	}
	global = g->ranks ? g->ranks[st->peer] : st->peer;
	if (step_issued_by(st, global))
		rc_err(rc, st->line, "rank %d would send to or receive from "
		       "itself", global);
}

static void rc_steps(struct refcheck *rc)
{
	const struct hangdx_scenario *sc = rc->sc;
	uint32_t i;

	for (i = 0; i < sc->nsteps; i++) {
		const struct hx_step *st = &sc->steps[i];

		if (st->only && (uint32_t)st->only[st->nonly - 1] >= sc->nranks)
			rc_err(rc, st->line, "the step names rank %d, but the "
			       "cluster has %u ranks", st->only[st->nonly - 1],
			       sc->nranks);
		if (st->kind == HX_STEP_COLL)
			rc_coll(rc, st);
	}
}

static int rc_mismatch(struct refcheck *rc)
{
	struct hangdx_scenario *sc = rc->sc;
	uint64_t *colls = NULL;
	uint32_t i;

	for (i = 0; i < sc->nfaults; i++) {
		const struct hx_fault *f = &sc->faults[i];
		uint64_t need = (uint64_t)f->op_index +
				(f->what == HX_MISMATCH_ORDER);

		if (f->kind != HX_FAULT_MISMATCH ||
		    (uint32_t)f->rank >= sc->nranks)
			continue;
		if (!colls) {
			colls = hx_calloc(sc->ctx, sc->nranks, sizeof *colls);
			if (!colls || count_colls(sc->ctx, sc->steps, sc->nsteps,
						  sc->groups, sc->nranks, colls)) {
				hx_free(sc->ctx, colls);
				return HANGDX_ENOMEM;
			}
		}
		if (need >= colls[f->rank])
			rc_err(rc, f->line, "mismatch op %llu: rank %d issues "
			       "only %llu collectives", (unsigned long long)need,
			       f->rank, (unsigned long long)colls[f->rank]);
	}
	hx_free(sc->ctx, colls);
	return HANGDX_OK;
}

static void rc_faults(struct refcheck *rc)
{
	const struct hangdx_scenario *sc = rc->sc;
	uint32_t i;

	for (i = 0; i < sc->nfaults; i++) {
		const struct hx_fault *f = &sc->faults[i];

		if ((uint32_t)f->rank >= sc->nranks ||
		    (f->kind == HX_FAULT_LINK_ERROR &&
		     (uint32_t)f->peer >= sc->nranks))
			rc_err(rc, f->line, "the fault names rank %d, but the "
			       "cluster has %u ranks",
			       (uint32_t)f->rank >= sc->nranks ? f->rank : f->peer,
			       sc->nranks);
	}
}

/* Every rank, peer, instance and op the scenario names still exists. */
static int sc_check_refs(struct hangdx_scenario *sc, const char *key,
			 const char *value)
{
	struct refcheck rc = { sc, key, value, 0, 0 };
	int err;

	rc_env_groups(&rc);
	rc_steps(&rc);
	rc_faults(&rc);
	err = rc_mismatch(&rc);
	if (err)
		return err;
	if (rc.bad > SC_MAX_MSGS)
		hx_diag(sc->ctx, HANGDX_ERROR, sc->file, 0, 0,
			"%lu more errors like these", rc.bad - SC_MAX_MSGS);
	return rc.bad ? HANGDX_EINVAL : HANGDX_OK;
}

/* ---- the keys ---- */

static int set_ranks(struct hangdx_scenario *sc, const char *key,
		     const char *value)
{
	uint32_t old = sc->nranks;
	union val v;
	int err;

	if (!val_parse(&cluster_knobs[0].t, value, &v))
		return set_bad_value(sc, key, value, &cluster_knobs[0].t);
	sc->nranks = (uint32_t)v.u;
	err = sc_check_refs(sc, key, value);
	if (err)
		sc->nranks = old;
	return err;
}

static int set_comms(struct hangdx_scenario *sc, const char *key,
		     const char *value)
{
	static const struct vtype t = T_U32(1, HX_MAX_COMMS);
	struct hx_comm_group *g = NULL;
	uint32_t i, old;
	union val v;
	int err;

	for (i = 0; i < sc->ngroups && !g; i++)
		if (sc->groups[i].count_from_set)
			g = &sc->groups[i];
	if (!g)
		return set_error(sc, "'%s' needs a communicator with 'sweep: "
				 "true' or a count above 1", key);
	if (!val_parse(&t, value, &v))
		return set_bad_value(sc, key, value, &t);
	old = g->count;
	g->count = (uint32_t)v.u;
	err = sc_check_refs(sc, key, value);
	if (err)
		g->count = old;
	return err;
}

/* Apply fn to the scenario's environment and every rank override. */
static void set_each_env(struct hangdx_scenario *sc,
			 void (*fn)(struct hx_env *env, uint64_t v), uint64_t v)
{
	uint32_t i;

	fn(&sc->env, v);
	for (i = 0; i < sc->noverrides; i++)
		fn(&sc->overrides[i].env, v);
}

static void env_set_retry(struct hx_env *env, uint64_t v)
{
	env->retry[0] = env->retry[1] = (uint8_t)v;
	env->retry_has_l0 = true;
	env->set_retry = true;
}

static void env_set_timeout(struct hx_env *env, uint64_t v)
{
	env->exec_timeout_s = (uint32_t)v;
	env->set_exec_timeout = true;
}

static void env_set_mode(struct hx_env *env, uint64_t v)
{
	env->mode = (enum hx_mode)v;
	env->set_mode = true;
}

static void env_product_mode(struct hx_env *env, uint64_t v)
{
	if (!env->set_mode)
		env->mode = v == HX_PROD_A3 ? HX_MODE_AI_CPU : HX_MODE_HOST;
}

static int set_retry(struct hangdx_scenario *sc, const char *key,
		     const char *value)
{
	static const struct vtype t = T_BOOL;
	union val v;
	uint32_t i;

	if (!val_parse(&t, value, &v))
		return set_bad_value(sc, key, value, &t);
	set_each_env(sc, env_set_retry, v.b);
	for (i = 0; i < sc->ngroups; i++)
		sc->groups[i].retry = -1;
	return HANGDX_OK;
}

static int set_exec_timeout(struct hangdx_scenario *sc, const char *key,
			    const char *value)
{
	static const struct vtype t = T_U32(0, SC_MAX_TIMEOUT_S);
	union val v;
	uint32_t i;

	if (!val_parse(&t, value, &v))
		return set_bad_value(sc, key, value, &t);
	set_each_env(sc, env_set_timeout, v.u);
	for (i = 0; i < sc->ngroups; i++)
		sc->groups[i].exec_timeout_s = 0;
	return HANGDX_OK;
}

static int set_mode(struct hangdx_scenario *sc, const char *key,
		    const char *value)
{
	enum hx_mode m;

	if (hx_mode_parse(value, &m))
		return set_error(sc, "bad value '%s' for '%s': expected one of "
				 "AI_CPU, HOST, HOST_TS, AIV or AICPU_TS",
				 value, key);
	set_each_env(sc, env_set_mode, m);
	return HANGDX_OK;
}

static int set_product(struct hangdx_scenario *sc, const char *key,
		       const char *value)
{
	const struct knob *k = &cluster_knobs[4];
	union val v;

	if (!val_parse(&k->t, value, &v))
		return set_bad_value(sc, key, value, &k->t);
	knob_store(k, sc, &v);
	set_each_env(sc, env_product_mode, v.u);
	return HANGDX_OK;
}

/* "3,100,255": the ranks that issue every ordinary AICPU operator step
 * (each aicpu step's `ranks:`), as a scenario can say per step; the
 * reference incident on those ranks alone. */
static int set_aicpu_ranks(struct hangdx_scenario *sc, const char *key,
			   const char *value)
{
	const char *p = value;
	int32_t *r, **old;
	uint32_t n = 1, k = 0, i, *nold, naicpu = 0;
	int err;

	for (i = 0; value[i]; i++)
		n += value[i] == ',';
	r = n <= HX_MAX_RANKS ? hx_arena_alloc(&sc->arena, n * sizeof *r) : NULL;
	if (!r)
		return n <= HX_MAX_RANKS ? HANGDX_ENOMEM
			: set_error(sc, "'%s' lists more than %d ranks", key, HX_MAX_RANKS);
	while (k < n) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || v >= HX_MAX_RANKS || (*end && *end != ','))
			return set_error(sc, "bad value '%s' for '%s': expected rank "
					 "numbers separated by commas", value, key);
		r[k++] = (int32_t)v;
		p = end + (*end == ',');
	}
	qsort(r, n, sizeof *r, int32_cmp);
	for (i = 1; i < n; i++)
		if (r[i] == r[i - 1])
			return set_error(sc, "rank %d is listed twice in '%s'", r[i], key);
	for (i = 0; i < sc->nsteps; i++)
		naicpu += sc->steps[i].kind == HX_STEP_AICPU;
	if (!naicpu)
		return set_error(sc, "'%s' needs an aicpu step", key);
	old = hx_arena_alloc(&sc->arena, naicpu * sizeof *old);
	nold = hx_arena_alloc(&sc->arena, naicpu * sizeof *nold);
	if (!old || !nold)
		return HANGDX_ENOMEM;
	for (i = 0, k = 0; i < sc->nsteps; i++) {
		struct hx_step *st = &sc->steps[i];
		if (st->kind != HX_STEP_AICPU)
			continue;
		old[k] = st->only;
		nold[k++] = st->nonly;
		st->only = r;
		st->nonly = n;
	}
	err = sc_check_refs(sc, key, value);
	for (i = 0, k = 0; err && i < sc->nsteps; i++)
		if (sc->steps[i].kind == HX_STEP_AICPU) {
			sc->steps[i].only = old[k];
			sc->steps[i].nonly = nold[k++];
		}
	return err;
}

struct setter {
	const char *key;
	int (*fn)(struct hangdx_scenario *sc, const char *key,
		  const char *value);
};

static const struct setter setters[] = {
	{ "ranks", set_ranks },
	{ "communicators", set_comms },
	{ "retry", set_retry },
	{ "exec_timeout", set_exec_timeout },
	{ "mode", set_mode },
	{ "product", set_product },
	{ "aicpu_ranks", set_aicpu_ranks },
};

struct knobtab {
	const struct knob *k;
	size_t n;
};

static const struct knobtab knobtabs[] = {
	{ cluster_knobs, HX_ARRAY_LEN(cluster_knobs) },
	{ model_knobs, HX_ARRAY_LEN(model_knobs) },
	{ run_knobs, HX_ARRAY_LEN(run_knobs) },
	{ set_only_knobs, HX_ARRAY_LEN(set_only_knobs) },
};

static const struct knob *knob_by_set_key(const char *key)
{
	size_t t, i;

	for (t = 0; t < HX_ARRAY_LEN(knobtabs); t++)
		for (i = 0; i < knobtabs[t].n; i++)
			if (knobtabs[t].k[i].set_key &&
			    strcmp(knobtabs[t].k[i].set_key, key) == 0)
				return &knobtabs[t].k[i];
	return NULL;
}

static int set_unknown(struct hangdx_scenario *sc, const char *key)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, t;

	suggest_in(key, &setters[0].key, sizeof setters[0],
		   HX_ARRAY_LEN(setters), &best, &bestd);
	for (t = 0; t < HX_ARRAY_LEN(knobtabs); t++)
		suggest_in(key, &knobtabs[t].k[0].set_key, sizeof(struct knob),
			   knobtabs[t].n, &best, &bestd);
	if (best)
		return set_error(sc, "unknown key '%s'; did you mean '%s'?", key,
				 best);
	return set_error(sc, "unknown key '%s' (the keys: docs/SCENARIO.md)",
			 key);
}

int hangdx_scenario_set(struct hangdx_scenario *sc, const char *key,
			const char *value)
{
	const struct knob *k;
	union val v;
	size_t i;

	if (!sc)
		return HANGDX_EINVAL;
	if (!key || !value)
		return set_error(sc, "a setting needs a key and a value");
	for (i = 0; i < HX_ARRAY_LEN(setters); i++)
		if (strcmp(setters[i].key, key) == 0)
			return setters[i].fn(sc, key, value);
	k = knob_by_set_key(key);
	if (!k)
		return set_unknown(sc, key);
	if (!val_parse(&k->t, value, &v))
		return set_bad_value(sc, key, value, &k->t);
	knob_store(k, sc, &v);
	return HANGDX_OK;
}
