#!/bin/sh
# t45-wait-cycle.sh - circular waits without an AICPU pool in them, each
# checked against the truth.json its simulation writes: a cycle of user
# notifies on one device (tests/scenarios/notify-cycle.yaml) is a proven
# deadlock of category wait_cycle rooted on that rank, from the logs and
# from facts alone; a cross-communicator order inversion between two ranks
# (tests/scenarios/order-inversion.yaml) is a wait_cycle hang whose chain
# goes round both ranks and names no single root (DIAGNOSIS.md); a ring of
# notifies longer than the chain shows is inferred, never proven.
. tests/cli/lib.sh

S=$ROOT/tests/scenarios
$HANGDX simulate -q --no-trace "$S/notify-cycle.yaml" -o "$T/nc" > /dev/null 2>&1
t_ok "notify cycle: truth.json has a wait_cycle deadlock on rank 0" python3 -c "
import json; t = json.load(open('$T/nc/truth.json'))
assert t['outcome'] == 'deadlock' and t['root_cause'] == 'wait_cycle', t['root_cause']
assert {c['node']['rank'] for c in t['cycle']} == {0} and t['roots'] == [0], t['roots']"
$HANGDX diagnose --json "$T/nc" > "$T/nc.json" 2> /dev/null
# the expectation is truth.json's: its category, its roots, the rank of its
# cycle, its first error's rank, and the tasks of its cycle in the chain
cat > "$T/truth.py" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
want = {(c['node']['rank'], c['node']['stream_id'], c['node']['task_id'])
        for c in t['cycle']}
assert d['verdict'] == 'deadlock' and d['proven'] is True, (d['verdict'], d['proven'])
assert d['category'] == t['root_cause'], (d['category'], t['root_cause'])
assert d['roots'] == t['roots'], (d['roots'], t['roots'])
assert d['root_rank'] == t['cycle'][0]['node']['rank'], d['root_rank']
assert d['first_failing_rank'] == t['first_error']['rank'], d['first_failing_rank']
assert len(sys.argv) > 3 or \
    {(h['rank'], h['stream_id'], h['task_id']) for h in d['chain']} == want, d['chain']
PY
t_ok "notify cycle: deadlock proven, category, roots, first rank and chain as truth" \
	python3 "$T/truth.py" "$T/nc/truth.json" "$T/nc.json"
t_ok "notify cycle: text names the circular wait, not the AICPU pool" sh -c "
$HANGDX diagnose $T/nc > $T/nc.txt; test \$? -eq 1 &&
grep -q '^hangdx: DEADLOCK — circular wait (proven)' $T/nc.txt &&
grep -q 'a circular wait of 4' $T/nc.txt && ! grep -q AICPU $T/nc.txt"
# from the facts of each rank, the logs gone: the facts of rank 0 say cycle
$HANGDX facts "$T/nc/rank-0" -o "$T/nc0.facts" > /dev/null 2>&1
$HANGDX facts "$T/nc/rank-1" -o "$T/nc1.facts" > /dev/null 2>&1
mv "$T/nc" "$T/nc-away"
$HANGDX diagnose --json --facts "$T/nc0.facts" --facts "$T/nc1.facts" \
	> "$T/ncf.json" 2> /dev/null
mv "$T/nc-away" "$T/nc"
t_ok "notify cycle from facts alone: wait_cycle, roots and first rank as truth" \
	python3 "$T/truth.py" "$T/nc/truth.json" "$T/ncf.json" nochain
# without the notify ids (verified lines only) no cycle can be seen
$HANGDX simulate -q --no-trace "$S/notify-cycle.yaml" --log-fidelity verified \
	-o "$T/ncv" > /dev/null 2>&1
$HANGDX diagnose --json "$T/ncv" > "$T/ncv.json" 2> /dev/null
t_ok "notify cycle without notify ids: no deadlock claimed" python3 -c "
import json; d = json.load(open('$T/ncv.json'))
assert d['verdict'] == 'hang' and not d['proven'], (d['verdict'], d['proven'])
assert d['category'] not in ('wait_cycle', 'aicpu_deadlock'), d['category']"

# the order inversion, in HOST and in AI_CPU expansion mode (retry off:
# no kernel stays on a core)
for mode in HOST AI_CPU; do
	$HANGDX simulate -q --no-trace "$S/order-inversion.yaml" --set mode=$mode \
		-o "$T/oi$mode" > /dev/null 2>&1
	$HANGDX diagnose --json "$T/oi$mode" > "$T/oi$mode.json" 2> /dev/null
	t_ok "order inversion ($mode): truth.json has a wait_cycle across ranks 0 and 1" \
		python3 -c "
import json; t = json.load(open('$T/oi$mode/truth.json'))
assert t['outcome'] == 'deadlock' and t['root_cause'] == 'wait_cycle', t['root_cause']
assert {c['node']['rank'] for c in t['cycle']} == {0, 1}, t['cycle']"
	t_ok "order inversion ($mode): a wait_cycle hang round both ranks, no single root" \
		python3 -c "
import json
t = json.load(open('$T/oi$mode/truth.json')); d = json.load(open('$T/oi$mode.json'))
assert d['verdict'] == 'hang' and d['proven'] is False, (d['verdict'], d['proven'])
assert d['category'] == t['root_cause'], (d['category'], t['root_cause'])
assert d['roots'] == [] and d['root_rank'] == -1, (d['roots'], d['root_rank'])
assert d['first_failing_rank'] == t['first_error']['rank'], d['first_failing_rank']
assert {h['rank'] for h in d['chain']} == {c['node']['rank'] for c in t['cycle']}, d['chain']
assert all(h['waits_for'] == 'remote notify' for h in d['chain']), d['chain']"
done
# a ring of notifies over N streams of rank 0 (stream i waits for notify i,
# then records notify i+1): a cycle of 2N tasks.  The chain shows at most
# 4,096 hops (HX_MAX_LIST): a cycle of 4,096 is proven, one of 4,098 only
# inferred, its assumption naming the tasks not shown
for n in 2048 2049; do
	python3 - "$n" > "$T/ring$n.yaml" <<'PY'
import sys
n = int(sys.argv[1])
print("name: notify-ring\ncluster:\n  ranks: 2\ncommunicators:\n  - name: world\nprogram:")
for i in range(n):
    print(f"  - notify_wait:   {{stream: s{i}, notify: N{i}, ranks: [0]}}")
    print(f"  - notify_record: {{stream: s{i}, notify: N{(i + 1) % n}, ranks: [0]}}")
print("  - allreduce: {stream: s0, comm: world, bytes: 1MiB}\n  - host_sync: all")
PY
	$HANGDX simulate -q --no-trace "$T/ring$n.yaml" -o "$T/ring$n" > /dev/null 2>&1
	$HANGDX diagnose --json "$T/ring$n" > "$T/ring$n.json" 2> /dev/null
	t_ok "ring of $n streams: a wait_cycle of $((2 * n)) tasks as truth, proven only when every task is shown" \
		python3 -c "
import json
t = json.load(open('$T/ring$n/truth.json')); d = json.load(open('$T/ring$n.json'))
c = len(t['cycle']); shown = min(c, 4096)
assert t['root_cause'] == 'wait_cycle' and c == 2 * $n, (t['root_cause'], c)
assert d['verdict'] == 'deadlock' and d['category'] == t['root_cause'], d['category']
assert d['roots'] == t['roots'] and len(d['chain']) == shown, (d['roots'], len(d['chain']))
assert d['proven'] is (c == shown), d['proven']
assert c == shown or 'the %d tasks of the cycle past the first %d shown' % (c - shown, shown) in d['summary'], d['summary']"
done
t_done
