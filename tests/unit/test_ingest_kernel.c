/*
 * test_ingest_kernel.c - the real HCCL AICPU kernel and AICPU scheduler
 * lines (docs/HCCL-SOURCE-STRINGS.md, from libochao-huawei/hcomm@8958adbf
 * and hicann/runtime@681ef761) become aicpu_kernel, aicpu_comm and
 * aicpu_task records with exactly the fields of the record contract in
 * docs/EVIDENCE.md; the env echoes of the same source; the status-line
 * runs fold per communicator, the host's launch lines per text.  One
 * literal instance of each format, with a realistic prefix.
 */
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

#include "ingestutil.h"

/*
 * The one record of a one-line input: its kind, tid, and every field as
 * "name=value;..." (what first), numbers in decimal.  A field the spec
 * does not list fails the test as much as a missing one.
 */
static void check_first(struct hangdx_evidence *ev, const char *line,
			const char *kind, int64_t tid, const char *spec)
{
	const struct hx_rec *r;
	char buf[1024], *save = NULL, *f;
	size_t nspec = 0;

	r = &ev->recs[0];
	assert_string_equal(hx_kind_name(r->kind), kind);
	assert_int_equal(r->tid, tid);
	snprintf(buf, sizeof buf, "%s", spec);
	for (f = strtok_r(buf, ";", &save); f; f = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(f, '='), got[256];
		const struct hx_field *fl;
		int key;

		assert_non_null(eq);
		*eq = 0;
		key = hx_field_from_name(f, strlen(f));
		if (key < 0)
			fail_msg("unknown field %s", f);
		fl = hx_rec_field(ev, r, key);
		if (!fl)
			fail_msg("no field %s in: %s", f, line);
		if (hx_field_type(key) == HX_T_STR)
			snprintf(got, sizeof got, "%s", hx_ev_str(ev, fl->str));
		else
			snprintf(got, sizeof got, "%lld", (long long)fl->num);
		if (strcmp(got, eq + 1) != 0)
			fail_msg("%s: %s, not %s, in: %s", f, got, eq + 1, line);
		nspec++;
	}
	if (r->nfield != nspec)
		fail_msg("%u fields, %zu expected, in: %s", r->nfield, nspec, line);
}

static void one(const char *line, const char *kind, int64_t tid,
		const char *spec)
{
	struct hangdx_evidence *ev = ingest(line);

	if (ev->nrec != 1)
		fail_msg("%zu records from: %s", ev->nrec, line);
	check_first(ev, line, kind, tid, spec);
	hangdx_evidence_free(ev);
}

/* The same, and a second record of kind2 from the same line: a fact a
 * family keeps of an error line, then the open world's failure. */
static void one_and(const char *line, const char *kind, int64_t tid,
		    const char *spec, const char *kind2)
{
	struct hangdx_evidence *ev = ingest(line);

	if (ev->nrec != 2)
		fail_msg("%zu records from: %s", ev->nrec, line);
	check_first(ev, line, kind, tid, spec);
	assert_string_equal(hx_kind_name(ev->recs[1].kind), kind2);
	assert_int_equal(ev->recs[1].line, ev->recs[0].line);
	hangdx_evidence_free(ev);
}

#define DEV "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:30:30.000.085 "
#define DEVE "[ERROR] HCCL(5007,aicpu_scheduler):2026-11-01-08:00:01.000.000 "
#define HOST "[INFO] HCCL(100003,python3):2026-11-01-07:30:00.000.010 "
#define CCE "[INFO] CCECPU(5007,aicpu_scheduler):2026-11-01-07:30:00.001.000 "
#define ID "10.0.0.1%eth0_60000_0_1762000000000000"

/* L1, host: the launch names K_c and the user stream. */
static void test_launch(void **state)
{
	(void)state;
	one(HOST "[hccl_communicator_host.cc:7998] [100003]AicpuKfcTilingDataLaunchIn profName[allreduceAicpuKernel] tag[AllReduce_" ID "] kfcOpStreamId[5] mainStreamId[3] kfcStreamId[5] isCapture[0] mode[1] \n",
	    "aicpu_kernel", 100003,
	    "what=launch;stream=5;main_stream=3;tag=AllReduce_" ID ";op=AllReduce;group=" ID);
}

/* D1, D6 (both forms), D8, D10, D11, D13: one kernel's life, tid 5019. */
static void test_kernel_life(void **state)
{
	(void)state;
	one(DEV "[hccl_aicpu_interface.cc:69] [5019]RunAicpuRpcSrvLaunchV2 KFCTask task 0x12c0, context 0x12c1, tilingData 0x12c2\n",
	    "aicpu_kernel", 5019, "what=entry");
	one(DEV "[aicpu_communicator.cc:2387] [5019][HcclCommAicpu][Orchestrate]start tag[AllReduce_" ID "] newTag[AllReduce_" ID "AllReduceMeshExecutor_device] algName[AllReduceMeshExecutor] identifier[" ID "]\n",
	    "aicpu_kernel", 5019,
	    "what=start;tag=AllReduce_" ID ";op=AllReduce;alg=AllReduceMeshExecutor;group=" ID);
	one(DEV "[aicpu_communicator.cc:2387] [5019]: [HcclCommAicpu][Orchestrate]start tag[AllGather_grp1] newTag[AllGather_grp1AllGatherMeshExecutor_device] algName[AllGatherMeshExecutor] identifier[grp1]\n",
	    "aicpu_kernel", 5019,
	    "what=start;tag=AllGather_grp1;op=AllGather;alg=AllGatherMeshExecutor;group=grp1");
	one(DEV "[aicpu_communicator.cc:2631] [5019]HcclOpExecFsmInitProcess tag:AllReduce_" ID ", isDeviceMode:0, index:1\n",
	    "aicpu_kernel", 5019,
	    "what=op_init;tag=AllReduce_" ID ";op=AllReduce;index=1");
	one(DEV "[aicpu_communicator.cc:3739] [5019]hccl aicpu launch hccl op task success. stream sqid:10 begin:0 end:4\n",
	    "aicpu_kernel", 5019, "what=launched;sq=10;head=0;tail=4");
	one(DEV "[aicpu_communicator.cc:2146] [5019][HcclCommAicpu][ExecOp] executor op success tag[AllReduce_" ID "], newTag[AllReduce_" ID "AllReduceMeshExecutor_device], algName[AllReduceMeshExecutor], identifier[" ID "].\n",
	    "aicpu_kernel", 5019,
	    "what=done;tag=AllReduce_" ID ";op=AllReduce;alg=AllReduceMeshExecutor;group=" ID);
	one(DEV "[hccl_aicpu_interface.cc:122] [5019]end RunAicpuRpcSrvLaunchV2\n",
	    "aicpu_kernel", 5019, "what=end");
}

/* W1, R3, R4, W4, K1: waits and the dump. */
static void test_kernel_waits(void **state)
{
	(void)state;
	one(DEV "[aicpu_communicator.cc:3888] [5019][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:10, head:0, tail:4, group[" ID "] tag[AllReduce_" ID "]\n",
	    "aicpu_kernel", 5019,
	    "what=status;device_id=0;sq=10;head=0;tail=4;group=" ID ";tag=AllReduce_" ID ";op=AllReduce");
	one(DEV "[dispatcher_aicpu.cc:759] [5020][LaunchTask][WaitLaunchWhileLoop]Current state. sqid:11, head:3, tail:2, cnt:8\n",
	    "aicpu_kernel", 5020, "what=rtsq_wait;sq=11;head=3;tail=2;count=8");
	one(DEV "[dispatcher_aicpu.cc:1209] [5020][DispatcherAicpu][WaitRtsq] Current state. sqid:11, head:3, tail:2, sqeCount:8\n",
	    "aicpu_kernel", 5020, "what=rtsq_wait;sq=11;head=3;tail=2;count=8");
	one(DEV "[aicpu_communicator.cc:3576] [5019][PrintTaskExceptionAllStreams] group[grp1] op is not activated, do nothing\n",
	    "aicpu_kernel", 5019, "what=not_activated;group=grp1");
	one(DEV "[aicpu_communicator.cc:2556] [5019]hccl aicpu set kfcStatus[2]\n",
	    "aicpu_kernel", 5019, "what=kfc_status;status=2");
}

/* D14, D16, D18, T1, T2, R1, R2: the kernel fails or times out. */
static void test_kernel_failures(void **state)
{
	(void)state;
	one_and(DEVE "[aicpu_communicator.cc:2132] [5019][HcclCommAicpu][ExecOp] executor op fail, tag[AllGather_grp1AllGatherMeshExecutor_device], algName[AllGatherMeshExecutor], identifier[grp1]\n",
		"aicpu_kernel", 5019,
		"what=fail;tag=AllGather_grp1AllGatherMeshExecutor_device;op=AllGather;alg=AllGatherMeshExecutor;group=grp1",
		"unknown_error");
	/* under a LogControl guard (retry on) an ERROR prints as WARNING */
	one("[WARNING] HCCL(5007,aicpu_scheduler):2026-11-01-08:00:01.000.000 [aicpu_communicator.cc:2132] [5019]ErrToWarn: [HcclCommAicpu][ExecOp] executor op fail, tag[AllGather_grp1AllGatherMeshExecutor_device], algName[AllGatherMeshExecutor], identifier[grp1]\n",
	    "aicpu_kernel", 5019,
	    "what=fail;tag=AllGather_grp1AllGatherMeshExecutor_device;op=AllGather;alg=AllGatherMeshExecutor;group=grp1");
	one(DEVE "[hccl_aicpu_interface.cc:115] [5019]run AicpuRunRpcServerV2 failed. ret[9]\n",
	    "aicpu_kernel", 5019, "what=fail;ret_code=9");
	one(DEV "[hccl_aicpu_interface.cc:118] [5022]aicpu is suspended\n",
	    "aicpu_kernel", 5022, "what=suspended");
	one(DEVE "[aicpu_communicator.cc:3909] [5019][HcclCommAicpu]KFC timeout.. group[grp1].\n",
	    "aicpu_kernel", 5019,
	    "what=timeout;group=grp1;text=[HcclCommAicpu]KFC timeout.. group[grp1].");
	one(DEVE "[task_orchestrator.cc:1187] [5021]KFC timeout..[1858]s, commId hcom_mc2_0, stream 1 sqid 12 head 5 tail 9. SqeInfo:type:NOTIFY_WAIT\n",
	    "aicpu_kernel", 5021,
	    "what=timeout;comm_id=hcom_mc2_0;sq=12;head=5;tail=9;timeout_raw=1858;timeout_ms=1858000;"
	    "text=KFC timeout..[1858]s, commId hcom_mc2_0, stream 1 sqid 12 head 5 tail 9. SqeInfo:type:NOTIFY_WAIT");
	one(DEVE "[dispatcher_aicpu.cc:750] [5020]Rtsq full, timeout 1856s. curhead:3, sqId:11\n",
	    "aicpu_kernel", 5020, "what=rtsq_full;head=3;sq=11");
	one(DEVE "[dispatcher_aicpu.cc:1200] [5020][DispatcherAicpu][WaitRtsq] Rtsq full, timeout 1856s. curhead:3, sqId:11\n",
	    "aicpu_kernel", 5020, "what=rtsq_full;head=3;sq=11");
}

/* C1, C2: HCCL's own account of who holds the AICPU cores. */
static void test_aicpu_comm(void **state)
{
	(void)state;
	one(DEV "[aicpu_communicator.cc:3526] [5019]AicpuComm: group[grp1], status[inExec], op[tag: AllGather_grp1, newTag: AllGather_grp1AllGatherMeshExecutor_device, index: 2], aicpuCoreNum[6]\n",
	    "aicpu_comm", 5019,
	    "what=comm;group=grp1;status=inExec;tag=AllGather_grp1;op=AllGather;index=2;cores=6");
	one("[WARNING] HCCL(5007,aicpu_scheduler):2026-11-01-08:00:01.000.006 [aicpu_communicator.cc:3533] [5019]In Execution group num[6], total group num[8], bigger than Aicpu cores num[6]. Aicpu core being fully utilized may cause tasks to get stuck, and it is necessary to reduce the num of comm.\n",
	    "aicpu_comm", 5019, "what=overload;busy=6;total=8;cores=6");
}

/* The AICPU scheduler (module CCECPU, "[file:line][Func][tid:N] text"). */
static void test_aicpu_task(void **state)
{
	(void)state;
	one(CCE "[aicpusd_event_manager.cpp:769][ExecuteHWTSEventTask][tid:5017] Begin to ExecuteTsKernelTask, mailboxId[0], serialNo[12], streamId[2], taskId[1], dataDumpEnableMode[0], kernelType[2], subeventId[0].\n",
	    "aicpu_task", 5017, "what=begin;stream=2;task=1;kernel_type=2");
	one(CCE "[aicpusd_event_manager.cpp:754][ProcessHWTSKernelEvent][tid:5017] End send ack to Ts, kernelType[2], deviceId[0], subevent_id[0], mailboxId[0], serialNo[12], streamId[2], taskId[1], result[0], originResult[0], status[0].\n",
	    "aicpu_task", 5017, "what=end;stream=2;task=1;kernel_type=2;result=0");
	one(CCE "[aicpusd_event_manager.cpp:667][ExecuteHWTSKFCEventTask][tid:5019] kfc task, streamId[5], taskId[7].\n",
	    "aicpu_task", 5019, "what=kfc;stream=5;task=7");
	one(CCE "[main.cpp:352][ComputeProcessMain][tid:5007] Aicpu schedule start successfully, LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64\n",
	    "aicpu_task", 5007, "what=sched_start");
	/* the monitor's timeout, under CCECPU as the scheduler prints it */
	one("[ERROR] CCECPU(5007,aicpu_scheduler):2026-11-01-08:00:02.000.000 [aicpusd_monitor.cpp:474][HandleTaskTimeout][tid:5010] Send timeout to tsdaemon, tsdaemon will kill aicpu-sd process, thread index[3], op name[RunAicpuRpcSrvLaunchV2], nowTick:2000000000, startTick:100000000, timeOut:1900000000, tickFreq:1000000.\n",
	    "aicpu_op_timeout", 5010,
	    "core=3;op_name=RunAicpuRpcSrvLaunchV2;timeout_raw=1900000000;timeout_ms=1900000;elapsed_ms=1900000");
}

#define ENV "[INFO] HCCL(100003,python3):2026-11-01-07:29:59.000.010 [externalinput.cc:1] [100003]"

/* The env echoes of H platform/common/externalinput.cc and X comm_config.cc. */
static void test_env_real(void **state)
{
	(void)state;
	one(ENV "[HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE is not set. The retryEnable of all levels is set to false.\n",
	    "env", 100003, "name=HCCL_OP_RETRY_ENABLE;source=default;value=L0:0,L1:0,L2:0");
	one(ENV "[HCCL_ENV][ParseRetryEnable] HCCL_OP_RETRY_ENABLE set by environment variable to [L0:1,L1:1,L2:0].\n",
	    "env", 100003, "name=HCCL_OP_RETRY_ENABLE;source=environment;value=L0:1,L1:1,L2:0");
	one(ENV "HCCL_OP_RETRY_ENABLE set by commconfig to [L0:0,L1:1,L2:0].\n",
	    "env", 100003, "name=HCCL_OP_RETRY_ENABLE;source=commconfig;value=L0:0,L1:1,L2:0");
	one(ENV "[HCCL_ENV] HCCL_OP_EXPANSION_MODE is not set, aicpuUnfold is [1], aivMode is [0], aicpuCacheEnable is [1]\n",
	    "env", 100003, "name=HCCL_OP_EXPANSION_MODE;source=default;value=AI_CPU");
	one(ENV "[HCCL_ENV] HCCL_OP_EXPANSION_MODE is not set, aicpuUnfold is [0], aivMode is [1], aicpuCacheEnable is [0]\n",
	    "env", 100003, "name=HCCL_OP_EXPANSION_MODE;source=default;value=AIV");
	one(ENV "[HCCL_ENV] HCCL_OP_EXPANSION_MODE is not set, aicpuUnfold is [0], aivMode is [0], aicpuCacheEnable is [0]\n",
	    "env", 100003, "name=HCCL_OP_EXPANSION_MODE;source=default;value=HOST");
	one(ENV "[HCCL_ENV] environmental variable HCCL_OP_EXPANSION_MODE is [AIV], aicpuUnfold[0], aivMode[1], enableFfts[1], aicpuCacheEnable[0]\n",
	    "env", 100003, "name=HCCL_OP_EXPANSION_MODE;source=environment;value=AIV");
	one(ENV "[HCCL_ENV] HCCL_OP_RETRY_PARAMS is not set, default value MaxCnt is [1], HoldTime is [5000]ms, IntervalTime is [1000]ms\n",
	    "env", 100003, "name=HCCL_OP_RETRY_PARAMS;source=default;value=MaxCnt is [1], HoldTime is [5000]ms, IntervalTime is [1000]ms");
	one(ENV "[HCCL_ENV] HCCL_OP_RETRY_PARAMS is set, MaxCnt is [3], HoldTime is [6000]ms, IntervalTime is [2000]ms.\n",
	    "env", 100003, "name=HCCL_OP_RETRY_PARAMS;source=environment;value=MaxCnt is [3], HoldTime is [6000]ms, IntervalTime is [2000]ms");
}

#define W1(ts, tid, head, grp) "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:" ts " [aicpu_communicator.cc:3888] [" tid "][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:10, head:" head ", tail:4, group[" grp "] tag[AllReduce_" grp "]\n"

/* W1 has no streamId: a run of equal lines folds per (pid, group). */
static void test_status_fold_by_group(void **state)
{
	struct hangdx_evidence *ev = ingest(
		W1("00:30.000.000", "5019", "0", "g")
		W1("00:30.000.001", "5020", "0", "h")
		W1("01:00.000.000", "5019", "0", "g")
		W1("01:00.000.001", "5020", "0", "h")
		W1("01:30.000.000", "5019", "0", "g")
		W1("02:00.000.000", "5019", "2", "g"));
	const struct hx_rec *r;
	const struct hx_field *f;

	(void)state;
	/* h: first, latest (line 4, repeats 2); g: first, latest of the
	 * run (lines 1, 3 then 5, repeats 3), then it moved at line 6: the
	 * run taken back, its 60 s on line 6 */
	assert_int_equal(ev->nrec, 3);
	assert_int_equal(ev->recs[0].line, 2);
	assert_null(hx_rec_field(ev, &ev->recs[0], HX_F_REPEATS));
	r = &ev->recs[1];
	assert_int_equal(r->line, 4);
	f = hx_rec_field(ev, r, HX_F_REPEATS);
	assert_non_null(f);
	assert_int_equal(f->num, 2);
	r = &ev->recs[2];
	assert_int_equal(r->line, 6);
	assert_null(hx_rec_field(ev, r, HX_F_REPEATS));
	f = hx_rec_field(ev, r, HX_F_MOVED_WAIT);
	assert_non_null(f);
	assert_int_equal(f->num, 60000000);
	assert_int_equal(ev->files[0].records, 6);
	hangdx_evidence_free(ev);
}

#define LAUNCH(ts, tag, ks) "[INFO] HCCL(100003,python3):2026-11-01-07:30:" ts " [hccl_communicator_host.cc:7998] [100003]AicpuKfcTilingDataLaunchIn profName[allreduceAicpuKernel] tag[" tag "_" ID "] kfcOpStreamId[" ks "] mainStreamId[3] kfcStreamId[" ks "] isCapture[0] mode[1] \n"

/* The host launches the same kernel every step: equal launch lines of a
 * process fold per text (the first kept, the latest with repeats), even
 * with other launches between them; a launch of another text is its own
 * run. */
static void test_launch_fold(void **state)
{
	struct hangdx_evidence *ev = ingest(
		LAUNCH("01.000.000", "AllReduce", "5")
		LAUNCH("01.000.001", "AllGather", "5")
		LAUNCH("02.000.000", "AllReduce", "5")
		LAUNCH("02.000.001", "AllGather", "5")
		LAUNCH("03.000.000", "AllReduce", "5")
		LAUNCH("04.000.000", "AllReduce", "7"));
	const struct hx_field *f;

	(void)state;
	/* AllReduce on 5: lines 1 and 5 (repeats 3); AllGather: lines 2 and
	 * 4 (repeats 2); AllReduce on 7: line 6 */
	assert_int_equal(ev->nrec, 5);
	assert_int_equal(ev->recs[0].line, 1);
	assert_null(hx_rec_field(ev, &ev->recs[0], HX_F_REPEATS));
	assert_int_equal(ev->recs[2].line, 5);
	assert_int_equal(ev->recs[2].ts, ev->recs[0].ts + 2000000);
	f = hx_rec_field(ev, &ev->recs[2], HX_F_REPEATS);
	assert_non_null(f);
	assert_int_equal(f->num, 3);
	assert_string_equal(hx_ev_str(ev, hx_rec_field(ev, &ev->recs[2], HX_F_OP)->str),
			    "AllReduce");
	assert_int_equal(ev->recs[3].line, 4);
	f = hx_rec_field(ev, &ev->recs[3], HX_F_REPEATS);
	assert_non_null(f);
	assert_int_equal(f->num, 2);
	assert_int_equal(ev->recs[4].line, 6);
	assert_int_equal(hx_rec_field(ev, &ev->recs[4], HX_F_STREAM)->num, 7);
	assert_int_equal(ev->files[0].records, 6);
	hangdx_evidence_free(ev);
}

#define W2(ts, head, tail) "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:" ts " [aicpu_communicator.cc:3888] [5019][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:10, head:" head ", tail:" tail ", group[g] tag[AllReduce_g]\n"

static int64_t fnum(const struct hangdx_evidence *ev, const struct hx_rec *r,
		    int key)
{
	const struct hx_field *f = hx_rec_field(ev, r, key);

	return f ? f->num : -1;
}

/* A kernel whose head moves: the runs before a move are taken back, the
 * longest time a head stood (90 s: 07:00:30 to 07:02:00) goes on the
 * first line of the new head; a new run with the same head keeps that
 * line and drops the run before it. */
static void test_status_moves(void **state)
{
	struct hangdx_evidence *ev = ingest(
		W2("00:30.000.000", "0", "4") W2("01:00.000.000", "0", "4")
		W2("01:30.000.000", "0", "4") W2("02:00.000.000", "0", "4")
		W2("02:30.000.000", "4", "8") W2("03:00.000.000", "4", "8")
		W2("03:30.000.000", "4", "12") W2("04:00.000.000", "4", "12")
		W2("04:30.000.000", "8", "12"));
	const struct hx_rec *r;

	(void)state;
	assert_int_equal(ev->nrec, 1);
	r = &ev->recs[0];
	assert_int_equal(r->line, 9);
	assert_int_equal(fnum(ev, r, HX_F_HEAD), 8);
	assert_int_equal(fnum(ev, r, HX_F_MOVED_WAIT), 90000000);
	assert_int_equal(ev->files[0].records, 9);
	hangdx_evidence_free(ev);

	ev = ingest(W2("00:30.000.000", "0", "4") W2("01:00.000.000", "0", "4")
		    W2("01:30.000.000", "0", "8") W2("02:00.000.000", "0", "8"));
	/* the same head: the anchor (line 1), the run of tail 8 (3 and 4) */
	assert_int_equal(ev->nrec, 3);
	assert_int_equal(ev->recs[0].line, 1);
	assert_int_equal(fnum(ev, &ev->recs[0], HX_F_MOVED_WAIT), -1);
	assert_int_equal(ev->recs[1].line, 3);
	assert_int_equal(ev->recs[2].line, 4);
	assert_int_equal(fnum(ev, &ev->recs[2], HX_F_REPEATS), 2);
	hangdx_evidence_free(ev);
}

/* A day of moves: the records taken back are swept as the file is read,
 * so that records and fields stay few however many lines there are. */
static void test_status_sweep(void **state)
{
	size_t cap = 3000 * 200, n = 0, i;
	char *text = malloc(cap);
	struct hangdx_evidence *ev;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < 3000; i++)
		n += (size_t)snprintf(text + n, cap - n,
			"[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-%02zu:%02zu:%02zu.000.000 [a.cc:1] [5019][HcclCommAicpu][WaitFinishWhileLoop]Current state. devId:0 sqid:10, head:%zu, tail:%zu, group[g] tag[AllReduce_g]\n",
			7 + i / 360, (i / 6) % 60, (i % 6) * 10, i / 2, i / 2 + 4);
	ev = ingest(text);
	/* the last head's two lines: its first, its latest (repeats 2) */
	assert_int_equal(ev->nrec, 2);
	assert_true(ev->nfield <= 32);
	assert_true(ev->caprec < 3000);         /* swept while read */
	assert_int_equal(fnum(ev, &ev->recs[0], HX_F_HEAD), 1499);
	assert_int_equal(fnum(ev, &ev->recs[0], HX_F_MOVED_WAIT), 10000000);
	assert_int_equal(fnum(ev, &ev->recs[1], HX_F_REPEATS), 2);
	assert_int_equal(ev->files[0].records, 3000);
	hangdx_evidence_free(ev);
	free(text);
}

#define KT(ts, body) "[INFO] HCCL(5007,aicpu_scheduler):2026-11-01-07:30:" ts " [a.cc:1] [5019]" body "\n"
#define CT(ts, body) "[INFO] CCECPU(5007,aicpu_scheduler):2026-11-01-07:30:" ts " [aicpusd_event_manager.cpp:1][F][tid:5019] " body "\n"
#define RUN(s) \
	CT(s ".000.000", "kfc task, streamId[5], taskId[" s "].") \
	KT(s ".000.001", "RunAicpuRpcSrvLaunchV2 KFCTask task 0x1, context 0x2, tilingData 0x3") \
	KT(s ".000.002", "[HcclCommAicpu][Orchestrate]start tag[AllReduce_g] newTag[AllReduce_gX_device] algName[X] identifier[g]") \
	KT(s ".000.003", "HcclOpExecFsmInitProcess tag:AllReduce_g, isDeviceMode:0, index:" s) \
	KT(s ".000.003", "[HcclCommAicpu][OrchestrateHcclOp] opUnfoldIdx_[1] opType[2] curRank[0] rankSize[8] algName[X]") \
	KT(s ".000.003", "hccl aicpu execute loop 0") \
	KT(s ".000.004", "hccl aicpu launch hccl op task success. stream sqid:10 begin:0 end:4") \
	KT(s ".000.005", "[HcclCommAicpu][ExecOp] executor op success tag[AllReduce_g], newTag[AllReduce_gX_device], algName[X], identifier[g].") \
	KT(s ".000.006", "end RunAicpuRpcSrvLaunchV2") \
	CT(s ".000.007", "End send ack to Ts, kernelType[5], deviceId[0], subevent_id[0], mailboxId[0], serialNo[1], streamId[5], taskId[" s "], result[0], originResult[0], status[0].")

/* Healthy runs of one AICPU worker fold: three closed runs before a run
 * that never ends are counted in folded_runs of its first line; a run
 * that does not close is kept when the next one opens; a line no family
 * takes (D9, D7) does not end a run. */
static void test_worker_runs_fold(void **state)
{
	struct hangdx_evidence *ev = ingest(
		RUN("01") RUN("02") RUN("03")
		CT("04.000.000", "kfc task, streamId[5], taskId[4].")
		KT("04.000.001", "RunAicpuRpcSrvLaunchV2 KFCTask task 0x1, context 0x2, tilingData 0x3")
		KT("04.000.002", "[HcclCommAicpu][Orchestrate]start tag[AllReduce_g] newTag[AllReduce_gX_device] algName[X] identifier[g]")
		CT("05.000.000", "kfc task, streamId[5], taskId[5].")
		KT("05.000.001", "RunAicpuRpcSrvLaunchV2 KFCTask task 0x1, context 0x2, tilingData 0x3"));
	const struct hx_field *f;
	size_t i;

	(void)state;
	/* run 4 (3 lines, kept: it never closed) and run 5 (2 lines) */
	assert_int_equal(ev->nrec, 5);
	for (i = 0; i < ev->nrec; i++)
		assert_true(ev->recs[i].line > 30);
	for (i = 0; i < ev->nrec && ev->recs[i].line != 31; i++)
		;
	assert_true(i < ev->nrec);
	assert_int_equal(ev->recs[i].kind, HX_K_AICPU_TASK);
	f = hx_rec_field(ev, &ev->recs[i], HX_F_FOLDED_RUNS);
	assert_non_null(f);
	assert_int_equal(f->num, 3);
	assert_int_equal(ev->files[0].records, 29);  /* every line counted */
	hangdx_evidence_free(ev);
}

/* The host AI_CPU block: its header opens the block of the four lines
 * (one hccl_task_fail, not two). */
static void test_aicpu_block_header(void **state)
{
	struct hangdx_evidence *ev = ingest(
		"[ERROR] HCCL(100003,python3):2026-11-01-08:00:03.000.000 [task_exception_handler.cc:1365] [100010][TaskExecStage][Timeout][AICPU]Task from HCCL run failed.\n"
		"[ERROR] HCCL(100003,python3):2026-11-01-08:00:03.000.001 [task_exception_handler.cc:1370] [100010][TaskExecStage][Timeout][AICPU]Task run failed, base information is streamID:[5], taskID[3], taskType[Notify Wait], tag[AllGather_grp1].\n"
		"[ERROR] HCCL(100003,python3):2026-11-01-08:00:03.000.002 [task_exception_handler.cc:1371] [100010][TaskExecStage][Timeout][AICPU]Task run failed, para information is notify id:[0x000000000000029f], stage:[0], remote rank:[local], tag[AllGather_grp1AllGatherMeshExecutor_device].\n"
		"[ERROR] HCCL(100003,python3):2026-11-01-08:00:03.000.003 [task_exception_handler.cc:1372] [100010][TaskExecStage][Timeout][AICPU]Task run failed, groupRank information is group:[grp1], user define information[], rankSize[8], rankId[3].\n"
		"[ERROR] HCCL(100003,python3):2026-11-01-08:00:03.000.004 [task_exception_handler.cc:1373] [100010][TaskExecStage][Timeout][AICPU]Task run failed, opData information is deviceId:[3], index[2], count[1].\n");
	const struct hx_field *f;

	(void)state;
	assert_int_equal(ev->nrec, 1);
	assert_int_equal(ev->recs[0].kind, HX_K_HCCL_TASK_FAIL);
	assert_int_equal(ev->recs[0].line, 1);
	f = hx_rec_field(ev, &ev->recs[0], HX_F_PARTS);
	assert_non_null(f);
	assert_string_equal(hx_ev_str(ev, f->str),
			    "header,base,para,group_rank,op_data");
	f = hx_rec_field(ev, &ev->recs[0], HX_F_EXP_MODE);
	assert_non_null(f);
	assert_string_equal(hx_ev_str(ev, f->str), "AICPU");
	hangdx_evidence_free(ev);
}

/* The pre-filter passes the INFO kernel lines and still drops noise. */
static void test_prefilter(void **state)
{
	static const char *const pass[] = {
		DEV "[hccl_aicpu_interface.cc:69] [5019]RunAicpuRpcSrvLaunchV2 KFCTask task 0x1, context 0x2, tilingData 0x3",
		DEV "[hccl_aicpu_interface.cc:122] [5019]end RunAicpuRpcSrvLaunchV2",
		DEV "[aicpu_communicator.cc:2631] [5019]HcclOpExecFsmInitProcess tag:t, isDeviceMode:0, index:1",
		CCE "[aicpusd_event_manager.cpp:667][ExecuteHWTSKFCEventTask][tid:5019] kfc task, streamId[5], taskId[7].",
	};
	static const char *const drop[] = {
		DEV "[hccl_aicpu_interface.cc:77] [5019][RunAicpuRpcSrvLaunchV2] isZeroCopy [0], isSymmetricMemory [0], workflowMode[1]",
		CCE "[aicpusd_event_manager.cpp:660][HWTSKernelEventMessageParse][tid:5019] Kernel type of current task is [5], dataDumpEnableMode[0].",
	};
	size_t i;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(pass); i++)
		assert_int_equal(hx_classify(pass[i], strlen(pass[i])),
				 HX_CL_PREFIXED);
	for (i = 0; i < HX_ARRAY_LEN(drop); i++)
		assert_int_equal(hx_classify(drop[i], strlen(drop[i])),
				 HX_CL_NOISE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch),
		cmocka_unit_test(test_kernel_life),
		cmocka_unit_test(test_kernel_waits),
		cmocka_unit_test(test_kernel_failures),
		cmocka_unit_test(test_aicpu_comm),
		cmocka_unit_test(test_aicpu_task),
		cmocka_unit_test(test_env_real),
		cmocka_unit_test(test_status_fold_by_group),
		cmocka_unit_test(test_launch_fold),
		cmocka_unit_test(test_status_moves),
		cmocka_unit_test(test_status_sweep),
		cmocka_unit_test(test_worker_runs_fold),
		cmocka_unit_test(test_aicpu_block_header),
		cmocka_unit_test(test_prefilter),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	hangdx_ctx_free(g_ctx);
	return rc;
}
