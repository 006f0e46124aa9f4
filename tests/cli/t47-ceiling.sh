#!/bin/sh
# t47-ceiling.sh - a ceiling never changes a stated fact: the same logs
# diagnosed with and without a tight --max-records; every number the cut
# report states is in the full one or is marked "at least", the cut report
# says it is partial, names no rank as without logs, and is the same on one
# reading thread or two.  A process past the guard on communicators a
# process: the note names what was dropped, the answer unchanged.
. tests/cli/lib.sh

$HANGDX simulate -q --preset reference --set ranks=64 -o "$T/s" > /dev/null 2>&1
$HANGDX diagnose "$T/s" > "$T/full.txt" 2> /dev/null
$HANGDX diagnose --json "$T/s" > "$T/full.json" 2> /dev/null
$HANGDX diagnose --max-records 3000 "$T/s" > "$T/cut.txt" 2> /dev/null
$HANGDX diagnose --json --max-records 3000 "$T/s" > "$T/cut.json" 2> /dev/null

# the numbers of a report, without the rank lists, the missing evidence,
# the lower bounds, the ceiling itself and the note that two kept ranks
# failed closer than the clocks order (their gap, and a precision the cut
# left unmeasured: 250 ms)
nums() {
	sed -e '/^ranks$/,/^$/d' -e '/^missing evidence$/,$d' "$1" |
		tr -s ' \n' '  ' |
		sed -e 's/at least [0-9][0-9]*//g' \
		    -e 's/the first [0-9][0-9]* records//g' \
		    -e 's/Rank [0-9]* failed [0-9.]* ms after rank [0-9]* (clock-corrected)[^;]*either may have failed first\.//' |
		grep -o '[0-9][0-9]*' | sort -u
}
nums "$T/full.txt" > "$T/full.n"
nums "$T/cut.txt" > "$T/cut.n"
t_ok "the full report is not partial" absent '"partial"' "$T/full.json"
t_ok "the cut report says it is partial (JSON)" grep -q '"partial": true' "$T/cut.json"
nfiles=$(find "$T/s" -type f | wc -l)     # every file read, the simulator's json and dot too
t_ok "the cut report says what was kept and read" \
	grep -q "\"cut\": {\"records_kept\": 3000, \"files_read\": $nfiles, \"lines_read\": " "$T/cut.json"
t_ok "the cut report says it is partial (text)" grep -q '^  Partial: the record ceiling' "$T/cut.txt"
$HANGDX diagnose --html "$T/cut.html" --max-records 3000 "$T/s" > /dev/null 2>&1
t_ok "the cut report says it is partial (HTML)" grep -q 'Partial: the record ceiling' "$T/cut.html"
t_ok "every number of the cut report is in the full one or a lower bound" \
	sh -c "test -s '$T/full.n' && test -s '$T/cut.n' && comm -13 '$T/full.n' '$T/cut.n' | { ! grep .; }"
t_ok "ranks alike: at least" grep -q 'at least [0-9]* more ranks alike' "$T/cut.txt"
t_ok "no rank is said to be without logs" absent 'no logs' "$T/cut.txt"
t_ok "groups of alike ranks: at least (JSON)" python3 -c "
import json, sys
c = json.load(open('$T/cut.json'))['groups']
f = json.load(open('$T/full.json'))['groups']
sys.exit(not (c and all(g.get('at_least') for g in c) and not any('at_least' in g for g in f)))"
t_ok "groups of alike ranks: at least (text)" sh -c \
	"sed -n '/^ranks\$/,/^\$/p' '$T/cut.txt' | grep -q '^  at least [0-9]* ranks* '"
t_ok "the cut report names no first rank of the configuration" absent 'first: rank' "$T/cut.txt"
t_ok "the full report does say so when a rank has no logs" sh -c \
	"rm -r '$T/s/rank-5' && '$HANGDX' diagnose '$T/s' 2>/dev/null | grep -q 'no logs for rank 5'"
$HANGDX diagnose --json --threads 1 --max-records 3000 "$T/s" > "$T/one.json" 2> /dev/null
for i in 1 2 3; do
	$HANGDX diagnose --json --threads 2 --max-records 3000 "$T/s" > "$T/two$i.json" 2> /dev/null
done
t_ok "the cut is the same on one reading thread or two" \
	sh -c "cmp '$T/one.json' '$T/two1.json' && cmp '$T/one.json' '$T/two2.json' && cmp '$T/one.json' '$T/two3.json'"

# a size ceiling (archives nested too deep: skipped) cuts evidence too:
# rank 7's logs inside four nested tars
mkdir "$T/n"
tar cf "$T/n/t1.tar" -C "$T/s" rank-7 && rm -r "$T/s/rank-7"
tar cf "$T/n/t2.tar" -C "$T/n" t1.tar && tar cf "$T/n/t3.tar" -C "$T/n" t2.tar &&
	tar cf "$T/s/t4.tar" -C "$T/n" t3.tar
$HANGDX diagnose --json "$T/s" > "$T/deep.json" 2> /dev/null
$HANGDX diagnose "$T/s" > "$T/deep.txt" 2> /dev/null
t_ok "archive nested too deep: partial, what was cut" \
	grep -q '"cut": {"files_over_size_limit": 1, "files_read": ' "$T/deep.json"
t_ok "archive nested too deep: said in the text" grep -q '^  Partial: a size or nesting ceiling' "$T/deep.txt"
t_ok "archive nested too deep: rank 7 is not said to be without logs" \
	absent 'no logs' "$T/deep.txt"
t_ok "archive nested too deep: a deadlock, inferred (never proven beside a cut)" python3 -c "
import json; d = json.load(open('$T/deep.json'))
assert d['verdict'] == 'deadlock' and d.get('partial') is True, (d['verdict'], d.get('partial'))
assert d['proven'] is False and 'It assumes' in d['summary'], (d['proven'], d['summary'])"
# the guard on communicators a process (HX_MAX_GROUPS_PER_PROC, 65,536):
# rank 0's plog names 65,540 more communicators after its 14 (creation
# lines of each); the 18 past the guard are dropped, the note says how many,
# of which process, and which (the last named, the first and the last of
# them); the answer stays the unmodified bundle's
$HANGDX simulate -q --no-trace --preset reference -o "$T/g0" > /dev/null 2>&1
cp -r "$T/g0" "$T/g"
python3 - "$T/g" <<'PY'
import glob, sys
p = glob.glob(sys.argv[1] + '/rank-0/ascend/log/debug/plog/plog-*.log')[0]
lines = open(p).read().split('\n')
last = max(i for i, l in enumerate(lines) if 'HcclCommInitRootInfo success' in l)
pid = lines[last].split('HCCL(')[1].split(',')[0]
form = ('[INFO] HCCL(%s,python3):2026-11-01-07:00:00.000.020 [hccl_comm.cc:129] [%s]'
        'hcclCommInitInfo:commId[hccl-%s-%%d-1793516400-x%%d], rank[0], totalRanks[2], '
        'serverId[127.10.0.1], deviceType[4],logicDevId[0], '
        'identifier[127.10.0.1%%%%enp_61000_%%d_1761275812700000]') % (pid, pid, pid)
lines[last + 1:last + 1] = [form % (i, i, i) for i in range(65540)]
open(p, 'w').write('\n'.join(lines))
open(sys.argv[1] + '.pid', 'w').write(pid)
PY
$HANGDX diagnose --json "$T/g0" > "$T/g0.json" 2> /dev/null
$HANGDX diagnose --json "$T/g" > "$T/g.json" 2> /dev/null
t_ok "65,554 communicators a process: the note names the process, the count and the dropped" python3 -c "
import json; d = json.load(open('$T/g.json')); pid = open('$T/g.pid').read()
n = [x for x in d['notes'] if 'kept per process' in x]
assert len(n) == 1, d['notes']
want = ('Process %s on ? was in 65554 communicators, more than the 65536 kept per process; '
        'memberships dropped: 18, in 1 process(es) (the first process\'s: those named last, '
        '127.10.0.1%%enp_61000_65522_1761275812700000 to 127.10.0.1%%enp_61000_65539_1761275812700000)' % pid)
assert n[0].startswith(want), (n[0], want)"
t_ok "65,554 communicators a process: the unmodified bundle's answer" python3 -c "
import json; d = json.load(open('$T/g.json')); b = json.load(open('$T/g0.json'))
k = ('verdict', 'category', 'proven', 'roots', 'first_failing_rank', 'root_rank')
assert [d[x] for x in k] == [b[x] for x in k], ([d[x] for x in k], [b[x] for x in k])
assert not any('kept per process' in x for x in b['notes']), b['notes']"
$HANGDX facts "$T/g" -o "$T/g.facts" > /dev/null 2>&1
$HANGDX diagnose --json --facts "$T/g.facts" > "$T/gf.json" 2> /dev/null
t_ok "65,554 communicators a process: the same JSON from facts" cmp "$T/g.json" "$T/gf.json"
t_done
