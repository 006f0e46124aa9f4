#!/bin/sh
# t50-check.sh - `hangdx check` end to end: verdicts and exit codes, the
# witness and its replay in the simulator (truth.json names the same
# cycle), a deadlock that needs a particular core-grant order, the sweep
# threshold against the simulator's, bad input, limits, and agreement
# with SPIN on 26 small generated scenarios exported with --promela.
. tests/cli/lib.sh

# cycle of a truth.json in the one-line form `check` and `simulate` print
truth_cycle() {
	python3 -c "
import json,sys; t=json.load(open(sys.argv[1])); out=[]
for c in t['cycle']:
    n=c['node']
    out.append('rank%d AICPU pool (%d/%d cores held)' % (n['rank'], n['busy'], n['cores']) if n.get('kind')=='AICPU_POOL' else n['label'])
print(' -> '.join(out))" "$1"
}
check_cycle() { sed -n 's/^cycle      //p' "$1"; }

t_ok "help lists check" sh -c "$HANGDX --help | grep -q '^  check'"
t_ok "help check shows options" sh -c "$HANGDX help check | grep -q -- '--sweep KEY=VALUES'"
t_exit 2 "no scenario is a usage error" $HANGDX check
t_exit 2 "bad --sweep" $HANGDX check --preset reference --sweep communicators
t_exit 2 "bad --max-memory" $HANGDX check --preset reference --max-memory lots

# the reference incident: deadlock, fast, the simulator's cycle
t_exit 1 "reference deadlocks (exit 1)" $HANGDX check --preset reference -w "$T/ref-w.yaml"
$HANGDX check --preset reference > "$T/ref.txt" 2>&1
t_ok "reference decided in under a second" python3 -c "
import re; s=open('$T/ref.txt').read(); t=float(re.search(r'transitions, ([0-9.]+) s', s).group(1)); assert t < 1.0, t"
t_ok "witness steps are numbered" grep -q '^  1\. rank' "$T/ref.txt"
t_ok "witness says who takes which core" grep -q 'takes AICPU core 5' "$T/ref.txt"
t_ok "stuck state says who waits for a core" grep -q 'AICPU(NonZero) waits for an AICPU core (6/6 held)' "$T/ref.txt"
$HANGDX simulate -q --preset reference -o "$T/ref-sim" > /dev/null 2>&1
check_cycle "$T/ref.txt" > "$T/ref.cyc"; truth_cycle "$T/ref-sim/truth.json" > "$T/ref.cyc2"
t_golden "cycle equals the simulator's truth.json cycle" "$T/ref.cyc2" "$T/ref.cyc"
t_exit 1 "witness replays into a deadlock" $HANGDX simulate "$T/ref-w.yaml" -o "$T/ref-w"
truth_cycle "$T/ref-w/truth.json" > "$T/ref-w.cyc"
t_golden "replay's truth.json names the witness cycle" "$T/ref.cyc" "$T/ref-w.cyc"
t_ok "replay wrote CANN logs for diagnose" ls "$T/ref-w/rank-0/ascend/log/debug/plog"
t_ok "witness has a schedule" grep -q '^schedule:' "$T/ref-w.yaml"

# more ranks: the lockstep search finds a real witness that replays
$HANGDX check --preset reference --set ranks=4 --set communicators=8 -w "$T/r4.yaml" > "$T/r4.txt" 2>&1
t_ok "4 ranks: a lockstep witness" grep -q 'every rank takes the same steps' "$T/r4.txt"
t_ok "4 ranks: the witness replays into the same cycle" \
	grep -q '^replay     .*: deadlock, the same cycle' "$T/r4.txt"

# retry off and no dependency: safe
t_exit 0 "retry off is deadlock-free" $HANGDX check -q --preset reference --set retry=off --set communicators=8
sed '/event_wait/d' scenarios/reference.yaml > "$T/nodep.yaml"
t_exit 0 "reference without the event dependency is deadlock-free" $HANGDX check -q "$T/nodep.yaml"

# a deadlock that needs a particular core-grant order
t_exit 0 "grant-order: the FIFO simulation completes" $HANGDX simulate -q --preset grant-order
$HANGDX check --preset grant-order -w "$T/go-w.yaml" > "$T/go.txt" 2>&1
t_ok "grant-order: check finds the deadlock" grep -q '^verdict    deadlock' "$T/go.txt"
t_exit 1 "grant-order: its witness replays into a deadlock" $HANGDX simulate "$T/go-w.yaml" -o "$T/go-w"
check_cycle "$T/go.txt" > "$T/go.cyc"; truth_cycle "$T/go-w/truth.json" > "$T/go-w.cyc"
t_golden "grant-order: replay's truth.json names the witness cycle" "$T/go.cyc" "$T/go-w.cyc"
sed '/event_wait/d' scenarios/grant-order.yaml > "$T/go-nodep.yaml"
t_exit 0 "grant-order without the dependency is deadlock-free" $HANGDX check -q "$T/go-nodep.yaml"

# the sweep's safe limit equals the simulator's threshold
$HANGDX check --preset reference --sweep communicators=1..8 --sweep cores=4,6 --sweep retry=on,off > "$T/sweep.txt" 2>&1
t_ok "sweep prints a table" grep -q '^communicators  cores' "$T/sweep.txt"
for c in 4 6; do
	lim=0
	for n in 1 2 3 4 5 6 7 8; do
		$HANGDX simulate -q --preset reference --set cores=$c --set communicators=$n > /dev/null 2>&1 || break
		lim=$n
	done
	t_ok "sweep safe limit for cores=$c retry=on equals the simulator's ($lim)" \
		grep -q "^safe limit cores=$c retry=on: communicators <= $lim " "$T/sweep.txt"
	t_ok "sweep: retry off is safe up to 8 on cores=$c" \
		grep -q "^safe limit cores=$c retry=off: communicators <= 8 (every value" "$T/sweep.txt"
done

# model variants: check's stuck verdict matches the simulator's outcome
for v in "slave_streams=3" "slave_streams=0" "order_launch=off" "mode=HOST" "hccl_shares_pool=off" "sq_depth=4"; do
	sim=$($HANGDX simulate --preset reference --set $v 2>/dev/null | sed -n 's/^outcome    \([a-z]*\).*/\1/p')
	ck=$($HANGDX check -q --preset reference --set $v 2>/dev/null | sed -n 's/^verdict    \([a-z-]*\).*/\1/p')
	[ "$sim" = completed ] && sim=deadlock-free
	t_ok "reference with $v: check says $ck, simulate says $sim" test "$ck" = "$sim"
done

# retry off at scale: every core user gives its core back by itself, so
# the search with pools that never run out proves it (docs/CHECKER.md)
$HANGDX check -q --preset reference --set ranks=64 --set communicators=16 --set retry=off > "$T/big.txt" 2>&1
t_ok "64 ranks x 16 communicators, retry off: deadlock-free" grep -q '^verdict    deadlock-free' "$T/big.txt"
t_ok "64 x 16 retry off: by the unbounded-pool abstraction, in under 30 s" python3 -c "
import re; s=open('$T/big.txt').read(); assert 'unbounded-pool abstraction' in s
t=float(re.search(r'transitions, ([0-9.]+) s', s).group(1)); assert t < 30, t"
t_exit 0 "retry off without the abstraction: the exact search agrees" \
	$HANGDX check -q --preset reference --set communicators=6 --set retry=off --set cores=2 --no-pool-abstraction
t_ok "help check lists --no-pool-abstraction" sh -c "$HANGDX help check | grep -q -- '--no-pool-abstraction'"

# durations as ranges: a deadlock that needs a long AI Core duration
t_exit 1 "duration-race: check finds the deadlock every duration allows" $HANGDX check -q --preset duration-race
dead=; done_=
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	$HANGDX simulate -q --preset duration-race --set seed=$s > /dev/null 2>&1
	case $? in
	0) [ -z "$done_" ] && done_=$s ;;
	1) [ -z "$dead" ] && dead=$s ;;
	esac
done
t_ok "duration-race: some seed deadlocks (seed ${dead:-none})" test -n "$dead"
t_ok "duration-race: some seed completes (seed ${done_:-none})" test -n "$done_"
$HANGDX simulate -q --preset duration-race --set seed=${dead:-1} -o "$T/dr1" > /dev/null 2>&1
$HANGDX simulate -q --preset duration-race --set seed=${dead:-1} -o "$T/dr2" > /dev/null 2>&1
t_ok "duration-race: the same seed gives the same bytes" cmp "$T/dr1/truth.json" "$T/dr2/truth.json"
$HANGDX check --preset duration-race --set seed=${done_:-1} -w "$T/dr-w.yaml" > "$T/dr.txt" 2>&1
t_ok "duration-race: the witness replays into the deadlock with a completing seed" \
	grep -q '^replay     .*(with the same --set): deadlock, the same cycle' "$T/dr.txt"
$HANGDX simulate -q "$T/dr-w.yaml" --set seed=${done_:-1} -o "$T/dr-wit" > /dev/null 2>&1
$HANGDX diagnose --json "$T/dr-wit" > "$T/dr-wit.json" 2>/dev/null
t_ok "duration-race: diagnose on the replay's logs names the checker's cycle" python3 -c "
import json
t=json.load(open('$T/dr-wit/truth.json')); d=json.load(open('$T/dr-wit.json'))
tk=[(c['node']['kind'], c['node'].get('stream_id'), c['node'].get('task_id')) for c in t['cycle']]
dk=[(h['kind'], h.get('stream_id'), h.get('task_id')) for h in d['chain']]
assert tk and any(dk == tk[i:] + tk[:i] for i in range(len(tk))) and d['proven'], (tk, dk)"
check_cycle "$T/dr.txt" > "$T/dr.cyc"; truth_cycle "$T/dr-wit/truth.json" > "$T/dr-w.cyc"
t_golden "duration-race: the replay's truth.json names the witness cycle" "$T/dr.cyc" "$T/dr-w.cyc"
printf 'program:\n  - aicore: {stream: s, duration: 5ms..1ms}\n' > "$T/badr.yaml"
t_exit 3 "inverted range: simulate exits 3" $HANGDX simulate -q "$T/badr.yaml"
t_exit 3 "inverted range: check exits 3" $HANGDX check -q "$T/badr.yaml"
t_ok "inverted range: file:line:col and why" sh -c "$HANGDX check -q $T/badr.yaml 2>&1 | grep -q 'badr.yaml:2:35: error: bad range .5ms..1ms. for .duration.: the minimum is above the maximum'"
printf 'model:\n  link_latency: 1us..lots\n' > "$T/badr2.yaml"
t_exit 3 "garbage range exits 3" $HANGDX simulate -q "$T/badr2.yaml"
t_ok "garbage range: file:line:col" sh -c "$HANGDX simulate -q $T/badr2.yaml 2>&1 | grep -q 'badr2.yaml:2:17: error: bad value'"
t_exit 2 "inverted range in --set is a usage error" $HANGDX simulate -q --preset reference --set expand=9us..1us

# a hang that needs a particular order of two records (a user notify
# recorded twice before its first wait): no grant order decides it; the
# witness's sequence makes the simulator take that order
printf 'name: collapse\ncluster: {ranks: 1}\nprogram:\n  - notify_wait: {stream: c, notify: N}\n  - notify_wait: {stream: c, notify: N}\n  - notify_record: {stream: a, notify: N}\n  - notify_record: {stream: b, notify: N}\n  - host_sync: all\n' > "$T/collapse.yaml"
t_exit 0 "collapse: the simulation completes" $HANGDX simulate -q "$T/collapse.yaml"
$HANGDX check "$T/collapse.yaml" -w "$T/col-w.yaml" > "$T/col.txt" 2>&1
t_ok "collapse: check finds the hang" grep -q '^verdict    hang after' "$T/col.txt"
t_ok "collapse: the witness has a sequence" grep -q '^sequence:' "$T/col-w.yaml"
t_exit 1 "collapse: the witness replays into the hang" $HANGDX simulate -q "$T/col-w.yaml" -o "$T/col-wit"
t_ok "collapse: the replay is stuck where the checker is" python3 -c "
import json, re
t=json.load(open('$T/col-wit/truth.json'))
got=sorted(b['label'] for b in t['blocked'])
pat=re.compile(r'  (rank[0-9]+ [^ ]+ #[0-9]+ [^)]*[)]) waits')
want=sorted(m.group(1) for m in map(pat.match, open('$T/col.txt')) if m)
assert got and got == want, (got, want)"
printf 'name: s\nprogram:\n  - aicore: {stream: s, duration: 1ms}\nsequence:\n  - {rank: 0, stream: nope, task: 0}\n' > "$T/badseq.yaml"
t_exit 3 "a sequence naming no stream exits 3" $HANGDX simulate -q "$T/badseq.yaml"
t_ok "bad sequence: file:line:col" sh -c "$HANGDX simulate -q $T/badseq.yaml 2>&1 | grep -q \"badseq.yaml:5:5: error: sequence: rank 0 has no stream 'nope'\""
printf 'sequence:\n  - {rank: 0, task: 1}\n' > "$T/badseq2.yaml"
t_exit 3 "a malformed sequence step exits 3" $HANGDX simulate -q "$T/badseq2.yaml"

# bad input and limits
printf 'cluster:\n  ranks: 2\n  aicpu_coresx: 6\n' > "$T/bad.yaml"
t_exit 3 "bad scenario exits 3" $HANGDX check "$T/bad.yaml"
t_ok "bad scenario names file:line:col" sh -c "$HANGDX check $T/bad.yaml 2>&1 | grep -q 'bad.yaml:3:3: error:'"
t_exit 5 "state limit: undecided (exit 5)" $HANGDX check -q --preset reference --set retry=off --max-states 100
t_ok "undecided is said, never safe" sh -c "$HANGDX check -q --preset reference --set retry=off --max-states 100 | grep -q '^verdict    undecided after'"
t_exit 5 "memory limit: undecided" $HANGDX check -q --preset reference --set retry=off --max-memory 64K
printf 'schedule:\n  - rank: 0\n    grants: [{kernel: c1}]\n' > "$T/badsched.yaml"
t_exit 3 "bad schedule exits 3" $HANGDX simulate -q "$T/badsched.yaml"
t_ok "faults are ignored with a note" sh -c "$HANGDX check -q --preset rank-death 2>&1 | grep -q 'note: check explores the fault-free program'"

# agreement with SPIN on the exported model
gen() { # gen FILE RANKS COMMS CORES RETRY(0/1) ORDER(late/early) DEP(1/0) [LOADERS]
	{
		echo "name: g"
		echo "cluster: {ranks: $2, aicpu_cores: $4}"
		echo "env: {HCCL_OP_RETRY_ENABLE: \"L0:$5,L1:$5,L2:0\"}"
		echo "communicators:"
		echo "  - {name: c, count: $3}"
		echo "program:"
		k=0
		while [ "$k" -lt "${8:-0}" ]; do
			echo "  - aicpu: {stream: load$k, name: GetNext, duration: 1ms}"
			k=$((k + 1))
		done
		[ "$6" = late ] && echo "  - aicore: {stream: compute, name: FA, duration: 2ms}"
		echo "  - aicpu: {stream: compute, name: NonZero, duration: 200us}"
		[ "$6" = early ] && echo "  - aicore: {stream: compute, name: FA, duration: 2ms}"
		echo "  - event_record: {stream: compute, event: E}"
		[ "$7" = 1 ] && echo "  - event_wait: {stream: comm, event: E}"
		echo "  - allreduce: {stream: comm, comm: c, bytes: 1MiB}"
		echo "  - host_sync: all"
	} > "$1"
}
# each case is a skip without spin or cc (a failure under CI)
spin_missing=""
command -v spin > /dev/null 2>&1 || spin_missing="spin not installed"
command -v cc > /dev/null 2>&1 || spin_missing="${spin_missing:+$spin_missing, }cc not installed"
[ -n "$spin_missing" ] && t_missing_from "$spin_missing"
i=0; dl=0
while read r n c x o d l; do
	i=$((i + 1))
	desc="spin agrees on ranks=$r communicators=$n cores=$c retry=$x aicpu=$o dependency=$d loaders=${l:-0}"
	if t_skipping; then
		t_ok "$desc" false
		continue
	fi
	gen "$T/s$i.yaml" $r $n $c $x $o $d $l
	$HANGDX check -q --promela "$T/s$i.pml" "$T/s$i.yaml" > /dev/null 2>&1
	hx=$?
	(cd "$T" && rm -f pan* && spin -a "s$i.pml" > /dev/null 2>&1 &&
	 cc -O0 -DSAFETY -o pan pan.c > /dev/null 2>&1 &&
	 ./pan -m1000000 -w20 > "s$i.pan" 2>&1)
	sp=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$T/s$i.pan")
	grep -q 'max search depth too small' "$T/s$i.pan" && sp=depth
	want=$([ "$hx" = 1 ] && echo 1 || echo 0)
	[ "$hx" = 1 ] && dl=$((dl + 1))
	t_ok "$desc (hangdx exit $hx, spin errors $sp)" \
		test "$sp" = "$want" -a \( "$hx" = 0 -o "$hx" = 1 \)
done <<'LIST'
1 1 2 1 late 1
1 2 2 1 late 1
1 3 2 1 late 1
1 2 3 1 late 1
1 3 4 1 late 1
1 4 4 1 late 1
1 5 6 1 late 1
1 6 6 1 late 1
1 7 6 1 late 1
1 7 6 0 late 1
1 4 2 0 late 1
1 3 2 1 early 1
1 6 6 1 early 1
1 3 2 1 late 0
1 7 6 1 late 0
1 5 5 1 late 1
1 2 2 0 early 0
2 1 2 1 late 1
2 2 2 1 late 1
2 2 3 1 late 1
2 3 2 1 late 1
2 2 2 0 late 1
2 2 2 1 early 1
2 3 3 1 late 0
1 2 2 1 early 1 2
1 2 3 1 early 1 2
LIST
counts=" ($dl deadlocks of $i)"
t_skipping && counts=""
t_ok "spin cases include both verdicts$counts" test "$dl" -gt 3 -a "$dl" -lt "$i"
t_skip_end

t_done
