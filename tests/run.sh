#!/bin/sh
# tests/run.sh - runs every test of the three levels (unit programs under
# $B/tests, CLI and golden scripts under tests/cli) and ends with the line
# "N passed, N failed".  Each program or script speaks TAP: "ok" / "not ok".
HANGDX=${HANGDX:-./hangdx}
B=${B:-build}
export HANGDX
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
export CMOCKA_MESSAGE_OUTPUT=tap
pass=0
fail=0
log=$B/test.log
mkdir -p "$B"
: > "$log"

count() {
	name=$1
	out=$2
	status=$3
	p=$(grep -c '^ok ' "$out")
	f=$(grep -c '^not ok ' "$out")
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $status" >> "$out"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	printf '%-40s %4d passed %4d failed\n' "$name" "$p" "$f"
	if [ "$f" -ne 0 ]; then
		grep -A3 '^not ok' "$out" | sed 's/^/    /'
	fi
	cat "$out" >> "$log"
}

tmp=$(mktemp)
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	"$t" > "$tmp" 2>&1
	count "unit/$(basename "$t")" "$tmp" $?
done
for s in tests/cli/t*.sh; do
	[ -f "$s" ] || continue
	sh "$s" > "$tmp" 2>&1
	count "cli/$(basename "$s" .sh)" "$tmp" $?
done
rm -f "$tmp"
echo "full log: $log"
echo "$pass passed, $fail failed" | tee "$B/summary.txt"
[ "$fail" -eq 0 ]
