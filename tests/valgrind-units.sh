#!/bin/sh
# tests/valgrind-units.sh - every unit test program under valgrind's
# memcheck, VG_JOBS at a time (default 2): `make valgrind` runs it before
# tests/valgrind-cli.sh.  A program fails on a memcheck error or a
# definite or indirect leak (valgrind exits 9) or a failed check; its
# report is $B/valgrind-NAME.log.  Prints one line per program, in order.
#   usage: B=build sh tests/valgrind-units.sh PROGRAM...
B=${B:-build}
JOBS=${VG_JOBS:-2}
# the allocation-failure loops of test_facts fail every 4th allocation
# here, those of test_nomem_corpus every 16th (every one in make test and
# under ASan in make asan): a run is ~50 times slower
HANGDX_NOMEM_STRIDE=${HANGDX_NOMEM_STRIDE:-4}
HANGDX_NOMEM_CORPUS_STRIDE=${HANGDX_NOMEM_CORPUS_STRIDE:-16}
export HANGDX_NOMEM_STRIDE HANGDX_NOMEM_CORPUS_STRIDE
[ $# -gt 0 ] || { echo "usage: $0 PROGRAM..." >&2; exit 2; }
printf '%s\n' "$@" | xargs -P "$JOBS" -I{} sh -c '
	n=$(basename "$1")
	valgrind -q --error-exitcode=9 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$1" \
		> "$2/valgrind-$n.log" 2>&1 < /dev/null
	echo $? > "$2/valgrind-$n.st"' _ {} "$B"
fail=0
for t in "$@"; do
	n=$(basename "$t")
	st=$(cat "$B/valgrind-$n.st" 2> /dev/null || echo 99)
	if [ "$st" -eq 0 ]; then
		printf '%-40s ok\n' "$t"
	else
		printf '%-40s FAILED (status %s, see %s)\n' "$t" "$st" "$B/valgrind-$n.log"
		fail=1
	fi
done
exit $fail
