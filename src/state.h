/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prior values for `revert`: before set/apply change anything, the live
 * values of the knobs about to change go to <state_dir>/revert.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define STATE_REVERT_FILE "revert"

/* Save old values of the plan's ACT_WRITE items.  0, or -errno with why. */
int state_save_prior(const char *state_dir, const struct plan *p, const char *what,
		     char *why, size_t whylen);
/*
 * Load the saved values into a plan (origin "<file>:<line>"); what receives
 * the recorded description ("apply throughput at 2026-..."). Returns the
 * item count, -ENOENT when nothing is saved, or -errno / -EBADMSG with why.
 */
int state_load_prior(const char *state_dir, struct plan *out, char *what, size_t whatlen,
		     char *why, size_t whylen);
/*
 * Around a change: keep the saved values of the change before (a hard link
 * <state_dir>/.revert.prev) while state_save_prior() replaces them, then drop
 * them (done) or put them back (restore: the change was rolled back, so the
 * values to revert to are still the older ones).
 */
void state_stash_prior(const char *state_dir);
void state_unstash_prior(const char *state_dir, bool restore);
/* After a successful revert: nothing left to revert.  0 or -errno. */
int state_clear_prior(const char *state_dir);
