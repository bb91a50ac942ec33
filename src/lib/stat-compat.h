/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * numastat-compatible output (stat --compat); see stat-compat.c. Implemented by
 * stat-compat.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nodes.h"

#define COMPAT_SORT_NONE (-1)
#define COMPAT_SORT_TOTAL (-2)

struct compat_opts {
	bool meminfo;   /* numastat -m */
	bool numastat;  /* numastat -n (also implied by the new layout without -m) */
	bool compress;  /* -c */
	bool skip_zero; /* -z */
	int sort;       /* -s: COMPAT_SORT_*, or a node id */
	long width;     /* screen width: NUMASTAT_WIDTH, the terminal, or unlimited */
	double page_size, huge_page_size; /* bytes */
};

/* The no-argument shape: no option letter, no sort. */
bool stat_compat_is_plain(const struct compat_opts *co);

/* One node; ns or mi is NULL when that file could not be read (column left out). */
struct compat_node {
	unsigned id;
	const struct numastat *ns;
	const struct meminfo *mi;
};

/* Print the tables numastat would.  0 or -ENOMEM. */
int stat_compat_print(const struct compat_opts *co, const struct compat_node *nodes, size_t n,
		      FILE *out);

/* numastat's screen width: NUMASTAT_WIDTH, else tty_width (0 = not a tty: unlimited). */
long stat_compat_screen_width(size_t tty_width);
