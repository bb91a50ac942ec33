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
	/* Memory tiering: promotion (per node since 5.19) and demotion. */
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
_Static_assert(VMS_COUNT <= 32, "struct vmstat_sel.have holds 32 keys");

/* The wanted counters of one vmstat file. */
struct vmstat_sel {
	uint32_t have;         /* VMS_BIT(k): key k was in the file */
	uint64_t v[VMS_COUNT]; /* valid where have says so */
};

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
