/*
 * fault.c - what goes wrong in the simulator: injected faults (a process
 * death, an SDMA/RDMA error CQE, retried when op retry is on), the
 * timeouts of runtime-model.md §7 and the errors they raise, the
 * stop-on-failure cascade over a device's HCCL streams, and the heartbeat
 * (LOST 30 s after a death, STUCK checked every HCCL_EXEC_TIMEOUT / 3).
 */
#include <stdio.h>
#include <string.h>
#include "sim.h"

#define LOST_NS (30 * HX_NS_PER_S)
#define STATUS_NS (30 * HX_NS_PER_S)

void sim_error(struct sim *s, uint32_t rank, int32_t task, const char *kind,
	       const char *text)
{
	struct sim_error *e;
	void *v = s->errors;

	if (hx_vec_reserve(s->ctx, &v, &s->caperrors, s->nerrors + 1,
			   sizeof *s->errors, 1u << 24) == HANGDX_OK) {
		s->errors = v;
		e = &s->errors[s->nerrors++];
		e->t = s->now;
		e->rank = (int32_t)rank;
		e->kind = kind;
		e->peer = -1;
		e->stream_id = e->task_id = UINT32_MAX;
		if (task >= 0) {
			const struct hx_task *t = &s->st.tasks[task];
			const struct hx_notify *n =
				t->notify >= 0 ? &s->st.notifies[t->notify] : NULL;
			e->stream_id = s->st.streams[t->stream].id;
			e->task_id = t->task_id;
			if (t->kind == HX_T_COPY)
				e->peer = t->peer;
			else if (n && n->role == HX_NR_PEER)
				e->peer = n->peer;
		}
	}
	if (s->have_error)
		return;
	s->have_error = true;
	s->error_time = s->now;
	s->error_rank = (int32_t)rank;
	s->error_task = task;
	snprintf(s->error_text, sizeof s->error_text, "%s", text);
	if (task >= 0)
		sim_snapshot_error(s, (uint32_t)task);
	if (s->stop_at > s->now + s->sc->tail_ns)
		s->stop_at = s->now + s->sc->tail_ns;
}

static void abort_stream(struct sim *s, uint32_t stream, uint8_t how)
{
	struct hx_stream *st = &s->st.streams[stream];
	uint32_t i = (uint32_t)stream;

	if (st->stopped)
		return;
	if (st->head < st->n && how == HX_TS_ABORTED) {
		struct hx_logrec *r = sim_rec(s, HX_LR_STREAM_ABORT, st->rank);
		if (r)
			sim_rec_task(s, r, st->q[st->head]);
	}
	st->stopped = 1;
	while (st->head < st->n)
		sim_fail_task(s, st->q[st->head], how);
	(void)i;
}

static void clear_kernel_slots(struct sim *s, uint32_t rank)
{
	uint32_t c;

	for (c = 0; c < s->st.ncomms; c++) {
		s->resident[rank * s->st.ncomms + c] = -1;
		s->expanding[rank * s->st.ncomms + c] = -1;
	}
}

/* Take the kernels of the stop-mode streams out of the AICPU queue, so
 * that a core freed by the stop does not go to a kernel about to be
 * stopped itself. */
static void unqueue_kernels(struct sim *s, uint32_t rank)
{
	size_t i;

	for (i = s->rs_first[rank]; i < s->rs_first[rank + 1]; i++) {
		uint32_t stream = s->rs_list[i];
		long h = hx_state_head(&s->st, stream);
		if (s->st.streams[stream].stop_mode && h >= 0 &&
		    s->st.tasks[h].state == HX_TS_WAITING &&
		    s->st.tasks[h].kind == HX_T_KERNEL)
			sim_pool_remove_waiter(s, (uint32_t)h);
	}
}

/* STOP_ON_FAILURE: one error stops every stop-mode stream of the
 * context; kernels on them are ended and give their cores back. */
void sim_stop_device(struct sim *s, uint32_t rank)
{
	size_t i;

	clear_kernel_slots(s, rank);
	unqueue_kernels(s, rank);
	for (i = s->rs_first[rank]; i < s->rs_first[rank + 1]; i++) {
		uint32_t stream = s->rs_list[i];
		if (s->st.streams[stream].stop_mode)
			abort_stream(s, stream, HX_TS_ABORTED);
	}
}

void sim_kill_rank(struct sim *s, uint32_t rank)
{
	struct hx_device *d = &s->st.dev[rank];
	size_t i;

	if (!d->alive)
		return;
	sim_rec(s, HX_LR_PROC_EXIT, rank);
	d->alive = false;
	s->host[rank].state = HOST_DEAD;
	clear_kernel_slots(s, rank);
	for (i = s->rs_first[rank]; i < s->rs_first[rank + 1]; i++) {
		struct hx_stream *st = &s->st.streams[s->rs_list[i]];
		st->stopped = 1;
		while (st->head < st->n)
			sim_fail_task(s, st->q[st->head], HX_TS_ABORTED);
	}
	sim_push(s, s->now + LOST_NS, EV_LOST, rank, 0);
}

void sim_fault_fire(struct sim *s, uint32_t idx)
{
	const struct hx_fault *f = &s->sc->faults[idx];

	if ((uint32_t)f->rank >= s->st.nranks)
		return;
	if (f->kind == HX_FAULT_RANK_DEATH)
		sim_kill_rank(s, (uint32_t)f->rank);
	else if (f->kind == HX_FAULT_LINK_ERROR)
		s->fault_armed[idx] = true;
}

/* ---- timeouts ---- */

static int32_t kernel_of(const struct sim *s, uint32_t rank, int32_t comm)
{
	return comm < 0 ? -1 : s->resident[rank * s->st.ncomms + (uint32_t)comm];
}

static void end_kernel(struct sim *s, uint32_t rank, int32_t comm)
{
	int32_t k = kernel_of(s, rank, comm);
	struct hx_logrec *r;

	if (k < 0)
		return;
	s->resident[rank * s->st.ncomms + (uint32_t)comm] = -1;
	r = sim_rec(s, HX_LR_KERNEL_END, rank);
	if (r) {
		sim_rec_task(s, r, (uint32_t)k);
		r->text = "error";
	}
	unqueue_kernels(s, rank);   /* the device stop follows */
	sim_fail_task(s, (uint32_t)k, HX_TS_FAILED);
}

static void device_streams(struct sim *s, struct hx_logrec *r, uint32_t rank,
			   int32_t comm)
{
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[comm];
	uint32_t i;

	sim_rec_stream(s, r, cr->mstream, 0);
	for (i = 0; i < s->sc->slave_streams && i < 8; i++)
		sim_rec_stream(s, r, cr->sstream[i], 0);
}

/* The TS dump on a wait timeout: the stream that timed out, then (once
 * per device) every other stream with work queued, as they are now. */
static void dump_streams(struct sim *s, uint32_t rank, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	struct hx_logrec *r = sim_rec(s, HX_LR_STREAM_DUMP, rank);
	size_t i;

	if (!r)
		return;
	sim_rec_task(s, r, task);
	sim_rec_stream(s, r, t->stream, s->now - t->t_ready);
	if (s->host[rank].dumped)
		return;
	s->host[rank].dumped = true;
	for (i = s->rs_first[rank]; i < s->rs_first[rank + 1]; i++) {
		uint32_t st = s->rs_list[i];
		const struct hx_stream *sp = &s->st.streams[st];
		long h = hx_state_head(&s->st, st);

		if (st == t->stream || sp->stopped || h < 0)
			continue;
		r = &s->recs[s->nrecs - 1];
		sim_rec_stream(s, r, st, s->now - s->st.tasks[h].t_ready);
	}
}

static void device_wait_timeout(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	const struct hx_stream *st = &s->st.streams[t->stream];
	const struct hx_notify *n = &s->st.notifies[t->notify];
	uint32_t rank = st->rank;
	char text[200], sl[64];
	struct hx_logrec *r;
	int32_t comm;

	hx_stream_label(&s->st, t->stream, sl, sizeof sl);
	snprintf(text, sizeof text,
		 "EI0002 notify wait timeout: rank %u %s task %u (HCCL_EXEC_TIMEOUT %us)",
		 rank, sl, t->task_id,
		 (unsigned)(t->timeout_ns / HX_NS_PER_S));
	sim_error(s, rank, (int32_t)task, "EI0002", text);
	r = sim_rec(s, HX_LR_NOTIFY_TIMEOUT, rank);
	if (r) {
		sim_rec_task(s, r, task);
		r->peer = n->role == HX_NR_PEER ? n->peer : -1;
		/* nothing printed while M_c is parked on NW(H0): op not active */
		if (n->role != HX_NR_H0)
			device_streams(s, r, rank, t->comm);
		r->trail = n->role != HX_NR_H0
			? sim_trail(s, rank, (uint32_t)t->comm, t->op) : NULL;
	}
	dump_streams(s, rank, task);
	t = &s->st.tasks[task];
	comm = t->comm;
	sim_fail_task(s, task, HX_TS_FAILED);
	end_kernel(s, rank, comm);
	sim_stop_device(s, rank);
}

static void host_wait_timeout(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	const struct hx_stream *st = &s->st.streams[t->stream];
	uint32_t rank = st->rank;
	char text[200], sl[64];
	struct hx_logrec *r;

	hx_stream_label(&s->st, t->stream, sl, sizeof sl);
	snprintf(text, sizeof text,
		 "notify wait timeout on host-issued stream: rank %u %s task %u (%us)",
		 rank, sl, t->task_id, (unsigned)(t->timeout_ns / HX_NS_PER_S));
	sim_error(s, rank, (int32_t)task, "HOST_WAIT_TIMEOUT", text);
	r = sim_rec(s, HX_LR_NOTIFY_TIMEOUT, rank);
	if (r) {
		sim_rec_task(s, r, task);
		r->host_side = 1;
	}
	sim_fail_task(s, task, HX_TS_FAILED);
	if (st->stop_mode)
		sim_stop_device(s, rank);
}

static void other_timeout(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	struct hx_logrec *r;
	char text[200];

	if (t->kind == HX_T_KERNEL) {
		const char *kind = t->state == HX_TS_WAITING ? "KERNEL_LAUNCH_TIMEOUT"
				   : t->kstate ? "RTSQ_FULL" : "KFC_TIMEOUT";
		snprintf(text, sizeof text, "%s: HCCL kernel %s op %u on rank %u%s",
			 kind, s->st.comms[t->comm].name, t->op, rank,
			 t->state == HX_TS_WAITING ? " never got an AICPU core"
			 : t->kstate ? " could not write its SQEs (Rtsq full, timeout)"
				     : " stayed resident past T_exec + 22 s");
		sim_error(s, rank, (int32_t)task, kind, text);
		r = sim_rec(s, HX_LR_KERNEL_TIMEOUT, rank);
		if (r) {
			const struct hx_comm_rank *cr =
				&s->st.dev[rank].comm[t->comm];

			sim_rec_task(s, r, task);
			r->text = t->state == HX_TS_WAITING ? "launch"
				  : t->kstate ? "rtsq" : "kfc";
			/* R1 prints M_c's head position (curhead) */
			r->head = s->st.streams[cr->mstream].head;
		}
		s->resident[rank * s->st.ncomms + (uint32_t)t->comm] = -1;
		sim_fail_task(s, task, HX_TS_FAILED);
		sim_stop_device(s, rank);
		return;
	}
	if (t->kind == HX_T_AICPU) {
		snprintf(text, sizeof text,
			 "507017 aicpu timeout: %s on rank %u",
			 t->name ? t->name : "AICPU op", rank);
		sim_error(s, rank, (int32_t)task, "507017", text);
		r = sim_rec(s, HX_LR_AICPU_TIMEOUT, rank);
		if (r)
			sim_rec_task(s, r, task);
		sim_fail_task(s, task, HX_TS_FAILED);
	}
}

void sim_timeout(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint8_t role = s->st.streams[t->stream].role;

	if (t->kind != HX_T_NOTIFY_WAIT)
		other_timeout(s, task);
	else if (role == HX_SR_MAIN || role == HX_SR_SLAVE)
		device_wait_timeout(s, task);
	else
		host_wait_timeout(s, task);
}

/* ---- link errors and op retry ---- */

bool sim_copy_start(struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank, i;

	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		bool pair;

		if (f->kind != HX_FAULT_LINK_ERROR || !s->fault_armed[i] ||
		    s->fault_done[i])
			continue;
		pair = ((uint32_t)f->rank == rank && f->peer == t->peer) ||
		       ((uint32_t)f->peer == rank && f->rank == t->peer);
		if (!pair)
			continue;
		s->fault_done[i] = true;
		sim_push(s, s->now + t->dur_ns / 2 + 1, EV_LINKFAIL, task,
			 f->rdma);
		return true;
	}
	return false;
}

static void retry_rec(struct sim *s, uint32_t rank, uint32_t task,
		      const char *text, uint32_t cnt)
{
	struct hx_logrec *r = sim_rec(s, HX_LR_RETRY, rank);

	if (r) {
		sim_rec_task(s, r, task);
		r->text = text;
		r->retry_cnt = cnt;
	}
}

void sim_copy_failed(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	const struct hx_env *env = hx_scenario_env(s->sc, rank);
	struct hx_logrec *r;
	char text[200];
	int32_t comm = t->comm;

	if (t->state != HX_TS_RUNNING)
		return;
	r = sim_rec(s, HX_LR_LINK_ERROR, rank);
	if (r) {
		sim_rec_task(s, r, task);
		r->rdma = t->rdma;
		device_streams(s, r, rank, t->comm);
		r->trail = sim_trail(s, rank, (uint32_t)t->comm, t->op);
	}
	if (cr->retry && t->retried < env->retry_max_cnt) {
		t->retried++;
		retry_rec(s, rank, task, "stop", t->retried);
		retry_rec(s, rank, task, "RUNNING>CMD_STOP_AICPU", t->retried);
		sim_push(s, s->now + (uint64_t)env->retry_hold_ms * HX_NS_PER_MS,
			 EV_RETRY, task, 0);
		return;
	}
	snprintf(text, sizeof text, "%s error CQE on a copy from rank %u to rank %d",
		 t->rdma ? "EI0013 RDMA" : "EI0012 SDMA", rank, t->peer);
	sim_error(s, rank, (int32_t)task, t->rdma ? "EI0013" : "EI0012", text);
	comm = t->comm;
	sim_fail_task(s, task, HX_TS_FAILED);
	end_kernel(s, rank, comm);
	sim_stop_device(s, rank);
}

void sim_copy_retry(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;

	if (t->state != HX_TS_RUNNING || !s->st.dev[rank].alive)
		return;
	retry_rec(s, rank, task, "WAIT_CAN_RETRY>RUNNING", t->retried);
	retry_rec(s, rank, task, "retry", t->retried);
	sim_push(s, s->now + t->dur_ns, EV_DONE, task, 0);
}

/* ---- heartbeat ---- */

void sim_heartbeat_lost(struct sim *s, uint32_t dead)
{
	uint32_t r;

	for (r = 0; r < s->st.nranks; r++) {
		struct hx_logrec *rec;

		if (r == dead || !s->st.dev[r].alive)
			continue;
		rec = sim_rec(s, HX_LR_HEARTBEAT_LOST, r);
		if (rec)
			rec->peer = (int32_t)dead;
	}
}

static bool any_retry(const struct sim *s, uint32_t rank)
{
	uint32_t c;

	for (c = 0; c < s->st.ncomms; c++)
		if (s->st.dev[rank].comm[c].me >= 0 &&
		    s->st.dev[rank].comm[c].retry)
			return true;
	return false;
}

void sim_stuck_check(struct sim *s, uint32_t rank)
{
	struct sim_host *h = &s->host[rank];
	uint64_t third = (uint64_t)hx_scenario_env(s->sc, rank)->exec_timeout_s *
			 HX_NS_PER_S / 3;
	struct hx_logrec *r;

	if (!s->st.dev[rank].alive || third == 0 || h->wait_stream == -3)
		return;
	if (h->pending > 0 && s->now - h->last_progress >= third)
		h->stuck_checks++;
	if (h->stuck_checks >= 1 && !h->stuck_logged &&
	    (!any_retry(s, rank) || s->sc->stuck_with_retry)) {
		h->stuck_logged = true;
		r = sim_rec(s, HX_LR_HEARTBEAT_STUCK, rank);
		if (r)
			r->peer = (int32_t)rank;
	}
	if (!h->stuck_logged)
		sim_push(s, s->now + third, EV_STUCK, rank, 0);
}

/*
 * Every 30 s of a kernel that waits: for M_c to drain (resident, W1:
 * head re-read, tail as read once when the wait began, i.e. the end of
 * its op) or, sqfull, for room in M_c (R3: head, tail, SQEs to write).
 * Positions, not task ids.  A chain ends when its wait does.
 */
void sim_status(struct sim *s, uint32_t task, uint32_t sqfull)
{
	const struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[t->comm];
	const struct hx_stream *m = &s->st.streams[cr->mstream];
	struct hx_logrec *r;

	if (t->state != HX_TS_RUNNING || (sqfull != 0) != (t->kstate != 0))
		return;
	r = sim_rec(s, HX_LR_KERNEL_STATUS, rank);
	if (r) {
		sim_rec_task(s, r, task);
		r->sq_id = m->sq_id;
		r->head = m->head;
		r->tail = sqfull ? (uint32_t)m->n : t->end_pos;
		r->text = sqfull ? "rtsq" : NULL;
		r->sqe_cnt = sqfull ? sim_hccl_expand_room(s, task) : 0;
	}
	sim_push(s, s->now + STATUS_NS, EV_STATUS, task, sqfull);
}
