// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <libsmartcols.h>

#include "dl.h"
#include "output.h"

static void *smartcols;
static typeof(scols_new_table) *sym_scols_new_table;
static typeof(scols_unref_table) *sym_scols_unref_table;
static typeof(scols_table_set_name) *sym_scols_table_set_name;
static typeof(scols_table_enable_json) *sym_scols_table_enable_json;
static typeof(scols_table_enable_raw) *sym_scols_table_enable_raw;
static typeof(scols_table_enable_noheadings) *sym_scols_table_enable_noheadings;
static typeof(scols_table_enable_nolinesep) *sym_scols_table_enable_nolinesep;
static typeof(scols_table_new_column) *sym_scols_table_new_column;
static typeof(scols_column_set_json_type) *sym_scols_column_set_json_type;
static typeof(scols_column_set_wrapfunc) *sym_scols_column_set_wrapfunc;
static typeof(scols_wrapnl_chunksize) *sym_scols_wrapnl_chunksize;
static typeof(scols_wrapnl_nextchunk) *sym_scols_wrapnl_nextchunk;
static typeof(scols_table_new_line) *sym_scols_table_new_line;
static typeof(scols_line_set_data) *sym_scols_line_set_data;
static typeof(scols_line_refer_data) *sym_scols_line_refer_data;
static typeof(scols_table_set_stream) *sym_scols_table_set_stream;
static typeof(scols_table_set_termwidth) *sym_scols_table_set_termwidth;
static typeof(scols_table_set_termforce) *sym_scols_table_set_termforce;
static typeof(scols_print_table) *sym_scols_print_table;

static const struct dl_sym smartcols_syms[] = {
	DL_SYM(scols_new_table),
	DL_SYM(scols_unref_table),
	DL_SYM(scols_table_set_name),
	DL_SYM(scols_table_enable_json),
	DL_SYM(scols_table_enable_raw),
	DL_SYM(scols_table_enable_noheadings),
	DL_SYM(scols_table_enable_nolinesep),
	DL_SYM(scols_table_new_column),
	DL_SYM(scols_column_set_json_type),
	DL_SYM(scols_column_set_wrapfunc),
	DL_SYM(scols_wrapnl_chunksize),
	DL_SYM(scols_wrapnl_nextchunk),
	DL_SYM(scols_table_new_line),
	DL_SYM(scols_line_set_data),
	DL_SYM(scols_line_refer_data),
	DL_SYM(scols_table_set_stream),
	DL_SYM(scols_table_set_termwidth),
	DL_SYM(scols_table_set_termforce),
	DL_SYM(scols_print_table),
	{ NULL, NULL },
};

struct out_table {
	struct libscols_table *tb;
	unsigned flags;
};

int out_table_new(struct out_table **tp, const char *json_name, unsigned flags,
		  char *why, size_t whylen)
{
	struct out_table *t;
	int r = dl_load(DL_LIB_smartcols, &smartcols, smartcols_syms, why, whylen);

	if (r < 0)
		return r;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->tb = sym_scols_new_table())) {
		free(t);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	t->flags = flags;
	sym_scols_table_set_name(t->tb, json_name);
	sym_scols_table_enable_json(t->tb, !!(flags & OUT_JSON));
	sym_scols_table_enable_raw(t->tb, !!(flags & OUT_RAW));
	sym_scols_table_enable_noheadings(t->tb, !!(flags & OUT_NOHEADINGS));
	if (flags & OUT_ONELINE)
		sym_scols_table_enable_nolinesep(t->tb, 1);
	*tp = t;
	return 0;
}

int out_table_add_column(struct out_table *t, const char *name, double width_hint,
			 unsigned flags)
{
	int sflags = 0;
	struct libscols_column *cl;

	if (flags & OUT_COL_RIGHT)
		sflags |= SCOLS_FL_RIGHT;
	if (flags & OUT_COL_TRUNC)
		sflags |= SCOLS_FL_TRUNC;
	if (flags & (OUT_COL_WRAP | OUT_COL_NUMBERS | OUT_COL_ARRAY))
		sflags |= SCOLS_FL_WRAP;
	cl = sym_scols_table_new_column(t->tb, name, width_hint, sflags);
	if (!cl)
		return -ENOMEM;
	if (flags & OUT_COL_ARRAY) {
		/* libsmartcols makes array elements of the chunks its wrap function cuts. */
		sym_scols_column_set_json_type(cl, SCOLS_JSON_ARRAY_STRING);
		sym_scols_column_set_wrapfunc(cl, sym_scols_wrapnl_chunksize,
					      sym_scols_wrapnl_nextchunk, NULL);
	} else if (flags & OUT_COL_NUMBER)
		sym_scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	else if (flags & OUT_COL_BOOLEAN)
		sym_scols_column_set_json_type(cl, SCOLS_JSON_BOOLEAN);
	else if (flags & OUT_COL_NUMBERS) {
		/* libsmartcols makes array elements of the chunks its wrap function cuts. */
		sym_scols_column_set_json_type(cl, SCOLS_JSON_ARRAY_NUMBER);
		sym_scols_column_set_wrapfunc(cl, sym_scols_wrapnl_chunksize,
					      sym_scols_wrapnl_nextchunk, NULL);
	}
	return 0;
}

struct out_row *out_table_add_row(struct out_table *t)
{
	return (struct out_row *)sym_scols_table_new_line(t->tb, NULL);
}

int out_row_set(struct out_row *r, size_t col, const char *text)
{
	return sym_scols_line_set_data((struct libscols_line *)r, col, text);
}

int out_row_setf(struct out_row *r, size_t col, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	/* The line owns s from here on. */
	return sym_scols_line_refer_data((struct libscols_line *)r, col, s);
}

void out_table_set_width(struct out_table *t, size_t width)
{
	if (width) {
		sym_scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_ALWAYS);
		sym_scols_table_set_termwidth(t->tb, width);
	}
}

/*
 * libsmartcols (2.38) always breaks and indents its JSON, whatever
 * nolinesep says.  For OUT_ONELINE the layout whitespace goes: every newline
 * outside a string, and the indentation after it.  Strings are copied as they
 * are (their newlines are escaped as \n), so the JSON itself is untouched.
 */
static size_t json_oneline(char *s, size_t len)
{
	bool in_str = false, esc = false, indent = false;
	size_t out = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (in_str) {
			in_str = esc || c != '"';
			esc = !esc && c == '\\';
		} else if (c == '\n') {
			indent = true;
			continue;
		} else if (indent && (c == ' ' || c == '\t'))
			continue;
		else
			in_str = c == '"';
		indent = false;
		s[out++] = c;
	}
	/* open_memstream() leaves room for a NUL at s[len]: out <= len always fits. */
	s[out++] = '\n';
	return out;
}

static int print_oneline(struct out_table *t, FILE *stream)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int r = 0;

	if (!mem)
		return -ENOMEM;
	sym_scols_table_set_stream(t->tb, mem);
	if (sym_scols_print_table(t->tb) < 0)
		r = -EIO;
	if (fclose(mem) != 0 && r == 0)
		r = -ENOMEM;
	/* One fwrite(): a many-node sample leaves in one or two write(2)s. */
	if (r == 0 && len && fwrite(buf, 1, json_oneline(buf, len), stream) == 0)
		r = -EIO;
	free(buf);
	return r < 0 || ferror(stream) ? -EIO : 0;
}

int out_table_print(struct out_table *t, FILE *stream)
{
	if ((t->flags & (OUT_JSON | OUT_ONELINE)) == (OUT_JSON | OUT_ONELINE))
		return print_oneline(t, stream);
	sym_scols_table_set_stream(t->tb, stream);
	if (sym_scols_print_table(t->tb) < 0 || ferror(stream))
		return -EIO;
	return 0;
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	sym_scols_unref_table(t->tb);
	free(t);
}
