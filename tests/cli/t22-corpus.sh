#!/bin/sh
# t22-corpus.sh - the real-log corpus (tests/field/, docs/CORPUS.md) and the
# field samples (tests/data/samples/field/): tests/corpus_score.py runs
# diagnose on each, checks it against the excerpt's own '# expected:'
# line, holds each goal to its floor and writes the table per class to
# $B/corpus-score.md (tests/run.sh prints it).  The scorer itself must be
# able to fail: a copy of one excerpt with its expected decision turned
# over is scored apart and must count as a miss.
. tests/cli/lib.sh
B=${B:-build}
python3 tests/corpus_score.py "$HANGDX" "$B/corpus-score.md" tests/field \
	tests/data/samples/field
mkdir "$T/flip"
f=$(grep -l '^# expected: hang=yes' tests/field/*.log | head -1)
sed '3s/hang=yes/hang=no/' "$f" > "$T/flip/$(basename "$f")"
t_ok "the scorer counts an excerpt whose expectation is turned over as a miss" \
	sh -c "python3 tests/corpus_score.py '$HANGDX' '$T/flip.md' '$T/flip' | grep -q '^not ok 2'"
t_done
