/*
 * diagnose.c - the public entry of the analyzer: evidence in, diagnosis
 * out (facts -> snapshot and proof -> verdict), and its accessors.
 */
#include <string.h>
#include "analyze.h"
#include "../core/thresholds.h"

int hangdx_diagnose(const struct hangdx_evidence *ev,
		    const struct hangdx_diagnose_opts *opts,
		    struct hangdx_diagnosis **out)
{
	return hx_diagnose_with(ev, opts, NULL, NULL, 0, out);
}

int hx_diagnose_with(const struct hangdx_evidence *ev,
		     const struct hangdx_diagnose_opts *opts,
		     const struct hangdx_facts *f, const uint8_t *fetched,
		     size_t nfetched, struct hangdx_diagnosis **out)
{
	struct hangdx_diagnosis *d;
	int err;

	*out = NULL;
	d = hx_calloc(ev->ctx, 1, sizeof *d);
	if (!d)
		return HANGDX_ENOMEM;
	d->ctx = ev->ctx;
	d->ev = ev;
	d->cores = opts && opts->cores ? opts->cores : HX_PRODUCT_AICPU_CORES;
	d->cores_given = opts && opts->cores;
	d->root_rank = d->first_rank = d->first_err_rank = -1;
	hx_arena_init(&d->arena, d->ctx, 0);
	d->wg.ctx = d->ctx;
	d->facts_src = f;
	d->fetched_mask = fetched;
	d->nfetch_mask = nfetched;
	err = hx_attrib_build(ev, &d->at);
	if (!err && hx_attrib_groups_cut(d->at))
		d->thr_hits |= HX_THR_GROUPS;
	if (!err)
		err = hx_ev_sorted(ev, &d->order, &d->norder);
	if (!err)
		err = hx_timing_exclude(d);
	if (!err)
		err = hx_facts_collect(d);
	if (!err)
		err = hx_snapshot_build(d);
	if (!err)
		err = hx_verdict(d);
	if (!err)
		err = hx_timing_notes(d);
	if (!err)
		err = d->oom;
	if (err) {
		hangdx_diagnosis_free(d);
		return err;
	}
	*out = d;
	return HANGDX_OK;
}

void hangdx_diagnosis_free(struct hangdx_diagnosis *d)
{
	struct hangdx_ctx *ctx;

	if (!d)
		return;
	ctx = d->ctx;
	if (d->at)
		hx_attrib_free(d->ev, d->at);
	if (d->have_snapshot || d->st.ctx) {
		hx_wgraph_free(&d->wg);
		hx_state_free(&d->st);
	}
	hx_arena_free(&d->snap_sc.arena);
	hx_free(ctx, d->wg.nodes);
	hx_free(ctx, d->task_rec);
	hx_free(ctx, d->pool_rec);
	hx_free(ctx, d->order);
	hx_free(ctx, d->ranks);
	hx_free(ctx, d->rank_of);
	hx_free(ctx, d->pinned);
	hx_free(ctx, d->untimed);
	hx_free(ctx, d->left);
	hx_free(ctx, d->pseudo_pids);
	hx_free(ctx, d->pseudo_where);
	hx_free(ctx, d->hops);
	hx_free(ctx, d->groups);
	hx_free(ctx, (void *)d->fixes);
	hx_free(ctx, (void *)d->missing);
	hx_free(ctx, (void *)d->warnings);
	hx_free(ctx, (void *)d->facts);
	hx_free(ctx, d->fetched);
	hx_arena_free(&d->arena);
	hangdx_evidence_free(d->own_ev);
	hx_free(ctx, d);
}

enum hangdx_verdict hangdx_diagnosis_verdict(const struct hangdx_diagnosis *d)
{
	return (enum hangdx_verdict)d->verdict;
}

const char *hangdx_diagnosis_category(const struct hangdx_diagnosis *d)
{
	return hx_cat_id(d->cat);
}

int hangdx_diagnosis_root_rank(const struct hangdx_diagnosis *d)
{
	return d->root_rank;
}

int hangdx_diagnosis_first_rank(const struct hangdx_diagnosis *d)
{
	return d->first_rank;
}

size_t hangdx_diagnosis_roots(const struct hangdx_diagnosis *d, int32_t *out,
			      size_t n)
{
	size_t i;

	for (i = 0; out && i < n && i < d->nroots; i++)
		out[i] = d->roots[i];
	return d->nroots;
}

int hangdx_diagnosis_proven(const struct hangdx_diagnosis *d)
{
	return d->proven ? 1 : 0;
}

int64_t hangdx_diagnosis_log_time(const struct hangdx_diagnosis *d)
{
	int64_t t = d->last_ts > d->newest_ts ? d->last_ts : d->newest_ts;

	return t == HX_NONE ? INT64_MIN : t;
}

const char *hangdx_diagnosis_summary(const struct hangdx_diagnosis *d)
{
	return d->summary;
}
