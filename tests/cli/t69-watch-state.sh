#!/bin/sh
# t69-watch-state.sh - watch --state FILE: what a watch said (its last
# event, whether --on-hang ran for the incident) is kept in FILE, written
# whole on each change, and a restarted watch starts from it: the same
# deadlock is not said again and its hook does not run again; the
# incident refined (inferred, then proven) is said, still without the
# hook; a job that then looks healthy is "resumed".  A file that is not a
# state file is refused (exit 3, file:1) and left as it was; a line that
# is not a state line is a warning with its file:line and is skipped.
# The offsets of the files the last decision read are kept too: a watch
# restarted on logs that did not change since decides nothing.
. tests/cli/lib.sh

cd "$T" || exit 1
"$HANGDX" simulate -q --no-trace --preset reference -o ref > /dev/null 2>&1
"$HANGDX" simulate -q --no-trace --preset healthy -o ok > /dev/null 2>&1
cp -r ref run
python3 "$ROOT/tests/bundle_edit.py" upto run 65 > /dev/null
hook="echo \$HANGDX_EVENT >> hook.txt"

"$HANGDX" watch --for 0 --state st --on-hang "$hook" run > e1.txt 2> e1.err
rc=$?
t_ok "a running deadlock: said, exit 1, the hook ran (exit $rc)" \
	sh -c "test $rc -eq 1 && grep -q 'deadlock: aicpu_exhaustion_deadlock (inferred)' e1.txt && test \$(wc -l < hook.txt) -eq 1"
t_ok "the state file holds the event and the hook" \
	sh -c "head -1 st | grep -qx 'hangdx-watch-state 1' && grep -qx 'kind deadlock' st && grep -qx 'fired 1' st && grep -qx 'key aicpu_exhaustion_deadlock/0/0,1' st"
"$HANGDX" watch --for 0 --state st --on-hang "$hook" run > e2.txt 2> e2.err
rc=$?
t_ok "restarted on the same logs: exit 1, nothing said again, no second hook (exit $rc)" \
	sh -c "test $rc -eq 1 && test -f e2.txt && ! test -s e2.txt && test \$(wc -l < hook.txt) -eq 1"
"$HANGDX" watch --for 0 --state st --on-hang "$hook" ref > e3.txt 2> e3.err
t_ok "restarted on the finished logs: the deadlock proven is said, the hook not again" \
	sh -c "grep -q 'deadlock: aicpu_exhaustion_deadlock (proven)' e3.txt && test \$(wc -l < hook.txt) -eq 1"
"$HANGDX" watch --for 0 --state st --on-hang "$hook" ok > e4.txt 2> e4.err
rc=$?
t_ok "restarted on a healthy job: resumed, exit 0, the state cleared (exit $rc)" \
	sh -c "test $rc -eq 0 && grep -q ' resumed: ' e4.txt && grep -qx 'kind -' st && grep -qx 'fired 0' st"
"$HANGDX" watch --for 0 --state st --on-hang "$hook" ref > e5.txt 2> e5.err
t_ok "a new incident after that: said, and its hook runs" \
	sh -c "grep -q 'deadlock: ' e5.txt && test \$(wc -l < hook.txt) -eq 2"
"$HANGDX" watch --for 0 ok > e6.txt 2> e6.err
t_ok "without --state a healthy job says nothing" sh -c "test -f e6.txt && ! test -s e6.txt"

# the offsets of the files the last decision read are kept: restarted on
# logs nothing changed in, it decides nothing (no --prom written, the
# state's exit status); a line written since, or a file truncated since,
# is a change and decided
rm -rf st3 rr && cp -r run rr
"$HANGDX" watch --for 0 --state st3 rr > r1.txt 2> r1.err
t_ok "the state file holds the look decided at and every file's offset" \
	sh -c "grep -q '^seen [0-9a-f]\{16\}\$' st3 && test \$(grep -c '^file [0-9]* [0-9]* [0-9]*\$' st3) -eq \$(find rr -type f | wc -l)"
"$HANGDX" watch --for 0 --state st3 --prom r2.prom rr > r2.txt 2> r2.err
rc=$?
t_ok "restarted on logs that did not change: no decision, the state's exit (exit $rc)" \
	sh -c "test $rc -eq 1 && ! test -e r2.prom && ! test -s r2.txt"
f=$(find rr -type f -name '*.log' | head -1)
echo "[INFO] HCCL(1,python):2026-01-01-00:00:00.000.000 [x.cc:1] [1]step" >> "$f"
"$HANGDX" watch --for 0 --state st3 --prom r3.prom rr > r3.txt 2> r3.err
t_ok "a line written since: decided (the textfile written)" test -s r3.prom
"$HANGDX" watch --for 0 --state st3 --prom r4.prom rr > r4.txt 2> r4.err
t_ok "... and not again once the state has it" sh -c "! test -e r4.prom"
: > "$f"
"$HANGDX" watch --for 0 --state st3 --prom r5.prom rr > r5.txt 2> r5.err
t_ok "a file truncated since: decided" test -s r5.prom
sed 's/^seen .*/seen zz/' st3 > st4 && printf 'file 1 2\nfile x 1 2\n' >> st4
"$HANGDX" watch --for 0 --state st4 --prom r6.prom rr > r6.txt 2> r6.err
t_ok "a bad seen or file line: warned with file:line, and decided afresh" \
	sh -c "grep -q '^st4:[0-9]*: warning: not a state line' r6.err && test \$(grep -c 'not a state line' r6.err) -eq 3 && test -s r6.prom"

echo 'step 10 loss 2.31' > notstate.txt
cp notstate.txt keep.txt
t_exit 3 "a file that is not a state file: exit 3" "$HANGDX" watch --for 0 --state notstate.txt ok
"$HANGDX" watch --for 0 --state notstate.txt ok > /dev/null 2> e7.err
t_ok "... named with its line, and left as it was" \
	sh -c "grep -q '^notstate.txt:1: error: not a hangdx watch state file' e7.err && cmp -s notstate.txt keep.txt"
printf 'hangdx-watch-state 1\nkind deadlock\nbogus 1\nfired 7\nkey aicpu_exhaustion_deadlock/1/0,1\n' > st2
"$HANGDX" watch --for 0 --state st2 ref > e8.txt 2> e8.err
rc=$?
t_ok "bad lines: warnings with file:line, the rest read (exit $rc)" \
	sh -c "test $rc -eq 1 && grep -q '^st2:3: warning: not a state line' e8.err && grep -q '^st2:4: warning: not a state line' e8.err && test -f e8.txt && ! test -s e8.txt"
t_ok "... and the file written whole again" sh -c "! grep -q bogus st2 && grep -qx 'fired 0' st2"
t_exit 2 "--state without a value: usage" "$HANGDX" watch --for 0 ref --state
t_done
