/*
 * roots.c - the roots among many ranks.  A root is a rank whose own state
 * holds the hang: its rebuilt tasks wait for each other in a cycle, it was
 * lost, it never joined, it fell behind (in an event-wait chain without a
 * cycle: its own chain ends at an AICPU task at its head; a chain that
 * leads to another rank is a victim's).  Every other rank that failed
 * only waited: a victim, never named as a root, even when its timeout
 * fired first.  The rank-level wait-for graph (the remote ranks each
 * rank's failures name) says which roots a victim waits on.
 */
#include <stdlib.h>
#include <string.h>
#include "analyze.h"

static bool valid_rank(const struct hangdx_diagnosis *d, int64_t r)
{
	return r >= 0 && (uint64_t)r < d->nranks;
}

void hx_rank_add_peer(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
		      int64_t peer)
{
	uint8_t i;

	if (!ri || !valid_rank(d, peer) || peer == ri->rank)
		return;
	for (i = 0; i < ri->npeers; i++)
		if (ri->peers[i] == peer)
			return;
	if (ri->npeers >= HX_MAX_WAIT_PEERS) {
		d->thr_hits |= HX_THR_PEERS_CUT;
		return;
	}
	ri->peers[ri->npeers++] = (int32_t)peer;
}

/* Which ranks hold a cycle of their own in the rebuilt snapshot. */
int hx_roots_local(struct hangdx_diagnosis *d)
{
	size_t n = (d->nranks > d->st.nranks ? d->nranks : d->st.nranks) + 1;
	uint8_t *mark;
	int err;

	d->local_cycle = hx_arena_alloc(&d->arena, n);
	if (!d->local_cycle)
		return HANGDX_ENOMEM;
	memset(d->local_cycle, 0, n);
	err = HANGDX_OK;
	if (d->have_snapshot && d->wg.ndead > 0 && d->st.nranks > 0) {
		mark = hx_calloc(d->ctx, d->st.nranks + 1, 1);
		if (!mark)
			return HANGDX_ENOMEM;
		err = hx_wgraph_local_cycles(&d->wg, &d->st, mark);
		if (!err)
			memcpy(d->local_cycle, mark, d->st.nranks);
		hx_free(d->ctx, mark);
	}
	for (n = 0; d->rf && n < d->nranks; n++)
		if (d->rf[n])   /* a running hold: try_pool_held judges it again */
			d->local_cycle[n] = d->rf[n]->local_cycle &&
					    !hx_rf_pool_running(d->rf[n]);
	return err;
}

uint32_t hx_roots_nlocal(const struct hangdx_diagnosis *d)
{
	uint32_t r, n = 0;

	for (r = 0; d->local_cycle && r < d->nranks; r++)
		n += d->local_cycle[r];
	return n;
}

static void add_root(struct hangdx_diagnosis *d, int64_t r)
{
	if (!valid_rank(d, r) || d->ranks[r].role == HX_ROLE_ROOT)
		return;
	d->ranks[r].role = HX_ROLE_ROOT;
	d->roots[d->nroots++] = (int32_t)r;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Ranks of the root's communicator stopped at the root's op index, below
 * the others: behind as much as the root. */
static void behind_alike(struct hangdx_diagnosis *d)
{
	const struct hx_rankinfo *b = &d->ranks[d->root_rank];
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri->wait_rec != HX_NOREC && ri->index == b->index &&
		    (!ri->group || !b->group || strcmp(ri->group, b->group) == 0))
			add_root(d, r);
	}
}

/* The ranks of the cycle shown: a cycle across ranks is every one of
 * theirs, none of them only waits. */
static void cycle_roots(struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; d->have_snapshot && i < d->wg.ncycle; i++) {
		const struct hx_wnode *n = &d->wg.nodes[d->wg.cycle[i]];
		if (n->kind == HX_WN_TASK)
			add_root(d, d->st.streams[d->st.tasks[n->id].stream].rank);
		else if (n->kind == HX_WN_POOL)
			add_root(d, n->id);
	}
}

static bool failed(const struct hx_rankinfo *ri)
{
	return ri->wait_rec != HX_NOREC || ri->fail_rec != HX_NOREC ||
	       ri->first_err_rec != HX_NOREC || ri->stuck_rec != HX_NOREC ||
	       ri->npeers > 0;
}

/*
 * The roots of the verdict: the root rank first; for a deadlock the ranks
 * of the cycle shown and every rank whose own tasks hold a cycle; for a lost rank every lost rank; for a rank
 * behind the ranks stopped at its op index.  Then every other rank with a
 * failure of its own is a victim.
 */
int hx_roots_find(struct hangdx_diagnosis *d)
{
	uint32_t r;

	d->nroots = 0;
	d->roots = hx_arena_alloc(&d->arena, (d->nranks + 1) * sizeof *d->roots);
	if (!d->roots)
		return HANGDX_ENOMEM;
	for (r = 0; r < d->nranks; r++)
		d->ranks[r].role = HX_ROLE_NONE;
	if (d->verdict == HANGDX_V_NO_HANG || !valid_rank(d, d->root_rank))
		return HANGDX_OK;
	add_root(d, d->root_rank);
	if (d->verdict == HANGDX_V_DEADLOCK) {
		cycle_roots(d);
		for (r = 0; d->local_cycle && r < d->nranks; r++)
			if (d->local_cycle[r])
				add_root(d, r);
	}
	if (d->cat == HX_CAT_RANK_LOST)
		for (r = 0; r < d->nranks; r++)
			if (d->ranks[r].lost)
				add_root(d, r);
	if (d->cat == HX_CAT_BEHIND)
		behind_alike(d);
	/* an event-wait chain, or the exhaustion inferred on one (no cycle
	 * in the rebuilt state): every rank whose own chain ends so */
	if (d->cat == HX_CAT_EVENT_CHAIN ||
	    (d->cat == HX_CAT_AICPU_DEADLOCK && d->have_snapshot && !d->wg.ncycle))
		for (r = 0; d->have_snapshot && r < d->st.nstreams; r++)
			if (hx_event_root(d, r))
				add_root(d, d->st.streams[r].rank);
	if (d->nroots > 2)
		qsort(d->roots + 1, d->nroots - 1, sizeof *d->roots, cmp_i32);
	for (r = 0; r < d->nranks; r++)
		if (d->ranks[r].role != HX_ROLE_ROOT && failed(&d->ranks[r]))
			d->ranks[r].role = HX_ROLE_VICTIM;
	return HANGDX_OK;
}

/* ---- which roots a victim waits on ---- */

/* Multi-source BFS from the roots over "waits on" edges reversed: near[r]
 * is the root rank r's waits lead to first (itself for a root), -1 none. */
static int nearest_roots(const struct hangdx_diagnosis *d, int32_t *near)
{
	uint32_t *first = hx_calloc(d->ctx, d->nranks + 2, sizeof *first);
	uint32_t *adj, *queue = hx_calloc(d->ctx, d->nranks + 1, sizeof *queue);
	size_t ne = 0, qh = 0, qt = 0;
	uint32_t r, k;
	uint8_t i;

	for (r = 0; r < d->nranks; r++)
		ne += d->ranks[r].npeers;
	adj = hx_calloc(d->ctx, ne + 1, sizeof *adj);
	if (!first || !adj || !queue) {
		hx_free(d->ctx, first);
		hx_free(d->ctx, adj);
		hx_free(d->ctx, queue);
		return HANGDX_ENOMEM;
	}
	for (r = 0; r < d->nranks; r++)        /* edge r -> p, kept as p -> r */
		for (i = 0; i < d->ranks[r].npeers; i++)
			first[d->ranks[r].peers[i] + 2]++;
	for (r = 2; r < d->nranks + 2; r++)
		first[r] += first[r - 1];
	for (r = 0; r < d->nranks; r++)
		for (i = 0; i < d->ranks[r].npeers; i++)
			adj[first[d->ranks[r].peers[i] + 1]++] = r;
	for (r = 0; r < d->nranks; r++)
		near[r] = -1;
	for (k = 0; k < d->nroots; k++) {
		near[d->roots[k]] = d->roots[k];
		queue[qt++] = (uint32_t)d->roots[k];
	}
	while (qh < qt) {
		uint32_t n = queue[qh++];
		for (k = first[n]; k < first[n + 1]; k++)
			if (near[adj[k]] < 0 && d->ranks[adj[k]].role != HX_ROLE_ROOT) {
				near[adj[k]] = near[n];
				queue[qt++] = adj[k];
			}
	}
	hx_free(d->ctx, first);
	hx_free(d->ctx, adj);
	hx_free(d->ctx, queue);
	return HANGDX_OK;
}

/* A rank waited on that leads to no root: kept once, the first
 * HX_GROUP_LEAD of them, the rest counted. */
static void put_lead(struct hx_group *gr, int32_t peer)
{
	uint32_t i;

	for (i = 0; i < gr->nlead; i++)
		if (gr->lead[i] == peer)
			return;
	if (gr->nlead < HX_GROUP_LEAD)
		gr->lead[gr->nlead++] = peer;
	else
		gr->lead_more++;
}

static void put_wait(struct hx_group *gr, int32_t root)
{
	uint32_t i;

	if (root < 0)
		return;
	for (i = 0; i < gr->nwaits; i++)
		if (gr->waits[i] == root)
			return;
	gr->waits[gr->nwaits++] = root;
}

/* Per group: its role, and the roots its victims' named peers lead to. */
int hx_roots_groups(struct hangdx_diagnosis *d)
{
	int32_t *near;
	size_t g;
	uint32_t k;
	uint8_t i;
	int err;

	for (g = 0; g < d->ngroups; g++) {
		struct hx_group *gr = &d->groups[g];
		gr->role = gr->nranks ? d->ranks[gr->ranks[0]].role : HX_ROLE_NONE;
		gr->nwaits = 0;
		gr->waits = NULL;
		gr->nlead = gr->lead_more = 0;
		gr->lead = NULL;
	}
	if (!d->nroots)
		return HANGDX_OK;
	near = hx_calloc(d->ctx, d->nranks + 1, sizeof *near);
	if (!near)
		return HANGDX_ENOMEM;
	err = nearest_roots(d, near);
	for (g = 0; !err && g < d->ngroups; g++) {
		struct hx_group *gr = &d->groups[g];
		if (gr->role != HX_ROLE_VICTIM)
			continue;
		gr->waits = hx_arena_alloc(&d->arena,
					   (d->nroots + 1) * sizeof *gr->waits);
		gr->lead = hx_arena_alloc(&d->arena, HX_GROUP_LEAD * sizeof *gr->lead);
		if (!gr->waits || !gr->lead) {
			err = HANGDX_ENOMEM;
			break;
		}
		for (k = 0; k < gr->nranks; k++) {
			const struct hx_rankinfo *ri = &d->ranks[gr->ranks[k]];
			for (i = 0; i < ri->npeers; i++) {
				if (near[ri->peers[i]] < 0)
					put_lead(gr, ri->peers[i]);
				else
					put_wait(gr, near[ri->peers[i]]);
			}
		}
		qsort(gr->waits, gr->nwaits, sizeof *gr->waits, cmp_i32);
		qsort(gr->lead, gr->nlead, sizeof *gr->lead, cmp_i32);
	}
	hx_free(d->ctx, near);
	return err;
}

/* ---- the state that groups a rank ---- */

/* A root and a victim in the same state would be grouped as alike: when
 * that happens, the state says which one each is. */
static bool roots_mixed(const struct hangdx_diagnosis *d)
{
	uint32_t r, q, seen = 0;

	for (r = 0; r < d->nranks && seen < 64; r++) {
		if (d->ranks[r].role != HX_ROLE_ROOT)
			continue;
		seen++;         /* alike roots share a state: a few suffice */
		for (q = 0; q < d->nranks; q++)
			if (d->ranks[q].role == HX_ROLE_VICTIM &&
			    strcmp(d->ranks[q].state, d->ranks[r].state) == 0)
				return true;
	}
	return false;
}

/* After every rank's state is set: tell roots from victims where they
 * would share one. */
void hx_roots_state(struct hx_rankinfo *ri)
{
	const char *tag;
	size_t n = strlen(ri->state), k;

	if (ri->role == HX_ROLE_ROOT)
		tag = _(" (root: its own state holds the hang)");
	else if (ri->role == HX_ROLE_VICTIM)
		tag = _(" (victim: waits on another rank)");
	else
		return;
	k = strlen(tag);
	if (n + k < sizeof ri->state)
		memcpy(ri->state + n, tag, k + 1);
}

bool hx_roots_tag_states(const struct hangdx_diagnosis *d)
{
	return d->nroots > 0 && roots_mixed(d);
}
