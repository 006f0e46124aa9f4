#!/bin/sh
# t63-html-times.sh - the timeline of the HTML report with times at the
# ends of their range.  A facts file may say anything (a corrupt or
# hostile one): rank 0's last line at INT64_MAX microseconds, and in a
# second file rank 1's at INT64_MIN + 1, are refused where the facts are
# read (a warning naming last_ts; the value is not used).  At the ends of
# the range a log can say (0 and 9999-12-31T23:59:59.999999) they are
# used.  Diagnosed with --html, --json and as text: exit 1 (the sanitizer
# build, `make asan`, reports no overflow in src/report/svg.c), and the
# page draws the axis and its ticks, the marks on the plot, no NaN.
. tests/cli/lib.sh
H=$(cd "$(dirname "$HANGDX")" && pwd)/$(basename "$HANGDX")
cd "$T" || exit 1

"$H" simulate -q --preset rank-death -o death > /dev/null 2>&1
"$H" facts death -o death.facts > /dev/null 2>&1
rm -rf death            # the facts stand in for the logs: none read again

last_ts() {  # last_ts RANK VALUE FILE: the rank's fact with last_ts VALUE
	sed "/^{\"fact\":\"rank\",\"rank\":$1,/s/\"last_ts\":-\{0,1\}[0-9]*/\"last_ts\":$2/" "$3"
}
last_ts 0 9223372036854775807 death.facts > max.facts
last_ts 1 -9223372036854775807 max.facts > ends.facts
t_ok "facts files with last_ts at INT64_MAX and INT64_MIN + 1" \
	sh -c 'grep -q "\"rank\":0,.*\"last_ts\":9223372036854775807" max.facts &&
	       grep -q "\"rank\":1,.*\"last_ts\":-9223372036854775807" ends.facts'
last_ts 0 253402300799999999 death.facts > far0.facts
last_ts 1 0 far0.facts > far.facts

run() {  # run NAME CMD...: stdout to NAME.out, stderr to NAME.err, code
	name=$1
	shift
	"$@" > "$name.out" 2> "$name.err"
	echo $? > "$name.rc"
}
quiet_hang() {  # quiet_hang NAME: exit 1 and nothing on stderr
	test "$(cat "$1.rc")" -eq 1 && test ! -s "$1.err" ||
		{ head -5 "$1.err"; false; }
}
# no NaN or infinity; every tick and rank 0's last-line mark on the plot
# (x from 180 to 975)
inside() {
	! grep -Eqi '="-?(nan|inf)' "$1" &&
	{ grep -o '<text class="tick" x="[^"]*"' "$1"
	  grep -o '<title>rank 0: last log line at [^<]*</title><rect x="[^"]*"' "$1"
	} | sed 's/.*x="//; s/"$//' |
		awk '$1 < 178 || $1 > 975 { bad = 1 } END { exit bad || NR < 3 }'
}

refused() {  # refused NAME: exit 1, last_ts said out of range
	test "$(cat "$1.rc")" -eq 1 &&
		grep -q '"last_ts" .* is out of range' "$1.err" ||
		{ head -5 "$1.err"; false; }
}
for f in max ends far; do
	case $f in
	far) said=quiet_hang; how="nothing on stderr" ;;
	*) said=refused; how="last_ts refused, said" ;;
	esac
	run "$f.html" "$H" diagnose --facts "$f.facts" --html "$f.html"
	t_ok "$f: diagnose --html: exit 1, $how" $said "$f.html"
	t_ok "$f: the timeline and its ticks are drawn" \
		sh -c "grep -q '<svg class=\"timeline\"' $f.html &&
		       test \$(grep -c '<text class=\"tick\"' $f.html) -ge 2"
	t_ok "$f: the ticks and rank 0's mark inside the plot, no NaN" inside "$f.html"
	run "$f.json" "$H" diagnose --json --facts "$f.facts"
	t_ok "$f: diagnose --json: exit 1, $how" $said "$f.json"
	run "$f.text" "$H" diagnose --facts "$f.facts"
	t_ok "$f: diagnose: exit 1, $how" $said "$f.text"
done
t_ok "far: rank 0's last line is a mark, its time in the table" \
	sh -c "grep -q '<title>rank 0: last log line at ' far.html &&
	       grep -q '<td><code>9999-12-31T23:59:59.999999</code>' far.html"
t_done
