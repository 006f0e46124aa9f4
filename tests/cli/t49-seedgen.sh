#!/bin/sh
# t49-seedgen.sh - the seed incident from bundles that do not come from our
# simulator: tests/gen/seedgen.py writes them from the public format strings
# and the real line shapes (the lines real logs hold by default: no device
# run log, TS dumps without notify ids), each with its expected.json; the
# diagnosis must give exactly its roots, its first failing rank (by true
# time), its category, proven or inferred.  The three shapes of the seed
# incident (2 ranks both roots; 8 ranks, two roots, one through Unique and
# one more stream, six victims; 64 ranks, two roots among 62 victims and
# 200,000 ordinary lines) and variants: 16 to 256 ranks, 1 to 3 roots, a
# server's clock 2 s off or 0.3 s off, a stale plog of an earlier run, 4 AICPU cores, the run log's lines, notify ids,
# no environment echo (with and without the run log), retry echoed off, a plog cut mid-line, every stream dumped, no stream dumps at all, the files
# copied flat into one directory under longer names or by rank alone, a
# server 8 h off, an
# earlier run's plog of a rank beyond the job's; clocks aligned one offset
# a server, two servers' failures closer than the alignment can order.
. tests/cli/lib.sh

G="python3 $ROOT/tests/gen/seedgen.py"
gen() {
	n=$1
	shift
	$G "$T/$n" "$@" > "$T/gen-$n.txt" 2>&1 || { cat "$T/gen-$n.txt"; return 1; }
	echo "$T/$n" >> "$T/bundles"
}
t_ok "generator: the three shapes" sh -c "
	$G $T/two --shape two && $G $T/eight --shape eight && $G $T/sixtyfour --shape sixtyfour"
printf '%s\n' "$T/two" "$T/eight" "$T/sixtyfour" > "$T/bundles"
gen r16-one --ranks 16 --per-node 8 --roots 11 --first 2 --seed 5
gen r32-three --ranks 32 --per-node 8 --roots 0,17,31 --unique 17 --seed 9 --noise 20000
gen r256-three --ranks 256 --per-node 16 --roots 3,100,255 --unique 100 --first 77 --seed 4
gen skew-2s --ranks 16 --per-node 8 --roots 4,12 --first 6 --skew 1:-2000 --seed 6
gen k4 --ranks 8 --per-node 8 --roots 1 --cores 4 --comms 5 --seed 7
gen ids --shape eight --notify-ids
gen runlog --shape two --runlog
gen runlog-ids --shape eight --runlog --notify-ids
# no environment echo: nothing says the kernels stay; each root's own
# event-wait chain to its AICPU operator, the victims' chains lead away
gen no-env --shape eight --no-env
# no echo, but the run log's lines of kernels waiting for their ops: they
# say the kernels stay, the exhaustion proven; retry echoed off: a
# kernel returns at once, so the chain alone, whatever the run log says
gen no-env-runlog --shape eight --no-env --runlog
gen retry-off --shape two --retry L1:0,L2:0 --runlog --notify-ids
# no stream dumps at all (the device debug logs not collected), the run
# log's resident kernels and the local notify waits on the roots: the
# exhaustion inferred, the roots exact, the victims (waits naming a peer)
# not roots; at 16 ranks with one server 0.3 s ahead too
gen nodump-two --shape two --runlog --no-dumps
gen nodump-eight --shape eight --runlog --no-dumps
gen nodump-16 --ranks 16 --per-node 8 --roots 3,12 --first 12 --skew 1:300 --runlog --no-dumps --seed 11
# a plog cut mid-line (the first failing rank's own)
gen cut --shape eight --cut 6
# the kernel streams and the order stream dumped too
gen dump-all --shape eight --dump-all
# clocks and files of a real collection: one server 0.3 s ahead or behind
# (the first failing rank by corrected time), a plog of an earlier run
# beside a rank's own (kept out of timing), all at once with a cut file
gen skew-ahead --shape eight --skew 1:300
gen skew-behind --shape two --skew 1:-300
gen stale --shape eight --stale 3
gen mixed --ranks 8 --per-node 4 --roots 2,5 --first 1 --skew 1:300 --stale 1 --cut 6 --seed 3
# a server's clock 8 h off (a time zone), ahead or behind: by their times
# its ranks' logs read as an earlier run, but they are the only logs of
# those ranks: kept, their offset corrected at the communicator creation
gen tz-ahead --ranks 8 --per-node 4 --roots 2,5 --first 1 --skew 1:28800000 --seed 3
gen tz-behind --ranks 8 --per-node 4 --roots 2,5 --first 1 --skew 1:-28800000 --seed 3
# clocks aligned at the creation: one offset a server (its ranks keep
# their one clock's order), an offset under 250 ms corrected when the
# exits of one server spread less, the reference rank alone on its server
# corrected too, and two ranks of two servers that failed closer than the
# exits spread (the named first is not the true first: the report says
# either may have failed first)
gen one-clock --ranks 32 --per-node 8 --roots 1 --skew 2:-2000 --seed 5
gen under-floor --ranks 16 --per-node 4 --roots 1,2 --cores 8 --comms 19 --skew 0:236 --first 3 --seed 222534467
gen ref-alone --ranks 4 --per-node 1 --roots 1 --skew 0:2000 --first 0 --seed 3
gen close --ranks 32 --per-node 8 --roots 4 --skew 1:-2000 --seed 12
# a server's offset between the medians of the clocks' exits in each
# group, not each rank's against the reference rank's own exit: a case
# the reference's lateness made a close call is ordered
gen medians --ranks 32 --per-node 8 --roots 4 --skew 1:-2000 --seed 6
# an earlier run's plog of a rank this job does not have (rank 12 of 16,
# beside the eight ranks' stale bundle): still an earlier run, left out
gen beyond --shape eight --stale 3
old=$(ls "$T/beyond/rank-3/ascend/log/debug/plog/" | sort | head -1)
mkdir -p "$T/beyond/rank-12/ascend/log/debug/plog" &&
	sed 's/ranks\[8\], rank\[3\]/ranks[16], rank[12]/' "$T/beyond/rank-3/ascend/log/debug/plog/$old" \
	> "$T/beyond/rank-12/ascend/log/debug/plog/plog-9999_20251103050005000.log"
# a collection copied flat: every file of the mixed bundle in one
# directory, renamed "rank-N-DIR-NAME" (the pid and start time stay in the
# name, after the prefix the copy put before them)
mkdir "$T/flat" && cp "$T/mixed/expected.json" "$T/flat/" &&
	(cd "$T/mixed" && find rank-* -name '*.log' | while read -r f; do
		d=$(dirname "$f"); cp "$f" "$T/flat/${f%%/*}-${d##*/}-${f##*/}"; done) &&
	echo "$T/flat" >> "$T/bundles"
# and renamed by rank alone, the pid and start time gone
# ("rank-3-plog.log", "rank-3-device.log")
mkdir "$T/byrank" && cp "$T/mixed/expected.json" "$T/byrank/" &&
	for r in 0 1 2 3 4 5 6 7; do
		cp "$T/mixed/rank-$r"/ascend/log/debug/device-*/device-*.log "$T/byrank/rank-$r-device.log" &&
		cp "$(ls "$T/mixed/rank-$r"/ascend/log/debug/plog/*.log | sort | tail -1)" "$T/byrank/rank-$r-plog.log"; done &&
	echo "$T/byrank" >> "$T/bundles"

t_ok "the bundles are in the real layout, no run log by default" sh -c "
	test -d $T/two/rank-1/ascend/log/debug/plog && test -d $T/two/rank-1/ascend/log/debug/device-0 &&
	test ! -e $T/two/rank-0/ascend/log/run && test -d $T/runlog/rank-0/ascend/log/run/device-0"
t_ok "no line the default bundles hold names a kernel's core or status" \
	absent -E 'WaitFinishWhileLoop|AicpuComm|notify_id=[0-9]+$' "$T/two" "$T/sixtyfour"
t_ok "the expected answers: inferred by default, proven with the run log and notify ids" python3 -c "
import json
e = lambda n: json.load(open('$T/' + n + '/expected.json'))
assert e('two')['roots'] == [0, 1] and e('eight')['roots'] == [2, 5], (e('two'), e('eight'))
assert e('sixtyfour')['first_failing_rank'] == 42 and e('sixtyfour')['first_failing_rank'] not in e('sixtyfour')['roots']
assert not e('two')['proven'] and e('runlog-ids')['proven']"

python3 "$ROOT/tests/gen/seedcheck.py" "$HANGDX" $(cat "$T/bundles") > "$T/check.tap" 2>&1
rc=$?
cat "$T/check.tap" | sed 's/^/# /'
t_ok "every bundle checked (33)" sh -c "test \$(grep -c '^ok\|^not ok' $T/check.tap) -eq 33"
t_ok "every bundle: exact roots, first failing rank, category, proven (seedcheck exit $rc)" \
	sh -c "test $rc -eq 0 && ! grep -q '^not ok' $T/check.tap"

for b in one-clock under-floor ref-alone close medians; do
	$HANGDX diagnose --json "$T/$b" > "$T/$b.json" 2>/dev/null
done
t_ok "one offset a server: every rank of the server 2 s behind moved by the same, the first failing rank exact" python3 -c "
import json; d=json.load(open('$T/one-clock.json')); w=json.load(open('$T/one-clock/expected.json'))
sk=[r['clock_skew_s'] for r in d['ranks']]
assert len(set(sk[16:24]))==1 and abs(sk[16]+2.0)<0.01 and set(sk[:16]+sk[24:])=={0.0}, sk
assert d['first_failing_rank']==w['first_failing_rank'], (d['first_failing_rank'], w)"
t_ok "an offset of 236 ms, exits of a server spreading 20 ms: corrected, the first failing rank exact" python3 -c "
import json; d=json.load(open('$T/under-floor.json')); w=json.load(open('$T/under-floor/expected.json'))
sk=[r['clock_skew_s'] for r in d['ranks']]
assert all(abs(x-0.236)<0.01 for x in sk[:4]) and set(sk[4:])=={0.0}, sk
assert d['first_failing_rank']==w['first_failing_rank']==3, (d['first_failing_rank'], w)"
t_ok "the reference rank alone on a server 2 s ahead: corrected, the first failing rank exact" python3 -c "
import json; d=json.load(open('$T/ref-alone.json'))
sk=[r['clock_skew_s'] for r in d['ranks']]
assert abs(sk[0]-2.0)<0.01 and sk[1:]==[0.0]*3, sk
assert d['first_failing_rank']==0, d['first_failing_rank']"
t_ok "two servers' ranks 0.5 ms apart, exits spreading 20 ms: the true first is the one named as close" python3 -c "
import json; d=json.load(open('$T/close.json')); w=json.load(open('$T/close/expected.json'))
c=d['first_failing_close']
assert d['first_failing_rank']!=w['first_failing_rank'], 'the case no longer shows a close call'
assert c['rank']==w['first_failing_rank'] and 0<=c['after_ms']<c['within_ms']<25, (c, w)"
t_ok "a server's offset by the clocks' median exits: the first failing rank exact" python3 -c "
import json; d=json.load(open('$T/medians.json')); w=json.load(open('$T/medians/expected.json'))
assert d['first_failing_rank']==w['first_failing_rank']==8, (d['first_failing_rank'], w)"
$HANGDX diagnose "$T/close" > "$T/close.txt" 2>&1
t_ok "two servers' ranks 0.5 ms apart: the text says either may have failed first" sh -c "
	tr '\n' ' ' < $T/close.txt | tr -s ' ' | grep -q 'Rank 8 failed 0.490 ms after rank 1 (clock-corrected), on another server: the clocks are aligned at communicator creation, whose exits on one server spread over 19.891 ms here, so either may have failed first.'"
t_ok "one server's ranks: no such note between them" python3 -c "
import json; d=json.load(open('$T/one-clock.json'))
c=d.get('first_failing_close'); f=d['first_failing_rank']
assert c is None or c['rank']//8 != f//8, (f, c)"
$HANGDX diagnose "$T/tz-ahead" > "$T/tz.txt" 2>&1
t_ok "a server 8 h off: its ranks taken as the job's, said so" sh -c "
	tr '\n' ' ' < $T/tz.txt | tr -s ' ' | grep -q 'Taken as the job.s: the logs of process [0-9]*, the only ones of rank 0,'"
$HANGDX diagnose "$T/beyond" > "$T/beyond.txt" 2>&1
t_ok "an earlier run's rank beyond the job's ranks: left out" sh -c "
	tr '\n' ' ' < $T/beyond.txt | tr -s ' ' | grep -q 'rank-12/ascend/log/debug/plog/plog-9999_20251103050005000.log, of process 9999, which ended'"
# the eight at log level error alone (no INFO line: no environment echo,
# no creation): a victim's chain ends at a notify wait whose id the dump
# does not print, and its failures name the peer only as a rank of its
# communicator (no creation lines map it): still a victim's chain, so the
# roots are 2 and 5 alone; with a server 2 s off, the first failing rank
# is by the servers' own clocks, and the report says so
mkdir "$T/err" && cp -r "$T/eight"/rank-* "$T/err/" && find "$T/err" -name '*.log' -exec sed -i '/^\[INFO\]/d' {} +
mkdir "$T/errskew" && cp -r "$T/skew-2s"/rank-* "$T/errskew/" && find "$T/errskew" -name '*.log' -exec sed -i '/^\[INFO\]/d' {} +
t_ok "level error alone: roots 2 and 5, not a victim's own chain" python3 -c "
import json, subprocess
d=json.loads(subprocess.run(['$HANGDX', 'diagnose', '--json', '$T/err'], stdout=subprocess.PIPE).stdout)
assert sorted(d['roots'])==[2, 5] and d['category']=='event_wait_chain', (d['roots'], d['category'])"
$HANGDX diagnose "$T/errskew" > "$T/errskew.txt" 2>&1
t_ok "level error alone, a server 2 s off: the first failing rank is said to be by the servers' clocks" sh -c "
	tr '\n' ' ' < $T/errskew.txt | tr -s ' ' | grep -q 'The first failing rank is by the servers. own clocks: no communicator creation exits'"
$HANGDX diagnose "$T/skew-2s" > "$T/skew.txt" 2>&1
t_ok "with the creation lines, no such note" absent "servers' own clocks" "$T/skew.txt"
# no dumps: the text says what it inferred from; without the run log
# either, nothing shows the pool, and no deadlock is claimed
$HANGDX diagnose "$T/nodump-eight" > "$T/nodump.txt" 2>&1
t_ok "no dumps: the inferred exhaustion from the resident kernels and the local wait" sh -c "
	grep -q '^hangdx: DEADLOCK — AICPU exhaustion deadlock (inferred)' $T/nodump.txt &&
	tr '\n' ' ' < $T/nodump.txt | tr -s ' ' | grep -q 'the first failure is a notify wait on a notify recorded on the rank itself' &&
	tr '\n' ' ' < $T/nodump.txt | tr -s ' ' | grep -q 'no TS stream dump is in these logs'"
mkdir "$T/nodump-norun" && cp -r "$T/nodump-eight"/rank-* "$T/nodump-norun/" && rm -rf "$T"/nodump-norun/rank-*/ascend/log/run
t_ok "no dumps, no run log: no deadlock claimed" python3 -c "
import json, subprocess
d=json.loads(subprocess.run(['$HANGDX', 'diagnose', '--json', '$T/nodump-norun'], stdout=subprocess.PIPE).stdout)
assert d['verdict']!='deadlock' and d['category']!='aicpu_exhaustion_deadlock', (d['verdict'], d['category'])"
# the text: the inferred exhaustion, what would prove it, the real fix
$HANGDX diagnose "$T/eight" > "$T/eight.txt" 2>&1
t_ok "text: inferred AICPU exhaustion deadlock" grep -q "^hangdx: DEADLOCK — AICPU exhaustion deadlock (inferred)" "$T/eight.txt"
t_ok "text: both roots named" grep -q "^  root cause ranks: 2, 5" "$T/eight.txt"
t_ok "text: what would prove it and where it lives" sh -c "tr '\n' ' ' < $T/eight.txt | tr -s ' ' | grep -q 'ascend/log/run/device-N'"
t_ok "text: no 'collect the device logs' fix" absent "Collect the device logs" "$T/eight.txt"
# without the retry echo: each root's own chain, the victims' lead away
$HANGDX diagnose "$T/no-env" > "$T/no-env.txt" 2>&1
t_ok "no env echo: an event-wait chain, rank 2's own, not a victim's" sh -c "
	grep -q '^hangdx: HANG — event-wait chain on a blocked task' $T/no-env.txt &&
	grep -q '^   1\. rank2 stream15 #1200 EVENT_WAIT(event 75)' $T/no-env.txt"
t_ok "no env echo: the fix names the AICPU operator that never got a core" sh -c "
	tr '\n' ' ' < $T/no-env.txt | tr -s ' ' | grep -q 'AICPU operator at the head of stream 3 on rank 2 never got an AICPU core'"
# the JSON names each hop's kind: the event wait, its record, the operator
$HANGDX diagnose --json "$T/no-env" > "$T/no-env.json" 2>/dev/null
t_ok "no env echo: each hop of the event-wait chain names its kind, stream and task" python3 -c "
import json; d=json.load(open('$T/no-env.json'))
hop=[(h['kind'], h['rank'], h.get('stream_id'), h.get('task_id')) for h in d['chain']]
assert d['category']=='event_wait_chain', d['category']
assert hop==[('EVENT_WAIT', 2, 15, 1200), ('EVENT_RECORD', 2, 3, 813), ('AICPU', 2, 3, 812)], hop"
t_ok "every hop of every bundle's chain names its kind" python3 -c "
import json, subprocess
for b in open('$T/bundles').read().split():
    d=json.loads(subprocess.run(['$HANGDX', 'diagnose', '--json', b], stdout=subprocess.PIPE).stdout)
    assert d['chain'] and all(h['kind'] for h in d['chain']), (b, d['chain'])"
# a root's logs missing (rank 5 of the eight): the other root stays the
# only one named, and the victims that wait on rank 5 are said to wait on
# a rank the logs show nothing of, not on root 2
mkdir "$T/no5" && cp -r "$T/eight"/rank-[0-4] "$T/eight"/rank-[6-7] "$T/no5/"
$HANGDX diagnose "$T/no5" > "$T/no5.txt" 2>&1
$HANGDX diagnose --json "$T/no5" > "$T/no5.json" 2>/dev/null
$HANGDX diagnose --html "$T/no5.html" "$T/no5" > /dev/null 2>&1
t_ok "a root without logs: the other root alone is named" python3 -c "
import json; d=json.load(open('$T/no5.json'))
assert d['roots']==[2], d['roots']
v=[g for g in d['groups'] if g.get('role')=='victim']
assert len(v)==1 and v[0]['waits_on']==[2] and v[0]['waits_on_unrooted']==[5], v"
t_ok "a root without logs: text says which victims wait on it" sh -c "
	grep -q '^               waiting on rank 5, not shown by these logs to be a root or to wait on one' $T/no5.txt &&
	grep -q '^  - no logs for rank 5, which ranks 1, 3, 7 wait on' $T/no5.txt"
t_ok "a root without logs: the HTML says it too" grep -q 'waiting on rank 5, not shown by these logs' "$T/no5.html"
t_done
