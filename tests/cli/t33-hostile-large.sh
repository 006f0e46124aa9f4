#!/bin/sh
# t33-hostile-large.sh - the large hostile inputs: a 1 GB line and a
# directory of 100,000 tiny files.  Each ends in a diagnostic or a clean
# verdict, a documented exit code, and peak memory under the ceiling of
# docs/TESTING.md (256 MB for diagnose), with no output left half-written.
. tests/cli/lib.sh
CEIL_KB=262144
# rss CMD...: run CMD, print its peak RSS in kB (exit status in $T/rc);
# without /usr/bin/time CMD still runs and the memory checks are skips
# (t_missing: failures under CI)
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=""
rss() {
	if [ -n "$TIME" ]; then
		"$TIME" -f "%M" -o "$T/rss" "$@" > "$T/out" 2> "$T/err"
		echo $? > "$T/rc"
		tail -1 "$T/rss"
	else
		"$@" > "$T/out" 2> "$T/err"
		echo $? > "$T/rc"
	fi
}
t_rss() { # t_rss DESC KB: KB under the ceiling
	if [ -z "$TIME" ]; then
		t_missing "$1" "/usr/bin/time not installed"
	else
		t_ok "$1 ($2 kB)" test "$2" -lt "$CEIL_KB"
	fi
}

# a 1 GB line, then one real error line (needs the disk space: else SKIP)
free_kb=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
kb=""
if [ "${free_kb:-0}" -lt 4194304 ]; then
	t_skip_from "less than 4 GB free for the test file"
else
	head -c 1073741824 /dev/zero | tr '\0' 'a' > "$T/huge.log"
	printf '\n[ERROR] HCCL(100,python3):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[21].\n' >> "$T/huge.log"
	kb=$(rss $HANGDX diagnose --json "$T/huge.log")
	rm -f "$T/huge.log"
fi
t_rss "1 GB line: read in bounded memory" "$kb"
t_ok "1 GB line: diagnosed (exit 1) from the line after it" sh -c "test \$(cat $T/rc) -eq 1 && grep -q '\"verdict\": \"hang\"' $T/out"
t_ok "1 GB line: skipped with file:line" grep -q "huge.log:1: warning: line longer than" "$T/err"
t_skip_end

# 100,000 tiny files
python3 - "$T/many" <<'PY'
import os, sys
d = sys.argv[1]
for i in range(100000):
    sub = os.path.join(d, "node-%d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "plog-%d_1.log" % i), "w") as f:
        f.write("[INFO] HCCL(%d,python3):2025-10-24-11:16:52.719.213 [op_base.cc:1] [%d]noise\n" % (i, i))
PY
kb=$(rss $HANGDX diagnose "$T/many")
# INFO noise only: no failure and no normal end, so not determined
t_ok "100,000 files: not determined (exit 1, not ruled out): silence is not health" test "$(cat $T/rc)" -eq 1
t_rss "100,000 files: bounded memory" "$kb"
t_done
