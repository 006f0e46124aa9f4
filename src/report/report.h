/*
 * report.h - the report writers, last stage of the pipeline: they borrow
 * what the simulator or the analyzer built and only format it.  Strings
 * that come from logs are escaped for their context (DOT label, HTML,
 * JSON) here and nowhere else.
 */
#ifndef HX_REPORT_H
#define HX_REPORT_H

#include <stdio.h>
#include "../model/state.h"

struct hangdx_diagnosis;

/* Append the wait-for graph g of st as a DOT digraph to b.  root, when
 * not NULL, marks per rank the roots: their clusters are drawn in red and
 * labelled "root"; a root marked 1 is drawn on its own, one marked 2
 * folds with alike roots only, never with other ranks. */
int hx_report_dot(struct hx_buf *b, const struct hx_wgraph *g,
		  const struct hx_state *st, const char *title,
		  const uint8_t *root);
/* Append s escaped for a DOT double-quoted string. */
void hx_dot_escape(struct hx_buf *b, const char *s);

/* Length of the valid UTF-8 sequence at p (2 to 4 bytes, no overlong
 * form, no surrogate, at most U+10FFFF), or 0 (html.c).  p points to a
 * byte >= 0x80 of a NUL-terminated string. */
size_t hx_utf8_len(const unsigned char *p);
/* Write s escaped for HTML text and quoted attribute values (html.c):
 * & < > " ' as references, control bytes dropped (tab and newline kept),
 * bytes that are not UTF-8 as U+FFFD. */
void hx_html_escape(FILE *fp, const char *s);
/* Write the part of Graphviz's SVG that can be inlined in HTML (svg.c):
 * from <svg> to </svg>, comments dropped, when it holds only the drawing
 * elements dot emits and no event handler, link, style or external
 * reference.  Returns 0, or -1 with nothing written. */
int hx_svg_inline(FILE *fp, const char *svg);
/* The timeline of the ranks the diagnosis involves, as inline SVG and a
 * table (svg.c).  HANGDX_ENOMEM or OK. */
int hx_svg_timeline(FILE *fp, const struct hangdx_diagnosis *d);

/* CSS that puts CJK fonts in the HTML page's font stacks when the messages
 * are not English, "" otherwise (htmlfont.c). */
const char *hx_html_cjk_css(void);

/* Word-wrap text at width display columns (wrap.c): the first line at
 * indent, the others at indent + hang; CJK text breaks between wide
 * characters; control bytes dropped. */
void hx_wrap(FILE *fp, const char *text, int indent, int hang, int width);

/* Sorted ranks as ranges ("0,2-5,9"), at most max, then how many more. */
void hx_rank_ranges(FILE *fp, const int32_t *r, uint32_t n, uint32_t max,
		    const char *sep, const char *dash);

#endif
