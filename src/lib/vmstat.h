/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NUMA-balancing, migration, promotion and demotion counters of
 * /proc/vmstat and /sys/devices/system/node/nodeN/vmstat (implemented in
 * vmstat.c).  Which of them a kernel has, and whether it keeps one per
 * node or only machine-wide, depends on its version and configuration (the
 * pgdemote_* lines moved from /proc/vmstat alone into nodeN/vmstat around
 * 6.7/6.8), so a reader records which keys it saw and never assumes one:
 * a missing key means "not on this kernel", not zero.  Parsers work on
 * buffers and never print.  Implemented by vmstat.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The counters the balancing, tiers and reclaim views show, in their column order. */
enum vms_key {
	/* NUMA balancing (vm events: machine-wide in every kernel to date). */
	VMS_NUMA_PTE_UPDATES,
	VMS_NUMA_HUGE_PTE_UPDATES,
	VMS_NUMA_HINT_FAULTS,
	VMS_NUMA_HINT_FAULTS_LOCAL,
	VMS_NUMA_PAGES_MIGRATED,
	VMS_PGMIGRATE_SUCCESS,
	VMS_PGMIGRATE_FAIL,
	/*
	 * Memory tiering: promotion, a node counter from the start: commit
	 * e39bb6be9f2b, 5.18, with the tiering mode of kernel.numa_balancing;
	 * and demotion.  (The one home of these versions in the code.)
	 */
	VMS_PGPROMOTE_SUCCESS,
	VMS_PGPROMOTE_CANDIDATE,
	VMS_PGPROMOTE_CANDIDATE_NRL,
	VMS_PGDEMOTE_KSWAPD,
	VMS_PGDEMOTE_DIRECT,
	VMS_PGDEMOTE_KHUGEPAGED,
	VMS_PGDEMOTE_PROACTIVE,
	/* Reclaim: vm events (machine-wide) up to 6.18, node stats (per node) from 7.2. */
	VMS_PGSCAN_KSWAPD,
	VMS_PGSCAN_DIRECT,
	VMS_PGSCAN_KHUGEPAGED,
	VMS_PGSCAN_PROACTIVE,
	VMS_PGSTEAL_KSWAPD,
	VMS_PGSTEAL_DIRECT,
	VMS_PGSTEAL_KHUGEPAGED,
	VMS_PGSTEAL_PROACTIVE,
	VMS_PGSCAN_ANON,
	VMS_PGSCAN_FILE,
	VMS_PGSTEAL_ANON,
	VMS_PGSTEAL_FILE,
	/* Page migration: huge pages migrated whole (vm event, machine-wide), inside pgmigrate_success. */
	VMS_THP_MIGRATION_SUCCESS,
	VMS_COUNT,
};
extern const char *const vmstat_names[VMS_COUNT];

#define VMS_BIT(k) (1u << (k))
/* The keys first .. last, as a mask. */
#define VMS_RANGE(first, last) ((VMS_BIT((last) + 1) - 1) & ~(VMS_BIT(first) - 1))
/* The keys of each view, as masks. */
#define VMS_BALANCING_MASK VMS_RANGE(VMS_NUMA_PTE_UPDATES, VMS_PGMIGRATE_FAIL)
#define VMS_TIERING_MASK VMS_RANGE(VMS_PGPROMOTE_SUCCESS, VMS_PGDEMOTE_PROACTIVE)
#define VMS_RECLAIM_MASK VMS_RANGE(VMS_PGSCAN_KSWAPD, VMS_PGSTEAL_FILE)
/* The keys only the migration ledger reads; the ledger also reads others' (vmstat_ledger()). */
#define VMS_LEDGER_ONLY_MASK VMS_BIT(VMS_THP_MIGRATION_SUCCESS)
#define VMS_LEDGER_MASK                                                               \
	(VMS_LEDGER_ONLY_MASK | VMS_RANGE(VMS_NUMA_HINT_FAULTS, VMS_PGMIGRATE_FAIL) | \
	 VMS_RANGE(VMS_PGPROMOTE_SUCCESS, VMS_PGDEMOTE_PROACTIVE))
_Static_assert(VMS_COUNT <= 32, "struct vmstat_sel.have holds 32 keys");

/* The wanted counters of one vmstat file. */
struct vmstat_sel {
	uint32_t have;         /* VMS_BIT(k): key k was in the file */
	uint64_t v[VMS_COUNT]; /* valid where have says so */
};

/*
 * The migration ledger: pgmigrate_success (every page migrate_pages() moved,
 * mm/migrate.c) split by the cause a counter names.  NUMA balancing's
 * migrations are numa_pages_migrated (migrate_misplaced_folio()), of which
 * tiering promotions are pgpromote_success; demotions by reclaim are
 * pgdemote_* (demote_folio_list(), mm/vmscan.c).  What no counter names
 * (compaction, mbind/move_pages/migrate_pages(2), cpuset moves, memory
 * hotplug, CMA, DAMON, memory failure) is the rest.  A cause the kernel
 * has no counter for is not had; THP is how many huge pages moved whole,
 * inside the rows, not a cause.
 */
enum ledger_row {
	LEDGER_BALANCING, /* numa_pages_migrated less pgpromote_success */
	LEDGER_PROMOTION,
	LEDGER_DEMOTE_KSWAPD,
	LEDGER_DEMOTE_DIRECT,
	LEDGER_DEMOTE_KHUGEPAGED,
	LEDGER_DEMOTE_PROACTIVE,
	LEDGER_OTHER, /* pgmigrate_success less the rows above */
	LEDGER_ROWS,
};
struct vmstat_ledger {
	bool have_total;
	uint64_t total; /* pgmigrate_success */
	bool have[LEDGER_ROWS];
	uint64_t pages[LEDGER_ROWS];
	/*
	 * The named rows exceed pgmigrate_success by this much (0 normally):
	 * events are summed over CPUs at slightly different moments, and node
	 * counters lag by up to their per-CPU thresholds; other is 0 then.
	 */
	uint64_t excess;
};

/*
 * The ledger of the counters in m (machine-wide /proc/vmstat values, or
 * their changes over an interval).  other is had when the total is.
 */
void vmstat_ledger(const struct vmstat_sel *m, struct vmstat_ledger *out);

/* The files, by logical path. */
#define VMSTAT_GLOBAL "/proc/vmstat"
/* /proc/vmstat is ~4 kB on 6.x; room for kernels with many more items. */
#define VMSTAT_BUF 32768

/*
 * Parse "name value\n" lines (either file).  Every line must be a name of
 * a-z, 0-9 and _, one space and a decimal u64; a wanted key must not come
 * twice.  Other keys are checked and skipped.  0 or -EBADMSG with a reason
 * ("line 3: value is not a decimal number").
 */
int vmstat_parse(const char *buf, size_t len, struct vmstat_sel *out, char *why, size_t whylen);

/* The logical path of nodeN/vmstat into buf. */
void vmstat_node_path(unsigned node, char *buf, size_t size);

/*
 * Read and parse a vmstat file (VMSTAT_GLOBAL or a node's) into out.  buf is
 * the caller's scratch of size bytes (VMSTAT_BUF).  -errno with a reason
 * ("not present on this kernel", "file too large") or -EBADMSG.
 */
int vmstat_read(const char *path, struct vmstat_sel *out, char *buf, size_t size, char *why,
		size_t whylen);
/* The same through an fd kept open: one pread(2) at offset 0. */
int vmstat_pread(int fd, struct vmstat_sel *out, char *buf, size_t size, char *why, size_t whylen);
