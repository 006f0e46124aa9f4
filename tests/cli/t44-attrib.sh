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
# rank 3 died: it failed first; rank 2 (rank 0 of tpb) logged the first error
ffr() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['first_failing_rank'], d['first_failure']['rank'])" "$1"; }
t_ok "tp-death, rank-N/: first failing rank 3 (lost), first error line rank 2's" test "$(ffr "$T/tp.json")" = "3 2"
t_ok "tp-death, host-N/: first failing rank 3 (lost), first error line rank 2's" test "$(ffr "$T/tph.json")" = "3 2"
t_ok "tp-death, host-N/: 4 ranks, no invented one" python3 -c "
import json; d=json.load(open('$T/tph.json')); assert len(d['ranks'])==4, [r['rank'] for r in d['ranks']]"
$HANGDX parse --json "$T/tph/host-2" > "$T/tph2.jsonl" 2>/dev/null
t_ok "tp-death, host-N/: every record of rank 2's files is rank 2" python3 -c "
import json
bad=[(r['kind'],r.get('rank')) for r in map(json.loads,open('$T/tph2.jsonl')) if r.get('type','record')=='record' and 'line' in r and r.get('rank')!=2]
assert not bad, bad[:5]"

# the dead rank's logs missing: it is still a rank of the job (the world
# communicator's size), no peer is a communicator rank read as global
mkdir "$T/tpm"
for i in 0 1 2; do cp -r "$T/tp/rank-$i" "$T/tpm/host-$i"; done
$HANGDX diagnose --json "$T/tpm" > "$T/tpm.json" 2>/dev/null
t_ok "tp-death, host-N/, rank 3's logs missing: root 3 (no logs) failed first, first error line rank 2's" python3 -c "
import json; d=json.load(open('$T/tpm.json'))
assert (d['root_rank'], d['first_failing_rank'], d['first_failure']['rank'], len(d['ranks'])) == (3, 3, 2, 4), (d['root_rank'], d['first_failing_rank'], len(d['ranks']))
assert d['ranks'][3]['state'] == 'no logs', d['ranks'][3]"

# a rank-like directory above the input names no rank
mkdir -p "$T/exp_rank64"
for i in 0 1 2 3; do cp -r "$T/tp/rank-$i" "$T/exp_rank64/host-$i"; done
$HANGDX diagnose --json "$T/exp_rank64" > "$T/e64.json" 2>/dev/null
t_ok "input root exp_rank64/: 4 ranks, first error line rank 2's" python3 -c "
import json; d=json.load(open('$T/e64.json'))
assert len(d['ranks'])==4 and d['first_failure']['rank']==2, (len(d['ranks']), d['first_failure'])"
tar -C "$T/tph" -czf "$T/bundle-rank7.tar.gz" host-0 host-1 host-2 host-3
$HANGDX diagnose --json "$T/bundle-rank7.tar.gz" > "$T/b7.json" 2>/dev/null
t_ok "archive bundle-rank7.tar.gz: not all on rank 7" python3 -c "
import json; d=json.load(open('$T/b7.json'))
assert len(d['ranks'])==4 and d['first_failure']['rank']==2, (len(d['ranks']), d['first_failure'])"

# every layout, containers that reuse pids on every node, ranks that
# start late: the answer of rank-N/
same() {
	python3 -c "
import json,sys
a,b=(json.load(open(f)) for f in sys.argv[1:3])
k=('category','root_rank','first_failing_rank')
assert [a[x] for x in k]==[b[x] for x in k], ([a[x] for x in k],[b[x] for x in k])
assert len(a['ranks'])==len(b['ranks']), (len(a['ranks']),len(b['ranks']))" "$1" "$2"
}
for v in "layout=node" "layout=node node_dirs=ip" "layout=node node_dirs=node same_pids=true" \
	 "layout=flat" "layout=node same_pids=true start_spread=5s"; do
	n=$(echo "$v" | tr ' =' '_-')
	sets=$(for kv in $v; do printf ' --set %s' "$kv"; done)
	$HANGDX simulate -q $sets -o "$T/$n" "$T/tp.yaml" > /dev/null 2>&1
	$HANGDX diagnose --json "$T/$n" > "$T/$n.json" 2>/dev/null
	t_ok "tp-death, $v: the answer of rank-N/" same "$T/tp.json" "$T/$n.json"
done
t_ok "layout node: one ascend/log per node, no rank in any path" sh -c "
test -d $T/layout-node/host-1/ascend/log/debug/device-1 && ! find $T/layout-node | grep -q rank"
t_ok "layout node, node_dirs=ip: the node's address names its directory" test -d "$T/layout-node_node_dirs-ip/127.10.0.2/ascend/log"
t_ok "layout flat: every log in one directory" sh -c "test \$(find $T/layout-flat -type d | wc -l) -eq 2"
t_ok "same_pids: both nodes hold the same pids" sh -c "
test \"\$(ls $T/layout-node_node_dirs-node_same_pids-true/node-0/ascend/log/debug/plog)\" = \"\$(ls $T/layout-node_node_dirs-node_same_pids-true/node-1/ascend/log/debug/plog)\""
t_ok "start_spread: the init exit lines are written" grep -q "HcclCommInitRootInfo success,take time" -r "$T/layout-node_same_pids-true_start_spread-5s"
t_ok "start_spread: a late start is no clock skew" python3 -c "
import json; d=json.load(open('$T/layout-node_same_pids-true_start_spread-5s.json'))
assert all(r['clock_skew_s']==0 for r in d['ranks']), [r['clock_skew_s'] for r in d['ranks']]"
# a skewed clock among late starters: found from the exit lines, the same
# whatever the order the files are read in
sed 's/^faults: \[/faults: [{clock_skew: {rank: 1, offset: 4s}}, /' "$T/tp.yaml" > "$T/tpskew.yaml"
$HANGDX simulate -q --layout node --set start_spread=5s -o "$T/tpskew" "$T/tpskew.yaml" > /dev/null 2>&1
$HANGDX diagnose --json --threads 1 "$T/tpskew" > "$T/sk1.json" 2>/dev/null
$HANGDX diagnose --json --threads 2 "$T/tpskew" > "$T/sk2.json" 2>/dev/null
t_ok "clock skew of 4 s among ranks starting 5 s apart: rank 1 alone, +4 s" python3 -c "
import json; d=json.load(open('$T/sk1.json'))
assert [round(r['clock_skew_s'],1) for r in d['ranks']]==[0,4,0,0], [r['clock_skew_s'] for r in d['ranks']]
assert d['first_failure']['rank']==2, d['first_failure']"
t_ok "clock offsets: one thread or two, the same diagnosis" cmp "$T/sk1.json" "$T/sk2.json"
t_exit 2 "layout flat with same_pids: refused (file names would collide)" \
	$HANGDX simulate -q --layout flat --set same_pids=true -o "$T/fs" "$T/tp.yaml"

# containers: node 1's processes have node 0's pids, and node 1's init
# lines are lost; node 1's evidence must not take node 0's ranks
$HANGDX simulate -q --preset rank-death --layout node --set same_pids=true \
	--set ranks_per_node=2 -o "$T/sp" > /dev/null 2>&1
rm -rf "$T/sp/host-1/ascend/log/run"
sed -i '/CommInit\|SetupAgent/d' "$T"/sp/host-1/ascend/log/debug/plog/*.log
$HANGDX diagnose --json "$T/sp" > "$T/sp.json" 2>/dev/null
t_ok "same pids on two nodes, node 1's init lines lost: first error line rank 3's, 4 ranks" python3 -c "
import json; d=json.load(open('$T/sp.json'))
assert d['first_failure']['rank']==3 and d['first_failing_rank']==2 and len(d['ranks'])==4, (d['first_failure'], d['first_failing_rank'], len(d['ranks']))
assert '/host-1/' in d['first_failure']['evidence'], d['first_failure']"

# evidence without a rank stays evidence: a device log of two nodes with
# no pid in its name is two "rank ?", not one phantom rank
mkdir -p "$T/dv/host-0" "$T/dv/host-1"
cp "$T"/tph/host-0/ascend/log/debug/device-0/*.log "$T/dv/host-0/device.log"
cp "$T"/tph/host-2/ascend/log/debug/device-0/*.log "$T/dv/host-1/device.log"
$HANGDX diagnose --json "$T/dv" > "$T/dv.json" 2>/dev/null
$HANGDX diagnose "$T/dv" > "$T/dv.txt" 2>/dev/null
t_ok "TSCH(-1,null) of two nodes: two ranks of unknown rank, one per file" python3 -c "
import json; d=json.load(open('$T/dv.json'))
u=[r for r in d['ranks'] if r.get('rank_known') is False]
assert len(u)==2 and {r['file'].split('/')[-2] for r in u}=={'host-0','host-1'}, d['ranks']"
t_ok "rank ?: never shown as a rank number" sh -c "grep 'rank unknown' $T/dv.txt | grep -q ': ?\$' && ! grep 'rank unknown' $T/dv.txt | grep -q ': [0-9]'"

# a process in many communicators: no ceiling that changes the answer
# (HX_MAX_GROUPS_PER_PROC is a memory guard at 65536); each counted once
$HANGDX simulate -q --preset reference --set communicators=17 -o "$T/g17" > /dev/null 2>&1
$HANGDX diagnose --json "$T/g17" > "$T/g17.json" 2>/dev/null
$HANGDX simulate -q --preset reference -o "$T/g15" > /dev/null 2>&1
$HANGDX diagnose --json "$T/g15" > "$T/g15.json" 2>/dev/null
t_ok "17 communicators a process: counted 17, no note of a limit" python3 -c "
import json; d=json.load(open('$T/g17.json'))
assert not any('communicators,' in n or 'more than' in n for n in d['notes']), d['notes']
assert any('up to 17 communicators' in n for n in d['notes']), d['notes']"
t_ok "15 communicators a process: no such note" python3 -c "
import json; d=json.load(open('$T/g15.json'))
assert not any('communicators:' in n for n in d['notes']), d['notes']"
t_ok "rank ? in the chain: no rank number on a hop of an unknown rank" absent -E '^ +[0-9]+\. rank[0-9]' "$T/dv.txt"

# c10's warning behind torch's "[rank3]:" carries the error manager's
# message; its block comes on the lines after it without the prefix and is
# rank 3's (its process too); a line of another source ends that
c10='[rank3]:[W1031 21:35:04.838006795 compiler_depend.ts:57] Warning: EZ9999: Inner Error!'
blk='EZ9999: [PID: 696742] 2025-10-31-21:35:03.992.057 The error from device(chipId:7, dieId:0), serial number is 2, there is an exception of aivec error, core id is 9, error code = 0.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1539]'
body='        TraceBack (most recent call last):'
printf '%s\n%s\n%s\n' "$c10" "$blk" "$body" > "$T/c10.log"
$HANGDX diagnose --json "$T/c10.log" > "$T/c10.json"
t_ok "a c10 warning's block without the prefix: rank 3 failed first" test "$(jv first_failing_rank "$T/c10.json")" = 3
t_ok "... and is the root cause rank" test "$(jv root_rank "$T/c10.json")" = 3
printf '%s\n%s\n%s\n%s\n' "$c10" 'some other output' "$blk" "$body" > "$T/c10b.log"
$HANGDX diagnose --json "$T/c10b.log" > "$T/c10b.json"
t_ok "a line of another source between: the block is not rank 3's" test "$(jv first_failing_rank "$T/c10b.json")" != 3
printf '%s\n%s\n' "${c10%%Warning*}Warning: something else" "$blk" > "$T/c10c.log"
$HANGDX diagnose --json "$T/c10c.log" > "$T/c10c.json"
t_ok "a c10 warning that carries no error-manager code: the block is not rank 3's" test "$(jv first_failing_rank "$T/c10c.json")" != 3

# torch elastic's summary (torchrun's ChildFailedError): the rank its
# "Root Cause (first observed failure)" names failed first, at its time;
# also when the paste ends at that rank's line
cat > "$T/el.log" <<'EOF'
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2024-05-31_13:24:59
  host      : node-1
  rank      : 0 (local_rank: 0)
  exitcode  : -15 (pid: 1345687)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 1345687
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2024-05-31_13:24:51
  host      : node-1
  rank      : 2 (local_rank: 2)
  exitcode  : 1 (pid: 1345689)
  error_file: <N/A>
EOF
$HANGDX diagnose --json "$T/el.log" > "$T/el.json"
t_ok "torch elastic's root cause: rank 2 failed first" test "$(jv first_failing_rank "$T/el.json")" = 2
t_ok "... and is named as the failure's rank" test "$(jv root_rank "$T/el.json")" = 2
t_ok "... still a failure whose hang is not determined" test "$(jv category "$T/el.json")" = other
head -18 "$T/el.log" > "$T/elc.log"
$HANGDX diagnose --json "$T/elc.log" > "$T/elc.json"
t_ok "the summary cut after the root cause's rank line: rank 2" test "$(jv first_failing_rank "$T/elc.json")" = 2
head -13 "$T/el.log" > "$T/eln.log"
$HANGDX diagnose --json "$T/eln.log" > "$T/eln.json"
t_ok "the failures without the root cause: no rank named (a worker killed after it)" \
	test "$(jv first_failing_rank "$T/eln.json")" = -1

# simulate -o DIR/ (a trailing slash)
t_exit 1 "simulate -o DIR/: written" $HANGDX simulate -q -o "$T/slash/" "$T/tp.yaml"
t_ok "simulate -o DIR/: the logs are in DIR" test -d "$T/slash/rank-0/ascend/log"
t_ok "simulate -o DIR/: no temporary directory left" sh -c "! ls -a $T/slash | grep -q tmp"

t_done
