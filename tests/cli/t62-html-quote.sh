#!/bin/sh
# t62-html-quote.sh - the HTML report quotes only lines of files read in
# this run, and only when the line read back is the one parsed.  Saved
# evidence (hangdx parse --json) loaded with --evidence is never quoted:
# a crafted record naming an unrelated local file, or a log rotated since
# the evidence was saved, must not put that file's text into the page.
# A quoted line holding <, ", & is shown as text.
. tests/cli/lib.sh
cd "$T" || exit 1

"$HANGDX" simulate -q --preset reference -o ref > /dev/null 2>&1
D=ref/rank-0/ascend/log/debug/device-0/device-100003_20261101070000000.log
"$HANGDX" parse --json ref > ev.jsonl 2> /dev/null
# an unrelated local file whose lines start where the cited lines do
sed 's/[A-Za-z0-9]/S/g' "$D" > secret.txt
sed "s#$D#secret.txt#" ev.jsonl > crafted.jsonl
"$HANGDX" diagnose --evidence crafted.jsonl --html c.html > /dev/null 2>&1
t_ok "crafted evidence: the named local file is not quoted" \
	sh -c 'test -s c.html && ! grep -q SSSSSS c.html && ! grep -q "<pre>" c.html'
t_ok "crafted evidence: a note says why there is no quote" \
	grep -q "no quote: the file was not read in this run" c.html

# the log rotated after the evidence was saved: same shape, other times
cp "$D" orig.log
sed 's/07:30:36/07:44:44/' orig.log > "$D"
"$HANGDX" diagnose --evidence ev.jsonl --html r.html > /dev/null 2>&1
t_ok "rotated log, saved evidence: no line of the new file quoted" \
	sh -c 'test -s r.html && ! grep -q "07:44:44" r.html && ! grep -q "<pre>" r.html'
cp orig.log "$D"

# read in this run: quoted
"$HANGDX" diagnose --html q.html ref > /dev/null 2>&1
t_ok "logs read in this run: the cited lines are quoted" \
	sh -c 'test "$(grep -c "<pre>" q.html)" -eq 8 && ! grep -q "no quote" q.html'

# a quoted line holding markup: its <, >, ", & shown as text, the
# verdict unchanged (the free text after the AICPU core warning's phrase)
"$HANGDX" diagnose --json ref > q.json 2> /dev/null
sed 's/reduce the num of comm\.$/& (see "<b>" \& co)/' orig.log > "$D"
"$HANGDX" diagnose --json ref > m.json 2> /dev/null
"$HANGDX" diagnose --html m.html ref > /dev/null 2>&1
t_ok "a quoted line with < \" &: the same diagnosis" cmp q.json m.json
t_ok "a quoted line with < \" &: escaped in the page" \
	grep -q 'comm\. (see &quot;&lt;b&gt;&quot; &amp; co)</pre>' m.html
t_ok "a quoted line with < \" &: no raw markup of the log" \
	sh -c '! grep -q -e "(see \"" -e "<b&gt;" -e "<b>\"" -e "& co)" m.html'
cp orig.log "$D"
t_done
