/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The revert point: before set or apply change anything, the live values of
 * the knobs about to change go to <runtime dir>/revert, with the values
 * about to be written, what made the change, when, and for which system
 * (the live one or a --sysroot).  `revert` writes them back exactly as the
 * kernel held them.  Every function works in the trusted runtime directory
 * dirfd (lock.h, statedir.h); dir is its path, for messages.
 * Implemented by state.c.
 *
 * The file (format 2) is lines that each end in LF, every field separated
 * by one space:
 *
 *   file    = header *record end
 *   header  = "numastatctl-revert 2 id=" id " for=" system " at=" time
 *             " by=" string LF
 *   record  = "knob " name " " string " " string " " flags LF
 *                        ; the value before, the value written
 *   end     = "end " count LF   ; count: the number of records, in decimal
 *   id      = 1*20DIGIT "-" 16(DIGIT / "a"-"f")
 *             ; nanoseconds since the epoch, 64 random bits: unique to it
 *   system  = "live" / string  ; the --sysroot, its real path
 *   time    = YYYY "-" MM "-" DD "T" hh ":" mm ":" ss "Z"   ; UTC
 *   name    = a knob name as knob_resolve() takes it, [A-Za-z0-9_.]
 *   string  = DQUOTE *(%x20-21 / %x23-5B / %x5D-7E / "\" DQUOTE / "\\" /
 *             "\x" 2(DIGIT / "a"-"f")) DQUOTE
 *             ; \xNN only for a byte below 0x20 or above 0x7e
 *   flags   = "-" / word *("," word)    ; word = 1*("a"-"z" / "-")
 *
 * So no byte of a value can end a line, start a record or a header, or
 * leave its field: every byte has one spelling.  Anything else, a record
 * after the end line or a second header included, is refused.  One flag
 * word is known: "side-effect", a knob the kernel changed because of
 * another write (a weight turns weighted interleave's auto off; WRITTEN is
 * the value it took then); such records come after all others, and revert
 * restores them last.  A reader refuses a word it does not know, so a
 * later version can add one (say "last") without a new format number
 * where an older reader must not go on.  A file with another version
 * number is refused; the format before this one (numastatctl 0.1.0: three
 * "#" lines, then "name = value" lines, a "# a side effect ..." line before
 * a side effect, no written values) is read as it was written.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

#define STATE_REVERT_FILE "revert"
#define STATE_FORMAT 2
/* 1 MiB: thousands of knobs; set and apply refuse to save more than revert reads. */
#define STATE_REVERT_MAX (1 << 20)
#define STATE_ID_MAX 40

/* What a revert point says of itself (its header). */
struct state_point {
	unsigned version;       /* STATE_FORMAT, or 1 for the format before it */
	char id[STATE_ID_MAX];  /* unique to this revert point; "" in format 1 */
	char by[128];           /* what made the change: "set", "apply throughput" */
	char at[32];            /* when, UTC: "2026-12-02T02:02:51Z" */
	bool live;              /* saved for the live system, else for: */
	char sysroot[PATH_MAX]; /* the --sysroot tree, its real path */
};

/*
 * Save the old values of the plan's ACT_WRITE items, and what each is about
 * to become, under a new id (in *saved when not NULL).  0, or -errno with why
 * (-EFBIG: more than revert would read).
 */
int state_save_prior(int dirfd, const char *dir, const struct plan *p, const char *by,
		     struct state_point *saved, char *why, size_t whylen);
/*
 * Load the saved values into a plan: want is the value before the change,
 * written (have_written) what the change wrote, every item optional (a
 * knob gone since is skipped) with origin "<file>:<line>"; h receives the
 * header.  Values are taken exactly as they were saved: they are what the
 * kernel held.  Returns the item count, -ENOENT when nothing is saved,
 * -EXDEV when saved for another system (live or --sysroot), or -errno /
 * -EBADMSG with why.
 */
int state_load_prior(int dirfd, const char *dir, struct plan *out, struct state_point *h, char *why,
		     size_t whylen);
/* The same from the bytes of a revert file (path names it in why); no system check. */
int state_parse_prior(const char *buf, size_t len, const char *path, struct plan *out,
		      struct state_point *h, char *why, size_t whylen);
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

/*
 * What the trial file (trial.h) shares with the revert point: the system
 * this run works on (live and sysroot of h), the check that h was saved
 * for it (0, or -EXDEV with "PATH: saved for X, not for Y"), and the
 * shapes of an id and of a time (the grammar above).
 */
void state_this_system(struct state_point *h);
int state_check_system(const struct state_point *h, const char *path, char *why, size_t whylen);
bool state_valid_id(const char *s);
bool state_valid_time(const char *s);
