/*
 * snapshot.c - rebuild the shared runtime model from logs.  The TS stream
 * dumps written at the first wait timeout (header + one pos= line per
 * queued SQE) give every stuck stream with its head and queued tasks; the
 * device-side HCCL kernel lines say which AICPU tasks are HCCL kernels
 * holding a core and which main stream each one waits to drain.  From
 * that state the same wait-for graph and deadlock proof as the simulator's
 * are computed (src/model/waitgraph.c).
 */
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "../core/thresholds.h"

#define MAX_DUMP_STREAMS (1u << 20)

/* sqe_type codes of the TS dump (docs/LOGS-SIMULATED.md) */
enum { SQE_FFTS = 0, SQE_AICPU = 1, SQE_PLACEHOLDER = 3, SQE_EVENT_RECORD = 4,
       SQE_EVENT_WAIT = 5, SQE_NOTIFY_RECORD = 6, SQE_NOTIFY_WAIT = 7,
       SQE_SDMA = 11 };

struct dump {                   /* one stream's first dump */
	int32_t rank;
	uint32_t rec;               /* tsch_stream record */
	uint32_t file;
	int64_t parent, stream, sq;
	int64_t head, tail;         /* SQ positions; the queue is [head, tail) */
	uint32_t state_stream;      /* in d->st */
};

struct kern {                   /* an HCCL kernel holding a core */
	int32_t rank;
	int64_t kstream, msq, core;
	uint32_t rec;
	bool ended;
	int64_t end_ts;
};

struct snap {
	struct hangdx_diagnosis *d;
	uint32_t *sqes;             /* tsch_sqe records, by (file, parent, stream) */
	size_t nsqe, capsqe;
	struct hx_map notifies;        /* (rank, rt id) -> notify */
	struct hx_map records;         /* (rank, event) -> first record task */
	struct hx_map kmap;            /* (rank, kernel stream) -> last kern */
	struct hx_map byid, bysq;      /* (rank, stream id / sq id) -> state stream */
	struct dump *dumps;
	size_t ndump, capdump;
	struct kern *kerns;
	size_t nkern, capkern;
	int64_t *events;            /* distinct event ids */
	size_t nevent, capevent;
	int err;
};

static uint64_t mkey(int32_t rank, int64_t id)
{
	return hx_map_key(((uint64_t)(uint32_t)rank << 32) | (uint32_t)id);
}

/* The value of key; on a miss set it to val (unless val < 0). */
static int32_t map_get(struct hangdx_ctx *ctx, struct hx_map *m, uint64_t key,
		       int32_t val, int *err)
{
	struct hx_map_slot *sl = hx_map_slot(ctx, m, key, err);

	if (!sl)
		return -1;
	if (sl->val < 0 && val >= 0)
		sl->val = val;
	return sl->val;
}

/* TS dump entries in file, dump, stream, line order: keys taken once,
 * so the sort needs no look-up and no global context. */
struct sqe_key {
	uint32_t file, rec;
	int64_t parent, stream;
	uint64_t line;
};

static int sqe_cmp(const void *a, const void *b)
{
	const struct sqe_key *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int sort_sqes(struct snap *s)
{
	const struct hangdx_diagnosis *d = s->d;
	struct sqe_key *k = hx_calloc(d->ctx, s->nsqe, sizeof *k);
	size_t i;

	if (!k)
		return HANGDX_ENOMEM;
	for (i = 0; i < s->nsqe; i++) {
		uint32_t rec = s->sqes[i];

		k[i].file = d->ev->recs[rec].file;
		k[i].rec = rec;
		k[i].parent = hx_dnum(d, rec, HX_F_PARENT_LINE, -1);
		k[i].stream = hx_dnum(d, rec, HX_F_STREAM, -1);
		k[i].line = d->ev->recs[rec].line;
	}
	qsort(k, s->nsqe, sizeof *k, sqe_cmp);
	for (i = 0; i < s->nsqe; i++)
		s->sqes[i] = k[i].rec;
	hx_free(d->ctx, k);
	return HANGDX_OK;
}

/* Dumps sorted by (rank, stream, evidence order): the first of each
 * (rank, stream) is kept, the state at the first timeout. */
static int dump_cmp(const void *a, const void *b)
{
	const struct dump *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->state_stream < y->state_stream ? -1
	       : x->state_stream > y->state_stream;
}

static void dedupe_dumps(struct snap *s)
{
	size_t i, n = 0;

	if (s->ndump)
		qsort(s->dumps, s->ndump, sizeof *s->dumps, dump_cmp);
	for (i = 0; i < s->ndump; i++)
		if (n == 0 || s->dumps[n - 1].rank != s->dumps[i].rank ||
		    s->dumps[n - 1].stream != s->dumps[i].stream)
			s->dumps[n++] = s->dumps[i];
	s->ndump = n;
}

static void collect_sqe(struct snap *s, uint32_t rec)
{
	void *v = s->sqes;

	if (s->err)
		return;
	s->err = hx_vec_reserve(s->d->ctx, &v, &s->capsqe, s->nsqe + 1,
				sizeof *s->sqes, 1u << 28);
	if (!s->err) {
		s->sqes = v;
		s->sqes[s->nsqe++] = rec;
	}
}

static void collect_dump(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	int32_t rank = hx_drank(d, rec);
	int64_t stream = hx_dnum(d, rec, HX_F_STREAM, -1);
	void *v = s->dumps;

	if (rank < 0 || stream < 0 || s->err)
		return;
	s->err = hx_vec_reserve(d->ctx, &v, &s->capdump, s->ndump + 1,
				sizeof *s->dumps, MAX_DUMP_STREAMS);
	if (s->err)
		return;
	s->dumps = v;
	s->dumps[s->ndump] = (struct dump){
		rank, rec, d->ev->recs[rec].file,
		hx_dnum(d, rec, HX_F_PARENT_LINE, -1), stream,
		hx_dnum(d, rec, HX_F_SQ, -1),
		hx_dnum(d, rec, HX_F_HEAD, -1), hx_dnum(d, rec, HX_F_TAIL, -1),
		(uint32_t)s->ndump };
	s->ndump++;
}

static void collect_kernel(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	int32_t rank = hx_drank(d, rec);
	int64_t ks = hx_dnum(d, rec, HX_F_STREAM, -1);
	struct hx_map_slot *sl;
	struct kern *k;
	void *v = s->kerns;

	if (!what || rank < 0 || ks < 0 || s->err)
		return;
	sl = hx_map_slot(d->ctx, &s->kmap, mkey(rank, ks), &s->err);
	if (!sl)
		return;
	k = sl->val >= 0 ? &s->kerns[sl->val] : NULL;
	if (k && !k->ended) {
		if (strcmp(what, "end") == 0) {
			k->ended = true;
			k->end_ts = d->ev->recs[rec].ts;
		}
		else if (strcmp(what, "status") == 0)
			k->msq = hx_dnum(d, rec, HX_F_SQ, k->msq);
		return;
	}
	if (strcmp(what, "start") != 0)
		return;
	s->err = hx_vec_reserve(d->ctx, &v, &s->capkern, s->nkern + 1,
				sizeof *s->kerns, MAX_DUMP_STREAMS);
	if (s->err)
		return;
	s->kerns = v;
	s->kerns[s->nkern] = (struct kern){ rank, ks, -1,
		hx_dnum(d, rec, HX_F_CORE, -1), rec, false, HX_NONE };
	sl->val = (int32_t)s->nkern++;
}

static int64_t event_index(struct snap *s, int64_t id)
{
	void *v = s->events;
	size_t i;

	for (i = 0; i < s->nevent; i++)
		if (s->events[i] == id)
			return (int64_t)i;
	s->err = hx_vec_reserve(s->d->ctx, &v, &s->capevent, s->nevent + 1,
				sizeof *s->events, 1u << 16);
	if (s->err)
		return -1;
	s->events = v;
	s->events[s->nevent] = id;
	return (int64_t)s->nevent++;
}

static void collect(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	int kernel_kind = hx_kind_from_name("aicpu_kernel", 12);
	size_t i;

	for (i = 0; i < d->norder && !s->err; i++) {
		uint32_t rec = d->order[i];
		int k = d->ev->recs[rec].kind;

		if (k == HX_K_TSCH_STREAM)
			collect_dump(s, rec);
		else if (kernel_kind >= 0 && k == kernel_kind)
			collect_kernel(s, rec);
		else if (k == HX_K_TSCH_SQE) {
			collect_sqe(s, rec);
			if (hx_dnum(d, rec, HX_F_EVENT, -1) >= 0)
				event_index(s, hx_dnum(d, rec, HX_F_EVENT, -1));
		}
	}
	if (s->err)
		return;
	dedupe_dumps(s);
	if (s->nsqe)
		s->err = sort_sqes(s);
}

/* ---- the snapshot scenario and state ---- */

/* The pool is never smaller than the product's count (or --cores); a core
 * id the logs name past it widens it, and the capacity is then inferred:
 * the logs show the cores that exist, not that there are no more. */
static void size_pool(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	int64_t top = 0;
	size_t i;

	for (i = 0; i < s->nkern; i++)
		if (s->kerns[i].core >= 0 && s->kerns[i].core <= HX_MAX_CORE_ID &&
		    s->kerns[i].core + 1 > top)
			top = s->kerns[i].core + 1;
	if (top > (int64_t)d->cores) {
		d->cores_named = (unsigned)top;
		d->cores = (unsigned)top;
		d->thr_hits |= HX_THR_CORES_WIDE;
	}
}

static int snap_scenario(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	struct hangdx_scenario *sc = &d->snap_sc;
	uint32_t maxk = 1, i;
	uint32_t *per = hx_calloc(d->ctx, d->nranks + 1, sizeof *per);

	if (!per)
		return HANGDX_ENOMEM;
	for (i = 0; i < s->nkern; i++)
		if ((uint32_t)s->kerns[i].rank < d->nranks &&
		    ++per[s->kerns[i].rank] > maxk)
			maxk = per[s->kerns[i].rank];
	hx_free(d->ctx, per);
	hx_scenario_defaults(sc);
	sc->ctx = d->ctx;
	hx_arena_init(&sc->arena, d->ctx, 0);
	sc->name = "rebuilt from logs";
	sc->nranks = d->nranks ? d->nranks : 1;
	sc->cores = d->cores;
	sc->sq_depth = 65535;
	sc->groups = hx_arena_alloc(&sc->arena, sizeof *sc->groups);
	sc->events = hx_arena_alloc(&sc->arena,
				    (s->nevent + 1) * sizeof *sc->events);
	if (!sc->groups || !sc->events)
		return HANGDX_ENOMEM;
	sc->ngroups = 1;
	sc->groups[0].name = "kernel";
	sc->groups[0].count = maxk;
	sc->groups[0].retry = -1;
	sc->nevents = (uint32_t)s->nevent;
	for (i = 0; i < s->nevent; i++) {
		char name[32];
		snprintf(name, sizeof name, "event %lld", (long long)s->events[i]);
		sc->events[i] = hx_arena_strdup(&sc->arena, name);
		if (!sc->events[i])
			return HANGDX_ENOMEM;
	}
	return hx_state_init(&d->st, d->ctx, sc);
}

static int32_t notify_for(struct snap *s, int32_t rank, int64_t rt)
{
	struct hangdx_diagnosis *d = s->d;
	uint64_t key = mkey(rank, rt);
	int32_t n = map_get(d->ctx, &s->notifies, key, -1, &s->err);

	if (n >= 0 || s->err)
		return n;
	if (hx_state_add_notify(&d->st, (uint32_t)rank, HX_NR_USER, -1, -1, &n)) {
		s->err = HANGDX_ENOMEM;
		return -1;
	}
	d->st.notifies[n].rt_id = (uint32_t)rt;
	d->st.notifies[n].hccl_id = 0;
	return map_get(d->ctx, &s->notifies, key, n, &s->err);
}

static uint8_t task_kind(int64_t sqe)
{
	switch (sqe) {
	case SQE_AICPU: return HX_T_AICPU;
	case SQE_EVENT_RECORD: return HX_T_EVENT_RECORD;
	case SQE_EVENT_WAIT: return HX_T_EVENT_WAIT;
	case SQE_NOTIFY_RECORD: return HX_T_NOTIFY_RECORD;
	case SQE_NOTIFY_WAIT: return HX_T_NOTIFY_WAIT;
	case SQE_SDMA: return HX_T_COPY;
	default: return HX_T_AICORE;
	}
}

static int add_task(struct snap *s, uint32_t stream, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	int32_t rank = (int32_t)d->st.streams[stream].rank;
	struct hx_task t;
	uint32_t idx;
	void *v;
	int64_t ev;
	int err;

	memset(&t, 0, sizeof t);
	t.kind = task_kind(hx_dnum(d, rec, HX_F_SQE_TYPE, -1));
	t.comm = t.peer = t.dep = t.event = t.notify = -1;
	if (t.kind == HX_T_NOTIFY_RECORD || t.kind == HX_T_NOTIFY_WAIT)
		t.notify = notify_for(s, rank, hx_dnum(d, rec, HX_F_NOTIFY_RT, 0));
	ev = hx_dnum(d, rec, HX_F_EVENT, -1);
	if (ev >= 0)
		t.event = (int32_t)event_index(s, ev);
	t.name = hx_dstr(d, rec, HX_F_SQE_NAME);
	err = hx_state_append(&d->st, stream, &t, &idx);
	if (err)
		return err;
	d->st.tasks[idx].task_id = (uint32_t)hx_dnum(d, rec, HX_F_TASK, 0);
	d->st.tasks[idx].state = d->st.streams[stream].n == 1 ? HX_TS_WAITING
							       : HX_TS_QUEUED;
	v = d->task_rec;
	err = hx_vec_reserve(d->ctx, &v, &d->captask_rec, d->st.ntasks,
			     sizeof *d->task_rec, 1u << 28);
	if (err)
		return err;
	d->task_rec = v;
	d->task_rec[idx] = rec;
	return HANGDX_OK;
}

/* A dump may list SQEs the stream already ran (the ring's old slots):
 * only positions in [head, tail) are queued; with a wrapped ring (tail <
 * head) the queue is [head, end) and [0, tail). */
static bool in_queue(const struct dump *dp, int64_t pos)
{
	if (pos < 0 || dp->head < 0 || dp->tail < 0 || dp->head == dp->tail)
		return true;
	if (dp->head < dp->tail)
		return pos >= dp->head && pos < dp->tail;
	return pos >= dp->head || pos < dp->tail;
}

/* The pos= lines of a dump, in order: a range of the sorted sqes. */
static int fill_stream(struct snap *s, struct dump *dp)
{
	struct hangdx_diagnosis *d = s->d;
	size_t lo = 0, hi = s->nsqe;
	int err = 0;

	while (lo < hi) {               /* first sqe >= (file, parent, stream) */
		size_t mid = lo + (hi - lo) / 2;
		uint32_t rec = s->sqes[mid];
		const struct hx_rec *r = &d->ev->recs[rec];
		int64_t p = hx_dnum(d, rec, HX_F_PARENT_LINE, -1);
		int64_t st = hx_dnum(d, rec, HX_F_STREAM, -1);
		bool less = r->file != dp->file ? r->file < dp->file
			  : p != dp->parent ? p < dp->parent : st < dp->stream;
		if (less)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nsqe && !err; lo++) {
		uint32_t rec = s->sqes[lo];
		if (d->ev->recs[rec].file != dp->file ||
		    hx_dnum(d, rec, HX_F_PARENT_LINE, -2) != dp->parent ||
		    hx_dnum(d, rec, HX_F_STREAM, -2) != dp->stream)
			break;
		if (in_queue(dp, hx_dnum(d, rec, HX_F_POS, -1)))
			err = add_task(s, dp->state_stream, rec);
	}
	return err;
}

static int add_streams(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	size_t i;
	int err;

	for (i = 0; i < s->ndump; i++) {
		struct dump *dp = &s->dumps[i];
		err = hx_state_add_stream(&d->st, (uint32_t)dp->rank, HX_SR_USER,
					  -1, &dp->state_stream);
		if (err)
			return err;
		d->st.streams[dp->state_stream].id = (uint32_t)dp->stream;
		d->st.streams[dp->state_stream].sq_id = (uint32_t)dp->sq;
		err = fill_stream(s, dp);
		if (err)
			return err;
	}
	return HANGDX_OK;
}

static long find_stream(struct snap *s, int32_t rank, int64_t id, bool by_sq)
{
	return map_get(s->d->ctx, by_sq ? &s->bysq : &s->byid, mkey(rank, id),
		       -1, &s->err);
}

static void index_streams(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->ndump && !s->err; i++) {
		const struct dump *dp = &s->dumps[i];
		map_get(s->d->ctx, &s->byid, mkey(dp->rank, dp->stream),
			(int32_t)dp->state_stream, &s->err);
		if (dp->sq >= 0)
			map_get(s->d->ctx, &s->bysq, mkey(dp->rank, dp->sq),
				(int32_t)dp->state_stream, &s->err);
	}
}

/* A running HCCL kernel: the AICPU task at its stream's head holds a core
 * and, resident, waits for its main stream to drain (E1). */
static void place_kernel(struct snap *s, const struct kern *k, uint32_t ci)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_device *dev = &d->st.dev[k->rank];
	long ks = find_stream(s, k->rank, k->kstream, false);
	long ms = k->msq >= 0 ? find_stream(s, k->rank, k->msq, true) : -1;
	long h = ks >= 0 ? hx_state_head(&d->st, (uint32_t)ks) : -1;
	struct hx_task *t;

	if (h < 0 || d->st.tasks[h].kind != HX_T_AICPU)
		return;
	t = &d->st.tasks[h];
	t->kind = HX_T_KERNEL;
	t->state = HX_TS_RUNNING;
	t->comm = (int32_t)ci;
	t->op = (uint32_t)hx_dnum(d, k->rec, HX_F_INDEX, 0);
	dev->comm[ci].me = 0;
	dev->comm[ci].kstream = (uint32_t)ks;
	d->st.streams[ks].role = HX_SR_KERNEL;
	d->st.streams[ks].comm = (int32_t)ci;
	if (ms >= 0) {
		dev->comm[ci].mstream = (uint32_t)ms;
		d->st.streams[ms].role = HX_SR_MAIN;
		d->st.streams[ms].comm = (int32_t)ci;
		t->end_pos = (uint32_t)d->st.streams[ms].n;
	}
	if (k->core >= 0 && (uint64_t)k->core < dev->pool.cap &&
	    dev->pool.holder[k->core] < 0) {
		dev->pool.holder[k->core] = (int32_t)h;
		dev->pool.busy++;
		t->core = (int32_t)k->core;
	}
	d->ranks[k->rank].kernels++;
}

/* The snapshot is the state at each rank's first TS dump: a kernel that
 * ended only after it (the error cascade) was still holding its core. */
static void place_kernels(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	uint32_t *next = hx_calloc(d->ctx, d->nranks + 1, sizeof *next);
	int64_t *when = hx_calloc(d->ctx, d->nranks + 1, sizeof *when);
	size_t i;

	if (!next || !when) {
		s->err = HANGDX_ENOMEM;
		goto out_free;
	}
	for (i = 0; i < d->nranks; i++)
		when[i] = INT64_MAX;
	for (i = 0; i < s->ndump; i++) {
		int64_t ts = d->ev->recs[s->dumps[i].rec].ts;
		if (ts != HX_NONE && ts < when[s->dumps[i].rank])
			when[s->dumps[i].rank] = ts;
	}
	for (i = 0; i < s->nkern; i++) {
		const struct kern *k = &s->kerns[i];
		if ((uint32_t)k->rank >= d->nranks ||
		    (k->ended && k->end_ts != HX_NONE && k->end_ts < when[k->rank]))
			continue;
		place_kernel(s, k, next[k->rank]++);
	}
out_free:
	hx_free(d->ctx, next);
	hx_free(d->ctx, when);
}

/* An event wait waits for the nearest pending record of its event on the
 * same device (the first one the dumps show). */
static void link_events(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	size_t i;

	for (i = 0; i < d->st.ntasks && !s->err; i++) {
		const struct hx_task *r = &d->st.tasks[i];
		if (r->kind == HX_T_EVENT_RECORD && r->event >= 0)
			map_get(d->ctx, &s->records,
				mkey((int32_t)d->st.streams[r->stream].rank, r->event),
				(int32_t)i, &s->err);
	}
	for (i = 0; i < d->st.ntasks && !s->err; i++) {
		struct hx_task *w = &d->st.tasks[i];
		if (w->kind == HX_T_EVENT_WAIT && w->event >= 0)
			w->dep = map_get(d->ctx, &s->records,
					 mkey((int32_t)d->st.streams[w->stream].rank,
					      w->event), -1, &s->err);
	}
}

int hx_snapshot_build(struct hangdx_diagnosis *d)
{
	struct snap s;
	int err;

	memset(&s, 0, sizeof s);
	s.d = d;
	collect(&s);
	size_pool(&s);
	err = s.err;
	if (err || s.ndump == 0)
		goto out_free;
	err = snap_scenario(&s);
	if (err)
		goto out_free;
	d->have_snapshot = true;
	err = add_streams(&s);
	if (err)
		goto out_free;
	index_streams(&s);
	place_kernels(&s);
	link_events(&s);
	err = s.err;
	if (!err)
		err = hx_wgraph_build(&d->wg, &d->st);
	if (!err)
		hx_wgraph_detect(&d->wg, &d->st);
out_free:
	hx_free(d->ctx, s.dumps);
	hx_free(d->ctx, s.kerns);
	hx_free(d->ctx, s.events);
	hx_free(d->ctx, s.sqes);
	hx_map_free(d->ctx, &s.notifies);
	hx_map_free(d->ctx, &s.records);
	hx_map_free(d->ctx, &s.kmap);
	hx_map_free(d->ctx, &s.byid);
	hx_map_free(d->ctx, &s.bysq);
	return err;
}
