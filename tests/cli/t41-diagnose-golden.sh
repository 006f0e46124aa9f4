#!/bin/sh
# t41-diagnose-golden.sh - the golden diagnoses: every log sample of tests/data and
# the simulated reference incident give exactly the reviewed text, JSON and
# DOT of tests/golden/diagnose/ (regenerate with
# scripts/regen-diagnose-golden.sh and review the diff), and every DOT
# renders with Graphviz without a warning.
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
done
$HANGDX simulate -q --preset reference -o "$T/reference" > /dev/null 2>&1
(cd "$T" && $HANGDX diagnose --color=never reference > out.txt;
 $HANGDX diagnose --json reference > out.json;
 $HANGDX diagnose --dot out.dot reference > /dev/null)
t_golden "simulated reference: text" "$G/sim-reference.txt" "$T/out.txt"
t_golden "simulated reference: json" "$G/sim-reference.json" "$T/out.json"
t_golden "simulated reference: dot" "$G/sim-reference.dot" "$T/out.dot"
t_ok "simulated reference: dot renders cleanly" sh -c "dot -Tsvg $T/out.dot -o $T/out.svg 2> $T/out.err && test ! -s $T/out.err"
t_done
