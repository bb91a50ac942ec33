/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The A/B loop of bench: one warm-up round at value A (not kept), then
 * rounds alternating A B A B ..., so a slow drift of the machine (page cache,
 * a neighbour VM, thermal) falls on both values alike.  The knob goes back
 * to its original value on every path; a stop signal ends the loop after
 * the round in progress.  Never prints.  Implemented by bench-run.c.
 */
#pragma once

#include <stdbool.h>

#include "bench-fault.h"
#include "knobs.h"
#include "why.h"

#define BENCH_ROUNDS_MIN 4
#define BENCH_ROUNDS_MAX 1000

struct bench_plan {
	struct knob_ref ref;
	struct kval val[2];   /* A, B */
	struct fault_job job; /* stop is filled in by bench_run */
	unsigned rounds;      /* per value */
	bool no_snapshot;
	const char *run_dir;  /* the writers' lock */
	const char *data_dir; /* counter snapshots */
};

struct bench_samples {
	double *ns[2];  /* ns per fault of each round, per value */
	double *fps[2]; /* faults per second of each round, per value */
	unsigned done[2];
	struct kval orig; /* the knob's value before the run */
	char snapshot_path[512];
	int stop_signal; /* the signal that ended the run early, or 0 */
	bool touched;    /* the knob was written (and so had to be restored) */
	int restore_err; /* -errno when the original value could not be restored */
	char restore_why[WHY_MAX];
};

/*
 * Run the plan.  Returns 0; -EINTR after a stop signal (restored); -ECANCELED
 * when the counters could not be saved before vm.numa_stat 1 -> 0 (nothing
 * measured); or -errno with why.  In every case s->restore_err tells whether
 * the knob is back.  Free the samples with bench_samples_free().
 */
int bench_run(struct bench_plan *p, struct bench_samples *s, char *why, size_t whylen);
void bench_samples_free(struct bench_samples *s);
