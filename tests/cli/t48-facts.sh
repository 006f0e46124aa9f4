#!/bin/sh
# t48-facts.sh - the three ways to run hangdx give one answer: simulated
# incidents diagnosed from their logs in one pass, from the facts of
# `hangdx facts` (whole, and in two halves of disjoint rank directories,
# and half facts plus half logs), and under mpirun with --mpi, must give
# byte-identical JSON; so must dense logs read in batches in one process.  Then the facts file itself: bad files (a broken line a warning; not facts: exit 3
# with file:line), -o replaced whole, -o -, usage errors, and under MPI a
# stuck process ending in exit 4 after --mpi-timeout, never a hang.
. tests/cli/lib.sh
H=$HANGDX

sim() {  # sim NAME PRESET [--set KEY=VALUE...]
	name=$1
	preset=$2
	shift 2
	"$H" simulate -q --preset "$preset" "$@" -o "$T/$name" > /dev/null 2>&1
}
sim ref reference --set ranks=8
sim death rank-death
sim link link-error
sim mism mismatch
sim healthy healthy
sim ref65 reference --set ranks=65     # past the 64 start nodes of the cycle search

# cmp_runs DESC EXPECTED_BASENAME ACTUAL_BASENAME: stdout and exit code
cmp_runs() {
	t_golden "$1" "$T/$2.out" "$T/$3.out"
	t_golden "$1: same exit code" "$T/$2.rc" "$T/$3.rc"
}
run() {  # run NAME CMD...: stdout to NAME.out, exit code to NAME.rc
	name=$1
	shift
	"$@" > "$T/$name.out" 2> "$T/$name.err"
	echo $? > "$T/$name.rc"
}

# Dense logs in one process: PATHs holding more bytes of files than
# --batch (2M here; 16 ranks of the reference preset hold 5.5 MB) are read
# an eighth of that at a time, a batch of rank directories reduced to
# facts while the next is read, and must give the single pass's JSON;
# with --threads 1 read and reduced in turn; --batch 0 is the single pass.
sim dense reference --set ranks=16
run dense.single "$H" diagnose --json "$T/dense"
run dense.batch "$H" diagnose --json --batch 2M "$T/dense"
cmp_runs "dense logs read in batches: the single-pass JSON" dense.single dense.batch
t_ok "dense logs: read in more than one batch" sh -c \
	'n=$(sed -n "s/.* read in \([0-9]*\) batches.*/\1/p" "$1"); [ "${n:-0}" -gt 1 ]' \
	_ "$T/dense.batch.err"
run dense.turn "$H" diagnose --json --batch 2M --threads 1 "$T/dense"
cmp_runs "dense logs read and reduced in turn (--threads 1): the same JSON" \
	dense.single dense.turn
t_ok "dense logs: the same batches with --threads 1" sh -c \
	'[ "$(grep "read in" "$1")" = "$(grep "read in" "$2")" ]' _ \
	"$T/dense.batch.err" "$T/dense.turn.err"
run dense.one "$H" diagnose --json --batch 0 "$T/dense"
t_ok "dense logs: --batch 0 reads in one pass, to the same JSON" sh -c \
	'! grep -q "read in" "$1" && cmp -s "$2" "$3"' _ "$T/dense.one.err" \
	"$T/dense.one.out" "$T/dense.single.out"
t_exit 2 "dense logs: --batch takes a size" "$H" diagnose --batch 1X "$T/dense"
# hangdx facts reads dense logs in batches too: the facts of the batches
# give the single pass's JSON with the logs here, and the whole facts'
# answer with the logs away (phase 2 reads nothing again)
run dense.fb "$H" facts --batch 2M "$T/dense" -o "$T/dense-b.facts"
t_ok "facts: dense logs read in more than one batch" sh -c \
	'n=$(sed -n "s/.* read in \([0-9]*\) batches.*/\1/p" "$1"); [ "${n:-0}" -gt 1 ]' \
	_ "$T/dense.fb.err"
run dense.fw "$H" facts --batch 0 "$T/dense" -o "$T/dense-w.facts"
run dense.fbd "$H" diagnose --json --facts "$T/dense-b.facts"
cmp_runs "facts read in batches, logs here: the single-pass JSON" dense.single dense.fbd
mv "$T/dense" "$T/dense-away"
run dense.fba "$H" diagnose --json --facts "$T/dense-b.facts"
run dense.fwa "$H" diagnose --json --facts "$T/dense-w.facts"
mv "$T/dense-away" "$T/dense"
cmp_runs "facts read in batches, logs away: the whole facts' JSON" dense.fwa dense.fba
t_ok "... which is the deadlock with the single pass's roots" python3 -c "
import json; a=json.load(open('$T/dense.fba.out')); b=json.load(open('$T/dense.single.out'))
assert a['category']==b['category']=='aicpu_exhaustion_deadlock' and a['roots']==b['roots'], (a['category'], a['roots'], b['roots'])"
t_exit 2 "facts: --batch takes a size" "$H" facts --batch 1X "$T/dense" -o "$T/x.facts"

for c in ref death link mism healthy ref65; do
	run "$c.single" "$H" diagnose --json "$T/$c"
	t_exit 0 "$c: facts written" "$H" facts "$T/$c" -o "$T/$c.facts"
	run "$c.facts" "$H" diagnose --json --facts "$T/$c.facts"
	cmp_runs "$c: --facts gives the single-pass JSON" "$c.single" "$c.facts"
	case $c in ref65|healthy) continue;; esac
	# two halves: the rank directories split in two, the other files in
	# the second half
	set -- "$T/$c"/rank-*
	half=$(($# / 2))
	a="" b=""
	i=0
	for d in "$T/$c"/*; do
		case $d in
		*/rank-*) if [ $i -lt $half ]; then a="$a $d"; else b="$b $d"; fi
			  i=$((i + 1));;
		*) b="$b $d";;
		esac
	done
	# shellcheck disable=SC2086
	"$H" facts $a -o "$T/$c.a.facts" 2> /dev/null
	# shellcheck disable=SC2086
	"$H" facts $b -o "$T/$c.b.facts" 2> /dev/null
	run "$c.halves" "$H" diagnose --json --facts "$T/$c.a.facts" --facts "$T/$c.b.facts"
	cmp_runs "$c: facts of two halves give the single-pass JSON" "$c.single" "$c.halves"
	# the shell's `--facts *.facts`: one --facts, the other files PATHs,
	# in either order, and facts files given as PATHs alone (gzip too)
	run "$c.glob" "$H" diagnose --json --facts "$T/$c.b.facts" "$T/$c.a.facts"
	cmp_runs "$c: --facts B A (a facts file as PATH) gives the single-pass JSON" "$c.single" "$c.glob"
	gzip -c "$T/$c.b.facts" > "$T/$c.b.facts.gz"
	run "$c.paths" "$H" diagnose --json "$T/$c.a.facts" "$T/$c.b.facts.gz"
	cmp_runs "$c: facts files as PATHs only (one gzipped) give the single-pass JSON" "$c.single" "$c.paths"
	case $c in ref|death) ;; *) continue;; esac
	# shellcheck disable=SC2086
	run "$c.mixed" "$H" diagnose --json --facts "$T/$c.a.facts" $b
	cmp_runs "$c: facts of one half and the logs of the other" "$c.single" "$c.mixed"
done

# what the node was told travels with its facts: --cores (it changes the
# verdict: the single pass with --cores 8 is inferred on 8 cores), and the
# record ceiling it cut at (the report states the node's cut, not this
# side's default)
run ref.c8.single "$H" diagnose --json --cores 8 "$T/ref"
"$H" facts --cores 8 "$T/ref" -o "$T/ref.c8.facts" 2> /dev/null
run ref.c8.facts "$H" diagnose --json --facts "$T/ref.c8.facts"
cmp_runs "facts --cores 8: the single pass with --cores 8" ref.c8.single ref.c8.facts
run death.cut.single "$H" diagnose --json --max-records 150 "$T/death"
"$H" facts --max-records 150 "$T/death" -o "$T/death.cut.facts" 2> /dev/null
run death.cut.facts "$H" diagnose --json --facts "$T/death.cut.facts"
cut="only the first 150 records in reading order were kept"
t_ok "facts --max-records 150: the single pass and the facts state the node's cut" \
	sh -c "grep -q '$cut' '$T/death.cut.single.out' && grep -q '$cut' '$T/death.cut.facts.out'"
t_ok "facts --max-records 150: the verdict, category and root of the single pass" \
	sh -c "python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if all(a[k] == b[k] for k in (\"verdict\", \"category\", \"roots\", \"first_failing_rank\")) else 1)' '$T/death.cut.single.out' '$T/death.cut.facts.out'"

# every report format from facts: text, DOT, HTML
run ref.text1 "$H" diagnose --color never "$T/ref"
run ref.text2 "$H" diagnose --color never --facts "$T/ref.facts"
cmp_runs "ref: the text report from facts" ref.text1 ref.text2
"$H" diagnose --dot "$T/ref1.dot" --html "$T/ref1.html" "$T/ref" > /dev/null 2>&1
"$H" diagnose --dot "$T/ref2.dot" --html "$T/ref2.html" --facts "$T/ref.facts" > /dev/null 2>&1
t_golden "ref: --dot from facts" "$T/ref1.dot" "$T/ref2.dot"
t_golden "ref: --html from facts" "$T/ref1.html" "$T/ref2.html"
"$H" --lang zh diagnose --json --html "$T/zh1.html" "$T/ref" > /dev/null 2>&1
"$H" --lang zh diagnose --json --html "$T/zh2.html" --facts "$T/ref.facts" > "$T/zh2.json" 2>&1
t_golden "ref: --json beside a Chinese --html from facts (two diagnoses): the JSON" "$T/ref.single.out" "$T/zh2.json"
t_golden "ref: --json beside a Chinese --html from facts (two diagnoses): the page" "$T/zh1.html" "$T/zh2.html"
t_ok "adding the same facts twice changes nothing" sh -c \
	"'$H' diagnose --json --facts '$T/ref.facts' --facts '$T/ref.facts' | cmp -s - '$T/ref.single.out'"
# one rank in two facts files: its plogs reduced apart from its device
# logs (the device half holds its cycle), in both orders: the union keeps
# every rank's cycle, the answer of the single pass
mkdir "$T/pl" "$T/dv"
(cd "$T/ref" && find . -path '*/plog/*' -type f | tar cf - -T -) | (cd "$T/pl" && tar xf -)
(cd "$T/ref" && find . -path '*/device-*/*' -type f | tar cf - -T -) | (cd "$T/dv" && tar xf -)
"$H" facts "$T/pl" -o "$T/pl.facts" 2> /dev/null
"$H" facts "$T/dv" -o "$T/dv.facts" 2> /dev/null
for o in "pl dv" "dv pl"; do
	set -- $o
	"$H" diagnose --json --facts "$T/$1.facts" "$T/$2.facts" > "$T/split-$1.json" 2> /dev/null
	t_ok "a rank's plogs and device logs in two facts files ($1 first): the single pass's answer" python3 -c "
import json
a, b = json.load(open('$T/ref.single.out')), json.load(open('$T/split-$1.json'))
k = ('verdict', 'category', 'proven', 'roots', 'root_rank', 'first_failing_rank')
assert [a[x] for x in k] == [b[x] for x in k], ([a[x] for x in k], [b[x] for x in k])
assert a['roots'] == list(range(8)), a['roots']"
done

# the facts file: summary, -o -, replaced whole, never half-written
t_ok "facts: a summary line on stderr (ranks, bytes)" sh -c \
	"'$H' facts '$T/ref' -o '$T/s.facts' 2>&1 >/dev/null | grep -q '^hangdx facts: 8 ranks, [0-9]* bytes written to'"
t_ok "facts -o - writes the same to stdout" sh -c \
	"'$H' facts '$T/ref' -o - 2>/dev/null | cmp -s - '$T/ref.facts'"
echo old > "$T/exists.facts"
ino1=$(ls -i "$T/exists.facts" | cut -d' ' -f1)
"$H" facts "$T/ref" -o "$T/exists.facts" 2> /dev/null
ino2=$(ls -i "$T/exists.facts" | cut -d' ' -f1)
t_ok "facts -o - | diagnose --facts -: the single-pass JSON" sh -c \
	"'$H' facts '$T/ref' -o - 2>/dev/null | '$H' diagnose --json --facts - | cmp -s - '$T/ref.single.out'"
t_ok "facts -o replaces an existing file by renaming a new one over it" sh -c \
	"cmp -s '$T/exists.facts' '$T/ref.facts' && [ '$ino1' != '$ino2' ]"
echo old > "$T/keep.facts"
t_exit 3 "facts: no input could be read: exit 3" "$H" facts "$T/nothing-here" -o "$T/keep.facts"
t_ok "facts: a failed run leaves the old file and no temporary" sh -c \
	"[ \"\$(cat '$T/keep.facts')\" = old ] && ! ls '$T'/keep.facts.tmp-* 2>/dev/null"
t_exit 2 "facts: no -o is a usage error" "$H" facts "$T/ref"
t_exit 2 "facts: no PATH is a usage error" "$H" facts -o "$T/x.facts"
t_exit 4 "facts: an unwritable output is exit 4" "$H" facts "$T/ref" -o "$T/no/such/dir/x.facts"

# bad facts files: file:line diagnostics, exit 3 (a bad line: a warning)
printf 'this is not a facts file\n' > "$T/bad1.facts"
run bad1 "$H" diagnose --facts "$T/bad1.facts"
t_golden "a bad facts file: exit 3" /dev/stdin "$T/bad1.rc" <<EOF
3
EOF
t_ok "a bad facts file: file:line on stderr" grep -q "^$T/bad1.facts:1:" "$T/bad1.err"
n=$(($(wc -l < "$T/ref.facts") + 1))
{ cat "$T/ref.facts"; printf '{"kind": 12, broken\n'; } > "$T/bad2.facts"
run bad2 "$H" diagnose --facts "$T/bad2.facts"
t_ok "a broken line after good ones: a warning at its line number, the facts before it stand" sh -c \
	"[ \$(cat '$T/bad2.rc') = 1 ] && grep -q '^$T/bad2.facts:$n: warning:' '$T/bad2.err'"
t_exit 3 "a facts file that is not there: exit 3" "$H" diagnose --facts "$T/nothing.facts"
t_exit 2 "--mpi with --facts is a usage error" "$H" diagnose --mpi --facts "$T/ref.facts" "$T/ref"
t_exit 2 "--mpi does not read standard input" "$H" diagnose --mpi - < /dev/null
t_exit 2 "--mpi-share takes dirs, all or auto" "$H" diagnose --mpi --mpi-share some "$T/ref"
t_exit 2 "--mpi-timeout takes seconds" "$H" diagnose --mpi --mpi-timeout 0 "$T/ref"
t_exit 2 "--mpi-batch takes a count" "$H" diagnose --mpi --mpi-batch -1 "$T/ref"

# under mpirun
asan=false
grep -qa __asan_init "${HANGDX_REAL:-$HANGDX}" && asan=true
# each check below is a skip without mpirun (a failure under CI) and under
# a sanitizer or a wrapper (a skip: not run there)
if $asan || t_wrapped; then
	t_skip_from "mpirun: under a sanitizer or a wrapper"
elif ! command -v mpirun > /dev/null 2>&1; then
	t_missing_from "mpirun not installed (openmpi-bin)"
elif "$H" diagnose --mpi "$T/ref" 2>&1 | grep -q "built without MPI"; then
	t_missing_from "hangdx built without MPI (no mpicc: libopenmpi-dev)"
fi
mpirun_() {  # mpirun_ NP CMD...
	t_skipping && return 99
	np=$1
	shift
	root=""
	[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
	timeout 60 mpirun $root --oversubscribe -np "$np" "$@"
}
# from 3 processes on, process 0 reads nothing: it gathers and decides
run ref.mpi mpirun_ 4 "$H" diagnose --mpi --json "$T/ref"
cmp_runs "ref: mpirun -np 4 --mpi gives the single-pass JSON" ref.single ref.mpi
t_ok "mpirun: process 0 says what met there" grep -q \
	"^hangdx diagnose: facts of 8 ranks from 4 MPI processes (3 read logs), [0-9]* bytes" "$T/ref.mpi.err"
# 13 processes for 7 entries: six read nothing and send empty facts
run death.mpi mpirun_ 13 "$H" diagnose --mpi --json "$T/death"
cmp_runs "death: mpirun -np 13 (more processes than entries)" death.single death.mpi
# a share read one entry at a time, its facts added batch by batch
run ref.b1 mpirun_ 2 "$H" diagnose --mpi --mpi-share dirs --mpi-batch 1 --json "$T/ref"
cmp_runs "ref: --mpi-batch 1 under -np 2 gives the single-pass JSON" ref.single ref.b1
run death.b1 mpirun_ 3 "$H" diagnose --mpi --mpi-batch 1 --json "$T/death"
cmp_runs "death: --mpi-batch 1 under -np 3" death.single death.b1
# JSON untranslated and a Chinese HTML page: two diagnoses, two fetches
mpirun_ 3 "$H" --lang zh diagnose --mpi --mpi-share dirs --json \
	--html "$T/zh3.html" "$T/ref" > "$T/zh3.json" 2> /dev/null
t_golden "ref: 3 processes, --json beside a Chinese --html: the JSON" "$T/ref.single.out" "$T/zh3.json"
# the page quotes no log line: the evidence came from the other processes
unquote() {
	sed 's|<pre>.*</pre></li>$|</li>|; s|<p class="muted">[^<]*</p></li>$|</li>|' "$1"
}
unquote "$T/zh1.html" > "$T/zh1.unq"
unquote "$T/zh3.html" > "$T/zh3.unq"
t_golden "ref: 3 processes, --json beside a Chinese --html: the page (quotes aside)" "$T/zh1.unq" "$T/zh3.unq"
# shared out by directory, an entry still lies under its PATH: ranks
# named only by their directory (rank-N/) keep their numbers
mkdir -p "$T/pr/rank-0" "$T/pr/rank-1"
for r in 0 1; do
	printf '%s\n' "[ERROR] HCCL(10$r,python3):2025-10-24-11:18:29.499.2$r$r [task_exception_handler.cc:908] [10$r][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], taskType[Notify Wait], tag[AllReduce_g1], index[2$r], AlgType(level 0-1-2):[fullmesh-ring-NHR]." \
		> "$T/pr/rank-$r/plog-10$r.log"
done
run pr.single "$H" diagnose --json "$T/pr"
run pr.mpi mpirun_ 2 "$H" diagnose --mpi --mpi-share dirs --json "$T/pr"
cmp_runs "dirs share: rank-N/ under PATH still names the rank" pr.single pr.mpi
t_ok "dirs share: the ranks are 0 and 1, not '?'" grep -q '"first_failing_rank": 0' "$T/pr.mpi.out"
# node-local logs: the same relative path names another directory in
# each process (its working directory); auto must read all of it
mkdir -p "$T/nodes/n0/logs" "$T/nodes/n1/logs" "$T/nodes/all/logs"
cp -r "$T/ref"/rank-[0-3] "$T/nodes/n0/logs/"
cp -r "$T/ref"/rank-[4-7] "$T/ref"/*.json "$T/ref"/*.dot "$T/nodes/n1/logs/"
cp -r "$T/ref"/. "$T/nodes/all/logs/"
(cd "$T/nodes/all" && "$H" diagnose --json logs) > "$T/nl.single.out" 2> /dev/null
echo $? > "$T/nl.single.rc"
# shellcheck disable=SC2016
run nl.mpi mpirun_ 2 sh -c 'cd "$0/n$OMPI_COMM_WORLD_RANK" && exec "$1" diagnose --mpi --json logs' \
	"$T/nodes" "$H"
cmp_runs "node-local logs (auto: every process reads all of its PATH)" nl.single nl.mpi
run none.mpi mpirun_ 2 "$H" diagnose --mpi "$T/nothing-here"
t_golden "mpirun: no process could read an input: exit 3" /dev/stdin "$T/none.mpi.rc" <<EOF
3
EOF
# process 1 blocks on a FIFO: process 0 gives up after 1 s, exit 4
mkdir "$T/stuck"
cp -r "$T/ref/rank-0" "$T/stuck/a"
mkfifo "$T/stuck/b"
start=$(date +%s)
run stuck mpirun_ 2 "$H" diagnose --mpi --mpi-share dirs --mpi-timeout 1 "$T/stuck"
took=$(($(date +%s) - start))
t_skipping && took=""
t_ok "mpirun: a stuck process ends the job with exit 4${took:+ (${took}s)}" sh -c \
	"[ \$(cat '$T/stuck.rc') = 4 ] && [ $took -lt 20 ]"
t_ok "mpirun: the message names what was waited for" \
	grep -q "MPI process 0 of 2: receiving from process 1: no answer after 1 s" "$T/stuck.err"
t_skip_end
# A device log given as the input itself, whose records take their rank
# from one kernel line that names it (rankId[3], the bulk the facts thin;
# a fuzz input): the facts keep that line, so the facts of the file give
# the single pass's rank 3, not rank 0 "rank unknown"
bd=$T/binds/rank-0/ascend/log/debug/device-0
mkdir -p "$bd"
cp fuzz/corpus/fuzz_diagnose/3a2eb17ceb880aa1970cfd3db70c307c558e5880 "$bd/device-1_1.log"
(cd "$T/binds" && "$H" diagnose --json rank-0/ascend/log/debug/device-0/device-1_1.log \
	> ../binds.single.out 2>/dev/null; echo $? > ../binds.single.rc
 "$H" facts rank-0/ascend/log/debug/device-0/device-1_1.log -o ../binds.facts 2>/dev/null
 "$H" diagnose --json --facts ../binds.facts > ../binds.facts.out 2>/dev/null
 echo $? > ../binds.facts.rc)
t_ok "a rank bound by a bulk line: the single pass says rank 3" \
	grep -q '"first_failing_rank": 3,' "$T/binds.single.out"
cmp_runs "a rank bound by a bulk line: the facts of the file give the single pass's JSON" \
	binds.single binds.facts
t_done
