#!/bin/sh
# t53-pools.sh - the AICPU pool is sized per device.  The reference
# incident at 4 ranks, each device's HCCL AicpuComm lines printing
# aicpuCoreNum[6]; then rank 3's lines edited to say 7.  A rank whose own
# logs say 6 is modelled with 6 whatever another rank logs: ranks 0-2 keep
# their proven cycle on 6 of 6 cores; rank 3 is modelled with 7 cores, of
# which its logs show 6 held, so its pool is not exhausted and it is no
# root.  The facts path (one facts file a rank, in either order, and facts
# beside logs) gives the single pass's JSON byte for byte.
# Then "proven" per rank in facts: each rank's fact says whether its own
# cycle is proven from its own evidence (not the node's verdict), and two
# parts of one rank's evidence merge to proven only when no part that saw
# its device says otherwise and the pool the proof counted is the one the
# parts log (never an OR).
. tests/cli/lib.sh
H=$HANGDX

"$H" simulate -q --preset reference --set ranks=4 -o "$T/r6" > /dev/null 2>&1
cp -r "$T/r6" "$T/r7"
find "$T/r7/rank-3" -name '*.log' -exec sed -i 's/aicpuCoreNum\[6\]/aicpuCoreNum[7]/' {} +
t_ok "rank 3's logs now say 7 cores, the others' 6" sh -c "
grep -rq 'aicpuCoreNum\[7\]' $T/r7/rank-3 && ! grep -rq 'aicpuCoreNum\[6\]' $T/r7/rank-3 &&
! grep -rq 'aicpuCoreNum\[7\]' $T/r7/rank-0 $T/r7/rank-1 $T/r7/rank-2"

"$H" diagnose --json "$T/r6" > "$T/r6.json"
"$H" diagnose --json "$T/r7" > "$T/r7.json"
"$H" diagnose "$T/r7" > "$T/r7.txt"
t_ok "all 6: proven, roots 0-3, 6 cores" python3 -c "
import json; d=json.load(open('$T/r6.json'))
assert d['verdict']=='deadlock' and d['proven'] and d['roots']==[0,1,2,3] and d['aicpu_cores']==6, (d['proven'], d['roots'], d['aicpu_cores'])"
t_ok "rank 3 logs 7: still proven, on 6 of 6 cores of rank 0" python3 -c "
import json; d=json.load(open('$T/r7.json'))
assert d['verdict']=='deadlock' and d['proven'] and d['aicpu_cores']==6, (d['proven'], d['aicpu_cores'], d['summary'])
assert any(h['kind']=='AICPU_POOL' and h['what'].endswith('6 of 6 cores held by HCCL kernels') for h in d['chain']), d['chain']"
t_ok "rank 3 logs 7: roots are the ranks whose own pools are full (0-2)" python3 -c "
import json; d=json.load(open('$T/r7.json'))
assert d['roots']==[0,1,2], d['roots']"
t_ok "rank 3 logs 7: text says proven and 6 cores" sh -c "
grep -q '^hangdx: DEADLOCK — AICPU exhaustion deadlock (proven)' $T/r7.txt &&
grep -q 'all 6 AICPU cores' $T/r7.txt && ! grep -q '7 AICPU cores' $T/r7.txt"
# rank 3 alone: its own 7 cores, 6 held: no exhaustion proven there
"$H" diagnose --json "$T/r7/rank-3" > "$T/r7.3.json"
t_ok "rank 3 alone: no proven exhaustion on its 7 cores" python3 -c "
import json; d=json.load(open('$T/r7.3.json'))
assert not (d['category']=='aicpu_exhaustion_deadlock' and d['proven']), d['summary']"
# --cores states the count for every device: the logs' counts give way
"$H" diagnose --json --cores 6 "$T/r7" > "$T/r7c6.json"
t_ok "--cores 6: every device 6, roots 0-3" python3 -c "
import json; d=json.load(open('$T/r7c6.json'))
assert d['proven'] and d['roots']==[0,1,2,3] and d['aicpu_cores']==6, (d['proven'], d['roots'])"

for i in 0 1 2 3; do
	"$H" facts "$T/r7/rank-$i" -o "$T/r7.$i.facts" 2> /dev/null
done
"$H" diagnose --json --facts "$T/r7.0.facts" --facts "$T/r7.1.facts" \
	--facts "$T/r7.2.facts" --facts "$T/r7.3.facts" > "$T/r7.f.json"
t_golden "facts, one file a rank: the single pass's JSON" "$T/r7.json" "$T/r7.f.json"
"$H" diagnose --json --facts "$T/r7.3.facts" --facts "$T/r7.2.facts" \
	--facts "$T/r7.1.facts" --facts "$T/r7.0.facts" > "$T/r7.fr.json"
t_golden "facts in reverse order: the single pass's JSON" "$T/r7.json" "$T/r7.fr.json"
"$H" diagnose --json --facts "$T/r7.3.facts" --facts "$T/r7.1.facts" \
	"$T/r7/rank-0" "$T/r7/rank-2" > "$T/r7.m.json"
t_golden "facts of ranks 1 and 3 beside logs of 0 and 2: the single pass's JSON" \
	"$T/r7.json" "$T/r7.m.json"

# a node with a proven rank and an inferred one: 8 cores, rank 1's
# aicpuCoreNum lines removed, so its pool of 6 is widened to 8 by the
# core ids its kernel lines name (inferred); rank 0 logs 8 (proven)
"$H" simulate -q --preset reference --set cores=8 -o "$T/c8" > /dev/null 2>&1
find "$T/c8/rank-1" -name '*.log' -exec sed -i '/AicpuComm: group\|In Execution group num/d' {} +
"$H" diagnose --json "$T/c8" > "$T/c8.json"
"$H" facts "$T/c8" -o "$T/c8.facts" 2> /dev/null
t_ok "8 cores, rank 1 widened: the single pass proves rank 0's cycle" python3 -c "
import json; d=json.load(open('$T/c8.json'))
assert d['proven'] and d['root_rank']==0 and d['roots']==[0,1], (d['proven'], d['roots'])"
t_ok "facts: rank 0 proven, rank 1 (widened pool) not, both with a cycle" python3 -c "
import json
rf={}
for l in open('$T/c8.facts'):
    o=json.loads(l)
    if o.get('fact')=='rank': rf[o['rank']]=o
assert rf[0].get('local_cycle')==1 and rf[0].get('proven')==1, rf[0]
assert rf[1].get('local_cycle')==1 and not rf[1].get('proven'), rf[1]"
# the node's facts of rank 1 alone (rank 0's lines taken out), its logs
# not here: the verdict rests on rank 1's own fact
python3 -c "
import json
out=open('$T/c8.r1.facts','w')
for l in open('$T/c8.facts'):
    o=json.loads(l)
    if o.get('rank')==0: continue
    out.write(l)"
mv "$T/c8" "$T/c8.away"
"$H" diagnose --json --facts "$T/c8.facts" > "$T/c8.f.json" 2> /dev/null
"$H" diagnose --json --facts "$T/c8.r1.facts" > "$T/c8.r1.json" 2> /dev/null
mv "$T/c8.away" "$T/c8"
t_ok "facts without the logs: rank 0's own fact, proven" python3 -c "
import json; d=json.load(open('$T/c8.f.json'))
assert d['verdict']=='deadlock' and d['proven'] and d['root_rank']==0, (d['proven'], d['summary'])"
t_ok "facts without the logs, rank 1's fact alone: inferred" python3 -c "
import json; d=json.load(open('$T/c8.r1.json'))
assert d['verdict']=='deadlock' and not d['proven'] and d['root_rank']==1, (d['proven'], d['summary'])"

# two parts of rank 1's evidence on two nodes: the debug half (TS dumps,
# kernel lines, no aicpuCoreNum: proven on the product's 6) and the run
# half (aicpuCoreNum[7], no dumps).  Merged without the logs: not proven
# (its pool is 7 by its own logs, which the debug half's proof did not
# count); with the logs, the single pass's JSON
"$H" simulate -q --preset reference -o "$T/h" > /dev/null 2>&1
find "$T/h/rank-1/ascend/log/debug" -name '*.log' -exec sed -i '/AicpuComm: group\|In Execution group num/d' {} +
find "$T/h/rank-1/ascend/log/run" -name '*.log' -exec sed -i 's/aicpuCoreNum\[6\]/aicpuCoreNum[7]/' {} +
"$H" facts "$T/h/rank-1/ascend/log/debug" -o "$T/h.a.facts" 2> /dev/null
"$H" facts "$T/h/rank-1/ascend/log/run" -o "$T/h.b.facts" 2> /dev/null
t_ok "halves: the debug half proves rank 1 on 6 cores, the run half logs 7" python3 -c "
import json
f=lambda p: [json.loads(l) for l in open(p) if '\"fact\":\"rank\"' in l][0]
a=f('$T/h.a.facts'); b=f('$T/h.b.facts')
assert a.get('proven')==1 and not a.get('cores_logged'), a
assert b.get('cores_logged')==7 and not b.get('local_cycle'), b"
"$H" diagnose --json "$T/h/rank-1" > "$T/h.single.json"
"$H" diagnose --json --facts "$T/h.a.facts" --facts "$T/h.b.facts" > "$T/h.ab.json"
t_golden "halves with their logs: the single pass's JSON" "$T/h.single.json" "$T/h.ab.json"
mv "$T/h" "$T/h.away"
"$H" diagnose --json --facts "$T/h.a.facts" --facts "$T/h.b.facts" > "$T/h.f.json" 2> /dev/null
"$H" diagnose --json --facts "$T/h.b.facts" --facts "$T/h.a.facts" > "$T/h.fr.json" 2> /dev/null
mv "$T/h.away" "$T/h"
for o in f fr; do
	t_ok "halves without the logs ($o): not proven, 7 cores" python3 -c "
import json; d=json.load(open('$T/h.$o.json'))
assert not d['proven'] and d['aicpu_cores']==7, (d['proven'], d['aicpu_cores'], d['summary'])"
done
t_done
