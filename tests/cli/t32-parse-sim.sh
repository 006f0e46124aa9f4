#!/bin/sh
# t32-parse-sim.sh - the simulator's logs parse back to the facts of its
# truth.json: for every preset, each error lands on the right rank, stream
# and task; each blocked task of a job that timed out is found at its
# (rank, stream, task) with its SQ, its notify ids per layer (runtime
# decimal, HCCL 64-bit), its peer rank, and event waits share their event
# id with the matching record; every rank maps to its host pid and device.
# Attribution comes from the rank-N/ paths and the init lines only.
. tests/cli/lib.sh
cd "$T" || exit 1

cat > check.py <<'EOF'
import json, sys
out, truthf = sys.argv[1], sys.argv[2]
t = json.load(open(truthf))
recs = [json.loads(l) for l in open(out)]
ev = [r for r in recs if r["kind"] not in
      ("file", "process", "stream", "rank", "totals")]
bad = []

def at(rank, stream, task):
    return [r for r in ev if r.get("rank") == rank and
            r.get("stream") == stream and r.get("task") == task]

def vals(rs, key):
    return {r[key] for r in rs if key in r}

for e in t["errors"]:
    if "stream_id" in e and not at(e["rank"], e["stream_id"], e["task_id"]):
        bad.append("error %s of rank %d: no record at stream %d task %d" %
                   (e["kind"], e["rank"], e["stream_id"], e["task_id"]))

# The record kinds whose lines print each field (docs/EVIDENCE.md): every
# record of such a kind at a blocked task must carry the field, so a field
# the reader lost fails; any record that carries it must carry truth's value.
CARRIERS = {
    "sq": {"tsch_timeout", "rt_timeout", "aicpu_exception"},
    "notify_rt": {"tsch_sqe", "rt_timeout"},
    "notify_hccl": {"hccl_task_fail", "ei0002"},
    "remote_rank": {"hccl_task_fail", "ei0002", "aicpu_exception"},
    "event": {"tsch_sqe"},
}

def field(b, rs, key, want, same=lambda got, want: got == want):
    carried = False
    for r in rs:
        if key in r:
            carried = True
            if not same(r[key], want):
                bad.append("blocked %s: %s %s at %s:%s, want %s" %
                           (b["label"], key, r[key], r.get("file"), r.get("line"), want))
        elif r["kind"] in CARRIERS[key]:
            bad.append("blocked %s: no %s in its %s record at %s:%s (want %s)" %
                       (b["label"], key, r["kind"], r.get("file"), r.get("line"), want))
    return carried

timed_out = any(e["kind"] == "EI0002" for e in t["errors"])
events = {}
for b in t["blocked"] if timed_out else []:
    if "stream_id" not in b:
        continue
    rs = at(b["rank"], b["stream_id"], b["task_id"])
    if not rs:
        bad.append("blocked %s: not found" % b["label"])
        continue
    if "sq_id" in b:
        field(b, rs, "sq", b["sq_id"])
    if "notify_id" in b:
        field(b, rs, "notify_rt", b["notify_id"])
    if "notify_hccl_id" in b:
        field(b, rs, "notify_hccl", b["notify_hccl_id"])
    if "peer" in b and b["peer"] >= 0:
        # a record may say it does not know the peer (-1)
        field(b, rs, "remote_rank", b["peer"], lambda got, want: got in (want, -1))
    if "event" in b:
        # truth names the event, the logs number it: one number per task
        field(b, rs, "event", b["event"], lambda got, want: True)
        ids = vals(rs, "event")
        if len(ids) != 1:
            bad.append("blocked %s: event ids %s" % (b["label"], ids))
        else:
            events.setdefault((b["rank"], b["event"]), set()).update(ids)
for (rank, name), ids in events.items():
    if len(ids) != 1:
        bad.append("event %s of rank %d: wait and record disagree: %s" % (name, rank, ids))

ranks = [r for r in recs if r["kind"] == "rank"]
for r in t["ranks"]:
    mine = [x for x in ranks if x["pid"] == r["host_pid"]]
    if not mine or {x["rank"] for x in mine} != {r["rank"]} or \
       {x["device"] for x in mine} != {r["device"]}:
        bad.append("rank %d (pid %d, device %d): evidence %s" %
                   (r["rank"], r["host_pid"], r["device"],
                    [(x["rank"], x["device"]) for x in mine]))
fe = t.get("first_error") or {}
task = fe.get("task") or {}
if "notify_id" in task:
    rs = at(task["rank"], task["stream_id"], task["task_id"])
    if task["notify_id"] not in vals(rs, "notify_rt") or \
       task["notify_hccl_id"] not in vals(rs, "notify_hccl"):
        bad.append("first error: notify ids %s / %s, want %s / %s" %
                   (vals(rs, "notify_rt"), vals(rs, "notify_hccl"),
                    task["notify_id"], task["notify_hccl_id"]))
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
EOF

# training-hang at debug level: the evidence of the hang under 2,000 healthy
# steps (folded kernel runs, the runtime's completion trace)
for p in reference rank-death mismatch link-error slow-rank healthy clock-skew \
	training-hang; do
	level=info
	[ "$p" = training-hang ] && level=debug
	"$HANGDX" simulate -q -p "$p" --set log_level=$level -o "$p" > /dev/null 2>&1
	if [ ! -f "$p/truth.json" ]; then
		t_ok "simulate $p writes truth.json" false
		continue
	fi
	"$HANGDX" parse --json "$p" > "$p.jsonl" 2> "$p.err"
	t_ok "preset $p: evidence matches truth.json" python3 check.py "$p.jsonl" "$p/truth.json"
done
t_done
