#!/bin/sh
# t52-facts-hostile.sh - facts files made to hurt (tests/hostile-facts/,
# with @ROOT@, @T@ and @NODE@ put in at test time, and generated here: a
# FIFO and a link out of the inputs to name, a gzip copy cut short, one
# of garbage, a rank of many file lines).  Each is read beside the honest
# facts of the simulated reference incident: it finishes in under 2 s of
# CPU (10 s of wall time) and
# 100 MB, says a warning (stderr: a warning, or an error for a file that
# is no facts and is read as a log; or the report's missing evidence naming
# what was not read again), and leaves the honest facts' verdict and
# category as they were.
. tests/cli/lib.sh
H=$HANGDX
CORPUS=$ROOT/tests/hostile-facts
NLINES=${HOSTILE_FILE_LINES:-1000000}

"$H" simulate -q --preset reference --set ranks=8 -o "$T/ref" > /dev/null 2>&1
(cd "$T" && "$H" facts ref -o honest.facts 2> /dev/null)
node=$(sed -n 's/.*"node":"\([^"]*\)".*/\1/p' "$T/honest.facts" | head -n 1)
[ -n "$node" ] || node=unnamed
verdict() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); print(d["verdict"], d["category"])' "$1"
}
(cd "$T" && "$H" diagnose --json --facts honest.facts > honest.json 2> /dev/null)
verdict "$T/honest.json" > "$T/honest.v"
t_ok "the honest facts give a verdict ($(cat "$T/honest.v"))" test -s "$T/honest.v"

# what the corpus names, made here
mkdir -p "$T/ff" "$T/links"
mkfifo "$T/ff/fifo.log"
ln -s /etc/passwd "$T/links/passwd.log"
for f in "$CORPUS"/*.facts; do
	sed -e "s|@ROOT@|ref|g" -e "s|@T@|$T|g" -e "s|@NODE@|$node|g" "$f" \
		> "$T/${f##*/}"
done
# generated: a gzip copy cut short, gzip garbage, a rank of many files
gzip -c "$T/honest.facts" > "$T/full.gz"
size=$(wc -c < "$T/full.gz")
head -c $((size - 20)) "$T/full.gz" > "$T/90-gzip-cut.facts.gz"
head -c $((size / 2)) "$T/full.gz" > "$T/91-gzip-half.facts.gz"
{ head -c 10 "$T/full.gz"; head -c 4000 /dev/urandom; } > "$T/92-gzip-garbage.facts.gz"
python3 - "$T/93-many-file-lines.facts" "$NLINES" "$node" <<'EOF'
import sys
out, n, node = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "w") as f:
    f.write('{"format":"hangdx-facts-2","ranks":1,"records":0,"fields":0,"node":"%s"}\n' % node)
    f.write('{"fact":"root","path":"ref"}\n')
    f.write('{"fact":"rank","rank":0,"device_seen":1}\n')
    for i in range(n):
        f.write('{"fact":"file","rank":0,"path":"ref/rank-0/many/f%d.log"}\n' % i)
EOF
printf '{"format":"hangdx-facts-2","node":"%s"}\n{"fact":"rank","rank":0}\n' "$node" > "$T/94-no-newline.facts"
printf '{"fact":"file","rank":0,"path":"ref/cut' >> "$T/94-no-newline.facts"

n=0
for c in "$T"/[0-9][0-9]-*.facts "$T"/[0-9][0-9]-*.facts.gz; do
	name=${c##*/}
	n=$((n + 1))
	(cd "$T" && /usr/bin/time -f "%e %M %U %S" -o "$name.time" "$H" diagnose --json \
		--facts honest.facts "$name" > "$name.json" 2> "$name.err")
	echo "$name" >> "$T/cases"
done
# one python run for every case's verdict (its start costs more than a
# diagnosis)
python3 - "$T" > "$T/verdicts" <<'EOF'
import json, sys
for name in open(sys.argv[1] + "/cases").read().split():
    try:
        d = json.load(open("%s/%s.json" % (sys.argv[1], name)))
        print(name, d["verdict"], d["category"])
    except Exception as e:
        print(name, "unreadable")
EOF
while read -r name; do
	read -r secs kb us ss <<EOF
$(tail -n 1 "$T/$name.time")
EOF
	got=$(grep "^$name " "$T/verdicts" | cut -d' ' -f2-)
	# 2 s of CPU: the cost, whatever else runs on the machine (and under
	# make coverage's -O0 build); 10 s of wall time: nothing waits on a FIFO
	cpu=$(awk -v u="$us" -v s="$ss" 'BEGIN { printf "%.2f", u + s }')
	t_ok "$name: under 2 s of CPU, 10 s and 100 MB (${cpu} s CPU, ${secs} s, ${kb} kB)" \
		awk -v c="$cpu" -v s="$secs" -v k="$kb" 'BEGIN { exit !(c + 0 < 2 && s + 0 < 10 && k + 0 < 102400) }'
	t_ok "$name: said (a warning, or named as not read again)" sh -c \
		"grep -Eq ': (warning|error): ' '$T/$name.err' || grep -q 'not read again' '$T/$name.json'"
	t_ok "$name: the honest verdict stands ($got)" [ "$got" = "$(cat "$T/honest.v")" ]
done < "$T/cases"
t_ok "at least 30 hostile facts files ($n)" [ "$n" -ge 30 ]

# a rank of 300 files (rotated plogs): its facts name them all, phase 2
# reads them all again, and the answer is the single pass's
"$H" simulate -q --preset rank-death -o "$T/rot" > /dev/null 2>&1
p=$(ls "$T"/rot/rank-0/ascend/log/debug/plog/plog-*.log | head -n 1)
i=1
while [ $i -lt 300 ]; do
	cp "$p" "${p%_*}_20261101$(printf %06d $i).log"
	i=$((i + 1))
done
(cd "$T" && "$H" diagnose --json rot > rot.single.json 2> /dev/null
 "$H" facts rot -o rot.facts 2> /dev/null
 "$H" diagnose --json --facts rot.facts > rot.facts.json 2> rot.err)
t_ok "300 files of one rank: its facts name them all" \
	test "$(grep -c '"fact":"file","rank":0,' "$T/rot.facts")" -ge 300
t_golden "300 files of one rank: --facts gives the single-pass JSON" \
	"$T/rot.single.json" "$T/rot.facts.json"
t_done
