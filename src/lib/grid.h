/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table every `stat` view prints: cells rendered to text first, so that
 * -z can drop all-zero rows and columns, --sort can order rows, and a table
 * wider than the terminal can be folded into sections (the label column
 * repeated in each), as numastat means to do, before libsmartcols lays each
 * section out.  Implemented by grid.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stat.h"

#define GRID_CELL_MAX 32

struct grid_col {
	const char *name; /* header */
	const char *json; /* JSON key */
	unsigned flags;   /* OUT_COL_* */
	bool label;       /* says what a row is, as label_col does (-o NODE,NUMA_HIT,NODE) */
};

struct grid {
	size_t nrows, ncols;
	struct grid_col *cols;
	char (*text)[GRID_CELL_MAX]; /* nrows * ncols; "" prints as JSON null */
	double *key;                 /* nrows * ncols: sort key */
	bool *nonzero;               /* nrows * ncols */
	char **long_text;            /* nrows * ncols, NULL until grid_set_long(): longer cells */
	bool has_total;              /* the last row is TOTAL: never sorted, not in the JSON rows */
	/*
	 * The column that says what a row is (NODE, CGROUP), or -1: first in
	 * each section of a folded table, never dropped by -z, not in JSON's
	 * total.  0 unless the caller says otherwise.
	 */
	int label_col;
	bool json_doc; /* JSON: {"time","nodes","total"} (needs has_total) */
	int sort_col;  /* column index, -1 = keep row order */
};

/* Allocate nrows x ncols cells (cols filled by the caller).  0 or -ENOMEM. */
int grid_init(struct grid *g, size_t nrows, size_t ncols);
void grid_free(struct grid *g);
/* Set a cell's text, sort key and zero flag. */
void grid_set(struct grid *g, size_t row, size_t col, const char *text, double key, bool nonzero);
/* A cell of any length (a cgroup path): copied; 0 or -ENOMEM (the cell is then cut). */
int grid_set_long(struct grid *g, size_t row, size_t col, const char *text, double key,
		  bool nonzero);

/*
 * Print with o's -n/-r/-J/-z and width.  json_name names the JSON array.
 * 0, or -errno with why filled (libsmartcols missing, write error).
 */
struct out_doc;
/*
 * The data rows (not TOTAL) after -z and --sort, as the JSON array name of
 * d (the views of stat-effect.h).  0 or -errno with why filled.
 */
int grid_add_json_rows(const struct grid *g, const struct stat_opts *o, struct out_doc *d,
		       const char *name, char *why, size_t whylen);
/*
 * The same rows printed to stream as the array d streams (out_doc_stream_rows()):
 * a long array a part at a time, each part a grid of its own.
 */
int grid_stream_json_rows(const struct grid *g, const struct stat_opts *o, struct out_doc *d,
			  const char *name, FILE *stream, char *why, size_t whylen);
int grid_print(const struct grid *g, const struct stat_opts *o, unsigned extra_flags,
	       const char *json_name, char *why, size_t whylen);
/* JSON: "nodes" and "total" (needs has_total) into d, with o's -z.  0 or -errno. */
struct out_doc;
int grid_add_json(const struct grid *g, const struct stat_opts *o, struct out_doc *d, char *why,
		  size_t whylen);
