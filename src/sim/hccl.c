/*
 * hccl.c - HCCL in the simulator: the per-rank resources of every
 * communicator (K_c, M_c, S_c, the order stream, H0/H1/O0/O1), the host
 * issue sequence of one op in AI_CPU mode (runtime-model.md §5.1), the
 * kernel's expansion into M_c and S_c with ring handshakes to the peers
 * (§5.2), and its lifetime with retry off (returns after expansion) or on
 * (resident until M_c drains, §6.2).  HOST mode puts the same algorithm
 * tasks on the user stream directly, with no kernel and no core.
 */
#include <string.h>
#include "sim.h"

#define MAX_TMAP (1u << 26)
#define MAX_OPS (1u << 26)
#define H2D_INC_S 27   /* AICPU_H2D_TIMEOUT_INC: host-issued waits */
#define KFC_INC_S 22   /* KFC completion poll */
#define STATUS_NS (30 * HX_NS_PER_S)
/* Local main/slave synchronisation waits get this much more than T_exec,
 * so that the wait that really blocks (a peer's RxAck) fires first and
 * its EI0002 names the remote rank, as real reports do. */
#define LOCAL_SLACK_S 1

static uint32_t cidx(const struct sim *s, uint32_t rank, uint32_t comm)
{
	return rank * s->st.ncomms + comm;
}

static int comm_rank_setup(struct sim *s, uint32_t rank, uint32_t c,
			   uint32_t ord)
{
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[c];
	const struct hx_comm *cm = &s->st.comms[c];
	const struct hx_env *env = hx_scenario_env(s->sc, rank);
	uint32_t g = cm->group, i;
	int err = 0;

	cr->me = -1;
	for (i = 0; i < cm->nmembers; i++)
		if (cm->members[i] == rank)
			cr->me = (int32_t)i;
	if (cr->me < 0)
		return HANGDX_OK;
	cr->retry = hx_retry_active(s->sc, g, rank);
	cr->exec_timeout_s = s->sc->groups[g].exec_timeout_s
		? s->sc->groups[g].exec_timeout_s : env->exec_timeout_s;
	cr->ordstream = ord;
	err = hx_state_add_stream(&s->st, rank, HX_SR_KERNEL, (int32_t)c,
				  &cr->kstream);
	if (!err)
		err = hx_state_add_stream(&s->st, rank, HX_SR_MAIN, (int32_t)c,
					  &cr->mstream);
	for (i = 0; !err && i < s->sc->slave_streams && i < 8; i++)
		err = hx_state_add_stream(&s->st, rank, HX_SR_SLAVE, (int32_t)c,
					  &cr->sstream[i]);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_H0, (int32_t)c, -1, &cr->h0);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_H1, (int32_t)c, -1, &cr->h1);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_O0, (int32_t)c, -1, &cr->o0);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_O1, (int32_t)c, -1, &cr->o1);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_MAIN2SUB, (int32_t)c, -1, &cr->m2s);
	if (!err) err = hx_state_add_notify(&s->st, rank, HX_NR_SUB2MAIN, (int32_t)c, -1, &cr->s2m);
	if (!err) {
		struct hx_logrec *r = sim_rec(s, HX_LR_COMM_INIT, rank);
		if (r)
			r->comm = (int32_t)c;
	}
	return err;
}

int sim_hccl_setup(struct sim *s)
{
	uint32_t r, c, ord = 0;
	int err;

	for (r = 0; r < s->st.nranks; r++) {
		if (s->st.ncomms && s->sc->order_launch) {
			err = hx_state_add_stream(&s->st, r, HX_SR_ORDER, -1,
						  &ord);
			if (err)
				return err;
		}
		for (c = 0; c < s->st.ncomms; c++) {
			err = comm_rank_setup(s, r, c, ord);
			if (err)
				return err;
		}
	}
	return HANGDX_OK;
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
	uint64_t v[4];

	(void)s;
	/* send and recv are two halves of one exchange */
	v[0] = coll == HX_COLL_RECV ? HX_COLL_SEND : (uint64_t)coll;
	v[1] = bytes;
	v[2] = dt;
	v[3] = ((uint64_t)comm << 32) | op;
	return hx_hash(v, sizeof v) | 1;
}

/* ---- task builders ---- */

static struct hx_task proto(uint8_t kind, int32_t comm, uint32_t op)
{
	struct hx_task t;

	memset(&t, 0, sizeof t);
	t.kind = kind;
	t.comm = comm;
	t.op = op;
	t.peer = -1;
	t.dep = -1;
	t.event = -1;
	t.notify = -1;
	return t;
}

static struct hx_task nwait(int32_t comm, uint32_t op, int32_t notify,
			    uint64_t tag, uint64_t timeout_s)
{
	struct hx_task t = proto(HX_T_NOTIFY_WAIT, comm, op);

	t.notify = notify;
	t.tag = tag;
	t.timeout_ns = timeout_s * HX_NS_PER_S;
	return t;
}

static struct hx_task nrec(int32_t comm, uint32_t op, int32_t notify,
			   uint64_t tag, int32_t peer)
{
	struct hx_task t = proto(HX_T_NOTIFY_RECORD, comm, op);

	t.notify = notify;
	t.tag = tag;
	t.peer = peer;
	return t;
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
	if (!sim_sq_room(s, u, 2)) {
		*full = u;
		return false;
	}
	if (!sim_sq_room(s, cr->kstream, 2)) {
		*full = cr->kstream;
		return false;
	}
	if (s->sc->order_launch && !sim_sq_room(s, cr->ordstream, 2)) {
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

static bool issue_aicpu_mode(struct sim *s, uint32_t rank, uint32_t comm,
			     uint32_t opi)
{
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[comm];
	const struct sim_op *o = &s->ops[opi];
	uint64_t h2d = cr->exec_timeout_s ? cr->exec_timeout_s + H2D_INC_S : 0;
	int32_t c = (int32_t)comm;
	struct hx_task t;
	uint32_t task, u = o->ustream, op = o->op;

	t = nrec(c, op, cr->h0, 0, -1);
	sim_append(s, u, &t, &task);
	if (s->sc->order_launch) {
		t = nwait(c, op, cr->o0, 0, h2d);
		sim_append(s, cr->kstream, &t, &task);
		t = nrec(c, op, cr->o0, 0, -1);
		sim_append(s, cr->ordstream, &t, &task);
		t = nwait(c, op, cr->o1, 0, h2d);
		sim_append(s, cr->ordstream, &t, &task);
	}
	t = proto(HX_T_KERNEL, c, op);
	t.xref = opi;
	t.tag = o->tag;
	t.name = o->name;
	sim_append(s, cr->kstream, &t, &task);
	t = nwait(c, op, cr->h1, 0, h2d);
	sim_append(s, u, &t, &task);
	return !s->err;
}

/* ---- the algorithm: ring handshakes and copies (§5.2) ---- */

struct exp {                    /* an expansion being written */
	struct sim *s;
	const struct sim_op *o;
	uint32_t rank, comm;
	uint32_t main, work;        /* main stream, stream of the exchange */
	uint64_t T;                 /* device wait timeout, s */
};

static void put(struct exp *x, uint32_t stream, struct hx_task t)
{
	uint32_t task;

	t.xref = (uint32_t)(x->o - x->s->ops);
	sim_append(x->s, stream, &t, &task);
}

static uint64_t copy_ns(const struct sim *s, uint64_t bytes)
{
	double gbps = s->sc->link_gbps > 0 ? s->sc->link_gbps : 50.0;

	return (uint64_t)((double)bytes / (gbps * 1e9) * 1e9) + 1000;
}

static void put_copy(struct exp *x, uint32_t peer_rank, uint64_t bytes)
{
	struct hx_task t = proto(HX_T_COPY, (int32_t)x->comm, x->o->op);

	t.peer = (int32_t)peer_rank;
	t.dur_ns = copy_ns(x->s, bytes);
	t.rdma = x->s->st.dev[peer_rank].node != x->s->st.dev[x->rank].node;
	put(x, x->work, t);
}

/* TxAck to dst and RxAck from src on one channel of one round. */
static void put_ack(struct exp *x, uint32_t dst, uint32_t src, uint32_t round,
		    uint32_t ch)
{
	struct sim *s = x->s;
	int32_t c = (int32_t)x->comm;
	uint32_t op = x->o->op;
	int32_t tx = sim_tnotify(s, x->comm, dst, x->rank, op, round, ch);
	int32_t rx = sim_tnotify(s, x->comm, x->rank, src, op, round, ch);

	if (tx < 0 || rx < 0)
		return;
	put(x, x->work, nrec(c, op, tx, x->o->tag, (int32_t)dst));
	put(x, x->work, nwait(c, op, rx, x->o->tag, x->T));
}

static uint32_t ring_rounds(enum hx_coll c)
{
	return c == HX_COLL_ALLREDUCE ? 2 : 1;
}

static void put_ring(struct exp *x)
{
	const struct hx_comm *cm = &x->s->st.comms[x->comm];
	int32_t me = x->s->st.dev[x->rank].comm[x->comm].me;
	uint32_t n = cm->nmembers, j;
	uint32_t next = cm->members[((uint32_t)me + 1) % n];
	uint32_t prev = cm->members[((uint32_t)me + n - 1) % n];

	for (j = 0; j < ring_rounds((enum hx_coll)x->o->coll); j++) {
		put_ack(x, next, prev, j, 0);
		put_copy(x, next, x->o->bytes / n);
		put_ack(x, next, prev, j, 1);
	}
}

static void put_p2p(struct exp *x)
{
	struct sim *s = x->s;
	const struct hx_comm *cm = &s->st.comms[x->comm];
	uint32_t peer, op = x->o->op;
	int32_t c = (int32_t)x->comm, a, b;

	if (x->o->peer < 0 || (uint32_t)x->o->peer >= cm->nmembers)
		return;
	peer = cm->members[x->o->peer];
	if (x->o->coll == HX_COLL_SEND) {
		/* wait for the receiver's ready, copy, then say done */
		a = sim_tnotify(s, x->comm, x->rank, peer, op, 0, 0);
		b = sim_tnotify(s, x->comm, peer, x->rank, op, 0, 1);
		if (a < 0 || b < 0)
			return;
		put(x, x->work, nwait(c, op, a, x->o->tag, x->T));
		put_copy(x, peer, x->o->bytes);
		put(x, x->work, nrec(c, op, b, x->o->tag, (int32_t)peer));
	} else {
		a = sim_tnotify(s, x->comm, peer, x->rank, op, 0, 0);
		b = sim_tnotify(s, x->comm, x->rank, peer, op, 0, 1);
		if (a < 0 || b < 0)
			return;
		put(x, x->work, nrec(c, op, a, x->o->tag, (int32_t)peer));
		put(x, x->work, nwait(c, op, b, x->o->tag, x->T));
	}
}

static uint32_t exp_tasks(const struct sim *s, const struct sim_op *o)
{
	uint32_t n = s->st.comms[o->comm].nmembers;

	if (n < 2)
		return 4;
	if (o->coll == HX_COLL_SEND || o->coll == HX_COLL_RECV)
		return 8;
	return 6 * ring_rounds((enum hx_coll)o->coll) + 6;
}

static bool expansion_fits(struct sim *s, const struct hx_comm_rank *cr,
			   const struct sim_op *o, uint32_t main)
{
	uint32_t n = exp_tasks(s, o);

	if (!sim_sq_room(s, main, n))
		return false;
	return s->sc->slave_streams == 0 || sim_sq_room(s, cr->sstream[0], n);
}

/* The algorithm tasks of one op on main (M_c, or U in HOST mode), with
 * the exchange on S0 when there are slave streams. */
static void expand(struct sim *s, uint32_t rank, const struct sim_op *o,
		   uint32_t main, bool hccl_device)
{
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[o->comm];
	int32_t c = (int32_t)o->comm;
	struct exp x = { s, o, rank, o->comm, main, main, cr->exec_timeout_s };
	bool slave = s->sc->slave_streams > 0 &&
		     s->st.comms[o->comm].nmembers > 1;

	if (hccl_device)
		put(&x, main, nwait(c, o->op, cr->h0, 0, x.T));
	if (slave) {
		x.work = cr->sstream[0];
		put(&x, main, nrec(c, o->op, cr->m2s, 0, -1));
		put(&x, x.work, nwait(c, o->op, cr->m2s, 0,
				      x.T ? x.T + LOCAL_SLACK_S : 0));
	}
	if (s->st.comms[o->comm].nmembers > 1) {
		if (o->coll == HX_COLL_SEND || o->coll == HX_COLL_RECV)
			put_p2p(&x);
		else
			put_ring(&x);
	}
	if (slave) {
		put(&x, x.work, nrec(c, o->op, cr->s2m, 0, -1));
		put(&x, main, nwait(c, o->op, cr->s2m, 0,
				    x.T ? x.T + LOCAL_SLACK_S : 0));
	}
	if (hccl_device)
		put(&x, main, nrec(c, o->op, cr->h1, 0, -1));
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
		return issue_aicpu_mode(s, rank, comm, (uint32_t)opi);
	if (!expansion_fits(s, cr, &s->ops[opi], u)) {
		*full = u;
		return false;
	}
	expand(s, rank, &s->ops[opi], u, false);
	return !s->err;
}

/* ---- the kernel (§5.2, §6) ---- */

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
	sim_push(s, s->now + s->sc->expand_ns, EV_EXPANDED, task, 0);
}

static void kernel_resident(struct sim *s, uint32_t task, uint32_t rank)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];

	s->resident[cidx(s, rank, (uint32_t)t->comm)] = (int32_t)task;
	if (cr->exec_timeout_s) {
		t->timeout_ns = (cr->exec_timeout_s + KFC_INC_S) * HX_NS_PER_S;
		t->arm++;
		sim_push(s, t->t_start + t->timeout_ns, EV_TIMEOUT, task, t->arm);
	}
	if (s->want_logs && s->sc->log_level <= HX_LOG_INFO)
		sim_push(s, s->now + STATUS_NS, EV_STATUS, task, 0);
	sim_hccl_stream_moved(s, cr->mstream);
}

void sim_hccl_expanded(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	const struct sim_op *o = &s->ops[t->xref];

	if (t->state != HX_TS_RUNNING)
		return;
	if (!expansion_fits(s, cr, o, cr->mstream)) {
		/* stays resident while the SQ is full (§8, related variant) */
		s->expanding[cidx(s, rank, (uint32_t)t->comm)] = (int32_t)task;
		return;
	}
	s->expanding[cidx(s, rank, (uint32_t)t->comm)] = -1;
	expand(s, rank, o, cr->mstream, true);
	t = &s->st.tasks[task];   /* expansion grew the task array */
	t->end_pos = (uint32_t)s->st.streams[cr->mstream].n;
	if (cr->retry) {
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
	    st->head >= s->st.tasks[k].end_pos) {
		s->resident[i] = -1;
		if (s->st.tasks[k].state == HX_TS_RUNNING)
			sim_complete(s, (uint32_t)k);
	}
}
