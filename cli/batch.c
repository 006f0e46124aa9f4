/*
 * batch.c - dense logs in one process.  When the PATHs hold more bytes
 * of files than diagnose --batch SIZE (1 GiB), the entries of each PATH
 * directory are read SIZE / 8 bytes at a time: each batch into evidence of its
 * own, reduced to facts, and freed (as each process of diagnose --mpi
 * does), so memory holds one batch of logs and the facts; phase 2
 * (twophase.c) reads again the files of the ranks the verdict needs.
 * Also the directory listing cli/mpi.c shares out.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

#define LIST_MAX ((size_t)1 << 24)      /* entries of one listing */
#define WALK_DEPTH 32
#define BATCH_SHARE 8           /* a batch: this share of in->dense (two
				   are alive at once) */
#define UNSIZED UINT64_MAX

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_list_dir(const char *path, char ***v, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **nv;
	size_t cap = 0;
	int rc = 0;

	*v = NULL;
	*n = 0;
	if (!d)
		return 1;
	while (!rc && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = cap <= LIST_MAX ? realloc(*v, cap * sizeof *nv) : NULL;
			if (!nv) {
				rc = -1;
				break;
			}
			*v = nv;
		}
		if (!((*v)[*n] = strdup(de->d_name)))
			rc = -1;
		else
			(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*v, *n, sizeof **v, name_cmp);
	return rc;
}

void cli_free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *cli_join(const char *dir, const char *name)
{
	size_t la = strlen(dir), n = la + strlen(name) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", dir, la && dir[la - 1] == '/' ? "" : "/", name);
	return s;
}

/* Add the sizes of the regular files under fd's entry name to *sum,
 * stopping once it passes stop.  Symbolic links below name are not
 * followed (a link to a parent would walk the tree again and again). */
static void tree_bytes(int fd, const char *name, int depth, uint64_t *sum,
		       uint64_t stop)
{
	struct stat sb;
	struct dirent *de;
	DIR *d;
	int sub;

	if (*sum > stop ||
	    fstatat(fd, name, &sb, depth ? AT_SYMLINK_NOFOLLOW : 0) != 0)
		return;
	if (S_ISREG(sb.st_mode)) {
		*sum += (uint64_t)sb.st_size;
		return;
	}
	if (!S_ISDIR(sb.st_mode) || depth >= WALK_DEPTH)
		return;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0)
		return;
	d = fdopendir(sub);
	if (!d) {
		close(sub);
		return;
	}
	while (*sum <= stop && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			tree_bytes(dirfd(d), de->d_name, depth + 1, sum, stop);
	closedir(d);
}

bool cli_dense(const struct cli_inputs *in)
{
	uint64_t stop = in->dense, sum = 0;
	bool dirs = false;
	struct stat sb;
	size_t i;

	if (!stop || in->nevid || in->roots)
		return false;
	for (i = 0; i < in->npaths; i++) {
		if (strcmp(in->paths[i], "-") == 0)
			return false;
		dirs |= stat(in->paths[i], &sb) == 0 && S_ISDIR(sb.st_mode);
		tree_bytes(AT_FDCWD, in->paths[i], 0, &sum, stop);
	}
	return dirs && sum > stop;
}

/* The entries of every directory PATH (sorted) and every other PATH, in
 * that order, in *v (joined to their PATH); *sz for the bytes of the files
 * under each, UNSIZED until the batch that reaches it walks it. */
static int entries(const struct cli_inputs *in, char ***v, uint64_t **sz,
		   size_t *n)
{
	size_t i, j, m, cap = 0;
	char **e, **nv;
	uint64_t *ns;
	int rc = 0;

	*v = NULL;
	*sz = NULL;
	*n = 0;
	for (i = 0; i < in->npaths && !rc; i++) {
		rc = cli_list_dir(in->paths[i], &e, &m);
		if (rc == 1) {          /* not a directory: one entry */
			e = malloc(sizeof *e);
			rc = e && (e[0] = strdup(in->paths[i])) ? 0 : -1;
			m = rc ? 0 : 1;
		} else {
			for (j = 0; j < m && !rc; j++) {
				char *full = cli_join(in->paths[i], e[j]);

				free(e[j]);
				e[j] = full;
				rc = full ? 0 : -1;
			}
		}
		if (!rc && *n + m > cap) {
			cap = *n + m > LIST_MAX ? 0 : (*n + m) * 2;
			nv = cap ? realloc(*v, cap * sizeof *nv) : NULL;
			if (nv)
				*v = nv;
			ns = nv ? realloc(*sz, cap * sizeof *ns) : NULL;
			if (ns)
				*sz = ns;
			rc = nv && ns ? 0 : -1;
		}
		for (j = 0; j < m; j++) {
			if (!rc) {
				(*sz)[*n] = UNSIZED;
				(*v)[(*n)++] = e[j];
			} else {
				free(e[j]);
			}
		}
		free(e);
	}
	return rc;
}

/*
 * The batches are read by a thread of their own while this one reduces
 * the batch before to facts: reading (two threads, hangdx_ingest_paths)
 * and reducing (one) overlap, and at most two batches' evidence is alive.
 * A third thread sizes the entries ahead of the reader (the batches are
 * cut by bytes; the walk is system calls, not work the reader must wait
 * for).
 * One thread reads them all, in order, so the facts and the reading
 * diagnostics are those of reading them one after another; the library
 * takes the same context from both (it allocates through a thread-safe
 * hook, and only reading writes diagnostics).  --threads 1, or a thread
 * that cannot be started, reads and reduces in turn.
 */
#define ALIVE 2                 /* batches' evidence alive at once */

struct pipe {
	struct hangdx_ctx *ctx;
	const struct cli_inputs *in;   /* each batch's inputs but paths */
	char **v;
	uint64_t *sz;
	size_t n;
	uint64_t budget;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int tokens;                    /* more evidence that may be made */
	bool sizing;                   /* a thread sizes the entries */
	size_t nsized;                 /* ... this many so far */
	bool stop;                     /* the reducer gave up */
	bool full, end;                /* a batch waits in the slot; no more */
	struct hangdx_evidence *ev;    /* the slot */
	int err;
	size_t nbatch;
};

/* The bytes under entry j: sized by the sizing thread (waited for), or
 * here when there is none.  A walk of 16,384 ranks' trees takes seconds
 * of system calls: off the reading thread, they overlap the reading. */
static uint64_t entry_size(struct pipe *p, size_t j)
{
	uint64_t sz;

	if (!p->sizing) {
		if (p->sz[j] == UNSIZED) {
			p->sz[j] = 0;
			tree_bytes(AT_FDCWD, p->v[j], 0, &p->sz[j], UINT64_MAX);
		}
		return p->sz[j];
	}
	pthread_mutex_lock(&p->mu);
	while (p->nsized <= j && !p->stop)
		pthread_cond_wait(&p->cv, &p->mu);
	sz = p->nsized > j ? p->sz[j] : UNSIZED;        /* stopped */
	pthread_mutex_unlock(&p->mu);
	return sz;
}

static void *sizer_main(void *arg)
{
	struct pipe *p = arg;
	size_t j;
	bool stop = false;

	for (j = 0; j < p->n && !stop; j++) {
		uint64_t sz = 0;

		tree_bytes(AT_FDCWD, p->v[j], 0, &sz, UINT64_MAX);
		pthread_mutex_lock(&p->mu);
		p->sz[j] = sz;
		p->nsized = j + 1;
		stop = p->stop;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* The next batch from entry *i: its entries in b (one at least); false
 * when the reducer stopped the run first. */
static bool next_batch(struct pipe *p, size_t *i, struct cli_inputs *b)
{
	size_t j;
	uint64_t sum = 0, sz;

	for (j = *i; j < p->n; j++) {
		sz = entry_size(p, j);
		if (sz == UNSIZED)
			return false;
		if (j > *i && sum + sz > p->budget)
			break;
		sum += sz;
	}
	b->paths = (const char *const *)p->v + *i;
	b->npaths = j - *i;
	*i = j;
	return true;
}

/* One batch read: a library error; HANGDX_ENOTFOUND when nothing in it
 * could be read (no evidence then). */
static int read_one(struct pipe *p, const struct cli_inputs *b,
		    struct hangdx_evidence **out)
{
	int err = hangdx_evidence_new(p->ctx, out);

	if (!err)
		err = cli_read_inputs(*out, b);
	if (err) {
		hangdx_evidence_free(*out);
		*out = NULL;
	}
	return err;
}

static void *reader_main(void *arg)
{
	struct pipe *p = arg;
	struct cli_inputs b = *p->in;
	size_t i = 0;
	bool more = true;

	while (more) {
		struct hangdx_evidence *ev = NULL;
		int err;

		pthread_mutex_lock(&p->mu);
		while (!p->stop && p->tokens == 0)
			pthread_cond_wait(&p->cv, &p->mu);
		more = !p->stop && i < p->n;
		if (more)
			p->tokens--;
		pthread_mutex_unlock(&p->mu);
		if (!more)
			break;
		if (!next_batch(p, &i, &b))
			break;
		err = read_one(p, &b, &ev);
		pthread_mutex_lock(&p->mu);
		while (!p->stop && p->full)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop) {
			more = false;
		} else {
			p->ev = ev;
			ev = NULL;
			p->err = err;
			p->full = true;
			p->nbatch++;
			more = i < p->n && (!err || err == HANGDX_ENOTFOUND);
		}
		p->end = !more;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		hangdx_evidence_free(ev);
	}
	pthread_mutex_lock(&p->mu);
	p->end = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Take the next batch read: false when there is none. */
static bool take(struct pipe *p, struct hangdx_evidence **ev, int *err)
{
	bool got;

	pthread_mutex_lock(&p->mu);
	while (!p->full && !p->end)
		pthread_cond_wait(&p->cv, &p->mu);
	got = p->full;
	if (got) {
		*ev = p->ev;
		*err = p->err;
		p->ev = NULL;
		p->full = false;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return got;
}

static void give_back(struct pipe *p, bool stop)
{
	pthread_mutex_lock(&p->mu);
	p->tokens++;
	p->stop |= stop;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* One batch read (err its reading's outcome) reduced into f and freed:
 * the outcome; *got set when a batch added facts. */
static int reduce_one(struct hangdx_facts *f, struct hangdx_evidence *ev,
		      int err, const struct hangdx_diagnose_opts *o, int *got)
{
	if (!err)
		err = hangdx_facts_add_evidence(f, ev, o);
	hangdx_evidence_free(ev);
	*got |= err == HANGDX_OK;
	return err;
}

/* The outcome of all batches: "nothing read" only when no batch was. */
static int batches_done(int err, int got)
{
	return err == HANGDX_ENOTFOUND && got ? HANGDX_OK : err;
}

/* Reduce the batches as the reader hands them over: as read_batches. */
static int reduce_piped(struct pipe *p, struct hangdx_facts *f,
			const struct hangdx_diagnose_opts *o)
{
	struct hangdx_evidence *ev = NULL;
	int err = HANGDX_ENOTFOUND, got = 0;

	while (take(p, &ev, &err)) {
		err = reduce_one(f, ev, err, o, &got);
		give_back(p, err && err != HANGDX_ENOTFOUND);
		if (err && err != HANGDX_ENOTFOUND)
			break;
	}
	return batches_done(err, got);
}

/* The batches read and reduced in turn, on this thread. */
static int read_batches(struct pipe *p, struct hangdx_facts *f,
			const struct hangdx_diagnose_opts *o)
{
	struct cli_inputs b = *p->in;
	struct hangdx_evidence *ev = NULL;
	int err = HANGDX_ENOTFOUND, got = 0;
	size_t i = 0;

	while (i < p->n && next_batch(p, &i, &b)) {
		p->nbatch++;
		err = read_one(p, &b, &ev);
		err = reduce_one(f, ev, err, o, &got);
		if (err && err != HANGDX_ENOTFOUND)
			break;
	}
	return batches_done(err, got);
}

int cli_read_batches(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		     const struct cli_inputs *in,
		     const struct hangdx_diagnose_opts *o, size_t *nent,
		     size_t *nbatch)
{
	struct cli_inputs b = *in;
	struct pipe p;
	pthread_t th, sz_th;
	uint64_t *sz;
	char **v;
	size_t n;
	int err;

	if (entries(in, &v, &sz, &n)) {
		cli_free_list(v, n);
		free(sz);
		return HANGDX_ENOMEM;
	}
	b.roots = in->paths;    /* DIR/rank-3 still names rank 3 */
	b.nroots = in->npaths;
	memset(&p, 0, sizeof p);
	p.ctx = ctx;
	p.in = &b;
	p.v = v;
	p.sz = sz;
	p.n = n;
	p.budget = in->dense / BATCH_SHARE;
	p.tokens = ALIVE;
	*nent = n;
	if (in->threads == 1 || n < 2 ||
	    pthread_mutex_init(&p.mu, NULL) != 0) {
		err = read_batches(&p, f, o);
	} else if (pthread_cond_init(&p.cv, NULL) != 0) {
		pthread_mutex_destroy(&p.mu);
		err = read_batches(&p, f, o);
	} else {
		p.sizing = pthread_create(&sz_th, NULL, sizer_main, &p) == 0;
		if (pthread_create(&th, NULL, reader_main, &p) != 0) {
			err = read_batches(&p, f, o);
		} else {
			err = reduce_piped(&p, f, o);
			give_back(&p, true);
			pthread_join(th, NULL);
			hangdx_evidence_free(p.ev);
		}
		if (p.sizing) {
			give_back(&p, true);
			pthread_join(sz_th, NULL);
		}
		pthread_cond_destroy(&p.cv);
		pthread_mutex_destroy(&p.mu);
	}
	*nbatch = p.nbatch;
	cli_free_list(v, n);
	free(sz);
	return err;
}
