/*
 * test_ingest_families.c - every hang-relevant message family of
 * log-formats.md §3-§4 becomes the right typed record: one test per
 * format generation (EI0002 gens 1-4, error-manager prefixes, HCCL 2022 /
 * 2024 / 8.5 blocks, runtime prints old and new) and per quirk (notify id
 * per layer, rank placeholders, grouped blocks, continuations).  Lines are
 * verbatim from the format reference unless marked (format string).
 */
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

#include "ingestutil.h"

static const struct hx_rec *rec(const struct hangdx_evidence *ev, int kind,
				int nth)
{
	size_t i;

	for (i = 0; i < ev->nrec; i++)
		if (ev->recs[i].kind == kind && nth-- == 0)
			return &ev->recs[i];
	fail_msg("no record %s #%d", hx_kind_name(kind), nth);
	return NULL;
}

static size_t count(const struct hangdx_evidence *ev, int kind)
{
	size_t i, n = 0;

	for (i = 0; i < ev->nrec; i++)
		n += ev->recs[i].kind == kind;
	return n;
}

static int64_t num(const struct hangdx_evidence *ev, const struct hx_rec *r,
		   int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	if (!f)
		fail_msg("no field %s in %s", hx_field_name(key),
			 hx_kind_name(r->kind));
	return f->num;
}

static const char *str(const struct hangdx_evidence *ev,
		       const struct hx_rec *r, int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	if (!f)
		fail_msg("no field %s in %s", hx_field_name(key),
			 hx_kind_name(r->kind));
	return hx_ev_str(ev, f->str);
}

static bool has(const struct hangdx_evidence *ev, const struct hx_rec *r,
		int key)
{
	return hx_rec_field(ev, r, key) != NULL;
}

/* ---- EI0002, four generations (§4.1) ---- */

static void test_ei0002_gen1(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[CRITICAL] DEVICE(162844,fffd6cff91e0,python):2022-12-01-00:26:58.399.787 [mindspore/ccsrc/plugin/device/ascend/hal/hardware/ascend_graph_executor.cc:240] RunGraph] Run task for graph:kernel_graph_1 error! The details refer to 'Ascend Error Message'.Ascend Error Message:EI0002: The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [0].base information: [streamID:[14], taskID[4], taskType[Notify Wait], tag[HcomAllReduce_6629421139219749105_0].] task information: [notify id:[0x0000000100000058], stage:[ffffffff], remote rank:[0].\n"
		"there are(is) 1 abnormal device(s):\n"
		"        serverId[10.*.*.*], deviceId[0], Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected\n"
		"]\n"
		"        TraceBack (most recent call last):\n"
		"        Notify wait execute failed, device_id=1, stream_id=14, task_id=4, flip_num=0, notify_id=11[FUNC:GetError][FILE:stream.cc][LINE:921]\n");
	const struct hx_rec *r = rec(ev, HX_K_EI0002, 0), *c, *t;

	(void)state;
	assert_int_equal(num(ev, r, HX_F_GEN), 1);
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 1);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 0);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK_ALT), 0);
	assert_int_equal(num(ev, r, HX_F_STREAM), 14);
	assert_int_equal(num(ev, r, HX_F_TASK), 4);
	assert_string_equal(str(ev, r, HX_F_TASK_TYPE), "Notify Wait");
	assert_true((uint64_t)num(ev, r, HX_F_NOTIFY_HCCL) == 0x100000058ull);
	assert_string_equal(str(ev, r, HX_F_STAGE), "ffffffff");
	assert_string_equal(str(ev, r, HX_F_OP), "AllReduce");
	assert_int_equal(r->pid, 162844);
	/* the heartbeat block and the traceback continue the message */
	c = rec(ev, HX_K_CLUSTER_EXCEPTION, 0);
	assert_string_equal(str(ev, c, HX_F_LOCATION), "10.*.*.*/0");
	assert_string_equal(str(ev, c, HX_F_STATUS), "LOST");
	assert_int_equal(num(ev, c, HX_F_PARENT_LINE), 1);
	t = rec(ev, HX_K_RT_TASK_FAIL, 0);
	assert_string_equal(str(ev, t, HX_F_WHAT), "notify_wait");
	assert_int_equal(num(ev, t, HX_F_NOTIFY_RT), 11);   /* runtime layer */
	assert_int_equal(num(ev, t, HX_F_DEVICE_ID), 1);
	assert_int_equal(t->pid, 162844);
	hangdx_evidence_free(ev);
}

static void test_ei0002_gen2(void **state)
{
	/* Ascend/pytorch docs/en/troubleshooting/HCCL_timeout.md */
	struct hangdx_evidence *ev = ingest(
		"EI0002: [PID: 7277] 2024-11-28-11:59:30.645.648 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [unknown].base information: [streamID:[2282987520], taskID[5], tag[AllReduce_90.90.92.240%enp189s0f0_60000_0_1732766162316022], AlgType(level 0-1-2):[fullmesh-ring-ring].] task information: [\n"
		"there are(is) 1 abnormal device(s):\n"
		"    Cluster Exception Location[IP/ID]:[90.90.92.240/1], Arrival Time:[Thu Nov 28 11:56:34 2024], Discoverer:[90.90.92.240/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected\n"
		"]\n");
	const struct hx_rec *r = rec(ev, HX_K_EI0002, 0), *c;

	(void)state;
	assert_int_equal(num(ev, r, HX_F_GEN), 2);
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 3);
	assert_int_equal(r->pid, 7277);
	assert_int_equal(r->ts, hx_parse_ts("2024-11-28-11:59:30.645.648", 27));
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK), "unknown");
	assert_int_equal(num(ev, r, HX_F_STREAM), 2282987520);  /* opaque 32 bit */
	assert_string_equal(str(ev, r, HX_F_ALG), "fullmesh-ring-ring");
	assert_false(has(ev, r, HX_F_TASK_TYPE));
	c = rec(ev, HX_K_CLUSTER_EXCEPTION, 0);
	assert_string_equal(str(ev, c, HX_F_LOCATION), "90.90.92.240/1");
	assert_string_equal(str(ev, c, HX_F_DISCOVERER), "90.90.92.240/0");
	assert_int_equal(c->pid, 7277);
	hangdx_evidence_free(ev);
}

static void test_ei0002_gen3(void **state)
{
	/* (format string) remote rank: [%s]. base information: [%s]. task
	 * information: [%s]. group information: [%s] */
	struct hangdx_evidence *ev = ingest(
		"EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [24]. base information: [streamID:[5], taskID[9], taskType[Notify Wait], tag[AllGather_g]]. task information: [notify id:[0x0000001900000010], stage:[0], remote rank:[24]]. group information: [group:[g], user define information[], rankSize[32], rankId[25 24]]\n");
	const struct hx_rec *r = rec(ev, HX_K_EI0002, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_GEN), 3);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 24);
	assert_int_equal(num(ev, r, HX_F_LOCAL_RANK), 25);  /* rankId[local remote] */
	assert_int_equal(num(ev, r, HX_F_RANK_SIZE), 32);
	assert_string_equal(str(ev, r, HX_F_GROUP), "g");
	assert_int_equal(r->pid, 13075);
	hangdx_evidence_free(ev);
}

static void test_ei0002_gen4(void **state)
{
	/* hicann/hcomm docs: the labels moved; keyed on field names */
	struct hangdx_evidence *ev = ingest(
		"[PID: 3480365] 2025-12-24-14:10:31.094.189 Communication_Error_Timeout(EI0002): An timeout occurs when the Notify register waits for execution. Waiting peer rank: 4; task information: streamID:[90], taskID[686], taskType[Notify Wait], tag[AllReduce_80.48.9.154%enp48s3u1u1_60000_0_1779783710697217ringAllReduceMeshSmallCountExecutor_device], AlgType(level 0-1-2):[ring-ring-NHR].; communication operator information: notify id:[0x00000000000018fc], stage:[0], remote rank:[4]; communicator: none.\n");
	const struct hx_rec *r = rec(ev, HX_K_EI0002, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_GEN), 4);
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 4);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 4);
	assert_int_equal(num(ev, r, HX_F_STREAM), 90);
	assert_int_equal(num(ev, r, HX_F_TASK), 686);
	assert_int_equal(num(ev, r, HX_F_NOTIFY_HCCL), 0x18fc);
	assert_string_equal(str(ev, r, HX_F_ALG), "ring-ring-NHR");
	assert_string_equal(str(ev, r, HX_F_OP), "AllReduce");
	hangdx_evidence_free(ev);
}

static void test_ei0002_two_spellings(void **state)
{
	/* hiyouga/LLaMA-Factory#975: the reason and the task part disagree */
	struct hangdx_evidence *ev = ingest(
		"EI0002: The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [4294967295].base information: [streamID:[3], taskID[2], taskType[Notify Wait], tag[x]] task information: [notify id:[0x0000000000000001], stage:[0], remote rank:[local].\n");
	const struct hx_rec *r = rec(ev, HX_K_EI0002, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK), "4294967295");
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK_ALT), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK_ALT), "local");
	hangdx_evidence_free(ev);
}

static void test_error_manager_prefixes(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), serial number is 1\n"
		"E30008: AI CPU operator execution time out.\n"
		"EE1002: 2024-09-03-16:50:00.041.231 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]\n"
		"[PID: 3448331] 2025-12-04-21:59:08.232310 Execution Error ROCE CQE(EI0013): An error CQE occurred during operator execution. Local information: server 127.0.0.1, device ID 0, device IP 127.10.0.1. Peer information: server 127.0.0.2, device ID 1, device IP 127.10.0.2.\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_ERR_CODE, 0);
	assert_string_equal(str(ev, r, HX_F_CODE), "EI9999");
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 2);
	assert_int_equal(r->ts, hx_parse_ts("2024-07-03-11:28:40.419.527", 27));
	r = rec(ev, HX_K_ERR_CODE, 1);
	assert_string_equal(str(ev, r, HX_F_CODE), "E30008");
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 1);
	r = rec(ev, HX_K_ERR_CODE, 2);
	assert_string_equal(str(ev, r, HX_F_CODE), "EE1002");
	r = rec(ev, HX_K_ERR_CODE, 3);
	assert_string_equal(str(ev, r, HX_F_CODE), "EI0013");
	assert_int_equal(num(ev, r, HX_F_EM_GEN), 4);
	assert_string_equal(str(ev, r, HX_F_DEVICE_IP), "127.10.0.1");
	assert_string_equal(str(ev, r, HX_F_REMOTE_IP), "127.10.0.2");
	assert_int_equal(num(ev, r, HX_F_REMOTE_DEVICE), 1);
	hangdx_evidence_free(ev);
}

/* ---- HCCL Task run failed blocks (§4.2) ---- */

static void test_task_fail_85_host(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
		"[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.247 [task_exception_handler.cc:771] [2111665][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[0].\n"
		"[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.283 [task_exception_handler.cc:704] [2111665][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].\n");
	const struct hx_rec *r = rec(ev, HX_K_HCCL_TASK_FAIL, 0);

	(void)state;
	assert_int_equal(count(ev, HX_K_HCCL_TASK_FAIL), 1);   /* one block */
	assert_int_equal(r->line, 1);
	assert_string_equal(str(ev, r, HX_F_PARTS), "base,group_rank,op_data");
	assert_string_equal(str(ev, r, HX_F_EXEC_STAGE), "TaskExecStage");
	assert_string_equal(str(ev, r, HX_F_FAIL_KIND), "Timeout");
	assert_string_equal(str(ev, r, HX_F_EXP_MODE), "HOST");       /* [Host] */
	assert_int_equal(num(ev, r, HX_F_STREAM), 2);
	assert_int_equal(num(ev, r, HX_F_TASK), 21);
	assert_int_equal(num(ev, r, HX_F_INDEX), 21);
	assert_int_equal(num(ev, r, HX_F_LOCAL_RANK), 0);
	assert_int_equal(num(ev, r, HX_F_RANK_SIZE), 4);
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 0);
	assert_int_equal(num(ev, r, HX_F_COUNT), 256);
	assert_string_equal(str(ev, r, HX_F_REDUCE_TYPE), "sum");
	assert_string_equal(str(ev, r, HX_F_DATA_TYPE), "float32");
	assert_int_equal(num(ev, r, HX_F_OP_TS),
			 hx_parse_ts("2025-10-24-11:16:55.493.816", 27));
	assert_string_equal(str(ev, r, HX_F_USER_DEFINE), "");
	hangdx_evidence_free(ev);
}

static void test_task_fail_2024(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(69396,python3):2024-04-08-02:55:04.912.154 [task_exception_handler.cc:449][69396][TaskExceptionHandler][Callback]Task from HCCL run failed.\n"
		"[ERROR] HCCL(69396,python3):2024-04-08-02:55:04.912.171 [task_exception_handler.cc:452][69396][TaskExceptionHandler][Callback]Task run failed, base information is streamID:[3], taskID[76601010], taskType[Notify Wait], tag[Alleduce_10.136.181.175%enp179s0f0_60000_0_1712529353144389], index[2], AlgType(level 0-1-2):[null-null-ring].\n"
		"[ERROR] HCCL(69396,python3):2024-04-08-02:55:04.912.194 [task_exception_handler.cc:454][69396][TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x0000000100000050], stage:[ffffffff], remote rank:[2].\n"
		"[ERROR] HCCL(69396,python3):2024-04-08-02:55:04.912.194 [task_exception_handler.cc:454][69396][TaskExceptionHandler][Callback]Task run failed, groupRank information is group:[10.136.181.175%enp179s0f0_60000_0_1712529353144389], rankSize[4], rankId[1].\n"
		"[ERROR] HCCL(69396,python3):2024-04-08-02:55:04.912.211 [task_exception_handler.cc:340][69396]server:10.136.181.175/5, server:10.136.181.175/1, Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected\n");
	const struct hx_rec *r = rec(ev, HX_K_HCCL_TASK_FAIL, 0), *c;

	(void)state;
	assert_int_equal(count(ev, HX_K_HCCL_TASK_FAIL), 1);
	assert_string_equal(str(ev, r, HX_F_PARTS), "header,base,para,group_rank");
	assert_int_equal(num(ev, r, HX_F_TASK), 76601010);      /* > 16 bits */
	assert_string_equal(str(ev, r, HX_F_TAG),
			    "Alleduce_10.136.181.175%enp179s0f0_60000_0_1712529353144389");
	assert_string_equal(str(ev, r, HX_F_OP), "AllReduce");  /* lenient */
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 2);
	assert_true((uint64_t)num(ev, r, HX_F_NOTIFY_HCCL) == 0x100000050ull);
	assert_false(has(ev, r, HX_F_EXEC_STAGE));
	c = rec(ev, HX_K_CLUSTER_EXCEPTION, 0);
	assert_string_equal(str(ev, c, HX_F_WHAT), "server_pair");
	assert_string_equal(str(ev, c, HX_F_LOCATION), "10.136.181.175/5");
	hangdx_evidence_free(ev);
}

static void test_task_fail_aicpu_mode(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(9,p):2025-01-01-00:00:00.000.001 [t.cc:1] [9][TaskExecStage][Timeout][AICPU]Task run failed, para information is notify id:[0x000000000000029f], stage:[0], remote rank:[local], tag[AllGather_group_name_5ringAlignedAllGatherDoubleRingFor91093Executor_device].\n"
		"[ERROR] HCCL(9,p):2025-01-01-00:00:00.000.002 [t.cc:2] [9][TaskExecStage][Timeout][AICPU]Task run failed, groupRank information is group:[group_name_5], user define information[], rankSize[8], rankId[3 4294967295].\n"
		"[ERROR] HCCL(9,p):2025-01-01-00:00:00.000.003 [t.cc:3] [9][TaskExecStage][Timeout][AICPU]Task run failed, opData information is deviceId:[3], index[1338], count[1].\n");
	const struct hx_rec *r = rec(ev, HX_K_HCCL_TASK_FAIL, 0);

	(void)state;
	assert_int_equal(count(ev, HX_K_HCCL_TASK_FAIL), 1);
	assert_string_equal(str(ev, r, HX_F_EXP_MODE), "AICPU");
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK), "local");
	assert_int_equal(num(ev, r, HX_F_LOCAL_RANK), 3);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK_ALT), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK_ALT), "4294967295");
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 3);       /* deviceId:[3] */
	assert_int_equal(num(ev, r, HX_F_INDEX), 1338);
	assert_string_equal(str(ev, r, HX_F_OP), "AllGather");
	hangdx_evidence_free(ev);
}

static void test_task_fail_dma_para(void **state)
{
	/* (format string) DMA para line */
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(9,p):2025-01-01-00:00:00.000.001 [t.cc:1] [9][TaskExecStage][RunFailed][HOST]Task run failed, para information is src:[0x12c180000000], dst:[0x12c041800000], size:[0x80], notify id:[0xffffffffffffffff], link type:[HCCS], remote rank:[7].\n");
	const struct hx_rec *r = rec(ev, HX_K_HCCL_TASK_FAIL, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_SRC_ADDR), 0x12c180000000);
	assert_int_equal(num(ev, r, HX_F_SIZE), 128);
	assert_string_equal(str(ev, r, HX_F_LINK_TYPE), "HCCS");
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 7);
	assert_true((uint64_t)num(ev, r, HX_F_NOTIFY_HCCL) == UINT64_MAX);
	assert_string_equal(str(ev, r, HX_F_FAIL_KIND), "RunFailed");
	hangdx_evidence_free(ev);
}

static void test_task_fail_blocks_split(void **state)
{
	/* two processes interleaved, and a repeat in one thread */
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.001 [t.cc:1] [1]Task run failed, base information is streamID:[1], taskID[1].\n"
		"[ERROR] HCCL(2,p):2025-01-01-00:00:00.000.001 [t.cc:1] [2]Task run failed, base information is streamID:[2], taskID[2].\n"
		"[ERROR] HCCL(2,p):2025-01-01-00:00:00.000.002 [t.cc:1] [2]Task run failed, para information is notify id:[0x2], remote rank:[1].\n"
		"[ERROR] HCCL(2,p):2025-01-01-00:00:09.000.002 [t.cc:1] [2]Task run failed, base information is streamID:[3], taskID[3].\n");

	(void)state;
	assert_int_equal(count(ev, HX_K_HCCL_TASK_FAIL), 3);
	assert_string_equal(str(ev, rec(ev, HX_K_HCCL_TASK_FAIL, 1), HX_F_PARTS),
			    "base,para");
	hangdx_evidence_free(ev);
}

static void test_p4_2022_init(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[TRACE] HCCL(12339,python):2023-07-04-21:46:57.226.121 [status:init] [hcom.cc:194][hccl-12339-0-1688478416-hccl_world_group][77]hcom init by file success,take time [382244]us, rankTablePath[/x.json], rankNum[128], rank[77],server[192.168.102.141], device[5]\n");
	const struct hx_rec *r = rec(ev, HX_K_COMM_INIT, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "hcom_init");
	assert_int_equal(num(ev, r, HX_F_LOCAL_RANK), 77);
	assert_int_equal(num(ev, r, HX_F_RANK_SIZE), 128);
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 5);
	assert_string_equal(str(ev, r, HX_F_GROUP), "hccl_world_group");
	assert_string_equal(str(ev, r, HX_F_COMM_ID),
			    "hccl-12339-0-1688478416-hccl_world_group");
	hangdx_evidence_free(ev);
}

/* ---- communicator creation (§3) ---- */

static void test_comm_init_forms(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[INFO] HCCL(2111665,all_reduce_test):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [2111665]Entry-HcclCommInitRootInfoInner:ranks[4], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[0]\n"
		"[INFO] HCCL(69395,python3):2024-04-07-18:35:53.327.288 [topoinfo_detect.cc:208][69395][HCCL_TRACE]SetupAgent rankNum[4], rank[0], rootInfo identifier[10.136.181.175%enp179s0f0_60000_0_1712529353144389], server[10.136.181.175%enp179s0f0], logicDevId[0], phydevId[0], deviceIp[192.168.10.9]\n"
		"[INFO] HCCL(1382,python3.8):2025-08-05-19:48:49.502.614 [hccl_comm.cc:129] [1382]hcclCommInitInfo:commId[hccl-1382-5-1754394529-hccl_world_group], rank[0], totalRanks[2], serverId[%bond4.24], deviceType[4],logicDevId[11], identifier[group_name_17271]\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_COMM_INIT, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "entry");
	assert_int_equal(num(ev, r, HX_F_RANK_SIZE), 4);
	assert_string_equal(str(ev, r, HX_F_GROUP),
			    "127.10.0.1%enp_60000_0_1761275812718970");
	assert_false(has(ev, r, HX_F_REMOTE_IP));      /* host ip: not a peer */
	r = rec(ev, HX_K_COMM_INIT, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "setup_agent");
	assert_int_equal(num(ev, r, HX_F_PHY_DEVICE), 0);
	assert_string_equal(str(ev, r, HX_F_DEVICE_IP), "192.168.10.9");
	r = rec(ev, HX_K_COMM_INIT, 2);
	assert_string_equal(str(ev, r, HX_F_WHAT), "init_info");
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 11);
	assert_string_equal(str(ev, r, HX_F_GROUP), "group_name_17271");
	assert_int_equal(num(ev, r, HX_F_RANK_SIZE), 2);
	hangdx_evidence_free(ev);
}

/* ---- RUNTIME (§4.3) ---- */

static void test_rt_notify_wait_timeout(void **state)
{
	/* (format string) */
	struct hangdx_evidence *ev = ingest(
		"[ERROR] RUNTIME(8142,):2026-06-04-15:41:40.617.065 [device_error_proc.cc:1593]8602 ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:6, dieId:0), serial number is 3, notify wait timeout occurred during task execution, stream_id:41, sq_id:8, task_id:30091, notify_id=5, timeout=1836s.\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_TIMEOUT, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "notify_wait");
	assert_int_equal(num(ev, r, HX_F_CHIP), 6);        /* chip, not device */
	assert_false(has(ev, r, HX_F_DEVICE_ID));
	assert_int_equal(num(ev, r, HX_F_SERIAL), 3);
	assert_int_equal(num(ev, r, HX_F_STREAM), 41);
	assert_int_equal(num(ev, r, HX_F_SQ), 8);          /* sq_id != stream_id */
	assert_int_equal(num(ev, r, HX_F_NOTIFY_RT), 5);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 1836000);
	hangdx_evidence_free(ev);
}

static void test_rt_event_wait(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] RUNTIME(8142,):2026-06-04-15:41:40.617.065 [device_error_proc.cc:1593]8602 ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:6, dieId:0), serial number is 1, event wait timeout occurred during task execution, stream_id:41, sq_id:8, task_id:30091, event_id=127, timeout=234s.\n"
		"[ERROR] RUNTIME(8142,):2026-06-04-15:41:40.617.070 [task_info.cc:1]8602 PrintErrorInfoForEventWaitTask:Taskexecute failed, device_id=6, stream_id=41, task_id=30091, flip_num=11, task_type=3(EVENT_WAIT), event_flag=0x1.\n"
		"[ERROR] RUNTIME(8142,):2026-06-04-15:41:40.617.080 [x.cc:1]8602 F:The error from device(chipId:6, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:41, sq_id:8, task_id:30091, event_id=127, timeout=1868.\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_TIMEOUT, 0), *t;

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "event_wait");
	assert_int_equal(num(ev, r, HX_F_EVENT), 127);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 234000);
	assert_string_equal(str(ev, r, HX_F_TIMEOUT_RAW), "234s");
	t = rec(ev, HX_K_RT_TASK_FAIL, 0);
	assert_string_equal(str(ev, t, HX_F_WHAT), "event_wait_task");
	assert_int_equal(num(ev, t, HX_F_FLIP), 11);
	assert_string_equal(str(ev, t, HX_F_EVENT_FLAG), "0x1");
	assert_string_equal(str(ev, t, HX_F_TASK_TYPE), "3");
	/* the older print: no unit */
	r = rec(ev, HX_K_RT_TIMEOUT, 1);
	assert_string_equal(str(ev, r, HX_F_TIMEOUT_RAW), "1868");
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 1868000);
	hangdx_evidence_free(ev);
}

static void test_rt_ffts_stuck_notify(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] RUNTIME(1,p):2024-01-01-00:00:00.000.001 [d.cc:1]2 P:The error from device(chipId:0, dieId:0), serial number is 1, hccl fftsplus task timeout occurred during task execution, stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.\n"
		"[ERROR] RUNTIME(1,p):2024-01-01-00:00:00.000.002 [d.cc:2]2 P:The 0 stuck notify wait context info:(context_id=2, notify_id=7).\n"
		"[ERROR] RUNTIME(1,p):2024-01-01-00:00:00.000.003 [d.cc:3]2 P:fftsplus task execute failed, dev_id=0, stream_id=4, task_id=5, context_id=2, thread_id=0, err_type=13[hccl fftsplus timeout]\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_TIMEOUT, 0), *s, *f;

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "fftsplus");
	assert_int_equal(num(ev, r, HX_F_STUCK_NUM), 7);
	s = rec(ev, HX_K_RT_STUCK_NOTIFY, 0);
	assert_int_equal(num(ev, s, HX_F_IDX), 0);
	assert_int_equal(num(ev, s, HX_F_CONTEXT), 2);
	assert_int_equal(num(ev, s, HX_F_NOTIFY_RT), 7);
	assert_int_equal(num(ev, s, HX_F_PARENT_LINE), 1);
	f = rec(ev, HX_K_RT_TASK_FAIL, 0);
	assert_string_equal(str(ev, f, HX_F_ERR_TYPE), "13");
	assert_string_equal(str(ev, f, HX_F_ERR_DESC), "hccl fftsplus timeout");
	assert_int_equal(num(ev, f, HX_F_DEVICE_ID), 0);   /* dev_id */
	hangdx_evidence_free(ev);
}

static void test_rt_task_failures(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.322.063 [engine.cc:1263]163618 ReportExceptProc:Task exception! device_id=0, stream_id=17, task_id=43, type=13, retCode=0x91, [the model stream execute failed].\n"
		"[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.323.519 [task.cc:92]163618 PrintErrorInfo:Task execute failed, base info: device_id=0, stream_id=2, task_id=3, flip_num=0, task_type=3.\n"
		"[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.323.578 [callback.cc:91]163618 Notify:notify [HCCL] task fail start.notify taskid:3 streamid:2 retcode:507011\n"
		"[ERROR] RUNTIME(1365,python3.8):2025-08-06-23:09:35.772.604 [stars_engine.cc:1551]6219 ProcLogicCqReport:[FINAL][FINAL]Task run failed, device_id=3, stream_id=2, task_id=8885, sqe_type=3(place holder), errType=0x20(sq sw status error), sqSwStatus=0x105\n"
		"[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.324.830 [api_c.cc:721]163618 rtStreamSynchronize:ErrCode=507011, desc=[the model stream execute failed], InnerCode=0x7150050\n"
		"[ERROR] RUNTIME(16243,msame):2022-09-22-11:27:01.794.510 [api_c.cc:661]16243 rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a\n"
		"[ERROR] RUNTIME(1,p):2022-09-22-11:27:01.794.510 [a.cc:1]1 PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=0, stream_id=7, task_id=2, flip_num=0, fault so_name=, fault kernel_name=, fault op_name=Unique, extend_info=(info_type:4, info_len:6, msg_info:Unique).\n"
		"[ERROR] RUNTIME(1,p):2022-09-22-11:27:01.794.510 [s.cc:1]1 F:Stream synchronize timeout, the current task is type_name=EVENT_WAIT, device_id=0, stream_id=5, task_id=9, task_type=3\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_RT_TASK_FAIL, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "task_exception");
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "0x91");
	assert_string_equal(str(ev, r, HX_F_ERR_DESC), "the model stream execute failed");
	r = rec(ev, HX_K_RT_TASK_FAIL, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "task_exec");
	assert_int_equal(num(ev, r, HX_F_STREAM), 2);
	r = rec(ev, HX_K_RT_TASK_FAIL, 2);
	assert_string_equal(str(ev, r, HX_F_WHAT), "fail_callback");
	assert_string_equal(str(ev, r, HX_F_NAME), "HCCL");
	assert_int_equal(num(ev, r, HX_F_TASK), 3);
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "507011");
	r = rec(ev, HX_K_RT_TASK_FAIL, 3);
	assert_string_equal(str(ev, r, HX_F_WHAT), "logic_cq");
	assert_int_equal(num(ev, r, HX_F_SQE_TYPE), 3);
	assert_string_equal(str(ev, r, HX_F_SQE_NAME), "place holder");
	assert_string_equal(str(ev, r, HX_F_ERR_DESC), "sq sw status error");
	assert_string_equal(str(ev, r, HX_F_SQ_STATUS), "0x105");
	r = rec(ev, HX_K_RT_API_ERROR, 1);
	assert_string_equal(str(ev, r, HX_F_NAME), "rtStreamSynchronize");
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "507017");
	assert_string_equal(str(ev, r, HX_F_ERR_DESC), "aicpu timeout");
	r = rec(ev, HX_K_AICPU_KERNEL_FAIL, 0);
	assert_string_equal(str(ev, r, HX_F_OP_NAME), "Unique");
	assert_int_equal(num(ev, r, HX_F_STREAM), 7);
	r = rec(ev, HX_K_RT_TIMEOUT, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "stream_sync");
	assert_int_equal(num(ev, r, HX_F_TASK), 9);
	hangdx_evidence_free(ev);
}

/* ---- device-side HCCL (§4.4) and AICPU (§4.6) ---- */

static void test_aicpu_dump(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.830.453 [aicpu_hccl_sqcq.cc:330] [5792]Task {devId: 1 streamId: 169 sqId: 173 cqId: 279 type: 2} run failed of exception, idx:[0], info:[streamId :169 taskId :26076 errorCode :261 errorType :32 sqeType :3 sqId :173 sqHead :1500 matchFlag :0 dropFlag :0 errorBit :1 accError :0]\n"
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.041 [aicpu_communicator.cc:3083] [5792][TaskException]base information is streamId:149, sqid:153, head:1488, tail:136, type:NOTIFY WAIT, localRank:1, remoteRank:4294967295, taskId:26064, notifyId:760, addr1High:0x0, addr1Low:0x0, addr2High:0x0, addr2Low:0x0.\n"
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.046 [aicpu_communicator.cc:3806] [5792][TaskException]opData information is tag:worldCommSendRecv_2_1_group_name_17271SendExecutor_device, group:group_name_17271, opIndex:39013693, count:1048576, dataType:11, opType:4, rootId:4294967295, dstAddr:0x12dd78094200, srcAddr:0x12dd78094200.\n"
		"[ERROR] HCCL(3496,aicpu_scheduler):2025-08-06-22:39:11.764.416 [aicpu_communicator.cc:3750] [3896][TaskException][AICPU]base information is streamId:149, sqid:153, head:1487, tail:127, type:SDMA, localRank:1, remoteRank:2, taskId:26063, notifyId:0, addr1High:0x12eb, addr1Low:0x50000000, addr2High:0x12d6, addr2Low:0xc2c04000.\n"
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.098 [aicpu_communicator.cc:3807] [5792][TaskException]task sequence is OP(39013693),NW(1,760),SD(1,/),NW(1,761),SD(1,/),SD(/,/),SD(/,/),NW(/,438)\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_AICPU_SQCQ, 0);
	assert_int_equal(num(ev, r, HX_F_SQCQ_DEV), 1);     /* devId: meaning unknown */
	assert_false(has(ev, r, HX_F_DEVICE_ID));
	assert_int_equal(num(ev, r, HX_F_STREAM), 169);
	assert_int_equal(num(ev, r, HX_F_CQ), 279);
	assert_int_equal(num(ev, r, HX_F_HEAD), 1500);
	assert_int_equal(count(ev, HX_K_AICPU_EXCEPTION), 2);
	r = rec(ev, HX_K_AICPU_EXCEPTION, 0);
	assert_string_equal(str(ev, r, HX_F_PARTS), "base,op_data");
	assert_string_equal(str(ev, r, HX_F_TYPE), "NOTIFY WAIT");
	assert_int_equal(num(ev, r, HX_F_NOTIFY_AICPU), 760); /* aicpu layer */
	assert_false(has(ev, r, HX_F_NOTIFY_HCCL));
	assert_int_equal(num(ev, r, HX_F_HEAD), 1488);
	assert_int_equal(num(ev, r, HX_F_TAIL), 136);
	assert_int_equal(num(ev, r, HX_F_LOCAL_RANK), 1);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), -1);
	assert_string_equal(str(ev, r, HX_F_REMOTE_RANK), "4294967295");
	assert_int_equal(num(ev, r, HX_F_INDEX), 39013693);
	assert_string_equal(str(ev, r, HX_F_OP_TYPE), "4");
	assert_int_equal(num(ev, r, HX_F_ROOT), -1);
	r = rec(ev, HX_K_AICPU_EXCEPTION, 1);
	assert_string_equal(str(ev, r, HX_F_EXP_MODE), "AICPU");
	assert_int_equal(num(ev, r, HX_F_ADDR1), 0x12eb50000000);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 2);
	r = rec(ev, HX_K_AICPU_TRAIL, 0);
	assert_int_equal(num(ev, r, HX_F_INDEX), 39013693);
	assert_int_equal(num(ev, r, HX_F_TRAIL_LEN), 8);
	assert_string_equal(str(ev, r, HX_F_TRAIL),
			    "OP(39013693),NW(1,760),SD(1,/),NW(1,761),SD(1,/),SD(/,/),SD(/,/),NW(/,438)");
	hangdx_evidence_free(ev);
}

/* FFTS+ context trail (format string, §4.2): the legend line, then lines
 * of entries, with or without a prefix, at any level; any other line ends
 * it. */
static void test_ffts_context_trail(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.554 [task_exception_handler.cc:520][69395][TaskExecStage][Timeout][Host]Task run failed, context sequence before error task is [NotifyRecord:NR(rank,id), NotifyWait:NW(rank,id), Memcpy:M(rank), Reduce: R(rank), InlineReduce:IR(rank), RDMASend:RS(rank,id)]:\n"
		"[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.560 [task_exception_handler.cc:530][69395]NR(1,759),NW(1,760),M(1),IR(1),RS(1,12),\n"
		"[INFO] HCCL(69395,python3):2024-04-08-02:55:04.903.561 [task_exception_handler.cc:530][69395]NW(/,761),M(/).\n"
		"NW(4294967295,762)\n"
		"[INFO] GE(69395,python3):2024-04-08-02:55:04.903.562 [graph.cc:1] 69395 noise\n"
		"NW(2,3)\n"
		"[ERROR] HCCL(69395,python3):2024-04-08-02:55:04.903.563 [x.cc:1][69395]NW(2,4)\n");
	const struct hx_rec *r;

	(void)state;
	assert_int_equal(count(ev, HX_K_FFTS_TRAIL), 3);
	r = rec(ev, HX_K_FFTS_TRAIL, 0);
	assert_string_equal(str(ev, r, HX_F_TRAIL),
			    "NR(1,759),NW(1,760),M(1),IR(1),RS(1,12)");
	assert_int_equal(num(ev, r, HX_F_TRAIL_LEN), 5);
	assert_int_equal(r->line, 2);
	assert_int_equal(r->level, HX_LV_ERROR);
	r = rec(ev, HX_K_FFTS_TRAIL, 1);
	assert_string_equal(str(ev, r, HX_F_TRAIL), "NW(/,761),M(/)");
	assert_int_equal(r->level, HX_LV_INFO);
	r = rec(ev, HX_K_FFTS_TRAIL, 2);
	assert_string_equal(str(ev, r, HX_F_TRAIL), "NW(4294967295,762)");
	assert_int_equal(r->line, 4);
	hangdx_evidence_free(ev);
}

static void test_aicpu_op_timeout(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] AICPU(21700,aicpu_scheduler):2024-01-01-00:00:00.000.001 [aicpusd_monitor.cpp:437][HandleTaskTimeout][tid:21724] Send timeout to tsdaemon, tsdaemon will kill aicpu-sd process, thread index[2], op name[RealDiv], serialNo=279, stream_id=7, task_id=6812, nowTick:1846897065957, startTick:1845482875742, timeOut:1400000000, tickFreq:50000000.\n"
		"[ERROR] CCECPU(28880,aicpu_scheduler):2025-03-05-17:32:22.832.408 [ae_kernel_lib_aicpu.cc:300][TransformKernelErrorCode][tid:28891][AICPU_PROCESSER] call aicpu api RunCpuKernel in libcpu_kernels.so failed, ret:4294967295.\n");
	const struct hx_rec *r = rec(ev, HX_K_AICPU_OP_TIMEOUT, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_CORE), 2);
	assert_string_equal(str(ev, r, HX_F_OP_NAME), "RealDiv");
	assert_int_equal(num(ev, r, HX_F_SERIAL), 279);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 28000);
	assert_int_equal(num(ev, r, HX_F_ELAPSED_MS), 28283);
	assert_int_equal(r->tid, 21724);
	r = rec(ev, HX_K_AICPU_KERNEL_FAIL, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "ccecpu");
	hangdx_evidence_free(ev);
}

/* ---- TSCH (§4.5) ---- */

static void test_tsch_dump(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.406 3986 (dieid:0,cpuid:0) stars_timewheel.c:90 stars_wait_sqe_is_timeout: Timeout: sq_pid=80029, sq_id=3, is_need_process=1, exe_time=16, time_out=10, stream_id=3, task_id=47, cur_head=47, wait_sqe_head=47.\n"
		"[ERROR] TSCH(-1,null):2024-02-08-01:41:14.977.431 3987 (dieid:0,cpuid:0) stars_interrupt.c:1221 stars_proc_wait_timeout: wait task timeout, rtsq_id=3, type=5, sq_pid=80029\n"
		"################################################################\n"
		"stream_id=3, rtsq_id=3, sq_fsm=0x9, cur_wait_time=16, head=47, tail=49, is_model=0, model_id=65535, exe_times=65535, sq_en=1, swap_in=0, cq_head=10, cq_tail=10, pid=80029, vf_id=0, is_mc2_sq=0\n"
		"stream_id=3, overflow_en=0, ge_op_tag=4294967295, has_overflow=0\n"
		"sqe[0] 0x 00004003 00278003 0000ffff 00fe0000 00000000 00000000 00000000 00000000\n"
		"pos=41: stream_id=3, task_id=41, sqe_type=4, Event Record, event_id=8, isSync=0\n"
		"pos=47: stream_id=3, task_id=47, sqe_type=5, Event Wait, event_id=1\n"
		"pos=48: stream_id=32771, task_id=48, sqe_type=3, post_p=0\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_TSCH_TIMEOUT, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "sqe_timeout");
	assert_int_equal(num(ev, r, HX_F_SQ_PID), 80029);
	assert_int_equal(num(ev, r, HX_F_HEAD), 47);
	assert_int_equal(num(ev, r, HX_F_WAIT_HEAD), 47);
	assert_string_equal(str(ev, r, HX_F_TIMEOUT_RAW), "10");
	assert_false(has(ev, r, HX_F_TIMEOUT_MS));       /* unit unknown */
	r = rec(ev, HX_K_TSCH_TIMEOUT, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "wait_task");
	assert_int_equal(num(ev, r, HX_F_SQE_TYPE), 5);
	assert_int_equal(count(ev, HX_K_TSCH_STREAM), 1);
	r = rec(ev, HX_K_TSCH_STREAM, 0);
	assert_int_equal(num(ev, r, HX_F_HEAD), 47);
	assert_int_equal(num(ev, r, HX_F_TAIL), 49);
	assert_string_equal(str(ev, r, HX_F_SQ_STATUS), "0x9");
	assert_int_equal(r->pid, -1);                    /* from the TSCH line */
	assert_int_equal(count(ev, HX_K_TSCH_SQE), 3);
	r = rec(ev, HX_K_TSCH_SQE, 0);
	assert_string_equal(str(ev, r, HX_F_SQE_NAME), "Event Record");
	assert_int_equal(num(ev, r, HX_F_EVENT), 8);
	r = rec(ev, HX_K_TSCH_SQE, 1);
	assert_int_equal(num(ev, r, HX_F_POS), 47);
	assert_string_equal(str(ev, r, HX_F_SQE_NAME), "Event Wait");
	assert_int_equal(num(ev, r, HX_F_EVENT), 1);
	r = rec(ev, HX_K_TSCH_SQE, 2);
	assert_int_equal(num(ev, r, HX_F_STREAM), 32771);
	assert_int_equal(num(ev, r, HX_F_STREAM_BASE), 3);
	assert_false(has(ev, r, HX_F_SQE_NAME));
	hangdx_evidence_free(ev);
}

/* ---- heartbeat and cluster exception (§4.7) ---- */

static void test_heartbeat(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[INFO] HCCL(686,python):2025-10-23-07:52:59.191.363 [heartbeat.cc:951] [8970][TaskExecStage][HeartbeatAbnormal]local rank [127.10.0.1/1]: crimer rank [127.10.0.2/2] status[LOST] by informer rank [127.10.0.3/3]\n"
		"[ERROR]HCCL(1219039,all_reduce_test):2025-10-23-21:05:09.859.568[task_exception_handler.cc:610] [1219039][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Thu Oct 23 21:03:19 2025], ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck\n"
		"[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.2],deviceId[127.10.0.2],deviceIp[127.11.0.2]}\n"
		"[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]\n"
		"[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.612 [hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_HEARTBEAT, 0);
	assert_string_equal(str(ev, r, HX_F_LOCAL), "127.10.0.1/1");
	assert_string_equal(str(ev, r, HX_F_CRIMER), "127.10.0.2/2");
	assert_string_equal(str(ev, r, HX_F_INFORMER), "127.10.0.3/3");
	assert_string_equal(str(ev, r, HX_F_STATUS), "LOST");
	r = rec(ev, HX_K_CLUSTER_EXCEPTION, 0);
	assert_string_equal(str(ev, r, HX_F_STATUS), "STUCK");
	assert_string_equal(str(ev, r, HX_F_ARRIVAL), "Thu Oct 23 21:03:19 2025");
	assert_false(has(ev, r, HX_F_DISCOVERER));
	r = rec(ev, HX_K_CQE_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_STATUS), "12");
	assert_string_equal(str(ev, r, HX_F_DEVICE_IP), "127.11.0.1");
	assert_string_equal(str(ev, r, HX_F_REMOTE_IP), "127.11.0.2");
	assert_string_equal(str(ev, rec(ev, HX_K_CQE_ERROR, 1), HX_F_WHAT), "hccp");
	r = rec(ev, HX_K_CQE_ERROR, 2);
	assert_string_equal(str(ev, r, HX_F_WHAT), "roce");
	assert_string_equal(str(ev, r, HX_F_STATUS), "0x15");
	hangdx_evidence_free(ev);
}

/* ---- op retry and env echo (§4.8) ---- */

static void test_op_retry(void **state)
{
	/* (format strings) */
	struct hangdx_evidence *ev = ingest(
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.001 [r.cc:1] [1][OpRetry][Server]State Transfer, cur state RUNNING, next state CMD_STOP_AICPU\n"
		"[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.002 [r.cc:1] [1][OpRetry][Agent]Get ErrorCode[3] rertryCnt[1]\n"
		"[ERROR] HCCL(1,p):2025-01-01-00:00:00.000.003 [r.cc:1] [1][OpRetry][Agent]can not retry for constraint\n"
		"[ERROR] HCCL(9,aicpu_scheduler):2025-01-01-00:00:00.000.004 [a.cc:1] [9][OpRetry][AICPU]hccl aicpu wait retry timeout[5000 ms].\n"
		"[ERROR] HCCL(9,aicpu_scheduler):2025-01-01-00:00:00.000.005 [a.cc:1] [9][Opretry][AICPU][HcclOpExecFsmStoppedProcess]can not retry for inpace error.\n"
		"[INFO] HCCL(9,aicpu_scheduler):2025-01-01-00:00:00.000.006 [a.cc:1] [9][OpRetry][AICPU]retry launch start, retryCnt:1, tag[AllReduce_g].\n");
	const struct hx_rec *r;

	(void)state;
	assert_int_equal(count(ev, HX_K_OP_RETRY), 6);
	r = rec(ev, HX_K_OP_RETRY, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "state_transfer");
	assert_string_equal(str(ev, r, HX_F_CUR_STATE), "RUNNING");
	assert_string_equal(str(ev, r, HX_F_NEXT_STATE), "CMD_STOP_AICPU");
	assert_string_equal(str(ev, r, HX_F_SIDE), "host");
	r = rec(ev, HX_K_OP_RETRY, 1);
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "3");
	assert_int_equal(num(ev, r, HX_F_RETRY_CNT), 1);      /* "rertryCnt" */
	r = rec(ev, HX_K_OP_RETRY, 3);
	assert_string_equal(str(ev, r, HX_F_WHAT), "timeout");
	assert_string_equal(str(ev, r, HX_F_SIDE), "aicpu");
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 5000);
	r = rec(ev, HX_K_OP_RETRY, 4);                          /* "Opretry" */
	assert_string_equal(str(ev, r, HX_F_WHAT), "cannot_retry");
	r = rec(ev, HX_K_OP_RETRY, 5);
	assert_string_equal(str(ev, r, HX_F_WHAT), "launch");
	assert_string_equal(str(ev, r, HX_F_TAG), "AllReduce_g");
	hangdx_evidence_free(ev);
}

static void test_env_echo(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.001 [e.cc:1] [1][HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE set by environment variable to [L0:0,L1:0,L2:0].\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.002 [e.cc:1] [1]HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is [1], HoldTime is [5000]ms, IntervalTime is [1000]ms\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.003 [e.cc:1] [1][HCCL_ENV] HCCL_EXEC_TIMEOUT set by default to [1836]s\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.004 [e.cc:1] [1]HCCL_CONNECT_TIMEOUT set by default to [120]s\n"
		"[INFO] HCCL(1,p):2025-01-01-00:00:00.000.005 [e.cc:1] [1]HCCL_RDMA_TIMEOUT set by default to [20]\n");
	const struct hx_rec *r;

	(void)state;
	assert_int_equal(count(ev, HX_K_ENV), 5);
	r = rec(ev, HX_K_ENV, 0);
	assert_string_equal(str(ev, r, HX_F_NAME), "HCCL_OP_RETRY_ENABLE");
	assert_string_equal(str(ev, r, HX_F_VALUE), "L0:0,L1:0,L2:0");
	assert_string_equal(str(ev, r, HX_F_SOURCE), "environment");
	r = rec(ev, HX_K_ENV, 1);
	assert_string_equal(str(ev, r, HX_F_NAME), "HCCL_OP_RETRY_PARAMS");
	assert_string_equal(str(ev, r, HX_F_SOURCE), "default");
	r = rec(ev, HX_K_ENV, 2);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 1836000);
	assert_string_equal(str(ev, r, HX_F_SOURCE), "default");
	r = rec(ev, HX_K_ENV, 4);
	assert_false(has(ev, r, HX_F_TIMEOUT_MS));     /* an exponent */
	hangdx_evidence_free(ev);
}

/* ---- frameworks ---- */

static void test_framework(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] 2025-06-25-10:45:23 (PID:13075, Device:0, RankID:8) ERR00100 PTA call acl api failed\n"
		"RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:363 NPU error, error code is 107020\n"
		"[ERROR] APP(1365,python3.8):2025-08-06-23:09:42.725.168 [log_inner.cpp:76]6124 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:checkDispatch:685: \"[PTA]:\"Process group work REDUCE_SCATTER, seq_num 32716847 dispatch timeout. device 3: the current working event is 0xaaab40f5c5d0. \"\"\n"
		"[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) watchdog timeout, dogId 65584, timeout : 3s\n"
		"[ERROR] KERNEL(5044,sklogd):2024-07-29-10:33:24.874.211 [klogd.c:247][257384.473533] [ascend] [ERROR] [tsdrv] [tsdrv_hb_cq_callback 332] <kworker/0:0:20353> receive ts exception msg, call excep_code=0xb4060006, time=1722249204.850014098s, devid=0 tsid=0\n");
	const struct hx_rec *r;

	(void)state;
	r = rec(ev, HX_K_FRAMEWORK_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_CODE), "ERR00100");
	assert_int_equal(r->pid, 13075);
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 0);
	assert_int_equal(num(ev, r, HX_F_GLOBAL_RANK), 8);
	r = rec(ev, HX_K_FRAMEWORK_ERROR, 1);
	assert_string_equal(str(ev, r, HX_F_CODE), "107020");
	r = rec(ev, HX_K_FRAMEWORK_ERROR, 2);
	assert_string_equal(str(ev, r, HX_F_WHAT), "dispatch_timeout");
	assert_string_equal(str(ev, r, HX_F_OP_NAME), "REDUCE_SCATTER");
	assert_int_equal(num(ev, r, HX_F_SEQ_NUM), 32716847);
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 3);
	r = rec(ev, HX_K_WATCHDOG, 0);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 3000);
	assert_int_equal(r->pid, 2241703);
	r = rec(ev, HX_K_TS_EXCEPTION, 0);
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "0xb4060006");
	hangdx_evidence_free(ev);
}

/* ---- device-side HCCL kernel lifetime ---- */

static void test_kernel_status_runs(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:00.000.025 [aicpu_communicator.cc:1] [5017][HcclCommAicpu][Orchestrate]kernel start, tag[AllReduce_g_device], index[0], streamId:5, core[0].\n"
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:30.000.075 [aicpu_communicator.cc:3871] [5017][HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:10, head:0, tail:4, tag[AllReduce_g_device], index[0], streamId:5.\n"
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:30.000.080 [aicpu_communicator.cc:3871] [5018][HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:13, head:0, tail:4, tag[AllReduce_h_device], index[0], streamId:8.\n"
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:01:00.000.075 [aicpu_communicator.cc:3871] [5017][HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:10, head:0, tail:4, tag[AllReduce_g_device], index[0], streamId:5.\n"
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:01:30.000.075 [aicpu_communicator.cc:3871] [5017][HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:10, head:0, tail:4, tag[AllReduce_g_device], index[0], streamId:5.\n"
		"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:02:00.000.075 [aicpu_communicator.cc:3871] [5017][HcclCommAicpu][WaitFinishWhileLoop]Current state. sqid:10, head:2, tail:4, tag[AllReduce_g_device], index[0], streamId:5.\n"
		"[ERROR] HCCL(5007,aicpu_scheduler):2026-11-01-07:02:10.000.075 [aicpu_communicator.cc:1] [5017][HcclCommAicpu][Orchestrate]kernel end, tag[AllReduce_g_device], index[0], streamId:5, state[error].\n");
	const struct hx_rec *r;

	(void)state;
	/* start, other stream, status that moved, end: the run of stream
	 * 5 before its head moved (line 2, and 4-5 folded into it: 07:00:30
	 * to 07:01:30) is taken back, its 60 s on the line that moved */
	assert_int_equal(count(ev, HX_K_AICPU_KERNEL), 4);
	r = rec(ev, HX_K_AICPU_KERNEL, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "start");
	assert_int_equal(num(ev, r, HX_F_CORE), 0);
	assert_int_equal(num(ev, r, HX_F_STREAM), 5);
	r = rec(ev, HX_K_AICPU_KERNEL, 1);
	assert_int_equal(r->line, 3);
	assert_int_equal(num(ev, r, HX_F_STREAM), 8);
	assert_false(has(ev, r, HX_F_REPEATS));
	r = rec(ev, HX_K_AICPU_KERNEL, 2);
	assert_int_equal(r->line, 6);
	assert_int_equal(num(ev, r, HX_F_HEAD), 2);
	assert_false(has(ev, r, HX_F_REPEATS));
	assert_int_equal(num(ev, r, HX_F_MOVED_WAIT), 60000000);
	r = rec(ev, HX_K_AICPU_KERNEL, 3);
	assert_string_equal(str(ev, r, HX_F_STATUS), "error");
	assert_int_equal(ev->files[0].records, 7);  /* every line counted */
	hangdx_evidence_free(ev);
}

static const struct hx_rec *at_line(const struct hangdx_evidence *ev,
				    uint64_t line)
{
	size_t i;

	for (i = 0; i < ev->nrec; i++)
		if (ev->recs[i].line == line)
			return &ev->recs[i];
	return NULL;
}

#define KLINE(ts, what, idx, tail) "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:00:" ts " [aicpu_communicator.cc:1] [5017][HcclCommAicpu][Orchestrate]kernel " what ", tag[AllReduce_g_device], index[" idx "], streamId:5, " tail ".\n"

/* Healthy kernel runs fold: three ok start/end pairs followed by a start
 * are folded into that start (folded_runs 3); a start without an end, an
 * end not ok and everything after an ERROR line are kept. */
static void test_kernel_runs_fold(void **state)
{
	struct hangdx_evidence *ev = ingest(
		KLINE("01.000.000", "start", "0", "core[0]")
		KLINE("01.000.100", "end", "0", "state[ok]")
		KLINE("02.000.000", "start", "1", "core[1]")
		KLINE("02.000.100", "end", "1", "state[ok]")
		KLINE("03.000.000", "start", "2", "core[0]")
		KLINE("03.000.100", "end", "2", "state[ok]")
		KLINE("04.000.000", "start", "3", "core[2]")
		KLINE("05.000.000", "start", "4", "core[3]")
		KLINE("05.000.100", "end", "4", "state[timeout]")
		"[ERROR] RUNTIME(5007,aicpu_scheduler):2026-11-01-07:00:06.000.000 [x.cc:1] 5017 something failed\n"
		KLINE("07.000.000", "start", "5", "core[0]")
		KLINE("07.000.100", "end", "5", "state[ok]")
		KLINE("08.000.000", "start", "6", "core[0]")
		KLINE("08.000.100", "end", "6", "state[ok]"));
	const struct hx_rec *r;
	uint64_t line;

	(void)state;
	for (line = 1; line <= 6; line++)
		if (at_line(ev, line))
			fail_msg("line %llu of a folded run kept",
				 (unsigned long long)line);
	r = at_line(ev, 7);                     /* started, never ended */
	assert_non_null(r);
	assert_int_equal(num(ev, r, HX_F_INDEX), 3);
	assert_int_equal(num(ev, r, HX_F_FOLDED_RUNS), 3);
	r = at_line(ev, 8);
	assert_non_null(r);
	assert_false(has(ev, r, HX_F_FOLDED_RUNS));
	assert_non_null(at_line(ev, 9));        /* ended in a timeout */
	for (line = 11; line <= 14; line++)     /* after an ERROR line */
		assert_non_null(at_line(ev, line));
	assert_int_equal(count(ev, HX_K_AICPU_KERNEL), 7);
	/* the ERROR line no family knows is kept as such (the open world) */
	assert_int_equal(count(ev, HX_K_UNKNOWN_ERROR), 1);
	assert_int_equal(at_line(ev, 10)->kind, HX_K_UNKNOWN_ERROR);
	assert_int_equal(ev->files[0].records, 14);  /* every line counted */
	hangdx_evidence_free(ev);
}

/* ---- sources: file markers, grep prefixes, CRLF ---- */

static void test_markers_and_crlf(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"# file: worker-1/process_log/debug/device-3/device-1365_1.log\r\n"
		"[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.041 [a.cc:1] [5792][TaskException]base information is streamId:149, type:NOTIFY WAIT, taskId:1.\r\n"
		"run/plog/plog-7_1.log:[ERROR] HCCL(7,p):2025-08-06-23:09:01.834.041 [a.cc:1] [7][TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[2], taskID[3].\r\n");
	const struct hx_rec *r = rec(ev, HX_K_AICPU_EXCEPTION, 0);

	(void)state;
	assert_string_equal(hx_ev_str(ev, r->vpath),
			    "worker-1/process_log/debug/device-3/device-1365_1.log");
	assert_string_equal(hx_ev_str(ev, r->file), "t.log");
	assert_string_equal(str(ev, r, HX_F_TYPE), "NOTIFY WAIT");
	r = rec(ev, HX_K_HCCL_TASK_FAIL, 0);
	assert_string_equal(hx_ev_str(ev, r->vpath), "run/plog/plog-7_1.log");
	assert_int_equal(num(ev, r, HX_F_TASK), 3);
	assert_int_equal(r->line, 3);
	hangdx_evidence_free(ev);
}

static int teardown(void **state)
{
	(void)state;
	hangdx_ctx_free(g_ctx);
	g_ctx = NULL;
	return 0;
}

/* ---- console text: launcher prefixes, messages anywhere on the line ---- */

static void test_console_fftsplus_old_form(void **state)
{
	/* LlamaFactory#5347: the code, two spaces, the RUNTIME message */
	struct hangdx_evidence *ev = ingest(
		"EE9999: Inner Error!\n"
		"EE9999  fftsplus task execute failed, dev_id=7, stream_id=7, task_id=5990, context_id=6, thread_id=0, err_type=13[hccl fftsplus timeout][FUNC:GetError][FILE:stream.cc][LINE:1512]\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_TASK_FAIL, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "fftsplus");
	assert_int_equal(num(ev, r, HX_F_STREAM), 7);
	assert_int_equal(num(ev, r, HX_F_TASK), 5990);
	assert_int_equal(num(ev, r, HX_F_CONTEXT), 6);
	assert_string_equal(str(ev, r, HX_F_ERR_TYPE), "13");
	assert_string_equal(str(ev, r, HX_F_ERR_DESC), "hccl fftsplus timeout");
	hangdx_evidence_free(ev);
}

static void test_console_event_wait(void **state)
{
	/* discuss.mindspore.cn/t/topic/1156: screen log, no plog prefix */
	struct hangdx_evidence *ev = ingest(
		"EE9999 The error from device(chipId:3, dieId:0), serial number is 1, event wait timeout occurred during task execution, stream_id:122, sq_id:122, task_id:790, event_id=73, timeout=1980.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1314]\n"
		"synchronize stream failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
		"ProcessStarsWaitTimeoutErrorInfo:The error from device(chipId:2, dieId:0), serial number is 1, event wait timeout occurred during task execution, stream_id:122, sq_id:122, task_id:790, event_id=73, timeout=1980.\n");
	const struct hx_rec *r;

	(void)state;
	assert_int_equal(count(ev, HX_K_RT_TIMEOUT), 2);
	r = rec(ev, HX_K_RT_TIMEOUT, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "event_wait");
	assert_int_equal(num(ev, r, HX_F_STREAM), 122);
	assert_int_equal(num(ev, r, HX_F_TASK), 790);
	assert_int_equal(num(ev, r, HX_F_EVENT), 73);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 1980000);
	r = rec(ev, HX_K_RT_API_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "507011");
	hangdx_evidence_free(ev);
}

static void test_console_launcher_prefixes(void **state)
{
	/* vllm-ascend#3162, #7676, #1993: [rankN]:, (Name pid=N), doubled,
	 * and a vLLM logger head before the message */
	struct hangdx_evidence *ev = ingest(
		"[rank1]: EI0009: [PID: 2225827] 2025-09-24-20:59:48.119.066 Transport init error. Reason: [Create][DestLink]Create Dest error! createLink para:rank[1]-localUserrank[1]-localIpAddr[172.16.0.114], dst_rank[0]-remoteUserrank[0]-remote_ip_addr[172.16.0.114]\n"
		"(Worker pid=17148) (Worker_DP0_TP6_EP6 pid=17148) ERROR 03-25 06:14:02 [multiproc_executor.py:880]        synchronize stream with timeout failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n"
		"(EngineCore_DP0 pid=553) EL0004: [PID: 553] 2025-09-17-04:55:13.065.712 Failed to allocate memory.\n"
		"ERROR 07-01 00:40:04 [engine.py:458] EI0006: [PID: 176930] 2025-07-01-00:40:04.135.732 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck\n");
	const struct hx_rec *r = rec(ev, HX_K_ERR_CODE, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_CODE), "EI0009");
	assert_int_equal(r->pid, 2225827);
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 0);
	r = rec(ev, HX_K_RT_API_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_RET_CODE), "507011");
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 1), HX_F_CODE), "EL0004");
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 2), HX_F_CODE), "EI0006");
	hangdx_evidence_free(ev);
	/* the EI0006 reason of the CANN error-code reference names the peer */
	ev = ingest("EI0006: [PID: 17528] 2026-03-18-10:34:43.141.966 Getting socket times out. Reason: This node (server 192.168.200.100, device ID 1) detects that srcRank (server 192.168.200.100, device ID 1) fails to connect to dstRank (server 192.168.200.100, device ID 0). Continue to analyze the fault based on the logs of srcRank and dstRank.\n");
	r = rec(ev, HX_K_ERR_CODE, 0);
	assert_int_equal(num(ev, r, HX_F_REMOTE_DEVICE), 0);
	assert_string_equal(str(ev, r, HX_F_REMOTE_SERVER), "192.168.200.100");
	hangdx_evidence_free(ev);
}

static void test_console_watchdog_and_stall(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.\n"
		"(EngineCore_DP4 pid=3431) INFO 07-21 21:17:22 [shm_broadcast.py:705] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n");
	const struct hx_rec *r = rec(ev, HX_K_COLLECTIVE_TIMEOUT, 0);

	(void)state;
	assert_int_equal(num(ev, r, HX_F_GLOBAL_RANK), 1);
	assert_int_equal(num(ev, r, HX_F_SEQ_NUM), 196);
	assert_string_equal(str(ev, r, HX_F_OP_TYPE), "ALLREDUCE");
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 3600000);
	assert_int_equal(num(ev, r, HX_F_ELAPSED_MS), 3600185);
	assert_string_equal(str(ev, r, HX_F_NAME), "WorkHCCL");
	r = rec(ev, HX_K_STALL, 0);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 60000);
	hangdx_evidence_free(ev);
}

static void test_connect_setup(void **state)
{
	/* HCCL user guide hcclug_000036 (indented as stored) and the
	 * connect detection banner */
	struct hangdx_evidence *ev = ingest(
		"    [ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.229 [topoinfo_exchange_server.cc:113] [57044][Get][Connection]topo exchange server get socket timeout! timeout[720 s]\n"
		"    [ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.296 [topoinfo_exchange_server.cc:240][57044][TopoInfoExchangeServer][DisplayConnectedRank]total connected num is [15],line num is [2]\n"
		"    [ERROR] HCCL(10261,python):2025-09-11-01:20:11.205.308 [topoinfo_exchange_server.cc:253][57044][TopoInfoExchangeServer][DisplayConnectedRank]connected rankinfo[LINE 1]: [0000000000000008],[0000000000000010],[0000000000000011];\n"
		"    [ERROR] HCCL(350697,all_reduce_test):2025-10-23-14:56:18.215.877 [topoinfo_exchange_base.cc:119] [350697][Recv][ClusterInfoMsg] TopoDetect ERROR occur !!! fault_type[1], fault_info[\"Failed to connect agent[9,]\"]\n"
		"[ERROR] HCCL(17528,python3):2026-03-18-10:34:43.141.966 [detect_connect_anomalies.cc:132] [18744]This node (server 192.168.200.100, device ID 1) detects that srcRank (server 192.168.200.100, device ID 1) fails to connect to dstRank (server 192.168.200.100, device ID 0). Continue to analyze the fault based on the logs of srcRank and dstRank.\n"
		"[ERROR] HCCL(38011,python):2025-07-15-12:47:33.021.978 [hccl_socket_manager.cc:601] [87033]the connection failure between this device and target device may be due to the following reasons:\n");
	const struct hx_rec *r = rec(ev, HX_K_LINK_ERROR, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "get_socket_timeout");
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 720000);
	assert_int_equal(r->pid, 10261);
	r = rec(ev, HX_K_LINK_ERROR, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "connected_ranks");
	assert_int_equal(num(ev, r, HX_F_COUNT), 15);
	r = rec(ev, HX_K_LINK_ERROR, 2);
	assert_string_equal(str(ev, r, HX_F_RANK_LIST), "8,10,11");
	r = rec(ev, HX_K_LINK_ERROR, 3);
	assert_string_equal(str(ev, r, HX_F_WHAT), "connect_agent");
	assert_int_equal(num(ev, r, HX_F_REMOTE_RANK), 9);
	r = rec(ev, HX_K_LINK_ERROR, 4);
	assert_string_equal(str(ev, r, HX_F_WHAT), "connect_detect");
	assert_int_equal(num(ev, r, HX_F_REMOTE_DEVICE), 0);
	assert_string_equal(str(ev, r, HX_F_REMOTE_SERVER), "192.168.200.100");
	assert_string_equal(str(ev, rec(ev, HX_K_LINK_ERROR, 5), HX_F_WHAT),
			    "connect_reasons");
	hangdx_evidence_free(ev);
}

static void test_heartbeat_old_forms(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"serverId[192.168.100.111], deviceId[4], Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected\n"
		"[INFO] HCCL(989,python):2024-08-01-15:02:25.699.358 [heartbeat.cc:536][3851][HCCL_TRACE]rank [172.16.0.159/2]: rank [172.16.0.57/5] status[LOST] by rank [172.16.0.57/6]\n");
	const struct hx_rec *r = rec(ev, HX_K_CLUSTER_EXCEPTION, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_LOCATION), "192.168.100.111/4");
	assert_string_equal(str(ev, r, HX_F_STATUS), "LOST");
	r = rec(ev, HX_K_HEARTBEAT, 0);
	assert_string_equal(str(ev, r, HX_F_CRIMER), "172.16.0.57/5");
	assert_string_equal(str(ev, r, HX_F_STATUS), "LOST");
	hangdx_evidence_free(ev);
}

static void test_failures_not_hangs(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"torch.OutOfMemoryError: NPU out of memory. Tried to allocate 72.00 MiB (NPU 0; 61.27 GiB total capacity; 56.05 GiB already allocated; 56.05 GiB current active; 5.04 MiB free; 58.39 GiB reserved in total by PyTorch).\n"
		"  Message info[0]:RTS_HWTS: hwts sdma error, slot_id=29, stream_id=3\n"
		"there is a fftsplus sdma error, sdma channel is 2,\n"
		"        Device[0] lost heartbeat.[FUNC:SyncTask][FILE:direct_hwts_engine.cc][LINE:407]\n"
		"EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.\n"
		"(EngineCore_DP0 pid=3473945) ERROR 12-10 10:52:09 [patch_core.py:58] RuntimeError: zero_:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:26 NPU function error: call aclnnInplaceZero failed, error code is 561103\n");
	const struct hx_rec *r = rec(ev, HX_K_FAILURE, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_WHAT), "out_of_memory");
	r = rec(ev, HX_K_FAILURE, 1);
	assert_string_equal(str(ev, r, HX_F_WHAT), "sdma_error");
	assert_int_equal(num(ev, r, HX_F_STREAM), 3);
	assert_string_equal(str(ev, rec(ev, HX_K_FAILURE, 2), HX_F_WHAT), "sdma_error");
	r = rec(ev, HX_K_FAILURE, 3);
	assert_string_equal(str(ev, r, HX_F_WHAT), "device_lost");
	assert_int_equal(num(ev, r, HX_F_DEVICE_ID), 0);
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 0), HX_F_CODE), "EJ0001");
	r = rec(ev, HX_K_FRAMEWORK_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_CODE), "561103");
	hangdx_evidence_free(ev);
}

static void test_em_carries_device_error(void **state)
{
	/* Ascend/pytorch#43 (log-formats §2.1, §4.3): an error-manager line
	 * whose text is the RUNTIME FFTS+ timeout, then its stuck notifies */
	struct hangdx_evidence *ev = ingest(
		"EI9999: 2024-07-03-11:28:40.419.527  The error from device(chipId:0, dieId:0), serial number is 1, hccl fftsplus task timeout occurred during task execution, stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.\n"
		"        The 0 stuck notify wait context info:(context_id=2, notify_id=7).\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_TIMEOUT, 0);

	(void)state;
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 0), HX_F_CODE), "EI9999");
	assert_string_equal(str(ev, r, HX_F_WHAT), "fftsplus");
	assert_int_equal(num(ev, r, HX_F_STREAM), 4);
	assert_int_equal(num(ev, r, HX_F_STUCK_NUM), 7);
	assert_int_equal(num(ev, r, HX_F_TIMEOUT_MS), 1836000);
	r = rec(ev, HX_K_RT_STUCK_NOTIFY, 0);
	assert_int_equal(num(ev, r, HX_F_IDX), 0);
	assert_int_equal(num(ev, r, HX_F_CONTEXT), 2);
	assert_int_equal(num(ev, r, HX_F_NOTIFY_RT), 7);
	hangdx_evidence_free(ev);
}

static void test_startup_failures(void **state)
{
	/* EE1001 behind a vLLM worker prefix (vllm-ascend issue text), EZ3003
	 * (CANN error-code reference), the HCCL watchdog exception line of
	 * torch_npu */
	struct hangdx_evidence *ev = ingest(
		"(VllmWorkerProcess pid=1817) ERROR 07-01 22:45:31 [multiproc_worker_utils.py:239] EE1001: [PID: 1817] 2025-07-01-22:45:30.528.819 The argument is invalid.Reason: Set device failed, invalid device, set device=1, valid device range is [0, 1)\n"
		"   EZ3003: 2024-06-26-16:57:38.215.381 No supported Ops kernel and engine are found for [aclnnAddCustom1], optype [aclnnAddCustom].\n"
		"[rank7]:[E1229 13:22:34.138773119 compiler_depend.ts:1675] [Rank 7] HCCL watchdog thread terminated with exception:\n");
	const struct hx_rec *r = rec(ev, HX_K_ERR_CODE, 0);

	(void)state;
	assert_string_equal(str(ev, r, HX_F_CODE), "EE1001");
	assert_int_equal(r->pid, 1817);
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 1), HX_F_CODE), "EZ3003");
	r = rec(ev, HX_K_FRAMEWORK_ERROR, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "hccl_watchdog");
	assert_int_equal(num(ev, r, HX_F_GLOBAL_RANK), 7);
	hangdx_evidence_free(ev);
}

static void test_joined_blocks(void **state)
{
	/* a block joined into one line by the reader, and the device message
	 * Ascend/pytorch#166 wrapped over five lines, joined back */
	struct hangdx_evidence *ev = ingest(
		"EH9999: Inner Error! rtDeviceSynchronize execute failed, reason=[sdma copy error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
		"EE9999[PID: 43311] The error from device(chipId:1, dieId:0), serial number is 6. there is a fftsplus sdma error, sdma channel is 2, sdmaState=0x6, sdmaTslotid=0x4, sdmaCxtid=0x1, sdmaThreadid=0x0, irqStatus=0x0, cqeStatus=0x70000. [FUNC:ProcessCoreErrors][FILE:device_error_proc.cc][LINE:1714]\n");
	const struct hx_rec *r = rec(ev, HX_K_RT_API_ERROR, 0);

	(void)state;
	assert_string_equal(str(ev, rec(ev, HX_K_ERR_CODE, 0), HX_F_CODE), "EH9999");
	assert_string_equal(str(ev, r, HX_F_NAME), "rtDeviceSynchronize");
	assert_string_equal(str(ev, r, HX_F_ERR_DESC), "sdma copy error");
	assert_string_equal(str(ev, rec(ev, HX_K_FAILURE, 0), HX_F_WHAT), "sdma_error");
	r = rec(ev, HX_K_RT_TASK_FAIL, 0);
	assert_string_equal(str(ev, r, HX_F_WHAT), "device_error");
	assert_non_null(strstr(str(ev, r, HX_F_TEXT), "fftsplus sdma error"));
	hangdx_evidence_free(ev);
}

static void test_console_comments_and_noise(void **state)
{
	/* a '#' header naming the messages is no evidence; plain console
	 * noise stays noise */
	struct hangdx_evidence *ev = ingest(
		"# what happened: 'Failed to allocate memory' and 'No available shared memory broadcast block found in 60 seconds'\n"
		"  1%|          | 10/1752 [00:29<1:22:01,  2.83s/it]\n"
		"{'loss': 3.5534, 'grad_norm': 1.4142135381698608}\n");

	(void)state;
	assert_int_equal(ev->nrec, 0);
	hangdx_evidence_free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ei0002_gen1),
		cmocka_unit_test(test_ei0002_gen2),
		cmocka_unit_test(test_ei0002_gen3),
		cmocka_unit_test(test_ei0002_gen4),
		cmocka_unit_test(test_ei0002_two_spellings),
		cmocka_unit_test(test_error_manager_prefixes),
		cmocka_unit_test(test_task_fail_85_host),
		cmocka_unit_test(test_task_fail_2024),
		cmocka_unit_test(test_task_fail_aicpu_mode),
		cmocka_unit_test(test_task_fail_dma_para),
		cmocka_unit_test(test_task_fail_blocks_split),
		cmocka_unit_test(test_p4_2022_init),
		cmocka_unit_test(test_comm_init_forms),
		cmocka_unit_test(test_rt_notify_wait_timeout),
		cmocka_unit_test(test_rt_event_wait),
		cmocka_unit_test(test_rt_ffts_stuck_notify),
		cmocka_unit_test(test_rt_task_failures),
		cmocka_unit_test(test_aicpu_dump),
		cmocka_unit_test(test_ffts_context_trail),
		cmocka_unit_test(test_aicpu_op_timeout),
		cmocka_unit_test(test_tsch_dump),
		cmocka_unit_test(test_heartbeat),
		cmocka_unit_test(test_op_retry),
		cmocka_unit_test(test_env_echo),
		cmocka_unit_test(test_framework),
		cmocka_unit_test(test_kernel_status_runs),
		cmocka_unit_test(test_kernel_runs_fold),
		cmocka_unit_test(test_markers_and_crlf),
		cmocka_unit_test(test_console_fftsplus_old_form),
		cmocka_unit_test(test_console_event_wait),
		cmocka_unit_test(test_console_launcher_prefixes),
		cmocka_unit_test(test_console_watchdog_and_stall),
		cmocka_unit_test(test_connect_setup),
		cmocka_unit_test(test_heartbeat_old_forms),
		cmocka_unit_test(test_failures_not_hangs),
		cmocka_unit_test(test_console_comments_and_noise),
		cmocka_unit_test(test_em_carries_device_error),
		cmocka_unit_test(test_startup_failures),
		cmocka_unit_test(test_joined_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
