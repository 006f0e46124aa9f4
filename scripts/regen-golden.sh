#!/bin/sh
# scripts/regen-golden.sh - rewrite the expected outputs of the golden tests
# (tests/golden/parse/*.jsonl) from the current build.  Run after a
# deliberate change of the evidence, then review the diff it prints line by
# line against the log formats (docs/EVIDENCE.md) before committing.  Every
# case must parse with exit 0 and give JSON Lines ending in its totals:
# else the script stops, naming the case, and writes nothing
# (scripts/regen-lib.sh).
HANGDX=${HANGDX:-./hangdx}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
export HANGDX
cd "$(dirname "$0")/.." || exit 1
. scripts/regen-lib.sh
regen_begin regen-golden
G=tests/golden/parse
mkdir -p "$STAGE/$G"
while read -r kind arg; do
	case $kind in ''|'#'*) continue ;; esac
	name=$(sh $G/name.sh "$kind" "$arg")
	out=$STAGE/$G/$name.jsonl
	regen_run 0 "parse $kind $arg" "$out" sh $G/run-case.sh "$kind" "$arg"
	python3 -c '
import json, sys
kinds = [json.loads(l)["kind"] for l in open(sys.argv[1])]
sys.exit(0 if kinds and kinds[-1] == "totals" else 1)' "$out" ||
		regen_refuse "parse $kind $arg" "not JSON Lines ending in its totals"
done < $G/cases.txt
regen_install
