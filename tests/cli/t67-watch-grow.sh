#!/bin/sh
# t67-watch-grow.sh - what watch says of a job as its logs grow
# (tests/watchgrow.py): each hang scenario's first deadlock or failure
# event gives the finished logs' category and roots (a deadlock not before
# the cycle closed); jobs that complete
# (healthy, a slow rank, a 10-minute checkpoint pause, a healthy day of
# 40-80 s steps with every AICPU core waiting each step) give no deadlock
# or failure event, but for the day's first long wait; a link error that
# op retry recovers is a failure event and, finished, no hang.  Each cut is
# also split over two nodes (even and odd ranks), each node's watch writing
# its facts, and decided from the facts alone: the look at the whole cut's
# events (--nodes).
. tests/cli/lib.sh

all="reference reference-r8-roots-3-5 rank-death link-error mismatch clock-skew
notify-cycle healthy slow-rank reference-safe training-hang grant-order duration-race
link-error-retry checkpoint-pause healthy-day"
# under the sanitizers (make asan) two cases: the suite's time
only=""
[ -z "$HANGDX_SANITIZED" ] || only="reference checkpoint-pause"
python3 tests/watchgrow.py "$HANGDX" "$T/grow" --nodes $only > "$T/grow.tap" 2>&1
echo $? > "$T/grow.rc"
sed 's/^/# /' "$T/grow.tap"
n=0
for name in $all; do
	if [ -n "$only" ] && ! echo " $only " | grep -q " $name "; then
		t_skip "$name" "under the sanitizers only: $only"
		continue
	fi
	n=$((n + 1))
	t_ok "$name" grep -q "^ok [0-9]* - $name\$" "$T/grow.tap"
done
t_ok "watchgrow.py ran every case asked (exit $(cat "$T/grow.rc"))" \
	sh -c "test $(cat "$T/grow.rc") = 0 && grep -q '^1\.\.$n\$' '$T/grow.tap'"
t_done
