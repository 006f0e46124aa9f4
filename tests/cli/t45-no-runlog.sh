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

t_done
