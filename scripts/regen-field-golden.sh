#!/bin/sh
# scripts/regen-field-golden.sh - rewrite the golden text diagnoses of the
# field reports under tests/golden/field/ (tests/cli/t43-field.sh), in
# English and, under tests/golden/field-zh/, in Chinese.
# Review the diff by hand: a golden file is a verdict an expert signs.
set -e
HANGDX=${HANGDX:-./hangdx}
G=tests/golden/field
Z=tests/golden/field-zh
mkdir -p "$G" "$Z"
for f in tests/data/samples/field/*.log; do
	n=$(basename "$f" .log)
	"$HANGDX" diagnose --color=never "$f" > "$G/$n.txt" || true
	"$HANGDX" --lang zh diagnose --color=never "$f" > "$Z/$n.txt" || true
done
