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
	/* Python's logging: six digits of microseconds */
	hx_format_ts(hx_parse_ts("2025-09-15 08:38:12.776654", 26), t);
	assert_string_equal(t, "2025-09-15T08:38:12.776654");
	hx_format_ts(hx_parse_ts("2025-09-15T08:38:12.776", 23), t);
	assert_string_equal(t, "2025-09-15T08:38:12.776000");
	assert_int_equal(hx_parse_ts("2025-10-24", 10), HX_NONE);
	assert_int_equal(hx_parse_ts("2025-10-24-25:00:00.000.000", 27), HX_NONE);
}

/* Near misses: any character of the date and time (the first 19) made a
 * letter, or any field out of its range, is no time; the fraction is
 * optional, so a damaged one leaves the whole seconds (or the
 * milliseconds) standing. */
static void test_timestamp_near_misses(void **state)
{
	static const char good[] = "2025-10-24-11:18:29.499.235";
	static const char *const out_of_range[] = {
		"2025-00-24-11:18:29", "2025-13-24-11:18:29", "2025-10-00-11:18:29",
		"2025-10-32-11:18:29", "2025-10-24-24:18:29", "2025-10-24-11:60:29",
		"2025-10-24-11:18:61", "2025-10-24/11:18:29", "2025-10-24-11:18:2",
	};
	int64_t whole = hx_parse_ts(good, 19), full = hx_parse_ts(good, 27);
	char s[sizeof good];
	size_t i;

	(void)state;
	assert_int_equal(full - whole, 499235);
	for (i = 0; i < sizeof good - 1; i++) {
		int64_t v;

		memcpy(s, good, sizeof good);
		s[i] = 'x';
		v = hx_parse_ts(s, sizeof good - 1);
		if (i < 19)
			assert_int_equal(v, HX_NONE);
		else if (i < 23)
			assert_int_equal(v, whole);
		else
			assert_int_equal(v, whole + 499000);
	}
	for (i = 0; i < sizeof out_of_range / sizeof *out_of_range; i++)
		assert_int_equal(hx_parse_ts(out_of_range[i], strlen(out_of_range[i])),
				 HX_NONE);
	/* a leap second is a time */
	assert_int_not_equal(hx_parse_ts("2016-12-31-23:59:60", 19), HX_NONE);
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


/* ---- the console envelope (docs/EVIDENCE.md, "Console envelope") ---- */

static size_t env(const char *line, struct hx_envelope *e)
{
	e->srun_indent = false;
	return hx_parse_envelope(line, strlen(line), e);
}

static bool text_is(const char *line, const struct hx_envelope *e,
		    const char *want)
{
	return strcmp(line + e->skip, want) == 0;
}

static void test_env_torchrun_rank(void **state)
{
	struct hx_envelope e;
	const char *l1 = "[rank1]: EI0009: [PID: 2225827] 2025-09-24-20:59:48.119.066 Transport init error.";
	const char *l2 = "[rank1]:         Solution: Check other NPUs that are not reporting errors.";
	const char *l3 = "[rank0]:[E626 06:24:44.903881913 ProcessGroupHCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=808, OpType=ALLREDUCE)";

	(void)state;
	assert_int_equal(env(l1, &e), 9);                   /* field/27 */
	assert_int_equal(e.rank, 1);
	assert_int_equal(e.forms, HX_EV_RANK);
	assert_true(text_is(l1, &e, "EI0009: [PID: 2225827] 2025-09-24-20:59:48.119.066 Transport init error."));
	assert_int_equal(hx_classify(l1 + e.skip, strlen(l1) - e.skip), HX_CL_BARE);
	env(l2, &e);                                        /* the block's body stays indented */
	assert_true(text_is(l2, &e, "        Solution: Check other NPUs that are not reporting errors."));
	env(l3, &e);                                        /* c10: no space */
	assert_int_equal(e.rank, 0);
	assert_true(text_is(l3, &e, "[E626 06:24:44.903881913 ProcessGroupHCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=808, OpType=ALLREDUCE)"));
	assert_int_equal(hx_classify(l3 + e.skip, strlen(l3) - e.skip), HX_CL_BARE);
}

static void test_env_vllm_workers(void **state)
{
	struct hx_envelope e;
	const char *l1 = "(VllmWorker TP1 pid=961) EE9999: Inner Error!";
	const char *l2 = "(Worker_DP1_TP3_EP3 pid=4242) ERROR 02-17 09:12:45 [multiproc_executor.py:945] EE9999[PID: 4242] 2026-02-17-09:12:45.101.517 (EE9999):  The error from device(chipId:3, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:37, sq_id:3, task_id:4096, event_id=21, timeout=1836s.";
	const char *l3 = "(Worker pid=17148) (Worker_DP0_TP6_EP6 pid=17148) ERROR 03-25 06:14:02 [multiproc_executor.py:880]        synchronize stream with timeout failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]";
	const char *l4 = "(EngineCore_DP4 pid=3431) INFO 07-21 21:17:22 [shm_broadcast.py:705] No available shared memory broadcast block found in 60 seconds.";
	const char *l5 = "[Worker_DP0_TP1_EP1 pid=40968] INFO 07-23 02:43:54 [model_runner_v1.py:3686] Loading draftter model..";
	const char *l6 = "(VllmWorker rank=3 pid=50935) ERROR 09-10 03:36:31 [multiproc_executor.py:527]         Transport init error.";
	const char *l7 = "ERROR 05-29 20:52:26 worker_base.py:581] EE1001: [PID: 1059] 2025-05-29-20:52:24.655.114 The argument is invalid.";

	(void)state;
	env(l1, &e);
	assert_true(str_is(e.worker, e.workerlen, "VllmWorker TP1"));
	assert_int_equal(e.pid, 961);
	assert_int_equal(e.rank, -1);
	assert_true(text_is(l1, &e, "EE9999: Inner Error!"));
	env(l2, &e);                                        /* vLLM worker with EP names */
	assert_true(str_is(e.worker, e.workerlen, "Worker_DP1_TP3_EP3"));
	assert_int_equal(e.pid, 4242);
	assert_int_equal(e.level, HX_LV_ERROR);
	assert_int_equal(e.forms, HX_EV_WORKER | HX_EV_LOGGER);
	assert_memory_equal(l2 + e.skip, "EE9999[PID: 4242]", 16);
	env(l3, &e);                                        /* field/54: doubled */
	assert_true(str_is(e.worker, e.workerlen, "Worker_DP0_TP6_EP6"));
	assert_int_equal(e.pid, 17148);
	assert_true(text_is(l3, &e, "       synchronize stream with timeout failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]"));
	env(l4, &e);                                        /* field/41 */
	assert_true(str_is(e.worker, e.workerlen, "EngineCore_DP4"));
	assert_int_equal(e.level, HX_LV_INFO);
	assert_true(text_is(l4, &e, "No available shared memory broadcast block found in 60 seconds."));
	assert_int_equal(hx_classify(l4 + e.skip, strlen(l4) - e.skip), HX_CL_BARE);
	env(l5, &e);                                        /* square brackets */
	assert_true(str_is(e.worker, e.workerlen, "Worker_DP0_TP1_EP1"));
	assert_int_equal(e.pid, 40968);
	assert_true(text_is(l5, &e, "Loading draftter model.."));
	env(l6, &e);                                        /* a worker's rank= is not the global rank */
	assert_true(str_is(e.worker, e.workerlen, "VllmWorker rank=3"));
	assert_int_equal(e.rank, -1);
	env(l7, &e);                                        /* older logger, no '[' */
	assert_true(text_is(l7, &e, "EE1001: [PID: 1059] 2025-05-29-20:52:24.655.114 The argument is invalid."));
}

static void test_env_ray_pdsh_mpi_compose(void **state)
{
	struct hx_envelope e;
	const char *l1 = "(WorkerDict pid=1230, ip=10.0.0.7) [rank15]:[E510 00:18:19.328053719 ProcessGroupHCCL.cpp:629] [Rank 1] Watchdog caught collective operation timeout";
	const char *l2 = "(TaskRunner pid=52177) EI0002: The wait execution of the Notify register times out.";
	const char *l3 = "worker-1: EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), serial number is 1";
	const char *l4 = "10.0.0.1: [rank3]: EE9999: Inner Error!";
	const char *l5 = "[1,3]<stderr>:EE9999: Inner Error!";
	const char *l6 = "trainer   | [ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]";

	(void)state;
	env(l1, &e);                                        /* verl#1309 */
	assert_true(str_is(e.worker, e.workerlen, "WorkerDict"));
	assert_int_equal(e.pid, 1230);
	assert_true(str_is(e.node, e.nodelen, "10.0.0.7"));
	assert_int_equal(e.rank, 15);
	assert_memory_equal(l1 + e.skip, "[E510 ", 6);
	env(l2, &e);
	assert_true(str_is(e.worker, e.workerlen, "TaskRunner"));
	assert_true(text_is(l2, &e, "EI0002: The wait execution of the Notify register times out."));
	env(l3, &e);                                        /* Ascend/pytorch#43 */
	assert_true(str_is(e.node, e.nodelen, "worker-1"));
	assert_int_equal(e.forms, HX_EV_NODE);
	assert_memory_equal(l3 + e.skip, "EI9999: 2024", 12);
	env(l4, &e);
	assert_true(str_is(e.node, e.nodelen, "10.0.0.1"));
	assert_int_equal(e.rank, 3);
	assert_true(text_is(l4, &e, "EE9999: Inner Error!"));
	env(l5, &e);                                        /* Open MPI --tag-output */
	assert_int_equal(e.rank, 3);
	assert_int_equal(e.forms, HX_EV_MPI);
	assert_true(text_is(l5, &e, "EE9999: Inner Error!"));
	env(l6, &e);                                        /* docker compose */
	assert_true(str_is(e.worker, e.workerlen, "trainer"));
	assert_int_equal(e.forms, HX_EV_COMPOSE);
	assert_memory_equal(l6 + e.skip, "[ERROR] HCCL(", 13);
}

/* Labels that name no global rank: torchrun --tee, a parallel group's
 * bracket, srun --label; each kept as the worker, never as the rank. */
static void test_env_labels(void **state)
{
	static const struct { const char *line, *worker, *text; } c[] = {
		{ "[default0]:RuntimeError: HCCL function error", "default0",
		  "RuntimeError: HCCL function error" },
		{ "[default3]: EE9999: Inner Error!", "default3", "EE9999: Inner Error!" },
		{ "[TP0] Scheduler watchdog timeout", "TP0", "Scheduler watchdog timeout" },
		{ "[DP1 TP0] [ERROR] HCCL(1,python):x", "DP1 TP0", "[ERROR] HCCL(1,python):x" },
		{ "[Worker_DP0_TP1] EI0002: x", "Worker_DP0_TP1", "EI0002: x" },
		{ "3: [rank3]: EE9999: Inner Error!", "3", "EE9999: Inner Error!" },
		{ "12: EI0002: The wait execution", "12", "EI0002: The wait execution" },
	};
	static const char *const none[] = {
		"[ERROR] x", "[TP0]x", "[Step] x", "[E612 10:00:01.000001 a.cc:1] x",
		"[TP0 x] y", "1234: x", "99: [PID: 7] 2024-07-03 x", "99: Inner Error!",
		"7:  indented", "[0] x",
	};
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(c); i++) {
		env(c[i].line, &e);
		if (!(e.forms & HX_EV_LABEL) || !str_is(e.worker, e.workerlen, c[i].worker) ||
		    !text_is(c[i].line, &e, c[i].text))
			fail_msg("label in \"%s\": forms %x, text \"%s\"", c[i].line,
				 e.forms, c[i].line + e.skip);
		if (strncmp(c[i].line, "3: ", 3) != 0)        /* that one says [rank3] */
			assert_int_equal(e.rank, -1);
	}
	for (i = 0; i < HX_ARRAY_LEN(none); i++)
		if (env(none[i], &e) != 0 && (e.forms & HX_EV_LABEL))
			fail_msg("label in \"%s\"", none[i]);
	/* in a file whose lines had srun's label before text, the label
	 * before a line's own blanks is srun's too (a block's body) */
	e.srun_indent = true;
	assert_int_equal(hx_parse_envelope("7:         Possible Cause: x", 27, &e), 3);
	assert_true(e.forms & HX_EV_SRUN);
	assert_true(str_is(e.worker, e.workerlen, "7"));
	/* ... but never the tail of a wrapped error-manager code */
	e.srun_indent = true;
	assert_false(hx_parse_envelope("99: [PID: 7] 2024-07-03 x", 25, &e) &&
		     (e.forms & HX_EV_LABEL));
}

/* A logger's time head after a launcher's label: the line's clock. */
static void test_env_label_time(void **state)
{
	struct hx_envelope e;
	const char *l1 = "0: [2025-09-29 07:27:30] Initialization failed.";
	const char *l2 = "[default0]:2025-03-26 13:49:01,670 - root - ERROR - EI0002: x";

	(void)state;
	env(l1, &e);
	assert_true(e.forms & HX_EV_SRUN);
	assert_true(text_is(l1, &e, "Initialization failed."));
	env(l2, &e);
	assert_true(e.forms & HX_EV_LABEL);
	assert_true(text_is(l2, &e, "EI0002: x"));
}

/* A logger's time head: Python logging's, loguru's, a bracketed time;
 * its level word taken off and not kept (a launcher's logger says nothing
 * of a line by it). */
static void test_env_time(void **state)
{
	static const struct { const char *line, *text; } c[] = {
		{ "2025-03-26 13:49:01,670 - root - ERROR - EI0002: x", "EI0002: x" },
		{ "2025-03-26 13:49:01,670 - EI0002: x", "EI0002: x" },
		{ "[2025-03-26 13:49:01] EI0002: x", "EI0002: x" },
		{ "[2025-09-22 20:20:40 TP4] EI0002: x", "EI0002: x" },
		{ "2025-02-13 10:46:42.386 | ERROR    | magic_pdf.tools.cli:parse_doc:130 - x y",
		  "x y" },
		{ "2024-11-07 12:55:24,870 - lmdeploy - ERROR - __init__.py:17 - ModuleNotFoundError: x",
		  "ModuleNotFoundError: x" },
		{ "2025-12-04 15:59:26.877+08:00 - EI0002: x", "EI0002: x" },
		{ "2025-03-26 13:49:01 INFO EI0002: x", "EI0002: x" },
		{ "2025-03-26T13:49:01 CRITICAL: EI0002: x", "EI0002: x" },
		{ "[2025-03-26 13:49:01] [ERROR] HCCL(1,python):x", "[ERROR] HCCL(1,python):x" },
	};
	static const char *const none[] = {
		"2024-07-03-11:28:40.419.527 x", "2025-03-26 13:49:01", "2025-13-26 13:49:01 x",
		"[2025-03-26 13:49:01 x", "2025-03-26 13:49 x", "2025-03-26 13:49:01x",
	};
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(c); i++) {
		env(c[i].line, &e);
		if (!(e.forms & HX_EV_LOGGER) || !text_is(c[i].line, &e, c[i].text) ||
		    e.level != HX_LV_NONE)
			fail_msg("time head in \"%s\": forms %x, level %d, text \"%s\"",
				 c[i].line, e.forms, e.level, c[i].line + e.skip);
	}
	for (i = 0; i < HX_ARRAY_LEN(none); i++)
		if (env(none[i], &e) != 0 && (e.forms & HX_EV_LOGGER))
			fail_msg("time head in \"%s\"", none[i]);
	/* vLLM's logger after a time head keeps its own level */
	env("[2025-03-26 13:49:01] WARNING 01-14 11:06:50 [ops.py:20] Failed x", &e);
	assert_int_equal(e.level, HX_LV_WARNING);
}

/* Markdown around a pasted line: a list item, inline code; a web page's
 * blanks. */
static void test_env_markdown(void **state)
{
	static const struct { const char *line, *text; } c[] = {
		{ "- EI0002: x", "EI0002: x" },
		{ "* [ERROR] HCCL(1,python):x", "[ERROR] HCCL(1,python):x" },
		{ "+ EE9999: Inner Error!", "EE9999: Inner Error!" },
		{ "> - EI0002: x", "EI0002: x" },
		{ "`EI0002: x`", "EI0002: x`" },
		{ "```EI0002: x", "EI0002: x" },
		{ "> `[rank3]: EI0002: x", "EI0002: x" },
	};
	static const char *const none[] = {
		"-1 x", "--- x", "** x", "-x", "``` ", "```", "a - b", "- ",
	};
	static const char *const blank[] = {
		"EI0002:\xc2\xa0The wait", "EI0002:\xe3\x80\x80The wait",
		"[ERROR]\xc2\xa0HCCL(1,python):x",
	};
	static const char *const clean[] = {
		"EI0002: The wait", "EI0002: The wait", "[ERROR] HCCL(1,python):x",
	};
	struct hx_envelope e;
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(c); i++) {
		env(c[i].line, &e);
		if (!(e.forms & HX_EV_QUOTE) || !text_is(c[i].line, &e, c[i].text))
			fail_msg("markdown in \"%s\": forms %x, text \"%s\"",
				 c[i].line, e.forms, c[i].line + e.skip);
	}
	for (i = 0; i < HX_ARRAY_LEN(none); i++)
		if (env(none[i], &e) != 0 && (e.forms & HX_EV_QUOTE))
			fail_msg("markdown in \"%s\"", none[i]);
	for (i = 0; i < HX_ARRAY_LEN(blank); i++) {
		assert_true(hx_coloured(blank[i], strlen(blank[i])));
		buf[hx_decolour(blank[i], strlen(blank[i]), buf)] = '\0';
		assert_string_equal(buf, clean[i]);
	}
	/* a plog line's no-break space is looked for in its head only */
	assert_false(hx_coloured("[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 "
				 "[a.cc:1] x y z x y z x y z\xc2\xa0", 80));
}

/* A reporter's sentence before the first log line, on its line. */
static void test_env_prose(void **state)
{
	static const struct { const char *line, *text; } c[] = {
		{ "Here is the error I got: [ERROR] HCCL(1,python):x",
		  "[ERROR] HCCL(1,python):x" },
		{ "I got the following error: EI0002: The wait",
		  "EI0002: The wait" },
		{ "When training on 8 cards it said: RuntimeError: x y",
		  "RuntimeError: x y" },
		{ "\xe6\x8a\xa5\xe9\x94\x99\xe5\xa6\x82\xe4\xb8\x8b\xef\xbc\x9a" "EI0002: The wait",
		  "EI0002: The wait" },
		{ "and the log then says: > [ERROR] HCCL(1,python):x",
		  "[ERROR] HCCL(1,python):x" },
		{ "Then it stopped with: Traceback (most recent call last):",
		  "Traceback (most recent call last):" },
	};
	static const char *const none[] = {
		/* a message of its own, a list after it, two words */
		"Error executing job with overrides: ['a=1', 'b=2']",
		"Failed to connect to the server because: [ERROR] HCCL(1,python):x",
		"and then the run reported: ['x', 'y', 'z', 'w']",
		"Log says: EI0002: The wait",
		"I got this error: disk is full",
		"one two three: some words follow",
	};
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(c); i++) {
		env(c[i].line, &e);
		if (!(e.forms & HX_EV_QUOTE) || !text_is(c[i].line, &e, c[i].text))
			fail_msg("prose in \"%s\": forms %x, text \"%s\"",
				 c[i].line, e.forms, c[i].line + e.skip);
	}
	for (i = 0; i < HX_ARRAY_LEN(none); i++)
		if (env(none[i], &e) != 0 && (e.forms & HX_EV_QUOTE))
			fail_msg("prose in \"%s\"", none[i]);
}

/* kubectl's prefix and time, syslog's head. */
static void test_env_kube_syslog(void **state)
{
	struct hx_envelope e;
	const char *l1 = "[pod/trainer-0/main] EI0002: x";
	const char *l2 = "2025-01-01T00:00:08.123456789Z EI0002: x";
	const char *l3 = "Jan  5 10:00:01 node-1 python[4242]: EI0002: x";
	const char *l4 = "Dec 15 10:00:01 node-1 kernel: [Hardware Error] x";
	static const char *const none[] = {
		"[pod/trainer-0] x", "2025-01-01T00:00:08.123456789 x",
		"2025-01-01 00:00:08.1Z x", "Jan 5 10:00 node-1 p: x",
		"Janet 5 10:00:01 node-1 p: x", "Jan 15 10:00:01 node-1 p x",
		"Abc 15 10:00:01 node-1 p: x", "2025-01-01T00:00:08.123456L x",
	};
	size_t i;

	(void)state;
	env(l1, &e);
	assert_true(str_is(e.worker, e.workerlen, "pod/trainer-0/main"));
	assert_true(text_is(l1, &e, "EI0002: x"));
	env(l2, &e);
	assert_int_equal(e.forms, HX_EV_KUBE);
	assert_true(text_is(l2, &e, "EI0002: x"));
	env(l3, &e);
	assert_true(str_is(e.node, e.nodelen, "node-1"));
	assert_int_equal(e.pid, 4242);
	assert_true(text_is(l3, &e, "EI0002: x"));
	env(l4, &e);
	assert_true(str_is(e.node, e.nodelen, "node-1"));
	assert_true(text_is(l4, &e, "[Hardware Error] x"));
	for (i = 0; i < HX_ARRAY_LEN(none); i++)
		if (env(none[i], &e) != 0 && (e.forms & (HX_EV_KUBE | HX_EV_NODE)))
			fail_msg("kubectl or syslog head in \"%s\"", none[i]);
}

static void test_env_grep_and_indent(void **state)
{
	struct hx_envelope e;
	const char *l1 = "rank-3/train.log:1042:EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990";
	const char *l2 = "train.log-1043-        TraceBack (most recent call last):";
	const char *l3 = "    [ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.229 [topoinfo_exchange_server.cc:113] [57044][Get][Connection]topo exchange server get socket timeout! timeout[720 s]";
	const char *l4 = "logs/out.log:7:worker-1: [rank3]: EE9999: Inner Error!";

	(void)state;
	env(l1, &e);
	assert_true(str_is(e.gpath, e.gpathlen, "rank-3/train.log"));
	assert_memory_equal(l1 + e.skip, "EE9999  fftsplus", 16);
	env(l2, &e);                                        /* grep -A context line */
	assert_true(str_is(e.gpath, e.gpathlen, "train.log"));
	assert_true(text_is(l2, &e, "        TraceBack (most recent call last):"));
	env(l3, &e);                                        /* field/57: page indentation */
	assert_int_equal(e.forms, HX_EV_INDENT);
	assert_memory_equal(l3 + e.skip, "[ERROR] HCCL(10261", 18);
	env(l4, &e);
	assert_int_equal(e.forms, HX_EV_GREP | HX_EV_NODE | HX_EV_RANK);
	assert_int_equal(e.rank, 3);
	assert_true(text_is(l4, &e, "EE9999: Inner Error!"));
}

/* What no envelope is: the lines a launcher prefix must not swallow. */
static void test_env_not_fooled(void **state)
{
	static const char *const plain[] = {
		"[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.463 [hccl_socket.cc:100] [2717288][HcclSocket][Listen] socket type[1]",
		"EE9999: Inner Error!",
		"EI0002:The wait execution of the Notify register times out.",
		"EL0004: [PID: 553] 2025-09-17-04:55:13.065.712 Failed to allocate memory.",
		"RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:390 NPU function error",
		"torch.OutOfMemoryError: NPU out of memory. Tried to allocate 72.00 MiB",
		"        TraceBack (most recent call last):",
		" (function npuSynchronizeUsedDevices)",
		"        [drv api] halCqReportRecv failed: device_id=0, ts_id=0",
		"ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:2, dieId:0)",
		"2024-07-03-11:28:40.419.527  The error from device",
		"ERR00100: x", "stream_id=3, rtsq_id=3, sq_fsm=0x9",
		"[PID: 3480365] 2025-12-24-14:10:31.094.189 Execution_Error_SDMA(EI0012): SDMA",
		"[W NPUStream.cpp:382] Warning: NPU warning, error code is 107020[Error]: .",
		"(function npuSynchronizeDevice)", "9999: Inner Error!",
	};
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(plain); i++) {
		if (env(plain[i], &e) != 0)
			fail_msg("envelope in \"%s\"", plain[i]);
		assert_int_equal(e.rank, -1);
	}
}

/* Paste damage the prefix grammar absorbs itself. */
static void test_pasted_prefix_damage(void **state)
{
	struct hx_prefix p;

	(void)state;
	/* a lost leading '[' */
	assert_true(prefix("ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]", &p));
	assert_int_equal(p.level, HX_LV_ERROR);
	assert_int_equal(p.pid, 2717288);
	assert_true(body_is(&p, "[Wait][LinkEstablish]wait socket"));
	assert_int_equal(hx_classify("ERROR] HCCL(1,p):x", 18), HX_CL_PREFIXED);
	assert_int_equal(hx_classify("INFO] HCCL(1,p):2025-01-01-00:00:00.000.000 [a.c:1] x", 53), HX_CL_NOISE);
	/* an empty process name, "[file:line]tid" without a space (field/46) */
	assert_true(prefix("[ERROR] RUNTIME(129179,):2026-03-25-16:51:14.620.951 [api_c_kernel.cc:78]129253 rtsLaunchKernelWithHostArgs:ErrCode=507048, desc=[fftsplus timeout], InnerCode=0x715006b", &p));
	assert_int_equal(p.pnamelen, 0);
	assert_int_equal(p.tid, 129253);
	assert_true(body_is(&p, "rtsLaunchKernelWithHostArgs:ErrCode=507048"));
	/* "[ERROR]HCCL(" without spaces (field/57 agent line's form, P2) */
	assert_true(prefix("[ERROR]HCCL(350697,all_reduce_test):2025-10-23-14:56:18.215.964[topoinfo_exchange_agent.cc:534][350697][Verify][ClusterInfo]rank num[4] is different", &p));
	assert_int_equal(p.tid, 350697);
	assert_true(body_is(&p, "[Verify][ClusterInfo]rank num[4]"));
}

static void test_classify_console(void **state)
{
	static const char *const pass[] = {
		"EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990",
		"EE9999 The error from device(chipId:3, dieId:0), serial number is 1, event wait timeout occurred",
		"EE9999[PID: 43311] The error from device(chipId:1, dieId:0), serial number is 6.",
		"EH9999: Inner Error!",
		"[E324 13:00:25.428578250 ProcessGroupHCCL.cpp:1664] [PG 0 Rank 1] Watchdog caught collective operation timeout",
		"No available shared memory broadcast block found in 60 seconds.",
		"torch.OutOfMemoryError: NPU out of memory.",
	};
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(pass); i++)
		if (hx_classify(pass[i], strlen(pass[i])) == HX_CL_NOISE)
			fail_msg("noise: \"%s\"", pass[i]);
	assert_int_equal(hx_classify("EEE: x y z", 10), HX_CL_NOISE);
	assert_int_equal(hx_classify("[I1206 18:44:12.7 x.cpp:1] y", 28), HX_CL_NOISE);
}

/* ---- paste damage: colour, grep output, condensed lines (issue 23) ---- */

/* The line without its colour, NUL-terminated in buf. */
static const char *decolour(const char *line, char *buf)
{
	size_t n = strlen(line);

	assert_true(hx_coloured(line, n));
	buf[hx_decolour(line, n, buf)] = '\0';
	return buf;
}

/* vLLM colours its worker prefix; a file keeps the ESC bytes, a web page
 * loses them and keeps "[0;36m". */
static void test_colour_vllm_prefix(void **state)
{
	static const char *const coloured[] = {
		"\x1b[0;36m(EngineCore_DP0 pid=224)\x1b[0;0m ERROR 09-12 10:00:01 [core.py:790] EE9999: Inner Error!",
		"[0;36m(EngineCore_DP0 pid=224)[0;0m ERROR 09-12 10:00:01 [core.py:790] EE9999: Inner Error!",
		"\x1b[1;36m(EngineCore_DP0 pid=224)\x1b[0m \x1b[31mERROR\x1b[0m \x1b[90m09-12 10:00:01\x1b[0m \x1b[90m[core.py:790]\x1b[0m EE9999: Inner Error!",
		"[1;36m(EngineCore_DP0 pid=224)[0m [31mERROR[0m [90m09-12 10:00:01[0m [90m[core.py:790][0m EE9999: Inner Error!",
		"(EngineCore_DP0 pid=224) [38;5;196mERROR[0m 09-12 10:00:01 [core.py:790] [33mEE9999: Inner Error![0m",
	};
	char buf[512];
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(coloured); i++) {
		const char *l = decolour(coloured[i], buf);

		if (strcmp(l, "(EngineCore_DP0 pid=224) ERROR 09-12 10:00:01 [core.py:790] EE9999: Inner Error!") != 0)
			fail_msg("\"%s\" gave \"%s\"", coloured[i], l);
		env(l, &e);
		assert_true(str_is(e.worker, e.workerlen, "EngineCore_DP0"));
		assert_int_equal(e.pid, 224);
		assert_int_equal(e.level, HX_LV_ERROR);
		assert_true(text_is(l, &e, "EE9999: Inner Error!"));
	}
}

/* Colour around a rank, a Ray actor, a level; every SGR shape. */
static void test_colour_shapes(void **state)
{
	char buf[512];
	struct hx_envelope e;

	(void)state;
	env(decolour("\x1b[1;31m[rank3]:\x1b[0m EI0002: The wait execution of the Notify register times out.", buf), &e);
	assert_int_equal(e.rank, 3);
	assert_true(text_is(buf, &e, "EI0002: The wait execution of the Notify register times out."));
	env(decolour("[1;31m[rank3]:[0m EE9999: Inner Error!", buf), &e);
	assert_int_equal(e.rank, 3);
	env(decolour("[36m(TaskRunner pid=52177)[0m EI0002: x", buf), &e);
	assert_true(str_is(e.worker, e.workerlen, "TaskRunner"));
	assert_string_equal(decolour("[33mWARNING[0m x", buf), "WARNING x");
	assert_string_equal(decolour("\x1b[38;5;196mred\x1b[m", buf), "red");
	assert_string_equal(decolour("[38;5;196mred[0m", buf), "red");
	assert_string_equal(decolour("a\x1b[Kb\x1b(B\x1b[mc", buf), "abc");
	/* grep --color, with and without its ESC bytes */
	assert_string_equal(decolour("\x1b[35m\x1b[Kplog/plog-1_2.log\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K19\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K[ERROR] x", buf),
			    "plog/plog-1_2.log:19:[ERROR] x");
	assert_string_equal(decolour("[35m[Kplog/plog-1_2.log[m[K[36m[K:[m[K[32m[K19[m[K[36m[K:[m[K[ERROR] x", buf),
			    "plog/plog-1_2.log:19:[ERROR] x");
}

/* What is no colour: brackets of the envelope and the plog grammar. */
static void test_colour_not_fooled(void **state)
{
	static const char *const plain[] = {
		"[rank3]: EE9999: Inner Error!", "[ERROR] HCCL(1,p):x [0]",
		"[1,3]<stderr>:EE9999: Inner Error!",
		"[E626 06:24:44.903881913 ProcessGroupHCCL.cpp:616] [Rank 0] Watchdog",
		"(VllmWorker TP1 pid=961) EE9999: Inner Error!",
		"worker-1: [0] rank[3] [12] [m] [mindspore/ccsrc/x.cc:1] [K] [;m]",
		"pos=41: stream_id=3, task_id=41, sqe_type=4, Event Record",
	};
	static const char *const plog[] = {
		"[INFO] HCCL(1,python):2025-10-24-11:16:52.724.374 [op_base.cc:1292] "
		"[1]Entry-HcclCommInitRootInfoInner:ranks[4], rank[0], identifier[30m_tp]",
		"[WARNING] HCCL(1,python):2025-10-24-11:16:52.724.374 [a.cc:1] [1]hold[5m]",
	};
	char buf[512];
	size_t i, n;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(plain); i++) {
		n = strlen(plain[i]);
		if (hx_coloured(plain[i], n))
			fail_msg("colour in \"%s\"", plain[i]);
		buf[hx_decolour(plain[i], n, buf)] = '\0';
		assert_string_equal(buf, plain[i]);
	}
	/* CANN prints no colour: a plog line is never taken for coloured,
	 * not even when its free text (a group a user named, a value in
	 * minutes) holds the shape of a bare SGR sequence */
	for (i = 0; i < HX_ARRAY_LEN(plog); i++)
		if (hx_coloured(plog[i], strlen(plog[i])))
			fail_msg("colour in the plog line \"%s\"", plog[i]);
}

/* grep over plogs and device logs: path and line number of each shape. */
static void test_env_grep_shapes(void **state)
{
	static const struct {
		const char *line, *path;
		int64_t lineno;
		const char *text;
	} c[] = {
		{ "./plog-1769_20260815015103482.log:19:[ERROR] RUNTIME(1769,):2026-08-15-01:51:03.482.123 [a.cc:1]1 x",
		  "./plog-1769_20260815015103482.log", 19, "[ERROR] RUNTIME(" },
		{ "plog/plog-1769_20260815015103482.log-[INFO] HCCL(1769,python):2026-08-15-01:51:03.482.200 [op_base.cc:1292] [1769]x",
		  "plog/plog-1769_20260815015103482.log", HX_NONE, "[INFO] HCCL(" },
		{ "plog/plog-1769_20260815015103482.log-20-[INFO] HCCL(1769,python):x",
		  "plog/plog-1769_20260815015103482.log", 20, "[INFO] HCCL(" },
		{ "device-0/device-2163_20260815015103482.log:88:[ERROR] RUNTIME(5375,aicpu_scheduler):x",
		  "device-0/device-2163_20260815015103482.log", 88, "[ERROR] RUNTIME(" },
		{ "logs/rank-3/ascend/log/debug/plog/plog-1770_20260815015103482.log:19:[ERROR] x",
		  "logs/rank-3/ascend/log/debug/plog/plog-1770_20260815015103482.log", 19, "[ERROR] x" },
		{ "rank_3/plog/plog-1_2.log:[ERROR] x", "rank_3/plog/plog-1_2.log", HX_NONE, "[ERROR] x" },
		{ "/var/log/npu/node-1/device-3/device-7_1.log:5:EE9999: Inner Error!",
		  "/var/log/npu/node-1/device-3/device-7_1.log", 5, "EE9999: Inner Error!" },
		{ "train.log:EE9999: Inner Error!", "train.log", HX_NONE, "EE9999: Inner Error!" },
		{ "19:[ERROR] RUNTIME(1769,):x", NULL, 19, "[ERROR] RUNTIME(" },
		{ "20-[INFO] HCCL(1769,python):x", NULL, 20, "[INFO] HCCL(" },
		{ "21-        TraceBack (most recent call last):", NULL, 21, "        TraceBack" },
		{ "7:(EngineCore_DP0 pid=224) EE9999: Inner Error!", NULL, 7, "EE9999: Inner Error!" },
		/* a ':' and a '-' both could end the prefix */
		{ "logs/train.log-5-EI0002:The wait execution of the Notify register times out.",
		  "logs/train.log", 5, "EI0002:The wait" },
		{ "logs/x-5-y.log:EE9999: Inner Error!", "logs/x-5-y.log", HX_NONE, "EE9999: Inner Error!" },
	};
	struct hx_envelope e;
	size_t i, k;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(c); i++) {
		k = env(c[i].line, &e);
		if (!(e.forms & HX_EV_GREP) || e.gline != c[i].lineno ||
		    (c[i].path ? !str_is(e.gpath, e.gpathlen, c[i].path)
			       : e.gpathlen != 0) ||
		    strncmp(c[i].line + k, c[i].text, strlen(c[i].text)) != 0)
			fail_msg("\"%s\": forms %#x, path \"%.*s\", line %lld, text \"%s\"",
				 c[i].line, e.forms, (int)e.gpathlen,
				 e.gpath ? e.gpath : "", (long long)e.gline, c[i].line + k);
	}
}

/* Lines that start like a grep prefix and are none. */
static void test_env_grep_not_fooled(void **state)
{
	static const char *const plain[] = {
		"9999: Inner Error!", "2024-07-03-11:28:40.419.527  The error from device",
		"11:28:40 start", "0:00:05 elapsed",
		"torch_npu/csrc/core/npu/NPUStream.cpp:363 NPU error, error code is 107020",
		"RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:363 NPU error",
		"ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:2, dieId:0)",
		"http://10.0.0.1:8000/v1 refused", "3 ranks: 0-1-2",
	};
	struct hx_envelope e;
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(plain); i++)
		if (env(plain[i], &e) != 0 || (e.forms & HX_EV_GREP))
			fail_msg("grep prefix in \"%s\"", plain[i]);
}

/* The plog grammar's own grep form (P20) says the line number too, and
 * "N:" alone is a line number, not a path. */
static void test_prefix_grep_line(void **state)
{
	struct hx_prefix p;

	(void)state;
	assert_true(prefix("logs/plog-1_2.log:1842:[ERROR] HCCL(1,x):2025-10-24-11:16:52.724.374 [a.cc:1] [1]text", &p));
	assert_int_equal(p.gline, 1842);
	assert_true(prefix("19:[ERROR] HCCL(1,x):2025-10-24-11:16:52.724.374 [a.cc:1] [1]text", &p));
	assert_null(p.gpath);
	assert_int_equal(p.gline, 19);
	assert_true(prefix("run/plog/plog-2_3.log:[INFO] HCCL(2,x):2025-10-24-11:16:52.724.374 [a.cc:1] [2]text", &p));
	assert_int_equal(p.gline, HX_NONE);
	assert_true(prefix("[ERROR] HCCL(1,x):2025-10-24-11:16:52.724.374 [a.cc:1] [1]text", &p));
	assert_int_equal(p.gline, HX_NONE);
}

/* A reporter's "…" or "..." in place of an id: the id is unknown, never
 * 0 or the digits before the cut. */
static void test_condensed_values(void **state)
{
	struct hx_kv kv[HX_MAX_KV];
	const struct hx_kv *k;
	const char *l1 = "stream_id=11, \xe2\x80\xa6 task_id=876, notify id:[0x\xe2\x80\xa6], event_id=73..., sq_id:..., timeout=1868.";
	size_t n;
	uint64_t u;

	(void)state;
	assert_false(hx_parse_u64("0x\xe2\x80\xa6", 5, &u));
	assert_false(hx_parse_u64("0x...", 5, &u));
	assert_false(hx_parse_u64("87\xe2\x80\xa6", 5, &u));
	assert_false(hx_parse_u64("87...", 5, &u));
	assert_false(hx_parse_u64("\xe2\x80\xa6", 3, &u));
	assert_true(hx_parse_u64("1868.", 5, &u));
	assert_true(u == 1868);
	assert_true(hx_parse_u64("234s", 4, &u));
	assert_true(u == 234);
	n = hx_kv_scan(l1, strlen(l1), kv, HX_MAX_KV);
	k = hx_kv_get(kv, n, HX_KV_STREAM, 0);
	assert_non_null(k);
	assert_true(hx_parse_u64(k->v, k->vlen, &u) && u == 11);
	k = hx_kv_get(kv, n, HX_KV_TASK, 0);
	assert_non_null(k);
	assert_true(hx_parse_u64(k->v, k->vlen, &u) && u == 876);
	k = hx_kv_get(kv, n, HX_KV_NOTIFY, 0);
	assert_non_null(k);
	assert_false(hx_parse_u64(k->v, k->vlen, &u));
	k = hx_kv_get(kv, n, HX_KV_EVENT, 0);
	assert_non_null(k);
	assert_false(hx_parse_u64(k->v, k->vlen, &u));
	k = hx_kv_get(kv, n, HX_KV_SQ, 0);
	assert_non_null(k);
	assert_true(str_is(k->v, k->vlen, "..."));
	k = hx_kv_get(kv, n, HX_KV_TIMEOUT, 0);
	assert_non_null(k);
	assert_true(str_is(k->v, k->vlen, "1868"));
}

/* hangdx_line_alarm: the follower's test of one new line (watch). */
static int alarm_of(const char *line)
{
	return hangdx_line_alarm(line, strlen(line));
}

/* The clock a console line starts with, in the loggers' forms; no clock
 * in a line whose colons are no time of day. */
static long long clock_of(const char *s, int *dated)
{
	int64_t c = -1;
	int d = -1;

	if (!hx_line_clock(s, strlen(s), &c, &d))
		return -1;
	*dated = d;
	return (long long)c;
}

static void test_line_clock(void **state)
{
	int d = -1;

	(void)state;
	assert_int_equal(clock_of("(EngineCore_DP1 pid=17219) ERROR 05-19 14:32:24 [core.py:1100] x", &d),
			 (5 * 31 + 19) * 86400LL + 14 * 3600 + 32 * 60 + 24);
	assert_int_equal(d, 1);
	assert_int_equal(clock_of("[2025-09-29 07:27:30] Initialization failed.", &d),
			 ((2025 * 12 + 9) * 31 + 29) * 86400LL + 7 * 3600 + 27 * 60 + 30);
	assert_int_equal(d, 2);
	assert_int_equal(clock_of("[ERROR] RUNTIME(1769,python):2025-08-15-01:51:03.482.123 [a.cc:1] x", &d),
			 ((2025 * 12 + 8) * 31 + 15) * 86400LL + 1 * 3600 + 51 * 60 + 3);
	/* a later line of an earlier year is earlier */
	assert_true(clock_of("[2021-10-05-23:07:08.656411] x", &d) <
		    clock_of("[2023-07-13-16:20:44.081811] x", &d));
	assert_int_equal(clock_of("E0612 10:00:01.000001 4242 transport.cpp:99] x", &d),
			 (6 * 31 + 12) * 86400LL + 10 * 3600 + 1);
	assert_int_equal(d, 1);
	assert_int_equal(clock_of("12:00:05 a clock without a date", &d), 12 * 3600 + 5);
	assert_int_equal(d, 0);
	assert_int_equal(clock_of("stream_id:6, sq_id:6, task_id:9035", &d), -1);
	assert_int_equal(clock_of("version 1:2:3 of 24:00:00 and 123:45:67", &d), -1);
}

static void test_line_alarm(void **state)
{
	(void)state;
	/* plog levels */
	assert_int_equal(alarm_of("[ERROR] HCCL(1,python3):2026-11-01-07:30:30.000.001 "
		"[transport.cc:1] [1][Notify][Wait] wait failed"), 1);
	assert_int_equal(alarm_of("[INFO] HCCL(100003,python3):2026-11-01-07:29:59.000.010 "
		"[externalinput.cc:1856] [100003][HCCL_ENV][ParseRetryEnable] "
		"HCCL_OP_RETRY_ENABLE is not set."), 0);
	assert_int_equal(alarm_of("[INFO] RUNTIME(1,python3):2026-11-01-07:29:59.000.010 "
		"[api.cc:1] [1] error_code=0 failed=0"), 0);
	assert_int_equal(alarm_of("[WARNING] HCCL(1,python3):2026-11-01-07:29:59.000.010 "
		"[a.cc:1] [1] wait timeout, retry"), 1);
	assert_int_equal(alarm_of("[WARNING] HCCL(1,python3):2026-11-01-07:29:59.000.010 "
		"[a.cc:1] [1] buffer is small"), 0);
	/* HCCL's 30 s report of a kernel still waiting, at INFO */
	assert_int_equal(alarm_of("[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:30.000.075 "
		"[aicpu_communicator.cc:3871] [5017][HcclCommAicpu][WaitFinishWhileLoop]"
		"Current state. sqid:10, head:0, tail:4, tag[AllReduce_g], index[0]"), 1);
	/* console: codes, words, a logger's level */
	assert_int_equal(alarm_of("EI0002: The wait execution of the Notify register times out."), 1);
	assert_int_equal(alarm_of("RuntimeError: The Inner error is reported as above."), 1);
	assert_int_equal(alarm_of("torch.distributed.DistStoreError: wait timeout after 1800000ms"), 1);
	assert_int_equal(alarm_of("[rank3]: Traceback (most recent call last):"), 1);
	assert_int_equal(alarm_of("ERROR 03-25 06:14:02 [core.py:880] EngineCore hit an exception"), 1);
	assert_int_equal(alarm_of("INFO 03-25 06:14:02 [core.py:880] init engine took 12.0 s"), 0);
	assert_int_equal(alarm_of("epoch 3 step 1200 loss 1.732 lr 0.0003"), 0);
	assert_int_equal(alarm_of("EI000"), 0);
	assert_int_equal(alarm_of(""), 0);
	assert_int_equal(hangdx_line_alarm(NULL, 3), 0);
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
		cmocka_unit_test(test_timestamp_near_misses),
		cmocka_unit_test(test_prefilter),
		cmocka_unit_test(test_spellings_stream_task),
		cmocka_unit_test(test_spellings_sq_head),
		cmocka_unit_test(test_spellings_notify_event),
		cmocka_unit_test(test_spellings_device),
		cmocka_unit_test(test_spellings_rank),
		cmocka_unit_test(test_spellings_op_timeout_error),
		cmocka_unit_test(test_kv_not_fooled),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_env_torchrun_rank),
		cmocka_unit_test(test_env_vllm_workers),
		cmocka_unit_test(test_env_ray_pdsh_mpi_compose),
		cmocka_unit_test(test_env_grep_and_indent),
		cmocka_unit_test(test_env_not_fooled),
		cmocka_unit_test(test_env_labels),
		cmocka_unit_test(test_env_label_time),
		cmocka_unit_test(test_env_kube_syslog),
		cmocka_unit_test(test_env_markdown),
		cmocka_unit_test(test_env_time),
		cmocka_unit_test(test_env_prose),
		cmocka_unit_test(test_pasted_prefix_damage),
		cmocka_unit_test(test_classify_console),
		cmocka_unit_test(test_colour_vllm_prefix),
		cmocka_unit_test(test_colour_shapes),
		cmocka_unit_test(test_colour_not_fooled),
		cmocka_unit_test(test_env_grep_shapes),
		cmocka_unit_test(test_env_grep_not_fooled),
		cmocka_unit_test(test_prefix_grep_line),
		cmocka_unit_test(test_condensed_values),
		cmocka_unit_test(test_line_alarm),
		cmocka_unit_test(test_line_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
