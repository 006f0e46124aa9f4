/*
 * model.c - the fixed vocabulary of a scenario: the defaults of
 * runtime-model.md, the names of modes, collectives and data types, the
 * value syntax of the HCCL environment variables, and the questions the
 * simulator and checker ask of a loaded scenario (the environment of a
 * rank, whether op retry is active for a communicator, how communicator
 * instances are named).  scenario.c fills the scenario; this file reads it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model.h"

/* ---- defaults ---------------------------------------------------------- */

void hx_env_defaults(struct hx_env *env)
{
	memset(env, 0, sizeof *env);
	env->exec_timeout_s = 1836;
	env->retry_max_cnt = 1;
	env->retry_hold_ms = 5000;
	env->retry_interval_ms = 1000;
	env->mode = HX_MODE_AI_CPU;
	env->connect_timeout_s = 120;
}

static void defaults_cluster(struct hangdx_scenario *sc)
{
	sc->nranks = 2;
	sc->ranks_per_node = 8;
	sc->cores = 6;
	sc->sq_depth = 2048;
	sc->product = HX_PROD_A3;
}

static void defaults_model(struct hangdx_scenario *sc)
{
	sc->link_latency_ns = 5 * HX_NS_PER_US;
	sc->expand_ns = 50 * HX_NS_PER_US;
	sc->host_api_ns = 5 * HX_NS_PER_US;
	sc->dispatch_ns = 1 * HX_NS_PER_US;
	sc->link_latency_max_ns = sc->link_latency_ns;
	sc->expand_max_ns = sc->expand_ns;
	sc->host_api_max_ns = sc->host_api_ns;
	sc->dispatch_max_ns = sc->dispatch_ns;
	sc->link_gbps = 50.0;
	sc->slave_streams = 1;
	sc->grant = HX_GRANT_FIFO;
	sc->order_launch = true;
	sc->hccl_shares_pool = true;
	sc->stuck_with_retry = false;
	sc->aicpu_timeout_ns = 0;
}

static void defaults_run(struct hangdx_scenario *sc)
{
	sc->seed = 1;
	sc->tail_ns = 120 * HX_NS_PER_S;
	sc->time_limit_ns = 7200 * HX_NS_PER_S;
	sc->log_level = HX_LOG_INFO;
}

void hx_scenario_defaults(struct hangdx_scenario *sc)
{
	defaults_cluster(sc);
	defaults_model(sc);
	defaults_run(sc);
	hx_env_defaults(&sc->env);
}

/* ---- questions about a scenario ---------------------------------------- */

static int override_cmp(const void *key, const void *elem)
{
	int32_t rank = *(const int32_t *)key;
	const struct hx_env_override *o = elem;

	return (rank > o->rank) - (rank < o->rank);
}

const struct hx_env *hx_scenario_env(const struct hangdx_scenario *sc,
				     uint32_t rank)
{
	const struct hx_env_override *o = NULL;
	int32_t r = (int32_t)rank;

	if (sc->noverrides && rank <= INT32_MAX)
		o = bsearch(&r, sc->overrides, sc->noverrides,
			    sizeof *sc->overrides, override_cmp);
	return o ? &o->env : &sc->env;
}

/* Every member of g on one node (node = rank / ranks_per_node)? */
static bool group_on_one_node(const struct hangdx_scenario *sc,
			      const struct hx_comm_group *g)
{
	uint32_t rpn = sc->ranks_per_node ? sc->ranks_per_node : 1;
	uint32_t i;

	if (!g->ranks)
		return sc->nranks == 0 || (sc->nranks - 1) / rpn == 0;
	for (i = 1; i < g->nranks; i++)
		if ((uint32_t)g->ranks[i] / rpn != (uint32_t)g->ranks[0] / rpn)
			return false;
	return true;
}

bool hx_retry_active(const struct hangdx_scenario *sc, uint32_t group,
		     uint32_t rank)
{
	const struct hx_env *env = hx_scenario_env(sc, rank);
	const struct hx_comm_group *g;

	if (sc->product != HX_PROD_A3 || env->mode != HX_MODE_AI_CPU)
		return false;
	if (group >= sc->ngroups)
		return false;
	g = &sc->groups[group];
	if (g->retry >= 0)
		return g->retry != 0;
	return env->retry[group_on_one_node(sc, g) ? 0 : 1] != 0;
}

uint32_t hx_scenario_ncomms(const struct hangdx_scenario *sc)
{
	uint32_t n = 0, g;

	for (g = 0; g < sc->ngroups; g++)
		n += sc->groups[g].count;
	return n;
}

void hx_comm_name(const struct hangdx_scenario *sc, uint32_t g, uint32_t i,
		  char *buf, size_t n)
{
	const struct hx_comm_group *grp;

	if (!n)
		return;
	if (g >= sc->ngroups) {
		snprintf(buf, n, "?");
		return;
	}
	grp = &sc->groups[g];
	if (grp->count > 1)
		snprintf(buf, n, "%s%u", grp->name, i + 1);
	else
		snprintf(buf, n, "%s", grp->name);
}

/* ---- HCCL environment values ------------------------------------------- */

/*
 * One "Key:value" item of a comma-separated list; whitespace around keys,
 * colons, values and commas is ignored.  *s advances past the item and its
 * comma.  Returns 0, or -1 on bad syntax or a value above 4294967295.
 */
static int kv_next(const char **s, char *key, size_t keysz, uint32_t *val)
{
	const char *p = *s;
	size_t kn = 0;
	uint64_t v = 0;

	while (isspace((unsigned char)*p))
		p++;
	while (isalnum((unsigned char)*p) && kn + 1 < keysz)
		key[kn++] = *p++;
	key[kn] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (!kn || *p++ != ':')
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == ',')
		p++;
	else if (*p != '\0')
		return -1;
	*s = p;
	*val = (uint32_t)v;
	return 0;
}

int hx_env_parse_retry(struct hx_env *env, const char *s)
{
	uint8_t lv[3] = { 0, 0, 0 };
	unsigned seen = 0;
	char key[8];
	uint32_t v;

	while (*s) {
		unsigned bit;

		if (kv_next(&s, key, sizeof key, &v) || v > 1)
			return HANGDX_EINVAL;
		if ((key[0] != 'L' && key[0] != 'l') || key[1] < '0' ||
		    key[1] > '2' || key[2] != '\0')
			return HANGDX_EINVAL;
		bit = 1u << (key[1] - '0');
		if (seen & bit)
			return HANGDX_EINVAL;
		seen |= bit;
		lv[key[1] - '0'] = (uint8_t)v;
	}
	if (seen != 7 && seen != 6)
		return HANGDX_EINVAL;
	memcpy(env->retry, lv, sizeof lv);
	env->retry_has_l0 = seen == 7;
	env->set_retry = true;
	return HANGDX_OK;
}

int hx_env_parse_retry_params(struct hx_env *env, const char *s)
{
	uint32_t cnt = env->retry_max_cnt, hold = env->retry_hold_ms;
	uint32_t ival = env->retry_interval_ms, v;
	unsigned seen = 0, bit;
	char key[16];

	while (*s) {
		if (kv_next(&s, key, sizeof key, &v))
			return HANGDX_EINVAL;
		if (strcasecmp(key, "MaxCnt") == 0 && v >= 1 && v <= 10) {
			bit = 1;
			cnt = v;
		} else if (strcasecmp(key, "HoldTime") == 0 && v <= 60000) {
			bit = 2;
			hold = v;
		} else if (strcasecmp(key, "IntervalTime") == 0 && v <= 60000) {
			bit = 4;
			ival = v;
		} else {
			return HANGDX_EINVAL;
		}
		if (seen & bit)
			return HANGDX_EINVAL;
		seen |= bit;
	}
	if (!seen)
		return HANGDX_EINVAL;
	env->retry_max_cnt = cnt;
	env->retry_hold_ms = hold;
	env->retry_interval_ms = ival;
	env->set_params = true;
	return HANGDX_OK;
}

/* ---- names ------------------------------------------------------------- */

static const char *const mode_names[] = {
	[HX_MODE_AI_CPU] = "AI_CPU",
	[HX_MODE_HOST] = "HOST",
	[HX_MODE_HOST_TS] = "HOST_TS",
	[HX_MODE_AIV] = "AIV",
	[HX_MODE_AICPU_TS] = "AICPU_TS",
};

static const char *const coll_names[] = {
	[HX_COLL_ALLREDUCE] = "AllReduce",
	[HX_COLL_ALLGATHER] = "AllGather",
	[HX_COLL_REDUCESCATTER] = "ReduceScatter",
	[HX_COLL_BROADCAST] = "Broadcast",
	[HX_COLL_ALLTOALL] = "AlltoAll",
	[HX_COLL_SEND] = "Send",
	[HX_COLL_RECV] = "Recv",
};

static const char *const dtype_names[] = {
	[HX_DT_FP16] = "fp16",
	[HX_DT_FP32] = "fp32",
	[HX_DT_BF16] = "bf16",
	[HX_DT_INT8] = "int8",
	[HX_DT_INT32] = "int32",
	[HX_DT_INT64] = "int64",
	[HX_DT_UINT8] = "uint8",
};

static const uint8_t dtype_sizes[] = {
	[HX_DT_FP16] = 2, [HX_DT_FP32] = 4, [HX_DT_BF16] = 2, [HX_DT_INT8] = 1,
	[HX_DT_INT32] = 4, [HX_DT_INT64] = 8, [HX_DT_UINT8] = 1,
};

/* Index of s in names[0..n) ignoring case, or -1. */
static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && strcasecmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

int hx_mode_parse(const char *s, enum hx_mode *out)
{
	int i = name_index(mode_names, HX_ARRAY_LEN(mode_names), s);

	if (i < 0)
		return HANGDX_EINVAL;
	*out = (enum hx_mode)i;
	return HANGDX_OK;
}

const char *hx_mode_name(enum hx_mode m)
{
	return (unsigned)m < HX_ARRAY_LEN(mode_names) ? mode_names[m] : "?";
}

const char *hx_coll_name(enum hx_coll c)
{
	return (unsigned)c < HX_ARRAY_LEN(coll_names) ? coll_names[c] : "?";
}

int hx_coll_parse(const char *s, enum hx_coll *out)
{
	int i = name_index(coll_names, HX_ARRAY_LEN(coll_names), s);

	if (i < 0)
		return HANGDX_EINVAL;
	*out = (enum hx_coll)i;
	return HANGDX_OK;
}

const char *hx_dtype_name(enum hx_dtype d)
{
	return (unsigned)d < HX_ARRAY_LEN(dtype_names) ? dtype_names[d] : "?";
}

int hx_dtype_parse(const char *s, enum hx_dtype *out)
{
	static const struct { const char *alias; enum hx_dtype d; } aliases[] = {
		{ "float16", HX_DT_FP16 }, { "half", HX_DT_FP16 },
		{ "float32", HX_DT_FP32 }, { "float", HX_DT_FP32 },
		{ "bfloat16", HX_DT_BF16 },
	};
	int i = name_index(dtype_names, HX_ARRAY_LEN(dtype_names), s);
	size_t a;

	if (i >= 0) {
		*out = (enum hx_dtype)i;
		return HANGDX_OK;
	}
	for (a = 0; a < HX_ARRAY_LEN(aliases); a++) {
		if (strcasecmp(aliases[a].alias, s) == 0) {
			*out = aliases[a].d;
			return HANGDX_OK;
		}
	}
	return HANGDX_EINVAL;
}

uint32_t hx_dtype_size(enum hx_dtype d)
{
	return (unsigned)d < HX_ARRAY_LEN(dtype_sizes) ? dtype_sizes[d] : 1;
}

/* ---- public lifetime ----------------------------------------------------- */

const char *hangdx_scenario_name(const struct hangdx_scenario *sc)
{
	return sc && sc->name ? sc->name : "";
}

void hangdx_scenario_free(struct hangdx_scenario *sc)
{
	struct hangdx_ctx *ctx;

	if (!sc)
		return;
	ctx = sc->ctx;
	hx_arena_free(&sc->arena);
	hx_free(ctx, sc);
}

bool hx_step_for_rank(const struct hx_step *st, uint32_t rank)
{
	uint32_t i;

	if (!st->only)
		return true;
	for (i = 0; i < st->nonly; i++)
		if ((uint32_t)st->only[i] == rank)
			return true;
	return false;
}
