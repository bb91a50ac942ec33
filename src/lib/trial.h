/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A trial: a change by set --try or apply --try that is reverted when its
 * time is up unless it is confirmed.  Its revert point is the usual one
 * (state.h), with the same id; the trial file, <runtime dir>/trial, holds
 * the rest: how the revert is armed, when, what it changed, the counters
 * of the baseline before the change and of the trial's window, and how it
 * ended.  A new trial replaces it; the report reads it after the trial
 * ended too.  Every function works in the trusted runtime directory dirfd
 * (statedir.h); dir is its path, for messages.  Implemented by trial.c.
 *
 * The file (format 1), in the revert file's lines and fields (fields.h):
 *
 *   file     = header trial *knob [baseline] start [finish] end
 *   header   = "numastatctl-trial 1 id=" id " for=" system " by=" string
 *              " armed=" ("timer" / "foreground") " pid=" 1*DIGIT LF
 *              ; id and system as in state.h; pid: the one that waits
 *              ; (foreground), 0 for a timer
 *   trial    = "trial " ns " " 1*DIGIT LF ; when it was armed, its seconds
 *   knob     = "knob " name " " string " " string LF ; before, written
 *   baseline = reading("baseline-start") reading("baseline-end") *spread
 *   start    = reading("start")        ; right before the first write
 *   finish   = reading("end") "ended " ("confirmed" / "reverted") " " ns LF
 *   reading(w) = "reading " w " " ns " " ns LF 1*count
 *              ; CLOCK_REALTIME and CLOCK_MONOTONIC, in nanoseconds
 *   count    = "count " scope *(" " key "=" 1*DIGIT) LF
 *              ; scope "all" first, then node ids ascending; key: a name
 *              ; of trial_key_name(), each at most once
 *   spread   = "spread " metric " " scope " " 1*DIGIT 3(" " 1*DIGIT) LF
 *              ; a metric's name (trial_metrics[]), how many one-second
 *              ; values, their standard deviation, least and largest, in
 *              ; thousandths (of an event per second, or of a percent)
 *   end      = "end " 1*DIGIT LF ; the number of lines between header and end
 *
 * Numbers are decimal, without signs or leading zeros; anything else (an
 * unknown key, a scope twice, a line out of order or after the end, a
 * file cut short, another format number) is refused with "file:line".
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs.h"
#include "state.h"
#include "trial-counters.h"

#define TRIAL_FILE "trial"
#define TRIAL_FORMAT 1
/* 1024 nodes of every key in four readings take about 1 MiB. */
#define TRIAL_FILE_MAX (4 << 20)

enum trial_armed {
	TRIAL_TIMER,      /* a transient systemd timer runs `revert --trial ID` */
	TRIAL_FOREGROUND, /* the process that made the change waits in its terminal */
};

enum trial_state {
	TRIAL_RUNNING,
	TRIAL_CONFIRMED,
	TRIAL_REVERTED,
};

enum trial_when {
	TRIAL_BASE_START,
	TRIAL_BASE_END,
	TRIAL_START,
	TRIAL_END,
	TRIAL_READINGS,
};

struct trial_knob {
	char name[KNOB_NAME_MAX];
	char before[KVAL_MAX], written[KVAL_MAX];
};

struct trial {
	struct state_point point; /* id (the revert point's), for=, by=; at is unused */
	enum trial_armed armed;
	uint64_t pid;
	int64_t start_ns; /* CLOCK_REALTIME when it was armed */
	uint64_t seconds; /* how long it runs */
	struct trial_knob *knobs;
	size_t n_knobs, cap_knobs;
	struct trial_counters reading[TRIAL_READINGS]; /* n == 0: not taken */
	struct trial_spreads spreads;
	enum trial_state state;
	int64_t ended_ns;
};

/* Add what a knob was and what the change wrote.  0 or -ENOMEM. */
int trial_add_knob(struct trial *t, const char *name, const char *before, const char *written);
/* When the armed revert runs: start + seconds, in CLOCK_REALTIME nanoseconds. */
int64_t trial_deadline_ns(const struct trial *t);
/* "running", "confirmed", "reverted"; "timer", "foreground"; "start", "end", ... */
const char *trial_state_name(enum trial_state s);
const char *trial_armed_name(enum trial_armed a);

/*
 * Save t as <dir>/trial, replacing the one before (atomic-file.h).  0, or
 * -errno with why (-EFBIG: larger than TRIAL_FILE_MAX).
 */
int trial_save(int dirfd, const char *dir, const struct trial *t, char *why, size_t whylen);
/*
 * Load <dir>/trial (checked as statedir.h says).  0, -ENOENT when there is
 * none, -EXDEV when it was saved for another system, or -errno / -EBADMSG
 * with why.
 */
int trial_load(int dirfd, const char *dir, struct trial *t, char *why, size_t whylen);
/* The same from the bytes of a trial file (path names it in why); no system check. */
int trial_parse(const char *buf, size_t len, const char *path, struct trial *t, char *why,
		size_t whylen);
void trial_free(struct trial *t);
/* Whether <dir>/trial may be there: false only when it surely is not (ENOENT). */
bool trial_present(int dirfd);
/*
 * The same by the directory's path, before it is opened and checked (a
 * look, not a read: status asks it first, as the trust checks cost more).
 */
bool trial_present_in(const char *dir);
/* Remove <dir>/trial: 1 when there was one, 0 when not, or -errno. */
int trial_clear(int dirfd);
/*
 * Around a new trial's file: keep the one before (a hard link .trial.prev)
 * until the change is made (restore false: dropped) or did not happen
 * (restore true: put back, or the new one removed when there was none).
 */
void trial_stash(int dirfd);
void trial_unstash(int dirfd, bool restore);
