/*
 * i18n.h - message translation inside the library: _() translates a
 * string through the "hangdx" text domain of GNU gettext (glibc's libintl),
 * N_() only marks one for xgettext.  The library never calls setlocale:
 * the program picks the language (cli/i18n.c).  po/README.md says how a
 * new string is marked and translated.
 */
#ifndef HX_I18N_H
#define HX_I18N_H

#define HX_TEXTDOMAIN "hangdx"

#if defined(__GNUC__)
#define HX_FORMAT_ARG(n) __attribute__((format_arg(n)))
#else
#define HX_FORMAT_ARG(n)
#endif

/* s in the language of the messages, or s itself when translation is off
 * (hangdx_set_translate) or no catalogue has it.  "" stays "". */
const char *hx_tr(const char *s) HX_FORMAT_ARG(1);

/* The BCP 47 tag of the messages hx_tr gives, "en" or e.g. "zh-CN". */
const char *hx_lang_tag(void);

#undef _
#undef N_
#define _(s) hx_tr(s)
#define N_(s) s

#endif
