#!/usr/bin/env python3
"""tests/norunlog.py - the reference incident without the device run log.

The reference preset (`hangdx simulate --preset reference --print`) at 2,
8, 64 and 256 ranks (--set ranks=N), its AICPU operator on 1 to 3 chosen
ranks (--set aicpu_ranks=LIST: the ranks that hold the local cycle; the
others' collectives wait on them), at log
level error with only the lines real logs are known to hold
(--log-fidelity verified); then every device run log directory
(ascend/log/run/device-N) is removed from the bundle, as a collection
without it looks.  The diagnosis must give the AICPU exhaustion deadlock,
inferred with its assumption stated, exactly the roots truth.json lists,
a first failing rank whose first error is simultaneous with the truth's
(a rank whose clock is behind, not among them, is not taken),
and the same JSON from facts in two phases on the cases that ask for it.
Prints TAP.  Usage: norunlog.py HANGDX WORKDIR
"""
import glob
import json
import os
import shutil
import sys

import matrix

# (ranks, roots, start_spread or None, (rank, clock skew) or None, check
# facts in two phases).  Ranks that start apart enter the collective
# together (the last one's start): the spread tests the timing, not which
# rank fails first; a rank whose clock is behind logs its timeout first in
# raw time and must not be taken for the first failing rank.
CASES = [
    (2, [1], None, None, True),
    (2, [0, 1], None, None, False),
    (8, [6], "3s", None, False),
    (8, [2, 5], None, None, True),
    (8, [0, 3, 7], "2s", None, False),
    (64, [42], None, None, False),
    (64, [9, 50], "5s", (33, "-2s"), False),
    (64, [0, 31, 63], None, None, True),
    (256, [200], "4s", None, False),
    (256, [17, 130], None, (40, "-1500ms"), False),
    (256, [3, 100, 255], "5s", None, False),
]


def scenario(preset, ranks, skew=None):
    """The preset's YAML, with a clock skew fault (and the rank count in
    the file, as the fault must name a rank it has); None when the preset
    no longer reads as expected."""
    if not skew:
        return preset
    old_ranks = "\n  ranks: 2\n"
    if "\nfaults:" in preset or preset.count(old_ranks) != 1:
        return None
    return preset.replace(old_ranks, "\n  ranks: %d\n" % ranks) + \
        "faults:\n  - clock_skew: {rank: %d, offset: %s}\n" % skew


def check(hangdx, work, preset, ranks, roots, spread, skew, facts):
    name = "ref-r%d-%s%s%s" % (ranks, "-".join(map(str, roots)), "-spread" if spread else "",
                               "-skew%d" % skew[0] if skew else "")
    d = os.path.join(work, name)
    text = scenario(preset, ranks, skew)
    if text is None:
        return name, ["the reference preset holds faults or no longer has 2 ranks"]
    with open(d + ".yaml", "w") as f:
        f.write(text)
    sets = ["--log-fidelity", "verified", "--set", "log_level=error", "--set", "ranks=%d" % ranks,
            "--set", "aicpu_ranks=" + ",".join(map(str, roots))]
    if spread:
        sets += ["--set", "start_spread=" + spread]
    rc, _, err = matrix.run([hangdx, "simulate", "-q", "--no-trace"] + sets + [d + ".yaml", "-o", d])
    if rc != 1:
        return name, ["simulate exit %d: %s" % (rc, err.strip()[:300])]
    runlogs = glob.glob(d + "/rank-*/ascend/log/run/device-*")
    if not runlogs:
        return name, ["the simulation wrote no device run log to remove"]
    for r in runlogs:
        shutil.rmtree(r)
    truth = json.load(open(os.path.join(d, "truth.json")))
    bad = []
    if sorted(truth["roots"]) != sorted(roots) or truth["root_cause"] != "aicpu_exhaustion_deadlock":
        bad.append("truth: %s roots %s, the scenario's %s" % (truth["root_cause"], truth["roots"], roots))
    rc, out, err = matrix.run([hangdx, "diagnose", "--json", d])
    if rc != 1:
        return name, bad + ["diagnose exit %d: %s" % (rc, err.strip()[:300])]
    dg = json.loads(out)
    if dg["category"] != "aicpu_exhaustion_deadlock":
        bad.append("category %s" % dg["category"])
    if dg["proven"] or "It assumes" not in dg["summary"]:
        bad.append("not inferred with its assumption (proven %s): %s" % (dg["proven"], dg["summary"][:200]))
    if not any("device run log" in m for m in dg["missing"]):
        bad.append("the missing device run log is not named: %s" % dg["missing"])
    if dg["roots"] != sorted(truth["roots"]):
        bad.append("roots %s, truth %s" % (dg["roots"], truth["roots"]))
    tied = matrix.first_ranks(truth)
    if skew and skew[0] in tied:    # the case would test nothing
        bad.append("truth: the skewed rank %d is among the first to fail" % skew[0])
    if dg["first_failing_rank"] not in tied:
        bad.append("first failing rank %s, truth %s" % (dg["first_failing_rank"], tied[:8]))
    if facts:
        ffile = d + ".facts"
        rc, _, err = matrix.run([hangdx, "facts", d, "-o", ffile])
        rc2, out2, _ = matrix.run([hangdx, "diagnose", "--json", "--facts", ffile])
        if rc not in (0, 1) or out2 != out:
            bad.append("from facts (exit %d, %d): %s" % (rc, rc2, matrix.first_diff(out, out2)))
    shutil.rmtree(d)
    return name, bad


def main():
    hangdx, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rc, preset, err = matrix.run([hangdx, "simulate", "--preset", "reference", "--print"])
    if rc != 0:
        print("Bail out! simulate --print: %s" % err.strip()[:300])
        return 1
    fails = 0
    for n, (ranks, roots, spread, skew, facts) in enumerate(CASES, 1):
        name, bad = check(hangdx, work, preset, ranks, roots, spread, skew, facts)
        fails += bool(bad)
        print("%s %d - %s" % ("not ok" if bad else "ok", n, name))
        for b in bad:
            print("#   " + b)
    print("1..%d" % len(CASES))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
