#!/usr/bin/env python3
"""tests/gen/seedcheck.py - diagnose bundles of seedgen.py against their
expected.json: the roots (exactly), the first failing rank (or one the
report says failed closer after it than the clocks can order), the category,
proven or inferred (an inferred deadlock with its assumption and the real
fix, never "collect logs").  Prints TAP; exit 1 when a case fails.
Usage: seedcheck.py HANGDX BUNDLE...
"""
import datetime
import json
import os
import subprocess
import sys


def stamp(t):
    return datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%f")


def close(d, want):
    """The expected first rank failed after the named one, closer than the
    report says the clocks can order (first_failing_close)."""
    c = d.get("first_failing_close")
    at = {r["rank"]: r.get("first_error") for r in d["ranks"]}
    a, b = at.get(d["first_failing_rank"]), at.get(want["first_failing_rank"])
    if not c or not a or not b:
        return False
    gap = (stamp(b) - stamp(a)).total_seconds() * 1e3
    return 0 <= gap < c["within_ms"]


def check(hangdx, b):
    want = json.load(open(os.path.join(b, "expected.json")))
    cmd = [hangdx, "diagnose", "--json"]
    if want.get("cores", 6) != 6:
        cmd += ["--cores", str(want["cores"])]
    p = subprocess.run(cmd + [b], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 1:
        return ["diagnose exit %d: %s" % (p.returncode, p.stderr.strip()[:300])]
    d = json.loads(p.stdout)
    bad = []
    if d["category"] != want["category"]:
        bad.append("category %s, expected %s" % (d["category"], want["category"]))
    if sorted(d["roots"]) != want["roots"] or len(d["roots"]) != len(want["roots"]):
        bad.append("roots %s, expected %s" % (d["roots"], want["roots"]))
    if d["first_failing_rank"] != want["first_failing_rank"] and not close(d, want):
        bad.append("first failing rank %s, expected %s" % (d["first_failing_rank"],
                                                         want["first_failing_rank"]))
    if bool(d["proven"]) != want["proven"]:
        bad.append("proven %s, expected %s" % (d["proven"], want["proven"]))
    if d["verdict"] == "deadlock" and not d["proven"] and "It assumes" not in d["summary"]:
        bad.append("inferred without its assumption")
    fixes = " ".join(d.get("fixes", []))
    if want["category"] == "aicpu_exhaustion_deadlock" and (
            "HCCL_OP_RETRY_ENABLE" not in fixes or "Collect the device logs" in fixes):
        bad.append("fixes %s" % d.get("fixes"))
    roles = {r["rank"]: r.get("role") for r in d["ranks"]}
    named = sorted(r for r, x in roles.items() if x == "root")
    if named != want["roots"]:
        bad.append("ranks with the root role %s" % named)
    return bad


def main():
    hangdx = sys.argv[1]
    fails = 0
    for n, b in enumerate(sys.argv[2:], 1):
        bad = check(hangdx, b)
        print("%s %d - %s" % ("not ok" if bad else "ok", n, os.path.basename(b)))
        for x in bad:
            print("#   " + x)
        fails += bool(bad)
    print("1..%d" % (len(sys.argv) - 2))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
