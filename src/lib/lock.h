/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One writer at a time: set, apply, revert, selftest --toggle, bench and
 * placement --move hold an exclusive flock on <runtime dir>/lock for their
 * whole read-plan-write cycle.  The kernel drops it when the process ends,
 * however it ends, so no stale lock survives a crash or a signal.
 * Implemented by lock.c.
 */
#pragma once

#include <stddef.h>

struct state_lock {
	int fd;    /* the flock'ed file */
	int dirfd; /* the trusted runtime directory, for the revert point */
	const char *dir;
};

/*
 * Open the runtime directory dir (creating it, checking it like the
 * configuration: statedir.h) and block until its lock is ours.  0, or
 * -errno with why (nothing held).
 */
int lock_acquire(struct state_lock *l, const char *dir, char *why, size_t whylen);
void lock_release(struct state_lock *l);
