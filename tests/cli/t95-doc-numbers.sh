#!/bin/sh
# t95-doc-numbers.sh - the counts the docs state about the suite are the
# suite's: the scenarios and runs of the matrix (tests/matrix.py --list),
# the asymmetric-root scenarios (t45-roots), the field reports with an
# expected line (t43-field), the hostile facts files (t52), the mutations
# of `make mutate` (t42 checks its own counts in the docs), each still
# applying to the tree.  A
# number changed on one side only fails here, naming the doc and the line.
. tests/cli/lib.sh
D=${DOCS:-docs}

# count DOC REGEX N: every match of REGEX (an ERE whose first number is the
# count) in DOC says N; at least one match
count() {
	doc=$1
	re=$2
	want=$3
	got=$(grep -oE -- "$re" "$doc" | grep -oE '[0-9][0-9,]*' | head -n 100 | tr -d , | sort -u | tr '\n' ' ')
	t_ok "$doc: \"$re\" says $want (found: ${got:-nothing})" test "$got" = "$want "
}

python3 tests/matrix.py "$HANGDX" "$T/m" --list > "$T/list" || true
runs=$(grep -c . "$T/list")
scen=$(grep -vc @ "$T/list")
t_ok "matrix.py --list: some scenarios ($scen) and runs ($runs)" test "$scen" -gt 0 -a "$runs" -gt "$scen"
count $D/DIAGNOSIS.md '[0-9]+ generated scenarios' "$scen"
count $D/DIAGNOSIS.md '[0-9]+ runs\. Two' "$runs"
count $D/TESTING.md 'tests/matrix.py`: [0-9]+ scenarios' "$scen"
count $D/TESTING.md '[0-9]+ runs\), roots' "$runs"

asym=$(python3 -c 'import sys; sys.path.insert(0, "tests"); import matrix; print(len(matrix.asymmetric_cases()))')
count $D/DIAGNOSIS.md '[0-9]+ asymmetric-root scenarios' "$asym"
count $D/TESTING.md '[0-9]+ asymmetric-root scenarios' "$asym"

field=$(grep -l '^# expected:' tests/data/samples/field/* | wc -l)
count $D/DIAGNOSIS.md 'the [0-9]+ field reports' "$field"

hf=$(ls tests/hostile-facts/*.facts | wc -l)
count $D/TESTING.md 'the [0-9]+ files of `tests/hostile-facts/`' "$hf"

mut=$(grep -v '^#' tests/mutations.tsv | grep -c .)
count $D/TESTING.md 'tests/mutations.tsv` lists [0-9]+ mutations' "$mut"
# and each of them still applies: its text once in its file (else only a
# whole `make mutate`, an hour, would find the row gone stale)
t_ok "every mutation's text occurs once in its file" python3 -c '
import sys
bad = []
for l in open("tests/mutations.tsv"):
    if l.startswith("#") or not l.strip():
        continue
    c = l.rstrip("\n").split("\t")
    t = c[3].replace("\\n", "\n").replace("\\t", "\t")
    n = open(c[1]).read().count(t)
    if n != 1:
        bad.append("%s: %d" % (c[0], n))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)'

t_done
