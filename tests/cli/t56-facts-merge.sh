#!/bin/sh
# t56-facts-merge.sh - one rank's facts from two nodes, its logs not on
# the machine that diagnoses: the merged rank fact stands in for its
# devices, so each field of the union is what the diagnosis states.  The
# rank-death preset's debug directories reduced on one node, its run
# directories on another (each rank in both): the dead rank's last line is
# in its debug plog, the run half ends earlier; the time of the first
# failure (the lost rank's last line) is the latest of the halves, as in
# the single pass and in the facts of the whole, in either order.
# Then the reference at 4 ranks cut at 200 s (a job still running, no
# error line), its debug directories ending at 140 s, diagnosed with 7
# cores (so its 6 resident kernels are a stall, not an exhausted pool):
# both halves see the same 6 kernels, stalled 90 s in the debug half and
# 150 s in the run half; the union states 6 kernels (the largest count,
# never the sum: the same device seen twice) stalled 150 s (the longest).
# Last, the same devices seen twice, logs here: the reference at 40 ranks,
# the facts of every debug directory, then those of the whole bundle (the
# same debug files again, and the run files): each rank's one unreleased
# AICPU pool counts once.  Phase 2 reads again the ranks the verdict
# needs (the first 8 roots); the other ranks' pools come from facts: 40 in
# all, under the 64 start nodes of the cycle search, so no note that the
# search was cut (a sum counts those pools twice, past 64): the single
# pass's JSON byte for byte.
. tests/cli/lib.sh
cd "$T" || exit 1
H=$HANGDX

# field FILE KEY: one field of a diagnosis in JSON
field() {
	python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$1" "$2"
}
# rankfact FILE RANK KEY: one field of a rank's fact
rankfact() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("fact") == "rank" and o["rank"] == int(sys.argv[2]):
        print(o.get(sys.argv[3]))' "$1" "$2" "$3"
}

# same_but_missing A.json B.json: equal diagnoses but for the missing
# files they name (the halves name their own, a rank's first file)
same_but_missing() {
	python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for k in set(a) | set(b):
    if k != "missing":
        assert a.get(k) == b.get(k), (k, a.get(k), b.get(k))' "$1" "$2"
}

"$H" simulate -q --no-trace --preset rank-death -o rd > /dev/null 2>&1
rm -f rd/truth.json rd/waitgraph.dot
"$H" diagnose --json rd > rd.single.json 2> /dev/null
"$H" facts rd -o rd.whole.facts 2> /dev/null
"$H" facts rd/rank-*/ascend/log/debug -o rd.debug.facts 2> /dev/null
"$H" facts rd/rank-*/ascend/log/run -o rd.run.facts 2> /dev/null
lost=$(field rd.single.json root_rank)
t_ok "rank-death: the single pass names a lost rank ($lost) and a time" \
	sh -c "test '$(field rd.single.json category)' = '\"remote_rank_lost\"' &&
	       test '$(field rd.single.json first_error_time)' != null"
t_ok "the lost rank's halves end at different times (debug later than run)" \
	test "$(rankfact rd.debug.facts "$lost" last_ts)" -gt "$(rankfact rd.run.facts "$lost" last_ts)"

# the logs stay on their nodes
mv rd rd.away
"$H" diagnose --json --facts rd.whole.facts > rd.whole.json 2> /dev/null
"$H" diagnose --json --facts rd.debug.facts --facts rd.run.facts > rd.dr.json 2> /dev/null
"$H" diagnose --json --facts rd.run.facts --facts rd.debug.facts > rd.rd.json 2> /dev/null
mv rd.away rd
for k in root_rank first_failing_rank first_error_time; do
	t_ok "facts of the whole, no logs: $k as the single pass" \
		test "$(field rd.whole.json $k)" = "$(field rd.single.json $k)"
done
for o in dr rd; do
	t_ok "halves ($o), no logs: the first failure's time is the lost rank's last line" \
		test "$(field rd.$o.json first_error_time)" = "$(field rd.single.json first_error_time)"
	t_ok "halves ($o), no logs: the diagnosis of the facts of the whole" \
		same_but_missing rd.whole.json rd.$o.json
done

# the running job: 200 s in, the debug logs ending at 140 s
"$H" simulate -q --no-trace --preset reference --set ranks=4 -o st > /dev/null 2>&1
rm -f st/truth.json st/waitgraph.dot
python3 "$ROOT/tests/bundle_edit.py" upto st 200
for d in st/rank-*/ascend/log/debug; do
	python3 "$ROOT/tests/bundle_edit.py" upto "$d" 140
done
"$H" diagnose --cores 7 --json st > st.single.json 2> /dev/null
"$H" facts --cores 7 st -o st.whole.facts 2> /dev/null
"$H" facts --cores 7 st/rank-*/ascend/log/debug -o st.debug.facts 2> /dev/null
"$H" facts --cores 7 st/rank-*/ascend/log/run -o st.run.facts 2> /dev/null
field st.single.json summary > st.single.summary
t_ok "running job, 7 cores: the single pass states 6 kernels stalled 150 s on rank 0" \
	sh -c "test '$(field st.single.json category)' = '\"silent_hang\"' &&
	       grep -q 'rank 0: 6 kernels, 150 s' st.single.summary"
t_ok "rank 0's halves: 6 kernels each, stalled 90 s (debug) and 150 s (run)" \
	test "$(rankfact st.debug.facts 0 stalled) $(rankfact st.run.facts 0 stalled)" = "6 6" -a \
	     "$(rankfact st.debug.facts 0 stall_us) $(rankfact st.run.facts 0 stall_us)" = "90000000 150000000"
mv st st.away
"$H" diagnose --json --facts st.whole.facts > st.whole.json 2> /dev/null
"$H" diagnose --json --facts st.debug.facts --facts st.run.facts > st.dr.json 2> /dev/null
"$H" diagnose --json --facts st.run.facts --facts st.debug.facts > st.rd.json 2> /dev/null
mv st.away st
t_ok "running job, facts of the whole, no logs: the single pass's summary" \
	test "$(field st.whole.json summary)" = "$(field st.single.json summary)"
for o in dr rd; do
	t_ok "running job, halves ($o), no logs: 6 kernels stalled 150 s, as the single pass" \
		test "$(field st.$o.json summary)" = "$(field st.single.json summary)"
	t_ok "running job, halves ($o), no logs: the diagnosis of the facts of the whole" \
		same_but_missing st.whole.json st.$o.json
done

# the other way round, the run logs ending at 140 s: read in path order
# (debug before run), the older run-log lines must not take a kernel's
# last status back to 140 s (it said "90 s", citing a run-log line)
"$H" simulate -q --no-trace --preset reference --set ranks=4 -o sr > /dev/null 2>&1
rm -f sr/truth.json sr/waitgraph.dot
python3 "$ROOT/tests/bundle_edit.py" upto sr 200
for d in sr/rank-*/ascend/log/run; do
	python3 "$ROOT/tests/bundle_edit.py" upto "$d" 140
done
"$H" diagnose --cores 7 --json sr > sr.single.json 2> /dev/null
field sr.single.json summary > sr.single.summary
t_ok "run logs ending first: the single pass still states 6 kernels stalled 150 s" \
	grep -q 'rank 0: 6 kernels, 150 s' sr.single.summary

"$H" simulate -q --no-trace --preset reference --set ranks=40 -o dp > /dev/null 2>&1
rm -f dp/truth.json dp/waitgraph.dot
"$H" diagnose --json dp > dp.single.json 2> /dev/null
"$H" facts dp/rank-*/ascend/log/debug -o dp.debug.facts 2> /dev/null
"$H" facts dp -o dp.whole.facts 2> /dev/null
t_ok "40 ranks: each rank's debug facts and whole facts hold one unreleased pool" \
	test "$(rankfact dp.debug.facts 39 dead_pools) $(rankfact dp.whole.facts 39 dead_pools)" = "1 1"
t_ok "40 ranks: the single pass is a deadlock with no cut cycle search" \
	sh -c "test '$(field dp.single.json verdict)' = '\"deadlock\"' && ! grep -q 'first 64 start' dp.single.json"
"$H" diagnose --json --facts dp.debug.facts --facts dp.whole.facts > dp.dw.json 2> /dev/null
"$H" diagnose --json --facts dp.whole.facts --facts dp.debug.facts > dp.wd.json 2> /dev/null
t_golden "the same devices in two facts files (debug, then whole): the single pass's JSON" \
	dp.single.json dp.dw.json
t_golden "the same devices in two facts files (whole, then debug): the single pass's JSON" \
	dp.single.json dp.wd.json
t_done
