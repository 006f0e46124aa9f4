#!/usr/bin/env python3
"""tests/gen/seedgen.py - bundles of the seed incident written from the
public format strings alone, independent of src/sim.

The AICPU exhaustion deadlock under HCCL op retry (docs/ARCHITECTURE.md,
the reference incident) as a real collection lays it out:
rank-N/ascend/log/debug/{plog,device-D}/ with the lines real logs hold by
default: the host plog's environment echo (HCCL_OP_RETRY_ENABLE, the
expansion mode, HCCL_EXEC_TIMEOUT) and communicator creation lines, the
RUNTIME notify-wait-timeout line, HCCL's "Task run failed" blocks and one
EI0002 per device; the device log's TS stream dumps at the timeout (each
stuck stream's queue, the pos= lines in the common shape real dumps print:
notify waits and AICPU tasks without detail, event waits and records
whole).  Line shapes: docs/HCCL-SOURCE-STRINGS.md, docs/LOGS-SIMULATED.md
section 4 (verbatim and format-string rows), tests/data/samples.  Nothing
here reads or runs hangdx.

A root holds the cycle on its own device: HCCL kernels of the first
`cores` communicators hold every AICPU core (op retry keeps them until
their main streams drain), each main stream waits at its head for the
notify its launching stream records, that stream waits through an event
(and, on a root with extra hops, through more streams) on an ordinary
AICPU operator at the head of the compute stream that never got a core.
A victim's AICPU operator ran; its first communicator's main stream waits
for a peer (a root) and its compute stream waits on the communication's
result.

Each bundle gets expected.json: roots, first failing rank (by true time,
whatever the servers' clocks say), category, proven.

Usage: seedgen.py OUT [--ranks N] [--per-node K] [--roots 0,5] [--comms C]
       [--cores 6] [--unique R] [--skew NODE:MS ...] [--noise N]
       [--runlog] [--notify-ids] [--no-env] [--first R] [--cut R] [--stale R]
       [--no-dumps]
       [--seed S]
       seedgen.py OUT --shape two|eight|sixtyfour
"""
import argparse
import json
import os
import random

T0 = 1762164000.0           # 2025-11-03 10:00:00, the job's true start
T_EXEC = 1836
OP_AT = 3600.0              # the step that hangs, seconds after T0


def ts(t):
    """YYYY-MM-DD-hh:mm:ss.mmm.uuu of a true time plus a clock's skew."""
    import time
    sec = int(t)
    us = int(round((t - sec) * 1e6))
    if us >= 1000000:
        sec, us = sec + 1, us - 1000000
    g = time.gmtime(sec)
    return "%04d-%02d-%02d-%02d:%02d:%02d.%03d.%03d" % (
        g.tm_year, g.tm_mon, g.tm_mday, g.tm_hour, g.tm_min, g.tm_sec,
        us // 1000, us % 1000)


def fname_ts(t):
    import time
    g = time.gmtime(int(t))
    return "%04d%02d%02d%02d%02d%02d%03d" % (g.tm_year, g.tm_mon, g.tm_mday, g.tm_hour,
                                             g.tm_min, g.tm_sec, int((t % 1) * 1000))


class Rank:
    def __init__(self, job, r):
        self.job, self.r = job, r
        self.node = r // job.per_node
        self.dev = r % job.per_node
        self.pid = 20000 + 97 * r
        self.dpid = 5000 + 13 * r            # aicpu_scheduler on the device
        self.skew = job.skew.get(self.node, 0.0)
        self.ip = "10.0.%d.%d" % (self.node // 250, self.node % 250 + 1)
        self.plog = []                       # (true time, line)
        self.devlog = []
        self.runlog = []
        self.seq = 1000

    def stamp(self, t):
        return ts(T0 + t + self.skew)

    def host(self, t, level, module, src, body, tid=None):
        tid = self.pid if tid is None else tid
        if module == "RUNTIME":
            line = "[%s] RUNTIME(%d,python3):%s [%s]%d %s" % (level, self.pid, self.stamp(t),
                                                             src, tid, body)
        else:
            line = "[%s] %s(%d,python3):%s [%s] [%d]%s" % (level, module, self.pid,
                                                          self.stamp(t), src, tid, body)
        self.plog.append((t, line))

    def tsch(self, t, src, body):
        self.seq += 1
        self.devlog.append((t, "[ERROR] TSCH(-1,null):%s %d (dieid:0,cpuid:0) %s %s" % (
            self.stamp(t), self.seq, src, body)))

    def raw(self, t, text):
        self.devlog.append((t, text))


def identifier(job, c):
    if c == 0:
        return "10.0.0.1%%eth0_60000_0_%d" % int(T0 * 1e6 - 7e9)
    return "group_name_%d" % c


def env_echo(rk, t):
    job = rk.job
    rk.host(t, "INFO", "ATRACE", "trace_attr.c:189", "attr init success, timeout=0ms.")
    rk.plog[-1] = (t, "[INFO] ATRACE(%d,python3):%s [trace_attr.c:189](tid:%d) attr init "
                   "success, timeout=0ms." % (rk.pid, rk.stamp(t), rk.pid))
    rk.host(t + 0.010, "INFO", "HCCL", "externalinput.cc:1881",
            "[HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE set by environment variable "
            "to [%s]." % job.retry)
    rk.host(t + 0.011, "INFO", "HCCL", "externalinput.cc:1892",
            "[HCCL_ENV] HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is [1], "
            "HoldTime is [5000]ms, IntervalTime is [1000]ms")
    rk.host(t + 0.012, "INFO", "HCCL", "externalinput.cc:1750",
            "[HCCL_ENV] environmental variable HCCL_OP_EXPANSION_MODE is [AI_CPU], "
            "aicpuUnfold[1], aivMode[0], enableFfts[0], aicpuCacheEnable[1]")
    rk.host(t + 0.013, "INFO", "HCCL", "env_config.cc:271",
            "[HCCL_ENV] HCCL_EXEC_TIMEOUT set by default to [%d]s" % T_EXEC)
    rk.host(t + 0.014, "INFO", "HCCL", "env_config.cc:240",
            "HCCL_CONNECT_TIMEOUT set by default to [120]s")


def comm_inits(job):
    """Every communicator spans every rank, in rank order: its creation
    barrier's exit lines are at one true time on every member."""
    rng = job.rng
    for c in range(job.comms):
        entry = 20.0 + 3.0 * c
        exit_t = entry + 0.8 + 0.05 * rng.random()
        ident = identifier(job, c)
        name = "hccl_world_group" if c == 0 else ident
        for rk in job.rank:
            e = entry + 0.3 * rng.random()
            rk.host(e, "INFO", "HCCL", "op_base.cc:1292",
                    "Entry-HcclCommInitRootInfoInner:ranks[%d], rank[%d], rootinfo: host "
                    "ip[10.0.0.1] port[60000] nicDeploy[1] identifier[%s], deviceLogicId[%d]"
                    % (job.ranks, rk.r, ident, rk.dev))
            rk.host(e + 0.2, "INFO", "HCCL", "hccl_comm.cc:129",
                    "hcclCommInitInfo:commId[hccl-%d-%d-%d-%s], rank[%d], totalRanks[%d], "
                    "serverId[%s], deviceType[4],logicDevId[%d], identifier[%s]"
                    % (rk.pid, c, int(T0), name, rk.r, job.ranks, rk.ip, rk.dev, ident))
            x = exit_t + 0.02 * rng.random()
            rk.plog.append((x, "[INFO] HCCL(%d,python3):%s [op_base.cc:489][%d][HCCL_TRACE]"
                            "HcclCommInitRootInfo success,take time [%d]us, rankNum[%d], "
                            "rank[%d],rootInfo identifier[%s], server[%s], logicDevId[%d]"
                            % (rk.pid, rk.stamp(x), rk.pid, int((x - e) * 1e6), job.ranks,
                               rk.r, ident, rk.ip, rk.dev)))


def noise(job, count):
    """Lines of an ordinary run, before the step that hangs."""
    rng = job.rng
    per = count // max(1, job.ranks)
    for rk in job.rank:
        for i in range(per):
            t = 200.0 + (OP_AT - 300.0) * i / max(1, per)
            k = i % 4
            if k == 0:
                rk.plog.append((t, "[DEBUG] RUNTIME(%d,python3):%s [npu_driver.cc:1393] %d "
                                "LogicCqReportV2:logic_cq real cnt=%d" % (
                                    rk.pid, rk.stamp(t), rk.pid + 9, rng.randint(0, 3))))
            elif k == 1:
                rk.plog.append((t, "[INFO] GE(%d,python3):%s [graph_manager.cc:1547]%d "
                                "RunGraph:Run graph, graph_id:%d, session_id:0." % (
                                    rk.pid, rk.stamp(t), rk.pid + 1, i % 7)))
            elif k == 2:
                rk.plog.append((t, "[WARNING] TBE(%d,python3):%s [te_fusion_api.cc:512]%d "
                                "CheckOpImplMode:op impl mode is not set, use default." % (
                                    rk.pid, rk.stamp(t), rk.pid + 2)))
            else:
                rk.devlog.append((t, "[INFO] CCECPU(%d,aicpu_scheduler):%s [aicpusd_event_"
                                  "manager.cpp:769][ExecuteHWTSEventTask][tid:%d] Begin to "
                                  "ExecuteTsKernelTask, mailboxId[0], serialNo[%d], "
                                  "streamId[3], taskId[%d], dataDumpEnableMode[0], "
                                  "kernelType[2], subeventId[0]." % (
                                      rk.dpid, rk.stamp(t), rk.dpid + 10 + i % 6, i, i % 65536)))


# ---- the streams of the stuck step ----

C_STREAM, C2_STREAM, U_STREAM, ORD_STREAM = 3, 4, 15, 16


def m_stream(c):
    return 40 + 2 * c


def sq(stream):
    return stream + 8


class Stream:
    def __init__(self, sid, head_task):
        self.sid, self.tasks, self.next = sid, [], head_task

    def add(self, kind, detail=""):
        self.tasks.append((self.next, kind, detail))
        self.next += 1


def notify_detail(job, kind, nid):
    if not job.notify_ids:
        return ""
    return ", Notify %s, notify_id=%d" % ("Wait" if kind == 7 else "Record", nid)


def H0(c):
    return 1000 + 2 * c


def H1(c):
    return 1001 + 2 * c


def main_stream(job, rk, c, first_wait, peer_note=None):
    """M_c: its first wait, the op's algorithm tasks, the record of H1."""
    m = Stream(m_stream(c), 5000 + 37 * c)
    kind_nid = first_wait
    m.add(7, notify_detail(job, 7, kind_nid))
    for i in range(3):
        m.add(6, notify_detail(job, 6, 3000 + 10 * c + i))
        m.add(11)
        m.add(7, notify_detail(job, 7, 3100 + 10 * c + i))
    m.add(6, notify_detail(job, 6, H1(c)))
    return m


def streams_root(job, rk, unique):
    """C: the AICPU operator at its head (never started), then the event
    record; with unique a second stream between C and U.  U: the event
    wait, then each communicator's H0 record and H1 wait."""
    c = Stream(C_STREAM, 812)
    c.add(1)                                    # NonZero / Unique: no core
    c.add(4, ", Event Record, event_id=75, isSync=0")
    c.add(0, ", FFTS")
    c.add(5, ", Event Wait, event_id=76")       # the step's result
    out = [c]
    ev_u = 75
    if unique:
        c2 = Stream(C2_STREAM, 410)
        c2.add(5, ", Event Wait, event_id=75")
        c2.add(0, ", FFTS")
        c2.add(4, ", Event Record, event_id=77, isSync=0")
        out.append(c2)
        ev_u = 77
    u = Stream(U_STREAM, 1200)
    u.add(5, ", Event Wait, event_id=%d" % ev_u)
    for k in range(job.comms):
        u.add(6, notify_detail(job, 6, H0(k)))
        u.add(7, notify_detail(job, 7, H1(k)))
    u.add(4, ", Event Record, event_id=76, isSync=0")
    out.append(u)
    for k in range(job.cores):                  # the kernels holding cores
        out.append(main_stream(job, rk, k, H0(k)))
    return out


def kernel_streams(job, running):
    """With --dump-all: the kernel streams (the running kernels' AICPU task
    alone at the head; the later ones behind their order wait) and the
    order stream waiting for the last running kernel's order record."""
    out = []
    for k in range(job.comms):
        ks = Stream(17 + k if 17 + k < 40 else 200 + k, 90 + 3 * k)
        if k > running:
            ks.add(7)                   # its order wait (O0)
        ks.add(1)                       # the kernel: running, or no core
        out.append(ks)
    if running < job.comms:
        o = Stream(ORD_STREAM, 700)
        o.add(7)                        # O1 of the kernel waiting for a core
        for k in range(running + 1, job.comms):
            o.add(6)
            o.add(7)
        out.append(o)
    return out


def streams_victim(job, rk):
    """The AICPU operator ran; the first communicator's main stream waits
    for a peer; the other resident kernels' main streams wait for H0 behind
    U's wait for the first op's end; C waits on the result."""
    c = Stream(C_STREAM, 814)
    c.add(5, ", Event Wait, event_id=76")
    c.add(0, ", FFTS")
    u = Stream(U_STREAM, 1202)
    u.add(7, notify_detail(job, 7, H1(0)))
    for k in range(1, job.comms):
        u.add(6, notify_detail(job, 6, H0(k)))
        u.add(7, notify_detail(job, 7, H1(k)))
    u.add(4, ", Event Record, event_id=76, isSync=0")
    out = [c, u, main_stream(job, rk, 0, 2000 + rk.r)]
    for k in range(1, job.cores):
        out.append(main_stream(job, rk, k, H0(k)))
    return out


def dump(rk, t, st, wait):
    head = st.tasks[0][0]
    tail = st.next
    q = sq(st.sid)
    typ = st.tasks[0][1]
    rk.tsch(t, "stars_timewheel.c:90", "stars_wait_sqe_is_timeout: Timeout: sq_pid=%d, "
            "sq_id=%d, is_need_process=1, exe_time=%d, time_out=%d, stream_id=%d, "
            "task_id=%d, cur_head=%d, wait_sqe_head=%d." % (
                rk.pid, q, wait, T_EXEC, st.sid, head, head % 2048, head % 2048))
    rk.tsch(t, "stars_interrupt.c:1221", "stars_proc_wait_timeout: wait task timeout, "
            "rtsq_id=%d, type=%d, sq_pid=%d" % (q, typ, rk.pid))
    rk.raw(t, "#" * 64)
    rk.raw(t, "stream_id=%d, rtsq_id=%d, sq_fsm=0x9, cur_wait_time=%d, head=%d, tail=%d, "
           "is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=%d, "
           "cq_tail=%d, pid=%d, vf_id=0, is_mc2_sq=0" % (
               st.sid, q, wait, head % 2048, tail % 2048, head % 1024, head % 1024, rk.pid))
    rk.raw(t, "stream_id=%d, overflow_en=0, ge_op_tag=4294967295, has_overflow=0" % st.sid)
    for tid, kind, detail in st.tasks:
        rk.raw(t, "pos=%d: stream_id=%d, task_id=%d, sqe_type=%d%s" % (
            tid % 2048, st.sid, tid, kind, detail))
    rk.raw(t, "#" * 64)


def failure_block(rk, t, st, c, peer, first):
    """RUNTIME timeout line, HCCL's Task run failed block, EI0002 once."""
    job = rk.job
    head = st.tasks[0][0]
    ident = identifier(job, c)
    tag = "AllReduce_%s" % ident
    dtag = tag + "AllReduceMeshExecutor_device"
    nid = (rk.r << 32) | (0x58 + 2 * c) if peer is None else (rk.r << 32) | (0x400 + c)
    rr = "local" if peer is None else str(peer)
    tid = rk.pid + 3
    rk.serial = getattr(rk, "serial", 0) + 1
    rk.host(t, "ERROR", "RUNTIME", "device_error_proc.cc:1593",
            "ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:%d, dieId:0), serial "
            "number is %d, notify wait timeout occurred during task execution, stream_id:%d, "
            "sq_id:%d, task_id:%d, notify_id=%d, timeout=%ds." % (
                rk.dev, rk.serial, st.sid, sq(st.sid), head, 8 + c, T_EXEC), tid=tid)
    pre = "[TaskExecStage][Timeout][AICPU]"
    rk.host(t + 5e-6, "ERROR", "HCCL", "task_exception_handler.cc:1365",
            pre + "Task from HCCL run failed.", tid=tid)
    rk.host(t + 1e-5, "ERROR", "HCCL", "task_exception_handler.cc:908",
            pre + "Task run failed, base information is streamID:[%d], taskID[%d], "
            "taskType[Notify Wait], tag[%s], AlgType(level 0-1-2):[fullmesh-ring-NHR]."
            % (st.sid, head, tag), tid=tid)
    rk.host(t + 1.5e-5, "ERROR", "HCCL", "task_exception_handler.cc:842",
            pre + "Task run failed, para information is notify id:[0x%016x], stage:[0], "
            "remote rank:[%s], tag[%s]." % (nid, rr, dtag), tid=tid)
    rk.host(t + 2e-5, "ERROR", "HCCL", "task_exception_handler.cc:771",
            pre + "Task run failed, groupRank information is group:[%s], user define "
            "information[], rankSize[%d], rankId[%d %s]." % (
                ident, job.ranks, rk.r, "4294967295" if peer is None else peer), tid=tid)
    rk.host(t + 2.5e-5, "ERROR", "HCCL", "task_exception_handler.cc:704",
            pre + "Task run failed, opData information is deviceId:[%d], index[%d], "
            "count[33554432], reduceType[sum], src[0x12c0c0000000], dst[0x12c0c1000000], "
            "dataType[bfloat16]." % (rk.dev, 7), tid=tid)
    if first:
        rk.plog.append((t + 3e-5, "[PID: %d] %s Communication_Error_Timeout(EI0002): An "
                        "timeout occurs when the Notify register waits for execution. "
                        "Waiting peer rank: %s; task information: streamID:[%d], taskID[%d], "
                        "taskType[Notify Wait], tag[%s], AlgType(level 0-1-2):"
                        "[fullmesh-ring-NHR].; communication operator information: notify "
                        "id:[0x%016x], stage:[0], remote rank:[%s]; communicator: %s." % (
                            rk.pid, rk.stamp(t + 3e-5),
                            "4294967295" if peer is None else peer, st.sid, head, dtag,
                            nid, rr, ident)))


def run_log(rk, t_start, t_fail, resident):
    """The device run log: each resident kernel's WaitFinishWhileLoop
    status every 30 s, then HCCL's AicpuComm report after the failure."""
    job = rk.job
    w0 = rk.dpid + 10
    t = t_start + 30.0
    while t < t_fail:
        for k in resident:
            ident = identifier(job, k)
            st = m_stream(k)
            rk.runlog.append((t + 1e-4 * k, "[INFO] HCCL(%d,aicpu_scheduler):%s [aicpu_"
                              "communicator.cc:3888] [%d][HcclCommAicpu][WaitFinishWhileLoop]"
                              "Current state. devId:%d sqid:%d, head:%d, tail:%d, group[%s] "
                              "tag[AllReduce_%s]" % (
                                  rk.dpid, rk.stamp(t + 1e-4 * k), w0 + k, rk.dev, sq(st),
                                  (5000 + 37 * k) % 2048, (5000 + 37 * k + 11) % 2048,
                                  ident, ident)))
        t += 30.0 * max(1, int((t_fail - t_start) / 30.0 / 4))
    tf = t_fail + 0.002
    for k in range(job.comms):
        ident = identifier(job, k)
        st = "inExec" if k in resident else "unExec"
        rk.runlog.append((tf, "[INFO] HCCL(%d,aicpu_scheduler):%s [aicpu_communicator.cc:3526] "
                          "[%d]AicpuComm: group[%s], status[%s], op[tag: AllReduce_%s, newTag: "
                          "AllReduce_%sAllReduceMeshExecutor_device, index: 7], aicpuCoreNum[%d]"
                          % (rk.dpid, rk.stamp(tf), w0, ident, st, ident, ident, job.cores)))
    rk.runlog.append((tf, "[WARNING] HCCL(%d,aicpu_scheduler):%s [aicpu_communicator.cc:3533] "
                      "[%d]In Execution group num[%d], total group num[%d], bigger than Aicpu "
                      "cores num[%d]. Aicpu core being fully utilized may cause tasks to get "
                      "stuck, and it is necessary to reduce the num of comm." % (
                          rk.dpid, rk.stamp(tf), w0, len(resident), job.comms, job.cores)))


def the_step(job):
    """Each rank's stuck state and its failure; returns true first-error
    times per rank."""
    rng = job.rng
    first = {}
    order = list(range(job.ranks))
    # each rank's step starts a little apart; the first failing rank's
    # start is the earliest by a margin
    start = {r: OP_AT + 0.002 + 0.040 * rng.random() for r in order}
    if job.first is not None:
        start[job.first] = OP_AT - 0.010
    for rk in job.rank:
        t0 = start[rk.r]
        if rk.r in job.roots:
            sts = streams_root(job, rk, rk.r == job.unique)
            # kernels take cores 1 ms apart; the first main stream's H0
            # wait times out first
            tfail = t0 + 0.001 + T_EXEC
            waits = [(s, k) for k in range(job.cores) for s in sts if s.sid == m_stream(k)]
            for i, (s, k) in enumerate(waits):
                failure_block(rk, tfail + 0.001 * i, s, k, None, i == 0)
        else:
            sts = streams_victim(job, rk)
            peer = job.victim_peer(rk.r)
            tfail = t0 + 0.0012 + T_EXEC
            m0 = [s for s in sts if s.sid == m_stream(0)][0]
            failure_block(rk, tfail, m0, 0, peer, True)
            for k in range(1, job.cores):
                s = [x for x in sts if x.sid == m_stream(k)][0]
                failure_block(rk, tfail + 0.0008 + 0.001 * k, s, k, None, False)
        first[rk.r] = tfail
        if job.dump_all:
            sts = sts + kernel_streams(job, job.cores)
        for s in sts:
            dump(rk, tfail + 0.0001, s, T_EXEC)
        if job.runlog:
            run_log(rk, t0, tfail, list(range(job.cores)))
    return first


class Job:
    def __init__(self, a):
        self.ranks, self.per_node, self.comms, self.cores = a.ranks, a.per_node, a.comms, a.cores
        self.roots = sorted(set(a.roots))
        self.unique = a.unique
        self.skew = {}
        for s in a.skew:
            n, ms = s.split(":")
            self.skew[int(n)] = float(ms) / 1000.0
        self.runlog, self.notify_ids = a.runlog, a.notify_ids
        self.retry = a.retry
        self.first = a.first
        self.cut, self.stale = a.cut, a.stale
        self.dump_all = a.dump_all
        self.no_dumps = a.no_dumps
        self.rng = random.Random(a.seed)
        self.rank = [Rank(self, r) for r in range(self.ranks)]

    def victim_peer(self, r):
        return self.roots[r % len(self.roots)]


def stale_plog(job, rk, base):
    """A plog of an earlier run of the same job in the rank's directory:
    another pid, hours before, its own communicators and its own timeout."""
    old = Rank(job, rk.r)
    old.pid = rk.pid - 4111
    old.skew = rk.skew - 5 * 3600.0
    env_echo(old, 5.0)
    old.host(20.0, "INFO", "HCCL", "op_base.cc:1292",
             "Entry-HcclCommInitRootInfoInner:ranks[%d], rank[%d], rootinfo: host ip[10.0.0.1] "
             "port[60000] nicDeploy[1] identifier[10.0.0.1%%eth0_60000_0_1762140000000000], "
             "deviceLogicId[%d]" % (job.ranks, rk.r, rk.dev))
    st = Stream(m_stream(0), 77)
    st.add(7)
    failure_block(old, 900.0, st, 0, None, True)
    path = os.path.join(base, "debug", "plog", "plog-%d_%s.log" % (
        old.pid, fname_ts(T0 + 5.0 + old.skew)))
    return path, old.plog


def write(job, out):
    for rk in job.rank:
        base = os.path.join(out, "rank-%d" % rk.r, "ascend", "log")
        t_file = T0 + 5.0 + rk.skew
        files = [(os.path.join(base, "debug", "plog", "plog-%d_%s.log" % (rk.pid, fname_ts(t_file))),
                  rk.plog)]
        if not job.no_dumps:
            files.append((os.path.join(base, "debug", "device-%d" % rk.dev,
                                       "device-%d_%s.log" % (rk.pid, fname_ts(t_file))), rk.devlog))
        if rk.r == job.stale:
            files.append(stale_plog(job, rk, base))
        if rk.runlog:
            files.append((os.path.join(base, "run", "device-%d" % rk.dev,
                                       "device-%d_%s.log" % (rk.pid, fname_ts(t_file))), rk.runlog))
        for path, lines in files:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            lines.sort(key=lambda x: x[0])
            text = "".join(line + "\n" for _, line in lines)
            if rk.r == job.cut and path.endswith(".log") and "/plog/" in path:
                text = text[:len(text) - len(lines[-1][1]) // 2 - 1]   # cut mid-line
            with open(path, "w") as f:
                f.write(text)


SHAPES = {
    # 2 ranks, one per server, 15 communicators, both ranks roots
    "two": dict(ranks=2, per_node=1, roots=[0, 1], comms=15),
    # 8 ranks on 2 servers, 14 communicators, two roots (one via Unique)
    "eight": dict(ranks=8, per_node=4, roots=[2, 5], comms=14, unique=5, first=6),
    # 64 ranks on 8 servers, two roots among 62 victims, noise
    "sixtyfour": dict(ranks=64, per_node=8, roots=[9, 50], comms=15, noise=200000, first=42),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--shape", choices=sorted(SHAPES))
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--per-node", type=int, default=8)
    p.add_argument("--roots", default="0")
    p.add_argument("--comms", type=int, default=15)
    p.add_argument("--cores", type=int, default=6)
    p.add_argument("--unique", type=int, default=-1, help="this root's chain has one more stream")
    p.add_argument("--skew", action="append", default=[], help="NODE:MS, that server's clock")
    p.add_argument("--noise", type=int, default=0, help="ordinary lines before the step")
    p.add_argument("--runlog", action="store_true", help="write the device run log's lines")
    p.add_argument("--notify-ids", action="store_true",
                   help="pos= lines of notify SQEs with their notify_id (no real dump shows it)")
    p.add_argument("--retry", default="L1:1,L2:1")
    p.add_argument("--no-env", action="store_true",
                   help="no environment echo (a plog that starts after it): retry not known")
    p.add_argument("--first", type=int, default=None, help="the rank whose step starts first")
    p.add_argument("--cut", type=int, default=-1, help="this rank's plog ends mid-line")
    p.add_argument("--stale", type=int, default=-1,
                   help="this rank's plog directory also holds a plog of an earlier run")
    p.add_argument("--dump-all", action="store_true",
                   help="also dump the kernel streams and the order stream")
    p.add_argument("--no-dumps", action="store_true",
                   help="no device debug log (no TS stream dumps); needs --runlog, retry on")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    a.roots = [int(x) for x in a.roots.split(",") if x != ""]
    if a.shape:
        for k, v in SHAPES[a.shape].items():
            setattr(a, k, v)
    if not a.roots or any(r < 0 or r >= a.ranks for r in a.roots):
        p.error("roots must be ranks of the job")
    if a.comms < a.cores:
        p.error("the kernels of --cores communicators hold the cores: --comms must be "
                "at least --cores")
    retry_on = any(v.strip().endswith(":1") for v in a.retry.split(","))
    if a.no_dumps and not (a.runlog and (retry_on or a.no_env)):
        p.error("--no-dumps: only the run log's kernels can show the pool: give --runlog, "
                "retry on")
    job = Job(a)
    for rk in job.rank:
        t_env = 5.0 + 0.5 * job.rng.random()
        if not a.no_env:
            env_echo(rk, t_env)
    comm_inits(job)
    if a.noise:
        noise(job, a.noise)
    first = the_step(job)
    write(job, a.out)
    fr = min(first, key=lambda r: (first[r], r))
    # the kernels stay by the retry echo (on at either level), or, with
    # no echo, by the run log's lines of kernels waiting for their ops to
    # finish; else the chain to the AICPU operator that never started is
    # all a reader can show (with retry echoed off, the run log's lines
    # contradict the echo: a kernel returns at once, so it is not taken)
    stay = (not a.no_env and retry_on) or (a.no_env and a.runlog)
    cat = "aicpu_exhaustion_deadlock" if stay else "event_wait_chain"
    with open(os.path.join(a.out, "expected.json"), "w") as f:
        json.dump({"roots": job.roots, "first_failing_rank": fr,
                   "category": cat,
                   "proven": bool(stay and a.runlog and not a.no_dumps),
                   "ranks": a.ranks, "cores": a.cores}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
