#!/bin/sh
# bench/diagnose.sh - `hangdx diagnose` end to end on simulated logs of the
# reference incident at 4,096 ranks (goal: under 30 s on 2 cores, peak
# memory under 2 GB), against the same at 512 ranks measured in the same
# run (time per rank should stay flat).
# The goals and the verdict are checked at the end (bench/lib.sh).
. bench/lib.sh
HANGDX=${HANGDX:-./hangdx}
out=${BENCH_OUT:-bench/out}
mkdir -p "$out"
printf '%-40s %10s %10s %10s %8s\n' benchmark "log MB" seconds "rss MB" ratio
for n in 512 4096; do
	rm -rf "$out/diag$n"
	"$HANGDX" simulate -q --preset reference --set ranks=$n --no-trace \
		-o "$out/diag$n" > /dev/null 2>&1
	mb=$(du -sm "$out/diag$n" | cut -f1)
	/usr/bin/time -f "%e %M" -o "$out/diag$n.time" "$HANGDX" diagnose --json \
		"$out/diag$n" > "$out/diag$n.json" 2>/dev/null
	set -- $(tail -1 "$out/diag$n.time")
	eval "t$n=$1 m$n=$2 mb$n=$mb"
	v=0
	grep -q '"category": "aicpu_exhaustion_deadlock"' "$out/diag$n.json" && v=1
	eval "v$n=$v"
	rm -rf "$out/diag$n"
done
awk -v t0="$t512" -v m0="$m512" -v s0="$mb512" -v t1="$t4096" -v m1="$m4096" -v s1="$mb4096" 'BEGIN {
	printf "%-40s %10d %10.2f %10.0f %8s\n", "reference, 512 ranks (baseline)", s0, t0, m0 / 1024, "1.00"
	printf "%-40s %10d %10.2f %10.0f %8.2f\n", "reference, 4096 ranks", s1, t1, m1 / 1024, (t1 / 8) / (t0 > 0 ? t0 : 0.01)
}'
echo "  (ratio = time per rank at 4096 over time per rank at 512; goal: 4096 ranks under 30 s, under 2 GB)"
echo "limits (docs/PERFORMANCE.md, Diagnosis; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
limit "512 ranks: the AICPU-exhaustion deadlock found (1 = yes)" "$v512" ">=" 1
limit "4096 ranks: the AICPU-exhaustion deadlock found (1 = yes)" "$v4096" ">=" 1
limit "4096 ranks, seconds" "$t4096" "<" 30
limit "4096 ranks, peak RSS MB" "$(awk -v m="$m4096" 'BEGIN { printf "%.0f", m / 1024 }')" "<" 2048
limits_done
