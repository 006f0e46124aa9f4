#!/bin/sh
# bench/vocab.sh - what hx_vocab_scan (the vendor's vocabulary, docs/
# VOCABULARY.md) costs a log line, next to the reader's pre-filter
# (hx_classify), on the logs `hangdx simulate -p training-hang` writes at
# debug level (built once under WORKDIR) or on the files given.
# usage: bench/vocab.sh [FILE...]   Environment: HANGDX, B (build dir),
# REPEAT (default 5), WORKDIR (default /tmp/hangdx-bench).
set -eu
HANGDX=${HANGDX:-./hangdx}
B=${B:-build}
work=${WORKDIR:-/tmp/hangdx-bench}
out=${BENCH_OUT:-bench/out}
mkdir -p "$out" "$work"
${CC:-cc} -O2 -std=c17 -D_DEFAULT_SOURCE -Iinclude -Isrc -o "$out/vocab" \
	bench/vocab.c "$B/libhangdx.a" -lyaml -larchive -lz -lzstd -lm -lpthread
if [ $# -eq 0 ]; then
	tree=$work/vocab-sim
	if [ ! -f "$tree.log" ]; then
		"$HANGDX" simulate -q -p training-hang --set log_level=debug \
			--set ranks=8 --no-trace -o "$tree" > /dev/null || [ $? -eq 1 ]
		find "$tree" -type f -name '*.log' -exec cat {} + > "$tree.log"
	fi
	set -- "$tree.log"
fi
for f in "$@"; do
	echo "== $f"
	"$out/vocab" "$f"
done
