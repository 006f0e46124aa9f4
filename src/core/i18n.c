/*
 * i18n.c - the library's side of translated messages: strings go through
 * dgettext("hangdx", ...) unless the program turned translation off
 * (JSON output is the same in every language, so a program writing JSON
 * diagnoses untranslated).  The language tag of the catalogue in use is
 * read from its header, so the HTML page can say lang="zh-CN".
 */
#include <libintl.h>
#include <stdatomic.h>
#include <string.h>
#include "core.h"

static atomic_int translate_on = 1;

int hangdx_set_translate(int on)
{
	return atomic_exchange(&translate_on, on ? 1 : 0);
}

const char *hx_tr(const char *s)
{
	if (!s || !s[0] || !atomic_load(&translate_on))
		return s;
	return dgettext(HX_TEXTDOMAIN, s);
}

/* "Language: zh_CN" of the catalogue header, as "zh-CN"; "en" when no
 * catalogue is in use. */
const char *hx_lang_tag(void)
{
	static const char header[1];    /* msgid "": the catalogue header */
	static _Thread_local char tag[32];
	const char *h, *p;
	size_t n = 0;

	if (!atomic_load(&translate_on))
		return "en";
	h = dgettext(HX_TEXTDOMAIN, header);
	p = h ? strstr(h, "Language: ") : NULL;
	if (!p)
		return "en";
	for (p += 10; n + 1 < sizeof tag && (p[n] == '_' || p[n] == '-' ||
		     (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z'));
	     n++)
		tag[n] = p[n] == '_' ? '-' : p[n];
	tag[n] = '\0';
	return n ? tag : "en";
}

const char *hangdx_lang(void)
{
	return hx_lang_tag();
}
