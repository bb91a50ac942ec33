/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Desired values against live ones: every value is validated before a
 * plan exists; plan_read_live() says what differs.  plan-execute.h applies
 * a plan.  Implemented by plan.c.
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
	/* revert: neither the saved value nor what the change wrote: changed since, left alone */
	ACT_CHANGED_SINCE,
};

struct plan_item {
	struct knob_ref ref;
	struct kval want;
	struct kval old; /* live value before (valid unless ACT_SKIPPED/FAILED on read) */
	struct kval now; /* read back after the write */
	/* revert: what the change being undone wrote (state.h), when have_written */
	struct kval written;
	bool have_old;
	bool have_written;
	bool optional; /* '-' prefix: skip quietly where the kernel lacks it */
	/*
	 * Not asked for: the kernel changes it when a later item is written
	 * (a weight turns mm.mempolicy.weighted_interleave.auto off).  Written
	 * first, so a rollback restores it last; saved after the others, so
	 * revert restores it last.
	 */
	bool side_effect;
	/* A side effect the kernel writes (a weight auto derives): read back, never written. */
	bool derived;
	char origin[128]; /* "file:line" of the assignment, "" on the command line */
	enum plan_action action;
	int err; /* -errno, -EAGAIN: read back differs */
};

struct plan {
	struct plan_item *items;
	size_t n, cap;
};

/* Add or replace (a later assignment of the same knob wins). 0 or -ENOMEM. */
int plan_add(struct plan *p, const struct knob_ref *ref, const struct kval *want, bool optional,
	     const char *origin);
/*
 * Put the knob's change from old to want in front of the plan, as a side
 * effect (ACT_WRITE, side_effect).  0 or -ENOMEM.
 */
int plan_add_side_effect(struct plan *p, const struct knob_ref *ref, const struct kval *old,
			 const struct kval *want);
/* Registry order first, then pass-through knobs by name: a stable order. */
void plan_sort(struct plan *p);
/*
 * Read every live value: ACT_WRITE, ACT_UNCHANGED, ACT_SKIPPED, or
 * ACT_FAILED.  Returns 0, or the first -errno (a missing knob that is not
 * optional is -ENOENT).
 */
int plan_read_live(struct plan *p);
/*
 * revert: every ACT_WRITE item whose live value is not the one the change
 * wrote (have_written) becomes ACT_CHANGED_SINCE: someone else's value,
 * left alone.  When there is one, a side effect to restore becomes
 * ACT_NOT_WRITTEN: turning weighted interleave's auto on again would
 * replace the weight left alone.  Returns how many items are left so.
 */
size_t plan_keep_changed_since(struct plan *p);
/* True when some item is ACT_WRITE. */
bool plan_has_writes(const struct plan *p);
void plan_free(struct plan *p);

/* After a failure before any write: every ACT_WRITE item becomes ACT_NOT_WRITTEN. */
void plan_abandon(struct plan *p);

/* "changed", "unchanged", "skipped", "failed", "rolled-back", ... */
const char *plan_action_name(enum plan_action a);
