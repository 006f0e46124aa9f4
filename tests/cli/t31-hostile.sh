#!/bin/sh
# t31-hostile.sh - bad input never crashes, hangs or exhausts memory:
# truncated and corrupt archives, binary files, a 200 MB line, invalid
# UTF-8 and GBK, CRLF, NUL bytes, empty and unreadable files,
# decompression bombs (size and ratio ceilings), symlink loops.  Each gets
# a diagnostic with the file (and line), reading goes on with the other
# inputs, and a summary on stderr counts what was skipped.  Every input is
# generated here, in $T; the whole script takes well under a minute.
. tests/cli/lib.sh
S=$DATA/samples
GOOD=10-mindcluster-rc122-4rank-notify-wait-chain.log
cp "$S/$GOOD" "$T/good.log"
cd "$T" || exit 1

# t_run CODE DESC NAME CMD...: CMD must exit with CODE; its stdout and
# stderr are kept in NAME.out and NAME.err for the checks that follow.
t_run() {
	_want=$1
	_desc=$2
	_name=$3
	shift 3
	if t_skipping; then t_ok "$_desc" true; return 0; fi
	"$@" > "$_name.out" 2> "$_name.err"
	_got=$?
	t_ok "$_desc (exit $_got, want $_want)" test "$_got" -eq "$_want"
}

# the evidence of good.log must survive next to any hostile input
good_survives() {
	grep -c '"kind":"hccl_task_fail","file":"good.log"' "$1" | grep -qx 4
}

# -- archives -------------------------------------------------------------
mkdir -p tree/rank-0/plog
for i in 1 2 3 4 5 6 7 8; do cat "$S"/*.log; done > tree/rank-0/plog/plog-1_1.log
python3 -c 'import random, sys
r = random.Random(1)
sys.stdout.write("".join("[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.000 [a.cc:1] 1 %x\n" % r.getrandbits(200) for _ in range(40000)))' > tree/rank-0/plog/plog-2_1.log
tar czf full.tar.gz tree
size=$(wc -c < full.tar.gz)
head -c $((size / 2)) full.tar.gz > cut.tar.gz
t_run 0 "truncated .tar.gz: what precedes the cut is read" cut \
	"$HANGDX" parse --json cut.tar.gz good.log
t_ok "truncated .tar.gz: diagnosed with the member name" \
	grep -q "cut.tar.gz!/tree/rank-0/plog/plog-2_1.log.*\(read error\|truncated\)" cut.err
"$HANGDX" parse --json cut.tar.gz good.log > cut.json 2>/dev/null
t_ok "truncated .tar.gz: other inputs still read" good_survives cut.json

printf '\037\213\010\000this is not deflate data at all' > corrupt.gz
t_run 3 "corrupt .gz alone" corrupt "$HANGDX" parse corrupt.gz
t_ok "corrupt .gz: error names the file" grep -q "^corrupt.gz: error: " corrupt.err
"$HANGDX" parse --json corrupt.gz good.log > c.json 2>/dev/null
t_ok "corrupt .gz: other inputs still read" good_survives c.json

printf 'PK\003\004garbage' > corrupt.zip
t_run 3 "corrupt .zip: no crash" zip "$HANGDX" parse corrupt.zip

# -- binary, empty, unreadable ---------------------------------------------
head -c 200000 /dev/urandom > random.bin
t_run 3 "binary file alone" bin "$HANGDX" parse random.bin
t_ok "binary file: diagnosed" grep -q "^random.bin: warning: binary file skipped" bin.err
: > empty.log
t_run 0 "empty file: read" empty "$HANGDX" parse empty.log
t_ok "empty file: noted" grep -q "^empty.log: note: empty file" empty.err
# as root, chmod 000 does not block reading: hangdx runs as user nobody
# (setpriv), which must be able to reach $T and the binary
cp good.log locked.log && chmod 000 locked.log
chmod 711 "$T"
if [ "$(id -u)" -ne 0 ]; then
	as_user() { "$@"; }
elif t_wrapped; then
	t_skip_from "as root under a wrapper (its reports are root's)"
elif ! command -v setpriv > /dev/null 2>&1; then
	t_missing_from "as root, and setpriv (util-linux) not installed"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "${HANGDX_REAL:-$HANGDX}"; then
	t_skip_from "as root, and user nobody cannot run ${HANGDX_REAL:-$HANGDX}"
else
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
fi
t_run 0 "unreadable file: the others are read" locked as_user "$HANGDX" parse locked.log good.log
t_ok "unreadable file: diagnosed" grep -q "^locked.log: error: cannot open" locked.err
t_skip_end
t_run 3 "missing file" missing "$HANGDX" parse no-such-file.log

# -- lines ------------------------------------------------------------------
# a 200 MB line, streamed through stdin: never buffered whole
{ printf '[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1] [1]'
  head -c 200000000 /dev/zero | tr '\0' x
  printf '\n'
  cat good.log; } > /dev/null 2>&1   # warm the pipe tools
if t_wrapped; then     # under valgrind: its memory, not hangdx's
	{ printf '[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1] [1]'
	  head -c 200000000 /dev/zero | tr '\0' x
	  printf '\n'
	  cat good.log; } | "$HANGDX" parse --json - > long.json 2> long.err
	t_skip "200 MB line: max RSS" "under a wrapper"
elif [ -x /usr/bin/time ]; then
	{ printf '[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1] [1]'
	  head -c 200000000 /dev/zero | tr '\0' x
	  printf '\n'
	  cat good.log; } | /usr/bin/time -v "$HANGDX" parse --json - > long.json 2> long.err
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' long.err)
	t_ok "200 MB line: max RSS ${rss} KiB stays under 64 MiB" test "${rss:-999999}" -lt 65536
else
	{ printf '[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [a.cc:1] [1]'
	  head -c 200000000 /dev/zero | tr '\0' x
	  printf '\n'
	  cat good.log; } | (ulimit -v 200000; "$HANGDX" parse --json -) > long.json 2> long.err
	t_ok "200 MB line: read under a 200 MB address-space limit" test -s long.json
fi
t_ok "200 MB line: skipped with file:line" grep -q "^-:1: warning: line longer than 65536 bytes" long.err
t_ok "200 MB line: the lines after it are read" sh -c "grep -c '\"kind\":\"hccl_task_fail\",\"file\":\"-\",\"line\":' long.json | grep -qx 4"
t_ok "200 MB line: summary counts it" grep -q "skipped 1 lines.*too_long 1" long.err

printf '[ERROR] HCCL(1,p\262\342):2024-04-08-02:55:04.903.511 [t.cc:1][1]Task run failed, base information is streamID:[3], taskID[7], tag[Ab\262\342\312\324_\377\376].\n' > gbk.log
"$HANGDX" parse --json gbk.log > gbk.json 2>&1
t_ok "GBK and invalid UTF-8: output is valid JSON" python3 -c '
import json, sys
for l in open(sys.argv[1], "rb"):
    l.decode("utf-8")
    json.loads(l)' gbk.json
t_ok "GBK and invalid UTF-8: bytes become U+FFFD" grep -q 'Ab\\ufffd\\ufffd\\ufffd\\ufffd_\\ufffd\\ufffd' gbk.json
# the diagnosis spells U+FFFD one way, whether the log held a byte that
# is not UTF-8 or U+FFFD itself (as evidence read back from JSON Lines
# does): the same report
mkdir -p ufa ufb
printf '[ERROR] HCCL(1,p):2024-04-08-02:55:04.903.511 [t.cc:1][1]Task run failed, base information is streamID:[3], taskID[7], tag[Ab\377_x].\n' > ufa/x.log
printf '[ERROR] HCCL(1,p):2024-04-08-02:55:04.903.511 [t.cc:1][1]Task run failed, base information is streamID:[3], taskID[7], tag[Ab\357\277\275_x].\n' > ufb/x.log
(cd ufa && "$HANGDX" diagnose --json x.log > ../ufa.json 2>/dev/null)
(cd ufb && "$HANGDX" diagnose --json x.log > ../ufb.json 2>/dev/null)
t_ok "an invalid byte and U+FFFD: the same JSON report, written \\ufffd" sh -c \
	'grep -q "Ab\\\\ufffd" ufa.json && cmp -s ufa.json ufb.json'

sed 's/$/\r/' good.log > crlf.log
"$HANGDX" parse --json good.log > lf.json 2>/dev/null
"$HANGDX" parse --json crlf.log > crlf.json 2>/dev/null
t_ok "CRLF: same evidence as LF" python3 -c '
import json, sys
def recs(f):
    out = []
    for l in open(f):
        d = json.loads(l)
        if d["kind"] in ("file", "totals"):
            continue
        for k in ("file", "off", "last_file", "first_error_file"):
            d.pop(k, None)
        out.append(d)
    return out
assert recs(sys.argv[1]) == recs(sys.argv[2])' lf.json crlf.json

printf '[ERROR] HCCL(1,p):2024-04-08-02:55:04.903.511 [t.cc:1][1]Task run \000failed, base information is streamID:[3]\n' > nul.log
cat good.log >> nul.log
t_run 0 "NUL bytes: read" nul "$HANGDX" parse nul.log
t_ok "NUL bytes: diagnosed at file:line" grep -q "^nul.log:1: warning: NUL bytes in a log line; line skipped" nul.err

# -- decompression bombs -----------------------------------------------------
yes 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | head -c 1000000000 | gzip -1 > bomb.gz
t_run 0 "gzip bomb: read up to the size ceiling" gzbomb "$HANGDX" parse --max-member 64M bomb.gz good.log
t_ok "gzip bomb: size ceiling diagnosed" grep -q "^bomb.gz: error: uncompressed size over the ceiling of 67108864 bytes" gzbomb.err
yes | head -c 1000000000 | zstd -q -1 > bomb.zst
t_run 0 "zstd bomb: read up to the ratio ceiling" zbomb "$HANGDX" parse --max-ratio 1000 bomb.zst
t_ok "zstd bomb: ratio ceiling diagnosed" grep -q "^bomb.zst: error: decompression ratio over 1000:1" zbomb.err
head -c 1000000000 /dev/zero | gzip -1 > zeros.gz
t_run 3 "gzip of zeros: no file in it, nothing inflated" zeros "$HANGDX" parse zeros.gz

# -- directories ---------------------------------------------------------------
mkdir -p loop/rank-1 && cp good.log loop/rank-1/plog-69395_1.log
ln -s .. loop/rank-1/up
ln -s nowhere loop/dangling
t_run 0 "symlink loop: read" loop "$HANGDX" parse loop
t_ok "symlink loop: diagnosed" grep -q "^loop/rank-1/up: warning: symlink loop" loop.err
t_ok "dangling symlink: diagnosed" grep -q "^loop/dangling: warning: cannot stat" loop.err

# everything at once: reading goes on, and the summary says why
mkdir all && cp cut.tar.gz corrupt.gz random.bin empty.log nul.log gbk.log good.log all/
"$HANGDX" parse --json all > all.json 2> all.err
t_ok "all at once: good.log still fully read" sh -c \
	"grep -c '\"kind\":\"hccl_task_fail\",\"file\":\"all/good.log\"' all.json | grep -qx 4"
t_ok "all at once: summary of skips on stderr" grep -q "skipped 1 lines, 2 files (nul_bytes 1, binary_file 1, truncated 2)" all.err
t_done
