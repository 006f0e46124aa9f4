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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingest.h"
#include "../core/thresholds.h"

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

static bool ieq(const char *s, const char *lit, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((s[i] | 0x20) != lit[i])
			return false;
	return true;
}

/* "rank-7", "rank_7", "rank7" as a whole component, or as the stem of a
 * file name ("rank_7.log", "rank-7.tar.gz!"); "-rank-N-device-M" in a
 * ModelArts console file name.  "bundle-rank7", "exp_rank64" do not
 * count: a rank inside a longer name is part of some other name. */
static void comp_rank(const char *c, size_t n, struct hx_pathattr *pa)
{
	const char *dot = memchr(c, '.', n), *q, *d;
	size_t stem = dot ? (size_t)(dot - c) : n, k;
	int64_t v, v2;

	if (stem == n && n && c[n - 1] == '!')
		stem--;                 /* "rank-7!/..." (an archive member) */
	if (stem > 4 && ieq(c, "rank", 4)) {
		q = c + 4 + (c[4] == '-' || c[4] == '_');
		k = num_at(q, (size_t)(c + stem - q), &v);
		if (k && q + k == c + stem) {
			pa->rank = v;
			return;
		}
		/* "rank-3-plog.log", "rank_3_device.log": the rank, then a
		 * separator and a word (a copy named the files by rank) */
		if (k && q + k + 1 < c + stem && (q[k] == '-' || q[k] == '_') &&
		    (q[k + 1] | 0x20) >= 'a' && (q[k + 1] | 0x20) <= 'z') {
			pa->rank = v;
			return;
		}
	}
	d = hx_find(c, n, "-proc-rank-");
	if (d) {
		q = d + 11;
		k = num_at(q, (size_t)(c + n - q), &v);
		if (k && (size_t)(q + k - c) + 8 < n &&
		    memcmp(q + k, "-device-", 8) == 0 &&
		    num_at(q + k + 8, (size_t)(c + n - q - k - 8), &v2))
			pa->rank = v;
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

/* A CANN log's own name inside a longer one, as a copy renamed it
 * ("node3_plog-4242_20251103100005000.log",
 * "rank-0-device-0-device-4242_20251103100005000.log"): pre after a
 * separator, the pid, '_' and the file's start time (8 digits or more). */
static bool inner_pid(const char *c, size_t n, const char *pre, int64_t *v)
{
	size_t m = strlen(pre), k, t;
	const char *q = c, *end = c + n;
	int64_t ts;

	while ((q = hx_find(q, (size_t)(end - q), pre)) != NULL) {
		const char *d = q + m;

		if (q > c && (q[-1] == '-' || q[-1] == '_' || q[-1] == '.')) {
			k = num_at(d, (size_t)(end - d), v);
			if (k && d + k < end && d[k] == '_') {
				t = num_at(d + k + 1, (size_t)(end - d - k - 1), &ts);
				if (t >= 8)
					return true;
			}
		}
		q = d;
	}
	return false;
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

/* The path through the node directory: unique even when several jobs use
 * "worker-0". */
static void set_node(const char *path, const char *c, size_t n,
		     struct hx_pathattr *pa)
{
	const char *from = path;
	size_t m = (size_t)(c + n - path);

	if (m >= sizeof pa->node) {
		from = c;
		m = n < sizeof pa->node ? n : 0;
	}
	memcpy(pa->node, from, m);
	pa->node[m] = '\0';
}

static void comp_attr(const char *path, const char *c, size_t n, bool last,
		      bool above, struct hx_pathattr *pa)
{
	int64_t v, v2;
	size_t k;
	const char *d;

	if (!above)
		comp_rank(c, n, pa);
	if (!last) {
		if (above) {    /* the input's own node directory still counts */
			if (node_dir(c, n))
				set_node(path, c, n, pa);
			return;
		}
		if (prefix_num(c, n, "device-", &v, &k) && k + 7 == n) {
			pa->device = v;
			pa->device_log = true;
		} else if (prefix_num(c, n, "device-app-", &v, &k)) {
			pa->pid = v;
			pa->device_log = true;
		}
		if (node_dir(c, n))
			set_node(path, c, n, pa);
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
	} else if (inner_pid(c, n, "plog-", &v)) {
		pa->pid = v;
	} else if (inner_pid(c, n, "device-", &v)) {
		pa->pid = v;
		pa->device_log = true;
	}
	/* "...-rank-0-device-0.txt" */
	d = hx_find(c, n, "-device-");
	if (d && num_at(d + 8, n - (size_t)(d + 8 - c), &v) &&
	    !(d[8 + num_at(d + 8, n - (size_t)(d + 8 - c), &v2)] == '_'))
		pa->device = v;
}

/* Directories of the input root (the first skip bytes of path: the path
 * the user gave) say nothing; a file given by name still has its pid and
 * device in its name. */
void hx_path_attr_below(const char *path, size_t skip, struct hx_pathattr *pa)
{
	const char *p = path, *e;

	memset(pa, 0, sizeof *pa);
	pa->rank = pa->device = pa->pid = -1;
	if (skip && skip < strlen(path) && path[skip] == '!')
		skip++;         /* "root.tar.gz!/...": the archive is the root */
	while (*p) {
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (e > p)
			comp_attr(path, p, (size_t)(e - p), *e == '\0',
				  (size_t)(e - path) <= skip, pa);
		p = *e ? e + 1 : e;
	}
}

void hx_path_attr(const char *path, struct hx_pathattr *pa)
{
	hx_path_attr_below(path, 0, pa);
}

/* ---- input roots ---- */

/* A job's rank directories may be given one by one: a set of the roots'
 * string ids keeps adding them and finding a path's root linear. */
static uint64_t root_key(uint32_t id)
{
	return hx_map_key((uint64_t)id + 1);
}

int hx_ev_add_root(struct hangdx_evidence *ev, const char *path)
{
	int err = HANGDX_OK;
	uint32_t id = hx_ev_intern(ev, path, strlen(path), &err);
	struct hx_map_slot *sl;
	void *v = ev->roots;

	if (err)
		return err;
	sl = hx_map_slot(ev->ctx, &ev->rootset, root_key(id), &err);
	if (!sl)
		return err;
	if (sl->val >= 0)
		return HANGDX_OK;
	err = hx_vec_reserve(ev->ctx, &v, &ev->caproots, ev->nroots + 1,
			     sizeof *ev->roots, HX_MAX_ROOTS);
	if (err) {
		sl->val = INT32_MAX;    /* not a root: never matched */
		return err;
	}
	ev->roots = v;
	sl->val = (int32_t)ev->nroots;
	ev->roots[ev->nroots++] = id;
	return HANGDX_OK;
}

static bool is_root(const struct hangdx_evidence *ev, const char *p, size_t n)
{
	long id = hx_intern_find(&ev->strs, p, n);
	int32_t i;

	if (id < 0)
		return false;
	i = hx_map_find(&ev->rootset, root_key((uint32_t)id));
	return i >= 0 && (size_t)i < ev->nroots;
}

/* Many roots: each prefix of p that ends where a root may end is looked
 * up, as the rule below reads them. */
static size_t root_len_many(const struct hangdx_evidence *ev, const char *p)
{
	size_t k, n = strlen(p), best = 0;

	for (k = 1; k <= n; k++) {
		bool arch = p[k] == '!' && p[k + 1] == '/';

		if (!(p[k] == '\0' || p[k] == '/' || arch || p[k - 1] == '/'))
			continue;
		if (is_root(ev, p, k))
			best = arch ? k + 1 : k;
	}
	return best;
}

/* The length of the longest input root that path is or lies under
 * ("root", "root/...", "root!/..." for an archive); 0 if none. */
size_t hx_ev_root_len(const struct hangdx_evidence *ev, uint32_t path)
{
	const char *p = hx_ev_str(ev, path);
	size_t i, best = 0;

	if (p && ev->nroots > 8)
		return root_len_many(ev, p);
	for (i = 0; p && i < ev->nroots; i++) {
		const char *r = hx_ev_str(ev, ev->roots[i]);
		size_t n = r ? strlen(r) : 0;

		if (!n || strncmp(p, r, n) != 0)
			continue;
		if (p[n] == '!' && p[n + 1] == '/')
			n++;    /* the archive's own name is the root */
		else if (!(p[n] == '\0' || p[n] == '/' || r[n - 1] == '/'))
			continue;
		best = n > best ? n : best;
	}
	return best;
}

/* ---- the process table ---- */

/*
 * A process is a (node, pid): containers give every node the same pids.
 * Its global rank is its rank in the world communicator, the group whose
 * size is the job's rank count (the largest group seen); its rank in any
 * other group is a communicator rank and is mapped to the global rank
 * through the comm-init lines of that group, never used as one.
 */

struct memb {
	uint32_t group;         /* interned identifier */
	int64_t crank;          /* rank in the group; -2 conflicting */
	int64_t size;           /* ranks of the group; 0 unknown */
	bool world, sub;        /* in at->groups: a world group; a group
				   some process of the world is in */
};

struct proc {
	char node[64];
	int64_t pid;
	int64_t rank, device;   /* -1 none, -2 conflicting */
	struct memb *g;         /* its communicators, one entry each, sorted
				   by group id (in at->pm) */
	size_t ngroup;
};

/* (group, communicator rank) -> global rank, -2 if two processes claim it */
struct cmap {
	uint32_t group;
	int64_t crank, rank;
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
	struct cmap *cm;
	size_t ncm;
	struct memb *groups;    /* distinct groups with their size */
	size_t ngroups;
	int64_t job_size;       /* ranks of the job: the largest group, 0 unknown */
	bool sub_groups;        /* some group is smaller than the job */
	struct memb *pm;        /* the memberships of every process */
	size_t npm;
	struct hx_map alias;    /* group id -> the id of another name of the
				   same communicator (a union-find's parent) */
	struct hx_attrib_cut cut;   /* the first process past the guard */
	/* the last look-ups of hx_attrib_rec: records come file by file */
	uint32_t last_vpath;
	const struct hx_pathattr *last_pa;
	bool have_last;
	int64_t last_pid;
	const struct proc *last_proc;
	bool have_tag;          /* the last tag's group */
	uint32_t last_tag, last_tag_group;
	const struct proc *last_tag_proc;
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

static int cmap_cmp(const void *a, const void *b)
{
	const struct cmap *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->crank < y->crank ? -1 : x->crank > y->crank;
}

static int memb_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct memb *)a)->group;
	uint32_t y = ((const struct memb *)b)->group;

	return x < y ? -1 : x > y;
}

/* The process a record belongs to: the pid in the file name when it has
 * one (plog-PID_..., device-PID_..., whose pid is the host process even
 * for device-side lines), else the pid of the line.  A negative pid
 * (TSCH(-1,null)) is no process. */
static int64_t rec_pid(const struct hx_rec *r, const struct hx_pathattr *pa)
{
	if (pa && pa->pid >= 0)
		return pa->pid;
	return r->pid != HX_NONE && r->pid >= 0 ? r->pid : -1;
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

/* A path read on another node ("NODE:path", hx_ev_tag_len) is attributed
 * without its tag, and its node is the tag (with the node directory the
 * path names, if any): the same pid on two nodes is two processes. */
static void tagged_attr(const struct hangdx_evidence *ev, uint32_t id,
			struct hx_pathattr *pa)
{
	const char *p = hx_ev_str(ev, id);
	size_t skip = hx_ev_root_len(ev, id), t = p ? hx_ev_tag_len(ev, p) : 0;
	char node[sizeof pa->node + HX_MAX_TAG];
	size_t n;

	if (!t) {
		hx_path_attr_below(p, skip, pa);
		return;
	}
	hx_path_attr_below(p + t, skip > t ? skip - t : 0, pa);
	n = (size_t)snprintf(node, sizeof node, "%.*s%s", (int)t, p, pa->node);
	if (n >= sizeof pa->node)
		n = sizeof pa->node - 1;
	memcpy(pa->node, node, n);
	pa->node[n] = '\0';
}

/* The attributes of every distinct vpath, in id order: the ids used are
 * marked (a byte a string), then one entry per distinct path. */
static int collect_vpaths(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	uint8_t *used = hx_calloc(ev->ctx, ev->strs.n + 1, 1);
	uint32_t *ids = NULL;
	size_t i, m = 0;
	bool nostr = false;

	for (i = 0; used && i < ev->nrec; i++) {
		uint32_t v = ev->recs[i].vpath;

		if (v >= ev->strs.n)
			nostr = true;
		else if (!used[v])
			used[v] = 1, m++;
	}
	if (used)
		ids = hx_alloc(ev->ctx, (m + 1) * sizeof *ids);
	if (!ids) {
		hx_free(ev->ctx, used);
		return HANGDX_ENOMEM;
	}
	for (i = 0, m = 0; i < ev->strs.n; i++)
		if (used[i])
			ids[m++] = (uint32_t)i;
	if (nostr)
		ids[m++] = HX_NOSTR;
	hx_free(ev->ctx, used);
	at->va = hx_calloc(ev->ctx, m + 1, sizeof *at->va);
	if (!at->va) {
		hx_free(ev->ctx, ids);
		return HANGDX_ENOMEM;
	}
	for (i = 0; i < m; i++) {
		at->va[i].id = ids[i];
		tagged_attr(ev, ids[i], &at->va[i].pa);
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

const struct hx_attrib_cut *hx_attrib_groups_cut(const struct hx_attrib *at)
{
	return at && at->cut.procs ? &at->cut : NULL;
}

/* One comm-init record: its process, its group rank or device. */
struct ientry {
	const char *node;       /* "" none */
	int64_t pid, rank, device;
	struct memb mb;         /* group HX_NOSTR: none */
	uint8_t step;           /* enum init_step */
};

/* Which step of a creation a line prints (families.c, comm_init). */
enum init_step { STEP_OTHER, STEP_OPEN, STEP_INFO, STEP_EXIT };

static uint8_t init_step(const struct hangdx_evidence *ev,
			 const struct hx_rec *r)
{
	const struct hx_field *w = hx_rec_field(ev, r, HX_F_WHAT);
	const char *s = w ? hx_ev_str(ev, w->str) : NULL;

	if (!s)
		return STEP_OTHER;
	if (strcmp(s, "entry") == 0 || strcmp(s, "setup_agent") == 0)
		return STEP_OPEN;
	if (strcmp(s, "init_info") == 0)
		return STEP_INFO;
	if (strcmp(s, "init_ok") == 0 || strcmp(s, "init_failed") == 0)
		return STEP_EXIT;
	return STEP_OTHER;
}

/* The comm-init records with a process and a rank or a device. */
static size_t init_entries(struct hx_attrib *at, struct ientry *e)
{
	const struct hangdx_evidence *ev = at->ev;
	size_t i, m = 0;

	for (i = 0; i < ev->nrec; i++) {
		const struct hx_rec *r = &ev->recs[i];
		const struct hx_pathattr *pa;
		const struct hx_field *g;
		struct ientry *x = &e[m];

		if (r->kind != HX_K_COMM_INIT)
			continue;
		pa = vattr_of(at, r->vpath);
		g = hx_rec_field(ev, r, HX_F_GROUP);
		memset(x, 0, sizeof *x);
		x->node = pa ? pa->node : "";
		x->pid = rec_pid(r, pa);
		x->rank = -1;
		x->device = field_num(ev, r, HX_F_DEVICE_ID);
		x->mb.group = HX_NOSTR;
		x->step = init_step(ev, r);
		x->mb.crank = field_num(ev, r, HX_F_LOCAL_RANK);
		x->mb.size = field_num(ev, r, HX_F_RANK_SIZE);
		if (x->mb.size < 0)
			x->mb.size = 0;
		if (x->mb.size > at->job_size)
			at->job_size = x->mb.size;
		if (g && x->mb.crank >= 0)
			x->mb.group = g->str;
		else if (x->mb.crank >= 0)
			x->rank = x->mb.crank;  /* a rank with no group named */
		if (x->pid >= 0 && (x->mb.crank >= 0 || x->device >= 0))
			m++;
	}
	return m;
}

/*
 * The names of one communicator.  A creation prints the root info's
 * identifier ("Entry-HcclCommInitRootInfo ... identifier[X]", SetupAgent,
 * "HcclCommInitRootInfo success ... identifier[X]") and, between its entry
 * and its exit, "hcclCommInitInfo ... identifier[G]" with the name the
 * failure lines use (group:[G], tag AllReduce_G).  Within one process the
 * creations run one after the other: the name an info line gives belongs
 * to the one creation open in that process with the same communicator
 * rank and size (or, none open, to the next exit that matches).  Two
 * names of one creation are one communicator (a union-find whose root is
 * the info line's name); several creations open that could match link
 * nothing: no guess.
 */
static uint32_t alias_find(const struct hx_attrib *at, uint32_t id)
{
	int32_t p;
	size_t hops = 0;

	while (id != HX_NOSTR && hops++ < 64 &&
	       (p = hx_map_find(&at->alias, hx_map_key(id))) >= 0 &&
	       (uint32_t)p != id)
		id = (uint32_t)p;
	return id;
}

/* Name other becomes a name of the communicator root names. */
static int alias_join(struct hx_attrib *at, uint32_t root, uint32_t other)
{
	struct hx_map_slot *sl;
	int err = HANGDX_OK;

	root = alias_find(at, root);
	other = alias_find(at, other);
	if (root == other || root == HX_NOSTR || other == HX_NOSTR ||
	    root > INT32_MAX)
		return HANGDX_OK;
	sl = hx_map_slot(at->ev->ctx, &at->alias, hx_map_key(other), &err);
	if (sl)
		sl->val = (int32_t)root;
	return err;
}

uint32_t hx_attrib_canon(const struct hx_attrib *at, uint32_t group)
{
	return at && at->alias.n ? alias_find(at, group) : group;
}

#define OPEN_MAX 64     /* creations open at once in one process */

struct opened {
	uint32_t group;
	int64_t crank, size;
	bool named;             /* an info line gave its name */
};

struct creations {
	struct opened o[OPEN_MAX];
	size_t n;
	const struct ientry *pending;   /* an info line before any entry */
};

static bool same_member(const struct memb *a, int64_t crank, int64_t size)
{
	return (a->crank < 0 || crank < 0 || a->crank == crank) &&
	       (a->size <= 0 || size <= 0 || a->size == size);
}

static int on_info(struct hx_attrib *at, struct creations *c,
		   const struct ientry *x)
{
	size_t i, hit = OPEN_MAX, nhit = 0;

	for (i = 0; i < c->n; i++) {
		struct memb m = { c->o[i].group, c->o[i].crank, c->o[i].size,
				  false, false };
		if (c->o[i].group == x->mb.group) {
			c->o[i].named = true;
			return HANGDX_OK;
		}
		if (!c->o[i].named && same_member(&m, x->mb.crank, x->mb.size))
			hit = i, nhit++;
	}
	if (nhit == 0) {
		c->pending = x;
		return HANGDX_OK;
	}
	if (nhit > 1)
		return HANGDX_OK;
	c->o[hit].named = true;
	return alias_join(at, x->mb.group, c->o[hit].group);
}

static int on_exit_line(struct hx_attrib *at, struct creations *c,
			const struct ientry *x)
{
	size_t i;
	int err = HANGDX_OK;

	for (i = 0; i < c->n; i++)
		if (c->o[i].group == x->mb.group) {
			c->o[i] = c->o[--c->n];
			return HANGDX_OK;
		}
	if (c->pending && c->pending->mb.group != x->mb.group &&
	    same_member(&c->pending->mb, x->mb.crank, x->mb.size))
		err = alias_join(at, c->pending->mb.group, x->mb.group);
	c->pending = NULL;
	return err;
}

static int on_step(struct hx_attrib *at, struct creations *c,
		   const struct ientry *x)
{
	size_t i;

	if (x->mb.group == HX_NOSTR)
		return HANGDX_OK;
	switch (x->step) {
	case STEP_OPEN:
		for (i = 0; i < c->n; i++)
			if (c->o[i].group == x->mb.group)
				return HANGDX_OK;
		if (c->n < OPEN_MAX)
			c->o[c->n++] = (struct opened){ x->mb.group, x->mb.crank,
							x->mb.size, false };
		return HANGDX_OK;
	case STEP_INFO:
		return on_info(at, c, x);
	case STEP_EXIT:
		return on_exit_line(at, c, x);
	default:
		return HANGDX_OK;
	}
}

/* An entry's sort key: by (node, pid), in reading order within one
 * process; 24 bytes move where an entry's 56 would. */
struct ikey {
	const char *node;
	int64_t pid;
	size_t i;
};

static int ikey_cmp(const void *a, const void *b)
{
	const struct ikey *x = a, *y = b;
	int c = strcmp(x->node, y->node);

	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static bool same_proc(const struct ikey *x, const struct ikey *y)
{
	return x->pid == y->pid && strcmp(x->node, y->node) == 0;
}

/* The names of every communicator, process by process. */
static int find_aliases(struct hx_attrib *at, const struct ientry *e,
			const struct ikey *k, size_t m)
{
	struct creations *c = hx_calloc(at->ev->ctx, 1, sizeof *c);
	size_t i;
	int err = HANGDX_OK;

	if (!c)
		return HANGDX_ENOMEM;
	for (i = 0; i < m && !err; i++) {
		if (i && !same_proc(&k[i - 1], &k[i]))
			memset(c, 0, sizeof *c);
		err = on_step(at, c, &e[k[i].i]);
	}
	hx_free(at->ev->ctx, c);
	return err;
}

static int mgroup_cmp(const void *a, const void *b)
{
	const struct memb *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return 0;
}

/* A process's memberships p->g[0..n): one per communicator (a second,
 * different rank in one is a conflict, -2), sorted by group; past the
 * guard HX_MAX_GROUPS_PER_PROC the rest are dropped and said so. */
static void merge_membs(struct hx_attrib *at, struct proc *p, size_t n)
{
	size_t i, k = 0;

	if (n > 1)
		qsort(p->g, n, sizeof *p->g, mgroup_cmp);
	for (i = 0; i < n; i++) {
		struct memb *d = k ? &p->g[k - 1] : NULL;

		if (d && d->group == p->g[i].group) {
			if (d->crank != p->g[i].crank)
				d->crank = -2;
			if (p->g[i].size > d->size)
				d->size = p->g[i].size;
			continue;
		}
		p->g[k++] = p->g[i];
	}
	if (k > HX_MAX_GROUPS_PER_PROC) {
		if (!at->cut.procs) {
			snprintf(at->cut.node, sizeof at->cut.node, "%s", p->node);
			at->cut.pid = p->pid;
			at->cut.groups = k;
			at->cut.drop_first = p->g[HX_MAX_GROUPS_PER_PROC].group;
			at->cut.drop_last = p->g[k - 1].group;
		}
		at->cut.procs++;
		at->cut.dropped += k - HX_MAX_GROUPS_PER_PROC;
		k = HX_MAX_GROUPS_PER_PROC;
	}
	p->ngroup = k;
}

/* The last process's memberships, from pm[first] on, merged. */
static void close_proc(struct hx_attrib *at, struct proc *p, size_t first)
{
	merge_membs(at, p, at->npm - first);
	at->npm = first + p->ngroup;
}

/* One process per (node, pid), its entries folded into it. */
static int fold_procs(struct hx_attrib *at, struct ientry *e, size_t m)
{
	struct ikey *k = hx_calloc(at->ev->ctx, m + 1, sizeof *k);
	size_t i, n = 0, first = 0;
	int err;

	if (!k)
		return HANGDX_ENOMEM;
	for (i = 0; i < m; i++)
		k[i] = (struct ikey){ e[i].node, e[i].pid, i };
	if (m)
		qsort(k, m, sizeof *k, ikey_cmp);
	err = find_aliases(at, e, k, m);
	for (i = 0; i < m; i++)
		n += i == 0 || !same_proc(&k[i - 1], &k[i]);
	at->procs = err ? NULL : hx_calloc(at->ev->ctx, n + 1, sizeof *at->procs);
	at->pm = at->procs ? hx_calloc(at->ev->ctx, m + 1, sizeof *at->pm) : NULL;
	if (!at->procs || !at->pm) {
		hx_free(at->ev->ctx, k);
		return err ? err : HANGDX_ENOMEM;
	}
	for (i = 0, n = 0; i < m; i++) {
		const struct ientry *x = &e[k[i].i];
		struct proc *d;

		if (i == 0 || !same_proc(&k[i - 1], &k[i])) {
			if (n)
				close_proc(at, &at->procs[n - 1], first);
			first = at->npm;
			d = &at->procs[n++];
			snprintf(d->node, sizeof d->node, "%s", x->node);
			d->pid = x->pid;
			d->rank = d->device = -1;
			d->g = at->pm + first;
		}
		d = &at->procs[n - 1];
		merge_val(&d->rank, x->rank);
		merge_val(&d->device, x->device);
		if (x->mb.group != HX_NOSTR) {
			at->pm[at->npm] = x->mb;
			at->pm[at->npm++].group = alias_find(at, x->mb.group);
		}
	}
	if (n)
		close_proc(at, &at->procs[n - 1], first);
	at->nproc = n;
	hx_free(at->ev->ctx, k);
	return HANGDX_OK;
}

static const struct memb *group_of(const struct hx_attrib *at, uint32_t id)
{
	struct memb key;

	key.group = id;
	return bsearch(&key, at->groups, at->ngroups, sizeof *at->groups,
		       memb_cmp);
}

/* As large as the job (every group is, when no line gives a size). */
static bool job_sized(const struct hx_attrib *at, int64_t size)
{
	return at->job_size == 0 || size == at->job_size;
}

/* The process's rank in its world-sized groups, -1 none, -2 conflict. */
static int64_t rank_in_world(const struct hx_attrib *at, const struct proc *p)
{
	int64_t r = -1;
	size_t g;

	for (g = 0; g < p->ngroup; g++) {
		const struct memb *gr = group_of(at, p->g[g].group);

		if (!gr || !gr->world)
			continue;
		if (p->g[g].crank == -2)
			return -2;
		merge_val(&r, p->g[g].crank);
	}
	return r;
}

/* A process in no job-sized group (a partial collection, or logs of
 * another job mixed in): its largest group is its world, unless a process
 * of the job's world is in that group too (then it is a sub-group). */
static void own_world(struct hx_attrib *at, const struct proc *p)
{
	const struct memb *big = NULL;
	struct memb *gr;
	size_t g;

	for (g = 0; g < p->ngroup; g++)
		if (!big || p->g[g].size > big->size)
			big = &p->g[g];
	gr = big ? (struct memb *)group_of(at, big->group) : NULL;
	if (gr && !gr->sub)
		gr->world = true;
}

/* The distinct groups with their sizes; which are world groups. */
static int collect_groups(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	size_t i, g, n = 0, m = 0;

	for (i = 0; i < at->nproc; i++)
		n += at->procs[i].ngroup;
	at->groups = hx_calloc(ev->ctx, n + 1, sizeof *at->groups);
	if (!at->groups)
		return HANGDX_ENOMEM;
	for (i = 0; i < at->nproc; i++)
		for (g = 0; g < at->procs[i].ngroup; g++)
			at->groups[m++] = at->procs[i].g[g];
	if (m)
		qsort(at->groups, m, sizeof *at->groups, memb_cmp);
	for (i = 0, n = 0; i < m; i++) {
		if (n && at->groups[n - 1].group == at->groups[i].group) {
			if (at->groups[i].size > at->groups[n - 1].size)
				at->groups[n - 1].size = at->groups[i].size;
			continue;
		}
		at->groups[n++] = at->groups[i];
	}
	at->ngroups = n;
	for (i = 0; i < n; i++) {
		at->groups[i].world = job_sized(at, at->groups[i].size);
		at->groups[i].sub = false;
	}
	return HANGDX_OK;
}

/* The global rank of each process: its rank in a world group. */
static void global_ranks(struct hx_attrib *at)
{
	size_t i, g;

	for (i = 0; i < at->nproc; i++) {       /* sub-groups of the world */
		const struct proc *p = &at->procs[i];

		if (rank_in_world(at, p) == -1)
			continue;
		for (g = 0; g < p->ngroup; g++) {
			struct memb *gr = (struct memb *)group_of(at, p->g[g].group);

			if (gr && !gr->world)
				gr->sub = true;
		}
	}
	for (i = 0; i < at->nproc; i++)
		if (rank_in_world(at, &at->procs[i]) == -1)
			own_world(at, &at->procs[i]);
	for (i = 0; i < at->nproc; i++) {
		struct proc *p = &at->procs[i];
		int64_t r = rank_in_world(at, p);

		if (r == -2)
			p->rank = -2;
		else
			merge_val(&p->rank, r);
	}
	for (i = 0; i < at->ngroups; i++)
		if (!at->groups[i].world)
			at->sub_groups = true;
}

/* (group, communicator rank) -> global rank, from the processes whose
 * global rank is known. */
static int collect_cmap(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	size_t i, g, n = 0, m = 0;

	for (i = 0; i < at->nproc; i++)
		n += at->procs[i].ngroup;
	at->cm = hx_calloc(ev->ctx, n + 1, sizeof *at->cm);
	if (!at->cm)
		return HANGDX_ENOMEM;
	for (i = 0; i < at->nproc; i++) {
		const struct proc *p = &at->procs[i];

		for (g = 0; g < p->ngroup; g++)
			if (p->rank >= 0 && p->g[g].crank >= 0)
				at->cm[m++] = (struct cmap){ p->g[g].group,
							     p->g[g].crank,
							     p->rank };
	}
	if (m)
		qsort(at->cm, m, sizeof *at->cm, cmap_cmp);
	for (i = 0, n = 0; i < m; i++) {
		if (n && cmap_cmp(&at->cm[n - 1], &at->cm[i]) == 0) {
			if (at->cm[n - 1].rank != at->cm[i].rank)
				at->cm[n - 1].rank = -2;
			continue;
		}
		at->cm[n++] = at->cm[i];
	}
	at->ncm = n;
	return HANGDX_OK;
}

static int collect_procs(struct hx_attrib *at)
{
	const struct hangdx_evidence *ev = at->ev;
	struct ientry *e;
	size_t i, n = 0;
	int err;

	for (i = 0; i < ev->nrec; i++)
		n += ev->recs[i].kind == HX_K_COMM_INIT;
	e = hx_calloc(ev->ctx, n + 1, sizeof *e);
	if (!e)
		return HANGDX_ENOMEM;
	err = fold_procs(at, e, init_entries(at, e));
	hx_free(ev->ctx, e);
	if (!err)
		err = collect_groups(at);
	if (!err) {
		global_ranks(at);
		err = collect_cmap(at);
	}
	return err;
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
	hx_free(ev->ctx, at->pm);
	hx_map_free(ev->ctx, &at->alias);
	hx_free(ev->ctx, at->cm);
	hx_free(ev->ctx, at->groups);
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

/* The group a record names (under the name its creation gave it):
 * group:[...], else the group whose identifier its tag holds
 * ("AllReduce_<identifier>..."): one of its process's groups, or without
 * a process any group; the longest that fits ("group_name_1" is in
 * "AllReduce_group_name_12"); HX_NOSTR if none. */
static uint32_t rec_group(struct hx_attrib *at, const struct hx_rec *r,
			  const struct proc *p)
{
	const struct hangdx_evidence *ev = at->ev;
	const struct hx_field *g = hx_rec_field(ev, r, HX_F_GROUP);
	const struct hx_field *t = hx_rec_field(ev, r, HX_F_TAG);
	const struct memb *list = p ? p->g : at->groups;
	size_t i, n = p ? p->ngroup : at->ngroups, best = 0;
	const char *tag;

	if (g)
		return hx_attrib_canon(at, g->str);
	if (!t)
		return HX_NOSTR;
	if (at->have_tag && at->last_tag == t->str && at->last_tag_proc == p)
		return at->last_tag_group;
	tag = hx_ev_str(ev, t->str);
	at->have_tag = true;
	at->last_tag = t->str;
	at->last_tag_proc = p;
	at->last_tag_group = HX_NOSTR;
	for (i = 0; tag && i < n; i++) {
		const char *gs = hx_ev_str(ev, list[i].group);
		size_t len = gs ? strlen(gs) : 0;

		if (len > best && strstr(tag, gs)) {
			at->last_tag_group = list[i].group;
			best = len;
		}
	}
	return at->last_tag_group;
}

/* The global rank that communicator rank crank of group grp stands for:
 * itself in a world group, else through the comm-init lines of the group;
 * -1 unknown, -2 claimed by two processes. */
static int64_t global_of(const struct hx_attrib *at, uint32_t grp,
			 int64_t crank)
{
	const struct memb *g;
	struct cmap key, *f;

	if (crank < 0)
		return -1;
	if (grp == HX_NOSTR)    /* a rank with no group: global only if every
				   group is a world group */
		return at->sub_groups ? -1 : crank;
	g = group_of(at, grp);
	if (!g || g->world)
		return !g && at->sub_groups ? -1 : crank;
	key.group = grp;
	key.crank = crank;
	f = bsearch(&key, at->cm, at->ncm, sizeof *at->cm, cmap_cmp);
	return f ? f->rank : -1;
}

int64_t hx_attrib_job_size(const struct hx_attrib *at)
{
	return at->job_size;
}

int64_t hx_attrib_global(const struct hx_attrib *at, uint32_t group,
			 int64_t crank)
{
	return global_of(at, group, crank);
}

int64_t hx_attrib_global_known(const struct hx_attrib *at, uint32_t group,
			       int64_t crank)
{
	if (crank < 0 || group == HX_NOSTR || !group_of(at, group))
		return -1;
	return global_of(at, group, crank);
}

/* The process's own rank in group grp: -1 not a member, -2 conflicting. */
static int64_t proc_crank(const struct proc *p, uint32_t grp)
{
	struct memb key;
	const struct memb *f;

	if (!p || grp == HX_NOSTR || !p->ngroup)
		return -1;
	key.group = grp;
	f = bsearch(&key, p->g, p->ngroup, sizeof *p->g, memb_cmp);
	return f ? f->crank : -1;
}

/*
 * A record's global rank, sources in order: a rank directory below the
 * input root; the process's global rank (comm-init lines of the world
 * group) and the record's own rank mapped from its group's communicator
 * rank, which must agree.  Sources that disagree give "ambiguous", never
 * a guess.  A further source (a launcher's "[rankN]:" prefix) takes its
 * place in this order as one more branch.
 */
static void resolve_rank(struct hx_attrib *at, const struct hx_rec *r,
			 const struct hx_pathattr *pa, const struct proc *p,
			 struct hx_attr *a)
{
	int64_t crank = r->kind == HX_K_LINK_ERROR
				? -1 : field_num(at->ev, r, HX_F_LOCAL_RANK);
	uint32_t grp = crank >= 0 || p ? rec_group(at, r, p) : HX_NOSTR;
	int64_t own = proc_crank(p, grp);
	int64_t rec = global_of(at, grp, crank);

	if (pa && pa->rank >= 0) {
		a->rank = pa->rank;
		a->rank_from = "path";
	} else if (own == -2 || (p && p->rank == -2) ||
		   (crank >= 0 && own >= 0 && crank != own) ||
		   (rec >= 0 && p && p->rank >= 0 && rec != p->rank) ||
		   rec == -2) {
		a->rank_from = "ambiguous";
	} else if (rec >= 0) {
		a->rank = rec;
		a->rank_from = "record";
	} else if (p && p->rank >= 0) {
		a->rank = p->rank;
		a->rank_from = "init";
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
	pid = a->pid = rec_pid(r, pa);
	if (pid < 0)
		pid = a->pid = console_pid(at, r);
	if (pid != at->last_pid) {
		at->last_proc = proc_of(at, pa ? pa->node : "", pid);
		at->last_pid = pid;
	}
	p = at->last_proc;
	resolve_rank(at, r, pa, p, a);
	resolve_device(at, r, pa, p, a);
	console_attr(at, r, pa, a);
}
