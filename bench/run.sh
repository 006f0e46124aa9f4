#!/bin/sh
# bench/run.sh - `make bench`: every benchmark, each printing its table and
# checking the limits docs/PERFORMANCE.md states (bench/lib.sh: PASS or
# FAIL per limit).  Every benchmark runs; the status is 1 if any failed.
bad=""
for b in bench/touch.sh bench/vocab.sh bench/sim.sh bench/diagnose.sh bench/scale-procs.sh bench/ingest.sh bench/check.sh bench/scale.sh bench/watch.sh; do
	[ -f "$b" ] || continue
	echo "== $b"
	sh "$b" || bad="$bad $b"
done
[ -z "$bad" ] || { echo "bench: FAILED:$bad"; exit 1; }
echo "bench: every stated limit met"
