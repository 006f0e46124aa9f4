/*
 * promela.c - export of the checker's transition system as Promela.
 */
#include "check.h"

int hangdx_check_write_promela(struct hangdx_ctx *ctx,
			       const struct hangdx_scenario *sc,
			       const char *path)
{
	(void)ctx;
	(void)sc;
	(void)path;
	return HANGDX_EUNSUPPORTED;
}
