#!/bin/sh
# tests/hostile/make-corpus.sh - regenerates the stored hostile log inputs
# of tests/hostile/logs/ (the scenarios under tests/hostile/scenarios/ and
# the symlinks under tests/hostile/links/ are written by hand).  Every file
# comes out the same on every run (fixed seeds, no timestamps).  The files
# are checked in; this script only documents how they were made.
#   usage: sh tests/hostile/make-corpus.sh [HANGDX]     (from the top dir)
set -eu
HANGDX=${1:-./hangdx}
D=tests/hostile/logs
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$D"

tarc() { # tarc DIR: a reproducible tar of DIR's contents on stdout
	(cd "$1" && tar --sort=name --mtime=@0 --owner=0 --group=0 \
		--numeric-owner -cf - -- *)
}

# the simulated reference incident: the "good" content inside archives
"$HANGDX" simulate -q --preset reference --no-trace -o "$W/ref" > /dev/null || :
test -d "$W/ref/rank-0"
rm -f "$W/ref/truth.json" "$W/ref/waitgraph.dot"

# one real error line (a notify wait timeout): diagnose says "hang"
ERR='[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21].'

# -- archives cut short or damaged --------------------------------------------
tarc "$W/ref" | gzip -n -9 > "$W/full.tar.gz"
n=$(wc -c < "$W/full.tar.gz")
head -c $((n * 6 / 10)) "$W/full.tar.gz" > "$D/truncated.tar.gz"
tarc "$W/ref" | zstd -q -19 > "$W/full.tar.zst"
n=$(wc -c < "$W/full.tar.zst")
head -c $((n * 6 / 10)) "$W/full.tar.zst" > "$D/truncated.tar.zst"
# a real zip whose second member's deflate data is overwritten halfway
python3 - "$W/ref" "$D/corrupt.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.path.relpath(os.path.join(d, f), src)
               for d, _, fs in os.walk(src) for f in fs)
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for n in names:
        zi = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(zi, open(os.path.join(src, n), "rb").read())
data = bytearray(open(dst, "rb").read())
with zipfile.ZipFile(dst) as z:
    zi = z.infolist()[1]
off = zi.header_offset + 30 + len(zi.filename.encode()) + len(zi.extra)
mid = off + zi.compress_size // 2
data[mid:mid + 64] = bytes((i * 37 + 11) & 0xff for i in range(64))
open(dst, "wb").write(bytes(data))
PY
printf 'PK\003\004this is no zip member header at all' > "$D/corrupt-header.zip"
printf '\037\213\010\000this is not deflate data at all' > "$D/corrupt.gz"

# -- decompression bombs (small on disk, ratio over the 1000:1 ceiling) --------
{ printf '%s\n' "$ERR"; head -c 100000000 /dev/zero | tr '\0' '\n'; } |
	gzip -n -9 > "$D/bomb.gz"
{ printf '%s\n' "$ERR"; yes | head -c 1000000000; } | zstd -q -19 > "$D/bomb.zst"
# a zip of the gzip bomb: the ratio of the inner stream trips
python3 - "$D/bomb.gz" "$D/bomb-in.zip" <<'PY'
import sys, zipfile
zi = zipfile.ZipInfo("logs/plog-1_1.log.gz", date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as z:
    z.writestr(zi, open(sys.argv[1], "rb").read())
PY

# -- archives nested four deep (the reader stops at three) ---------------------
mkdir -p "$W/n4" "$W/n3" "$W/n2" "$W/n1"
printf '%s\n' "$ERR" > "$W/n4/level4.log"
tarc "$W/n4" | gzip -n -9 > "$W/n3/l4.tar.gz"
printf '%s\n' "$ERR" > "$W/n3/level3.log"
tarc "$W/n3" | gzip -n -9 > "$W/n2/l3.tar.gz"
tarc "$W/n2" | gzip -n -9 > "$W/n1/l2.tar.gz"
tarc "$W/n1" > "$D/nested.tar"

# -- files that are not text, or odd text ------------------------------------
python3 - "$D" "$ERR" <<'PY'
import random, sys
d, err = sys.argv[1], sys.argv[2].encode()
r = random.Random(20261129)
open(d + "/binary.bin", "wb").write(bytes(r.getrandbits(8) for _ in range(65536)))
open(d + "/empty.log", "wb").close()
pre = b"[ERROR] HCCL(7,python3):2025-10-24-11:18:29.499.236 [t.cc:1][7]"
bad = [b"\xff\xfe", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80",
       b"\xf4\x90\x80\x80", b"\x80\x80", b"\xe4\xb8", b"\xf0\x9f\x98"]
with open(d + "/invalid-utf8.log", "wb") as f:
    for i, b in enumerate(bad):
        f.write(pre + b"Task run failed, base information is streamID:[%d], "
                b"taskID[%d], tag[Ab%s_%d].\n" % (i, i, b, i))
    f.write(err + b"\n")
# GBK: "通信超时" (communication timeout) and "错误" in GBK bytes
gbk = "通信超时，错误".encode("gbk")
with open(d + "/gbk.log", "wb") as f:
    f.write(pre + b"[" + gbk + b"] Task run failed, base information is "
            b"streamID:[3], taskID[7], tag[" + gbk + b"].\n")
    f.write(b"[INFO] HCCL(7," + gbk + b"):2025-10-24-11:18:29.499.237 [t.cc:1][7]" + gbk + b"\n")
    f.write(err + b"\n")
with open(d + "/nul.log", "wb") as f:
    f.write(pre + b"Task run \x00failed, base information is streamID:[3]\n")
    f.write(b"[INFO] HCCL(7,python3):2025-10-24-11:18:29.499.237 [t.cc:1][7]"
            b"padding after a crash\x00\x00\n")
    f.write(err + b"\n")
with open(d + "/crlf.log", "wb") as f:
    f.write(b"[INFO] HCCL(100,python3):2025-10-24-11:18:29.000.001 [a.cc:1] [100]start\r\n")
    f.write(err + b"\r\n")
    f.write(b"lone\rcarriage\rreturns\r\r\r\n")
with open(d + "/long-line.log", "wb") as f:
    f.write(pre + b"x" * 100000 + b"\n")
    f.write(err + b"\n")
# terminal escapes and markup in log text: reports must not pass them on
with open(d + "/escapes.log", "wb") as f:
    f.write(pre + b"Task run failed, base information is streamID:[3], "
            b"taskID[7], tag[\x1b]0;owned\x07\x1b[2J<script>alert(1)</script>].\n")
    f.write(err.replace(b"AllReduce_g1", b"\x1b[31mred\x1b[0m&amp;\"'") + b"\n")
# a file with no newline at all, only one long run of text
with open(d + "/no-newline.log", "wb") as f:
    f.write(err + b" " + b"y" * 5000)
PY
ls -l "$D"
