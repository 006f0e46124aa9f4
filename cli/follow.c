/*
 * follow.c - what watch sees of logs that grow between its decisions.
 * One look walks the files under the PATHs: a hash of every file's path,
 * size, time and inode says whether anything changed, and the bytes each
 * file gained since the last look (kept per device and inode, so a plog
 * renamed by rotation is not read again) are read line by line for a line
 * hangdx_line_alarm asks a decision for.  Between looks it waits on
 * inotify (each directory met is watched) or, where that reports nothing
 * (NFS, Lustre, FUSE) or cannot be had, the period.  Memory: one entry a
 * file or directory.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

#define FOLLOW_MAX_FILES CLI_FOLLOW_MAX_FILES  /* files whose offsets are kept */
#define CHUNK ((size_t)1 << 20)             /* bytes read at a time */
#define LINE_MAX_BYTES ((size_t)64 << 10)   /* a line longer is cut here */
#define READ_MAX ((uint64_t)64 << 20)       /* bytes read a file a look;
					       past it, the growth alone
					       asks a decision */

#define FOLLOW_GAP 0.5            /* seconds at least between looks that
					   inotify woke */
#define INO_MASK (IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | \
		  IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | \
		  IN_MOVE_SELF)

struct fent {
	dev_t dev;
	ino_t ino;
	uint64_t off;           /* a file's bytes read (to the last newline) */
	int wd;                 /* its inotify watch, -1 none */
	unsigned char used, watched, file;
};

struct cli_follow {
	struct fent *tab, *next;        /* this look's table is built in next */
	size_t cap, ncap, n;
	int notab;                      /* no table (out of memory) */
	char *buf;
	int looked;                     /* a look was made before */
	int lines;                      /* read the new bytes */
	int ino;                        /* inotify descriptor, -1 none */
	int ino_full;                   /* a watch could not be added */
	uint64_t sig;
	int alarm;
};

static struct cli_follow *cur;     /* nftw passes no user data */

struct cli_follow *cli_follow_new(int lines, int inotify)
{
	struct cli_follow *fl = calloc(1, sizeof *fl);

	if (!fl)
		return NULL;
	fl->lines = lines;
	if (lines && !(fl->buf = malloc(CHUNK))) {
		free(fl);
		return NULL;
	}
	fl->ino = inotify ? inotify_init1(IN_NONBLOCK | IN_CLOEXEC) : -1;
	return fl;
}

int cli_follow_notified(const struct cli_follow *fl)
{
	return fl->ino >= 0 && !fl->ino_full;
}

void cli_follow_free(struct cli_follow *fl)
{
	if (!fl)
		return;
	if (fl->ino >= 0)
		close(fl->ino);
	free(fl->tab);
	free(fl->next);
	free(fl->buf);
	free(fl);
}

static size_t slot(const struct fent *t, size_t cap, dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ull) ^ (uint64_t)dev;
	size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);

	while (t[i].used && (t[i].dev != dev || t[i].ino != ino))
		i = (i + 1) & (cap - 1);
	return i;
}

static const struct fent *old_entry(const struct cli_follow *fl,
				    const struct stat *st)
{
	size_t i;

	if (!fl->tab)
		return NULL;
	i = slot(fl->tab, fl->cap, st->st_dev, st->st_ino);
	return fl->tab[i].used ? &fl->tab[i] : NULL;
}

static void mix(const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		cur->sig = (cur->sig ^ s[i]) * 1099511628211ull;
}

static int lines_alarm(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (hangdx_line_alarm(p, (size_t)(nl - p)))
			return 1;
	}
	return 0;
}

static size_t after_last_newline(const char *s, size_t n)
{
	while (n > 0 && s[n - 1] != '\n')
		n--;
	return n;
}

/* Read [from, size) of path for an alarm line; the new offset: past the
 * last newline read (a partial last line is read again next look), or
 * size when an alarm was found or the bytes could not be read. */
static uint64_t read_new(const char *path, uint64_t from, uint64_t size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	uint64_t off = from, done = from;
	size_t have = 0;
	struct stat st;

	if (fd < 0)
		return size;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto out_close;
	while (off < size && !cur->alarm) {
		size_t want = CHUNK - have, k;
		ssize_t got;

		if (size - off < want)
			want = (size_t)(size - off);
		got = pread(fd, cur->buf + have, want, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		off += (uint64_t)got;
		have += (size_t)got;
		k = after_last_newline(cur->buf, have);
		if (k == 0 && have >= LINE_MAX_BYTES)
			k = have;       /* a line past the ceiling: cut */
		cur->alarm = lines_alarm(cur->buf, k);
		done += k;
		memmove(cur->buf, cur->buf + k, have - k);
		have -= k;
	}
out_close:
	close(fd);
	return cur->alarm ? size : done;
}

static int compressed(const char *path)
{
	static const char *const sfx[] = { ".gz", ".tgz", ".zst", ".xz",
		".bz2", ".tar", ".zip", ".7z", NULL };
	size_t n = strlen(path), i;

	for (i = 0; sfx[i]; i++) {
		size_t m = strlen(sfx[i]);

		if (n >= m && strcmp(path + n - m, sfx[i]) == 0)
			return 1;
	}
	return 0;
}

/* Where reading starts in a file of this look, or UINT64_MAX: nothing
 * to read. */
static uint64_t start_of(const struct fent *o, const struct stat *st)
{
	uint64_t size = (uint64_t)st->st_size;

	if (!cur->looked)
		return UINT64_MAX;              /* the first decision reads all */
	if (!o)
		return 0;                       /* a file new since */
	if (size < o->off)
		return 0;                       /* truncated */
	return size > o->off ? o->off : UINT64_MAX;
}

static uint64_t follow_file(const char *path, const struct stat *st,
			    const struct fent *o)
{
	uint64_t size = (uint64_t)st->st_size;
	uint64_t from = start_of(o, st);

	if (from == UINT64_MAX)
		return o && cur->looked ? o->off : size;
	if (cur->alarm)
		return size;
	if (compressed(path) || size - from > READ_MAX) {
		cur->alarm = 1;
		return size;
	}
	return read_new(path, from, size);
}

/* Twice the slots for this look's table, up to the ceiling. */
static int grow(struct cli_follow *fl)
{
	size_t cap = fl->ncap * 2, i;
	struct fent *t;

	if (fl->n >= FOLLOW_MAX_FILES || !(t = calloc(cap, sizeof *t)))
		return -1;
	for (i = 0; i < fl->ncap; i++)
		if (fl->next[i].used)
			t[slot(t, cap, fl->next[i].dev, fl->next[i].ino)] =
				fl->next[i];
	free(fl->next);
	fl->next = t;
	fl->ncap = cap;
	return 0;
}

/* A directory met, or a PATH that is a file: watched once (the table
 * keeps the watch, or -1 when inotify had none to give). */
static int watch_of(const char *path, const struct fent *o)
{
	int wd;

	if (o && o->watched)
		return o->wd;
	if (cur->ino < 0)
		return -1;
	wd = inotify_add_watch(cur->ino, path, INO_MASK);
	if (wd < 0)
		cur->ino_full = 1;      /* the watches ran out: the period */
	return wd;
}

static void keep(const struct stat *st, uint64_t off, int wd, int watched)
{
	size_t i;

	if (cur->notab || (2 * (cur->n + 1) > cur->ncap && grow(cur) != 0))
		return;                 /* past the ceiling: not followed */
	i = slot(cur->next, cur->ncap, st->st_dev, st->st_ino);
	if (!cur->next[i].used)
		cur->n++;
	cur->next[i] = (struct fent){ st->st_dev, st->st_ino, off, wd, 1,
				      (unsigned char)watched,
				      (unsigned char)S_ISREG(st->st_mode) };
}

static int one(const char *path, const struct stat *st, int type,
	       struct FTW *ftw)
{
	const struct fent *o;
	int watched = type == FTW_D || (type == FTW_F && ftw->level == 0);
	uint64_t off = 0;
	int wd;

	if (type != FTW_F && type != FTW_D)
		return 0;
	o = cur->notab ? NULL : old_entry(cur, st);
	wd = watched ? watch_of(path, o) : -1;
	if (type == FTW_F) {
		mix(path, strlen(path) + 1);
		mix(&st->st_size, sizeof st->st_size);
		mix(&st->st_mtim, sizeof st->st_mtim);
		mix(&st->st_ino, sizeof st->st_ino);
		if (cur->lines && !cur->notab && S_ISREG(st->st_mode))
			off = follow_file(path, st, o);
	}
	keep(st, off, wd, watched);
	return 0;
}

/* The table of this look: as large as twice the last look's files. */
static int next_table(struct cli_follow *fl)
{
	size_t want = 1024;

	while (want < 4 * (fl->n + 1))
		want *= 2;
	free(fl->next);
	fl->next = calloc(want, sizeof *fl->next);
	fl->ncap = fl->next ? want : 0;
	fl->n = 0;
	return fl->next ? 0 : -1;
}

/* Watches of directories the last look met and this one did not. */
static void unwatch_gone(struct cli_follow *fl)
{
	size_t i;

	for (i = 0; fl->ino >= 0 && i < fl->cap; i++) {
		const struct fent *o = &fl->tab[i];

		if (o->used && o->watched && o->wd >= 0 &&
		    !fl->next[slot(fl->next, fl->ncap, o->dev, o->ino)].used)
			inotify_rm_watch(fl->ino, o->wd);
	}
}

void cli_follow_each(const struct cli_follow *fl,
		     void (*fn)(void *ud, const struct cli_follow_ent *e),
		     void *ud)
{
	size_t i;

	for (i = 0; fl->tab && i < fl->cap; i++)
		if (fl->tab[i].used && fl->tab[i].file)
			fn(ud, &(struct cli_follow_ent){ (uint64_t)fl->tab[i].dev,
				(uint64_t)fl->tab[i].ino, fl->tab[i].off });
}

int cli_follow_resume(struct cli_follow *fl, const struct cli_follow_ent *e,
		      size_t n)
{
	struct stat st;
	size_t i;

	if (fl->looked || n > FOLLOW_MAX_FILES)
		return -1;
	cur = fl;
	if (next_table(fl) != 0) {
		cur = NULL;
		return -1;
	}
	memset(&st, 0, sizeof st);
	st.st_mode = S_IFREG;
	for (i = 0; i < n; i++) {
		st.st_dev = (dev_t)e[i].dev;
		st.st_ino = (ino_t)e[i].ino;
		keep(&st, e[i].off, -1, 0);
	}
	free(fl->tab);
	fl->tab = fl->next;
	fl->cap = fl->ncap;
	fl->next = NULL;
	fl->ncap = 0;
	fl->looked = 1;
	cur = NULL;
	return 0;
}

void cli_follow_scan(struct cli_follow *fl, const char *const *paths,
		     size_t npaths, uint64_t *sig, int *alarm)
{
	size_t i;
	uint64_t before = fl->sig;

	cur = fl;
	fl->sig = 14695981039346656037ull;
	fl->alarm = 0;
	if (!fl->notab && next_table(fl) != 0)
		fl->notab = 1;          /* out of memory: sizes and times only */
	for (i = 0; i < npaths; i++)
		if (nftw(paths[i], one, 32, FTW_PHYS) != 0)
			mix("?", 1);
	if (!fl->notab) {
		struct fent *t = fl->tab;

		if (t)
			unwatch_gone(fl);
		fl->tab = fl->next;
		fl->cap = fl->ncap;
		fl->next = t;
	}
	if ((!fl->lines || fl->notab) && fl->looked && fl->sig != before)
		fl->alarm = 1;          /* no lines read: a change is one */
	fl->looked = 1;
	*sig = fl->sig;
	*alarm = fl->alarm;
	cur = NULL;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

void cli_follow_wait(struct cli_follow *fl, double s)
{
	double t0 = cli_now(), gap = s < FOLLOW_GAP ? s : FOLLOW_GAP;
	struct pollfd pfd;
	char ev[4096];

	if (fl->ino < 0) {
		sleep_s(s);
		return;
	}
	pfd.fd = fl->ino;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, (int)(s * 1000)) <= 0)
		return;                 /* the period, or a signal */
	while (read(fl->ino, ev, sizeof ev) > 0)
		;
	sleep_s(gap - (cli_now() - t0));
}
