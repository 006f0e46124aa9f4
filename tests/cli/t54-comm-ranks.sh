#!/bin/sh
# t54-comm-ranks.sh - the remote rank of EI0002 and of the task failure
# blocks is a rank of the failing op's communicator, not of the job.  It
# names a global rank only through what the logs say of that
# communicator: its members (creation lines of each member: the world
# group's rank and the sub-group's rank of one process), or its being the
# world group.  Otherwise the report says "rank R of group G" (or "of its
# communicator" when no group is named) and never makes it a root.  An op
# index the logs do not give is left out, never printed as -1.  The
# inputs are written here in the vendor's line shapes
# (docs/log-formats: the console's "[rankN]:" prefix, the EI0002 message
# of the error manager, the hcclCommInitInfo creation lines, the Task run
# failed blocks).
. tests/cli/lib.sh
H=$HANGDX

# creation PID ROOTINFO NAME RANKS RANK: one communicator's creation lines
creation() {
	cat <<EOF
[INFO] HCCL($1,python3):2026-11-01-07:00:00.000.000 [op_base.cc:1292] [$1]Entry-HcclCommInitRootInfoInner:ranks[$4], rank[$5], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[$2], deviceLogicId[0]
[INFO] HCCL($1,python3):2026-11-01-07:00:00.000.005 [hccl_comm.cc:129] [$1]hcclCommInitInfo:commId[hccl-$1-0-1793516400-x], rank[$5], totalRanks[$4], serverId[127.10.0.1], deviceType[4],logicDevId[0], identifier[$3]
[INFO] HCCL($1,python3):2026-11-01-07:00:00.000.010 [op_base.cc:489][$1][HCCL_TRACE]HcclCommInitRootInfo success,take time [15]us, rankNum[$4], rank[$5],rootInfo identifier[$2], server[127.10.0.1], logicDevId[0]
EOF
}
# fail PID GROUP REMOTE: a notify wait of process PID in GROUP times out
# waiting for communicator rank REMOTE
fail() {
	cat <<EOF
[ERROR] HCCL($1,python3):2026-11-01-07:30:36.000.080 [task_exception_handler.cc:452][$1][TaskExceptionHandler][Callback]Task run failed, base information is streamID:[3], taskID[7], taskType[Notify Wait], tag[AllReduce_$2], index[3], AlgType(level 0-1-2):[null-null-ring].
[ERROR] HCCL($1,python3):2026-11-01-07:30:36.000.090 [task_exception_handler.cc:454][$1][TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x0000000000000050], stage:[ffffffff], remote rank:[$3].
EOF
}
W=10.0.0.1%eth0_60000_0_1
json() {  # json DIR: the JSON diagnosis of DIR into DIR.json
	"$H" diagnose --json "$T/$1" > "$T/$1.json" 2> /dev/null
	"$H" diagnose "$T/$1" > "$T/$1.txt" 2> /dev/null
}
check() {  # check DESC DIR PYTHON-ASSERTS (d: the JSON)
	t_ok "$1" python3 -c "
import json; d=json.load(open('$T/$2.json'))
by={r['rank']: r for r in d['ranks']}
$3"
}

# 1. the console: two pasted lines of global ranks 9 and 10, each an EI0002
# naming remote rank [4] of a communicator no line describes
mkdir "$T/console"
cat > "$T/console/console.log" <<'EOF'
[rank9]:[E1203 10:21:07.118273645 compiler_depend.ts:429] [Rank 9] HCCL watchdog thread terminated with exception:
[rank9]: EI0002: [PID: 48211] 2025-12-03-10:21:07.101.220 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14], taskID[6], taskType[Notify Wait], tag[AllReduce_10.0.0.2%eth0_60000_1_1764727000000001].] task information: [notify id:[0x0000000700000058], stage:[ffffffff], remote rank:[4].]
[rank10]:[E1203 10:21:07.131908113 compiler_depend.ts:429] [Rank 10] HCCL watchdog thread terminated with exception:
[rank10]: EI0002: [PID: 48212] 2025-12-03-10:21:07.114.502 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14], taskID[6], taskType[Notify Wait], tag[AllReduce_10.0.0.2%eth0_60000_1_1764727000000001].] task information: [notify id:[0x0000000700000059], stage:[ffffffff], remote rank:[4].]
EOF
json console
check "console: a hang, rank 9 first" console "
assert d['hang'] and d['first_failing_rank']==9, (d['hang'], d['first_failing_rank'])"
check "console: remote rank 4 is no root (a rank of the communicator)" console "
assert d['root_rank']!=4 and 4 not in d['roots'], (d['root_rank'], d['roots'])
assert by[4]['state']=='no logs' and by[4].get('role')!='root', by[4]"
check "console: ranks 9 and 10 wait for rank 4 of their communicator" console "
for r in (9, 10):
    assert by[r]['state'].endswith('waiting for rank 4 of its communicator'), by[r]['state']
    assert 'waits_for_rank' not in by[r] and 4 not in by[r].get('waits_on_ranks', []), by[r]"
t_ok "console: no 'index -1', no 'root cause rank: 4'" sh -c "
! grep -q 'index -1' $T/console.txt $T/console.json &&
! grep -q 'root cause rank: 4' $T/console.txt"
t_ok "console: the text names rank 4 of its communicator" \
	grep -q 'waiting for rank 4 of its communicator: 9-10' "$T/console.txt"

# 2. members known: processes 7 and 8 are global ranks 2 and 3 of a world
# of 4; in group_name_5, 8 is rank 0 and 7 rank 1.  7 waits for rank 0
# of group_name_5: global rank 3
mkdir "$T/known"
{ creation 7 "$W" hccl_world_group 4 2
  creation 7 10.0.0.1%eth0_60000_5_1 group_name_5 2 1
  fail 7 group_name_5 0; } > "$T/known/plog-7_20261101070000000.log"
{ creation 8 "$W" hccl_world_group 4 3
  creation 8 10.0.0.1%eth0_60000_5_1 group_name_5 2 0; } > "$T/known/plog-8_20261101070000000.log"
json known
check "members known: rank 2 waits for global rank 3 (rank 0 of group_name_5)" known "
assert by[2].get('waits_for_rank')==3, by[2]
assert d['root_rank']==3 and d['first_failing_rank']==2, (d['root_rank'], d['first_failing_rank'])"
check "members known: not global rank 0" known "
assert 0 not in d['roots'] and by[0].get('role')!='root', d['roots']"

# 3. the group named, its other member's creation lines missing: rank 0 of
# group_name_6 is not known by its global rank
mkdir "$T/half"
{ creation 7 "$W" hccl_world_group 4 2
  creation 7 10.0.0.1%eth0_60000_6_1 group_name_6 2 1
  fail 7 group_name_6 0; } > "$T/half/plog-7_20261101070000000.log"
creation 8 "$W" hccl_world_group 4 3 > "$T/half/plog-8_20261101070000000.log"
json half
check "members unknown: 'rank 0 of group group_name_6', not a root" half "
assert by[2]['state']=='notify wait timeout in AllReduce index 3, waiting for rank 0 of group group_name_6', by[2]['state']
assert d['root_rank']!=0 and 0 not in d['roots'] and 'waits_for_rank' not in by[2], (d['root_rank'], d['roots'])"

# 4. the world group: its communicator rank is the global rank
mkdir "$T/world"
{ creation 7 "$W" hccl_world_group 4 2
  fail 7 hccl_world_group 1; } > "$T/world/plog-7_20261101070000000.log"
creation 8 "$W" hccl_world_group 4 3 > "$T/world/plog-8_20261101070000000.log"
json world
check "world group: rank 1 of the world is global rank 1, the root" world "
assert by[2].get('waits_for_rank')==1 and d['root_rank']==1, (by[2], d['root_rank'])"

# the Chinese report has the new words translated
"$H" --lang zh diagnose "$T/half" > "$T/half.zh" 2> /dev/null
t_ok "zh: rank 0 of group_name_6 in Chinese" grep -q '在等待通信域 group_name_6 的 rank 0' "$T/half.zh"
t_done
