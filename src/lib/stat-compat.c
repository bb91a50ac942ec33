// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --compat: numastat's output byte for byte, for scripts written against it.
 * With no numastat option letter this is its no-argument shape (lower-case
 * nodeN headers, raw page counts, no Total); with 'n', 'm', 'c', 'z' or a
 * sort it is the "new" layout in MB.  The cell model, widths and line
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

struct ccell {
	unsigned char type;
	double d;
	const char *s;
};

/* Column 0 is the label column; the last column is Total. */
struct ctab {
	int hrows, rows, cols; /* rows/cols include the header row(s)/column */
	struct ccell *cell;
	int *rowmap, *width;
	bool *row_seen, *row_nz, *col_seen, *col_nz;
	int places;
	/* clang-format off */
	char (*hdr)[24];
	/* clang-format on */
	char *line; /* one output line: every column at its widest (16) */
};

#define CC(t, r, c) (&(t)->cell[(r) * (t)->cols + (c)])

static int ctab_init(struct ctab *t, int hrows, int data_rows, int data_cols)
{
	memset(t, 0, sizeof(*t));
	t->hrows = hrows;
	t->rows = hrows + data_rows;
	t->cols = 1 + data_cols;
	t->cell = calloc((size_t)t->rows * (size_t)t->cols, sizeof(*t->cell));
	t->rowmap = calloc((size_t)t->rows, sizeof(int));
	t->width = calloc((size_t)t->cols, sizeof(int));
	t->row_seen = calloc((size_t)t->rows, 2 * sizeof(bool));
	t->col_seen = calloc((size_t)t->cols, 2 * sizeof(bool));
	t->hdr = calloc((size_t)t->cols, sizeof(*t->hdr));
	t->line = malloc((size_t)t->cols * 16 + 2);
	if (!t->cell || !t->rowmap || !t->width || !t->row_seen || !t->col_seen || !t->hdr ||
	    !t->line)
		return -ENOMEM;
	t->row_nz = t->row_seen + t->rows;
	t->col_nz = t->col_seen + t->cols;
	for (int r = 0; r < t->rows; r++)
		t->rowmap[r] = r;
	return 0;
}

static void ctab_free(struct ctab *t)
{
	free(t->cell);
	free(t->rowmap);
	free(t->width);
	free(t->row_seen);
	free(t->col_seen);
	free(t->hdr);
	free(t->line);
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
static size_t cell_text(const struct ccell *c, int width, int places, char *buf)
{
	int n = 0;

	switch (c->type) {
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
static char *put_cell(const struct ctab *t, int r, int c, char *line)
{
	char buf[128];
	int w = t->width[c];
	size_t l = cell_text(CC(t, r, c), w, c ? t->places : 0, buf);
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

static void flag_data(struct ctab *t)
{
	for (int r = t->hrows; r < t->rows; r++)
		for (int c = 1; c < t->cols; c++) {
			const struct ccell *x = CC(t, r, c);

			if (x->type == C_NULL || x->type == C_REP)
				continue;
			t->row_seen[r] = t->col_seen[c] = true;
			/* numastat tests the cell's bits: any non-zero double. */
			if (x->d != 0)
				t->row_nz[r] = t->col_nz[c] = true;
		}
}

static bool col_shown(const struct ctab *t, int c, bool zeros)
{
	return t->col_seen[c] && (zeros || t->col_nz[c]);
}

/* One line: the label column, then columns from first while they fit. */
static int put_line(const struct ctab *t, int r, int first, bool zeros, long screen, FILE *out)
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

static void ctab_display(struct ctab *t, bool zeros, long screen, FILE *out)
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
		for (int i = 0; i < t->rows; i++) {
			int r = t->rowmap[i];

			if (r >= t->hrows && (!t->row_seen[r] || (!zeros && !t->row_nz[r])))
				continue;
			c = put_line(t, r, first, zeros, screen, out);
		}
		first = c;
	}
}

/* numastat's selection sort, descending, so equal rows land where its do. */
static void ctab_sort(struct ctab *t, int col)
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

/* numastat -c: each column as wide as its widest text (4..16) plus a gutter. */
static void ctab_compress(struct ctab *t)
{
	char buf[128];

	for (int c = 0; c < t->cols; c++) {
		int w = 4;

		for (int r = 0; r < t->rows; r++) {
			const struct ccell *x = CC(t, r, c);
			int l;

			if (x->type == C_REP)
				continue;
			l = (int)cell_text(x, 16, c ? t->places : 0, buf);
			if (l > w)
				w = l;
		}
		t->width[c] = w + 1 > 16 ? 16 : w + 1;
	}
}

static void num_add(struct ctab *t, int r, int c, double v)
{
	struct ccell *x = CC(t, r, c);

	x->type = C_NUM;
	x->d += v;
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

/* Headers, widths and the label column for nn node columns plus Total. */
static void setup_columns(struct ctab *t, const struct compat_opts *co, bool plain,
			  const struct compat_node *const *cols, int nn)
{
	t->width[0] = 16;
	t->places = plain || co->compress ? 0 : 2;
	for (int i = 0; i <= nn; i++) {
		int c = 1 + i;

		if (i == nn && plain)
			break; /* no Total column: width 0, it prints as nothing */
		if (i == nn)
			snprintf(t->hdr[c], sizeof(t->hdr[c]), "Total");
		else
			snprintf(t->hdr[c], sizeof(t->hdr[c]), plain ? "node%u" : "Node %u",
				 cols[i]->id);
		*CC(t, 0, c) = (struct ccell){ .type = C_STR, .s = t->hdr[c] };
		if (!plain)
			CC(t, 1, c)->type = C_REP;
		t->width[c] = 16;
	}
}

static void sort_and_show(struct ctab *t, const struct compat_opts *co,
			  const struct compat_node *const *cols, int nn, FILE *out)
{
	if (co->compress)
		ctab_compress(t);
	if (co->sort != COMPAT_SORT_NONE) {
		int col = 1 + nn; /* Total, unless the node asked for is shown */

		for (int i = 0; i < nn; i++)
			if (co->sort >= 0 && cols[i]->id == (unsigned)co->sort)
				col = 1 + i;
		ctab_sort(t, col);
	}
	ctab_display(t, !co->skip_zero, co->width, out);
}

static int show_numastat(const struct compat_opts *co, const struct compat_node *nodes, size_t n,
			 FILE *out)
{
	const struct compat_node **cols = calloc(n + 1, sizeof(*cols));
	bool plain = stat_compat_is_plain(co);
	int nn = 0, h = plain ? 1 : 2, r;
	struct ctab t = { 0 };

	for (size_t i = 0; cols && i < n; i++)
		if (nodes[i].ns)
			cols[nn++] = &nodes[i];
	r = cols ? ctab_init(&t, h, NS_STANDARD, nn + 1) : -ENOMEM;
	if (r == 0) {
		setup_columns(&t, co, plain, cols, nn);
		for (int k = 0; k < NS_STANDARD; k++)
			*CC(&t, h + k, 0) =
				(struct ccell){ .type = C_STR,
						.s = plain ? numastat_keys[k] : ns_labels[k] };
		for (int i = 0; i < nn; i++)
			for (size_t k = 0; k < cols[i]->ns->n; k++) {
				const struct counter *c = &cols[i]->ns->c[k];
				double v = (double)c->value;

				for (int row = 0; row < NS_STANDARD; row++) {
					if (strcmp(c->name, numastat_keys[row]) != 0)
						continue;
					if (!plain)
						v = v * co->page_size / (1024.0 * 1024.0);
					num_add(&t, h + row, 1 + i, v);
					num_add(&t, h + row, 1 + nn, v);
				}
			}
		if (!plain)
			fputs("\nPer-node numastat info (in MBs):\n", out);
		sort_and_show(&t, co, cols, nn, out);
	}
	ctab_free(&t);
	free(cols);
	return r;
}

static int mem_row(const char *name)
{
	for (size_t i = 0; i < MEM_ROWS; i++)
		if (strcmp(mem_rows[i], name) == 0)
			return (int)i;
	return -1;
}

static void add_meminfo(struct ctab *t, const struct compat_opts *co, const struct meminfo *mi,
			int col, int total)
{
	for (size_t k = 0; k < mi->n; k++) {
		const struct meminfo_field *f = &mi->f[k];
		int row = mem_row(f->name);
		double v = (double)f->value, mult = 1.0;

		if (row < 0)
			continue;
		if (strncmp(f->name, "HugePages", 9) == 0)
			mult = co->huge_page_size;
		else if (f->kb)
			mult = 1024;
		v = v * mult / (1024.0 * 1024.0);
		num_add(t, 2 + row, col, v);
		num_add(t, 2 + row, total, v);
	}
}

static int show_meminfo(const struct compat_opts *co, const struct compat_node *nodes, size_t n,
			FILE *out)
{
	const struct compat_node **cols = calloc(n + 1, sizeof(*cols));
	int nn = 0, r;
	struct ctab t = { 0 };

	for (size_t i = 0; cols && i < n; i++)
		if (nodes[i].mi)
			cols[nn++] = &nodes[i];
	r = cols ? ctab_init(&t, 2, (int)MEM_ROWS, nn + 1) : -ENOMEM;
	if (r == 0) {
		setup_columns(&t, co, false, cols, nn);
		for (size_t k = 0; k < MEM_ROWS; k++)
			*CC(&t, 2 + (int)k, 0) = (struct ccell){ .type = C_STR, .s = mem_rows[k] };
		for (int i = 0; i < nn; i++)
			add_meminfo(&t, co, cols[i]->mi, 1 + i, 1 + nn);
		fputs("\nPer-node system memory usage (in MBs):\n", out);
		sort_and_show(&t, co, cols, nn, out);
	}
	ctab_free(&t);
	free(cols);
	return r;
}

int stat_compat_print(const struct compat_opts *co, const struct compat_node *nodes, size_t n,
		      FILE *out)
{
	int r = 0;

	/* numastat's order: -m first, then the counters (-n, or no -m). */
	if (co->meminfo)
		r = show_meminfo(co, nodes, n, out);
	if (r == 0 && (co->numastat || !co->meminfo))
		r = show_numastat(co, nodes, n, out);
	return r;
}
