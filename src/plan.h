/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Desired values against live ones, and the transaction that applies them:
 * every value is validated before a plan exists; execution saves what it
 * needs (prior values, counter snapshot), writes only what differs, reads
 * each value back, and on the first failure restores everything it changed.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "knobs.h"

enum plan_action {
	ACT_NONE,         /* not looked at yet */
	ACT_WRITE,        /* differs: will be written */
	ACT_UNCHANGED,    /* live value already equal */
	ACT_SKIPPED,      /* optional ('-') and not on this kernel */
	ACT_CHANGED,      /* written and read back equal */
	ACT_FAILED,       /* could not be read or written; err says why */
	ACT_ROLLED_BACK,  /* was changed, then restored after a later failure */
	ACT_NOT_RESTORED, /* was changed; restoring it failed too (err says why) */
	ACT_NOT_WRITTEN,  /* differed, but an earlier failure stopped the plan first */
};

struct plan_item {
	struct knob_ref ref;
	struct kval want;
	struct kval old;      /* live value before (valid unless ACT_SKIPPED/FAILED on read) */
	struct kval now;      /* read back after the write */
	bool have_old;
	bool optional;        /* '-' prefix: skip quietly where the kernel lacks it */
	char origin[128];     /* "file:line" of the assignment, "" on the command line */
	enum plan_action action;
	int err;              /* -errno, -EAGAIN: read back differs */
};

struct plan {
	struct plan_item *items;
	size_t n, cap;
};

/* Why plan_execute() wrote nothing and returned -ECANCELED. */
enum plan_refusal {
	REFUSED_NONE,
	REFUSED_REVERT_POINT, /* the revert point could not be saved (or the old one removed) */
	REFUSED_SNAPSHOT,     /* the counters could not be saved before numa_stat 1 -> 0 */
};

struct plan_opts {
	int run_fd;              /* the trusted runtime directory (lock.h), -1 for none */
	const char *run_dir;     /* its path, for messages */
	const char *data_dir;    /* counter snapshots go to <data_dir>/snapshots */
	bool no_snapshot;        /* --no-snapshot: allow numa_stat 1 -> 0 without one */
	bool no_revert_point;    /* --no-revert-point: change without one, forgetting the last */
	bool keep_prior;         /* revert: leave the saved values alone until it succeeded */
	const char *what;        /* "set", "apply default": recorded with prior values */
	/* Filled in by plan_execute(): */
	enum plan_refusal refused;
	bool forgot_prior;       /* --no-revert-point removed the revert point of an older change */
	char snapshot_path[512]; /* where the counters went before numa_stat 1 -> 0 */
	char why[512];           /* the reason of a refusal */
};

/* Add or replace (a later assignment of the same knob wins). 0 or -ENOMEM. */
int plan_add(struct plan *p, const struct knob_ref *ref, const struct kval *want,
	     bool optional, const char *origin);
/* Registry order first, then pass-through knobs by name: a stable order. */
void plan_sort(struct plan *p);
/*
 * Read every live value: ACT_WRITE, ACT_UNCHANGED, ACT_SKIPPED, or
 * ACT_FAILED.  Returns 0, or the first -errno (a missing knob that is not
 * optional is -ENOENT).
 */
int plan_read_live(struct plan *p);
/* True when some item is ACT_WRITE. */
bool plan_has_writes(const struct plan *p);
/*
 * Write every ACT_WRITE item in order.  Before the first write: the revert
 * point (the old values, or with no_revert_point the removal of the last
 * one) unless keep_prior, and a counter snapshot if vm.numa_stat goes
 * 1 -> 0.  SIGINT/SIGTERM/SIGHUP wait until the plan is done or rolled back.
 * Returns 0; -ECANCELED when a refusal wrote nothing (opts->refused and
 * opts->why say which and why); or the first write error after rolling back.
 */
int plan_execute(struct plan *p, struct plan_opts *opts);
void plan_free(struct plan *p);

/* After a failure before any write: every ACT_WRITE item becomes ACT_NOT_WRITTEN. */
void plan_abandon(struct plan *p);

/* "changed", "unchanged", "skipped", "failed", "rolled-back", ... */
const char *plan_action_name(enum plan_action a);
