// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grid.h"
#include "out.h"

#define CELL(g, r, c) ((r) * (g)->ncols + (c))

int grid_init(struct grid *g, size_t nrows, size_t ncols)
{
	size_t n = nrows * ncols;

	memset(g, 0, sizeof(*g));
	g->nrows = nrows;
	g->ncols = ncols;
	g->sort_col = -1;
	g->label_col = 0;
	g->cols = calloc(ncols, sizeof(*g->cols));
	g->text = calloc(n ? n : 1, sizeof(*g->text));
	g->key = calloc(n ? n : 1, sizeof(*g->key));
	g->nonzero = calloc(n ? n : 1, sizeof(*g->nonzero));
	if (!g->cols || !g->text || !g->key || !g->nonzero) {
		grid_free(g);
		return -ENOMEM;
	}
	return 0;
}

void grid_free(struct grid *g)
{
	for (size_t i = 0; g->long_text && i < g->nrows * g->ncols; i++)
		free(g->long_text[i]);
	free(g->long_text);
	free(g->cols);
	free(g->text);
	free(g->key);
	free(g->nonzero);
	memset(g, 0, sizeof(*g));
}

void grid_set(struct grid *g, size_t row, size_t col, const char *text, double key, bool nonzero)
{
	size_t i = CELL(g, row, col);

	snprintf(g->text[i], GRID_CELL_MAX, "%s", text ? text : "");
	g->key[i] = key;
	g->nonzero[i] = nonzero;
}

int grid_set_long(struct grid *g, size_t row, size_t col, const char *text, double key,
		  bool nonzero)
{
	size_t i = CELL(g, row, col);

	grid_set(g, row, col, text, key, nonzero);
	/* Sized for the grid as allocated: callers may shrink nrows and ncols later. */
	if (!g->long_text && !(g->long_text = calloc(g->nrows * g->ncols, sizeof(char *))))
		return -ENOMEM;
	free(g->long_text[i]);
	g->long_text[i] = text ? strdup(text) : NULL;
	return !text || g->long_text[i] ? 0 : -ENOMEM;
}

/* A cell's text: the long copy when there is one. */
static const char *cell_text(const struct grid *g, size_t r, size_t c)
{
	size_t i = CELL(g, r, c);

	return g->long_text && g->long_text[i] ? g->long_text[i] : g->text[i];
}

/* The rows and columns left after -z, rows in sort order. */
struct view {
	size_t *rows, nrows;
	size_t *cols, ncols;
};

/* Whether column c says what a row is: the label column, or another like it. */
static bool is_label(const struct grid *g, size_t c)
{
	return (g->label_col >= 0 && (size_t)g->label_col == c) || g->cols[c].label;
}

static const struct grid *sort_grid;

/* Descending by the sort column (numastat's -s); ties keep node order. */
static int cmp_rows(const void *a, const void *b)
{
	const struct grid *g = sort_grid;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double kx = g->key[CELL(g, x, (size_t)g->sort_col)];
	double ky = g->key[CELL(g, y, (size_t)g->sort_col)];

	if (kx != ky)
		return kx < ky ? 1 : -1;
	return (x > y) - (x < y);
}

/* Not all zero: a value that is not, or no value at all but labels (-o NODE). */
static bool row_nonzero(const struct grid *g, size_t r)
{
	bool data = false;

	for (size_t c = 0; c < g->ncols; c++) {
		if (is_label(g, c))
			continue;
		if (g->nonzero[CELL(g, r, c)])
			return true;
		data = true;
	}
	return !data;
}

static bool col_nonzero(const struct grid *g, size_t c)
{
	for (size_t r = 0; r < g->nrows; r++)
		if (g->nonzero[CELL(g, r, c)])
			return true;
	return false;
}

static int make_view(const struct grid *g, const struct stat_opts *o, bool json, struct view *v)
{
	size_t data = g->nrows - (g->has_total ? 1 : 0);

	v->rows = calloc(g->nrows + 1, sizeof(*v->rows));
	v->cols = calloc(g->ncols + 1, sizeof(*v->cols));
	if (!v->rows || !v->cols)
		return -ENOMEM;
	v->nrows = v->ncols = 0;
	for (size_t r = 0; r < data; r++)
		if (!o->skip_zero || row_nonzero(g, r))
			v->rows[v->nrows++] = r;
	if (g->sort_col >= 0 && v->nrows > 1) {
		sort_grid = g;
		qsort(v->rows, v->nrows, sizeof(*v->rows), cmp_rows);
	}
	if (g->has_total && !json && (!o->skip_zero || row_nonzero(g, data)))
		v->rows[v->nrows++] = data;
	for (size_t c = 0; c < g->ncols; c++)
		if (is_label(g, c) || !o->skip_zero || col_nonzero(g, c))
			v->cols[v->ncols++] = c;
	return 0;
}

/* Print the columns cols[0..n) of v's rows as one libsmartcols table. */
static int print_section(const struct grid *g, const struct view *v, const size_t *cols, size_t n,
			 unsigned flags, const char *json_name, char *why, size_t whylen)
{
	struct out_table *t;
	int r = out_table_new(&t, json_name, flags, why, whylen);

	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		out_table_add_column(t,
				     (flags & OUT_JSON) ? g->cols[cols[i]].json
							: g->cols[cols[i]].name,
				     0, g->cols[cols[i]].flags);
	for (size_t i = 0; i < v->nrows; i++) {
		struct out_row *row = out_table_add_row(t);
		size_t rr = v->rows[i];

		if (!row) {
			out_table_free(t);
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		for (size_t k = 0; k < n; k++) {
			const char *s = cell_text(g, rr, cols[k]);

			/* The label is never null: an empty one is the empty text. */
			out_row_set(row, k, *s || is_label(g, cols[k]) ? s : NULL);
		}
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	if (r < 0)
		snprintf(why, whylen, "cannot write to standard output");
	return r;
}

static size_t col_width(const struct grid *g, const struct view *v, size_t c)
{
	size_t w = strlen(g->cols[c].name);

	for (size_t i = 0; i < v->nrows; i++) {
		size_t l = strlen(cell_text(g, v->rows[i], c));

		if (l > w)
			w = l;
	}
	return w;
}

/*
 * The table in width: whole, in -o's order, when it fits; else in sections
 * of the columns that fit, each with the label column first, one table
 * each (always at least one column per section, as numastat does).
 */
static int print_folded(const struct grid *g, const struct view *v, size_t width, unsigned flags,
			char *why, size_t whylen)
{
	size_t *sec = calloc(v->ncols + 1, sizeof(*sec)), all = 0, label = 0, lead = 0, i = 0;
	bool printed = false;
	int r = 0;

	if (!sec) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (size_t k = 0; k < v->ncols; k++) {
		all += (k ? 1 : 0) + col_width(g, v, v->cols[k]);
		if (is_label(g, v->cols[k])) {
			label = col_width(g, v, v->cols[k]);
			lead = 1;
		}
	}
	if (all <= width)
		r = print_section(g, v, v->cols, v->ncols, flags, "", why, whylen);
	while (all > width && r == 0) {
		size_t n = 0, used = label;

		if (lead)
			sec[n++] = (size_t)g->label_col;
		for (; i < v->ncols; i++) {
			size_t c = v->cols[i], w = (n ? 1 : 0) + col_width(g, v, c);

			if (is_label(g, c))
				continue;
			if (n > lead && used + w > width)
				break;
			sec[n++] = c;
			used += w;
		}
		if (n == lead)
			break; /* no column left but the label */
		if (printed)
			putchar('\n');
		r = print_section(g, v, sec, n, flags, "", why, whylen);
		printed = true;
	}
	free(sec);
	return r;
}

/* Rows v->rows[from, to) as a JSON table named name; without the label column if no_label. */
static int json_table(const struct grid *g, const struct view *v, size_t from, size_t to,
		      bool no_label, const char *name, struct out_table **tp, char *why,
		      size_t whylen)
{
	struct out_table *t;
	int r = out_table_new(&t, name, OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	for (size_t c = 0; c < v->ncols; c++)
		if (!no_label || !is_label(g, v->cols[c]))
			out_table_add_column(t, g->cols[v->cols[c]].json, 0,
					     g->cols[v->cols[c]].flags);
	for (size_t i = from; i < to; i++) {
		struct out_row *row = out_table_add_row(t);
		size_t k = 0;

		if (!row) {
			out_table_free(t);
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		for (size_t c = 0; c < v->ncols; c++) {
			const char *s = cell_text(g, v->rows[i], v->cols[c]);

			if (!no_label || !is_label(g, v->cols[c]))
				out_row_set(row, k++, *s ? s : NULL);
		}
	}
	*tp = t;
	return 0;
}

/* "nodes" and "total" (the TOTAL row, without its label) into d. */
static int add_json(const struct grid *g, const struct view *v, struct out_doc *d, char *why,
		    size_t whylen)
{
	struct out_table *nodes = NULL, *total = NULL;
	/* make_view() left the TOTAL row out of JSON views: it is the grid's last. */
	struct view tv = { (size_t[]){ g->nrows - 1 }, 1, v->cols, v->ncols };
	int r = json_table(g, v, 0, v->nrows, false, "nodes", &nodes, why, whylen);

	if (r == 0)
		r = json_table(g, &tv, 0, 1, true, "total", &total, why, whylen);
	if (r == 0)
		r = out_doc_add(d, nodes, OUT_PART_ARRAY);
	if (r == 0)
		r = out_doc_add(d, total, OUT_PART_OBJECT);
	out_table_free(nodes);
	out_table_free(total);
	return r;
}

/* When the counters were read (a snapshot's time), as the first member of a document. */
static int add_time(struct out_doc *d, char *why, size_t whylen)
{
	struct out_table *t;
	struct out_row *row;
	struct timespec now;
	char when[32];
	int r = out_table_new(&t, "", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	stat_counters_time(&now);
	stat_iso_time(&now, when, sizeof(when));
	r = out_table_add_column(t, "time", 0, 0);
	row = r == 0 ? out_table_add_row(t) : NULL;
	r = row ? out_row_set(row, 0, when) : -ENOMEM;
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_FIELDS);
	out_table_free(t);
	return r;
}

/* {"time":..., "nodes":[...], "total":{...}}: the TOTAL row is an object. */
static int print_json_doc(const struct grid *g, const struct view *v, char *why, size_t whylen)
{
	struct out_doc *d = NULL;
	int r = out_doc_new(&d, 0);

	if (r == 0)
		r = add_time(d, why, whylen);
	if (r == 0)
		r = add_json(g, v, d, why, whylen);
	if (r == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && !*why)
		snprintf(why, whylen,
			 r == -EIO ? "cannot write to standard output" : "out of memory");
	out_doc_free(d);
	return r;
}

int grid_add_json(const struct grid *g, const struct stat_opts *o, struct out_doc *d, char *why,
		  size_t whylen)
{
	struct view v = { 0 };
	int r = make_view(g, o, true, &v);

	why[0] = '\0';
	if (r == 0)
		r = add_json(g, &v, d, why, whylen);
	if (r < 0 && !*why)
		snprintf(why, whylen, "out of memory");
	free(v.rows);
	free(v.cols);
	return r;
}

/* The data rows into d: added (stream NULL), or printed as the array it streams. */
static int json_rows(const struct grid *g, const struct stat_opts *o, struct out_doc *d,
		     const char *name, FILE *stream, char *why, size_t whylen)
{
	struct out_table *t = NULL;
	struct view v = { 0 };
	int r = make_view(g, o, true, &v);

	why[0] = '\0';
	if (r == 0)
		r = json_table(g, &v, 0, v.nrows, false, name, &t, why, whylen);
	if (r == 0)
		r = stream ? out_doc_stream_rows(d, t, stream) : out_doc_add(d, t, OUT_PART_ARRAY);
	if (r == -EIO && !*why)
		snprintf(why, whylen, "cannot write to standard output");
	if (r < 0 && !*why)
		snprintf(why, whylen, "out of memory");
	out_table_free(t);
	free(v.rows);
	free(v.cols);
	return r;
}

int grid_add_json_rows(const struct grid *g, const struct stat_opts *o, struct out_doc *d,
		       const char *name, char *why, size_t whylen)
{
	return json_rows(g, o, d, name, NULL, why, whylen);
}

int grid_stream_json_rows(const struct grid *g, const struct stat_opts *o, struct out_doc *d,
			  const char *name, FILE *stream, char *why, size_t whylen)
{
	return json_rows(g, o, d, name, stream, why, whylen);
}

int grid_print(const struct grid *g, const struct stat_opts *o, unsigned extra_flags,
	       const char *json_name, char *why, size_t whylen)
{
	unsigned flags = extra_flags | (o->json ? OUT_JSON : 0) | (o->raw ? OUT_RAW : 0) |
			 (o->noheadings ? OUT_NOHEADINGS : 0);
	struct view v = { 0 };
	int r = make_view(g, o, o->json, &v);

	if (r < 0)
		snprintf(why, whylen, "out of memory");
	else if (o->json && g->json_doc && g->has_total && !(extra_flags & OUT_ONELINE)) {
		why[0] = '\0';
		r = print_json_doc(g, &v, why, whylen);
	} else if (o->width && !(flags & (OUT_JSON | OUT_RAW)) && v.ncols > 1)
		r = print_folded(g, &v, o->width, flags, why, whylen);
	else
		r = print_section(g, &v, v.cols, v.ncols, flags, json_name, why, whylen);
	free(v.rows);
	free(v.cols);
	return r;
}
