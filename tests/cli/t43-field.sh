#!/bin/sh
# t43-field.sh - the field reports (tests/data/samples/field/: console
# output and plogs pasted into public issues): for each, the hang decision,
# the category and every id its own '# expected:' line names are checked
# in the JSON by tests/field_check.py (which reads that line), the text
# report is the reviewed golden of tests/golden/field/ (regenerate with
# scripts/regen-field-golden.sh and review the diff), a paste on stdin
# gives the same verdict, and so does the text as a line-envelope layer
# would deliver it (tests/field_join.py: launcher prefixes stripped,
# indented block bodies joined to their line).
. tests/cli/lib.sh
G=tests/golden/field
for f in tests/data/samples/field/*.log; do
	n=$(basename "$f" .log)
	$HANGDX diagnose --json "$f" > "$T/$n.json" 2>/dev/null
	echo $? > "$T/$n.rc"
	t_ok "$n: hang, category and ids of its expected line" \
		sh -c "python3 tests/field_check.py '$f' '$T/$n.json' \$(cat '$T/$n.rc')"
	$HANGDX diagnose --color=never "$f" > "$T/$n.txt" 2>/dev/null
	t_golden "$n: text" "$G/$n.txt" "$T/$n.txt"
	$HANGDX --lang zh diagnose --color=never "$f" > "$T/$n.zh.txt" 2>/dev/null
	t_golden "$n: text in Chinese" "$G-zh/$n.txt" "$T/$n.zh.txt"
	$HANGDX diagnose --json - < "$f" > "$T/$n.stdin.json" 2>/dev/null
	t_ok "$n: the same verdict from stdin" sh -c "
		python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if (a[\"hang\"], a[\"category\"], a.get(\"ids\")) == (b[\"hang\"], b[\"category\"], b.get(\"ids\")) else 1)' '$T/$n.json' '$T/$n.stdin.json'"
	python3 tests/field_join.py "$f" "$T/$n.joined.log"
	$HANGDX diagnose --json "$T/$n.joined.log" > "$T/$n.joined.json" 2>/dev/null
	echo $? > "$T/$n.joined.rc"
	t_ok "$n: the same with prefixes stripped and block bodies joined" \
		sh -c "python3 tests/field_check.py '$T/$n.joined.log' '$T/$n.joined.json' \$(cat '$T/$n.joined.rc')"
done

# the HTML page says what the text says when the text cannot tell
f=$(ls "$DATA"/samples/field/54-*.log)
$HANGDX diagnose --html "$T/54.html" "$f" > /dev/null 2>&1
t_ok "HTML: a failure that may or may not be a hang is not called HANG" \
	grep -q 'class="badge">FAILED, HANG NOT DETERMINED' "$T/54.html"
t_done
