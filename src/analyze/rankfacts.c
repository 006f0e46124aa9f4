/*
 * rankfacts.c - facts standing in for a rank's devices inside one
 * diagnosis: a rank whose full evidence was not read (factfile.c) gives
 * the analysis its rank fact where its devices' records would have given
 * it (its seen, stall and held pool after facts.c collects, its kernel
 * count after snapshot.c counts, its dead pools after the cycle search).
 * It calls nothing back: the rounds that choose what to read are
 * twophase.c's.
 */
#include <string.h>
#include "analyze.h"

int hx_rf_bind(struct hangdx_diagnosis *d)
{
	uint32_t r;

	if (!d->facts_src)
		return HANGDX_OK;
	d->rf = hx_arena_alloc(&d->arena, (d->nranks + 1) * sizeof *d->rf);
	if (!d->rf)
		return HANGDX_ENOMEM;
	for (r = 0; r <= d->nranks; r++) {
		bool got = r < d->nfetch_mask && d->fetched_mask[r];

		d->rf[r] = r < d->pseudo_base && r < d->nranks && !got
			   ? hx_facts_rank(d->facts_src, (int32_t)r) : NULL;
	}
	return HANGDX_OK;
}

/* The kernel status records of the evidence by (file, line): the facts'
 * evidence is the diagnosis's, so file ids compare as they are. */
static uint64_t line_key(uint32_t file, uint64_t line)
{
	return hx_map_key(((uint64_t)file << 40) ^ line);
}

static int index_kernel_lines(const struct hangdx_diagnosis *d, struct hx_map *m)
{
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < d->norder && !err; i++) {
		const struct hx_rec *r = &d->ev->recs[d->order[i]];
		struct hx_map_slot *sl;

		if (r->kind != HX_K_AICPU_KERNEL)
			continue;
		sl = hx_map_slot(d->ctx, m, line_key(r->file, r->line), &err);
		if (sl && sl->val < 0)
			sl->val = (int32_t)d->order[i];
	}
	return err;
}

static uint32_t find_record(const struct hangdx_diagnosis *d,
			    const struct hx_map *m, uint32_t file, uint64_t line)
{
	long i = hx_map_find(m, line_key(file, line));
	const struct hx_rec *r;

	if (i < 0)
		return HX_NOREC;
	r = &d->ev->recs[i];
	return r->file == file && r->line == line ? (uint32_t)i : HX_NOREC;
}

static int64_t later(int64_t a, int64_t b)
{
	if (a == HX_NONE)
		return b;
	return b != HX_NONE && b > a ? b : a;
}

void hx_rf_after_collect(struct hangdx_diagnosis *d)
{
	struct hx_map lines = { 0 };
	bool indexed = false;
	uint32_t r;

	if (!d->rf)
		return;
	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankfact *rf = d->rf[r];
		struct hx_rankinfo *ri = &d->ranks[r];

		if (!rf)
			continue;
		ri->seen = true;        /* its facts arrived: never "no logs" */
		ri->device_seen = rf->device_seen;
		ri->last_ts = later(ri->last_ts, rf->last_ts);
		ri->last_progress_ts = later(ri->last_progress_ts, rf->last_progress_ts);
		d->last_ts = later(d->last_ts, rf->last_ts);
		ri->stalled = rf->stalled;
		ri->stall_us = rf->stall_us;
		ri->stall_rec = HX_NOREC;
		if (rf->stall_file != HX_NOSTR && d->ev == hx_facts_evidence(d->facts_src)) {
			if (!indexed && index_kernel_lines(d, &lines) == HANGDX_OK)
				indexed = true;
			if (indexed)
				ri->stall_rec = find_record(d, &lines, rf->stall_file,
							    rf->stall_line);
		}
		if (rf->stall_under_us > d->stall_under_us)
			d->stall_under_us = rf->stall_under_us;
		ri->pool_held = rf->pool_held;
		ri->pool_held_us = rf->pool_held_us;
		ri->pool_ahead = rf->pool_ahead;
		ri->pool_peer = rf->pool_peer < (int32_t)d->nranks &&
				rf->pool_peer >= HX_PEER_ABSENT ? rf->pool_peer : -1;
		ri->pool_moved_us = rf->pool_moved_us;
		ri->pool_rec = HX_NOREC;
		if (rf->pool_held && rf->pool_file != HX_NOSTR &&
		    d->ev == hx_facts_evidence(d->facts_src)) {
			if (!indexed && index_kernel_lines(d, &lines) == HANGDX_OK)
				indexed = true;
			if (indexed)
				ri->pool_rec = find_record(d, &lines, rf->pool_file,
							   rf->pool_line);
		}
	}
	hx_map_free(d->ctx, &lines);
}

void hx_rf_after_kernels(struct hangdx_diagnosis *d)
{
	uint32_t r;

	for (r = 0; d->rf && r < d->nranks; r++)
		if (d->rf[r]) {
			d->ranks[r].kernels = d->rf[r]->kernels;
			d->ranks[r].kernels_inferred = d->rf[r]->kernels_inferred;
		}
}

/* The cycle search starts from every pool never released, up to its
 * limit: past it the report says so, and so it must when most pools
 * are in facts rather than in the graph. */
void hx_rf_after_detect(struct hangdx_diagnosis *d)
{
	const struct hx_wgraph *g = &d->wg;
	size_t i, pools = 0;

	if (!d->rf || !g->released)
		return;
	for (i = 0; i < g->nnodes; i++)
		pools += g->nodes[i].kind == HX_WN_POOL && !g->released[i];
	for (i = 0; i < d->nranks; i++)
		if (d->rf[i])
			pools += d->rf[i]->dead_pools;
	if (pools > HX_MAX_CYCLE_STARTS)
		d->wg.starts_cut = true;
}
