#!/bin/sh
# scripts/regen-golden.sh - rewrite the expected outputs of the golden tests
# (tests/golden/parse/*.jsonl) from the current build.  Run after a
# deliberate change of the evidence, then review `git diff tests/golden`
# line by line against the log formats (docs/EVIDENCE.md) before committing.
set -e
cd "$(dirname "$0")/.."
HANGDX=${HANGDX:-$(pwd)/hangdx}
export HANGDX
G=tests/golden/parse
while read -r kind arg; do
	case $kind in ''|'#'*) continue ;; esac
	name=$(sh $G/name.sh "$kind" "$arg")
	sh $G/run-case.sh "$kind" "$arg" > "$G/$name.jsonl" || true
	echo "wrote $G/$name.jsonl ($(wc -l < "$G/$name.jsonl") lines)"
done < $G/cases.txt
