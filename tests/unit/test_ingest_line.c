/*
 * test_ingest_line.c - the line level of ingest: every prefix variant of
 * log-formats.md §2 (P1-P21), timestamps, the pre-filter, and the key
 * normalisation of §5 (one test per field spelling).
 */
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

static bool prefix(const char *line, struct hx_prefix *p)
{
	return hx_parse_prefix(line, strlen(line), p);
}

static bool body_is(const struct hx_prefix *p, const char *start)
{
	return p->bodylen >= strlen(start) &&
	       memcmp(p->body, start, strlen(start)) == 0;
}

static bool str_is(const char *s, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

static void test_p1_hccl_85(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2]", &p));
	assert_int_equal(p.level, HX_LV_ERROR);
	assert_true(str_is(p.mod, p.modlen, "HCCL"));
	assert_int_equal(p.pid, 2111665);
	assert_true(str_is(p.pname, p.pnamelen, "all_reduce_test"));
	assert_true(str_is(p.src, p.srclen, "task_exception_handler.cc:908"));
	assert_int_equal(p.tid, 2111665);
	assert_true(body_is(&p, "[TaskExecStage][Timeout][Host]Task run failed"));
	assert_int_equal(p.ts, hx_parse_ts("2025-10-24-11:18:29.499.235", 27));
}

static void test_p2_no_spaces(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR]HCCL(835695,all_reduce_test):2025-10-23-17:28:06.049.385[task_exception_handler.cc:610][835695][TaskExecStage][HeartbeatAbnormal]Cluster Exception", &p));
	assert_int_equal(p.pid, 835695);
	assert_int_equal(p.tid, 835695);
	assert_true(body_is(&p, "[TaskExecStage][HeartbeatAbnormal]Cluster"));
	/* mixed: no space before SRC, a space before [tid] */
	assert_true(prefix("[ERROR]HCCL(1219039,all_reduce_test):2025-10-23-21:05:09.859.568[task_exception_handler.cc:610] [1219039][TaskExecStage]x", &p));
	assert_int_equal(p.tid, 1219039);
	assert_true(body_is(&p, "[TaskExecStage]x"));
}

static void test_p3_tid_glued(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.554 [task_exception_handler.cc:454][69395][TaskExceptionHandler][Callback]Task run failed", &p));
	assert_int_equal(p.tid, 69395);
	assert_true(body_is(&p, "[TaskExceptionHandler][Callback]"));
}

static void test_p4_comm_tag(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] HCCL(17381,python):2022-12-01-03:02:29.001.104 [hccl_comm.cc:100][hccl-17381-0-1669834948-hccl_world_group][0][HcclComm][Init]errNo[0x0000000005000007] hccl initialize failed", &p));
	assert_int_equal(p.pid, 17381);
	assert_int_equal(p.tid, HX_NONE);
	assert_true(body_is(&p, "[hccl-17381-0-1669834948-hccl_world_group][0]"));
}

static void test_p5_p7_empty_pname(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[DEBUG] RUNTIME(3237631,):2026-06-26-09:17:50.778.333 [npu_driver.cc:1393] 3237717 LogicCqReportV2:logic_cq real cnt=0", &p));
	assert_int_equal(p.level, HX_LV_DEBUG);
	assert_int_equal(p.pnamelen, 0);
	assert_int_equal(p.tid, 3237717);
	assert_true(body_is(&p, "LogicCqReportV2:"));
}

static void test_p6_p8_runtime(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.323.578 [callback.cc:91]163618 Notify:notify [HCCL] task fail start", &p));
	assert_int_equal(p.tid, 163618);
	assert_true(body_is(&p, "Notify:notify [HCCL]"));
	assert_true(prefix("[ERROR] RUNTIME(1365,python3.8):2025-08-06-23:09:35.772.604 [stars_engine.cc:1551]6219 ProcLogicCqReport:[FINAL][FINAL]Task run failed", &p));
	assert_int_equal(p.tid, 6219);
	assert_true(str_is(p.pname, p.pnamelen, "python3.8"));
}

static void test_p9_device_hccl(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.041 [aicpu_communicator.cc:3083] [5792][TaskException]base information is streamId:149", &p));
	assert_int_equal(p.pid, 5375);
	assert_int_equal(p.tid, 5792);
	assert_true(str_is(p.pname, p.pnamelen, "aicpu_scheduler"));
}

static void test_p10_p11_aicpu_tid(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] AICPU(3480,aicpu_scheduler):2023-04-06-20:24:34.559.758 [kernel_util.cc:101][AICPU][operator():101][tid:3543]:device_id:0, queue_name:1", &p));
	assert_int_equal(p.tid, 3543);
	assert_true(prefix("[ERROR] CCECPU(28880,aicpu_scheduler):2025-03-05-17:32:22.832.408 [ae_kernel_lib_aicpu.cc:300][TransformKernelErrorCode][tid:28891][AICPU_PROCESSER] call aicpu api", &p));
	assert_int_equal(p.tid, 28891);
}

static void test_p12_tsch(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.406 3986 (dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=80029", &p));
	assert_int_equal(p.form, HX_PF_TSCH);
	assert_int_equal(p.pid, -1);
	assert_true(str_is(p.pname, p.pnamelen, "null"));
	assert_true(str_is(p.src, p.srclen, "stars_timewheel.c:90"));
	assert_true(body_is(&p, "stars_wait_sqe_is_timeout: "));
}

static void test_p13_to_p16_glued(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.612 [hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15", &p));
	assert_int_equal(p.tid, HX_NONE);
	assert_true(body_is(&p, "hns_roce_lite_handle_error_cqe(630)"));
	assert_true(prefix("[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,ra_hdc_lite_period_poll_cqe : x", &p));
	assert_int_equal(p.tid, 2040458);
	assert_true(body_is(&p, "ra_hdc_lite_period_poll_cqe"));
	assert_true(prefix("[INFO] ATRACE(1382,python3.8):2025-08-05-19:46:01.413.984 [trace_attr.c:189](tid:1382) attr init success, timeout=0ms.", &p));
	assert_int_equal(p.tid, 1382);
	assert_true(body_is(&p, "attr init"));
	assert_true(prefix("[ERROR] APP(1365,python3.8):2025-08-06-23:09:42.725.168 [log_inner.cpp:76]6124 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:checkDispatch:685: x", &p));
	assert_int_equal(p.tid, 6124);
}

static void test_p17_kernel(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] KERNEL(5044,sklogd):2024-07-29-10:33:24.874.211 [klogd.c:247][257384.473533] [ascend] [ERROR] [tsdrv] [tsdrv_hb_cq_callback 332] <kworker/0:0:20353> receive ts exception msg, call excep_code=0xb4060006", &p));
	assert_true(str_is(p.mod, p.modlen, "KERNEL"));
	assert_true(body_is(&p, "[257384.473533] [ascend]"));
}

static void test_p18_mindspore(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[CRITICAL] DEVICE(162844,fffd6cff91e0,python):2022-12-01-00:26:58.399.787 [mindspore/ccsrc/plugin/device/ascend/hal/hardware/ascend_graph_executor.cc:240] RunGraph] Run task", &p));
	assert_int_equal(p.level, HX_LV_CRITICAL);
	assert_true(str_is(p.pname, p.pnamelen, "python"));
	assert_int_equal(p.tid, 0xfffd6cff91e0);
	assert_true(body_is(&p, "RunGraph] Run task"));
}

static void test_p19_watchdog(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) watchdog timeout, dogId 65584, timeout : 3s", &p));
	assert_int_equal(p.form, HX_PF_WATCHDOG);
	assert_int_equal(p.pid, 2241703);
	assert_int_equal(p.tid, 2245407);
	assert_true(body_is(&p, "watchdog timeout"));
}

static void test_p20_grep_prefix(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("run/plog/plog-2111667_20251024111652406.log:[INFO] HCCL(2111667,all_reduce_test):2025-10-24-11:16:52.724.374 [op_base.cc:1292] [2111667]Entry-HcclCommInitRootInfoInner:ranks[4]", &p));
	assert_true(str_is(p.gpath, p.gpathlen, "run/plog/plog-2111667_20251024111652406.log"));
	assert_int_equal(p.level, HX_LV_INFO);
	assert_true(prefix("logs/plog-1_2.log:1842:[ERROR] HCCL(1,x):2025-10-24-11:16:52.724.374 [a.cc:1] [1]text", &p));
	assert_true(str_is(p.gpath, p.gpathlen, "logs/plog-1_2.log"));
}

static void test_p21_ascendcl(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("[ERROR] ASCENDCL(162844,python):2022-12-01-00:26:58.086.834 [tensor_data_transfer.cpp:899]168498 acltdtSendTensor: [Push][Data]failed", &p));
	assert_int_equal(p.tid, 168498);
	assert_true(body_is(&p, "acltdtSendTensor:"));
}

static void test_status_bracket(void **state)
{
	struct hx_prefix p;

	(void)state;
	/* 2023 TRACE lines put "[status:init]" before the source */
	assert_true(prefix("[TRACE] HCCL(12339,python):2023-07-04-21:46:57.226.121 [status:init] [hcom.cc:194][hccl-12339-0-1688478416-hccl_world_group][77]hcom init by file success", &p));
	assert_true(str_is(p.src, p.srclen, "hcom.cc:194"));
}

static void test_not_a_prefix(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_false(prefix("EI0002: The wait execution of the Notify register times out.", &p));
	assert_false(prefix("[ERROR] 2025-06-25-10:45:23 (PID:13075, Device:0, RankID:8) ERR00100", &p));
	assert_false(prefix("[INFO] HCCL(12x,a):2025-10-24-11:16:52.724.374 [a.cc:1] x", &p));
	assert_false(prefix("[ERROR] HCCL(1,a):2025-13-24-11:16:52.724.374 [a.cc:1] x", &p));
	assert_false(prefix("", &p));
	assert_false(prefix("[", &p));
	assert_false(prefix("[ERROR] HCCL(1", &p));
}

static void test_timestamps(void **state)
{
	char t[32];

	(void)state;
	assert_int_equal(hx_parse_ts("1970-01-01-00:00:00.000.001", 27), 1);
	hx_format_ts(hx_parse_ts("2025-10-24-11:18:29.499.235", 27), t);
	assert_string_equal(t, "2025-10-24T11:18:29.499235");
	hx_format_ts(hx_parse_ts("2024-02-29-23:59:59.999.999", 27), t);
	assert_string_equal(t, "2024-02-29T23:59:59.999999");
	/* torch_npu screen: seconds only; CQE heartbeat: space separator */
	hx_format_ts(hx_parse_ts("2025-06-25-10:45:23", 19), t);
	assert_string_equal(t, "2025-06-25T10:45:23.000000");
	assert_int_not_equal(hx_parse_ts("2025-09-15 08:38:12.776654", 26), HX_NONE);
	assert_int_equal(hx_parse_ts("2025-10-24", 10), HX_NONE);
	assert_int_equal(hx_parse_ts("2025-10-24-25:00:00.000.000", 27), HX_NONE);
}

static int cl(const char *s)
{
	return hx_classify(s, strlen(s));
}

static void test_prefilter(void **state)
{
	(void)state;
	/* noise costs nothing */
	assert_int_equal(cl("[INFO] RUNTIME(1,p):2025-10-24-11:16:52.724.374 [a.cc:1] 2 Launch: x"), HX_CL_NOISE);
	assert_int_equal(cl("[DEBUG] HCCL(1,p):2025-10-24-11:16:52.724.374 [a.cc:1] [2]tag[x], count[1]"), HX_CL_NOISE);
	assert_int_equal(cl("INFO 2023-01-10 09:15:46 - train - dataset_func.py:op:302 - Iter Num : 0"), HX_CL_NOISE);
	assert_int_equal(cl("x"), HX_CL_NOISE);
	/* errors and the INFO families that matter pass */
	assert_int_equal(cl("[ERROR] GE(1,p):2025-10-24-11:16:52.724.374 [a.cc:1] 2 x"), HX_CL_PREFIXED);
	assert_int_equal(cl("[WARNING] GE(1,p):x"), HX_CL_PREFIXED);
	assert_int_equal(cl("[CRITICAL] DEVICE(1,f,p):x"), HX_CL_PREFIXED);
	assert_int_equal(cl("[INFO] HCCL(1,p):2025-10-24-11:16:52.724.374 [op_base.cc:1] [1]Entry-HcclCommInitRootInfoInner:ranks[4], rank[2]"), HX_CL_PREFIXED);
	assert_int_equal(cl("[INFO] HCCL(1,p):2025-10-24-11:16:52.724.374 [e.cc:1] [1]HCCL_EXEC_TIMEOUT set by default to [1836]s"), HX_CL_PREFIXED);
	assert_int_equal(cl("[INFO] HCCL(1,p):2025-10-24-11:16:52.724.374 [h.cc:1] [1]local rank [a/1]: crimer rank [b/2] status[LOST]"), HX_CL_PREFIXED);
	assert_int_equal(cl("[INFO] HCCL(1,p):2025-10-24-11:16:52.724.374 [r.cc:1] [1][OpRetry][Agent]Get ErrorCode[1]"), HX_CL_PREFIXED);
	assert_int_equal(cl("[EVENT] HCCL(55,python):2023-12-28-06:25:51.049.901 [externalinput.cc:969][55]ExecTimeOut is set to timeOut[120]"), HX_CL_PREFIXED);
	assert_int_equal(cl("[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) watchdog timeout, dogId 65584"), HX_CL_PREFIXED);
	/* lines without the prefix */
	assert_int_equal(cl("EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait"), HX_CL_BARE);
	assert_int_equal(cl("[PID: 3480365] 2025-12-24-14:10:31.094.189 Execution_Error_SDMA(EI0012): x"), HX_CL_BARE);
	assert_int_equal(cl("pos=47: stream_id=3, task_id=47, sqe_type=5, Event Wait, event_id=1"), HX_CL_BARE);
	assert_int_equal(cl("stream_id=3, rtsq_id=3, sq_fsm=0x9, head=47, tail=49"), HX_CL_BARE);
	assert_int_equal(cl("        Notify wait execute failed, device_id=1"), HX_CL_BARE);
	assert_int_equal(cl("run/plog/plog-1_2.log:[ERROR] HCCL(1,p):x"), HX_CL_PREFIXED);
	assert_int_equal(cl("run/plog/plog-1_2.log:[INFO] RUNTIME(1,p):x"), HX_CL_NOISE);
}

/* One key of §5, in one of its spellings, scanned out of a line. */
static void key_is(const char *text, int key, const char *value)
{
	struct hx_kv kv[HX_MAX_KV];
	size_t n = hx_kv_scan(text, strlen(text), kv, HX_MAX_KV);
	const struct hx_kv *k = hx_kv_get(kv, n, key, 0);

	if (!k)
		fail_msg("no key %d in \"%s\"", key, text);
	if (!str_is(k->v, k->vlen, value))
		fail_msg("key %d in \"%s\": got \"%.*s\", want \"%s\"", key,
			 text, (int)k->vlen, k->v, value);
}

static void test_spellings_stream_task(void **state)
{
	(void)state;
	key_is("base information: [streamID:[14], taskID[4]", HX_KV_STREAM, "14");
	key_is("base information: [streamID:[14], taskID[4]", HX_KV_TASK, "4");
	key_is("base information is streamId:149, sqid:153", HX_KV_STREAM, "149");
	key_is("Task {devId: 1 streamId: 169 sqId: 173}", HX_KV_STREAM, "169");
	key_is("info:[streamId :169 taskId :26076 errorCode :261", HX_KV_TASK, "26076");
	key_is("device_id=1, stream_id=14, task_id=4, flip_num=0", HX_KV_STREAM, "14");
	key_is("during task execution, stream_id:41, sq_id:8, task_id:30091", HX_KV_TASK, "30091");
	key_is("task fail start.notify taskid:3 streamid:2 retcode:507011", HX_KV_STREAM, "2");
	key_is("fftsplus streamId=50, taskId=21, context_id=18", HX_KV_TASK, "21");
	key_is("model stream_id=17, model task_id=43", HX_KV_STREAM, "17");
	key_is("Entry-HcomAllReduce:tag[x], streamId[13], deviceLogicId[0]", HX_KV_STREAM, "13");
	key_is("time [1]us, taskID[77726298], taskType", HX_KV_TASK, "77726298");
}

static void test_spellings_sq_head(void **state)
{
	(void)state;
	key_is("stream_id:41, sq_id:8, task_id:1", HX_KV_SQ, "8");
	key_is("streamId:149, sqid:153, head:1488, tail:136", HX_KV_SQ, "153");
	key_is("Task {devId: 1 streamId: 169 sqId: 173 cqId: 279}", HX_KV_SQ, "173");
	key_is("info:[sqeType :3 sqId :173 sqHead :1500", HX_KV_SQ, "173");
	key_is("wait task timeout, rtsq_id=3, type=5", HX_KV_SQ, "3");
	key_is("streamId:149, sqid:153, head:1488, tail:136", HX_KV_HEAD, "1488");
	key_is("info:[sqeType :3 sqId :173 sqHead :1500", HX_KV_HEAD, "1500");
	key_is("cur_wait_time=16, head=47, tail=49, is_model=0", HX_KV_TAIL, "49");
	key_is("task_id=47, cur_head=47, wait_sqe_head=47.", HX_KV_CUR_HEAD, "47");
	key_is("sq_head=0, sq_tail=2, acsq_id=10", HX_KV_TAIL, "2");
}

static void test_spellings_notify_event(void **state)
{
	(void)state;
	key_is("task information: [notify id:[0x0000000100000058], stage:[ffffffff]", HX_KV_NOTIFY, "0x0000000100000058");
	key_is("flip_num=0, notify_id=11[FUNC:GetError]", HX_KV_NOTIFY, "11");
	key_is("taskId:26064, notifyId:760, addr1High:0x0", HX_KV_NOTIFY, "760");
	key_is("info:(context_id=2, notify_id=7).", HX_KV_NOTIFY, "7");
	key_is("stream_id:41, sq_id:8, task_id:30091, event_id=127, timeout=234s.", HX_KV_EVENT, "127");
	key_is("task_type=3(EVENT_WAIT), event_flag=0x1.", HX_KV_EVENT_FLAG, "0x1");
}

static void test_spellings_device(void **state)
{
	(void)state;
	key_is("opData information is timeStamp:[x], deviceId[0], index[21]", HX_KV_DEVICE, "0");
	key_is("opData information is deviceId:[3], index[1338]", HX_KV_DEVICE, "3");
	key_is("failed, device_id=1, stream_id=14", HX_KV_DEVICE, "1");
	key_is("fftsplus task execute failed, dev_id=0, stream_id=4", HX_KV_DEVID, "0");
	key_is("Task {devId: 1 streamId: 169", HX_KV_DEVID, "1");
	key_is("The error from device(chipId:6, dieId:0), serial", HX_KV_CHIP, "6");
	key_is("identifier[x], deviceLogicId[2]", HX_KV_LOGIC_DEV, "2");
	key_is("server[s], logicDevId[3], phydevId[3], deviceIp[1.1.1.1]", HX_KV_LOGIC_DEV, "3");
	key_is("server[s], logicDevId[3], phydevId[3], deviceIp[1.1.1.1]", HX_KV_PHY_DEV, "3");
	key_is("(PID:13075, Device:0, RankID:8) ERR00100", HX_KV_DEVICE_PLAIN, "0");
	key_is("call excep_code=0xb4060006, time=1.0s, devid=0 tsid=0", HX_KV_DEVID, "0");
}

static void test_spellings_rank(void **state)
{
	(void)state;
	key_is("stage:[ffffffff], remote rank:[0].", HX_KV_REMOTE_RANK, "0");
	key_is("from remote rank [0].base information", HX_KV_REMOTE_RANK, "0");
	key_is("remote rank: [24]. base information", HX_KV_REMOTE_RANK, "24");
	key_is("Waiting peer rank: 4; task information", HX_KV_REMOTE_RANK, "4");
	key_is("SDMA memory copy task exception occurred. Remote rank: [4800].", HX_KV_REMOTE_RANK, "4800");
	key_is("user define information[], rankSize[32], rankId[25 24]", HX_KV_RANK_ID, "25 24");
	key_is("type:NOTIFY WAIT, localRank:1, remoteRank:0, taskId:1", HX_KV_LOCAL_RANK, "1");
	key_is("type:NOTIFY WAIT, localRank:1, remoteRank:0, taskId:1", HX_KV_REMOTE_RANK, "0");
	key_is("Inner:ranks[4], rank[2], rootinfo", HX_KV_RANK, "2");
	key_is("Inner:ranks[4], rank[2], rootinfo", HX_KV_RANK_SIZE, "4");
	key_is("SetupAgent rankNum[4], rank[0]", HX_KV_RANK_SIZE, "4");
	key_is("commId[c], rank[0], totalRanks[2], serverId", HX_KV_RANK_SIZE, "2");
	key_is("(PID:13075, Device:0, RankID:8)", HX_KV_RANK_ID, "8");
	key_is("remote rank:[local].", HX_KV_REMOTE_RANK, "local");
}

static void test_spellings_op_timeout_error(void **state)
{
	(void)state;
	key_is("taskType[Notify Wait], tag[AllReduce_x], index[3]", HX_KV_TAG, "AllReduce_x");
	key_is("opData information is tag:worldComm_device, group:g, opIndex:39013693", HX_KV_INDEX, "39013693");
	key_is("event_id=127, timeout=234s.", HX_KV_TIMEOUT, "234s");
	key_is("notify_id=11, timeout=1868.", HX_KV_TIMEOUT, "1868");
	key_is("stuck notify num:7, timeout:1836.", HX_KV_TIMEOUT, "1836");
	key_is("exe_time=16, time_out=10, stream_id=3", HX_KV_TIMEOUT, "10");
	key_is("stuck notify num:7, timeout:1836.", HX_KV_STUCK_NUM, "7");
	key_is("notify taskid:3 streamid:2 retcode:507011", HX_KV_RET_CODE, "507011");
	key_is("rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a", HX_KV_ERR_CODE, "507017");
	key_is("rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a", HX_KV_INNER_CODE, "0x715002a");
	key_is("type=13, retCode=0x91, [the model", HX_KV_RET_CODE, "0x91");
	key_is("errType=0x20(sq sw status error), sqSwStatus=0x105", HX_KV_ERR_TYPE, "0x20");
	key_is("thread_id=0, err_type=13[hccl fftsplus timeout]", HX_KV_ERR_TYPE, "13");
	key_is("info:[errorCode :261 errorType :32 sqeType :3", HX_KV_ERROR_TYPE, "32");
}

static void test_kv_not_fooled(void **state)
{
	struct hx_kv kv[HX_MAX_KV];
	const char *t = "stars_wait_sqe_is_timeout: Timeout: sq_pid=80029, sq_id=3";
	size_t n = hx_kv_scan(t, strlen(t), kv, HX_MAX_KV);

	(void)state;
	/* "Timeout:" has no value of its own; sq_pid is not swallowed */
	assert_null(hx_kv_get(kv, n, HX_KV_TIMEOUT, 0));
	assert_non_null(hx_kv_get(kv, n, HX_KV_SQ_PID, 0));
	/* a timestamp is not a key */
	t = "2025-10-24-11:18:29.499.235";
	assert_int_equal(hx_kv_scan(t, strlen(t), kv, HX_MAX_KV), 0);
	/* host ip is not a peer */
	t = "rootinfo: host ip[127.10.0.1] port[60000]";
	n = hx_kv_scan(t, strlen(t), kv, HX_MAX_KV);
	assert_null(hx_kv_get(kv, n, HX_KV_IP, 0));
}

static void test_numbers(void **state)
{
	uint64_t u;
	int64_t i;

	(void)state;
	assert_true(hx_parse_u64("0x0000000100000058", 18, &u));
	assert_true(u == 0x100000058ull);
	assert_true(hx_parse_u64("4294967295", 10, &u));
	assert_true(u == 4294967295ull);
	assert_false(hx_parse_u64("99999999999999999999999", 23, &u));
	assert_false(hx_parse_u64("", 0, &u));
	assert_true(hx_parse_i64("-1", 2, &i));
	assert_int_equal(i, -1);
	assert_false(hx_parse_i64("x1", 2, &i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p1_hccl_85),
		cmocka_unit_test(test_p2_no_spaces),
		cmocka_unit_test(test_p3_tid_glued),
		cmocka_unit_test(test_p4_comm_tag),
		cmocka_unit_test(test_p5_p7_empty_pname),
		cmocka_unit_test(test_p6_p8_runtime),
		cmocka_unit_test(test_p9_device_hccl),
		cmocka_unit_test(test_p10_p11_aicpu_tid),
		cmocka_unit_test(test_p12_tsch),
		cmocka_unit_test(test_p13_to_p16_glued),
		cmocka_unit_test(test_p17_kernel),
		cmocka_unit_test(test_p18_mindspore),
		cmocka_unit_test(test_p19_watchdog),
		cmocka_unit_test(test_p20_grep_prefix),
		cmocka_unit_test(test_p21_ascendcl),
		cmocka_unit_test(test_status_bracket),
		cmocka_unit_test(test_not_a_prefix),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_prefilter),
		cmocka_unit_test(test_spellings_stream_task),
		cmocka_unit_test(test_spellings_sq_head),
		cmocka_unit_test(test_spellings_notify_event),
		cmocka_unit_test(test_spellings_device),
		cmocka_unit_test(test_spellings_rank),
		cmocka_unit_test(test_spellings_op_timeout_error),
		cmocka_unit_test(test_kv_not_fooled),
		cmocka_unit_test(test_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
