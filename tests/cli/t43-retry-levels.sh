#!/bin/sh
# t43-retry-levels.sh - op retry read from the env echo in its two-level
# form: the reference incident across two servers (one rank a server) with
# HCCL_OP_RETRY_ENABLE "L1:1,L2:0", at log level error and verified lines
# only (the dumps print no notify id; the device run log shows the
# kernels): the AICPU exhaustion deadlock, proven, as truth.json says; with
# "L1:0,L2:0" it completes,
# and with retry off a slow AICPU operator is no exhaustion.
. tests/cli/lib.sh

for v in 1 0; do
	sed -e 's/^  ranks_per_node: 8$/  ranks_per_node: 1/' \
	    -e "s/HCCL_OP_RETRY_ENABLE: \"L0:1,L1:1,L2:0\"/HCCL_OP_RETRY_ENABLE: \"L1:$v,L2:0\"/" \
	    scenarios/reference.yaml > "$T/l$v.yaml"
	$HANGDX simulate -q --no-trace "$T/l$v.yaml" --log-fidelity verified \
		--set log_level=error -o "$T/l$v" > /dev/null 2>&1
	$HANGDX diagnose --json "$T/l$v" > "$T/l$v.json" 2> /dev/null
	t_ok "L1:$v,L2:0 across servers: the env echo as written, verdict and roots as truth" \
		python3 -c "
import json, glob
t = json.load(open('$T/l$v/truth.json')); d = json.load(open('$T/l$v.json'))
echo = [l for f in glob.glob('$T/l$v/**/*.log', recursive=True)
        for l in open(f, errors='replace') if 'HCCL_OP_RETRY_ENABLE set by' in l]
assert echo and all('[L1:$v,L2:0]' in l for l in echo), echo[:2]
if $v:
    assert t['outcome'] == 'deadlock' and t['root_cause'] == 'aicpu_exhaustion_deadlock', t['outcome']
    assert d['verdict'] == 'deadlock' and d['category'] == t['root_cause'], (d['verdict'], d['category'])
    assert d['roots'] == t['roots'] and d['proven'], (d['roots'], d['proven'])
else:
    assert t['outcome'] != 'deadlock', t['outcome']
    assert d['verdict'] != 'deadlock', d['verdict']"
done
# retry off: a slow AICPU operator (500 s) outlives a 60 s exec timeout;
# no kernel stays on a core, so no exhaustion is inferred (truth: failed)
sed 's/duration: 200us/duration: 500s/' scenarios/reference.yaml > "$T/slow.yaml"
$HANGDX simulate -q --no-trace "$T/slow.yaml" --set retry=off --set exec_timeout=60 \
	--log-fidelity verified --set log_level=error -o "$T/slow" > /dev/null 2>&1
$HANGDX diagnose --json "$T/slow" > "$T/slow.json" 2> /dev/null
t_ok "retry off, a slow AICPU operator: no deadlock inferred, as truth" python3 -c "
import json
t = json.load(open('$T/slow/truth.json')); d = json.load(open('$T/slow.json'))
assert t['outcome'] != 'deadlock', t['outcome']
assert d['verdict'] == 'hang' and d['category'] != 'aicpu_exhaustion_deadlock', (d['verdict'], d['category'])"
t_done
