/*
 * fuzz_scenario.c - libFuzzer target for the scenario loader: any bytes
 * as a YAML scenario, then a short simulation of what loaded (bounded by a
 * small time limit and rank count), so the simulator sees odd scenarios
 * too.  Diagnostics are dropped.
 */
#include <stddef.h>
#include <stdint.h>
#include "hangdx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hangdx_scenario *sc = NULL;
	struct hangdx_sim_summary sum;

	if (!ctx)
		return 0;
	if (hangdx_scenario_load_mem(ctx, "fuzz.yaml", (const char *)data, size,
				     &sc) == HANGDX_OK) {
		/* keep runs small: the fuzzer wants many inputs a second */
		if (hangdx_scenario_set(sc, "time_limit", "100s") == HANGDX_OK &&
		    hangdx_scenario_set(sc, "tail", "1s") == HANGDX_OK &&
		    hangdx_scenario_set(sc, "ranks", "4") == HANGDX_OK)
			hangdx_simulate(ctx, sc, NULL, &sum);
		hangdx_scenario_free(sc);
	}
	hangdx_ctx_free(ctx);
	return 0;
}
