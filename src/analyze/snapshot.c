/*
 * snapshot.c - rebuild the shared runtime model from logs.  The TS stream
 * dumps written at the first wait timeout (header + one pos= line per
 * queued SQE) give every stuck stream with its head and queued tasks; the
 * device-side HCCL kernel lines say which AICPU tasks are HCCL kernels
 * holding a core (without them, the dumps' lone AICPU tasks or the
 * configuration stand in, inferred); why each keeps it (and whether it
 * waits for its main stream to drain) is the model's rule,
 * src/model/resident.c.  From that state the simulator's wait-for graph
 * and proof follow (waitgraph.c).
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

/*
 * A communicator whose HCCL kernel may hold an AICPU core on one rank.
 * Real lines: the kernel's entry and exit on one AICPU worker thread
 * (RunAicpuRpcSrvLaunchV2 ... end RunAicpuRpcSrvLaunchV2), the start of
 * its orchestration naming the group, the resident kernel's status
 * every 30 s (WaitFinishWhileLoop "Current state ... sqid ... group"),
 * HCCL's own per-communicator report (AicpuComm: status[inExec]) and a
 * KFC timeout; the host launch line names the kernel stream.  The older
 * "kernel start ... core[c]" lines add a core number.
 */
struct kern {
	int32_t rank;
	const char *group;          /* identifier; NULL: known by stream */
	int64_t kstream, msq, core, index;
	int64_t ustream;            /* the op's launching stream (host launch) */
	int64_t start_ts, end_ts, status_ts;
	uint32_t start_rec, status_rec, comm_rec, timeout_rec;
	bool open;                  /* started, not ended (by its thread) */
	bool inexec;                /* HCCL's report: status[inExec] */
	bool placed;
	bool config;                /* inferred from the configuration: no
				       line and no dumped stream shows it */
};

struct tidrun {                 /* the kernel run on one worker thread */
	int32_t kern;               /* -1: none yet */
	int64_t kstream;            /* from the scheduler's "kfc task" line */
	uint32_t entry_rec;
};

struct snap {
	struct hangdx_diagnosis *d;
	uint32_t *sqes;             /* tsch_sqe records, by (file, parent, stream) */
	size_t nsqe, capsqe;
	struct hx_map notifies;        /* (rank, rt id) -> notify */
	struct hx_map records;         /* (rank, event) -> first record task */
	struct hx_map kmap;            /* (rank, group or stream) -> kern */
	struct hx_map local;           /* (rank, stream): a notify wait HCCL
					  says timed out on a local notify */
	struct hx_map tmap;            /* (rank, thread) -> tidrun */
	struct tidrun *runs;
	size_t nrun, caprun;
	uint32_t *pool_rec;            /* rank -> AicpuComm overload line */
	uint32_t *cores_rec;           /* rank -> aicpuCoreNum line */
	int f_cores, f_main;           /* field ids looked up by name */
	int k_comm, k_task;            /* kind ids, -1 when unknown */
	struct hx_map byid, bysq;      /* (rank, stream id / sq id) -> state stream */
	struct dump *dumps;
	size_t ndump, capdump;
	struct kern *kerns;
	size_t nkern, capkern;
	int64_t *events;            /* distinct event ids */
	size_t nevent, capevent;
	uint32_t *rs_off, *rs_list;    /* rank -> its dumped streams, index order */
	uint32_t rs_nranks;
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

static uint64_t gkey(int32_t rank, const char *group, int64_t ks)
{
	uint64_t h = group ? hx_hash(group, strlen(group)) : (uint64_t)ks * 0x9e37u;

	return hx_map_key(h ^ ((uint64_t)(uint32_t)rank << 40) ^ (group ? 1u : 2u));
}

/* The kern of (rank, group) or, without a group, of (rank, stream). */
static struct kern *kern_for(struct snap *s, int32_t rank, const char *group,
			     int64_t ks)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_map_slot *sl;
	void *v = s->kerns;

	if (s->err || rank < 0 || (!group && ks < 0))
		return NULL;
	sl = hx_map_slot(d->ctx, &s->kmap, gkey(rank, group, ks), &s->err);
	if (!sl)
		return NULL;
	if (sl->val >= 0) {
		struct kern *k = &s->kerns[sl->val];
		if (k->rank == rank && (group ? k->group && !strcmp(k->group, group)
					      : !k->group && k->kstream == ks))
			return k;
		return NULL;            /* a hash collision: keep the first */
	}
	s->err = hx_vec_reserve(d->ctx, &v, &s->capkern, s->nkern + 1,
				sizeof *s->kerns, MAX_DUMP_STREAMS);
	if (s->err)
		return NULL;
	s->kerns = v;
	s->kerns[s->nkern] = (struct kern){ rank, group, group ? -1 : ks, -1, -1,
		-1, -1, HX_NONE, HX_NONE, HX_NONE, HX_NOREC, HX_NOREC, HX_NOREC,
		HX_NOREC, false, false, false, false };
	sl->val = (int32_t)s->nkern;
	return &s->kerns[s->nkern++];
}

static struct tidrun *run_for(struct snap *s, int32_t rank, int64_t tid)
{
	struct hx_map_slot *sl;
	void *v = s->runs;

	if (s->err || rank < 0 || tid == HX_NONE)
		return NULL;
	sl = hx_map_slot(s->d->ctx, &s->tmap, mkey(rank, tid), &s->err);
	if (!sl)
		return NULL;
	if (sl->val >= 0)
		return &s->runs[sl->val];
	s->err = hx_vec_reserve(s->d->ctx, &v, &s->caprun, s->nrun + 1,
				sizeof *s->runs, MAX_DUMP_STREAMS);
	if (s->err)
		return NULL;
	s->runs = v;
	s->runs[s->nrun] = (struct tidrun){ -1, -1, HX_NOREC };
	sl->val = (int32_t)s->nrun;
	return &s->runs[s->nrun++];
}

static void kern_start(struct snap *s, struct kern *k, struct tidrun *tr,
		       uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;

	k->open = true;
	k->start_ts = d->ev->recs[rec].ts;
	k->end_ts = HX_NONE;
	k->start_rec = tr && tr->entry_rec != HX_NOREC ? tr->entry_rec : rec;
	if (k->index < 0)
		k->index = hx_dnum(d, rec, HX_F_INDEX, -1);
	if (tr) {
		tr->kern = (int32_t)(k - s->kerns);
		if (tr->kstream >= 0 && k->kstream < 0)
			k->kstream = tr->kstream;
		tr->entry_rec = HX_NOREC;
	}
}

/* "start": the real orchestration start names the group; the older
 * line names the kernel stream and core instead. */
static void on_start(struct snap *s, uint32_t rec, int32_t rank,
		     struct tidrun *tr)
{
	struct hangdx_diagnosis *d = s->d;
	const char *group = hx_dstr(d, rec, HX_F_GROUP);
	int64_t ks = hx_dnum(d, rec, HX_F_STREAM, -1);
	int64_t core = hx_dnum(d, rec, HX_F_CORE, -1);
	struct kern *k = NULL;

	if (!group && tr && tr->kern >= 0 && s->kerns[tr->kern].open)
		k = &s->kerns[tr->kern];        /* the same run, more detail */
	if (!k)
		k = kern_for(s, rank, group, ks);
	if (!k)
		return;
	if (group && tr && tr->kern >= 0 && tr->kern != (int32_t)(k - s->kerns) &&
	    !s->kerns[tr->kern].group && s->kerns[tr->kern].open) {
		struct kern *o = &s->kerns[tr->kern];   /* the older line, first */
		if (ks < 0)
			ks = o->kstream;
		if (core < 0)
			core = o->core;
		o->open = false;
		o->start_rec = HX_NOREC;
		tr->kern = -1;
	}
	if (!k->open || !tr || tr->kern != (int32_t)(k - s->kerns))
		kern_start(s, k, tr, rec);
	if (ks >= 0)
		k->kstream = ks;
	if (core >= 0)
		k->core = core;
}

static void on_end(struct snap *s, uint32_t rec, int32_t rank,
		   struct tidrun *tr)
{
	struct hangdx_diagnosis *d = s->d;
	int64_t ks = hx_dnum(d, rec, HX_F_STREAM, -1);
	struct kern *k = NULL;

	if (tr && tr->kern >= 0)
		k = &s->kerns[tr->kern];
	else if (ks >= 0)
		k = kern_for(s, rank, NULL, ks);
	if (tr)
		tr->kern = -1;
	if (!k || !k->open)
		return;
	k->open = false;
	k->end_ts = d->ev->recs[rec].ts;
}

static void on_status(struct snap *s, uint32_t rec, int32_t rank)
{
	struct hangdx_diagnosis *d = s->d;
	struct kern *k = kern_for(s, rank, hx_dstr(d, rec, HX_F_GROUP),
				  hx_dnum(d, rec, HX_F_STREAM, -1));

	if (!k)
		return;
	k->msq = hx_dnum(d, rec, HX_F_SQ, k->msq);
	k->status_ts = d->ev->recs[rec].ts;
	k->status_rec = rec;
}

/* The host launch line names the kernel stream of the group's op. */
static void on_launch(struct snap *s, uint32_t rec, int32_t rank)
{
	struct hangdx_diagnosis *d = s->d;
	const char *group = hx_dstr(d, rec, HX_F_GROUP);
	int64_t ks = hx_dnum(d, rec, HX_F_STREAM, -1);
	struct kern *k = group && ks >= 0 ? kern_for(s, rank, group, -1) : NULL;

	if (k) {
		k->kstream = ks;
		if (s->f_main >= 0)
			k->ustream = hx_dnum(d, rec, s->f_main, k->ustream);
	}
}

static void collect_kernel(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	int32_t rank = hx_drank(d, rec);
	struct tidrun *tr;
	struct kern *k;

	if (!what || rank < 0 || (uint32_t)rank >= d->nranks || s->err)
		return;
	tr = d->ev->recs[rec].tid != HX_NONE
	     ? run_for(s, rank, d->ev->recs[rec].tid) : NULL;
	if (!strcmp(what, "entry")) {
		if (tr)
			tr->entry_rec = rec;
	} else if (!strcmp(what, "start")) {
		on_start(s, rec, rank, tr);
	} else if (!strcmp(what, "end")) {
		on_end(s, rec, rank, tr);
	} else if (!strcmp(what, "status")) {
		on_status(s, rec, rank);
	} else if (!strcmp(what, "launch")) {
		on_launch(s, rec, rank);
	} else if (!strcmp(what, "timeout") &&
		   (k = kern_for(s, rank, hx_dstr(d, rec, HX_F_GROUP), -1)) != NULL) {
		k->timeout_rec = rec;
	}
}

/* AicpuComm: group[..], status[inExec|unExec], ..., aicpuCoreNum[N]; and
 * "In Execution group num[..] ... bigger than Aicpu cores num[..]". */
static void collect_comm(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	const char *st = hx_dstr(d, rec, HX_F_STATUS);
	int32_t rank = hx_drank(d, rec);
	int64_t cores = s->f_cores >= 0 ? hx_dnum(d, rec, s->f_cores, -1) : -1;
	struct kern *k;

	if (rank < 0 || (uint32_t)rank >= d->nranks || s->err)
		return;
	if (cores > 0 && cores <= HX_MAX_CORE_ID + 1 &&
	    s->cores_rec[rank] == HX_NOREC)
		s->cores_rec[rank] = rec;
	if (what && !strcmp(what, "overload")) {
		if (s->pool_rec[rank] == HX_NOREC)
			s->pool_rec[rank] = rec;
		return;
	}
	if (!st || strcmp(st, "inExec") != 0)
		return;
	k = kern_for(s, rank, hx_dstr(d, rec, HX_F_GROUP), -1);
	if (k && !k->inexec) {
		k->inexec = true;
		k->comm_rec = rec;
		if (k->index < 0)
			k->index = hx_dnum(d, rec, HX_F_INDEX, -1);
	}
}

/* "kfc task, streamId[K], taskId[t]": the AICPU scheduler hands an HCCL
 * kernel of stream K to this worker thread. */
static void collect_task(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	int32_t rank = hx_drank(d, rec);
	struct tidrun *tr;

	if (!what || strcmp(what, "kfc") != 0 || rank < 0 ||
	    (uint32_t)rank >= d->nranks || d->ev->recs[rec].tid == HX_NONE)
		return;
	tr = run_for(s, rank, d->ev->recs[rec].tid);
	if (tr)
		tr->kstream = hx_dnum(d, rec, HX_F_STREAM, -1);
}

static int64_t event_index(struct snap *s, int64_t id)
{
	void *v = s->events;
	size_t i;

	if (s->err)
		return -1;
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

/* HCCL's failed-task block names the stream whose notify wait ran out and
 * the rank that records the notify: "local" (or the rank id's all-ones)
 * puts the record on this rank. */
static void collect_local(struct snap *s, uint32_t rec)
{
	struct hangdx_diagnosis *d = s->d;
	int64_t sid = hx_dnum(d, rec, HX_F_STREAM, -1);
	int32_t rank = hx_drank(d, rec);
	struct hx_map_slot *sl;

	if (!hx_remote_local(d, rec) || sid < 0 || sid > UINT32_MAX || rank < 0)
		return;
	sl = hx_map_slot(d->ctx, &s->local,
			 hx_map_key((uint64_t)rank << 32 | (uint64_t)sid), &s->err);
	if (sl)
		sl->val = 1;
}

static bool waits_local(const struct snap *s, uint32_t rank, uint32_t sid)
{
	return hx_map_find(&s->local,
			   hx_map_key((uint64_t)rank << 32 | sid)) == 1;
}

static void collect(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	int kernel_kind = hx_kind_from_name("aicpu_kernel", 12);
	size_t i;

	s->k_comm = hx_kind_from_name("aicpu_comm", 10);
	s->k_task = hx_kind_from_name("aicpu_task", 10);
	s->f_cores = hx_field_from_name("cores", 5);
	s->f_main = hx_field_from_name("main_stream", 11);
	s->pool_rec = hx_alloc(d->ctx, (d->nranks + 1) * sizeof *s->pool_rec);
	s->cores_rec = hx_alloc(d->ctx, (d->nranks + 1) * sizeof *s->cores_rec);
	if (!s->pool_rec || !s->cores_rec) {
		s->err = HANGDX_ENOMEM;
		return;
	}
	for (i = 0; i <= d->nranks; i++)
		s->pool_rec[i] = s->cores_rec[i] = HX_NOREC;
	for (i = 0; i < d->norder && !s->err; i++) {
		uint32_t rec = d->order[i];
		int k = d->ev->recs[rec].kind;

		if (d->rf && hx_rf(d, hx_drank(d, rec)))
			continue;       /* its facts stand for its devices */
		if (k == HX_K_TSCH_STREAM)
			collect_dump(s, rec);
		else if (kernel_kind >= 0 && k == kernel_kind)
			collect_kernel(s, rec);
		else if (s->k_comm >= 0 && k == s->k_comm)
			collect_comm(s, rec);
		else if (s->k_task >= 0 && k == s->k_task)
			collect_task(s, rec);
		else if (k == HX_K_HCCL_TASK_FAIL || k == HX_K_EI0002)
			collect_local(s, rec);
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

/* The pool of each device is the count HCCL's own AicpuComm lines print
 * on it (aicpuCoreNum), else --cores or the product's count, never
 * smaller; a core id the older kernel lines name past it widens it, and
 * the capacity is then inferred: the logs show the cores that exist, not
 * that there are no more.  A device's count never sizes another's.
 * d->cores becomes the largest pool (the model's slab is that wide). */
static void rank_logged(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	size_t i;

	for (i = 0; i < d->nranks; i++)
		if (s->cores_rec[i] != HX_NOREC)
			d->ranks[i].cores_logged =
				hx_dnum(d, s->cores_rec[i], s->f_cores, 0);
	for (i = 0; i < s->nkern; i++)
		if (s->kerns[i].core >= 0 && s->kerns[i].core <= HX_MAX_CORE_ID &&
		    s->kerns[i].rank >= 0 && (uint32_t)s->kerns[i].rank < d->nranks &&
		    s->kerns[i].core + 1 > d->ranks[s->kerns[i].rank].core_top)
			d->ranks[s->kerns[i].rank].core_top = s->kerns[i].core + 1;
}

static void size_pool(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	unsigned base = d->cores, widest = 0;
	size_t i;

	for (i = 0; i < d->nranks; i++) {
		struct hx_rankinfo *ri = &d->ranks[i];
		const struct hx_rankfact *rf = hx_rf(d, (int64_t)i);
		int64_t c = rf ? rf->cores_logged : ri->cores_logged;
		int64_t t = rf ? rf->core_top : ri->core_top;

		ri->cores = base;
		if (c > 0 && !d->cores_given) {
			ri->cores = (unsigned)c;
			d->cores_logged = true;
		}
		if (t > (int64_t)ri->cores) {
			ri->cores = (unsigned)t;
			ri->cores_wide = true;
			if ((unsigned)t > d->cores_named)
				d->cores_named = (unsigned)t;
			d->thr_hits |= HX_THR_CORES_WIDE;
		}
		widest = ri->cores > widest ? ri->cores : widest;
	}
	if (widest)
		d->cores = widest;
}

unsigned hx_rank_cores(const struct hangdx_diagnosis *d, int64_t rank)
{
	if (rank >= 0 && (uint64_t)rank < d->nranks && d->ranks[rank].cores)
		return d->ranks[rank].cores;
	return d->cores;
}

/* Each rank's first TS dump: the moment the snapshot shows. */
static int dump_times(struct snap *s, int64_t **out)
{
	struct hangdx_diagnosis *d = s->d;
	int64_t *when = hx_calloc(d->ctx, d->nranks + 1, sizeof *when);
	size_t i;

	if (!when)
		return HANGDX_ENOMEM;
	for (i = 0; i <= d->nranks; i++)
		when[i] = INT64_MAX;
	for (i = 0; i < s->ndump; i++) {
		int64_t ts = d->ev->recs[s->dumps[i].rec].ts;
		if (ts != HX_NONE && ts < when[s->dumps[i].rank])
			when[s->dumps[i].rank] = ts;
	}
	*out = when;
	return HANGDX_OK;
}

void hx_snap_kcond(const struct hangdx_diagnosis *d, uint32_t rank,
		   bool unknown_retry, struct hx_kcond *c)
{
	const struct hx_rankinfo *ri = &d->ranks[rank];
	enum hx_mode m = HX_MODE_AI_CPU;

	memset(c, 0, sizeof *c);
	c->retry = ri->retry_env ? hx_retry_env_on(ri->retry_env) : unknown_retry;
	if (ri->mode && hx_mode_parse(ri->mode, &m) != HANGDX_OK)
		m = HX_MODE_HOST;       /* a mode the model does not know */
	c->mode = (uint8_t)m;
}

bool hx_snap_kernels_stay(const struct hangdx_diagnosis *d, uint32_t rank)
{
	struct hx_kcond c;

	hx_snap_kcond(d, rank, false, &c);
	c.expanded = true;
	return hx_kernel_resident(&c, NULL);
}

/*
 * Why a kernel the logs show holding its core at the dump keeps it, by
 * the rule: with retry active (or not echoed: its lines are the evidence)
 * its op is taken as expanded and waiting for M_c to drain; otherwise it
 * cannot have expanded yet (it would have returned), and waits for SQ
 * room when the rank logged a full SQ, else is still expanding.
 */
static enum hx_kres observed_why(const struct hangdx_diagnosis *d,
				 const struct kern *k)
{
	struct hx_kcond c;
	enum hx_kres why;

	hx_snap_kcond(d, (uint32_t)k->rank, true, &c);
	c.expanded = true;
	if (hx_kernel_resident(&c, &why))
		return why;
	c.expanded = false;
	c.sq_full = d->ranks[k->rank].sq_full_rec != HX_NOREC;
	hx_kernel_resident(&c, &why);
	return why;
}

/* Held a core at the dump: some line shows the kernel running and it did
 * not end before the dump after the last such line (an end after the
 * dump is the error cascade). */
static bool resident(const struct kern *k, int64_t when)
{
	int64_t last = k->start_ts > k->status_ts ? k->start_ts : k->status_ts;
	bool seen = k->start_rec != HX_NOREC || k->status_rec != HX_NOREC ||
		    k->inexec || k->timeout_rec != HX_NOREC;
	bool ended = !k->open && k->end_ts != HX_NONE && k->end_ts < when &&
		     (last == HX_NONE || k->end_ts >= last);

	return seen && !ended;
}

/* The line that shows a kernel holding its core, best first. */
static uint32_t kern_rec(const struct kern *k)
{
	return k->status_rec != HX_NOREC ? k->status_rec
	       : k->comm_rec != HX_NOREC ? k->comm_rec
	       : k->start_rec != HX_NOREC ? k->start_rec : k->timeout_rec;
}

static int snap_scenario(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	struct hangdx_scenario *sc = &d->snap_sc;
	uint32_t maxk = 1, i;
	uint32_t *per = hx_calloc(d->ctx, d->nranks + 1, sizeof *per);
	int err;

	if (!per)
		return HANGDX_ENOMEM;
	for (i = 0; i < s->nkern; i++)
		if (s->kerns[i].placed && ++per[s->kerns[i].rank] > maxk)
			maxk = per[s->kerns[i].rank];
	hx_free(d->ctx, per);
	for (i = 0; i < d->nranks; i++)
		if (hx_snap_kernels_stay(d, i) && maxk < hx_rank_cores(d, i))
			maxk = hx_rank_cores(d, i);  /* room for inferred kernels */
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
	err = hx_state_init(&d->st, d->ctx, sc);
	for (i = 0; !err && i < d->nranks && i < d->st.nranks; i++)
		d->st.dev[i].pool.cap = hx_rank_cores(d, i);  /* <= sc->cores */
	return err;
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
	if ((t.kind == HX_T_NOTIFY_RECORD || t.kind == HX_T_NOTIFY_WAIT) &&
	    hx_dnum(d, rec, HX_F_NOTIFY_RT, -1) >= 0)   /* else: id not dumped */
		t.notify = notify_for(s, rank, hx_dnum(d, rec, HX_F_NOTIFY_RT, 0));
	ev = hx_dnum(d, rec, HX_F_EVENT, -1);
	if (ev >= 0)
		t.event = (int32_t)event_index(s, ev);
	if (s->err)
		return s->err;
	t.name = hx_dstr(d, rec, HX_F_SQE_NAME);
	if (!t.name)            /* a dump line without the type's detail */
		t.name = hx_task_kind_name((enum hx_task_kind)t.kind);
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

/*
 * Each rank's streams as the dumps made them, in index order: the
 * searches below go through one rank's streams, not the job's (at 16,384
 * ranks a scan of every stream per rank was a fifth of the run).  Streams
 * placed later for kernels no dump shows are not listed: their role is
 * KERNEL and their head a running kernel, which no search looks for.
 */
static void index_ranks(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	uint32_t n = d->st.nranks, i, r;

	s->rs_off = hx_calloc(d->ctx, (size_t)n + 2, sizeof *s->rs_off);
	s->rs_list = hx_alloc(d->ctx, (d->st.nstreams + 1) * sizeof *s->rs_list);
	if (!s->rs_off || !s->rs_list) {
		s->err = HANGDX_ENOMEM;
		return;
	}
	s->rs_nranks = n;
	for (i = 0; i < d->st.nstreams; i++)
		if (d->st.streams[i].rank < n)
			s->rs_off[d->st.streams[i].rank + 2]++;
	for (r = 2; r < n + 2; r++)
		s->rs_off[r] += s->rs_off[r - 1];
	for (i = 0; i < d->st.nstreams; i++)
		if (d->st.streams[i].rank < n)
			s->rs_list[s->rs_off[d->st.streams[i].rank + 1]++] = i;
}

/* The rank's dumped streams: *n of them. */
static const uint32_t *rank_streams(const struct snap *s, uint32_t rank,
				    uint32_t *n)
{
	if (rank >= s->rs_nranks) {
		*n = 0;
		return s->rs_list;
	}
	*n = s->rs_off[rank + 1] - s->rs_off[rank];
	return s->rs_list + s->rs_off[rank];
}

/* A kernel whose stream no dump shows: a stream of its own holding one
 * running kernel task, its evidence the line that shows it. */
static long kernel_stream(struct snap *s, const struct kern *k, uint32_t ci)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_task t;
	uint32_t sid, idx;
	void *v;
	int err;

	memset(&t, 0, sizeof t);
	t.kind = HX_T_AICPU;
	t.comm = t.peer = t.dep = t.event = t.notify = -1;
	err = hx_state_add_stream(&d->st, (uint32_t)k->rank, HX_SR_KERNEL,
				  (int32_t)ci, &sid);
	if (!err)
		err = hx_state_append(&d->st, sid, &t, &idx);
	v = d->task_rec;
	if (!err)
		err = hx_vec_reserve(d->ctx, &v, &d->captask_rec, d->st.ntasks,
				     sizeof *d->task_rec, 1u << 28);
	if (err) {
		s->err = err;
		return -1;
	}
	d->task_rec = v;
	d->task_rec[idx] = kern_rec(k);
	d->st.streams[sid].id = k->kstream >= 0 ? (uint32_t)k->kstream : UINT32_MAX;
	return (long)sid;
}

static int32_t free_core(const struct hx_pool *p, int64_t want)
{
	uint32_t c;

	if (want >= 0 && (uint64_t)want < p->cap && p->holder[want] < 0)
		return (int32_t)want;
	for (c = 0; c < p->cap; c++)
		if (p->holder[c] < 0)
			return (int32_t)c;
	return -1;
}

/* A running HCCL kernel holds a core and, when the rule says it stays
 * for op retry, waits for its main stream to drain (E1).  Its task is the
 * AICPU task at the head of its kernel stream when a dump shows that
 * stream, else a task of its own. */
static void place_kernel(struct snap *s, const struct kern *k, uint32_t ci)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_device *dev = &d->st.dev[k->rank];
	long ks = k->kstream >= 0 ? find_stream(s, k->rank, k->kstream, false) : -1;
	long ms = k->msq >= 0 ? find_stream(s, k->rank, k->msq, true) : -1;
	long h = ks >= 0 ? hx_state_head(&d->st, (uint32_t)ks) : -1;
	int32_t core;
	struct hx_task *t;

	if (h < 0 || d->st.tasks[h].kind != HX_T_AICPU) {
		if (!k->group && k->status_rec == HX_NOREC && !k->config)
			return;         /* an older start line whose stream no dump shows */
		ks = kernel_stream(s, k, ci);
		if (ks < 0)
			return;
		h = hx_state_head(&d->st, (uint32_t)ks);
	}
	t = &d->st.tasks[h];
	t->kind = HX_T_KERNEL;
	t->state = HX_TS_RUNNING;
	t->comm = (int32_t)ci;
	t->op = k->index > 0 ? (uint32_t)k->index : 0;
	dev->comm[ci].me = 0;
	dev->comm[ci].kstream = (uint32_t)ks;
	d->st.streams[ks].role = HX_SR_KERNEL;
	d->st.streams[ks].comm = (int32_t)ci;
	if (ms >= 0) {
		dev->comm[ci].mstream = (uint32_t)ms;
		d->st.streams[ms].role = HX_SR_MAIN;
		d->st.streams[ms].comm = (int32_t)ci;
		if (observed_why(d, k) == HX_KRES_RETRY)
			t->end_pos = (uint32_t)d->st.streams[ms].n;
	}
	core = free_core(&dev->pool, k->core);
	if (core >= 0) {
		dev->pool.holder[core] = (int32_t)h;
		dev->pool.busy++;
		t->core = core;
	}
	d->ranks[k->rank].kernels++;
}

/* The snapshot is the state at each rank's first TS dump: a kernel that
 * ended only after it (the error cascade) was still holding its core. */
static void mark_resident(struct snap *s, const int64_t *when)
{
	size_t i;

	for (i = 0; i < s->nkern; i++) {
		struct kern *k = &s->kerns[i];
		k->placed = (uint32_t)k->rank < s->d->nranks &&
			    when[k->rank] != INT64_MAX && resident(k, when[k->rank]);
	}
}

static void infer_kernels(struct snap *s, uint32_t *next);
static void link_h0(struct snap *s);

static void place_kernels(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	uint32_t *next = hx_calloc(d->ctx, d->nranks + 1, sizeof *next);
	size_t i;

	if (!next) {
		s->err = HANGDX_ENOMEM;
		return;
	}
	for (i = 0; i < s->nkern && !s->err; i++)
		if (s->kerns[i].placed)
			place_kernel(s, &s->kerns[i], next[s->kerns[i].rank]++);
	link_h0(s);
	infer_kernels(s, next);
	hx_free(d->ctx, next);
	for (i = 0; i < d->nranks; i++)
		d->pool_rec[i] = s->pool_rec[i] != HX_NOREC ? s->pool_rec[i]
				 : s->cores_rec[i];
}

/*
 * Real TS dumps print no notify id for notify SQEs in any shape known from
 * real logs.  An HCCL op's first task on its main stream waits for the
 * notify its launching stream records when it reaches the op (H0); a main
 * stream stuck at its head on a notify wait without an id is linked to
 * the next notify record queued on the launching stream: the host launch
 * line's mainStreamId, else the one stream of the rank, not itself stuck
 * on a notify wait, with notify records of unknown id queued (of several,
 * the one held at its head by an event wait, if one alone is).  How it
 * was found is kept on the notify: named by the launch line; alone, where
 * HCCL's failed-task block says that wait's notify is local and one
 * stream alone can hold its record (every other dumped stream of the rank
 * that holds records is itself stuck at its head on a notify wait); else
 * inferred, which the proof then says.
 */
static bool unknown_wait(const struct hangdx_diagnosis *d, uint32_t sid)
{
	long h = hx_state_head(&d->st, sid);

	return h >= 0 && d->st.tasks[h].kind == HX_T_NOTIFY_WAIT &&
	       d->st.tasks[h].notify < 0;
}

/* The first notify record of unknown id queued on stream u, or -1 (a
 * stream's tasks are appended in position order). */
static long unlinked_record(const struct hangdx_diagnosis *d, uint32_t u)
{
	const struct hx_stream *st = &d->st.streams[u];
	size_t p;

	for (p = 0; p < st->n; p++) {
		const struct hx_task *t = &d->st.tasks[st->q[p]];
		if (t->kind == HX_T_NOTIFY_RECORD && t->notify < 0)
			return (long)st->q[p];
	}
	return -1;
}

static long launch_stream(struct snap *s, uint32_t rank,
			  enum hx_notify_link *how)
{
	struct hangdx_diagnosis *d = s->d;
	long u = -1, found = -1, behind = -1;
	size_t j, nfound = 0, nbehind = 0;
	uint32_t k, nrs;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	*how = HX_NL_NAMED;
	for (j = 0; j < s->nkern; j++)
		if (s->kerns[j].rank == (int32_t)rank && s->kerns[j].ustream >= 0 &&
		    (u = find_stream(s, (int32_t)rank, s->kerns[j].ustream, false)) >= 0)
			return u;
	for (k = 0; k < nrs; k++) {
		uint32_t i = rs[k];
		const struct hx_stream *st = &d->st.streams[i];
		long h = hx_state_head(&d->st, i);
		if (st->role != HX_SR_USER || h < 0 ||
		    d->st.tasks[h].kind == HX_T_NOTIFY_WAIT)
			continue;       /* a stream itself waiting on a notify */
		if (unlinked_record(d, i) < 0)
			continue;
		found = (long)i;
		nfound++;
		if (d->st.tasks[h].kind == HX_T_EVENT_WAIT) {
			behind = (long)i;       /* held back by an event wait */
			nbehind++;
		}
	}
	/* two candidates: the one stuck behind an event wait, if one alone is
	 * (the launching stream of the incident); else none */
	*how = nfound == 1 ? HX_NL_ALONE : HX_NL_INFERRED;
	return nfound == 1 ? found : nbehind == 1 ? behind : -1;
}

/* Link main stream m's head to the next unlinked record on stream u;
 * found alone only for a wait HCCL says is local. */
static bool link_one(struct snap *s, uint32_t m, uint32_t u,
		     enum hx_notify_link how)
{
	struct hangdx_diagnosis *d = s->d;
	long h = hx_state_head(&d->st, m), j;
	int32_t n;

	if (h < 0 || !unknown_wait(d, m) || (j = unlinked_record(d, u)) < 0)
		return false;
	if (hx_state_add_notify(&d->st, d->st.streams[m].rank, HX_NR_H0, -1,
				-1, &n)) {
		s->err = HANGDX_ENOMEM;
		return false;
	}
	if (how == HX_NL_ALONE &&
	    !waits_local(s, d->st.streams[m].rank, d->st.streams[m].id))
		how = HX_NL_INFERRED;
	d->st.notifies[n].rt_id = UINT32_MAX;
	d->st.notifies[n].link = (uint8_t)how;
	d->st.tasks[j].notify = n;
	d->st.tasks[h].notify = n;
	return true;
}

static void link_rank(struct snap *s, uint32_t rank)
{
	struct hangdx_diagnosis *d = s->d;
	const struct hx_rankinfo *ri = &d->ranks[rank];
	long u = -1;
	enum hx_notify_link how = HX_NL_INFERRED;
	uint32_t k, nrs;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	for (k = 0; k < nrs && !s->err; k++) {
		uint32_t i = rs[k];
		const struct hx_stream *st = &d->st.streams[i];
		bool first = ri->stream >= 0 && st->id == ri->stream && ri->wait_peer < 0;
		if ((st->role != HX_SR_MAIN && !first) || !unknown_wait(d, i))
			continue;
		if (u < 0 && (u = launch_stream(s, rank, &how)) < 0)
			return;
		link_one(s, i, (uint32_t)u, how);
	}
}

/* The first error's stream first: its record is the chain's first hop. */
static void link_h0(struct snap *s)
{
	struct hangdx_diagnosis *d = s->d;
	enum hx_notify_link how;
	uint32_t r, k, nrs;

	for (r = 0; r < d->nranks && r < d->st.nranks && !s->err; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		const uint32_t *rs = rank_streams(s, r, &nrs);
		long u;
		for (k = 0; ri->stream >= 0 && ri->wait_peer < 0 && k < nrs; k++)
			if (d->st.streams[rs[k]].id == ri->stream &&
			    unknown_wait(d, rs[k]) &&
			    (u = launch_stream(s, r, &how)) >= 0)
				link_one(s, rs[k], (uint32_t)u, how);
		link_rank(s, r);
	}
}

/*
 * Without a line that shows the kernels, holders are inferred from the TS
 * dumps when op retry is on (each HCCL kernel then stays on its core until
 * its main stream drains): a stream whose only queued task is an AICPU
 * task at its head is taken for a kernel stream whose kernel holds a core,
 * and a stream stuck at its head on a notify wait for a main stream it
 * waits to drain (the first error's stream first).  Only when such kernels
 * fill the cores; the assumption is stated with the verdict.
 */
static bool kernel_like(const struct hangdx_diagnosis *d, uint32_t sid)
{
	long h = hx_state_head(&d->st, sid);

	return h >= 0 && d->st.tasks[h].kind == HX_T_AICPU &&
	       d->st.streams[sid].role == HX_SR_USER && d->st.streams[sid].n == 1;
}

/* A stream stuck at its head on a notify wait whose record is queued on
 * stream u (the stream the first error's record is queued on). */
static bool main_like(const struct hangdx_diagnosis *d, const int32_t *rstream,
		      uint32_t sid, int32_t u)
{
	long h = hx_state_head(&d->st, sid);
	int32_t n;

	if (h < 0 || d->st.tasks[h].kind != HX_T_NOTIFY_WAIT ||
	    d->st.streams[sid].role != HX_SR_USER)
		return false;
	n = d->st.tasks[h].notify;
	return n >= 0 && rstream[n] == u;
}

/* The stream that records the notify the head of stream sid waits on. */
static int32_t recorder(const struct hangdx_diagnosis *d, const int32_t *rstream,
			uint32_t sid)
{
	long h = hx_state_head(&d->st, sid);

	if (h < 0 || d->st.tasks[h].kind != HX_T_NOTIFY_WAIT ||
	    d->st.tasks[h].notify < 0)
		return -1;
	return rstream[d->st.tasks[h].notify];
}

/* Main streams for inferred kernels: the rank's first failing stream,
 * then every other stream waiting behind the same recording stream. */
static long next_main(struct snap *s, const int32_t *rstream, uint32_t rank,
		      uint32_t *from, int32_t *u)
{
	struct hangdx_diagnosis *d = s->d;
	const struct hx_rankinfo *ri = &d->ranks[rank];
	uint32_t k, nrs;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	if (*u < 0 && ri->stream >= 0)
		for (k = 0; k < nrs && *u < 0; k++)
			if (d->st.streams[rs[k]].id == ri->stream &&
			    (*u = recorder(d, rstream, rs[k])) >= 0) {
				d->st.streams[rs[k]].role = HX_SR_MAIN;
				return (long)rs[k];
			}
	for (; *u >= 0 && *from < nrs; (*from)++)
		if (main_like(d, rstream, rs[*from], *u)) {
			d->st.streams[rs[*from]].role = HX_SR_MAIN;
			return (long)rs[(*from)++];
		}
	return -1;
}

/* Without notify ids: the rank's other streams stuck on a notify wait
 * without an id are taken for main streams waiting on u (linked). */
static long next_main_unknown(struct snap *s, uint32_t rank, uint32_t *from,
			      int32_t u)
{
	struct hangdx_diagnosis *d = s->d;
	uint32_t nrs;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	for (; u >= 0 && *from < nrs; (*from)++)
		if (d->st.streams[rs[*from]].role == HX_SR_USER &&
		    link_one(s, rs[*from], (uint32_t)u, HX_NL_INFERRED)) {
			d->st.streams[rs[*from]].role = HX_SR_MAIN;
			return (long)rs[(*from)++];
		}
	return -1;
}

static void infer_rank(struct snap *s, const int32_t *rstream, uint32_t rank,
		       uint32_t *next)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_device *dev = &d->st.dev[rank];
	uint32_t k, nrs, cand = 0, from = 0, from2 = 0,
		 need = dev->pool.cap - dev->pool.busy;
	const uint32_t *rs = rank_streams(s, rank, &nrs);
	int32_t u = -1;

	for (k = 0; k < nrs; k++)
		cand += kernel_like(d, rs[k]);
	if (need == 0 || cand < need)
		return;
	for (k = 0; k < nrs && dev->pool.busy < dev->pool.cap; k++) {
		uint32_t i = rs[k];
		struct kern kn = { (int32_t)rank, NULL, -1, -1, -1, -1, -1, HX_NONE,
				  HX_NONE, HX_NONE, HX_NOREC, HX_NOREC, HX_NOREC,
				  HX_NOREC, false, false, true, false };
		long ms;
		if (!kernel_like(d, i))
			continue;
		if (next[rank] >= d->snap_sc.groups[0].count)
			break;
		kn.kstream = d->st.streams[i].id;
		ms = next_main(s, rstream, rank, &from, &u);
		if (ms < 0 && u >= 0)
			ms = next_main_unknown(s, rank, &from2, u);
		if (ms >= 0)
			kn.msq = d->st.streams[ms].sq_id;
		d->st.streams[i].role = HX_SR_KERNEL;
		place_kernel(s, &kn, next[rank]++);
		d->ranks[rank].kernels_inferred++;
	}
}

/* An ordinary AICPU task at the head of one of the rank's streams: it
 * waits for a core (one that had a core would have run and left). */
static bool aicpu_at_head(const struct snap *s, uint32_t rank)
{
	const struct hangdx_diagnosis *d = s->d;
	uint32_t k, nrs;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	for (k = 0; k < nrs; k++) {
		long h = hx_state_head(&d->st, rs[k]);
		if (d->st.streams[rs[k]].role == HX_SR_USER && h >= 0 &&
		    d->st.tasks[h].kind == HX_T_AICPU && !kernel_like(d, rs[k]))
			return true;
	}
	return false;
}

/* Streams of the rank stuck at their head on a notify wait that is, or
 * can be, the wait for its op's launch record on stream u: the main
 * streams of communicators with ops in flight. */
static uint32_t count_mains(const struct snap *s, const int32_t *rstream,
			    uint32_t rank, int32_t u)
{
	const struct hangdx_diagnosis *d = s->d;
	uint32_t k, nrs, n = 0;
	const uint32_t *rs = rank_streams(s, rank, &nrs);

	for (k = 0; k < nrs; k++) {
		uint32_t i = rs[k];
		if ((int32_t)i != u &&
		    (d->st.streams[i].role == HX_SR_MAIN || main_like(d, rstream, i, u) ||
		     (d->st.streams[i].role == HX_SR_USER && unknown_wait(d, i))))
			n++;
	}
	return n;
}

/*
 * No line and no dumped stream shows the kernels, but the configuration
 * does: an ordinary AICPU task waits at the head of a stream, the rank
 * echoes op retry in AI_CPU mode (the residency rule keeps each kernel
 * until its main stream drains), and at least as many main streams as
 * free cores wait at their heads for their ops' launch records on one
 * stream (communicators with ops in flight).  Each of those
 * communicators' kernels is taken to hold a core, on a stream of its own
 * (no line names it); the proof says so (verdict.c).
 */
static void infer_config(struct snap *s, const int32_t *rstream, uint32_t rank,
			 uint32_t *next)
{
	struct hangdx_diagnosis *d = s->d;
	struct hx_device *dev = &d->st.dev[rank];
	uint32_t need = dev->pool.cap - dev->pool.busy, from = 0, from2 = 0, j, nrs;
	enum hx_notify_link how;
	const uint32_t *rs = rank_streams(s, rank, &nrs);
	int32_t u = -1;
	long ms;

	/* an AICPU operator that timed out had a core: it ran */
	if (need == 0 || !aicpu_at_head(s, rank) ||
	    d->ranks[rank].aicpu_timeout_rec != HX_NOREC)
		return;
	for (j = 0; j < nrs && u < 0; j++)
		if (d->st.streams[rs[j]].id == (uint32_t)d->ranks[rank].stream)
			u = recorder(d, rstream, rs[j]);
	if (u < 0)
		u = (int32_t)launch_stream(s, rank, &how);
	if (u < 0 || count_mains(s, rstream, rank, u) < need)
		return;
	while (dev->pool.busy < dev->pool.cap && !s->err &&
	       next[rank] < d->snap_sc.groups[0].count) {
		struct kern k = { (int32_t)rank, NULL, -1, -1, -1, -1, -1, HX_NONE,
				  HX_NONE, HX_NONE, HX_NOREC, HX_NOREC, HX_NOREC,
				  HX_NOREC, false, false, true, true };
		ms = next_main(s, rstream, rank, &from, &u);
		if (ms < 0)
			ms = next_main_unknown(s, rank, &from2, u);
		if (ms < 0)
			break;
		k.msq = d->st.streams[ms].sq_id;
		place_kernel(s, &k, next[rank]++);
		d->ranks[rank].kernels_inferred++;
		d->ranks[rank].kernels_config++;
	}
}

static void infer_kernels(struct snap *s, uint32_t *next)
{
	struct hangdx_diagnosis *d = s->d;
	int32_t *rstream = hx_alloc(d->ctx, (d->st.nnotifies + 1) * sizeof *rstream);
	uint32_t r;
	size_t i;

	if (!rstream) {
		s->err = HANGDX_ENOMEM;
		return;
	}
	for (i = 0; i < d->st.nnotifies; i++)
		rstream[i] = -1;
	for (i = 0; i < d->st.ntasks; i++) {
		const struct hx_task *t = &d->st.tasks[i];
		if (t->kind == HX_T_NOTIFY_RECORD && t->notify >= 0 &&
		    rstream[t->notify] < 0)
			rstream[t->notify] = (int32_t)t->stream;
	}
	for (r = 0; r < d->nranks && r < d->st.nranks && !s->err; r++)
		if (d->ranks[r].kernels == 0 && hx_snap_kernels_stay(d, r)) {
			infer_rank(s, rstream, r, next);
			if (d->ranks[r].kernels == 0)
				infer_config(s, rstream, r, next);
		}
	hx_free(d->ctx, rstream);
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

	int64_t *when = NULL;
	size_t i;

	memset(&s, 0, sizeof s);
	s.d = d;
	collect(&s);
	err = s.err;
	if (!err) {
		rank_logged(&s);
		size_pool(&s);
	}
	if (err || s.ndump == 0)
		goto out_free;
	err = dump_times(&s, &when);
	if (err)
		goto out_free;
	mark_resident(&s, when);
	d->pool_rec = hx_alloc(d->ctx, (d->nranks + 1) * sizeof *d->pool_rec);
	if (!d->pool_rec) {
		err = HANGDX_ENOMEM;
		goto out_free;
	}
	for (i = 0; i <= d->nranks; i++)
		d->pool_rec[i] = HX_NOREC;
	err = snap_scenario(&s);
	if (err)
		goto out_free;
	d->have_snapshot = true;
	err = add_streams(&s);
	if (err)
		goto out_free;
	index_streams(&s);
	if (!s.err)
		index_ranks(&s);
	if (!s.err)
		place_kernels(&s);
	hx_rf_after_kernels(d);
	link_events(&s);
	err = s.err;
	if (!err)
		err = hx_wgraph_build(&d->wg, &d->st);
	if (!err)
		err = hx_wgraph_detect(&d->wg, &d->st);
	if (!err)
		hx_rf_after_detect(d);
out_free:
	hx_free(d->ctx, when);
	hx_free(d->ctx, s.dumps);
	hx_free(d->ctx, s.kerns);
	hx_free(d->ctx, s.runs);
	hx_free(d->ctx, s.pool_rec);
	hx_free(d->ctx, s.cores_rec);
	hx_map_free(d->ctx, &s.tmap);
	hx_free(d->ctx, s.events);
	hx_free(d->ctx, s.sqes);
	hx_free(d->ctx, s.rs_off);
	hx_free(d->ctx, s.rs_list);
	hx_map_free(d->ctx, &s.notifies);
	hx_map_free(d->ctx, &s.records);
	hx_map_free(d->ctx, &s.kmap);
	hx_map_free(d->ctx, &s.local);
	hx_map_free(d->ctx, &s.byid);
	hx_map_free(d->ctx, &s.bysq);
	return err;
}
