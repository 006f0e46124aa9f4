/*
 * timing.c - which files the timing of a diagnosis leaves out, and why
 * (docs/DIAGNOSIS.md, "Files left out of timing"): a plog's last line cut
 * mid-line (that line); a process of an earlier run or an earlier process
 * of a rank or node (out of the whole diagnosis: its records leave the
 * order); a process of a rank that printed no creation where another of
 * that rank did (its records stay, out of timing).
 */
#include <stdlib.h>
#include <string.h>
#include "analyze.h"

#define MAX_PROCS (1u << 24)

struct tproc {
	int64_t pid, rank;      /* rank: -1 none, -2 several */
	const char *node;       /* NULL none */
	int64_t first, last;    /* HX_NONE unknown */
	bool init;              /* in the job's communicator creation */
	uint8_t why;            /* enum hx_leftout_why, 0 kept */
	int64_t gap, other;     /* earlier run: its gap; else the later pid */
	uint32_t first_rec, last_rec;   /* the records of first and last */
	int64_t world;          /* ranks of its first communicator, 0 none */
};

struct tstate {
	struct hangdx_diagnosis *d;
	struct hx_intern keys;  /* "pid|node" */
	struct tproc *p;
	size_t cap;
	uint32_t *pof;          /* per order entry: its process, or UINT32_MAX */
	struct hx_map fsum;     /* file id -> index in ev->files */
	int64_t exec_s;         /* the largest HCCL_EXEC_TIMEOUT echoed */
	struct {                /* the process of the record before */
		bool ok;
		int64_t pid;
		const char *node;
		uint32_t k;
	} last;
};

static void span(int64_t *first, int64_t *last, int64_t a, int64_t z)
{
	if (a != HX_NONE && (*first == HX_NONE || a < *first))
		*first = a;
	if (z != HX_NONE && (*last == HX_NONE || z > *last))
		*last = z;
}

static bool same_node(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static uint32_t proc_key(struct tstate *t, const struct hx_attr *a, int *err)
{
	char key[128];
	int n;
	size_t old = t->keys.n;
	long k;
	void *v = t->p;

	if (t->last.ok && t->last.pid == a->pid && same_node(t->last.node, a->node))
		return t->last.k;       /* records come a process at a time */
	n = snprintf(key, sizeof key, "%lld|%s", (long long)a->pid,
		     a->node ? a->node : "");
	k = hx_intern_add(&t->keys, key, n < 0 ? 0 : (size_t)n >= sizeof key
					    ? sizeof key - 1 : (size_t)n, err);
	if (k < 0)
		return UINT32_MAX;
	t->last.ok = true;
	t->last.pid = a->pid;
	t->last.node = a->node;
	t->last.k = (uint32_t)k;
	if (t->keys.n > old) {
		*err = hx_vec_reserve(t->d->ctx, &v, &t->cap, t->keys.n,
				      sizeof *t->p, MAX_PROCS);
		if (*err)
			return UINT32_MAX;
		t->p = v;
		t->p[k] = (struct tproc){ a->pid, -1, a->node, HX_NONE, HX_NONE,
					  false, 0, 0, -1, HX_NOREC, HX_NOREC, 0 };
	}
	return (uint32_t)k;
}

static void on_env(struct tstate *t, uint32_t rec)
{
	const char *name = hx_dstr(t->d, rec, HX_F_NAME);
	const char *val = hx_dstr(t->d, rec, HX_F_VALUE);
	long long v;

	if (!name || !val || strcmp(name, "HCCL_EXEC_TIMEOUT") != 0)
		return;
	v = strtoll(val, NULL, 10);
	if (v > t->exec_s && v < 1000000000)
		t->exec_s = v;
}

/* The records a process's span, rank and creation come from are pinned:
 * facts keep them, so that the timing of facts is the single pass's. */
static void pin_span(struct tstate *t, struct tproc *p, uint32_t rec,
		     const struct hx_rec *r, const struct hx_attr *a)
{
	const struct hx_rec *recs = t->d->ev->recs;

	if (r->ts != HX_NONE && (p->first_rec == HX_NOREC ||
				 r->ts < recs[p->first_rec].ts))
		p->first_rec = rec;
	if (r->ts != HX_NONE && (p->last_rec == HX_NOREC ||
				 r->ts > recs[p->last_rec].ts))
		p->last_rec = rec;
	if ((r->kind == HX_K_COMM_INIT && !p->init) ||
	    (a->rank >= 0 && (p->rank == -1 || (p->rank >= 0 && p->rank != a->rank))))
		t->d->pinned[rec] = 1;
}

/* Every process of the records, its span (its files' and records'
 * times), its rank and whether it created a communicator. */
static int gather(struct tstate *t)
{
	struct hangdx_diagnosis *d = t->d;
	const struct hangdx_evidence *ev = d->ev;
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < d->norder && !err; i++) {
		uint32_t rec = d->order[i], k;
		const struct hx_rec *r = &ev->recs[rec];
		struct hx_attr a;
		struct tproc *p;
		int32_t fi;

		if (r->kind == HX_K_ENV)
			on_env(t, rec);
		hx_attrib_rec(d->at, r, &a);
		t->pof[i] = UINT32_MAX;
		if (a.pid < 0)
			continue;
		k = proc_key(t, &a, &err);
		if (k == UINT32_MAX)
			break;
		t->pof[i] = k;
		p = &t->p[k];
		pin_span(t, p, rec, r, &a);
		span(&p->first, &p->last, r->ts, r->ts);
		fi = hx_map_find(&t->fsum, hx_map_key(r->file));
		if (fi >= 0)
			span(&p->first, &p->last, ev->files[fi].first_ts,
			     ev->files[fi].last_ts);
		if (r->kind == HX_K_COMM_INIT && !p->init)     /* pinned */
			p->world = hx_dnum(d, rec, HX_F_RANK_SIZE, 0);
		p->init |= r->kind == HX_K_COMM_INIT;
		if (a.rank >= 0 && p->rank == -1)
			p->rank = a.rank;
		else if (a.rank >= 0 && p->rank != a.rank)
			p->rank = -2;
	}
	for (i = 0; i < t->keys.n && !err; i++) {
		if (t->p[i].first_rec != HX_NOREC)
			d->pinned[t->p[i].first_rec] = 1;
		if (t->p[i].last_rec != HX_NOREC)
			d->pinned[t->p[i].last_rec] = 1;
	}
	return err;
}

struct bylast {
	int64_t last;
	uint32_t i;
};

static int last_desc(const void *a, const void *b)
{
	int64_t x = ((const struct bylast *)a)->last;
	int64_t y = ((const struct bylast *)b)->last;

	if (x != y)
		return (x < y) - (x > y);
	return (((const struct bylast *)a)->i > ((const struct bylast *)b)->i) -
	       (((const struct bylast *)a)->i < ((const struct bylast *)b)->i);
}

/* The job: the process whose logs end last and every process whose logs
 * reach within the gap of the earliest start among them; the rest ended
 * long before, in an earlier run.  Run once more after the earlier
 * processes are known: they no longer stretch the job back. */
static int earlier_runs(struct tstate *t)
{
	size_t n = t->keys.n, i;
	struct bylast *idx = hx_calloc(t->d->ctx, n + 1, sizeof *idx);
	int64_t gap = HX_STALE_GAP_US, start = HX_NONE;

	if (!idx)
		return HANGDX_ENOMEM;
	if (t->exec_s * 2 * 1000000 > gap)
		gap = t->exec_s * 2 * 1000000;
	for (i = 0; i < n; i++)
		idx[i] = (struct bylast){ t->p[i].last, (uint32_t)i };
	if (n)
		qsort(idx, n, sizeof *idx, last_desc);
	for (i = 0; i < n; i++) {
		struct tproc *p = &t->p[idx[i].i];

		if (p->last == HX_NONE || p->why == HX_LEFT_EARLIER_RUN)
			continue;
		if (start != HX_NONE && p->last < start - gap) {
			p->why = HX_LEFT_EARLIER_RUN;
			p->gap = start - p->last;
			continue;
		}
		/* an earlier process, or one not in the creation, does not
		 * stretch the job back */
		if (!p->why)
			span(&start, &start, p->first, HX_NONE);
	}
	hx_free(t->d->ctx, idx);
	return HANGDX_OK;
}

static int32_t *slot_of(struct tstate *t, struct hx_map *m, uint64_t key,
			int *err)
{
	struct hx_map_slot *sl = hx_map_slot(t->d->ctx, m, hx_map_key(key), err);

	return sl ? &sl->val : NULL;
}

/* A process that read as an earlier run, of a rank no process of the job
 * has (and of the job's ranks: below its communicators' size, or its
 * highest rank): the only logs of that rank, on a server whose clock is
 * hours off (a time zone), not an earlier run.  Of several such of one
 * rank, the one that ends last.  It is kept and noted; the offset is
 * corrected at the communicator creation where the logs hold it. */
static int clock_off(struct tstate *t)
{
	struct hangdx_diagnosis *d = t->d;
	struct hx_map best = { 0 };
	size_t i, n = t->keys.n;
	int64_t world = 0, maxr = -1;
	int32_t *v;
	int err = HANGDX_OK;

	for (i = 0; i < n; i++) {
		const struct tproc *p = &t->p[i];

		if (p->why || p->rank < 0)
			continue;
		if (p->world > world)
			world = p->world;
		if (p->rank > maxr)
			maxr = p->rank;
		if ((v = slot_of(t, &best, (uint64_t)p->rank, &err)))
			*v = INT32_MAX;         /* covered by the job */
	}
	if (world < maxr + 1)
		world = maxr + 1;
	for (i = 0; i < n && !err; i++) {
		const struct tproc *p = &t->p[i];

		if (p->why != HX_LEFT_EARLIER_RUN || p->rank < 0 || p->rank >= world ||
		    !(v = slot_of(t, &best, (uint64_t)p->rank, &err)) ||
		    *v == INT32_MAX)
			continue;
		if (*v < 0 || t->p[*v].last < p->last)
			*v = (int32_t)i;
	}
	for (i = 0; i < n && !err; i++) {
		struct tproc *p = &t->p[i];

		if (p->why != HX_LEFT_EARLIER_RUN || p->rank < 0 ||
		    hx_map_find(&best, hx_map_key((uint64_t)p->rank)) != (int32_t)i)
			continue;
		p->why = 0;
		if (d->nclockoff < HX_ARRAY_LEN(d->clockoff))
			d->clockoff[d->nclockoff] = (struct hx_clockoff){
				p->pid, p->rank, p->gap };
		d->nclockoff++;
	}
	hx_map_free(d->ctx, &best);
	return err;
}

static uint64_t node_key(const char *node)
{
	return hx_hash(node, strlen(node));
}

/* p ended before process q (in the job's creation) began. */
static void earlier_than(struct tstate *t, size_t i, int32_t q)
{
	struct tproc *p = &t->p[i];

	if (q >= 0 && (size_t)q != i && p->last != HX_NONE &&
	    t->p[q].first != HX_NONE && p->last < t->p[q].first) {
		p->why = HX_LEFT_EARLIER_PROCESS;
		p->other = t->p[q].pid;
	}
}

/* A process of a rank whose process q printed its creation, that printed
 * none: its times are not the rank's (a stale plog of another pid, a
 * helper process); its records stay evidence, out of timing. */
static void not_in_creation(struct tstate *t, size_t i, int32_t q)
{
	struct tproc *p = &t->p[i];

	if (!p->why && !p->init && p->rank >= 0 && q >= 0 && (size_t)q != i &&
	    t->p[q].init) {
		p->why = HX_LEFT_NOT_IN_CREATION;
		p->other = t->p[q].pid;
	}
}

/* An earlier process of a rank: one that ended before the last process
 * of that rank in the job's communicator creation began (a restart, or
 * a stale plog of an earlier pid); when no process of the rank printed
 * its creation (logs at level error), before the last process of the
 * rank began.  A process of no rank is compared with the node's: it
 * ended before the first of the node's processes in the creation began. */
static int earlier_procs(struct tstate *t)
{
	struct hx_map byrank = { 0 }, bynode = { 0 };
	size_t i, n = t->keys.n;
	int32_t *v;
	int err = HANGDX_OK;

	for (i = 0; i < n && !err; i++) {
		const struct tproc *p = &t->p[i];
		const struct tproc *o;

		if (p->why || p->rank < 0 || p->first == HX_NONE ||
		    !(v = slot_of(t, &byrank, (uint64_t)p->rank, &err)))
			continue;
		o = *v >= 0 ? &t->p[*v] : NULL;
		/* one in the creation wins; among alike, the latest start */
		if (!o || (p->init && !o->init) ||
		    (p->init == o->init && o->first < p->first))
			*v = (int32_t)i;
	}
	for (i = 0; i < n && !err; i++)
		if (!t->p[i].why && t->p[i].rank >= 0)
			earlier_than(t, i, hx_map_find(&byrank,
					hx_map_key((uint64_t)t->p[i].rank)));
	for (i = 0; i < n && !err; i++)
		not_in_creation(t, i, hx_map_find(&byrank,
				hx_map_key((uint64_t)t->p[i].rank)));
	for (i = 0; i < n && !err; i++) {
		const struct tproc *p = &t->p[i];

		if (p->init && !p->why && p->node && *p->node &&
		    p->first != HX_NONE &&
		    (v = slot_of(t, &bynode, node_key(p->node), &err)) &&
		    (*v < 0 || t->p[*v].first > p->first))
			*v = (int32_t)i;
	}
	for (i = 0; i < n && !err; i++)
		if (!t->p[i].why && t->p[i].rank == -1 && t->p[i].node &&
		    *t->p[i].node)
			earlier_than(t, i, hx_map_find(&bynode,
					hx_map_key(node_key(t->p[i].node))));
	hx_map_free(t->d->ctx, &byrank);
	hx_map_free(t->d->ctx, &bynode);
	return err;
}

static int add_left(struct hangdx_diagnosis *d, const struct hx_leftout *l)
{
	void *v = d->left;
	int err = hx_vec_reserve(d->ctx, &v, &d->capleft, d->nleft + 1,
				 sizeof *d->left, HX_MAX_LIST);

	if (err)
		return err == HANGDX_ELIMIT ? HANGDX_OK : err;
	d->left = v;
	d->left[d->nleft++] = *l;
	return HANGDX_OK;
}

/* A plog or device log (named plog-PID_..., device-PID_...: the log
 * daemon ends every line) whose last line no newline ends. */
static int cut_file(struct hangdx_diagnosis *d, struct hx_map *seen,
		    const struct hx_filesum *f)
{
	struct hx_pathattr pa;
	struct hx_map_slot *sl;
	int err = HANGDX_OK;

	if (!f->cut_line || hx_map_find(seen, hx_map_key(f->path)) >= 0)
		return HANGDX_OK;
	hx_path_attr(hx_ev_str(d->ev, f->path), &pa);
	if (pa.pid < 0)
		return HANGDX_OK;
	sl = hx_map_slot(d->ctx, seen, hx_map_key(f->path), &err);
	if (sl)
		sl->val = 1;
	return err ? err : add_left(d, &(struct hx_leftout){
		f->path, HX_LEFT_CUT_LINE, f->cut_line, pa.pid, -1, 0, -1 });
}

/* The records of processes left out leave the order; one entry per file
 * of theirs, and one per cut line of a plog or device log. */
static int apply(struct tstate *t)
{
	struct hangdx_diagnosis *d = t->d;
	const struct hangdx_evidence *ev = d->ev;
	struct hx_map seen = { 0 };
	size_t i, k = 0;
	int err = HANGDX_OK;

	for (i = 0; i < d->norder && !err; i++) {
		uint32_t rec = d->order[i];
		const struct hx_rec *r = &ev->recs[rec];
		const struct tproc *p = t->pof[i] != UINT32_MAX ? &t->p[t->pof[i]] : NULL;
		int32_t fi = hx_map_find(&t->fsum, hx_map_key(r->file));
		const struct hx_pathattr *pa = hx_attrib_vpath(d->at, r->file);
		struct hx_map_slot *sl;

		if (p && p->why) {
			sl = hx_map_slot(d->ctx, &seen, hx_map_key(r->file), &err);
			if (sl && sl->val < 0) {
				sl->val = 1;
				err = add_left(d, &(struct hx_leftout){
					r->file, p->why, 0, p->pid, p->other,
					p->gap, p->rank });
			}
			if (p->why != HX_LEFT_NOT_IN_CREATION)
				continue;
			d->untimed[rec] = 1;    /* evidence still, not timed */
		}
		if (fi >= 0 && ev->files[fi].cut_line == r->line && r->line &&
		    pa && pa->pid >= 0) {
			d->untimed[rec] = 1;
			sl = hx_map_slot(d->ctx, &seen, hx_map_key(r->file), &err);
			if (sl && sl->val < 0) {
				sl->val = 1;
				err = add_left(d, &(struct hx_leftout){
					r->file, HX_LEFT_CUT_LINE, r->line,
					p ? p->pid : -1, -1, 0, -1 });
			}
		}
		d->order[k++] = rec;
	}
	if (!err)
		d->norder = k;
	for (i = 0; i < ev->nfile && !err; i++)    /* cut where no record is */
		err = cut_file(d, &seen, &ev->files[i]);
	hx_map_free(d->ctx, &seen);
	return err;
}

int hx_timing_exclude(struct hangdx_diagnosis *d)
{
	const struct hangdx_evidence *ev = d->ev;
	struct tstate t;
	size_t i;
	int err = HANGDX_OK;

	memset(&t, 0, sizeof t);
	t.d = d;
	d->untimed = hx_calloc(d->ctx, ev->nrec + 1, 1);
	d->pinned = hx_calloc(d->ctx, ev->nrec + 1, sizeof *d->pinned);
	t.pof = hx_calloc(d->ctx, d->norder + 1, sizeof *t.pof);
	if (!d->untimed || !d->pinned || !t.pof) {
		hx_free(d->ctx, t.pof);
		return HANGDX_ENOMEM;
	}
	hx_intern_init(&t.keys, d->ctx, MAX_PROCS);
	for (i = 0; i < ev->nfile && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(d->ctx, &t.fsum,
			hx_map_key(ev->files[i].path), &err);
		if (sl && sl->val < 0)
			sl->val = (int32_t)i;
	}
	if (!err)
		err = gather(&t);
	if (!err)
		err = earlier_runs(&t);
	if (!err)
		err = earlier_procs(&t);
	if (!err)       /* again, without the earlier processes */
		err = earlier_runs(&t);
	if (!err)
		err = clock_off(&t);
	if (!err)
		err = apply(&t);
	hx_intern_free(&t.keys);
	hx_free(d->ctx, t.p);
	hx_free(d->ctx, t.pof);
	hx_map_free(d->ctx, &t.fsum);
	return err;
}

const char *hx_leftout_why_name(int why)
{
	switch (why) {
	case HX_LEFT_CUT_LINE: return "cut_line";
	case HX_LEFT_EARLIER_RUN: return "earlier_run";
	case HX_LEFT_EARLIER_PROCESS: return "earlier_process";
	case HX_LEFT_NOT_IN_CREATION: return "not_in_creation";
	default: return "";
	}
}

/* The notes: each file left out, up to HX_LEFT_NOTED, then a count. */
int hx_timing_notes(struct hangdx_diagnosis *d)
{
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < d->nleft && i < HX_LEFT_NOTED && !err; i++) {
		const struct hx_leftout *l = &d->left[i];
		const char *f = hx_ev_str(d->ev, l->file);

		if (l->why == HX_LEFT_CUT_LINE)
			err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
				"Left out of timing: line %llu of %s, cut mid-line "
				"(no newline ends the file): its time and text may "
				"be partial; the file was read up to it.",
				(unsigned long long)l->line, f);
		else if (l->why == HX_LEFT_EARLIER_RUN)
			err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
				"Left out of timing and of the diagnosis: %s, of "
				"process %lld, which ended %.1f h before the job's "
				"other logs began (an earlier run).", f,
				(long long)l->pid, (double)l->gap / 3.6e9);
		else if (l->why == HX_LEFT_NOT_IN_CREATION)
			err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
				"Left out of timing: %s, of process %lld of rank %lld, "
				"which printed no communicator creation where process "
				"%lld of that rank did: its times are not the rank's "
				"(its lines still count as evidence).", f,
				(long long)l->pid, (long long)l->rank,
				(long long)l->other);
		else
			err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
				"Left out of timing and of the diagnosis: %s, of "
				"process %lld, which is not the one in the job's "
				"communicator creation and ended before process %lld "
				"of the same %s began (an earlier process).", f,
				(long long)l->pid, (long long)l->other,
				l->rank >= 0 ? _("rank") : _("node"));
	}
	for (i = 0; i < d->nclockoff && i < HX_ARRAY_LEN(d->clockoff) && !err; i++)
		err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
			"Taken as the job's: the logs of process %lld, the only "
			"ones of rank %lld, end %.1f h before the job's other logs "
			"began; its server's clock is taken to be hours off (a "
			"time zone), not an earlier run; the offset is corrected "
			"at the communicator creation where the logs hold it.",
			(long long)d->clockoff[i].pid,
			(long long)d->clockoff[i].rank,
			(double)d->clockoff[i].gap / 3.6e9);
	if (!err && d->nclockoff > HX_ARRAY_LEN(d->clockoff))
		err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
			"%u more processes were taken as the job's with a clock "
			"hours off.", d->nclockoff - (uint32_t)HX_ARRAY_LEN(d->clockoff));
	if (!err && d->nleft > HX_LEFT_NOTED)
		err = hx_dlist_add(d, &d->facts, &d->nfacts, &d->capfacts,
			"%zu more files were left out of timing (JSON "
			"left_out_of_timing lists every one).",
			d->nleft - HX_LEFT_NOTED);
	return err;
}
