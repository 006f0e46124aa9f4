#!/bin/sh
# t24-formats.sh - the vendor's own lines that speak of a timeout
# (tests/data/formats.tsv: every HCCL, runtime and driver error or warning
# format string, and every torch_npu and vllm-ascend error, warning or
# exception message, that says "timeout", "time out" or "timed out", with
# what it means), each printed as its plog or console line and read by
# diagnose:
# tests/format_sweep.py holds a wait that ran out to a hang, a timeout
# setting refused to no hang, and nothing of them to "no hang" otherwise.
# The sweep must be able to fail: a copy with a wait's meaning turned
# into a setting is a miss.
. tests/cli/lib.sh
python3 tests/format_sweep.py check "$HANGDX" tests/data/formats.tsv | sed 's/^1\.\.[0-9]*$//'
grep -m1 -P '\twait\t-\t.*\tKFC timeout' tests/data/formats.tsv |
	sed 's/\twait\t/\tsetting\t/' > "$T/flip.tsv"
t_ok "the sweep counts a wait turned into a setting as a miss" \
	sh -c "python3 tests/format_sweep.py check '$HANGDX' '$T/flip.tsv' | grep -q '^not ok 1 '"
t_done
