#!/bin/sh
# t40-json-escape.sh - the JSON report escapes what came from a log as
# docs/REPORTS.md says: an error line no family knows, holding "</script>",
# a tag, "&", quotes and a backslash, is quoted in the summary; the JSON
# decodes to the line's own text, and no "<", ">" or "&" is left in it.
. tests/cli/lib.sh

line='[2026-06-12 10:00:01] ERROR: widget </script><b x="1">&amp; \path failed'
printf '%s\n' "$line" > "$T/esc.log"
$HANGDX diagnose --json "$T/esc.log" > "$T/esc.json" 2> /dev/null
t_ok "the line quoted whole in the decoded summary" python3 -c "
import json, sys; d = json.load(open('$T/esc.json'))
line = open('$T/esc.log').read().rstrip('\n')
assert d['category'] == 'other' and '\"%s\"' % line in d['summary'], d['summary']"
t_ok "no raw '<', '>' or '&' in the JSON, each as \\u00XX" python3 -c "
s = open('$T/esc.json', encoding='utf-8').read()
assert s.strip() and not any(c in s for c in '<>&'), [c for c in '<>&' if c in s]
assert '\\\\u003c/script\\\\u003e' in s and '\\\\u0026amp;' in s, s[:300]"
t_done
