/*
 * htmlfont.c - fonts for an HTML report that is not in English: the page
 * names CJK families (Noto Sans CJK, Source Han Sans, WenQuanYi, the
 * macOS and Windows ones) after its Latin fonts, so a Chinese page never
 * shows tofu boxes where such a font is installed.  An English page is
 * left as it was.
 */
#include <string.h>
#include "../core/core.h"
#include "report.h"

#define CJK_SANS "\"Noto Sans CJK SC\",\"Source Han Sans SC\",\"Noto Sans SC\"," \
	"\"WenQuanYi Micro Hei\",\"WenQuanYi Zen Hei\",\"PingFang SC\"," \
	"\"Hiragino Sans GB\",\"Microsoft YaHei\""

static const char cjk_css[] =
	"body{font-family:system-ui,-apple-system,\"Segoe UI\",\"Noto Sans\","
	"\"DejaVu Sans\"," CJK_SANS ",Helvetica,Arial,sans-serif}\n"
	"code,pre,.mono,.tag{font-family:ui-monospace,SFMono-Regular,"
	"\"DejaVu Sans Mono\",\"Noto Sans Mono CJK SC\"," CJK_SANS ",Menlo,"
	"Consolas,monospace}\n"
	"svg.timeline text{font-family:system-ui,\"DejaVu Sans\"," CJK_SANS
	",sans-serif}\n";

const char *hx_html_cjk_css(void)
{
	return strcmp(hx_lang_tag(), "en") == 0 ? "" : cjk_css;
}
