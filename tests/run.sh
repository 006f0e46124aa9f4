#!/bin/sh
# tests/run.sh - runs every test of the three levels (unit programs under
# $B/tests, CLI and golden scripts under tests/cli) and ends with the line
# "N passed, N failed, N skipped, N todo" (also written to $B/summary.txt).  Each
# program or script speaks TAP: "ok", "not ok", and "ok ... # SKIP reason"
# for a check that could not run here (counted apart, never as passed).
# Under CI (CI=true) a check that needs a missing tool fails instead
# (tests/cli/lib.sh, t_missing).  "not ok ... # TODO reason" is a known
# failure a documented list keeps (tests/cli/lib.sh, t_todo): counted as
# todo, apart from the failures.  A program or script that exits non-zero
# without a failed check, or reports no check at all, counts one failure.
HANGDX=${HANGDX:-./hangdx}
B=${B:-build}
export HANGDX
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
export CMOCKA_MESSAGE_OUTPUT=tap
pass=0
fail=0
skip=0
todo=0
log=$B/test.log
mkdir -p "$B"
: > "$log"

count() {
	name=$1
	out=$2
	status=$3
	# a last line without its newline must not join what is added below
	[ -z "$(tail -c 1 "$out")" ] || echo >> "$out"
	# a TAP skip: "ok N[ - desc] # SKIP reason", the directive in any case
	# (cmocka writes "not ok N # SKIP name")
	s_ok=$(grep -ci '^ok [^#]*# *skip' "$out")
	s_not=$(grep -ci '^not ok [^#]*# *skip' "$out")
	s=$((s_ok + s_not))
	# a known failure: "not ok N[ - desc] # TODO reason"
	k=$(grep -ci '^not ok [^#]*# *todo' "$out")
	p=$(($(grep -c '^ok ' "$out") - s_ok))
	f=$(($(grep -c '^not ok ' "$out") - s_not - k))
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $status" >> "$out"
	elif [ $((p + f + s + k)) -eq 0 ]; then
		f=1
		echo "not ok - $name reported no check" >> "$out"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + s))
	todo=$((todo + k))
	printf '%-40s %4d passed %4d failed %4d skipped %4d todo\n' "$name" "$p" "$f" "$s" "$k"
	if [ "$f" -ne 0 ]; then
		grep -v -i '^not ok [^#]*# *\(skip\|todo\)' "$out" | grep -A3 '^not ok' | sed 's/^/    /'
	fi
	if [ "$k" -ne 0 ]; then
		grep -i '^not ok [^#]*# *todo' "$out" | sed 's/^/    /'
	fi
	if [ "$s" -ne 0 ]; then
		grep -i '^\(not \)*ok [^#]*# *skip' "$out" | sed 's/^/    /'
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
if [ -f "$B/corpus-score.md" ]; then
	echo "real-log corpus (tests/field, docs/CORPUS.md):"
	sed 's/^/  /' "$B/corpus-score.md"
fi
echo "full log: $log"
echo "$pass passed, $fail failed, $skip skipped, $todo todo" | tee "$B/summary.txt"
[ "$fail" -eq 0 ]
