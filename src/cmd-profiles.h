/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What apply, revert and status share with `profiles`: loading the configuration. */
#pragma once

#include <stdbool.h>

#include "profile.h"

/*
 * Load --config or the default files (refusing files others can write when
 * running as root).  With report, every problem is printed; returns EXIT_OK,
 * or EXIT_USAGE when the configuration has problems.
 */
int profiles_load(struct profile_config *c, bool report);
/* --state-dir when given, else [numastatctl] state_dir, else the built-in default. */
const char *profiles_state_dir(const struct profile_config *c);
/*
 * The state dir (lock, revert values, snapshots) that set, apply, revert,
 * selftest and bench share: --state-dir, else [numastatctl] state_dir (read
 * even from a configuration with problems), else the built-in default.
 */
const char *profiles_effective_state_dir(void);
/* For `status`: the configured profile and whether the live system matches it. */
void profiles_status(void);
