// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stat-cell.h"
#include "value.h"

void stat_cell_count(struct grid *g, size_t r, size_t c, uint64_t v, bool compact)
{
	char buf[GRID_CELL_MAX];

	if (compact)
		fmt_human(v, FMT_COUNT, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	grid_set(g, r, c, buf, (double)v, v != 0);
}

void stat_cell_rate(struct grid *g, size_t r, size_t c, uint64_t d, const struct stat_opts *o,
		    double secs)
{
	char buf[GRID_CELL_MAX];
	double rate = secs > 0 ? (double)d / secs : 0;

	if (!o->rate) {
		stat_cell_count(g, r, c, d, o->compact);
		return;
	}
	if (o->json)
		snprintf(buf, sizeof(buf), "%.2f", rate);
	else if (rate >= 18446744073709551615.0)
		snprintf(buf, sizeof(buf), "%" PRIu64, UINT64_MAX);
	else {
		stat_cell_count(g, r, c, (uint64_t)(rate + 0.5), o->compact);
		return;
	}
	grid_set(g, r, c, buf, rate, rate != 0);
}

void stat_cell_pct(struct grid *g, size_t r, size_t c, double num, double den)
{
	char buf[GRID_CELL_MAX];
	double pct;

	if (den <= 0) {
		grid_set(g, r, c, NULL, -1, false);
		return;
	}
	pct = 100.0 * num / den;
	snprintf(buf, sizeof(buf), "%.1f", pct);
	grid_set(g, r, c, buf, pct, pct != 0);
}

void stat_cell_size(struct grid *g, size_t r, size_t c, int64_t v, bool is_signed,
		    const struct stat_opts *o)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	const char *sign = v < 0 ? "-" : is_signed && v > 0 ? "+" : "";
	char buf[GRID_CELL_MAX];

	/* JSON numbers are bytes: "4.1M" is not a number (and JSON has no '+'). */
	if (o->bytes || o->json)
		snprintf(buf, sizeof(buf), "%s%" PRIu64, v < 0 ? "-" : o->json ? "" : sign, mag);
	else {
		str_copy(buf, sign, sizeof(buf));
		fmt_human(mag, FMT_SIZE, buf + strlen(buf), sizeof(buf) - strlen(buf));
	}
	grid_set(g, r, c, buf, (double)v, v != 0);
}
