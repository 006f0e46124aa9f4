#!/bin/sh
# t40-escape.sh - JSON and DOT escape what came from a log or a scenario as
# docs/REPORTS.md says: an error line no family knows, holding "</script>",
# a tag, "&", quotes and a backslash, is quoted in the JSON summary, which
# decodes to the line's own text with no "<", ">" or "&" left in it; an
# AICPU operator named with a quote and a backslash is that name in the
# wait-for graph Graphviz renders.
. tests/cli/lib.sh

msg='widget </script><b x="1">&amp; \path failed'
printf '[2026-06-12 10:00:01] ERROR: %s\n' "$msg" > "$T/esc.log"
printf '%s\n' "$msg" > "$T/esc.msg"
$HANGDX diagnose --json "$T/esc.log" > "$T/esc.json" 2> /dev/null
t_ok "the line's text (after its logger's time head) quoted whole in the decoded summary" python3 -c "
import json, sys; d = json.load(open('$T/esc.json'))
msg = open('$T/esc.msg').read().rstrip('\n')
assert d['category'] == 'other' and '\"%s\"' % msg in d['summary'], d['summary']"
t_ok "no raw '<', '>' or '&' in the JSON, each as \\u00XX" python3 -c "
s = open('$T/esc.json', encoding='utf-8').read()
assert s.strip() and not any(c in s for c in '<>&'), [c for c in '<>&' if c in s]
assert '\\\\u003c/script\\\\u003e' in s and '\\\\u0026amp;' in s, s[:300]"
sed 's/name: NonZero/name: "Non\\"Zero\\\\q"/' scenarios/reference.yaml > "$T/q.yaml"
$HANGDX simulate -q --no-trace "$T/q.yaml" -o "$T/q" > /dev/null 2>&1
if command -v dot > /dev/null; then
	cat > "$T/svg.py" <<'PY'
import sys, xml.etree.ElementTree as E
t = [x.text for x in E.parse(sys.argv[1]).iter() if x.text and "Zero" in x.text]
assert t and all('(Non"Zero\\q)' in x for x in t), t
PY
	t_ok "DOT: Graphviz renders the operator's name with its quote and backslash" sh -c "
dot -Tsvg $T/q/waitgraph.dot -o $T/q.svg 2> $T/q.err && ! test -s $T/q.err &&
python3 $T/svg.py $T/q.svg"
else
	t_missing "DOT: Graphviz renders the operator's name" "no dot (Graphviz)"
fi
t_done
