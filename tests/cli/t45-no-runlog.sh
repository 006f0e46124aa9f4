#!/bin/sh
# t45-no-runlog.sh - the reference incident at 2, 8, 64 and 256 ranks with
# 1 to 3 roots, log level error, verified lines, the device run log
# removed: the inferred AICPU exhaustion deadlock, exactly truth's roots,
# the first failing rank by corrected time (tests/norunlog.py).
. tests/cli/lib.sh

python3 tests/norunlog.py "$HANGDX" "$T/nr" > "$T/nr.tap" 2>&1
rc=$?
grep -v '^ok' "$T/nr.tap" | sed 's/^/# /'
# norunlog.py exits 1 when a case fails (and so does a crash of it)
t_ok "no device run log: every case inferred, truth's roots (exit $rc)" \
	sh -c "test $rc -eq 0 && ! grep -q '^not ok' $T/nr.tap"
t_ok "no device run log: 2, 8, 64 and 256 ranks, 1 to 3 roots, 11 cases" sh -c "
	test \$(grep -c '^ok' $T/nr.tap) -eq 11 &&
	for r in 2 8 64 256; do grep -q \"^ok .* ref-r\$r-\" $T/nr.tap || exit 1; done &&
	grep -q '^ok .* ref-r256-[0-9]*-[0-9]*-[0-9]*-' $T/nr.tap &&
	grep -q '^ok .* ref-r64-[0-9]*\$' $T/nr.tap"

# the knob the cases use: the AICPU operator on the ranks listed, checked
$HANGDX simulate -q --no-trace --preset reference --set ranks=8 --set aicpu_ranks=2,5 \
	-o "$T/k" > /dev/null 2>&1
t_ok "--set aicpu_ranks=2,5 at 8 ranks: truth's roots are 2 and 5" python3 -c "
import json; t=json.load(open('$T/k/truth.json'))
assert t['roots']==[2, 5] and t['root_cause']=='aicpu_exhaustion_deadlock', (t['roots'], t['root_cause'])"
for bad in "2,5:but the cluster has 2 ranks" "1,x:expected rank numbers" "1,1:listed twice" "-1:expected rank numbers"; do
	v=${bad%%:*}
	t_exit 2 "--set aicpu_ranks=$v: a usage error" $HANGDX simulate -q --no-logs --no-trace \
		--preset reference --set aicpu_ranks=$v -o "$T/bad"
	$HANGDX simulate -q --no-logs --no-trace --preset reference --set aicpu_ranks=$v \
		-o "$T/bad" 2> "$T/bad.err" > /dev/null
	t_ok "--set aicpu_ranks=$v: says why" grep -q -- "${bad#*:}" "$T/bad.err"
done
t_exit 2 "--set aicpu_ranks on a scenario without an aicpu step" $HANGDX simulate -q --no-logs \
	--no-trace --preset rank-death --set aicpu_ranks=1 -o "$T/bad"

t_done
