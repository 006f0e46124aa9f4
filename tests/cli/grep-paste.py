#!/usr/bin/env python3
"""grep-paste.py - helper of t37-grep-paste.sh.

  grep-paste.py records TREE.jsonl PASTE.jsonl PASTE [absent]
      every record of `parse --json` of a pasted grep output (PASTE)
      against the record of `parse --json` of the logs themselves at the
      file and line grep named (vpath, vline): the same kind, ids, pid,
      rank and device and where they came from (a parent_line, a line of
      the paste, is compared as the line grep named there; not repeats,
      the lines of a run the text read holds); with
      "absent" (grep without -n) vline must be absent.  Prints what
      differs, exit 1 if anything does.
  grep-paste.py cites DIAG.json PASTE TREE
      every file:line the diagnosis cites is a line of a log under TREE
      (not of the paste) whose text is the text grep printed for it
"""
import json
import re
import sys

SUMMARY = ("file", "totals", "process", "stream", "rank", "node")
# repeats: the lines of a run of equal lines (a kernel's status, the
# host's launches) that the text read holds: an excerpt holds fewer
SKIP = ("file", "line", "off", "vpath", "vline", "repeats")


def records(path):
    return [r for r in map(json.loads, open(path)) if r["kind"] not in SUMMARY]


def norm(p):
    return p[2:] if p.startswith("./") else p


def grep_lines(paste):
    """Line of the paste -> the line number grep printed on it."""
    out = {}
    with open(paste, encoding="utf-8", errors="replace") as f:
        for i, ln in enumerate(f, 1):
            m = re.match(r"^\S*?\.log[:-](\d+)[:-]", ln)
            if m:
                out[i] = int(m.group(1))
    return out


def check_records(tree, paste, text, lines):
    glines = grep_lines(text)
    want = {}
    for r in records(tree):
        want.setdefault((norm(r["file"]), r["line"], r["kind"]), []).append(r)
    bad = n = 0
    seen = {}
    for r in records(paste):
        if "vpath" not in r:
            continue
        n += 1
        key = (norm(r["vpath"]), r.get("vline"), r["kind"])
        if lines == "absent":
            if "vline" in r:
                bad += 1
                print("vline without grep -n:", r)
            continue
        if "vline" not in r:
            bad += 1
            print("no vline:", r)
            continue
        k = seen.get(key, 0)
        seen[key] = k + 1
        w = want.get(key, [])
        if len(w) <= k:
            bad += 1
            print("no such record in the logs:", key)
            continue
        a = {x: y for x, y in w[k].items() if x not in SKIP}
        b = {x: y for x, y in r.items() if x not in SKIP}
        if "parent_line" in b:
            b["parent_line"] = glines.get(b["parent_line"])
        if a != b:
            bad += 1
            print("%s:%s %s" % (key[0], key[1], key[2]))
            for x in sorted(set(a) | set(b)):
                if a.get(x) != b.get(x):
                    print("  %s: logs %r, paste %r" % (x, a.get(x), b.get(x)))
    if n == 0:
        print("no record of the paste names a file")
        bad += 1
    return bad


def cites(diag, paste, tree):
    """Every "path:line" string in the diagnosis."""
    text = open(paste, encoding="utf-8", errors="replace").read()
    got = set(re.findall(r'"evidence": ?"([^"]+):(\d+)"', open(diag).read()))
    bad = 0
    if not got:
        print("no citation")
        return 1
    for path, line in got:
        line = int(line)
        if path == paste or path.endswith("/" + paste.rsplit("/", 1)[-1]):
            bad += 1
            print("cites the paste, not the log:", path, line)
            continue
        try:
            src = open(tree + "/" + norm(path), encoding="utf-8",
                       errors="replace").read().split("\n")[line - 1]
        except (OSError, IndexError):
            bad += 1
            print("no such file line:", path, line)
            continue
        pre = "%s:%d:" % (path, line)
        if (pre + src) not in text and ("%s-%d-%s" % (path, line, src)) not in text:
            bad += 1
            print("the paste does not hold %s:%d as the log has it" % (path, line))
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == "records":
        lines = sys.argv[5] if len(sys.argv) > 5 else "present"
        sys.exit(1 if check_records(*sys.argv[2:5], lines) else 0)
    if cmd == "cites":
        sys.exit(1 if cites(*sys.argv[2:5]) else 0)
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
