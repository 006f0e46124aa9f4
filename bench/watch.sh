#!/bin/sh
# bench/watch.sh - the cost of `hangdx watch`: following 8 ranks' logs
# that grow at 1 MB/s in all for BENCH_WATCH_S seconds (default 60), and
# the same directory left idle as long (less the cost of its first look,
# measured apart): CPU as a share of one core, peak memory.  The logs are
# a job's own: bench/watch-job.yaml (8 ranks training at debug level, as
# many steps as the time needs) simulated, then written line by line in
# the order of their log time, at that rate, each line once.  The default
# watch (decisions paced to --cpu 3) beside one that decides every change
# (--cpu 0, as watch did before the budget), following the same files at
# once; and, as a stress case with no limit, a default watch of the
# training-hang job's lines written over and over (each file's next line
# in turn, from its first again when it ends: communicator creation and
# every kernel's first line make a new record each time).  Baseline,
# measured in the same run: one `hangdx diagnose` of the grown logs (what
# a decision would cost if it read every file again).  Then the wall
# time from a first error line, written at speed 1 by hangdx replay, to
# watch's event.  And a console log of 256 MB that grows a line at a
# time, every change decided: a decision reads what the file gained.
. bench/lib.sh
out=${BENCH_OUT:-bench/out}/watch
secs=${BENCH_WATCH_S:-60}
rate=${BENCH_WATCH_RATE:-1000000}
rotate=${BENCH_WATCH_ROTATE:-20000000}   # CANN's plog and device log size
HANGDX=${HANGDX:-./hangdx}
rm -rf "$out"
mkdir -p "$out/live" "$out/cycle"
# about 52 KB of logs a step for 8 ranks at debug level: steps to spare
steps=$(awk -v r="$rate" -v s="$secs" 'BEGIN { printf "%d", r * s / 45000 + 50 }')
sed "s/count: 2000/count: $steps/" bench/watch-job.yaml > "$out/job.yaml"
"$HANGDX" simulate -q --no-trace --set ranks=8 --set log_level=debug \
	-o "$out/src" "$out/job.yaml" > /dev/null 2>&1
"$HANGDX" simulate -q --no-trace --preset training-hang --set ranks=8 \
	--set log_level=debug -o "$out/hang" > /dev/null 2>&1
rm -f "$out/src/truth.json" "$out/hang/truth.json" "$out/hang/waitgraph.dot"

# writer.py MODE SRC DST RATE SECS.  order: every line once, in log-time
# order (the prefix's time; a line without one goes with the line before
# it); cycle: each file's next line in turn, from its first again when it
# ends.  Writes DST/../MODE.written: the bytes written.
cat > "$out/writer.py" <<'PY'
import heapq, os, re, sys, time
mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
rate, secs, rot = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
stamp = re.compile(rb"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3}")
named = re.compile(r"^((?:plog|device)-\d+_)\d{17}(\.log)$")
outs, paths, names, sizes = [], [], [], []
for d, _, fs in os.walk(src):
    for f in sorted(fs):
        p = os.path.join(d, f)
        q = os.path.join(dst, os.path.relpath(p, src))
        os.makedirs(os.path.dirname(q), exist_ok=True)
        paths.append(p)
        names.append(q)
        sizes.append(0)
        outs.append(open(q, "ab"))
# CANN's rotation (ASCEND_HOST_LOG_FILE_NUM): a plog-PID_*.log or
# device-PID_*.log past ROT bytes (20 MB, fixed) is left as it is and the
# process goes on in a new file named by the time of its first line
def rotate(i, when):
    m = named.match(os.path.basename(names[i]))
    if rot <= 0 or not m or not when:
        return
    t = re.sub(rb"\D", b"", when).decode()[:17]  # YYYYMMDDhhmmssmmm
    q = os.path.join(os.path.dirname(names[i]), m.group(1) + t + m.group(2))
    if q == names[i] or os.path.exists(q):
        return
    outs[i].close()
    names[i], sizes[i] = q, 0
    outs[i] = open(q, "ab")
def timed(i):
    last = b""
    with open(paths[i], "rb") as fp:
        for n, line in enumerate(fp):
            m = stamp.search(line, 0, 96)
            if m:
                last = m.group(0)
            yield (last, i, n, line)
def cycled():
    lines = [open(p, "rb").read().splitlines(True) for p in paths]
    i = 0
    while True:
        k = i % len(paths)
        if lines[k]:
            yield (b"", k, 0, lines[k][(i // len(paths)) % len(lines[k])])
        i += 1
if mode == "order":
    lines = heapq.merge(*[timed(i) for i in range(len(paths))])
else:
    lines = cycled()
start, done = time.monotonic(), 0
for when, i, _, line in lines:
    if mode == "order" and sizes[i] + len(line) > rot:
        rotate(i, when)
    while done >= (time.monotonic() - start) * rate:
        for fp in outs:
            fp.flush()
        if time.monotonic() - start >= secs:
            break
        time.sleep(0.05)
    if time.monotonic() - start >= secs:
        break
    outs[i].write(line)
    sizes[i] += len(line)
    done += len(line)
for fp in outs:
    fp.flush()
with open(os.path.join(dst, "..", mode + ".written"), "w") as fp:
    print("%d" % done, file=fp)
PY
python3 "$out/writer.py" order "$out/src" "$out/live" "$rate" "$secs" "$rotate" &
writer=$!
python3 "$out/writer.py" cycle "$out/hang" "$out/cycle" "$rate" "$secs" 0 &
cycler=$!
/usr/bin/time -f "%U %S %M" -o "$out/every.time" \
	"$HANGDX" watch -i 5 --cpu 0 --for "$secs" "$out/live" > /dev/null 2> /dev/null &
every=$!
/usr/bin/time -f "%U %S %M" -o "$out/cycle.time" \
	"$HANGDX" watch -i 5 --for "$secs" "$out/cycle" > /dev/null 2> /dev/null &
stress=$!
/usr/bin/time -f "%U %S %M" -o "$out/grow.time" \
	"$HANGDX" watch -i 5 --for "$secs" "$out/live" > "$out/grow.events" 2> /dev/null
wait $writer
wait $cycler
wait $every
wait $stress
/usr/bin/time -f "%U %S %M" -o "$out/idle.time" \
	"$HANGDX" watch -i 5 --for "$secs" "$out/live" > /dev/null 2> /dev/null
/usr/bin/time -f "%U %S %M" -o "$out/once.time" \
	"$HANGDX" watch --for 0 "$out/live" > /dev/null 2> /dev/null
/usr/bin/time -f "%U %S %M" -o "$out/base.time" \
	"$HANGDX" diagnose "$out/live" > /dev/null 2> /dev/null

# a console log already large (BENCH_WATCH_CONSOLE_MB, default 256 MB of a
# trainer's progress lines) that gains a line every 0.2 s, every change
# decided (--cpu 0, -i 1): a decision reads what the file gained, not the
# file; its first look (the whole file) measured apart
cbig=${BENCH_WATCH_CONSOLE_MB:-256}
mkdir -p "$out/console"
python3 - "$out/console/console.log" "$cbig" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
line = ("2026-12-06 10:%02d:%02d,123 - INFO - trainer.py:412 - step %d/500000 "
        "loss=%.4f lr=1.0e-05 grad_norm=0.87 tokens/s=41234\n")
with open(path, "w") as f:
    n = size = 0
    while size < mb << 20:
        s = line % ((n // 60) % 60, n % 60, n, 2.0 / (1 + n * 1e-4))
        f.write(s)
        size += len(s)
        n += 1
PY
/usr/bin/time -f "%U %S %M" -o "$out/console-once.time" \
	"$HANGDX" watch --for 0 "$out/console" > /dev/null 2> /dev/null
/usr/bin/time -f "%U %S %M" -o "$out/console.time" \
	"$HANGDX" watch -i 1 --cpu 0 --for "$secs" "$out/console" > /dev/null 2> /dev/null &
cwatch=$!
python3 - "$out/console/console.log" "$secs" <<'PY'
import sys, time
path, secs = sys.argv[1], float(sys.argv[2])
start, n = time.monotonic(), 0
while time.monotonic() - start < secs - 2:
    with open(path, "a") as f:
        f.write("2026-12-06 11:00:00,000 - INFO - trainer.py:412 - step %d/500000 "
                "loss=1.0000 lr=1.0e-05 grad_norm=0.87 tokens/s=41234\n" % n)
    n += 1
    time.sleep(0.2)
PY
wait $cwatch

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
mb=$(awk '{ printf "%.1f", $1 / 1e6 }' "$out/order.written")
cmb=$(awk '{ printf "%.1f", $1 / 1e6 }' "$out/cycle.written")
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
printf '%-34s %12s %10s %12s\n' "stress: lines again ($cmb MB)" "$(cpu "$out/cycle.time")" "$(rss "$out/cycle.time")" "$(cs "$out/cycle.time")"
printf '%-34s %12s %10s %12s\n' "idle (first look apart)" "$idle" "$(rss "$out/idle.time")" "$(cs "$out/idle.time")"
printf '%-34s %12s %10s %12s\n' "one look (--for 0)" "-" "$(rss "$out/once.time")" "$(cs "$out/once.time")"
printf '%-34s %12s %10s %12s\n' "baseline: one diagnose of the end" "-" "$(rss "$out/base.time")" "$(cs "$out/base.time")"
cgrow=$(awk -v a="$(cs "$out/console.time")" -v b="$(cs "$out/console-once.time")" -v s="$secs" \
	'BEGIN { v = (a - b) / s * 100; printf "%.2f", (v < 0 ? 0 : v) }')
printf '%-34s %12s %10s %12s\n' "console $cbig MB + a line/0.2 s, --cpu 0" "$cgrow" "$(rss "$out/console.time")" "$(cs "$out/console.time")"
printf '%-34s %12s %10s %12s\n' "  its first look (the whole file)" "-" "$(rss "$out/console-once.time")" "$(cs "$out/console-once.time")"
printf '%-34s %12s\n' "growing / baseline (CPU)" "$ratio"
printf '%-34s %12s\n' "error line to event, -i 1 (s)" "$lat1"
printf '%-34s %12s\n' "error line to event, -i 5 (s)" "$lat5"
# the job trains and does not hang: no deadlock or failure event
limit "growing: deadlock or failure events on the healthy job" \
	"$(grep -c -E '^[^ ]+ (deadlock|failure):' "$out/grow.events")" "<=" 0
limit "growing: CPU share of one core (%)" "$grow" "<" 5
limit "growing: peak memory (MB)" "$(rss "$out/grow.time")" "<" 100
limit "idle: CPU share of one core (%)" "$idle" "<" 0.5
limit "a large console log that grows, every change decided: CPU share of one core (%)" "$cgrow" "<" 5
limit "first error line to its event at speed 1, -i 1 (s)" "$lat1" "<" 5
limits_done
