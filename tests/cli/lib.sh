# tests/cli/lib.sh - a tiny TAP harness for CLI and golden scripts, in the
# spirit of git's test-lib: t_ok DESC CMD... passes when CMD succeeds.
# Scripts source it, use $HANGDX, work in $T (a fresh temp dir) and call
# t_done at the end.
: "${HANGDX:=$(pwd)/hangdx}"
ROOT=$(pwd)
# scripts cd into $T: a relative path to the binary is made absolute
case $HANGDX in
/*) ;;
*/*) HANGDX=$ROOT/$HANGDX ;;
esac
export HANGDX
# the log samples and the peer's fixtures the tests read, kept in the
# repository (tests/data/README.md says where each came from)
DATA=$ROOT/tests/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# reports in English whatever the caller's locale: a test that wants
# another language says so (--lang, LANG=...)
unset LANGUAGE LC_ALL LC_MESSAGES LANG
_n=0
_fail=0

# HANGDX_WRAP: a command put before every run of hangdx, e.g. valgrind
# (tests/valgrind-cli.sh sets it).  $HANGDX becomes a small script that
# runs the wrapper, so "$HANGDX", sh -c strings and helpers that read
# $HANGDX from the environment all go through it.  t_wrapped tells the
# cases that measure memory or use ulimit to skip.
if [ -n "${HANGDX_WRAP:-}" ] && [ -z "${HANGDX_REAL:-}" ]; then
	HANGDX_REAL=$HANGDX
	export HANGDX_REAL
	mkdir "$T/.wrap"
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$HANGDX_WRAP" "$HANGDX_REAL" \
		> "$T/.wrap/hangdx"
	chmod +x "$T/.wrap/hangdx"
	HANGDX=$T/.wrap/hangdx
	export HANGDX
fi
t_wrapped() {
	[ -n "${HANGDX_WRAP:-}" ]
}

t_ok() {
	desc=$1
	shift
	_n=$((_n + 1))
	if "$@" > "$T/.out" 2>&1; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		sed 's/^/#   /' "$T/.out" | head -20
		_fail=$((_fail + 1))
	fi
}

# t_exit CODE DESC CMD...: CMD must exit with CODE.
t_exit() {
	want=$1
	desc=$2
	shift 2
	_n=$((_n + 1))
	"$@" > "$T/.out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc (exit $got, want $want)"
		sed 's/^/#   /' "$T/.out" | head -20
		_fail=$((_fail + 1))
	fi
}

# t_golden DESC EXPECTED ACTUAL: files must be equal.
t_golden() {
	_n=$((_n + 1))
	if cmp -s "$2" "$3"; then
		echo "ok $_n - $1"
	else
		echo "not ok $_n - $1"
		diff -u "$2" "$3" | head -30 | sed 's/^/#   /'
		_fail=$((_fail + 1))
	fi
}

t_done() {
	echo "1..$_n"
	[ "$_fail" -eq 0 ]
}
