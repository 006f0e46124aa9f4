#!/bin/sh
# tests/valgrind-cli.sh - CLI scripts with every run of hangdx (and of the
# fuzz replay drivers) under valgrind's memcheck: `make valgrind` runs it
# after the unit programs.  tests/cli/lib.sh puts $HANGDX_WRAP before each
# run; valgrind writes a report per process into $B/valgrind-cli/NAME/,
# empty unless it finds an error or a definite or indirect leak.  A
# script fails when one of its cases fails (a valgrind error also makes
# hangdx exit 9) or when any report is not empty.  Cases that measure
# memory, set ulimit or read gigabytes skip themselves under the wrapper
# (t_wrapped in lib.sh).  VG_JOBS scripts run at a time (default 2).
#   usage: HANGDX=build/hangdx B=build sh tests/valgrind-cli.sh [SCRIPT...]
# Without SCRIPT: the scripts below, longest first, chosen to fit CI's
# time (about two minutes on two cores).  Left out: t33 (gigabytes),
# t40 and t50 (the 63-scenario matrix and the checker's state spaces:
# minutes under valgrind, and the same library paths as t10 and t41),
# t60 (the browser) and t80 (install).
HANGDX=${HANGDX:-./hangdx}
B=${B:-build}
HANGDX=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
export HANGDX B
SCRIPTS=${*:-"tests/cli/t35-hostile-corpus.sh tests/cli/t31-hostile.sh
	tests/cli/t41-diagnose-golden.sh tests/cli/t30-parse.sh
	tests/cli/t10-simulate.sh tests/cli/t32-parse-sim.sh
	tests/cli/t42-peer.sh tests/cli/t61-terminal.sh
	tests/cli/t90-fuzz-regress.sh"}
JOBS=${VG_JOBS:-2}
VG="valgrind -q --error-exitcode=9 --leak-check=full
	--errors-for-leak-kinds=definite,indirect
	--show-leak-kinds=definite,indirect"
mkdir -p "$B/valgrind-cli"
out=$(cd "$B/valgrind-cli" && pwd)
rm -rf "$out"/.claim-*

# run_one SCRIPT: its TAP in NAME.tap, exit status and seconds in NAME.st
run_one() {
	name=$(basename "$1" .sh)
	rm -rf "${out:?}/$name"
	mkdir -p "$out/$name"
	start=$(date +%s)
	HANGDX_WRAP="$(echo $VG) --log-file=$out/$name/%p.log" sh "$1" \
		> "$out/$name.tap" 2>&1
	echo "$? $(($(date +%s) - start))" > "$out/$name.st"
}

# JOBS lanes take scripts from one queue: mkdir claims a script
lane() {
	for s in $SCRIPTS; do
		mkdir "$out/.claim-$(basename "$s" .sh)" 2> /dev/null || continue
		run_one "$s"
	done
}
i=0
while [ "$i" -lt "$JOBS" ]; do
	lane &
	i=$((i + 1))
done
wait
rm -rf "$out"/.claim-*

pass=0
fail=0
skip=0
for s in $SCRIPTS; do
	name=$(basename "$s" .sh)
	read -r status secs < "$out/$name.st"
	# skips apart (tests/run.sh): "ok N - ... # SKIP reason"
	sk=$(grep -ci '^ok [^#]*# *skip' "$out/$name.tap")
	p=$(($(grep -c '^ok ' "$out/$name.tap") - sk))
	# known failures apart (tests/run.sh): "not ok N - ... # TODO reason"
	f=$(($(grep -c '^not ok ' "$out/$name.tap") - $(grep -ci '^not ok [^#]*# *todo' "$out/$name.tap")))
	reports=$(find "$out/$name" -name '*.log' -size +0 | wc -l)
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	if [ "$reports" -ne 0 ]; then
		f=$((f + 1))
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + sk))
	printf '%-40s %4d passed %4d failed %4d skipped %4ds\n' "valgrind/$name" "$p" "$f" "$sk" "$secs"
	if [ "$f" -ne 0 ]; then
		grep -v -i '^not ok [^#]*# *todo' "$out/$name.tap" | grep -A3 '^not ok' | sed 's/^/    /'
		find "$out/$name" -name '*.log' -size +0 | head -3 | while read -r l; do
			echo "    valgrind report $l:"
			sed -n '1,25p' "$l" | sed 's/^/      /'
		done
	fi
done
echo "valgrind CLI: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
