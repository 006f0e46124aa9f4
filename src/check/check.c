/*
 * check.c - the public face of the static checker: hangdx_check() builds
 * the static model (program.c), searches it (explore.c), turns a stuck
 * state into a witness (witness.c), and writes the witness back as a
 * scenario with a `schedule:` that `hangdx simulate` replays.
 */
#include <stdio.h>
#include <string.h>
#include "check_int.h"

#define DEFAULT_MEMORY (1ULL << 30)
#define SEQ_WRITE_MAX 500000u   /* sequence steps a witness file may hold */

static void free_lines(struct hangdx_ctx *ctx, char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		hx_free(ctx, v[i]);
	hx_free(ctx, v);
}

void hangdx_check_free(struct hangdx_check *ck)
{
	if (!ck)
		return;
	free_lines(ck->ctx, ck->steps, ck->nsteps);
	free_lines(ck->ctx, ck->blocked, ck->nblocked);
	hx_free(ck->ctx, ck->grants);
	hx_free(ck->ctx, ck->seq);
	free_lines(ck->ctx, ck->slabel, ck->nslabel);
	hx_free(ck->ctx, ck);
}

/* Symmetric programs over more than two ranks: look among the schedules
 * in which every rank takes the same steps first (small, and a stuck
 * state there is a real one); else, and to prove safety, everything. */
static int lockstep_first(struct hangdx_check *ck, struct ck_model *m,
			  const struct hangdx_check_opts *o, uint64_t mem,
			  struct ck_result *res)
{
	int err;

	if (!m->symmetric || !ck->symmetry || m->nranks <= 2)
		return HANGDX_OK;
	err = ck_explore(m, o ? o->max_states : 0, mem, true, true, true, res);
	ck->states += res->states;
	ck->transitions += res->transitions;
	ck->seconds += res->seconds;
	if (!err && res->verdict == -1) {
		ck->lockstep = true;
		return ck_witness(ck, m, res);
	}
	ck_result_free(ck->ctx, res);
	return err;
}

/* When some ranks' pools cannot be part of a stuck state (every core
 * user gives its core back by itself), search with those pools never
 * running out: much smaller (no grant races), and "safe" there is safe
 * here (docs/CHECKER.md).  A stuck state there may not be reachable
 * here: then the exact search decides. */
static int abstract_first(struct hangdx_check *ck, struct ck_model *m,
			  const struct hangdx_check_opts *o, uint64_t mem,
			  struct ck_result *res)
{
	int err;

	if (!m->nfree_pool || (o && (o->no_por || o->no_pool_abstraction)))
		return HANGDX_OK;
	err = ck_explore_abstract(m, o ? o->max_states : 0, mem, ck->symmetry,
				  res);
	ck->states += res->states;
	ck->transitions += res->transitions;
	ck->seconds += res->seconds;
	if (!err && res->verdict == 0) {
		ck->verdict = HANGDX_CHECK_SAFE;
		ck->pool_abstraction = true;
	}
	ck_result_free(ck->ctx, res);
	return err;
}

static int run(struct hangdx_check *ck, const struct hangdx_check_opts *o)
{
	struct ck_model m;
	struct ck_result res;
	uint64_t mem = o && o->max_memory ? o->max_memory : DEFAULT_MEMORY;
	int err = ck_model_build(&m, ck->ctx, ck->sc);

	if (err)
		return err;
	if (m.ignored_faults)
		hx_diag(ck->ctx, HANGDX_NOTE, ck->sc->file, 0, 0,
			"check explores the fault-free program: %lu fault%s "
			"(rank_death, link_error, mismatch) ignored",
			m.ignored_faults, m.ignored_faults == 1 ? "" : "s");
	ck->symmetric = m.symmetric;
	ck->symmetry = !(o && o->no_symmetry);
	memset(&res, 0, sizeof res);
	err = abstract_first(ck, &m, o, mem, &res);
	if (err || ck->pool_abstraction)
		goto out_free;
	err = lockstep_first(ck, &m, o, mem, &res);
	if (err || ck->lockstep)
		goto out_free;
	err = ck_explore(&m, o ? o->max_states : 0, mem, !(o && o->no_por),
			 ck->symmetry, false, &res);
	ck->states += res.states;
	ck->transitions += res.transitions;
	ck->seconds += res.seconds;
	if (!err && res.verdict == -1)
		err = ck_witness(ck, &m, &res);
	else if (!err)
		ck->verdict = res.verdict == -2 ? HANGDX_CHECK_UNDECIDED
						: HANGDX_CHECK_SAFE;
out_free:
	ck_result_free(ck->ctx, &res);
	ck_model_free(&m);
	return err;
}

int hangdx_check(struct hangdx_ctx *ctx, const struct hangdx_scenario *sc,
		 const struct hangdx_check_opts *opts, struct hangdx_check **out)
{
	struct hangdx_check *ck;
	int err;

	*out = NULL;
	ck = hx_calloc(ctx, 1, sizeof *ck);
	if (!ck)
		return HANGDX_ENOMEM;
	ck->ctx = ctx;
	ck->sc = sc;
	err = run(ck, opts);
	if (err) {
		hangdx_check_free(ck);
		return err;
	}
	*out = ck;
	return HANGDX_OK;
}

enum hangdx_check_verdict hangdx_check_verdict(const struct hangdx_check *ck)
{
	return ck->verdict;
}

const char *hangdx_check_verdict_name(enum hangdx_check_verdict v)
{
	switch (v) {
	case HANGDX_CHECK_SAFE: return "deadlock-free";
	case HANGDX_CHECK_DEADLOCK: return "deadlock";
	case HANGDX_CHECK_HANG: return "hang";
	case HANGDX_CHECK_UNDECIDED: return "undecided";
	}
	return "?";
}

uint64_t hangdx_check_states(const struct hangdx_check *ck)
{
	return ck->states;
}

uint64_t hangdx_check_transitions(const struct hangdx_check *ck)
{
	return ck->transitions;
}

double hangdx_check_seconds(const struct hangdx_check *ck)
{
	return ck->seconds;
}

int hangdx_check_lockstep(const struct hangdx_check *ck)
{
	return ck->lockstep;
}

int hangdx_check_symmetric(const struct hangdx_check *ck)
{
	return ck->symmetric && ck->symmetry;
}

int hangdx_check_pool_abstraction(const struct hangdx_check *ck)
{
	return ck->pool_abstraction;
}

size_t hangdx_check_witness_len(const struct hangdx_check *ck)
{
	return ck->nsteps;
}

const char *hangdx_check_witness_step(const struct hangdx_check *ck, size_t i)
{
	return i < ck->nsteps ? ck->steps[i] : NULL;
}

const char *hangdx_check_cycle(const struct hangdx_check *ck)
{
	return ck->cycle;
}

size_t hangdx_check_blocked_len(const struct hangdx_check *ck)
{
	return ck->nblocked;
}

const char *hangdx_check_blocked(const struct hangdx_check *ck, size_t i)
{
	return i < ck->nblocked ? ck->blocked[i] : NULL;
}

/* ---- the replay scenario ---- */

/* Where a top-level block `key:` of text starts and ends ([skip[0],
 * skip[1]); both the length of text when there is none). */
static void find_block(const char *text, const char *key, size_t *skip)
{
	const char *p = text, *start = NULL;
	size_t klen = strlen(key);

	skip[0] = skip[1] = strlen(text);
	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (!start) {
			if (strncmp(p, key, klen) == 0 && p[klen] == ':')
				start = p;
			continue;
		}
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '#' &&
		    *p != '-')
			break;
	}
	if (start) {
		skip[0] = (size_t)(start - text);
		skip[1] = (size_t)(p - text);
	}
}

/* Write text without its top-level `schedule:` and `sequence:` blocks. */
static void write_without(FILE *fp, const char *text)
{
	static const char *const keys[] = { "schedule", "sequence" };
	size_t skip[2][2], len = strlen(text), at = 0, i;

	for (i = 0; i < 2; i++)
		find_block(text, keys[i], skip[i]);
	if (skip[1][0] < skip[0][0]) {      /* in file order */
		size_t t0 = skip[0][0], t1 = skip[0][1];
		skip[0][0] = skip[1][0];
		skip[0][1] = skip[1][1];
		skip[1][0] = t0;
		skip[1][1] = t1;
	}
	for (i = 0; i < 2; i++) {
		if (skip[i][0] >= len || skip[i][0] < at)
			continue;
		fwrite(text + at, 1, skip[i][0] - at, fp);
		at = skip[i][1];
	}
	fwrite(text + at, 1, len - at, fp);
	if (len && text[len - 1] != '\n')
		fputc('\n', fp);
}

static void yaml_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* The witness step by step: the simulator holds every step until the
 * ones before it have happened (docs/SCENARIO.md, sequence). */
static void write_sequence(const struct hangdx_check *ck, FILE *fp)
{
	size_t i;

	if (!ck->nseq || ck->nseq > SEQ_WRITE_MAX) {
		if (ck->nseq)
			fprintf(fp, "# (%zu steps: too many for a sequence; the "
				    "grants alone are written)\n", ck->nseq);
		return;
	}
	fprintf(fp, "# the witness step by step: a host's runtime call number "
		    "(call) or the task\n# at a position of a stream that "
		    "completes (task); each waits for the one before\n"
		    "sequence:\n");
	for (i = 0; i < ck->nseq; i++) {
		const struct ck_seqitem *q = &ck->seq[i];
		if (q->stream == UINT32_MAX) {
			fprintf(fp, "  - {rank: %u, call: %u}    # %zu\n", q->rank,
				q->n, i + 1);
			continue;
		}
		fprintf(fp, "  - {rank: %u, stream: ", q->rank);
		yaml_str(fp, ck->slabel[q->stream]);
		fprintf(fp, ", task: %u}    # %zu\n", q->n, i + 1);
	}
}

static void write_schedule(const struct hangdx_check *ck, FILE *fp)
{
	uint32_t r;
	size_t i;
	bool any = false;

	fprintf(fp, "\n# ---- written by `hangdx check --witness` ----\n"
		    "# %s after %zu steps.  `hangdx simulate` replays it: each "
		    "device below\n# grants its AICPU cores in this order first, "
		    "and the steps happen in the\n# order of `sequence:`.\n",
		ck->verdict == HANGDX_CHECK_DEADLOCK ? "deadlock" : "stuck",
		ck->nsteps);
	if (ck->cycle[0])
		fprintf(fp, "# cycle: %s\n", ck->cycle);
	for (r = 0; r < ck->sc->nranks; r++) {
		bool first = true;
		for (i = 0; i < ck->ngrants; i++) {
			const struct ck_grant *g = &ck->grants[i];
			if (g->rank != r)
				continue;
			if (!any)
				fprintf(fp, "schedule:\n");
			any = true;
			if (first)
				fprintf(fp, "  - rank: %u\n    grants:\n", r);
			first = false;
			fprintf(fp, "      - {%s: ", g->kernel ? "kernel" : "aicpu");
			yaml_str(fp, g->name);
			fprintf(fp, ", %s: %u}\n", g->kernel ? "op" : "task", g->n);
		}
	}
	if (!any)
		fprintf(fp, "schedule: []\n");
	write_sequence(ck, fp);
}

int hangdx_check_write_witness(const struct hangdx_check *ck,
			       const char *text, const char *path)
{
	struct hx_outfile o;
	int err;

	if (ck->verdict != HANGDX_CHECK_DEADLOCK &&
	    ck->verdict != HANGDX_CHECK_HANG)
		return HANGDX_EINVAL;
	err = hx_outfile_open(ck->ctx, &o, path);
	if (err)
		return err;
	write_without(o.fp, text);
	write_schedule(ck, o.fp);
	return hx_outfile_commit(ck->ctx, &o);
}
