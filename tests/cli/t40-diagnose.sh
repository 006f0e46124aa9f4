#!/bin/sh
# t40-diagnose.sh - `hangdx diagnose` end to end: the simulated reference
# incident diagnosed from its logs alone (proven deadlock, the cycle with
# file:line evidence, the fix), archives and saved evidence as input, the
# DOT graph, exit codes; then the matrix of generated scenarios
# (tests/matrix.py) where simulate -> diagnose must recover truth.json.
. tests/cli/lib.sh

$HANGDX simulate -q --preset reference -o "$T/ref" > /dev/null 2>&1
t_exit 1 "reference: hang found (exit 1)" $HANGDX diagnose "$T/ref"
$HANGDX diagnose "$T/ref" > "$T/ref.txt" 2>&1
t_ok "text: proven AICPU exhaustion deadlock" grep -q "^hangdx: DEADLOCK — AICPU exhaustion deadlock (proven)" "$T/ref.txt"
t_ok "text: every hop has its evidence line" sh -c "test \$(grep -c 'device-100003_.*\.log:[0-9]' $T/ref.txt) -ge 6"
t_ok "text: the fix names the safe limit" grep -q "at or below 5" "$T/ref.txt"
t_ok "text: no colour when piped" absent "$(printf '\033')" "$T/ref.txt"
t_ok "colour on request" sh -c "$HANGDX diagnose --color=always $T/ref | grep -q \$(printf '\\033')"
$HANGDX diagnose --json "$T/ref" > "$T/ref.json"
t_ok "json: valid, deadlock, root rank 0, the chain from the first error" python3 -c "
import json; d=json.load(open('$T/ref.json'))
assert d['verdict']=='deadlock' and d['proven'] and d['root_rank']==0, d
assert [h['kind'] for h in d['chain']] == ['NOTIFY_WAIT','NOTIFY_RECORD','EVENT_WAIT','EVENT_RECORD','AICPU','AICPU_POOL','KERNEL_HCCL']
ff=d['first_failure']; h=d['chain'][0]
assert (h['rank'], h['stream_id'], h['task_id']) == (ff['rank'], ff['stream_id'], ff['task_id']), (h, ff)"
t_ok "json: alike ranks grouped" python3 -c "
import json; d=json.load(open('$T/ref.json')); assert d['groups'][0]['ranks']==[0,1], d['groups']"
t_ok "--dot writes a graph that renders cleanly" sh -c "$HANGDX diagnose --dot $T/d.dot $T/ref >/dev/null; dot -Tsvg $T/d.dot -o $T/d.svg 2>$T/dot.err; test -s $T/d.svg && ! test -s $T/dot.err"
t_ok "--dot marks the cycle" grep -q "color=red" "$T/d.dot"

# after 2,000 healthy steps, at debug level (the runtime's completion
# trace around the evidence): the same proof, the kernel of op 2000
$HANGDX simulate -q --preset training-hang --set log_level=debug -o "$T/th" > /dev/null 2>&1
t_ok "debug level: one completion line per finished task" sh -c "test \$(grep -c LogicCqReportV2 $T/th/rank-0/ascend/log/debug/plog/plog-*.log) -gt 20000"
$HANGDX diagnose --json "$T/th" > "$T/th.json"
t_ok "training then hang: proven deadlock at op 2000" python3 -c "
import json; d=json.load(open('$T/th.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and d['proven'], d['category']
# HCCL's executed-op index (HcclOpExecFsmInitProcess, AicpuComm) counts from 1
assert any('op2001' in h['what'] for h in d['chain'] if h['kind']=='KERNEL_HCCL'), d['chain']"

t_ok "record ceiling reached: named as missing evidence" sh -c "$HANGDX diagnose --max-records 300 --threads 1 $T/th 2>/dev/null | grep -q 'record limit reached'"
t_exit 2 "--threads 3: usage error" $HANGDX diagnose --threads 3 "$T/th"

# the same from an archive, and from saved evidence
tar -C "$T" -czf "$T/ref.tar.gz" ref
t_ok "archive input: same verdict" sh -c "$HANGDX diagnose --json $T/ref.tar.gz | grep -q '\"category\": \"aicpu_exhaustion_deadlock\"'"
$HANGDX parse --json "$T/ref" > "$T/ev.jsonl" 2>/dev/null
t_ok "saved evidence: same verdict" sh -c "$HANGDX diagnose --json --evidence $T/ev.jsonl | grep -q '\"category\": \"aicpu_exhaustion_deadlock\"'"
# the evidence of two halves, as the shell gives `--evidence *.jsonl`: one
# --evidence, the other file a PATH; then both files as PATHs alone
mkdir -p "$T/h0" "$T/h1"
cp -r "$T"/ref/rank-0 "$T"/ref/rank-1 "$T/h0/"
cp -r "$T"/ref/rank-[2-9]* "$T/h1/" 2>/dev/null
$HANGDX parse --json "$T/h0" > "$T/h0.jsonl" 2>/dev/null
$HANGDX parse --json "$T/h1" > "$T/h1.jsonl" 2>/dev/null
$HANGDX diagnose --json --evidence "$T/h0.jsonl" --evidence "$T/h1.jsonl" > "$T/ev2.out" 2>/dev/null
t_ok "--evidence A B (evidence as PATH): the JSON of --evidence A --evidence B" sh -c \
	"$HANGDX diagnose --json --evidence $T/h1.jsonl $T/h0.jsonl 2>/dev/null | cmp -s - $T/ev2.out"
t_ok "evidence files as PATHs alone: the same JSON" sh -c \
	"$HANGDX diagnose --json $T/h0.jsonl $T/h1.jsonl 2>/dev/null | cmp -s - $T/ev2.out"
t_ok "the evidence of the halves finds the deadlock" grep -q '"category": "aicpu_exhaustion_deadlock"' "$T/ev2.out"

# without the device debug logs (no stream dumps) but with the run log:
# the exhaustion inferred from the resident kernels and the local wait
mkdir -p "$T/hostrun" && cp -r "$T/ref/rank-0" "$T/ref/rank-1" "$T/hostrun/" && rm -rf "$T"/hostrun/rank-*/ascend/log/debug/device-*
$HANGDX diagnose --json "$T/hostrun" > "$T/hr.json"
t_ok "host logs and the run log: the exhaustion inferred, not proven, the dumps named as missing" python3 -c "
import json; d=json.load(open('$T/hr.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and not d['proven'], (d['category'], d['proven'])
assert 'no TS stream dump is in these logs' in d['summary'], d['summary']"
# host logs alone: no deadlock claimed, the missing evidence named
mkdir -p "$T/hostonly" && cp -r "$T/hostrun"/rank-* "$T/hostonly/" && rm -rf "$T"/hostonly/rank-*/ascend/log/run
$HANGDX diagnose --json "$T/hostonly" > "$T/ho.json"
t_ok "host logs only: no deadlock claimed" python3 -c "
import json; d=json.load(open('$T/ho.json')); assert d['verdict']=='hang' and not d['proven'], d['verdict']"
t_ok "host logs only: says what is missing" grep -q "no TS stream dumps" "$T/ho.json"
t_ok "host logs only: still warns of the danger zone" grep -q "Danger zone" "$T/ho.json"

# killed before any timeout fired: no error line, the hang found from progress
$HANGDX simulate -q --preset reference --set time_limit=600s -o "$T/sil" > /dev/null 2>&1
$HANGDX diagnose --json "$T/sil" > "$T/sil.json"
t_ok "killed before the timeout: the exhaustion inferred without an error line" python3 -c "
import json; d=json.load(open('$T/sil.json'))
assert d['verdict']=='deadlock' and d['category']=='aicpu_exhaustion_deadlock', d['category']
assert not d['proven'] and d['roots'] == [0, 1], (d['proven'], d['roots'])
assert 'before any timeout' in d['summary']
assert all(r['no_progress_s'] > 500 for r in d['ranks']), d['ranks']"

# one rank's device log missing: the proof still stands on rank 0, and the
# gap is named
cp -r "$T/ref" "$T/nodev" && rm -rf "$T/nodev/rank-1/ascend/log/debug/device-1" \
	"$T/nodev/rank-1/ascend/log/run/device-1"
t_ok "missing device log named" sh -c "$HANGDX diagnose $T/nodev | grep -q 'no device log for rank 1'"

# retry off: no hang
$HANGDX simulate -q --preset reference --set retry=off -o "$T/off" > /dev/null 2>&1
t_exit 0 "retry off: no hang (exit 0)" $HANGDX diagnose "$T/off"
# a job that ran fine but is configured into the danger zone: warned
$HANGDX simulate -q --preset reference-safe -o "$T/safe" > /dev/null 2>&1
t_exit 0 "danger zone without a hang: exit 0" $HANGDX diagnose "$T/safe"
t_ok "danger zone without a hang: warned, with the limit" sh -c "$HANGDX diagnose $T/safe | grep -q 'Keep it at 5 or fewer'"
t_exit 2 "no path is a usage error" $HANGDX diagnose
t_exit 3 "unreadable input exits 3" $HANGDX diagnose "$T/does-not-exist"

# a checker witness replayed by the simulator: diagnose names the same cycle
$HANGDX check -q --preset grant-order --witness "$T/w.yaml" > /dev/null 2>&1
$HANGDX simulate -q "$T/w.yaml" -o "$T/wit" > /dev/null 2>&1
# grant-order runs 4 AICPU cores: stated, as the pool is never taken
# smaller than the product's 6 otherwise
$HANGDX diagnose --json --cores 4 "$T/wit" > "$T/wit.json" 2>/dev/null
t_ok "witness replay: diagnose names the checker's cycle" python3 -c "
import json
t=json.load(open('$T/wit/truth.json')); d=json.load(open('$T/wit.json'))
tk=[(c['node']['kind'], c['node'].get('stream_id'), c['node'].get('task_id')) for c in t['cycle']]
dk=[(h['kind'], h.get('stream_id'), h.get('task_id')) for h in d['chain']]
assert tk and any(dk == tk[i:] + tk[:i] for i in range(len(tk))) and d['proven'], (tk, dk)"

# the matrix: simulate -> diagnose recovers the truth, on rank-N/ and on
# the layouts of real collections (node, flat, reused pids, late starts)
python3 tests/matrix.py "$HANGDX" "$T/matrix" > "$T/matrix.tap" 2>&1
echo $? > "$T/matrix.rc"
t_ok "matrix: at least 60 scenarios" sh -c "test \$(grep '^ok\|^not ok' $T/matrix.tap | grep -vc @) -ge 60"
t_ok "matrix: every scenario at layout node" sh -c "test \$(grep -c '@node\$' $T/matrix.tap) -eq \$(grep '^ok\|^not ok' $T/matrix.tap | grep -vc @)"
t_ok "matrix: a share at flat and with reused pids, late starts" sh -c "test \$(grep -c '@flat\$' $T/matrix.tap) -ge 20 && test \$(grep -c '@ip-pids-late\$' $T/matrix.tap) -ge 20"
# matrix.py exits 1 when a scenario fails (and so does a crash of it)
t_ok "matrix: every scenario's truth recovered (matrix.py exit $(cat "$T/matrix.rc"))" sh -c \
	"test \$(cat $T/matrix.rc) -eq 0 && grep -q '^1\.\.[1-9]' $T/matrix.tap && ! grep -A4 '^not ok' $T/matrix.tap | grep ."
t_ok "matrix: every scenario also from facts (base and a variant)" sh -c \
	"grep -q '^# from facts: [0-9]* runs of [0-9]* scenarios' $T/matrix.tap && awk '/^# from facts:/ { exit !(\$4 >= 2 * \$7) }' $T/matrix.tap"
t_done
