#!/bin/sh
# scripts/demo.sh - `make demo`: simulate the reference incident (14
# communicators, op retry on, 6 AICPU cores, a communication op waiting on
# an AICPU op through an event) and show where its outputs are.
out=demo-out
rm -rf "$out"
echo "== hangdx simulate --preset reference -o $out"
./hangdx simulate --preset reference -o "$out/sim"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	exit "$rc"
fi
echo
echo "outputs:"
echo "  $out/sim/truth.json                  what really happened (the wait cycle)"
echo "  $out/sim/trace.json                  open in https://ui.perfetto.dev or chrome://tracing"
echo "  $out/sim/rank-*/ascend/log/debug/    CANN plogs and device logs, as a cluster writes them"
