/*
 * wrap.c - word wrapping for the text report that counts display columns,
 * not bytes: a CJK character takes two columns (wcwidth), and a Chinese
 * paragraph, which has no spaces, may break between any two wide
 * characters, except before closing punctuation (，。）…) and after opening
 * punctuation (（“《…).  English text wraps exactly as before: at spaces.
 * Text is UTF-8 whatever LC_CTYPE says; control bytes are dropped and bytes
 * that are not UTF-8 become U+FFFD.
 */
#define _XOPEN_SOURCE 700      /* wcwidth */
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include "../core/core.h"
#include "report.h"

struct uch {
	uint32_t cp;    /* code point; 0xFFFD for a byte that is not UTF-8 */
	size_t len;     /* bytes in the text */
	int width;      /* display columns: 0 for what is not printed */
};

/* Columns of a code point when wcwidth cannot tell (LC_CTYPE not UTF-8):
 * the East Asian wide and fullwidth blocks take two. */
static int wide_fallback(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	       (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd)
		       ? 2 : 1;
}

static int cp_width(uint32_t c)
{
	int w;

	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return 0;
	if (c < 0x7f)
		return 1;
	w = wcwidth((wchar_t)c);
	return w >= 0 ? w : wide_fallback(c);
}

static struct uch next_ch(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct uch u = { *p, 1, 0 };
	size_t i;

	if (*p >= 0x80) {
		u.len = hx_utf8_len(p);
		if (u.len == 0) {
			u.cp = 0xfffd;
			u.len = 1;
		} else {
			u.cp = *p & (0x7fu >> u.len);
			for (i = 1; i < u.len; i++)
				u.cp = (u.cp << 6) | (p[i] & 0x3fu);
		}
	}
	u.width = cp_width(u.cp);
	return u;
}

/* Punctuation a line must not start with, or end with. */
static bool no_break_before(uint32_t c)
{
	static const uint32_t cl[] = { 0xff0c, 0x3002, 0x3001, 0xff1b, 0xff1a, 0xff01,
		0xff1f, 0xff09, 0x300b, 0x300d, 0x300f, 0x3011, 0x3015, 0x201d,
		0x2019, 0x2026, 0x2014, ',', ';', ':', '!', '?', ')', ']', '}' };
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(cl); i++)
		if (cl[i] == c)
			return true;
	return false;
}

static bool no_break_after(uint32_t c)
{
	static const uint32_t op[] = { 0xff08, 0x300a, 0x300c, 0x300e, 0x3010,
		0x3014, 0x201c, 0x2018, '(', '[', '{' };
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(op); i++)
		if (op[i] == c)
			return true;
	return false;
}

/* The end of the unit that starts at s, inside a word that ends at end,
 * and its columns: a unit ends where a line may break. */
static const char *unit_end(const char *s, const char *end, int *cols)
{
	struct uch a = next_ch(s), b;
	const char *p = s + a.len;

	*cols = a.width;
	while (p < end) {
		b = next_ch(p);
		if ((a.width == 2 || b.width == 2) && !no_break_before(b.cp) &&
		    !no_break_after(a.cp))
			break;
		*cols += b.width;
		p += b.len;
		a = b;
	}
	return p;
}

/* Print s..end without control characters; U+FFFD for bad bytes. */
static void put_unit(FILE *fp, const char *s, const char *end)
{
	while (s < end) {
		struct uch u = next_ch(s);
		if (u.cp == 0xfffd && u.len == 1)
			fputs("\xef\xbf\xbd", fp);
		else if (u.width > 0 || u.cp >= 0xa0)
			fwrite(s, 1, u.len, fp);
		s += u.len;
	}
}

void hx_wrap(FILE *fp, const char *text, int indent, int hang, int width)
{
	int col_at = indent;
	const char *p = text;

	fprintf(fp, "%*s", indent, "");
	while (*p) {
		const char *w = p, *end;
		bool sep = true;
		while (*p && *p != ' ')
			p++;
		end = p;
		while (w < end || sep) {        /* the units of one word */
			int n = 0;
			const char *u = w < end ? unit_end(w, end, &n) : end;
			if (col_at > indent && col_at + (sep ? 1 : 0) + n > width) {
				fprintf(fp, "\n%*s", indent + hang, "");
				col_at = indent + hang;
			} else if (col_at > indent && sep) {
				fputc(' ', fp);
				col_at++;
			}
			put_unit(fp, w, u);
			col_at += n;
			w = u;
			sep = false;
		}
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}
