/*
 * attrib.c - which node, rank, device and process each record belongs to.
 * Facts come from the path (worker-N/, node-N/, rank-N/, device-N/, file
 * names plog-PID_TS.log and device-PID_TS.log, whose pid is the host
 * process even in device logs), from the record itself (rankId, deviceId,
 * device_id), from the launcher prefix of a console line ([rankN]:,
 * worker-1:, see console_attr) and from the communicator creation lines
 * of the same process (rank[r] of a group, deviceLogicId).  Resolved after reading, so that an
 * init line in run/plog attributes an error in debug/plog, and after
 * merging, so evidence read on other machines counts too.  When the facts
 * disagree, the answer is "ambiguous", never a guess.
 */
#include <stdlib.h>
#include <string.h>
#include "ingest.h"

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

/* Digits at s; returns the count (0 if none), value in *v. */
static size_t num_at(const char *s, size_t n, int64_t *v)
{
	size_t i = 0;
	int64_t x = 0;

	while (i < n && is_digit((unsigned char)s[i]) && i < 12)
		x = x * 10 + (s[i++] - '0');
	*v = x;
	return i;
}

static bool word_start(const char *comp, const char *p)
{
	return p == comp || p[-1] == '-' || p[-1] == '_' || p[-1] == '.';
}

/* "rank-3", "rank_77", "rank3" inside a component. */
static void comp_rank(const char *c, size_t n, struct hx_pathattr *pa)
{
	const char *p = c, *end = c + n;

	while ((p = hx_find(p, (size_t)(end - p), "rank")) != NULL) {
		const char *q = p + 4;
		int64_t v;
		size_t k;

		if (q < end && (*q == '-' || *q == '_'))
			q++;
		k = num_at(q, (size_t)(end - q), &v);
		if (k && word_start(c, p) &&
		    (q + k == end || q[k] == '-' || q[k] == '_' || q[k] == '.')) {
			pa->rank = v;
			return;
		}
		p += 4;
	}
}

static bool prefix_num(const char *c, size_t n, const char *pre,
		       int64_t *v, size_t *k)
{
	size_t m = strlen(pre);

	if (n <= m || memcmp(c, pre, m) != 0)
		return false;
	*k = num_at(c + m, n - m, v);
	return *k > 0;
}

/* "10.0.0.12", "10.0.0.12_logs": a dotted quad at the start. */
static bool ipv4_at(const char *c, size_t n)
{
	size_t i = 0, part, k;
	int64_t v;

	for (part = 0; part < 4; part++) {
		k = num_at(c + i, n - i, &v);
		if (k == 0 || k > 3 || v > 255)
			return false;
		i += k;
		if (part < 3) {
			if (i >= n || c[i] != '.')
				return false;
			i++;
		}
	}
	return i == n || c[i] == '_' || c[i] == '-';
}

/* A directory named after a node: worker-N, node-N, host-N, server-N
 * (with '-' or '_'), workerN, nodeN, w_N, or an IPv4 address. */
static bool node_dir(const char *c, size_t n)
{
	static const char *const pre[] = {
		"worker-", "worker_", "node-", "node_", "host-", "host_",
		"server-", "server_", "w_", "worker", "node"
	};
	size_t i, k;
	int64_t v;

	for (i = 0; i < HX_ARRAY_LEN(pre); i++) {
		size_t m = strlen(pre[i]);

		if (prefix_num(c, n, pre[i], &v, &k) &&
		    (m + k == n || c[m + k] == '-' || c[m + k] == '_' ||
		     c[m + k] == '.'))
			return true;
	}
	return ipv4_at(c, n);
}

static void comp_attr(const char *path, const char *c, size_t n, bool last,
		      struct hx_pathattr *pa)
{
	int64_t v, v2;
	size_t k;
	const char *d;

	comp_rank(c, n, pa);
	if (!last) {
		if (prefix_num(c, n, "device-", &v, &k) && k + 7 == n) {
			pa->device = v;
			pa->device_log = true;
		} else if (prefix_num(c, n, "device-app-", &v, &k)) {
			pa->pid = v;
			pa->device_log = true;
		}
		if (node_dir(c, n)) {
			/* the path through the node directory: unique even
			 * when several jobs use "worker-0" */
			const char *from = path;
			size_t m = (size_t)(c + n - path);

			if (m >= sizeof pa->node) {
				from = c;
				m = n < sizeof pa->node ? n : 0;
			}
			memcpy(pa->node, from, m);
			pa->node[m] = '\0';
		}
		return;
	}
	/* file names */
	if (prefix_num(c, n, "plog-parser-", &v, &k) ||
	    prefix_num(c, n, "plog-", &v, &k))
		pa->pid = v;
	else if (prefix_num(c, n, "device-app-", &v, &k) ||
		 (prefix_num(c, n, "device-", &v, &k) && c[7 + k] == '_' &&
		  num_at(c + 8 + k, n - 8 - k, &v2))) {
		pa->pid = v;
		pa->device_log = true;
	}
	/* "...-rank-0-device-0.txt" */
	d = hx_find(c, n, "-device-");
	if (d && num_at(d + 8, n - (size_t)(d + 8 - c), &v) &&
	    !(d[8 + num_at(d + 8, n - (size_t)(d + 8 - c), &v2)] == '_'))
		pa->device = v;
}

void hx_path_attr(const char *path, struct hx_pathattr *pa)
{
	const char *p = path, *e;

	memset(pa, 0, sizeof *pa);
	pa->rank = pa->device = pa->pid = -1;
	while (*p) {
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (e > p)
			comp_attr(path, p, (size_t)(e - p), *e == '\0', pa);
		p = *e ? e + 1 : e;
	}
}

/* ---- the process table ---- */

struct proc {
	char node[64];
	int64_t pid;
	int64_t rank, device;   /* -1 none, -2 conflicting */
	uint32_t group[8];      /* groups with their rank */
	int64_t grank[8];
	size_t ngroup;
};

struct vattr {
	uint32_t id;
	struct hx_pathattr pa;
};

struct hx_attrib {
	const struct hangdx_evidence *ev;
	struct vattr *va;
	size_t nva;
	struct proc *procs;
	size_t nproc;
	/* the last look-ups of hx_attrib_rec: records come file by file */
	uint32_t last_vpath;
	const struct hx_pathattr *last_pa;
	bool have_last;
	int64_t last_pid;
	const struct proc *last_proc;
};

static int va_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct vattr *)a)->id, y = ((const struct vattr *)b)->id;

	return x < y ? -1 : x > y;
}

static const struct hx_pathattr *vattr_of(const struct hx_attrib *at,
					  uint32_t id)
{
	struct vattr key, *f;

	key.id = id;
	f = bsearch(&key, at->va, at->nva, sizeof *at->va, va_cmp);
	return f ? &f->pa : NULL;
}

static int proc_cmp(const void *a, const void *b)
{
	const struct proc *x = a, *y = b;
	int c = strcmp(x->node, y->node);

	if (c)
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The process a record belongs to: the pid in the file name when it has
 * one (plog-PID_..., device-PID_..., whose pid is the host process even
 * for device-side lines), else the pid of the line. */
static int64_t rec_pid(const struct hx_rec *r, const struct hx_pathattr *pa)
{
	if (pa && pa->pid >= 0)
		return pa->pid;
	return r->pid != HX_NONE ? r->pid : -1;
}

static int64_t field_num(const struct hangdx_evidence *ev,
			 const struct hx_rec *r, int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	return f ? f->num : -1;
}

static void merge_val(int64_t *dst, int64_t v)
{
	if (v < 0)
		return;
	if (*dst == -1)
		*dst = v;
	else if (*dst != v)
		*dst = -2;
}

static int id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The attributes of every distinct vpath: sorted ids first (4 bytes a
 * record), then one entry per distinct path. */
static int collect_vpaths(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	uint32_t *ids = hx_calloc(ev->ctx, ev->nrec + 1, sizeof *ids);
	size_t i, m = 0;

	if (!ids)
		return HANGDX_ENOMEM;
	for (i = 0; i < ev->nrec; i++)
		ids[i] = ev->recs[i].vpath;
	qsort(ids, ev->nrec, sizeof *ids, id_cmp);
	for (i = 0; i < ev->nrec; i++)
		if (!m || ids[m - 1] != ids[i])
			ids[m++] = ids[i];
	at->va = hx_calloc(ev->ctx, m + 1, sizeof *at->va);
	if (!at->va) {
		hx_free(ev->ctx, ids);
		return HANGDX_ENOMEM;
	}
	for (i = 0; i < m; i++) {
		at->va[i].id = ids[i];
		hx_path_attr(hx_ev_str(ev, ids[i]), &at->va[i].pa);
	}
	at->nva = m;
	hx_free(ev->ctx, ids);
	return HANGDX_OK;
}

const struct hx_pathattr *hx_attrib_vpath(const struct hx_attrib *at,
					  uint32_t id)
{
	return vattr_of(at, id);
}

static int collect_procs(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	size_t i, m = 0, n = 0;

	for (i = 0; i < ev->nrec; i++)
		n += ev->recs[i].kind == HX_K_COMM_INIT;
	at->procs = hx_calloc(ev->ctx, n + 1, sizeof *at->procs);
	if (!at->procs)
		return HANGDX_ENOMEM;
	for (i = 0; i < ev->nrec; i++) {
		const struct hx_rec *r = &ev->recs[i];
		const struct hx_pathattr *pa = vattr_of(at, r->vpath);
		struct proc *p = &at->procs[m];

		if (r->kind != HX_K_COMM_INIT)
			continue;
		memset(p, 0, sizeof *p);
		if (pa)
			memcpy(p->node, pa->node, sizeof p->node);
		p->pid = rec_pid(r, pa);
		p->rank = field_num(ev, r, HX_F_LOCAL_RANK);
		p->device = field_num(ev, r, HX_F_DEVICE_ID);
		if (hx_rec_field(ev, r, HX_F_GROUP) && p->rank >= 0) {
			p->group[0] = hx_rec_field(ev, r, HX_F_GROUP)->str;
			p->grank[0] = p->rank;
			p->ngroup = 1;
		}
		if (p->rank >= 0 || p->device >= 0)
			m++;
	}
	qsort(at->procs, m, sizeof *at->procs, proc_cmp);
	n = 0;
	for (i = 0; i < m; i++) {       /* fold records of one process */
		struct proc *d, *src = &at->procs[i];
		size_t g, h;

		if (n == 0 || proc_cmp(&at->procs[n - 1], src) != 0) {
			if (n != i)
				at->procs[n] = *src;
			n++;
			continue;
		}
		d = &at->procs[n - 1];
		merge_val(&d->rank, src->rank);
		merge_val(&d->device, src->device);
		for (g = 0; g < src->ngroup; g++) {
			for (h = 0; h < d->ngroup; h++)
				if (d->group[h] == src->group[g])
					break;
			if (h < d->ngroup && d->grank[h] != src->grank[g])
				d->grank[h] = -2;       /* two ranks: conflict */
			if (h == d->ngroup && d->ngroup < 8) {
				d->group[d->ngroup] = src->group[g];
				d->grank[d->ngroup++] = src->grank[g];
			}
		}
	}
	at->nproc = n;
	return HANGDX_OK;
}

int hx_attrib_build(const struct hangdx_evidence *ev, struct hx_attrib **out)
{
	struct hx_attrib *at = hx_calloc(ev->ctx, 1, sizeof *at);
	int err;

	*out = NULL;
	if (!at)
		return HANGDX_ENOMEM;
	at->ev = ev;
	err = collect_vpaths(at);
	if (!err)
		err = collect_procs(at);
	if (err) {
		hx_attrib_free(ev, at);
		return err;
	}
	*out = at;
	return HANGDX_OK;
}

void hx_attrib_free(const struct hangdx_evidence *ev, struct hx_attrib *at)
{
	if (!at)
		return;
	hx_free(ev->ctx, at->va);
	hx_free(ev->ctx, at->procs);
	hx_free(ev->ctx, at);
}

static const struct proc *proc_of(const struct hx_attrib *at,
				  const char *node, int64_t pid)
{
	struct proc key;

	if (pid < 0 || !at->nproc)
		return NULL;
	memset(&key, 0, sizeof key);
	snprintf(key.node, sizeof key.node, "%s", node);
	key.pid = pid;
	return bsearch(&key, at->procs, at->nproc, sizeof *at->procs,
		       proc_cmp);
}

/* The group a record names: group:[...] or the identifier in its tag. */
static int64_t rank_in_group(const struct hx_attrib *at, const struct proc *p,
			     const struct hx_rec *r)
{
	const struct hangdx_evidence *ev = at->ev;
	const struct hx_field *g = hx_rec_field(ev, r, HX_F_GROUP);
	const struct hx_field *t = hx_rec_field(ev, r, HX_F_TAG);
	const char *tag = t ? hx_ev_str(ev, t->str) : NULL;
	size_t i;

	for (i = 0; i < p->ngroup; i++) {
		const char *gs = hx_ev_str(ev, p->group[i]);

		if ((g && g->str == p->group[i]) ||
		    (tag && gs && *gs && strstr(tag, gs)))
			return p->grank[i];
	}
	return -1;
}

/* The rank the process has in the record's group, or its only rank. */
static int64_t init_rank(const struct hx_attrib *at, const struct proc *p,
			 const struct hx_rec *r)
{
	int64_t v;

	if (!p)
		return -1;
	v = rank_in_group(at, p, r);
	if (v >= 0 || v == -2)
		return v;
	return p->rank >= 0 ? p->rank : -1;
}

static void resolve_rank(struct hx_attrib *at, const struct hx_rec *r,
			 const struct hx_pathattr *pa, const struct proc *p,
			 struct hx_attr *a)
{
	int64_t rec = r->kind == HX_K_LINK_ERROR
			      ? -1 : field_num(at->ev, r, HX_F_LOCAL_RANK);
	int64_t ini = init_rank(at, p, r);

	if (pa && pa->rank >= 0) {
		a->rank = pa->rank;
		a->rank_from = "path";
	} else if (ini == -2 || (rec >= 0 && ini >= 0 && rec != ini)) {
		a->rank_from = "ambiguous";
	} else if (rec >= 0) {
		a->rank = rec;
		a->rank_from = "record";
	} else if (ini >= 0) {
		a->rank = ini;
		a->rank_from = "init";
	} else if (p && p->rank == -2) {
		a->rank_from = "ambiguous";
	}
}

static void resolve_device(struct hx_attrib *at, const struct hx_rec *r,
			   const struct hx_pathattr *pa, const struct proc *p,
			   struct hx_attr *a)
{
	int64_t cand[3], v = -1;
	const char *from[3] = { "record", "path", "init" };
	int i, first = -1;

	cand[0] = r->kind == HX_K_LINK_ERROR
			  ? -1 : field_num(at->ev, r, HX_F_DEVICE_ID);
	cand[1] = pa ? pa->device : -1;
	cand[2] = p ? p->device : -1;
	for (i = 0; i < 3; i++) {
		if (cand[i] < 0)
			continue;
		if (first < 0) {
			first = i;
			v = cand[i];
		} else if (cand[i] != v) {
			a->device_from = "ambiguous";
			return;
		}
	}
	if (first >= 0) {
		a->device = v;
		a->device_from = from[first];
	} else if (p && p->device == -2) {
		a->device_from = "ambiguous";
	}
}

/*
 * The console envelope as a source (reader.c stamps console_rank,
 * console_pid, console_node on the records of a prefixed line).  A
 * "[rankN]:" or "[job,N]<stderr>:" prefix names the GLOBAL rank of the
 * process that printed the line: as strong as a rank-N/ path, stronger
 * than a communicator rank in the record or its init lines; it and a
 * rank-N/ path that disagree make the rank ambiguous.  A "worker-1:" or
 * Ray "ip=" prefix names the node when the path does not.
 */
static void console_attr(struct hx_attrib *at, const struct hx_rec *r,
			 const struct hx_pathattr *pa, struct hx_attr *a)
{
	const struct hangdx_evidence *ev = at->ev;
	const struct hx_field *rk = hx_rec_field(ev, r, HX_F_CONSOLE_RANK);
	const struct hx_field *nd = hx_rec_field(ev, r, HX_F_CONSOLE_NODE);

	if (rk && rk->num >= 0) {
		if (pa && pa->rank >= 0 && pa->rank != rk->num) {
			a->rank = -1;
			a->rank_from = "ambiguous";
		} else if (!(pa && pa->rank >= 0)) {
			a->rank = rk->num;
			a->rank_from = "console";
		}
	}
	if (nd && !a->node)
		a->node = hx_ev_str(ev, nd->str);
}

/* The pid of a console line that prints none itself: the launcher's. */
static int64_t console_pid(const struct hx_attrib *at, const struct hx_rec *r)
{
	const struct hx_field *f = hx_rec_field(at->ev, r, HX_F_CONSOLE_PID);

	return f ? f->num : -1;
}

void hx_attrib_rec(struct hx_attrib *at, const struct hx_rec *r,
		   struct hx_attr *a)
{
	const struct hx_pathattr *pa;
	const struct proc *p;
	int64_t pid;

	if (!at->have_last || at->last_vpath != r->vpath) {
		at->last_pa = vattr_of(at, r->vpath);
		at->last_vpath = r->vpath;
		at->last_pid = INT64_MIN;
		at->have_last = true;
	}
	pa = at->last_pa;
	memset(a, 0, sizeof *a);
	a->rank = a->device = -1;
	if (pa && pa->node[0])
		a->node = pa->node;
	pid = rec_pid(r, pa);
	if (pid < 0)
		pid = console_pid(at, r);
	if (pid != at->last_pid) {
		at->last_proc = proc_of(at, pa ? pa->node : "", pid);
		at->last_pid = pid;
	}
	p = at->last_proc;
	resolve_rank(at, r, pa, p, a);
	resolve_device(at, r, pa, p, a);
	console_attr(at, r, pa, a);
}
