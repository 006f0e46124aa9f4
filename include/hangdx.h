/*
 * hangdx.h - the one public header of libhangdx.
 *
 * hangdx finds out why a distributed job on Ascend NPUs hung.  The library
 * holds one model of the NPU runtime and HCCL; the simulator runs it
 * forward, ingest rebuilds it from logs, the checker explores it and the
 * analyzer explains it.  The CLI (cli/) uses nothing but this header.
 *
 * Conventions for every function below:
 *  - Functions that can fail return an int from enum hangdx_err; 0 is
 *    success.  Detail about bad input goes to the diagnostic callback of the
 *    context as "file:line:col: level: message".
 *  - Ownership: an object returned through an out-parameter belongs to the
 *    caller and is released with the matching _free function.  Strings
 *    returned by accessors are borrowed from their object and live as long
 *    as it does.  Objects borrow their context; free the context last.
 *  - The library never exits, never writes to stdout and never reads argv.
 *    It writes files only where a function's documentation says so.
 */
#ifndef HANGDX_H
#define HANGDX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HANGDX_VERSION "0.1.0"

/* ---- errors ------------------------------------------------------------ */

/* The one table of error codes: enum and hangdx_strerror() come from it. */
#define HANGDX_ERR_MAP(XX)                                             \
	XX(OK, "success")                                              \
	XX(NOMEM, "out of memory")                                     \
	XX(IO, "input/output error")                                   \
	XX(PARSE, "malformed input")                                   \
	XX(LIMIT, "size limit exceeded")                               \
	XX(INVAL, "invalid argument")                                  \
	XX(NOTFOUND, "not found")                                      \
	XX(UNSUPPORTED, "unsupported input")                           \
	XX(EXISTS, "already exists")                                   \
	XX(UNDECIDED, "state-space limit reached, undecided")

enum hangdx_err {
#define HANGDX_ERR_ENUM(name, text) HANGDX_E##name,
	HANGDX_ERR_MAP(HANGDX_ERR_ENUM)
#undef HANGDX_ERR_ENUM
	HANGDX_E_COUNT
};
#define HANGDX_OK HANGDX_EOK

/* Static text for an error code; never NULL ("unknown error" if out of range). */
const char *hangdx_strerror(int err);

/* ---- messages ----------------------------------------------------------- */

/*
 * Report text, diagnostics and hangdx_strerror are translated with GNU
 * gettext through the text domain HANGDX_TEXTDOMAIN: the program calls
 * setlocale and bindtextdomain; the library never does.  JSON output,
 * category ids and DOT node ids never change with the language, but a
 * diagnosis keeps the text it was made with: diagnose with translation off
 * for JSON.  hangdx_set_translate(0) turns translation off for the whole
 * process (1 on, the default) and returns the previous setting.
 * hangdx_lang: the BCP 47 tag of the messages in use, "en" or e.g. "zh-CN".
 */
#define HANGDX_TEXTDOMAIN "hangdx"
int hangdx_set_translate(int on);
const char *hangdx_lang(void);

/* ---- allocator and context -------------------------------------------- */

/*
 * One allocation hook for the whole library, in the style of lua_Alloc:
 * realloc(ud, p, n) with n == 0 frees p and returns NULL; otherwise it
 * behaves like realloc(3) and returns NULL on failure.  Tests pass a hook
 * that fails the Nth allocation.
 */
struct hangdx_alloc {
	void *(*realloc)(void *ud, void *p, size_t n);
	void *ud;
};

enum hangdx_level { HANGDX_NOTE, HANGDX_WARNING, HANGDX_ERROR };

/* One diagnostic about input.  line and col are 1-based, 0 when unknown. */
struct hangdx_diag {
	const char *file;
	unsigned long line;
	unsigned long col;
	enum hangdx_level level;
	const char *msg;
};

typedef void hangdx_diag_fn(void *ud, const struct hangdx_diag *d);

struct hangdx_ctx;

/*
 * Create a context.  alloc may be NULL for the C library allocator; it is
 * copied.  Returns NULL only when the first allocation fails.
 */
struct hangdx_ctx *hangdx_ctx_new(const struct hangdx_alloc *alloc);
void hangdx_ctx_free(struct hangdx_ctx *ctx);

/*
 * Threads: a context serves one thread at a time, with one exception.
 * One thread may read logs (hangdx_ingest_*) into an evidence of its
 * own while another reduces other evidence to facts
 * (hangdx_facts_add_evidence, which writes no diagnostics); the
 * allocation hook must then be thread-safe.
 */

/* Route diagnostics to fn (NULL drops them).  Default: dropped. */
void hangdx_ctx_set_diag(struct hangdx_ctx *ctx, hangdx_diag_fn *fn, void *ud);

/* Diagnostics seen so far at the given level, since the context was made. */
unsigned long hangdx_ctx_diag_count(const struct hangdx_ctx *ctx,
				    enum hangdx_level level);

/* "note", "warning" or "error". */
const char *hangdx_level_name(enum hangdx_level level);

/* ---- scenarios ---------------------------------------------------------- */

/*
 * A scenario: the cluster, the HCCL environment of every rank, the
 * communicators, the program each rank's host issues, and faults to
 * inject.  Format: docs/SCENARIO.md.  Loaded from YAML or a built-in preset.
 */
struct hangdx_scenario;

/*
 * Load a scenario from a YAML file (path "-" reads stdin).  On bad input,
 * every problem is reported as a diagnostic with file, line and column and
 * the call returns HANGDX_EPARSE with *out NULL.
 */
int hangdx_scenario_load(struct hangdx_ctx *ctx, const char *path,
			 struct hangdx_scenario **out);

/* The same from memory; name is used in diagnostics. */
int hangdx_scenario_load_mem(struct hangdx_ctx *ctx, const char *name,
			     const char *text, size_t len,
			     struct hangdx_scenario **out);

/* Load a built-in preset by name (HANGDX_ENOTFOUND if there is none). */
int hangdx_scenario_preset(struct hangdx_ctx *ctx, const char *name,
			   struct hangdx_scenario **out);

/* NULL-terminated list of preset names, and a one-line description of each. */
const char *const *hangdx_preset_names(void);
const char *hangdx_preset_about(const char *name);

/* The YAML text of a preset (static), or NULL. */
const char *hangdx_preset_text(const char *name);

/*
 * Override one parameter, as `--set key=value` does: "communicators=10",
 * "cores=4", "retry=off", "ranks=8", "exec_timeout=600", "seed=7",
 * "grant=random", "order_launch=off", "tail=60", "time_limit=4000",
 * "log_level=info", "link_latency_us=5", "expand_us=50".
 * The full list: docs/SCENARIO.md.  Returns HANGDX_EINVAL with a diagnostic
 * for an unknown key or a bad value.
 */
int hangdx_scenario_set(struct hangdx_scenario *sc, const char *key,
			const char *value);

/* Name of the scenario (file name or preset name). */
const char *hangdx_scenario_name(const struct hangdx_scenario *sc);

void hangdx_scenario_free(struct hangdx_scenario *sc);

/* ---- simulation --------------------------------------------------------- */

enum hangdx_outcome {
	HANGDX_COMPLETED, /* every program ran to its end */
	HANGDX_DEADLOCK,  /* a wait cycle formed; timeouts fired later */
	HANGDX_HANG,      /* stuck without a cycle (lost rank, mismatch...) */
	HANGDX_FAILED,    /* an error ended it without a hang (e.g. link) */
	HANGDX_TIMELIMIT  /* still running at the time limit */
};

const char *hangdx_outcome_name(enum hangdx_outcome o);

/* What a simulation found; filled by hangdx_simulate.  Strings are static
 * or borrowed from the scenario. */
struct hangdx_sim_summary {
	enum hangdx_outcome outcome;
	double end_time_s;        /* simulated time at the end */
	double block_time_s;      /* when the system stopped moving, or -1 */
	uint64_t tasks;           /* tasks executed */
	uint64_t events;          /* discrete events processed */
	int ranks;
	int communicators;
	int cores;
	int retry;                /* 1 when retry mode was active */
	int cycle_len;            /* nodes in the wait cycle, 0 if none */
	int first_error_rank;     /* -1 if no error */
	double first_error_time_s;
	char first_error[256];    /* e.g. "EI0002 notify wait timeout ..." */
	char cycle[1024];         /* one-line rendering of the cycle */
};

struct hangdx_sim_opts {
	const char *outdir;       /* NULL: run without writing files */
	int write_logs;           /* CANN logs per rank */
	int write_trace;          /* trace.json (Chrome/Perfetto) */
	int write_truth;          /* truth.json */
};

/*
 * Run the scenario to completion, to its first error plus the scenario's
 * tail, or to its time limit.  With opts->outdir set, the files are built
 * in a temporary directory next to it and renamed into place at the end,
 * so a failed run leaves no half-written output; outdir must not exist
 * (HANGDX_EEXISTS) unless it is an empty directory.  The same scenario and
 * seed always give the same bytes.
 */
int hangdx_simulate(struct hangdx_ctx *ctx, const struct hangdx_scenario *sc,
		    const struct hangdx_sim_opts *opts,
		    struct hangdx_sim_summary *sum);

/* ---- ingest (log reading) ---------------------------------------------- */

/*
 * Evidence: what a set of CANN logs says about a hang, as typed records
 * (communicator creation, HCCL Task run failed blocks, EI0002 in every
 * generation, runtime notify/event/FFTS+ timeouts, AICPU exception dumps,
 * TSCH stream dumps, heartbeat, op retry, env echo, ...), each with its
 * source (file, line, byte offset), its line prefix and its attribution
 * (node, rank, device), plus per-file summaries and counters.  Record
 * kinds and the JSON Lines schema: docs/EVIDENCE.md.
 *
 * Evidence is compact (interned strings, no raw lines) and merges
 * associatively, so parts of a large job can be read on many machines and
 * only the summaries meet.  Attribution is resolved when the evidence is
 * written, so it uses everything merged so far.
 */
struct hangdx_evidence;

/* A new, empty evidence; it borrows ctx.  HANGDX_ENOMEM or OK. */
int hangdx_evidence_new(struct hangdx_ctx *ctx, struct hangdx_evidence **out);
void hangdx_evidence_free(struct hangdx_evidence *ev);

/* Ceilings and threads for reading; zeroed fields take the defaults. */
struct hangdx_ingest_opts {
	int threads;              /* 0: two when there are several inputs or a
				     compressed one; 1: the calling thread
				     only.  With more than one thread the
				     allocator hook must be thread-safe. */
	size_t max_line;          /* longer lines are skipped (64 KiB) */
	uint64_t max_member;      /* uncompressed bytes per archive member or
				     compressed file (16 GiB) */
	unsigned max_ratio;       /* uncompressed / compressed bytes of an
				     archive, checked past 64 MiB (1000) */
	size_t max_records;       /* records kept in ev (4 Mi); more are
				     counted as skipped */
	/* Called after each input file and about every 64 MiB read, from
	 * the reading threads but never two at a time: bytes read so far,
	 * files done, files found.  NULL: no calls. */
	void (*progress)(void *ud, uint64_t bytes, uint64_t files_done,
			 uint64_t files_total);
	void *progress_ud;
	/* The inputs' roots, when the paths are parts of them (the entries
	 * of a directory shared out among processes): attribution counts
	 * path components below a root, so an entry "DIR/rank-3" still names
	 * rank 3 under root "DIR".  NULL: each path is its own root. */
	const char *const *roots;
	size_t nroots;
	/* NULL, or a cache of per-file evidence from earlier readings (see
	 * hangdx_ingest_cache_new); the reading is then on the calling
	 * thread alone. */
	struct hangdx_ingest_cache *cache;
};

/*
 * Read inputs into ev: regular files, directories (recursively, sorted,
 * symlink loops detected), archives and compressed files read in place
 * through libarchive (.tar, .tar.gz/.tgz, .tar.zst, .zip, single .gz and
 * .zst, recognised by content), and "-" for standard input.  Nothing is
 * extracted to disk.  Paths are recorded as given (members of an archive
 * as "ARCHIVE!/MEMBER").  Bad input (binary, truncated, over-long lines,
 * decompression bombs, unreadable files) is reported through the
 * context's diagnostics with file and line, counted, and skipped; reading
 * goes on with the rest.  Returns HANGDX_OK when at least one input could
 * be read, HANGDX_ENOTFOUND when none could, HANGDX_ENOMEM, or
 * HANGDX_EINVAL for bad arguments.  opts may be NULL.
 */
int hangdx_ingest_paths(struct hangdx_evidence *ev, const char *const *paths,
			size_t n, const struct hangdx_ingest_opts *opts);
int hangdx_ingest_path(struct hangdx_evidence *ev, const char *path,
		       const struct hangdx_ingest_opts *opts);

/*
 * The same inputs read again and again (watch): with a cache in the
 * options, a regular file whose path, device, inode, size and change
 * times are those it had when last read is not read again; the evidence
 * it gave then is merged in its place, in walk order.  The evidence is
 * the same as a reading without the cache gives; past the record ceiling
 * the inputs are read again without it, so that the ceiling cuts where
 * it would.  Of a plain text file being written to (written to in the
 * last five minutes, or changed since it was read) the reader is kept,
 * stopped before the file's end: while the file only grows (same device
 * and inode, the bytes read still there, first and last compared), later
 * readings read only what was added and end a copy (up to 256 such
 * files; a rotated, truncated or rewritten file is read whole again; one
 * left alone for five minutes is kept as it ended).  Diagnostics of a file come only
 * when it is read (of what is read).  Files a reading does not meet
 * leave the cache at its end, so it holds the evidence of the files of
 * the last reading.  The cache is the caller's (hangdx_ingest_cache_free);
 * it borrows ctx; one reading at a time.
 */
struct hangdx_ingest_cache;
int hangdx_ingest_cache_new(struct hangdx_ctx *ctx,
			    struct hangdx_ingest_cache **out);
void hangdx_ingest_cache_free(struct hangdx_ingest_cache *c);
/* Of the last reading: files read whole, files read on from where the
 * reading before stopped, and files taken from the cache as they were. */
void hangdx_ingest_cache_stats(const struct hangdx_ingest_cache *c,
			       size_t *read, size_t *resumed, size_t *kept);

/* The same for log text in memory (plain or compressed); name is used as
 * its path.  data is only borrowed for the call. */
int hangdx_ingest_mem(struct hangdx_evidence *ev, const char *name,
		      const void *data, size_t len,
		      const struct hangdx_ingest_opts *opts);

/*
 * Append src's records, summaries and counters to dst (src is unchanged,
 * dst must not be src).  Associative: (a+b)+c writes the same as a+(b+c).
 * On HANGDX_ENOMEM dst holds its old records.
 */
int hangdx_evidence_merge(struct hangdx_evidence *dst,
			  const struct hangdx_evidence *src);

/* What the writers print. */
#define HANGDX_EV_RECORDS 1u      /* one line per record */
#define HANGDX_EV_SUMMARY 2u      /* per-file, per-process, per-stream and
				     per-rank summaries and the totals */
#define HANGDX_EV_ALL 3u
#define HANGDX_EV_FILES 4u        /* per-file summaries and the totals only
				     (with RECORDS: what a fetch sends) */

/*
 * Write ev to fp as JSON Lines (the schema of docs/EVIDENCE.md) or as
 * text, one line per record ("file:line: kind key=value ...").  Records
 * are in (file, line) order and duplicates from overlapping inputs are
 * dropped.  Returns HANGDX_EIO if writing fails, HANGDX_ENOMEM.
 */
int hangdx_evidence_write_jsonl(const struct hangdx_evidence *ev, FILE *fp,
				unsigned what);
int hangdx_evidence_write_text(const struct hangdx_evidence *ev, FILE *fp,
			       unsigned what);

/*
 * Read evidence written by hangdx_evidence_write_jsonl back into ev
 * (merging with what ev holds), so summaries can be shipped between
 * machines.  path "-" reads stdin.  Malformed lines are diagnosed and
 * skipped (HANGDX_EPARSE at the end if any was); HANGDX_EIO if the file
 * cannot be read.
 */
int hangdx_evidence_load(struct hangdx_evidence *ev, const char *path);
/* 1 when path is a regular file whose first line is an evidence record
 * or summary as hangdx_evidence_write_jsonl writes it ('{"kind":"'),
 * else 0.  Reads its first bytes only. */
int hangdx_evidence_probe(const char *path);

#define HANGDX_SKIP_REASONS 8
struct hangdx_ingest_stats {
	uint64_t inputs;          /* paths given */
	uint64_t files;           /* files and archive members read */
	uint64_t archives;        /* archives and compressed files opened */
	uint64_t bytes;           /* (uncompressed) bytes read */
	uint64_t lines;
	uint64_t candidates;      /* lines that passed the fast pre-filter */
	uint64_t records;         /* records kept */
	uint64_t files_skipped;   /* not read at all: unreadable, binary,
				     corrupt */
	uint64_t lines_skipped;   /* too_long + nul_bytes */
	uint64_t skipped[HANGDX_SKIP_REASONS]; /* by hangdx_skip_reason_name:
				     lines, files (read in part or not at
				     all) or records, per the reason */
};
void hangdx_evidence_stats(const struct hangdx_evidence *ev,
			   struct hangdx_ingest_stats *st);
/* "too_long", "nul_bytes", "binary_file", "unreadable", "truncated",
 * "size_limit", "record_limit"; NULL past the last. */
const char *hangdx_skip_reason_name(int reason);
size_t hangdx_evidence_count(const struct hangdx_evidence *ev);

/* The log time of one line (without its newline), in microseconds since
 * the epoch (the line's own clock, read as UTC): from a plog, device or
 * TS prefix, also inside a console envelope or grep output.  HANGDX_OK,
 * or HANGDX_ENOTFOUND when the line carries no time the reader knows. */
int hangdx_line_time(const char *line, size_t n, int64_t *us);

/* Whether one new line (without its newline) of a log that grows asks for
 * a decision now: 1 when it says something failed or a wait ran out, or
 * is HCCL's report of a kernel still waiting for its op
 * ("[WaitFinishWhileLoop]Current state"), else 0.  A plog or logger line
 * of level ERROR or CRITICAL always is; WARNING when it says a wait ran
 * out (timeout, timed out, deadlock); INFO, DEBUG, TRACE and EVENT only
 * as that report.  A line without a level when an error-manager code
 * opens its text (EI0002) or it holds a word of failure (error, timeout,
 * timed out, exception, traceback, fail, abort, deadlock, fatal; any
 * case).  A cheap test that makes no evidence: watch uses it to decide at
 * once instead of at its next scheduled decision. */
int hangdx_line_alarm(const char *line, size_t n);

/* ---- diagnosis ---------------------------------------------------------- */

/*
 * A diagnosis: what the evidence of a hung job says.  It rebuilds the
 * runtime state from the logs (streams, tasks, notifies, events, AICPU
 * pools, HCCL kernels), builds the wait-for graph and proves a deadlock
 * where the logs allow it, finds the first failing and the root rank (by
 * logical progress, then by time with clock skew taken into account),
 * names the root cause with its evidence, groups ranks that are stuck
 * alike, and says what to change and what evidence is missing.
 * It borrows the evidence: free the diagnosis before the evidence.
 */
struct hangdx_diagnosis;

enum hangdx_verdict {
	HANGDX_V_NO_HANG,   /* no hang found (warnings may remain) */
	HANGDX_V_HANG,      /* hung or failed; no circular wait proven */
	HANGDX_V_DEADLOCK   /* a circular wait proven on the rebuilt state */
};

struct hangdx_diagnose_opts {
	unsigned cores;     /* AICPU cores per device; 0: 6 (A2/A3) */
};

/* Diagnose ev (opts may be NULL).  HANGDX_ENOMEM or OK. */
int hangdx_diagnose(const struct hangdx_evidence *ev,
		    const struct hangdx_diagnose_opts *opts,
		    struct hangdx_diagnosis **out);
void hangdx_diagnosis_free(struct hangdx_diagnosis *d);

enum hangdx_verdict hangdx_diagnosis_verdict(const struct hangdx_diagnosis *d);
/* Category id, e.g. "aicpu_exhaustion_deadlock", "remote_rank_lost". */
const char *hangdx_diagnosis_category(const struct hangdx_diagnosis *d);
/* Root-cause rank and first failing rank; -1 when unknown. */
int hangdx_diagnosis_root_rank(const struct hangdx_diagnosis *d);
int hangdx_diagnosis_first_rank(const struct hangdx_diagnosis *d);
/* Every root rank (the root-cause rank first, then ascending): copies up
 * to n into out and returns how many there are. */
size_t hangdx_diagnosis_roots(const struct hangdx_diagnosis *d, int32_t *out,
			      size_t n);
/* 1 when the deadlock or failure is proven from the logs, 0 inferred. */
int hangdx_diagnosis_proven(const struct hangdx_diagnosis *d);
/* The newest log time among the records read (microseconds since the
 * epoch, the logs' clocks), INT64_MIN when no record had one. */
int64_t hangdx_diagnosis_log_time(const struct hangdx_diagnosis *d);
/* The report's one-paragraph summary, in the language of the diagnosis;
 * valid while d is. */
const char *hangdx_diagnosis_summary(const struct hangdx_diagnosis *d);

#define HANGDX_COLOR 1u     /* ANSI colour in the text report */
/* The report: text (verdict, chain with file:line evidence, fix), JSON
 * (docs/DIAGNOSIS.md) or DOT (the rebuilt wait-for graph); HTML below. */
int hangdx_diagnosis_write_text(const struct hangdx_diagnosis *d, FILE *fp,
				unsigned flags);
int hangdx_diagnosis_write_json(const struct hangdx_diagnosis *d, FILE *fp);
int hangdx_diagnosis_write_dot(const struct hangdx_diagnosis *d, FILE *fp);

#define HANGDX_HTML_QUOTE 2u /* quote each cited log line, read back from
				its file */
/*
 * The diagnosis as one self-contained HTML page (docs/REPORTS.md): the
 * verdict, the fix, the chain with each hop linked to its evidence, the
 * wait-for graph, a timeline of the ranks involved, the ranks grouped,
 * warnings, notes, missing evidence.  Inline CSS, no script, no external
 * reference; all log text is escaped.
 * svg is the wait-for graph as Graphviz renders the output of
 * hangdx_diagnosis_write_dot (`dot -Tsvg`), or NULL when it could not be
 * rendered (the page says so).  The library does not run Graphviz: the
 * caller does.  The XML prolog and comments are dropped and the rest is
 * embedded only if it holds the drawing elements dot emits and no script,
 * event handler, link, style or external reference (else the page says
 * it could not be embedded).  With HANGDX_HTML_QUOTE the evidence line of
 * each citation is read back from its log file, when that is a plain file
 * on disk read in this run (not an archive member, not compressed, not a
 * path named by evidence loaded from JSON Lines) and the line there is the
 * one parsed (same prefix time and process, or a text field of the record
 * in it); those are the only files read.  Returns HANGDX_EIO if writing
 * fails, HANGDX_ENOMEM.
 */
int hangdx_diagnosis_write_html(const struct hangdx_diagnosis *d, FILE *fp,
				const char *svg, unsigned flags);

/* ---- facts: many machines ----------------------------------------------- */

/*
 * Facts are what each node keeps of its own logs so that only they have to
 * meet on one machine (docs/FACTS.md, format "hangdx-facts-2", JSON Lines).
 * Per rank: the records the verdict reads about it (failures, the peers
 * it waits on, heartbeats, configuration echoed, communicator creation,
 * op retry), what the node's own analysis of that rank's devices found
 * (a wait cycle of its own, HCCL kernels holding AICPU cores, stalled main
 * streams, the AICPU pool size logged, its last activity), and the files
 * its full evidence is in.  The bulk (TS stream and SQE dumps, kernel
 * status and start/end lines) stays behind on the node.
 *
 * hangdx_diagnose_facts decides in two phases: phase 1 over the facts of
 * every rank finds the roots, the first failing rank and the groups of
 * alike ranks; phase 2 asks fetch for the full evidence of the ranks the
 * verdict needs (the root rank, the first failing rank, the ranks of the
 * chain, one rank of each group) and rebuilds their devices to prove the
 * cycle, asking again (a few rounds at most) if the verdict then needs
 * another rank.  On the same logs the diagnosis equals hangdx_diagnose's.
 * Facts merge associatively: adding the same file twice changes nothing.
 */
struct hangdx_facts;

int hangdx_facts_new(struct hangdx_ctx *ctx, struct hangdx_facts **out);
void hangdx_facts_free(struct hangdx_facts *f);

/* Reduce ev (the logs read on this node) to facts and add them to f.
 * opts as for hangdx_diagnose (the pool size of the local analysis).
 * f borrows nothing from ev.  HANGDX_ENOMEM or OK. */
int hangdx_facts_add_evidence(struct hangdx_facts *f,
			      const struct hangdx_evidence *ev,
			      const struct hangdx_diagnose_opts *opts);

/* Write f as "hangdx-facts-2" JSON Lines (docs/FACTS.md; "hangdx-facts-1"
 * is still read).  HANGDX_EIO, HANGDX_ENOMEM. */
int hangdx_facts_write(const struct hangdx_facts *f, FILE *fp);

/* Read facts written by hangdx_facts_write and merge them into f (path
 * "-" is stdin; name is used in diagnostics).  Malformed lines are
 * diagnosed and skipped (HANGDX_EPARSE at the end); a file of another
 * format version is HANGDX_EUNSUPPORTED; HANGDX_EIO. */
int hangdx_facts_load(struct hangdx_facts *f, const char *path);
int hangdx_facts_load_mem(struct hangdx_facts *f, const char *name,
			  const void *data, size_t len);
/* The same from a stream the caller opened and closes (plain text). */
int hangdx_facts_load_fp(struct hangdx_facts *f, const char *name, FILE *fp);

/* The node f's facts come from, or (when f gathers facts) the node this
 * machine is: written in the facts' header.  Facts read from another
 * node have their files keyed "NODE:path" (the same local path on two
 * nodes is two files, the same pid two processes); facts whose file is
 * already held with other content (two copies of one path made on the
 * same node) are kept as node "NODE#k", with a warning.  name: 1 to 40
 * printable bytes without ':', '/', '"' or '\\'; HANGDX_EINVAL else. */
int hangdx_facts_set_node(struct hangdx_facts *f, const char *node);
/* The reading options phase 2 reads files again with, as the caller
 * read its own (threads and max_records of struct hangdx_ingest_opts;
 * 0: the defaults). */
int hangdx_facts_set_reading(struct hangdx_facts *f, int threads,
			     size_t max_records);
/* The key ("NODE:", or "" for none) the last facts loaded got. */
const char *hangdx_facts_tag(const struct hangdx_facts *f);
/* Key every file of ev by tag ("NODE:", as hangdx_facts_tag gives):
 * evidence fetched from the node whose facts got that tag. */
int hangdx_evidence_tag(struct hangdx_evidence *ev, const char *tag);

/* 1 when path is a regular file holding facts (its first line names a
 * "hangdx-facts-" format; plain or gzip-compressed), else 0.  Reads its
 * first bytes only. */
int hangdx_facts_probe(const char *path);

/* Ranks that f holds facts about. */
size_t hangdx_facts_ranks(const struct hangdx_facts *f);

/*
 * Phase 2: add to `into` the full evidence of the n ranks listed, from
 * wherever it lives.  Return OK, or an error code: the ranks not
 * delivered keep their facts, and the diagnosis names them as evidence
 * not read.  Ranks are global ranks, ascending.
 */
typedef int hangdx_fetch_fn(void *ud, const int32_t *ranks, size_t n,
			    struct hangdx_evidence *into);

/*
 * The two-phase diagnosis of f.  fetch NULL: the files the facts name for
 * each needed rank are read again on this machine where they can be (a
 * file that cannot is evidence not read).  The full evidence fetched
 * replaces, inside f, the facts' records of the same files (so f is not
 * copied); f then writes it too.  The diagnosis borrows f: free it
 * first, and make one diagnosis of f at a time (a second call moves the
 * records the first one reads).  HANGDX_ENOMEM or OK.
 */
int hangdx_diagnose_facts(struct hangdx_facts *f,
			  const struct hangdx_diagnose_opts *opts,
			  hangdx_fetch_fn *fetch, void *ud,
			  struct hangdx_diagnosis **out);

/* Ranks whose full evidence the diagnosis read in phase 2 (0 when it was
 * not made from facts); their list, ascending, in ranks[0..max). */
size_t hangdx_diagnosis_fetched(const struct hangdx_diagnosis *d,
				int32_t *ranks, size_t max);

/* Free the records f holds, keeping each rank's facts and the files it
 * names: what hangdx_facts_fetch needs once the facts were written and
 * sent.  f can then serve fetches only (written, it has no records). */
void hangdx_facts_shed(struct hangdx_facts *f);

/* The default fetch: read again, on this machine, the files f names for
 * the n ranks listed, into `into` (a process that made facts can then
 * free its evidence and still answer a fetch).  Ranks whose files are not
 * all readable are skipped.  HANGDX_ENOMEM, or OK. */
int hangdx_facts_fetch(const struct hangdx_facts *f, const int32_t *ranks,
		       size_t n, struct hangdx_evidence *into);

/* The owner's side of a fetch: write the records of ev attributed to one
 * of the n ranks listed (with the summaries of their files) as JSON Lines
 * that hangdx_evidence_load_mem reads back.  HANGDX_EIO, HANGDX_ENOMEM. */
int hangdx_evidence_write_ranks(const struct hangdx_evidence *ev,
				const int32_t *ranks, size_t n, FILE *fp);

/* hangdx_evidence_load from memory; name is used in diagnostics. */
int hangdx_evidence_load_mem(struct hangdx_evidence *ev, const char *name,
			     const void *data, size_t len);
/* The same from a stream the caller opened and closes. */
int hangdx_evidence_load_fp(struct hangdx_evidence *ev, const char *name,
			    FILE *fp);

/* ---- check -------------------------------------------------------------- */

/*
 * The static checker: explores every schedule the runtime model allows
 * for a scenario (the order AICPU cores are granted, the relative
 * progress of streams, devices and ranks, how long each task takes, the
 * order in which the ranks' hosts issue), without timeouts, and answers
 * "deadlock-free" or gives a shortest schedule into a stuck state.
 * Durations are abstracted away (any enabled step may come next): a
 * "safe" answer holds for every duration; faults are not explored (the
 * fault-free program is checked; rank deaths and link errors are
 * ignored with a note).  Format of the answer and the reductions used:
 * docs/CHECKER.md.  The result borrows the scenario: free it first.
 */
struct hangdx_check;

enum hangdx_check_verdict {
	HANGDX_CHECK_SAFE,       /* no reachable stuck state */
	HANGDX_CHECK_DEADLOCK,   /* a stuck state with a proven wait cycle */
	HANGDX_CHECK_HANG,       /* a stuck state without a cycle (e.g. a
				    wait nobody records) */
	HANGDX_CHECK_UNDECIDED   /* a state-space limit was reached first */
};

struct hangdx_check_opts {
	uint64_t max_states;      /* 0: no limit */
	uint64_t max_memory;      /* bytes for the visited states; 0: 1 GiB */
	int no_por;               /* 1: no partial-order reduction */
	int no_symmetry;          /* 1: no symmetry reduction */
	int no_pool_abstraction;  /* 1: no unbounded-pool abstraction (also
				     off with no_por) */
};

/*
 * Check sc (opts may be NULL).  Returns HANGDX_ENOMEM, HANGDX_ELIMIT for a
 * program too large to unroll, or OK with *out holding the result; a
 * limit reached is not an error but HANGDX_CHECK_UNDECIDED.
 */
int hangdx_check(struct hangdx_ctx *ctx, const struct hangdx_scenario *sc,
		 const struct hangdx_check_opts *opts, struct hangdx_check **out);
void hangdx_check_free(struct hangdx_check *ck);

enum hangdx_check_verdict hangdx_check_verdict(const struct hangdx_check *ck);
const char *hangdx_check_verdict_name(enum hangdx_check_verdict v);
uint64_t hangdx_check_states(const struct hangdx_check *ck);
uint64_t hangdx_check_transitions(const struct hangdx_check *ck);
double hangdx_check_seconds(const struct hangdx_check *ck);
/* Whether symmetry reduction applied (an SPMD program over all ranks). */
int hangdx_check_symmetric(const struct hangdx_check *ck);
/* 1 when the witness was found among the schedules in which every rank
 * takes the same steps (tried first for symmetric programs over more
 * than 2 ranks): it is the shortest of those, not necessarily of all. */
int hangdx_check_lockstep(const struct hangdx_check *ck);
/* 1 when "deadlock-free" was proved on the unbounded-pool abstraction
 * (ranks whose AICPU core users all give their core back by themselves
 * searched with pools that never run out; docs/CHECKER.md). */
int hangdx_check_pool_abstraction(const struct hangdx_check *ck);

/* The witness of a stuck state: its steps, numbered from 1, one line of
 * text each (borrowed), and the wait cycle in the simulator's summary
 * form ("rank0 AICPU pool (6/6 cores held) -> rank0 K_c1 #1 ..."), empty
 * if none.  0 steps when the verdict is not DEADLOCK or HANG. */
size_t hangdx_check_witness_len(const struct hangdx_check *ck);
const char *hangdx_check_witness_step(const struct hangdx_check *ck, size_t i);
const char *hangdx_check_cycle(const struct hangdx_check *ck);
/* Lines describing the stuck state: who waits on what (borrowed). */
size_t hangdx_check_blocked_len(const struct hangdx_check *ck);
const char *hangdx_check_blocked(const struct hangdx_check *ck, size_t i);

/*
 * Write the witness as a scenario that `hangdx simulate` replays into the
 * same stuck state: text (the scenario's YAML, e.g. the file read or
 * hangdx_preset_text()) with any top-level `schedule:` and `sequence:`
 * removed, followed by a `schedule:` section fixing the order each device
 * grants its AICPU cores and a `sequence:` fixing the order of every step
 * of the witness (docs/SCENARIO.md).  Written to a temporary file and renamed.
 * HANGDX_EINVAL when there is no witness, HANGDX_EIO.
 */
int hangdx_check_write_witness(const struct hangdx_check *ck,
			       const char *text, const char *path);

/*
 * Export the checker's transition system for sc as Promela for SPIN:
 * one process per host and per stream, notify values and the AICPU pool
 * as globals; invalid end states are exactly the stuck states.  Check with
 * `spin -a FILE && cc -DSAFETY -o pan pan.c && ./pan`.  HANGDX_EIO.
 */
int hangdx_check_write_promela(struct hangdx_ctx *ctx,
			       const struct hangdx_scenario *sc,
			       const char *path);

#ifdef __cplusplus
}
#endif
#endif
