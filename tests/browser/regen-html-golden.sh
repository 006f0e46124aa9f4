#!/bin/sh
# tests/browser/regen-html-golden.sh - rewrite tests/golden/diagnose/
# sim-reference.html: the HTML report of the simulated reference incident
# as written without Graphviz (PATH holds no dot), so its bytes do not
# depend on the Graphviz version; tests/cli/t60-html.sh compares against
# it.  The Chinese page goes to tests/golden/diagnose-zh/
# (tests/cli/t62-html-zh.sh).  The reference must simulate and be
# diagnosed as a hang (exit 1) with a page written: else the script stops
# and writes nothing (scripts/regen-lib.sh).  Review the diff it prints, as
# for scripts/regen-diagnose-golden.sh.
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
cd "$(dirname "$0")/../.." || exit 1
. scripts/regen-lib.sh
regen_begin regen-html-golden
G=tests/golden/diagnose
Z=tests/golden/diagnose-zh
mkdir -p "$STAGE/$G" "$STAGE/$Z"
regen_run 1 "simulate --preset reference (a deadlock: exit 1)" /dev/null \
	"$HANGDX" simulate -q --preset reference -o "$REGEN_TMP/reference"
(
	cd "$REGEN_TMP" || exit 1
	regen_run 1 "diagnose --html reference, without dot" /dev/null \
		env PATH=/nonexistent "$HANGDX" diagnose --html "$STAGE/$G/sim-reference.html" reference
	regen_run 1 "--lang zh diagnose --html reference, without dot" /dev/null \
		env PATH=/nonexistent "$HANGDX" --lang zh diagnose --html "$STAGE/$Z/sim-reference.html" reference
) || exit 1
for f in "$STAGE/$G/sim-reference.html" "$STAGE/$Z/sim-reference.html"; do
	test -s "$f" || regen_refuse "diagnose --html reference" "no page written"
done
regen_install
