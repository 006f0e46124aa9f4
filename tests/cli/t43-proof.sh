#!/bin/sh
# t43-proof.sh - "proven" only when every input of the proof was seen in
# the logs.  The AICPU pool is never smaller than the product's count
# (6 on Atlas A2/A3) unless --cores says so: a slow AICPU operator that
# sits at its stream head while 3 kernels hold 3 cores is not a deadlock.
# Core ids past 5 widen the pool (then the capacity is inferred).  A
# record ceiling that cuts the evidence makes a deadlock inferred.
. tests/cli/lib.sh

# the reference incident with 3 communicators, a 60 s timeout and a
# 500 s AICPU operator: truth.json says no deadlock, 6 cores
sed 's/duration: 200us/duration: 500s/' scenarios/reference.yaml > "$T/slow.yaml"
$HANGDX simulate -q "$T/slow.yaml" --set communicators=3 --set exec_timeout=60 \
	-o "$T/slow" > /dev/null 2>&1
t_ok "slow op: truth is no deadlock with 6 cores" python3 -c "
import json; t=json.load(open('$T/slow/truth.json'))
assert t['aicpu_cores']==6 and not t['cycle'] and t['deadlocked_nodes']==0, t"
$HANGDX diagnose --json "$T/slow" > "$T/slow.json"
t_ok "slow op: no deadlock claimed, 6 cores" python3 -c "
import json; d=json.load(open('$T/slow.json'))
assert d['verdict']!='deadlock' and not d['proven'], (d['verdict'], d['summary'])
assert d['aicpu_cores']==6, d['aicpu_cores']"
$HANGDX diagnose "$T/slow" > "$T/slow.txt"
t_ok "slow op: no fix limit below the product's cores" absent 'at or below [0-4] ' "$T/slow.txt"
# stated core count: the same logs with --cores 3 are a proven deadlock
$HANGDX diagnose --json --cores 3 "$T/slow" > "$T/slow3.json"
t_ok "slow op, --cores 3: proven deadlock on the stated capacity" python3 -c "
import json; d=json.load(open('$T/slow3.json'))
assert d['verdict']=='deadlock' and d['proven'] and d['aicpu_cores']==3, d['summary']"

# 8 cores: HCCL's own AicpuComm lines print aicpuCoreNum[8]: the count the
# logs state, proven; the fix limit is 7
$HANGDX simulate -q --preset reference --set cores=8 -o "$T/c8" > /dev/null 2>&1
$HANGDX diagnose --json "$T/c8" > "$T/c8.json"
$HANGDX diagnose "$T/c8" > "$T/c8.txt"
t_ok "cores=8: 8 cores in the diagnosis, from aicpuCoreNum, proven" python3 -c "
import json; d=json.load(open('$T/c8.json'))
assert d['aicpu_cores']==8 and d['verdict']=='deadlock' and d['proven'], (d['aicpu_cores'], d['verdict'], d['summary'])
assert any(h['kind'] == 'AICPU_POOL' and h['what'].endswith('8 of 8 cores held by HCCL kernels') for h in d['chain']), d['chain']"
t_ok "cores=8: the fix limit is 7" grep -q "at or below 7 " "$T/c8.txt"
# without those lines only the kernel lines name cores 0..7: the pool
# widens past the product's 6 to 8, and the capacity is inferred
cp -r "$T/c8" "$T/c8w"
find "$T/c8w" -name '*.log' -exec sed -i '/AicpuComm: group\|In Execution group num/d' {} +
$HANGDX diagnose --json "$T/c8w" > "$T/c8w.json"
$HANGDX diagnose "$T/c8w" > "$T/c8w.txt"
t_ok "cores=8 without aicpuCoreNum: capacity past the product's count is inferred" python3 -c "
import json; d=json.load(open('$T/c8w.json'))
assert d['aicpu_cores']==8 and not d['proven'] and 'no AICPU core past core 7' in d['summary'], d['summary']"
t_ok "cores=8 without aicpuCoreNum: text says inferred" grep -q "^hangdx: DEADLOCK — AICPU exhaustion deadlock (inferred)" "$T/c8w.txt"
t_ok "cores=8 without aicpuCoreNum: a note says the pool was widened" python3 -c "
import json; d=json.load(open('$T/c8w.json'))
assert any('taken as 8: the logs name core 7' in n for n in d['notes']), d['notes']"
t_ok "cores=8 with --cores 8: proven" sh -c "$HANGDX diagnose --json --cores 8 $T/c8w | grep -q '\"proven\": true'"

# the reference incident: proven (the kernel start lines name the six
# holders, and 6 is the product's count); cut by the record ceiling,
# at most inferred
$HANGDX simulate -q --preset reference -o "$T/ref" > /dev/null 2>&1
t_ok "reference: proven" sh -c "$HANGDX diagnose $T/ref | grep -q '^hangdx: DEADLOCK — AICPU exhaustion deadlock (proven)'"
for m in 100 400 650; do
	$HANGDX diagnose --json --max-records $m "$T/ref" > "$T/m$m.json" 2>/dev/null
	t_ok "reference, --max-records $m: not proven" python3 -c "
import json; d=json.load(open('$T/m$m.json'))
assert not d['proven'], d['summary']
assert d['verdict']!='deadlock' or 'record ceiling' in d['summary'], d['summary']"
done
t_done
