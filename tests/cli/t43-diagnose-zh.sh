#!/bin/sh
# t43-diagnose-zh.sh - hangdx in Chinese (po/README.md): the golden Chinese
# text reports of every log sample with an English golden and of the
# simulated reference; the catalogue translates every message the sources
# hold today (the template is extracted again here, so a message added
# without a translation fails); JSON is byte-identical in every language
# and however the language is chosen; the language follows --lang,
# LANGUAGE, LC_ALL, LC_MESSAGES and LANG (also where zh_CN.UTF-8 is not
# installed), and is English without a catalogue; Chinese paragraphs wrap
# at 78 display columns; help and diagnostics are translated.
. tests/cli/lib.sh
G=tests/golden/diagnose
Z=tests/golden/diagnose-zh

# -- the catalogue is complete -------------------------------------------------
sh po/xgettext.sh "$T/hangdx.pot" 2> "$T/xgettext.err"
t_ok "xgettext: the template extracts without a warning" \
	sh -c "test -s '$T/hangdx.pot' && test ! -s '$T/xgettext.err'"
msgmerge -q --no-fuzzy-matching -o "$T/zh_CN.po" po/zh_CN.po "$T/hangdx.pot" 2> "$T/merge.err"
LC_ALL=C msgfmt --check --statistics -o "$T/zh.mo" "$T/zh_CN.po" 2> "$T/stats"
t_ok "zh_CN.po: every message of the sources translated, none fuzzy ($(cat "$T/stats"))" \
	sh -c "grep -q '^[0-9]* translated messages\.\$' '$T/stats'"
t_ok "zh_CN.po: no message the sources no longer have" absent '^#~' "$T/zh_CN.po"
t_ok "zh_CN.po: format strings agree (msgfmt --check)" msgfmt --check -o /dev/null po/zh_CN.po
# what keywords cannot find: a summary or rank state written with a bare
# literal, a hop's "why" not marked N_()
t_ok "sources: summaries, rank states and hop reasons are marked for translation" \
	python3 -c '
import re, sys
bad = []
for f in sys.argv[1:]:
    s = open(f, encoding="utf-8").read()
    for m in re.finditer(r"snprintf\(\s*(d->summary|ri->state|gr->state),\s*sizeof[^,]*,\s*\"(?!%s\")", s):
        bad.append("%s:%d: %s" % (f, s.count("\n", 0, m.start()) + 1, m.group(0)))
    for m in re.finditer(r"hx_hop_add\([^;]*?,\s*\"[^\"]+\",\s*\"", s):
        bad.append("%s:%d: %s" % (f, s.count("\n", 0, m.start()) + 1, m.group(0)[:60]))
print("\n".join(bad)); sys.exit(1 if bad else 0)' src/analyze/*.c

# -- golden Chinese reports ----------------------------------------------------
for f in tests/data/samples/*.log; do
	n=$(basename "$f" .log)
	[ -f "$G/$n.txt" ] || continue
	"$HANGDX" --lang zh diagnose --color=never "$f" > "$T/$n.txt" 2>/dev/null
	t_golden "$n: text (zh)" "$Z/$n.txt" "$T/$n.txt"
done
"$HANGDX" simulate -q --preset reference -o "$T/reference" > /dev/null 2>&1
(cd "$T" && "$HANGDX" --lang zh diagnose --color=never reference > ref-zh.txt)
t_golden "simulated reference: text (zh)" "$Z/sim-reference.txt" "$T/ref-zh.txt"

# every preset's incident, diagnosed in Chinese, holds no English sentence
# (hop task labels and log paths aside): a report string left unmarked shows
english_left() {
	python3 -c '
import re, sys
bad = [l for l in open(sys.argv[1], encoding="utf-8")
       if "/" not in l and not re.match(r" *[0-9]+\. rank", l)
       and re.search(r"[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}", l)]
print("".join(bad)); sys.exit(1 if bad else 0)' "$1"
}
for p in $("$HANGDX" simulate --list-presets | cut -d" " -f1); do
	"$HANGDX" simulate -q --preset "$p" -o "$T/p-$p" > /dev/null 2>&1
	"$HANGDX" --lang zh diagnose --color=never "$T/p-$p" > "$T/p-$p.zh" 2>&1
	t_ok "preset $p: the Chinese report has no English sentence left" english_left "$T/p-$p.zh"
done

# -- JSON is the same in every language ----------------------------------------
json_same() {
	"$HANGDX" diagnose --json "$1" > "$T/j-en" 2>/dev/null
	"$HANGDX" --lang zh diagnose --json "$1" > "$T/j-1" 2>/dev/null
	LANG=zh_CN.UTF-8 "$HANGDX" diagnose --json "$1" > "$T/j-2" 2>/dev/null
	LANG=C.UTF-8 LANGUAGE=zh_CN "$HANGDX" diagnose --json "$1" > "$T/j-3" 2>/dev/null
	LC_ALL=zh_CN.UTF-8 "$HANGDX" diagnose --json --html "$T/j.html" "$1" > "$T/j-4" 2>/dev/null
	test -s "$T/j-en" && cmp "$T/j-en" "$T/j-1" && cmp "$T/j-en" "$T/j-2" &&
		cmp "$T/j-en" "$T/j-3" && cmp "$T/j-en" "$T/j-4"
}
for f in "$DATA"/samples/*.log "$T/reference"; do
	t_ok "json byte-identical in en and zh: $(basename "$f")" json_same "$f"
done
t_ok "json in zh: the HTML written beside it is Chinese" \
	sh -c "grep -q '<html lang=\"zh-CN\">' '$T/j.html' && grep -q '修复建议' '$T/j.html'"

# -- how the language is chosen --------------------------------------------------
S=$DATA/samples/02-hccl-doc-heartbeat-lost-and-stuck.log
zh() { grep -q '修复建议' "$T/out"; }
en() { grep -q '^fix$' "$T/out" && ! grep -q '修复' "$T/out"; }
run() { "$@" > "$T/out" 2>&1; }
run "$HANGDX" --lang zh diagnose "$S"; t_ok "--lang zh: Chinese" zh
run "$HANGDX" --lang=zh diagnose "$S"; t_ok "--lang=zh: Chinese" zh
run env LANG=zh_CN.UTF-8 "$HANGDX" diagnose "$S"; t_ok "LANG=zh_CN.UTF-8: Chinese" zh
run env LC_MESSAGES=zh_CN.UTF-8 "$HANGDX" diagnose "$S"; t_ok "LC_MESSAGES=zh_CN.UTF-8: Chinese" zh
run env LC_ALL=zh_CN.UTF-8 "$HANGDX" diagnose "$S"; t_ok "LC_ALL=zh_CN.UTF-8: Chinese" zh
run env LANG=C.UTF-8 LANGUAGE=zh_CN:en "$HANGDX" diagnose "$S"; t_ok "LANGUAGE=zh_CN:en under C.UTF-8: Chinese" zh
run env LANG=zh_CN.UTF-8 LC_ALL=C "$HANGDX" diagnose "$S"; t_ok "LC_ALL=C over LANG=zh_CN.UTF-8: English" en
run env LANG=zh_CN.UTF-8 "$HANGDX" --lang en diagnose "$S"; t_ok "--lang en over LANG=zh_CN.UTF-8: English" en
run "$HANGDX" diagnose "$S"; t_ok "no locale: English" en
run env HANGDX_LOCALEDIR=/nonexistent "$HANGDX" --lang zh diagnose "$S"; t_ok "no catalogue: English" en
t_exit 2 "--lang fr: usage error" "$HANGDX" --lang fr diagnose "$S"
t_exit 2 "--lang without a value: usage error" "$HANGDX" --lang
run "$HANGDX" --lang zh diagnose "$S"
t_exit 1 "--lang zh: exit codes unchanged (hang: 1)" "$HANGDX" --lang zh diagnose "$S"
t_exit 3 "--lang zh: exit codes unchanged (no input: 3)" "$HANGDX" --lang zh diagnose "$T/none"

# -- text layout -----------------------------------------------------------------
# paragraphs (summary, lists) are wrapped: no line of them is wider than 78
# columns unless it is one unbreakable token; hop lines are not wrapped
cols() {
	python3 -c '
import re, sys, unicodedata
bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    hop = re.match(r" *[0-9]+\. ", line) or line.startswith("      ")
    if w > 78 and not hop and " " in line.strip():
        print(w, line); bad += 1
sys.exit(bad)' "$1"
}
for f in "$T"/*.txt; do
	t_ok "zh text wraps at 78 columns: $(basename "$f")" cols "$f"
done
t_ok "zh text: a Chinese paragraph fills its lines (some line over 70 columns)" \
	python3 -c '
import sys, unicodedata
ws = [sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")]
sys.exit(0 if max(ws[:8]) > 70 else 1)' "$T/ref-zh.txt"
t_ok "zh text: no line starts with closing punctuation" \
	python3 -c '
import sys
bad = [l for f in sys.argv[1:] for l in open(f, encoding="utf-8")
       if l.strip() and l.lstrip()[0] in "，。；：、）！？"]
print("".join(bad)); sys.exit(1 if bad else 0)' "$T"/*.txt

# -- help and diagnostics ---------------------------------------------------------
run "$HANGDX" --lang zh --help
t_ok "help in Chinese: commands and the global option" \
	sh -c "grep -q '^用法：hangdx' '$T/out' && grep -q '定位作业卡死原因' '$T/out' && grep -q -- '--lang zh|en' '$T/out'"
run "$HANGDX" --lang zh help diagnose
t_ok "help diagnose in Chinese" sh -c "grep -q '^选项：' '$T/out' && grep -q -- '--json            以 JSON 输出' '$T/out'"
printf 'cluster:\n  ranks: 2\n  bogus_key: 1\n' > "$T/bad.yaml"
run "$HANGDX" --lang zh simulate "$T/bad.yaml" -o "$T/o"
t_ok "diagnostic in Chinese, file:line:col kept" \
	sh -c "grep -q '^$T/bad.yaml:3:3: 错误: cluster 中未知的键 .bogus_key.' '$T/out'"
run "$HANGDX" --lang zh diagnose --cores 99 "$S"
t_ok "usage error in Chinese" sh -c "grep -q -- '--cores 取值为 1 到 64' '$T/out'"
t_done
