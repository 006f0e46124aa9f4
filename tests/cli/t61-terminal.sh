#!/bin/sh
# t61-terminal.sh - the terminal behaviour of diagnose and parse: a
# progress bar and colour on stderr/stdout only when they are terminals
# (run under script(1) for a pseudo-terminal), nothing of either when
# piped, and NO_COLOR and --color honoured.
. tests/cli/lib.sh
$HANGDX simulate -q --preset reference --set ranks=16 -o "$T/ref" > /dev/null 2>&1
if command -v script > /dev/null 2>&1; then
	script -qec "$HANGDX diagnose $T/ref" /dev/null > "$T/tty.out" 2>&1
	t_ok "terminal: a progress bar while reading" grep -q "files, " "$T/tty.out"
	t_ok "terminal: colour" grep -q "$(printf '\033')\[1;31m" "$T/tty.out"
	NO_COLOR=1 script -qec "$HANGDX diagnose $T/ref" /dev/null > "$T/nc.out" 2>&1
	t_ok "terminal with NO_COLOR: no colour" sh -c "! grep -q '$(printf '\033')\[1;31m' $T/nc.out"
	script -qec "$HANGDX diagnose --color=never $T/ref" /dev/null > "$T/never.out" 2>&1
	t_ok "terminal with --color=never: no colour" sh -c "! grep -q '$(printf '\033')\[1;31m' $T/never.out"
	script -qec "$HANGDX parse --summary $T/ref > /dev/null" /dev/null > "$T/parse.out" 2>&1
	t_ok "parse on a terminal: a progress bar" grep -q "files, " "$T/parse.out"
else
	for i in 1 2 3 4 5; do echo "ok $i - terminal check # SKIP script(1) not available"; done
	_n=5
fi
$HANGDX diagnose "$T/ref" > "$T/pipe.out" 2> "$T/pipe.err"
t_ok "piped: no progress bar" sh -c "! grep -q 'files, ' $T/pipe.err"
t_ok "piped: no carriage return or escape on stderr" sh -c "! grep -q '[$(printf '\r\033')]' $T/pipe.err"
t_ok "piped: no colour on stdout" sh -c "! grep -q '$(printf '\033')' $T/pipe.out"
t_done
