/*
 * resident.c - the one rule of residency: whether an HCCL AICPU kernel
 * keeps its AICPU core, and why (runtime-model.md §3.2, §6.1, §6.2, §8).
 * The simulator (src/sim/hccl.c), the checker (src/check/program.c,
 * explore.c) and the snapshot of the analyzer (src/analyze/snapshot.c)
 * each describe a kernel's situation as a struct hx_kcond and ask
 * hx_kernel_resident; none of them decides it on its own.
 */
#include <string.h>
#include "state.h"

/* Op retry counts only in AI_CPU expansion: in any other mode it is
 * silently inactive (runtime-model.md §6, "mode requirement"). */
static bool retry_active(const struct hx_kcond *c)
{
	return c->retry && c->mode == HX_MODE_AI_CPU;
}

bool hx_kernel_resident(const struct hx_kcond *c, enum hx_kres *why)
{
	enum hx_kres r;

	if (!c->expanded)
		r = c->sq_full ? HX_KRES_SQ_FULL : HX_KRES_EXPANDING;
	else if (!retry_active(c))
		r = HX_KRES_NO_RETRY;
	else
		r = c->drained ? HX_KRES_DRAINED : HX_KRES_RETRY;
	if (why)
		*why = r;
	return r == HX_KRES_EXPANDING || r == HX_KRES_SQ_FULL ||
	       r == HX_KRES_RETRY;
}

const char *hx_kres_name(enum hx_kres r)
{
	static const char *const names[] = {
		"expanding", "sq-full", "retry", "drained", "no-retry"
	};

	return (unsigned)r < HX_ARRAY_LEN(names) ? names[r] : "?";
}

void hx_kcond_of(const struct hx_state *st, uint32_t rank, uint32_t comm,
		 struct hx_kcond *c)
{
	memset(c, 0, sizeof *c);
	c->retry = st->dev[rank].comm[comm].retry;
	c->mode = (uint8_t)hx_scenario_env(st->sc, rank)->mode;
}
