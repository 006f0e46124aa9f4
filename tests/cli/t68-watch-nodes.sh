#!/bin/sh
# t68-watch-nodes.sh - watch on many nodes: each node's watch writes the
# facts of its own ranks' logs to a shared directory (--facts-out DIR
# --node NAME, whole files), and one watch decides over them (--facts
# DIR) as diagnose --facts does, with no log of any node reachable: the
# reference with roots 3 and 5 of 8 ranks, still running (cut at 65 s),
# split over two nodes of 4 ranks, gives the deadlock with the roots the
# single pass over all logs gives; a decider started before the nodes
# wrote anything waits and stops at the deadlock; a healthy job no event.
. tests/cli/lib.sh

cd "$T" || exit 1
jget() {        # FILE KEY: a field of a JSON file, or of the last line of JSON Lines
	python3 -c '
import json, sys
text = open(sys.argv[1]).read()
try:
    doc = json.loads(text)
except ValueError:
    doc = json.loads([l for l in text.splitlines() if l.strip()][-1])
print(json.dumps(doc[sys.argv[2]]))' "$@"
}
"$HANGDX" simulate -q --no-trace --preset reference --set ranks=8 --set aicpu_ranks=3,5 -o job > /dev/null 2>&1
rm -f job/truth.json job/waitgraph.dot
python3 "$ROOT/tests/bundle_edit.py" upto job 65 > /dev/null
"$HANGDX" diagnose --json job > whole.json 2> /dev/null
mkdir -p n1 n2 shared
mv job/rank-0 job/rank-1 job/rank-2 job/rank-3 n1/
mv job/rank-4 job/rank-5 job/rank-6 job/rank-7 n2/

t_exit 1 "node n1: its own ranks' deadlock, facts written" \
	"$HANGDX" watch --json --for 0 --facts-out shared --node n1 n1
"$HANGDX" watch --json --for 0 --facts-out shared --node n2 n2 > n2.jsonl 2> /dev/null
echo $? > n2.rc
t_ok "... one facts file a node, named by the node" \
	test "$(ls shared | tr '\n' ' ')" = "n1.facts n2.facts "
t_ok "... node n2 alone: not root 5's deadlock (its groups' members on n1 are not seen there, and may still come), exit 5" \
	sh -c "test \"\$(cat n2.rc)\" = 5 && ! grep -q deadlock n2.jsonl"
t_ok "... its facts say so (pool_peer -3) and name the groups its kernels loop in" \
	sh -c 'grep -q "\"pool_peer\":-3" shared/n2.facts && grep -q "\"pool_groups\":\"h[0-9,]*:" shared/n2.facts'

mkdir away
mv n1 n2 away/
"$HANGDX" watch --json --for 0 --facts shared > facts.jsonl 2> /dev/null
echo $? > facts.rc
t_ok "the facts alone (no log reachable): exit 1" test "$(cat facts.rc)" = 1
t_ok "... the deadlock, with the single pass's category" \
	test "$(jget facts.jsonl category)" = "$(jget whole.json category)"
t_ok "... and its roots, [3, 5] as the single pass" \
	test "$(jget facts.jsonl roots)/$(jget whole.json roots)" = "[3, 5]/[3, 5]"
t_ok "... inferred" test "$(jget facts.jsonl proven)" = false

# One rank a node: which kernels started their collectives further than
# a peer's (victims, not roots) is seen only over the nodes.
mkdir -p one
for r in 0 1 2 3 4 5 6 7; do
	d=away/n1/rank-$r
	[ -d "$d" ] || d=away/n2/rank-$r
	"$HANGDX" watch --for 0 --facts-out one --node x$r "$d" > /dev/null 2>&1
done
mv away away.hid
"$HANGDX" watch --json --for 0 --facts one > one.jsonl 2> /dev/null
mv away.hid away
t_ok "one rank a node, the decider (no log reachable): roots [3, 5] as the single pass, no victim among them" \
	test "$(jget one.jsonl roots)" = "[3, 5]"

# Every rank a root, 4 ranks on 2 nodes: each node alone sees members of
# every group it cannot see, and names nothing; over both nodes no
# member can come, and the decider names all four.
"$HANGDX" simulate -q --no-trace --preset reference --set ranks=4 -o all4 > /dev/null 2>&1
rm -f all4/truth.json all4/waitgraph.dot
python3 "$ROOT/tests/bundle_edit.py" upto all4 65 > /dev/null
mkdir -p a1 a2 ashared
mv all4/rank-0 all4/rank-1 a1/
mv all4/rank-2 all4/rank-3 a2/
"$HANGDX" watch --json --for 0 --facts-out ashared --node a1 a1 > a1.jsonl 2> /dev/null
"$HANGDX" watch --json --for 0 --facts-out ashared --node a2 a2 > /dev/null 2>&1
mv a1 a2 all4/
t_ok "every rank a root over 2 nodes: a node alone names no deadlock" sh -c '! grep -q deadlock a1.jsonl'
"$HANGDX" watch --json --for 0 --facts ashared > all4.jsonl 2> /dev/null
t_ok "... the decider (no log reachable) all four roots, as the single pass" \
	test "$(jget all4.jsonl event) $(jget all4.jsonl roots)" = '"deadlock" [0, 1, 2, 3]'

if t_wrapped; then
	t_skip_from "under $HANGDX_WRAP a look every 0.1 s is not kept"
fi
if ! t_skipping; then
	mkdir later
	"$HANGDX" watch --json -i 0.1 --for 4 --facts later > later.jsonl 2> /dev/null &
	w=$!
	sleep 1
	cp shared/n1.facts later/
	sleep 0.5
	cp shared/n2.facts later/
	wait $w
	echo $? > later.rc
fi
t_ok "a decider started first: exit 1, a deadlock once the nodes wrote" \
	test "$(cat later.rc)" = 1
t_ok "... refined as the second node wrote: its last event roots [3, 5]" test "$(jget later.jsonl roots)" = "[3, 5]"
t_skip_end

"$HANGDX" simulate -q --no-trace --preset healthy -o ok > /dev/null 2>&1
rm -f ok/truth.json ok/waitgraph.dot
mkdir -p h1 h2 hshared
mv ok/rank-0 ok/rank-1 h1/
mv ok/rank-2 ok/rank-3 h2/
"$HANGDX" watch --for 0 --facts-out hshared --node h1 h1 > /dev/null 2>&1
"$HANGDX" watch --for 0 --facts-out hshared --node h2 h2 > /dev/null 2>&1
t_exit 0 "a healthy job from its nodes' facts: exit 0" \
	"$HANGDX" watch --json --for 0 --facts hshared
t_ok "... and no event" sh -c "test -z \"\$('$HANGDX' watch --json --for 0 --facts hshared 2>/dev/null)\""
# A checkpoint on one node: rank 0 writes for 10 minutes while rank 1's 14
# retry-mode collectives of the next step hold its six cores and wait on
# it.  Rank 1's node alone cannot see rank 0; the decider sees that rank 0
# has no kernel looping in those groups and cores free: a stall, as the
# single pass over both ranks says.
"$HANGDX" simulate -q --no-trace -o cp "$ROOT/tests/scenarios/checkpoint-pause.yaml" > /dev/null 2>&1
rm -f cp/truth.json cp/waitgraph.dot
python3 "$ROOT/tests/bundle_edit.py" upto cp 300 > /dev/null
mkdir -p c1 c2 cshared caway
mv cp/rank-0 c1/
mv cp/rank-1 c2/
"$HANGDX" watch --json --for 0 --facts-out cshared --node c1 c1 > c1.jsonl 2> /dev/null
"$HANGDX" watch --json --for 0 --facts-out cshared --node c2 c2 > c2.jsonl 2> /dev/null
echo $? > c2.rc
t_ok "a checkpoint on another node: the node of the waiting rank alone says a stall (exit 5: undecided)" \
	test "$(jget c2.jsonl event)/$(cat c2.rc)" = '"stall"/5'
mv c1 c2 caway/
"$HANGDX" watch --json --for 0 --facts cshared > cfacts.jsonl 2> /dev/null
echo $? > cfacts.rc
t_ok "... the decider over both nodes' facts (no log reachable): a stall, never a deadlock" \
	test "$(jget cfacts.jsonl event)/$(cat cfacts.rc)" = '"stall"/5'
mv caway/c1/rank-0 caway/c2/rank-1 cp/
t_ok "... as the single pass over both ranks' logs" \
	test "$("$HANGDX" watch --json --for 0 cp 2> /dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["event"])')" = stall

t_exit 2 "--facts with --facts-out: usage" "$HANGDX" watch --facts --facts-out x shared
t_done
