/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes of a cgroup and of the groups below it (cgroup.procs of
 * each), for the placement plan of a unit, cgroup or container: its
 * processes' own mappings and policies.  Implemented by cg-procs.c.
 */
#pragma once

#include <stddef.h>

/* Levels below the cgroup that are read, and processes kept (the rest are counted). */
#define CG_PROCS_DEPTH 8
#define CG_PROCS_MAX 65536

/*
 * The pids of cg (a path under root) and its descendants, sorted, each
 * once, at most CG_PROCS_MAX; *more gets how many were left out.  A group
 * that went meanwhile is skipped.  Returns the count with *pids malloc'ed
 * (NULL for none), -ENOENT when cg itself has no cgroup.procs, -ENOMEM.
 */
int cg_procs_read(const char *root, const char *cg, unsigned **pids, size_t *more);
