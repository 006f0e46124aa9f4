/*
 * fuzz_waitgraph.c - libFuzzer target for the deadlock detector
 * (src/model/waitgraph.c): any bytes read as a small text description of
 * a runtime state (ranks, AICPU pools and their holders, streams with
 * their roles, notifies, tasks in every kind and state, lost ranks,
 * stopped streams), made consistent the way the simulator and the log
 * snapshot keep theirs (every index in range, a pool's busy count equal
 * to its holders), then the wait-for graph, the proof and the DOT writer.
 * The proof is checked against an independent fixpoint, and its answer
 * for invariants: every edge joins nodes that exist; the released set is
 * the greatest one the rules allow; a claimed cycle is a cycle of nodes
 * never released, each one waiting for the next; and when something is
 * never released, a cycle is given (every such node waits for another).
 * A broken invariant aborts, which the fuzzer reports as a crash.
 * FUZZ_WAITGRAPH_SHOW=1 in the environment prints the graph and the
 * answer on stderr (for writing seeds).
 *
 * The language, one item a line (numbers are taken modulo what exists):
 *   ranks N | cores N | comms N       before the first item below
 *   stream RANK ROLE [COMM]           user kernel main order slave
 *   notify RANK ROLE [COMM] [PEER]    user h0 h1 o0 o1 ms sm peer
 *   task STREAM KIND STATE [n=NOTIFY] [e=EVENT] [dep=TASK] [c=COMM]
 *        [op=N] [end=POS]             KIND: aicore aicpu kernel record
 *                                     wait erecord ewait copy; STATE:
 *                                     queued waiting running done failed
 *                                     aborted
 *   head STREAM POS | hold RANK CORE TASK | lost RANK | stop STREAM
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hangdx.h"
#include "model/state.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RANKS 16
#define MAX_CORES 8
#define MAX_COMMS 8
#define MAX_EVENTS 4
#define MAX_STREAMS 256
#define MAX_NOTIFIES 512
#define MAX_TASKS 1024
#define MAX_TOK 12

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_waitgraph: invariant broken: %s\n", what);
		abort();
	}
}

static int word(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static const char *const stream_roles[] = { "user", "kernel", "order", "main",
					    "slave" };
static const char *const notify_roles[] = { "user", "h0", "h1", "o0", "o1",
					    "ms", "sm", "peer" };
static const char *const kinds[] = { "aicore", "aicpu", "kernel", "record",
				     "wait", "erecord", "ewait", "copy" };
static const char *const states[] = { "queued", "waiting", "running", "done",
				      "failed", "aborted" };

struct fz {
	struct hangdx_ctx *ctx;
	struct hangdx_scenario sc;
	struct hx_state st;
	bool init;
	uint32_t ranks, cores, comms;
	int32_t *dep;           /* per task: dep as written, resolved at the end */
	struct { uint32_t rank, core, task; } hold[MAX_RANKS * MAX_CORES];
	size_t nhold;
};

static uint32_t num(const char *s)
{
	return (uint32_t)strtoul(s, NULL, 10);
}

static int setup(struct fz *f)
{
	static const char *const events[MAX_EVENTS] = { "E0", "E1", "E2", "E3" };
	struct hangdx_scenario *sc = &f->sc;

	f->init = true;
	hx_scenario_defaults(sc);
	sc->ctx = f->ctx;
	hx_arena_init(&sc->arena, f->ctx, 0);
	sc->name = "fuzz";
	sc->nranks = f->ranks;
	sc->cores = f->cores;
	sc->sq_depth = 65535;
	sc->groups = hx_arena_alloc(&sc->arena, sizeof *sc->groups);
	if (!sc->groups)
		return HANGDX_ENOMEM;
	sc->ngroups = f->comms ? 1 : 0;
	sc->groups[0].name = "c";
	sc->groups[0].count = f->comms;
	sc->groups[0].retry = -1;
	sc->events = (const char **)events;
	sc->nevents = MAX_EVENTS;
	f->dep = calloc(MAX_TASKS, sizeof *f->dep);
	if (!f->dep)
		return HANGDX_ENOMEM;
	return hx_state_init(&f->st, f->ctx, sc);
}

static int add_stream(struct fz *f, char **tok, int n)
{
	struct hx_state *st = &f->st;
	uint32_t rank, s;
	int role = n > 2 ? word(tok[2], stream_roles, 5) : 0;
	uint32_t c = n > 3 && f->comms ? num(tok[3]) % f->comms : 0;
	int err;

	if (n < 2 || st->nstreams >= MAX_STREAMS)
		return 0;
	rank = num(tok[1]) % f->ranks;
	if (role < 0 || (role != HX_SR_USER && !f->comms))
		role = HX_SR_USER;
	err = hx_state_add_stream(st, rank, (uint8_t)role,
				  role == HX_SR_USER ? -1 : (int32_t)c, &s);
	if (err)
		return err;
	switch (role) {
	case HX_SR_KERNEL: st->dev[rank].comm[c].kstream = s; break;
	case HX_SR_MAIN: st->dev[rank].comm[c].mstream = s; break;
	case HX_SR_ORDER: st->dev[rank].comm[c].ordstream = s; break;
	case HX_SR_SLAVE: st->dev[rank].comm[c].sstream[0] = s; break;
	default: break;
	}
	return 0;
}

static int add_notify(struct fz *f, char **tok, int n)
{
	struct hx_state *st = &f->st;
	int role = n > 2 ? word(tok[2], notify_roles, 8) : 0;
	int32_t c = n > 3 && f->comms ? (int32_t)(num(tok[3]) % f->comms) : -1;
	int32_t peer = n > 4 ? (int32_t)(num(tok[4]) % f->ranks) : 0;
	int32_t out;

	if (n < 2 || st->nnotifies >= MAX_NOTIFIES)
		return 0;
	if (role < 0 || (role != HX_NR_USER && c < 0))
		role = HX_NR_USER;
	if (role == HX_NR_USER)
		c = -1;
	return hx_state_add_notify(st, num(tok[1]) % f->ranks, (uint8_t)role, c,
				   role == HX_NR_PEER ? peer : -1, &out);
}

static int add_task(struct fz *f, char **tok, int n)
{
	struct hx_state *st = &f->st;
	struct hx_task t;
	uint32_t s, idx;
	int kind, state, i, err;

	if (n < 4 || st->nstreams == 0 || st->ntasks >= MAX_TASKS)
		return 0;
	s = num(tok[1]) % (uint32_t)st->nstreams;
	kind = word(tok[2], kinds, HX_T_KIND_COUNT);
	state = word(tok[3], states, 6);
	memset(&t, 0, sizeof t);
	t.kind = (uint8_t)(kind < 0 ? HX_T_AICORE : kind);
	t.comm = t.peer = t.dep = t.event = t.notify = -1;
	for (i = 4; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		uint32_t v;

		if (!eq)
			continue;
		*eq = '\0';
		v = num(eq + 1);
		if (strcmp(tok[i], "n") == 0 && st->nnotifies)
			t.notify = (int32_t)(v % st->nnotifies);
		else if (strcmp(tok[i], "e") == 0)
			t.event = (int32_t)(v % MAX_EVENTS);
		else if (strcmp(tok[i], "dep") == 0)
			f->dep[st->ntasks] = (int32_t)(v % MAX_TASKS) + 1;
		else if (strcmp(tok[i], "c") == 0 && f->comms)
			t.comm = (int32_t)(v % f->comms);
		else if (strcmp(tok[i], "op") == 0)
			t.op = v;
		else if (strcmp(tok[i], "end") == 0)
			t.end_pos = v;
	}
	/* what every producer of a state guarantees */
	if ((t.kind == HX_T_NOTIFY_RECORD || t.kind == HX_T_NOTIFY_WAIT) &&
	    t.notify < 0) {
		err = hx_state_add_notify(st, st->streams[s].rank, HX_NR_USER, -1,
					  -1, &t.notify);
		if (err)
			return err;
	}
	if (t.kind == HX_T_KERNEL && t.comm < 0)
		t.kind = HX_T_AICPU;
	if (t.kind == HX_T_EVENT_RECORD || t.kind == HX_T_EVENT_WAIT) {
		if (t.event < 0)
			t.event = 0;
	}
	err = hx_state_append(st, s, &t, &idx);
	if (err)
		return err;
	st->tasks[idx].state = (uint8_t)(state < 0 ? HX_TS_QUEUED : state);
	return 0;
}

static void item(struct fz *f, char **tok, int n, int *err)
{
	struct hx_state *st = &f->st;
	const char *k = tok[0];

	if (!f->init) {
		uint32_t v = n > 1 ? num(tok[1]) : 0;

		if (strcmp(k, "ranks") == 0) {
			f->ranks = v ? (v - 1) % MAX_RANKS + 1 : 1;
			return;
		}
		if (strcmp(k, "cores") == 0) {
			f->cores = v ? (v - 1) % MAX_CORES + 1 : 1;
			return;
		}
		if (strcmp(k, "comms") == 0) {
			f->comms = v % (MAX_COMMS + 1);
			return;
		}
		*err = setup(f);
		if (*err)
			return;
	}
	if (strcmp(k, "stream") == 0) {
		*err = add_stream(f, tok, n);
	} else if (strcmp(k, "notify") == 0) {
		*err = add_notify(f, tok, n);
	} else if (strcmp(k, "task") == 0) {
		*err = add_task(f, tok, n);
	} else if (strcmp(k, "head") == 0 && n > 2 && st->nstreams) {
		struct hx_stream *s = &st->streams[num(tok[1]) % st->nstreams];
		s->head = (uint32_t)(num(tok[2]) % (s->n + 1));
	} else if (strcmp(k, "hold") == 0 && n > 3 &&
		   f->nhold < HX_ARRAY_LEN(f->hold)) {
		f->hold[f->nhold].rank = num(tok[1]) % f->ranks;
		f->hold[f->nhold].core = num(tok[2]) % f->cores;
		f->hold[f->nhold].task = num(tok[3]);
		f->nhold++;
	} else if (strcmp(k, "lost") == 0 && n > 1) {
		st->dev[num(tok[1]) % f->ranks].alive = false;
	} else if (strcmp(k, "stop") == 0 && n > 1 && st->nstreams) {
		st->streams[num(tok[1]) % st->nstreams].stopped = 1;
	}
}

/* Indices written before their target existed; the pools' busy counts. */
static void finish(struct fz *f)
{
	struct hx_state *st = &f->st;
	size_t i;
	uint32_t r, c;

	for (i = 0; i < st->ntasks; i++)
		if (f->dep[i] > 0 && (size_t)(f->dep[i] - 1) < st->ntasks)
			st->tasks[i].dep = f->dep[i] - 1;
	for (i = 0; i < f->nhold && st->ntasks; i++)
		st->dev[f->hold[i].rank].pool.holder[f->hold[i].core] =
			(int32_t)(f->hold[i].task % st->ntasks);
	for (r = 0; r < f->ranks; r++) {
		struct hx_pool *p = &st->dev[r].pool;
		p->busy = 0;
		for (c = 0; c < p->cap; c++)
			p->busy += p->holder[c] >= 0;
	}
}

/* The released set by plain rounds to a fixpoint, apart from waitgraph.c:
 * lost ranks and missing records are released, a pool with a free core,
 * a task whose every out-edge leads to a released node, a pool one of
 * whose holders is released. */
static void verify(const struct hx_wgraph *g, const struct hx_state *st)
{
	size_t n = g->nnodes, i, e, dead = 0;
	uint8_t *rel = calloc(n + 1, 1);
	uint8_t *succ = calloc(n + 1, 1);
	size_t *first = calloc(n + 2, sizeof *first);
	uint32_t *to = calloc(g->nedges + 1, sizeof *to);
	bool changed = true;

	check(rel && succ && first && to, "out of memory in the check");
	for (e = 0; e < g->nedges; e++) {
		check(g->edges[e].from < n && g->edges[e].to < n,
		      "edge to a node that does not exist");
		first[g->edges[e].from + 2]++;
	}
	for (i = 2; i < n + 2; i++)     /* out-edges of i: to[first[i]..] */
		first[i] += first[i - 1];
	for (e = 0; e < g->nedges; e++)
		to[first[g->edges[e].from + 1]++] = g->edges[e].to;
	for (i = 0; i < n; i++) {
		const struct hx_wnode *w = &g->nodes[i];
		check(w->kind <= HX_WN_NEVER, "node kind");
		check(w->kind != HX_WN_TASK || w->id < st->ntasks, "task node id");
		check((w->kind != HX_WN_POOL && w->kind != HX_WN_LOST) ||
		      w->id < st->nranks, "rank node id");
		if (w->kind == HX_WN_LOST || w->kind == HX_WN_NEVER)
			rel[i] = 1;
		if (w->kind == HX_WN_POOL &&
		    st->dev[w->id].pool.busy < st->dev[w->id].pool.cap)
			rel[i] = 1;
	}
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			bool all = true, any = false;

			if (rel[i])
				continue;
			for (e = first[i]; e < first[i + 1]; e++) {
				all = all && rel[to[e]];
				any = any || rel[to[e]];
			}
			if (g->nodes[i].kind == HX_WN_POOL ? any : all) {
				rel[i] = 1;
				changed = true;
			}
		}
	}
	for (i = 0; i < n; i++) {
		check(!rel[i] == !g->released[i], "released set differs from a fixpoint");
		dead += !rel[i];
	}
	check(dead == g->ndead, "count of deadlocked nodes");
	for (i = 0; i < g->ncycle; i++) {
		uint32_t a = g->cycle[i], b = g->cycle[(i + 1) % g->ncycle];
		bool edge = false;

		check(a < n, "cycle node exists");
		check(!rel[a], "cycle node is never released");
		check(!succ[a], "cycle visits a node once");
		succ[a] = 1;
		for (e = first[a]; e < first[a + 1] && !edge; e++)
			edge = to[e] == b;
		check(edge, "each cycle node waits for the next");
	}
	check(!dead || g->ncycle, "a deadlock comes with its cycle");
	free(rel);
	free(succ);
	free(first);
	free(to);
}

static void show(const struct hx_wgraph *g, const struct hx_state *st)
{
	char a[128], b[128];
	size_t i;

	fprintf(stderr, "%zu nodes, %zu edges, %zu never released, cycle of %zu\n",
		g->nnodes, g->nedges, g->ndead, g->ncycle);
	for (i = 0; i < g->nedges; i++) {
		const struct hx_wnode *x = &g->nodes[g->edges[i].from];
		const struct hx_wnode *y = &g->nodes[g->edges[i].to];

		a[0] = b[0] = '\0';
		if (x->kind == HX_WN_TASK)
			hx_task_label(st, x->id, a, sizeof a);
		if (y->kind == HX_WN_TASK)
			hx_task_label(st, y->id, b, sizeof b);
		fprintf(stderr, "  n%u %s -> n%u %s (%s)\n", g->edges[i].from, a,
			g->edges[i].to, b,
			hx_wedge_why_name((enum hx_wedge_why)g->edges[i].why));
	}
}

static bool same(const struct hx_wgraph *a, const struct hx_wgraph *b)
{
	size_t i;

	if (a->nnodes != b->nnodes || a->nedges != b->nedges)
		return false;
	for (i = 0; i < a->nnodes; i++)
		if (a->nodes[i].kind != b->nodes[i].kind ||
		    a->nodes[i].id != b->nodes[i].id)
			return false;
	for (i = 0; i < a->nedges; i++)
		if (a->edges[i].from != b->edges[i].from ||
		    a->edges[i].to != b->edges[i].to ||
		    a->edges[i].why != b->edges[i].why ||
		    a->edges[i].obj != b->edges[i].obj)
			return false;
	return true;
}

/* A rank marked as holding a cycle of its own has a never-released node
 * whose never-released successors include one of the same rank. */
static void check_local(const struct hx_wgraph *g, const struct hx_state *st,
			const uint8_t *mark)
{
	uint8_t *seen = calloc(st->nranks + 1, 1);
	size_t i;
	uint32_t r;

	if (!seen)
		return;
	for (i = 0; i < g->nedges; i++) {
		const struct hx_wedge *e = &g->edges[i];
		const struct hx_wnode *a = &g->nodes[e->from], *z = &g->nodes[e->to];
		uint32_t ra, rz;

		if (g->released[e->from] || g->released[e->to] ||
		    (a->kind != HX_WN_TASK && a->kind != HX_WN_POOL) ||
		    (z->kind != HX_WN_TASK && z->kind != HX_WN_POOL))
			continue;
		ra = a->kind == HX_WN_TASK ? st->streams[st->tasks[a->id].stream].rank : a->id;
		rz = z->kind == HX_WN_TASK ? st->streams[st->tasks[z->id].stream].rank : z->id;
		if (ra == rz && ra < st->nranks)
			seen[ra] = 1;
	}
	for (r = 0; r < st->nranks; r++)
		check(!mark[r] || seen[r], "a local cycle has a local edge");
	free(seen);
}

static void run(struct fz *f)
{
	struct hx_wgraph g, g2;
	struct hx_buf b;
	uint8_t *mark;

	memset(&g, 0, sizeof g);
	memset(&g2, 0, sizeof g2);
	if (hx_wgraph_build(&g, &f->st) == HANGDX_OK) {
		check(hx_wgraph_detect(&g, &f->st) == HANGDX_OK,
		      "detect fails only on memory");
		if (g.released)
			verify(&g, &f->st);
		if (getenv("FUZZ_WAITGRAPH_SHOW"))      /* for writing seeds */
			show(&g, &f->st);
		/* the same state gives the same graph */
		if (hx_wgraph_build(&g2, &f->st) == HANGDX_OK)
			check(same(&g, &g2), "building twice gives the same graph");
		/* the ranks holding a cycle of their own, drawn as roots */
		mark = calloc(f->st.nranks + 1, 1);
		if (mark && g.released &&
		    hx_wgraph_local_cycles(&g, &f->st, mark) == HANGDX_OK)
			check_local(&g, &f->st, mark);
		hx_buf_init(&b, f->ctx, 1u << 24);
		hx_report_dot(&b, &g, &f->st, "fuzz", mark);
		hx_buf_free(&b);
		free(mark);
	}
	hx_wgraph_free(&g2);
	hx_wgraph_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	char *text = malloc(size + 1), *line, *save = NULL;
	int err = 0;

	memset(&f, 0, sizeof f);
	f.ranks = 2;
	f.cores = 2;
	f.comms = 1;
	f.ctx = hangdx_ctx_new(NULL);
	if (!text || !f.ctx)
		goto out_free;
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[MAX_TOK], *ts = NULL, *w;
		int n = 0;

		for (w = strtok_r(line, " \t\r", &ts); w && n < MAX_TOK;
		     w = strtok_r(NULL, " \t\r", &ts))
			tok[n++] = w;
		if (n && tok[0][0] != '#')
			item(&f, tok, n, &err);
	}
	if (!f.init && !err)
		err = setup(&f);
	if (!err) {
		finish(&f);
		run(&f);
	}
out_free:
	if (f.init) {
		hx_state_free(&f.st);
		hx_arena_free(&f.sc.arena);
	}
	free(f.dep);
	hangdx_ctx_free(f.ctx);
	free(text);
	return 0;
}
