/*
 * cli.h - the command table of the hangdx program.  main() dispatches
 * through it and `hangdx --help` / `hangdx help CMD` are printed from it,
 * so a command exists in exactly one place.  Each command lives in
 * cli/cmd_<name>.c and uses only the public hangdx.h.
 */
#ifndef HANGDX_CLI_H
#define HANGDX_CLI_H

#include <libintl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "hangdx.h"

/* Translated messages of the program (text domain "hangdx", cli/i18n.c). */
#define _(s) gettext(s)
#define N_(s) s

/* Exit codes, documented in --help and hangdx(1). */
enum {
	EXIT_OK_NOHANG = 0,
	EXIT_HANG = 1,
	EXIT_USAGE = 2,
	EXIT_BADINPUT = 3,
	EXIT_SYSERR = 4,
	EXIT_UNDECIDED = 5
};

struct cli_cmd {
	const char *name;
	const char *summary;  /* one line for `hangdx --help`; N_() */
	const char *usage;    /* synopsis and options for `hangdx help CMD`; N_() */
	int (*run)(int argc, char **argv);
};

extern const struct cli_cmd cmd_simulate;
extern const struct cli_cmd cmd_parse;
extern const struct cli_cmd cmd_diagnose;
extern const struct cli_cmd cmd_check;
extern const struct cli_cmd cmd_facts;
extern const struct cli_cmd cmd_replay;
extern const struct cli_cmd cmd_watch;

/* Locale, catalogues and --lang (cli/i18n.c); 0 or EXIT_USAGE.  Takes the
 * global option off argv. */
int cli_i18n_init(int *argc, char **argv);

/* Shared helpers (cli/util.c). */
struct hangdx_ctx *cli_ctx(void);         /* context printing diagnostics to stderr */
int cli_exit_for(int err);                /* library error -> exit code */
/* This machine's node name for facts: given (--node), else the host
 * name up to its first '.', cut to 40 bytes; "" when there is none. */
const char *cli_node_name(const char *given, char *buf, size_t n);
void cli_usage_error(const struct cli_cmd *c, const char *fmt, ...);
int cli_help(const struct cli_cmd *c, FILE *fp);
int cli_color(FILE *fp);                  /* colour wanted on fp? */
double cli_now(void);                     /* seconds on the monotonic clock */
/* A progress bar for hangdx_ingest_opts.progress: set when stderr is a
 * terminal, NULL otherwise; _end clears the line. */
void cli_progress_setup(void (**fn)(void *, uint64_t, uint64_t, uint64_t),
			void **ud);
void cli_progress_end(void);
/* Load --preset NAME or FILE; 0 or the exit code (diagnostics printed). */
int cli_load_scenario(struct hangdx_ctx *ctx, const struct cli_cmd *c,
		      const char *preset, const char *file,
		      struct hangdx_scenario **sc);
/* Apply one --set KEY=VALUE; 0 or EXIT_USAGE. */
int cli_set(const struct cli_cmd *c, struct hangdx_scenario *sc, const char *kv);
extern const char *cli_prog;

/* What diagnose and facts read: evidence saved by `parse --json`, then
 * logs.  HANGDX_OK when something could be read, HANGDX_ENOTFOUND when
 * nothing could, HANGDX_ENOMEM, HANGDX_EINVAL. */
struct cli_inputs {
	const char *const *evid;
	size_t nevid;
	const char *const *paths;
	size_t npaths;
	int threads;            /* 0: default */
	size_t max_records;     /* 0: default */
	const char *const *roots;   /* the inputs' roots when paths are parts
				       of them (hangdx_ingest_opts); NULL */
	size_t nroots;
	uint64_t dense;         /* bytes of files from which PATHs are read
				   in batches (cli_dense); 0: in one pass */
	struct hangdx_ingest_cache *cache;  /* watch's files read before; NULL */
};
/* A size: digits with an optional K, M or G suffix, above 0. */
bool cli_parse_size(const char *s, uint64_t *out);
/* Option opt of command c: decimal digits only, lo to hi, into *v: 0, or
 * EXIT_USAGE (said: "OPT takes LO to HI"). */
int cli_parse_num(const struct cli_cmd *c, const char *opt, const char *s,
		  unsigned long long lo, unsigned long long hi,
		  unsigned long long *v);
/* --max-records N of command c (1 to 2^31), as cli_parse_num. */
int cli_parse_records(const struct cli_cmd *c, const char *s, size_t *n);
/* --batch SIZE of command c: a size, or 0 for one pass, into *out: 0,
 * or EXIT_USAGE (said). */
int cli_parse_batch(const struct cli_cmd *c, const char *s, uint64_t *out);
int cli_read_inputs(struct hangdx_evidence *ev, const struct cli_inputs *in);

/* ---- dense logs in one process (cli/batch.c) ---- */

/* The sorted entry names of directory path (not . and ..) in *v: 0, 1
 * when path is not a directory that can be read, -1 when the list does
 * not fit (memory, 16 Mi entries).  Free with cli_free_list. */
int cli_list_dir(const char *path, char ***v, size_t *n);
void cli_free_list(char **v, size_t n);
char *cli_join(const char *dir, const char *name);   /* malloc'd; NULL */

/* The PATHs (directories among them, no --evidence, no "-") hold more
 * than in->dense bytes of files (diagnose --batch, 1 GiB by default: the
 * default record ceiling's worth at 256 bytes of log a record). */
bool cli_dense(const struct cli_inputs *in);
/* Read the entries of every directory PATH (and every other PATH) in
 * batches of at most in->dense / 8 bytes of files (one entry at least),
 * read by a thread of their own while this one reduces each batch to
 * facts in f and frees it (in turn with in->threads 1): a library error,
 * HANGDX_ENOTFOUND when nothing could be read; the entries and batches
 * in *nent and *nbatch. */
int cli_read_batches(struct hangdx_ctx *ctx, struct hangdx_facts *f,
		     const struct cli_inputs *in,
		     const struct hangdx_diagnose_opts *o, size_t *nent,
		     size_t *nbatch);

/* ---- following logs that grow (cli/follow.c, watch) ---- */

/* A follower keeps, per file (device and inode), the bytes read so far;
 * with lines 0 it only hashes.  cli_follow_scan walks the PATHs once:
 * *sig hashes every file's path, size, time and inode (any change changes
 * it); *alarm is 1 when a line a file gained since the last scan (all of
 * a file new since, from the start of one truncated; a compressed file or
 * more than 64 MiB gained: the growth itself) is one hangdx_line_alarm
 * asks a decision for; with lines 0, any change after the first scan is
 * one.  The first scan reads no bytes.  Offsets of up to 2^20 files are
 * kept; NULL when out of memory.  With inotify, each directory a scan
 * meets (and each PATH that is a file) is watched, and cli_follow_wait
 * returns once one reports a change, but not before 0.5 s (or s) have
 * passed, so that a burst of writes makes one look; else, or on NFS,
 * Lustre and FUSE, where a change another machine made is not reported,
 * it returns after s seconds.  A signal ends the wait early.
 * cli_follow_notified: every directory met is watched. */
struct cli_follow;
struct cli_follow *cli_follow_new(int lines, int inotify);
void cli_follow_scan(struct cli_follow *fl, const char *const *paths,
		     size_t npaths, uint64_t *sig, int *alarm);
void cli_follow_wait(struct cli_follow *fl, double s);
int cli_follow_notified(const struct cli_follow *fl);
void cli_follow_free(struct cli_follow *fl);
/* The offsets of a restart (watch --state): cli_follow_each calls fn for
 * every regular file the last scan kept (device, inode, bytes read);
 * cli_follow_resume, before the first scan, takes n such entries as that
 * scan's, so that the first scan reads what each file gained since, a file
 * truncated since from its start and a file not listed whole.  At most
 * CLI_FOLLOW_MAX_FILES entries; 0, or -1 out of memory. */
#define CLI_FOLLOW_MAX_FILES ((size_t)1 << 20)
struct cli_follow_ent {
	uint64_t dev, ino, off;
};
void cli_follow_each(const struct cli_follow *fl,
		     void (*fn)(void *ud, const struct cli_follow_ent *e),
		     void *ud);
int cli_follow_resume(struct cli_follow *fl, const struct cli_follow_ent *e,
		      size_t n);

/* Write an output file through a temporary name renamed when complete
 * (a device or FIFO is written in place).  fn writes the content and
 * returns a library error.  0, or -1 when it could not be written (said
 * on stderr: "hangdx CMD: cannot write PATH: why"). */
typedef int cli_put_fn(const void *ud, FILE *fp);
int cli_write_file(const struct cli_cmd *c, const char *path, cli_put_fn *fn,
		   const void *ud);

/* ---- diagnose --mpi (cli/mpi.c, built when Open MPI is; HANGDX_MPI) ---- */

enum { CLI_MPI_SHARE_AUTO, CLI_MPI_SHARE_DIRS, CLI_MPI_SHARE_ALL };

struct cli_mpi_opts {
	struct cli_inputs in;   /* PATHs and the ingest options */
	int share;              /* CLI_MPI_SHARE_* */
	double timeout;         /* seconds any wait may last */
	size_t batch;           /* entries read at a time (0: all at once) */
	struct hangdx_diagnose_opts dopts;
	const char *node;       /* --node, or NULL: the host name */
};

/* What process 0 does with the facts once they met there: diagnose
 * (fetch serves phase 2; 0 or an exit code), then, after the other
 * processes were released, report (the exit code). */
struct cli_mpi_hooks {
	int (*diagnose)(void *ud, struct hangdx_facts *f,
			hangdx_fetch_fn *fetch, void *fetch_ud);
	int (*report)(void *ud);
	void *ud;
};

/* Initialise MPI, read this process's share of the inputs, bring the
 * facts to process 0 and run the hooks there while the others serve
 * fetches; finalise.  The exit code (others: 0); on an MPI failure or a
 * timeout the job is aborted with EXIT_SYSERR. */
int cli_mpi_run(struct hangdx_ctx *ctx, const struct cli_mpi_opts *o,
		const struct cli_mpi_hooks *h);

#endif
