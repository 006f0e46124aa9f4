/*
 * cmd_replay.c - `hangdx replay SRC DST`: write the logs of a finished job
 * (a bundle hangdx simulate wrote, or real logs) into DST again in log-time
 * order, a whole line at a time, at N times real time, so that a follower
 * of growing logs (hangdx watch, a user's own tools) can be tried on them.
 * Lines without a time of their own keep their file's order and take the
 * time of the line before them; a file appears when its first line is due.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "cli.h"

static int run(int argc, char **argv);

const struct cli_cmd cmd_replay = {
	"replay",
	N_("write a job's logs into a directory again, in log-time order, at N times real time"),
	N_("replay [options] SRC DST\n"
	"\n"
	"SRC is a directory of logs (read recursively; links are not followed)\n"
	"or one log file; DST is a directory that does not exist or is empty.\n"
	"Each file of SRC is written to the same path under DST, a whole line\n"
	"at a time, in the order of the lines' log times across all files; a\n"
	"line without a time follows the line before it in its file.  SRC is\n"
	"never modified.\n"
	"\n"
	"options:\n"
	"  -s, --speed N         N times real time (default 1; 0: as fast as\n"
	"                        possible, order kept)\n"
	"  -v, --verbose         print each line written: its log time and\n"
	"                        DST-PATH:LINE, on standard output\n"
	"  -h, --help            this help\n"
	"\n"
	"exit status: 0 written, 2 usage, 3 SRC could not be read,\n"
	"4 system error (DST could not be written)"),
	run
};

#define REPLAY_MAX_FILES 1000000u           /* files of SRC */
#define REPLAY_MAX_LINE  (64u << 20)        /* bytes of one line */

struct rfile {
	char *rel;              /* path below SRC ("" when SRC is a file) */
	FILE *in, *out;
	char *line;             /* the next line to write, with its newline */
	size_t cap, len;
	int64_t t;              /* its log time, INT64_MIN before any */
	unsigned long lineno;   /* of the next line */
};

struct replay {
	const char *src, *dst;
	double speed;
	int verbose;
	struct rfile *f;
	size_t nf, capf;
	size_t *heap;           /* indices into f, by (t, index) */
	size_t nheap;
	int64_t t0;             /* the first log time written */
	double wall0;
};

static struct replay *walking;      /* nftw has no user pointer */

static int add_file(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct replay *r = walking;
	struct rfile *nf;
	size_t skip = strlen(r->src);

	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	if (r->nf == r->capf) {
		size_t cap = r->capf ? r->capf * 2 : 64;

		if (r->nf >= REPLAY_MAX_FILES)
			return -2;
		nf = realloc(r->f, cap * sizeof *nf);
		if (!nf)
			return -1;
		r->f = nf;
		r->capf = cap;
	}
	while (path[skip] == '/')
		skip++;
	memset(&r->f[r->nf], 0, sizeof r->f[r->nf]);
	r->f[r->nf].rel = strdup(path + skip);
	if (!r->f[r->nf].rel)
		return -1;
	r->f[r->nf].t = INT64_MIN;
	r->nf++;
	return 0;
}

static int cmp_rel(const void *a, const void *b)
{
	return strcmp(((const struct rfile *)a)->rel, ((const struct rfile *)b)->rel);
}

/* The files of SRC, sorted by path; 0 or an exit code (said). */
static int collect(struct replay *r)
{
	struct stat st;
	int rc;

	if (stat(r->src, &st) != 0) {
		fprintf(stderr, _("%s replay: cannot read %s: %s\n"), cli_prog, r->src,
			strerror(errno));
		return EXIT_BADINPUT;
	}
	walking = r;
	rc = nftw(r->src, add_file, 64, FTW_PHYS);
	walking = NULL;
	if (rc == -2) {
		fprintf(stderr, _("%s replay: %s holds more than %u files\n"), cli_prog,
			r->src, REPLAY_MAX_FILES);
		return EXIT_BADINPUT;
	}
	if (rc != 0) {
		fprintf(stderr, _("%s replay: cannot read %s: %s\n"), cli_prog, r->src,
			strerror(errno));
		return EXIT_BADINPUT;
	}
	if (r->nf == 0) {
		fprintf(stderr, _("%s replay: no file in %s\n"), cli_prog, r->src);
		return EXIT_BADINPUT;
	}
	qsort(r->f, r->nf, sizeof *r->f, cmp_rel);
	return 0;
}

/* Read f's next line and its time; 1 read, 0 at the end, -1 error. */
static int next_line(struct rfile *f)
{
	ssize_t n;
	int64_t t;

	errno = 0;
	n = getline(&f->line, &f->cap, f->in);
	if (n < 0)
		return errno ? -1 : 0;
	if ((size_t)n > REPLAY_MAX_LINE) {
		errno = EFBIG;
		return -1;
	}
	f->len = (size_t)n;
	f->lineno++;
	if (hangdx_line_time(f->line, f->len && f->line[f->len - 1] == '\n'
						? f->len - 1 : f->len, &t) == HANGDX_OK &&
	    t > f->t)
		f->t = t;
	return 1;
}

static bool before(const struct replay *r, size_t a, size_t b)
{
	return r->f[a].t < r->f[b].t || (r->f[a].t == r->f[b].t && a < b);
}

static void heap_push(struct replay *r, size_t i)
{
	size_t k = r->nheap++;

	r->heap[k] = i;
	while (k && before(r, r->heap[k], r->heap[(k - 1) / 2])) {
		size_t p = (k - 1) / 2, x = r->heap[p];

		r->heap[p] = r->heap[k];
		r->heap[k] = x;
		k = p;
	}
}

static size_t heap_pop(struct replay *r)
{
	size_t top = r->heap[0], k = 0;

	r->heap[0] = r->heap[--r->nheap];
	for (;;) {
		size_t l = 2 * k + 1, m = k, x;

		if (l < r->nheap && before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == k)
			return top;
		x = r->heap[m];
		r->heap[m] = r->heap[k];
		r->heap[k] = x;
		k = m;
	}
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, *b ? "%s/%s" : "%s", a, b);
	return p;
}

/* mkdir -p of the directories above path (path itself is a file) */
static int make_dirs(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

/* Open every input and read its first line; 0 or an exit code (said). */
static int open_inputs(struct replay *r)
{
	size_t i;

	r->heap = malloc(r->nf * sizeof *r->heap);
	if (!r->heap)
		return EXIT_SYSERR;
	for (i = 0; i < r->nf; i++) {
		char *p = join(r->src, r->f[i].rel);
		int got;

		if (!p)
			return EXIT_SYSERR;
		r->f[i].in = fopen(p, "rb");
		if (!r->f[i].in) {
			fprintf(stderr, _("%s replay: cannot read %s: %s\n"), cli_prog, p,
				strerror(errno));
			free(p);
			return errno == EMFILE ? EXIT_SYSERR : EXIT_BADINPUT;
		}
		free(p);
		got = next_line(&r->f[i]);
		if (got < 0)
			return EXIT_BADINPUT;
		if (got > 0)
			heap_push(r, i);
	}
	return 0;
}

/* Flush what was written, then wait until log time t is due. */
static void pace(struct replay *r, int64_t t)
{
	double due, left;
	size_t i;

	if (r->speed <= 0 || t == INT64_MIN)
		return;
	if (r->t0 == INT64_MIN) {
		r->t0 = t;
		r->wall0 = cli_now();
		return;
	}
	due = (double)(t - r->t0) / 1e6 / r->speed;
	left = due - (cli_now() - r->wall0);
	if (left <= 0.0005)
		return;
	for (i = 0; i < r->nf; i++)
		if (r->f[i].out)
			fflush(r->f[i].out);
	{
		struct timespec ts = { (time_t)left,
				       (long)((left - (double)(time_t)left) * 1e9) };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
}

static int write_line(struct replay *r, struct rfile *f)
{
	if (!f->out) {
		char *p = join(r->dst, f->rel[0] ? f->rel : strrchr(r->src, '/')
						     ? strrchr(r->src, '/') + 1 : r->src);

		if (!p || make_dirs(p) != 0 || !(f->out = fopen(p, "wbx"))) {
			fprintf(stderr, _("%s replay: cannot write %s: %s\n"), cli_prog,
				p ? p : r->dst, strerror(errno));
			free(p);
			return EXIT_SYSERR;
		}
		free(p);
	}
	if (fwrite(f->line, 1, f->len, f->out) != f->len) {
		fprintf(stderr, _("%s replay: cannot write %s/%s: %s\n"), cli_prog,
			r->dst, f->rel, strerror(errno));
		return EXIT_SYSERR;
	}
	if (r->verbose) {
		char ts[64] = "-";

		if (f->t != INT64_MIN) {
			time_t sec = (time_t)(f->t / 1000000);
			struct tm tm;

			gmtime_r(&sec, &tm);
			snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%06" PRId64,
				 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
				 tm.tm_min, tm.tm_sec, f->t % 1000000);
		}
		printf("%s %s:%lu\n", ts, f->rel[0] ? f->rel : r->src, f->lineno);
	}
	return 0;
}

static int replay(struct replay *r)
{
	int rc = open_inputs(r);

	while (!rc && r->nheap) {
		size_t i = heap_pop(r);
		struct rfile *f = &r->f[i];
		int got;

		pace(r, f->t);
		rc = write_line(r, f);
		if (rc)
			break;
		got = next_line(f);
		if (got < 0) {
			fprintf(stderr, _("%s replay: cannot read %s/%s: %s\n"), cli_prog,
				r->src, f->rel, strerror(errno));
			rc = EXIT_BADINPUT;
		} else if (got > 0) {
			heap_push(r, i);
		} else if (fclose(f->out) != 0) {
			f->out = NULL;
			rc = EXIT_SYSERR;
		} else {
			f->out = NULL;
		}
	}
	return rc;
}

/* Make DST when it does not exist; -1 (errno set) when it cannot be. */
static int make_dst(const char *dst)
{
	struct stat st;

	if (stat(dst, &st) == 0)
		return 0;
	return mkdir(dst, 0777);
}

/* DST under SRC would write into the input (DST need not exist yet). */
static bool inside(const char *dst, const char *src)
{
	char a[PATH_MAX], b[PATH_MAX], parent[PATH_MAX];
	const char *slash = strrchr(dst, '/');
	size_t n;

	if (!realpath(src, b))
		return false;
	if (!realpath(dst, a)) {
		if (!slash)
			snprintf(parent, sizeof parent, ".");
		else
			snprintf(parent, sizeof parent, "%.*s",
				 (int)(slash == dst ? 1 : slash - dst), dst);
		if (!realpath(parent, a) ||
		    strlen(a) + strlen(slash ? slash : dst) + 2 > sizeof a)
			return false;
		strcat(a, "/");
		strcat(a, slash ? slash + 1 : dst);
	}
	n = strlen(b);
	return strncmp(a, b, n) == 0 && (a[n] == '/' || a[n] == '\0');
}

static int empty_entry(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)path;
	(void)st;
	(void)type;
	return ftw->level > 0;
}

static void free_replay(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nf; i++) {
		if (r->f[i].in)
			fclose(r->f[i].in);
		if (r->f[i].out)
			fclose(r->f[i].out);
		free(r->f[i].line);
		free(r->f[i].rel);
	}
	free(r->f);
	free(r->heap);
}

/* Room for an input and an output per file, where the system allows. */
static void raise_nofile(size_t files)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < (rlim_t)(2 * files + 16) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int parse_args(int argc, char **argv, struct replay *r)
{
	static const struct option longopts[] = {
		{ "speed", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			r->speed = strtod(optarg, &end);
			if (*optarg == '\0' || *end || !(r->speed >= 0 && r->speed <= 1e9)) {
				cli_usage_error(&cmd_replay, "--speed takes 0 to 1e9");
				return EXIT_USAGE;
			}
			break;
		case 'v': r->verbose = 1; break;
		case 'h':
			cli_help(&cmd_replay, stdout);
			return -1;
		default:
			cli_usage_error(&cmd_replay, "bad option");
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		cli_usage_error(&cmd_replay, "give SRC and DST");
		return EXIT_USAGE;
	}
	r->src = argv[optind];
	r->dst = argv[optind + 1];
	return 0;
}

static int run(int argc, char **argv)
{
	struct replay r;
	struct stat st;
	int rc;

	memset(&r, 0, sizeof r);
	r.speed = 1;
	r.t0 = INT64_MIN;
	rc = parse_args(argc, argv, &r);
	if (rc)
		return rc < 0 ? EXIT_OK_NOHANG : rc;
	rc = collect(&r);
	if (!rc && stat(r.dst, &st) == 0 &&
	    (!S_ISDIR(st.st_mode) || nftw(r.dst, empty_entry, 4, FTW_PHYS) != 0)) {
		fprintf(stderr, _("%s replay: %s exists and is not an empty directory\n"),
			cli_prog, r.dst);
		rc = EXIT_USAGE;
	}
	if (!rc && inside(r.dst, r.src)) {
		fprintf(stderr, _("%s replay: %s is inside %s\n"), cli_prog, r.dst, r.src);
		rc = EXIT_USAGE;
	}
	if (!rc && make_dst(r.dst) != 0) {
		fprintf(stderr, _("%s replay: cannot write %s: %s\n"), cli_prog, r.dst,
			strerror(errno));
		rc = EXIT_SYSERR;
	}
	if (!rc) {
		raise_nofile(r.nf);
		rc = replay(&r);
	}
	if (!rc && r.verbose && fflush(stdout) != 0)
		rc = EXIT_SYSERR;
	free_replay(&r);
	return rc;
}
