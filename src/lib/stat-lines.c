// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lines of interval mode, vmstat style: a header, then one line per node
 * per sample, the header again once per screenful (on a terminal) or when a
 * column had to grow.  Columns keep their width from sample to sample, so
 * the numbers line up down the screen (-r: single spaces, no alignment).
 */
#include <stdio.h>
#include <string.h>

#include "stat.h"

#define TIME_WIDTH 8 /* "HH:MM:SS" */

void stat_lines_init(struct stat_lines *l, const struct stat_opts *shown, bool timestamp,
		     size_t screen_rows)
{
	memset(l, 0, sizeof(*l));
	l->o = shown;
	l->timestamp = timestamp;
	l->screen_rows = screen_rows;
	l->header_due = !shown->noheadings;
	for (size_t c = 0; c < shown->n_cols; c++)
		l->width[c] = strlen(stat_columns[shown->cols[c]].name);
}

size_t stat_lines_width(const struct stat_lines *l)
{
	size_t w = l->timestamp && !l->time_apart ? TIME_WIDTH : 0;

	for (size_t c = 0; c < l->o->n_cols; c++)
		w += (w ? 1 : 0) + l->width[c];
	return w;
}

bool stat_lines_fit(struct stat_lines *l, size_t width)
{
	if (stat_lines_width(l) <= width)
		return true;
	if (!l->timestamp)
		return false;
	l->time_apart = true;
	if (stat_lines_width(l) <= width)
		return true;
	l->time_apart = false;
	return false;
}

/* One cell's text: the node id, a count, a percentage, or "-" for no value. */
static void cell(const struct stat_row *r, int col, char *buf, size_t len)
{
	struct stat_value v = stat_value(col, r);

	if (!stat_value_text(&v, false, buf, len))
		snprintf(buf, len, "-");
}

static void print_header(struct stat_lines *l)
{
	const char *sep = "";

	if (l->timestamp && !l->time_apart) {
		printf("%-*s", l->o->raw ? 0 : TIME_WIDTH, "TIME");
		sep = " ";
	}
	for (size_t c = 0; c < l->o->n_cols; c++, sep = " ")
		printf("%s%*s", sep, l->o->raw ? 0 : (int)l->width[c],
		       stat_columns[l->o->cols[c]].name);
	putchar('\n');
	l->since_header = 0;
	l->header_due = false;
}

/* Widen the columns this sample needs wider; a wider column needs a new header. */
static void fit(struct stat_lines *l, const struct stat_row *rows, size_t n)
{
	char buf[32];

	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < l->o->n_cols; c++) {
			size_t w;

			cell(&rows[i], l->o->cols[c], buf, sizeof(buf));
			w = strlen(buf);
			if (w > l->width[c]) {
				l->width[c] = w;
				l->header_due = !l->o->noheadings;
			}
		}
}

void stat_lines_print(struct stat_lines *l, const struct stat_row *rows, size_t n, const char *when)
{
	char buf[32];

	size_t lines = n + (l->time_apart ? 1 : 0);

	fit(l, rows, n);
	/* Once per screenful: the header plus this sample must fit on the screen. */
	if (!l->o->noheadings && l->screen_rows > 1 && l->since_header + lines > l->screen_rows - 1)
		l->header_due = true;
	if (l->header_due)
		print_header(l);
	if (l->time_apart)
		printf("%s\n", when);
	for (size_t i = 0; i < n; i++) {
		const char *sep = "";

		if (l->timestamp && !l->time_apart) {
			printf("%-*s", l->o->raw ? 0 : TIME_WIDTH, when);
			sep = " ";
		}
		for (size_t c = 0; c < l->o->n_cols; c++, sep = " ") {
			cell(&rows[i], l->o->cols[c], buf, sizeof(buf));
			printf("%s%*s", sep, l->o->raw ? 0 : (int)l->width[c], buf);
		}
		putchar('\n');
	}
	l->since_header += lines;
}
