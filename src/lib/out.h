/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tables and JSON through libsmartcols (loaded on first use, see dl.h), so
 * every table, -r, -n and -J output shares util-linux's conventions and no
 * JSON is written by hand.  Implemented by out.c.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
	OUT_JSON = 1 << 0,       /* -J: {"<name>": [ {...}, ... ]} */
	OUT_RAW = 1 << 1,        /* -r: single-space separated, no alignment */
	OUT_NOHEADINGS = 1 << 2, /* -n */
	OUT_ONELINE = 1 << 3,    /* JSON on one line (interval samples) */
};

enum {
	OUT_COL_RIGHT = 1 << 0,       /* right-aligned (numbers) */
	OUT_COL_NUMBER = 1 << 1,      /* JSON number */
	OUT_COL_BOOLEAN = 1 << 2,     /* JSON true/false */
	OUT_COL_TRUNC = 1 << 3,       /* may be truncated to fit the terminal */
	OUT_COL_WRAP = 1 << 4,        /* may wrap to fit the terminal */
	OUT_COL_NUMBERS = 1 << 5,     /* JSON array of numbers: the cell holds one per line */
	OUT_COL_ARRAY = 1 << 6,       /* JSON array of strings: one element per line of the cell */
	OUT_COL_BOOLEAN_OPT = 1 << 7, /* JSON true/false, null when the cell is empty */
};

struct out_table;
struct out_row;

/* Loads libsmartcols when needed; on failure *tp is NULL and why names the problem. */
int out_table_new(struct out_table **tp, const char *json_name, unsigned flags, char *why,
		  size_t whylen);
int out_table_add_column(struct out_table *t, const char *name, double width_hint, unsigned flags);
/* A new row, or NULL when out of memory. */
struct out_row *out_table_add_row(struct out_table *t);
/* Cell text is copied; NULL prints as empty (JSON null). */
int out_row_set(struct out_row *r, size_t col, const char *text);
int out_row_setf(struct out_row *r, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 0 for "use the terminal's width" (the default). */
void out_table_set_width(struct out_table *t, size_t width);
/* Prints to stream; returns 0 or -EIO. */
int out_table_print(struct out_table *t, FILE *stream);
/* The text out_table_print() would print, malloc'ed into *text; 0 or -errno. */
int out_table_text(struct out_table *t, char **text);
void out_table_free(struct out_table *t);

/*
 * One JSON document from several tables (each made with OUT_JSON), for the
 * views whose facts are more than one list: {"time":...,"nodes":[...],
 * "total":{...}}.  libsmartcols writes every value; out_doc only joins the
 * members.  flags: OUT_ONELINE for one document per line.
 */
struct out_doc;
enum out_part {
	OUT_PART_ARRAY,  /* "name": [ rows ] */
	OUT_PART_OBJECT, /* "name": { the row }, or null: at most one row */
	OUT_PART_FIELDS, /* the row's members, at the top level: at most one row */
};
int out_doc_new(struct out_doc **dp, unsigned flags);
/* Adds t (the caller still frees it); 0, -EINVAL (shape) or -ENOMEM. */
int out_doc_add(struct out_doc *d, struct out_table *t, enum out_part how);
/*
 * Adds "name": [the n strings] as a member of d (name as a column name:
 * "WARNINGS" is "warnings"); 0, or the errors of out_doc_add().
 */
int out_doc_add_strings(struct out_doc *d, const char *name, const char *const *s, size_t n,
			char *why, size_t whylen);
/* Prints {members}; 0 or -EIO. */
int out_doc_print(struct out_doc *d, FILE *stream);
/*
 * A document whose last member is an array too long to hold at once: the
 * first call prints what d holds and opens the array, named as t names
 * it; each call prints t's rows into it as they come, libsmartcols's text
 * joined; out_doc_stream_end() closes it.  Every t has the same name and
 * columns.  The same text as out_doc_add() of one table of all the rows
 * and out_doc_print(), in either layout.  0, -EINVAL, -ENOMEM or -EIO.
 */
int out_doc_stream_rows(struct out_doc *d, struct out_table *t, FILE *stream);
int out_doc_stream_end(struct out_doc *d, FILE *stream);
void out_doc_free(struct out_doc *d);

/* stdout's terminal size (TIOCGWINSZ, else $COLUMNS/$LINES); 0, 0 when not a terminal. */
void out_terminal_size(size_t *cols, size_t *rows);
