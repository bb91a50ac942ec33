/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The other neighbour that sets NUMA knobs: tuned(8).  7 of its stock
 * profiles set kernel.numa_balancing or vm.zone_reclaim_mode, and
 * tuned.service starts in multi-user.target, after numastatctl.service, so
 * it writes last at every boot.  Read as tuned 2.20 (Debian 12) reads it:
 * the active profiles in /etc/tuned/active_profile; each profile
 * <dir>/<name>/tuned.conf, /etc/tuned before /usr/lib/tuned; [main]
 * include= first, then the profile, merged unit by unit (replace=, drop=,
 * enabled=); [variables]; [sysctl] units (any unit of type=sysctl) whose
 * uname_regex= and cpuinfo_regex= match this machine; values with the >/<
 * modifiers; then, with reapply_sysctl (tuned-main.conf, on by default),
 * the assignments of /run/sysctl.d, /etc/sysctl.d and /etc/sysctl.conf
 * written again after the profile.  Every file is read through sysfs.c, so
 * under --sysroot inside the root.  Implemented by tuned.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"
#include "sysctld.h"
#include "why.h"

/* What tuned is on this system. */
struct tuned_state {
	bool installed;        /* /usr/lib/tuned or /etc/tuned exists */
	bool enabled;          /* tuned.service is enabled (multi-user.target.wants) */
	bool running;          /* /run/tuned/tuned.pid exists */
	bool reapply_sysctl;   /* tuned-main.conf reapply_sysctl (default on) */
	char profile[256];     /* the active profile names, space separated ("": none) */
	char problem[WHY_MAX]; /* what tuned itself would fail on ("": nothing) */
};

/* A plan item that tuned leaves at another value than the plan wants. */
struct tuned_conflict {
	const struct plan_item *item;
	struct sysctld_setting set;       /* the active profile's assignment (line 0: none) */
	char set_profile[64];             /* the profile whose tuned.conf holds it */
	struct sysctld_setting reapplied; /* the sysctl.d assignment tuned writes after it */
	struct kval after;                /* what tuned leaves */
	bool after_known; /* false: a variable or function numastatctl cannot expand */
};

struct tuned_conflicts {
	struct tuned_conflict *v;
	size_t n, cap;
};

/* Read what tuned is here; a file that cannot be read leaves its default.  0 or -ENOMEM. */
int tuned_read(struct tuned_state *st);
/* Whether tuned writes knobs here: it is enabled or running, with a profile. */
bool tuned_active(const struct tuned_state *st);
/*
 * Every item of p that tuned, as st says it is, leaves at another value than
 * the item wants, as the kernel reads both.  Nothing when tuned is not
 * active.  A profile tuned cannot load is said in st->problem (tuned then
 * applies nothing).  0 or -ENOMEM.
 */
int tuned_conflicts_find(struct tuned_state *st, const struct plan *p, struct tuned_conflicts *out);
void tuned_conflicts_free(struct tuned_conflicts *c);
/* Mark the sysctl.d conflicts whose knob tuned writes after numastatctl.service. */
void tuned_mark_sysctld(const struct tuned_conflicts *t, struct sysctld_conflicts *s);
/* The conflict of item it, or NULL. */
const struct tuned_conflict *tuned_conflict_of(const struct tuned_conflicts *c,
					       const struct plan_item *it);
