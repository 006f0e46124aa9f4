#!/bin/sh
# scripts/mutate.sh - `make mutate`: the mutation check.  Each line of
# tests/mutations.tsv names one small change of src/ (one condition or one
# line) and the tests that must catch it.  The tree is copied once to
# $B/mutate/tree and built; then each mutation is applied to that copy,
# rebuilt incrementally, its tests run, and the file put back.  A mutation
# is caught when one of its tests fails; the script prints one row per
# mutation and fails on any survivor, on a mutation whose text is not found
# exactly once, and on a mutant that does not build.
#   sh scripts/mutate.sh [ID...]      (all mutations, or the ones named)
# MUTATIONS=FILE reads another list of the same form (e.g. one row with only
# the test being written, to try it against its mutant quickly);
# MUTATE_KEEP=1 rebuilds only what changed since the last copy.
set -u
B=${B:-build}
ROOT=$(pwd)
LIST=${MUTATIONS:-$ROOT/tests/mutations.tsv}
W=$ROOT/$B/mutate
TREE=$W/tree
JOBS=${JOBS:-2}

die() { echo "mutate: $*" >&2; exit 2; }
[ -f "$LIST" ] || die "no $LIST"
command -v python3 > /dev/null || die "python3 is needed"

copy_tree() {
	# MUTATE_KEEP=1: copy over the last copy (tar keeps the files' times,
	# so only what changed is rebuilt); by default a fresh copy
	[ -n "${MUTATE_KEEP:-}" ] || rm -rf "$TREE"
	mkdir -p "$TREE" || die "cannot make $TREE"
	# one tar reads every name (xargs would split a long list over
	# several archives, and tar xf stops at the end of the first)
	(cd "$ROOT" && git ls-files -z | tar --null -T - -cf -) | (cd "$TREE" && tar xf -) ||
		die "cannot copy the tree"
}

build() {
	(cd "$TREE" && make -s -j"$JOBS" B=build units > "$W/build.log" 2>&1)
}

# run_tests "unit:test_x cli:t45-roots ..." -> 0 when all pass
run_tests() {
	rc=0
	for t in $1; do
		case $t in
		unit:*) f=build/tests/${t#unit:}; cmd="./$f" ;;
		cli:*)  f=tests/cli/${t#cli:}.sh; cmd="sh $f" ;;
		*) die "unknown test $t" ;;
		esac
		# a test missing from the copy (not yet in git) would fail,
		# and count as a catch
		[ -f "$TREE/$f" ] || die "no $f in the copy (git add it)"
		out=$W/out.$$
		# stdin is the list being read: a test (mpirun) would eat it
		(cd "$TREE" && CMOCKA_MESSAGE_OUTPUT=tap HANGDX=./hangdx B=build $cmd) \
			< /dev/null > "$out" 2>&1
		st=$?
		if [ $st -ne 0 ] || grep -v -i '# *\(skip\|todo\)' "$out" | grep -q '^not ok'; then
			caught_by=$t
			rc=1
			break
		fi
	done
	rm -f "$W/out.$$"
	return $rc
}

# apply FILE FROM TO: the text must occur exactly once
apply() {
	python3 - "$TREE/$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
# the list writes a newline as \n and a tab as \t
old, new = (x.replace("\\n", "\n").replace("\\t", "\t") for x in (old, new))
s = open(path, encoding="utf-8").read()
n = s.count(old)
if n != 1:
    print(f"found {n} times", file=sys.stderr)
    sys.exit(3)
open(path, "w", encoding="utf-8").write(s.replace(old, new))
EOF
}

start=$(date +%s)
mkdir -p "$W" || die "cannot make $W"
copy_tree
# the list as it was at the start: edits meanwhile change nothing
cp "$LIST" "$W/list" || die "cannot copy $LIST"
LIST=$W/list
echo "mutate: building the copy in $TREE"
build || die "the unmutated copy does not build (see $W/build.log)"

# every test the list names passes on the unmutated copy first
# (the tests of the mutations named, when some are)
alltests=$(grep -v '^#' "$LIST" | awk -F'\t' -v want=" $* " \
	'NF >= 5 && (want == "  " || index(want, " " $1 " ")) { print $3 }' |
	tr ' ' '\n' | sort -u)
caught_by=""
# MUTATE_NO_BASELINE=1: only when the same tests just passed on the same
# sources (e.g. the rest of a list split between two runs)
[ -n "${MUTATE_NO_BASELINE:-}" ] && alltests=""
for t in $alltests; do
	if ! run_tests "$t"; then
		die "$t fails on the unmutated tree: no mutation result would mean anything"
	fi
done

n=0; caught=0; bad=0
survivors=""
printf '%-28s %-10s %s\n' "mutation" "result" "caught by"
while IFS='	' read -r id file tests from to; do
	case $id in ''|\#*) continue ;; esac
	if [ $# -gt 0 ]; then
		want=0
		for a in "$@"; do [ "$a" = "$id" ] && want=1; done
		[ $want -eq 1 ] || continue
	fi
	n=$((n + 1))
	cp "$TREE/$file" "$W/orig" || die "no $file"
	if ! apply "$file" "$from" "$to" 2> "$W/apply.log"; then
		printf '%-28s %-10s %s\n' "$id" "NOT-FOUND" "$(cat "$W/apply.log") in $file"
		bad=$((bad + 1))
		continue
	fi
	if ! build; then
		printf '%-28s %-10s %s\n' "$id" "NO-BUILD" "see $W/build-$id.log"
		cp "$W/build.log" "$W/build-$id.log"
		bad=$((bad + 1))
	else
		caught_by=""
		if run_tests "$tests"; then
			printf '%-28s %-10s %s\n' "$id" "SURVIVED" "($tests)"
			survivors="$survivors $id"
		else
			printf '%-28s %-10s %s\n' "$id" "caught" "$caught_by"
			caught=$((caught + 1))
		fi
	fi
	cp "$W/orig" "$TREE/$file"
done < "$LIST"
build > /dev/null 2>&1
echo "$n mutations: $caught caught, $(echo $survivors | wc -w) survived, $bad not applied or not built ($(($(date +%s) - start)) s)"
[ -z "$survivors" ] && [ $bad -eq 0 ] && [ $n -gt 0 ]
