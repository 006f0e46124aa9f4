/*
 * check_int.h - the result object of `hangdx check` (struct hangdx_check)
 * shared by check.c (the public API), witness.c (which fills the witness)
 * and the writers of the replay scenario.
 */
#ifndef HX_CHECK_INT_H
#define HX_CHECK_INT_H

#include "check.h"

struct ck_grant {               /* one AICPU core grant of the witness */
	uint32_t rank;
	uint8_t kernel;             /* 1: HCCL kernel {kernel: name, op: n};
				       0: AICPU op {aicpu: stream, task: n} */
	char name[72];
	uint32_t n;
};

struct ck_seqitem {             /* one step of the witness, for `sequence:` */
	uint32_t rank;
	uint32_t stream;            /* static hx stream; UINT32_MAX: a host call */
	uint32_t n;                 /* call number or task position */
};

struct hangdx_check {
	struct hangdx_ctx *ctx;
	const struct hangdx_scenario *sc;
	enum hangdx_check_verdict verdict;
	uint64_t states, transitions;
	double seconds;
	bool symmetric, symmetry;
	bool lockstep;              /* witness from the lockstep search */
	bool pool_abstraction;      /* safe by the unbounded-pool search */
	char **steps;
	size_t nsteps, capsteps;
	char **blocked;
	size_t nblocked, capblocked;
	char cycle[2048];
	size_t cycle_len;
	struct ck_grant *grants;
	size_t ngrants, capgrants;
	struct ck_seqitem *seq;     /* the witness as a sequence of steps */
	size_t nseq, capseq;
	char **slabel;              /* label of each static stream named */
	size_t nslabel;
};

int ck_witness(struct hangdx_check *ck, struct ck_model *m,
	       const struct ck_result *res);

#endif
