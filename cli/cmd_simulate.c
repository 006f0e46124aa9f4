/*
 * cmd_simulate.c - `hangdx simulate`: load a scenario (file or preset),
 * apply --set overrides, run the discrete-event model, write the CANN
 * logs, trace.json and truth.json, and print a one-screen summary.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int run(int argc, char **argv);

const struct cli_cmd cmd_simulate = {
	"simulate",
	N_("run a scenario in the model of the NPU runtime and HCCL; write the logs a cluster would write"),
	N_("simulate [options] (SCENARIO.yaml | --preset NAME)\n"
	"\n"
	"options:\n"
	"  -p, --preset NAME     use a built-in scenario (--list-presets shows them)\n"
	"  -o, --output DIR      write rank-N/ascend/log/..., trace.json and truth.json\n"
	"                        into DIR (must not exist, or be empty)\n"
	"      --layout L        rank (rank-N/ascend/log), node (host-N/ascend/log\n"
	"                        with every process of the node) or flat (every\n"
	"                        log in DIR/logs); same as --set layout=L\n"
	"      --log-fidelity F  full (every line) or verified (only lines worded\n"
	"                        as real logs or HCCL source format strings);\n"
	"                        same as --set log_fidelity=F\n"
	"  -s, --set KEY=VALUE   override a parameter (repeatable), e.g.\n"
	"                        communicators=10 cores=4 retry=off seed=7\n"
	"      --seed N          same as --set seed=N\n"
	"                        (also: node_dirs=host|node|ip same_pids=true\n"
	"                        start_spread=5s, see hangdx(1))\n"
	"      --no-logs         do not write the CANN logs\n"
	"      --no-trace        do not write trace.json\n"
	"      --list-presets    list the built-in scenarios and exit\n"
	"      --print           print the scenario's YAML (presets) and exit\n"
	"  -q, --quiet           no summary on stdout\n"
	"  -h, --help            this help\n"
	"\n"
	"exit status: 0 the job completed, 1 it hung or failed, 2 usage,\n"
	"3 bad scenario (file:line:col diagnostics), 4 system error"),
	run
};

struct sim_args {
	const char *preset;
	const char *file;
	const char *outdir;
	char **sets;
	int nsets;
	int logs, trace, quiet, list, print;
};

static const struct option longopts[] = {
	{ "preset", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "set", required_argument, NULL, 's' },
	{ "seed", required_argument, NULL, 'S' },
	{ "layout", required_argument, NULL, 'Y' },
	{ "log-fidelity", required_argument, NULL, 'F' },
	{ "no-logs", no_argument, NULL, 'L' },
	{ "no-trace", no_argument, NULL, 'T' },
	{ "list-presets", no_argument, NULL, 'l' },
	{ "print", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int add_set(struct sim_args *a, char *kv)
{
	char **v = realloc(a->sets, (size_t)(a->nsets + 1) * sizeof *v);

	if (!v)
		return -1;
	a->sets = v;
	a->sets[a->nsets++] = kv;
	return 0;
}

static int parse_args(int argc, char **argv, struct sim_args *a)
{
	static char seedbuf[64], layoutbuf[64], fidbuf[64];
	int c;

	memset(a, 0, sizeof *a);
	a->logs = a->trace = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:o:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': a->preset = optarg; break;
		case 'o': a->outdir = optarg; break;
		case 's':
			if (add_set(a, optarg))
				return EXIT_SYSERR;
			break;
		case 'S':
			snprintf(seedbuf, sizeof seedbuf, "seed=%s", optarg);
			if (add_set(a, seedbuf))
				return EXIT_SYSERR;
			break;
		case 'Y':
			snprintf(layoutbuf, sizeof layoutbuf, "layout=%s", optarg);
			if (add_set(a, layoutbuf))
				return EXIT_SYSERR;
			break;
		case 'F':
			snprintf(fidbuf, sizeof fidbuf, "log_fidelity=%s",
				 optarg);
			if (add_set(a, fidbuf))
				return EXIT_SYSERR;
			break;
		case 'L': a->logs = 0; break;
		case 'T': a->trace = 0; break;
		case 'l': a->list = 1; break;
		case 'P': a->print = 1; break;
		case 'q': a->quiet = 1; break;
		case 'h': cli_help(&cmd_simulate, stdout); return -1;
		default:
			cli_usage_error(&cmd_simulate, "bad option");
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc || (!a->list && !a->file == !a->preset)) {
		cli_usage_error(&cmd_simulate,
				"give exactly one SCENARIO file or --preset NAME");
		return EXIT_USAGE;
	}
	return 0;
}

static void list_presets(void)
{
	const char *const *p;

	for (p = hangdx_preset_names(); *p; p++)
		printf("%-20s %s\n", *p, hangdx_preset_about(*p));
}

static int apply_sets(struct hangdx_scenario *sc, const struct sim_args *a)
{
	int i, rc;

	for (i = 0; i < a->nsets; i++)
		if ((rc = cli_set(&cmd_simulate, sc, a->sets[i])))
			return rc;
	return 0;
}

static void print_summary(const struct hangdx_scenario *sc,
			  const struct hangdx_sim_summary *s, const char *outdir)
{
	printf("scenario   %s: %d ranks, %d communicators, %d AICPU cores, retry %s\n",
	       hangdx_scenario_name(sc), s->ranks, s->communicators, s->cores,
	       s->retry ? "on" : "off");
	printf("outcome    %s at t=%.6f s (%llu tasks, %llu events)\n",
	       hangdx_outcome_name(s->outcome), s->end_time_s,
	       (unsigned long long)s->tasks, (unsigned long long)s->events);
	if (s->block_time_s >= 0)
		printf("blocked    at t=%.6f s: nothing could move after this\n",
		       s->block_time_s);
	if (s->cycle_len)
		printf("cycle      %s\n", s->cycle);
	if (s->first_error_rank >= 0)
		printf("first error  t=%.6f s rank %d: %s\n", s->first_error_time_s,
		       s->first_error_rank, s->first_error);
	if (outdir)
		printf("output     %s/ (truth.json, trace.json, the CANN logs)\n",
		       outdir);
}

static int load(struct hangdx_ctx *ctx, const struct sim_args *a,
		struct hangdx_scenario **sc)
{
	return cli_load_scenario(ctx, &cmd_simulate, a->preset, a->file, sc);
}

static int simulate(struct hangdx_ctx *ctx, const struct sim_args *a)
{
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_opts o = { a->outdir, a->logs, a->trace, 1 };
	struct hangdx_sim_summary sum;
	int rc = load(ctx, a, &sc), err;

	if (rc)
		return rc;
	rc = apply_sets(sc, a);
	if (rc)
		goto out_free_scenario;
	err = hangdx_simulate(ctx, sc, &o, &sum);
	if (err) {
		fprintf(stderr, "%s simulate: %s\n", cli_prog, hangdx_strerror(err));
		rc = err == HANGDX_EEXISTS ? EXIT_SYSERR : cli_exit_for(err);
		goto out_free_scenario;
	}
	if (!a->quiet)
		print_summary(sc, &sum, a->outdir);
	rc = sum.outcome == HANGDX_COMPLETED ? EXIT_OK_NOHANG : EXIT_HANG;
out_free_scenario:
	hangdx_scenario_free(sc);
	return rc;
}

static int run(int argc, char **argv)
{
	struct sim_args a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		goto out_free_sets;
	if (a.list) {
		list_presets();
		goto out_free_sets;
	}
	if (a.print) {
		const char *text = a.preset ? hangdx_preset_text(a.preset) : NULL;
		if (!text) {
			cli_usage_error(&cmd_simulate, "--print needs a known --preset");
			rc = EXIT_USAGE;
		} else {
			fputs(text, stdout);
		}
		goto out_free_sets;
	}
	ctx = cli_ctx();
	rc = simulate(ctx, &a);
	hangdx_ctx_free(ctx);
out_free_sets:
	free(a.sets);
	return rc < 0 ? EXIT_OK_NOHANG : rc;
}
