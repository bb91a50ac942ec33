// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --balancing: what automatic NUMA balancing does (stat-effect.h).
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

#include "cmd.h"
#include "knobs.h"
#include "log.h"
#include "out.h"
#include "stat-effect.h"
#include "sysfs.h"
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

static const struct vms_col cols[BC_COUNT] = {
	[BC_NODE] = { "NODE", "node", -1, NUM, "node id; all: the whole machine" },
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
			   "numa_hint_faults_local / numa_hint_faults, percent" },
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
	if (stat_view_columns(b->o, names, BC_COUNT, d, nd, b->shown, &b->show.n, &b->show.sort) <
	    0)
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
		stat_vms_scope_line(&b->t, "NUMA balancing counters", stdout);
}

static int write_prom(FILE *f, void *ctx)
{
	const struct balance *b = ctx;

	stat_vms_prom_write(&b->t, cols, BC_COUNT, f);
	return ferror(f) ? -EIO : 0;
}

static int loop_sample(void *ctx, double secs, bool first)
{
	struct balance *b = ctx;

	if (first)
		scope_line(b);
	return stat_vms_sample(&b->t, secs, first);
}

static int loop_print(void *ctx, const struct stat_loop_info *in)
{
	struct balance *b = ctx;
	char why[WHY_MAX];
	int r = stat_vms_print(&b->t, &b->show, in, why, sizeof(why));

	if (r < 0 && r != -EIO)
		log_err("%s", why);
	return r;
}

int stat_balance_run(const struct stat_opts *o)
{
	static const struct stat_loop_ops ops = { loop_sample, loop_print };
	struct balance b = { .o = o };
	char why[WHY_MAX];
	int rc = EXIT_OK, r;

	r = stat_vms_setup(&b.t, o, VMS_BALANCING_MASK, false, &rc);
	if (r != EXIT_OK || setup_columns(&b) < 0) {
		stat_vms_free(&b.t);
		return r != EXIT_OK ? r : EXIT_USAGE;
	}
	if (o->interval > 0)
		r = stat_loop_run(o, &ops, &b);
	else if (o->prometheus || o->textfile)
		r = prom_emit(o, "numastatctl-balancing.prom", write_prom, &b);
	else {
		scope_line(&b);
		r = stat_vms_print(&b.t, &b.show, NULL, why, sizeof(why)) < 0 ? EXIT_FAIL : EXIT_OK;
		if (r != EXIT_OK)
			log_err("%s", why);
	}
	stat_vms_free(&b.t);
	return r > rc ? r : rc;
}

void stat_balance_status_read(struct stat_balance_status *b)
{
	uint32_t need = VMS_BIT(VMS_NUMA_HINT_FAULTS) | VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL) |
			VMS_BIT(VMS_NUMA_PAGES_MIGRATED);
	char why[WHY_MAX], *text;
	struct knob_ref ref;
	struct vmstat_sel s;
	struct kval v;

	*b = (struct stat_balance_status){ .state = -ENOENT };
	if (knob_resolve("kernel.numa_balancing", &ref, NULL, 0) < 0)
		return;
	if ((b->state = knob_read(&ref, &v)) < 0)
		return;
	b->state = strcmp(v.text, "0") != 0;
	knob_describe(&ref, &v, b->mode, sizeof(b->mode));
	text = malloc(VMSTAT_BUF);
	if (text && vmstat_read(VMSTAT_GLOBAL, &s, text, VMSTAT_BUF, why, sizeof(why)) == 0 &&
	    (s.have & need) == need) {
		b->counters = true;
		b->faults = s.v[VMS_NUMA_HINT_FAULTS];
		b->local = s.v[VMS_NUMA_HINT_FAULTS_LOCAL];
		b->migrated = s.v[VMS_NUMA_PAGES_MIGRATED];
		b->has_promoted = s.have & VMS_BIT(VMS_PGPROMOTE_SUCCESS);
		b->promoted = s.v[VMS_PGPROMOTE_SUCCESS];
	}
	free(text);
}

/* "8192 hint faults, 0.0% local, 8192 pages migrated" */
static void since_boot(const struct stat_balance_status *b, char *buf, size_t size)
{
	size_t j = (size_t)snprintf(buf, size, "%" PRIu64 " hint faults", b->faults);

	if (b->faults && j < size)
		j += (size_t)snprintf(buf + j, size - j, ", %.1f%% local",
				      100.0 * (double)b->local / (double)b->faults);
	if (j < size)
		j += (size_t)snprintf(buf + j, size - j, ", %" PRIu64 " pages migrated",
				      b->migrated);
	if (b->has_promoted && b->promoted && j < size)
		snprintf(buf + j, size - j, ", %" PRIu64 " promoted", b->promoted);
}

void stat_balance_status_print(const struct stat_balance_status *b)
{
	char done[256] = "";

	if (b->state < 0) {
		stat_print_escaped("NUMA balancing: %s (%s)\n",
				   b->state == -ENOENT ? "not on this kernel" : "unknown",
				   b->state == -ENOENT ? "no kernel.numa_balancing"
						       : sysfs_strerror(b->state));
		return;
	}
	if (b->counters)
		since_boot(b, done, sizeof(done));
	/* Off: what it did while it was on, if anything. */
	if (b->state == 0)
		stat_print_escaped("NUMA balancing: off%s%s%s\n", b->faults ? " (since boot " : "",
				   b->faults ? done : "", b->faults ? ")" : "");
	else
		stat_print_escaped("NUMA balancing: on (%s)%s%s\n", b->mode,
				   done[0] ? "; since boot " : "", done);
}

int stat_balance_status_json(const struct stat_balance_status *b, struct out_doc *d, char *why,
			     size_t whylen)
{
	static const char *const keys[] = { "state",          "mode",
					    "hint_faults",    "hint_faults_local",
					    "hint_local_pct", "pages_migrated",
					    "pages_promoted" };
	struct out_table *t;
	struct out_row *row;
	int r = out_table_new(&t, "balancing", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		out_table_add_column(t, keys[i], 0, i < 2 ? 0 : OUT_COL_NUMBER);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	if (r == 0)
		r = out_row_set(row, 0,
				b->state == -ENOENT ? "absent"
				: b->state < 0      ? "unknown"
				: b->state          ? "on"
						    : "off");
	if (r == 0 && b->state >= 0)
		r = out_row_set(row, 1, b->mode);
	if (r == 0 && b->counters) {
		out_row_setf(row, 2, "%" PRIu64, b->faults);
		out_row_setf(row, 3, "%" PRIu64, b->local);
		if (b->faults)
			out_row_setf(row, 4, "%.1f", 100.0 * (double)b->local / (double)b->faults);
		out_row_setf(row, 5, "%" PRIu64, b->migrated);
		if (b->has_promoted)
			out_row_setf(row, 6, "%" PRIu64, b->promoted);
	}
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_OBJECT);
	out_table_free(t);
	return r;
}
