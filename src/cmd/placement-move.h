/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement --move: the plan shown, then carried out by numastatctl itself
 * (src/lib/page-move.h), reported per process and node pair, and checked
 * against numa_maps read again.  Implemented by placement-move.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "placement.h"

/*
 * Show the moves of the targets' plans (p[0..n), each a process's or a
 * cgroup's processes'); unless dry_run, carry them out.  json: one JSON
 * document with the moves.  Returns EXIT_OK when every planned page moved
 * (or nothing was planned, or dry_run), EXIT_FAIL when the result differs
 * from the plan (pages shared, gone or failed, a process gone, Ctrl-C).
 */
int placement_move_run(const struct placement *const *p, size_t n, bool dry_run, bool json);
