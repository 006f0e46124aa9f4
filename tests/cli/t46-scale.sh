#!/bin/sh
# t46-scale.sh - `diagnose` of many processes: 20,000 plogs of distinct
# processes (a rank state each) are diagnosed in bounded memory, with no
# ceiling per process reported as "out of memory"; the 100,000 case is in
# bench/scale-procs.sh.
. tests/cli/lib.sh

sh scripts/gen-plogs.sh 4097 "$T/p4097"
sh scripts/gen-plogs.sh 20000 "$T/p20000"
# the address-space limits measure memory: not under ASan (its shadow
# memory needs more) or a wrapper such as valgrind; the answer is checked
# either way
asan=false
grep -qa __asan_init "${HANGDX_REAL:-$HANGDX}" && asan=true
if $asan || t_wrapped; then
	lim4=unlimited lim20=unlimited
else
	lim4=120000 lim20=200000
fi
t_exit 1 "4,097 processes under an address-space limit of $lim4 KiB" \
	sh -c "ulimit -v $lim4; '$HANGDX' diagnose '$T/p4097' > /dev/null"
(ulimit -v $lim20; "$HANGDX" diagnose --json "$T/p20000") > "$T/b.json" 2> "$T/b.err"
rc=$?
t_ok "20,000 processes under an address-space limit of $lim20 KiB: exit 1 ($rc)" test "$rc" -eq 1
t_ok "20,000 processes: no out of memory" sh -c "! grep -q 'out of memory' '$T/b.err'"
t_ok "20,000 processes: the groups were cut and say so" \
	grep -q '"other states (the list of groups was cut at 4096)"' "$T/b.json"
t_ok "20,000 processes: every process in a group" sh -c \
	"grep -o '\"ranks\": \\[[^]]*\\]' '$T/b.json' | grep -o '[0-9][0-9]*' | wc -l | grep -qx 20000"
t_done
