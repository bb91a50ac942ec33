// SPDX-License-Identifier: GPL-2.0-or-later
/* meminfo, distance, cpulist and hugepages-name parsers against hostile input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"
#include "tap.h"

static char why[256];

static int mi(const char *text, unsigned node, struct meminfo *out)
{
	return meminfo_parse(text, strlen(text), node, out, why, sizeof(why));
}

static void test_meminfo_good(void)
{
	struct meminfo m;
	const struct meminfo_field *f;

	CHECK(mi("Node 2 MemTotal:       16384000 kB\nNode 2 Active(anon):   1500 kB\n"
		 "Node 2 HugePages_Total:     3\n",
		 2, &m) == 0 &&
		      m.n == 3,
	      "kernel lines parse");
	f = meminfo_find(&m, "MemTotal");
	CHECK(f && f->kb && f->value == 16384000, "kB values are kept in kB");
	CHECK(f && meminfo_bytes(f) == 16384000ULL * 1024, "and converted to bytes");
	f = meminfo_find(&m, "Active(anon)");
	CHECK(f && f->value == 1500, "keys with parentheses are found");
	f = meminfo_find(&m, "HugePages_Total");
	CHECK(f && !f->kb && meminfo_bytes(f) == 3, "counts without kB stay counts");
	CHECK(meminfo_find(&m, "memtotal") == NULL, "lookup is exact");
	CHECK(mi("Node 7 FutureField:  42 kB\n", 7, &m) == 0 && m.n == 1, "unknown keys are kept");
	CHECK(mi("Node 0 MemTotal: 18014398509481983 kB\n", 0, &m) == 0,
	      "the largest kB value that fits in bytes parses");
}

static void test_meminfo_bad(void)
{
	struct meminfo m;

	CHECK(mi("", 0, &m) == -EBADMSG, "empty file is refused");
	CHECK(mi("Node 0 MemTotal: 18014398509481984 kB\n", 0, &m) == -EBADMSG,
	      "kB that overflow 64 bits as bytes are refused");
	CHECK_STR(why, "line 1: value does not fit in 64 bits", "naming the line");
	CHECK(mi("Node 0 MemTotal: 18446744073709551616\n", 0, &m) == -EBADMSG, "u64 overflow");
	CHECK(mi("Node 1 MemTotal: 5 kB\n", 0, &m) == -EBADMSG, "another node's line is refused");
	CHECK(mi("Node 0 MemTotal: 5 kB\r\n", 0, &m) == -EBADMSG, "CRLF is refused");
	CHECK(mi("Node 0 MemTotal: 5 kB", 0, &m) == -EBADMSG, "a missing final newline is refused");
	CHECK(meminfo_parse("Node 0 A: 1\n\0", 13, 0, &m, why, sizeof(why)) == -EBADMSG,
	      "NUL is refused");
	CHECK(mi("Node 0 MemTotal: x kB\n", 0, &m) == -EBADMSG, "junk value is refused");
	CHECK(mi("Node 0 MemTotal:5 kB\n", 0, &m) == -EBADMSG, "no space after the colon");
	CHECK(mi("Node 0 MemTotal 5 kB\n", 0, &m) == -EBADMSG, "no colon");
	CHECK(mi("Node 0 Mem Total: 5 kB\n", 0, &m) == -EBADMSG, "a space in the key");
	CHECK(mi("Node 0 A: 1\nNode 0 A: 2\n", 0, &m) == -EBADMSG, "duplicate keys are refused");
	CHECK(mi("Node 0 : 1\n", 0, &m) == -EBADMSG, "empty key is refused");
	CHECK(mi("\n", 0, &m) == -EBADMSG, "a blank line is refused");
	CHECK(mi("Node 0 A: -1\n", 0, &m) == -EBADMSG, "negative values are refused");
}

static void test_meminfo_huge(void)
{
	size_t line = 24, n = MEMINFO_MAX_FIELDS + 1;
	char *buf = malloc(n * line + 1), *p = buf;
	struct meminfo m;

	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "Node 0 Key%zu: %zu kB\n", i, i);
	CHECK(meminfo_parse(buf, (size_t)(p - buf), 0, &m, why, sizeof(why)) == -EBADMSG,
	      "more fields than the table holds are refused, not overrun");
	CHECK(strstr(why, "too many fields") != NULL, "saying so");
	free(buf);
}

static void test_distance(void)
{
	unsigned *d = NULL;
	int n;

	n = node_distance_parse("10 21 32\n", &d);
	CHECK(n == 3 && d[0] == 10 && d[1] == 21 && d[2] == 32, "kernel distance row");
	free(d);
	n = node_distance_parse("10\n", &d);
	CHECK(n == 1 && d[0] == 10, "one node");
	free(d);
	CHECK(node_distance_parse("\n", &d) == -EINVAL && !d, "empty row is refused");
	CHECK(node_distance_parse("", &d) == -EINVAL, "empty file is refused");
	CHECK(node_distance_parse("10 21", &d) == -EINVAL, "missing newline is refused");
	CHECK(node_distance_parse("10  21\n", &d) == -EINVAL, "double space is refused");
	CHECK(node_distance_parse("10 21 \n", &d) == -EINVAL, "trailing space is refused");
	CHECK(node_distance_parse(" 10\n", &d) == -EINVAL, "leading space is refused");
	CHECK(node_distance_parse("10 256\n", &d) == -ERANGE, "above the kernel's u8 is refused");
	CHECK(node_distance_parse("10 x\n", &d) == -EINVAL, "junk is refused");
	CHECK(node_distance_parse("10 21\r\n", &d) == -EINVAL, "CRLF is refused");
	CHECK(node_distance_parse("10 0\n", &d) == 2 && d[1] == 0, "0 is a number");
	free(d);
	CHECK(node_distance_parse("10 021\n", &d) == -EINVAL, "a leading zero is refused");
	CHECK(node_distance_parse("10 99999999999999999999\n", &d) == -ERANGE,
	      "far above 255 is out of range, not junk");
	CHECK(node_distance_parse("10 256 \n", &d) == -ERANGE,
	      "out of range before a trailing space");
	CHECK(node_distance_parse("10 2560x\n", &d) == -EINVAL, "junk after many digits is junk");
}

static void test_distance_farthest(void)
{
	size_t at = 99;
	int far = 0;

	CHECK(node_distance_farthest("10 21 32 21\n", 0, &far, &at) == 4 && far == 32 && at == 2,
	      "the farthest other node of a row");
	CHECK(node_distance_farthest("40 10 40\n", 1, &far, &at) == 3 && far == 40 && at == 0,
	      "a tie: the first one");
	CHECK(node_distance_farthest("10 99 20\n", 1, &far, &at) == 3 && far == 20 && at == 2,
	      "the node's own entry is not another node");
	CHECK(node_distance_farthest("10\n", 0, &far, &at) == 1 && far == -1, "one node: no other");
	CHECK(node_distance_farthest("10 21 \n", 0, &far, &at) == -EINVAL &&
		      node_distance_farthest("10 256\n", 0, &far, &at) == -ERANGE &&
		      node_distance_farthest("10 x\n", 0, &far, &at) == -EINVAL &&
		      node_distance_farthest("10 21", 0, &far, &at) == -EINVAL,
	      "refused as node_distance_parse() refuses");
}

static void test_cpulist(void)
{
	unsigned *ids = NULL;
	int n;

	/* nodeN/cpulist is a kernel range list; a memory-only node has "\n". */
	n = rangelist_parse("0-3,64-67\n", &ids);
	CHECK(n == 8 && ids[4] == 64 && ids[7] == 67, "cpulist with a gap");
	free(ids);
	CHECK(rangelist_parse("\n", &ids) == 0 && !ids, "a CPU-less node's cpulist is empty");
	CHECK(rangelist_parse("0-3\r\n", &ids) == -EINVAL, "CRLF is refused");
	CHECK(rangelist_parse("0-3\n\n", &ids) == -EINVAL, "two newlines are refused");
}

static void test_hugepages_name(void)
{
	uint64_t kb = 0;

	CHECK(hugepages_dir_kb("hugepages-2048kB", &kb) == 0 && kb == 2048, "2 MiB pages");
	CHECK(hugepages_dir_kb("hugepages-1048576kB", &kb) == 0 && kb == 1048576, "1 GiB pages");
	CHECK(hugepages_dir_kb("hugepages-kB", &kb) == -EINVAL, "no size");
	CHECK(hugepages_dir_kb("hugepages-0kB", &kb) == -EINVAL, "zero size");
	CHECK(hugepages_dir_kb("hugepages-2048", &kb) == -EINVAL, "no unit");
	CHECK(hugepages_dir_kb("hugepages-99999999999999999999kB", &kb) == -EINVAL, "overflow");
	CHECK(hugepages_dir_kb(".", &kb) == -EINVAL, "dot entries are not sizes");
}

int main(void)
{
	test_meminfo_good();
	test_meminfo_bad();
	test_meminfo_huge();
	test_distance();
	test_distance_farthest();
	test_cpulist();
	test_hugepages_name();
	return tap_done();
}
