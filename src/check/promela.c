/*
 * promela.c - the checker's transition system written as Promela, so
 * that SPIN can decide the same question independently: one process per
 * host (its runtime calls in order) and per stream (its static tasks in
 * order), globals for heads, tails, head phases, notify values and the
 * busy cores of each AICPU pool.  Every step is one atomic block with the
 * same guard and the same effects as ck_apply (explore.c): a core user
 * reaching a head takes a free core or waits, a release hands its core to
 * any one waiter (a nondeterministic `if`), a retry-on kernel returns its
 * core in the step that drains its M_c.  A stuck state of the checker is
 * exactly an invalid end state of SPIN.
 */
#include <stdio.h>
#include <string.h>
#include "check.h"

struct pw {
	const struct ck_model *m;
	FILE *fp;
};

static void p_label(const struct pw *w, uint32_t s, uint32_t pos, char *buf,
		    size_t n)
{
	hx_task_label(&w->m->st, ck_at(w->m, s, pos)->htask, buf, n);
}

/* A kernel at its head starts: with order launch it records O1. */
static void p_kstart(const struct pw *w, uint32_t s, uint32_t pos)
{
	const struct ck_task *c = ck_at(w->m, s, pos);

	if (c->kind == HX_T_KERNEL && w->m->kern[c->kern].o1 >= 0)
		fprintf(w->fp, " nv[%d] = 1;", w->m->kern[c->kern].o1);
}

/* The task at pos reached the head of s (if it has been issued). */
static void p_arrive(const struct pw *w, uint32_t s, uint32_t pos)
{
	const struct ck_model *m = w->m;
	const struct ck_task *c;
	uint32_t r = m->stream[s].rank;

	if (pos >= m->stream[s].len)
		return;
	c = ck_at(m, s, pos);
	if (c->pool) {
		fprintf(w->fp, " if :: tl[%u] > %u -> if :: busy[%u] < CORES -> "
			"busy[%u]++; ph[%u] = 2;", s, pos, r, r, s);
		p_kstart(w, s, pos);
		fprintf(w->fp, " :: else -> ph[%u] = 1 fi :: else -> skip fi;", s);
	} else if (c->kind == HX_T_KERNEL) {
		fprintf(w->fp, " if :: tl[%u] > %u -> ph[%u] = 2;", s, pos, s);
		p_kstart(w, s, pos);
		fprintf(w->fp, " :: else -> skip fi;");
	}
}

/* A core comes back on rank r: any one waiter gets it, or it is free. */
static void p_release(const struct pw *w, uint32_t r)
{
	const struct ck_model *m = w->m;
	uint32_t s;

	fprintf(w->fp, " if");
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++) {
		const struct ck_stream *cs = &m->stream[s];
		uint32_t p;
		bool pool = false;

		for (p = 0; p < cs->len && !pool; p++)
			pool = ck_at(m, s, p)->pool;
		if (!pool)
			continue;
		fprintf(w->fp, " :: ph[%u] == 1 -> ph[%u] = 2;", s, s);
		if (cs->role == HX_SR_KERNEL && cs->nkerns &&
		    m->kern[cs->kerns[0]].o1 >= 0)
			fprintf(w->fp, " nv[%d] = 1;", m->kern[cs->kerns[0]].o1);
	}
	fprintf(w->fp, " :: else -> busy[%u]-- fi;", r);
}

/* The head of s moves past pos: a drained M_c frees its kernel's core. */
static void p_advance(const struct pw *w, uint32_t s, uint32_t pos)
{
	const struct ck_model *m = w->m;
	const struct ck_stream *cs = &m->stream[s];
	uint32_t i;

	fprintf(w->fp, " hd[%u] = %u; ph[%u] = 0;", s, pos + 1, s);
	if (cs->role == HX_SR_MAIN && cs->stays) {
		const struct ck_stream *k = &m->stream[cs->kstream];
		for (i = 0; i < k->nkerns; i++) {
			const struct ck_kern *kn = &m->kern[k->kerns[i]];
			if (kn->m_end != pos + 1)
				continue;
			fprintf(w->fp, " if :: hd[%u] == %u && ph[%u] == 3 ->",
				cs->kstream, kn->pos, cs->kstream);
			if (ck_at(m, cs->kstream, kn->pos)->pool)
				p_release(w, cs->rank);
			fprintf(w->fp, " hd[%u] = %u; ph[%u] = 0;", cs->kstream,
				kn->pos + 1, cs->kstream);
			p_arrive(w, cs->kstream, kn->pos + 1);
			fprintf(w->fp, " :: else -> skip fi;");
		}
	}
	p_arrive(w, s, pos + 1);
}

static void p_task(const struct pw *w, uint32_t s, uint32_t p)
{
	const struct ck_model *m = w->m;
	const struct ck_task *c = ck_at(m, s, p);
	FILE *fp = w->fp;
	char lab[200];

	p_label(w, s, p, lab, sizeof lab);
	fprintf(fp, "\t/* %s */\n\tatomic { hd[%u] == %u && ", lab, s, p);
	switch (c->kind) {
	case HX_T_NOTIFY_WAIT:
		fprintf(fp, "tl[%u] > %u && nv[%d] -> nv[%d] = 0;", s, p,
			c->notify, c->notify);
		break;
	case HX_T_NOTIFY_RECORD:
		fprintf(fp, "tl[%u] > %u -> nv[%d] = 1;", s, p, c->notify);
		break;
	case HX_T_EVENT_WAIT:
		fprintf(fp, "tl[%u] > %u", s, p);
		if (c->dep_stream != CK_NONE)
			fprintf(fp, " && hd[%u] > %u", c->dep_stream, c->dep_pos);
		fprintf(fp, " ->");
		break;
	case HX_T_AICPU:
		fprintf(fp, "ph[%u] == 2 ->", s);
		p_release(w, m->stream[s].rank);
		break;
	case HX_T_KERNEL: {
		const struct ck_kern *k = &m->kern[c->kern];
		fprintf(fp, "ph[%u] == 2 && tl[%u] - hd[%u] + %u <= DEPTH",
			s, k->mstream, k->mstream, k->room);
		if (k->sstream != CK_NONE)
			fprintf(fp, " && tl[%u] - hd[%u] + %u <= DEPTH",
				k->sstream, k->sstream, k->room);
		fprintf(fp, " -> tl[%u] = %u;", k->mstream, k->m_end);
		if (k->sstream != CK_NONE)
			fprintf(fp, " tl[%u] = %u;", k->sstream, k->s_end);
		if (k->stays) {
			fprintf(fp, " ph[%u] = 3 }\n", s);
			return;
		}
		if (c->pool)
			p_release(w, m->stream[s].rank);
		break;
	}
	default:
		fprintf(fp, "tl[%u] > %u ->", s, p);
	}
	p_advance(w, s, p);
	fprintf(fp, " }\n");
}

static void p_stream(const struct pw *w, uint32_t s)
{
	char name[80];
	uint32_t p;

	if (!w->m->stream[s].len)
		return;
	hx_stream_label(&w->m->st, w->m->stream[s].hstream, name, sizeof name);
	fprintf(w->fp, "\n/* rank%u %s */\nactive proctype s%u()\n{\n",
		w->m->stream[s].rank, name, s);
	for (p = 0; p < w->m->stream[s].len; p++)
		p_task(w, s, p);
	fprintf(w->fp, "}\n");
}

static void p_entry(const struct pw *w, uint32_t r, const struct ck_entry *e)
{
	const struct ck_model *m = w->m;
	FILE *fp = w->fp;
	uint32_t i, s;
	bool first = true;

	switch (e->kind) {
	case E_SYNC_STREAM:
		fprintf(fp, "\t(hd[%u] >= tl[%u]); /* host_sync */\n",
			e->sync_stream, e->sync_stream);
		return;
	case E_SYNC_ALL:
		fprintf(fp, "\t(true");
		for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
			if (m->stream[s].len)
				fprintf(fp, " && hd[%u] >= tl[%u]", s, s);
		fprintf(fp, "); /* host_sync all */\n");
		return;
	default:
		break;
	}
	fprintf(fp, "\tatomic { ");
	for (i = 0; i < e->nroom; i++) {
		fprintf(fp, "%stl[%u] - hd[%u] + %u <= DEPTH", first ? "" : " && ",
			e->room_stream[i], e->room_stream[i], e->room_n[i]);
		first = false;
	}
	fprintf(fp, "%s ->", first ? "true" : "");
	for (i = 0; i < e->napp; i++) {
		s = e->app_stream[i];
		fprintf(fp, " tl[%u] = %u;", s, e->app_to[i]);
		if (ck_at(m, s, e->app_from[i])->pool ||
		    ck_at(m, s, e->app_from[i])->kind == HX_T_KERNEL) {
			fprintf(fp, " if :: hd[%u] == %u ->", s, e->app_from[i]);
			p_arrive(w, s, e->app_from[i]);
			fprintf(fp, " :: else -> skip fi;");
		}
	}
	fprintf(fp, " }\n");
}

static void p_host(const struct pw *w, uint32_t r)
{
	const struct ck_model *m = w->m;
	uint32_t e;

	if (m->re_first[r + 1] == m->re_first[r])
		return;
	fprintf(w->fp, "\n/* rank%u host */\nactive proctype h%u()\n{\n", r, r);
	for (e = m->re_first[r]; e < m->re_first[r + 1]; e++)
		p_entry(w, r, &m->entry[e]);
	fprintf(w->fp, "}\n");
}

static void p_globals(const struct pw *w)
{
	const struct ck_model *m = w->m;
	uint32_t s, maxlen = 0;

	for (s = 0; s < m->nstream; s++)
		if (m->stream[s].len > maxlen)
			maxlen = m->stream[s].len;
	fprintf(w->fp,
		"/* The transition system of `hangdx check` for scenario %s,\n"
		" * written by `hangdx check --promela`.  Deadlock = invalid end\n"
		" * state: spin -a FILE && cc -DSAFETY -o pan pan.c && ./pan */\n"
		"#define CORES %u\n#define DEPTH %u\n\n"
		"%s hd[%u];   /* stream heads */\n%s tl[%u];   /* stream tails */\n"
		"byte ph[%u];   /* head phase: 1 waits for a core, 2 holds one, "
		"3 resident kernel */\n"
		"byte busy[%u]; /* busy AICPU cores per rank */\n"
		"bit nv[%u];    /* notify values */\n",
		hangdx_scenario_name(m->sc), m->cores, m->depth,
		maxlen < 32000 ? "short" : "int", m->nstream + 1,
		maxlen < 32000 ? "short" : "int", m->nstream + 1,
		m->nstream + 1, m->nranks + 1, m->nnotify + 1);
}

int hangdx_check_write_promela(struct hangdx_ctx *ctx,
			       const struct hangdx_scenario *sc,
			       const char *path)
{
	struct ck_model m;
	struct hx_outfile o;
	struct pw w;
	uint32_t r, s;
	int err = ck_model_build(&m, ctx, sc);

	if (err)
		return err;
	err = hx_outfile_open(ctx, &o, path);
	if (err) {
		ck_model_free(&m);
		return err;
	}
	w.m = &m;
	w.fp = o.fp;
	p_globals(&w);
	for (r = 0; r < m.nranks; r++)
		p_host(&w, r);
	for (s = 0; s < m.nstream; s++)
		p_stream(&w, s);
	err = hx_outfile_commit(ctx, &o);
	ck_model_free(&m);
	return err;
}
