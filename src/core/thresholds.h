/*
 * thresholds.h - every number that can change a diagnosis, in one place
 * (docs/DIAGNOSIS.md, "Thresholds", lists them with their reasons).  When
 * one of them decides something in a run, the report says so in a note
 * (struct hangdx_diagnosis, thr_hits); a change here is a change of
 * verdicts and goes with the golden files.
 */
#ifndef HX_THRESHOLDS_H
#define HX_THRESHOLDS_H

/* AICPU cores per device of the parts that run HCCL kernels on AICPU
 * (AI_CPU expansion: Atlas A2/A3, runtime-model.md); the pool is never
 * smaller unless --cores says so, and wider when the logs name a higher
 * core id. */
#define HX_PRODUCT_AICPU_CORES 6
/* Core ids the logs may name; a higher one is a garbled line. */
#define HX_MAX_CORE_ID 1023

/* Entries per list of a diagnosis (fixes, notes, warnings, missing
 * evidence, chain hops, rank groups); the rest is cut. */
#define HX_MAX_LIST 4096

/* Files one rank's facts may name: past it the rest are not kept, and
 * phase 2 does not read the rank again (its facts stand in).  A rank's
 * logs are a few files; 300 rotated plogs are still far below. */
#define HX_MAX_RANK_FILES 65536

/* Groups of looping kernels one rank's facts name (so that the deciding
 * side finds, over all nodes, a member that can still come): past it
 * none are named and its node's judgement stands.  A device has at most
 * HX_MAX_CORE_ID + 1 kernels looping. */
#define HX_MAX_POOL_GROUPS 1024

/* Start nodes tried when looking for the shortest cycle to explain a
 * deadlock (pools first); the deadlock itself does not depend on it. */
#define HX_MAX_CYCLE_STARTS 64

/* Two wait failures of one rank this close together are one failure: the
 * one naming its peer is kept; a NOTIFY WAIT dump this close to a link
 * error belongs to that error. */
#define HX_WAIT_TIE_US 1000000

/* A wait that ran out this long after a fault is a hang the fault caused
 * (the job waited on what it left undone), not its echo: a watchdog or a
 * peer reports a fault within seconds. */
#define HX_ECHO_US (60 * 1000000LL)

/* The error manager's block that explains a call's returned code starts
 * within this many lines under the line with the code (torch_npu prints
 * the code, its own ERRnnnnn line, then the block). */
#define HX_EXPLAIN_LINES 8

/* Failures of different ranks this close together (clock-corrected) are
 * simultaneous: the rank waiting on a lost rank, then the lower rank,
 * fails first. */
#define HX_TIE_US 1000

/* Clock offsets from the communicator-creation barrier's exit lines up to
 * the spread of one creation's exits on one server (measured in the logs,
 * at least HX_TIE_US) are noise and not corrected; this when that spread
 * is not measured, and never more: exits of one barrier on one clock
 * differ by up to 140 ms (samples/10).  Any group of two or more members
 * measures its members' offsets from each other. */
#define HX_SKEW_MIN_US 250000

/* When no creation barrier's exits align the ranks' clocks (logs at level
 * error), a first failing rank that failed less than this before the next
 * rank is said to be by the servers' own clocks (a note; it is still
 * named).  With the clocks aligned, the next rank of another server that
 * failed closer than one creation's exits spread on one server (at least
 * an offset left under HX_SKEW_MIN_US; HX_SKEW_MIN_US when not measured)
 * gets the same note. */
#define HX_UNALIGNED_MARGIN_US (10 * 1000000LL)

/* A process whose logs all end this long before the job's logs begin is
 * of an earlier run and left out (twice the largest HCCL_EXEC_TIMEOUT the
 * logs echo when that is longer: a rank that died waits that long for
 * its peers' timeouts).  Files left out named in notes: the first
 * HX_LEFT_NOTED, then a count. */
#define HX_STALE_GAP_US (3600 * 1000000LL)
#define HX_LEFT_NOTED 8

/* A console line printed after HX_SILENCE_KEEP_S seconds or more in which
 * its file printed nothing keeps that silence with its records; a failure
 * whose hang is not determined that ends a silence of HX_SILENCE_WAIT_S
 * or more (and less than HX_SILENCE_MAX_S, past which two runs were
 * pasted one after the other) is read as a wait that ran out (inferred):
 * no work of the stack is silent that long and then fails at once. */
#define HX_SILENCE_KEEP_S 10
#define HX_SILENCE_WAIT_S 30
#define HX_SILENCE_MAX_S (6 * 3600)

/* A resident HCCL kernel whose main stream did not move for this long is
 * stalled (silent hang without an error line). */
#define HX_STALL_MIN_US (60 * 1000000LL)

/* HCCL's resident kernel prints its status (WaitFinishWhileLoop "Current
 * state") at most once every 30 s while it waits, the first at least 30 s
 * after the wait began (dfx::kPrintSqInterval, docs/HCCL-SOURCE-STRINGS.md
 * W1).  Two of one kernel's lines with the same head at least
 * HX_POOL_HELD_US apart show a kernel that holds its core and has not
 * moved; it still holds it when its last line is within HX_STATUS_LATE_US
 * of the newest status line of its rank.  Every core of a device so held
 * is the AICPU-exhaustion pattern while the job runs. */
#define HX_STATUS_PERIOD_US (30 * 1000000LL)
#define HX_POOL_HELD_US (25 * 1000000LL)
#define HX_STATUS_LATE_US (HX_STATUS_PERIOD_US + 15 * 1000000LL)

/* A job's own waits teach how long a healthy wait lasts there: a long
 * compute step with the next step's collectives already on every core
 * holds the pool as a deadlock does, then moves.  Once a rank's kernel has
 * waited W and then moved, a hold counts as the deadlock pattern only past
 * HX_POOL_MOVED_FACTOR * W. */
#define HX_POOL_MOVED_FACTOR 2

/* Communicators (groups) remembered per process for attribution: a
 * bounded-memory guard far above real jobs (TP, EP, DP, PP and MoE groups
 * make dozens, hundreds at most).  Past it a process keeps the ones with
 * the lowest ids and the report says how many were dropped. */
#define HX_MAX_GROUPS_PER_PROC 65536

/* Remote ranks remembered per rank as the ranks it waits on (wait
 * failures naming a peer, heartbeat LOST/STUCK reports); more are not
 * kept.  Root ranks named in the text report before "and N more". */
#define HX_MAX_WAIT_PEERS 8
#define HX_ROOTS_SHOWN 16

/* The diagnosis from facts (twophase.c): the rounds of fetching the ranks
 * a verdict needs and diagnosing again; of the roots and of the ranks
 * holding a cycle, how many are read in full (the others' facts stand in:
 * a verdict of every rank a root, 16,384 in the reference, reads eight);
 * one rank of each group, for so many groups. */
#define HX_FETCH_ROUNDS 4
#define HX_ROOTS_READ 8
#define HX_GROUP_REPS 64

/* Which threshold decided something in a run (hangdx_diagnosis.thr_hits). */
enum {
	HX_THR_LIST_CUT = 1u << 0,
	HX_THR_CYCLE_STARTS = 1u << 1,
	HX_THR_WAIT_TIE = 1u << 2,
	HX_THR_TIE = 1u << 3,
	HX_THR_SKEW_MIN = 1u << 4,
	HX_THR_STALL_MIN = 1u << 5,
	HX_THR_GROUPS = 1u << 6,
	HX_THR_CORES_WIDE = 1u << 7,
	HX_THR_GROUPS_CUT = 1u << 8,
	HX_THR_PEERS_CUT = 1u << 9,
	HX_THR_SDMA_REPORT = 1u << 10,
	HX_THR_CLOCK_ORDER = 1u << 11
};

#endif
