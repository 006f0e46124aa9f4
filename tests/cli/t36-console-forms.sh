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
# an error-manager block in Markdown's bold, its body indented, quoted
# line by line: the quote marks go before the bold and the indentation
# are read, so the block reads as it does unquoted
cat > "$T/blk.log" <<'EOF'
RuntimeError: ACL stream synchronize failed.
**EL0004: 2025-01-31-08:23:58.845.175 Failed to allocate memory.
        Possible Cause: Available memory is insufficient.
        TraceBack (most recent call last):
        The error from device(chipId:7, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:6, sq_id:6, task_id:9035, event_id=1522, timeout=1868.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1491]
        Task execute failed, device_id=7, stream_id=6, task_id=9035, flip_num=720, task_type=3(EVENT_WAIT).[FUNC:GetError][FILE:stream.cc][LINE:1082]**
EOF
sed 's/^/> /' "$T/blk.log" > "$T/blkq.log"
sed 's/^/>/' "$T/blk.log" > "$T/blkt.log"
cat_of() { "$HANGDX" diagnose --json "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["hang"], d["category"])'; }
t_ok "a bold, indented block: an event wait that ran out" \
	test "$(cat_of "$T/blk.log")" = "True event_wait_chain"
t_ok "the same block quoted with '> ' reads the same" test "$(cat_of "$T/blkq.log")" = "$(cat_of "$T/blk.log")"
t_ok "the same block quoted with '>' reads the same" test "$(cat_of "$T/blkt.log")" = "$(cat_of "$T/blk.log")"
# the same block after a traceback's code line (indented further), the
# paste indented as a whole by four blanks or a tab: the paste's own
# indentation is the smaller one, so the block reads as it does unindented
{ printf '%s\n' '    cuda_grad_buffer = grad_buffer.to(grad_partition.device, non_blocking=True)'; cat "$T/blk.log"; } > "$T/code.log"
sed 's/^/    /' "$T/code.log" > "$T/code4.log"
sed 's/^/\t/' "$T/code.log" > "$T/codet.log"
t_ok "a code line, then the block: an event wait that ran out" \
	test "$(cat_of "$T/code.log")" = "True event_wait_chain"
t_ok "the same indented by four blanks reads the same" test "$(cat_of "$T/code4.log")" = "$(cat_of "$T/code.log")"
t_ok "the same indented by a tab reads the same" test "$(cat_of "$T/codet.log")" = "$(cat_of "$T/code.log")"
# and inside a Markdown fence at the margin: the fence is not the paste's
# text, the indentation is still taken off
{ echo '```text'; cat "$T/code4.log"; echo '```'; } > "$T/codef.log"
t_ok "the same indented inside a fence reads the same" test "$(cat_of "$T/codef.log")" = "$(cat_of "$T/code.log")"
# the block as grep -n prints it ("3:**EL0004: ..."): the bold after
# grep's line number goes too
awk '{ print NR ":" $0 }' "$T/blk.log" > "$T/blkn.log"
t_ok "the bold block behind grep -n's numbers reads the same" test "$(cat_of "$T/blkn.log")" = "$(cat_of "$T/blk.log")"

# a device log's error line that a page wrapped after its source location,
# with the blanks a paste left at each line's end: one message, as without
printf '%s\n' '[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012' \
	'bs_done_exception_proc_timeout' ': slot_id=1,TS_ctrl=0x4,exception_core_list=0x0,AI_CORES_COUNT=2,' 'fault_task=0' > "$T/tsw.log"
sed 's/$/   /' "$T/tsw.log" > "$T/tswt.log"
t_ok "a wrapped device line: a device task that ran out of time" \
	test "$(cat_of "$T/tsw.log")" = "True device_timeout"
t_ok "the same with blanks at the lines' ends reads the same" \
	test "$(cat_of "$T/tswt.log")" = "$(cat_of "$T/tsw.log")"

# the same behind a launcher's label on every line (srun --label, Open
# MPI's --tag-output, torchrun --tee): the block's body keeps its
# indentation after the label, its bold goes after it, and the wrapped
# device line goes on behind the same label
for pre in '0: ' '[1,0]<stdout>:' '[default0]:'; do
	sed "s/^/$pre/" "$T/blk.log" > "$T/blkl.log"
	t_ok "the bold block behind '$pre' reads the same" \
		test "$(cat_of "$T/blkl.log")" = "$(cat_of "$T/blk.log")"
	sed "s/^/$pre/" "$T/tsw.log" > "$T/tswl.log"
	t_ok "the wrapped device line behind '$pre' reads the same" \
		test "$(cat_of "$T/tswl.log")" = "$(cat_of "$T/tsw.log")"
done
# a logger's time after a label is the line's clock: the silence before a
# failure is measured by it
S=$DATA/../field/sglang-11057-910b3-deepseek-r1-1.5b-warmup-no-response.log
grep -v '^# ' "$S" > "$T/sil.log"
sed 's/^/0: /' "$T/sil.log" > "$T/sill.log"
t_ok "a silence, then a failure: a hang (inferred)" test "$(cat_of "$T/sil.log")" = "True unknown"
t_ok "the same behind srun's label reads the same" test "$(cat_of "$T/sill.log")" = "$(cat_of "$T/sil.log")"

t_done
