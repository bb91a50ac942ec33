/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cells of stat's views (grid.h): counts, rates, percentages and sizes,
 * each written one way whichever view shows it.  Implemented by stat-cell.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "stat.h"

/* A count cell ("7.3M" with --compact). */
void stat_cell_count(struct grid *g, size_t r, size_t c, uint64_t v, bool compact);
/*
 * A count of a sample, or its rate with --rate: whole per second in tables,
 * 2 decimals in JSON.  secs: what the count covers.
 */
void stat_cell_rate(struct grid *g, size_t r, size_t c, uint64_t d, const struct stat_opts *o,
		    double secs);
/* A percentage cell num / den; empty (JSON null) when den is 0. */
void stat_cell_pct(struct grid *g, size_t r, size_t c, double num, double den);
/* A size cell: "15.6M" (powers of 1024), bytes with -b or -J; signed: "+1.5M". */
void stat_cell_size(struct grid *g, size_t r, size_t c, int64_t v, bool is_signed,
		    const struct stat_opts *o);
