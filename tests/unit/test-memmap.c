// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory map's parsers and readers: /proc/zoneinfo per node,
 * valid_zones, the hexadecimal sizes of sysfs, the CXL chain's names, the
 * kernel command line, the demotion targets, and a block's source by its
 * address on a scratch sysroot (a CXL region with two memdevs, a dax
 * device, an ACPI memory device, boot memory).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memmap.h"
#include "sysfs.h"
#include "tap.h"
#include "value.h"

static char root[] = "/tmp/numastatctl-memmap.XXXXXX";
static char why[WHY_MAX];

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

static void link_to(const char *target, const char *path)
{
	char full[512];

	put(path, "");
	snprintf(full, sizeof(full), "%s%s", root, path);
	unlink(full);
	if (symlink(target, full) != 0)
		perror(full);
}

/* Two nodes as 6.12 prints them: per-node stats, a pageset, an empty zone. */
static const char zoneinfo[] = "Node 0, zone      DMA\n"
			       "  per-node stats\n"
			       "      nr_inactive_anon 12\n"
			       "  pages free     3840\n"
			       "        boost    0\n"
			       "        spanned  4095\n"
			       "        present  3998\n"
			       "        managed  3840\n"
			       "        protection: (0, 1893, 1893, 1893, 1893)\n"
			       "  pagesets\n"
			       "    cpu: 0\n"
			       "              count: 0\n"
			       "  node_unreclaimable:  0\n"
			       "Node 0, zone   Normal\n"
			       "  pages free     1000\n"
			       "        present  262144\n"
			       "        managed  250000\n"
			       "Node 0, zone  Movable\n"
			       "  pages free     0\n"
			       "        present  0\n"
			       "        managed  0\n"
			       "Node 2, zone  Movable\n"
			       "  pages free     131072\n"
			       "        present  131072\n"
			       "        managed  131072\n"
			       "Node 2, zone   Future\n"
			       "        present  7\n"
			       "        managed  7\n";

static int parse(const char *text, struct memmap_zoneinfo *z)
{
	return memmap_zoneinfo_parse(text, strlen(text), z, why, sizeof(why));
}

static void test_zoneinfo(void)
{
	struct memmap_zoneinfo z;
	const struct memmap_node_zones *n;

	CHECK(parse(zoneinfo, &z) == 0, "zoneinfo of two nodes parses");
	CHECK(z.n == 2, "two nodes");
	n = memmap_zoneinfo_node(&z, 0);
	CHECK(n && n->present[MZ_DMA] == 3998 && n->managed[MZ_DMA] == 3840,
	      "node 0 DMA: present and managed, past per-node stats");
	CHECK(n && n->present[MZ_NORMAL] == 262144 && n->present[MZ_MOVABLE] == 0,
	      "node 0 Normal and its empty Movable");
	n = memmap_zoneinfo_node(&z, 2);
	CHECK(n && n->present[MZ_MOVABLE] == 131072 && n->present[MZ_NORMAL] == 0,
	      "node 2 all Movable; a zone a later kernel adds is passed over");
	CHECK(memmap_zoneinfo_node(&z, 1) == NULL, "node 1 has no zones here");
	memmap_zoneinfo_free(&z);

	CHECK(parse("Node 0, zone Normal\n        present  x\n", &z) == -EBADMSG &&
		      strstr(why, "line 2: expected a page count"),
	      "a count that is no number: line 2 named");
	memmap_zoneinfo_free(&z);
	CHECK(parse("Node 0, zone Normal\n present 1\n present 2\n", &z) == -EBADMSG &&
		      strstr(why, "present twice"),
	      "present twice in a zone");
	memmap_zoneinfo_free(&z);
	CHECK(parse("        present  1\n", &z) == -EBADMSG, "a count before any zone");
	memmap_zoneinfo_free(&z);
	CHECK(parse("Node 2, zone Normal\nNode 1, zone Normal\n", &z) == -EBADMSG &&
		      strstr(why, "out of order"),
	      "nodes out of order");
	memmap_zoneinfo_free(&z);
	CHECK(parse("Node x, zone Normal\n", &z) == -EBADMSG, "a header without a node id");
	memmap_zoneinfo_free(&z);
	CHECK(parse("Node 0, zone Normal\n present 1", &z) == -EBADMSG, "no last newline");
	memmap_zoneinfo_free(&z);
	CHECK(parse("", &z) == -EBADMSG && strstr(why, "no zone"), "empty: no zone");
	memmap_zoneinfo_free(&z);
}

static int vz(const char *s, unsigned *mask, int *first)
{
	return memmap_valid_zones_parse(s, strlen(s), mask, first);
}

static void test_valid_zones(void)
{
	unsigned mask;
	int first;

	CHECK(vz("Normal\n", &mask, &first) == 0 && mask == 1u << MZ_NORMAL && first == MZ_NORMAL,
	      "an online block in Normal");
	CHECK(vz("Movable Normal\n", &mask, &first) == 0 &&
		      mask == (1u << MZ_NORMAL | 1u << MZ_MOVABLE) && first == MZ_MOVABLE,
	      "an offline block: the default zone first");
	CHECK(vz("none\n", &mask, &first) == 0 && mask == 0 && first == -1,
	      "none: an online block across two zones");
	CHECK(vz("DMA32\n", &mask, &first) == 0 && first == MZ_DMA32, "DMA32");
	CHECK(vz("Normal", &mask, &first) == -EINVAL, "no newline");
	CHECK(vz("Normal Bogus\n", &mask, &first) == -EINVAL, "an unknown zone");
	CHECK(vz("Normal Normal\n", &mask, &first) == -EINVAL, "a zone twice");
	CHECK(vz("\n", &mask, &first) == -EINVAL, "empty");
}

static void test_hex(void)
{
	uint64_t v = 1;

	CHECK(parse_hex_u64_n("8000000", 7, false, &v) == 0 && v == 0x8000000,
	      "block_size_bytes: %%lx without 0x");
	CHECK(parse_hex_u64_n("0x240000000", 11, true, &v) == 0 && v == 0x240000000ull,
	      "a region's resource: %%#llx");
	CHECK(parse_hex_u64_n("0", 1, true, &v) == 0 && v == 0, "%%#llx of 0 is 0");
	CHECK(parse_hex_u64_n("240000000", 9, true, &v) == -EINVAL, "0x wanted");
	CHECK(parse_hex_u64_n("0x", 2, true, &v) == -EINVAL, "0x alone");
	CHECK(parse_hex_u64_n("0xABC", 5, true, &v) == -EINVAL, "upper case is not the kernel's");
	CHECK(parse_hex_u64_n("0x10000000000000000", 19, true, &v) == -ERANGE, "past 64 bits");
	CHECK(parse_hex_u64_n("ffffffffffffffff", 16, false, &v) == 0 && v == UINT64_MAX,
	      "all 64 bits");
}

static void test_names(void)
{
	char port[MEMMAP_NAME_MAX], out[24];
	unsigned p = 0;

	CHECK(memmap_cxl_decoder_port("decoder3.0", &p) == 0 && p == 3, "decoder3.0: endpoint3");
	CHECK(memmap_cxl_decoder_port("decoder12.4", &p) == 0 && p == 12, "decoder12.4");
	CHECK(memmap_cxl_decoder_port("decoder3", &p) == -EINVAL, "no instance");
	CHECK(memmap_cxl_decoder_port("region0", &p) == -EINVAL, "not a decoder");
	CHECK(memmap_cxl_host_port("../../../devices/platform/ACPI0017:00/root0/port1/endpoint3",
				   port, sizeof(port)) == 0 &&
		      !strcmp(port, "port1"),
	      "an endpoint below a host bridge: port1");
	CHECK(memmap_cxl_host_port("../../devices/platform/ACPI0017:00/root0/port1/port2/endpoint5",
				   port, sizeof(port)) == 0 &&
		      !strcmp(port, "port1"),
	      "behind a switch: still the port below the root");
	CHECK(memmap_cxl_host_port("../../devices/pci0000:00/mem0", port, sizeof(port)) == -EINVAL,
	      "no root in the path");
	memmap_cmdline_value("BOOT_IMAGE=/vmlinuz memhp_default_state=offline quiet "
			     "memhp_default_state=online_movable\n",
			     "memhp_default_state=", out, sizeof(out));
	CHECK_STR(out, "online_movable", "the last memhp_default_state= counts");
	memmap_cmdline_value("quiet\n", "memhp_default_state=", out, sizeof(out));
	CHECK_STR(out, "", "absent: empty");
}

static void test_demotion(void)
{
	unsigned n0[] = { 0, 1 }, n1[] = { 2, 3 };
	struct memtier tv[] = { { 4, n0, 2 }, { 22, n1, 2 } };
	struct memtiers t = { tv, 2, 2 };
	unsigned nodes[] = { 0, 1, 2, 3 };
	unsigned dist[] = { 10, 21, 14, 24, 21, 10, 24, 24, 14, 24, 10, 21, 24, 24, 21, 10 };
	unsigned *out = NULL;
	int n;

	n = memmap_demotion_targets(&t, dist, nodes, 4, 0, &out);
	CHECK(n == 1 && out[0] == 2, "node 0 demotes to the nearest node of the next tier");
	free(out);
	n = memmap_demotion_targets(&t, dist, nodes, 4, 1, &out);
	CHECK(n == 2 && out[0] == 2 && out[1] == 3, "a tie: both nodes");
	free(out);
	n = memmap_demotion_targets(&t, dist, nodes, 4, 2, &out);
	CHECK(n == 0 && out == NULL, "the slowest tier demotes nowhere");
	t.n = 1;
	n = memmap_demotion_targets(&t, dist, nodes, 4, 0, &out);
	CHECK(n == 0 && out == NULL, "one tier: nowhere");
}

#define GIB (1024ull * 1024 * 1024)

/*
 * Blocks of 1 GiB: 0-3 boot memory, 4 an ACPI DIMM, 8-9 a CXL region of
 * two memdevs (dax8.0 inside it), 16 a dax device of its own, 20 nothing.
 */
static void cxl_tree(void)
{
	put(CXL_DEVICES "/region0/resource", "0x200000000\n");
	put(CXL_DEVICES "/region0/size", "0x80000000\n");
	put(CXL_DEVICES "/region0/mode", "ram\n");
	put(CXL_DEVICES "/region0/target0", "decoder5.0\n");
	put(CXL_DEVICES "/region0/target1", "decoder6.0\n");
	put(CXL_DEVICES "/region0/access0/read_bandwidth", "17000\n");
	put(CXL_DEVICES "/region0/access0/write_bandwidth", "16000\n");
	put(CXL_DEVICES "/region0/access0/read_latency", "350\n");
	put(CXL_DEVICES "/region0/access0/write_latency", "400\n");
	/* The ports live under the platform device; /sys/bus/cxl/devices links to them. */
	link_to("../../../../../pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0",
		"/sys/devices/platform/ACPI0017:00/root0/port1/endpoint5/uport");
	link_to("../../../../../../pci0000:0c/0000:0c:01.0/0000:0e:00.0/mem1",
		"/sys/devices/platform/ACPI0017:00/root0/port1/port3/endpoint6/uport");
	link_to("../../../../pci0000:0c", "/sys/devices/platform/ACPI0017:00/root0/port1/uport");
	link_to("../../../devices/platform/ACPI0017:00/root0/port1/endpoint5",
		CXL_DEVICES "/endpoint5");
	link_to("../../../devices/platform/ACPI0017:00/root0/port1/port3/endpoint6",
		CXL_DEVICES "/endpoint6");
	link_to("../../../devices/platform/ACPI0017:00/root0/port1", CXL_DEVICES "/port1");
	put(CXL_DEVICES "/mem0/serial", "0xc0ffee01\n");
	put(CXL_DEVICES "/mem0/numa_node", "0\n");
	put(CXL_DEVICES "/mem1/serial", "0xc0ffee02\n");
	put(CXL_DEVICES "/mem1/numa_node", "-1\n");
	put(DAX_DEVICES "/dax0.0/resource", "0x200000000\n");
	put(DAX_DEVICES "/dax0.0/size", "2147483648\n");
	put(DAX_DEVICES "/dax0.0/target_node", "2\n");
	link_to("../../../../bus/dax/drivers/kmem", DAX_DEVICES "/dax0.0/driver");
	put(DAX_DEVICES "/dax1.0/resource", "0x400000000\n");
	put(DAX_DEVICES "/dax1.0/size", "1073741824\n");
	put(DAX_DEVICES "/dax1.0/target_node", "3\n");
	put(FIRMWARE_MEMMAP "/0/start", "0x0\n");
	put(FIRMWARE_MEMMAP "/0/end", "0xffffffff\n");
	put(FIRMWARE_MEMMAP "/0/type", "System RAM\n");
	put(FIRMWARE_MEMMAP "/1/start", "0x100000000\n");
	put(FIRMWARE_MEMMAP "/1/end", "0x13fffffff\n");
	put(FIRMWARE_MEMMAP "/1/type", "Reserved\n");
}

static void test_sources(void)
{
	struct memmap_devices d = { 0 };
	struct memmap_block b = { 0 };
	const struct memmap_region *r;
	int dev;

	cxl_tree();
	CHECK(memmap_cxl_read(&d, why, sizeof(why)) == 0 && d.cxl && d.n_regions == 1,
	      "one CXL region");
	r = &d.regions[0];
	CHECK(r->start == 0x200000000ull && r->size == 2 * GIB && !strcmp(r->mode, "ram"),
	      "its range and mode");
	CHECK(r->access[0].present && r->access[0].read_bw == 17000 &&
		      r->access[0].write_lat == 400 && !r->access[1].present,
	      "its access0 coordinates; no access1");
	CHECK(r->n_memdevs == 2, "two memdevs");
	CHECK_STR(r->memdevs[0].name, "mem0", "target0 -> decoder5.0 -> endpoint5 -> mem0");
	CHECK_STR(r->memdevs[0].serial, "0xc0ffee01", "mem0's serial");
	CHECK(r->memdevs[0].numa_node == 0 && r->memdevs[1].numa_node == -1,
	      "the memdevs' numa_node, -1 kept");
	CHECK_STR(r->memdevs[0].host_bridge, "port1 (pci0000:0c)", "the host bridge");
	CHECK_STR(r->memdevs[1].host_bridge, "port1 (pci0000:0c)", "behind a switch, the same");
	CHECK(memmap_ranges_dax_read(&d, why, sizeof(why)) == 0 && d.n_dax == 2, "two dax devices");
	CHECK(!strcmp(d.dax[0].driver, "kmem") && d.dax[0].target_node == 2 && !d.dax[1].driver[0],
	      "dax0.0 bound to kmem, dax1.0 to nothing");
	CHECK(memmap_ranges_firmware_read(&d, why, sizeof(why)) == 0 && d.n_ram == 1,
	      "one System RAM range; the reserved one left out");
	b.id = 2;
	CHECK(memmap_block_source(&d, GIB, &b, &dev) == MS_BOOT, "block 2: boot memory");
	b.id = 9;
	CHECK(memmap_block_source(&d, GIB, &b, &dev) == MS_CXL && dev == 0, "block 9: region0");
	b.id = 16;
	CHECK(memmap_block_source(&d, GIB, &b, &dev) == MS_DAX && dev == 1, "block 16: dax1.0");
	b.id = 4;
	str_copy(b.acpi, "PNP0C80:00", sizeof(b.acpi));
	CHECK(memmap_block_source(&d, GIB, &b, &dev) == MS_ACPI, "block 4: an ACPI memory device");
	b.id = 20;
	b.acpi[0] = '\0';
	CHECK(memmap_block_source(&d, GIB, &b, &dev) == MS_UNATTRIBUTED, "block 20: unattributed");
	memmap_devices_free(&d);

	put(CXL_DEVICES "/region1/resource", "0x300000000\n");
	put(CXL_DEVICES "/region1/size", "oops\n");
	CHECK(memmap_cxl_read(&d, why, sizeof(why)) == -EBADMSG && strstr(why, "region1/size"),
	      "a size that is no number: the file named");
	memmap_devices_free(&d);
}

static void test_blocks(void)
{
	struct memmap_blocks b;
	unsigned nodes[] = { 0, 2 };

	put(MEMORY_DIR "/block_size_bytes", "40000000\n");
	put(MEMORY_DIR "/memory2/state", "online\n");
	put(MEMORY_DIR "/memory2/valid_zones", "Normal\n");
	put(MEMORY_DIR "/memory9/state", "offline\n");
	put(MEMORY_DIR "/memory9/valid_zones", "Movable Normal\n");
	put(MEMORY_DIR "/memory8/state", "online\n");
	put(MEMORY_DIR "/memory8/valid_zones", "Movable\n");
	put(MEMORY_DIR "/memory4/state", "online\n");
	put(MEMORY_DIR "/memory4/valid_zones", "Normal\n");
	link_to("../../../LNXSYSTM:00/LNXSYBUS:00/PNP0C80:00", MEMORY_DIR "/memory4/firmware_node");
	link_to("../../memory/memory2", NODE_DIR "/node0/memory2");
	link_to("../../memory/memory4", NODE_DIR "/node0/memory4");
	link_to("../../memory/memory9", NODE_DIR "/node2/memory9");
	link_to("../../memory/memory8", NODE_DIR "/node2/memory8");
	CHECK(memmap_blocks_read(nodes, 2, &b, why, sizeof(why)) == 0, "blocks of nodes 0 and 2");
	CHECK(b.block_size == GIB && b.n == 4, "1 GiB blocks, four");
	CHECK(b.v[0].id == 2 && b.v[1].id == 4 && !strcmp(b.v[1].acpi, "PNP0C80:00"),
	      "node 0: block 2, and block 4 of an ACPI memory device");
	CHECK(b.v[2].id == 8 && b.v[2].zone == MZ_MOVABLE && b.v[3].id == 9 &&
		      b.v[3].state == MB_OFFLINE && b.v[3].zone == MZ_MOVABLE,
	      "node 2 in id order: 8 online Movable, 9 offline, Movable by default");
	memmap_blocks_free(&b);
	put(MEMORY_DIR "/memory9/state", "sleeping\n");
	CHECK(memmap_blocks_read(nodes, 2, &b, why, sizeof(why)) == -EBADMSG &&
		      strstr(why, "memory9/state: expected online, offline or going-offline"),
	      "an unknown state: the file and what it may hold");
	put(MEMORY_DIR "/memory9/state", "offline\n");
	put(MEMORY_DIR "/block_size_bytes", "0x40000000\n");
	CHECK(memmap_blocks_read(nodes, 2, &b, why, sizeof(why)) == -EBADMSG &&
		      strstr(why, "block_size_bytes"),
	      "block_size_bytes is %%lx, no 0x");
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	CHECK(sysfs_init(root) == 0, "a scratch sysroot");
	test_zoneinfo();
	test_valid_zones();
	test_hex();
	test_names();
	test_demotion();
	test_sources();
	test_blocks();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return tap_done();
}
