// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-node counter table (one-shot and interval samples alike). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat-grid.h"
#include "stat-counters.h"
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
	/* i >= 0: v >= 10000, so the loop ran: NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
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

/* The value --sort orders by (derived columns computed); -1 when undefined. */
static double sort_key(const struct stat_row *r, int col)
{
	const uint64_t *v = r->v;
	double a, b;

	if (col == SCOL_LOCAL_PCT || col == SCOL_MISS_PCT) {
		a = (double)(col == SCOL_LOCAL_PCT ? v[NS_LOCAL_NODE] : v[NS_NUMA_MISS]);
		b = (double)(col == SCOL_LOCAL_PCT ? v[NS_OTHER_NODE] : v[NS_NUMA_HIT]);
		return a + b > 0 ? a / (a + b) : -1;
	}
	return (double)v[col - SCOL_NUMA_HIT];
}

static int sort_by;

/* Largest first; ties in node order. */
static int cmp_rows(const void *x, const void *y)
{
	const struct stat_row *a = x, *b = y;
	double ka = sort_key(a, sort_by), kb = sort_key(b, sort_by);

	if (ka != kb)
		return ka < kb ? 1 : -1;
	return (a->node > b->node) - (a->node < b->node);
}

/*
 * A sorted copy of rows: sorting here rather than in the grid lets --sort
 * use a column that is not shown.
 */
static struct stat_row *sort_rows(const struct stat_opts *o, const struct stat_row *rows,
				  size_t n)
{
	struct stat_row *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, rows, n * sizeof(*s));
	if (o->sort_set && o->sort_col > SCOL_NODE && o->sort_col < SCOL_COUNT) {
		sort_by = o->sort_col;
		qsort(s, n, sizeof(*s), cmp_rows);
	}
	return s;
}

/* The grid of rows with o's columns (defaults filled in def) and a TOTAL row. */
static int build_grid(const struct stat_opts *o, const struct stat_row *rows, size_t n,
		      struct stat_opts *def, struct grid *g)
{
	struct stat_row *sorted;
	size_t good = 0;
	int r;

	*def = *o;
	if (def->n_cols == 0)
		stat_default_columns(def);
	for (size_t i = 0; i < n; i++)
		good += rows[i].err == 0;
	r = grid_init(g, good + 1, def->n_cols);
	if (r < 0)
		return r;
	for (size_t c = 0; c < def->n_cols; c++) {
		const struct stat_coldesc *d = &stat_columns[def->cols[c]];

		g->cols[c] = (struct grid_col){ d->name, d->json, d->flags };
	}
	g->has_total = true;
	g->json_doc = true;
	sorted = sort_rows(def, rows, n);
	if (!sorted) {
		grid_free(g);
		return -ENOMEM;
	}
	fill(g, def, sorted, n);
	free(sorted);
	return 0;
}

int stat_print_counters(const struct stat_opts *o, const struct stat_row *rows, size_t n,
			unsigned extra_flags)
{
	struct stat_opts def;
	struct grid g;
	int r = build_grid(o, rows, n, &def, &g);

	if (r < 0)
		return r;
	r = grid_print(&g, &def, extra_flags, "nodes", stat_why, sizeof(stat_why));
	grid_free(&g);
	return r;
}

int stat_counters_json(const struct stat_opts *o, const struct stat_row *rows, size_t n,
		       struct out_doc *d)
{
	struct stat_opts def;
	struct grid g;
	int r = build_grid(o, rows, n, &def, &g);

	if (r < 0)
		return r;
	r = grid_add_json(&g, &def, d, stat_why, sizeof(stat_why));
	grid_free(&g);
	return r;
}
