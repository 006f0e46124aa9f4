#!/usr/bin/env python3
"""tests/gen/sweep.py - seedgen.py over random parameters, each bundle
checked by seedcheck.py: ranks 2-256, 1-3 roots, 4-8 cores, 7-40
communicators, a server's clock off by -2 s to +2.5 s, noise, a cut plog,
a stale plog, the run log, notify ids, every stream dumped, no environment
echo, retry values, no stream dumps (with the run log).  Not part of make test (minutes per hundred bundles):
    python3 tests/gen/sweep.py ./hangdx N [SEED]
Prints each failing bundle's seedgen arguments and seedcheck's reasons;
exit 1 when one fails.  Bundles are written under a temporary directory
and removed.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def args_for(rng):
    ranks = rng.choice([2, 4, 8, 16, 32, 64, 128, 256])
    per = rng.choice([1, 2, 4, 8])
    roots = sorted(rng.sample(range(ranks), min(ranks, rng.randint(1, 3))))
    cores = rng.randint(4, 8)
    a = ["--ranks", str(ranks), "--per-node", str(per),
         "--roots", ",".join(map(str, roots)),
         "--cores", str(cores), "--comms", str(rng.randint(max(7, cores), 40))]
    nodes = max(1, ranks // per)
    if nodes > 1 and rng.random() < 0.5:
        a += ["--skew", "%d:%d" % (rng.randrange(nodes), rng.randint(-2000, 2500))]
    if rng.random() < 0.2:
        a += ["--noise", str(rng.randint(1000, 50000))]
    for flag, p in (("--runlog", 0.4), ("--notify-ids", 0.3), ("--dump-all", 0.3),
                    ("--no-env", 0.15)):
        if rng.random() < p:
            a.append(flag)
    if rng.random() < 0.15:
        a += ["--retry", rng.choice(["L1:0,L2:0", "L1:1,L2:0", "L1:0,L2:1"])]
    retry = a[a.index("--retry") + 1] if "--retry" in a else "L1:1,L2:1"
    if "--runlog" in a and ("--no-env" in a or ":1" in retry) and rng.random() < 0.3:
        a.append("--no-dumps")
    for flag in ("--cut", "--stale", "--first"):
        if rng.random() < 0.25:
            a += [flag, str(rng.randrange(ranks))]
    return a + ["--seed", str(rng.randint(1, 1 << 30))]


def main():
    hangdx, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    tmp = tempfile.mkdtemp(prefix="hangdx-sweep-")
    fails = 0
    try:
        for i in range(n):
            a = args_for(rng)
            out = os.path.join(tmp, "b%d" % i)
            subprocess.run([sys.executable, os.path.join(HERE, "seedgen.py"), out] + a,
                           check=True, stdout=subprocess.DEVNULL)
            p = subprocess.run([sys.executable, os.path.join(HERE, "seedcheck.py"),
                                hangdx, out], stdout=subprocess.PIPE, text=True)
            if p.returncode:
                fails += 1
                print("FAIL seedgen.py %s" % " ".join(a))
                print("\n".join(l for l in p.stdout.splitlines() if l.startswith("#")))
            shutil.rmtree(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d bundles, %d failed" % (n, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
