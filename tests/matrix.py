#!/usr/bin/env python3
"""tests/matrix.py - simulate -> diagnose on a matrix of generated scenarios.

For every case: write a scenario, run `hangdx simulate` (logs + truth.json),
run `hangdx diagnose --json` on the logs alone, and check that the diagnosis
recovers the simulator's truth: the category, the root rank, the roots
(every rank whose own state holds the hang), the first
failing rank (any rank whose first error is simultaneous with the truth's),
the stuck stream and task of that first failure, and, for deadlocks, the
cycle (node kinds, streams and tasks).  Healthy runs must give no hang.

Then the same scenarios as real collections lay them out (simulate
--layout node: one ascend/log per node, no rank in any path; flat: every
file in one directory; pids reused on every node; ranks that start apart)
must give the same answer (category, root rank, first failing rank) as
the rank-N/ layout: every case at layout node, a third each at flat and
with the options.  Every case again at log_fidelity verified (only the
lines real logs are known to hold; a third each at log level error, info
and debug) must give the same answer, roots and chain, hop by hop, as at
full fidelity, a deadlock proven or inferred with its assumption; and a
third each at full fidelity at levels error and debug.  Sub-communicators whose ranks differ from the global
ones, and 8 or 16 ranks per node, are among the cases.
Every scenario's base run and one of its variants in turn are also
diagnosed in two phases from facts (`hangdx facts` then `diagnose
--facts`): the JSON must be the single pass's, byte for byte.
Prints TAP.  Usage: matrix.py HANGDX WORKDIR [--list]
"""
import json
import os
import subprocess
import sys

CATEGORY = {
    "aicpu_exhaustion_deadlock": "aicpu_exhaustion_deadlock",
    "wait_cycle": "wait_cycle",
    "rank_lost": "remote_rank_lost",
    "link_error": "link_error",
    "collective_mismatch": "collective_mismatch",
    "aicpu_op_timeout": "aicpu_op_timeout",
    "sq_full": "sq_full",
    "none": "none",
}


def reference(ranks, comms, cores, retry, seed, aicpu_first=False):
    env = '"L0:1,L1:1,L2:0"' if retry else '"L0:0,L1:0,L2:0"'
    first = ["  - aicpu: {stream: compute, name: NonZero, duration: 200us}",
             "  - aicore: {stream: compute, name: FlashAttentionScore, duration: 2ms}"]
    if not aicpu_first:
        first.reverse()
    return "\n".join([
        "name: ref-r%d-c%d-k%d-%s" % (ranks, comms, cores, "on" if retry else "off"),
        "cluster: {ranks: %d, ranks_per_node: 8, aicpu_cores: %d}" % (ranks, cores),
        "run: {seed: %d}" % seed,
        "env:", "  HCCL_OP_RETRY_ENABLE: %s" % env,
        "communicators:", "  - {name: c, count: %d}" % comms,
        "program:"] + first + [
        "  - event_record: {stream: compute, event: E}",
        "  - event_wait: {stream: comm, event: E}",
        "  - allreduce: {stream: comm, comm: c, bytes: 64MiB, dtype: bf16}",
        "  - host_sync: all", ""])


def asymmetric(ranks, roots, seed, comms=8, cores=6, per_node=8, late=None,
               late_ranks=None, skew=None, spread=None):
    """The reference incident on some ranks only: the AICPU operator runs
    on the roots alone, so only they hold a cycle of AICPU cores; the other
    ranks' collectives wait for them (victims, their pools full too).
    late: an AI Core step of that length, waited for by the host, before
    the AICPU operator on late_ranks (default: the roots), so those enter
    their wait later and a victim's timeout fires first.  skew: (rank,
    offset) clock skews; spread: start_spread."""
    roots = sorted(roots)
    lines = [
        "name: roots-r%d-%s" % (ranks, "-".join(map(str, roots))),
        "cluster: {ranks: %d, ranks_per_node: %d, aicpu_cores: %d}" % (ranks, per_node, cores),
        "run: {seed: %d%s}" % (seed, ", start_spread: %s" % spread if spread else ""),
        "env:", '  HCCL_OP_RETRY_ENABLE: "L0:1,L1:1,L2:0"',
        "communicators:", "  - {name: c, count: %d}" % comms,
        "program:"]
    if late:
        lr = sorted(late_ranks if late_ranks is not None else roots)
        lines += ["  - aicore: {stream: compute, name: Prep, duration: %s, ranks: %s}" % (late, lr),
                  "  - host_sync: {stream: compute, ranks: %s}" % lr]
    lines += [
        "  - aicore: {stream: compute, name: FlashAttentionScore, duration: 2ms}",
        "  - aicpu: {stream: compute, name: NonZero, duration: 200us, ranks: %s}" % roots,
        "  - event_record: {stream: compute, event: E}",
        "  - event_wait: {stream: comm, event: E}",
        "  - allreduce: {stream: comm, comm: c, bytes: 64MiB, dtype: bf16}",
        "  - host_sync: all"]
    if skew:
        lines.append("faults:")
        lines += ["  - clock_skew: {rank: %d, offset: %s}" % rs for rs in skew]
    return "\n".join(lines) + "\n"


def asymmetric_cases():
    """Asymmetric roots (tests/roots.py; the small ones in the matrix)."""
    return [
        ("roots-r8-3-5", asymmetric(8, [3, 5], 101, comms=14)),
        ("roots-r8-late-6", asymmetric(8, [6], 102, late="5s")),
        ("roots-r16-0-9-15", asymmetric(16, [0, 9, 15], 103)),
        ("roots-r16-late-one", asymmetric(16, [4, 11], 104, late="3s", late_ranks=[4])),
        ("roots-r32-skew", asymmetric(32, [17], 105, skew=[(2, "-2s"), (17, "1500ms")])),
        ("roots-r32-spread", asymmetric(32, [1, 30], 106, spread="5s", per_node=16)),
        ("roots-r64-three-late", asymmetric(64, [0, 31, 63], 107, late="2s")),
        ("roots-r64-k4", asymmetric(64, [40], 108, comms=5, cores=4)),
        ("roots-r128-n16", asymmetric(128, [5, 77], 109, per_node=16, late="1s",
                                      late_ranks=[77])),
        ("roots-r256-three", asymmetric(256, [100, 200, 255], 110, comms=6, late="2s",
                                        late_ranks=[100])),
        ("roots-r8-k4-three", asymmetric(8, [1, 2, 3], 111, comms=4, cores=4)),
    ]


def training(ranks, steps, faults, seed, per_node=8, retry=False, grant="fifo"):
    lines = [
        "name: train-r%d" % ranks,
        "cluster: {ranks: %d, ranks_per_node: %d}" % (ranks, per_node),
        "model: {grant_order: %s}" % grant,
        "run: {seed: %d}" % seed,
    ]
    if retry:
        lines += ["env:", '  HCCL_OP_RETRY_ENABLE: "L0:1,L1:1,L2:0"']
    lines += [
        "communicators:", "  - {name: world}",
        "program:",
        "  - repeat:",
        "      count: %d" % steps,
        "      steps:",
        "        - aicore: {stream: compute, name: MatMulV2, duration: 40ms}",
        "        - event_record: {stream: compute, event: grads}",
        "        - event_wait: {stream: comm, event: grads}",
        "        - allreduce: {stream: comm, comm: world, bytes: 16MiB, dtype: fp16}",
        "        - host_sync: {stream: comm}",
        "  - host_sync: all",
    ]
    if faults:
        lines.append("faults:")
        lines += ["  - " + f for f in faults]
    return "\n".join(lines) + "\n"


def tp_death(ranks, per_node, tp, dead, seed):
    """Tensor-parallel groups of tp ranks under the world: a record's rank
    in its TP group is not its global rank."""
    groups = [list(range(g, g + tp)) for g in range(0, ranks, tp)]
    comms = ["{name: world}"] + ["{name: tp%d, ranks: %s}" % (i, g) for i, g in enumerate(groups)]
    lines = [
        "name: tp-death-r%d" % ranks,
        "cluster: {ranks: %d, ranks_per_node: %d}" % (ranks, per_node),
        "run: {seed: %d}" % seed,
        "communicators: [%s]" % ", ".join(comms),
        "program:",
        "  - repeat:",
        "      count: 20",
        "      steps:",
        "        - aicore: {stream: compute, name: MatMulV2, duration: 50ms}",
        "        - event_record: {stream: compute, event: g}",
        "        - event_wait: {stream: comm, event: g}",
    ]
    for i, g in enumerate(groups):
        lines.append("        - allreduce: {stream: comm, comm: tp%d, bytes: 8MiB, dtype: bf16, ranks: %s}"
                     % (i, g))
    lines += [
        "        - allreduce: {stream: comm, comm: world, bytes: 64MiB, dtype: bf16}",
        "        - host_sync: {stream: comm}",
        "  - host_sync: all",
        "faults: [{rank_death: {rank: %d, at: 500ms}}]" % dead,
    ]
    return "\n".join(lines) + "\n"


def cases():
    c = []
    seed = 1
    for ranks in (2, 8, 64):
        for comms, cores in ((1, 6), (3, 4), (4, 4), (5, 6), (6, 6), (9, 4), (14, 6), (16, 6)):
            for retry in (True, False):
                if ranks == 64 and comms not in (6, 16):
                    continue
                c.append(("ref-r%d-c%d-k%d-%s" % (ranks, comms, cores, "on" if retry else "off"),
                          reference(ranks, comms, cores, retry, seed)))
                seed += 1
    c.append(("ref-aicpu-first", reference(2, 14, 6, True, 7, aicpu_first=True)))
    for ranks, dead, at in ((2, 1, "1s"), (4, 2, "3s"), (8, 0, "2s"), (16, 9, "1500ms"), (64, 33, "2s")):
        c.append(("death-r%d-d%d" % (ranks, dead),
                  training(ranks, 60, ["rank_death: {rank: %d, at: %s}" % (dead, at)], seed)))
        seed += 1
    for ranks, a, b in ((4, 1, 2), (8, 3, 4), (16, 7, 8), (16, 0, 15)):
        c.append(("link-r%d-%d-%d" % (ranks, a, b),
                  training(ranks, 40, ["link_error: {rank: %d, peer: %d, at: 1s}" % (a, b)],
                           seed, per_node=ranks // 2)))
        seed += 1
    c.append(("link-retry-r4", training(4, 40, ["link_error: {rank: 1, peer: 2, at: 1s}"],
                                        seed, per_node=2, retry=True)))
    for ranks, who, op, what in ((4, 1, 2, "type: allgather"), (8, 5, 0, "type: broadcast"),
                                 (4, 3, 1, "bytes: 32MiB"), (16, 11, 3, "type: reducescatter")):
        c.append(("mismatch-r%d-%d" % (ranks, who),
                  training(ranks, 6, ["mismatch: {rank: %d, op: %d, %s}" % (who, op, what)], seed)))
        seed += 1
    for ranks in (2, 4, 16, 64):
        c.append(("healthy-r%d" % ranks, training(ranks, 5, [], seed)))
        seed += 1
    c.append(("slow-r8", training(8, 5, ["slow_rank: {rank: 3, factor: 10}"], seed)))
    c.append(("random-grant-r8", training(8, 5, [], seed, grant="random")))
    for ranks, skewed in ((4, 1), (8, 2)):
        c.append(("skew-r%d" % ranks,
                  training(ranks, 60, ["rank_death: {rank: %d, at: 2s}" % (ranks - 1),
                                       "clock_skew: {rank: %d, offset: 3s}" % skewed,
                                       "clock_skew: {rank: 0, offset: -2s}"], seed)))
        seed += 1
    for ranks, dur in ((2, "40s"), (8, "35s")):
        c.append(("aicpu-timeout-r%d" % ranks, "\n".join([
            "name: aicpu-timeout", "cluster: {ranks: %d}" % ranks,
            "model: {aicpu_op_timeout: 28s}", "communicators:", "  - {name: world}",
            "program:", "  - aicpu: {stream: compute, name: Unique, duration: %s}" % dur,
            "  - event_record: {stream: compute, event: E}",
            "  - event_wait: {stream: comm, event: E}",
            "  - allreduce: {stream: comm, comm: world, bytes: 1MiB}",
            "  - host_sync: all", ""])))
    for ranks in (2, 4):
        c.append(("sq-full-r%d" % ranks, reference(ranks, 1, 6, False, seed).replace(
            "aicpu_cores: 6}", "aicpu_cores: 6, sq_depth: 4}")))
    for ranks, per_node, tp, dead in ((4, 2, 2, 3), (16, 8, 4, 11), (32, 16, 8, 21)):
        c.append(("tp-death-r%d-n%d" % (ranks, per_node), tp_death(ranks, per_node, tp, dead, seed)))
        seed += 1
    c.append(("death-r32-n16", training(32, 60, ["rank_death: {rank: 20, at: 2s}"], seed,
                                        per_node=16)))
    c += [a for a in asymmetric_cases() if a[0] in ("roots-r8-late-6", "roots-r16-0-9-15")]
    return c


# Layouts and options, each with the cases it runs on (i: case number).
VARIANTS = [
    ("node", ["layout=node"], lambda i: True),
    ("flat", ["layout=flat"], lambda i: i % 3 == 0),
    ("ip-pids-late", ["layout=node", "node_dirs=ip", "same_pids=true", "start_spread=3s"],
     lambda i: i % 3 == 1),
    ("nodes-late", ["layout=node", "node_dirs=node", "start_spread=10s"], lambda i: i % 3 == 2),
    # only the lines real logs are known to hold, at every log level; and
    # the full set at the other levels (the cases run at info)
    ("verified-error", ["log_fidelity=verified", "log_level=error"], lambda i: i % 3 == 0),
    ("verified-info", ["log_fidelity=verified", "log_level=info"], lambda i: i % 3 == 1),
    ("verified-debug", ["log_fidelity=verified", "log_level=debug"], lambda i: i % 3 == 2),
    ("full-error", ["log_level=error"], lambda i: i % 3 == 1),
    ("full-debug", ["log_level=debug"], lambda i: i % 3 == 2),
]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


ANSWER = ("category", "root_rank", "first_failing_rank")


def first_diff(a, b):
    """The first line where two JSON texts differ, for the message."""
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return "%r != %r" % (x.strip()[:120], y.strip()[:120])
    return "lengths %d != %d" % (len(a), len(b))


def first_ranks(truth):
    """The ranks whose first error is simultaneous with the truth's first
    error (any of them is a right first failing rank)."""
    t0 = truth["first_error"]["time_s"]
    first = {}
    for e in truth["errors"]:
        first.setdefault(e["rank"], e["time_s"])
    if truth["root_cause"] == "rank_lost":
        return [truth["root_rank"]]     # the rank that died failed first
    return sorted(r for r, t in first.items() if abs(t - t0) < 1e-3)


def check(hangdx, work, name, text, sets=(), base=None, keep=None, facts=True):
    """Simulate and diagnose one case; what is wrong, as a list.  With
    base (the rank-N/ diagnosis), the answer must be the same; keep[0]
    receives this diagnosis."""
    d = os.path.join(work, name)
    scen = d + ".yaml"
    with open(scen, "w") as f:
        f.write(text)
    extra = [a for kv in sets for a in ("--set", kv)]
    rc, out, err = run([hangdx, "simulate", "-q", "--no-trace"] + extra + [scen, "-o", d])
    if rc not in (0, 1):
        return ["simulate failed (%d): %s" % (rc, err.strip()[:300])]
    truth = json.load(open(os.path.join(d, "truth.json")))
    # the pool is never taken smaller than the product's 6 cores: another
    # count is stated, as a user of such a part would
    cores = [] if truth["aicpu_cores"] == 6 else ["--cores", str(truth["aicpu_cores"])]
    rc, out, err = run([hangdx, "diagnose", "--json"] + cores + [d])
    if rc not in (0, 1):
        return ["diagnose failed (%d): %s" % (rc, err.strip()[:300])]
    dg = json.loads(out)
    if keep is not None:
        keep.append(dg)
    bad = []
    # two phases from facts: the same JSON, byte for byte
    ffile = d + ".facts"
    rc, _, err = run([hangdx, "facts"] + cores + [d, "-o", ffile]) if facts else (0, "", "")
    if rc not in (0, 1):
        bad.append("facts failed (%d): %s" % (rc, err.strip()[:300]))
    elif facts:
        rc2, out2, err = run([hangdx, "diagnose", "--json"] + cores + ["--facts", ffile])
        if out2 != out:
            bad.append("diagnose --facts (%d) differs from single-pass: %s" % (
                rc2, first_diff(out, out2)))
    if base is not None and [dg[k] for k in ANSWER] != [base[k] for k in ANSWER]:
        bad.append("answer %s, on rank-N/ %s" % ([dg[k] for k in ANSWER],
                                                 [base[k] for k in ANSWER]))
    verified = "log_fidelity=verified" in sets
    if base is not None and verified:
        hop = lambda d: [(h["kind"], h["rank"], h.get("stream_id"), h.get("task_id"))
                         for h in d["chain"]]
        lost = ("heartbeat", "cluster_exception")   # a lost rank: the heartbeat
        # line at info level, the cluster exception line at error level
        def same(a, b):
            return a == b or (a[0] == b[0] == "KERNEL_HCCL" and None in (a[2], b[2])) or (
                a[0] in lost and b[0] in lost and a[1:] == b[1:])
        if len(hop(dg)) != len(hop(base)) or not all(
                same(a, b) for a, b in zip(hop(dg), hop(base))):
            bad.append("chain %s, at full fidelity %s" % (hop(dg), hop(base)))
        if dg.get("roots") != base.get("roots"):
            bad.append("roots %s, at full fidelity %s" % (dg.get("roots"), base.get("roots")))
    want = CATEGORY.get(truth["root_cause"], truth["root_cause"])
    if truth["outcome"] == "completed":
        if dg["verdict"] != "no_hang":
            bad.append("false hang: %s %s" % (dg["verdict"], dg["category"]))
        return bad
    if dg["category"] != want:
        bad.append("category %s, truth %s" % (dg["category"], want))
    if truth["root_rank"] != dg["root_rank"]:
        bad.append("root rank %s, truth %s" % (dg["root_rank"], truth["root_rank"]))
    if sorted(truth.get("roots", [])) != sorted(dg.get("roots", [])):
        bad.append("roots %s, truth %s" % (dg.get("roots"), truth.get("roots")))
    fe = truth.get("first_error")
    if fe:
        tied = first_ranks(truth)
        if dg["first_failing_rank"] not in tied:
            bad.append("first failing rank %s, truth %s" % (dg["first_failing_rank"], tied))
        ff = dg.get("first_failure")
        task = fe.get("task")
        # the real "Rtsq full" line names the SQ, not a stream or task
        sq_only = ff and ff["stream_id"] == -1 and ff["kind"] == "aicpu_kernel"
        if ff and task and ff["rank"] == fe["rank"] and not sq_only:
            if (ff["stream_id"], ff["task_id"]) != (task["stream_id"], task["task_id"]):
                bad.append("stuck stream/task %s/%s, truth %s/%s" % (
                    ff["stream_id"], ff["task_id"], task["stream_id"], task["task_id"]))
        elif not ff:
            bad.append("no first failure reported")
    if truth["cycle"]:
        tk = [(c["node"]["kind"], c["node"].get("stream_id"), c["node"].get("task_id"))
              for c in truth["cycle"]]
        # a kernel whose stream no line names (no host launch or scheduler
        # line at log level error) is shown by its status line alone
        dk = [(h["kind"], h.get("stream_id"), h.get("task_id")) for h in dg["chain"]]
        tk = [(k, None, None) if k == "KERNEL_HCCL" and (k, None, None) in dk else (k, a, b)
              for k, a, b in tk]
        if not any(dk == tk[i:] + tk[:i] for i in range(len(tk))):
            bad.append("cycle %s, truth %s" % (dk, tk))
        ff = dg.get("first_failure")
        if ff and ff.get("task_id") is not None and any(
                h["rank"] == ff["rank"] and h.get("stream_id") == ff["stream_id"]
                and h.get("task_id") == ff["task_id"] for h in dg["chain"]):
            h0 = dg["chain"][0]
            if (h0["rank"], h0.get("stream_id"), h0.get("task_id")) != (
                    ff["rank"], ff["stream_id"], ff["task_id"]):
                bad.append("chain starts at %s, not at the first error %s" % (h0, ff))
        if not dg["proven"] and not verified:
            bad.append("deadlock not proven")
        elif not dg["proven"] and "It assumes" not in dg["summary"]:
            bad.append("deadlock inferred without its assumption")
    return bad


def main():
    hangdx, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    all_cases = cases()
    if "--list" in sys.argv:
        for i, (n, _) in enumerate(all_cases, 1):
            print(n)
            for vname, _, which in VARIANTS:
                if which(i):
                    print("%s@%s" % (n, vname))
        return 0
    fails = n = nfacts = 0
    for i, (name, text) in enumerate(all_cases, 1):
        keep = []
        runs = [(name, [], None)]
        for vname, sets, which in VARIANTS:
            if which(i):
                runs.append(("%s@%s" % (name, vname), sets, keep))
        # from facts: the base run and one variant, in turn
        with_facts = {0, 1 + i % (len(runs) - 1)} if len(runs) > 1 else {0}
        for k, (rname, sets, base) in enumerate(runs):
            n += 1
            bad = check(hangdx, work, rname, text, sets,
                        base[0] if base else None, None if base else keep,
                        facts=k in with_facts)
            nfacts += k in with_facts
            if base is not None and not base:
                bad.append("no rank-N/ diagnosis to compare with")
            if bad:
                fails += 1
                print("not ok %d - %s" % (n, rname))
                for b in bad:
                    print("#   " + b)
            else:
                print("ok %d - %s" % (n, rname))
    print("1..%d" % n)
    print("# from facts: %d runs of %d scenarios" % (nfacts, len(all_cases)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
