// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <libsmartcols.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "array.h"
#include "dl.h"
#include "escape.h"
#include "json-text.h"
#include "out.h"
#include "value.h"

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
static typeof(scols_column_get_width) *sym_scols_column_get_width;
static typeof(scols_column_set_whint) *sym_scols_column_set_whint;
static typeof(scols_column_get_name) *sym_scols_column_get_name;
static typeof(scols_table_get_ncols) *sym_scols_table_get_ncols;
static typeof(scols_table_get_column) *sym_scols_table_get_column;
static typeof(scols_new_iter) *sym_scols_new_iter;
static typeof(scols_free_iter) *sym_scols_free_iter;
static typeof(scols_table_next_line) *sym_scols_table_next_line;
static typeof(scols_line_get_cell) *sym_scols_line_get_cell;
static typeof(scols_cell_get_data) *sym_scols_cell_get_data;
static typeof(scols_wrapnl_chunksize) *sym_scols_wrapnl_chunksize;
static typeof(scols_wrapnl_nextchunk) *sym_scols_wrapnl_nextchunk;
static typeof(scols_table_new_line) *sym_scols_table_new_line;
static typeof(scols_line_set_data) *sym_scols_line_set_data;
static typeof(scols_line_refer_data) *sym_scols_line_refer_data;
static typeof(scols_table_set_stream) *sym_scols_table_set_stream;
static typeof(scols_table_set_termwidth) *sym_scols_table_set_termwidth;
static typeof(scols_table_set_termforce) *sym_scols_table_set_termforce;
static typeof(scols_print_table) *sym_scols_print_table;
static typeof(scols_table_enable_noencoding) *sym_scols_table_enable_noencoding;
static typeof(scols_line_set_userdata) *sym_scols_line_set_userdata;
static typeof(scols_line_get_userdata) *sym_scols_line_get_userdata;

static const struct dl_sym smartcols_syms[] = {
	/* clang-format off */
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
	DL_SYM(scols_column_get_width),
	DL_SYM(scols_column_set_whint),
	DL_SYM(scols_column_get_name),
	DL_SYM(scols_table_get_ncols),
	DL_SYM(scols_table_get_column),
	DL_SYM(scols_new_iter),
	DL_SYM(scols_free_iter),
	DL_SYM(scols_table_next_line),
	DL_SYM(scols_line_get_cell),
	DL_SYM(scols_cell_get_data),
	DL_SYM(scols_wrapnl_chunksize),
	DL_SYM(scols_wrapnl_nextchunk),
	DL_SYM(scols_table_new_line),
	DL_SYM(scols_line_set_data),
	DL_SYM(scols_line_refer_data),
	DL_SYM(scols_table_set_stream),
	DL_SYM(scols_table_set_termwidth),
	DL_SYM(scols_table_set_termforce),
	DL_SYM(scols_print_table),
	DL_SYM(scols_table_enable_noencoding),
	DL_SYM(scols_line_set_userdata),
	DL_SYM(scols_line_get_userdata),
	/* clang-format on */
	{ NULL, NULL },
};

struct out_table {
	struct libscols_table *tb;
	unsigned flags;
	bool width_set;   /* out_table_set_width(): fold as on a terminal */
	size_t width;     /* that width */
	bool fold;        /* this print folds OUT_COL_WRAP cells: a terminal, or a set width */
	uint64_t words;   /* the OUT_COL_WRAP columns among the first 64 */
	const char *name; /* the JSON name, a literal of the caller's */
	size_t ncols, nrows;
};

/*
 * OUT_COL_WRAP: on a terminal a long cell folds at spaces into lines of the
 * column's width (libsmartcols alone cuts words in two); anywhere else it
 * stays on its row's one line, so a pipe gets one line per record.
 */
static size_t word_chunksize(const struct libscols_column *cl, const char *data, void *user)
{
	const struct out_table *t = user;
	size_t max = 0;

	if (!t->fold)
		return strlen(data);
	/* The narrowest the column may be: its longest word. */
	for (const char *p = data; *p;) {
		size_t w = strcspn(p, " ");

		if (w > max)
			max = w;
		p += w;
		p += strspn(p, " ");
	}
	return max;
}

static char *word_nextchunk(const struct libscols_column *cl, char *data, void *user)
{
	const struct out_table *t = user;
	size_t width = sym_scols_column_get_width(cl), len, cut = 0;

	if (!data || !t->fold || (len = strlen(data)) <= width)
		return NULL;
	/* The last space within the width, else the first one after a longer word. */
	for (size_t i = 1; i <= width && i < len; i++)
		if (data[i] == ' ')
			cut = i;
	if (!cut)
		cut = strcspn(data, " ");
	if (!data[cut])
		return NULL;
	data[cut] = '\0';
	return data + cut + 1 + strspn(data + cut + 1, " ");
}

int out_table_new(struct out_table **tp, const char *json_name, unsigned flags, char *why,
		  size_t whylen)
{
	struct out_table *t;
	int r;

	*tp = NULL; /* callers may free it whatever happened */
	r = dl_load(DL_LIB_smartcols, &smartcols, smartcols_syms, why, whylen);
	if (r < 0)
		return r;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->tb = sym_scols_new_table())) {
		free(t);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	t->flags = flags;
	t->name = json_name;
	sym_scols_table_set_name(t->tb, json_name);
	sym_scols_table_enable_json(t->tb, !!(flags & OUT_JSON));
	sym_scols_table_enable_raw(t->tb, !!(flags & OUT_RAW));
	sym_scols_table_enable_noheadings(t->tb, !!(flags & OUT_NOHEADINGS));
	if (flags & OUT_ONELINE)
		sym_scols_table_enable_nolinesep(t->tb, 1);
	/*
	 * A text table's cells are escaped here, as every text output is
	 * (escape.h): libsmartcols' own encoding also writes a backslash
	 * before an 'x' as \x5c, so systemd's escaped unit names
	 * (dev-disk-by\x2duuid-...) came out escaped twice.
	 */
	if (!(flags & (OUT_JSON | OUT_RAW)))
		sym_scols_table_enable_noencoding(t->tb, 1);
	*tp = t;
	return 0;
}

int out_table_add_column(struct out_table *t, const char *name, double width_hint, unsigned flags)
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
	t->ncols++;
	if ((flags & OUT_COL_WRAP) && !(t->flags & (OUT_JSON | OUT_RAW))) {
		size_t at = t->ncols - 1;

		sym_scols_column_set_wrapfunc(cl, word_chunksize, word_nextchunk, t);
		if (at < 64)
			t->words |= UINT64_C(1) << at;
	}
	if (flags & OUT_COL_ARRAY) {
		/* libsmartcols makes array elements of the chunks its wrap function cuts. */
		sym_scols_column_set_json_type(cl, SCOLS_JSON_ARRAY_STRING);
		sym_scols_column_set_wrapfunc(cl, sym_scols_wrapnl_chunksize,
					      sym_scols_wrapnl_nextchunk, NULL);
	} else if (flags & OUT_COL_NUMBER)
		sym_scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	else if (flags & OUT_COL_BOOLEAN)
		sym_scols_column_set_json_type(cl, SCOLS_JSON_BOOLEAN);
	else if (flags & OUT_COL_BOOLEAN_OPT)
		sym_scols_column_set_json_type(cl, SCOLS_JSON_BOOLEAN_OPTIONAL);
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
	struct libscols_line *l = sym_scols_table_new_line(t->tb, NULL);

	t->nrows += l != NULL;
	if (l)
		sym_scols_line_set_userdata(l, t);
	return (struct out_row *)l;
}

/* Give the line text, escaped for a text table; the line owns s (malloc'ed) either way. */
static int cell_take(struct libscols_line *l, size_t col, char *s)
{
	const struct out_table *t = sym_scols_line_get_userdata(l);
	size_t len = strlen(s);
	char *esc;

	if (!t || (t->flags & (OUT_JSON | OUT_RAW)))
		return sym_scols_line_refer_data(l, col, s);
	/* At most 4 bytes for each byte (escape.h). */
	esc = malloc(4 * len + 1);
	if (!esc) {
		free(s);
		return -ENOMEM;
	}
	escape_text(s, esc, 4 * len + 1, ESCAPE_ASCII);
	free(s);
	return sym_scols_line_refer_data(l, col, esc);
}

int out_row_set(struct out_row *r, size_t col, const char *text)
{
	char *s;

	if (!text)
		return sym_scols_line_set_data((struct libscols_line *)r, col, NULL);
	if (!(s = strdup(text)))
		return -ENOMEM;
	return cell_take((struct libscols_line *)r, col, s);
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
	return cell_take((struct libscols_line *)r, col, s);
}

void out_table_set_width(struct out_table *t, size_t width)
{
	if (width) {
		t->width_set = true;
		t->width = width;
		sym_scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_ALWAYS);
		sym_scols_table_set_termwidth(t->tb, width);
	}
}

/* The table as libsmartcols prints it, into a malloc'ed buffer. */
static int render(struct out_table *t, char **buf, size_t *len)
{
	FILE *mem = open_memstream(buf, len);
	int r = 0;

	if (!mem)
		return -ENOMEM;
	sym_scols_table_set_stream(t->tb, mem);
	if (sym_scols_print_table(t->tb) < 0)
		r = -EIO;
	if (fclose(mem) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0) {
		free(*buf);
		*buf = NULL;
	}
	return r;
}

/*
 * libsmartcols escapes control characters in JSON strings but copies bytes
 * that are not UTF-8 as they are, and no JSON parser takes them (a process
 * or cgroup name is anyone's choice).  Each becomes \\xNN in the text, the
 * string \xNN, as every text output shows such a byte (escape.h).  U+2028
 * and U+2029, valid JSON, are written \u2028 and \u2029, so that a reader
 * splitting lines the Unicode way still sees one document per line.  None
 * of these can be outside a string: the rest libsmartcols writes is ASCII.
 */
/* The bytes at s[0..len) JSON carries as they are; *bad: how many to escape after them. */
static size_t json_clean_len(const char *s, size_t len, size_t *bad)
{
	size_t n = escape_utf8_len(s, len);
	const char *ls = n >= 3 ? memmem(s, n, "\xe2\x80", 2) : NULL;

	/* U+2028 and U+2029 are E2 80 A8 and E2 80 A9; E2 80 starts other characters too. */
	while (ls && !((unsigned char)ls[2] == 0xa8 || (unsigned char)ls[2] == 0xa9))
		ls = ls + 3 < s + n ? memmem(ls + 3, (size_t)(s + n - ls - 3), "\xe2\x80", 2)
				    : NULL;
	if (ls) {
		*bad = 3;
		return (size_t)(ls - s);
	}
	*bad = n < len ? 1 : 0;
	return n;
}

static int json_utf8(char **buf, size_t *len)
{
	size_t bad, n = json_clean_len(*buf, *len, &bad), o = 0, i = 0;
	char *out;

	if (!bad)
		return 0;
	/* At most 6 bytes ("\u2028") for each byte of the rest. */
	if (!(out = malloc(n + (*len - n) * 6 + 1)))
		return -ENOMEM;
	while (i < *len) {
		n = json_clean_len(*buf + i, *len - i, &bad);
		memcpy(out + o, *buf + i, n);
		o += n;
		i += n;
		if (bad == 3)
			o += (size_t)snprintf(out + o, 7, "\\u%s",
					      (*buf)[i + 2] == (char)0xa8 ? "2028" : "2029");
		else if (bad)
			o += (size_t)snprintf(out + o, 6, "\\\\x%02x", (unsigned char)(*buf)[i]);
		i += bad;
	}
	out[o] = '\0';
	free(*buf);
	*buf = out;
	*len = o;
	return 0;
}

/* JSON text without layout whitespace (see json_compact()), all of it UTF-8. */
static int render_compact(struct out_table *t, char **buf, size_t *len)
{
	int r = render(t, buf, len);

	if (r == 0)
		*len = json_compact(*buf, *len);
	if (r == 0 && (r = json_utf8(buf, len)) < 0) {
		free(*buf);
		*buf = NULL;
	}
	return r;
}

/*
 * Compact JSON as one line (OUT_ONELINE: a sample per line, one fwrite(),
 * so a many-node sample leaves in one or two write(2)s), or laid out as
 * libsmartcols lays it out.
 */
static int print_json_text(const char *buf, size_t len, unsigned flags, FILE *stream)
{
	if (flags & OUT_ONELINE) {
		if (fwrite(buf, 1, len, stream) != len || fputc('\n', stream) == EOF)
			return -EIO;
		return 0;
	}
	return json_pretty(buf, len, stream);
}

/* The widest cell of each column, its header included (0 past OUT_FOLD_COLS). */
#define OUT_FOLD_COLS 64
static size_t natural_widths(struct out_table *t, size_t *w)
{
	size_t n = sym_scols_table_get_ncols(t->tb);
	struct libscols_iter *itr;
	struct libscols_line *ln;

	if (n > OUT_FOLD_COLS || !(itr = sym_scols_new_iter(SCOLS_ITER_FORWARD)))
		return 0;
	for (size_t c = 0; c < n; c++)
		w[c] = strlen(sym_scols_column_get_name(sym_scols_table_get_column(t->tb, c)));
	while (sym_scols_table_next_line(t->tb, itr, &ln) == 0)
		for (size_t c = 0; c < n; c++) {
			const char *d = sym_scols_cell_get_data(sym_scols_line_get_cell(ln, c));
			size_t len = d ? strlen(d) : 0;

			w[c] = len > w[c] ? len : w[c];
		}
	sym_scols_free_iter(itr);
	return n;
}

/*
 * Before a folding print: when the table is wider than the terminal, each
 * OUT_COL_WRAP column gets its share of what the others leave, as its width
 * (libsmartcols alone may squeeze one that is not the last to its longest
 * word, with the room left unused).
 */
static void share_width(struct out_table *t)
{
	size_t w[OUT_FOLD_COLS], n, term, rows, fixed = 0, wrap = 0, left;

	if (!t->words || !(n = natural_widths(t, w)))
		return;
	term = t->width;
	if (!t->width_set)
		out_terminal_size(&term, &rows);
	for (size_t c = 0; c < n; c++) {
		if (t->words & (UINT64_C(1) << c))
			wrap += w[c];
		else
			fixed += w[c];
		fixed += c ? 1 : 0;
	}
	if (!term || !wrap || fixed + wrap <= term || fixed + 8 > term)
		return;
	left = term - fixed;
	for (size_t c = 0; c < n; c++) {
		size_t share = w[c] * left / wrap;

		if (t->words & (UINT64_C(1) << c))
			sym_scols_column_set_whint(sym_scols_table_get_column(t->tb, c),
						   (double)(share > 1 ? share : 1));
	}
}

int out_table_print(struct out_table *t, FILE *stream)
{
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (!(t->flags & OUT_JSON)) {
		t->fold = t->width_set || isatty(fileno(stream));
		if (t->fold)
			share_width(t);
		sym_scols_table_set_stream(t->tb, stream);
		if (sym_scols_print_table(t->tb) < 0 || ferror(stream))
			return -EIO;
		return 0;
	}
	r = render_compact(t, &buf, &len);
	if (r == 0)
		r = print_json_text(buf, len, t->flags, stream);
	free(buf);
	return r < 0 || ferror(stream) ? -EIO : 0;
}

int out_table_text(struct out_table *t, char **text)
{
	size_t len = 0;

	*text = NULL;
	t->fold = t->width_set;
	if (t->fold)
		share_width(t);
	return render(t, text, &len);
}

struct out_doc {
	char *buf; /* the members so far, compact, comma separated */
	size_t len, cap;
	unsigned flags;
	/* out_doc_stream_rows(): the head is printed; a row is; the pretty layout's depth. */
	bool streaming, any_row;
	int level;
};

int out_doc_new(struct out_doc **dp, unsigned flags)
{
	*dp = calloc(1, sizeof(**dp));
	if (!*dp)
		return -ENOMEM;
	(*dp)->flags = flags;
	return 0;
}

static int doc_append(struct out_doc *d, const char *s, size_t n)
{
	if (array_grow(&d->buf, &d->cap, d->len + 1 + n, 1) < 0) /* a comma, then s */
		return -ENOMEM;
	if (d->len)
		d->buf[d->len++] = ',';
	memcpy(d->buf + d->len, s, n);
	d->len += n;
	return 0;
}

/*
 * A table without columns, which libsmartcols does not print: "name":{}
 * (null without a row), or an array of as many {} as rows.  name is a
 * literal of ours: nothing to escape.
 */
static int doc_empty(struct out_doc *d, const struct out_table *t, enum out_part how)
{
	size_t len = strlen(t->name) + 8 + 3 * t->nrows;
	char *member = malloc(len), *p = member;
	int r;

	if (how == OUT_PART_OBJECT && t->nrows > 1)
		return free(member), -EINVAL; /* more than one row */
	if (!member)
		return -ENOMEM;
	p += sprintf(p, "\"%s\":", t->name);
	if (how == OUT_PART_OBJECT)
		p += sprintf(p, "%s", t->nrows ? "{}" : "null");
	else {
		*p++ = '[';
		for (size_t i = 0; i < t->nrows; i++)
			p += sprintf(p, "%s{}", i ? "," : "");
		*p++ = ']';
	}
	r = doc_append(d, member, (size_t)(p - member));
	free(member);
	return r;
}

/*
 * From a table's compact {"name":[rows]}: the member itself, "name":{row}
 * (one row at most; none gives null), or the row's own members.
 */
static int doc_take(struct out_doc *d, const char *s, size_t len, enum out_part how)
{
	size_t from, to, key_end, rows_from, rows_to, row_end;
	char *member;
	int r;

	if (json_object_inner(s, len, &from, &to) < 0 || from == to)
		return -EINVAL;
	if (how == OUT_PART_ARRAY)
		return doc_append(d, s + from, to - from);
	key_end = json_value_end(s, to, from);
	if (!key_end || key_end + 2 > to || s[key_end] != ':' || s[key_end + 1] != '[' ||
	    s[to - 1] != ']')
		return -EINVAL;
	rows_from = key_end + 2;
	rows_to = to - 1;
	row_end = rows_from < rows_to ? json_value_end(s, rows_to, rows_from) : rows_from;
	if (row_end != rows_to)
		return -EINVAL; /* more than one row */
	/* No row, or a row without columns ({}): no fields to add. */
	if (how == OUT_PART_FIELDS)
		return rows_to - rows_from <= 2
			       ? 0
			       : doc_append(d, s + rows_from + 1, rows_to - rows_from - 2);
	if (rows_from == rows_to)
		r = asprintf(&member, "%.*s:null", (int)(key_end - from), s + from);
	else
		r = asprintf(&member, "%.*s:%.*s", (int)(key_end - from), s + from,
			     (int)(rows_to - rows_from), s + rows_from);
	if (r < 0)
		return -ENOMEM;
	r = doc_append(d, member, strlen(member));
	free(member);
	return r;
}

int out_doc_add(struct out_doc *d, struct out_table *t, enum out_part how)
{
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (!(t->flags & OUT_JSON))
		return -EINVAL;
	/*
	 * libsmartcols prints no table without columns (-o NODE leaves the
	 * total none): an object without members, an array of empty objects.
	 */
	if (t->ncols == 0 && how == OUT_PART_FIELDS)
		return t->nrows > 1 ? -EINVAL : 0;
	if (t->ncols == 0)
		return doc_empty(d, t, how);
	r = render_compact(t, &buf, &len);
	if (r == 0)
		r = doc_take(d, buf, len, how);
	free(buf);
	return r;
}

int out_doc_add_strings(struct out_doc *d, const char *name, const char *const *s, size_t n,
			char *why, size_t whylen)
{
	struct out_table *t;
	struct out_row *row;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int r = out_table_new(&t, "", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	out_table_add_column(t, name, 0, OUT_COL_ARRAY);
	/* An array cell is its items a line each. */
	f = open_memstream(&text, &len);
	for (size_t i = 0; f && i < n; i++)
		fprintf(f, "%s%s", i ? "\n" : "", s[i]);
	if (!f || fclose(f) != 0 || !(row = out_table_add_row(t)))
		r = -ENOMEM;
	else
		r = out_row_set(row, 0, text);
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_FIELDS);
	free(text);
	out_table_free(t);
	return r;
}

int out_doc_print(struct out_doc *d, FILE *stream)
{
	char *text;
	int n = asprintf(&text, "{%.*s}", (int)d->len, d->buf ? d->buf : "");
	int r;

	if (n < 0)
		return -ENOMEM;
	r = print_json_text(text, (size_t)n, d->flags, stream);
	free(text);
	return r < 0 || ferror(stream) ? -EIO : 0;
}

/* Compact text to stream as the document's layout has it (OUT_ONELINE: as it is). */
static void doc_put(struct out_doc *d, const char *s, size_t len, FILE *stream)
{
	if (d->flags & OUT_ONELINE)
		fwrite(s, 1, len, stream);
	else
		json_pretty_part(s, len, stream, &d->level);
}

int out_doc_stream_rows(struct out_doc *d, struct out_table *t, FILE *stream)
{
	size_t len = 0, from, to, key_end;
	char *buf = NULL;
	int r;

	if (!(t->flags & OUT_JSON) || t->ncols == 0)
		return -EINVAL;
	r = render_compact(t, &buf, &len);
	/* libsmartcols's {"name":[rows]}: "name": is the key, the rows go into the one array. */
	if (r == 0 && (json_object_inner(buf, len, &from, &to) < 0 ||
		       !(key_end = json_value_end(buf, to, from)) || key_end + 2 > to ||
		       buf[key_end] != ':' || buf[key_end + 1] != '[' || buf[to - 1] != ']'))
		r = -EINVAL;
	if (r == 0 && !d->streaming) {
		doc_put(d, "{", 1, stream);
		doc_put(d, d->buf ? d->buf : "", d->len, stream);
		doc_put(d, ",", d->len ? 1 : 0, stream);
		doc_put(d, buf + from, key_end + 1 - from, stream);
		d->streaming = true;
	}
	if (r == 0 && key_end + 2 < to - 1) {
		/* "[" once, before the first row; "," between two tables' rows. */
		if (d->any_row)
			fputc(',', stream);
		else
			doc_put(d, "[", 1, stream);
		doc_put(d, buf + key_end + 2, to - 1 - (key_end + 2), stream);
		d->any_row = true;
	}
	free(buf);
	return r < 0 ? r : ferror(stream) ? -EIO : 0;
}

int out_doc_stream_end(struct out_doc *d, FILE *stream)
{
	if (!d->streaming)
		return -EINVAL;
	doc_put(d, d->any_row ? "]}" : "[]}", d->any_row ? 2 : 3, stream);
	fputc('\n', stream);
	return ferror(stream) ? -EIO : 0;
}

void out_doc_free(struct out_doc *d)
{
	if (!d)
		return;
	free(d->buf);
	free(d);
}

void out_terminal_size(size_t *cols, size_t *rows)
{
	struct winsize ws;
	const char *env;
	uint64_t v;

	*cols = *rows = 0;
	if (!isatty(STDOUT_FILENO))
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
		return;
	}
	env = getenv("COLUMNS");
	*cols = env && parse_u64(env, 100000, &v) == 0 && v > 0 ? (size_t)v : 80;
	env = getenv("LINES");
	*rows = env && parse_u64(env, 100000, &v) == 0 && v > 0 ? (size_t)v : 24;
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	sym_scols_unref_table(t->tb);
	free(t);
}
