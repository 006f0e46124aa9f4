#!/bin/sh
# t67-watch-matrix.sh - every scenario of tests/matrix.py watched as its
# logs grow (tests/watchgrow.py --matrix): a hang's first deadlock or
# failure event gives the finished logs' category and roots (a deadlock
# not before the cycle closed, its roots all named however many), a job
# that completes gives none, a link error op retry recovers is a failure
# event and, finished, no hang; each cut split over two nodes and decided
# from their facts alone says what the whole cut says (--nodes).  Not
# under the sanitizers (the suite's time): t67-watch-grow runs two cases
# there.
. tests/cli/lib.sh

if [ -n "$HANGDX_SANITIZED" ]; then
	t_skip "the matrix watched as it grows" "under the sanitizers: t67-watch-grow runs two cases"
	t_done
	exit
fi
python3 tests/watchgrow.py "$HANGDX" "$T/grow" --matrix --nodes > "$T/grow.tap" 2>&1
echo $? > "$T/grow.rc"
sed 's/^/# /' "$T/grow.tap"
n=$(python3 tests/matrix.py "$HANGDX" "$T/list" --list | grep -vc @)
for name in $(python3 tests/matrix.py "$HANGDX" "$T/list" --list | grep -v @); do
	t_ok "$name" grep -q "^ok [0-9]* - matrix-$name\$" "$T/grow.tap"
done
# 64 roots: the event names them all, the text line the first 16
b="$T/grow/matrix-ref-r64-c6-k6-on"
"$HANGDX" --lang en watch --for 0 "$b" > "$T/r64.txt" 2>/dev/null
"$HANGDX" watch --for 0 --json "$b" > "$T/r64.json" 2>/dev/null
t_ok "64 roots: the text line names 16 and says how many more" \
	grep -q "roots 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 and 48 more," "$T/r64.txt"
t_ok "64 roots: the JSON event lists all 64" python3 -c '
import json, sys
e = json.loads(open(sys.argv[1]).readline())
sys.exit(not (e["roots"] == list(range(64)) and e["nroots"] == 64 and "roots_cut" not in e))' "$T/r64.json"
t_ok "watchgrow.py ran all $n scenarios of the matrix (exit $(cat "$T/grow.rc"))" \
	sh -c "test $(cat "$T/grow.rc") = 0 && grep -q '^1\.\.$n\$' '$T/grow.tap'"
t_done
