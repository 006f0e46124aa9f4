/*
 * cmd_diagnose.c - `hangdx diagnose`: read the logs (files, directories,
 * archives, saved evidence), diagnose, and print the verdict, the chain
 * with its evidence and the fix; optionally JSON and the wait-for graph
 * as DOT.  Files are written under a temporary name and renamed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static int run(int argc, char **argv);

const struct cli_cmd cmd_diagnose = {
	"diagnose",
	"find why a job hung: first failing rank, root cause, proven deadlock, fix",
	"diagnose [options] PATH...\n"
	"\n"
	"PATH is a log file, a directory (read recursively), an archive or a\n"
	"compressed file (.tar, .tar.gz, .tar.zst, .zip, .gz, .zst), or - for\n"
	"standard input.\n"
	"\n"
	"options:\n"
	"      --json            the diagnosis as JSON (docs/DIAGNOSIS.md)\n"
	"      --dot FILE        write the rebuilt wait-for graph as Graphviz DOT\n"
	"      --evidence FILE   also read evidence saved by `parse --json`\n"
	"                        (repeatable; merged with the logs read)\n"
	"      --cores N         AICPU cores per device (default 6: Atlas A2/A3)\n"
	"      --color WHEN      never, always or auto (default; honours NO_COLOR)\n"
	"  -h, --help            this help\n"
	"\n"
	"exit status: 0 no hang found, 1 hang diagnosed, 2 usage,\n"
	"3 no input could be read, 4 system error",
	run
};

struct dargs {
	int json;
	const char *dot;
	const char **evid;
	int nevid;
	unsigned cores;
	int color;          /* -1 auto */
};

static int parse_args(int argc, char **argv, struct dargs *a)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "dot", required_argument, NULL, 'd' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "cores", required_argument, NULL, 'c' },
		{ "color", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char **v;
	char *end;
	int c;

	memset(a, 0, sizeof *a);
	a->color = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': a->json = 1; break;
		case 'd': a->dot = optarg; break;
		case 'e':
			v = realloc(a->evid, (size_t)(a->nevid + 1) * sizeof *v);
			if (!v)
				return EXIT_SYSERR;
			a->evid = v;
			a->evid[a->nevid++] = optarg;
			break;
		case 'c':
			a->cores = (unsigned)strtoul(optarg, &end, 10);
			if (*end || a->cores == 0 || a->cores > 64) {
				cli_usage_error(&cmd_diagnose, "--cores takes 1 to 64");
				return EXIT_USAGE;
			}
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
	}
	if (optind >= argc && a->nevid == 0) {
		cli_usage_error(&cmd_diagnose, "no PATH given");
		return EXIT_USAGE;
	}
	return 0;
}

/* Write a file through a temporary name, renamed when complete. */
static int write_file(const char *path, const struct hangdx_diagnosis *d,
		      int (*fn)(const struct hangdx_diagnosis *, FILE *))
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	FILE *fp;
	int fd, err;

	if (!tmp)
		return HANGDX_ENOMEM;
	snprintf(tmp, n, "%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		free(tmp);
		return HANGDX_EIO;
	}
	err = fn(d, fp);
	if (fclose(fp) != 0 && !err)
		err = HANGDX_EIO;
	if (!err && rename(tmp, path) != 0)
		err = HANGDX_EIO;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

static int read_inputs(struct hangdx_evidence *ev, const struct dargs *a,
		       int argc, char **argv)
{
	int i, err = HANGDX_OK, got = 0;

	for (i = 0; i < a->nevid; i++) {
		err = hangdx_evidence_load(ev, a->evid[i]);
		if (err == HANGDX_ENOMEM)
			return err;
		got += err == HANGDX_OK || err == HANGDX_EPARSE;
	}
	if (optind < argc) {
		err = hangdx_ingest_paths(ev, (const char *const *)argv + optind,
					  (size_t)(argc - optind), NULL);
		if (err == HANGDX_ENOMEM || err == HANGDX_EINVAL)
			return err;
		got += err == HANGDX_OK;
	}
	return got ? HANGDX_OK : HANGDX_ENOTFOUND;
}

static int report(const struct hangdx_diagnosis *d, const struct dargs *a)
{
	int color = a->color < 0 ? cli_color(stdout) : a->color;
	int err;

	err = a->json ? hangdx_diagnosis_write_json(d, stdout)
		      : hangdx_diagnosis_write_text(d, stdout,
						    color ? HANGDX_COLOR : 0);
	if (!err && a->dot)
		err = write_file(a->dot, d, hangdx_diagnosis_write_dot);
	return err;
}

static int diagnose(struct hangdx_ctx *ctx, const struct dargs *a, int argc,
		    char **argv)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_evidence *ev;
	struct hangdx_diagnosis *d = NULL;
	int err, rc;

	if (hangdx_evidence_new(ctx, &ev))
		return EXIT_SYSERR;
	err = read_inputs(ev, a, argc, argv);
	if (err) {
		fprintf(stderr, "%s diagnose: %s\n", cli_prog,
			err == HANGDX_ENOTFOUND ? "no input could be read"
						: hangdx_strerror(err));
		rc = err == HANGDX_ENOTFOUND ? EXIT_BADINPUT : EXIT_SYSERR;
		goto out_free_evidence;
	}
	err = hangdx_diagnose(ev, &o, &d);
	if (!err)
		err = report(d, a);
	if (err) {
		fprintf(stderr, "%s diagnose: %s\n", cli_prog, hangdx_strerror(err));
		rc = EXIT_SYSERR;
	} else {
		rc = hangdx_diagnosis_verdict(d) == HANGDX_V_NO_HANG ? EXIT_OK_NOHANG
								     : EXIT_HANG;
	}
	hangdx_diagnosis_free(d);
out_free_evidence:
	hangdx_evidence_free(ev);
	return rc;
}

static int run(int argc, char **argv)
{
	struct dargs a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc == 0) {
		ctx = cli_ctx();
		rc = diagnose(ctx, &a, argc, argv);
		hangdx_ctx_free(ctx);
	}
	free(a.evid);
	return rc < 0 ? EXIT_OK_NOHANG : rc;
}
