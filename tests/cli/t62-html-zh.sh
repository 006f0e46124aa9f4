#!/bin/sh
# t62-html-zh.sh - the HTML report in Chinese: the page of the simulated
# reference incident as written without Graphviz (golden, byte for byte),
# lang="zh-CN" and CJK families in its font stacks (an English page has
# neither), still self-contained.  With headless Chromium: every CJK
# character of the page's text is drawn in the page's own font stack and
# none comes out as tofu (tests/browser/tofu.py), while the same probe
# under a fontconfig holding only DejaVu must find tofu (the canary that
# proves the detector works); a screenshot is kept under $B/artefacts.
. tests/cli/lib.sh
. tests/browser/lib.sh
Z=tests/golden/diagnose-zh
ART=$ROOT/${B:-build}/artefacts
cd "$T" || exit 1

"$HANGDX" simulate -q --preset reference -o reference > /dev/null 2>&1
PATH=/nonexistent "$HANGDX" --lang zh diagnose --html zh.html reference > /dev/null 2>&1
PATH=/nonexistent "$HANGDX" diagnose --html en.html reference > /dev/null 2>&1
t_golden "zh: simulated reference html, no dot (golden)" "$ROOT/$Z/sim-reference.html" zh.html
t_ok "zh: lang=\"zh-CN\" and CJK fonts in the stacks" \
	sh -c 'grep -q "^<!DOCTYPE html>" zh.html && grep -q "<html lang=\"zh-CN\">" zh.html &&
	       grep -q "body{font-family:[^}]*\"Noto Sans CJK SC\"[^}]*\"WenQuanYi Micro Hei\"" zh.html &&
	       grep -q "code,pre,.mono,.tag{font-family:[^}]*CJK" zh.html'
t_ok "en: lang=\"en\", no CJK font stack" \
	sh -c 'grep -q "<html lang=\"en\">" en.html && ! grep -q "CJK" en.html'
t_ok "zh: verdict, summary and section titles in Chinese" \
	sh -c 'grep -q "<span class=\"badge\">死锁</span>AICPU 核耗尽死锁<span class=\"proven\">已证明</span>" zh.html &&
	       grep -q "<p class=\"summary\">死锁，已在根据日志重建的 device 状态上证明" zh.html &&
	       grep -q "<h2>修复建议</h2>" zh.html && grep -q "<h2>等待链<small>" zh.html'
t_ok "zh: ids, anchors and category id unchanged" \
	sh -c 'for a in fix chain graph timeline ranks evidence; do grep -q "<a href=\"#$a\">" zh.html || exit 1; done &&
	       grep -q "<code>aicpu_exhaustion_deadlock</code>" zh.html &&
	       test "$(grep -o "id=\"[a-z0-9-]*\"" zh.html | sort)" = "$(grep -o "id=\"[a-z0-9-]*\"" en.html | sort)"'
t_ok "zh: no script, no external reference" \
	sh -c 'test -s zh.html && ! grep -qi "<script\|<iframe\|<object\|<embed\|<link\|<img\|@import\|url(" zh.html'
t_ok "a CJK family the page names is installed (fc-list)" \
	sh -c 'fc-list :lang=zh family | tr "," "\n" > fams && test -s fams &&
	       grep -o "body{font-family:[^}]*}" zh.html | tail -1 | grep -o "\"[^\"]*\"" | tr -d "\"" |
	       grep -qxFf fams'

hx_browser_need
python3 "$HX_HERE/tofu.py" zh.html probe.html
hx_browser --dump-dom "file://$T/probe.html" > probe.dom 2> /dev/null
grep -o "chars=[0-9]* tofu=[0-9]* \[[^]]*\]" probe.dom > probe.out
t_skipping || echo "# $(cat probe.out)"
t_ok "chromium: no tofu in the Chinese page ($(cat probe.out))" \
	sh -c 'grep -q "^chars=[1-9][0-9]* tofu=0 " probe.out'
mkdir -p fc
printf '<?xml version="1.0"?>\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>%s/fc</cachedir></fontconfig>\n' "$T" > fonts.conf
FONTCONFIG_FILE=$T/fonts.conf hx_browser --dump-dom "file://$T/probe.html" > canary.dom 2> /dev/null
grep -o "chars=[0-9]* tofu=[0-9]*" canary.dom > canary.out
if [ -d /usr/share/fonts/truetype/dejavu ]; then
	t_ok "chromium: canary: DejaVu alone shows tofu ($(cat canary.out))" \
		sh -c 'grep -q "tofu=[1-9]" canary.out'
else
	t_missing "chromium: canary: DejaVu alone shows tofu" "no DejaVu fonts (fonts-dejavu-core)"
fi
hx_browser --screenshot="$T/shot.png" --window-size=1280,2000 --hide-scrollbars \
	"file://$T/zh.html" > /dev/null 2>&1
mkdir -p "$ART" && cp shot.png "$ART/t62-reference-zh.png" 2>/dev/null
t_ok "chromium: screenshot ($ART/t62-reference-zh.png)" \
	sh -c 'test "$(head -c 8 shot.png | od -An -c | tr -d " ")" = "211PNG\r\n032\n" && test "$(wc -c < shot.png)" -gt 50000'
t_done
