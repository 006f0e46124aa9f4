#!/bin/sh
# t42-peer.sh - the peer's test suite: on every raw-log case of Ascend
# FaultDiag's fixtures (tests/data/peer/ascend-fd, EXPECTED.tsv),
# hangdx names the same root device.  Where ascend-fd lists several devices
# (a cycle), hangdx names one of them; where it says "Unknown Device",
# hangdx gives no root rank either.  Cases that hold only ascend-fd's own
# intermediate JSON (rc_diag/rc_1xx/ascend-rc-parser.json) are not logs and
# are not run.
. tests/cli/lib.sh
P=$DATA/peer/ascend-fd

root() { # root CASE-PATHS...: "node device" of the diagnosis, or "unknown"
	(cd "$P" && $HANGDX diagnose --json "$@" 2>/dev/null) | python3 -c '
import json, sys, os
d = json.load(sys.stdin)
r = d.get("root")
if not r or r["rank"] < 0:
    print("unknown")
else:
    print("%s device-%d" % (os.path.basename(r["node"] or "?"), r["device"]))'
}

check() { # check DESC "EXPECTED|ALSO" PATHS...
	desc=$1
	want=$2
	shift 2
	got=$(root "$@")
	t_ok "$desc: $got (ascend-fd: $want)" sh -c "echo '$want' | tr '|' '\n' | grep -qx '$got'"
}

check "st_aicpu_notify" "worker-0 device-11" st_aicpu_notify_testcase/worker-0 st_aicpu_notify_testcase/worker-1
check "st_event_timeout (cycle)" "worker-1 device-0|worker-0 device-0" st_event_timeout_testcase/worker-0 st_event_timeout_testcase/worker-1
# ascend-fd names the reporting device here (its chain goes on to 124.0.0.21,
# an address outside the logs) but answers "Unknown Device" in the alike
# transport-init case below.  hangdx answers both the same way: the far end
# is not in the logs, so the root device is unknown; its chain stops at
# worker-1 device-0 and says which peer is missing.
check "st_event_timeout worker-1 only (see above)" "unknown" st_event_timeout_testcase/worker-1
t_ok "st_event_timeout worker-1 only: chain ends at worker-1 device 0" sh -c "
cd $P && $HANGDX diagnose --json st_event_timeout_testcase/worker-1 | grep -q 'device 0): link set-up failed'"
check "st_transport_timeout" "worker-1 device-1" st_transport_timeout_testcase/worker-0 st_transport_timeout_testcase/worker-1
check "st_transport_init" "worker-0 device-0" st_transport_init_testcase/worker-0 st_transport_init_testcase/worker-1 st_transport_init_testcase/worker-2
check "st_transport_init worker-3 only" "unknown" st_transport_init_testcase/worker-3
check "st_cqe (no node in its paths)" "? device-5|? device-4" st_cqe_testcase
check "rc_122 (smallest op index)" "w_1 device-1" rc_diag/rc_122
check "rc_123 (rarest tag)" "w_1 device-1" rc_diag/rc_123
check "rc_remote_local" "worker-0 device-2" rc_diag/rc_remote_local
check "rc_118 (init failed, no timeout)" "unknown" rc_diag/rc_118
check "remote cycle, indegree > 2" "unknown" rc_diag/rc_remote_cycle_indegree_greater_than_2
check "remote cycle, indegree 1" "unknown" rc_diag/rc_remote_cycle_indegree_only_1
t_ok "st_testcase: a failure is found" sh -c "cd $P && $HANGDX diagnose st_testcase >/dev/null 2>&1; test \$? -eq 1"
t_done
