/*
 * html.c - the diagnosis as one self-contained HTML page, for a person
 * with a browser or a printer: the verdict, the fix, the chain hop by hop
 * with each hop linked to its evidence (file:line and, on request, the
 * line itself read back from the log), the wait-for graph as inline SVG
 * (rendered by the caller with Graphviz), a timeline of the ranks
 * involved (svg.c), the ranks grouped, warnings, notes, missing evidence.
 * No script and no external reference; every string from a log passes
 * hx_html_escape.  Format: docs/REPORTS.md.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "../analyze/analyze.h"
#include "report.h"

#define MAX_QUOTE 2048      /* bytes of a quoted log line */

static const char css[] =
	":root{--fg:#1f2328;--mut:#59636e;--ln:#d1d9e0;--soft:#f6f8fa;"
	"--red:#cf222e;--acc:#0969da}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;color:var(--fg);background:#fff;font:15px/1.55 system-ui,"
	"-apple-system,\"Segoe UI\",\"Noto Sans\",\"DejaVu Sans\",Helvetica,Arial,"
	"sans-serif}\n"
	"main{max-width:1120px;margin:0 auto;padding:28px 32px 56px}\n"
	"code,pre,.mono{font-family:ui-monospace,SFMono-Regular,\"DejaVu Sans Mono\","
	"Menlo,Consolas,monospace;font-size:13px}\n"
	"a{color:var(--acc);text-decoration:none}a:hover{text-decoration:underline}\n"
	"h2{font-size:20px;margin:36px 0 12px;padding-bottom:6px;"
	"border-bottom:1px solid var(--ln)}\n"
	"h2 small{font-weight:400;color:var(--mut);font-size:14px;margin-left:8px}\n"
	".muted{color:var(--mut)}.bad{color:var(--red)}\n"
	".verdict{border-left:8px solid var(--vc);background:var(--vbg);"
	"padding:16px 24px 20px;border-radius:6px}\n"
	".v-deadlock{--vc:#cf222e;--vbg:#ffebe9}.v-hang{--vc:#bc4c00;--vbg:#fff1e5}"
	".v-ok{--vc:#1a7f37;--vbg:#dafbe1}\n"
	".kicker{margin:0;color:var(--mut);font-size:13px;letter-spacing:.06em;"
	"text-transform:uppercase}\n"
	"h1{margin:6px 0 12px;font-size:30px;line-height:1.3}\n"
	".badge{display:inline-block;background:var(--vc);color:#fff;"
	"border-radius:6px;padding:0 12px;margin-right:8px;letter-spacing:.03em}\n"
	".proven{font-size:14px;vertical-align:middle;border:1.5px solid var(--vc);"
	"color:var(--vc);border-radius:12px;padding:1px 10px;margin-left:6px}\n"
	".summary{font-size:17px;margin:0 0 16px;max-width:80ch}\n"
	"dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:3px 18px;"
	"margin:0}\n"
	"dl.facts dt{color:var(--mut)}dl.facts dd{margin:0}\n"
	"nav{margin:14px 0 0;font-size:14px}nav a{margin-right:14px}\n"
	"ol.fix{padding-left:22px}ol.fix li{margin:6px 0}\n"
	".callout{border:1px solid #d4a72c;background:#fff8c5;border-radius:6px;"
	"padding:10px 14px;margin:8px 0}\n"
	"ol.chain{list-style:none;padding:0;margin:0}\n"
	".hop{position:relative;border:1px solid var(--ln);border-radius:6px;"
	"padding:8px 12px 8px 54px;background:#fff}\n"
	".hop .n{position:absolute;left:12px;top:9px;width:28px;height:28px;"
	"border-radius:50%;background:var(--soft);border:1px solid var(--ln);"
	"text-align:center;line-height:26px;font-weight:600;font-size:14px}\n"
	".hop.cyc{border-color:var(--red);border-left-width:5px;background:#fff8f8}\n"
	".hop.cyc .n{background:var(--red);color:#fff;border-color:var(--red)}\n"
	".what{font-weight:600}.meta{color:var(--mut);font-size:13px}\n"
	".tag{display:inline-block;font-family:ui-monospace,\"DejaVu Sans Mono\","
	"monospace;font-size:12px;background:var(--soft);border:1px solid var(--ln);"
	"border-radius:4px;padding:0 6px;color:var(--fg)}\n"
	".edge{margin:0 0 0 26px;padding:3px 0 3px 20px;border-left:2px solid "
	"var(--ln);color:#9a6700;font-size:13px}\n"
	".edge.cyc{border-left-color:var(--red);color:var(--red)}\n"
	".back{margin-top:6px;color:var(--red);font-weight:600}\n"
	".toggle{font-size:13px;color:var(--mut)}\n"
	"figure.graph{margin:6px 0 0;border:1px solid var(--ln);border-radius:6px;"
	"padding:8px;overflow:auto;max-height:1400px}\n"
	"figure.graph svg{max-width:100%;height:auto;display:block;margin:0 auto}\n"
	"#actual:checked~figure.graph svg{max-width:none}\n"
	".scroll{overflow-x:auto}\n"
	"svg.timeline{width:100%;height:auto;display:block;min-width:640px}\n"
	"svg.timeline text{font-family:system-ui,\"DejaVu Sans\",sans-serif;"
	"font-size:13px;fill:var(--fg)}\n"
	"svg.timeline .tick{fill:var(--mut);font-size:11px}"
	"svg.timeline .none{fill:var(--mut);font-style:italic}\n"
	"svg.timeline .grid{stroke:#d8dee4}svg.timeline .zero{stroke:var(--red);"
	"stroke-dasharray:5 4;stroke-width:1.5}\n"
	"svg.timeline .span{stroke:#8c959f;stroke-width:2}"
	"svg.timeline .stripe{fill:var(--soft)}\n"
	"table{border-collapse:collapse;width:100%;font-size:14px;margin:10px 0}\n"
	"th,td{border-bottom:1px solid var(--ln);padding:5px 8px;text-align:left;"
	"vertical-align:top}th{background:var(--soft);font-weight:600}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"ol.evidence{list-style:none;padding:0;margin:0}\n"
	".ev{border:1px solid var(--ln);border-radius:6px;margin:10px 0;"
	"overflow:hidden}\n"
	".ev-head{background:var(--soft);padding:6px 12px;font-size:13px;"
	"overflow-wrap:anywhere}\n"
	".ev pre{margin:0;padding:8px 12px;white-space:pre-wrap;"
	"overflow-wrap:anywhere}\n"
	":target{outline:3px solid #54aeff;outline-offset:2px}\n"
	"footer{margin-top:40px;color:var(--mut);font-size:13px;"
	"border-top:1px solid var(--ln);padding-top:10px}\n"
	"@media (max-width:700px){main{padding:16px}h1{font-size:24px}}\n"
	"@media print{nav,.toggle{display:none}main{max-width:none;padding:0}"
	"body{font-size:10.5pt}*{-webkit-print-color-adjust:exact;"
	"print-color-adjust:exact}.verdict,.hop,.edge,.ev,.callout,tr{"
	"break-inside:avoid}h2{break-after:avoid}figure.graph{overflow:visible;"
	"max-height:none}figure.graph svg{max-width:100%!important}.scroll{"
	"overflow:visible}svg.timeline{min-width:0}a{color:inherit}}\n";

/* ---- escaping ---- */

size_t hx_utf8_len(const unsigned char *p)
{
	return p[0] < 0x80 ? 0 : hx_utf8_seq(p, 4);    /* NUL ends any sequence */
}

void hx_html_escape(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n;

	while (*p) {
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		case '\t': case '\n': fputc(*p, fp); break;
		default:
			if (*p < 0x80) {
				if (*p >= 0x20 && *p != 0x7f)
					fputc(*p, fp);
			} else if ((n = hx_utf8_len(p)) != 0) {
				fwrite(p, 1, n, fp);
				p += n;
				continue;
			} else {
				fputs("\xef\xbf\xbd", fp);
			}
		}
		p++;
	}
}

/* ---- what the page cites ---- */

/* The records the page cites, numbered E1, E2... by first appearance:
 * every hop's, then the first failure's and the root's LOST or link
 * record. */
struct cites {
	uint32_t *rec;
	size_t n;
};

static const struct hx_rankinfo *rinfo(const struct hangdx_diagnosis *d,
				       int64_t r)
{
	return r >= 0 && (uint64_t)r < d->nranks ? &d->ranks[r] : NULL;
}

static void cite_add(struct cites *c, uint32_t rec)
{
	size_t i;

	if (rec == HX_NOREC)
		return;
	for (i = 0; i < c->n; i++)
		if (c->rec[i] == rec)
			return;
	c->rec[c->n++] = rec;
}

static int cites_build(const struct hangdx_diagnosis *d, struct cites *c)
{
	const struct hx_rankinfo *first = rinfo(d, d->first_rank);
	const struct hx_rankinfo *root = rinfo(d, d->root_rank);
	size_t i;

	c->n = 0;
	c->rec = hx_calloc(d->ctx, d->nhops + 4, sizeof *c->rec);
	if (!c->rec)
		return HANGDX_ENOMEM;
	for (i = 0; i < d->nhops; i++)
		cite_add(c, d->hops[i].rec);
	if (first)
		cite_add(c, first->fail_rec);
	if (root && root->lost)
		cite_add(c, root->lost_rec);
	if (root)
		cite_add(c, root->link_rec);
	return HANGDX_OK;
}

/* 1-based number of rec among the cited, 0 if it is not cited. */
static size_t cite_no(const struct cites *c, uint32_t rec)
{
	size_t i;

	for (i = 0; rec != HX_NOREC && i < c->n; i++)
		if (c->rec[i] == rec)
			return i + 1;
	return 0;
}

struct page {
	FILE *fp;
	const struct hangdx_diagnosis *d;
	struct cites c;
	unsigned flags;
};

/* A link to the evidence entry of rec: "E3 · plog-1.log:42". */
static void cite_link(const struct page *pg, uint32_t rec)
{
	size_t no = cite_no(&pg->c, rec);
	const char *path, *base;
	uint64_t line;

	if (!no)
		return;
	hx_dcite(pg->d, rec, &path, &line);
	base = strrchr(path, '/');
	fprintf(pg->fp, "<a href=\"#ev-%zu\">E%zu \xc2\xb7 ", no, no);
	hx_html_escape(pg->fp, base ? base + 1 : path);
	fprintf(pg->fp, ":%llu</a>", (unsigned long long)line);
}

static void put_rank(FILE *fp, const struct hangdx_diagnosis *d, int64_t r)
{
	const struct hx_rankinfo *ri = rinfo(d, r);
	char label[160];

	if (ri && ri->pseudo) {
		hx_rank_label(d, r, label, sizeof label);
		hx_html_escape(fp, label);
	} else if (r >= 0)
		fprintf(fp, _("rank %lld"), (long long)r);
	else
		fputs(_("rank unknown"), fp);
}

/* ---- the verdict ---- */

static const char *verdict_word(const struct hangdx_diagnosis *d)
{
	int v = d->verdict;

	if (d->cat == HX_CAT_UNDETERMINED)
		return _("NOT DETERMINED");
	if (d->hang < 0)        /* a failure the text cannot call a hang or not */
		return _("FAILED, HANG NOT DETERMINED");
	return v == HANGDX_V_DEADLOCK ? _("DEADLOCK") : v == HANGDX_V_HANG ? _("HANG")
									 : _("NO HANG");
}

static const char *verdict_class(int v)
{
	return v == HANGDX_V_DEADLOCK ? "v-deadlock" : v == HANGDX_V_HANG ? "v-hang"
									  : "v-ok";
}

static void page_head(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;

	fprintf(pg->fp, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
			"<meta charset=\"utf-8\">\n"
			"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
			"'none'; style-src 'unsafe-inline'; base-uri 'none'; "
			"form-action 'none'\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, "
			"initial-scale=1\">\n"
			"<meta name=\"generator\" content=\"hangdx %s\">\n"
			"<title>hangdx: %s \xe2\x80\x94 %s</title>\n<style>\n%s%s</style>\n"
			"</head>\n<body>\n<main>\n",
		hx_lang_tag(), HANGDX_VERSION, verdict_word(d), hx_cat_text(d->cat),
		css, hx_html_cjk_css());
}

/* Several roots: each named, the first HX_ROOTS_SHOWN, then how many more. */
static void fact_roots(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	uint32_t i;

	fputs(_("<dt>root cause ranks</dt><dd><b>"), pg->fp);
	for (i = 0; i < d->nroots && i < HX_ROOTS_SHOWN; i++) {
		if (i)
			fputs(_(", "), pg->fp);
		put_rank(pg->fp, d, d->roots[i]);
	}
	fputs("</b>", pg->fp);
	if (d->nroots > HX_ROOTS_SHOWN)
		fprintf(pg->fp, _(" and %u more (the JSON lists them all)"),
			d->nroots - HX_ROOTS_SHOWN);
	fputs("</dd>\n", pg->fp);
}

static void fact_root(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	const struct hx_rankinfo *ri = rinfo(d, d->root_rank);

	if (d->nroots > 1) {
		fact_roots(pg);
		return;
	}
	fputs(_("<dt>root cause rank</dt><dd><b>"), pg->fp);
	put_rank(pg->fp, d, d->root_rank);
	fputs("</b>", pg->fp);
	if (ri && ri->device >= 0)
		fprintf(pg->fp, _(" \xc2\xb7 device %lld"), (long long)ri->device);
	if (ri && ri->node) {
		fputs(_(" \xc2\xb7 node "), pg->fp);
		hx_html_escape(pg->fp, ri->node);
	}
	fputs("</dd>\n", pg->fp);
}

static void fact_first(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	const struct hx_rankinfo *ri = rinfo(d, d->first_rank);
	char ts[32];
	uint32_t task;

	fputs(_("<dt>first failing rank</dt><dd><b>"), pg->fp);
	put_rank(pg->fp, d, d->first_rank);
	fputs("</b>", pg->fp);
	if (d->first_ts != HX_NONE) {
		hx_format_ts(d->first_ts, ts);
		fprintf(pg->fp, _(" at <code>%s</code> <span class=\"muted\">"
				"(clock-corrected)</span>"), ts);
	}
	fputs("</dd>\n", pg->fp);
	if (!ri || ri->fail_rec == HX_NOREC)
		return;
	task = ri->fail_rec;
	if (hx_dnum(d, task, HX_F_STREAM, -1) < 0 && ri->dma_rec != HX_NOREC)
		task = ri->dma_rec;
	fprintf(pg->fp, _("<dt>first failure</dt><dd><span class=\"tag\">%s</span>"),
		hx_kind_name(d->ev->recs[ri->fail_rec].kind));
	if (hx_dnum(d, task, HX_F_STREAM, -1) >= 0)
		fprintf(pg->fp, _(" stream %lld task %lld"),
			(long long)hx_dnum(d, task, HX_F_STREAM, -1),
			(long long)hx_dnum(d, task, HX_F_TASK, -1));
	fputs(" \xe2\x80\x94 ", pg->fp);
	cite_link(pg, ri->fail_rec);
	fputs("</dd>\n", pg->fp);
}

static void facts(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;

	fputs("<dl class=\"facts\">\n", pg->fp);
	fact_root(pg);
	fact_first(pg);
	fprintf(pg->fp, _("<dt>AICPU cores per device</dt><dd>%u <span class=\"muted\">"
			"(%s)</span></dd>\n"), hx_rank_cores(d, d->root_rank),
		d->cores_named ? _("widened to the highest core the logs name")
		: d->cores_given ? _("given") : _("Atlas A2/A3 count"));
	fprintf(pg->fp, _("<dt>category</dt><dd><code>%s</code></dd>\n"
			"<dt>evidence read</dt><dd>%zu records from %zu files</dd>\n"
			"</dl>\n"), hx_cat_id(d->cat), d->norder, d->ev->nfile);
}

static void nav(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	FILE *fp = pg->fp;

	fputs("<nav>", fp);
	if (d->nfixes)
		fputs(_("<a href=\"#fix\">Fix</a>"), fp);
	if (d->nwarnings)
		fputs(_("<a href=\"#warnings\">Warnings</a>"), fp);
	if (d->nhops)
		fputs(_("<a href=\"#chain\">Chain</a>"), fp);
	fputs(_("<a href=\"#graph\">Wait-for graph</a><a href=\"#timeline\">Timeline</a>"
	      "<a href=\"#ranks\">Ranks</a>"), fp);
	if (d->nfacts)
		fputs(_("<a href=\"#notes\">Notes</a>"), fp);
	if (d->nmissing)
		fputs(_("<a href=\"#missing\">Missing evidence</a>"), fp);
	if (pg->c.n)
		fputs(_("<a href=\"#evidence\">Evidence</a>"), fp);
	fputs("</nav>\n", fp);
}

static void sec_verdict(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;

	fprintf(pg->fp, _("<header class=\"verdict %s\">\n<p class=\"kicker\">hangdx "
			"diagnosis</p>\n<h1 id=\"verdict\"><span class=\"badge\">%s</span>%s"),
		verdict_class(d->verdict), verdict_word(d),
		hx_cat_text(d->cat));
	if (d->proven)
		fputs(_("<span class=\"proven\">proven</span>"), pg->fp);
	else if (d->verdict == HANGDX_V_DEADLOCK)
		fputs(_("<span class=\"proven\">inferred</span>"), pg->fp);
	fputs("</h1>\n<p class=\"summary\">", pg->fp);
	hx_html_escape(pg->fp, d->summary);
	fputs("</p>\n", pg->fp);
	if (d->partial) {       /* the same sentence as the text report */
		char line[800];

		hx_partial_text(d, line, sizeof line);
		fputs("<p class=\"summary\">", pg->fp);
		hx_html_escape(pg->fp, line);
		fputs("</p>\n", pg->fp);
	}
	facts(pg);
	nav(pg);
	fputs("</header>\n", pg->fp);
}

/* ---- lists: fix, warnings, notes, missing ---- */

static void sec_list(const struct page *pg, const char *id, const char *title,
		     const char *const *v, size_t n, const char *how)
{
	size_t i;
	bool callout = strcmp(how, "callout") == 0;

	if (!n)
		return;
	fprintf(pg->fp, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
	if (!callout)
		fprintf(pg->fp, "<%s class=\"%s\">\n", how, id);
	for (i = 0; i < n; i++) {
		fputs(callout ? "<div class=\"callout\">" : "<li>", pg->fp);
		hx_html_escape(pg->fp, v[i]);
		fputs(callout ? "</div>\n" : "</li>\n", pg->fp);
	}
	if (!callout)
		fprintf(pg->fp, "</%s>\n", how);
	fputs("</section>\n", pg->fp);
}

/* ---- the chain ---- */

static void hop_meta(const struct page *pg, const struct hx_hop *h)
{
	FILE *fp = pg->fp;

	fputs("<div class=\"meta\">", fp);
	if (h->kind[0]) {
		fputs("<span class=\"tag\">", fp);
		hx_html_escape(fp, h->kind);
		fputs("</span> ", fp);
	}
	put_rank(fp, pg->d, h->rank);
	if (h->stream_id >= 0)
		fprintf(fp, _(" \xc2\xb7 stream %lld task %lld"), (long long)h->stream_id,
			(long long)h->task_id);
	fputs(" \xc2\xb7 ", fp);
	if (h->rec != HX_NOREC)
		cite_link(pg, h->rec);
	else
		fputs(_("<span class=\"muted\">no single log line</span>"), fp);
	fputs("</div>", fp);
}

static void sec_chain(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	bool cycle = d->verdict == HANGDX_V_DEADLOCK &&
		     d->nhops == d->cycle_at + d->wg.ncycle;
	const char *cyc = cycle ? " cyc" : "";
	size_t i;

	if (!d->nhops)
		return;
	fprintf(pg->fp, _("<section id=\"chain\">\n<h2>Chain<small>%s</small></h2>\n"
			"<ol class=\"chain\">\n"),
		!cycle ? _("each waits for the next")
		: d->proven ? _("a proven cycle: each waits for the next, the last for "
			      "the first")
		: _("an inferred cycle: each waits for the next, the last for the "
		  "first"));
	for (i = 0; i < d->nhops; i++) {
		const struct hx_hop *h = &d->hops[i];

		fprintf(pg->fp, "<li class=\"hop%s\" id=\"hop-%zu\"><span class=\"n\">%zu"
				"</span><div class=\"what\">", cyc, i + 1, i + 1);
		hx_html_escape(pg->fp, h->what);
		fputs("</div>", pg->fp);
		hop_meta(pg, h);
		fputs("</li>\n", pg->fp);
		if (h->why[0] && (i + 1 < d->nhops || cycle)) {
			fprintf(pg->fp, _("<li class=\"edge%s\">\xe2\x86\x93 waits for: "), cyc);
			hx_html_escape(pg->fp, h->why);
			fputs("</li>\n", pg->fp);
		}
	}
	if (cycle)
		fprintf(pg->fp, _("<li class=\"back\">\xe2\x86\xba back to %zu: the cycle "
				"closes; nothing in it can move</li>\n"), d->cycle_at + 1);
	fputs("</ol>\n</section>\n", pg->fp);
}

/* ---- the wait-for graph ---- */

static void sec_graph(const struct page *pg, const char *svg)
{
	FILE *fp = pg->fp;

	fputs(_("<section id=\"graph\">\n<h2>Wait-for graph<small>rebuilt from the "
	      "device stream dumps</small></h2>\n"), fp);
	if (!pg->d->have_snapshot) {
		fputs(_("<p class=\"muted\">No device stream dumps in the logs: there is "
		      "no task-level graph to draw.</p>\n</section>\n"), fp);
		return;
	}
	if (!svg) {
		fputs(_("<p class=\"callout\">The graph could not be rendered: Graphviz "
		      "(<code>dot</code>) is not installed, or it failed. <code>hangdx "
		      "diagnose --dot FILE</code> writes the graph as DOT.</p>\n"
		      "</section>\n"), fp);
		return;
	}
	fprintf(fp, _("<p class=\"muted\">%sBoxes are tasks, grouped by rank and "
		    "stream; the 3-D box is the AICPU pool with the core holders; "
		    "dashed: a core held, or a record nobody will make. Alike ranks "
		    "are folded into one cluster.</p>\n<input type=\"checkbox\" "
		    "id=\"actual\" class=\"toggle\"><label for=\"actual\" "
		    "class=\"toggle\"> actual size (scroll)</label>\n"
		    "<figure class=\"graph\">\n"),
		pg->d->verdict == HANGDX_V_DEADLOCK ? _("Red: the cycle. ") : "");
	if (hx_svg_inline(fp, svg) != 0)
		fputs(_("<p class=\"callout\">The rendered graph could not be embedded: "
		      "it holds more than the drawing elements of Graphviz "
		      "(docs/REPORTS.md).</p>\n"), fp);
	fputs("</figure>\n</section>\n", fp);
}

/* ---- ranks ---- */

static void sec_groups(const struct page *pg)
{
	const struct hangdx_diagnosis *d = pg->d;
	size_t g;

	fputs(_("<section id=\"ranks\">\n<h2>Ranks<small>grouped by what they were "
	      "doing</small></h2>\n"), pg->fp);
	if (!d->ngroups) {
		fputs(_("<p class=\"muted\">No rank in the logs.</p>\n</section>\n"), pg->fp);
		return;
	}
	fputs(_("<table>\n<thead><tr><th>count</th><th>state</th><th>ranks</th></tr>"
	      "</thead>\n<tbody>\n"), pg->fp);
	for (g = 0; g < d->ngroups; g++) {
		const struct hx_group *gr = &d->groups[g];

		fprintf(pg->fp, "<tr%s><td class=\"num\">%u</td><td>",
			gr->role == HX_ROLE_ROOT ? " class=\"bad\"" : "", gr->nranks);
		hx_html_escape(pg->fp, gr->state);
		if (gr->role == HX_ROLE_VICTIM && gr->nwaits) {
			fputs(gr->nwaits == 1 ? _("<br><small>waiting on root rank ")
			      : _("<br><small>waiting on root ranks "), pg->fp);
			hx_rank_ranges(pg->fp, gr->waits, gr->nwaits, 24, ", ",
				       "\xe2\x80\x93");
			fputs("</small>", pg->fp);
		}
		if (gr->role == HX_ROLE_VICTIM && gr->nlead) {
			fputs(gr->nlead == 1 && !gr->lead_more
			      ? _("<br><small>waiting on rank ")
			      : _("<br><small>waiting on ranks "), pg->fp);
			hx_rank_ranges(pg->fp, gr->lead, gr->nlead, 24, ", ",
				       "\xe2\x80\x93");
			if (gr->lead_more)
				fprintf(pg->fp, _(" and %u more"), gr->lead_more);
			fputs(_(", not shown by these logs to be a root or to wait on one</small>"),
			      pg->fp);
		}
		fputs("</td><td class=\"mono\">", pg->fp);
		hx_rank_ranges(pg->fp, gr->ranks, gr->nranks, 24, ", ", "\xe2\x80\x93");
		fputs("</td></tr>\n", pg->fp);
	}
	fputs("</tbody>\n</table>\n</section>\n", pg->fp);
}

static int sec_timeline(const struct page *pg)
{
	int err;

	fputs(_("<section id=\"timeline\">\n<h2>Timeline<small>the ranks involved"
	      "</small></h2>\n"), pg->fp);
	err = hx_svg_timeline(pg->fp, pg->d);
	fputs("</section>\n", pg->fp);
	return err;
}

/* ---- evidence ---- */

static bool compressed(const unsigned char *h, size_t n)
{
	static const struct {
		const char *magic;
		size_t len;
	} m[] = { { "\x1f\x8b", 2 }, { "\x28\xb5\x2f\xfd", 4 }, { "BZh", 3 },
		  { "\xfd" "7zXZ", 5 }, { "PK\x03\x04", 4 }, { "\x04\x22\x4d\x18", 4 } };
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(m); i++)
		if (n >= m[i].len && memcmp(h, m[i].magic, m[i].len) == 0)
			return true;
	return false;
}

/* The line at byte off of path, read back when path is a plain file on
 * disk (not an archive member, not compressed, not stdin) and the byte
 * before off ends a line.  At most MAX_QUOTE bytes. */
static bool read_line_at(const char *path, uint64_t off, char *buf, size_t n)
{
	unsigned char head[6];
	struct stat st;
	bool ok = false, nl;
	size_t len;
	FILE *fp;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !S_ISREG(st.st_mode) || off >= (uint64_t)st.st_size)
		return false;
	if (!(fp = fopen(path, "rb")))
		return false;
	len = fread(head, 1, sizeof head, fp);
	if (compressed(head, len))
		goto out_close;
	if (off > 0 && (fseeko(fp, (off_t)off - 1, SEEK_SET) != 0 || fgetc(fp) != '\n'))
		goto out_close;
	if (off == 0)
		rewind(fp);
	if (!fgets(buf, (int)n, fp))
		goto out_close;
	len = strlen(buf);
	nl = len && buf[len - 1] == '\n';
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (hx_coloured(buf, len))      /* the line as it was read */
		buf[len = hx_decolour(buf, len, buf)] = '\0';
	if (!nl && !feof(fp) && len >= 3)
		memcpy(buf + len - 3, "\xe2\x80\xa6", 4);
	ok = true;
out_close:
	fclose(fp);
	return ok;
}

/* The file of r was read in this run (not only named by evidence loaded
 * with --evidence): the only files whose lines may be quoted. */
static bool read_here(const struct hangdx_evidence *ev, const struct hx_rec *r)
{
	size_t i;

	for (i = 0; i < ev->nfile; i++)
		if (ev->files[i].path == r->file && !ev->files[i].loaded)
			return true;
	return false;
}

/* The line read back is the one parsed into r: the same time stamp and
 * process in its prefix, or, for a line without one, a text field of the
 * record (4 bytes or more) found in it.  A file that changed or rotated
 * since it was read fails this. */
static bool line_matches(const struct hangdx_evidence *ev,
			 const struct hx_rec *r, const char *line)
{
	struct hx_prefix p;
	struct hx_envelope e;
	size_t i, n = strlen(line), k = hx_parse_envelope(line, n, &e);

	if (r->ts != HX_NONE && hx_parse_prefix(line + k, n - k, &p) &&
	    p.ts != HX_NONE)
		return p.ts == r->ts &&
		       (r->pid == HX_NONE || p.pid == HX_NONE || p.pid == r->pid);
	for (i = 0; i < r->nfield; i++) {
		const struct hx_field *f = &ev->fields[r->ffirst + i];
		const char *v = hx_field_type(f->key) == HX_T_STR
			? hx_ev_str(ev, f->str) : NULL;
		if (v && strlen(v) >= 4 && strstr(line, v))
			return true;
	}
	return false;
}

/* The quote of r, or why there is none (NULL: say nothing, as for an
 * archive member, a compressed file or stdin). */
static const char *quote_line(const struct hangdx_evidence *ev,
			      const struct hx_rec *r, char *line, size_t n,
			      bool *ok)
{
	*ok = false;
	if (!read_here(ev, r))
		return _("no quote: the file was not read in this run (the record "
		       "comes from saved evidence)");
	if (!read_line_at(hx_ev_str(ev, r->file), r->off, line, n))
		return NULL;
	if (!line_matches(ev, r, line))
		return _("no quote: the line at this place of the file is not the one "
		       "that was parsed (the file changed or was rotated)");
	*ok = true;
	return NULL;
}

/* What cites record rec: hops (linked back) and the facts. */
static void cited_by(const struct page *pg, uint32_t rec)
{
	const struct hangdx_diagnosis *d = pg->d;
	const struct hx_rankinfo *first = rinfo(d, d->first_rank);
	const struct hx_rankinfo *root = rinfo(d, d->root_rank);
	const char *sep = _(" \xc2\xb7 cited by ");
	size_t i;

	for (i = 0; i < d->nhops; i++)
		if (d->hops[i].rec == rec) {
			fprintf(pg->fp, _("%s<a href=\"#hop-%zu\">hop %zu</a>"), sep, i + 1, i + 1);
			sep = ", ";
		}
	if (first && first->fail_rec == rec) {
		fprintf(pg->fp, _("%sthe first failure"), sep);
		sep = ", ";
	}
	if (root && root->lost && root->lost_rec == rec) {
		fprintf(pg->fp, _("%sthe LOST report of the root rank"), sep);
		sep = ", ";
	}
	if (root && root->link_rec == rec)
		fprintf(pg->fp, _("%sthe link error of the root rank"), sep);
}

static void ev_entry(const struct page *pg, size_t i)
{
	const struct hangdx_diagnosis *d = pg->d;
	uint32_t rec = pg->c.rec[i];
	const struct hx_rec *r = &d->ev->recs[rec];
	char where[600], ts[32], line[MAX_QUOTE];

	hx_dwhere(d, rec, where, sizeof where);
	fprintf(pg->fp, "<li class=\"ev\" id=\"ev-%zu\"><div class=\"ev-head\"><b>E%zu"
			"</b> <code>", i + 1, i + 1);
	hx_html_escape(pg->fp, where);
	fprintf(pg->fp, "</code><br><span class=\"tag\">%s</span> ",
		hx_kind_name(r->kind));
	put_rank(pg->fp, d, hx_drank(d, rec));
	if (r->ts != HX_NONE) {
		hx_format_ts(r->ts, ts);
		fprintf(pg->fp, _(" \xc2\xb7 logged at <code>%s</code>"), ts);
	}
	cited_by(pg, rec);
	fputs("</div>", pg->fp);
	if (pg->flags & HANGDX_HTML_QUOTE) {
		bool ok;
		const char *why = quote_line(d->ev, r, line, sizeof line, &ok);

		if (ok) {
			fputs("<pre>", pg->fp);
			hx_html_escape(pg->fp, line);
			fputs("</pre>", pg->fp);
		} else if (why) {
			fprintf(pg->fp, "<p class=\"muted\">%s</p>", why);
		}
	}
	fputs("</li>\n", pg->fp);
}

static void sec_evidence(const struct page *pg)
{
	size_t i;

	if (!pg->c.n)
		return;
	fprintf(pg->fp, _("<section id=\"evidence\">\n<h2>Evidence<small>%s</small></h2>\n"
			"<ol class=\"evidence\">\n"),
		pg->flags & HANGDX_HTML_QUOTE
			? _("each cited line as read back from its file when the report "
			  "was written")
			: _("file:line of each cited line"));
	for (i = 0; i < pg->c.n; i++)
		ev_entry(pg, i);
	fputs("</ol>\n</section>\n", pg->fp);
}

static void page_foot(const struct page *pg)
{
	fprintf(pg->fp, _("<footer>Written by hangdx %s. A self-contained page: no "
			"script, no external resource; the logs' text is shown as text."
			"</footer>\n</main>\n</body>\n</html>\n"), HANGDX_VERSION);
}

int hangdx_diagnosis_write_html(const struct hangdx_diagnosis *d, FILE *fp,
				const char *svg, unsigned flags)
{
	struct page pg = { fp, d, { NULL, 0 }, flags };
	int err;

	if (cites_build(d, &pg.c))
		return HANGDX_ENOMEM;
	page_head(&pg);
	sec_verdict(&pg);
	sec_list(&pg, "fix", _("Fix"), d->fixes, d->nfixes, "ol");
	sec_list(&pg, "warnings", _("Warnings"), d->warnings, d->nwarnings, "callout");
	sec_chain(&pg);
	sec_graph(&pg, svg);
	err = sec_timeline(&pg);
	sec_groups(&pg);
	sec_list(&pg, "notes", _("Notes"), d->facts, d->nfacts, "ul");
	sec_list(&pg, "missing", _("Missing evidence"), d->missing, d->nmissing, "ul");
	sec_evidence(&pg);
	page_foot(&pg);
	hx_free(d->ctx, pg.c.rec);
	if (!err && ferror(fp))
		err = HANGDX_EIO;
	return err;
}
