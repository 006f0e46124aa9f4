#!/bin/sh
# tests/browser/regen-html-golden.sh - rewrite tests/golden/diagnose/
# sim-reference.html: the HTML report of the simulated reference incident
# as written without Graphviz (PATH holds no dot), so its bytes do not
# depend on the Graphviz version; tests/cli/t60-html.sh compares against
# it.  Review the diff by hand, as for scripts/regen-diagnose-golden.sh.
# The Chinese page goes to tests/golden/diagnose-zh/.
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
G=$(pwd)/tests/golden/diagnose
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$HANGDX" simulate -q --preset reference -o "$tmp/reference" > /dev/null
(cd "$tmp" && PATH=/nonexistent "$HANGDX" diagnose --html out.html reference > /dev/null 2>&1)
test -s "$tmp/out.html" && cp "$tmp/out.html" "$G/sim-reference.html"
# and in Chinese (tests/cli/t62-html-zh.sh)
(cd "$tmp" && PATH=/nonexistent "$HANGDX" --lang zh diagnose --html out-zh.html reference > /dev/null 2>&1)
mkdir -p "$G-zh" && test -s "$tmp/out-zh.html" && cp "$tmp/out-zh.html" "$G-zh/sim-reference.html"
