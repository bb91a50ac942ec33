// SPDX-License-Identifier: GPL-2.0-or-later
/* The vmstat parser (vmstat.c) against kernel text and hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"
#include "tap.h"
#include "vmstat.h"

static char why[256];

static int vs(const char *text, struct vmstat_sel *out)
{
	return vmstat_parse(text, strlen(text), out, why, sizeof(why));
}

static void test_good(void)
{
	struct vmstat_sel s;

	CHECK(vs("nr_free_pages 61013\nnuma_hit 3115\nnuma_pte_updates 8192\n"
		 "numa_hint_faults 8192\nnuma_hint_faults_local 0\npgpromote_success 0\n",
		 &s) == 0,
	      "kernel lines parse");
	CHECK(s.have == (VMS_BIT(VMS_NUMA_PTE_UPDATES) | VMS_BIT(VMS_NUMA_HINT_FAULTS) |
			 VMS_BIT(VMS_NUMA_HINT_FAULTS_LOCAL) | VMS_BIT(VMS_PGPROMOTE_SUCCESS)),
	      "only the wanted keys are recorded, each that was there");
	CHECK(s.v[VMS_NUMA_PTE_UPDATES] == 8192 && s.v[VMS_NUMA_HINT_FAULTS_LOCAL] == 0,
	      "with their values; a present 0 is a value");
	CHECK(!(s.have & VMS_BIT(VMS_PGDEMOTE_KSWAPD)), "an absent key is absent, not 0");
	CHECK(vs("pgdemote_kswapd 18446744073709551615\n", &s) == 0 &&
		      s.v[VMS_PGDEMOTE_KSWAPD] == UINT64_MAX,
	      "the largest u64 parses");
	CHECK(vs("nr_zspages 0\nfuture_counter_x9 7\n", &s) == 0 && s.have == 0,
	      "unknown keys are checked and skipped");
	CHECK(VMS_BALANCING_MASK == 0x7f && (VMS_BALANCING_MASK & VMS_TIERING_MASK) == 0 &&
		      (VMS_RECLAIM_MASK & (VMS_BALANCING_MASK | VMS_TIERING_MASK)) == 0 &&
		      (VMS_LEDGER_ONLY_MASK &
		       (VMS_BALANCING_MASK | VMS_TIERING_MASK | VMS_RECLAIM_MASK)) == 0 &&
		      (VMS_BALANCING_MASK | VMS_TIERING_MASK | VMS_RECLAIM_MASK |
		       VMS_LEDGER_ONLY_MASK) == (VMS_BIT(VMS_COUNT) - 1),
	      "the balancing, tiering, reclaim and ledger-only masks split the keys");
	CHECK((VMS_LEDGER_MASK & VMS_RECLAIM_MASK) == 0 &&
		      (VMS_LEDGER_MASK & VMS_BIT(VMS_NUMA_PTE_UPDATES)) == 0 &&
		      (VMS_LEDGER_MASK & VMS_BIT(VMS_PGDEMOTE_PROACTIVE)),
	      "the ledger reads migration counters, not scanning or reclaim");
	for (int k = 0; k < VMS_COUNT; k++)
		CHECK(vmstat_names[k] && strlen(vmstat_names[k]) > 3, "key %d has a name", k);
}

/* The ledger of a reading: set key k of m to v. */
static void put(struct vmstat_sel *m, int k, uint64_t v)
{
	m->have |= VMS_BIT(k);
	m->v[k] = v;
}

static void test_ledger(void)
{
	struct vmstat_sel m = { 0 };
	struct vmstat_ledger l;
	uint64_t sum = 0;

	put(&m, VMS_PGMIGRATE_SUCCESS, 10000);
	put(&m, VMS_NUMA_PAGES_MIGRATED, 6000);
	put(&m, VMS_PGPROMOTE_SUCCESS, 1000);
	put(&m, VMS_PGDEMOTE_KSWAPD, 2000);
	put(&m, VMS_PGDEMOTE_DIRECT, 500);
	vmstat_ledger(&m, &l);
	CHECK(l.have_total && l.total == 10000, "the total is pgmigrate_success");
	CHECK(l.pages[LEDGER_BALANCING] == 5000 && l.pages[LEDGER_PROMOTION] == 1000,
	      "promotions are inside numa_pages_migrated: counted once, as promotions");
	CHECK(l.pages[LEDGER_DEMOTE_KSWAPD] == 2000 && l.pages[LEDGER_DEMOTE_DIRECT] == 500 &&
		      !l.have[LEDGER_DEMOTE_KHUGEPAGED] && !l.have[LEDGER_DEMOTE_PROACTIVE],
	      "demotion by path; a path the kernel lacks is not had, not 0");
	CHECK(l.have[LEDGER_OTHER] && l.pages[LEDGER_OTHER] == 1500 && l.excess == 0,
	      "other is the rest (compaction, syscalls, DAMON...)");
	for (int r = 0; r < LEDGER_ROWS; r++)
		sum += l.pages[r];
	CHECK(sum == l.total, "the rows sum to pgmigrate_success");

	m = (struct vmstat_sel){ 0 };
	put(&m, VMS_PGMIGRATE_SUCCESS, 77);
	put(&m, VMS_NUMA_PAGES_MIGRATED, 0);
	vmstat_ledger(&m, &l);
	CHECK(!l.have[LEDGER_PROMOTION] && l.pages[LEDGER_BALANCING] == 0 &&
		      l.pages[LEDGER_OTHER] == 77,
	      "a kernel without tiering counters (5.10): no promotion row, the rest is other");

	m = (struct vmstat_sel){ 0 };
	put(&m, VMS_PGMIGRATE_SUCCESS, 250);
	put(&m, VMS_NUMA_PAGES_MIGRATED, 190);
	put(&m, VMS_PGDEMOTE_KSWAPD, 100);
	vmstat_ledger(&m, &l);
	CHECK(l.pages[LEDGER_OTHER] == 0 && l.excess == 40,
	      "named rows above the total: other is 0 and the excess is said, never a wrap");

	m = (struct vmstat_sel){ 0 };
	put(&m, VMS_NUMA_PAGES_MIGRATED, 5);
	put(&m, VMS_PGPROMOTE_SUCCESS, 9);
	vmstat_ledger(&m, &l);
	CHECK(!l.have_total && !l.have[LEDGER_OTHER] && l.pages[LEDGER_BALANCING] == 0,
	      "no pgmigrate_success: no other; promotion ahead of balancing never wraps");
}

static void test_bad(void)
{
	struct vmstat_sel s;

	CHECK(vs("", &s) == -EBADMSG, "an empty file is refused");
	CHECK(vs("numa_hit 1\nnuma_pte_updates x\n", &s) == -EBADMSG, "a junk value is refused");
	CHECK_STR(why, "line 2: value is not a decimal number", "naming the line");
	CHECK(vs("numa_pte_updates 18446744073709551616\n", &s) == -EBADMSG, "u64 overflow");
	CHECK_STR(why, "line 1: value does not fit in 64 bits", "saying so");
	CHECK(vs("numa_pte_updates 1\nnuma_pte_updates 2\n", &s) == -EBADMSG,
	      "a wanted key twice is refused");
	CHECK(vs("numa_pte_updates -1\n", &s) == -EBADMSG, "a negative value is refused");
	CHECK(vs("numa_pte_updates  1\n", &s) == -EBADMSG, "two spaces are refused");
	CHECK(vs("numa_pte_updates\n", &s) == -EBADMSG, "a name alone is refused");
	CHECK(vs(" 1\n", &s) == -EBADMSG, "a value alone is refused");
	CHECK(vs("Numa_hit 1\n", &s) == -EBADMSG, "capitals in a name are refused");
	CHECK(vs("numa_hit 1\r\n", &s) == -EBADMSG, "CRLF is refused");
	CHECK(vs("numa_hit 1", &s) == -EBADMSG, "a missing final newline is refused");
	CHECK(vmstat_parse("numa_hit 1\n\0", 12, &s, why, sizeof(why)) == -EBADMSG,
	      "a NUL byte is refused");
	CHECK(vs("\n", &s) == -EBADMSG, "a blank line is refused");
}

/* The fixture trees as the readers see them. */
static void test_read(void)
{
	char *buf = malloc(VMSTAT_BUF), path[96], root[4096];
	const char *fx = getenv("FIXTURES");
	struct vmstat_sel s;

	snprintf(root, sizeof(root), "%s/effect-6.1", fx ? fx : ".");
	CHECK(buf && sysfs_init(root) == 0, "the 6.1 fixture opens as a sysroot");
	if (!buf)
		return;
	CHECK(vmstat_read(VMSTAT_GLOBAL, &s, buf, VMSTAT_BUF, why, sizeof(why)) == 0,
	      "/proc/vmstat reads");
	CHECK((s.have & VMS_BALANCING_MASK) == VMS_BALANCING_MASK &&
		      s.v[VMS_NUMA_HINT_FAULTS] == 8200,
	      "with every balancing counter");
	CHECK((s.have & VMS_BIT(VMS_PGDEMOTE_KSWAPD)) &&
		      !(s.have & VMS_BIT(VMS_PGDEMOTE_KHUGEPAGED)),
	      "6.1: pgdemote_kswapd but no pgdemote_khugepaged");
	vmstat_node_path(1, path, sizeof(path));
	CHECK_STR(path, "/sys/devices/system/node/node1/vmstat", "a node's path");
	CHECK(vmstat_read(path, &s, buf, VMSTAT_BUF, why, sizeof(why)) == 0 &&
		      (s.have & VMS_BIT(VMS_PGPROMOTE_SUCCESS)) &&
		      !(s.have & VMS_BIT(VMS_PGDEMOTE_KSWAPD)) && !(s.have & VMS_BALANCING_MASK),
	      "6.1 node files: promotion per node, demotion not");
	CHECK(vmstat_read("/proc/nonexistent", &s, buf, VMSTAT_BUF, why, sizeof(why)) == -ENOENT,
	      "a missing file is -ENOENT");
	CHECK(vmstat_read(VMSTAT_GLOBAL, &s, buf, 64, why, sizeof(why)) == -EFBIG,
	      "a file larger than the buffer is -EFBIG");
	CHECK_STR(why, "file too large", "said in words");
	free(buf);
}

int main(void)
{
	test_good();
	test_ledger();
	test_bad();
	test_read();
	return tap_done();
}
