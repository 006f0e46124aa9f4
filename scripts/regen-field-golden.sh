#!/bin/sh
# scripts/regen-field-golden.sh - rewrite the golden text diagnoses of the
# field reports under tests/golden/field/ (tests/cli/t43-field.sh), in
# English and, under tests/golden/field-zh/, in Chinese.  Each report's
# diagnosis must first agree with the report's own "# expected:" line
# (tests/field_check.py: hang, exit status, category, ids) and every run
# must end with an answer (exit 0, 1 or 5): else the script stops, naming
# the report, and writes nothing (scripts/regen-lib.sh).  Review the diff it
# prints: a golden file is a verdict an expert signs.
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
cd "$(dirname "$0")/.." || exit 1
. scripts/regen-lib.sh
regen_begin regen-field-golden
G=tests/golden/field
Z=tests/golden/field-zh
mkdir -p "$STAGE/$G" "$STAGE/$Z"
for f in tests/data/samples/field/*.log; do
	n=$(basename "$f" .log)
	regen_run "0 1 5" "diagnose --json $f" "$REGEN_TMP/$n.json" \
		"$HANGDX" diagnose --json "$f"
	python3 tests/field_check.py "$f" "$REGEN_TMP/$n.json" "$REGEN_STATUS" > "$REGEN_TMP/check" 2>&1 ||
		regen_refuse "$f" "the diagnosis disagrees with its # expected: line:
$(sed 's/^/  /' "$REGEN_TMP/check")"
	st=$REGEN_STATUS
	# the text reports must end as the JSON run did
	regen_run "$st" "diagnose $f (exit $st with --json)" "$STAGE/$G/$n.txt" \
		"$HANGDX" diagnose --color=never "$f"
	regen_run "$st" "--lang zh diagnose $f (exit $st with --json)" "$STAGE/$Z/$n.txt" \
		"$HANGDX" --lang zh diagnose --color=never "$f"
done
regen_install
