/*
 * cmd_check.c - `hangdx check`: load a scenario (file or preset), apply
 * --set overrides, explore every schedule the runtime model allows and
 * print "deadlock-free" or the shortest witness; write the witness as a
 * replayable scenario (--witness, checked by replaying it in the
 * simulator), export the model as Promela (--promela), or sweep
 * parameters (--sweep) into a table of safe and deadlocking settings.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int run(int argc, char **argv);

const struct cli_cmd cmd_check = {
	"check",
	N_("explore every schedule of a scenario: prove it deadlock-free or show the shortest way it deadlocks"),
	N_("check [options] (SCENARIO.yaml | --preset NAME)\n"
	"\n"
	"options:\n"
	"  -p, --preset NAME       use a built-in scenario\n"
	"  -s, --set KEY=VALUE     override a parameter (repeatable), as simulate\n"
	"      --sweep KEY=VALUES  check every value (repeatable; the product of all\n"
	"                          sweeps); VALUES is a range 1..16 or a list 4,6\n"
	"                          or on,off; KEY is communicators, cores, retry,\n"
	"                          ranks or any --set key.  Prints a table and the\n"
	"                          safe limit of the first swept key\n"
	"  -w, --witness FILE      write the witness as a scenario that\n"
	"                          `hangdx simulate` replays into the same deadlock\n"
	"      --promela FILE      export the model as Promela for SPIN\n"
	"      --max-states N      stop undecided after N states\n"
	"      --max-memory SIZE   memory for visited states (default 1GiB)\n"
	"      --no-por            no partial-order reduction\n"
	"      --no-symmetry       no symmetry reduction\n"
	"      --no-pool-abstraction\n"
	"                          no search with AICPU pools that never run out\n"
	"  -q, --quiet             only the verdict line\n"
	"  -h, --help              this help\n"
	"\n"
	"exit status: 0 deadlock-free, 1 deadlock (or hang) found, 2 usage,\n"
	"3 bad scenario (file:line:col diagnostics), 4 system error,\n"
	"5 undecided (a state-space limit was reached)"),
	run
};

#define MAX_SWEEP 8
#define MAX_VALUES 4096

struct sweep {
	char key[64];
	char **val;
	size_t nval;
};

struct check_args {
	const char *preset, *file, *witness, *promela;
	char **sets;
	int nsets;
	struct sweep sw[MAX_SWEEP];
	int nsw;
	struct hangdx_check_opts o;
	int quiet;
};

static const struct option longopts[] = {
	{ "preset", required_argument, NULL, 'p' },
	{ "set", required_argument, NULL, 's' },
	{ "sweep", required_argument, NULL, 'S' },
	{ "witness", required_argument, NULL, 'w' },
	{ "promela", required_argument, NULL, 'P' },
	{ "max-states", required_argument, NULL, 'N' },
	{ "max-memory", required_argument, NULL, 'M' },
	{ "no-por", no_argument, NULL, 'R' },
	{ "no-symmetry", no_argument, NULL, 'Y' },
	{ "no-pool-abstraction", no_argument, NULL, 'A' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* ---- arguments ---- */

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);
	uint64_t mul = 1;

	if (end == s || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	switch (toupper((unsigned char)*end)) {
	case '\0': case 'B': break;
	case 'K': mul = 1ULL << 10; break;
	case 'M': mul = 1ULL << 20; break;
	case 'G': mul = 1ULL << 30; break;
	case 'T': mul = 1ULL << 40; break;
	default: return -1;
	}
	*out = (uint64_t)(v * (double)mul);
	return *out ? 0 : -1;
}

static int add_value(struct sweep *w, const char *v, size_t n)
{
	char **a;

	if (w->nval >= MAX_VALUES)
		return -1;
	a = realloc(w->val, (w->nval + 1) * sizeof *a);
	if (!a)
		return -1;
	w->val = a;
	w->val[w->nval] = malloc(n + 1);
	if (!w->val[w->nval])
		return -1;
	memcpy(w->val[w->nval], v, n);
	w->val[w->nval++][n] = '\0';
	return 0;
}

/* "a..b" (integers) or "x,y,z". */
static int parse_sweep(struct sweep *w, const char *spec)
{
	const char *eq = strchr(spec, '='), *v, *dots;
	char buf[32];

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof w->key || !eq[1])
		return -1;
	memcpy(w->key, spec, (size_t)(eq - spec));
	w->key[eq - spec] = '\0';
	v = eq + 1;
	dots = strstr(v, "..");
	if (dots) {
		char *end;
		long a = strtol(v, &end, 10), b, i;
		if (end != dots)
			return -1;
		b = strtol(dots + 2, &end, 10);
		if (*end || a > b || b - a >= MAX_VALUES)
			return -1;
		for (i = a; i <= b; i++) {
			int n = snprintf(buf, sizeof buf, "%ld", i);
			if (add_value(w, buf, (size_t)n))
				return -1;
		}
		return 0;
	}
	while (*v) {
		size_t n = strcspn(v, ",");
		if (!n || add_value(w, v, n))
			return -1;
		v += n + (v[n] == ',');
	}
	return w->nval ? 0 : -1;
}

static int add_set(struct check_args *a, char *kv)
{
	char **v = realloc(a->sets, (size_t)(a->nsets + 1) * sizeof *v);

	if (!v)
		return -1;
	a->sets = v;
	a->sets[a->nsets++] = kv;
	return 0;
}

static int parse_opt(struct check_args *a, int c)
{
	switch (c) {
	case 'p': a->preset = optarg; return 0;
	case 's': return add_set(a, optarg) ? EXIT_SYSERR : 0;
	case 'S':
		if (a->nsw == MAX_SWEEP || parse_sweep(&a->sw[a->nsw], optarg)) {
			cli_usage_error(&cmd_check, "bad --sweep '%s' (KEY=1..16 or KEY=a,b)",
					optarg);
			return EXIT_USAGE;
		}
		a->nsw++;
		return 0;
	case 'w': a->witness = optarg; return 0;
	case 'P': a->promela = optarg; return 0;
	case 'N':
		if (parse_size(optarg, &a->o.max_states)) {
			cli_usage_error(&cmd_check, "bad --max-states '%s'", optarg);
			return EXIT_USAGE;
		}
		return 0;
	case 'M':
		if (parse_size(optarg, &a->o.max_memory)) {
			cli_usage_error(&cmd_check, "bad --max-memory '%s' (e.g. 512M, 2G)",
					optarg);
			return EXIT_USAGE;
		}
		return 0;
	case 'R': a->o.no_por = 1; return 0;
	case 'Y': a->o.no_symmetry = 1; return 0;
	case 'A': a->o.no_pool_abstraction = 1; return 0;
	case 'q': a->quiet = 1; return 0;
	case 'h': cli_help(&cmd_check, stdout); return -1;
	default:
		cli_usage_error(&cmd_check, "bad option");
		return EXIT_USAGE;
	}
}

static int parse_args(int argc, char **argv, struct check_args *a)
{
	int c, rc;

	memset(a, 0, sizeof *a);
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:s:w:qh", longopts, NULL)) != -1)
		if ((rc = parse_opt(a, c)))
			return rc;
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc || !a->file == !a->preset) {
		cli_usage_error(&cmd_check,
				"give exactly one SCENARIO file or --preset NAME");
		return EXIT_USAGE;
	}
	if (a->nsw && (a->witness || a->promela)) {
		cli_usage_error(&cmd_check, "--sweep does not go with --witness or --promela");
		return EXIT_USAGE;
	}
	if (a->witness && a->file && strcmp(a->file, "-") == 0) {
		cli_usage_error(&cmd_check, "--witness needs a scenario file or a preset");
		return EXIT_USAGE;
	}
	return 0;
}

static void args_free(struct check_args *a)
{
	int i;
	size_t k;

	for (i = 0; i < a->nsw; i++) {
		for (k = 0; k < a->sw[i].nval; k++)
			free(a->sw[i].val[k]);
		free(a->sw[i].val);
	}
	free(a->sets);
}

/* ---- loading ---- */

static int load(struct hangdx_ctx *ctx, const struct check_args *a,
		struct hangdx_scenario **sc)
{
	return cli_load_scenario(ctx, &cmd_check, a->preset, a->file, sc);
}

static int set_one(struct hangdx_scenario *sc, const char *kv)
{
	return cli_set(&cmd_check, sc, kv);
}

static int apply_sets(struct hangdx_scenario *sc, const struct check_args *a)
{
	int i, rc;

	for (i = 0; i < a->nsets; i++)
		if ((rc = set_one(sc, a->sets[i])))
			return rc;
	return 0;
}

static int exit_for(enum hangdx_check_verdict v)
{
	switch (v) {
	case HANGDX_CHECK_SAFE: return EXIT_OK_NOHANG;
	case HANGDX_CHECK_UNDECIDED: return EXIT_UNDECIDED;
	default: return EXIT_HANG;
	}
}

/* ---- one check ---- */

static void print_verdict(const struct hangdx_scenario *sc,
			  const struct hangdx_check *ck)
{
	enum hangdx_check_verdict v = hangdx_check_verdict(ck);

	printf("scenario   %s\n", hangdx_scenario_name(sc));
	printf("verdict    %s", hangdx_check_verdict_name(v));
	if (v == HANGDX_CHECK_SAFE)
		printf(": every schedule completes");
	else if (v == HANGDX_CHECK_UNDECIDED)
		printf(" after %llu states: a limit (--max-states, --max-memory) was reached first",
		       (unsigned long long)hangdx_check_states(ck));
	else
		printf(" after %zu steps%s", hangdx_check_witness_len(ck),
		       v == HANGDX_CHECK_DEADLOCK ? ": a wait cycle" :
		       ": stuck without a wait cycle");
	printf(" (%llu states, %llu transitions, %.3f s%s%s)\n",
	       (unsigned long long)hangdx_check_states(ck),
	       (unsigned long long)hangdx_check_transitions(ck),
	       hangdx_check_seconds(ck),
	       hangdx_check_symmetric(ck) ? ", rank symmetry" : "",
	       hangdx_check_pool_abstraction(ck) ? ", unbounded-pool abstraction" : "");
}

static void print_witness(const struct hangdx_check *ck)
{
	size_t i;

	if (!hangdx_check_witness_len(ck))
		return;
	if (hangdx_check_lockstep(ck))
		printf("witness    the shortest schedule in which every rank takes "
		       "the same steps (one rank after the other):\n");
	else
		printf("witness    the shortest schedule into it:\n");
	for (i = 0; i < hangdx_check_witness_len(ck); i++)
		printf("  %s\n", hangdx_check_witness_step(ck, i));
	printf("stuck      nothing can move; who waits on what:\n");
	for (i = 0; i < hangdx_check_blocked_len(ck); i++)
		printf("  %s\n", hangdx_check_blocked(ck, i));
	if (hangdx_check_cycle(ck)[0])
		printf("cycle      %s\n", hangdx_check_cycle(ck));
}

static char *read_text(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, k;

	if (!fp)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
			if (!nb) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n - 1, fp);
		n += k;
		if (k == 0)
			break;
	}
	fclose(fp);
	buf[n] = '\0';
	return buf;
}

/* Replay the witness in the simulator and compare the cycles. */
static void replay(struct hangdx_ctx *ctx, const struct check_args *a,
		   const struct hangdx_check *ck)
{
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_summary sum;
	int i;

	if (hangdx_scenario_load(ctx, a->witness, &sc))
		return;
	for (i = 0; i < a->nsets; i++)
		if (set_one(sc, a->sets[i]))
			goto out_free;
	if (hangdx_simulate(ctx, sc, NULL, &sum) == HANGDX_OK)
		printf("replay     hangdx simulate %s%s: %s%s\n", a->witness,
		       a->nsets ? " (with the same --set)" : "",
		       hangdx_outcome_name(sum.outcome),
		       !hangdx_check_cycle(ck)[0] ? "" :
		       strcmp(sum.cycle, hangdx_check_cycle(ck)) == 0
		       ? ", the same cycle" : ", a different cycle");
out_free:
	hangdx_scenario_free(sc);
}

static int write_witness(struct hangdx_ctx *ctx, const struct check_args *a,
			 const struct hangdx_check *ck)
{
	char *text = NULL;
	const char *t = a->preset ? hangdx_preset_text(a->preset) : NULL;
	int err, i;

	if (!t)
		t = text = read_text(a->file);
	if (!t) {
		fprintf(stderr, "%s check: cannot read %s again\n", cli_prog, a->file);
		return EXIT_SYSERR;
	}
	err = hangdx_check_write_witness(ck, t, a->witness);
	free(text);
	if (err) {
		fprintf(stderr, "%s check: %s: %s\n", cli_prog, a->witness,
			hangdx_strerror(err));
		return EXIT_SYSERR;
	}
	if (!a->quiet) {
		printf("written    %s (replay: hangdx simulate %s", a->witness, a->witness);
		for (i = 0; i < a->nsets; i++)
			printf(" --set %s", a->sets[i]);
		printf(")\n");
		replay(ctx, a, ck);
	}
	return 0;
}

static int check_one(struct hangdx_ctx *ctx, const struct check_args *a)
{
	struct hangdx_scenario *sc = NULL;
	struct hangdx_check *ck = NULL;
	int rc = load(ctx, a, &sc), err;

	if (rc)
		return rc;
	rc = apply_sets(sc, a);
	if (rc)
		goto out_free_scenario;
	if (a->promela) {
		err = hangdx_check_write_promela(ctx, sc, a->promela);
		if (err) {
			fprintf(stderr, "%s check: %s: %s\n", cli_prog, a->promela,
				hangdx_strerror(err));
			rc = EXIT_SYSERR;
			goto out_free_scenario;
		}
	}
	err = hangdx_check(ctx, sc, &a->o, &ck);
	if (err) {
		fprintf(stderr, "%s check: %s\n", cli_prog, hangdx_strerror(err));
		rc = cli_exit_for(err);
		goto out_free_scenario;
	}
	print_verdict(sc, ck);
	if (!a->quiet)
		print_witness(ck);
	rc = exit_for(hangdx_check_verdict(ck));
	if (a->witness && rc == EXIT_HANG) {
		err = write_witness(ctx, a, ck);
		if (err)
			rc = err;
	} else if (a->witness && !a->quiet) {
		printf("written    nothing: there is no witness\n");
	}
	hangdx_check_free(ck);
out_free_scenario:
	hangdx_scenario_free(sc);
	return rc;
}

/* ---- sweeps ---- */

struct cell {
	enum hangdx_check_verdict v;
	uint64_t states;
	double secs;
	int err;
};

static void combo(const struct check_args *a, size_t idx, size_t *pick)
{
	int i;

	for (i = a->nsw - 1; i >= 0; i--) {
		pick[i] = idx % a->sw[i].nval;
		idx /= a->sw[i].nval;
	}
}

static int sweep_cell(struct hangdx_ctx *ctx, const struct check_args *a,
		      const size_t *pick, struct cell *c)
{
	struct hangdx_scenario *sc = NULL;
	struct hangdx_check *ck = NULL;
	int rc = load(ctx, a, &sc), i;

	if (!rc)
		rc = apply_sets(sc, a);
	for (i = 0; !rc && i < a->nsw; i++)
		if (hangdx_scenario_set(sc, a->sw[i].key, a->sw[i].val[pick[i]]))
			rc = EXIT_USAGE;
	if (!rc && (c->err = hangdx_check(ctx, sc, &a->o, &ck)))
		rc = cli_exit_for(c->err);
	if (!rc) {
		c->v = hangdx_check_verdict(ck);
		c->states = hangdx_check_states(ck);
		c->secs = hangdx_check_seconds(ck);
	}
	hangdx_check_free(ck);
	hangdx_scenario_free(sc);
	return rc;
}

/* For every setting of the other keys: the largest value of the first
 * key up to which every value is safe. */
static void safe_limits(const struct check_args *a, const struct cell *cells,
			size_t ncells)
{
	size_t stride = ncells / a->sw[0].nval, o, k;
	size_t pick[MAX_SWEEP];
	int i;

	for (o = 0; o < stride; o++) {
		const char *lim = NULL, *stop = NULL;
		enum hangdx_check_verdict why = HANGDX_CHECK_SAFE;

		for (k = 0; k < a->sw[0].nval; k++) {
			const struct cell *c = &cells[k * stride + o];
			if (c->v != HANGDX_CHECK_SAFE) {
				stop = a->sw[0].val[k];
				why = c->v;
				break;
			}
			lim = a->sw[0].val[k];
		}
		combo(a, o, pick);
		printf("safe limit");
		for (i = 1; i < a->nsw; i++)
			printf(" %s=%s", a->sw[i].key, a->sw[i].val[pick[i]]);
		if (!lim)
			printf(": none (%s=%s is already %s)\n", a->sw[0].key,
			       stop, hangdx_check_verdict_name(why));
		else if (!stop)
			printf(": %s <= %s (every value tried is deadlock-free)\n",
			       a->sw[0].key, lim);
		else
			printf(": %s <= %s (%s=%s: %s)\n", a->sw[0].key, lim,
			       a->sw[0].key, stop, hangdx_check_verdict_name(why));
	}
}

static int sweep(struct hangdx_ctx *ctx, const struct check_args *a)
{
	size_t n = 1, i, pick[MAX_SWEEP];
	struct cell *cells;
	int k, rc = 0, worst = EXIT_OK_NOHANG;

	for (k = 0; k < a->nsw; k++)
		n *= a->sw[k].nval;
	if (n > 100000) {
		cli_usage_error(&cmd_check, "--sweep would check %zu settings", n);
		return EXIT_USAGE;
	}
	cells = calloc(n, sizeof *cells);
	if (!cells)
		return EXIT_SYSERR;
	for (k = 0; k < a->nsw; k++)
		printf("%-14s ", a->sw[k].key);
	printf("%-14s %12s %10s\n", "verdict", "states", "seconds");
	for (i = 0; i < n && !rc; i++) {
		combo(a, i, pick);
		rc = sweep_cell(ctx, a, pick, &cells[i]);
		if (rc)
			break;
		for (k = 0; k < a->nsw; k++)
			printf("%-14s ", a->sw[k].val[pick[k]]);
		printf("%-14s %12llu %10.3f\n", hangdx_check_verdict_name(cells[i].v),
		       (unsigned long long)cells[i].states, cells[i].secs);
		fflush(stdout);
		if (exit_for(cells[i].v) == EXIT_HANG)
			worst = EXIT_HANG;
		else if (exit_for(cells[i].v) == EXIT_UNDECIDED && worst != EXIT_HANG)
			worst = EXIT_UNDECIDED;
	}
	if (!rc)
		safe_limits(a, cells, n);
	free(cells);
	return rc ? rc : worst;
}

static int run(int argc, char **argv)
{
	struct check_args a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		goto out_free_args;
	ctx = cli_ctx();
	rc = a.nsw ? sweep(ctx, &a) : check_one(ctx, &a);
	hangdx_ctx_free(ctx);
out_free_args:
	args_free(&a);
	return rc < 0 ? EXIT_OK_NOHANG : rc;
}
