/*
 * test_ingest_reader.c - reading: archives and compressed files in place
 * (tar.gz, tar.zst, zip, single .gz/.zst, nested), attribution from member
 * paths, and hostile input: truncated and corrupt archives, decompression
 * bombs (size and ratio ceilings), lines longer than the ceiling across
 * chunk boundaries, NUL bytes, binary and empty files, directories with
 * symlink loops.  Each gives a diagnostic and reading goes on.  With the
 * cache of watch: the same evidence as a reading without it, files grown
 * in pieces included.
 */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

static const char plog[] =
	"[INFO] HCCL(77,p):2025-01-01-00:00:00.000.001 [op_base.cc:1] [77]Entry-HcclCommInitRootInfoInner:ranks[2], rank[1], rootinfo: host ip[1] port[1] nicDeploy[1] identifier[g], deviceLogicId[5]\n"
	"[ERROR] HCCL(77,p):2025-01-01-00:00:09.000.001 [t.cc:1] [77][TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_g].\n";

/* ---- diagnostics captured ---- */

static char g_diags[65536];

static void capture(void *ud, const struct hangdx_diag *d)
{
	size_t n = strlen(g_diags);

	(void)ud;
	snprintf(g_diags + n, sizeof g_diags - n, "%s:%lu: %s: %s\n",
		 d->file ? d->file : "-", d->line, hangdx_level_name(d->level),
		 d->msg);
}

static struct hangdx_ctx *new_ctx(void)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);

	g_diags[0] = '\0';
	hangdx_ctx_set_diag(ctx, capture, NULL);
	return ctx;
}

/* ---- archives made in memory ---- */

struct member { const char *name; const void *data; size_t len; };

static size_t make_archive(char *out, size_t cap, int format, int filter,
			   const struct member *m, size_t n)
{
	struct archive *a = archive_write_new();
	size_t used = 0, i;

	assert_int_equal(archive_write_set_format(a, format), ARCHIVE_OK);
	if (filter != ARCHIVE_FILTER_NONE)
		assert_int_equal(archive_write_add_filter(a, filter), ARCHIVE_OK);
	if (format == ARCHIVE_FORMAT_RAW)
		archive_write_set_bytes_in_last_block(a, 1);
	assert_int_equal(archive_write_open_memory(a, out, cap, &used),
			 ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, m[i].name);
		archive_entry_set_size(e, (la_int64_t)m[i].len);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		assert_int_equal(archive_write_data(a, m[i].data, m[i].len),
				 (la_ssize_t)m[i].len);
		archive_entry_free(e);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	return used;
}

static struct hangdx_evidence *ingest(struct hangdx_ctx *ctx, const char *name,
				      const void *data, size_t len,
				      const struct hangdx_ingest_opts *o,
				      int want)
{
	struct hangdx_ingest_opts def = { .threads = 1 };
	struct hangdx_evidence *ev;

	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, name, data, len, o ? o : &def),
			 want);
	return ev;
}

static const struct hx_rec *first(const struct hangdx_evidence *ev, int kind)
{
	size_t i;

	for (i = 0; i < ev->nrec; i++)
		if (ev->recs[i].kind == kind)
			return &ev->recs[i];
	fail_msg("no %s record", hx_kind_name(kind));
	return NULL;
}

static char *jsonl(const struct hangdx_evidence *ev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_int_equal(hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL), 0);
	fclose(fp);
	return buf;
}

static void check_tar(int filter, const char *name)
{
	static char buf[1 << 20];
	struct member m[2] = {
		{ "rank-1/ascend/log/debug/plog/plog-77_1.log", plog, sizeof plog - 1 },
		{ "rank-1/ascend/log/debug/device-5/device-77_1.log", "", 0 },
	};
	struct hangdx_ctx *ctx = new_ctx();
	size_t n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED,
				filter, m, 2);
	struct hangdx_evidence *ev = ingest(ctx, name, buf, n, NULL, HANGDX_OK);
	const struct hx_rec *r = first(ev, HX_K_HCCL_TASK_FAIL);
	char want[256], *s;

	snprintf(want, sizeof want, "%s!/rank-1/ascend/log/debug/plog/plog-77_1.log",
		 name);
	assert_string_equal(hx_ev_str(ev, r->file), want);
	assert_int_equal(ev->c.files, 2);
	assert_int_equal(ev->c.archives, 1);
	s = jsonl(ev);
	/* attribution from the member path: rank-1, and device 5 from init */
	assert_non_null(strstr(s, "\"rank\":1,\"rank_from\":\"path\",\"device\":5"));
	free(s);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_tar_gz(void **state)
{
	(void)state;
	check_tar(ARCHIVE_FILTER_GZIP, "logs.tar.gz");
}

static void test_tar_zst(void **state)
{
	(void)state;
	check_tar(ARCHIVE_FILTER_ZSTD, "logs.tar.zst");
}

static void test_plain_tar(void **state)
{
	(void)state;
	check_tar(ARCHIVE_FILTER_NONE, "logs.tar");
}

static void test_zip(void **state)
{
	static char buf[1 << 20];
	struct member m = { "node-3/plog-77_1.log", plog, sizeof plog - 1 };
	struct hangdx_ctx *ctx = new_ctx();
	size_t n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_ZIP,
				ARCHIVE_FILTER_NONE, &m, 1);
	struct hangdx_evidence *ev = ingest(ctx, "b.zip", buf, n, NULL, HANGDX_OK);
	const struct hx_rec *r = first(ev, HX_K_HCCL_TASK_FAIL);

	(void)state;
	assert_string_equal(hx_ev_str(ev, r->file), "b.zip!/node-3/plog-77_1.log");
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void check_single(int filter, const char *name)
{
	static char buf[1 << 20];
	struct member m = { "data", plog, sizeof plog - 1 };
	struct hangdx_ctx *ctx = new_ctx();
	size_t n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_RAW, filter,
				&m, 1);
	struct hangdx_evidence *ev = ingest(ctx, name, buf, n, NULL, HANGDX_OK);
	const struct hx_rec *r = first(ev, HX_K_HCCL_TASK_FAIL);

	/* a compressed file is named as itself, not as a member */
	assert_string_equal(hx_ev_str(ev, r->file), name);
	assert_int_equal(r->line, 2);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_single_gz(void **state)
{
	(void)state;
	check_single(ARCHIVE_FILTER_GZIP, "plog-77_1.log.gz");
}

static void test_single_zst(void **state)
{
	(void)state;
	check_single(ARCHIVE_FILTER_ZSTD, "plog-77_1.log.zst");
}

static void test_nested(void **state)
{
	static char inner[1 << 16], outer[1 << 17];
	struct member mi = { "data", plog, sizeof plog - 1 }, mo;
	struct hangdx_ctx *ctx = new_ctx();
	size_t ni = make_archive(inner, sizeof inner, ARCHIVE_FORMAT_RAW,
				 ARCHIVE_FILTER_GZIP, &mi, 1), no;
	struct hangdx_evidence *ev;
	const struct hx_rec *r;

	(void)state;
	mo.name = "worker-2/plog-77_1.log.gz";
	mo.data = inner;
	mo.len = ni;
	no = make_archive(outer, sizeof outer, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED,
			  ARCHIVE_FILTER_GZIP, &mo, 1);
	ev = ingest(ctx, "all.tgz", outer, no, NULL, HANGDX_OK);
	r = first(ev, HX_K_HCCL_TASK_FAIL);
	assert_string_equal(hx_ev_str(ev, r->file),
			    "all.tgz!/worker-2/plog-77_1.log.gz");
	assert_int_equal(ev->c.archives, 2);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_truncated_archive(void **state)
{
	static char buf[1 << 20], big[300000];
	struct member m[2];
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev;
	size_t n, i;

	(void)state;
	for (i = 0; i + sizeof plog - 1 <= sizeof big; i += sizeof plog - 1)
		memcpy(big + i, plog, sizeof plog - 1);
	m[0].name = "a/plog-1_1.log";
	m[0].data = big;
	m[0].len = i;
	m[1].name = "b/plog-2_1.log";
	m[1].data = plog;
	m[1].len = sizeof plog - 1;
	/* a fast, poorly compressible mix keeps the cut inside member a */
	n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED,
			 ARCHIVE_FILTER_GZIP, m, 2);
	ev = ingest(ctx, "cut.tar.gz", buf, n / 2, NULL, HANGDX_OK);
	assert_non_null(strstr(g_diags, "cut.tar.gz!/a/plog-1_1.log"));
	assert_true(ev->c.skipped[HX_S_TRUNCATED] >= 1);
	assert_true(ev->nrec > 0);          /* what came before the cut */
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_corrupt_archive(void **state)
{
	static const char junk[] = "\x1f\x8b\x08\x00garbage that is not deflate at all";
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev;

	(void)state;
	ev = ingest(ctx, "bad.gz", junk, sizeof junk - 1, NULL, HANGDX_ENOTFOUND);
	assert_non_null(strstr(g_diags, "bad.gz"));
	assert_non_null(strstr(g_diags, "error"));
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Text that compresses without end: short lines of one letter. */
static char *text_bomb(size_t len)
{
	char *s = malloc(len);
	size_t i;

	memset(s, 'a', len);
	for (i = 99; i < len; i += 100)
		s[i] = '\n';
	return s;
}

static void test_bomb_size(void **state)
{
	static char buf[1 << 20];
	struct hangdx_ingest_opts o = { .threads = 1, .max_member = 1 << 20 };
	size_t len = 8u << 20;
	char *zeros = text_bomb(len);
	struct member m = { "data", zeros, len };
	struct hangdx_ctx *ctx = new_ctx();
	size_t n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_RAW,
				ARCHIVE_FILTER_GZIP, &m, 1);
	struct hangdx_evidence *ev = ingest(ctx, "z.gz", buf, n, &o, HANGDX_OK);

	(void)state;
	assert_non_null(strstr(g_diags, "z.gz:0: error: uncompressed size over the ceiling"));
	assert_int_equal(ev->c.skipped[HX_S_LIMIT], 1);
	assert_int_equal(ev->c.bytes, 1u << 20);       /* up to the ceiling */
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	free(zeros);
}

static void test_bomb_ratio(void **state)
{
	static char buf[1 << 20];
	struct hangdx_ingest_opts o = { .threads = 1, .max_ratio = 100,
					.max_member = 8u << 20 };
	size_t len = 16u << 20;
	char *zeros = text_bomb(len);
	struct member m = { "data", zeros, len };
	struct hangdx_ctx *ctx = new_ctx();
	size_t n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_RAW,
				ARCHIVE_FILTER_ZSTD, &m, 1);
	struct hangdx_evidence *ev = ingest(ctx, "z.zst", buf, n, &o, HANGDX_OK);

	(void)state;
	assert_non_null(strstr(g_diags, "decompression ratio over 100:1"));
	assert_true(ev->c.bytes < len);
	hangdx_evidence_free(ev);
	/* zeros: an end-of-archive tar block, so no file at all */
	memset(zeros, 0, len);
	n = make_archive(buf, sizeof buf, ARCHIVE_FORMAT_RAW, ARCHIVE_FILTER_ZSTD,
			 &m, 1);
	ev = ingest(ctx, "zeros.zst", buf, n, &o, HANGDX_ENOTFOUND);
	assert_non_null(strstr(g_diags, "zeros.zst:0: warning: no file in this archive"));
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	free(zeros);
}

static void test_long_line(void **state)
{
	struct hangdx_ingest_opts o = { .threads = 1, .max_line = 4096 };
	size_t big = 3u << 20, n;
	char *text = malloc(big + 1024);
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev;
	const struct hx_rec *r;

	(void)state;
	memcpy(text, "[ERROR] HCCL(1,p):", 18);
	memset(text + 18, 'x', big - 19);
	text[big - 1] = '\n';
	n = big + (size_t)snprintf(text + big, 1024, "%s", plog);
	ev = ingest(ctx, "long.log", text, n, &o, HANGDX_OK);
	assert_int_equal(ev->c.skipped[HX_S_TOO_LONG], 1);
	assert_non_null(strstr(g_diags, "long.log:1: warning: line longer than 4096 bytes"));
	r = first(ev, HX_K_HCCL_TASK_FAIL);
	assert_int_equal(r->line, 3);            /* numbering goes on */
	assert_int_equal(r->off, big + strlen(plog) - strlen(strchr(plog, '\n') + 1));
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
	free(text);
}

static void test_nul_binary_empty(void **state)
{
	static const char nul[] = "[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [t.cc:1] [1]Task run \0failed\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.001 [t.cc:1] [1]a little more text so that one NUL is under 1%\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.001 [t.cc:1] [1]a little more text so that one NUL is under 1%\n";
	static const unsigned char png[64] = { 0x89, 'P', 'N', 'G', 0x0d, 0x0a,
					       0x1a, 0x0a, 0, 0, 0, 0x0d };
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev;

	(void)state;
	ev = ingest(ctx, "nul.log", nul, sizeof nul - 1, NULL, HANGDX_OK);
	assert_int_equal(ev->c.skipped[HX_S_NUL], 1);
	assert_non_null(strstr(g_diags, "nul.log:1: warning: NUL bytes"));
	hangdx_evidence_free(ev);
	ev = ingest(ctx, "x.png", png, sizeof png, NULL, HANGDX_ENOTFOUND);
	assert_int_equal(ev->c.skipped[HX_S_BINARY], 1);
	assert_non_null(strstr(g_diags, "x.png:0: warning: binary file skipped"));
	hangdx_evidence_free(ev);
	ev = ingest(ctx, "empty.log", "", 0, NULL, HANGDX_OK);
	assert_non_null(strstr(g_diags, "empty.log:0: note: empty file"));
	assert_int_equal(ev->files[0].status, HX_FS_EMPTY);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_directory_loop(void **state)
{
	char dir[] = "/tmp/hx-reader-XXXXXX", p[512];
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev;
	const char *paths[1];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof p, "%s/rank-0", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/rank-0/plog-77_1.log", dir);
	write_file(p, plog);
	snprintf(p, sizeof p, "%s/rank-0/loop", dir);
	assert_int_equal(symlink("..", p), 0);
	snprintf(p, sizeof p, "%s/dangling", dir);
	assert_int_equal(symlink("nowhere", p), 0);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	paths[0] = dir;
	assert_int_equal(hangdx_ingest_paths(ev, paths, 1, NULL), HANGDX_OK);
	assert_non_null(strstr(g_diags, "symlink loop"));
	assert_non_null(strstr(g_diags, "dangling:0: warning: cannot stat"));
	assert_int_equal(ev->c.files, 1);        /* read once */
	hangdx_evidence_free(ev);
	/* a path that does not exist, next to one that does */
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	snprintf(p, sizeof p, "%s/rank-0/plog-77_1.log", dir);
	{
		const char *two[2] = { "/nonexistent/x.log", p };

		assert_int_equal(hangdx_ingest_paths(ev, two, 2, NULL), HANGDX_OK);
		assert_int_equal(hangdx_ingest_paths(ev, two, 1, NULL),
				 HANGDX_ENOTFOUND);
	}
	assert_non_null(strstr(g_diags, "/nonexistent/x.log:0: error: cannot open"));
	hangdx_evidence_free(ev);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	hangdx_ctx_free(ctx);
}

/* Attribution from the path: node directories in their spellings, and
 * names that only look like them. */
static void test_path_nodes(void **state)
{
	static const struct { const char *path, *node; } cases[] = {
		{ "jobs/worker-1/debug/plog/plog-1_2.log", "jobs/worker-1" },
		{ "node_7/run/plog/plog-1_2.log", "node_7" },
		{ "host-12/plog-1_2.log", "host-12" },
		{ "server_3.example/plog-1_2.log", "server_3.example" },
		{ "node01/plog-1_2.log", "node01" },
		{ "w_4/plog-1_2.log", "w_4" },
		{ "logs/10.0.0.12/debug/plog-1_2.log", "logs/10.0.0.12" },
		{ "192.168.1.7_ascend/plog-1_2.log", "192.168.1.7_ascend" },
		{ "nodes2020/plog-1_2.log", "" },
		{ "workerpool/plog-1_2.log", "" },
		{ "300.1.1.1/plog-1_2.log", "" },
		{ "10.0.0/plog-1_2.log", "" },
		{ "v1.2.3.4x/plog-1_2.log", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hx_pathattr pa;

		hx_path_attr(cases[i].path, &pa);
		if (strcmp(pa.node, cases[i].node) != 0)
			fail_msg("%s: node '%s', want '%s'", cases[i].path,
				 pa.node, cases[i].node);
		assert_int_equal(pa.pid, 1);
	}
}

/* A CANN log's own name inside a longer one that a copy gave it: the pid
 * after a separator, with the file's start time; not a name that only
 * holds the word. */
static void test_path_inner_names(void **state)
{
	static const struct { const char *path; int64_t pid; bool dev; } cases[] = {
		{ "flat/rank-0-device-0-device-4242_20251103100005000.log", 4242, true },
		{ "flat/node3_plog-77_20251103100005000.log", 77, false },
		{ "flat/a.plog-9_20251103.log", 9, false },
		{ "flat/myplog-77_20251103100005000.log", -1, false },
		{ "flat/x-plog-77.log", -1, false },
		{ "flat/x-device-5_12.log", -1, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hx_pathattr pa;

		hx_path_attr(cases[i].path, &pa);
		if (pa.pid != cases[i].pid || pa.device_log != cases[i].dev)
			fail_msg("%s: pid %lld device log %d", cases[i].path,
				 (long long)pa.pid, pa.device_log);
	}
}

/* A rank from the path: only below the input root (its first skip
 * bytes), only as a whole name. */
static void test_path_ranks(void **state)
{
	static const struct { const char *path, *root; int64_t rank, pid; } cases[] = {
		{ "/tmp/exp_rank64/host-1/plog-5_1.log", "/tmp/exp_rank64", -1, 5 },
		{ "/tmp/exp_rank64/rank-3/plog-5_1.log", "/tmp/exp_rank64", 3, 5 },
		{ "bundle-rank7.tar.gz!/host-0/plog-1_2.log", "bundle-rank7.tar.gz", -1, 1 },
		{ "rank7.tar.gz!/x/plog-1_2.log", "rank7.tar.gz", -1, 1 },
		{ "d/rank7.tar.gz!/x/plog-1_2.log", "d", 7, 1 },
		{ "d/worker-rank-3/plog-1_2.log", "d", -1, 1 },
		{ "d/rank_12/plog-1_2.log", "d", 12, 1 },
		{ "d/Rank4/plog-1_2.log", "d", 4, 1 },
		{ "d/logs/rank-5.log", "d", 5, -1 },
		{ "d/rank-5x/plog-1_2.log", "d", -1, 1 },
		{ "/x/rank-3/plog-9_1.log", "/x/rank-3/plog-9_1.log", -1, 9 },
		{ "st/job-proc-rank-2-device-2.txt", "st", 2, -1 },
		{ "d/rank-3-plog.log", "d", 3, -1 },
		{ "d/rank_3_device.log", "d", 3, -1 },
		{ "d/rank-3-logs/plog-1_2.log", "d", 3, 1 },
		{ "d/rank-3-0.log", "d", -1, -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hx_pathattr pa;

		hx_path_attr_below(cases[i].path, strlen(cases[i].root), &pa);
		if (pa.rank != cases[i].rank || pa.pid != cases[i].pid)
			fail_msg("%s under %s: rank %lld pid %lld, want %lld %lld",
				 cases[i].path, cases[i].root, (long long)pa.rank,
				 (long long)pa.pid, (long long)cases[i].rank,
				 (long long)cases[i].pid);
	}
}

/* The input root a path lies under: the longest of them, the same rule
 * whether a few roots are given (compared one by one) or thousands (each
 * prefix looked up); a root given twice is one root. */
static void test_root_len(void **state)
{
	static const char *const roots[] = {
		"d", "d/rank-3", "e/", "b.tar.gz", "/abs/x", "dd",
	};
	static const struct { const char *path; size_t len; } cases[] = {
		{ "d/plog-1_2.log", 1 },
		{ "d/rank-3/plog-1_2.log", 8 },
		{ "d/rank-30/plog-1_2.log", 1 },
		{ "dd/x", 2 },
		{ "dx/y", 0 },
		{ "d", 1 },
		{ "e/f", 2 },
		{ "b.tar.gz!/host-0/plog-1_2.log", 9 },
		{ "b.tar.gz.old/plog-1_2.log", 0 },
		{ "/abs/x/y/z.log", 6 },
		{ "/abs/xy/z.log", 0 },
		{ "other/plog-1_2.log", 0 },
	};
	struct hangdx_ctx *ctx = new_ctx();
	size_t i, k, pad;
	char name[32];

	(void)state;
	for (pad = 0; pad <= 40; pad += 40) {
		struct hangdx_evidence *ev;

		assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
		for (k = 0; k < pad; k++) {
			snprintf(name, sizeof name, "pad/rank-%zu", k);
			assert_int_equal(hx_ev_add_root(ev, name), HANGDX_OK);
		}
		for (k = 0; k < sizeof roots / sizeof roots[0]; k++) {
			assert_int_equal(hx_ev_add_root(ev, roots[k]), HANGDX_OK);
			assert_int_equal(hx_ev_add_root(ev, roots[k]), HANGDX_OK);
		}
		assert_int_equal(ev->nroots, pad + sizeof roots / sizeof roots[0]);
		for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			int err = 0;
			uint32_t id = hx_ev_intern(ev, cases[i].path,
						   strlen(cases[i].path), &err);
			size_t got = hx_ev_root_len(ev, id);

			if (got != cases[i].len)
				fail_msg("%s with %zu roots: %zu, want %zu",
					 cases[i].path, ev->nroots, got,
					 cases[i].len);
		}
		hangdx_evidence_free(ev);
	}
	hangdx_ctx_free(ctx);
}

/* A reading of dir with *o gives what a reading on one thread gives. */
static void same_as_one_thread(struct hangdx_ctx *ctx, const char *dir,
			       const struct hangdx_ingest_opts *o)
{
	struct hangdx_ingest_opts o1 = { .threads = 1 };
	struct hangdx_evidence *a, *b;
	const char *paths[1] = { dir };
	char *sa, *sb;

	o1.max_records = o->max_records;
	assert_int_equal(hangdx_evidence_new(ctx, &a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &b), HANGDX_OK);
	assert_int_equal(hangdx_ingest_paths(a, paths, 1, &o1), HANGDX_OK);
	assert_int_equal(hangdx_ingest_paths(b, paths, 1, o), HANGDX_OK);
	sa = jsonl(a);
	sb = jsonl(b);
	assert_string_equal(sa, sb);
	assert_true(strlen(sa) > 100);
	free(sa);
	free(sb);
	hangdx_evidence_free(a);
	hangdx_evidence_free(b);
}

static void test_two_threads(void **state)
{
	char dir[] = "/tmp/hx-reader-XXXXXX", p[512];
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_ingest_opts o2 = { .threads = 2 };
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < 6; i++) {
		snprintf(p, sizeof p, "%s/plog-%d_1.log", dir, 70 + i);
		write_file(p, plog);
	}
	same_as_one_thread(ctx, dir, &o2);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	hangdx_ctx_free(ctx);
}


/* ---- a reading done again with a cache (watch) ---- */

static const char console_log[] =
	"[rank1]:[E623 17:20:44.503368705 ProcessGroupHCCL.cpp:1869] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=9, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out.\n"
	"EI0002: [PID: 77] 2025-01-01-00:00:09.000.001 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [0].\n";

/* The cached reading of dir gives what a reading without the cache gives;
 * *read and *kept files as the cache counts them. */
static void same_cached(struct hangdx_ctx *ctx, const char *dir,
			struct hangdx_ingest_cache *c, size_t max_records,
			size_t *read, size_t *kept)
{
	struct hangdx_ingest_opts oc = { .cache = c };

	oc.max_records = max_records;
	size_t resumed;

	same_as_one_thread(ctx, dir, &oc);
	hangdx_ingest_cache_stats(c, read, &resumed, kept);
	*read += resumed;
}

static void test_cache(void **state)
{
	char dir[] = "/tmp/hx-reader-XXXXXX", p[512], q[512];
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_ingest_cache *c;
	size_t read, kept;
	FILE *fp;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/rank-%d", dir, i);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof p, "%s/rank-%d/plog-%d_1.log", dir, i, 70 + i);
		write_file(p, plog);
	}
	snprintf(p, sizeof p, "%s/console.log", dir);
	write_file(p, console_log);
	snprintf(p, sizeof p, "%s/empty.log", dir);
	write_file(p, "");
	assert_int_equal(hangdx_ingest_cache_new(ctx, &c), HANGDX_OK);
	same_cached(ctx, dir, c, 0, &read, &kept);
	assert_int_equal(read, 6);
	assert_int_equal(kept, 0);
	same_cached(ctx, dir, c, 0, &read, &kept);      /* nothing changed */
	assert_int_equal(read, 0);
	assert_int_equal(kept, 6);
	snprintf(p, sizeof p, "%s/rank-2/plog-72_1.log", dir);
	fp = fopen(p, "a");                             /* a file grew */
	assert_non_null(fp);
	fputs("[ERROR] HCCL(72,p):2025-01-01-00:00:10.000.001 [t.cc:1] [72][TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[3], taskID[22], tag[AllReduce_g].\n", fp);
	fclose(fp);
	same_cached(ctx, dir, c, 0, &read, &kept);
	assert_int_equal(read, 1);
	assert_int_equal(kept, 5);
	snprintf(q, sizeof q, "%s/rank-2/plog-72_0.log", dir);
	assert_int_equal(rename(p, q), 0);              /* rotated: a new name */
	write_file(p, plog);
	snprintf(p, sizeof p, "%s/rank-3/plog-73_1.log", dir);
	assert_int_equal(unlink(p), 0);                 /* a file gone */
	same_cached(ctx, dir, c, 0, &read, &kept);
	assert_int_equal(read, 2);
	assert_int_equal(kept, 4);
	same_cached(ctx, dir, c, 3, &read, &kept);      /* past the ceiling */
	same_cached(ctx, dir, c, 0, &read, &kept);
	assert_int_equal(read, 0);
	/* a real collection (the peer's fixtures: host plogs, device logs,
	 * run and debug trees of several workers), filled then all kept */
	same_cached(ctx, "tests/data/peer/ascend-fd", c, 0, &read, &kept);
	assert_true(read > 100);
	same_cached(ctx, "tests/data/peer/ascend-fd", c, 0, &read, &kept);
	assert_int_equal(read, 0);
	assert_true(kept > 100);
	hangdx_ingest_cache_free(c);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	hangdx_ctx_free(ctx);
}

/* One cached reading of dir, checked against a plain one; the files it
 * read whole, read on and took as they were. */
static void cached3(struct hangdx_ctx *ctx, const char *dir,
		    struct hangdx_ingest_cache *c, size_t want_read,
		    size_t want_resumed, size_t want_kept)
{
	struct hangdx_ingest_opts oc = { .cache = c };
	size_t read, resumed, kept;

	same_as_one_thread(ctx, dir, &oc);
	hangdx_ingest_cache_stats(c, &read, &resumed, &kept);
	assert_int_equal(read, want_read);
	assert_int_equal(resumed, want_resumed);
	assert_int_equal(kept, want_kept);
}

/* A file written to recently is read on from its first change; one left
 * alone for five minutes is kept as it ended, and read whole when it
 * changes again. */
static void test_cache_age(void **state)
{
	char dir[] = "/tmp/hx-reader-XXXXXX", p[512];
	struct timespec old[2] = { { 0, 0 }, { 0, 0 } };
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_ingest_cache *c;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof p, "%s/plog-72_1.log", dir);
	write_file(p, plog);
	assert_int_equal(hangdx_ingest_cache_new(ctx, &c), HANGDX_OK);
	cached3(ctx, dir, c, 1, 0, 0);
	fp = fopen(p, "a");
	assert_non_null(fp);
	fputs(console_log, fp);
	fclose(fp);
	cached3(ctx, dir, c, 0, 1, 0);          /* read on at once */
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 3600;
	assert_int_equal(utimensat(AT_FDCWD, p, old, 0), 0);
	cached3(ctx, dir, c, 0, 1, 0);          /* its times changed */
	cached3(ctx, dir, c, 0, 0, 1);          /* an hour old: kept ended */
	cached3(ctx, dir, c, 0, 0, 1);
	fp = fopen(p, "a");
	assert_non_null(fp);
	fputs(console_log, fp);
	fclose(fp);
	cached3(ctx, dir, c, 1, 0, 0);          /* written again: whole */
	fp = fopen(p, "a");
	assert_non_null(fp);
	fputs(plog, fp);
	fclose(fp);
	cached3(ctx, dir, c, 0, 1, 0);
	hangdx_ingest_cache_free(c);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	hangdx_ctx_free(ctx);
}

/*
 * A file that grows (watch): every text file of the repository's corpora
 * written in pieces cut at places a writer could leave them (mid-line
 * too), each piece appended and the whole read with the cache, then
 * without: the same evidence each time.  From the third reading on the
 * cache reads on from where it stopped.
 */
struct grow {
	struct hangdx_ctx *ctx;
	struct hangdx_ingest_cache *c;
	char dir[64];
	size_t files, resumed;
	char *buf;
};

static struct grow *g_grow;

static void grow_append(const char *path, const char *s, size_t n)
{
	FILE *fp = fopen(path, "ab");

	assert_non_null(fp);
	assert_int_equal(fwrite(s, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

static void grow_compare(struct grow *g)
{
	struct hangdx_ingest_opts oc = { .cache = g->c };
	struct hangdx_ingest_opts o1 = { .threads = 1 };
	struct hangdx_evidence *a, *b;
	const char *paths[1] = { g->dir };
	size_t read, resumed, kept;
	char *sa, *sb;

	assert_int_equal(hangdx_evidence_new(g->ctx, &a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(g->ctx, &b), HANGDX_OK);
	assert_int_equal(hangdx_ingest_paths(a, paths, 1, &o1), HANGDX_OK);
	assert_int_equal(hangdx_ingest_paths(b, paths, 1, &oc), HANGDX_OK);
	hangdx_ingest_cache_stats(g->c, &read, &resumed, &kept);
	g->resumed += resumed;
	sa = jsonl(a);
	sb = jsonl(b);
	assert_string_equal(sa, sb);
	free(sa);
	free(sb);
	hangdx_evidence_free(a);
	hangdx_evidence_free(b);
}

/* s written in ncut pieces, each cut[i] bytes long in all, each read */
static void grow_pieces(struct grow *g, const char *s, const size_t *cut,
			size_t ncut)
{
	char path[128];
	size_t at = 0, i;

	snprintf(path, sizeof path, "%s/device-1_20250101000000000.log", g->dir);
	unlink(path);
	for (i = 0; i < ncut; i++) {
		grow_append(path, s + at, cut[i] - at);
		at = cut[i];
		grow_compare(g);
	}
	g->files++;
}

static int grow_one(const char *fpath, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct grow *g = g_grow;
	size_t n, cut[6];
	FILE *fp;

	(void)ftw;
	if (type != FTW_F || st->st_size < 64 || st->st_size > (1 << 20) ||
	    strstr(fpath, ".gz") || strstr(fpath, ".zst") ||
	    strstr(fpath, ".tar") || strstr(fpath, ".zip"))
		return 0;
	fp = fopen(fpath, "rb");
	assert_non_null(fp);
	n = fread(g->buf, 1, 1 << 20, fp);
	fclose(fp);
	/* a quarter, a line cut in two, half, a byte more, the rest */
	cut[0] = n / 4;
	cut[1] = n / 3;
	while (cut[1] < n && g->buf[cut[1]] != '\n')
		cut[1]++;
	cut[1] = cut[1] + 7 < n ? cut[1] + 7 : n;
	cut[2] = n / 2 > cut[1] ? n / 2 : cut[1];
	cut[3] = cut[2] + 1 < n ? cut[2] + 1 : n;
	cut[4] = (n * 4) / 5 > cut[3] ? (n * 4) / 5 : cut[3];
	cut[5] = n;
	grow_pieces(g, g->buf, cut, 6);
	return 0;
}

/* A healthy device log: kernel start/end pairs on three streams (held
 * and folded as they come), a start without its end now and then. */
static size_t kernel_log(char *buf, size_t cap)
{
	static const char head[] = "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:%02d.%03d.%03d [aicpu_communicator.cc:%d] [%d][HcclCommAicpu][Orchestrate]kernel %s, tag[AllReduce_g%d], index[%d], streamId:%d, %s.\n";
	size_t n = 0;
	int i, s;

	for (i = 0; i < 40; i++)
		for (s = 0; s < 3; s++) {
			n += (size_t)snprintf(buf + n, cap - n, head, i, s, 1, 2378,
					      5017 + s, "start", s, i, 5 + 3 * s, "core[0]");
			if ((i + s) % 7 == 3)
				continue;
			n += (size_t)snprintf(buf + n, cap - n, head, i, s, 9, 2561,
					      5017 + s, "end", s, i, 5 + 3 * s, "state[ok]");
		}
	return n;
}

static void grow_kernel_runs(struct grow *g)
{
	size_t n = kernel_log(g->buf, 1 << 20), cut[64], i;

	for (i = 0; i < 64; i++)
		cut[i] = i == 63 ? n : n / 64 * (i + 1) - (i % 5);
	grow_pieces(g, g->buf, cut, 64);
}

static void test_cache_grow(void **state)
{
	static const char *const trees[] = {
		"tests/field", "tests/data/samples", "tests/data/peer/ascend-fd",
	};
	struct grow g = { 0 };
	char p[160];
	size_t i, resumed;

	(void)state;
	g.ctx = new_ctx();
	g.buf = malloc(1 << 20);
	assert_non_null(g.buf);
	snprintf(g.dir, sizeof g.dir, "/tmp/hx-grow-XXXXXX");
	assert_non_null(mkdtemp(g.dir));
	assert_int_equal(hangdx_ingest_cache_new(g.ctx, &g.c), HANGDX_OK);
	g_grow = &g;
	for (i = 0; i < sizeof trees / sizeof trees[0]; i++)
		assert_int_equal(nftw(trees[i], grow_one, 16, FTW_PHYS), 0);
	assert_true(g.files > 500);
	assert_true(g.resumed >= 3 * g.files);
	grow_kernel_runs(&g);
	/* rewritten in place, longer: read whole, not read on */
	snprintf(p, sizeof p, "%s/device-1_20250101000000000.log", g.dir);
	resumed = g.resumed;
	write_file(p, plog);
	grow_append(p, plog, sizeof plog - 1);
	grow_compare(&g);
	assert_int_equal(g.resumed, resumed);
	grow_append(p, console_log, sizeof console_log - 1);
	grow_compare(&g);
	assert_int_equal(g.resumed, resumed + 1);
	hangdx_ingest_cache_free(g.c);
	snprintf(p, sizeof p, "rm -rf '%s'", g.dir);
	assert_int_equal(system(p), 0);
	free(g.buf);
	hangdx_ctx_free(g.ctx);
}

/* ---- console output as pasted (docs/EVIDENCE.md, "Console envelope") ---- */

static struct hangdx_evidence *console(struct hangdx_ctx *ctx,
				       const char *text)
{
	struct hangdx_ingest_opts o = { .threads = 1 };
	struct hangdx_evidence *ev;

	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "console.log", text,
					   strlen(text), &o), HANGDX_OK);
	return ev;
}

/* The nth record of a kind, or NULL. */
static const struct hx_rec *find(const struct hangdx_evidence *ev, int kind,
				 int nth)
{
	size_t i;

	for (i = 0; i < ev->nrec; i++)
		if (ev->recs[i].kind == kind && nth-- == 0)
			return &ev->recs[i];
	return NULL;
}

static int64_t fnum(const struct hangdx_evidence *ev, const struct hx_rec *r,
		    int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	return f ? f->num : -12345;
}

static const char *fstr(const struct hangdx_evidence *ev,
			const struct hx_rec *r, int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	return f ? hx_ev_str(ev, f->str) : "";
}

/* field/22: "EE9999: Inner Error!" then "EE9999  text" (no colon): the
 * body line's ids belong to the block; CRLF changes nothing. */
static const char field22[] =
	"[W NPUStream.cpp:382] Warning: NPU warning, error code is 107020[Error]: .\n"
	"EE9999: Inner Error!\n"
	"EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError][FILE:stream.cc][LINE:1512]\n"
	"        TraceBack (most recent call last):\n"
	"        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
	" (function npuSynchronizeUsedDevices)\n"
	"[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .\n";

static void check_field22(const struct hangdx_evidence *ev)
{
	const struct hx_rec *r = find(ev, HX_K_RT_TASK_FAIL, 0);

	assert_non_null(r);
	assert_int_equal(r->line, 3);
	assert_int_equal(fnum(ev, r, HX_F_STREAM), 7);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 5990);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 2);
	r = find(ev, HX_K_RT_API_ERROR, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 2);
	/* the warning after the block is not part of it */
	r = find(ev, HX_K_FRAMEWORK_ERROR, 1);
	assert_non_null(r);
	assert_int_equal(r->line, 7);
	assert_false(hx_rec_field(ev, r, HX_F_PARENT_LINE));
}

static void test_console_em_block(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx, field22);
	char crlf[2048];
	size_t i, m = 0;

	(void)state;
	check_field22(ev);
	hangdx_evidence_free(ev);
	for (i = 0; field22[i]; i++) {
		if (field22[i] == '\n')
			crlf[m++] = '\r';
		crlf[m++] = field22[i];
	}
	crlf[m] = '\0';
	ev = console(ctx, crlf);
	check_field22(ev);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* field/37 and field/39: a page lost the indentation of the body lines. */
static void test_console_unindented_body(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"EE9999: Inner Error!\n"
		"EE9999 The error from device(chipId:3, dieId:0), serial number is 1, event wait timeout occurred during task execution, stream_id:122, sq_id:122, task_id:790, event_id=73, timeout=1980.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1314]\n"
		"TraceBack (most recent call last):\n"
		"Task execute failed, device_id=3, stream_id=122, task_id=790, flip_num=0, task_type=3(EVENT_WAIT).[FUNC:GetError][FILE:stream.cc][LINE:1483]\n"
		"\n"
		"Task execute failed, device_id=3, stream_id=9, task_id=9, flip_num=0, task_type=3(EVENT_WAIT).[FUNC:GetError][FILE:stream.cc][LINE:1483]\n"
		"EI0002:The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14],taskID[6], taskType[Notify Wait], tag[AllReduce_6629421139219749105_0].] task information: [notify id:[0x000000700000058], stage:[fffffff], remote rank:[4].]\n"
		"there are(is) 1 abnormal device(s):\n"
		"serverId[192.168.100.111], deviceId[4], Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_RT_TIMEOUT, 0);
	assert_non_null(r);
	assert_string_equal(fstr(ev, r, HX_F_WHAT), "event_wait");
	assert_int_equal(fnum(ev, r, HX_F_EVENT), 73);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 1);
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 4);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 1);
	/* a blank line ends the block: line 6 is a failure of its own, no
	 * body of it */
	r = find(ev, HX_K_RT_TASK_FAIL, 1);
	assert_non_null(r);
	assert_int_equal(r->line, 6);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), -12345);
	r = find(ev, HX_K_CLUSTER_EXCEPTION, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 9);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 7);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Launcher prefixes: stripped, kept as attribution; two workers'
 * blocks interleaved stay apart. */
static void test_console_launchers_interleaved(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"(Worker_DP1_TP3_EP3 pid=4242) ERROR 02-17 09:12:45 [multiproc_executor.py:945] EE9999: Inner Error!\n"
		"(Worker_DP1_TP2_EP2 pid=4243) ERROR 02-17 09:12:45 [multiproc_executor.py:945] EE9999: Inner Error!\n"
		"(Worker_DP1_TP3_EP3 pid=4242) ERROR 02-17 09:12:45 [multiproc_executor.py:945] EE9999[PID: 4242] 2026-02-17-09:12:45.101.517 (EE9999):  The error from device(chipId:3, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:37, sq_id:3, task_id:4096, event_id=21, timeout=1836s.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1593]\n"
		"(Worker_DP1_TP2_EP2 pid=4243) ERROR 02-17 09:12:45 [multiproc_executor.py:945]         rtStreamSynchronize execute failed, reason=[the model stream execute failed][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
		"[rank3]: EI0002: [PID: 7] 2025-06-25-10:45:23.586.187 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14], taskID[6], tag[AllReduce_1].]\n"
		"worker-1: [1,5]<stderr>:EE9999  Notify wait execute failed, device_id=1, stream_id=14, task_id=4, flip_num=0, notify_id=11[FUNC:GetError][FILE:stream.cc][LINE:921]\n");
	const struct hx_rec *r;
	struct hx_attrib *at;
	struct hx_attr a;

	(void)state;
	r = find(ev, HX_K_ERR_CODE, 2);         /* the (EE9999): header */
	assert_non_null(r);
	assert_int_equal(r->line, 3);
	assert_int_equal(r->pid, 4242);
	assert_int_equal(fnum(ev, r, HX_F_STREAM), 37);
	assert_string_equal(fstr(ev, r, HX_F_WORKER), "Worker_DP1_TP3_EP3");
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 4242);
	r = find(ev, HX_K_RT_API_ERROR, 0);     /* worker 4243's body */
	assert_non_null(r);
	assert_int_equal(r->line, 4);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 2);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 4243);
	r = find(ev, HX_K_EI0002, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_RANK), 3);
	assert_int_equal(hx_attrib_build(ev, &at), HANGDX_OK);
	hx_attrib_rec(at, r, &a);
	assert_int_equal(a.rank, 3);
	assert_string_equal(a.rank_from, "console");
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_RANK), 5);
	assert_string_equal(fstr(ev, r, HX_F_CONSOLE_NODE), "worker-1");
	hx_attrib_rec(at, r, &a);
	assert_int_equal(a.rank, 5);
	assert_string_equal(a.node, "worker-1");
	hx_attrib_free(ev, at);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Lines a paste glued together (their newlines lost), each behind the
 * same worker prefix: read as the lines they were. */
static void test_console_glued(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"(VllmWorker rank=0 pid=234357) ERROR 09-26 01:47:48 [multiproc_executor.py:546] WorkerProc hit an exception."
		"(VllmWorker rank=0 pid=234357) ERROR 09-26 01:47:48 [multiproc_executor.py:546] EE9999: Inner Error!"
		"(VllmWorker rank=0 pid=234357) ERROR 09-26 01:47:48 [multiproc_executor.py:546] EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, err_type=13[hccl fftsplus timeout]\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_ERR_CODE, 0);
	assert_non_null(r);
	assert_string_equal(fstr(ev, r, HX_F_TEXT), "Inner Error!");
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 5990);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 234357);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static size_t occurrences(const char *s, const char *lit)
{
	size_t k = 0;

	while ((s = strstr(s, lit)) != NULL) {
		k++;
		s++;
	}
	return k;
}

/* Several lines in one physical line (a JSON string, glued lines): their
 * records share the line number and are all kept, none a duplicate. */
static void test_console_one_line_many(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"\"EE9999: Inner Error!\\nEH9999: Inner Error!\\n\"\n"
		"[rank1]: EI0002: first[rank1]: EI0002: second\n"
		"(WorkerDict pid=833, ip=172.26.153.33) EE9999: Inner Error! [repeated 8x across cluster]\n");
	char *out = jsonl(ev);

	(void)state;
	assert_int_equal(occurrences(out, "\"kind\":\"err_code\""), 3);
	assert_null(strstr(out, "repeated"));
	assert_int_equal(occurrences(out, "\"kind\":\"ei0002\""), 2);
	free(out);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* A console rank and a rank-N/ path that disagree: ambiguous. */
static void test_console_rank_vs_path(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		/* 80 bytes: the marker after it is no wrapped tail */
		"Loading checkpoint shards: 100%|##########| 4/4 [00:12<00:00,  3.01s/it] done...\n"
		"# file: job/rank-2/stdout.log\n"
		"[rank3]: EE9999: Inner Error!\n"
		"# file: job/rank-4/stdout.log\n"
		"[rank4]: EE9999: Inner Error!\n");
	struct hx_attrib *at;
	struct hx_attr a;

	(void)state;
	assert_int_equal(hx_attrib_build(ev, &at), HANGDX_OK);
	assert_string_equal(hx_ev_str(ev, find(ev, HX_K_ERR_CODE, 0)->vpath),
			    "job/rank-2/stdout.log");
	hx_attrib_rec(at, find(ev, HX_K_ERR_CODE, 0), &a);
	assert_int_equal(a.rank, -1);
	assert_string_equal(a.rank_from, "ambiguous");
	hx_attrib_rec(at, find(ev, HX_K_ERR_CODE, 1), &a);
	assert_int_equal(a.rank, 4);
	assert_string_equal(a.rank_from, "path");
	hx_attrib_free(ev, at);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Hard wraps: a token split ("[FUNC:" / "FuncErrorReason]"), a fold at
 * 80 columns, a device message wrapped by hand over 5 lines (field/60). */
static void test_console_wraps(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"EH9999: Inner Error!\n"
		"        rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:\n"
		"FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
		"[rank3]: EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=59\n"
		"90, context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError]\n"
		"[FILE:stream.cc][LINE:1512]\n"
		"EE9999[PID: 43311] The error from device(chipId:1, dieId:0), serial number is 6.\n"
		"there is a fftsplus sdma error, sdma channel is 2,\n"
		"sdmaState=0x6, sdmaTslotid=0x4, sdmaCxtid=0x1, sdmaThreadid=0x0,\n"
		"irqStatus=0x0, cqeStatus=0x70000.\n"
		"[FUNC:ProcessCoreErrors][FILE:device_error_proc.cc][LINE:1714]\n"
		"[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_RT_API_ERROR, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 2);
	assert_string_equal(fstr(ev, r, HX_F_ERR_DESC), "task timeout");
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 4);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 5990);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_RANK), 3);
	r = find(ev, HX_K_RT_TASK_FAIL, 1);
	assert_non_null(r);
	assert_int_equal(r->line, 7);
	assert_int_equal(r->pid, 43311);
	assert_non_null(strstr(fstr(ev, r, HX_F_TEXT),
			       "fftsplus sdma error, sdma channel is 2, sdmaState=0x6"));
	assert_non_null(strstr(fstr(ev, r, HX_F_TEXT), "cqeStatus=0x70000."));
	r = find(ev, HX_K_FRAMEWORK_ERROR, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 12);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* A log inside JSON strings: docker's json-file lines, and a whole log
 * in one string with "\n" escapes. */
static void test_console_json(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"{\"log\":\"EE9999: Inner Error!\\n\",\"stream\":\"stderr\",\"time\":\"2025-07-30T06:16:22.75Z\"}\n"
		"{\"log\":\"EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, err_type=13[hccl fftsplus timeout]\\n\",\"stream\":\"stderr\"}\n"
		"{\"error\": \"Traceback (most recent call last):\\n  File \\\"x.py\\\", line 1\\n[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]\\n\"}\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 5990);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 1);
	r = find(ev, HX_K_LINK_ERROR, 0);
	assert_non_null(r);
	assert_int_equal(r->line, 3);
	assert_int_equal(r->pid, 2717288);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Colour with and without its ESC bytes: the envelope as on a clean
 * line (worker, pid), the error-manager block kept across the lines, and
 * in a docker JSON log ("\u001b[0;36m"). */
static void test_console_colour(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"\x1b[0;36m(EngineCore_DP0 pid=224)\x1b[0;0m ERROR 09-12 10:00:01 [core.py:790] EE9999: Inner Error!\n"
		"[0;36m(EngineCore_DP0 pid=224)[0;0m ERROR 09-12 10:00:01 [core.py:790] EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout]\n"
		"[1;31m[rank3]:[0m EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14], taskID[6], tag[AllReduce_1].]\n"
		"{\"log\":\"\\u001b[0;36m(Worker_TP1 pid=225)\\u001b[0;0m EE9999: Inner Error!\\n\",\"stream\":\"stderr\"}\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_ERR_CODE, 0);
	assert_non_null(r);
	assert_string_equal(fstr(ev, r, HX_F_WORKER), "EngineCore_DP0");
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 224);
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 224);
	assert_int_equal(fnum(ev, r, HX_F_PARENT_LINE), 1);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 5990);
	r = find(ev, HX_K_EI0002, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_RANK), 3);
	assert_int_equal(fnum(ev, r, HX_F_REMOTE_RANK), 4);
	r = find(ev, HX_K_ERR_CODE, 1);
	assert_non_null(r);
	assert_int_equal(r->line, 4);
	assert_string_equal(fstr(ev, r, HX_F_WORKER), "Worker_TP1");
	assert_int_equal(fnum(ev, r, HX_F_CONSOLE_PID), 225);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* grep over the plogs and device logs of two ranks, pasted: each line is
 * its own file's (vpath), at the line grep named (vline); the process is
 * the file name's pid (the host pid for a device log, whose lines print
 * the device pid), the rank the rank directory's. */
static void test_grep_paste(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"rank-3/ascend/log/debug/plog/plog-1769_20260815015103482.log:19:[ERROR] RUNTIME(1769,):2026-08-15-01:51:03.482.123 [stars_engine.cc:1551]1801 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=3, stream_id=2, task_id=8885, sqe_type=3(place holder), errType=0x20(sq sw status error), sqSwStatus=0x105\n"
		"rank-3/ascend/log/debug/plog/plog-1769_20260815015103482.log-20-[INFO] HCCL(1769,python):2026-08-15-01:51:03.482.200 [op_base.cc:1292] [1769]Entry-HcclCommInitRootInfoInner:ranks[8], rank[3], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[3]\n"
		"--\n"
		"rank-3/ascend/log/debug/device-3/device-1769_20260815015103482.log:88:[ERROR] RUNTIME(5375,aicpu_scheduler):2026-08-15-01:51:03.482.123 [stars_engine.cc:1551]1801 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=3, stream_id=2, task_id=8885, sqe_type=3(place holder)\n"
		"node-x/plog/plog-2163_20260815015103482.log:7:[INFO] HCCL(2163,python):2026-08-15-01:51:03.482.200 [op_base.cc:1292] [2163]Entry-HcclCommInitRootInfoInner:ranks[8], rank[5], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[g1], deviceLogicId[5]\n"
		"node-x/device-5/device-2163_20260815015103482.log:40:[ERROR] RUNTIME(6000,aicpu_scheduler):2026-08-15-01:51:03.482.123 [stars_engine.cc:1551]1801 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=5, stream_id=4, task_id=1, sqe_type=3(place holder)\n"
		"55:[ERROR] RUNTIME(2163,):2026-08-15-01:51:03.482.999 [stars_engine.cc:1551]1801 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=5, stream_id=4, task_id=2\n");
	static const struct {
		const char *vpath;
		int64_t vline, pid, rank;
	} want[] = {
		{ "rank-3/ascend/log/debug/plog/plog-1769_20260815015103482.log", 19, 1769, 3 },
		{ "rank-3/ascend/log/debug/plog/plog-1769_20260815015103482.log", 20, 1769, 3 },
		{ "rank-3/ascend/log/debug/device-3/device-1769_20260815015103482.log", 88, 1769, 3 },
		{ "node-x/plog/plog-2163_20260815015103482.log", 7, 2163, 5 },
		{ "node-x/device-5/device-2163_20260815015103482.log", 40, 2163, 5 },
		{ "console.log", 55, 2163, 5 },
	};
	struct hx_attrib *at;
	struct hx_attr a;
	size_t i;

	(void)state;
	assert_int_equal(ev->nrec, HX_ARRAY_LEN(want));
	assert_int_equal(hx_attrib_build(ev, &at), HANGDX_OK);
	for (i = 0; i < HX_ARRAY_LEN(want); i++) {
		const struct hx_rec *r = &ev->recs[i];

		hx_attrib_rec(at, r, &a);
		if (strcmp(hx_ev_str(ev, r->vpath), want[i].vpath) != 0 ||
		    fnum(ev, r, HX_F_VLINE) != want[i].vline ||
		    a.pid != want[i].pid || a.rank != want[i].rank)
			fail_msg("record %zu: %s:%lld pid %lld rank %lld", i,
				 hx_ev_str(ev, r->vpath),
				 (long long)fnum(ev, r, HX_F_VLINE),
				 (long long)a.pid, (long long)a.rank);
	}
	hx_attrib_free(ev, at);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Lines a reporter condensed by hand: what is there is read, an id
 * given as "…" or "..." is left out (unknown), never 0. */
static void test_condensed_lines(void **state)
{
	struct hangdx_ctx *ctx = new_ctx();
	struct hangdx_evidence *ev = console(ctx,
		"EE9999: Inner Error!\n"
		"EE9999  The error from device(chipId:3, dieId:0), serial number is \xe2\x80\xa6, event wait timeout occurred during task execution, stream_id:122, sq_id:122, task_id:\xe2\x80\xa6, event_id=73, timeout=19\xe2\x80\xa6\n"
		"EE9999  fftsplus task execute failed, dev_id=7, stream_id=11, \xe2\x80\xa6 task_id=876, context_id=6, thread_id=0, err_type=13[hccl fftsplus tim\n"
		"[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[...], taskID[...], tag[AllReduce_\xe2\x80\xa6], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
		"[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.300 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, para information is notify id:[0x\xe2\x80\xa6], stage:[ffffffff], remote rank:[...].\n"
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.041 [aicpu_communicator.cc:3083] [5792][TaskException]base information is streamId:149, sqid:\xe2\x80\xa6, head:..., tail:136, type:NOTIFY WAIT, localRank:1, remoteRank:\xe2\x80\xa6, taskId:26064, notifyId:\xe2\x80\xa6\n");
	const struct hx_rec *r;

	(void)state;
	r = find(ev, HX_K_RT_TIMEOUT, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_STREAM), 122);
	assert_null(hx_rec_field(ev, r, HX_F_TASK));
	assert_null(hx_rec_field(ev, r, HX_F_SERIAL));
	assert_null(hx_rec_field(ev, r, HX_F_TIMEOUT_MS));
	r = find(ev, HX_K_RT_TASK_FAIL, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_STREAM), 11);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 876);
	r = find(ev, HX_K_HCCL_TASK_FAIL, 0);
	assert_non_null(r);
	assert_null(hx_rec_field(ev, r, HX_F_STREAM));
	assert_null(hx_rec_field(ev, r, HX_F_TASK));
	assert_null(hx_rec_field(ev, r, HX_F_NOTIFY_HCCL));
	assert_int_equal(fnum(ev, r, HX_F_REMOTE_RANK), -1);
	assert_string_equal(fstr(ev, r, HX_F_OP), "AllReduce");
	r = find(ev, HX_K_AICPU_EXCEPTION, 0);
	assert_non_null(r);
	assert_int_equal(fnum(ev, r, HX_F_STREAM), 149);
	assert_int_equal(fnum(ev, r, HX_F_TASK), 26064);
	assert_null(hx_rec_field(ev, r, HX_F_SQ));
	assert_null(hx_rec_field(ev, r, HX_F_HEAD));
	assert_null(hx_rec_field(ev, r, HX_F_NOTIFY_AICPU));
	assert_int_equal(fnum(ev, r, HX_F_REMOTE_RANK), -1);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_console_colour),
		cmocka_unit_test(test_grep_paste),
		cmocka_unit_test(test_condensed_lines),
		cmocka_unit_test(test_tar_gz),
		cmocka_unit_test(test_tar_zst),
		cmocka_unit_test(test_plain_tar),
		cmocka_unit_test(test_zip),
		cmocka_unit_test(test_single_gz),
		cmocka_unit_test(test_single_zst),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_truncated_archive),
		cmocka_unit_test(test_corrupt_archive),
		cmocka_unit_test(test_bomb_size),
		cmocka_unit_test(test_bomb_ratio),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_nul_binary_empty),
		cmocka_unit_test(test_directory_loop),
		cmocka_unit_test(test_path_nodes),
		cmocka_unit_test(test_path_inner_names),
		cmocka_unit_test(test_path_ranks),
		cmocka_unit_test(test_root_len),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_grow),
		cmocka_unit_test(test_cache_age),
		cmocka_unit_test(test_console_em_block),
		cmocka_unit_test(test_console_unindented_body),
		cmocka_unit_test(test_console_launchers_interleaved),
		cmocka_unit_test(test_console_glued),
		cmocka_unit_test(test_console_one_line_many),
		cmocka_unit_test(test_console_rank_vs_path),
		cmocka_unit_test(test_console_wraps),
		cmocka_unit_test(test_console_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
