// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers advise needs, on a scratch sysroot: node masks, memory tiers,
 * per-size huge page pools, and the CPU a process last ran on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nodes.h"
#include "procmaps.h"
#include "sysfs.h"
#include "tap.h"

static char root[] = "/tmp/numastatctl-topo.XXXXXX";
static char why[256];

/* put PATH TEXT: the file under root, directories made on the way. */
static void put(const char *path, const char *text)
{
	char full[512], *p;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (p = strchr(full + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_masks(void)
{
	unsigned *ids = NULL;

	put(NODE_DIR "/has_cpu", "0-2\n");
	CHECK(node_mask_read("has_cpu", &ids) == 3 && ids[2] == 2, "has_cpu 0-2: three nodes");
	free(ids);
	put(NODE_DIR "/has_generic_initiator", "\n");
	CHECK(node_mask_read("has_generic_initiator", &ids) == 0,
	      "an empty mask is a bare newline");
	free(ids);
	put(NODE_DIR "/has_memory", "0-3");
	CHECK(node_mask_read("has_memory", &ids) == -EBADMSG, "no final newline: refused");
	put(NODE_DIR "/has_memory", "0-x\n");
	CHECK(node_mask_read("has_memory", &ids) == -EBADMSG, "junk: refused");
	put(NODE_DIR "/has_memory", "70000\n");
	CHECK(node_mask_read("has_memory", &ids) == -EBADMSG, "an id above NODE_ID_MAX: refused");
	CHECK(node_mask_read("has_high_memory", &ids) == -ENOENT,
	      "absent (no CONFIG_HIGHMEM): -ENOENT");
}

static void test_tiers(void)
{
	struct memtiers t;

	CHECK(node_memtiers_read(&t, why, sizeof(why)) == -ENOENT,
	      "no memory_tiering (before 6.1): -ENOENT");
	CHECK(strstr(why, "memory tiers came with Linux 6.1") != NULL, "saying why");
	put(MEMTIER_DIR "/memory_tier22/nodelist", "3\n");
	put(MEMTIER_DIR "/memory_tier4/nodelist", "0-2\n");
	put(MEMTIER_DIR "/memory_tier9/nodelist", "\n");
	put(MEMTIER_DIR "/memory_tierX/nodelist", "7\n");
	put(MEMTIER_DIR "/power/x", "");
	CHECK(node_memtiers_read(&t, why, sizeof(why)) == 0 && t.n == 3,
	      "three tiers; other names are not tiers");
	CHECK(t.v[0].id == 4 && t.v[1].id == 9 && t.v[2].id == 22, "sorted by id, faster first");
	CHECK(t.v[0].n == 3 && t.v[1].n == 0 && t.v[2].n == 1 && t.v[2].nodes[0] == 3,
	      "with their nodes (a tier may hold none)");
	CHECK(node_memtiers_of(&t, 3) == 2 && node_memtiers_of(&t, 1) == 0 &&
		      node_memtiers_of(&t, 8) == -1,
	      "the tier of a node");
	node_memtiers_free(&t);
	put(MEMTIER_DIR "/memory_tier9/nodelist", "1-0\n");
	CHECK(node_memtiers_read(&t, why, sizeof(why)) == -EBADMSG && t.n == 0,
	      "a bad node list: -EBADMSG");
	CHECK_STR(why, MEMTIER_DIR "/memory_tier9/nodelist: not a node list", "naming the file");
}

static void test_pools(void)
{
	struct hugepage_pool p[HUGEPAGE_SIZES_MAX];
	struct hugepages h;
	const char *base = NODE_DIR "/node1/hugepages/hugepages-";
	char path[256];

	CHECK(hugepages_pools_read(1, p, HUGEPAGE_SIZES_MAX, why, sizeof(why)) == 0,
	      "no hugepages directory: no pools");
	for (int i = 0; i < 2; i++) {
		const char *kb = i ? "1048576kB" : "2048kB";
		static const char *const files[] = { "nr_hugepages", "free_hugepages",
						     "surplus_hugepages" };

		for (int f = 0; f < 3; f++) {
			snprintf(path, sizeof(path), "%s%s/%s", base, kb, files[f]);
			put(path, i ? "2\n" : "512\n");
		}
	}
	CHECK(hugepages_pools_read(1, p, HUGEPAGE_SIZES_MAX, why, sizeof(why)) == 2,
	      "two page sizes");
	CHECK(p[0].kb == 2048 && p[0].nr == 512 && p[1].kb == 1048576 && p[1].nr == 2,
	      "sorted by size, with their counts");
	CHECK(hugepages_read(1, &h, why, sizeof(why)) == 0 && h.present &&
		      h.total_bytes == 512ULL * 2048 * 1024 + (2ULL << 30),
	      "hugepages_read sums them in bytes");
	CHECK(hugepages_pools_read(1, p, 1, why, sizeof(why)) == -E2BIG,
	      "more sizes than room: -E2BIG");
	snprintf(path, sizeof(path), "%s2048kB/free_hugepages", base);
	put(path, "lots\n");
	CHECK(hugepages_pools_read(1, p, HUGEPAGE_SIZES_MAX, why, sizeof(why)) == -EBADMSG,
	      "a count that is no number: -EBADMSG");
	CHECK(strstr(why, "free_hugepages: not a decimal number") != NULL, "naming the file");
}

static void test_last_cpu(void)
{
	char stat[512] = "4242 (a) b) c) S";
	unsigned cpu = 0;

	/* Fields 4 to 38, then processor (39) = 7, then two more. */
	for (int i = 4; i <= 38; i++)
		strcat(stat, " 0");
	strcat(stat, " 7 0 0\n");
	put("/proc/4242/stat", stat);
	CHECK(proc_last_cpu(4242, &cpu) == 0 && cpu == 7, "field 39, even after a name with ') '");
	put("/proc/4243/stat", "4243 (short) S 1 2 3\n");
	CHECK(proc_last_cpu(4243, &cpu) == -EBADMSG, "too few fields: -EBADMSG");
	put("/proc/4244/stat", "4244 no name\n");
	CHECK(proc_last_cpu(4244, &cpu) == -EBADMSG, "no name: -EBADMSG");
	CHECK(proc_last_cpu(4245, &cpu) == -ENOENT, "gone: -ENOENT");
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	CHECK(sysfs_init(root) == 0, "a scratch sysroot");
	test_masks();
	test_tiers();
	test_pools();
	test_last_cpu();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return tap_done();
}
