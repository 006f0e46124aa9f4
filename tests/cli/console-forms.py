#!/usr/bin/env python3
"""console-forms.py - helper of t36-console-forms.sh.

  console-forms.py forms
      the names of the transforms, one a line
  console-forms.py write FORM IN OUT
      write IN as a console paste would show it: every line behind a
      launcher prefix (the forms of docs/EVIDENCE.md, "Console envelope"),
      coloured as a terminal shows it (with its ESC bytes, or without them
      as a web page keeps it), as grep prints it (path:N:, context lines
      path-N-, grep -C's mix, N: of one file, --color), CRLF line ends, a
      hard wrap at 80 columns, Markdown's list items and inline code, a
      web page's no-break spaces, trailing blanks, the whole paste
      indented (four blanks, a tab), or a mix
  console-forms.py check HANGDX FILE TMPDIR
      every form of FILE: `parse --json` and `diagnose --json` against
      FILE's own; prints what differs, exit 1 if anything does
  console-forms.py parse-sig JSONL / diag-sig JSON FORM
      the signature that must not change: record kinds and ids in order
      (parse), hang decision, category and ids (diagnose); ranks are left
      out only for the forms that name a rank (RANKED) and then printed
      apart
"""
import difflib
import json
import re
import subprocess
import sys

PREFIXES = {
    "rank": "[rank7]: ",
    "rank-c10": "[rank7]:",
    "vllm-worker": "(VllmWorker TP1 pid=961) ",
    "vllm-worker-ep": "(Worker_DP1_TP3_EP3 pid=4242) ",
    "vllm-nested": "(Worker pid=17148) (Worker_DP0_TP6_EP6 pid=17148) ",
    "vllm-enginecore": "(EngineCore_DP0 pid=2221630) ",
    "vllm-logger": "(Worker_DP1_TP3_EP3 pid=4242) ERROR 02-17 09:12:45 "
                   "[multiproc_executor.py:945] ",
    "vllm-bracket": "[Worker_DP0_TP1_EP1 pid=40968] ",
    "ray": "(TaskRunner pid=52177) ",
    "ray-ip": "(WorkerDict pid=1230, ip=10.0.0.7) [rank7]:",
    "pdsh": "worker-1: ",
    "pdsh-ip": "10.0.0.1: ",
    "pdsh-rank": "worker-1: [rank7]: ",
    "mpi": "[1,7]<stderr>:",
    "compose": "trainer   | ",
    # labels that name no global rank: torchrun --tee's role and local
    # rank, a server's or a reporter's parallel-group bracket, srun --label
    "torchrun-tee": "[default0]:",
    "label-tp": "[TP0] ",
    "label-dp-tp": "[DP1 TP0] ",
    "srun-label": "3: ",
    "kubectl": "[pod/trainer-0/main] ",
    "kubectl-ts": "2025-01-01T00:00:08.123456789Z ",
    "journal": "Jan  5 10:00:01 node-1 python[4242]: ",
    # a logger's time head (a wrapper that logs what the job printed)
    "pytime": "2025-01-01 00:00:08,123 - ",
    "pylog-info": "2025-01-01 00:00:08,123 - runner - INFO - ",
    "loguru-info": "2025-01-01 00:00:08.123 | INFO     | app.main:run:130 - ",
    "brtime": "[2025-01-01 00:00:08] ",
    # vLLM's colour: a file keeps the ESC bytes, a web page only "[0;36m"
    "colour": "\x1b[0;36m(EngineCore_DP0 pid=2221630)\x1b[0;0m ",
    "colour-noesc": "[0;36m(EngineCore_DP0 pid=2221630)[0;0m ",
    "colour-logger-noesc": "[0;36m(Worker_DP0_TP1 pid=4242)[0;0m "
                           "[31mERROR[0m [90m09-12 10:00:01[0m "
                           "[90m[core.py:790][0m ",
    "colour-rank": "\x1b[1;31m[rank7]:\x1b[0m ",
    # the same seen through "cat -v" or an editor: caret notation
    "colour-caret": "^[[0;36m(EngineCore_DP0 pid=2221630)^[[0;0m ",
    # a paste quoted in an issue's Markdown, once or twice, or as a list
    "quote": "> ",
    "quote-nested": "> > ",
    "quote-tight": ">",         # the marker's space is optional
    "quote-nested-tight": ">> ",
    "list": "- ",
    "quote-list": "> * ",
}
RANKED = {"rank", "rank-c10", "ray-ip", "pdsh-rank", "mpi", "colour-rank"}
OTHER = ["grep", "grep-ctx", "grep-C", "grep-n", "grep-color",
         "grep-color-noesc", "crlf", "wrap80", "rank+crlf",
         "colour-noesc+crlf", "vllm-logger+wrap80", "tick", "nbsp",
         "trail", "nbsp+quote+trail", "indent", "tab", "indent+crlf",
         "catn", "catn+crlf", "quote+catn", "colour-caret+caretcr"]
# what grep -C would have matched: its lines get ':', the context '-'
MATCH = re.compile(r"E[A-Z0-9]\d{4}|ERROR|[Ee]rror|timeout|failed")
GREP_PATH = "logs/train.log"


def grep_colour(n, ln, esc):
    """grep --color=always -n: path, separators and number coloured, the
    first match highlighted."""
    e = "\x1b" if esc else ""

    def c(code, text):
        return "%s[%sm%s[K%s%s[m%s[K" % (e, code, e, text, e, e)
    m = MATCH.search(ln)
    if m:
        ln = ln[:m.start()] + c("01;31", m.group(0)) + ln[m.end():]
    return c("35", GREP_PATH) + c("36", ":") + c("32", str(n)) + \
        c("36", ":") + ln


def wrap(lines, cols=80):
    out = []
    for ln in lines:
        while len(ln) > cols:
            out.append(ln[:cols])
            ln = ln[cols:]
        out.append(ln)
    return out


def transform(form, lines):
    eol = "\n"
    parts = form.split("+")
    for p in parts:
        if p in PREFIXES:
            lines = [PREFIXES[p] + ln for ln in lines]
        elif p == "grep":
            lines = ["%s:%d:%s" % (GREP_PATH, i + 1, ln)
                     for i, ln in enumerate(lines)]
        elif p == "grep-ctx":
            lines = ["%s-%d-%s" % (GREP_PATH, i + 1, ln)
                     for i, ln in enumerate(lines)]
        elif p == "grep-C":
            lines = ["%s%s%d%s%s" % (GREP_PATH, s, i + 1, s, ln)
                     for i, ln in enumerate(lines)
                     for s in [":" if MATCH.search(ln) else "-"]]
        elif p == "grep-n":
            lines = ["%d:%s" % (i + 1, ln) for i, ln in enumerate(lines)]
        elif p in ("grep-color", "grep-color-noesc"):
            lines = [grep_colour(i + 1, ln, p == "grep-color")
                     for i, ln in enumerate(lines)]
        elif p == "crlf":
            eol = "\r\n"
        elif p == "wrap80":
            lines = wrap(lines)
        elif p == "tick":       # each line quoted as code in a sentence
            lines = ["`%s`" % ln for ln in lines]
        elif p == "nbsp":       # a web page's no-break spaces
            lines = [ln.replace(" ", "\u00a0") for ln in lines]
        elif p == "trail":      # blanks a paste left at the ends
            lines = [ln + "  \t" for ln in lines]
        elif p == "indent":     # a Markdown code block by indentation
            lines = ["    " + ln if ln else ln for ln in lines]
        elif p == "catn":       # cat -n, nl: the number, a tab
            lines = ["%6d\t%s" % (i + 1, ln) for i, ln in enumerate(lines)]
        elif p == "caretcr":    # the CR of CRLF shown as "^M"
            lines = [ln + "^M" for ln in lines]
        elif p == "tab":
            lines = ["\t" + ln if ln else ln for ln in lines]
        else:
            raise SystemExit("unknown form " + p)
    return eol.join(lines) + eol


IDS = ("stream", "task", "notify_hccl", "notify_rt", "notify_aicpu", "event",
       "remote_rank", "code", "what", "err_type", "ret_code", "serial",
       "timeout_raw", "device_id", "local_rank", "tag")


def parse_sig(path):
    sig = []
    for line in open(path):
        r = json.loads(line)
        if r["kind"] in ("file", "totals", "process", "stream", "rank",
                         "node"):
            continue
        sig.append([r["kind"]] + ["%s=%s" % (k, r[k]) for k in IDS if k in r])
    return sig


def unrank(v):
    if isinstance(v, str):
        return re.sub(r"rank ?(\d+|\?)", "rank_", v)
    return v


def diag_sig(path, ranked, wrapped):
    d = json.load(open(path))
    keep = {k: d.get(k) for k in ("verdict", "category", "proven")}
    chain = []
    for c in d.get("chain", []):
        e = {}
        for k, v in c.items():
            if k == "evidence":         # path:line; a wrap moves lines
                v = "" if wrapped else v.rsplit(":", 1)[-1]
            if ranked and "rank" in k:
                continue
            e[k] = unrank(v) if ranked else v
        chain.append(e)
    keep["chain"] = chain
    if not ranked:
        keep["root_rank"] = d.get("root_rank")
        keep["first_failing_rank"] = d.get("first_failing_rank")
    return keep


def run(args, out):
    with open(out, "w") as f:
        subprocess.run(args, stdout=f, stderr=subprocess.DEVNULL)


def check(hangdx, src, tmp, forms):
    """Every form of src against src itself; prints the differences."""
    run([hangdx, "parse", "--json", src], tmp + "/a.jsonl")
    run([hangdx, "diagnose", "--json", src], tmp + "/a.json")
    want = parse_sig(tmp + "/a.jsonl")
    text = open(src, encoding="utf-8", errors="surrogateescape").read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    bad = 0
    for form in forms:
        dst = tmp + "/in.log"
        with open(dst, "w", encoding="utf-8", errors="surrogateescape",
                  newline="") as f:
            f.write(transform(form, lines))
        run([hangdx, "parse", "--json", dst], tmp + "/b.jsonl")
        run([hangdx, "diagnose", "--json", dst], tmp + "/b.json")
        got = parse_sig(tmp + "/b.jsonl")
        if got != want:
            bad += 1
            print("%s: records differ" % form)
            for line in difflib.unified_diff(
                    [json.dumps(x) for x in want],
                    [json.dumps(x) for x in got], lineterm="", n=1):
                print("  " + line)
        ranked = bool(set(form.split("+")) & RANKED)
        wrapped = "wrap80" in form
        a = diag_sig(tmp + "/a.json", ranked, wrapped)
        b = diag_sig(tmp + "/b.json", ranked, wrapped)
        if a != b:
            bad += 1
            print("%s: diagnosis differs: %s\n  got %s" % (form, a, b))
        if ranked:      # the prefix's rank, or one the evidence names
            d = json.load(open(tmp + "/b.json"))
            w = json.load(open(tmp + "/a.json"))
            for k in ("root_rank", "first_failing_rank"):
                if d.get(k, -1) not in (-1, 7, w.get(k, -1)):
                    bad += 1
                    print("%s: %s %s, want 7 (the prefix's) or %s" %
                          (form, k, d.get(k), w.get(k)))
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == "check":
        hangdx, src, tmp = sys.argv[2:5]
        forms = list(PREFIXES) + OTHER
        sys.exit(1 if check(hangdx, src, tmp, forms) else 0)
    if cmd == "forms":
        print("\n".join(list(PREFIXES) + OTHER))
    elif cmd == "write":
        form, src, dst = sys.argv[2:5]
        text = open(src, encoding="utf-8", errors="surrogateescape").read()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        with open(dst, "w", encoding="utf-8", errors="surrogateescape",
                  newline="") as f:
            f.write(transform(form, lines))
    elif cmd == "ranked":
        sys.exit(0 if set(sys.argv[2].split("+")) & RANKED else 1)
    elif cmd == "parse-sig":
        print(json.dumps(parse_sig(sys.argv[2]), indent=0))
    elif cmd == "diag-sig":
        form = sys.argv[3]
        ranked = bool(set(form.split("+")) & RANKED)
        wrapped = "wrap80" in form
        print(json.dumps(diag_sig(sys.argv[2], ranked, wrapped), indent=0,
                         sort_keys=True))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
