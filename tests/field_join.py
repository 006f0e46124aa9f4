#!/usr/bin/env python3
"""field_join.py IN OUT - a field report as a line-envelope layer would
deliver it: launcher prefixes ("[rank1]:", "(Worker_DP1_TP3_EP3 pid=4242)",
doubled) and the vLLM logger head removed, indented continuation lines
(error-manager block bodies, TraceBack lines) joined to the line before.
The three header lines are kept."""
import re
import sys

PRE = re.compile(r'^(\s*(\[rank\d+\]:|\([^()]*pid=\d+\))\s?)+')
LOGGER = re.compile(r'^(ERROR|INFO|WARNING|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d \[[^\]]*\] ?')
out = []
lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().split('\n')
for i, line in enumerate(lines):
    if i < 3:
        out.append(line)
        continue
    line = LOGGER.sub('', PRE.sub('', line))
    s = line.strip()
    if (i > 3 and line[:1] in (' ', '\t') and s and not s.startswith('[ERROR]')
            and not s.startswith('File ')):
        out[-1] = out[-1].rstrip() + ' ' + s
    else:
        out.append(line)
open(sys.argv[2], 'w', encoding='utf-8').write('\n'.join(out))
