#!/bin/sh
# bench/sim.sh - simulator benchmarks (make bench):
#  1. throughput: tasks and discrete events per second on one core, on
#     bench/sim-throughput.yaml, against the goal of 5 million task events
#     (a task's start and its end) per second;
#  2. scale: the reference incident at 4,096 ranks run to its first error,
#     against the same scenario at 512 ranks measured in the same run
#     (time and peak memory per rank should stay flat: linear scaling).
#  The limits of docs/PERFORMANCE.md ("Simulator") are checked at the end.
. bench/lib.sh
HANGDX=${HANGDX:-./hangdx}
out=${BENCH_OUT:-bench/out}
mkdir -p "$out"

measure() { # measure NAME ARGS...: prints "seconds maxrss_kb cpu_seconds"
	name=$1
	shift
	/usr/bin/time -f "%e %M %U %S" -o "$out/$name.time" "$HANGDX" simulate "$@" \
		> "$out/$name.txt" 2>&1
	tail -1 "$out/$name.time" | awk '{ print $1, $2, $3 + $4 }'
}

field() { # field FILE WORD: the number before WORD in the summary
	sed -n "s/.*(\([0-9]*\) tasks, \([0-9]*\) events).*/\1 \2/p" "$1"
}

printf '%-34s %10s %10s %12s %12s %8s\n' benchmark seconds "rss MB" "tasks/s" "events/s" ratio
set -- $(measure thr bench/sim-throughput.yaml -q --no-logs --no-trace)
t=$1 rss=$2 cpu=$3
$HANGDX simulate bench/sim-throughput.yaml --no-logs --no-trace > "$out/thr.txt" 2>&1
set -- $(field "$out/thr.txt")
tasks=$1 events=$2
awk -v t="$t" -v rss="$rss" -v n="$tasks" -v e="$events" 'BEGIN {
	ts = n / t; printf "%-34s %10.2f %10.0f %12.0f %12.0f %8.2f\n",
	"throughput (64 ranks, 400 steps)", t, rss / 1024, ts, e / t, 2 * ts / 5e6 }'
echo "  (ratio = task events per second, 2 per task, over the 5e6/s goal)"

set -- $(measure r512 --preset reference --set ranks=512 -q --no-logs --no-trace)
t0=$1 m0=$2 c0=$3
set -- $(measure r4096 --preset reference --set ranks=4096 -q --no-logs --no-trace)
t1=$1 m1=$2 c1=$3
awk -v t0="$t0" -v m0="$m0" -v t1="$t1" -v m1="$m1" 'BEGIN {
	printf "%-34s %10.2f %10.0f %12s %12s %8s\n", "reference, 512 ranks (baseline)", t0, m0 / 1024, "-", "-", "1.00"
	printf "%-34s %10.2f %10.0f %12s %12s %8.2f\n", "reference, 4096 ranks", t1, m1 / 1024, "-", "-", (t1 / 8) / (t0 > 0 ? t0 : 0.01)
}'
echo "  (ratio = time per rank at 4096 over time per rank at 512; 1.0 is linear; goal: 4096 ranks under 10 s)"
set -- $(measure r4096logs --preset reference --set ranks=4096 -q -o "$out/r4096")
rm -rf "$out/r4096"
awk -v t="$1" -v m="$2" 'BEGIN { printf "%-34s %10.2f %10.0f\n", "reference, 4096 ranks, with all logs", t, m / 1024 }'

# rates and ratios on CPU time (user + system): another job on the
# shared cores stretches the wall time, not the work
echo "limits (docs/PERFORMANCE.md, Simulator; CPU seconds, user + system; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
limit "task events per CPU second (2 a task)" "$(awk -v n="$tasks" -v t="$cpu" 'BEGIN { if (t > 0) printf "%.0f", 2 * n / t }')" ">=" 5000000
limit "reference, 4096 ranks to the first error, seconds" "$t1" "<" 10
limit "CPU time per rank, 4096 over 512 ranks (linear)" "$(awk -v t0="$c0" -v t1="$c1" 'BEGIN { printf "%.2f", (t1 / 8) / (t0 > 0 ? t0 : 0.01) }')" "<=" 1.5
limit "peak memory, 4096 over 512 ranks (8x the ranks, linear)" "$(awk -v m0="$m0" -v m1="$m1" 'BEGIN { if (m0 > 0) printf "%.2f", m1 / m0 }')" "<=" 10
limits_done
