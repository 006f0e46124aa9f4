/*
 * opseq.c - the HCCL op sequence shared by the simulator and the checker
 * (runtime-model.md §5-§6): resources of a communicator on a rank, the
 * host-side tasks of one op in AI_CPU mode, and the kernel's expansion
 * (H0 wait, main/slave handshake, ring rounds of TxAck/RxAck and a copy,
 * or a send/recv ready/done pair, slave/main handshake, H1 record), each
 * as a template the caller places on its streams.  Ordinary steps
 * (AI Core, AICPU, events, user notifies) map to one task here too.
 */
#include <string.h>
#include "opseq.h"

/* ---- templates ---- */

static struct hx_optask tpl(uint8_t kind, uint8_t where, uint8_t notify)
{
	struct hx_optask t;

	memset(&t, 0, sizeof t);
	t.kind = kind;
	t.where = where;
	t.notify = notify;
	t.peer = -1;
	return t;
}

static void emit_wait(hx_optask_fn *fn, void *ud, uint8_t where,
		      uint8_t notify, uint8_t tmo)
{
	struct hx_optask t = tpl(HX_T_NOTIFY_WAIT, where, notify);

	t.tmo = tmo;
	fn(ud, &t);
}

static void emit_record(hx_optask_fn *fn, void *ud, uint8_t where,
			uint8_t notify)
{
	struct hx_optask t = tpl(HX_T_NOTIFY_RECORD, where, notify);

	fn(ud, &t);
}

void hx_opseq_issue(const struct hx_opdesc *op, hx_optask_fn *fn, void *ud)
{
	struct hx_optask t;

	emit_record(fn, ud, HX_OW_USER, HX_ON_H0);
	if (op->order_launch) {
		emit_wait(fn, ud, HX_OW_KERNEL, HX_ON_O0, HX_OT_H2D);
		emit_record(fn, ud, HX_OW_ORDER, HX_ON_O0);
		emit_wait(fn, ud, HX_OW_ORDER, HX_ON_O1, HX_OT_H2D);
	}
	t = tpl(HX_T_KERNEL, HX_OW_KERNEL, HX_ON_NONE);
	t.tagged = true;
	fn(ud, &t);
	emit_wait(fn, ud, HX_OW_USER, HX_ON_H1, HX_OT_H2D);
}

/* ---- the algorithm ---- */

static void peer_record(hx_optask_fn *fn, void *ud, uint32_t dst,
			uint32_t src, uint32_t round, uint32_t ch)
{
	struct hx_optask t = tpl(HX_T_NOTIFY_RECORD, HX_OW_WORK, HX_ON_PEER);

	t.tagged = true;
	t.dst = dst;
	t.src = src;
	t.round = round;
	t.ch = ch;
	t.peer = (int32_t)dst;
	fn(ud, &t);
}

static void peer_wait(hx_optask_fn *fn, void *ud, uint32_t dst, uint32_t src,
		      uint32_t round, uint32_t ch)
{
	struct hx_optask t = tpl(HX_T_NOTIFY_WAIT, HX_OW_WORK, HX_ON_PEER);

	t.tagged = true;
	t.tmo = HX_OT_DEV;
	t.dst = dst;
	t.src = src;
	t.round = round;
	t.ch = ch;
	fn(ud, &t);
}

static void copy(hx_optask_fn *fn, void *ud, uint32_t peer, uint64_t bytes)
{
	struct hx_optask t = tpl(HX_T_COPY, HX_OW_WORK, HX_ON_NONE);

	t.peer = (int32_t)peer;
	t.bytes = bytes;
	fn(ud, &t);
}

uint32_t hx_opseq_rounds(enum hx_coll c)
{
	return c == HX_COLL_ALLREDUCE ? 2 : 1;
}

/* Per round: TxAck to the next rank and RxAck from the previous one,
 * the copy, and a second handshake on channel 1. */
static void ring(const struct hx_opdesc *op, hx_optask_fn *fn, void *ud)
{
	uint32_t n = op->nmembers, me = (uint32_t)op->me, j, ch;
	uint32_t next = op->members[(me + 1) % n];
	uint32_t prev = op->members[(me + n - 1) % n];

	for (j = 0; j < hx_opseq_rounds(op->coll); j++) {
		for (ch = 0; ch < 2; ch++) {
			peer_record(fn, ud, next, op->rank, j, ch);
			peer_wait(fn, ud, op->rank, prev, j, ch);
			if (ch == 0)
				copy(fn, ud, next, op->bytes / n);
		}
	}
}

/* Send: wait for the receiver's ready, copy, say done.  Recv: say
 * ready, wait for done. */
static void p2p(const struct hx_opdesc *op, hx_optask_fn *fn, void *ud)
{
	uint32_t peer;

	if (op->peer < 0 || (uint32_t)op->peer >= op->nmembers)
		return;
	peer = op->members[op->peer];
	if (op->coll == HX_COLL_SEND) {
		peer_wait(fn, ud, op->rank, peer, 0, 0);
		copy(fn, ud, peer, op->bytes);
		peer_record(fn, ud, peer, op->rank, 0, 1);
	} else {
		peer_record(fn, ud, peer, op->rank, 0, 0);
		peer_wait(fn, ud, op->rank, peer, 0, 1);
	}
}

void hx_opseq_expand(const struct hx_opdesc *op, bool hccl_device,
		     hx_optask_fn *fn, void *ud)
{
	bool slave = op->slave && op->nmembers > 1;
	uint8_t work = slave ? HX_OW_WORK : HX_OW_MAIN;

	if (hccl_device)
		emit_wait(fn, ud, HX_OW_MAIN, HX_ON_H0, HX_OT_DEV);
	if (slave) {
		emit_record(fn, ud, HX_OW_MAIN, HX_ON_M2S);
		emit_wait(fn, ud, work, HX_ON_M2S, HX_OT_LOCAL);
	}
	if (op->nmembers > 1) {
		if (op->coll == HX_COLL_SEND || op->coll == HX_COLL_RECV)
			p2p(op, fn, ud);
		else
			ring(op, fn, ud);
	}
	if (slave) {
		emit_record(fn, ud, work, HX_ON_S2M);
		emit_wait(fn, ud, HX_OW_MAIN, HX_ON_S2M, HX_OT_LOCAL);
	}
	if (hccl_device)
		emit_record(fn, ud, HX_OW_MAIN, HX_ON_H1);
}

uint32_t hx_opseq_expand_room(const struct hx_opdesc *op)
{
	if (op->nmembers < 2)
		return 4;
	if (op->coll == HX_COLL_SEND || op->coll == HX_COLL_RECV)
		return 8;
	return 6 * hx_opseq_rounds(op->coll) + 6;
}

uint64_t hx_opseq_timeout_s(enum hx_op_tmo t, uint32_t exec_timeout_s)
{
	if (!exec_timeout_s)
		return 0;
	switch (t) {
	case HX_OT_H2D: return (uint64_t)exec_timeout_s + HX_H2D_INC_S;
	case HX_OT_DEV: return exec_timeout_s;
	case HX_OT_LOCAL: return (uint64_t)exec_timeout_s + HX_LOCAL_SLACK_S;
	default: return 0;
	}
}

uint64_t hx_opseq_tag(uint32_t comm, uint32_t op, enum hx_coll coll,
		      uint64_t bytes, enum hx_dtype dt)
{
	uint64_t v[4];

	/* send and recv are two halves of one exchange */
	v[0] = coll == HX_COLL_RECV ? HX_COLL_SEND : (uint64_t)coll;
	v[1] = bytes;
	v[2] = dt;
	v[3] = ((uint64_t)comm << 32) | op;
	return hx_hash(v, sizeof v) | 1;
}

/* ---- resources ---- */

static int comm_setup(struct hx_state *st, uint32_t rank, uint32_t c,
		      uint32_t ord)
{
	struct hx_comm_rank *cr = &st->dev[rank].comm[c];
	const struct hx_comm *cm = &st->comms[c];
	const struct hangdx_scenario *sc = st->sc;
	const struct hx_env *env = hx_scenario_env(sc, rank);
	uint32_t g = cm->group, i;
	int err = 0;

	if (cr->me < 0)
		return HANGDX_OK;
	cr->retry = hx_retry_active(sc, g, rank);
	cr->exec_timeout_s = sc->groups[g].exec_timeout_s
		? sc->groups[g].exec_timeout_s : env->exec_timeout_s;
	cr->ordstream = ord;
	err = hx_state_add_stream(st, rank, HX_SR_KERNEL, (int32_t)c,
				  &cr->kstream);
	if (!err)
		err = hx_state_add_stream(st, rank, HX_SR_MAIN, (int32_t)c,
					  &cr->mstream);
	for (i = 0; !err && i < sc->slave_streams && i < 8; i++)
		err = hx_state_add_stream(st, rank, HX_SR_SLAVE, (int32_t)c,
					  &cr->sstream[i]);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_H0, (int32_t)c, -1, &cr->h0);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_H1, (int32_t)c, -1, &cr->h1);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_O0, (int32_t)c, -1, &cr->o0);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_O1, (int32_t)c, -1, &cr->o1);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_MAIN2SUB, (int32_t)c, -1, &cr->m2s);
	if (!err) err = hx_state_add_notify(st, rank, HX_NR_SUB2MAIN, (int32_t)c, -1, &cr->s2m);
	return err;
}

static int user_setup(struct hx_state *st, uint32_t rank)
{
	struct hx_device *d = &st->dev[rank];
	uint32_t i;
	int err;

	for (i = 0; i < st->sc->nstreams; i++) {
		err = hx_state_add_stream(st, rank, HX_SR_USER, -1,
					  &d->user_stream[i]);
		if (err)
			return err;
		st->streams[d->user_stream[i]].user = (int32_t)i;
	}
	for (i = 0; i < st->sc->nnotifies; i++) {
		err = hx_state_add_notify(st, rank, HX_NR_USER, -1, -1,
					  &d->user_notify[i]);
		if (err)
			return err;
		st->notifies[d->user_notify[i]].user = (int32_t)i;
	}
	return HANGDX_OK;
}

/* Each rank's place in each communicator (-1: not a member; a rank
 * listed twice keeps its last place), in one pass over the members. */
static void comm_places(struct hx_state *st)
{
	uint32_t r, c, i;

	for (r = 0; r < st->nranks; r++)
		for (c = 0; c < st->ncomms; c++)
			st->dev[r].comm[c].me = -1;
	for (c = 0; c < st->ncomms; c++)
		for (i = 0; i < st->comms[c].nmembers; i++)
			if (st->comms[c].members[i] < st->nranks)
				st->dev[st->comms[c].members[i]].comm[c].me =
					(int32_t)i;
}

int hx_opseq_setup(struct hx_state *st,
		   void (*on_comm)(void *ud, uint32_t rank, uint32_t comm),
		   void *ud)
{
	uint32_t r, c, ord = 0;
	int err = HANGDX_OK;

	comm_places(st);
	for (r = 0; !err && r < st->nranks; r++)
		err = user_setup(st, r);
	for (r = 0; !err && r < st->nranks; r++) {
		if (st->ncomms && st->sc->order_launch)
			err = hx_state_add_stream(st, r, HX_SR_ORDER, -1, &ord);
		for (c = 0; !err && c < st->ncomms; c++) {
			err = comm_setup(st, r, c, ord);
			if (!err && on_comm && st->dev[r].comm[c].me >= 0)
				on_comm(ud, r, c);
		}
	}
	return err;
}

/* ---- ordinary steps ---- */

void hx_opseq_simple(const struct hx_state *st, uint32_t rank,
		     const struct hx_step *step, struct hx_task *t)
{
	const struct hx_device *d = &st->dev[rank];

	memset(t, 0, sizeof *t);
	t->comm = -1;
	t->peer = -1;
	t->dep = -1;
	t->event = -1;
	t->notify = -1;
	t->name = step->name;
	t->dur_ns = step->dur_ns;
	switch (step->kind) {
	case HX_STEP_AICORE: t->kind = HX_T_AICORE; break;
	case HX_STEP_AICPU: t->kind = HX_T_AICPU; break;
	case HX_STEP_EVENT_RECORD:
		t->kind = HX_T_EVENT_RECORD;
		t->event = step->obj;
		break;
	case HX_STEP_EVENT_WAIT:
		t->kind = HX_T_EVENT_WAIT;
		t->event = step->obj;
		t->dep = d->event_last[step->obj];
		break;
	case HX_STEP_NOTIFY_RECORD:
		t->kind = HX_T_NOTIFY_RECORD;
		t->notify = d->user_notify[step->obj];
		break;
	default:
		t->kind = HX_T_NOTIFY_WAIT;
		t->notify = d->user_notify[step->obj];
		t->timeout_ns = step->timeout_ns;
		break;
	}
}

void hx_opseq_simple_appended(struct hx_state *st, uint32_t rank,
			      const struct hx_step *step, uint32_t task)
{
	if (step->kind == HX_STEP_EVENT_RECORD)
		st->dev[rank].event_last[step->obj] = (int32_t)task;
}

uint32_t hx_opseq_comm(const struct hangdx_scenario *sc, uint32_t group,
		       uint32_t instance)
{
	uint32_t g, c = 0;

	for (g = 0; g < group && g < sc->ngroups; g++)
		c += sc->groups[g].count;
	return c + instance;
}

int32_t hx_opseq_local_notify(const struct hx_comm_rank *cr, int on)
{
	switch (on) {
	case HX_ON_H0: return cr->h0;
	case HX_ON_H1: return cr->h1;
	case HX_ON_O0: return cr->o0;
	case HX_ON_O1: return cr->o1;
	case HX_ON_M2S: return cr->m2s;
	case HX_ON_S2M: return cr->s2m;
	default: return -1;
	}
}
