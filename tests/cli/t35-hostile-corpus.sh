#!/bin/sh
# t35-hostile-corpus.sh - the stored hostile corpus of tests/hostile/ (its
# README lists every input): each log input through `parse` and
# `diagnose`, each scenario through `simulate` and `check`.  Each run must
# end in its documented exit status (no crash: below 128; no hang: under a
# timeout), with a diagnostic naming the file (and line, where there is
# one), peak memory under the ceiling of docs/TESTING.md, valid output
# (UTF-8 JSON, text without control bytes), and output files (--html,
# --dot, -o, --witness, --promela) either written whole or left as they
# were, with no temporary file behind, and written in place when they are
# a device or a FIFO.  Generated here: unreadable files, links to a full
# device, a FIFO, and a scenario that needs more memory than it gets.
. tests/cli/lib.sh
HOST=$ROOT/tests/hostile
CEIL_KB=262144          # 256 MB: docs/TESTING.md
if t_wrapped; then TMO=900; else TMO=60; fi
asan=false
grep -qa __asan_init "${HANGDX_REAL:-$HANGDX}" && asan=true
# peak memory needs /usr/bin/time (a skip without it, a failure under CI)
# and no wrapper (whose memory it would measure: a skip)
rss_ok=true
{ t_wrapped || [ ! -x /usr/bin/time ]; } && rss_ok=false

# hx NAME ARG...: run hangdx ARG... under the timeout; stdout, stderr and
# peak RSS (kB) in $T/NAME.out, .err, .rss; exit status in $T/NAME.rc.
hx() {
	_name=$1
	shift
	if $rss_ok; then
		/usr/bin/time -f %M -o "$T/$_name.rss" timeout "$TMO" "$HANGDX" "$@" \
			> "$T/$_name.out" 2> "$T/$_name.err"
		echo $? > "$T/$_name.rc"
	else
		timeout "$TMO" "$HANGDX" "$@" > "$T/$_name.out" 2> "$T/$_name.err"
		echo $? > "$T/$_name.rc"
		echo 0 > "$T/$_name.rss"
	fi
}
rc() { cat "$T/$1.rc"; }
kb() { tail -1 "$T/$1.rss"; }

# t_status WANT DESC NAME: the run NAME ended with WANT
t_status() {
	if t_skipping; then t_skip "$2: exit $1"; return 0; fi
	_got=$(rc "$3")
	case $_got in
	124) _why=" (timed out after ${TMO}s)" ;;
	12[5-9]|1[3-9][0-9]|2[0-9][0-9]) _why=" (crashed: signal $((_got - 128)))" ;;
	*) _why="" ;;
	esac
	t_ok "$2: exit $1 (got $_got$_why)" test "$_got" -eq "$1"
}

t_rss() {
	if $rss_ok; then
		t_ok "$1: peak memory $(kb "$2") kB under $CEIL_KB kB" \
			test "$(kb "$2")" -lt "$CEIL_KB"
	elif t_wrapped; then
		t_skip "$1: peak memory" "under a wrapper"
	else
		t_missing "$1: peak memory" "/usr/bin/time not installed"
	fi
}

# utf8_json FILE [jsonl]: FILE is UTF-8 and one JSON value (or JSON Lines);
# clean_text FILE: FILE is UTF-8 without control bytes (C0 but newline,
# DEL, C1): what a report may hold, whatever the logs held
utf8_json() {
	python3 - "$@" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read().decode("utf-8")
if len(sys.argv) > 2:
    for line in data.splitlines():
        json.loads(line)
else:
    json.loads(data)
PY
}
clean_text() {
	python3 - "$1" <<'PY'
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
bad = [c for c in t if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0]
sys.exit(1 if bad else 0)
PY
}
# t_slow DESC CMD...: t_ok, but skipped under a wrapper (it inflates a bomb)
t_slow() {
	if t_wrapped; then
		t_skip "$1" "under a wrapper: 64 MiB inflated"
	else
		t_ok "$@"
	fi
}
no_temp() { # no_temp DIR: nothing half-written left in DIR
	test -z "$(find "$1" -name '*.tmp-*' -o -name '.*.tmp*' | head -1)"
}

# -- logs: FILE PARSE-EXIT DIAGNOSE-EXIT DIAGNOSTIC (an ERE, - for none) ------
# Paths are given relative to tests/hostile/logs, as a user would.
cd "$HOST/logs" || exit 1
while read -r f pexit dexit pat; do
	case $f in ''|'#'*) continue ;; esac
	# under valgrind a bomb takes seconds per run: it runs once there
	slow=false
	case $f in bomb*) t_wrapped && slow=true ;; esac
	if $slow; then
		t_skip_from "under a wrapper: the JSON run below only"
	else
		hx parse parse --json "$f"
		hx diag diagnose "$f"
	fi
	t_status "$pexit" "parse $f" parse
	t_status "$dexit" "diagnose $f" diag
	t_rss "diagnose $f" diag
	t_ok "$f: parse --json is UTF-8 JSON Lines" utf8_json "$T/parse.out" jsonl
	t_ok "$f: the text report has no control bytes" clean_text "$T/diag.out"
	if [ "$pat" != - ]; then
		t_ok "$f: parse names the file: $pat" sh -c \
			"grep -Eq \"\$1\" '$T/parse.err'" sh "$pat"
	fi
	t_skip_end
	# the reports: written whole (exit 0, 1) or the old ones kept (exit 3)
	echo old > "$T/r.html"
	echo old > "$T/r.dot"
	hx json diagnose --json --html "$T/r.html" --dot "$T/r.dot" "$f"
	t_status "$dexit" "diagnose --json --html --dot $f" json
	t_rss "diagnose --json --html --dot $f" json
	if [ "$pat" != - ]; then
		t_ok "$f: diagnose names the file: $pat" sh -c \
			"grep -Eq \"\$1\" '$T/json.err'" sh "$pat"
	fi
	if [ "$dexit" -eq 3 ] || [ "$dexit" -eq 4 ]; then
		t_ok "$f: failed run leaves --html and --dot as they were" sh -c \
			"test \"\$(cat '$T/r.html' '$T/r.dot')\" = \"\$(printf 'old\nold')\""
	else
		t_ok "$f: JSON report is UTF-8 JSON" utf8_json "$T/json.out"
		t_ok "$f: --html and --dot written whole" sh -c \
			"tail -1 '$T/r.html' | grep -qx '</html>' && tail -1 '$T/r.dot' | grep -qx '}'"
	fi
	t_ok "$f: no temporary file left" no_temp "$T"
done <<'EOF'
binary.bin          3 3 ^binary\.bin: warning: binary file skipped
bomb.gz             0 1 ^bomb\.gz: error: decompression ratio over 1000:1
bomb.zst            0 1 ^bomb\.zst: error: decompression ratio over 1000:1
bomb-in.zip         0 1 ^bomb-in\.zip!/logs/plog-1_1\.log\.gz: error: decompression ratio over 1000:1
corrupt.gz          3 3 ^corrupt\.gz: error: cannot read archive: gzip decompression failed
corrupt.zip         0 1 ^corrupt\.zip!/rank-0/ascend/log/debug/plog/plog-[0-9_]+\.log: error: read error: ZIP decompression failed
corrupt-header.zip  3 3 ^corrupt-header\.zip: error: truncated or corrupt archive: [a-z]
crlf.log            0 1 -
empty.log           0 1 ^empty\.log: note: empty file
escapes.log         0 1 -
gbk.log             0 1 -
invalid-utf8.log    0 1 -
long-line.log       0 1 ^long-line\.log:1: warning: line longer than 65536 bytes; line skipped
nested.tar          0 1 ^nested\.tar!/l2\.tar\.gz!/l3\.tar\.gz!/l4\.tar\.gz: warning: archive nested too deep; skipped
no-newline.log      0 1 -
nul.log             0 1 ^nul\.log:1: warning: NUL bytes in a log line; line skipped
truncated.tar.gz    0 1 ^truncated\.tar\.gz!/rank-1/ascend/log/debug/device-1/device-[0-9_]+\.log:[0-9]+: error: read error: truncated gzip input
truncated.tar.zst   0 1 ^truncated\.tar\.zst!/rank-0/ascend/log/debug/device-0/device-[0-9_]+\.log:[0-9]+: error: read error: Truncated zstd input
EOF

# what the odd inputs still say
t_ok "corrupt-header.zip: said and counted once" sh -c \
	"$HANGDX parse corrupt-header.zip 2>&1 | grep -q 'skipped 0 lines, 1 files (truncated 1)'"
t_slow "bomb.gz: the line before the bomb is read" sh -c \
	"$HANGDX parse bomb.gz 2>/dev/null | grep -q '^bomb.gz:1: hccl_task_fail '"
t_ok "bomb.gz: a smaller --max-member trips the size ceiling instead" sh -c \
	"$HANGDX parse --max-member 8M bomb.gz 2>&1 >/dev/null | grep -q '^bomb.gz: error: uncompressed size over the ceiling of 8388608 bytes'"
t_ok "nested.tar: the log three archives deep is read" sh -c \
	"$HANGDX parse nested.tar 2>/dev/null | grep -q '^nested.tar!/l2.tar.gz!/l3.tar.gz!/level3.log:1: '"
t_ok "crlf.log: no carriage return reaches the evidence" sh -c \
	"$HANGDX parse --json crlf.log 2>/dev/null | grep -c 'Notify Wait' | grep -qx 1 && ! $HANGDX parse crlf.log | grep -q \"\$(printf '\r')\""
t_ok "gbk.log: GBK bytes become U+FFFD in the evidence" sh -c \
	"$HANGDX parse --json gbk.log | grep -q '\\\\ufffd'"
t_ok "invalid-utf8.log: the JSON report replaces them too" sh -c \
	"$HANGDX diagnose --json invalid-utf8.log | grep -q 'Ab\\\\ufffd'"
t_ok "escapes.log: no escape in the HTML or DOT" sh -c \
	"$HANGDX diagnose --html $T/e.html --dot $T/e.dot escapes.log >/dev/null; test -s $T/e.html && test -s $T/e.dot && ! grep -q \"\$(printf '\033')\" $T/e.html $T/e.dot && ! grep -q '<script>alert' $T/e.html"

# all of them at once (and the links): one verdict, reading went on
cd "$HOST" || exit 1
if t_wrapped; then
	t_skip_from "under a wrapper: each was run alone"
else
	hx all diagnose --json logs links
fi
t_status 1 "diagnose logs/ links/ at once" all
t_ok "all at once: the reference deadlock is still found" \
	grep -q '"category": "aicpu_exhaustion_deadlock"' "$T/all.out"
t_rss "diagnose logs/ links/ at once" all
t_skip_end

# -- symlinks: a loop, a link to itself, a dangling link ---------------------
hx links parse links
t_status 0 "parse links/" links
t_ok "links: the loop is named" grep -q '^links/rank-0/up: warning: symlink loop' "$T/links.err"
t_ok "links: the link to itself is named" \
	grep -q '^links/self: warning: cannot stat: Too many levels of symbolic links' "$T/links.err"
t_ok "links: the dangling link is named" \
	grep -q '^links/dangling: warning: cannot stat: No such file or directory' "$T/links.err"
t_ok "links: the log is read once" sh -c \
	"grep -c ' hccl_task_fail ' '$T/links.out' | grep -qx 1"

# -- unreadable files (generated: git keeps no permissions or /proc) ---------
cd "$T" || exit 1
cp "$HOST/logs/crlf.log" good.log
hx mem parse /proc/self/mem
t_status 3 "a file that cannot be read (/proc/self/mem)" mem
t_ok "/proc/self/mem: diagnosed" \
	grep -q '^/proc/self/mem: error: cannot read: Input/output error' "$T/mem.err"
mkdir -m 755 pub && cp good.log pub/good.log && cp good.log pub/locked.log
chmod 000 pub/locked.log
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
got=""
if ! t_skipping; then
	as_user "$HANGDX" parse pub > locked.out 2> locked.err
	got=$?
fi
t_ok "unreadable file: the rest is read${got:+ (exit $got)}" test "$got" -eq 0
t_ok "unreadable file: diagnosed" grep -q '^pub/locked.log: error: cannot open: Permission denied' locked.err
t_skip_end

# -- outputs that are not regular files: written in place, never replaced ----
# (through links in $T, so that a replacement would only replace the link)
cd "$T" || exit 1
ln -s /dev/full full.dot
ln -s /dev/full full.yaml
hx full diagnose --dot full.dot "$HOST/logs/crlf.log"
t_status 4 "--dot to a full device" full
t_ok "--dot to a full device: said with the path" \
	grep -q '^hangdx diagnose: cannot write full.dot: No space left on device' "$T/full.err"
t_ok "--dot to a full device: the link still points at the device" \
	sh -c "test -L full.dot && test -c full.dot"
hx fullw check -q "$HOST/scenarios/cycle-notify.yaml" --witness full.yaml
t_status 4 "check --witness to a full device" fullw
t_ok "check --witness to a full device: the link still points at the device" \
	sh -c "test -L full.yaml && test -c full.yaml"
if mkfifo pipe.dot 2> /dev/null; then
	timeout "$TMO" cat pipe.dot > pipe.out &
	hx pipe diagnose --dot pipe.dot "$HOST/logs/truncated.tar.gz"
	wait
else
	t_missing_from "mkfifo not available"
fi
t_status 1 "--dot into a FIFO" pipe
t_ok "--dot into a FIFO: the graph came through, the FIFO is still one" \
	sh -c "tail -1 pipe.out | grep -qx '}' && test -p pipe.dot"
t_skip_end

# -- scenarios: FILE SIMULATE-EXIT CHECK-EXIT DIAGNOSTIC (ERE, - none) --------
cd "$HOST/scenarios" || exit 1
mkdir -p "$T/keep" && echo old > "$T/keep/sentinel"
while read -r f sexit cexit pat; do
	case $f in ''|'#'*) continue ;; esac
	rm -rf "$T/simout"
	hx sim simulate -q "$f" -o "$T/simout"
	t_status "$sexit" "simulate $f" sim
	hx keep simulate -q "$f" -o "$T/keep"
	echo old > "$T/w.yaml"
	echo old > "$T/p.pml"
	hx chk check -q "$f" --witness "$T/w.yaml" --promela "$T/p.pml"
	t_status "$cexit" "check $f" chk
	if [ "$pat" != - ]; then
		t_ok "$f: diagnostic names file:line:col: $pat" sh -c \
			"grep -Eq \"\$1\" '$T/sim.err'" sh "$pat"
		[ "$cexit" -eq 3 ] && t_ok "$f: check says the same" sh -c \
			"grep -Eq \"\$1\" '$T/chk.err'" sh "$pat"
	fi
	t_rss "simulate $f" sim
	t_rss "check $f" chk
	if [ "$sexit" -ge 3 ]; then
		t_ok "$f: a failed run makes no -o directory" test ! -e "$T/simout"
	else
		t_ok "$f: -o written whole" test -s "$T/simout/truth.json"
	fi
	t_ok "$f: an existing -o directory is left alone" sh -c \
		"test \"\$(ls -A '$T/keep')\" = sentinel && grep -qx old '$T/keep/sentinel'"
	if [ "$cexit" -ge 3 ]; then
		t_ok "$f: failed check leaves --witness and --promela as they were" sh -c \
			"grep -qx old '$T/w.yaml' && grep -qx old '$T/p.pml'"
	fi
	t_ok "$f: nothing half-written" sh -c \
		"test -z \"\$(ls -A '$T' | grep -i 'tmp')\""
done <<'EOF'
absurd-repeat.yaml     3 3 ^absurd-repeat\.yaml:5:14: error: repeat makes the program longer than 1000000 steps
absurd-sizes.yaml      3 3 ^absurd-sizes\.yaml:2:10: error: bad value '1048577' for 'ranks'
alias-key.yaml         3 3 ^alias-key\.yaml:2:8: error: YAML aliases \(\*c\) are not supported
billion-laughs.yaml    3 3 ^billion-laughs\.yaml:3:10: error: YAML aliases \(\*a0\) are not supported
binary.yaml            3 3 ^binary\.yaml:1:[0-9]+: error: YAML: 
cycle-behind-chain.yaml 1 1 -
cycle-notify.yaml      1 1 -
cycle-p2p.yaml         1 1 -
deep-mapping.yaml      3 3 ^deep-mapping\.yaml:65:65: error: nesting deeper than 64 levels
deep-nesting.yaml      3 3 ^deep-nesting\.yaml:1:[0-9]+: error: nesting deeper than 64 levels
duplicate-keys.yaml    3 3 ^duplicate-keys\.yaml:4:1: error: duplicate key 'cluster'
empty.yaml             3 3 ^empty\.yaml:1:1: error: the scenario is empty
invalid-utf8.yaml      3 3 ^invalid-utf8\.yaml:1:[0-9]+: error: YAML: invalid
long-name.yaml         3 3 ^long-name\.yaml:1:7: error: bad name
missing-refs.yaml      3 3 ^missing-refs\.yaml:5:16: error: rank 7 is out of range
multi-doc.yaml         3 3 ^multi-doc\.yaml:2:1: error: a scenario is one YAML document
negative.yaml          3 3 ^negative\.yaml:2:10: error: bad value '-2' for 'ranks'
nul.yaml               3 3 ^nul\.yaml:1:[0-9]+: error: YAML: control characters are not allowed
ranks-1e12.yaml        3 3 ^ranks-1e12\.yaml:2:10: error: bad value '1000000000000' for 'ranks'
ranks-overflow.yaml    3 3 ^ranks-overflow\.yaml:2:10: error: bad value
schedule-missing.yaml  3 0 ^schedule-missing\.yaml:12:9: error: schedule: no communicator 'c9'
sq-depth-0.yaml        3 3 ^sq-depth-0\.yaml:3:13: error: bad value '0' for 'sq_depth'
tabs.yaml              3 3 ^tabs\.yaml:2:1: error: YAML: found character that cannot start any token
wrong-types.yaml       3 3 ^wrong-types\.yaml:2:10: error: cluster must be a mapping
EOF

# every problem is reported, not only the first
t_ok "missing-refs.yaml: all nine missing references reported" sh -c \
	"$HANGDX simulate missing-refs.yaml 2>&1 | grep -c '^missing-refs.yaml:[0-9]*:[0-9]*: error: ' | grep -qx 9"
t_ok "cycle-notify.yaml: the simulator names the cycle" sh -c \
	"$HANGDX simulate cycle-notify.yaml | grep -q '^cycle '"
t_ok "cycle-behind-chain.yaml: the simulator proves the deadlock" sh -c \
	"$HANGDX simulate cycle-behind-chain.yaml | grep -q '^outcome    deadlock'"
t_ok "cycle-behind-chain.yaml: so does the checker" sh -c \
	"$HANGDX check cycle-behind-chain.yaml | grep -q '^verdict    deadlock'"
t_ok "cycle-notify.yaml: the checker's witness replays into the deadlock" sh -c \
	"$HANGDX check -q cycle-notify.yaml --witness $T/cw.yaml >/dev/null; $HANGDX simulate -q $T/cw.yaml; test \$? -eq 1"

# a scenario within every ceiling that needs more memory than it gets:
# out of memory, exit 4, nothing written (not under ASan or a wrapper,
# which need the address space)
cat > "$T/huge.yaml" <<'EOF'
cluster: {ranks: 65536}
communicators:
  - name: c
    count: 4096
program:
  - allreduce: {stream: s, comm: c}
EOF
src="" crc=""
if $asan || t_wrapped; then
	t_skip_from "under ASan or a wrapper (they need the address space)"
elif ! (ulimit -v 1000000) 2> /dev/null; then
	t_skip_from "the shell cannot set ulimit -v"
else
	rm -rf "$T/simout"
	(ulimit -v 1000000 && exec timeout "$TMO" "$HANGDX" simulate -q "$T/huge.yaml" -o "$T/simout") \
		> "$T/huge.out" 2> "$T/huge.err"
	src=$?
	cp "$T/huge.err" "$T/huge-sim.err"
	(ulimit -v 1000000 && exec timeout "$TMO" "$HANGDX" check -q "$T/huge.yaml") \
		> "$T/huge.out" 2> "$T/huge.err"
	crc=$?
fi
t_ok "65536 ranks x 4096 communicators in 1 GB: simulate exits 4${src:+ (got $src)}" test "$src" -eq 4
t_ok "65536 ranks x 4096 communicators: out of memory said, no -o left" sh -c \
	"grep -q 'out of memory' '$T/huge-sim.err' && test ! -e '$T/simout'"
t_ok "65536 ranks x 4096 communicators in 1 GB: check exits 4${crc:+ (got $crc)}" test "$crc" -eq 4
t_skip_end
t_done
