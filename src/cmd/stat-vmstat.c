// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vmstat counter table of --balancing and --tiers (stat-vmstat.h).
 * Which counters a kernel keeps per node is learnt from the files, never
 * from the version: a key in nodeN/vmstat is per node, a key only in
 * /proc/vmstat is machine-wide, a key in neither is not on this kernel.
 * Every file is opened once and pread at offset 0 once per sample; node
 * files are read only when they carry a wanted key (or --tiers needs the
 * rows), so on today's kernels --balancing reads /proc/vmstat and one node
 * file at start, then /proc/vmstat alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "out.h"
#include "prom.h"
#include "stat-cell.h"
#include "stat-vmstat.h"
#include "sysfs.h"
#include "why.h"

static void row_path(const struct vms_row *row, char *buf, size_t size)
{
	if (row->node == VMS_ALL)
		snprintf(buf, size, VMSTAT_GLOBAL);
	else
		vmstat_node_path(row->node, buf, size);
}

/* One pread of the row's file into cur; a failure is said once per streak. */
static int row_read(struct vms_table *t, struct vms_row *row)
{
	char path[96], why[WHY_MAX];
	int r;

	row_path(row, path, sizeof(path));
	row->ok = false;
	if (row->fd < 0 && (row->fd = sysfs_open(path, O_RDONLY)) < 0) {
		r = row->fd;
		snprintf(why, sizeof(why), "%s",
			 r == -ENOENT ? "file is missing" : sysfs_strerror(r));
	} else
		r = vmstat_pread(row->fd, &row->cur, t->buf, VMSTAT_BUF, why, sizeof(why));
	if (r < 0) {
		if (!row->failed)
			log_err("%s: %s", path, why);
		row->failed = true;
		return r;
	}
	row->failed = false;
	row->ok = true;
	return 0;
}

static int alloc_rows(struct vms_table *t, const unsigned *ids, size_t n_nodes)
{
	t->rows = calloc(n_nodes + 1, sizeof(*t->rows));
	if (!t->rows)
		return -ENOMEM;
	t->n_nodes = n_nodes;
	t->n = n_nodes + 1;
	for (size_t i = 0; i < t->n; i++)
		t->rows[i] = (struct vms_row){ .node = i < n_nodes ? ids[i] : VMS_ALL, .fd = -1 };
	return 0;
}

/* Learn the per-node keys from the first node; keep its rows only if needed. */
static int probe_nodes(struct vms_table *t, const unsigned *ids, size_t n, bool node_rows)
{
	struct vms_row first = { .node = ids[0], .fd = -1 }, all = t->rows[0];
	int r = row_read(t, &first);

	if (r == 0)
		t->per_node = first.cur.have & t->want;
	if (!t->per_node && !node_rows) {
		if (first.fd >= 0)
			close(first.fd);
		return r;
	}
	/* The machine row moves to the end, after the node rows. */
	free(t->rows);
	if (alloc_rows(t, ids, n) < 0) {
		if (first.fd >= 0)
			close(first.fd);
		return -ENOMEM;
	}
	t->rows[0] = first;
	t->rows[n] = all;
	for (size_t i = 1; i < n; i++)
		if (t->per_node && row_read(t, &t->rows[i]) < 0)
			r = -EIO;
	return r;
}

int stat_vms_setup(struct vms_table *t, const struct stat_opts *o, uint32_t want, bool node_rows,
		   int *rc)
{
	unsigned *ids = NULL;
	int n = stat_view_nodes(o, &ids), r;

	*t = (struct vms_table){ .o = o, .want = want, .node_rows = node_rows };
	if (n < 0)
		return -n;
	t->buf = malloc(VMSTAT_BUF);
	r = t->buf ? alloc_rows(t, NULL, 0) : -ENOMEM;
	if (r == 0 && row_read(t, &t->rows[0]) < 0) {
		free(ids);
		return EXIT_FAIL; /* no /proc/vmstat: nothing to show */
	}
	if (r == 0) {
		t->global = t->rows[0].cur.have & want;
		if (n > 0)
			r = probe_nodes(t, ids, (size_t)n, node_rows);
	}
	free(ids);
	if (r == -ENOMEM) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	if (r < 0)
		*rc = EXIT_FAIL;
	return EXIT_OK;
}

/* A reading went down: the kernel's counters are not monotonic then. */
static bool went_down(const struct vms_table *t, const struct vms_row *row)
{
	for (int k = 0; k < VMS_COUNT; k++)
		if ((t->want & row->cur.have & row->base.have & VMS_BIT(k)) &&
		    row->cur.v[k] < row->base.v[k])
			return true;
	return false;
}

static void account(struct vms_table *t, struct vms_row *row, double secs)
{
	char path[96];

	row->fresh = false;
	row->reset = row->have_base && went_down(t, row);
	if (row->reset) {
		row_path(row, path, sizeof(path));
		log_warn("%s: counters went down (a CPU or node went away, or the kernel reset "
			 "them): counting again from here",
			 path);
	}
	if (row->have_base && !row->reset) {
		for (int k = 0; k < VMS_COUNT; k++) {
			uint64_t d = row->cur.v[k] - row->base.v[k];

			if (!(row->cur.have & row->base.have & VMS_BIT(k)))
				continue;
			row->delta[k] = d;
			row->sum[k] = d > UINT64_MAX - row->sum[k] ? UINT64_MAX : row->sum[k] + d;
		}
		row->secs += secs;
		row->fresh = true;
	}
	row->base = row->cur;
	row->have_base = true;
}

int stat_vms_sample(struct vms_table *t, double secs, bool first)
{
	int rc = EXIT_OK;

	for (size_t i = 0; i < t->n; i++) {
		struct vms_row *row = &t->rows[i];

		/* Node rows without a per-node key have nothing to read. */
		if (row->node != VMS_ALL && !t->per_node)
			continue;
		/* At start, setup's readings are the baselines. */
		if (!first && row_read(t, row) < 0) {
			row->have_base = row->fresh = false;
			rc = EXIT_FAIL;
			continue;
		}
		if (row->ok)
			account(t, row, secs);
	}
	return rc;
}

static uint32_t row_keys(const struct vms_table *t, const struct vms_row *row)
{
	return row->node == VMS_ALL ? t->global : t->per_node;
}

bool stat_vms_row_valid(const struct vms_table *t, size_t r, const struct stat_loop_info *in)
{
	const struct vms_row *row = &t->rows[r];

	if (row->node != VMS_ALL && !t->per_node)
		return true; /* a row of node kinds only (--tiers) */
	if (!in)
		return row->ok;
	if (in->total)
		return row->secs > 0;
	return row->ok && row->fresh;
}

bool stat_vms_value(const struct vms_table *t, size_t r, int key, const struct stat_loop_info *in,
		    uint64_t *v)
{
	const struct vms_row *row = &t->rows[r];

	if (!(row_keys(t, row) & row->cur.have & VMS_BIT(key)) || !stat_vms_row_valid(t, r, in))
		return false;
	*v = !in ? row->cur.v[key] : in->total ? row->sum[key] : row->delta[key];
	return true;
}

/* The names of the keys in mask, ", "-separated. */
static void key_list(uint32_t mask, FILE *f)
{
	bool first = true;

	for (int k = 0; k < VMS_COUNT; k++)
		if (mask & VMS_BIT(k)) {
			fprintf(f, "%s%s", first ? "" : ", ", vmstat_names[k]);
			first = false;
		}
}

void stat_vms_scope_line(const struct vms_table *t, const char *what)
{
	uint32_t global_only = t->global & ~t->per_node;
	uint32_t lacks = t->want & ~(t->global | t->per_node);
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return;
	fprintf(f, "%s: ", what);
	if (!t->per_node && !global_only)
		fputs("none on this kernel", f);
	if (t->per_node) {
		fputs("per node (nodeN/vmstat): ", f);
		key_list(t->per_node, f);
	}
	if (t->per_node && global_only)
		fputs("; machine-wide only (/proc/vmstat, row all): ", f);
	else if (global_only)
		fputs("machine-wide (/proc/vmstat, row all)", f);
	if (t->per_node && global_only)
		key_list(global_only, f);
	if (lacks && (t->per_node || global_only)) {
		fputs("; not on this kernel: ", f);
		key_list(lacks, f);
	}
	/* One line a record, wrapped to the width on a terminal. */
	if (fclose(f) == 0)
		stat_view_line(t->o, "%s", text);
	free(text);
}

/* The grid's columns: node (and scope in JSON), the shown ones, reset (JSON samples). */
static size_t set_columns(struct grid *g, const struct vms_show *s, bool json,
			  const struct stat_loop_info *in)
{
	size_t c = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct stat_view_col *col = &s->cols[s->shown[i]];

		g->cols[c++] = (struct grid_col){ col->name, col->json, col->flags };
		if (i == 0 && json)
			g->cols[c++] = (struct grid_col){ "SCOPE", "scope", 0 };
	}
	if (json && in && !in->total)
		g->cols[c++] = (struct grid_col){ "RESET", "reset", OUT_COL_BOOLEAN };
	return c;
}

static void fill_row(const struct vms_table *t, const struct vms_show *s, struct grid *g, size_t gr,
		     size_t r, const struct stat_loop_info *in)
{
	const struct vms_row *row = &t->rows[r];
	bool json = t->o->json, valid = stat_vms_row_valid(t, r, in), all = row->node == VMS_ALL;
	size_t c = 0;
	char id[16];
	uint64_t v;

	snprintf(id, sizeof(id), "%u", row->node);
	grid_set(g, gr, c++, all ? (json ? NULL : "all") : id, all ? 1e12 : row->node, true);
	if (json)
		grid_set(g, gr, c++, all ? "all" : "node", 0, true);
	for (size_t i = 1; i < s->n; i++, c++) {
		const struct stat_view_col *col = &s->cols[s->shown[i]];

		if (col->key < 0)
			s->own(s->ctx, g, gr, c, r, s->shown[i], in);
		else if (valid && stat_vms_value(t, r, col->key, in, &v))
			stat_cell_rate(g, gr, c, v, t->o, in ? in->secs : 0);
		else
			grid_set(g, gr, c, s->dash && !json ? "-" : NULL, -1, false);
	}
	if (json && in && !in->total)
		grid_set(g, gr, c, row->reset ? "1" : "0", 0,
			 row->reset); /* libsmartcols: "0" is false */
}

int stat_vms_print(const struct vms_table *t, const struct vms_show *s,
		   const struct stat_loop_info *in, char *why, size_t whylen)
{
	bool json = t->o->json;
	size_t ncols = s->n + (json ? 2 : 0), gr = 0;
	struct grid g;
	int r = grid_init(&g, t->n, ncols);

	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	g.ncols = set_columns(&g, s, json, in);
	for (size_t i = 0; i < t->n; i++) {
		/* A kernel with none of the view's counters has no machine row to show. */
		if (t->rows[i].node == VMS_ALL && !(t->global | t->per_node))
			continue;
		/* A node that could not be read still has its kind to show (--tiers). */
		if (json || stat_vms_row_valid(t, i, in) ||
		    (t->node_rows && t->rows[i].node != VMS_ALL))
			fill_row(t, s, &g, gr++, i, in);
	}
	g.nrows = gr;
	/* The machine row stays last in a table, like TOTAL; JSON has it as a row. */
	g.has_total = !json && t->n_nodes > 0 && gr > 0 && t->rows[t->n - 1].node == VMS_ALL &&
		      stat_vms_row_valid(t, t->n - 1, in);
	for (size_t i = 0; i < s->n && s->sort >= 0; i++)
		if (s->shown[i] == s->sort)
			g.sort_col = (int)(i + (json && i > 0));
	if (in && !json)
		stat_view_title(t->o, in);
	/* Nothing at all: the scope line above has said why. */
	if (gr == 0 && !json) {
		grid_free(&g);
		return 0;
	}
	r = json ? stat_view_json(&g, t->o, in, s->json_name, why, whylen)
		 : grid_print(&g, t->o, 0, "", why, whylen);
	grid_free(&g);
	return r;
}

void stat_vms_prom_write(const struct vms_table *t, const struct stat_view_col *cols, size_t n,
			 FILE *f)
{
	char name[96], help[192];
	uint64_t v;

	for (size_t i = 0; i < n; i++) {
		int k = cols[i].key;
		bool per_node;

		if (k < 0 || !((t->per_node | t->global) & VMS_BIT(k)))
			continue;
		per_node = t->per_node & VMS_BIT(k);
		snprintf(name, sizeof(name), "numastatctl_%s_total", vmstat_names[k]);
		snprintf(help, sizeof(help), "%s (%s %s).", cols[i].help,
			 per_node ? "per node, nodeN/vmstat" : "machine-wide, /proc/vmstat",
			 vmstat_names[k]);
		prom_family(f, name, "counter", help);
		for (size_t r = 0; r < t->n; r++) {
			const struct vms_row *row = &t->rows[r];

			if ((row->node == VMS_ALL) == per_node ||
			    !stat_vms_value(t, r, k, NULL, &v))
				continue;
			if (per_node)
				fprintf(f, "%s{node=\"%u\"} %" PRIu64 "\n", name, row->node, v);
			else
				fprintf(f, "%s %" PRIu64 "\n", name, v);
		}
	}
}

void stat_vms_free(struct vms_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].fd >= 0)
			close(t->rows[i].fd);
	free(t->rows);
	free(t->buf);
	*t = (struct vms_table){ 0 };
}

/* The default columns: NODE, every counter this kernel has, and the view's own choice. */
static size_t defaults(const struct vms_view_ctx *c, int *d)
{
	uint32_t have = c->t.per_node | c->t.global;
	size_t n = 0;

	for (size_t i = 0; i < c->d->ncols; i++) {
		const struct stat_view_col *col = &c->d->cols[i];

		if (i == 0 || (col->key >= 0 && (have & VMS_BIT(col->key))) ||
		    (col->key < 0 && c->d->by_default && c->d->by_default(c, (int)i)))
			d[n++] = (int)i;
	}
	return n;
}

static void own_cell(void *ctx, struct grid *g, size_t gr, size_t gc, size_t r, int col,
		     const struct stat_loop_info *in)
{
	struct vms_view_ctx *c = ctx;

	if (c->d->own)
		c->d->own(c, g, gr, gc, r, col, in);
	else
		grid_set(g, gr, gc, NULL, -1, false);
}

int stat_vms_view_setup(struct vms_view_ctx *c, const struct vms_view *d, const struct stat_opts *o,
			int *rc)
{
	const char **names = calloc(d->ncols, sizeof(*names));
	int *def = calloc(d->ncols, sizeof(*def)), r;
	size_t nd;

	c->d = d;
	c->o = o;
	if (!names || !def) {
		free(names);
		free(def);
		log_err("out of memory");
		return EXIT_FAIL;
	}
	r = stat_vms_setup(&c->t, o, d->want, d->node_rows, rc);
	nd = r == EXIT_OK ? defaults(c, def) : 0;
	for (size_t i = 0; i < d->ncols; i++)
		names[i] = d->cols[i].name;
	c->show = (struct vms_show){ .cols = d->cols,
				     .shown = c->shown,
				     .own = own_cell,
				     .ctx = c,
				     .json_name = d->json_name,
				     .dash = d->dash };
	if (r == EXIT_OK && stat_view_columns(d->view, o, names, d->ncols, def, nd, c->shown,
					      STAT_MAX_COLS, &c->show.n, &c->show.sort) < 0)
		r = EXIT_USAGE;
	/* NODE always comes first: it says which row is which. */
	if (r == EXIT_OK && (c->show.n == 0 || c->shown[0] != 0)) {
		memmove(c->shown + 1, c->shown, c->show.n * sizeof(int));
		c->shown[0] = 0;
		c->show.n++;
	}
	free(names);
	free(def);
	return r;
}

/* The lines above the table: the view's, then which counters the kernel keeps where. */
static void header(struct vms_view_ctx *c)
{
	if (c->o->json || c->o->noheadings)
		return;
	if (c->d->lines)
		c->d->lines(c);
	stat_vms_scope_line(&c->t, c->d->scope);
}

int stat_vms_view_sample(void *ctx, double secs, enum stat_sample how)
{
	struct vms_view_ctx *c = ctx;

	if (how == STAT_SAMPLE_FIRST)
		header(c);
	return stat_vms_sample(&c->t, secs, how == STAT_SAMPLE_FIRST);
}

int stat_vms_view_print(void *ctx, const struct stat_loop_info *in)
{
	struct vms_view_ctx *c = ctx;
	char why[WHY_MAX];
	int r;

	if (!in)
		header(c);
	r = stat_vms_print(&c->t, &c->show, in, why, sizeof(why));
	if (r == 0 && !in && c->d->after)
		r = c->d->after(c, why, sizeof(why));
	/* In interval mode a failed stdout is main()'s to report. */
	if (r < 0 && (!in || r != -EIO))
		log_err("%s", why);
	return r;
}

int stat_vms_view_prom(void *ctx, FILE *f)
{
	struct vms_view_ctx *c = ctx;

	if (c->d->prom)
		c->d->prom(c, f);
	stat_vms_prom_write(&c->t, c->d->cols, c->d->ncols, f);
	return ferror(f) ? -EIO : 0;
}

void stat_vms_view_free(void *ctx)
{
	struct vms_view_ctx *c = ctx;

	if (c->d && c->d->release)
		c->d->release(c);
	stat_vms_free(&c->t);
}
