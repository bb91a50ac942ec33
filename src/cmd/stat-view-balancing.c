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
#include <inttypes.h>
#include <stdio.h>

#include "cmd-stat.h"
#include "out.h"
#include "stat-cell.h"
#include "stat-view.h"
#include "stat-vmstat.h"

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

/* HINT_LOCAL%: the only column the table does not read. */
static void own_cell(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, size_t r,
		     int col, const struct stat_loop_info *in)
{
	uint64_t local, all;

	if (col == BC_LOCAL_PCT &&
	    stat_vms_value(&c->t, r, VMS_NUMA_HINT_FAULTS_LOCAL, in, &local) &&
	    stat_vms_value(&c->t, r, VMS_NUMA_HINT_FAULTS, in, &all))
		stat_cell_pct(g, gr, gc, (double)local, (double)all);
	else
		grid_set(g, gr, gc, NULL, -1, false);
}

/* HINT_LOCAL% without -o: where the kernel has both fault counters. */
static bool by_default(const struct vms_view_ctx *c, int col)
{
	uint32_t both = VMS_BIT(VMS_NUMA_HINT_FAULTS) | VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL);

	return col == BC_LOCAL_PCT && ((c->t.per_node | c->t.global) & both) == both;
}

static const struct vms_view counters = {
	.view = &stat_view_balancing,
	.cols = cols,
	.ncols = BC_COUNT,
	.want = VMS_BALANCING_MASK,
	.scope = "NUMA balancing counters",
	.json_name = "balancing",
	.own = own_cell,
	.by_default = by_default,
};

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	return stat_vms_view_setup(ctx, &counters, o, rc);
}

const struct stat_view stat_view_balancing = {
	.name = "balancing",
	.option = { "balancing", no_argument, 0, NULL,
		    "NUMA balancing and page migration counters" },
	.cols = cols,
	.ctx_size = sizeof(struct vms_view_ctx),
	.setup = setup,
	.sample = stat_vms_view_sample,
	.print = stat_vms_view_print,
	.prom = stat_vms_view_prom,
	.free = stat_vms_view_free,
};
