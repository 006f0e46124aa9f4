#!/bin/sh
# bench/watch.sh - the cost of `hangdx watch`: following 8 ranks' logs
# that grow at 1 MB/s in all (a writer appends whole lines of a simulated
# 8-rank job at debug level, at that rate) for BENCH_WATCH_S seconds
# (default 60), and the same directory left idle as long (less the cost
# of its first look, measured apart): CPU as a share of one core, peak
# memory.  The default watch (decisions paced to --cpu 3) beside one
# that decides every change (--cpu 0, as watch did before the budget),
# following the same files at once.  Baseline, measured in the same run:
# one `hangdx diagnose` of the grown logs (what each decision redoes, as
# reading is not incremental).  Then the wall time from a first error
# line, written at speed 1 by hangdx replay, to watch's event.
. bench/lib.sh
out=${BENCH_OUT:-bench/out}/watch
secs=${BENCH_WATCH_S:-60}
rate=${BENCH_WATCH_RATE:-1000000}
HANGDX=${HANGDX:-./hangdx}
rm -rf "$out"
mkdir -p "$out"
"$HANGDX" simulate -q --no-trace --preset training-hang --set ranks=8 \
	--set log_level=debug -o "$out/src" > /dev/null 2>&1
rm -f "$out/src/truth.json" "$out/src/waitgraph.dot"
mkdir -p "$out/live"

python3 - "$out/src" "$out/live" "$rate" "$secs" <<'EOF' &
import os, sys, time
src, dst, rate, secs = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
files = []
for d, _, fs in os.walk(src):
    for f in sorted(fs):
        p = os.path.join(d, f)
        q = os.path.join(dst, os.path.relpath(p, src))
        os.makedirs(os.path.dirname(q), exist_ok=True)
        files.append((open(p, "rb").read().splitlines(True), open(q, "ab")))
start, done, i = time.monotonic(), 0, 0
while time.monotonic() - start < secs:
    due = (time.monotonic() - start) * rate
    while done < due:
        lines, fp = files[i % len(files)]
        line = lines[(i // len(files)) % len(lines)]
        fp.write(line)
        done += len(line)
        i += 1
    for _, fp in files:
        fp.flush()
    time.sleep(0.05)
print("%d" % done, file=open(os.path.join(dst, "..", "written"), "w"))
EOF
writer=$!
/usr/bin/time -f "%U %S %M" -o "$out/every.time" \
	"$HANGDX" watch -i 5 --cpu 0 --for "$secs" "$out/live" > /dev/null 2> /dev/null &
every=$!
/usr/bin/time -f "%U %S %M" -o "$out/grow.time" \
	"$HANGDX" watch -i 5 --for "$secs" "$out/live" > "$out/grow.events" 2> /dev/null
wait $writer
wait $every
/usr/bin/time -f "%U %S %M" -o "$out/idle.time" \
	"$HANGDX" watch -i 5 --for "$secs" "$out/live" > /dev/null 2> /dev/null
/usr/bin/time -f "%U %S %M" -o "$out/once.time" \
	"$HANGDX" watch --for 0 "$out/live" > /dev/null 2> /dev/null
/usr/bin/time -f "%U %S %M" -o "$out/base.time" \
	"$HANGDX" diagnose "$out/live" > /dev/null 2> /dev/null

# the last line of time's output ("Command exited with non-zero status"
# may come first: a watch that saw a hang exits 1)
# the time from a first error line to its event, at speed 1: the
# link-error preset replayed as it ran (its first error 1.0 s in), watch
# looking every I seconds; the wall time from the replay's start to the
# watch's exit, less the error's log time
latency() {
	rm -rf "$out/le" "$out/le-live"
	"$HANGDX" simulate -q --no-trace --preset link-error -o "$out/le" > /dev/null 2>&1
	fe=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["first_error"]["time_s"])' "$out/le/truth.json")
	rm -f "$out/le/truth.json" "$out/le/waitgraph.dot"
	t0=$(date +%s.%N)
	"$HANGDX" replay --speed 1 "$out/le" "$out/le-live" > /dev/null 2>&1 &
	rp=$!
	sleep 0.3       # DST made, so that inotify has it to watch
	"$HANGDX" watch -i "$1" --exit-on-hang --for 60 "$out/le-live" > /dev/null 2>&1
	t1=$(date +%s.%N)
	kill $rp 2> /dev/null
	wait $rp 2> /dev/null
	awk -v a="$t0" -v b="$t1" -v e="$fe" 'BEGIN { printf "%.2f", b - a - e }'
}
lat1=$(latency 1)
lat5=$(latency 5)

cpu() { awk -v s="$secs" 'END { printf "%.2f", ($1 + $2) / s * 100 }' "$1"; }
rss() { awk 'END { printf "%.0f", $3 / 1024 }' "$1"; }
cs() { awk 'END { printf "%.2f", $1 + $2 }' "$1"; }
mb=$(awk '{ printf "%.1f", $1 / 1e6 }' "$out/written")
grow=$(cpu "$out/grow.time")
# idle: the looks that found nothing changed, without the first look's
# reading (measured apart as one look, --for 0)
idle=$(awk -v a="$(cs "$out/idle.time")" -v b="$(cs "$out/once.time")" -v s="$secs" \
	'BEGIN { v = (a - b) / s * 100; printf "%.2f", (v < 0 ? 0 : v) }')
ratio=$(awk -v a="$(cs "$out/grow.time")" -v b="$(cs "$out/base.time")" \
	'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
printf '%-34s %12s %10s %12s\n' "case ($secs s, -i 5)" "CPU % core" "peak MB" "CPU s"
printf '%-34s %12s %10s %12s\n' "growing ($mb MB written)" "$grow" "$(rss "$out/grow.time")" "$(cs "$out/grow.time")"
printf '%-34s %12s %10s %12s\n' "growing, every change (--cpu 0)" "$(cpu "$out/every.time")" "$(rss "$out/every.time")" "$(cs "$out/every.time")"
printf '%-34s %12s %10s %12s\n' "idle (first look apart)" "$idle" "$(rss "$out/idle.time")" "$(cs "$out/idle.time")"
printf '%-34s %12s %10s %12s\n' "one look (--for 0)" "-" "$(rss "$out/once.time")" "$(cs "$out/once.time")"
printf '%-34s %12s %10s %12s\n' "baseline: one diagnose of the end" "-" "$(rss "$out/base.time")" "$(cs "$out/base.time")"
printf '%-34s %12s\n' "growing / baseline (CPU)" "$ratio"
printf '%-34s %12s\n' "error line to event, -i 1 (s)" "$lat1"
printf '%-34s %12s\n' "error line to event, -i 5 (s)" "$lat5"
limit "growing: CPU share of one core (%)" "$grow" "<" 5
limit "growing: peak memory (MB)" "$(rss "$out/grow.time")" "<" 100
limit "idle: CPU share of one core (%)" "$idle" "<" 0.5
limit "first error line to its event at speed 1, -i 1 (s)" "$lat1" "<" 5
limits_done
