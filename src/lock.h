/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One writer at a time: set, apply and revert hold an exclusive flock for
 * their whole read-plan-write cycle.  The kernel drops it when the process
 * ends, however it ends, so no stale lock survives a crash or a signal.
 */
#pragma once

#include <stddef.h>

/*
 * Lock <state_dir>/lock (creating the directory), or /run/numastatctl.lock
 * when the state directory cannot be made (read-only /var at early boot).
 * Blocks until the lock is free.  Returns the fd to keep open, or -errno.
 */
int lock_acquire(const char *state_dir, char *why, size_t whylen);
