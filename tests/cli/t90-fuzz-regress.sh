#!/bin/sh
# t90-fuzz-regress.sh - replays every fuzz target's seed corpus and the
# inputs that once crashed it (tests/fuzz-regress/NAME/) through the
# target's entry point, built with the ordinary flags (and under ASan by
# `make asan`, under valgrind by `make valgrind`: $HANGDX_WRAP goes before
# the driver too).  A crash fails the test.
. tests/cli/lib.sh
B=${B:-build}
for bin in "$B"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	files=$(ls fuzz/corpus/"$name"/* tests/fuzz-regress/"$name"/* 2>/dev/null)
	[ -n "$files" ] || continue
	t_ok "$name replays its corpus and regressions" ${HANGDX_WRAP:-} "$bin" $files
done
t_done
