/*
 * facts.c - first step of the analysis: walk the evidence once, in file
 * and line order, and gather per rank what matters for a verdict: its
 * configuration (env echo, communicators), its first HCCL wait failure
 * and the peer it waited on (mapped from the communicator's rank to the
 * global one), lost peers, link errors, AICPU timeouts, STUCK reports, and
 * its clock offset estimated from the communicator-creation barrier;
 * and the job-wide signals (hx_signals_collect): the first record of each
 * class of outcome, console text included.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analyze.h"
#include "../core/thresholds.h"

#define MAX_RANKS (1u << 20)

const struct hx_field *hx_df(const struct hangdx_diagnosis *d, uint32_t rec,
			     int key)
{
	return hx_rec_field(d->ev, &d->ev->recs[rec], key);
}

int64_t hx_dnum(const struct hangdx_diagnosis *d, uint32_t rec, int key,
		int64_t dflt)
{
	const struct hx_field *f = hx_df(d, rec, key);

	return f ? f->num : dflt;
}

const char *hx_dstr(const struct hangdx_diagnosis *d, uint32_t rec, int key)
{
	const struct hx_field *f = hx_df(d, rec, key);

	return f ? hx_ev_str(d->ev, f->str) : NULL;
}

bool hx_remote_local(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *raw = hx_dstr(d, rec, HX_F_REMOTE_RANK);

	return raw && (!strcmp(raw, "local") || !strcmp(raw, "4294967295"));
}

static bool eq(const char *s, const char *lit);
static bool timed(const struct hangdx_diagnosis *d, uint32_t rec);

static int32_t attrib_rank(const struct hangdx_diagnosis *d, uint32_t rec)
{
	struct hx_attr a;

	hx_attrib_rec(d->at, &d->ev->recs[rec], &a);
	return a.rank >= 0 && a.rank < (int64_t)MAX_RANKS ? (int32_t)a.rank : -1;
}

int32_t hx_drank(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return d->rank_of ? d->rank_of[rec] : attrib_rank(d, rec);
}

void hx_dcite(const struct hangdx_diagnosis *d, uint32_t rec,
	      const char **path, uint64_t *line)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	const struct hx_field *f = r->vpath != r->file
		? hx_rec_field(d->ev, r, HX_F_VLINE) : NULL;

	*path = hx_ev_str(d->ev, f ? r->vpath : r->file);
	*line = f ? (uint64_t)f->num : r->line;
}

void hx_dwhere(const struct hangdx_diagnosis *d, uint32_t rec, char *buf,
	       size_t n)
{
	const char *path;
	uint64_t line;

	if (rec == HX_NOREC) {
		snprintf(buf, n, "-");
		return;
	}
	hx_dcite(d, rec, &path, &line);
	snprintf(buf, n, "%s:%llu", path, (unsigned long long)line);
}

/* Where a pseudo rank's evidence comes from: "process P on NODE",
 * "process P" or "file F". */
void hx_rank_where(const struct hangdx_diagnosis *d, int64_t r, char *buf,
		   size_t n)
{
	const struct hx_rankinfo *ri = r >= 0 && (uint64_t)r < d->nranks && d->ranks
				       ? &d->ranks[r] : NULL;
	const char *w = ri ? ri->pseudo_where : NULL, *base;

	base = w ? strrchr(w, '/') : NULL;
	base = base && base[1] ? base + 1 : w;
	if (ri && ri->pseudo_pid >= 0 && base && *base)
		snprintf(buf, n, _("process %lld on %s"), (long long)ri->pseudo_pid,
			 base);
	else if (ri && ri->pseudo_pid >= 0)
		snprintf(buf, n, _("process %lld"), (long long)ri->pseudo_pid);
	else
		snprintf(buf, n, _("file %s"), w ? w : "?");
}

/* "rank 3", or for a rank the logs do not give, "rank ? (process P on
 * NODE)" or "rank ? (file F)": never a number that is no rank. */
void hx_rank_label(const struct hangdx_diagnosis *d, int64_t r, char *buf,
		   size_t n)
{
	char where[128];

	if (r < 0) {            /* no line names it */
		snprintf(buf, n, "%s", _("the rank that logged it"));
		return;
	}
	if ((uint64_t)r >= d->nranks || !d->ranks || !d->ranks[r].pseudo) {
		snprintf(buf, n, _("rank %lld"), (long long)r);
		return;
	}
	hx_rank_where(d, r, where, sizeof where);
	snprintf(buf, n, _("rank ? (%s)"), where);
}

/* "127.10.0.1/2" -> 2 */
static int64_t ip_id_rank(const char *s)
{
	const char *slash = s ? strrchr(s, '/') : NULL;
	char *end;
	long v;

	if (!slash)
		return -1;
	v = strtol(slash + 1, &end, 10);
	return end != slash + 1 && v >= 0 ? v : -1;
}

/* ---- communicator membership: (group, comm rank) -> global rank ---- */

struct member {
	uint32_t group;     /* interned */
	int64_t crank;
	int32_t rank;
};

struct xmember {                /* the exit of a communicator's creation */
	const char *group;
	int32_t rank;
	int64_t ts;
};

struct kstat {                  /* one resident kernel's status lines */
	int32_t rank;
	int64_t head, since, last;
	uint32_t rec;
	int64_t left;                   /* tail - head: SQEs of its op not done,
					   -1 when the line gives no tail */
	uint64_t group;                 /* hash of its group, 0 none */
	uint32_t gid;                   /* its group under its creation's name
					   (hx_attrib_canon), HX_NOSTR none */
};

struct facts {
	struct hangdx_diagnosis *d;
	struct kstat *ks;
	size_t nks, capks;
	struct hx_map kmap;         /* (rank, kernel stream) -> ks index */
	struct member *m;
	size_t nm, capm;
	struct xmember *x;          /* communicator creation exits */
	size_t nx, capx;
	struct hx_map seen;         /* (group, rank) already a member */
	struct hx_map memb;         /* (group, comm rank) -> global rank */
	struct hx_map tags;         /* tag string -> group string, or -1 */
	uint32_t *groups;           /* distinct groups */
	size_t ngroups, capgroups;
	struct hx_map gsize;        /* group -> the most members its
				       creation lines say it has */
	struct gstate *gs;          /* looping groups of each rank */
	size_t ngs, capgs;
	struct hx_map gsin;         /* (group, rank) -> index in gs */
	int64_t *newest;            /* each rank's newest line (stalls) */
	int err;
};

static uint64_t gkey(uint32_t group, int64_t x)
{
	return hx_map_key(((uint64_t)group << 32) ^ (uint64_t)(uint32_t)x);
}

/* The exit line of a communicator's creation: every member leaves its
 * barrier at about the same moment, whenever it entered. */
static void add_exit(struct facts *f, uint32_t rec, int32_t rank)
{
	const struct hx_field *g = hx_df(f->d, rec, HX_F_GROUP);
	const char *what = hx_dstr(f->d, rec, HX_F_WHAT);
	int64_t ts = f->d->ev->recs[rec].ts;
	void *v = f->x;

	if (!g || !what || strcmp(what, "init_ok") != 0 || !timed(f->d, rec) ||
	    f->err)
		return;
	f->err = hx_vec_reserve(f->d->ctx, &v, &f->capx, f->nx + 1,
				sizeof *f->x, MAX_RANKS * 16u);
	if (f->err)
		return;
	f->x = v;
	f->x[f->nx++] = (struct xmember){
		hx_ev_str(f->d->ev, hx_attrib_canon(f->d->at, g->str)), rank, ts };
}

/* A member of a communicator, counted once a rank under whatever name
 * its lines give it (hx_attrib_canon). */
static void add_member(struct facts *f, uint32_t rec, int32_t rank)
{
	const struct hx_field *gf = hx_df(f->d, rec, HX_F_GROUP);
	int64_t cr = hx_dnum(f->d, rec, HX_F_LOCAL_RANK, -1), size;
	struct hx_map_slot *sl;
	void *v = f->m;
	uint32_t g;

	if (!gf || cr < 0 || f->err)
		return;
	g = hx_attrib_canon(f->d->at, gf->str);
	sl = hx_map_slot(f->d->ctx, &f->seen, gkey(g, rank), &f->err);
	if (!sl || sl->val >= 0)
		return;
	sl->val = 1;
	f->err = hx_vec_reserve(f->d->ctx, &v, &f->capm, f->nm + 1,
				sizeof *f->m, MAX_RANKS * 16u);
	if (f->err)
		return;
	f->m = v;
	f->m[f->nm++] = (struct member){ g, cr, rank };
	f->d->ranks[rank].ncomm++;
	size = hx_dnum(f->d, rec, HX_F_RANK_SIZE, -1);
	sl = size > 0 && size <= MAX_RANKS ?
	     hx_map_slot(f->d->ctx, &f->gsize, hx_map_key(g), &f->err) : NULL;
	if (sl && sl->val < size)
		sl->val = (int32_t)size;
	sl = hx_map_slot(f->d->ctx, &f->memb, gkey(g, cr), &f->err);
	if (sl && sl->val < 0)
		sl->val = rank;
	if (hx_map_find(&f->memb, hx_map_key(g)) < 0 && !f->err) {
		v = f->groups;
		f->err = hx_vec_reserve(f->d->ctx, &v, &f->capgroups,
					f->ngroups + 1, sizeof *f->groups, 1u << 20);
		if (!f->err) {
			f->groups = v;
			f->groups[f->ngroups++] = g;
			sl = hx_map_slot(f->d->ctx, &f->memb, hx_map_key(g), &f->err);
			if (sl)
				sl->val = 1;
		}
	}
}

/* The group a record belongs to (under its creation's name): its group
 * field, or the longest group identifier its tag contains
 * ("AllReduce_<identifier>...": "group_name_1" is in "..._group_name_12"),
 * cached per tag. */
static int64_t record_group(struct facts *f, uint32_t rec)
{
	const struct hx_field *g = hx_df(f->d, rec, HX_F_GROUP);
	const struct hx_field *t = hx_df(f->d, rec, HX_F_TAG);
	const char *tag;
	struct hx_map_slot *sl;
	size_t i, best = 0;

	if (g)
		return hx_attrib_canon(f->d->at, g->str);
	if (!t)
		return -1;
	sl = hx_map_slot(f->d->ctx, &f->tags, hx_map_key(t->str) ^ 2, &f->err);
	if (!sl)
		return -1;
	if (sl->val != -1)
		return sl->val;
	sl->val = -2;
	tag = hx_ev_str(f->d->ev, t->str);
	for (i = 0; tag && i < f->ngroups; i++) {
		const char *gs = hx_ev_str(f->d->ev, f->groups[i]);
		size_t len = gs ? strlen(gs) : 0;

		if (len > best && strstr(tag, gs)) {
			sl->val = (int32_t)f->groups[i];
			best = len;
		}
	}
	return sl->val;
}

/* The global rank of comm rank crank in the group a record names: through
 * the members seen, else as attribution maps it (itself in a world group;
 * unknown in a sub-group whose member's creation lines are missing).
 * strict: only through a group the logs name and describe (members or a
 * world group): a remote rank of a failure is a rank of its communicator,
 * never taken for a global rank on its own. */
static int64_t global_rank_of(struct facts *f, uint32_t rec, int64_t crank,
			      bool strict)
{
	int64_t g, v;
	int32_t r;

	if (crank < 0)
		return -1;
	g = record_group(f, rec);
	if (g < 0)
		return strict ? -1 : hx_attrib_global(f->d->at, HX_NOSTR, crank);
	r = hx_map_find(&f->memb, gkey((uint32_t)g, crank));
	if (r >= 0)
		return r;
	v = strict ? hx_attrib_global_known(f->d->at, (uint32_t)g, crank)
		   : hx_attrib_global(f->d->at, (uint32_t)g, crank);
	return v >= 0 ? v : -1;
}

static int64_t global_rank(struct facts *f, uint32_t rec, int64_t crank)
{
	return global_rank_of(f, rec, crank, false);
}

/* The name of the communicator a record belongs to, NULL unknown. */
static const char *record_group_name(struct facts *f, uint32_t rec)
{
	int64_t g = record_group(f, rec);

	if (g >= 0)
		return hx_ev_str(f->d->ev, (uint32_t)g);
	return hx_dstr(f->d, rec, HX_F_GROUP);
}

/* ---- per record ---- */

static struct hx_rankinfo *rinfo(struct hangdx_diagnosis *d, int32_t rank)
{
	return rank >= 0 && (uint32_t)rank < d->nranks ? &d->ranks[rank] : NULL;
}

static bool is_error(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_rec *r = &d->ev->recs[rec];

	if (r->kind == HX_K_TIMEOUT_TEXT || r->kind == HX_K_UNKNOWN_ERROR)
		return false;   /* the open world: its own state, never "first" */
	return r->level == HX_LV_ERROR || r->level == HX_LV_CRITICAL ||
	       r->kind == HX_K_EI0002 || r->kind == HX_K_ERR_CODE ||
	       r->kind == HX_K_CQE_ERROR || r->kind == HX_K_TSCH_TIMEOUT;
}

/* Host lines name the data type ("bfloat16"); the AICPU dump prints an
 * enum number whose mapping is not documented: only names compare. */
static bool dtype_name(const char *s)
{
	return s && *s && (*s < '0' || *s > '9');
}

static void on_wait_failure(struct facts *f, struct hx_rankinfo *ri,
			    uint32_t rec)
{
	struct hangdx_diagnosis *d = f->d;
	const struct hx_rec *r = &d->ev->recs[rec];
	int64_t peer, crank;

	if (r->kind == HX_K_AICPU_EXCEPTION) {
		const char *type = hx_dstr(d, rec, HX_F_TYPE);
		int64_t lts = ri->link_rec != HX_NOREC
			? d->ev->recs[ri->link_rec].ts : HX_NONE;
		if (!type || strcmp(type, "NOTIFY WAIT") != 0)
			return;
		/* a dump written for a DMA error lists the waits of the other
		 * streams too: those did not time out */
		if (lts != HX_NONE && r->ts != HX_NONE &&
		    (r->ts - lts < HX_WAIT_TIE_US && lts - r->ts < HX_WAIT_TIE_US)) {
			d->thr_hits |= HX_THR_WAIT_TIE;
			return;
		}
	}
	if (r->kind == HX_K_HCCL_TASK_FAIL && ri->link_rec != HX_NOREC &&
	    hx_rec_sdma_report(d, ri->link_rec, rec)) {
		d->thr_hits |= HX_THR_SDMA_REPORT;
		return;
	}
	crank = hx_dnum(d, rec, HX_F_REMOTE_RANK, -1);
	peer = global_rank_of(f, rec, crank, true);
	hx_rank_add_peer(d, ri, peer);
	if (ri->wait_rec != HX_NOREC) {
		int64_t prev = d->ev->recs[ri->wait_rec].ts;
		int64_t dt = r->ts == HX_NONE || prev == HX_NONE ? 0
			     : r->ts - prev;
		/* an earlier failure wins; at about the same time, the
		 * record that names the peer it waited for */
		bool better = dt < -HX_WAIT_TIE_US ||
			      (dt <= HX_WAIT_TIE_US && ri->wait_peer < 0 &&
			       (peer >= 0 || (ri->wait_crank < 0 && crank >= 0)));
		if (dt != 0 && dt >= -HX_WAIT_TIE_US && dt <= HX_WAIT_TIE_US &&
		    (dt < 0) != better)
			d->thr_hits |= HX_THR_WAIT_TIE;   /* the window decided */
		if (!better)
			return;
	}
	ri->wait_rec = rec;
	ri->wait_peer = peer;
	ri->wait_crank = peer < 0 ? crank : -1;
	ri->wait_group = peer < 0 && crank >= 0 ? record_group_name(f, rec) : NULL;
	ri->index = hx_dnum(d, rec, HX_F_INDEX, ri->index);
	ri->op = hx_dstr(d, rec, HX_F_OP) ? hx_dstr(d, rec, HX_F_OP) : ri->op;
	ri->group = hx_dstr(d, rec, HX_F_GROUP) ? hx_dstr(d, rec, HX_F_GROUP)
						 : ri->group;
	ri->count = hx_dnum(d, rec, HX_F_COUNT, ri->count);
	if (dtype_name(hx_dstr(d, rec, HX_F_DATA_TYPE)))
		ri->dtype = hx_dstr(d, rec, HX_F_DATA_TYPE);
	ri->stream = hx_dnum(d, rec, HX_F_STREAM, ri->stream);
	ri->task = hx_dnum(d, rec, HX_F_TASK, ri->task);
}

/* The opData line may come in another record of the same block: keep
 * index, count and dtype from any failure record of the rank. */
static void on_task_fail_detail(struct hangdx_diagnosis *d,
				struct hx_rankinfo *ri, uint32_t rec)
{
	if (ri->index < 0)
		ri->index = hx_dnum(d, rec, HX_F_INDEX, -1);
	if (ri->count < 0)
		ri->count = hx_dnum(d, rec, HX_F_COUNT, -1);
	if (!ri->dtype && dtype_name(hx_dstr(d, rec, HX_F_DATA_TYPE)))
		ri->dtype = hx_dstr(d, rec, HX_F_DATA_TYPE);
	if (!ri->op)
		ri->op = hx_dstr(d, rec, HX_F_OP);
}

static void on_env(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
		   uint32_t rec)
{
	const char *name = hx_dstr(d, rec, HX_F_NAME);
	const char *val = hx_dstr(d, rec, HX_F_VALUE);

	if (!name || !val)
		return;
	if (strcmp(name, "HCCL_OP_RETRY_ENABLE") == 0)
		ri->retry_env = val;
	else if (strcmp(name, "HCCL_EXEC_TIMEOUT") == 0)
		ri->exec_timeout = strtoll(val, NULL, 10);
	else if (strcmp(name, "HCCL_OP_EXPANSION_MODE") == 0)
		ri->mode = val;
}

/* Heartbeat lines name "IP/ID".  In the forms that say "rank" the ID is
 * the rank; the 2024 "server:IP/ID" form prints IDs beyond the ranks of
 * the job, i.e. device ids.  An ID past the ranks the logs attribute is
 * mapped through the devices, or dropped when no rank has that device. */
static int32_t heartbeat_rank(const struct hangdx_diagnosis *d, int64_t id)
{
	uint32_t r;

	if (id < 0)
		return -1;
	if (d->real_ranks == 0 || id < (int64_t)d->real_ranks)
		return (int32_t)id;
	for (r = 0; r < d->real_ranks; r++)
		if (d->ranks[r].device == id)
			return (int32_t)r;
	return -1;
}

static void on_heartbeat(struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *status = hx_dstr(d, rec, HX_F_STATUS);
	const char *type = hx_dstr(d, rec, HX_F_TYPE);
	const char *who = hx_dstr(d, rec, HX_F_CRIMER);
	struct hx_rankinfo *ri;
	bool lost, stuck;

	if (!who)
		who = hx_dstr(d, rec, HX_F_LOCATION);
	lost = (status && strcmp(status, "LOST") == 0) ||
	       (type && strstr(type, "Lost"));
	stuck = (status && strcmp(status, "STUCK") == 0) ||
		(type && strstr(type, "Stuck"));
	ri = rinfo(d, heartbeat_rank(d, ip_id_rank(who)));
	if (!ri)
		return;
	/* the rank that reports a peer LOST or STUCK waits on it */
	if ((lost || stuck) && hx_drank(d, rec) != ri->rank)
		hx_rank_add_peer(d, rinfo(d, hx_drank(d, rec)), ri->rank);
	if (lost && !ri->lost) {
		ri->lost = true;
		ri->lost_rec = rec;
	}
	if (stuck && ri->stuck_rec == HX_NOREC)
		ri->stuck_rec = rec;
}

static void on_error_code(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
			  uint32_t rec)
{
	const char *code = hx_dstr(d, rec, HX_F_CODE);

	if (!code)
		return;
	if ((strcmp(code, "EI0012") == 0 || strcmp(code, "EI0013") == 0) &&
	    ri->link_rec == HX_NOREC)
		ri->link_rec = rec;
	if ((strcmp(code, "E30008") == 0 || strcmp(code, "507017") == 0) &&
	    ri->aicpu_timeout_rec == HX_NOREC)
		ri->aicpu_timeout_rec = rec;
}

/* A record whose time counts: not a cut line (timing.c). */
static bool timed(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return d->ev->recs[rec].ts != HX_NONE && !(d->untimed && d->untimed[rec]);
}

static void note_fail(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
		      uint32_t rec)
{
	int64_t ts = d->ev->recs[rec].ts;

	if (!timed(d, rec))
		return;
	if (ri->fail_rec == HX_NOREC || ts < d->ev->recs[ri->fail_rec].ts)
		ri->fail_rec = rec;
}

static void on_rt_task_fail(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
			    uint32_t rec)
{
	const char *desc = hx_dstr(d, rec, HX_F_ERR_DESC);

	/* "sq sw status error": a stream stopped after another error */
	if (desc && strstr(desc, "sq sw status"))
		return;
	if (desc && strstr(desc, "sdma error") && ri->link_rec == HX_NOREC)
		ri->link_rec = rec;
	if (ri->task_rec == HX_NOREC && eq(hx_dstr(d, rec, HX_F_WHAT), "task_exec") &&
	    hx_dnum(d, rec, HX_F_STREAM, -1) >= 0)
		ri->task_rec = rec;
	note_fail(d, ri, rec);
}

static void on_dma_dump(struct hangdx_diagnosis *d, struct hx_rankinfo *ri,
			uint32_t rec)
{
	const char *type = hx_dstr(d, rec, HX_F_TYPE);

	if (type && strcmp(type, "NOTIFY WAIT") != 0 && ri->dma_rec == HX_NOREC)
		ri->dma_rec = rec;
}

/* What a status line says of its kernel's op: the SQEs not yet done
 * (tail, read once before the wait, minus head) and its group. */
static void kernel_op(const struct hangdx_diagnosis *d, uint32_t rec, struct kstat *k)
{
	int64_t head = hx_dnum(d, rec, HX_F_HEAD, -1), tail = hx_dnum(d, rec, HX_F_TAIL, -1);
	const char *g = hx_dstr(d, rec, HX_F_GROUP);

	k->left = head >= 0 && tail >= head && tail - head < INT32_MAX ? tail - head : -1;
	k->group = g ? hx_hash(g, strlen(g)) | 1 : 0;
	k->gid = hx_df(d, rec, HX_F_GROUP) ? hx_attrib_canon(d->at, hx_df(d, rec, HX_F_GROUP)->str)
					   : HX_NOSTR;
}

/* Status lines of resident kernels ("Current state. sqid, head, tail"):
 * how long each main stream has not moved. */
static void on_kernel(struct facts *f, struct hx_rankinfo *ri, uint32_t rec)
{
	struct hangdx_diagnosis *d = f->d;
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	int64_t ts = d->ev->recs[rec].ts, head = hx_dnum(d, rec, HX_F_HEAD, -1);
	int64_t ks = hx_dnum(d, rec, HX_F_STREAM, -1), moved;
	struct hx_map_slot *sl;
	struct kstat *k;
	void *v;

	if (what && strcmp(what, "rtsq_full") == 0) {
		if (ri->sq_full_rec == HX_NOREC)
			ri->sq_full_rec = rec;
		note_fail(d, ri, rec);
		return;
	}
	if (!what || strcmp(what, "status") != 0) {
		/* a kernel taking a core is progress; one ending may be the
		 * error cascade */
		if (what && strcmp(what, "start") == 0 && ts != HX_NONE &&
		    ts > ri->last_progress_ts)
			ri->last_progress_ts = ts;
		return;
	}
	if (ks < 0 && hx_dnum(d, rec, HX_F_SQ, -1) >= 0)    /* keyed by M_c's sq */
		ks = (1ll << 32) | hx_dnum(d, rec, HX_F_SQ, -1);
	if (ks < 0 || ts == HX_NONE || f->err)
		return;
	sl = hx_map_slot(d->ctx, &f->kmap,
			 hx_map_key(((uint64_t)(uint32_t)ri->rank << 40) ^ (uint64_t)ks),
			 &f->err);
	if (!sl)
		return;
	if (sl->val < 0) {
		v = f->ks;
		f->err = hx_vec_reserve(d->ctx, &v, &f->capks, f->nks + 1,
					sizeof *f->ks, 1u << 24);
		if (f->err)
			return;
		f->ks = v;
		f->ks[f->nks] = (struct kstat){ ri->rank, head, ts, ts, rec, -1, 0, HX_NOSTR };
		sl->val = (int32_t)f->nks++;
	}
	k = &f->ks[sl->val];
	if (ts < k->last)
		return;         /* an older line of another file (run, debug log) */
	moved = hx_dnum(d, rec, HX_F_MOVED_WAIT, -1);
	if (moved >= 0) {       /* the head moved here; how long the runs
				   taken back stood at most */
		if (moved > ri->pool_moved_us)
			ri->pool_moved_us = moved;
		if (ts > ri->last_progress_ts)
			ri->last_progress_ts = ts;
	}
	kernel_op(d, rec, k);
	if (head != k->head) {
		if (k->last - k->since > ri->pool_moved_us)
			ri->pool_moved_us = k->last - k->since;
		k->head = head;
		k->since = ts;
		if (ts > ri->last_progress_ts)
			ri->last_progress_ts = ts;
	}
	k->last = ts;
	k->rec = rec;
}

/* A kernel still looping: a status line within HX_STATUS_LATE_US of
 * its rank's newest line, and no normal end of the rank after it. */
static bool looping(const struct facts *f, const struct kstat *k, const int64_t *newest)
{
	return newest[k->rank] - k->last <= HX_STATUS_LATE_US && !f->d->ranks[k->rank].ended;
}

static bool held(const struct facts *f, const struct kstat *k, const int64_t *newest)
{
	int64_t moved = f->d->ranks[k->rank].pool_moved_us * HX_POOL_MOVED_FACTOR;

	return k->last - k->since >= (moved > HX_POOL_HELD_US ? moved : HX_POOL_HELD_US) &&
	       looping(f, k, newest);
}

/* The most SQEs left of one op of each group among the held kernels: a
 * kernel with fewer left has started that collective where another rank
 * has not, and waits on that rank. */
static int most_left(struct facts *f, const int64_t *newest, struct hx_map *m)
{
	size_t i;
	int err = 0;

	for (i = 0; i < f->nks && !err; i++) {
		const struct kstat *k = &f->ks[i];
		struct hx_map_slot *sl;

		if (!held(f, k, newest) || !k->group || k->left < 0)
			continue;
		sl = hx_map_slot(f->d->ctx, m, hx_map_key(k->group), &err);
		if (sl && sl->val < (int32_t)k->left)
			sl->val = (int32_t)k->left;
	}
	return err;
}

/* Kernels that still loop (a status line within HX_STATUS_LATE_US of
 * their rank's newest) with their head unmoved over two lines: each holds
 * its AICPU core now.  A rank one of whose held kernels has started its
 * collective further than another rank's kernel of the same group waits
 * on a peer (pool_ahead). */
static void pool_held(struct facts *f, const int64_t *newest)
{
	struct hx_map most = { 0 };
	size_t i;

	f->err = most_left(f, newest, &most);
	for (i = 0; i < f->nks && !f->err; i++) {
		const struct kstat *k = &f->ks[i];
		struct hx_rankinfo *ri = &f->d->ranks[k->rank];
		int32_t top;

		if (!held(f, k, newest))
			continue;
		top = k->group && k->left >= 0 ? hx_map_find(&most, hx_map_key(k->group)) : -1;
		if (top >= 0 && k->left < top)
			ri->pool_ahead = true;
		if (!ri->pool_held || k->last - k->since < ri->pool_held_us) {
			ri->pool_held_us = k->last - k->since;
			ri->pool_rec = k->rec;
		}
		ri->pool_held++;
	}
	hx_map_free(f->d->ctx, &most);
}

/* One group a rank has a looping kernel in (held: its head unmoved over
 * two status lines): from the rank's own status lines, or from the groups
 * its node's facts name for it. */
struct gstate {
	uint32_t gid;
	int32_t rank;
	bool held;
	int64_t lmin, lmax;     /* SQEs left of its held kernels' ops, -1 */
};

static void widen(struct gstate *g, int64_t lmin, int64_t lmax)
{
	if (lmin >= 0 && (g->lmin < 0 || lmin < g->lmin))
		g->lmin = lmin;
	if (lmax > g->lmax)
		g->lmax = lmax;
}

static int add_gstate(struct facts *f, uint32_t gid, int32_t rank, bool held,
		      int64_t lmin, int64_t lmax)
{
	struct hx_map_slot *sl;
	void *v = f->gs;
	int err = HANGDX_OK;

	sl = hx_map_slot(f->d->ctx, &f->gsin, gkey(gid, rank), &err);
	if (!sl)
		return err;
	if (sl->val >= 0) {
		f->gs[sl->val].held |= held;
		if (held)
			widen(&f->gs[sl->val], lmin, lmax);
		return HANGDX_OK;
	}
	err = hx_vec_reserve(f->d->ctx, &v, &f->capgs, f->ngs + 1, sizeof *f->gs,
			     MAX_RANKS * 16u);
	if (err)
		return err;
	f->gs = v;
	sl->val = (int32_t)f->ngs;
	f->gs[f->ngs++] = (struct gstate){ gid, rank, held, held ? lmin : -1,
					   held ? lmax : -1 };
	return HANGDX_OK;
}

/* A group by its name, under its creation's name (hx_attrib_canon); -1
 * when no line here names it. */
static int32_t group_named(const struct facts *f, const char *s, size_t n)
{
	long id = hx_intern_find(&f->d->ev->strs, s, n);

	return id < 0 ? -1 : (int32_t)hx_attrib_canon(f->d->at, (uint32_t)id);
}

/* The groups a rank's facts name (struct hx_pgroup); false when one is
 * not a group of the members here (its node's own judgement then
 * stands). */
static bool rf_groups(struct facts *f, int32_t rank, const char *list)
{
	struct hx_pgroup pg;
	bool all = true;

	while (!f->err && hx_pgroup_next(&list, &pg)) {
		int32_t g = pg.len ? group_named(f, pg.name, pg.len) : -1;

		if (g >= 0)
			f->err = add_gstate(f, (uint32_t)g, rank, pg.held, pg.lmin,
					    pg.lmax);
		else
			all = false;
	}
	return all;
}

/* The facts standing in for rank r (its node judged its pool). */
static const struct hx_rankfact *bound(const struct facts *f, uint32_t r)
{
	return f->d->rf ? f->d->rf[r] : NULL;
}

/* Every rank's looping groups: a rank read here from its status lines;
 * a rank in facts from the groups they name, or not at all (its node's
 * pool_peer stands: facts of an older hangdx, or groups not known here). */
static void group_states(struct facts *f, bool *own)
{
	const struct hangdx_diagnosis *d = f->d;
	size_t i;
	uint32_t r;

	for (i = 0; i < f->nks && !f->err; i++) {
		const struct kstat *k = &f->ks[i];

		if (k->gid != HX_NOSTR && !bound(f, (uint32_t)k->rank) &&
		    looping(f, k, f->newest))
			f->err = add_gstate(f, k->gid, k->rank, held(f, k, f->newest),
					    k->left, k->left);
	}
	for (r = 0; r < d->nranks && !f->err; r++) {
		const struct hx_rankfact *rf = bound(f, r);

		own[r] = !rf;
		if (rf && rf->pool_groups != HX_NOSTR)
			own[r] = rf_groups(f, (int32_t)r, hx_ev_str(
				hx_facts_evidence(d->facts_src), rf->pool_groups));
	}
}

/* Members with logs of each group (map: group -> count). */
static void members_with_logs(struct facts *f, struct hx_map *cnt)
{
	size_t i;

	for (i = 0; i < f->nm && !f->err; i++) {
		const struct hx_rankinfo *mi = &f->d->ranks[f->m[i].rank];
		struct hx_map_slot *sl;

		if (mi->last_ts == HX_NONE || mi->last_ts == 0)
			continue;
		sl = hx_map_slot(f->d->ctx, cnt, hx_map_key(f->m[i].group), &f->err);
		if (sl)
			sl->val = sl->val < 0 ? 1 : sl->val + 1;
	}
}

/* Groups of held kernels with a member that has logs, no kernel looping
 * in the group and the fewest held cores of such members (map: group ->
 * rank), or, when fewer of its members have logs than its creation says
 * it has, HX_PEER_ABSENT: each held rank of such a group waits on that
 * member while its pool is not full, or on one whose logs are not here
 * (try_pool_held decides, knowing each pool's size). */
static void open_groups(struct facts *f, struct hx_map *open)
{
	const struct hangdx_diagnosis *d = f->d;
	struct hx_map cnt = { 0 };
	struct hx_map_slot *sl;
	size_t i;

	for (i = 0; i < f->ngs && !f->err; i++)
		if (f->gs[i].held) {
			sl = hx_map_slot(d->ctx, open, hx_map_key(f->gs[i].gid), &f->err);
			if (sl && sl->val == -1)
				sl->val = -2;       /* held there, no open member yet */
		}
	for (i = 0; i < f->nm && !f->err; i++) {
		const struct member *m = &f->m[i];
		const struct hx_rankinfo *mi = &d->ranks[m->rank];
		int32_t cur = (int32_t)hx_map_find(open, hx_map_key(m->group));

		if (cur == -1 || hx_map_find(&f->gsin, gkey(m->group, m->rank)) >= 0 ||
		    mi->last_ts == HX_NONE || mi->last_ts == 0)
			continue;
		if (cur < 0 || mi->pool_held < d->ranks[cur].pool_held) {
			sl = hx_map_slot(d->ctx, open, hx_map_key(m->group), &f->err);
			if (sl)
				sl->val = m->rank;
		}
	}
	members_with_logs(f, &cnt);
	for (i = 0; i < f->ngroups && !f->err; i++) {
		uint32_t g = f->groups[i];
		int32_t size = (int32_t)hx_map_find(&f->gsize, hx_map_key(g));
		int32_t have = (int32_t)hx_map_find(&cnt, hx_map_key(g));

		sl = NULL;
		if (hx_map_find(open, hx_map_key(g)) == -2 && size > 0 && have < size)
			sl = hx_map_slot(d->ctx, open, hx_map_key(g), &f->err);
		if (sl)
			sl->val = HX_PEER_ABSENT;
	}
	hx_map_free(d->ctx, &cnt);
}

/* Each rank's looping groups as its facts say them ("h:G\tl:G"), at
 * most HX_MAX_POOL_GROUPS (past it none: its node's pool_peer stands). */
static void pool_groups_text(struct facts *f, const bool *own)
{
	struct hangdx_diagnosis *d = f->d;
	size_t *len = hx_calloc(d->ctx, d->nranks + 1, sizeof *len);
	uint32_t *cnt = hx_calloc(d->ctx, d->nranks + 1, sizeof *cnt);
	char **text = hx_calloc(d->ctx, d->nranks + 1, sizeof *text);
	size_t i;
	uint32_t r;

	if (!len || !cnt || !text) {
		f->err = HANGDX_ENOMEM;
		goto out_free;
	}
	for (i = 0; i < f->ngs; i++)
		if (own[f->gs[i].rank]) {
			len[f->gs[i].rank] += 48 + strlen(hx_ev_str(d->ev, f->gs[i].gid));
			cnt[f->gs[i].rank]++;
		}
	for (r = 0; r < d->nranks && !f->err; r++) {
		const struct hx_rankfact *rf = bound(f, r);

		if (!own[r] && rf && rf->pool_groups != HX_NOSTR)
			d->ranks[r].pool_groups = hx_arena_strdup(&d->arena,
				hx_ev_str(hx_facts_evidence(d->facts_src), rf->pool_groups));
		else if (own[r] && cnt[r] && cnt[r] <= HX_MAX_POOL_GROUPS) {
			text[r] = hx_arena_alloc(&d->arena, len[r] + 1);
			d->ranks[r].pool_groups = text[r];
			f->err = text[r] ? f->err : HANGDX_ENOMEM;
		}
		len[r] = 0;
	}
	for (i = 0; i < f->ngs && !f->err; i++) {
		const struct gstate *g = &f->gs[i];
		const char *name = hx_ev_str(d->ev, g->gid);
		struct hx_pgroup pg = { g->held, g->lmin, g->lmax, name, strlen(name) };
		char *o = text[g->rank] ? text[g->rank] + len[g->rank] : NULL;

		if (!o)
			continue;
		hx_pgroup_put(&o, &pg, len[g->rank] == 0);
		len[g->rank] = (size_t)(o - text[g->rank]);
	}
out_free:
	hx_free(d->ctx, len);
	hx_free(d->ctx, cnt);
	hx_free(d->ctx, text);
}

/* A held kernel that has started its collective further than another
 * rank's of the same group (fewer SQEs left) waits on that rank
 * (pool_ahead), over every rank's groups: the other may be on another
 * node. */
static void ahead_over_nodes(struct facts *f)
{
	struct hx_map most = { 0 };
	size_t i;

	for (i = 0; i < f->ngs && !f->err; i++) {
		const struct gstate *g = &f->gs[i];
		struct hx_map_slot *sl;

		if (!g->held || g->lmax < 0)
			continue;
		sl = hx_map_slot(f->d->ctx, &most, hx_map_key(g->gid), &f->err);
		if (sl && sl->val < (int32_t)(g->lmax > INT32_MAX ? INT32_MAX : g->lmax))
			sl->val = (int32_t)(g->lmax > INT32_MAX ? INT32_MAX : g->lmax);
	}
	for (i = 0; i < f->ngs && !f->err; i++) {
		const struct gstate *g = &f->gs[i];

		if (g->held && g->lmin >= 0 &&
		    g->lmin < hx_map_find(&most, hx_map_key(g->gid)))
			f->d->ranks[g->rank].pool_ahead = true;
	}
	hx_map_free(f->d->ctx, &most);
}

/* A held rank's peer that can still come (pool_peer), over every rank's
 * groups once the facts of other nodes are bound: a member on another
 * node is seen only here. */
static void pool_peers(struct facts *f)
{
	struct hangdx_diagnosis *d = f->d;
	struct hx_map open = { 0 };
	bool *own = hx_calloc(d->ctx, d->nranks + 1, sizeof *own);
	size_t i;

	if (!own) {
		f->err = HANGDX_ENOMEM;
		return;
	}
	group_states(f, own);
	if (!f->err)
		ahead_over_nodes(f);
	if (!f->err)
		open_groups(f, &open);
	for (i = 0; i < d->nranks && !f->err; i++)
		if (own[i] && bound(f, (uint32_t)i))
			d->ranks[i].pool_peer = -1;     /* judged again, over all nodes */
	for (i = 0; i < f->ngs && !f->err; i++) {
		const struct gstate *g = &f->gs[i];
		struct hx_rankinfo *ri = &d->ranks[g->rank];
		int32_t m;

		if (!g->held || !own[g->rank])
			continue;
		m = (int32_t)hx_map_find(&open, hx_map_key(g->gid));
		if (m == HX_PEER_ABSENT && ri->pool_peer == -1)
			ri->pool_peer = HX_PEER_ABSENT;
		else if (m >= 0 && m != g->rank && (ri->pool_peer < 0 ||
			 d->ranks[m].pool_held < d->ranks[ri->pool_peer].pool_held))
			ri->pool_peer = m;
	}
	pool_groups_text(f, own);
	hx_map_free(d->ctx, &open);
	hx_free(d->ctx, own);
}

static void stalls(struct facts *f)
{
	int64_t *newest = hx_calloc(f->d->ctx, f->d->nranks + 1, sizeof *newest);
	size_t i;

	if (!newest) {
		f->err = HANGDX_ENOMEM;
		return;
	}
	for (i = 0; i < f->nks; i++) {
		int64_t t = f->d->ranks[f->ks[i].rank].last_ts;

		if (f->ks[i].last > newest[f->ks[i].rank])
			newest[f->ks[i].rank] = f->ks[i].last;
		if (t != HX_NONE && t > newest[f->ks[i].rank])
			newest[f->ks[i].rank] = t;
	}
	f->newest = newest;     /* pool_peers reads it, after the facts bind */
	pool_held(f, newest);
	for (i = 0; i < f->nks; i++) {
		const struct kstat *k = &f->ks[i];
		struct hx_rankinfo *ri = &f->d->ranks[k->rank];
		int64_t us = k->last - k->since;

		if (ri->ended)
			continue;       /* its op ran after all: the logs end normally */
		if (us < HX_STALL_MIN_US) {
			if (us > f->d->stall_under_us)
				f->d->stall_under_us = us;
			continue;
		}
		ri->stalled++;
		if (us > ri->stall_us) {
			ri->stall_us = us;
			ri->stall_rec = k->rec;
		}
	}
}

static void on_record(struct facts *f, uint32_t rec)
{
	struct hangdx_diagnosis *d = f->d;
	const struct hx_rec *r = &d->ev->recs[rec];
	struct hx_rankinfo *ri = rinfo(d, hx_drank(d, rec));

	if (r->kind == HX_K_HEARTBEAT || r->kind == HX_K_CLUSTER_EXCEPTION)
		on_heartbeat(d, rec);
	if (r->ts != HX_NONE && r->ts > d->newest_ts)
		d->newest_ts = r->ts;
	if (!ri)
		return;
	ri->seen = true;
	switch (r->kind) {
	case HX_K_AICPU_KERNEL:         /* the host's launch line is no device log */
		if (!hx_dstr(d, rec, HX_F_WHAT) ||
		    strcmp(hx_dstr(d, rec, HX_F_WHAT), "launch") != 0)
			ri->device_seen = true;
		break;
	case HX_K_AICPU_EXCEPTION: case HX_K_AICPU_TRAIL: case HX_K_AICPU_SQCQ:
	case HX_K_TSCH_TIMEOUT: case HX_K_TSCH_STREAM: case HX_K_TSCH_SQE:
		ri->device_seen = true;
		break;
	default:
		break;
	}
	if (r->ts != HX_NONE && r->ts > d->last_ts)
		d->last_ts = r->ts;
	if (ri->device < 0 || !ri->node) {
		struct hx_attr a;
		hx_attrib_rec(d->at, r, &a);
		if (ri->device < 0)
			ri->device = a.device;
		if (!ri->node)
			ri->node = a.node;
	}
	if (r->ts != HX_NONE && r->ts > ri->last_ts)
		ri->last_ts = r->ts;
	if (is_error(d, rec) && timed(d, rec) &&
	    (ri->first_err_rec == HX_NOREC ||
	     r->ts < d->ev->recs[ri->first_err_rec].ts))
		ri->first_err_rec = rec;
	switch (r->kind) {
	case HX_K_COMM_INIT:
		add_member(f, rec, ri->rank);
		add_exit(f, rec, ri->rank);
		if (!ri->server)
			ri->server = hx_dstr(d, rec, HX_F_SERVER);
		if (!ri->device_ip)
			ri->device_ip = hx_dstr(d, rec, HX_F_DEVICE_IP);
		if (ri->phy_device < 0)
			ri->phy_device = hx_dnum(d, rec, HX_F_PHY_DEVICE, -1);
		break;
	case HX_K_ENV:
		on_env(d, ri, rec);
		break;
	case HX_K_AICPU_EXCEPTION:
		on_wait_failure(f, ri, rec);
		on_task_fail_detail(d, ri, rec);
		on_dma_dump(d, ri, rec);
		break;
	case HX_K_AICPU_SQCQ:
		/* an SDMA task that ran into an exception on this device */
		if (hx_dnum(d, rec, HX_F_SQE_TYPE, -1) == 11 && ri->link_rec == HX_NOREC)
			ri->link_rec = rec;
		note_fail(d, ri, rec);
		break;
	case HX_K_RT_TASK_FAIL:
		on_rt_task_fail(d, ri, rec);
		break;
	case HX_K_TSCH_TIMEOUT:
		note_fail(d, ri, rec);
		break;
	case HX_K_HCCL_TASK_FAIL:
	case HX_K_EI0002:
	case HX_K_RT_TIMEOUT:
		if (r->kind != HX_K_RT_TIMEOUT)
			on_wait_failure(f, ri, rec);
		on_task_fail_detail(d, ri, rec);
		/* these name the task that failed; the AICPU dump lists every
		 * stream of the op */
		note_fail(d, ri, rec);
		break;
	case HX_K_LINK_ERROR:
		/* a checklist or a list of connected ranks names no failure */
		if (eq(hx_dstr(d, rec, HX_F_WHAT), "connect_reasons") ||
		    eq(hx_dstr(d, rec, HX_F_WHAT), "connected_ranks"))
			break;
		ri->link_setup = true;
		/* fall through */
	case HX_K_CQE_ERROR:
		if (ri->link_rec == HX_NOREC)
			ri->link_rec = rec;
		note_fail(d, ri, rec);
		break;
	case HX_K_AICPU_OP_TIMEOUT:
		if (ri->aicpu_timeout_rec == HX_NOREC)
			ri->aicpu_timeout_rec = rec;
		note_fail(d, ri, rec);
		break;
	case HX_K_ERR_CODE:
		on_error_code(d, ri, rec);
		break;
	case HX_K_OP_RETRY:
		ri->retry_rec = rec;
		break;
	case HX_K_AICPU_KERNEL:
		on_kernel(f, ri, rec);
		break;
	case HX_K_NORMAL_END:
		ri->ended = true;
		break;
	case HX_K_FRAMEWORK_ERROR:
		/* torch elastic's "Root Cause (first observed failure)": the
		 * launcher's time of the worker's failure */
		if (eq(hx_dstr(d, rec, HX_F_WHAT), "elastic_root"))
			note_fail(d, ri, rec);
		break;
	case HX_K_TIMEOUT_TEXT: case HX_K_UNKNOWN_ERROR: case HX_K_CODED:
		if (ri->open_rec == HX_NOREC &&
		    hx_dnum(d, rec, HX_F_REPEATS, 0) <= 0)
			ri->open_rec = rec;
		/* a code the table knows, in whatever envelope it came */
		on_error_code(d, ri, rec);
		break;
	default:
		break;
	}
}

/* ---- link set-up failures: which peer could not be reached ---- */

/* "1.1.1.1%enp189s0f0" and "1.1.1.1" name the same server. */
static bool same_host(const char *server, const char *ip, size_t iplen)
{
	return server && strncmp(server, ip, iplen) == 0 &&
	       (server[iplen] == '\0' || server[iplen] == '%');
}

static int64_t rank_by_ip(const struct hangdx_diagnosis *d, const char *ip)
{
	const char *slash = strchr(ip, '/');
	size_t n = slash ? (size_t)(slash - ip) : strlen(ip);
	int64_t dev = slash ? strtoll(slash + 1, NULL, 10) : -1;
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (slash && same_host(ri->server, ip, n) && ri->device == dev)
			return r;
		if (!slash && ri->device_ip && strcmp(ri->device_ip, ip) == 0)
			return r;
	}
	return -2;
}

static int64_t rank_by_phy(const struct hangdx_diagnosis *d,
			   const struct hx_rankinfo *me, int64_t phy)
{
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		if (ri != me && ri->node && me->node && strcmp(ri->node, me->node) == 0 &&
		    (ri->phy_device == phy || (ri->phy_device < 0 && ri->device == phy)))
			return r;
	}
	return -2;
}

/* The peer a link set-up failure names.  An address with a device, or a
 * physical device id on the same node, identifies it (and wins); a bare
 * comm rank is weaker; an address no rank owns leaves it unknown. */
static void setup_peer(struct facts *f, uint32_t rec)
{
	struct hangdx_diagnosis *d = f->d;
	struct hx_rankinfo *ri = rinfo(d, hx_drank(d, rec));
	const char *ip;
	int64_t peer = -1, rr, phy;
	int strength = 0;

	if (!ri || d->ev->recs[rec].kind != HX_K_LINK_ERROR)
		return;
	ip = hx_dstr(d, rec, HX_F_REMOTE_IP);
	phy = hx_dnum(d, rec, HX_F_REMOTE_DEVICE, -1);
	rr = hx_dnum(d, rec, HX_F_REMOTE_RANK, -1);
	if (ip && *ip) {
		peer = rank_by_ip(d, ip);
		strength = peer >= 0 ? 3 : 1;
	} else if (phy >= 0) {
		peer = rank_by_phy(d, ri, phy);
		strength = peer >= 0 ? 3 : 1;
	} else if (rr >= 0) {
		peer = global_rank(f, rec, rr);
		strength = 2;
	}
	if (peer == ri->rank || strength == 0)
		return;
	if (strength == 3 ? ri->setup_strength < 3 : ri->setup_strength == 0) {
		ri->setup_peer = peer;
		ri->setup_strength = strength;
	}
}

/* ---- clock skew from the communicator-creation barrier ---- */

/*
 * Members leave a communicator's creation barrier together, however late
 * each entered it (a rank that starts 5 s late enters 5 s late and is not
 * skewed): the exit lines ("HcclCommInitRootInfo success") are compared,
 * never the entry lines.  Each rank's offset is measured against a
 * reference rank (the one in the most groups, the lowest on a tie): its
 * exit minus the reference's, in every group both are in, counted when
 * every such group agrees within the floor.  All are then moved to the
 * median rank's clock (of an even count, the reference's when it is one
 * of the middle two, else the lower), so that most ranks keep their
 * times: with two servers 0.3 s apart, the second one's ranks are moved
 * back, which a median of each group's exits (half on each clock) could
 * not tell.  Exits of one barrier on one clock still differ (by up to
 * 140 ms in samples/10), hence a floor: the spread measured between
 * members of one server, HX_SKEW_MIN_US when not measured.  The ranks of
 * one server then share one offset.  Groups are taken in the order of
 * their names, so the answer does not depend on the order the files were
 * read in.
 */

static int exit_cmp(const void *a, const void *b)
{
	const struct xmember *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static int ts_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

struct offset {
	int32_t rank;
	int64_t us;
};

static int offset_cmp(const void *a, const void *b)
{
	const struct offset *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->us > y->us) - (x->us < y->us);
}

/* The reference: the rank in the most groups, the lowest on a tie. */
static int32_t reference_rank(const struct hangdx_diagnosis *d,
			      const struct xmember *m, size_t n, uint32_t *cnt)
{
	size_t i;
	int32_t ref = -1;

	for (i = 0; i < n; i++)
		if ((uint32_t)m[i].rank < d->nranks)
			cnt[m[i].rank]++;
	for (i = 0; i < d->nranks; i++)
		if (cnt[i] && (ref < 0 || cnt[i] > cnt[ref]))
			ref = (int32_t)i;
	return ref;
}

/* Each group's exits m[0..n) (one per rank, by group): every member's
 * exit minus the reference's, in the groups the reference is in. */
static size_t differences(const struct xmember *m, size_t n, int32_t ref,
			  struct offset *o)
{
	size_t i, j, k, no = 0;

	for (i = 0; i < n; i = j) {
		int64_t at = HX_NONE;

		for (j = i; j < n && strcmp(m[j].group, m[i].group) == 0; j++)
			if (m[j].rank == ref)
				at = m[j].ts;
		for (k = i; at != HX_NONE && k < j; k++)
			if (m[k].rank != ref)
				o[no++] = (struct offset){ m[k].rank, m[k].ts - at };
	}
	return no;
}

/* A rank's offset from the median's clock: applied past the floor, else
 * noise (left, and said). */
static void set_offset(struct hangdx_diagnosis *d, int32_t rank, int64_t mid)
{
	struct hx_rankinfo *ri = &d->ranks[rank];
	bool noise = mid <= d->skew_floor_us && mid >= -d->skew_floor_us;

	ri->skew_known = true;
	ri->skew_us = noise ? 0 : mid;
	ri->skew_left_us = mid - ri->skew_us;
	if (noise && mid != 0)
		d->thr_hits |= HX_THR_SKEW_MIN;
}

/* Per rank: the offset every group agrees on (within the floor), then
 * all moved to the median rank's clock (of an even count, the reference
 * when it is one of the middle two, else the lower); offsets under the
 * floor are noise. */
static void agreed_offsets(struct hangdx_diagnosis *d, int32_t ref,
			   struct offset *o, size_t n, int64_t *v)
{
	size_t i = 0, j, nv = 1;
	int64_t base;

	qsort(o, n, sizeof *o, offset_cmp);
	v[0] = 0;                       /* the reference's own */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && o[j].rank == o[i].rank; j++)
			;
		/* sorted by offset: the extremes decide */
		o[i].us = o[j - 1].us - o[i].us <= HX_SKEW_MIN_US
			? o[i + (j - i - 1) / 2].us : INT64_MIN;
		if (o[i].us != INT64_MIN)
			v[nv++] = o[i].us;
	}
	qsort(v, nv, sizeof *v, ts_cmp);
	base = v[(nv - 1) / 2];
	if (nv % 2 == 0 && (v[nv / 2 - 1] == 0 || v[nv / 2] == 0))
		base = 0;
	if (base >= -d->skew_floor_us && base <= d->skew_floor_us)
		base = 0;               /* the reference is the median's clock */
	set_offset(d, ref, -base);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && o[j].rank == o[i].rank; j++)
			;
		if (o[i].us != INT64_MIN)
			set_offset(d, o[i].rank, o[i].us - base);
	}
}

/* The one clock a rank's lines are stamped by: the server its creation
 * names, else its node (a directory may hold one rank of a server);
 * NULL unknown. */
const char *hx_rank_clock(const struct hangdx_diagnosis *d, int32_t rank)
{
	const struct hx_rankinfo *ri = &d->ranks[rank];

	return ri->server ? ri->server : ri->node;
}

/* A time on one clock: a rank's offset (known: measured) or an exit. */
struct clockoff {
	const char *clock;
	bool known;
	int64_t us;
	int32_t rank;
};

static int clockoff_cmp(const void *a, const void *b)
{
	const struct clockoff *x = a, *y = b;
	int c = strcmp(x->clock, y->clock);

	if (c)
		return c;
	if (x->known != y->known)
		return x->known ? -1 : 1;
	return (x->us > y->us) - (x->us < y->us);
}

/* Ranks of one clock share one offset: the median of their measured ones
 * (of an even count, the lower middle), so that their failures keep the
 * order their one clock gave them; a rank of that clock whose offset was
 * not measured gets it too.  A rank measured further than the floor from
 * it keeps its own (a server of virtual machines, each with its clock).
 * co has room for every rank (its contents are scratch). */
static void one_offset_per_clock(struct hangdx_diagnosis *d,
				 struct clockoff *co)
{
	size_t nc = 0, k, l, nk, i;
	int64_t mid;
	uint32_t r;

	for (r = 0; r < d->nranks; r++) {
		const struct hx_rankinfo *ri = &d->ranks[r];
		const char *clock = hx_rank_clock(d, (int32_t)r);

		if (clock)
			co[nc++] = (struct clockoff){ clock, ri->skew_known,
				ri->skew_us + ri->skew_left_us, (int32_t)r };
	}
	qsort(co, nc, sizeof *co, clockoff_cmp);
	for (k = 0; k < nc; k = l) {
		for (l = k, nk = 0; l < nc && strcmp(co[l].clock, co[k].clock) == 0; l++)
			nk += co[l].known;
		if (!nk)
			continue;
		mid = co[k + (nk - 1) / 2].us;
		for (i = k; i < l; i++) {
			if (co[i].known && (co[i].us - mid > d->skew_floor_us ||
					    mid - co[i].us > d->skew_floor_us))
				continue;
			set_offset(d, co[i].rank, mid);
		}
	}
}

/* The median of ce[k..l) (one clock's exits in one group, sorted). */
static int64_t clock_median(const struct clockoff *ce, size_t k, size_t l)
{
	return ce[k + (l - k - 1) / 2].us;
}

/* One group's exits by clock (m[i..j)), sorted into ce; its count. */
static size_t group_clocks(const struct hangdx_diagnosis *d,
			   const struct xmember *m, size_t i, size_t j,
			   struct clockoff *ce)
{
	size_t nc = 0;

	for (; i < j; i++)
		if ((uint32_t)m[i].rank < d->nranks && hx_rank_clock(d, m[i].rank))
			ce[nc++] = (struct clockoff){ hx_rank_clock(d, m[i].rank),
				true, m[i].ts, m[i].rank };
	qsort(ce, nc, sizeof *ce, clockoff_cmp);
	return nc;
}

/* Each other clock's median exit minus the reference clock's, in every
 * group that has both, into od (clock, difference). */
static size_t clock_differences(const struct hangdx_diagnosis *d,
				const struct xmember *m, size_t n,
				const char *rclock, struct clockoff *ce,
				struct clockoff *od)
{
	size_t i, j, k, l, nc, no = 0;

	for (i = 0; i < n; i = j) {
		int64_t at = HX_NONE;

		for (j = i; j < n && strcmp(m[j].group, m[i].group) == 0; j++)
			;
		nc = group_clocks(d, m, i, j, ce);
		for (k = 0; k < nc; k = l) {
			for (l = k; l < nc && strcmp(ce[l].clock, ce[k].clock) == 0; l++)
				;
			if (strcmp(ce[k].clock, rclock) == 0)
				at = clock_median(ce, k, l);
		}
		for (k = 0; at != HX_NONE && k < nc; k = l) {
			for (l = k; l < nc && strcmp(ce[l].clock, ce[k].clock) == 0; l++)
				;
			if (strcmp(ce[k].clock, rclock) != 0)
				od[no++] = (struct clockoff){ ce[k].clock, true,
					clock_median(ce, k, l) - at, ce[k].rank };
		}
	}
	return no;
}

/* The ranks rc[0..n) of one clock get mid, if they all share one offset
 * now and mid moves it by no more than the floor. */
static void clock_offset(struct hangdx_diagnosis *d, const struct clockoff *rc,
			 size_t n, int64_t mid)
{
	const struct hx_rankinfo *r0 = &d->ranks[rc[0].rank];
	int64_t now = r0->skew_us + r0->skew_left_us;
	size_t i;

	for (i = 1; i < n; i++)
		if (d->ranks[rc[i].rank].skew_us + d->ranks[rc[i].rank].skew_left_us != now)
			return;         /* a rank with a clock of its own */
	if (mid - now > d->skew_floor_us || now - mid > d->skew_floor_us)
		return;
	for (i = 0; i < n; i++)
		set_offset(d, rc[i].rank, mid);
}

/* The ranks with a clock, sorted by it, into rc; their count. */
static size_t ranks_by_clock(const struct hangdx_diagnosis *d,
			     struct clockoff *rc)
{
	size_t n = 0;
	uint32_t r;

	for (r = 0; r < d->nranks; r++)
		if (hx_rank_clock(d, (int32_t)r))
			rc[n++] = (struct clockoff){ hx_rank_clock(d, (int32_t)r),
						     true, 0, (int32_t)r };
	qsort(rc, n, sizeof *rc, clockoff_cmp);
	return n;
}

/*
 * A clock's offset from the reference rank's clock, measured between the
 * two clocks' median exits of each group they share (the median over the
 * groups): one rank's late exit from a barrier moves neither median, where
 * the offsets one_offset_per_clock took, each rank's against the reference
 * rank's own exit, all carry that rank's lateness.  Applied to a clock
 * whose ranks share one offset, when it moves that offset by less than the
 * floor.  ce has room for n.
 */
static void refine_clocks(struct hangdx_diagnosis *d, const struct xmember *m,
			  size_t n, int32_t ref, struct clockoff *ce)
{
	const char *rclock = hx_rank_clock(d, ref);
	const struct hx_rankinfo *rr = &d->ranks[ref];
	struct clockoff *od = NULL, *rc = NULL;
	size_t no, nr, i, j, p = 0, q;

	if (!rclock || !(od = hx_dcalloc(d, n + 1, sizeof *od)) ||
	    !(rc = hx_dcalloc(d, d->nranks + 1, sizeof *rc)))
		goto out_free;
	no = clock_differences(d, m, n, rclock, ce, od);
	qsort(od, no, sizeof *od, clockoff_cmp);
	nr = ranks_by_clock(d, rc);
	for (i = 0; i < no; i = j) {
		for (j = i; j < no && strcmp(od[j].clock, od[i].clock) == 0; j++)
			;
		while (p < nr && strcmp(rc[p].clock, od[i].clock) < 0)
			p++;
		for (q = p; q < nr && strcmp(rc[q].clock, od[i].clock) == 0; q++)
			;
		if (q > p)
			clock_offset(d, rc + p, q - p, rr->skew_us + rr->skew_left_us +
				     od[i + (j - i - 1) / 2].us);
		p = q;
	}
out_free:
	hx_free(d->ctx, od);
	hx_free(d->ctx, rc);
}

/* How far the exits of one creation spread on one clock (members of a
 * group on one node or server): what aligning clocks by those exits can
 * order; -1 when no group has two members on one clock.  m[0..n) is by
 * group then rank; ce has room for n (its contents are scratch). */
static int64_t exit_spread(const struct hangdx_diagnosis *d,
			   const struct xmember *m, size_t n,
			   struct clockoff *ce)
{
	size_t i, j, k, l, nc;
	int64_t spread = -1;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && strcmp(m[j].group, m[i].group) == 0; j++)
			;
		nc = group_clocks(d, m, i, j, ce);
		for (k = 0; k < nc; k = l) {
			for (l = k; l < nc && strcmp(ce[l].clock, ce[k].clock) == 0; l++)
				;
			if (l - k > 1 && ce[l - 1].us - ce[k].us > spread)
				spread = ce[l - 1].us - ce[k].us;
		}
	}
	return spread;
}

static void estimate_skew(struct facts *f)
{
	struct hangdx_diagnosis *d = f->d;
	struct xmember *m = f->x;
	struct offset *o = hx_dcalloc(d, f->nx + 1, sizeof *o);
	int64_t *v = hx_dcalloc(d, f->nx + 2, sizeof *v);
	uint32_t *cnt = hx_dcalloc(d, d->nranks + 1, sizeof *cnt);
	struct clockoff *co = hx_dcalloc(d, (f->nx > d->nranks ? f->nx
					     : d->nranks) + 1, sizeof *co);
	size_t i, n = 0, no;
	int32_t ref;

	d->clock_spread_us = -1;
	if (!o || !v || !cnt || !co)
		goto out_free;
	if (f->nx)
		qsort(m, f->nx, sizeof *m, exit_cmp);
	for (i = 0; i < f->nx; i++)     /* the first exit of a rank in a group */
		if (!n || strcmp(m[n - 1].group, m[i].group) != 0 ||
		    m[n - 1].rank != m[i].rank)
			m[n++] = m[i];
	ref = reference_rank(d, m, n, cnt);
	no = ref >= 0 ? differences(m, n, ref, o) : 0;
	d->clocks_unaligned = no == 0;
	if (no) {
		d->clock_spread_us = exit_spread(d, m, n, co);
		d->skew_floor_us = d->clock_spread_us < 0 ? HX_SKEW_MIN_US
			: d->clock_spread_us < HX_TIE_US ? HX_TIE_US
			: d->clock_spread_us < HX_SKEW_MIN_US ? d->clock_spread_us
			: HX_SKEW_MIN_US;
		agreed_offsets(d, ref, o, no, v);
		one_offset_per_clock(d, co);
		refine_clocks(d, m, n, ref, co);
	}
out_free:
	hx_free(d->ctx, o);
	hx_free(d->ctx, v);
	hx_free(d->ctx, cnt);
	hx_free(d->ctx, co);
	for (i = 0; i < d->nranks; i++) {
		struct hx_rankinfo *ri = &d->ranks[i];
		if (ri->fail_rec != HX_NOREC)
			ri->first_err_ts = d->ev->recs[ri->fail_rec].ts -
					   ri->skew_us;
	}
}

/* The global rank an IP/ID heartbeat field names, for sizing. */
static int64_t named_rank(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int k = d->ev->recs[rec].kind;
	int64_t a = -1, b = -1;

	if (k == HX_K_HEARTBEAT || k == HX_K_CLUSTER_EXCEPTION) {
		a = ip_id_rank(hx_dstr(d, rec, HX_F_CRIMER));
		b = ip_id_rank(hx_dstr(d, rec, HX_F_LOCATION));
	}
	return a > b ? a : b;
}

static bool failure_like(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int k = d->ev->recs[rec].kind;

	/* a normal end too: a console that ran to its end is a process */
	return is_error(d, rec) || k == HX_K_TSCH_STREAM || k == HX_K_TSCH_SQE ||
	       k == HX_K_AICPU_EXCEPTION || k == HX_K_NORMAL_END;
}

/*
 * Processes and files, for the records attribution leaves without a rank.
 * A process is (node, pid): containers give every node the same pids, so
 * a pid alone would hand one node's process another node's rank.  A
 * record with no process (TSCH(-1,null) in a file not named after one)
 * stands for its file alone.
 */
struct srcs {
	struct hx_intern keys;      /* "P<pid>|<node>" or "F<file>" */
	uint32_t *of;               /* per record: its key, or UINT32_MAX */
	int32_t *rank;              /* per key: -1 none, -2 several, or rank */
	int64_t *pid;               /* per key: pid, -1 a file */
	const char **where;         /* per key: node (or NULL), or file */
	int32_t *pseudo;            /* per key: pseudo rank index, or -1 */
	uint32_t *first;            /* per key: the record that gave it its rank */
	size_t cap_rank, cap_pid, cap_where, cap_pseudo, cap_first;
};

static int src_grow(struct hangdx_diagnosis *d, struct srcs *s, size_t n)
{
	void *v;
	int err;

	v = s->rank;
	err = hx_vec_reserve(d->ctx, &v, &s->cap_rank, n, sizeof *s->rank, MAX_RANKS * 16u);
	s->rank = v;
	v = s->pid;
	if (!err)
		err = hx_vec_reserve(d->ctx, &v, &s->cap_pid, n, sizeof *s->pid, MAX_RANKS * 16u);
	s->pid = v;
	v = s->where;
	if (!err)
		err = hx_vec_reserve(d->ctx, &v, &s->cap_where, n, sizeof *s->where, MAX_RANKS * 16u);
	s->where = v;
	v = s->pseudo;
	if (!err)
		err = hx_vec_reserve(d->ctx, &v, &s->cap_pseudo, n, sizeof *s->pseudo, MAX_RANKS * 16u);
	s->pseudo = v;
	v = s->first;
	if (!err)
		err = hx_vec_reserve(d->ctx, &v, &s->cap_first, n, sizeof *s->first, MAX_RANKS * 16u);
	s->first = v;
	return err;
}

/* The key of a record's process (or file); UINT32_MAX on error. */
static uint32_t src_key(struct hangdx_diagnosis *d, struct srcs *s,
			uint32_t rec, const struct hx_attr *a, int *err)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	const char *file = hx_ev_str(d->ev, r->vpath);
	char key[4200];
	size_t old = s->keys.n;
	long k;
	int n;

	if (a->pid >= 0)
		n = snprintf(key, sizeof key, "P%lld|%s", (long long)a->pid,
			     a->node ? a->node : "");
	else
		n = snprintf(key, sizeof key, "F%s", file ? file : "");
	k = hx_intern_add(&s->keys, key, n < 0 ? 0 : (size_t)n >= sizeof key
						  ? sizeof key - 1 : (size_t)n,
			  err);
	if (k < 0)
		return UINT32_MAX;
	if (s->keys.n > old) {
		*err = src_grow(d, s, s->keys.n);
		if (*err)
			return UINT32_MAX;
		s->rank[k] = -1;
		s->pid[k] = a->pid;
		s->where[k] = a->pid >= 0 ? a->node : file;
		s->pseudo[k] = -1;
		s->first[k] = HX_NOREC;
	}
	return (uint32_t)k;
}

static void srcs_free(struct hangdx_diagnosis *d, struct srcs *s)
{
	hx_intern_free(&s->keys);
	hx_free(d->ctx, s->of);
	hx_free(d->ctx, s->rank);
	hx_free(d->ctx, s->pid);
	hx_free(d->ctx, s->where);
	hx_free(d->ctx, s->pseudo);
	hx_free(d->ctx, s->first);
}

/* Attribution per record; a record left without a rank (or ambiguous)
 * takes the rank of the other records of its process when they agree. */
static int src_ranks(struct hangdx_diagnosis *d, struct srcs *s)
{
	size_t i;
	int err = HANGDX_OK;

	uint32_t last_k = UINT32_MAX, last_vpath = 0;
	int64_t last_pid = -1;

	for (i = 0; i < d->norder && !err; i++) {
		uint32_t rec = d->order[i], k;
		struct hx_attr a;
		int32_t r;

		hx_attrib_rec(d->at, &d->ev->recs[rec], &a);
		r = a.rank >= 0 && a.rank < (int64_t)MAX_RANKS ? (int32_t)a.rank : -1;
		d->rank_of[rec] = r;
		/* records come file by file: the key of the last one, mostly */
		if (last_k == UINT32_MAX || d->ev->recs[rec].vpath != last_vpath ||
		    a.pid != last_pid)
			last_k = src_key(d, s, rec, &a, &err);
		last_vpath = d->ev->recs[rec].vpath;
		last_pid = a.pid;
		k = s->of[rec] = last_k;
		if (k == UINT32_MAX || r < 0 || s->pid[k] < 0)
			continue;
		if (s->rank[k] == -1) {
			s->rank[k] = r;
			s->first[k] = rec;
		} else if (s->rank[k] != r)
			s->rank[k] = -2;    /* the process serves several ranks */
	}
	for (i = 0; i < d->norder && !err; i++) {
		uint32_t rec = d->order[i], k = s->of[rec];

		if (d->rank_of[rec] < 0 && k != UINT32_MAX && s->rank[k] >= 0) {
			d->rank_of[rec] = s->rank[k];
			d->pinned[s->first[k]] = 1;
		}
	}
	return err;
}

/* Each process or file with failures but no rank becomes a rank of its
 * own ("rank ?"), numbered after the real ones, in the order of the
 * evidence; never merged across nodes or files. */
static int pseudo_ranks(struct hangdx_diagnosis *d, struct srcs *s)
{
	uint32_t base = d->pseudo_base, n = 0, k;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		k = s->of[rec];
		if (d->rank_of[rec] >= 0 || k == UINT32_MAX ||
		    s->pseudo[k] >= 0 || !failure_like(d, rec))
			continue;
		s->pseudo[k] = (int32_t)n++;
	}
	d->npseudo = n;
	d->nranks = base + n;
	d->pseudo_pids = hx_calloc(d->ctx, n + 1, sizeof *d->pseudo_pids);
	d->pseudo_where = hx_calloc(d->ctx, n + 1, sizeof *d->pseudo_where);
	if (!d->pseudo_pids || !d->pseudo_where)
		return HANGDX_ENOMEM;
	for (k = 0; k < s->keys.n; k++) {
		if (s->pseudo[k] < 0)
			continue;
		d->pseudo_pids[s->pseudo[k]] = s->pid[k];
		d->pseudo_where[s->pseudo[k]] = s->where[k];
	}
	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		k = s->of[rec];
		if (d->rank_of[rec] < 0 && k != UINT32_MAX && s->pseudo[k] >= 0)
			d->rank_of[rec] = (int32_t)(base + (uint32_t)s->pseudo[k]);
	}
	return HANGDX_OK;
}

/* Ranks from attribution and from heartbeat lines; then the pseudo ranks
 * (a single plog pasted from a ticket). */
static int assign_ranks(struct hangdx_diagnosis *d)
{
	struct srcs s;
	int64_t max = -1, max_named = -1;
	size_t i;
	int err;

	memset(&s, 0, sizeof s);
	d->rank_of = hx_calloc(d->ctx, d->ev->nrec + 1, sizeof *d->rank_of);
	if (!d->pinned)         /* timing.c gives it, with its own pins */
		d->pinned = hx_calloc(d->ctx, d->ev->nrec + 1, sizeof *d->pinned);
	s.of = hx_calloc(d->ctx, d->ev->nrec + 1, sizeof *s.of);
	if (!d->rank_of || !d->pinned || !s.of) {
		hx_free(d->ctx, s.of);
		return HANGDX_ENOMEM;
	}
	hx_intern_init(&s.keys, d->ctx, MAX_RANKS * 16u);
	err = src_ranks(d, &s);
	for (i = 0; i < d->norder && !err; i++) {
		uint32_t rec = d->order[i];
		int64_t nr = named_rank(d, rec);

		if (d->rank_of[rec] > max)
			max = d->rank_of[rec];
		if (nr > max_named && nr < (int64_t)MAX_RANKS)
			max_named = nr;
	}
	/* heartbeat IDs size the job only when nothing else does */
	if (max < 0)
		max = max_named;
	/* a world communicator of n ranks: ranks without logs are ranks too */
	if (max >= 0 && hx_attrib_job_size(d->at) - 1 > max &&
	    hx_attrib_job_size(d->at) <= (int64_t)MAX_RANKS)
		max = hx_attrib_job_size(d->at) - 1;
	d->real_ranks = (uint32_t)(max + 1);
	d->pseudo_base = d->real_ranks;
	d->nranks = d->real_ranks;
	if (!err)
		err = pseudo_ranks(d, &s);
	srcs_free(d, &s);
	return err;
}

/* The member maps sized once for every communicator-creation record (at
 * 100,000 ranks, 1.4 M of them: a chain of doublings was 8% of a
 * diagnosis from facts). */
static int reserve_members(struct facts *f)
{
	const struct hangdx_evidence *ev = f->d->ev;
	size_t i, n = 0;
	int err;

	for (i = 0; i < ev->nrec; i++)
		n += ev->recs[i].kind == HX_K_COMM_INIT;
	err = hx_map_reserve(f->d->ctx, &f->seen, n);
	return err ? err : hx_map_reserve(f->d->ctx, &f->memb, n + 64);
}

int hx_facts_collect(struct hangdx_diagnosis *d)
{
	struct facts f;
	uint32_t r;
	size_t i;

	int err = assign_ranks(d);

	if (!err)
		err = hx_rf_bind(d);
	if (err)
		return err;
	d->ranks = hx_calloc(d->ctx, d->nranks + 1, sizeof *d->ranks);
	if (!d->ranks)
		return HANGDX_ENOMEM;
	d->last_ts = d->newest_ts = HX_NONE;
	for (r = 0; r < d->nranks; r++) {
		struct hx_rankinfo *ri = &d->ranks[r];
		ri->rank = (int32_t)r;
		ri->device = ri->pid = -1;
		ri->lost_rec = ri->first_err_rec = ri->wait_rec = HX_NOREC;
		ri->fail_rec = ri->dma_rec = ri->task_rec = HX_NOREC;
		ri->link_rec = ri->aicpu_timeout_rec = ri->sq_full_rec = HX_NOREC;
		ri->stuck_rec = ri->retry_rec = HX_NOREC;
		ri->first_err_ts = ri->last_ts = HX_NONE;
		ri->wait_peer = ri->wait_crank = ri->index = ri->count = -1;
		ri->link_peer = ri->stream = ri->task = ri->exec_timeout = -1;
		ri->setup_peer = ri->phy_device = ri->pool_peer = -1;
		ri->stall_rec = ri->open_rec = HX_NOREC;
		ri->last_progress_ts = HX_NONE;
		ri->pseudo = r >= d->pseudo_base;
		ri->pseudo_pid = ri->pseudo ? d->pseudo_pids[r - d->pseudo_base]
					    : -1;
		ri->pseudo_where = ri->pseudo ? d->pseudo_where[r - d->pseudo_base]
					      : NULL;
	}
	memset(&f, 0, sizeof f);
	f.d = d;
	f.err = reserve_members(&f);
	for (i = 0; i < d->norder && !f.err; i++)
		on_record(&f, d->order[i]);
	if (!f.err) {
		/* the wait failures again, now that every membership is known */
		for (r = 0; r < d->nranks; r++) {
			d->ranks[r].wait_rec = HX_NOREC;
			d->ranks[r].npeers = 0;
		}
		for (i = 0; i < d->norder; i++) {
			uint32_t rec = d->order[i];
			int k = d->ev->recs[rec].kind;
			struct hx_rankinfo *ri = rinfo(d, hx_drank(d, rec));
			if (ri && (k == HX_K_HCCL_TASK_FAIL || k == HX_K_EI0002 ||
				   k == HX_K_AICPU_EXCEPTION))
				on_wait_failure(&f, ri, rec);
			else if (k == HX_K_HEARTBEAT || k == HX_K_CLUSTER_EXCEPTION)
				on_heartbeat(d, rec);   /* its peers again */
		}
		estimate_skew(&f);
		stalls(&f);
		hx_rf_after_collect(d);
		if (!f.err)
			pool_peers(&f);
		for (i = 0; i < d->norder; i++)
			setup_peer(&f, d->order[i]);
	}
	hx_free(d->ctx, f.m);
	hx_free(d->ctx, f.x);
	hx_free(d->ctx, f.ks);
	hx_map_free(d->ctx, &f.kmap);
	hx_free(d->ctx, f.groups);
	hx_free(d->ctx, f.gs);
	hx_free(d->ctx, f.newest);
	hx_map_free(d->ctx, &f.gsize);
	hx_map_free(d->ctx, &f.gsin);
	hx_map_free(d->ctx, &f.seen);
	hx_map_free(d->ctx, &f.memb);
	hx_map_free(d->ctx, &f.tags);
	return f.err;
}

/* ---- signals of the whole job: console text and failures ---- */

static bool has(const char *s, const char *lit)
{
	return s && strstr(s, lit) != NULL;
}

static bool eq(const char *s, const char *lit)
{
	return s && strcmp(s, lit) == 0;
}

/* The numeric error code a record carries ("507011", "107020"), if any. */
const char *hx_rec_code(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *c = hx_dstr(d, rec, HX_F_RET_CODE);

	if (c && c[0] >= '0' && c[0] <= '9')
		return c;
	c = hx_dstr(d, rec, HX_F_CODE);
	return c && c[0] >= '0' && c[0] <= '9' ? c : NULL;
}

static bool digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

/* A framework's line that an HCCL call returned a code (torch_npu's
 * "HCCL function error: CALL, error code is N"). */
bool hx_rec_hccl_api(const struct hangdx_diagnosis *d, uint32_t rec)
{
	return d->ev->recs[rec].kind == HX_K_FRAMEWORK_ERROR &&
	       eq(hx_dstr(d, rec, HX_F_WHAT), "hccl_api");
}

bool hx_rec_hccl_init(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *op = hx_dstr(d, rec, HX_F_OP);

	return hx_rec_hccl_api(d, rec) && op &&
	       (strncasecmp(op, "hcclCommInit", 12) == 0 ||
		strcasecmp(op, "HcclGetRootInfo") == 0);
}

/* The row of a class other than unknown that the text of an error code
 * no table knows names ("EC0010: Failed to import Python module
 * [ModuleNotFoundError: ...]"): the code's own words say what failed. */
static const struct hx_vocab *text_row(const char *text)
{
	return text ? hx_vocab_line_row(text, strlen(text), HX_VM_ANY, NULL) : NULL;
}

const struct hx_vocab *hx_rec_row(const struct hangdx_diagnosis *d,
				  uint32_t rec)
{
	const char *c = hx_rec_code(d, rec);
	const struct hx_vocab *row;
	size_t n = c ? strlen(c) : 0;
	const char *w = hx_dstr(d, rec, HX_F_WHAT);

	/* the code an AICPU kernel ended on (vocab/aicpu.tsv) */
	if (n && (eq(w, "aicpu_error") || eq(w, "aicpu_timeout")))
		return hx_vocab_code(HX_VF_AICPU, c, n);

	/* the driver's small code: the record names its row ("drvErr=87") */
	if (n && n <= 3 && digits(c, n) &&
	    (row = hx_vocab_code(HX_VF_DRV, c, n)) != NULL &&
	    eq(hx_dstr(d, rec, HX_F_NAME), row->name))
		return row;
	/* an HCCL line's small code is an HcclResult ("ret[7]") */
	if (n && n <= 4 && digits(c, n) &&
	    (d->ev->recs[rec].kind == HX_K_LINK_ERROR ||
	     d->ev->recs[rec].kind == HX_K_CODED ||
	     d->ev->recs[rec].kind == HX_K_TIMEOUT_TEXT ||
	     d->ev->recs[rec].kind == HX_K_HCCL_TASK_FAIL ||
	     d->ev->recs[rec].kind == HX_K_COMM_INIT || hx_rec_hccl_api(d, rec)))
		return hx_vocab_code(HX_VF_HCCL, c, n);
	row = hx_vocab_key(c);

	if (row)
		return row;
	c = hx_dstr(d, rec, HX_F_CODE);
	n = c ? strlen(c) : 0;
	if (n && n <= 4 && digits(c, n))
		return d->ev->recs[rec].kind == HX_K_CODED ||
		       d->ev->recs[rec].kind == HX_K_TIMEOUT_TEXT
			? hx_vocab_code(HX_VF_HCCL, c, n) : NULL;
	row = hx_vocab_key(c);
	/* an error code no table has or an inner error (EZ9999 "... the
	 * HcclAllocComResourceByTiling function of the hccl module. ret = 4"),
	 * the framework's watchdog that names the code it ended on: the row
	 * their own text names */
	if ((!row || row->cls == HX_VC_UNKNOWN) &&
	    (d->ev->recs[rec].kind == HX_K_ERR_CODE ||
	     (d->ev->recs[rec].kind == HX_K_FRAMEWORK_ERROR &&
	      eq(hx_dstr(d, rec, HX_F_WHAT), "hccl_watchdog")))) {
		const struct hx_vocab *t = text_row(hx_dstr(d, rec, HX_F_TEXT));

		return t || d->ev->recs[rec].kind != HX_K_ERR_CODE ? t : row;
	}
	return row;
}

static void first(uint32_t *slot, uint32_t rec)
{
	if (*slot == HX_NOREC)
		*slot = rec;
}

static bool timeout_code(const char *c)
{
	return eq(c, "107020") || eq(c, "507046") || eq(c, "507048") ||
	       eq(c, "507017");
}

static bool not_hang_code(const char *c)
{
	/* 207001 memory allocation, 5611xx aclnn call failures */
	return eq(c, "207001") || (c && strncmp(c, "5611", 4) == 0);
}

static bool fault_code(const char *c)
{
	return eq(c, "507010") || eq(c, "507013") || eq(c, "507049");
}

/* A code the families left undecided, by the class of its table row. */
static bool set_up_timeout(const struct hx_vocab *row)
{
	size_t n = strlen(row->name);

	if (strstr(row->key, "retry"))
		return false;   /* "... has timed out, will retry" */
	return (n > 8 && strcmp(row->name + n - 8, "_timeout") == 0) ||
	       strstr(row->key, "timed out") || strstr(row->key, "Timed out");
}

uint32_t hx_rec_task_near(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	uint32_t best = HX_NOREC;
	uint64_t bd = UINT64_MAX;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t o = d->order[i];
		const struct hx_rec *q = &d->ev->recs[o];
		uint64_t dist = q->line > r->line ? q->line - r->line : r->line - q->line;

		if (q->file != r->file || dist > HX_EXPLAIN_LINES || dist >= bd ||
		    hx_dnum(d, o, HX_F_STREAM, -1) < 0 || hx_dnum(d, o, HX_F_TASK, -1) < 0)
			continue;
		best = o;
		bd = dist;
	}
	return best;
}

int64_t hx_rec_id_near(const struct hangdx_diagnosis *d, uint32_t rec,
		       int key, int64_t stream)
{
	const struct hx_rec *r = &d->ev->recs[rec];
	int64_t got = hx_dnum(d, rec, key, -1);
	size_t i;

	if (got >= 0)
		return got;
	for (i = 0; i < d->norder; i++) {
		uint32_t o = d->order[i];
		const struct hx_rec *q = &d->ev->recs[o];
		uint64_t dist = q->line > r->line ? q->line - r->line : r->line - q->line;
		int64_t v;

		if (q->file != r->file || dist > HX_EXPLAIN_LINES ||
		    (r->pid != HX_NONE && q->pid != HX_NONE && r->pid != q->pid) ||
		    (v = hx_dnum(d, o, key, -1)) < 0 ||
		    (key != HX_F_STREAM && stream >= 0 &&
		     hx_dnum(d, o, HX_F_STREAM, -1) != stream))
			continue;
		if (got >= 0 && got != v)
			return -1;
		got = v;
	}
	return got;
}

bool hx_row_returned(const struct hx_vocab *row)
{
	const char *id = row ? hx_vocab_source(row)->id : NULL;

	return id && (eq(id, "llm_error_codes") || eq(id, "adxl_types"));
}

static void sig_vocab(struct hx_signals *s, const struct hx_vocab *row,
		      uint32_t rec, bool stop)
{
	switch (row ? row->cls : HX_VC_UNKNOWN) {
	case HX_VC_WAIT_TIMEOUT:
		if (strstr(row->name, "AICPU_TIMEOUT"))
			first(&s->aicpu_timeout, rec);
		else if (strstr(row->name, "CORE_TIMEOUT"))
			first(&s->dev_timeout, rec);
		else
			first(&s->timeout, rec);
		break;
	case HX_VC_DEVICE_EXCEPTION: case HX_VC_RESOURCE: case HX_VC_PARAMETER:
		first(&s->coded_fail, rec);
		break;
	case HX_VC_LOST:
		first(&s->device_fault, rec);
		break;
	case HX_VC_COMM_SETUP:
		/* a set-up wait that ran out (c10d's "timed out after", the
		 * store's "Timed out ... waiting for clients") is a hang */
		if (set_up_timeout(row))
			first(&s->connect, rec);
		else
			first(&s->connect_fail, rec);
		break;
	default:
		if (hx_row_returned(row))
			first(&s->coded_fail, rec);     /* ADXL_FAILED, returned */
		else if (stop)
			first(&s->stopped, rec);
		break;
	}
}

/* The device's own words for an exception of an AI Core, vector core or
 * AICPU task (RUNTIME's device error text): it failed at once. */
static bool device_exception_text(const char *t)
{
	return t && hx_device_exception_words(t, strlen(t));
}

/* A coded line of the open world: its class is in "what" (a class of
 * the tables, or "exited": a process ended on an exception). */
static void sig_coded(struct hx_signals *s, const struct hangdx_diagnosis *d,
		      uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);
	const char *cls = hx_dstr(d, rec, HX_F_WHAT);

	if (row) {
		sig_vocab(s, row, rec, true);
		return;
	}
	/* an exception a device synchronize raised ("NPU function error:
	 * AclrtSynchronizeDevice..."), its code cut or elsewhere: the
	 * synchronize reports a task's timeout as often as an exception */
	if (eq(cls, "exited") && has(hx_dstr(d, rec, HX_F_TEXT), "NPU function error") &&
	    has(hx_dstr(d, rec, HX_F_TEXT), "ynchroniz") &&
	    !hx_rec_code(d, rec))
		first(&s->stopped, rec);
	else if (eq(cls, "exited"))
		first(&s->exited, rec);
	else if (eq(cls, "device_exception") || eq(cls, "parameter") ||
		 eq(cls, "resource"))
		first(&s->coded_fail, rec);
	else
		first(&s->stopped, rec);
}

static void sig_runtime(struct hx_signals *s, const struct hangdx_diagnosis *d,
			uint32_t rec, int kind)
{
	const char *what = hx_dstr(d, rec, HX_F_WHAT);
	const char *desc = hx_dstr(d, rec, HX_F_ERR_DESC);
	const char *tt = hx_dstr(d, rec, HX_F_TASK_TYPE);

	if (eq(what, "fftsplus") &&
	    (kind == HX_K_RT_TIMEOUT || eq(hx_dstr(d, rec, HX_F_ERR_TYPE), "13") ||
	     has(desc, "fftsplus timeout")))
		first(&s->fftsplus, rec);
	else if (has(desc, "fftsplus timeout"))
		first(&s->fftsplus, rec);
	else if (eq(what, "event_wait") || eq(what, "event_wait_task") ||
		 has(tt, "EVENT_WAIT") || eq(tt, "3"))
		/* task_type=3: the runtime's TS_TASK_TYPE_STREAM_WAIT_EVENT
		 * (tsTaskType_t, "stream wait event task") */
		first(&s->event_wait, rec);
	else if (eq(what, "notify_wait") && (kind == HX_K_RT_TIMEOUT || kind == HX_K_RT_TASK_FAIL))
		first(&s->notify_wait, rec);
	else if (has(desc, "aicore timeout") || eq(what, "core_timeout") ||
		 /* a core's own extend info: "errorStr: timeout or trap error" */
		 has(hx_dstr(d, rec, HX_F_TEXT), "timeout or trap"))
		first(&s->dev_timeout, rec);
	else if (kind == HX_K_RT_TIMEOUT || has(desc, "timeout"))
		first(&s->timeout, rec);
	else if (device_exception_text(hx_dstr(d, rec, HX_F_TEXT)) ||
		 device_exception_text(desc))
		first(&s->coded_fail, rec);
	else if (has(desc, "sdma") || has(desc, "lost heartbeat") ||
		 /* the runtime's "Memory async copy failed": an SDMA copy task
		  * that failed, which waits on nothing */
		 (eq(what, "memcpy") && kind == HX_K_RT_TASK_FAIL))
		first(&s->device_fault, rec);
	else if (has(desc, "device id error") || has(desc, "error device id"))
		first(&s->not_hang, rec);
	else if (eq(what, "device_error") &&
		 has(hx_dstr(d, rec, HX_F_TEXT), "sdma"))
		first(&s->device_fault, rec);     /* "there is a fftsplus sdma error" */
	else
		first(&s->stopped, rec);
}

static void sig_link(struct hx_signals *s, const struct hangdx_diagnosis *d,
		     uint32_t rec)
{
	const char *what = hx_dstr(d, rec, HX_F_WHAT);

	if (eq(what, "link_table") && s->link_peer < 0 &&
	    (has(hx_dstr(d, rec, HX_F_ROLE), "time out") ||
	     has(hx_dstr(d, rec, HX_F_STATUS), "time out")))
		s->link_peer = hx_dnum(d, rec, HX_F_REMOTE_RANK, -1);
	if (eq(what, "connect_reasons"))
		first(&s->link_fail, rec);
	else if (eq(what, "connected_ranks"))
		return;
	else if (has(what, "timeout") || eq(what, "connect_detect") ||
		 eq(what, "connect_agent"))
		first(&s->connect, rec);
	else
		first(&s->connect_fail, rec);
}

/* EZ9999 is AclNN_Inner_Error, the operator library's own inner error:
 * when its text names a host-side step of an operator call (tiling, the
 * workspace, the op base "Nnopbase", the kernel's config or init: "Parse
 * dynamic kernel config fail", "AclOpKernelInit failed") and no HCCL
 * call, the call failed on the host at once, before anything ran on the
 * device. */
static bool aclnn_host(const char *t)
{
	return t && (has(t, "tiling") || has(t, "Tiling") || has(t, "Nnopbase") ||
		     has(t, "workspace") || has(t, "Workspace") ||
		     has(t, "kernel config") || has(t, "KernelInit")) &&
	       !has(t, "hccl") && !has(t, "Hccl") && !has(t, "HCCL");
}

static void sig_code(struct hx_signals *s, const struct hangdx_diagnosis *d,
		     uint32_t rec)
{
	const char *code = hx_dstr(d, rec, HX_F_CODE);
	const char *text = hx_dstr(d, rec, HX_F_TEXT);

	if (eq(code, "EI0002"))
		first(&s->notify_wait, rec);
	else if (eq(code, "EI0006"))
		first(&s->connect, rec);
	else if (eq(code, "EI0009"))
		first(&s->connect_fail, rec);
	else if (has(text, "aicore timeout"))
		first(&s->dev_timeout, rec);
	else if (eq(code, "EE1002"))
		first(&s->timeout, rec);
	else if (eq(code, "EL0004") || eq(code, "EJ0001") || eq(code, "EZ3003") ||
		 (eq(code, "EE1001") && has(text, "device")))
		first(&s->not_hang, rec);
	else if (eq(code, "EL0001"))
		first(&s->device_fault, rec);
	else if (eq(code, "EZ9999") && aclnn_host(text))
		first(&s->not_hang, rec);
	else if (hx_vocab_key(code) && hx_vocab_key(code)->cls == HX_VC_COMM_SETUP &&
		 (has(text, "timeout") || has(text, "timed out") ||
		  has(text, "time out") ||
		  eq(hx_dstr(d, rec, HX_F_WHAT), "timeout")))
		first(&s->connect, rec);        /* EI0015: "... within the timeout period" */
	else
		sig_vocab(s, hx_rec_row(d, rec), rec, true);
}

static void sig_failure(struct hx_signals *s, const struct hangdx_diagnosis *d,
			uint32_t rec)
{
	const char *what = hx_dstr(d, rec, HX_F_WHAT);

	if (eq(what, "device_lost") || eq(what, "sdma_error"))
		first(&s->device_fault, rec);
	else if (eq(what, "aicpu_exception"))
		first(&s->stopped, rec);
	else
		first(&s->not_hang, rec);
}

/* A line that says a wait timed out, the message of the inner error
 * (EI9999, EE9999: a row of class unknown) that stopped the job just
 * before it ("EI9999: Inner Error!" then "EI9999 connected p2p timeout,
 * timeout:600 s"): that error's meaning, not a wait after it. */
static bool inner_message(const struct hx_signals *s,
			  const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row;
	const struct hx_rec *p;

	if (s->stopped == HX_NOREC)
		return false;
	p = &d->ev->recs[s->stopped];
	row = hx_rec_row(d, s->stopped);
	return p->kind == HX_K_ERR_CODE && row && row->cls == HX_VC_UNKNOWN &&
	       p->file == d->ev->recs[rec].file &&
	       (uint64_t)hx_dnum(d, rec, HX_F_PARENT_LINE, -1) == p->line;
}

/* A wait at start-up for a server or a worker, in the words of any
 * framework ("Timed out while waiting for GCS to become available",
 * "did not become ready within 300.0s", "Failed to send heartbeat to
 * server: timed out"): a set-up that did not complete. */
static bool startup_words(const char *t, size_t n)
{
	return hx_find_ci(t, n, "become available") || hx_find_ci(t, n, "become ready") ||
	       hx_find_ci(t, n, "to be ready") || hx_find_ci(t, n, "startup deadline") ||
	       hx_find_ci(t, n, "heartbeat to server");
}

/* A wait that ran out connecting: the words of ETIMEDOUT's strerror
 * ("Connection timed out") and of clients that say it themselves
 * ("Connect timeout to: HOST:PORT", "connection timeout"). */
static bool connect_words(const char *t)
{
	size_t n = t ? strlen(t) : 0;

	return t && (hx_find_ci(t, n, "connection timed out") ||
		     hx_find_ci(t, n, "connect timed out") ||
		     hx_find_ci(t, n, "connect timeout") ||
		     hx_find_ci(t, n, "connection timeout") ||
		     startup_words(t, n));
}

bool hx_rec_store_text(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *t = hx_dstr(d, rec, HX_F_TEXT);

	return t && (has(t, "DistStoreError") || has(t, "TCPStore"));
}

/* A wait that ran out at torch.distributed's store, in its own words, or
 * a line of the tables whose class is communication set-up ("The server
 * socket on ... has timed out, will retry"): the rendezvous did not
 * complete. */
static bool store_words(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);

	return (row && row->cls == HX_VC_COMM_SETUP) || hx_rec_store_text(d, rec);
}

/* A timeout in the words of a compute core's task (the runtime's STARS
 * "aicore task timeout dfx", "The aicore execution times out"): a
 * device timeout, as 507014 and 507034 are. */
static bool core_timeout_words(const char *t)
{
	size_t n = t ? strlen(t) : 0;

	return t && (((hx_find_ci(t, n, "aicore") || hx_find_ci(t, n, "ai core") ||
		       hx_find_ci(t, n, "ai_core") || hx_find_ci(t, n, "vector core")) &&
		      (hx_find_ci(t, n, "timeout") || hx_find_ci(t, n, "times out") ||
		       hx_find_ci(t, n, "timed out"))) ||
		     /* the core's own extend info ("errorStr: timeout or trap
		      * error"), on a line of its own */
		     hx_find(t, n, "timeout or trap"));
}

static void sig_watchdog(struct hx_signals *s, const struct hangdx_diagnosis *d,
			 uint32_t rec)
{
	int64_t seq = hx_dnum(d, rec, HX_F_SEQ_NUM, -1);

	s->nwatchdog++;
	if (seq < 0) {
		first(&s->watchdog, rec);
		return;
	}
	if (s->seq_min < 0 || seq < s->seq_min) {
		s->seq_min = seq;
		s->watchdog = rec;
	}
	if (seq > s->seq_max)
		s->seq_max = seq;
}

/* The connected-rank lists of the root-info server: a rank below the
 * highest listed one that is not in them never joined. */
static void missing_rank(struct hx_signals *s, struct hangdx_diagnosis *d)
{
	uint8_t *seen = NULL;       /* a bit per rank, made at the first list */
	int64_t max = -1, r;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		const char *l;

		if (d->ev->recs[rec].kind != HX_K_LINK_ERROR ||
		    !eq(hx_dstr(d, rec, HX_F_WHAT), "connected_ranks"))
			continue;
		if (hx_dnum(d, rec, HX_F_RANK_LIST_CUT, 0) > 0)
			goto out_free;  /* a list read in part names no gap */
		if (!seen && !(seen = hx_dcalloc(d, MAX_RANKS / 8 + 1, 1)))
			return;
		for (l = hx_dstr(d, rec, HX_F_RANK_LIST); l && *l;) {
			char *e;
			long long v = strtoll(l, &e, 10);

			if (e == l)
				break;
			if (v >= 0 && v < (long long)MAX_RANKS) {
				seen[v >> 3] |= (uint8_t)(1u << (v & 7));
				if (v > max)
					max = v;
			}
			l = *e == ',' ? e + 1 : e;
		}
	}
	for (r = 0; r < max; r++)
		if (!(seen[r >> 3] & (1u << (r & 7)))) {
			s->missing_rank = r;
			break;
		}
out_free:
	hx_free(d->ctx, seen);
}

bool hx_rec_sdma_exception(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int k = d->ev->recs[rec].kind;

	return eq(hx_dstr(d, rec, HX_F_CODE), "EI0012") ||
	       (k == HX_K_RT_TASK_FAIL && has(hx_dstr(d, rec, HX_F_ERR_DESC), "sdma error")) ||
	       (k == HX_K_AICPU_SQCQ && hx_dnum(d, rec, HX_F_SQE_TYPE, -1) == 11);
}

int hx_rec_sdma_fault(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *w = hx_dstr(d, rec, HX_F_WHAT), *c = hx_rec_code(d, rec);
	const char *t = hx_dstr(d, rec, HX_F_TEXT);
	const char *e = hx_dstr(d, rec, HX_F_ERR_DESC);

	if (eq(c, "507049") || has(t, "fftsplus sdma") || has(e, "fftsplus sdma"))
		return 2;
	return eq(w, "sdma_error") || eq(w, "memcpy") || eq(c, "507013") || has(t, "sdma") ||
	       has(e, "sdma") || hx_rec_sdma_exception(d, rec);
}

bool hx_rec_sdma_report(const struct hangdx_diagnosis *d, uint32_t sdma,
			uint32_t rec)
{
	const struct hx_rec *a = &d->ev->recs[sdma], *b = &d->ev->recs[rec];

	return b->kind == HX_K_HCCL_TASK_FAIL && hx_rec_sdma_exception(d, sdma) &&
	       !has(hx_dstr(d, rec, HX_F_TASK_TYPE), "Notify") &&
	       a->pid == b->pid && a->ts != HX_NONE && b->ts != HX_NONE &&
	       b->ts >= a->ts && b->ts - a->ts <= HX_WAIT_TIE_US;
}

/* A name of a communication operator: HCCL's own, a collective's, or one
 * that fuses one (MoE dispatch and combine, the matmul-collectives). */
static bool comm_op_name(const char *t)
{
	static const char *const w[] = {
		"Hccl", "hccl", "HCCL", "AllReduce", "AllGather", "ReduceScatter",
		"Broadcast", "AlltoAll", "AllToAll", "Send", "Receive",
		"MoeDistribute", "Dispatch", "Combine", "Mc2",
	};
	size_t i;

	for (i = 0; t && i < sizeof w / sizeof w[0]; i++)
		if (strstr(t, w[i]))
			return true;
	return false;
}

/* HCCL's HCCL_E_TIMEOUT on a line about its links or sockets ("[Wait]
 * [LinksEstablishCompleted] is failed. ret[9]"): a set-up wait. */
static bool link_wait(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);
	const char *t = hx_dstr(d, rec, HX_F_TEXT);

	return row && row->family == HX_VF_HCCL && row->cls == HX_VC_WAIT_TIMEOUT &&
	       (has(t, "Link") || has(t, "link") || has(t, "Socket") ||
		has(t, "socket") || has(t, "onnect"));
}

static bool ts_code(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const struct hx_vocab *row = hx_rec_row(d, rec);

	return row && row->family == HX_VF_TS;
}

static void sig_record(struct hx_signals *s, const struct hangdx_diagnosis *d,
		       uint32_t rec)
{
	int k = d->ev->recs[rec].kind;
	const char *c = hx_rec_code(d, rec);

	/* the code a report names: the first, but a runtime code that says
	 * what failed before the task scheduler's it explains (507013 over
	 * 0x20b; not the wrapper 507011 over 0x91, an event wait's timeout) */
	if (c && (s->code_rec == HX_NOREC ||
		  (ts_code(d, s->code_rec) && !ts_code(d, rec) && hx_rec_row(d, rec) &&
		   hx_rec_row(d, rec)->cls != HX_VC_UNKNOWN)))
		s->code_rec = rec;
	if (hx_rec_sdma_exception(d, rec))
		s->sdma = rec;
	if (timeout_code(c) && !eq(c, "507048"))
		first(&s->timeout, rec);
	else if (eq(c, "507048") && !has(hx_dstr(d, rec, HX_F_ERR_DESC), "fftsplus"))
		first(&s->timeout, rec);
	else if (eq(c, "507014"))
		first(&s->dev_timeout, rec);
	else if ((not_hang_code(c) || (c && strncmp(c, "561", 3) == 0) ||
		  has(hx_dstr(d, rec, HX_F_TEXT), "call aclnn")) &&
		 comm_op_name(hx_dstr(d, rec, HX_F_TEXT)))
		first(&s->stopped, rec);        /* may be a wait on other ranks */
	else if (not_hang_code(c) || has(hx_dstr(d, rec, HX_F_TEXT), "call aclnn"))
		first(&s->not_hang, rec);
	else if (fault_code(c))
		first(&s->device_fault, rec);
	else if (c && hx_rec_hccl_init(d, rec) && hx_rec_row(d, rec) &&
		 hx_rec_row(d, rec)->cls == HX_VC_WAIT_TIMEOUT)
		first(&s->connect, rec);        /* creating a communicator timed out */
	else if (c && hx_rec_hccl_api(d, rec) && hx_rec_row(d, rec) &&
		 hx_rec_row(d, rec)->cls != HX_VC_UNKNOWN &&
		 hx_rec_row(d, rec)->cls != HX_VC_WAIT_TIMEOUT)
		first(&s->coded_fail, rec);     /* the call returned its failure */
	else if (c && link_wait(d, rec))
		first(&s->connect, rec);        /* HCCL waited for its links */
	else if (c)
		sig_vocab(s, hx_rec_row(d, rec), rec, k != HX_K_RT_API_ERROR);
	switch (k) {
	case HX_K_RT_TIMEOUT: case HX_K_RT_TASK_FAIL: case HX_K_RT_API_ERROR:
		sig_runtime(s, d, rec, k);
		break;
	case HX_K_EI0002:
		first(&s->notify_wait, rec);
		break;
	case HX_K_HCCL_TASK_FAIL:
		/* a wait that timed out, or a task that failed (an SDMA copy) */
		if (s->sdma != HX_NOREC && hx_rec_sdma_report(d, s->sdma, rec))
			first(&s->stopped, rec);
		else if (eq(hx_dstr(d, rec, HX_F_FAIL_KIND), "Timeout") ||
		    has(hx_dstr(d, rec, HX_F_TASK_TYPE), "Notify Wait"))
			first(&s->notify_wait, rec);
		else
			first(&s->stopped, rec);
		break;
	case HX_K_LINK_ERROR:
		sig_link(s, d, rec);
		break;
	case HX_K_ERR_CODE:
		sig_code(s, d, rec);
		break;
	case HX_K_FAILURE:
		sig_failure(s, d, rec);
		break;
	case HX_K_COLLECTIVE_TIMEOUT:
		sig_watchdog(s, d, rec);
		break;
	case HX_K_STALL:
		s->nstall++;
		first(&s->stall, rec);
		break;
	case HX_K_TSCH_TIMEOUT:
		first(&s->timeout, rec);
		break;
	/* HCCL's AICPU kernel's "KFC timeout..", op retry's "[OpRetry]
	 * WaitCommand timeout": a wait that ran out, at error level (under
	 * retry's ErrToWarn it is a warning, retried) */
	case HX_K_AICPU_KERNEL: case HX_K_OP_RETRY:
		if (eq(hx_dstr(d, rec, HX_F_WHAT), "timeout") &&
		    (d->ev->recs[rec].level == HX_LV_ERROR ||
		     d->ev->recs[rec].level == HX_LV_CRITICAL))
			first(&s->timeout_text, rec);
		break;
	case HX_K_HEARTBEAT: case HX_K_CLUSTER_EXCEPTION:
		if (eq(hx_dstr(d, rec, HX_F_STATUS), "LOST"))
			first(&s->lost, rec);
		break;
	case HX_K_FRAMEWORK_ERROR:
		/* the watchdog's exception names its code after it ("... terminated
		 * with exception: ... (EI0013): An error CQE ..."): that code's row */
		if (eq(hx_dstr(d, rec, HX_F_WHAT), "hccl_watchdog"))
			sig_vocab(s, hx_rec_row(d, rec), rec, true);
		else if (!c)
			sig_vocab(s, hx_vocab_key(hx_dstr(d, rec, HX_F_CODE)), rec,
				  false);
		if (s->named_rank < 0 && hx_dnum(d, rec, HX_F_GLOBAL_RANK, -1) >= 0)
			s->named_rank = hx_dnum(d, rec, HX_F_GLOBAL_RANK, -1);
		break;
	case HX_K_COMM_INIT:
		if (eq(hx_dstr(d, rec, HX_F_WHAT), "init_failed") && hx_rec_row(d, rec) &&
		    hx_rec_row(d, rec)->cls == HX_VC_WAIT_TIMEOUT)
			first(&s->connect, rec);        /* it ran out of time */
		else if (eq(hx_dstr(d, rec, HX_F_WHAT), "init_failed"))
			first(&s->not_hang, rec);
		break;
	case HX_K_TIMEOUT_TEXT:
		if (inner_message(s, d, rec)) {
			s->stopped = HX_NOREC;  /* the inner error said what it was */
			first(has(hx_dstr(d, rec, HX_F_TEXT), "connect") ? &s->connect
					  : &s->timeout_text, rec);
		} else {
			const char *t = hx_dstr(d, rec, HX_F_TEXT);

			first(connect_words(t) || store_words(d, rec) ? &s->connect
			      : core_timeout_words(t) ? &s->dev_timeout
			      : &s->timeout_text, rec);
		}
		break;
	case HX_K_CODED:
		sig_coded(s, d, rec);
		break;
	case HX_K_UNKNOWN_ERROR: {
		int64_t more = hx_dnum(d, rec, HX_F_REPEATS, 0);

		s->nunknown += more > 0 ? (uint64_t)more : 1;
		if (more <= 0)
			first(&s->unknown_err, rec);
		break;
	}
	case HX_K_NORMAL_END:
		first(&s->end_rec, rec);
		break;
	default:
		break;
	}
}

/* MindSpore's "Launch kernel failed: NAME": 1 when it names an ordinary
 * kernel (not a communication operator, not a data queue's: GetNext
 * waits for its data), 0 when it names one of those, -1 when no line
 * names a kernel. */
static int ordinary_launch(const struct hangdx_diagnosis *d)
{
	int got = -1;
	size_t i;

	for (i = 0; i < d->norder; i++) {
		const char *t = hx_dstr(d, d->order[i], HX_F_TEXT), *k;

		if (d->ev->recs[d->order[i]].kind != HX_K_UNKNOWN_ERROR || !t ||
		    !(k = strstr(t, "Launch kernel failed: ")) || !k[22])
			continue;
		if (!comm_op_name(k + 22) && !strstr(k + 22, "GetNext") &&
		    !strstr(k + 22, "Queue"))
			return 1;
		got = 0;
	}
	return got;
}

/* The first of the device's reports of an AICPU kernel that ended on its
 * own error code (what=aicpu_error), or HX_NOREC. */
static uint32_t first_aicpu_error(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		if (d->ev->recs[rec].kind == HX_K_RT_TASK_FAIL &&
		    eq(hx_dstr(d, rec, HX_F_WHAT), "aicpu_error"))
			return rec;
	}
	return HX_NOREC;
}

/* The device's report of an AICPU kernel's error code that no table has
 * (the runtime then prints its default "aicpu execute failed"): the
 * vendor's guides show the same lines (errcode 5) as an operator's
 * exception and as an operator that ran past its execution timeout, so
 * the exception says nothing of a wait. */
static bool aicpu_code_unknown(const struct hangdx_diagnosis *d)
{
	uint32_t rec = first_aicpu_error(d);

	return rec != HX_NOREC && !hx_rec_row(d, rec);
}

/* The device's report of an AICPU kernel that ended on its own error
 * code (what=aicpu_error; a code of vocab/aicpu.tsv that is no timeout),
 * when no line names a kernel of HCCL's: the kernel returned its failure,
 * it did not wait.  HCCL's own codes (1000-1099: op retry, links) are a
 * lost link.  A code no table has says nothing of a wait (above): not
 * taken. */
static bool aicpu_returned(struct hx_signals *s, const struct hangdx_diagnosis *d)
{
	uint32_t rep = first_aicpu_error(d);
	const struct hx_vocab *row;
	size_t i;

	for (i = 0; rep != HX_NOREC && i < d->norder; i++) {
		uint32_t rec = d->order[i];

		if (d->ev->recs[rec].kind == HX_K_AICPU_KERNEL_FAIL &&
		    eq(hx_dstr(d, rec, HX_F_WHAT), "hccl_kernel"))
			return false;   /* a kernel of HCCL's, named */
	}
	if (rep == HX_NOREC || ordinary_launch(d) == 0)
		return false;
	row = hx_rec_row(d, rep);
	if (!row)
		return false;
	if (row->cls == HX_VC_LOST)
		first(&s->link_fail, rep);
	else
		first(&s->coded_fail, rep);
	s->stopped = HX_NOREC;
	return true;
}

bool hx_rec_aicpu_exception(const struct hangdx_diagnosis *d, uint32_t rec)
{
	const char *t = hx_dstr(d, rec, HX_F_TEXT), *e = hx_dstr(d, rec, HX_F_ERR_DESC);
	const char *w = hx_dstr(d, rec, HX_F_WHAT);
	int k = d->ev->recs[rec].kind;
	const struct hx_vocab *row = hx_rec_row(d, rec);

	if (k == HX_K_AICPU_KERNEL_FAIL)
		return eq(w, "aicpu_kernel");
	if (row && row->family == HX_VF_TS && eq(row->name, "TS_ERROR_AICPU_EXCEPTION"))
		return true;    /* the task scheduler's code, in any line */
	return (k == HX_K_FAILURE || k == HX_K_RT_TASK_FAIL || k == HX_K_ERR_CODE ||
		k == HX_K_RT_API_ERROR) &&
	       (has(t, "during AICPU execution") || has(t, "aicpu exception") ||
		has(e, "aicpu exception") || eq(hx_rec_code(d, rec), "507018") ||
		eq(w, "aicpu_exception"));
}

/* A rank past the first that the logs name; a pseudo rank (a file or a
 * process whose lines name no rank, numbered after the real ones) is none. */
static bool real_rank_past_first(const struct hangdx_diagnosis *d, uint32_t rec)
{
	int32_t r = hx_drank(d, rec);

	return r > 0 && (uint32_t)r < d->pseudo_base;
}

/* A sign that the job communicates: an HCCL record or module, a word of
 * HCCL's or a communication operator's name, a rank or a worker past the
 * first (a second process of the job), an error-manager code of HCCL's;
 * or a synchronize with a timeout of its own ("...WithTimeout": its
 * timeout, not the kernel, may have ended the task). */
static bool comm_or_timeout(const struct hangdx_diagnosis *d)
{
	size_t i;

	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		const struct hx_rec *r = &d->ev->recs[rec];
		const char *m = r->module != HX_NOSTR ? hx_ev_str(d->ev, r->module) : NULL;
		const char *t = hx_dstr(d, rec, HX_F_TEXT), *w = hx_dstr(d, rec, HX_F_WORKER);
		const char *c = hx_dstr(d, rec, HX_F_CODE), *nm = hx_dstr(d, rec, HX_F_NAME);

		if (r->kind == HX_K_EI0002 || r->kind == HX_K_HCCL_TASK_FAIL ||
		    (r->kind == HX_K_AICPU_KERNEL_FAIL &&
		     eq(hx_dstr(d, rec, HX_F_WHAT), "hccl_kernel")) ||
		    r->kind == HX_K_COMM_INIT || r->kind == HX_K_COLLECTIVE_TIMEOUT ||
		    r->kind == HX_K_LINK_ERROR || eq(m, "HCCL") || real_rank_past_first(d, rec) ||
		    (c && c[0] == 'E' && c[1] == 'I') || comm_op_name(t) ||
		    comm_op_name(nm) || has(t, "WithTimeout") || has(nm, "WithTimeout") ||
		    (w && (has(w, "TP") || has(w, "DP") || has(w, "EP") || has(w, "PP")) &&
		     !has(w, "TP0") && !has(w, "DP0")))
			return true;
	}
	return false;
}

/* An AICPU exception says nothing of a wait when HCCL's own kernels run
 * on the AICPU (docs/VOCABULARY.md); when the framework names the kernel
 * that failed and it is an ordinary one, it is that kernel's exception;
 * so it is when nothing in the text communicates (no HCCL, no second
 * rank, no synchronize with a timeout of its own). */
static void aicpu_named(struct hx_signals *s, const struct hangdx_diagnosis *d)
{
	size_t i;

	if (aicpu_returned(s, d) || aicpu_code_unknown(d))
		return;
	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];

		if (hx_rec_aicpu_exception(d, rec)) {
			if (ordinary_launch(d) == 1 ||
			    (ordinary_launch(d) < 0 && !comm_or_timeout(d))) {
				first(&s->coded_fail, rec);
				s->stopped = HX_NOREC;
			}
			return;
		}
	}
}

/* The core's extend info "errorStr: timeout or trap error" does not say
 * which of the two; the runtime's own words for the task's code do
 * ("retCode=0x31, [vector core exception]", 507035): where a line of the
 * same process names an exception of the core and none a timeout of it,
 * the task trapped, and failed at once. */
static void trap_not_timeout(struct hx_signals *s, const struct hangdx_diagnosis *d)
{
	const struct hx_rec *t0;
	const char *t;
	uint32_t exc = HX_NOREC;
	size_t i;

	if (s->dev_timeout == HX_NOREC)
		return;
	t = hx_dstr(d, s->dev_timeout, HX_F_TEXT);
	if (!has(t, "timeout or trap") || has(t, "core timeout") || has(t, "task timeout"))
		return;
	t0 = &d->ev->recs[s->dev_timeout];
	for (i = 0; i < d->norder; i++) {
		uint32_t rec = d->order[i];
		const char *x = hx_dstr(d, rec, HX_F_TEXT);

		if (rec == s->dev_timeout || d->ev->recs[rec].pid != t0->pid || !x)
			continue;
		if (has(x, "core timeout") || has(x, "aivec timeout") ||
		    has(x, "task timeout"))
			return;
		if (exc == HX_NOREC && (has(x, "[vector core exception]") ||
					has(x, "[aicore exception]")))
			exc = rec;
	}
	if (exc == HX_NOREC)
		return;
	s->dev_timeout = HX_NOREC;
	if (s->coded_fail == HX_NOREC)
		s->coded_fail = exc;
}

void hx_signals_collect(struct hangdx_diagnosis *d)
{
	struct hx_signals *s = &d->sig;
	size_t i;

	memset(s, 0xff, offsetof(struct hx_signals, missing_rank));
	s->missing_rank = s->behind_rank = s->seq_min = s->seq_max = -1;
	s->link_peer = -1;
	s->named_rank = -1;
	s->nwatchdog = s->nstall = 0;
	s->nunknown = 0;
	for (i = 0; i < d->norder; i++)
		sig_record(s, d, d->order[i]);
	trap_not_timeout(s, d);
	missing_rank(s, d);
	if (s->stopped != HX_NOREC)
		aicpu_named(s, d);
	if (s->watchdog != HX_NOREC && s->seq_max > s->seq_min)
		s->behind_rank = hx_dnum(d, s->watchdog, HX_F_GLOBAL_RANK, -1);
}
