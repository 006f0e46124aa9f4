# scripts/regen-lib.sh - sourced by the scripts that rewrite goldens
# (scripts/regen-golden.sh, regen-diagnose-golden.sh, regen-field-golden.sh,
# tests/browser/regen-html-golden.sh).  A golden is a verdict someone
# signs, so nothing is written unless every run went as it must:
#
#   regen_begin NAME          NAME for messages; $STAGE, an empty staging
#                             tree mirroring the repository
#   regen_run WANT WHAT OUT CMD...
#                             run CMD, stdout to OUT; its exit status must be
#                             one of WANT ("0 1 5"), else the script stops
#                             with "NAME: WHAT: exit N, want ..." (a crash
#                             says its signal) and writes nothing; the
#                             status is left in $REGEN_STATUS
#   regen_refuse WHAT MESSAGE stop the same way for another reason
#   regen_install             copy $STAGE into the repository and show what
#                             changed: git diff --stat and git diff of each
#                             golden whose bytes changed, the new ones listed
#
# The exit status of hangdx: 0 no hang, 1 hang (or a failure that may be
# one), 5 undecided are answers; 2 usage, 3 bad input, 4 system error and a
# crash (128 and up) are not.  Sourced from the repository's root.

regen_begin() {
	REGEN=$1
	REGEN_TMP=$(mktemp -d)
	STAGE=$REGEN_TMP/stage
	mkdir -p "$STAGE"
	trap 'rm -rf "$REGEN_TMP"' EXIT
	trap 'exit 1' HUP INT TERM
}

regen_refuse() {
	echo "$REGEN: $1: $2; no golden written" >&2
	exit 1
}

regen_run() {
	_want=$1
	_what=$2
	_out=$3
	shift 3
	"$@" > "$_out" 2> "$REGEN_TMP/stderr"
	_st=$?
	# shellcheck disable=SC2034 # read by the scripts that source this
	REGEN_STATUS=$_st
	for _w in $_want; do
		[ "$_st" -eq "$_w" ] && return 0
	done
	_why=""
	[ "$_st" -ge 128 ] && _why=" (crashed: signal $((_st - 128)))"
	echo "$REGEN: $_what: exit $_st$_why, want $(echo "$_want" | sed 's/ /, /g'); no golden written" >&2
	sed -n '1,10s/^/  /p' "$REGEN_TMP/stderr" >&2
	exit 1
}

regen_install() {
	_changed=""
	_new=""
	for _f in $(cd "$STAGE" && find . -type f | sed 's|^\./||' | sort); do
		if [ ! -f "$_f" ]; then
			_new="$_new $_f"
		elif cmp -s "$STAGE/$_f" "$_f"; then
			continue
		else
			_changed="$_changed $_f"
		fi
		mkdir -p "$(dirname "$_f")"
		cp "$STAGE/$_f" "$_f"
	done
	_n=$(cd "$STAGE" && find . -type f | wc -l)
	if [ -z "$_changed$_new" ]; then
		echo "$REGEN: $_n goldens rewritten, none changed"
		return 0
	fi
	echo "$REGEN: $_n goldens rewritten; changed:"
	if [ -n "$_changed" ] && git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		# shellcheck disable=SC2086
		git --no-pager diff --stat -- $_changed
		# shellcheck disable=SC2086
		git --no-pager diff -- $_changed
	elif [ -n "$_changed" ]; then
		echo "  (not a git work tree:$_changed)"
	fi
	for _f in $_new; do
		echo "new golden: $_f ($(wc -l < "$_f") lines)"
	done
	echo "$REGEN: review every change above before committing it"
}
