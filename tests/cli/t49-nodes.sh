#!/bin/sh
# t49-nodes.sh - many nodes, one local path: every node keeps its logs at
# the same local path (var/npu), as a job laid out per node does.  Each
# node's tree is copied in turn to that one path and reduced there by
# `hangdx facts` (named with --node, and unnamed: then every node is this
# machine and two copies of one path must still be told apart), and the
# facts files are diagnosed in every order: verdict, category, root,
# roots, first failing rank and the ranks "without logs" equal the single
# pass over the collected tree.  Same pids on every node (containers) and
# distinct pids both.  Then the same under mpirun, a process a node.
. tests/cli/lib.sh
H=$HANGDX

# the mismatch preset at 8 ranks, 2 a node, the mismatched rank 5
cat > "$T/mm8.yaml" <<'EOF'
name: mm8
cluster:
  ranks: 8
  ranks_per_node: 2
communicators:
  - name: world
program:
  - repeat:
      count: 4
      steps:
        - aicore: {stream: compute, name: MatMulV2, duration: 5ms}
        - event_record: {stream: compute, event: grads}
        - event_wait: {stream: comm, event: grads}
        - allreduce: {stream: comm, comm: world, bytes: 8MiB, dtype: fp16}
  - host_sync: all
faults:
  - mismatch: {rank: 5, op: 2, type: allgather}
EOF

# what the comparison reads of a diagnosis: one line per JSON file given
# (one python run for many: its start costs more than a diagnosis)
summary() {
	python3 - "$@" <<'EOF'
import json, sys
for p in sys.argv[1:]:
    try:
        d = json.load(open(p))
        print(d["verdict"], d["category"], d["root_rank"], d["roots"],
              d["first_failing_rank"],
              sorted(m for m in d["missing"] if "no logs" in m or "without logs" in m))
    except Exception as e:
        print("unreadable", p, e)
EOF
}

# the permutations of the arguments, one a line
perms() {
	python3 -c 'import itertools, sys
for p in itertools.permutations(sys.argv[1:]): print(" ".join(p))' "$@"
}

# case NAME SIMULATE-ARGS...: simulate per node, reduce each node at one
# path, compare every order (or the first 2 orders when
# ORDERS=some)
run_case() {
	name=$1
	shift
	"$H" simulate -q "$@" --layout node -o "$T/$name" > /dev/null 2>&1
	"$H" diagnose --json "$T/$name" > "$T/$name.single.json" 2> /dev/null
	summary "$T/$name.single.json" > "$T/$name.single"
	nodes=""
	for d in "$T/$name"/host-*; do
		n=${d##*/}
		rm -rf "$T/var"
		mkdir -p "$T/var"
		cp -r "$d/ascend" "$T/var/npu"
		(cd "$T" && "$H" facts --node "$n" var/npu -o "$name.$n.named.facts" 2> /dev/null)
		(cd "$T" && "$H" facts var/npu -o "$name.$n.same.facts" 2> /dev/null)
		nodes="$nodes $n"
	done
	# shellcheck disable=SC2086
	perms $nodes > "$T/$name.orders"
	[ "${ORDERS:-all}" = some ] && head -n 2 "$T/$name.orders" > "$T/o" && mv "$T/o" "$T/$name.orders"
	for how in named same; do
		k=0
		while read -r order; do
			args=""
			for n in $order; do args="$args $name.$n.$how.facts"; done
			k=$((k + 1))
			# shellcheck disable=SC2086
			(cd "$T" && "$H" diagnose --json --facts $args > "$name.$how.$k.json" 2> "$name.$how.$k.err")
		done < "$T/$name.orders"
		i=1 files=""
		while [ $i -le $k ]; do files="$files $T/$name.$how.$i.json"; i=$((i + 1)); done
		# shellcheck disable=SC2086
		summary $files > "$T/$name.$how.sum"
		bad=$(grep -cvxF "$(cat "$T/$name.single")" "$T/$name.$how.sum")
		[ "$bad" -eq 0 ] || { echo "# $how:"; sort -u "$T/$name.$how.sum" | sed 's/^/#   /'; sed 's/^/# want /' "$T/$name.single"; }
		t_ok "$name: facts per node at one path ($how), $k orders: the single pass's answer" [ "$bad" -eq 0 ]
		warned=$(grep -l "held already with other content" "$T/$name".$how.*.err | wc -l)
		case $how.$name in
		same.*-same) t_ok "$name: unnamed nodes' copies of one path are said and kept" [ "$warned" -eq "$k" ];;
		esac
	done
}

run_case mm8-same "$T/mm8.yaml" --set same_pids=true
ORDERS=some run_case mm8 "$T/mm8.yaml"
run_case death-same --preset rank-death --set ranks_per_node=2 --set same_pids=true
run_case link-same --preset link-error --set same_pids=true
ORDERS=some run_case ref-same --preset reference --set ranks=8 --set ranks_per_node=2 --set same_pids=true

# the facts name their node; the same pids on two nodes stay two processes
t_ok "facts name the node they were made on" \
	grep -q '"node":"host-1"' "$T/mm8-same.host-1.named.facts"
(cd "$T" && "$H" diagnose --json --facts mm8-same.host-0.named.facts \
	mm8-same.host-1.named.facts > two.json 2> /dev/null)
t_ok "two nodes of the same pids: four processes, no rank without logs" \
	python3 -c "import json,sys; d=json.load(open('$T/two.json')); r={x['rank']:x for x in d['ranks']}; sys.exit(0 if all(r[i]['state']!='no logs' for i in range(4)) else 1)"
t_exit 2 "--node refuses a name with ':'" "$H" facts --node a:b "$T/var/npu" -o "$T/x.facts"

# under mpirun: one process a node, each in its own working directory
# holding that node's logs at the same relative path (as every node's
# /var/log/npu), in two orders of the nodes
if [ -n "${HANGDX_WRAP:-}" ]; then
	t_skip_from "mpirun: under a wrapper"
elif ! command -v mpirun > /dev/null 2>&1; then
	t_missing_from "mpirun not installed (openmpi-bin)"
elif "$H" diagnose --mpi "$T/var/npu" 2>&1 | grep -q "built without MPI"; then
	t_missing_from "hangdx built without MPI (no mpicc: libopenmpi-dev)"
fi
root=""
[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
for n in 0 1 2 3; do
	mkdir -p "$T/mpi/host-$n/var"
	cp -r "$T/mm8-same/host-$n/ascend" "$T/mpi/host-$n/var/npu"
done
for order in "0 1 2 3" "3 1 0 2"; do
	set --
	for n in $order; do
		[ $# -gt 0 ] && set -- "$@" :
		set -- "$@" -np 1 --wdir "$T/mpi/host-$n" "$H" diagnose --mpi \
			--mpi-share all --json var/npu
	done
	t_skipping || timeout 120 mpirun $root --oversubscribe "$@" > "$T/mpi.json" 2> "$T/mpi.err"
	t_skipping || summary "$T/mpi.json" > "$T/mpi.sum" 2> /dev/null
	t_ok "mpirun, a process a node at one path (order $order): the single pass's answer" \
		cmp -s "$T/mm8-same.single" "$T/mpi.sum"
done
t_skip_end
t_done
