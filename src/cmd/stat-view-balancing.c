// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --balancing: what automatic NUMA balancing does (stat-view.h).
 * The kernel marks page table entries (numa_pte_updates), takes a hinting
 * fault when a task touches one (numa_hint_faults; _local when the page is
 * already on the task's node) and migrates misplaced pages
 * (numa_pages_migrated, within pgmigrate_success/_fail, which also count
 * compaction and tiering).  Every kernel to date keeps these machine-wide
 * only (vm events in /proc/vmstat); the table would grow node rows by
 * itself should one keep them per node.  With an interval it answers "is
 * balancing converging?": migrations per second fall and HINT_LOCAL%
 * rises.  Faults stop when pages are where their single-threaded task
 * runs, so quiet counters are not a stalled scanner.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "log.h"
#include "out.h"
#include "stat-cell.h"
#include "stat-view.h"
#include "stat-vmstat.h"
#include "why.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

enum {
	BC_NODE,
	BC_PTE,
	BC_HUGE_PTE,
	BC_FAULTS,
	BC_FAULTS_LOCAL,
	BC_LOCAL_PCT,
	BC_MIGRATED,
	BC_PGMIGRATE_SUCCESS,
	BC_PGMIGRATE_FAIL,
	BC_COUNT,
};

/* Its columns, as stat_view_col (one per enum value), ending with { 0 }. */
static const struct stat_view_col cols[BC_COUNT + 1] = {
	[BC_NODE] = { "NODE", "node", -1, NUM, "node id; all: the whole machine (/proc/vmstat)" },
	[BC_PTE] = { "NUMA_PTE_UPDATES", "numa_pte_updates", VMS_NUMA_PTE_UPDATES, NUM,
		     "page table entries NUMA balancing marked to take a hinting fault" },
	[BC_HUGE_PTE] = { "NUMA_HUGE_PTE_UPDATES", "numa_huge_pte_updates",
			  VMS_NUMA_HUGE_PTE_UPDATES, NUM, "of those, huge page entries" },
	[BC_FAULTS] = { "NUMA_HINT_FAULTS", "numa_hint_faults", VMS_NUMA_HINT_FAULTS, NUM,
			"NUMA hinting faults taken" },
	[BC_FAULTS_LOCAL] = { "NUMA_HINT_FAULTS_LOCAL", "numa_hint_faults_local",
			      VMS_NUMA_HINT_FAULTS_LOCAL, NUM,
			      "of those, on memory already on the faulting task's node" },
	[BC_LOCAL_PCT] = { "HINT_LOCAL%", "hint_local_pct", -1, NUM,
			   "the share numa_hint_faults_local / numa_hint_faults, in percent; empty "
			   "(JSON null) when there were none" },
	[BC_MIGRATED] = { "NUMA_PAGES_MIGRATED", "numa_pages_migrated", VMS_NUMA_PAGES_MIGRATED,
			  NUM, "pages NUMA balancing migrated to the node that uses them" },
	[BC_PGMIGRATE_SUCCESS] = { "PGMIGRATE_SUCCESS", "pgmigrate_success", VMS_PGMIGRATE_SUCCESS,
				   NUM,
				   "pages migrated for any reason (balancing, compaction, tiering)" },
	[BC_PGMIGRATE_FAIL] = { "PGMIGRATE_FAIL", "pgmigrate_fail", VMS_PGMIGRATE_FAIL, NUM,
				"pages that failed to migrate" },
};

struct balance {
	const struct stat_opts *o;
	struct vms_table t;
	struct vms_show show;
	int shown[STAT_MAX_COLS + 1]; /* and NODE in front */
};

/* HINT_LOCAL%: the only column the table does not read. */
static void own_cell(void *ctx, struct grid *g, size_t gr, size_t gc, size_t r, int col,
		     const struct stat_loop_info *in)
{
	const struct balance *b = ctx;
	uint64_t local, all;

	if (col == BC_LOCAL_PCT &&
	    stat_vms_value(&b->t, r, VMS_NUMA_HINT_FAULTS_LOCAL, in, &local) &&
	    stat_vms_value(&b->t, r, VMS_NUMA_HINT_FAULTS, in, &all))
		stat_cell_pct(g, gr, gc, (double)local, (double)all);
	else
		grid_set(g, gr, gc, NULL, -1, false);
}

/* The default columns: NODE and every counter this kernel has. */
static size_t defaults(const struct vms_table *t, int *d)
{
	uint32_t have = t->per_node | t->global,
		 both = VMS_BIT(VMS_NUMA_HINT_FAULTS) | VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL);
	size_t n = 0;

	for (int c = 0; c < BC_COUNT; c++)
		if (c == BC_NODE || (cols[c].key >= 0 && (have & VMS_BIT(cols[c].key))) ||
		    (c == BC_LOCAL_PCT && (have & both) == both))
			d[n++] = c;
	return n;
}

static int setup_columns(struct balance *b)
{
	const char *names[BC_COUNT];
	int d[BC_COUNT];
	size_t nd = defaults(&b->t, d);

	for (int c = 0; c < BC_COUNT; c++)
		names[c] = cols[c].name;
	b->show = (struct vms_show){
		.cols = cols, .shown = b->shown, .own = own_cell, .ctx = b, .json_name = "balancing"
	};
	if (stat_view_columns(&stat_view_balancing, b->o, names, BC_COUNT, d, nd, b->shown,
			      STAT_MAX_COLS, &b->show.n, &b->show.sort) < 0)
		return -1;
	/* NODE always comes first: it says which row is which. */
	if (b->show.n == 0 || b->shown[0] != BC_NODE) {
		memmove(b->shown + 1, b->shown, b->show.n * sizeof(int));
		b->shown[0] = BC_NODE;
		b->show.n++;
	}
	return 0;
}

static void scope_line(const struct balance *b)
{
	if (!b->o->json && !b->o->noheadings)
		stat_vms_scope_line(&b->t, "NUMA balancing counters");
}

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	struct balance *b = ctx;
	int r = stat_vms_setup(&b->t, o, VMS_BALANCING_MASK, false, rc);

	b->o = o;
	if (r == EXIT_OK && setup_columns(b) < 0)
		r = EXIT_USAGE;
	return r;
}

static int sample(void *ctx, double secs, enum stat_sample how)
{
	struct balance *b = ctx;

	if (how == STAT_SAMPLE_FIRST)
		scope_line(b);
	return stat_vms_sample(&b->t, secs, how == STAT_SAMPLE_FIRST);
}

static int print(void *ctx, const struct stat_loop_info *in)
{
	struct balance *b = ctx;
	char why[WHY_MAX];
	int r;

	if (!in)
		scope_line(b);
	r = stat_vms_print(&b->t, &b->show, in, why, sizeof(why));
	/* In interval mode a failed stdout is main()'s to report. */
	if (r < 0 && (!in || r != -EIO))
		log_err("%s", why);
	return r;
}

static int prom(void *ctx, FILE *f)
{
	const struct balance *b = ctx;

	stat_vms_prom_write(&b->t, cols, BC_COUNT, f);
	return ferror(f) ? -EIO : 0;
}

static void release(void *ctx)
{
	struct balance *b = ctx;

	stat_vms_free(&b->t);
}

const struct stat_view stat_view_balancing = {
	.name = "balancing",
	.option = { "balancing", no_argument, 0, NULL,
		    "NUMA balancing and page migration counters" },
	.cols = cols,
	.ctx_size = sizeof(struct balance),
	.setup = setup,
	.sample = sample,
	.print = print,
	.prom = prom,
	.free = release,
};
