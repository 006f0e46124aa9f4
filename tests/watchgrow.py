#!/usr/bin/env python3
"""tests/watchgrow.py - what `hangdx watch` says of a job as its logs grow.

For each scenario: simulate it, diagnose the finished logs, then cut a copy
of the logs at log times through the run (tests/bundle_edit.py upto: every
15 s for the first two minutes, then every 60 s, and the end) and look at
each cut once (`watch --json --for 0`), as a watcher polling the growing
logs would see them.  A hang scenario's first `deadlock` or `failure`
event must give the final diagnosis's category and roots (a deadlock no
earlier than the cycle closed, truth.json's block_time_s); a job that
completes must give no `deadlock` or `failure` event at any cut (a stall
may come and clear), except in a healthy day's first long wait (an
inferred deadlock that the next status line retracts), and except one whose fault was recovered (its error line is
a failure event; its finished logs must be no hang).  Prints TAP.  Usage: watchgrow.py HANGDX WORKDIR [NAME...] (the cases
named only, when any are); with --matrix, the scenarios of tests/matrix.py
instead.  With --nodes, each cut is also split over two nodes (even ranks on
one, odd on the other, so that every communicator spans both), each node's
watch writes its facts, the logs are moved out of reach, and a watch over
the facts alone must say what the look at the whole cut said (event,
category, roots).
"""
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [  # (name, simulate arguments)
    ("reference", ["--preset", "reference"]),
    ("reference-r8-roots-3-5", ["--preset", "reference", "--set", "ranks=8",
                                "--set", "aicpu_ranks=3,5"]),
    ("rank-death", ["--preset", "rank-death"]),
    ("link-error", ["--preset", "link-error"]),
    ("mismatch", ["--preset", "mismatch"]),
    ("clock-skew", ["--preset", "clock-skew"]),
    ("notify-cycle", [os.path.join(HERE, "scenarios", "notify-cycle.yaml")]),
    ("healthy", ["--preset", "healthy"]),
    ("slow-rank", ["--preset", "slow-rank"]),
    ("reference-safe", ["--preset", "reference-safe"]),
    ("training-hang", ["--preset", "training-hang"]),
    ("grant-order", ["--preset", "grant-order"]),
    ("duration-race", ["--preset", "duration-race"]),
    # a link error that HCCL op retry recovers: its error line is a real
    # failure event; the finished job is no hang
    ("link-error-retry", ["--preset", "link-error-retry"], "recovered"),
    ("checkpoint-pause", [os.path.join(HERE, "scenarios", "checkpoint-pause.yaml")]),
    # 24 h of 40-80 s steps at log level error: looked at every 2 h and at
    # moments inside a step's wait; the first long wait is the one moment
    # that reads as the deadlock (no earlier wait of the job to learn from:
    # docs/WATCH.md); none after it
    ("healthy-day", [os.path.join(HERE, "scenarios", "healthy-day.yaml"),
                     "--set", "log_level=error"], "day"),
]
DAY_CUTS = [45, 61, 75, 90, 120, 180, 300, 600] + [7200 * i for i in range(1, 13)] + \
    list(range(43200, 43381, 9))  # inside waits of hour 12: without the
# learnt waits (HX_POOL_MOVED_FACTOR) 12 of these 21 read as the deadlock
DAY_FIRST = 120      # the first wait is over by then
TS = re.compile(rb"(\d{4})-(\d\d)-(\d\d)-(\d\d):(\d\d):(\d\d)\.(\d{3})\.(\d{3})")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def span(root):
    lo = hi = None
    for d, _, fs in os.walk(root):
        for f in fs:
            with open(os.path.join(d, f), "rb") as fp:
                for m in TS.finditer(fp.read()):
                    t = datetime.datetime(*(int(x) for x in m.groups()[:6]))
                    lo = t if lo is None or t < lo else lo
                    hi = t if hi is None or t > hi else hi
    return (hi - lo).total_seconds() if lo else 0


def cuts(total):
    t = [15 * i for i in range(1, 9) if 15 * i < total]
    t += [60 * i for i in range(3, int(total // 60) + 1)]
    return sorted(set(x for x in t if x < total)) + [total + 1]


def brief(out):
    return [(e["event"], e["category"], e["roots"])
            for e in (json.loads(x) for x in out.splitlines() if x.strip())]


def over_nodes(hangdx, c, whole):
    """The cut c split over two nodes, decided from their facts alone:
    None when it says what the whole cut said, else why not."""
    n = c + ".nodes"
    shutil.rmtree(n, ignore_errors=True)
    for k in ("a", "b", "shared"):
        os.makedirs(os.path.join(n, k))
    for r in os.listdir(c):
        m = re.match(r"rank-(\d+)$", r)
        if m:
            shutil.copytree(os.path.join(c, r),
                            os.path.join(n, "ab"[int(m.group(1)) % 2], r))
    for k in ("a", "b"):
        run([hangdx, "watch", "--for", "0", "--facts-out",
             os.path.join(n, "shared"), "--node", k, os.path.join(n, k)])
    os.rename(n, n + ".hid")        # the logs out of reach
    _, out = run([hangdx, "watch", "--json", "--for", "0", "--facts",
                  os.path.join(n + ".hid", "shared")])
    shutil.rmtree(n + ".hid", ignore_errors=True)
    got = brief(out)
    return None if got == whole else "over two nodes %s, whole %s" % (got, whole)


def one(hangdx, work, name, args, recovered=False, day=False, nodes=False):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    rc, _ = run([hangdx, "simulate", "--no-trace"] + args + ["-o", d])
    if rc not in (0, 1):
        return "simulate failed (%d)" % rc
    truth = json.load(open(os.path.join(d, "truth.json")))
    for f in ("truth.json", "waitgraph.dot"):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    _, out = run([hangdx, "diagnose", "--json", d])
    final = json.loads(out)
    completed = truth["outcome"] == "completed"
    seen = []
    total = span(d)
    for t in (DAY_CUTS + [total + 1] if day else cuts(total)):
        c = d + ".cut"
        shutil.rmtree(c, ignore_errors=True)
        shutil.copytree(d, c)
        subprocess.run([sys.executable, os.path.join(HERE, "bundle_edit.py"),
                        "upto", c, str(t)], check=True, stdout=subprocess.DEVNULL)
        _, ev = run([hangdx, "watch", "--json", "--for", "0", c])
        if nodes:
            why = over_nodes(hangdx, c, brief(ev))
            if why:
                shutil.rmtree(c, ignore_errors=True)
                return "at %d s: %s" % (t, why)
        for line in ev.splitlines():
            e = json.loads(line)
            seen.append("%s@%ds" % (e["event"], t))
            if day and e["event"] == "deadlock" and t <= DAY_FIRST:
                continue
            if e["event"] in ("deadlock", "failure"):
                shutil.rmtree(c, ignore_errors=True)
                if recovered:
                    print("# %s: %s at %d s (%s); the finished logs: %s" % (
                        name, e["event"], t, e["category"], final["verdict"]))
                    return None if final["verdict"] == "no_hang" else \
                        "the finished logs: %s, not no_hang" % final["verdict"]
                if completed:
                    return "a %s event at %d s (%s) on a job that completes" % (
                        e["event"], t, e["category"])
                block = truth.get("block_time_s")
                if e["event"] == "deadlock" and block is not None and t < block:
                    return "a deadlock at %d s, before the cycle closed (%.1f s)" % (
                        t, block)
                got = (e["category"], e["roots"])
                want = (final["category"], final["roots"])
                if got != want:
                    return "first %s at %d s: %s, the finished logs: %s" % (
                        e["event"], t, got, want)
                print("# %s: %s at %d s of log time, %s %s (events: %s)" % (
                    name, e["event"], t, got[0], got[1], " ".join(seen)))
                return None
    shutil.rmtree(d + ".cut", ignore_errors=True)
    if day and (total < 86400 or final["verdict"] != "no_hang"):
        return "%.0f s of log time, finished: %s" % (total, final["verdict"])
    if not completed:
        return "no deadlock or failure event (events: %s)" % " ".join(seen)
    print("# %s: completes; events: %s" % (name, " ".join(seen) or "none"))
    return None


def matrix_cases(work):
    """Every scenario of tests/matrix.py, written out, as cases."""
    sys.path.insert(0, HERE)
    import matrix
    out = []
    for name, text in matrix.cases():
        scen = os.path.join(work, "matrix-%s.yaml" % name)
        with open(scen, "w") as f:
            f.write(text)
        # a link error that op retry recovers: a failure event, then no hang
        how = ["recovered"] if name.startswith("link-retry") else []
        out.append(("matrix-" + name, [scen]) + tuple(how))
    return out


def main():
    hangdx, work, only = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(work, exist_ok=True)
    bad = 0
    all_cases = CASES
    nodes = "--nodes" in only
    only = [o for o in only if o != "--nodes"]
    if "--matrix" in only:
        only = [o for o in only if o != "--matrix"]
        all_cases = matrix_cases(work)
    cases = [c for c in all_cases if not only or c[0] in only]
    for i, (name, args, *how) in enumerate(cases, 1):
        why = one(hangdx, work, name, args, "recovered" in how, "day" in how,
                  nodes)
        print("%s %d - %s" % ("not ok" if why else "ok", i, name))
        if why:
            print("#   " + why)
            bad += 1
    print("1..%d" % len(cases))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
