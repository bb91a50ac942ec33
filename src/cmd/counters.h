/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the commands say about the NUMA counters around a change that zeroes
 * them (knob_change_zeroes_counters) and while they are frozen at zero
 * (knob_freezes_counters): each sentence written once, whichever command
 * says it.  They name vm.numa_stat, the one knob the registry flags so (a
 * unit test keeps it one).  Implemented by counters.c.
 */
#pragma once

#include <stdbool.h>

/* The counters could not be saved, so nothing went 1 -> 0: why, and the way out. */
void counters_refused(const char *why);
/*
 * --dry-run of vm.numa_stat 1 -> 0: that the real run zeroes the counters,
 * and saves them to <data_dir>/snapshots first (unless no_snapshot).
 */
void counters_would_zero(const char *data_dir, bool no_snapshot);
/* The counters were saved and then zeroed: where they went. */
void counters_saved(const char *snapshot_path);
/* "vm.numa_stat is 0: NUMA counters are frozen at zero" (status's warning). */
const char *counters_frozen_text(void);
/*
 * stat's warning: that text, what it means for the view (", every change
 * will read 0", or ""), and how to turn counting on.
 */
void counters_warn_frozen(const char *consequence);
