/*
 * factfile.c - facts: what one node keeps of its logs, per rank, so that
 * only facts meet on the machine that decides (twophase.c).  A node
 * analyzes its own evidence in full, keeps every record the verdict reads
 * about a rank except the bulk that only rebuilds its devices (TS stream
 * and SQE dumps, kernel lines), and keeps instead what that rebuild found
 * (struct hx_rankfact).  Written and read as "hangdx-facts-2" JSON Lines
 * (docs/FACTS.md); merged as a set of files.
 */
#define _GNU_SOURCE 1   /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "../core/thresholds.h"

#define FACTS_FORMAT "hangdx-facts-2"
#define FACTS_FORMAT_1 "hangdx-facts-1"    /* records in full; still read */
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
	struct hx_map owner;            /* file string id -> its first rank */
	struct hx_map rankfile;         /* (rank, file id) pairs held */
	char node[HX_MAX_TAG];          /* this machine's node ("": unnamed) */
	int threads;                    /* phase 2's reading options */
	size_t max_records;
	unsigned cores;                 /* the node's --cores (0: not given) */
	size_t cut_max;                 /* the node's record ceiling, when it cut */
	size_t cut_kept;                /* the records the cut nodes kept, summed */
	char tag[HX_MAX_TAG + 16];      /* the tag of the last facts loaded */
	int err;
};

/* A node name: 1 to 40 bytes, printable, without ':', '/' or '"' (its
 * tag "NODE#k:" and a node directory fit a path's node). */
static bool node_name_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 40)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == ':' || s[i] == '/' ||
		    s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] == 0x7f)
			return false;
	return true;
}

int hangdx_facts_set_node(struct hangdx_facts *f, const char *node)
{
	if (!f || !node || !node_name_ok(node, strlen(node)))
		return HANGDX_EINVAL;
	snprintf(f->node, sizeof f->node, "%s", node);
	return HANGDX_OK;
}

int hangdx_facts_set_reading(struct hangdx_facts *f, int threads,
			     size_t max_records)
{
	if (!f || threads < 0)
		return HANGDX_EINVAL;
	f->threads = threads;
	f->max_records = max_records;
	return HANGDX_OK;
}

void hx_facts_ingest_opts(const struct hangdx_facts *f,
			  struct hangdx_ingest_opts *o)
{
	memset(o, 0, sizeof *o);
	o->threads = f->threads;
	o->max_records = f->max_records ? f->max_records : f->cut_max;
}

unsigned hx_facts_cores(const struct hangdx_facts *f)
{
	return f ? f->cores : 0;
}

size_t hx_facts_cut(const struct hangdx_facts *f)
{
	return f ? f->cut_max : 0;
}

size_t hx_facts_cut_kept(const struct hangdx_facts *f)
{
	return f ? f->cut_kept : 0;
}

/* Options and ceilings of another node's facts: the first --cores wins
 * (another is said), the lowest record ceiling that cut is the cut, and
 * the records the cut nodes kept add up. */
static void take_settings(struct hangdx_facts *f, unsigned cores, size_t cut,
			  size_t kept, const char *name)
{
	if (cut && kept <= SIZE_MAX - f->cut_kept)
		f->cut_kept += kept;
	if (cores && f->cores && cores != f->cores)
		hx_diag(f->ctx, HANGDX_WARNING, name, 1, 0,
			"facts made with --cores %u beside facts made with --cores "
			"%u: %u is used", cores, f->cores, f->cores);
	else if (cores)
		f->cores = cores;
	if (cut && (!f->cut_max || cut < f->cut_max))
		f->cut_max = cut;
}

const char *hangdx_facts_tag(const struct hangdx_facts *f)
{
	return f ? f->tag : "";
}

int hangdx_evidence_tag(struct hangdx_evidence *ev, const char *tag)
{
	if (!ev || !tag)
		return HANGDX_EINVAL;
	return tag[0] ? hx_ev_retag(ev, tag, NULL, 0, NULL) : HANGDX_OK;
}

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
	hx_map_free(f->ctx, &f->owner);
	hx_map_free(f->ctx, &f->rankfile);
	hx_free(f->ctx, f);
}

size_t hangdx_facts_ranks(const struct hangdx_facts *f)
{
	return f ? f->nrf : 0;
}

void hangdx_facts_shed(struct hangdx_facts *f)
{
	struct hangdx_evidence *ev = f ? f->ev : NULL;

	if (!ev)
		return;
	hx_free(f->ctx, ev->recs);
	hx_free(f->ctx, ev->fields);
	hx_free(f->ctx, ev->files);
	ev->recs = NULL;
	ev->fields = NULL;
	ev->files = NULL;
	ev->nrec = ev->caprec = ev->nfield = ev->capfield = 0;
	ev->nfile = ev->capfile = 0;
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

const char *hx_facts_file(const struct hangdx_facts *f,
			  const struct hx_rankfact *r, uint32_t i)
{
	return i < r->nf ? hx_ev_str(f->ev, f->fid[r->f0 + i]) : NULL;
}

const struct hangdx_evidence *hx_facts_evidence(const struct hangdx_facts *f)
{
	return f->ev;
}

struct hangdx_evidence *hx_facts_evidence_mut(struct hangdx_facts *f)
{
	return f->ev;
}

/* ---- adding one rank's facts ---- */

static int add_file(struct hangdx_facts *f, const char *path, int32_t rank)
{
	int err = HANGDX_OK;
	uint32_t id = hx_ev_intern(f->ev, path, strlen(path), &err);
	void *v = f->fid;
	struct hx_map_slot *sl;

	if (err)
		return err;
	sl = hx_map_slot(f->ctx, &f->owner, hx_map_key(id), &err);
	if (!sl)
		return err;
	if (sl->val < 0)
		sl->val = rank;
	err = hx_vec_reserve(f->ctx, &v, &f->capfid, f->nfid + 1, sizeof *f->fid,
			     MAX_FACT_FILES);
	if (err)
		return err;
	f->fid = v;
	f->fid[f->nfid++] = id;
	return HANGDX_OK;
}

static uint64_t rf_key(int32_t rank, uint32_t id)
{
	return hx_map_key(((uint64_t)(uint32_t)rank << 32) | id);
}

/* A part of a rank's evidence that saw nothing of its device: no word on
 * its cycle either way. */
static bool rf_no_device(const struct hx_rankfact *x)
{
	return !x->device_seen && !x->has_dumps && !x->local_cycle;
}

/* A rank proven from two parts of its evidence: a part proved it, no part
 * that saw its device failed to, and each part that proved it counted the
 * pool the union of the parts counts (a count logged in the other part
 * makes the proof on the product's count an assumption).  Never an OR. */
static bool combined_proof(const struct hx_rankfact *a,
			   const struct hx_rankfact *b)
{
	int64_t cores = a->cores_logged > b->cores_logged ? a->cores_logged
							  : b->cores_logged;

	if (!a->proven && !b->proven)
		return false;
	if ((!a->proven && !rf_no_device(a)) || (!b->proven && !rf_no_device(b)))
		return false;
	return (!a->proven || a->cores_logged == cores) &&
	       (!b->proven || b->cores_logged == cores);
}

/* Two nodes' facts of one rank: a union.  The same files again: the same
 * facts, nothing changes. */
static void rf_combine(struct hx_rankfact *a, const struct hx_rankfact *b)
{
	a->proven = combined_proof(a, b);
	a->device_seen |= b->device_seen;
	a->local_cycle |= b->local_cycle;
	a->has_dumps |= b->has_dumps;
	a->files_cut |= b->files_cut;
	/* counts of one device seen twice: the larger, never a sum */
	if (b->kernels > a->kernels) {
		a->kernels = b->kernels;
		a->kernels_inferred = b->kernels_inferred;
	}
	if (b->stall_us > a->stall_us) {
		a->stall_us = b->stall_us;
		a->stall_file = b->stall_file;
		a->stall_line = b->stall_line;
	}
	if (b->stalled > a->stalled)
		a->stalled = b->stalled;
	if (b->pool_held > a->pool_held) {
		a->pool_held = b->pool_held;
		a->pool_held_us = b->pool_held_us;
		a->pool_file = b->pool_file;
		a->pool_line = b->pool_line;
	}
	a->pool_ahead |= b->pool_ahead;
	a->pool_inferred |= b->pool_inferred;
	if (a->pool_peer == -1 || (a->pool_peer == HX_PEER_ABSENT && b->pool_peer >= 0))
		a->pool_peer = b->pool_peer;
	if (b->pool_moved_us > a->pool_moved_us)
		a->pool_moved_us = b->pool_moved_us;
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
	if (b->dead_pools > a->dead_pools)
		a->dead_pools = b->dead_pools;
}

static int64_t pg_num(const char **p, const char *end)
{
	int64_t v = 0;

	if (*p >= end || **p < '0' || **p > '9')
		return -1;
	while (*p < end && **p >= '0' && **p <= '9' && v < INT64_C(1) << 40)
		v = v * 10 + (*(*p)++ - '0');
	return v;
}

bool hx_pgroup_next(const char **p, struct hx_pgroup *out)
{
	const char *s = *p, *e, *end, *colon;

	if (!*s)
		return false;
	e = strchr(s, '\t');
	end = e ? e : s + strlen(s);
	*p = e ? e + 1 : end;
	memset(out, 0, sizeof *out);
	out->lmin = out->lmax = -1;
	colon = memchr(s, ':', (size_t)(end - s));
	if (!colon || colon + 1 == end || (*s != 'h' && *s != 'l'))
		return true;
	out->held = *s++ == 'h';
	if (s < colon) {
		out->lmin = pg_num(&s, colon);
		if (s < colon && *s == ',') {
			s++;
			out->lmax = pg_num(&s, colon);
		}
		if (s != colon || out->lmin < 0 || out->lmax < out->lmin)
			return true;
	}
	out->name = colon + 1;
	out->len = (size_t)(end - out->name);
	return true;
}

void hx_pgroup_put(char **o, const struct hx_pgroup *g, bool first)
{
	if (!first)
		*(*o)++ = '\t';
	*(*o)++ = g->held ? 'h' : 'l';
	if (g->held && g->lmin >= 0)
		*o += sprintf(*o, "%lld,%lld", (long long)g->lmin, (long long)g->lmax);
	*(*o)++ = ':';
	memcpy(*o, g->name, g->len);
	*o += g->len;
	**o = '\0';
}

/* The union of two ranks' looping groups (held wins, the SQEs left
 * widened): each half of a rank's logs names its own.  Past
 * HX_MAX_POOL_GROUPS none (its node's judgement stands). */
static int groups_union(struct hangdx_facts *f, uint32_t *a, uint32_t b)
{
	struct hx_pgroup *v = NULL;
	const char *lists[2];
	size_t n = 0, cap = 0, i, k, bytes = 0;
	char *out = NULL, *o;
	bool over = false;
	int err = HANGDX_OK;

	if (*a == HX_NOSTR || b == HX_NOSTR || *a == b) {
		if (*a == HX_NOSTR)
			*a = b;
		return HANGDX_OK;
	}
	lists[0] = hx_ev_str(f->ev, *a);
	lists[1] = hx_ev_str(f->ev, b);
	for (k = 0; k < 2 && !err && !over; k++) {
		const char *p = lists[k];
		struct hx_pgroup g;

		while (!err && !over && hx_pgroup_next(&p, &g)) {
			void *vv = v;

			if (!g.len)
				continue;
			for (i = 0; i < n && (v[i].len != g.len ||
			     memcmp(v[i].name, g.name, g.len) != 0); i++)
				;
			if (i < n) {
				v[i].held |= g.held;
				if (g.lmin >= 0 && (v[i].lmin < 0 || g.lmin < v[i].lmin))
					v[i].lmin = g.lmin;
				if (g.lmax > v[i].lmax)
					v[i].lmax = g.lmax;
				continue;
			}
			err = hx_vec_reserve(f->ctx, &vv, &cap, n + 1, sizeof *v,
					     HX_MAX_POOL_GROUPS + 1);
			if (err == HANGDX_ELIMIT) {
				err = HANGDX_OK;
				over = true;    /* past the ceiling: none */
			}
			v = vv;
			if (!err)
				v[n++] = g;
		}
	}
	for (i = 0; i < n; i++)
		bytes += v[i].len + 48;
	out = err || over || !n || n > HX_MAX_POOL_GROUPS ? NULL : hx_alloc(f->ctx, bytes + 1);
	if (out) {
		for (o = out, i = 0; i < n; i++)
			hx_pgroup_put(&o, &v[i], i == 0);
		*a = hx_ev_intern(f->ev, out, (size_t)(o - out), &err);
	} else if (!err) {
		*a = HX_NOSTR;
	}
	hx_free(f->ctx, out);
	hx_free(f->ctx, v);
	return err;
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

		for (i = 0; i < nfiles && !err && !news; i++) {
			long id = hx_intern_find(&f->ev->strs, files[i], strlen(files[i]));

			news = id < 0 || hx_map_find(&f->rankfile,
						     rf_key(r->rank, (uint32_t)id)) < 0;
		}
		if (!news)
			return HANGDX_OK;
		rf_combine(r, in);
		err = groups_union(f, &r->pool_groups, in->pool_groups);
		for (i = 0; i < r->nf && !err; i++)   /* copy its old files last */
			err = add_file(f, hx_ev_str(f->ev, f->fid[r->f0 + i]), r->rank);
		f0 = f->nfid - r->nf;
	}
	/* a hash of (rank, file): a million files of a rank stay linear */
	for (i = 0; i < nfiles && !err; i++) {
		uint32_t id = hx_ev_intern(f->ev, files[i], strlen(files[i]), &err);
		struct hx_map_slot *fs;

		if (err)
			break;
		fs = hx_map_slot(f->ctx, &f->rankfile, rf_key(r->rank, id), &err);
		if (!fs || fs->val >= 0)
			continue;
		fs->val = 1;
		err = add_file(f, files[i], r->rank);
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
	cite(keep, n, sg->aicpu_timeout);
	cite(keep, n, sg->timeout);
	cite(keep, n, sg->not_hang);
	cite(keep, n, sg->device_fault);
	cite(keep, n, sg->stopped);
	cite(keep, n, sg->code_rec);
	cite(keep, n, sg->timeout_text);
	cite(keep, n, sg->unknown_err);
	cite(keep, n, sg->end_rec);
	cite(keep, n, sg->coded_fail);
	cite(keep, n, sg->exited);
}

/* Failure records whose every use is "the first" or "the earliest" of
 * its rank or of the job: the one that is (cited) stands for the rest. */
static bool firsts_only(int kind)
{
	return kind == HX_K_TSCH_TIMEOUT || kind == HX_K_RT_TASK_FAIL;
}

/* A record that names a communicator or a rank in it: what ranks,
 * groups and processes are comes from such fields, so it is kept. */
static bool names_member(const struct hangdx_evidence *ev, const struct hx_rec *r)
{
	return hx_rec_field(ev, r, HX_F_COMM_ID) || hx_rec_field(ev, r, HX_F_GROUP) ||
	       hx_rec_field(ev, r, HX_F_LOCAL_RANK) || hx_rec_field(ev, r, HX_F_RANK_SIZE);
}

/* Every field of r is in o with the same value (but what and comm_id,
 * which nothing reads of a creation line). */
static bool fields_within(const struct hangdx_evidence *ev,
			  const struct hx_rec *r, const struct hx_rec *o)
{
	uint16_t i;

	for (i = 0; i < r->nfield; i++) {
		const struct hx_field *a = &ev->fields[r->ffirst + i], *b;

		if (a->key == HX_F_WHAT || a->key == HX_F_COMM_ID)
			continue;
		b = hx_rec_field(ev, o, a->key);
		if (!b || b->num != a->num || b->str != a->str)
			return false;
	}
	return true;
}

static uint64_t init_key(const struct hangdx_evidence *ev, const struct hx_rec *r)
{
	const struct hx_field *g = hx_rec_field(ev, r, HX_F_GROUP);

	return hx_map_key(((uint64_t)r->file << 32) ^ (g ? g->str : HX_NOSTR));
}

static bool is_init_ok(const struct hangdx_evidence *ev, const struct hx_rec *r)
{
	const struct hx_field *w = hx_rec_field(ev, r, HX_F_WHAT);
	const char *s = w ? hx_ev_str(ev, w->str) : NULL;

	return r->kind == HX_K_COMM_INIT && s && strcmp(s, "init_ok") == 0;
}

/*
 * A communicator's creation lines (entry, info, exit) of one process: the
 * exit line holds what the others say (group, comm rank, size, device,
 * server) and its time is the one read.  The others go when it holds all
 * of theirs.
 */
static int thin_inits(const struct hangdx_diagnosis *d, uint8_t *keep)
{
	const struct hangdx_evidence *ev = d->ev;
	struct hx_map exits = { 0 };
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < ev->nrec && !err; i++) {
		struct hx_map_slot *sl;

		if (d->rank_of[i] < 0 || !is_init_ok(ev, &ev->recs[i]))
			continue;
		sl = hx_map_slot(d->ctx, &exits, init_key(ev, &ev->recs[i]), &err);
		if (sl && sl->val < 0)
			sl->val = (int32_t)i;
	}
	for (i = 0; i < ev->nrec && !err; i++) {
		const struct hx_rec *r = &ev->recs[i];
		long x;

		if (r->kind != HX_K_COMM_INIT || d->rank_of[i] < 0 ||
		    is_init_ok(ev, r))
			continue;
		x = hx_map_find(&exits, init_key(ev, r));
		if (x >= 0 && ev->recs[x].file == r->file &&
		    fields_within(ev, r, &ev->recs[x]))
			keep[i] = 0;
	}
	hx_map_free(d->ctx, &exits);
	return err;
}

/* Each rank keeps its first record: a rank whose records are all of a
 * bulk kind (one TS queue line naming it) is still a rank of the job
 * where the facts are read. */
static int keep_a_record_a_rank(const struct hangdx_diagnosis *d, uint8_t *keep)
{
	uint8_t *has = hx_calloc(d->ctx, d->nranks + 1, 1);
	size_t i;

	if (!has)
		return HANGDX_ENOMEM;
	for (i = 0; i < d->norder; i++) {
		int32_t rk = d->rank_of[d->order[i]];

		if (rk >= 0 && (uint32_t)rk < d->nranks && !has[rk]) {
			has[rk] = 1;
			keep[d->order[i]] = 1;
		}
	}
	hx_free(d->ctx, has);
	return HANGDX_OK;
}

/* Which records stay: all but the bulk of ranked records, plus every
 * record the local analysis cites, and each record whose rank the other
 * records of its process or file took (without it they have none). */
static int choose_records(const struct hangdx_diagnosis *d, uint8_t *keep)
{
	size_t n = d->ev->nrec, i;
	uint32_t r;
	int err;

	for (i = 0; i < n; i++) {
		int32_t rk = d->rank_of[i];
		int kind = d->ev->recs[i].kind;

		keep[i] = (!bulk_kind(kind) && !firsts_only(kind)) || rk < 0 ||
			  (uint32_t)rk >= d->pseudo_base ||
			  (firsts_only(kind) && names_member(d->ev, &d->ev->recs[i]));
	}
	err = thin_inits(d, keep);
	for (i = 0; i < n; i++)         /* what binds a process to its rank */
		keep[i] |= d->pinned && d->pinned[i];
	if (!err)
		err = keep_a_record_a_rank(d, keep);
	for (r = 0; r < d->nranks; r++)
		cite_rank(&d->ranks[r], keep, n);
	cite_signals(&d->sig, keep, n);
	cite(keep, n, d->id_rec);
	return err;
}

static uint32_t dead_pools(const struct hangdx_diagnosis *d, uint32_t r)
{
	const struct hx_wgraph *g = &d->wg;
	uint32_t n = 0;
	size_t i;

	for (i = 0; d->have_snapshot && g->released && i < g->nnodes; i++)
		n += g->nodes[i].kind == HX_WN_POOL && g->nodes[i].id == r &&
		     !g->released[i];
	return n;
}

static void rank_fact(const struct hangdx_diagnosis *d, uint32_t r,
		      struct hx_rankfact *o)
{
	const struct hx_rankinfo *ri = &d->ranks[r];

	memset(o, 0, sizeof *o);
	o->rank = (int32_t)r;
	o->device_seen = ri->device_seen;
	/* its own state holds the deadlock: a cycle in its rebuilt tasks, or
	 * the exhaustion inferred on its own chain (roots.c) */
	o->local_cycle = (d->local_cycle && d->local_cycle[r]) ||
			 (d->verdict == HANGDX_V_DEADLOCK && d->roots &&
			  ri->role == HX_ROLE_ROOT);
	o->proven = hx_rank_proven(d, r);  /* its own evidence, not the job's */
	o->stalled = ri->stalled;
	o->kernels = ri->kernels;
	o->kernels_inferred = ri->kernels_inferred;
	o->last_ts = ri->last_ts;
	o->last_progress_ts = ri->last_progress_ts;
	o->stall_us = ri->stall_us;
	o->stall_under_us = d->stall_under_us;
	o->cores_logged = ri->cores_logged;
	o->core_top = ri->core_top;
	o->dead_pools = dead_pools(d, r);
	o->stall_file = HX_NOSTR;
	o->stall_line = 0;
	o->pool_held = ri->pool_held;
	o->pool_held_us = ri->pool_held_us;
	o->pool_ahead = ri->pool_ahead;
	o->pool_inferred = d->pool_held && d->local_cycle && d->local_cycle[r];
	o->pool_peer = ri->pool_peer;
	o->pool_moved_us = ri->pool_moved_us;
	o->pool_file = HX_NOSTR;
	o->pool_line = 0;
	o->pool_groups = HX_NOSTR;
}

/* (rank, file) pairs of the records, one per rank and file: records are
 * in (file, line) order, so a file's records are one run. */
struct rfile {
	int32_t rank;
	uint32_t seq;
	const char *path;
};

static int rfile_cmp(const void *a, const void *b)
{
	const struct rfile *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int rank_files(const struct hangdx_diagnosis *d, struct rfile **out,
		      size_t *nout, uint8_t *dumps)
{
	uint32_t *last = hx_alloc(d->ctx, (d->pseudo_base + 1) * sizeof *last);
	struct rfile *v = NULL;
	size_t n = 0, cap = 0, i;
	int err = last ? HANGDX_OK : HANGDX_ENOMEM;

	for (i = 0; !err && i <= d->pseudo_base; i++)
		last[i] = HX_NOSTR;
	for (i = 0; !err && i < d->norder; i++) {
		uint32_t rec = d->order[i];
		const struct hx_rec *r = &d->ev->recs[rec];
		int32_t rk = d->rank_of[rec];
		void *p = v;

		if (rk < 0 || (uint32_t)rk >= d->pseudo_base)
			continue;
		if (r->kind == HX_K_TSCH_STREAM)
			dumps[rk] = 1;
		if (last[rk] == r->file)
			continue;
		last[rk] = r->file;
		err = hx_vec_reserve(d->ctx, &p, &cap, n + 1, sizeof *v, MAX_FACT_FILES);
		if (err)
			break;
		v = p;
		v[n] = (struct rfile){ rk, (uint32_t)n, hx_ev_str(d->ev, r->file) };
		n++;
	}
	hx_free(d->ctx, last);
	if (!err && n)
		qsort(v, n, sizeof *v, rfile_cmp);
	*out = v;
	*nout = n;
	return err;
}

static int add_rank_facts(struct hangdx_facts *f, const struct hangdx_diagnosis *d)
{
	const char **files = NULL;
	struct rfile *rf = NULL;
	uint8_t *dumps;
	size_t nrf = 0, k = 0, cap = 0;
	uint32_t r;
	int err;

	dumps = hx_calloc(f->ctx, d->pseudo_base + 1, 1);
	if (!dumps)
		return HANGDX_ENOMEM;
	err = rank_files(d, &rf, &nrf, dumps);
	for (r = 0; !err && r < d->pseudo_base && r < d->nranks; r++) {
		struct hx_rankfact fact;
		size_t n = 0;

		for (; k < nrf && rf[k].rank < (int32_t)r; k++)
			;
		for (; k < nrf && rf[k].rank == (int32_t)r && !err; k++) {
			void *p = files;

			err = hx_vec_reserve(f->ctx, &p, &cap, n + 1, sizeof *files,
					     MAX_FACT_FILES);
			files = p;
			if (!err)
				files[n++] = rf[k].path;
		}
		if (err || !d->ranks[r].seen)
			continue;
		rank_fact(d, r, &fact);
		fact.has_dumps = dumps[r];
		if (d->ranks[r].stall_rec != HX_NOREC) {
			const struct hx_rec *sr = &d->ev->recs[d->ranks[r].stall_rec];
			const char *p = hx_ev_str(d->ev, sr->file);

			fact.stall_file = hx_ev_intern(f->ev, p, strlen(p), &err);
			fact.stall_line = sr->line;
		}
		if (!err && d->ranks[r].pool_held && d->ranks[r].pool_rec != HX_NOREC) {
			const struct hx_rec *pr = &d->ev->recs[d->ranks[r].pool_rec];
			const char *p = hx_ev_str(d->ev, pr->file);

			fact.pool_file = hx_ev_intern(f->ev, p, strlen(p), &err);
			fact.pool_line = pr->line;
		}
		if (!err && d->ranks[r].pool_groups)
			fact.pool_groups = hx_ev_intern(f->ev, d->ranks[r].pool_groups,
							strlen(d->ranks[r].pool_groups), &err);
		if (!err)
			err = facts_put(f, &fact, files, n);
	}
	hx_free(f->ctx, (void *)files);
	hx_free(f->ctx, rf);
	hx_free(f->ctx, dumps);
	return err;
}

/* Under the node's record ceiling, the records each file kept (the first
 * ones, in line order): said in its facts, so that phase 2, reading the
 * file again where fewer files share the ceiling, keeps no more. */
static int mark_kept(struct hangdx_evidence *dst, const struct hangdx_evidence *ev)
{
	struct hx_map cnt = { 0 }, at = { 0 };
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < dst->nfile && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(ev->ctx, &at,
			hx_map_key(dst->files[i].path), &err);
		if (sl && sl->val < 0)
			sl->val = (int32_t)i;
	}
	for (i = 0; i < ev->nrec && !err; i++) {
		struct hx_map_slot *sl = hx_map_slot(ev->ctx, &cnt,
			hx_map_key(ev->recs[i].file), &err);
		if (sl)
			sl->val = sl->val < 0 ? 1 : sl->val + 1;
	}
	for (i = 0; i < ev->nfile && !err; i++) {
		const struct hx_filesum *fs = &ev->files[i];
		int32_t k = hx_map_find(&cnt, hx_map_key(fs->path));
		const char *p = hx_ev_str(ev, fs->path);
		long id = hx_intern_find(&dst->strs, p, strlen(p));
		int32_t j = id < 0 ? -1 : hx_map_find(&at, hx_map_key((uint64_t)id));

		if (j >= 0 && !dst->files[j].rec_cut) {
			dst->files[j].rec_cut = true;
			dst->files[j].kept = k < 0 ? 0 : (uint64_t)k;
		}
	}
	hx_map_free(ev->ctx, &cnt);
	hx_map_free(ev->ctx, &at);
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
	take_settings(f, opts ? opts->cores : 0,
		      ev->c.skipped[HX_S_RECORDS] ? ev->maxrec : 0,
		      ev->c.skipped[HX_S_RECORDS] ? ev->nrec : 0, "facts");
	keep = hx_calloc(f->ctx, ev->nrec + 1, 1);
	if (!keep) {
		hangdx_diagnosis_free(d);
		return HANGDX_ENOMEM;
	}
	err = choose_records(d, keep);
	if (!err)
		err = add_rank_facts(f, d);
	if (!err)
		err = hx_ev_merge_sel(f->ev, ev, keep, NULL);
	if (!err && ev->c.skipped[HX_S_RECORDS])
		err = mark_kept(f->ev, ev);
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

/* A key of a rank fact, left out at its reader's default (0, or none). */
static void put_num(FILE *fp, const char *key, long long v, long long def)
{
	if (v != def)
		fprintf(fp, ",\"%s\":%lld", key, v);
}

static void write_rank(const struct hangdx_facts *f, FILE *fp,
		       const struct hx_rankfact *r)
{
	uint32_t i;

	fprintf(fp, "{\"fact\":\"rank\",\"rank\":%d", r->rank);
	put_num(fp, "device_seen", r->device_seen, 0);
	put_num(fp, "local_cycle", r->local_cycle, 0);
	put_num(fp, "proven", r->proven, 0);
	put_num(fp, "has_dumps", r->has_dumps, 0);
	put_num(fp, "kernels", r->kernels, 0);
	put_num(fp, "kernels_inferred", r->kernels_inferred, 0);
	put_num(fp, "stalled", r->stalled, 0);
	put_num(fp, "stall_us", r->stall_us, 0);
	put_num(fp, "stall_under_us", r->stall_under_us, 0);
	put_num(fp, "cores_logged", r->cores_logged, 0);
	put_num(fp, "core_top", r->core_top, 0);
	put_num(fp, "dead_pools", r->dead_pools, 0);
	put_num(fp, "last_ts", r->last_ts, HX_NONE);
	put_num(fp, "last_progress_ts", r->last_progress_ts, HX_NONE);
	if (r->stall_file != HX_NOSTR) {
		fputs(",\"stall_file\":", fp);
		put_str(fp, hx_ev_str(f->ev, r->stall_file));
		fprintf(fp, ",\"stall_line\":%llu", (unsigned long long)r->stall_line);
	}
	put_num(fp, "pool_held", r->pool_held, 0);
	put_num(fp, "pool_held_us", r->pool_held_us, 0);
	put_num(fp, "pool_ahead", r->pool_ahead, 0);
	put_num(fp, "pool_inferred", r->pool_inferred, 0);
	put_num(fp, "pool_peer", r->pool_peer, -1);
	put_num(fp, "pool_moved_us", r->pool_moved_us, 0);
	if (r->pool_file != HX_NOSTR) {
		fputs(",\"pool_file\":", fp);
		put_str(fp, hx_ev_str(f->ev, r->pool_file));
		fprintf(fp, ",\"pool_line\":%llu", (unsigned long long)r->pool_line);
	}
	if (r->pool_groups != HX_NOSTR) {
		fputs(",\"pool_groups\":", fp);
		put_str(fp, hx_ev_str(f->ev, r->pool_groups));
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
	fprintf(fp, "{\"format\":\"%s\",\"ranks\":%zu,\"records\":%zu,"
		"\"fields\":%zu", FACTS_FORMAT, f->nrf, f->ev->nrec,
		f->ev->nfield);
	if (f->node[0]) {
		fputs(",\"node\":", fp);
		put_str(fp, f->node);
	}
	if (f->cores)
		fprintf(fp, ",\"cores\":%u", f->cores);
	if (f->cut_max)
		fprintf(fp, ",\"max_records\":%zu", f->cut_max);
	if (f->cut_max && f->cut_kept)
		fprintf(fp, ",\"kept\":%zu", f->cut_kept);
	fputs("}\n", fp);
	for (i = 0; i < f->ev->tagset.cap && f->ev->tagset.n; i++)
		if (f->ev->tagset.v[i].key) {
			fputs("{\"fact\":\"tag\",\"tag\":", fp);
			put_str(fp, hx_ev_str(f->ev, (uint32_t)f->ev->tagset.v[i].val));
			fputs("}\n", fp);
		}
	for (i = 0; i < f->ev->nroots; i++) {
		fputs("{\"fact\":\"root\",\"path\":", fp);
		put_str(fp, hx_ev_str(f->ev, f->ev->roots[i]));
		fputs("}\n", fp);
	}
	for (i = 0; i < f->nrf; i++)
		write_rank(f, fp, hx_facts_rank(f, order[i]));
	hx_free(f->ctx, order);
	err = hangdx_evidence_write_jsonl(f->ev, fp, HANGDX_EV_RECORDS |
					  HX_EV_FILES | HX_EV_DELTA);
	if (!err && (ferror(fp) || fflush(fp) != 0))
		err = HANGDX_EIO;
	return err;
}

/* ---- reading ---- */

/* A rank fact read, put once the stream is read and its node known. */
struct pending {
	struct hx_rankfact rf;          /* stall_file: a string id of l->ev */
	size_t f0, nf;                  /* its files: pfid[f0, f0 + nf) */
};

struct floader {
	struct hangdx_facts *f;
	struct hangdx_evidence *ev;     /* the stream's own evidence */
	bool have_format;
	char node[HX_MAX_TAG];          /* the writer's node ("": not said) */
	unsigned cores;                 /* its --cores, its record ceiling */
	size_t cut, kept;               /* and the records the node kept */
	struct pending *pend;
	size_t npend, cappend;
	uint32_t *pfid;                 /* file ids (in ev) of the pending */
	size_t npfid, cappfid;
	bool in_rank;
	unsigned long rank_line;
	const char *name;
	unsigned long bad, skipped;
};

static void fbad(struct floader *l, const char *file, unsigned long line,
		 const char *why)
{
	l->bad++;
	hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0, "%s; line skipped", why);
}

/* A pool_groups value hx_pgroup_next reads whole: at most
 * HX_MAX_POOL_GROUPS entries, each well formed, names of at most 4 kB. */
static bool pool_groups_ok(const char *s, size_t n)
{
	struct hx_pgroup g;
	size_t k = 0;

	if (n > (size_t)HX_MAX_POOL_GROUPS * 4200 || memchr(s, '\0', n))
		return false;
	while (hx_pgroup_next(&s, &g))
		if (!g.len || g.len > 4096 || ++k > HX_MAX_POOL_GROUPS)
			return false;
	return true;
}

/* A value past what a log can say: left at its default, and said. */
static int64_t jnum_in(struct floader *l, const struct hx_jobj *o,
		       const char *key, int64_t def, int64_t lo, int64_t hi,
		       unsigned long line)
{
	int64_t v;

	if (!hx_jint(o, key, &v))
		return def;
	if (v >= lo && v <= hi)
		return v;
	l->skipped++;
	hx_diag(l->f->ctx, HANGDX_WARNING, l->name, line, 0,
		"rank fact: \"%s\" %lld is out of range (%lld to %lld); not used",
		key, (long long)v, (long long)lo, (long long)hi);
	return def;
}

/* A rank's file lines follow its rank line: kept when done. */
static int flush_rank(struct floader *l)
{
	void *v = l->pend;
	int err;

	if (!l->in_rank)
		return HANGDX_OK;
	l->in_rank = false;
	err = hx_vec_reserve(l->f->ctx, &v, &l->cappend, l->npend + 1,
			     sizeof *l->pend, MAX_FACT_RANKS);
	if (err)
		return err;
	l->pend = v;
	l->pend[l->npend].f0 = l->npfid - l->pend[l->npend].nf;
	l->npend++;
	return HANGDX_OK;
}

#define FACT_MAX_TS INT64_C(253402300799999999)    /* 9999-12-31, in µs */
#define FACT_MAX_COUNT INT64_C(1048576)
#define FACT_MAX_LINE (INT64_C(1) << 48)

static int on_rank_line(struct floader *l, const struct hx_jobj *o,
			const char *file, unsigned long line)
{
	struct hx_rankfact *r;
	struct pending *p;
	const char *s;
	size_t n;
	int64_t rank;
	void *v = l->pend;
	int err = flush_rank(l);

	if (err)
		return err;
	if (!hx_jint(o, "rank", &rank) || rank < 0 || rank >= (int64_t)HX_MAX_RANKS) {
		fbad(l, file, line, "rank fact without a valid \"rank\"");
		return HANGDX_OK;
	}
	err = hx_vec_reserve(l->f->ctx, &v, &l->cappend, l->npend + 1,
			     sizeof *l->pend, MAX_FACT_RANKS);
	if (err)
		return err;
	l->pend = v;
	p = &l->pend[l->npend];
	memset(p, 0, sizeof *p);
	r = &p->rf;
	r->rank = (int32_t)rank;
	r->device_seen = jnum_in(l, o, "device_seen", 0, 0, 1, line) != 0;
	r->local_cycle = jnum_in(l, o, "local_cycle", 0, 0, 1, line) != 0;
	r->proven = jnum_in(l, o, "proven", 0, 0, 1, line) != 0;
	r->has_dumps = jnum_in(l, o, "has_dumps", 0, 0, 1, line) != 0;
	r->kernels = (uint32_t)jnum_in(l, o, "kernels", 0, 0, HX_MAX_CORE_ID + 1, line);
	r->kernels_inferred = (uint32_t)jnum_in(l, o, "kernels_inferred", 0, 0,
						r->kernels, line);
	r->stalled = (uint32_t)jnum_in(l, o, "stalled", 0, 0, FACT_MAX_COUNT, line);
	r->stall_us = jnum_in(l, o, "stall_us", 0, 0, FACT_MAX_TS, line);
	r->stall_under_us = jnum_in(l, o, "stall_under_us", 0, 0, FACT_MAX_TS, line);
	r->cores_logged = jnum_in(l, o, "cores_logged", 0, 0, HX_MAX_CORE_ID + 1, line);
	r->core_top = jnum_in(l, o, "core_top", 0, 0, HX_MAX_CORE_ID + 1, line);
	r->dead_pools = (uint32_t)jnum_in(l, o, "dead_pools", 0, 0, FACT_MAX_COUNT, line);
	r->last_ts = jnum_in(l, o, "last_ts", HX_NONE, 0, FACT_MAX_TS, line);
	r->last_progress_ts = jnum_in(l, o, "last_progress_ts", HX_NONE, 0,
				      FACT_MAX_TS, line);
	r->stall_file = HX_NOSTR;
	if (hx_jstr(o, "stall_file", &s, &n) && n > 0 && n < 4096) {
		r->stall_file = hx_ev_intern(l->ev, s, n, &err);
		r->stall_line = (uint64_t)jnum_in(l, o, "stall_line", 0, 1,
						  FACT_MAX_LINE, line);
	}
	r->pool_held = (uint32_t)jnum_in(l, o, "pool_held", 0, 0, HX_MAX_CORE_ID + 1, line);
	r->pool_held_us = jnum_in(l, o, "pool_held_us", 0, 0, FACT_MAX_TS, line);
	r->pool_ahead = jnum_in(l, o, "pool_ahead", 0, 0, 1, line) != 0;
	r->pool_inferred = jnum_in(l, o, "pool_inferred", 0, 0, 1, line) != 0;
	r->pool_peer = (int32_t)jnum_in(l, o, "pool_peer", -1, HX_PEER_ABSENT,
					HX_MAX_RANKS - 1, line);
	if (r->pool_peer < -1 && r->pool_peer != HX_PEER_ABSENT)
		r->pool_peer = -1;
	r->pool_moved_us = jnum_in(l, o, "pool_moved_us", 0, 0, FACT_MAX_TS, line);
	r->pool_file = HX_NOSTR;
	if (!err && hx_jstr(o, "pool_file", &s, &n) && n > 0 && n < 4096) {
		r->pool_file = hx_ev_intern(l->ev, s, n, &err);
		r->pool_line = (uint64_t)jnum_in(l, o, "pool_line", 0, 1,
						 FACT_MAX_LINE, line);
	}
	r->pool_groups = HX_NOSTR;
	if (!err && hx_jstr(o, "pool_groups", &s, &n) && n > 0) {
		if (pool_groups_ok(s, n))
			r->pool_groups = hx_ev_intern(l->ev, s, n, &err);
		else
			hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0,
				"pool_groups of rank %lld is not a list of at most %d "
				"groups (h[MIN,MAX]:NAME or l:NAME, tab-separated): not "
				"used, its node's pool_peer stands", (long long)r->rank,
				HX_MAX_POOL_GROUPS);
	}
	l->in_rank = !err;
	l->rank_line = line;
	return err;
}

static int on_file_line(struct floader *l, const struct hx_jobj *o,
			const char *file, unsigned long line)
{
	const char *s;
	size_t n;
	int64_t rank;
	void *v = l->pfid;
	int err = HANGDX_OK;
	uint32_t id;

	if (!l->in_rank || !hx_jint(o, "rank", &rank) ||
	    rank != l->pend[l->npend].rf.rank || !hx_jstr(o, "path", &s, &n) ||
	    n == 0 || n >= 4096) {
		fbad(l, file, line, "file fact not after its rank's fact");
		return HANGDX_OK;
	}
	if (l->pend[l->npend].nf >= HX_MAX_RANK_FILES) {
		if (!l->pend[l->npend].rf.files_cut)
			hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0,
				"rank %d names more than %d files: the rest are "
				"not kept, and its logs are not read again",
				(int)rank, HX_MAX_RANK_FILES);
		l->pend[l->npend].rf.files_cut = true;
		return HANGDX_OK;
	}
	id = hx_ev_intern(l->ev, s, n, &err);
	if (err)
		return err;
	err = hx_vec_reserve(l->f->ctx, &v, &l->cappfid, l->npfid + 1,
			     sizeof *l->pfid, MAX_FACT_FILES);
	if (err)
		return err;
	l->pfid = v;
	l->pfid[l->npfid++] = id;
	l->pend[l->npend].nf++;
	return HANGDX_OK;
}

/* The header's record and field counts (version 2): the evidence sized
 * once.  A hint, trusted only as far as the bytes a record takes at
 * least (a wrong one costs memory not touched, or nothing). */
static void reserve_hint(struct floader *l, const struct hx_jobj *o)
{
	int64_t r, n;

	if (!hx_jint(o, "records", &r) || !hx_jint(o, "fields", &n) || r <= 0)
		return;
	if (n >= 0 && r <= (int64_t)1 << 24 && n <= r * HX_MAX_FIELDS)
		(void)hx_ev_reserve(l->ev, (size_t)r, (size_t)n);
	else
		hx_diag(l->f->ctx, HANGDX_WARNING, l->name, 1, 0,
			"the header's size hint (%lld records, %lld fields) is past "
			"what facts hold: not used", (long long)r, (long long)n);
}

/* A setting of the header, in its range (as its option takes it), or 0
 * and said. */
static int64_t jnum_header(struct floader *l, const struct hx_jobj *o,
			   const char *key, int64_t lo, int64_t hi,
			   unsigned long line)
{
	int64_t v;

	if (!hx_jint(o, key, &v))
		return 0;
	if (v >= lo && v <= hi)
		return v;
	hx_diag(l->f->ctx, HANGDX_WARNING, l->name, line, 0,
		"the header's \"%s\" %lld is out of range (%lld to %lld); not used",
		key, (long long)v, (long long)lo, (long long)hi);
	return 0;
}

static int on_format(struct floader *l, const struct hx_jobj *o,
		     const char *s, size_t n, const char *file,
		     unsigned long line)
{
	bool v1 = n == strlen(FACTS_FORMAT_1) && memcmp(s, FACTS_FORMAT_1, n) == 0;

	if (!v1 && (n != strlen(FACTS_FORMAT) || memcmp(s, FACTS_FORMAT, n) != 0)) {
		hx_diag(l->f->ctx, HANGDX_ERROR, file, line, 0,
			"facts of format \"%.*s\": this hangdx reads \"%s\"",
			(int)(n > 64 ? 64 : n), s, FACTS_FORMAT);
		return HANGDX_EUNSUPPORTED;
	}
	l->have_format = true;
	if (hx_jstr(o, "node", &s, &n)) {
		if (node_name_ok(s, n))
			snprintf(l->node, sizeof l->node, "%.*s", (int)n, s);
		else
			hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0,
				"the node's name is not a name (1 to 40 printable "
				"bytes, no ':', '/', '\"'); read as a node without one");
	}
	reserve_hint(l, o);
	l->cores = (unsigned)jnum_header(l, o, "cores", 1, 64, line);
	l->cut = (size_t)jnum_header(l, o, "max_records", 1, (int64_t)1 << 31, line);
	l->kept = (size_t)jnum_header(l, o, "kept", 1, (int64_t)1 << 31, line);
	if (l->kept > l->cut)   /* a node keeps at most its ceiling */
		l->kept = l->cut;
	return v1 ? HANGDX_OK : HX_JHOOK_DELTA;
}

static int on_path_fact(struct floader *l, const char *what, const char *s,
			size_t n, unsigned long line)
{
	char path[4096];

	if (n == 0 || n >= sizeof path) {
		hx_diag(l->f->ctx, HANGDX_WARNING, l->name, line, 0,
			"a %s fact of %zu bytes: skipped", what, n);
		return HANGDX_OK;
	}
	memcpy(path, s, n);
	path[n] = '\0';
	if (strcmp(what, "root") == 0)
		return hx_ev_add_root(l->ev, path);
	if (n > HX_MAX_TAG || path[n - 1] != ':' || memchr(path, ':', n - 1) ||
	    memchr(path, '/', n) || !node_name_ok(path, strcspn(path, "#:"))) {
		hx_diag(l->f->ctx, HANGDX_WARNING, l->name, line, 0,
			"tag \"%.*s\" is not a node's (NODE: or NODE#k:): skipped",
			(int)(n > 64 ? 64 : n), path);
		return HANGDX_OK;
	}
	return hx_ev_tag_len(l->ev, path) ? HANGDX_OK : hx_ev_add_tag(l->ev, path);
}

static int fact_line(void *ud, const struct hx_jobj *o, const char *file,
		     unsigned long line)
{
	struct floader *l = ud;
	const char *s;
	size_t n;

	if (hx_jstr(o, "format", &s, &n))
		return on_format(l, o, s, n, file, line);
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
	if (n == 4 && memcmp(s, "root", 4) == 0 && hx_jstr(o, "path", &s, &n))
		return on_path_fact(l, "root", s, n, line);
	if (n == 3 && memcmp(s, "tag", 3) == 0 && hx_jstr(o, "tag", &s, &n))
		return on_path_fact(l, "tag", s, n, line);
	/* a newer writer's fact: skipped, said once a file */
	if (l->skipped++ == 0)
		hx_diag(l->f->ctx, HANGDX_WARNING, file, line, 0,
			"fact \"%.*s\" is not one this hangdx knows (a newer "
			"writer's?): skipped", (int)(n > 32 ? 32 : n), s);
	return HANGDX_OK;
}

/* A file these facts give to one rank that f holds as another rank's:
 * not the same file (two nodes' byte-identical logs at one path). */
static const char *owned_by_other(const struct floader *l, const char *tag)
{
	char buf[4096 + HX_MAX_TAG + 16];
	size_t i, j;

	for (i = 0; i < l->npend && l->f->owner.n; i++)
		for (j = 0; j < l->pend[i].nf; j++) {
			const char *p = hx_ev_str(l->ev, l->pfid[l->pend[i].f0 + j]);
			long id;
			int32_t o;

			snprintf(buf, sizeof buf, "%s%s", tag, p);
			id = hx_intern_find(&l->f->ev->strs, buf, strlen(buf));
			o = id < 0 ? -1 : hx_map_find(&l->f->owner, hx_map_key((uint64_t)id));
			if (o >= 0 && o != l->pend[i].rf.rank)
				return hx_ev_str(l->f->ev, (uint32_t)id);
		}
	return NULL;
}

/* The tag of the stream's files: none for this node's (or an unnamed
 * node's) facts, "NODE:" for another node's; and when a file the facts
 * hold already comes again with other content (two nodes' copies of one
 * path), a tag of its own, said.  The pending facts' files follow. */
static int choose_tag(struct floader *l, char *tag, size_t cap)
{
	struct hangdx_facts *f = l->f;
	const char *clash;
	uint32_t *map = NULL;
	size_t i;
	int k, err;

	tag[0] = '\0';
	if (l->node[0] && f->node[0] && strcmp(l->node, f->node) != 0)
		snprintf(tag, cap, "%s:", l->node);
	clash = hx_ev_clash(f->ev, l->ev, tag, &err);
	if (!err && !clash)
		clash = owned_by_other(l, tag);
	if (err)
		return err;
	for (k = 2; clash && k < 1 << 20; k++) {
		snprintf(tag, cap, "%s#%d:", l->node[0] ? l->node
				  : f->node[0] ? f->node : "node", k);
		if (!hx_ev_tag_len(f->ev, tag))
			break;
	}
	if (clash)
		hx_diag(f->ctx, HANGDX_WARNING, l->name, 0, 0,
			"%s is held already with other content (the same path "
			"on another node?): both are kept, the files of these "
			"facts as node %.*s", clash, (int)strlen(tag) - 1, tag);
	if (!tag[0])
		return HANGDX_OK;
	err = hx_ev_retag(l->ev, tag, l->pfid, l->npfid, &map);
	for (i = 0; !err && i < l->npfid; i++)
		l->pfid[i] = map[l->pfid[i]];
	for (i = 0; !err && i < l->npend; i++)
		if (l->pend[i].rf.stall_file != HX_NOSTR)
			l->pend[i].rf.stall_file = map[l->pend[i].rf.stall_file];
	for (i = 0; !err && i < l->npend; i++)
		if (l->pend[i].rf.pool_file != HX_NOSTR)
			l->pend[i].rf.pool_file = map[l->pend[i].rf.pool_file];
	hx_free(f->ctx, map);
	return err;
}

/* The pending rank facts into f, their files by path (sev holds the
 * strings of their ids). */
static int put_pending(struct floader *l, const struct hangdx_evidence *sev)
{
	const char **files = NULL;
	size_t cap = 0, i, j;
	int err = HANGDX_OK;

	for (i = 0; i < l->npend && !err; i++) {
		struct pending *p = &l->pend[i];
		void *v = files;

		if (p->nf == 0)
			hx_diag(l->f->ctx, HANGDX_WARNING, l->name, 0, 0,
				"the facts of rank %d name no file of it", p->rf.rank);
		err = hx_vec_reserve(l->f->ctx, &v, &cap, p->nf + 1, sizeof *files,
				     MAX_FACT_FILES);
		if (err)
			break;
		files = v;
		for (j = 0; j < p->nf; j++)
			files[j] = hx_ev_str(sev, l->pfid[p->f0 + j]);
		if (p->rf.stall_file != HX_NOSTR) {
			const char *sf = hx_ev_str(sev, p->rf.stall_file);

			p->rf.stall_file = hx_ev_intern(l->f->ev, sf, strlen(sf), &err);
		}
		if (!err && p->rf.pool_file != HX_NOSTR) {
			const char *pf = hx_ev_str(sev, p->rf.pool_file);

			p->rf.pool_file = hx_ev_intern(l->f->ev, pf, strlen(pf), &err);
		}
		if (!err && p->rf.pool_groups != HX_NOSTR) {
			const char *pg = hx_ev_str(sev, p->rf.pool_groups);

			p->rf.pool_groups = hx_ev_intern(l->f->ev, pg, strlen(pg), &err);
		}
		if (!err)
			err = facts_put(l->f, &p->rf, files, p->nf);
	}
	hx_free(l->f->ctx, (void *)files);
	return err;
}

/* The stream's evidence into f's: taken whole while f holds nothing. */
static int adopt(struct floader *l)
{
	struct hangdx_facts *f = l->f;

	if (f->ev->nrec || f->ev->nfile || f->ev->nroots || f->nrf ||
	    f->ev->tagset.n) {
		int err = hangdx_evidence_merge(f->ev, l->ev);

		if (!err && l->ev->limit_warned)
			f->ev->limit_warned = true;
		return err;
	}
	l->ev->maxrec = f->ev->maxrec > l->ev->nrec ? f->ev->maxrec : l->ev->nrec;
	hangdx_evidence_free(f->ev);
	f->ev = l->ev;
	l->ev = NULL;
	return HANGDX_OK;
}

static int load_fp(struct hangdx_facts *f, const char *name, FILE *fp)
{
	struct floader l;
	char tag[HX_MAX_TAG + 16] = "";
	int err;

	memset(&l, 0, sizeof l);
	l.f = f;
	l.name = name;
	err = hangdx_evidence_new(f->ctx, &l.ev);
	if (!err) {
		l.ev->maxrec = f->ev->maxrec;
		err = hx_ev_load_fp(l.ev, name, fp, fact_line, &l);
	}
	if (err == HANGDX_OK || err == HANGDX_EPARSE) {
		int e2 = flush_rank(&l);
		if (e2)
			err = e2;
	}
	if ((!err || err == HANGDX_EPARSE) && !l.have_format) {
		hx_diag(f->ctx, HANGDX_ERROR, name, 0, 0,
			"not a facts file: no \"format\":\"%s\" line", FACTS_FORMAT);
		err = HANGDX_EUNSUPPORTED;
	}
	if (!err || err == HANGDX_EPARSE) {
		struct hangdx_evidence *sev = l.ev;    /* kept, or f's now */
		size_t had = f->ev->nfile;             /* no new file: the same
							  facts again, kept once */
		int e2 = choose_tag(&l, tag, sizeof tag);

		if (!e2)
			e2 = adopt(&l);
		if (!e2)
			e2 = put_pending(&l, sev);
		if (!e2)
			take_settings(f, l.cores, l.cut,
				      had && f->ev->nfile == had ? 0 : l.kept, name);
		if (e2)
			err = e2;
		snprintf(f->tag, sizeof f->tag, "%s", tag);
	}
	/* a line skipped was said (file:line): the rest of the facts stand */
	if (err == HANGDX_EPARSE)
		err = HANGDX_OK;
	hangdx_evidence_free(l.ev);
	hx_free(f->ctx, l.pend);
	hx_free(f->ctx, l.pfid);
	return err;
}

/* Facts files may be gzip-compressed (`gzip node.facts`): read through
 * zlib, which passes plain text through unchanged.  Only whole lines
 * come out: a stream cut short (a copy missing its end) is read up to
 * its last complete line, and the cut said. */
#define GZ_CHUNK 65536
#define GZ_PENDING_MAX ((size_t)2 << 20)       /* past MAX_LINE: skipped */

struct gzin {
	gzFile gz;
	char *buf;
	size_t n, cap;          /* bytes read, not yet given out */
	bool eof, cut;
	uint64_t given;
};

static size_t last_nl(const struct gzin *g)
{
	size_t i;

	for (i = g->n; i > 0; i--)
		if (g->buf[i - 1] == '\n')
			return i;
	return 0;
}

static ssize_t gz_read(void *cookie, char *out, size_t want)
{
	struct gzin *g = cookie;
	size_t ok;

	for (;;) {
		ok = g->eof ? g->n : last_nl(g);
		if (!ok && g->n >= GZ_PENDING_MAX)
			ok = g->n;
		if (ok || g->eof || g->cut)
			break;
		if (g->cap - g->n < GZ_CHUNK) {
			char *p = realloc(g->buf, g->cap + GZ_CHUNK);

			if (!p)
				return -1;
			g->buf = p;
			g->cap += GZ_CHUNK;
		}
		{
			int r = gzread(g->gz, g->buf + g->n, GZ_CHUNK);
			int e = Z_OK;

			if (r < 0 || (r == 0 && (gzerror(g->gz, &e), e != Z_OK)))
				g->cut = true;
			else if (r == 0)
				g->eof = true;
			else
				g->n += (size_t)r;
		}
	}
	if (g->cut && !ok)
		return 0;               /* the partial line at the cut: dropped */
	if (ok > want)
		ok = want;
	memcpy(out, g->buf, ok);
	memmove(g->buf, g->buf + ok, g->n - ok);
	g->n -= ok;
	g->given += ok;
	return (ssize_t)ok;
}

static int gz_close(void *cookie)
{
	struct gzin *g = cookie;
	int r = gzclose(g->gz) == Z_OK ? 0 : -1;

	free(g->buf);
	free(g);
	return r;
}

int hangdx_facts_load(struct hangdx_facts *f, const char *path)
{
	cookie_io_functions_t io = { gz_read, NULL, NULL, gz_close };
	struct gzin *g;
	struct stat st;
	FILE *fp;
	int fd, err;

	if (!f || !path)
		return HANGDX_EINVAL;
	fd = strcmp(path, "-") == 0 ? dup(0)
	     : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		hx_diag(f->ctx, HANGDX_ERROR, path, 0, 0, "cannot open: %s",
			strerror(errno));
		return HANGDX_EIO;
	}
	if (strcmp(path, "-") != 0 &&
	    (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		hx_diag(f->ctx, HANGDX_ERROR, path, 0, 0, "not a regular file");
		close(fd);
		return HANGDX_EIO;
	}
	g = calloc(1, sizeof *g);
	if (g)
		g->gz = gzdopen(fd, "rb");
	if (!g || !g->gz) {
		free(g);
		close(fd);
		return HANGDX_ENOMEM;
	}
	fp = fopencookie(g, "r", io);
	if (!fp) {
		gz_close(g);
		return HANGDX_ENOMEM;
	}
	err = load_fp(f, path, fp);
	if (g->cut)
		hx_diag(f->ctx, HANGDX_WARNING, path, 0, 0,
			"the compressed stream is cut short: read up to its last "
			"whole line (%llu bytes); the facts after the cut are "
			"missing", (unsigned long long)g->given);
	fclose(fp);
	return err;
}

int hangdx_facts_probe(const char *path)
{
	static const char magic[] = "{\"format\":\"hangdx-facts-";
	char buf[sizeof magic];
	struct stat st;
	gzFile gz;
	int n;

	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	gz = gzopen(path, "rb");
	if (!gz)
		return 0;
	n = gzread(gz, buf, (unsigned)sizeof magic - 1);
	gzclose(gz);
	return n == (int)sizeof magic - 1 &&
	       memcmp(buf, magic, sizeof magic - 1) == 0;
}

int hangdx_facts_load_fp(struct hangdx_facts *f, const char *name, FILE *fp)
{
	if (!f || !name || !fp)
		return HANGDX_EINVAL;
	return load_fp(f, name, fp);
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
