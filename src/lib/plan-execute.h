/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transaction that applies a plan: it saves what it needs first (the
 * revert point through state.h, a counter snapshot through snapshot.h),
 * writes only what differs, reads each value back, and on the first failure
 * restores everything it changed.  Implemented by plan-execute.c.
 */
#pragma once

#include "plan.h"
#include "state.h"
#include "why.h"

/* Why plan_execute() wrote nothing and returned -ECANCELED. */
enum plan_refusal {
	REFUSED_NONE,
	REFUSED_REVERT_POINT, /* the revert point could not be saved (or the old one removed) */
	REFUSED_SNAPSHOT,     /* the counters could not be saved before numa_stat 1 -> 0 */
	REFUSED_SIGNAL,       /* SIGINT, SIGTERM or SIGHUP came before the first write */
	REFUSED_STEP,         /* the caller's before_write step failed (a trial not armed) */
};

struct plan_opts {
	int run_fd;           /* the trusted runtime directory (lock.h), -1 for none */
	const char *run_dir;  /* its path, for messages */
	const char *data_dir; /* counter snapshots go to <data_dir>/snapshots */
	bool no_snapshot;     /* --no-snapshot: allow numa_stat 1 -> 0 without one */
	bool no_revert_point; /* --no-revert-point: change without one, forgetting the last */
	bool keep_prior;      /* revert: leave the saved values alone until it succeeded */
	const char *what;     /* "set", "apply default": recorded with prior values */
	/*
	 * The caller's own step once the revert point is saved (revert_id
	 * set) and before the first write, with the signals held (a trial
	 * saves its file and arms its revert there): nonzero cancels the
	 * change (REFUSED_STEP, with why).  not_made undoes it when the change
	 * then does not happen after all (a signal, a rollback).
	 */
	int (*before_write)(struct plan_opts *o, void *ctx);
	void (*not_made)(struct plan_opts *o, void *ctx);
	void *ctx;
	/* Filled in by plan_execute(): */
	enum plan_refusal refused;
	bool forgot_prior;       /* --no-revert-point removed the revert point of an older change */
	char snapshot_path[512]; /* where the counters went before numa_stat 1 -> 0 */
	char revert_id[STATE_ID_MAX]; /* the id of the revert point saved, "" for none */
	char why[WHY_MAX];            /* the reason of a refusal */
};

/*
 * Write every ACT_WRITE item in order.  Before the first write: the revert
 * point (the old values, or with no_revert_point the removal of the last
 * one) unless keep_prior, and a counter snapshot if vm.numa_stat goes
 * 1 -> 0.  SIGINT/SIGTERM/SIGHUP wait from the first file saved to the last
 * file put right: one that came before the first write cancels the change
 * (nothing written, the older revert point back, the snapshot removed),
 * one that came later waits until the plan is done or rolled back; either
 * then ends the run as the signal does, with everything in place.  The
 * older revert point comes back when the change is rolled back too, and a
 * snapshot stays only when vm.numa_stat 1 -> 0 was written.
 * Returns 0; -ECANCELED when a refusal wrote nothing (opts->refused and
 * opts->why say which and why); or the first write error after rolling back.
 */
int plan_execute(struct plan *p, struct plan_opts *opts);
/* Whether the write that zeroes the NUMA counters went through (even if rolled back later). */
bool plan_zeroed_counters(const struct plan *p);
