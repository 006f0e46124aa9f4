/*
 * batch.c - dense logs in one process.  When the PATHs hold more bytes
 * of files than diagnose --batch SIZE (1 GiB), the entries of each PATH
 * directory are read SIZE / 4 bytes at a time: each batch into evidence of its
 * own, reduced to facts, and freed (as each process of diagnose --mpi
 * does), so memory holds one batch of logs and the facts; phase 2
 * (twophase.c) reads again the files of the ranks the verdict needs.
 * Also the directory listing cli/mpi.c shares out.
 */
#include <dirent.h>
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
#define BATCH_SHARE 4           /* a batch: this share of in->dense */

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
 * that order, in *v (joined to their PATH), with the bytes of the files
 * under each in *sz. */
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
				(*sz)[*n] = 0;
				tree_bytes(AT_FDCWD, e[j], 0, &(*sz)[*n], UINT64_MAX);
				(*v)[(*n)++] = e[j];
			} else {
				free(e[j]);
			}
		}
		free(e);
	}
	return rc;
}

/* One batch of entries into facts f: a library error; HANGDX_ENOTFOUND
 * when nothing in it could be read. */
static int read_batch(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		      const struct cli_inputs *in,
		      const struct hangdx_diagnose_opts *o)
{
	struct hangdx_evidence *ev = NULL;
	int err = hangdx_evidence_new(ctx, &ev);

	if (!err)
		err = cli_read_inputs(ev, in);
	if (!err)
		err = hangdx_facts_add_evidence(f, ev, o);
	hangdx_evidence_free(ev);
	return err;
}

int cli_read_batches(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		     const struct cli_inputs *in,
		     const struct hangdx_diagnose_opts *o, size_t *nent,
		     size_t *nbatch)
{
	uint64_t budget = in->dense / BATCH_SHARE, sum;
	struct cli_inputs b = *in;
	uint64_t *sz;
	char **v;
	size_t n, i, j;
	int err = HANGDX_ENOTFOUND, got = 0;

	if (entries(in, &v, &sz, &n)) {
		cli_free_list(v, n);
		free(sz);
		return HANGDX_ENOMEM;
	}
	b.roots = in->paths;    /* DIR/rank-3 still names rank 3 */
	b.nroots = in->npaths;
	*nent = n;
	*nbatch = 0;
	for (i = 0; i < n; i = j) {
		for (j = i, sum = 0; j < n && (j == i || sum + sz[j] <= budget); j++)
			sum += sz[j];
		b.paths = (const char *const *)v + i;
		b.npaths = j - i;
		++*nbatch;
		err = read_batch(ctx, f, &b, o);
		got |= err == HANGDX_OK;
		if (err && err != HANGDX_ENOTFOUND)
			break;
	}
	cli_free_list(v, n);
	free(sz);
	if (err == HANGDX_ENOTFOUND && got)
		err = HANGDX_OK;
	return err;
}
