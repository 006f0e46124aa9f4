/*
 * cmd_diagnose.c - `hangdx diagnose`: read the logs (files, directories,
 * archives, saved evidence), diagnose, and print the verdict, the chain
 * with its evidence and the fix; optionally JSON, the wait-for graph as
 * DOT or SVG, and the HTML report.  The SVG comes from Graphviz's dot,
 * run here (not in the library) through pipes, without a shell.  Files
 * are written under a temporary name and renamed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

#ifndef DOT_TIMEOUT_MS
#define DOT_TIMEOUT_MS 120000          /* dot gets two minutes */
#endif
#define SVG_MAX (64u << 20)            /* and may write 64 MiB */

extern char **environ;

static int run(int argc, char **argv);

const struct cli_cmd cmd_diagnose = {
	"diagnose",
	N_("find why a job hung: first failing rank, root cause, proven deadlock, fix"),
	N_("diagnose [options] PATH...\n"
	"       hangdx diagnose [options] --facts FILE... [PATH...]\n"
	"       mpirun -np N hangdx diagnose --mpi [options] PATH...\n"
	"\n"
	"PATH is a log file, a directory (read recursively), an archive or a\n"
	"compressed file (.tar, .tar.gz, .tar.zst, .zip, .gz, .zst), or - for\n"
	"standard input.\n"
	"\n"
	"options:\n"
	"      --json            the diagnosis as JSON (docs/DIAGNOSIS.md)\n"
	"      --dot FILE        write the rebuilt wait-for graph as Graphviz DOT\n"
	"      --svg FILE        write it as SVG (runs Graphviz's dot)\n"
	"      --html FILE       write the report as one self-contained HTML page\n"
	"                        (graph inline when dot is available)\n"
	"      --evidence FILE   also read evidence saved by `parse --json`\n"
	"                        (repeatable; merged with the logs read)\n"
	"      --facts FILE      read facts written by `hangdx facts` (repeatable;\n"
	"                        the logs of PATH are added as facts)\n"
	"      --mpi             run under mpirun: each process reads its share\n"
	"                        of PATH, the facts meet on process 0\n"
	"      --mpi-share HOW   dirs: the entries of each PATH are shared out\n"
	"                        (shared file system); all: every process reads\n"
	"                        every PATH (logs local to each node); auto\n"
	"                        (default): dirs when every process sees the\n"
	"                        same PATH listing\n"
	"      --mpi-timeout S   give up waiting for another process after S\n"
	"                        seconds (600)\n"
	"      --mpi-batch N     read a process's share of PATH entries N at a\n"
	"                        time, keeping only their facts between batches\n"
	"                        (default 2048; 0: all at once)\n"
	"      --cores N         AICPU cores per device (default 6: Atlas A2/A3)\n"
	"      --threads N       1 to read on one thread (default: 2 when there\n"
	"                        are several files; 1 under --mpi)\n"
	"      --max-records N   records kept (4194304; about 250 bytes each)\n"
	"      --batch SIZE      PATHs holding more than SIZE bytes of files\n"
	"                        (1G) are read SIZE/8 at a time, each part\n"
	"                        reduced to facts (0: all in one pass)\n"
	"      --node NAME       this machine's node (default: the host name):\n"
	"                        facts from other nodes keep their files apart\n"
	"      --color WHEN      never, always or auto (default; honours NO_COLOR)\n"
	"  -h, --help            this help\n"
	"\n"
	"exit status: 0 no hang (a normal end, or a failure that is not a\n"
	"hang), 1 hang diagnosed or not ruled out (also when not determined:\n"
	"no failure and no normal end), 2 usage, 3 no input could be read\n"
	"(or a bad facts file), 4 system error (with --mpi: an MPI failure or\n"
	"timeout)"),
	run
};

struct dargs {
	int json;
	const char *dot, *svg, *html;
	const char **evid, **facts;
	size_t nevid, nfacts;
	int mpi;
	int mpi_share;      /* CLI_MPI_SHARE_* */
	double mpi_timeout; /* seconds */
	size_t mpi_batch;   /* PATH entries read at a time */
	uint64_t dense;     /* --batch: bytes from which PATHs go in batches */
	unsigned cores;
	int color;          /* -1 auto */
	int threads;        /* 0: default */
	size_t max_records; /* 0: default */
	const char *node;   /* --node */
	int npaths;         /* PATHs left after the facts files among them */
};

/* Append s to the list *v of *n strings; 0 or EXIT_SYSERR. */
static int add_arg(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof *nv);

	if (!nv)
		return EXIT_SYSERR;
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

static int parse_mpi_share(const char *s, struct dargs *a)
{
	if (strcmp(s, "auto") == 0) a->mpi_share = CLI_MPI_SHARE_AUTO;
	else if (strcmp(s, "dirs") == 0) a->mpi_share = CLI_MPI_SHARE_DIRS;
	else if (strcmp(s, "all") == 0) a->mpi_share = CLI_MPI_SHARE_ALL;
	else {
		cli_usage_error(&cmd_diagnose, "--mpi-share takes dirs, all or auto");
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_mpi_timeout(const char *s, struct dargs *a)
{
	char *end;

	a->mpi_timeout = strtod(s, &end);
	if (end == s || *end || !(a->mpi_timeout > 0 && a->mpi_timeout <= 1e6)) {
		cli_usage_error(&cmd_diagnose, "--mpi-timeout takes seconds, above 0");
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_mpi_batch(const char *s, struct dargs *a)
{
	unsigned long long n;

	if (cli_parse_num(&cmd_diagnose, "--mpi-batch", s, 0, 1ull << 30, &n))
		return EXIT_USAGE;
	a->mpi_batch = (size_t)n;
	return 0;
}

/* What the options and PATHs ask for fits together; 0 or EXIT_USAGE. */
static int check_args(const struct dargs *a, char **paths, int npaths)
{
	const char *why = NULL;
	int i, stdin_path = 0;

	for (i = 0; i < npaths; i++)
		stdin_path |= strcmp(paths[i], "-") == 0;

	if (a->mpi && a->nfacts)
		why = N_("--mpi and --facts do not go together");
	else if (a->mpi && a->nevid)
		why = N_("--mpi and --evidence do not go together");
	else if (a->mpi && npaths == 0)
		why = N_("--mpi needs a PATH");
	else if (a->mpi && stdin_path)
		why = N_("--mpi reads files, not standard input");
	else if (npaths == 0 && a->nevid == 0 && a->nfacts == 0)
		why = N_("no PATH given");
#ifndef HANGDX_MPI
	else if (a->mpi)
		why = N_("--mpi: this hangdx was built without MPI (Open MPI's "
			 "mpicc was not found at build time)");
#endif
	if (!why)
		return 0;
	cli_usage_error(&cmd_diagnose, why);
	return EXIT_USAGE;
}

/* A PATH that is a facts file is read as facts, and one of saved
 * evidence as evidence, never as a log: the shell makes `--facts *.facts`
 * one --facts and the rest PATHs.  The PATHs left stay in order at the
 * front of paths; 0 or EXIT_SYSERR. */
static int take_saved(struct dargs *a, char **paths, int *npaths)
{
	int i, n = 0, rc = 0;

	for (i = 0; i < *npaths && !rc; i++) {
		if (strcmp(paths[i], "-") == 0)
			paths[n++] = paths[i];
		else if (hangdx_facts_probe(paths[i]))
			rc = add_arg(&a->facts, &a->nfacts, paths[i]);
		else if (hangdx_evidence_probe(paths[i]))
			rc = add_arg(&a->evid, &a->nevid, paths[i]);
		else
			paths[n++] = paths[i];
	}
	*npaths = n;
	return rc;
}

static int parse_args(int argc, char **argv, struct dargs *a)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "dot", required_argument, NULL, 'd' },
		{ "svg", required_argument, NULL, 's' },
		{ "html", required_argument, NULL, 'H' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "facts", required_argument, NULL, 'f' },
		{ "mpi", no_argument, NULL, 'M' },
		{ "mpi-share", required_argument, NULL, 'S' },
		{ "mpi-timeout", required_argument, NULL, 'T' },
		{ "mpi-batch", required_argument, NULL, 'B' },
		{ "batch", required_argument, NULL, 'b' },
		{ "cores", required_argument, NULL, 'c' },
		{ "color", required_argument, NULL, 'C' },
		{ "threads", required_argument, NULL, 't' },
		{ "max-records", required_argument, NULL, 'n' },
		{ "node", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long v;
	int c, rc = 0;

	memset(a, 0, sizeof *a);
	a->color = -1;
	a->mpi_timeout = 600;
	a->mpi_batch = 2048;
	a->dense = (uint64_t)1 << 30;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': a->json = 1; break;
		case 'd': a->dot = optarg; break;
		case 's': a->svg = optarg; break;
		case 'H': a->html = optarg; break;
		case 'e': rc = add_arg(&a->evid, &a->nevid, optarg); break;
		case 'f': rc = add_arg(&a->facts, &a->nfacts, optarg); break;
		case 'M': a->mpi = 1; break;
		case 'N': a->node = optarg; break;
		case 'S': rc = parse_mpi_share(optarg, a); break;
		case 'T': rc = parse_mpi_timeout(optarg, a); break;
		case 'B': rc = parse_mpi_batch(optarg, a); break;
		case 'b':
			if (cli_parse_batch(&cmd_diagnose, optarg, &a->dense))
				return EXIT_USAGE;
			break;
		case 'c':
			if (cli_parse_num(&cmd_diagnose, "--cores", optarg, 1, 64, &v))
				return EXIT_USAGE;
			a->cores = (unsigned)v;
			break;
		case 't':
			if (cli_parse_num(&cmd_diagnose, "--threads", optarg, 1, 2, &v))
				return EXIT_USAGE;
			a->threads = (int)v;
			break;
		case 'n':
			if (cli_parse_records(&cmd_diagnose, optarg, &a->max_records))
				return EXIT_USAGE;
			break;
		case 'C':
			if (strcmp(optarg, "never") == 0) a->color = 0;
			else if (strcmp(optarg, "always") == 0) a->color = 1;
			else if (strcmp(optarg, "auto") == 0) a->color = -1;
			else {
				cli_usage_error(&cmd_diagnose, "--color takes never, always or auto");
				return EXIT_USAGE;
			}
			break;
		case 'h':
			cli_help(&cmd_diagnose, stdout);
			return -1;
		default:
			cli_usage_error(&cmd_diagnose, "bad option");
			return EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	a->npaths = argc - optind;
	if (!a->mpi && (rc = take_saved(a, argv + optind, &a->npaths)) != 0)
		return rc;
	return check_args(a, argv + optind, a->npaths);
}

/* What an output file is made of: the diagnosis and the rendered SVG. */
struct job {
	const struct hangdx_diagnosis *d;
	const char *svg;            /* NULL: not rendered */
};

static int put_dot(const void *ud, FILE *fp)
{
	const struct job *j = ud;

	return hangdx_diagnosis_write_dot(j->d, fp);
}

static int put_svg(const void *ud, FILE *fp)
{
	const struct job *j = ud;

	return fputs(j->svg, fp) < 0 ? HANGDX_EIO : HANGDX_OK;
}

static int put_html(const void *ud, FILE *fp)
{
	const struct job *j = ud;

	return hangdx_diagnosis_write_html(j->d, fp, j->svg, HANGDX_HTML_QUOTE);
}

/* ---- Graphviz: dot -Tsvg through pipes ---- */

struct sbuf {
	char *p;
	size_t len, cap, max;
};

/* Read what fd has into b; past b->max the bytes are dropped and
 * b->len stays above max.  >0 read, 0 end of file, -1 error. */
static ssize_t sbuf_read(struct sbuf *b, int fd)
{
	char scratch[4096];
	ssize_t got;

	if (b->len <= b->max && b->cap - b->len < sizeof scratch + 1) {
		size_t cap = b->cap ? b->cap * 2 : 65536;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	if (b->len > b->max)
		return read(fd, scratch, sizeof scratch);
	got = read(fd, b->p + b->len, b->cap - b->len - 1);
	if (got > 0) {
		b->len += (size_t)got;
		b->p[b->len] = '\0';
	}
	return got;
}

struct dotproc {
	pid_t pid;
	int in, out, err;       /* our ends of dot's stdin, stdout, stderr */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int cloexec_pipe(int fd[2])
{
	if (pipe(fd) != 0)
		return errno;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Start `dot -Tsvg` (found in PATH, no shell) on three pipes, in a
 * process group of its own so that a timeout ends all of it.  0 or an
 * errno value (ENOENT: no dot). */
static int dot_spawn(struct dotproc *p)
{
	static char arg0[] = "dot", arg1[] = "-Tsvg";
	char *argv[] = { arg0, arg1, NULL };
	int fd[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, i, rc = 0;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;

	for (i = 0; i < 3 && !rc; i++)
		rc = cloexec_pipe(fd[i]);
	if (rc)
		goto out_close_pipes;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[0][0], 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1][1], 1);
	posix_spawn_file_actions_adddup2(&fa, fd[2][1], 2);
	posix_spawnattr_init(&at);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	rc = posix_spawnp(&p->pid, "dot", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (!rc) {
		p->in = fd[0][1];
		p->out = fd[1][0];
		p->err = fd[2][0];
		fd[0][1] = fd[1][0] = fd[2][0] = -1;
	}
out_close_pipes:
	for (i = 0; i < 3; i++) {
		close_fd(&fd[i][0]);
		close_fd(&fd[i][1]);
	}
	return rc;
}

static long now_ms(void)
{
	return (long)(cli_now() * 1000);
}

/* One descriptor poll says is ready: write more DOT, or read SVG or
 * complaints; close it at its end. */
static void pump_fd(struct dotproc *p, int fd, const char *dot, size_t n,
		    size_t *off, struct sbuf *out, struct sbuf *err)
{
	ssize_t got;

	if (fd == p->in) {
		got = write(p->in, dot + *off, n - *off);
		if (got > 0)
			*off += (size_t)got;
		else if (errno != EAGAIN && errno != EINTR)
			close_fd(&p->in);       /* dot is gone: its status says why */
		return;
	}
	got = sbuf_read(fd == p->out ? out : err, fd);
	if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
		close_fd(fd == p->out ? &p->out : &p->err);
}

/* Feed the DOT text to dot's stdin while reading its stdout and stderr,
 * with poll so neither side can block the other.  0, ETIMEDOUT, EFBIG
 * (more than SVG_MAX), or an errno value. */
static int dot_pump(struct dotproc *p, const char *dot, size_t n,
		    struct sbuf *out, struct sbuf *err)
{
	long deadline = now_ms() + DOT_TIMEOUT_MS;
	size_t off = 0;

	fcntl(p->in, F_SETFL, O_NONBLOCK);
	while (p->out >= 0 || p->err >= 0) {
		struct pollfd pf[3];
		nfds_t np = 0, i;
		long left = deadline - now_ms();

		if (p->in >= 0 && off == n)
			close_fd(&p->in);
		if (p->in >= 0)
			pf[np++] = (struct pollfd){ p->in, POLLOUT, 0 };
		if (p->out >= 0)
			pf[np++] = (struct pollfd){ p->out, POLLIN, 0 };
		if (p->err >= 0)
			pf[np++] = (struct pollfd){ p->err, POLLIN, 0 };
		if (left <= 0)
			return ETIMEDOUT;
		if (poll(pf, np, (int)left) < 0 && errno != EINTR)
			return errno;
		for (i = 0; i < np; i++)
			if (pf[i].revents)
				pump_fd(p, pf[i].fd, dot, n, &off, out, err);
	}
	close_fd(&p->in);
	return out->len > out->max ? EFBIG : 0;
}

/* Wait for dot; kill its group first when it is not done (timeout,
 * error). */
static int dot_reap(struct dotproc *p, int kill_it)
{
	int status = 0;

	if (kill_it)
		kill(-p->pid, SIGKILL);
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Say on stderr why the graph is not rendered, or what dot complained
 * about.  A dot that exits 0 without an <svg> element has failed too. */
static void dot_say(int rc, int status, const struct sbuf *out,
		    const struct sbuf *err)
{
	const char *e = err->p && err->len ? err->p : "";
	const char *nl = strchr(e, '\n');
	int len = nl ? (int)(nl - e) : (int)strlen(e);

	const char *why = NULL;
	char buf[64];

	if (rc == ENOENT || (WIFEXITED(status) && WEXITSTATUS(status) == 127))
		why = _("dot not found (install Graphviz)");
	else if (rc == ETIMEDOUT)
		why = _("dot took too long");
	else if (rc == EFBIG)
		why = _("dot wrote too much");
	else if (rc)
		why = strerror(rc);
	else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(buf, sizeof buf, "dot failed (%s %d)",
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		why = buf;
	} else if (!out->p || !strstr(out->p, "<svg"))
		why = _("dot wrote no SVG");
	if (why)
		fprintf(stderr, _("%s diagnose: cannot render the wait-for graph: %s\n"),
			cli_prog, why);
	if (*e)
		fprintf(stderr, "%s diagnose: dot: %.*s\n", cli_prog, len, e);
}

/* dot -Tsvg of the text; the SVG (malloc'd) or NULL, said on stderr. */
static char *dot_render(const char *dot, size_t n)
{
	struct dotproc p = { -1, -1, -1, -1 };
	struct sbuf out = { NULL, 0, 0, SVG_MAX }, err = { NULL, 0, 0, 1u << 16 };
	struct sigaction ign, old;
	int rc, status = 0;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	rc = dot_spawn(&p);
	if (!rc) {
		rc = dot_pump(&p, dot, n, &out, &err);
		close_fd(&p.in);
		close_fd(&p.out);
		close_fd(&p.err);
		status = dot_reap(&p, rc != 0);
	}
	sigaction(SIGPIPE, &old, NULL);
	dot_say(rc, status, &out, &err);
	free(err.p);
	if (rc || !WIFEXITED(status) || WEXITSTATUS(status) || !out.p ||
	    !strstr(out.p, "<svg")) {
		free(out.p);
		return NULL;
	}
	return out.p;
}

/* The wait-for graph of d as SVG, or NULL (said on stderr). */
static char *render_svg(const struct hangdx_diagnosis *d)
{
	char *dot = NULL, *svg = NULL;
	size_t n = 0;
	FILE *mf = open_memstream(&dot, &n);
	int err;

	if (!mf) {
		fprintf(stderr, _("%s diagnose: out of memory\n"), cli_prog);
		return NULL;
	}
	err = hangdx_diagnosis_write_dot(d, mf);
	if (fclose(mf) != 0 && !err)
		err = HANGDX_ENOMEM;
	if (err)
		fprintf(stderr, "%s diagnose: %s\n", cli_prog, hangdx_strerror(err));
	else
		svg = dot_render(dot, n);
	free(dot);
	return svg;
}

/* 0, a library error, or -1 when a file could not be written (said). */
static int report(const struct hangdx_diagnosis *d,
		  const struct hangdx_diagnosis *fd, const struct dargs *a)
{
	int color = a->color < 0 ? cli_color(stdout) : a->color;
	struct job j = { fd, NULL };
	char *svg = NULL;
	int err;

	err = a->json ? hangdx_diagnosis_write_json(d, stdout)
		      : hangdx_diagnosis_write_text(d, stdout,
						    color ? HANGDX_COLOR : 0);
	if (!err && (a->svg || a->html))
		j.svg = svg = render_svg(fd);
	if (!err && a->dot)
		err = cli_write_file(&cmd_diagnose, a->dot, put_dot, &j);
	if (!err && a->html)
		err = cli_write_file(&cmd_diagnose, a->html, put_html, &j);
	if (!err && a->svg && svg)
		err = cli_write_file(&cmd_diagnose, a->svg, put_svg, &j);
	else if (!err && a->svg)
		err = -1;
	free(svg);
	return err;
}

/* Where a diagnosis comes from: evidence read here, facts, or facts
 * met under MPI (with their fetch). */
struct source {
	const struct hangdx_evidence *ev;
	struct hangdx_facts *f;         /* phase 2 adds the evidence fetched */
	hangdx_fetch_fn *fetch;
	void *fetch_ud;
};

static int diagnose_src(const struct source *s,
			const struct hangdx_diagnose_opts *o,
			struct hangdx_diagnosis **d)
{
	if (s->ev)
		return hangdx_diagnose(s->ev, o, d);
	return hangdx_diagnose_facts(s->f, o, s->fetch, s->fetch_ud, d);
}

/* JSON is the same in every language: with --json the diagnosis is made
 * untranslated (the files written beside it get one of their own,
 * files_for). */
static int diagnose_in(const struct source *s,
		       const struct hangdx_diagnose_opts *o, const struct dargs *a,
		       struct hangdx_diagnosis **d)
{
	int prev, err;

	if (!a->json)
		return diagnose_src(s, o, d);
	prev = hangdx_set_translate(0);
	err = diagnose_src(s, o, d);
	hangdx_set_translate(prev);
	return err;
}

/* With --json in another language, the HTML, DOT and SVG files get a
 * translated diagnosis of their own. */
static int second_diagnosis(const struct dargs *a)
{
	return a->json && (a->html || a->dot || a->svg) &&
	       strcmp(hangdx_lang(), "en") != 0;
}

/* The diagnoses made, then reported. */
struct outcome {
	const struct dargs *a;
	struct hangdx_ctx *ctx;
	struct hangdx_diagnosis *d, *fd;
	struct hangdx_facts *copy;      /* what fd is made from, for facts */
	int err;
};

/* A copy of f as it is now, through its text. */
static int copy_facts(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		      struct hangdx_facts **out)
{
	char *p = NULL;
	size_t n = 0;
	FILE *mf = open_memstream(&p, &n);
	int err = mf ? hangdx_facts_write(f, mf) : HANGDX_ENOMEM;

	if (mf && fclose(mf) != 0 && !err)
		err = HANGDX_ENOMEM;
	*out = NULL;
	if (!err)
		err = hangdx_facts_new(ctx, out);
	if (!err)
		err = hangdx_facts_load_mem(*out, "facts", p, n);
	free(p);
	return err;
}

/* Each diagnosis from facts gets facts of its own: a diagnosis from facts
 * adds the evidence it fetched to them, and the first one borrows them
 * until it is written. */
static void make(struct outcome *r, const struct source *s)
{
	struct hangdx_diagnose_opts o = { r->a->cores };
	struct source s2 = *s;

	if (!second_diagnosis(r->a)) {
		r->err = diagnose_in(s, &o, r->a, &r->d);
		return;
	}
	if (s->f)
		r->err = copy_facts(r->ctx, s->f, &r->copy);
	if (r->copy) {
		s2.f = r->copy;
		hangdx_facts_set_reading(r->copy, r->a->threads, r->a->max_records);
	}
	if (!r->err)
		r->err = diagnose_in(s, &o, r->a, &r->d);
	if (!r->err)
		r->err = diagnose_src(&s2, &o, &r->fd);
}

/* Report what make() found and free it; the exit code. */
static int finish(struct outcome *r)
{
	int err = r->err, rc;

	if (!err)
		err = report(r->d, r->fd ? r->fd : r->d, r->a);
	if (err) {
		if (err > 0)
			fprintf(stderr, "%s diagnose: %s\n", cli_prog,
				hangdx_strerror(err));
		rc = EXIT_SYSERR;
	} else {
		rc = hangdx_diagnosis_verdict(r->d) == HANGDX_V_NO_HANG
			? EXIT_OK_NOHANG : EXIT_HANG;
	}
	hangdx_diagnosis_free(r->fd);
	hangdx_diagnosis_free(r->d);
	hangdx_facts_free(r->copy);
	r->d = r->fd = NULL;
	r->copy = NULL;
	return rc;
}

static int conclude(struct hangdx_ctx *ctx, const struct source *s,
		    const struct dargs *a)
{
	struct outcome r = { a, ctx, NULL, NULL, NULL, 0 };

	make(&r, s);
	return finish(&r);
}

static void inputs_of(const struct dargs *a, char **argv,
		      struct cli_inputs *in)
{
	memset(in, 0, sizeof *in);
	in->evid = a->evid;
	in->nevid = a->nevid;
	in->paths = (const char *const *)argv + optind;
	in->npaths = (size_t)a->npaths;
	/* under --mpi one thread a process: mpirun starts a process a core */
	in->threads = a->threads ? a->threads : a->mpi ? 1 : 0;
	in->max_records = a->max_records;
	in->dense = a->mpi ? 0 : a->dense;
}

/* Say why the inputs could not be read; the exit code. */
static int input_failed(int err)
{
	fprintf(stderr, "%s diagnose: %s\n", cli_prog,
		err == HANGDX_ENOTFOUND ? _("no input could be read")
					: hangdx_strerror(err));
	return err == HANGDX_ENOTFOUND ? EXIT_BADINPUT : EXIT_SYSERR;
}

/* One machine: the logs and saved evidence, read here. */
static int from_facts(struct hangdx_ctx *ctx, const struct dargs *a,
		      const struct cli_inputs *in, bool dense);

static int from_logs(struct hangdx_ctx *ctx, const struct dargs *a,
		     const struct cli_inputs *in)
{
	struct source s = { NULL, NULL, NULL, NULL };
	struct hangdx_evidence *ev;
	int err, rc;

	/* dense logs: read a batch of entries at a time, through facts */
	if (cli_dense(in))
		return from_facts(ctx, a, in, true);
	if (hangdx_evidence_new(ctx, &ev))
		return EXIT_SYSERR;
	err = cli_read_inputs(ev, in);
	if (err) {
		rc = input_failed(err);
	} else {
		s.ev = ev;
		rc = conclude(ctx, &s, a);
	}
	hangdx_evidence_free(ev);
	return rc;
}

/* Every --facts file into f: 0, or the exit code (a bad file: its
 * file:line diagnostics come from the library, then this line). */
static int load_facts(struct hangdx_facts *f, const struct dargs *a)
{
	size_t i;
	int err;

	for (i = 0; i < a->nfacts; i++) {
		err = hangdx_facts_load(f, a->facts[i]);
		if (err) {
			fprintf(stderr, "%s diagnose: %s: %s\n", cli_prog,
				a->facts[i], hangdx_strerror(err));
			return err == HANGDX_ENOMEM ? EXIT_SYSERR : EXIT_BADINPUT;
		}
	}
	return 0;
}

/* The logs and evidence given beside --facts, added as facts: 0 or the
 * exit code.  Logs that cannot be read are only diagnosed: the facts
 * are input enough (dense logs read alone must be read). */
static int add_logs(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		    const struct dargs *a, const struct cli_inputs *in,
		    bool dense)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_evidence *ev;
	int err;

	if (!in->npaths && !in->nevid)
		return 0;
	if (dense || cli_dense(in)) {
		size_t nent = 0, nbatch = 0;

		err = cli_read_batches(ctx, f, in, &o, &nent, &nbatch);
		fprintf(stderr, _("%s diagnose: dense logs: %zu entries read in "
				  "%zu batches, each reduced to facts\n"),
			cli_prog, nent, nbatch);
		if (err == HANGDX_ENOTFOUND && a->nfacts)
			err = HANGDX_OK;
		return err ? input_failed(err) : 0;
	}
	if (hangdx_evidence_new(ctx, &ev))
		return EXIT_SYSERR;
	err = cli_read_inputs(ev, in);
	if (err == HANGDX_ENOTFOUND)
		err = HANGDX_OK;
	else if (!err)
		err = hangdx_facts_add_evidence(f, ev, &o);
	hangdx_evidence_free(ev);
	return err ? input_failed(err) : 0;
}

/* Facts written on other machines (hangdx facts), and this one's logs
 * (dense: this one's logs alone, read in batches). */
static int from_facts(struct hangdx_ctx *ctx, const struct dargs *a,
		      const struct cli_inputs *in, bool dense)
{
	struct source s = { NULL, NULL, NULL, NULL };
	struct hangdx_facts *f;
	char node[256];
	int err, rc;

	err = hangdx_facts_new(ctx, &f);
	if (err) {
		fprintf(stderr, "%s diagnose: %s\n", cli_prog, hangdx_strerror(err));
		return cli_exit_for(err);
	}
	cli_node_name(a->node, node, sizeof node);
	if (node[0] && hangdx_facts_set_node(f, node) != HANGDX_OK) {
		cli_usage_error(&cmd_diagnose, "--node takes 1 to 40 printable bytes "
				"without ':', '/', '\"' or '\\'");
		hangdx_facts_free(f);
		return EXIT_USAGE;
	}
	hangdx_facts_set_reading(f, in->threads, in->max_records);
	rc = load_facts(f, a);
	if (!rc)
		rc = add_logs(ctx, f, a, in, dense);
	if (!rc) {
		s.f = f;
		rc = conclude(ctx, &s, a);
	}
	hangdx_facts_free(f);
	return rc;
}

#ifdef HANGDX_MPI
/* Under mpirun (cli/mpi.c): process 0 diagnoses the facts that met
 * there, the others serve its fetches; the report is written after the
 * others are released. */
static int mpi_diagnose(void *ud, struct hangdx_facts *f,
			hangdx_fetch_fn *fetch, void *fetch_ud)
{
	struct outcome *r = ud;
	struct source s = { NULL, f, fetch, fetch_ud };

	make(r, &s);
	return 0;
}

static int mpi_report(void *ud)
{
	return finish(ud);
}

static int from_mpi(struct hangdx_ctx *ctx, const struct dargs *a,
		    const struct cli_inputs *in)
{
	struct outcome r = { a, ctx, NULL, NULL, NULL, 0 };
	struct cli_mpi_hooks h = { mpi_diagnose, mpi_report, &r };
	struct cli_mpi_opts o;

	memset(&o, 0, sizeof o);
	o.in = *in;
	o.share = a->mpi_share;
	o.timeout = a->mpi_timeout;
	o.batch = a->mpi_batch;
	o.dopts.cores = a->cores;
	o.node = a->node;
	return cli_mpi_run(ctx, &o, &h);
}
#endif

static int diagnose(struct hangdx_ctx *ctx, const struct dargs *a,
		    char **argv)
{
	struct cli_inputs in;

	inputs_of(a, argv, &in);
#ifdef HANGDX_MPI
	if (a->mpi)
		return from_mpi(ctx, a, &in);
#endif
	if (a->nfacts)
		return from_facts(ctx, a, &in, false);
	return from_logs(ctx, a, &in);
}

static int run(int argc, char **argv)
{
	struct dargs a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc == 0) {
		ctx = cli_ctx();
		rc = diagnose(ctx, &a, argv);
		hangdx_ctx_free(ctx);
	}
	free(a.evid);
	free(a.facts);
	return rc < 0 ? EXIT_OK_NOHANG : rc;
}
