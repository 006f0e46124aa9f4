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
t_ok "... one facts file a node, named by the node" \
	test "$(ls shared | tr '\n' ' ')" = "n1.facts n2.facts "
t_ok "... node n2 alone sees root 5" test "$(jget n2.jsonl roots)" = "[5]"
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
t_exit 2 "--facts with --facts-out: usage" "$HANGDX" watch --facts --facts-out x shared
t_done
