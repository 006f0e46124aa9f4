/*
 * twophase.c - the diagnosis of many machines' facts (factfile.c).
 * Phase 1 diagnoses the facts of every rank: each rank's facts stand in
 * for its devices.  Phase 2 asks for the full evidence of the ranks the
 * verdict needs (root, first failing, the ranks of the chain, one rank of
 * each group), diagnoses again with their devices rebuilt from it, and
 * asks again while the verdict needs a rank it has not read.
 */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyze.h"

#define MAX_ROUNDS 4
#define MAX_GROUP_REPS 64
#define MAX_ROOTS_READ 8

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
		ri->pool_peer = rf->pool_peer < (int32_t)d->nranks ? rf->pool_peer : -1;
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
	for (i = 0; i < d->nroots && i < MAX_ROOTS_READ; i++)
		need_add(nd, f, mask, nmask, d->roots[i]);
	/* ranks whose own state holds a cycle: the proof is rebuilt there */
	for (i = 0, k = 0; d->local_cycle && i < d->nranks && k < MAX_ROOTS_READ; i++)
		if (d->local_cycle[i]) {
			need_add(nd, f, mask, nmask, (int64_t)i);
			k++;
		}
	for (i = 0; i < d->ngroups && i < MAX_GROUP_REPS; i++)
		if (d->groups[i].nranks)
			need_add(nd, f, mask, nmask, d->groups[i].ranks[0]);
	if (nd->n)
		qsort(nd->r, nd->n, sizeof *nd->r, cmp_i32);
}

/* A file path -> its summary's index, for the files of ev. */
static int index_files(const struct hangdx_evidence *ev, struct hx_map *m)
{
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < ev->nfile && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(ev->ctx, m,
			hx_map_key(ev->files[i].path), &err);
		if (sl)
			sl->val = (int32_t)i;
	}
	return err;
}

static const struct hx_filesum *file_of(const struct hangdx_evidence *ev,
					const struct hx_map *m, const char *p)
{
	long id = hx_intern_find(&ev->strs, p, strlen(p));
	int32_t i = id < 0 ? -1 : hx_map_find(m, hx_map_key((uint64_t)id));

	return i < 0 ? NULL : &ev->files[i];
}

/* ---- fetching from the files the facts name ---- */

/*
 * Phase 2 reads again only what the facts name, and only as it was: a
 * regular file (opened without blocking, then fstat), under an input the
 * facts name (no "..", no link out of it), of this node, with the
 * caller's reading options; never a directory walked.  Anything else is
 * not fetched, said, and the facts stand in.
 */
struct local_fetch {
	const struct hangdx_facts *f;
	struct hangdx_ctx *ctx;
	struct hx_notfetched *nf;       /* what was not fetched, or NULL */
};

/* An archive member "A!/M" is read through its archive A. */
static void outer_path(const char *p, char *buf, size_t n)
{
	const char *bang = strstr(p, "!/");
	size_t len = bang ? (size_t)(bang - p) : strlen(p);

	if (len >= n)
		len = n - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
}

/* Another node's copy of path is held too ("NODE:path"): the file at
 * path here may be either, and is not read for it. */
static bool copied_elsewhere(const struct hangdx_evidence *ev, const char *path)
{
	char buf[4096 + HX_MAX_TAG];
	size_t i;

	for (i = 0; i < ev->tagset.cap && ev->tagset.n; i++) {
		if (!ev->tagset.v[i].key)
			continue;
		snprintf(buf, sizeof buf, "%s%s",
			 hx_ev_str(ev, (uint32_t)ev->tagset.v[i].val), path);
		if (hx_intern_find(&ev->strs, buf, strlen(buf)) >= 0)
			return true;
	}
	return false;
}

static bool has_dotdot(const char *p)
{
	const char *q;

	for (q = p; (q = strstr(q, "..")) != NULL; q += 2)
		if ((q == p || q[-1] == '/') && (q[2] == '\0' || q[2] == '/'))
			return true;
	return false;
}

/* The outer file of p lies in its input root once links are resolved. */
static bool inside_root(const char *p, size_t rootlen, const char *outer)
{
	char root[4096], *rr, *ro;
	bool in;

	if (rootlen >= sizeof root)
		return false;
	memcpy(root, p, rootlen);
	root[rootlen] = '\0';
	if (rootlen > 1 && root[rootlen - 1] == '/')
		root[rootlen - 1] = '\0';
	rr = realpath(root, NULL);
	ro = realpath(outer, NULL);
	in = rr && ro && (strcmp(rr, ro) == 0 ||
			  (strncmp(ro, rr, strlen(rr)) == 0 &&
			   (ro[strlen(rr)] == '/' || strcmp(rr, "/") == 0)));
	free(rr);
	free(ro);
	return in;
}

/* Open a regular file without blocking on a FIFO or a device: the fd,
 * or -1 with why set. */
static int open_regular(const char *path, struct stat *st, char *why, size_t n)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, n, _("cannot open: %s"), strerror(errno));
		return -1;
	}
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		snprintf(why, n, "%s", _("not a regular file"));
		close(fd);
		return -1;
	}
	return fd;
}

/* p (a file the facts name) may be read again here; else why.  fidx
 * (when given) indexes the facts' file summaries: a file they hold no
 * summary of is not one they were made from. */
static bool fetchable(const struct hangdx_facts *f, const struct hx_map *fidx,
		      const char *p, char *why, size_t n)
{
	const struct hangdx_evidence *ev = hx_facts_evidence(f);
	char buf[4096];
	struct stat st;
	long id;
	size_t rl;
	int fd;

	if (hx_ev_tag_len(ev, p)) {
		snprintf(why, n, "%s", _("it was read on another node"));
		return false;
	}
	if (copied_elsewhere(ev, p)) {
		snprintf(why, n, "%s", _("another node's copy of this path is held too"));
		return false;
	}
	if (fidx && !file_of(ev, fidx, p)) {
		snprintf(why, n, "%s", _("the facts hold no summary of it"));
		return false;
	}
	outer_path(p, buf, sizeof buf);
	id = hx_intern_find(&ev->strs, p, strlen(p));
	rl = id < 0 ? 0 : hx_ev_root_len(ev, (uint32_t)id);
	if (strcmp(buf, "-") == 0 || rl == 0 || has_dotdot(p) ||
	    !inside_root(p, rl, buf)) {
		snprintf(why, n, "%s", _("it is not under an input the facts name"));
		return false;
	}
	fd = open_regular(buf, &st, why, n);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void not_fetched(struct hx_notfetched *nf, int32_t rank, const char *p,
			const char *why)
{
	if (!nf)
		return;
	if (nf->n < HX_NOTFETCHED_MAX)
		snprintf(nf->line[nf->n++], sizeof nf->line[0],
			 _("%s (rank %d) was not read again: %s"), p, rank, why);
	nf->total++;
}

/* Every file of the rank can be read here. */
static bool readable(const struct hangdx_facts *f, const struct hx_map *fidx,
		     int32_t rank, struct hx_notfetched *nf)
{
	const struct hx_rankfact *rf = hx_facts_rank(f, rank);
	char why[512];
	uint32_t i;

	if (!rf || rf->nf == 0)
		return false;
	if (rf->files_cut) {
		not_fetched(nf, rank, hx_facts_file(f, rf, 0),
			    _("its facts name more files than are kept"));
		return false;
	}
	for (i = 0; i < rf->nf; i++) {
		const char *p = hx_facts_file(f, rf, i);

		if (!fetchable(f, fidx, p, why, sizeof why)) {
			not_fetched(nf, rank, p, why);
			return false;
		}
	}
	return true;
}

/* One file read again, through a map of it: never a walk, never a
 * blocking open. */
static int read_one(const struct hangdx_facts *f, struct hangdx_evidence *tmp,
		    const char *path)
{
	struct hangdx_ingest_opts o;
	struct stat st;
	char why[512];
	void *p = NULL;
	int fd = open_regular(path, &st, why, sizeof why), err;

	if (fd < 0)
		return HANGDX_OK;       /* gone since: its records stay out */
	hx_facts_ingest_opts(f, &o);
	if (st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return HANGDX_OK;
		}
	}
	err = hangdx_ingest_mem(tmp, path, p ? p : "", p ? (size_t)st.st_size : 0, &o);
	if (p)
		munmap(p, (size_t)st.st_size);
	close(fd);
	return err == HANGDX_ENOMEM ? err : HANGDX_OK;
}

static int local_fetch(void *ud, const int32_t *ranks, size_t n,
		       struct hangdx_evidence *into)
{
	struct local_fetch *lf = ud;
	struct hangdx_evidence *tmp = NULL;
	struct hx_map seen = { 0 };
	size_t i;
	uint32_t j;
	int err;

	err = hangdx_evidence_new(lf->ctx, &tmp);
	for (i = 0; i < n && !err; i++) {
		const struct hx_rankfact *rf = hx_facts_rank(lf->f, ranks[i]);

		for (j = 0; rf && j < rf->nf && !err; j++) {
			char buf[4096];
			struct hx_map_slot *sl;
			uint64_t k = 1469598103934665603ull;
			size_t c;

			outer_path(hx_facts_file(lf->f, rf, j), buf, sizeof buf);
			for (c = 0; buf[c]; c++)
				k = (k ^ (unsigned char)buf[c]) * 1099511628211ull;
			sl = hx_map_slot(lf->ctx, &seen, hx_map_key(k), &err);
			if (!sl || sl->val >= 0)
				continue;
			sl->val = 1;
			err = read_one(lf->f, tmp, buf);
		}
	}
	if (!err) {
		tmp->nroots = 0;        /* the facts' inputs stay the roots */
		err = hangdx_evidence_merge(into, tmp);
	}
	hx_map_free(lf->ctx, &seen);
	hangdx_evidence_free(tmp);
	return err;
}

int hangdx_facts_fetch(const struct hangdx_facts *f, const int32_t *ranks,
		       size_t n, struct hangdx_evidence *into)
{
	struct local_fetch lf;
	int32_t *ok;
	size_t i, m = 0;
	int err;

	if (!f || !into || (!ranks && n))
		return HANGDX_EINVAL;
	ok = hx_alloc(into->ctx, (n + 1) * sizeof *ok);
	if (!ok)
		return HANGDX_ENOMEM;
	for (i = 0; i < n; i++)
		if (readable(f, NULL, ranks[i], NULL))
			ok[m++] = ranks[i];
	lf.f = f;
	lf.ctx = into->ctx;
	lf.nf = NULL;
	err = m ? local_fetch(&lf, ok, m, into) : HANGDX_OK;
	hx_free(into->ctx, ok);
	return err;
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
	int err = index_files(fev, &mf);

	if (!err) {
		paths = hx_calloc(R->ctx, R->got->nfile + 1, sizeof *paths);
		keep = hx_calloc(R->ctx, R->got->nfile + 1, sizeof *keep);
		if (!paths || !keep)
			err = HANGDX_ENOMEM;
	}
	for (i = 0; !err && i < R->got->nfile; i++) {
		const char *p = hx_ev_str(R->got, R->got->files[i].path);
		const struct hx_filesum *a = file_of(fev, &mf, p);

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
		err = index_files(hx_facts_evidence(R->f), &fidx);
	for (i = 0; i < nd->n && !err; i++) {
		if (!R->fetch && !readable(R->f, &fidx, nd->r[i], &R->nf))
			R->unread[nd->r[i]] = 1;
		else
			ok[n++] = nd->r[i];
	}
	if (n && !err) {
		struct local_fetch lf = { R->f, R->ctx, &R->nf };
		int e = R->fetch ? R->fetch(R->ud, ok, n, R->got)
				 : local_fetch(&lf, ok, n, R->got);

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
	int err = index_files(fev, &mf);

	if (!err)
		err = index_files(R->got, &mg);
	for (i = 0; i < n && !err; i++) {
		const struct hx_rankfact *rf = hx_facts_rank(R->f, ranks[i]);
		bool bad = false;
		uint32_t j;

		for (j = 0; rf && j < rf->nf && !bad; j++) {
			const char *p = hx_facts_file(R->f, rf, j);
			const struct hx_filesum *a = file_of(fev, &mf, p);
			const struct hx_filesum *b = file_of(R->got, &mg, p);

			/* a file the facts summarise must come back the same;
			 * one they do not (a fetch from elsewhere) is taken */
			bad = a ? b && !hx_filesum_same(a, b) : !R->fetch && b;
		}
		if (!bad || !R->mask[ranks[i]])
			continue;
		not_fetched(&R->nf, ranks[i], hx_facts_file(R->f, rf, j - 1),
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
	for (round = 0; !err && round < MAX_ROUNDS; round++) {
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

/* ---- the owner's side of a fetch ---- */

int hangdx_evidence_write_ranks(const struct hangdx_evidence *ev,
				const int32_t *ranks, size_t n, FILE *fp)
{
	struct hangdx_diagnosis *d = NULL;
	struct hangdx_evidence *sub = NULL;
	uint8_t *want = NULL, *keep = NULL;
	struct hx_map fidx = { 0 };
	size_t i;
	int err;

	if (!ev || !fp || (!ranks && n))
		return HANGDX_EINVAL;
	err = hangdx_diagnose(ev, NULL, &d);
	if (!err)
		err = hangdx_evidence_new(ev->ctx, &sub);
	if (!err) {
		want = hx_calloc(ev->ctx, d->nranks + 1, 1);
		keep = hx_calloc(ev->ctx, ev->nfile + 1, 1);
		if (!want || !keep)
			err = HANGDX_ENOMEM;
	}
	for (i = 0; !err && i < n; i++)
		if (ranks[i] >= 0 && (uint32_t)ranks[i] < d->nranks)
			want[ranks[i]] = 1;
	for (i = 0; !err && i < ev->nfile; i++) {
		struct hx_map_slot *sl = hx_map_slot(ev->ctx, &fidx,
			hx_map_key(ev->files[i].path), &err);
		if (sl)
			sl->val = (int32_t)i;
	}
	for (i = 0; !err && i < d->norder; i++) {
		uint32_t rec = d->order[i];
		int32_t r = d->rank_of[rec];
		long fi;

		if (r < 0 || (uint32_t)r >= d->nranks || !want[r])
			continue;
		fi = hx_map_find(&fidx, hx_map_key(ev->recs[rec].file));
		if (fi >= 0)
			keep[fi] = 1;
	}
	if (!err)
		err = hx_ev_merge_sel(sub, ev, NULL, keep);
	if (!err)
		err = hangdx_evidence_write_jsonl(sub, fp, HANGDX_EV_RECORDS | HX_EV_FILES);
	hx_map_free(ev->ctx, &fidx);
	hx_free(ev->ctx, want);
	hx_free(ev->ctx, keep);
	hangdx_evidence_free(sub);
	hangdx_diagnosis_free(d);
	return err;
}
