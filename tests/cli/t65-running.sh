#!/bin/sh
# t65-running.sh - a job still running, before HCCL_EXEC_TIMEOUT: the
# logs end a minute or two after the cycle closed.  Every AICPU core of a
# rank held by a resident HCCL kernel whose main stream has not moved
# between two of its 30-second status lines is the AICPU exhaustion
# deadlock, inferred, with the ranks so held as roots (truth.json's roots).
# A rank whose pool is full too but one of whose kernels started its
# collective further than a peer's waits on that peer: a victim, not a root
# (asymmetric roots).  Twins that must decide otherwise: one status line a
# kernel only (45 s), and a job below the limit (communicators=5).
. tests/cli/lib.sh

cd "$T" || exit 1
# field NAME < JSON: one field of the diagnosis
field() {
	python3 -c 'import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print(json.dumps(v))' "$1"
}
truth_roots() {
	python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["roots"]))' "$1"
}
running() {     # NAME SECONDS SIMULATE-ARGS...: the bundle cut at SECONDS
	_b=$1 _s=$2
	shift 2
	"$HANGDX" simulate --no-trace -o "$_b" "$@" > /dev/null 2>&1
	mv "$_b/truth.json" "$_b.truth.json"
	rm -f "$_b/waitgraph.dot"
	python3 "$ROOT/tests/bundle_edit.py" upto "$_b" "$_s"
	"$HANGDX" diagnose --json "$_b" > "$_b.json" 2> /dev/null
}

running ref65 65 --preset reference
t_ok "65 s in: the AICPU exhaustion deadlock" \
	test "$(field category < ref65.json)" = '"aicpu_exhaustion_deadlock"'
t_ok "... inferred, not proven (no stream dump before the timeout)" \
	test "$(field proven < ref65.json)" = false
t_ok "... no error line in the logs yet" \
	sh -c '! grep -q "^\[ERROR\]" -r ref65'
t_ok "... the roots are the ranks whose cores are held ($(truth_roots ref65.truth.json))" \
	test "$(field roots < ref65.json)" = "$(truth_roots ref65.truth.json)"
"$HANGDX" diagnose ref65 > ref65.txt 2>&1
t_ok "... the report cites a status line of the device run log" \
	grep -q "run/device-0/.*\.log:[0-9]" ref65.txt

running ref4 65 --preset reference --set ranks=4
t_ok "4 ranks, 65 s in: the roots of truth.json ($(truth_roots ref4.truth.json))" \
	test "$(field roots < ref4.json)" = "$(truth_roots ref4.truth.json)"

python3 -c "
import sys; sys.path.insert(0, '$ROOT/tests'); import matrix
open('asym.yaml', 'w').write(matrix.asymmetric(8, [3, 5], 101, comms=14))"
running asym 65 asym.yaml
t_ok "8 ranks, roots 3 and 5 only, 65 s in: the roots of truth.json, no victim ($(truth_roots asym.truth.json))" \
	test "$(field roots < asym.json)" = "$(truth_roots asym.truth.json)"

running ref45 45 --preset reference
t_ok "45 s in (one status line a kernel): not a deadlock yet" \
	test "$(field category < ref45.json)" != '"aicpu_exhaustion_deadlock"'

running ok5 65 --preset reference --set communicators=5
t_ok "5 communicators (below the limit, completes): no deadlock" \
	test "$(field category < ok5.json)" != '"aicpu_exhaustion_deadlock"'
t_ok "... and no hang" test "$(field hang < ok5.json)" != true
t_done
