#!/usr/bin/env python3
"""bench/ingest-gen.py - write a deterministic tree of noisy CANN logs for
the ingest benchmark, in the layout the simulator uses:

  OUT/rank-N/ascend/log/run/plog/plog-PID_TS.log        (init + env echo)
  OUT/rank-N/ascend/log/debug/plog/plog-PID_TS.log      (the noisy host log)
  OUT/rank-N/ascend/log/debug/device-D/device-PID_TS.log (device log)

Mostly INFO/DEBUG noise from HCCL, RUNTIME, GE, ASCENDCL, TEFUSION, ATRACE
(as at ASCEND_GLOBAL_LOG_LEVEL=1), some WARNING, and about one line in
2000 an ERROR of a hang-relevant family (Task run failed blocks, EI0002,
runtime notify/event wait timeouts, AICPU exception dumps, TSCH lines).

usage: ingest-gen.py OUTDIR TOTAL_MB [RANKS] [SEED]
"""
import os
import random
import sys

HOSTPROC = "python3.9"


def ts_str(us):
    s, us = divmod(us, 1000000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    d, h = divmod(h, 24)
    return "2025-08-%02d-%02d:%02d:%02d.%03d.%03d" % (
        6 + d, h, m, s, us // 1000, us % 1000)


def noise_templates(rng, pid, dev):
    """Bodies of INFO/DEBUG noise lines: (level, module, src, body)."""
    t = []
    for i in range(400):
        tid = pid + rng.randint(1, 900)
        sid = rng.randint(2, 60)
        task = rng.randint(0, 65535)
        tag = rng.choice(["AllReduce", "AllGather", "ReduceScatter", "Broadcast"])
        t.append(("INFO", "HCCL", "hccl_communicator.cc:%d" % rng.randint(100, 9000),
                  "[%d][HcclCommunicator][%s]tag[%s_group_%d], count[%d], dataType[float16], "
                  "op[sum], streamId[%d], deviceLogicId[%d]" % (
                      tid, rng.choice(["ExecOp", "AllocAlgResource", "ExecOpAlltoAll"]),
                      tag, rng.randint(0, 13), rng.randint(1, 1 << 24), sid, dev)))
        t.append(("INFO", "HCCL", "dispatcher.cc:%d" % rng.randint(100, 2000),
                  "[%d]LaunchTask: streamID[%d], taskID[%d], taskType[Notify Wait], "
                  "notify id[0x%016x], ctxId[%d]" % (tid, sid, task,
                                                   rng.getrandbits(40), rng.randint(0, 99))))
        t.append(("DEBUG", "RUNTIME", "npu_driver.cc:%d" % rng.randint(100, 3000),
                  "%d LogicCqReportV2:logic_cq real cnt=%d, stream_id=%d, task_id=%d" % (
                      tid, rng.randint(0, 8), sid, task)))
        t.append(("INFO", "RUNTIME", "stream.cc:%d" % rng.randint(100, 3000),
                  "%d SubmitTask:stream_id=%d, task_id=%d, task_type=%d(%s), flip_num=%d" % (
                      tid, sid, task, rng.randint(0, 20),
                      rng.choice(["KERNEL_AICORE", "EVENT_RECORD", "EVENT_WAIT", "MEMCPY"]),
                      rng.randint(0, 40))))
        t.append(("INFO", "GE", "graph_manager.cc:%d" % rng.randint(100, 4000),
                  "%d RunGraph:Run graph async, graph_id:%d, session_id:%d, iteration %d" % (
                      tid, rng.randint(0, 30), rng.randint(0, 3), rng.randint(0, 99999))))
        t.append(("INFO", "ASCENDCL", "acl_rt.cpp:%d" % rng.randint(100, 900),
                  "%d aclrtSynchronizeStreamWithTimeout: start to execute aclrtSynchronizeStream, "
                  "timeout = %d" % (tid, rng.choice([-1, 0, 1800]))))
        t.append(("DEBUG", "TEFUSION", "tbe_op_info_cache.cc:%d" % rng.randint(10, 900),
                  "%d GetOpInfo: op %s_%d found in cache, kernel name te_%s_%08x" % (
                      tid, rng.choice(["Add", "MatMul", "Cast", "Mul"]), rng.randint(0, 999),
                      rng.choice(["add", "matmul", "cast"]), rng.getrandbits(32))))
        t.append(("INFO", "ATRACE", "trace_attr.c:%d" % rng.randint(10, 400),
                  "(tid:%d) trace event %d saved, size=%d" % (tid, rng.randint(0, 9999),
                                                             rng.randint(64, 4096))))
        t.append(("WARNING", "GE", "op_desc_utils.cc:%d" % rng.randint(10, 900),
                  "%d GetInputConstData:Op %s_%d input %d has no const data" % (
                      tid, rng.choice(["Reshape", "Gather"]), rng.randint(0, 99),
                      rng.randint(0, 3))))
    return t


def error_blocks(rng, pid, dev, rank, nranks):
    """Hang-relevant ERROR blocks, as lists of (level, module, src, body)."""
    tid = pid + 17
    peer = (rank + 1) % nranks
    group = "10.0.0.1%%eth0_60000_0_17%08d" % rank
    sid = rng.randint(2, 40)
    task = rng.randint(0, 60000)
    idx = rng.randint(1, 5000)
    blocks = []
    blocks.append([
        ("ERROR", "HCCL", "task_exception_handler.cc:908",
         "[%d][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[%d], "
         "taskID[%d], tag[AllReduce_%s], AlgType(level 0-1-2):[fullmesh-ring-NHR]." % (
             tid, sid, task, group)),
        ("ERROR", "HCCL", "task_exception_handler.cc:840",
         "[%d][TaskExecStage][Timeout][Host]Task run failed, para information is notify id:"
         "[0x%08x%08x], stage:[ffffffff], remote rank:[%d]." % (tid, rank, rng.randint(0, 999), peer)),
        ("ERROR", "HCCL", "task_exception_handler.cc:771",
         "[%d][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[%s], "
         "user define information[], rankSize[%d], rankId[%d]." % (tid, group, nranks, rank)),
        ("ERROR", "HCCL", "task_exception_handler.cc:704",
         "[%d][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:"
         "[2025-08-06-10:00:00.000.000], deviceId[%d], index[%d], count[256], reduceType[sum], "
         "src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32]." % (tid, dev, idx)),
    ])
    blocks.append([
        ("ERROR", "RUNTIME", "device_error_proc.cc:1593",
         "%d ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:%d, dieId:0), serial "
         "number is %d, notify wait timeout occurred during task execution, stream_id:%d, "
         "sq_id:%d, task_id:%d, notify_id=%d, timeout=1836s." % (
             tid, dev, rng.randint(1, 9), sid, sid + 3, task, rng.randint(0, 900))),
    ])
    blocks.append([
        ("ERROR", "RUNTIME", "stars_engine.cc:1551",
         "%d ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=%d, stream_id=%d, "
         "task_id=%d, sqe_type=3(place holder), errType=0x20(sq sw status error), "
         "sqSwStatus=0x105" % (tid, dev, sid, task)),
    ])
    blocks.append([
        ("ERROR", "HCCL", "heartbeat.cc:951",
         "[%d][TaskExecStage][HeartbeatAbnormal]local rank [10.0.0.1/%d]: crimer rank "
         "[10.0.0.1/%d] status[LOST] by informer rank [10.0.0.1/%d]" % (tid, rank, peer, rank)),
    ])
    return blocks


def device_blocks(rng, dpid, rank, nranks):
    tid = dpid + 400
    peer = (rank + 1) % nranks
    sid = rng.randint(100, 200)
    return [[
        ("ERROR", "HCCL", "aicpu_communicator.cc:3083",
         "[%d][TaskException]base information is streamId:%d, sqid:%d, head:%d, tail:%d, "
         "type:NOTIFY WAIT, localRank:%d, remoteRank:%d, taskId:%d, notifyId:%d, addr1High:0x0, "
         "addr1Low:0x0, addr2High:0x0, addr2Low:0x0." % (
             tid, sid, sid + 4, rng.randint(0, 2000), rng.randint(0, 2000), rank, peer,
             rng.randint(0, 60000), rng.randint(0, 900))),
        ("ERROR", "HCCL", "aicpu_communicator.cc:3806",
         "[%d][TaskException]opData information is tag:AllReduce_group_%d_device, "
         "group:group_%d, opIndex:%d, count:1048576, dataType:11, opType:4, rootId:4294967295, "
         "dstAddr:0x12dd78094200, srcAddr:0x12dd78094200." % (tid, rank % 4, rank % 4,
                                                             rng.randint(0, 99999))),
        ("ERROR", "HCCL", "aicpu_communicator.cc:3807",
         "[%d][TaskException]task sequence is OP(%d),NW(%d,760),SD(%d,/),NW(/,438)" % (
             tid, rng.randint(0, 99999), peer, peer)),
    ]]


def write_log(path, size, rng, pid, pname, dev, rank, nranks, device_side):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmpl = noise_templates(rng, pid, dev)
    errs = device_blocks(rng, pid, rank, nranks) if device_side else \
        error_blocks(rng, pid, dev, rank, nranks)
    us = rng.randint(0, 3600) * 1000000
    out = []
    written = 0
    n = 0
    with open(path, "w") as f:
        while written < size:
            us += rng.randint(1, 400)
            n += 1
            if n % 2000 == 0:
                block = rng.choice(errs)
            else:
                block = [rng.choice(tmpl)]
            for lvl, mod, src, body in block:
                line = "[%s] %s(%d,%s):%s [%s]%s\n" % (
                    lvl, mod, pid, pname, ts_str(us), src,
                    (" " + body) if mod != "RUNTIME" else body)
                out.append(line)
                written += len(line)
            if len(out) >= 4096:
                f.write("".join(out))
                out = []
        f.write("".join(out))
    return written


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    total = int(float(sys.argv[2]) * 1024 * 1024)
    nranks = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    per_rank = total // nranks
    for rank in range(nranks):
        rng = random.Random(seed * 1000003 + rank)
        pid = 100000 + rank * 37
        dev = rank % 8
        base = os.path.join(outdir, "rank-%d" % rank, "ascend", "log")
        runp = os.path.join(base, "run", "plog", "plog-%d_20250806100000000.log" % pid)
        os.makedirs(os.path.dirname(runp), exist_ok=True)
        with open(runp, "w") as f:
            f.write("[INFO] HCCL(%d,%s):2025-08-06-00:00:01.000.000 [externalinput.cc:985] [%d]"
                    "HCCL_EXEC_TIMEOUT set by default to [1836]s\n" % (pid, HOSTPROC, pid))
            f.write("[INFO] HCCL(%d,%s):2025-08-06-00:00:02.000.000 [op_base.cc:1292] [%d]"
                    "Entry-HcclCommInitRootInfoInner:ranks[%d], rank[%d], rootinfo: host "
                    "ip[10.0.0.1] port[60000] nicDeploy[1] identifier[10.0.0.1%%eth0_60000_0_1], "
                    "deviceLogicId[%d]\n" % (pid, HOSTPROC, pid, nranks, rank, dev))
        write_log(os.path.join(base, "debug", "plog", "plog-%d_20250806100000000.log" % pid),
                  per_rank * 3 // 4, rng, pid, HOSTPROC, dev, rank, nranks, False)
        write_log(os.path.join(base, "debug", "device-%d" % dev,
                               "device-%d_20250806100000000.log" % pid),
                  per_rank // 4, rng, pid + 5000, "aicpu_scheduler", dev, rank, nranks, True)


if __name__ == "__main__":
    main()
