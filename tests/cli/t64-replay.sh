#!/bin/sh
# t64-replay.sh - hangdx replay SRC DST: every file of SRC is written to
# DST whole and unchanged; lines come in log-time order across files; a
# line without a time follows the line before it in its file; the pace is
# N times real time (checked as a lower bound only, never an upper one);
# DST that is not empty, DST inside SRC and a missing SRC are refused; SRC
# is never modified.
. tests/cli/lib.sh

cd "$T" || exit 1
"$HANGDX" simulate --preset reference --no-trace -o sim > /dev/null 2>&1
find sim -type f -exec md5sum {} + | sort > sum.before

t_ok "a simulated bundle replayed at full speed is the same tree" \
	sh -c '"$HANGDX" replay --speed 0 sim out && diff -r sim out'

"$HANGDX" replay -v --speed 0 sim out2 > order.txt
t_ok "every line is written once (-v lists as many lines as SRC holds)" \
	test "$(wc -l < order.txt)" -eq "$(cat $(find sim -type f) | wc -l)"
t_ok "lines come in log-time order across files" \
	sh -c "awk '\$1 != \"-\" {print \$1}' order.txt | sort -c"
# the four logs of rank 0 interleave: the file changes more often than
# there are files
t_ok "the files interleave by time, not one after another" \
	test "$(awk '{sub(/:[0-9]+$/, "", $2); if ($2 != p) n++; p = $2} END {print n}' order.txt)" -gt 20

mkdir mix
printf '%s\n' \
	'[INFO] HCCL(1,python):2026-06-12-10:00:02.000.000 [a.cc:1] [1]two' \
	'  an indented line of the same message, no time of its own' \
	'[INFO] HCCL(1,python):2026-06-12-10:00:04.000.000 [a.cc:1] [1]four' > mix/a.log
printf '%s\n' \
	'[INFO] HCCL(2,python):2026-06-12-10:00:01.000.000 [b.cc:1] [2]one' \
	'[INFO] HCCL(2,python):2026-06-12-10:00:03.000.000 [b.cc:1] [2]three' > mix/b.log
"$HANGDX" replay -v --speed 0 mix mixout > mix.txt
printf '%s\n' b.log:1 a.log:1 a.log:2 b.log:2 a.log:3 > mix.want
awk '{print $2}' mix.txt > mix.got
t_golden "a line without a time follows the line before it in its file" mix.want mix.got

# 3 s of log time at 10 times real time: at least 0.3 s of wall time
t_ok "the pace: 3 s of log at --speed 10 takes at least 0.3 s" \
	python3 -c '
import subprocess, sys, time
t = time.monotonic()
subprocess.check_call([sys.argv[1], "replay", "--speed", "10", "mix", "paced"])
e = time.monotonic() - t
sys.exit(0 if e >= 0.29 else "took %.3f s" % e)' "$HANGDX"

t_exit 2 "a DST that is not empty is refused" "$HANGDX" replay mix out
t_exit 2 "a DST inside SRC is refused" "$HANGDX" replay mix mix/again
t_ok "... and nothing was made there" test ! -e mix/again
t_exit 3 "a missing SRC is bad input" "$HANGDX" replay nothing-here out3
t_exit 2 "--speed takes a number" "$HANGDX" replay --speed fast mix out4
find sim -type f -exec md5sum {} + | sort > sum.after
t_golden "SRC is not modified" sum.before sum.after
t_done
