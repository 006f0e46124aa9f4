#!/usr/bin/env python3
"""expected_check.py HANGDX EXPECTED.tsv [FILE...] - runs `HANGDX diagnose --json`
on each file the table names (beside the table) and prints TAP: one check
per file, failing on any column that differs from the answer (hang,
category, root, first failing rank, the stream and task of the first
failure).  '-' in a column checks nothing; '?' wants a process whose rank
is not known (rank_known false).  Exits 1 when a check fails; with FILE
names, checks those rows only."""
import json
import os
import subprocess
import sys


def rank_ok(want, got, d):
    if want == "-":
        return True
    if got is None:
        return False
    if want == "?":
        known = {r["rank"]: r.get("rank_known", True) for r in d.get("ranks", [])}
        return known.get(got, True) is False
    return str(got) == want


def check(hangdx, path, row):
    hang, cat, root, first, stream, task = row[:6]
    p = subprocess.run([hangdx, "diagnose", "--json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       timeout=120)
    d = json.loads(p.stdout.decode("utf-8", "replace"))
    bad = []
    want_hang = {"yes": True, "no": False, "unknown": None}[hang]
    if d.get("hang") != want_hang:
        bad.append("hang %r, want %s" % (d.get("hang"), hang))
    if cat != "-" and d.get("category") != cat:
        bad.append("category %s, want %s" % (d.get("category"), cat))
    if not rank_ok(root, d.get("root_rank"), d):
        bad.append("root %s, want %s" % (d.get("root_rank"), root))
    if not rank_ok(first, d.get("first_failing_rank"), d):
        bad.append("first rank %s, want %s" % (d.get("first_failing_rank"), first))
    ff = d.get("first_failure") or {}
    for key, want in (("stream_id", stream), ("task_id", task)):
        if want != "-" and str(ff.get(key)) != want:
            bad.append("first failure %s %s, want %s" % (key, ff.get(key), want))
    return bad


def main():
    hangdx, table = sys.argv[1], sys.argv[2]
    base = os.path.dirname(table)
    rows = [l.rstrip("\n").split("\t") for l in open(table, encoding="utf-8")
            if l.strip() and not l.startswith("#")]
    if len(sys.argv) > 3:
        rows = [r for r in rows if r[0] in sys.argv[3:]]
    print("1..%d" % len(rows))
    failed = 0
    for i, row in enumerate(rows, 1):
        bad = check(hangdx, os.path.join(base, row[0]), row[1:])
        failed += bool(bad)
        print("%s %d - %s: the answer the sample states%s" %
              ("not ok" if bad else "ok", i, row[0],
               "" if not bad else " (" + "; ".join(bad) + ")"))
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
