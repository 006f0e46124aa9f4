/*
 * witness.c - from the path the search found to something a person (and
 * the simulator) can follow: the path is replayed from the initial state
 * in the real frame (undoing the symmetry rotations), each step becomes a
 * numbered line ("rank0 K_c1 #1 KERNEL_HCCL(c1 op0) takes AICPU core 0"),
 * core slots are assigned as the simulator assigns them (lowest free),
 * and every core grant is kept for the replay schedule.  The stuck state
 * is then laid onto the static hx_state so that the shared wait-for graph
 * (waitgraph.c) proves the deadlock and names the same cycle the
 * simulator's truth.json names.
 */
#include <stdio.h>
#include <string.h>
#include "check_int.h"

#define MAX_LINES (1u << 22)

static int push_line(struct hangdx_check *ck, char ***v, size_t *n,
		     size_t *cap, const char *s)
{
	void *p = *v;
	char *d;
	int err = hx_vec_reserve(ck->ctx, &p, cap, *n + 1, sizeof **v, MAX_LINES);

	if (err)
		return err;
	*v = p;
	d = hx_strdup(ck->ctx, s);
	if (!d)
		return HANGDX_ENOMEM;
	(*v)[(*n)++] = d;
	return HANGDX_OK;
}

static void label(const struct ck_model *m, uint32_t s, uint32_t pos,
		  char *buf, size_t n)
{
	hx_task_label(&m->st, ck_at(m, s, pos)->htask, buf, n);
}

static void stream_name(const struct ck_model *m, uint32_t s, char *buf,
			size_t n)
{
	hx_stream_label(&m->st, m->stream[s].hstream, buf, n);
}

/* ---- replay ---- */

struct replay {
	struct hangdx_check *ck;
	const struct ck_model *m;
	struct ck_ws w, pre;
	int32_t *slot;          /* per stream: core held, -1 */
	int32_t *holder;        /* per rank * cores: stream, -1 */
	struct hx_buf line;
	int err;
};

static int32_t slot_take(struct replay *x, uint32_t s)
{
	const struct ck_model *m = x->m;
	uint32_t r = m->stream[s].rank, c;

	for (c = 0; c < m->cores; c++) {
		if (x->holder[r * m->cores + c] < 0) {
			x->holder[r * m->cores + c] = (int32_t)s;
			x->slot[s] = (int32_t)c;
			return (int32_t)c;
		}
	}
	return -1;
}

static int32_t slot_free(struct replay *x, uint32_t s)
{
	const struct ck_model *m = x->m;
	int32_t c = x->slot[s];

	if (c >= 0)
		x->holder[m->stream[s].rank * m->cores + (uint32_t)c] = -1;
	x->slot[s] = -1;
	return c;
}

static int grant_push(struct replay *x, uint32_t s, uint32_t pos)
{
	struct hangdx_check *ck = x->ck;
	const struct ck_model *m = x->m;
	const struct hx_task *t = &m->st.tasks[ck_at(m, s, pos)->htask];
	const struct hx_stream *hs = &m->st.streams[m->stream[s].hstream];
	struct ck_grant *g;
	void *v = ck->grants;
	int err = hx_vec_reserve(ck->ctx, &v, &ck->capgrants, ck->ngrants + 1,
				 sizeof *ck->grants, MAX_LINES);

	if (err)
		return err;
	ck->grants = v;
	g = &ck->grants[ck->ngrants++];
	memset(g, 0, sizeof *g);
	g->rank = m->stream[s].rank;
	g->kernel = t->kind == HX_T_KERNEL;
	if (g->kernel) {
		snprintf(g->name, sizeof g->name, "%s", m->st.comms[t->comm].name);
		g->n = t->op;
	} else {
		snprintf(g->name, sizeof g->name, "%s",
			 hs->user >= 0 ? m->sc->streams[hs->user] : "?");
		g->n = pos;
	}
	return HANGDX_OK;
}

static void say_holders(struct replay *x, uint32_t r)
{
	const struct ck_model *m = x->m;
	uint32_t c;
	char lab[160];

	hx_buf_printf(&x->line, " (all %u held:", m->cores);
	for (c = 0; c < m->cores; c++) {
		int32_t s = x->holder[r * m->cores + c];
		if (s < 0)
			continue;
		stream_name(m, (uint32_t)s, lab, sizeof lab);
		hx_buf_printf(&x->line, " %s", lab);
	}
	hx_buf_puts(&x->line, ")");
}

/* An arrival: the head task of s took a core or waits for one. */
static void say_arrival(struct replay *x, int32_t got, int32_t waits)
{
	const struct ck_model *m = x->m;
	char lab[200];

	if (got >= 0) {
		uint32_t s = (uint32_t)got;
		int32_t c = slot_take(x, s);
		label(m, s, x->w.head[s], lab, sizeof lab);
		hx_buf_printf(&x->line, "; %s takes AICPU core %d", lab, c);
		if (!x->err)
			x->err = grant_push(x, s, x->w.head[s]);
	}
	if (waits >= 0) {
		uint32_t s = (uint32_t)waits;
		label(m, s, x->w.head[s], lab, sizeof lab);
		hx_buf_printf(&x->line, "; %s waits for an AICPU core", lab);
		say_holders(x, m->stream[s].rank);
	}
}

static void say_release(struct replay *x, uint32_t who,
			const struct ck_effect *e)
{
	const struct ck_model *m = x->m;
	int32_t c = slot_free(x, who);
	char lab[200];

	hx_buf_printf(&x->line, ", returning core %d", c);
	if (e->granted < 0)
		return;
	x->slot[e->granted] = c;
	x->holder[m->stream[who].rank * m->cores + (uint32_t)c] = e->granted;
	label(m, (uint32_t)e->granted, x->w.head[e->granted], lab, sizeof lab);
	hx_buf_printf(&x->line, "; the core goes to %s (one of %u waiting)",
		      lab, e->nchoices);
	if (!x->err)
		x->err = grant_push(x, (uint32_t)e->granted,
				    x->w.head[e->granted]);
}

static void say_host(struct replay *x, uint32_t r)
{
	const struct ck_model *m = x->m;
	const struct ck_entry *e = &m->entry[m->re_first[r] + x->pre.pc[r]];
	const struct hx_step *st = &m->sc->steps[e->step];
	char sn[80];

	if (e->kind == E_SYNC_ALL) {
		hx_buf_printf(&x->line, "rank%u host: host_sync all passes "
			      "(every stream of the rank has drained)", r);
		return;
	}
	if (e->kind == E_SYNC_STREAM) {
		stream_name(m, e->sync_stream, sn, sizeof sn);
		hx_buf_printf(&x->line, "rank%u host: host_sync %s passes", r, sn);
		return;
	}
	snprintf(sn, sizeof sn, "%s", st->stream >= 0 ?
		 m->sc->streams[st->stream] : "?");
	if (st->kind == HX_STEP_COLL)
		hx_buf_printf(&x->line, "rank%u host: issues %s on %s (stream %s)",
			      r, hx_coll_name(st->coll), m->st.comms[e->comm].name,
			      sn);
	else
		hx_buf_printf(&x->line, "rank%u host: issues %s%s%s on %s", r,
			      hx_task_kind_name((enum hx_task_kind)
				      ck_at(m, e->app_stream[0], e->app_from[0])->kind),
			      st->name ? " " : "", st->name ? st->name : "", sn);
}

static void say_stream(struct replay *x, uint32_t s, const struct ck_effect *e)
{
	const struct ck_model *m = x->m;
	uint32_t h = x->pre.head[s];
	const struct ck_task *c = ck_at(m, s, h);
	char lab[200], sn[80];

	label(m, s, h, lab, sizeof lab);
	if (c->kind == HX_T_KERNEL) {
		const struct ck_kern *k = &m->kern[c->kern];
		stream_name(m, k->mstream, sn, sizeof sn);
		hx_buf_printf(&x->line, "%s writes its op into %s", lab, sn);
		if (k->stays)
			hx_buf_printf(&x->line, "; retry on: it keeps core %d "
				      "until %s drains", x->slot[s], sn);
		else if (c->pool)
			say_release(x, s, e);
		return;
	}
	switch (c->kind) {
	case HX_T_AICPU:
		hx_buf_printf(&x->line, "%s finishes", lab);
		say_release(x, s, e);
		return;
	case HX_T_NOTIFY_WAIT:
	case HX_T_EVENT_WAIT:
		hx_buf_printf(&x->line, "%s is satisfied", lab);
		break;
	default:
		hx_buf_printf(&x->line, "%s %s", lab,
			      c->kind == HX_T_NOTIFY_RECORD ||
			      c->kind == HX_T_EVENT_RECORD ? "is recorded" : "completes");
	}
	if (e->kdone >= 0) {
		uint32_t k = (uint32_t)e->kdone;
		stream_name(m, s, sn, sizeof sn);
		label(m, k, x->pre.head[k], lab, sizeof lab);
		hx_buf_printf(&x->line, "; %s has drained: %s returns", sn, lab);
		say_release(x, k, e);
	}
}

/* Keep the step as a sequence item: host call number pc, or the task at
 * the head of stream s (labelled as the simulator labels it). */
static int seq_push(struct replay *x, uint32_t proc)
{
	struct hangdx_check *ck = x->ck;
	const struct ck_model *m = x->m;
	struct ck_seqitem *q;
	void *v = ck->seq;
	int err = hx_vec_reserve(ck->ctx, &v, &ck->capseq, ck->nseq + 1,
				 sizeof *ck->seq, MAX_LINES);

	if (err)
		return err;
	ck->seq = v;
	q = &ck->seq[ck->nseq++];
	if (proc < m->nranks) {
		q->rank = proc;
		q->stream = UINT32_MAX;
		q->n = x->pre.pc[proc];
		return HANGDX_OK;
	}
	proc -= m->nranks;
	q->rank = m->stream[proc].rank;
	q->stream = m->stream[proc].hstream;
	q->n = x->pre.head[proc];
	if (!ck->slabel) {
		ck->slabel = hx_calloc(ck->ctx, m->st.nstreams + 1,
				       sizeof *ck->slabel);
		if (!ck->slabel)
			return HANGDX_ENOMEM;
		ck->nslabel = m->st.nstreams;
	}
	if (!ck->slabel[q->stream]) {
		char lab[300];
		hx_stream_label(&m->st, q->stream, lab, sizeof lab);
		ck->slabel[q->stream] = hx_strdup(ck->ctx, lab);
		if (!ck->slabel[q->stream])
			return HANGDX_ENOMEM;
	}
	return HANGDX_OK;
}

static int replay_step(struct replay *x, uint32_t proc, uint32_t choice,
		       size_t no)
{
	const struct ck_model *m = x->m;
	struct ck_effect e;
	int err;

	ck_ws_copy(m, &x->pre, &x->w);
	err = seq_push(x, proc);
	if (err)
		return err;
	ck_apply(m, &x->w, proc, choice, &e);
	hx_buf_reset(&x->line);
	hx_buf_printf(&x->line, "%zu. ", no);
	if (proc < m->nranks)
		say_host(x, proc);
	else
		say_stream(x, proc - m->nranks, &e);
	say_arrival(x, e.grab_stream, e.wait_stream);
	say_arrival(x, e.grab2, e.wait2);
	if (!x->line.p)
		return HANGDX_ENOMEM;
	if (x->err)
		return x->err;
	return push_line(x->ck, &x->ck->steps, &x->ck->nsteps, &x->ck->capsteps,
			 x->line.p);
}

/* ---- the stuck state on the static hx_state, for the wait-for graph ---- */

static uint8_t task_state(const struct ck_model *m, const struct ck_ws *w,
			  uint32_t s, uint32_t pos)
{
	if (pos < w->head[s])
		return HX_TS_DONE;
	if (pos >= w->tail[s])
		return HX_TS_ABORTED;      /* not issued yet: not in the stream */
	if (pos > w->head[s])
		return HX_TS_QUEUED;
	if (ck_at(m, s, pos)->kind == HX_T_KERNEL ||
	    ck_at(m, s, pos)->kind == HX_T_AICPU)
		return w->ph[s] == PH_RUN || w->ph[s] == PH_RES
			? HX_TS_RUNNING : HX_TS_WAITING;
	return HX_TS_WAITING;
}

static void lay_streams(struct ck_model *m, const struct ck_ws *w,
			const int32_t *slot)
{
	uint32_t s, p;

	for (s = 0; s < m->nstream; s++) {
		struct hx_stream *hs = &m->st.streams[m->stream[s].hstream];

		for (p = 0; p < m->stream[s].len; p++) {
			const struct ck_task *c = ck_at(m, s, p);
			struct hx_task *t = &m->st.tasks[c->htask];

			t->state = task_state(m, w, s, p);
			t->core = -1;
			if (p == w->head[s] && t->state == HX_TS_RUNNING &&
			    c->pool)
				t->core = slot[s];
			if (c->kind == HX_T_KERNEL && !(p == w->head[s] &&
							 w->ph[s] == PH_RES))
				t->end_pos = 0;
		}
		hs->n = w->tail[s];
		hs->head = w->head[s];
		hs->stopped = 0;
	}
}

static void lay_pools(struct ck_model *m, const struct ck_ws *w,
		      const int32_t *holder)
{
	uint32_t r, c, s;

	for (r = 0; r < m->nranks; r++) {
		struct hx_pool *p = &m->st.dev[r].pool;

		p->busy = w->busy[r];
		p->nwait = 0;
		for (c = 0; c < m->cores; c++) {
			int32_t hs = holder[r * m->cores + c];
			p->holder[c] = hs < 0 ? -1 : (int32_t)ck_at(m, (uint32_t)hs,
				w->head[hs])->htask;
		}
		for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
			if (w->ph[s] == PH_WAIT)
				p->nwait++;
	}
}

static void cycle_text(const struct hx_wgraph *g, const struct hx_state *st,
		       char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < g->ncycle && len + 1 < size; i++) {
		const struct hx_wnode *n = &g->nodes[g->cycle[i]];
		char lab[256];

		if (n->kind == HX_WN_TASK)
			hx_task_label(st, n->id, lab, sizeof lab);
		else if (n->kind == HX_WN_POOL)
			snprintf(lab, sizeof lab, "rank%u AICPU pool (%u/%u cores held)",
				 n->id, st->dev[n->id].pool.busy,
				 st->dev[n->id].pool.cap);
		else
			snprintf(lab, sizeof lab, "rank%u LOST", n->id);
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					i ? " -> " : "", lab);
	}
}

static int explain(struct hangdx_check *ck, struct ck_model *m,
		   const struct ck_ws *w, const int32_t *slot,
		   const int32_t *holder)
{
	struct hx_wgraph g;
	uint32_t n;
	int err;

	lay_streams(m, w, slot);
	lay_pools(m, w, holder);
	for (n = 0; n < m->nnotify; n++)
		m->st.notifies[n].value = ck_value(m, w, (int32_t)n);
	memset(&g, 0, sizeof g);
	g.ctx = ck->ctx;
	err = hx_wgraph_build(&g, &m->st);
	if (!err)
		err = hx_wgraph_detect(&g, &m->st);
	if (!err) {
		ck->verdict = g.ncycle ? HANGDX_CHECK_DEADLOCK : HANGDX_CHECK_HANG;
		ck->cycle_len = g.ncycle;
		cycle_text(&g, &m->st, ck->cycle, sizeof ck->cycle);
	}
	hx_wgraph_free(&g);
	return err;
}

/* ---- who waits on what ---- */

static void why_stream(const struct ck_model *m, const struct ck_ws *w,
		       uint32_t s, const int32_t *slot, struct hx_buf *b)
{
	const struct ck_task *c = ck_at(m, s, w->head[s]);
	char lab[200], obj[120];

	label(m, s, w->head[s], lab, sizeof lab);
	hx_buf_printf(b, "%s ", lab);
	switch (c->kind) {
	case HX_T_NOTIFY_WAIT:
		hx_notify_label(&m->st, c->notify, obj, sizeof obj);
		hx_buf_printf(b, "waits for a record of %s", obj);
		break;
	case HX_T_EVENT_WAIT:
		if (c->dep_stream != CK_NONE)
			label(m, c->dep_stream, c->dep_pos, obj, sizeof obj);
		hx_buf_printf(b, "waits for %s", c->dep_stream != CK_NONE ? obj : "?");
		break;
	case HX_T_AICPU:
	case HX_T_KERNEL:
		if (w->ph[s] == PH_WAIT) {
			hx_buf_printf(b, "waits for an AICPU core (%u/%u held)",
				      w->busy[m->stream[s].rank], m->cores);
		} else if (w->ph[s] == PH_RES) {
			stream_name(m, m->kern[c->kern].mstream, obj, sizeof obj);
			hx_buf_printf(b, "holds core %d until %s drains", slot[s], obj);
		} else if (c->kind == HX_T_KERNEL) {
			hx_buf_printf(b, "holds core %d; no SQ room to expand",
				      slot[s]);
		} else {
			hx_buf_printf(b, "runs on core %d", slot[s]);
		}
		break;
	default:
		hx_buf_puts(b, "is at the head");
	}
}

static int blocked_lines(struct hangdx_check *ck, const struct ck_model *m,
			 const struct ck_ws *w, const int32_t *slot)
{
	struct hx_buf b;
	uint32_t s, r;
	int err = HANGDX_OK;

	hx_buf_init(&b, ck->ctx, 1u << 16);
	for (r = 0; r < m->nranks && !err; r++) {
		uint32_t pc = w->pc[r];
		if (pc < m->re_first[r + 1] - m->re_first[r]) {
			const struct ck_entry *e = &m->entry[m->re_first[r] + pc];
			hx_buf_reset(&b);
			hx_buf_printf(&b, "rank%u host is blocked at %s", r,
				      e->kind == E_APPEND ? "a full SQ" :
				      "host_sync (streams not drained)");
			err = b.p ? push_line(ck, &ck->blocked, &ck->nblocked,
					      &ck->capblocked, b.p) : HANGDX_ENOMEM;
		}
		for (s = m->rs_first[r]; s < m->rs_first[r + 1] && !err; s++) {
			if (w->head[s] >= w->tail[s])
				continue;
			hx_buf_reset(&b);
			why_stream(m, w, s, slot, &b);
			err = b.p ? push_line(ck, &ck->blocked, &ck->nblocked,
					      &ck->capblocked, b.p) : HANGDX_ENOMEM;
		}
	}
	hx_buf_free(&b);
	return err;
}

/* ---- the whole witness ---- */

int ck_witness(struct hangdx_check *ck, struct ck_model *m,
	       const struct ck_result *res)
{
	struct replay x;
	uint32_t k = 0, i;
	size_t n;
	int err;

	memset(&x, 0, sizeof x);
	x.ck = ck;
	x.m = m;
	hx_buf_init(&x.line, ck->ctx, 1u << 16);
	x.slot = hx_alloc(ck->ctx, (m->nstream + 1) * sizeof *x.slot);
	x.holder = hx_alloc(ck->ctx, ((size_t)m->nranks * m->cores + 1) *
			    sizeof *x.holder);
	err = x.slot && x.holder ? HANGDX_OK : HANGDX_ENOMEM;
	if (!err)
		err = ck_ws_alloc(m, &x.w);
	if (!err)
		err = ck_ws_alloc(m, &x.pre);
	if (err)
		goto out_free;
	for (i = 0; i < m->nstream; i++)
		x.slot[i] = -1;
	for (i = 0; i < m->nranks * m->cores; i++)
		x.holder[i] = -1;
	ck_ws_init(m, &x.w);
	for (n = 0; n < res->npath && !err; n++) {
		uint32_t proc = ck_rotate_proc(m, res->path_proc[n], k);
		uint32_t ch = res->path_choice[n] == CK_NONE ? CK_NONE :
			ck_rotate_proc(m, m->nranks + res->path_choice[n], k) -
			m->nranks;

		err = replay_step(&x, proc, ch, n + 1);
		/* the search stored the next state rotated: follow it */
		if (!err && !res->real_frame)
			k = (k + res->path_rot[n]) % m->nranks;
	}
	if (!err)
		err = blocked_lines(ck, m, &x.w, x.slot);
	if (!err)
		err = explain(ck, m, &x.w, x.slot, x.holder);
out_free:
	ck_ws_free(m, &x.w);
	ck_ws_free(m, &x.pre);
	hx_free(ck->ctx, x.slot);
	hx_free(ck->ctx, x.holder);
	hx_buf_free(&x.line);
	return err;
}
