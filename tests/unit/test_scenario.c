/* test_scenario.c - unit tests of src/model: defaults, the YAML loader and
 * its diagnostics, the presets, HCCL environment values and --set. */
#include <stdio.h>
#include "testutil.h"
#include "model/model.h"

/* ---- helpers ------------------------------------------------------------ */

struct diags {
	char text[16384];
	size_t len;
	int n;
};

static void capture(void *ud, const struct hangdx_diag *d)
{
	struct diags *c = ud;
	int w = snprintf(c->text + c->len, sizeof c->text - c->len,
			 "%s:%lu:%lu: %s: %s\n", d->file ? d->file : "-",
			 d->line, d->col, hangdx_level_name(d->level), d->msg);

	if (w > 0 && c->len + (size_t)w < sizeof c->text)
		c->len += (size_t)w;
	c->n++;
}

/* One load: a context that captures diagnostics, and the result. */
struct tl {
	struct hangdx_ctx *ctx;
	struct hangdx_scenario *sc;
	struct diags dg;
	int err;
};

static struct tl *tl_load(const char *yaml)
{
	struct tl *t = calloc(1, sizeof *t);

	assert_non_null(t);
	t->ctx = hangdx_ctx_new(NULL);
	assert_non_null(t->ctx);
	hangdx_ctx_set_diag(t->ctx, capture, &t->dg);
	t->err = hangdx_scenario_load_mem(t->ctx, "mem.yaml", yaml,
					  strlen(yaml), &t->sc);
	if (t->err)
		assert_null(t->sc);
	return t;
}

static void tl_free(struct tl *t)
{
	hangdx_scenario_free(t->sc);
	hangdx_ctx_free(t->ctx);
	free(t);
}

/* Loading yaml must fail with a diagnostic containing want. */
static void expect_error(const char *yaml, const char *want)
{
	struct tl *t = tl_load(yaml);

	if (t->err != HANGDX_EPARSE || !strstr(t->dg.text, want)) {
		print_error("input:\n%s\nwant: %s\ngot (err %d):\n%s\n", yaml,
			    want, t->err, t->dg.text);
		fail();
	}
	tl_free(t);
}

/* Loading yaml must succeed without any diagnostic. */
static struct tl *expect_ok(const char *yaml)
{
	struct tl *t = tl_load(yaml);

	if (t->err || t->dg.n) {
		print_error("input:\n%s\nerr %d, diagnostics:\n%s\n", yaml,
			    t->err, t->dg.text);
		fail();
	}
	return t;
}

/* ---- defaults ----------------------------------------------------------- */

static void test_defaults(void **state)
{
	struct hangdx_scenario sc;
	struct hx_env env;

	(void)state;
	memset(&sc, 0, sizeof sc);
	hx_scenario_defaults(&sc);
	assert_int_equal(sc.nranks, 2);
	assert_int_equal(sc.ranks_per_node, 8);
	assert_int_equal(sc.cores, 6);
	assert_int_equal(sc.sq_depth, 2048);
	assert_int_equal(sc.product, HX_PROD_A3);
	assert_int_equal(sc.link_latency_ns, 5000);
	assert_int_equal(sc.expand_ns, 50000);
	assert_int_equal(sc.host_api_ns, 5000);
	assert_int_equal(sc.dispatch_ns, 1000);
	assert_true(sc.link_gbps == 50.0);
	assert_int_equal(sc.slave_streams, 1);
	assert_int_equal(sc.grant, HX_GRANT_FIFO);
	assert_true(sc.order_launch);
	assert_true(sc.hccl_shares_pool);
	assert_false(sc.stuck_with_retry);
	assert_int_equal(sc.aicpu_timeout_ns, 0);
	assert_int_equal(sc.seed, 1);
	assert_int_equal(sc.tail_ns, 120 * HX_NS_PER_S);
	assert_int_equal(sc.time_limit_ns, 7200 * HX_NS_PER_S);
	assert_int_equal(sc.log_level, HX_LOG_INFO);
	assert_int_equal(sc.env.exec_timeout_s, 1836);

	memset(&env, 0xff, sizeof env);
	hx_env_defaults(&env);
	assert_int_equal(env.exec_timeout_s, 1836);
	assert_int_equal(env.retry[0] + env.retry[1] + env.retry[2], 0);
	assert_int_equal(env.retry_max_cnt, 1);
	assert_int_equal(env.retry_hold_ms, 5000);
	assert_int_equal(env.retry_interval_ms, 1000);
	assert_int_equal(env.mode, HX_MODE_AI_CPU);
	assert_int_equal(env.connect_timeout_s, 120);
	assert_false(env.set_exec_timeout || env.set_retry || env.set_params ||
		     env.set_mode || env.set_connect);
}

static void test_minimal_defaults(void **state)
{
	struct tl *t = expect_ok("name: tiny\n");

	(void)state;
	assert_string_equal(hangdx_scenario_name(t->sc), "tiny");
	assert_int_equal(t->sc->nranks, 2);
	assert_int_equal(t->sc->nsteps, 0);
	assert_int_equal(t->sc->ngroups, 0);
	assert_int_equal(hx_scenario_ncomms(t->sc), 0);
	tl_free(t);

	/* name from the file name */
	t = calloc(1, sizeof *t);
	assert_non_null(t);
	t->ctx = hangdx_ctx_new(NULL);
	assert_int_equal(hangdx_scenario_load_mem(t->ctx, "dir/my-job.yaml",
						  "cluster: {ranks: 3}\n", 20,
						  &t->sc), HANGDX_OK);
	assert_string_equal(hangdx_scenario_name(t->sc), "my-job");
	assert_int_equal(t->sc->nranks, 3);
	tl_free(t);
}

/* ---- presets ------------------------------------------------------------ */

static void test_presets(void **state)
{
	const char *const *names = hangdx_preset_names();
	int n;

	(void)state;
	for (n = 0; names[n]; n++) {
		char path[256];
		size_t len;
		char *file;
		const char *text = hangdx_preset_text(names[n]);
		const char *about = hangdx_preset_about(names[n]);
		struct tl *t;

		snprintf(path, sizeof path, "scenarios/%s.yaml", names[n]);
		file = read_text(path, &len);
		assert_non_null(text);
		assert_int_equal(strlen(text), len);
		assert_memory_equal(text, file, len);
		assert_non_null(about);
		assert_true(strlen(about) > 10);
		assert_non_null(strstr(file, about));
		free(file);

		t = calloc(1, sizeof *t);
		assert_non_null(t);
		t->ctx = hangdx_ctx_new(NULL);
		hangdx_ctx_set_diag(t->ctx, capture, &t->dg);
		t->err = hangdx_scenario_preset(t->ctx, names[n], &t->sc);
		if (t->err || t->dg.n) {
			print_error("preset %s: err %d\n%s", names[n], t->err,
				    t->dg.text);
			fail();
		}
		assert_string_equal(hangdx_scenario_name(t->sc), names[n]);
		assert_true(t->sc->nsteps > 0);
		tl_free(t);
	}
	assert_true(n >= 9);
	assert_null(hangdx_preset_text("nope"));
	assert_null(hangdx_preset_about("nope"));
}

static void test_preset_unknown(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = (void *)1;
	struct diags dg = { .len = 0 };

	(void)state;
	hangdx_ctx_set_diag(ctx, capture, &dg);
	assert_int_equal(hangdx_scenario_preset(ctx, "refrence", &sc),
			 HANGDX_ENOTFOUND);
	assert_null(sc);
	assert_non_null(strstr(dg.text, "did you mean 'reference'"));
	hangdx_ctx_free(ctx);
}

static void test_reference(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc;
	const struct hx_step *st;
	char name[32];

	(void)state;
	assert_int_equal(hangdx_scenario_preset(ctx, "reference", &sc), 0);
	assert_int_equal(sc->nranks, 2);
	assert_int_equal(sc->cores, 6);
	assert_int_equal(sc->ngroups, 1);
	assert_int_equal(hx_scenario_ncomms(sc), 14);
	assert_true(sc->groups[0].count_from_set);
	assert_int_equal(sc->groups[0].retry, -1);
	assert_null(sc->groups[0].ranks);
	assert_true(hx_retry_active(sc, 0, 0));
	assert_true(hx_retry_active(sc, 0, 1));
	assert_true(sc->env.retry_has_l0);
	assert_int_equal(sc->env.retry[0], 1);
	assert_int_equal(sc->env.retry[1], 1);
	assert_int_equal(sc->env.retry[2], 0);
	assert_int_equal(sc->env.mode, HX_MODE_AI_CPU);
	assert_true(sc->env.set_retry && sc->env.set_mode);
	assert_false(sc->env.set_params);
	hx_comm_name(sc, 0, 2, name, sizeof name);
	assert_string_equal(name, "c3");

	assert_int_equal(sc->nsteps, 6);
	assert_int_equal(sc->nstreams, 2);
	assert_string_equal(sc->streams[0], "compute");
	assert_string_equal(sc->streams[1], "comm");
	assert_int_equal(sc->nevents, 1);
	assert_string_equal(sc->events[0], "E");
	st = sc->steps;
	assert_int_equal(st[0].kind, HX_STEP_AICORE);
	assert_int_equal(st[0].dur_ns, 2 * HX_NS_PER_MS);
	assert_string_equal(st[0].name, "FlashAttentionScore");
	assert_int_equal(st[1].kind, HX_STEP_AICPU);
	assert_int_equal(st[1].dur_ns, 200 * HX_NS_PER_US);
	assert_int_equal(st[1].stream, 0);
	assert_int_equal(st[2].kind, HX_STEP_EVENT_RECORD);
	assert_int_equal(st[2].obj, 0);
	assert_int_equal(st[3].kind, HX_STEP_EVENT_WAIT);
	assert_int_equal(st[3].stream, 1);
	assert_int_equal(st[4].kind, HX_STEP_COLL);
	assert_int_equal(st[4].coll, HX_COLL_ALLREDUCE);
	assert_int_equal(st[4].group, 0);
	assert_int_equal(st[4].instance, -1);
	assert_int_equal(st[4].bytes, 64ULL << 20);
	assert_int_equal(st[4].dtype, HX_DT_BF16);
	assert_null(st[4].only);
	assert_int_equal(st[5].kind, HX_STEP_HOST_SYNC);
	assert_int_equal(st[5].stream, -1);
	assert_int_equal(st[0].line + 1, st[1].line);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
}

static void test_load_file(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc;
	struct diags dg = { .len = 0 };

	(void)state;
	hangdx_ctx_set_diag(ctx, capture, &dg);
	assert_int_equal(hangdx_scenario_load(ctx, "scenarios/slow-rank.yaml",
					      &sc), HANGDX_OK);
	assert_string_equal(hangdx_scenario_name(sc), "slow-rank");
	assert_string_equal(sc->file, "scenarios/slow-rank.yaml");
	assert_int_equal(sc->nfaults, 1);
	assert_int_equal(sc->faults[0].kind, HX_FAULT_SLOW_RANK);
	assert_true(sc->faults[0].factor == 20.0);
	hangdx_scenario_free(sc);
	assert_int_equal(hangdx_scenario_load(ctx, "no/such/file.yaml", &sc),
			 HANGDX_EIO);
	assert_null(sc);
	assert_non_null(strstr(dg.text, "no/such/file.yaml:0:0: error: cannot open"));
	hangdx_ctx_free(ctx);
}

/* ---- the program -------------------------------------------------------- */

static void test_repeat(void **state)
{
	struct tl *t = expect_ok(
		"program:\n"
		"  - host_sleep: {duration: 1us}\n"
		"  - repeat:\n"
		"      count: 3\n"
		"      steps:\n"
		"        - aicore: {stream: s, duration: 1ms}\n"
		"        - repeat: {count: 2, steps: [{host_sleep: {duration: 2}}]}\n"
		"  - repeat: {count: 0, steps: [{host_sleep: {duration: 3us}}]}\n"
		"  - host_sync: {stream: s}\n");
	const struct hx_step *st;
	uint32_t i;

	(void)state;
	assert_int_equal(t->sc->nsteps, 11);
	st = t->sc->steps;
	assert_int_equal(st[0].dur_ns, 1000);
	for (i = 0; i < 3; i++) {
		assert_int_equal(st[1 + 3 * i].kind, HX_STEP_AICORE);
		assert_int_equal(st[1 + 3 * i].line, 6);
		assert_int_equal(st[2 + 3 * i].kind, HX_STEP_HOST_SLEEP);
		assert_int_equal(st[2 + 3 * i].dur_ns, 2 * HX_NS_PER_S);
		assert_int_equal(st[3 + 3 * i].kind, HX_STEP_HOST_SLEEP);
	}
	assert_int_equal(st[10].kind, HX_STEP_HOST_SYNC);
	assert_int_equal(st[10].stream, 0);
	tl_free(t);

	expect_error("program:\n"
		     "  - repeat:\n"
		     "      count: 600000\n"
		     "      steps: [{host_sleep: {duration: 1}}, "
		     "{host_sleep: {duration: 2}}]\n",
		     "mem.yaml:3:14: error: repeat makes the program longer "
		     "than 1000000 steps");
	expect_error("program:\n  - repeat: {count: 1000001, steps: []}\n",
		     "mem.yaml:2:21: error: bad value '1000001' for 'count'");
}

static void test_collectives(void **state)
{
	struct tl *t = expect_ok(
		"cluster: {ranks: 4}\n"
		"communicators:\n"
		"  - {name: world}\n"
		"  - {name: c, count: 4}\n"
		"  - {name: pair, ranks: [3, 1], retry: off, exec_timeout: 600}\n"
		"program:\n"
		"  - allgather: {stream: comm, comm: c3, bytes: 1.5KiB, dtype: FP32}\n"
		"  - alltoall: {stream: comm, comm: c}\n"
		"  - broadcast: {stream: comm, comm: world, root: 3, bytes: 2KB}\n"
		"  - send: {stream: comm, comm: pair, peer: 1, ranks: [1]}\n"
		"  - ranks: [3]\n"
		"    recv: {stream: comm, comm: pair, peer: 0}\n"
		"  - reducescatter: {stream: comm, comm: pair}\n"
		"  - aicore: {stream: x, duration: 1.5s, ranks: [2, 0]}\n");
	const struct hangdx_scenario *sc;
	const struct hx_step *st;
	char name[32];

	(void)state;
	sc = t->sc;
	st = sc->steps;
	assert_int_equal(sc->ngroups, 3);
	assert_int_equal(hx_scenario_ncomms(sc), 6);
	assert_true(sc->groups[1].count_from_set);
	assert_false(sc->groups[0].count_from_set);
	assert_int_equal(sc->groups[2].nranks, 2);
	assert_int_equal(sc->groups[2].ranks[0], 1);
	assert_int_equal(sc->groups[2].ranks[1], 3);
	assert_int_equal(sc->groups[2].retry, 0);
	assert_int_equal(sc->groups[2].exec_timeout_s, 600);
	hx_comm_name(sc, 0, 0, name, sizeof name);
	assert_string_equal(name, "world");
	hx_comm_name(sc, 1, 3, name, sizeof name);
	assert_string_equal(name, "c4");

	assert_int_equal(st[0].coll, HX_COLL_ALLGATHER);
	assert_int_equal(st[0].group, 1);
	assert_int_equal(st[0].instance, 2);
	assert_int_equal(st[0].bytes, 1536);
	assert_int_equal(st[0].dtype, HX_DT_FP32);
	assert_int_equal(st[1].instance, -1);
	assert_int_equal(st[1].bytes, 1 << 20);
	assert_int_equal(st[1].dtype, HX_DT_FP16);
	assert_int_equal(st[2].root, 3);
	assert_int_equal(st[2].bytes, 2000);
	assert_int_equal(st[3].coll, HX_COLL_SEND);
	assert_int_equal(st[3].peer, 1);
	assert_int_equal(st[3].nonly, 1);
	assert_int_equal(st[3].only[0], 1);
	assert_int_equal(st[4].coll, HX_COLL_RECV);
	assert_int_equal(st[4].only[0], 3);
	assert_int_equal(st[4].line, 12);
	/* a step on a sub-communicator is issued by its members */
	assert_int_equal(st[5].nonly, 2);
	assert_int_equal(st[5].only[1], 3);
	assert_int_equal(st[6].dur_ns, 1500 * HX_NS_PER_MS);
	assert_int_equal(st[6].only[0], 0);
	assert_int_equal(st[6].only[1], 2);
	tl_free(t);
}

static void test_faults(void **state)
{
	struct tl *t = expect_ok(
		"cluster: {ranks: 4, ranks_per_node: 2}\n"
		"communicators: [{name: world}]\n"
		"program:\n"
		"  - repeat: {count: 3, steps: [{allreduce: {stream: s, comm: world}}]}\n"
		"faults:\n"
		"  - rank_death: {rank: 2, at: 3s}\n"
		"  - link_error: {rank: 1, peer: 2, at: 1s}\n"
		"  - link_error: {rank: 0, peer: 1, at: 1s}\n"
		"  - link_error: {rank: 0, peer: 1, at: 1s, transport: rdma}\n"
		"  - slow_rank: {rank: 3, factor: 2.5}\n"
		"  - mismatch: {rank: 1, op: 2, type: allgather}\n"
		"  - mismatch: {rank: 1, op: 0, bytes: 2MiB}\n"
		"  - mismatch: {rank: 1, op: 1, order: swap}\n"
		"  - clock_skew: {rank: 3, offset: -1.5s}\n");
	const struct hx_fault *f;

	(void)state;
	assert_int_equal(t->sc->nfaults, 9);
	f = t->sc->faults;
	assert_int_equal(f[0].kind, HX_FAULT_RANK_DEATH);
	assert_int_equal(f[0].at_ns, 3 * HX_NS_PER_S);
	assert_int_equal(f[0].line, 6);
	assert_true(f[1].rdma);         /* different nodes */
	assert_int_equal(f[1].peer, 2);
	assert_false(f[2].rdma);        /* same node: SDMA */
	assert_true(f[3].rdma);
	assert_true(f[4].factor == 2.5);
	assert_int_equal(f[5].what, HX_MISMATCH_TYPE);
	assert_int_equal(f[5].coll, HX_COLL_ALLGATHER);
	assert_int_equal(f[5].op_index, 2);
	assert_int_equal(f[6].what, HX_MISMATCH_SIZE);
	assert_int_equal(f[6].bytes, 2 << 20);
	assert_int_equal(f[7].what, HX_MISMATCH_ORDER);
	assert_int_equal(f[8].skew_ns, -1500 * (int64_t)HX_NS_PER_MS);
	tl_free(t);

	expect_error("communicators: [{name: world}]\n"
		     "program:\n"
		     "  - allreduce: {stream: s, comm: world}\n"
		     "faults:\n"
		     "  - mismatch: {rank: 1, op: 0, order: swap}\n",
		     "mem.yaml:5:29: error: rank 1 issues 1 collectives (op "
		     "counts from 0); op 1 does not exist");
}

/* ---- diagnostics ---------------------------------------------------------- */

static void test_error_positions(void **state)
{
	(void)state;
	expect_error("cluster:\n  ranks: 2\n  rank_per_node: 8\n",
		     "mem.yaml:3:3: error: unknown key 'rank_per_node' in "
		     "cluster; did you mean 'ranks_per_node'?");
	expect_error("clutser:\n  ranks: 2\n",
		     "mem.yaml:1:1: error: unknown key 'clutser' in the "
		     "scenario; did you mean 'cluster'?");
	expect_error("cluster:\n  ranks: 2\n  ranks: 3\n",
		     "mem.yaml:3:3: error: duplicate key 'ranks' in cluster");
	expect_error("communicators:\n  - name: world\nprogram:\n"
		     "  - allreduce: {stream: s, comm: wrld}\n",
		     "mem.yaml:4:34: error: unknown communicator 'wrld'; did "
		     "you mean 'world'?");
	expect_error("communicators:\n  - {name: c, count: 14}\nprogram:\n"
		     "  - allreduce: {stream: s, comm: c15}\n",
		     "mem.yaml:4:34: error: no communicator 'c15': 'c' has 14 "
		     "(c1..c14)");
	expect_error("communicators:\n  - name: world\nprogram:\n"
		     "  - allreduce: {stream: s, comm: world9}\n",
		     "mem.yaml:4:34: error: no communicator 'world9': 'world' "
		     "is one communicator, named 'world'");
	expect_error("cluster:\n  ranks: 4\nfaults:\n"
		     "  - rank_death: {rank: 4, at: 1s}\n",
		     "mem.yaml:4:24: error: rank 4 is out of range: the cluster "
		     "has 4 ranks (0..3)");
	expect_error("program:\n  - alreduce: {stream: s}\n",
		     "mem.yaml:2:5: error: unknown operation 'alreduce' in the "
		     "program; did you mean 'allreduce'?");
	expect_error("program:\n  - aicore: {stream: s, duration: 1ms}\n"
		     "    aicpu: {stream: s, duration: 1ms}\n",
		     "mem.yaml:3:5: error: a step has one operation");
	expect_error("program:\n  - ranks: [0]\n    ranks: [1]\n"
		     "    host_sync: all\n",
		     "mem.yaml:3:5: error: duplicate key 'ranks' in a step");
	expect_error("program:\n  - aicore: {stream: s}\n",
		     "mem.yaml:2:13: error: aicore step needs 'duration'");
	expect_error("program:\n  - aicore: {stream: s, duration: 1ms, peer: 1}\n",
		     "mem.yaml:2:40: error: unknown key 'peer' in aicore step");
	expect_error("env:\n  HCCL_EXEC_TIMEOUTS: 5\n",
		     "mem.yaml:2:3: error: unknown key 'HCCL_EXEC_TIMEOUTS' in "
		     "env; did you mean 'HCCL_EXEC_TIMEOUT'?");
	expect_error("env:\n  HCCL_OP_RETRY_ENABLE: \"L0:2,L1:1,L2:0\"\n",
		     "mem.yaml:2:25: error: bad value 'L0:2,L1:1,L2:0' for "
		     "HCCL_OP_RETRY_ENABLE");
	expect_error("env:\n  HCCL_CONNECT_TIMEOUT: 60\n",
		     "mem.yaml:2:25: error: bad value '60' for HCCL_CONNECT_TIMEOUT");
	expect_error("cluster: {ranks: 2}\nrank_env:\n  - {rank: 1, "
		     "HCCL_EXEC_TIMEOUT: 60}\n  - {rank: 1}\n",
		     "mem.yaml:4:12: error: rank 1 has two rank_env entries");
	expect_error("communicators:\n  - {name: w}\n  - {name: w}\n",
		     "mem.yaml:3:12: error: communicator name 'w' is used twice");
	expect_error("communicators:\n  - {name: c, count: 4}\n  - {name: c3}\n",
		     "mem.yaml:3:12: error: communicator name 'c3' is used twice");
	expect_error("cluster: {ranks: 4}\ncommunicators:\n"
		     "  - {name: p, ranks: [0, 1]}\nprogram:\n"
		     "  - allreduce: {stream: s, comm: p, ranks: [1, 2]}\n",
		     "mem.yaml:5:44: error: rank 2 is not a member of "
		     "communicator 'p'");
	expect_error("communicators: [{name: w}]\nprogram:\n"
		     "  - send: {stream: s, comm: w, peer: 1}\n",
		     "mem.yaml:3:38: error: rank 1 would send to itself");
	expect_error("communicators: [{name: w}]\nprogram:\n"
		     "  - send: {stream: s, comm: w, peer: 2, ranks: [0]}\n",
		     "mem.yaml:3:38: error: peer 2 is outside communicator 'w' "
		     "(2 ranks)");
	expect_error("program:\n  - aicore: {stream: s, duration: 1ms, "
		     "ranks: [1, 1]}\n",
		     "mem.yaml:2:47: error: rank 1 is listed twice in 'ranks'");
	expect_error("faults:\n  - link_error: {rank: 1, peer: 1, at: 0}\n",
		     "mem.yaml:2:33: error: a link joins two ranks; peer is rank 1 itself");
	expect_error("faults:\n  - mismatch: {rank: 1, op: 0, type: send}\n",
		     "mem.yaml:2:38: error: bad value 'send' for 'type'");
	expect_error("faults:\n  - mismatch: {rank: 1, op: 0}\n",
		     "mem.yaml:2:29: error: a mismatch takes exactly one of");
	expect_error("program: {aicore: 1}\n",
		     "mem.yaml:1:10: error: program must be a list, not a mapping");
	expect_error("- 1\n- 2\n",
		     "mem.yaml:1:1: error: a scenario must be a mapping");
	expect_error("name: \"\"\n", "mem.yaml:1:7: error: bad name ''");
	expect_error("model:\n  grant_order: lifo\n",
		     "mem.yaml:2:16: error: bad value 'lifo' for 'grant_order': "
		     "expected one of fifo or random");
	expect_error("cluster:\n  ranks:\n", "mem.yaml:2:9: error: missing "
		     "value for 'ranks'");
}

static void test_ceilings(void **state)
{
	(void)state;
	expect_error("cluster:\n  ranks: 0\n",
		     "mem.yaml:2:10: error: bad value '0' for 'ranks': expected "
		     "an integer from 1 to 1048576");
	expect_error("cluster:\n  ranks: 1048577\n",
		     "mem.yaml:2:10: error: bad value '1048577' for 'ranks'");
	expect_error("cluster:\n  ranks: 99999999999999999999999\n",
		     "mem.yaml:2:10: error: bad value");
	expect_error("cluster:\n  aicpu_cores: 65\n",
		     "mem.yaml:2:16: error: bad value '65' for 'aicpu_cores': "
		     "expected an integer from 1 to 64");
	expect_error("cluster:\n  aicpu_cores: 0\n",
		     "mem.yaml:2:16: error: bad value '0' for 'aicpu_cores'");
	expect_error("cluster:\n  sq_depth: 1\n",
		     "mem.yaml:2:13: error: bad value '1' for 'sq_depth'");
	expect_error("cluster:\n  sq_depth: 65537\n",
		     "mem.yaml:2:13: error: bad value '65537' for 'sq_depth'");
	expect_error("model:\n  expand: -5us\n",
		     "mem.yaml:2:11: error: bad value '-5us' for 'expand'");
	expect_error("run:\n  tail: 10000001s\n",
		     "mem.yaml:2:9: error: bad value '10000001s' for 'tail'");
	expect_error("run:\n  time_limit: 0\n",
		     "mem.yaml:2:15: error: bad value '0' for 'time_limit'");
	expect_error("model:\n  link_latency: 5 parsecs\n",
		     "mem.yaml:2:17: error: bad value '5 parsecs'");
	expect_error("model:\n  slave_streams: 9\n",
		     "mem.yaml:2:18: error: bad value '9' for 'slave_streams'");
	expect_error("model:\n  link_gbps: 0\n",
		     "mem.yaml:2:14: error: bad value '0' for 'link_gbps'");
	expect_error("communicators:\n  - {name: a, count: 4000}\n"
		     "  - {name: b, count: 100}\n",
		     "mem.yaml:3:22: error: communicators add up to more than "
		     "4096 instances");
	expect_error("communicators:\n  - {name: a, count: 0}\n",
		     "mem.yaml:2:22: error: bad value '0' for 'count'");
	expect_error("communicators: [{name: w}]\nprogram:\n"
		     "  - allreduce: {stream: s, comm: w, bytes: 2TiB}\n",
		     "mem.yaml:3:44: error: bad value '2TiB' for 'bytes'");
	expect_error("faults:\n  - slow_rank: {rank: 0, factor: 0}\n",
		     "mem.yaml:2:34: error: bad value '0' for 'factor'");
	expect_error("faults:\n  - clock_skew: {rank: 0, offset: -20000000s}\n",
		     "mem.yaml:2:35: error: bad value '-20000000s' for 'offset'");
}

static void test_keeps_going(void **state)
{
	struct tl *t = tl_load("cluster:\n  ranks: 0\n  cores: 4\n"
			       "model:\n  expand: 1 fortnight\n"
			       "program:\n  - aicore: {stream: s}\n");

	(void)state;
	assert_int_equal(t->err, HANGDX_EPARSE);
	assert_int_equal(t->dg.n, 4);
	assert_non_null(strstr(t->dg.text, "mem.yaml:2:10:"));
	assert_non_null(strstr(t->dg.text, "mem.yaml:3:3: error: unknown key "
			       "'cores' in cluster; did you mean 'aicpu_cores'?"));
	assert_non_null(strstr(t->dg.text, "mem.yaml:5:11:"));
	assert_non_null(strstr(t->dg.text, "mem.yaml:7:13:"));
	assert_int_equal(hangdx_ctx_diag_count(t->ctx, HANGDX_ERROR), 4);
	tl_free(t);
}

static void test_units(void **state)
{
	struct tl *t = expect_ok(
		"model:\n"
		"  link_latency: 1.5us\n"
		"  expand: 250ns\n"
		"  host_api: 0.001ms\n"
		"  dispatch: 0\n"
		"  aicpu_op_timeout: 28\n"
		"  link_gbps: 12.5\n"
		"  grant_order: Random\n"
		"  order_launch: off\n"
		"  hccl_shares_pool: no\n"
		"  stuck_with_retry: yes\n"
		"run:\n"
		"  tail: 2min\n"
		"  time_limit: 1.5h\n"
		"  seed: 18446744073709551615\n"
		"  log_level: debug\n");
	const struct hangdx_scenario *sc = t->sc;

	(void)state;
	assert_int_equal(sc->link_latency_ns, 1500);
	assert_int_equal(sc->expand_ns, 250);
	assert_int_equal(sc->host_api_ns, 1000);
	assert_int_equal(sc->dispatch_ns, 0);
	assert_int_equal(sc->aicpu_timeout_ns, 28 * HX_NS_PER_S);
	assert_true(sc->link_gbps == 12.5);
	assert_int_equal(sc->grant, HX_GRANT_RANDOM);
	assert_false(sc->order_launch);
	assert_false(sc->hccl_shares_pool);
	assert_true(sc->stuck_with_retry);
	assert_int_equal(sc->tail_ns, 120 * HX_NS_PER_S);
	assert_int_equal(sc->time_limit_ns, 5400 * HX_NS_PER_S);
	assert_int_equal(sc->seed, UINT64_MAX);
	assert_int_equal(sc->log_level, HX_LOG_DEBUG);
	tl_free(t);
}

static struct tl *tl_preset(const char *name);

/* Durations as ranges LO..HI: program durations, host_sleep, the model's
 * delays and fault times; a single value is a range of one. */
static void test_ranges(void **state)
{
	struct tl *t = expect_ok(
		"cluster: {ranks: 2}\n"
		"model:\n"
		"  link_latency: 1us..20us\n"
		"  expand: 10..50us\n"
		"  host_api: 5us\n"
		"  dispatch: 0 .. 2us\n"
		"program:\n"
		"  - aicore: {stream: s, duration: 1ms..2.5ms}\n"
		"  - aicpu: {stream: s, duration: 200us}\n"
		"  - host_sleep: {duration: 1..2}\n"
		"faults:\n"
		"  - rank_death: {rank: 1, at: 3s..4s}\n");
	const struct hangdx_scenario *sc = t->sc;

	(void)state;
	assert_int_equal(sc->link_latency_ns, 1000);
	assert_int_equal(sc->link_latency_max_ns, 20000);
	assert_int_equal(sc->expand_ns, 10000);     /* the right side's unit */
	assert_int_equal(sc->expand_max_ns, 50000);
	assert_int_equal(sc->host_api_ns, 5000);
	assert_int_equal(sc->host_api_max_ns, 5000);
	assert_int_equal(sc->dispatch_ns, 0);
	assert_int_equal(sc->dispatch_max_ns, 2000);
	assert_int_equal(sc->steps[0].dur_ns, HX_NS_PER_MS);
	assert_int_equal(sc->steps[0].dur_max_ns, 2500 * HX_NS_PER_US);
	assert_int_equal(sc->steps[1].dur_ns, 200 * HX_NS_PER_US);
	assert_int_equal(sc->steps[1].dur_max_ns, 200 * HX_NS_PER_US);
	assert_int_equal(sc->steps[2].dur_ns, HX_NS_PER_S);
	assert_int_equal(sc->steps[2].dur_max_ns, 2 * HX_NS_PER_S);
	assert_int_equal(sc->faults[0].at_ns, 3 * HX_NS_PER_S);
	assert_int_equal(sc->faults[0].at_max_ns, 4 * HX_NS_PER_S);
	tl_free(t);
	t = tl_preset("reference");
	assert_int_equal(hangdx_scenario_set(t->sc, "link_latency", "2us..4us"), 0);
	assert_int_equal(t->sc->link_latency_ns, 2000);
	assert_int_equal(t->sc->link_latency_max_ns, 4000);
	assert_int_equal(hangdx_scenario_set(t->sc, "expand_us", "1..3"), 0);
	assert_int_equal(t->sc->expand_ns, 1000);
	assert_int_equal(t->sc->expand_max_ns, 3000);
	assert_int_equal(hangdx_scenario_set(t->sc, "expand", "9us"), 0);
	assert_int_equal(t->sc->expand_max_ns, 9000);
	assert_int_not_equal(hangdx_scenario_set(t->sc, "host_api", "5us..1us"), 0);
	assert_int_not_equal(hangdx_scenario_set(t->sc, "dispatch", "x..1us"), 0);
	assert_int_equal(t->sc->host_api_ns, 5000);  /* unchanged */
	tl_free(t);
}

static void test_range_errors(void **state)
{
	(void)state;
	expect_error("model:\n  link_latency: 5us..1us\n",
		     "mem.yaml:2:17: error: bad range '5us..1us' for "
		     "'link_latency': the minimum is above the maximum");
	expect_error("program:\n  - aicore: {stream: s, duration: 2ms..1ms}\n",
		     "mem.yaml:2:35: error: bad range '2ms..1ms' for 'duration': "
		     "the minimum is above the maximum");
	expect_error("program:\n  - aicore: {stream: s, duration: -1us..5us}\n",
		     "mem.yaml:2:35: error: bad value '-1us..5us' for 'duration': "
		     "expected a duration up to 10000000s or a range LO..HI");
	expect_error("program:\n  - aicpu: {stream: s, duration: 1ms..}\n",
		     "mem.yaml:2:34: error: bad value '1ms..' for 'duration'");
	expect_error("program:\n  - aicpu: {stream: s, duration: ..1ms}\n",
		     "mem.yaml:2:34: error: bad value '..1ms' for 'duration'");
	expect_error("program:\n  - host_sleep: {duration: 1s..2s..3s}\n",
		     "mem.yaml:2:28: error: bad value '1s..2s..3s' for 'duration'");
	expect_error("model:\n  expand: abc..1us\n",
		     "mem.yaml:2:11: error: bad value 'abc..1us' for 'expand'");
	expect_error("model:\n  expand: 1us..20000000s\n",
		     "mem.yaml:2:11: error: bad value '1us..20000000s'");
	expect_error("cluster: {ranks: 2}\nfaults:\n"
		     "  - rank_death: {rank: 0, at: 2s..1s}\n",
		     "mem.yaml:3:31: error: bad range '2s..1s' for 'at'");
	/* timeouts and run times take single values */
	expect_error("program:\n  - notify_wait: {stream: s, notify: n, "
		     "timeout: 1s..2s}\n", "mem.yaml:2:50: error: bad value");
	expect_error("run:\n  tail: 1s..2s\n", "mem.yaml:2:9: error: bad value");
}

static void test_syntax_error(void **state)
{
	struct tl *t = tl_load("cluster:\n  ranks: [1, 2\nmodel: {}\n");

	(void)state;
	assert_int_equal(t->err, HANGDX_EPARSE);
	assert_int_equal(t->dg.n, 1);
	assert_non_null(strstr(t->dg.text, "mem.yaml:3:6: error: YAML: did not "
			       "find expected ',' or ']' while parsing a flow "
			       "sequence (line 2, column 10)"));
	tl_free(t);

	expect_error("a: b: c\n", "mem.yaml:1:5: error: YAML: mapping values "
		     "are not allowed in this context");
	expect_error("name: x\n\xff\n", "mem.yaml:2:1: error: YAML: invalid "
		     "leading UTF-8 octet (byte 0xff)");
	expect_error("name: a\n---\nname: b\n", "mem.yaml:2:1: error: a "
		     "scenario is one YAML document");
	expect_error("name: \"a\\0b\"\n", "mem.yaml:1:7: error: NUL character");
}

static void test_empty(void **state)
{
	(void)state;
	expect_error("", "mem.yaml:1:1: error: the scenario is empty");
	expect_error("# nothing but a comment\n\n",
		     "mem.yaml:1:1: error: the scenario is empty");
	expect_error("---\n", "mem.yaml:1:1: error: the scenario is empty");
}

static void test_aliases(void **state)
{
	static const char laughs[] =
		"a: &a [x, x, x, x, x, x, x, x, x]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
		"h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
		"i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
	struct tl *t = tl_load(laughs);

	(void)state;
	assert_int_equal(t->err, HANGDX_EPARSE);
	assert_non_null(strstr(t->dg.text, "mem.yaml:2:8: error: YAML aliases "
			       "(*a) are not supported"));
	tl_free(t);

	expect_error("cluster: &c {ranks: 4}\nmodel: *c\n",
		     "mem.yaml:2:8: error: YAML aliases (*c) are not supported");
	/* an anchor alone is harmless */
	t = expect_ok("cluster: &c {ranks: 4}\n");
	assert_int_equal(t->sc->nranks, 4);
	tl_free(t);
}

static void test_too_large(void **state)
{
	size_t n = (16u << 20) + 1;
	char *big = malloc(n);
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = (void *)1;
	struct diags dg = { .len = 0 };

	(void)state;
	assert_non_null(big);
	memset(big, ' ', n);
	hangdx_ctx_set_diag(ctx, capture, &dg);
	assert_int_equal(hangdx_scenario_load_mem(ctx, "big.yaml", big, n, &sc),
			 HANGDX_EPARSE);
	assert_null(sc);
	assert_non_null(strstr(dg.text, "big.yaml:0:0: error: the scenario is "
			       "larger than 16 MiB"));
	free(big);
	hangdx_ctx_free(ctx);
}

/* ---- the HCCL environment ---------------------------------------------- */

static void test_env_retry(void **state)
{
	struct hx_env env;

	(void)state;
	hx_env_defaults(&env);
	assert_int_equal(hx_env_parse_retry(&env, "L0:1,L1:0,L2:1"), 0);
	assert_true(env.retry_has_l0 && env.set_retry);
	assert_int_equal(env.retry[0], 1);
	assert_int_equal(env.retry[1], 0);
	assert_int_equal(env.retry[2], 1);

	hx_env_defaults(&env);
	assert_int_equal(hx_env_parse_retry(&env, " L1 : 1 , L2:0 "), 0);
	assert_false(env.retry_has_l0);
	assert_int_equal(env.retry[0], 0);
	assert_int_equal(env.retry[1], 1);
	assert_int_equal(env.retry[2], 0);

	hx_env_defaults(&env);
	assert_int_equal(hx_env_parse_retry(&env, "L0:2,L1:0,L2:0"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L3:1,L1:0,L2:0"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L1:1"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L0:1,L1:1"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L1:1,L1:0,L2:0"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, ""), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L1:1;L2:0"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry(&env, "L1:,L2:0"), HANGDX_EINVAL);
	assert_false(env.set_retry);
	assert_int_equal(env.retry[1], 0);

	assert_int_equal(hx_env_parse_retry_params(&env, "MaxCnt:3"), 0);
	assert_int_equal(env.retry_max_cnt, 3);
	assert_int_equal(env.retry_hold_ms, 5000);
	assert_true(env.set_params);
	assert_int_equal(hx_env_parse_retry_params(&env,
		"HoldTime: 0, IntervalTime:60000"), 0);
	assert_int_equal(env.retry_hold_ms, 0);
	assert_int_equal(env.retry_interval_ms, 60000);
	assert_int_equal(env.retry_max_cnt, 3);
	assert_int_equal(hx_env_parse_retry_params(&env, "MaxCnt:0"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry_params(&env, "MaxCnt:11"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry_params(&env, "HoldTime:60001"),
			 HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry_params(&env, "Foo:1"), HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry_params(&env, "MaxCnt:2,MaxCnt:2"),
			 HANGDX_EINVAL);
	assert_int_equal(hx_env_parse_retry_params(&env,
		"MaxCnt:5,HoldTime:99999"), HANGDX_EINVAL);
	assert_int_equal(env.retry_max_cnt, 3);   /* unchanged on error */
}

static void test_env_names(void **state)
{
	enum hx_mode m;
	enum hx_coll c;
	enum hx_dtype d;

	(void)state;
	assert_int_equal(hx_mode_parse("ai_cpu", &m), 0);
	assert_int_equal(m, HX_MODE_AI_CPU);
	assert_int_equal(hx_mode_parse("Host_TS", &m), 0);
	assert_int_equal(m, HX_MODE_HOST_TS);
	assert_int_equal(hx_mode_parse("AICPU_TS", &m), 0);
	assert_int_equal(hx_mode_parse("AIV", &m), 0);
	assert_int_equal(hx_mode_parse("CCU", &m), HANGDX_EINVAL);
	assert_string_equal(hx_mode_name(HX_MODE_HOST), "HOST");
	assert_int_equal(hx_coll_parse("allreduce", &c), 0);
	assert_int_equal(c, HX_COLL_ALLREDUCE);
	assert_int_equal(hx_coll_parse("AlltoAll", &c), 0);
	assert_int_equal(c, HX_COLL_ALLTOALL);
	assert_string_equal(hx_coll_name(HX_COLL_REDUCESCATTER), "ReduceScatter");
	assert_int_equal(hx_coll_parse("gather", &c), HANGDX_EINVAL);
	assert_int_equal(hx_dtype_parse("bfloat16", &d), 0);
	assert_int_equal(d, HX_DT_BF16);
	assert_string_equal(hx_dtype_name(HX_DT_INT64), "int64");
	assert_int_equal(hx_dtype_size(HX_DT_INT64), 8);
	assert_int_equal(hx_dtype_size(HX_DT_BF16), 2);
}

static void test_retry_active(void **state)
{
	struct tl *t = expect_ok(
		"cluster: {ranks: 16, ranks_per_node: 8}\n"
		"env:\n"
		"  HCCL_OP_RETRY_ENABLE: \"L0:1,L1:0,L2:0\"\n"
		"rank_env:\n"
		"  - {rank: 1, HCCL_OP_EXPANSION_MODE: HOST}\n"
		"  - {rank: 9, HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"}\n"
		"communicators:\n"
		"  - {name: intra, ranks: [0, 1, 7]}\n"
		"  - {name: inter, ranks: [0, 8]}\n"
		"  - {name: world}\n"
		"  - {name: forced, ranks: [0, 8], retry: on}\n"
		"  - {name: off, ranks: [0, 2], retry: off}\n");
	struct hangdx_scenario *sc = t->sc;
	const struct hx_env *e;

	(void)state;
	assert_true(hx_retry_active(sc, 0, 0));     /* L0 inside a node */
	assert_false(hx_retry_active(sc, 0, 1));    /* rank 1 is in HOST mode */
	assert_false(hx_retry_active(sc, 1, 0));    /* L1 across nodes: off */
	assert_true(hx_retry_active(sc, 1, 9));     /* rank 9's own env */
	assert_false(hx_retry_active(sc, 2, 0));
	assert_true(hx_retry_active(sc, 3, 0));     /* group override */
	assert_false(hx_retry_active(sc, 4, 0));
	assert_false(hx_retry_active(sc, 99, 0));
	e = hx_scenario_env(sc, 9);
	assert_int_equal(e->retry[1], 1);
	assert_int_equal(e->exec_timeout_s, 1836);
	assert_ptr_equal(hx_scenario_env(sc, 3), &sc->env);
	assert_int_equal(sc->noverrides, 2);

	/* the two-level form leaves L0 off */
	assert_int_equal(hx_env_parse_retry(&sc->env, "L1:1,L2:0"), 0);
	assert_false(hx_retry_active(sc, 0, 0));    /* intra: L0 */
	assert_true(hx_retry_active(sc, 2, 0));     /* world: L1 */
	assert_int_equal(hx_env_parse_retry(&sc->env, "L0:1,L1:1,L2:0"), 0);
	assert_true(hx_retry_active(sc, 0, 0));
	/* only on A3 */
	sc->product = HX_PROD_A2;
	assert_false(hx_retry_active(sc, 2, 0));
	tl_free(t);

	/* A2 without an explicit mode expands on the host */
	t = expect_ok("cluster: {product: A2}\n");
	assert_int_equal(t->sc->env.mode, HX_MODE_HOST);
	assert_false(t->sc->env.set_mode);
	tl_free(t);
}

/* ---- --set -------------------------------------------------------------- */

static struct tl *tl_preset(const char *name)
{
	struct tl *t = calloc(1, sizeof *t);

	assert_non_null(t);
	t->ctx = hangdx_ctx_new(NULL);
	hangdx_ctx_set_diag(t->ctx, capture, &t->dg);
	assert_int_equal(hangdx_scenario_preset(t->ctx, name, &t->sc), 0);
	return t;
}

static void expect_set_error(struct tl *t, const char *key, const char *value,
			     const char *want)
{
	t->dg.len = 0;
	t->dg.text[0] = '\0';
	assert_int_equal(hangdx_scenario_set(t->sc, key, value), HANGDX_EINVAL);
	if (!strstr(t->dg.text, want)) {
		print_error("--set %s=%s: want %s\ngot: %s\n", key, value, want,
			    t->dg.text);
		fail();
	}
}

static void test_set(void **state)
{
	struct tl *t = tl_preset("reference");
	struct hangdx_scenario *sc = t->sc;

	(void)state;
	assert_int_equal(hangdx_scenario_set(sc, "communicators", "4"), 0);
	assert_int_equal(hx_scenario_ncomms(sc), 4);
	assert_int_equal(hangdx_scenario_set(sc, "cores", "4"), 0);
	assert_int_equal(sc->cores, 4);
	assert_int_equal(hangdx_scenario_set(sc, "ranks", "8"), 0);
	assert_int_equal(sc->nranks, 8);
	assert_int_equal(hangdx_scenario_set(sc, "ranks_per_node", "4"), 0);
	assert_int_equal(hangdx_scenario_set(sc, "sq_depth", "64"), 0);
	assert_int_equal(sc->sq_depth, 64);
	assert_int_equal(hangdx_scenario_set(sc, "exec_timeout", "600"), 0);
	assert_int_equal(sc->env.exec_timeout_s, 600);
	assert_int_equal(hangdx_scenario_set(sc, "seed", "7"), 0);
	assert_int_equal(sc->seed, 7);
	assert_int_equal(hangdx_scenario_set(sc, "grant", "random"), 0);
	assert_int_equal(sc->grant, HX_GRANT_RANDOM);
	assert_int_equal(hangdx_scenario_set(sc, "order_launch", "off"), 0);
	assert_false(sc->order_launch);
	assert_int_equal(hangdx_scenario_set(sc, "hccl_shares_pool", "false"), 0);
	assert_false(sc->hccl_shares_pool);
	assert_int_equal(hangdx_scenario_set(sc, "stuck_with_retry", "on"), 0);
	assert_true(sc->stuck_with_retry);
	assert_int_equal(hangdx_scenario_set(sc, "tail", "60"), 0);
	assert_int_equal(sc->tail_ns, 60 * HX_NS_PER_S);
	assert_int_equal(hangdx_scenario_set(sc, "time_limit", "4000"), 0);
	assert_int_equal(sc->time_limit_ns, 4000 * HX_NS_PER_S);
	assert_int_equal(hangdx_scenario_set(sc, "log_level", "warning"), 0);
	assert_int_equal(sc->log_level, HX_LOG_WARNING);
	assert_int_equal(hangdx_scenario_set(sc, "link_latency", "7us"), 0);
	assert_int_equal(sc->link_latency_ns, 7000);
	assert_int_equal(hangdx_scenario_set(sc, "link_latency_us", "9"), 0);
	assert_int_equal(sc->link_latency_ns, 9000);
	assert_int_equal(hangdx_scenario_set(sc, "expand", "0.1ms"), 0);
	assert_int_equal(sc->expand_ns, 100000);
	assert_int_equal(hangdx_scenario_set(sc, "expand_us", "20"), 0);
	assert_int_equal(sc->expand_ns, 20000);
	assert_int_equal(hangdx_scenario_set(sc, "slave_streams", "0"), 0);
	assert_int_equal(sc->slave_streams, 0);
	assert_int_equal(hangdx_scenario_set(sc, "mode", "host"), 0);
	assert_int_equal(sc->env.mode, HX_MODE_HOST);
	assert_true(sc->env.set_mode);
	assert_false(hx_retry_active(sc, 0, 0));
	assert_int_equal(hangdx_scenario_set(sc, "mode", "AI_CPU"), 0);
	assert_true(hx_retry_active(sc, 0, 0));
	assert_int_equal(hangdx_scenario_set(sc, "retry", "off"), 0);
	assert_false(hx_retry_active(sc, 0, 0));
	assert_int_equal(sc->env.retry[0] + sc->env.retry[1], 0);
	assert_int_equal(hangdx_scenario_set(sc, "product", "910"), 0);
	assert_int_equal(sc->product, HX_PROD_910);
	assert_int_equal(sc->env.mode, HX_MODE_AI_CPU);  /* set explicitly */

	expect_set_error(t, "cores", "65", "--set:0:0: error: bad value '65' "
			 "for 'cores': expected an integer from 1 to 64");
	assert_int_equal(sc->cores, 4);
	expect_set_error(t, "cors", "4", "unknown key 'cors'; did you mean "
			 "'cores'?");
	expect_set_error(t, "foo", "1", "unknown key 'foo'");
	expect_set_error(t, "communicators", "0", "bad value '0' for "
			 "'communicators'");
	expect_set_error(t, "communicators", "4097", "bad value '4097'");
	expect_set_error(t, "ranks", "0", "bad value '0' for 'ranks'");
	expect_set_error(t, "ranks", "1048577", "bad value '1048577'");
	expect_set_error(t, "sq_depth", "1", "bad value '1'");
	expect_set_error(t, "retry", "maybe", "expected true/false, on/off or "
			 "yes/no");
	expect_set_error(t, "mode", "CCU", "bad value 'CCU' for 'mode'");
	expect_set_error(t, "grant", "lifo", "bad value 'lifo' for 'grant'");
	expect_set_error(t, "tail", "-1s", "bad value '-1s' for 'tail'");
	expect_set_error(t, "exec_timeout", "2147483648", "bad value");
	expect_set_error(t, "slave_streams", "9", "bad value '9'");
	expect_set_error(t, "product", "A5", "expected one of A3, A2 or 910");
	assert_int_equal(hangdx_scenario_set(sc, NULL, "1"), HANGDX_EINVAL);
	assert_int_equal(hangdx_scenario_set(NULL, "cores", "1"), HANGDX_EINVAL);
	tl_free(t);
}

static void test_set_retry_clears_groups(void **state)
{
	struct tl *t = expect_ok(
		"cluster: {ranks: 2}\n"
		"rank_env:\n"
		"  - {rank: 1, HCCL_EXEC_TIMEOUT: 100}\n"
		"communicators:\n"
		"  - {name: a, retry: off, exec_timeout: 50}\n"
		"  - {name: b, count: 3, retry: on}\n");
	struct hangdx_scenario *sc = t->sc;

	(void)state;
	assert_true(hx_retry_active(sc, 1, 0));
	assert_false(hx_retry_active(sc, 0, 0));
	assert_int_equal(hangdx_scenario_set(sc, "retry", "on"), 0);
	assert_int_equal(sc->groups[0].retry, -1);
	assert_int_equal(sc->groups[1].retry, -1);
	assert_true(hx_retry_active(sc, 0, 0));
	assert_true(hx_retry_active(sc, 0, 1));
	assert_int_equal(sc->overrides[0].env.retry[0], 1);
	assert_true(sc->overrides[0].env.retry_has_l0);
	assert_int_equal(hangdx_scenario_set(sc, "exec_timeout", "0"), 0);
	assert_int_equal(hx_scenario_env(sc, 1)->exec_timeout_s, 0);
	assert_int_equal(sc->groups[0].exec_timeout_s, 0);
	/* no sweep mark: the first group with count > 1 */
	assert_int_equal(hangdx_scenario_set(sc, "communicators", "5"), 0);
	assert_int_equal(sc->groups[1].count, 5);
	assert_int_equal(sc->groups[0].count, 1);
	tl_free(t);

	t = expect_ok("communicators: [{name: w}]\n");
	expect_set_error(t, "communicators", "3", "'communicators' needs a "
			 "communicator with 'sweep: true'");
	tl_free(t);
}

static void test_set_rejects_dangling(void **state)
{
	struct tl *t = tl_preset("rank-death");
	struct hangdx_scenario *sc = t->sc;

	(void)state;
	expect_set_error(t, "ranks", "2", "preset:rank-death:30:0: error: the "
			 "fault names rank 2, but the cluster has 2 ranks "
			 "(after --set ranks=2)");
	assert_int_equal(sc->nranks, 4);
	assert_int_equal(hangdx_scenario_set(sc, "ranks", "3"), 0);
	tl_free(t);

	t = expect_ok(
		"cluster: {ranks: 4}\n"
		"communicators:\n"
		"  - {name: c, count: 4, sweep: true}\n"
		"  - {name: p, ranks: [2, 3]}\n"
		"program:\n"
		"  - allreduce: {stream: s, comm: c3}\n"
		"  - send: {stream: s, comm: c, peer: 3, ranks: [0]}\n"
		"  - aicore: {stream: s, duration: 1, ranks: [1]}\n"
		"  - repeat: {count: 1000, steps: [{allreduce: {stream: s, comm: c}}]}\n"
		"faults:\n"
		"  - mismatch: {rank: 1, op: 3500, type: allgather}\n");
	sc = t->sc;
	expect_set_error(t, "communicators", "2", "mem.yaml:6:0: error: "
			 "communicator 'c3' does not exist: 'c' has 2 (after "
			 "--set communicators=2)");
	assert_int_equal(sc->groups[0].count, 4);
	expect_set_error(t, "communicators", "3", "mem.yaml:11:0: error: "
			 "mismatch op 3500: rank 1 issues only 3001 collectives");
	expect_set_error(t, "ranks", "3", "communicator 'p' has rank 3");
	expect_set_error(t, "ranks", "3", "mem.yaml:7:0: error: peer 3 is "
			 "outside communicator 'c' (3 ranks)");
	expect_set_error(t, "ranks", "1", "the step names rank 1");
	assert_int_equal(sc->nranks, 4);
	assert_int_equal(hangdx_scenario_set(sc, "communicators", "5"), 0);
	assert_int_equal(hangdx_scenario_set(sc, "ranks", "5"), 0);
	tl_free(t);
}

/* ---- allocation failure ---------------------------------------------------- */

static long count_allocs(const char *text)
{
	struct failalloc fa;
	struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
	struct hangdx_scenario *sc;

	assert_int_equal(hangdx_scenario_load_mem(ctx, "r.yaml", text,
						  strlen(text), &sc), 0);
	hangdx_scenario_free(sc);
	hangdx_ctx_free(ctx);
	assert_int_equal(fa.live, 0);
	return fa.count;
}

static void nomem_loop(const char *text)
{
	long total = count_allocs(text), n;
	int ok = 0, nomem = 0;

	assert_true(total > 5);
	for (n = 2; n <= total + 1; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, n);
		struct hangdx_scenario *sc = NULL;
		int err;

		assert_non_null(ctx);
		err = hangdx_scenario_load_mem(ctx, "r.yaml", text, strlen(text),
					       &sc);
		if (err == HANGDX_OK) {
			assert_non_null(sc);
			ok++;
		} else {
			assert_int_equal(err, HANGDX_ENOMEM);
			assert_null(sc);
			nomem++;
		}
		hangdx_scenario_free(sc);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
	assert_true(nomem >= total - 1);
}

static void test_nomem(void **state)
{
	(void)state;
	nomem_loop(hangdx_preset_text("reference"));
	nomem_loop(hangdx_preset_text("mismatch"));
	nomem_loop("cluster: {ranks: 4}\n"
		   "rank_env: [{rank: 1, HCCL_EXEC_TIMEOUT: 5}]\n"
		   "communicators: [{name: w, ranks: [0, 1]}, {name: c, count: 3}]\n"
		   "program:\n"
		   "  - repeat: {count: 40, steps: [{notify_wait: {stream: s, "
		   "notify: n, timeout: 1}}, {allreduce: {stream: t, comm: w}}]}\n"
		   "faults: [{mismatch: {rank: 0, op: 3, bytes: 1}}]\n");
}

static void test_set_nomem(void **state)
{
	const char *text = hangdx_preset_text("mismatch");
	long n;

	(void)state;
	for (n = 2; n < 400; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, 0);
		struct hangdx_scenario *sc = NULL;
		int err;

		assert_int_equal(hangdx_scenario_load_mem(ctx, "m.yaml", text,
							  strlen(text), &sc), 0);
		fa.fail_at = fa.count + n - 1;
		err = hangdx_scenario_set(sc, "ranks", "3");
		assert_true(err == HANGDX_OK || err == HANGDX_ENOMEM);
		if (err == HANGDX_OK)
			assert_int_equal(sc->nranks, 3);
		else
			assert_int_equal(sc->nranks, 4);
		hangdx_scenario_free(sc);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
		if (err == HANGDX_OK)
			break;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_minimal_defaults),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_preset_unknown),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_collectives),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_error_positions),
		cmocka_unit_test(test_ceilings),
		cmocka_unit_test(test_keeps_going),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_range_errors),
		cmocka_unit_test(test_syntax_error),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_env_retry),
		cmocka_unit_test(test_env_names),
		cmocka_unit_test(test_retry_active),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_set_retry_clears_groups),
		cmocka_unit_test(test_set_rejects_dangling),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_set_nomem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
