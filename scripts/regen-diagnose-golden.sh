#!/bin/sh
# scripts/regen-diagnose-golden.sh - rewrite the golden diagnoses under
# tests/golden/diagnose/ (text, JSON and DOT for every log sample of
# tests/data/samples, and for the simulated reference incident) and the
# Chinese text reports under tests/golden/diagnose-zh/, then the HTML pages
# (tests/browser/regen-html-golden.sh).  Every diagnosis must end with an
# answer (exit 0, 1 or 5; the reference must simulate as a hang, exit 1,
# and be diagnosed as one), its three formats and its Chinese text must
# end alike, and each sample's answer must be the one
# tests/data/samples/EXPECTED.tsv states: else the script stops, naming the input, and writes nothing
# (scripts/regen-lib.sh).  Review the diff it prints: a golden file is a
# verdict an expert signs, not whatever the code prints.
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
cd "$(dirname "$0")/.." || exit 1
. scripts/regen-lib.sh
regen_begin regen-diagnose-golden
G=tests/golden/diagnose
Z=tests/golden/diagnose-zh
mkdir -p "$STAGE/$G" "$STAGE/$Z"

# diagnose NAME INPUT [WANT]: the text, JSON and DOT of INPUT (run from where
# INPUT is, as the test does) into NAME.txt/.json/.dot, and the Chinese text;
# each run must exit WANT (default: 0, 1 or 5) and all four alike
diagnose() {
	_n=$1
	_in=$2
	regen_run "${3:-0 1 5}" "diagnose $_in" "$STAGE/$G/$_n.txt" \
		"$HANGDX" diagnose --color=never "$_in"
	_st=$REGEN_STATUS
	regen_run "$_st" "diagnose --json $_in (exit $_st as text)" "$STAGE/$G/$_n.json" \
		"$HANGDX" diagnose --json "$_in"
	regen_run "$_st" "diagnose --dot $_in (exit $_st as text)" /dev/null \
		"$HANGDX" diagnose --dot "$STAGE/$G/$_n.dot" "$_in"
	test -s "$STAGE/$G/$_n.dot" || regen_refuse "diagnose --dot $_in" "no DOT written"
	regen_run "$_st" "--lang zh diagnose $_in (exit $_st in English)" "$STAGE/$Z/$_n.txt" \
		"$HANGDX" --lang zh diagnose --color=never "$_in"
}

# the answer each sample states (tests/data/samples/EXPECTED.tsv) first:
# a golden is never written from an answer the sample contradicts
python3 tests/expected_check.py "$HANGDX" tests/data/samples/EXPECTED.tsv \
	> "$REGEN_TMP/expected.tap" ||
	regen_refuse "tests/data/samples/EXPECTED.tsv" \
		"$(grep '^not ok' "$REGEN_TMP/expected.tap" | head -3)"
for f in tests/data/samples/*.log; do
	diagnose "$(basename "$f" .log)" "$f"
done

# the simulated reference incident, diagnosed from the directory above it
# so that its paths read reference/...
regen_run 1 "simulate --preset reference (a deadlock: exit 1)" /dev/null \
	"$HANGDX" simulate -q --preset reference -o "$REGEN_TMP/reference"
(cd "$REGEN_TMP" && diagnose sim-reference reference 1) || exit 1

regen_install
# the HTML report of the simulated reference (tests/cli/t60-html.sh)
HANGDX="$HANGDX" sh tests/browser/regen-html-golden.sh
