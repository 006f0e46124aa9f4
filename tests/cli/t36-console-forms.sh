#!/bin/sh
# t36-console-forms.sh - console output as people paste it: every hang
# excerpt of tests/data/samples/field (line 3 says hang=yes) written behind
# every launcher prefix of docs/EVIDENCE.md ("Console envelope"), with
# CRLF line ends, hard-wrapped at 80 columns, as Markdown list items or
# inline code, with a web page's no-break spaces, with trailing blanks and
# mixes of these, must give
# (a) `parse --json` the same record kinds and ids, in order, and (b)
# `diagnose --json` the same hang decision, category and ids as the file
# itself.  Ranks are compared only for the forms that name none: a
# "[rank7]:" prefix names rank 7, and then a rank the diagnosis names is
# 7 or the one it names without the prefix.  The work is in
# console-forms.py (one run per excerpt).
. tests/cli/lib.sh
F=$DATA/samples/field
H=tests/cli/console-forms.py

n=0
for f in "$F"/*.log; do
	sed -n 3p "$f" | grep -q 'hang=yes' || continue
	n=$((n + 1))
	t_ok "$(basename "$f" .log): $(python3 $H forms | wc -l) forms, same records and diagnosis" \
		python3 $H check "$HANGDX" "$f" "$T"
done
t_ok "hang excerpts found ($n)" test "$n" -ge 8

# the rank of a "[rank3]:" line is the record's, from the console
t_ok "[rankN]: names the global rank" sh -c "
	printf '[rank3]: EI0002: [PID: 7] 2025-06-25-10:45:23.586.187 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4].base information: [streamID:[14], taskID[6], tag[AllReduce_1].]\n' > '$T/r.log' &&
	'$HANGDX' parse --json '$T/r.log' | grep '\"kind\":\"ei0002\"' | grep -q '\"rank\":3,\"rank_from\":\"console\"'"

# a line of exactly 80 columns goes on with the next, unless that one is a
# line a shell or Python starts on its own
l80='E1205 12:00:00.123456 4242 hccl_comm.cc:120] HcclCommInitRootInfo failed ret 7 x'
for tail in 'Segmentation fault (core dumped)' 'RuntimeError: HCCL init failed' \
	'torch.distributed.DistBackendError: HCCL error'; do
	t_ok "an 80-column line then '$tail': two records" sh -c "
		printf '%s\n%s\n' '$l80' '$tail' > '$T/w.log' && test \$(printf '%s' '$l80' | wc -c) -eq 80 &&
		'$HANGDX' parse '$T/w.log' | grep -q '^$T/w.log:2: coded'"
done
t_ok "an 80-column line then its tail: one line" sh -c "
	printf '%s\n%s\n' '$l80' 'yz and more of the same message' > '$T/w.log' &&
	'$HANGDX' parse '$T/w.log' | grep -q 'ret 7 xyz and more'"
t_ok "an 80-column line then a tail cut inside a class name: one line" sh -c "
	printf '%s\n%s\n' '$l80' 'untimeError: and more' > '$T/w.log' &&
	'$HANGDX' parse '$T/w.log' | grep -q 'ret 7 xuntimeError: and more'"
# a device message a reporter wrapped by hand, quoted: "> " before every
# piece; the pieces go on behind the first's envelope, never another's
dev1='The error from device(chipId:0, dieId:0), serial number is 7,'
dev2='hccl fftsplus task timeout occurred during task execution,'
dev3='stream_id:9, sq_id:9, task_id:12, stuck notify num:1, timeout=1836s.'
dev4='[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1788]'
t_ok "a quoted hand-wrapped device message: one message, its stream" sh -c "
	printf '> %s\n' '$dev1' '$dev2' '$dev3' '$dev4' > '$T/q.log' &&
	'$HANGDX' diagnose --json '$T/q.log' > '$T/q.json';
	grep -q '\"category\": \"fftsplus_timeout\"' '$T/q.json' &&
	grep -q '\"stream\": 9' '$T/q.json'"
t_ok "pieces behind two ranks' prefixes: not one message" sh -c "
	printf '[rank1]: %s\n[rank2]: %s\n[rank1]: %s\n' '$dev1' '$dev2' '$dev3' > '$T/q.log' &&
	'$HANGDX' parse '$T/q.log' > '$T/q.txt' && grep -q '^$T/q.log:1: ' '$T/q.txt' &&
	! grep -q 'stream=9' '$T/q.txt'"
t_done
