#!/bin/sh
# bench/check.sh - `hangdx check` benchmarks (make bench), one run:
#  1. the reference incident (2 ranks, 14 communicators, 6 cores): states
#     and time, best of 5 (goal: well under a second);
#  2. the sweep communicators=1..16 x cores=4,6 x retry=on,off;
#  3. against SPIN on the same exported models (--promela; SPIN 6 with
#     its partial-order reduction on, -DSAFETY, cc -O2): states stored,
#     states per second and total time; SPIN's total includes spin -a and
#     the C compile, "pan" is the search alone (goal: 10x faster);
#  4. scale: the largest scenarios decided within 10 s (the load average
#     is printed: the machine may be shared).
# Results are recorded in docs/PERFORMANCE.md ("Static checker"); the
# limits it states are checked (bench/lib.sh): the reference under a
# second, at least 10x SPIN's search on every model, and each scenario the
# table says is decided within 10 s decided within 10 s.
. bench/lib.sh
HANGDX=${HANGDX:-./hangdx}
out=${BENCH_OUT:-bench/out}/check
mkdir -p "$out"

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
field() { # field FILE: "states transitions seconds verdict" of a check
	sed -n 's/^verdict    \([a-z-]*\).*(\([0-9]*\) states, \([0-9]*\) transitions, \([0-9.]*\) s.*/\2 \3 \4 \1/p' "$1"
}

echo "-- 1. the reference incident"
best=9
for i in 1 2 3 4 5; do
	"$HANGDX" check -q --preset reference > "$out/ref.txt" 2>&1
	set -- $(field "$out/ref.txt")
	best=$(echo "if ($3 < $best) $3 else $best" | bc)
done
printf 'reference: %s, %s states, %s transitions, best %s s\n' "$4" "$1" "$2" "$best"
limit "reference: a deadlock found (1 = yes)" "$([ "$4" = deadlock ] && echo 1 || echo 0)" ">=" 1
limit "reference: seconds, best of 5" "$best" "<" 1

echo "-- 2. sweep communicators=1..16 cores=4,6 retry=on,off (--max-memory 2G)"
t0=$(now)
"$HANGDX" check --preset reference --sweep communicators=1..16 --sweep cores=4,6 \
	--sweep retry=on,off --max-memory 2G > "$out/sweep.txt" 2>&1
t1=$(now)
grep '^safe limit' "$out/sweep.txt"
printf 'sweep: 64 checks in %.2f s\n' "$(secs "$t0" "$t1")"

echo "-- 3. against SPIN on the same models"
printf '%-22s %-13s %9s %8s %10s | %-13s %9s %8s %8s %10s | %7s %7s\n' model \
	hangdx states s states/s spin states pan-s total-s states/s "x(pan)" "x(total)"
if command -v spin > /dev/null 2>&1; then
	while read name args; do
		"$HANGDX" check -q $args --promela "$out/$name.pml" > "$out/$name.hx" 2>&1
		set -- $(field "$out/$name.hx")
		hs=$1 ht=$3 hv=$4
		[ "$(echo "$ht < 0.001" | bc)" = 1 ] && ht=0.001
		t0=$(now)
		(cd "$out" && rm -f pan pan.* && spin -a "$name.pml" > /dev/null &&
		 cc -O2 -DSAFETY -o pan pan.c > /dev/null 2>&1)
		t1=$(now)
		(cd "$out" && timeout 300 ./pan -m10000000 -w26 > "$name.pan" 2>&1)
		t2=$(now)
		ss=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out/$name.pan")
		se=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out/$name.pan")
		sv=$([ "$se" = 0 ] && echo deadlock-free || echo deadlock)
		[ -z "$se" ] && sv=timeout
		pan=$(secs "$t1" "$t2")
		tot=$(secs "$t0" "$t2")
		printf '%-22s %-13s %9s %8.3f %10.0f | %-13s %9s %8.2f %8.2f %10.0f | %7.0f %7.0f\n' \
			"$name" "$hv" "$hs" "$ht" "$(echo "$hs / $ht" | bc -l)" "$sv" \
			"${ss:-?}" "$pan" "$tot" "$(echo "${ss:-0} / $pan" | bc -l)" \
			"$(echo "$pan / $ht" | bc -l)" "$(echo "$tot / $ht" | bc -l)"
		limit "$name: the same verdict as SPIN (1 = yes)" "$([ "$hv" = "$sv" ] && echo 1 || echo 0)" ">=" 1
		limit "$name: SPIN's search time over hangdx's" "$(printf '%.0f' "$(echo "$pan / $ht" | bc -l)")" ">=" 10
	done <<'EOF'
r1-c7-k6-retry-on --preset reference --set ranks=1 --set communicators=7
r1-c7-k6-retry-off --preset reference --set ranks=1 --set communicators=7 --set retry=off
r2-c2-k3-retry-on --preset reference --set communicators=2 --set cores=3
r2-c3-k3-retry-off --preset reference --set communicators=3 --set cores=3 --set retry=off
r2-c4-k4-retry-on --preset reference --set communicators=4 --set cores=4
r2-c4-k4-retry-off --preset reference --set communicators=4 --set cores=4 --set retry=off
r2-safe-c4-k3 --preset reference-safe --set communicators=4 --set cores=3
r2-grant-order-c2 --preset grant-order --set communicators=2
EOF
else
	echo "(spin not installed: skipped)"
fi

echo "-- 4. scale: decided within 10 s?"
printf '%-60s %-14s %10s %8s %8s\n' scenario verdict states seconds "rss MB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
while read want args; do
	case $args in -p*) ;; *) args="-p reference $args" ;; esac
	/usr/bin/time -f "%e %M" -o "$out/scale.time" timeout 10 "$HANGDX" check -q \
		$args --max-memory 8G > "$out/scale.txt" 2>&1
	set -- $(field "$out/scale.txt") x x x x
	v=$4
	grep -q '^verdict' "$out/scale.txt" || v="(over 10 s)"
	printf '%-60s %-14s %10s %8s %8.0f\n' "$args" "$v" "$1" \
		"$(tail -1 "$out/scale.time" | cut -d' ' -f1)" \
		"$(echo "$(tail -1 "$out/scale.time" | cut -d' ' -f2) / 1024" | bc -l)"
	# "decided": the table of docs/PERFORMANCE.md says it is decided in 10 s
	[ "$want" = decided ] &&
		limit "decided within 10 s: $args (1 = yes)" "$([ "$v" = "(over 10 s)" ] && echo 0 || echo 1)" ">=" 1
done <<'EOF'
decided --set communicators=16
decided --set communicators=16 --set retry=off
decided --set communicators=16 --set retry=off --no-pool-abstraction
decided --set ranks=4 --set communicators=16
decided --set ranks=8 --set communicators=16
decided --set ranks=64 --set communicators=16
decided --set ranks=256 --set communicators=16
decided --set ranks=4 --set communicators=5
decided --set ranks=64 --set communicators=5
decided --set ranks=16 --set communicators=4 --set retry=off
decided --set ranks=64 --set communicators=4 --set retry=off
decided --set ranks=16 --set communicators=8 --set retry=off
decided --set ranks=64 --set communicators=16 --set retry=off
decided --set ranks=4 --set communicators=16 --set retry=off --no-pool-abstraction
decided --set ranks=256 --set communicators=16 --set retry=off
open --set ranks=1024 --set communicators=16 --set retry=off
decided -p reference-safe --set ranks=4
open -p reference-safe --set ranks=8
EOF
limits_done
