#!/bin/sh
# scripts/regen-field-golden.sh - rewrite the golden text diagnoses of the
# field reports under tests/golden/field/ (tests/cli/t43-field.sh).
# Review the diff by hand: a golden file is a verdict an expert signs.
set -e
HANGDX=${HANGDX:-./hangdx}
G=tests/golden/field
mkdir -p "$G"
for f in ../shared/samples/field/*.log; do
	n=$(basename "$f" .log)
	"$HANGDX" diagnose --color=never "$f" > "$G/$n.txt" || true
done
