#!/usr/bin/env python3
"""tests/envelope_invariance.py HANGDX STEP DIR... - what a launcher or a
paste puts around each line must not change the verdict.  Every STEP-th
excerpt of DIR (tests/field/) is diagnosed bare, then with each envelope
below around every line; the (hang, category) of each must be the bare
one's.  An excerpt whose first line starts with a paste's own mark (a
Markdown quote '>' or a backquote) is skipped: the mark belongs inside
the envelope, not outside it.  TAP on stdout; exit 1 on a change.

The envelopes are those hangdx reads as such (docs/DIAGNOSIS.md, "The
console envelope"): Windows line ends, page indentation, a Markdown
quote, docker compose's "service  | ", Ray's "(Name pid=N, ip=X) ", pdsh's
"host: ", vLLM's colour codes whose ESC byte a paste lost, and grep's
"path:N:" over every line of a file (numbers that follow each other:
nothing filtered out, so a silence between two lines is the log's).
Left out on purpose: Open MPI's "[1,3]<stderr>:" (it names a rank for
every line, which changes what an excerpt of several ranks says).
"""
import glob
import json
import os
import subprocess
import sys

ENVELOPES = [
    ("crlf", lambda ls: [l + "\r" for l in ls]),
    ("indent", lambda ls: ["    " + l for l in ls]),
    ("quote", lambda ls: ["> " + l for l in ls]),
    ("compose", lambda ls: ["vllm-server-1  | " + l for l in ls]),
    ("ray", lambda ls: ["(RayWorkerWrapper pid=4321, ip=10.0.0.7) " + l for l in ls]),
    ("pdsh", lambda ls: ["worker-3: " + l for l in ls]),
    ("colour", lambda ls: ["[0;36m(EngineCore_DP0 pid=7)[0;0m " + l for l in ls]),
    ("grep", lambda ls: ["logs/worker-0.log:%d:%s" % (i + 1, l) for i, l in enumerate(ls)]),
]


def verdict(hangdx, lines):
    text = "\n".join(lines) + "\n"
    p = subprocess.run([hangdx, "diagnose", "--json", "-"],
                       input=text.encode("utf-8", "surrogateescape"),
                       capture_output=True)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return ("no JSON", p.returncode)
    return (d.get("hang"), d.get("category"))


def main():
    if len(sys.argv) < 4:
        print("usage: envelope_invariance.py HANGDX STEP DIR...", file=sys.stderr)
        return 2
    hangdx, step = sys.argv[1], int(sys.argv[2])
    files = sorted(f for d in sys.argv[3:] for f in glob.glob(os.path.join(d, "*.log")))
    n = bad = 0
    for f in files[::step]:
        with open(f, "rb") as fh:
            raw = fh.read().decode("utf-8", "surrogateescape").split("\n")
        body = [l for l in raw if not l.startswith("# ")]
        while body and body[-1] == "":
            body.pop()
        if not body or body[0][:1] in (">", "`"):
            continue
        base = verdict(hangdx, body)
        for name, wrap in ENVELOPES:
            got = verdict(hangdx, wrap(body))
            n += 1
            ok = got == base
            bad += not ok
            print("%s %d - %s in %s: %s%s" % ("ok" if ok else "not ok", n, os.path.basename(f),
                  name, json.dumps(base), "" if ok else ", got " + json.dumps(got)))
    print("1..%d" % n)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
