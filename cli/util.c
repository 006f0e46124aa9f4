/*
 * util.c - what every command of the CLI shares: a library context whose
 * diagnostics go to stderr as "file:line:col: level: message", the mapping
 * of library errors to exit codes, usage errors and colour detection.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	fprintf(fp, "%s: %s\n", hangdx_level_name(d->level), d->msg);
}

struct hangdx_ctx *cli_ctx(void)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);

	if (!ctx) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
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
	fprintf(fp, "usage: hangdx %s\n\n%s.\n", c->usage, c->summary);
	return EXIT_OK_NOHANG;
}

void cli_usage_error(const struct cli_cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cli_prog, c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hangdx help %s'.\n", c->name);
}

int cli_color(FILE *fp)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return isatty(fileno(fp));
}
