#!/bin/sh
# fuzz/run.sh - `make fuzz FUZZ_SECONDS=N`: builds every fuzz/fuzz_*.c with
# clang's libFuzzer, ASan and UBSan against an instrumented libhangdx, and
# runs each for N seconds (default 60) from its seed corpus (fuzz/corpus/
# NAME, plus the log samples of tests/data, the scenarios and the hostile corpus
# of tests/hostile) and its dictionary
# (fuzz/NAME.dict; the targets that read logs also get fuzz_line.dict).
# FUZZ_TARGETS="fuzz_a fuzz_b" runs only those.  A crash is saved under
# fuzz/out/NAME/; copy it into tests/fuzz-regress/NAME/ so `make test`
# replays it for ever.
set -u
secs=${FUZZ_SECONDS:-60}
only=${FUZZ_TARGETS:-}
B=${FUZZ_B:-build-fuzz}    # the instrumented build
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
make -s B=$B CC=clang OPT="-O1 -g $san -fsanitize=fuzzer-no-link" \
	XLDFLAGS="$san" $B/libhangdx.a || exit 1
libs=$(pkg-config --libs yaml-0.1 libarchive zlib libzstd)
status=0
for src in fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	case " ${only:-$name} " in *" $name "*) ;; *) continue ;; esac
	bin=$B/fuzz/$name
	mkdir -p "$B/fuzz" "fuzz/out/$name" "fuzz/corpus/$name"
	clang -std=c17 -D_DEFAULT_SOURCE -O1 -g $san -fsanitize=fuzzer -Iinclude -Isrc \
		"$src" $B/libhangdx.a $libs -lm -lpthread -o "$bin" || exit 1
	seeds="fuzz/corpus/$name"
	work="fuzz/out/$name/corpus"     # new inputs go here, not into git
	mkdir -p "$work"
	case $name in
	fuzz_scenario) extra="scenarios tests/hostile/scenarios" ;;
	fuzz_archive) extra="tests/data/samples tests/hostile/logs" ;;
	fuzz_facts) extra="tests/hostile-facts" ;;
	fuzz_diagnose|fuzz_waitgraph) extra="" ;;
	*) extra="tests/data/samples" ;;
	esac
	# one dictionary per run: the target's own, plus the log field names
	# for the targets that read logs
	dicts=fuzz/$name.dict
	case $name in
	fuzz_archive|fuzz_diagnose|fuzz_grow) dicts="$dicts fuzz/fuzz_line.dict" ;;
	esac
	cat $dicts > "fuzz/out/$name/dict" || exit 1
	dict="-dict=fuzz/out/$name/dict"
	echo "== $name for ${secs}s"
	"$bin" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		$dict -artifact_prefix="fuzz/out/$name/" "$work" "$seeds" $extra \
		> "fuzz/out/$name/log.txt" 2>&1
	rc=$?
	tail -3 "fuzz/out/$name/log.txt"
	if [ $rc -ne 0 ]; then
		echo "!! $name found a crash: fuzz/out/$name/"
		status=1
	fi
done
exit $status
