/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The neighbour that sets the same knobs: where sysctl.d(5) assigns a knob
 * of a plan, and what value it leaves.  Two readers matter and differ:
 * systemd-sysctl at boot (sysctl.d directories only; an explicit key beats a
 * glob) and procps `sysctl --system` by hand (the same directories plus
 * /lib/sysctl.d, then /etc/sysctl.conf; the last assignment wins).  In both,
 * a file name in an earlier directory masks the same name in a later one and
 * files are read in name order across directories.  Under --sysroot the
 * files are read inside the root.  Implemented in sysctld.c.
 * Implemented by sysctld.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

/* Where one assignment is, and what it says. */
struct sysctld_setting {
	char file[320]; /* logical path, "" when nothing assigns the knob */
	unsigned line;
	char value[KVAL_MAX]; /* as written */
	struct kval reads;    /* as the kernel reads it */
};

/* A plan item that sysctl.d sets to another value than the plan wants. */
struct sysctld_conflict {
	const struct plan_item *item;
	struct sysctld_setting boot;   /* what systemd-sysctl writes at boot */
	struct sysctld_setting system; /* what `sysctl --system` writes */
	bool boot_differs, system_differs;
	/* tuned writes the knob later at boot (tuned_mark_sysctld()), leaving tuned_value. */
	bool tuned_later;
	struct kval tuned_value;
};

struct sysctld_conflicts {
	struct sysctld_conflict *v;
	size_t n, cap;
};

/*
 * Every item of p that some sysctl.d file sets differently, comparing what
 * the kernel reads ("037" is octal there, "0x1f" hex).  A value the kernel
 * refuses changes nothing, so it is no conflict.  Unreadable files and lines are passed
 * over: this is advice, not a parser of record.  0 or -ENOMEM.
 */
int sysctld_conflicts_find(const struct plan *p, struct sysctld_conflicts *out);
void sysctld_conflicts_free(struct sysctld_conflicts *c);

/*
 * Whether numastatctl.service is enabled (its sysinit.target.wants link), so
 * that the profile is written after systemd-sysctl at boot.
 */
bool sysctld_boot_unit_enabled(void);
/*
 * What the kernel makes of a value written to ref: numbers as proc_dointvec
 * reads them (base 0, so "037" is octal), words as the registry reads them;
 * false when the kernel would refuse it.
 */
bool sysctld_kernel_reads(const struct knob_ref *ref, const char *raw, struct kval *out);
/* The conflict of item it, or NULL. */
const struct sysctld_conflict *sysctld_conflict_of(const struct sysctld_conflicts *c,
						   const struct plan_item *it);
