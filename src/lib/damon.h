/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DAMON as the kernel shows it (5.18+): the kdamonds an administrator or a
 * tool made through sysfs (/sys/kernel/mm/damon/admin/kdamonds/K, each
 * with contexts C and schemes S: action, target_nid, stats/sz_applied),
 * and DAMON_STAT (6.17+, /sys/module/damon_stat/parameters/enabled), whose
 * kdamond is a kernel thread that sysfs does not list: found in /proc by
 * its name (kdamond.N) and a PID no sysfs kdamond has.  A scheme whose
 * action is migrate_hot or migrate_cold (6.11+) moves pages; the kernel
 * counts what it moved in sz_applied, refreshed when
 * "update_schemes_stats" is written to its kdamond's state.
 * Implemented by damon.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DAMON_ADMIN "/sys/kernel/mm/damon/admin/kdamonds"
#define DAMON_STAT_ENABLED "/sys/module/damon_stat/parameters/enabled"

struct damon_scheme {
	unsigned kdamond, context, scheme;
	bool on;         /* its kdamond's state is "on" */
	long pid;        /* its kdamond's, or -1 */
	char ops[16];    /* the context's operations: paddr, vaddr, fvaddr */
	char action[24]; /* migrate_cold, pageout, ... */
	int target_nid;  /* -1: the file is absent (before 6.11) */
	bool have_stats;
	uint64_t sz_applied; /* bytes the action was applied to (moved, for a migrate action) */
	uint64_t nr_applied;
};

struct damon_state {
	bool sysfs;             /* the kernel has DAMON's sysfs interface */
	struct damon_scheme *s; /* every scheme of every kdamond */
	size_t n, cap;
	bool stat_module;        /* DAMON_STAT is built in */
	bool stat_enabled;       /* ... and enabled */
	long stat_pid;           /* its kdamond, or -1 (not found) */
	uint64_t stat_cpu_ticks; /* that thread's utime + stime, in clock ticks */
};

/*
 * Read every kdamond's schemes and DAMON_STAT.  refresh: first ask each
 * running kdamond to update its schemes' stats (a write to its state:
 * never under --sysroot).  0, or -errno with why; a kernel without DAMON
 * is 0 with nothing in it.
 */
int damon_read(struct damon_state *d, bool refresh, char *why, size_t whylen);
void damon_free(struct damon_state *d);
/* The CPU time DAMON_STAT's kdamond has taken, in seconds (stat_cpu_ticks). */
double damon_stat_cpu_seconds(const struct damon_state *d);
/* Does the scheme move pages (migrate_hot, migrate_cold)? */
bool damon_scheme_migrates(const struct damon_scheme *s);
/* The scheme of the same kdamond, context and scheme numbers in d, or NULL. */
const struct damon_scheme *damon_find(const struct damon_state *d, const struct damon_scheme *s);
