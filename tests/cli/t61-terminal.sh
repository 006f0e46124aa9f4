#!/bin/sh
# t61-terminal.sh - the terminal behaviour of diagnose and parse: a
# progress bar and colour on stderr/stdout only when they are terminals
# (run under script(1) for a pseudo-terminal), nothing of either when
# piped, and NO_COLOR and --color honoured.
. tests/cli/lib.sh
$HANGDX simulate -q --preset reference --set ranks=16 -o "$T/ref" > /dev/null 2>&1
# the terminal checks need script(1) (bsdutils): skips without it,
# failures under CI
command -v script > /dev/null 2>&1 || t_missing_from "script(1) not installed (bsdutils)"
tty() { # tty NAME CMD: run the shell command CMD on a pseudo-terminal
	t_skipping || script -qec "$2" /dev/null > "$T/$1.out" 2>&1
}
tty tty "$HANGDX diagnose $T/ref"
t_ok "terminal: a progress bar while reading" grep -q "files, " "$T/tty.out"
t_ok "terminal: colour" grep -q "$(printf '\033')\[1;31m" "$T/tty.out"
NO_COLOR=1 tty nc "$HANGDX diagnose $T/ref"
t_ok "terminal with NO_COLOR: no colour" sh -c "test -s $T/nc.out && ! grep -q '$(printf '\033')\[1;31m' $T/nc.out"
tty never "$HANGDX diagnose --color=never $T/ref"
t_ok "terminal with --color=never: no colour" sh -c "test -s $T/never.out && ! grep -q '$(printf '\033')\[1;31m' $T/never.out"
tty parse "$HANGDX parse --summary $T/ref > /dev/null"
t_ok "parse on a terminal: a progress bar" grep -q "files, " "$T/parse.out"
t_skip_end
$HANGDX diagnose "$T/ref" > "$T/pipe.out" 2> "$T/pipe.err"
t_ok "piped: no progress bar" sh -c "! grep -q 'files, ' $T/pipe.err"
t_ok "piped: no carriage return or escape on stderr" sh -c "! grep -q '[$(printf '\r\033')]' $T/pipe.err"
t_ok "piped: no colour on stdout" absent "$(printf '\033')" "$T/pipe.out"
t_done
