#!/bin/sh
# tests/golden/parse/run-case.sh KIND ARG - print the name of a golden case
# and run `hangdx parse --json` on it from the directory it lives in (data:
# tests/data), so the output holds only relative paths.  Used by
# tests/cli/t30-parse.sh and scripts/regen-golden.sh.  Needs $HANGDX and $SHARED.
kind=$1
arg=$2
case $kind in
sample)
	cd "$SHARED/samples" && exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
data)
	cd "$(dirname "$0")/../../data" &&
		exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
peer)
	cd "$SHARED/peer-fixtures/ascend-fd" &&
		exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
*)
	echo "run-case.sh: unknown kind '$kind'" >&2
	exit 2 ;;
esac
