/*
 * reader.c - the byte end of ingest: paths, archives (libarchive, nested)
 * and stdin -> lines (a ceiling on length, CRLF, NUL bytes, binary files)
 * -> console lines put back together (hard wraps, glued lines, JSON
 * strings) and read as envelope + message (line.c), error-manager blocks
 * kept per console source -> the pre-filter and the families.  Two
 * threads share several inputs, each with its own evidence merged at the
 * end; a compressed input is inflated on one while the other parses.
 * With a cache (watch), each file is read alone and what it said is kept
 * for the next reading of the same paths; a file that grows is read on
 * from where the last reading stopped.
 */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "ingest.h"

#define BUFSZ (1024 * 1024)
#define SNIFF 8192
#define MAX_DEPTH 3             /* archives inside archives */
#define MAX_DIR_DEPTH 64
#define DIAG_PER_REASON 3
#define PIPE_BUFS 4

static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;

void hx_ingest_diag_lock(void)
{
	pthread_mutex_lock(&diag_lock);
}

void hx_ingest_diag_unlock(void)
{
	pthread_mutex_unlock(&diag_lock);
}

static void vdiag(struct hangdx_ctx *ctx, enum hangdx_level lvl,
		  const char *file, uint64_t line, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&diag_lock);
	hx_vdiag(ctx, lvl, file, (unsigned long)line, 0, fmt, ap);
	pthread_mutex_unlock(&diag_lock);
}

static void diag(struct hangdx_ctx *ctx, enum hangdx_level lvl,
		 const char *file, uint64_t line, const char *fmt, ...)
	HX_PRINTF(5, 6);

static void diag(struct hangdx_ctx *ctx, enum hangdx_level lvl,
		 const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(ctx, lvl, file, line, fmt, ap);
	va_end(ap);
}

void hx_rdiag(struct hx_reader *r, enum hangdx_level lvl, uint64_t line,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(r->ctx, lvl, r->path, line, fmt, ap);
	va_end(ap);
}

/* ---- byte sources: fd, memory, archive member ---- */

struct src {
	ssize_t (*read)(struct src *s, char *buf, size_t n);
	int fd;
	const char *mem;
	size_t memlen, mempos;
	struct archive *ar;
	bool seekable;
	bool limited;           /* stopped at a ceiling */
	bool big;               /* worth a decompression thread */
	bool eof;               /* a read returned 0 */
	bool advise;            /* a regular file: advise sequential reads
				   once it proves larger than a buffer */
	size_t first;           /* the first read, 0: SNIFF bytes */
	const char *errmsg;     /* set on a read error */
};

static ssize_t fd_read(struct src *s, char *buf, size_t n)
{
	ssize_t k;

	do
		k = read(s->fd, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		s->errmsg = strerror(errno);
#ifdef POSIX_FADV_SEQUENTIAL
	if (s->advise && k == BUFSZ) {
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		s->advise = false;
	}
#endif
	return k;
}

static ssize_t mem_read(struct src *s, char *buf, size_t n)
{
	size_t left = s->memlen - s->mempos;

	if (n > left)
		n = left;
	memcpy(buf, s->mem + s->mempos, n);
	s->mempos += n;
	return (ssize_t)n;
}

static ssize_t member_read(struct src *s, char *buf, size_t n)
{
	la_ssize_t k = archive_read_data(s->ar, buf, n);

	if (k < 0)
		s->errmsg = archive_error_string(s->ar);
	return (ssize_t)k;
}

/* ---- one job: inputs, threads, shared state ---- */

struct task {
	char *fspath;           /* NULL: stdin or memory */
	char *display;
	const void *mem;
	size_t memlen;
	bool is_stdin;
	bool reg;               /* a regular file (no fstat needed) */
};

struct job {
	struct hangdx_ctx *ctx;
	struct hx_ingest_limits lim;
	struct task *tasks;
	size_t ntask, captask, next;
	pthread_mutex_t lock;
	pthread_cond_t more;    /* a task was added or the walk ended */
	bool walking;           /* tasks may still be added (under lock) */
	bool given_roots;       /* the roots came with the options */
	struct hx_budget budget;
	bool pipeline;          /* decompress on a helper thread */
	uint64_t inputs_ok;
	int err;                /* first ENOMEM */
	/* directories and files seen, for loop and repeat detection */
	struct { dev_t dev; ino_t ino; } *dirs;
	size_t ndir, capdir;
	struct hx_map dirmap;   /* hash of (dev, ino) -> index in dirs */
	char *dents;            /* the walk's buffer of directory entries */
	/* progress reports, under lock */
	void (*progress)(void *, uint64_t, uint64_t, uint64_t);
	void *progress_ud;
	uint64_t pbytes, pdone;
};

/* Where the records of one task (in walk order) begin in a worker's
 * evidence: the record ceiling is applied in walk order at the merge. */
struct seg {
	size_t seq, rec0;
};

struct live;

struct worker {
	struct job *job;
	struct hangdx_evidence *ev;
	struct seg *segs;
	size_t nseg, capseg;
	char *buf;
	char *carry;
	char *join;             /* a hard-wrapped line put back together */
	char *clean;            /* a line without its colour */
	uint64_t ok;            /* inputs read */
	int last_status;        /* enum hx_fstatus of the last file */
	char *pipebuf[PIPE_BUFS];       /* for the pipeline, made once */
	struct hx_rawline *held;        /* held kernel runs (families.c) */
	struct live *keep;      /* NULL, or where read_text leaves a plain
				 * file's reading stopped before its end */
	int err;
	pthread_t th;
	uint64_t unreported;    /* bytes read since the last progress call */
};

#define PROGRESS_EVERY (64u << 20)

/* Report progress: add what this worker read, count a finished file. */
static void progress(struct worker *w, bool file_done)
{
	struct job *j = w->job;

	if (!j->progress)
		return;
	pthread_mutex_lock(&j->lock);
	j->pbytes += w->unreported;
	w->unreported = 0;
	j->pdone += file_done;
	j->progress(j->progress_ud, j->pbytes, j->pdone, j->ntask);
	pthread_mutex_unlock(&j->lock);
}

static void tick(struct worker *w, size_t n)
{
	w->unreported += n;
	if (w->unreported >= PROGRESS_EVERY)
		progress(w, false);
}

/* ---- lines ---- */

static bool skip_diag(struct hx_reader *r, int reason)
{
	if (r->diag_left[reason]) {
		r->diag_left[reason]--;
		return true;
	}
	r->diag_dropped++;
	return false;
}

static void skip_line(struct hx_reader *r, int reason, uint64_t line,
		      const char *what)
{
	r->ev->c.skipped[reason]++;
	r->fs.skipped++;
	if (skip_diag(r, reason))
		hx_rdiag(r, HANGDX_WARNING, line, "%s; line skipped", what);
}

static void too_long(struct hx_reader *r, uint64_t line)
{
	char msg[96];

	snprintf(msg, sizeof msg, "line longer than %zu bytes",
		 r->lim->max_line);
	skip_line(r, HX_S_TOO_LONG, line, msg);
}

static void first_ts(struct hx_reader *r, const char *s, size_t n)
{
	struct hx_prefix p;

	if (r->line > 1000 || r->fs.first_ts != HX_NONE)
		return;
	if (hx_parse_prefix(s, n, &p) && p.ts != HX_NONE) {
		r->fs.first_ts = p.ts;
		r->fs.pid = p.pid;
	}
}

/* ---- console lines: envelope, error-manager blocks, wraps ---- */

void hx_env_stamp(struct hx_reader *r, struct hx_recb *b)
{
	const struct hx_envelope *e = &r->env;

	if (r->replaying)
		return;
	if (!e->skip) {         /* a c10 message's unprefixed lines */
		if (r->c10_rank >= 0)
			hx_rb_num(b, HX_F_CONSOLE_RANK, r->c10_rank);
		return;
	}
	if (e->rank >= 0)
		hx_rb_num(b, HX_F_CONSOLE_RANK, e->rank);
	if (e->workerlen)
		hx_rb_str(b, HX_F_WORKER, e->worker, e->workerlen);
	if (e->pid != HX_NONE)
		hx_rb_num(b, HX_F_CONSOLE_PID, e->pid);
	if (e->nodelen)
		hx_rb_str(b, HX_F_CONSOLE_NODE, e->node, e->nodelen);
}

static uint64_t env_key(const struct hx_envelope *e)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	if (!e->skip)
		return 0;
	h = (h ^ (uint64_t)e->rank) * 1099511628211ull;
	h = (h ^ (uint64_t)e->pid) * 1099511628211ull;
	for (i = 0; i < e->workerlen; i++)
		h = (h ^ (unsigned char)e->worker[i]) * 1099511628211ull;
	for (i = 0; i < e->nodelen; i++)
		h = (h ^ (unsigned char)e->node[i]) * 1099511628211ull;
	for (i = 0; i < e->gpathlen; i++)       /* several files grep'd */
		h = (h ^ (unsigned char)e->gpath[i]) * 1099511628211ull;
	return h ? h : 1;
}

/* "EI0002", "EE9999": 'E', a capital or digit, four digits. */
static bool em_code(const char *s, size_t n)
{
	size_t i;

	if (n < 7 || s[0] != 'E' ||
	    !((s[1] >= 'A' && s[1] <= 'Z') || (s[1] >= '0' && s[1] <= '9')))
		return false;
	for (i = 2; i < 6; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

enum em_form { EM_NONE, EM_HEADER, EM_CODE_BODY, EM_CODE_PID };

static enum em_form em_form(const char *s, size_t n)
{
	if (em_code(s, n))
		return s[6] == ':' ? EM_HEADER : s[6] == ' ' ? EM_CODE_BODY
		       : s[6] == '[' ? EM_CODE_PID : EM_NONE;
	if (n > 7 && memcmp(s, "[PID: ", 6) == 0) {
		const char *cl = hx_find(s, n < 256 ? n : 256, "):");

		if (cl && cl - s >= 7 && em_code(cl - 6, 7))
			return EM_HEADER;
	}
	return EM_NONE;
}

/* The block of the current line's source, or a slot for it. */
static struct hx_emblock *block_of(struct hx_reader *r, uint64_t key,
				   bool make)
{
	struct hx_emblock *b, *old = &r->blk[0];
	size_t i;

	for (i = 0; i < HX_EM_SLOTS; i++) {
		b = &r->blk[i];
		if (b->open && b->key == key)
			return b;
		if (!b->open || (old->open && b->used < old->used))
			old = b;
	}
	if (!make)
		return NULL;
	memset(old, 0, sizeof *old);
	old->key = key;
	return old;
}

static void block_close(struct hx_reader *r, struct hx_emblock *b)
{
	if (r->ctxline.valid && r->ctxline.line == b->line)
		r->ctxline.valid = false;
	b->open = false;
}

static void block_open(struct hx_reader *r, struct hx_emblock *b,
		       const char *code)
{
	b->open = true;
	memcpy(b->code, code, 6);
	b->lines = 0;
	b->line = r->line;
	b->pid = b->ts = HX_NONE;
}

/* The families' continuation context is the block's header. */
static void block_ctx(struct hx_reader *r, const struct hx_emblock *b)
{
	r->ctxline.valid = true;
	r->ctxline.line = b->line;
	r->ctxline.pid = b->pid;
	r->ctxline.tid = HX_NONE;
	r->ctxline.ts = b->ts;
	r->ctxline.level = HX_LV_NONE;
	r->ctxline.module = HX_NOSTR;
	r->ctxline.pname = HX_NOSTR;
}

/*
 * An unindented line inside a block that starts something else: a
 * bracket ("[W NPUStream...]", "[ERROR] ...", "[PID: n]"), Python's
 * "Traceback (most recent call last):", an exception ("RuntimeError:",
 * "torch.OutOfMemoryError:").
 */
static bool new_start(const char *s, size_t n)
{
	size_t i = 0;

	if (strchr("[({<\\", s[0]))
		return true;
	if (n >= 9 && memcmp(s, "Traceback", 9) == 0)
		return true;
	while (i < n && i < 64 && s[i] != ':' && s[i] != ' ')
		i++;
	return i < n && s[i] == ':' && i >= 5 &&
	       (memcmp(s + i - 5, "Error", 5) == 0 ||
		(i >= 9 && memcmp(s + i - 9, "Exception", 9) == 0));
}

static int to_families(struct hx_reader *r, const char *s, size_t n)
{
	if (memchr(s, '\0', n)) {
		skip_line(r, HX_S_NUL, r->line, "NUL bytes in a log line");
		return HANGDX_OK;
	}
	r->ev->c.candidates++;
	r->taken = r->open_too = false;
	/* the records this piece of the line makes (glued lines: a piece
	 * after the first is read as a line of its own) */
	r->piece_sub = r->line == r->sub_line ? r->sub : 0;
	if (hx_families_line(r, s, n))
		return r->err;
	return hx_families_open(r, s, n);
}

/* A body line of block b: to the families as a continuation (it starts
 * with a blank), under the block's header. */
static int block_body(struct hx_reader *r, struct hx_emblock *b,
		      const char *s, size_t n)
{
	char tmp[HX_HELD_LINE + 1];

	b->used = r->line;
	if (++b->lines > HX_EM_MAX_LINES) {
		block_close(r, b);
		return HANGDX_OK;
	}
	block_ctx(r, b);
	r->curblk = b;
	if (n && (s[0] == ' ' || s[0] == '\t'))
		return to_families(r, s, n);
	if (n > HX_HELD_LINE)
		n = HX_HELD_LINE;
	tmp[0] = ' ';
	memcpy(tmp + 1, s, n);
	return to_families(r, tmp, n + 1);
}

/* "EE9999[PID: 43311] text": the pid, and the text after ']'. */
static size_t code_pid(const char *s, size_t n, int64_t *pid)
{
	size_t i = 7;

	if (n < 13 || memcmp(s + 6, "[PID: ", 6) != 0)
		return 0;
	i = 12;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 12 || i >= n || s[i] != ']')
		return 0;
	hx_parse_i64(s + 12, i - 12, pid);
	return i + 1;
}

/* An error-manager line: a header opens a block, a body line joins one
 * (or opens it when the paste cut the header off). */
static int em_line(struct hx_reader *r, enum em_form f, uint64_t key,
		   const char *s, size_t n)
{
	struct hx_emblock *b = block_of(r, key, true);
	int64_t pid = HX_NONE;
	size_t k;
	int err;

	if (f == EM_CODE_PID && !hx_find(s, n < 256 ? n : 256, "):")) {
		k = code_pid(s, n, &pid);
		if (!k)
			return HANGDX_OK;
		if (!b->open || memcmp(b->code, s, 6) != 0)
			block_open(r, b, s);
		if (b->pid == HX_NONE || b->line != r->line)
			b->pid = pid;
		return block_body(r, b, s + k, n - k);
	}
	if (f == EM_CODE_BODY) {
		if (!b->open || memcmp(b->code, s, 6) != 0)
			block_open(r, b, s);
		return block_body(r, b, s + 6, n - 6);
	}
	/* a header: "CODE: ...", "[PID: n] ts Title(CODE): ...", and
	 * "CODE[PID: n] ts (CODE): ..." read as the latter */
	if (b->open)
		block_close(r, b);
	block_open(r, b, f == EM_CODE_PID ? s
				       : s[0] == '[' ? hx_find(s, n, "):") - 6
						     : s);
	b->used = r->line;
	r->curblk = b;
	if (f == EM_CODE_PID) {
		s += 6;
		n -= 6;
	}
	err = to_families(r, s, n);
	if (r->ctxline.valid && r->ctxline.line == r->line) {
		b->pid = r->ctxline.pid;
		b->ts = r->ctxline.ts;
	}
	block_ctx(r, b);
	return err;
}

/* grep's "--" between groups of lines: what follows is not next to
 * what came before, and no open block goes on. */
static void grep_gap(struct hx_reader *r)
{
	size_t i;

	for (i = 0; i < HX_EM_SLOTS; i++)
		if (r->blk[i].open)
			block_close(r, &r->blk[i]);
	r->ctxline.valid = false;
}

/* The message text of a console line (its envelope removed). */
static int message(struct hx_reader *r, const char *s, size_t n)
{
	uint64_t key = env_key(&r->env);
	struct hx_emblock *b;
	enum em_form f;
	int cl;

	r->curblk = NULL;
	b = block_of(r, key, false);
	if (n < 3 && (n == 0 || (n == 2 && !key && s[0] == '-' && s[1] == '-'))) {
		if (n)
			grep_gap(r);    /* grep's "--" between groups */
		else if (b)
			block_close(r, b);
		return HANGDX_OK;
	}
	if (!b && r->ctxline.valid && r->ctxline.module == HX_NOSTR &&
	    r->ctxline.level == HX_LV_NONE)
		r->ctxline.valid = false;       /* another source's block */
	f = s[0] == 'E' || s[0] == '[' ? em_form(s, n) : EM_NONE;
	if (f == EM_NONE && (s[0] == ' ' || s[0] == '\t')) {
		size_t k = 0;           /* "   EZ3003: ts text": a new header */

		while (k < n && k < 16 && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (s[k] == 'E' && em_form(s + k, n - k) == EM_HEADER)
			return em_line(r, EM_HEADER, key, s + k, n - k);
	}
	if (f != EM_NONE)
		return em_line(r, f, key, s, n);
	if (b) {
		if (s[0] == ' ' || s[0] == '\t' || !new_start(s, n))
			return block_body(r, b, s, n);
		block_close(r, b);
	}
	if (s[0] == '[') {
		if (r->scratch) {
			r->lastpre_ptr = NULL;
			r->nlastpre = n < sizeof r->lastpre ? n
							     : sizeof r->lastpre;
			memcpy(r->lastpre, s, r->nlastpre);
		} else {
			r->lastpre_ptr = s;
			r->lastpre_len = n;
		}
		if (r->fs.first_ts == HX_NONE)
			first_ts(r, s, n);
	}
	cl = hx_classify(s, n);
	/* a logger's own message at ERROR ("ERROR 05-12 11:36:01 [x.py:704]
	 * Engine core proc EngineCore died unexpectedly ..."), not an
	 * indented line of a traceback it writes at that level */
	if (cl == HX_CL_NOISE && hx_logger_error(r->env.level, s, n))
		cl = HX_CL_BARE;
	/* the AI Core error tool's report: its headings (a line of stars)
	 * and, inside it, every line (families.c aicerr_report) */
	if (cl == HX_CL_NOISE && (r->aicerr || (n > 8 && s[0] == '*' && s[1] == '*')))
		return to_families(r, s, n);
	if (cl == HX_CL_NOISE) {
		if (r->ffts_trail)
			return hx_families_noise(r, s, n);
		if (s[0] == '[')
			r->ctxline.valid = false;
		return HANGDX_OK;
	}
	return to_families(r, s, n);
}

/*
 * Lines glued together by a paste that lost their newlines, each behind
 * the same launcher prefix ("(VllmWorker rank=0 pid=234357) ERROR ...
 * WorkerProc hit an exception.(VllmWorker rank=0 pid=234357) ERROR ..."):
 * where the line's first envelope element comes again, or 0.
 */
static size_t glued(const char *s, size_t n, const struct hx_envelope *e)
{
	const char *p;

	if (e->first < 8 || (e->forms & (HX_EV_GREP | HX_EV_INDENT)) ||
	    !(e->forms & (HX_EV_RANK | HX_EV_MPI | HX_EV_WORKER)))
		return 0;
	p = memmem(s + e->skip, n - e->skip, s, e->first);
	return p ? (size_t)(p - s) : 0;
}

/* Ray's " [repeated 8x across cluster]" after a deduplicated line. */
static size_t ray_repeat(const char *s, size_t n)
{
	static const char tail[] = "x across cluster]";
	const size_t m = sizeof tail - 1;
	const char *b;

	if (n < m + 12 || memcmp(s + n - m, tail, m) != 0)
		return n;
	b = memrchr(s, '[', n - m);
	if (!b || b == s || b[-1] != ' ' ||
	    (size_t)(s + n - b) > m + 16 || memcmp(b, "[repeated ", 10) != 0)
		return n;
	return (size_t)(b - 1 - s);
}

static void bold(const char **s, size_t *n);
static void line_silence(struct hx_reader *r, const char *s, size_t n);

/* A silence between grep's lines only where grep printed the lines of
 * the file between them (the numbers advance with the paste's lines:
 * nothing was filtered out), of a console, not of a plog; the clock is
 * read on s[0..n), the line after grep's prefix (its envelope or first
 * bytes). */
static void grep_silence(struct hx_reader *r, const char *s, size_t n)
{
	int64_t g = r->env.gline;
	/* lines between whose prefix was not read as grep's (an empty
	 * line's) count: the numbers advance as the lines of the paste do */
	bool next = g > 1 && r->gprev > 0 && g > r->gprev &&
		    (uint64_t)(g - r->gprev) == r->line - r->gprev_at;

	r->gprev = g > 0 ? g : 0;
	r->gprev_at = r->line;
	if (hx_plog_start(s, n))
		return;
	if (!next)
		r->clk_seen = false;
	line_silence(r, s, n);
}

/* A line behind a grep prefix: a line of the file grep names (vpath) at
 * the line it printed (vline); grep prints file after file, so a new
 * path begins a file. */
static int grep_line(struct hx_reader *r, const char *s, size_t n,
		     const char *c, size_t cn)
{
	uint32_t saved = r->vpath;
	int err = HANGDX_OK;

	if (r->env.gpathlen) {
		uint32_t id = hx_ev_intern(r->ev, r->env.gpath,
					   r->env.gpathlen, &err);

		if (err)
			return r->err = err;
		if (id != r->gfile) {
			if ((err = hx_families_file(r)) != 0)
				return err;
			r->gprev = 0;   /* no silence across two files */
		}
		r->gfile = id;
		r->vpath = id;
	}
	r->vline = r->env.gline > 0 ? (uint64_t)r->env.gline : 0;
	grep_silence(r, c, cn);
	err = message(r, s, n);
	r->vpath = saved;
	r->vline = 0;
	return err;
}

/* The seconds no line was printed before this one, by the clocks the
 * console's lines start with (hx_line_clock, on s[0..n): the envelope, a
 * logger's head among it, or the line's first 40 bytes): a silence a
 * failure may end. */
static void line_silence(struct hx_reader *r, const char *s, size_t n)
{
	int64_t clk;
	int dated;

	if (!hx_line_clock(s, n, &clk, &dated))
		return;
	/* the lines of one second are one burst: they share its silence */
	if (!r->clk_seen || dated != r->clk_dated || clk < r->clk_prev)
		r->silence = -1;
	else if (clk > r->clk_prev)
		r->silence = clk - r->clk_prev;
	r->silence_line = r->line;
	r->clk_prev = clk;
	r->clk_dated = dated;
	r->clk_seen = true;
}

/* c10's log line behind torch's "[rankN]:" ("[W1031 21:35:04.838006795
 * compiler_depend.ts:57] Warning: EZ9999: Inner Error!"): the message is
 * the error manager's, and its lines after the first, an error-manager
 * block ("EZ9999: [PID: 696742] ...", its indented body), come without
 * the prefix: they are that rank's (c10_rank) up to a line that is none
 * of them. */
static void c10_carry(struct hx_reader *r, const char *s, size_t n, size_t k)
{
	const char *m = s + k, *e;
	size_t left = n - k;

	if (k) {
		r->c10_rank = -1;
		if (!(r->env.forms & HX_EV_RANK) || left < 16 || m[0] != '[' ||
		    (m[1] != 'W' && m[1] != 'E') ||
		    !(e = memchr(m, ']', left < 64 ? left : 64)))
			return;
		for (e++; (e = memchr(e, 'E', (size_t)(m + left - e))) != NULL; e++)
			if (e[-1] == ' ' && em_code(e, (size_t)(m + left - e)) &&
			    e[6] == ':') {
				r->c10_rank = r->env.rank;
				return;
			}
		return;
	}
	if (r->c10_rank >= 0 && (n == 0 || !(s[0] == ' ' || s[0] == '\t' ||
					      em_form(s, n) != EM_NONE)))
		r->c10_rank = -1;
}

/* One logical line: its envelope, then its message. */
static int one_line(struct hx_reader *r, const char *s, size_t n, size_t k)
{
	/* a console's clock, on the envelope or the line's first 40 bytes
	 * (past grep's prefix: grep_silence): a plog's (its own or through
	 * grep) is not, a plog at its default level being silent while the
	 * job is well */
	size_t g = r->env.forms & HX_EV_GREP ? r->env.first : 0;
	size_t ck = k > g ? k - g : n - g < 40 ? n - g : 40;
	const char *c = s + g;

	c10_carry(r, s, n, k);
	if (!g && !hx_plog_start(s + k, n - k))
		line_silence(r, s, ck);
	if (r->env.forms & HX_EV_WORKER)
		n = ray_repeat(s, n);
	s += k;
	n -= k;
	if (k)          /* "3:**EL0004: ...", "0: **EL0004: ...": the bold
			 * after grep's number or a launcher's prefix */
		bold(&s, &n);
	if (r->env.forms & HX_EV_GREP)
		return grep_line(r, s, n, c, ck);
	return message(r, s, n);
}

/*
 * A line glued after another by a page that lost the newline between
 * them ("... notify wait timeout. [ERROR] RUNTIME(1234,python):...",
 * "... at once. EI0002: The wait ...", "...exited. Traceback (most recent
 * call last):"): where the vendor's own start of a line comes after a
 * blank, or 0.  Not after a colon: "RuntimeError: EI0002: ..." is one.
 */
static bool glue_start(const char *p, size_t left)
{
	struct hx_prefix pre;

	switch (*p) {
	case '[':       /* a plog prefix; an application's "[ERROR] " head
			 * (not a bracket among brackets: a kernel log's
			 * "[ascend] [ERROR] [tsdrv]") */
		return (left > 16 && hx_plog_start(p, left) &&
			hx_parse_prefix(p, left, &pre)) ||
		       (p[1] == 'P' && em_form(p, left) == EM_HEADER) ||
		       (p[1] == 'E' && memcmp(p, "[ERROR] ", 8) == 0 &&
			p[8] != '[' && p[-2] != ']');
	case 'E':
		return em_form(p, left) == EM_HEADER;
	default:        /* Python's (CANN's "TraceBack" is its error block's own) */
		return hx_traceback_head(p, left);
	}
}

static size_t glue_cut(const char *s, size_t n)
{
	static const char lead[] = "[ET";
	const char *end = s + n, *best = end, *p;
	size_t i;

	/* each lead byte by memchr: rarer than the blanks before them */
	for (i = 0; i < sizeof lead - 1; i++)
		for (p = s + 2; p < best &&
		     (p = memchr(p, lead[i], (size_t)(best - p))) != NULL; p++)
			if (p[-1] == ' ' && p[-2] != ':' && end - p > 8 &&
			    glue_start(p, (size_t)(end - p))) {
				best = p;
				break;
			}
	return best == end ? 0 : (size_t)(best - s);
}

/* The part of a glued line before cut, without the blanks before it. */
static size_t glue_head(const char *s, size_t cut)
{
	while (cut && s[cut - 1] == ' ')
		cut--;
	return cut;
}

/* A plog line: nothing around it. */
static void no_envelope(struct hx_envelope *e)
{
	e->skip = e->first = 0;
	e->forms = 0;
	e->level = HX_LV_NONE;
}

static int text_line(struct hx_reader *r, const char *s, size_t n)
{
	size_t k, cut;
	int err;

	if (n && s[n - 1] == '\r')
		n--;
	while (n > 8 && s[1] == 'E' && memcmp(s, "[ERROR] ", 8) == 0 &&
	       (cut = glue_cut(s, n)) != 0) {
		no_envelope(&r->env);
		r->c10_rank = -1;
		if ((err = message(r, s, glue_head(s, cut))) != 0)
			return err;
		s += cut;
		n -= cut;
	}
	if (hx_plog_start(s, n)) {      /* no envelope: straight on */
		no_envelope(&r->env);
		r->c10_rank = -1;
		return message(r, s, n);
	}
	for (;;) {
		r->env.srun_indent = r->srun_seen;
		k = hx_parse_envelope(s, n, &r->env);
		if (r->env.forms & HX_EV_SRUN)
			r->srun_seen = true;
		cut = k ? glued(s, n, &r->env) : 0;
		if (!cut && k < n && (cut = glue_cut(s + k, n - k)) != 0) {
			if ((err = one_line(r, s, k + glue_head(s + k, cut), k)) != 0)
				return err;
			s += k + cut;
			n -= k + cut;
			continue;
		}
		if (!cut)
			return one_line(r, s, n, k);
		/* the envelope of the first part, read again for it */
		k = hx_parse_envelope(s, cut, &r->env);
		if ((err = one_line(r, s, cut, k)) != 0)
			return err;
		s += cut;
		n -= cut;
	}
}

/*
 * A JSON string holding log lines with "\n" escapes (docker's json-file
 * driver: {"log":"EE9999: Inner Error!\n","stream":"stderr"}, or a whole
 * log in one string): each string's lines, unescaped, as lines.
 */
static bool json_lines(const char *s, size_t n)
{
	return n > 4 && (s[0] == '{' || s[0] == '"') && hx_find(s, n, "\\n");
}

static int json_piece(struct hx_reader *r, const char *s, size_t n)
{
	char tmp[HX_HELD_LINE];
	size_t i, m = 0;

	for (i = 0; i < n && m < sizeof tmp; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			if (c == 't')
				c = '\t';
			else if (c == 'r')
				continue;
			else if (c == 'u' && i + 4 < n) {
				/* "\u001b[0;36m": colour, taken out below */
				c = memcmp(s + i + 1, "001b", 4) == 0 ||
				    memcmp(s + i + 1, "001B", 4) == 0 ? 0x1b : ' ';
				i += 4;
			}
		}
		tmp[m++] = c;
	}
	if (hx_coloured(tmp, m))
		m = hx_decolour(tmp, m, tmp);
	return text_line(r, tmp, m);
}

static int json_text(struct hx_reader *r, const char *s, size_t n)
{
	size_t i = 0, start = 0;
	bool in = false;
	int err = HANGDX_OK;

	r->scratch = true;
	for (i = 0; i < n && !err; i++) {
		if (!in) {
			if (s[i] == '"') {
				in = true;
				start = i + 1;
			}
			continue;
		}
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == 'n') {
			err = json_piece(r, s + start, i - start);
			start = i + 2;
			i++;
		} else if (s[i] == '\\') {
			i++;
		} else if (s[i] == '"') {
			if (i > start)
				err = json_piece(r, s + start, i - start);
			in = false;
		}
	}
	return err;
}

/* r->scratch says whether s is a copy (the carry, the join buffer). */
static int logical_line(struct hx_reader *r, const char *s, size_t n)
{
	bool scratch = r->scratch;
	int err;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;            /* a paste's trailing blanks say nothing */
	if (n > 1 && s[n - 1] == '`' && memchr(s, '`', n - 1))
		while (n && s[n - 1] == '`')
			n--;    /* "`EI0002: ...`": the closing backquote */
	if (json_lines(s, n))
		err = json_text(r, s, n);
	else
		err = text_line(r, s, n);
	r->scratch = scratch;
	return err;
}

/*
 * Hard wraps.  A line cut where the terminal or a mail client folded it
 * is put back together before anything else reads it:
 *  - a line of exactly HX_WRAP_COLS bytes goes on with the next unless
 *    that one starts a line of its own (fold -w 80, a terminal's copy);
 *  - a line that ends inside a bracket ("...[FUNC:") goes on with the
 *    next ("FuncErrorReason][FILE:...]");
 *  - a device error message ("The error from device(...)") without its
 *    "[FUNC:..][FILE:..][LINE:n]" tail goes on, a space between, until
 *    the line that has the tail (a reporter's wrap).
 * A wrapped line quoted again ("> " before every piece) goes on the same
 * way, the pieces after the first without their envelope when it is the
 * first's (wrap_env); not a fold, which a terminal makes after the
 * launcher's prefix, so that only the first piece has one.
 */
#define HX_WRAP_COLS 80
#define HX_WRAP_MAX 64
enum { J_NONE, J_FOLD, J_BRACKET, J_DEVICE, J_SOURCE };

static uint64_t wrap_env(const char *s, size_t n, size_t *skip);

/* A line that ends at a source location ("... (cpuid:0)
 * ai_core_dispatcher.c:1012"). */
static bool file_tail(const char *s, size_t n)
{
	size_t k = n;

	while (k > 8 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k == n || k < 12 || s[k - 1] != ':')
		return false;
	k--;
	return (s[k - 2] == '.' && (s[k - 1] == 'c' || s[k - 1] == 'h')) ||
	       (s[k - 3] == '.' && memcmp(s + k - 2, "cc", 2) == 0) ||
	       (s[k - 4] == '.' && memcmp(s + k - 3, "cpp", 3) == 0);
}

/* An ERROR plog line that ends at its source location: its message was
 * wrapped onto the lines after it by a page (the device log's lines of a
 * vendor document). */
static bool source_tail(const char *s, size_t n)
{
	return n >= 24 && memcmp(s, "[ERROR] ", 8) == 0 && file_tail(s, n);
}

/* The same behind a launcher's envelope ("0: ", "[1,0]<stdout>:"). */
static bool source_tail_env(const char *s, size_t n)
{
	size_t skip;

	return n >= 24 && file_tail(s, n) && wrap_env(s, n, &skip) &&
	       skip < n && source_tail(s + skip, n - skip);
}

static bool open_bracket(const char *s, size_t n)
{
	size_t stop = n > 48 ? n - 48 : 0;
	const char *b = memrchr(s + stop, '[', n - stop);

	return b && !memchr(b, ']', (size_t)(s + n - b));
}

/* "EE9999[PID: 43311] The error from device(...), serial ..." with no
 * "[LINE:n]" tail (behind an envelope or not), or the message alone at
 * the start of a line, as a reporter quotes it. */
static bool device_head(const char *s, size_t n)
{
	static const char head[] = "The error from device";
	struct hx_envelope e;
	size_t k = 0;

	if (s[0] == 'T')
		return n > sizeof head && memcmp(s, head, sizeof head - 1) == 0 &&
		       !hx_find(s, n, "[LINE:");
	e.srun_indent = false;
	if (s[0] != 'E')
		k = hx_parse_envelope(s, n, &e);
	if (k && n - k > sizeof head && s[k] == 'T')  /* "> The error ..." */
		return memcmp(s + k, head, sizeof head - 1) == 0 &&
		       !hx_find(s, n, "[LINE:");
	return em_code(s + k, n - k) &&
	       hx_find(s + k, n - k < 512 ? n - k : 512, head) &&
	       !hx_find(s, n, "[LINE:");
}

/* Every line comes here: a plog line ("[DEBUG] ...") is only looked at
 * for its length. */
static int hold_kind(const char *s, size_t n)
{
	bool plog = s[0] == '[' && s[1] >= 'A' && s[1] <= 'Z' && s[1] != 'W';
	size_t m = n;           /* without the blanks a paste left at the end */

	if (n < 8)
		return J_NONE;
	if (s[n - 1] == ' ' || s[n - 1] == '\t')
		while (m > 8 && (s[m - 1] == ' ' || s[m - 1] == '\t'))
			m--;
	if (s[m - 1] >= '0' && s[m - 1] <= '9' &&
	    (plog ? s[1] == 'E' && source_tail(s, m) : source_tail_env(s, m)))
		return J_SOURCE;
	if (!plog && s[m - 1] != ']' && device_head(s, m))
		return J_DEVICE;
	if (n == HX_WRAP_COLS)
		return J_FOLD;
	if (!plog && s[m - 1] != ']' && open_bracket(s, m))
		return J_BRACKET;
	return J_NONE;
}

/* What a shell or Python prints at the start of a line of its own:
 * "Segmentation fault (core dumped)", "Killed", "terminate called ...",
 * an exception's "RuntimeError: ..." or "torch.distributed.DistBackendError". */
static bool own_head(const char *s, size_t n)
{
	static const char *const shell[] = {
		"Segmentation fault", "Aborted", "Killed", "Bus error",
		"Illegal instruction", "Floating point exception",
		"terminate called", "Fatal Python error"
	};
	static const char *const tail[] = { "Error", "Exception", "Exit", "Interrupt" };
	size_t i, k, t, seg = 0;

	for (i = 0; i < sizeof shell / sizeof shell[0]; i++)
		if (n >= strlen(shell[i]) && memcmp(s, shell[i], strlen(shell[i])) == 0)
			return true;
	for (k = 0; k < n && k < 96 && (hx_name_byte(s[k]) || s[k] == '.'); k++)
		if (s[k] == '.')
			seg = k + 1;
	/* a class name starts with a capital ("untimeError:" is a fold's
	 * tail), after its module's path if it has one */
	if (!k || seg >= k || s[seg] < 'A' || s[seg] > 'Z' || !hx_name_byte(s[0]) ||
	    (s[0] >= '0' && s[0] <= '9') || (k < n && s[k] != ':'))
		return false;
	for (i = 0; i < sizeof tail / sizeof tail[0]; i++)
		if (k >= (t = strlen(tail[i])) && memcmp(s + k - t, tail[i], t) == 0)
			return true;
	return false;
}

/* A line that starts on its own: never the tail of a wrapped one. */
static bool line_start(const char *s, size_t n)
{
	struct hx_envelope e;

	if (n == 0 || s[0] == '#')      /* "# file: PATH" markers too */
		return true;
	if (n >= 6 && (memcmp(s, "[FUNC:", 6) == 0 ||
		       memcmp(s, "[FILE:", 6) == 0 ||
		       memcmp(s, "[LINE:", 6) == 0))
		return false;
	e.srun_indent = false;
	if (hx_parse_envelope(s, n, &e) &&
	    (!(e.forms & HX_EV_GREP) || (e.gpathlen && e.gline != HX_NONE)))
		return true;
	if (s[0] == '[' && (hx_parse_prefix(s, n, &(struct hx_prefix){ 0 }) ||
			    (n > 6 && memcmp(s, "[PID: ", 6) == 0)))
		return true;
	if (s[0] == '[' && n > 8) {     /* "[3351] [2026-08-14 ...": a logger's head */
		const char *b = memchr(s, ']', n < 24 ? n : 24);

		if (b && b + 2 < s + n && b[1] == ' ' && b[2] == '[')
			return true;
	}
	while (n && (s[0] == ' ' || s[0] == '\t')) {  /* "   EZ3003: ..." */
		s++;
		n--;
	}
	return em_code(s, n) || own_head(s, n) ||
	       (n >= 9 && (memcmp(s, "Traceback", 9) == 0 ||
			   memcmp(s, "TraceBack", 9) == 0));
}

static int join_flush(struct hx_reader *r)
{
	uint64_t line = r->line, off = r->off;
	bool scratch = r->scratch;
	int err;

	if (!r->njoin)
		return HANGDX_OK;
	r->line = r->join_line;
	r->off = r->join_off;
	r->scratch = true;
	err = logical_line(r, r->join, r->njoin);
	r->scratch = scratch;
	r->njoin = 0;
	r->line = line;
	r->off = off;
	return err;
}

/*
 * What an envelope says of whose line it is (its forms, rank, worker and
 * node; not its time), 0 for none: a wrapped line behind the same
 * envelope on each of its pieces ("> " quoted, "[default0]:") goes on
 * behind the next piece's.  *skip: the envelope's length.
 */
static uint64_t wrap_env(const char *s, size_t n, size_t *skip)
{
	struct hx_envelope e;

	e.srun_indent = false;
	*skip = hx_parse_envelope(s, n, &e);
	return *skip ? (env_key(&e) ^ e.forms) | 1 : 0;
}

static void join_put(struct hx_reader *r, const char *s, size_t n, int how)
{
	r->join_how = how;
	if (r->njoin == 0) {
		size_t skip;

		r->join_line = r->line;
		r->join_off = r->off;
		r->join_parts = 0;
		r->join_env = wrap_env(s, n, &skip);
	}
	/* a hand wrap replaced a space; a fold at the terminal's width
	 * (a piece of exactly HX_WRAP_COLS) cut anywhere */
	if ((how == J_DEVICE || how == J_SOURCE) && r->njoin && n && s[0] != '[' &&
	    r->join_last != HX_WRAP_COLS)
		r->join[r->njoin++] = ' ';
	r->join_last = n;
	memcpy(r->join + r->njoin, s, n);
	r->njoin += n;
	r->join_parts++;
}

static int handle_line(struct hx_reader *r, const char *s, size_t n);

/* The line without the colour a paste kept (hx_decolour, into
 * r->clean), read as a line. */
static int clean_line(struct hx_reader *r, const char *s, size_t n)
{
	bool scratch = r->scratch;
	int err;

	n = hx_decolour(s, n, r->clean);
	r->scratch = true;
	err = handle_line(r, r->clean, n);
	r->scratch = scratch;
	return err;
}

/*
 * A paste indented as a whole (a Markdown code block by indentation, a
 * page's <pre> inside a list): the first line's blanks (two or more, or
 * a tab) go from every line that starts with them, up to the first line
 * that does not; a line with fewer of the same blanks (two or more, or a
 * tab) makes those the paste's; blank lines, '#' lines and Markdown's
 * fences do not count.
 */
static void dedent(struct hx_reader *r, const char **s, size_t *n)
{
	size_t k = 0;

	if (r->dedent < 0 || *n == 0 || (*s)[0] == '#')
		return;
	while (k < *n && k < sizeof r->indent && ((*s)[k] == ' ' || (*s)[k] == '\t'))
		k++;
	if (k == *n)
		return;         /* blanks only */
	if (*n - k >= 3 && (memcmp(*s + k, "```", 3) == 0 ||
			    memcmp(*s + k, "~~~", 3) == 0))
		return;         /* a Markdown fence, not the paste's text */
	if (r->dedent == 0) {
		if (k == 0 || k == sizeof r->indent || (k == 1 && (*s)[0] != '\t')) {
			r->dedent = -1;
			return;
		}
		memcpy(r->indent, *s, k);
		r->nindent = (uint8_t)k;
		r->dedent = 1;
	}
	/* fewer blanks than the first line had, and the same ones: the
	 * first line was indented further than the paste (a traceback's code
	 * line), the paste's own indentation is these */
	if (k < r->nindent && (k >= 2 || (*s)[0] == '\t') &&
	    memcmp(*s, r->indent, k) == 0)
		r->nindent = (uint8_t)k;
	if (k < r->nindent || memcmp(*s, r->indent, r->nindent) != 0) {
		r->dedent = -1;
		return;
	}
	*s += r->nindent;
	*n -= r->nindent;
}

/*
 * A paste numbered line by line ("cat -n", "nl": blanks, the number, a
 * tab): when the first line that is not blank is so numbered, each line's
 * number goes while the numbers follow one another; the first line that
 * breaks the run ends it for the file.  A numbered blank line may have
 * lost its tab.
 */
static void unnumber(struct hx_reader *r, const char **s, size_t *n)
{
	const char *p = *s;
	size_t k = 0, d;
	uint64_t v = 0;

	if (r->numbered < 0)
		return;
	while (k < *n && k < 8 && p[k] == ' ')
		k++;
	for (d = k; d < *n && d - k < 8 && p[d] >= '0' && p[d] <= '9'; d++)
		v = v * 10 + (uint64_t)(p[d] - '0');
	if (d == k || d - k > 7 || (d < *n && p[d] != '\t') ||
	    (d == *n && r->numbered == 0) ||
	    (r->numbered > 0 && v != r->number + 1)) {
		if (r->numbered > 0 || *n > 0)
			r->numbered = -1;
		return;
	}
	r->numbered = 1;
	r->number = v;
	d += d < *n;
	*s += d;
	*n -= d;
}

/* Markdown's bold a reporter put around a pasted block ("**EL0004: ...",
 * "... = 207001[FUNC:...]**"): the marks go, a line of stars stays. */
static void bold(const char **s, size_t *n)
{
	const char *p = *s;

	if (*n > 4 && p[0] == '*' && p[1] == '*' && p[2] != '*' && p[2] != ' ') {
		*s += 2;
		*n -= 2;
		p = *s;
	}
	if (*n > 3 && p[*n - 1] == '*' && p[*n - 2] == '*' && p[*n - 3] != '*' &&
	    p[*n - 3] != ' ')
		*n -= 2;
}

/* Markdown's quote marks before a pasted line ("> [ERROR] ...", ">> ",
 * ">[ERROR]"): they go, with one space after each, so that the line's own
 * indentation (an error-manager block's body) stays its own. */
static void unquote(const char **s, size_t *n)
{
	const char *p = *s;
	size_t k = 0;

	while (k < *n && p[k] == '>') {
		k++;
		if (k < *n && p[k] == ' ')
			k++;
	}
	*s += k;
	*n -= k;
}

/* A line as read: a CR before its newline goes (also as "^M"), Markdown's
 * quote marks (unquote), a paste's
 * numbers and indentation (unnumber, dedent), Markdown's bold around it,
 * and its colour (a plog line, "[ERROR] ...", has none: two capitals are
 * all it costs; a JSON string's "\u001b[0;36m" is json_piece's). */
static int handle_line(struct hx_reader *r, const char *s, size_t n)
{
	int how;

	if (n && s[n - 1] == '\r')
		n--;
	else if (n >= 2 && s[n - 1] == 'M' && s[n - 2] == '^')
		n -= 2;                 /* the CR in caret notation ("cat -v") */
	if (s != r->clean) {
		if (n && s[0] == '>')
			unquote(&s, &n);        /* outside a paste's numbers */
		unnumber(r, &s, &n);
		if (n && s[0] == '>')
			unquote(&s, &n);        /* or inside ("  1\t> ...") */
		dedent(r, &s, &n);
	}
	bold(&s, &n);
	if (n > 2 && s != r->clean && hx_coloured(s, n) && !json_lines(s, n))
		return clean_line(r, s, n);
	if (r->njoin) {
		/* an indented line under a device message is a body line of
		 * its block ("        The 0 stuck notify wait context
		 * info:..."), not the rest of a message wrapped by hand */
		bool body = (r->join_how == J_DEVICE || r->join_how == J_SOURCE) &&
			    n && (s[0] == ' ' || s[0] == '\t');
		size_t skip = 0;

		if (r->join_env && r->join_how != J_FOLD &&
		    wrap_env(s, n, &skip) == r->join_env) {
			s += skip;      /* the same envelope: its text goes on */
			n -= skip;
			body = r->join_how == J_DEVICE && n &&
			       (s[0] == ' ' || s[0] == '\t');
		}
		if (!body && !line_start(s, n) && r->njoin + n + 1 <= r->lim->max_line &&
		    r->join_parts < HX_WRAP_MAX) {
			int prev = r->join_how;

			join_put(r, s, n, prev);
			how = hold_kind(s, n);
			if (prev == J_DEVICE && !hx_find(s, n, "[LINE:"))
				how = J_DEVICE;
			if (prev == J_SOURCE)
				how = J_SOURCE; /* up to a blank line or a line of its own */
			if (how != J_NONE) {
				r->join_how = how;
				return HANGDX_OK;
			}
			return join_flush(r);
		}
		if (join_flush(r))
			return r->err ? r->err : HANGDX_ENOMEM;
	}
	if (n == 0)
		return logical_line(r, s, 0);
	how = hold_kind(s, n);
	if (how != J_NONE && r->join) {
		join_put(r, s, n, how);
		return HANGDX_OK;
	}
	return logical_line(r, s, n);
}

/* Keep the head of the last prefixed line of a chunk for the file's
 * last timestamp; the chunk itself is about to be reused. */
static void save_lastpre(struct hx_reader *r)
{
	if (!r->lastpre_ptr)
		return;
	r->nlastpre = r->lastpre_len < sizeof r->lastpre ? r->lastpre_len
							  : sizeof r->lastpre;
	memcpy(r->lastpre, r->lastpre_ptr, r->nlastpre);
	r->lastpre_ptr = NULL;
}

/* The carried line (a copy): its message is read from there. */
static int carry_line(struct hx_reader *r)
{
	int err;

	r->scratch = true;
	err = handle_line(r, r->carry, r->ncarry);
	r->scratch = false;
	if (r->lastpre_ptr >= r->carry &&
	    r->lastpre_ptr < r->carry + r->ncarry)
		r->lastpre_ptr = NULL;
	return err;
}

static int feed_carry(struct hx_reader *r, const char *p, size_t n,
		      size_t *used)
{
	const char *nl = memchr(p, '\n', n);
	size_t part = nl ? (size_t)(nl - p) : n;
	int err = HANGDX_OK;

	*used = nl ? part + 1 : n;
	if (r->skipping) {
		if (nl)
			r->skipping = false;
		return HANGDX_OK;
	}
	if (r->ncarry + part > r->lim->max_line) {
		too_long(r, r->line);
		r->ncarry = 0;
		r->skipping = nl == NULL;
		return HANGDX_OK;
	}
	memcpy(r->carry + r->ncarry, p, part);
	r->ncarry += part;
	if (!nl)
		return HANGDX_OK;
	r->off = r->carry_off;
	r->lastpre_ptr = NULL;
	err = carry_line(r);
	r->ncarry = 0;
	return err;
}

static int reader_feed(struct hx_reader *r, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl;
	int err = HANGDX_OK;

	r->fs.bytes += n;
	if (r->skipping || r->ncarry) {
		size_t used;

		err = feed_carry(r, p, n, &used);
		p += used;
	}
	while (!err && p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		size_t len = (size_t)(nl - p);

		r->line++;
		r->off = r->pos + (uint64_t)(p - buf);
		if (len > r->lim->max_line)
			too_long(r, r->line);
		else
			err = handle_line(r, p, len);
		p = nl + 1;
	}
	save_lastpre(r);
	if (!err && p < end) {          /* a partial line: carry it */
		size_t left = (size_t)(end - p);

		r->line++;
		r->carry_off = r->pos + (uint64_t)(p - buf);
		if (left > r->lim->max_line) {
			too_long(r, r->line);
			r->skipping = true;
		} else {
			memcpy(r->carry, p, left);
			r->ncarry = left;
		}
	}
	r->pos += n;
	return err ? err : r->err;
}

static void reader_begin(struct hx_reader *r, struct worker *w,
			 uint32_t file)
{
	int i;

	memset(r, 0, sizeof *r);
	r->ev = w->ev;
	r->ctx = w->job->ctx;
	r->lim = &w->job->lim;
	r->file = r->vpath = file;
	r->rec0 = w->ev->nrec;
	r->gfile = HX_NOSTR;
	r->c10_rank = -1;
	r->path = hx_ev_str(w->ev, file);
	r->carry = w->carry;
	r->join = w->join;
	r->clean = w->clean;
	r->held = w->held;
	r->fs.path = file;
	r->fs.first_ts = r->fs.last_ts = r->fs.pid = HX_NONE;
	r->cmod.id = r->cpname.id = r->csrc.id = HX_NOSTR;
	for (i = 0; i < HX_S_COUNT; i++)
		r->diag_left[i] = DIAG_PER_REASON;
}

static int reader_end(struct hx_reader *r, int status)
{
	struct hx_prefix p;
	int err = HANGDX_OK;

	if (r->ncarry && !r->skipping) {        /* last line, no newline */
		r->off = r->carry_off;
		r->lastpre_ptr = NULL;
		err = carry_line(r);
		r->ncarry = 0;
		r->fs.cut_line = r->line;       /* cut mid-line, perhaps */
	}
	if (!err)
		err = join_flush(r);
	save_lastpre(r);
	if (!err)
		err = hx_families_end(r);
	if (r->nlastpre && hx_parse_prefix(r->lastpre, r->nlastpre, &p))
		r->fs.last_ts = p.ts;
	if (r->diag_dropped)
		hx_rdiag(r, HANGDX_NOTE, 0, "%llu more skipped lines not "
			 "reported", (unsigned long long)r->diag_dropped);
	r->fs.lines = r->line;
	r->fs.status = (uint8_t)status;
	if (status == HX_FS_OK && r->line == 0) {
		r->fs.status = HX_FS_EMPTY;
		if (!r->ev->budget ||
		    atomic_fetch_add(&r->ev->budget->empty, 1) < HX_EMPTY_NOTED)
			hx_rdiag(r, HANGDX_NOTE, 0, "empty file");
	}
	r->ev->c.files++;
	r->ev->c.bytes += r->fs.bytes;
	r->ev->c.lines += r->line;
	if (!err)
		err = hx_ev_add_file(r->ev, &r->fs);
	return err ? err : r->err;
}

/* ---- file-level outcomes ---- */

static int file_skipped(struct worker *w, const char *display, int status,
			int reason)
{
	struct hx_filesum fs;
	int err = 0;

	memset(&fs, 0, sizeof fs);
	fs.path = hx_ev_intern(w->ev, display, strlen(display), &err);
	if (err)
		return err;
	fs.status = (uint8_t)status;
	fs.first_ts = fs.last_ts = fs.pid = HX_NONE;
	w->ev->c.files_skipped++;
	if (reason >= 0)
		w->ev->c.skipped[reason]++;
	return hx_ev_add_file(w->ev, &fs);
}

/*
 * UTF-16 text, as Windows PowerShell saves a console's output (`>`,
 * Out-File): a byte-order mark first.  Its code units are written as
 * UTF-8 for the reader; a unit cut between two reads, or a high surrogate
 * waiting for its low half, is kept for the next; a lone surrogate is
 * U+FFFD.  Offsets are then of the UTF-8 text; lines are the file's.
 */
struct utf16 {
	bool be;
	bool has_odd;
	unsigned char odd;      /* the first byte of a cut unit */
	uint32_t hi;            /* a high surrogate, 0 none */
	char *out;              /* UTF16_OUT(n) bytes for n read */
};
#define UTF16_OUT(n) ((n) / 2 * 3 + 8)

static bool utf16_bom(const char *s, size_t n, bool *be)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n < 2 || !((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff)))
		return false;
	*be = u[0] == 0xfe;
	return true;
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* The UTF-8 of n bytes of UTF-16 at s into u->out; its length. */
static size_t utf16_conv(struct utf16 *u, const char *s, size_t n)
{
	const unsigned char *b = (const unsigned char *)s;
	size_t i = 0, m = 0;

	for (;;) {
		unsigned x, y;
		uint32_t c;

		if (u->has_odd && i < n) {
			x = u->odd;
			y = b[i++];
			u->has_odd = false;
		} else if (i + 1 < n) {
			x = b[i];
			y = b[i + 1];
			i += 2;
		} else {
			if (i < n) {
				u->odd = b[i];
				u->has_odd = true;
			}
			return m;
		}
		c = u->be ? (x << 8 | y) : (y << 8 | x);
		if (c >= 0xd800 && c < 0xdc00) {
			if (u->hi)
				m += put_utf8(u->out + m, 0xfffd);
			u->hi = c;
			continue;
		}
		if (c >= 0xdc00 && c < 0xe000) {
			c = u->hi ? 0x10000 + ((u->hi - 0xd800) << 10) + (c - 0xdc00)
				  : 0xfffd;
		} else if (u->hi) {
			m += put_utf8(u->out + m, 0xfffd);
		}
		u->hi = 0;
		m += put_utf8(u->out + m, c);
	}
}

static int feed(struct hx_reader *r, struct utf16 *u, const char *s, size_t n)
{
	return u ? reader_feed(r, u->out, utf16_conv(u, s, n))
		 : reader_feed(r, s, n);
}

/*
 * Binary: more than 5% control bytes (tab, newline, CR, FF, VT and ESC
 * are text) or more than 1% NUL in the first 8 KiB.  Logs with a few NUL
 * bytes (a file padded after a crash) still read, line by line.
 */
static bool looks_binary(const char *s, size_t n)
{
	size_t i, bad = 0, nul = 0;

	if (n > SNIFF)
		n = SNIFF;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
		    c != '\f' && c != '\v' && c != 0x1b)
			bad++;
		nul += c == 0;
	}
	return n && (bad * 20 > n || nul * 100 > n);
}

enum magic { M_TEXT, M_COMPRESSED, M_ARCHIVE };

static enum magic sniff_magic(const unsigned char *s, size_t n)
{
	if (n >= 2 && s[0] == 0x1f && (s[1] == 0x8b || s[1] == 0x9d))
		return M_COMPRESSED;
	if (n >= 4 && s[0] == 0x28 && s[1] == 0xb5 && s[2] == 0x2f &&
	    s[3] == 0xfd)
		return M_COMPRESSED;
	if (n >= 6 && memcmp(s, "\xfd" "7zXZ\0", 6) == 0)
		return M_COMPRESSED;
	if (n >= 3 && memcmp(s, "BZh", 3) == 0)
		return M_COMPRESSED;
	if (n >= 4 && s[0] == 0x04 && s[1] == 0x22 && s[2] == 0x4d &&
	    s[3] == 0x18)
		return M_COMPRESSED;
	if (n >= 4 && s[0] == 'P' && s[1] == 'K' &&
	    ((s[2] == 3 && s[3] == 4) || (s[2] == 5 && s[3] == 6)))
		return M_ARCHIVE;
	if (n >= 262 && memcmp(s + 257, "ustar", 5) == 0)
		return M_ARCHIVE;
	if (n >= 6 && memcmp(s, "7z\xbc\xaf\x27\x1c", 6) == 0)
		return M_ARCHIVE;
	return M_TEXT;
}

/* ---- the pipeline: a helper thread decompresses, this one parses ---- */

struct pipe {
	struct src *src;
	char *bufs[PIPE_BUFS];
	ssize_t len[PIPE_BUFS];
	size_t head, tail, count;       /* filled ring */
	bool done, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *pipe_producer(void *arg)
{
	struct pipe *pp = arg;

	for (;;) {
		size_t slot;
		ssize_t k;

		pthread_mutex_lock(&pp->mu);
		while (pp->count == PIPE_BUFS && !pp->stop)
			pthread_cond_wait(&pp->cv, &pp->mu);
		if (pp->stop) {
			pthread_mutex_unlock(&pp->mu);
			break;
		}
		slot = (pp->head + pp->count) % PIPE_BUFS;
		pthread_mutex_unlock(&pp->mu);
		k = pp->src->read(pp->src, pp->bufs[slot], BUFSZ);
		pthread_mutex_lock(&pp->mu);
		pp->len[slot] = k;
		pp->count++;
		if (k <= 0)
			pp->done = true;
		pthread_cond_broadcast(&pp->cv);
		pthread_mutex_unlock(&pp->mu);
		if (k <= 0)
			break;
	}
	return NULL;
}

/* Next filled buffer (len <= 0 at the end); release it with pipe_pop. */
static ssize_t pipe_peek(struct pipe *pp, char **buf)
{
	ssize_t k;

	pthread_mutex_lock(&pp->mu);
	while (pp->count == 0)
		pthread_cond_wait(&pp->cv, &pp->mu);
	*buf = pp->bufs[pp->head];
	k = pp->len[pp->head];
	pthread_mutex_unlock(&pp->mu);
	return k;
}

static void pipe_pop(struct pipe *pp)
{
	pthread_mutex_lock(&pp->mu);
	pp->head = (pp->head + 1) % PIPE_BUFS;
	pp->count--;
	pthread_cond_broadcast(&pp->cv);
	pthread_mutex_unlock(&pp->mu);
}

/* Feed the rest of src through the reader; returns the read status. */
static int pump_pipelined(struct worker *w, struct hx_reader *r,
			  struct src *src, int *status)
{
	struct pipe pp;
	pthread_t th;
	size_t i;
	int err = HANGDX_OK;

	memset(&pp, 0, sizeof pp);
	pp.src = src;
	for (i = 0; i < PIPE_BUFS; i++) {
		if (!w->pipebuf[i])
			w->pipebuf[i] = hx_alloc(w->job->ctx, BUFSZ);
		if (!w->pipebuf[i])
			return HANGDX_ENOMEM;
		pp.bufs[i] = w->pipebuf[i];
	}
	if (pthread_mutex_init(&pp.mu, NULL) != 0)
		return HANGDX_ENOMEM;
	if (pthread_cond_init(&pp.cv, NULL) != 0) {
		pthread_mutex_destroy(&pp.mu);
		return HANGDX_ENOMEM;
	}
	if (pthread_create(&th, NULL, pipe_producer, &pp) != 0) {
		err = HANGDX_ENOMEM;
		goto out_destroy;
	}
	for (;;) {
		char *buf;
		ssize_t k = pipe_peek(&pp, &buf);

		if (k < 0)
			*status = HX_FS_TRUNCATED;
		if (k <= 0)
			break;
		err = reader_feed(r, buf, (size_t)k);
		tick(w, (size_t)k);
		pipe_pop(&pp);
		if (err)
			break;
	}
	pthread_mutex_lock(&pp.mu);
	pp.stop = true;
	pthread_cond_broadcast(&pp.cv);
	pthread_mutex_unlock(&pp.mu);
	pthread_join(th, NULL);
out_destroy:
	pthread_cond_destroy(&pp.cv);
	pthread_mutex_destroy(&pp.mu);
	return err;
}

/* ---- text and archives ---- */

struct arsrc;
static int read_source(struct worker *w, const char *display,
		       struct src *src, int depth, struct arsrc *outer);

/* An archive reads its compressed bytes through this. */
struct arsrc {
	struct src *src;
	char *buf;
	const char *peek;       /* bytes read before libarchive started */
	size_t npeek;
	uint64_t in, out;       /* compressed consumed, uncompressed made */
	struct arsrc *outer;
};

static la_ssize_t ar_read_cb(struct archive *a, void *ud, const void **out)
{
	struct arsrc *as = ud;
	ssize_t k;

	(void)a;
	if (as->npeek) {
		*out = as->peek;
		k = (ssize_t)as->npeek;
		as->npeek = 0;
		as->in += (uint64_t)k;
		return k;
	}
	k = as->src->read(as->src, as->buf, 64 * 1024);
	if (k < 0) {
		archive_set_error(a, EIO, "%s", as->src->errmsg ? as->src->errmsg
							     : "read error");
		return -1;
	}
	*out = as->buf;
	as->in += (uint64_t)k;
	return k;
}

static la_int64_t ar_seek_cb(struct archive *a, void *ud, la_int64_t off,
			     int whence)
{
	struct arsrc *as = ud;
	struct src *s = as->src;

	(void)a;
	if (s->mem) {
		int64_t base = whence == SEEK_SET ? 0
			     : whence == SEEK_CUR ? (int64_t)s->mempos
						  : (int64_t)s->memlen;

		if (base + off < 0 || base + off > (int64_t)s->memlen)
			return ARCHIVE_FATAL;
		s->mempos = (size_t)(base + off);
		return (la_int64_t)s->mempos;
	}
	return lseek(s->fd, off, whence);
}

static void size_limit_diag(struct worker *w, const char *name)
{
	diag(w->job->ctx, HANGDX_ERROR, name, 0,
	     "uncompressed size over the ceiling of %llu bytes; rest skipped",
	     (unsigned long long)w->job->lim.max_member);
}

/* The decompression ratio of this archive and of those around it. */
static int ratio_limit(struct worker *w, struct arsrc *as, const char *name)
{
	const struct hx_ingest_limits *lim = &w->job->lim;
	struct arsrc *o;

	for (o = as; o; o = o->outer) {
		if (o->out > lim->min_ratio_bytes && o->in &&
		    o->out / o->in > lim->max_ratio) {
			diag(w->job->ctx, HANGDX_ERROR, name, 0,
			     "decompression ratio over %llu:1 (%llu bytes from "
			     "%llu); possible decompression bomb, rest skipped",
			     (unsigned long long)lim->max_ratio,
			     (unsigned long long)o->out,
			     (unsigned long long)o->in);
			return HANGDX_ELIMIT;
		}
	}
	return HANGDX_OK;
}

/* Member bytes flow through here so the ceilings see them. */
struct memsrc {
	struct src s;
	struct worker *w;
	struct arsrc *as;
	const char *name;
	uint64_t bytes;
};

static ssize_t memsrc_read(struct src *s, char *buf, size_t n)
{
	struct memsrc *m = (struct memsrc *)s;
	uint64_t max = m->w->job->lim.max_member;
	struct arsrc *o;
	ssize_t k;
	char c;

	if (s->limited)
		return 0;
	if (m->bytes >= max) {          /* at the ceiling: is there more? */
		k = member_read(s, &c, 1);
		if (k > 0) {
			size_limit_diag(m->w, m->name);
			s->limited = true;
			k = 0;
		}
		return k;
	}
	k = member_read(s, buf, n);
	if (k <= 0)
		return k;
	if (m->bytes + (uint64_t)k > max)       /* keep what fits */
		k = (ssize_t)(max - m->bytes);
	m->bytes += (uint64_t)k;
	for (o = m->as; o; o = o->outer)
		o->out += (uint64_t)k;
	if (ratio_limit(m->w, m->as, m->name))
		s->limited = true;
	return k;
}

static char *member_name(struct hangdx_ctx *ctx, const char *display,
			 const char *member)
{
	size_t n = strlen(display) + strlen(member) + 3;
	char *s = hx_alloc(ctx, n);

	if (s)
		snprintf(s, n, "%s!/%s", display, member);
	return s;
}

/* libarchive's message, which may be NULL. */
static const char *ar_error(struct archive *a)
{
	const char *s = archive_error_string(a);

	return s ? s : "unrecognised data";
}

static int read_archive(struct worker *w, const char *display,
			struct src *src, const char *peek, size_t npeek,
			int depth, struct arsrc *outer)
{
	struct hangdx_ctx *ctx = w->job->ctx;
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	struct arsrc as;
	int rc, err = HANGDX_OK;
	bool any = false;

	if (!a)
		return HANGDX_ENOMEM;
	memset(&as, 0, sizeof as);
	as.src = src;
	as.peek = peek;
	as.npeek = npeek;
	as.outer = outer;
	as.buf = hx_alloc(ctx, 64 * 1024);
	if (!as.buf) {
		archive_read_free(a);
		return HANGDX_ENOMEM;
	}
	w->ev->c.archives++;
	/* Archive formats only: format_all would let mtree (and warc) claim
	 * a compressed plain-text log as a listing of file names. */
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_7zip(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_raw(a);
	if (src->seekable && !npeek)
		archive_read_set_seek_callback(a, ar_seek_cb);
	archive_read_set_read_callback(a, ar_read_cb);
	archive_read_set_callback_data(a, &as);
	if (archive_read_open1(a) != ARCHIVE_OK) {
		diag(ctx, HANGDX_ERROR, display, 0, "cannot read archive: %s",
		     ar_error(a));
		err = file_skipped(w, display, HX_FS_TRUNCATED, HX_S_TRUNCATED);
		goto out_free;
	}
	while (!err) {
		struct memsrc m;
		const char *mname;
		char *name;
		int st;

		rc = archive_read_next_header(a, &ent);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc < ARCHIVE_WARN) {
			diag(ctx, HANGDX_ERROR, display, 0,
			     "truncated or corrupt archive: %s", ar_error(a));
			err = file_skipped(w, display, HX_FS_TRUNCATED,
					   HX_S_TRUNCATED);
			any = true;     /* said and counted once */
			break;
		}
		if (archive_entry_filetype(ent) != AE_IFREG)
			continue;
		mname = archive_entry_pathname(ent);
		if (archive_format(a) == ARCHIVE_FORMAT_RAW || !mname)
			name = hx_strdup(ctx, display);
		else
			name = member_name(ctx, display, mname);
		if (!name) {
			err = HANGDX_ENOMEM;
			break;
		}
		memset(&m, 0, sizeof m);
		m.s.read = memsrc_read;
		m.s.ar = a;
		m.s.big = !archive_entry_size_is_set(ent) ||
			  archive_entry_size(ent) > (la_int64_t)4 * BUFSZ;
		m.w = w;
		m.as = &as;
		m.name = name;
		w->last_status = HX_FS_OK;
		st = read_source(w, name, &m.s, depth + 1, &as);
		any = true;
		if (st == HANGDX_ENOMEM)
			err = st;
		hx_free(ctx, name);
		/* a ceiling, or a member cut short: the stream behind it is
		 * gone too, and the member's diagnostic said so */
		if (m.s.limited || w->last_status == HX_FS_TRUNCATED)
			break;
	}
	if (!any && !err) {
		diag(ctx, HANGDX_WARNING, display, 0,
		     "no file in this archive; nothing read");
		err = file_skipped(w, display, HX_FS_EMPTY, -1);
	}
out_free:
	archive_read_free(a);
	hx_free(ctx, as.buf);
	return err;
}

/* Plain text: sniff for binary, then stream through the reader. */
static int live_begin(struct worker *w, const struct hx_reader *r, int fd);

static int read_text(struct worker *w, const char *display, struct src *src,
		     char *first, size_t nfirst, struct arsrc *outer)
{
	struct hx_reader r;
	struct utf16 u16 = { 0 }, *u = NULL;
	uint32_t file;
	int err = 0, status = HX_FS_OK;

	if (utf16_bom(first, nfirst, &u16.be)) {
		u16.out = hx_alloc(w->job->ctx, UTF16_OUT(BUFSZ > nfirst ? BUFSZ : nfirst));
		if (!u16.out)
			return HANGDX_ENOMEM;
		u = &u16;
		first += 2;
		nfirst -= 2;
	} else if (looks_binary(first, nfirst)) {
		diag(w->job->ctx, HANGDX_WARNING, display, 0,
		     "binary file skipped");
		return file_skipped(w, display, HX_FS_BINARY, HX_S_BINARY);
	}
	file = hx_ev_intern(w->ev, display, strlen(display), &err);
	if (err)
		goto free_utf16;
	reader_begin(&r, w, file);
	err = feed(&r, u, first, nfirst);
	if (!err && !u && w->job->pipeline && outer && src->big) {
		err = pump_pipelined(w, &r, src, &status);
	} else {
		while (!err && !src->eof) {
			ssize_t k = src->read(src, w->buf, BUFSZ);

			if (k < 0) {
				status = HX_FS_TRUNCATED;
				break;
			}
			if (k == 0)
				src->eof = true;
			else
				err = feed(&r, u, w->buf, (size_t)k);
			tick(w, (size_t)k);
		}
	}
	if (src->limited) {
		status = HX_FS_LIMIT;
		w->ev->c.skipped[HX_S_LIMIT]++;
	}
	if (status == HX_FS_TRUNCATED) {
		hx_rdiag(&r, HANGDX_ERROR, r.line ? r.line : 0,
			 "read error: %s; the rest of the file is lost",
			 src->errmsg ? src->errmsg : "truncated input");
		w->ev->c.skipped[HX_S_TRUNCATED]++;
	}
	if (!err && w->keep && !u && !outer && status == HX_FS_OK &&
	    !src->limited && !src->mem && src->seekable)
		err = live_begin(w, &r, src->fd);
	if (!err)
		err = reader_end(&r, status);
	w->last_status = status;
free_utf16:
	hx_free(w->job->ctx, u16.out);
	return err;
}

/*
 * Read one source: sniff its first bytes, then read it as an archive or
 * compressed stream, or as text.  Returns HANGDX_OK when it was read (in
 * part), an error when it could not be, ENOMEM.
 */
static int read_source(struct worker *w, const char *display,
		       struct src *src, int depth, struct arsrc *outer)
{
	size_t n = 0, first = src->first ? src->first : SNIFF;
	ssize_t k;
	enum magic mg;

	while (n < SNIFF) {
		k = src->read(src, w->buf + n, first - n);
		if (k < 0) {
			bool member = src->ar != NULL;

			diag(w->job->ctx, HANGDX_ERROR, display, 0,
			     "%s: %s", member ? "read error" : "cannot read",
			     src->errmsg ? src->errmsg : "read error");
			w->last_status = member ? HX_FS_TRUNCATED
						: HX_FS_UNREADABLE;
			return file_skipped(w, display, w->last_status,
					    member ? HX_S_TRUNCATED
						   : HX_S_UNREADABLE);
		}
		if (k == 0) {
			src->eof = true;
			break;
		}
		n += (size_t)k;
	}
	mg = sniff_magic((const unsigned char *)w->buf, n);
	if (mg != M_TEXT) {
		char *peek;
		int err;

		if (depth >= MAX_DEPTH) {
			diag(w->job->ctx, HANGDX_WARNING, display, 0,
			     "archive nested too deep; skipped");
			return file_skipped(w, display, HX_FS_LIMIT,
					    HX_S_LIMIT);
		}
		if (src->seekable && src->mem) {
			src->mempos = 0;
			return read_archive(w, display, src, NULL, 0, depth,
					    outer);
		}
		if (src->seekable && lseek(src->fd, 0, SEEK_SET) == 0)
			return read_archive(w, display, src, NULL, 0, depth,
					    outer);
		peek = hx_alloc(w->job->ctx, n ? n : 1);
		if (!peek)
			return HANGDX_ENOMEM;
		memcpy(peek, w->buf, n);
		err = read_archive(w, display, src, peek, n, depth, outer);
		hx_free(w->job->ctx, peek);
		return err;
	}
	return read_text(w, display, src, w->buf, n, outer);
}

/* ---- one task ---- */

static bool fd_regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static int run_task(struct worker *w, struct task *t)
{
	struct src src;
	uint64_t files = w->ev->c.files;
	int err, fd = -1;

	memset(&src, 0, sizeof src);
	if (t->mem) {
		src.read = mem_read;
		src.mem = t->mem;
		src.memlen = t->memlen;
		src.seekable = true;
	} else if (t->is_stdin) {
		src.read = fd_read;
		src.fd = 0;
	} else {
		fd = open(t->fspath, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			diag(w->job->ctx, HANGDX_ERROR, t->display, 0,
			     "cannot open: %s", strerror(errno));
			return file_skipped(w, t->display, HX_FS_UNREADABLE,
					    HX_S_UNREADABLE);
		}
		src.read = fd_read;
		src.fd = fd;
		src.seekable = t->reg || fd_regular(fd);
		src.advise = src.seekable;
		src.first = src.seekable ? BUFSZ : 0;   /* a small file: one read */
	}
	err = read_source(w, t->display, &src, 0, NULL);
	if (fd >= 0)
		close(fd);
	if (w->ev->c.files > files)     /* something in it was read */
		w->ok++;
	return err == HANGDX_ENOMEM ? err : HANGDX_OK;
}

static int seg_add(struct worker *w, size_t seq)
{
	void *v = w->segs;
	int err = hx_vec_reserve(w->job->ctx, &v, &w->capseg, w->nseg + 1,
				 sizeof *w->segs, (size_t)1 << 28);

	if (err)
		return err;
	w->segs = v;
	w->segs[w->nseg].seq = seq;
	w->segs[w->nseg++].rec0 = w->ev->nrec;
	return HANGDX_OK;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->job;

	for (;;) {
		struct task t;
		size_t seq;

		pthread_mutex_lock(&j->lock);
		while (!j->err && j->next >= j->ntask && j->walking)
			pthread_cond_wait(&j->more, &j->lock);
		if (j->err || j->next >= j->ntask) {
			pthread_mutex_unlock(&j->lock);
			break;
		}
		seq = j->next++;                /* the other worker moves it */
		t = j->tasks[seq];              /* the vector may move */
		pthread_mutex_unlock(&j->lock);
		w->err = seg_add(w, seq);
		if (!w->err)
			w->err = run_task(w, &t);
		progress(w, true);
		if (w->err) {
			pthread_mutex_lock(&j->lock);
			if (!j->err)
				j->err = w->err;
			pthread_mutex_unlock(&j->lock);
			break;
		}
	}
	return NULL;
}

/* ---- building the task list ---- */

/* Queue one input; a worker may already be waiting for it. */
static int add_task(struct job *j, const char *fspath, const char *display,
		    const void *mem, size_t memlen, bool is_stdin, bool reg)
{
	struct task t;
	void *v;
	int err;

	memset(&t, 0, sizeof t);
	t.fspath = fspath ? hx_strdup(j->ctx, fspath) : NULL;
	t.display = hx_strdup(j->ctx, display);
	if ((fspath && !t.fspath) || !t.display) {
		err = HANGDX_ENOMEM;
		goto out_free_task;
	}
	t.mem = mem;
	t.memlen = memlen;
	t.is_stdin = is_stdin;
	t.reg = reg;
	pthread_mutex_lock(&j->lock);
	v = j->tasks;
	err = hx_vec_reserve(j->ctx, &v, &j->captask, j->ntask + 1,
			     sizeof *j->tasks, (size_t)1 << 26);
	if (!err) {
		j->tasks = v;
		j->tasks[j->ntask++] = t;
		pthread_cond_signal(&j->more);
	}
	pthread_mutex_unlock(&j->lock);
	if (!err)
		return HANGDX_OK;
out_free_task:
	hx_free(j->ctx, t.fspath);
	hx_free(j->ctx, t.display);
	return err;
}

static char *join(struct hangdx_ctx *ctx, const char *a, const char *b)
{
	size_t la = strlen(a), n = la + strlen(b) + 2;
	char *s = hx_alloc(ctx, n);

	if (s)
		snprintf(s, n, "%s%s%s", a, la && a[la - 1] == '/' ? "" : "/", b);
	return s;
}

static int walk(struct job *j, int fd, const char *fs, const char *display,
		dev_t dev, int depth);

static uint64_t seen_key(const struct stat *st)
{
	return hx_map_key((uint64_t)st->st_ino * 0x9e3779b97f4a7c15ull ^
			  (uint64_t)st->st_dev);
}

/*
 * Remember a directory or file by device and inode; *fresh false if it was
 * seen (a symlink loop, a second link, a path given twice or inside
 * another): each is read once.  A hash set: a tree of 100,000 files is
 * walked in linear time.
 */
static int seen_enter(struct job *j, const struct stat *st,
		      const char *display, bool *fresh)
{
	struct hx_map_slot *slot;
	size_t i;
	void *v;
	int err = HANGDX_OK;

	*fresh = true;
	slot = hx_map_slot(j->ctx, &j->dirmap, seen_key(st), &err);
	if (!slot)
		return err;
	if (slot->val >= 0) {
		i = (size_t)slot->val;
		if (j->dirs[i].dev == st->st_dev && j->dirs[i].ino == st->st_ino) {
			*fresh = false;
			if (S_ISDIR(st->st_mode))
				diag(j->ctx, HANGDX_WARNING, display, 0,
				     "symlink loop or directory already read; "
				     "not read again");
			else
				diag(j->ctx, HANGDX_NOTE, display, 0,
				     "file already read; not read again");
			return HANGDX_OK;
		}
	}
	v = j->dirs;
	err = hx_vec_reserve(j->ctx, &v, &j->capdir, j->ndir + 1,
			     sizeof *j->dirs, (size_t)1 << 26);
	if (err)
		return err;
	j->dirs = v;
	j->dirs[j->ndir].dev = st->st_dev;
	j->dirs[j->ndir].ino = st->st_ino;
	if (slot->val < 0)              /* a 64-bit collision keeps the first */
		slot->val = (int32_t)j->ndir;
	j->ndir++;
	return HANGDX_OK;
}

/* A directory open as fd (closed here) to walk, or a regular file to
 * read (fd -1), once each. */
static int enter(struct job *j, int fd, const char *fs, const char *display,
		 const struct stat *st, int depth)
{
	bool fresh;
	int err = seen_enter(j, st, display, &fresh);

	if (!err && fresh)
		err = S_ISDIR(st->st_mode)
		      ? walk(j, fd, fs, display, st->st_dev, depth)
		      : add_task(j, fs, display, NULL, 0, false, true);
	if (fd >= 0)
		close(fd);
	return err;
}

/* Entry name of the directory open as dfd, a directory or a link to one:
 * opened relative to its parent (no walk of the whole path), known by
 * the inode it opens. */
static int enter_dir(struct job *j, int dfd, const char *name,
		     const char *fs, const char *display, int depth)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		diag(j->ctx, HANGDX_ERROR, display, 0,
		     "cannot read directory: %s", strerror(errno));
		return HANGDX_OK;
	}
	if (fstat(fd, &st) != 0) {
		diag(j->ctx, HANGDX_WARNING, display, 0, "cannot stat: %s",
		     strerror(errno));
		close(fd);
		return HANGDX_OK;
	}
	return enter(j, fd, fs, display, &st, depth);
}

struct entry {
	char *name;
	ino_t ino;
	unsigned char type;     /* DT_REG, DT_DIR, or DT_UNKNOWN: stat it */
};

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* One entry of the directory open as dfd (device dev): a regular file or
 * a directory is known from its entry alone; anything else (a link) is
 * stat()ed, links followed. */
static int walk_one(struct job *j, int dfd, const struct entry *e,
		    const char *fs, const char *display, dev_t dev, int depth)
{
	struct stat st;

	memset(&st, 0, sizeof st);
	if (e->type == DT_REG) {
		st.st_dev = dev;
		st.st_ino = e->ino;
		st.st_mode = S_IFREG;
		return enter(j, -1, fs, display, &st, depth);
	}
	if (e->type == DT_DIR)
		return enter_dir(j, dfd, e->name, fs, display, depth + 1);
	if (fstatat(dfd, e->name, &st, 0) != 0) {
		diag(j->ctx, HANGDX_WARNING, display, 0, "cannot stat: %s",
		     strerror(errno));
		return HANGDX_OK;
	}
	if (S_ISDIR(st.st_mode))
		return enter_dir(j, dfd, e->name, fs, display, depth + 1);
	if (S_ISREG(st.st_mode))
		return enter(j, -1, fs, display, &st, depth);
	diag(j->ctx, HANGDX_NOTE, display, 0, "not a regular file; skipped");
	return HANGDX_OK;
}

static int entry_add(struct job *j, struct entry **ents, size_t *n,
		     size_t *cap, const char *name, ino_t ino,
		     unsigned char type)
{
	void *v = *ents;
	int err;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return HANGDX_OK;
	err = hx_vec_reserve(j->ctx, &v, cap, *n + 1, sizeof **ents,
			     (size_t)1 << 24);
	if (err)
		return err;
	*ents = v;
	(*ents)[*n].name = hx_strdup(j->ctx, name);
	(*ents)[*n].ino = ino;
	(*ents)[*n].type = type == DT_REG || type == DT_DIR ? type : DT_UNKNOWN;
	if (!(*ents)[*n].name)
		return HANGDX_ENOMEM;
	(*n)++;
	return HANGDX_OK;
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 30)
#define DENTS_BUF (64 * 1024)

/* The entries of the directory open as fd, read straight from the kernel
 * (getdents64: no second open, no fstat, no per-directory allocation). */
static int list_dir(struct job *j, int fd, const char *display,
		    struct entry **ents, size_t *n, size_t *cap)
{
	int err = HANGDX_OK;

	if (!j->dents && !(j->dents = hx_alloc(j->ctx, DENTS_BUF)))
		return HANGDX_ENOMEM;
	for (;;) {
		ssize_t k = getdents64(fd, j->dents, DENTS_BUF), off;

		if (k < 0) {
			diag(j->ctx, HANGDX_ERROR, display, 0,
			     "cannot read directory: %s", strerror(errno));
			return HANGDX_OK;
		}
		if (k == 0)
			return HANGDX_OK;
		for (off = 0; off < k && !err;) {
			const struct dirent64 *de =
				(const struct dirent64 *)(j->dents + off);

			err = entry_add(j, ents, n, cap, de->d_name,
					(ino_t)de->d_ino, de->d_type);
			off += de->d_reclen;
		}
		if (err)
			return err;
	}
}
#else
static int list_dir(struct job *j, int fd, const char *display,
		    struct entry **ents, size_t *n, size_t *cap)
{
	int dup_fd = dup(fd), err = HANGDX_OK;
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *de;

	if (!d) {
		diag(j->ctx, HANGDX_ERROR, display, 0,
		     "cannot read directory: %s", strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		return HANGDX_OK;
	}
	while (!err && (de = readdir(d)) != NULL)
#ifdef DT_REG
		err = entry_add(j, ents, n, cap, de->d_name, de->d_ino,
				de->d_type);
#else
		err = entry_add(j, ents, n, cap, de->d_name, de->d_ino, 0);
#endif
	closedir(d);
	return err;
}
#endif

/* The directory open as fd (device dev): its entries in name order. */
static int walk(struct job *j, int fd, const char *fs, const char *display,
		dev_t dev, int depth)
{
	struct entry *ents = NULL;
	size_t n = 0, cap = 0, i;
	int err;

	if (depth > MAX_DIR_DEPTH) {
		diag(j->ctx, HANGDX_WARNING, display, 0,
		     "directories nested too deep; skipped");
		return HANGDX_OK;
	}
	err = list_dir(j, fd, display, &ents, &n, &cap);
	if (n)                  /* ents is NULL when the directory is empty */
		qsort(ents, n, sizeof *ents, entry_cmp);
	for (i = 0; i < n && !err; i++) {
		char *cfs = join(j->ctx, fs, ents[i].name);
		char *cdisp = join(j->ctx, display, ents[i].name);

		if (!cfs || !cdisp)
			err = HANGDX_ENOMEM;
		else
			err = walk_one(j, fd, &ents[i], cfs, cdisp, dev, depth);
		hx_free(j->ctx, cfs);
		hx_free(j->ctx, cdisp);
	}
	for (i = 0; i < n; i++)
		hx_free(j->ctx, ents[i].name);
	hx_free(j->ctx, ents);
	return err;
}

static int add_path(struct job *j, struct hangdx_evidence *ev,
		    const char *path)
{
	struct stat st;
	int fd, err;

	if (strcmp(path, "-") == 0)
		return add_task(j, NULL, "-", NULL, 0, true, false);
	if (!j->given_roots && (err = hx_ev_add_root(ev, path)) != HANGDX_OK)
		return err;
	if (stat(path, &st) != 0) {
		struct worker w = { .job = j, .ev = ev };

		diag(j->ctx, HANGDX_ERROR, path, 0, "cannot open: %s",
		     strerror(errno));
		return file_skipped(&w, path, HX_FS_UNREADABLE, HX_S_UNREADABLE);
	}
	if (S_ISREG(st.st_mode))
		return enter(j, -1, path, path, &st, 0);
	if (!S_ISDIR(st.st_mode))
		return add_task(j, path, path, NULL, 0, false, false);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		diag(j->ctx, HANGDX_ERROR, path, 0, "cannot read directory: %s",
		     strerror(errno));
		return HANGDX_OK;
	}
	return enter(j, fd, path, path, &st, 0);
}

/* ---- the job ---- */

static void job_limits(struct job *j, const struct hangdx_ingest_opts *o)
{
	j->lim.max_line = o && o->max_line ? o->max_line : 64 * 1024;
	if (j->lim.max_line > BUFSZ)
		j->lim.max_line = BUFSZ;
	j->lim.max_member = o && o->max_member ? o->max_member
					       : (uint64_t)16 << 30;
	j->lim.max_ratio = o && o->max_ratio ? o->max_ratio : 1000;
	j->lim.min_ratio_bytes = (uint64_t)64 << 20;
	if (j->lim.min_ratio_bytes > j->lim.max_member / 2)
		j->lim.min_ratio_bytes = j->lim.max_member / 2;
}

static void job_free(struct job *j)
{
	size_t i;

	for (i = 0; i < j->ntask; i++) {
		hx_free(j->ctx, j->tasks[i].fspath);
		hx_free(j->ctx, j->tasks[i].display);
	}
	hx_free(j->ctx, j->tasks);
	hx_free(j->ctx, j->dirs);
	hx_free(j->ctx, j->dents);
	hx_map_free(j->ctx, &j->dirmap);
	pthread_cond_destroy(&j->more);
	pthread_mutex_destroy(&j->lock);
}

static int worker_init(struct worker *w, struct job *j,
		       struct hangdx_evidence *ev)
{
	memset(w, 0, sizeof *w);
	w->job = j;
	w->ev = ev;
	w->buf = hx_alloc(j->ctx, BUFSZ);
	w->carry = hx_alloc(j->ctx, j->lim.max_line + 1);
	w->join = hx_alloc(j->ctx, j->lim.max_line + 1);
	w->clean = hx_alloc(j->ctx, j->lim.max_line + 1);
	w->held = hx_calloc(j->ctx, HX_HELD_PER_SLOT * HX_KRUN_SLOTS,
			    sizeof *w->held);
	return w->buf && w->carry && w->join && w->clean && w->held ? HANGDX_OK
							: HANGDX_ENOMEM;
}

static void worker_free(struct worker *w)
{
	size_t i;

	hx_free(w->job->ctx, w->buf);
	hx_free(w->job->ctx, w->carry);
	hx_free(w->job->ctx, w->join);
	hx_free(w->job->ctx, w->clean);
	hx_free(w->job->ctx, w->held);
	hx_free(w->job->ctx, w->segs);
	for (i = 0; i < PIPE_BUFS; i++)
		hx_free(w->job->ctx, w->pipebuf[i]);
}

static bool task_compressed(const struct task *t)
{
	static const char *const ext[] = { ".gz", ".tgz", ".zst", ".tzst",
					   ".xz", ".bz2", ".zip", ".tar" };
	size_t n = strlen(t->display), i;

	for (i = 0; i < HX_ARRAY_LEN(ext); i++) {
		size_t m = strlen(ext[i]);

		if (n > m && strcmp(t->display + n - m, ext[i]) == 0)
			return true;
	}
	return t->is_stdin;
}

/* The workers of a job: the caller's thread, and a second one that reads
 * into its own evidence, merged at the end. */
struct crew {
	struct worker w[2];
	struct hangdx_evidence *ev2;
	size_t base;            /* records in the evidence before the job */
	int nw;
};

/* The records from k on leave the counts of their files (a file counts
 * the records it kept); records and file summaries are both in reading
 * order, so one forward scan finds each file. */
static void uncount(struct hangdx_evidence *e, size_t k)
{
	size_t i = k, fi = 0;

	while (i < e->nrec) {
		uint32_t f = e->recs[i].file;
		uint64_t n = 0;
		size_t from = fi;

		for (; i < e->nrec && e->recs[i].file == f; i++)
			n++;
		while (fi < e->nfile && e->files[fi].path != f)
			fi++;
		if (fi == e->nfile) {           /* not after the last: from the start */
			for (fi = 0; fi < from && e->files[fi].path != f; fi++)
				;
			if (fi == from) {
				fi = from;
				continue;
			}
		}
		e->files[fi].records -= n < e->files[fi].records ? n : e->files[fi].records;
	}
}

/* Keep the first k records of e; the rest are counted as not kept. */
static void keep_first(struct hangdx_evidence *e, size_t k,
		       struct hangdx_evidence *count)
{
	if (k >= e->nrec)
		return;
	uncount(e, k);
	count->c.skipped[HX_S_RECORDS] += e->nrec - k;
	e->nfield = e->recs[k].ffirst;
	e->nrec = k;
}

/* The record of worker k's cut, in walk order, past the ceiling: said
 * once, as a reader says it. */
static void cut_said(struct crew *c, struct hangdx_evidence *ev, int k,
		     size_t at)
{
	const struct hangdx_evidence *e = c->w[k].ev;

	if (ev->limit_warned || c->ev2->limit_warned || at >= e->nrec)
		return;
	ev->limit_warned = true;
	hx_diag(ev->ctx, HANGDX_WARNING, hx_ev_str(e, e->recs[at].file),
		(unsigned long)e->recs[at].line, 0,
		"record limit (%zu) reached; further evidence is counted, not kept",
		ev->maxrec);
}

/*
 * Two workers kept up to the ceiling each, each the records of its tasks
 * in walk order (tasks are taken in that order).  Keep the first records
 * in walk order over both, as one thread would, so that which records a
 * ceiling keeps never depends on the threads; the rest are not kept.
 */
static void walk_cut(struct crew *c, struct hangdx_evidence *ev)
{
	struct worker *w0 = &c->w[0], *w1 = &c->w[1];
	size_t left = ev->maxrec > c->base ? ev->maxrec - c->base : 0;
	size_t i[2] = { 0, 0 }, pre = w0->nseg ? w0->segs[0].rec0 : ev->nrec;

	pre -= c->base;         /* records outside any task, kept */
	left = left > pre ? left - pre : 0;
	while (i[0] < w0->nseg || i[1] < w1->nseg) {
		int k = i[1] >= w1->nseg || (i[0] < w0->nseg &&
			w0->segs[i[0]].seq < w1->segs[i[1]].seq) ? 0 : 1;
		struct worker *w = &c->w[k];
		size_t r0 = w->segs[i[k]].rec0;
		size_t end = i[k] + 1 < w->nseg ? w->segs[i[k] + 1].rec0 : w->ev->nrec;
		struct worker *o = &c->w[!k];
		size_t ocut = i[!k] < o->nseg ? o->segs[i[!k]].rec0 : o->ev->nrec;

		if (end - r0 > left) {
			cut_said(c, ev, k, r0 + left);
			keep_first(w->ev, r0 + left, ev);
			keep_first(o->ev, ocut, ev);
			return;
		}
		left -= end - r0;
		i[k]++;
	}
}

/* Get nw workers ready; the second starts at once and waits for tasks
 * while the walk adds them. */
static int crew_start(struct job *j, struct hangdx_evidence *ev,
		      struct crew *c, int nw)
{
	size_t base = ev->nrec;
	int err;

	memset(c, 0, sizeof *c);
	c->nw = 1;              /* 2 only once the second thread runs */
	/* two workers each keep up to the ceiling, cut in walk order at the
	 * merge (walk_cut); the budget then only says the warning was given */
	j->budget.max = nw == 2 ? SIZE_MAX
		      : ev->maxrec > base ? ev->maxrec - base : 0;
	c->base = base;
	atomic_store(&j->budget.used, 0);
	atomic_store(&j->budget.warned, false);
	atomic_store(&j->budget.empty, 0);
	err = worker_init(&c->w[0], j, ev);
	if (!err && nw == 2) {
		err = hangdx_evidence_new(j->ctx, &c->ev2);
		if (!err)
			err = worker_init(&c->w[1], j, c->ev2);
		else
			c->w[1].job = j;
	}
	if (err)
		return err;
	ev->budget = &j->budget;
	if (c->ev2) {
		c->ev2->budget = &j->budget;
		c->ev2->maxrec = ev->maxrec > base ? ev->maxrec - base : 0;
	}
	if (nw == 2 && pthread_create(&c->w[1].th, NULL, worker_main,
				      &c->w[1]) == 0)
		c->nw = 2;
	return HANGDX_OK;
}

/* The walk is over: read the rest on this thread too, then merge. */
static int crew_finish(struct job *j, struct hangdx_evidence *ev,
		       struct crew *c, int err)
{
	int i;

	pthread_mutex_lock(&j->lock);
	j->walking = false;
	if (err && !j->err)
		j->err = err;
	pthread_cond_broadcast(&j->more);
	pthread_mutex_unlock(&j->lock);
	if (!err && c->w[0].job)
		worker_main(&c->w[0]);
	if (c->nw == 2)
		pthread_join(c->w[1].th, NULL);
	ev->budget = NULL;
	err = j->err;
	if (atomic_load(&j->budget.empty) > HX_EMPTY_NOTED)
		hx_diag(j->ctx, HANGDX_NOTE, NULL, 0, 0,
			"%zu more empty files not listed",
			atomic_load(&j->budget.empty) - HX_EMPTY_NOTED);
	j->inputs_ok = c->w[0].ok + (c->nw == 2 ? c->w[1].ok : 0);
	if (!err && c->ev2) {
		c->ev2->budget = NULL;
		if (c->nw == 2)
			walk_cut(c, ev);
		err = hangdx_evidence_merge(ev, c->ev2);
		if (c->ev2->limit_warned)
			ev->limit_warned = true;
	}
	for (i = 0; i < 2; i++)
		if (c->w[i].job)
			worker_free(&c->w[i]);
	hangdx_evidence_free(c->ev2);
	return err;
}

static int job_init(struct job *j, struct hangdx_evidence *ev,
		    const struct hangdx_ingest_opts *opts)
{
	memset(j, 0, sizeof *j);
	j->ctx = ev->ctx;
	job_limits(j, opts);
	if (opts && opts->max_records)
		ev->maxrec = opts->max_records;
	if (opts) {
		j->progress = opts->progress;
		j->progress_ud = opts->progress_ud;
		j->given_roots = opts->roots && opts->nroots;
	}
	if (pthread_mutex_init(&j->lock, NULL) != 0)
		return HANGDX_ENOMEM;
	if (pthread_cond_init(&j->more, NULL) != 0) {
		pthread_mutex_destroy(&j->lock);
		return HANGDX_ENOMEM;
	}
	return HANGDX_OK;
}

static int job_finish(struct job *j, int err)
{
	job_free(j);
	if (err)
		return err;
	return j->inputs_ok ? HANGDX_OK : HANGDX_ENOTFOUND;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

static int cached_paths(struct hangdx_evidence *ev, const char *const *paths,
			size_t n, const struct hangdx_ingest_opts *opts);

/*
 * Several inputs or a directory: two workers read while this thread walks
 * the directories (a tree of 100,000 files costs its walk only once).  One
 * file: one worker, and a compressed one is pipelined (decompression on a
 * helper thread).
 */
int hangdx_ingest_paths(struct hangdx_evidence *ev, const char *const *paths,
			size_t n, const struct hangdx_ingest_opts *opts)
{
	int threads = opts ? opts->threads : 0;
	struct crew c;
	struct job j;
	size_t i;
	int err;

	if (!ev || (n && !paths))
		return HANGDX_EINVAL;
	if (opts && opts->cache)
		return cached_paths(ev, paths, n, opts);
	err = job_init(&j, ev, opts);
	if (err)
		return err;
	for (i = 0; j.given_roots && i < opts->nroots && !err; i++)
		err = hx_ev_add_root(ev, opts->roots[i]);
	if (err) {
		job_free(&j);
		return err;
	}
	j.walking = true;
	err = crew_start(&j, ev, &c, threads != 1 &&
			 (n > 1 || (n == 1 && is_dir(paths[0]))) ? 2 : 1);
	for (i = 0; i < n && !err; i++) {
		ev->c.inputs++;
		err = add_path(&j, ev, paths[i]);
	}
	if (c.nw == 1)          /* a second worker would be reading it */
		j.pipeline = threads != 1 && j.ntask == 1 &&
			     task_compressed(&j.tasks[0]);
	return job_finish(&j, crew_finish(&j, ev, &c, err));
}

/*
 * ---- a growing file read on from where the last reading stopped ----
 * The reader as it stood after the last byte read (its line being carried,
 * the hard wrap being joined, the kernel runs being held: what its buffers
 * held) and the evidence then, before the file's end was read into it.
 * The next reading of the file, grown, goes on from there and ends a copy;
 * what it gives is what a reading of the whole file gives.
 */
#define LIVE_EDGE 64            /* bytes compared at each end of what was read */

struct live {
	struct hx_reader r;     /* its pointers are set again on resuming */
	struct hangdx_evidence *ev;
	char *carry, *join;     /* r.ncarry, r.njoin bytes */
	struct hx_rawline *held;        /* each slot's nheld lines in slot order */
	size_t used;            /* the record budget then */
	bool warned;
	dev_t dev;
	ino_t ino;
	uint64_t size;          /* bytes read */
	unsigned char edge[2][LIVE_EDGE];       /* the first, the last read */
	size_t nedge[2];
};

static void live_free(struct hangdx_ctx *ctx, struct live *l)
{
	if (!l)
		return;
	hangdx_evidence_free(l->ev);
	hx_free(ctx, l->carry);
	hx_free(ctx, l->join);
	hx_free(ctx, l->held);
	hx_free(ctx, l);
}

static size_t held_count(const struct hx_reader *r)
{
	size_t i, n = 0;

	for (i = 0; i < HX_KRUN_SLOTS; i++)
		n += r->krun[i].nheld;
	return n;
}

static char *dup_bytes(struct hangdx_ctx *ctx, const void *s, size_t n,
		       int *err)
{
	char *p;

	if (!n)
		return NULL;
	p = hx_alloc(ctx, n);
	if (!p)
		*err = HANGDX_ENOMEM;
	else
		memcpy(p, s, n);
	return p;
}

/* The file's first and last bytes read, to know it again. */
static bool live_edges(int fd, uint64_t size,
		       unsigned char edge[2][LIVE_EDGE], size_t nedge[2])
{
	nedge[0] = nedge[1] = size < LIVE_EDGE ? (size_t)size : LIVE_EDGE;
	return pread(fd, edge[0], nedge[0], 0) == (ssize_t)nedge[0] &&
	       pread(fd, edge[1], nedge[1], (off_t)(size - nedge[1])) ==
	       (ssize_t)nedge[1];
}

/* Keep reader r, stopped at the end of what fd gave, in l (its evidence
 * is l->ev's or put there by the caller). */
static int live_put(struct worker *w, struct live *l,
		    const struct hx_reader *r, int fd)
{
	struct hangdx_ctx *ctx = w->job->ctx;
	struct stat st;
	off_t size = lseek(fd, 0, SEEK_CUR);
	size_t i, k = 0;
	int err = HANGDX_OK;

	if (size < 0 || fstat(fd, &st) != 0 ||
	    !live_edges(fd, (uint64_t)size, l->edge, l->nedge))
		return HANGDX_EIO;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->size = (uint64_t)size;
	l->r = *r;
	hx_free(ctx, l->carry);
	hx_free(ctx, l->join);
	hx_free(ctx, l->held);
	l->carry = dup_bytes(ctx, r->carry, r->skipping ? 0 : r->ncarry, &err);
	l->join = dup_bytes(ctx, r->join, r->njoin, &err);
	l->held = NULL;
	if (!err && held_count(r) &&
	    !(l->held = hx_alloc(ctx, held_count(r) * sizeof *l->held)))
		err = HANGDX_ENOMEM;
	for (i = 0; !err && l->held && i < HX_KRUN_SLOTS; i++) {
		memcpy(l->held + k, r->held + HX_HELD_PER_SLOT * i,
		       r->krun[i].nheld * sizeof *l->held);
		k += r->krun[i].nheld;
	}
	l->used = atomic_load(&w->job->budget.used);
	l->warned = atomic_load(&w->job->budget.warned);
	return err;
}

/* A whole reading stops here too (read_text, before the end): its
 * reader and a copy of its evidence go to w->keep. */
static int live_begin(struct worker *w, const struct hx_reader *r, int fd)
{
	struct live *l = w->keep;
	int err = live_put(w, l, r, fd);

	if (err == HANGDX_EIO)
		return HANGDX_OK;       /* not kept: read whole next time */
	if (!err)
		err = hx_ev_clone(r->ev, &l->ev);
	return err;
}

/* The job's record budget for one file read alone into ev: up to maxrec,
 * used and warned as a reading stopped before left them. */
static void budget_for(struct job *j, struct hangdx_evidence *ev,
		       size_t maxrec, size_t used, bool warned)
{
	j->budget.max = maxrec;
	atomic_store(&j->budget.used, used);
	atomic_store(&j->budget.warned, warned);
	ev->budget = &j->budget;
}

/* The reader of l, on w's buffers, reading into l->ev. */
static void live_reader(struct worker *w, const struct live *l,
			struct hx_reader *r)
{
	size_t i, k = 0;

	*r = l->r;
	r->ev = l->ev;
	r->ctx = w->job->ctx;
	r->lim = &w->job->lim;
	r->path = hx_ev_str(l->ev, r->file);
	r->pend.b.ev = l->ev;
	r->curblk = NULL;       /* these are of one line */
	r->cur = r->lastp_at = r->lastpre_ptr = NULL;
	r->carry = w->carry;
	r->join = w->join;
	r->clean = w->clean;
	r->held = w->held;
	if (r->ncarry && !r->skipping)
		memcpy(r->carry, l->carry, r->ncarry);
	if (r->njoin)
		memcpy(r->join, l->join, r->njoin);
	for (i = 0; l->held && i < HX_KRUN_SLOTS; i++) {
		memcpy(r->held + HX_HELD_PER_SLOT * i, l->held + k,
		       r->krun[i].nheld * sizeof *l->held);
		k += r->krun[i].nheld;
	}
}

/* fd is l's file, grown or as it was, with the bytes read unchanged. */
static bool live_same(const struct live *l, int fd)
{
	unsigned char edge[2][LIVE_EDGE];
	size_t nedge[2];
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       st.st_dev == l->dev && st.st_ino == l->ino &&
	       (uint64_t)st.st_size >= l->size &&
	       live_edges(fd, l->size, edge, nedge) &&
	       memcmp(edge[0], l->edge[0], nedge[0]) == 0 &&
	       memcmp(edge[1], l->edge[1], nedge[1]) == 0;
}

/*
 * Read task t on from where l stopped, into l->ev, keep the reader again,
 * then end a copy: *out, the evidence of the whole file.  *resumed false
 * (and nothing read): the file is not l's any more, or a read failed.
 */
static int live_resume(struct worker *w, const struct task *t,
		       struct live *l, size_t maxrec,
		       struct hangdx_evidence **out, bool *resumed)
{
	struct src src = { .read = fd_read };
	struct hx_reader r;
	int err = HANGDX_OK;
	ssize_t k;

	*resumed = false;
	src.fd = open(t->fspath, O_RDONLY | O_CLOEXEC);
	if (src.fd < 0)
		return HANGDX_OK;
	if (!live_same(l, src.fd) || lseek(src.fd, (off_t)l->size, SEEK_SET) < 0)
		goto close_fd;
	budget_for(w->job, l->ev, maxrec, l->used, l->warned);
	live_reader(w, l, &r);
	while (!err && (k = src.read(&src, w->buf, BUFSZ)) != 0) {
		if (k < 0)
			goto lost;      /* l->ev is past l->r now */
		err = reader_feed(&r, w->buf, (size_t)k);
	}
	if (!err)
		err = live_put(w, l, &r, src.fd);
	if (err == HANGDX_EIO)
		goto lost;
	if (!err)
		err = hx_ev_clone(l->ev, out);
	l->ev->budget = NULL;
	if (err)
		goto close_fd;
	r.ev = r.pend.b.ev = *out;
	r.path = hx_ev_str(*out, r.file);
	(*out)->budget = &w->job->budget;
	err = reader_end(&r, HX_FS_OK);
	(*out)->budget = NULL;
	*resumed = true;
	goto close_fd;
lost:
	l->ev->budget = NULL;
	hangdx_evidence_free(l->ev);
	l->ev = NULL;
close_fd:
	close(src.fd);
	return err;
}

/* ---- the cache of a reading done again (watch) ---- */

#define CACHE_MAX_FILES ((size_t)1 << 20)

#define CACHE_MAX_LIVE 256        /* growing files read on, not again */
/* A file written to in the last 5 minutes is taken to be growing: its
 * reading is kept from the first; one not written to for as long is
 * taken to have stopped (a plog rotated away): its ended copy is kept
 * instead. */
#define LIVE_RECENT_S 300

struct cent {
	char *path;             /* as displayed: the records' file name */
	struct stat st;         /* device, inode, size and times read at */
	struct hangdx_evidence *ev;
	struct live *live;      /* a file that changed: its reading stopped
				 * before the end, NULL */
	bool ok, met;           /* something in it was read; met this time */
};

struct hangdx_ingest_cache {
	struct hangdx_ctx *ctx;
	struct cent *v;
	size_t n, cap;
	struct hx_map map;      /* hash of the path -> index in v */
	size_t nlive;           /* entries with live */
	size_t read, resumed, kept;     /* files of the last reading, each way */
};

int hangdx_ingest_cache_new(struct hangdx_ctx *ctx,
			    struct hangdx_ingest_cache **out)
{
	if (!ctx || !out)
		return HANGDX_EINVAL;
	*out = hx_calloc(ctx, 1, sizeof **out);
	if (!*out)
		return HANGDX_ENOMEM;
	(*out)->ctx = ctx;
	return HANGDX_OK;
}

static void cent_free(struct hangdx_ingest_cache *c, struct cent *e)
{
	hx_free(c->ctx, e->path);
	hangdx_evidence_free(e->ev);
	if (e->live)
		c->nlive--;
	live_free(c->ctx, e->live);
}

void hangdx_ingest_cache_free(struct hangdx_ingest_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		cent_free(c, &c->v[i]);
	hx_free(c->ctx, c->v);
	hx_map_free(c->ctx, &c->map);
	hx_free(c->ctx, c);
}

void hangdx_ingest_cache_stats(const struct hangdx_ingest_cache *c,
			       size_t *read, size_t *resumed, size_t *kept)
{
	*read = c ? c->read : 0;
	*resumed = c ? c->resumed : 0;
	*kept = c ? c->kept : 0;
}

static uint64_t cache_key(const char *path)
{
	return hx_map_key(hx_hash(path, strlen(path)));
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The files this reading did not meet leave the cache; the map is made
 * again for those left. */
static int cache_sweep(struct hangdx_ingest_cache *c)
{
	size_t i, k = 0;
	int err = HANGDX_OK;

	for (i = 0; i < c->n; i++) {
		if (c->v[i].met) {
			c->v[i].met = false;
			c->v[k++] = c->v[i];
		} else {
			cent_free(c, &c->v[i]);
		}
	}
	c->n = k;
	hx_map_free(c->ctx, &c->map);
	for (i = 0; i < c->n && !err; i++) {
		struct hx_map_slot *s = hx_map_slot(c->ctx, &c->map,
						    cache_key(c->v[i].path), &err);

		if (s && s->val < 0)
			s->val = (int32_t)i;
	}
	if (err) {              /* no map: the next reading reads them all */
		for (i = 0; i < c->n; i++)
			cent_free(c, &c->v[i]);
		c->n = 0;
		hx_map_free(c->ctx, &c->map);
	}
	return err;
}

/* One task read alone into a new evidence, the ceiling its own. */
static int read_alone(struct worker *w, const struct task *t, size_t maxrec,
		      struct hangdx_evidence **out, bool *ok)
{
	struct job *j = w->job;
	uint64_t before = w->ok;
	struct task copy = *t;
	int err = hangdx_evidence_new(j->ctx, out);

	if (err)
		return err;
	(*out)->maxrec = maxrec;
	budget_for(j, *out, maxrec, 0, false);
	w->ev = *out;
	err = run_task(w, &copy);
	(*out)->budget = NULL;
	*ok = w->ok > before;
	return err;
}

/* Written to in the last LIVE_RECENT_S seconds. */
static bool recent(const struct stat *st)
{
	return st->st_mtim.tv_sec >= time(NULL) - LIVE_RECENT_S;
}

/* A file read on (e->live), grown or as it was: its copy ended is the
 * caller's (*own; the cache keeps the reading, not its end), or, when it
 * has not changed for LIVE_RECENT_S, the cache's in place of the reading.
 * *done false: it is to be read whole (the reading is dropped). */
static int cache_live(struct hangdx_ingest_cache *c, struct worker *w,
		      const struct task *t, struct cent *e,
		      const struct stat *st, size_t maxrec,
		      struct hangdx_evidence **out, bool *ok, bool *own,
		      bool *done)
{
	bool same = same_file(&e->st, st);
	int err = live_resume(w, t, e->live, maxrec, out, done);

	if (*done) {
		if (same)
			c->kept++;
		else
			c->resumed++;
		e->st = *st;
		e->ok = *ok = true;
		e->met = true;
		if (err || !same || recent(st))
			return err;
		e->ev = *out;   /* it stopped growing: its end is kept */
		*own = false;
	}
	live_free(c->ctx, e->live);
	e->live = NULL;
	c->nlive--;
	return err;
}

/* What a whole reading of task t gave (ev, and its reading l kept before
 * the end, or NULL) into the cache: into e, or a new entry when e is
 * NULL and there is room.  *own: ev is still the caller's. */
static void cache_keep(struct hangdx_ingest_cache *c, struct hx_map_slot *s,
		       struct cent *e, const struct task *t,
		       const struct stat *st, struct live *l,
		       struct hangdx_evidence *ev, bool ok, bool *own)
{
	if (!e && s->val < 0 && c->n < CACHE_MAX_FILES) {
		void *v = c->v;
		char *path = hx_strdup(c->ctx, t->display);

		if (!path || hx_vec_reserve(c->ctx, &v, &c->cap, c->n + 1,
					    sizeof *c->v, CACHE_MAX_FILES)) {
			hx_free(c->ctx, path);
			live_free(c->ctx, l);
			return;         /* read, not kept */
		}
		c->v = v;
		s->val = (int32_t)c->n;
		e = &c->v[c->n++];
		memset(e, 0, sizeof *e);
		e->path = path;
	}
	if (!e) {               /* a hash another path holds */
		live_free(c->ctx, l);
		return;
	}
	hangdx_evidence_free(e->ev);
	e->st = *st;
	e->live = l;
	c->nlive += l != NULL;
	e->ev = l ? NULL : ev;  /* read on: a copy ended each time */
	e->ok = ok;
	e->met = true;
	*own = l != NULL;
}

/* The evidence of task t: the cache's when the file is as it was read,
 * else read now (and kept, a regular file).  *own: the caller frees it. */
static int cache_task(struct hangdx_ingest_cache *c, struct worker *w,
		      const struct task *t, size_t maxrec,
		      struct hangdx_evidence **out, bool *ok, bool *own)
{
	struct hx_map_slot *s = NULL;
	struct stat st;
	struct cent *e = NULL;
	struct live *l;
	int err = HANGDX_OK;

	*own = true;
	if (t->fspath && stat(t->fspath, &st) == 0 && S_ISREG(st.st_mode))
		s = hx_map_slot(c->ctx, &c->map, cache_key(t->display), &err);
	if (err)
		return err;
	if (s && s->val >= 0 && strcmp(c->v[s->val].path, t->display) == 0)
		e = &c->v[s->val];
	if (e && !e->met && e->live) {
		bool done;

		err = cache_live(c, w, t, e, &st, maxrec, out, ok, own, &done);
		if (done || err)
			return err;
	}
	if (e && !e->met && e->ev && same_file(&e->st, &st)) {
		e->met = true;
		c->kept++;
		*out = e->ev;
		*ok = e->ok;
		*own = false;
		return HANGDX_OK;
	}
	/* a file that changed since it was read, or is being written to:
	 * the reading is kept */
	if (s && !(e && e->met) && (e || recent(&st)) &&
	    c->nlive < CACHE_MAX_LIVE)
		w->keep = hx_calloc(c->ctx, 1, sizeof *w->keep);
	c->read++;
	err = read_alone(w, t, maxrec, out, ok);
	l = w->keep;
	w->keep = NULL;
	if (err || !s || (e && e->met)) {
		live_free(c->ctx, l);
		return err;     /* not kept: no stat, or a path met twice */
	}
	if (l && !l->ev) {      /* read to its end: nothing to read on */
		live_free(c->ctx, l);
		l = NULL;
	}
	cache_keep(c, s, e, t, &st, l, *out, *ok, own);
	return HANGDX_OK;
}

/* One file's evidence into dst (it is freed at once when it is not the
 * cache's), unless with the files before it (*total records) it would
 * pass the ceiling (room records more) or was cut itself: *over. */
static int cache_merge(struct hangdx_evidence *dst, struct hangdx_evidence *ev,
		       bool own, size_t room, size_t *total, int *over)
{
	int err = HANGDX_OK;

	*total += ev->nrec;
	if (ev->c.skipped[HX_S_RECORDS] || *total > room)
		*over = 1;
	if (!*over)
		err = hangdx_evidence_merge(dst, ev);
	if (own)
		hangdx_evidence_free(ev);
	return err;
}

/* The walk, then each file on this thread, from the cache or read alone,
 * merged in walk order into tmp as it comes (the reading's roots, inputs
 * and skipped files too); *over as cache_merge. */
static int cached_read(struct hangdx_evidence *tmp, size_t room,
		       const char *const *paths, size_t n,
		       const struct hangdx_ingest_opts *opts, int *over)
{
	struct hangdx_ingest_cache *c = opts->cache;
	struct worker w;
	struct job j;
	size_t i, total = 0;
	int err;
	bool ok = false;

	memset(&w, 0, sizeof w);
	err = job_init(&j, tmp, opts);
	if (err)
		return err;
	for (i = 0; j.given_roots && i < opts->nroots && !err; i++)
		err = hx_ev_add_root(tmp, opts->roots[i]);
	for (i = 0; i < n && !err; i++) {
		tmp->c.inputs++;
		err = add_path(&j, tmp, paths[i]);
	}
	c->read = c->resumed = c->kept = 0;
	if (!err)
		err = worker_init(&w, &j, tmp);
	*over = 0;
	for (i = 0; i < j.ntask && !err; i++) {
		struct hangdx_evidence *part = NULL;
		bool own = true;

		err = cache_task(c, &w, &j.tasks[i], tmp->maxrec, &part, &ok,
				 &own);
		j.inputs_ok += ok;
		if (!err)
			err = cache_merge(tmp, part, own, room, &total, over);
		else if (own)
			hangdx_evidence_free(part);
	}
	if (w.job)
		worker_free(&w);
	if (cache_sweep(c) && !err)     /* also after a failure: met again */
		err = HANGDX_ENOMEM;
	return job_finish(&j, err);
}

/* hangdx_ingest_paths with opts->cache.  Over the ceiling, the files are
 * read again as without it, so that the ceiling cuts where it would. */
static int cached_paths(struct hangdx_evidence *ev, const char *const *paths,
			size_t n, const struct hangdx_ingest_opts *opts)
{
	struct hangdx_ingest_opts plain = *opts;
	struct hangdx_evidence *tmp;
	size_t maxrec = opts->max_records ? opts->max_records : ev->maxrec;
	int err = hangdx_evidence_new(ev->ctx, &tmp), over = 0;

	if (err)
		return err;
	tmp->maxrec = maxrec;
	err = cached_read(tmp, maxrec > ev->nrec ? maxrec - ev->nrec : 0,
			  paths, n, opts, &over);
	if (over) {
		hangdx_evidence_free(tmp);
		plain.cache = NULL;
		plain.threads = 1;
		return hangdx_ingest_paths(ev, paths, n, &plain);
	}
	if (err == HANGDX_OK || err == HANGDX_ENOTFOUND) {
		int merr;

		ev->maxrec = maxrec;
		merr = hangdx_evidence_merge(ev, tmp);
		if (merr)
			err = merr;
	}
	hangdx_evidence_free(tmp);
	return err;
}

int hangdx_ingest_path(struct hangdx_evidence *ev, const char *path,
		       const struct hangdx_ingest_opts *opts)
{
	return hangdx_ingest_paths(ev, &path, 1, opts);
}

int hangdx_ingest_mem(struct hangdx_evidence *ev, const char *name,
		      const void *data, size_t len,
		      const struct hangdx_ingest_opts *opts)
{
	struct crew c;
	struct job j;
	int err;

	if (!ev || !name || (len && !data))
		return HANGDX_EINVAL;
	err = job_init(&j, ev, opts);
	if (err)
		return err;
	ev->c.inputs++;
	j.walking = true;
	err = crew_start(&j, ev, &c, 1);
	if (!err)
		err = hx_ev_add_root(ev, name);
	if (!err)
		err = add_task(&j, NULL, name, data ? data : "", len, false, false);
	return job_finish(&j, crew_finish(&j, ev, &c, err));
}
