/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trials on the command line: set --try and apply --try make their change
 * as usual and arm its revert (trial.h, trial-timer.h), after measuring a
 * baseline of the counters; revert, confirm, status and trial read and end
 * them.  Implemented by try.c.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "plan-execute.h"
#include "trial.h"

struct out_doc;
struct out_table;

/* A trial lasts 5 seconds to a day; its baseline up to an hour, by default as long, up to 60 s. */
#define TRY_MIN 5
#define TRY_MAX (24 * 3600)
#define TRY_BASELINE_MAX 3600
#define TRY_BASELINE_DEFAULT 60

/* The options set and apply share, in their option tables and --help. */
/* clang-format off */
#define TRY_OPTIONS(try_val, baseline_val, foreground_val)                              \
	{ "try", required_argument, (try_val), "<time>",                                 \
	  "make the change a trial: revert it after <time>\n"                            \
	  "(20s, 5m, 1h) unless 'numastatctl confirm' keeps it" },                       \
	{ "baseline", required_argument, (baseline_val), "<time>",                       \
	  "with --try: first measure the counters this long,\n"                          \
	  "for 'numastatctl trial' (default: as long as the\n"                           \
	  "trial, at most 60s; 0: not at all; else at least 3s)" },                      \
	{ "foreground", no_argument, (foreground_val), NULL,                             \
	  "with --try: wait in this terminal, not with a\n"                              \
	  "systemd timer; revert when the time is up or the\n"                           \
	  "terminal goes" }
/* clang-format on */

struct try_opts {
	uint64_t secs; /* --try; 0: no trial */
	uint64_t baseline;
	bool baseline_given, foreground;
};

/* --try or --baseline's argument; EXIT_OK, or EXIT_USAGE after saying why. */
int try_parse(struct try_opts *t, bool baseline, const char *arg);
/*
 * After option parsing: --baseline or --foreground without --try, --try
 * with an option that writes nothing or keeps no revert point (conflict,
 * "--dry-run"; NULL for none), --foreground with -J.  EXIT_OK or EXIT_USAGE.
 */
int try_check(struct try_opts *t, const char *conflict);

/* A trial on its way, from the baseline to the wait. */
struct try_run {
	const struct try_opts *o;
	const struct plan *p;
	struct trial t;
	bool armed;     /* the timer is armed */
	bool made;      /* the change was made: the trial runs */
	bool no_change; /* the change changed nothing: no trial */
	bool blocked;   /* --foreground: SIGINT, SIGTERM, SIGHUP held from the change on */
	sigset_t old;
	int dirfd; /* the runtime directory, while the lock is held */
	const char *dir;
};

/*
 * Before the lock: refuse a trial that cannot be armed (no systemd and no
 * --foreground: exit 1) or that a running trial forbids, then measure the
 * baseline (Ctrl-C ends the run: nothing is changed yet).  p is the plan:
 * nothing is measured for a change that would change nothing.  EXIT_OK or
 * an exit code after saying why.
 */
int try_begin(struct try_run *r, const struct try_opts *o, struct plan *p);
/* Under the lock: plan_execute() saves the trial and arms it before the first write. */
void try_arm(struct try_run *r, struct plan_opts *po);
/* After plan_execute() returned rc, under the lock: the trial runs when the change was made. */
void try_made(struct try_run *r, int rc);
/* The JSON object of the trial that runs ({"id", "reverts_at", ...}), or NULL. */
struct out_table *try_json(const struct try_run *r);
/* After the report, in text: when the change reverts, and how to keep it. */
void try_say(const struct try_run *r);
/*
 * After the lock: with --foreground, wait for an answer on stdin, the
 * time, another terminal's confirm or a signal, and revert or keep the
 * change.  Returns the exit code (rc when there is nothing to wait for).
 */
int try_wait(struct try_run *r, int rc);
void try_free(struct try_run *r);

/*
 * Every writer, under the lock: a running trial refuses set and apply
 * (exit 1, naming confirm and revert).  EXIT_OK or EXIT_FAIL.
 */
int try_refuse_running(int dirfd, const char *dir);
/*
 * The trial of the revert point whose id is revert_id, when it runs: 1
 * with t filled (trial_free() it), 0 when none runs, -errno when the trial
 * file cannot be read (said here, as a warning).
 */
int try_running(int dirfd, const char *dir, const char *revert_id, struct trial *t);
/*
 * End trial t (how: confirmed or reverted): its end reading, saved with
 * its state, and its timer stopped (a failure said as a warning).  0, or
 * -errno when it could not be saved (said here).
 */
int try_end(int dirfd, const char *dir, struct trial *t, enum trial_state how);
/* The id of the revert point in dir into id, "" when there is none or it cannot be read. */
void try_revert_id(int dirfd, const char *dir, char *id, size_t len);
/*
 * t (NULL: null) as the object "trial" of d: {"id", "by", "state",
 * "armed", "unit", "pid", "started", "seconds", "reverts_at", "ended"},
 * and what it changed as the array knobs_name: [{"name", "old", "new"}].
 * 0 or -errno with why.
 */
int try_trial_json(const struct trial *t, const char *knobs_name, struct out_doc *d, char *why,
		   size_t whylen);
/* One line on t for status: running (until when), or how it ended. */
void try_status_line(const struct trial *t, bool runs, char *buf, size_t len);
/* "2026-12-02T05:00:20Z" of a CLOCK_REALTIME time in nanoseconds. */
void try_time(int64_t ns, char *buf, size_t len);
/* "vm.x 0 -> 1, vm.y 2 -> 3": what the trial changed. */
void try_knobs_text(const struct trial *t, char *buf, size_t len);
