// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-node counter table (one-shot and interval samples alike). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat-grid.h"
#include "stat.h"

char stat_why[256];

const char *stat_strerror(void)
{
	return stat_why;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* "7.3M": powers of 1000, so a many-node table stays narrow (--compact). */
static void compact_count(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "KMGTPE";
	double d = (double)v;
	int i = -1;

	if (v < 10000) {
		snprintf(buf, len, "%" PRIu64, v);
		return;
	}
	while (d >= 1000 && i < 5) {
		d /= 1000;
		i++;
	}
	snprintf(buf, len, d < 10 ? "%.1f%c" : "%.0f%c", d, suffix[i]);
}

static void set_count(struct grid *g, size_t r, size_t c, uint64_t v, bool compact)
{
	char buf[GRID_CELL_MAX];

	if (compact)
		compact_count(v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	grid_set(g, r, c, buf, (double)v, v != 0);
}

/* num / (num + other) in percent; empty (JSON null) when nothing counted. */
static void set_pct(struct grid *g, size_t r, size_t c, uint64_t num, uint64_t other)
{
	char buf[GRID_CELL_MAX];
	double den = (double)num + (double)other, pct;

	if (den == 0) {
		grid_set(g, r, c, NULL, -1, false);
		return;
	}
	pct = 100.0 * (double)num / den;
	snprintf(buf, sizeof(buf), "%.1f", pct);
	grid_set(g, r, c, buf, pct, pct != 0);
}

static void set_row(struct grid *g, const struct stat_opts *o, size_t r, const char *node,
		    unsigned id, const uint64_t *v)
{
	for (size_t c = 0; c < o->n_cols; c++) {
		int col = o->cols[c];

		if (col == SCOL_NODE)
			grid_set(g, r, c, node, id, true);
		else if (col == SCOL_LOCAL_PCT)
			set_pct(g, r, c, v[NS_LOCAL_NODE], v[NS_OTHER_NODE]);
		else if (col == SCOL_MISS_PCT)
			set_pct(g, r, c, v[NS_NUMA_MISS], v[NS_NUMA_HIT]);
		else
			set_count(g, r, c, v[col - SCOL_NUMA_HIT], o->compact);
	}
}

static int fill(struct grid *g, const struct stat_opts *o, const struct stat_row *rows, size_t n)
{
	uint64_t total[NS_STANDARD] = { 0 };
	size_t r = 0;
	char id[16];

	for (size_t i = 0; i < n; i++) {
		if (rows[i].err)
			continue;
		snprintf(id, sizeof(id), "%u", rows[i].node);
		set_row(g, o, r++, id, rows[i].node, rows[i].v);
		for (int k = 0; k < NS_STANDARD; k++)
			total[k] = sat_add(total[k], rows[i].v[k]);
	}
	set_row(g, o, r, "TOTAL", UINT32_MAX, total);
	return 0;
}

int stat_print_counters(const struct stat_opts *o, const struct stat_row *rows, size_t n,
			unsigned extra_flags)
{
	struct stat_opts def = *o;
	struct grid g;
	size_t good = 0;
	int r;

	if (def.n_cols == 0)
		stat_default_columns(&def);
	for (size_t i = 0; i < n; i++)
		good += rows[i].err == 0;
	r = grid_init(&g, good + 1, def.n_cols);
	if (r < 0)
		return r;
	for (size_t c = 0; c < def.n_cols; c++) {
		const struct stat_coldesc *d = &stat_columns[def.cols[c]];

		g.cols[c] = (struct grid_col){ d->name, d->json, d->flags };
		if (def.sort_set && def.cols[c] == def.sort_col && def.sort_col != SCOL_NODE)
			g.sort_col = (int)c;
	}
	g.has_total = true;
	fill(&g, &def, rows, n);
	r = grid_print(&g, &def, extra_flags, "nodes", stat_why, sizeof(stat_why));
	grid_free(&g);
	return r;
}
