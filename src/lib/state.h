/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The revert point: before set or apply change anything, the live values of
 * the knobs about to change go to <runtime dir>/revert, with what made the
 * change and for which system (the live one or a --sysroot).  `revert`
 * writes them back exactly as the kernel held them.  Every function works
 * in the trusted runtime directory dirfd (lock.h, statedir.h); dir is its
 * path, for messages.  Implemented by state.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define STATE_REVERT_FILE "revert"
/* A revert file is a few lines per knob: anything larger was not written by us. */
#define STATE_REVERT_MAX 65536

/* Save old values of the plan's ACT_WRITE items.  0, or -errno with why. */
int state_save_prior(int dirfd, const char *dir, const struct plan *p, const char *what, char *why,
		     size_t whylen);
/*
 * Load the saved values into a plan (origin "<file>:<line>"); what receives
 * the recorded description ("'apply throughput' at 2026-..."). Values are
 * checked for shape only (printable, one line, shorter than KVAL_MAX): they
 * are what the kernel held.  Returns the item count, -ENOENT when nothing is
 * saved, -EXDEV when saved for another system (live or --sysroot), or
 * -errno / -EBADMSG with why.
 */
int state_load_prior(int dirfd, const char *dir, struct plan *out, char *what, size_t whatlen,
		     char *why, size_t whylen);
/*
 * Around a change: keep the saved values of the change before (a hard link
 * .revert.prev) while the revert point is replaced or removed, then drop
 * them (done) or put them back (restore: nothing changed, so the values to
 * revert to are still the older ones).
 */
void state_stash_prior(int dirfd);
void state_unstash_prior(int dirfd, bool restore);
/* Forget the revert point: 1 when one was removed, 0 when there was none, or -errno. */
int state_clear_prior(int dirfd);
