#!/bin/sh
# t49-bundles.sh - ingest robust to the shapes real collections take: the
# reference with roots 3 and 5 among 8 ranks on 2 servers (layout node),
# then copies of it with each communicator under two names (root info
# identifier, group_name_K), 40 and 200 communicators a process, a stale
# plog of an earlier run and of an earlier pid, a plog cut mid-line, one
# server's clock 0.3 s behind, all at once, and at log level error a plog
# of another pid of a rank that is not in the communicator creation.  Every copy must give the
# unmodified bundle's roots and first failing rank, count each
# communicator once, and name the files it left out of timing and why.
. tests/cli/lib.sh
E="python3 $ROOT/tests/bundle_edit.py"

sed -e 's/^  ranks: 2$/  ranks: 8/' -e 's/^  ranks_per_node: 8$/  ranks_per_node: 4/' \
    -e 's/aicpu: {stream: compute, name: NonZero, duration: 200us}/aicpu: {stream: compute, name: NonZero, duration: 200us, ranks: [3, 5]}/' \
    scenarios/reference.yaml > "$T/r8.yaml"
$HANGDX simulate -q --no-trace --layout node "$T/r8.yaml" -o "$T/b" > /dev/null 2>&1
$HANGDX diagnose --json "$T/b" > "$T/b.json" 2>/dev/null
P=host-1/ascend/log/debug/plog
R5=$P/plog-100083_20261101070000000.log
R4=$P/plog-100067_20261101070000000.log
t_ok "base: roots 3 and 5, first failing rank 0, nothing left out" python3 -c "
import json; d=json.load(open('$T/b.json'))
assert d['roots']==[3,5] and d['first_failing_rank']==0, (d['roots'], d['first_failing_rank'])
assert 'left_out_of_timing' not in d, d['left_out_of_timing']"

# same: roots and first failing rank as the base; $2: the notes must hold it
same() {
	python3 - "$T/b.json" "$1" "$2" <<'PY'
import json, sys
b = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
assert d['roots'] == b['roots'], (d['roots'], b['roots'])
assert d['first_failing_rank'] == b['first_failing_rank'], d['first_failing_rank']
assert d['category'] == b['category'], d['category']
if sys.argv[3]:
    assert any(sys.argv[3] in n for n in d['notes']), d['notes']
PY
}
# left FILE WHY...: the file is in left_out_of_timing with that reason
left() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((l['file'], l['why']) for l in d['left_out_of_timing'])
want = sorted((sys.argv[i], sys.argv[i + 1]) for i in range(2, len(sys.argv), 2))
assert len(got) == len(want) and all(g[0].endswith('/' + w[0]) and g[1] == w[1] for g, w in zip(sorted(got, key=lambda g: g[0].rsplit('/', 1)[1]), sorted(want, key=lambda w: w[0].rsplit('/', 1)[1]))), (got, want)
PY
}

# -- communicators: counted once, no ceiling ----------------------------------
cp -r "$T/b" "$T/names" && $E names "$T/names"
$HANGDX diagnose --json "$T/names" > "$T/names.json" 2>/dev/null
t_ok "two names a communicator (root info, group_name_K): the base's answer" \
	same "$T/names.json" "up to 14 communicators"
t_ok "two names a communicator: failures name group_name_K" grep -q "group_name_3" -r "$T/names/host-0/ascend/log/debug/plog"
for n in 40 200; do
	$HANGDX simulate -q --no-trace --layout node --set communicators=$n "$T/r8.yaml" -o "$T/c$n" > /dev/null 2>&1
	$E names "$T/c$n"
	$HANGDX diagnose --json "$T/c$n" > "$T/c$n.json" 2>/dev/null
	t_ok "$n communicators a process, two names each: counted $n, the base's answer" \
		same "$T/c$n.json" "up to $n communicators"
	t_ok "$n communicators a process: no note of a limit" python3 -c "
import json; d=json.load(open('$T/c$n.json'))
assert not any('kept per process' in n or 'more than 16' in n for n in d['notes']), d['notes']"
done

# -- files left out of timing --------------------------------------------------
# an earlier run: a plog of rank 5's node, another pid, 2 h before, with
# an error and no communicator creation
cp -r "$T/b" "$T/run" && $E stale "$T/b/$R5" "$T/run/$P/plog-90083_20261101050000000.log" 90083 -7200000000 --no-init
$HANGDX diagnose --json "$T/run" > "$T/run.json" 2>/dev/null
t_ok "stale plog of an earlier run: the base's roots and first failing rank" same "$T/run.json" ""
t_ok "stale plog of an earlier run: named, earlier_run" left "$T/run.json" "$P/plog-90083_20261101050000000.log" earlier_run
# an earlier pid 40 min before, with its own communicator creation
cp -r "$T/b" "$T/pid" && $E stale "$T/b/$R5" "$T/pid/$P/plog-90083_20261101065000000.log" 90083 -2400000000
$HANGDX diagnose --json "$T/pid" > "$T/pid.json" 2>/dev/null
t_ok "plog of an earlier pid of rank 5: the base's answer" same "$T/pid.json" ""
t_ok "plog of an earlier pid: named, earlier_process" left "$T/pid.json" "$P/plog-90083_20261101065000000.log" earlier_process
# the same without creation lines: not in the job's communicator creation
cp -r "$T/b" "$T/pid2" && $E stale "$T/b/$R5" "$T/pid2/$P/plog-90083_20261101065000000.log" 90083 -2400000000 --no-init
$HANGDX diagnose --json "$T/pid2" > "$T/pid2.json" 2>/dev/null
t_ok "earlier pid, no creation lines: the base's answer" same "$T/pid2.json" ""
t_ok "earlier pid, no creation lines: named, earlier_process" left "$T/pid2.json" "$P/plog-90083_20261101065000000.log" earlier_process
# rank 4's plog cut in the middle of its first error line's timestamp
cp -r "$T/b" "$T/cut" && $E cut "$T/cut/$R4" 0
$HANGDX diagnose --json "$T/cut" > "$T/cut.json" 2>/dev/null
t_ok "plog cut mid-line: the base's answer" same "$T/cut.json" ""
t_ok "plog cut mid-line: named, cut_line" left "$T/cut.json" "$R4" cut_line
# host-1's clock 0.3 s behind: its ranks' errors come 0.3 s "first"
cp -r "$T/b" "$T/skew" && $E shift "$T/skew/host-1" -300000
$HANGDX diagnose --json "$T/skew" > "$T/skew.json" 2>/dev/null
t_ok "one server 0.3 s behind: corrected, the base's first failing rank" same "$T/skew.json" ""
t_ok "one server 0.3 s behind: its 4 ranks -0.3 s, the others 0" python3 -c "
import json; d=json.load(open('$T/skew.json'))
assert [r['clock_skew_s'] for r in d['ranks']]==[0,0,0,0,-0.3,-0.3,-0.3,-0.3], [r['clock_skew_s'] for r in d['ranks']]"
cp -r "$T/b" "$T/ahead" && $E shift "$T/ahead/host-0" 300000
$HANGDX diagnose --json "$T/ahead" > "$T/ahead.json" 2>/dev/null
t_ok "the other server 0.3 s ahead: the base's first failing rank" same "$T/ahead.json" ""
# all at once, with two names a communicator
cp -r "$T/names" "$T/all" && $E shift "$T/all/host-1" -300000 && \
	$E stale "$T/b/$R5" "$T/all/$P/plog-90083_20261101050000000.log" 90083 -7200000000 --no-init && \
	$E stale "$T/b/$R5" "$T/all/$P/plog-90084_20261101065000000.log" 90084 -2400000000 && \
	$E cut "$T/all/$R4" 0
$HANGDX diagnose --json "$T/all" > "$T/all.json" 2>/dev/null
$HANGDX diagnose "$T/all" > "$T/all.txt" 2>/dev/null
t_ok "all at once: the base's answer" same "$T/all.json" "up to 14 communicators"
t_ok "all at once: the three files named" left "$T/all.json" \
	"$P/plog-90083_20261101050000000.log" earlier_run \
	"$P/plog-90084_20261101065000000.log" earlier_process "$R4" cut_line
t_ok "text: the notes say what was left out" sh -c "grep -c 'Left out of timing' '$T/all.txt' | grep -qx 3"
# logs at level error (creation lines in the run plog only), rank-N/: a
# plog of another pid of rank 5 with its errors 10 min before the hang and
# no creation lines is not the rank's time
$HANGDX simulate -q --no-trace --set log_level=error "$T/r8.yaml" -o "$T/e" > /dev/null 2>&1
$HANGDX diagnose --json "$T/e" > "$T/e.json" 2>/dev/null
E5=rank-5/ascend/log/debug/plog
cp -r "$T/e" "$T/es" && $E stale "$T/e/$E5/plog-100083_20261101070000000.log" "$T/es/$E5/plog-90083_20261101072000000.log" 90083 -600000000 --no-init
$HANGDX diagnose --json "$T/es" > "$T/es.json" 2>/dev/null
t_ok "level error, a plog of another pid not in the creation: the base's answer" \
	python3 -c "
import json; b=json.load(open('$T/e.json')); d=json.load(open('$T/es.json'))
assert (d['roots'], d['first_failing_rank']) == (b['roots'], b['first_failing_rank']) == ([3,5], 0), (d['roots'], d['first_failing_rank'])"
t_ok "level error, a plog of another pid: named, not_in_creation" left "$T/es.json" "$E5/plog-90083_20261101072000000.log" not_in_creation
t_ok "zh_CN: the notes translated" sh -c "$HANGDX --lang zh_CN diagnose '$T/all' | grep -q '未参与时间比较'"

t_done
