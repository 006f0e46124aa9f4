/*
 * hccl.c - HCCL in the simulator: places the op sequence of
 * src/model/opseq.c on the streams of a rank at its time (the host side of
 * one op in AI_CPU mode, runtime-model.md §5.1; the kernel's expansion
 * into M_c and S_c with ring or send/recv handshakes to the peers, §5.2),
 * resolves transport notifies, and runs the kernel's lifetime: whether it
 * keeps its core (a full SQ, retry on until M_c drains) is the model's one
 * rule, hx_kernel_resident (src/model/resident.c, §6.2).
 * HOST mode puts the same algorithm tasks on the user stream directly,
 * with no kernel and no core.
 */
#include <string.h>
#include "sim.h"
#include "../model/opseq.h"

#define MAX_TMAP (1u << 26)
#define MAX_OPS (1u << 26)
#define STATUS_NS (30 * HX_NS_PER_S)

static uint32_t cidx(const struct sim *s, uint32_t rank, uint32_t comm)
{
	return rank * s->st.ncomms + comm;
}

static void comm_init_record(void *ud, uint32_t rank, uint32_t comm)
{
	struct hx_logrec *r = sim_rec(ud, HX_LR_COMM_INIT, rank);

	if (r)
		r->comm = (int32_t)comm;
}

/* Every rank's user streams and notifies, then its HCCL resources. */
int sim_hccl_setup(struct sim *s)
{
	return hx_opseq_setup(&s->st, comm_init_record, s);
}

/* ---- transport notifies: one per (comm, dst, src, op, round, channel) ---- */

static uint64_t tkey(uint32_t comm, uint32_t dst, uint32_t src, uint32_t op,
		     uint32_t round, uint32_t ch)
{
	uint64_t k = hx_hash(&comm, sizeof comm);

	k = (k ^ dst) * 0x100000001b3ULL;
	k = (k ^ src) * 0x100000001b3ULL;
	k = (k ^ op) * 0x100000001b3ULL;
	k = (k ^ (round * 2u + ch)) * 0x100000001b3ULL;
	return k | 1;
}

static int tmap_grow(struct sim *s)
{
	size_t n = s->captmap ? s->captmap * 2 : 1024, i;
	struct sim_tmap_slot *old = s->tmap, *nw;

	if (n > MAX_TMAP)
		return HANGDX_ELIMIT;
	nw = hx_calloc(s->ctx, n, sizeof *nw);
	if (!nw)
		return HANGDX_ENOMEM;
	for (i = 0; i < s->captmap; i++) {
		size_t j;
		if (!old[i].key)
			continue;
		for (j = old[i].key & (n - 1); nw[j].key; j = (j + 1) & (n - 1))
			;
		nw[j] = old[i];
	}
	hx_free(s->ctx, old);
	s->tmap = nw;
	s->captmap = n;
	return HANGDX_OK;
}

/* Linear probing with backward-shift deletion: no tombstones. */
static void tmap_delete(struct sim *s, size_t j)
{
	size_t mask = s->captmap - 1, k = j;

	for (;;) {
		size_t home;

		k = (k + 1) & mask;
		if (!s->tmap[k].key)
			break;
		home = s->tmap[k].key & mask;
		/* move k back to j unless its home lies cyclically in (j, k] */
		if ((j < k) ? (home <= j || home > k) : (home <= j && home > k)) {
			s->tmap[j] = s->tmap[k];
			j = k;
		}
	}
	s->tmap[j].key = 0;
	s->ntmap--;
}

/* The notify of one handshake; the record's end and the wait's end each
 * look it up once, so the entry goes after the second look-up. */
int32_t sim_tnotify(struct sim *s, uint32_t comm, uint32_t dst, uint32_t src,
		    uint32_t op, uint32_t round, uint32_t ch)
{
	uint64_t key = tkey(comm, dst, src, op, round, ch);
	size_t j;
	int32_t n;
	int err;

	if ((s->ntmap + 1) * 2 > s->captmap && (err = tmap_grow(s))) {
		sim_oom(s, err);
		return -1;
	}
	for (j = key & (s->captmap - 1); s->tmap[j].key;
	     j = (j + 1) & (s->captmap - 1)) {
		if (s->tmap[j].key == key) {
			n = s->tmap[j].notify;
			tmap_delete(s, j);
			return n;
		}
	}
	err = hx_state_add_notify(&s->st, dst, HX_NR_PEER, (int32_t)comm,
				  (int32_t)src, &n);
	if (err) {
		sim_oom(s, err);
		return -1;
	}
	s->tmap[j].key = key;
	s->tmap[j].notify = n;
	s->ntmap++;
	return n;
}

uint64_t sim_op_tag(const struct sim *s, uint32_t comm, uint32_t op,
		    enum hx_coll coll, uint64_t bytes, enum hx_dtype dt)
{
	(void)s;
	return hx_opseq_tag(comm, op, coll, bytes, dt);
}

/* ---- host side of one op (§5.1) ---- */

static int op_new(struct sim *s, uint32_t rank, const struct hx_step *st,
		  uint32_t comm, uint32_t op)
{
	const struct hx_fault *f = sim_mismatch(s, rank, s->st.dev[rank].ncolls);
	struct sim_op *o;
	void *v = s->ops;
	int err;

	err = hx_vec_reserve(s->ctx, &v, &s->capops, s->nops + 1, sizeof *s->ops,
			     MAX_OPS);
	if (err) {
		sim_oom(s, err);
		return -1;
	}
	s->ops = v;
	o = &s->ops[s->nops];
	o->coll = (uint8_t)st->coll;
	o->dtype = (uint8_t)st->dtype;
	o->bytes = st->bytes;
	o->peer = st->peer;
	o->root = st->root;
	o->rank = rank;
	o->comm = comm;
	o->op = op;
	o->name = st->name;
	o->ustream = s->st.dev[rank].user_stream[st->stream];
	if (f && f->what == HX_MISMATCH_TYPE)
		o->coll = (uint8_t)f->coll;
	if (f && f->what == HX_MISMATCH_SIZE)
		o->bytes = f->bytes;
	o->tag = sim_op_tag(s, comm, op, (enum hx_coll)o->coll, o->bytes,
			    (enum hx_dtype)o->dtype);
	return (int)s->nops++;
}

static bool issue_room(struct sim *s, const struct hx_comm_rank *cr,
		       uint32_t u, uint32_t *full)
{
	if (!sim_sq_room(s, u, HX_OPSEQ_ISSUE_ROOM)) {
		*full = u;
		return false;
	}
	if (!sim_sq_room(s, cr->kstream, HX_OPSEQ_ISSUE_ROOM)) {
		*full = cr->kstream;
		return false;
	}
	if (s->sc->order_launch &&
	    !sim_sq_room(s, cr->ordstream, HX_OPSEQ_ISSUE_ROOM)) {
		*full = cr->ordstream;
		return false;
	}
	return true;
}

static void launch_record(struct sim *s, uint32_t rank, uint32_t opi)
{
	const struct sim_op *o = &s->ops[opi];
	struct hx_logrec *r = sim_rec(s, HX_LR_OP_LAUNCH, rank);

	if (!r)
		return;
	r->comm = (int32_t)o->comm;
	r->op = o->op;
	r->coll = o->coll;
	r->dtype = o->dtype;
	r->bytes = o->bytes;
	r->stream_id = s->st.streams[o->ustream].id;
	r->name = o->name;
}

/* ---- placing the templates of src/model/opseq.c ---- */

struct place {                  /* one op's templates being placed */
	struct sim *s;
	uint32_t rank, opi;
	uint32_t main, work;        /* main stream and stream of the exchange */
	bool expansion;             /* tasks the kernel writes (carry xref) */
};

static void op_desc(const struct sim *s, const struct sim_op *o,
		    struct hx_opdesc *d)
{
	const struct hx_comm *cm = &s->st.comms[o->comm];

	memset(d, 0, sizeof *d);
	d->coll = (enum hx_coll)o->coll;
	d->bytes = o->bytes;
	d->peer = o->peer;
	d->rank = o->rank;
	d->members = cm->members;
	d->nmembers = cm->nmembers;
	d->me = s->st.dev[o->rank].comm[o->comm].me;
	d->slave = s->sc->slave_streams > 0;
	d->order_launch = s->sc->order_launch;
}

static uint64_t copy_ns(const struct sim *s, uint64_t bytes)
{
	double gbps = s->sc->link_gbps > 0 ? s->sc->link_gbps : 50.0;

	return (uint64_t)((double)bytes / (gbps * 1e9) * 1e9) + 1000;
}

static int32_t place_notify(struct place *p, const struct hx_optask *ot)
{
	const struct sim_op *o = &p->s->ops[p->opi];
	const struct hx_comm_rank *cr = &p->s->st.dev[p->rank].comm[o->comm];

	if (ot->notify == HX_ON_PEER)
		return sim_tnotify(p->s, o->comm, ot->dst, ot->src, o->op,
				   ot->round, ot->ch);
	return hx_opseq_local_notify(cr, ot->notify);
}

static uint32_t place_stream(const struct place *p, uint8_t where)
{
	const struct sim_op *o = &p->s->ops[p->opi];
	const struct hx_comm_rank *cr = &p->s->st.dev[p->rank].comm[o->comm];

	switch (where) {
	case HX_OW_USER: return o->ustream;
	case HX_OW_KERNEL: return cr->kstream;
	case HX_OW_ORDER: return cr->ordstream;
	case HX_OW_MAIN: return p->main;
	default: return p->work;
	}
}

static void place(void *ud, const struct hx_optask *ot)
{
	struct place *p = ud;
	struct sim *s = p->s;
	const struct sim_op *o = &s->ops[p->opi];
	const struct hx_comm_rank *cr = &s->st.dev[p->rank].comm[o->comm];
	struct hx_task t;
	uint32_t task;

	memset(&t, 0, sizeof t);
	t.kind = ot->kind;
	t.comm = (int32_t)o->comm;
	t.op = o->op;
	t.peer = ot->peer;
	t.dep = -1;
	t.event = -1;
	t.notify = -1;
	if (ot->notify != HX_ON_NONE) {
		t.notify = place_notify(p, ot);
		if (t.notify < 0)
			return;
	}
	if (ot->tagged)
		t.tag = o->tag;
	t.timeout_ns = hx_opseq_timeout_s((enum hx_op_tmo)ot->tmo,
					  cr->exec_timeout_s) * HX_NS_PER_S;
	if (ot->kind == HX_T_COPY) {
		t.dur_ns = copy_ns(s, ot->bytes);
		t.rdma = s->st.dev[ot->peer].node != s->st.dev[p->rank].node;
	}
	if (ot->kind == HX_T_KERNEL || p->expansion)
		t.xref = p->opi;
	if (ot->kind == HX_T_KERNEL)
		t.name = o->name;
	sim_append(s, place_stream(p, ot->where), &t, &task);
}

static bool issue_aicpu_mode(struct sim *s, uint32_t rank, uint32_t opi)
{
	struct place p = { s, rank, opi, 0, 0, false };
	struct hx_opdesc d;

	op_desc(s, &s->ops[opi], &d);
	hx_opseq_issue(&d, place, &p);
	return !s->err;
}

static bool expansion_fits(struct sim *s, const struct hx_comm_rank *cr,
			   const struct sim_op *o, uint32_t main)
{
	struct hx_opdesc d;
	uint32_t n;

	op_desc(s, o, &d);
	n = hx_opseq_expand_room(&d);
	if (!sim_sq_room(s, main, n))
		return false;
	return s->sc->slave_streams == 0 || sim_sq_room(s, cr->sstream[0], n);
}

/* SQEs the kernel of task needs room for in M_c (R3's cnt). */
uint32_t sim_hccl_expand_room(struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	struct hx_opdesc d;

	if (t->xref >= s->nops)
		return 0;
	op_desc(s, &s->ops[t->xref], &d);
	return hx_opseq_expand_room(&d);
}

/* The kernel wrote its op's SQEs to M_c, positions begin..end (D10). */
static void expanded_record(struct sim *s, uint32_t task, uint32_t rank,
			    uint32_t begin)
{
	const struct hx_task *t = &s->st.tasks[task];
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	struct hx_logrec *r = sim_rec(s, HX_LR_KERNEL_EXPANDED, rank);

	if (!r)
		return;
	sim_rec_task(s, r, task);
	r->sq_id = s->st.streams[cr->mstream].sq_id;
	r->head = begin;
	r->tail = t->end_pos;
}

/* The algorithm tasks of one op on main (M_c, or U in HOST mode), with
 * the exchange on S0 when there are slave streams. */
static void expand(struct sim *s, uint32_t rank, uint32_t opi, uint32_t main,
		   bool hccl_device)
{
	const struct sim_op *o = &s->ops[opi];
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[o->comm];
	bool slave = s->sc->slave_streams > 0 &&
		     s->st.comms[o->comm].nmembers > 1;
	struct place p = { s, rank, opi, main, slave ? cr->sstream[0] : main,
			   true };
	struct hx_opdesc d;

	op_desc(s, o, &d);
	hx_opseq_expand(&d, hccl_device, place, &p);
}

bool sim_hccl_issue(struct sim *s, uint32_t rank, const struct hx_step *step,
		    uint32_t comm, uint32_t *full)
{
	struct hx_device *d = &s->st.dev[rank];
	struct hx_comm_rank *cr = &d->comm[comm];
	const struct hx_env *env = hx_scenario_env(s->sc, rank);
	uint32_t u = d->user_stream[step->stream];
	int opi;

	if (!issue_room(s, cr, u, full))
		return false;
	opi = op_new(s, rank, step, comm, cr->ops_issued);
	if (opi < 0)
		return false;
	cr->ops_issued++;
	d->ncolls++;
	launch_record(s, rank, (uint32_t)opi);
	if (env->mode == HX_MODE_AI_CPU)
		return issue_aicpu_mode(s, rank, (uint32_t)opi);
	if (!expansion_fits(s, cr, &s->ops[opi], u)) {
		*full = u;
		return false;
	}
	expand(s, rank, (uint32_t)opi, u, false);
	return !s->err;
}

/* ---- the kernel (§5.2, §6) ---- */

#define SQFULL_INC_S 20 /* AICPU_RTSQ_TIMEOUT_INC: SQ full inside the kernel */
#define LAUNCH_INC_S 25 /* kernel launch attribute timeout */

static uint64_t exec_timeout_ns(const struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;

	return (uint64_t)s->st.dev[rank].comm[t->comm].exec_timeout_s *
	       HX_NS_PER_S;
}

/* A kernel waiting for a core: the launch attribute T_exec + 25 s (§7). */
void sim_hccl_arm_launch(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint64_t T = exec_timeout_ns(s, task);

	if (!T)
		return;
	t->timeout_ns = T + LAUNCH_INC_S * HX_NS_PER_S;
	t->arm++;
	sim_push(s, s->now + t->timeout_ns, EV_TIMEOUT, task, t->arm);
}

void sim_hccl_kernel_start(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	struct hx_logrec *r;

	if (s->sc->order_launch)
		sim_notify_set(s, cr->o1, 0, (int32_t)task);
	r = sim_rec(s, HX_LR_KERNEL_START, rank);
	if (r) {
		sim_rec_task(s, r, task);
		r->core = t->core;
	}
	sim_push(s, s->now + sim_dur(s, s->sc->expand_ns, s->sc->expand_max_ns),
		 EV_EXPANDED, task, 0);
}

/* The residency rule for kernel task in its situation now. */
static bool kernel_keeps(const struct sim *s, uint32_t task, bool expanded,
			 bool sq_full)
{
	const struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	struct hx_kcond c;

	hx_kcond_of(&s->st, rank, (uint32_t)t->comm, &c);
	c.expanded = expanded;
	c.sq_full = sq_full;
	c.drained = expanded && s->st.streams[cr->mstream].head >= t->end_pos;
	return hx_kernel_resident(&c, NULL);
}

/* Its SQEs do not fit: it gives up after T_exec + 20 s ("Rtsq full,
 * timeout") and says so every 30 s. */
static void kernel_sq_full(struct sim *s, uint32_t task, uint32_t rank)
{
	struct hx_task *t = &s->st.tasks[task];

	s->expanding[cidx(s, rank, (uint32_t)t->comm)] = (int32_t)task;
	if (t->kstate || !exec_timeout_ns(s, task))
		return;
	t->kstate = 1;
	t->timeout_ns = exec_timeout_ns(s, task) + SQFULL_INC_S * HX_NS_PER_S;
	t->arm++;
	sim_push(s, s->now + exec_timeout_ns(s, task) + SQFULL_INC_S * HX_NS_PER_S,
		 EV_TIMEOUT, task, t->arm);
	if (s->want_logs)       /* R3 every 30 s */
		sim_push(s, s->now + STATUS_NS, EV_STATUS, task, 1);
}

static void kernel_resident(struct sim *s, uint32_t task, uint32_t rank)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];

	s->resident[cidx(s, rank, (uint32_t)t->comm)] = (int32_t)task;
	if (cr->exec_timeout_s) {
		t->timeout_ns = (cr->exec_timeout_s + HX_KFC_INC_S) * HX_NS_PER_S;
		t->arm++;
		sim_push(s, t->t_start + t->timeout_ns, EV_TIMEOUT, task, t->arm);
	}
	if (s->want_logs)       /* W1 is a run-level line: every log level */
		sim_push(s, s->now + STATUS_NS, EV_STATUS, task, 0);
	sim_hccl_stream_moved(s, cr->mstream);
}

void sim_hccl_expanded(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	const struct sim_op *o = &s->ops[t->xref];
	uint32_t begin;

	if (t->state != HX_TS_RUNNING)
		return;
	if (!expansion_fits(s, cr, o, cr->mstream)) {
		if (kernel_keeps(s, task, false, true))  /* HX_KRES_SQ_FULL */
			kernel_sq_full(s, task, rank);
		else
			sim_complete(s, task);
		return;
	}
	s->expanding[cidx(s, rank, (uint32_t)t->comm)] = -1;
	if (!sim_gate(s, task, G_EXPAND))
		return;                 /* not its turn in the sequence */
	if (t->kstate) {
		t->kstate = 0;
		t->arm++;               /* the SQ-full timer no longer applies */
	}
	sim_gate_pass(s, task);
	begin = (uint32_t)s->st.streams[cr->mstream].n;
	expand(s, rank, t->xref, cr->mstream, true);
	t = &s->st.tasks[task];   /* expansion grew the task array */
	t->end_pos = (uint32_t)s->st.streams[cr->mstream].n;
	expanded_record(s, task, rank, begin);
	if (kernel_keeps(s, task, true, false)) {       /* HX_KRES_RETRY */
		kernel_resident(s, task, rank);
		return;
	}
	sim_complete(s, task);
}

void sim_hccl_stream_moved(struct sim *s, uint32_t stream)
{
	const struct hx_stream *st = &s->st.streams[stream];
	uint32_t i;
	int32_t k;

	if (st->comm < 0 || (st->role != HX_SR_MAIN && st->role != HX_SR_SLAVE))
		return;
	i = cidx(s, st->rank, (uint32_t)st->comm);
	k = s->expanding[i];
	if (k >= 0) {
		s->expanding[i] = -1;
		sim_hccl_expanded(s, (uint32_t)k);
	}
	k = s->resident[i];
	if (k >= 0 && st->role == HX_SR_MAIN &&
	    !kernel_keeps(s, (uint32_t)k, true, false)) {  /* M_c drained */
		s->resident[i] = -1;
		if (s->st.tasks[k].state == HX_TS_RUNNING)
			sim_complete(s, (uint32_t)k);
	}
}
