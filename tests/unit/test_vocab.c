/*
 * test_vocab.c - the vendor's vocabulary (src/ingest/vocab.c and the
 * tables generated from vocab/): the tables' order and shape, lookups of
 * known codes and misses, the scanner on real line shapes (from
 * ../shared/samples), at every offset of a long line, with several codes
 * and with too many, every row of every table found in its own context,
 * and the SSE2 and portable block masks against each other.
 */
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"

static const struct hx_vocab *code(enum hx_vocab_family f, const char *key)
{
	return hx_vocab_code(f, key, strlen(key));
}

/* the row of key has class cls and vendor name name */
static void assert_row(enum hx_vocab_family f, const char *key,
		       enum hx_vocab_class cls, const char *name)
{
	const struct hx_vocab *r = code(f, key);

	if (!r)
		fail_msg("no row for %s in %s", key, hx_vocab_family_id(f));
	assert_string_equal(r->name, name);
	assert_string_equal(hx_vocab_class_id(r->cls), hx_vocab_class_id(cls));
	assert_int_equal(r->family, f);
}

static size_t scan(const char *line, struct hx_vocab_hit *h, size_t max)
{
	return hx_vocab_scan(line, strlen(line), h, max);
}

/* line has exactly one mention: key of family f at off, as how */
static void assert_one(const char *line, enum hx_vocab_family f,
		       const char *key, size_t off, enum hx_vocab_how how)
{
	struct hx_vocab_hit h[8];
	size_t n = scan(line, h, 8);

	if (n != 1)
		fail_msg("%zu mentions, want 1 (%s) in: %s", n, key, line);
	assert_int_equal(h[0].row->family, f);
	assert_string_equal(h[0].row->key, key);
	assert_int_equal(h[0].off, off);
	assert_int_equal(h[0].how, how);
}

static void assert_none(const char *line)
{
	struct hx_vocab_hit h[8];
	size_t n = scan(line, h, 8);

	if (n)
		fail_msg("%zu mentions, want none (first %s at %zu) in: %s", n,
			 h[0].row->key, h[0].off, line);
}

/* the row of line's first mention */
static const struct hx_vocab *scan1(const char *line)
{
	struct hx_vocab_hit h[8];

	assert_true(scan(line, h, 8) >= 1);
	return h[0].row;
}

static size_t at(const char *line, const char *sub)
{
	const char *p = strstr(line, sub);

	if (!p)
		fail_msg("'%s' not in: %s", sub, line);
	return (size_t)(p - line);
}

/* ---- the tables ---- */

static int key_cmp(const struct hx_vocab *a, const struct hx_vocab *b)
{
	size_t n = a->keylen < b->keylen ? a->keylen : b->keylen;
	int d = memcmp(a->key, b->key, n);

	return d ? d : (a->keylen > b->keylen) - (a->keylen < b->keylen);
}

static void test_tables_sorted_and_whole(void **state)
{
	size_t f, i, n, total = 0;

	(void)state;
	for (f = 0; f < HX_VF_COUNT; f++) {
		const struct hx_vocab *r = hx_vocab_family((enum hx_vocab_family)f, &n);

		assert_true(n > 0);
		total += n;
		for (i = 0; i < n; i++) {
			assert_int_equal(r[i].family, f);
			assert_int_equal(r[i].keylen, strlen(r[i].key));
			assert_true(r[i].cls < HX_VC_COUNT);
			assert_non_null(hx_vocab_source(&r[i]));
			assert_true(r[i].name[0] && r[i].meaning[0]);
			if (i && key_cmp(&r[i - 1], &r[i]) >= 0)
				fail_msg("%s: %s before %s",
					 hx_vocab_family_id((enum hx_vocab_family)f),
					 r[i - 1].key, r[i].key);
		}
	}
	assert_int_equal(total, hx_vocab_nrows);
	/* hundreds of codes: every one of the public headers */
	assert_true(hx_vocab_family(HX_VF_RUNTIME, &n) && n >= 250);
	assert_true(hx_vocab_family(HX_VF_ERRMGR, &n) && n >= 400);
	assert_true(hx_vocab_family(HX_VF_RT_INNER, &n) && n >= 400);
	assert_true(hx_vocab_family(HX_VF_HCCL, &n) && n == 25);
	assert_null(hx_vocab_family(HX_VF_COUNT, &n));
	assert_int_equal(n, 0);
}

static void test_ids(void **state)
{
	(void)state;
	assert_string_equal(hx_vocab_class_id(HX_VC_WAIT_TIMEOUT), "wait_timeout");
	assert_string_equal(hx_vocab_class_id(HX_VC_DEVICE_EXCEPTION),
			    "device_exception");
	assert_string_equal(hx_vocab_class_id(HX_VC_COMM_SETUP), "comm_setup");
	assert_string_equal(hx_vocab_class_id(HX_VC_UNKNOWN), "unknown");
	assert_null(hx_vocab_class_id(HX_VC_COUNT));
	assert_string_equal(hx_vocab_family_id(HX_VF_ERRMGR), "errmgr");
	assert_string_equal(hx_vocab_family_id(HX_VF_FRAMEWORK), "framework");
	assert_null(hx_vocab_family_id(HX_VF_COUNT));
}

static void test_lookup_runtime(void **state)
{
	(void)state;
	assert_row(HX_VF_RUNTIME, "507014", HX_VC_WAIT_TIMEOUT,
		   "ACL_ERROR_RT_AICORE_TIMEOUT");
	assert_row(HX_VF_RUNTIME, "507034", HX_VC_WAIT_TIMEOUT,
		   "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT");
	assert_row(HX_VF_RUNTIME, "507015", HX_VC_DEVICE_EXCEPTION,
		   "ACL_ERROR_RT_AICORE_EXCEPTION");
	assert_row(HX_VF_RUNTIME, "207001", HX_VC_RESOURCE,
		   "ACL_ERROR_RT_MEMORY_ALLOCATION");
	assert_row(HX_VF_RUNTIME, "107020", HX_VC_WAIT_TIMEOUT,
		   "ACL_ERROR_RT_TASK_TIMEOUT");
	assert_row(HX_VF_RUNTIME, "507010", HX_VC_LOST, "ACL_ERROR_RT_LOST_HEARTBEAT");
	assert_row(HX_VF_RUNTIME, "507011", HX_VC_UNKNOWN,
		   "ACL_ERROR_RT_MODEL_EXECUTE");
	assert_row(HX_VF_RUNTIME, "107041", HX_VC_PARAMETER,   /* a continued #define */
		   "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC");
	assert_row(HX_VF_RUNTIME, "100000", HX_VC_PARAMETER, "ACL_ERROR_INVALID_PARAM");
	assert_row(HX_VF_RUNTIME, "545601", HX_VC_WAIT_TIMEOUT,
		   "ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT");
	assert_row(HX_VF_RUNTIME, "561103", HX_VC_DEVICE_EXCEPTION,
		   "ACLNN_ERR_INNER_NULLPTR");
	assert_row(HX_VF_RUNTIME, "161002", HX_VC_PARAMETER, "ACLNN_ERR_PARAM_INVALID");
}

static void test_lookup_others(void **state)
{
	const struct hx_vocab_source *src;

	(void)state;
	assert_row(HX_VF_HCCL, "9", HX_VC_WAIT_TIMEOUT, "HCCL_E_TIMEOUT");
	assert_row(HX_VF_HCCL, "19", HX_VC_COMM_SETUP, "HCCL_E_NETWORK");
	assert_row(HX_VF_HCCL, "1041", HX_VC_UNKNOWN, "HCCL_E_IN_STATUS");
	assert_row(HX_VF_ERRMGR, "EI0002", HX_VC_WAIT_TIMEOUT,
		   "Communication_Error_Timeout");
	assert_row(HX_VF_ERRMGR, "EL0003", HX_VC_PARAMETER, "Invalid_Argument");
	assert_row(HX_VF_ERRMGR, "EI0006", HX_VC_COMM_SETUP,
		   "Communication_Error_Get_Socket");
	assert_row(HX_VF_ERRMGR, "EI0013", HX_VC_LOST, "Execution_Error_ROCE_CQE");
	assert_row(HX_VF_ERRMGR, "EE1002", HX_VC_WAIT_TIMEOUT,
		   "Execution_Error_Stream_Synchronize_Timeout");
	assert_row(HX_VF_ERRMGR, "EE9999", HX_VC_UNKNOWN, "RT_INNER_ERROR");
	assert_row(HX_VF_ERRMGR, "EL0004", HX_VC_RESOURCE, "Memory_Allocation_Failure");
	assert_row(HX_VF_TORCH_NPU, "ERR02200", HX_VC_UNKNOWN,
		   "DIST_ERROR(ErrCode::HCCL)");
	assert_row(HX_VF_TORCH_NPU, "ERR00011", HX_VC_WAIT_TIMEOUT,
		   "PTA_ERROR(ErrCode::TIMEOUT)");
	assert_row(HX_VF_TORCH_NPU, "DIST", HX_VC_UNKNOWN, "SubModule::DIST");
	assert_row(HX_VF_RT_INNER, "0x07150050", HX_VC_DEVICE_EXCEPTION,
		   "RT_ERROR_TSFW_MODEL_EXE_FAILED");
	/* inner codes as logs print them: no leading zero, any case */
	assert_ptr_equal(code(HX_VF_RT_INNER, "0x7150050"),
			 code(HX_VF_RT_INNER, "0x07150050"));
	assert_ptr_equal(code(HX_VF_RT_INNER, "0X715006B"),
			 code(HX_VF_RT_INNER, "0x0715006b"));
	assert_row(HX_VF_RT_INNER, "0x0715006b", HX_VC_WAIT_TIMEOUT,
		   "RT_ERROR_TSFW_FFTS_PLUS_TIMEOUT");
	/* the task scheduler's codes as the runtime prints them */
	assert_row(HX_VF_TS, "0x2a", HX_VC_UNKNOWN, "TS_ERROR_AICPU_EXCEPTION");
	assert_ptr_equal(code(HX_VF_TS, "2A"), code(HX_VF_TS, "0x2a"));
	assert_ptr_equal(code(HX_VF_TS, "0x0000002a"), code(HX_VF_TS, "0x2a"));
	assert_row(HX_VF_TS, "0x28", HX_VC_WAIT_TIMEOUT, "TS_ERROR_AICPU_TIMEOUT");
	assert_row(HX_VF_TS, "0x105", HX_VC_WAIT_TIMEOUT, "TS_ERROR_TASK_TIMEOUT");
	/* DCMI's negative codes, looked up by their shape too */
	assert_row(HX_VF_DCMI, "-8020", HX_VC_RESOURCE, "DCMI_ERR_CODE_RESOURCE_OCCUPIED");
	assert_ptr_equal(hx_vocab_key("-8020"), code(HX_VF_DCMI, "-8020"));
	assert_null(hx_vocab_key("-8021"));
	/* -errno as HCCP returns it, and HCCP's own numbers past errno's */
	assert_row(HX_VF_ERRNO, "-12", HX_VC_RESOURCE, "ENOMEM");
	assert_row(HX_VF_ERRNO, "-110", HX_VC_WAIT_TIMEOUT, "ETIMEDOUT");
	assert_row(HX_VF_ERRNO, "-261", HX_VC_LOST, "ESOCKCLOSED");
	assert_ptr_equal(hx_vocab_key("-12"), code(HX_VF_ERRNO, "-12"));
	assert_null(hx_vocab_key("-41"));       /* EWOULDBLOCK is EAGAIN's */
	/* HCCP's six-digit codes: type, module 28, operation, errno index */
	assert_row(HX_VF_RUNTIME, "328100", HX_VC_RESOURCE, "HCCP_RDMA_ENOMEM");
	assert_row(HX_VF_RUNTIME, "128207", HX_VC_LOST, "HCCP_SOCKET_ESOCKCLOSED");
	assert_null(code(HX_VF_RUNTIME, "328199"));      /* index 99: none */
	/* the code an AICPU kernel ended on, and the raw timeout 0x21007 */
	assert_row(HX_VF_AICPU, "21008", HX_VC_UNKNOWN, "AICPU_INNER");
	assert_row(HX_VF_AICPU, "135175", HX_VC_WAIT_TIMEOUT, "AICPU_TIMEOUT_RAW_ERRCODE");
	assert_row(HX_VF_FRAMEWORK, "No available shared memory broadcast block found",
		   HX_VC_WAIT_TIMEOUT, "vllm_shm_broadcast_stall");
	src = hx_vocab_source(code(HX_VF_RUNTIME, "507014"));
	assert_string_equal(src->repo, "hicann/runtime");
	assert_string_equal(src->path, "include/external/acl/error_codes/rt_error_codes.h");
	assert_int_equal(strlen(src->commit), 40);
	assert_string_equal(hx_vocab_source(code(HX_VF_ERRMGR, "EI0002"))->repo,
			    "libochao-huawei/hcomm");
}

static void test_lookup_misses(void **state)
{
	(void)state;
	assert_null(code(HX_VF_RUNTIME, "507999"));
	assert_null(code(HX_VF_RUNTIME, "5070140"));
	assert_null(code(HX_VF_RUNTIME, "50701"));
	assert_null(code(HX_VF_RUNTIME, "EI0002"));     /* another family's */
	assert_null(code(HX_VF_ERRMGR, "EI0099"));
	assert_null(code(HX_VF_ERRMGR, "ei0002"));      /* case matters */
	assert_null(code(HX_VF_HCCL, "0"));             /* success has no row */
	assert_null(code(HX_VF_HCCL, "09"));
	assert_null(code(HX_VF_RT_INNER, "0x"));
	assert_null(code(HX_VF_RT_INNER, "0x071500500"));
	assert_null(code(HX_VF_RT_INNER, "7150050"));
	assert_null(code(HX_VF_RT_INNER, "0x7g50050"));
	assert_null(code(HX_VF_TS, "0x0"));             /* TS_SUCCESS */
	assert_null(code(HX_VF_TS, "0x"));
	assert_null(code(HX_VF_TS, "0x1000"));          /* past the table */
	assert_null(code(HX_VF_TS, "0x2g"));
	assert_null(code(HX_VF_RUNTIME, ""));
	assert_null(hx_vocab_code(HX_VF_RUNTIME, NULL, 6));
	assert_null(hx_vocab_code(HX_VF_COUNT, "507014", 6));
	assert_null(hx_vocab_code((enum hx_vocab_family)-1, "507014", 6));
	/* n bounds the key: "507014" is not "5070" */
	assert_null(hx_vocab_code(HX_VF_RUNTIME, "507014", 4));
	assert_null(hx_vocab_source(NULL));
}

/* A code whatever its family, by its shape (hx_vocab_key). */
static void test_lookup_by_shape(void **state)
{
	const struct hx_vocab *r;

	(void)state;
	assert_non_null(r = hx_vocab_key("507014"));
	assert_int_equal(r->family, HX_VF_RUNTIME);
	assert_int_equal(r->cls, HX_VC_WAIT_TIMEOUT);
	assert_non_null(r = hx_vocab_key("EI0002"));
	assert_int_equal(r->family, HX_VF_ERRMGR);
	assert_non_null(r = hx_vocab_key("ERR02200"));
	assert_int_equal(r->family, HX_VF_TORCH_NPU);
	assert_non_null(r = hx_vocab_key("0x7150050"));
	assert_int_equal(r->family, HX_VF_RT_INNER);
	assert_null(hx_vocab_key("9"));         /* an HcclResult needs its context */
	assert_null(hx_vocab_key("507999"));
	assert_null(hx_vocab_key(""));
	assert_null(hx_vocab_key(NULL));
}

/* ---- the scanner on real lines (../shared/samples) ---- */

static void test_scan_result_words(void **state)
{
	const char *l1 = "[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.324.830 [api_c.cc:721]163618 rtStreamSynchronize:ErrCode=507011, desc=[the model stream execute failed], InnerCode=0x7150050";
	const char *l2 = "[W NPUStream.cpp:382] Warning: NPU warning, error code is 107020[Error]: .";
	const char *l3 = "[ERROR] RUNTIME(160186,python):2023-01-10-09:25:45.323.578 [callback.cc:91]163618 Notify:notify [HCCL] task fail start.notify taskid:3 streamid:2 retcode:507011";
	const char *l4 = "    wait for compute device to finish failed, runtime result = 507018.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]";
	const char *l5 = "[ERROR] APP(129179,):2026-03-25-16:51:14.621.205 [rts_arg.cpp:883][NNOP][LaunchKernelFromCache][129253] errno[361001] OpName:[aclnnSigmoid]";
	const char *l6 = "RuntimeError: call aclnnInplaceZero failed, error code = 561103";
	struct hx_vocab_hit h[8];

	(void)state;
	assert_int_equal(scan(l1, h, 8), 2);
	assert_string_equal(h[0].row->key, "507011");
	assert_int_equal(h[0].off, at(l1, "507011"));
	assert_int_equal(h[0].len, 6);
	assert_int_equal(h[0].how, HX_VH_RESULT);
	assert_string_equal(h[1].row->key, "0x07150050");
	assert_int_equal(h[1].off, at(l1, "0x7150050"));
	assert_int_equal(h[1].len, 9);
	assert_int_equal(h[1].how, HX_VH_HEX);
	assert_one(l2, HX_VF_RUNTIME, "107020", at(l2, "107020"), HX_VH_RESULT);
	assert_one(l3, HX_VF_RUNTIME, "507011", at(l3, "507011"), HX_VH_RESULT);
	assert_one(l4, HX_VF_RUNTIME, "507018", at(l4, "507018"), HX_VH_RESULT);
	assert_one(l5, HX_VF_RUNTIME, "361001", at(l5, "361001"), HX_VH_RESULT);
	assert_one(l6, HX_VF_RUNTIME, "561103", at(l6, "561103"), HX_VH_RESULT);
}

static void test_scan_hccl(void **state)
{
	const char *l1 = "[ERROR] HCCL(2717288,python3):2025-07-23-03:47:57.070.466 [hccl_socket_manager.cc:54] [2717288][ServerInit]call trace: hcclRet -> 19";
	const char *l2 = "[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.265 [hccl_socket_manager.cc:830] [2734049][Wait][LinksEstablishCompleted] is failed. ret[9].";
	const char *l3 = "[ERROR] HCCL(5047,aicpu_scheduler):2026-11-01-07:30:46.743.448 [hccl_aicpu_interface.cc:115] [5057]run AicpuRunRpcServerV2 failed. ret[4]";
	const char *l4 = "RuntimeError: HcclAllReduce(...) HCCL function error: HcclAllReduce, error code is 9";
	const char *l5 = "HcclCommInitRootInfo returned HcclResult 7";
	const char *l8 = "hcclCommInitRootInfo failed, return 9";
	const char *l9 = "[HcclCommunicator][Init] ret=9 ret = 11";
	const char *l6 = "[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.001 [hccl_ra.cc:1] [1][Init][RaTlv]errNo[0x0000000005000009] ra tlv init fail. return: ret[9]";
	/* the module's name "HCCL(" is no function name: the hex errNo only */
	const char *l7 = "[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.001 [ra.cc:1] [1][Init][RaTlv]errNo[0x000000000501000c] ra tlv init fail. return: ret[9]";

	(void)state;
	assert_one(l1, HX_VF_HCCL, "19", at(l1, "19\0"), HX_VH_HCCL);
	assert_one(l2, HX_VF_HCCL, "9", at(l2, "9]."), HX_VH_HCCL);
	assert_one(l3, HX_VF_HCCL, "4", at(l3, "4]"), HX_VH_HCCL);
	assert_one(l4, HX_VF_HCCL, "9", strlen(l4) - 1, HX_VH_HCCL);
	assert_one(l5, HX_VF_HCCL, "7", strlen(l5) - 1, HX_VH_HCCL);
	assert_one(l8, HX_VF_HCCL, "9", strlen(l8) - 1, HX_VH_HCCL);
	{
		struct hx_vocab_hit h[4];

		assert_int_equal(scan(l6, h, 4), 2);
		assert_int_equal(h[0].how, HX_VH_HEX);
		assert_string_equal(h[0].row->name, "HCCL_E_TIMEOUT");
		assert_int_equal(h[0].off, at(l6, "0x0000000005000009"));
		assert_int_equal(h[0].len, 18);
		assert_int_equal(h[1].how, HX_VH_HCCL);
		assert_int_equal(h[1].off, strlen(l6) - 2);
		assert_int_equal(scan(l7, h, 4), 1);
		assert_string_equal(h[0].row->name, "HCCL_E_ROCE_CONNECT");
		assert_int_equal(scan(l9, h, 4), 2);
		assert_string_equal(h[0].row->name, "HCCL_E_TIMEOUT");
		assert_int_equal(h[0].off, at(l9, "9 "));
		assert_string_equal(h[1].row->name, "HCCL_E_TCP_CONNECT");
	}
}

/* the driver's drvError_t after its own result word, and nowhere else */
static void test_scan_drv(void **state)
{
	static const struct {
		const char *line, *key, *at;
		enum hx_vocab_class cls;
	} t[] = {
		{ "[ERROR] RUNTIME(144,):2025-12-23-02:13:24.956.201 [driver.cc:64]144 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.",
		  "87", "87.", HX_VC_RESOURCE },
		{ "[ERROR] ATRACE(618,python3):2025-03-06-01:09:06.981.451 [trace_driver_api.c:56](tid:618) get platform info failed, drvErr=87.",
		  "87", "87.", HX_VC_RESOURCE },
		{ "halMemAlloc failed: device_id=7, size=15069901824, type=2, env_type=3, drvRetCode=6!",
		  "6", "6!", HX_VC_RESOURCE },
		{ "[drv api] halQueueEnQueueBuff failed: deviceId=0, qid=1, timeout=3000, drvRetCode=27.",
		  "27", "27.", HX_VC_LOST },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		assert_one(t[i].line, HX_VF_DRV, t[i].key, at(t[i].line, t[i].at),
			   HX_VH_DRV);
		assert_int_equal(scan1(t[i].line)->cls, t[i].cls);
	}
	assert_string_equal(scan1(t[0].line)->name, "DRV_ERROR_RESOURCE_OCCUPIED");
	/* not the driver's word; not a drvError_t's size; 0 is success */
	assert_none("GetDeviceCount: drvRet=87.");
	assert_none("Call drvGetDevNum, drvRetCode=8700.");
	assert_none("Call drvGetDevNum, drvRetCode=0.");
	assert_none("mydrvRetCode=87");
}

static void test_scan_codes_by_shape(void **state)
{
	const char *l1 = "[PID: 3480365] 2025-12-24-14:10:31.094.189 Execution_Error_SDMA(EI0012): SDMA memory copy task exception occurred.";
	const char *l2 = "EE9999: Inner Error!";
	const char *l3 = "Invalid_Argument(EL0003): The argument is invalid.";
	const char *l4 = "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed.";
	const char *l5 = "EE9999[PID: 1365] 2025-08-06-23:09:42.725.168 (EE9999):  The error from device";
	struct hx_vocab_hit h[8];

	(void)state;
	assert_one(l1, HX_VF_ERRMGR, "EI0012", at(l1, "EI0012"), HX_VH_CODE);
	assert_one(l2, HX_VF_ERRMGR, "EE9999", 0, HX_VH_CODE);
	assert_one(l3, HX_VF_ERRMGR, "EL0003", at(l3, "EL0003"), HX_VH_CODE);
	assert_int_equal(scan(l4, h, 8), 2);
	assert_string_equal(h[0].row->key, "ERR02200");
	assert_int_equal(h[0].off, at(l4, "ERR02200"));
	assert_string_equal(h[1].row->key, "DIST");
	assert_int_equal(h[1].off, at(l4, "DIST"));
	assert_int_equal(h[1].len, 4);
	assert_int_equal(scan(l5, h, 8), 2);
	assert_int_equal(h[0].off, 0);
	assert_int_equal(h[1].off, at(l5, "(EE") + 1);
}

static void test_scan_phrases(void **state)
{
	const char *l1 = "(EngineCore_DP0 pid=333) INFO 02-22 23:21:42 [shm_broadcast.py:548] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).";
	const char *l2 = "[ERROR] APP(1365,python3.8):2025-08-06-23:09:42.725.168 [log_inner.cpp:76]6124 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:checkDispatch:685: \"[PTA]:\"Process group work REDUCE_SCATTER, seq_num 32716847 dispatch timeout. device 3: the current working event is 0xaaab40f5c5d0. \"\"";
	const char *l3 = "[rank3]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 1800000ms for recv operation to complete";
	const char *l4 = "[E728 15:01:59.561275187 socket.cpp:1028] [c10d] The client socket has timed out after 600000ms while trying to connect to (127.0.0.1, 48315).";
	const char *l5 = "(RayWorkerWrapper pid=394715, ip=10.65.144.3) DEBUG 02-05 09:08:18 shm_broadcast.py:282] Connecting to tcp://127.0.0.1:49717 [repeated 23x across cluster]";
	const char *l6 = "[Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.";
	struct hx_vocab_hit h[8];

	(void)state;
	assert_one(l1, HX_VF_FRAMEWORK, "No available shared memory broadcast block found",
		   at(l1, "No available"), HX_VH_PHRASE);
	assert_int_equal(scan(l2, h, 8), 2);
	assert_string_equal(h[0].row->key, "PTA");
	assert_int_equal(h[0].off, at(l2, "[PTA]"));
	assert_int_equal(h[0].len, 5);
	assert_string_equal(h[1].row->key, "Process group work * dispatch timeout");
	assert_int_equal(h[1].off, at(l2, "Process group"));
	assert_int_equal(h[1].len, at(l2, ". device 3") - at(l2, "Process group"));
	assert_string_equal(hx_vocab_class_id(h[1].row->cls), "wait_timeout");
	assert_one(l3, HX_VF_FRAMEWORK, "ms for recv operation to complete",
		   at(l3, "ms for recv"), HX_VH_PHRASE);
	assert_one(l4, HX_VF_FRAMEWORK, "The client socket has timed out after",
		   at(l4, "The client"), HX_VH_PHRASE);
	assert_one(l5, HX_VF_FRAMEWORK, "x across cluster]", at(l5, "x across"),
		   HX_VH_PHRASE);
	assert_one(l6, HX_VF_FRAMEWORK, "Watchdog caught collective operation timeout",
		   at(l6, "Watchdog"), HX_VH_PHRASE);
}

/* MindIE's codes: whole, else by component and error type; an error or
 * a critical one only, standing alone */
static void test_scan_mindie(void **state)
{
	const char *l1 = "[2025-12-05 13:26:00.197+08:00] [7887] [7889] [server] [ERROR] [endpoint.cpp:37] : [MIE04E02011C] [endpoint] Failed to init infer backend manager";
	const char *l2 = "[llm] [ERROR] [MIE05E01001B] link out of time";
	const struct hx_vocab *r;

	(void)state;
	assert_one(l1, HX_VF_MINDIE, "MIE04*1C", at(l1, "MIE04"), HX_VH_CODE);
	assert_one(l2, HX_VF_MINDIE, "MIE05E01001B", at(l2, "MIE05"), HX_VH_CODE);
	assert_string_equal(hx_vocab_class_id(scan1(l2)->cls), "wait_timeout");
	assert_non_null(r = hx_vocab_key("MIE04C07010F"));  /* critical */
	assert_string_equal(r->key, "MIE04*0F");
	assert_non_null(r = hx_vocab_key("MIE05E000005"));
	assert_string_equal(hx_vocab_class_id(r->cls), "resource");
	assert_null(hx_vocab_key("MIE05E01000F"));          /* reserved */
	assert_null(hx_vocab_code(HX_VF_MINDIE, "MIE04E02011", 11));
	assert_none("[MIE04I071120] normal");               /* info */
	assert_none("[MIE04W01011A] subprocess exit");     /* warning */
	assert_none("XMIE04E02011C MIE04E02011CX MIE04E02011c MIE4E02011C");
	assert_none("[MIE99E000000] [MIE05E01000F]");      /* no row */
	assert_none("MIE04E0201");                          /* cut */
}

/* numbers and shapes that are no codes */
static void test_scan_misses(void **state)
{
	(void)state;
	assert_none("");
	assert_none("[ERROR] RUNTIME(507014,python3):2026-11-01-07:00:10.329.474 [npu_driver.cc:1393] 507014 LogicCqReportV2:logic_cq real cnt=1");
	assert_none("taskId 507014 streamId 12");                 /* no result word */
	assert_none("error code is 5070140");                     /* seven digits */
	assert_none("error code is 507999");                      /* no such code */
	assert_none("error code is -507014");
	assert_none("ErrCode=507014abc");
	assert_none("XEI0002 EI00021 ei0002 EI002 EI0099: x");    /* glued, long, case, short, unknown */
	assert_none("InnerCode 0x7150050x, addr 0x7150050");      /* glued; no result word */
	assert_none("ret = 9, ret[4]");                           /* no HCCL function */
	assert_none("HcclAllReduce: count 9 size 4096");           /* no result word */
	assert_none("ret = 9 before HcclAllReduce");               /* the function comes after */
	assert_none("hcclRet -> 99");                             /* no such HcclResult */
	assert_none("ERR0220 ERR022001 XERR02200");
	assert_none("No available shared memory");                /* half a phrase */
	assert_none("[pta] [PTA [PTAX]");
	assert_none("the errNo[0x0000000006000009] of another module");
}

/* "RPC call to * timed out": the '*' is at most HX_VOCAB_GAP bytes */
static void test_scan_gap(void **state)
{
	char line[700];
	struct hx_vocab_hit h[2];

	(void)state;
	snprintf(line, sizeof line, "TimeoutError: RPC call to %s timed out.",
		 "sample_tokens");
	assert_int_equal(hx_vocab_scan(line, strlen(line), h, 2), 1);
	assert_string_equal(h[0].row->key, "RPC call to * timed out");
	assert_int_equal(h[0].off, 14);
	assert_int_equal(h[0].len, strlen(line) - 1 - 14);
	memset(line, 0, sizeof line);
	memcpy(line, "RPC call to ", 12);
	memset(line + 12, 'a', 400);
	memcpy(line + 412, " timed out", 10);
	assert_int_equal(hx_vocab_scan(line, strlen(line), h, 2), 0);
}

/* An HcclResult in a line HCCL wrote counts from the line's start; in
 * any other line only after an HCCL function name; never a 0 or five
 * digits */
static void test_scan_hccl_line(void **state)
{
	const char *line = "[Wait][LinksEstablishCompleted] is failed. ret[9].";
	struct hx_vocab_hit h[2];

	(void)state;
	assert_int_equal(hx_vocab_scan(line, strlen(line), h, 2), 0);
	assert_int_equal(hx_vocab_scan_mod(line, strlen(line), HX_VM_HCCL, h, 2), 1);
	assert_string_equal(h[0].row->key, "9");
	assert_int_equal(h[0].row->cls, HX_VC_WAIT_TIMEOUT);
	assert_int_equal(h[0].off, strlen(line) - 3);
	line = "[Wait][LinksEstablishCompleted] is failed. ret[4].";
	assert_int_equal(hx_vocab_scan_mod(line, strlen(line), HX_VM_HCCL, h, 2), 1);
	assert_int_not_equal(h[0].row->cls, HX_VC_WAIT_TIMEOUT);
	line = "[Wait][LinksEstablishCompleted] is failed. ret[0].";
	assert_int_equal(hx_vocab_scan_mod(line, strlen(line), HX_VM_HCCL, h, 2), 0);
	line = "[Wait][LinksEstablishCompleted] is failed. ret[12345].";
	assert_int_equal(hx_vocab_scan_mod(line, strlen(line), HX_VM_HCCL, h, 2), 0);
}

/* -errno is read in a line of HCCP's (its module known, or named in the
 * text) after a result word and a '-'; not in another module's line, not
 * a date's "-12", not a number inside a word */
static void test_scan_hccp_errno(void **state)
{
	const char *body = "[create][ra_qp_with_attrs]create qp fail, ret(-12) phy_id(0)";
	const struct hx_vocab *any;

	(void)state;
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_ANY, &any));
	assert_null(any);
	assert_non_null(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP, NULL));
	assert_string_equal(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP,
					      NULL)->name, "ENOMEM");
	body = "hns init pool failed, hal_alloc_buf failed ret = -110";
	assert_string_equal(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP,
					      NULL)->name, "ETIMEDOUT");
	body = "rs_roce_init_mem_pool failed, ret=-12, chip_id=0";
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_ANY, NULL));
	body = "x init failed, ret=-12, chip_id=0 (hccp_service.bin)";
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_ANY, NULL));
	body = "x ret-12 up";                     /* glued to a word */
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP, &any));
	assert_null(any);
	body = "hccp_ queue at -12 deep";         /* no result word */
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP, &any));
	assert_null(any);
	body = "started 2025-01-06-12:00 ret x-12 a-12b ret(-12a) ret(-1234)";
	assert_null(hx_vocab_line_row(body, strlen(body), HX_VM_HCCP, &any));
	assert_null(any);
}

/* ---- positions: blocks of 64 bytes overlapping by 8 ---- */

static void assert_at_every_offset_mod(const char *mention, const char *key,
				       size_t skip, enum hx_vocab_mod mod)
{
	char line[400];
	struct hx_vocab_hit h[4];
	size_t off, m = strlen(mention), n;

	for (off = 0; off + m <= 300; off++) {
		memset(line, '.', sizeof line);
		memcpy(line + off, mention, m);
		for (n = off + m; n <= off + m + 70 && n < sizeof line; n += 23) {
			if (hx_vocab_scan_mod(line, n, mod, h, 4) != 1)
				fail_msg("%s at %zu, line of %zu: %zu mentions",
					 mention, off, n,
					 hx_vocab_scan_mod(line, n, mod, h, 4));
			assert_string_equal(h[0].row->key, key);
			assert_int_equal(h[0].off, off + skip);
		}
	}
}

static void assert_at_every_offset(const char *mention, const char *key,
				   size_t skip)
{
	assert_at_every_offset_mod(mention, key, skip, HX_VM_ANY);
}

static void test_scan_every_offset(void **state)
{
	(void)state;
	assert_at_every_offset(" ErrCode=507014 ", "507014", 9);
	assert_at_every_offset(" EI0002: ", "EI0002", 1);
	assert_at_every_offset(" ERR00011 ", "ERR00011", 1);
	assert_at_every_offset(" InnerCode=0x715006b ", "0x0715006b", 11);
	assert_at_every_offset(" Hccl ret[9] ", "9", 10);
	assert_at_every_offset(" Socket Timeout ", "Socket Timeout", 1);
	assert_at_every_offset(" [PTA] ", "PTA", 1);
	/* the '-' in the block before the number's (blocks start 56 bytes
	 * apart) */
	assert_at_every_offset_mod(" x ret=-12 ", "-12", 7, HX_VM_HCCP);
}

static void test_scan_long_line(void **state)
{
	size_t n = 100000, i;
	char *line = malloc(n);
	struct hx_vocab_hit h[4];

	(void)state;
	assert_non_null(line);
	for (i = 0; i < n; i++)                 /* digits, 'E's, 'x's: no code */
		line[i] = "0123456789 Ex:"[i % 14];
	assert_int_equal(hx_vocab_scan(line, n, h, 4), 0);
	memcpy(line + n - 20, " error code is 507014", 20);
	memcpy(line + 70000, " EI0002 ", 8);
	assert_int_equal(hx_vocab_scan(line, n, h, 4), 1);
	assert_string_equal(h[0].row->key, "EI0002");
	memcpy(line + n - 21, " error code is 507014", 21);
	assert_int_equal(hx_vocab_scan(line, n, h, 4), 2);
	assert_int_equal(h[1].off, n - 6);
	free(line);
}

/* several mentions: in offset order; past max, the furthest go */
static void test_scan_several(void **state)
{
	const char *l = "EE9999: x [PTA]: ERR02200 DIST y, error code is 507014, InnerCode=0x7150050, EI0002 then No available block found in 60 second.";
	struct hx_vocab_hit h[8];
	static const char *const want[] = {
		"EE9999", "PTA", "ERR02200", "DIST", "507014", "0x07150050",
		"EI0002", "No available block found in"
	};
	size_t n, i;

	(void)state;
	n = scan(l, h, 8);
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		assert_string_equal(h[i].row->key, want[i]);
		if (i)
			assert_true(h[i].off > h[i - 1].off);
	}
	assert_int_equal(scan(l, h, 3), 3);
	for (i = 0; i < 3; i++)
		assert_string_equal(h[i].row->key, want[i]);
	assert_int_equal(scan(l, h, 0), 0);
	assert_int_equal(hx_vocab_scan(NULL, 3, h, 8), 0);
}

/* ---- every row, in its context ---- */

static void assert_found(const char *line, const struct hx_vocab *r)
{
	struct hx_vocab_hit h[8];
	size_t n = r->family == HX_VF_ERRNO     /* read in HCCP's lines */
		   ? hx_vocab_scan_mod(line, strlen(line), HX_VM_HCCP, h, 8)
		   : scan(line, h, 8), i;

	for (i = 0; i < n; i++)
		if (h[i].row == r)
			return;
	fail_msg("%s %s not found in: %s", hx_vocab_family_id(r->family),
		 r->key, line);
}

static void phrase_line(const struct hx_vocab *r, char *line, size_t cap)
{
	const char *star = strchr(r->key, '*');

	if (star)
		snprintf(line, cap, "x %.*sSOMETHING%s y", (int)(star - r->key),
			 r->key, star + 1);
	else
		snprintf(line, cap, "x %s y", r->key);
}

static void test_every_row(void **state)
{
	static const char *const ctx[HX_VF_COUNT] = {
		[HX_VF_RUNTIME] = "rtFoo failed, error code is %s.",
		[HX_VF_RT_INNER] = "desc=[x], InnerCode=%s",
		[HX_VF_ERRMGR] = "%s: text",
		[HX_VF_HCCL] = "HcclAllReduce failed, ret = %s",
		[HX_VF_DRV] = "GetDeviceCount:Call drvGetDevNum, drvRetCode=%s.",
		[HX_VF_AICPU] = ("an exception occurred during AICPU execution, "
				 "stream_id:2, task_id:19, errcode:%s, msg:x."),
		[HX_VF_TS] = "Kernel task happen error, retCode=%s, [x].",
		[HX_VF_DCMI] = "dcmi model initialized failed. ret is %s",
		[HX_VF_ERRNO] = "[create][ra_qp]create qp fail, ret(%s) phy_id(0)",
		[HX_VF_TORCH_NPU] = "(PID:1, Device:0, RankID:0) %s text",
		[HX_VF_MINDIE] = "[server] [ERROR] : [%s] [endpoint] x",
	};
	char line[512];
	size_t f, i, n;

	(void)state;
	for (f = 0; f < HX_VF_COUNT; f++) {
		const struct hx_vocab *r = hx_vocab_family((enum hx_vocab_family)f, &n);

		for (i = 0; i < n; i++) {
			if (f == HX_VF_FRAMEWORK)
				phrase_line(&r[i], line, sizeof line);
			else if (f == HX_VF_TORCH_NPU && strncmp(r[i].key, "ERR", 3))
				snprintf(line, sizeof line, "[%s]:x", r[i].key);
			else if (f == HX_VF_MINDIE && r[i].keylen == 8)   /* a type */
				snprintf(line, sizeof line, "[%.5sE0201%s] x", r[i].key,
					 r[i].key + 6);
			else
				snprintf(line, sizeof line, ctx[f], r[i].key);
			assert_found(line, &r[i]);
		}
	}
}

/* ---- the SSE2 masks against the portable ones ---- */

static void test_block_masks(void **state)
{
	unsigned char blk[64];
	uint64_t a[4], b[4];
	unsigned seed = 12345, k, round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		for (k = 0; k < 64; k++) {
			seed = seed * 1103515245u + 12345u;
			blk[k] = round & 1 ? (unsigned char)(seed >> 16) :
				 (unsigned char)"0189/:EWxkcl= AbP"[(seed >> 16) % 17];
		}
		hx_vocab_block_masks(blk, false, a);
		hx_vocab_block_masks(blk, true, b);
		for (k = 0; k < 4; k++)
			assert_true(a[k] == b[k]);
	}
	memcpy(blk, "0123456789/:cclxEW", 18);
	memset(blk + 18, 0x80, 46);
	hx_vocab_block_masks(blk, true, b);
	assert_true(b[0] == 0x3ff);
	assert_true(b[2] == (1u << 12 | 1u << 13));
	assert_true(b[3] == 1u << 14);
	assert_true((b[1] & 0x38000) == 0x38000);      /* x, E, W */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_sorted_and_whole),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_lookup_runtime),
		cmocka_unit_test(test_lookup_others),
		cmocka_unit_test(test_lookup_misses),
		cmocka_unit_test(test_lookup_by_shape),
		cmocka_unit_test(test_scan_result_words),
		cmocka_unit_test(test_scan_hccl),
		cmocka_unit_test(test_scan_drv),
		cmocka_unit_test(test_scan_codes_by_shape),
		cmocka_unit_test(test_scan_phrases),
		cmocka_unit_test(test_scan_mindie),
		cmocka_unit_test(test_scan_misses),
		cmocka_unit_test(test_scan_gap),
		cmocka_unit_test(test_scan_hccl_line),
		cmocka_unit_test(test_scan_hccp_errno),
		cmocka_unit_test(test_scan_every_offset),
		cmocka_unit_test(test_scan_long_line),
		cmocka_unit_test(test_scan_several),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_block_masks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
