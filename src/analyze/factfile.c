/*
 * factfile.c - facts: what one node keeps of its logs per rank, written
 * and read as "hangdx-facts-1" JSON Lines (docs/FACTS.md), so that only
 * facts meet on the machine that decides (twophase.c).
 */
#include "analyze.h"

int hangdx_facts_new(struct hangdx_ctx *ctx, struct hangdx_facts **out)
{
	(void)ctx;
	*out = NULL;
	return HANGDX_EUNSUPPORTED;
}

void hangdx_facts_free(struct hangdx_facts *f)
{
	(void)f;
}

int hangdx_facts_add_evidence(struct hangdx_facts *f,
			      const struct hangdx_evidence *ev,
			      const struct hangdx_diagnose_opts *opts)
{
	(void)f, (void)ev, (void)opts;
	return HANGDX_EUNSUPPORTED;
}

int hangdx_facts_write(const struct hangdx_facts *f, FILE *fp)
{
	(void)f, (void)fp;
	return HANGDX_EUNSUPPORTED;
}

int hangdx_facts_load(struct hangdx_facts *f, const char *path)
{
	(void)f, (void)path;
	return HANGDX_EUNSUPPORTED;
}

int hangdx_facts_load_mem(struct hangdx_facts *f, const char *name,
			  const void *data, size_t len)
{
	(void)f, (void)name, (void)data, (void)len;
	return HANGDX_EUNSUPPORTED;
}

size_t hangdx_facts_ranks(const struct hangdx_facts *f)
{
	(void)f;
	return 0;
}

int hangdx_diagnose_facts(const struct hangdx_facts *f,
			  const struct hangdx_diagnose_opts *opts,
			  hangdx_fetch_fn *fetch, void *ud,
			  struct hangdx_diagnosis **out)
{
	(void)f, (void)opts, (void)fetch, (void)ud;
	*out = NULL;
	return HANGDX_EUNSUPPORTED;
}

size_t hangdx_diagnosis_fetched(const struct hangdx_diagnosis *d,
				int32_t *ranks, size_t max)
{
	(void)d, (void)ranks, (void)max;
	return 0;
}

int hangdx_evidence_write_ranks(const struct hangdx_evidence *ev,
				const int32_t *ranks, size_t n, FILE *fp)
{
	(void)ev, (void)ranks, (void)n, (void)fp;
	return HANGDX_EUNSUPPORTED;
}

int hangdx_evidence_load_mem(struct hangdx_evidence *ev, const char *name,
			     const void *data, size_t len)
{
	(void)ev, (void)name, (void)data, (void)len;
	return HANGDX_EUNSUPPORTED;
}
