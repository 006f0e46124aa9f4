#!/bin/sh
# t10-simulate.sh - `hangdx simulate` end to end: the reference incident,
# its outputs and their layout, determinism, faults, and bad input.
. tests/cli/lib.sh

json() { # json FILE EXPR: print a Python expression over the parsed file
	python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print($2)" "$1"
}

t_ok "help lists simulate" sh -c "$HANGDX --help | grep -q '^  simulate'"
t_ok "help simulate shows options" sh -c "$HANGDX help simulate | grep -q -- '--preset NAME'"
t_ok "presets listed" sh -c "$HANGDX simulate --list-presets | grep -q '^reference '"
t_exit 2 "no scenario is a usage error" $HANGDX simulate
t_exit 2 "unknown preset" $HANGDX simulate --preset nope
t_exit 2 "bad --set key" $HANGDX simulate --preset reference --set nosuchkey=1

# the reference incident
t_exit 1 "reference hangs (exit 1)" $HANGDX simulate --preset reference -o "$T/ref"
t_ok "truth: deadlock" test "$(json "$T/ref/truth.json" "t['outcome']")" = deadlock
t_ok "truth: AICPU exhaustion" test "$(json "$T/ref/truth.json" "t['root_cause']")" = aicpu_exhaustion_deadlock
t_ok "truth: first error is EI0002 on M_c1" test "$(json "$T/ref/truth.json" "t['first_error']['task']['stream']")" = M_c1
t_ok "truth: first error T_exec after the block" \
	python3 -c "import json; t=json.load(open('$T/ref/truth.json')); d=t['first_error']['time_s']-t['block_time_s']; assert 1835.9 < d < 1836.1, d"
t_ok "truth: cycle holds pool, kernel, H0 wait, event wait, AICPU op" \
	python3 -c "
import json; t=json.load(open('$T/ref/truth.json')); k=[c['node']['kind'] for c in t['cycle']]
assert k == ['AICPU_POOL','KERNEL_HCCL','NOTIFY_WAIT','NOTIFY_RECORD','EVENT_WAIT','EVENT_RECORD','AICPU'], k
assert t['cycle'][0]['node']['busy'] == 6"
t_ok "logs in the real layout" sh -c "ls $T/ref/rank-0/ascend/log/debug/plog/plog-*_*.log && ls $T/ref/rank-1/ascend/log/debug/device-1/device-*_*.log"
t_ok "plog has the EI0002 error" grep -rq "EI0002" "$T/ref/rank-0/ascend/log/debug/plog"
t_ok "plog echoes the retry setting" grep -rq "HCCL_OP_RETRY_ENABLE set by environment variable to \[L0:1,L1:1,L2:0\]" "$T/ref/rank-0/ascend/log/debug/plog"
t_ok "no AICPU dump for an op not activated (M_c parked on H0)" \
	absent 'TaskException\]base information is streamId:6,' $T/ref/rank-0/ascend/log/debug/device-0/*.log

# trace.json: valid, sorted, every flow has both ends
t_ok "trace.json structure" python3 -c "
import json; t=json.load(open('$T/ref/trace.json'))['traceEvents']
ts=[e['ts'] for e in t if e['ph'] in 'Xsfi']
assert ts == sorted(ts), 'not sorted'
s={e['id'] for e in t if e['ph']=='s'}; f={e['id'] for e in t if e['ph']=='f'}
assert s and s == f, 'flows'
assert any(e['ph']=='i' and 'deadlock' in e['name'] for e in t)
assert any(e.get('args',{}).get('name','').startswith('AICPU core') for e in t)"

# the wait-for graph at block time renders with Graphviz, without warnings
t_ok "waitgraph.dot renders cleanly" sh -c "dot -Tsvg $T/ref/waitgraph.dot -o $T/wg.svg 2> $T/dot.err && test ! -s $T/dot.err"
t_ok "waitgraph.dot highlights the cycle" sh -c "grep -c 'color=red' $T/ref/waitgraph.dot | grep -q '^1[0-9]'"
t_ok "waitgraph.dot folds the alike rank" grep -q "and 1 alike ranks" "$T/ref/waitgraph.dot"

# retry off completes, below the limit completes
t_exit 0 "retry off completes" $HANGDX simulate -q --preset reference --set retry=off
t_exit 0 "5 communicators on 6 cores complete" $HANGDX simulate -q --preset reference --set communicators=5
t_exit 1 "6 communicators on 6 cores deadlock" $HANGDX simulate -q --preset reference --set communicators=6
t_exit 1 "4 communicators on 4 cores deadlock" $HANGDX simulate -q --preset reference --set communicators=4 --set cores=4
t_exit 0 "3 communicators on 4 cores complete" $HANGDX simulate -q --preset reference --set communicators=3 --set cores=4

# determinism: same scenario and seed, same bytes
$HANGDX simulate -q --preset rank-death --set grant=random --seed 9 -o "$T/d1" >/dev/null 2>&1
$HANGDX simulate -q --preset rank-death --set grant=random --seed 9 -o "$T/d2" >/dev/null 2>&1
t_ok "same seed, same bytes" diff -r "$T/d1" "$T/d2"

# a dead rank: heartbeat LOST lines, and EI0002 naming the lost rank
t_ok "rank-death: truth says rank 2 lost" test "$(json "$T/d1/truth.json" "t['root_cause']+' '+str(t['root_rank'])")" = "rank_lost 2"
t_ok "rank-death: LOST lines on every other rank" sh -c "
for r in 0 1 3; do grep -rq 'status\[LOST\]' $T/d1/rank-\$r/ascend/log || exit 1; done"
t_ok "rank-death: none in the dead rank's own logs" absent 'status\[LOST\]' "$T/d1/rank-2/ascend/log"
t_ok "rank-death: an EI0002 names remote rank 2" python3 -c "
import json; t=json.load(open('$T/d1/truth.json'))
assert any(e['kind']=='EI0002' and e.get('peer')==2 for e in t['errors']), t['errors']"
t_ok "rank-death: dead rank's log stops at its death" python3 -c "
import glob,re
f=glob.glob('$T/d1/rank-2/ascend/log/debug/plog/*.log')[0]
ts=[l.split(':',1)[1][:19] for l in open(f) if l.startswith('[')]
assert ts and max(ts) < '2026-11-01-07:00:04', max(ts)"

# a mismatched collective times out on every rank
$HANGDX simulate -q --preset mismatch -o "$T/mm" >/dev/null 2>&1
t_ok "mismatch: EI0002 on every rank" python3 -c "
import json; t=json.load(open('$T/mm/truth.json'))
assert {e['rank'] for e in t['errors'] if e['kind']=='EI0002'} == {0,1,2,3}, t['errors']"
t_ok "mismatch: no cycle claimed" test "$(json "$T/mm/truth.json" "str(len(t['cycle']))+' '+t['outcome']")" = "0 hang"

# clock skew shows in the timestamps, not in what happened
$HANGDX simulate -q --preset clock-skew -o "$T/cs" >/dev/null 2>&1
t_ok "clock skew moves rank 1's timestamps" sh -c "head -1 $T/cs/rank-1/ascend/log/debug/plog/*.log | grep -q '07:00:02'"

# bad input: file:line:col, exit 3, no output
printf 'cluster:\n  ranks: 2\n  aicpu_coresx: 6\n' > "$T/bad.yaml"
t_exit 3 "bad scenario exits 3" $HANGDX simulate "$T/bad.yaml" -o "$T/badout"
t_ok "bad scenario names file:line:col" sh -c "$HANGDX simulate $T/bad.yaml -o $T/badout 2>&1 | grep -q 'bad.yaml:3:3: error:'"
t_ok "bad scenario leaves no output" test ! -e "$T/badout"
printf 'program:\n  - allreduce: {stream: s, comm: nope}\n' > "$T/ref.yaml"
t_exit 3 "unknown communicator exits 3" $HANGDX simulate "$T/ref.yaml"
t_exit 3 "missing file exits 3" $HANGDX simulate "$T/does-not-exist.yaml"
mkdir -p "$T/full" && echo keep > "$T/full/x"
t_exit 4 "non-empty output dir refused" $HANGDX simulate -q --preset healthy -o "$T/full"
t_ok "non-empty output dir untouched" sh -c "test \"\$(cat $T/full/x)\" = keep && test \$(ls $T/full | wc -l) = 1"
t_ok "no temporary directory left behind" sh -c "! ls -d $T/full.tmp-* 2>/dev/null"

# the output directory gets the mode of an ordinary directory (umask 022)
(umask 022 && $HANGDX simulate -q --preset healthy --no-trace -o "$T/mode" > /dev/null 2>&1)
t_ok "output directory: mode 755 under umask 022" sh -c "test \$(stat -c %a $T/mode) = 755"

t_done
