/*
 * mpi.c - `diagnose --mpi` under mpirun: each process reads its share of
 * the logs and reduces it to facts; the facts meet on process 0 up a
 * binomial tree, zstd-compressed; process 0 diagnoses them and, for phase 2, broadcasts
 * the ranks whose full evidence it needs, which come back up the same
 * tree from the processes that read them.  Every wait is a poll with a
 * deadline and MPI errors return: a failure or a timeout is said on
 * stderr and aborts the job with exit status 4, never a hang.
 */
#define _GNU_SOURCE             /* fopencookie */
#include <dirent.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#include "cli.h"

#define CHUNK ((size_t)64 << 20)        /* bytes per message */
#define GATHER_MAX ((size_t)8 << 30)    /* what one process accumulates */
#define FRAME_HDR 16                    /* u64 length, u32 origin, u32 flags */
#define F_READ 1u                       /* the process could read an input */
#define F_ZSTD 2u                       /* the text is zstd-compressed */
#define ZSTD_LEVEL 3                    /* facts shrink 30 to 50 times */

enum { CMD_FETCH = 1, CMD_DONE = 2 };
enum { TAG_FACTS = 1, TAG_FETCH = 2 };

struct mpi_st {
	MPI_Comm comm;
	int me, np;
	double timeout;
	struct hangdx_facts *own;       /* its facts: what a fetch reads again */
	struct hangdx_ctx *ctx;
	int read_any;
	int round;                      /* fetches so far */
	char node[256];                 /* this process's node */
	char **tags;                    /* at 0: the key of each process's files */
};

/* A growing byte buffer of frames, with a ceiling. */
struct bytes {
	char *p;
	size_t n, cap;
};

/* ---- failing: said, then the whole job ends ---- */

static _Noreturn void fail(struct mpi_st *st, const char *what, const char *why)
{
	fprintf(stderr, _("%s diagnose: MPI process %d of %d: %s: %s\n"), cli_prog,
		st->me, st->np, what, why);
	fflush(stderr);
	MPI_Abort(st->comm, EXIT_SYSERR);
	exit(EXIT_SYSERR);
}

static void check(struct mpi_st *st, int rc, const char *what)
{
	char why[MPI_MAX_ERROR_STRING + 1];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return;
	if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS)
		len = snprintf(why, sizeof why, "MPI error %d", rc);
	why[len < 0 ? 0 : len] = '\0';
	fail(st, what, why);
}

/* ---- bounded waits ---- */

static void nap(long *ns)
{
	struct timespec ts = { 0, *ns };

	nanosleep(&ts, NULL);
	if (*ns < 5000000)
		*ns *= 2;
}

/* Wait for rq until the deadline: polled, so that a dead or stuck peer
 * ends in a message, not a hang. */
static void wait_req(struct mpi_st *st, MPI_Request *rq, const char *what)
{
	double end = MPI_Wtime() + st->timeout;
	long ns = 20000;
	char why[64];
	int done = 0;

	for (;;) {
		check(st, MPI_Test(rq, &done, MPI_STATUS_IGNORE), what);
		if (done)
			return;
		if (MPI_Wtime() > end) {
			snprintf(why, sizeof why, _("no answer after %g s"),
				 st->timeout);
			fail(st, what, why);
		}
		nap(&ns);
	}
}

/* ---- byte buffers between two processes ---- */

static void put_u64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void send_bytes(struct mpi_st *st, int to, const struct bytes *b,
		       int tag, const char *what)
{
	unsigned char len[8];
	MPI_Request rq;
	size_t off, k;

	put_u64(len, b->n);
	check(st, MPI_Isend(len, 8, MPI_BYTE, to, tag, st->comm, &rq), what);
	wait_req(st, &rq, what);
	for (off = 0; off < b->n; off += k) {
		k = b->n - off < CHUNK ? b->n - off : CHUNK;
		check(st, MPI_Isend(b->p + off, (int)k, MPI_BYTE, to, tag,
				    st->comm, &rq), what);
		wait_req(st, &rq, what);
	}
}

/* Room for n more bytes in b (ceiling GATHER_MAX); 0 or -1. */
static int reserve(struct bytes *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 65536;
	char *p;

	if (n > GATHER_MAX || b->n > GATHER_MAX - n)
		return -1;
	if (b->n + n <= b->cap)
		return 0;
	while (cap < b->n + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void recv_bytes(struct mpi_st *st, int from, struct bytes *b, int tag,
		       const char *what)
{
	unsigned char len[8];
	MPI_Request rq;
	size_t n, off, k;

	check(st, MPI_Irecv(len, 8, MPI_BYTE, from, tag, st->comm, &rq), what);
	wait_req(st, &rq, what);
	n = (size_t)get_u64(len);
	if (reserve(b, n))
		fail(st, what, _("more bytes than fit in memory here"));
	for (off = 0; off < n; off += k) {
		k = n - off < CHUNK ? n - off : CHUNK;
		check(st, MPI_Irecv(b->p + b->n + off, (int)k, MPI_BYTE, from, tag,
				    st->comm, &rq), what);
		wait_req(st, &rq, what);
	}
	b->n += n;
}

/* Every process's frames to process 0, up a binomial tree: in round k a
 * process whose bit k is set sends all it holds to the one without it
 * and is done; log2(P) rounds, no process receives more than log2(P)
 * messages.  At process 0, b holds every frame. */
static void tree_gather(struct mpi_st *st, struct bytes *b, int tag)
{
	char what[96];
	int mask;

	for (mask = 1; mask < st->np; mask <<= 1) {
		if (st->me & mask) {
			snprintf(what, sizeof what, _("sending to process %d"),
				 st->me - mask);
			send_bytes(st, st->me - mask, b, tag, what);
			b->n = 0;
			return;
		}
		if (st->me + mask < st->np) {
			snprintf(what, sizeof what, _("receiving from process %d"),
				 st->me + mask);
			recv_bytes(st, st->me + mask, b, tag, what);
		}
	}
}

/* A frame: one process's text (facts, or evidence asked for), compressed
 * when that makes it smaller. */
struct frame {
	const char *p;
	size_t n;
	int origin;
	unsigned flags;
};

static void put_frame(struct mpi_st *st, struct bytes *b, const void *p,
		      size_t n, unsigned flags)
{
	unsigned char *h;

	if (reserve(b, FRAME_HDR + n))
		fail(st, _("writing facts"), hangdx_strerror(HANGDX_ENOMEM));
	h = (unsigned char *)b->p + b->n;
	put_u64(h, n);
	put_u64(h + 8, (uint64_t)(unsigned)st->me | (uint64_t)flags << 32);
	if (n)
		memcpy(h + FRAME_HDR, p, n);
	b->n += FRAME_HDR + n;
}

/* The frame at *off of b; 0, or -1 at the end or when b is malformed. */
static int next_frame(const struct bytes *b, size_t *off, struct frame *fr)
{
	const unsigned char *h = (const unsigned char *)b->p + *off;
	uint64_t len, of;

	if (b->n - *off < FRAME_HDR)
		return -1;
	len = get_u64(h);
	of = get_u64(h + 8);
	if (len > b->n - *off - FRAME_HDR)
		return -1;
	fr->p = (const char *)h + FRAME_HDR;
	fr->n = (size_t)len;
	fr->origin = (int)(of & 0xffffffffu);
	fr->flags = (unsigned)(of >> 32);
	*off += FRAME_HDR + (size_t)len;
	return 0;
}

static void bcast(struct mpi_st *st, void *p, int n, MPI_Datatype t,
		  const char *what)
{
	MPI_Request rq;

	check(st, MPI_Ibcast(p, n, t, 0, st->comm, &rq), what);
	wait_req(st, &rq, what);
}

/* ---- which inputs this process reads ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t fnv_stat(uint64_t h, const char *name, const struct stat *st)
{
	int64_t v[4] = { (int64_t)st->st_mode, (int64_t)st->st_size,
			 (int64_t)st->st_mtim.tv_sec, (int64_t)st->st_mtim.tv_nsec };

	h = fnv(h, name, strlen(name) + 1);
	return fnv(h, v, sizeof v);
}

/* What this process sees of the PATHs: names, types, sizes and times of
 * each and of the entries of each directory. */
static uint64_t listing_hash(const struct cli_inputs *in)
{
	uint64_t h = 0xcbf29ce484222325ull;
	struct stat sb;
	size_t i, j, n;
	char **v, *full;

	for (i = 0; i < in->npaths; i++) {
		if (stat(in->paths[i], &sb) != 0) {
			h = fnv(h, "?", 2);
			continue;
		}
		h = fnv_stat(h, in->paths[i], &sb);
		if (!S_ISDIR(sb.st_mode) || cli_list_dir(in->paths[i], &v, &n) == 1)
			continue;
		for (j = 0; j < n; j++) {
			full = cli_join(in->paths[i], v[j]);
			if (full && stat(full, &sb) == 0)
				h = fnv_stat(h, v[j], &sb);
			free(full);
		}
		h = fnv(h, &n, sizeof n);      /* a cut list differs too */
		cli_free_list(v, n);
	}
	return h;
}

/* auto: the PATHs are shared out when every process sees the same
 * listing of them (a shared file system), else each reads all. */
static int decide_share(struct mpi_st *st, const struct cli_mpi_opts *o)
{
	uint64_t h, mine[2], least[2];
	MPI_Request rq;
	const char *what = _("comparing what each process sees of PATH");

	if (o->share != CLI_MPI_SHARE_AUTO)
		return o->share;
	if (st->np == 1)
		return CLI_MPI_SHARE_ALL;
	h = listing_hash(&o->in);
	mine[0] = h;
	mine[1] = ~h;
	check(st, MPI_Iallreduce(mine, least, 2, MPI_UINT64_T, MPI_MIN, st->comm,
				 &rq), what);
	wait_req(st, &rq, what);
	return least[0] == ~least[1] ? CLI_MPI_SHARE_DIRS : CLI_MPI_SHARE_ALL;
}

struct units {
	char **v;
	size_t n, cap;
	size_t seen;    /* entries counted, this process's or not */
};

/* The process that reads entry i: i mod P; from 3 processes on, process 0
 * reads none (it gathers every rank's facts and decides, and so holds
 * the most memory; the others share the reading). */
static int owner(const struct mpi_st *st, size_t i)
{
	if (st->np < 3)
		return (int)(i % (size_t)st->np);
	return 1 + (int)(i % (size_t)(st->np - 1));
}

/* Count one entry; keep it when it is this process's. */
static int unit(struct units *u, const struct mpi_st *st, const char *dir,
		const char *name)
{
	char **nv;

	if (owner(st, u->seen++) != st->me)
		return 0;
	if (u->n == u->cap) {
		u->cap = u->cap ? u->cap * 2 : 16;
		nv = realloc(u->v, u->cap * sizeof *nv);
		if (!nv)
			return -1;
		u->v = nv;
	}
	u->v[u->n] = dir ? cli_join(dir, name) : strdup(name);
	return u->v[u->n++] ? 0 : -1;
}

/* dirs: the entries of every directory PATH (sorted), and every other
 * PATH, in that order; entry i is read by process owner(i). */
static int share_dirs(const struct mpi_st *st, const struct cli_inputs *in,
		      struct units *u)
{
	size_t i, j, n;
	char **v;
	int err = 0;

	for (i = 0; i < in->npaths && !err; i++) {
		err = cli_list_dir(in->paths[i], &v, &n);
		if (err == 1) {         /* not a directory: one entry */
			err = unit(u, st, NULL, in->paths[i]);
			continue;
		}
		for (j = 0; j < n && !err; j++)
			err = unit(u, st, in->paths[i], v[j]);
		cli_free_list(v, n);
	}
	return err;
}

/* ---- phase 1: the facts of this process's share ---- */

/* Read in into a fresh evidence and add its facts to st->own: the
 * evidence is freed, so memory holds one batch of logs at a time. */
static void read_batch(struct mpi_st *st, const struct cli_mpi_opts *o,
		       const struct cli_inputs *in)
{
	struct hangdx_evidence *ev = NULL;
	int err = hangdx_evidence_new(st->ctx, &ev);

	if (!err)
		err = in->npaths ? cli_read_inputs(ev, in) : HANGDX_ENOTFOUND;
	if (err == HANGDX_ENOTFOUND) {
		hangdx_evidence_free(ev);
		return;
	}
	if (!err)
		err = hangdx_facts_add_evidence(st->own, ev, &o->dopts);
	hangdx_evidence_free(ev);
	if (err)
		fail(st, _("reading the logs"), hangdx_strerror(err));
	st->read_any = 1;
}

static void read_share(struct mpi_st *st, const struct cli_mpi_opts *o)
{
	struct cli_inputs in = o->in;
	struct units u = { NULL, 0, 0, 0 };
	size_t i, batch;

	if (hangdx_facts_new(st->ctx, &st->own))
		fail(st, _("reading the logs"), hangdx_strerror(HANGDX_ENOMEM));
	if (st->node[0] && hangdx_facts_set_node(st->own, st->node))
		fail(st, _("reading the logs"), hangdx_strerror(HANGDX_EINVAL));
	hangdx_facts_set_reading(st->own, o->in.threads, o->in.max_records);
	if (decide_share(st, o) != CLI_MPI_SHARE_DIRS) {
		read_batch(st, o, &in);
		return;
	}
	if (share_dirs(st, &o->in, &u))
		fail(st, _("listing PATH"), hangdx_strerror(HANGDX_ELIMIT));
	in.roots = o->in.paths;         /* DIR/rank-3 still names rank 3 */
	in.nroots = o->in.npaths;
	batch = o->batch && o->batch < u.n ? o->batch : u.n;
	for (i = 0; i < u.n; i += batch) {
		in.paths = (const char *const *)u.v + i;
		in.npaths = u.n - i < batch ? u.n - i : batch;
		read_batch(st, o, &in);
	}
	cli_free_list(u.v, u.n);
}

/* A FILE that zstd-compresses what is written to it into a struct bytes:
 * the text is never held whole (facts of 50,000 ranks are 200 MB). */
struct zout {
	ZSTD_CCtx *cc;
	struct bytes *b;
	int bad;
};

static int zout_push(struct zout *z, const char *p, size_t n,
		     ZSTD_EndDirective end)
{
	ZSTD_inBuffer in = { p, n, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out;

		if (reserve(z->b, ZSTD_CStreamOutSize()))
			return -1;
		out = (ZSTD_outBuffer){ z->b->p + z->b->n, ZSTD_CStreamOutSize(), 0 };
		left = ZSTD_compressStream2(z->cc, &out, &in, end);
		if (ZSTD_isError(left))
			return -1;
		z->b->n += out.pos;
	} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
	return 0;
}

static ssize_t zout_write(void *cookie, const char *p, size_t n)
{
	struct zout *z = cookie;

	if (z->bad || zout_push(z, p, n, ZSTD_e_continue)) {
		z->bad = 1;
		return -1;
	}
	return (ssize_t)n;
}

/* Text written by fn, compressed, appended to b as this process's frame. */
static void frame_of(struct mpi_st *st, struct bytes *b, const char *what,
		     int (*fn)(const void *, FILE *), const void *ud)
{
	cookie_io_functions_t io = { NULL, zout_write, NULL, NULL };
	struct bytes zb = { NULL, 0, 0 };
	struct zout z = { ZSTD_createCCtx(), &zb, 0 };
	FILE *fp = z.cc ? fopencookie(&z, "w", io) : NULL;
	int err = fp ? HANGDX_OK : HANGDX_ENOMEM;

	if (fp) {
		ZSTD_CCtx_setParameter(z.cc, ZSTD_c_compressionLevel, ZSTD_LEVEL);
		setvbuf(fp, NULL, _IOFBF, (size_t)1 << 20);
		err = fn(ud, fp);
		if (fclose(fp) != 0 && !err)
			err = HANGDX_ENOMEM;
		if (!err && (z.bad || zout_push(&z, NULL, 0, ZSTD_e_end)))
			err = HANGDX_ENOMEM;
	}
	ZSTD_freeCCtx(z.cc);
	if (err) {
		free(zb.p);
		fail(st, what, hangdx_strerror(err));
	}
	put_frame(st, b, zb.p, zb.n, (st->read_any ? F_READ : 0) | F_ZSTD);
	free(zb.p);
}

/* A FILE that reads a zstd frame's text, decompressed as it is read. */
struct zin {
	ZSTD_DCtx *dc;
	ZSTD_inBuffer in;
	int bad;
};

static ssize_t zin_read(void *cookie, char *p, size_t n)
{
	struct zin *z = cookie;
	ZSTD_outBuffer out = { p, n, 0 };

	while (!z->bad && out.pos == 0 && z->in.pos < z->in.size) {
		size_t r = ZSTD_decompressStream(z->dc, &out, &z->in);

		if (ZSTD_isError(r))
			z->bad = 1;
	}
	return z->bad ? -1 : (ssize_t)out.pos;
}

/* The text of frame fr as a stream; NULL when out of memory. */
static FILE *frame_stream(const struct frame *fr, struct zin *z)
{
	cookie_io_functions_t io = { zin_read, NULL, NULL, NULL };

	memset(z, 0, sizeof *z);
	if (!(fr->flags & F_ZSTD))
		return fr->n ? fmemopen((void *)(uintptr_t)fr->p, fr->n, "r") : NULL;
	z->dc = ZSTD_createDCtx();
	z->in = (ZSTD_inBuffer){ fr->p, fr->n, 0 };
	return z->dc ? fopencookie(z, "r", io) : NULL;
}

/* The process's facts, kept: a fetch reads the files they name again,
 * so memory holds facts, not logs. */
static int write_facts(const void *ud, FILE *fp)
{
	const struct mpi_st *st = ud;

	return hangdx_facts_write(st->own, fp);
}

/* At process 0: every frame into f; the processes that could read an
 * input. */
static int load_facts(struct mpi_st *st, const struct bytes *b,
		      struct hangdx_facts *f)
{
	struct frame fr;
	size_t off = 0;
	char name[64];
	int readers = 0, err;

	while (next_frame(b, &off, &fr) == 0) {
		struct zin z;
		FILE *fp = frame_stream(&fr, &z);

		readers += (fr.flags & F_READ) != 0;
		snprintf(name, sizeof name, "mpi-process-%d.facts", fr.origin);
		err = fp ? hangdx_facts_load_fp(f, name, fp)
			 : fr.n ? HANGDX_ENOMEM : HANGDX_EPARSE;
		if (fp)
			fclose(fp);
		if (!err && fr.origin >= 0 && fr.origin < st->np && !st->tags[fr.origin]) {
			st->tags[fr.origin] = strdup(hangdx_facts_tag(f));
			if (!st->tags[fr.origin])
				err = HANGDX_ENOMEM;
		}
		if (!err && z.bad)
			err = HANGDX_EPARSE;
		ZSTD_freeDCtx(z.dc);
		if (err)
			fail(st, _("loading the facts"), hangdx_strerror(err));
	}
	if (off != b->n)
		fail(st, _("loading the facts"), hangdx_strerror(HANGDX_EPARSE));
	fprintf(stderr, _("%s diagnose: facts of %zu ranks from %d MPI processes "
			  "(%d read logs), %zu bytes\n"), cli_prog,
		hangdx_facts_ranks(f), st->np, readers, b->n);
	return readers;
}

/* ---- phase 2: the full evidence of the ranks process 0 asks for ---- */

struct ranks_of {
	const struct mpi_st *st;
	const int32_t *ranks;
	size_t n;
};

static int write_ranks(const void *ud, FILE *fp)
{
	const struct ranks_of *w = ud;
	struct hangdx_evidence *ev = NULL;
	int err;

	if (!w->st->read_any || !w->st->own)
		return HANGDX_OK;
	err = hangdx_evidence_new(w->st->ctx, &ev);
	if (!err)
		err = hangdx_facts_fetch(w->st->own, w->ranks, w->n, ev);
	if (!err)
		err = hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_RECORDS |
						  HANGDX_EV_FILES);
	hangdx_evidence_free(ev);
	return err;
}

/* Every process's records of the ranks listed, gathered at 0. */
static void gather_ranks(struct mpi_st *st, const int32_t *ranks, size_t n,
			 struct bytes *b)
{
	struct ranks_of w = { st, ranks, n };

	b->n = 0;
	frame_of(st, b, _("writing the evidence asked for"), write_ranks, &w);
	tree_gather(st, b, TAG_FETCH + st->round++);
}

/* A process's evidence, keyed as its facts were (hangdx_facts_tag). */
static int load_tagged(struct mpi_st *st, int origin,
		       struct hangdx_evidence *into, const char *name, FILE *fp)
{
	const char *tag = origin >= 0 && origin < st->np && st->tags[origin]
			  ? st->tags[origin] : "";
	struct hangdx_evidence *ev = NULL;
	int err;

	if (!tag[0])
		return hangdx_evidence_load_fp(into, name, fp);
	err = hangdx_evidence_new(st->ctx, &ev);
	if (!err)
		err = hangdx_evidence_load_fp(ev, name, fp);
	if (!err)
		err = hangdx_evidence_tag(ev, tag);
	if (!err)
		err = hangdx_evidence_merge(into, ev);
	hangdx_evidence_free(ev);
	return err;
}

/* hangdx_fetch_fn at process 0: the order to every process, their
 * evidence back. */
static int fetch(void *ud, const int32_t *ranks, size_t n,
		 struct hangdx_evidence *into)
{
	struct mpi_st *st = ud;
	struct bytes b = { NULL, 0, 0 };
	int64_t cmd[2] = { CMD_FETCH, (int64_t)n };
	const char *what = _("sending the ranks to fetch");
	struct frame fr;
	size_t off = 0;
	char name[64];
	int err = HANGDX_OK, e;

	if (n > INT_MAX)
		return HANGDX_ELIMIT;
	bcast(st, cmd, 2, MPI_INT64_T, what);
	if (n)
		bcast(st, (void *)ranks, (int)n, MPI_INT32_T, what);
	gather_ranks(st, ranks, n, &b);
	while (next_frame(&b, &off, &fr) == 0) {
		struct zin z;
		FILE *fp;

		if (!fr.n)
			continue;
		fp = frame_stream(&fr, &z);
		snprintf(name, sizeof name, "mpi-process-%d.evidence", fr.origin);
		e = fp ? load_tagged(st, fr.origin, into, name, fp) : HANGDX_ENOMEM;
		if (fp)
			fclose(fp);
		if (!e && z.bad)
			e = HANGDX_EPARSE;
		ZSTD_freeDCtx(z.dc);
		err = err ? err : e;
	}
	free(b.p);
	return err;
}

/* The other processes: serve fetches until process 0 says done. */
static void serve(struct mpi_st *st)
{
	const char *what = _("waiting for process 0");
	struct bytes b = { NULL, 0, 0 };
	int64_t cmd[2];
	int32_t *ranks;

	for (;;) {
		bcast(st, cmd, 2, MPI_INT64_T, what);
		if (cmd[0] == CMD_DONE)
			break;
		if (cmd[0] != CMD_FETCH || cmd[1] < 0 || cmd[1] > INT_MAX)
			fail(st, what, _("unknown order"));
		ranks = malloc((size_t)cmd[1] * sizeof *ranks + 1);
		if (!ranks)
			fail(st, what, hangdx_strerror(HANGDX_ENOMEM));
		if (cmd[1])
			bcast(st, ranks, (int)cmd[1], MPI_INT32_T, what);
		gather_ranks(st, ranks, (size_t)cmd[1], &b);
		free(ranks);
	}
	free(b.p);
}

static void release(struct mpi_st *st)
{
	int64_t cmd[2] = { CMD_DONE, 0 };

	bcast(st, cmd, 2, MPI_INT64_T, _("releasing the other processes"));
}

/* ---- the run ---- */

/* Process 0: the facts met here, diagnosed; the exit code. */
static int root(struct mpi_st *st, struct hangdx_ctx *ctx, struct bytes *b,
		const struct cli_mpi_hooks *h)
{
	struct hangdx_facts *f = NULL;
	int err = hangdx_facts_new(ctx, &f), rc, readers;

	if (err)
		fail(st, _("loading the facts"), hangdx_strerror(err));
	st->tags = calloc((size_t)st->np, sizeof *st->tags);
	if (!st->tags)
		fail(st, _("loading the facts"), hangdx_strerror(HANGDX_ENOMEM));
	if (st->node[0] && hangdx_facts_set_node(f, st->node))
		fail(st, _("loading the facts"), hangdx_strerror(HANGDX_EINVAL));
	readers = load_facts(st, b, f);
	free(b->p);                     /* loaded: the bytes are not needed */
	*b = (struct bytes){ NULL, 0, 0 };
	if (readers == 0) {
		fprintf(stderr, "%s diagnose: %s\n", cli_prog,
			_("no input could be read"));
		rc = EXIT_BADINPUT;
		release(st);
	} else {
		rc = h->diagnose(h->ud, f, fetch, st);
		release(st);
	}
	MPI_Finalize();
	if (!rc)
		rc = h->report(h->ud);
	hangdx_facts_free(f);
	return rc;
}

int cli_mpi_run(struct hangdx_ctx *ctx, const struct cli_mpi_opts *o,
		const struct cli_mpi_hooks *h)
{
	struct mpi_st st;
	struct bytes b = { NULL, 0, 0 };
	int rc = 0;

	memset(&st, 0, sizeof st);
	st.ctx = ctx;
	st.timeout = o->timeout;
	st.comm = MPI_COMM_WORLD;
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "%s diagnose: %s\n", cli_prog, _("MPI_Init failed"));
		return EXIT_SYSERR;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &st.me);
	MPI_Comm_size(MPI_COMM_WORLD, &st.np);
	cli_node_name(o->node, st.node, sizeof st.node);
	read_share(&st, o);
	frame_of(&st, &b, _("writing facts"), write_facts, &st);
	hangdx_facts_shed(st.own);
	tree_gather(&st, &b, TAG_FACTS);
	if (st.me == 0) {
		rc = root(&st, ctx, &b, h);
	} else {
		serve(&st);
		MPI_Finalize();
	}
	free(b.p);
	hangdx_facts_free(st.own);
	for (int i = 0; st.tags && i < st.np; i++)
		free(st.tags[i]);
	free(st.tags);
	return rc;
}
