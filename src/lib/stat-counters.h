/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counter table of `stat` and `status`: struct stat_row values in the
 * columns of stat_columns[], through the folding grid (grid.h), as a
 * table or JSON.  Implemented by stat-counters.c.
 */
#pragma once

#include "stat.h"

/*
 * Print the counter table for rows (err != 0 rows skipped) with o's columns,
 * -n/-r/-J/-z/--sort/--compact/width, and a TOTAL row (not in JSON).
 * extra_flags adds OUT_* flags (OUT_ONELINE for interval JSON).  0, or
 * -errno with why.
 */
int stat_print_counters(const struct stat_opts *o, const struct stat_row *rows, size_t n,
			unsigned extra_flags, char *why, size_t whylen);

/* The same rows as "nodes" and "total" members of a JSON document (status -J). */
struct out_doc;
int stat_counters_json(const struct stat_opts *o, const struct stat_row *rows, size_t n,
		       struct out_doc *d, char *why, size_t whylen);
