/*
 * dot.c - the wait-for graph in Graphviz DOT, the last stage of the
 * pipeline for `simulate` (the graph at block time) and `diagnose` (the
 * graph rebuilt from logs): tasks grouped by rank and stream, the AICPU
 * pool as one node listing its holders, edges labelled with what they
 * wait for, the deadlock cycle in red, and ranks whose part of the graph
 * is alike folded into one cluster.  Every label is escaped: it may come
 * from a log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

#define MAX_DOT (64u << 20)

/* A DOT double-quoted string body: escape quote and backslash, drop
 * control bytes (newlines become the \n escape of DOT), U+FFFD for bytes
 * that are not UTF-8 (Graphviz reads UTF-8). */
void hx_dot_escape(struct hx_buf *b, const char *s)
{
	size_t n;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			hx_buf_putc(b, '\\');
		if (c == '\n') {
			hx_buf_puts(b, "\\n");
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			continue;
		if (c >= 0x80) {
			n = hx_utf8_len((const unsigned char *)s);
			if (n == 0) {
				hx_buf_puts(b, "\xef\xbf\xbd");
				continue;
			}
			while (--n)
				hx_buf_putc(b, *s++);
		}
		hx_buf_putc(b, *s);
	}
}

struct dotctx {
	const struct hx_wgraph *g;
	const struct hx_state *st;
	uint8_t *in_cycle;      /* per node */
	uint8_t *cyc_edge;      /* per edge */
	int32_t *rep;           /* per rank: representative rank, or itself */
	uint32_t *fold;         /* per rank: how many ranks it stands for */
	const uint8_t *root;    /* per rank: a root (NULL: none marked) */
};

static bool is_root(const struct dotctx *d, uint32_t rank)
{
	return d->root && d->root[rank];
}

static uint32_t node_rank(const struct dotctx *d, uint32_t n)
{
	const struct hx_wnode *w = &d->g->nodes[n];

	if (w->kind == HX_WN_TASK)
		return d->st->streams[d->st->tasks[w->id].stream].rank;
	if (w->kind == HX_WN_NEVER)
		return d->st->notifies[w->id].rank;
	return w->id;
}

/* Ranks whose part of the graph is alike (same node kinds, task kinds,
 * task ids and stream ids) fold into the first of them.  One pass sums a
 * per-node hash per rank; then ranks are sorted by that signature.  The
 * sort keys are flat (no shared context), so drawing is re-entrant. */
struct sig_key {
	uint64_t sig;
	uint32_t rank;
};

static int sig_cmp(const void *a, const void *b)
{
	const struct sig_key *x = a, *y = b;

	if (x->sig != y->sig)
		return x->sig < y->sig ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* A root marked 1 is drawn on its own; one marked 2 (past the roots
 * shown one by one) folds with alike roots only. */
static uint64_t root_sig(const struct dotctx *d, uint32_t r, uint64_t sig)
{
	if (!is_root(d, r))
		return sig;
	if (d->root[r] == 1)
		return sig + hx_hash(&r, sizeof r) * 2 + 1;
	return sig + 0x9e3779b97f4a7c15ull;
}

static void fold_ranks(struct dotctx *d)
{
	uint32_t nr = d->st->nranks, r, i;
	uint64_t *sig = hx_calloc(d->st->ctx, nr + 1, sizeof *sig);
	struct sig_key *ord = hx_calloc(d->st->ctx, nr + 1, sizeof *ord);

	for (r = 0; r < nr; r++) {
		d->rep[r] = (int32_t)r;
		d->fold[r] = 1;
	}
	if (!sig || !ord)
		goto out_free;
	for (i = 0; i < d->g->nnodes; i++) {
		const struct hx_wnode *w = &d->g->nodes[i];
		uint64_t v[3] = { w->kind, 0, 0 };

		if (w->kind == HX_WN_TASK) {
			const struct hx_task *t = &d->st->tasks[w->id];
			v[1] = ((uint64_t)t->kind << 32) | t->task_id;
			v[2] = ((uint64_t)t->state << 32) |
			       d->st->streams[t->stream].id;
		}
		sig[node_rank(d, i)] += hx_hash(v, sizeof v) | 1;
	}
	for (r = 0; r < nr; r++)
		ord[r] = (struct sig_key){ sig[r] ? root_sig(d, r, sig[r]) : 0, r };
	qsort(ord, nr, sizeof *ord, sig_cmp);
	for (i = 1; i < nr; i++) {
		uint32_t a = ord[i].rank, first = (uint32_t)d->rep[ord[i - 1].rank];
		if (ord[i].sig == 0 || ord[i].sig != ord[i - 1].sig)
			continue;
		d->rep[a] = (int32_t)first;
		d->fold[first]++;
	}
out_free:
	hx_free(d->st->ctx, sig);
	hx_free(d->st->ctx, ord);
}

static void mark_cycle(struct dotctx *d)
{
	size_t i, j;

	for (i = 0; i < d->g->ncycle; i++) {
		uint32_t a = d->g->cycle[i];
		uint32_t b = d->g->cycle[(i + 1) % d->g->ncycle];

		d->in_cycle[a] = 1;
		for (j = 0; j < d->g->nedges; j++)
			if (d->g->edges[j].from == a && d->g->edges[j].to == b)
				d->cyc_edge[j] = 1;
	}
	/* the ranks of the cycle are never folded away */
	for (i = 0; i < d->g->ncycle; i++) {
		uint32_t r = node_rank(d, d->g->cycle[i]);
		if (d->rep[r] != (int32_t)r) {
			d->fold[d->rep[r]]--;
			d->rep[r] = (int32_t)r;
			d->fold[r] = 1;
		}
	}
}

static void node_label(const struct dotctx *d, uint32_t n, struct hx_buf *b)
{
	const struct hx_wnode *w = &d->g->nodes[n];
	char lab[256];

	if (w->kind == HX_WN_TASK) {
		const struct hx_task *t = &d->st->tasks[w->id];
		char obj[96] = "";

		hx_task_label(d->st, w->id, lab, sizeof lab);
		/* drop the "rankN stream" prefix: the cluster says it */
		{
			const char *p = strchr(lab, '#');
			hx_dot_escape(b, p ? p : lab);
		}
		if ((t->kind == HX_T_NOTIFY_WAIT || t->kind == HX_T_NOTIFY_RECORD) &&
		    t->notify >= 0)
			snprintf(obj, sizeof obj, "\\nnotify id %u",
				 d->st->notifies[t->notify].rt_id);
		hx_buf_puts(b, obj);
		hx_buf_printf(b, "\\n%s",
			      hx_task_state_name((enum hx_task_state)t->state));
		return;
	}
	if (w->kind == HX_WN_POOL) {
		const struct hx_pool *p = &d->st->dev[w->id].pool;
		uint32_t i;

		hx_buf_printf(b, "AICPU pool\\n%u/%u cores held", p->busy, p->cap);
		for (i = 0; i < p->cap; i++) {
			if (p->holder[i] < 0)
				continue;
			hx_task_label(d->st, (uint32_t)p->holder[i], lab, sizeof lab);
			hx_buf_printf(b, "\\ncore %u: ", i);
			hx_dot_escape(b, strchr(lab, ' ') ? strchr(lab, ' ') + 1 : lab);
		}
		if (p->nwait)
			hx_buf_printf(b, "\\n%zu waiting", p->nwait);
		return;
	}
	if (w->kind == HX_WN_LOST) {
		hx_buf_printf(b, "rank %u LOST\\n(process gone)", w->id);
		return;
	}
	hx_notify_label(d->st, (int32_t)w->id, lab, sizeof lab);
	hx_buf_puts(b, "never recorded: ");
	hx_dot_escape(b, lab);
}

static void emit_node(const struct dotctx *d, uint32_t n, struct hx_buf *b)
{
	const struct hx_wnode *w = &d->g->nodes[n];
	static const char *const shape[] = { "box", "box3d", "octagon",
					     "doubleoctagon" };

	hx_buf_printf(b, "      n%u [shape=%s, label=\"", n, shape[w->kind]);
	node_label(d, n, b);
	hx_buf_puts(b, "\"");
	if (d->in_cycle[n])
		hx_buf_puts(b, ", color=red, penwidth=2, fontcolor=red");
	else if (w->kind == HX_WN_LOST || w->kind == HX_WN_NEVER)
		hx_buf_puts(b, ", color=gray40, style=dashed");
	hx_buf_puts(b, "];\n");
}

/* Node order for drawing: by rank, then stream (non-tasks last); keys
 * taken once, so the sort needs no shared context. */
struct node_key {
	uint32_t rank, node;
	uint64_t stream;
};

static int node_cmp(const void *a, const void *b)
{
	const struct node_key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static void node_order(const struct dotctx *d, struct node_key *k,
		       uint32_t *ord)
{
	size_t i, n = d->g->nnodes;

	for (i = 0; i < n; i++) {
		const struct hx_wnode *w = &d->g->nodes[i];
		k[i].rank = node_rank(d, (uint32_t)i);
		k[i].node = (uint32_t)i;
		k[i].stream = w->kind == HX_WN_TASK
			? d->st->tasks[w->id].stream : UINT64_MAX;
	}
	if (n)
		qsort(k, n, sizeof *k, node_cmp);
	for (i = 0; i < n; i++)
		ord[i] = k[i].node;
}

static void open_rank(const struct dotctx *d, uint32_t rank, struct hx_buf *b)
{
	hx_buf_printf(b, "  subgraph cluster_r%u {\n    label=\"rank %u (device %u)",
		      rank, rank, d->st->dev[rank].device_id);
	if (d->fold[rank] > 1)
		hx_buf_printf(b, " and %u alike ranks", d->fold[rank] - 1);
	if (is_root(d, rank))
		hx_buf_puts(b, ": root\"; style=filled; fillcolor=gray96; color=red; "
			       "penwidth=2; fontcolor=red;\n");
	else
		hx_buf_puts(b, "\"; style=filled; fillcolor=gray96;\n");
}

static void open_stream(const struct dotctx *d, uint32_t stream,
			struct hx_buf *b)
{
	char sl[64];

	hx_stream_label(d->st, stream, sl, sizeof sl);
	hx_buf_printf(b, "    subgraph cluster_s%u {\n      label=\"stream ", stream);
	hx_dot_escape(b, sl);
	hx_buf_printf(b, " (id %u)\"; style=rounded;\n", d->st->streams[stream].id);
}

static void emit_nodes(const struct dotctx *d, const uint32_t *ord,
		       struct hx_buf *b)
{
	int64_t cur_rank = -1, cur_stream = -1;
	size_t i;

	for (i = 0; i < d->g->nnodes; i++) {
		uint32_t n = ord[i], r = node_rank(d, n);
		int64_t s = d->g->nodes[n].kind == HX_WN_TASK
			? (int64_t)d->st->tasks[d->g->nodes[n].id].stream : -1;

		if (d->rep[r] != (int32_t)r)
			continue;
		if ((int64_t)r != cur_rank || s != cur_stream) {
			if (cur_stream >= 0)
				hx_buf_puts(b, "    }\n");
			cur_stream = -1;
		}
		if ((int64_t)r != cur_rank) {
			if (cur_rank >= 0)
				hx_buf_puts(b, "  }\n");
			open_rank(d, r, b);
			cur_rank = r;
		}
		if (s >= 0 && s != cur_stream) {
			open_stream(d, (uint32_t)s, b);
			cur_stream = s;
		}
		emit_node(d, n, b);
	}
	if (cur_stream >= 0)
		hx_buf_puts(b, "    }\n");
	if (cur_rank >= 0)
		hx_buf_puts(b, "  }\n");
}

static void emit_edges(const struct dotctx *d, struct hx_buf *b)
{
	size_t i;

	for (i = 0; i < d->g->nedges; i++) {
		const struct hx_wedge *e = &d->g->edges[i];
		uint32_t ra = node_rank(d, e->from), rb = node_rank(d, e->to);

		if (d->rep[ra] != (int32_t)ra || d->rep[rb] != (int32_t)rb)
			continue;
		hx_buf_printf(b, "  n%u -> n%u [label=\"%s\"", e->from, e->to,
			      hx_wedge_why_name((enum hx_wedge_why)e->why));
		if (d->cyc_edge[i])
			hx_buf_puts(b, ", color=red, penwidth=2.5, fontcolor=red");
		else if (e->why == HX_WE_HOLDS)
			hx_buf_puts(b, ", style=dashed");
		hx_buf_puts(b, "];\n");
	}
}

int hx_report_dot(struct hx_buf *b, const struct hx_wgraph *g,
		  const struct hx_state *st, const char *title,
		  const uint8_t *root)
{
	struct dotctx d;
	uint32_t *ord;
	struct node_key *keys;
	int err = HANGDX_ENOMEM;

	memset(&d, 0, sizeof d);
	d.g = g;
	d.st = st;
	d.root = root;
	d.in_cycle = hx_calloc(st->ctx, g->nnodes + 1, 1);
	d.cyc_edge = hx_calloc(st->ctx, g->nedges + 1, 1);
	d.rep = hx_calloc(st->ctx, st->nranks + 1, sizeof *d.rep);
	d.fold = hx_calloc(st->ctx, st->nranks + 1, sizeof *d.fold);
	ord = hx_calloc(st->ctx, g->nnodes + 1, sizeof *ord);
	keys = hx_calloc(st->ctx, g->nnodes + 1, sizeof *keys);
	if (!d.in_cycle || !d.cyc_edge || !d.rep || !d.fold || !ord || !keys)
		goto out_free;
	fold_ranks(&d);
	mark_cycle(&d);
	hx_buf_puts(b, "digraph hangdx {\n  graph [rankdir=LR, fontname=\"Helvetica\", label=\"");
	hx_dot_escape(b, title ? title : "wait-for graph");
	hx_buf_puts(b, "\", labelloc=t];\n  node [fontname=\"Helvetica\", fontsize=10];\n"
		       "  edge [fontname=\"Helvetica\", fontsize=9];\n");
	node_order(&d, keys, ord);
	emit_nodes(&d, ord, b);
	emit_edges(&d, b);
	err = hx_buf_puts(b, "}\n");
out_free:
	hx_free(st->ctx, ord);
	hx_free(st->ctx, keys);
	hx_free(st->ctx, d.in_cycle);
	hx_free(st->ctx, d.cyc_edge);
	hx_free(st->ctx, d.rep);
	hx_free(st->ctx, d.fold);
	return err;
}
