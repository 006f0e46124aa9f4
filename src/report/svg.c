/*
 * svg.c - the SVG of the HTML report (html.c).  Graphviz's drawing of the
 * wait-for graph is checked and trimmed so it can be inlined: only the
 * drawing elements dot emits, no event handler, link, style or external
 * reference, no prolog or comments.  The timeline of the ranks involved is
 * drawn here from the diagnosis: first failure, first error line, LOST
 * reports, link errors, op retries and the last log line of each rank on
 * one clock-corrected axis.  Log text reaches it only through
 * hx_html_escape.  Times come from the logs and facts files and may be
 * anything an int64_t holds, so the axis is computed with checked sums.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "../analyze/analyze.h"
#include "report.h"

/* ---- Graphviz's SVG, inlined ---- */

static const char *const svg_tags[] = {
	"svg", "g", "title", "polygon", "polyline", "path", "ellipse",
	"text", "tspan", "defs", "linearGradient", "radialGradient", "stop",
	NULL
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Does s[0..n) contain lit (ASCII, any case)? */
static bool has_ci(const char *s, size_t n, const char *lit)
{
	size_t m = strlen(lit), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m && lower(s[i + j]) == lit[j]; j++)
			;
		if (j == m)
			return true;
	}
	return false;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == ':' || c == '-' || c == '_';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static bool tag_allowed(const char *name, size_t n)
{
	const char *const *t;

	for (t = svg_tags; *t; t++)
		if (strlen(*t) == n && memcmp(*t, name, n) == 0)
			return true;
	return false;
}

/* No handler (on*), no link (*href*), no style; in values no reference
 * (&), no CSS escape (\) and no url() other than to a fragment. */
static bool attr_allowed(const char *name, size_t n, const char *val,
			 size_t vn)
{
	size_t i;

	if ((n >= 2 && lower(name[0]) == 'o' && lower(name[1]) == 'n') ||
	    has_ci(name, n, "href") || has_ci(name, n, "style"))
		return false;
	for (i = 0; i < vn; i++)
		if (val[i] == '&' || val[i] == '\\' || val[i] == '<')
			return false;
	for (i = 0; i + 4 <= vn; i++)
		if (has_ci(val + i, 4, "url(") && (i + 4 >= vn || val[i + 4] != '#'))
			return false;
	return true;
}

/* The attributes of a start tag, from p to its '>' or "/>"; returns the
 * end of the tag, NULL when an attribute is not allowed. */
static const char *scan_attrs(const char *p, bool *self_closing)
{
	for (;;) {
		const char *an, *v;
		char quote;

		while (is_space(*p))
			p++;
		if (*p == '>')
			return p + 1;
		if (p[0] == '/' && p[1] == '>') {
			*self_closing = true;
			return p + 2;
		}
		for (an = p; is_name_char(*p); p++)
			;
		if (p == an || *p != '=')
			return NULL;
		quote = *++p;
		if (quote != '"' && quote != '\'')
			return NULL;
		for (v = ++p; *p && *p != quote; p++)
			;
		if (!*p || !attr_allowed(an, (size_t)(v - 2 - an), v, (size_t)(p - v)))
			return NULL;
		p++;
	}
}

/* One tag at p ('<'); returns its end or NULL when not allowed.  depth
 * counts the open <svg>: one, first. */
static const char *scan_tag(const char *p, int *depth, bool *seen_svg)
{
	const char *name;
	bool closing = p[1] == '/', self_closing = false, svg;
	size_t n;

	p += 1 + closing;
	for (name = p; is_name_char(*p) && *p != ':'; p++)
		;
	n = (size_t)(p - name);
	svg = n == 3 && memcmp(name, "svg", 3) == 0;
	if (!tag_allowed(name, n) || (svg && !closing && *seen_svg) ||
	    (!svg && !*seen_svg))
		return NULL;
	if (closing) {
		while (is_space(*p))
			p++;
		if (*p != '>')
			return NULL;
		*depth -= svg;
		return p + 1;
	}
	p = scan_attrs(p, &self_closing);
	if (p && svg) {
		*seen_svg = true;
		*depth += !self_closing;
	}
	return p;
}

static const char *svg_start(const char *s)
{
	const char *p = s;

	while ((p = strstr(p, "<svg")) && !is_space(p[4]) && p[4] != '>')
		p += 4;
	return p;
}

/* One pass over the SVG: check it, and write it when fp is not NULL. */
static int svg_pass(FILE *fp, const char *svg)
{
	const char *p = svg_start(svg), *e;
	int depth = 0;
	bool seen = false;

	if (!p)
		return -1;
	do {
		if (strncmp(p, "<!--", 4) == 0) {
			if (!(e = strstr(p + 4, "-->")))
				return -1;
			p = e + 3;
			continue;
		}
		if (*p == '<')
			e = scan_tag(p, &depth, &seen);
		else
			e = strchr(p, '<');
		if (!e)
			return -1;
		if (fp)
			fwrite(p, 1, (size_t)(e - p), fp);
		p = e;
	} while (depth > 0);
	if (fp)
		fputc('\n', fp);
	return 0;
}

int hx_svg_inline(FILE *fp, const char *svg)
{
	if (!svg || svg_pass(NULL, svg) != 0)
		return -1;
	return svg_pass(fp, svg);
}

/* ---- the timeline ---- */

#define TL_ROWS 24          /* ranks drawn at most */
#define TL_W 1000.0
#define TL_LEFT 180.0
#define TL_RIGHT 975.0
#define TL_TOP 40.0
#define TL_ROW 30.0

enum tl_mark { M_FAIL, M_ERR, M_LOST, M_LINK, M_AICPU, M_SQFULL, M_STUCK,
	       M_RETRY, M_LAST, M_COUNT };

static const struct {
	const char *what, *color;
} tl_marks[M_COUNT] = {
	{ N_("first failure"), "#cf222e" },
	{ N_("first ERROR line"), "#bc4c00" },
	{ N_("reported LOST"), "#1f2328" },
	{ N_("link error"), "#8250df" },
	{ N_("AICPU op timeout"), "#bc4c00" },
	{ N_("submission queue full"), "#953800" },
	{ N_("STUCK report"), "#57606a" },
	{ N_("last op retry"), "#0969da" },
	{ N_("last log line"), "#57606a" },
};

struct tl_point {
	int kind;               /* enum tl_mark */
	int64_t ts;             /* clock-corrected */
	uint32_t rec;
};

struct tl_row {
	uint32_t r;
	struct tl_point p[M_COUNT];
	int np;
};

/* *r = a + b, or false when the sum does not fit (*r untouched). */
static bool add_ok(int64_t a, int64_t b, int64_t *r)
{
	if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
		return false;
	*r = a + b;
	return true;
}

/* a + b, clamped to the times that are not HX_NONE (INT64_MIN). */
static int64_t ts_add(int64_t a, int64_t b)
{
	int64_t r;

	if (!add_ok(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN + 1;
	return r == HX_NONE ? INT64_MIN + 1 : r;
}

/* a - b, clamped likewise. */
static int64_t ts_sub(int64_t a, int64_t b)
{
	if (b == INT64_MIN)             /* -b does not fit */
		return a >= 0 ? INT64_MAX : a - b;
	return ts_add(a, -b);
}

/* a - b as a double: exact where it fits in an int64_t, as before. */
static double ts_gap(int64_t a, int64_t b)
{
	int64_t r;

	if (b != INT64_MIN && add_ok(a, -b, &r))
		return (double)r;
	return (double)a - (double)b;
}

struct tl {
	const struct hangdx_diagnosis *d;
	struct tl_row rows[TL_ROWS];
	int nrows;
	uint32_t more;          /* involved ranks not drawn */
	int64_t lo, hi, origin; /* axis and its zero */
	unsigned used;          /* mark kinds drawn, for the legend */
};

/* A record's time on the clock of the rank that logged it, corrected. */
static int64_t rec_time(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int64_t ts;
	int32_t r;

	if (rec == HX_NOREC)
		return HX_NONE;
	ts = d->ev->recs[rec].ts;
	r = hx_drank(d, rec);
	if (ts != HX_NONE && r >= 0 && (uint32_t)r < d->nranks)
		ts = ts_sub(ts, d->ranks[r].skew_us);
	return ts;
}

static void add_point(struct tl_row *row, int kind, int64_t ts, uint32_t rec)
{
	int i;

	if (ts == HX_NONE)
		return;
	for (i = 0; rec != HX_NOREC && i < row->np; i++)
		if (row->p[i].rec == rec)
			return;
	row->p[row->np].kind = kind;
	row->p[row->np].ts = ts;
	row->p[row->np].rec = rec;
	row->np++;
}

static void fill_row(const struct hangdx_diagnosis *d, struct tl_row *row)
{
	const struct hx_rankinfo *ri = &d->ranks[row->r];

	row->np = 0;
	if (ri->fail_rec != HX_NOREC)
		add_point(row, M_FAIL, ri->first_err_ts, ri->fail_rec);
	add_point(row, M_ERR, rec_time(d, ri->first_err_rec), ri->first_err_rec);
	if (ri->lost)
		add_point(row, M_LOST, rec_time(d, ri->lost_rec), ri->lost_rec);
	add_point(row, M_LINK, rec_time(d, ri->link_rec), ri->link_rec);
	add_point(row, M_AICPU, rec_time(d, ri->aicpu_timeout_rec),
		  ri->aicpu_timeout_rec);
	add_point(row, M_SQFULL, rec_time(d, ri->sq_full_rec), ri->sq_full_rec);
	add_point(row, M_STUCK, rec_time(d, ri->stuck_rec), ri->stuck_rec);
	add_point(row, M_RETRY, rec_time(d, ri->retry_rec), ri->retry_rec);
	if (ri->last_ts != HX_NONE)
		add_point(row, M_LAST, ts_sub(ri->last_ts, ri->skew_us), HX_NOREC);
}

static void pick(uint8_t *sel, const struct hangdx_diagnosis *d, int64_t r)
{
	if (r >= 0 && (uint64_t)r < d->nranks)
		sel[r] = 1;
}

/* The ranks involved: every rank of a small job; else the root, the
 * first failing, every hop's, the lost ones and the first of each group.
 * In rank order, TL_ROWS at most. */
static int choose_rows(struct tl *t)
{
	const struct hangdx_diagnosis *d = t->d;
	uint8_t *sel = hx_calloc(d->ctx, d->nranks + 1, 1);
	uint32_t r;
	size_t i;

	if (!sel)
		return HANGDX_ENOMEM;
	pick(sel, d, d->root_rank);
	for (i = 0; i < d->nroots; i++)
		pick(sel, d, d->roots[i]);
	pick(sel, d, d->first_rank);
	for (i = 0; i < d->nhops; i++)
		pick(sel, d, d->hops[i].rank);
	for (i = 0; i < d->ngroups; i++)
		if (d->groups[i].nranks)
			pick(sel, d, d->groups[i].ranks[0]);
	for (r = 0; r < d->nranks; r++) {
		if (d->ranks[r].lost || d->nranks <= TL_ROWS)
			sel[r] = 1;
		if (!sel[r])
			continue;
		if (t->nrows == TL_ROWS) {
			t->more++;
			continue;
		}
		t->rows[t->nrows].r = r;
		fill_row(d, &t->rows[t->nrows++]);
	}
	hx_free(d->ctx, sel);
	return HANGDX_OK;
}

/* The axis: every point, padded, at least 1 ms wide. */
static bool set_axis(struct tl *t)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, span, pad;
	int i, j;

	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->rows[i].np; j++) {
			int64_t ts = t->rows[i].p[j].ts;
			lo = ts < lo ? ts : lo;
			hi = ts > hi ? ts : hi;
		}
	if (lo > hi)
		return false;
	t->origin = t->d->first_ts != HX_NONE ? t->d->first_ts : lo;
	span = ts_sub(hi, lo);          /* at most INT64_MAX */
	if (span < 1000) {
		lo = ts_sub(lo, (1000 - span) / 2);
		hi = ts_add(lo, 1000);
		span = 1000;
	}
	pad = span / 25;
	t->lo = ts_sub(lo, pad);
	t->hi = ts_add(hi, pad);
	return true;
}

static double tl_x(const struct tl *t, int64_t ts)
{
	return TL_LEFT + ts_gap(ts, t->lo) * (TL_RIGHT - TL_LEFT) /
			 ts_gap(t->hi, t->lo);
}

/* A tick step giving about eight ticks, in round units. */
static int64_t tick_step(int64_t span)
{
	static const int64_t steps[] = {
		1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
		20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000,
		10000000, 15000000, 30000000, 60000000, 120000000, 300000000,
		600000000, 900000000, 1800000000, 3600000000, 7200000000,
		21600000000, 43200000000, 86400000000
	};
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(steps); i++)
		if (steps[i] * 8 >= span)
			return steps[i];
	return steps[HX_ARRAY_LEN(steps) - 1] * (span / (8 * 86400000000) + 1);
}

/* "0", "+5 s", "−200 ms": a multiple of step, in step's unit. */
static void tick_label(int64_t v, int64_t step, char *buf, size_t n)
{
	static const struct {
		int64_t us;
		const char *unit;
	} units[] = { { 3600000000, "h" }, { 60000000, "min" }, { 1000000, "s" },
		      { 1000, "ms" }, { 1, "\xc2\xb5s" } };
	size_t i = 0;

	while (units[i].us > step || step % units[i].us)
		i++;
	if (v == 0)
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, "%s%lld %s", v > 0 ? "+" : "\xe2\x88\x92",
			 (long long)((v < 0 ? -v : v) / units[i].us), units[i].unit);
}

/* One tick at time at, labelled v from the origin; none left of the axis. */
static void draw_tick(FILE *fp, const struct tl *t, int64_t at, int64_t v,
		      int64_t step, double bottom)
{
	double x = tl_x(t, at);
	char lab[48];

	if (x < TL_LEFT - 0.5)
		return;
	tick_label(v, step, lab, sizeof lab);
	fprintf(fp, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">%s</text>\n",
		x, TL_TOP - 6, x, bottom, x, TL_TOP - 12, lab);
}

/* The ticks, multiples of step from the origin, up to the axis's end or
 * the end of the int64_t range, and the origin's line. */
static void draw_axis(FILE *fp, const struct tl *t, double bottom)
{
	int64_t step = tick_step(ts_sub(t->hi, t->lo));
	int64_t v = ts_sub(t->lo, t->origin) / step * step, at;

	while (add_ok(t->origin, v, &at) && at <= t->hi) {
		draw_tick(fp, t, at, v, step, bottom);
		if (!add_ok(v, step, &v))
			break;
	}
	if (t->d->first_ts != HX_NONE) {
		double x = tl_x(t, t->origin);
		fprintf(fp, "<line class=\"zero\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/>\n", x, TL_TOP - 6, x, bottom);
	}
}

static void draw_shape(FILE *fp, int kind, double x, double y)
{
	const char *c = tl_marks[kind].color;

	switch (kind) {
	case M_FAIL:
		fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6.5\" fill=\"%s\"/>", x, y, c);
		break;
	case M_ERR:
	case M_AICPU:
		fprintf(fp, "<path d=\"M%.1f %.1fl6 7-6 7-6-7z\" fill=\"%s\"/>", x, y - 7, c);
		break;
	case M_LOST:
		fprintf(fp, "<path d=\"M%.1f %.1fl12 12m0-12l-12 12\" stroke=\"%s\" "
			    "stroke-width=\"3\"/>", x - 6, y - 6, c);
		break;
	case M_LINK:
	case M_SQFULL:
		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" "
			    "fill=\"%s\"/>", x - 5.5, y - 5.5, c);
		break;
	case M_STUCK:
		fprintf(fp, "<path d=\"M%.1f %.1fh14l-7 12z\" fill=\"%s\"/>", x - 7, y - 6, c);
		break;
	case M_RETRY:
		fprintf(fp, "<path d=\"M%.1f %.1fl7 12h-14z\" fill=\"%s\"/>", x, y - 7, c);
		break;
	default:
		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"18\" "
			    "fill=\"%s\"/>", x - 1.5, y - 9, c);
		break;
	}
}

static void point_title(FILE *fp, const struct tl *t, uint32_t r,
			const struct tl_point *p)
{
	char ts[32], where[600];

	hx_format_ts(p->ts, ts);
	fprintf(fp, _("<title>rank %u: %s at %s"), r, _(tl_marks[p->kind].what), ts);
	if (p->rec != HX_NOREC) {
		hx_dwhere(t->d, p->rec, where, sizeof where);
		fprintf(fp, " (%s, ", hx_kind_name(t->d->ev->recs[p->rec].kind));
		hx_html_escape(fp, where);
		fputc(')', fp);
	}
	fputs("</title>", fp);
}

/* "rank 3" or, for a process whose rank the logs do not give, "pid N". */
static void rank_name(FILE *fp, const struct hx_rankinfo *ri)
{
	if (ri->pseudo && ri->pseudo_pid >= 0)
		fprintf(fp, _("rank ? pid %lld"), (long long)ri->pseudo_pid);
	else if (ri->pseudo)
		fputs(_("rank ?"), fp);
	else
		fprintf(fp, "rank %d", ri->rank);
}

static void draw_row(FILE *fp, const struct tl *t, int i)
{
	const struct tl_row *row = &t->rows[i];
	const struct hx_rankinfo *ri = &t->d->ranks[row->r];
	double y = TL_TOP + TL_ROW * i + TL_ROW / 2, a = TL_RIGHT, b = TL_LEFT;
	int j;

	if (i % 2)
		fprintf(fp, "<rect class=\"stripe\" x=\"0\" y=\"%.1f\" width=\"%.0f\" "
			    "height=\"%.0f\"/>\n", y - TL_ROW / 2, TL_W, TL_ROW);
	fprintf(fp, "<text class=\"rl\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
		TL_LEFT - 14, y + 4);
	rank_name(fp, ri);
	if (ri->device >= 0)
		fprintf(fp, _(" \xc2\xb7 dev %lld"), (long long)ri->device);
	if (ri->role == HX_ROLE_ROOT)
		fprintf(fp, "<tspan fill=\"#b00020\" font-weight=\"bold\">%s</tspan>",
			_(" \xc2\xb7 root"));
	fputs("</text>\n", fp);
	for (j = 0; j < row->np; j++) {
		double x = tl_x(t, row->p[j].ts);
		a = x < a ? x : a;
		b = x > b ? x : b;
	}
	if (!row->np)
		fprintf(fp, _("<text class=\"none\" x=\"%.0f\" y=\"%.1f\">no timestamped "
			    "lines</text>\n"), TL_LEFT + 8, y + 4);
	else if (b > a)
		fprintf(fp, "<line class=\"span\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\"/>\n", a, y, b, y);
	for (j = row->np - 1; j >= 0; j--) {
		fputs("<g>", fp);
		point_title(fp, t, row->r, &row->p[j]);
		draw_shape(fp, row->p[j].kind, tl_x(t, row->p[j].ts), y);
		fputs("</g>\n", fp);
	}
}

/* The legend of the marks drawn, wrapped at the width; with fp NULL it
 * only measures.  Returns the y of its last line. */
static double legend(FILE *fp, const struct tl *t, double y)
{
	double x = 12, w;
	int k;

	for (k = 0; k < M_COUNT; k++) {
		if (!(t->used & (1u << k)))
			continue;
		w = 34 + 7.0 * (double)strlen(_(tl_marks[k].what));
		if (x + w > TL_W) {
			x = 12;
			y += 24;
		}
		if (fp) {
			draw_shape(fp, k, x + 7, y);
			fprintf(fp, "<text class=\"lg\" x=\"%.0f\" y=\"%.1f\">%s</text>\n",
				x + 20, y + 4, _(tl_marks[k].what));
		}
		x += w;
	}
	return y;
}

static void draw_timeline(FILE *fp, const struct tl *t)
{
	double bottom = TL_TOP + TL_ROW * t->nrows;
	double h = legend(NULL, t, bottom + 24) + 16;
	int i;

	fprintf(fp, _("<svg class=\"timeline\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
		    "height=\"%.0f\" role=\"img\" aria-label=\"timeline of the ranks "
		    "involved\">\n"), TL_W, h, TL_W, h);
	draw_axis(fp, t, bottom);
	for (i = 0; i < t->nrows; i++)
		draw_row(fp, t, i);
	legend(fp, t, bottom + 24);
	fputs("</svg>\n", fp);
}

static void td_time(FILE *fp, const struct tl *t, int64_t ts)
{
	char buf[32];

	if (ts == HX_NONE) {
		fputs("<td>\xe2\x80\x94</td>", fp);
		return;
	}
	hx_format_ts(ts, buf);
	fprintf(fp, "<td><code>%s</code>", buf);
	if (t->d->first_ts != HX_NONE)
		fprintf(fp, " <span class=\"muted\">(%+.6f s)</span>",
			ts_gap(ts, t->origin) / 1e6);
	fputs("</td>", fp);
}

static void table_row(FILE *fp, const struct tl *t, const struct tl_row *row)
{
	const struct hx_rankinfo *ri = &t->d->ranks[row->r];

	fputs("<tr><td>", fp);
	rank_name(fp, ri);
	fputs("</td><td>", fp);
	if (ri->node) {
		hx_html_escape(fp, ri->node);
		fputs(" \xc2\xb7 ", fp);
	}
	if (ri->device >= 0)
		fprintf(fp, "device %lld", (long long)ri->device);
	fputs("</td>", fp);
	td_time(fp, t, ri->fail_rec != HX_NOREC ? ri->first_err_ts : HX_NONE);
	fprintf(fp, "<td>%s</td>", ri->fail_rec != HX_NOREC
		? hx_kind_name(t->d->ev->recs[ri->fail_rec].kind) : "\xe2\x80\x94");
	td_time(fp, t, ri->last_ts != HX_NONE ? ts_sub(ri->last_ts, ri->skew_us)
					      : HX_NONE);
	fputs("<td>", fp);
	if (ri->lost)
		fputs("<b class=\"bad\">LOST</b> ", fp);
	if (ri->role == HX_ROLE_ROOT)
		fprintf(fp, "<b class=\"bad\">%s</b> ", _("root"));
	else if (ri->role == HX_ROLE_VICTIM)
		fprintf(fp, "%s ", _("victim"));
	if (ri->wait_peer >= 0)
		fprintf(fp, _("waits for rank %lld "), (long long)ri->wait_peer);
	if (ri->skew_us)
		fprintf(fp, _("clock %+.6f s"), (double)ri->skew_us / 1e6);
	if (!ri->seen && t->d->partial)
		fputs(_("no record kept (logs past the record ceiling are not read)"), fp);
	else if (!ri->seen)
		fputs(_("no logs"), fp);
	fputs("</td></tr>\n", fp);
}

static void draw_table(FILE *fp, const struct tl *t)
{
	int i;

	fputs(_("<table class=\"tl\"><thead><tr><th>rank</th><th>where</th>"
	      "<th>first failure (clock-corrected)</th><th>kind</th>"
	      "<th>last log line (clock-corrected)</th><th>notes</th></tr></thead>\n"
	      "<tbody>\n"), fp);
	for (i = 0; i < t->nrows; i++)
		table_row(fp, t, &t->rows[i]);
	fputs("</tbody></table>\n", fp);
}

static void used_marks(struct tl *t)
{
	int i, j;

	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->rows[i].np; j++)
			t->used |= 1u << t->rows[i].p[j].kind;
}

int hx_svg_timeline(FILE *fp, const struct hangdx_diagnosis *d)
{
	struct tl t;
	char ts[32];

	memset(&t, 0, sizeof t);
	t.d = d;
	if (choose_rows(&t))
		return HANGDX_ENOMEM;
	if (!t.nrows) {
		fputs(_("<p class=\"muted\">No rank is involved.</p>\n"), fp);
		return HANGDX_OK;
	}
	used_marks(&t);
	if (set_axis(&t)) {
		fputs(_("<p class=\"muted\">Times are corrected for the clock offsets "
		      "estimated between ranks"), fp);
		if (d->first_ts != HX_NONE) {
			hx_format_ts(d->first_ts, ts);
			fprintf(fp, _("; 0 is the first failure, %s"), ts);
		}
		fputs(_(". Each mark names its evidence when the pointer rests on it."
		      "</p>\n<div class=\"scroll\">"), fp);
		draw_timeline(fp, &t);
		fputs("</div>\n", fp);
	} else {
		fputs(_("<p class=\"muted\">No timestamped line for these ranks.</p>\n"), fp);
	}
	draw_table(fp, &t);
	if (t.more)
		fprintf(fp, _("<p class=\"muted\">%u more ranks are involved; "
			    "the Ranks table lists them all.</p>\n"), t.more);
	return HANGDX_OK;
}
