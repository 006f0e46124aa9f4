#!/bin/sh
# scripts/regen-diagnose-golden.sh - rewrite the golden diagnoses under
# tests/golden/diagnose/ (text, JSON and DOT for every log sample of tests/data/samples,
# and for the simulated reference incident).  Review the diff by hand: a
# golden file is a verdict an expert signs, not whatever the code prints.
set -e
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
G=tests/golden/diagnose
mkdir -p "$G"
for f in tests/data/samples/*.log; do
	n=$(basename "$f" .log)
	"$HANGDX" diagnose --color=never "$f" > "$G/$n.txt" || true
	"$HANGDX" diagnose --json "$f" > "$G/$n.json" || true
	"$HANGDX" diagnose --dot "$G/$n.dot" "$f" > /dev/null || true
done
tmp=$(mktemp -d)
"$HANGDX" simulate -q --preset reference -o "$tmp/reference" || true
(cd "$tmp" && "$HANGDX" diagnose --color=never reference > out.txt;
 "$HANGDX" diagnose --json reference > out.json;
 "$HANGDX" diagnose --dot out.dot reference > /dev/null) || true
cp "$tmp/out.txt" "$G/sim-reference.txt"
cp "$tmp/out.json" "$G/sim-reference.json"
cp "$tmp/out.dot" "$G/sim-reference.dot"
rm -rf "$tmp"
# the same text reports in Chinese (tests/cli/t43-diagnose-zh.sh)
Z=tests/golden/diagnose-zh
mkdir -p "$Z"
for f in tests/data/samples/*.log; do
	n=$(basename "$f" .log)
	[ -f "$G/$n.txt" ] || continue
	"$HANGDX" --lang zh diagnose --color=never "$f" > "$Z/$n.txt" || true
done
tmp=$(mktemp -d)
"$HANGDX" simulate -q --preset reference -o "$tmp/reference" || true
(cd "$tmp" && "$HANGDX" --lang zh diagnose --color=never reference > out.txt) || true
cp "$tmp/out.txt" "$Z/sim-reference.txt"
rm -rf "$tmp"
# the HTML report of the simulated reference (tests/cli/t60-html.sh)
[ -f tests/browser/regen-html-golden.sh ] && HANGDX="$HANGDX" sh tests/browser/regen-html-golden.sh
