/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `stat` command: its views (stat-view.h), each one object in a file of
 * its own, the table that lists them and its whole option table (for
 * tests/gen-options.c), and the per-node locality summary of `status`.
 * Implemented by cmd-stat.c, stat-view-balancing.c, stat-view-cgroup.c,
 * stat-view-counters.c, stat-view-migration.c, stat-view-pid.c, stat-view-reasons.c,
 * stat-view-reclaim.c and stat-view-tiers.c.
 */
#pragma once

#include "cmd.h"
#include "stat-view.h"
#include "stat.h"
#include "why.h"

/* The views, and the table of them, NULL-terminated: the counter table first. */
extern const struct stat_view stat_view_counters, stat_view_pid, stat_view_balancing,
	stat_view_tiers, stat_view_cgroup, stat_view_reclaim, stat_view_migration,
	stat_view_reasons;
extern const struct stat_view *const cmd_stat_views[];
/* stat's options, the views' last (as --help lists them); { 0 }-terminated. */
const struct cmd_option *cmd_stat_options(void);

/* The per-node locality summary of `status` (cmd-status.c), in cmd-stat.c. */
struct stat_summary {
	struct stat_opts o; /* its columns */
	unsigned *ids;
	struct stat_row *rows; /* err != 0: unreadable, why in whys[i] */
	char (*whys)[WHY_MAX];
	size_t n; /* 0: no NUMA nodes here */
};
/* Read every node's counters; 0 or -ENOMEM. */
int cmd_stat_summary_read(struct stat_summary *s);
/* Its heading and table on stdout; EXIT_*. */
int cmd_stat_summary_print(const struct stat_summary *s);
void cmd_stat_summary_free(struct stat_summary *s);
