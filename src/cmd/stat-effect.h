/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The views that show what the NUMA knobs do: `stat --balancing` (NUMA
 * balancing and page migration, stat-balance.c), `stat --tiers` (memory
 * tiers, node kinds, distances, promotion and demotion, stat-tiers.c) and
 * `stat --cgroup` (per-node memory of cgroups, stat-cgroup.c).  The first
 * two share the vmstat counter table (stat-vmstat.c); all three share the
 * interval loop (stat-loop.c) and the Prometheus helpers (prom-text.c).
 * cmd-stat.c parses the options and calls stat_effect_run(); the views print
 * their own messages and return an EXIT_* code.
 * Implemented by prom-text.c, stat-balance.c, stat-cgroup.c, stat-effect.c,
 * stat-loop.c, stat-tiers.c and stat-vmstat.c.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "grid.h"
#include "stat.h"
#include "vmstat.h"

enum stat_view {
	STAT_VIEW_COUNTERS,  /* the numastat table (the default) */
	STAT_VIEW_BALANCING, /* --balancing */
	STAT_VIEW_TIERS,     /* --tiers */
	STAT_VIEW_CGROUP,    /* --cgroup */
};

/* The option that picks a view, for messages ("--tiers"). */
const char *stat_view_option(int view);
/* Run the view o->view names (one-shot or interval); an EXIT_* code. */
int stat_effect_run(const struct stat_opts *o);
int stat_balance_run(const struct stat_opts *o);
int stat_tiers_run(const struct stat_opts *o);
int stat_cgroup_run(const struct stat_opts *o);

/*
 * What `status` says about NUMA balancing: whether it is on, in which mode,
 * and what it did since boot (read once; a line of text or a JSON member).
 */
struct stat_balance_status {
	int state;      /* 1 on, 0 off, -ENOENT no kernel.numa_balancing, -errno */
	char mode[128]; /* the knob in words: "normal", "normal|tiering" */
	bool counters;  /* the kernel has the hint fault and migration counters */
	uint64_t faults, local, migrated;
	bool has_promoted;
	uint64_t promoted;
};
void stat_balance_status_read(struct stat_balance_status *b);
/* "NUMA balancing: on (normal); since boot 8200 hint faults, 25.0% local, ..." */
void stat_balance_status_print(const struct stat_balance_status *b);
/* "balancing": {"state":..,"mode":..,"hint_faults":..,...} into d. */
struct out_doc;
int stat_balance_status_json(const struct stat_balance_status *b, struct out_doc *d, char *why,
			     size_t whylen);

/* --- the interval loop (stat-loop.c) --- */

struct stat_loop_info {
	unsigned long sample; /* 1, 2, ...; 0 for the totals */
	double secs;          /* what the values cover */
	struct timespec when; /* the sample's time; the start for the totals */
	bool total;           /* the totals since the start */
};

struct stat_loop_ops {
	/*
	 * Read every file once (one pread per kept fd); first: the baselines,
	 * nothing is printed after it.  EXIT_OK, or EXIT_FAIL when a read
	 * failed (said once per failure streak; the loop goes on).
	 */
	int (*sample)(void *ctx, double secs, bool first);
	/* Print the sample just taken, or the totals.  0 or -errno (stdout failed). */
	int (*print)(void *ctx, const struct stat_loop_info *in);
};

/* stat INTERVAL [COUNT] for a view: sample, print, totals at the end. */
int stat_loop_run(const struct stat_opts *o, const struct stat_loop_ops *ops, void *ctx);
/*
 * The one line when Ctrl-C or SIGTERM ended the sampling (the counter
 * table's loop says it too): how many samples over how long, and, without
 * --totals, how to get the totals.
 */
void stat_loop_stopped(const struct stat_opts *o, int sig, unsigned long samples, double secs);
/* The text over a sample's table ("sample 2 at 10:00:01: changes over 1.00 s"). */
void stat_loop_title(const struct stat_opts *o, const struct stat_loop_info *in);
/*
 * A view's JSON document: {"time":...,NAME:[rows]} one-shot (in NULL),
 * {"sample":...,"time":...,"seconds":...,NAME:[...]} on one line per
 * sample, {"since":...,"seconds":...,NAME:[...]} for the totals.  The
 * rows are g's data rows after -z and --sort.  0, or -errno with why.
 */
int stat_view_json(const struct grid *g, const struct stat_opts *o, const struct stat_loop_info *in,
		   const char *name, char *why, size_t whylen);
/* A count or its rate for a sample cell: whole per second in tables, 2 decimals in JSON. */
void stat_loop_count(struct grid *g, size_t r, size_t c, uint64_t d, const struct stat_opts *o,
		     double secs);

/* --- the vmstat counter table of --balancing and --tiers (stat-vmstat.c) --- */

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
/* A column of a vmstat view: a key's count, or one the view fills itself. */
struct vms_col {
	const char *name; /* header, -o and --sort name */
	const char *json; /* JSON key */
	int key;          /* enum vms_key, or -1: own() fills it */
	unsigned flags;   /* OUT_COL_* */
	const char *help; /* one line for --help */
};
/* Fill cell (gr, gc) of a view's own column col for table row r. */
typedef void (*vms_own_fn)(void *ctx, struct grid *g, size_t gr, size_t gc, size_t r, int col,
			   const struct stat_loop_info *in);

/* What stat_vms_print() shows. */
struct vms_show {
	const struct vms_col *cols;
	const int *shown; /* indexes into cols, NODE first */
	size_t n;
	int sort; /* index into cols, or -1 */
	vms_own_fn own;
	void *ctx;
	const char *json_name;
};

/*
 * The table (or JSON) of the rows: NODE ("all" for the machine row; in
 * JSON "node" is null there and "scope" says "node" or "all"), then the
 * shown columns.  in: NULL for one-shot, else a sample or the totals.
 */
int stat_vms_print(const struct vms_table *t, const struct vms_show *s,
		   const struct stat_loop_info *in, char *why, size_t whylen);
/*
 * Prometheus families of the key columns: numastatctl_<key>_total, with a
 * node label where the kernel keeps the key per node, without one where it
 * keeps it machine-wide.
 */
void stat_vms_prom_write(const struct vms_table *t, const struct vms_col *cols, size_t n, FILE *f);
/* Which keys the kernel keeps where, and which it lacks, in one line. */
void stat_vms_scope_line(const struct vms_table *t, const char *what, FILE *f);
void stat_vms_free(struct vms_table *t);

/* --- shared by the views --- */

/*
 * Resolve -o (a list of column names, "+LIST" appends to the defaults) and
 * --sort against a view's columns (case-insensitive).  names[0..n) are the
 * view's columns, defaults[0..nd) the indexes shown without -o.  Fills
 * cols/ncols and *sort (-1: none).  0, or -EINVAL after a usage message.
 */
int stat_view_columns(const struct stat_opts *o, const char *const *names, size_t n,
		      const int *defaults, size_t nd, int *cols, size_t *ncols, int *sort);
/* A count cell ("7.3M" with --compact). */
void stat_cell_count(struct grid *g, size_t r, size_t c, uint64_t v, bool compact);
/* A percentage cell num / den; empty (JSON null) when den is 0. */
void stat_cell_pct(struct grid *g, size_t r, size_t c, double num, double den);
/* A size cell: "15.6M" (powers of 1024), bytes with -b or -J; signed: "+1.5M". */
void stat_cell_size(struct grid *g, size_t r, size_t c, int64_t v, bool is_signed,
		    const struct stat_opts *o);
/* Is id in the sorted list ids[0..n)? */
bool stat_node_in(const unsigned *ids, size_t n, unsigned id);
/* printf to stdout with what came from outside (knob values) escaped (escape.h). */
void stat_print_escaped(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * --prometheus and --textfile for a view: write() produces the text; with
 * --textfile it goes to DIR/<file> through a temporary file and rename.
 */
int prom_emit(const struct stat_opts *o, const char *file, int (*write)(FILE *f, void *ctx),
	      void *ctx);
