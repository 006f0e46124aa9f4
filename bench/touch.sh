#!/bin/sh
# bench/touch.sh - the machine's price of fresh memory (bench/touch.c): the
# first write of 1 GiB against the second, as a ratio.  Not hangdx: the
# baseline that explains its spread from run to run.
out=${BENCH_OUT:-bench/out}
mkdir -p "$out"
${CC:-cc} -O2 -o "$out/touch" bench/touch.c || exit 1
"$out/touch"
