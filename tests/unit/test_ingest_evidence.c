/*
 * test_ingest_evidence.c - the evidence store: merge is associative and
 * equals reading everything at once; every public entry point returns
 * HANGDX_ENOMEM and leaks nothing when any allocation fails; JSON output
 * is valid UTF-8 whatever bytes the logs held; counters and ceilings.
 * pthread_join is wrapped to catch a join of a thread never started.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

static const char *const texts[3] = {
	("[INFO] HCCL(69395,python3):2024-04-07-18:35:53.327.288 [topoinfo_detect.cc:208][69395][HCCL_TRACE]SetupAgent rankNum[4], rank[0], rootInfo identifier[g1], server[s], logicDevId[0], phydevId[0], deviceIp[1.2.3.4]\n"
	"[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.511 [task_exception_handler.cc:452][69395][TaskExceptionHandler][Callback]Task run failed, base information is streamID:[3], taskID[77726298], taskType[Notify Wait], tag[AllReduce_g1], index[3], AlgType(level 0-1-2):[null-null-ring].\n"
	"[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.554 [task_exception_handler.cc:454][69395][TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x0000000000000050], stage:[ffffffff], remote rank:[3].\n"),
	"[ERROR] RUNTIME(8142,):2026-06-04-15:41:40.617.065 [device_error_proc.cc:1593]8602 ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:6, dieId:0), serial number is 1, event wait timeout occurred during task execution, stream_id:41, sq_id:8, task_id:30091, event_id=127, timeout=234s.\n",
	("EI0002: [PID: 7277] 2024-11-28-11:59:30.645.648 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [unknown].base information: [streamID:[9], taskID[5], tag[AllReduce_g1]] task information: [\n"
	"    Cluster Exception Location[IP/ID]:[90.90.92.240/1], Arrival Time:[Thu Nov 28 11:56:34 2024], Discoverer:[90.90.92.240/0], ExceptionType:[Heartbeat Lost Occurred]\n"),
};
static const char *const names[3] = {
	"w/worker-0/plog/plog-69395_1.log", "w/worker-1/plog/plog-8142_1.log",
	"w/screen.txt"
};

static const struct hangdx_ingest_opts one = { .threads = 1 };
static const struct hangdx_ingest_opts two = { .threads = 2 };

/* Joins of a pthread_t that was never set by pthread_create (zeroed). */
static long g_bad_joins;

int pthread_join(pthread_t th, void **ret)
{
	int (*real)(pthread_t, void **);

	if (th == (pthread_t)0) {
		g_bad_joins++;
		return ESRCH;
	}
	*(void **)&real = dlsym(RTLD_NEXT, "pthread_join");
	return real ? real(th, ret) : ESRCH;
}

static struct hangdx_evidence *read_one(struct hangdx_ctx *ctx, int i)
{
	struct hangdx_evidence *ev;

	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, names[i], texts[i],
					   strlen(texts[i]), &one), HANGDX_OK);
	return ev;
}

/* JSON Lines of ev as a malloc'd string. */
static char *jsonl(const struct hangdx_evidence *ev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL),
			 HANGDX_OK);
	fclose(fp);
	return buf;
}

static void test_merge_associative(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *a = read_one(ctx, 0), *b = read_one(ctx, 1);
	struct hangdx_evidence *c = read_one(ctx, 2), *ab, *bc, *l, *r, *all;
	char *sl, *sr, *sall;

	(void)state;
	/* (a + b) + c */
	assert_int_equal(hangdx_evidence_new(ctx, &ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, b), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &l), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(l, ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(l, c), HANGDX_OK);
	/* a + (b + c) */
	assert_int_equal(hangdx_evidence_new(ctx, &bc), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(bc, b), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(bc, c), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &r), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(r, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(r, bc), HANGDX_OK);
	/* c + b + a, read in one go */
	assert_int_equal(hangdx_evidence_new(ctx, &all), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(all, c), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(all, b), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(all, a), HANGDX_OK);
	sl = jsonl(l);
	sr = jsonl(r);
	sall = jsonl(all);
	assert_string_equal(sl, sr);
	assert_string_equal(sl, sall);
	/* attribution needs the merge: the rank of process 69395 comes from
	 * its init line, the EI0002 of another file names no rank */
	assert_non_null(strstr(sl, "\"rank\":0,\"rank_from\":\"record\""));
	assert_int_equal(hangdx_evidence_merge(l, l), HANGDX_EINVAL);
	assert_int_equal(hangdx_evidence_merge(NULL, l), HANGDX_EINVAL);
	assert_int_equal(hangdx_evidence_merge(l, NULL), HANGDX_EINVAL);
	free(sl);
	free(sr);
	free(sall);
	hangdx_evidence_free(a);
	hangdx_evidence_free(b);
	hangdx_evidence_free(c);
	hangdx_evidence_free(ab);
	hangdx_evidence_free(bc);
	hangdx_evidence_free(l);
	hangdx_evidence_free(r);
	hangdx_evidence_free(all);
	hangdx_ctx_free(ctx);
}

/* Everything after the records: from the first summary line on. */
static const char *summaries(const char *s)
{
	const char *p = strstr(s, "{\"kind\":\"file\"");

	assert_non_null(p);
	return p;
}

static void test_merge_dedup(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *a = read_one(ctx, 0), *b = read_one(ctx, 1);
	struct hangdx_evidence *twice, *ab, *abab;
	char *s1, *s2, *s3, *s4, *t;

	(void)state;
	/* the same file read on two machines: records, files and counts are
	 * not doubled (only "inputs" says two inputs were given) */
	assert_int_equal(hangdx_evidence_new(ctx, &twice), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(twice, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(twice, a), HANGDX_OK);
	assert_int_equal(twice->nrec, a->nrec);
	assert_int_equal(twice->nfile, 1);
	assert_int_equal(twice->c.lines, a->c.lines);
	assert_int_equal(twice->c.bytes, a->c.bytes);
	assert_int_equal(twice->c.files, 1);
	assert_int_equal(twice->c.inputs, 2);
	s1 = jsonl(a);
	s2 = jsonl(twice);
	t = strstr(s2, "{\"kind\":\"totals\"");
	assert_non_null(t);
	assert_int_equal(t - s2, strstr(s1, "{\"kind\":\"totals\"") - s1);
	assert_int_equal(strncmp(s1, s2, (size_t)(t - s2)), 0);
	/* overlapping sets: (a + b) + (a + b) = a + b */
	assert_int_equal(hangdx_evidence_new(ctx, &ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, b), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &abab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(abab, ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(abab, ab), HANGDX_OK);
	s3 = jsonl(ab);
	s4 = jsonl(abab);
	assert_int_equal(strstr(s4, "{\"kind\":\"file\"") - s4,
			 strstr(s3, "{\"kind\":\"file\"") - s3);
	assert_int_equal(abab->c.files, 2);
	assert_int_equal(abab->c.lines, ab->c.lines);
	assert_int_equal(strncmp(summaries(s3), summaries(s4),
				 (size_t)(strstr(summaries(s3), "\"kind\":\"totals\"") -
					  summaries(s3))), 0);
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	hangdx_evidence_free(a);
	hangdx_evidence_free(b);
	hangdx_evidence_free(twice);
	hangdx_evidence_free(ab);
	hangdx_evidence_free(abab);
	hangdx_ctx_free(ctx);
}

static char g_saved[64];        /* evidence saved as JSON Lines, loaded */
static int g_bad_resume;        /* a file that grew was read whole */
static char g_dir[64];          /* a directory of logs, walked and read */

/* g_dir's growing file written anew or appended to: s, or n bytes of it */
static void grow_file(bool anew, const char *s, size_t n)
{
	char path[96];
	FILE *fp;

	snprintf(path, sizeof path, "%s/worker-0/plog-100_2.log", g_dir);
	fp = fopen(path, anew ? "w" : "a");
	assert_non_null(fp);
	fwrite(s, 1, n ? n : strlen(s), fp);
	fclose(fp);
}

/* One run of everything public, under an allocator failing the Nth call. */
static int run_all(struct hangdx_ctx *ctx)
{
	struct hangdx_evidence *ev = NULL, *ev2 = NULL;
	struct hangdx_ingest_cache *cache = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	err = hangdx_evidence_new(ctx, &ev);
	if (err)
		return err;
	err = hangdx_ingest_mem(ev, names[0], texts[0], strlen(texts[0]), &one);
	if (!err)
		err = hangdx_ingest_mem(ev, names[2], texts[2], strlen(texts[2]),
					&one);
	if (!err)
		err = hangdx_evidence_new(ctx, &ev2);
	if (!err)
		err = hangdx_ingest_mem(ev2, names[1], texts[1],
					strlen(texts[1]), &one);
	if (!err)
		err = hangdx_evidence_merge(ev, ev2);
	if (!err && g_saved[0])
		err = hangdx_evidence_load(ev, g_saved);
	if (!err && g_dir[0])
		err = hangdx_ingest_path(ev, g_dir, &one);
	/* two readers: a set-up failure of the second one must not join a
	 * thread that was never started */
	if (!err && g_dir[0])
		err = hangdx_ingest_path(ev, g_dir, &two);
	/* read again with a cache: once to fill it, once from it */
	if (!err && g_dir[0])
		err = hangdx_ingest_cache_new(ctx, &cache);
	if (!err && g_dir[0]) {
		struct hangdx_ingest_opts oc = { .cache = cache };

		err = hangdx_ingest_path(ev, g_dir, &oc);
		if (!err)
			err = hangdx_ingest_path(ev, g_dir, &oc);
		/* a file that grows: read, read whole again and kept, read on
		 * twice (a line cut in two between them) */
		grow_file(true, texts[2], 0);
		if (!err)
			err = hangdx_ingest_path(ev, g_dir, &oc);
		grow_file(false, texts[0], 40);
		if (!err)
			err = hangdx_ingest_path(ev, g_dir, &oc);
		grow_file(false, texts[0] + 40, 0);
		if (!err)
			err = hangdx_ingest_path(ev, g_dir, &oc);
		grow_file(false, texts[1], 0);
		if (!err)
			err = hangdx_ingest_path(ev, g_dir, &oc);
		if (!err) {     /* the last reading read on */
			size_t read, resumed, kept;

			hangdx_ingest_cache_stats(cache, &read, &resumed, &kept);
			if (resumed != 1 || read != 0)
				g_bad_resume++;
		}
	}
	hangdx_ingest_cache_free(cache);
	if (!err) {
		fp = open_memstream(&buf, &len);
		err = hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL);
		if (!err)
			err = hangdx_evidence_write_text(ev, fp, HANGDX_EV_ALL);
		fclose(fp);
		free(buf);
	}
	hangdx_evidence_free(ev2);
	hangdx_evidence_free(ev);
	return err;
}

/* Save the evidence of texts[1] as JSON Lines for run_all to load. */
static void save_evidence(void)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = read_one(ctx, 1);
	int fd;
	FILE *fp;

	snprintf(g_saved, sizeof g_saved, "/tmp/hangdx-ev-XXXXXX");
	fd = mkstemp(g_saved);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(hangdx_evidence_write_jsonl(ev, fp, HANGDX_EV_ALL),
			 HANGDX_OK);
	fclose(fp);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* A directory with two of the texts in node subdirectories. */
static void save_dir(void)
{
	char path[128];
	int i;

	snprintf(g_dir, sizeof g_dir, "/tmp/hangdx-dir-XXXXXX");
	assert_non_null(mkdtemp(g_dir));
	for (i = 0; i < 2; i++) {
		FILE *fp;

		snprintf(path, sizeof path, "%s/worker-%d", g_dir, i);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof path, "%s/worker-%d/plog-%d_1.log", g_dir,
			 i, 100 + i);
		fp = fopen(path, "w");
		assert_non_null(fp);
		fputs(texts[i], fp);
		fclose(fp);
	}
}

static void remove_dir(void)
{
	char cmd[96];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
	assert_int_equal(system(cmd), 0);
	g_dir[0] = '\0';
}

static void test_alloc_failure(void **state)
{
	struct failalloc fa;
	long n;

	(void)state;
	save_evidence();
	save_dir();
	for (n = 2; n < 100000; n++) {
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, n);
		int err;

		assert_non_null(ctx);
		err = run_all(ctx);
		if (err != HANGDX_OK && err != HANGDX_ENOMEM)
			fail_msg("allocation %ld: error %d", n, err);
		assert_int_equal(fa.live, 1);          /* only the context */
		hangdx_ctx_free(ctx);
		if (err == HANGDX_OK && fa.count < n)
			break;                         /* never reached n */
	}
	assert_true(n > 20);
	assert_int_equal(g_bad_joins, 0);
	assert_int_equal(g_bad_resume, 0);
	unlink(g_saved);
	g_saved[0] = '\0';
	remove_dir();
}

static void test_json_is_utf8(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev;
	/* GBK "测试", invalid UTF-8, a NUL-free control char, quotes */
	static const char line[] =
		"[ERROR] HCCL(1,py\"x):2024-04-08-02:55:04.903.511 [t.cc:1][1]Task run failed, base information is streamID:[3], taskID[7], tag[Ab\xb2\xe2\xca\xd4_\xff\x01\"q\\].\n";
	char *s, *p;

	(void)state;
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "g\xb2.log", line, sizeof line - 1,
					   &one), HANGDX_OK);
	s = jsonl(ev);
	assert_non_null(strstr(s, "\"tag\":\"Ab\\ufffd\\ufffd\\ufffd\\ufffd_\\ufffd\\u0001\\\"q\\\\\""));
	assert_non_null(strstr(s, "\"pname\":\"py\\\"x\""));
	assert_non_null(strstr(s, "\"file\":\"g\\ufffd.log\""));
	for (p = s; *p; p++)
		assert_true((unsigned char)*p < 0x80);  /* all escaped */
	free(s);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_record_ceiling(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_ingest_opts o = { .threads = 1, .max_records = 2 };
	struct hangdx_evidence *ev;
	struct hangdx_ingest_stats st;
	char buf[8192];
	size_t n = 0;
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n,
			"[ERROR] HCCL(1,p):2024-04-08-02:55:04.903.511 [t.cc:1][%d]Task run failed, base information is streamID:[3], taskID[%d].\n", i, i);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "x.log", buf, n, &o), HANGDX_OK);
	hangdx_evidence_stats(ev, &st);
	assert_int_equal(st.records, 2);
	assert_int_equal(st.skipped[HX_S_RECORDS], 8);
	assert_int_equal(st.lines, 10);
	assert_int_equal(hangdx_evidence_count(ev), 2);
	assert_string_equal(hangdx_skip_reason_name(HX_S_RECORDS), "record_limit");
	assert_null(hangdx_skip_reason_name(HANGDX_SKIP_REASONS));
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

static void test_text_view(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *ev = read_one(ctx, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(hangdx_evidence_write_text(ev, fp, HANGDX_EV_RECORDS),
			 HANGDX_OK);
	fclose(fp);
	assert_non_null(strstr(buf, "w/worker-0/plog/plog-69395_1.log:2: hccl_task_fail pid=69395 "));
	assert_non_null(strstr(buf, " node=w/worker-0 rank=0 device=0 "));
	assert_non_null(strstr(buf, " task_type=\"Notify Wait\""));
	assert_non_null(strstr(buf, " notify_hccl=0x0000000000000050"));
	assert_null(strstr(buf, "# totals"));
	free(buf);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Loading appends in place: the same as loading apart and merging (a
 * file held twice counts once, each load has a ceiling of its own), and a
 * load that fails leaves the evidence as it was. */
static int stop_hook(void *ud, const struct hx_jobj *o, const char *file,
		     unsigned long line)
{
	(void)ud;
	(void)o;
	(void)file;
	(void)line;
	return HANGDX_EUNSUPPORTED;
}

static void load_str(struct hangdx_evidence *ev, const char *s, int want)
{
	FILE *fp = fmemopen((void *)(uintptr_t)s, strlen(s), "r");

	assert_non_null(fp);
	assert_int_equal(hx_ev_load_fp(ev, "mem", fp, stop_hook, NULL), want);
	fclose(fp);
}

static void test_load_append(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_evidence *a = read_one(ctx, 0), *b = read_one(ctx, 1);
	struct hangdx_evidence *ab, *want, *ev, *tmp;
	char *sa, *sab, *sw, *se, *bad;
	(void)state;
	assert_int_equal(hangdx_evidence_new(ctx, &ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(ab, b), HANGDX_OK);
	sa = jsonl(a);
	sab = jsonl(ab);
	/* a, then a + b: b's file comes in, a's is not doubled */
	assert_int_equal(hangdx_evidence_new(ctx, &want), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(want, a), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(want, ab), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_evidence_load_mem(ev, "a", sa, strlen(sa)), HANGDX_OK);
	assert_int_equal(hangdx_evidence_load_mem(ev, "ab", sab, strlen(sab)), HANGDX_OK);
	sw = jsonl(want);
	se = jsonl(ev);
	assert_string_equal(se, sw);
	assert_int_equal(ev->nfile, 2);
	assert_int_equal(ev->nrec, ab->nrec);
	free(se);
	/* a stream that stops at its end, its records, files and totals
	 * read: nothing of it stays */
	bad = malloc(strlen(sab) + 32);
	assert_non_null(bad);
	strcpy(bad, sab);
	strcat(bad, "{\"stop\":1}\n");
	load_str(ev, bad, HANGDX_EUNSUPPORTED);
	se = jsonl(ev);
	assert_string_equal(se, sw);
	free(se);
	/* a ceiling of 1 record: each load keeps 1, as loaded apart */
	hangdx_evidence_free(ev);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	ev->maxrec = 1;
	assert_int_equal(hangdx_evidence_load_mem(ev, "ab", sab, strlen(sab)), HANGDX_OK);
	assert_int_equal(hangdx_evidence_load_mem(ev, "b", sab, strlen(sab)), HANGDX_OK);
	assert_int_equal(ev->nrec, 1);    /* the same files: nothing new */
	hangdx_evidence_free(want);
	assert_int_equal(hangdx_evidence_new(ctx, &want), HANGDX_OK);
	want->maxrec = 1;
	assert_int_equal(hangdx_evidence_load_mem(want, "a", sa, strlen(sa)), HANGDX_OK);
	assert_int_equal(hangdx_evidence_new(ctx, &tmp), HANGDX_OK);
	tmp->maxrec = 1;
	assert_int_equal(hangdx_evidence_load_mem(tmp, "ab", sab, strlen(sab)), HANGDX_OK);
	assert_int_equal(hangdx_evidence_merge(want, tmp), HANGDX_OK);
	hangdx_evidence_free(ev);
	assert_int_equal(hangdx_evidence_new(ctx, &ev), HANGDX_OK);
	ev->maxrec = 1;
	assert_int_equal(hangdx_evidence_load_mem(ev, "a", sa, strlen(sa)), HANGDX_OK);
	assert_int_equal(hangdx_evidence_load_mem(ev, "ab", sab, strlen(sab)), HANGDX_OK);
	free(sw);
	sw = jsonl(want);
	se = jsonl(ev);
	assert_string_equal(se, sw);
	assert_int_equal(ev->nrec, want->nrec);
	free(se);
	free(sw);
	free(bad);
	free(sa);
	free(sab);
	hangdx_evidence_free(tmp);
	hangdx_evidence_free(a);
	hangdx_evidence_free(b);
	hangdx_evidence_free(ab);
	hangdx_evidence_free(want);
	hangdx_evidence_free(ev);
	hangdx_ctx_free(ctx);
}

/* Saved evidence is known by its first bytes; a log, a facts file, a
 * directory and a missing file are not evidence. */
static void test_probe(void **state)
{
	static const struct { const char *text; int want; } cases[] = {
		{ "{\"kind\":\"file\",\"file\":\"a\"}\n", 1 },
		{ "{\"kind\":\"totals\"}\n", 1 },
		{ "{\"format\":\"hangdx-facts-2\"}\n", 0 },
		{ "[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 x\n", 0 },
		{ "{\"kind\"", 0 },
		{ "", 0 },
	};
	char dir[] = "/tmp/hx-probe-XXXXXX", p[64], cmd[96];
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *fp;

		snprintf(p, sizeof p, "%s/%zu.jsonl", dir, i);
		fp = fopen(p, "w");
		assert_non_null(fp);
		fputs(cases[i].text, fp);
		fclose(fp);
		if (hangdx_evidence_probe(p) != cases[i].want)
			fail_msg("case %zu: probe %d", i, !cases[i].want);
	}
	assert_int_equal(hangdx_evidence_probe(dir), 0);
	snprintf(p, sizeof p, "%s/missing.jsonl", dir);
	assert_int_equal(hangdx_evidence_probe(p), 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_associative),
		cmocka_unit_test(test_merge_dedup),
		cmocka_unit_test(test_alloc_failure),
		cmocka_unit_test(test_json_is_utf8),
		cmocka_unit_test(test_record_ceiling),
		cmocka_unit_test(test_text_view),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_load_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
