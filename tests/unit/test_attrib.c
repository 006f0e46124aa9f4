/*
 * test_attrib.c - attribution of a process in many communicators: 200
 * sub-groups a process, each created under its root info identifier and
 * named group_name_K by its hcclCommInitInfo line, are attributed and
 * counted exactly, one communicator per pair of names, with no note of a
 * limit; a name that "group_name_1" is a part of is not taken for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "core/core.h"
#include "ingest/ingest.h"
#include "ingestutil.h"

#define NGROUPS 200

/* One creation of process pid: entry, info and exit lines. */
static size_t creation(char *buf, size_t n, int pid, const char *rootinfo,
		       const char *name, int ranks, int rank)
{
	return (size_t)snprintf(buf, n,
		"[INFO] HCCL(%d,python3):2026-11-01-07:00:00.000.000 [op_base.cc:1292] [%d]Entry-HcclCommInitRootInfoInner:ranks[%d], rank[%d], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[%s], deviceLogicId[0]\n"
		"[INFO] HCCL(%d,python3):2026-11-01-07:00:00.000.005 [hccl_comm.cc:129] [%d]hcclCommInitInfo:commId[hccl-%d-0-1793516400-x], rank[%d], totalRanks[%d], serverId[127.10.0.1], deviceType[4],logicDevId[0], identifier[%s]\n"
		"[INFO] HCCL(%d,python3):2026-11-01-07:00:00.000.010 [op_base.cc:489][%d][HCCL_TRACE]HcclCommInitRootInfo success,take time [15]us, rankNum[%d], rank[%d],rootInfo identifier[%s], server[127.10.0.1], logicDevId[0]\n",
		pid, pid, ranks, rank, rootinfo, pid, pid, pid, rank, ranks, name,
		pid, pid, ranks, rank, rootinfo);
}

static uint32_t id_of(const struct hangdx_evidence *ev, const char *s)
{
	long id = hx_intern_find(&ev->strs, s, strlen(s));

	assert_true(id >= 0);
	return (uint32_t)id;
}

static void test_many_communicators(void **state)
{
	size_t cap = (NGROUPS + 2) * 2 * 1400, k = 0;
	char *text = malloc(cap), ri[64], nm[64];
	struct hangdx_evidence *ev;
	struct hx_attrib *at;
	int g;

	(void)state;
	assert_non_null(text);
	/* processes 7 and 8: ranks 2 and 3 of a world of 4; in each group
	 * K of two members, 8 is rank 0 and 7 rank 1 */
	k += creation(text + k, cap - k, 7, "10.0.0.1%eth0_60000_0_1", "hccl_world_group", 4, 2);
	k += creation(text + k, cap - k, 8, "10.0.0.1%eth0_60000_0_1", "hccl_world_group", 4, 3);
	for (g = 1; g <= NGROUPS; g++) {
		snprintf(ri, sizeof ri, "10.0.0.1%%eth0_60000_%d_1", g);
		snprintf(nm, sizeof nm, "group_name_%d", g);
		k += creation(text + k, cap - k, 8, ri, nm, 2, 0);
		k += creation(text + k, cap - k, 7, ri, nm, 2, 1);
	}
	ev = ingest(text);
	assert_int_equal(hx_attrib_build(ev, &at), HANGDX_OK);
	assert_null(hx_attrib_groups_cut(at));
	for (g = 1; g <= NGROUPS; g++) {
		uint32_t name, root;

		snprintf(ri, sizeof ri, "10.0.0.1%%eth0_60000_%d_1", g);
		snprintf(nm, sizeof nm, "group_name_%d", g);
		name = id_of(ev, nm);
		root = id_of(ev, ri);
		/* two names, one communicator */
		assert_int_equal(hx_attrib_canon(at, root), name);
		assert_int_equal(hx_attrib_canon(at, name), name);
		/* comm rank 1 of every group is process 7: global rank 2 */
		assert_int_equal(hx_attrib_global(at, name, 1), 2);
		assert_int_equal(hx_attrib_global(at, name, 0), 3);
	}
	assert_int_equal(hx_attrib_job_size(at), 4);
	hx_attrib_free(ev, at);
	hangdx_evidence_free(ev);
	free(text);
}

/* A wait failure of process 7 in group_name_12 names its peer by comm
 * rank; the tag holds "group_name_1" too, which must not be taken. */
static void test_tag_longest_group(void **state)
{
	char text[16384];
	size_t k = 0;
	struct hangdx_evidence *ev;
	struct hx_attrib *at;
	struct hx_attr a;
	const struct hx_rec *r = NULL;
	size_t i;

	(void)state;
	k += creation(text + k, sizeof text - k, 7, "r0", "hccl_world_group", 4, 2);
	k += creation(text + k, sizeof text - k, 7, "r1", "group_name_1", 2, 0);
	k += creation(text + k, sizeof text - k, 7, "r12", "group_name_12", 2, 1);
	k += (size_t)snprintf(text + k, sizeof text - k,
		"[ERROR] HCCL(7,python3):2026-11-01-07:30:36.000.080 [task_exception_handler.cc:452][7][TaskExceptionHandler][Callback]Task run failed, base information is streamID:[3], taskID[7], taskType[Notify Wait], tag[AllReduce_group_name_12], index[3], AlgType(level 0-1-2):[null-null-ring].\n"
		"[ERROR] HCCL(7,python3):2026-11-01-07:30:36.000.090 [task_exception_handler.cc:454][7][TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x0000000000000050], stage:[ffffffff], remote rank:[0].\n");
	ev = ingest(text);
	assert_int_equal(hx_attrib_build(ev, &at), HANGDX_OK);
	for (i = 0; i < ev->nrec; i++)
		if (ev->recs[i].kind == HX_K_HCCL_TASK_FAIL)
			r = &ev->recs[i];
	assert_non_null(r);
	hx_attrib_rec(at, r, &a);
	assert_int_equal(a.rank, 2);
	hx_attrib_free(ev, at);
	hangdx_evidence_free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_communicators),
		cmocka_unit_test(test_tag_longest_group),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	hangdx_ctx_free(g_ctx);
	return rc;
}
