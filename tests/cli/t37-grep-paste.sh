#!/bin/sh
# t37-grep-paste.sh - grep output over plogs and device logs, pasted:
# each line is read as a line of the file grep names, so it is attributed
# to that file's process (the pid of plog-PID_TS.log, the host pid of a
# device log) and to the rank of its rank directory, or through the
# communicator lines of that process, exactly as when the logs
# themselves are read (tests/cli/grep-paste.py compares record by
# record); the diagnosis cites the logs' own file:line, not the paste's;
# grep -r in any file order, context lines (-A/-B, "--"), no -n, one file
# (N:), --color with and without its ESC bytes; tail's and head's
# "==> PATH <==" headers name each file the same way.
. tests/cli/lib.sh
H=tests/cli/grep-paste.py

# parse and diagnose the logs of DIR from inside it ("./rank-0/...")
logs() {
	(cd "$T/$1" && "$HANGDX" parse --json . > "../$1.jsonl" 2>/dev/null
	 "$HANGDX" diagnose --json . > "../$1.json" 2>/dev/null)
}

# every line of every log, file after file in the order hangdx reads a
# directory: the diagnosis is the one of the directory, byte for byte
for preset in reference reference/node rank-death; do
	d=$(echo "$preset" | tr / -)
	case $preset in
	*/node) "$HANGDX" simulate -q --preset "${preset%/node}" --layout node \
			-o "$T/$d" > /dev/null 2>&1 ;;
	*) "$HANGDX" simulate -q --preset "$preset" -o "$T/$d" > /dev/null 2>&1 ;;
	esac
	logs "$d"
	(cd "$T/$d" && grep -n '' $(find . -name '*.log' | LC_ALL=C sort)) \
		> "$T/$d.all.txt"
	"$HANGDX" parse --json "$T/$d.all.txt" > "$T/$d.all.jsonl" 2>/dev/null
	"$HANGDX" diagnose --json "$T/$d.all.txt" > "$T/$d.all.json" 2>/dev/null
	t_ok "$d: grep -n over every log: each record as read from its own file" \
		python3 $H records "$T/$d.jsonl" "$T/$d.all.jsonl" "$T/$d.all.txt"
	t_golden "$d: grep -n over every log: the diagnosis of the logs" \
		"$T/$d.json" "$T/$d.all.json"
	t_ok "$d: its citations are the logs' file:line" \
		python3 $H cites "$T/$d.all.json" "$T/$d.all.txt" "$T/$d"
done

# the errors and the communicator lines of 4 ranks, in grep -r's own
# order: the same records, the same verdict, citations into the logs
d=rank-death
(cd "$T/$d" && grep -rn -e ERROR -e 'rank\[' --include='*.log' .) > "$T/err.txt"
"$HANGDX" parse --json "$T/err.txt" > "$T/err.jsonl" 2>/dev/null
"$HANGDX" diagnose --json "$T/err.txt" > "$T/err.json" 2>/dev/null
t_ok "grep -rn ERROR: each record as read from its own file" \
	python3 $H records "$T/$d.jsonl" "$T/err.jsonl" "$T/err.txt"
verdict() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['hang'], d['category'], d['root_rank'], d['first_failing_rank'])" "$1"
}
t_ok "grep -rn ERROR: the verdict of the logs ($(verdict "$T/$d.json"))" \
	test "$(verdict "$T/err.json")" = "$(verdict "$T/$d.json")"
t_ok "grep -rn ERROR: its citations are the logs' file:line" \
	python3 $H cites "$T/err.json" "$T/err.txt" "$T/$d"

# tail (or head) over the logs: "==> PATH <==" before each file's lines
# names the file, so its lines are attributed as the file's own
(cd "$T/$d" && tail -n +1 $(find . -name '*.log' | LC_ALL=C sort)) > "$T/tail.txt"
"$HANGDX" diagnose --json "$T/tail.txt" > "$T/tail.json" 2>/dev/null
t_ok "tail over every log: the verdict of the logs ($(verdict "$T/$d.json"))" \
	test "$(verdict "$T/tail.json")" = "$(verdict "$T/$d.json")"
t_ok "tail over every log: a record's file is the one its header names" \
	sh -c "'$HANGDX' parse --json '$T/tail.txt' | grep -q '\"vpath\":\"./rank-2/ascend/log/debug/plog/plog-'"
sed 's/^==> .* <==$/==> somewhere <==/' "$T/tail.txt" > "$T/tail-lost.txt"
t_ok "the same headers without the paths: no record in rank-2's plog" \
	sh -c "! '$HANGDX' parse --json '$T/tail-lost.txt' | grep -q '\"vpath\":\"./rank-2/'"
"$HANGDX" diagnose --color=never "$T/err.txt" > "$T/err.out" 2>/dev/null
t_ok "grep -rn ERROR: the text report cites ./rank-N/.../plog-PID_TS.log:LINE" \
	grep -Eq '^ +\./rank-[0-9]/ascend/log/[a-z]+/(plog|device-[0-9])/(plog|device)-[0-9]+_[0-9]+\.log:[0-9]+$' "$T/err.out"

# context lines ("path-N-") and grep's "--" between groups
(cd "$T/$d" && grep -rn -B1 -A2 -e ERROR -e 'rank\[' --include='*.log' .) > "$T/ctx.txt"
t_ok "grep -rn -B1 -A2: context lines and -- separators are there" \
	sh -c "grep -q '^--\$' '$T/ctx.txt' && grep -Eq '^\./rank-[0-9].*\.log-[0-9]+-' '$T/ctx.txt'"
"$HANGDX" parse --json "$T/ctx.txt" > "$T/ctx.jsonl" 2>/dev/null
t_ok "grep -rn -B1 -A2: each record as read from its own file" \
	python3 $H records "$T/$d.jsonl" "$T/ctx.jsonl" "$T/ctx.txt"

# no -n: the files still attribute, there is no line to cite but the paste's
(cd "$T/$d" && grep -r -e ERROR -e 'rank\[' --include='*.log' .) > "$T/non.txt"
"$HANGDX" parse --json "$T/non.txt" > "$T/non.jsonl" 2>/dev/null
t_ok "grep -r (no -n): records name their files, no vline" \
	python3 $H records "$T/$d.jsonl" "$T/non.jsonl" "$T/non.txt" absent
t_ok "grep -r (no -n): pids and ranks as grep -rn gives them" python3 -c "
import json, sys
def att(p):
    return [(r['kind'], r.get('vpath'), r.get('pid'), r['rank'], r.get('rank_from'))
            for r in map(json.loads, open(p)) if 'vpath' in r]
a, b = att('$T/err.jsonl'), att('$T/non.jsonl')
assert a == b and a, (len(a), len(b))"

# one file, grep -n: "N:" before each line; the pid is the line's own
f=$(cd "$T/$d" && find . -path '*rank-0*' -path '*debug/plog*' -name 'plog-*.log' | head -1)
(cd "$T/$d" && grep -n ERROR "$f") > "$T/one.txt"
"$HANGDX" parse --json "$T/one.txt" > "$T/one.jsonl" 2>/dev/null
t_ok "grep -n of one file: every record has the line grep named" python3 -c "
import json
src = open('$T/$d/$f').read().split('\n')
recs = [r for r in map(json.loads, open('$T/one.jsonl')) if r['kind'] not in ('file', 'totals', 'process', 'stream', 'rank')]
assert len(recs) > 2, recs
for r in recs:
    assert 'vpath' not in r, r
    assert 'ERROR' in src[r['vline'] - 1] and str(r['pid']) in src[r['vline'] - 1], r"

# grep --color=always, and the same with the ESC bytes lost in a paste
(cd "$T/$d" && grep --color=always -rn -e ERROR -e 'rank\[' --include='*.log' .) > "$T/col.txt"
sed 's/\x1b//g' "$T/col.txt" > "$T/col-noesc.txt"
t_ok "grep --color=always: colour is there, with and without ESC" sh -c "
	grep -q \"\$(printf '\\033')\\[\" '$T/col.txt' && grep -q '\\[01;31m\\[K' '$T/col-noesc.txt'"
for c in col col-noesc; do
	"$HANGDX" parse --json "$T/$c.txt" > "$T/$c.jsonl" 2>/dev/null
	t_ok "$c: the records of the plain grep output" python3 -c "
import json
def recs(p):
    return [{k: v for k, v in r.items() if k != 'off' and not k.endswith('file')}
            for r in map(json.loads, open(p)) if r['kind'] not in ('file', 'totals')]
a, b = recs('$T/err.jsonl'), recs('$T/$c.jsonl')
assert a == b, [x for x in zip(a, b) if x[0] != x[1]][:2]"
done
t_done
