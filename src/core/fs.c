/*
 * fs.c - the file-system edge of the library: output files written to a
 * temporary name and renamed when complete (an existing output is never
 * truncated before the new one is whole), directory creation and removal.
 * A path that exists and is not a regular file or a directory (a device
 * such as /dev/stdout or /dev/null, a FIFO) is written to directly:
 * renaming over it would replace the device with a file.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core.h"

int hx_outfile_open(struct hangdx_ctx *ctx, struct hx_outfile *o,
		    const char *path)
{
	size_t n = strlen(path) + 32;
	int fd, err = HANGDX_ENOMEM;
	struct stat st;

	memset(o, 0, sizeof *o);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		o->fp = fopen(path, "w");       /* a device or a FIFO */
		return o->fp ? HANGDX_OK : HANGDX_EIO;
	}
	o->path = hx_strdup(ctx, path);
	o->tmp = hx_alloc(ctx, n);
	if (!o->path || !o->tmp)
		goto out_free_names;
	err = HANGDX_EIO;
	snprintf(o->tmp, n, "%s.tmp-XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0)
		goto out_free_names;
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		close(fd);
		unlink(o->tmp);
		goto out_free_names;
	}
	return HANGDX_OK;

out_free_names:
	hx_free(ctx, o->path);
	hx_free(ctx, o->tmp);
	memset(o, 0, sizeof *o);
	return err;
}

int hx_outfile_open_direct(struct hangdx_ctx *ctx, struct hx_outfile *o,
			   const char *path)
{
	(void)ctx;
	memset(o, 0, sizeof *o);
	o->fp = fopen(path, "w");
	return o->fp ? HANGDX_OK : HANGDX_EIO;
}

static void outfile_release(struct hangdx_ctx *ctx, struct hx_outfile *o)
{
	hx_free(ctx, o->path);
	hx_free(ctx, o->tmp);
	memset(o, 0, sizeof *o);
}

int hx_outfile_commit(struct hangdx_ctx *ctx, struct hx_outfile *o)
{
	int bad = ferror(o->fp);

	if (fclose(o->fp) != 0)
		bad = 1;
	if (!o->tmp) {                  /* written in place */
		outfile_release(ctx, o);
		return bad ? HANGDX_EIO : HANGDX_OK;
	}
	if (!bad) {
		/* mkstemp makes 0600; outputs are ordinary files */
		mode_t um = umask(0);
		umask(um);
		chmod(o->tmp, 0666 & ~um);
		if (rename(o->tmp, o->path) != 0)
			bad = 1;
	}
	if (bad)
		unlink(o->tmp);
	outfile_release(ctx, o);
	return bad ? HANGDX_EIO : HANGDX_OK;
}

void hx_outfile_abort(struct hangdx_ctx *ctx, struct hx_outfile *o)
{
	if (o->fp) {
		fclose(o->fp);
		if (o->tmp)
			unlink(o->tmp);
	}
	outfile_release(ctx, o);
}

/* mkdir -p from the leaf up: in a tree being filled (the simulator's
 * 100,000 rank directories) most calls find the parent there and cost one
 * mkdir instead of one per component. */
static int mkdirs_in(char *buf)
{
	char *slash;
	int err;

	if (mkdir(buf, 0777) == 0 || errno == EEXIST)
		return HANGDX_OK;
	slash = strrchr(buf, '/');
	if (errno != ENOENT || !slash || slash == buf)
		return HANGDX_EIO;
	*slash = '\0';
	err = mkdirs_in(buf);
	*slash = '/';
	if (err)
		return err;
	return mkdir(buf, 0777) == 0 || errno == EEXIST ? HANGDX_OK : HANGDX_EIO;
}

int hx_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof buf)
		return HANGDX_EINVAL;
	memcpy(buf, path, n + 1);
	return mkdirs_in(buf);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(p) : unlink(p)) != 0 ? -1 : 0;
}

int hx_rmtree(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0 ? HANGDX_EIO
								  : HANGDX_OK;
}
