/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the `stat` and `status` commands share beyond lib/stat.h: the parts
 * that print messages and return EXIT_* codes.  Implemented by cmd-stat.c,
 * cmd-stat-prom.c, stat-interval.c and stat-pid.c.
 */
#pragma once

#include "stat-views.h"
#include "stat.h"
#include "why.h"

/*
 * Interval mode and --pid: implemented in stat-interval.c and stat-pid.c,
 * called by cmd-stat.c after option parsing and cmd_setup(); they print their
 * own messages (through log.h) and return an EXIT_* code.
 */
int stat_interval_run(const struct stat_opts *o);
int stat_pid_run(const struct stat_opts *o);

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

/* Read the files a view needs into nodes[] (ns: numastat, mi: meminfo, hp:
 * hugepages); per-node failures are reported.  EXIT_OK or EXIT_FAIL. */
int cmd_stat_read_nodes(const unsigned *ids, size_t n, struct stat_node *nodes, bool ns, bool mi,
			bool hp);

/*
 * stat --prometheus / --textfile on the nodes ids: read the nodes, every
 * registry knob and the configured profile's drift, then print the text
 * and/or write DIR/numastatctl.prom atomically.  Prints its own messages;
 * returns an EXIT_* code.
 */
int cmd_stat_prom_run(const struct stat_opts *o, const unsigned *ids, size_t n);
