/*
 * fetch.c - the full evidence of the ranks phase 2 asks for
 * (twophase.c): read again here from the files the facts name, under
 * the safety rules below, or written by the node that owns it
 * (hangdx_evidence_write_ranks, for a fetch over MPI or files).
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

/* A file path -> its summary's index, for the files of ev. */
int hx_fetch_index_files(const struct hangdx_evidence *ev, struct hx_map *m)
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

const struct hx_filesum *hx_fetch_file_of(const struct hangdx_evidence *ev,
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
	if (fidx && !hx_fetch_file_of(ev, fidx, p)) {
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

void hx_fetch_refused(struct hx_notfetched *nf, int32_t rank, const char *p,
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
bool hx_fetch_readable(const struct hangdx_facts *f, const struct hx_map *fidx,
		       int32_t rank, struct hx_notfetched *nf)
{
	const struct hx_rankfact *rf = hx_facts_rank(f, rank);
	char why[512];
	uint32_t i;

	if (!rf || rf->nf == 0)
		return false;
	if (rf->files_cut) {
		hx_fetch_refused(nf, rank, hx_facts_file(f, rf, 0),
			    _("its facts name more files than are kept"));
		return false;
	}
	for (i = 0; i < rf->nf; i++) {
		const char *p = hx_facts_file(f, rf, i);

		if (!fetchable(f, fidx, p, why, sizeof why)) {
			hx_fetch_refused(nf, rank, p, why);
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

int hx_fetch_local(const struct hangdx_facts *f, struct hx_notfetched *nf,
		   const int32_t *ranks, size_t n, struct hangdx_evidence *into)
{
	struct local_fetch lf = { f, into->ctx, nf };

	return local_fetch(&lf, ranks, n, into);
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
		if (hx_fetch_readable(f, NULL, ranks[i], NULL))
			ok[m++] = ranks[i];
	lf.f = f;
	lf.ctx = into->ctx;
	lf.nf = NULL;
	err = m ? local_fetch(&lf, ok, m, into) : HANGDX_OK;
	hx_free(into->ctx, ok);
	return err;
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
