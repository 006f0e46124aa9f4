#!/bin/sh
# bench/scale-procs.sh - `hangdx diagnose` of one directory of 100,000 host
# plogs of distinct processes (scripts/gen-plogs.sh, one failure line each):
# time and peak memory (goal: linear, no ceiling per process).
HANGDX=${HANGDX:-./hangdx}
out=${BENCH_OUT:-bench/out}
n=${SCALE_PROCS:-100000}
mkdir -p "$out"
rm -rf "$out/procs"
sh scripts/gen-plogs.sh "$n" "$out/procs" || exit 1
/usr/bin/time -f "%e %M" -o "$out/procs.time" "$HANGDX" diagnose --json \
	"$out/procs" > "$out/procs.json" 2> "$out/procs.err"
rc=$?
set -- $(tail -1 "$out/procs.time")
printf '%-40s %10s %10s %10s\n' benchmark files seconds "rss MB"
awk -v n="$n" -v t="$1" -v m="$2" 'BEGIN {
	printf "%-40s %10d %10.2f %10.0f\n", "plogs of distinct processes", n, t, m / 1024 }'
[ "$rc" -eq 1 ] || { echo "!! exit $rc, want 1"; cat "$out/procs.err"; exit 1; }
rm -rf "$out/procs" "$out/procs.json"
