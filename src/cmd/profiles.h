/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What apply, revert, status and other commands share with `profiles`:
 * loading the configuration.  Implemented by profiles.c.
 */
#pragma once

#include <stdbool.h>

#include "plan.h"
#include "profile.h"
#include "sysctld.h"
#include "tuned.h"
#include "why.h"

/* The configuration's layers, the highest first (profile.h): /etc, /run, /usr/lib. */
extern const char *const profiles_conf_dirs[];
/*
 * Load --config or the default files (refusing files others can write when
 * running as root).  With report, every problem is printed; returns EXIT_OK,
 * or EXIT_USAGE when the configuration has problems.
 */
int profiles_load(struct profile_config *c, bool report);
/*
 * "no configuration file: looked for numastatctl.conf and
 * numastatctl.d/ *.conf in /etc, /run and /usr/lib" (the built-in layers).
 */
void profiles_none_text(char *buf, size_t len);
/*
 * Where counter snapshots are kept: --state-dir, else [numastatctl]
 * state_dir, else the built-in default.  As root, a configuration file that
 * others could write is refused as a whole, so only a trusted file moves
 * them; the revert point and the lock never move with the configuration
 * (cmd_run_dir()).
 */
const char *profiles_data_dir(const struct profile_config *c);
/* The same, loading the configuration (even one with problems elsewhere). */
const char *profiles_effective_data_dir(void);
/* For `status`: the configured profile and whether the live system matches it. */
struct profile_state {
	enum { PSTATE_NONE, PSTATE_BROKEN, PSTATE_CHECKED } kind;
	char name[PROFILE_NAME_MAX];      /* "" when none is configured */
	bool no_files;                    /* PSTATE_NONE: not even a configuration file */
	char problem[WHY_MAX];            /* PSTATE_BROKEN: why it cannot be checked */
	struct plan plan;                 /* PSTATE_CHECKED: live values read */
	struct sysctld_conflicts sysctld; /* PSTATE_CHECKED: what sysctl.d sets otherwise */
	char sysctld_problem[128];        /* why sysctl.d could not be compared ("" if it was) */
	struct tuned_state tuned;         /* PSTATE_CHECKED: tuned here */
	struct tuned_conflicts tunedc;    /* PSTATE_CHECKED: what tuned leaves otherwise */
};
/*
 * What sysctl.d and tuned set otherwise than plan p: the conflicts of each,
 * the sysctl.d ones marked where tuned writes later.  A failure is said in
 * problem (advice: the caller goes on).
 */
void profiles_neighbours(const struct plan *p, struct sysctld_conflicts *s, struct tuned_state *ts,
			 struct tuned_conflicts *t, char *problem, size_t len);
void profiles_state(struct profile_state *st);
void profiles_state_free(struct profile_state *st);
/* A knob of the profile differs from the live value, or cannot be read. */
bool profiles_state_differs(const struct profile_state *st);
/* The profile line of `status` (nothing when broken: status warns). */
void profiles_status(const struct profile_state *st);
