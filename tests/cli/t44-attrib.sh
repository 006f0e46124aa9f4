#!/bin/sh
# t44-attrib.sh - who wrote each line, on the layouts real collections
# have: communicator ranks of sub-communicators mapped to global ranks,
# no rank read from directories above the input or from inside a longer
# name, processes keyed by (node, pid), unattributed evidence kept as a
# "rank ?" of its own, clock skew from the init exit line.
. tests/cli/lib.sh

# json KEY FILE: the value of a top-level number or string key
jv() {
	python3 -c "import json,sys; print(json.load(open(sys.argv[2]))[sys.argv[1]])" "$1" "$2"
}

cat > "$T/tp.yaml" <<'YAML'
name: tp-death
cluster: {ranks: 4, ranks_per_node: 2}
communicators: [{name: world}, {name: tpa, ranks: [0, 1]}, {name: tpb, ranks: [2, 3]}]
program:
  - repeat:
      count: 20
      steps:
        - aicore: {stream: compute, name: MatMulV2, duration: 50ms}
        - event_record: {stream: compute, event: g}
        - event_wait: {stream: comm, event: g}
        - allreduce: {stream: comm, comm: tpa, bytes: 8MiB, dtype: bf16, ranks: [0, 1]}
        - allreduce: {stream: comm, comm: tpb, bytes: 8MiB, dtype: bf16, ranks: [2, 3]}
        - allreduce: {stream: comm, comm: world, bytes: 64MiB, dtype: bf16}
        - host_sync: {stream: comm}
  - host_sync: all
faults: [{rank_death: {rank: 3, at: 500ms}}]
YAML

# sub-communicators, no rank in the path: comm ranks are not global ranks
$HANGDX simulate -q -o "$T/tp" "$T/tp.yaml" > /dev/null 2>&1
mkdir "$T/tph"
for i in 0 1 2 3; do cp -r "$T/tp/rank-$i" "$T/tph/host-$i"; done
$HANGDX diagnose --json "$T/tp" > "$T/tp.json" 2>/dev/null
$HANGDX diagnose --json "$T/tph" > "$T/tph.json" 2>/dev/null
t_ok "tp-death, rank-N/: first failing rank 2" test "$(jv first_failing_rank "$T/tp.json")" = 2
t_ok "tp-death, host-N/: first failing rank 2" test "$(jv first_failing_rank "$T/tph.json")" = 2
t_ok "tp-death, host-N/: 4 ranks, no invented one" python3 -c "
import json; d=json.load(open('$T/tph.json')); assert len(d['ranks'])==4, [r['rank'] for r in d['ranks']]"
$HANGDX parse --json "$T/tph/host-2" > "$T/tph2.jsonl" 2>/dev/null
t_ok "tp-death, host-N/: every record of rank 2's files is rank 2" python3 -c "
import json
bad=[(r['kind'],r.get('rank')) for r in map(json.loads,open('$T/tph2.jsonl')) if r.get('type','record')=='record' and 'line' in r and r.get('rank')!=2]
assert not bad, bad[:5]"

# a rank-like directory above the input names no rank
mkdir -p "$T/exp_rank64"
for i in 0 1 2 3; do cp -r "$T/tp/rank-$i" "$T/exp_rank64/host-$i"; done
$HANGDX diagnose --json "$T/exp_rank64" > "$T/e64.json" 2>/dev/null
t_ok "input root exp_rank64/: 4 ranks, first failing rank 2" python3 -c "
import json; d=json.load(open('$T/e64.json'))
assert len(d['ranks'])==4 and d['first_failing_rank']==2, (len(d['ranks']), d['first_failing_rank'])"
tar -C "$T/tph" -czf "$T/bundle-rank7.tar.gz" host-0 host-1 host-2 host-3
$HANGDX diagnose --json "$T/bundle-rank7.tar.gz" > "$T/b7.json" 2>/dev/null
t_ok "archive bundle-rank7.tar.gz: not all on rank 7" python3 -c "
import json; d=json.load(open('$T/b7.json'))
assert len(d['ranks'])==4 and d['first_failing_rank']==2, (len(d['ranks']), d['first_failing_rank'])"

# simulate -o DIR/ (a trailing slash)
t_exit 1 "simulate -o DIR/: written" $HANGDX simulate -q -o "$T/slash/" "$T/tp.yaml"
t_ok "simulate -o DIR/: the logs are in DIR" test -d "$T/slash/rank-0/ascend/log"
t_ok "simulate -o DIR/: no temporary directory left" sh -c "! ls -a $T/slash | grep -q tmp"

t_done
