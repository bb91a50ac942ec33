/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vmstat counter table of stat's views of kernel counters (--balancing,
 * --tiers): a row per node where the kernel keeps a counter per node
 * (nodeN/vmstat), and the machine's row (/proc/vmstat), each file opened
 * once and pread once per sample.  Implemented by stat-vmstat.c.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grid.h"
#include "stat-view.h"
#include "stat.h"
#include "vmstat.h"

/* One row: a node's nodeN/vmstat, or the machine's /proc/vmstat (node VMS_ALL). */
#define VMS_ALL UINT32_MAX
struct vms_row {
	unsigned node;
	int fd;                /* kept open between samples */
	bool ok;               /* cur holds this sample's reading */
	bool failed;           /* the last read failed (said once) */
	bool have_base, reset; /* interval: base is the previous reading; it went down */
	bool fresh;            /* interval: delta is this sample's */
	struct vmstat_sel cur, base;
	uint64_t delta[VMS_COUNT]; /* interval: this sample */
	uint64_t sum[VMS_COUNT];   /* interval: since the start */
	double secs;               /* what sum covers */
};

struct vms_table {
	const struct stat_opts *o;
	uint32_t want;        /* the view's keys (VMS_BIT) */
	uint32_t per_node;    /* of those, the ones nodeN/vmstat has */
	uint32_t global;      /* the ones /proc/vmstat has */
	struct vms_row *rows; /* node rows (if any), then the machine row last */
	size_t n;
	size_t n_nodes; /* node rows */
	bool node_rows; /* node rows show more than counters: keep failed ones */
	char *buf;      /* VMSTAT_BUF */
};

/*
 * Select the nodes (--nodes), read /proc/vmstat and the first node's vmstat
 * to learn which wanted keys the kernel keeps per node, then the other
 * nodes' if any.  node_rows: rows for the nodes even without a per-node
 * key (--tiers shows the node kinds).  EXIT_OK, or an exit code after a
 * message; a failed node is said and its row left out (*rc EXIT_FAIL).
 */
int stat_vms_setup(struct vms_table *t, const struct stat_opts *o, uint32_t want, bool node_rows,
		   int *rc);
/* Read every row again (interval: deltas against the previous reading). */
int stat_vms_sample(struct vms_table *t, double secs, bool first);
/*
 * The value of key in row r: the reading (in NULL), this sample's change or
 * rate source (in->sample), or the sum since the start (in->total).  False
 * when the row has no such value (not kept there, or no reading).
 */
bool stat_vms_value(const struct vms_table *t, size_t r, int key, const struct stat_loop_info *in,
		    uint64_t *v);
/* Is the row readable for this output? */
bool stat_vms_row_valid(const struct vms_table *t, size_t r, const struct stat_loop_info *in);
/* Fill cell (gr, gc) of a view's own column col (key -1) for table row r. */
typedef void (*vms_own_fn)(void *ctx, struct grid *g, size_t gr, size_t gc, size_t r, int col,
			   const struct stat_loop_info *in);

/* What stat_vms_print() shows. */
struct vms_show {
	const struct stat_view_col *cols;
	const int *shown; /* indexes into cols, NODE first */
	size_t n;
	int sort; /* index into cols, or -1 */
	vms_own_fn own;
	void *ctx;
	const char *json_name;
	bool dash; /* a cell without a value reads "-" in a table (JSON: null) */
};

/*
 * The table (or JSON) of the rows: NODE ("all" for the machine row; in
 * JSON "node" is null there and "scope" says "node" or "all"), then the
 * shown columns.  in: NULL for one-shot, else a sample or the totals.
 * 0, or -errno with why.
 */
int stat_vms_print(const struct vms_table *t, const struct vms_show *s,
		   const struct stat_loop_info *in, char *why, size_t whylen);
/*
 * Prometheus families of the key columns: numastatctl_<key>_total, with a
 * node label where the kernel keeps the key per node, without one where it
 * keeps it machine-wide.
 */
void stat_vms_prom_write(const struct vms_table *t, const struct stat_view_col *cols, size_t n,
			 FILE *f);
/* Which keys the kernel keeps where, and which it lacks: a line of text (stat_view_line()). */
void stat_vms_scope_line(const struct vms_table *t, const char *what);
void stat_vms_free(struct vms_table *t);

/*
 * A view of kernel counters (--balancing, --tiers): what sets one apart.
 * stat_vms_view_*() are such a view's operations on a context that starts
 * with struct vms_view_ctx (ctx_size: the view's own struct, if it keeps
 * more); its setup() calls stat_vms_view_setup() with its description.
 */
struct vms_view_ctx;
struct vms_view {
	const struct stat_view *view;     /* the view itself: its option in messages */
	const struct stat_view_col *cols; /* NODE first; .key an enum vms_key, or -1: own() */
	size_t ncols;
	uint32_t want;         /* its keys: a VMS_*_MASK */
	bool node_rows;        /* a row per node even without a per-node key (--tiers) */
	const char *scope;     /* the scope line's words: "NUMA balancing counters" */
	const char *json_name; /* the JSON array: "balancing" */
	bool dash;             /* a cell without a value reads "-" in a table, not blank */
	/* A cell of a column of its own (key -1), other than NODE. */
	void (*own)(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, size_t r, int col,
		    const struct stat_loop_info *in);
	/* Whether such a column is shown without -o (NULL: never). */
	bool (*by_default)(const struct vms_view_ctx *c, int col);
	/* Optional: lines before the scope line; what follows a one-shot table; the
	 * Prometheus families before the counters'; what free() releases besides. */
	void (*lines)(struct vms_view_ctx *c);
	int (*after)(struct vms_view_ctx *c, char *why, size_t whylen);
	void (*prom)(struct vms_view_ctx *c, FILE *f);
	void (*release)(struct vms_view_ctx *c);
};

struct vms_view_ctx {
	const struct vms_view *d;
	const struct stat_opts *o;
	struct vms_table t;
	struct vms_show show;
	int shown[STAT_MAX_COLS + 1]; /* and NODE in front */
};

/* Read the files (stat_vms_setup()) and resolve -o and --sort; setup()'s return. */
int stat_vms_view_setup(struct vms_view_ctx *c, const struct vms_view *d, const struct stat_opts *o,
			int *rc);
int stat_vms_view_sample(void *ctx, double secs, enum stat_sample how);
int stat_vms_view_print(void *ctx, const struct stat_loop_info *in);
int stat_vms_view_prom(void *ctx, FILE *f);
void stat_vms_view_free(void *ctx);
