#!/bin/sh
# t45-first-failure.sh - the first failure shown when wait timeouts come
# less than HX_TIE_US (1 ms) apart: the rank-death preset, whose survivors
# time out within a millisecond of each other, shows the timeout of the
# rank that waited on the dead rank, as truth.json's first error is.
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
t_done
