#!/usr/bin/env python3
"""field_check.py LOG JSON EXIT - check a diagnosis of a field report
against the '# expected:' line (line 3) of the log itself: the hang
decision (JSON "hang": yes true, no false, unknown null; exit status 1,
0, 1), the category, and every id the line names ('-' = not named):
first_rank is the JSON root_rank, the others are keys of "ids"."""
import json
import sys

log, js, code = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(log, encoding="utf-8", errors="replace") as f:
    lines = f.read().split("\n")
exp = lines[2]
assert exp.startswith("# expected:"), "line 3 is not an expected line"
want = dict(kv.strip().split("=", 1) for kv in exp[len("# expected:"):].split(";"))
d = json.load(open(js))
ids = d.get("ids", {})
bad = []
hang = {"yes": True, "no": False, "unknown": None}[want["hang"]]
if d.get("hang", "absent") != hang:
    bad.append("hang: want %s, got %s" % (hang, d.get("hang", "absent")))
if code != (0 if hang is False else 1):
    bad.append("exit status %d for hang=%s" % (code, want["hang"]))
if d["category"] != want["category"]:
    bad.append("category: want %s, got %s" % (want["category"], d["category"]))
for key in ("first_rank", "stream", "task", "notify", "event", "remote_rank"):
    v = want.get(key, "-")
    if v == "-":
        continue
    got = d.get("root_rank") if key == "first_rank" else ids.get(key)
    if key == "notify" and isinstance(got, str):
        same = int(got, 16) == int(v, 16)
    else:
        same = got is not None and str(got) == v
    if not same:
        bad.append("%s: want %s, got %s" % (key, v, got))
if bad:
    print("\n".join(bad))
    sys.exit(1)
