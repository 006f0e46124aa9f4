/*
 * waitgraph.c - the wait-for graph of a runtime state and the deadlock
 * proof over it.  Edges follow runtime-model.md §8 (E1-E7): stream order,
 * notify waits to the task that records the notify (here or on a peer),
 * event waits to the recording task, AICPU ops and kernels to their pool,
 * the pool to every core holder (an OR wait), resident kernels to their
 * main stream.  Detection is a Holt-style reduction: what can never be
 * released, even if every missing peer record arrived, is deadlocked.
 */
#include <string.h>
#include "state.h"
#include "../core/thresholds.h"

#define MAX_NODES (1u << 26)

const char *hx_wedge_why_name(enum hx_wedge_why w)
{
	static const char *const names[] = {
		N_("stream order"), N_("notify"), N_("remote notify"), N_("event"),
		N_("AICPU core"), N_("holds core"), N_("main stream drain"),
		N_("order launch"), N_("lost peer"), N_("never recorded")
	};
	return (unsigned)w < HX_ARRAY_LEN(names) ? names[w] : "?";
}

struct gb {                     /* graph under construction */
	struct hx_wgraph *g;
	const struct hx_state *st;
	int32_t *tnode;             /* task -> node, -1 */
	int32_t *pnode;             /* rank -> pool node */
	int32_t *lnode;             /* rank -> lost node */
	int32_t *rec;               /* notify -> pending record task, -1 */
	int err;
};

static int32_t add_node(struct gb *b, uint8_t kind, uint32_t id)
{
	struct hx_wgraph *g = b->g;
	void *v = g->nodes;

	if (b->err)
		return -1;
	b->err = hx_vec_reserve(g->ctx, &v, &g->capnodes, g->nnodes + 1,
				sizeof *g->nodes, MAX_NODES);
	if (b->err)
		return -1;
	g->nodes = v;
	g->nodes[g->nnodes].kind = kind;
	g->nodes[g->nnodes].id = id;
	return (int32_t)g->nnodes++;
}

static void add_edge(struct gb *b, int32_t from, int32_t to, uint8_t why,
		     int32_t obj)
{
	struct hx_wgraph *g = b->g;
	void *v = g->edges;

	if (b->err || from < 0 || to < 0)
		return;
	b->err = hx_vec_reserve(g->ctx, &v, &g->capedges, g->nedges + 1,
				sizeof *g->edges, MAX_NODES);
	if (b->err)
		return;
	g->edges = v;
	g->edges[g->nedges++] = (struct hx_wedge){ (uint32_t)from, (uint32_t)to,
						   why, obj };
}

static int32_t task_node(struct gb *b, uint32_t task);

/* A queued task waits for the head of its stream (E3). */
static void queued_edges(struct gb *b, uint32_t task, int32_t node)
{
	const struct hx_task *t = &b->st->tasks[task];
	long h = hx_state_head(b->st, t->stream);

	if (h >= 0 && (uint32_t)h != task)
		add_edge(b, node, task_node(b, (uint32_t)h), HX_WE_STREAM, -1);
}

static int32_t task_node(struct gb *b, uint32_t task)
{
	int32_t n = b->tnode[task];

	if (n >= 0)
		return n;
	n = add_node(b, HX_WN_TASK, task);
	if (n < 0)
		return -1;
	b->tnode[task] = n;
	if (b->st->tasks[task].state == HX_TS_QUEUED)
		queued_edges(b, task, n);
	return n;
}

static int32_t pool_node(struct gb *b, uint32_t rank)
{
	const struct hx_pool *p = &b->st->dev[rank].pool;
	int32_t n = b->pnode[rank];
	uint32_t i;

	if (n >= 0)
		return n;
	n = add_node(b, HX_WN_POOL, rank);
	if (n < 0)
		return -1;
	b->pnode[rank] = n;
	for (i = 0; i < p->cap; i++)
		if (p->holder[i] >= 0)
			add_edge(b, n, task_node(b, (uint32_t)p->holder[i]),
				 HX_WE_HOLDS, (int32_t)i);
	return n;
}

static int32_t lost_node(struct gb *b, uint32_t rank)
{
	if (b->lnode[rank] < 0)
		b->lnode[rank] = add_node(b, HX_WN_LOST, rank);
	return b->lnode[rank];
}

/* The kernel of (comm, op) on rank that has not run yet, or -1. */
static long pending_kernel(const struct hx_state *st, uint32_t rank,
			   int32_t comm, uint32_t op)
{
	const struct hx_stream *k =
		&st->streams[st->dev[rank].comm[comm].kstream];
	uint32_t p;

	for (p = k->head; p < k->n; p++) {
		const struct hx_task *t = &st->tasks[k->q[p]];
		if (t->kind == HX_T_KERNEL && (op == UINT32_MAX || t->op == op))
			return (long)k->q[p];
	}
	return -1;
}

static void notify_edges(struct gb *b, uint32_t task, int32_t node)
{
	const struct hx_state *st = b->st;
	const struct hx_task *t = &st->tasks[task];
	const struct hx_notify *no = &st->notifies[t->notify];
	int32_t r = b->rec[t->notify];
	long k;

	if (r >= 0) {
		bool remote = st->streams[st->tasks[r].stream].rank != no->rank;
		add_edge(b, node, task_node(b, (uint32_t)r),
			 remote ? HX_WE_REMOTE : HX_WE_NOTIFY, t->notify);
		return;
	}
	if (no->role == HX_NR_PEER && !st->dev[no->peer].alive) {
		add_edge(b, node, lost_node(b, (uint32_t)no->peer),
			 HX_WE_PEER_DEAD, t->notify);
		return;
	}
	if (no->role == HX_NR_PEER &&
	    (k = pending_kernel(st, (uint32_t)no->peer, no->comm, t->op)) >= 0) {
		add_edge(b, node, task_node(b, (uint32_t)k), HX_WE_REMOTE,
			 t->notify);
		return;
	}
	if (no->role == HX_NR_O1 &&
	    (k = pending_kernel(st, no->rank, no->comm, UINT32_MAX)) >= 0) {
		add_edge(b, node, task_node(b, (uint32_t)k), HX_WE_ORDER,
			 t->notify);
		return;
	}
	add_edge(b, node, add_node(b, HX_WN_NEVER, (uint32_t)t->notify),
		 HX_WE_NEVER, t->notify);
}

static void head_edges(struct gb *b, uint32_t task)
{
	const struct hx_state *st = b->st;
	const struct hx_task *t = &st->tasks[task];
	int32_t node = task_node(b, task);
	uint32_t rank = st->streams[t->stream].rank;
	long h;

	switch (t->kind) {
	case HX_T_NOTIFY_WAIT:
		if (t->state == HX_TS_WAITING && t->notify >= 0)
			notify_edges(b, task, node);
		break;
	case HX_T_EVENT_WAIT:
		if (t->state == HX_TS_WAITING && t->dep >= 0)
			add_edge(b, node, task_node(b, (uint32_t)t->dep),
				 HX_WE_EVENT, t->event);
		break;
	case HX_T_AICPU:
	case HX_T_KERNEL:
		if (t->state == HX_TS_WAITING) {
			add_edge(b, node, pool_node(b, rank), HX_WE_CORE, -1);
		} else if (t->kind == HX_T_KERNEL && t->state == HX_TS_RUNNING &&
			   t->end_pos) {
			h = hx_state_head(st, st->dev[rank].comm[t->comm].mstream);
			if (h >= 0)
				add_edge(b, node, task_node(b, (uint32_t)h),
					 HX_WE_DRAIN, -1);
		}
		break;
	default:
		break;
	}
}

static int gb_init(struct gb *b, struct hx_wgraph *g, const struct hx_state *st)
{
	size_t i;

	memset(b, 0, sizeof *b);
	b->g = g;
	b->st = st;
	b->tnode = hx_alloc(st->ctx, (st->ntasks + 1) * sizeof *b->tnode);
	b->pnode = hx_alloc(st->ctx, (st->nranks + 1) * sizeof *b->pnode);
	b->lnode = hx_alloc(st->ctx, (st->nranks + 1) * sizeof *b->lnode);
	b->rec = hx_alloc(st->ctx, (st->nnotifies + 1) * sizeof *b->rec);
	if (!b->tnode || !b->pnode || !b->lnode || !b->rec)
		return HANGDX_ENOMEM;
	memset(b->tnode, 0xff, (st->ntasks + 1) * sizeof *b->tnode);
	memset(b->pnode, 0xff, (st->nranks + 1) * sizeof *b->pnode);
	memset(b->lnode, 0xff, (st->nranks + 1) * sizeof *b->lnode);
	memset(b->rec, 0xff, (st->nnotifies + 1) * sizeof *b->rec);
	/* the first pending record of each notify, in stream order */
	for (i = 0; i < st->ntasks; i++) {
		const struct hx_task *t = &st->tasks[i];
		if (t->kind == HX_T_NOTIFY_RECORD && t->notify >= 0 &&
		    (t->state == HX_TS_QUEUED || t->state == HX_TS_WAITING) &&
		    b->rec[t->notify] < 0 &&
		    !st->streams[t->stream].stopped)
			b->rec[t->notify] = (int32_t)i;
	}
	return HANGDX_OK;
}

static void gb_free(struct gb *b)
{
	struct hangdx_ctx *ctx = b->st->ctx;

	hx_free(ctx, b->tnode);
	hx_free(ctx, b->pnode);
	hx_free(ctx, b->lnode);
	hx_free(ctx, b->rec);
}

int hx_wgraph_build(struct hx_wgraph *g, const struct hx_state *st)
{
	struct gb b;
	size_t i;
	int err;

	hx_wgraph_free(g);
	g->ctx = st->ctx;
	err = gb_init(&b, g, st);
	for (i = 0; !err && !b.err && i < st->nstreams; i++) {
		long h;
		if (st->streams[i].stopped)
			continue;
		h = hx_state_head(st, (uint32_t)i);
		if (h >= 0 && (st->tasks[h].state == HX_TS_WAITING ||
			       st->tasks[h].state == HX_TS_RUNNING))
			head_edges(&b, (uint32_t)h);
	}
	if (!err)
		err = b.err;
	gb_free(&b);
	return err;
}

/* ---- detection ---- */

struct csr {
	uint32_t *first, *adj;
};

static int csr_build(const struct hx_wgraph *g, struct csr *c, bool reverse)
{
	size_t i;

	c->first = hx_calloc(g->ctx, g->nnodes + 2, sizeof *c->first);
	c->adj = hx_calloc(g->ctx, g->nedges + 1, sizeof *c->adj);
	if (!c->first || !c->adj)
		return HANGDX_ENOMEM;
	for (i = 0; i < g->nedges; i++)
		c->first[(reverse ? g->edges[i].to : g->edges[i].from) + 2]++;
	for (i = 2; i < g->nnodes + 2; i++)
		c->first[i] += c->first[i - 1];
	for (i = 0; i < g->nedges; i++) {
		uint32_t a = reverse ? g->edges[i].to : g->edges[i].from;
		uint32_t z = reverse ? g->edges[i].from : g->edges[i].to;
		c->adj[c->first[a + 1]++] = z;
	}
	return HANGDX_OK;
}

static void csr_free(const struct hx_wgraph *g, struct csr *c)
{
	hx_free(g->ctx, c->first);
	hx_free(g->ctx, c->adj);
}

static bool initially_released(const struct hx_wgraph *g,
			       const struct hx_state *st, uint32_t n,
			       const uint32_t *outdeg)
{
	const struct hx_wnode *w = &g->nodes[n];

	if (w->kind == HX_WN_LOST || w->kind == HX_WN_NEVER)
		return true;   /* assume the missing record came */
	if (w->kind == HX_WN_POOL)
		return st->dev[w->id].pool.busy < st->dev[w->id].pool.cap;
	return outdeg[n] == 0;
}

/* Holt-style reduction: AND over a task's edges, OR over a pool's. */
static int reduce(struct hx_wgraph *g, const struct hx_state *st)
{
	struct csr rev;
	uint32_t *left, *work;
	size_t nw = 0, i;
	int err = csr_build(g, &rev, true);

	left = hx_calloc(g->ctx, g->nnodes + 1, sizeof *left);
	work = hx_calloc(g->ctx, g->nnodes + 1, sizeof *work);
	g->released = hx_calloc(g->ctx, g->nnodes + 1, 1);
	if (err || !left || !work || !g->released) {
		err = HANGDX_ENOMEM;
		goto out_free;
	}
	for (i = 0; i < g->nedges; i++)
		left[g->edges[i].from]++;
	for (i = 0; i < g->nnodes; i++)
		if (initially_released(g, st, (uint32_t)i, left)) {
			g->released[i] = 1;
			work[nw++] = (uint32_t)i;
		}
	while (nw > 0) {
		uint32_t n = work[--nw], k;
		for (k = rev.first[n]; k < rev.first[n + 1]; k++) {
			uint32_t p = rev.adj[k];
			if (g->released[p])
				continue;
			if (g->nodes[p].kind == HX_WN_POOL || --left[p] == 0) {
				g->released[p] = 1;
				work[nw++] = p;
			}
		}
	}
	g->ndead = 0;
	for (i = 0; i < g->nnodes; i++)
		g->ndead += !g->released[i];
out_free:
	hx_free(g->ctx, left);
	hx_free(g->ctx, work);
	csr_free(g, &rev);
	return err;
}

/* Shortest cycle through start among unreleased nodes, by BFS. */
static size_t bfs_cycle(struct hx_wgraph *g, const struct csr *fw,
			uint32_t start, int32_t *parent, uint32_t *queue,
			uint32_t *best, size_t bestlen)
{
	size_t qh = 0, qt = 0, i;
	uint32_t n, k;

	for (i = 0; i < g->nnodes; i++)
		parent[i] = -2;
	queue[qt++] = start;
	parent[start] = -1;
	while (qh < qt) {
		n = queue[qh++];
		for (k = fw->first[n]; k < fw->first[n + 1]; k++) {
			uint32_t m = fw->adj[k];
			size_t len = 0;
			int32_t x;

			if (g->released[m])
				continue;
			if (m == start) {
				for (x = (int32_t)n; x >= 0; x = parent[x])
					len++;
				if (bestlen && len >= bestlen)
					return bestlen;
				for (x = (int32_t)n, i = len; x >= 0; x = parent[x])
					best[--i] = (uint32_t)x;
				return len;
			}
			if (parent[m] != -2)
				continue;
			parent[m] = (int32_t)n;
			queue[qt++] = m;
		}
	}
	return bestlen;
}

/* A node on a cycle of never-released nodes: walk from the first one
 * along never-released successors until a node repeats (every such node
 * has one: a task waits for at least one, a pool's holders are all
 * blocked).  -1 if there is none.  seen: nnodes scratch entries. */
static int32_t node_on_cycle(const struct hx_wgraph *g, const struct csr *fw,
			     int32_t *seen)
{
	size_t i;
	uint32_t n, k;

	for (i = 0; i < g->nnodes && g->released[i]; i++)
		;
	if (i == g->nnodes)
		return -1;
	memset(seen, 0, g->nnodes * sizeof *seen);
	for (n = (uint32_t)i; !seen[n]; n = fw->adj[k]) {
		seen[n] = 1;
		for (k = fw->first[n]; k < fw->first[n + 1] &&
				       g->released[fw->adj[k]]; k++)
			;
		if (k == fw->first[n + 1])
			return -1;
	}
	return (int32_t)n;
}

static int find_cycle(struct hx_wgraph *g)
{
	struct csr fw;
	int32_t *parent = hx_alloc(g->ctx, (g->nnodes + 1) * sizeof *parent);
	uint32_t *queue = hx_alloc(g->ctx, (g->nnodes + 1) * sizeof *queue);
	uint32_t *best = hx_alloc(g->ctx, (g->nnodes + 1) * sizeof *best);
	size_t i, tries = 0, len = 0;
	int pass, err = csr_build(g, &fw, false);

	if (err || !parent || !queue || !best) {
		err = HANGDX_ENOMEM;
		goto out_free;
	}
	/* start from pools first: the counted resource explains most */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < g->nnodes; i++) {
			bool pool = g->nodes[i].kind == HX_WN_POOL;
			if (g->released[i] || pool != (pass == 0))
				continue;
			if (tries == HX_MAX_CYCLE_STARTS) {
				g->starts_cut = true;
				break;
			}
			tries++;
			len = bfs_cycle(g, &fw, (uint32_t)i, parent, queue, best,
					len);
		}
		if (len)
			break;
	}
	if (!len) {     /* no cycle through the nodes tried: walk to one */
		int32_t m = node_on_cycle(g, &fw, parent);
		if (m >= 0)
			len = bfs_cycle(g, &fw, (uint32_t)m, parent, queue, best,
					0);
	}
	g->cycle = best;
	g->ncycle = len;
	best = NULL;
out_free:
	hx_free(g->ctx, parent);
	hx_free(g->ctx, queue);
	hx_free(g->ctx, best);
	csr_free(g, &fw);
	return err;
}

/* Shortest path from start to the first node (in BFS order) that lies on
 * a cycle of never-released nodes; that cycle, begun at that node, then
 * replaces g->cycle and the path before it goes to g->lead. */
static int anchor_lead(struct hx_wgraph *g, const struct csr *fw,
		       uint32_t start, int32_t *parent, uint32_t *queue,
		       uint32_t *best, int32_t *pred)
{
	size_t qh = 0, qt = 0, tries = 0, len = 0, i, n;
	uint32_t k, m = start;
	int32_t x;

	for (i = 0; i < g->nnodes; i++)
		pred[i] = -2;
	pred[start] = -1;
	queue[qt++] = start;
	while (qh < qt && tries < HX_MAX_CYCLE_STARTS) {
		uint32_t *q2 = queue + g->nnodes;   /* bfs_cycle's own queue */
		m = queue[qh++];
		tries++;
		len = bfs_cycle(g, fw, m, parent, q2, best, 0);
		if (len)
			break;
		for (k = fw->first[m]; k < fw->first[m + 1]; k++) {
			uint32_t y = fw->adj[k];
			if (g->released[y] || pred[y] != -2)
				continue;
			pred[y] = (int32_t)m;
			queue[qt++] = y;
		}
	}
	if (!len)
		return 0;
	for (n = 0, x = pred[m]; x >= 0; x = pred[x])
		n++;
	hx_free(g->ctx, g->lead);
	g->lead = n ? hx_alloc(g->ctx, n * sizeof *g->lead) : NULL;
	if (n && !g->lead)
		return HANGDX_ENOMEM;
	for (i = n, x = pred[m]; x >= 0; x = pred[x])
		g->lead[--i] = (uint32_t)x;
	g->nlead = n;
	memcpy(g->cycle, best, len * sizeof *best);
	g->ncycle = len;
	return 0;
}

int hx_wgraph_anchor(struct hx_wgraph *g, uint32_t start)
{
	struct csr fw;
	size_t nn = g->nnodes + 1;
	int32_t *parent = hx_alloc(g->ctx, nn * sizeof *parent);
	int32_t *pred = hx_alloc(g->ctx, nn * sizeof *pred);
	uint32_t *queue = hx_alloc(g->ctx, 2 * nn * sizeof *queue);
	uint32_t *best = hx_alloc(g->ctx, nn * sizeof *best);
	int err = csr_build(g, &fw, false);

	if (err || !parent || !pred || !queue || !best) {
		err = HANGDX_ENOMEM;
		goto out_free;
	}
	if (start >= g->nnodes || !g->released || g->released[start] ||
	    !g->ncycle)
		goto out_free;
	err = anchor_lead(g, &fw, start, parent, queue, best, pred);
out_free:
	hx_free(g->ctx, parent);
	hx_free(g->ctx, pred);
	hx_free(g->ctx, queue);
	hx_free(g->ctx, best);
	csr_free(g, &fw);
	return err;
}

int32_t hx_wgraph_task_node(const struct hx_wgraph *g, uint32_t task)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i].kind == HX_WN_TASK && g->nodes[i].id == task)
			return (int32_t)i;
	return -1;
}

int hx_wgraph_detect(struct hx_wgraph *g, const struct hx_state *st)
{
	int err = reduce(g, st);

	if (err || g->ndead == 0)
		return err;
	return find_cycle(g);
}

/* The rank a node belongs to: a task's stream's, a pool's; -1 else. */
static int64_t node_rank(const struct hx_wgraph *g, const struct hx_state *st,
			 uint32_t n)
{
	const struct hx_wnode *w = &g->nodes[n];

	if (w->kind == HX_WN_TASK)
		return st->streams[st->tasks[w->id].stream].rank;
	if (w->kind == HX_WN_POOL)
		return w->id;
	return -1;
}

/* Edge i joins two never-released nodes of one rank. */
static bool local_edge(const struct hx_wgraph *g, const struct hx_state *st,
		       size_t i)
{
	const struct hx_wedge *e = &g->edges[i];
	int64_t a = node_rank(g, st, e->from);

	return a >= 0 && !g->released[e->from] && !g->released[e->to] &&
	       a == node_rank(g, st, e->to);
}

/* Peel every node that waits on no other local never-released node; what
 * is left waits for a node of its own rank that is left too, so the
 * rank's nodes that are left hold a cycle of their own. */
int hx_wgraph_local_cycles(const struct hx_wgraph *g, const struct hx_state *st,
			   uint8_t *mark)
{
	struct csr rev;
	uint32_t *out, *work;
	size_t nw = 0, i;
	int err;

	memset(mark, 0, st->nranks);
	if (!g->released || g->ndead == 0)
		return HANGDX_OK;
	err = csr_build(g, &rev, true);
	out = hx_calloc(g->ctx, g->nnodes + 1, sizeof *out);
	work = hx_calloc(g->ctx, g->nnodes + 1, sizeof *work);
	if (err || !out || !work) {
		err = HANGDX_ENOMEM;
		goto out_free;
	}
	for (i = 0; i < g->nedges; i++)
		if (local_edge(g, st, i))
			out[g->edges[i].from]++;
	for (i = 0; i < g->nnodes; i++)
		if (out[i] == 0)
			work[nw++] = (uint32_t)i;
	while (nw > 0) {
		uint32_t n = work[--nw], k;
		int64_t r = node_rank(g, st, n);
		for (k = rev.first[n]; k < rev.first[n + 1]; k++) {
			uint32_t p = rev.adj[k];
			if (r < 0 || g->released[p] || g->released[n] ||
			    node_rank(g, st, p) != r || out[p] == 0)
				continue;
			if (--out[p] == 0)
				work[nw++] = p;
		}
	}
	for (i = 0; i < g->nnodes; i++) {
		int64_t r = node_rank(g, st, (uint32_t)i);
		if (out[i] > 0 && r >= 0 && (uint64_t)r < st->nranks)
			mark[r] = 1;
	}
out_free:
	hx_free(g->ctx, out);
	hx_free(g->ctx, work);
	csr_free(g, &rev);
	return err;
}

void hx_wgraph_free(struct hx_wgraph *g)
{
	struct hangdx_ctx *ctx = g->ctx;

	if (!ctx)
		return;
	hx_free(ctx, g->nodes);
	hx_free(ctx, g->edges);
	hx_free(ctx, g->cycle);
	hx_free(ctx, g->lead);
	hx_free(ctx, g->released);
	memset(g, 0, sizeof *g);
	g->ctx = ctx;
}
