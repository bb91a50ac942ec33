// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --migration: the migration ledger (stat-view.h).  Every page
 * migrate_pages() moves counts in pgmigrate_success; the ledger splits it
 * by the causes the kernel counts (vmstat_ledger(), vmstat.h): NUMA
 * balancing, tiering promotion (within balancing's count, taken out of
 * it), demotion by each reclaim path, and the rest, which no counter names
 * (compaction, mbind/move_pages/migrate_pages(2), cpuset moves, memory
 * hotplug, CMA, DAMON).  Promotion is counted on the node pages went to,
 * demotion on the node they left, per node where nodeN/vmstat keeps them
 * (demotion from 6.8); the rest is machine-wide, in the row all, where
 * the ledger adds up.  The signals of trouble are columns too: promotion
 * candidates not promoted (the rate limit), demotion by direct reclaim
 * (an allocation waited), the share of local hinting faults.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cmd-stat.h"
#include "out.h"
#include "prom.h"
#include "stat-cell.h"
#include "stat-view.h"
#include "stat-vmstat.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

enum {
	MC_NODE,
	MC_MIGRATED,
	MC_BALANCING,
	MC_PROMOTED,
	MC_DEMOTED_KSWAPD,
	MC_DEMOTED_DIRECT,
	MC_DEMOTED_KHUGEPAGED,
	MC_DEMOTED_PROACTIVE,
	MC_OTHER,
	MC_THP,
	MC_FAILED,
	MC_PROMOTE_HELD,
	MC_HINT_LOCAL_PCT,
	MC_COUNT,
};

/* Its columns, as stat_view_col (one per enum value), ending with { 0 }. */
static const struct stat_view_col cols[MC_COUNT + 1] = {
	[MC_NODE] = { "NODE", "node", -1, NUM, "node id; all: the whole machine (/proc/vmstat)" },
	[MC_MIGRATED] = { "MIGRATED", "migrated", VMS_PGMIGRATE_SUCCESS, NUM,
			  "pages migrated for any cause (pgmigrate_success): what the row all "
			  "splits" },
	[MC_BALANCING] = { "BALANCING", "balancing", -1, NUM,
			   "pages NUMA balancing moved to the node using them, promotions left "
			   "out (numa_pages_migrated - pgpromote_success)" },
	[MC_PROMOTED] = { "PROMOTED", "promoted", VMS_PGPROMOTE_SUCCESS, NUM,
			  "pages promoted to a fast tier node (pgpromote_success), on the node they "
			  "went to" },
	[MC_DEMOTED_KSWAPD] = { "DEMOTED_KSWAPD", "demoted_kswapd", VMS_PGDEMOTE_KSWAPD, NUM,
				"pages kswapd demoted from this node to a slower one" },
	[MC_DEMOTED_DIRECT] = { "DEMOTED_DIRECT", "demoted_direct", VMS_PGDEMOTE_DIRECT, NUM,
				"pages direct reclaim demoted: an allocation waited for it" },
	[MC_DEMOTED_KHUGEPAGED] = { "DEMOTED_KHUGEPAGED", "demoted_khugepaged",
				    VMS_PGDEMOTE_KHUGEPAGED, NUM, "pages khugepaged demoted" },
	[MC_DEMOTED_PROACTIVE] = { "DEMOTED_PROACTIVE", "demoted_proactive", VMS_PGDEMOTE_PROACTIVE,
				   NUM, "pages proactive reclaim (memory.reclaim) demoted" },
	[MC_OTHER] = { "OTHER", "other", -1, NUM,
		       "the rest of MIGRATED, which no counter names: compaction, mbind, "
		       "move_pages and migrate_pages(2), cpuset moves, memory hotplug, CMA, DAMON" },
	[MC_THP] = { "THP", "thp_migrated", VMS_THP_MIGRATION_SUCCESS, NUM,
		     "huge pages migrated whole (thp_migration_success), within the rows above" },
	[MC_FAILED] = { "FAILED", "failed", VMS_PGMIGRATE_FAIL, NUM,
			"pages that failed to migrate (pgmigrate_fail)" },
	[MC_PROMOTE_HELD] = { "PROMOTE_HELD", "promote_held", -1, NUM,
			      "promotion candidates not promoted (pgpromote_candidate - "
			      "pgpromote_success): held back by the rate limit, or failed" },
	[MC_HINT_LOCAL_PCT] = { "HINT_LOCAL%", "hint_local_pct", -1, NUM,
				"the share numa_hint_faults_local / numa_hint_faults, in percent; "
				"empty (JSON null) when there were none" },
};

/* The ledger of table row r, as the output shows it (reading, sample or totals). */
static void row_ledger(const struct vms_table *t, size_t r, const struct stat_loop_info *in,
		       struct vmstat_ledger *l)
{
	struct vmstat_sel m = { 0 };

	for (int k = 0; k < VMS_COUNT; k++)
		if (stat_vms_value(t, r, k, in, &m.v[k]))
			m.have |= VMS_BIT(k);
	vmstat_ledger(&m, l);
}

static void count_cell(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, uint64_t v,
		       const struct stat_loop_info *in)
{
	stat_cell_rate(g, gr, gc, v, c->o, in ? in->secs : 0);
}

static void own_cell(struct vms_view_ctx *c, struct grid *g, size_t gr, size_t gc, size_t r,
		     int col, const struct stat_loop_info *in)
{
	struct vmstat_ledger l;
	uint64_t a, b;

	row_ledger(&c->t, r, in, &l);
	if (col == MC_BALANCING && l.have[LEDGER_BALANCING])
		count_cell(c, g, gr, gc, l.pages[LEDGER_BALANCING], in);
	else if (col == MC_OTHER && l.have[LEDGER_OTHER])
		count_cell(c, g, gr, gc, l.pages[LEDGER_OTHER], in);
	else if (col == MC_PROMOTE_HELD &&
		 stat_vms_value(&c->t, r, VMS_PGPROMOTE_CANDIDATE, in, &a) &&
		 stat_vms_value(&c->t, r, VMS_PGPROMOTE_SUCCESS, in, &b))
		count_cell(c, g, gr, gc, a > b ? a - b : 0, in);
	else if (col == MC_HINT_LOCAL_PCT &&
		 stat_vms_value(&c->t, r, VMS_NUMA_HINT_FAULTS_LOCAL, in, &a) &&
		 stat_vms_value(&c->t, r, VMS_NUMA_HINT_FAULTS, in, &b))
		stat_cell_pct(g, gr, gc, (double)a, (double)b);
	else
		grid_set(g, gr, gc, c->o->json ? NULL : "-", -1, false);
}

/* The ledger's own columns without -o: where the kernel has what they need. */
static bool by_default(const struct vms_view_ctx *c, int col)
{
	uint32_t have = c->t.per_node | c->t.global;
	uint32_t need = col == MC_BALANCING      ? VMS_BIT(VMS_NUMA_PAGES_MIGRATED)
			: col == MC_OTHER        ? VMS_BIT(VMS_PGMIGRATE_SUCCESS)
			: col == MC_PROMOTE_HELD ? VMS_BIT(VMS_PGPROMOTE_CANDIDATE)
						 : VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL);

	return (have & need) == need;
}

/* After a one-shot table: whether the ledger adds up. */
static int after(struct vms_view_ctx *c, char *why, size_t whylen)
{
	struct vmstat_ledger l;
	size_t all = c->t.n - 1;

	if (c->o->json || !c->t.n || c->t.rows[all].node != VMS_ALL)
		return 0;
	row_ledger(&c->t, all, NULL, &l);
	if (l.have_total && l.excess)
		stat_view_line(c->o,
			       "the named causes exceed pgmigrate_success by %" PRIu64
			       " pages (counters read apart, or node counters not yet folded): "
			       "OTHER is 0",
			       l.excess);
	return 0;
}

static const char *const causes[LEDGER_ROWS] = {
	[LEDGER_BALANCING] = "numa_balancing",
	[LEDGER_PROMOTION] = "promotion",
	[LEDGER_DEMOTE_KSWAPD] = "demotion_kswapd",
	[LEDGER_DEMOTE_DIRECT] = "demotion_direct",
	[LEDGER_DEMOTE_KHUGEPAGED] = "demotion_khugepaged",
	[LEDGER_DEMOTE_PROACTIVE] = "demotion_proactive",
	[LEDGER_OTHER] = "other",
};

/*
 * Its own families, not the counters' (stat --balancing and --tiers export
 * those: a textfile directory holding both would have them twice).
 */
static int prom(void *ctx, FILE *f)
{
	struct vms_view_ctx *c = ctx;
	struct vmstat_ledger l;
	size_t all = c->t.n - 1;

	if (!c->t.n || c->t.rows[all].node != VMS_ALL)
		return 0;
	row_ledger(&c->t, all, NULL, &l);
	prom_family(f, "numastatctl_migration_pages_total", "counter",
		    "Pages migrated since boot by cause, machine-wide: the split of "
		    "pgmigrate_success (other: what no counter names, compaction among it).");
	for (int i = 0; i < LEDGER_ROWS; i++)
		if (l.have[i])
			fprintf(f, "numastatctl_migration_pages_total{cause=\"%s\"} %" PRIu64 "\n",
				causes[i], l.pages[i]);
	prom_family(f, "numastatctl_migration_excess_pages", "gauge",
		    "How far the named causes exceed pgmigrate_success (counters read apart); "
		    "other is 0 while it is not.");
	fprintf(f, "numastatctl_migration_excess_pages %" PRIu64 "\n", l.excess);
	return ferror(f) ? -EIO : 0;
}

static const struct vms_view counters = {
	.view = &stat_view_migration,
	.cols = cols,
	.ncols = MC_COUNT,
	.want = VMS_LEDGER_MASK & ~VMS_BIT(VMS_PGPROMOTE_CANDIDATE_NRL),
	.scope = "migration counters",
	.json_name = "migration",
	/* The ledger's machine-wide causes on a node's row: "-", not a blank to misread. */
	.dash = true,
	.own = own_cell,
	.by_default = by_default,
	.after = after,
};

static int setup(void *ctx, const struct stat_opts *o, int *rc)
{
	return stat_vms_view_setup(ctx, &counters, o, rc);
}

const struct stat_view stat_view_migration = {
	.name = "migration",
	.option = { "migration", no_argument, 0, NULL,
		    "the migration ledger: pages migrated, by cause" },
	.cols = cols,
	.ctx_size = sizeof(struct vms_view_ctx),
	.setup = setup,
	.sample = stat_vms_view_sample,
	.print = stat_vms_view_print,
	.prom = prom,
	.free = stat_vms_view_free,
};
