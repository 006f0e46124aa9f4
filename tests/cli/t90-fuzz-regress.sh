#!/bin/sh
# t90-fuzz-regress.sh - replays every fuzz target's seed corpus and the
# inputs that once crashed it (tests/fuzz-regress/NAME/; for fuzz_facts
# also tests/hostile-facts/) through the
# target's entry point, built with the ordinary flags (and under ASan by
# `make asan`, under valgrind by `make valgrind`: $HANGDX_WRAP goes before
# the driver too).  A crash fails the test.
. tests/cli/lib.sh
B=${B:-build}
# every target of fuzz/fuzz_*.c: `make test` builds its plain driver
# under $B/fuzz (a script run alone may find it missing: a skip, a
# failure under CI); a target with nothing to replay fails
for src in fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin=$B/fuzz/$name
	if [ ! -x "$bin" ]; then
		t_missing "$name replays its corpus and regressions" "$bin not built (make test builds it)"
		continue
	fi
	files=$(ls fuzz/corpus/"$name"/* tests/fuzz-regress/"$name"/* 2>/dev/null)
	# the hostile facts corpus (t52) seeds the facts reader too
	[ "$name" = fuzz_facts ] && files="$files $(ls tests/hostile-facts/*)"
	if [ -z "$files" ]; then
		t_ok "$name replays its corpus and regressions: no input in fuzz/corpus/$name or tests/fuzz-regress/$name" false
		continue
	fi
	t_ok "$name replays its corpus and regressions" ${HANGDX_WRAP:-} "$bin" $files
done
t_done
