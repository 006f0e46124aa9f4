/*
 * report.h - the report writers, last stage of the pipeline: they borrow
 * what the simulator or the analyzer built and only format it.  Strings
 * that come from logs are escaped for their context (DOT label, HTML,
 * JSON) here and nowhere else.
 */
#ifndef HX_REPORT_H
#define HX_REPORT_H

#include "../model/state.h"

/* Append the wait-for graph g of st as a DOT digraph to b. */
int hx_report_dot(struct hx_buf *b, const struct hx_wgraph *g,
		  const struct hx_state *st, const char *title);
/* Append s escaped for a DOT double-quoted string. */
void hx_dot_escape(struct hx_buf *b, const char *s);

#endif
