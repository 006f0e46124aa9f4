#!/bin/sh
# t30-parse.sh - golden tests of `hangdx parse --json`: every sample of
# tests/data/samples and every raw-log case of the ascend-fd peer fixtures
# (tests/data/peer/ascend-fd)
# gives exactly the evidence in tests/golden/parse/<name>.jsonl (reviewed
# by hand against log-formats.md; regenerate with scripts/regen-golden.sh
# only after a deliberate change).  Also: text view, exit codes, usage.
. tests/cli/lib.sh
G=tests/golden/parse
export HANGDX

while read -r kind arg; do
	case $kind in ''|'#'*) continue ;; esac
	name=$(sh $G/name.sh "$kind" "$arg")
	sh $G/run-case.sh "$kind" "$arg" > "$T/$name.jsonl"
	t_golden "parse --json $arg" "$G/$name.jsonl" "$T/$name.jsonl"
done < $G/cases.txt

# every JSON line is one object, and records come before summaries
t_ok "golden output is JSON Lines" python3 -c '
import json, sys, glob
for f in glob.glob(sys.argv[1] + "/*.jsonl"):
    kinds = [json.loads(l)["kind"] for l in open(f)]
    assert kinds and kinds[-1] == "totals", f
' "$G"

S=$DATA/samples
t_ok "text view names file:line" sh -c \
	"cd '$S' && '$HANGDX' parse 07-mindspore-ei0002-notify-wait-heartbeat-lost.log | grep -q '^07-mindspore-ei0002-notify-wait-heartbeat-lost.log:5: ei0002 '"
t_ok "stdin is read with -" sh -c \
	"'$HANGDX' parse --json - < '$S/10-mindcluster-rc122-4rank-notify-wait-chain.log' | grep -c '\"kind\":\"hccl_task_fail\"' | grep -qx 4"
t_ok "one thread and two give the same output" sh -c \
	"cd '$DATA/peer/ascend-fd' && '$HANGDX' parse --json --threads 1 rc_diag st_testcase > '$T/one' 2>/dev/null &&
	 '$HANGDX' parse --json --threads 2 rc_diag st_testcase > '$T/two' 2>/dev/null && cmp '$T/one' '$T/two'"
t_ok "--summary prints no records" sh -c \
	"cd '$S' && '$HANGDX' parse --json --summary 01-hccl-doc-ei0002-op-mismatch-allreduce-vs-allgather.log | grep -v '\"kind\":\"hccl_task_fail\"' | grep -q totals"
P=$DATA/peer/ascend-fd
t_ok "evidence shipped from two machines merges to the same output" sh -c "
	cd '$P' && '$HANGDX' parse --json st_aicpu_notify_testcase/worker-0 > '$T/w0.jsonl' 2>/dev/null &&
	'$HANGDX' parse --json st_aicpu_notify_testcase/worker-1 > '$T/w1.jsonl' 2>/dev/null &&
	'$HANGDX' parse --json --evidence '$T/w0.jsonl' --evidence '$T/w1.jsonl' > '$T/both.jsonl' 2>/dev/null &&
	'$HANGDX' parse --json st_aicpu_notify_testcase/worker-0 st_aicpu_notify_testcase/worker-1 > '$T/direct.jsonl' 2>/dev/null &&
	cmp '$T/both.jsonl' '$T/direct.jsonl'"
t_ok "evidence read back prints the same bytes" sh -c \
	"'$HANGDX' parse --json --evidence $G/peer-st_testcase.jsonl | cmp - $G/peer-st_testcase.jsonl"
# saved evidence edited by other tools: JSON escapes (\uXXXX, \t, \", \/)
# are read as what they stand for; a malformed \u escape skips its line
python3 - "$G/01-hccl-doc-ei0002-op-mismatch-allreduce-vs-allgather.jsonl" "$T" <<'EOF'
import sys
l = open(sys.argv[1]).readline()
def put(n, v):
    open(sys.argv[2] + "/" + n, "w").write(
        l.replace('"pname":"all_reduce_test"', '"pname":"%s"' % v))
put("esc.jsonl", r'caf\u00e9_\u4e2d\t\"x\/')
put("esc-bad.jsonl", r'caf\u00zz')
open(sys.argv[2] + "/esc.want", "w").write('"pname":"caf\u00e9_\u4e2d' + r'\u0009\"x/"' + "\n")
EOF
t_ok "evidence: u, t, quote and slash escapes read as what they stand for" sh -c \
	"'$HANGDX' parse --json --evidence '$T/esc.jsonl' | grep -qF -f '$T/esc.want'"
t_ok "evidence: a malformed u escape: the line skipped, said" sh -c \
	"'$HANGDX' parse --json --evidence '$T/esc-bad.jsonl' 2>&1 | grep -q 'esc-bad.jsonl:1: warning: .*line skipped'"
# a log compressed by bzip2, xz or lz4 (their magic bytes, read through
# libarchive's filters) gives the records of the plain log
recs() { # recs FILE: its records, without the file's name and summaries
	"$HANGDX" parse --json "$1" 2>/dev/null |
		grep -v '"kind":"\(totals\|file\|process\)"' | sed 's/"\(last_\)*file":"[^"]*",//'
}
cp "$S/10-mindcluster-rc122-4rank-notify-wait-chain.log" "$T/z.log"
recs "$T/z.log" > "$T/z.plain"
for z in bzip2 xz lz4; do
	if command -v $z > /dev/null 2>&1; then
		$z -c "$T/z.log" > "$T/z.log.$z"
		recs "$T/z.log.$z" > "$T/z.$z"
		t_ok "$z: the records of the plain log" sh -c \
			"test -s '$T/z.plain' && cmp '$T/z.$z' '$T/z.plain'"
	else
		t_missing "$z: the records of the plain log" "$z not installed"
	fi
done
printf 'not json\n{"kind":"nope"}\n' > "$T/bad.jsonl"
t_exit 3 "malformed evidence: exit 3, diagnosed" "$HANGDX" parse --evidence "$T/bad.jsonl"
t_exit 3 "exit 3 when no input can be read" "$HANGDX" parse "$T/does-not-exist"
t_exit 2 "exit 2 without a path" "$HANGDX" parse
t_exit 2 "exit 2 on a bad option value" "$HANGDX" parse --max-line 0 "$S"
t_ok "help lists the options" sh -c "'$HANGDX' help parse | grep -q -- --max-ratio"

# UTF-16 with its byte-order mark (a console saved by Windows PowerShell),
# little- and big-endian, CRLF, past one read (1 MiB), with characters
# outside the BMP and a lone surrogate: the records of the UTF-8 text;
# without the mark it is no text (a binary file, said, exit 3)
python3 - "$DATA/samples/field/35-llamafactory-5551-ee1002-stream-sync-timeout-tokenizer.log" "$T" <<'PY'
import sys
src = open(sys.argv[1], encoding="utf-8").read()
fill = "".join("[INFO] HCCL(1,python):2025-03-26-13:49:01.000.000 [a.cc:1] line %d \u4e2d \U0001F600\n" % i
               for i in range(30000))
txt = fill + src
open(sys.argv[2] + "/u8.log", "w", encoding="utf-8").write(txt)
open(sys.argv[2] + "/le.log", "wb").write(b"\xff\xfe" + txt.replace("\n", "\r\n").encode("utf-16le"))
open(sys.argv[2] + "/be.log", "wb").write(b"\xfe\xff" + txt.encode("utf-16be"))
open(sys.argv[2] + "/nobom.log", "wb").write(txt.encode("utf-16le"))
mix = src + fill[:300000] + src
open(sys.argv[2] + "/mix8.log", "w", encoding="utf-8").write(mix)
open(sys.argv[2] + "/mixle.log", "wb").write(b"\xff\xfe" + mix.encode("utf-16le"))
lone = "EE9999: Inner Error! \ud800x\n"
open(sys.argv[2] + "/lone8.log", "w", encoding="utf-8").write(lone.replace("\ud800", "\ufffd"))
open(sys.argv[2] + "/lone.log", "wb").write(b"\xff\xfe" + lone.encode("utf-16le", "surrogatepass"))
PY
for f in u8 le be lone8 lone; do
	"$HANGDX" parse "$T/$f.log" 2>/dev/null | sed "s|^$T/$f.log||" > "$T/$f.txt"
done
t_ok "UTF-16LE with its mark, CRLF: the records of the UTF-8 text" cmp -s "$T/u8.txt" "$T/le.txt"
t_ok "UTF-16BE with its mark: the records of the UTF-8 text" cmp -s "$T/u8.txt" "$T/be.txt"
t_ok "a lone surrogate is U+FFFD" cmp -s "$T/lone8.txt" "$T/lone.txt"
# through a pipe written 4,097 bytes at a time, a pause between: reads
# that end inside a code unit
python3 -c '
import sys, time
d = open(sys.argv[1], "rb").read()
for i in range(0, len(d), 4097):
    sys.stdout.buffer.write(d[i:i + 4097])
    sys.stdout.buffer.flush()
    time.sleep(0.002)
' "$T/mixle.log" | "$HANGDX" parse - 2>/dev/null | sed 's|^[^:]*:||' > "$T/pipe.txt"
"$HANGDX" parse "$T/mix8.log" 2>/dev/null | sed 's|^[^:]*:||' > "$T/u8b.txt"
t_ok "the pipe's records are there" grep -q 'err_code' "$T/pipe.txt"
t_ok "UTF-16 read through a pipe in odd pieces: the same records" cmp -s "$T/u8b.txt" "$T/pipe.txt"
t_ok "the records are there" grep -q 'err_code' "$T/u8.txt"
t_exit 3 "UTF-16 without its mark: no text, exit 3" "$HANGDX" diagnose "$T/nobom.log"
t_done
