#!/usr/bin/env python3
"""tests/rewrite_invented.py - the diagnosis must not lean on invented lines.

For each scenario: simulate it at --log-fidelity full (F) and verified (V,
the same run without the lines docs/LOGS-SIMULATED.md marks invented).
The invented lines are those F has and V has not, file by file.  A third
tree (R) is F with every invented line reworded: the prefix and the field
names kept, each word of free text written backwards (other wording, the
same fields).
`diagnose --json` on F, V and R must give the same verdict, category,
roots, first failing rank and chain (kind, rank, stream, task of each
hop); "proven" may only turn into "inferred".  Prints TAP.
Usage: rewrite_invented.py HANGDX WORKDIR SCENARIO... (a preset name, or
NAME=FILE.yaml)
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

PREFIX = re.compile(r"^(\[[A-Z]+\] [A-Za-z_]+\([^)]*\):\S+ )(.*)$")
# a word of free text: not a field name (followed by "=", ":", "[" or "(")
WORD = re.compile(r"\b[A-Za-z]{3,}\b(?![=:\[(_])")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def simulate(hangdx, scen, fidelity, out):
    src = ["--preset", scen[1]] if scen[0] == "preset" else [scen[1]]
    rc, _, err = run([hangdx, "simulate", "-q", "--no-trace", "--log-fidelity", fidelity]
                     + src + ["-o", out])
    if rc not in (0, 1):
        raise RuntimeError("simulate %s failed (%d): %s" % (fidelity, rc, err.strip()[:200]))


def logs(root):
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".log"):
                p = os.path.join(d, f)
                yield os.path.relpath(p, root), p


def reword(line):
    m = PREFIX.match(line)
    head, body = (m.group(1), m.group(2)) if m else ("", line)
    return head + WORD.sub(lambda w: w.group(0)[::-1], body)


def rewrite(full, verified, out):
    """Copy full to out with the lines verified lacks reworded; how many."""
    shutil.copytree(full, out)
    n = 0
    for rel, path in logs(full):
        vpath = os.path.join(verified, rel)
        keep = collections.Counter()
        if os.path.exists(vpath):
            with open(vpath, encoding="utf-8", errors="surrogateescape") as f:
                keep.update(f.read().split("\n"))
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().split("\n")
        res = []
        for ln in lines:
            if keep[ln] > 0:
                keep[ln] -= 1
                res.append(ln)
            else:
                res.append(reword(ln))
                n += 1
        with open(os.path.join(out, rel), "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write("\n".join(res))
    return n


def answer(hangdx, root):
    rc, out, err = run([hangdx, "diagnose", "--json", root])
    if rc not in (0, 1):
        raise RuntimeError("diagnose %s failed (%d): %s" % (root, rc, err.strip()[:200]))
    d = json.loads(out)
    chain = [(h["kind"], h["rank"], h.get("stream_id"), h.get("task_id")) for h in d["chain"]]
    return {"verdict": d["verdict"], "category": d["category"],
            "roots": d.get("roots", [d["root_rank"]]),
            "first_failing_rank": d["first_failing_rank"], "chain": chain}, d["proven"]


def main():
    hangdx, work = sys.argv[1], sys.argv[2]
    scens = []
    for a in sys.argv[3:]:
        scens.append(("file", a.split("=", 1)[1], a.split("=", 1)[0]) if "=" in a
                     else ("preset", a, a))
    os.makedirs(work, exist_ok=True)
    n = fails = 0
    for kind, what, name in scens:
        base = os.path.join(work, name)
        f, v, r = base + "-full", base + "-verified", base + "-reworded"
        bad = []
        try:
            simulate(hangdx, (kind, what), "full", f)
            simulate(hangdx, (kind, what), "verified", v)
            nrew = rewrite(f, v, r)
            af, pf = answer(hangdx, f)
            for tag, root in (("verified", v), ("reworded", r)):
                a, p = answer(hangdx, root)
                for k in af:
                    if a[k] != af[k]:
                        bad.append("%s: %s %s, full %s" % (tag, k, a[k], af[k]))
                if p and not pf:
                    bad.append("%s: proven where full is inferred" % tag)
        except RuntimeError as e:
            bad.append(str(e))
            nrew = 0
        n += 1
        if bad:
            fails += 1
            print("not ok %d - %s (%d invented lines)" % (n, name, nrew))
            for b in bad:
                print("#   " + b)
        else:
            print("ok %d - %s (%d invented lines reworded or removed)" % (n, name, nrew))
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
