#!/usr/bin/env python3
"""format_sweep.py - the vendor's own error lines that speak of a timeout,
each written as the plog line its format string prints, read by hangdx.

The rows (tests/data/formats.tsv) are every HCCL_ERROR / HCCL_WARNING /
HCCL_RUN_WARNING, RT_LOG(RT_LOG_ERROR|RT_LOG_WARNING) and driver *_ERR /
*_WARN format string of the public HCCL, runtime and driver sources, and
every message torch_npu builds from pieces in TORCH_CHECK, TORCH_NPU_WARN,
LOG(ERROR), c10::str, std::runtime_error and ASCEND_LOGE/W (an expression
between the pieces read as %s), and vllm-ascend's logger.error / warning /
exception and raise X(...) (read with Python's ast: an f-string's
expressions as %s), of the repositories and commits in the file's head, whose text says "timeout", "time out" or "timed out", with
what the line means, read from the string and the code around it:

  wait     a wait that ran out (a notify, a socket, a kernel, a retry
           step): diagnose must call the line a hang (JSON "hang": true)
  setting  a timeout value refused, parsed or set (an argument check, an
           environment variable): diagnose must not call it a hang
  warn     a warning (the line's level): not a failure by itself, and
           never "no hang" (JSON "hang" not false)
  fail     a call that failed whose cause the line does not say (a
           return code, a print of a timeout's details that failed):
           never "no hang"
  advice   a line of a checklist HCCL prints under a failure ("3. the
           time difference ... exceeds the timeout threshold"): alone,
           never "no hang"
  part     a piece other messages print inside themselves (torch_npu's
           "WorkHCCL(SeqNum=..., Timeout(ms)=...)"): never "no hang"

torch_npu's levels: RAISE, an exception, printed "RuntimeError: ..."; ERROR
and WARNING, c10's log line ("[rank3]:[E0623 ... File.cpp:N] ..."). vLLM's:
RAISE, printed with its class ("TimeoutError: ..."); ERROR and WARNING, its
logger's line ("(EngineCore_DP0 pid=N) ERROR 03-01 10:00:01 [file.py:N] ...").

usage:
  format_sweep.py check HANGDX [TSV]   TAP, one test per row (make test)
  format_sweep.py extract DIR...       the rows the sources under DIR hold
                                       (owner+name/ work trees, bare git
                                       directories or holding one as repo/),
                                       meaning "?" where the file has none
  format_sweep.py verify TSV DIR...    fail on each string of the sources
                                       that TSV has no row for (a new CANN)
  format_sweep.py errors HANGDX DIR... every ERROR string of the sources,
                                       timeout or not: the count per
                                       verdict, and those read as silence

A string is filled in as a real log would print it: numbers for %d/%u,
a name for %s, hex for %x/%p, for a return value (ret[%d], return[%d],
retCode=%#x) a number no table holds, so that the line's words decide, and an HCCL error number (errNo[0x...]) made
of the HcclResult the call passes (HCCL_ERROR_CODE(HCCL_E_...)), read
beside the string when the row is extracted (column errno; "var" where the
call passes a variable: HCCL_E_INTERNAL, HCCL's catch-all, is printed)."""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# the repositories the rows are taken from (tests/data/formats.tsv's head)
REPOS = {"libochao-huawei/hcomm": ("hccl",), "hicann/hccl": ("hccl",),
         "hicann/runtime": ("runtime",), "hicann/driver": ("driver",),
         "hicann/ge": ("ge",), "hicann/hixl": ("ge",),
         "Ascend/pytorch": ("torch_npu",),
         "vllm-project/vllm-ascend": ("vllm",)}
TSV = os.path.join(HERE, "data", "formats.tsv")
WORDS = re.compile(r"time ?out|timed out", re.I)
LIT = r'"(?:[^"\\\n]|\\.)*"'
CALLS = [
    # (family, regex): the level is group 1, the literals group 2
    ("hccl", re.compile(r"\bHCCL_(ERROR|RUN_WARNING|WARNING)\(\s*((?:%s\s*)+)" % LIT)),
    ("runtime", re.compile(r"\bRT_LOG(?:_INNER_MSG)?\(\s*RT_LOG_(ERROR|WARNING)\s*,\s*((?:%s\s*)+)" % LIT)),
    # the driver's user-space macros (HDC_LOG_ERR, DEV_MON_ERR, QUEUE_LOG_ERR,
    # DMS_ERR, DRV_ERR(module, ...), ...): dlog_error(DRV, "[%s] [%s] " fmt)
    ("driver", re.compile(r"\b(?!\w*NOTSUPPORT)[A-Z_]*?(ERR|WARN)\(\s*(?:HAL_MODULE_TYPE_\w+\s*,\s*)?((?:%s\s*)+)" % LIT)),
    # the graph engine's GELOGE(code, fmt) / GELOGW(fmt), and HIXL's and
    # LLM-DataDist's HIXL_LOGE / LLMLOGE(code, fmt), HIXL_LOGW / LLMLOGW(fmt),
    # which write under the GE module ("[HIXL] tid Func: ErrorNo: N ...")
    ("ge", re.compile(r"\b((?:GE|HIXL_|LLM)LOG[EW])\(\s*(?:[\w:.]+\s*,\s*)?((?:%s\s*)+)" % LIT)),
]
# torch_npu builds its messages from pieces (TORCH_CHECK's and c10::str's
# arguments, a stream's "<<", std::string + ...): (level, call, the
# arguments before the message).  RAISE: an exception the console prints
# as "RuntimeError: ..."; ERROR, WARNING: c10's log line, TORCH_NPU_WARN's.
# None: a printf format (ASCEND_LOGE's), its first argument.
TN_CALLS = [
    ("RAISE", re.compile(r"\bTORCH_CHECK\("), 1),
    ("RAISE", re.compile(r"\bTORCH_CHECK_WITH\("), 2),
    ("RAISE", re.compile(r"\bstd::runtime_error\s*[({]"), 0),
    ("RAISE", re.compile(r"\bC10_THROW_ERROR\("), 1),
    ("WARNING", re.compile(r"\bTORCH_NPU_WARN(?:_ONCE)?\("), 0),
    ("ERROR", re.compile(r"\bLOG\(ERROR\)\s*<<"), 0),
    ("WARNING", re.compile(r"\bLOG\(WARNING\)\s*<<"), 0),
    ("ERROR", re.compile(r"\bc10::str\("), 0),
    ("ERROR", re.compile(r"\b(?:ASCEND_LOGE|TORCH_NPU_HCCL_LOGE)\("), None),
    ("WARNING", re.compile(r"\b(?:ASCEND_LOGW|TORCH_NPU_HCCL_LOGW)\("), None),
]
TN_CODE = re.compile(r"^(?:PTA|DIST|OPS|GRAPH|PROF|MEMORY)_ERROR\(")
LITP = re.compile(LIT)
HCCL_RESULT = {}
RET = re.compile(r"(?:\bret|return|retCode|errorno|rtRet|hcclRet)\s*(?:\[|=|\(|: ?|= )$", re.I)


def hccl_results():
    if not HCCL_RESULT:
        with open(os.path.join(HERE, "..", "vocab", "hccl.tsv"), encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#"):
                    k = line.split("\t")
                    HCCL_RESULT[k[1]] = int(k[0])
    return HCCL_RESULT


def source_dirs(dirs):
    """(repo, tree) for each repository under the DIRs."""
    out = []
    for top in dirs:
        for name in sorted(os.listdir(top)):
            p = os.path.join(top, name)
            if "+" not in name or not os.path.isdir(p):
                continue
            repo = name.replace("+", "/", 1)
            if repo not in REPOS:
                continue
            git = os.path.join(p, "repo") if os.path.isdir(os.path.join(p, "repo")) else p
            if os.path.exists(os.path.join(git, "HEAD")) and not os.path.isdir(os.path.join(git, ".git")):
                tmp = tempfile.mkdtemp(prefix="fmt-")
                arch = subprocess.run(["git", "--git-dir", git, "archive", "HEAD"],
                                      stdout=subprocess.PIPE, check=True).stdout
                subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
                head = subprocess.run(["git", "--git-dir", git, "rev-parse", "HEAD"],
                                      stdout=subprocess.PIPE, check=True).stdout.decode().strip()
                out.append((repo, head, tmp, REPOS[repo]))
            else:
                out.append((repo, "worktree", p, REPOS[repo]))
    return out


def strings(tree, families=("hccl", "runtime")):
    """(family, level, path, line, format, errno) of every call in tree."""
    if "torch_npu" in families:
        yield from tn_strings(tree)
        return
    if "vllm" in families:
        yield from py_strings(tree)
        return
    for root, _, files in os.walk(tree):
        for fn in sorted(files):
            if not fn.endswith((".cc", ".cpp", ".c", ".h", ".hpp")):
                continue
            path = os.path.join(root, fn)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            for fam, rx in CALLS:
                if fam not in families:
                    continue
                for m in rx.finditer(text):
                    fmt = "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(2)))
                    if not WORDS.search(fmt):
                        continue
                    tail = text[m.end():m.end() + 600]
                    e = re.search(r"HC(?:CL|OM)_ERROR_CODE\((?:HcclResult::)?(\w+)\)", tail)
                    code = "-" if not e or "errNo[" not in fmt else \
                        e.group(1) if e.group(1).startswith("HCCL_E_") else "var"
                    lv = m.group(1)
                    level = {"ERR": "ERROR", "WARN": "WARNING"}.get(lv, lv) if fam != "ge" \
                        else ("ERROR" if lv.endswith("E") else "WARNING")
                    if fam == "ge":     # which macro: GE's own or HIXL's
                        code = "hixl" if not lv.startswith("GE") else "-"
                    yield (fam, level, os.path.relpath(path, tree),
                           text.count("\n", 0, m.start()) + 1, fmt, code)


def call_args(text, k, stream):
    """The arguments of the call whose parenthesis opened before text[k],
    split at its commas (a stream's: at "<<", to its ';')."""
    depth, cur, out = 0, [], []
    while k < len(text):
        c = text[k]
        m = LITP.match(text, k) if c == '"' else None
        if m:
            cur.append(m.group(0))
            k = m.end()
            continue
        if stream and depth == 0 and (c == ";" or text.startswith("<<", k)):
            out.append("".join(cur))
            if c == ";":
                return out
            cur, k = [], k + 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                out.append("".join(cur))
                return out
            depth -= 1
        elif c == "," and depth == 0 and not stream:
            out.append("".join(cur))
            cur, k = [], k + 1
            continue
        cur.append(c)
        k += 1
    return None


def tn_message(args):
    """The text the arguments print: literals as they are (std::string("x")
    too), every other expression as %s, the ERR code macro left out."""
    out = []
    for a in args:
        a = a.strip()
        if not a or TN_CODE.match(a):
            continue
        for piece in re.split(r"\s\+\s", a):
            piece = piece.strip()
            lit = re.fullmatch(r"(?:std::string\s*\(\s*)?((?:%s\s*)+)\)?" % LIT, piece)
            out.append("".join(x[1:-1] for x in LITP.findall(lit.group(1)))
                       if lit else "%s")
    return "".join(out).replace('\\"', '"')


def tn_strings(tree):
    """(family, level, path, line, message, errno) of torch_npu's calls."""
    top = os.path.join(tree, "torch_npu")
    for root, _, files in os.walk(top):
        for fn in sorted(files):
            if not fn.endswith((".cc", ".cpp", ".h", ".hpp")):
                continue
            path = os.path.join(root, fn)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for lvl, rx, skip in TN_CALLS:
                for m in rx.finditer(text):
                    args = call_args(text, m.end(), m.group(0).endswith("<<"))
                    if args is None:
                        continue
                    args = args[:1] if skip is None else args[skip:]
                    if not LITP.search("".join(args)):
                        continue
                    msg = tn_message(args)
                    if WORDS.search(msg):
                        yield ("torch_npu", lvl, os.path.relpath(path, tree),
                               text.count("\n", 0, m.start()) + 1, msg, "-")


PY_LOGS = {"error": "ERROR", "exception": "ERROR", "critical": "ERROR",
           "warning": "WARNING", "warn": "WARNING"}


def py_text(node):
    """The text a Python expression prints: a literal, an f-string's
    pieces, "a" + b, "a %s" % b, "a {}".format(b); another expression
    as %s."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "%s"
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (py_text(node.left) or "%s") + (py_text(node.right) or "%s")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return py_text(node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "format":
        return py_text(node.func.value)
    return None


def py_strings(tree):
    """(family, level, path, line, message, exception) of a Python
    source's logger.error / warning / exception calls and raise X(...):
    level RAISE, the exception's class in the errno column."""
    for root, _, files in os.walk(os.path.join(tree, "vllm_ascend")):
        for fn in sorted(files):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(root, fn)
            try:
                with open(path, encoding="utf-8") as f:
                    mod = ast.parse(f.read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(mod):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in PY_LOGS and isinstance(node.func.value, ast.Name) and \
                        "log" in node.func.value.id.lower():
                    lvl, call, exc = PY_LOGS[node.func.attr], node, "-"
                elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                        isinstance(node.exc.func, ast.Name):
                    lvl, call, exc = "RAISE", node.exc, node.exc.func.id
                else:
                    continue
                msg = py_text(call.args[0]) if call.args else None
                if msg is not None and WORDS.search(msg):
                    yield ("vllm", lvl, os.path.relpath(path, tree), node.lineno,
                           msg.replace("\n", "\\n"), exc)


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fam, level, meaning, errno, src, fmt = line.rstrip("\n").split("\t")
            rows.append(dict(family=fam, level=level, meaning=meaning, errno=errno,
                             source=src, format=fmt))
    return rows


def fill(fmt, errno):
    n = [0]

    def rep(m):
        c = m.group(0)
        n[0] += 1
        if RET.search(m.string[:m.start()]):
            return "1836"   # a return value no table holds: the words decide
        if c.endswith("s"):
            return ["HcclAllReduce_1", "group_233", "10.0.0.2"][n[0] % 3]
        if c.endswith(("x", "X")):
            return "7f00a0b0"
        if c.endswith("f"):
            return "1836.000000"
        if c.endswith("p"):
            return "0xffff8a0b2c40"
        if c.endswith("c"):
            return "a"
        return str([1836, 4, 12, 7][n[0] % 4])

    if errno.startswith("HCCL_E_") or errno == "var":
        # a code the call computes (HCCL_ERROR_CODE(ret)): HCCL's catch-all
        code = 0x5000000 + hccl_results()[errno if errno != "var" else "HCCL_E_INTERNAL"]
        fmt = fmt.replace("errNo[0x%016llx]", "errNo[0x%016x]" % code)
    out = re.sub(r"%[-+ #0]*\d*(?:\.\d+)?(?:ll|l|h|hh|z|j)?[diouxXsfpc]", rep, fmt)
    return out.replace('\\"', '"').replace("\\n", " ").replace("\\t", " ").replace("%%", "%")


def line_of(row, i):
    path, ln = row["source"].rsplit(":", 1)
    base = os.path.basename(path)
    lvl = "ERROR" if row["level"] == "ERROR" else "WARNING"
    ts = "2025-03-01-10:%02d:%02d.123.456" % (i // 60 % 60, i % 60)
    body = fill(row["format"], row["errno"])
    if row["family"] == "runtime":
        return "[%s] RUNTIME(40125,python):%s [%s:%s]40130 SyncStream:%s" % (lvl, ts, base, ln, body)
    if row["family"] == "vllm":     # vLLM's logger; an exception raised
        if row["level"] == "RAISE":
            return "%s: %s" % (row["errno"], body)
        return "(EngineCore_DP0 pid=40125) %s 03-01 10:%02d:%02d [%s:%s] %s" % (
            lvl, i // 60 % 60, i % 60, base, ln, body)
    if row["family"] == "ge":       # GE's head, or HIXL's under GE
        head = "[%s] GE(40125,python):%s [%s:%s]40130 " % (lvl, ts, base, ln)
        if row["errno"] == "hixl":
            return head + "[HIXL] 40130 TransferSync: " + (
                "ErrorNo: 255 " if lvl == "ERROR" else "") + body
        return head + "Execute: " + (
            "ErrorNo: 4294967295(failed) [EXEC][DEFAULT]" if lvl == "ERROR" else "") + body
    if row["family"] == "torch_npu":
        if row["format"].startswith("%s"):  # logPrefix()
            body = "[PG ID 0 PG GUID 0(default_pg) Rank 3] " + fill(row["format"][2:], "-")
        if row["level"] == "RAISE":
            return "RuntimeError: " + body
        return "[rank3]:[%s0623 10:%02d:%02d.123456789 %s:%s] %s%s" % (
            lvl[0], i // 60 % 60, i % 60, base, ln,
            "Warning: " if lvl == "WARNING" else "", body)
    if row["family"] == "driver":
        return "[%s] DRV(40125,python):%s [hdc] [%s] %s" % (lvl, ts, os.path.splitext(base)[0], body)
    return "[%s] HCCL(40125,python):%s [%s:%s] [40130]%s" % (lvl, ts, base, ln, body)


def check(hangdx, path):
    rows = read_tsv(path)
    print("1..%d" % (len(rows) + 1))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, row in enumerate(rows):
            f = os.path.join(tmp, "l%03d.log" % i)
            with open(f, "w", encoding="utf-8") as o:
                o.write(line_of(row, i) + "\n")
            p = subprocess.run([hangdx, "diagnose", "--json", f], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, timeout=60)
            try:
                d = json.loads(p.stdout.decode("utf-8", "replace"))
                hang, cat = d["hang"], d["category"]
            except (ValueError, KeyError):
                hang, cat = "no report", "exit %d" % p.returncode
            m = row["meaning"]
            want = "a hang" if m == "wait" else "not a hang" if m == "setting" else "not 'no hang'"
            ok = hang != "no report" and ((m == "wait" and hang is True) or
                                          (m == "setting" and hang is not True) or
                                          (m in ("warn", "fail", "advice", "part") and
                                           hang is not False))
            bad += not ok
            print("%s %d - %s %s: %s, got hang=%s %s" % ("ok" if ok else "not ok", i + 1,
                  row["source"], row["format"][:70], want, json.dumps(hang), cat))
            if not ok:
                print("#   line: %s" % line_of(row, i))
    n = len(rows)
    waits = sum(r["meaning"] == "wait" for r in rows)
    print("ok %d - %d vendor format strings read (%d waits that ran out)" % (n + 1, n, waits)
          if n >= 200 else "not ok %d - only %d rows" % (n + 1, n))
    return 1 if bad or n < 200 else 0


def extract(dirs, known=None):
    rows = []
    for repo, head, tree, fams in source_dirs(dirs):
        for fam, lvl, path, ln, fmt, errno in strings(tree, fams):
            src = "%s@%s:%s:%d" % (repo, head[:12], path, ln)
            rows.append((fam, lvl, fmt, errno, src))
        if head != "worktree":
            shutil.rmtree(tree)
    return rows


def errors(hangdx, dirs):
    """Every ERROR format string of the sources (not only the timeouts),
    each as its line: how many come out of each (hang, category), and the
    ones read as silence ("not_determined": an error line hangdx took for
    none).  Not part of make test (some 12,000 runs)."""
    global WORDS
    WORDS = re.compile(r".")
    seen, count, silent = set(), {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for repo, head, tree, fams in source_dirs(dirs):
            for fam, lvl, path, ln, fmt, errno in strings(tree, fams):
                if lvl != "ERROR" or (fam, fmt) in seen:
                    continue
                seen.add((fam, fmt))
                row = dict(family=fam, level=lvl, errno=errno, format=fmt,
                           source="%s:%d" % (path, ln))
                f = os.path.join(tmp, "e.log")
                with open(f, "w", encoding="utf-8") as o:
                    o.write(line_of(row, len(seen)) + "\n")
                p = subprocess.run([hangdx, "diagnose", "--json", f], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
                try:
                    d = json.loads(p.stdout.decode("utf-8", "replace"))
                    k = (json.dumps(d["hang"]), d["category"])
                except (ValueError, KeyError):
                    k = ("no report", "exit %d" % p.returncode)
                count[k] = count.get(k, 0) + 1
                if k == ("null", "not_determined"):
                    silent.append("%s %s:%d: %s" % (repo, path, ln, fmt))
            if head != "worktree":
                shutil.rmtree(tree)
    for k, v in sorted(count.items(), key=lambda kv: -kv[1]):
        print("%6d  hang=%s %s" % (v, k[0], k[1]))
    print("read as silence (%d):" % len(silent))
    for x in silent:
        print("  " + x)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "check":
        return check(argv[1], argv[2] if len(argv) > 2 else TSV)
    if len(argv) >= 2 and argv[0] == "extract":
        seen = set()
        for fam, lvl, fmt, errno, src in extract(argv[1:]):
            if (fam, lvl, fmt) in seen:
                continue
            seen.add((fam, lvl, fmt))
            meaning = "warn" if lvl == "WARNING" else "?"
            print("\t".join((fam, lvl, meaning, errno, src, fmt)))
        return 0
    if len(argv) >= 3 and argv[0] == "verify":
        have = {(r["family"], r["level"], r["format"]) for r in read_tsv(argv[1])}
        missing = 0
        for fam, lvl, fmt, errno, src in extract(argv[2:]):
            if (fam, lvl, fmt) not in have:
                missing += 1
                print("format_sweep: %s: no row for %s %s \"%s\"" % (src, fam, lvl, fmt),
                      file=sys.stderr)
        print("format_sweep: %d strings of the sources without a row" % missing)
        return 1 if missing else 0
    if len(argv) >= 3 and argv[0] == "errors":
        return errors(argv[1], argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
