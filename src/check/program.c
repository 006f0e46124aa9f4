/*
 * program.c - the checker's static model: the scenario's program unrolled
 * into what every stream will ever hold.  Streams are static sequences
 * once each host's issue order is fixed (it is: a host issues its program
 * in order) and kernel expansions append deterministically in K_c order,
 * so the whole program is built once, through the same op sequence as the
 * simulator (src/model/opseq.c), into a static hx_state.  On top of it:
 * host entries (what each runtime call appends and the SQ room it needs),
 * kernels (where their expansion ends), notify uses (who records or waits
 * on what) and the conflict flags the stubborn sets of explore.c use.
 */
#include <string.h>
#include "check.h"

#define MAX_CK (1u << 26)

struct tslot {                  /* transport notify (comm, dst, src, op, round, ch) */
	uint32_t k[6];
	int32_t notify;
	bool used;
};

struct pend {                   /* an AI_CPU op whose kernel expands later */
	struct hx_opdesc d;
	uint32_t comm, op, rank;
	uint64_t tag;
	uint32_t kern;
	const char *name;
};

struct unroll {
	struct ck_model *m;
	struct hx_state *st;
	struct tslot *tmap;
	size_t ntmap, captmap;
	struct pend *pend;
	size_t npend, cappend;
	/* the entry being built and the op being placed */
	struct ck_entry *e;
	uint32_t rank, comm, op, ustream, main, work;
	uint64_t tag;
	const char *name;
	uint32_t kern;              /* kernel placed by the current op */
	int err;
};

/* ---- transport notifies ---- */

static uint64_t tslot_hash(const uint32_t *k)
{
	return hx_hash(k, 6 * sizeof *k);
}

static int tmap_grow(struct unroll *u)
{
	size_t n = u->captmap ? u->captmap * 2 : 1024, i;
	struct tslot *nw = hx_calloc(u->m->ctx, n, sizeof *nw);

	if (!nw)
		return HANGDX_ENOMEM;
	for (i = 0; i < u->captmap; i++) {
		size_t j;
		if (!u->tmap[i].used)
			continue;
		for (j = tslot_hash(u->tmap[i].k) & (n - 1); nw[j].used;
		     j = (j + 1) & (n - 1))
			;
		nw[j] = u->tmap[i];
	}
	hx_free(u->m->ctx, u->tmap);
	u->tmap = nw;
	u->captmap = n;
	return HANGDX_OK;
}

static int32_t tnotify(struct unroll *u, const struct hx_optask *ot)
{
	uint32_t k[6] = { u->comm, ot->dst, ot->src, u->op, ot->round, ot->ch };
	size_t j;
	int32_t n;

	if ((u->ntmap + 1) * 2 > u->captmap && (u->err = tmap_grow(u)))
		return -1;
	for (j = tslot_hash(k) & (u->captmap - 1); u->tmap[j].used;
	     j = (j + 1) & (u->captmap - 1))
		if (memcmp(u->tmap[j].k, k, sizeof k) == 0)
			return u->tmap[j].notify;
	u->err = hx_state_add_notify(u->st, ot->dst, HX_NR_PEER,
				     (int32_t)u->comm, (int32_t)ot->src, &n);
	if (u->err)
		return -1;
	memcpy(u->tmap[j].k, k, sizeof k);
	u->tmap[j].notify = n;
	u->tmap[j].used = true;
	u->ntmap++;
	return n;
}

/* ---- entries ---- */

static void entry_room(struct ck_entry *e, uint32_t stream, uint32_t n)
{
	if (e->nroom < CK_MAX_APP) {
		e->room_stream[e->nroom] = stream;
		e->room_n[e->nroom++] = n;
	}
}

/* Append a task on behalf of the current entry (host side) or not. */
static uint32_t put(struct unroll *u, uint32_t stream, const struct hx_task *t)
{
	struct ck_entry *e = u->e;
	uint32_t task = 0, i, from = (uint32_t)u->st->streams[stream].n;

	if (u->err)
		return 0;
	u->err = hx_state_append(u->st, stream, t, &task);
	if (u->err || !e)
		return task;
	for (i = 0; i < e->napp && e->app_stream[i] != stream; i++)
		;
	if (i == e->napp) {
		if (e->napp == CK_MAX_APP) {
			u->err = HANGDX_ELIMIT;
			return task;
		}
		e->app_stream[i] = stream;
		e->app_from[i] = from;
		e->napp++;
	}
	e->app_to[i] = from + 1;
	return task;
}

static int32_t opnotify(struct unroll *u, const struct hx_optask *ot)
{
	const struct hx_comm_rank *cr = &u->st->dev[u->rank].comm[u->comm];

	return ot->notify == HX_ON_PEER ? tnotify(u, ot)
					 : hx_opseq_local_notify(cr, ot->notify);
}

/* One template of the op sequence, placed as the simulator places it. */
static void place(void *ud, const struct hx_optask *ot)
{
	struct unroll *u = ud;
	const struct hx_comm_rank *cr = &u->st->dev[u->rank].comm[u->comm];
	struct hx_task t;
	uint32_t stream, task;

	memset(&t, 0, sizeof t);
	t.kind = ot->kind;
	t.comm = (int32_t)u->comm;
	t.op = u->op;
	t.peer = ot->peer;
	t.dep = -1;
	t.event = -1;
	t.notify = ot->notify == HX_ON_NONE ? -1 : opnotify(u, ot);
	if (u->err)
		return;
	if (ot->tagged)
		t.tag = u->tag;
	t.timeout_ns = hx_opseq_timeout_s((enum hx_op_tmo)ot->tmo,
					  cr->exec_timeout_s) * HX_NS_PER_S;
	if (ot->kind == HX_T_KERNEL)
		t.name = u->name;
	switch (ot->where) {
	case HX_OW_USER: stream = u->ustream; break;
	case HX_OW_KERNEL: stream = cr->kstream; break;
	case HX_OW_ORDER: stream = cr->ordstream; break;
	case HX_OW_MAIN: stream = u->main; break;
	default: stream = u->work; break;
	}
	task = put(u, stream, &t);
	if (ot->kind == HX_T_KERNEL && !u->err)
		u->kern = task;
}

static void op_desc(struct unroll *u, const struct hx_step *step,
		    struct hx_opdesc *d)
{
	const struct hx_comm *cm = &u->st->comms[u->comm];

	memset(d, 0, sizeof *d);
	d->coll = step->coll;
	d->bytes = step->bytes;
	d->peer = step->peer;
	d->rank = u->rank;
	d->members = cm->members;
	d->nmembers = cm->nmembers;
	d->me = u->st->dev[u->rank].comm[u->comm].me;
	d->slave = u->m->sc->slave_streams > 0;
	d->order_launch = u->m->sc->order_launch;
}

static void work_stream(struct unroll *u, const struct hx_opdesc *d,
			uint32_t main)
{
	const struct hx_comm_rank *cr = &u->st->dev[u->rank].comm[u->comm];

	u->main = main;
	u->work = d->slave && d->nmembers > 1 ? cr->sstream[0] : main;
}

static void pend_push(struct unroll *u, const struct hx_opdesc *d)
{
	void *v = u->pend;
	struct pend *p;

	u->err = hx_vec_reserve(u->m->ctx, &v, &u->cappend, u->npend + 1,
				sizeof *u->pend, MAX_CK);
	if (u->err)
		return;
	u->pend = v;
	p = &u->pend[u->npend++];
	p->d = *d;
	p->comm = u->comm;
	p->op = u->op;
	p->rank = u->rank;
	p->tag = u->tag;
	p->kern = u->kern;
	p->name = u->name;
}

static void issue_coll(struct unroll *u, const struct hx_step *step,
		       uint32_t comm)
{
	struct hx_device *dv = &u->st->dev[u->rank];
	struct hx_comm_rank *cr = &dv->comm[comm];
	struct hx_opdesc d;

	u->comm = comm;
	u->op = cr->ops_issued++;
	u->ustream = dv->user_stream[step->stream];
	u->name = step->name;
	u->tag = hx_opseq_tag(comm, u->op, step->coll, step->bytes,
			      step->dtype);
	u->e->comm = (int32_t)comm;
	op_desc(u, step, &d);
	entry_room(u->e, u->ustream, HX_OPSEQ_ISSUE_ROOM);
	entry_room(u->e, cr->kstream, HX_OPSEQ_ISSUE_ROOM);
	if (u->m->order_launch)
		entry_room(u->e, cr->ordstream, HX_OPSEQ_ISSUE_ROOM);
	if (hx_scenario_env(u->m->sc, u->rank)->mode == HX_MODE_AI_CPU) {
		hx_opseq_issue(&d, place, u);
		pend_push(u, &d);
		return;
	}
	entry_room(u->e, u->ustream, hx_opseq_expand_room(&d));
	if (u->m->sc->slave_streams > 0)
		entry_room(u->e, cr->sstream[0], hx_opseq_expand_room(&d));
	work_stream(u, &d, u->ustream);
	hx_opseq_expand(&d, false, place, u);
}

static void issue_simple(struct unroll *u, const struct hx_step *step)
{
	uint32_t stream = u->st->dev[u->rank].user_stream[step->stream];
	struct hx_task t;
	uint32_t task;

	entry_room(u->e, stream, 1);
	hx_opseq_simple(u->st, u->rank, step, &t);
	task = put(u, stream, &t);
	if (!u->err)
		hx_opseq_simple_appended(u->st, u->rank, step, task);
}

static struct ck_entry *entry_new(struct unroll *u, uint32_t step)
{
	struct ck_model *m = u->m;
	void *v = m->entry;

	u->err = hx_vec_reserve(m->ctx, &v, &m->capentry, m->nentry + 1,
				sizeof *m->entry, MAX_CK);
	if (u->err)
		return NULL;
	m->entry = v;
	memset(&m->entry[m->nentry], 0, sizeof *m->entry);
	m->entry[m->nentry].step = step;
	m->entry[m->nentry].comm = -1;
	return &m->entry[m->nentry++];
}

/* One flattened program entry (step, instance) on one rank. */
static void issue_entry(struct unroll *u, uint32_t si, int32_t inst)
{
	const struct hangdx_scenario *sc = u->m->sc;
	const struct hx_step *step = &sc->steps[si];
	uint32_t comm = 0;

	if (!hx_step_for_rank(step, u->rank) || step->kind == HX_STEP_HOST_SLEEP)
		return;
	if (step->kind == HX_STEP_COLL) {
		comm = hx_opseq_comm(sc, (uint32_t)step->group,
				     (uint32_t)(inst < 0 ? 0 : inst));
		if (u->st->dev[u->rank].comm[comm].me < 0)
			return;
	}
	u->e = entry_new(u, si);
	if (!u->e)
		return;
	switch (step->kind) {
	case HX_STEP_HOST_SYNC:
		u->e->kind = step->stream < 0 ? E_SYNC_ALL : E_SYNC_STREAM;
		if (step->stream >= 0)
			u->e->sync_stream =
				u->st->dev[u->rank].user_stream[step->stream];
		break;
	case HX_STEP_COLL:
		u->e->kind = E_APPEND;
		issue_coll(u, step, comm);
		break;
	default:
		u->e->kind = E_APPEND;
		issue_simple(u, step);
		break;
	}
	u->e = NULL;
}

static void issue_rank(struct unroll *u, uint32_t rank)
{
	const struct hangdx_scenario *sc = u->m->sc;
	uint32_t i, k;

	u->rank = rank;
	u->m->re_first[rank] = (uint32_t)u->m->nentry;
	for (i = 0; i < sc->nsteps && !u->err; i++) {
		const struct hx_step *st = &sc->steps[i];

		if (st->kind == HX_STEP_COLL && st->instance < 0) {
			for (k = 0; k < sc->groups[st->group].count && !u->err; k++)
				issue_entry(u, i, (int32_t)k);
		} else {
			issue_entry(u, i, st->instance);
		}
	}
}

/* The kernels expand, in each K_c's order, into M_c and S0. */
static void expand_all(struct unroll *u)
{
	size_t i;

	for (i = 0; i < u->npend && !u->err; i++) {
		const struct pend *p = &u->pend[i];
		const struct hx_comm_rank *cr = &u->st->dev[p->rank].comm[p->comm];

		u->rank = p->rank;
		u->comm = p->comm;
		u->op = p->op;
		u->tag = p->tag;
		u->name = p->name;
		work_stream(u, &p->d, cr->mstream);
		hx_opseq_expand(&p->d, true, place, u);
		u->st->tasks[p->kern].end_pos = (uint32_t)u->st->streams[cr->mstream].n;
		u->st->tasks[p->kern].xref =
			(uint32_t)u->st->streams[cr->sstream[0]].n;
		u->st->tasks[p->kern].kstate = hx_opseq_expand_room(&p->d);
	}
}

/* ---- from the static state to the checker's arrays ---- */

static int streams_build(struct ck_model *m)
{
	const struct hx_state *st = &m->st;
	uint32_t r, i, n = 0;

	m->nstream = (uint32_t)st->nstreams;
	m->stream = hx_calloc(m->ctx, m->nstream + 1, sizeof *m->stream);
	m->rs_first = hx_calloc(m->ctx, m->nranks + 1, sizeof *m->rs_first);
	m->of_hstream = hx_calloc(m->ctx, m->nstream + 1, sizeof *m->of_hstream);
	if (!m->stream || !m->rs_first || !m->of_hstream)
		return HANGDX_ENOMEM;
	for (r = 0; r < m->nranks; r++) {
		m->rs_first[r] = n;
		for (i = 0; i < st->nstreams; i++) {
			if (st->streams[i].rank != r)
				continue;
			m->of_hstream[i] = n;
			m->stream[n].rank = r;
			m->stream[n].hstream = i;
			m->stream[n].role = st->streams[i].role;
			m->stream[n].len = (uint32_t)st->streams[i].n;
			n++;
		}
	}
	m->rs_first[m->nranks] = n;
	return HANGDX_OK;
}

static void task_fill(struct ck_model *m, uint32_t s, uint32_t pos,
		      struct ck_task *c)
{
	const struct hx_state *st = &m->st;
	uint32_t ht = st->streams[m->stream[s].hstream].q[pos];
	const struct hx_task *t = &st->tasks[ht];

	memset(c, 0, sizeof *c);
	c->kind = t->kind;
	c->htask = ht;
	c->notify = t->notify;
	c->dep_stream = CK_NONE;
	c->kern = CK_NONE;
	c->pool = t->kind == HX_T_AICPU ||
		  (t->kind == HX_T_KERNEL && m->shares_pool);
	c->kstart = t->kind == HX_T_KERNEL && m->order_launch;
	if (t->kind == HX_T_EVENT_WAIT && t->dep >= 0) {
		c->dep_stream = m->of_hstream[st->tasks[t->dep].stream];
		c->dep_pos = st->tasks[t->dep].pos;
	}
}

bool ck_kern_keeps(const struct ck_kern *k, bool drained)
{
	struct hx_kcond c = k->cond;

	c.expanded = true;
	c.drained = drained;
	return hx_kernel_resident(&c, NULL);
}

/* The rule for a kernel of comm on rank, expanded, M_c not drained. */
static bool keeps_until_drained(const struct hx_state *st, uint32_t rank,
				uint32_t comm)
{
	struct hx_kcond c;

	hx_kcond_of(st, rank, comm, &c);
	c.expanded = true;
	return hx_kernel_resident(&c, NULL);
}

static int kern_add(struct ck_model *m, uint32_t s, uint32_t pos,
		    struct ck_task *c)
{
	const struct hx_state *st = &m->st;
	const struct hx_task *t = &st->tasks[c->htask];
	const struct hx_comm_rank *cr =
		&st->dev[m->stream[s].rank].comm[t->comm];
	struct ck_kern *k;
	void *v = m->kern;
	int err = hx_vec_reserve(m->ctx, &v, &m->capkern, m->nkern + 1,
				 sizeof *m->kern, MAX_CK);

	if (err)
		return err;
	m->kern = v;
	k = &m->kern[m->nkern];
	k->kstream = s;
	k->pos = pos;
	k->mstream = m->of_hstream[cr->mstream];
	k->m_end = t->end_pos;
	k->sstream = m->sc->slave_streams > 0 ? m->of_hstream[cr->sstream[0]]
					      : CK_NONE;
	k->s_end = t->xref;
	k->room = t->kstate;
	hx_kcond_of(st, m->stream[s].rank, (uint32_t)t->comm, &k->cond);
	k->stays = ck_kern_keeps(k, false);
	k->o1 = m->order_launch ? cr->o1 : -1;
	c->kern = (uint32_t)m->nkern++;
	return HANGDX_OK;
}

static int tasks_build(struct ck_model *m)
{
	uint32_t s, p;
	int err;

	m->ntask = 0;
	for (s = 0; s < m->nstream; s++)
		m->ntask += m->stream[s].len;
	m->task = hx_calloc(m->ctx, m->ntask + 1, sizeof *m->task);
	if (!m->task)
		return HANGDX_ENOMEM;
	m->ntask = 0;
	for (s = 0; s < m->nstream; s++) {
		struct ck_stream *cs = &m->stream[s];

		cs->base = (uint32_t)m->ntask;
		for (p = 0; p < cs->len; p++) {
			struct ck_task *c = &m->task[m->ntask++];

			task_fill(m, s, p, c);
			if (c->kind == HX_T_KERNEL) {
				err = kern_add(m, s, p, c);
				if (err)
					return err;
			}
		}
	}
	return HANGDX_OK;
}

/* Which streams the host feeds and which the kernels do. */
static int feeds_build(struct ck_model *m)
{
	const struct hx_state *st = &m->st;
	uint32_t s, i, k;

	for (s = 0; s < m->nstream; s++) {
		struct ck_stream *cs = &m->stream[s];
		const struct hx_stream *hs = &st->streams[cs->hstream];
		bool aicpu = hx_scenario_env(m->sc, cs->rank)->mode ==
			     HX_MODE_AI_CPU;

		cs->kstream = s;
		cs->feed = FEED_HOST;
		if (hs->comm >= 0) {
			const struct hx_comm_rank *cr =
				&st->dev[cs->rank].comm[hs->comm];
			cs->kstream = m->of_hstream[cr->kstream];
			cs->stays = hs->role == HX_SR_MAIN &&
				    keeps_until_drained(st, cs->rank,
							(uint32_t)hs->comm);
			/* the kernel writes M_c and S0 only; S1.. stay empty */
			if (aicpu && (hs->role == HX_SR_MAIN ||
				      (hs->role == HX_SR_SLAVE &&
				       cs->hstream == cr->sstream[0])))
				cs->feed = FEED_KERNEL;
		}
		cs->pool_from = hx_calloc(m->ctx, cs->len + 1,
					  sizeof *cs->pool_from);
		if (!cs->pool_from)
			return HANGDX_ENOMEM;
		if (hs->role != HX_SR_KERNEL)
			continue;
		cs->kbefore = hx_calloc(m->ctx, cs->len + 1, sizeof *cs->kbefore);
		cs->kerns = hx_calloc(m->ctx, cs->len + 1, sizeof *cs->kerns);
		if (!cs->kbefore || !cs->kerns)
			return HANGDX_ENOMEM;
		for (i = 0, k = 0; i < cs->len; i++) {
			cs->kbefore[i] = k;
			if (ck_at(m, s, i)->kind == HX_T_KERNEL)
				cs->kerns[k++] = ck_at(m, s, i)->kern;
		}
		cs->kbefore[cs->len] = k;
		cs->nkerns = k;
	}
	return HANGDX_OK;
}

/* Host-fed streams: the tail after each entry that appended to them. */
static int breakpoints_build(struct ck_model *m)
{
	size_t e;
	uint32_t i, s;

	for (e = 0; e < m->nentry; e++)
		for (i = 0; i < m->entry[e].napp; i++)
			m->entry[e].app_stream[i] =
				m->of_hstream[m->entry[e].app_stream[i]];
	for (e = 0; e < m->nentry; e++) {
		struct ck_entry *en = &m->entry[e];
		for (i = 0; i < en->nroom; i++)
			en->room_stream[i] = m->of_hstream[en->room_stream[i]];
		if (en->kind == E_SYNC_STREAM)
			en->sync_stream = m->of_hstream[en->sync_stream];
		for (i = 0; i < en->napp; i++)
			m->stream[en->app_stream[i]].nbp++;
	}
	for (s = 0; s < m->nstream; s++) {
		struct ck_stream *cs = &m->stream[s];
		cs->bp_entry = hx_calloc(m->ctx, cs->nbp + 1, sizeof *cs->bp_entry);
		cs->bp_tail = hx_calloc(m->ctx, cs->nbp + 1, sizeof *cs->bp_tail);
		if (!cs->bp_entry || !cs->bp_tail)
			return HANGDX_ENOMEM;
		cs->nbp = 0;
	}
	for (e = 0; e < m->nentry; e++) {
		const struct ck_entry *en = &m->entry[e];
		for (i = 0; i < en->napp; i++) {
			struct ck_stream *cs = &m->stream[en->app_stream[i]];
			/* entry index local to the rank */
			cs->bp_entry[cs->nbp] = (uint32_t)e - m->re_first[cs->rank];
			cs->bp_tail[cs->nbp++] = en->app_to[i];
		}
	}
	return HANGDX_OK;
}

/* Is p + 1 where some resident kernel's expansion ends on M_c s? */
static bool op_end_at(const struct ck_model *m, uint32_t s, uint32_t pos)
{
	const struct ck_stream *k = &m->stream[m->stream[s].kstream];
	uint32_t i;

	for (i = 0; i < k->nkerns; i++)
		if (m->kern[k->kerns[i]].m_end == pos)
			return true;
	return false;
}

static bool is_o1(const struct ck_model *m, int32_t n)
{
	return n >= 0 && m->st.notifies[n].role == HX_NR_O1;
}

static void flags_build(struct ck_model *m)
{
	uint32_t s, p, r;
	size_t e;

	for (s = 0; s < m->nstream; s++) {
		struct ck_stream *cs = &m->stream[s];

		cs->grab_last = cs->rel_last = CK_NONE;
		for (p = cs->len; p-- > 0;)
			cs->pool_from[p] = cs->pool_from[p + 1] +
					   ck_at(m, s, p)->pool;
		for (p = 0; p < cs->len; p++) {
			struct ck_task *c = &m->task[cs->base + p];

			if ((c->kind == HX_T_AICPU && c->pool) ||
			    (c->kind == HX_T_KERNEL && c->pool &&
			     !m->kern[c->kern].stays))
				c->flags |= CK_F_REL;
			if (p + 1 < cs->len && (ck_at(m, s, p + 1)->pool ||
						ck_at(m, s, p + 1)->kind == HX_T_KERNEL))
				c->flags |= CK_F_GRAB;
			if (cs->role == HX_SR_MAIN && cs->stays &&
			    op_end_at(m, s, p + 1))
				c->flags |= CK_F_POOL;  /* release, then K_c moves */
			if (c->flags & CK_F_GRAB)
				cs->grab_last = p;
			if (c->flags & CK_F_REL)
				cs->rel_last = p;
		}
	}
	for (r = 0; r < m->nranks; r++) {
		m->host_grab_last[r] = CK_NONE;
		for (e = m->re_first[r]; e < m->re_first[r + 1]; e++) {
			struct ck_entry *en = &m->entry[e];
			uint32_t i;
			for (i = 0; i < en->napp; i++) {
				const struct ck_task *c =
					ck_at(m, en->app_stream[i], en->app_from[i]);
				if (c->pool || c->kind == HX_T_KERNEL)
					en->flags |= CK_F_GRAB;
			}
			if (en->flags & CK_F_GRAB)
				m->host_grab_last[r] = (uint32_t)(e - m->re_first[r]);
		}
	}
}

/* Who records and waits on each notify: one use per (stream, task). */
static int notifies_build(struct ck_model *m)
{
	uint32_t n, s, p;

	m->nnotify = (uint32_t)m->st.nnotifies;
	m->notify = hx_calloc(m->ctx, m->nnotify + 1, sizeof *m->notify);
	m->use = hx_calloc(m->ctx, m->ntask + 1, sizeof *m->use);
	m->rank_bits = hx_calloc(m->ctx, m->nranks + 1, sizeof *m->rank_bits);
	if (!m->notify || !m->use || !m->rank_bits)
		return HANGDX_ENOMEM;
	for (n = 0; n < m->nnotify; n++) {
		m->notify[n].rank = m->st.notifies[n].rank;
		m->notify[n].o1 = is_o1(m, (int32_t)n);
		m->notify[n].rec_stream = m->notify[n].wait_stream = CK_NONE;
	}
	m->nuse = 0;
	for (s = 0; s < m->nstream; s++)
		for (p = 0; p < m->stream[s].len; p++) {
			const struct ck_task *c = ck_at(m, s, p);
			struct ck_notify *no;
			struct ck_nuse *u;

			if (c->notify < 0)
				continue;
			no = &m->notify[c->notify];
			if (c->kind == HX_T_NOTIFY_RECORD) {
				no->rec_stream = s;
				no->rec_pos = p;
			} else {
				no->wait_stream = s;
				no->wait_pos = p;
			}
			u = &m->use[m->nuse++];
			u->stream = s;
			u->first = u->last = p;
			u->rec = c->kind == HX_T_NOTIFY_RECORD;
		}
	return HANGDX_OK;
}

/* Sort uses by notify so each notify's are contiguous; merge per stream. */
static int uses_group(struct ck_model *m)
{
	size_t i, j, nout = 0;
	uint32_t *count = hx_calloc(m->ctx, m->nnotify + 2, sizeof *count);
	struct ck_nuse *out = hx_calloc(m->ctx, m->nuse + 1, sizeof *out);
	uint32_t *fill = hx_calloc(m->ctx, m->nnotify + 2, sizeof *fill);

	if (!count || !out || !fill) {
		hx_free(m->ctx, count);
		hx_free(m->ctx, out);
		hx_free(m->ctx, fill);
		return HANGDX_ENOMEM;
	}
	for (i = 0; i < m->nuse; i++) {
		const struct ck_task *c =
			ck_at(m, m->use[i].stream, m->use[i].first);
		count[c->notify + 1]++;
	}
	for (i = 1; i <= m->nnotify; i++)
		count[i] += count[i - 1];
	for (i = 0; i < m->nuse; i++) {
		const struct ck_task *c =
			ck_at(m, m->use[i].stream, m->use[i].first);
		uint32_t n = (uint32_t)c->notify, base = count[n];
		/* merge with an earlier use of the same stream and kind */
		for (j = base; j < base + fill[n]; j++) {
			if (out[j].stream == m->use[i].stream &&
			    out[j].rec == m->use[i].rec) {
				out[j].last = m->use[i].last;
				break;
			}
		}
		if (j == base + fill[n])
			out[base + fill[n]++] = m->use[i];
	}
	for (i = 0; i < m->nnotify; i++) {
		m->notify[i].use_first = count[i];
		m->notify[i].nuse = fill[i];
		nout += fill[i];
	}
	hx_free(m->ctx, m->use);
	m->use = out;
	m->nuse = nout;
	hx_free(m->ctx, count);
	hx_free(m->ctx, fill);
	return HANGDX_OK;
}

/* A notify's value is derived from stream positions when it has at most
 * one record and one wait (transport notifies); else it is a state bit. */
static void bits_assign(struct ck_model *m)
{
	uint32_t r, n, nrec, nwait, i, p;

	m->nbits = 0;
	for (r = 0; r < m->nranks; r++) {
		m->rank_bits[r] = m->nbits;
		for (n = 0; n < m->nnotify; n++) {
			struct ck_notify *no = &m->notify[n];
			if (no->rank != r)
				continue;
			nrec = nwait = 0;
			for (i = 0; i < no->nuse; i++) {
				const struct ck_nuse *u = &m->use[no->use_first + i];
				for (p = u->first; p <= u->last; p++) {
					const struct ck_task *c = ck_at(m, u->stream, p);
					if (c->notify != (int32_t)n)
						continue;
					if (c->kind == HX_T_NOTIFY_RECORD)
						nrec++;
					else
						nwait++;
				}
			}
			no->bit = (no->o1 || nrec > 1 || nwait > 1)
				? (int32_t)m->nbits++ : -1;
		}
	}
	m->rank_bits[m->nranks] = m->nbits;
}

/*
 * Ranks whose core users all give their core back by themselves: an
 * ordinary AICPU op completes whenever it runs; a kernel with retry off
 * returns its core when it has written its expansion, which needs SQ
 * room on M_c and S0.  Those streams are written only by the kernels of
 * their K_c, in order, so when every kernel's expansion fits in the SQ
 * on top of everything written before it (nothing drained), the room is
 * always there.  A resident (retry-on) kernel waits for M_c to drain and
 * disqualifies its rank.
 */
/* Core users of rank r in the whole program. */
static uint32_t demand_of(const struct ck_model *m, uint32_t r)
{
	uint32_t s, n = 0;

	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
		n += m->stream[s].pool_from[0];
	return n;
}

static void free_pools(struct ck_model *m)
{
	uint32_t r, s, i;

	m->nfree_pool = 0;
	for (r = 0; r < m->nranks; r++) {
		bool ok = true;
		for (s = m->rs_first[r]; ok && s < m->rs_first[r + 1]; s++) {
			const struct ck_stream *cs = &m->stream[s];
			uint32_t pm = 0, ps = 0;
			for (i = 0; ok && i < cs->nkerns; i++) {
				const struct ck_kern *k = &m->kern[cs->kerns[i]];
				if (!ck_at(m, s, k->pos)->pool)
					continue;
				ok = !k->stays && pm + k->room <= m->depth &&
				     (k->sstream == CK_NONE ||
				      ps + k->room <= m->depth);
				pm = k->m_end;
				ps = k->s_end;
			}
		}
		m->free_pool[r] = ok;
		/* worth an abstract search only where a task could wait */
		m->nfree_pool += ok && demand_of(m, r) > m->cores;
	}
}

static bool rank_alike(const struct ck_model *m, uint32_t r)
{
	uint32_t a = m->rs_first[0], b = m->rs_first[r], i;

	if (m->rs_first[r + 1] - b != m->rs_first[1] - a ||
	    m->re_first[r + 1] - m->re_first[r] != m->re_first[1] ||
	    m->rank_bits[r + 1] - m->rank_bits[r] != m->rank_bits[1])
		return false;
	for (i = 0; a + i < m->rs_first[1]; i++)
		if (m->stream[a + i].len != m->stream[b + i].len ||
		    m->stream[a + i].role != m->stream[b + i].role)
			return false;
	return true;
}

/* SPMD without rank-specific steps or environments: rank rotations map
 * the ring (and every communicator of all ranks) onto itself. */
static bool symmetric(const struct ck_model *m)
{
	const struct hangdx_scenario *sc = m->sc;
	uint32_t i;

	if (m->nranks < 2 || sc->noverrides)
		return false;
	for (i = 0; i < sc->ngroups; i++)
		if (sc->groups[i].ranks)
			return false;
	for (i = 0; i < sc->nsteps; i++)
		if (sc->steps[i].only)
			return false;
	for (i = 1; i < m->nranks; i++)
		if (!rank_alike(m, i))
			return false;
	return true;
}

static void layout(struct ck_model *m)
{
	uint32_t r, s, w = 0, maxv = 0;

	for (s = 0; s < m->nstream; s++)
		if (m->stream[s].len > maxv)
			maxv = m->stream[s].len;
	m->w16 = maxv < 16000 && m->nentry < 65000;
	for (r = 0; r < m->nranks; r++) {
		uint32_t bits = m->rank_bits[r + 1] - m->rank_bits[r];
		m->blk_first[r] = w;
		w += 1 + (m->rs_first[r + 1] - m->rs_first[r]);
		w += (bits + (m->w16 ? 15 : 31)) / (m->w16 ? 16 : 32);
	}
	m->blk_first[m->nranks] = w;
	m->nwords = w;
	m->state_bytes = (size_t)w * (m->w16 ? 2 : 4);
}

static int model_arrays(struct ck_model *m)
{
	m->re_first = hx_calloc(m->ctx, m->nranks + 1, sizeof *m->re_first);
	m->host_grab_last = hx_calloc(m->ctx, m->nranks + 1,
				      sizeof *m->host_grab_last);
	m->blk_first = hx_calloc(m->ctx, m->nranks + 1, sizeof *m->blk_first);
	m->free_pool = hx_calloc(m->ctx, m->nranks + 1, 1);
	return m->re_first && m->host_grab_last && m->blk_first && m->free_pool
		? HANGDX_OK : HANGDX_ENOMEM;
}

static int unroll(struct ck_model *m)
{
	struct unroll u;
	uint32_t r;

	memset(&u, 0, sizeof u);
	u.m = m;
	u.st = &m->st;
	for (r = 0; r < m->nranks && !u.err; r++)
		issue_rank(&u, r);
	m->re_first[m->nranks] = (uint32_t)m->nentry;
	if (!u.err)
		expand_all(&u);
	hx_free(m->ctx, u.tmap);
	hx_free(m->ctx, u.pend);
	return u.err;
}

int ck_model_build(struct ck_model *m, struct hangdx_ctx *ctx,
		   const struct hangdx_scenario *sc)
{
	uint32_t i;
	int err;

	memset(m, 0, sizeof *m);
	m->ctx = ctx;
	m->sc = sc;
	m->nranks = sc->nranks;
	m->cores = sc->cores;
	m->depth = sc->sq_depth;
	m->shares_pool = sc->hccl_shares_pool;
	m->order_launch = sc->order_launch;
	for (i = 0; i < sc->nfaults; i++)
		if (sc->faults[i].kind != HX_FAULT_CLOCK_SKEW &&
		    sc->faults[i].kind != HX_FAULT_SLOW_RANK)
			m->ignored_faults++;
	err = hx_state_init(&m->st, ctx, sc);
	if (err)
		return err;
	err = model_arrays(m);
	if (!err)
		err = hx_opseq_setup(&m->st, NULL, NULL);
	if (!err)
		err = unroll(m);
	if (!err)
		err = streams_build(m);
	if (!err)
		err = tasks_build(m);
	if (!err)
		err = feeds_build(m);
	if (!err)
		err = breakpoints_build(m);
	if (!err) {
		flags_build(m);
		err = notifies_build(m);
	}
	if (!err)
		err = uses_group(m);
	if (!err) {
		bits_assign(m);
		layout(m);
		m->symmetric = symmetric(m);
		free_pools(m);
	}
	if (err)
		ck_model_free(m);
	return err;
}

void ck_model_free(struct ck_model *m)
{
	uint32_t s;

	if (!m->ctx)
		return;
	for (s = 0; m->stream && s < m->nstream; s++) {
		hx_free(m->ctx, m->stream[s].bp_entry);
		hx_free(m->ctx, m->stream[s].bp_tail);
		hx_free(m->ctx, m->stream[s].kbefore);
		hx_free(m->ctx, m->stream[s].kerns);
		hx_free(m->ctx, m->stream[s].pool_from);
	}
	hx_free(m->ctx, m->stream);
	hx_free(m->ctx, m->task);
	hx_free(m->ctx, m->kern);
	hx_free(m->ctx, m->rs_first);
	hx_free(m->ctx, m->of_hstream);
	hx_free(m->ctx, m->entry);
	hx_free(m->ctx, m->re_first);
	hx_free(m->ctx, m->host_grab_last);
	hx_free(m->ctx, m->notify);
	hx_free(m->ctx, m->use);
	hx_free(m->ctx, m->rank_bits);
	hx_free(m->ctx, m->blk_first);
	hx_free(m->ctx, m->free_pool);
	hx_state_free(&m->st);
	memset(m, 0, sizeof *m);
}
