#!/bin/sh
# t53-pools.sh - the AICPU pool is sized per device.  The reference
# incident at 4 ranks, each device's HCCL AicpuComm lines printing
# aicpuCoreNum[6]; then rank 3's lines edited to say 7.  A rank whose own
# logs say 6 is modelled with 6 whatever another rank logs: ranks 0-2 keep
# their proven cycle on 6 of 6 cores; rank 3 is modelled with 7 cores, of
# which its logs show 6 held, so its pool is not exhausted and it is no
# root.  The facts path (one facts file a rank, in either order, and facts
# beside logs) gives the single pass's JSON byte for byte.
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
t_done
