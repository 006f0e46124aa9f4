#!/bin/sh
# tests/golden/parse/run-case.sh KIND ARG - print the name of a golden case
# and run `hangdx parse --json` on it from the directory it lives in
# (sample: tests/data/samples, peer: tests/data/peer/ascend-fd, data:
# tests/data), so the output holds only relative paths.  Used by
# tests/cli/t30-parse.sh and scripts/regen-golden.sh.  Needs $HANGDX.
# Exits with the status of hangdx parse.
kind=$1
arg=$2
data=$(dirname "$0")/../../data
case $kind in
sample)
	cd "$data/samples" && exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
data)
	cd "$data" && exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
peer)
	cd "$data/peer/ascend-fd" && exec "$HANGDX" parse --json "$arg" 2>/dev/null ;;
*)
	echo "run-case.sh: unknown kind '$kind'" >&2
	exit 2 ;;
esac
