/*
 * out.c - what a simulation leaves behind: the log records handed to the
 * CANN log writer, truth.json (what really happened, for testing the
 * analyzer), trace.json in the Chrome trace event format that Perfetto
 * opens (a track per stream, AICPU cores as tracks, flow arrows for notify
 * and event dependencies, the deadlock marked), and the run summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "../report/report.h"

#define MAX_RECS (1u << 27)
#define MAX_DUMP_POS 16

/* ---- records ---- */

struct hx_logrec *sim_rec(struct sim *s, uint8_t kind, uint32_t rank)
{
	struct hx_logrec *r;
	void *v = s->recs;
	int err;

	if (!s->want_logs)
		return NULL;
	err = hx_vec_reserve(s->ctx, &v, &s->caprecs, s->nrecs + 1,
			     sizeof *s->recs, MAX_RECS);
	if (err) {
		sim_oom(s, err);
		return NULL;
	}
	s->recs = v;
	r = &s->recs[s->nrecs++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->t_ns = s->now;
	r->rank = (int32_t)rank;
	r->peer = -1;
	r->comm = -1;
	r->core = -1;
	r->event = -1;
	r->first_stream = (uint32_t)s->nlrs;
	return r;
}

static int32_t peer_of(const struct sim *s, const struct hx_task *t)
{
	if (t->kind == HX_T_COPY || t->peer >= 0)
		return t->peer;
	if (t->notify >= 0 && s->st.notifies[t->notify].role == HX_NR_PEER)
		return s->st.notifies[t->notify].peer;
	return -1;
}

void sim_rec_task(struct sim *s, struct hx_logrec *r, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	const struct hx_stream *st = &s->st.streams[t->stream];

	r->stream_id = st->id;
	r->sq_id = st->sq_id;
	r->task_id = t->task_id;
	r->role = st->role;
	r->task_kind = t->kind;
	r->head = st->head < st->n ? s->st.tasks[st->q[st->head]].task_id
				   : st->next_task_id;
	r->tail = st->next_task_id;
	r->comm = t->comm;
	r->op = t->op;
	r->peer = peer_of(s, t);
	r->core = t->core;
	r->event = t->event;
	r->timeout_s = t->timeout_ns / HX_NS_PER_S;
	r->name = t->name;
	if (t->notify >= 0) {
		r->notify_rt = s->st.notifies[t->notify].rt_id;
		r->notify_hccl = s->st.notifies[t->notify].hccl_id;
	}
	if (t->comm >= 0 && t->xref < s->nops &&
	    (t->kind == HX_T_KERNEL || st->role == HX_SR_MAIN ||
	     st->role == HX_SR_SLAVE || t->kind == HX_T_COPY)) {
		const struct sim_op *o = &s->ops[t->xref];
		r->coll = o->coll;
		r->dtype = o->dtype;
		r->bytes = o->bytes;
		if (!r->name)
			r->name = o->name;
	}
}

static void rec_pos(struct sim *s, const struct hx_stream *st,
		    struct hx_lr_stream *ls)
{
	uint32_t p;

	ls->first_pos = (uint32_t)s->nlpos;
	for (p = st->head; p < st->n && ls->npos < MAX_DUMP_POS; p++) {
		const struct hx_task *t = &s->st.tasks[st->q[p]];
		struct hx_lr_pos *lp;
		void *v = s->lpos;

		if (hx_vec_reserve(s->ctx, &v, &s->caplpos, s->nlpos + 1,
				   sizeof *s->lpos, MAX_RECS)) {
			sim_oom(s, HANGDX_ENOMEM);
			return;
		}
		s->lpos = v;
		lp = &s->lpos[s->nlpos++];
		lp->task_id = t->task_id;
		lp->kind = t->kind;
		lp->notify_rt = t->notify >= 0
			? (int32_t)s->st.notifies[t->notify].rt_id : -1;
		lp->event = t->event;
		lp->peer = peer_of(s, t);
		ls->npos++;
	}
}

void sim_rec_stream(struct sim *s, struct hx_logrec *r, uint32_t stream,
		    uint64_t wait_ns)
{
	const struct hx_stream *st = &s->st.streams[stream];
	struct hx_lr_stream *ls;
	size_t ri = (size_t)(r - s->recs);
	void *v = s->lrs;

	if (hx_vec_reserve(s->ctx, &v, &s->caplrs, s->nlrs + 1, sizeof *s->lrs,
			   MAX_RECS)) {
		sim_oom(s, HANGDX_ENOMEM);
		return;
	}
	s->lrs = v;
	r = &s->recs[ri];
	if (r->nstreams == 0)
		r->first_stream = (uint32_t)s->nlrs;
	ls = &s->lrs[s->nlrs++];
	memset(ls, 0, sizeof *ls);
	ls->stream_id = st->id;
	ls->sq_id = st->sq_id;
	ls->role = st->role;
	ls->head_pos = st->head;
	ls->tail_pos = (uint32_t)st->n;
	ls->head_task_id = st->head < st->n ? s->st.tasks[st->q[st->head]].task_id
					    : st->next_task_id;
	ls->tail_task_id = st->next_task_id;
	ls->wait_ns = wait_ns;
	rec_pos(s, st, ls);
	r->nstreams++;
}

static void trail_add(struct sim *s, struct hx_buf *b, const struct hx_task *t,
		      uint32_t rank)
{
	const char *ab = NULL;
	int32_t peer = peer_of(s, t), pr = -1;
	char nid[16] = "/";

	if (t->kind == HX_T_NOTIFY_WAIT) ab = "NW";
	else if (t->kind == HX_T_NOTIFY_RECORD) ab = "NR";
	else if (t->kind == HX_T_COPY) ab = t->rdma ? "RS" : "SD";
	if (!ab)
		return;
	if (peer >= 0)
		pr = s->st.dev[peer].comm[t->comm].me;
	if (t->notify >= 0 && t->kind != HX_T_COPY)
		snprintf(nid, sizeof nid, "%u", s->st.notifies[t->notify].rt_id);
	(void)rank;
	if (pr >= 0)
		hx_buf_printf(b, ",%s(%d,%s)", ab, pr, nid);
	else
		hx_buf_printf(b, ",%s(/,%s)", ab, nid);
}

const char *sim_trail(struct sim *s, uint32_t rank, uint32_t comm,
		      uint32_t op)
{
	const struct hx_comm_rank *cr = &s->st.dev[rank].comm[comm];
	uint32_t streams[9], ns = 0, i, p;
	struct hx_buf b;
	void *v = s->trails;

	streams[ns++] = cr->mstream;
	for (i = 0; i < s->sc->slave_streams && i < 8; i++)
		streams[ns++] = cr->sstream[i];
	hx_buf_init(&b, s->ctx, 4096);
	hx_buf_printf(&b, "OP(%u)", op);
	for (i = 0; i < ns; i++) {
		const struct hx_stream *st = &s->st.streams[streams[i]];
		for (p = 0; p < st->n; p++) {
			const struct hx_task *t = &s->st.tasks[st->q[p]];
			if (t->op == op && t->comm == (int32_t)comm)
				trail_add(s, &b, t, rank);
		}
	}
	if (!b.p || hx_vec_reserve(s->ctx, &v, &s->captrails, s->ntrails + 1,
				   sizeof *s->trails, MAX_RECS)) {
		hx_buf_free(&b);
		return NULL;
	}
	s->trails = v;
	s->trails[s->ntrails++] = b.p;
	return b.p;
}

/* ---- JSON helpers ---- */

static void jstr(FILE *fp, const char *str)
{
	const unsigned char *p = (const unsigned char *)(str ? str : "");

	fputc('"', fp);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* ---- truth.json ---- */

static void summary_cycle(const struct sim *s, char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < s->wg.ncycle && len + 1 < size; i++) {
		const struct hx_wnode *n = &s->wg.nodes[s->wg.cycle[i]];
		char lab[256];

		if (n->kind == HX_WN_TASK)
			hx_task_label(&s->st, n->id, lab, sizeof lab);
		else if (n->kind == HX_WN_POOL)
			snprintf(lab, sizeof lab, "rank%u AICPU pool (%u/%u cores held)",
				 n->id, s->st.dev[n->id].pool.busy,
				 s->st.dev[n->id].pool.cap);
		else
			snprintf(lab, sizeof lab, "rank%u LOST", n->id);
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					i ? " -> " : "", lab);
	}
}

/* Every error the run raised, in time order. */
static void truth_errors(FILE *fp, const struct sim *s)
{
	size_t i;

	fprintf(fp, "  \"errors\": [");
	for (i = 0; i < s->nerrors; i++) {
		fprintf(fp, "%s\n    {\"rank\": %d, \"time_s\": %.6f, \"kind\": \"%s\"",
			i ? "," : "", s->errors[i].rank, secs(s->errors[i].t),
			s->errors[i].kind);
		if (s->errors[i].peer >= 0)
			fprintf(fp, ", \"peer\": %d", s->errors[i].peer);
		if (s->errors[i].stream_id != UINT32_MAX)
			fprintf(fp, ", \"stream_id\": %u, \"task_id\": %u",
				s->errors[i].stream_id, s->errors[i].task_id);
		fprintf(fp, "}");
	}
	fprintf(fp, "%s],\n", s->nerrors ? "\n  " : "");
}

static const char *root_cause(const struct sim *s, int32_t *root)
{
	uint32_t i;

	*root = -1;
	if (s->completed && !s->have_error)
		return "none";
	if (s->have_graph && s->wg.ncycle) {
		for (i = 0; i < s->wg.ncycle; i++)
			if (s->wg.nodes[s->wg.cycle[i]].kind == HX_WN_POOL) {
				*root = (int32_t)s->wg.nodes[s->wg.cycle[i]].id;
				return "aicpu_exhaustion_deadlock";
			}
		return "wait_cycle";
	}
	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		if (f->kind == HX_FAULT_RANK_DEATH &&
		    !s->st.dev[f->rank].alive) {
			*root = f->rank;
			return "rank_lost";
		}
	}
	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		if (f->kind == HX_FAULT_LINK_ERROR && s->fault_done[i] &&
		    s->have_error && strstr(s->error_text, "error CQE")) {
			*root = s->error_rank;
			return "link_error";
		}
	}
	for (i = 0; i < s->sc->nfaults; i++)
		if (s->sc->faults[i].kind == HX_FAULT_MISMATCH) {
			*root = s->sc->faults[i].rank;
			return "collective_mismatch";
		}
	if (s->have_error && strstr(s->error_text, "RTSQ_FULL")) {
		*root = s->error_rank;
		return "sq_full";
	}
	if (s->have_error && strstr(s->error_text, "507017")) {
		*root = s->error_rank;
		return "aicpu_op_timeout";
	}
	return s->have_error || s->have_graph ? "unknown" : "none";
}

static void bstr(struct hx_buf *b, const char *str)
{
	hx_buf_putc(b, '"');
	hx_buf_json_str(b, str ? str : "");
	hx_buf_putc(b, '"');
}

static void truth_task(struct hx_buf *b, const struct sim *s, uint32_t task)
{
	const struct hx_task *t = &s->st.tasks[task];
	const struct hx_stream *st = &s->st.streams[t->stream];
	char sl[64], lab[256];

	hx_stream_label(&s->st, t->stream, sl, sizeof sl);
	hx_task_label(&s->st, task, lab, sizeof lab);
	hx_buf_printf(b, "{\"rank\": %u, \"stream\": ", st->rank);
	bstr(b, sl);
	hx_buf_printf(b, ", \"stream_id\": %u, \"sq_id\": %u, \"task_id\": %u, "
		      "\"kind\": \"%s\", \"state\": \"%s\"",
		      st->id, st->sq_id, t->task_id,
		      hx_task_kind_name((enum hx_task_kind)t->kind),
		      hx_task_state_name((enum hx_task_state)t->state));
	if (t->comm >= 0)
		hx_buf_printf(b, ", \"comm\": \"%s\", \"op\": %u",
			      s->st.comms[t->comm].name, t->op);
	if (t->notify >= 0)
		hx_buf_printf(b, ", \"notify_id\": %u, \"notify_hccl_id\": \"0x%016llx\"",
			      s->st.notifies[t->notify].rt_id,
			      (unsigned long long)s->st.notifies[t->notify].hccl_id);
	if (t->event >= 0) {
		hx_buf_puts(b, ", \"event\": ");
		bstr(b, s->sc->events[t->event]);
	}
	if (peer_of(s, t) >= 0)
		hx_buf_printf(b, ", \"peer\": %d", peer_of(s, t));
	if (t->core >= 0)
		hx_buf_printf(b, ", \"core\": %d", t->core);
	hx_buf_puts(b, ", \"label\": ");
	bstr(b, lab);
	hx_buf_putc(b, '}');
}

static void truth_node(struct hx_buf *b, const struct sim *s, uint32_t node)
{
	const struct hx_wnode *n = &s->wg.nodes[node];
	const struct hx_pool *p;
	uint32_t i;

	if (n->kind == HX_WN_TASK) {
		truth_task(b, s, n->id);
		return;
	}
	if (n->kind == HX_WN_LOST || n->kind == HX_WN_NEVER) {
		hx_buf_printf(b, "{\"kind\": \"%s\", \"id\": %u}",
			      n->kind == HX_WN_LOST ? "LOST_RANK" : "NEVER_RECORDED",
			      n->id);
		return;
	}
	p = &s->st.dev[n->id].pool;
	hx_buf_printf(b, "{\"rank\": %u, \"kind\": \"AICPU_POOL\", \"cores\": %u, "
		      "\"busy\": %u, \"waiting\": %zu, \"holders\": [",
		      n->id, p->cap, p->busy, p->nwait);
	for (i = 0; i < p->cap; i++) {
		char lab[256];
		if (p->holder[i] < 0)
			continue;
		hx_task_label(&s->st, (uint32_t)p->holder[i], lab, sizeof lab);
		if (b->len && b->p[b->len - 1] != '[')
			hx_buf_puts(b, ", ");
		bstr(b, lab);
	}
	hx_buf_puts(b, "]}");
}

static void truth_cycle(struct hx_buf *b, const struct sim *s)
{
	size_t i, j;

	hx_buf_puts(b, "  \"cycle\": [");
	for (i = 0; i < s->wg.ncycle; i++) {
		uint32_t from = s->wg.cycle[i];
		uint32_t to = s->wg.cycle[(i + 1) % s->wg.ncycle];
		const char *why = "?";

		for (j = 0; j < s->wg.nedges; j++)
			if (s->wg.edges[j].from == from && s->wg.edges[j].to == to)
				why = hx_wedge_why_name(
					(enum hx_wedge_why)s->wg.edges[j].why);
		hx_buf_printf(b, "%s\n    {\"node\": ", i ? "," : "");
		truth_node(b, s, from);
		hx_buf_printf(b, ", \"waits_for\": \"%s\"}", why);
	}
	hx_buf_printf(b, "%s],\n", s->wg.ncycle ? "\n  " : "");
}

static void truth_blocked(struct hx_buf *b, const struct sim *s)
{
	size_t i;
	bool first = true;

	hx_buf_puts(b, "  \"blocked\": [");
	for (i = 0; i < s->wg.nnodes; i++) {
		if (s->wg.nodes[i].kind != HX_WN_TASK)
			continue;
		hx_buf_printf(b, "%s\n    ", first ? "" : ",");
		truth_task(b, s, s->wg.nodes[i].id);
		first = false;
	}
	hx_buf_printf(b, "%s],\n", first ? "" : "\n  ");
}

void sim_snapshot_error(struct sim *s, uint32_t task)
{
	hx_buf_init(&s->error_json, s->ctx, 1u << 16);
	truth_task(&s->error_json, s, task);
}

/* At block time: the cycle and every blocked task, as they are then. */
void sim_snapshot_block(struct sim *s)
{
	hx_buf_init(&s->block_json, s->ctx, 256u << 20);
	truth_cycle(&s->block_json, s);
	truth_blocked(&s->block_json, s);
	summary_cycle(s, s->cycle_text, sizeof s->cycle_text);
	if (!s->block_json.p)
		sim_oom(s, HANGDX_ENOMEM);
	if (s->want_dot) {
		char title[160];
		snprintf(title, sizeof title, "%s: wait-for graph at t=%.6f s (%s)",
			 s->sc->name, secs(s->now),
			 s->wg.ncycle ? "deadlock" : "stopped, no cycle");
		hx_buf_init(&s->block_dot, s->ctx, 256u << 20);
		if (hx_report_dot(&s->block_dot, &s->wg, &s->st, title, NULL))
			sim_oom(s, HANGDX_ENOMEM);
	}
}

static void truth_error(FILE *fp, const struct sim *s)
{
	fprintf(fp, "  \"first_error\": ");
	if (!s->have_error) {
		fprintf(fp, "null,\n");
		return;
	}
	fprintf(fp, "{\"rank\": %d, \"time_s\": %.6f, \"text\": ", s->error_rank,
		secs(s->error_time));
	jstr(fp, s->error_text);
	if (s->error_task >= 0)
		fprintf(fp, ", \"task\": %s", s->error_json.p ? s->error_json.p : "null");
	fprintf(fp, "},\n");
}

static void truth_faults(FILE *fp, const struct sim *s)
{
	static const char *const kinds[] = { "rank_death", "link_error",
					     "slow_rank", "mismatch",
					     "clock_skew" };
	uint32_t i;

	fprintf(fp, "  \"faults\": [");
	for (i = 0; i < s->sc->nfaults; i++) {
		const struct hx_fault *f = &s->sc->faults[i];
		fprintf(fp, "%s{\"kind\": \"%s\", \"rank\": %d, \"at_s\": %.6f",
			i ? ", " : "", kinds[f->kind], f->rank,
			secs(s->fault_at ? s->fault_at[i] : f->at_ns));
		if (f->kind == HX_FAULT_LINK_ERROR)
			fprintf(fp, ", \"peer\": %d", f->peer);
		fprintf(fp, "}");
	}
	fprintf(fp, "],\n");
}

static enum hangdx_outcome outcome(const struct sim *s)
{
	if (s->completed && !s->have_error)
		return HANGDX_COMPLETED;
	if (s->have_graph && s->wg.ncycle)
		return HANGDX_DEADLOCK;
	if (s->have_graph)
		return HANGDX_HANG;
	if (s->have_error)
		return HANGDX_FAILED;
	return HANGDX_TIMELIMIT;
}

static void truth_ranks(FILE *fp, const struct sim *s)
{
	uint32_t r;

	fprintf(fp, "  \"ranks\": [");
	for (r = 0; r < s->st.nranks; r++) {
		const struct hx_device *d = &s->st.dev[r];
		fprintf(fp, "%s\n    {\"rank\": %u, \"node\": %u, \"device\": %u, "
			    "\"host_pid\": %u, \"alive\": %s, \"collectives\": %u, "
			    "\"finished\": %s}",
			r ? "," : "", r, d->node, d->device_id, d->host_pid,
			d->alive ? "true" : "false", d->ncolls,
			s->host[r].wait_stream == -3 ? "true" : "false");
	}
	fprintf(fp, "\n  ]\n");
}

/* The roots: every rank whose own state holds a cycle, the ranks of the
 * cycle shown, every dead rank, and the root of the cause when it is none
 * of those; the root rank first.  A rank blocked only through another
 * rank is not one. */
static void truth_roots(FILE *fp, const struct sim *s, int32_t root)
{
	uint8_t *mark = hx_calloc(s->ctx, s->st.nranks + 1, 1);
	uint32_t r, n = 0;
	size_t i;

	fprintf(fp, "  \"roots\": [");
	if (root >= 0) {
		fprintf(fp, "%d", root);
		n++;
	}
	if (mark && s->have_graph && s->wg.ndead &&
	    hx_wgraph_local_cycles(&s->wg, &s->st, mark))
		memset(mark, 0, s->st.nranks);
	for (i = 0; mark && s->have_graph && i < s->wg.ncycle; i++) {
		const struct hx_wnode *w = &s->wg.nodes[s->wg.cycle[i]];
		if (w->kind == HX_WN_TASK)
			mark[s->st.streams[s->st.tasks[w->id].stream].rank] = 1;
		else if (w->kind == HX_WN_POOL)
			mark[w->id] = 1;
	}
	for (r = 0; mark && r < s->st.nranks; r++)
		if ((mark[r] || !s->st.dev[r].alive) && (int32_t)r != root)
			fprintf(fp, "%s%u", n++ ? ", " : "", r);
	fprintf(fp, "],\n");
	hx_free(s->ctx, mark);
}

int sim_write_truth(struct sim *s, const char *path)
{
	struct hx_outfile o;
	int32_t root;
	const char *cause = root_cause(s, &root);
	FILE *fp;
	int err = hx_outfile_open(s->ctx, &o, path);

	if (err)
		return err;
	fp = o.fp;
	fprintf(fp, "{\n  \"format\": \"hangdx-truth-1\",\n  \"scenario\": ");
	jstr(fp, s->sc->name);
	fprintf(fp, ",\n  \"seed\": %llu,\n  \"ranks_total\": %u,\n"
		    "  \"communicators\": %u,\n  \"aicpu_cores\": %u,\n",
		(unsigned long long)s->sc->seed, s->st.nranks, s->st.ncomms,
		s->sc->cores);
	fprintf(fp, "  \"outcome\": \"%s\",\n  \"root_cause\": \"%s\",\n"
		    "  \"root_rank\": %d,\n  \"end_time_s\": %.6f,\n",
		hangdx_outcome_name(outcome(s)), cause, root, secs(s->now));
	if (s->block_time != SIM_NEVER)
		fprintf(fp, "  \"block_time_s\": %.6f,\n", secs(s->block_time));
	else
		fprintf(fp, "  \"block_time_s\": null,\n");
	fprintf(fp, "  \"deadlocked_nodes\": %zu,\n",
		s->have_graph ? s->wg.ndead : (size_t)0);
	truth_roots(fp, s, root);
	truth_error(fp, s);
	if (s->block_json.p)
		fputs(s->block_json.p, fp);
	else
		fprintf(fp, "  \"cycle\": [],\n  \"blocked\": [],\n");
	truth_errors(fp, s);
	truth_faults(fp, s);
	truth_ranks(fp, s);
	fprintf(fp, "}\n");
	return hx_outfile_commit(s->ctx, &o);
}

int sim_write_dot(struct sim *s, const char *path)
{
	struct hx_outfile o;
	int err;

	if (!s->block_dot.p)
		return HANGDX_OK;
	err = hx_outfile_open(s->ctx, &o, path);
	if (err)
		return err;
	fputs(s->block_dot.p, o.fp);
	return hx_outfile_commit(s->ctx, &o);
}

/* ---- trace.json ---- */

struct tev {                    /* one trace event before sorting */
	uint64_t ts;                /* ns */
	uint32_t seq;
	uint32_t task;
	uint8_t what;               /* 0 slice, 1 core slice, 2 flow start,
				       3 flow end, 4 block instant, 5 error instant */
	uint32_t flow;
};

static int tev_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t task_end(const struct sim *s, const struct hx_task *t)
{
	return t->t_end ? t->t_end : s->now;
}

static int collect_tev(struct sim *s, struct tev **out, size_t *nout)
{
	struct tev *v = NULL;
	size_t n = 0, cap = 0, i;
	uint32_t seq = 0, flow = 0;

	for (i = 0; i < s->st.ntasks; i++) {
		const struct hx_task *t = &s->st.tasks[i];
		void *p = v;

		if (t->state == HX_TS_QUEUED ||
		    (t->state == HX_TS_ABORTED && !t->t_ready))
			continue;
		if (hx_vec_reserve(s->ctx, &p, &cap, n + 4, sizeof *v, MAX_RECS)) {
			hx_free(s->ctx, v);
			return HANGDX_ENOMEM;
		}
		v = p;
		v[n++] = (struct tev){ t->t_ready, seq++, (uint32_t)i, 0, 0 };
		if (t->core >= 0 || (t->kind == HX_T_KERNEL || t->kind == HX_T_AICPU))
			if (t->t_start)
				v[n++] = (struct tev){ t->t_start, seq++,
						       (uint32_t)i, 1, 0 };
		if ((t->kind == HX_T_NOTIFY_WAIT || t->kind == HX_T_EVENT_WAIT) &&
		    t->dep >= 0 && t->state == HX_TS_DONE) {
			const struct hx_task *r = &s->st.tasks[t->dep];
			flow++;
			v[n++] = (struct tev){ r->t_ready, seq++, (uint32_t)t->dep,
					       2, flow };
			v[n++] = (struct tev){ t->t_end, seq++, (uint32_t)i, 3,
					       flow };
		}
	}
	{
		void *p = v;
		if (hx_vec_reserve(s->ctx, &p, &cap, n + 2, sizeof *v, MAX_RECS)) {
			hx_free(s->ctx, v);
			return HANGDX_ENOMEM;
		}
		v = p;
	}
	if (s->block_time != SIM_NEVER)
		v[n++] = (struct tev){ s->block_time, seq++, 0, 4, 0 };
	if (s->have_error)
		v[n++] = (struct tev){ s->error_time, seq++, 0, 5, 0 };
	if (n)
		qsort(v, n, sizeof *v, tev_cmp);
	*out = v;
	*nout = n;
	return HANGDX_OK;
}

static void trace_meta(FILE *fp, const struct sim *s)
{
	size_t i;
	uint32_t r, c;

	for (r = 0; r < s->st.nranks; r++) {
		fprintf(fp, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,"
			    "\"args\":{\"name\":\"rank %u (device %u)\"}},\n",
			r, r, s->st.dev[r].device_id);
		for (c = 0; c < s->sc->cores; c++)
			fprintf(fp, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,"
				    "\"tid\":%u,\"args\":{\"name\":\"AICPU core %u\"}},\n",
				r, 100000 + c, c);
	}
	for (i = 0; i < s->st.nstreams; i++) {
		char sl[64];
		hx_stream_label(&s->st, (uint32_t)i, sl, sizeof sl);
		fprintf(fp, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,"
			    "\"tid\":%u,\"args\":{\"name\":",
			s->st.streams[i].rank, s->st.streams[i].id);
		jstr(fp, sl);
		fprintf(fp, "}},\n");
	}
}

static void trace_instant(FILE *fp, const struct sim *s, const struct tev *e)
{
	if (e->what == 4)
		fprintf(fp, "{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,"
			    "\"ts\":%.3f,\"name\":\"%s\"},\n",
			(double)e->ts / 1e3,
			s->have_graph && s->wg.ncycle ? "deadlock: wait cycle closed"
						       : "system stopped moving");
	else
		fprintf(fp, "{\"ph\":\"i\",\"s\":\"g\",\"pid\":%d,\"tid\":0,"
			    "\"ts\":%.3f,\"name\":\"first error\"},\n",
			s->error_rank, (double)e->ts / 1e3);
}

static void trace_ev(FILE *fp, const struct sim *s, const struct tev *e)
{
	const struct hx_task *t = &s->st.tasks[e->task];
	const struct hx_stream *st = &s->st.streams[t->stream];
	char lab[256];
	double ts = (double)e->ts / 1e3;

	if (e->what >= 4) {
		trace_instant(fp, s, e);
		return;
	}
	hx_task_label(&s->st, e->task, lab, sizeof lab);
	switch (e->what) {
	case 0:
		fprintf(fp, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
			    "\"dur\":%.3f,\"name\":", st->rank, st->id, ts,
			(double)(task_end(s, t) - t->t_ready) / 1e3);
		jstr(fp, lab);
		fprintf(fp, ",\"args\":{\"task_id\":%u,\"state\":\"%s\"}},\n",
			t->task_id, hx_task_state_name((enum hx_task_state)t->state));
		break;
	case 1:
		fprintf(fp, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
			    "\"dur\":%.3f,\"name\":", st->rank,
			100000 + (t->core >= 0 ? (uint32_t)t->core : 0u), ts,
			(double)(task_end(s, t) - t->t_start) / 1e3);
		jstr(fp, lab);
		fprintf(fp, "},\n");
		break;
	default:
		fprintf(fp, "{\"ph\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f,"
			    "\"id\":%u,\"name\":\"dep\",\"cat\":\"dep\"%s},\n",
			e->what == 2 ? "s" : "f", st->rank, st->id, ts, e->flow,
			e->what == 3 ? ",\"bp\":\"e\"" : "");
	}
}

int sim_write_trace(struct sim *s, const char *path)
{
	struct hx_outfile o;
	struct tev *ev;
	size_t nev, i;
	int err = collect_tev(s, &ev, &nev);

	if (err)
		return err;
	err = hx_outfile_open(s->ctx, &o, path);
	if (err) {
		hx_free(s->ctx, ev);
		return err;
	}
	fprintf(o.fp, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
	trace_meta(o.fp, s);
	for (i = 0; i < nev; i++)
		trace_ev(o.fp, s, &ev[i]);
	fprintf(o.fp, "{\"ph\":\"M\",\"name\":\"hangdx\",\"pid\":0,\"args\":"
		      "{\"outcome\":\"%s\"}}\n]}\n",
		hangdx_outcome_name(outcome(s)));
	hx_free(s->ctx, ev);
	return hx_outfile_commit(s->ctx, &o);
}

/* ---- summary ---- */

void sim_summarize(struct sim *s, struct hangdx_sim_summary *sum)
{
	uint32_t c;

	memset(sum, 0, sizeof *sum);
	sum->outcome = outcome(s);
	sum->end_time_s = secs(s->now);
	sum->block_time_s = s->block_time == SIM_NEVER ? -1 : secs(s->block_time);
	sum->tasks = s->ntasks_done;
	sum->events = s->nevents;
	sum->ranks = (int)s->st.nranks;
	sum->communicators = (int)s->st.ncomms;
	sum->cores = (int)s->sc->cores;
	for (c = 0; c < s->st.ncomms; c++)
		if (s->st.dev[0].comm[c].me >= 0 && s->st.dev[0].comm[c].retry)
			sum->retry = 1;
	sum->first_error_rank = s->have_error ? s->error_rank : -1;
	sum->first_error_time_s = s->have_error ? secs(s->error_time) : -1;
	snprintf(sum->first_error, sizeof sum->first_error, "%s",
		 s->have_error ? s->error_text : "");
	if (s->have_graph) {
		sum->cycle_len = (int)s->wg.ncycle;
		snprintf(sum->cycle, sizeof sum->cycle, "%s", s->cycle_text);
	}
}
