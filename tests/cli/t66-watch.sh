#!/bin/sh
# t66-watch.sh - hangdx watch on a job replayed as it ran (hangdx replay):
# the reference incident's deadlock event comes a minute after the cycle
# closed (truth.json block_time_s), half an hour before HCCL_EXEC_TIMEOUT,
# with the roots and category diagnose gives on the finished bundle;
# --on-hang runs once, --prom writes a textfile; a healthy job gives no
# event; a finished bundle gives diagnose's own answer.
. tests/cli/lib.sh

cd "$T" || exit 1
jget() {        # FILE KEY [LINE]: a field of a JSON (Lines) file
	python3 -c '
import json, sys
text = open(sys.argv[1]).read()
try:
    docs = [json.loads(text)]
except ValueError:
    docs = [json.loads(l) for l in text.splitlines() if l.strip()]
print(json.dumps(docs[int(sys.argv[3]) if len(sys.argv) > 3 else 0][sys.argv[2]]))' "$@"
}
"$HANGDX" simulate --preset reference --no-trace -o ref > /dev/null 2>&1
mv ref/truth.json ref.truth.json
rm -f ref/waitgraph.dot
"$HANGDX" diagnose --json ref > ref.json 2> /dev/null

# a finished bundle: one decision, diagnose's answer
"$HANGDX" watch --json --for 0 ref > done.jsonl 2> /dev/null
t_ok "a finished bundle: one event, diagnose's category" \
	test "$(jget done.jsonl category)" = "$(jget ref.json category)"
t_ok "... its roots and proof" \
	test "$(jget done.jsonl roots)/$(jget done.jsonl proven)" = "$(jget ref.json roots)/$(jget ref.json proven)"
t_ok "... as a deadlock event" test "$(jget done.jsonl event)" = '"deadlock"'
# logs past --batch are read a batch of rank directories at a time into
# facts (memory: one batch and the facts): the same event, said the same
"$HANGDX" watch --json --for 0 --batch 100K ref > batch.jsonl 2> /dev/null
t_ok "read in batches: the same event" sh -c \
	'sed "s/\"wall_time\":\"[^\"]*\"//" "$1" > a && sed "s/\"wall_time\":\"[^\"]*\"//" "$2" > b && test -s a && cmp -s a b' \
	_ done.jsonl batch.jsonl
t_exit 2 "--batch takes a size" "$HANGDX" watch --for 0 --batch lots ref

if t_wrapped; then
	t_skip_from "under $HANGDX_WRAP the pace of a replay is not kept"
fi
# the job as it ran, at 50 times real time: the status lines at 30 s and
# 60 s are 0.6 s of wall time apart, the next at 90 s another 0.6 s.
# --cpu 0: the budget is a share of real time, and a replay 50 times as
# fast makes each decision 50 times as costly against the job's pace
if ! t_skipping; then
	"$HANGDX" replay --speed 50 ref live > /dev/null 2>&1 &
	rp=$!
	sleep 0.1
	"$HANGDX" watch --json -i 0.05 --cpu 0 --exit-on-hang --for 60 \
		--on-hang 'echo "$HANGDX_EVENT $HANGDX_CATEGORY $HANGDX_ROOTS" >> hook.txt' \
		--prom live.prom live > live.jsonl 2> live.err
	echo $? > live.rc
	kill $rp 2> /dev/null
	wait $rp 2> /dev/null
	sleep 0.2
fi
t_ok "while it runs: exit 1 at the first hang (--exit-on-hang)" test "$(cat live.rc)" = 1
t_ok "the first event is the deadlock" test "$(jget live.jsonl event)" = '"deadlock"'
t_ok "... with diagnose's category on the finished bundle" \
	test "$(jget live.jsonl category)" = "$(jget ref.json category)"
t_ok "... and its roots" test "$(jget live.jsonl roots)" = "$(jget ref.json roots)"
t_ok "... inferred: no stream dump exists before the timeout" \
	test "$(jget live.jsonl proven)" = false
t_ok "... at most 65 s of log time after the cycle closed (truth.json)" python3 -c '
import datetime, json, sys
ev = json.loads(open("live.jsonl").readline())
truth = json.load(open("ref.truth.json"))
lt = datetime.datetime.fromisoformat(ev["log_time"])
start = datetime.datetime(2026, 11, 1, 7, 0, 0)
after = (lt - start).total_seconds() - truth["block_time_s"]
first_error = truth["first_error"]["time_s"]
print("# deadlock %.1f s after the cycle closed, the first EI0002 at %.0f s" % (after, first_error))
sys.exit(0 if after <= 65 and first_error / max(after, 1) >= 28 else "%.1f s" % after)'
t_ok "--on-hang ran once, with the event in its environment" \
	test "$(cat hook.txt)" = "deadlock aicpu_exhaustion_deadlock 0,1"
t_ok "--prom: the textfile says a deadlock" \
	sh -c 'grep -qx "hangdx_deadlock 1" live.prom && grep -qx "hangdx_hang 1" live.prom'
t_skip_end

# a job 5 s in: nothing decides yet; no event, exit 5, not "no hang"
cp -r ref early
python3 "$ROOT/tests/bundle_edit.py" upto early 5 > /dev/null
t_exit 5 "a job just started: exit 5 (not determined), not 0" \
	"$HANGDX" watch --json --for 0 early
"$HANGDX" watch --json --for 0 early > early.jsonl 2> /dev/null
t_ok "... and no event" test ! -s early.jsonl

# a healthy job paused 10 minutes by a checkpoint on rank 0, while rank
# 1's 14 retry-mode collectives hold every AICPU core and wait on it:
# looked at through the pause, a stall at most, never a deadlock or a
# failure; no hook runs; the finished job no hang
"$HANGDX" simulate --no-trace "$ROOT/tests/scenarios/checkpoint-pause.yaml" -o ck > /dev/null 2>&1
rm -f ck/truth.json ck/waitgraph.dot
: > ck.events
for s in 65 120 300 590; do
	cp -r ck ck$s
	python3 "$ROOT/tests/bundle_edit.py" upto ck$s $s > /dev/null
	"$HANGDX" watch --json --for 0 --on-hang 'touch hooked' ck$s >> ck.events 2> /dev/null
	echo $? >> ck.rc
done
t_ok "a checkpoint pause looked at 65 to 590 s in: no deadlock, no failure" \
	sh -c '! grep -q "\"event\":\"\(deadlock\|failure\)\"" ck.events'
t_ok "... a stall once the collectives wait a minute" grep -q '"event":"stall"' ck.events
t_ok "... exit 5 each time (a stall or not determined), never 1 or 0" \
	test "$(sort -u ck.rc | tr '\n' ' ')" = "5 "
t_ok "... no hook ran" test ! -e hooked
t_exit 0 "... and the finished job is no hang" "$HANGDX" watch --json --for 0 ck

# logs that change under the watcher (looks every 0.1 s; each step given
# a second): a job whose files appear late; a device run log rotated (the
# first 40 s in the old file, the rest in a new one); a run log truncated
# and written again (copytruncate)
cp -r ref r65
python3 "$ROOT/tests/bundle_edit.py" upto r65 65 > /dev/null
if t_wrapped; then
	t_skip_from "under $HANGDX_WRAP a look every 0.1 s is not kept"
fi
await_events() {       # FILE N: until FILE has N events (30 s at most)
	_i=0
	while [ "$(cat "$1" 2> /dev/null | grep -c .)" -lt "$2" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
if ! t_skipping; then
	mkdir late
	"$HANGDX" watch --json -i 0.1 --for 30 --exit-on-hang late > late.jsonl 2> /dev/null &
	w=$!
	sleep 1
	cp -r r65/. late/
	wait $w

	cp -r r65 rot                   # rank 0's device logs (run and debug)
	for run in rot/rank-0/ascend/log/*/device-0/*.log; do
		python3 - "$run" "rest.$(basename "$(dirname "$(dirname "$run")")")" <<'PY'
import re, sys
p = sys.argv[1]
lines = open(p).read().splitlines(True)
cut = next((i for i, l in enumerate(lines) if re.search(r"07:00:(4\d|5\d)|07:0[1-9]:", l)), len(lines))
open(sys.argv[2], "w").writelines(lines[cut:])
open(p, "w").writelines(lines[:cut])
PY
	done
	"$HANGDX" watch --json -i 0.1 --for 30 rot > rot.jsonl 2> /dev/null &
	w=$!
	await_events rot.jsonl 1
	for run in rot/rank-0/ascend/log/*/device-0/*.log; do
		mv "$run" "$(dirname "$run")/device-100003_20261101065959000.log"
		mv "rest.$(basename "$(dirname "$(dirname "$run")")")" "$run"
	done
	await_events rot.jsonl 2
	kill $w 2> /dev/null
	wait $w

	cp -r r65 trunc
	"$HANGDX" watch --json -i 0.1 --for 30 trunc > trunc.jsonl 2> /dev/null &
	w=$!
	await_events trunc.jsonl 1
	for run in trunc/rank-0/ascend/log/*/device-0/*.log; do
		cp "$run" "whole.$(basename "$(dirname "$(dirname "$run")")")"
		: > "$run"
	done
	await_events trunc.jsonl 2
	for run in trunc/rank-0/ascend/log/*/device-0/*.log; do
		cat "whole.$(basename "$(dirname "$(dirname "$run")")")" >> "$run"
	done
	await_events trunc.jsonl 3
	kill $w 2> /dev/null
	wait $w
fi
events() { python3 -c 'import json,sys; print(" ".join(json.loads(l)["event"] for l in open(sys.argv[1]) if l.strip()))' "$1"; }
t_ok "late files: the deadlock once the job's files appear" \
	test "$(events late.jsonl)" = deadlock
roots() { python3 -c 'import json,sys; print(" | ".join(str(json.loads(l)["roots"]) for l in open(sys.argv[1]) if l.strip()))' "$1"; }
t_ok "rotation: rank 0 held across its old file and its new one (roots [1], then [0, 1])" \
	test "$(roots rot.jsonl)" = "[1] | [0, 1]"
t_ok "truncation: the deadlock, retracted when the run log empties, again when it is back" \
	test "$(events trunc.jsonl)" = "deadlock resumed deadlock"
t_skip_end

"$HANGDX" simulate --preset healthy --no-trace -o ok > /dev/null 2>&1
rm -f ok/truth.json ok/waitgraph.dot
t_exit 0 "a healthy job: exit 0" "$HANGDX" watch --json --for 0 --prom ok.prom ok
"$HANGDX" watch --json --for 0 ok > ok.jsonl 2> /dev/null
t_ok "... and no event" test ! -s ok.jsonl
t_ok "... the textfile says no hang" grep -qx "hangdx_hang 0" ok.prom

t_exit 2 "no PATH: usage" "$HANGDX" watch --for 0
t_exit 2 "--interval takes a number" "$HANGDX" watch -i soon ref
t_done
