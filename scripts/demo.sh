#!/bin/sh
# scripts/demo.sh - `make demo`: simulate the reference incident (14
# communicators, op retry on, 6 AICPU cores, a communication op waiting on
# an AICPU op through an event), show where its outputs are, then diagnose
# it from the logs alone.
HANGDX=${HANGDX:-./hangdx}
out=demo-out
rm -rf "$out"
echo "== hangdx simulate --preset reference -o $out/sim"
$HANGDX simulate --preset reference -o "$out/sim"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	exit "$rc"
fi
echo
echo "outputs:"
echo "  $out/sim/truth.json                  what really happened (the wait cycle)"
echo "  $out/sim/trace.json                  open in ui.perfetto.dev or chrome://tracing"
echo "  $out/sim/waitgraph.dot               the wait-for graph at the deadlock (dot -Tsvg)"
echo "  $out/sim/rank-*/ascend/log/debug/    CANN plogs and device logs, as a cluster writes them"
echo
echo "== hangdx diagnose $out/sim   (from the logs alone)"
$HANGDX diagnose --dot "$out/diagnosis.dot" "$out/sim"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || exit "$rc"
echo
echo "  $out/diagnosis.dot                   the wait-for graph rebuilt from the logs"
exit 0
