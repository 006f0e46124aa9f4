#!/usr/bin/env python3
"""tests/roots.py - roots among many ranks, simulate -> diagnose.

The asymmetric scenarios of tests/matrix.py (asymmetric_cases: 8 to 256
ranks, 1 to 3 roots, the AICPU operator on the roots alone, some roots
entering their wait late so that a victim's timeout fires first, clock
skew, start spread): the diagnosis must name exactly the roots truth.json
lists (ranks whose own state holds a cycle), never a victim (JSON roots,
rank roles, group roles, the text's "root cause rank(s)" line), the root
rank of the cycle shown, the roots each victim group waits on (only
roots), and a first failing rank whose first error is
simultaneous with the truth's first error.
Prints TAP.  Usage: roots.py HANGDX WORKDIR
"""
import json
import os
import re
import sys

import matrix


def text_roots(out):
    """The ranks of the text report's "root cause rank(s):" line."""
    m = re.search(r"root cause ranks?: ([0-9, ]+)", out)
    return sorted(int(x) for x in re.findall(r"[0-9]+", m.group(1))) if m else None


def check(hangdx, work, name, text):
    d = os.path.join(work, name)
    with open(d + ".yaml", "w") as f:
        f.write(text)
    rc, _, err = matrix.run([hangdx, "simulate", "-q", "--no-trace", d + ".yaml", "-o", d])
    if rc not in (0, 1):
        return ["simulate failed (%d): %s" % (rc, err.strip()[:300])]
    truth = json.load(open(os.path.join(d, "truth.json")))
    cores = [] if truth["aicpu_cores"] == 6 else ["--cores", str(truth["aicpu_cores"])]
    rc, out, err = matrix.run([hangdx, "diagnose", "--json"] + cores + [d])
    if rc != 1:
        return ["diagnose exit %d: %s" % (rc, err.strip()[:300])]
    dg = json.loads(out)
    _, txt, _ = matrix.run([hangdx, "diagnose", "--color=never"] + cores + [d])
    roots = set(truth["roots"])
    bad = []
    if not 1 <= len(roots) <= 3:
        bad.append("truth roots %s: not the scenario's 1 to 3" % sorted(roots))
    if dg["category"] != "aicpu_exhaustion_deadlock" or not dg["proven"]:
        bad.append("category %s, proven %s" % (dg["category"], dg["proven"]))
    if set(dg["roots"]) != roots or len(dg["roots"]) != len(roots):
        bad.append("roots %s, truth %s" % (dg["roots"], sorted(roots)))
    if dg["root_rank"] != truth["root_rank"] or dg["roots"][:1] != [dg["root_rank"]]:
        bad.append("root rank %s (roots %s), truth %s" % (dg["root_rank"], dg["roots"],
                                                       truth["root_rank"]))
    named = {r["rank"] for r in dg["ranks"] if r.get("role") == "root"}
    named |= {r for g in dg["groups"] if g.get("role") == "root" for r in g["ranks"]}
    if named - roots:
        bad.append("victims named as roots: %s" % sorted(named - roots))
    # the roots a victim group waits on are roots, never a victim it waits
    # through (in the text: "waiting on root rank(s) ...")
    for g in dg["groups"]:
        if g.get("role") == "victim" and not set(g.get("waits_on", [])) <= roots:
            bad.append("a victim group waits on %s, roots %s" % (g["waits_on"], sorted(roots)))
    for m in re.finditer(r"waiting on root ranks? ([0-9, ]+)", txt):
        said = {int(x) for x in re.findall(r"[0-9]+", m.group(1))}
        if not said <= roots:
            bad.append("text: waiting on root ranks %s, roots %s" % (sorted(said), sorted(roots)))
    # every other rank that logged a failure is a victim
    victims = {r["rank"] for r in dg["ranks"] if r.get("role") == "victim"}
    failed = {e["rank"] for e in truth["errors"]} - roots
    if victims != failed:
        bad.append("victims %s, truth %s" % (sorted(victims)[:12], sorted(failed)[:12]))
    if text_roots(txt) != sorted(roots):
        bad.append("text names roots %s, truth %s" % (text_roots(txt), sorted(roots)))
    fe = truth["first_error"]
    first = {}
    for e in truth["errors"]:
        first.setdefault(e["rank"], e["time_s"])
    tied = sorted(r for r, t in first.items() if abs(t - fe["time_s"]) < 1e-3)
    if dg["first_failing_rank"] not in tied:
        bad.append("first failing rank %s, truth %s" % (dg["first_failing_rank"], tied))
    return bad


def main():
    hangdx, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    fails = n = 0
    late_victim = 0
    for name, text in matrix.asymmetric_cases():
        n += 1
        bad = check(hangdx, work, name, text)
        truth = os.path.join(work, name, "truth.json")
        if os.path.exists(truth):
            t = json.load(open(truth))
            late_victim += t["first_error"]["rank"] not in t["roots"]
        print("%s %d - %s" % ("not ok" if bad else "ok", n, name))
        for b in bad:
            print("#   " + b)
        fails += bool(bad)
    print("# %d cases where a victim's timeout fired first" % late_victim)
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
