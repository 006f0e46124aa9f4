/*
 * verdict.c - last step of the analysis: from the facts and the snapshot
 * to a verdict.  A circular wait proven on the rebuilt state comes first
 * (counted AICPU cores included); then a lost rank, a link error, a
 * mismatched collective, an AICPU timeout, an event-wait chain, a wait
 * chain across ranks followed to its end; then silent hangs and start-up
 * risks; last the job-wide signals of console text refine or decide it
 * (never "no hang" on a timeout; a failure that is not a hang is named).
 * It also picks the first failing rank, groups alike ranks, and
 * writes the fixes and what evidence is missing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "../core/thresholds.h"

static const char *const cat_ids[] = {
#define HX_CAT_ID(name, id, text) id,
	HX_CAT_MAP(HX_CAT_ID)
#undef HX_CAT_ID
};
static const char *const cat_texts[] = {
#define HX_CAT_TEXT(name, id, text) text,
	HX_CAT_MAP(HX_CAT_TEXT)
#undef HX_CAT_TEXT
};

const char *hx_cat_id(enum hx_cat c)
{
	return (unsigned)c < HX_CAT_COUNT ? cat_ids[c] : "?";
}

const char *hx_cat_text(enum hx_cat c)
{
	return (unsigned)c < HX_CAT_COUNT ? _(cat_texts[c]) : "?";
}

/* Append text to a list of at most max entries; past it the list is cut
 * (HX_THR_LIST_CUT, a note says so), which is not an error.  A failed
 * allocation also marks d->oom: callers may leave the result alone. */
static int list_put(struct hangdx_diagnosis *d, const char ***v, size_t *n,
		    size_t *cap, const char *text, size_t max)
{
	void *p = (void *)*v;
	char *s;
	int err;

	if (*n >= max) {
		d->thr_hits |= HX_THR_LIST_CUT;
		return HANGDX_OK;
	}
	s = hx_arena_strdup(&d->arena, text);
	if (!s)
		return d->oom = HANGDX_ENOMEM;
	err = hx_vec_reserve(d->ctx, &p, cap, *n + 1, sizeof **v, HX_MAX_LIST);
	if (err)
		return d->oom = err;
	*v = p;
	(*v)[(*n)++] = s;
	return HANGDX_OK;
}

/* The last slot of each list is kept for the notes on thresholds. */
int hx_dlist_add(struct hangdx_diagnosis *d, const char ***v, size_t *n,
		 size_t *cap, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, _(fmt), ap);
	va_end(ap);
	return list_put(d, v, n, cap, buf, HX_MAX_LIST - 1);
}

#define FIX(...) hx_dlist_add(d, &d->fixes, &d->nfixes, &d->capfixes, __VA_ARGS__)
#define MISSING(...) hx_dlist_add(d, &d->missing, &d->nmissing, &d->capmissing, __VA_ARGS__)
#define WARN(...) hx_dlist_add(d, &d->warnings, &d->nwarnings, &d->capwarnings, __VA_ARGS__)
#define FACT(...) hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts, __VA_ARGS__)

/* What to collect for a stall no error explains. */
static void stacks_fix(struct hangdx_diagnosis *d)
{
	FIX("Dump the Python stacks of the workers (py-spy dump) while it hangs, "
	    "and collect their plogs.");
}

/* A rank the logs do not give ("rank ?") is never shown as a number:
 * "rank3 stream5 ..." of a hop on it becomes "rank? stream5 ...". */
static void unnumber_pseudo(const struct hangdx_diagnosis *d, int32_t rank,
			    char *s)
{
	char num[16], *p;
	size_t k, n;

	if (rank < 0 || (uint32_t)rank >= d->nranks || !d->ranks ||
	    !d->ranks[rank].pseudo)
		return;
	k = (size_t)snprintf(num, sizeof num, "rank%d", rank);
	for (p = strstr(s, num); p; p = strstr(p + 1, num)) {
		if (p[k] >= '0' && p[k] <= '9')
			continue;
		n = strlen(p + k);
		memmove(p + 5, p + k, n + 1);   /* "rank?" is never longer */
		memcpy(p, "rank?", 5);
		return;
	}
}

int hx_hop_add(struct hangdx_diagnosis *d, int32_t rank, uint32_t rec,
	       const char *why, const char *fmt, ...)
{
	struct hx_hop *h;
	void *v = d->hops;
	va_list ap;
	int err;

	if (d->nhops >= HX_MAX_LIST) {
		d->thr_hits |= HX_THR_LIST_CUT;
		return HANGDX_ELIMIT;   /* not added: callers leave the hop alone */
	}
	err = hx_vec_reserve(d->ctx, &v, &d->caphops, d->nhops + 1,
			     sizeof *d->hops, HX_MAX_LIST);
	if (err)
		return d->oom = err;
	d->hops = v;
	h = &d->hops[d->nhops++];
	h->rank = rank;
	h->rec = rec;
	/* a task's or a pool's hop names its own kind after this; any other
	 * is the kind of its evidence record */
	snprintf(h->kind, sizeof h->kind, "%s",
		 rec == HX_NOREC ? "" : hx_kind_name(d->ev->recs[rec].kind));
	h->stream_id = h->task_id = -1;
	snprintf(h->why, sizeof h->why, "%s", why ? _(why) : "");
	va_start(ap, fmt);
	vsnprintf(h->what, sizeof h->what, _(fmt), ap);
	va_end(ap);
	unnumber_pseudo(d, rank, h->what);
	return HANGDX_OK;
}

static int64_t rec_ts(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return rec == HX_NOREC ? HX_NONE : d->ev->recs[rec].ts;
}

/* ---- the first failing rank: logical progress, then corrected time ---- */

static bool waits_on_lost(const struct hangdx_diagnosis *d,
			  const struct hx_rankinfo *a)
{
	return a->wait_peer >= 0 && (uint64_t)a->wait_peer < d->nranks &&
	       d->ranks[a->wait_peer].lost;
}

/* Two ranks at different op indexes of one communicator: their logical
 * progress orders them, not their clocks. */
static bool progress_orders(const struct hx_rankinfo *a, const struct hx_rankinfo *b)
{
	return a->index >= 0 && b->index >= 0 && a->index != b->index &&
	       a->group && b->group && strcmp(a->group, b->group) == 0;
}

static bool earlier(const struct hangdx_diagnosis *d,
		    const struct hx_rankinfo *a, const struct hx_rankinfo *b)
{
	int64_t dt = a->first_err_ts - b->first_err_ts;

	if (progress_orders(a, b))
		return a->index < b->index;
	if (dt > HX_TIE_US || dt < -HX_TIE_US)
		return dt < 0;
	/* simultaneous: the rank closest to the cause first */
	if (waits_on_lost(d, a) != waits_on_lost(d, b))
		return waits_on_lost(d, a);
	if (dt != 0)
		return dt < 0;
	return a->rank < b->rank;
}

static int64_t abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

/* How close after the first failing rank a failure of rank b is still
 * not ordered by the clocks, and why: no creation exits aligned them;
 * else (on another clock) the spread of one creation's exits on one
 * clock, an offset left under the floor when it is larger, the floor
 * when an offset or the spread was not measured.  0: one clock. */
static int64_t order_within(const struct hangdx_diagnosis *d,
			    const struct hx_rankinfo *a,
			    const struct hx_rankinfo *b, uint8_t *why)
{
	const char *ca = hx_rank_clock(d, a->rank), *cb = hx_rank_clock(d, b->rank);
	int64_t within = d->clock_spread_us, left;

	*why = HX_MARGIN_UNALIGNED;
	if (d->clocks_unaligned)
		return HX_UNALIGNED_MARGIN_US;
	if (ca && cb && strcmp(ca, cb) == 0 && a->skew_us == b->skew_us)
		return 0;       /* one clock, one offset: its own order */
	*why = HX_MARGIN_SPREAD;
	left = abs64(a->skew_left_us - b->skew_left_us);
	if (left > within) {
		within = left;
		*why = HX_MARGIN_LEFT;
	}
	if (!a->skew_known || !b->skew_known || d->clock_spread_us < 0) {
		if (within < HX_SKEW_MIN_US)
			within = HX_SKEW_MIN_US;
		*why = HX_MARGIN_UNMEASURED;
	}
	return within;
}

/* The next rank's failure closer after the first's than the clocks can
 * order (order_within): the order is not the logs' to tell (a note says
 * so, naming the closest). */
static void order_margin(struct hangdx_diagnosis *d,
			 const struct hx_rankinfo *best)
{
	uint32_t r;

	d->margin_rank = -1;
	if (!best)
		return;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		int64_t within, gap;
		uint8_t why;

		if (ri == best || ri->fail_rec == HX_NOREC ||
		    ri->first_err_ts == HX_NONE ||
		    ri->first_err_ts < best->first_err_ts ||
		    ri->first_err_ts - best->first_err_ts >= HX_UNALIGNED_MARGIN_US)
			continue;
		if (progress_orders(ri, best))
			continue;       /* logical progress decides, not time */
		gap = ri->first_err_ts - best->first_err_ts;
		within = order_within(d, best, ri, &why);
		if (gap >= within ||
		    (d->margin_rank >= 0 && gap >= d->margin_us))
			continue;
		d->margin_rank = ri->rank;
		d->margin_us = gap;
		d->margin_within_us = within;
		d->margin_why = why;
	}
	if (d->margin_rank >= 0)
		d->thr_hits |= HX_THR_CLOCK_ORDER;
}

static void first_failing(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *best = NULL;
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->fail_rec == HX_NOREC || ri->first_err_ts == HX_NONE)
			continue;
		if (!best || earlier(d, ri, best))
			best = ri;
	}
	d->first_rank = best ? best->rank : -1;
	d->first_ts = best ? best->first_err_ts : HX_NONE;
	order_margin(d, best);
	/* the tie window decided when a rank that failed earlier, within it,
	 * was passed over for the one waiting on a lost rank */
	d->tie_rank = -1;
	for (r = 0; best && r < d->nranks && d->tie_rank < 0; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		int64_t dt;

		if (ri == best || ri->fail_rec == HX_NOREC ||
		    ri->first_err_ts == HX_NONE || best->first_err_ts == HX_NONE ||
		    ri->first_err_ts >= best->first_err_ts)
			continue;
		if (ri->first_err_ts < best->first_err_ts - HX_TIE_US)
			continue;       /* (no subtraction of two far-apart times) */
		dt = ri->first_err_ts - best->first_err_ts;
		if (progress_orders(ri, best))
			continue;       /* logical progress decided, not time */
		d->tie_rank = ri->rank;
		d->tie_us = -dt;
		d->thr_hits |= HX_THR_TIE;
	}
}


static uint32_t count_lost(const struct hangdx_diagnosis *d, int32_t *first);

/* A rank that died failed first: its peers only timed out waiting for it
 * (their first error line stays the first failure shown).  Its time is
 * its last log line, else the first report of its loss. */
static void lost_first(struct hangdx_diagnosis *d)
{
	int32_t lost;

	if (d->cat != HX_CAT_RANK_LOST || !count_lost(d, &lost) || lost < 0)
		return;
	d->first_rank = lost;
	d->first_ts = d->ranks[lost].last_ts != HX_NONE ? d->ranks[lost].last_ts
		      : rec_ts(d, d->ranks[lost].lost_rec);
	d->tie_rank = -1;
	d->margin_rank = -1;
	d->thr_hits &= ~(unsigned)(HX_THR_TIE | HX_THR_CLOCK_ORDER);
}

/* ---- categories ---- */

static const char *edge_why(const struct hx_wgraph *g, uint32_t from,
			    uint32_t to)
{
	size_t j;

	for (j = 0; j < g->nedges; j++)
		if (g->edges[j].from == from && g->edges[j].to == to)
			return hx_wedge_why_name((enum hx_wedge_why)g->edges[j].why);
	return "";
}

/* The hop of snapshot task x: its label, kind, stream and task ids. */
static int task_hop(struct hangdx_diagnosis *d, uint32_t x, const char *why)
{
	const struct hx_task *t = &d->st.tasks[x];
	struct hx_hop *h;
	char lab[256];

	hx_task_label(&d->st, x, lab, sizeof lab);
	if (hx_hop_add(d, (int32_t)d->st.streams[t->stream].rank, d->task_rec[x],
		       why, "%s", lab))
		return -1;
	h = &d->hops[d->nhops - 1];
	snprintf(h->kind, sizeof h->kind, "%s", hx_task_kind_name((enum hx_task_kind)t->kind));
	h->stream_id = d->st.streams[t->stream].id == UINT32_MAX
		? -1 : (int64_t)d->st.streams[t->stream].id;
	h->task_id = t->task_id;
	return 0;
}

static int node_hop(struct hangdx_diagnosis *d, uint32_t from, uint32_t to)
{
	const struct hx_wnode *n = &d->wg.nodes[from];
	const char *why = edge_why(&d->wg, from, to);
	const struct hx_pool *p;
	uint32_t prec;
	int err;

	if (n->kind == HX_WN_TASK)
		return task_hop(d, n->id, why);
	prec = d->pool_rec ? d->pool_rec[n->id] : HX_NOREC;
	p = &d->st.dev[n->id].pool;
	err = n->id < d->nranks && d->ranks[n->id].kernels_config
		? hx_hop_add(d, (int32_t)n->id, prec, why, "rank%d AICPU pool: all %u cores "
			     "held by HCCL kernels (inferred from the configuration)",
			     (int32_t)n->id, p->cap)
		: n->id < d->nranks && d->ranks[n->id].kernels_inferred
		? hx_hop_add(d, (int32_t)n->id, prec, why, "rank%u AICPU pool: %u of %u "
			     "cores held by HCCL kernels (inferred)", n->id, p->busy, p->cap)
		: hx_hop_add(d, (int32_t)n->id, prec, why, "rank%u AICPU pool: %u of %u "
			     "cores held by HCCL kernels", n->id, p->busy, p->cap);

	if (err)
		return -1;
	snprintf(d->hops[d->nhops - 1].kind, sizeof d->hops->kind,
		 n->kind == HX_WN_POOL ? "AICPU_POOL" : "LOST_RANK");
	return 0;
}

/* The chain: the path from the first error to the cycle, then the cycle
 * from where the path enters it; d->cycle_at is that hop. */
static void cycle_hops(struct hangdx_diagnosis *d)
{
	const struct hx_wgraph *g = &d->wg;
	size_t i;

	for (i = 0; i < g->nlead; i++)
		if (node_hop(d, g->lead[i], i + 1 < g->nlead ? g->lead[i + 1]
							  : g->cycle[0]))
			return;
	d->cycle_at = d->nhops;
	for (i = 0; i < g->ncycle; i++)
		if (node_hop(d, g->cycle[i], g->cycle[(i + 1) % g->ncycle]))
			return;
}

/* The snapshot task of the first failing rank's first failing task. */
static int32_t first_error_node(const struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *ri;
	size_t i;

	if (d->first_rank < 0 || (uint32_t)d->first_rank >= d->nranks ||
	    (uint32_t)d->first_rank >= d->st.nranks)
		return -1;
	ri = &d->ranks[d->first_rank];
	if (ri->stream < 0)
		return -1;
	for (i = 0; i < d->st.ntasks; i++) {
		const struct hx_task *t = &d->st.tasks[i];
		const struct hx_stream *st = &d->st.streams[t->stream];
		if (st->rank != (uint32_t)d->first_rank || st->id != ri->stream)
			continue;
		if (ri->task >= 0 ? t->task_id == ri->task
				  : hx_state_head(&d->st, t->stream) == (long)i)
			return hx_wgraph_task_node(&d->wg, (uint32_t)i);
	}
	return -1;
}

static bool cycle_has_pool(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->wg.ncycle; i++)
		if (d->wg.nodes[d->wg.cycle[i]].kind == HX_WN_POOL)
			return true;
	return false;
}

/* The task of the cycle's i-th node, or NULL for a pool. */
static const struct hx_task *cycle_task(const struct hangdx_diagnosis *d,
					size_t i)
{
	const struct hx_wnode *n = &d->wg.nodes[d->wg.cycle[i]];

	return n->kind == HX_WN_TASK ? &d->st.tasks[n->id] : NULL;
}

/* The first notify wait of the cycle linked to its record by inference
 * (snapshot.c link_h0: the notify has no id), or ncycle. */
static size_t h0_inferred(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->wg.ncycle; i++) {
		const struct hx_task *t = cycle_task(d, i);
		if (t && t->kind == HX_T_NOTIFY_WAIT && t->notify >= 0 &&
		    d->st.notifies[t->notify].role == HX_NR_H0 &&
		    d->st.notifies[t->notify].link == HX_NL_INFERRED)
			return i;
	}
	return d->wg.ncycle;
}

static uint32_t h0_recorder(const struct hangdx_diagnosis *d, int32_t notify)
{
	size_t i;

	for (i = 0; i < d->st.ntasks; i++)
		if (d->st.tasks[i].kind == HX_T_NOTIFY_RECORD &&
		    d->st.tasks[i].notify == notify)
			return d->st.streams[d->st.tasks[i].stream].id;
	return UINT32_MAX;
}

/* The rank of a pool in the cycle whose holders were inferred, or -1. */
static int32_t pool_inferred(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->wg.ncycle; i++) {
		const struct hx_wnode *n = &d->wg.nodes[d->wg.cycle[i]];
		if (n->kind == HX_WN_POOL && n->id < d->nranks &&
		    d->ranks[n->id].kernels_inferred)
			return (int32_t)n->id;
	}
	return -1;
}

/* The rank of a pool in the cycle widened past its count by a core id
 * its lines name (its capacity is then inferred), or -1. */
static int32_t pool_widened(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->wg.ncycle; i++) {
		const struct hx_wnode *n = &d->wg.nodes[d->wg.cycle[i]];
		if (n->kind == HX_WN_POOL && n->id < d->nranks &&
		    d->ranks[n->id].cores_wide)
			return (int32_t)n->id;
	}
	return -1;
}

static int32_t cycle_rank(const struct hangdx_diagnosis *d)
{
	const struct hx_wnode *n = &d->wg.nodes[d->wg.cycle[0]];

	if (n->kind == HX_WN_TASK)
		return (int32_t)d->st.streams[d->st.tasks[n->id].stream].rank;
	return (int32_t)n->id;
}

static uint32_t cycle_ranks(const struct hangdx_diagnosis *d)
{
	/* ranks whose own snapshot state holds a cycle (roots.c): a full
	 * pool alone is no cycle, the victims' pools are full too */
	uint32_t n = hx_roots_nlocal(d);

	return n ? n : 1;
}

/* The launching stream whose records the main streams of rank r's cycle
 * wait for (the first notify wait of the cycle on that rank). */
static uint32_t launch_of(const struct hangdx_diagnosis *d, int32_t r)
{
	size_t i;

	for (i = 0; i < d->wg.ncycle; i++) {
		const struct hx_task *t = cycle_task(d, i);
		if (t && t->kind == HX_T_NOTIFY_WAIT && t->notify >= 0 &&
		    d->st.streams[t->stream].rank == (uint32_t)r)
			return h0_recorder(d, t->notify);
	}
	return UINT32_MAX;
}

/* The pool's holders inferred from the configuration (snapshot.c
 * infer_config): the assumption, what would prove it and where it is. */
static void config_assumes(const struct hangdx_diagnosis *d, int32_t r,
			   char *buf, size_t n)
{
	snprintf(buf, n, _("It assumes that the HCCL kernels of the %u communicators "
		 "whose main streams wait at their heads for their ops' launch on stream "
		 "%d held the %u AICPU cores of rank %d, each kept until its main stream "
		 "drains as op retry in AI_CPU mode keeps it (no line in these logs shows "
		 "the kernels); the device run log of rank %d's node "
		 "(ascend/log/run/device-N/, HCCL's WaitFinishWhileLoop and AicpuComm "
		 "lines, written at any log level) would prove it."),
		 d->ranks[r].kernels_config,
		 launch_of(d, r) == UINT32_MAX ? -1 : (int)launch_of(d, r),
		 d->st.dev[r].pool.cap, r, r);
}

/*
 * A deadlock is proven only when every input of the proof was seen in the
 * logs: every record was kept (no record ceiling, no file read in part),
 * every task of the cycle has its dump line, and a pool in the cycle has
 * a capacity stated by --cores or the product's count (6 AICPU cores on
 * the Atlas A2/A3 parts that run HCCL kernels on AICPU) that no core id
 * in the logs exceeds, with each held core named by a kernel start line.
 * Otherwise the assumption is written, as one sentence, into buf.
 */
static bool proof_assumes(const struct hangdx_diagnosis *d, char *buf,
			  size_t n)
{
	const struct hx_counts *c = &d->ev->c;
	unsigned long long cut = c->skipped[HX_S_RECORDS];
	unsigned long long part = c->skipped[HX_S_TRUNCATED] + c->skipped[HX_S_LIMIT];
	size_t i;

	if (cut) {
		snprintf(buf, n, _("It assumes that no record past the record ceiling "
			 "(--max-records, the first %zu records in reading order kept) "
			 "would release the cycle."), hx_cut_ceiling(d));
		return true;
	}
	if (part) {
		snprintf(buf, n, _("It assumes that what was not read of %llu input%s read "
			 "only in part (truncated or over the size limit) would not "
			 "release the cycle."), part, part == 1 ? "" : "s");
		return true;
	}
	if (d->nhops < d->wg.nlead + d->wg.ncycle) {
		snprintf(buf, n, _("It assumes that the %zu tasks of the cycle past the "
			 "first %zu shown would not release it."),
			 d->wg.nlead + d->wg.ncycle - d->nhops, d->nhops);
		return true;
	}
	for (i = 0; i < d->nhops; i++)
		if (d->hops[i].stream_id >= 0 && d->hops[i].rec == HX_NOREC) {
			snprintf(buf, n, _("It assumes that %s, whose log line is not in the "
				 "evidence, is in the state the rebuilt model gives it."),
				 d->hops[i].what);
			return true;
		}
	if (cycle_has_pool(d) && pool_inferred(d) >= 0 &&
	    d->ranks[pool_inferred(d)].kernels_config) {
		config_assumes(d, pool_inferred(d), buf, n);
		return true;
	}
	if ((i = h0_inferred(d)) < d->wg.ncycle) {
		const struct hx_task *t = &d->st.tasks[d->wg.nodes[d->wg.cycle[i]].id];
		snprintf(buf, n, _("It assumes that main stream %u, stuck at its head on a "
			 "notify wait whose id the TS dump does not print, waits for the "
			 "notify its op's launching stream %u records when it reaches the op "
			 "(an HCCL op's first task on its main stream waits for that record)."),
			 d->st.streams[t->stream].id, h0_recorder(d, t->notify));
		if (cycle_has_pool(d) && pool_inferred(d) >= 0) {
			size_t l = strlen(buf);
			snprintf(buf + l, n - l, " %s", _("Which kernels held the cores is "
				 "inferred too: no line in the logs shows them (the device run "
				 "log's WaitFinishWhileLoop and AicpuComm lines would)."));
		}
		return true;
	}
	if (cycle_has_pool(d) && pool_inferred(d) >= 0) {
		int32_t r = pool_inferred(d);
		snprintf(buf, n, _("It assumes that the %u AICPU tasks alone at the heads "
			 "of their streams on rank %d are HCCL kernels holding the AICPU "
			 "cores, each resident until a main stream stuck behind the same "
			 "stream drains, as op retry keeps them: no line in the logs shows "
			 "which kernels held the cores (the device run log's "
			 "WaitFinishWhileLoop and AicpuComm lines would)."),
			 d->ranks[r].kernels_inferred, r);
		return true;
	}
	if (pool_widened(d) >= 0) {
		snprintf(buf, n, _("It assumes the devices have no AICPU core past core %u, "
			 "the highest core the logs name, %s."),
			 hx_rank_cores(d, pool_widened(d)) - 1,
			 d->cores_given ? _("beyond the count --cores gave")
			 : _("beyond the 6 of the Atlas A2/A3 parts (give --cores to state "
			   "the count)"));
		return true;
	}
	return false;
}

/* The checks of proof_assumes that no one rank's pool decides. */
static bool proof_common(const struct hangdx_diagnosis *d)
{
	const struct hx_counts *c = &d->ev->c;
	size_t i;

	if (c->skipped[HX_S_RECORDS] || c->skipped[HX_S_TRUNCATED] ||
	    c->skipped[HX_S_LIMIT] || d->nhops < d->wg.nlead + d->wg.ncycle)
		return false;
	for (i = 0; i < d->nhops; i++)
		if (d->hops[i].stream_id >= 0 && d->hops[i].rec == HX_NOREC)
			return false;
	return h0_inferred(d) >= d->wg.ncycle;
}

bool hx_rank_proven(const struct hangdx_diagnosis *d, uint32_t rank)
{
	const struct hx_rankinfo *ri;

	if (d->verdict != HANGDX_V_DEADLOCK || rank >= d->nranks ||
	    !d->local_cycle || !d->local_cycle[rank])
		return false;
	if (d->rf && d->rf[rank])       /* its facts: the node that read it */
		return d->rf[rank]->local_cycle && d->rf[rank]->proven;
	if ((int32_t)rank == d->root_rank)
		return d->proven;
	ri = &d->ranks[rank];
	return d->proof_common && !ri->kernels_inferred && !ri->kernels_config &&
	       !ri->cores_wide;
}

/* " (and N more ranks alike)" for n ranks in all, "" for one. */
static void alike_text(const struct hangdx_diagnosis *d, uint32_t n, char *buf,
		       size_t size)
{
	if (n > 1)
		snprintf(buf, size, d->partial
			 ? _(" (and at least %u more rank%s alike)")
			 : _(" (and %u more rank%s alike)"), n - 1, n == 2 ? "" : "s");
}

static bool try_deadlock(struct hangdx_diagnosis *d)
{
	const char *how;
	char tail[1100] = "", alike[64] = "";
	int32_t start;

	if (!d->have_snapshot || d->wg.ncycle == 0)
		return false;
	d->verdict = HANGDX_V_DEADLOCK;
	d->cat = cycle_has_pool(d) ? HX_CAT_AICPU_DEADLOCK : HX_CAT_WAIT_CYCLE;
	start = first_error_node(d);
	if (start >= 0 && (d->oom = hx_wgraph_anchor(&d->wg, (uint32_t)start)))
		return false;
	d->root_rank = cycle_rank(d);
	cycle_hops(d);
	d->proven = !proof_assumes(d, d->assumption, sizeof d->assumption);
	d->proof_common = proof_common(d);
	how = d->proven ? _("proven") : _("inferred");
	if (!d->proven)
		snprintf(tail, sizeof tail, _(" Inferred, not proven. %s"), d->assumption);
	if (d->cat == HX_CAT_AICPU_DEADLOCK) {
		alike_text(d, cycle_ranks(d), alike, sizeof alike);
		snprintf(d->summary, sizeof d->summary,
			 _("Deadlock, %s on the device state rebuilt from the logs: on rank %d"
			 "%s HCCL kernels hold all %u AICPU cores and stay "
			 "resident until their main streams drain (op retry on), while the "
			 "communication stream waits through an event on an ordinary AICPU "
			 "operator that can never get a core. Nothing could move after the cycle "
			 "closed; HCCL_EXEC_TIMEOUT then fired notify wait timeout (EI0002).%s"),
			 how, d->root_rank, alike, hx_rank_cores(d, d->root_rank), tail);
	} else {
		snprintf(d->summary, sizeof d->summary,
			 _("Deadlock, %s on the state rebuilt from the logs: a circular wait of "
			 "%zu tasks on rank %d; every task in it waits for the next.%s"),
			 how, d->wg.ncycle, d->root_rank, tail);
	}
	return true;
}

/*
 * From facts, when no rank whose own state holds a cycle could be read
 * again here: the node that read its logs proved the cycle (its facts say
 * so), but the chain cannot be shown.  The rank taken is the first
 * failing one if it is such a rank, else the lowest.
 */
static bool try_deadlock_facts(struct hangdx_diagnosis *d)
{
	const struct hx_rankfact *rf = NULL;
	uint32_t r, n = 0;
	char alike[64] = "";

	if (!d->rf || (d->have_snapshot && d->wg.ncycle))
		return false;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankfact *x = d->rf[r];

		if (!x || !x->local_cycle)
			continue;
		if (x->pool_held && !x->dead_pools && !x->proven)
			continue;       /* a held pool while the job runs: try_pool_held */
		n++;
		if (!rf || (int32_t)r == d->first_rank)
			rf = x;
	}
	if (!rf)
		return false;
	d->verdict = HANGDX_V_DEADLOCK;
	d->cat = rf->dead_pools ? HX_CAT_AICPU_DEADLOCK : HX_CAT_WAIT_CYCLE;
	d->root_rank = rf->rank;
	d->proven = rf->proven;       /* the pool its own count sized */
	alike_text(d, n, alike, sizeof alike);
	snprintf(d->summary, sizeof d->summary,
		 _("Deadlock, %s on the node that read the logs of rank %d (its facts "
		 "say so): on rank %d%s %s. The chain is not shown: the full evidence "
		 "of rank %d could not be read here (see missing evidence)."),
		 d->proven ? _("proven") : _("inferred"), rf->rank, rf->rank, alike,
		 d->cat == HX_CAT_AICPU_DEADLOCK
		 ? _("HCCL kernels hold every AICPU core while a task they wait for "
		   "needs one, a circular wait")
		 : _("the tasks of a circular wait each wait for the next"),
		 rf->rank);
	return true;
}

static uint32_t count_lost(const struct hangdx_diagnosis *d, int32_t *first)
{
	uint32_t r, n = 0;
	int64_t best = HX_NONE;

	*first = -1;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		int64_t ts = rec_ts(d, ri->lost_rec);
		if (!ri->lost)
			continue;
		n++;
		if (*first < 0 || (ts != HX_NONE && (best == HX_NONE || ts < best))) {
			*first = ri->rank;
			best = ts;
		}
	}
	return n;
}

/* ", waiting for a peer" when the rank waited on is known by its global
 * rank; the remote rank of its communicator when only that is known
 * (EI0002 and the task failure blocks print a communicator's rank: it is
 * never taken for a global rank without the group's members); "". */
static void waiting_for(const struct hx_rankinfo *ri, char *buf, size_t n)
{
	if (ri->wait_peer >= 0)
		snprintf(buf, n, "%s", _(", waiting for a peer"));
	else if (ri->wait_crank >= 0 && ri->wait_group)
		snprintf(buf, n, _(", waiting for rank %lld of group %.60s"),
			 (long long)ri->wait_crank, ri->wait_group);
	else if (ri->wait_crank >= 0)
		snprintf(buf, n, _(", waiting for rank %lld of its communicator"),
			 (long long)ri->wait_crank);
	else
		buf[0] = 0;
}

static void wait_hop(struct hangdx_diagnosis *d, const struct hx_rankinfo *ri,
		     const char *why)
{
	char idx[48] = "";     /* room for the translated " index N" */
	char peer[128];

	if (ri->wait_rec == HX_NOREC)
		return;

	if (ri->index >= 0)
		snprintf(idx, sizeof idx, _(" index %lld"), (long long)ri->index);
	waiting_for(ri, peer, sizeof peer);
	hx_hop_add(d, ri->rank, ri->wait_rec, why,
		   "rank%d %s%s: notify wait timed out (stream %lld task %lld)%s",
		   ri->rank, ri->op ? ri->op : _("collective"), idx,
		   (long long)ri->stream, (long long)ri->task, peer);
}

/* Follow "waits for rank p" from rank r; the chain ends at a rank that
 * waits for nobody, or repeats. */
static int32_t follow_chain(struct hangdx_diagnosis *d, int32_t r, bool hops,
			    bool *cycle)
{
	uint8_t *seen = hx_dcalloc(d, d->nranks + 1, 1);
	int32_t end = r;

	*cycle = false;
	while (seen && r >= 0 && (uint32_t)r < d->nranks) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (seen[r]) {
			*cycle = true;
			break;
		}
		seen[r] = 1;
		end = r;
		if (hops)
			wait_hop(d, ri, ri->wait_peer >= 0 ? N_("remote notify") : "");
		if (ri->wait_peer < 0 || ri->lost)
			break;
		r = (int32_t)ri->wait_peer;
	}
	hx_free(d->ctx, seen);
	return end;
}

static bool any_wait_ran_out(const struct hangdx_diagnosis *d);
static uint32_t ranks_ended(const struct hangdx_diagnosis *d, uint32_t *seen,
			    int32_t *open);

static bool try_lost(struct hangdx_diagnosis *d)
{
	int32_t lost, start = d->first_rank;
	uint32_t n = count_lost(d, &lost);
	const struct hx_rankinfo *li;
	const char *fmt;
	bool cyc;
	char where[512];

	if (n == 0)
		return false;
	li = &d->ranks[lost];
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_RANK_LOST;
	d->root_rank = lost;
	/* a rank that waits on the lost one, if the chain leads there */
	if (start >= 0)
		follow_chain(d, start, true, &cyc);
	hx_hop_add(d, lost, li->lost_rec, "", "rank%d is LOST: its heartbeat stopped "
		   "(process exited or network down)", lost);
	hx_dwhere(d, li->lost_rec, where, sizeof where);
	fmt = any_wait_ran_out(d)
	      ? _("Hang caused by a lost rank: rank %d stopped (heartbeat LOST, %s)%s; the "
		  "other ranks waited for its notify records in their collectives until "
		  "HCCL_EXEC_TIMEOUT fired (EI0002). %u rank%s reported lost.")
	      : _("Hang caused by a lost rank: rank %d stopped (heartbeat LOST, %s)%s; "
		  "the other ranks wait for its notify records in their collectives "
		  "(no wait has run out in these logs yet). %u rank%s reported lost.");
	snprintf(d->summary, sizeof d->summary, fmt, lost, where,
		 li->last_ts != HX_NONE ? _(" and its logs end there") : "",
		 n, n == 1 ? "" : "s");
	return true;
}

static bool any_wait(const struct hangdx_diagnosis *d)
{
	uint32_t r;

	for (r = 0; r < d->nranks; r++)
		if (d->ranks[r].wait_rec != HX_NOREC || d->ranks[r].lost)
			return true;
	return false;
}

/* A link that never came up: follow "could not reach" from rank to rank;
 * the chain ends at a rank that reported nothing (it never showed up) or
 * at a peer the logs cannot identify. */
static bool try_setup_chain(struct hangdx_diagnosis *d,
			    const struct hx_rankinfo *start)
{
	uint8_t *seen = hx_dcalloc(d, d->nranks + 1, 1);
	const struct hx_rankinfo *ri = start;
	int64_t end = start->rank, last = start->rank;
	char where[512];

	if (!seen)
		return false;
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_LINK;
	while (ri && !seen[ri->rank]) {
		seen[ri->rank] = 1;
		end = ri->rank;
		if (ri->link_rec != HX_NOREC)
			hx_hop_add(d, ri->rank, ri->link_rec, N_("could not connect to"),
				   "rank%d (device %lld): link set-up failed (%s)",
				   ri->rank, (long long)ri->device,
				   hx_dstr(d, ri->link_rec, HX_F_WHAT)
					   ? hx_dstr(d, ri->link_rec, HX_F_WHAT) : _("link"));
		if (!ri->link_setup)
			break;
		if (ri->setup_peer < 0 || (uint64_t)ri->setup_peer >= d->nranks) {
			last = ri->rank;        /* no peer, or not a rank we know */
			end = -2;
			break;
		}
		ri = &d->ranks[ri->setup_peer];
		if (ri->link_rec == HX_NOREC && !seen[ri->rank]) {
			end = ri->rank;
			hx_hop_add(d, ri->rank, HX_NOREC, "",
				   "rank%d (device %lld): reported no link failure: it never "
				   "joined the link", ri->rank, (long long)ri->device);
			snprintf(d->hops[d->nhops - 1].kind, sizeof d->hops->kind,
				 "UNJOINED_RANK");
			break;
		}
	}
	hx_free(d->ctx, seen);
	hx_dwhere(d, start->link_rec, where, sizeof where);
	if (end == -2) {
		d->root_rank = -1;
		snprintf(d->summary, sizeof d->summary,
			 _("Link set-up failed: rank %lld could not connect to its peer (first "
			 "failure: %s), and the logs do not identify that peer's device, so "
			 "the root device is unknown. Collect the logs of the peer's server."),
			 (long long)last, where);
		MISSING("the device at the far end of rank %lld's failed link", (long long)last);
		return true;
	}
	d->root_rank = (int32_t)end;
	snprintf(d->summary, sizeof d->summary,
		 _("Link set-up failed: following \"could not connect to\" from rank %d (%s) "
		 "ends at rank %lld (device %lld), which %s. That rank is where to look: "
		 "its process, its NIC and its network configuration."),
		 start->rank, where, (long long)end, (long long)d->ranks[end].device,
		 d->ranks[end].link_rec == HX_NOREC ? _("reported no failure of its own")
						     : _("waits for no one else"));
	return true;
}

/* When a rank saw its link error, clock-corrected; undated ones last. */
static int64_t link_time(const struct hangdx_diagnosis *d,
			 const struct hx_rankinfo *ri)
{
	int64_t ts = rec_ts(d, ri->link_rec);

	return ts == HX_NONE ? INT64_MAX : ts - ri->skew_us;
}

static bool try_link(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *best = NULL;
	uint32_t r;
	char where[512], label[192];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->link_rec == HX_NOREC)
			continue;
		if (!best || link_time(d, ri) < link_time(d, best))
			best = ri;
	}
	if (!best)
		return false;
	if (best->link_setup)
		return try_setup_chain(d, best);
	if (hx_rec_sdma_exception(d, best->link_rec) && !any_wait(d) &&
	    !any_wait_ran_out(d))
		return false;           /* the copy failed at once; no one waited */
	if (best->retry_rec != HX_NOREC &&
	    rec_ts(d, best->retry_rec) > rec_ts(d, best->link_rec) && !any_wait(d)) {
		d->ranks[best->rank].link_recovered = true;
		hx_dwhere(d, best->link_rec, where, sizeof where);
		hx_rank_label(d, best->rank, label, sizeof label);
		WARN("A link error on %s (%s) was recovered by op retry: no collective "
		     "timed out. Check the link before it fails for good.", label, where);
		return false;
	}
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_LINK;
	d->root_rank = best->rank;
	hx_dwhere(d, best->link_rec, where, sizeof where);
	for (r = 0; r < d->nranks; r++)
		if (d->ranks[r].wait_peer == best->rank && (int32_t)r != best->rank) {
			wait_hop(d, &d->ranks[r], N_("remote notify"));
			break;
		}
	hx_hop_add(d, best->rank, best->link_rec, "",
		   "rank%d: data copy failed with an error CQE (%s)", best->rank,
		   hx_kind_name(d->ev->recs[best->link_rec].kind));
	hx_rank_label(d, best->rank, label, sizeof label);
	snprintf(d->summary, sizeof d->summary,
		 _("Failure caused by a link error: %s saw an SDMA/RDMA error CQE on a "
		 "data copy (%s); without a successful op retry the collective could not "
		 "complete and its peers waited until the exec timeout."),
		 label, where);
	return true;
}

/* Ranks of one group stopped at one index with different collectives. */
static bool same_op(const struct hx_rankinfo *a, const struct hx_rankinfo *b)
{
	if (a->op && b->op && strcmp(a->op, b->op) != 0)
		return false;
	if (a->count >= 0 && b->count >= 0 && a->count != b->count)
		return false;
	if (a->dtype && b->dtype && strcmp(a->dtype, b->dtype) != 0)
		return false;
	return true;
}

static bool try_mismatch(struct hangdx_diagnosis *d)
{
	uint32_t r, q, odd = UINT32_MAX, alike, best_alike = UINT32_MAX;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *a = &d->ranks[r];
		bool differs = false;
		if (a->wait_rec == HX_NOREC || a->index < 0)
			continue;
		alike = 0;
		for (q = 0; q < d->nranks; q++) {
			const struct hx_rankinfo *b = &d->ranks[q];
			if (q == r || b->wait_rec == HX_NOREC || b->index != a->index)
				continue;
			if (a->group && b->group && strcmp(a->group, b->group) != 0)
				continue;
			if (same_op(a, b))
				alike++;
			else
				differs = true;
		}
		if (differs && alike < best_alike) {
			best_alike = alike;
			odd = r;
		}
	}
	if (odd == UINT32_MAX)
		return false;
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_MISMATCH;
	d->root_rank = (int32_t)odd;
	{
		const struct hx_rankinfo *o = &d->ranks[odd];
		const struct hx_rankinfo *other = NULL;
		for (q = 0; q < d->nranks && !other; q++)
			if (q != odd && d->ranks[q].wait_rec != HX_NOREC &&
			    d->ranks[q].index == o->index && !same_op(o, &d->ranks[q]))
				other = &d->ranks[q];
		wait_hop(d, o, "");
		if (other)
			wait_hop(d, other, "");
		if (best_alike == 0 && other)
			FACT("Ranks %u and %d disagree and no third rank that logged the "
			     "failure sides with either: which one deviates from the program "
			     "cannot be told from these logs; rank %u is named first.",
			     odd, other->rank, odd);
		snprintf(d->summary, sizeof d->summary,
			 _("Hang caused by a collective mismatch: at op index %lld rank %u issued "
			 "%s (count %lld, %s) while rank %d issued %s (count %lld, %s); the "
			 "ranks waited for handshakes the others never sent and every rank "
			 "timed out."),
			 (long long)o->index, odd, o->op ? o->op : "?", (long long)o->count,
			 o->dtype ? o->dtype : "?", other ? other->rank : -1,
			 other && other->op ? other->op : "?",
			 other ? (long long)other->count : -1LL,
			 other && other->dtype ? other->dtype : "?");
	}
	return true;
}

/* Ranks of one group failing at different op indices: the ones behind
 * never reached the op the others wait in (ascend-fd's "index error"). */
static bool try_behind(struct hangdx_diagnosis *d)
{
	uint32_t r, q, behind = UINT32_MAX;
	int64_t hi = -1;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *a = &d->ranks[r];
		if (a->wait_rec == HX_NOREC || a->index < 0)
			continue;
		for (q = 0; q < d->nranks; q++) {
			const struct hx_rankinfo *b = &d->ranks[q];
			if (b->wait_rec == HX_NOREC || b->index <= a->index ||
			    (a->group && b->group && strcmp(a->group, b->group) != 0))
				continue;
			if (behind == UINT32_MAX || a->index < d->ranks[behind].index) {
				behind = r;
				hi = b->index;
			}
		}
	}
	if (behind == UINT32_MAX)
		return false;
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_BEHIND;
	d->root_rank = (int32_t)behind;
	wait_hop(d, &d->ranks[behind], "");
	snprintf(d->summary, sizeof d->summary,
		 _("Hang: rank %u fell behind its peers: it failed in op index %lld of its "
		 "communicator while the others had reached index %lld and waited there for "
		 "it. Look at what held rank %u before that op (its compute, its host "
		 "process, its input pipeline)."), behind,
		 (long long)d->ranks[behind].index, (long long)hi, behind);
	return true;
}

/* A stream stuck at an event wait (the TS dump method of the vendor's
 * stuck-process guide): follow the event to the stream that records it. */
static bool danger(const struct hangdx_diagnosis *d, const struct hx_rankinfo *ri);

/*
 * The chain ends at an ordinary AICPU operator at its stream's head that
 * never finished, the pool's holders are not in the logs, and the rank
 * runs op retry in AI_CPU mode with at least as many communicators as
 * cores: the AICPU exhaustion deadlock, inferred from the configuration.
 */
static void starved_by_config(struct hangdx_diagnosis *d, int32_t rank,
			      uint32_t task)
{
	const struct hx_rankinfo *ri = &d->ranks[rank];
	unsigned cores = hx_rank_cores(d, rank);

	if (!danger(d, ri) || d->st.dev[rank].pool.busy >= d->st.dev[rank].pool.cap)
		return;
	d->verdict = HANGDX_V_DEADLOCK;
	d->cat = HX_CAT_AICPU_DEADLOCK;
	d->proven = false;
	snprintf(d->hops[d->nhops - 1].why, sizeof d->hops->why, "%s", N_("AICPU core"));
	hx_hop_add(d, rank, HX_NOREC, "", "rank%d AICPU pool: all %u cores held by HCCL "
		   "kernels (inferred from the configuration)", rank, cores);
	snprintf(d->hops[d->nhops - 1].kind, sizeof d->hops->kind, "AICPU_POOL");
	snprintf(d->assumption, sizeof d->assumption,
		 _("It assumes that the HCCL kernels of %u of the rank's %u communicators "
		 "(op retry on, AI_CPU mode) held the %u AICPU cores, each resident until "
		 "its main stream drains behind this chain: the logs show neither the "
		 "kernels nor their main streams (the device run log's "
		 "WaitFinishWhileLoop and AicpuComm lines would)."), cores, ri->ncomm,
		 cores);
	snprintf(d->summary, sizeof d->summary,
		 _("Deadlock, inferred: on rank %d the communication stream waits through "
		 "an event on an ordinary AICPU operator (stream %u task %u) that never "
		 "got a core, while op retry in AI_CPU mode with %u communicators lets "
		 "their HCCL kernels hold all %u AICPU cores until their ops drain. "
		 "Inferred, not proven. %s"), rank, d->st.streams[d->st.tasks[task].stream].id,
		 d->st.tasks[task].task_id, ri->ncomm, cores, d->assumption);
}

/* A shortest path of wait-for edges from node a to node b, written to
 * path (b excluded, a first); its length, or 0 when b is not reached. */
static size_t wg_path(struct hangdx_diagnosis *d, uint32_t a, uint32_t b,
		      uint32_t *path)
{
	const struct hx_wgraph *g = &d->wg;
	size_t nn = g->nnodes, i, qh = 0, qt = 0, len = 0;
	uint32_t *first = hx_dcalloc(d, nn + 2, sizeof *first);
	uint32_t *adj = hx_dcalloc(d, g->nedges + 1, sizeof *adj);
	uint32_t *queue = hx_dcalloc(d, nn + 1, sizeof *queue);
	int32_t *par = hx_dcalloc(d, nn + 1, sizeof *par);
	int32_t x;

	if (!first || !adj || !queue || !par || a >= nn || b >= nn)
		goto out_free;
	for (i = 0; i < g->nedges; i++)
		first[g->edges[i].from + 2]++;
	for (i = 2; i < nn + 2; i++)
		first[i] += first[i - 1];
	for (i = 0; i < g->nedges; i++)
		adj[first[g->edges[i].from + 1]++] = g->edges[i].to;
	for (i = 0; i < nn; i++)
		par[i] = -2;
	par[a] = -1;
	queue[qt++] = a;
	while (qh < qt && par[b] == -2) {
		uint32_t n = queue[qh++], k;
		for (k = first[n]; k < first[n + 1]; k++)
			if (par[adj[k]] == -2) {
				par[adj[k]] = (int32_t)n;
				queue[qt++] = adj[k];
			}
	}
	if (par[b] == -2 || a == b)
		goto out_free;
	for (x = par[b]; x >= 0; x = par[x])
		len++;
	for (i = len, x = par[b]; x >= 0; x = par[x])
		path[--i] = (uint32_t)x;
out_free:
	hx_free(d->ctx, first);
	hx_free(d->ctx, adj);
	hx_free(d->ctx, queue);
	hx_free(d->ctx, par);
	return len;
}

/* Hops from the first error to the event wait at node w, if it leads
 * there. */
static void lead_hops(struct hangdx_diagnosis *d, int32_t start, uint32_t w)
{
	uint32_t *path;
	size_t n, i;

	if (start < 0)
		return;
	path = hx_dcalloc(d, d->wg.nnodes + 1, sizeof *path);
	if (!path)
		return;
	n = wg_path(d, (uint32_t)start, w, path);
	for (i = 0; i < n; i++)
		if (node_hop(d, path[i], i + 1 < n ? path[i + 1] : w))
			break;
	hx_free(d->ctx, path);
}

/* A record of notify n queued on the same rank's streams (a snapshot
 * notify is one rank's), or -1. */
static long local_record(const struct hangdx_diagnosis *d, int32_t n)
{
	return d->notify_rec && n >= 0 && (uint32_t)n < d->st.nnotifies
	       ? d->notify_rec[n] : -1;
}

static int index_records(struct hangdx_diagnosis *d)
{
	size_t i;

	d->notify_rec = NULL;
	if (!d->have_snapshot)
		return HANGDX_OK;
	d->notify_rec = hx_arena_alloc(&d->arena, (d->st.nnotifies + 1) *
				       sizeof *d->notify_rec);
	if (!d->notify_rec)
		return HANGDX_ENOMEM;
	for (i = 0; i <= d->st.nnotifies; i++)
		d->notify_rec[i] = -1;
	for (i = 0; i < d->st.ntasks; i++) {
		const struct hx_task *t = &d->st.tasks[i];
		if (t->kind == HX_T_NOTIFY_RECORD && t->notify >= 0 &&
		    (uint32_t)t->notify < d->st.nnotifies && d->notify_rec[t->notify] < 0)
			d->notify_rec[t->notify] = (int32_t)i;
	}
	return HANGDX_OK;
}

/*
 * Does the chain of the event wait at h end on another rank?  It is
 * followed on its own rank (event -> the head of the recording stream,
 * notify -> the head of the stream that records it) to a task that waits
 * on nothing local: a notify wait whose record is on no stream of this
 * rank (its id has no record here, or the id is not dumped and the rank's
 * failure lines name a peer it waits on) is a victim's chain, whatever
 * its own rank holds; it never makes that rank a root.
 */
static bool chain_end(const struct hangdx_diagnosis *d, long h, long *end)
{
	uint32_t rank = d->st.streams[d->st.tasks[h].stream].rank;
	size_t steps = 0;

	while (h >= 0 && steps++ <= d->st.ntasks) {
		*end = h;
		const struct hx_task *t = &d->st.tasks[h];
		long next = -1, rec;

		if (t->kind == HX_T_EVENT_WAIT && t->dep >= 0) {
			next = hx_state_head(&d->st, d->st.tasks[t->dep].stream);
		} else if (t->kind == HX_T_NOTIFY_WAIT) {
			rec = t->notify >= 0 ? local_record(d, t->notify) : -1;
			/* a peer named by its global rank, or only as a
			 * rank of its communicator (logs at level error
			 * hold no creation lines to map it) */
			if (rec < 0)
				return t->notify >= 0 ||
				       (rank < d->nranks &&
					(d->ranks[rank].npeers > 0 ||
					 d->ranks[rank].wait_crank >= 0));
			next = hx_state_head(&d->st, d->st.tasks[rec].stream);
		}
		if (next < 0 || next == h)
			return false;
		h = next;
	}
	return false;
}

static bool chain_remote(const struct hangdx_diagnosis *d, long h)
{
	long end;

	return chain_end(d, h, &end);
}

bool hx_event_root(const struct hangdx_diagnosis *d, uint32_t sid)
{
	long h = d->have_snapshot && sid < d->st.nstreams ? hx_state_head(&d->st, sid) : -1;
	long end;

	if (h < 0 || d->st.tasks[h].kind != HX_T_EVENT_WAIT ||
	    d->st.tasks[h].state != HX_TS_WAITING)
		return false;
	return !chain_end(d, h, &end) && end != h && d->st.tasks[end].kind == HX_T_AICPU;
}

/* The event wait stuck at a stream's head whose chain stays on its rank:
 * the one the first error leads to, else the first. */
static long pick_event_wait(struct hangdx_diagnosis *d, int32_t start)
{
	uint32_t *path = NULL;
	long first = -1;
	size_t i;

	for (i = 0; i < d->st.nstreams; i++) {
		long h = hx_state_head(&d->st, (uint32_t)i);
		int32_t w;
		if (h < 0 || d->st.tasks[h].kind != HX_T_EVENT_WAIT ||
		    d->st.tasks[h].state != HX_TS_WAITING || chain_remote(d, h))
			continue;
		if (first < 0)
			first = h;
		if (start < 0)
			break;
		if (!path && !(path = hx_dcalloc(d, d->wg.nnodes + 1, sizeof *path)))
			break;
		w = hx_wgraph_task_node(&d->wg, (uint32_t)h);
		if (w >= 0 && (w == start || wg_path(d, (uint32_t)start, (uint32_t)w, path))) {
			first = h;
			break;
		}
	}
	hx_free(d->ctx, path);
	return first;
}

/* hops an event-wait chain is followed for on one rank (each a stream of
 * the rank's dumps; a loop among them ends there) */
#define MAX_EVENT_HOPS 256

/* The chain on from the head task rh of a recording stream: an event
 * wait to its record and that stream's head, a notify wait to its record
 * on this rank and that stream's head, each a hop, until a task that waits
 * on nothing here (returned).  The record and the head share the rank of
 * rh: events and snapshot notifies are one rank's. */
static long more_hops(struct hangdx_diagnosis *d, long rh)
{
	size_t steps = 0;

	while (rh >= 0 && steps++ < MAX_EVENT_HOPS) {
		const struct hx_task *x = &d->st.tasks[rh];
		const char *why;
		long rec, nh;

		if (x->kind == HX_T_EVENT_WAIT && x->dep >= 0) {
			rec = x->dep;
			why = N_("event");
		} else if (x->kind == HX_T_NOTIFY_WAIT && x->notify >= 0 &&
			   (rec = local_record(d, x->notify)) >= 0) {
			why = N_("notify");
		} else {
			return rh;
		}
		snprintf(d->hops[d->nhops - 1].why, sizeof d->hops->why, "%s", why);
		task_hop(d, (uint32_t)rec, N_("stream order"));
		nh = hx_state_head(&d->st, d->st.tasks[rec].stream);
		if (nh < 0 || nh == rec)
			return rec;
		task_hop(d, (uint32_t)nh, "");
		rh = nh;
	}
	return rh;
}

static bool try_event_chain(struct hangdx_diagnosis *d)
{
	int32_t start, rank;
	const struct hx_task *t;
	long h;
	uint32_t i;

	if (!d->have_snapshot)
		return false;
	start = first_error_node(d);
	h = pick_event_wait(d, start);
	if (h < 0)
		return false;
	t = &d->st.tasks[h];
	i = t->stream;
	rank = (int32_t)d->st.streams[i].rank;
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_EVENT_CHAIN;
	d->root_rank = rank;
	if (hx_wgraph_task_node(&d->wg, (uint32_t)h) >= 0)
		lead_hops(d, start, (uint32_t)hx_wgraph_task_node(&d->wg, (uint32_t)h));
	task_hop(d, (uint32_t)h, N_("event"));
	if (t->dep >= 0) {
		long rh = hx_state_head(&d->st, d->st.tasks[t->dep].stream);
		task_hop(d, (uint32_t)t->dep, N_("stream order"));
		if (rh >= 0 && rh != t->dep) {
			task_hop(d, (uint32_t)rh, "");
			rh = more_hops(d, rh);
		}
		snprintf(d->summary, sizeof d->summary,
			 _("Hang in an event-wait chain: stream %u waits for %s, whose "
			 "record is queued behind the task at the head of stream %u, "
			 "which does not finish."), d->st.streams[i].id,
			 d->snap_sc.events[t->event], d->st.streams[d->st.tasks[t->dep].stream].id);
		if (rh >= 0 && d->st.tasks[rh].kind == HX_T_AICPU) {
			d->aicpu_end_stream = d->st.streams[d->st.tasks[rh].stream].id;
			starved_by_config(d, rank, (uint32_t)rh);
		}
	} else {
		MISSING("the stream that records %s is not in the TS dumps",
			t->event >= 0 ? d->snap_sc.events[t->event] : _("the event"));
		snprintf(d->summary, sizeof d->summary,
			 _("Hang in an event-wait chain: stream %u is stuck at its head on "
			 "an event wait (%s, task %u); the stream that records that event "
			 "is not in the dumps, so the chain stops here. Dump or log that "
			 "stream to see where it is stuck."), d->st.streams[i].id,
			 t->event >= 0 ? d->snap_sc.events[t->event] : "?", t->task_id);
	}
	return true;
}

static bool try_sq_full(struct hangdx_diagnosis *d)
{
	uint32_t r;
	char where[512];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->sq_full_rec == HX_NOREC)
			continue;
		d->verdict = HANGDX_V_HANG;
		d->cat = HX_CAT_SQ_FULL;
		d->root_rank = ri->rank;
		hx_dwhere(d, ri->sq_full_rec, where, sizeof where);
		hx_hop_add(d, ri->rank, ri->sq_full_rec, "",
			   "rank%d: an HCCL kernel could not write its tasks: the stream's "
			   "submission queue stayed full (Rtsq full)", ri->rank);
		snprintf(d->summary, sizeof d->summary,
			 _("Failure caused by a full submission queue on rank %d (%s): the "
			 "HCCL kernel stayed on its AICPU core waiting for room in its "
			 "stream's SQ and gave up after HCCL_EXEC_TIMEOUT + 20 s. An op "
			 "with more tasks than the SQ holds (2048), or a stream whose head "
			 "never moves, does this."), ri->rank, where);
		return true;
	}
	return false;
}

/* The AICPU operator that ran out is a data queue's GetNext (ingest's
 * "getnext": MindSpore's dump names the node). */
static bool getnext_wait(const struct hangdx_diagnosis *d)
{
	const char *w;
	uint32_t r;

	for (r = 0; r < d->nranks; r++)
		if (d->ranks[r].aicpu_timeout_rec != HX_NOREC &&
		    (w = hx_dstr(d, d->ranks[r].aicpu_timeout_rec, HX_F_WHAT)) &&
		    strcmp(w, "getnext") == 0)
			return true;
	return false;
}

static bool try_aicpu_timeout(struct hangdx_diagnosis *d)
{
	uint32_t r;
	char where[512];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->aicpu_timeout_rec == HX_NOREC)
			continue;
		d->verdict = HANGDX_V_HANG;
		d->cat = HX_CAT_AICPU_TIMEOUT;
		d->root_rank = ri->rank;
		/* its ids: the task the lines around it name (json_ids) */
		d->id_rec = ri->aicpu_timeout_rec;
		hx_dwhere(d, ri->aicpu_timeout_rec, where, sizeof where);
		hx_hop_add(d, ri->rank, ri->aicpu_timeout_rec, "",
			   "rank%d: an AICPU operator exceeded its time limit", ri->rank);
		if (ri->pseudo)
			snprintf(d->summary, sizeof d->summary,
				 _("Failure caused by %s (%s); no line names its rank."),
				 _("an AICPU operator timeout"), where);
		else
			snprintf(d->summary, sizeof d->summary,
				 _("Failure caused by an AICPU operator timeout on rank %d (%s)."),
				 ri->rank, where);
		return true;
	}
	return false;
}

/* The hop of a rank's failure: the task the runtime names as failed
 * ("Task execute failed, base info"), else its first failure record. */
static void fail_hop(struct hangdx_diagnosis *d, const struct hx_rankinfo *e)
{
	uint32_t rec = e->task_rec != HX_NOREC ? e->task_rec : e->fail_rec;
	const char *type = hx_dstr(d, rec, HX_F_TASK_TYPE);
	char tt[48] = "";

	if (type && *type)
		snprintf(tt, sizeof tt, ", task_type %.30s", type);
	hx_hop_add(d, e->rank, rec, "", "rank%d: %s (stream %lld task %lld%s)",
		   e->rank, hx_kind_name(d->ev->recs[rec].kind),
		   (long long)hx_dnum(d, rec, HX_F_STREAM, -1),
		   (long long)hx_dnum(d, rec, HX_F_TASK, -1), tt);
}

static bool try_chain(struct hangdx_diagnosis *d)
{
	int32_t end;
	bool cyc;
	const struct hx_rankinfo *e;
	char first[192], last[192];

	if (d->first_rank < 0)
		return false;
	d->verdict = HANGDX_V_HANG;
	end = follow_chain(d, d->first_rank, true, &cyc);
	e = &d->ranks[end];
	d->root_rank = end;
	if (cyc) {
		d->cat = HX_CAT_WAIT_CYCLE;
		d->root_rank = -1;      /* a cycle has no single root */
		snprintf(d->summary, sizeof d->summary,
			 _("Hang with a circular wait across ranks: following \"waits for\" from "
			 "rank %d comes back to rank %d. The device stream dumps needed to prove "
			 "it on the task level are missing."), d->first_rank, end);
		return true;
	}
	d->cat = e->first_err_rec == HX_NOREC ? HX_CAT_SILENT : HX_CAT_UNKNOWN;
	if (d->nhops == 0 && e->fail_rec != HX_NOREC)
		fail_hop(d, e);
	hx_rank_label(d, d->first_rank, first, sizeof first);
	hx_rank_label(d, end, last, sizeof last);
	if (end == d->first_rank)
		snprintf(d->summary, sizeof d->summary,
			 _("Hang: %s failed first, and its logs name no rank it waited "
			   "for. The cause on that rank is not in the logs."), first);
	else
		snprintf(d->summary, sizeof d->summary,
			 _("Hang: %s failed first; following the ranks each one waited "
			   "for leads to %s, which %s. The cause on that rank is not in "
			   "the logs."), first, last,
			 e->first_err_rec == HX_NOREC
			 ? _("logged no error at all (stuck or gone)")
			 : _("reports no further wait"));
	return true;
}

static bool retry_on(const char *env);
static bool any_failure(const struct hangdx_diagnosis *d);

/* The verdict of a pool held by resident kernels (try_pool_held,
 * try_pool_failed): inferred, best's rank the root. */
static void pool_deadlock(struct hangdx_diagnosis *d,
			  const struct hx_rankinfo *best)
{
	d->verdict = HANGDX_V_DEADLOCK;
	d->cat = HX_CAT_AICPU_DEADLOCK;
	d->proven = false;
	d->pool_held = true;
	d->root_rank = best->rank;
}

static void pool_hop(struct hangdx_diagnosis *d, const struct hx_rankinfo *best)
{
	hx_hop_add(d, best->rank, best->pool_rec, "", "rank%d AICPU pool: %u resident HCCL "
		   "kernels on %u cores, main streams not moving for %.0f s or more",
		   best->rank, best->pool_held, hx_rank_cores(d, best->rank),
		   (double)best->pool_held_us / 1e6);
	snprintf(d->hops[d->nhops - 1].kind, sizeof d->hops->kind, "AICPU_POOL");
}

/*
 * No error line yet, and on some rank every AICPU core held by a resident
 * HCCL kernel that still loops with its main stream unmoved between two of
 * its status lines (which only a resident kernel prints: op retry on).  No
 * ordinary AICPU operator can run there: the AICPU exhaustion deadlock,
 * inferred while the job runs (the TS dumps printed at HCCL_EXEC_TIMEOUT
 * would show what each main stream waits on).
 */
static bool try_pool_held(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *best = NULL;
	uint32_t r, n = 0;
	unsigned cores = 0;
	char where[512];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];

		if (!ri->pool_held || ri->pool_held < hx_rank_cores(d, r) || ri->pool_ahead)
			continue;
		if (ri->pool_peer >= 0 && (uint32_t)ri->pool_peer < d->nranks &&
		    d->ranks[ri->pool_peer].pool_held < hx_rank_cores(d, ri->pool_peer))
			continue;       /* a member that can still come: a stall */
		if (ri->pool_peer == HX_PEER_ABSENT)
			continue;       /* one whose logs are not here may as well */
		n++;
		if (d->local_cycle)
			d->local_cycle[r] = 1;
		if (!best) {
			best = ri;
			cores = hx_rank_cores(d, r);
		}
	}
	if (!best)
		return false;
	pool_deadlock(d, best);
	hx_dwhere(d, best->pool_rec, where, sizeof where);
	pool_hop(d, best);
	snprintf(d->assumption, sizeof d->assumption,
		 _("It assumes that what these kernels' ops wait on needs the AICPU (an "
		 "ordinary AICPU operator, as in the reference incident), not a peer that "
		 "is only slow: the stream dumps printed at HCCL_EXEC_TIMEOUT would show "
		 "it."));
	snprintf(d->summary, sizeof d->summary,
		 _("Deadlock, inferred, before any timeout: on %u rank%s every AICPU core is "
		 "held by a resident HCCL kernel (op retry on) whose main stream has not "
		 "moved between two of its 30-second status lines (rank %d: %u kernels on "
		 "%u cores, %s). No ordinary AICPU operator can run there, so a collective "
		 "that waits on one never ends. Inferred, not proven. %s"),
		 n, n == 1 ? "" : "s", best->rank, best->pool_held, cores, where,
		 d->assumption);
	return true;
}

/* The rank's first wait ran out on a notify HCCL says is recorded on this
 * rank ("remote rank:[local]", EI0002's 4294967295): nothing of a peer's
 * can release it. */
static bool wait_local(const struct hangdx_diagnosis *d,
		       const struct hx_rankinfo *ri)
{
	return ri->wait_rec != HX_NOREC && ri->wait_peer < 0 &&
	       ri->wait_crank < 0 && hx_remote_local(d, ri->wait_rec);
}

/*
 * A wait ran out and no stream dump is at hand, but on some rank every
 * AICPU core is held by a resident HCCL kernel whose main stream has not
 * moved between two of its 30-second status lines (op retry keeps them),
 * and that rank's first failure is a notify wait on a local notify: its
 * record never ran on the rank itself.  The AICPU exhaustion deadlock,
 * inferred: what the record waits behind is not in these logs.  Each such
 * rank is a root; a rank whose wait names a peer is a victim.
 */
static bool try_pool_failed(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *best = NULL;
	uint32_t r, n = 0;
	char where[512], first[512];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];

		if (!ri->pool_held || ri->pool_held < hx_rank_cores(d, r) ||
		    !wait_local(d, ri))
			continue;
		n++;
		if (d->local_cycle)
			d->local_cycle[r] = 1;
		if (!best || (int32_t)r == d->first_rank)
			best = ri;
	}
	if (!best)
		return false;
	pool_deadlock(d, best);
	hx_dwhere(d, best->wait_rec, first, sizeof first);
	hx_dwhere(d, best->pool_rec, where, sizeof where);
	hx_hop_add(d, best->rank, best->wait_rec, "", "rank%d: a notify wait on a local "
		   "notify ran out (stream %lld)", best->rank,
		   (long long)hx_dnum(d, best->wait_rec, HX_F_STREAM, -1));
	pool_hop(d, best);
	snprintf(d->assumption, sizeof d->assumption,
		 _("It assumes that the local notify's record waits behind an ordinary "
		 "AICPU operator that needs a core, as in the reference incident: no TS "
		 "stream dump is in these logs (the device logs' dumps printed at "
		 "HCCL_EXEC_TIMEOUT, ascend/log/debug/device-N/, would show the launching "
		 "stream and what it waits on)."));
	snprintf(d->summary, sizeof d->summary,
		 _("Deadlock, inferred: on %u rank%s every AICPU core is held by a resident "
		 "HCCL kernel (op retry on) whose main stream has not moved between two of "
		 "its 30-second status lines (rank %d: %u kernels on %u cores, %s), and the "
		 "first failure is a notify wait on a notify recorded on the rank itself "
		 "(%s): nothing of a peer's can release it, and no ordinary AICPU operator "
		 "can run there. Inferred, not proven. %s"),
		 n, n == 1 ? "" : "s", best->rank, best->pool_held,
		 hx_rank_cores(d, best->rank), where, first, d->assumption);
	return true;
}

/* No error line yet, but resident kernels whose main streams have not
 * moved for minutes: a job killed or still running before its timeout. */
static bool try_stalled(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *best = NULL;
	uint32_t r, n = 0;
	char where[512];

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (!ri->stalled)
			continue;
		n++;
		if (!best || ri->stalled > best->stalled)
			best = ri;
	}
	if (!best)
		return false;
	d->verdict = HANGDX_V_HANG;
	d->cat = HX_CAT_SILENT;
	d->root_rank = best->rank;
	hx_dwhere(d, best->stall_rec, where, sizeof where);
	hx_hop_add(d, best->rank, best->stall_rec, "",
		   "rank%d: %u HCCL kernels resident on AICPU cores, main streams not "
		   "moving for %.0f s", best->rank, best->stalled,
		   (double)best->stall_us / 1e6);
	snprintf(d->summary, sizeof d->summary,
		 _("Hang without an error line yet: on %u rank%s HCCL kernels sit on AICPU "
		 "cores while their main streams have not moved (rank %d: %u kernels, "
		 "%.0f s, %s). No timeout has fired, so no stream dump exists to prove "
		 "why.%s"), n, n == 1 ? "" : "s", best->rank, best->stalled,
		 (double)best->stall_us / 1e6, where,
		 best->stalled >= hx_rank_cores(d, best->rank) && retry_on(best->retry_env)
		 ? _(" With op retry on and as many resident kernels as AICPU cores this is "
		   "the AICPU-exhaustion pattern: no ordinary AICPU operator can run.")
		 : "");
	return true;
}

static bool try_silent(struct hangdx_diagnosis *d)
{
	uint32_t r;
	int64_t last = HX_NONE;

	for (r = 0; r < d->nranks; r++)
		if (d->ranks[r].last_ts != HX_NONE && d->ranks[r].last_ts > last)
			last = d->ranks[r].last_ts;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->stuck_rec == HX_NOREC)
			continue;
		d->verdict = HANGDX_V_HANG;
		d->cat = HX_CAT_SILENT;
		d->root_rank = ri->rank;
		hx_hop_add(d, ri->rank, ri->stuck_rec, "",
			   "rank%d: heartbeat reports STUCK (no op progress for a third of "
			   "HCCL_EXEC_TIMEOUT)", ri->rank);
		snprintf(d->summary, sizeof d->summary,
			 _("Hang without an error line yet: rank %d is reported STUCK by the HCCL "
			 "heartbeat; its last log line is %.1f s before the newest line of the "
			 "job."), ri->rank,
			 last != HX_NONE && ri->last_ts != HX_NONE
				 ? (double)(last - ri->last_ts) / 1e6 : 0.0);
		return true;
	}
	return false;
}

/* ---- console and start-up evidence: the outcome when no per-rank wait
 * chain decides it ---- */

static void plog_missing(struct hangdx_diagnosis *d)
{
	MISSING("the host plogs of every rank (~/ascend/log/debug/plog/plog-PID_*.log, "
		"or under ASCEND_PROCESS_LOG_PATH when it is set): they name the "
		"communicator, the op index and the peer of each wait");
	MISSING("the device logs (~/ascend/log/debug/device-N/): the TS stream dumps "
		"and AICPU lines that show what each stuck stream waits for; set "
		"ASCEND_GLOBAL_LOG_LEVEL=1 (INFO) before the run for the HCCL kernel "
		"lines");
}

/* Decide on one record: category, hang state, the record whose ids the
 * JSON shows, the summary.  fmt and what are English, marked N_(), and
 * translated here. */
/* The global rank a wait failure waited on, as its rank's analysis
 * mapped it (facts.c: through the communicator's members), -1 unknown:
 * the record's remote rank is a rank of its communicator. */
static int64_t wait_peer_of(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int32_t r = hx_drank(d, rec);

	if (r >= 0 && (uint32_t)r < d->nranks && d->ranks[r].wait_rec == rec)
		return d->ranks[r].wait_peer;
	return -1;
}

/* The rank that failed on rec: the one a framework's line named, else
 * the real rank rec is attributed to (not a pseudo rank), else -1. */
static int32_t fail_rank(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int32_t r;

	if (d->sig.named_rank >= 0)
		return (int32_t)d->sig.named_rank;
	r = rec != HX_NOREC ? hx_drank(d, rec) : -1;
	return r >= 0 && (uint32_t)r < d->pseudo_base ? r : -1;
}

static void field_set(struct hangdx_diagnosis *d, enum hx_cat cat, int hang,
		      uint32_t rec, int32_t root, const char *fmt, const char *what)
{
	char where[512];

	d->cat = cat;
	d->hang = hang;
	d->verdict = hang == 0 ? HANGDX_V_NO_HANG : HANGDX_V_HANG;
	d->id_rec = rec;
	d->by_signals = true;
	d->root_rank = root;
	d->nhops = 0;
	hx_dwhere(d, rec, where, sizeof where);
	snprintf(d->summary, sizeof d->summary, _(fmt), _(what), where);
	hx_hop_add(d, root >= 0 ? root : -1, rec, "", "%s", _(what));
}

static const char *fault_name(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row;

	switch (hx_rec_sdma_fault(d, rec)) {
	case 2:
		return N_("an FFTS+ SDMA error on the device");
	case 1:
		return N_("a device DMA (SDMA) error");
	default:
		break;
	}
	/* a row of class lost that is no heartbeat: a device absent, a
	 * process gone (ENODEV, DRV_ERROR_PROCESS_EXIT) */
	row = hx_rec_row(d, rec);
	if (row && !strstr(row->name, "HEARTBEAT") && !strstr(row->name, "eartbeat"))
		return N_("the loss of a device, a process or a link the job needs");
	return N_("the loss of the device (task scheduler heartbeat lost)");
}

/* What to change after an SDMA copy's exception (the HCCL guide's
 * sdma_error_EI0012.md). */
static void sdma_fix(struct hangdx_diagnosis *d)
{
	FIX("An SDMA copy of a collective missed its page table (EI0012): its "
	    "input or output buffer was not allocated, was smaller than count, or "
	    "was freed first (a communicator destroyed before a stream "
	    "synchronize saw its last op end: grep Entry-HcclCommDestroy in the "
	    "run plogs); on Atlas A3 a fault of the link between the two ends "
	    "also does this.");
}

/* A fault of the vocabulary's class "lost" that names a link or the peer
 * (an error CQE, a link, a transfer, a remote, a connection, a pipe, the
 * network or the peer's host), not the device itself. */
static bool link_fault(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);
	static const char *const words[] = { "CQE", "LINK", "TRANSFER", "REMOTE",
					     "SOCKET", "PORT", "CONN", "PIPE",
					     "NET", "HOST" };
	size_t i;

	if (!row || row->cls != HX_VC_LOST || !row->name)
		return false;
	for (i = 0; i < sizeof words / sizeof *words; i++)
		if (strstr(row->name, words[i]))
			return true;
	return false;
}

static bool has_desc(const struct hangdx_diagnosis *d, uint32_t rec,
		     const char *lit)
{
	const char *e = hx_dstr(d, rec, HX_F_ERR_DESC);

	return e && strstr(e, lit);
}

static const char *not_hang_name(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *w = hx_dstr(d, rec, HX_F_WHAT), *c = hx_dstr(d, rec, HX_F_CODE);
	const char *rc = hx_rec_code(d, rec);

	if ((w && strcmp(w, "out_of_memory") == 0) || (c && strcmp(c, "EL0004") == 0) ||
	    (rc && strcmp(rc, "207001") == 0))
		return N_("out of device memory");
	if ((w && strcmp(w, "hccp_init") == 0) || (c && strcmp(c, "EJ0001") == 0))
		return N_("a failed start of the HCCP process (a previous job may still "
		          "hold the device)");
	if ((w && strcmp(w, "not_supported") == 0) || (c && strcmp(c, "EZ3003") == 0))
		return N_("an operator that is not supported");
	if ((w && strcmp(w, "device_id") == 0) || (c && strcmp(c, "EE1001") == 0) ||
	    has_desc(d, rec, "device id"))
		return N_("an invalid device id");
	if (w && strcmp(w, "init_failed") == 0)
		return N_("a failed communicator initialisation");
	if (w && strcmp(w, "hccl_test_check") == 0)
		return N_("a collective whose result did not check (hccl_test: it "
			  "completed with wrong data)");
	return N_("a failed operator call (aclnn error; check that the CANN, driver "
	          "and framework versions match)");
}

static void not_hang_fix(struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *what = not_hang_name(d, rec);

	if (strncmp(what, "out of", 6) == 0)
		FIX("Lower the device memory the job needs (batch size, sequence "
		    "length, the memory fraction a server reserves) or spread it over "
		    "more devices; PYTORCH_NPU_ALLOC_CONF (max_split_size_mb) helps "
		    "when reserved memory is much larger than allocated.");
	else if (strncmp(what, "a failed start of the HCCP", 26) == 0)
		FIX("Stop the process that still holds the device (npu-smi info lists "
		    "it), wait about 10 s, then start again.");
	else if (strncmp(what, "a collective whose result", 25) == 0)
		FIX("Find the link that corrupts data: run hccl_test between pairs of "
		    "ranks, check each NPU's links and optical modules (hccn_tool -i N "
		    "-link -g, -optical -g) and their error counters (-stat -g).");
	else if (strncmp(what, "a failed operator", 17) == 0)
		FIX("Check that the CANN toolkit, the driver and the framework plugin "
		    "(torch_npu, vllm-ascend) are versions made for each other.");
}

/* The record's row of the tables comes from source id. */
static bool row_source(const struct hangdx_diagnosis *d, uint32_t rec,
		       const char *id)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);

	return row && strcmp(hx_vocab_source(row)->id, id) == 0;
}

static const char *stopped_name(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *w = hx_dstr(d, rec, HX_F_WHAT), *c = hx_rec_code(d, rec);

	if (w && strcmp(w, "hccl_watchdog") == 0)
		return N_("the framework's HCCL watchdog thread ended with an exception");
	if ((w && strcmp(w, "aicpu_exception") == 0) ||
	    (c && strcmp(c, "507018") == 0) || has_desc(d, rec, "aicpu exception"))
		return N_("an AICPU exception (507018)");
	if ((c && strcmp(c, "507011") == 0) ||
	    has_desc(d, rec, "model stream execute failed"))
		return N_("a failed model stream (507011: a task of the stream failed)");
	if (row_source(d, rec, "adxl_types"))
		return N_("a failed call of ADXL, the KV cache transfer engine (503900)");
	if (w && strcmp(w, "exited") == 0)
		return N_("a device synchronize that failed, its code not in the text "
			  "(it reports a task's timeout as often as an exception)");
	return N_("a device error");
}

/* A set-up wait at torch.distributed's store (c10d's socket and
 * TCPStore rows of the tables), not at HCCL's own links. */
static bool store_wait(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);
	const char *src = row ? hx_vocab_source(row)->id : NULL;

	if (hx_rec_store_text(d, rec))
		return true;    /* the store's own exception or name */
	return src && (strcmp(src, "torch_socket") == 0 ||
		       strncmp(src, "torch_tcpstore", 14) == 0 ||
		       strcmp(src, "pta_tcpstore") == 0 ||
		       strcmp(src, "torch_c10d_py") == 0);
}

/* A line of its own that a connection timed out (no inner error's
 * block, no HCCL module), or a framework's row of a set-up wait (vLLM's
 * front end waiting for its engines): a client's words, not HCCL's. */
static bool client_connect(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	const char *m = r->module != HX_NOSTR ? hx_ev_str(d->ev, r->module) : NULL;
	const struct hx_vocab *row = hx_rec_row(d, rec);

	return (r->kind == HX_K_TIMEOUT_TEXT ||
		(row && row->family == HX_VF_FRAMEWORK)) &&
	       hx_dnum(d, rec, HX_F_PARENT_LINE, -1) < 0 &&
	       !(m && strcasecmp(m, "HCCL") == 0);
}

/* A line of the tables that says something failed: a stall report is
 * then no silent hang (the failure is told, or its hang not determined);
 * an error line no table knows may be the stall's consequence. */
static bool error_line(const struct hx_signals *s)
{
	return s->stopped != HX_NOREC || s->coded_fail != HX_NOREC ||
	       s->not_hang != HX_NOREC || s->device_fault != HX_NOREC;
}

/* The hang families, strongest first; with a wait chain across ranks
 * already found, only those that name the kind of wait better. */
static bool field_hang(struct hangdx_diagnosis *d, bool chain)
{
	const struct hx_signals *s = &d->sig;

	if (s->connect != HX_NOREC && !chain && store_wait(d, s->connect)) {
		field_set(d, HX_CAT_CONNECT, 1, s->connect, (int32_t)s->missing_rank,
			  N_("Hang at connection set-up: %s (%s). A process waited for the "
			     "others at torch.distributed's store (its rendezvous) until the "
			     "store's timeout fired (30 minutes by default)."),
			  N_("a process did not reach the store in time"));
		FIX("Find the process that never reached the store: whether it started, "
		    "whether it can reach MASTER_ADDR:MASTER_PORT (firewall, the interface "
		    "it binds), and whether it stopped earlier on an error of its own; "
		    "its console or plog tells.");
		return true;
	}
	if (s->connect != HX_NOREC && !chain && row_source(d, s->connect,
							    "ms_collective_comm_lib")) {
		field_set(d, HX_CAT_CONNECT, 1, s->connect, (int32_t)s->missing_rank,
			  N_("Hang at connection set-up: %s (%s). A process waited for its "
			     "group's root rank to publish the communicator's unique id at "
			     "MindSpore's meta server until every retry of QueryUniqueID ran "
			     "out."),
			  N_("a group's root rank never published its unique id"));
		FIX("Read the log of the group's root rank (the line names it): whether it "
		    "exited or stopped on an error of its own before it created the "
		    "communicator, or was still compiling when the others gave up.");
		return true;
	}
	if (s->connect != HX_NOREC && !chain && client_connect(d, s->connect)) {
		field_set(d, HX_CAT_CONNECT, 1, s->connect, -1,
			  N_("Hang at connection set-up: %s (%s). A client waited to "
			     "connect to a peer or a service until its own timeout fired; "
			     "the line names no HCCL communicator."),
			  N_("a connection was not made in time"));
		FIX("Find the peer or service the line names (its host and port): whether "
		    "it runs, listens there and can be reached from this host (firewall, "
		    "the interface it binds); raise the client's timeout if it starts "
		    "late.");
		return true;
	}
	if (s->connect != HX_NOREC && !chain) {
		field_set(d, HX_CAT_CONNECT, 1, s->connect, (int32_t)s->missing_rank,
			  N_("Hang at connection set-up: %s (%s). The ranks waited for a peer "
			     "that never connected until HCCL_CONNECT_TIMEOUT fired."),
			  s->missing_rank >= 0 ? N_("a rank never joined the root-info exchange")
					       : N_("a link was not established in time"));
		FIX("Find out why the rank that never connected did not start or could "
		    "not reach the others: its process, its network, HCCL_IF_IP / "
		    "HCCL_SOCKET_IFNAME, a port already in use, and the start skew "
		    "between ranks (raise HCCL_CONNECT_TIMEOUT if a rank starts late).");
		return true;
	}
	if (s->fftsplus != HX_NOREC) {
		field_set(d, HX_CAT_FFTS, 1, s->fftsplus, -1,
			  N_("Hang in a collective run as an FFTS+ task: %s (%s); its notify "
			     "waits did not complete before HCCL_EXEC_TIMEOUT."),
			  N_("an HCCL FFTS+ task timed out"));
		FIX("Find the rank that did not reach this collective: compare the "
		    "plogs of all ranks at the time of the timeout (the stuck notify "
		    "ids name the waits that never completed).");
		return true;
	}
	if (s->event_wait != HX_NOREC) {
		field_set(d, HX_CAT_EVENT_CHAIN, 1, s->event_wait, -1,
			  N_("Hang in an event-wait chain: %s (%s); the stream that records "
			     "that event did not get there before the timeout."),
			  N_("a stream waited for an event until the timeout"));
		FIX("Find what held the recording side: a long step on one rank (an "
		    "evaluation, a checkpoint) longer than HCCL_EXEC_TIMEOUT makes the "
		    "others time out; raise the timeout or keep all ranks in step.");
		return true;
	}
	if (s->watchdog != HX_NOREC) {
		field_set(d, HX_CAT_COLLECTIVE, 1, s->watchdog, (int32_t)s->behind_rank,
			  N_("Hang in a collective: %s (%s)."), s->behind_rank >= 0
			  ? N_("the framework watchdog timed out a collective; the rank "
			       "with the smallest SeqNum is behind the others")
			  : N_("the framework watchdog timed out a collective"));
		FIX("Look at what the rank that is behind did before that collective "
		    "(its compute, its input, an exception on that rank alone).");
		return true;
	}
	if (chain)      /* the chain across ranks says more than these */
		return false;
	if (s->notify_wait != HX_NOREC) {
		field_set(d, HX_CAT_UNKNOWN, 1, s->notify_wait,
			  (int32_t)wait_peer_of(d, s->notify_wait),
			  N_("Hang: %s (%s)."), N_("a notify wait timed out"));
		return true;
	}
	if (s->aicpu_timeout != HX_NOREC || s->dev_timeout != HX_NOREC) {
		bool aicpu = s->aicpu_timeout != HX_NOREC;
		uint32_t rec = aicpu ? s->aicpu_timeout : s->dev_timeout;

		field_set(d, aicpu ? HX_CAT_AICPU_TIMEOUT : HX_CAT_DEVICE_TIMEOUT, 1, rec,
			  fail_rank(d, rec),
			  N_("Hang on the device without a collective: %s (%s)."),
			  aicpu ? N_("an AICPU operator ran past its time limit")
			  : N_("an AI Core task timed out"));
		return true;
	}
	if (s->timeout != HX_NOREC) {
		int64_t st = hx_dnum(d, s->timeout, HX_F_STREAM, -1), nt = -1, tk = -1;

		/* the runtime's line beside it: the task the stream stopped at */
		if (st >= 0) {
			nt = hx_rec_id_near(d, s->timeout, HX_F_NOTIFY_RT, st);
			tk = hx_rec_id_near(d, s->timeout, HX_F_TASK, st);
		}
		field_set(d, HX_CAT_OTHER, 1, s->timeout, -1, nt >= 0 && tk >= 0
			  ? N_("Hang: %s (%s); the task the stream stopped at waits on a "
			       "notify, another stream's or rank's record that did not come. "
			       "A rank that is still busy (data loading, evaluation) while "
			       "the others wait in a collective does this.")
			  : N_("Hang: %s (%s); the text does not show what the stream waited "
			       "for. A rank that is still busy (data loading, evaluation) "
			       "while the others wait in a collective does this."),
			  N_("a stream or device synchronisation timed out"));
		if (nt >= 0 && tk >= 0)
			FACT("The line beside it names task %lld of stream %lld and notify "
			     "%lld.", (long long)tk, (long long)st, (long long)nt);
		return true;
	}
	if (s->stall != HX_NOREC && !error_line(s)) {
		field_set(d, HX_CAT_SILENT, 1, s->stall, -1,
			  N_("Hang without an error line: %s (%s); some worker stopped "
			     "taking work and no error says why."),
			  N_("the vLLM engine found no free shared-memory broadcast block "
			     "for 60 s"));
		FACT("%u stall report%s in the logs, and no error line.", s->nstall,
		     s->nstall == 1 ? "" : "s");
		stacks_fix(d);
		return true;
	}
	return false;
}

static void quote_set(struct hangdx_diagnosis *d, uint32_t rec,
		      const char *fmt);

/* What to change for a failure of a class of the vendor's tables. */
static void coded_fix(struct hangdx_diagnosis *d, const struct hx_vocab *row)
{
	switch (row ? row->cls : HX_VC_UNKNOWN) {
	case HX_VC_DEVICE_EXCEPTION:
		FIX("An operator or its inputs faulted on the device: find the operator "
		    "(the device log's exception dump, or ASCEND_LAUNCH_BLOCKING=1 to make "
		    "the failing call report itself), check its shapes, dtypes and "
		    "addresses, and the CANN and driver versions it was built for.");
		break;
	case HX_VC_RESOURCE:
		FIX("A device resource ran out (memory, streams, events): lower the "
		    "batch or the sequence length, free what other processes hold "
		    "(npu-smi info), or raise the limit that was hit.");
		break;
	case HX_VC_PARAMETER:
		FIX("A call was given an argument, a configuration or a version it does "
		    "not accept: the message names it; check the environment variables, "
		    "the rank table and that CANN, the driver, torch_npu and the "
		    "framework are versions made to work together.");
		break;
	default:
		break;
	}
}

/* A row's meaning without its message's arguments: the sentences before
 * the first "%s" of an error-manager template, else the template with
 * each argument as "...". */
static const char *meaning(const struct hx_vocab *row, char *buf, size_t n)
{
	const char *m = row->meaning, *pct = strchr(m, '%'), *end = NULL, *p;
	size_t k = 0;

	if (!pct)
		return m;
	for (p = m; p < pct; p++)
		if (*p == '.' && p[1] == ' ')
			end = p + 1;
	if (end) {
		snprintf(buf, n, "%.*s", (int)(end - m), m);
		return buf;
	}
	for (p = m; *p && k + 4 < n; p++) {
		if (p[0] == '%' && p[1] == 's') {
			memcpy(buf + k, "...", 3);
			k += 3;
			p++;
		} else {
			buf[k++] = *p;
		}
	}
	buf[k] = '\0';
	return buf;
}

/* What the record rec says its row means: the log's own message when it is
 * the row's template with its arguments filled in (the line holds its
 * words up to the first argument, at least 8 of them, or its first 24,
 * another version's wording after them: "… inconsistent between
 * ranks:parameter count, local end 16512, remote end 8320"; a quote the
 * record cut loses its last word, which may be a part), else the row's
 * meaning without its arguments. */
static const char *said(const struct hangdx_diagnosis *d, uint32_t rec,
			const struct hx_vocab *row, char *buf, size_t n)
{
	const char *m = row->meaning, *pct = strchr(m, '%');
	const char *t = rec != HX_NOREC ? hx_dstr(d, rec, HX_F_TEXT) : NULL;
	size_t head = pct ? (size_t)(pct - m) : 0, k = 0, len;

	while (head > 0 && (m[head - 1] == ' ' || m[head - 1] == ',' ||
			    m[head - 1] == ':' || m[head - 1] == '['))
		head--;
	if (!t || head < 8)
		return meaning(row, buf, n);
	while (k < head && t[k] == m[k])
		k++;
	if (k < head && k < 24)
		return meaning(row, buf, n);
	k = len = strlen(t);
	if (len >= HX_QUOTE_MAX) {      /* cut: its last word may be a part */
		while (k > head && t[k - 1] != ' ' && t[k - 1] != ',')
			k--;
		while (k > head && (t[k - 1] == ' ' || t[k - 1] == ','))
			k--;
	}
	snprintf(buf, n, "%.*s%s", (int)k, t, k < len ? " ..." : "");
	return buf;
}

/* A failure named by a code of the vendor's tables. */
static void coded_failure(struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);
	const char *t = hx_dstr(d, rec, HX_F_ERR_DESC);
	const char *cls = hx_dstr(d, rec, HX_F_WHAT);
	char what[400], mb[256];

	if (!t)
		t = hx_dstr(d, rec, HX_F_TEXT);
	if (row && hx_rec_hccl_api(d, rec))
		snprintf(what, sizeof what, _("HCCL's %s returning %s (%s %s, %s)"),
			 hx_dstr(d, rec, HX_F_OP) ? hx_dstr(d, rec, HX_F_OP) : "call",
			 said(d, rec, row, mb, sizeof mb), row->key, row->name,
			 hx_vocab_class_id(row->cls));
	else if (row && row->family == HX_VF_AICPU)
		snprintf(what, sizeof what, _("an AICPU kernel that returned \"%s\" "
					      "(errcode %s %s, %s)"),
			 said(d, rec, row, mb, sizeof mb), row->key, row->name,
			 hx_vocab_class_id(row->cls));
	else if (row)
		snprintf(what, sizeof what, "%s (%s %s, %s)",
			 said(d, rec, row, mb, sizeof mb), row->key, row->name,
			 hx_vocab_class_id(row->cls));
	else if (cls && strcmp(cls, "aicpu_error") == 0)
		snprintf(what, sizeof what, _("an AICPU kernel that returned error code "
					      "%s, which no table calls a timeout "
					      "(\"%.160s\")"),
			 hx_rec_code(d, rec) ? hx_rec_code(d, rec) : "?", t ? t : "");
	else if (cls && strcmp(cls, "parameter") == 0)
		snprintf(what, sizeof what, _("an argument or configuration that is not "
					      "accepted (\"%.160s\")"), t ? t : "");
	else if (cls && strcmp(cls, "resource") == 0 && t && !strstr(t, "emory") &&
		 !strstr(t, "EMORY"))
		snprintf(what, sizeof what, _("a resource that could not be allocated "
					      "(\"%.160s\")"), t);
	else if (cls && strcmp(cls, "resource") == 0)
		snprintf(what, sizeof what, _("out of memory (\"%.160s\")"), t ? t : "");
	else
		snprintf(what, sizeof what, _("a device exception (\"%.160s\")"),
			 t ? t : "");
	if (any_wait_ran_out(d))        /* a timeout in the text: never "no hang" */
		field_set(d, HX_CAT_OTHER, -1, rec, fail_rank(d, rec),
			  N_("Failure, hang not determined: the job stopped on %s at "
			     "%s, and a wait ran out after it, most likely its "
			     "consequence: a hang is not ruled out."), what);
	else            /* an SDMA copy's exception is a device fault ("other") */
		field_set(d, hx_rec_sdma_fault(d, rec) ? HX_CAT_OTHER : HX_CAT_NOT_HANG,
			  0, rec, fail_rank(d, rec),
			  N_("Not a hang: the job stopped on %s at %s; it failed at once, "
			     "no wait between ranks ran out."), what);
	if (hx_rec_aicpu_exception(d, rec) && !any_wait_ran_out(d))
		FACT("No line names HCCL, a second rank or a synchronize with a timeout "
		     "of its own: the AICPU exception is taken for the exception of an "
		     "operator's own kernel, not of an HCCL kernel that waited.");
	if (row && hx_rec_hccl_init(d, rec))
		FIX("Creating the communicator failed in HCCL on this rank, before any "
		    "collective ran: the plog of that process holds HCCL's own ERROR lines "
		    "that say why; check that every rank calls it with the same rank count "
		    "and root info, that HCCL_IF_IP / HCCL_SOCKET_IFNAME name a reachable "
		    "interface, that the ports (HCCL_IF_BASE_PORT, 60000 up) are free, and "
		    "that each process uses a device of its own.");
	else if (hx_rec_sdma_exception(d, rec))
		sdma_fix(d);
	else if (row)
		coded_fix(d, row);
	else
		coded_fix(d, hx_vocab_key(cls && strcmp(cls, "parameter") == 0 ? "100000"
					  : cls && strcmp(cls, "resource") == 0 ? "207001"
					  : "507015"));
}

/* A set-up failure that says its port or address was taken, or that a
 * listen or bind on it failed: it returned at once (the OS's EADDRINUSE,
 * errno 98, HCCP's EJ0003, HCCL's "listen on ip[..] and specific
 * port[..] fail ... being used by other process"). */
static bool port_taken(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *t = hx_dstr(d, rec, HX_F_TEXT), *c = hx_dstr(d, rec, HX_F_CODE);

	return (c && (strcmp(c, "EJ0003") == 0 || strcmp(c, "EI0019") == 0)) ||
	       (t && (strstr(t, "already in use") || strstr(t, "errno: 98") ||
		      strstr(t, "Address already") || strstr(t, "failed to listen") ||
		      strstr(t, "already bound") || strstr(t, "already been bound") ||
		      strstr(t, "being used by") ||
		      ((strstr(t, "listen on") || strstr(t, "bind ")) &&
		       strstr(t, " fail"))));
}

/* A set-up failure of an API that returns a status per call (LLM-DataDist's
 * link_clusters returns LLM_LINK_FAILED in its per-cluster results; its
 * timeouts have codes of their own): the caller got the failure back. */
static bool returned_status(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return hx_row_returned(hx_rec_row(d, rec));
}

/* a comes before b and c (absent ones aside) in reading order */
static bool first_of(const struct hangdx_diagnosis *d, uint32_t a, uint32_t b,
		     uint32_t c)
{
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		if (rec == a)
			return true;
		if (rec == b || rec == c)
			return false;
	}
	return false;
}

/* A stall report (vLLM's shared-memory broadcast waiting 60 s) before
 * the failure rec in reading order: the job waited before it failed. */
static bool stalled_before(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return d->sig.stall != HX_NOREC && rec != HX_NOREC &&
	       first_of(d, d->sig.stall, rec, HX_NOREC);
}

/* Failures that are not hangs, and failures that do not say. */
static bool field_failure(struct hangdx_diagnosis *d)
{
	const struct hx_signals *s = &d->sig;

	/* a coded failure speaks first only when it is the earliest */
	if (s->coded_fail != HX_NOREC &&
	    first_of(d, s->coded_fail, s->not_hang, s->device_fault)) {
		coded_failure(d, s->coded_fail);
		return true;
	}

	if (s->not_hang != HX_NOREC) {
		field_set(d, HX_CAT_NOT_HANG, 0, s->not_hang, fail_rank(d, s->not_hang),
			  N_("Not a hang: the job stopped on %s at %s."),
			  not_hang_name(d, s->not_hang));
		not_hang_fix(d, s->not_hang);
		return true;
	}
	if (s->device_fault != HX_NOREC && link_fault(d, s->device_fault)) {
		int32_t open;
		uint32_t seen, ended = ranks_ended(d, &seen, &open);

		field_set(d, HX_CAT_OTHER, 0, s->device_fault, fail_rank(d, s->device_fault),
			  seen && ended == seen
			  ? N_("Not a hang: %s at %s, and every rank's logs then run to a "
			       "normal end (HCCL op retry, when on, retries such a failure).")
			  : N_("Not a hang: the job stopped on %s at %s; no wait between "
			       "ranks ran out."),
			  N_("a link error or a lost peer (an error CQE, a link down, a "
			     "transfer to the peer failed)"));
		FIX("Check the links between the servers named (hccn_tool -i N -link -g, "
		    "-net_health -g) and whether the peer process exited first.");
		return true;
	}
	if (s->device_fault != HX_NOREC) {
		field_set(d, HX_CAT_OTHER, 0, s->device_fault, fail_rank(d, s->device_fault),
			  N_("Not a hang: the job stopped on %s at %s. This is a fault of "
			     "the device itself, not a wait between ranks."),
			  fault_name(d, s->device_fault));
		FIX("Check the device health (npu-smi info, the device logs under "
		    "~/ascend/log/debug/device-N/) before running again.");
		return true;
	}
	if (s->connect_fail != HX_NOREC && port_taken(d, s->connect_fail) &&
	    !any_wait_ran_out(d)) {
		field_set(d, HX_CAT_NOT_HANG, 0, s->connect_fail, -1,
			  N_("Not a hang: the job stopped at set-up on %s at %s; it failed "
			     "at once."), N_("a port or address already in use"));
		FIX("Stop the process that still holds the port (a job before this one, "
		    "another job on the node), or give this job other ports "
		    "(MASTER_PORT, HCCL_IF_BASE_PORT).");
		return true;
	}
	if (s->connect_fail != HX_NOREC && returned_status(d, s->connect_fail) &&
	    !any_wait_ran_out(d)) {
		const struct hx_vocab *row = hx_rec_row(d, s->connect_fail);
		char what[400], mb[256];

		snprintf(what, sizeof what, "%s (%s, %s)",
			 said(d, s->connect_fail, row, mb, sizeof mb), row->key,
			 hx_vocab_class_id(row->cls));
		field_set(d, HX_CAT_NOT_HANG, 0, s->connect_fail, -1,
			  N_("Not a hang: the job stopped at set-up on %s at %s; the call "
			     "returned the failure to its caller, no wait between ranks ran "
			     "out."), what);
		FIX("Check the network between the two clusters (the device IPs of "
		    "both rank tables, that the remote side listens), then link again.");
		return true;
	}
	if (s->connect_fail != HX_NOREC) {
		field_set(d, HX_CAT_CONNECT, -1, s->connect_fail, -1,
			  N_("Failure at connection set-up: %s (%s). Whether the peer hung "
			     "or failed first cannot be told from this text."),
			  N_("a link to a peer could not be created"));
		return true;
	}
	if (s->link_fail != HX_NOREC) {
		field_set(d, HX_CAT_LINK, 0, s->link_fail, -1,
			  N_("Not a hang as far as this text shows: the job stopped on %s at %s."),
			  N_("a failed connection to a peer device"));
		return true;
	}
	/* an exception that ends a process after a failure that does not
	 * say whether a wait caused it (507011) says no more than that one */
	if (s->exited != HX_NOREC && d->fault_first && s->stopped == HX_NOREC) {
		field_set(d, HX_CAT_NOT_HANG, 0, s->exited, fail_rank(d, s->exited),
			  "%s%s", N_("a process ended on an exception"));
		quote_set(d, s->exited,
			  N_("Not a hang: a process ended on an exception at %s: \"%s\"; "
			     "no line before it says that a wait ran out."));
		FIX("Fix the exception the traceback ends with; the lines before it "
		    "(an error-manager block, an error code) say what failed.");
		return true;
	}
	if (s->stopped != HX_NOREC) {
		const struct hx_vocab *row = hx_rec_row(d, s->stopped);
		char mb[256];

		/* a framework's line that says its cause is elsewhere */
		field_set(d, HX_CAT_OTHER, -1, s->stopped, fail_rank(d, s->stopped),
			  N_("Failure, hang not determined: %s (%s). The text does not say "
			     "whether a wait on another rank caused it."),
			  row && row->family == HX_VF_FRAMEWORK
			  ? said(d, s->stopped, row, mb, sizeof mb)
			  : stopped_name(d, s->stopped));
		return true;
	}
	return false;
}

/*
 * A failure that stops a job at once (a device exception, memory, a bad
 * argument: the vendor's tables or the failure families) that comes
 * before every wait that ran out is the cause, and the waits that ran out
 * after it (a watchdog, a peer's timeout) are its consequence.  "Before"
 * is the reading order of the records (file, line), which is time order
 * within a file.
 */
static bool any_wait_ran_out(const struct hangdx_diagnosis *d)
{
	const struct hx_signals *s = &d->sig;

	return s->timeout != HX_NOREC || s->dev_timeout != HX_NOREC ||
	       s->aicpu_timeout != HX_NOREC ||
	       s->notify_wait != HX_NOREC || s->fftsplus != HX_NOREC ||
	       s->event_wait != HX_NOREC || s->watchdog != HX_NOREC ||
	       s->timeout_text != HX_NOREC || s->connect != HX_NOREC;
}

/*
 * A wait that ran out a minute or more after the fault (by the clock of
 * the lines): the job did not stop at the fault, it waited on what the
 * fault left undone until a timeout fired (a data pipeline that died, a
 * device that waited for its data).  That wait is a hang the fault
 * caused, not an echo of it (a watchdog reports a fault within seconds).
 * So is a wait whose own limit says it began a minute or more before the
 * fault: the job was already stuck when the fault came.
 */
static bool waited_after(const struct hangdx_diagnosis *d, uint32_t fault,
			 const uint32_t *wait, size_t nwait)
{
	int64_t ft = rec_ts(d, fault);
	size_t j;

	if (ft == HX_NONE)
		return false;
	for (j = 0; j < nwait; j++) {
		int64_t wt = rec_ts(d, wait[j]);
		int64_t lim = wait[j] == HX_NOREC ? -1
			      : hx_dnum(d, wait[j], HX_F_TIMEOUT_MS, -1);

		if (wt != HX_NONE && wt - ft >= HX_ECHO_US)
			return true;
		/* a wait that ran out at its limit (an event wait's
		 * "timeout=1868") began that long before its report: a minute
		 * or more before the fault, it was no echo of it */
		if (wt != HX_NONE && lim > 0 && lim <= INT64_MAX / 1000 &&
		    ft - (wt - lim * 1000) >= HX_ECHO_US)
			return true;
	}
	return false;
}

static bool trap_text(const char *t)
{
	return t && strstr(t, "timeout or trap");
}

/* An HCCL call's returned code (an HcclResult) or a runtime code, with
 * the error manager's block that explains it right under it (the same
 * file, the next few lines), where that block says a wait ran out ("OPS
 * function error: HcclAllgather, error code is 6" then "EI0006: ...
 * Getting socket times out"; "SetDevice ... 507033" then "E39007:
 * Starting a subprocess on the device timed out"): the call returned
 * because of that wait. */
static bool code_of_wait(const struct hangdx_diagnosis *d, uint32_t fault,
			 const uint32_t *wait, size_t nwait)
{
	const struct hx_vocab *row = hx_rec_row(d, fault);
	const struct hx_rec *f = &d->ev->recs[fault];
	size_t j;

	if (!row || (row->family != HX_VF_HCCL && row->family != HX_VF_RUNTIME))
		return false;
	for (j = 0; j < nwait; j++) {
		const struct hx_rec *w;

		if (wait[j] == HX_NOREC)
			continue;
		w = &d->ev->recs[wait[j]];
		if (w->file == f->file && w->line > f->line &&
		    w->line - f->line <= HX_EXPLAIN_LINES)
			return true;
	}
	return false;
}

static bool fault_first(const struct hangdx_diagnosis *d)
{
	const struct hx_signals *s = &d->sig;
	const uint32_t fault[] = { s->coded_fail, s->not_hang, s->device_fault };
	const uint32_t wait[] = { s->timeout, s->dev_timeout, s->aicpu_timeout,
				  s->notify_wait,
				  s->fftsplus, s->event_wait, s->watchdog,
				  s->timeout_text, s->connect, s->lost };
	size_t i, j;

	if (s->exited != HX_NOREC && s->coded_fail == HX_NOREC &&
	    s->not_hang == HX_NOREC && s->device_fault == HX_NOREC) {
		/* a process that ended on an exception says nothing of time
		 * (Python prints the exception before the vendor's block that
		 * explains it): it decides only where no wait ran out at all */
		for (j = 0; j < sizeof wait / sizeof wait[0]; j++)
			if (wait[j] != HX_NOREC)
				return false;
		return true;
	}
	if (s->coded_fail == HX_NOREC && s->not_hang == HX_NOREC &&
	    s->device_fault == HX_NOREC)
		return false;
	/* an HCCL call that returned because creating its communicator ran
	 * out of time (EI0015 "... within the timeout period" beside it):
	 * the set-up wait decides */
	if (s->connect != HX_NOREC && s->coded_fail != HX_NOREC &&
	    hx_rec_hccl_init(d, s->coded_fail) && s->not_hang == HX_NOREC &&
	    s->device_fault == HX_NOREC)
		return false;
	if (s->coded_fail != HX_NOREC && s->not_hang == HX_NOREC &&
	    s->device_fault == HX_NOREC &&
	    code_of_wait(d, s->coded_fail, wait, sizeof wait / sizeof wait[0]))
		return false;
	/* the device's own extend info of an exception ("errorStr: timeout
	 * or trap error") says the core ran out of time: the exception
	 * before it is that wait, not a fault of its own */
	for (j = 0; j < sizeof wait / sizeof wait[0]; j++)
		if (wait[j] != HX_NOREC && (trap_text(hx_dstr(d, wait[j], HX_F_TEXT)) ||
					    trap_text(hx_dstr(d, wait[j], HX_F_ERR_DESC))))
			return false;
	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		for (j = 0; j < sizeof wait / sizeof wait[0]; j++)
			if (wait[j] == rec)
				return false;
		for (j = 0; j < sizeof fault / sizeof fault[0]; j++)
			if (fault[j] == rec)
				return !waited_after(d, rec, wait,
						     sizeof wait / sizeof wait[0]);
	}
	return false;
}

/* After the per-rank analysis: refine its category from the console
 * signals, or decide from them when it found nothing. */
static void try_field(struct hangdx_diagnosis *d)
{
	const struct hx_signals *s = &d->sig;

	if (d->verdict != HANGDX_V_NO_HANG) {
		const struct hx_rankinfo *f = d->first_rank >= 0
			? &d->ranks[d->first_rank] : NULL;

		uint32_t id = f && f->wait_rec != HX_NOREC ? f->wait_rec
			      : f && f->fail_rec != HX_NOREC ? f->fail_rec
			      : s->notify_wait != HX_NOREC ? s->notify_wait
			      : s->fftsplus != HX_NOREC ? s->fftsplus
			      : s->event_wait != HX_NOREC ? s->event_wait : s->connect;

		if (id != HX_NOREC)     /* else the ids the verdict took */
			d->id_rec = id;
	}
	if (d->cat == HX_CAT_LINK && d->sig.connect != HX_NOREC) {
		d->cat = HX_CAT_CONNECT;
		d->id_rec = d->sig.connect;
		if (d->root_rank < 0 && d->sig.missing_rank >= 0) {
			char where[512];

			d->root_rank = (int32_t)d->sig.missing_rank;
			hx_dwhere(d, d->sig.connect, where, sizeof where);
			snprintf(d->summary, sizeof d->summary,
				 _("Hang at connection set-up: rank %lld never joined: it is "
				   "missing from the ranks the root-info server lists as "
				   "connected when it timed out (%s). Look at that rank: did "
				   "its process start, can it reach the server?"),
				 (long long)d->sig.missing_rank, where);
		}
		FIX("Find out why the peer did not connect in time: its process, its "
		    "network (HCCL_IF_IP, HCCL_SOCKET_IFNAME), a port in use, and how "
		    "late it started (HCCL_CONNECT_TIMEOUT bounds the start skew).");
		return;
	}
	if (d->cat != HX_CAT_NONE && d->cat != HX_CAT_UNKNOWN)
		return;
	if (d->fault_first && field_failure(d)) {
		if (d->hang == 0 && stalled_before(d, d->id_rec)) {
			char where[512], at[512];
			int64_t ms = hx_dnum(d, s->stall, HX_F_TIMEOUT_MS, 60000);

			/* waiting for a minute before the failure: the job was
			 * already held up when it failed, never "no hang" */
			d->hang = -1;
			d->verdict = HANGDX_V_HANG;
			d->cat = HX_CAT_OTHER;
			hx_dwhere(d, d->id_rec, where, sizeof where);
			hx_dwhere(d, s->stall, at, sizeof at);
			snprintf(d->summary, sizeof d->summary,
				 _("Failure, hang not determined: the job stopped on %s at "
				   "%s, after the vLLM engine had found no free "
				   "shared-memory broadcast block for %lld s (%s): a worker "
				   "was held up before the failure, so a hang is not ruled "
				   "out."),
				 d->nhops ? d->hops[0].what : _("a failure"), where,
				 (long long)(ms / 1000), at);
		}
		if (d->hang == 0 && any_wait_ran_out(d)) {
			char where[512];

			/* a timeout in the text: never "no hang" */
			d->hang = -1;
			d->verdict = HANGDX_V_HANG;
			d->cat = HX_CAT_OTHER;
			hx_dwhere(d, d->id_rec, where, sizeof where);
			snprintf(d->summary, sizeof d->summary,
				 _("Failure, hang not determined: the job stopped on %s at "
				   "%s, and a wait ran out after it, most likely its "
				   "consequence: a hang is not ruled out."),
				 d->nhops ? d->hops[0].what : _("a failure"), where);
		}
		if (d->hang != 0)
			plog_missing(d);
		return;
	}
	/* a chain of one hop is the failing rank alone: the console's
	 * signals may still say what it waited on */
	if (field_hang(d, d->cat == HX_CAT_UNKNOWN && d->nhops > 1)) {
		plog_missing(d);
		return;
	}
	/* a chain of one hop, no wait that ran out anywhere, and a failure
	 * that does not say whether a wait caused it (an AICPU exception):
	 * a failure, its hang not determined, not a hang of unknown cause */
	if (d->cat == HX_CAT_UNKNOWN && d->nhops <= 1 && s->stopped != HX_NOREC &&
	    !any_wait_ran_out(d) && s->lost == HX_NOREC && s->stall == HX_NOREC) {
		field_failure(d);
		return;
	}
	/* a wait that ran out before any fault: the open world's hang */
	if (d->cat == HX_CAT_NONE && s->timeout_text != HX_NOREC &&
	    (s->coded_fail != HX_NOREC || s->not_hang != HX_NOREC ||
	     s->device_fault != HX_NOREC))
		return;
	if (d->cat == HX_CAT_NONE && field_failure(d) && d->hang != 0)
		plog_missing(d);
}

/* ---- the open world: silence is not health ---- */

/* Ranks whose logs were read, and how many of them end normally. */
static uint32_t ranks_ended(const struct hangdx_diagnosis *d, uint32_t *seen,
			    int32_t *open)
{
	uint32_t r, n = 0;

	*seen = 0;
	*open = -1;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];

		if (!ri->seen)
			continue;
		(*seen)++;
		if (ri->ended)
			n++;
		else if (*open < 0)
			*open = ri->rank;
	}
	return n;
}

/* The summary with the line itself quoted after its place. */
static void quote_set(struct hangdx_diagnosis *d, uint32_t rec,
		      const char *fmt)
{
	const char *t = hx_dstr(d, rec, HX_F_TEXT);
	char where[512];

	hx_dwhere(d, rec, where, sizeof where);
	snprintf(d->summary, sizeof d->summary, _(fmt), where, t ? t : "");
}

static void unknown_lines(struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_signals *s = &d->sig;
	const char *w = hx_dstr(d, rec, HX_F_WHAT);
	const struct hx_vocab *row = hx_rec_row(d, rec);

	field_set(d, HX_CAT_OTHER, -1, rec, -1, "%s%s",
		  rec == s->unknown_err
		  ? N_("an error line hangdx has no family for")
		  : N_("an error line that decides nothing by itself"));
	if (row && row->family != HX_VF_FRAMEWORK) {    /* a code, not words */
		char what[400], mb[256], where[512];
		const char *code = hx_dstr(d, rec, HX_F_CODE);

		snprintf(what, sizeof what, "%s (%s %s)",
			 said(d, rec, row, mb, sizeof mb),
			 code ? code : row->key, row->name);
		hx_dwhere(d, rec, where, sizeof where);
		snprintf(d->summary, sizeof d->summary,
			 _("Failure, hang not determined: %s at %s. The code says what "
			   "failed, not why: its cause is in the lines before it, or not "
			   "in the input, and whether a wait on another rank caused it "
			   "cannot be told."),
			 what, where);
	} else if (w && strcmp(w, "traceback") == 0)
		quote_set(d, rec,
			  N_("Failure, hang not determined: a traceback was logged at "
			     "error level, its head and its exception not in the input "
			     "(the first frame at %s: \"%s\"). Whether a wait on another "
			     "rank caused the exception cannot be told from its frames."));
	else if (rec == s->unknown_err)
		quote_set(d, rec,
			  N_("Failure, hang not determined: the input holds error lines that "
			     "hangdx does not know, the first at %s: \"%s\". Whether a wait on "
			     "another rank caused it cannot be told from them."));
	else
		quote_set(d, rec,
			  N_("Failure, hang not determined: a rank logged an error that "
			     "names no cause, the first at %s: \"%s\". Whether a wait on "
			     "another rank caused it cannot be told from it."));
	if (s->nunknown > 1)
		FACT("%llu error lines that hangdx does not know; the first is quoted "
		     "above.", (unsigned long long)s->nunknown);
	MISSING("the first error of every rank: the host plogs "
		"(~/ascend/log/debug/plog/) and the device logs (device-N/) of all "
		"ranks, and the console of each process from its start");
}

/* The first coded failure a rank logged that no rule decided (torch_npu's
 * "ERR99999 UNKNOWN applicaiton exception" as a process ends on an
 * exception, its "ERR00005 PTA internal error", an error-manager code):
 * a failure all the same, never "no failure". */
static uint32_t rank_failure(const struct hangdx_diagnosis *d)
{
	uint32_t r, rec = HX_NOREC;

	for (r = 0; r < d->nranks; r++) {
		uint32_t e = d->ranks[r].first_err_rec;

		if (e != HX_NOREC && !d->ranks[r].link_recovered &&
		    (d->ev->recs[e].kind == HX_K_FRAMEWORK_ERROR ||
		     d->ev->recs[e].kind == HX_K_ERR_CODE) &&
		    (rec == HX_NOREC || e < rec))
			rec = e;
	}
	return rec;
}

static void not_determined(struct hangdx_diagnosis *d, uint32_t seen,
			   int32_t open)
{
	d->cat = HX_CAT_UNDETERMINED;
	d->hang = -1;
	d->verdict = HANGDX_V_HANG;
	d->by_signals = true;
	if (seen == 0)
		snprintf(d->summary, sizeof d->summary, "%s",
			 _("Not determined: nothing in the input is a line hangdx "
			   "knows: no failure, no wait that ran out, and no normal end. "
			   "Silence is not health."));
	else
		snprintf(d->summary, sizeof d->summary,
			 _("Not determined: the logs of %u rank%s show no failure, but "
			   "they do not run to a normal end (rank %d among them): a job "
			   "still running, one that froze without an error line, and one "
			   "killed from outside all look like this."),
			 seen, seen == 1 ? "" : "s", open);
	MISSING("the logs up to the end of the job: HCCL's run log "
		"(~/ascend/log/run/plog/) says 'op_base comm destroy complete' for "
		"each communicator of a job that ended, and every failure at any log "
		"level");
	MISSING("while it runs: Python stacks of every rank (py-spy dump) and the "
		"device logs (~/ascend/log/debug/device-N/), to see what each waits on");
}

/* The first normal end is a framework's line for a finished run (the
 * Trainer's "Training completed", a benchmark's result, verl's last
 * validation, vLLM's bar at every prompt), not HCCL's. */
static bool framework_end(const struct hangdx_diagnosis *d)
{
	const char *w = d->sig.end_rec != HX_NOREC
			? hx_dstr(d, d->sig.end_rec, HX_F_WHAT) : NULL;

	return w && strcmp(w, "comm_destroy") != 0;
}

/*
 * After the known families: a line that says a wait ran out makes a hang
 * of unknown kind; an error line nothing knows leaves it undetermined;
 * "no hang" needs every rank's logs to run to a normal end; anything else
 * is undetermined.
 */
/* A line whose vendor code is the AICPU operator timeout (E30008, the
 * runtime's 507017): its meaning is known though no family reads it, and
 * no rank owns it when only a pid names its process. */
static bool aicpu_timeout_code(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *c = hx_dstr(d, rec, HX_F_CODE), *n = hx_rec_code(d, rec);

	return (c && strcmp(c, "E30008") == 0) || (n && strcmp(n, "507017") == 0);
}

/* Record rec comes after the first normal end: later by its time, or
 * later in the same file. */
static bool after_end(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_rec *r, *e;

	if (rec == HX_NOREC || d->sig.end_rec == HX_NOREC)
		return false;
	r = &d->ev->recs[rec];
	e = &d->ev->recs[d->sig.end_rec];
	if (r->ts != HX_NONE && e->ts != HX_NONE)
		return r->ts > e->ts;
	return r->file == e->file && r->line > e->line;
}

/* A framework's own wait that ran out, named by its row (vocab/framework.tsv):
 * the meaning said; a collective's (a process group's work, Gloo's pair,
 * vLLM's collective RPC to its workers) is a collective that timed out. */
static bool framework_wait(struct hangdx_diagnosis *d, uint32_t rec)
{
	static const char *const coll[] = {
		"pg_future_timeout", "pg_dispatch_timeout", "vllm_rpc_timeout",
		"hccl_watchdog_timeout", "hccl_blocking_wait_timeout",
		"gloo_recv_timeout", "gloo_send_timeout", "gloo_pair_closure",
		"gloo_read_timeout",
	};
	/* the framework's file a wait that ran out was raised in (the
	 * traceback's last frame above it) */
	static const struct {
		const char *file, *what;
	} frames[] = {
		{ "shm_broadcast.py:", N_("vLLM's shared-memory broadcast between "
			"the engine and its workers ran out of time (a TimeoutError "
			"raised in shm_broadcast.py): a worker did not take or give "
			"its message in time") },
		{ "distributed_c10d.py:", N_("a torch.distributed collective or "
			"barrier ran out of time (an error raised in "
			"distributed_c10d.py)") },
	};
	const struct hx_vocab *row = hx_rec_row(d, rec);
	const char *fr = hx_dstr(d, rec, HX_F_FRAME), *what = NULL;
	size_t i;

	for (i = 0; fr && i < sizeof frames / sizeof frames[0]; i++)
		if (strncmp(fr, frames[i].file, strlen(frames[i].file)) == 0)
			what = frames[i].what;
	if (!what) {
		if (!row || row->family != HX_VF_FRAMEWORK ||
		    row->cls != HX_VC_WAIT_TIMEOUT)
			return false;
		for (i = 0; i < sizeof coll / sizeof coll[0]; i++)
			if (strcmp(row->name, coll[i]) == 0)
				what = row->meaning;
	}
	if (!what && strcmp(row->name, "sglang_watchdog_timeout") == 0) {
		/* the framework's own stall detector fired: progress stopped */
		field_set(d, HX_CAT_SILENT, 1, rec, -1, N_("Hang: %s (%s)."),
			  row->meaning);
		stacks_fix(d);
	} else if (!what) {
		field_set(d, HX_CAT_UNKNOWN, 1, rec, -1, N_("Hang: %s (%s)."),
			  row->meaning);
	} else {
		field_set(d, HX_CAT_COLLECTIVE, 1, rec, -1,
			  N_("Hang in a collective: %s (%s)."), what);
		FIX("Find the process that did not take part in that collective in "
		    "time: what it did before it (its compute, its input, an exception "
		    "of its own); its console or plog tells.");
	}
	plog_missing(d);
	return true;
}

/* The job's connect timeout in microseconds: HCCL_CONNECT_TIMEOUT as the
 * environment echo gives it (*echoed), else HCCL's default of 120 s. */
static int64_t connect_timeout_us(const struct hangdx_diagnosis *d, bool *echoed)
{
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		int64_t ms;

		if (d->ev->recs[rec].kind == HX_K_ENV &&
		    (ms = hx_dnum(d, rec, HX_F_TIMEOUT_MS, -1)) > 0 &&
		    hx_dstr(d, rec, HX_F_NAME) &&
		    strcmp(hx_dstr(d, rec, HX_F_NAME), "HCCL_CONNECT_TIMEOUT") == 0) {
			*echoed = true;
			return ms * 1000;
		}
	}
	*echoed = false;
	return 120 * INT64_C(1000000);
}

/* HCCL's entry line of a communicator's creation, timed, of a rank and a
 * group ("Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], ...
 * identifier[...]"). */
static bool is_entry(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *w = hx_dstr(d, rec, HX_F_WHAT);

	return d->ev->recs[rec].kind == HX_K_COMM_INIT && w && strcmp(w, "entry") == 0 &&
	       d->ev->recs[rec].ts != HX_NONE && hx_drank(d, rec) >= 0 &&
	       hx_dstr(d, rec, HX_F_GROUP);
}

/* One communicator's creation as HCCL's entry lines show it
 * ("Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], ..."): the first
 * and the last rank that entered. */
struct join {
	const char *group;
	int64_t size;
	uint32_t first, last;
};
#define HX_JOIN_GROUPS 64

static void join_add(const struct hangdx_diagnosis *d, struct join *g,
		     size_t *ng, uint32_t rec)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	const char *grp = hx_dstr(d, rec, HX_F_GROUP);
	int64_t size = hx_dnum(d, rec, HX_F_RANK_SIZE, -1);
	size_t k;

	for (k = 0; k < *ng; k++)
		if (g[k].size == size && strcmp(g[k].group, grp) == 0)
			break;
	if (k == *ng) {
		if (*ng == HX_JOIN_GROUPS)
			return;
		g[(*ng)++] = (struct join){ grp, size, rec, rec };
		return;
	}
	if (r->ts < d->ev->recs[g[k].first].ts)
		g[k].first = rec;
	if (r->ts > d->ev->recs[g[k].last].ts)
		g[k].last = rec;
}

/* The first and the last rank entered g's creation once each: a rank
 * that entered twice is two runs in one directory (a stale plog of an
 * earlier run with the same group name), not one rank late. */
static bool join_once(const struct hangdx_diagnosis *d, const struct join *g)
{
	int32_t rf = hx_drank(d, g->first), rl = hx_drank(d, g->last);
	unsigned nf = 0, nl = 0;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		int32_t r;

		if (!is_entry(d, rec) || strcmp(hx_dstr(d, rec, HX_F_GROUP), g->group) != 0 ||
		    hx_dnum(d, rec, HX_F_RANK_SIZE, -1) != g->size)
			continue;
		r = hx_drank(d, rec);
		nf += r == rf;
		nl += r == rl;
	}
	return nf == 1 && nl == 1;
}

/* Ranks that entered the creation of one communicator further apart than
 * HCCL_CONNECT_TIMEOUT: those that came first waited for the last one at
 * set-up until that wait ran out (HCCL's fault guide, "cluster information
 * negotiation": "rank[3] ... 200 s later than the others"). */
static bool late_join(struct hangdx_diagnosis *d)
{
	struct join g[HX_JOIN_GROUPS];
	size_t i, ng = 0;
	bool echoed;
	int64_t tmo = connect_timeout_us(d, &echoed), worst = 0;
	const struct join *w = NULL;
	char first[512], last[512];

	for (i = 0; i < d->norder; i++)
		if (is_entry(d, d->order[i]))
			join_add(d, g, &ng, d->order[i]);
	for (i = 0; i < ng; i++) {
		int64_t gap = d->ev->recs[g[i].last].ts - d->ev->recs[g[i].first].ts;

		if (gap > tmo && gap > worst && join_once(d, &g[i])) {
			worst = gap;
			w = &g[i];
		}
	}
	if (!w)
		return false;
	d->cat = HX_CAT_BEHIND;
	d->hang = 1;
	d->verdict = HANGDX_V_HANG;
	d->by_signals = true;
	d->id_rec = w->last;
	d->root_rank = hx_drank(d, w->last);
	d->nhops = 0;
	hx_dwhere(d, w->first, first, sizeof first);
	hx_dwhere(d, w->last, last, sizeof last);
	hx_hop_add(d, d->root_rank, w->last, "", "%s",
		   _("entered the communicator's creation last"));
	snprintf(d->summary, sizeof d->summary,
		 _("Hang at connection set-up (inferred): rank %d entered the creation "
		   "of its communicator at %s, %lld s after rank %d did (%s), longer "
		   "than HCCL_CONNECT_TIMEOUT (%lld s, %s): the ranks that came first "
		   "waited for it until their set-up wait ran out."),
		 d->root_rank, last, (long long)(worst / 1000000), hx_drank(d, w->first),
		 first, (long long)(tmo / 1000000),
		 echoed ? _("as the environment echo sets it") : _("HCCL's default"));
	FACT("It assumes that the ranks that entered first were still waiting when "
	     "the last one came: their set-up timeout is not in these lines.");
	FIX("Find out what held rank %d before it created the communicator (its "
	    "start, its data, its compile); raise HCCL_CONNECT_TIMEOUT if ranks of "
	    "this job start that far apart.", d->root_rank);
	return true;
}

static void open_world(struct hangdx_diagnosis *d)
{
	const struct hx_signals *s = &d->sig;
	uint32_t seen, ended, rec;
	int32_t open;
	bool normal;

	if (d->cat != HX_CAT_NONE || d->verdict != HANGDX_V_NO_HANG)
		return;
	ended = ranks_ended(d, &seen, &open);
	/* a wait that ran out after the normal end: that end was not the last
	 * word (a process hung on its way out, or another one waited) */
	normal = seen > 0 && ended == seen && !after_end(d, s->timeout_text);
	if (normal && framework_end(d)) {
		char where[512];

		hx_dwhere(d, s->end_rec, where, sizeof where);
		snprintf(d->summary, sizeof d->summary,
			 _("No hang: the run ends normally (the framework's own line "
			   "for a finished run at %s), and no failure stopped it."),
			 where);
	} else if (normal)
		snprintf(d->summary, sizeof d->summary,
			 _("No hang: the logs of every rank (%u) run to a normal end "
			   "(their communicators destroyed), and no failure stopped "
			   "them."), seen);
	if (normal) {
		if (s->timeout_text != HX_NOREC || s->unknown_err != HX_NOREC) {
			char where[512];

			hx_dwhere(d, s->unknown_err != HX_NOREC ? s->unknown_err
				  : s->timeout_text, where, sizeof where);
			FACT("Lines that read as errors and that hangdx does not know "
			     "came before the normal end (the first at %s).", where);
		}
		return;
	}
	if (s->timeout_text != HX_NOREC && aicpu_timeout_code(d, s->timeout_text)) {
		field_set(d, HX_CAT_AICPU_TIMEOUT, 1, s->timeout_text, -1,
			  N_("Failure caused by %s (%s); no line names its rank."),
			  N_("an AICPU operator timeout"));
		plog_missing(d);
		return;
	}
	if (s->timeout_text != HX_NOREC && framework_wait(d, s->timeout_text))
		return;
	if (s->timeout_text != HX_NOREC &&
	    trap_text(hx_dstr(d, s->timeout_text, HX_F_TEXT))) {
		field_set(d, HX_CAT_DEVICE_TIMEOUT, 1, s->timeout_text, -1,
			  N_("Hang on the device without a collective: %s (%s)."),
			  N_("an AI Core or vector core task ran out of time (the core's "
			     "extend info: timeout or trap)"));
		plog_missing(d);
		return;
	}
	if (s->timeout_text != HX_NOREC) {
		const struct hx_vocab *row = hx_rec_row(d, s->timeout_text);

		field_set(d, HX_CAT_UNKNOWN, 1, s->timeout_text, -1, "%s%s",
			  N_("a wait ran out"));
		if (row && row->cls == HX_VC_WAIT_TIMEOUT) {
			char where[512], mb[256];

			hx_dwhere(d, s->timeout_text, where, sizeof where);
			snprintf(d->summary, sizeof d->summary,
				 _("Hang of unknown kind: %s (%s %s) at %s; no line "
				   "says what it waited for."),
				 said(d, s->timeout_text, row, mb, sizeof mb),
				 row->key, row->name, where);
		} else {
			quote_set(d, s->timeout_text,
				  N_("Hang of unknown kind: a wait ran out at %s: \"%s\". "
				     "No line hangdx knows says what it waited for."));
		}
		plog_missing(d);
		return;
	}
	if (s->unknown_err != HX_NOREC) {
		unknown_lines(d, s->unknown_err);
		return;
	}
	if (late_join(d))
		return;
	if ((rec = rank_failure(d)) != HX_NOREC) {
		unknown_lines(d, rec);
		return;
	}
	not_determined(d, seen, open);
}

/* ---- fixes, risks, missing evidence ---- */

bool hx_retry_env_on(const char *env)
{
	return retry_on(env);
}

static bool retry_on(const char *env)
{
	return env && (strstr(env, "L0:1") || strstr(env, "L1:1") ||
		       strstr(env, "L2:1"));
}

static void aicpu_fixes(struct hangdx_diagnosis *d)
{
	unsigned cores = hx_rank_cores(d, d->root_rank);

	FIX("Turn op retry off if it is not needed: HCCL_OP_RETRY_ENABLE=\"L0:0,L1:0,L2:0\"; "
	    "each HCCL kernel then leaves its AICPU core right after expansion.");
	FIX("With retry on, keep the communicators that have ops in flight at the same "
	    "time at or below %u (the %u AICPU cores minus the one the AICPU operator "
	    "needs); hangdx check finds the limit for a given program.",
	    cores ? cores - 1 : 0, cores);
	FIX("Move the AICPU operator the communication waits on to AI Core, or record "
	    "the event it waits on before the AICPU operator, so that no collective "
	    "waits on an operator that needs an AICPU core.");
	FIX("Reorder: issue the collectives after the AICPU operator has run (e.g. "
	    "synchronise the compute stream first), not behind an event wait on it.");
}

static void fixes(struct hangdx_diagnosis *d)
{
	int32_t r = d->root_rank;
	char rl[192];

	hx_rank_label(d, r, rl, sizeof rl);
	if ((d->cat == HX_CAT_SILENT && r >= 0 && d->ranks[r].stalled >= hx_rank_cores(d, r) &&
	     retry_on(d->ranks[r].retry_env)) || (d->pool_held && !any_failure(d))) {
		aicpu_fixes(d);
		FIX("To prove it now rather than after HCCL_EXEC_TIMEOUT: collect the TS "
		    "stream dumps (device logs) of a stuck rank, or wait for the timeout "
		    "and run hangdx diagnose on the logs again.");
		return;
	}
	switch (d->cat) {
	case HX_CAT_AICPU_DEADLOCK:
		aicpu_fixes(d);
		break;
	case HX_CAT_RANK_LOST:
		FIX("Find out why %s's process ended: the last lines of its plog, the "
		    "kernel log (OOM killer, dmesg) and the device health of its node.", rl);
		FIX("Restart from the last checkpoint; the other ranks only timed out waiting.");
		break;
	case HX_CAT_LINK:
		FIX("Check the link of %s (RoCE/HCCS port state, hccn_tool link and "
		    "optical statistics); replace or reseat the faulty part.", rl);
		FIX("On Atlas A3, op retry (HCCL_OP_RETRY_ENABLE L1:1 between servers) can "
		    "ride out transient link errors, within its own limits.");
		break;
	case HX_CAT_MISMATCH:
		FIX("Make %s issue the same collective, size and dtype as its peers at "
		    "that op index: look for rank-dependent branches or data-dependent "
		    "shapes before that collective.", rl);
		break;
	case HX_CAT_AICPU_TIMEOUT:
		if (getnext_wait(d))
			FIX("The data queue's GetNext on %s waited for the dataset past its "
			    "limit: speed up the data pipeline (more parallel workers, "
			    "prefetch, lighter transforms) or find why the data stopped "
			    "coming (its source, an exception in a dataset worker).", rl);
		else
			FIX("Check the inputs of the AICPU operator on %s; raise its limit "
			    "with aclrtSetOpExecuteTimeOut only if it is legitimately slow.",
			    rl);
		break;
	case HX_CAT_SQ_FULL:
		FIX("Find what keeps the stream's head from moving on %s (the TS dump "
		    "of that stream), or split the op so its tasks fit the SQ.", rl);
		break;
	case HX_CAT_WAIT_CYCLE:
		FIX("Issue collectives in the same order on every rank and communicator; "
		    "avoid waits that make one communicator's op depend on another's.");
		break;
	case HX_CAT_EVENT_CHAIN:
		if (d->aicpu_end_stream >= 0 && r >= 0 && d->ranks[r].retry_env &&
		    !retry_on(d->ranks[r].retry_env)) {
			FIX("The AICPU operator at the head of stream %lld on rank %d never "
			    "got an AICPU core, and the plogs echo HCCL op retry off "
			    "(HCCL_OP_RETRY_ENABLE), so HCCL's kernels did not keep the cores: "
			    "look in the device logs of rank %d (ascend/log/debug/device-N/) "
			    "for what held them.",
			    (long long)d->aicpu_end_stream, r, r);
			break;
		}
		if (d->aicpu_end_stream >= 0 && r >= 0) {
			FIX("The AICPU operator at the head of stream %lld on rank %d never "
			    "got an AICPU core. If HCCL op retry is on (HCCL_OP_RETRY_ENABLE) in "
			    "AI_CPU mode, the kernels of as many communicators in flight as "
			    "AICPU cores hold every core: turn retry off, keep at most the "
			    "cores minus one communicators in flight, or move the operator off "
			    "AICPU. The plog's [HCCL_ENV] lines (also in the run plog, "
			    "ascend/log/run/plog/) say whether retry is on.",
			    (long long)d->aicpu_end_stream, r);
			break;
		}
		/* fall through */
	default:
		FIX("Collect the device logs and run with HCCL INFO logs on "
		    "(ASCEND_GLOBAL_LOG_LEVEL=1) so the stuck streams can be seen.");
		break;
	}
}

/* Retry keeps the rank's kernels on their cores (the residency rule) and
 * it has as many communicators as cores. */
static bool danger(const struct hangdx_diagnosis *d, const struct hx_rankinfo *ri)
{
	unsigned cores = hx_rank_cores(d, ri - d->ranks);

	return hx_snap_kernels_stay(d, (uint32_t)(ri - d->ranks)) && cores &&
	       ri->ncomm >= cores;
}

/* The configuration that makes the AICPU exhaustion deadlock possible: a
 * warning, or, when that deadlock is the verdict, a note of its cause. */
static void risks(struct hangdx_diagnosis *d)
{
	uint32_t r, n = 0, first = 0, maxc = 0;
	unsigned cores;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (danger(d, ri)) {
			if (!n)
				first = r;
			n++;
			if (ri->ncomm > maxc)
				maxc = ri->ncomm;
		}
	}
	cores = hx_rank_cores(d, first);    /* the count of the rank named */
	if (n && d->cat == HX_CAT_AICPU_DEADLOCK && d->partial)
		FACT("The configuration the logs echo is this deadlock's cause: at least %u "
		     "rank%s (rank %u among them) run HCCL op retry in AI_CPU mode with %u or "
		     "more communicators and %u AICPU cores per device; with %u or more "
		     "communicators in flight their kernels hold every core.", n,
		     n == 1 ? "" : "s", first, maxc, cores, cores);
	else if (n && d->cat == HX_CAT_AICPU_DEADLOCK)
		FACT("The configuration the logs echo is this deadlock's cause: %u rank%s "
		     "(first: rank %u) run HCCL op retry in AI_CPU mode with up to %u "
		     "communicators and %u AICPU cores per device; with %u or more "
		     "communicators in flight their kernels hold every core.", n,
		     n == 1 ? "" : "s", first, maxc, cores, cores);
	else if (n && d->partial)
		WARN("Danger zone: at least %u rank%s (rank %u among them) run HCCL op retry "
		     "in AI_CPU mode with %u or more communicators and %u AICPU cores per device. "
		     "Retry keeps each communicator's kernel on an AICPU core until its op "
		     "drains; with %u or more communicators in flight they can hold every "
		     "core, and any collective that waits on an AICPU operator deadlocks. "
		     "Keep it at %u or fewer, or turn retry off.", n, n == 1 ? "" : "s",
		     first, maxc, cores, cores, cores ? cores - 1 : 0);
	else if (n)
		WARN("Danger zone: %u rank%s (first: rank %u) run HCCL op retry in AI_CPU mode "
		     "with up to %u communicators and %u AICPU cores per device. Retry keeps "
		     "each communicator's kernel on an AICPU core until its op drains; with "
		     "%u or more communicators in flight they can hold every core, and any "
		     "collective that waits on an AICPU operator deadlocks. Keep it at %u or "
		     "fewer, or turn retry off.", n, n == 1 ? "" : "s", first, maxc,
		     cores, cores, cores ? cores - 1 : 0);
}

static void config_mismatch(struct hangdx_diagnosis *d)
{
	uint32_t r;
	const struct hx_rankinfo *ref = NULL;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->exec_timeout < 0 && !ri->retry_env)
			continue;
		if (!ref) {
			ref = ri;
			continue;
		}
		if (ri->exec_timeout >= 0 && ref->exec_timeout >= 0 &&
		    ri->exec_timeout != ref->exec_timeout)
			WARN("Configuration differs across ranks: HCCL_EXEC_TIMEOUT is %lld on "
			     "rank %d but %lld on rank %d; the rank with the shorter timeout "
			     "reports first and is not necessarily the cause.",
			     (long long)ri->exec_timeout, ri->rank,
			     (long long)ref->exec_timeout, ref->rank);
		if (ri->retry_env && ref->retry_env &&
		    strcmp(ri->retry_env, ref->retry_env) != 0)
			WARN("Configuration differs across ranks: HCCL_OP_RETRY_ENABLE is %s on "
			     "rank %d but %s on rank %d; retry needs every rank of a "
			     "communicator to agree.", ri->retry_env, ri->rank,
			     ref->retry_env, ref->rank);
	}
}

static bool aicpu_waiting(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->st.nstreams; i++) {
		long h = hx_state_head(&d->st, (uint32_t)i);
		if (h >= 0 && d->st.tasks[h].kind == HX_T_AICPU)
			return true;
	}
	return false;
}

/* When some ranks have device logs, name the ones that do not: their
 * streams cannot be rebuilt. */
/* Some rank's facts say its logs hold TS stream dumps (the rebuild was
 * done on its node). */
static bool facts_dumps(const struct hangdx_diagnosis *d)
{
	uint32_t r;

	for (r = 0; d->rf && r < d->nranks; r++)
		if (d->rf[r] && d->rf[r]->has_dumps)
			return true;
	return false;
}

static void missing_device_logs(struct hangdx_diagnosis *d)
{
	uint32_t r, with = 0, without = 0;

	for (r = 0; r < d->nranks; r++)
		with += d->ranks[r].device_seen;
	if (!with)
		return;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (!ri->seen || ri->device_seen || ri->pseudo)
			continue;
		if (without++ < 16)
			MISSING("no device log for rank %u: its streams and AICPU cores "
				"are not in the rebuilt state", r);
	}
	if (without > 16)
		MISSING("... and %u more ranks without a device log", without - 16);
}

/* The ranks whose failures name rank r as the peer they wait on, as
 * "1, 3, 7" (the first 8, then "..."); 0 when none. */
static size_t waiters_of(const struct hangdx_diagnosis *d, uint32_t r,
			 char *out, size_t cap)
{
	size_t len = 0, n = 0;
	uint32_t k;
	uint8_t i;

	out[0] = '\0';
	for (k = 0; k < d->nranks; k++)
		for (i = 0; i < d->ranks[k].npeers; i++) {
			if (d->ranks[k].peers[i] != (int32_t)r)
				continue;
			if (n < 8 && len < cap)
				len += (size_t)snprintf(out + len, cap - len, "%s%u",
							n ? ", " : "", k);
			else if (n == 8 && len < cap)
				len += (size_t)snprintf(out + len, cap - len, ", ...");
			n++;
			break;
		}
	return n;
}

static void missing(struct hangdx_diagnosis *d)
{
	uint32_t r, unseen = 0;
	size_t n;
	char who[96];

	/* past a ceiling, a rank without kept records may have logs among
	 * the records not kept: none is named as without logs */
	for (r = 0; r < d->nranks && !d->partial; r++) {
		if (d->ranks[r].seen || unseen++ >= 16)
			continue;
		n = waiters_of(d, r, who, sizeof who);
		if (n == 1)
			MISSING("no logs for rank %u, which rank %s waits on", r, who);
		else if (n)
			MISSING("no logs for rank %u, which ranks %s wait on", r, who);
		else
			MISSING("no logs for rank %u", r);
	}
	if (unseen > 16)
		MISSING("... and %u more ranks without logs", unseen - 16);
	missing_device_logs(d);
	if (d->ev->c.skipped[HX_S_RECORDS])
		MISSING("record limit reached: only the first %zu records in reading "
			"order were kept; the evidence after them is not in this diagnosis "
			"(raise --max-records)",
			hx_cut_ceiling(d));
	if (!d->have_snapshot && d->verdict != HANGDX_V_NO_HANG && !facts_dumps(d))
		MISSING("no TS stream dumps (device logs): the stuck streams cannot be "
			"rebuilt, so a deadlock cannot be proven or ruled out on the task level");
	if (d->have_snapshot && aicpu_waiting(d)) {
		uint32_t k = 0, inf = 0;
		for (r = 0; r < d->nranks; r++) {
			k += d->ranks[r].kernels - d->ranks[r].kernels_inferred;
			inf += d->ranks[r].kernels_inferred;
		}
		if (k == 0 && (inf || d->cat != HX_CAT_AICPU_DEADLOCK || !d->proven))
			MISSING("no line shows which HCCL kernels held the AICPU cores: the "
				"device run log (ascend/log/run/device-N/) holds HCCL's "
				"WaitFinishWhileLoop status and AicpuComm lines at any log "
				"level, the device debug log its kernel entry and exit at INFO");
	}
}

/* ---- grouping ---- */

static void rank_state_core(const struct hangdx_diagnosis *d,
			    struct hx_rankinfo *ri);

static void rank_state(const struct hangdx_diagnosis *d, struct hx_rankinfo *ri)
{
	rank_state_core(d, ri);
	if (ri->pseudo) {
		char tmp[160], where[128];
		size_t n = strlen(ri->state);

		hx_rank_where(d, ri->rank, where, sizeof where);
		snprintf(tmp, sizeof tmp, _(" (%s, rank unknown)"), where);
		if (n + strlen(tmp) < sizeof ri->state)
			memcpy(ri->state + n, tmp, strlen(tmp) + 1);
	}
}

/* "notify wait timeout in OP index N, waiting for ...": an index the
 * logs do not give is left out, never printed as -1. */
static void wait_state(struct hx_rankinfo *ri)
{
	const char *op = ri->op ? ri->op : _("a collective");
	char peer[128];

	waiting_for(ri, peer, sizeof peer);
	if (ri->index >= 0)
		snprintf(ri->state, sizeof ri->state,
			 _("notify wait timeout in %s index %lld%s"), op,
			 (long long)ri->index, peer);
	else
		snprintf(ri->state, sizeof ri->state,
			 _("notify wait timeout in %s%s"), op, peer);
}

/* "error: err_code EI0005": the first error's kind, and its code if any */
static void err_state(const struct hangdx_diagnosis *d, struct hx_rankinfo *ri)
{
	uint32_t rec = ri->first_err_rec;
	const char *code = hx_dstr(d, rec, HX_F_CODE);

	if (!code)
		code = hx_rec_code(d, rec);
	if (code)
		snprintf(ri->state, sizeof ri->state, _("error: %s %s"),
			 hx_kind_name(d->ev->recs[rec].kind), code);
	else
		snprintf(ri->state, sizeof ri->state, _("error: %s"),
			 hx_kind_name(d->ev->recs[rec].kind));
}

static void rank_state_core(const struct hangdx_diagnosis *d,
			    struct hx_rankinfo *ri)
{
	if (!ri->seen && d->partial)
		snprintf(ri->state, sizeof ri->state,
			 _("no record kept (logs past the record ceiling are not read)"));
	else if (!ri->seen)
		snprintf(ri->state, sizeof ri->state, _("no logs"));
	else if (ri->lost)
		snprintf(ri->state, sizeof ri->state, _("lost (heartbeat LOST)"));
	else if (ri->link_rec != HX_NOREC && d->cat != HX_CAT_LINK &&
		 hx_rec_sdma_exception(d, ri->link_rec))
		snprintf(ri->state, sizeof ri->state, _("SDMA copy exception"));
	else if (ri->link_rec != HX_NOREC)
		snprintf(ri->state, sizeof ri->state, _("link error"));
	else if (ri->wait_rec != HX_NOREC)
		wait_state(ri);
	else if (ri->first_err_rec != HX_NOREC)
		err_state(d, ri);
	else if (ri->stalled)
		snprintf(ri->state, sizeof ri->state,
			 _("no error yet; %u HCCL kernels resident, no progress"), ri->stalled);
	else if (ri->open_rec != HX_NOREC &&
		 d->ev->recs[ri->open_rec].kind == HX_K_CODED) {
		const char *w = hx_dstr(d, ri->open_rec, HX_F_WHAT);

		if (w && strcmp(w, "exited") == 0)
			snprintf(ri->state, sizeof ri->state,
				 _("a process ended on an exception"));
		else
			snprintf(ri->state, sizeof ri->state, _("error: %s"),
				 w ? w : "");
	} else if (ri->open_rec != HX_NOREC)
		snprintf(ri->state, sizeof ri->state, _("error line not known: %s"),
			 hx_kind_name(d->ev->recs[ri->open_rec].kind));
	else
		snprintf(ri->state, sizeof ri->state, _("no error logged"));
}

/* The groups of rank states, in the order of their first rank: the state
 * of each rank is interned (a hash, so a job of 100,000 processes with a
 * state each is linear), the groups are sized by a count first.  Past the
 * list limit the last group takes every other state. */
static int group_index(struct hangdx_diagnosis *d, struct hx_intern *in,
		       uint32_t *slot, bool tag)
{
	uint32_t r;
	int err = HANGDX_OK;

	for (r = 0; r < d->nranks && !err; r++) {
		struct hx_rankinfo *ri = &d->ranks[r];
		long k;

		if (tag)
			hx_roots_state(ri);
		k = hx_intern_add(in, ri->state, strlen(ri->state), &err);
		slot[r] = k < 0 ? 0 : k >= HX_MAX_LIST ? HX_MAX_LIST - 1 : (uint32_t)k;
	}
	return err;
}

static int group_fill(struct hangdx_diagnosis *d, const struct hx_intern *in,
		      const uint32_t *slot)
{
	size_t n = in->n < HX_MAX_LIST ? in->n : HX_MAX_LIST, g;
	uint32_t r;

	d->groups = hx_calloc(d->ctx, n + 1, sizeof *d->groups);
	if (!d->groups)
		return HANGDX_ENOMEM;
	d->ngroups = d->capgroups = n;
	for (r = 0; r < d->nranks; r++)
		d->groups[slot[r]].nranks++;
	for (g = 0; g < n; g++) {
		struct hx_group *gr = &d->groups[g];

		snprintf(gr->state, sizeof gr->state, "%s", hx_intern_str(in, (uint32_t)g));
		gr->ranks = hx_arena_alloc(&d->arena, (gr->nranks + 1) * sizeof *gr->ranks);
		if (!gr->ranks)
			return HANGDX_ENOMEM;
		gr->nranks = 0;
	}
	if (in->n > HX_MAX_LIST) {
		snprintf(d->groups[n - 1].state, sizeof d->groups[n - 1].state,
			 _("other states (the list of groups was cut at %u)"), HX_MAX_LIST);
		d->thr_hits |= HX_THR_LIST_CUT | HX_THR_GROUPS_CUT;
	}
	for (r = 0; r < d->nranks; r++) {
		struct hx_group *gr = &d->groups[slot[r]];

		gr->ranks[gr->nranks++] = d->ranks[r].rank;
	}
	return HANGDX_OK;
}

static int group_ranks(struct hangdx_diagnosis *d)
{
	struct hx_intern in;
	uint32_t *slot = hx_calloc(d->ctx, d->nranks + 1, sizeof *slot);
	uint32_t r;
	bool tag;
	int err;

	if (!slot)
		return HANGDX_ENOMEM;
	for (r = 0; r < d->nranks; r++)
		rank_state(d, &d->ranks[r]);
	tag = hx_roots_tag_states(d);   /* roots and victims alike: told apart */
	hx_intern_init(&in, d->ctx, 0);
	err = group_index(d, &in, slot, tag);
	if (!err && d->nranks)
		err = group_fill(d, &in, slot);
	hx_intern_free(&in);
	hx_free(d->ctx, slot);
	return err;
}

static bool any_failure(const struct hangdx_diagnosis *d)
{
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->wait_rec != HX_NOREC || ri->lost ||
		    ri->aicpu_timeout_rec != HX_NOREC ||
		    (ri->fail_rec != HX_NOREC && !ri->link_recovered))
			return true;
	}
	return false;
}

#define NOTE(...) thr_note(d, __VA_ARGS__)

/* A note in the last slot of the notes, which hx_dlist_add keeps free. */
static int thr_note(struct hangdx_diagnosis *d, const char *fmt, ...)
	HX_PRINTF(2, 3);
static int thr_note(struct hangdx_diagnosis *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, _(fmt), ap);
	va_end(ap);
	return list_put(d, &d->facts, &d->nfacts, &d->capfacts, buf, HX_MAX_LIST);
}

/* The first failing rank and the next, closer than the clocks order. */
static int clock_order_note(struct hangdx_diagnosis *d)
{
	double ms = (double)d->margin_us / 1e3, within = (double)d->margin_within_us / 1e3;

	switch (d->margin_why) {
	case HX_MARGIN_UNALIGNED:
		return NOTE("The first failing rank is by the servers' own clocks: no "
			    "communicator creation exits (HcclCommInitRootInfo success, at "
			    "INFO level or in the run log) were in the logs to align them, "
			    "and rank %d failed %.3f s after rank %d; servers' clocks that "
			    "far apart would change which failed first.", d->margin_rank,
			    ms / 1e3, d->first_rank);
	case HX_MARGIN_SPREAD:
		return NOTE("Rank %d failed %.3f ms after rank %d (clock-corrected), on "
			    "another server: the clocks are aligned at communicator "
			    "creation, whose exits on one server spread over %.3f ms here, "
			    "so either may have failed first.", d->margin_rank, ms,
			    d->first_rank, within);
	case HX_MARGIN_LEFT:
		return NOTE("Rank %d failed %.3f ms after rank %d (clock-corrected), on "
			    "another server: their clocks differ by %.3f ms at communicator "
			    "creation, under the %.3f ms taken as noise and not corrected, "
			    "so either may have failed first.", d->margin_rank, ms,
			    d->first_rank, within, (double)d->skew_floor_us / 1e3);
	default:
		return NOTE("Rank %d failed %.3f ms after rank %d (clock-corrected), on "
			    "another server: no exits of one communicator creation on one "
			    "server measured how closely the clocks are aligned, taken as "
			    "%d ms, so either may have failed first.", d->margin_rank, ms,
			    d->first_rank, HX_SKEW_MIN_US / 1000);
	}
}

/* How the cycle's first notify wait without an id (snapshot.c link_h0)
 * was tied to its record, when the logs determined it. */
static int h0_note(struct hangdx_diagnosis *d)
{
	size_t i;

	if (d->verdict != HANGDX_V_DEADLOCK)
		return 0;
	for (i = 0; i < d->wg.ncycle; i++) {
		const struct hx_task *t = cycle_task(d, i);
		const struct hx_notify *no;
		uint32_t m, u;
		if (!t || t->kind != HX_T_NOTIFY_WAIT || t->notify < 0)
			continue;
		no = &d->st.notifies[t->notify];
		if (no->role != HX_NR_H0 || no->rt_id != UINT32_MAX)
			return 0;
		m = d->st.streams[t->stream].id;
		u = h0_recorder(d, t->notify);
		if (no->link == HX_NL_NAMED)
			return NOTE("Main stream %u of rank %u waits at its head on a notify "
				    "the TS dump prints no id for; it is tied to stream %u, the "
				    "op's launching stream the host launch line names.", m,
				    no->rank, u);
		if (no->link == HX_NL_ALONE)
			return NOTE("Main stream %u of rank %u waits at its head on a notify "
				    "the TS dump prints no id for; HCCL's failed-task block "
				    "says that notify is local, and stream %u is the one "
				    "stream of the rank's dumps that holds notify records and "
				    "is not itself stuck at a notify wait: its record is "
				    "there, behind the stream's head.", m, no->rank, u);
		return 0;
	}
	return 0;
}

/* Say which thresholds (src/core/thresholds.h) decided something here. */
static int thr_notes(struct hangdx_diagnosis *d)
{
	uint32_t h = d->thr_hits;
	int err = 0;

	if (h & HX_THR_CORES_WIDE)
		err = NOTE("AICPU cores per device taken as %u: the logs name core %u, past "
			   "%s (give --cores to state the count).", d->cores_named,
			   d->cores_named - 1, d->cores_given ? _("the count --cores gave")
			   : _("the 6 of Atlas A2/A3"));
	if (!err && (h & HX_THR_TIE) && d->tie_rank >= 0)
		err = NOTE("Rank %d failed %.3f ms before rank %d (clock-corrected), within "
			   "the %d ms taken as simultaneous: rank %d is named first because "
			   "it waits on a lost rank.", d->tie_rank, (double)d->tie_us / 1e3,
			   d->first_rank, HX_TIE_US / 1000, d->first_rank);
	if (!err && (h & HX_THR_WAIT_TIE))
		err = NOTE("Wait failures of one rank less than %d s apart were taken as "
			   "one failure (the one that names its peer kept; a NOTIFY WAIT "
			   "dump next to a link error left to that error).",
			   (int)(HX_WAIT_TIE_US / 1000000));
	if (!err && (h & HX_THR_SDMA_REPORT))
		err = NOTE("A task failure HCCL reported on the host less than %d s after "
			   "an SDMA copy's exception in the same process was taken as its "
			   "report of that exception, not as a wait that ran out.",
			   (int)(HX_WAIT_TIE_US / 1000000));
	if (!err && (h & HX_THR_CLOCK_ORDER) && d->margin_rank >= 0 &&
	    d->first_rank >= 0)
		err = clock_order_note(d);
	if (!err && (h & HX_THR_SKEW_MIN) && d->skew_floor_us >= HX_SKEW_MIN_US)
		err = NOTE("Clock offsets between ranks under %d ms at communicator "
			   "creation were taken as noise and not corrected.",
			   HX_SKEW_MIN_US / 1000);
	else if (!err && (h & HX_THR_SKEW_MIN))
		err = NOTE("Clock offsets between ranks under %.3f ms at communicator "
			   "creation were taken as noise and not corrected: the exits of "
			   "one creation on one server spread that far.",
			   (double)d->skew_floor_us / 1e3);
	if (!err && d->verdict == HANGDX_V_NO_HANG && d->stall_under_us > 0)
		err = NOTE("A resident HCCL kernel's main stream did not move for %.1f s, "
			   "under the %lld s that makes a stall: not called a hang.",
			   (double)d->stall_under_us / 1e6,
			   (long long)(HX_STALL_MIN_US / 1000000));
	if (!err && d->have_snapshot && d->wg.starts_cut && d->wg.ncycle)
		err = NOTE("The cycle shown is the shortest found from the first %d start "
			   "nodes; a shorter one may exist (the deadlock does not depend on "
			   "it).", HX_MAX_CYCLE_STARTS);
	if (!err && (h & HX_THR_GROUPS) && hx_attrib_groups_cut(d->at)) {
		const struct hx_attrib_cut *c = hx_attrib_groups_cut(d->at);
		err = NOTE("Process %lld on %s was in %zu communicators, more than the "
			   "%d kept per process; memberships dropped: %zu, in %zu "
			   "process(es) (the first process's: those named last, %s to "
			   "%s); records naming those communicators were attributed "
			   "without them.", (long long)c->pid,
			   c->node[0] ? c->node : "?", c->groups,
			   HX_MAX_GROUPS_PER_PROC, c->dropped, c->procs,
			   hx_ev_str(d->ev, c->drop_first), hx_ev_str(d->ev, c->drop_last));
	}
	if (!err && (h & HX_THR_PEERS_CUT))
		err = NOTE("A rank named more than %d remote ranks it waits on; only the "
			   "first %d were kept for the ranks its waits lead to.",
			   HX_MAX_WAIT_PEERS, HX_MAX_WAIT_PEERS);
	if (!err && (h & HX_THR_LIST_CUT))
		err = NOTE("A list of this diagnosis (chain, groups, fixes, notes, "
			   "warnings or missing evidence) reached its limit of %d entries "
			   "and was cut.", HX_MAX_LIST);
	return err;
}

size_t hx_cut_ceiling(const struct hangdx_diagnosis *d)
{
	return d->facts_src && hx_facts_cut(d->facts_src)
	       ? hx_facts_cut(d->facts_src) : d->ev->maxrec;
}

size_t hx_cut_kept(const struct hangdx_diagnosis *d)
{
	return d->facts_src && hx_facts_cut(d->facts_src) &&
	       hx_facts_cut_kept(d->facts_src)
	       ? hx_facts_cut_kept(d->facts_src) : d->ev->nrec;
}

void hx_partial_text(const struct hangdx_diagnosis *d, char *buf, size_t n)
{
	unsigned long long lim = d->ev->c.skipped[HX_S_LIMIT];
	size_t k = 0;

	buf[0] = '\0';
	if (d->ev->c.skipped[HX_S_RECORDS] && d->facts_src && hx_facts_cut(d->facts_src))
		k = (size_t)snprintf(buf, n, _("Partial: the record ceiling (--max-records "
				     "%zu) was reached where the logs were read; %zu records "
				     "in reading order were kept there. The files read again "
				     "here keep what the node kept of each."),
				 hx_cut_ceiling(d), hx_cut_kept(d));
	else if (d->ev->c.skipped[HX_S_RECORDS])
		k = (size_t)snprintf(buf, n, _("Partial: the record ceiling (--max-records) "
				     "was reached; only the first %zu records in reading "
				     "order were kept."), d->ev->maxrec);
	if (lim && k < n)
		k += (size_t)snprintf(buf + k, n - k, k
				      ? _(" A size or nesting ceiling was also reached: %llu "
					  "of the files or archive members were read only in part "
					  "or not at all.")
				      : _("Partial: a size or nesting ceiling was reached: %llu "
					  "of the files or archive members were read only in part "
					  "or not at all."),
				      lim);
	if (k < n)
		snprintf(buf + k, n - k, "%s", _(" What this report says of the ranks "
			 "comes from what was kept: counts are lower bounds (\"at least\"), "
			 "and no rank is said to be without logs."));
}

/* A failure whose hang is not determined, printed after its file had
 * printed nothing for HX_SILENCE_WAIT_S or more: a wait that ran out,
 * inferred.  Work that fails at its end says so (a named failure); a
 * silence that ends in an unnamed failure is a wait that gave up. */
static void silence_ended(struct hangdx_diagnosis *d)
{
	int64_t q;
	const char *t;
	char where[512];

	if (d->cat != HX_CAT_OTHER || d->hang != -1 || d->id_rec == HX_NOREC)
		return;
	q = hx_dnum(d, d->id_rec, HX_F_SILENCE, -1);
	if (q < HX_SILENCE_WAIT_S || q >= HX_SILENCE_MAX_S)
		return;
	d->cat = HX_CAT_UNKNOWN;
	d->hang = 1;
	d->verdict = HANGDX_V_HANG;
	t = hx_dstr(d, d->id_rec, HX_F_TEXT);
	hx_dwhere(d, d->id_rec, where, sizeof where);
	snprintf(d->summary, sizeof d->summary,
		 _("Hang of unknown kind (inferred): the log printed nothing for "
		   "%lld s, then the failure at %s: \"%s\". A failure that ends "
		   "such a silence is a wait that ran out; the line does not say "
		   "what it waited for."), (long long)q, where, t ? t : "");
	FACT("It assumes that the %lld s without a line were spent waiting, not "
	     "computing: no line says what the process did in them.", (long long)q);
}

int hx_verdict(struct hangdx_diagnosis *d)
{
	int err;

	d->verdict = HANGDX_V_NO_HANG;
	d->cat = HX_CAT_NONE;
	d->root_rank = -1;
	d->partial = d->ev->c.skipped[HX_S_RECORDS] > 0 ||
		     d->ev->c.skipped[HX_S_LIMIT] > 0;
	d->id_rec = HX_NOREC;
	d->by_signals = false;
	d->aicpu_end_stream = -1;
	hx_signals_collect(d);
	d->fault_first = fault_first(d);
	first_failing(d);
	err = index_records(d);
	if (!err)
		err = hx_roots_local(d);
	if (err)
		return err;
	if (!try_deadlock(d) && !try_deadlock_facts(d) && !try_lost(d) &&
	    !try_link(d) && !try_mismatch(d) &&
	    !try_behind(d) && !try_sq_full(d) && !try_aicpu_timeout(d) &&
	    !(any_failure(d) && !d->fault_first &&
	      (try_event_chain(d) || try_pool_failed(d) || try_chain(d))) &&
	    !try_pool_held(d) && !try_stalled(d) && !try_silent(d))
		d->summary[0] = '\0';
	d->hang = d->verdict == HANGDX_V_NO_HANG ? 0 : 1;
	try_field(d);
	open_world(d);
	silence_ended(d);
	err = hx_roots_find(d);
	if (err)
		return err;
	d->first_err_rank = d->first_rank;
	lost_first(d);
	if (d->verdict != HANGDX_V_NO_HANG)
		fixes(d);
	risks(d);
	config_mismatch(d);
	missing(d);
	err = group_ranks(d);
	if (!err)
		err = hx_roots_groups(d);
	if (!err)
		err = thr_notes(d);
	return err ? err : h0_note(d);
}
