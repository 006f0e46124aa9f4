/*
 * cmd_watch.c - `hangdx watch PATH...`: follow a running job's logs and say
 * when it hangs, while it still runs.  Every period, or sooner when inotify
 * reports a change, it looks at the files under PATH (size, time, inode,
 * cli/follow.c); when something changed it reads them and
 * diagnoses them as diagnose does, and prints an event when the state
 * changes: stall, resumed, deadlock, failure.  A hang runs --on-hang once,
 * --exit-on-hang ends the watch, --prom keeps a Prometheus textfile.
 * Each decision reads the logs whole (docs/WATCH.md); between them
 * cli/follow.c reads only the lines the files gained, to decide at once
 * on an error line, and --cpu spaces the decisions so that they take at
 * most that share of a core.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static int run(int argc, char **argv);

const struct cli_cmd cmd_watch = {
	"watch",
	N_("follow a running job's logs and report a hang while it runs"),
	N_("watch [options] PATH...\n"
	"\n"
	"PATH is read as by diagnose (log files, directories read recursively,\n"
	"archives).  Every period the files are looked at (size, time, inode);\n"
	"when one changed, appeared or went away, the logs are read and\n"
	"diagnosed again (at once when a new line is an error, else as often\n"
	"as --cpu allows), and an event is printed when the state changes:\n"
	"  stall     ranks wait with no progress (a silent hang so far)\n"
	"  resumed   the logs moved on after a stall, an inferred deadlock or a\n"
	"            failure: it cleared (an inference is retracted)\n"
	"  deadlock  a circular wait, proven or inferred as diagnose says it\n"
	"  failure   an error line: a timeout or a fault, with the diagnosis\n"
	"            of what has been read so far (refined as more ranks report)\n"
	"\n"
	"options:\n"
	"  -i, --interval S      seconds between looks at most (default 5): a look\n"
	"                        comes sooner when inotify reports a change; the\n"
	"                        period alone on NFS, Lustre and FUSE\n"
	"      --poll            no inotify: a look every period only\n"
	"      --cpu PCT         decide again at most so often that deciding takes\n"
	"                        PCT percent of a core (default 3; 0: no limit); a new\n"
	"                        error line is decided at once all the same\n"
	"      --json            events as JSON Lines on standard output\n"
	"      --exit-on-hang    stop at the first deadlock or hang (exit 1)\n"
	"      --on-hang CMD     run CMD (with /bin/sh) once when a hang is first\n"
	"                        seen; HANGDX_EVENT, HANGDX_CATEGORY, HANGDX_ROOTS\n"
	"                        and HANGDX_EVENT_JSON describe it\n"
	"      --prom FILE       keep a Prometheus textfile (node exporter's\n"
	"                        textfile collector), written whole each decision\n"
	"      --for S           stop after S seconds; 0 looks once (default: until\n"
	"                        interrupted)\n"
	"      --facts-out DIR   after each change, write this node's facts to\n"
	"                        DIR/NODE.facts (whole: temporary file, rename)\n"
	"      --node NAME       the node's name there (default: the host name)\n"
	"      --facts           decide over the facts files in PATH... (the\n"
	"                        *.facts of each directory) the nodes write with\n"
	"                        --facts-out, as diagnose --facts does\n"
	"      --state FILE      keep what was said in FILE (the last event, whether\n"
	"                        --on-hang ran, the files' offsets) and start from\n"
	"                        it: a restarted watch says an event again only\n"
	"                        when it changed, and decides once a file changed\n"
	"      --batch SIZE      logs of more than SIZE bytes are read SIZE/8\n"
	"                        at a time, each part reduced to facts, as\n"
	"                        diagnose --batch (default 0: one pass, a file\n"
	"                        that grows read on from where it stopped)\n"
	"      --max-records N   records kept (4194304; about 250 bytes each)\n"
	"      --cores N         AICPU cores per device (default 6: Atlas A2/A3)\n"
	"  -h, --help            this help\n"
	"\n"
	"A stall runs no hook and does not stop --exit-on-hang: waiting on a slow\n"
	"rank or a checkpoint is one, and clears.\n"
	"\n"
	"exit status: 0 stopped with no hang, 1 a deadlock or failure was found,\n"
	"2 usage, 3 a --state FILE that is not a state file, 4 system error,\n"
	"5 stopped in a stall or with the logs read so far not deciding (\"not\n"
	"determined\": a job still starting or silent)"),
	run
};

struct wargs {
	double interval, limit;
	double cpu;                     /* --cpu PCT: decisions' share of a core, 0 none */
	int json, exit_on_hang;
	int poll;                       /* --poll: no inotify */
	const char *on_hang, *prom;
	const char *facts_out, *node;   /* --facts-out DIR, --node NAME */
	const char *state;              /* --state FILE */
	uint64_t dense;                 /* --batch: bytes from which logs go in batches */
	size_t max_records;             /* --max-records, 0: the default */
	int from_facts;                 /* --facts: PATHs hold facts files */
	unsigned cores;
	const char *const *paths;
	size_t npaths;
};

struct wstate {
	char kind[16];          /* the last event: "" none yet */
	char key[512];          /* its category, proof and roots */
	int hang;               /* the last decision was a hang */
	int undecided;          /* ... was "not determined" (a job still starting) */
	int fired;              /* --on-hang ran for this incident */
	pid_t child;            /* --on-hang's process, 0 none */
	char saved[1024];       /* the --state file's text last written */
	uint64_t seen;          /* the look the last decision was made at */
	int have_seen;
	struct cli_follow *fl;  /* its files' offsets, for the state file */
	struct cli_follow_ent *ents;    /* a state file's offsets, to resume */
	size_t nents, capents;
	struct hangdx_ingest_cache *cache;      /* what each file said; NULL */
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

/* ---- one decision ---- */

#define TEXT_ROOTS 16            /* roots named in a text line */
#define ENV_ROOTS 4096           /* in HANGDX_EVENT_JSON (a variable's limit) */

struct decision {
	const char *kind;       /* NULL: nothing to say */
	const char *category;
	int proven, hang;       /* hang: diagnose's verdict is no "no hang" */
	int alarm;              /* a deadlock or a failure: what the hooks act on
				   (a stall may still clear) */
	int32_t *roots;         /* every root (nroots), or NULL */
	size_t nroots;
	int first_rank;
	int64_t log_time;
	const char *summary;
};

static const char *kind_of(const struct hangdx_diagnosis *d, const char *cat)
{
	if (strcmp(cat, "not_determined") == 0)
		return NULL;        /* a job still starting says nothing yet */
	switch (hangdx_diagnosis_verdict(d)) {
	case HANGDX_V_DEADLOCK:
		return "deadlock";
	case HANGDX_V_HANG:
		return strcmp(cat, "silent_hang") == 0 ? "stall" : "failure";
	default:
		return strcmp(cat, "none") == 0 ? NULL : "failure";
	}
}

static void fmt_time(int64_t us, char *out, size_t n)
{
	time_t sec;
	struct tm tm;

	if (us == INT64_MIN) {
		snprintf(out, n, "-");
		return;
	}
	sec = (time_t)(us / 1000000);
	gmtime_r(&sec, &tm);
	snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%06" PRId64,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, us % 1000000);
}

static void json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* The first TEXT_ROOTS roots, then how many more: the text line, the
 * state key and HANGDX_ROOTS. */
static void roots_text(const struct decision *e, char *out, size_t n)
{
	size_t i, k = 0;

	out[0] = '\0';
	for (i = 0; e->roots && i < e->nroots && i < TEXT_ROOTS && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%d", i ? "," : "",
				      (int)e->roots[i]);
	if (e->nroots > TEXT_ROOTS && k < n)
		snprintf(out + k, n - k, _(" and %zu more"), e->nroots - TEXT_ROOTS);
}

/* The event as one JSON line: every root, or (max > 0) the first max of
 * them with "roots_cut" (an environment variable has a size limit). */
static void event_json(FILE *fp, const struct decision *e, const char *kind,
		       size_t max)
{
	char lt[64], wt[64];
	size_t i, n = max && e->nroots > max ? max : e->nroots;

	fmt_time(e->log_time, lt, sizeof lt);
	fmt_time((int64_t)time(NULL) * 1000000, wt, sizeof wt);
	fprintf(fp, "{\"event\":\"%s\",\"wall_time\":\"%s\",\"log_time\":", kind, wt);
	if (e->log_time == INT64_MIN)
		fputs("null", fp);
	else
		fprintf(fp, "\"%s\"", lt);
	fprintf(fp, ",\"category\":\"%s\",\"hang\":%s,\"proven\":%s,\"roots\":[",
		e->category, e->hang ? "true" : "false", e->proven ? "true" : "false");
	for (i = 0; e->roots && i < n; i++)
		fprintf(fp, "%s%d", i ? "," : "", (int)e->roots[i]);
	fprintf(fp, "],\"nroots\":%zu", e->nroots);
	if (n < e->nroots)
		fputs(",\"roots_cut\":true", fp);
	fprintf(fp, ",\"first_rank\":%d,\"summary\":", e->first_rank);
	json_str(fp, e->summary ? e->summary : "");
	fputs("}\n", fp);
}

static void event_text(FILE *fp, const struct decision *e, const char *kind)
{
	char lt[64], wt[64], roots[160];

	fmt_time(e->log_time, lt, sizeof lt);
	fmt_time((int64_t)time(NULL) * 1000000, wt, sizeof wt);
	roots_text(e, roots, sizeof roots);
	fprintf(fp, _("%s %s: %s%s, roots %s, log time %s\n  %s\n"), wt, kind,
		e->category, e->hang ? (e->proven ? _(" (proven)") : _(" (inferred)")) : "",
		roots[0] ? roots : "-", lt, e->summary ? e->summary : "");
}

/* ---- what a hang does: the command, the textfile ---- */

static void run_on_hang(const struct wargs *a, struct wstate *w,
			const struct decision *e, const char *kind)
{
	char roots[160], *json = NULL;
	size_t len = 0;
	FILE *mem;
	pid_t pid;

	if (!a->on_hang || w->fired || !e->alarm)
		return;
	w->fired = 1;
	roots_text(e, roots, sizeof roots);
	mem = open_memstream(&json, &len);
	if (mem) {
		event_json(mem, e, kind, ENV_ROOTS);
		fclose(mem);
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("HANGDX_EVENT", kind, 1);
		setenv("HANGDX_CATEGORY", e->category, 1);
		setenv("HANGDX_ROOTS", roots, 1);
		setenv("HANGDX_EVENT_JSON", json ? json : "", 1);
		execl("/bin/sh", "sh", "-c", a->on_hang, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, _("%s watch: cannot run --on-hang: %s\n"), cli_prog,
			strerror(errno));
	else
		w->child = pid;
	free(json);
}

static int put_prom(const void *ud, FILE *fp)
{
	const struct decision *e = ud;
	const char *k = e->kind ? e->kind : "none";

	fprintf(fp, "# HELP hangdx_hang 1 when the watched job hangs (a deadlock or a "
		"failure that may be one).\n# TYPE hangdx_hang gauge\nhangdx_hang %d\n",
		e->alarm);
	fprintf(fp, "# HELP hangdx_deadlock 1 when a circular wait was found.\n"
		"# TYPE hangdx_deadlock gauge\nhangdx_deadlock %d\n",
		strcmp(k, "deadlock") == 0);
	fprintf(fp, "# HELP hangdx_stall 1 when ranks wait without progress.\n"
		"# TYPE hangdx_stall gauge\nhangdx_stall %d\n", strcmp(k, "stall") == 0);
	fprintf(fp, "# HELP hangdx_proven 1 when the hang is proven from the logs.\n"
		"# TYPE hangdx_proven gauge\nhangdx_proven %d\n", e->proven);
	fprintf(fp, "# HELP hangdx_roots Root-cause ranks found.\n"
		"# TYPE hangdx_roots gauge\nhangdx_roots %zu\n", e->nroots);
	fprintf(fp, "# HELP hangdx_state The last decision's category.\n"
		"# TYPE hangdx_state gauge\nhangdx_state{category=\"%s\"} 1\n", e->category);
	if (e->log_time != INT64_MIN)
		fprintf(fp, "# HELP hangdx_log_time_seconds The newest log time read.\n"
			"# TYPE hangdx_log_time_seconds gauge\n"
			"hangdx_log_time_seconds %.6f\n", (double)e->log_time / 1e6);
	fprintf(fp, "# HELP hangdx_decision_time_seconds When the logs were last "
		"diagnosed.\n# TYPE hangdx_decision_time_seconds gauge\n"
		"hangdx_decision_time_seconds %lld\n", (long long)time(NULL));
	return ferror(fp) ? HANGDX_EIO : HANGDX_OK;
}

/* ---- --state FILE: what was said survives a restart ---- */

#define STATE_MAGIC "hangdx-watch-state 1"
/* a state file has 7 lines and one a file followed; more is not ours */
#define STATE_MAX_LINES (CLI_FOLLOW_MAX_FILES + 16)

static void put_ent(void *ud, const struct cli_follow_ent *e)
{
	fprintf(ud, "file %llu %llu %llu\n", (unsigned long long)e->dev,
		(unsigned long long)e->ino, (unsigned long long)e->off);
}

/* The head (the last event), then the offsets of the files followed. */
static int put_state(const void *ud, FILE *fp)
{
	const struct wstate *w = ud;

	fputs(w->saved, fp);
	if (w->fl && w->have_seen)
		cli_follow_each(w->fl, put_ent, fp);
	return ferror(fp) ? HANGDX_EIO : HANGDX_OK;
}

static void state_text(const struct wstate *w, char *out, size_t n)
{
	int k = snprintf(out, n, STATE_MAGIC "\nkind %s\nkey %s\nhang %d\nundecided %d\nfired %d\n",
			 w->kind[0] ? w->kind : "-", w->key[0] ? w->key : "-", w->hang,
			 w->undecided, w->fired);

	if (w->have_seen && k > 0 && (size_t)k < n)
		snprintf(out + k, n - (size_t)k, "seen %016llx\n",
			 (unsigned long long)w->seen);
}

/* Write the state when it changed (a failure is said, and the watch goes on). */
static void save_state(const struct wargs *a, struct wstate *w)
{
	char text[sizeof w->saved];

	if (!a->state)
		return;
	state_text(w, text, sizeof text);
	if (strcmp(text, w->saved) == 0)
		return;
	snprintf(w->saved, sizeof w->saved, "%s", text);
	if (cli_write_file(&cmd_watch, a->state, put_state, w) != 0)
		w->saved[0] = '\0';    /* written again next time */
}

static int state_flag(const char *v, int *out)
{
	if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
		return -1;
	*out = v[0] == '1';
	return 0;
}

static int state_seen(struct wstate *w, const char *v)
{
	char *end;

	errno = 0;
	w->seen = strtoull(v, &end, 16);
	if (!*v || *end || errno)
		return -1;
	w->have_seen = 1;
	return 0;
}

/* "file DEV INO OFF": a file's offset, kept to resume from. */
static int state_file(struct wstate *w, const char *v)
{
	unsigned long long x[3];
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		errno = 0;
		x[i] = strtoull(v, &end, 10);
		if (end == v || errno || (i < 2 ? *end != ' ' : *end != '\0'))
			return -1;
		v = end + (i < 2);
	}
	if (w->nents == w->capents) {
		size_t cap = w->capents ? 2 * w->capents : 64;
		void *p;

		if (w->nents >= CLI_FOLLOW_MAX_FILES ||
		    !(p = realloc(w->ents, cap * sizeof *w->ents)))
			return -1;
		w->ents = p;
		w->capents = cap;
	}
	w->ents[w->nents++] = (struct cli_follow_ent){ x[0], x[1], x[2] };
	return 0;
}

/* One "NAME VALUE" line into w: 0, or -1 when it is not one of ours. */
static int state_line(struct wstate *w, char *ln)
{
	char *v = strchr(ln, ' ');

	if (!v)
		return -1;
	*v++ = '\0';
	if (strcmp(v, "-") == 0)
		v[0] = '\0';       /* none */
	if (strcmp(ln, "kind") == 0 && strlen(v) < sizeof w->kind) {
		if (*v && strcmp(v, "stall") && strcmp(v, "deadlock") && strcmp(v, "failure"))
			return -1;
		strcpy(w->kind, v);
		return 0;
	}
	if (strcmp(ln, "key") == 0 && *v && strlen(v) < sizeof w->key) {
		strcpy(w->key, v);
		return 0;
	}
	if (strcmp(ln, "hang") == 0)
		return state_flag(v, &w->hang);
	if (strcmp(ln, "undecided") == 0)
		return state_flag(v, &w->undecided);
	if (strcmp(ln, "fired") == 0)
		return state_flag(v, &w->fired);
	if (strcmp(ln, "seen") == 0)
		return state_seen(w, v);
	if (strcmp(ln, "file") == 0)
		return state_file(w, v);
	return -1;
}

/* Start from the --state file when there is one: 0, or EXIT_BADINPUT
 * for a file that is not a state file (it is not overwritten).  A line
 * that is not ours is a warning (FILE:LINE) and skipped. */
static int load_state(const struct wargs *a, struct wstate *w)
{
	char ln[1024];
	unsigned line = 0, bad = 0;
	FILE *fp;

	if (!a->state || !(fp = fopen(a->state, "r"))) {
		if (a->state && errno != ENOENT)
			fprintf(stderr, _("%s watch: cannot read %s: %s (starting afresh)\n"),
				cli_prog, a->state, strerror(errno));
		return 0;
	}
	while (line < STATE_MAX_LINES && fgets(ln, sizeof ln, fp)) {
		size_t n = strlen(ln);
		line++;
		if (n && ln[n - 1] == '\n')
			ln[--n] = '\0';
		if (line == 1 && strcmp(ln, STATE_MAGIC) != 0) {
			fprintf(stderr, _("%s:1: error: not a hangdx watch state file (its "
					  "first line is not \"%s\"): not overwritten\n"),
				a->state, STATE_MAGIC);
			fclose(fp);
			return EXIT_BADINPUT;
		}
		if (line > 1 && state_line(w, ln) != 0 && ++bad <= 8)
			fprintf(stderr, _("%s:%u: warning: not a state line: skipped\n"),
				a->state, line);
	}
	if (line == STATE_MAX_LINES && !feof(fp))
		fprintf(stderr, _("%s:%u: warning: more lines than a state file has: "
				  "the rest ignored\n"), a->state, line);
	fclose(fp);
	if (line)
		state_text(w, w->saved, sizeof w->saved);
	return 0;
}

/* Say the event when the state changed; 1 when the watch should stop. */
static int report(const struct wargs *a, struct wstate *w, const struct decision *e)
{
	const char *kind = e->kind;
	char key[512], roots[160];

	roots_text(e, roots, sizeof roots);
	snprintf(key, sizeof key, "%s/%d/%s", e->category, e->proven, roots);
	if (!kind && w->kind[0])
		kind = "resumed";       /* a stall cleared, an inference retracted */
	if (a->prom)
		cli_write_file(&cmd_watch, a->prom, put_prom, e);
	w->hang = e->alarm;
	w->undecided = !e->alarm && e->hang;    /* a stall, or not determined */
	if (!e->alarm)
		w->fired = 0;
	if (!kind || (strcmp(kind, w->kind) == 0 && strcmp(key, w->key) == 0)) {
		save_state(a, w);
		return 0;
	}
	snprintf(w->kind, sizeof w->kind, "%s", strcmp(kind, "resumed") ? kind : "");
	snprintf(w->key, sizeof w->key, "%s", key);
	if (a->json)
		event_json(stdout, e, kind, 0);
	else
		event_text(stdout, e, kind);
	fflush(stdout);
	run_on_hang(a, w, e, kind);
	save_state(a, w);
	return a->exit_on_hang && e->alarm;
}

/* The event of diagnosis d, said when the state changed; 1 stop, 0 go on. */
static int decided(const struct wargs *a, struct wstate *w,
		   const struct hangdx_diagnosis *d)
{
	struct decision e;
	int rc;

	memset(&e, 0, sizeof e);
	e.category = hangdx_diagnosis_category(d);
	e.kind = kind_of(d, e.category);
	e.hang = hangdx_diagnosis_verdict(d) != HANGDX_V_NO_HANG;
	e.alarm = e.kind && (strcmp(e.kind, "deadlock") == 0 || strcmp(e.kind, "failure") == 0);
	e.proven = hangdx_diagnosis_proven(d);
	e.nroots = hangdx_diagnosis_roots(d, NULL, 0);
	e.roots = e.nroots ? malloc(e.nroots * sizeof *e.roots) : NULL;
	if (e.nroots && !e.roots) {
		fprintf(stderr, "%s watch: %s\n", cli_prog, hangdx_strerror(HANGDX_ENOMEM));
		return EXIT_SYSERR;
	}
	if (e.roots)
		hangdx_diagnosis_roots(d, e.roots, e.nroots);
	e.first_rank = hangdx_diagnosis_first_rank(d);
	e.log_time = hangdx_diagnosis_log_time(d);
	e.summary = hangdx_diagnosis_summary(d);
	rc = report(a, w, &e);
	free(e.roots);
	return rc;
}

/* The diagnosis made (err 0) said and freed, or err said: as decide. */
static int finish(const struct wargs *a, struct wstate *w, int err,
		  struct hangdx_diagnosis *d)
{
	int rc;

	if (err) {
		fprintf(stderr, "%s watch: %s\n", cli_prog, hangdx_strerror(err));
		return EXIT_SYSERR;
	}
	rc = decided(a, w, d);
	hangdx_diagnosis_free(d);
	return rc;
}

/* ---- many nodes: each writes its facts, one decides over them ---- */

static int put_facts(const void *ud, FILE *fp)
{
	return hangdx_facts_write(ud, fp);
}

/* New facts of this node (named as --node, or the host name). */
static int node_facts(struct hangdx_ctx *ctx, const struct wargs *a,
		      struct hangdx_facts **f)
{
	char node[256];
	int err = hangdx_facts_new(ctx, f);

	cli_node_name(a->node, node, sizeof node);
	if (!err && node[0])
		err = hangdx_facts_set_node(*f, node);
	return err;
}

/* This node's facts f to DIR/NODE.facts (written whole). */
static int write_facts(const struct wargs *a, const struct hangdx_facts *f)
{
	char node[256], *path;
	int err = HANGDX_OK;

	cli_node_name(a->node, node, sizeof node);
	path = malloc(strlen(a->facts_out) + strlen(node) + 16);
	if (!path)
		return HANGDX_ENOMEM;
	sprintf(path, "%s/%s.facts", a->facts_out, node[0] ? node : "node");
	if (cli_write_file(&cmd_watch, path, put_facts, f) != 0)
		err = HANGDX_EIO;
	free(path);
	return err;
}

/* This node's facts of ev, to DIR/NODE.facts. */
static int write_ev_facts(struct hangdx_ctx *ctx, const struct wargs *a,
			  const struct hangdx_evidence *ev,
			  const struct hangdx_diagnose_opts *o)
{
	struct hangdx_facts *f = NULL;
	int err = node_facts(ctx, a, &f);

	if (!err)
		err = hangdx_facts_add_evidence(f, ev, o);
	if (!err)
		err = write_facts(a, f);
	hangdx_facts_free(f);
	return err;
}

static int facts_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 6 && strcmp(e->d_name + n - 6, ".facts") == 0;
}

/* Load the facts of one PATH: a facts file, or a directory's *.facts in
 * name order; the number loaded. */
static size_t load_path(struct hangdx_facts *f, const char *path, int *err)
{
	struct dirent **names;
	size_t loaded = 0;
	int i, n;
	char *p;

	n = scandir(path, &names, facts_file, alphasort);
	if (n < 0) {
		if (hangdx_facts_probe(path) && !(*err = hangdx_facts_load(f, path)))
			loaded = 1;
		return loaded;
	}
	for (i = 0; i < n; i++) {
		p = *err ? NULL : malloc(strlen(path) + strlen(names[i]->d_name) + 2);
		if (p) {
			sprintf(p, "%s/%s", path, names[i]->d_name);
			if (hangdx_facts_probe(p) && !(*err = hangdx_facts_load(f, p)))
				loaded++;
			free(p);
		} else if (!*err) {
			*err = HANGDX_ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	return loaded;
}

/* Decide over the facts the nodes wrote; as decide. */
static int decide_facts(struct hangdx_ctx *ctx, const struct wargs *a,
			struct wstate *w)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_facts *f = NULL;
	struct hangdx_diagnosis *d = NULL;
	size_t i, n = 0;
	int err, rc;

	err = hangdx_facts_new(ctx, &f);
	for (i = 0; !err && i < a->npaths; i++)
		n += load_path(f, a->paths[i], &err);
	if (!err && n == 0) {
		hangdx_facts_free(f);
		return 0;           /* no node has written yet */
	}
	if (!err)
		err = hangdx_diagnose_facts(f, &o, NULL, NULL, &d);
	rc = finish(a, w, err, d);
	hangdx_facts_free(f);
	return rc;
}

/* Logs past --batch: read a batch of entries at a time into facts, then
 * diagnosed in two phases, as diagnose --batch; as decide. */
static int decide_dense(struct hangdx_ctx *ctx, const struct wargs *a,
			struct wstate *w, const struct cli_inputs *in)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_facts *f = NULL;
	struct hangdx_diagnosis *d = NULL;
	size_t nent = 0, nbatch = 0;
	int err, rc;

	err = node_facts(ctx, a, &f);
	if (!err)
		err = hangdx_facts_set_reading(f, 0, a->max_records);
	if (!err)
		err = cli_read_batches(ctx, f, in, &o, &nent, &nbatch);
	if (err == HANGDX_ENOTFOUND) {
		hangdx_facts_free(f);
		return 0;           /* nothing to read yet */
	}
	if (!err && a->facts_out)
		err = write_facts(a, f);
	if (!err)
		err = hangdx_diagnose_facts(f, &o, NULL, NULL, &d);
	rc = finish(a, w, err, d);
	hangdx_facts_free(f);
	return rc;
}

/* Read and diagnose; 1 stop, 0 go on, or an exit code > 1. */
static int decide(struct hangdx_ctx *ctx, const struct wargs *a, struct wstate *w)
{
	struct hangdx_diagnose_opts o = { a->cores };
	struct hangdx_evidence *ev = NULL;
	struct hangdx_diagnosis *d = NULL;
	struct cli_inputs in;
	int err, rc;

	if (a->from_facts)
		return decide_facts(ctx, a, w);
	memset(&in, 0, sizeof in);
	in.paths = a->paths;
	in.npaths = a->npaths;
	in.dense = a->dense;
	in.max_records = a->max_records;
	in.cache = w->cache;
	if (cli_dense(&in))
		return decide_dense(ctx, a, w, &in);
	if (hangdx_evidence_new(ctx, &ev))
		return EXIT_SYSERR;
	err = cli_read_inputs(ev, &in);
	if (err == HANGDX_ENOTFOUND) {
		hangdx_evidence_free(ev);
		return 0;           /* nothing to read yet */
	}
	if (!err && a->facts_out)
		err = write_ev_facts(ctx, a, ev, &o);
	if (!err)
		err = hangdx_diagnose(ev, &o, &d);
	rc = finish(a, w, err, d);
	hangdx_evidence_free(ev);
	return rc;
}

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* When to decide: the first look; then after a change, once the
 * decisions' CPU time is --cpu of the time since, or at once on an alarm
 * line, but not twice in a row before that time: an early decision's cost
 * is added after the time the budget had set, so over time the decisions
 * keep to their share. */
struct pace {
	uint64_t seen;
	int first, dirty, credit;
	double next_ok;
};

static int due(struct pace *p, uint64_t sig, int alarm, double now)
{
	if (sig != p->seen)
		p->dirty = 1;
	p->seen = sig;
	if (p->first)
		return 1;
	if (!p->dirty)
		return 0;
	if (now >= p->next_ok) {
		p->credit = 1;
		return 1;
	}
	if (alarm && p->credit) {
		p->credit = 0;
		return 1;
	}
	return 0;
}

static int decide_paced(struct hangdx_ctx *ctx, const struct wargs *a,
			struct wstate *w, struct pace *p)
{
	double t0 = cli_now(), c0 = cpu_s();
	int rc = decide(ctx, a, w);
	double c = cpu_s() - c0;

	p->first = p->dirty = 0;
	if (p->next_ok < t0)
		p->next_ok = t0;        /* an early decision borrows ahead */
	if (a->cpu > 0)
		p->next_ok += c / (a->cpu / 100.0);
	return rc;
}

static int watch(struct hangdx_ctx *ctx, const struct wargs *a)
{
	struct wstate w;
	struct pace p = { 0, 1, 0, 1, 0 };
	struct cli_follow *fl;
	double start = cli_now();
	int rc = 0, said = 0;

	memset(&w, 0, sizeof w);
	rc = load_state(a, &w);
	if (rc || !(fl = cli_follow_new(!a->from_facts, !a->poll))) {
		free(w.ents);
		if (rc)
			return rc;
		fprintf(stderr, "%s watch: %s\n", cli_prog,
			hangdx_strerror(HANGDX_ENOMEM));
		return EXIT_SYSERR;
	}
	/* a restart: the files as the last decision left them; no decision
	 * until something changed since */
	if (w.have_seen && cli_follow_resume(fl, w.ents, w.nents) == 0) {
		p.first = 0;
		p.seen = w.seen;
	}
	free(w.ents);
	w.ents = NULL;
	w.fl = fl;
	if (!a->from_facts && hangdx_ingest_cache_new(ctx, &w.cache))
		w.cache = NULL;         /* every decision reads every file */
	while (!stopping && !rc) {
		uint64_t sig;
		int alarm;

		cli_follow_scan(fl, a->paths, a->npaths, &sig, &alarm);
		if (!a->poll && !said && !cli_follow_notified(fl)) {
			fprintf(stderr, _("%s watch: note: inotify does not watch every "
					  "directory here: a look every %g s\n"),
				cli_prog, a->interval);
			said = 1;
		}
		if (due(&p, sig, alarm, cli_now())) {
			w.seen = sig;
			w.have_seen = 1;
			rc = decide_paced(ctx, a, &w, &p);
		}
		if (w.child && waitpid(w.child, NULL, WNOHANG) == w.child)
			w.child = 0;
		if (rc || (a->limit >= 0 && cli_now() - start >= a->limit))
			break;
		cli_follow_wait(fl, a->interval);
	}
	cli_follow_free(fl);
	hangdx_ingest_cache_free(w.cache);
	if (w.child)
		waitpid(w.child, NULL, 0);
	if (rc > 1)
		return rc;
	return w.hang ? EXIT_HANG : w.undecided ? EXIT_UNDECIDED : EXIT_OK_NOHANG;
}

static int parse_num(const char *opt, const char *s, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (*s == '\0' || *end || !(*v >= lo && *v <= hi)) {
		cli_usage_error(&cmd_watch, "%s takes %g to %g", opt, lo, hi);
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct wargs *a)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "exit-on-hang", no_argument, NULL, 'x' },
		{ "on-hang", required_argument, NULL, 'c' },
		{ "prom", required_argument, NULL, 'p' },
		{ "for", required_argument, NULL, 'f' },
		{ "cores", required_argument, NULL, 'k' },
		{ "facts-out", required_argument, NULL, 'o' },
		{ "node", required_argument, NULL, 'n' },
		{ "facts", no_argument, NULL, 'F' },
		{ "state", required_argument, NULL, 's' },
		{ "batch", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'u' },
		{ "poll", no_argument, NULL, 'P' },
		{ "max-records", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	double v;
	int c, rc = 0;

	memset(a, 0, sizeof *a);
	a->interval = 5;
	a->cpu = 3;
	a->limit = -1;
	a->dense = 0;           /* one pass: the cache reads what changed */
	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': rc = parse_num("--interval", optarg, 0.05, 86400, &a->interval); break;
		case 'f': rc = parse_num("--for", optarg, 0, 1e9, &a->limit); break;
		case 'u': rc = parse_num("--cpu", optarg, 0, 100, &a->cpu); break;
		case 'k':
			rc = parse_num("--cores", optarg, 1, 64, &v);
			a->cores = (unsigned)v;
			break;
		case 'j': a->json = 1; break;
		case 'P': a->poll = 1; break;
		case 'x': a->exit_on_hang = 1; break;
		case 'c': a->on_hang = optarg; break;
		case 'p': a->prom = optarg; break;
		case 'o': a->facts_out = optarg; break;
		case 'n': a->node = optarg; break;
		case 'F': a->from_facts = 1; break;
		case 's': a->state = optarg; break;
		case 'b': rc = cli_parse_batch(&cmd_watch, optarg, &a->dense); break;
		case 'm':
			rc = cli_parse_records(&cmd_watch, optarg, &a->max_records);
			break;
		case 'h':
			cli_help(&cmd_watch, stdout);
			return -1;
		default:
			cli_usage_error(&cmd_watch, "bad option");
			return EXIT_USAGE;
		}
	}
	if (!rc && optind >= argc) {
		cli_usage_error(&cmd_watch, "no PATH given");
		return EXIT_USAGE;
	}
	if (!rc && a->from_facts && a->facts_out) {
		cli_usage_error(&cmd_watch, "--facts and --facts-out: one node writes, "
				"another decides");
		return EXIT_USAGE;
	}
	a->paths = (const char *const *)argv + optind;
	a->npaths = (size_t)(argc - optind);
	return rc;
}

static int run(int argc, char **argv)
{
	struct sigaction sa;
	struct wargs a;
	struct hangdx_ctx *ctx;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? EXIT_OK_NOHANG : rc;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ctx = cli_ctx();
	rc = watch(ctx, &a);
	hangdx_ctx_free(ctx);
	return rc;
}
