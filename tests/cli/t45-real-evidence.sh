#!/bin/sh
# t45-real-evidence.sh - the reference incident proven from evidence real
# logs hold: the simulator's invented lines reworded or removed change
# nothing; at the default log level the device run log's kernel status
# lines prove it; without them the holders are inferred (from the TS
# dumps, then from the configuration), with the assumption stated; the
# chain starts at the first error.
. tests/cli/lib.sh

python3 tests/rewrite_invented.py "$HANGDX" "$T/rw" reference rank-death link-error \
	mismatch slow-rank training-hang > "$T/rw.tap" 2>&1
rc=$?
# rewrite_invented.py exits 1 when a preset fails (and so does a crash of it)
t_ok "invented lines reworded or removed: the same verdict, roots and chain (exit $rc)" \
	sh -c "test $rc -eq 0 && ! grep -q '^not ok' $T/rw.tap && test \$(grep -c '^ok' $T/rw.tap) -eq 6"
grep '^not ok' -A8 "$T/rw.tap" | head -30

# full fidelity at log level error (the default level of a collection):
# the device run log's status lines prove who holds the cores
$HANGDX simulate -q --preset reference --set log_level=error -o "$T/fe" > /dev/null 2>&1
$HANGDX diagnose --json "$T/fe" > "$T/fe.json"
t_ok "error level: AICPU exhaustion deadlock, proven, the chain from the first error" python3 -c "
import json; d=json.load(open('$T/fe.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and d['proven'], (d['category'], d['proven'], d['summary'])
ff=d['first_failure']; h=d['chain'][0]
assert (h['rank'], h['stream_id'], h['task_id'])==(ff['rank'], ff['stream_id'], ff['task_id']), (h, ff)
assert [h['kind'] for h in d['chain']]==['NOTIFY_WAIT','NOTIFY_RECORD','EVENT_WAIT','EVENT_RECORD','AICPU','AICPU_POOL','KERNEL_HCCL'], d['chain']"
t_ok "error level: the kernel hop cites the run log's status line" python3 -c "
import json; d=json.load(open('$T/fe.json'))
k=[h for h in d['chain'] if h['kind']=='KERNEL_HCCL'][0]
assert '/run/device-' in k['evidence'], k"
t_ok "error level: no danger-zone warning beside the verdict, its cause a note" python3 -c "
import json; d=json.load(open('$T/fe.json'))
assert not any('Danger zone' in w for w in d['warnings']), d['warnings']
assert any('this deadlock' in n for n in d['notes']), d['notes']"

# verified fidelity at log level error: no invented line at all; the dumps
# print no notify id, but HCCL's failed-task block says the first wait's
# notify is local and one dumped stream alone can hold its record: proven,
# the elimination said in a note
$HANGDX simulate -q --preset reference --log-fidelity verified --set log_level=error \
	-o "$T/ve" > /dev/null 2>&1
$HANGDX diagnose --json "$T/ve" > "$T/ve.json"
t_ok "verified lines: the same category and chain, proven, the record's stream by elimination" python3 -c "
import json; d=json.load(open('$T/ve.json')); f=json.load(open('$T/fe.json'))
key=lambda d: [(h['kind'], h['rank'], h.get('stream_id'), h.get('task_id')) for h in d['chain']]
assert d['category']==f['category'] and key(d)==key(f), (d['category'], key(d), key(f))
assert d['proven'] and 'whose id the TS dump does not print' not in d['summary'], d['summary']
assert any('says that notify is local, and stream 3 is the one stream' in n for n in d['notes']), d['notes']
k=[h for h in d['chain'] if h['kind']=='KERNEL_HCCL'][0]
assert '/run/device-' in k['evidence'], k"

# twins: a second dumped stream that holds notify records and is not stuck
# at a notify wait (either may hold the record), or no line saying the
# notify is local: the link is inferred again, the assumption stated
cp -r "$T/ve" "$T/v2"
cat >> "$(ls "$T"/v2/rank-0/ascend/log/debug/device-0/*.log)" <<'EOF'
[ERROR] TSCH(-1,null):2026-11-01-07:30:36.000.300 1099 (dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=90, type=0, sq_pid=100003
################################################################
stream_id=99, rtsq_id=90, sq_fsm=0x9, cur_wait_time=1836, head=0, tail=2, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=0, cq_tail=0, pid=100003, vf_id=0, is_mc2_sq=0
stream_id=99, overflow_en=0, ge_op_tag=4294967295, has_overflow=0
pos=0: stream_id=99, task_id=0, sqe_type=0, FFTS
pos=1: stream_id=99, task_id=1, sqe_type=6
################################################################
EOF
cp -r "$T/ve" "$T/v3"
sed -i 's/, remote rank:\[local\]//; s/Waiting peer rank: 4294967295; //; s/rankId\[0 4294967295\]/rankId[0]/' \
	"$T"/v3/rank-0/ascend/log/debug/plog/*.log
for v in v2 v3; do $HANGDX diagnose --json "$T/$v" > "$T/$v.json"; done
t_ok "verified lines, two streams that may hold the record: inferred, the assumption stated" python3 -c "
import json; d=json.load(open('$T/v2.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and not d['proven'], (d['category'], d['proven'])
assert 'whose id the TS dump does not print' in d['summary'], d['summary']"
t_ok "verified lines, no line says the notify is local: inferred, the assumption stated" python3 -c "
import json; d=json.load(open('$T/v3.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and not d['proven'], (d['category'], d['proven'])
assert 'whose id the TS dump does not print' in d['summary'], d['summary']"

# without the device run log: the holders inferred from the TS dumps
rm -rf "$T/ve"/rank-*/ascend/log/run/device-*
$HANGDX diagnose --json "$T/ve" > "$T/vd.json"
t_ok "no device run log: the deadlock inferred, the assumption stated" python3 -c "
import json; d=json.load(open('$T/vd.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and not d['proven'], (d['category'], d['proven'])
assert 'are HCCL kernels holding the AICPU cores' in d['summary'] and 'WaitFinishWhileLoop' in d['summary'], d['summary']
assert any('device run log' in m for m in d['missing']), d['missing']
assert d['chain'][0]['kind']=='NOTIFY_WAIT' and d['chain'][-2]['kind']=='AICPU_POOL', d['chain']"
t_ok "no device run log: the fix is not 'collect INFO logs'" python3 -c "
import json; d=json.load(open('$T/vd.json'))
assert not any('INFO logs' in f for f in d['fixes']), d['fixes']"

# nor the kernels' streams in the dumps: inferred from the configuration
python3 - "$T/ve" <<'EOF'
import glob, re, sys
for f in glob.glob(sys.argv[1] + '/**/device-*.log', recursive=True):
    out, blk = [], None
    for ln in open(f).read().split('\n'):
        if 'stars_wait_sqe_is_timeout' in ln:
            blk, hashes = [ln], 0
            continue
        if blk is not None:
            blk.append(ln)
            if ln.startswith('####'):
                hashes += 1
                if hashes == 2:
                    pos = [x for x in blk if x.startswith('pos=')]
                    if not (len(pos) == 1 and re.search(r'sqe_type=1(,|$)', pos[0])):
                        out += blk
                    blk = None
            continue
        out.append(ln)
    open(f, 'w').write('\n'.join(out))
EOF
$HANGDX diagnose --json "$T/ve" > "$T/vc.json"
t_ok "no kernel streams either: inferred from the configuration, both ranks roots" python3 -c "
import json; d=json.load(open('$T/vc.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and not d['proven'], (d['category'], d['proven'])
assert 'op retry in AI_CPU mode keeps it' in d['summary'], d['summary']
assert 'ascend/log/run/device-N/' in d['summary'], d['summary']
assert d['roots']==[0, 1], d['roots']
k=[h['kind'] for h in d['chain']]
assert k[0]=='NOTIFY_WAIT' and 'AICPU_POOL' in k and 'AICPU' in k, d['chain']
assert not any('INFO logs' in f for f in d['fixes']), d['fixes']"

# the configuration rule's three conditions, each taken away on a copy of
# that bundle (tests/mutations.tsv: infer-retry-on, infer-need-mains,
# infer-aicpu-timed-out): no kernel is placed from the configuration (a
# stream named M_kernel is a kernel's main stream) when the plogs echo
# retry off, or when fewer main streams wait than there are free cores;
# and a rank whose AICPU operator timed out (so it had a core) is no root
cp -r "$T/ve" "$T/vr"
sed -i 's/\[L0:1,L1:1,L2:0\]/[L0:0,L1:0,L2:0]/' "$T"/vr/rank-*/ascend/log/run/plog/*.log
$HANGDX diagnose --json "$T/vr" > "$T/vr.json"
t_ok "retry echoed off: no kernel placed from the configuration" python3 -c "
import json; d=json.load(open('$T/vr.json'))
assert d['category']!='aicpu_exhaustion_deadlock', d['category']
assert d['chain'] and not any('M_kernel' in h['what'] or h['kind']=='AICPU_POOL' for h in d['chain']), d['chain']"
t_ok "retry echoed off: the fix does not ask whether retry is on" python3 -c "
import json; d=json.load(open('$T/vr.json'))
assert not any('If HCCL op retry is on' in f for f in d['fixes']), d['fixes']
assert any('echo HCCL op retry off' in f for f in d['fixes']), d['fixes']"
cp -r "$T/ve" "$T/vm"
# keep stream 6 and one more of the main streams waiting on a notify at
# their heads: 2 of them against 6 free cores
python3 - "$T/vm" <<'EOF'
import glob, re, sys
for f in glob.glob(sys.argv[1] + '/**/device-*.log', recursive=True):
    txt, out, i, mains = open(f).read().split('\n'), [], 0, 0
    while i < len(txt):
        if 'stars_wait_sqe_is_timeout' not in txt[i]:
            out.append(txt[i]); i += 1; continue
        j, h = i + 1, 0
        while j < len(txt) and h < 2:
            h += txt[j].startswith('####'); j += 1
        blk = txt[i:j]; i = j
        pos = [x for x in blk if x.startswith('pos=')]
        if pos and re.search(r'sqe_type=7$', pos[0]) and 'stream_id=6,' not in blk[0]:
            mains += 1
            if mains > 1:
                continue
        out += blk
    open(f, 'w').write('\n'.join(out))
EOF
$HANGDX diagnose --json "$T/vm" > "$T/vm.json"
t_ok "2 main streams waiting, 6 free cores: none named a kernel's" python3 -c "
import json; d=json.load(open('$T/vm.json'))
assert d['chain'] and not any('M_kernel' in h['what'] for h in d['chain']), d['chain']"
# the vendor's E30008 text (tests/field/hiascend-doc-tf-getnext-e30008-aicpu-timeout.log)
# on rank 0's console, naming its AICPU operator
cp -r "$T/ve" "$T/vt"
sed -n 4,9p tests/field/hiascend-doc-tf-getnext-e30008-aicpu-timeout.log |
	sed 's/stream_id=2, task_id=2, fault op_name=aicpu_getnext_IteratorGetNext/stream_id=2, task_id=1, fault op_name=NonZero/' \
	> "$T/vt/rank-0/console.log"
$HANGDX diagnose --json "$T/vt" > "$T/vt.json"
t_ok "rank 0's AICPU operator timed out (it had a core): rank 1 alone is the root" python3 -c "
import json; d=json.load(open('$T/vt.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and d['roots']==[1], (d['category'], d['roots'])"
# the same code in a plog's envelope (read by the open world, its row
# from the vocabulary): the same answer
cp -r "$T/ve" "$T/vp"
echo '[ERROR] ASCENDCL(100003,python3):2026-11-01-07:00:40.000.000 [error_manager.cc:100]100003 E30008: AI CPU operator execution time out.' \
	>> "$(ls "$T"/vp/rank-0/ascend/log/debug/plog/*.log | head -1)"
$HANGDX diagnose --json "$T/vp" > "$T/vp.json"
t_ok "E30008 in rank 0's plog: rank 1 alone is the root" python3 -c "
import json; d=json.load(open('$T/vp.json'))
assert d['category']=='aicpu_exhaustion_deadlock' and d['roots']==[1], (d['category'], d['roots'])"

# the matrix's asymmetric roots at log level error, verified lines, without
# the device run log: the inferred exhaustion and exactly truth's roots, at
# 8 and 16 ranks, with the kernels' streams dumped and without them
python3 - "$T" "$HANGDX" <<'EOF'
import glob, json, os, re, shutil, subprocess, sys
sys.path.insert(0, 'tests')
import matrix
t, hangdx = sys.argv[1], sys.argv[2]
out = []
for name, text in matrix.asymmetric_cases():
    if name not in ('roots-r8-3-5', 'roots-r16-0-9-15'):
        continue
    d = os.path.join(t, name)
    open(d + '.yaml', 'w').write(text)
    subprocess.run([hangdx, 'simulate', '-q', '--no-trace', '--log-fidelity', 'verified',
                    '--set', 'log_level=error', d + '.yaml', '-o', d], stdout=subprocess.DEVNULL)
    for r in glob.glob(d + '/rank-*/ascend/log/run/device-*'):
        shutil.rmtree(r)
    roots = json.load(open(d + '/truth.json'))['roots']
    for strip in (False, True):
        if strip:       # no stream whose only queued task is an AICPU task
            for f in glob.glob(d + '/**/device-*.log', recursive=True):
                txt = open(f).read().split('####')
                keep = [b for b in txt if not (len(re.findall(r'^pos=', b, re.M)) == 1 and
                                               re.search(r'^pos=.*sqe_type=1$', b, re.M))]
                open(f, 'w').write('####'.join(keep))
        p = subprocess.run([hangdx, 'diagnose', '--json', d], stdout=subprocess.PIPE, text=True)
        g = json.loads(p.stdout)
        out.append('%s%s %s %s %s %s' % (name, '-nokernels' if strip else '', g['category'],
                                         g['proven'], g['roots'], roots))
open(os.path.join(t, 'asym.txt'), 'w').write('\n'.join(out) + '\n')
EOF
cat "$T/asym.txt" | sed 's/^/# /'
t_ok "no device run log, asymmetric roots: inferred exhaustion, truth's roots" python3 -c "
lines=open('$T/asym.txt').read().split('\n')[:-1]
assert len(lines)==4, lines
for l in lines:
    n, cat, proven, rest = l.split(' ', 3)
    got, want = rest.split('] [')
    assert cat=='aicpu_exhaustion_deadlock' and proven=='False' and got+']'=='['+want, l"

# retry off: the same bundle shape is no AICPU exhaustion deadlock
$HANGDX simulate -q --preset reference --set retry=off --log-fidelity verified \
	--set log_level=error -o "$T/off" > /dev/null 2>&1
t_exit 0 "retry off: no hang" $HANGDX diagnose "$T/off"

t_done
