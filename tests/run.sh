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

# JOBS programs and scripts run at a time (default: the online CPUs), each
# into $B/tap/KEY.tap with its exit status in KEY.rc; lanes take them from
# one queue (mkdir claims one), and the results are counted in list order
# as each arrives, so the report reads the same whatever the order of runs
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)}
case $JOBS in '' | *[!0-9]* | 0) JOBS=1 ;; esac
tapdir=$B/tap
rm -rf "$tapdir"
mkdir -p "$tapdir"
list=""
for t in "$B"/tests/test_*; do
	[ -x "$t" ] && list="$list unit:$t"
done
for s in tests/cli/t*.sh; do
	[ -f "$s" ] && list="$list cli:$s"
done

key() {
	case $1 in
	unit:*) echo "unit-$(basename "${1#unit:}")" ;;
	*) echo "cli-$(basename "${1#cli:}" .sh)" ;;
	esac
}

run_one() {
	k=$(key "$1")
	t_start=$(date +%s)
	case $1 in
	unit:*) "${1#unit:}" > "$tapdir/$k.tap" 2>&1 < /dev/null ;;
	*) sh "${1#cli:}" > "$tapdir/$k.tap" 2>&1 < /dev/null ;;
	esac
	echo $? > "$tapdir/$k.rc.tmp"
	echo "$(($(date +%s) - t_start)) $k" > "$tapdir/$k.time"
	mv "$tapdir/$k.rc.tmp" "$tapdir/$k.rc"
}

lane() {
	for it in $list; do
		mkdir "$tapdir/.claim-$(key "$it")" 2> /dev/null || continue
		run_one "$it"
	done
}

pids=""
i=0
while [ "$i" -lt "$JOBS" ]; do
	lane &
	pids="$pids $!"
	i=$((i + 1))
done
trap 'kill $pids 2> /dev/null; exit 130' INT TERM

# alive: some lane still runs
alive() {
	for p in $pids; do
		kill -0 "$p" 2> /dev/null && return 0
	done
	return 1
}

for it in $list; do
	tk=$(key "$it")
	while [ ! -f "$tapdir/$tk.rc" ] && alive; do
		sleep 1
	done
	case $it in
	unit:*) name="unit/${tk#unit-}" ;;
	*) name="cli/${tk#cli-}" ;;
	esac
	[ -f "$tapdir/$tk.tap" ] || : > "$tapdir/$tk.tap"
	# a lane that died before the script ended leaves no status
	rc=$(cat "$tapdir/$tk.rc" 2> /dev/null || echo 99)
	count "$name" "$tapdir/$tk.tap" "$rc"
done
wait
trap - INT TERM
rm -rf "$tapdir"/.claim-*
if [ -f "$B/corpus-score.md" ]; then
	echo "real-log corpus (tests/field, docs/CORPUS.md):"
	sed 's/^/  /' "$B/corpus-score.md"
fi
# the slowest programs and scripts, wall seconds (the CI budget is 45 minutes
# for this suite three times over: plain, sanitized, part under valgrind)
cat "$tapdir"/*.time 2> /dev/null | sort -rn > "$B/test-times.txt"
echo "slowest (s): $(head -n 8 "$B/test-times.txt" | tr '\n' ' ')"
echo "full log: $log"
echo "$pass passed, $fail failed, $skip skipped, $todo todo" | tee "$B/summary.txt"
[ "$fail" -eq 0 ]
