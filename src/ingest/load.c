/* load.c - evidence in: JSON Lines written by hangdx_evidence_write_jsonl. */
#include "ingest.h"

int hangdx_evidence_load(struct hangdx_evidence *ev, const char *path)
{
	(void)ev;
	(void)path;
	return HANGDX_EUNSUPPORTED;
}
