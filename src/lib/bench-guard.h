/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flipping one knob for a while and putting it back, for selftest --toggle
 * and bench: the writers' lock is held from the first read to the restore
 * (no set/apply/revert interleaves), the NUMA counters are saved before
 * vm.numa_stat first goes 1 -> 0, and SIGINT/SIGTERM/SIGHUP only raise a
 * flag, so the command gets to restore the value before it exits.  The
 * revert state is left alone: the original value is restored here, and the
 * values saved by the last set or apply stay revertible.
 * Implemented by bench-guard.c.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "knobs.h"
#include "lock.h"

struct knob_guard {
	struct knob_ref ref;
	struct kval orig;     /* the value before the command touched it */
	struct kval expect;   /* what the knob should hold now: orig, or our last write */
	bool changed;         /* the live value may differ from orig */
	bool no_snapshot;     /* --no-snapshot */
	const char *data_dir; /* counter snapshots go to <data_dir>/snapshots */
	struct state_lock lock;
	char snapshot_path[512]; /* "" until the counters were saved */
	struct sigaction old[3];
};

/* The signal that asked the command to stop, or 0. */
extern volatile sig_atomic_t bench_guard_stop;

/*
 * Take the lock in the runtime directory run_dir, read the original value,
 * catch the stop signals.  Returns 0 or -errno with why (and nothing held).
 */
int bench_guard_begin(struct knob_guard *g, const struct knob_ref *ref, const char *run_dir,
		      const char *data_dir, bool no_snapshot, char *why, size_t whylen);

/*
 * Write v (if it differs from the live value) and read it back; signals
 * wait until it is done.  Before the first vm.numa_stat 1 -> 0 the
 * counters are saved; -ECANCELED when they cannot be (why says why).
 * -EBUSY when someone else changed the knob since (a raw write: set and
 * apply wait for the lock), which would spoil any measurement.
 */
int bench_guard_set(struct knob_guard *g, const struct kval *v, char *why, size_t whylen);

/*
 * Restore the original value if it was changed, release the lock and the
 * signals.  Returns 0 or -errno with why (the value could not be restored).
 */
int bench_guard_end(struct knob_guard *g, char *why, size_t whylen);
