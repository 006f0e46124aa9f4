/*
 * factfile.c - facts: what one node keeps of its logs, per rank, so that
 * only facts meet on the machine that decides (twophase.c).  A node
 * analyzes its own evidence in full, keeps every record the verdict reads
 * about a rank except the bulk that only rebuilds its devices (TS stream
 * and SQE dumps, kernel lines), and keeps instead what that rebuild found
 * (struct hx_rankfact).  Written and read as "hangdx-facts-1" JSON Lines
 * (docs/FACTS.md); merged as a set of files.
 */
#define _GNU_SOURCE 1   /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"

#define FACTS_FORMAT "hangdx-facts-1"
#define MAX_FACT_RANKS (1u << 24)
#define MAX_FACT_FILES (1u << 26)

struct hangdx_facts {
	struct hangdx_ctx *ctx;
	struct hangdx_evidence *ev;     /* the records kept, file summaries */
	struct hx_rankfact *rf;         /* sorted by rank once finished */
	size_t nrf, caprf;
	uint32_t *fid;                  /* files of the ranks, ids in ev */
	size_t nfid, capfid;
	struct hx_map byrank;           /* rank -> index in rf */
	int err;
};

int hangdx_facts_new(struct hangdx_ctx *ctx, struct hangdx_facts **out)
{
	struct hangdx_facts *f;
	int err;

	*out = NULL;
	f = hx_calloc(ctx, 1, sizeof *f);
	if (!f)
		return HANGDX_ENOMEM;
	f->ctx = ctx;
	err = hangdx_evidence_new(ctx, &f->ev);
	if (err) {
		hx_free(ctx, f);
		return err;
	}
	*out = f;
	return HANGDX_OK;
}

void hangdx_facts_free(struct hangdx_facts *f)
{
	if (!f)
		return;
	hangdx_evidence_free(f->ev);
	hx_free(f->ctx, f->rf);
	hx_free(f->ctx, f->fid);
	hx_map_free(f->ctx, &f->byrank);
	hx_free(f->ctx, f);
}

size_t hangdx_facts_ranks(const struct hangdx_facts *f)
{
	return f ? f->nrf : 0;
}

int32_t hx_facts_max_rank(const struct hangdx_facts *f)
{
	int32_t m = -1;
	size_t i;

	for (i = 0; f && i < f->nrf; i++)
		if (f->rf[i].rank > m)
			m = f->rf[i].rank;
	return m;
}

const struct hx_rankfact *hx_facts_rank(const struct hangdx_facts *f,
					int32_t rank)
{
	long i;

	if (!f || rank < 0)
		return NULL;
	i = hx_map_find(&f->byrank, hx_map_key((uint64_t)rank));
	return i >= 0 ? &f->rf[i] : NULL;
}

/* The file list of a fact, as paths (borrowed from f's evidence). */
size_t hx_facts_files(const struct hangdx_facts *f, const struct hx_rankfact *r,
		      const char **out, size_t max)
{
	size_t i;

	for (i = 0; i < r->nf && i < max; i++)
		out[i] = hx_ev_str(f->ev, f->fid[r->f0 + i]);
	return r->nf;
}

const struct hangdx_evidence *hx_facts_evidence(const struct hangdx_facts *f)
{
	return f->ev;
}

/* ---- adding one rank's facts ---- */

static int add_file(struct hangdx_facts *f, const char *path)
{
	int err = HANGDX_OK;
	uint32_t id = hx_ev_intern(f->ev, path, strlen(path), &err);
	void *v = f->fid;

	if (err)
		return err;
	err = hx_vec_reserve(f->ctx, &v, &f->capfid, f->nfid + 1, sizeof *f->fid,
			     MAX_FACT_FILES);
	if (err)
		return err;
	f->fid = v;
	f->fid[f->nfid++] = id;
	return HANGDX_OK;
}

static bool rf_has_file(const struct hangdx_facts *f,
			const struct hx_rankfact *r, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < r->nf; i++)
		if (f->fid[r->f0 + i] == id)
			return true;
	return false;
}

/* Two nodes' facts of one rank: a union.  The same files again: the same
 * facts, nothing changes. */
static void rf_combine(struct hx_rankfact *a, const struct hx_rankfact *b)
{
	a->device_seen |= b->device_seen;
	a->local_cycle |= b->local_cycle;
	a->kernels += b->kernels;
	a->kernels_inferred += b->kernels_inferred;
	if (b->stall_us > a->stall_us) {
		a->stall_us = b->stall_us;
		a->stall_file = b->stall_file;
		a->stall_line = b->stall_line;
	}
	a->stalled += b->stalled;
	if (b->stall_under_us > a->stall_under_us)
		a->stall_under_us = b->stall_under_us;
	if (a->last_ts == HX_NONE || (b->last_ts != HX_NONE && b->last_ts > a->last_ts))
		a->last_ts = b->last_ts;
	if (a->last_progress_ts == HX_NONE ||
	    (b->last_progress_ts != HX_NONE && b->last_progress_ts > a->last_progress_ts))
		a->last_progress_ts = b->last_progress_ts;
	if (b->cores_logged > a->cores_logged)
		a->cores_logged = b->cores_logged;
	if (b->core_top > a->core_top)
		a->core_top = b->core_top;
}

/*
 * Add one rank's fact; files are its paths.  A rank already held takes
 * the union, unless every file is one it already has (the same facts read
 * twice).  A rank's files end up contiguous in fid.
 */
static int facts_put(struct hangdx_facts *f, const struct hx_rankfact *in,
		     const char *const *files, size_t nfiles)
{
	struct hx_map_slot *sl;
	struct hx_rankfact *r;
	size_t i, f0 = f->nfid;
	bool fresh = false;
	void *v = f->rf;
	int err = HANGDX_OK;

	sl = hx_map_slot(f->ctx, &f->byrank, hx_map_key((uint64_t)in->rank), &err);
	if (!sl)
		return err;
	if (sl->val < 0) {
		err = hx_vec_reserve(f->ctx, &v, &f->caprf, f->nrf + 1, sizeof *f->rf,
				     MAX_FACT_RANKS);
		if (err)
			return err;
		f->rf = v;
		sl->val = (int32_t)f->nrf;
		f->rf[f->nrf] = *in;
		f->rf[f->nrf].nf = 0;
		f->nrf++;
		fresh = true;
	}
	r = &f->rf[sl->val];
	if (!fresh) {
		bool news = false;

		for (i = 0; i < nfiles && !err; i++) {
			uint32_t id = hx_ev_intern(f->ev, files[i], strlen(files[i]), &err);
			news |= !err && !rf_has_file(f, r, id);
		}
		if (err || !news)
			return err;
		rf_combine(r, in);
		for (i = 0; i < r->nf && !err; i++)   /* copy its old files last */
			err = add_file(f, hx_ev_str(f->ev, f->fid[r->f0 + i]));
		f0 = f->nfid - r->nf;
	}
	for (i = 0; i < nfiles && !err; i++) {
		uint32_t id = hx_ev_intern(f->ev, files[i], strlen(files[i]), &err);
		bool dup = false;
		size_t j;

		for (j = f0; j < f->nfid && !err; j++)
			dup |= f->fid[j] == id;
		if (!err && !dup)
			err = add_file(f, files[i]);
	}
	if (err)
		return err;
	r->f0 = (uint32_t)f0;
	r->nf = (uint32_t)(f->nfid - f0);
	return HANGDX_OK;
}

/* ---- from evidence: the local analysis ---- */

static bool bulk_kind(int kind)
{
	return kind == HX_K_TSCH_STREAM || kind == HX_K_TSCH_SQE ||
	       kind == HX_K_AICPU_KERNEL || kind == HX_K_AICPU_COMM ||
	       kind == HX_K_AICPU_TASK;
}

static void cite(uint8_t *keep, size_t n, uint32_t rec)
{
	if (rec != HX_NOREC && rec < n)
		keep[rec] = 1;
}

/* The records the verdict may cite about a rank. */
static void cite_rank(const struct hx_rankinfo *ri, uint8_t *keep, size_t n)
{
	cite(keep, n, ri->lost_rec);
	cite(keep, n, ri->first_err_rec);
	cite(keep, n, ri->fail_rec);
	cite(keep, n, ri->wait_rec);
	cite(keep, n, ri->link_rec);
	cite(keep, n, ri->dma_rec);
	cite(keep, n, ri->aicpu_timeout_rec);
	cite(keep, n, ri->sq_full_rec);
	cite(keep, n, ri->stuck_rec);
	cite(keep, n, ri->retry_rec);
	cite(keep, n, ri->stall_rec);
}

static void cite_signals(const struct hx_signals *sg, uint8_t *keep, size_t n)
{
	cite(keep, n, sg->fftsplus);
	cite(keep, n, sg->event_wait);
	cite(keep, n, sg->notify_wait);
	cite(keep, n, sg->connect);
	cite(keep, n, sg->connect_fail);
	cite(keep, n, sg->link_fail);
	cite(keep, n, sg->watchdog);
	cite(keep, n, sg->lost);
	cite(keep, n, sg->stall);
	cite(keep, n, sg->dev_timeout);
	cite(keep, n, sg->timeout);
	cite(keep, n, sg->not_hang);
	cite(keep, n, sg->device_fault);
	cite(keep, n, sg->stopped);
	cite(keep, n, sg->code_rec);
}

/* Which records stay: all but the bulk of ranked records, plus every
 * record the local analysis cites. */
static void choose_records(const struct hangdx_diagnosis *d, uint8_t *keep)
{
	size_t n = d->ev->nrec, i;
	uint32_t r;

	for (i = 0; i < n; i++) {
		int32_t rk = d->rank_of[i];

		keep[i] = !bulk_kind(d->ev->recs[i].kind) || rk < 0 ||
			  (uint32_t)rk >= d->pseudo_base;
	}
	for (r = 0; r < d->nranks; r++)
		cite_rank(&d->ranks[r], keep, n);
	cite_signals(&d->sig, keep, n);
	cite(keep, n, d->id_rec);
}

static void rank_fact(const struct hangdx_diagnosis *d, uint32_t r,
		      struct hx_rankfact *o)
{
	const struct hx_rankinfo *ri = &d->ranks[r];

	memset(o, 0, sizeof *o);
	o->rank = (int32_t)r;
	o->device_seen = ri->device_seen;
	o->local_cycle = d->local_cycle && d->local_cycle[r];
	o->stalled = ri->stalled;
	o->kernels = ri->kernels;
	o->kernels_inferred = ri->kernels_inferred;
	o->last_ts = ri->last_ts;
	o->last_progress_ts = ri->last_progress_ts;
	o->stall_us = ri->stall_us;
	o->stall_under_us = d->stall_under_us;
	o->cores_logged = ri->cores_logged;
	o->core_top = ri->core_top;
	o->stall_file = HX_NOSTR;
	o->stall_line = 0;
}

/* The files each real rank's records come from, in (file, line) order. */
static int rank_files(const struct hangdx_diagnosis *d, uint32_t r,
		      const char **files, size_t max, size_t *n)
{
	size_t i, j;

	*n = 0;
	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		const char *p;
		bool dup = false;

		if (d->rank_of[rec] != (int32_t)r)
			continue;
		p = hx_ev_str(d->ev, d->ev->recs[rec].file);
		for (j = *n; j > 0 && !dup; j--)
			dup = files[j - 1] == p;
		if (dup)
			continue;
		if (*n >= max)
			return HANGDX_ELIMIT;
		files[(*n)++] = p;
	}
	return HANGDX_OK;
}

/* Records are in (file, line) order: a rank's records of one file are
 * one run per file, so collecting per rank walks the order once per rank
 * with records; done instead once, bucketing records by rank. */
static int add_rank_facts(struct hangdx_facts *f, const struct hangdx_diagnosis *d)
{
	const char **files = NULL;
	size_t cap = 4096, n;
	uint32_t r;
	int err = HANGDX_OK;

	files = hx_alloc(f->ctx, cap * sizeof *files);
	if (!files)
		return HANGDX_ENOMEM;
	for (r = 0; r < d->pseudo_base && r < d->nranks && !err; r++) {
		struct hx_rankfact rf;

		if (!d->ranks[r].seen)
			continue;
		rank_fact(d, r, &rf);
		err = rank_files(d, r, files, cap, &n);
		if (err)
			break;
		if (d->ranks[r].stall_rec != HX_NOREC) {
			const struct hx_rec *sr = &d->ev->recs[d->ranks[r].stall_rec];
			const char *p = hx_ev_str(d->ev, sr->file);

			rf.stall_file = hx_ev_intern(f->ev, p, strlen(p), &err);
			rf.stall_line = sr->line;
		}
		if (!err)
			err = facts_put(f, &rf, files, n);
	}
	hx_free(f->ctx, files);
	return err;
}

int hangdx_facts_add_evidence(struct hangdx_facts *f,
			      const struct hangdx_evidence *ev,
			      const struct hangdx_diagnose_opts *opts)
{
	struct hangdx_diagnosis *d = NULL;
	uint8_t *keep;
	size_t i;
	int err;

	if (!f || !ev)
		return HANGDX_EINVAL;
	err = hangdx_diagnose(ev, opts, &d);
	if (err)
		return err;
	keep = hx_calloc(f->ctx, ev->nrec + 1, 1);
	if (!keep) {
		hangdx_diagnosis_free(d);
		return HANGDX_ENOMEM;
	}
	choose_records(d, keep);
	err = add_rank_facts(f, d);
	if (!err)
		err = hx_ev_merge_sel(f->ev, ev, keep, NULL);
	for (i = 0; !err && i < ev->nroots; i++)
		err = hx_ev_add_root(f->ev, hx_ev_str(ev, ev->roots[i]));
	hx_free(f->ctx, keep);
	hangdx_diagnosis_free(d);
	return err;
}

/* ---- writing ---- */

static void put_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void put_ts(FILE *fp, const char *key, int64_t ts)
{
	if (ts == HX_NONE)
		fprintf(fp, ",\"%s\":null", key);
	else
		fprintf(fp, ",\"%s\":%lld", key, (long long)ts);
}

static void write_rank(const struct hangdx_facts *f, FILE *fp,
		       const struct hx_rankfact *r)
{
	uint32_t i;

	fprintf(fp, "{\"fact\":\"rank\",\"rank\":%d,\"device_seen\":%d,"
		"\"local_cycle\":%d,\"kernels\":%u,\"kernels_inferred\":%u,"
		"\"stalled\":%u,\"stall_us\":%lld,\"stall_under_us\":%lld,"
		"\"cores_logged\":%lld,\"core_top\":%lld",
		r->rank, r->device_seen, r->local_cycle, r->kernels,
		r->kernels_inferred, r->stalled, (long long)r->stall_us,
		(long long)r->stall_under_us, (long long)r->cores_logged,
		(long long)r->core_top);
	put_ts(fp, "last_ts", r->last_ts);
	put_ts(fp, "last_progress_ts", r->last_progress_ts);
	if (r->stall_file != HX_NOSTR) {
		fputs(",\"stall_file\":", fp);
		put_str(fp, hx_ev_str(f->ev, r->stall_file));
		fprintf(fp, ",\"stall_line\":%llu", (unsigned long long)r->stall_line);
	}
	fputs("}\n", fp);
	for (i = 0; i < r->nf; i++) {
		fprintf(fp, "{\"fact\":\"file\",\"rank\":%d,\"path\":", r->rank);
		put_str(fp, hx_ev_str(f->ev, f->fid[r->f0 + i]));
		fputs("}\n", fp);
	}
}

static int rank_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int hangdx_facts_write(const struct hangdx_facts *f, FILE *fp)
{
	int32_t *order;
	size_t i;
	int err;

	if (!f || !fp)
		return HANGDX_EINVAL;
	order = hx_alloc(f->ctx, (f->nrf + 1) * sizeof *order);
	if (!order)
		return HANGDX_ENOMEM;
	for (i = 0; i < f->nrf; i++)
		order[i] = f->rf[i].rank;
	qsort(order, f->nrf, sizeof *order, rank_cmp);
	fprintf(fp, "{\"format\":\"%s\",\"ranks\":%zu}\n", FACTS_FORMAT, f->nrf);
	for (i = 0; i < f->ev->nroots; i++) {
		fputs("{\"fact\":\"root\",\"path\":", fp);
		put_str(fp, hx_ev_str(f->ev, f->ev->roots[i]));
		fputs("}\n", fp);
	}
	for (i = 0; i < f->nrf; i++)
		write_rank(f, fp, hx_facts_rank(f, order[i]));
	hx_free(f->ctx, order);
	err = hangdx_evidence_write_jsonl(f->ev, fp, HANGDX_EV_RECORDS | HX_EV_FILES);
	if (!err && (ferror(fp) || fflush(fp) != 0))
		err = HANGDX_EIO;
	return err;
}

/* ---- reading ---- */

struct floader {
	struct hangdx_facts *f;
	struct hangdx_evidence *ev;     /* the evidence being loaded */
	bool have_format;
	struct hx_rankfact cur;         /* the rank fact being read */
	const char **files;
	size_t nfiles, capfiles;
	bool in_rank;
	int err;
	unsigned long bad;
};

static void fbad(struct floader *l, const char *file, unsigned long line,
		 const char *why)
{
	l->bad++;
	hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0, "%s; line skipped", why);
}

static int64_t jnum_or(const struct hx_jobj *o, const char *key, int64_t def)
{
	int64_t v;

	return hx_jint(o, key, &v) ? v : def;
}

/* A rank's file lines follow its rank line: put the rank when done. */
static int flush_rank(struct floader *l)
{
	int err;

	if (!l->in_rank)
		return HANGDX_OK;
	l->in_rank = false;
	err = facts_put(l->f, &l->cur, l->files, l->nfiles);
	l->nfiles = 0;
	return err;
}

static int on_rank_line(struct floader *l, const struct hx_jobj *o,
			const char *file, unsigned long line)
{
	struct hx_rankfact *r = &l->cur;
	const char *s;
	size_t n;
	int64_t rank;
	int err = flush_rank(l);

	if (err)
		return err;
	if (!hx_jint(o, "rank", &rank) || rank < 0 || rank >= (int64_t)HX_MAX_RANKS) {
		fbad(l, file, line, "rank fact without a valid \"rank\"");
		return HANGDX_OK;
	}
	memset(r, 0, sizeof *r);
	r->rank = (int32_t)rank;
	r->device_seen = jnum_or(o, "device_seen", 0) != 0;
	r->local_cycle = jnum_or(o, "local_cycle", 0) != 0;
	r->kernels = (uint32_t)jnum_or(o, "kernels", 0);
	r->kernels_inferred = (uint32_t)jnum_or(o, "kernels_inferred", 0);
	r->stalled = (uint32_t)jnum_or(o, "stalled", 0);
	r->stall_us = jnum_or(o, "stall_us", 0);
	r->stall_under_us = jnum_or(o, "stall_under_us", 0);
	r->cores_logged = jnum_or(o, "cores_logged", 0);
	r->core_top = jnum_or(o, "core_top", 0);
	r->last_ts = jnum_or(o, "last_ts", HX_NONE);
	r->last_progress_ts = jnum_or(o, "last_progress_ts", HX_NONE);
	r->stall_file = HX_NOSTR;
	if (hx_jstr(o, "stall_file", &s, &n)) {
		r->stall_file = hx_ev_intern(l->f->ev, s, n, &err);
		r->stall_line = (uint64_t)jnum_or(o, "stall_line", 0);
	}
	l->in_rank = !err;
	return err;
}

static int on_file_line(struct floader *l, const struct hx_jobj *o,
			const char *file, unsigned long line)
{
	const char *s;
	size_t n;
	int64_t rank;
	void *v = l->files;
	int err = HANGDX_OK;
	uint32_t id;

	if (!l->in_rank || !hx_jint(o, "rank", &rank) || rank != l->cur.rank ||
	    !hx_jstr(o, "path", &s, &n)) {
		fbad(l, file, line, "file fact not after its rank's fact");
		return HANGDX_OK;
	}
	id = hx_ev_intern(l->f->ev, s, n, &err);
	if (err)
		return err;
	err = hx_vec_reserve(l->f->ctx, &v, &l->capfiles, l->nfiles + 1,
			     sizeof *l->files, MAX_FACT_FILES);
	if (err)
		return err;
	l->files = v;
	l->files[l->nfiles++] = hx_ev_str(l->f->ev, id);
	return HANGDX_OK;
}

static int fact_line(void *ud, const struct hx_jobj *o, const char *file,
		     unsigned long line)
{
	struct floader *l = ud;
	const char *s;
	size_t n;
	int err = HANGDX_OK;

	if (hx_jstr(o, "format", &s, &n)) {
		if (n != strlen(FACTS_FORMAT) || memcmp(s, FACTS_FORMAT, n) != 0) {
			hx_diag(l->f->ctx, HANGDX_ERROR, file, line, 0,
				"facts of format \"%.*s\": this hangdx reads \"%s\"",
				(int)(n > 64 ? 64 : n), s, FACTS_FORMAT);
			return HANGDX_EUNSUPPORTED;
		}
		l->have_format = true;
		return HANGDX_OK;
	}
	if (!l->have_format) {
		hx_diag(l->f->ctx, HANGDX_ERROR, file, line, 0,
			"not a facts file: no \"format\":\"%s\" line first",
			FACTS_FORMAT);
		return HANGDX_EUNSUPPORTED;
	}
	if (!hx_jstr(o, "fact", &s, &n)) {
		fbad(l, file, line, "neither a record nor a fact");
		return HANGDX_OK;
	}
	if (n == 4 && memcmp(s, "rank", 4) == 0)
		return on_rank_line(l, o, file, line);
	if (n == 4 && memcmp(s, "file", 4) == 0)
		return on_file_line(l, o, file, line);
	if (n == 4 && memcmp(s, "root", 4) == 0 && hx_jstr(o, "path", &s, &n)) {
		char path[4096];

		if (n >= sizeof path)
			n = sizeof path - 1;
		memcpy(path, s, n);
		path[n] = '\0';
		err = hx_ev_add_root(l->f->ev, path);
		return err;
	}
	fbad(l, file, line, "unknown fact");
	return HANGDX_OK;
}

static int load_fp(struct hangdx_facts *f, const char *name, FILE *fp)
{
	struct floader l;
	int err;

	memset(&l, 0, sizeof l);
	l.f = f;
	err = hx_ev_load_fp(f->ev, name, fp, fact_line, &l);
	if (err == HANGDX_OK || err == HANGDX_EPARSE) {
		int e2 = flush_rank(&l);
		if (e2)
			err = e2;
	}
	if (!err && !l.have_format) {
		hx_diag(f->ctx, HANGDX_ERROR, name, 0, 0,
			"not a facts file: no \"format\":\"%s\" line", FACTS_FORMAT);
		err = HANGDX_EUNSUPPORTED;
	}
	if (!err && l.bad)
		err = HANGDX_EPARSE;
	hx_free(f->ctx, (void *)l.files);
	return err;
}

/* Facts files may be gzip-compressed (`gzip node.facts`): read through
 * zlib, which passes plain text through unchanged. */
static ssize_t gz_read(void *cookie, char *buf, size_t n)
{
	int r = gzread((gzFile)cookie, buf, n > INT32_MAX ? INT32_MAX : (unsigned)n);

	return r < 0 ? -1 : r;
}

static int gz_close(void *cookie)
{
	return gzclose((gzFile)cookie) == Z_OK ? 0 : -1;
}

int hangdx_facts_load(struct hangdx_facts *f, const char *path)
{
	cookie_io_functions_t io = { gz_read, NULL, NULL, gz_close };
	FILE *fp;
	gzFile gz;
	int fd, err;

	if (!f || !path)
		return HANGDX_EINVAL;
	fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY);
	if (fd < 0) {
		hx_diag(f->ctx, HANGDX_ERROR, path, 0, 0, "cannot open: %s",
			strerror(errno));
		return HANGDX_EIO;
	}
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return HANGDX_ENOMEM;
	}
	fp = fopencookie(gz, "r", io);
	if (!fp) {
		gzclose(gz);
		return HANGDX_ENOMEM;
	}
	err = load_fp(f, path, fp);
	fclose(fp);
	return err;
}

int hangdx_facts_load_mem(struct hangdx_facts *f, const char *name,
			  const void *data, size_t len)
{
	FILE *fp;
	int err;

	if (!f || !name || (!data && len))
		return HANGDX_EINVAL;
	if (len == 0) {
		hx_diag(f->ctx, HANGDX_ERROR, name, 0, 0, "empty facts");
		return HANGDX_EUNSUPPORTED;
	}
	fp = fmemopen((void *)(uintptr_t)data, len, "r");
	if (!fp)
		return HANGDX_ENOMEM;
	err = load_fp(f, name, fp);
	fclose(fp);
	return err;
}
