// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-node counter table (one-shot and interval samples alike). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "stat-counters.h"
#include "stat.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Row r of the grid: the node's label in NODE, every other cell from stat_value(). */
static void set_row(struct grid *g, const struct stat_opts *o, size_t r, const char *label,
		    const struct stat_row *row)
{
	char buf[GRID_CELL_MAX];

	for (size_t c = 0; c < o->n_cols; c++) {
		struct stat_value v = stat_value(o->cols[c], row);

		if (v.kind == STAT_VAL_NODE)
			grid_set(g, r, c, label, row->node, true);
		else
			grid_set(g, r, c,
				 stat_value_text(&v, o->compact, buf, sizeof(buf)) ? buf : NULL,
				 stat_value_key(&v), stat_value_nonzero(&v));
	}
}

static int fill(struct grid *g, const struct stat_opts *o, const struct stat_row *rows, size_t n)
{
	struct stat_row total = { .node = UINT32_MAX };
	size_t r = 0;
	char id[16];

	for (size_t i = 0; i < n; i++) {
		if (rows[i].err)
			continue;
		snprintf(id, sizeof(id), "%u", rows[i].node);
		set_row(g, o, r++, id, &rows[i]);
		for (int k = 0; k < NS_STANDARD; k++)
			total.v[k] = sat_add(total.v[k], rows[i].v[k]);
	}
	set_row(g, o, r, "TOTAL", &total);
	return 0;
}

static int sort_by;

/* Largest first; ties in node order. */
static int cmp_rows(const void *x, const void *y)
{
	const struct stat_row *a = x, *b = y;
	struct stat_value va = stat_value(sort_by, a), vb = stat_value(sort_by, b);
	double ka = stat_value_key(&va), kb = stat_value_key(&vb);

	if (ka != kb)
		return ka < kb ? 1 : -1;
	return (a->node > b->node) - (a->node < b->node);
}

/*
 * A sorted copy of rows: sorting here rather than in the grid lets --sort
 * use a column that is not shown.
 */
static struct stat_row *sort_rows(const struct stat_opts *o, const struct stat_row *rows, size_t n)
{
	struct stat_row *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, rows, n * sizeof(*s));
	/* --sort NODE: node order, as without --sort. */
	if (o->sort_set && o->sort_col >= 0 && o->sort_col < SCOL_COUNT &&
	    stat_columns[o->sort_col].kind != STAT_KIND_NODE) {
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

		g->cols[c] = (struct grid_col){ d->name, d->json, stat_column_flags(),
						d->kind == STAT_KIND_NODE };
	}
	g->has_total = true;
	g->json_doc = true;
	/* NODE labels a row wherever -o puts it; without it, the rows have no label. */
	g->label_col = -1;
	for (size_t c = def->n_cols; c-- > 0;)
		if (stat_columns[def->cols[c]].kind == STAT_KIND_NODE)
			g->label_col = (int)c;
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
			unsigned extra_flags, char *why, size_t whylen)
{
	struct stat_opts def;
	struct grid g;
	int r = build_grid(o, rows, n, &def, &g);

	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	r = grid_print(&g, &def, extra_flags, "nodes", why, whylen);
	grid_free(&g);
	return r;
}

int stat_counters_json(const struct stat_opts *o, const struct stat_row *rows, size_t n,
		       struct out_doc *d, char *why, size_t whylen)
{
	struct stat_opts def;
	struct grid g;
	int r = build_grid(o, rows, n, &def, &g);

	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	r = grid_add_json(&g, &def, d, why, whylen);
	grid_free(&g);
	return r;
}
