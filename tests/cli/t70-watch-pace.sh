#!/bin/sh
# t70-watch-pace.sh - how often watch decides (cli/follow.c, --cpu): a
# change is decided when the last decision's CPU time is --cpu of the
# time since, at once when a line a file gained is an error line
# (hangdx_line_alarm), but not twice in a row early; the bytes a file
# gained are read from where the last look stopped, by inode, so a plog
# renamed by rotation is not read again, and one truncated or new is read
# from its start; inotify wakes a look long before the period, --poll not;
# --max-records is the ceiling each decision reads under.  What was
# decided is seen in the --prom textfile's
# hangdx_log_time_seconds: the newest log time the last decision read.
. tests/cli/lib.sh

cd "$T" || exit 1
"$HANGDX" simulate --preset healthy --no-trace -o ok > /dev/null 2>&1
SRC=ok/rank-0/ascend/log/debug/plog/plog-100003_20261101070000000.log
# an INFO line the reader keeps (a communicator's creation), at second S
info() { sed -n 1p "$SRC" | sed "s/07:00:00.000.000/07:00:$1.000.000/"; }
error() {
	echo "[ERROR] HCCL(100003,python3):2026-11-01-07:00:$1.000.000 [transport_base.cc:120] [100003][Wait][Notify] wait notify failed, ret[9]"
}
fresh() {       # DIR: a job 0.01 s in
	rm -rf "$1"
	mkdir -p "$1/plog"
	head -3 "$SRC" > "$1/plog/plog-100003_1.log"
}
logtime() {     # PROM: the log second of the last decision, - none
	sed -n 's/^hangdx_log_time_seconds 17935164\([0-9][0-9]\)\..*/\1/p' "$1" 2> /dev/null | grep . || echo -
}
await() {       # PROM SECOND: until the last decision read SECOND (20 s at most)
	_i=0
	while [ "$(logtime "$1")" != "$2" ] && [ $_i -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	logtime "$1"
}
start() {       # NAME DIR CPU: a watcher looking every 0.1 s, after its
	"$HANGDX" watch -i 0.1 --cpu "$3" --for 60 --prom "$1.prom" "$2" \
		> "$1.out" 2> "$1.err" &       # first decision (30 s at most)
	echo $! > "$1.pid"
	_i=0
	while [ ! -s "$1.prom" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
stop() { kill "$(cat "$1.pid")" 2> /dev/null; wait "$(cat "$1.pid")" 2> /dev/null; }

if t_wrapped; then
	t_skip_from "under $HANGDX_WRAP a look every 0.1 s is not kept"
fi
if ! t_skipping; then
	# --cpu 0.01: after its first decision, the next waits 10,000 times
	# that decision's CPU time (minutes)
	fresh a
	start a a 0.01
	info 09 >> a/plog/plog-100003_1.log
	sleep 1.5
	logtime a.prom > a.held
	error 20 >> a/plog/plog-100003_1.log
	await a.prom 20 > a.alarm
	error 30 >> a/plog/plog-100003_1.log
	sleep 1.5
	logtime a.prom > a.second
	stop a

	# --cpu 0: every change is decided
	fresh b
	start b b 0
	info 09 >> b/plog/plog-100003_1.log
	await b.prom 09 > b.info
	stop b

	# rotation: a file with an error line renamed, then an INFO line added
	# to it; truncation and a new file: read from their start
	fresh c
	error 05 >> c/plog/plog-100003_1.log
	start c c 0.01
	await c.prom 05 > /dev/null
	mv c/plog/plog-100003_1.log c/plog/plog-100003_0.log
	info 09 >> c/plog/plog-100003_0.log
	sleep 1.5
	logtime c.prom > c.rotated
	stop c
	start d c 0.01
	await d.prom 09 > /dev/null
	{ error 40; info 41; } > two.tmp        # one write: a look between two
	cat two.tmp > c/plog/plog-100003_0.log  # writes would decide the first
	await d.prom 41 > d.truncated
	stop d
	start e c 0.01
	await e.prom 41 > /dev/null
	{ error 50; info 51; } > two.tmp
	mv two.tmp c/plog/plog-100003_2.log     # whole, by rename
	await e.prom 51 > e.new
	stop e

	# inotify: a look every 60 s, but a change is looked at once; --poll
	# waits for the period
	for m in ino poll; do
		fresh $m
		opt=; [ $m = poll ] && opt=--poll
		"$HANGDX" watch -i 60 $opt --for 100 --prom $m.prom $m \
			> $m.out 2> $m.err &
		echo $! > $m.pid
		_i=0
		while [ ! -s $m.prom ] && [ $_i -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
		sleep 0.5
		error 20 >> $m/plog/plog-100003_1.log
		if [ $m = ino ]; then await $m.prom 20 > $m.seen; else sleep 3; logtime $m.prom > $m.seen; fi
		stop $m
	done
fi
t_ok "a change within the budget is not decided yet (--cpu 0.01)" \
	test "$(cat a.held)" = 00
t_ok "... an error line is decided at once" test "$(cat a.alarm)" = 20
t_ok "... but not a second one early" test "$(cat a.second)" = 20
t_ok "--cpu 0: an INFO line is decided" test "$(cat b.info)" = 09
t_ok "a plog renamed by rotation is not read again for its old error line" \
	test "$(cat c.rotated)" = 05
t_ok "a file truncated and written again is read from its start" \
	test "$(cat d.truncated)" = 41
t_ok "a new file's error line is decided at once" test "$(cat e.new)" = 51
if [ -d /proc/sys/fs/inotify ]; then
	t_ok "inotify: an error line looked at long before the 60 s period" \
		test "$(cat ino.seen)" = 20
else
	t_skip "inotify: an error line looked at before the period" "no inotify here"
fi
t_ok "--poll: not before the period" test "$(cat poll.seen)" = 00
t_ok "... and no note about inotify" test ! -s ino.err
t_skip_end

# an event's log time is the newest of every record, a rank's or not: a
# console line no rank owns has one too
mkdir -p lone
error 33 > lone/console.log
"$HANGDX" watch --json --for 0 lone > lone.jsonl 2> /dev/null
t_ok "an event's log time counts records no rank owns" \
	grep -q '"log_time":"2026-11-01T07:00:33.000000"' lone.jsonl

# --max-records: the record ceiling of each decision, as diagnose's: the
# healthy job cut at 5 records is not determined, as diagnose says it
# (watch: exit 5, the job may go on; diagnose: exit 1, no end in the
# logs, so a hang not ruled out), where whole it is no hang (exit 0)
"$HANGDX" watch --for 0 --max-records 5 ok > cut.out 2> cut.err
echo $? > cut.rc
"$HANGDX" diagnose --max-records 5 ok > /dev/null 2>&1
echo $? > cut.diag
t_ok "watch --max-records 5: the ceiling each decision reads under" \
	grep -q 'record limit (5) reached' cut.err
t_ok "... and its decision is the cut diagnosis's (exit $(cat cut.diag))" \
	sh -c 'test "$(cat cut.rc)" = 5 && test "$(cat cut.diag)" = 1'
t_exit 0 "... where the whole logs are no hang" "$HANGDX" watch --for 0 ok
t_exit 2 "--max-records takes 1 to 2147483648" "$HANGDX" watch --max-records 0 --for 0 ok
t_exit 2 "... a whole number" "$HANGDX" watch --max-records 1.5 --for 0 ok

t_exit 2 "--cpu takes 0 to 100" "$HANGDX" watch --cpu 101 --for 0 ok
t_exit 2 "... a number" "$HANGDX" watch --cpu some --for 0 ok
t_done
