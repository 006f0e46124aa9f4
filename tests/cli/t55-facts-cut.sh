#!/bin/sh
# t55-facts-cut.sh - a record ceiling on the node that read the logs is
# stated as that node's cut by a diagnosis from its facts: the facts'
# header carries the ceiling and the records the node kept ("kept"), the
# report says "--max-records 150" and the node's 150 records, never the
# deciding side's default ceiling, and the JSON's cut gives the node's
# records_kept, the single pass's, beside records_here (the facts' records
# and those read again, which differ: the ranks read again are read under
# the same ceiling, their files alone, each kept to what the node kept of
# it, so that the rest of the report is the single pass's).  Two nodes
# each cut: their kept records add up.
. tests/cli/lib.sh
H=$HANGDX

"$H" simulate -q --preset rank-death -o "$T/d" > /dev/null 2>&1
"$H" diagnose --json --max-records 150 "$T/d" > "$T/single.json" 2> /dev/null
"$H" facts --max-records 150 "$T/d" -o "$T/d.facts" 2> /dev/null
"$H" diagnose --json --facts "$T/d.facts" > "$T/facts.json" 2> /dev/null
"$H" diagnose --facts "$T/d.facts" > "$T/facts.txt" 2> /dev/null
t_ok "single pass: cut at 150 records" python3 -c "
import json; d=json.load(open('$T/single.json'))
assert d['partial'] and d['cut']['records_kept']==150, d['cut']"
t_ok "facts header: the node's ceiling and the records it kept" python3 -c "
import json; h=json.loads(open('$T/d.facts').readline())
assert h.get('max_records')==150 and h.get('kept')==150, h"
t_ok "from facts: records_kept is the node's, the single pass's" python3 -c "
import json; d=json.load(open('$T/facts.json')); s=json.load(open('$T/single.json'))
assert d['partial'] and d['cut']['records_kept']==s['cut']['records_kept'], (d['cut'], s['cut'])"
t_ok "from facts: records_here says what this diagnosis holds, apart" python3 -c "
import json; d=json.load(open('$T/facts.json'))
c=d['cut']
assert 'records_here' not in c or c['records_here']!=c['records_kept'], c"
t_ok "from facts: the text states the node's ceiling and count" sh -c "
tr '\n' ' ' < $T/facts.txt | tr -s ' ' | grep -q 'record ceiling (--max-records 150) was reached where the logs were read; 150 records' &&
! grep -q 4194304 $T/facts.txt"
t_ok "from facts: the missing-evidence line names 150 too" grep -q 'only the first 150 records' "$T/facts.txt"
# a file the node's ceiling cut says how many records it kept ("kept"), and
# phase 2, reading it again under the same ceiling with fewer files beside
# it, keeps no more: the first failure and every rank's state are the
# single pass's (rank 3's plog holds an earlier runtime timeout the node
# never kept)
t_ok "facts: the files the ceiling cut say what they kept" sh -c "
zcat -f '$T/d.facts' | grep -q '\"kind\":\"file\".*\"kept\":'"
t_ok "from facts: the first failure and the ranks are the single pass's" python3 -c "
import json; d=json.load(open('$T/facts.json')); s=json.load(open('$T/single.json'))
assert d['first_failure']==s['first_failure'], (d['first_failure'], s['first_failure'])
assert d['ranks']==s['ranks']
assert [k for k in s if k != 'cut' and s[k]!=d.get(k)]==[], [k for k in s if s[k]!=d.get(k)]"

# two nodes, each cut at 50: the kept records add up
a="$T/d/rank-0 $T/d/rank-1"
b="$T/d/rank-2 $T/d/rank-3"
# shellcheck disable=SC2086
"$H" diagnose --json --max-records 50 $a > "$T/a.json" 2> /dev/null
# shellcheck disable=SC2086
"$H" diagnose --json --max-records 50 $b > "$T/b.json" 2> /dev/null
# shellcheck disable=SC2086
"$H" facts --max-records 50 $a -o "$T/a.facts" 2> /dev/null
# shellcheck disable=SC2086
"$H" facts --max-records 50 $b -o "$T/b.facts" 2> /dev/null
"$H" diagnose --json --facts "$T/a.facts" --facts "$T/b.facts" > "$T/ab.json" 2> /dev/null
t_ok "two nodes cut at 50: records_kept is the sum of each node's" python3 -c "
import json
a=json.load(open('$T/a.json'))['cut']['records_kept']; b=json.load(open('$T/b.json'))['cut']['records_kept']
d=json.load(open('$T/ab.json'))
assert d['partial'] and d['cut']['records_kept']==a+b==100, (a, b, d['cut'])"
# the same facts twice: the cut counted once
"$H" diagnose --json --facts "$T/a.facts" --facts "$T/b.facts" --facts "$T/a.facts" \
	> "$T/aba.json" 2> /dev/null
t_ok "the same facts again: the nodes' kept records counted once" python3 -c "
import json; d=json.load(open('$T/aba.json'))
assert d['cut']['records_kept']==100, d['cut']"
t_done
