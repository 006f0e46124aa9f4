#!/bin/sh
# t45-roots.sh - roots among many ranks: the reference incident with the
# AICPU operator on ranks 3 and 5 of 8 only (the other ranks' pools are
# full too, but only 3 and 5 hold a cycle): every report names both roots
# and no victim; then the asymmetric scenarios of tests/roots.py (8 to 256
# ranks, 1 to 3 roots, a victim's timeout firing first) against truth.json.
. tests/cli/lib.sh

sed -e 's/^  ranks: 2$/  ranks: 8/' \
    -e 's/aicpu: {stream: compute, name: NonZero, duration: 200us}/aicpu: {stream: compute, name: NonZero, duration: 200us, ranks: [3, 5]}/' \
    scenarios/reference.yaml > "$T/r8.yaml"
$HANGDX simulate -q --no-trace "$T/r8.yaml" -o "$T/r8" > /dev/null 2>&1
t_ok "truth.json: roots 3 and 5" python3 -c "
import json; t=json.load(open('$T/r8/truth.json')); assert t['roots']==[3,5], t['roots']"
$HANGDX diagnose "$T/r8" > "$T/r8.txt" 2>&1
t_ok "text: root cause ranks: 3, 5" grep -q "^  root cause ranks: 3, 5$" "$T/r8.txt"
t_ok "text: the victims told apart" grep -q "(victim: waits on another rank): 0-2,4,6-7$" "$T/r8.txt"
t_ok "text: the roots told apart" grep -q "(root: its own state holds the hang): 3,5$" "$T/r8.txt"
$HANGDX diagnose --json "$T/r8" > "$T/r8.json"
t_ok "json: roots, root_rank the first, roles" python3 -c "
import json; d=json.load(open('$T/r8.json'))
assert d['roots']==[3,5] and d['root_rank']==3, (d['roots'], d['root_rank'])
assert [r['rank'] for r in d['ranks'] if r.get('role')=='root']==[3,5]
g={tuple(x['ranks']): x for x in d['groups']}
assert g[(3,5)]['role']=='root' and g[(0,1,2,4,6,7)]['role']=='victim', d['groups']
assert g[(0,1,2,4,6,7)]['waits_on']==[], d['groups']"
t_ok "json: one more root alike in the summary, not seven ranks" python3 -c "
import json; d=json.load(open('$T/r8.json'))
assert 'on rank 3 (and 1 more rank alike)' in d['summary'], d['summary']"
t_ok "dot: both roots marked" sh -c "$HANGDX diagnose --dot $T/r8.dot $T/r8 >/dev/null; test \$(grep -c 'device [35]): root\"; .*color=red' $T/r8.dot) -eq 2"
t_ok "html: both roots named" sh -c "$HANGDX diagnose --html $T/r8.html $T/r8 >/dev/null; grep -q '<dt>root cause ranks</dt><dd><b>rank 3, rank 5</b>' $T/r8.html"
t_ok "zh_CN: roots translated" sh -c "$HANGDX --lang zh_CN diagnose $T/r8 | grep -q '根因 rank：3，5'"

# a named peer leads a victim to its root: rank 4's wait names rank 3
cp -r "$T/r8" "$T/peer"
f=$(ls "$T"/peer/rank-4/ascend/log/debug/plog/plog-*.log)
sed -i 's/Waiting peer rank: 4294967295/Waiting peer rank: 3/' "$f"
$HANGDX diagnose --json "$T/peer" > "$T/peer.json"
t_ok "json: a victim naming its peer waits on that root" python3 -c "
import json; d=json.load(open('$T/peer.json'))
r4=[r for r in d['ranks'] if r['rank']==4][0]
assert r4['role']=='victim' and r4['waits_on_ranks']==[3], r4
assert any(g.get('waits_on')==[3] and 4 in g['ranks'] for g in d['groups']), d['groups']"
t_ok "text: the victim's root named under its group" sh -c "$HANGDX diagnose $T/peer | grep -q 'waiting on root rank 3$'"

python3 tests/roots.py "$HANGDX" "$T/cases" > "$T/roots.tap" 2>&1
rc=$?
t_ok "asymmetric: at least 10 scenarios" sh -c "test \$(grep -c '^ok\|^not ok' $T/roots.tap) -ge 10"
t_ok "asymmetric: a victim's timeout fires first in 3 or more" sh -c "grep -q '^# [3-9][0-9]* cases where a victim' $T/roots.tap"
# roots.py exits 1 when a case fails (and so does a crash of it)
t_ok "asymmetric: roots, victims and first failing rank as truth (roots.py exit $rc)" \
	sh -c "test $rc -eq 0 && ! grep -A4 '^not ok' $T/roots.tap | grep ."
# victims reached through other victims (a ring of 8 behind a mismatched
# rank 1: rank 4 waits on 3, which waits on 2, ...): each victim group
# waits on the root its chain leads to, never on the victim it waits through
$HANGDX simulate -q --no-trace --preset mismatch --set ranks=8 -o "$T/mm" > /dev/null 2>&1
$HANGDX diagnose --json "$T/mm" > "$T/mm.json" 2> /dev/null
t_ok "victims several hops away wait on the root, not on a victim" python3 -c "
import json; d = json.load(open('$T/mm.json'))
assert d['roots'] == [1], d['roots']
v = [g for g in d['groups'] if g.get('role') == 'victim']
assert sum(len(g['ranks']) for g in v) == 7, v
assert all(g['waits_on'] == [1] for g in v), v"
t_done
