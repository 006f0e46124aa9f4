/*
 * sim.c - the discrete-event engine of `hangdx simulate`: an event heap
 * ordered by (time, sequence), FIFO streams whose head task starts when
 * its condition holds (runtime-model.md §4), latched notifies, events that
 * capture a stream position, and the AICPU core pool with FIFO, seeded
 * random or replayed grant order and no preemption.  The hosts issue the
 * flattened SPMD program one runtime call at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"
#include "../model/opseq.h"

#define MAX_HEAP (1u << 28)
#define MAX_PROG (1u << 24)

static bool passive(uint32_t type)
{
	return type == EV_STUCK || type == EV_STATUS || type == EV_LOST ||
	       type == EV_TIMEOUT;
}

void sim_oom(struct sim *s, int err)
{
	if (!s->err)
		s->err = err;
}

uint64_t sim_rand(struct sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t sim_dur(struct sim *s, uint64_t lo, uint64_t hi)
{
	uint64_t z;

	if (hi <= lo)
		return lo;
	z = (s->drng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return lo + z % (hi - lo + 1);
}

static uint64_t dispatch_ns(struct sim *s)
{
	return sim_dur(s, s->sc->dispatch_ns, s->sc->dispatch_max_ns);
}

static uint64_t host_api_ns(struct sim *s)
{
	return sim_dur(s, s->sc->host_api_ns, s->sc->host_api_max_ns);
}

double sim_slow(const struct sim *s, uint32_t rank)
{
	return s->host[rank].slow;
}

/* ---- event heap ---- */

static bool ev_less(const struct sim_event *a, const struct sim_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void sim_push(struct sim *s, uint64_t t, uint32_t type, uint32_t a,
	      uint64_t b)
{
	void *v = s->heap;
	size_t i;
	int err;

	err = hx_vec_reserve(s->ctx, &v, &s->capheap, s->nheap + 1,
			     sizeof *s->heap, MAX_HEAP);
	if (err) {
		sim_oom(s, err);
		return;
	}
	s->heap = v;
	i = s->nheap++;
	s->heap[i] = (struct sim_event){ t, s->seq++, type, a, b };
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct sim_event tmp;

		if (!ev_less(&s->heap[i], &s->heap[p]))
			break;
		tmp = s->heap[p];
		s->heap[p] = s->heap[i];
		s->heap[i] = tmp;
		i = p;
	}
	if (!passive(type))
		s->active++;
	if (type == EV_TIMEOUT)
		s->ntimeouts++;
}

static struct sim_event heap_pop(struct sim *s)
{
	struct sim_event top = s->heap[0];
	size_t i = 0, n = --s->nheap;

	s->heap[0] = s->heap[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct sim_event tmp;

		if (l < n && ev_less(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < n && ev_less(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = s->heap[m];
		s->heap[m] = s->heap[i];
		s->heap[i] = tmp;
		i = m;
	}
	if (!passive(top.type))
		s->active--;
	if (top.type == EV_TIMEOUT)
		s->ntimeouts--;
	return top;
}

/* ---- streams and tasks ---- */

bool sim_sq_room(const struct sim *s, uint32_t stream, uint32_t n)
{
	const struct hx_stream *st = &s->st.streams[stream];

	return st->n - st->head + n <= st->depth;
}

int sim_append(struct sim *s, uint32_t stream, const struct hx_task *proto,
	       uint32_t *out)
{
	int err = hx_state_append(&s->st, stream, proto, out);

	if (err) {
		sim_oom(s, err);
		return err;
	}
	s->host[s->st.streams[stream].rank].pending++;
	sim_kick(s, stream);
	return HANGDX_OK;
}

void sim_kick(struct sim *s, uint32_t stream)
{
	void *v = s->ready;
	int err;

	if (s->inready[stream])
		return;
	err = hx_vec_reserve(s->ctx, &v, &s->capready, s->nready + 1,
			     sizeof *s->ready, MAX_HEAP);
	if (err) {
		sim_oom(s, err);
		return;
	}
	s->ready = v;
	s->ready[s->nready++] = stream;
	s->inready[stream] = 1;
}

static void wait_event_register(struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	struct sim_waitlist *w =
		&s->evwait[(size_t)rank * s->sc->nevents + (uint32_t)t->event];
	void *v = w->v;
	int err = hx_vec_reserve(s->ctx, &v, &w->cap, w->n + 1, sizeof *w->v,
				 MAX_HEAP);

	if (err) {
		sim_oom(s, err);
		return;
	}
	w->v = v;
	w->v[w->n++] = task;
}

static void wake_event_waiters(struct sim *s, uint32_t rec)
{
	const struct hx_task *r = &s->st.tasks[rec];
	uint32_t rank = s->st.streams[r->stream].rank;
	struct sim_waitlist *w =
		&s->evwait[(size_t)rank * s->sc->nevents + (uint32_t)r->event];
	size_t i = 0;

	while (i < w->n) {
		uint32_t task = w->v[i];
		struct hx_task *t = &s->st.tasks[task];

		if (t->state != HX_TS_WAITING) {
			w->v[i] = w->v[--w->n];
			continue;
		}
		if (t->dep >= 0 && s->st.tasks[t->dep].state != HX_TS_DONE) {
			i++;
			continue;
		}
		w->v[i] = w->v[--w->n];
		sim_complete(s, task);
	}
}

static void arm_timeout(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];

	if (t->timeout_ns == 0)
		return;
	t->arm++;
	sim_push(s, s->now + t->timeout_ns, EV_TIMEOUT, task, t->arm);
}

/* The notify of a NOTIFY_RECORD/WAIT matches when the wait expects no tag
 * or the latched record carries the same op identity. */
static bool tag_match(uint64_t want, uint64_t got)
{
	return want == 0 || want == got;
}

void sim_notify_set(struct sim *s, int32_t notify, uint64_t tag,
		    int32_t from)
{
	struct hx_notify *n = &s->st.notifies[notify];
	struct hx_task *w;

	if (!s->st.dev[n->rank].alive)
		return;
	n->value = 1;
	n->tag = tag;
	if (n->waiter < 0)
		return;
	w = &s->st.tasks[n->waiter];
	if (w->state != HX_TS_WAITING || !tag_match(w->tag, tag))
		return;
	n->value = 0;
	w->dep = from;
	n->waiter = -1;
	sim_complete(s, (uint32_t)(w - s->st.tasks));
}

/* ---- the AICPU pool ---- */

static void pool_grant(struct sim *s, struct hx_pool *p, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t i;

	for (i = 0; i < p->cap && p->holder[i] >= 0; i++)
		;
	p->holder[i] = (int32_t)task;
	p->busy++;
	p->grants++;
	t->core = (int32_t)i;
	t->t_start = s->now;
	t->state = HX_TS_RUNNING;
	if (t->kind == HX_T_KERNEL) {
		sim_hccl_kernel_start(s, task);
	} else {
		uint32_t rank = s->st.streams[t->stream].rank;
		uint64_t d = (uint64_t)((double)t->dur_ns * sim_slow(s, rank));
		struct hx_logrec *r = sim_rec(s, HX_LR_AICPU_OP, rank);

		if (r)
			sim_rec_task(s, r, task);

		sim_push(s, s->now + d + dispatch_ns(s), EV_DONE, task, 0);
		if (s->sc->aicpu_timeout_ns && d > s->sc->aicpu_timeout_ns) {
			t->arm++;
			sim_push(s, s->now + s->sc->aicpu_timeout_ns,
				 EV_TIMEOUT, task, t->arm);
		}
	}
}

static bool grant_match(const struct sim *s, const struct sim_grant *g,
			uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];

	if (g->kernel)
		return t->kind == HX_T_KERNEL && t->comm == g->obj &&
		       t->op == g->n;
	return t->kind == HX_T_AICPU && t->pos == g->n &&
	       s->st.streams[t->stream].user == g->obj;
}

/* The waiter to grant next, or false to keep the core free: a schedule
 * (witness replay) names each device's next grants in order. */
static bool pool_pick(struct sim *s, uint32_t rank, struct hx_pool *p,
		      size_t *k)
{
	uint32_t first = s->sched_first ? s->sched_first[rank] : 0;
	uint32_t n = s->sched_first ? s->sched_first[rank + 1] - first : 0;
	size_t i;

	if (p->grants < n) {
		const struct sim_grant *g = &s->sched[first + p->grants];
		for (i = 0; i < p->nwait; i++) {
			if (grant_match(s, g, p->wait[i])) {
				*k = i;
				return true;
			}
		}
		return false;
	}
	if (s->sc->grant == HX_GRANT_RANDOM)
		*k = (size_t)(sim_rand(s) % p->nwait);
	else
		*k = 0;
	return true;
}

static void pool_serve(struct sim *s, uint32_t rank, struct hx_pool *p)
{
	size_t k;

	while (p->busy < p->cap && p->nwait > 0 && pool_pick(s, rank, p, &k)) {
		uint32_t task = p->wait[k];

		memmove(p->wait + k, p->wait + k + 1,
			(p->nwait - k - 1) * sizeof *p->wait);
		p->nwait--;
		pool_grant(s, p, task);
	}
}

static void pool_request(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_pool *p = &s->st.dev[s->st.streams[t->stream].rank].pool;
	void *v = p->wait;
	int err;

	if (t->kind == HX_T_KERNEL && !s->sc->hccl_shares_pool) {
		t->core = -2;
		t->t_start = s->now;
		t->state = HX_TS_RUNNING;
		sim_hccl_kernel_start(s, task);
		return;
	}
	err = hx_vec_reserve(s->ctx, &v, &p->capwait, p->nwait + 1,
			     sizeof *p->wait, MAX_HEAP);
	if (err) {
		sim_oom(s, err);
		return;
	}
	p->wait = v;
	p->wait[p->nwait++] = task;
	pool_serve(s, s->st.streams[t->stream].rank, p);
}

void sim_pool_release(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_pool *p = &s->st.dev[s->st.streams[t->stream].rank].pool;

	if (t->core < 0) {
		t->core = -1;
		return;
	}
	p->holder[t->core] = -1;
	p->busy--;
	t->core = -1;
	pool_serve(s, s->st.streams[t->stream].rank, p);
}

void sim_pool_remove_waiter(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_pool *p = &s->st.dev[s->st.streams[t->stream].rank].pool;
	size_t k;

	for (k = 0; k < p->nwait; k++) {
		if (p->wait[k] == task) {
			memmove(p->wait + k, p->wait + k + 1,
				(p->nwait - k - 1) * sizeof *p->wait);
			p->nwait--;
			return;
		}
	}
}

/* ---- the sequence (witness replay) ---- */

#define SEQ_CALL (1ULL << 63)

static uint64_t seq_hash(uint64_t k)
{
	k = (k ^ (k >> 31)) * 0x9e3779b97f4a7c15ULL;
	return k ^ (k >> 29);
}

/* Index of a key in the sequence, or -1. */
static int64_t seq_find(const struct sim *s, uint64_t key)
{
	size_t j;

	if (!s->seq_nslot)
		return -1;
	for (j = seq_hash(key) & (s->seq_nslot - 1); s->seq_slot[j];
	     j = (j + 1) & (s->seq_nslot - 1))
		if (s->order[s->seq_slot[j] - 1].key == key)
			return (int64_t)s->seq_slot[j] - 1;
	return -1;
}

static uint64_t task_key(const struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];

	return (uint64_t)t->stream << 32 | t->pos;
}

static void seq_kick(struct sim *s)
{
	sim_push(s, s->now, EV_GATE, 0, 0);
}

bool sim_gate(struct sim *s, uint32_t task, uint8_t what)
{
	int64_t i;
	void *v;

	if (!s->nseq)
		return true;
	i = seq_find(s, task_key(s, task));
	if (i >= 0 ? (uint64_t)i <= s->seq_next : s->seq_next >= s->nseq)
		return true;
	if (task >= s->captgate) {
		size_t old = s->captgate;
		int err;
		v = s->tgate;
		err = hx_vec_reserve(s->ctx, &v, &s->captgate, (size_t)task + 1, 1,
				     MAX_HEAP);
		if (err) {
			sim_oom(s, err);
			return false;
		}
		s->tgate = v;
		memset(s->tgate + old, 0, s->captgate - old);
	}
	s->tgate[task] = what;
	if (i < 0) {                    /* outside the sequence: after it */
		v = s->held;
		int err = hx_vec_reserve(s->ctx, &v, &s->capheld, s->nheld + 1,
					 sizeof *s->held, MAX_HEAP);
		if (err) {
			sim_oom(s, err);
			return false;
		}
		s->held = v;
		s->held[s->nheld++] = task;
	}
	return false;
}

void sim_gate_pass(struct sim *s, uint32_t task)
{
	if (s->nseq && s->seq_next < s->nseq &&
	    seq_find(s, task_key(s, task)) == (int64_t)s->seq_next) {
		s->seq_next++;
		seq_kick(s);
	}
}

static void start_task(struct sim *s, uint32_t task);

/* Do what was held for task, if anything. */
static void gate_release(struct sim *s, uint32_t task)
{
	uint8_t what;

	if (task >= s->captgate || !(what = s->tgate[task]))
		return;
	s->tgate[task] = G_NONE;
	switch (what) {
	case G_START:
		if (s->st.tasks[task].state == HX_TS_WAITING)
			start_task(s, task);
		break;
	case G_DONE:
		if (s->st.tasks[task].state == HX_TS_RUNNING)
			sim_complete(s, task);
		break;
	default:
		sim_hccl_expanded(s, task);
		break;
	}
}

/* The next step of the sequence may have been held: do it now.  After
 * the last step, everything held back is let go. */
static void gate_run(struct sim *s)
{
	uint32_t r;
	size_t i;

	if (s->seq_next < s->nseq) {
		uint64_t key = s->order[s->seq_next].key;
		if (key & SEQ_CALL) {
			r = (uint32_t)(key >> 32 & 0x7fffffffu);
			if (s->host[r].state == HOST_GATED) {
				s->host[r].state = HOST_RUN;
				sim_push(s, s->now, EV_HOST, r, 0);
			}
		} else {
			const struct hx_stream *st = &s->st.streams[key >> 32];
			uint32_t pos = (uint32_t)key;
			if (pos < st->n)
				gate_release(s, st->q[pos]);
		}
		return;
	}
	for (r = 0; r < s->st.nranks; r++) {
		if (s->host[r].state == HOST_GATED) {
			s->host[r].state = HOST_RUN;
			sim_push(s, s->now, EV_HOST, r, 0);
		}
	}
	for (i = 0; i < s->nheld; i++)
		gate_release(s, s->held[i]);
	s->nheld = 0;
}

/* ---- task start and completion ---- */

static void start_notify_wait(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	struct hx_notify *n = &s->st.notifies[t->notify];

	if (n->value && tag_match(t->tag, n->tag)) {
		n->value = 0;
		sim_complete(s, task);
		return;
	}
	n->waiter = (int32_t)task;
	arm_timeout(s, task);
}

static void start_task(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t rank = s->st.streams[t->stream].rank;
	uint64_t d;

	/* records and waits complete as they start: a sequence holds them */
	if ((t->kind == HX_T_NOTIFY_RECORD || t->kind == HX_T_NOTIFY_WAIT ||
	     t->kind == HX_T_EVENT_RECORD || t->kind == HX_T_EVENT_WAIT) &&
	    !sim_gate(s, task, G_START))
		return;
	switch (t->kind) {
	case HX_T_AICORE:
		t->state = HX_TS_RUNNING;
		t->t_start = s->now;
		d = (uint64_t)((double)t->dur_ns * sim_slow(s, rank));
		sim_push(s, s->now + d + dispatch_ns(s), EV_DONE, task, 0);
		break;
	case HX_T_AICPU:
	case HX_T_KERNEL:
		pool_request(s, task);
		break;
	case HX_T_NOTIFY_RECORD:
		if (t->peer >= 0) {
			if (s->st.dev[t->peer].alive)
				sim_push(s, s->now + sim_dur(s, s->sc->link_latency_ns,
							   s->sc->link_latency_max_ns),
					 EV_LAND, (uint32_t)t->notify, t->tag);
		} else {
			sim_notify_set(s, t->notify, t->tag, (int32_t)task);
			t = &s->st.tasks[task];
		}
		if (t->state == HX_TS_WAITING)
			sim_complete(s, task);
		break;
	case HX_T_NOTIFY_WAIT:
		start_notify_wait(s, task);
		break;
	case HX_T_EVENT_RECORD:
		sim_complete(s, task);
		break;
	case HX_T_EVENT_WAIT:
		if (t->dep < 0 || s->st.tasks[t->dep].state == HX_TS_DONE)
			sim_complete(s, task);
		else
			wait_event_register(s, task);
		break;
	case HX_T_COPY:
		t->state = HX_TS_RUNNING;
		t->t_start = s->now;
		if (sim_copy_start(s, task))
			break;
		d = (uint64_t)((double)t->dur_ns * sim_slow(s, rank));
		sim_push(s, s->now + d + dispatch_ns(s), EV_DONE, task, 0);
		break;
	}
}

static void stream_advance(struct sim *s, uint32_t stream)
{
	struct hx_stream *st = &s->st.streams[stream];

	while (!st->stopped && st->head < st->n && !s->err) {
		uint32_t task = st->q[st->head];
		struct hx_task *t = &s->st.tasks[task];

		if (t->state != HX_TS_QUEUED)
			return;
		t->state = HX_TS_WAITING;
		t->t_ready = s->now;
		start_task(s, task);
		if (s->st.tasks[task].state != HX_TS_DONE)
			return;
	}
}

static void host_check(struct sim *s, uint32_t rank, uint32_t stream);

static void task_ended(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];
	uint32_t stream = t->stream;
	struct hx_stream *st = &s->st.streams[stream];

	t->t_end = s->now;
	if (st->head < st->n && st->q[st->head] == task)
		st->head++;
	s->host[st->rank].pending--;
	sim_kick(s, stream);
	/* may expand a kernel: the task array can move, t is stale after */
	sim_hccl_stream_moved(s, stream);
	host_check(s, st->rank, stream);
}

void sim_complete(struct sim *s, uint32_t task)
{
	struct hx_task *t = &s->st.tasks[task];

	if (t->kind != HX_T_KERNEL)     /* a kernel's step is its expansion */
		sim_gate_pass(s, task);
	t->state = HX_TS_DONE;
	s->ntasks_done++;
	if (t->kind == HX_T_KERNEL && s->want_logs) {
		struct hx_logrec *r = sim_rec(s, HX_LR_KERNEL_END,
					      s->st.streams[t->stream].rank);
		if (r) {
			sim_rec_task(s, r, task);
			r->core = t->core;
			r->text = "ok";
		}
	}
	if (t->kind == HX_T_AICPU && s->want_logs) {
		struct hx_logrec *r = sim_rec(s, HX_LR_AICPU_OP,
					      s->st.streams[t->stream].rank);
		if (r) {
			sim_rec_task(s, r, task);
			r->text = "end";
		}
	}
	if (t->kind == HX_T_AICPU || t->kind == HX_T_KERNEL)
		sim_pool_release(s, task);
	task_ended(s, task);
	t = &s->st.tasks[task];   /* task_ended may grow the task array */
	if (t->kind == HX_T_EVENT_RECORD)
		wake_event_waiters(s, task);
	if (s->st.streams[t->stream].comm >= 0)
		s->host[s->st.streams[t->stream].rank].last_progress = s->now;
}

void sim_fail_task(struct sim *s, uint32_t task, uint8_t state)
{
	struct hx_task *t = &s->st.tasks[task];

	if (t->state == HX_TS_DONE || t->state == HX_TS_FAILED ||
	    t->state == HX_TS_ABORTED)
		return;
	if (t->state == HX_TS_WAITING) {
		if (t->kind == HX_T_NOTIFY_WAIT &&
		    s->st.notifies[t->notify].waiter == (int32_t)task)
			s->st.notifies[t->notify].waiter = -1;
		if (t->kind == HX_T_AICPU || t->kind == HX_T_KERNEL)
			sim_pool_remove_waiter(s, task);
	}
	t->state = state;
	if (t->core != -1)
		sim_pool_release(s, task);
	task_ended(s, task);
}

/* ---- hosts ---- */

static bool rank_drained(const struct sim *s, uint32_t rank, int32_t stream)
{
	const struct hx_stream *st;

	if (stream < 0)
		return s->host[rank].pending == 0;
	st = &s->st.streams[stream];
	return st->head >= st->n;
}

static void rank_maybe_done(struct sim *s, uint32_t rank)
{
	struct sim_host *h = &s->host[rank];

	if (h->state == HOST_DONE && h->pending == 0 && h->wait_stream != -3) {
		h->wait_stream = -3;
		if (++s->ndone_ranks == s->st.nranks)
			s->completed = true;
	}
}

static void host_check(struct sim *s, uint32_t rank, uint32_t stream)
{
	struct sim_host *h = &s->host[rank];

	if (h->state == HOST_WAIT_SQ && h->wait_stream == (int32_t)stream) {
		h->state = HOST_RUN;
		sim_push(s, s->now, EV_HOST, rank, 0);
	} else if (h->state == HOST_WAIT_SYNC &&
		   rank_drained(s, rank, h->wait_stream)) {
		h->state = HOST_RUN;
		sim_push(s, s->now + host_api_ns(s), EV_HOST, rank, 0);
	} else if (h->state == HOST_DONE) {
		rank_maybe_done(s, rank);
	}
}

static uint32_t comm_of(const struct sim *s, const struct sim_entry *e)
{
	const struct hx_step *st = &s->sc->steps[e->step];
	uint32_t g, c = 0;

	for (g = 0; g < (uint32_t)st->group; g++)
		c += s->sc->groups[g].count;
	return c + (uint32_t)(e->instance < 0 ? 0 : e->instance);
}

/* Is entry e a collective that this rank issues? */
static bool entry_is_coll(const struct sim *s, size_t e, uint32_t rank)
{
	const struct hx_step *st = &s->sc->steps[s->prog[e].step];

	return st->kind == HX_STEP_COLL && hx_step_for_rank(st, rank) &&
	       s->st.dev[rank].comm[comm_of(s, &s->prog[e])].me >= 0;
}

const struct hx_fault *sim_mismatch(const struct sim *s, uint32_t rank,
				    uint32_t ncoll)
{
	uint32_t i;

	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		if (f->kind == HX_FAULT_MISMATCH && (uint32_t)f->rank == rank &&
		    f->op_index == ncoll)
			return f;
	}
	return NULL;
}

/* Pick the entry the host issues now, applying an ORDER mismatch: the
 * rank's collective k goes out after its collective k + 1. */
static size_t host_entry(struct sim *s, uint32_t rank)
{
	struct sim_host *h = &s->host[rank];
	const struct hx_fault *f;
	size_t e = h->pc, n;

	if (h->deferred >= 0 || !entry_is_coll(s, e, rank))
		return e;
	f = sim_mismatch(s, rank, h->ncolls);
	if (!f || f->what != HX_MISMATCH_ORDER)
		return e;
	for (n = e + 1; n < s->nprog; n++) {
		if (entry_is_coll(s, n, rank)) {
			h->deferred = (int32_t)e;
			h->skip = (int32_t)n;
			return n;
		}
	}
	return e;
}

static bool issue_simple(struct sim *s, uint32_t rank,
			 const struct hx_step *st)
{
	uint32_t stream = s->st.dev[rank].user_stream[st->stream];
	struct hx_task t;
	uint32_t task;

	if (!sim_sq_room(s, stream, 1)) {
		s->host[rank].state = HOST_WAIT_SQ;
		s->host[rank].wait_stream = (int32_t)stream;
		return false;
	}
	hx_opseq_simple(&s->st, rank, st, &t);
	t.dur_ns = sim_dur(s, st->dur_ns, st->dur_max_ns);
	if (sim_append(s, stream, &t, &task))
		return false;
	hx_opseq_simple_appended(&s->st, rank, st, task);
	return true;
}

/* Issue one entry; false when the host must wait (SQ full, sync). */
static bool host_issue(struct sim *s, uint32_t rank, size_t e)
{
	const struct hx_step *st = &s->sc->steps[s->prog[e].step];
	struct sim_host *h = &s->host[rank];
	uint32_t comm, full;

	switch (st->kind) {
	case HX_STEP_HOST_SYNC:
		h->wait_stream = st->stream < 0
			? -2 : (int32_t)s->st.dev[rank].user_stream[st->stream];
		if (rank_drained(s, rank, h->wait_stream < 0 ? -1
							    : h->wait_stream))
			return true;
		if (h->wait_stream == -2)
			h->wait_stream = -1;
		h->state = HOST_WAIT_SYNC;
		return false;
	case HX_STEP_HOST_SLEEP:
		return true;
	case HX_STEP_COLL:
		comm = comm_of(s, &s->prog[e]);
		if (s->st.dev[rank].comm[comm].me < 0)
			return true;
		if (!sim_hccl_issue(s, rank, st, comm, &full)) {
			if (s->err)
				return false;
			h->state = HOST_WAIT_SQ;
			h->wait_stream = (int32_t)full;
			return false;
		}
		h->ncolls++;
		return true;
	default:
		return issue_simple(s, rank, st);
	}
}

static void host_advance_pc(struct sim_host *h, size_t issued)
{
	if (h->deferred >= 0 && (size_t)h->skip == issued)
		return;                 /* went out early; pc stays */
	if (h->deferred >= 0 && (size_t)h->deferred == issued)
		h->deferred = -1;
	h->pc = (uint32_t)issued + 1;
}

/* Is entry e a runtime call of the rank (what a sequence counts)? */
static bool host_call(const struct sim *s, uint32_t rank, size_t e)
{
	const struct hx_step *st = &s->sc->steps[s->prog[e].step];

	if (st->kind == HX_STEP_HOST_SLEEP)
		return false;
	return st->kind != HX_STEP_COLL ||
	       s->st.dev[rank].comm[comm_of(s, &s->prog[e])].me >= 0;
}

static bool host_gate(const struct sim *s, uint32_t rank)
{
	int64_t i;

	if (!s->nseq)
		return true;
	i = seq_find(s, SEQ_CALL | (uint64_t)rank << 32 | s->host[rank].ncalls);
	return i >= 0 ? (uint64_t)i <= s->seq_next : s->seq_next >= s->nseq;
}

static void host_step(struct sim *s, uint32_t rank)
{
	struct sim_host *h = &s->host[rank];
	const struct hx_step *st;
	uint64_t delay;
	size_t e;
	bool call;

	if (h->state != HOST_RUN)
		return;
	for (;;) {
		if (h->pc >= s->nprog) {
			h->state = HOST_DONE;
			rank_maybe_done(s, rank);
			return;
		}
		if (h->deferred < 0 && h->skip == (int32_t)h->pc) {
			h->skip = -1;
			h->pc++;
			continue;
		}
		if (hx_step_for_rank(&s->sc->steps[s->prog[h->pc].step], rank))
			break;
		h->pc++;
	}
	e = host_entry(s, rank);
	st = &s->sc->steps[s->prog[e].step];
	call = host_call(s, rank, e);
	if (call && !host_gate(s, rank)) {
		h->state = HOST_GATED;  /* not its turn in the sequence */
		return;
	}
	if (!host_issue(s, rank, e))
		return;
	if (call) {
		if (s->nseq && s->seq_next < s->nseq &&
		    seq_find(s, SEQ_CALL | (uint64_t)rank << 32 | h->ncalls) ==
		    (int64_t)s->seq_next) {
			s->seq_next++;
			seq_kick(s);
		}
		h->ncalls++;
	}
	host_advance_pc(h, e);
	delay = st->kind == HX_STEP_HOST_SLEEP
		? sim_dur(s, st->dur_ns, st->dur_max_ns) : host_api_ns(s);
	sim_push(s, s->now + (uint64_t)((double)delay * h->slow), EV_HOST, rank,
		 0);
}

/* ---- set-up ---- */

static int flatten(struct sim *s)
{
	const struct hangdx_scenario *sc = s->sc;
	uint32_t i, k;
	void *v;
	int err;

	for (i = 0; i < sc->nsteps; i++) {
		const struct hx_step *st = &sc->steps[i];
		uint32_t n = 1;

		if (st->kind == HX_STEP_COLL && st->instance < 0)
			n = sc->groups[st->group].count;
		for (k = 0; k < n; k++) {
			v = s->prog;
			err = hx_vec_reserve(s->ctx, &v, &s->capprog,
					     s->nprog + 1, sizeof *s->prog,
					     MAX_PROG);
			if (err)
				return err;
			s->prog = v;
			s->prog[s->nprog].step = i;
			s->prog[s->nprog].instance =
				st->kind == HX_STEP_COLL && st->instance < 0
					? (int32_t)k : st->instance;
			s->nprog++;
		}
	}
	return HANGDX_OK;
}

static void hosts_init(struct sim *s)
{
	uint32_t r, i;

	for (r = 0; r < s->st.nranks; r++) {
		s->host[r].deferred = -1;
		s->host[r].skip = -1;
		s->host[r].slow = 1.0;
		s->host[r].wait_stream = -1;
	}
	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];

		if (f->kind == HX_FAULT_SLOW_RANK && f->rank >= 0 &&
		    (uint32_t)f->rank < s->st.nranks)
			s->host[f->rank].slow = f->factor;
	}
}

/* Index the streams of each rank (CSR), for cascades and deaths. */
static int rank_streams(struct sim *s)
{
	size_t nr = s->st.nranks, i;

	s->rs_first = hx_calloc(s->ctx, nr + 2, sizeof *s->rs_first);
	s->rs_list = hx_calloc(s->ctx, s->st.nstreams + 1, sizeof *s->rs_list);
	if (!s->rs_first || !s->rs_list)
		return HANGDX_ENOMEM;
	for (i = 0; i < s->st.nstreams; i++)
		s->rs_first[s->st.streams[i].rank + 2]++;
	for (i = 2; i < nr + 2; i++)
		s->rs_first[i] += s->rs_first[i - 1];
	for (i = 0; i < s->st.nstreams; i++)
		s->rs_list[s->rs_first[s->st.streams[i].rank + 1]++] =
			(uint32_t)i;
	return HANGDX_OK;
}

/* Resolve a schedule's names now that --set has fixed what exists. */
static int32_t sched_obj(const struct sim *s, const struct hx_grant_ref *g)
{
	uint32_t i;

	if (g->kernel) {
		for (i = 0; i < s->st.ncomms; i++)
			if (strcmp(s->st.comms[i].name, g->name) == 0)
				return (int32_t)i;
		return -1;
	}
	for (i = 0; i < s->sc->nstreams; i++)
		if (strcmp(s->sc->streams[i], g->name) == 0)
			return (int32_t)i;
	return -1;
}

static int sched_setup(struct sim *s)
{
	const struct hx_schedule *sch = &s->sc->schedule;
	uint32_t nr = s->st.nranks, i, *fill;
	int err = HANGDX_OK;

	if (!sch->ngrants)
		return HANGDX_OK;
	s->sched = hx_calloc(s->ctx, sch->ngrants, sizeof *s->sched);
	s->sched_first = hx_calloc(s->ctx, (size_t)nr + 2, sizeof *s->sched_first);
	fill = hx_calloc(s->ctx, (size_t)nr + 1, sizeof *fill);
	if (!s->sched || !s->sched_first || !fill) {
		hx_free(s->ctx, fill);
		return HANGDX_ENOMEM;
	}
	for (i = 0; i < sch->ngrants; i++) {
		const struct hx_grant_ref *g = &sch->grants[i];
		if (g->rank >= nr) {
			hx_diag(s->ctx, HANGDX_ERROR, s->sc->file, g->line, g->col,
				"schedule: rank %u is out of range (%u ranks)",
				g->rank, nr);
			err = HANGDX_EPARSE;
			continue;
		}
		if (sched_obj(s, g) < 0) {
			hx_diag(s->ctx, HANGDX_ERROR, s->sc->file, g->line, g->col,
				"schedule: no %s '%s'",
				g->kernel ? "communicator" : "stream", g->name);
			err = HANGDX_EPARSE;
			continue;
		}
		s->sched_first[g->rank + 1]++;
	}
	for (i = 1; i <= nr; i++)
		s->sched_first[i] += s->sched_first[i - 1];
	for (i = 0; !err && i < sch->ngrants; i++) {
		const struct hx_grant_ref *g = &sch->grants[i];
		struct sim_grant *o =
			&s->sched[s->sched_first[g->rank] + fill[g->rank]++];
		o->kernel = g->kernel;
		o->obj = sched_obj(s, g);
		o->n = g->n;
	}
	hx_free(s->ctx, fill);
	return err;
}

/* The stream of rank labelled name ("comm", "K_c3", "M_c3", "Ord"), -1. */
static int64_t stream_by_label(const struct sim *s, uint32_t rank,
			       const char *name)
{
	char lab[300];
	uint32_t i;

	for (i = s->rs_first[rank]; i < s->rs_first[rank + 1]; i++) {
		hx_stream_label(&s->st, s->rs_list[i], lab, sizeof lab);
		if (strcmp(lab, name) == 0)
			return (int64_t)s->rs_list[i];
	}
	return -1;
}

/* Resolve the sequence into keys and index them. */
static int seq_setup(struct sim *s)
{
	const struct hx_schedule *sch = &s->sc->schedule;
	uint32_t i;
	size_t n = 16, j;
	int err = HANGDX_OK;

	if (!sch->nseq)
		return HANGDX_OK;
	while (n < (size_t)sch->nseq * 2)
		n *= 2;
	s->order = hx_calloc(s->ctx, sch->nseq, sizeof *s->order);
	s->seq_slot = hx_calloc(s->ctx, n, sizeof *s->seq_slot);
	if (!s->order || !s->seq_slot)
		return HANGDX_ENOMEM;
	s->seq_nslot = n;
	for (i = 0; i < sch->nseq; i++) {
		const struct hx_seq_ref *q = &sch->seq[i];
		int64_t st = -1;
		uint64_t key;

		if (q->rank >= s->st.nranks) {
			hx_diag(s->ctx, HANGDX_ERROR, s->sc->file, q->line, q->col,
				"sequence: rank %u is out of range (%u ranks)",
				q->rank, s->st.nranks);
			err = HANGDX_EPARSE;
			continue;
		}
		if (!q->call && (st = stream_by_label(s, q->rank, q->stream)) < 0) {
			hx_diag(s->ctx, HANGDX_ERROR, s->sc->file, q->line, q->col,
				"sequence: rank %u has no stream '%s'", q->rank,
				q->stream);
			err = HANGDX_EPARSE;
			continue;
		}
		key = q->call ? SEQ_CALL | (uint64_t)q->rank << 32 | q->n
			      : (uint64_t)st << 32 | q->n;
		if (seq_find(s, key) >= 0) {
			hx_diag(s->ctx, HANGDX_ERROR, s->sc->file, q->line, q->col,
				"sequence: this step is listed twice");
			err = HANGDX_EPARSE;
			continue;
		}
		s->order[s->nseq].key = key;
		for (j = seq_hash(key) & (n - 1); s->seq_slot[j]; j = (j + 1) & (n - 1))
			;
		s->seq_slot[j] = ++s->nseq;
	}
	return err;
}

static int sim_setup(struct sim *s)
{
	size_t nr = s->st.nranks, i;
	int err;

	s->host = hx_calloc(s->ctx, nr, sizeof *s->host);
	s->fault_done = hx_calloc(s->ctx, s->sc->nfaults + 1, 1);
	s->fault_armed = hx_calloc(s->ctx, s->sc->nfaults + 1, 1);
	s->fault_at = hx_calloc(s->ctx, s->sc->nfaults + 1, sizeof *s->fault_at);
	s->evwait = hx_calloc(s->ctx, nr * s->sc->nevents + 1,
			      sizeof *s->evwait);
	s->resident = hx_alloc(s->ctx, (nr * s->st.ncomms + 1) * sizeof(int32_t));
	s->expanding = hx_alloc(s->ctx, (nr * s->st.ncomms + 1) * sizeof(int32_t));
	if (!s->host || !s->fault_done || !s->fault_armed || !s->fault_at ||
	    !s->evwait ||
	    !s->resident || !s->expanding)
		return HANGDX_ENOMEM;
	for (i = 0; i < nr * s->st.ncomms; i++)
		s->resident[i] = s->expanding[i] = -1;
	hosts_init(s);
	err = flatten(s);
	if (!err)
		err = sim_hccl_setup(s);
	if (!err)
		err = sched_setup(s);
	if (err)
		return err;
	s->inready = hx_calloc(s->ctx, s->st.nstreams + 1, 1);
	if (!s->inready)
		return HANGDX_ENOMEM;
	err = rank_streams(s);
	return err ? err : seq_setup(s);
}

static void sim_release(struct sim *s)
{
	size_t i, nw = (size_t)s->st.nranks * s->sc->nevents;

	if (s->evwait)
		for (i = 0; i < nw; i++)
			hx_free(s->ctx, s->evwait[i].v);
	for (i = 0; i < s->ntrails; i++)
		hx_free(s->ctx, s->trails[i]);
	hx_free(s->ctx, s->trails);
	hx_free(s->ctx, s->evwait);
	hx_free(s->ctx, s->heap);
	hx_free(s->ctx, s->prog);
	hx_free(s->ctx, s->host);
	hx_free(s->ctx, s->fault_done);
	hx_free(s->ctx, s->fault_armed);
	hx_free(s->ctx, s->fault_at);
	hx_free(s->ctx, s->rs_first);
	hx_free(s->ctx, s->rs_list);
	hx_free(s->ctx, s->tmap);
	hx_free(s->ctx, s->ops);
	hx_free(s->ctx, s->resident);
	hx_free(s->ctx, s->expanding);
	hx_free(s->ctx, s->sched);
	hx_free(s->ctx, s->sched_first);
	hx_free(s->ctx, s->order);
	hx_free(s->ctx, s->seq_slot);
	hx_free(s->ctx, s->tgate);
	hx_free(s->ctx, s->held);
	hx_free(s->ctx, s->ready);
	hx_free(s->ctx, s->inready);
	hx_free(s->ctx, s->recs);
	hx_free(s->ctx, s->lrs);
	hx_free(s->ctx, s->lpos);
	hx_wgraph_free(&s->wg);
	hx_free(s->ctx, s->errors);
	hx_buf_free(&s->error_json);
	hx_buf_free(&s->block_json);
	hx_buf_free(&s->block_dot);
	hx_state_free(&s->st);
}

/* ---- the run ---- */

static void dispatch(struct sim *s, const struct sim_event *ev)
{
	struct hx_task *t;

	switch (ev->type) {
	case EV_HOST:
		host_step(s, ev->a);
		break;
	case EV_DONE:
		t = &s->st.tasks[ev->a];
		if (t->state == HX_TS_RUNNING && sim_gate(s, ev->a, G_DONE))
			sim_complete(s, ev->a);
		break;
	case EV_GATE:
		gate_run(s);
		break;
	case EV_LAND:
		sim_notify_set(s, (int32_t)ev->a, ev->b, -1);
		break;
	case EV_TIMEOUT:
		t = &s->st.tasks[ev->a];
		if (t->arm == ev->b &&
		    (t->state == HX_TS_WAITING || t->state == HX_TS_RUNNING))
			sim_timeout(s, ev->a);
		break;
	case EV_EXPANDED:
		sim_hccl_expanded(s, ev->a);
		break;
	case EV_FAULT:
		sim_fault_fire(s, ev->a);
		break;
	case EV_LINKFAIL:
		sim_copy_failed(s, ev->a);
		break;
	case EV_RETRY:
		sim_copy_retry(s, ev->a);
		break;
	case EV_LOST:
		sim_heartbeat_lost(s, ev->a);
		break;
	case EV_STUCK:
		sim_stuck_check(s, ev->a);
		break;
	case EV_STATUS:
		sim_status(s, ev->a, ev->b != 0);
		break;
	}
}

static void run_ready(struct sim *s)
{
	while (s->readyhead < s->nready && !s->err) {
		uint32_t stream = s->ready[s->readyhead++];

		s->inready[stream] = 0;
		stream_advance(s, stream);
	}
	s->nready = s->readyhead = 0;
}

static void on_block(struct sim *s)
{
	int err;

	s->block_time = s->now;
	err = hx_wgraph_build(&s->wg, &s->st);
	if (err) {
		sim_oom(s, err);
		return;
	}
	err = hx_wgraph_detect(&s->wg, &s->st);
	if (err) {
		sim_oom(s, err);
		return;
	}
	s->have_graph = true;
	sim_snapshot_block(s);
	if (s->ntimeouts == 0 && s->stop_at > s->now + s->sc->tail_ns)
		s->stop_at = s->now + s->sc->tail_ns;
}

static void start_events(struct sim *s)
{
	uint32_t r, i;

	for (r = 0; r < s->st.nranks; r++) {
		struct hx_logrec *rec = sim_rec(s, HX_LR_PROC_START, r);
		(void)rec;
		sim_push(s, host_api_ns(s), EV_HOST, r, 0);
		if (hx_scenario_env(s->sc, r)->exec_timeout_s)
			sim_push(s, (uint64_t)hx_scenario_env(s->sc, r)
					 ->exec_timeout_s * HX_NS_PER_S / 3,
				 EV_STUCK, r, 0);
	}
	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		s->fault_at[i] = sim_dur(s, f->at_ns, f->at_max_ns);
		if (f->kind == HX_FAULT_RANK_DEATH || f->kind == HX_FAULT_LINK_ERROR)
			sim_push(s, s->fault_at[i], EV_FAULT, i, 0);
	}
}

static void sim_loop(struct sim *s)
{
	uint64_t limit = s->sc->time_limit_ns;

	while (s->nheap > 0 && !s->err && !s->completed) {
		struct sim_event ev;

		if (s->heap[0].t > s->stop_at || s->heap[0].t > limit)
			break;
		ev = heap_pop(s);
		s->now = ev.t;
		s->nevents++;
		dispatch(s, &ev);
		run_ready(s);
		if (s->completed)
			break;
		if (s->active == 0 && s->block_time == SIM_NEVER)
			on_block(s);
	}
	if (!s->completed && !s->err && s->nheap > 0) {
		uint64_t end = s->stop_at < limit ? s->stop_at : limit;
		if (end > s->now)
			s->now = end;
	}
}

static int sim_run(struct sim *s)
{
	int err = sim_setup(s);

	if (err)
		return err;
	start_events(s);
	sim_loop(s);
	return s->err;
}

static int write_outputs(struct sim *s, const char *dir,
			 const struct hangdx_sim_opts *o)
{
	char path[4096 + 32];
	int err = HANGDX_OK;

	if (o->write_truth) {
		snprintf(path, sizeof path, "%s/truth.json", dir);
		err = sim_write_truth(s, path);
	}
	if (!err) {
		snprintf(path, sizeof path, "%s/waitgraph.dot", dir);
		err = sim_write_dot(s, path);
	}
	if (!err && o->write_trace) {
		snprintf(path, sizeof path, "%s/trace.json", dir);
		err = sim_write_trace(s, path);
	}
	if (!err && o->write_logs) {
		struct hx_simlog_input in;
		int64_t *skew = hx_calloc(s->ctx, s->st.nranks + 1,
					  sizeof *skew);
		uint32_t i;

		if (!skew)
			return HANGDX_ENOMEM;
		for (i = 0; i < s->sc->nfaults; i++) {
			const struct hx_fault *f = &s->sc->faults[i];
			if (f->kind == HX_FAULT_CLOCK_SKEW &&
			    (uint32_t)f->rank < s->st.nranks)
				skew[f->rank] = f->skew_ns;
		}
		memset(&in, 0, sizeof in);
		in.sc = s->sc;
		in.st = &s->st;
		in.recs = s->recs;
		in.nrecs = s->nrecs;
		in.streams = s->lrs;
		in.nstreams = s->nlrs;
		in.pos = s->lpos;
		in.npos = s->nlpos;
		in.skew_ns = skew;
		in.epoch_us = 1793516400000000ULL; /* 2026-11-01 07:00:00 UTC */
		in.completed = s->completed && !s->have_error;
		in.end_ns = s->now;
		err = hx_simlog_write(s->ctx, dir, &in);
		hx_free(s->ctx, skew);
	}
	return err;
}

static int prepare_outdir(struct hangdx_ctx *ctx, const char *outdir,
			  char *tmp, size_t n)
{
	char parent[4096];
	const char *slash;
	int r;

	r = snprintf(tmp, n, "%s.tmp-XXXXXX", outdir);
	if (r < 0 || (size_t)r >= n)
		return HANGDX_EINVAL;
	slash = strrchr(outdir, '/');
	if (slash && slash != outdir) {
		snprintf(parent, sizeof parent, "%.*s",
			 (int)(slash - outdir), outdir);
		if (hx_mkdirs(parent))
			return HANGDX_EIO;
	}
	if (!mkdtemp(tmp)) {
		hx_diag(ctx, HANGDX_ERROR, outdir, 0, 0,
			"cannot create a temporary directory next to it");
		return HANGDX_EIO;
	}
	return HANGDX_OK;
}

static int commit_outdir(struct hangdx_ctx *ctx, const char *tmp,
			 const char *outdir)
{
	mode_t um = umask(0);

	umask(um);
	chmod(tmp, 0777 & ~um);         /* mkdtemp makes 0700 */
	rmdir(outdir);  /* an empty directory may be replaced */
	if (rename(tmp, outdir) != 0) {
		hx_diag(ctx, HANGDX_ERROR, outdir, 0, 0,
			"cannot move the output into place (exists and is not empty?)");
		hx_rmtree(tmp);
		return HANGDX_EEXISTS;
	}
	return HANGDX_OK;
}

int hangdx_simulate(struct hangdx_ctx *ctx, const struct hangdx_scenario *sc,
		    const struct hangdx_sim_opts *opts,
		    struct hangdx_sim_summary *sum)
{
	struct hangdx_sim_opts none = { NULL, 0, 0, 0 }, o;
	struct sim *s;
	char tmp[4096], dir[4096];
	int err;

	if (!opts)
		opts = &none;
	if (opts->outdir) {     /* "DIR/" names DIR, not a place inside it */
		size_t n = strlen(opts->outdir);

		while (n > 1 && opts->outdir[n - 1] == '/')
			n--;
		if (n >= sizeof dir)
			return HANGDX_EINVAL;
		memcpy(dir, opts->outdir, n);
		dir[n] = '\0';
		o = *opts;
		o.outdir = dir;
		opts = &o;
	}
	s = hx_calloc(ctx, 1, sizeof *s);
	if (!s)
		return HANGDX_ENOMEM;
	s->ctx = ctx;
	s->sc = sc;
	s->rng = sc->seed;
	s->drng = sc->seed ^ 0x6a09e667f3bcc908ULL;
	s->block_time = SIM_NEVER;
	s->stop_at = SIM_NEVER;
	s->error_rank = -1;
	s->error_task = -1;
	s->want_logs = opts->outdir && opts->write_logs;
	s->want_dot = opts->outdir != NULL;
	err = hx_state_init(&s->st, ctx, sc);
	if (err)
		goto out_free_sim;
	s->wg.ctx = ctx;
	err = sim_run(s);
	if (err)
		goto out_release;
	if (sum)
		sim_summarize(s, sum);
	if (!opts->outdir)
		goto out_release;
	err = prepare_outdir(ctx, opts->outdir, tmp, sizeof tmp);
	if (err)
		goto out_release;
	err = write_outputs(s, tmp, opts);
	if (err) {
		hx_rmtree(tmp);
		goto out_release;
	}
	err = commit_outdir(ctx, tmp, opts->outdir);
out_release:
	sim_release(s);
out_free_sim:
	hx_free(ctx, s);
	return err;
}

const char *hangdx_outcome_name(enum hangdx_outcome o)
{
	switch (o) {
	case HANGDX_COMPLETED: return "completed";
	case HANGDX_DEADLOCK: return "deadlock";
	case HANGDX_HANG: return "hang";
	case HANGDX_FAILED: return "failed";
	case HANGDX_TIMELIMIT: return "time-limit";
	}
	return "?";
}
