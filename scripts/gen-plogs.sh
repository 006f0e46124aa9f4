#!/bin/sh
# scripts/gen-plogs.sh N DIR - N host plogs of N distinct processes in DIR,
# one real "Task run failed" runtime line each (log-formats.md, the
# stars_engine.cc CQ report): the scale test of `diagnose` (tests/cli/t46,
# bench/scale-procs.sh).
n=${1:?usage: gen-plogs.sh N DIR}
dir=${2:?usage: gen-plogs.sh N DIR}
mkdir -p "$dir" || exit 1
awk -v n="$n" -v dir="$dir" 'BEGIN {
	for (i = 0; i < n; i++) {
		pid = 100000 + i
		f = dir "/plog-" pid "_20261101070000000.log"
		printf "[ERROR] RUNTIME(%d,python3):2026-11-01-07:30:36.000.100 [stars_engine.cc:1551]%d ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=0, stream_id=38, task_id=0, sqe_type=3(place holder), errType=0x20(sq sw status error), sqSwStatus=0x105\n", pid, pid > f
		close(f)
	}
}'
