#!/bin/sh
# t45-first-failure.sh - the first failure shown when wait timeouts come
# less than HX_TIE_US (1 ms) apart: the rank-death preset, whose survivors
# time out within a millisecond of each other, shows the timeout of the
# rank that waited on the dead rank, as truth.json's first error is; from
# facts, the dead rank's time is its last line, its logs in two files.
. tests/cli/lib.sh

$HANGDX simulate -q --no-trace --preset rank-death -o "$T/rd" > /dev/null 2>&1
$HANGDX diagnose --json "$T/rd" > "$T/rd.json" 2> /dev/null
t_ok "rank-death: truth's first timeouts tie within 1 ms, the first waits on the dead rank" python3 -c "
import json; t = json.load(open('$T/rd/truth.json'))
dead = [f['rank'] for f in t['faults'] if f['kind'] == 'rank_death']
e = sorted((x for x in t['errors'] if x['kind'] == 'EI0002'), key=lambda x: x['time_s'])
assert len(e) >= 2 and e[1]['time_s'] - e[0]['time_s'] < 0.001, e
assert e[0]['peer'] in dead and e[1].get('peer') not in dead, (e, dead)
assert t['first_error']['rank'] == e[0]['rank'], t['first_error']"
t_ok "rank-death: the first failure shown is truth's first error, on the rank waiting for the dead one" \
	python3 -c "
import json
t = json.load(open('$T/rd/truth.json')); d = json.load(open('$T/rd.json'))
ff = d['first_failure']
assert ff['rank'] == t['first_error']['rank'], (ff, t['first_error'])
assert ff['task_id'] == t['first_error']['task']['task_id'], (ff, t['first_error'])
assert d['first_failing_rank'] in [f['rank'] for f in t['faults']], d['first_failing_rank']"
# the dead rank failed first, at its last log line: from facts, its device
# logs and its plogs in two files (either first), the latest of the two
ts() { # the latest timestamp of the CANN lines under $1, as diagnose prints it
	grep -rhoE '^\[[A-Z]+\] [A-Z_]+\([0-9]+,[^)]*\):[0-9-]+:[0-9:.]+' "$1" |
		sed -E 's/.*\):([0-9]{4}-[0-9]{2}-[0-9]{2})-([0-9:]+)\.([0-9]{3})\.([0-9]{3})$/\1T\2.\3\4/' |
		sort | tail -1
}
want=$(ts "$T/rd/rank-2")
for r in 0 1 3; do
	$HANGDX facts "$T/rd/rank-$r" -o "$T/r$r.facts" > /dev/null 2>&1
done
$HANGDX facts "$T/rd/rank-2/ascend/log/debug/device-2" "$T/rd/rank-2/ascend/log/run/device-2" \
	-o "$T/dev2.facts" > /dev/null 2>&1
$HANGDX facts "$T/rd/rank-2/ascend/log/debug/plog" "$T/rd/rank-2/ascend/log/run/plog" \
	-o "$T/plog2.facts" > /dev/null 2>&1
mv "$T/rd" "$T/rd-away"
for order in "dev2 plog2" "plog2 dev2"; do
	set -- $order
	$HANGDX diagnose --json --facts "$T/r0.facts" --facts "$T/r1.facts" \
		--facts "$T/$1.facts" --facts "$T/$2.facts" --facts "$T/r3.facts" \
		> "$T/f.json" 2> /dev/null
	t_ok "from facts ($order): the dead rank first, at its last line ($want)" python3 -c "
import json; d = json.load(open('$T/f.json'))
assert '$want' and d['first_failing_rank'] == 2, d['first_failing_rank']
assert d['first_error_time'] == '$want', (d['first_error_time'], '$want')"
done
mv "$T/rd-away" "$T/rd"
t_done
