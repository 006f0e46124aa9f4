/*
 * cmd_facts.c - `hangdx facts`: read the logs of one node (as diagnose
 * reads them) and write what the diagnosis needs of them per rank as a
 * facts file (docs/FACTS.md), for `diagnose --facts` on another machine.
 * The file is written under a temporary name and renamed when complete;
 * `-o -` writes standard output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"


static int run(int argc, char **argv);

const struct cli_cmd cmd_facts = {
	"facts",
	N_("reduce one node's logs to the facts per rank that diagnose --facts reads"),
	N_("facts [options] PATH... -o FILE\n"
	"\n"
	"PATH is read as by diagnose: a log file, a directory (read\n"
	"recursively), an archive or a compressed file, or - for standard input.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE     the facts file (- for standard output); written\n"
	"                        whole under a temporary name, then renamed\n"
	"      --evidence FILE   also read evidence saved by `parse --json`\n"
	"                        (repeatable)\n"
	"      --cores N         AICPU cores per device (default 6: Atlas A2/A3)\n"
	"      --threads N       1 to read on one thread (default: 2 when there\n"
	"                        are several files)\n"
	"      --max-records N   records kept (4194304; about 250 bytes each)\n"
	"      --batch SIZE      PATHs holding more than SIZE bytes of files\n"
	"                        (1G) are read SIZE/8 at a time, each part\n"
	"                        reduced to facts (0: all in one pass)\n"
	"      --node NAME       the node these logs are from (default: the host\n"
	"                        name); the same path on two nodes is two files\n"
	"  -h, --help            this help\n"
	"\n"
	"Then, on one machine: hangdx diagnose --facts FILE --facts FILE2 ...\n"
	"\n"
	"exit status: 0 written, 2 usage, 3 no input could be read,\n"
	"4 system error"),
	run
};

struct fargs {
	const char *out;
	const char **evid;
	size_t nevid;
	unsigned cores;
	int threads;
	size_t max_records;
	uint64_t dense;         /* --batch: bytes from which PATHs go in batches */
	const char *node;
};

static int parse_opt(int c, struct fargs *a)
{
	unsigned long long v = 0;
	const char **nv;
	int rc = 0;

	switch (c) {
	case 'o': a->out = optarg; break;
	case 'N': a->node = optarg; break;
	case 'e':
		nv = realloc(a->evid, (a->nevid + 1) * sizeof *nv);
		if (!nv)
			return EXIT_SYSERR;
		a->evid = nv;
		a->evid[a->nevid++] = optarg;
		break;
	case 'c':
		rc = cli_parse_num(&cmd_facts, "--cores", optarg, 1, 64, &v);
		a->cores = (unsigned)v;
		break;
	case 't':
		rc = cli_parse_num(&cmd_facts, "--threads", optarg, 1, 2, &v);
		a->threads = (int)v;
		break;
	case 'n':
		rc = cli_parse_records(&cmd_facts, optarg, &a->max_records);
		break;
	case 'b':
		rc = cli_parse_batch(&cmd_facts, optarg, &a->dense);
		break;
	case 'h':
		cli_help(&cmd_facts, stdout);
		return -1;
	default:
		cli_usage_error(&cmd_facts, "bad option");
		return EXIT_USAGE;
	}
	return rc;
}

static int parse_args(int argc, char **argv, struct fargs *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "cores", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "max-records", required_argument, NULL, 'n' },
		{ "node", required_argument, NULL, 'N' },
		{ "batch", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	a->dense = (uint64_t)1 << 30;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1)
		if ((rc = parse_opt(c, a)) != 0)
			return rc;
	if (optind >= argc && a->nevid == 0) {
		cli_usage_error(&cmd_facts, "no PATH given");
		return EXIT_USAGE;
	}
	if (!a->out) {
		cli_usage_error(&cmd_facts, "no output given (-o FILE, or -o - for "
				"standard output)");
		return EXIT_USAGE;
	}
	return 0;
}

struct put {
	const struct hangdx_facts *f;
	long long *bytes;       /* written, when the stream can tell */
};

static int put_facts(const void *ud, FILE *fp)
{
	const struct put *p = ud;
	int err = hangdx_facts_write(p->f, fp);
	off_t at = err ? -1 : ftello(fp);

	if (at >= 0)
		*p->bytes = (long long)at;
	return err;
}

/* Write the facts to a->out (or stdout); 0 or EXIT_SYSERR (said). */
static int output(const struct fargs *a, const struct put *p)
{
	int err;

	if (strcmp(a->out, "-") != 0)
		return cli_write_file(&cmd_facts, a->out, put_facts, p) ? EXIT_SYSERR : 0;
	err = put_facts(p, stdout);
	if (err || fflush(stdout) != 0) {
		fprintf(stderr, _("%s %s: cannot write %s: %s\n"), cli_prog,
			cmd_facts.name, _("standard output"),
			hangdx_strerror(err ? err : HANGDX_EIO));
		return EXIT_SYSERR;
	}
	return 0;
}

/* Reduce the evidence (or, ev NULL, the dense logs of in, read in
 * batches) to facts and write them; the exit code. */
static int write_facts(struct hangdx_ctx *ctx, const struct fargs *a,
		       const struct hangdx_evidence *ev, const struct cli_inputs *in)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_facts *f = NULL;
	long long bytes = -1;
	struct put p = { NULL, &bytes };
	char node[256];
	int err, rc = 0;

	err = hangdx_facts_new(ctx, &f);
	cli_node_name(a->node, node, sizeof node);
	if (!err && node[0] && hangdx_facts_set_node(f, node) != HANGDX_OK) {
		cli_usage_error(&cmd_facts, "--node takes 1 to 40 printable bytes "
				"without ':', '/', '\"' or '\\'");
		hangdx_facts_free(f);
		return EXIT_USAGE;
	}
	if (!err && ev) {
		err = hangdx_facts_add_evidence(f, ev, &o);
	} else if (!err) {
		size_t nent = 0, nbatch = 0;

		err = cli_read_batches(ctx, f, in, &o, &nent, &nbatch);
		fprintf(stderr, _("%s facts: dense logs: %zu entries read in %zu "
				  "batches, each reduced to facts\n"),
			cli_prog, nent, nbatch);
		if (err == HANGDX_ENOTFOUND) {
			fprintf(stderr, "%s facts: %s\n", cli_prog,
				_("no input could be read"));
			hangdx_facts_free(f);
			return EXIT_BADINPUT;
		}
	}
	if (err) {
		fprintf(stderr, "%s facts: %s\n", cli_prog, hangdx_strerror(err));
		rc = EXIT_SYSERR;
	} else {
		p.f = f;
		rc = output(a, &p);
	}
	if (!rc && bytes >= 0)
		fprintf(stderr, _("%s facts: %zu ranks, %lld bytes written to %s\n"),
			cli_prog, hangdx_facts_ranks(f), bytes,
			strcmp(a->out, "-") ? a->out : _("standard output"));
	else if (!rc)
		fprintf(stderr, _("%s facts: %zu ranks written to %s\n"),
			cli_prog, hangdx_facts_ranks(f),
			strcmp(a->out, "-") ? a->out : _("standard output"));
	hangdx_facts_free(f);
	return rc;
}

static int facts(struct hangdx_ctx *ctx, const struct fargs *a, int argc,
		 char **argv)
{
	struct cli_inputs in;
	struct hangdx_evidence *ev;
	int err, rc;

	memset(&in, 0, sizeof in);
	in.evid = a->evid;
	in.nevid = a->nevid;
	in.paths = (const char *const *)argv + optind;
	in.npaths = (size_t)(argc - optind);
	in.threads = a->threads;
	in.max_records = a->max_records;
	in.dense = a->dense;
	/* dense logs: a batch of entries at a time, through facts */
	if (cli_dense(&in))
		return write_facts(ctx, a, NULL, &in);
	if (hangdx_evidence_new(ctx, &ev))
		return EXIT_SYSERR;
	err = cli_read_inputs(ev, &in);
	if (err) {
		fprintf(stderr, "%s facts: %s\n", cli_prog,
			err == HANGDX_ENOTFOUND ? _("no input could be read")
						: hangdx_strerror(err));
		rc = err == HANGDX_ENOTFOUND ? EXIT_BADINPUT : EXIT_SYSERR;
	} else {
		rc = write_facts(ctx, a, ev, NULL);
	}
	hangdx_evidence_free(ev);
	return rc;
}

static int run(int argc, char **argv)
{
	struct fargs a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc == 0) {
		ctx = cli_ctx();
		rc = facts(ctx, &a, argc, argv);
		hangdx_ctx_free(ctx);
	}
	free(a.evid);
	return rc < 0 ? EXIT_OK_NOHANG : rc;
}
