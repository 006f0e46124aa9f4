#!/bin/sh
# t11-simulate-lines.sh - the wording of the simulated logs: the lines the
# public HCCL and AICPU scheduler source prints (docs/HCCL-SOURCE-STRINGS.md)
# in their exact shapes, log_fidelity=verified without any invented line,
# the device run log, and byte-for-byte determinism.
. tests/cli/lib.sh

PFX='^\[[A-Z]+\] [A-Z]+\([0-9]+,[a-z_0-9]+\):[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9:]{8}\.[0-9]{3}\.[0-9]{3} '
DPFX='^\[(INFO|WARNING)\] HCCL\([0-9]+,aicpu_scheduler\):[0-9-]{10}-[0-9:]{8}\.[0-9]{3}\.[0-9]{3} \[[a-z_]+\.cc:[0-9]+\] \[[0-9]+\]'
W1="${DPFX}\[HcclCommAicpu\]\[WaitFinishWhileLoop\]Current state\. devId:-?[0-9]+ sqid:-?[0-9]+, head:[0-9]+, tail:[0-9]+, group\[[^]]*\] tag\[[^]]*\]\$"
C1="${DPFX}AicpuComm: group\[[^]]*\], status\[(inExec|unExec)\], op\[tag: [^,]*, newTag: [^,]*, index: [0-9]+\], aicpuCoreNum\[-?[0-9]+\]\$"
C2="${DPFX}In Execution group num\[-?[0-9]+\], total group num\[[0-9]+\], bigger than Aicpu cores num\[-?[0-9]+\]\. Aicpu core being fully utilized may cause tasks to get stuck, and it is necessary to reduce the num of comm\.\$"
D1="${DPFX}RunAicpuRpcSrvLaunchV2 KFCTask task 0x[0-9a-f]+, context 0x[0-9a-f]+, tilingData 0x[0-9a-f]+\$"
D13="${DPFX}end RunAicpuRpcSrvLaunchV2\$"
L1="${PFX}\[hccl_communicator_host\.cc:[0-9]+\] \[[0-9]+\]AicpuKfcTilingDataLaunchIn profName\[allreduceAicpuKernel\] tag\[AllReduce_[^]]+\] kfcOpStreamId\[-?[0-9]+\] mainStreamId\[[0-9]+\] kfcStreamId\[-?[0-9]+\] isCapture\[-?[0-9]+\] mode\[-?[0-9]+\] \$"
CCE='^\[INFO\] CCECPU\([0-9]+,aicpu_scheduler\):[0-9-]{10}-[0-9:]{8}\.[0-9]{3}\.[0-9]{3} \[[a-z_]+\.cpp:[0-9]+\]\[[A-Za-z]+\]\[tid:[0-9]+\] '
KFC="${CCE}kfc task, streamId\[[0-9]+\], taskId\[[0-9]+\]\.\$"
BEGIN="${CCE}Begin to ExecuteTsKernelTask, mailboxId\[[0-9]+\], serialNo\[[0-9]+\], streamId\[[0-9]+\], taskId\[[0-9]+\], dataDumpEnableMode\[[0-9]+\], kernelType\[2\], subeventId\[[0-9]+\]\.\$"
END="${CCE}End send ack to Ts, kernelType\[2\], deviceId\[[0-9]+\], subevent_id\[[0-9]+\], mailboxId\[[0-9]+\], serialNo\[[0-9]+\], streamId\[[0-9]+\], taskId\[[0-9]+\], result\[-?[0-9]+\], originResult\[-?[0-9]+\], status\[-?[0-9]+\]\.\$"
R3="${DPFX}\[LaunchTask\]\[WaitLaunchWhileLoop\]Current state\. sqid:-?[0-9]+, head:[0-9]+, tail:[0-9]+, cnt:[0-9]+\$"

t_ok "help simulate shows --log-fidelity" sh -c "$HANGDX help simulate | grep -q -- '--log-fidelity F'"
t_exit 2 "bad --log-fidelity" $HANGDX simulate -q --preset healthy --log-fidelity nope

$HANGDX simulate -q --preset reference --log-fidelity verified -o "$T/v" >/dev/null 2>&1
$HANGDX simulate -q --preset reference --log-fidelity verified -o "$T/v2" >/dev/null 2>&1
$HANGDX simulate -q --preset reference -o "$T/full" >/dev/null 2>&1
$HANGDX simulate -q --preset reference --set communicators=5 --log-fidelity verified -o "$T/ok" >/dev/null 2>&1
dev0() { echo "$1"/rank-0/ascend/log/debug/device-0/device-*.log; }
plog0() { echo "$1"/rank-0/ascend/log/debug/plog/plog-*.log; }

# the simulations above must have written their logs: the checks below
# that a line is absent would otherwise pass on nothing
t_ok "verified, full and 5 communicators: host and device logs written" sh -c "
	for d in $T/v $T/full $T/ok; do
		for f in \$d/rank-0/ascend/log/debug/plog/plog-*.log \$d/rank-0/ascend/log/debug/device-0/device-*.log; do
			test -s \$f || exit 1
		done
	done"
t_ok "verified: same seed, same bytes" diff -r "$T/v" "$T/v2"
for m in 'kernel start' 'kernel end' 'KernelLaunch:' 'execute kernel, op name' \
	'set by default to \[AI_CPU\]' 'set by default to \[L' 'Init:open device' \
	'aicpu scheduler start' 'Entry-HcclAllReduce' 'WaitRtsqAvailable' \
	'KFC timeout\.\.\[' 'is set, value MaxCnt'; do
	t_ok "verified: no invented '$m'" absent "$m" "$T/v" "$T/ok"
done
t_ok "full: the invented kernel start line is kept" grep -Eq 'Orchestrate\]kernel start, tag\[[^]]+\], index\[[0-9]+\], streamId:[0-9]+, core\[[0-9]+\]\.$' $(dev0 "$T/full")
t_ok "full: the invented kernel end line is kept" grep -q 'Orchestrate\]kernel end, ' $(dev0 "$T/full")

t_ok "W1 in its real shape" grep -Eq "$W1" $(dev0 "$T/v")
t_ok "C1 in its real shape" grep -Eq "$C1" $(dev0 "$T/v")
t_ok "C2 in its real shape, a warning" sh -c "grep -E '$C2' $(dev0 "$T/v") | grep -q '^\[WARNING\]'"
t_ok "D1 in its real shape" grep -Eq "$D1" $(dev0 "$T/v")
t_ok "D13 in its real shape (ops that complete)" grep -Eq "$D13" $(dev0 "$T/ok")
t_ok "L1 in its real shape, trailing space" grep -Eq "$L1" $(plog0 "$T/v")
t_ok "CCECPU kfc task line" grep -Eq "$KFC" $(dev0 "$T/v")
t_ok "CCECPU begin and end of the AICPU op" sh -c "grep -Eq '$BEGIN' $(dev0 "$T/ok") && grep -Eq '$END' $(dev0 "$T/ok")"
t_ok "every HCCL device line keeps the prefix grammar" sh -c "grep -Eq '^\[[A-Z]+\] HCCL\(' $(dev0 "$T/v") && ! grep -E '^\[[A-Z]+\] HCCL\(' $(dev0 "$T/v") | grep -Ev '^\[[A-Z]+\] HCCL\([0-9]+,aicpu_scheduler\):[0-9-]{10}-[0-9:]{8}\.[0-9]{3}\.[0-9]{3} \[[a-z_]+\.cc:[0-9]+\] \[[0-9]+\]'"
t_ok "env: real retry and expansion-mode echo" sh -c "
grep -q '\[HCCL_ENV\]\[ParseRetryEnable\] HCCL_OP_RETRY_ENABLE set by environment variable to \[L0:1,L1:1,L2:0\]\.\$' $(plog0 "$T/v") &&
grep -q '\[HCCL_ENV\] HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is \[1\], HoldTime is \[5000\]ms, IntervalTime is \[1000\]ms\$' $(plog0 "$T/v") &&
grep -q '\[HCCL_ENV\] environmental variable HCCL_OP_EXPANSION_MODE is \[AI_CPU\], aicpuUnfold\[1\], aivMode\[0\], enableFfts\[0\], aicpuCacheEnable\[1\]\$' $(plog0 "$T/v") &&
grep -q 'Aicpu schedule start successfully, LD_LIBRARY_PATH=' $(dev0 "$T/v")"
t_ok "AICPU block header before the four lines" grep -q '\[TaskExecStage\]\[Timeout\]\[AICPU\]Task from HCCL run failed\.$' $(plog0 "$T/v")

# C1 once per open communicator, inExec for the six that hold the cores
t_ok "C1: 14 communicators, 6 inExec, after the first failing kernel" python3 -c "
import glob,re
l=[x for x in open(glob.glob('$T/v/rank-0/ascend/log/debug/device-0/*.log')[0]) if 'AicpuComm: group[' in x][:14]
st=[re.search(r'status\[(\w+)\]',x).group(1) for x in l]
assert len(l)==14 and st.count('inExec')==6, st
assert len({re.search(r'group\[([^]]*)\]',x).group(1) for x in l})==14"
# W1: every 30 s per kernel, the first 30 s after its SQEs were written
t_ok "W1: 30 s apart, the first 30 s after D10" python3 -c "
import glob,re
from datetime import datetime
def ts(x): return datetime.strptime(x.split(':',1)[1][:23],'%Y-%m-%d-%H:%M:%S.%f')
d10={}; w={}
for x in open(glob.glob('$T/v/rank-0/ascend/log/debug/device-0/*.log')[0]):
    m=re.search(r'\] \[(\d+)\]',x)
    if 'launch hccl op task success' in x: d10[m.group(1)]=ts(x)
    if 'WaitFinishWhileLoop]Current state' in x: w.setdefault(m.group(1),[]).append(ts(x))
assert len(w)==6, w.keys()
for t,v in w.items():
    assert 30 <= (v[0]-d10[t]).total_seconds() < 31, (t, v[0], d10[t])
    assert all(29.99 < (b-a).total_seconds() < 30.01 for a,b in zip(v,v[1:]))"

# the device run log: run-level device lines at every log level
$HANGDX simulate -q --preset reference --set log_level=error -o "$T/err" >/dev/null 2>&1
t_ok "device run log exists" sh -c "ls $T/err/rank-1/ascend/log/run/device-1/device-*_*.log"
t_ok "device run log holds W1 at log_level=error" grep -Eq "$W1" $T/err/rank-0/ascend/log/run/device-0/device-*.log
t_ok "device run log holds C1 at log_level=error" grep -Eq "$C1" $T/err/rank-0/ascend/log/run/device-0/device-*.log
t_ok "debug device log has no INFO at log_level=error" absent '^\[INFO\]' $(dev0 "$T/err")
t_ok "device run log holds no ERROR line" absent '^\[ERROR\]' $T/err/rank-0/ascend/log/run/device-0/device-*.log
$HANGDX simulate -q --preset reference --layout node -o "$T/node" >/dev/null 2>&1
t_ok "node layout: run/device-D under the node" sh -c "ls $T/node/host-0/ascend/log/run/device-0/device-*_*.log $T/node/host-0/ascend/log/run/device-1/device-*_*.log"
$HANGDX simulate -q --preset reference --layout flat -o "$T/flat" >/dev/null 2>&1
t_ok "flat layout: no run directory, W1 in the device file" sh -c "test ! -d $T/flat/logs/run && grep -Eq '$W1' $T/flat/logs/device-100003_*.log"

# Rtsq full: R3 every 30 s while the kernel cannot write its SQEs
$HANGDX simulate -q --preset reference --set sq_depth=4 --log-fidelity verified -o "$T/sq" >/dev/null 2>&1
t_ok "R3 in its real shape while M_c is full" grep -Eq "$R3" $(dev0 "$T/sq")
R1='\[ERROR\] HCCL\([0-9]+,aicpu_scheduler\):[0-9:.-]+ \[dispatcher_aicpu\.cc:[0-9]+\] \[[0-9]+\]Rtsq full, timeout [0-9]+s\. curhead:[0-9]+, sqId:-?[0-9]+$'
$HANGDX simulate -q --preset reference --set sq_depth=4 --set communicators=1 --set retry=off -o "$T/sq1" >/dev/null 2>&1
t_ok "R1 in its real shape when the SQ stays full" grep -Eq "$R1" $T/sq1/rank-1/ascend/log/debug/device-1/device-*.log
t_ok "Rtsq full exit: C1, then D16 with ret 20" sh -c "grep -q 'AicpuComm: group' $T/sq1/rank-1/ascend/log/debug/device-1/device-*.log && grep -q 'run AicpuRunRpcServerV2 failed. ret\[20\]\$' $T/sq1/rank-1/ascend/log/debug/device-1/device-*.log"

t_done
