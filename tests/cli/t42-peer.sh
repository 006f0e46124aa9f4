#!/bin/sh
# t42-peer.sh - the peer's test suite: on every raw-log case of Ascend
# FaultDiag's fixtures (tests/data/peer/ascend-fd, EXPECTED.tsv) the
# expectation is the peer's answer: the root device its own tests assert,
# or where they assert none, the one ascend-fd 7.3.0 reports.  Where it
# lists several devices (a cycle) hangdx must name one of them; "unknown"
# is ascend-fd's "Unknown Device".  Where hangdx disagrees, the case is in
# DISAGREE.tsv with the reasoning, and is reported as a known disagreement
# ("not ok ... # TODO"); an unlisted disagreement fails, and so does a
# listed case that now agrees or that no check runs.  Cases that hold only
# ascend-fd's intermediate JSON (rc_diag/rc_1xx/ascend-rc-parser.json) are
# not logs and are not run.
. tests/cli/lib.sh
P=$DATA/peer/ascend-fd
DISAGREE=${DISAGREE:-$P/DISAGREE.tsv}
# ascend-fd read the fixtures under the worker names of its own runs
ln -s "$P/st_cqe_testcase" "$T/worker-9"
ln -s "$P/st_testcase" "$T/worker-0"

root() { # root DIR CASE-PATHS...: "node device" of the diagnosis, or "unknown"
	dir=$1
	shift
	(cd "$dir" && $HANGDX diagnose --json "$@" 2>/dev/null) | python3 -c '
import json, sys, os
d = json.load(sys.stdin)
r = d.get("root")
if not r or r["rank"] < 0:
    print("unknown")
else:
    print("%s device-%d" % (os.path.basename(r["node"] or "?"), r["device"]))'
}

listed() { # listed CASE: hangdx's answer DISAGREE.tsv records for CASE
	awk -F '\t' -v c="$1" '!/^#/ && $1 == c { print $3 }' "$DISAGREE"
}

used=""
ncase=0
nagree=0
check() { # check CASE "PEER|ALSO" DIR PATHS...
	case_=$1
	want=$2
	dir=$3
	shift 3
	used="$used $case_"
	ncase=$((ncase + 1))
	got=$(root "$dir" "$@")
	known=$(listed "$case_")
	desc="$case_: $got (ascend-fd: $want)"
	if echo "$want" | tr '|' '\n' | grep -qx -- "$got"; then
		if [ -n "$known" ]; then
			t_ok "$desc; listed in DISAGREE.tsv but agrees: remove the line" false
		else
			nagree=$((nagree + 1))
			t_ok "$desc" true
		fi
	elif [ -n "$known" ] && [ "$known" = "$got" ]; then
		t_todo "$desc" "known disagreement (DISAGREE.tsv)"
	elif [ -n "$known" ]; then
		t_ok "$desc; DISAGREE.tsv lists hangdx as '$known'" false
	else
		t_ok "$desc; a disagreement not in DISAGREE.tsv" false
	fi
}

# asserted by ascend-fd's tests (EXPECTED.tsv, asserted_root_cause_device)
check st_aicpu_notify "worker-0 device-11" "$P" st_aicpu_notify_testcase/worker-0 st_aicpu_notify_testcase/worker-1
check st_event_timeout "worker-1 device-0|worker-0 device-0" "$P" st_event_timeout_testcase/worker-0 st_event_timeout_testcase/worker-1
check st_event_timeout_w1 "worker-1 device-0" "$P" st_event_timeout_testcase/worker-1
t_ok "st_event_timeout_w1: hangdx's chain ends at worker-1 device 0" sh -c "
cd $P && $HANGDX diagnose --json st_event_timeout_testcase/worker-1 | grep -q 'device 0): link set-up failed'"
check st_transport_timeout "worker-1 device-1" "$P" st_transport_timeout_testcase/worker-0 st_transport_timeout_testcase/worker-1
check st_transport_init "worker-0 device-0" "$P" st_transport_init_testcase/worker-0 st_transport_init_testcase/worker-1 st_transport_init_testcase/worker-2
check st_transport_init_w3 "unknown" "$P" st_transport_init_testcase/worker-3
check rc_122 "w_1 device-1" "$P" rc_diag/rc_122
check rc_123 "w_1 device-1" "$P" rc_diag/rc_123
check rc_remote_local "worker-0 device-2" "$P" rc_diag/rc_remote_local
check rc_118 "unknown" "$P" rc_diag/rc_118
# not asserted by its tests: the root devices of ascend-fd 7.3.0's own
# report on the case (_ascend_fd_reports/CASE.json, Root_Cluster)
reported() { # reported CASE: "A|B" of the report's root_cause_device
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["Root_Cluster"]["root_cause_device"]
print("|".join("unknown" if d == "Unknown Device" else d for d in r))' "$P/_ascend_fd_reports/$1.json"
}
check st_cqe "$(reported st_cqe)" "$T" worker-9
check st_testcase "$(reported st_testcase)" "$T" worker-0
t_ok "st_testcase: a failure is found" sh -c "cd $T && $HANGDX diagnose worker-0 >/dev/null 2>&1; test \$? -eq 1"
for c in init_failed_with_timeout rc_remote_cycle_indegree_greater_than_2 rc_remote_cycle_indegree_only_1; do
	check $c "$(reported $c)" "$P" rc_diag/$c
done

# every listed case is one that a check above runs
for c in $(awk -F '\t' '!/^#/ && NF { print $1 }' "$DISAGREE"); do
	t_ok "DISAGREE.tsv: $c is a case of this test" sh -c "echo '$used' | tr ' ' '\n' | grep -qx '$c'"
done
# the counts the docs give are these
t_ok "docs/TESTING.md: $ncase cases, $nagree agree" grep -q "^$ncase cases, $nagree agree" docs/TESTING.md
t_ok "docs/DIAGNOSIS.md: on $nagree of $ncase cases" sh -c "tr '\n' ' ' < docs/DIAGNOSIS.md | grep -q 'on $nagree of $ncase cases'"
t_done
