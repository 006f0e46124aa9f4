#!/bin/sh
# t23-open-forms.sh - the general forms of the open world (docs/DIAGNOSIS.md,
# "The open world"), each on lines written here in the vendors' and
# frameworks' forms (not copied from an excerpt): a wait that ran out in
# words no family has (deadlock, TIMEOUT, a glog error head, a retried
# timeout said twice), the AICPU operator timeout of an unranked process,
# a process that ended (an exception in a thread, an
# exit status on an error line, an aclnn call that failed), a normal end of
# a framework's run, a device exception in the vector core's words, a
# device's own "timeout or trap" extend info, and a wait that ran out long
# after a fault.  Each has a twin that must decide otherwise, so that a
# check that always passes fails one of the pair.
. tests/cli/lib.sh

# verdict FILE: the JSON's "hang" (true, false, null) and category, read
# from the report's own top-level lines (a Python per check cost most of
# the script's time); no report prints neither
verdict() {
	"$HANGDX" diagnose --json "$1" 2>/dev/null |
		awk '/^  "hang": /{h = $2; sub(/,$/, "", h)}
		     /^  "category": /{c = $2; gsub(/[",]/, "", c)}
		     END {print h, c}'
}
check() {
	_d=$1 _w=$2
	shift 2
	printf '%s\n' "$@" > "$T/v.log"
	_g=$(verdict "$T/v.log")
	t_ok "$_d: want '$_w', got '$_g'" test "$_g" = "$_w"
}

# the vendor's AICPU operator timeout (E30008) in a plog whose process no
# line ties to a rank: its category, the rank said unknown; its twin, the
# same words without the code, a wait that ran out of unknown kind
check "E30008 in a plog line of an unranked process" "true aicpu_op_timeout" \
	"[ERROR] RUNTIME(12345,python):2025-03-01-10:00:00.123.456 [error_manager.cc:300] 12345 E30008: [PID: 12345] 2025-03-01-10:00:00.123.456 AI CPU operator execution timed out. Operator NonZero ran past its limit."
check "the same words without the code" "true unknown" \
	"[ERROR] RUNTIME(12345,python):2025-03-01-10:00:00.123.456 [error_manager.cc:300] 12345 [PID: 12345] 2025-03-01-10:00:00.123.456 AI CPU operator execution timed out. Operator NonZero ran past its limit."
# the graph engine's codes (E1xxxx, metadef error_code.json): an argument
# the model converter refused is a failure that returned at once; the
# DVPP operator's own timeout (EN0007) is a wait that ran out (a device-side
# timeout whose cause the text does not show: other); without their codes
# they are error lines hangdx does not know
check "GE's E10001 after ATC's failure line" "false not_a_hang" \
	"ATC run failed, Please check the detail log, Try 'atc --help' for more information" \
	"E10001: Value [1,3,224] for parameter [--input_shape] is invalid. Reason: the shape has three dimensions."
check "the same refusal without E10001" "null other" \
	"ATC run failed, Please check the detail log, Try 'atc --help' for more information" \
	"Value [1,3,224] for parameter [--input_shape] is invalid. Reason: the shape has three dimensions."
check "DVPP's operator timeout EN0007" "true other" \
	"[ERROR] DVPP(2201,main):2025-03-01-10:00:00.123.456 [dvpp_api.cpp:88] EN0007: acldvppJpegDecodeAsync times out. Reason: the channel did not answer."
check "the same DVPP call failed, no code, no timeout" "null other" \
	"[ERROR] DVPP(2201,main):2025-03-01-10:00:00.123.456 [dvpp_api.cpp:88] acldvppJpegDecodeAsync failed. Reason: the channel did not answer."
check "a deadlock declared" "true unknown" \
	"report_deadlock: FATAL: Task Allocator Deadlock - Ring Full!"
check "a deadlock only named in a setting" "null not_determined" \
	"deadlock_detection=off"
check "an upper-case TIMEOUT exit" "true unknown" \
	"[STALL thread=3 idle=1000] TIMEOUT_EXIT after_idle=1000"
check "a glog error head with a connect timeout" "true connect_timeout" \
	"E0612 10:00:01.000001 4242 transport.cpp:99] Connect timeout to: 10.0.0.2:5000"
check "the same at glog's INFO level" "null not_determined" \
	"I0612 10:00:01.000001 4242 transport.cpp:99] Connect timeout to: 10.0.0.2:5000"
check "a warning that a wait timed out, retried, said twice" "true connect_timeout" \
	"[W612 10:00:01.000001 socket.cpp:900] [c10d] The server socket on [::1]:5000 has timed out, will retry." \
	"[W612 10:02:11.000001 socket.cpp:900] [c10d] The server socket on [::1]:5000 has timed out, will retry."
check "the same warning once" "null not_determined" \
	"[W612 10:00:01.000001 socket.cpp:900] [c10d] The server socket on [::1]:5000 has timed out, will retry."
check "a thread that ended on an exception" "false not_a_hang" \
	"Exception in thread Thread-2 (_worker):" \
	"Traceback (most recent call last):"
check "an exit status on an error line" "false not_a_hang" \
	"ERROR: test case failed (exit 3): kernel_a"
check "an exit status 0 ends no process: an error line not known" "null other" \
	"ERROR: summary written (exit 0): kernel_a"
check "an aclnn call that failed with an operator's inner error" "false not_a_hang" \
	"RuntimeError: call aclnnFoo failed, detail:EZ9999: Inner Error!"
check "the Trainer's end of training" "false none" \
	"Training completed. Do not forget to share your model on huggingface.co/models =)"
check "a benchmark's result" "false none" \
	"============ Serving Benchmark Result ============" \
	"Successful requests:                     10"
check "a benchmark's title centred between rules" "false none" \
	"============================================================" \
	"                 Speech Speed Benchmark Result                 " \
	"============================================================"
check "a title that says a benchmark failed: not its result" "null other" \
	"                 Speech Speed Benchmark Failed                 "
check "vLLM's offline bar at every prompt" "false none" \
	"Processed prompts: 100%|##########| 16/16 [00:05<00:00,  3.1it/s, est. speed input: 90.20 toks/s]"
check "the bar at 100% of a part only: not done" "null not_determined" \
	"Processed prompts: 100%|##########| 16/160 [00:05<00:00,  3.1it/s]"
# a wait that ran out after the normal end: that end was not the last
# word; the same wait before it, retried, leaves the end standing
check "a normal end, then a wait that ran out" "true collective_timeout" \
	"Processed prompts: 100%|##########| 16/16 [00:05<00:00,  3.1it/s]" \
	"(EngineCore_DP0 pid=100) ERROR 06-12 10:00:01 [core.py:1] TimeoutError: RPC call to execute_model timed out."
check "a wait that ran out, then the normal end" "false none" \
	"(EngineCore_DP0 pid=100) ERROR 06-12 10:00:01 [core.py:1] TimeoutError: RPC call to execute_model timed out." \
	"Processed prompts: 100%|##########| 16/16 [00:05<00:00,  3.1it/s]"
# HCCL's examples and hccl_test: an HCCL call's HcclResult, 7 resource
# unavailable returned at once, 9 a timeout
check "an HCCL call that returned HCCL_E_UNAVAIL (hccl_test)" "false not_a_hang" \
	"hccl interface return err ./common/src/hccl_test_common.cc:538, retcode: 7 "
check "the same call returning HCCL_E_TIMEOUT" "true other" \
	"hccl interface return err ./common/src/hccl_test_common.cc:538, retcode: 9 "
# hccl_test's own lines (hicann/oam-tools, src/hccl_test): the row of the
# maxbytes its start line printed ends the test; a row short of it does not;
# an ACL call's code (ACLCHECK) is the runtime's
check "hccl_test's table up to its maxbytes" "false none" \
	"the minbytes is 8192, maxbytes is 16384, iters is 20, warmup_iters is 5" \
	"data_size(Bytes): |   avg_time(us): | alg_bandwidth(GB/s): | check_result:" \
	"8192              |     764.55    |       0.00998        | success" \
	"16384             |     858.80    |       0.01777        | success"
check "the same table stopped before its maxbytes" "null not_determined" \
	"the minbytes is 8192, maxbytes is 67108864, iters is 20, warmup_iters is 5" \
	"data_size(Bytes): |   avg_time(us): | alg_bandwidth(GB/s): | check_result:" \
	"8192              |     764.55    |       0.00998        | success" \
	"16384             |     858.80    |       0.01777        | success"
check "hccl_test's unchecked rows (NULL) up to its maxbytes" "false none" \
	"the minbytes is 8192, maxbytes is 8192, iters is 20, warmup_iters is 5" \
	"8192              |     764.55    |       0.00998        | NULL"
check "hccl_test's check of a rank's result that failed: completed, wrong data" "false not_a_hang" \
	"the minbytes is 8192, maxbytes is 16384, iters is 20, warmup_iters is 5" \
	"local rank_id 3, check result failed, 8192              | 764.55         | 0.00998              | failed"
check "the root rank's row that failed the same" "false not_a_hang" \
	"the minbytes is 8192, maxbytes is 16384, iters is 20, warmup_iters is 5" \
	"8192              |     764.55    |       0.00998        | failed"
check "hccl_test's ACL call that returned a stream's failure" "false not_a_hang" \
	"acl interface return err ./common/src/hccl_test_common.cc:340, retcode: 507015."
# a client's own connection that timed out (ETIMEDOUT's words): a hang
# at set-up; the same call refused returned at once
check "a client's connection that timed out" "true connect_timeout" \
	"E20260612 10:00:01.000001 4242 master_client.cpp:146] RPC call failed: Connection timed out"
check "the same call refused (ECONNREFUSED: a set-up that failed)" "null connect_timeout" \
	"E20260612 10:00:01.000001 4242 master_client.cpp:146] RPC call failed: Connection refused"
# ADXL's statuses (hixl, adxl_types.h): a bad parameter returned at once;
# its timeout a wait that ran out; its bare FAILED a status its call
# returned, not that timeout: a failure, no hang
check "ADXL's PARAM_INVALID" "false not_a_hang" \
	"E0612 10:00:01.000001 4242 transfer_engine.cpp:88] Connect to 10.0.0.2:5000 failed, ret: 103900"
check "ADXL's TIMEOUT" "true other" \
	"E0612 10:00:01.000001 4242 transfer_engine.cpp:88] Connect to 10.0.0.2:5000 failed, ret: 103901"
check "ADXL's FAILED" "false not_a_hang" \
	"E0612 10:00:01.000001 4242 transfer_engine.cpp:88] Connect to 10.0.0.2:5000 failed, ret: 503900"
# vLLM's notice that no broadcast block was free for 60 s: alone a silent
# hang; with a failure the tables name after it, that failure
check "the engine's shared-memory notice alone" "true silent_hang" \
	"(EngineCore_DP0 pid=100) INFO 06-12 10:00:01 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization)."
check "the same notice, then a failed model stream" "null other" \
	"(EngineCore_DP0 pid=100) INFO 06-12 10:00:01 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization)." \
	"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:575 NPU function error: c10_npu::acl::AclrtSynchronizeDeviceWithTimeout, error code is 507011"
# a failure that returned at once (the tables' out of memory), after the
# notice: a worker was held up for a minute before it, not "no hang"; its
# twin, the notice after the failure (its echo), names the failure
check "the notice, then out of device memory" "null other" \
	"(EngineCore_DP0 pid=100) INFO 06-12 10:00:01 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization)." \
	"[rank0]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated). EL0004: [PID: 200] 2026-06-12-10:00:40.000.001 Failed to allocate memory. Possible Cause: Available memory is insufficient. ret = 207001"
check "out of device memory, then the notice" "false not_a_hang" \
	"[rank0]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated). EL0004: [PID: 200] 2026-06-12-10:00:40.000.001 Failed to allocate memory. Possible Cause: Available memory is insufficient. ret = 207001" \
	"(EngineCore_DP0 pid=100) INFO 06-12 10:01:41 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization)."
check "a vector core exception" "false not_a_hang" \
	"[ERROR] RUNTIME(100,python):2026-06-12-10:00:01.000.001 [device_error_proc.cc:1]101 ProcessStarsCoreErrorInfo:The error from device(chipId:0, dieId:0), serial number is 1, there is an exception of fftsplus aivector error, core id is 2, error code = 0x10"
check "the same with the device's 'timeout or trap' extend info" "true device_timeout" \
	"[ERROR] RUNTIME(100,python):2026-06-12-10:00:01.000.001 [device_error_proc.cc:1]101 ProcessStarsCoreErrorInfo:The error from device(chipId:0, dieId:0), serial number is 1, there is an exception of fftsplus aivector error, core id is 2, error code = 0x10" \
	"[ERROR] RUNTIME(100,python):2026-06-12-10:00:01.000.002 [device_error_proc.cc:2]101 ProcessStarsCoreErrorInfo:The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fsmId:1"
check "a fault, then a stream wait-event task that failed ten minutes later" "true event_wait_chain" \
	"[ERROR] DEVICE(100,python):2026-06-12-10:00:01.000.001 [queue.cc:1] Parse] Got unsupported acl datatype: -1" \
	"[ERROR] RUNTIME(100,python):2026-06-12-10:10:01.000.001 [task.cc:92]101 PrintErrorInfo:Task execute failed, base info: device_id=0, stream_id=2, task_id=3, flip_num=0, task_type=3."
check "the same fault with the task failing at once: the fault first" "null other" \
	"[ERROR] DEVICE(100,python):2026-06-12-10:00:01.000.001 [queue.cc:1] Parse] Got unsupported acl datatype: -1" \
	"[ERROR] RUNTIME(100,python):2026-06-12-10:00:01.000.101 [task.cc:92]101 PrintErrorInfo:Task execute failed, base info: device_id=0, stream_id=2, task_id=3, flip_num=0, task_type=3."
check "a link status returned by LLM-DataDist" "false not_a_hang" \
	"ERROR 06-12 10:00:01 [connector.py:1] KV transfer failed: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED"
check "its own timeout status: a wait that ran out" "true unknown" \
	"ERROR 06-12 10:00:01 [connector.py:1] KV transfer failed: [link] failed, error code is LLMStatusCode.LLM_TIMEOUT"
check "the link status after a wait ran out: not ruled out" "null connect_timeout" \
	"[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [task_exception_handler.cc:1][100]Task run failed, notify wait timeout" \
	"ERROR 06-12 10:00:02 [connector.py:1] KV transfer failed: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED"
# torch_npu's HCCL_CHECK_ERROR ("HCCL function error: CALL, error code is
# N", N an HcclResult, HCCLUtils.hpp): the call returned, so not a hang,
# except HCCL_E_TIMEOUT (9) on a call that creates a communicator
check "an HCCL call that returned a parameter error" "false not_a_hang" \
	"RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1"
check "the same call returning HCCL_E_TIMEOUT" "true connect_timeout" \
	"RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9"
check "a collective's HCCL call returning HCCL_E_TIMEOUT" "true other" \
	"RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:200 HCCL function error: HcclAllReduce(input, output, count, type, op, comm, stream), error code is 9"
# a set-up wait at torch.distributed's store that ran out is a hang;
# the server's "has timed out, will retry" once is not (above)
check "c10d's client socket timed out" "true connect_timeout" \
	"[E612 10:00:01.000001 socket.cpp:1011] [c10d] The client socket has timed out after 1800000ms while trying to connect to (10.0.0.2, 29500)."
check "c10d's client socket failed to connect" "null connect_timeout" \
	"[E612 10:00:01.000001 socket.cpp:1011] [c10d] The client socket has failed to connect to any network address of (10.0.0.2, 29500)."
# torch_npu's "dispatch timeout" is a warning that may clear: said twice
# in a file it is a wait that keeps running out
check "torch_npu's dispatch timeout said twice" "true collective_timeout" \
	"[W612 10:00:01.000001 ProcessGroupHCCL.cpp:944] Process group work ALLREDUCE, seq_num 7 dispatch timeout. device 0" \
	"[W612 10:00:02.000001 ProcessGroupHCCL.cpp:944] Process group work ALLREDUCE, seq_num 8 dispatch timeout. device 0"
check "the same said once" "null not_determined" \
	"[W612 10:00:01.000001 ProcessGroupHCCL.cpp:944] Process group work ALLREDUCE, seq_num 7 dispatch timeout. device 0"
# onnxruntime's log sink gives the line its severity
check "a runtime code on onnxruntime's error line" "false not_a_hang" \
	"2026-06-12 10:00:01.000000001 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 500002: ACL_ERROR_GE_FAILURE ; NPU=0"
check "the same at onnxruntime's info level" "null not_determined" \
	"2026-06-12 10:00:01.000000001 [I:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 500002: ACL_ERROR_GE_FAILURE ; NPU=0"
# EZ9999 (AclNN_Inner_Error) naming a host-side step of an operator call
check "an aclnn inner error in the operator's tiling" "false not_a_hang" \
	"EZ9999: [PID: 100] 2026-06-12-10:00:01.000.001 AclNN_Inner_Error(EZ9999): Do not find tiling func of Foo!"
check "an aclnn inner error that names nothing of the host" "null other" \
	"EZ9999: [PID: 100] 2026-06-12-10:00:01.000.001 AclNN_Inner_Error(EZ9999): Foo went wrong!"
# device memory short in other words than "out of memory"
check "an allocator asked for more than the device has" "false not_a_hang" \
	"[ERROR] PRE_ACT(100,1,python):2026-06-12-10:00:01.000.001 [mem_dynamic_allocator.cc:392] AddMemBlock] alloc size : 100555779072 is more than total mem size : 61079552000."
# verl's trainers end on their last validation; CANN's TBE workers then
# say the main process is gone, an echo of that end
check "verl's final validation, then the TBE workers' echo" "false none" \
	"(\"Final validation metrics: {'val-core/reward/mean@1': \"" \
	"'0.36}')" \
	"[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!"
check "the TBE workers' line alone: a process ended" "false not_a_hang" \
	"[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!"
# HCCL's own plog line of a communicator that could not be created: its
# errNo (module 5) carries the HcclResult
check "HCCL's HcclCommInitRootInfo failed with HCCL_E_PTR" "false not_a_hang" \
	"[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [op_base.cc:974][101][Init][CommRootInfoConfig]errNo[0x0000000005000002]HcclCommInitRootInfo failed."
check "the same with HCCL_E_TIMEOUT" "true connect_timeout" \
	"[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [op_base.cc:974][101][Init][CommRootInfoConfig]errNo[0x0000000005000009]HcclCommInitRootInfo failed."
# an HCCL call that returned because its set-up ran out of time (EI0015
# says so past the 160 bytes the quote keeps)
check "hcclCommInitRootInfoConfig returned 1 beside EI0015's timeout" "true connect_timeout" \
	"RuntimeError: create_config:../torch_npu/csrc/distributed/HCCLUtils.cpp:140 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1" \
	"[PID: 100] 2026-06-12-10:00:01.000.001 Communication_Error_Ranktable_Detect(EI0015): Failed to collect cluster information of the communicator based on rootInfo detection. Reason: No rank in the communicator can connect to the root node within the timeout period."
# msrun's "Time out nodes" on an error line, and at warning level
check "msrun's timed-out nodes" "true unknown" \
	"[ERROR] ME(100:1,MainProcess):2026-06-12-10:00:01.000.000 [mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']"
check "the same at warning level" "null not_determined" \
	"[WARNING] ME(100:1,MainProcess):2026-06-12-10:00:01.000.000 [mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']"
# a name with Timeout in it is not the word
check "a function named ...WithTimeout that failed" "null other" \
	"[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [transport_roce_mem.cc:363] [101][ConnectImplWithTimeout]ConnectImplWithTimeout Prepare failed"
check "a connect that timed out" "true connect_timeout" \
	"[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [transport_roce_mem.cc:363] [101][ConnectImpl]connect timeout, Prepare failed"
# processes that ended or returned at start: glog's CHECK, a worker that
# failed to start, a server that could not listen
check "glog's failed CHECK" "false not_a_hang" \
	"F20260612 10:00:01.000001 100 collective_service.cpp:37] Check failed: status == HCCL_SUCCESS (1 vs. 0) HCCL get root info failed."
check "a worker that failed to start" "false not_a_hang" \
	"ERROR 06-12 10:00:01 [multiproc_executor.py:751] WorkerProc failed to start."
check "the same at warning level" "null not_determined" \
	"WARNING 06-12 10:00:01 [multiproc_executor.py:751] WorkerProc failed to start."
check "a server that could not listen" "false not_a_hang" \
	"[2026-06-12 10:00:01.000+08:00] [38] [452] [server] [ERROR] [http_server.cpp:163] : [endpoint] Failed to listen 10.0.0.3:40032, please check if business ip and port are legal."
# an AICPU exception: undetermined (HCCL's kernels run there), unless the
# framework names the kernel that failed and it is an ordinary one
check "an AICPU exception of a kernel MindSpore names" "false not_a_hang" \
	"Launch kernel failed: Default/network/Reshape-op278" \
	"E39999: 2026-06-12-10:00:01.000.001  The error from device(chipId:0, dieId:0), serial number is 3, an exception occurred during AICPU execution, stream_id:2, task_id:19, errcode:21008, msg:inner error."
check "the same kernel a collective's" "null other" \
	"Launch kernel failed: Default/network/AllReduce-op278" \
	"E39999: 2026-06-12-10:00:01.000.001  The error from device(chipId:0, dieId:0), serial number is 3, an exception occurred during AICPU execution, stream_id:2, task_id:19, errcode:21008, msg:inner error."
check "an AICPU exception without its code, of a kernel MindSpore names" "false not_a_hang" \
	"Launch kernel failed: Default/network/Reshape-op278" \
	"E39999: Inner Error!" \
	"        Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:PreCheckTaskErr][FILE:task_info.cc][LINE:1776]"
check "the same without its code, the kernel a collective's" "null other" \
	"Launch kernel failed: Default/network/AllReduce-op278" \
	"E39999: Inner Error!" \
	"        Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:PreCheckTaskErr][FILE:task_info.cc][LINE:1776]"
# a communication operator's aclnn call (MoE dispatch) that failed beside
# a socket that timed out: the wait decides; an ordinary operator's call
# failing the same way is the operator's failure
check "a MoE dispatch call that failed beside EI0006" "true connect_timeout" \
	"[rank0]:[E612 10:00:01.000000001 compiler_depend.ts:454] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnMoeDistributeDispatchV4 failed, error code is 561000" \
	"[PID: 100] 2026-06-12-10:00:01.557.509 Communication_Error_Get_Socket(EI0006): Getting socket times out. Reason: no connection"
check "an ordinary operator's call failing alone" "false not_a_hang" \
	"[rank0]:[E612 10:00:01.000000001 compiler_depend.ts:454] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnnArange failed, error code is 561000"
# a deadlock a message warns of is not one declared
check "a failure that warns it might cause deadlock" "false not_a_hang" \
	"ERROR 06-12 10:00:01 worker_base.py:581] RuntimeError: NPU out of memory. Tried to allocate 450.00 MiB" \
	"ERROR 06-12 10:00:02 worker_base.py:581] Error executing method 'load_model'. This might cause deadlock in distributed execution."
# an SDMA copy that ran into an exception (EI0012's "fftsplus sdma error")
# and HCCL's host "Task run failed" block about it 1 ms later (a host-mode
# block says [Timeout] whatever failed): the exception, at once; the same
# with a peer that then waited until its notify wait ran out is the hang
# the failed copy left behind
sdma="[ERROR] RUNTIME(200,python):2026-06-12-10:00:01.000.000 [task_info.cc:1170]201 PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, dev_id=0, stream_id=7, task_id=3, context_id=2, thread_id=0, err_type=4[fftsplus sdma error]"
report="[ERROR] HCCL(200,python):2026-06-12-10:00:01.001.000 [task_exception_handler.cc:947] [201][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[9], taskID[3], tag[AllGather_g0], AlgType(level 0-1-2):[fullmesh-ring-H-D]."
check "an SDMA exception and HCCL's report of it" "false other" "$sdma" "$report"
check "the same, then a peer's notify wait ran out" "true link_error" "$sdma" "$report" \
	"[ERROR] RUNTIME(300,python):2026-06-12-10:30:37.000.000 [stream.cc:1000]301 ProcessTask:notify wait timeout occurred during task execution, device_id=1, stream_id=7, task_id=3, notify_id=12"
# a warning that a task failed with a device exception's code (the
# runtime's exception callback); the same code in a warning that says
# no failure is not read
check "an exception callback's warning that a task failed" "false not_a_hang" \
	"[WARN] exception_cb deviceId:0 streamId:8 taskId:1275 failed:500002"
check "the same code in a warning that names no failure" "false none" \
	"[WARN] exception_cb deviceId:0 streamId:8 taskId:1275 state:500002" \
	"Training completed."
# a library of the install that does not load (dlerror's words), behind a
# pasted Markdown quote: a configuration error at once
check "a quoted GE line whose library does not load" "false not_a_hang" \
	"> [ERROR] GE(400,main):2026-06-12-10:00:01.000.000 [host_cpu_engine.cc:288]401 LoadLib: ErrorNo: 1343225860(Internal errors) [INIT][DEFAULT][Invoke][DlOpen] failed. path = /opt/lib/libops.so, error = /opt/lib/libops.so: undefined symbol: _ZN2ge3FooEv"
check "a GE line of its run stage with a cause it does not name" "null other" \
	"> [ERROR] GE(400,main):2026-06-12-10:00:01.000.000 [davinci_model.cc:288]401 Run: ErrorNo: 1343225860(Internal errors) [EXEC][DEFAULT][Invoke][Kernel] failed. name = op1"
# GE's compile stage (a graph that did not build returned), a graph or
# operator that did not compile in other words
check "a GE line of its compile stage" "false not_a_hang" \
	"[ERROR] GE(400,demo):2026-06-12-10:00:01.000.000 [ge_generator.cc:1581]400 BuildModel: ErrorNo: 1343266818(Graph manager add graph failed.) [COMP][DEFAULT][Add][Graph] fail, graph id: 2"
check "a converter whose graph did not build" "false not_a_hang" \
	"[ERROR] LITE(500,converter_lite):2026-06-12-10:00:01.000.000 [acl_pass_impl.cc:1275] Run] Build graph failed."
# HCCL's own ret[9] (HCCL_E_TIMEOUT) on a line about its links: a set-up
# wait; ret[4] (HCCL_E_INTERNAL, an HcclResult that is no timeout) a failure
# that returned
check "HCCL's ret[9] waiting for its links" "true connect_timeout" \
	"[ERROR] HCCL(600,python):2026-06-12-10:00:01.000.000 [hccl_socket_manager.cc:860] [601][Wait][LinksEstablishCompleted] is failed. ret[9]."
check "HCCL's ret[4] (an internal error) on the same line" "false not_a_hang" \
	"[ERROR] HCCL(600,python):2026-06-12-10:00:01.000.000 [hccl_socket_manager.cc:860] [601][Wait][LinksEstablishCompleted] is failed. ret[4]."
# a watchdog that fired (SGLang's scheduler: its forward batch stood
# still, a stall the framework caught); its setting alone is none
check "a watchdog timeout" "true silent_hang" \
	"[2026-06-12 10:05:09] Watchdog timeout (self.watchdog_timeout=300)"
check "the watchdog's setting" "null not_determined" \
	"[2026-06-12 10:00:00] server_args: watchdog_timeout=300, log_level=info"
# the shell's word for a process killed by SIGSEGV
check "a segmentation fault" "false not_a_hang" \
	"W20260612 10:00:01.000001 100 master.cpp:59] Creating engine" \
	"Segmentation fault (core dumped)"
check "the same engine line alone" "null not_determined" \
	"W20260612 10:00:01.000001 100 master.cpp:59] Creating engine"
# an exception pasted without the blank after its colon; an import error
# a program printed and went on from
check "an exception without its blank" "false not_a_hang" \
	"RuntimeError:No module named 'vllm_ascend.foo'"
check "an import error printed and passed over" "null other" \
	"import error: No module named 'triton'"
dashes=----------------------------------------------------
# an inner error whose message, on the next line of MindSpore's "Ascend
# Error Message" block, says a wait timed out: that wait, not a failure
# it followed
check "an inner error whose message is a connect timeout" "true connect_timeout" \
	"RuntimeError: Preprocess failed before run graph 1." "$dashes" "- Ascend Error Message:" "$dashes" \
	"EI9999: Inner Error!" \
	"EI9999 connected p2p timeout, timeout:600 s.local logicDevid:0,remote physic id:7 The possible causes are as follows:1.the connection between this device and the target device is abnormal 2.an exception occurred at the target devices 3.The ranktable is not matched.[FUNC:WaitP2PConnected][FILE:p2p_mgmt.cc][LINE:275]" \
	"TraceBack (most recent call last):"
check "an inner error whose message is a failed connect" "null other" \
	"RuntimeError: Preprocess failed before run graph 1." "$dashes" "- Ascend Error Message:" "$dashes" \
	"EI9999: Inner Error!" \
	"EI9999 connected p2p failed, ret:-1 s.local logicDevid:0,remote physic id:7 The possible causes are as follows:1.the connection between this device and the target device is abnormal 2.an exception occurred at the target devices 3.The ranktable is not matched.[FUNC:WaitP2PConnected][FILE:p2p_mgmt.cc][LINE:275]" \
	"TraceBack (most recent call last):"
check "the same under a bare inner error" "true connect_timeout" \
	"EI9999: Inner Error!" \
	"EI9999 connected p2p timeout, timeout:600 s."
# torch_npu's "[Error]: ..." under a failed call is the runtime code's own
# description (runtime.tsv, after "; "): that code when it is wrapped away;
# a description no row holds decides nothing
check "a runtime code's description alone" "false not_a_hang" \
	"[ERROR] ERR00100 PTA call acl api failed" \
	"[Error]: The vector core execution is abnormal."
check "a description no row holds" "null other" \
	"[ERROR] ERR00100 PTA call acl api failed" \
	"[Error]: The vector core execution is slow."
# the text of an error-manager code that says a feature is not supported
# is a parameter error; a bind that failed because the port was taken
# (EI0019) returned at once
check "an inner error's text: a feature not supported" "false not_a_hang" \
	"EE9999: Inner Error!" \
	"EE9999  get device msg feature can not support offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:3483]"
check "an inner error's text that says no more" "null other" \
	"EE9999: Inner Error!" \
	"EE9999  get device msg failed in offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:3483]"
check "EI0019: the port was already bound" "false not_a_hang" \
	"[PID: 100] 2026-06-12-10:00:01.000.000 Communication_Error_Bind_IP_Port(EI0019): Failed to enable listening for the host network adapter socket.Reason: The IP address 10.0.0.1 and port 50001 have already been bound."
check "EI0019 with another reason" "false not_a_hang" \
	"[PID: 100] 2026-06-12-10:00:01.000.000 Communication_Error_Bind_IP_Port(EI0019): Failed to enable listening for the host network adapter socket.Reason: errno 99."
# an exception whose own text says its cause is on another line (torch_npu's
# "The Inner error is reported as above", vLLM's worker that failed at
# start): a failure whose hang is not determined; its twin names its cause
check "torch_npu's inner error reported above, alone" "null other" \
	"RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is HcclBroadcast."
check "the same exception after its own error-manager code" "false not_a_hang" \
	"EZ1001: [PID: 100] 2026-06-12-10:00:01.000.000 The input tensor shape is invalid." \
	"RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnAdd."
printf '%s\n' "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is HcclBroadcast." > "$T/inner.log"
t_ok "... its reason the row's meaning: the cause is on an earlier line" \
	sh -c "'$HANGDX' diagnose '$T/inner.log' | tr -s ' \n' '  ' | grep -q 'hang not determined: torch_npu: the process exits on an error of its task queue printed before this line'"
check "vLLM's worker that failed at start, alone" "null other" \
	"Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause."
check "an exception that names its cause" "false not_a_hang" \
	"Exception: WorkerProc could not import its module: No module named 'vllm_ascend'" \
	"ModuleNotFoundError: No module named 'vllm_ascend'"
# ONNX Runtime's failed node; an error-manager code no table has whose text
# names a Python error
check "ONNX Runtime: a node's kernel failed" "false not_a_hang" \
	"onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Expand node. Name:'Expand_1' Status Message: invalid expand shape"
check "ONNX Runtime's words without the node" "null not_determined" \
	"onnxruntime status: returned while running the graph"
check "an unknown code whose text names ModuleNotFoundError" "false not_a_hang" \
	"EC0010: Failed to import Python module [ModuleNotFoundError: No module named 'tbe.common'.]."
check "an unknown code whose text names nothing" "null other" \
	"EC0010: Failed to import Python module [tbe.common]."
# E39007 (a device process that did not start in time) says a wait timed
# out: right under the device set-up error it explains, the wait decides
check "507033 then E39007 (a subprocess start timed out)" "true unknown" \
	"RuntimeError: ExchangeDevice:compiler_depend.ts:253 NPU function error: c10_npu::SetDevice(device), error code is 507033" \
	"Inner_Error_Device_Subprocess_Startup_Timeout(E39007): Starting a subprocess on the device timed out."
check "507033 alone" "false not_a_hang" \
	"RuntimeError: ExchangeDevice:compiler_depend.ts:253 NPU function error: c10_npu::SetDevice(device), error code is 507033"
# the framework's HCCL watchdog that names the code it ended on: that code
check "the watchdog ended on an error CQE (EI0013)" "false other" \
	"[rank11]:[E313 06:55:06.502248200 compiler_depend.ts:1693] [Rank 1] HCCL watchdog thread terminated with exception: [PID: 335] 2026-03-13-06:55:06.896.485 Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution."
check "the watchdog ended on an exception it does not name" "null other" \
	"[rank11]:[E313 06:55:06.502248200 compiler_depend.ts:1693] [Rank 1] HCCL watchdog thread terminated with exception: something went wrong."
# the runtime's own failed notify wait task ("Notify wait execute failed"):
# a notify wait fails only by running out; its model stream's failure
# alone (507011's words) does not say
check "the runtime's notify wait task failed" "true unknown" \
	"[ERROR] RUNTIME(900,python):2026-05-11-20:08:58.102.330 [task.cc:3786]900 ReportErrorInfo:model execute error, retCode=0x91, [the model stream execute failed]." \
	"[ERROR] RUNTIME(900,python):2026-05-11-20:08:58.102.344 [task.cc:4106]900 PrintErrorInfo:Notify wait execute failed, device_id=0, stream_id=11, task_id=2, flip_num=0, notify_id=53"
check "its model stream's failure alone" "null other" \
	"[ERROR] RUNTIME(900,python):2026-05-11-20:08:58.102.330 [task.cc:3786]900 ReportErrorInfo:model execute error, retCode=0x91, [the model stream execute failed]."
# a status printed as its number and its name ("sched_error_code=100
# SCHEDULER_TIMEOUT") under a device error is a wait that ran out after
# it; a setting's name there (HCCL_EXEC_TIMEOUT) is not
check "a device exception, then a status named ..._TIMEOUT" "null other" \
	"EZ9999[PID: 860208] The error from device(chipId:6, dieId:1), serial number is 47, there is an exception of aivec error" \
	"    validate_runtime_impl: sched_error_code=100 SCHEDULER_TIMEOUT"
check "a device exception, then a setting's name" "false not_a_hang" \
	"EZ9999[PID: 860208] The error from device(chipId:6, dieId:1), serial number is 47, there is an exception of aivec error" \
	"    validate_runtime_impl: check HCCL_EXEC_TIMEOUT and sched_error_code=100"
# an inner error whose text names what an HCCL call returned: that code
check "EZ9999: an HCCL call inside an operator returned HCCL_E_INTERNAL" "false not_a_hang" \
	"EZ9999[PID: 5317] 2026-04-22-08:49:02.433.180 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, comm = 0xfffeb02eb000."
check "... returned HCCL_E_TIMEOUT" "true other" \
	"EZ9999[PID: 5317] 2026-04-22-08:49:02.433.180 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 9, comm = 0xfffeb02eb000."
# out of memory, then a wait that ran out: a failure whose hang is not
# determined, said so from the first word
printf '%s\n' "EL0004: [PID: 100] 2026-06-12-10:00:01.000.000 Failed to allocate memory." \
	"EE9999: Inner Error!" \
	"        The error from device(chipId:1, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:6, sq_id:6, task_id:90, event_id=15, timeout=1868.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1389]" > "$T/oom.log"
t_ok "out of memory then a wait that ran out: hang not determined, said first" \
	sh -c "'$HANGDX' diagnose '$T/oom.log' | grep -A1 '^  Failure, hang not determined: the job stopped on' | grep -q 'memory'"
# the driver's drvError_t after its own word (hicann/runtime,
# ascend_hal_error.h): 87 a device another process holds, returned at
# once; 16 its wait that ran out; the same number after a word that is
# not the driver's names no row
check "a driver call that returned DRV_ERROR_RESOURCE_OCCUPIED" "false not_a_hang" \
	"[ERROR] RUNTIME(278,python3):2025-08-26-03:01:17.587.916 [driver.cc:65]278 GetDeviceCount:Call drvGetDevNum, drvRetCode=87."
check "the same call returning DRV_ERROR_WAIT_TIMEOUT" "true other" \
	"[ERROR] RUNTIME(278,python3):2025-08-26-03:01:17.587.916 [driver.cc:65]278 GetDeviceCount:Call drvGetDevNum, drvRetCode=16."
check "87 after a word that is not the driver's" "null other" \
	"[ERROR] RUNTIME(278,python3):2025-08-26-03:01:17.587.916 [driver.cc:65]278 GetDeviceCount:Call drvGetDevNum, status=87."
# an exception class named in pynvml's way (a subclass after "Error_")
# ends its process; the same words without the colon end nothing
check "an exception named XError_Y ended the process" "false not_a_hang" \
	"gpustack_runtime.detector.pydcmi.DCMIError_LibraryNotFound: Library Not Found"
check "the same name without its colon" "null not_determined" \
	"gpustack_runtime.detector.pydcmi.DCMIError_LibraryNotFound Library Not Found"
# a program or file the job needs that is not there: a set-up that failed
# at once; a line that says it was found is no failure
check "a program not found by the shell" "false not_a_hang" \
	"bash: npu-smi: command not found"
check "a file not there" "false not_a_hang" \
	"ls: cannot access '/usr/local/Ascend/driver': No such file or directory"
check "a program that was found" "null not_determined" \
	"npu-smi was found in /usr/local/bin"
# the C library's error texts (glibc, strerror): a connection refused is
# a failed set-up, a full disk a resource, a peer that reset the
# connection a lost link; the same words at INFO level say nothing
check "strerror: a connection refused" "null connect_timeout" \
	"E0612 10:00:01.000001 4242 rdma.cc:12] connect to 10.0.0.2:60000 failed: Connection refused"
check "the same at glog's INFO level" "null not_determined" \
	"I0612 10:00:01.000001 4242 rdma.cc:12] connect to 10.0.0.2:60000 failed: Connection refused"
check "strerror: a disk that is full" "false not_a_hang" \
	"OSError: [Errno 28] No space left on device"
check "strerror: a device another process holds" "false not_a_hang" \
	"[ERROR] open /dev/davinci3 failed: Device or resource busy"
check "strerror: a peer that reset the connection" "false other" \
	"[2026-01-01 10:00:00] ERROR recv failed: Connection reset by peer"
check "... and a wait that ran out after it" "null other" \
	"[2026-01-01 10:00:00] ERROR recv failed: Connection reset by peer" \
	"[2026-01-01 10:30:00] ERROR HCCL notify wait timed out"
t_ok "a reset connection is told as a lost link, not the device's heartbeat" sh -c \
	"printf '%s\\n' '[2026-01-01 10:00:00] ERROR recv failed: Connection reset by peer' > '$T/reset.log' && '$HANGDX' diagnose '$T/reset.log' | tr '\\n' ' ' | grep -q 'a link error or a lost peer'"
# a value refused in the word "invalid" (not "invalidated"), and a build
# without what the job asks for: failures that returned at once
check "an error line that says a value is invalid" "false not_a_hang" \
	"[2025-11-25 17:59:09.908267] [240] [245] [llm] [ERROR] [executor.cpp:646] Invalid DP number per node: 0"
check "an error line that says entries were invalidated" "null other" \
	"[2025-11-25 17:59:09.908267] [240] [245] [llm] [ERROR] [cache.cpp:10] invalidated 3 entries"
check "a build not compiled with what the job asks for" "false not_a_hang" \
	"!!! Exception during processing !!! Torch not compiled with CUDA enabled"
check "the same words that say it was" "null other" \
	"!!! Exception during processing !!! Torch compiled with CUDA enabled"
# a timeout in the words of an AI Core task (the runtime's STARS dfx) is a
# device timeout; the same words of an SDMA task are a wait of unknown kind
check "an AI Core task's timeout in the runtime's words" "true device_timeout" \
	"[ERROR] RUNTIME(2921,python3):2026-03-01-10:00:00.000.001 [stars_engine.cc:100]2950 ProcessStarsTimeoutDfxSlotInfo:aicore task timeout dfx, show slot info, slot_id=5, device_id=14, stream_id=3, task_id=7673"
check "the same words of an SDMA task" "true unknown" \
	"[ERROR] RUNTIME(2921,python3):2026-03-01-10:00:00.000.001 [stars_engine.cc:100]2950 ProcessStarsTimeoutDfxSlotInfo:sdma task timeout dfx, show slot info, slot_id=5, device_id=14, stream_id=3, task_id=7673"
# a rank's bracket that starts like a plog level ("[TP0]", "[DP1]") is no
# level: its line still reaches the open world; a plog level is filtered
check "a scheduler watchdog behind a bare [TP0]" "true silent_hang" \
	"[TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)"
check "the same words at a plog's INFO level" "null not_determined" \
	"[INFO] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)"
# HCCL's stage-and-kind tag of a failed task, on a line of its own
check "HCCL's [TaskExecStage][Timeout] tag alone" "true unknown" \
	"[TaskExecStage][Timeout][HOST]"
check "the same stage failing as a run failure" "false not_a_hang" \
	"[TaskExecStage][RunFailed][HOST]" "Task run failed, base information is streamID:[3], taskID[2]"
# the task scheduler's error line names the handler that printed it: one
# ending in _timeout is an AI Core task that ran out of time; a handler of
# another name on the same line is not a timeout
check "a TSCH handler named ..._timeout" "true device_timeout" \
	"[ERROR] TSCH(-1,null):2026-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012 bs_done_exception_proc_timeout: slot_id=1,TS_ctrl=0x4,exception_core_list=0x0,fault_task=0"
check "a TSCH handler of another name" "null other" \
	"[ERROR] TSCH(-1,null):2026-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012 bs_done_exception_proc_timeout_cfg: slot_id=1,TS_ctrl=0x4,exception_core_list=0x0,fault_task=0"
# a wait at torch.distributed's store, in the store's own words, is a
# hang at set-up; the same words of another exception a wait of unknown kind
check "a DistStoreError's wait timeout" "true connect_timeout" \
	"torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//cpu//0/2"
check "the same words of another exception" "true unknown" \
	"torch.distributed.DistBackendError: wait timeout after 1800000ms, keys: /default_pg/0//cpu//0/2"
# a constraint a value broke, on an error line, returned at once; the same
# words at INFO level are no error
check "a value that broke a constraint" "false not_a_hang" \
	"2026-01-05 08:55:01.904629+08:00 - app.evaluator - ERROR - Error evaluating model M: --max-input-token-len must be in the range (0, --max-seq-len]"
check "the same words at INFO level" "null not_determined" \
	"2026-01-05 08:55:01.904629+08:00 - app.evaluator - INFO - --max-input-token-len must be in the range (0, --max-seq-len]"
# a fault of the hardware: an uncorrectable memory error in the kernel's
# report is a device exception; a corrected one is no failure
check "a multi-bit ECC error in the kernel's report" "false not_a_hang" \
	"[2454.830701] {6}[Hardware Error]  error_type: 3, multi-bit ECC"
check "a single-bit ECC error corrected" "null not_determined" \
	"[2454.830701] {6}[Hardware Info]  error_type: 2, single-bit ECC corrected"
# an acronym's exception class ends a line as "RuntimeError:" does: its
# library that does not load returned at once; the words alone are no error
check "OSError: a library that does not load" "false not_a_hang" \
	"OSError: /usr/lib/libfoo.so: undefined symbol: _ZN3Foo3barEv"
check "the same words without the class" "null not_determined" \
	"/usr/lib/libfoo.so: undefined symbol: _ZN3Foo3barEv"
# vLLM's front end says its engine's cause is above: alone it names none;
# with the cause above, the cause decides
check "an engine start that says its cause is above, alone" "null other" \
	"(APIServer pid=3653) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"
check "the same after its cause" "false not_a_hang" \
	"(EngineCore_DP0 pid=3709) ValueError: No available memory for the cache blocks." \
	"(APIServer pid=3653) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"
# vLLM's front end that waited for its engines is a set-up wait a client
# made; a framework's set-up failure that is no wait is not
check "vLLM's front end timed out waiting for its engines" "true connect_timeout" \
	"(APIServer pid=1370) TimeoutError: Timed out waiting for engines to send initial message on input socket."
check "a set-up that failed at once" "null connect_timeout" \
	"(APIServer pid=1370) ConnectionRefusedError: [Errno 111] Connection refused"
# an exception whose message is empty ("...Error: " as Python prints it,
# its blank trimmed or not) ended the process; torchrun's ChildFailedError
# only says that a worker failed, whose cause is in the worker's output
check "an exception with an empty message, blank trimmed" "false not_a_hang" \
	"triton.compiler.errors.MLIRCompilationError:"
check "the same with its blank" "false not_a_hang" \
	"triton.compiler.errors.MLIRCompilationError: "
check "torchrun's ChildFailedError with an empty first line" "null other" \
	"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
# MindSpore's section headings are no error lines; the error under them is
check "MindSpore's section headings alone" "null not_determined" \
	"Ascend Error Message:" "- Framework Error Message: (For framework developers)" \
	"- C++ Call Stack: (For framework developers)"
check "the same heading over its error" "false not_a_hang" \
	"- Ascend Error Message:" "RuntimeError: Preprocess failed before run graph 1."
# a reporter's sentence that introduces the log is no error line; a
# sentence that says what failed is one
check "a reporter's sentence before the log" "null not_determined" \
	"I got the following error when running the training:"
check "a sentence that says what failed" "null other" \
	"Error when running the training: disk is full"
# a logger's time head is taken off; its ERROR does not make a line an
# error line (a launcher's logger writes what the job printed at it)
check "a line behind a logger's time head" "true unknown" \
	"2025-03-26 13:49:01,670 - runner - INFO - EI0002: The wait execution of the Notify register times out."
check "a logger's ERROR alone" "null not_determined" \
	"2025-03-26 13:49:01,670 - runner - ERROR - model loaded in 3 s"
# a reporter's sentence before the first log line, on its line, is no
# error line; the log line after it is read (its twin: the sentence alone
# over a line that says nothing)
check "a sentence before a notify wait timeout on one line" "true unknown" \
	"Here is the error I got: EI0002: The wait execution of the Notify register times out."
check "the same sentence before a line that says nothing" "null other" \
	"Here is the error I got: the model loaded in 3 s"
# lines glued by a page that lost the newline between them: the vendor's
# own start of a line after a blank begins a line, read with its prefix
# (its process and time); not after a colon, where the code is the message
printf '%s\n' "The job printed this and then stopped. [ERROR] RUNTIME(1234,python):2025-03-01-10:00:00.123.456 [stream.cc:100] 1235 GetError: notify wait timeout" > "$T/glue.log"
t_ok "a plog line glued after a sentence is read with its prefix" \
	sh -c "'$HANGDX' parse '$T/glue.log' | grep -q 'pid=1234 ts=2025-03-01T10:00:00.123456'"
check "an error-manager header glued after torch_npu's line" "true unknown" \
	"[ERROR] 2025-03-01-10:00:00 (PID:9, Device:0, RankID:3) ERR00100 PTA call acl api failed. EI0002: [PID: 9] 2025-03-01-10:00:00.123.456 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [5]."
printf '%s\n' "RuntimeError: [ERROR] RUNTIME(1234,python):2025-03-01-10:00:00.123.456 [stream.cc:100] 1235 GetError: notify wait timeout" > "$T/glue3.log"
t_ok "after a colon the plog line is the message, not a line of its own" \
	sh -c "! '$HANGDX' parse '$T/glue3.log' | grep -q 'pid=1234'"
# an ERROR device-log line cut after its source location, its message on
# the lines after it (a vendor document's page); twin: the same lines
# with a blank line between, where the message is not the line's
check "a TSCH line cut after its source location" "true device_timeout" \
	"[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012" \
	"bs_done_exception_proc_timeout" ": slot_id=1,TS_ctrl=0x4" "fault_task=0"
check "the same pieces after a blank line" "null other" \
	"[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012" \
	"" "bs_done_exception_proc_timeout" ": slot_id=1,TS_ctrl=0x4" "fault_task=0"
# Open MPI's handler of a fatal signal: the process ended (its twin: the
# same frames without the signal's lines say nothing)
check "Open MPI's fatal signal, cut after its signal line" "false not_a_hang" \
	"[node1:3436928] Failing at address: 0xb8" \
	"[node1:3436928] [ 0] linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0xffff97f657c0]"
check "the frames alone" "null not_determined" \
	"[node1:3436928] [ 0] linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0xffff97f657c0]"
# vLLM's engine core that failed to start says its cause is the exception
# logged under it: alone, a failure whose hang is not determined; with that
# exception, the exception decides
check "vLLM's EngineCore failed to start, alone" "null other" \
	"(EngineCore_DP0 pid=42) ERROR 01-08 09:17:07 [core.py:708] EngineCore failed to start."
check "the same with the exception under it" "false not_a_hang" \
	"(EngineCore_DP0 pid=42) ERROR 01-08 09:17:07 [core.py:708] EngineCore failed to start." \
	"(EngineCore_DP0 pid=42) ERROR 01-08 09:17:07 [core.py:708] ValueError: max_model_len must be at most 4096"
# Gloo's peer that closed the connection: the cause is on that peer (a
# failure whose hang is not determined, not a process that ended on its
# own exception); its twin, the same pair's read that timed out
check "Gloo's connection closed by peer" "null other" \
	"RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:544] Connection closed by peer [10.0.0.7]:8628"
check "Gloo's read timeout" "true collective_timeout" \
	"RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Read timeout [10.0.0.7]:8628"
# MindIE's ATB model that failed to execute points at the CANN logs for
# its first error (a failure whose hang is not determined); its own out of
# memory is named
check "ATB's Execute fail, enable log" "null other" \
	"RuntimeError: Execute fail, enable log: export ASCEND_GLOBAL_LOG_LEVEL=3, export ASCEND_SLOG_PRINT_TO_STDOUT=1 to find the first error. For more details, see the MindIE official document."
check "ATB's Npu out of memory" "false not_a_hang" \
	"RuntimeError: Npu out of memory, OOM"
# an operator whose shapes did not infer returned at once (blanks between
# the words as MindIE prints them); the word alone says nothing
check "an infershape that failed" "false not_a_hang" \
	"[ERROR] [standard_model.py:186] : Exception:VIT_graph nodes[1] infershape  fail, enable log: export ASDOPS_LOG_LEVEL=ERROR"
check "an error after an infershape" "null other" \
	"[ERROR] [standard_model.py:186] : Exception:VIT_graph nodes[1] infershape done, execute fail"
# a traceback cut before its exception's line: an exception was raised, a
# failure of unknown kind (its frames alone say nothing)
check "a traceback without its last line" "null other" \
	"Traceback (most recent call last):" \
	'  File "/opt/app/train.py", line 282, in train' "    loss = self.train_step(imgs)"
check "the frames alone" "null not_determined" \
	'  File "/opt/app/train.py", line 282, in train' "    loss = self.train_step(imgs)"
# a framework's own collective that ran out (vLLM's collective RPC, a
# process group's work, Gloo's pair) is a collective that timed out; a
# framework's other wait is a hang of unknown kind, told by its meaning
check "vLLM's RPC to its workers timed out" "true collective_timeout" \
	"TimeoutError: RPC call to sample_tokens timed out."
check "LLM-DataDist's wait to be processed ran out" "true unknown" \
	"[ERROR] llm_datadist: request failed, status LLM_WAIT_PROC_TIMEOUT"
# the core's own extend info "timeout or trap" is a core that ran out of
# time (a device timeout); the same block's illegal instruction is not
check "a core's extend info: timeout or trap" "true device_timeout" \
	"[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.528 [device_error_proc.cc:1421] 3813 ProcessStarsCoreErrorInfo: The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0xf16b"
check "a core's extend info: an illegal instruction" "null other" \
	"[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.528 [device_error_proc.cc:1421] 3813 ProcessStarsCoreErrorInfo: The extend info: errcode:(0, 0, 0) errorStr: illegal instruction. fixp_error0 info: 0xf16b"
check "a device message naming a vector core timeout" "true device_timeout" \
	"EZ9999: [PID: 14376] 2025-04-09-15:41:05.059.559 The error from device(chipId:1, dieId:0), serial number is 2, there is an aivec error exception, core id is 3. Kernel task happen error, retCode=0x30, [vector core timeout]."
# a line in Chinese with no ASCII word: its error and timeout words are
# read (the pre-filter passes them); the same sentence without them is not
check "a Chinese error line" "null other" "训练时出现错误：磁盘已满"
check "a Chinese line without an error word" "null not_determined" "训练时出现：磁盘已满"
check "a Chinese timeout line" "true unknown" "通信超时，进程退出"
# the code an AICPU kernel ended on, in the device's report, read from
# vocab/aicpu.tsv (the runtime's rtAICPUErrorType): an operator's own
# error returned at once; a code no table has says nothing of a wait; a
# timeout code ran out; a kernel of HCCL's
# (its name on the next line) may have waited on other ranks
aicpu_rep() {
	printf 'E39999: [PID: 900] 2026-01-05-10:00:00.000.001 The error from device(chipId:0, dieId:0), serial number is 3, an exception occurred during AICPU execution, stream_id:4, task_id:9, errcode:%s, msg:%s.[FUNC:ProcessStarsAicpuErrorInfo][FILE:device_error_proc.cc][LINE:1483]' "$1" "$2"
}
check "an AICPU kernel's inner error code" "false not_a_hang" "$(aicpu_rep 21008 'inner error')"
check "an AICPU kernel's code no table has: nothing of a wait" "null other" "$(aicpu_rep 77 'aicpu execute failed')"
check "an AICPU kernel's timeout code" "true aicpu_op_timeout" "$(aicpu_rep 21007 'task execute timeout')"
check "the raw AICPU timeout code under the default message" "true aicpu_op_timeout" \
	"$(aicpu_rep 135175 'aicpu execute failed')"
check "an HCCL kernel's inner error code" "null other" "$(aicpu_rep 11006 'inner error')" \
	"       AI CPU kernel execute failed, device_id=0, stream_id=4, task_id=9, soName=libscatter_aicpu_kernel.so, funcName=HcclLaunchAicpuKernel, kernelName=HcclLaunchAicpuKernel, errorCode=0x2a."
check "HCCL's op retry failed on the AICPU: a lost link" "false other" "$(aicpu_rep 1000 'aicpu execute failed')"
check "the old report without the device's head" "false not_a_hang" \
	"[ERROR] RUNTIME(900,python):2022-09-22-11:27:01.793.498 [device_error_proc.cc:669]901 ProcessAicpuErrorInfo:An exception occurred during AICPU execution, stream_id:7, task_id:2, errcode:11002, msg:open so failed."
# the task scheduler's code for an AICPU task (vocab/ts.tsv): 0x28 is
# TS_ERROR_AICPU_TIMEOUT, 0x2a the AICPU exception (an ordinary kernel's,
# where nothing communicates)
check "an AICPU kernel the task scheduler timed out" "true aicpu_op_timeout" \
	"E39999: Inner Error!" \
	"        Aicpu kernel execute failed, device_id=0, stream_id=15, task_id=265, soName=libtf_kernels.so, funcName=TFOperateAPI, kernelName=MatMul, errorCode=0x28.[FUNC:PrintAicpuErrorInfo][FILE:davinci_kernel_task.cc][LINE:1435]"
t_ok "an unranked AICPU operator timeout is said to have no rank" \
	sh -c "'$HANGDX' diagnose '$T/v.log' | tr '\\n' ' ' | grep -q 'no line names its rank'"
check "the same kernel's exception, nothing communicating" "false not_a_hang" \
	"E39999: Inner Error!" \
	"        Aicpu kernel execute failed, device_id=0, stream_id=15, task_id=265, soName=libtf_kernels.so, funcName=TFOperateAPI, kernelName=MatMul, errorCode=0x2a.[FUNC:PrintAicpuErrorInfo][FILE:davinci_kernel_task.cc][LINE:1435]"
# a wait that ran out under a traceback's frame was raised there: in
# vLLM's shared-memory broadcast, a collective of the engine and its
# workers; in a file of the job's own, a wait of unknown kind
tb_frame() {
	printf '%s\n' "Traceback (most recent call last):" \
		"  File \"/vllm-workspace/vllm/vllm/distributed/device_communicators/$1\", line 536, in acquire_read" \
		"    raise TimeoutError" "TimeoutError"
}
check "a TimeoutError raised in shm_broadcast.py" "true collective_timeout" "$(tb_frame shm_broadcast.py)"
check "the same raised in a file of the job's own" "true unknown" "$(tb_frame my_queue.py)"
# an HCCL call's code with the error manager's block right under it that
# says a wait ran out: the call returned because of that wait
hccl6="RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: HcclAllgather, error code is 6"
err01100="[ERROR] 2025-07-01-00:40:04 (PID:176930, Device:0, RankID:-1) ERR01100 OPS call acl api failed."
check "an HCCL call's code explained by a socket that timed out" "true connect_timeout" \
	"$hccl6" "$err01100" \
	"EI0006: [PID: 176930] 2025-07-01-00:40:04.135.732 Getting socket times out. Reason: Remote Rank did not send the data in time."
check "the same code without its explanation" "null other" "$hccl6" "$err01100"
# a wait whose own limit says it began a minute or more before a fault
# reported beside it was no echo of that fault: the job was stuck before
oom_wait() {
	printf '%s\n' "RuntimeError: ACL stream synchronize failed." \
		"EL0004: 2025-01-31-08:23:58.845.175 Failed to allocate memory." \
		"        TraceBack (most recent call last):" \
		"        rtMalloc execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]" \
		"        The error from device(chipId:7, dieId:0), serial number is 2, event wait timeout occurred during task execution, stream_id:6, sq_id:6, task_id:9035, event_id=1522, timeout=$1.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1463]"
}
check "an event wait of 1868 s reported beside out of memory" "true event_wait_chain" "$(oom_wait 1868)"
check "an event wait of 30 s reported beside it: its echo" "null other" "$(oom_wait 30)"
check "the same block in Markdown's bold" "true event_wait_chain" \
	"$(oom_wait 1868 | sed '2s/^/**/; $s/$/**/')"
check "the same bold block numbered by cat -n" "true event_wait_chain" \
	"$(oom_wait 1868 | sed '2s/^/**/; $s/$/**/' | cat -n)"
# a logger head of level and place only ("ERROR [file.py:800] ") is an
# envelope; a wait a table row names is told by the row
printf '%s\n' "(Worker pid=6871) ERROR [multiproc_executor.py:800] Inner_Error_Device_Subprocess_Startup_Timeout(E39007): Starting a subprocess on the device timed out." > "$T/tl.log"
t_ok "a logger head without its time is taken off the line" \
	sh -c "'$HANGDX' parse '$T/tl.log' | grep -q 'text=\"Inner_Error'"
t_ok "a wait a row names is told by its meaning" \
	sh -c "'$HANGDX' diagnose '$T/tl.log' | tr '\\n' ' ' | grep -q 'Hang of unknown kind: Starting a subprocess on the device timed out. (E39007'"
# the AI Core error tool's report: its error code is an AI Core task's
# exception; its fields alone ("error time : ...") are no error lines
aicerr_rep() {
	printf '%s\n' "**********************Root cause conclusion******************" \
		"***********************1. Basic information********************" \
		"error time   : 2023-06-09-06:55:34.798.772" "device id    : 0" \
		"node name    : GatherV2" "$@"
}
check "msaicerr's report with its error code" "false not_a_hang" \
	"$(aicerr_rep "***********************2. Ai Core DFX Register***********************" \
		"error code  : 0x10")"
check "the report's fields alone" "null not_determined" "$(aicerr_rep)"
check "a sentence before msaicerr's report" "false not_a_hang" \
	"Here is the report I got: $(aicerr_rep "***********************2. Ai Core DFX Register***********************" \
		"error code  : 0x10")"
# a resource that could not be allocated (a device plugin at admission)
# failed at once; the same words in an INFO line say nothing
check "an allocation that failed" "false not_a_hang" \
	"E0612 10:00:01.000001 4242 plugin.go:99] Allocate failed due to no healthy devices present;"
t_ok "an allocation that failed is not called out of memory" \
	sh -c "'$HANGDX' diagnose '$T/v.log' | tr '\\n' ' ' | grep -q 'a resource that could not be allocated'"
check "the same at glog's INFO level" "null not_determined" \
	"I0612 10:00:01.000001 4242 plugin.go:99] Allocate failed due to no healthy devices present;"
# the operator library's inner error naming the kernel's config or init,
# host-side steps of an operator call: it failed before the device ran
check "EZ9999 over a kernel config that did not parse" "false not_a_hang" \
	"EZ9999: Inner Error!" "EZ9999: [PID: 41346] 2025-08-05-22:49:45.373.816 Parse dynamic kernel config fail.[THREAD:42075]"
check "EZ9999 over a config that names no step" "null other" \
	"EZ9999: Inner Error!" "EZ9999: [PID: 41346] 2025-08-05-22:49:45.373.816 Parse dynamic config fail.[THREAD:42075]"
# MindSpore's dump of a failed task naming a data queue's GetNext: the
# queue's wait for the dataset ran out; an ordinary node is no such wait
ms_dump() {
	printf '%s\n' "[ERROR] DEVICE(2420702,fffe06ffd1e0,python):2023-11-20-15:34:32.886.561 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:761] DumpTaskExceptionInfo] Task fail infos task_id: 2, stream_id: 45, tid: 2420702, device_id: 0, retcode: 507011 ( model execute failed)" \
		"[ERROR] DEVICE(2420702,fffe06ffd1e0,python):2023-11-20-15:34:32.887.652 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_kernel_runtime.cc:770] DumpTaskExceptionInfo] Dump node (Default/$1-op18) task error input/output data to: ./rank_0/node_dump"
}
check "a GetNext task that failed" "true aicpu_op_timeout" "$(ms_dump GetNext)"
t_ok "its fix is the data pipeline" \
	sh -c "'$HANGDX' diagnose '$T/v.log' | tr '\\n' ' ' | grep -q 'speed up the data pipeline'"
check "an ordinary node's task that failed" "null other" "$(ms_dump MatMul)"
# an exception a device synchronize raised, its code cut off: it reports a
# task's timeout as often as an exception; with its code, the code decides
check "a synchronize's exception without its code" "null other" \
	"Traceback (most recent call last):" \
	"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:575 NPU function error: AclrtSynchro"
check "the same with an AI Core exception's code" "false not_a_hang" \
	"Traceback (most recent call last):" \
	"RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:575 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015"
# DCMI's codes (npu-smi, the device plugin; vocab/dcmi.tsv): a device held
# by another process failed at once, DCMI's own timeout ran out, and a
# code no table has says nothing
dcmi_line() { printf 'dcmi model initialized failed, because the device is used. ret is %s\n' "$1"; }
check "DCMI's device occupied" "false not_a_hang" "$(dcmi_line -8020)"
check "DCMI's response timed out" "true unknown" "$(dcmi_line -8006)"
check "a DCMI code no table has" "null other" "$(dcmi_line -7777)"
# HCCP's and its RoCE driver's -errno (vocab/errno.tsv): the device ran out
# of memory for a queue pair at once; its connect that timed out is a
# wait; the same number in another module's line is no errno
hccp_line() { printf '[ERROR] %s(2210,python3):2025-01-06-10:04:09.261.464 [ra_host.c:1390]tid:11543,ra_qp_create_with_attrs(1390) : [create][ra_qp_with_attrs]create qp fail, ret(%s) phy_id(0)\n' "$1" "$2"; }
check "HCCP's -ENOMEM" "false not_a_hang" "$(hccp_line HCCP -12)"
check "RoCE's -ENOMEM" "false not_a_hang" "$(hccp_line ROCE -12)"
check "HCCP's -ETIMEDOUT" "true unknown" "$(hccp_line HCCP -110)"
check "the same -12 in the runtime's line" "null other" "$(hccp_line RUNTIME -12)"
check "an HCCP number no table has" "null other" "$(hccp_line HCCP -999)"
# HCCP's own six-digit codes as HCCL prints what an HCCP call returned
# (ConverReturnCode: type, HCCP's module 28, the operation, the errno's
# index; vocab/runtime.tsv): an RDMA operation out of memory failed at
# once; a number of that shape no table has says nothing
hccp_ret() { printf '[ERROR] HCCL(60570,python):2025-12-04-14:46:07.911.356 [adapter_hccp.cc:1000] [60570][Create][Qp]ra qp create fail. ret[%s]\n' "$1"; }
check "HCCP's code of an RDMA operation out of memory" "false not_a_hang" "$(hccp_ret 328100)"
check "a code of HCCP's shape no table has" "null other" "$(hccp_ret 328199)"
# the ids of a failure whose deciding line names no task are those the
# lines right around it name (the runtime prints the task on its own line)
printf '%s\n' "EZ9999: Inner Error!" \
	"EZ9999  Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:PreCheckTaskErr][FILE:task_info.cc][LINE:1677]" \
	"        Aicpu kernel execute failed, device_id=0, stream_id=28, task_id=1726, errorCode=2a.[FUNC:PrintAicpuErrorInfo][FILE:task_info.cc][LINE:1522]" \
	"        synchronize stream failed, runtime result = 507018[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]" > "$T/ids.log"
t_ok "a failure's ids from the task line beside it" \
	sh -c "'$HANGDX' diagnose --json '$T/ids.log' | tr -d ' \\n' | grep -q '\"stream\":28,\"task\":1726'"
# lines glued by a page that lost the newline: an application's "[ERROR] "
# head begins another line; a piece after the first is read as a line of
# its own, by the open world too (its timeout is not lost behind the
# first piece's record)
check "an application's [ERROR] line glued before an error block" "true device_timeout" \
	"[ERROR] aclrtSynchronizeStream(stream) failed: 507014 (main.cpp:84) [ERROR] RecentErrMsg: EZ9999: Inner Error!"
check "a core's 'timeout or trap' glued after a record of its own" "true device_timeout" \
	"[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.427 [device_error_proc.cc:1409] 3813 ProcessStarsCoreErrorInfo:report error module_type=5, module_name=EZ9999 [ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.528 [device_error_proc.cc:1421] 3813 ProcessStarsCoreErrorInfo: The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0xf16bb18"
# an AICPU exception where nothing communicates (no HCCL, no second rank,
# no synchronize with a timeout of its own) is an operator's own; with a
# second rank or a synchronize's own timeout it is not determined
aicpu_exc() {
	printf '%s\n' "${1}EZ9999: Inner Error!" \
		"${1}EZ9999  Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:PreCheckTaskErr][FILE:task_info.cc][LINE:1677]" \
		"${1}        rtStreamSynchronize$2 execute failed, reason=[aicpu exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:50]"
}
check "an AICPU exception where nothing communicates" "false not_a_hang" "$(aicpu_exc '' '')"
t_ok "the assumption is said" \
	sh -c "'$HANGDX' diagnose '$T/v.log' | tr '\\n' ' ' | grep -q 'taken for the exception of an'"
check "the same under a synchronize with a timeout of its own" "null other" "$(aicpu_exc '' WithTimeout)"
check "the same on a second rank" "null other" "$(aicpu_exc '[rank1]:' '')"
# a line whose process names no rank is a pseudo rank, not a second
# process of the job: the AICPU exception beside a [rank0] line is still
# an operator's own
check "an AICPU exception beside a first rank's line and an unranked one" "false not_a_hang" \
	"EH9999: 2024-06-19-23:19:23.433.674  wait for compute device to finish failed, runtime result = 507018.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]" \
	"[rank0]:[W NPUStream.cpp:365] Warning: NPU warning, error code is 507018[Error]: " \
	"[Error]: The aicpu execution is abnormal. "
check "the same beside a second rank's line" "null other" \
	"EH9999: 2024-06-19-23:19:23.433.674  wait for compute device to finish failed, runtime result = 507018.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]" \
	"[rank2]:[W NPUStream.cpp:365] Warning: NPU warning, error code is 507018[Error]: " \
	"[Error]: The aicpu execution is abnormal. "
# the driver's dump of an exception task: its "error code" is the task
# scheduler's (vocab/ts.tsv); 0x2a an AICPU exception, read as above
ts_dump() {
	printf '%s
' "DEVICE[0] PID[2095]: " "EXCEPTION TASK:" \
		"  Exception info:TGID=3724449, model id=65535, stream id=2, stream phase=SCHEDULE, task id=2173, task type=aicpu kernel, recently received task id=2173, recently send task id=2172, task phase=RUN" \
		"    $1:time=2024-07-03-16:32:52.954.172, function=proc_aicpu_task_done, line=970, error code=0x2a"
}
check "the task scheduler's AICPU exception in a driver's dump" "false not_a_hang" "$(ts_dump 'Other info[0]')"
check "the same code on a line that is no such dump" "null other" "$(ts_dump 'Other note')"
# the runtime's report of an AI Core task that failed names an operator's
# exception, unless its kernel is one of HCCL's (an AIV collective)
aic_fail() {
	printf '%s
' "[ERROR] RUNTIME(486624,python):2026-05-14-13:59:41.144.406 [davinci_kernel_task.cc:1143]486885 PrintErrorInfoForDavinciTask:[DFX_INFO]AI Core kernel execution failed, device_id=9, stream_id=155, report_stream_id=47, task_id=3, flip_num=0, fault kernel_name=$1, fault kernel info ext=none, program id=64, hash=9787605810381507884."
}
check "an AI Core kernel that failed" "false not_a_hang" "$(aic_fail SwiGlu_3_high_performance_27)"
check "the same of an AIV collective of HCCL's" "null other" "$(aic_fail aiv_all_gather_bfloat16_t)"
# a wait at start-up for a server or a worker to become available or
# ready is a set-up that did not complete; any other wait, of unknown kind
check "a wait for a server to become available" "true connect_timeout" \
	"[2025-06-01 10:00:00,000 E 123 123] gcs_client.cc:180: Failed to get cluster ID from GCS server: Timed out while waiting for GCS to become available."
check "a wait for a result" "true unknown" \
	"[2025-06-01 10:00:00,000 E 123 123] gcs_client.cc:180: Failed to get the job table from GCS server: Timed out while waiting for the reply."
# a line in NCCL's form has its level after the library's name: an
# INFO line that says "error" is no error line; without the level it is
check "a collective library's INFO line that says error" "null not_determined" \
	"localhost:1378:1378 [0] FLAGCX INFO NET/Plugin: Plugin load error 11: (null)"
check "the same line without its level" "null other" \
	"localhost:1378:1378 [0] NET/Plugin: Plugin load error 11: (null)"
# an open-world line's own stream and task are its ids; "report_stream_id"
# is not the stream
printf '%s\n' "[ERROR] RUNTIME(486624,python):2026-05-14-13:59:41.144.406 [davinci_kernel_task.cc:1143]486885 PrintErrorInfoForDavinciTask:[DFX_INFO]AI Core kernel execution failed, device_id=9, report_stream_id=47, stream_id=155, task_id=3, flip_num=0, fault kernel_name=SwiGlu_3, program id=64." > "$T/oids.log"
t_ok "an open-world line's stream and task" \
	sh -c "'$HANGDX' diagnose --json '$T/oids.log' | tr -d ' \\n' | grep -q '\"stream\":155,\"task\":3'"
# the word "hccl" in another component's sentence names no HCCL call: the
# code after it is that component's, not an HcclResult (1 HCCL_E_PARA)
check "another component's sentence with the word hccl and a code" "null other" \
	"2026-03-24 15:19:59.937660 1424551 error [1424551][TTP controller.cpp:3132] controller:-1 hccl communication failed, return 1"
check "the same code after an HCCL call" "false not_a_hang" \
	"2026-03-24 15:19:59.937660 1424551 error [1424551][TTP controller.cpp:3132] controller:-1 HcclCommInitRootInfo failed, return 1"
# a graph or an operator that did not compile returned at once
check "a graph that did not compile" "false not_a_hang" \
	"[ERROR] GE(1,python):2025-03-04-12:57:08.000.001 [op_compiler_normal.cc:153]1 RunCompileProcess: Failed to re-compile op with no lx fusion for graph [g1]"
check "the same words of a recompute" "null other" \
	"[ERROR] GE(1,python):2025-03-04-12:57:08.000.001 [op_compiler_normal.cc:153]1 RunCompileProcess: Failed to recompute op with no lx fusion for graph [g1]"
# the task scheduler's core timeout names its task as fault_task; a
# driver's line its notify
printf '%s\n' "[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012 bs_done_exception_proc_timeout: slot_id=1,TS_ctrl=0x4,exception_core_list=0x0,current core usage=0x1,AI_CORES_COUNT=2, fault_task=17" > "$T/ftask.log"
t_ok "the TS's fault_task is the task" \
	sh -c "'$HANGDX' diagnose --json '$T/ftask.log' | tr -d ' \\n' | grep -q '\"task\":17'"
printf '%s\n' "[ERROR] RUNTIME(1428447,python):2026-03-24-15:19:11.056.709 [npu_driver.cc:760]1432059 DestroyIpcNotify:[drv api] halShrIdDestroy failed: device_id=15, tsId=0, notifyId=484, drvRetCode=17!" > "$T/fnotify.log"
t_ok "a driver's notifyId is the notify" \
	sh -c "'$HANGDX' diagnose --json '$T/fnotify.log' | tr -d ' \\n' | grep -q '\"notify\":484'"
# a driver's ioctl that failed says only that a call into the driver
# failed (DRV_ERROR_IOCRL_FAIL, class unknown); a resource the driver
# found occupied fails at once
drv_line() { printf '[ERROR] RUNTIME(1428447,python):2026-03-24-15:19:11.056.709 [npu_driver.cc:760]1432059 DestroyIpcNotify:[drv api] halShrIdDestroy failed: device_id=15, tsId=0, notifyId=484, drvRetCode=%s!\n' "$1"; }
check "a driver's ioctl that failed" "null other" "$(drv_line 17)"
check "a driver's resource occupied" "false not_a_hang" "$(drv_line 87)"
# ranks that entered the creation of one communicator further apart than
# HCCL_CONNECT_TIMEOUT (120 s unless the echo says otherwise): the last one
# is behind, and the others' set-up wait ran out (inferred)
entry() { printf '[INFO] HCCL(%s,all_reduce_test):2025-11-20-%s.716.583 [op_base.cc:1293] [%s]Entry-HcclCommInitRootInfoInner:ranks[4], rank[%s], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%%enp_60000_0_1763610996711234], deviceLogicId[%s]\n' "$1" "$2" "$1" "$3" "$3"; }
late_join() {
	entry 3079952 11:56:36 0; entry 3079953 11:56:36 1; entry 3079954 11:56:37 2
	entry 3079955 "$1" 3
}
check "a rank that entered the creation 200 s after the others" "true rank_behind" "$(late_join 11:59:56)"
check "the same 60 s after" "null not_determined" "$(late_join 11:57:36)"
check "every rank entered twice, a run 200 s after another" "null not_determined" \
	"$(late_join 11:56:37)" "$(entry 4079952 11:59:56 0; entry 4079953 11:59:56 1; entry 4079954 11:59:57 2; entry 4079955 11:59:57 3)"
check "the same 200 s after, the connect timeout set to 300 s" "null not_determined" \
	"[INFO] HCCL(3079955,all_reduce_test):2025-11-20-11:56:30.000.000 [adapter.cc:10] [3079955]HCCL_CONNECT_TIMEOUT set by environment to [300]" \
	"$(late_join 11:59:56)"
# pytest's summary of a session in which no test failed is a normal end;
# with a failed test it is none
check "pytest's summary, every test passed" "false none" \
	"tests/collective/test_hccl_group.py::test_allreduce PASSED    [ 16%]" \
	"======================= 6 passed, 1 skipped in 42.17s ========================"
check "the same with a failed test" "null not_determined" \
	"tests/collective/test_hccl_group.py::test_allreduce PASSED    [ 16%]" \
	"================= 1 failed, 5 passed in 42.17s ================="
# a failure at once names the rank whose line it is (a launcher's prefix);
# a line of no rank names none
rank_of() {
	printf '%s\n' "$1" > "$T/rk.log"
	"$HANGDX" diagnose --json "$T/rk.log" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["root_rank"])'
}
t_ok "an AI Core exception on a rank's line names that rank" \
	test "$(rank_of '[rank2]:[W1031 21:35:04.838006795 compiler_depend.ts:57] Warning: NPU warning, error code is 507015')" = 2
t_ok "the same on a line of no rank names none" \
	test "$(rank_of '[W1031 21:35:04.838006795 compiler_depend.ts:57] Warning: NPU warning, error code is 507015')" = -1
# a code named for an AICPU timeout (the task scheduler's 0x28) is an
# AICPU operator timeout, not an AI Core task's; the core's code one
aicpu_ts() { printf '[ERROR] RUNTIME(pid,pName):DateTimeMS [task.cc:878]1827 PreCheckTaskErr:[DVPP][DEFAULT]Kernel task happen error, retCode=%s, [%s].\n' "$1" "$2"; }
check "the task scheduler's AICPU timeout" "true aicpu_op_timeout" "$(aicpu_ts 0x28 'aicpu timeout')"
check "the task scheduler's AI Core timeout" "true device_timeout" "$(aicpu_ts 0x25 'aicore timeout')"
# the runtime's "Memory async copy failed" is an SDMA copy that failed,
# a fault of the device, not a wait
check "a memory copy task that failed" "false other" \
	"[ERROR] RUNTIME(420723,msame):2022-08-17-04:49:06.339.075 [task.cc:1582]420723 PrintErrorInfo:Memory async copy failed, device_id=0, stream_id=3, task_id=2, flip_num=0, copy_type=10, memcpy_type=0, copy_data_type=0, length=4096."
# a link set-up that timed out names as its remote rank the peer of the
# link table's row that says "time out"
printf '%s\n' "[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.403 [hccl_socket_manager.cc:797] [18744][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[1] timeout[120 s]" \
	"[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.653 [hccl_socket_manager.cc:626] [18744]   |  dest_ip(user_rank)  |   dest_port   |  src_ip(user_rank)   |   src_port   |   MyRole   |   Status   |    TlsStatus   |" \
	"[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.706 [hccl_socket_manager.cc:583] [18744]   |  192.0.2.199(5)   |  16666  |   192.0.3.198(1)   |  3234403008  |  client  | time out |   DISABLE  | LinkInfo" > "$T/lpeer.log"
t_ok "a link table's row that timed out names the remote rank" \
	sh -c "'$HANGDX' diagnose --json '$T/lpeer.log' | tr -d ' \\n' | grep -q '\"remote_rank\":5'"
# a timeout's setting echoed on a failure line is no wait that ran out
check "a timeout setting on a failure line" "null other" \
	"E0328 09:06:16.412760 112112 engine.cpp:836] Failed to check peer status, error code[7], local engine:10.0.0.1:2000, timeout:10000 ms."
check "the same setting on a line that timed out" "true unknown" \
	"E0328 09:06:16.412760 112112 engine.cpp:836] Check of peer status timed out, local engine:10.0.0.1:2000, timeout:10000 ms."
# a client's words are not HCCL's: the report names no HCCL timeout for
# them, and names HCCL_CONNECT_TIMEOUT for HCCL's own line
printf '%s\n' "E20260612 10:00:01.000001 4242 master_client.cpp:146] RPC call failed: Connection timed out" > "$T/client.log"
printf '%s\n' "[ERROR] HCCL(100,python):2026-06-12-10:00:01.000.001 [transport_roce_mem.cc:363] [101][ConnectImpl]connect timeout, Prepare failed" > "$T/hcclconn.log"
t_ok "a client's connection timeout is not told as HCCL's" \
	sh -c "'$HANGDX' diagnose '$T/client.log' | grep -q 'A client waited to' && ! '$HANGDX' diagnose '$T/client.log' | grep -q HCCL_CONNECT_TIMEOUT"
printf '%s\n' "(APIServer pid=1370) TimeoutError: Timed out waiting for engines to send initial message on input socket." > "$T/engines.log"
t_ok "vLLM's wait for its engines is told as a client's, not HCCL's" \
	sh -c "'$HANGDX' diagnose '$T/engines.log' | tr '\n' ' ' | grep -q 'A client waited to' && ! '$HANGDX' diagnose '$T/engines.log' | grep -q HCCL_CONNECT_TIMEOUT"
t_ok "HCCL's own connect timeout names HCCL_CONNECT_TIMEOUT" \
	sh -c "'$HANGDX' diagnose '$T/hcclconn.log' | tr '\n' ' ' | grep -q 'HCCL_CONNECT_TIMEOUT'"
# a traceback's frames logged at error level, its head and its exception
# cut: an exception was being logged, a failure whose hang is not
# determined; the same frames at INFO level hold no failure
frames() { printf '(Worker pid=7) %s 04-21 10:27:25 [executor.py:932]   File "/w/parallel_state.py", line 537, in all_gather\n(Worker pid=7) %s 04-21 10:27:25 [executor.py:932]     return comm.all_gather(x)\n' "$1" "$1"; }
check "a traceback's frames under an ERROR logger" "null other" "$(frames ERROR)"
check "the same frames under an INFO logger" "null not_determined" "$(frames INFO)"
printf '%s\n' "$(frames ERROR)" > "$T/frames.log"
t_ok "the frames are told as a traceback whose exception is not in the input" \
	sh -c "'$HANGDX' diagnose '$T/frames.log' | tr '\n' ' ' | grep -q 'a traceback was logged at error level'"
# pybind11's last line of its TypeError, a C++ call whose arguments match
# no signature, under a launcher's ERROR logger: a parameter error; the
# same words in a sentence of no such line are not
check "pybind11's 'Invoked with:' under an ERROR logger" "false not_a_hang" \
	"(EngineCore_0 pid=381) ERROR 05-22 11:41:54 [core.py:396] Invoked with: <PrefixStore object at 0xfffe05d1b230>, 0, 2"
check "the same line under an INFO logger" "null not_determined" \
	"(EngineCore_0 pid=381) INFO 05-22 11:41:54 [core.py:396] Invoked with: <PrefixStore object at 0xfffe05d1b230>, 0, 2"
# a serving benchmark's result pasted without its banner ends the run; a
# summary's count of failures that is zero is no error line, one that is
# not zero is, and a line that only ends in a zero after its own colon is
check "a serving benchmark's result without its banner" "false none" \
	"Successful requests:                     10        " "Failed requests:                         0         " \
	"Benchmark duration (s):                  325.16    "
check "lm-evaluation-harness's table of results" "false none" \
	'|                 Tasks                 |Version|Filter|n-shot|Metric|   |Value |   |Stderr|' \
	'|---------------------------------------|-------|------|-----:|------|---|-----:|---|-----:|' \
	'|mmlu                                   |N/A    |none  |     0|acc   |↑  |0.4336|±  |0.0041|'
check "a table of the same shape with other heads" "null not_determined" \
	'|                 Tasks                 |Version|Filter|n-shot|Step  |   |Value |   |Stderr|' \
	'|mmlu                                   |N/A    |none  |     0|acc   |↑  |0.4336|±  |0.0041|'
# pytablewriter pads each head to its column; a paste may lose the first bar
check "lm-eval's table, its heads padded, its first bar lost" "false none" \
	'Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|' \
	'|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|' \
	'|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.1653|±  |0.0102|'
check "the padded shape with another head" "null not_determined" \
	'Tasks|Version|     Filter     |n-shot|  Stage    |   |Value |   |Stderr|' \
	'|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.1653|±  |0.0102|'
check "lm-eval's table of groups, its first bar lost" "false none" \
	'Groups|Version|Filter|n-shot|Metric|   |Value |   |Stderr|' \
	'|mmlu  |      2|none  |      |acc   |↑  |0.4336|±  |0.0041|'
check "a table of groups with another head" "null not_determined" \
	'Groups|Version|Filter|n-shot|Stage |   |Value |   |Stderr|' \
	'|mmlu  |      2|none  |      |acc   |↑  |0.4336|±  |0.0041|'
# sglang's simple evals end on their latency and score (test/run_eval.py)
check "an evaluation's total latency as it ends" "false none" \
	'100%|██████████| 200/200 [05:15<00:00,  1.58s/it]' 'Total latency: 315.435 s' 'Score: 0.955'
check "a latency that is a step's, words after it" "null not_determined" \
	'100%|██████████| 200/200 [05:15<00:00,  1.58s/it]' 'Total latency: 315.435 s for step 3' 'Score: 0.955'
# sglang's benchmarks end on their accuracy, the share of invalid answers
# and the latency (benchmark/gsm8k/bench_sglang.py and its kin)
check "a benchmark's share of invalid answers as it ends" "false none" \
	'100%|██████████| 200/200 [00:44<00:00,  4.51it/s]' 'Accuracy: 0.945' 'Invalid: 0.000' 'Latency: 44.533 s'
check "an invalid count with words after it" "null not_determined" \
	'100%|██████████| 200/200 [00:44<00:00,  4.51it/s]' 'Accuracy: 0.945' 'Invalid: 0.000 of the batch' 'Latency: 44.533 s'
# what the Trainer's train() returned, printed; whisper.cpp's total time
# as it exits; the summary table of OpenCompass and AISBench; vLLM's
# offline example once generate() returned: each a normal end, and the
# same words short of it are not
check "the Trainer's train() returned" "false none" \
	"TrainOutput(global_step=375, training_loss=1.0557, metrics={'train_runtime': 384.55, 'epoch': 3.0})"
check "the same name not as its value" "null not_determined" \
	"TrainOutput(global_step=step, training_loss=loss)  # built by hand"
check "whisper.cpp's total time as it exits" "false none" \
	'whisper_print_timings:   encode time =   632.05 ms /     1 runs (  632.05 ms per run)' \
	'whisper_print_timings:    total time =  2854.32 ms'
check "whisper.cpp's encode time alone" "null not_determined" \
	'whisper_print_timings:   encode time =   632.05 ms /     1 runs (  632.05 ms per run)'
check "an evaluation's summary table" "false none" \
	'dataset                 version  metric   mode  vllm_api_general_chat' \
	'----------------------- -------- -------- ----- ----------------------' \
	'demo_gsm8k              401e4c   accuracy gen                   62.50'
check "a table of datasets without the evaluation's columns" "null not_determined" \
	'dataset                 version  metric   size' \
	'demo_gsm8k              401e4c   accuracy 1319'
check "vLLM's example once generate() returned" "false none" \
	"Prompt: 'Hello, my name is', Generated text: ' Lucy and I am an 8 year old'"
check "a prompt echoed before generating" "null not_determined" \
	"Prompt: 'Hello, my name is', max tokens: 16"
# the runtime's notify wait call that failed on a wait that ran out
# (api_impl.cc) is a notify wait that timed out; with another code it
# returned
nwait() { printf '[ERROR] RUNTIME(255,python):2026-07-28-04:23:42.000.000 [api_impl.cc:4604]255 NotifyWait:Notify wait failed, notify_id=33013, time_out = 1836s, retCode=%s.\n' "$1"; }
check "a notify wait call that ran out" "true unknown" "$(nwait 0x7150059)"
check "the same call with an invalid value" "false not_a_hang" "$(nwait 0x7110001)"
# the core's "timeout or trap error" is a trap where the runtime names the
# task's code an exception of the core, and a timeout where it names one
trapped() { printf '%s\n' \
	'[ERROR] RUNTIME(155320,python3):2025-05-08-09:56:18.526.855 [device_error_proc.cc:1647]155320 ProcessStarsCoreErrorInfo:[INIT][DEFAULT]The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0x0' \
	"[ERROR] RUNTIME(155320,python3):2025-05-08-09:56:18.527.376 [davinci_kernel_task.cc:1470]155320 PreCheckTaskErr:[INIT][DEFAULT]Kernel task happen error, retCode=$1."; }
check "'timeout or trap' with a vector core exception's code" "false not_a_hang" "$(trapped '0x31, [vector core exception]')"
check "'timeout or trap' with an AI Core timeout's code" "true device_timeout" "$(trapped '0x25, [aicore timeout]')"
# the task scheduler's HWTS interrupt of an AI Core: a device exception;
# its register dump alone is not
check "the task scheduler's 'hwts aic exception'" "false not_a_hang" \
	'[ERROR] TSCH(-1,null):2020-09-09-15:22:37.884.851 9693 (cpuid:0) hwts_plat.c:1059 int_process_hwts_aic_exception: hwts aic exception, bitmap=0x20000000' \
	'<exception_print>HWS_REG_GLB_CTRL0=0xff1f0037012a'
check "the same scheduler's line of another interrupt" "null other" \
	'[ERROR] TSCH(-1,null):2020-09-09-15:22:37.884.851 9693 (cpuid:0) hwts_plat.c:1059 int_process_hwts_sq_error: hwts sq error, bitmap=0x20000000' \
	'<exception_print>HWS_REG_GLB_CTRL0=0xff1f0037012a'
# the ACL samples' last line as they release the device (msame,
# ais_bench, msit benchmark print it too) and ATC's success end a run; the
# line before the last is no end
check "an ACL sample's last line" "false none" \
	'[INFO] unload model success, model Id is 1' '[INFO] Execute sample success' \
	'[INFO] end to destroy context' '[INFO] end to reset device is 0' '    [INFO]  end to finalize acl'
check "the same without its last line" "null not_determined" \
	'[INFO] unload model success, model Id is 1' '[INFO] end to destroy context' '[INFO] end to reset device is 0'
check "ATC's success" "false none" 'ATC start working now, please wait for a moment.' \
	'ATC run success, welcome to the next use.' \
	'W11001: Op [Slice_29] does not hit the high-priority operator information library, which might result in compromised performance.'
check "ATC's start alone" "null not_determined" 'ATC start working now, please wait for a moment.'
# the vendor's runtime and HCCL samples as they end; a sample that failed
# its check, and a success of one step, are no end
check "a runtime sample's check as it ends" "false none" \
	'[INFO]  Producer: finished successfully.' '[SUCCESS] IPC event multi-device synchronization works correctly.'
check "the same through INFO_LOG" "false none" '[INFO]  [SUCCESS] Context query sample completed successfully'
check "a runtime sample's last line" "false none" '  result[7] = 12.0 (expected: 12.0)' 'Sample run successfully!'
check "a sample named as it ends" "false none" 'Run the simple_queue sample successfully.'
check "HCCL's example" "false none" '[INFO] HcclAllGatherCustom completed and synchronized' '[INFO] Test Passed!'
check "a sample that failed its check" "null other" 'Sample run failed: vector addition result mismatched!'
check "a step of a sample" "null not_determined" 'Synchronize stream successfully' '[INFO] Test Passed! rank 3 of 8'
check "a summary's count of failures that is zero" "null not_determined" "Failed requests:                         0"
check "the same count at 3" "null other" "Failed requests:                         3"
check "an exception whose text ends in ': 0'" "false not_a_hang" "RuntimeError: failed to open the device: 0"
# "timeout" as a word on the line right under an error line is a wait
# that ran out; above it, with no error before, it is not
check "a scheduler's timeout under its runtime's failure" "true unknown" \
	'PTO2 runtime failed: orch_error_code=0 sched_error_code=100 runtime_status=-100' \
	'PTO2 scheduler timeout sub_class=S1:running-stalled (detail=1)'
check "the same two lines the other way round" "null other" \
	'PTO2 scheduler timeout sub_class=S1:running-stalled (detail=1)' \
	'PTO2 runtime failed: orch_error_code=0 sched_error_code=100 runtime_status=-100'
# c10's failed internal assert (TORCH_INTERNAL_ASSERT, torch_npu's too)
# raises at once: under vLLM's engine that failed to start, a failure
# that is not a hang; without c10's words, not determined
eng() { printf '%s\n' 'ERROR 08-02 05:46:18 [core.py:586] EngineCore failed to start.' \
	'ERROR 08-02 05:46:18 [core.py:586] Traceback (most recent call last):' \
	"ERROR 08-02 05:46:18 [core.py:586] RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE$1 \"build/CMakeFiles/torch_npu.dir/compiler_depend.ts\":162$2."; }
check "c10's INTERNAL ASSERT FAILED" "false not_a_hang" "$(eng ' INTERNAL ASSERT FAILED at' ', please report a bug to PyTorch')"
check "the same exception without c10's words" "null other" "$(eng ' at' '')"
# aclnn's "<op> do tiling failed" (nnopbase) under an error-manager
# block's trace: the operator rejected its inputs, at once
check "an operator's tiling failed" "false not_a_hang" \
	'(Worker_TP0 pid=85) ERROR 03-11 08:33:36 [multiproc_executor.py:863]         TraceBack (most recent call last):' \
	'(Worker_TP0 pid=85) ERROR 03-11 08:33:36 [multiproc_executor.py:863]        MoeGatingTopK do tiling failed, ret is -1.' \
	'(EngineCore_DP0 pid=73) ERROR 03-11 08:33:36 [core.py:1006] EngineCore failed to start.'
check "the same without the tiling line" "null other" \
	'(Worker_TP0 pid=85) ERROR 03-11 08:33:36 [multiproc_executor.py:863]         TraceBack (most recent call last):' \
	'(EngineCore_DP0 pid=73) ERROR 03-11 08:33:36 [core.py:1006] EngineCore failed to start.'
# a failure whose hang is not determined, printed after minutes in which
# the log printed nothing: a wait that ran out (inferred); the same one
# second after the line before, or days after it (two runs pasted one
# after the other), is not
silent() { printf '%s\n' "INFO $1 [__init__.py:212] Platform plugin ascend is activated" "(EngineCore_DP1 pid=7) INFO $2 [core.py:1090] Shutting down." "(EngineCore_DP1 pid=7) ERROR $2 [core.py:1100] EngineCore failed to start."; }
check "an engine that failed to start after 5 minutes of silence" "true unknown" "$(silent '05-19 14:27:19' '05-19 14:32:24')"
check "the same one second after the line before" "null other" "$(silent '05-19 14:27:19' '05-19 14:27:20')"
check "the same days after the line before" "null other" "$(silent '05-16 14:27:19' '05-19 14:32:24')"
# two files pasted as tail prints them: each has a clock of its own, so
# the gap between the first file's last line and the second's first is
# no silence; within the second file it is
tails() { printf '%s\n' "==> a/worker0.log <==" "INFO 05-19 14:27:19 [__init__.py:212] Platform plugin ascend is activated" "==> a/worker1.log <==" "(EngineCore_DP1 pid=7) INFO $1 [core.py:1090] Shutting down." "(EngineCore_DP1 pid=7) ERROR $2 [core.py:1100] EngineCore failed to start."; }
check "a failure in the next file tail printed, minutes after the file before" "null other" "$(tails '05-19 14:32:24' '05-19 14:32:24')"
check "the same failure minutes after its own file's line before" "true unknown" "$(tails '05-19 14:27:19' '05-19 14:32:24')"
# grep's output: the silence between two lines grep printed with no line
# of the file between them (numbers that advance with the paste's lines,
# an empty line not read as grep's among them) is the log's; across a
# gap in the numbers, filtered lines may fill it
grepped() { silent '05-19 14:27:19' '05-19 14:32:24' | awk -v a="$1" -v b="$2" -v c="$3" '{ n = NR == 1 ? a : NR == 2 ? b : c; print "logs/engine.log:" n ":" $0 }'; }
check "grep's lines 40-42 of a file, minutes between 40 and 41" "true unknown" "$(grepped 40 41 42)"
check "grep's lines 40, 97, 98: lines filtered out between" "null other" "$(grepped 40 97 98)"
check "grep's lines 40, 42 around an empty line" "true unknown" "$(printf '%s\n' "$(grepped 40 42 43 | sed -n 1p)" 'logs/engine.log:41:' "$(grepped 40 42 43 | sed -n '2,3p')")"
printf '%s\n' "$(silent '05-19 14:27:19' '05-19 14:32:24')" > "$T/silent.log"
t_ok "the silence is said, with its assumption" \
	sh -c "'$HANGDX' diagnose '$T/silent.log' | tr '\n' ' ' | grep -q 'printed nothing for 305 s.*It assumes that the 305 s'"
t_ok "the silence goes through facts: the same answer from them" \
	sh -c "'$HANGDX' facts -o '$T/silent.facts' '$T/silent.log' 2>/dev/null &&
	       test \"\$('$HANGDX' diagnose --json --facts '$T/silent.facts' | grep -c '\"category\": \"unknown\"')\" = 1"
# llama.cpp's timings as its program exits end the run; its other
# timing lines do not
check "llama.cpp's total time as it exits" "false none" \
	"llama_perf_context_print:       total time =  231911.05 ms /   413 tokens"
check "llama.cpp's older total time" "false none" \
	"llama_print_timings:       total time =  5211.06 ms"
check "llama.cpp's eval time alone" "null not_determined" \
	"llama_perf_context_print:        eval time =  230735.63 ms /   399 runs   (  578.28 ms per token,     1.73 tokens per second)"
# an AICPU kernel's exception whose errcode no table has (the runtime then
# prints its default "aicpu execute failed"; the vendor's guides show such
# lines as an operator's exception and as one that ran past its execution
# timeout): a failure whose hang is not determined; a code the tables
# name as a parameter error: a failure at once
aicpu_exc() { printf '%s\n' "[ERROR] RUNTIME(16243,msame):2022-09-22-11:27:01.791.865 [engine.cc:1103]16282 ReportExceptProc:Task exception! device_id=0, stream_id=7, task_id=2, type=1, retCode=0x2a, [aicpu exception]." "[ERROR] RUNTIME(16243,msame):2022-09-22-11:27:01.793.498 [device_error_proc.cc:669]16282 ProcessAicpuErrorInfo:An exception occurred during AICPU execution, stream_id:7, task_id:2, errcode:$1, msg:$2."; }
check "an AICPU exception of an errcode no table has" "null other" "$(aicpu_exc 5 'aicpu execute failed')"
check "an AICPU exception of a parameter errcode" "false not_a_hang" "$(aicpu_exc 1 'execute kernel param invalid')"
# C++'s terminate on a line of its own (no anchor word in it) ends its
# process; a line that only starts with the word does not
check "C++'s terminate on an exception" "false not_a_hang" \
	"terminate called after throwing an instance of 'gloo::EnforceNotMet'"
check "a line that only starts with the word" "null not_determined" \
	"terminate callbacks registered: 3"
# an AICPU operator's timeout (E30008) with the kernel the runtime names as
# failed under it: its stream and task are the ids
printf '%s\n' "E30008: AI CPU operator execution time out." \
	"TraceBack (most recent call last):" \
	"Aicpu kernel execute failed, device_id=0, stream_id=2, task_id=7, fault op_name=aicpu_getnext_IteratorGetNext[FUNC:GetError][FILE:stream.cc][LINE:1133]" > "$T/e3.log"
t_ok "E30008 with its failed kernel: stream 2, task 7" sh -c "
	'$HANGDX' diagnose --json '$T/e3.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); i=d[\"ids\"]; assert d[\"category\"] == \"aicpu_op_timeout\" and i[\"stream\"] == 2 and i[\"task\"] == 7, i'"
# MindIE's codes (vocab/mindie.tsv): the Server's by the error type in the
# last two hex digits, named with the line's own code; a warning's code is
# no failure, and the line is then an error line no table knows
printf '%s\n' "[2025-12-05 13:26:00.197+08:00] [7887] [7889] [server] [ERROR] [endpoint.cpp:37] : [MIE04E02011C] [endpoint] Failed to init infer backend manager" > "$T/mie.log"
sed 's/MIE04E02011C/MIE04W02011C/' "$T/mie.log" > "$T/miew.log"
t_ok "a MindIE Server code named by its error type, its hang not determined" sh -c "
	'$HANGDX' diagnose --json '$T/mie.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"hang\"] is None and \"MindIE Server: initialisation failed (MIE04E02011C INIT_ERROR)\" in d[\"summary\"], d[\"summary\"]'"
printf '%s\n' "[server] [ERROR] : [MIE04W02011C] a warning, then [MIE04E02011C] [endpoint] Failed to init" > "$T/mie2.log"
t_ok "a MindIE warning of the same type before the error code: the error code named" sh -c "
	'$HANGDX' diagnose --json '$T/mie2.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert \"(MIE04E02011C INIT_ERROR)\" in d[\"summary\"], d[\"summary\"]'"
t_ok "the same code at warning level: an error line no table knows" sh -c "
	'$HANGDX' diagnose --json '$T/miew.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"hang\"] is None and \"does not know\" in d[\"summary\"], d[\"summary\"]'"
# a logger's own message at ERROR (vLLM's "ERROR mm-dd hh:mm:ss [file:N]"
# prefix, in a worker's envelope or not) that no table knows is an error
# line, quoted; a traceback's link lines between two tracebacks are not;
# a line at INFO under the same prefix is no error
check "vLLM's logger at ERROR, a message no table knows" "null other" \
	"ERROR 05-12 11:36:01 [core_client.py:704] Engine core proc EngineCore died unexpectedly, shutting down client."
check "the same in a worker's envelope" "null other" \
	"(EngineCore_DP0 pid=1) ERROR 05-12 11:36:01 [core_client.py:704] Engine core proc EngineCore died unexpectedly, shutting down client."
check "the same at INFO" "null not_determined" \
	"INFO 05-12 11:36:01 [core_client.py:704] Engine core proc EngineCore died unexpectedly, shutting down client."
printf '%s\n' "ERROR 05-12 11:36:01 [core.py:708] EngineCore failed to start." \
	"ERROR 05-12 11:36:01 [core.py:708] Traceback (most recent call last):" \
	"ERROR 05-12 11:36:01 [core.py:708]   File \"/x/core.py\", line 699, in run_engine_core" \
	"ERROR 05-12 11:36:01 [core.py:708]     engine_core = EngineCoreProc(*args, **kwargs)" \
	"ERROR 05-12 11:36:01 [core.py:708] The above exception was the direct cause of the following exception:" \
	"ERROR 05-12 11:36:01 [core.py:708] ValueError: bad value" > "$T/link.log"
t_ok "a traceback under vLLM's ERROR prefix: its frames, code and link are no error lines, its exception decides" sh -c "
	'$HANGDX' diagnose --json '$T/link.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"hang\"] is False and \"ValueError\" in d[\"summary\"], d[\"summary\"]'"
printf '%s\n' "SystemExit: 1" "" "During handling of the above exception, another exception occurred:" "" \
	"Traceback (most recent call last):" > "$T/link2.log"
t_ok "Python's link between two tracebacks is not quoted as an error line" sh -c "
	! '$HANGDX' diagnose '$T/link2.log' | tr '\n' ' ' | tr -s ' ' | grep -q 'During handling'"
# PyTorch's own check that an operator's tensors share a device
# (adaption.cpp), inside load_state_dict's report of a parameter it could
# not copy: named, a parameter fault, no hang
printf '%s\n' "	While copying the parameter named \"w\", whose dimensions in the model are torch.Size([8]) and whose dimensions in the checkpoint are torch.Size([8]), an exception occurred : ('Expected all tensors to be on the same device, but found at least two devices, npu:1 and npu:0! (when checking argument for argument src in method wrapper__npu_dtype_cast_)',)." > "$T/dev.log"
t_ok "tensors on two devices: named, a parameter fault, no hang" sh -c "
	'$HANGDX' diagnose --json '$T/dev.log' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"hang\"] is False and \"tensors on two different devices\" in d[\"summary\"], d[\"summary\"]'"
# HCCL's lines as its source prints them (tests/data/formats.tsv holds the
# timeouts one by one, t24): a line a family keeps as a fact is read by
# the open world too when its level is ERROR (an environment variable
# refused, a set-up step, op retry's failure, a task report whose type is
# a number, a CQE line without its status), the same at INFO is no
# failure; a line that says it can be ignored is none; a code that says
# only that a call failed gives way to the runtime's code after it, and a
# catch-all code to the line's words that its wait ran out
HE='[ERROR] HCCL(40125,python):2025-03-01-10:00:01.123.456 [x.cc:12] [40130]'
HI='[INFO] HCCL(40125,python):2025-03-01-10:00:01.123.456 [x.cc:12] [40130]'
check "HCCL: an environment variable refused at ERROR" "false not_a_hang" \
	"${HE}[Parse][HcclSocketFamily]environmental variable HCCL_SOCKET_FAMILY[AF_X] is invalid. it should be \"AF_INET\" or \"AF_INET6\"."
check "the same at INFO" "null not_determined" \
	"${HI}[Parse][HcclSocketFamily]environmental variable HCCL_SOCKET_FAMILY[AF_X] is invalid. it should be \"AF_INET\" or \"AF_INET6\"."
check "HCCL: a setting it calls incorrect at ERROR" "false not_a_hang" \
	"${HE}HCCL_DETERMINISTIC is set to [3], which is incorrect. Please check"
check "HCCL: a set-up step that failed at ERROR" "null other" \
	"${HE}[group_1] RankInfoDetect SetupAgent fail, identifier[group_1]."
check "the same at INFO" "null not_determined" \
	"${HI}[group_1] RankInfoDetect SetupAgent fail, identifier[group_1]."
check "HCCL: op retry's own failure at ERROR" "null other" \
	"${HE}[OpRetry][Server]OpRetryServerWaitResp fail, state[RUNNING] is not in RETRY_SERVER_STATE_TRANSFER_LABEL"
check "HCCL: an error line that says it can be ignored" "null not_determined" \
	"${HE}[OpRetryConnection][Init] Client reconnect 2 times to success, so the above or this error log can be ignored"
check "HCCL: a task's report whose type is a number" "null other" \
	"${HE}[TaskException][AICPU]base information is streamID(sqId):[4], taskID(sqeId):[12], taskType:[7], sqHead:3, sqTail:4"
check "HCCL: a CQE line without its status" "null other" \
	"${HE}[hrtRaGetCqeErrInfo]Get Cqe err info failed"
check "HCCL_E_RUNTIME, then the runtime's timeout code" "true other" \
	"${HE}[Synchronize][Stream]errNo[0x000000000500000f] rt streamsynchronizewithtimeout fail. return[507046]."
check "HCCL_E_INTERNAL, then the runtime's timeout code" "true other" \
	"${HE}[Synchronize][Stream]errNo[0x0000000005000004] rt stream synchronize fail. return[507046]."
check "HCCL_E_RUNTIME, then a code no table has" "null other" \
	"${HE}[Synchronize][Stream]errNo[0x000000000500000f] rt streamsynchronizewithtimeout fail. return[1836]."
check "HCCL_E_INTERNAL on a line that says its wait ran out" "true unknown" \
	"${HE}[HcclCallbackTask][CallbackRegStream]errNo[0x0000000005000004] waiting Callback Thread time out"
check "HCCL_E_INTERNAL on a line that says it failed" "false not_a_hang" \
	"${HE}[HcclCallbackTask][CallbackRegStream]errNo[0x0000000005000004] waiting Callback Thread failed"
check "HCCL's AICPU kernel's own timeout at ERROR" "true unknown" \
	"${HE}[HcclCommAicpu]KFC timeout.. group[grp1]."
check "the same as a warning (retry's ErrToWarn)" "null not_determined" \
	"[WARNING] HCCL(40125,python):2025-03-01-10:00:01.123.456 [x.cc:12] [40130]ErrToWarn: [HcclCommAicpu]KFC timeout.. group[grp1]."
check "HCCL: op retry's wait that ran out at ERROR" "true unknown" \
	"${HE}[OpRetry]WaitCommand timeout"
check "the same at INFO" "null not_determined" \
	"${HI}[OpRetry]WaitCommand timeout"
check "HCCL spells it timeOut" "true unknown" \
	"${HE}Wait Cqe timeOut[12] s, State[3]"
check "the driver: a key of a call's argument list" "null other" \
	"[ERROR] DRV(40125,python):2025-03-01-10:00:01.123.456 [queue] [queue_get_pids] que ctx get pids fail. (ret=-1; devid=0; sub_event=3; timeout_ms=3000ms)"
check "HCCL: the wait's value glued after its words" "true unknown" \
	"${HE}[Connect][Qp]get qp status timeout_=[5 s], qp_status=[1]"
check "the driver: a message that starts with a C name's underscores" "null other" \
	"[ERROR] DRV(40125,python):2025-03-01-10:00:01.123.456 [dmp] [__dm_hdc_recv] __dm_session_recv_proc failed. (ret=-1)"
check "HCCL: a table's border of underscores" "null not_determined" \
	"${HE}   _________________________LINK_ERROR_INFO___________________________"
check "a timeout value refused" "null other" \
	"${HE}[HCCN][HccnRpingAddTargetWithCfg] timeout [4 ms], need to be in the range 1 to 3600000"
check "a name glued to the word (timeOutEnv)" "false not_a_hang" \
	"${HE}[Parse][LinkConnTimeOut]environmental variable HCCL_CONNECT_TIMEOUT error, errNo[0x0000000005000001]timeOutEnv[99s] timeRange[120s,7200s]"
# torch_npu's watchdog (ProcessGroupHCCL.cpp): no heartbeat of the
# watchdog is a wait that ran out; the dump signal another rank set names a
# failure or timeout of that rank, never "no hang", though its words read
# as an argument refused ("Invalid size ..."); a setter the library lacks is
# no wait
TP="[rank3]:[E623 17:20:44.503368705 ProcessGroupHCCL.cpp:1780] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
check "torch_npu: no heartbeat of the watchdog" "true unknown" \
	"${TP}First PG on this rank that detected no heartbeat of its watchdog."
check "torch_npu: a dump signal from rank 5" "null other" \
	"${TP}Received a global dump signal from rank 5, and will start to dump the debug info. Last enqueued HCCL work: 12, last completed HCCL work: 11."
check "torch_npu: the timeout rank's id unread" "null other" \
	"torch.distributed.DistBackendError: Invalid size for the timeout rank ID"
check "its twin: another size refused" "false not_a_hang" \
	"torch.distributed.DistBackendError: Invalid size for the split rank ID"
check "torch_npu: a timeout's setter the library lacks" "false not_a_hang" \
	"RuntimeError: Failed to find function aclrtSetOpWaitTimeout"
check "its twin: a wait that timed out" "true unknown" \
	"RuntimeError: aclrtSynchronizeStreamWithTimeout: wait timeout after 1800 s"
# a c10 error line whose message starts with a 'p' or an 's' once its
# head is cut is no line of a stream dump ("pos=39: ...", "stream_id=3,
# ... head=47, tail=49"); a warning's advice "to avoid this error" is no
# error, an error line beside it is
check "a c10 error line that starts with a 'p'" "null other" \
	"[rank3]:[E623 10:00:01.123456789 ParallelStoreProxy.cpp:75] proxy write buf data failed. fd: 12host:10.0.0.2port:29500ret:-1"
check "one that starts with an 's' and names a head and a tail" "null other" \
	"[E623 10:00:01.123456789 X.cpp:75] stream 3 wait failed head=1 tail=2"
check "advice to avoid an error" "null not_determined" \
	"(RayWorkerWrapper pid=30548)  please set DICP_USE_TORCH_NPU_LAUNCHER=0 to avoid this error [repeated 224x across cluster]"
check "its twin: the error" "null other" \
	"(RayWorkerWrapper pid=30548)  DICP launcher failed with this error [repeated 224x across cluster]"
# a timeout's key with a name after its '_' is a setting named
# ("timeout_ms=4", HIXL), HCCL's "timeout_=[5 s]" above a wait; GE's
# "Timeout value:%d is incorrect." a setting refused
GH="[ERROR] GE(40125,python):2025-03-01-10:00:01.123.456 [hixl.cc:103]40130 "
check "a key named timeout_ms" "null other" \
	"${GH}[HIXL] 40130 Submit: ErrorNo: 255 [FabricMem][AICPU] cannot start RTSQ submit deadline. timeout_ms=4"
check "a timeout value refused as incorrect" "null other" \
	"${GH}Execute: ErrorNo: 4294967295(failed) [EXEC][DEFAULT]Timeout value:4 is incorrect."
check "its twin: a wait that ran out beside the value" "true unknown" \
	"${GH}Execute: ErrorNo: 4294967295(failed) [EXEC][DEFAULT]Wait response timeout, wait time = 4 s"
# a check named for deadlocks is no deadlock declared (a compile stage's
# failure); one it found is
check "GE's deadlock check that did not converge" "false not_a_hang" \
	"${GH}Optimize: ErrorNo: 4294967295(failed) [COMP][DEFAULT]deadlock check did not converge after 64 iterations"
check "its twin: a deadlock found" "true unknown" \
	"${GH}Execute: ErrorNo: 4294967295(failed) [EXEC][DEFAULT]deadlock found between streams 3 and 5"
# a coded failure is told in the line's own words when the line is the
# row's template filled in (the values the user needs); a quote the record
# cut (160 bytes) loses its last word, which may be part of a number
printf '%s\n' "EI0005: 2024-04-24-06:32:27.781.599 The arguments for collective communication are inconsistent between ranks:parameter count, local end 16512, remote end 8320" > "$T/ei5.log"
t_ok "EI0005: the report quotes the counts of both ends" \
	sh -c "'$HANGDX' --lang en diagnose --json '$T/ei5.log' | grep -q 'ranks:parameter count, local end 16512, remote end 8320 (EI0005'"
printf '%s\n' "EI0005: 2024-04-24-06:32:27.781.599 The arguments for collective communication are inconsistent between ranks:tag[HcomAllReduce_6629421139219749105_0], parameter[count], local[16512], remote [83200]" > "$T/ei5cut.log"
t_ok "EI0005 cut at 160 bytes: its last word left out, the cut said" \
	sh -c "'$HANGDX' --lang en diagnose --json '$T/ei5cut.log' > '$T/ei5cut.json' &&
	       grep -q 'local\\[16512\\], remote \\.\\.\\. (EI0005' '$T/ei5cut.json' && ! grep -q '\\[8320' '$T/ei5cut.json'"
printf '%s\n' "EI0005: 2024-04-24-06:32:27.781.599 The arguments differ between ranks" > "$T/ei5de.log"
t_ok "EI0005 in words not its template's past the first 14: the table's meaning" \
	sh -c "'$HANGDX' --lang en diagnose --json '$T/ei5de.log' | grep -q 'between ranks, operator \\.\\.\\., group'"
# the ids a deciding line lacks, from the lines around it when they agree
# (stream 2 two lines above "runtime result = 107027"); two streams named
# around it: none (an id is never guessed); msaicerr's report: the task and
# stream of its "1. Basic information"
cap() {
	printf '%s\n' "EE9999: Inner Error!" \
		"EE9999: [PID: 881460] 2025-10-15-14:43:16.351.702 Not allow to synchronize captured stream stream_id=2.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:884]" \
		"$1" \
		"rtStreamSynchronize execute failed,  reason=[stream is captured][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]" \
		"synchronize stream failed, runtime result = 107027[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]"
}
cap "TraceBack (most recent call last):" > "$T/cap.log"
cap "EE9999: [PID: 881460] 2025-10-15-14:43:16.351.703 Not allow to synchronize captured stream stream_id=3.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:884]" > "$T/cap2.log"
t_ok "107027 under a line naming stream 2: stream 2 in the ids" \
	sh -c "'$HANGDX' diagnose --json '$T/cap.log' | grep -q '\"ids\": {\"kind\": \"rt_api_error\", \"stream\": 2, \"error_code\": \"107027\"'"
t_ok "... under lines naming streams 2 and 3: no stream" \
	sh -c "'$HANGDX' diagnose --json '$T/cap2.log' | grep -q '\"ids\": {\"kind\": \"rt_api_error\", \"error_code\": \"107027\"'"
printf '%s\n' "***********************1. Basic information********************" \
	"error time   : 2023-06-09-06:55:34.798.772" "device id    : 0" "core id      : 0" \
	"task id      : 6" "stream id    : 7" "node name    : GatherV2" \
	"***********************2. Ai Core DFX Register***********************" \
	"error code  : 0x10" > "$T/aicerr.log"
{ printf '%s\n' "[INFO] a log line before the paste"; tail -n 2 "$T/aicerr.log"; } > "$T/aicerr2.log"
t_ok "msaicerr's report pasted from its error code's heading: no task or stream" \
	sh -c "'$HANGDX' diagnose --json '$T/aicerr2.log' | grep -q '\"ids\": {\"kind\": \"coded\"}'"
cat "$T/aicerr.log" "$T/aicerr2.log" > "$T/aicerr3.log"
t_ok "... after a whole report in the same file: not the first report's" \
	sh -c "'$HANGDX' parse '$T/aicerr3.log' | grep -c 'stream_id=7, task_id=6' | grep -qx 1"
t_ok "msaicerr's report: its task and stream in the ids" \
	sh -c "'$HANGDX' diagnose --json '$T/aicerr.log' | grep -q '\"ids\": {\"kind\": \"coded\", \"stream\": 7, \"task\": 6}'"
# HCCL's failed task as a web page wraps it: the head, its stage tags and
# "Task run failed, base information is streamID:[..]" on lines of their
# own; the last is HCCL's (not a reporter's sentence before a log line)
printf '%s\n' "[ERROR] HCCL(858209,all_reduce_test):2025-12-10-19:52:32.589.097 [task_exception_handler.cc:27] [858274]" \
	"[TaskExecStage][Timeout][HOST]" \
	"Task run failed, base information is streamID:[1740], taskID[23], tag[AllReduce_127.0.0.1%enp_60000_0_1765367469951573], AlgType(level 0-1-2):[fullmesh-ring-NHR]." > "$T/wrap.log"
t_ok "HCCL's failed task wrapped under its head: its stream and task" \
	sh -c "'$HANGDX' diagnose --json '$T/wrap.log' | grep -q '\"ids\": {\"kind\": \"hccl_task_fail\", \"stream\": 1740, \"task\": 23}'"
# an FFTS+ timeout's notify: the one its stuck notify waits name; two
# different ones: none
ffts() {
	printf '%s\n' "EI9999: Inner Error!" \
		"EI9999  The error from device(chipId:5, dieId:0), serial number is 3, hccl fftsplus task timeout occurred during task execution, stream_id:7, sq_id:7, task_id:5990, stuck notify num:$1, timeout:1836.[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1380]" \
		"        TraceBack (most recent call last):" \
		"        The 0 stuck notify wait context info:(context_id=10, notify_id=136).[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1395]"
	[ "$1" = 1 ] || printf '%s\n' "        The 1 stuck notify wait context info:(context_id=11, notify_id=137).[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1395]"
}
ffts 1 > "$T/ffts1.log"
ffts 2 > "$T/ffts2.log"
t_ok "FFTS+ timeout, one stuck notify wait: its notify in the ids" \
	sh -c "'$HANGDX' diagnose --json '$T/ffts1.log' | grep '\"ids\"' | grep -q '\"stream\": 7, \"task\": 5990, \"notify\": 136,'"
t_ok "... two that name different notifies: no notify" \
	sh -c "'$HANGDX' diagnose --json '$T/ffts2.log' | grep '\"ids\"' > '$T/ffts2.ids' && grep -q '\"task\": 5990' '$T/ffts2.ids' && ! grep -q '\"notify\":' '$T/ffts2.ids'"
# the peer a connect-timeout report names three lines under its head
H="[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.226"
printf '%s\n' "$H [detect_connect_anomalies.cc:126] [86231]-------------------CONNECT TIMEOUT DETECT RESULT-----------------------" \
	"$H [detect_connect_anomalies.cc:140] [86231]No abnormal periods were discovered. please prioritize investigating the consistency of cluster script behaviors." \
	"$H [detect_connect_anomalies.cc:143] [86231]----------------------------------------------------------------------" \
	"$H [transport_manager.cc:954] [86231][InitChannelStage][RunFailed]Transport init error! createLink para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], linkMode[1], isUsedRdma[1], tag[AllGather_group_name_119]" > "$T/cdetect.log"
t_ok "a connect-timeout report: the remote rank the line under it names" \
	sh -c "'$HANGDX' diagnose --json '$T/cdetect.log' | grep '\"ids\"' | grep -q '\"remote_rank\": 15'"
# a stream synchronisation that timed out, the runtime's line beside it
# naming the task it stopped at and its notify: said a notify wait
printf '%s\n' "[ERROR] RUNTIME stream.cc:1878         SynchronizeExecutedTask: Stream synchronize timeout, device_id=6, stream_id=130, timeout=10000ms." \
	"[ERROR] RUNTIME stream.cc:1944         SynchronizeImpl: failed, stream_id=130, error=0x7030010" \
	"[ERROR] RUNTIME device_error_proc.cc:1090  stream_id=130, task_id=5279, taskType=14 (NOTIFY_WAIT), NotifyId=509." > "$T/sync.log"
head -n 2 "$T/sync.log" > "$T/sync2.log"
t_ok "stream sync timeout beside its notify-wait task: said, the ids in a note" \
	sh -c "'$HANGDX' --lang en diagnose --json '$T/sync.log' > '$T/sync.json'; grep -q 'the task the stream stopped at waits on a notify' '$T/sync.json' && grep -q 'names task 5279 of stream 130 and notify 509' '$T/sync.json'"
t_ok "... without that line: what it waited for not shown" \
	sh -c "'$HANGDX' --lang en diagnose --json '$T/sync2.log' | grep -q 'the text does not show what the stream waited for'"
# a rank's failure that no rule decides is a failure all the same: torch_npu's
# report of a process that ended on an uncaught exception (ERR99999, its
# _error_code.py's UNKNOWN sub-module and EXCEPT code) and its internal error
# (ERR00005), alone, are "failed, hang not determined", never "no failure";
# the twin: the exception it ended on, a value refused, no hang
check "torch_npu: ERR99999 alone" "null other" \
	"[ERROR] 2026-05-20-15:04:33 (PID:1830, Device:7, RankID:-1) ERR99999 UNKNOWN applicaiton exception"
check "torch_npu: ERR00005 alone" "null other" \
	"[ERROR] 2026-05-20-15:04:33 (PID:1830, Device:7, RankID:-1) ERR00005 PTA internal error"
check "its twin: ERR99999 under the exception it ended on" "false not_a_hang" \
	"Traceback (most recent call last):" '  File "x.py", line 3, in <module>' "    main()" "ValueError: bad thing" \
	"[ERROR] 2026-05-20-15:04:33 (PID:1830, Device:7, RankID:-1) ERR99999 UNKNOWN applicaiton exception"
t_done
