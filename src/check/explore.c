/*
 * explore.c - the checker's search: breadth-first over the untimed state
 * space of check.h's transition system, so the first stuck state found is
 * one of the fewest steps (every path to a state has the same length:
 * each step moves one host pc, one stream head or one kernel phase).
 *
 * A state is, per rank: the host pc, per stream head position and head
 * phase, and the value bits of notifies used more than once; tails, busy
 * cores and single-use notifies are derived.  Each rank's part is packed
 * into 16- or 32-bit words and stored once in a table of blocks; a state
 * is the vector of its ranks' block ids, kept in an open-addressing set
 * with a memory ceiling.
 *
 * Reductions, all sound for reaching every deadlock (docs/CHECKER.md):
 *  - stubborn sets (Valmari): from a state, only the enabled steps of a
 *    set closed under "may conflict" (a rank's pool steps with its
 *    arrivals; reuse of a notify) and "must happen first" (what a disabled
 *    member waits for) are taken.  Steps of different streams that touch
 *    neither the pool nor a shared notify commute and are not interleaved;
 *    a rank whose remaining core users all fit in its pool has no pool
 *    conflicts at all;
 *  - symmetry: in SPMD programs whose communicators span all ranks, a
 *    rotation of the ranks maps the ring onto itself; states are stored as
 *    their least rotation;
 *  - lockstep (witnesses only): the alike ranks move together, the
 *    stubborn sets computed on rank 0 with every rank read as rank 0;
 *  - the unbounded-pool abstraction (ck_explore_abstract): ranks whose
 *    core users all give their core back by themselves get a pool that
 *    never runs out; every stuck state of the model is one of the
 *    abstraction, so "safe" there is safe.
 */
#include <string.h>
#include <time.h>
#include "check.h"

/* ---- working states ---- */

int ck_ws_alloc(const struct ck_model *m, struct ck_ws *w)
{
	memset(w, 0, sizeof *w);
	w->pc = hx_calloc(m->ctx, m->nranks + 1, sizeof *w->pc);
	w->busy = hx_calloc(m->ctx, m->nranks + 1, sizeof *w->busy);
	w->head = hx_calloc(m->ctx, m->nstream + 1, sizeof *w->head);
	w->tail = hx_calloc(m->ctx, m->nstream + 1, sizeof *w->tail);
	w->ph = hx_calloc(m->ctx, m->nstream + 1, 1);
	w->bit = hx_calloc(m->ctx, m->nbits + 1, 1);
	w->slack = hx_calloc(m->ctx, m->nranks + 1, 1);
	if (!w->pc || !w->busy || !w->head || !w->tail || !w->ph || !w->bit ||
	    !w->slack) {
		ck_ws_free(m, w);
		return HANGDX_ENOMEM;
	}
	return HANGDX_OK;
}

void ck_ws_free(const struct ck_model *m, struct ck_ws *w)
{
	hx_free(m->ctx, w->pc);
	hx_free(m->ctx, w->busy);
	hx_free(m->ctx, w->head);
	hx_free(m->ctx, w->tail);
	hx_free(m->ctx, w->ph);
	hx_free(m->ctx, w->bit);
	hx_free(m->ctx, w->slack);
	memset(w, 0, sizeof *w);
}

void ck_ws_copy(const struct ck_model *m, struct ck_ws *dst,
		const struct ck_ws *src)
{
	memcpy(dst->pc, src->pc, m->nranks * sizeof *dst->pc);
	memcpy(dst->busy, src->busy, m->nranks * sizeof *dst->busy);
	memcpy(dst->head, src->head, m->nstream * sizeof *dst->head);
	memcpy(dst->tail, src->tail, m->nstream * sizeof *dst->tail);
	memcpy(dst->ph, src->ph, m->nstream);
	memcpy(dst->bit, src->bit, m->nbits);
	memcpy(dst->slack, src->slack, m->nranks);
}

/* Tail of a host-fed stream once its host has issued pc entries. */
static uint32_t host_tail(const struct ck_stream *cs, uint32_t pc)
{
	uint32_t lo = 0, hi = cs->nbp;

	while (lo < hi) {               /* first breakpoint with entry >= pc */
		uint32_t mid = (lo + hi) / 2;
		if (cs->bp_entry[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? cs->bp_tail[lo - 1] : 0;
}

/* Tail of M_c / S0 from the kernels expanded so far on its K_c. */
static uint32_t kernel_tail(const struct ck_model *m, const struct ck_ws *w,
			    uint32_t s)
{
	const struct ck_stream *cs = &m->stream[s];
	const struct ck_stream *k = &m->stream[cs->kstream];
	uint32_t h = w->head[cs->kstream], c;
	const struct ck_kern *kn;

	c = k->kbefore[h];
	if (h < k->len && ck_at(m, cs->kstream, h)->kind == HX_T_KERNEL &&
	    w->ph[cs->kstream] == PH_RES)
		c++;
	if (!c)
		return 0;
	kn = &m->kern[k->kerns[c - 1]];
	return cs->role == HX_SR_MAIN ? kn->m_end : kn->s_end;
}

/* Tails, busy cores and slack of rank r: all rank-local. */
static void derive_rank(const struct ck_model *m, struct ck_ws *w, uint32_t r)
{
	uint32_t s, demand = 0;

	w->busy[r] = 0;
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++) {
		const struct ck_stream *cs = &m->stream[s];
		if (cs->feed == FEED_HOST)
			w->tail[s] = host_tail(cs, w->pc[r]);
		if (w->head[s] < cs->len && ck_at(m, s, w->head[s])->pool &&
		    (w->ph[s] == PH_RUN || w->ph[s] == PH_RES))
			w->busy[r]++;
		/* core users holding, waiting or still to come: a pool task
		 * not at a head has not asked yet */
		demand += cs->pool_from[w->head[s] < cs->len ? w->head[s] : cs->len];
	}
	w->slack[r] = demand <= m->cores;
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
		if (m->stream[s].feed == FEED_KERNEL)
			w->tail[s] = kernel_tail(m, w, s);
}

static void derive(const struct ck_model *m, struct ck_ws *w)
{
	uint32_t r;

	for (r = 0; r < m->nranks; r++)
		derive_rank(m, w, r);
}

void ck_ws_init(const struct ck_model *m, struct ck_ws *w)
{
	memset(w->pc, 0, m->nranks * sizeof *w->pc);
	memset(w->head, 0, m->nstream * sizeof *w->head);
	memset(w->ph, 0, m->nstream);
	memset(w->bit, 0, m->nbits);
	derive(m, w);
}

static uint32_t word_get(const struct ck_model *m, const void *p, uint32_t i)
{
	if (m->w16)
		return ((const uint16_t *)p)[i];
	return ((const uint32_t *)p)[i];
}

static void word_put(const struct ck_model *m, void *p, uint32_t i, uint32_t v)
{
	if (m->w16)
		((uint16_t *)p)[i] = (uint16_t)v;
	else
		((uint32_t *)p)[i] = v;
}

/* Rank r's block, at its place in a packed state. */
static void pack_rank(const struct ck_model *m, const struct ck_ws *w,
		      uint32_t r, void *packed)
{
	uint32_t s, i, b, per = m->w16 ? 16 : 32, o = m->blk_first[r];

	for (i = o; i < m->blk_first[r + 1]; i++)
		word_put(m, packed, i, 0);
	word_put(m, packed, o++, w->pc[r]);
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
		word_put(m, packed, o++, w->head[s] << 2 | w->ph[s]);
	for (b = m->rank_bits[r], i = 0; b < m->rank_bits[r + 1]; b++, i++)
		if (w->bit[b])
			word_put(m, packed, o + i / per,
				 word_get(m, packed, o + i / per) | 1u << (i % per));
}

/* Rank r's part of w from its block in a packed state, derived too. */
static void unpack_rank(const struct ck_model *m, const void *packed,
			struct ck_ws *w, uint32_t r)
{
	uint32_t s, i, b, per = m->w16 ? 16 : 32, o = m->blk_first[r];

	w->pc[r] = word_get(m, packed, o++);
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++) {
		uint32_t v = word_get(m, packed, o++);
		w->head[s] = v >> 2;
		w->ph[s] = (uint8_t)(v & 3);
	}
	for (b = m->rank_bits[r], i = 0; b < m->rank_bits[r + 1]; b++, i++)
		w->bit[b] = (uint8_t)(word_get(m, packed, o + i / per) >>
				      (i % per) & 1);
	derive_rank(m, w, r);
}

void ck_pack(const struct ck_model *m, const struct ck_ws *w, void *packed)
{
	uint32_t r;

	for (r = 0; r < m->nranks; r++)
		pack_rank(m, w, r, packed);
}

void ck_unpack(const struct ck_model *m, const void *packed, struct ck_ws *w)
{
	uint32_t r;

	for (r = 0; r < m->nranks; r++)
		unpack_rank(m, packed, w, r);
}

/* ---- the transition relation ---- */

uint8_t ck_value(const struct ck_model *m, const struct ck_ws *w, int32_t n)
{
	const struct ck_notify *no = &m->notify[n];

	if (no->bit >= 0)
		return w->bit[no->bit];
	if (no->rec_stream == CK_NONE || w->head[no->rec_stream] <= no->rec_pos)
		return 0;
	return no->wait_stream == CK_NONE ||
	       w->head[no->wait_stream] <= no->wait_pos;
}

static void set_value(const struct ck_model *m, struct ck_ws *w, int32_t n,
		      uint8_t v)
{
	if (n >= 0 && m->notify[n].bit >= 0)
		w->bit[m->notify[n].bit] = v;
}

static bool room(const struct ck_model *m, const struct ck_ws *w, uint32_t s,
		 uint32_t n)
{
	return w->tail[s] - w->head[s] + n <= m->depth;
}

static uint32_t nentries(const struct ck_model *m, uint32_t r)
{
	return m->re_first[r + 1] - m->re_first[r];
}

static const struct ck_entry *entry_of(const struct ck_model *m, uint32_t r,
				       uint32_t pc)
{
	return &m->entry[m->re_first[r] + pc];
}

static bool host_enabled(const struct ck_model *m, const struct ck_ws *w,
			 uint32_t r)
{
	const struct ck_entry *e;
	uint32_t i, s;

	if (w->pc[r] >= nentries(m, r))
		return false;
	e = entry_of(m, r, w->pc[r]);
	switch (e->kind) {
	case E_SYNC_STREAM:
		return w->head[e->sync_stream] >= w->tail[e->sync_stream];
	case E_SYNC_ALL:
		for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
			if (w->head[s] < w->tail[s])
				return false;
		return true;
	default:
		for (i = 0; i < e->nroom; i++)
			if (!room(m, w, e->room_stream[i], e->room_n[i]))
				return false;
		return true;
	}
}

static bool kernel_room(const struct ck_model *m, const struct ck_ws *w,
			const struct ck_kern *k)
{
	return room(m, w, k->mstream, k->room) &&
	       (k->sstream == CK_NONE || room(m, w, k->sstream, k->room));
}

bool ck_enabled(const struct ck_model *m, const struct ck_ws *w, uint32_t proc)
{
	const struct ck_task *c;
	uint32_t s;

	if (proc < m->nranks)
		return host_enabled(m, w, proc);
	s = proc - m->nranks;
	if (w->head[s] >= w->tail[s])
		return false;
	c = ck_at(m, s, w->head[s]);
	switch (c->kind) {
	case HX_T_NOTIFY_WAIT:
		return ck_value(m, w, c->notify) != 0;
	case HX_T_EVENT_WAIT:
		return c->dep_stream == CK_NONE ||
		       w->head[c->dep_stream] > c->dep_pos;
	case HX_T_AICPU:
		return w->ph[s] == PH_RUN;
	case HX_T_KERNEL:       /* without room it keeps its core: sq-full */
		return w->ph[s] == PH_RUN && kernel_room(m, w, &m->kern[c->kern]);
	default:
		return true;
	}
}

static void kstart(const struct ck_model *m, struct ck_ws *w, uint32_t s)
{
	const struct ck_task *c = ck_at(m, s, w->head[s]);

	if (c->kind == HX_T_KERNEL && m->kern[c->kern].o1 >= 0)
		set_value(m, w, m->kern[c->kern].o1, 1);
}

static void note_arrival(struct ck_effect *e, uint32_t s, bool got)
{
	if (!e)
		return;
	if (e->grab_stream < 0 && e->wait_stream < 0) {
		if (got)
			e->grab_stream = (int32_t)s;
		else
			e->wait_stream = (int32_t)s;
	} else if (got) {
		e->grab2 = (int32_t)s;
	} else {
		e->wait2 = (int32_t)s;
	}
}

/* The head task of s is there: a core user takes a free core or waits. */
static void arrive(const struct ck_model *m, struct ck_ws *w, uint32_t s,
		   struct ck_effect *e)
{
	const struct ck_task *c;
	uint32_t r = m->stream[s].rank;

	w->ph[s] = PH_NONE;
	if (w->head[s] >= w->tail[s])
		return;
	c = ck_at(m, s, w->head[s]);
	if (c->pool) {
		if (w->busy[r] < m->cores || ck_unbounded(m, r)) {
			w->busy[r]++;
			w->ph[s] = PH_RUN;
			kstart(m, w, s);
			note_arrival(e, s, true);
		} else {
			w->ph[s] = PH_WAIT;
			note_arrival(e, s, false);
		}
	} else if (c->kind == HX_T_KERNEL) {
		w->ph[s] = PH_RUN;
		kstart(m, w, s);
	}
}

/* A core comes back: it goes to the waiter named by choice (the first
 * waiter when choice names none), or the pool has one more free. */
static void release(const struct ck_model *m, struct ck_ws *w, uint32_t r,
		    uint32_t choice, struct ck_effect *e)
{
	uint32_t s, pick = CK_NONE, n = 0;

	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++) {
		if (w->ph[s] != PH_WAIT)
			continue;
		n++;
		if (pick == CK_NONE || s == choice)
			pick = s;
	}
	if (e)
		e->nchoices = n;
	if (pick == CK_NONE) {
		w->busy[r]--;
		return;
	}
	w->ph[pick] = PH_RUN;
	kstart(m, w, pick);
	if (e)
		e->granted = (int32_t)pick;
}

static void advance(const struct ck_model *m, struct ck_ws *w, uint32_t s,
		    uint32_t choice, struct ck_effect *e)
{
	const struct ck_stream *cs = &m->stream[s];

	w->head[s]++;
	w->ph[s] = PH_NONE;
	if (cs->role == HX_SR_MAIN && cs->stays) {
		uint32_t k = cs->kstream, h = w->head[k];
		const struct ck_task *c = h < m->stream[k].len ? ck_at(m, k, h) : NULL;

		if (c && c->kind == HX_T_KERNEL && w->ph[k] == PH_RES &&
		    !ck_kern_keeps(&m->kern[c->kern],
				   w->head[s] >= m->kern[c->kern].m_end)) {
			/* M_c drained: the resident kernel returns its core */
			if (e)
				e->kdone = (int32_t)k;
			if (c->pool)
				release(m, w, cs->rank, choice, e);
			w->head[k]++;
			arrive(m, w, k, e);
		}
	}
	arrive(m, w, s, e);
}

static void host_apply(const struct ck_model *m, struct ck_ws *w, uint32_t r,
		       struct ck_effect *e)
{
	const struct ck_entry *en = entry_of(m, r, w->pc[r]);
	uint32_t i;

	w->pc[r]++;
	for (i = 0; i < en->napp; i++) {
		uint32_t s = en->app_stream[i];
		w->tail[s] = en->app_to[i];
		if (w->head[s] == en->app_from[i])
			arrive(m, w, s, e);
	}
}

static void kernel_apply(const struct ck_model *m, struct ck_ws *w,
			 uint32_t s, const struct ck_task *c, uint32_t choice,
			 struct ck_effect *e)
{
	const struct ck_kern *k = &m->kern[c->kern];

	w->tail[k->mstream] = k->m_end;
	if (k->sstream != CK_NONE)
		w->tail[k->sstream] = k->s_end;
	if (ck_kern_keeps(k, w->head[k->mstream] >= k->m_end)) {
		w->ph[s] = PH_RES;      /* HX_KRES_RETRY */
		return;
	}
	if (c->pool) {
		if (e)
			e->rel_stream = (int32_t)s;
		release(m, w, m->stream[s].rank, choice, e);
	}
	advance(m, w, s, choice, e);
}

void ck_apply(const struct ck_model *m, struct ck_ws *w, uint32_t proc,
	      uint32_t choice, struct ck_effect *e)
{
	const struct ck_task *c;
	uint32_t s;

	if (e) {
		memset(e, 0, sizeof *e);
		e->grab_stream = e->wait_stream = e->rel_stream = -1;
		e->granted = e->kdone = e->grab2 = e->wait2 = -1;
	}
	if (proc < m->nranks) {
		host_apply(m, w, proc, e);
		return;
	}
	s = proc - m->nranks;
	c = ck_at(m, s, w->head[s]);
	switch (c->kind) {
	case HX_T_NOTIFY_RECORD:
		set_value(m, w, c->notify, 1);
		break;
	case HX_T_NOTIFY_WAIT:
		set_value(m, w, c->notify, 0);
		break;
	case HX_T_AICPU:
		if (e)
			e->rel_stream = (int32_t)s;
		release(m, w, m->stream[s].rank, choice, e);
		break;
	case HX_T_KERNEL:
		kernel_apply(m, w, s, c, choice, e);
		return;
	default:
		break;
	}
	advance(m, w, s, choice, e);
}

bool ck_done(const struct ck_model *m, const struct ck_ws *w)
{
	uint32_t r, s;

	for (r = 0; r < m->nranks; r++)
		if (w->pc[r] < nentries(m, r))
			return false;
	for (s = 0; s < m->nstream; s++)
		if (w->head[s] < m->stream[s].len)
			return false;
	return true;
}

/* ---- stubborn sets ---- */

struct ss {
	const struct ck_model *m;
	const struct ck_ws *w;
	uint32_t *mark;             /* per process: generation when added */
	uint32_t gen;
	uint32_t *work;
	size_t nwork;
	uint32_t *en;               /* enabled members */
	size_t nen;
	uint8_t *enabled;           /* per process, this state */
	uint8_t *pool_done;         /* per rank: CK_F_* classes added */
	bool proj;                  /* lockstep: every process read as rank 0's */
};

static void ss_add(struct ss *x, uint32_t proc)
{
	const struct ck_model *m = x->m;
	const struct ck_ws *w = x->w;

	/* an empty stream moves only when its feeder appends: the host, or
	 * the kernel stream K_c (itself perhaps empty: then the host) */
	while (proc >= m->nranks) {
		uint32_t s = proc - m->nranks;
		const struct ck_stream *cs = &m->stream[s];

		if (w->head[s] >= cs->len)
			return;
		if (w->head[s] < w->tail[s])
			break;
		proc = cs->feed == FEED_HOST ? cs->rank : m->nranks + cs->kstream;
	}
	if (proc < m->nranks && w->pc[proc] >= nentries(m, proc))
		return;
	if (x->proj)                        /* alike ranks: rank 0's twin */
		proc = proc < m->nranks ? 0 : m->nranks + m->rs_first[0] +
			(proc - m->nranks - m->rs_first[m->stream[proc - m->nranks].rank]);
	if (x->mark[proc] == x->gen)
		return;
	x->mark[proc] = x->gen;
	x->work[x->nwork++] = proc;
}

/* May stream s still put a core user at its head (mask CK_F_GRAB: an
 * arrival) or give a core back (CK_F_REL)?  A task waiting for a core is
 * not an arrival: it gets its core inside some release step. */
static bool pool_proc(const struct ck_model *m, const struct ck_ws *w,
		      uint32_t s, unsigned mask)
{
	const struct ck_stream *cs = &m->stream[s];
	uint32_t h = w->head[s];

	if (h >= cs->len)
		return false;
	if ((mask & CK_F_GRAB) && cs->grab_last != CK_NONE && h <= cs->grab_last)
		return true;
	if ((mask & CK_F_REL) && cs->rel_last != CK_NONE && h <= cs->rel_last)
		return true;
	return (mask & CK_F_REL) && ck_at(m, s, h)->pool && w->ph[s] >= PH_RUN;
}

/* Every process of rank r that may still do what mask says. */
static void ss_add_pool(struct ss *x, uint32_t r, unsigned mask)
{
	const struct ck_model *m = x->m;
	uint32_t s;

	if ((x->pool_done[r] & mask) == mask)
		return;
	x->pool_done[r] |= (uint8_t)mask;
	if ((mask & CK_F_GRAB) && m->host_grab_last[r] != CK_NONE &&
	    x->w->pc[r] <= m->host_grab_last[r])
		ss_add(x, r);
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
		if (pool_proc(m, x->w, s, mask))
			ss_add(x, m->nranks + s);
}

/* Streams that may still record (rec) or wait on notify n, but not s. */
static void ss_add_users(struct ss *x, int32_t n, uint32_t s, bool rec,
			 bool wait)
{
	const struct ck_model *m = x->m;
	const struct ck_notify *no = &m->notify[n];
	uint32_t i;

	for (i = 0; i < no->nuse; i++) {
		const struct ck_nuse *u = &m->use[no->use_first + i];
		if (u->stream == s || x->w->head[u->stream] > u->last)
			continue;
		if ((u->rec && rec) || (!u->rec && wait))
			ss_add(x, m->nranks + u->stream);
	}
}

static bool other_recorders(const struct ss *x, int32_t n, uint32_t s)
{
	const struct ck_model *m = x->m;
	const struct ck_notify *no = &m->notify[n];
	uint32_t i;

	for (i = 0; i < no->nuse; i++) {
		const struct ck_nuse *u = &m->use[no->use_first + i];
		if (u->rec && u->stream != s && x->w->head[u->stream] <= u->last)
			return true;
	}
	return false;
}

/* What an enabled step may conflict with. */
static void ss_conflicts(struct ss *x, uint32_t proc)
{
	const struct ck_model *m = x->m;
	const struct ck_ws *w = x->w;
	const struct ck_task *c;
	uint32_t s;

	/* arrivals and releases conflict with arrivals only (docs/CHECKER.md);
	 * with a pool that never runs out, with nothing */
	if (proc < m->nranks) {
		if ((entry_of(m, proc, w->pc[proc])->flags & CK_F_GRAB) &&
		    !ck_pool_free(m, w, proc))
			ss_add_pool(x, proc, CK_F_GRAB);
		return;
	}
	s = proc - m->nranks;
	c = ck_at(m, s, w->head[s]);
	if ((c->flags & CK_F_POOL) && !ck_pool_free(m, w, m->stream[s].rank))
		ss_add_pool(x, m->stream[s].rank, CK_F_GRAB);
	if (c->notify < 0 || m->notify[c->notify].bit < 0 ||
	    m->notify[c->notify].o1)
		return;
	if (c->kind == HX_T_NOTIFY_RECORD) {
		if (w->bit[m->notify[c->notify].bit] ||
		    other_recorders(x, c->notify, s))
			ss_add_users(x, c->notify, s, false, true);
	} else if (c->kind == HX_T_NOTIFY_WAIT) {
		ss_add_users(x, c->notify, s, true, true);
	}
}

/* A wait on O1 of a communicator waits for the start of the next kernel
 * on its K_c: a release when that kernel waits for a core, else K_c's
 * own progress. */
static void ss_need_kstart(struct ss *x, int32_t n)
{
	const struct ck_model *m = x->m;
	const struct ck_notify *no = &m->notify[n];
	const struct hx_notify *hn = &m->st.notifies[n];
	uint32_t k;

	k = m->of_hstream[m->st.dev[no->rank].comm[hn->comm].kstream];
	if (x->w->head[k] < m->stream[k].len &&
	    ck_at(m, k, x->w->head[k])->kind == HX_T_KERNEL &&
	    x->w->ph[k] == PH_WAIT)
		ss_add_pool(x, no->rank, CK_F_REL);
	else
		ss_add(x, m->nranks + k);
}

/* What a disabled step waits for (one of these must move first). */
static void ss_needs(struct ss *x, uint32_t proc)
{
	const struct ck_model *m = x->m;
	const struct ck_ws *w = x->w;
	const struct ck_task *c;
	const struct ck_notify *no;
	uint32_t s, r, i;

	if (proc < m->nranks) {
		const struct ck_entry *e = entry_of(m, proc, w->pc[proc]);
		if (e->kind == E_SYNC_STREAM) {
			ss_add(x, m->nranks + e->sync_stream);
		} else if (e->kind == E_SYNC_ALL) {
			for (s = m->rs_first[proc]; s < m->rs_first[proc + 1]; s++)
				if (w->head[s] < w->tail[s]) {
					ss_add(x, m->nranks + s);
					break;
				}
		} else {
			for (i = 0; i < e->nroom; i++)
				if (!room(m, w, e->room_stream[i], e->room_n[i])) {
					ss_add(x, m->nranks + e->room_stream[i]);
					break;
				}
		}
		return;
	}
	s = proc - m->nranks;
	r = m->stream[s].rank;
	c = ck_at(m, s, w->head[s]);
	switch (c->kind) {
	case HX_T_NOTIFY_WAIT:
		no = &m->notify[c->notify];
		if (no->o1)
			ss_need_kstart(x, c->notify);
		else if (no->bit >= 0)
			ss_add_users(x, c->notify, s, true, false);
		else if (no->rec_stream != CK_NONE)
			ss_add(x, m->nranks + no->rec_stream);
		break;
	case HX_T_EVENT_WAIT:
		ss_add(x, m->nranks + c->dep_stream);
		break;
	case HX_T_AICPU:
		ss_add_pool(x, r, CK_F_REL);
		break;
	case HX_T_KERNEL: {
		const struct ck_kern *k = &m->kern[c->kern];
		if (w->ph[s] == PH_WAIT)
			ss_add_pool(x, r, CK_F_REL);
		else if (w->ph[s] == PH_RES || !room(m, w, k->mstream, k->room))
			ss_add(x, m->nranks + k->mstream);
		else
			ss_add(x, m->nranks + k->sstream);
		break;
	}
	default:
		break;
	}
}

/* Close {seed}; returns the number of enabled members. */
static size_t ss_close(struct ss *x, uint32_t seed)
{
	x->gen++;
	memset(x->pool_done, 0, x->m->nranks);
	x->nwork = 0;
	x->nen = 0;
	ss_add(x, seed);
	while (x->nwork > 0) {
		uint32_t p = x->work[--x->nwork];
		if (x->enabled[p]) {
			x->en[x->nen++] = p;
			ss_conflicts(x, p);
		} else {
			ss_needs(x, p);
		}
	}
	return x->nen;
}

static bool pool_step(const struct ck_model *m, const struct ck_ws *w,
		      uint32_t p)
{
	if (p < m->nranks)
		return (entry_of(m, p, w->pc[p])->flags & CK_F_POOL) &&
		       !ck_pool_free(m, w, p);
	p -= m->nranks;
	return (ck_at(m, p, w->head[p])->flags & CK_F_POOL) &&
	       !ck_pool_free(m, w, m->stream[p].rank);
}

static bool grab_step(const struct ck_model *m, const struct ck_ws *w,
		      uint32_t p)
{
	if (p < m->nranks)
		return entry_of(m, p, w->pc[p])->flags & CK_F_GRAB;
	p -= m->nranks;
	return ck_at(m, p, w->head[p])->flags & CK_F_GRAB;
}

static uint32_t proc_rank(const struct ck_model *m, uint32_t p)
{
	return p < m->nranks ? p : m->stream[p - m->nranks].rank;
}

/* The rank to branch in: the furthest along (pc and heads) of those that
 * can move, so the choice does not depend on how the state is rotated
 * and stays on one rank while it moves. */
static uint32_t focus_rank(const struct ck_model *m, const struct ck_ws *w,
			   const uint8_t *enabled)
{
	uint32_t r, s, best = CK_NONE;
	uint64_t bestp = 0;

	for (r = 0; r < m->nranks; r++) {
		uint64_t prog = w->pc[r];
		bool can = enabled[r];

		for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++) {
			prog += w->head[s];
			can = can || enabled[m->nranks + s];
		}
		if (can && (best == CK_NONE || prog > bestp)) {
			best = r;
			bestp = prog;
		}
	}
	return best;
}

/*
 * The steps to take from w: with POR, a lone independent step when there
 * is one (in process order); else the enabled members of the smallest
 * stubborn set seeded in the rank furthest along that can move.  Every choice is
 * sound; keeping to one rank keeps the ranks' independent pool races
 * from multiplying.  Without POR, every enabled step.  In lockstep
 * (x->proj) only rank 0's processes are candidates.
 */
static bool proc_in(const struct ck_model *m, const struct ss *x, uint32_t p)
{
	return !x->proj || p == 0 ||
	       (p >= m->nranks && m->stream[p - m->nranks].rank == 0);
}

static size_t ss_choose(struct ss *x, bool por, uint32_t *out)
{
	const struct ck_model *m = x->m;
	uint32_t p, np = ck_nproc(m), best = CK_NONE, rank = CK_NONE;
	size_t nen = 0, bestn = SIZE_MAX, n;
	bool grab_tried = false;

	for (p = 0; p < np; p++) {
		x->enabled[p] = proc_in(m, x, p) && ck_enabled(m, x->w, p);
		nen += x->enabled[p];
	}
	if (!por || nen <= 1) {
		for (p = 0, n = 0; p < np; p++)
			if (x->enabled[p])
				out[n++] = p;
		return n;
	}
	for (p = 0; p < np; p++) {
		if (!x->enabled[p] || pool_step(m, x->w, p))
			continue;
		if (ss_close(x, p) == 1) {
			out[0] = p;
			return 1;
		}
	}
	rank = focus_rank(m, x->w, x->enabled);
	for (p = 0; p < np; p++) {
		if (!x->enabled[p] || proc_rank(m, p) != rank)
			continue;
		if (grab_step(m, x->w, p) && pool_step(m, x->w, p)) {
			/* every grab seeds the same set: the rank's pool users */
			if (grab_tried)
				continue;
			grab_tried = true;
		}
		if (ss_close(x, p) < bestn) {
			bestn = x->nen;
			best = p;
		}
	}
	n = ss_close(x, best);
	memcpy(out, x->en, n * sizeof *out);
	return n;
}

/* ---- symmetry ---- */

/* The least rotation of a vector of per-rank block ids: out[j] =
 * in[(j + k) % n] for the k returned (the first least). */
static uint32_t canon_ids(uint32_t n, const uint32_t *in, uint32_t *out)
{
	uint32_t k, best = 0, i;

	for (k = 1; k < n; k++) {
		for (i = 0; i < n; i++) {
			uint32_t a = in[(i + k) % n], b = in[(i + best) % n];
			if (a != b) {
				if (a < b)
					best = k;
				break;
			}
		}
	}
	for (i = 0; i < n; i++)
		out[i] = in[(i + best) % n];
	return best;
}

uint32_t ck_rotate_proc(const struct ck_model *m, uint32_t proc, uint32_t k)
{
	uint32_t n = m->nranks, r, s;

	if (!k || proc == CK_NONE)
		return proc;
	if (proc < n)
		return (proc + k) % n;
	s = proc - n;
	r = m->stream[s].rank;
	return n + m->rs_first[(r + k) % n] + (s - m->rs_first[r]);
}

/* ---- rank blocks, stored once (SPIN's COLLAPSE) ---- */

/* A state is kept as one id per rank: the id of the rank's packed block
 * (pc, heads and phases, notify bits) in a table of distinct blocks.  Few
 * rank-local states recombine into many global ones, so a state costs 4
 * bytes per rank instead of its whole block. */
struct btab {
	struct hangdx_ctx *ctx;
	size_t bsz;
	uint8_t *blocks;
	uint64_t *hash;
	size_t n, cap;
	uint32_t *slot;             /* index + 1, 0 empty */
	size_t nslot;
};

static uint64_t state_hash(const void *p, size_t n);

static size_t bt_bytes(const struct btab *t)
{
	return t->cap * (t->bsz + sizeof(uint64_t)) + t->nslot * sizeof(uint32_t);
}

static int bt_grow(struct btab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256, n = cap * 2, i;
	uint32_t *slot;
	void *a, *b;

	a = hx_realloc(t->ctx, t->blocks, cap * t->bsz);
	if (!a)
		return HANGDX_ENOMEM;
	t->blocks = a;
	b = hx_realloc(t->ctx, t->hash, cap * sizeof *t->hash);
	if (!b)
		return HANGDX_ENOMEM;
	t->hash = b;
	slot = hx_calloc(t->ctx, n, sizeof *slot);
	if (!slot)
		return HANGDX_ENOMEM;
	for (i = 0; i < t->n; i++) {
		size_t j;
		for (j = t->hash[i] & (n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = (uint32_t)i + 1;
	}
	hx_free(t->ctx, t->slot);
	t->slot = slot;
	t->nslot = n;
	t->cap = cap;
	return HANGDX_OK;
}

/* The id of a block (added if new); -err on failure. */
static int64_t bt_intern(struct btab *t, const uint8_t *blk)
{
	uint64_t h = state_hash(blk, t->bsz);
	size_t j;
	int err;

	if (t->n == t->cap && (err = bt_grow(t)))
		return -err;
	for (j = h & (t->nslot - 1); t->slot[j]; j = (j + 1) & (t->nslot - 1)) {
		size_t i = t->slot[j] - 1;
		if (t->hash[i] == h && !memcmp(t->blocks + i * t->bsz, blk, t->bsz))
			return (int64_t)i;
	}
	memcpy(t->blocks + t->n * t->bsz, blk, t->bsz);
	t->hash[t->n] = h;
	t->slot[j] = (uint32_t)t->n + 1;
	return (int64_t)t->n++;
}

static void bt_free(struct btab *t)
{
	hx_free(t->ctx, t->blocks);
	hx_free(t->ctx, t->hash);
	hx_free(t->ctx, t->slot);
}

/* ---- the visited set ---- */

struct vset {
	struct hangdx_ctx *ctx;
	size_t sb;                  /* state bytes */
	uint8_t *states;
	uint64_t *hash;
	uint32_t *parent, *proc, *choice;
	uint32_t *rot;              /* rotation that made it canonical */
	size_t n, cap;
	uint32_t *slot;             /* index + 1, 0 empty */
	size_t nslot;
	uint64_t max_memory;
	size_t extra;               /* bytes held elsewhere (block tables) */
};

static uint64_t state_hash(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, v;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&v, b + i, 8);
		h = (h ^ (v * 0xbf58476d1ce4e5b9ULL)) * 0x94d049bb133111ebULL;
		h ^= h >> 31;
	}
	for (v = 0; i < n; i++)
		v = v << 8 | b[i];
	h = (h ^ (v * 0xbf58476d1ce4e5b9ULL)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 29);
}

static size_t vs_bytes(const struct vset *v, size_t cap, size_t nslot)
{
	return cap * (v->sb + sizeof(uint64_t) + 3 * sizeof(uint32_t) +
		      sizeof(uint16_t)) + nslot * sizeof(uint32_t) + v->extra;
}

static int vs_grow_slots(struct vset *v)
{
	size_t n = v->nslot ? v->nslot * 2 : 1024, i;
	uint32_t *s;

	if (vs_bytes(v, v->cap, n) > v->max_memory)
		return HANGDX_ELIMIT;
	s = hx_calloc(v->ctx, n, sizeof *s);
	if (!s)
		return HANGDX_ENOMEM;
	for (i = 0; i < v->n; i++) {
		size_t j;
		for (j = v->hash[i] & (n - 1); s[j]; j = (j + 1) & (n - 1))
			;
		s[j] = (uint32_t)i + 1;
	}
	hx_free(v->ctx, v->slot);
	v->slot = s;
	v->nslot = n;
	return HANGDX_OK;
}

static int vs_grow(struct vset *v)
{
	size_t cap = v->cap ? v->cap * 2 : 1024;
	void *a, *b, *c, *d, *e;

	if (cap > UINT32_MAX - 2)
		return HANGDX_ELIMIT;
	while (vs_bytes(v, cap, v->nslot) > v->max_memory && cap > v->n + 1)
		cap = v->n + (cap - v->n) / 2;
	if (vs_bytes(v, cap, v->nslot) > v->max_memory || cap <= v->n)
		return HANGDX_ELIMIT;
	a = hx_realloc(v->ctx, v->states, cap * v->sb);
	if (!a)
		return HANGDX_ENOMEM;
	v->states = a;
	b = hx_realloc(v->ctx, v->hash, cap * sizeof *v->hash);
	if (!b)
		return HANGDX_ENOMEM;
	v->hash = b;
	c = hx_realloc(v->ctx, v->parent, cap * sizeof *v->parent);
	if (!c)
		return HANGDX_ENOMEM;
	v->parent = c;
	d = hx_realloc(v->ctx, v->proc, cap * sizeof *v->proc);
	if (!d)
		return HANGDX_ENOMEM;
	v->proc = d;
	e = hx_realloc(v->ctx, v->choice, cap * sizeof *v->choice);
	if (!e)
		return HANGDX_ENOMEM;
	v->choice = e;
	e = hx_realloc(v->ctx, v->rot, cap * sizeof *v->rot);
	if (!e)
		return HANGDX_ENOMEM;
	v->rot = e;
	v->cap = cap;
	return HANGDX_OK;
}

/* Insert a packed state; 1 if new, 0 if seen, < 0 on error (-err). */
static int vs_insert(struct vset *v, const void *st, uint32_t parent,
		     uint32_t proc, uint32_t choice, uint32_t rot)
{
	uint64_t h = state_hash(st, v->sb);
	size_t j;
	int err;

	if ((v->n + 1) * 2 > v->nslot && (err = vs_grow_slots(v)))
		return -err;
	for (j = h & (v->nslot - 1); v->slot[j]; j = (j + 1) & (v->nslot - 1)) {
		size_t i = v->slot[j] - 1;
		if (v->hash[i] == h && !memcmp(v->states + i * v->sb, st, v->sb))
			return 0;
	}
	if (v->n == v->cap && (err = vs_grow(v)))
		return -err;
	memcpy(v->states + v->n * v->sb, st, v->sb);
	v->hash[v->n] = h;
	v->parent[v->n] = parent;
	v->proc[v->n] = proc;
	v->choice[v->n] = choice;
	v->rot[v->n] = rot;
	v->slot[j] = (uint32_t)++v->n;
	return 1;
}

static void vs_free(struct vset *v)
{
	hx_free(v->ctx, v->states);
	hx_free(v->ctx, v->hash);
	hx_free(v->ctx, v->parent);
	hx_free(v->ctx, v->proc);
	hx_free(v->ctx, v->choice);
	hx_free(v->ctx, v->rot);
	hx_free(v->ctx, v->slot);
}

/* ---- the search ---- */

struct search {
	struct ck_model *m;
	struct vset vs;
	struct ss ss;
	struct ck_ws cur, nxt;
	uint8_t *pk;                /* a packed state (every rank's block) */
	uint32_t *ids, *cid;        /* its block ids, and rotated */
	uint32_t *cur_ids;          /* block ids unpacked in cur, UINT32_MAX none */
	uint32_t *base;             /* block ids of the state being expanded */
	struct btab *bt;            /* one table, or one per rank */
	uint32_t nbt;
	uint32_t *steps;            /* chosen processes */
	uint32_t *waiters;
	bool por, sym;
	bool lockstep;              /* every rank takes the same step */
};

static int search_init(struct search *x, struct ck_model *m, uint64_t max_memory,
		       bool por, bool sym)
{
	uint32_t np = ck_nproc(m);

	memset(x, 0, sizeof *x);
	x->m = m;
	x->por = por;
	x->sym = sym;
	x->vs.ctx = m->ctx;
	x->vs.sb = (size_t)m->nranks * sizeof(uint32_t);
	x->vs.max_memory = max_memory;
	x->ss.m = m;
	x->ss.w = &x->cur;
	x->ss.mark = hx_calloc(m->ctx, np + 1, sizeof *x->ss.mark);
	x->ss.work = hx_calloc(m->ctx, np + 1, sizeof *x->ss.work);
	x->ss.en = hx_calloc(m->ctx, np + 1, sizeof *x->ss.en);
	x->ss.enabled = hx_calloc(m->ctx, np + 1, 1);
	x->ss.pool_done = hx_calloc(m->ctx, m->nranks + 1, 1);
	x->pk = hx_calloc(m->ctx, m->state_bytes + 8, 1);
	x->ids = hx_calloc(m->ctx, m->nranks + 1, sizeof *x->ids);
	x->cid = hx_calloc(m->ctx, m->nranks + 1, sizeof *x->cid);
	x->cur_ids = hx_calloc(m->ctx, m->nranks + 1, sizeof *x->cur_ids);
	x->base = hx_calloc(m->ctx, m->nranks + 1, sizeof *x->base);
	x->nbt = m->symmetric ? 1 : m->nranks;
	x->bt = hx_calloc(m->ctx, x->nbt, sizeof *x->bt);
	if (x->bt) {
		uint32_t r, wb = m->w16 ? 2 : 4;
		for (r = 0; r < x->nbt; r++) {
			x->bt[r].ctx = m->ctx;
			x->bt[r].bsz = (size_t)(m->blk_first[r + 1] -
						m->blk_first[r]) * wb;
		}
	}
	x->steps = hx_calloc(m->ctx, np + 1, sizeof *x->steps);
	x->waiters = hx_calloc(m->ctx, m->nstream + 1, sizeof *x->waiters);
	if (!x->ss.mark || !x->ss.work || !x->ss.en || !x->ss.enabled ||
	    !x->ss.pool_done || !x->pk || !x->ids || !x->cid || !x->bt ||
	    !x->cur_ids || !x->base ||
	    !x->steps || !x->waiters)
		return HANGDX_ENOMEM;
	if (ck_ws_alloc(m, &x->cur) || ck_ws_alloc(m, &x->nxt))
		return HANGDX_ENOMEM;
	return HANGDX_OK;
}

static void search_free(struct search *x)
{
	struct hangdx_ctx *ctx = x->m->ctx;

	vs_free(&x->vs);
	hx_free(ctx, x->ss.mark);
	hx_free(ctx, x->ss.work);
	hx_free(ctx, x->ss.en);
	hx_free(ctx, x->ss.enabled);
	hx_free(ctx, x->ss.pool_done);
	hx_free(ctx, x->pk);
	hx_free(ctx, x->ids);
	hx_free(ctx, x->cid);
	hx_free(ctx, x->cur_ids);
	hx_free(ctx, x->base);
	if (x->bt) {
		uint32_t r;
		for (r = 0; r < x->nbt; r++)
			bt_free(&x->bt[r]);
	}
	hx_free(ctx, x->bt);
	hx_free(ctx, x->steps);
	hx_free(ctx, x->waiters);
	ck_ws_free(x->m, &x->cur);
	ck_ws_free(x->m, &x->nxt);
}

static size_t blk_off(const struct ck_model *m, uint32_t r)
{
	return (size_t)m->blk_first[r] * (m->w16 ? 2 : 4);
}

/* Pack w as block ids (interning new blocks), least rotation, insert. */
/* Intern rank r's block of w as x->ids[r]. */
static int intern_rank(struct search *x, const struct ck_ws *w, uint32_t r)
{
	const struct ck_model *m = x->m;
	int64_t id;

	pack_rank(m, w, r, x->pk);
	id = bt_intern(&x->bt[x->nbt == 1 ? 0 : r], x->pk + blk_off(m, r));
	if (id < 0)
		return (int)id;
	x->ids[r] = (uint32_t)id;
	return 0;
}

/* Pack w as block ids (interning new blocks), least rotation, insert.
 * With base, w differs from the state whose ids base holds only in the
 * ranks touched[0..ntouched): only those are packed again. */
static int add_state(struct search *x, const struct ck_ws *w, uint32_t parent,
		     uint32_t proc, uint32_t choice, const uint32_t *base,
		     const uint32_t *touched, uint32_t ntouched)
{
	const struct ck_model *m = x->m;
	uint32_t r, k = 0;
	size_t before = 0, after = 0;
	int rc;

	for (r = 0; r < x->nbt; r++)
		before += bt_bytes(&x->bt[r]);
	if (base) {
		memcpy(x->ids, base, m->nranks * sizeof *x->ids);
		for (r = 0; r < ntouched; r++)
			if ((rc = intern_rank(x, w, touched[r])))
				return rc;
	} else {
		for (r = 0; r < m->nranks; r++)
			if ((rc = intern_rank(x, w, r)))
				return rc;
	}
	for (r = 0; r < x->nbt; r++)
		after += bt_bytes(&x->bt[r]);
	x->vs.extra += after - before;
	if (x->sym)
		k = canon_ids(m->nranks, x->ids, x->cid);
	else
		memcpy(x->cid, x->ids, m->nranks * sizeof *x->cid);
	if (vs_bytes(&x->vs, x->vs.cap, x->vs.nslot) > x->vs.max_memory)
		return -HANGDX_ELIMIT;
	return vs_insert(&x->vs, x->cid, parent, proc, choice, k);
}

/* Unpack stored state i into x->cur: only the ranks whose block differs
 * from what cur holds (every derived value is rank-local). */
static void get_state(struct search *x, size_t i)
{
	const struct ck_model *m = x->m;
	const uint32_t *ids = (const uint32_t *)(x->vs.states + i * x->vs.sb);
	uint32_t r;

	for (r = 0; r < m->nranks; r++) {
		const struct btab *t = &x->bt[x->nbt == 1 ? 0 : r];
		if (x->cur_ids[r] == ids[r])
			continue;
		memcpy(x->pk + blk_off(m, r), t->blocks + (size_t)ids[r] * t->bsz,
		       t->bsz);
		unpack_rank(m, x->pk, &x->cur, r);
		x->cur_ids[r] = ids[r];
	}
	memcpy(x->base, ids, m->nranks * sizeof *x->base);
}

/* The ranks whose blocks proc's step can change: its own, and the owner
 * of a notify with a state bit it records or waits on. */
static uint32_t touched_ranks(const struct ck_model *m, const struct ck_ws *w,
			      uint32_t proc, uint32_t *out)
{
	uint32_t s, n = 1;
	const struct ck_task *c;

	if (proc < m->nranks) {
		out[0] = proc;
		return 1;
	}
	s = proc - m->nranks;
	out[0] = m->stream[s].rank;
	c = ck_at(m, s, w->head[s]);
	if (c->notify >= 0 && m->notify[c->notify].bit >= 0 &&
	    m->notify[c->notify].rank != out[0])
		out[n++] = m->notify[c->notify].rank;
	return n;
}

/* Every successor of state i by proc (one per waiter a release may pick). */
static int successors(struct search *x, uint32_t i, uint32_t proc,
		      uint64_t *ntrans)
{
	const struct ck_model *m = x->m;
	struct ck_effect e;
	uint32_t nw = 0, s, r, k, touched[2], nt;
	int rc;

	nt = touched_ranks(m, &x->cur, proc, touched);
	ck_ws_copy(m, &x->nxt, &x->cur);
	ck_apply(m, &x->nxt, proc, CK_NONE, &e);
	(*ntrans)++;
	rc = add_state(x, &x->nxt, i, proc, CK_NONE, x->base, touched, nt);
	if (rc < 0 || e.nchoices < 2)
		return rc < 0 ? rc : 0;
	r = proc < m->nranks ? proc : m->stream[proc - m->nranks].rank;
	for (s = m->rs_first[r]; s < m->rs_first[r + 1]; s++)
		if (x->cur.ph[s] == PH_WAIT)
			x->waiters[nw++] = s;
	for (k = 1; k < nw; k++) {
		ck_ws_copy(m, &x->nxt, &x->cur);
		ck_apply(m, &x->nxt, proc, x->waiters[k], NULL);
		(*ntrans)++;
		rc = add_state(x, &x->nxt, i, proc, x->waiters[k], x->base,
			       touched, nt);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- lockstep: the ranks of a symmetric program move together ---- */

/* Apply rank 0's proc (and choice) on every rank, in rank order.  From a
 * state where all ranks are alike each application is enabled when it
 * comes (a peer wait of rank r needs rank r - 1's record, already made),
 * and the result is alike again: one step of a real execution per rank. */
static void lock_apply(const struct ck_model *m, struct ck_ws *w,
		       uint32_t proc, uint32_t choice)
{
	uint32_t r;

	for (r = 0; r < m->nranks; r++)
		ck_apply(m, w, ck_rotate_proc(m, proc, r),
			 choice == CK_NONE ? CK_NONE :
			 ck_rotate_proc(m, m->nranks + choice, r) - m->nranks,
			 NULL);
}

static size_t lock_choose(struct search *x, uint32_t *out)
{
	const struct ck_model *m = x->m;
	uint32_t s;
	size_t n = 0;

	if (ck_enabled(m, &x->cur, 0))
		out[n++] = 0;
	for (s = m->rs_first[0]; s < m->rs_first[1]; s++)
		if (ck_enabled(m, &x->cur, m->nranks + s))
			out[n++] = m->nranks + s;
	return n;
}

static int lock_successors(struct search *x, uint32_t i, uint32_t proc,
			   uint64_t *ntrans)
{
	const struct ck_model *m = x->m;
	struct ck_effect e;
	uint32_t nw = 0, s, k;
	int rc;

	ck_ws_copy(m, &x->nxt, &x->cur);
	ck_apply(m, &x->nxt, proc, CK_NONE, &e);   /* probe the choices */
	for (s = m->rs_first[0]; s < m->rs_first[1]; s++)
		if (x->cur.ph[s] == PH_WAIT)
			x->waiters[nw++] = s;
	if (e.nchoices < 2)
		nw = 1;
	for (k = 0; k < nw; k++) {
		uint32_t ch = e.nchoices < 2 ? CK_NONE : x->waiters[k];
		ck_ws_copy(m, &x->nxt, &x->cur);
		lock_apply(m, &x->nxt, proc, ch);
		(*ntrans)++;
		rc = add_state(x, &x->nxt, i, proc, ch, NULL, NULL, 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int path_out(struct search *x, uint32_t i, struct ck_result *r)
{
	const struct ck_model *m = x->m;
	size_t n = 0, k, per = x->lockstep ? m->nranks : 1;
	uint32_t j, q;

	for (j = i; j != 0; j = x->vs.parent[j])
		n++;
	r->path_proc = hx_calloc(m->ctx, n * per + 1, sizeof *r->path_proc);
	r->path_choice = hx_calloc(m->ctx, n * per + 1, sizeof *r->path_choice);
	r->path_rot = hx_calloc(m->ctx, n * per + 1, sizeof *r->path_rot);
	if (!r->path_proc || !r->path_choice || !r->path_rot)
		return HANGDX_ENOMEM;
	for (j = i, k = n; j != 0; j = x->vs.parent[j]) {
		k--;
		for (q = 0; q < per; q++) {
			uint32_t c = x->vs.choice[j];
			/* a lockstep step is one step per rank, in rank order */
			r->path_proc[k * per + q] = ck_rotate_proc(m, x->vs.proc[j], q);
			r->path_choice[k * per + q] = c == CK_NONE ? CK_NONE :
				ck_rotate_proc(m, m->nranks + c, q) - m->nranks;
		}
		r->path_rot[k * per + per - 1] = x->lockstep ? 0 : x->vs.rot[j];
	}
	r->npath = n * per;
	r->real_frame = x->lockstep;
	r->lockstep = x->lockstep;
	return HANGDX_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bfs(struct search *x, uint64_t max_states, struct ck_result *r)
{
	const struct ck_model *m = x->m;
	size_t i, n, k;
	int rc;

	ck_ws_init(m, &x->cur);
	memset(x->cur_ids, 0xff, m->nranks * sizeof *x->cur_ids);
	rc = add_state(x, &x->cur, 0, CK_NONE, CK_NONE, NULL, NULL, 0);
	if (rc == -HANGDX_ELIMIT)
		goto undecided;
	if (rc < 0)
		return -rc;
	for (i = 0; i < x->vs.n; i++) {
		get_state(x, i);
		n = x->lockstep && !x->por ? lock_choose(x, x->steps)
					    : ss_choose(&x->ss, x->por, x->steps);
		if (n == 0) {
			if (ck_done(m, &x->cur))
				continue;
			r->verdict = -1;      /* stuck: witness.c classifies */
			return path_out(x, (uint32_t)i, r);
		}
		for (k = 0; k < n; k++) {
			rc = x->lockstep
				? lock_successors(x, (uint32_t)i, x->steps[k],
						  &r->transitions)
				: successors(x, (uint32_t)i, x->steps[k],
					     &r->transitions);
			if (rc == -HANGDX_ELIMIT)
				goto undecided;
			if (rc < 0)
				return -rc;
		}
		if (max_states && x->vs.n > max_states)
			goto undecided;
	}
	return HANGDX_OK;
undecided:
	r->verdict = -2;
	return HANGDX_OK;
}

int ck_explore_abstract(struct ck_model *m, uint64_t max_states,
			uint64_t max_memory, bool symmetry, struct ck_result *r)
{
	int err;

	m->abstract = true;
	err = ck_explore(m, max_states, max_memory, true, symmetry, false, r);
	m->abstract = false;
	if (!err && r->verdict == -1) {         /* no witness from here */
		hx_free(m->ctx, r->path_proc);
		hx_free(m->ctx, r->path_choice);
		hx_free(m->ctx, r->path_rot);
		r->path_proc = r->path_choice = r->path_rot = NULL;
		r->npath = 0;
	}
	return err;
}

int ck_explore(struct ck_model *m, uint64_t max_states, uint64_t max_memory,
	       bool por, bool symmetry, bool lockstep, struct ck_result *r)
{
	struct search x;
	double t0 = now_s();
	int err;

	memset(r, 0, sizeof *r);
	err = search_init(&x, m, max_memory, por, symmetry && m->symmetric);
	x.lockstep = lockstep && m->symmetric;
	x.ss.proj = x.lockstep;
	if (!err)
		err = bfs(&x, max_states, r);
	r->states = x.vs.n;
	r->seconds = now_s() - t0;
	search_free(&x);
	return err;
}

void ck_result_free(struct hangdx_ctx *ctx, struct ck_result *r)
{
	hx_free(ctx, r->path_proc);
	hx_free(ctx, r->path_choice);
	hx_free(ctx, r->path_rot);
	memset(r, 0, sizeof *r);
}
