/*
 * cmd_parse.c - `hangdx parse`: read logs (files, directories, archives,
 * stdin) and print the evidence they hold, one record per line, as text
 * or JSON Lines.  The debugging view of ingest and the basis of its golden
 * tests.  Diagnostics go to stderr; a summary of what was skipped too.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int parse_run(int argc, char **argv);

const struct cli_cmd cmd_parse = {
	"parse", N_("read CANN logs and print the evidence they hold"),
	N_("parse [--json] [--summary] [--threads N] [--max-line SIZE]\n"
	"              [--max-member SIZE] [--max-ratio N] [--max-records N]\n"
	"              [--evidence FILE]... PATH...\n\n"
	"PATH is a log file, a directory (read recursively), an archive or\n"
	"compressed file (.tar, .tar.gz, .tgz, .tar.zst, .zip, .gz, .zst), or -\n"
	"for standard input.\n\n"
	"options:\n"
	"  --json            JSON Lines (schema: docs/EVIDENCE.md)\n"
	"  --evidence FILE   merge evidence written by parse --json elsewhere\n"
	"                    (repeatable; then PATH is optional)\n"
	"  --summary         only the per-file/process/stream/rank summaries\n"
	"                    and the totals, no records\n"
	"  --threads N       1 to read on one thread (default: 2 when there\n"
	"                    are several inputs)\n"
	"  --max-line SIZE   skip longer lines (default 64K)\n"
	"  --max-member SIZE uncompressed bytes per archive member (16G)\n"
	"  --max-ratio N     decompression ratio ceiling (1000)\n"
	"  --max-records N   records kept (4194304)\n\n"
	"SIZE takes a K, M or G suffix.  Exit status: 0 read, 3 no input could\n"
	"be read, 4 system error"),
	parse_run
};

#define HX_ARRAY_LEN_CLI(a) (sizeof(a) / sizeof((a)[0]))

struct parse_opts {
	struct hangdx_ingest_opts io;
	bool json, summary;
	const char *evidence[64];
	size_t nevidence;
};

static int parse_opts(int argc, char **argv, struct parse_opts *po)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "summary", no_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "max-line", required_argument, NULL, 'l' },
		{ "max-member", required_argument, NULL, 'm' },
		{ "max-ratio", required_argument, NULL, 'r' },
		{ "max-records", required_argument, NULL, 'n' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t v;
	int c;

	memset(po, 0, sizeof *po);
	optind = 1;
	while ((c = getopt_long(argc, argv, "jsh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': po->json = true; break;
		case 's': po->summary = true; break;
		case 'h': return -1;
		case 'e':
			if (po->nevidence == HX_ARRAY_LEN_CLI(po->evidence)) {
				cli_usage_error(&cmd_parse, "too many --evidence");
				return 1;
			}
			po->evidence[po->nevidence++] = optarg;
			break;
		case 't':
			if (!cli_parse_size(optarg, &v) || v > 2)
				goto bad;
			po->io.threads = (int)v;
			break;
		case 'l':
			if (!cli_parse_size(optarg, &v) || v > (1u << 20))
				goto bad;
			po->io.max_line = (size_t)v;
			break;
		case 'm':
			if (!cli_parse_size(optarg, &v))
				goto bad;
			po->io.max_member = v;
			break;
		case 'r':
			if (!cli_parse_size(optarg, &v) || v > 1000000000u)
				goto bad;
			po->io.max_ratio = (unsigned)v;
			break;
		case 'n':
			if (!cli_parse_size(optarg, &v))
				goto bad;
			po->io.max_records = (size_t)v;
			break;
		default:
			return 1;
		}
	}
	if (optind >= argc && !po->nevidence) {
		cli_usage_error(&cmd_parse, "no PATH given");
		return 1;
	}
	return 0;
bad:
	cli_usage_error(&cmd_parse, "bad value for --%s: '%s'",
			c == 't' ? "threads" : c == 'l' ? "max-line" :
			c == 'm' ? "max-member" : c == 'r' ? "max-ratio" :
			"max-records", optarg);
	return 1;
}

/* "parse: 3 files, 120 lines, 14 records; skipped 2 lines (too_long 2)" */
static void print_skips(const struct hangdx_ingest_stats *st)
{
	int i;
	bool any = false;

	for (i = 0; i < HANGDX_SKIP_REASONS; i++)
		if (st->skipped[i])
			any = true;
	if (!any && !st->files_skipped)
		return;
	fprintf(stderr, _("%s parse: read %llu files, %llu lines; skipped %llu "
		"lines, %llu files ("), cli_prog, (unsigned long long)st->files,
		(unsigned long long)st->lines,
		(unsigned long long)st->lines_skipped,
		(unsigned long long)st->files_skipped);
	for (i = 0, any = false; i < HANGDX_SKIP_REASONS; i++) {
		const char *name = hangdx_skip_reason_name(i);

		if (!name || !st->skipped[i])
			continue;
		fprintf(stderr, "%s%s %llu", any ? ", " : "", name,
			(unsigned long long)st->skipped[i]);
		any = true;
	}
	fprintf(stderr, ")\n");
}

/* Merge evidence files; an unreadable one is an input that was not read. */
static int load_evidence(struct hangdx_evidence *ev,
			 const struct parse_opts *po)
{
	size_t i, read = 0;
	int err;

	for (i = 0; i < po->nevidence; i++) {
		struct hangdx_ingest_stats a, b;

		hangdx_evidence_stats(ev, &a);
		err = hangdx_evidence_load(ev, po->evidence[i]);
		if (err == HANGDX_ENOMEM)
			return err;
		hangdx_evidence_stats(ev, &b);
		if (b.records > a.records || b.files > a.files)
			read++;
	}
	return po->nevidence && !read ? HANGDX_ENOTFOUND : HANGDX_OK;
}

static int parse_run(int argc, char **argv)
{
	struct parse_opts po;
	struct hangdx_ctx *ctx;
	struct hangdx_evidence *ev;
	struct hangdx_ingest_stats st;
	unsigned what;
	int rc, err, werr;

	rc = parse_opts(argc, argv, &po);
	if (rc < 0)
		return cli_help(&cmd_parse, stdout);
	if (rc > 0)
		return EXIT_USAGE;
	ctx = cli_ctx();
	if (hangdx_evidence_new(ctx, &ev) != HANGDX_OK) {
		fprintf(stderr, _("%s: out of memory\n"), cli_prog);
		hangdx_ctx_free(ctx);
		return EXIT_SYSERR;
	}
	err = load_evidence(ev, &po);
	if (!err && optind < argc) {
		cli_progress_setup(&po.io.progress, &po.io.progress_ud);
		err = hangdx_ingest_paths(ev, (const char *const *)argv + optind,
					  (size_t)(argc - optind), &po.io);
		cli_progress_end();
	}
	if (err == HANGDX_ENOMEM || err == HANGDX_EINVAL) {
		fprintf(stderr, "%s parse: %s\n", cli_prog, hangdx_strerror(err));
		rc = err == HANGDX_ENOMEM ? EXIT_SYSERR : EXIT_USAGE;
		goto out_free;
	}
	what = po.summary ? HANGDX_EV_SUMMARY
	       : po.json ? HANGDX_EV_ALL : HANGDX_EV_RECORDS;
	werr = po.json ? hangdx_evidence_write_jsonl(ev, stdout, what)
		       : hangdx_evidence_write_text(ev, stdout, what);
	hangdx_evidence_stats(ev, &st);
	print_skips(&st);
	if (werr) {
		fprintf(stderr, _("%s parse: writing output: %s\n"), cli_prog,
			hangdx_strerror(werr));
		rc = EXIT_SYSERR;
	} else {
		rc = err == HANGDX_OK ? EXIT_OK_NOHANG : EXIT_BADINPUT;
	}
out_free:
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	return rc;
}
