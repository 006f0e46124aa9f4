/*
 * diagnosis.c - the diagnosis reports: text for a person at a terminal
 * (the verdict in one paragraph, then the chain hop by hop with the
 * evidence line of each hop, the alike ranks, the fix), JSON for tools
 * (docs/DIAGNOSIS.md), and DOT for the rebuilt wait-for graph.  Strings
 * from logs are escaped for JSON and DOT; the text report prints them as
 * they are but without control bytes.
 */
#include <stdio.h>
#include <string.h>
#include "../analyze/analyze.h"
#include "report.h"

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_YEL "\033[33m"
#define C_DIM "\033[2m"
#define C_OFF "\033[0m"

struct out {
	FILE *fp;
	bool color;
};

static const char *col(const struct out *o, const char *c)
{
	return o->color ? c : "";
}

/* Print the n bytes at s without control bytes, C0 or C1 (log text may
 * hold terminal escapes), and with U+FFFD for bytes that are not UTF-8
 * (GBK logs, truncation).  s is part of a NUL-terminated string. */
static void put_clean_n(FILE *fp, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t k;

	while (p < end) {
		if (*p < 0x80) {
			if (*p >= 0x20 && *p != 0x7f)
				fputc(*p, fp);
			p++;
			continue;
		}
		k = hx_utf8_len(p);
		if (k == 0 || k > (size_t)(end - p)) {
			fputs("\xef\xbf\xbd", fp);
			p++;
			continue;
		}
		if (!(p[0] == 0xc2 && p[1] < 0xa0))     /* not C1 */
			fwrite(p, 1, k, fp);
		p += k;
	}
}

static void put_clean(FILE *fp, const char *s)
{
	if (s)
		put_clean_n(fp, s, strlen(s));
}

/* Word-wrap text at width display columns (wrap.c). */
static void wrap(FILE *fp, const char *text, int indent, int hang, int width)
{
	hx_wrap(fp, text, indent, hang, width);
}

static const char *verdict_name(int v)
{
	return v == HANGDX_V_DEADLOCK ? _("DEADLOCK") : v == HANGDX_V_HANG ? _("HANG")
									 : _("NO HANG");
}

static bool rank_pseudo(const struct hangdx_diagnosis *d, int64_t r)
{
	return r >= 0 && (uint64_t)r < d->nranks && d->ranks[r].pseudo;
}

/* A rank for the headline: its number, or "?" and where from. */
static const char *rank_num(const struct hangdx_diagnosis *d, int64_t r,
			    char *buf, size_t n)
{
	char where[128];

	if (r < 0) {
		snprintf(buf, n, "%s", _("not named by the logs"));
	} else if (rank_pseudo(d, r)) {
		hx_rank_where(d, r, where, sizeof where);
		snprintf(buf, n, _("? (%s)"), where);
	} else {
		snprintf(buf, n, "%lld", (long long)r);
	}
	return buf;
}

/* "root cause ranks: 3, 5", the first HX_ROOTS_SHOWN of them and "and N
 * more" past that, on lines of its own. */
static void text_roots(const struct hangdx_diagnosis *d, const struct out *o)
{
	char line[4096], rb[160];
	size_t len;
	uint32_t i;

	len = (size_t)snprintf(line, sizeof line, _("root cause ranks: "));
	for (i = 0; i < d->nroots && i < HX_ROOTS_SHOWN && len < sizeof line; i++)
		len += (size_t)snprintf(line + len, sizeof line - len, "%s%s",
					i ? _(", ") : "",
					rank_num(d, d->roots[i], rb, sizeof rb));
	if (d->nroots > HX_ROOTS_SHOWN && len < sizeof line)
		snprintf(line + len, sizeof line - len,
			 _(" and %u more (the JSON lists them all)"),
			 d->nroots - HX_ROOTS_SHOWN);
	fputc('\n', o->fp);
	wrap(o->fp, line, 2, 4, 78);
}

static void text_head(const struct hangdx_diagnosis *d, const struct out *o)
{
	char ts[32] = "-", rb[160], fb[160], line[800];
	bool timed;

	fprintf(o->fp, "%shangdx: %s%s%s — %s%s\n\n", col(o, C_BOLD),
		col(o, d->verdict == HANGDX_V_NO_HANG ? "" : C_RED),
		d->cat == HX_CAT_UNDETERMINED ? _("NOT DETERMINED")
		: d->hang < 0 ? _("FAILED, HANG NOT DETERMINED") : verdict_name(d->verdict),
		col(o, C_OFF), hx_cat_text(d->cat),
		d->proven ? _(" (proven)")
		: d->verdict == HANGDX_V_DEADLOCK ? _(" (inferred)") : "");
	wrap(o->fp, d->summary, 2, 0, 78);
	if (d->partial) {
		hx_partial_text(d, line, sizeof line);
		fputc('\n', o->fp);
		wrap(o->fp, line, 2, 0, 78);
	}
	if (d->first_ts != HX_NONE)
		hx_format_ts(d->first_ts, ts);
	rank_num(d, d->root_rank, rb, sizeof rb);
	rank_num(d, d->first_rank, fb, sizeof fb);
	timed = d->first_rank >= 0 && d->first_ts != HX_NONE;
	if (d->nroots > 1) {
		text_roots(d, o);
		snprintf(line, sizeof line, _("first failing rank: %s%s%s%s"), fb,
			 timed ? " (" : "", timed ? ts : "", timed ? ")" : "");
		wrap(o->fp, line, 2, 4, 78);
		return;
	}
	if (!rank_pseudo(d, d->root_rank) && !rank_pseudo(d, d->first_rank)) {
		fprintf(o->fp, _("\n  root cause rank: %s    first failing rank: %s%s%s%s\n"),
			rb, fb, timed ? " (" : "", timed ? ts : "", timed ? ")" : "");
		return;
	}
	/* "rank ?" names where it comes from: one line each, wrapped */
	fputc('\n', o->fp);
	snprintf(line, sizeof line, _("root cause rank: %s"), rb);
	wrap(o->fp, line, 2, 4, 78);
	snprintf(line, sizeof line, _("first failing rank: %s%s%s%s"), fb,
		 timed ? " (" : "", timed ? ts : "", timed ? ")" : "");
	wrap(o->fp, line, 2, 4, 78);
}

/* The chain is a cycle: a deadlock, proven or inferred. */
static bool is_cycle(const struct hangdx_diagnosis *d)
{
	return d->verdict == HANGDX_V_DEADLOCK &&
	       d->nhops == d->cycle_at + d->wg.ncycle;
}

/* The rank the others waited for at set-up: one that never joined
 * (connect_timeout), the peer of a link table's row that timed out, or
 * one that joined after the connect timeout (rank_behind from the entry
 * lines); -1 if none. */
static int64_t late_rank(const struct hangdx_diagnosis *d)
{
	if (d->cat == HX_CAT_CONNECT)
		return d->sig.missing_rank >= 0 ? d->sig.missing_rank : d->sig.link_peer;
	return d->cat == HX_CAT_BEHIND && d->by_signals ? d->root_rank : -1;
}

/* The rank the deciding record rec names as its peer: its own, else the
 * one the lines around it (of its stream, when it names one) agree on
 * ("remoteRank[15]" under HCCL's connect timeout report), else the rank
 * that came late. */
static int64_t remote_rank(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int64_t rr = hx_rec_id_near(d, rec, HX_F_REMOTE_RANK,
				    hx_dnum(d, rec, HX_F_STREAM, -1));

	return rr >= 0 ? rr : late_rank(d);
}

/* The notify every stuck notify wait the device listed names, if they
 * name one (an FFTS+ task's "stuck notify wait context info"), else -1. */
static int64_t stuck_notify(const struct hangdx_diagnosis *d)
{
	int64_t got = -1, v;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		if (d->ev->recs[rec].kind != HX_K_RT_STUCK_NOTIFY)
			continue;
		v = hx_dnum(d, rec, HX_F_NOTIFY_RT, -1);
		if (v < 0 || (got >= 0 && v != got))
			return -1;
		got = v;
	}
	return got;
}

/* The stream, task and runtime notify of the deciding record rec; a line
 * that names no task: the task the lines around it name, and an id it
 * lacks, the one the lines around it agree on (hx_rec_id_near); an FFTS+
 * timeout's notify, the one its stuck notify waits all name. */
static void near_ids(const struct hangdx_diagnosis *d, uint32_t rec, int64_t id[3])
{
	uint32_t t = rec;

	if (hx_dnum(d, rec, HX_F_STREAM, -1) < 0 && hx_dnum(d, rec, HX_F_TASK, -1) < 0 &&
	    (t = hx_rec_task_near(d, rec)) == HX_NOREC)
		t = rec;
	id[0] = hx_dnum(d, t, HX_F_STREAM, -1);
	if (id[0] < 0)
		id[0] = hx_rec_id_near(d, rec, HX_F_STREAM, -1);
	id[1] = hx_dnum(d, t, HX_F_TASK, -1);
	if (id[1] < 0)
		id[1] = hx_rec_id_near(d, t, HX_F_TASK, id[0]);
	id[2] = hx_dnum(d, rec, HX_F_NOTIFY_RT, -1);
	if (id[2] < 0 && !hx_df(d, rec, HX_F_NOTIFY_HCCL))
		id[2] = hx_rec_id_near(d, t, HX_F_NOTIFY_RT, id[0]);
	if (id[2] < 0 && d->cat == HX_CAT_FFTS && !hx_df(d, rec, HX_F_NOTIFY_HCCL))
		id[2] = stuck_notify(d);
}

/* "stream 7, task 5990, error code 107020": the ids of the deciding
 * record, for a decision taken on the job-wide signals. */
static void text_ids(const struct hangdx_diagnosis *d, const struct out *o)
{
	static const struct { int key; const char *name; } k[] = {
		{ HX_F_STREAM, N_("stream") }, { HX_F_TASK, N_("task") },
		{ HX_F_EVENT, N_("event") }, { HX_F_CONTEXT, N_("context") },
		{ HX_F_NOTIFY_RT, N_("notify") }, { HX_F_REMOTE_RANK, N_("remote rank") },
		{ HX_F_GLOBAL_RANK, N_("rank") }, { HX_F_SEQ_NUM, N_("SeqNum") },
		{ HX_F_TIMEOUT_MS, N_("timeout ms") },
	};
	/* TRANSLATORS: between two ids of the line "stream 7, task 5990" */
	const char *code, *sep = "", *comma = _(", ");
	size_t i;
	int64_t v, id[3];

	if (!d->by_signals || d->id_rec == HX_NOREC)
		return;
	code = hx_rec_code(d, d->id_rec);
	if (!code && d->sig.code_rec != HX_NOREC)
		code = hx_rec_code(d, d->sig.code_rec);
	near_ids(d, d->id_rec, id);
	for (i = 0; i < sizeof k / sizeof k[0]; i++) {
		v = k[i].key == HX_F_STREAM ? id[0] : k[i].key == HX_F_TASK ? id[1]
		  : k[i].key == HX_F_NOTIFY_RT ? id[2] : hx_dnum(d, d->id_rec, k[i].key, -1);
		if (k[i].key == HX_F_REMOTE_RANK)
			v = remote_rank(d, d->id_rec);
		if (v < 0)
			continue;
		fprintf(o->fp, "%s%s %lld", *sep ? sep : "      ", _(k[i].name),
			(long long)v);
		sep = comma;
	}
	if (code) {
		if (!*sep)
			sep = "      ";
		fprintf(o->fp, "%s%s ", sep, _("error code"));
		put_clean(o->fp, code);
		sep = comma;
	}
	if (hx_dstr(d, d->id_rec, HX_F_ERR_DESC)) {
		/* TRANSLATORS: the reason a log line gives, quoted after it */
		fprintf(o->fp, "%s%s \"", *sep ? sep : "      ", _("reason"));
		put_clean(o->fp, hx_dstr(d, d->id_rec, HX_F_ERR_DESC));
		fputc('"', o->fp);
		sep = comma;
	}
	if (*sep)
		fputc('\n', o->fp);
}

static void text_chain(const struct hangdx_diagnosis *d, const struct out *o)
{
	size_t i;
	char where[600];

	if (!d->nhops)
		return;
	if (d->by_signals)
		fprintf(o->fp, "\n%s%s%s\n", col(o, C_BOLD),
			d->hang == 0 ? _("where it stopped") : _("evidence"), col(o, C_OFF));
	else
		fprintf(o->fp, _("\n%schain%s (each waits for the next)\n"),
			col(o, C_BOLD), col(o, C_OFF));
	for (i = 0; i < d->nhops; i++) {
		const struct hx_hop *h = &d->hops[i];
		fprintf(o->fp, "  %2zu. ", i + 1);
		put_clean(o->fp, h->what);
		fputc('\n', o->fp);
		if (h->rec != HX_NOREC) {
			hx_dwhere(d, h->rec, where, sizeof where);
			fprintf(o->fp, "      %s", col(o, C_DIM));
			put_clean(o->fp, where);
			fprintf(o->fp, "%s\n", col(o, C_OFF));
			if (i == 0)
				text_ids(d, o);
		}
		if (h->why[0] && (i + 1 < d->nhops || is_cycle(d)))
			fprintf(o->fp, "      %s-- %s -->%s\n", col(o, C_YEL), h->why,
				col(o, C_OFF));
	}
	if (is_cycle(d))
		fprintf(o->fp, _("      (back to %zu)\n"), d->cycle_at + 1);
}

/* Sorted ranks as ranges, "0,2-5,9": at most max ranges, then how many
 * more; sep between ranges, dash inside one (text and HTML differ). */
void hx_rank_ranges(FILE *fp, const int32_t *r, uint32_t n, uint32_t max,
		    const char *sep, const char *dash)
{
	uint32_t i = 0, shown = 0;

	while (i < n && shown < max) {
		uint32_t j = i;
		while (j + 1 < n && r[j + 1] == r[j] + 1)
			j++;
		fprintf(fp, "%s%d", shown ? sep : "", r[i]);
		if (j > i)
			fprintf(fp, "%s%d", dash, r[j]);
		shown++;
		i = j + 1;
	}
	if (i < n)
		fprintf(fp, _("%s... (%u more)"), sep, n - i);
}

/* Under a group of victims: the roots their named peers lead to, and the
 * peers that lead to none these logs show. */
static void text_waits(const struct out *o, const struct hx_group *gr)
{
	if (gr->role != HX_ROLE_VICTIM)
		return;
	if (gr->nwaits) {
		fprintf(o->fp, "               ");
		fputs(gr->nwaits == 1 ? _("waiting on root rank ")
		      : _("waiting on root ranks "), o->fp);
		hx_rank_ranges(o->fp, gr->waits, gr->nwaits, 12, ",", "-");
		fputc('\n', o->fp);
	}
	if (gr->nlead) {
		fprintf(o->fp, "               ");
		fputs(gr->nlead == 1 && !gr->lead_more
		      ? _("waiting on rank ") : _("waiting on ranks "), o->fp);
		hx_rank_ranges(o->fp, gr->lead, gr->nlead, 12, ",", "-");
		if (gr->lead_more)
			fprintf(o->fp, _(" and %u more"), gr->lead_more);
		fputs(_(", not shown by these logs to be a root or to wait on one"), o->fp);
		fputc('\n', o->fp);
	}
}

static void text_groups(const struct hangdx_diagnosis *d, const struct out *o)
{
	size_t g;

	if (!d->ngroups)
		return;
	fprintf(o->fp, _("\n%sranks%s\n"), col(o, C_BOLD), col(o, C_OFF));
	for (g = 0; g < d->ngroups; g++) {
		const struct hx_group *gr = &d->groups[g];
		if (d->partial)     /* more past the ceiling may share it */
			fprintf(o->fp, _("  at least %u rank%s  "), gr->nranks,
				gr->nranks == 1 ? "" : "s");
		else
			fprintf(o->fp, _("  %5u rank%s  "), gr->nranks,
				gr->nranks == 1 ? " " : "s");
		put_clean(o->fp, gr->state);
		fputs(_(": "), o->fp);
		if (gr->nranks && rank_pseudo(d, gr->ranks[0]))
			fputc('?', o->fp);      /* its state says where from */
		else
			hx_rank_ranges(o->fp, gr->ranks, gr->nranks, 12, ",", "-");
		fputc('\n', o->fp);
		text_waits(o, gr);
	}
}

static void text_list(const struct out *o, const char *title,
		      const char *const *v, size_t n, const char *c)
{
	size_t i;

	if (!n)
		return;
	fprintf(o->fp, "\n%s%s%s\n", col(o, c), title, col(o, C_OFF));
	for (i = 0; i < n; i++) {
		char line[1100];
		snprintf(line, sizeof line, "- %s", v[i]);
		wrap(o->fp, line, 2, 2, 78);
	}
}

int hangdx_diagnosis_write_text(const struct hangdx_diagnosis *d, FILE *fp,
				unsigned flags)
{
	struct out o = { fp, (flags & HANGDX_COLOR) != 0 };

	text_head(d, &o);
	text_chain(d, &o);
	text_groups(d, &o);
	text_list(&o, _("fix"), d->fixes, d->nfixes, C_BOLD);
	text_list(&o, _("notes"), d->facts, d->nfacts, C_BOLD);
	text_list(&o, _("warnings"), d->warnings, d->nwarnings, C_YEL);
	text_list(&o, _("missing evidence"), d->missing, d->nmissing, C_BOLD);
	return ferror(fp) ? HANGDX_EIO : HANGDX_OK;
}

/* ---- JSON ---- */

/* A byte that is not UTF-8 is written \ufffd, and so is U+FFFD itself:
 * evidence JSON Lines carry such a byte as U+FFFD, so a line quoted from
 * facts reads as the same line quoted from the log. */
static void jstr(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n;

	fputc('"', fp);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\') {
			fprintf(fp, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' ||
			   *p == '&') {
			fprintf(fp, "\\u%04x", *p);
		} else if (*p < 0x80) {
			fputc(*p, fp);
		} else if ((n = hx_utf8_len(p)) != 0) {  /* valid UTF-8 */
			if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] == 0xbd)
				fputs("\\ufffd", fp);  /* U+FFFD: one spelling */
			else
				fwrite(p, 1, n, fp);
			p += n - 1;
		} else {                                 /* GBK, binary */
			fputs("\\ufffd", fp);
		}
	}
	fputc('"', fp);
}

static void json_list(FILE *fp, const char *key, const char *const *v, size_t n)
{
	size_t i;

	fprintf(fp, ",\n  \"%s\": [", key);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", fp);
		jstr(fp, v[i]);
	}
	fputc(']', fp);
}

/* The files left out of timing (timing.c), each with why. */
static void json_left(const struct hangdx_diagnosis *d, FILE *fp)
{
	size_t i;

	fprintf(fp, ",\n  \"left_out_of_timing\": [");
	for (i = 0; i < d->nleft; i++) {
		const struct hx_leftout *l = &d->left[i];

		fprintf(fp, "%s\n    {\"file\": ", i ? "," : "");
		jstr(fp, hx_ev_str(d->ev, l->file));
		fprintf(fp, ", \"why\": \"%s\"", hx_leftout_why_name(l->why));
		if (l->why == HX_LEFT_CUT_LINE)
			fprintf(fp, ", \"line\": %llu", (unsigned long long)l->line);
		if (l->pid >= 0)
			fprintf(fp, ", \"pid\": %lld", (long long)l->pid);
		if (l->why == HX_LEFT_EARLIER_PROCESS)
			fprintf(fp, ", \"before_pid\": %lld", (long long)l->other);
		if (l->why == HX_LEFT_NOT_IN_CREATION)
			fprintf(fp, ", \"rank\": %lld, \"rank_pid\": %lld",
				(long long)l->rank, (long long)l->other);
		if (l->why == HX_LEFT_EARLIER_RUN)
			fprintf(fp, ", \"gap_s\": %.3f", (double)l->gap / 1e6);
		fputc('}', fp);
	}
	fprintf(fp, "\n  ]");
}

static void json_chain(const struct hangdx_diagnosis *d, FILE *fp)
{
	size_t i;
	char where[600];

	fprintf(fp, ",\n  \"chain\": [");
	for (i = 0; i < d->nhops; i++) {
		const struct hx_hop *h = &d->hops[i];
		fprintf(fp, "%s\n    {\"rank\": %d, \"kind\": \"%s\"", i ? "," : "",
			h->rank, h->kind);
		if (h->stream_id >= 0)
			fprintf(fp, ", \"stream_id\": %lld, \"task_id\": %lld",
				(long long)h->stream_id, (long long)h->task_id);
		fprintf(fp, ", \"what\": ");
		jstr(fp, h->what);
		fprintf(fp, ", \"waits_for\": ");
		jstr(fp, h->why);
		fprintf(fp, ", \"evidence\": ");
		if (h->rec == HX_NOREC) {
			fputs("null", fp);
		} else {
			hx_dwhere(d, h->rec, where, sizeof where);
			jstr(fp, where);
		}
		fputc('}', fp);
	}
	fprintf(fp, "%s]", d->nhops ? "\n  " : "");
}

static const char *role_name(uint8_t role)
{
	return role == HX_ROLE_ROOT ? "root" : role == HX_ROLE_VICTIM ? "victim" : "none";
}

static void json_roots(const struct hangdx_diagnosis *d, FILE *fp)
{
	uint32_t i;

	fprintf(fp, ",\n  \"roots\": [");
	for (i = 0; i < d->nroots; i++)
		fprintf(fp, "%s%d", i ? ", " : "", d->roots[i]);
	fputc(']', fp);
}

static void json_groups(const struct hangdx_diagnosis *d, FILE *fp)
{
	size_t g;
	uint32_t i;

	fprintf(fp, ",\n  \"groups\": [");
	for (g = 0; g < d->ngroups; g++) {
		const struct hx_group *gr = &d->groups[g];
		fprintf(fp, "%s\n    {\"state\": ", g ? "," : "");
		jstr(fp, gr->state);
		fprintf(fp, ", \"count\": %u, %s\"ranks\": [", gr->nranks,
			d->partial ? "\"at_least\": true, " : "");
		for (i = 0; i < gr->nranks; i++)
			fprintf(fp, "%s%d", i ? "," : "", gr->ranks[i]);
		fputc(']', fp);
		if (gr->role != HX_ROLE_NONE)
			fprintf(fp, ", \"role\": \"%s\"", role_name(gr->role));
		if (gr->role == HX_ROLE_VICTIM) {
			fprintf(fp, ", \"waits_on\": [");
			for (i = 0; i < gr->nwaits; i++)
				fprintf(fp, "%s%d", i ? "," : "", gr->waits[i]);
			fputc(']', fp);
		}
		if (gr->role == HX_ROLE_VICTIM && gr->nlead) {
			fprintf(fp, ", \"waits_on_unrooted\": [");
			for (i = 0; i < gr->nlead; i++)
				fprintf(fp, "%s%d", i ? "," : "", gr->lead[i]);
			fputc(']', fp);
			if (gr->lead_more)
				fprintf(fp, ", \"waits_on_unrooted_more\": %u",
					gr->lead_more);
		}
		fputc('}', fp);
	}
	fprintf(fp, "%s]", d->ngroups ? "\n  " : "");
}

static void json_ranks(const struct hangdx_diagnosis *d, FILE *fp)
{
	uint32_t r;
	char ts[32];

	fprintf(fp, ",\n  \"ranks\": [");
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		fprintf(fp, "%s\n    {\"rank\": %d, \"seen\": %s, \"lost\": %s, "
			    "\"clock_skew_s\": %.6f", r ? "," : "", ri->rank,
			ri->seen ? "true" : "false", ri->lost ? "true" : "false",
			(double)ri->skew_us / 1e6);
		if (ri->first_err_ts != HX_NONE) {
			hx_format_ts(ri->first_err_ts, ts);
			fprintf(fp, ", \"first_error\": \"%s\"", ts);
		}
		if (ri->pseudo) {
			fprintf(fp, ", \"rank_known\": false, \"pid\": %lld",
				(long long)ri->pseudo_pid);
			if (ri->pseudo_where) {
				fprintf(fp, ", \"%s\": ", ri->pseudo_pid >= 0
					? "node" : "file");
				jstr(fp, ri->pseudo_where);
			}
		}
		if (ri->wait_peer >= 0)
			fprintf(fp, ", \"waits_for_rank\": %lld", (long long)ri->wait_peer);
		if (ri->npeers) {
			uint8_t k;
			fprintf(fp, ", \"waits_on_ranks\": [");
			for (k = 0; k < ri->npeers; k++)
				fprintf(fp, "%s%d", k ? "," : "", ri->peers[k]);
			fputc(']', fp);
		}
		if (ri->role != HX_ROLE_NONE)
			fprintf(fp, ", \"role\": \"%s\"", role_name(ri->role));
		if (ri->index >= 0)
			fprintf(fp, ", \"op_index\": %lld", (long long)ri->index);
		if (ri->op) {
			fprintf(fp, ", \"op\": ");
			jstr(fp, ri->op);
		}
		if (ri->last_progress_ts != HX_NONE && d->last_ts != HX_NONE)
			fprintf(fp, ", \"no_progress_s\": %.3f",
				(double)(d->last_ts - ri->last_progress_ts) / 1e6);
		fprintf(fp, ", \"state\": ");
		jstr(fp, ri->state);
		fputc('}', fp);
	}
	fprintf(fp, "%s]", d->nranks ? "\n  " : "");
}

/* Where the root rank ran: node and device, as the logs name them. */
static void json_root(const struct hangdx_diagnosis *d, FILE *fp)
{
	const struct hx_rankinfo *ri;

	if (d->root_rank < 0 || (uint32_t)d->root_rank >= d->nranks)
		return;
	ri = &d->ranks[d->root_rank];
	fprintf(fp, ",\n  \"root\": {\"rank\": %d, \"node\": ", ri->rank);
	if (ri->node)
		jstr(fp, ri->node);
	else
		fputs("null", fp);
	fprintf(fp, ", \"device\": %lld}", (long long)ri->device);
}

static void json_num(FILE *fp, bool *any, const char *key, int64_t v)
{
	if (v < 0)
		return;
	fprintf(fp, "%s\"%s\": %lld", *any ? ", " : "", key, (long long)v);
	*any = true;
}

static void json_s(FILE *fp, bool *any, const char *key, const char *v)
{
	if (!v)
		return;
	fprintf(fp, "%s\"%s\": ", *any ? ", " : "", key);
	jstr(fp, v);
	*any = true;
}

/* The stuck notify waits an FFTS+ timeout lists after it. */
static void json_stuck(const struct hangdx_diagnosis *d, FILE *fp, bool *any)
{
	size_t i, n = 0;

	for (i = 0; i < d->norder && n < 64; i++) {
		uint32_t rec = d->order[i];

		if (d->ev->recs[rec].kind != HX_K_RT_STUCK_NOTIFY)
			continue;
		fprintf(fp, "%s{\"context_id\": %lld, \"notify_id\": %lld}",
			n ? ", " : (*any ? ", \"stuck_notifies\": ["
					 : "\"stuck_notifies\": ["),
			(long long)hx_dnum(d, rec, HX_F_CONTEXT, -1),
			(long long)hx_dnum(d, rec, HX_F_NOTIFY_RT, -1));
		n++;
	}
	if (n) {
		fputc(']', fp);
		*any = true;
	}
}

/* The ids of the record that decided: stream, task, notify, event, the
 * rank a wait or a connection named, SeqNum, the code and reason. */
static void json_ids(const struct hangdx_diagnosis *d, FILE *fp)
{
	uint32_t rec = d->id_rec, c = d->sig.code_rec;
	const struct hx_field *f;
	const char *code;
	bool any = false;
	char hex[24];
	int64_t id[3];

	if (rec == HX_NOREC)
		return;
	near_ids(d, rec, id);
	fprintf(fp, ",\n  \"ids\": {");
	json_s(fp, &any, "kind", hx_kind_name(d->ev->recs[rec].kind));
	json_num(fp, &any, "stream", id[0]);
	json_num(fp, &any, "task", id[1]);
	if ((f = hx_df(d, rec, HX_F_NOTIFY_HCCL)) != NULL) {
		snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)f->num);
		json_s(fp, &any, "notify", hex);
	} else {
		json_num(fp, &any, "notify", id[2]);
	}
	json_num(fp, &any, "event", hx_dnum(d, rec, HX_F_EVENT, -1));
	json_num(fp, &any, "context_id", hx_dnum(d, rec, HX_F_CONTEXT, -1));
	json_num(fp, &any, "remote_rank", remote_rank(d, rec));
	json_num(fp, &any, "global_rank", hx_dnum(d, rec, HX_F_GLOBAL_RANK, -1));
	json_num(fp, &any, "seq_num", hx_dnum(d, rec, HX_F_SEQ_NUM, -1));
	json_s(fp, &any, "op_type", hx_dstr(d, rec, HX_F_OP_TYPE));
	json_num(fp, &any, "timeout_ms", hx_dnum(d, rec, HX_F_TIMEOUT_MS, -1));
	code = hx_rec_code(d, rec);
	if (!code && c != HX_NOREC)
		code = hx_rec_code(d, c);
	json_s(fp, &any, "error_code", code);
	json_s(fp, &any, "reason", hx_dstr(d, rec, HX_F_ERR_DESC));
	if (d->cat == HX_CAT_FFTS)
		json_stuck(d, fp, &any);
	fputc('}', fp);
}

/* The failure of the first failing rank: where it stopped. */
static void json_first(const struct hangdx_diagnosis *d, FILE *fp)
{
	const struct hx_rankinfo *ri;
	char where[600];
	uint32_t task;

	if (d->first_err_rank < 0 || (uint32_t)d->first_err_rank >= d->nranks)
		return;
	ri = &d->ranks[d->first_err_rank];
	if (ri->fail_rec == HX_NOREC)
		return;
	/* the task the runtime names as failed (a model stream's report names
	 * the model task); a link error's own lines name no stream: the AICPU
	 * dump of the failed copy does */
	task = ri->task_rec != HX_NOREC ? ri->task_rec : ri->fail_rec;
	if (hx_dnum(d, task, HX_F_STREAM, -1) < 0 && ri->dma_rec != HX_NOREC)
		task = ri->dma_rec;
	fprintf(fp, ",\n  \"first_failure\": {\"rank\": %d, \"kind\": \"%s\", "
		    "\"stream_id\": %lld, \"task_id\": %lld, \"evidence\": ",
		ri->rank, hx_kind_name(d->ev->recs[ri->fail_rec].kind),
		(long long)hx_dnum(d, task, HX_F_STREAM, -1),
		(long long)hx_dnum(d, task, HX_F_TASK, -1));
	hx_dwhere(d, task == ri->task_rec ? task : ri->fail_rec, where, sizeof where);
	jstr(fp, where);
	fputc('}', fp);
}

/* What a ceiling cut: the record ceiling (the records kept), the size
 * ceilings (files or members read in part or not at all), and what was
 * read, kept or not. */
static void json_cut(const struct hangdx_diagnosis *d, FILE *fp)
{
	const struct hx_counts *c = &d->ev->c;

	fputs(",\n  \"partial\": true,\n  \"cut\": {", fp);
	if (c->skipped[HX_S_RECORDS])
		fprintf(fp, "\"records_kept\": %zu, ", hx_cut_kept(d));
	if (c->skipped[HX_S_RECORDS] && hx_cut_kept(d) != d->ev->nrec)
		fprintf(fp, "\"records_here\": %zu, ", d->ev->nrec);
	if (c->skipped[HX_S_LIMIT])
		fprintf(fp, "\"files_over_size_limit\": %llu, ",
			(unsigned long long)c->skipped[HX_S_LIMIT]);
	fprintf(fp, "\"files_read\": %llu, \"lines_read\": %llu}",
		(unsigned long long)c->files, (unsigned long long)c->lines);
}

int hangdx_diagnosis_write_json(const struct hangdx_diagnosis *d, FILE *fp)
{
	static const char *const vnames[] = { "no_hang", "hang", "deadlock" };
	char ts[32];

	fprintf(fp, "{\n  \"format\": \"hangdx-diagnosis-1\",\n  \"verdict\": \"%s\",\n"
		    "  \"hang\": %s,\n"
		    "  \"category\": \"%s\",\n  \"proven\": %s,\n  \"summary\": ",
		vnames[d->verdict], d->hang > 0 ? "true" : d->hang == 0 ? "false" : "null",
		hx_cat_id(d->cat), d->proven ? "true" : "false");
	jstr(fp, d->summary);
	if (d->partial)         /* absent: nothing was cut */
		json_cut(d, fp);
	fprintf(fp, ",\n  \"root_rank\": %d,\n  \"first_failing_rank\": %d,\n"
		    "  \"aicpu_cores\": %u", d->root_rank, d->first_rank,
		    hx_rank_cores(d, d->root_rank));
	json_roots(d, fp);
	if (d->first_ts != HX_NONE) {
		hx_format_ts(d->first_ts, ts);
		fprintf(fp, ",\n  \"first_error_time\": \"%s\"", ts);
	}
	if (d->margin_rank >= 0 && d->first_rank >= 0)  /* absent: ordered */
		fprintf(fp, ",\n  \"first_failing_close\": {\"rank\": %d, "
			    "\"after_ms\": %.3f, \"within_ms\": %.3f}", d->margin_rank,
			(double)d->margin_us / 1e3, (double)d->margin_within_us / 1e3);
	json_ids(d, fp);
	json_root(d, fp);
	json_first(d, fp);
	json_chain(d, fp);
	json_groups(d, fp);
	json_list(fp, "fixes", d->fixes, d->nfixes);
	json_list(fp, "notes", d->facts, d->nfacts);
	json_list(fp, "warnings", d->warnings, d->nwarnings);
	json_list(fp, "missing", d->missing, d->nmissing);
	if (d->nleft)           /* absent: every file was timed */
		json_left(d, fp);
	json_ranks(d, fp);
	fprintf(fp, "\n}\n");
	return ferror(fp) ? HANGDX_EIO : HANGDX_OK;
}

/* The graph with every root rank marked. */
static int dot_roots(const struct hangdx_diagnosis *d, struct hx_buf *b,
		     const char *title)
{
	uint8_t *mark = NULL;
	uint32_t i;
	int err;

	if (d->nroots && d->st.nranks) {
		mark = hx_calloc(d->ctx, d->st.nranks + 1, 1);
		if (!mark)
			return HANGDX_ENOMEM;
		for (i = 0; i < d->nroots; i++)
			if ((uint32_t)d->roots[i] < d->st.nranks)
				mark[d->roots[i]] = i < HX_ROOTS_SHOWN ? 1 : 2;
	}
	err = hx_report_dot(b, &d->wg, &d->st, title, mark);
	hx_free(d->ctx, mark);
	return err;
}

int hangdx_diagnosis_write_dot(const struct hangdx_diagnosis *d, FILE *fp)
{
	struct hx_buf b;
	int err;

	hx_buf_init(&b, d->ctx, 256u << 20);
	if (d->have_snapshot) {
		char title[200];
		snprintf(title, sizeof title, "hangdx: %s, %s",
			 verdict_name(d->verdict), hx_cat_text(d->cat));
		err = dot_roots(d, &b, title);
	} else {
		err = hx_buf_puts(&b, "digraph hangdx {\n  label=\"no device stream dumps: "
				       "nothing to draw\";\n}\n");
	}
	if (!err && b.p && fputs(b.p, fp) < 0)
		err = HANGDX_EIO;
	hx_buf_free(&b);
	return err;
}
