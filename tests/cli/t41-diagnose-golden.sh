#!/bin/sh
# t41-diagnose-golden.sh - the golden diagnoses: every log sample of tests/data and
# the simulated reference incident give exactly the reviewed text, JSON and
# DOT of tests/golden/diagnose/ (regenerate with
# scripts/regen-diagnose-golden.sh and review the diff), and every DOT
# renders with Graphviz without a warning.  Apart from the wording, each
# sample's answer (hang, category, root, first rank, stream and task) is
# checked against tests/data/samples/EXPECTED.tsv, written from the sample.
. tests/cli/lib.sh
G=tests/golden/diagnose
for f in tests/data/samples/*.log; do
	n=$(basename "$f" .log)
	$HANGDX diagnose --color=never "$f" > "$T/$n.txt" 2>/dev/null
	$HANGDX diagnose --json "$f" > "$T/$n.json" 2>/dev/null
	$HANGDX diagnose --dot "$T/$n.dot" "$f" > /dev/null 2>&1
	t_golden "$n: text" "$G/$n.txt" "$T/$n.txt"
	t_golden "$n: json" "$G/$n.json" "$T/$n.json"
	t_golden "$n: dot" "$G/$n.dot" "$T/$n.dot"
	t_ok "$n: dot renders cleanly" sh -c "dot -Tsvg $T/$n.dot -o $T/$n.svg 2> $T/$n.err && test ! -s $T/$n.err"
	t_ok "$n: the answer EXPECTED.tsv states" sh -c \
		"python3 tests/expected_check.py '$HANGDX' tests/data/samples/EXPECTED.tsv $n.log > $T/$n.exp"
done
t_ok "every sample has a row in EXPECTED.tsv" sh -c \
	"test \$(grep -c '^[0-9].*\.log	' tests/data/samples/EXPECTED.tsv) -eq \$(ls tests/data/samples/*.log | wc -l)"
mkdir "$T/flip"
cp tests/data/samples/04-*.log "$T/flip/"
grep '^04-' tests/data/samples/EXPECTED.tsv | sed 's/	link_error	/	collective_mismatch	/' > "$T/flip/EXPECTED.tsv"
t_ok "the checker fails on an answer the sample does not state" sh -c \
	"! python3 tests/expected_check.py '$HANGDX' $T/flip/EXPECTED.tsv > /dev/null"
$HANGDX simulate -q --preset reference -o "$T/reference" > /dev/null 2>&1
(cd "$T" && $HANGDX diagnose --color=never reference > out.txt;
 $HANGDX diagnose --json reference > out.json;
 $HANGDX diagnose --dot out.dot reference > /dev/null)
t_golden "simulated reference: text" "$G/sim-reference.txt" "$T/out.txt"
t_golden "simulated reference: json" "$G/sim-reference.json" "$T/out.json"
t_golden "simulated reference: dot" "$G/sim-reference.dot" "$T/out.dot"
t_ok "simulated reference: dot renders cleanly" sh -c "dot -Tsvg $T/out.dot -o $T/out.svg 2> $T/out.err && test ! -s $T/out.err"
t_done
