/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * numastat-compatible output (stat --compat, stat --pid --compat); see
 * stat-compat.c.  Implemented by stat-compat.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nodes.h"
#include "stat-nodes.h"

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

/*
 * Print the tables numastat would of the nodes' files (a node whose file
 * could not be read has no column).  0 or -ENOMEM.
 */
int stat_compat_print(const struct compat_opts *co, const struct stat_nodes *nodes, FILE *out);

/*
 * numastat's table, which every --compat shape prints through: column 0
 * holds the labels, rows 0 .. header_rows - 1 the headers, and a cell is
 * text (kept by pointer: it must outlive the table), a number (added to),
 * or a rule of dashes.  Cells, widths, zero rules, sort and line folding
 * are numastat's own, so the bytes match.
 */
struct stat_compat_table;
/* A table of data_rows x data_cols cells besides the headers and labels; 0 or -ENOMEM (free it). */
int stat_compat_table_new(struct stat_compat_table **tp, int header_rows, int data_rows,
			  int data_cols);
void stat_compat_table_free(struct stat_compat_table *t);
void stat_compat_table_text(struct stat_compat_table *t, int row, int col, const char *s);
/* Dashes across the cell; a row with one is always printed. */
void stat_compat_table_rule(struct stat_compat_table *t, int row, int col);
void stat_compat_table_add(struct stat_compat_table *t, int row, int col, double v);
/* A column of width 0: it prints as nothing. */
void stat_compat_table_hide(struct stat_compat_table *t, int col);

struct stat_compat_style {
	bool compress;  /* -c: each column as wide as its text, 4 to 16 */
	bool skip_zero; /* -z: no all-zero rows and columns */
	int places;     /* decimals of the numbers */
	int sort_col;   /* sort the data rows by this column, largest first; 0: no sort */
	long width;     /* the screen: a line folds to it */
	int label_max;  /* without -c: the label column 16 wide, or as its text up to this (24) */
};
/* Print the table as numastat would; 0 or -EIO. */
int stat_compat_table_print(struct stat_compat_table *t, const struct stat_compat_style *st,
			    FILE *out);

/* numastat's screen width: NUMASTAT_WIDTH, else tty_width (0 = not a tty: unlimited). */
long stat_compat_screen_width(size_t tty_width);
