/*
 * twophase.c - the diagnosis of many machines' facts, phase 1 -> fetch ->
 * phase 2.  Phase 1 diagnoses the facts of every rank: each rank's facts
 * stand in for its devices (rankfacts.c).  Then the ranks the verdict
 * needs (root, first failing, the ranks of the chain, one rank of each
 * group) are fetched in full (fetch.c, or the caller's fetch), checked
 * against their facts, and the job is diagnosed again; again while the
 * verdict needs a rank it has not read.
 */
#include <stdlib.h>
#include <string.h>
#include "analyze.h"

/* ---- the ranks a verdict needs ---- */

struct need {
	struct hangdx_ctx *ctx;
	int32_t *r;
	size_t n, cap;
	int err;
};

static void need_add(struct need *nd, const struct hangdx_facts *f,
		     const uint8_t *mask, size_t nmask, int64_t r)
{
	size_t i;
	void *v = nd->r;

	if (nd->err || r < 0 || r >= (int64_t)nmask || mask[r] ||
	    !hx_facts_rank(f, (int32_t)r))
		return;
	for (i = 0; i < nd->n; i++)
		if (nd->r[i] == r)
			return;
	nd->err = hx_vec_reserve(nd->ctx, &v, &nd->cap, nd->n + 1, sizeof *nd->r,
				 HX_MAX_RANKS);
	if (nd->err)
		return;
	nd->r = v;
	nd->r[nd->n++] = (int32_t)r;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static void needed(const struct hangdx_diagnosis *d, const struct hangdx_facts *f,
		   const uint8_t *mask, size_t nmask, struct need *nd)
{
	size_t i, k;

	need_add(nd, f, mask, nmask, d->root_rank);
	need_add(nd, f, mask, nmask, d->first_rank);
	need_add(nd, f, mask, nmask, d->first_err_rank);
	need_add(nd, f, mask, nmask, d->tie_rank);
	for (i = 0; i < d->nhops; i++)
		need_add(nd, f, mask, nmask, d->hops[i].rank);
	for (i = 0; i < d->nroots && i < HX_ROOTS_READ; i++)
		need_add(nd, f, mask, nmask, d->roots[i]);
	/* ranks whose own state holds a cycle: the proof is rebuilt there */
	for (i = 0, k = 0; d->local_cycle && i < d->nranks && k < HX_ROOTS_READ; i++)
		if (d->local_cycle[i]) {
			need_add(nd, f, mask, nmask, (int64_t)i);
			k++;
		}
	for (i = 0; i < d->ngroups && i < HX_GROUP_REPS; i++)
		if (d->groups[i].nranks)
			need_add(nd, f, mask, nmask, d->groups[i].ranks[0]);
	if (nd->n)
		qsort(nd->r, nd->n, sizeof *nd->r, cmp_i32);
}

/* ---- the rounds ---- */

struct rounds {
	struct hangdx_facts *f;
	const struct hangdx_diagnose_opts *opts;
	hangdx_fetch_fn *fetch;
	void *ud;
	struct hangdx_ctx *ctx;
	uint8_t *mask;              /* rank read in full */
	uint8_t *unread;            /* asked for but not delivered */
	size_t nmask;
	struct hx_notfetched nf;    /* files not read again, and why */
	struct hangdx_evidence *got;
};

static int verify(struct rounds *R, const int32_t *ranks, size_t n);

/* A file a node's record ceiling cut (its facts say how many of its
 * records it kept) is kept to that share when read again here, where
 * fewer files share the ceiling: phase 2 then sees what the node saw. */
static int keep_shares(struct rounds *R)
{
	const struct hangdx_evidence *fev = hx_facts_evidence(R->f);
	struct hx_map mf = { 0 };
	const char **paths = NULL;
	uint64_t *keep = NULL;
	size_t n = 0, i;
	int err = hx_fetch_index_files(fev, &mf);

	if (!err) {
		paths = hx_calloc(R->ctx, R->got->nfile + 1, sizeof *paths);
		keep = hx_calloc(R->ctx, R->got->nfile + 1, sizeof *keep);
		if (!paths || !keep)
			err = HANGDX_ENOMEM;
	}
	for (i = 0; !err && i < R->got->nfile; i++) {
		const char *p = hx_ev_str(R->got, R->got->files[i].path);
		const struct hx_filesum *a = hx_fetch_file_of(fev, &mf, p);

		if (a && a->rec_cut) {
			paths[n] = p;
			keep[n++] = a->kept;
		}
	}
	if (!err && n)
		err = hx_ev_keep_first(R->got, paths, keep, n);
	hx_free(R->ctx, (void *)paths);
	hx_free(R->ctx, keep);
	hx_map_free(R->ctx, &mf);
	return err;
}

/* Ask for the ranks in nd; those delivered are marked read. */
static int ask(struct rounds *R, const struct need *nd)
{
	struct hx_map fidx = { 0 };
	int32_t *ok;
	size_t n = 0, i;
	int err = HANGDX_OK;

	ok = hx_alloc(R->ctx, (nd->n + 1) * sizeof *ok);
	if (!ok)
		return HANGDX_ENOMEM;
	if (!R->fetch)
		err = hx_fetch_index_files(hx_facts_evidence(R->f), &fidx);
	for (i = 0; i < nd->n && !err; i++) {
		if (!R->fetch && !hx_fetch_readable(R->f, &fidx, nd->r[i], &R->nf))
			R->unread[nd->r[i]] = 1;
		else
			ok[n++] = nd->r[i];
	}
	if (n && !err) {
		int e = R->fetch ? R->fetch(R->ud, ok, n, R->got)
				 : hx_fetch_local(R->f, &R->nf, ok, n, R->got);

		if (e == HANGDX_ENOMEM)
			err = e;
		for (i = 0; i < n; i++) {
			if (e)
				R->unread[ok[i]] = 1;
			else
				R->mask[ok[i]] = 1;
		}
		if (!e && !err)
			err = verify(R, ok, n);
		if (!e && !err)
			err = keep_shares(R);
	}
	/* a rank asked for is never asked again */
	for (i = 0; i < nd->n; i++)
		R->mask[nd->r[i]] = 1;
	hx_map_free(R->ctx, &fidx);
	hx_free(R->ctx, ok);
	return err;
}

/* A rank's files read again must be those its facts were made from: a
 * file of other content at the same path (another node's copy, or the
 * log rewritten since) is not its evidence.  Such a rank is unread, and
 * its files go from what was fetched. */
static int verify(struct rounds *R, const int32_t *ranks, size_t n)
{
	const struct hangdx_evidence *fev = hx_facts_evidence(R->f);
	struct hx_map mf = { 0 }, mg = { 0 };
	const char **drop = NULL;
	size_t nd = 0, cap = 0, i;
	int err = hx_fetch_index_files(fev, &mf);

	if (!err)
		err = hx_fetch_index_files(R->got, &mg);
	for (i = 0; i < n && !err; i++) {
		const struct hx_rankfact *rf = hx_facts_rank(R->f, ranks[i]);
		bool bad = false;
		uint32_t j;

		for (j = 0; rf && j < rf->nf && !bad; j++) {
			const char *p = hx_facts_file(R->f, rf, j);
			const struct hx_filesum *a = hx_fetch_file_of(fev, &mf, p);
			const struct hx_filesum *b = hx_fetch_file_of(R->got, &mg, p);

			/* a file the facts summarise must come back the same;
			 * one they do not (a fetch from elsewhere) is taken */
			bad = a ? b && !hx_filesum_same(a, b) : !R->fetch && b;
		}
		if (!bad || !R->mask[ranks[i]])
			continue;
		hx_fetch_refused(&R->nf, ranks[i], hx_facts_file(R->f, rf, j - 1),
			    _("its content here is not what its facts were made from"));
		R->mask[ranks[i]] = 0;
		R->unread[ranks[i]] = 1;
		for (j = 0; j < rf->nf && !err; j++) {
			void *v = drop;

			err = hx_vec_reserve(R->ctx, &v, &cap, nd + 1, sizeof *drop,
					     HX_MAX_RANKS);
			if (!err) {
				drop = v;
				drop[nd++] = hx_facts_file(R->f, rf, j);
			}
		}
	}
	if (!err && nd)
		err = hx_ev_drop_named(R->got, drop, nd);
	hx_free(R->ctx, (void *)drop);
	hx_map_free(R->ctx, &mf);
	hx_map_free(R->ctx, &mg);
	return err;
}

/* The facts' records of the files read again give way to the full ones,
 * in place (no copy of the facts of every rank), and the diagnosis is
 * made again. */
static int rediagnose(struct rounds *R, struct hangdx_diagnosis **d)
{
	struct hangdx_evidence *ev = hx_facts_evidence_mut(R->f);
	uint8_t *read;
	size_t i;
	int err;

	read = hx_alloc(R->ctx, R->nmask + 1);
	if (!read)
		return HANGDX_ENOMEM;
	for (i = 0; i < R->nmask; i++)
		read[i] = R->mask[i] && !R->unread[i];
	hangdx_diagnosis_free(*d);
	*d = NULL;
	err = hx_ev_drop_files(ev, R->got);
	if (!err)
		err = hangdx_evidence_merge(ev, R->got);
	if (!err)
		err = hx_diagnose_with(ev, R->opts, R->f, read, R->nmask, d);
	if (!err) {
		(*d)->fetched_mask = NULL;      /* only for the build */
		(*d)->nfetch_mask = 0;
	}
	hangdx_evidence_free(R->got);
	R->got = NULL;
	if (!err)
		err = hangdx_evidence_new(R->ctx, &R->got);
	hx_free(R->ctx, read);
	return err;
}

/* The ranks read in full, and one note naming those that could not be. */
static int finish(struct rounds *R, struct hangdx_diagnosis *d)
{
	char list[256] = "";
	size_t i, n = 0, bad = 0, l = 0;

	d->fetched = hx_alloc(R->ctx, (R->nmask + 1) * sizeof *d->fetched);
	if (!d->fetched)
		return HANGDX_ENOMEM;
	for (i = 0; i < R->nmask; i++) {
		if (R->mask[i] && !R->unread[i])
			d->fetched[n++] = (int32_t)i;
		else if (R->unread[i] && bad++ < 16 && l < sizeof list)
			l += (size_t)snprintf(list + l, sizeof list - l, "%s%zu",
					      bad > 1 ? ", " : "", i);
	}
	d->nfetched = n;
	for (i = 0; i < R->nf.n; i++) {
		int err = hx_dlist_add(d, &d->missing, &d->nmissing, &d->capmissing,
				       "%s", R->nf.line[i]);
		if (err)
			return err;
	}
	if (R->nf.total > R->nf.n) {
		int err = hx_dlist_add(d, &d->missing, &d->nmissing, &d->capmissing,
			_("... and %zu more files not read again"),
			(size_t)(R->nf.total - R->nf.n));
		if (err)
			return err;
	}
	if (!bad)
		return HANGDX_OK;
	if (bad > 16 && l < sizeof list)
		snprintf(list + l, sizeof list - l, _(" and %zu more"), bad - 16);
	if (bad == 1)
		return hx_dlist_add(d, &d->missing, &d->nmissing, &d->capmissing,
			_("the full evidence of rank %s could not be read here (its "
			  "files are not on this machine, or its node did not send "
			  "them): its facts stand in for its devices, and no chain "
			  "through it is shown"), list);
	return hx_dlist_add(d, &d->missing, &d->nmissing, &d->capmissing,
		_("the full evidence of ranks %s could not be read here (their "
		  "files are not on this machine, or their nodes did not send "
		  "them): their facts stand in for their devices, and no chain "
		  "through them is shown"), list);
}

int hangdx_diagnose_facts(struct hangdx_facts *f,
			  const struct hangdx_diagnose_opts *opts,
			  hangdx_fetch_fn *fetch, void *ud,
			  struct hangdx_diagnosis **out)
{
	struct hangdx_diagnosis *d = NULL;
	struct hangdx_diagnose_opts o = { 0 };
	struct rounds R;
	int round, err;

	*out = NULL;
	if (!f)
		return HANGDX_EINVAL;
	/* the node's --cores when this side gives none: it changes verdicts */
	if (opts)
		o = *opts;
	if (!o.cores)
		o.cores = hx_facts_cores(f);
	memset(&R, 0, sizeof R);
	R.f = f;
	R.opts = &o;
	R.fetch = fetch;
	R.ud = ud;
	R.ctx = hx_facts_evidence(f)->ctx;
	R.nmask = (size_t)hx_facts_max_rank(f) + 1;
	R.mask = hx_calloc(R.ctx, R.nmask + 1, 1);
	R.unread = hx_calloc(R.ctx, R.nmask + 1, 1);
	err = R.mask && R.unread ? hangdx_evidence_new(R.ctx, &R.got) : HANGDX_ENOMEM;
	if (!err)
		err = hx_diagnose_with(hx_facts_evidence(f), opts, f, R.mask,
				       R.nmask, &d);
	if (!err) {
		d->fetched_mask = NULL;
		d->nfetch_mask = 0;
	}
	for (round = 0; !err && round < HX_FETCH_ROUNDS; round++) {
		struct need nd = { R.ctx, NULL, 0, 0, 0 };

		needed(d, f, R.mask, R.nmask, &nd);
		err = nd.err;
		if (!err && nd.n == 0) {
			hx_free(R.ctx, nd.r);
			break;
		}
		if (!err)
			err = ask(&R, &nd);
		hx_free(R.ctx, nd.r);
		if (!err)
			err = rediagnose(&R, &d);
	}
	if (!err)
		err = finish(&R, d);
	hangdx_evidence_free(R.got);
	hx_free(R.ctx, R.mask);
	hx_free(R.ctx, R.unread);
	if (err) {
		hangdx_diagnosis_free(d);
		return err;
	}
	*out = d;
	return HANGDX_OK;
}

size_t hangdx_diagnosis_fetched(const struct hangdx_diagnosis *d,
				int32_t *ranks, size_t max)
{
	size_t i;

	for (i = 0; d && ranks && i < d->nfetched && i < max; i++)
		ranks[i] = d->fetched[i];
	return d ? d->nfetched : 0;
}
