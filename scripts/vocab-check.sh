#!/bin/sh
# scripts/vocab-check.sh - checks the vendor vocabulary (vocab/*.tsv) against
# the copies of the vendor's code lists it was built from (vocab/sources/*),
# offline: every code a source defines must have a row, every row must be
# found in the source it cites, and every table must be well formed
# (columns, classes, key shapes, unique keys).  docs/VOCABULARY.md.
#
# usage: scripts/vocab-check.sh [--dir VOCAB] [--fetch DIR | --update DIR]
#   --dir VOCAB   the tables and sources to check (default: vocab/)
#   --fetch DIR   also re-extract every source from a fresh copy of its
#                 repository under DIR (DIR/owner+name/ as a work tree, a
#                 bare git directory, or holding one as repo/) and fail on
#                 each code there that no table has
#   --update DIR  rewrite vocab/sources/* from DIR (commit = its HEAD)
# Exit status: 0 all good, 1 a check failed (each failure on stderr, naming
# the code), 2 usage.
exec python3 - "$@" <<'EOF'
import json, os, re, subprocess, sys

FAMILIES = ["runtime", "rt_inner", "errmgr", "hccl", "drv", "aicpu", "ts", "dcmi", "errno", "torch_npu",
            "mindie", "framework"]
CLASSES = ["wait_timeout", "device_exception", "resource", "parameter",
           "comm_setup", "lost", "unknown"]
KEY_SHAPE = {
    "runtime": r"[1-9][0-9]{5}",
    "rt_inner": r"0x[0-9a-f]{8}",
    "errmgr": r"[EW][A-Z0-9][0-9]{4}",
    "hccl": r"[1-9][0-9]{0,3}",
    "drv": r"[1-9][0-9]{0,2}",
    "aicpu": r"[1-9][0-9]{0,5}",
    "ts": r"0x[1-9a-f][0-9a-f]{0,2}",
    "dcmi": r"-[89][0-9]{3,4}",
    "errno": r"-[1-9][0-9]{0,2}",
    "torch_npu": r"ERR[0-9]{5}|[A-Z]{2,8}",
    "mindie": r"MIE[0-9]{2}(?:[EWCI][0-9A-F]{6}|\*[0-9A-F]{2})",
    "framework": r"[^\s*][^*]{2,}(?:\*[^*]+)?[^\s*]",
}
CODE_RE = {
    "runtime": re.compile(r"(?<![0-9xX])([1-9][0-9]{5})(?![0-9])"),
    "rt_inner": re.compile(r"\b0x([0-9A-Fa-f]{8})\b"),
    "errmgr": re.compile(r"\b([EW][A-Z0-9][0-9]{4})\b"),
    "hccl": re.compile(r"=\s*([0-9]+)"),
    "drv": re.compile(r"=\s*([0-9]+)"),
    "aicpu": re.compile(r"=\s*(0x[0-9A-Fa-f]+|[0-9]+)"),
    "ts": re.compile(r"=\s*0x([0-9A-Fa-f]+)"),
    "dcmi": re.compile(r"^(-[0-9]+):"),
    "errno": re.compile(r"^#define E\w+ ([0-9]+)\b"),
    "mindie": re.compile(r'"(MIE[0-9]{2}[EWCI][0-9A-F]{6}|[0-9A-F]{2})"'),
}
failures = []


def fail(msg):
    failures.append(msg)
    print("vocab-check: " + msg, file=sys.stderr)


def usage():
    print("usage: scripts/vocab-check.sh [--dir VOCAB] [--fetch DIR | --update DIR]",
          file=sys.stderr)
    sys.exit(2)


# ---- sources ----

def read_header(line):
    """'# vocab-source k=v ... select=REST' -> dict"""
    if not line.startswith("# vocab-source "):
        return None
    head, _, select = line.rstrip("\n").partition(" select=")
    h = dict(kv.split("=", 1) for kv in head.split()[2:])
    h["select"] = select
    return h


def load_sources(vdir):
    out = {}
    sdir = os.path.join(vdir, "sources")
    for fn in sorted(os.listdir(sdir)):
        if not fn.endswith(".txt"):
            continue
        with open(os.path.join(sdir, fn), encoding="ascii") as f:
            lines = f.read().split("\n")
        h = read_header(lines[0])
        if h is None or h.get("id") != fn[:-4]:
            fail("sources/%s: first line must be '# vocab-source id=%s ...'" % (fn, fn[:-4]))
            continue
        h["lines"] = [l for l in lines[1:] if l]
        out[h["id"]] = h
    return out


def names_of(src):
    return [m.group(1) for l in src["lines"] for m in [re.search(src["names"], l)] if m]


def composite_keys(srcs):
    """torch_npu: ERR + 2-digit sub-module + 3-digit error code"""
    mods, errs = {}, {}
    for s in srcs.values():
        if s["family"] != "torch_npu":
            continue
        pairs = [(n, int(v)) for l in s["lines"] for n, v in re.findall(r"(\w+) = \(?([0-9]+)", l)]
        if s["role"] == "submodule":
            mods.update(pairs)
        elif s["role"] == "errcode":
            errs.update(p for p in pairs if p[1] != 0)
    keys = {m: "submodule" for m in mods}
    for m, mv in mods.items():
        for e, ev in errs.items():
            keys["ERR%02d%03d" % (mv, ev)] = "%s_ERROR(ErrCode::%s)" % (m, e)
    return keys


def hccp_codes(src):
    """HCCP's 6-digit codes: ConverReturnCode's CONVER_ERROR_CODE (hcomm,
    ra_client_host.h): type * 100000 + HCCP_MODULE_ID (28) * 1000 +
    module (0 init, 1 RDMA, 2 socket, 3 others) * 100 + the errno's index,
    from each '{-EXXX, type, index},' of gErrcodeInfoList -> {code: name}"""
    out = {}
    for l in src["lines"]:
        m = re.match(r"\{-(E\w+), ([0-9]), ([0-9]+)\},", l)
        if not m:
            fail("sources/%s.txt: not an entry: %s" % (src["id"], l[:80]))
            continue
        for mod, word in enumerate(("INIT", "RDMA", "SOCKET", "OTHERS")):
            code = int(m.group(2)) * 100000 + 28 * 1000 + mod * 100 + int(m.group(3))
            out[str(code)] = "HCCP_%s_%s" % (word, m.group(1))
    return out


def codes_of(src):
    fam = src["family"]
    if src.get("compose") == "hccp":
        return list(hccp_codes(src))
    if fam not in CODE_RE:
        return []
    out = []
    for l in src["lines"]:
        m = CODE_RE[fam].search(l)
        if not m:
            fail("sources/%s.txt: no %s code in line: %s" % (src["id"], fam, l[:80]))
            continue
        c = m.group(1)
        if fam == "aicpu" and c.startswith("0x"):
            c = str(int(c, 16))     # AICPU_TIMEOUT_RAW_ERRCODE = 0x21007U
        elif fam == "ts":
            c = "0x%x" % int(c, 16)  # TS_ERROR_AICPU_EXCEPTION = 0x2A -> 0x2a
        elif fam == "errno":
            c = "-" + c     # #define ENOMEM 12 -> -12, as HCCP returns it
        elif fam == "mindie" and len(c) == 2:
            c = src.get("prefix", "") + c   # an error type: MIE04*1C
        out.append("0x" + c.lower() if fam == "rt_inner" else c)
    return out


# ---- tables ----

def load_tables(vdir):
    tabs = {}
    for fam in FAMILIES:
        path = os.path.join(vdir, fam + ".tsv")
        if not os.path.exists(path):
            fail("%s.tsv: missing" % fam)
            continue
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            fail("%s.tsv: not ASCII" % fam)
            continue
        rows = {}
        lines = text.split("\n")
        if not lines[0].startswith("# key\tname\tclass\tmeaning\tsource"):
            fail("%s.tsv:1: header must be '# key<TAB>name<TAB>class<TAB>meaning<TAB>source'" % fam)
        for no, l in enumerate(lines[1:], 2):
            if not l or l.startswith("#"):
                continue
            check_row(fam, no, l, rows)
        tabs[fam] = rows
    return tabs


def check_row(fam, no, l, rows):
    where = "%s.tsv:%d" % (fam, no)
    cols = l.split("\t")
    if len(cols) != 5:
        fail("%s: %d columns, want 5" % (where, len(cols)))
        return
    key, name, cls, meaning, src = cols
    if not re.fullmatch(r"[ -~]+", l.replace("\t", " ")):
        fail("%s: %s: control characters" % (where, key))
    if not all(cols):
        fail("%s: %s: an empty column" % (where, key))
    if cls not in CLASSES:
        fail("%s: %s: class '%s' is none of %s" % (where, key, cls, " ".join(CLASSES)))
    if not re.fullmatch(KEY_SHAPE[fam], key):
        fail("%s: key '%s' is not a %s key" % (where, key, fam))
    if key in rows:
        fail("%s: key %s repeated (first at line %d)" % (where, key, rows[key]["line"]))
        return
    rows[key] = {"name": name, "class": cls, "source": src, "line": no}


def phrase_in(key, line):
    pos = 0
    for part in key.split("*"):
        pos = line.find(part, pos)
        if pos < 0:
            return False
        pos += len(part)
    return True


# ---- (a) sources against tables ----

def check_sources(srcs, tabs):
    want = {}      # family -> {code: source id}
    for s in srcs.values():
        fam, role = s.get("family"), s.get("role")
        if fam not in FAMILIES:
            fail("sources/%s.txt: unknown family '%s'" % (s["id"], fam))
            continue
        rows = tabs.get(fam, {})
        if role == "codes":
            for c in codes_of(s):
                ids = want.setdefault(fam, {}).setdefault(c, [])
                if s["id"] not in ids:
                    ids.append(s["id"])
        elif role == "meaning":
            allnames = " ".join(r["name"] for r in rows.values())
            for n in names_of(s):
                if n not in allnames:
                    fail("%s: %s (sources/%s.txt) has no row" % (fam, n, s["id"]))
        elif role == "phrases":
            keys = [k for k, r in rows.items() if r["source"] == s["id"]]
            for l in s["lines"]:
                if not any(phrase_in(k, l) for k in keys):
                    fail("framework: no row for the phrase of sources/%s.txt: %s" % (s["id"], l[:90]))
    for k, v in composite_keys(srcs).items():
        want.setdefault("torch_npu", {})[k] = [v]
    for fam, codes in want.items():
        for c in sorted(codes):
            if c not in tabs.get(fam, {}):
                fail("%s: code %s (%s) has no row in %s.tsv" % (fam, c, ", ".join(codes[c]), fam))
    check_provenance(srcs, tabs)


def check_provenance(srcs, tabs):
    """every row is found in the source it cites"""
    comp = composite_keys(srcs)
    for fam, rows in tabs.items():
        for key, r in rows.items():
            s = srcs.get(r["source"])
            where = "%s.tsv:%d: %s" % (fam, r["line"], key)
            if s is None:
                fail("%s: source '%s' is not in vocab/sources" % (where, r["source"]))
            elif s["family"] != fam:
                fail("%s: source %s is a %s source" % (where, s["id"], s["family"]))
            elif fam == "framework":
                if not any(phrase_in(key, l) for l in s["lines"]):
                    fail("%s: phrase not found in sources/%s.txt" % (where, s["id"]))
            elif fam == "torch_npu":
                if key not in comp:
                    fail("%s: not made of sources/%s.txt" % (where, s["id"]))
            elif key not in codes_of(s):
                fail("%s: not defined in sources/%s.txt" % (where, s["id"]))


# ---- (c) fresh sources ----

def repo_file(root, repo, path, pinned=None):
    """(text, commit) of path in repo under root, or (None, None)"""
    owner_name = repo.replace("/", "+")
    for cand in (os.path.join(root, owner_name, "repo"), os.path.join(root, owner_name),
                 os.path.join(root, *repo.split("/"))):
        if os.path.exists(os.path.join(cand, "HEAD")) and os.path.isdir(os.path.join(cand, "objects")):
            git = ["git", "--git-dir=" + cand]
        elif os.path.isdir(os.path.join(cand, ".git")):
            git = ["git", "-C", cand]
        else:
            continue
        # HEAD, else the commit the source was taken from (a file the
        # vendor has since moved or removed keeps its last public text)
        for rev in ("HEAD", pinned) if pinned else ("HEAD",):
            try:
                commit = subprocess.run(git + ["rev-parse", rev], check=True,
                                        capture_output=True, text=True).stdout.strip()
                text = subprocess.run(git + ["show", commit + ":" + path], check=True,
                                      capture_output=True).stdout.decode("utf-8", "replace")
                return text, commit
            except subprocess.CalledProcessError:
                continue
        return None, None
    return None, None


def join_continued(text):
    return re.sub(r"\\\n\s*", " ", text.replace("\r\n", "\n")).split("\n")


def strip_comment(line):
    """a line without its trailing // comment (outside string literals)"""
    quoted = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i].rstrip()
    return line


def errjson_lines(text):
    m = re.search(r'R"\((.*?)\)"', text, re.S)
    body = m.group(1) if m else text
    out = []
    for e in json.loads(body)["error_info_list"]:
        d = {k: e[k].strip() for k in ("ErrCode", "errClass", "errTitle", "ErrMessage") if k in e}
        out.append(json.dumps(d, ensure_ascii=True))
    return out


def extract(src, text, tabs):
    sel = src["select"]
    if sel == "errjson":
        return errjson_lines(text)
    lines = [strip_comment(l.strip()) for l in join_continued(text)]
    if "start" in src:
        start = next((i for i, l in enumerate(lines) if re.search(src["start"], l)), None)
        if start is None:
            return []
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("}")), len(lines))
        lines = lines[start:end]
    if sel == "phrases":
        keys = [k for k, r in tabs.get("framework", {}).items() if r["source"] == src["id"]]
        return [l for l in lines if any(phrase_in(k, l) for k in keys)]
    if sel.startswith("re:"):
        rx = re.compile(sel[3:])
        out = []
        for i, l in enumerate(lines):
            if rx.search(l):
                while src.get("stmt") == "yes" and not l.endswith(";") and i + 1 < len(lines):
                    i += 1
                    l += " " + lines[i]
                out.append(re.sub(r"\s+", " ", l))
        return out
    fail("sources/%s.txt: unknown select '%s'" % (src["id"], sel))
    return []


def header_line(src, commit):
    keys = [k for k in ("id", "family", "role", "prefix", "names", "compose", "repo", "commit", "path",
                        "start", "stmt")
            if k in src]
    vals = dict(src, commit=commit)
    return "# vocab-source " + " ".join("%s=%s" % (k, vals[k]) for k in keys) + \
        " select=" + src["select"]


def fresh(vdir, root, srcs, tabs, update):
    for sid, s in sorted(srcs.items()):
        text, commit = repo_file(root, s["repo"], s["path"], s.get("commit"))
        if text is None:
            print("vocab-check: %s: %s:%s not under %s, skipped" % (sid, s["repo"], s["path"], root))
            continue
        lines = extract(s, text, tabs)
        if update:
            with open(os.path.join(vdir, "sources", sid + ".txt"), "w", encoding="ascii",
                      errors="backslashreplace") as f:
                f.write(header_line(s, commit) + "\n" + "".join(l + "\n" for l in lines))
            print("vocab-check: %s: %d lines from %s@%s" % (sid, len(lines), s["repo"], commit[:12]))
            continue
        f = dict(s, lines=lines)
        if commit != s["commit"]:
            print("vocab-check: %s: %s is at %s, the copy at %s" % (sid, s["repo"], commit[:12], s["commit"][:12]))
        if s["role"] == "codes":
            old, new = set(codes_of(s)), set(codes_of(f))
            for c in sorted(new - old):
                if c not in tabs.get(s["family"], {}):
                    fail("%s: code %s is new in %s:%s and has no row" % (s["family"], c, s["repo"], s["path"]))
            for c in sorted(old - new):
                print("vocab-check: %s: code %s is gone from %s:%s" % (s["family"], c, s["repo"], s["path"]))
        elif s["role"] == "phrases":
            for k, r in tabs.get("framework", {}).items():
                if r["source"] == sid and not any(phrase_in(k, l) for l in lines):
                    fail("framework: phrase '%s' is gone from %s:%s" % (k, s["repo"], s["path"]))
        elif lines != s["lines"]:
            print("vocab-check: %s: %s:%s changed (%d lines, the copy %d)" % (sid, s["repo"], s["path"], len(lines), len(s["lines"])))


def main(argv):
    vdir, root, update = "vocab", None, False
    while argv:
        a = argv.pop(0)
        if a == "--dir" and argv:
            vdir = argv.pop(0)
        elif a in ("--fetch", "--update") and argv:
            root, update = argv.pop(0), a == "--update"
        else:
            usage()
    srcs = load_sources(vdir)
    tabs = load_tables(vdir)
    if root:
        fresh(vdir, root, srcs, tabs, update)
        if update:
            return 0
    check_sources(srcs, tabs)
    nrow = sum(len(r) for r in tabs.values())
    if failures:
        print("vocab-check: %d problems in %s (%d rows, %d sources)" % (len(failures), vdir, nrow, len(srcs)),
              file=sys.stderr)
        return 1
    print("vocab-check: %s: %d rows in %d tables, %d sources, all codes covered"
          % (vdir, nrow, len(tabs), len(srcs)))
    return 0


sys.exit(main(sys.argv[1:]))
EOF
