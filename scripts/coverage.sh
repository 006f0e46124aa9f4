#!/bin/sh
# scripts/coverage.sh - `make coverage`: builds hangdx with gcov
# instrumentation in build-cov, runs the whole suite there, and writes an
# lcov HTML report to build-cov/coverage/index.html and a summary per
# directory of src/ (lines and branches) to build-cov/coverage.txt, headed
# by the date and the commit.  The suite's own output goes to
# build-cov/suite.txt (its summary line is printed; coverage is measured
# whatever it says).  lcov is a Debian package: installed here when run as
# root, else named.  COV_REPORT_ONLY=1 writes the report again from the
# counts of the last run (no build, no suite: the sources must not have
# changed since).
set -u
C=${C:-build-cov}
if ! command -v lcov > /dev/null || ! command -v genhtml > /dev/null; then
	if [ "$(id -u)" -eq 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends lcov > /dev/null || exit 1
	else
		echo "coverage: lcov is missing; run as root: apt-get install -y lcov" >&2
		exit 1
	fi
fi
# the flags also for a make the suite runs itself (t80's `make install`
# with B=build-cov): without them it would link the objects without gcov
OPT="-O0 -g --coverage"
XLDFLAGS="--coverage"
export OPT XLDFLAGS
if [ -z "${COV_REPORT_ONLY:-}" ]; then
	find "$C" -name '*.gcda' -delete 2> /dev/null
	# an object built without --coverage (no gcov symbol: a source changed
	# during a run and a plain make rebuilt it) is built again: make does
	# not see a change of flags
	find "$C/src" "$C/cli" -name '*.o' 2> /dev/null | while read -r o; do
		nm "$o" 2> /dev/null | grep -q __gcov_ || rm -f "$o"
	done
	make -s B="$C" units || exit 1
	HANGDX="./$C/hangdx" B="$C" sh tests/run.sh > "$C/suite.txt" 2>&1
	tail -n 1 "$C/suite.txt"
fi
lcov -q --rc lcov_branch_coverage=1 --capture --directory "$C" \
	--output-file "$C/all.info" 2> "$C/lcov.log" || exit 1
lcov -q --rc lcov_branch_coverage=1 --extract "$C/all.info" "$(pwd)/src/*" \
	--output-file "$C/src.info" 2>> "$C/lcov.log" || exit 1
genhtml -q --branch-coverage --output-directory "$C/coverage" "$C/src.info" \
	2>> "$C/lcov.log" || exit 1
printf '# %s, commit %s%s: make coverage (gcc -O0 --coverage, lcov --rc lcov_branch_coverage=1)\n' \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" "$(git rev-parse --short HEAD 2> /dev/null || echo '?')" \
	"$(git diff --quiet HEAD 2> /dev/null || echo ' (with uncommitted changes)')" > "$C/coverage.txt"
for d in src/*/; do
	d=${d%/}
	lcov -q --rc lcov_branch_coverage=1 --extract "$C/src.info" "$(pwd)/$d/*" \
		--output-file "$C/part.info" 2>> "$C/lcov.log" > /dev/null || continue
	printf '%-14s %s\n' "$d" "$(lcov --rc lcov_branch_coverage=1 --summary "$C/part.info" 2>&1 |
		sed -n 's/^ *\(lines\|branches\)\.*: \([0-9.]*%\).*/\1 \2/p' | tr '\n' ' ')" \
		>> "$C/coverage.txt"
done
rm -f "$C/part.info"
cat "$C/coverage.txt"
echo "coverage: $C/coverage/index.html"
