/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prior values for `revert`: before set/apply change anything, the live
 * values of the knobs about to change go to <state_dir>/revert.
 */
#pragma once

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
/* After a successful revert: nothing left to revert.  0 or -errno. */
int state_clear_prior(const char *state_dir);
