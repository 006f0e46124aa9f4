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
[ -n "$KEEP_T" ] || trap 'rm -rf "$T"' EXIT
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

# -- skips ---------------------------------------------------------------
# A check that cannot run here is reported, one TAP line per check:
#   t_skip DESC REASON      "ok N - DESC # SKIP REASON": it cannot run for a
#                           reason that is no missing tool (under a
#                           wrapper such as valgrind, as root, no disk space)
#   t_missing DESC REASON   it needs a tool the suite needs (mpirun, spin,
#                           chromium, script, man, /usr/bin/time, ...) and
#                           REASON says which is missing: a skip, but under
#                           CI (CI=true) a failure, "not ok N - DESC (...)"
# t_skip_from REASON and t_missing_from REASON skip the same way every check
# (t_ok, t_exit, t_golden, t_skip, t_missing) up to t_skip_end, without
# running its command; t_skipping says whether such a stretch is open (so a
# script can leave out the runs that feed the skipped checks).
t_ci() {
	case ${CI:-} in true|1|yes) return 0 ;; esac
	return 1
}
_skipkind=""
_skipwhy=""
t_skip_from() { _skipkind=skip; _skipwhy=$1; }
t_missing_from() { _skipkind=missing; _skipwhy=$1; }
t_skip_end() { _skipkind=""; _skipwhy=""; }
t_skipping() { [ -n "$_skipkind" ]; }
_t_skip1() { # _t_skip1 DESC REASON: one skip line
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}
_t_missing1() { # _t_missing1 DESC REASON: one skip line, under CI a failure
	_n=$((_n + 1))
	if t_ci; then
		echo "not ok $_n - $1 ($2; under CI a missing tool fails)"
		_fail=$((_fail + 1))
	else
		echo "ok $_n - $1 # SKIP $2"
	fi
}
_t_stretch() { # _t_stretch DESC: the check DESC inside a skipped stretch
	if [ "$_skipkind" = missing ]; then
		_t_missing1 "$1" "$_skipwhy"
	else
		_t_skip1 "$1" "$_skipwhy"
	fi
}
t_skip() {
	if t_skipping; then _t_stretch "$1"; else _t_skip1 "$1" "$2"; fi
}
t_missing() {
	if t_skipping; then _t_stretch "$1"; else _t_missing1 "$1" "$2"; fi
}

# t_todo DESC REASON: a known failure that a documented list keeps (the
# disagreements with a peer, tests/data/peer/ascend-fd/DISAGREE.tsv):
# "not ok N - DESC # TODO REASON", counted apart by tests/run.sh, not as a
# failure.  The caller decides it is listed; an unlisted one is a t_ok that fails.
t_todo() {
	if t_skipping; then _t_stretch "$1"; return 0; fi
	_n=$((_n + 1))
	echo "not ok $_n - $1 # TODO $2"
}

t_ok() {
	desc=$1
	shift
	if t_skipping; then _t_stretch "$desc"; return 0; fi
	_n=$((_n + 1))
	if "$@" > "$T/.out" 2>&1; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		sed 's/^/#   /' "$T/.out" | head -20
		_fail=$((_fail + 1))
	fi
}

# absent [-E] PATTERN PATH...: no line of PATH... matches PATTERN (a basic
# regular expression, -E an extended one; a directory is searched whole).
# A negative grep of output that was never written proves nothing: each
# PATH must be a non-empty file or a directory holding one, and grep must
# answer "no match" (status 1), not "cannot read" (2).  For t_ok:
#   t_ok "no colour" absent "$(printf '\033')" "$T/out.txt"
absent() {
	_ere=""
	if [ "$1" = -E ]; then _ere=-E; shift; fi
	_pat=$1
	shift
	[ $# -gt 0 ] || { echo "absent: no file given"; return 1; }
	for _p in "$@"; do
		if [ -d "$_p" ]; then
			[ -n "$(find "$_p" -type f -size +0 | head -1)" ] ||
				{ echo "absent: $_p holds no non-empty file"; return 1; }
		elif [ ! -s "$_p" ]; then
			echo "absent: $_p is missing or empty"
			return 1
		fi
	done
	grep -rq $_ere -- "$_pat" "$@"
	case $? in
	1) return 0 ;;
	0) echo "absent: found:"; grep -rn $_ere -- "$_pat" "$@" | head -5; return 1 ;;
	*) echo "absent: grep could not read all of $*"; return 1 ;;
	esac
}

# t_exit CODE DESC CMD...: CMD must exit with CODE.
t_exit() {
	want=$1
	desc=$2
	shift 2
	if t_skipping; then _t_stretch "$desc"; return 0; fi
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
	if t_skipping; then _t_stretch "$1"; return 0; fi
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
	t_skip_end
	echo "1..$_n"
	[ "$_fail" -eq 0 ]
}
