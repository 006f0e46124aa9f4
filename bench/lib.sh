# bench/lib.sh - the limits docs/PERFORMANCE.md states, checked by the
# benchmark that measures them (sourced by bench/*.sh).  `limit DESC VALUE
# OP BOUND` prints "PASS DESC: VALUE (stated: OP BOUND)" or the same with
# FAIL (a missing or non-numeric VALUE fails too); `limits_done` ends the
# script with status 1 when any limit failed.  OP is <=, <, >= or >.  The
# machine may be shared: a FAIL under load is a number to look at again,
# not proof of a regression, which is why `make bench` is not `make test`.
_bench_fail=0
limit() {
	if awk -v v="$2" -v op="$3" -v b="$4" 'BEGIN {
		if (v !~ /^[0-9.]+([eE][-+]?[0-9]+)?$/) exit 1
		v += 0; b += 0
		if (op == "<=") exit !(v <= b)
		if (op == "<") exit !(v < b)
		if (op == ">=") exit !(v >= b)
		if (op == ">") exit !(v > b)
		exit 1 }'; then
		printf '  PASS %s: %s (stated: %s %s)\n' "$1" "$2" "$3" "$4"
	else
		printf '  FAIL %s: %s (stated: %s %s)\n' "$1" "${2:-missing}" "$3" "$4"
		_bench_fail=1
	fi
}
limits_done() {
	[ "$_bench_fail" -eq 0 ] && return 0
	echo "  FAIL: a limit docs/PERFORMANCE.md states is not met"
	exit 1
}
