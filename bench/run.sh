#!/bin/sh
# bench/run.sh - `make bench`: every benchmark, each printing its table.
for b in bench/touch.sh bench/vocab.sh bench/sim.sh bench/diagnose.sh bench/scale-procs.sh bench/ingest.sh bench/check.sh bench/scale.sh; do
	[ -f "$b" ] || continue
	echo "== $b"
	sh "$b" || exit 1
done
