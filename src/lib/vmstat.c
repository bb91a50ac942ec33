// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/vmstat and nodeN/vmstat: the balancing and tiering counters (vmstat.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nodes.h"
#include "sysfs.h"
#include "vmstat.h"

const char *const vmstat_names[VMS_COUNT] = {
	[VMS_NUMA_PTE_UPDATES] = "numa_pte_updates",
	[VMS_NUMA_HUGE_PTE_UPDATES] = "numa_huge_pte_updates",
	[VMS_NUMA_HINT_FAULTS] = "numa_hint_faults",
	[VMS_NUMA_HINT_FAULTS_LOCAL] = "numa_hint_faults_local",
	[VMS_NUMA_PAGES_MIGRATED] = "numa_pages_migrated",
	[VMS_PGMIGRATE_SUCCESS] = "pgmigrate_success",
	[VMS_PGMIGRATE_FAIL] = "pgmigrate_fail",
	[VMS_PGPROMOTE_SUCCESS] = "pgpromote_success",
	[VMS_PGPROMOTE_CANDIDATE] = "pgpromote_candidate",
	[VMS_PGPROMOTE_CANDIDATE_NRL] = "pgpromote_candidate_nrl",
	[VMS_PGDEMOTE_KSWAPD] = "pgdemote_kswapd",
	[VMS_PGDEMOTE_DIRECT] = "pgdemote_direct",
	[VMS_PGDEMOTE_KHUGEPAGED] = "pgdemote_khugepaged",
	[VMS_PGDEMOTE_PROACTIVE] = "pgdemote_proactive",
	[VMS_PGSCAN_KSWAPD] = "pgscan_kswapd",
	[VMS_PGSCAN_DIRECT] = "pgscan_direct",
	[VMS_PGSCAN_KHUGEPAGED] = "pgscan_khugepaged",
	[VMS_PGSCAN_PROACTIVE] = "pgscan_proactive",
	[VMS_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[VMS_PGSTEAL_DIRECT] = "pgsteal_direct",
	[VMS_PGSTEAL_KHUGEPAGED] = "pgsteal_khugepaged",
	[VMS_PGSTEAL_PROACTIVE] = "pgsteal_proactive",
	[VMS_PGSCAN_ANON] = "pgscan_anon",
	[VMS_PGSCAN_FILE] = "pgscan_file",
	[VMS_PGSTEAL_ANON] = "pgsteal_anon",
	[VMS_PGSTEAL_FILE] = "pgsteal_file",
	[VMS_THP_MIGRATION_SUCCESS] = "thp_migration_success",
};

static bool has(const struct vmstat_sel *m, int k)
{
	return m->have & VMS_BIT(k);
}

void vmstat_ledger(const struct vmstat_sel *m, struct vmstat_ledger *out)
{
	static const int demote[] = { VMS_PGDEMOTE_KSWAPD, VMS_PGDEMOTE_DIRECT,
				      VMS_PGDEMOTE_KHUGEPAGED, VMS_PGDEMOTE_PROACTIVE };
	uint64_t named = 0;

	*out = (struct vmstat_ledger){ .have_total = has(m, VMS_PGMIGRATE_SUCCESS) };
	out->total = out->have_total ? m->v[VMS_PGMIGRATE_SUCCESS] : 0;
	/* Promotions are NUMA balancing migrations too: counted once, as promotions. */
	out->have[LEDGER_PROMOTION] = has(m, VMS_PGPROMOTE_SUCCESS);
	out->pages[LEDGER_PROMOTION] =
		out->have[LEDGER_PROMOTION] ? m->v[VMS_PGPROMOTE_SUCCESS] : 0;
	out->have[LEDGER_BALANCING] = has(m, VMS_NUMA_PAGES_MIGRATED);
	if (out->have[LEDGER_BALANCING]) {
		uint64_t all = m->v[VMS_NUMA_PAGES_MIGRATED], p = out->pages[LEDGER_PROMOTION];

		/* Node counters lag the events: never below zero. */
		out->pages[LEDGER_BALANCING] = all > p ? all - p : 0;
		named += all > p ? all : p;
	} else
		named += out->pages[LEDGER_PROMOTION];
	for (int i = 0; i < 4; i++) {
		out->have[LEDGER_DEMOTE_KSWAPD + i] = has(m, demote[i]);
		out->pages[LEDGER_DEMOTE_KSWAPD + i] = has(m, demote[i]) ? m->v[demote[i]] : 0;
		named += out->pages[LEDGER_DEMOTE_KSWAPD + i];
	}
	out->have[LEDGER_OTHER] = out->have_total;
	if (!out->have_total)
		return;
	if (named > out->total)
		out->excess = named - out->total;
	else
		out->pages[LEDGER_OTHER] = out->total - named;
}

static int key_of(const char *name, size_t len)
{
	for (int k = 0; k < VMS_COUNT; k++)
		if (strlen(vmstat_names[k]) == len && memcmp(vmstat_names[k], name, len) == 0)
			return k;
	return -1;
}

static int vmstat_line(const char *p, size_t len, unsigned line, void *ctx, char *why,
		       size_t whylen)
{
	struct vmstat_sel *out = ctx;
	const char *sp = memchr(p, ' ', len);
	size_t klen = sp ? (size_t)(sp - p) : 0;
	const char *problem;
	uint64_t v;
	int k;

	if (klen == 0)
		return node_line_error(why, whylen, line, "expected 'name value'");
	if ((problem = node_counter_name_problem(p, klen)) ||
	    (problem = node_counter_value_problem(sp + 1, len - klen - 1, &v)))
		return node_line_error(why, whylen, line, problem);
	k = key_of(p, klen);
	if (k < 0)
		return 0;
	if (out->have & VMS_BIT(k))
		return node_line_error(why, whylen, line, "counter appears twice");
	out->have |= VMS_BIT(k);
	out->v[k] = v;
	return 0;
}

int vmstat_parse(const char *buf, size_t len, struct vmstat_sel *out, char *why, size_t whylen)
{
	out->have = 0;
	return node_text_lines(buf, len, vmstat_line, out, why, whylen);
}

void vmstat_node_path(unsigned node, char *buf, size_t size)
{
	snprintf(buf, size, NODE_DIR "/node%u/vmstat", node);
}

static int read_error(ssize_t n, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s", n == -EFBIG ? "file too large" : sysfs_strerror((int)n));
	return (int)n;
}

int vmstat_read(const char *path, struct vmstat_sel *out, char *buf, size_t size, char *why,
		size_t whylen)
{
	ssize_t n = sysfs_read_file(path, buf, size);

	if (n < 0)
		return read_error(n, why, whylen);
	return vmstat_parse(buf, (size_t)n, out, why, whylen);
}

int vmstat_pread(int fd, struct vmstat_sel *out, char *buf, size_t size, char *why, size_t whylen)
{
	ssize_t n = sysfs_pread_fd(fd, buf, size);

	if (n < 0)
		return read_error(n, why, whylen);
	return vmstat_parse(buf, (size_t)n, out, why, whylen);
}
