/*
 * state.c - the runtime state of runtime-model.md §3: one device per
 * rank with its AICPU pool, streams, notifies, and the per-rank resources
 * of every communicator instance (K_c, M_c, S_c, Ord, H0/H1/O0/O1).
 * The simulator creates and drives it; names for logs and graphs too.
 */
#include <stdio.h>
#include <string.h>
#include "state.h"

#define MAX_STREAMS (1u << 24)
#define MAX_TASKS (1u << 28)
#define MAX_NOTIFIES (1u << 26)
#define FIRST_STREAM_ID 2     /* stream 0/1 are the runtime's own */
#define FIRST_NOTIFY_ID 8

static const char *const task_kind_names[HX_T_KIND_COUNT] = {
	"AICORE", "AICPU", "KERNEL_HCCL", "NOTIFY_RECORD", "NOTIFY_WAIT",
	"EVENT_RECORD", "EVENT_WAIT", "COPY"
};

const char *hx_task_kind_name(enum hx_task_kind k)
{
	return (unsigned)k < HX_T_KIND_COUNT ? task_kind_names[k] : "?";
}

const char *hx_task_state_name(enum hx_task_state s)
{
	static const char *const names[] = { "queued", "waiting", "running",
					     "done", "failed", "aborted" };
	return (unsigned)s < HX_ARRAY_LEN(names) ? names[s] : "?";
}

int hx_state_add_stream(struct hx_state *st, uint32_t rank, uint8_t role,
			int32_t comm, uint32_t *out)
{
	struct hx_device *d = &st->dev[rank];
	struct hx_stream *s;
	void *v = st->streams;
	int err;

	err = hx_vec_reserve(st->ctx, &v, &st->capstreams, st->nstreams + 1,
			     sizeof *st->streams, MAX_STREAMS);
	if (err)
		return err;
	st->streams = v;
	s = &st->streams[st->nstreams];
	memset(s, 0, sizeof *s);
	s->rank = rank;
	s->role = role;
	s->comm = comm;
	s->user = -1;
	s->id = d->next_stream_id++;
	/* SQ ids are allocated by the driver apart from stream ids */
	s->sq_id = s->id + 4;
	s->depth = st->sc->sq_depth;
	s->stop_mode = role != HX_SR_USER;
	*out = (uint32_t)st->nstreams++;
	return HANGDX_OK;
}

int hx_state_add_notify(struct hx_state *st, uint32_t rank, uint8_t role,
			int32_t comm, int32_t peer, int32_t *out)
{
	struct hx_device *d = &st->dev[rank];
	struct hx_notify *n;
	void *v = st->notifies;
	int err;

	err = hx_vec_reserve(st->ctx, &v, &st->capnotifies, st->nnotifies + 1,
			     sizeof *st->notifies, MAX_NOTIFIES);
	if (err)
		return err;
	st->notifies = v;
	n = &st->notifies[st->nnotifies];
	memset(n, 0, sizeof *n);
	n->rank = rank;
	n->role = role;
	n->comm = comm;
	n->peer = peer;
	n->user = -1;
	n->waiter = -1;
	n->rt_id = d->next_notify_id++;
	n->hccl_id = ((uint64_t)(comm >= 0 && d->comm ? (uint32_t)d->comm[comm].me
						      : 0) << 32) |
		     (0x50u + n->rt_id);
	*out = (int32_t)st->nnotifies++;
	return HANGDX_OK;
}

int hx_state_append(struct hx_state *st, uint32_t stream,
		    const struct hx_task *proto, uint32_t *out)
{
	struct hx_stream *s = &st->streams[stream];
	struct hx_task *t;
	void *v = st->tasks;
	int err;

	err = hx_vec_reserve(st->ctx, &v, &st->captasks, st->ntasks + 1,
			     sizeof *st->tasks, MAX_TASKS);
	if (err)
		return err;
	st->tasks = v;
	v = s->q;
	err = hx_vec_reserve(st->ctx, &v, &s->cap, s->n + 1, sizeof *s->q,
			     MAX_TASKS);
	if (err)
		return err;
	s->q = v;
	t = &st->tasks[st->ntasks];
	*t = *proto;
	t->stream = stream;
	t->pos = (uint32_t)s->n;
	t->task_id = s->next_task_id;
	s->next_task_id = (s->next_task_id + 1) & 0xffffu;
	t->state = HX_TS_QUEUED;
	t->core = -1;
	s->q[s->n++] = (uint32_t)st->ntasks;
	*out = (uint32_t)st->ntasks++;
	return HANGDX_OK;
}

long hx_state_head(const struct hx_state *st, uint32_t stream)
{
	const struct hx_stream *s = &st->streams[stream];

	return s->head < s->n ? (long)s->q[s->head] : -1;
}

/* Device r, its tables carved from the state's blocks (one allocation
 * each for a job of 100,000 ranks, not five a device). */
static void device_init(struct hx_state *st, uint32_t r)
{
	const struct hangdx_scenario *sc = st->sc;
	struct hx_device *d = &st->dev[r];
	uint32_t i, pr;

	d->rank = r;
	d->node = r / sc->ranks_per_node;
	d->device_id = r % sc->ranks_per_node;
	/* in containers every node numbers its processes alike */
	pr = sc->same_pids ? r % sc->ranks_per_node : r;
	d->host_pid = 100000 + pr * 16 + 3;
	d->dev_pid = 5000 + pr * 8 + 7;
	d->alive = true;
	d->next_stream_id = FIRST_STREAM_ID;
	d->next_notify_id = FIRST_NOTIFY_ID;
	d->pool.cap = sc->cores;
	d->pool.holder = st->slab.holder + (size_t)r * sc->cores;
	d->user_stream = st->slab.user_stream + (size_t)r * (sc->nstreams + 1);
	d->user_notify = st->slab.user_notify + (size_t)r * (sc->nnotifies + 1);
	d->event_last = st->slab.event_last + (size_t)r * (sc->nevents + 1);
	d->comm = st->slab.comm + (size_t)r * (st->ncomms + 1);
	for (i = 0; i < sc->cores; i++)
		d->pool.holder[i] = -1;
	for (i = 0; i < sc->nevents; i++)
		d->event_last[i] = -1;
}

static int slabs_init(struct hx_state *st)
{
	const struct hangdx_scenario *sc = st->sc;
	size_t n = st->nranks;

	st->slab.holder = hx_calloc(st->ctx, n * sc->cores + 1, sizeof(int32_t));
	st->slab.user_stream = hx_calloc(st->ctx, n * (sc->nstreams + 1) + 1,
					 sizeof(uint32_t));
	st->slab.user_notify = hx_calloc(st->ctx, n * (sc->nnotifies + 1) + 1,
					 sizeof(int32_t));
	st->slab.event_last = hx_calloc(st->ctx, n * (sc->nevents + 1) + 1,
					sizeof(int32_t));
	st->slab.comm = hx_calloc(st->ctx, n * (st->ncomms + 1) + 1,
				  sizeof *st->slab.comm);
	return st->slab.holder && st->slab.user_stream && st->slab.user_notify &&
	       st->slab.event_last && st->slab.comm ? HANGDX_OK : HANGDX_ENOMEM;
}

static int comms_init(struct hx_state *st)
{
	const struct hangdx_scenario *sc = st->sc;
	uint32_t g, i, k, c = 0;

	for (g = 0; g < sc->ngroups; g++) {
		const struct hx_comm_group *grp = &sc->groups[g];
		uint32_t n = grp->ranks ? grp->nranks : st->nranks;

		for (i = 0; i < grp->count; i++, c++) {
			struct hx_comm *cm = &st->comms[c];

			hx_comm_name(sc, g, i, cm->name, sizeof cm->name);
			cm->group = g;
			cm->nmembers = n;
			cm->members = hx_calloc(st->ctx, n, sizeof *cm->members);
			if (!cm->members)
				return HANGDX_ENOMEM;
			for (k = 0; k < n; k++)
				cm->members[k] = grp->ranks ? (uint32_t)grp->ranks[k]
							    : k;
			snprintf(cm->identifier, sizeof cm->identifier,
				 "127.10.0.1%%enp_60000_%u_17612758127%05u", c,
				 c * 7919u % 100000u);
		}
	}
	return HANGDX_OK;
}

int hx_state_init(struct hx_state *st, struct hangdx_ctx *ctx,
		  const struct hangdx_scenario *sc)
{
	uint32_t r;
	int err;

	memset(st, 0, sizeof *st);
	st->ctx = ctx;
	st->sc = sc;
	st->nranks = sc->nranks;
	st->ncomms = hx_scenario_ncomms(sc);
	st->dev = hx_calloc(ctx, st->nranks, sizeof *st->dev);
	st->comms = hx_calloc(ctx, st->ncomms + 1, sizeof *st->comms);
	if (!st->dev || !st->comms) {
		hx_state_free(st);
		return HANGDX_ENOMEM;
	}
	err = slabs_init(st);
	if (err) {
		hx_state_free(st);
		return err;
	}
	for (r = 0; r < st->nranks; r++)
		device_init(st, r);
	err = comms_init(st);
	if (err)
		hx_state_free(st);
	return err;
}

void hx_state_free(struct hx_state *st)
{
	size_t i;

	if (st->dev) {
		for (i = 0; i < st->nranks; i++) {
			struct hx_device *d = &st->dev[i];
			hx_free(st->ctx, d->pool.wait);
		}
	}
	if (st->comms)
		for (i = 0; i < st->ncomms; i++)
			hx_free(st->ctx, st->comms[i].members);
	for (i = 0; i < st->nstreams; i++)
		hx_free(st->ctx, st->streams[i].q);
	hx_free(st->ctx, st->dev);
	hx_free(st->ctx, st->slab.holder);
	hx_free(st->ctx, st->slab.user_stream);
	hx_free(st->ctx, st->slab.user_notify);
	hx_free(st->ctx, st->slab.event_last);
	hx_free(st->ctx, st->slab.comm);
	hx_free(st->ctx, st->comms);
	hx_free(st->ctx, st->streams);
	hx_free(st->ctx, st->tasks);
	hx_free(st->ctx, st->notifies);
	memset(st, 0, sizeof *st);
}

void hx_stream_label(const struct hx_state *st, uint32_t stream, char *buf,
		     size_t n)
{
	const struct hx_stream *s = &st->streams[stream];
	const char *cn = s->comm >= 0 ? st->comms[s->comm].name : "";
	const struct hx_comm_rank *cr =
		s->comm >= 0 ? &st->dev[s->rank].comm[s->comm] : NULL;
	uint32_t i;

	switch (s->role) {
	case HX_SR_USER:
		if (s->user >= 0 && (uint32_t)s->user < st->sc->nstreams)
			snprintf(buf, n, "%s", st->sc->streams[s->user]);
		else
			snprintf(buf, n, "stream%u", s->id);
		return;
	case HX_SR_KERNEL:
		snprintf(buf, n, "K_%s", cn);
		return;
	case HX_SR_ORDER:
		snprintf(buf, n, "Ord");
		return;
	case HX_SR_MAIN:
		snprintf(buf, n, "M_%s", cn);
		return;
	case HX_SR_SLAVE:
		for (i = 0; cr && i < 8; i++)
			if (cr->sstream[i] == stream)
				break;
		snprintf(buf, n, "S%u_%s", cr && i < 8 ? i : 0, cn);
		return;
	}
	snprintf(buf, n, "stream%u", s->id);
}

void hx_notify_label(const struct hx_state *st, int32_t notify, char *buf,
		     size_t n)
{
	const struct hx_notify *no;
	const char *cn;
	static const char *const role[] = { "", "H0", "H1", "O0", "O1",
					    "MS", "SM", "rx" };

	if (notify < 0 || (size_t)notify >= st->nnotifies) {
		snprintf(buf, n, "?");
		return;
	}
	no = &st->notifies[notify];
	cn = no->comm >= 0 ? st->comms[no->comm].name : "";
	if (no->role == HX_NR_USER && no->user >= 0)
		snprintf(buf, n, "%s", st->sc->notifies[no->user]);
	else if (no->role == HX_NR_USER)
		snprintf(buf, n, "notify %u", no->rt_id);
	else if (no->comm < 0)
		snprintf(buf, n, "%s", role[no->role]);
	else if (no->role == HX_NR_PEER)
		snprintf(buf, n, "rx_%s(r%u<-r%d)", cn, no->rank, no->peer);
	else
		snprintf(buf, n, "%s_%s", role[no->role], cn);
}

void hx_task_label(const struct hx_state *st, uint32_t task, char *buf,
		   size_t n)
{
	const struct hx_task *t = &st->tasks[task];
	char sl[80], obj[96] = "";
	const char *kn = hx_task_kind_name((enum hx_task_kind)t->kind);

	hx_stream_label(st, t->stream, sl, sizeof sl);
	switch (t->kind) {
	case HX_T_NOTIFY_RECORD:
	case HX_T_NOTIFY_WAIT:
		hx_notify_label(st, t->notify, obj, sizeof obj);
		break;
	case HX_T_EVENT_RECORD:
	case HX_T_EVENT_WAIT:
		snprintf(obj, sizeof obj, "%s",
			 t->event >= 0 ? st->sc->events[t->event] : "?");
		break;
	case HX_T_KERNEL:
		snprintf(obj, sizeof obj, "%s op%u",
			 t->comm >= 0 ? st->comms[t->comm].name : "?", t->op);
		break;
	case HX_T_COPY:
		snprintf(obj, sizeof obj, "to r%d", t->peer);
		break;
	default:
		snprintf(obj, sizeof obj, "%s", t->name ? t->name : "");
	}
	snprintf(buf, n, "rank%u %s #%u %s(%s)", st->streams[t->stream].rank,
		 sl, t->task_id, kn, obj);
}
