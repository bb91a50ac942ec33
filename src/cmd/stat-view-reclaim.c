// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --reclaim: how much memory reclaim scans and frees (stat-view.h),
 * and where.  kswapd, direct reclaim (an allocating task reclaiming for
 * itself: the stall vm.zone_reclaim_mode trades for locality), khugepaged
 * and proactive reclaim (memory.reclaim) each count the pages they scanned
 * (pgscan_*) and the pages they freed (pgsteal_*); the anon and file
 * counters split the same pages by LRU.  STEAL% is freed / scanned: a low
 * share means reclaim works hard for little.  Up to 6.18 these are vm
 * events, machine-wide only (the row all); from 7.2 the kernel keeps them
 * per node (nodeN/vmstat), and the table gets node rows by itself.
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
	RC_NODE,
	RC_SCAN_KSWAPD,
	RC_SCAN_DIRECT,
	RC_SCAN_KHUGEPAGED,
	RC_SCAN_PROACTIVE,
	RC_STEAL_KSWAPD,
	RC_STEAL_DIRECT,
	RC_STEAL_KHUGEPAGED,
	RC_STEAL_PROACTIVE,
	RC_SCAN_ANON,
	RC_SCAN_FILE,
	RC_STEAL_ANON,
	RC_STEAL_FILE,
	RC_STEAL_PCT,
	RC_COUNT,
};

/* Its columns, as stat_view_col (one per enum value), ending with { 0 }. */
static const struct stat_view_col cols[RC_COUNT + 1] = {
	[RC_NODE] = { "NODE", "node", -1, NUM, "node id; all: the whole machine (/proc/vmstat)" },
	[RC_SCAN_KSWAPD] = { "PGSCAN_KSWAPD", "pgscan_kswapd", VMS_PGSCAN_KSWAPD, NUM,
			     "pages kswapd scanned to reclaim" },
	[RC_SCAN_DIRECT] = { "PGSCAN_DIRECT", "pgscan_direct", VMS_PGSCAN_DIRECT, NUM,
			     "pages allocating tasks scanned in direct reclaim (they waited)" },
	[RC_SCAN_KHUGEPAGED] = { "PGSCAN_KHUGEPAGED", "pgscan_khugepaged", VMS_PGSCAN_KHUGEPAGED,
				 NUM, "pages khugepaged scanned to reclaim" },
	[RC_SCAN_PROACTIVE] = { "PGSCAN_PROACTIVE", "pgscan_proactive", VMS_PGSCAN_PROACTIVE, NUM,
				"pages proactive reclaim (memory.reclaim) scanned" },
	[RC_STEAL_KSWAPD] = { "PGSTEAL_KSWAPD", "pgsteal_kswapd", VMS_PGSTEAL_KSWAPD, NUM,
			      "pages kswapd freed" },
	[RC_STEAL_DIRECT] = { "PGSTEAL_DIRECT", "pgsteal_direct", VMS_PGSTEAL_DIRECT, NUM,
			      "pages direct reclaim freed" },
	[RC_STEAL_KHUGEPAGED] = { "PGSTEAL_KHUGEPAGED", "pgsteal_khugepaged",
				  VMS_PGSTEAL_KHUGEPAGED, NUM, "pages khugepaged freed" },
	[RC_STEAL_PROACTIVE] = { "PGSTEAL_PROACTIVE", "pgsteal_proactive", VMS_PGSTEAL_PROACTIVE,
				 NUM, "pages proactive reclaim freed" },
	[RC_SCAN_ANON] = { "PGSCAN_ANON", "pgscan_anon", VMS_PGSCAN_ANON, NUM,
			   "of the pages scanned, anonymous ones" },
	[RC_SCAN_FILE] = { "PGSCAN_FILE", "pgscan_file", VMS_PGSCAN_FILE, NUM,
			   "of the pages scanned, page cache" },
	[RC_STEAL_ANON] = { "PGSTEAL_ANON", "pgsteal_anon", VMS_PGSTEAL_ANON, NUM,
			    "of the pages freed, anonymous ones" },
	[RC_STEAL_FILE] = { "PGSTEAL_FILE", "pgsteal_file", VMS_PGSTEAL_FILE, NUM,
			    "of the pages freed, page cache" },
	[RC_STEAL_PCT] = { "STEAL%", "steal_pct", -1, NUM,
			   "the share (pgsteal_anon + pgsteal_file) / (pgscan_anon + pgscan_file), in "
			   "percent: low when reclaim scans much to free little; empty (JSON null) "
			   "when nothing was scanned" },
};

/* The sum of keys a and b in row r, if the row has either. */
static bool sum2(const struct vms_table *t, size_t r, int a, int b, const struct stat_loop_info *in,
		 uint64_t *v)
{
	uint64_t x = 0, y = 0;
	bool ha = stat_vms_value(t, r, a, in, &x), hb = stat_vms_value(t, r, b, in, &y);

	*v = x + y;
	return ha || hb;
}

/* STEAL%: the only column the table does not read. */
static void own_cell(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, size_t r,
		     int col, const struct stat_loop_info *in)
{
	uint64_t steal, scan;

	if (col == RC_STEAL_PCT && sum2(&c->t, r, VMS_PGSTEAL_ANON, VMS_PGSTEAL_FILE, in, &steal) &&
	    sum2(&c->t, r, VMS_PGSCAN_ANON, VMS_PGSCAN_FILE, in, &scan))
		stat_cell_pct(g, gr, gc, (double)steal, (double)scan);
	else
		grid_set(g, gr, gc, NULL, -1, false);
}

/* STEAL% without -o: where the kernel splits reclaim by LRU. */
static bool by_default(const struct vms_view_ctx *c, int col)
{
	uint32_t lru = VMS_BIT(VMS_PGSCAN_ANON) | VMS_BIT(VMS_PGSTEAL_ANON);

	return col == RC_STEAL_PCT && ((c->t.per_node | c->t.global) & lru) == lru;
}

static const struct vms_view counters = {
	.view = &stat_view_reclaim,
	.cols = cols,
	.ncols = RC_COUNT,
	.want = VMS_RECLAIM_MASK,
	.scope = "reclaim counters",
	.json_name = "reclaim",
	.own = own_cell,
	.by_default = by_default,
};

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	return stat_vms_view_setup(ctx, &counters, o, rc);
}

const struct stat_view stat_view_reclaim = {
	.name = "reclaim",
	.option = { "reclaim", no_argument, 0, NULL,
		    "pages reclaim scanned and freed (pgscan, pgsteal)" },
	.cols = cols,
	.ctx_size = sizeof(struct vms_view_ctx),
	.setup = setup,
	.sample = stat_vms_view_sample,
	.print = stat_vms_view_print,
	.prom = stat_vms_view_prom,
	.free = stat_vms_view_free,
};
