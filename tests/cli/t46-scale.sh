#!/bin/sh
# t46-scale.sh - `diagnose` of many processes: 20,000 plogs of distinct
# processes (a rank state each) are diagnosed in bounded memory, with no
# ceiling per process reported as "out of memory"; the 100,000 case is in
# bench/scale-procs.sh.
. tests/cli/lib.sh

sh scripts/gen-plogs.sh 4097 "$T/p4097"
sh scripts/gen-plogs.sh 20000 "$T/p20000"
if t_wrapped; then
	_n=$((_n + 1))
	echo "ok $_n - 4,097 processes under 120 MB # SKIP under a wrapper"
	_n=$((_n + 1))
	echo "ok $_n - 20,000 processes under 200 MB # SKIP under a wrapper"
else
	t_exit 1 "4,097 processes under a 120 MB address-space limit" \
		sh -c "ulimit -v 120000; '$HANGDX' diagnose '$T/p4097' > /dev/null"
	(ulimit -v 200000; "$HANGDX" diagnose --json "$T/p20000") > "$T/b.json" 2> "$T/b.err"
	rc=$?
	t_ok "20,000 processes under a 200 MB address-space limit: exit 1 ($rc)" test "$rc" -eq 1
	t_ok "20,000 processes: no out of memory" sh -c "! grep -q 'out of memory' '$T/b.err'"
	t_ok "20,000 processes: the groups were cut and say so" \
		grep -q '"other states (the list of groups was cut at 4096)"' "$T/b.json"
	t_ok "20,000 processes: every process in a group" sh -c \
		"grep -o '\"ranks\": \\[[^]]*\\]' '$T/b.json' | grep -o '[0-9][0-9]*' | wc -l | grep -qx 20000"
fi
t_done
