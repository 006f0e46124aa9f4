/*
 * ingestutil.h - the reader driven on a string, for the unit tests of the
 * line families: one context for the program, one evidence per call.
 */
#ifndef HX_INGESTUTIL_H
#define HX_INGESTUTIL_H

static struct hangdx_ctx *g_ctx;

static struct hangdx_evidence *ingest(const char *text)
{
	struct hangdx_ingest_opts o = { .threads = 1 };
	struct hangdx_evidence *ev;

	if (!g_ctx)
		g_ctx = hangdx_ctx_new(NULL);
	assert_int_equal(hangdx_evidence_new(g_ctx, &ev), HANGDX_OK);
	assert_int_equal(hangdx_ingest_mem(ev, "t.log", text, strlen(text), &o),
			 HANGDX_OK);
	return ev;
}

#endif
