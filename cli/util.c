/*
 * util.c - what every command of the CLI shares: a library context whose
 * diagnostics go to stderr as "file:line:col: level: message", the mapping
 * of library errors to exit codes, usage errors and colour detection,
 * reading the inputs and writing output files whole.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

const char *cli_prog = "hangdx";

static void print_diag(void *ud, const struct hangdx_diag *d)
{
	FILE *fp = ud;

	if (d->file && d->line && d->col)
		fprintf(fp, "%s:%lu:%lu: ", d->file, d->line, d->col);
	else if (d->file && d->line)
		fprintf(fp, "%s:%lu: ", d->file, d->line);
	else if (d->file)
		fprintf(fp, "%s: ", d->file);
	else
		fprintf(fp, "%s: ", cli_prog);
	fprintf(fp, "%s: %s\n", _(hangdx_level_name(d->level)), d->msg);
}

struct hangdx_ctx *cli_ctx(void)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);

	if (!ctx) {
		fprintf(stderr, _("%s: out of memory\n"), cli_prog);
		exit(EXIT_SYSERR);
	}
	hangdx_ctx_set_diag(ctx, print_diag, stderr);
	return ctx;
}

int cli_exit_for(int err)
{
	switch (err) {
	case HANGDX_EOK:
		return EXIT_OK_NOHANG;
	case HANGDX_EPARSE:
	case HANGDX_EUNSUPPORTED:
	case HANGDX_ELIMIT:
	case HANGDX_ENOTFOUND:
		return EXIT_BADINPUT;
	case HANGDX_EINVAL:
		return EXIT_USAGE;
	case HANGDX_EUNDECIDED:
		return EXIT_UNDECIDED;
	default:
		return EXIT_SYSERR;
	}
}

int cli_help(const struct cli_cmd *c, FILE *fp)
{
	fprintf(fp, _("usage: hangdx %s\n\n%s.\n"), _(c->usage), _(c->summary));
	return EXIT_OK_NOHANG;
}

void cli_usage_error(const struct cli_cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cli_prog, c->name);
	va_start(ap, fmt);
	vfprintf(stderr, _(fmt), ap);
	va_end(ap);
	fprintf(stderr, _("\nTry 'hangdx help %s'.\n"), c->name);
}

int cli_color(FILE *fp)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return isatty(fileno(fp));
}

/* ---- progress on stderr, for long reads, only on a terminal ---- */

struct cli_progress {
	double last;
	int shown;
};

static struct cli_progress progress_state;

double cli_now(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void progress_draw(void *ud, uint64_t bytes, uint64_t done,
			  uint64_t total)
{
	struct cli_progress *p = ud;
	char bar[31];
	size_t i, fill;

	if (p->shown && done < total && cli_now() - p->last < 0.1)
		return;
	p->last = cli_now();
	fill = total ? (size_t)(done * 30 / total) : 0;
	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fputc('\r', stderr);
	fprintf(stderr, _("%s: [%s] %llu/%llu files, %.1f MB"), cli_prog, bar,
		(unsigned long long)done, (unsigned long long)total,
		(double)bytes / 1e6);
	p->shown = 1;
}

void cli_progress_setup(void (**fn)(void *, uint64_t, uint64_t, uint64_t),
			void **ud)
{
	memset(&progress_state, 0, sizeof progress_state);
	*fn = isatty(fileno(stderr)) ? progress_draw : NULL;
	*ud = &progress_state;
}

void cli_progress_end(void)
{
	if (progress_state.shown)
		fprintf(stderr, "\r%*s\r", 72, "");
	progress_state.shown = 0;
}

/* ---- scenarios, for simulate and check ---- */

int cli_load_scenario(struct hangdx_ctx *ctx, const struct cli_cmd *c,
		      const char *preset, const char *file,
		      struct hangdx_scenario **sc)
{
	int err;

	if (preset) {
		err = hangdx_scenario_preset(ctx, preset, sc);
		if (err == HANGDX_ENOTFOUND) {
			fprintf(stderr, _("%s %s: no preset '%s' (try hangdx simulate "
				  "--list-presets)\n"), cli_prog, c->name, preset);
			return EXIT_USAGE;
		}
	} else {
		err = hangdx_scenario_load(ctx, file, sc);
	}
	if (err)
		return err == HANGDX_EIO ? EXIT_BADINPUT : cli_exit_for(err);
	return 0;
}

int cli_set(const struct cli_cmd *c, struct hangdx_scenario *sc, const char *kv)
{
	char key[128];
	const char *eq = strchr(kv, '=');
	size_t n;

	if (!eq || eq == kv) {
		cli_usage_error(c, "--set wants KEY=VALUE, not '%s'", kv);
		return EXIT_USAGE;
	}
	n = (size_t)(eq - kv);
	if (n >= sizeof key)
		n = sizeof key - 1;
	memcpy(key, kv, n);
	key[n] = '\0';
	return hangdx_scenario_set(sc, key, eq + 1) ? EXIT_USAGE : 0;
}

/* ---- inputs: logs and saved evidence, for diagnose and facts ---- */

bool cli_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return false;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end || v == 0)
		return false;
	*out = v;
	return true;
}

int cli_parse_num(const struct cli_cmd *c, const char *opt, const char *s,
		  unsigned long long lo, unsigned long long hi,
		  unsigned long long *v)
{
	char *end;

	*v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || *v < lo || *v > hi) {
		cli_usage_error(c, "%s takes %llu to %llu", opt, lo, hi);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_parse_records(const struct cli_cmd *c, const char *s, size_t *n)
{
	unsigned long long v;

	if (cli_parse_num(c, "--max-records", s, 1, 1ull << 31, &v))
		return EXIT_USAGE;
	*n = (size_t)v;
	return 0;
}

int cli_parse_batch(const struct cli_cmd *c, const char *s, uint64_t *out)
{
	if (strcmp(s, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (cli_parse_size(s, out))
		return 0;
	cli_usage_error(c, "--batch takes a size (0: one pass)");
	return EXIT_USAGE;
}

int cli_read_inputs(struct hangdx_evidence *ev, const struct cli_inputs *in)
{
	int err = HANGDX_OK, got = 0;
	size_t i;

	for (i = 0; i < in->nevid; i++) {
		err = hangdx_evidence_load(ev, in->evid[i]);
		if (err == HANGDX_ENOMEM)
			return err;
		got += err == HANGDX_OK || err == HANGDX_EPARSE;
	}
	if (in->npaths) {
		struct hangdx_ingest_opts io;

		memset(&io, 0, sizeof io);
		io.threads = in->threads;
		io.max_records = in->max_records;
		io.roots = in->roots;
		io.nroots = in->nroots;
		io.cache = in->cache;
		cli_progress_setup(&io.progress, &io.progress_ud);
		err = hangdx_ingest_paths(ev, in->paths, in->npaths, &io);
		cli_progress_end();
		if (err == HANGDX_ENOMEM || err == HANGDX_EINVAL)
			return err;
		got += err == HANGDX_OK;
	}
	return got ? HANGDX_OK : HANGDX_ENOTFOUND;
}

/* ---- output files: a temporary name, renamed when complete ---- */

static void say_cannot_write(const struct cli_cmd *c, const char *path,
			     const char *why)
{
	fprintf(stderr, _("%s %s: cannot write %s: %s\n"), cli_prog, c->name,
		path, why);
}

/* A device or a FIFO (/dev/stdout, a pipe): written to as it is. */
static int write_stream(const struct cli_cmd *c, const char *path,
			cli_put_fn *fn, const void *ud)
{
	FILE *fp = fopen(path, "w");
	const char *why = NULL;
	int err;

	if (!fp) {
		why = strerror(errno);
	} else {
		err = fn(ud, fp);
		if (err)
			why = hangdx_strerror(err);
		if (fclose(fp) != 0 && !why)
			why = strerror(errno);
	}
	if (!why)
		return 0;
	say_cannot_write(c, path, why);
	return -1;
}

/* Written to tmp (mkstemp made it), then renamed to path; NULL or why
 * not. */
static const char *write_tmp(int fd, char *tmp, const char *path,
			     cli_put_fn *fn, const void *ud)
{
	mode_t um = umask(0);
	const char *why = NULL;
	FILE *fp = fdopen(fd, "w");
	int err;

	umask(um);
	if (!fp) {
		why = strerror(errno);
		close(fd);
		unlink(tmp);
		return why;
	}
	fchmod(fd, 0666 & ~um);         /* mkstemp makes 0600 */
	err = fn(ud, fp);
	if (err)
		why = hangdx_strerror(err);
	if (fclose(fp) != 0 && !why)
		why = strerror(errno);
	if (!why && rename(tmp, path) != 0)
		why = strerror(errno);
	if (why)
		unlink(tmp);
	return why;
}

int cli_write_file(const struct cli_cmd *c, const char *path, cli_put_fn *fn,
		   const void *ud)
{
	size_t n = strlen(path) + 16;
	const char *why;
	struct stat st;
	char *tmp;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_stream(c, path, fn, ud);
	tmp = malloc(n);
	if (!tmp) {
		say_cannot_write(c, path, hangdx_strerror(HANGDX_ENOMEM));
		return -1;
	}
	snprintf(tmp, n, "%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	why = fd < 0 ? strerror(errno) : write_tmp(fd, tmp, path, fn, ud);
	free(tmp);
	if (!why)
		return 0;
	say_cannot_write(c, path, why);
	return -1;
}

const char *cli_node_name(const char *given, char *buf, size_t n)
{
	size_t i;

	if (given) {
		snprintf(buf, n, "%s", given);
		return buf;
	}
	if (n < 2 || gethostname(buf, n - 1) != 0) {
		if (n)
			buf[0] = '\0';
		return buf;
	}
	buf[n - 1] = '\0';
	for (i = 0; buf[i] && i < 40; i++)
		if (buf[i] == '.' || buf[i] == ':' || buf[i] == '/' ||
		    (unsigned char)buf[i] <= ' ' || buf[i] == '"' || buf[i] == '\\')
			break;
	buf[i] = '\0';
	return buf;
}
