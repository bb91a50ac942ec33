// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --compat: numastat's output byte for byte, for scripts written against it.
 * With no numastat option letter this is its no-argument shape (lower-case
 * nodeN headers, raw page counts, no Total); with 'n', 'm', 'c', 'z' or a
 * sort it is the "new" layout in MB.  One table engine prints every shape,
 * --pid's included: the cell model, widths, zero rules, sort and line
 * folding follow numastat's own table code, so the bytes match; what is
 * left out on purpose: its "Token ... not in hash table." lines on stdout for
 * meminfo keys it does not know.  Printed with stdio: no libsmartcols.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat-compat.h"

enum { C_NULL, C_NUM, C_STR, C_REP };

/* A cell: its type (C_*) apart, so that a table of 1024 nodes' columns is 8 bytes a cell. */
struct ccell {
	union {
		double d;      /* C_NUM */
		const char *s; /* C_STR */
	};
};

/* Column 0 is the label column; rows 0 .. hrows - 1 are headers. */
struct stat_compat_table {
	int hrows, rows, cols; /* rows/cols include the header row(s)/column */
	struct ccell *cell;
	unsigned char *type;
	int *rowmap, *width;
	bool *row_seen, *row_nz, *col_seen, *col_nz, *rule;
	int places;
	char *line; /* one output line: the label column at its widest (24), the others (16) */
};

#define CC(t, r, c) (&(t)->cell[(r) * (t)->cols + (c)])
#define CT(t, r, c) ((t)->type[(r) * (t)->cols + (c)])

int stat_compat_table_new(struct stat_compat_table **tp, int hrows, int data_rows, int data_cols)
{
	struct stat_compat_table *t = calloc(1, sizeof(*t));

	*tp = t;
	if (!t)
		return -ENOMEM;
	t->hrows = hrows;
	t->rows = hrows + data_rows;
	t->cols = 1 + data_cols;
	t->cell = calloc((size_t)t->rows * (size_t)t->cols, sizeof(*t->cell));
	t->type = calloc((size_t)t->rows * (size_t)t->cols, sizeof(*t->type));
	t->rowmap = calloc((size_t)t->rows, sizeof(int));
	t->width = calloc((size_t)t->cols, sizeof(int));
	t->row_seen = calloc((size_t)t->rows, 3 * sizeof(bool));
	t->col_seen = calloc((size_t)t->cols, 2 * sizeof(bool));
	t->line = malloc(24 + (size_t)t->cols * 16 + 2);
	if (!t->cell || !t->type || !t->rowmap || !t->width || !t->row_seen || !t->col_seen ||
	    !t->line)
		return -ENOMEM;
	t->row_nz = t->row_seen + t->rows;
	t->rule = t->row_nz + t->rows;
	t->col_nz = t->col_seen + t->cols;
	for (int r = 0; r < t->rows; r++)
		t->rowmap[r] = r;
	for (int c = 0; c < t->cols; c++)
		t->width[c] = 16;
	return 0;
}

void stat_compat_table_free(struct stat_compat_table *t)
{
	if (!t)
		return;
	free(t->cell);
	free(t->type);
	free(t->rowmap);
	free(t->width);
	free(t->row_seen);
	free(t->col_seen);
	free(t->line);
	free(t);
}

void stat_compat_table_text(struct stat_compat_table *t, int r, int c, const char *s)
{
	CC(t, r, c)->s = s;
	CT(t, r, c) = C_STR;
}

void stat_compat_table_rule(struct stat_compat_table *t, int r, int c)
{
	CT(t, r, c) = C_REP;
	t->rule[r] = true;
}

void stat_compat_table_add(struct stat_compat_table *t, int r, int c, double v)
{
	/* A cell is added to only as a number (a label is never a sum). */
	CC(t, r, c)->d = CT(t, r, c) == C_NUM ? CC(t, r, c)->d + v : v;
	CT(t, r, c) = C_NUM;
}

void stat_compat_table_hide(struct stat_compat_table *t, int c)
{
	t->width[c] = 0;
}

/* "%.0f" of a whole, non-negative double without printf: the common case. */
static bool whole_number(double d, char *buf, int *n)
{
	char tmp[24];
	uint64_t v;
	int k = 0;

	if (!(d >= 0 && d < 9007199254740992.0) || d != (double)(uint64_t)d)
		return false;
	v = (uint64_t)d;
	do
		tmp[k++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	for (*n = 0; k > 0;)
		buf[(*n)++] = tmp[--k];
	return true;
}

/* numastat's cell text (at most 127 bytes): cut to the column width. */
static size_t cell_text(int type, const struct ccell *c, int width, int places, char *buf)
{
	int n = 0;

	switch (type) {
	case C_NUM:
		if (places > 0 || !whole_number(c->d, buf, &n))
			n = snprintf(buf, 128, "%.*f", places, c->d);
		break;
	case C_STR:
		n = (int)strnlen(c->s, 127);
		memcpy(buf, c->s, (size_t)n);
		break;
	case C_REP:
		n = width > 1 ? width - 1 : 0;
		memset(buf, '-', (size_t)n);
		break;
	}
	if (n > 127)
		n = 127;
	if (n > width)
		n = width;
	buf[n] = '\0';
	return (size_t)n;
}

/* Append one cell, padded to its width (labels left, data right), to line. */
static char *put_cell(const struct stat_compat_table *t, int r, int c, char *line)
{
	char buf[128];
	int w = t->width[c];
	size_t l = cell_text(CT(t, r, c), CC(t, r, c), w, c ? t->places : 0, buf);
	size_t pad = (size_t)w - l;

	if (c == 0) {
		memcpy(line, buf, l);
		memset(line + l, ' ', pad);
	} else {
		memset(line, ' ', pad);
		memcpy(line + pad, buf, l);
	}
	return line + w;
}

static void flag_data(struct stat_compat_table *t)
{
	for (int r = t->hrows; r < t->rows; r++)
		for (int c = 1; c < t->cols; c++) {
			const struct ccell *x = CC(t, r, c);

			if (CT(t, r, c) != C_NUM)
				continue;
			t->row_seen[r] = t->col_seen[c] = true;
			/* numastat tests the cell's bits: any non-zero double. */
			if (x->d != 0)
				t->row_nz[r] = t->col_nz[c] = true;
		}
}

static bool col_shown(const struct stat_compat_table *t, int c, bool zeros)
{
	return t->col_seen[c] && (zeros || t->col_nz[c]);
}

/* Header rows, rules and the data rows with something to show. */
static bool row_shown(const struct stat_compat_table *t, int r, bool zeros)
{
	return r < t->hrows || t->rule[r] || (t->row_seen[r] && (zeros || t->row_nz[r]));
}

/* One line: the label column, then columns from first while they fit. */
static int put_line(const struct stat_compat_table *t, int r, int first, bool zeros, long screen,
		    FILE *out)
{
	long used = t->width[0];
	char *p = put_cell(t, r, 0, t->line);
	int c = first;

	for (;;) {
		if (col_shown(t, c, zeros)) {
			p = put_cell(t, r, c, p);
			used += t->width[c];
		}
		c++;
		if (c >= t->cols || used + t->width[c] > screen)
			break;
	}
	*p++ = '\n';
	fwrite(t->line, 1, (size_t)(p - t->line), out);
	return c;
}

static void display(struct stat_compat_table *t, bool zeros, long screen, FILE *out)
{
	bool any_seen = false, any_nz = false;
	int c = -1, first = 1;

	flag_data(t);
	for (int r = t->hrows; r < t->rows; r++) {
		any_seen |= t->row_seen[r];
		any_nz |= t->row_nz[r];
	}
	if (!any_seen) {
		fputs("Table has no data.\n", out);
		return;
	}
	if (!any_nz && !zeros) {
		fputs("Table has no non-zero data.\n", out);
		return;
	}
	while (first < t->cols) {
		if (!col_shown(t, first, zeros)) {
			first++;
			continue;
		}
		if (c > 0)
			fputc('\n', out);
		for (int i = 0; i < t->rows; i++)
			if (row_shown(t, t->rowmap[i], zeros))
				c = put_line(t, t->rowmap[i], first, zeros, screen, out);
		first = c;
	}
}

/* numastat's selection sort, descending, so equal rows land where its do. */
static void sort_rows(struct stat_compat_table *t, int col)
{
	for (int i = t->hrows; i < t->rows; i++) {
		int big = i;

		for (int j = i + 1; j < t->rows; j++)
			if (CC(t, t->rowmap[big], col)->d < CC(t, t->rowmap[j], col)->d)
				big = j;
		if (big != i) {
			int tmp = t->rowmap[i];

			t->rowmap[i] = t->rowmap[big];
			t->rowmap[big] = tmp;
		}
	}
}

/* The longest text of column c (cut at 127), or at most cap. */
static int longest(const struct stat_compat_table *t, int c, int cap)
{
	char buf[128];
	int w = 0;

	for (int r = 0; r < t->rows; r++) {
		int l;

		if (CT(t, r, c) == C_REP)
			continue;
		l = (int)cell_text(CT(t, r, c), CC(t, r, c), cap, c ? t->places : 0, buf);
		if (l > w)
			w = l;
	}
	return w;
}

/* numastat's auto_set_col_width(): the longest text + 1 gutter, within [min, max]. */
static void auto_width(struct stat_compat_table *t, int c, int min, int max)
{
	int w = longest(t, c, max);

	t->width[c] = (w > min ? w : min) + 1 > max ? max : (w > min ? w : min) + 1;
}

int stat_compat_table_print(struct stat_compat_table *t, const struct stat_compat_style *st,
			    FILE *out)
{
	t->places = st->places;
	/* numastat -c: each column as wide as its widest text (4..16) plus a gutter. */
	for (int c = 0; st->compress && c < t->cols; c++)
		if (t->width[c] > 0)
			auto_width(t, c, 4, 16);
	if (!st->compress && st->label_max > 16)
		auto_width(t, 0, 16, st->label_max);
	if (st->sort_col > 0)
		sort_rows(t, st->sort_col);
	display(t, !st->skip_zero, st->width, out);
	return ferror(out) ? -EIO : 0;
}

static const char *const ns_labels[NS_STANDARD] = {
	"Numa_Hit", "Numa_Miss", "Numa_Foreign", "Interleave_Hit", "Local_Node", "Other_Node",
};

/* numastat's fixed -m rows, in its order (labels equal the keys). */
static const char *const mem_rows[] = {
	"MemTotal",       "MemFree",        "MemUsed",         "HighTotal",      "HighFree",
	"LowTotal",       "LowFree",        "Active",          "Inactive",       "Active(anon)",
	"Inactive(anon)", "Active(file)",   "Inactive(file)",  "Unevictable",    "Mlocked",
	"Dirty",          "Writeback",      "FilePages",       "Mapped",         "AnonPages",
	"Shmem",          "KernelStack",    "PageTables",      "NFS_Unstable",   "Bounce",
	"WritebackTmp",   "Slab",           "SReclaimable",    "SUnreclaim",     "AnonHugePages",
	"ShmemHugePages", "ShmemPmdMapped", "HugePages_Total", "HugePages_Free", "HugePages_Surp",
	"KReclaimable",
};
#define MEM_ROWS (sizeof(mem_rows) / sizeof(mem_rows[0]))

bool stat_compat_is_plain(const struct compat_opts *co)
{
	return !co->meminfo && !co->numastat && !co->compress && !co->skip_zero &&
	       co->sort == COMPAT_SORT_NONE;
}

long stat_compat_screen_width(size_t tty_width)
{
	const char *env = getenv("NUMASTAT_WIDTH");
	long w;

	if (env) {
		/* numastat reads it with atoi(), junk and all: NOLINTNEXTLINE(cert-err34-c) */
		w = atol(env);
		if (w < 1 || w > 10000000)
			w = 80;
	} else
		w = tty_width ? (long)tty_width : 10000000;
	return w < 32 ? 32 : w;
}

/* The table of nn node columns plus Total: headers and the rule under them. */
static int new_table(struct stat_compat_table **tp, const struct compat_opts *co, bool plain,
		     const unsigned *ids, int nn, int data_rows, char (*hdr)[12])
{
	int h = plain ? 1 : 2, r = stat_compat_table_new(tp, h, data_rows, nn + 1);

	if (r < 0)
		return r;
	for (int i = 0; i <= nn; i++) {
		int c = 1 + i;

		if (i == nn && plain) {
			stat_compat_table_hide(*tp, c); /* no Total column: it prints as nothing */
			break;
		}
		if (i == nn)
			snprintf(hdr[c], sizeof(hdr[c]), "Total");
		else
			snprintf(hdr[c], sizeof(hdr[c]), plain ? "node%u" : "Node %u", ids[i]);
		stat_compat_table_text(*tp, 0, c, hdr[c]);
		if (!plain)
			stat_compat_table_rule(*tp, 1, c);
	}
	return 0;
}

/* -c, -z and -s as numastat applies them to its system tables. */
static int show(struct stat_compat_table *t, const struct compat_opts *co, bool plain,
		const unsigned *ids, int nn, FILE *out)
{
	struct stat_compat_style st = { .compress = co->compress,
					.skip_zero = co->skip_zero,
					.places = plain || co->compress ? 0 : 2,
					.width = co->width };

	if (co->sort != COMPAT_SORT_NONE) {
		st.sort_col = 1 + nn; /* Total, unless the node asked for is shown */
		for (int i = 0; i < nn; i++)
			if (co->sort >= 0 && ids[i] == (unsigned)co->sort)
				st.sort_col = 1 + i;
	}
	return stat_compat_table_print(t, &st, out);
}

/* The ids and indexes of the nodes whose file was read (numastat, else meminfo). */
static int readable(const struct stat_nodes *nodes, bool ns, unsigned *ids, size_t *idx)
{
	int nn = 0;

	for (size_t i = 0; i < nodes->n; i++)
		if (!(ns ? nodes->ns_err[i] : nodes->mi_err[i])) {
			ids[nn] = nodes->id[i];
			idx[nn++] = i;
		}
	return nn;
}

static int show_numastat(const struct compat_opts *co, const struct stat_nodes *nodes, FILE *out)
{
	size_t n = nodes->n, *idx = calloc(n + 1, sizeof(*idx));
	unsigned *ids = calloc(n + 1, sizeof(*ids));
	/* clang-format off */
	char (*hdr)[12] = calloc(n + 2, sizeof(*hdr));
	/* clang-format on */
	bool plain = stat_compat_is_plain(co);
	int nn = idx && ids ? readable(nodes, true, ids, idx) : 0, h = plain ? 1 : 2, r;
	struct stat_compat_table *t = NULL;
	int key[NS_STANDARD];

	for (int row = 0; row < NS_STANDARD; row++)
		key[row] = stat_nodes_counter_index(nodes, numastat_keys[row]);
	r = idx && ids && hdr ? new_table(&t, co, plain, ids, nn, NS_STANDARD, hdr) : -ENOMEM;
	if (r == 0) {
		for (int k = 0; k < NS_STANDARD; k++)
			stat_compat_table_text(t, h + k, 0,
					       plain ? numastat_keys[k] : ns_labels[k]);
		for (int i = 0; i < nn; i++)
			for (int row = 0; row < NS_STANDARD; row++) {
				uint64_t c;
				double v;

				if (key[row] < 0 ||
				    !stat_nodes_counter(nodes, idx[i], (size_t)key[row], &c))
					continue;
				v = (double)c;
				if (!plain)
					v = v * co->page_size / (1024.0 * 1024.0);
				stat_compat_table_add(t, h + row, 1 + i, v);
				stat_compat_table_add(t, h + row, 1 + nn, v);
			}
		if (!plain)
			fputs("\nPer-node numastat info (in MBs):\n", out);
		r = show(t, co, plain, ids, nn, out);
	}
	stat_compat_table_free(t);
	free(hdr);
	free(ids);
	free(idx);
	return r == -EIO ? 0 : r;
}

static int mem_row(const char *name)
{
	for (size_t i = 0; i < MEM_ROWS; i++)
		if (strcmp(mem_rows[i], name) == 0)
			return (int)i;
	return -1;
}

/* Node i's meminfo into column col and the Total column: the rows numastat -m has. */
static void add_meminfo(struct stat_compat_table *t, const struct compat_opts *co,
			const struct stat_nodes *nodes, size_t i, int col, int total)
{
	for (size_t k = 0; k < nodes->n_fields; k++) {
		const struct meminfo_field *f = &nodes->field[k];
		int row = mem_row(f->name);
		double v, mult = 1.0;
		uint64_t x;

		if (row < 0 || !stat_nodes_field(nodes, i, k, &x))
			continue;
		if (strncmp(f->name, "HugePages", 9) == 0)
			mult = co->huge_page_size;
		else if (f->kb)
			mult = 1024;
		v = (double)x * mult / (1024.0 * 1024.0);
		stat_compat_table_add(t, 2 + row, col, v);
		stat_compat_table_add(t, 2 + row, total, v);
	}
}

static int show_meminfo(const struct compat_opts *co, const struct stat_nodes *nodes, FILE *out)
{
	size_t n = nodes->n, *idx = calloc(n + 1, sizeof(*idx));
	unsigned *ids = calloc(n + 1, sizeof(*ids));
	/* clang-format off */
	char (*hdr)[12] = calloc(n + 2, sizeof(*hdr));
	/* clang-format on */
	struct stat_compat_table *t = NULL;
	int nn = idx && ids ? readable(nodes, false, ids, idx) : 0, r;

	r = idx && ids && hdr ? new_table(&t, co, false, ids, nn, (int)MEM_ROWS, hdr) : -ENOMEM;
	if (r == 0) {
		for (size_t k = 0; k < MEM_ROWS; k++)
			stat_compat_table_text(t, 2 + (int)k, 0, mem_rows[k]);
		for (int i = 0; i < nn; i++)
			add_meminfo(t, co, nodes, idx[i], 1 + i, 1 + nn);
		fputs("\nPer-node system memory usage (in MBs):\n", out);
		r = show(t, co, false, ids, nn, out);
	}
	stat_compat_table_free(t);
	free(hdr);
	free(ids);
	free(idx);
	return r == -EIO ? 0 : r;
}

int stat_compat_print(const struct compat_opts *co, const struct stat_nodes *nodes, FILE *out)
{
	int r = 0;

	/* numastat's order: -m first, then the counters (-n, or no -m). */
	if (co->meminfo)
		r = show_meminfo(co, nodes, out);
	if (r == 0 && (co->numastat || !co->meminfo))
		r = show_numastat(co, nodes, out);
	return r;
}
