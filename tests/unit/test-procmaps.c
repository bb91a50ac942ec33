// SPDX-License-Identifier: GPL-2.0-or-later
/* The numa_maps parser: numastat's categories, page sizes, junk, overflow. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "procmaps.h"
#include "tap.h"

#define TXT(s) s, sizeof(s) - 1

static int parse(struct procmaps *pm, const char *buf, size_t len, char *why)
{
	char *copy = malloc(len ? len : 1); /* exactly len bytes, for ASan */
	int r;

	memcpy(copy, buf, len);
	*pm = (struct procmaps){ 0 };
	r = procmaps_parse(pm, copy, len, why, 128);
	free(copy);
	return r;
}

static const struct pm_node *node(const struct procmaps *pm, unsigned id)
{
	for (size_t i = 0; i < pm->n; i++)
		if (pm->v[i].node == id)
			return &pm->v[i];
	return NULL;
}

static void categories(void)
{
	static const char maps[] =
		"55d0c0a00000 default file=/usr/bin/bash mapped=48 mapmax=3 N0=40 N2=8 kernelpagesize_kB=4\n"
		"55d0c1b00000 default heap anon=50 dirty=50 N0=50 kernelpagesize_kB=4\n"
		"7ffd5a000000 default stack anon=9 dirty=9 N2=9 kernelpagesize_kB=4\n"
		"7f0000000000 default file=/dev/hugepages/x huge dirty=3 N0=1 N5=2 kernelpagesize_kB=2048\n"
		"7f1000000000 bind:0 anon=512 dirty=512 N5=512 kernelpagesize_kB=4\n"
		"7f2000000000 weighted interleave:0,2 anon=4 N0=2 N2=2 kernelpagesize_kB=4\n"
		"7f3000000000 prefer (many)=static:0 file=/lib/a\\040b.so\n"
		"7f4000000000 default stack:4242 anon=1 N0=1 kernelpagesize_kB=4\n";
	struct procmaps pm;
	const struct pm_node *n0, *n2, *n5;
	char why[128];

	CHECK(parse(&pm, TXT(maps), why) == 0, "a realistic numa_maps parses");
	n0 = node(&pm, 0);
	n2 = node(&pm, 2);
	n5 = node(&pm, 5);
	CHECK(pm.n == 3 && n0 && n2 && n5, "three nodes, sparse ids");
	CHECK(pm.v[0].node == 0 && pm.v[1].node == 2 && pm.v[2].node == 5, "sorted by node id");
	CHECK(n0 && n0->bytes[PM_PRIVATE] == (40 + 2) * 4096ULL,
	      "file and anon mappings are Private");
	CHECK(n0 && n0->bytes[PM_HEAP] == 50 * 4096ULL, "heap");
	CHECK(n2 && n2->bytes[PM_STACK] == 9 * 4096ULL, "stack");
	CHECK(n0 && n0->bytes[PM_STACK] == 4096, "old-style thread stack 'stack:TID' is Stack");
	CHECK(n0 && n0->bytes[PM_HUGE] == 2048 * 1024ULL,
	      "huge pages counted with kernelpagesize_kB");
	CHECK(n5 && n5->bytes[PM_HUGE] == 2 * 2048 * 1024ULL, "huge pages on another node");
	CHECK(n5 && n5->bytes[PM_PRIVATE] == 512 * 4096ULL, "a bind policy line");
	CHECK(n2 && n2->bytes[PM_PRIVATE] == (8 + 2) * 4096ULL,
	      "a policy with a space ('weighted interleave') does not confuse the parser");
	CHECK(procmaps_cat_total(&pm, PM_HUGE) == 3 * 2048 * 1024ULL, "category total");
	CHECK(n0 && procmaps_node_total(n0) == (42 + 50 + 1) * 4096ULL + 2048 * 1024ULL,
	      "node total");
	procmaps_free(&pm);
}

static void edge_cases(void)
{
	struct procmaps pm;
	char why[128];

	CHECK(parse(&pm, "", 0, why) == 0 && pm.n == 0, "empty file (kernel thread): nothing");
	procmaps_free(&pm);
	CHECK(parse(&pm, TXT("7f0000000000 default\n"), why) == 0 && pm.n == 0,
	      "a mapping with no pages present");
	procmaps_free(&pm);
	CHECK(parse(&pm, TXT("7f0000000000 default N1023=1 kernelpagesize_kB=64\n"), why) == 0 &&
		      pm.n == 1 && pm.v[0].node == 1023 && pm.v[0].bytes[PM_PRIVATE] == 65536,
	      "64k pages, node 1023");
	procmaps_free(&pm);
	CHECK(parse(&pm, TXT("7f0000000000 default N0=18446744073709551615 kernelpagesize_kB=1\n"),
		    why) == -EBADMSG &&
		      strstr(why, "64 bits"),
	      "pages x page size overflow: %s", why);
	procmaps_free(&pm);
	CHECK(parse(&pm,
		    TXT("7f0000000000 default N0=9007199254740992 kernelpagesize_kB=1\n"
			"7f1000000000 default N0=9007199254740992 kernelpagesize_kB=1\n"),
		    why) == -EBADMSG &&
		      strncmp(why, "line 2:", 7) == 0,
	      "sum overflow on line 2: %s", why);
	procmaps_free(&pm);
	CHECK(parse(&pm, TXT("7f0000000000 default N0=18446744073709551616 kernelpagesize_kB=4\n"),
		    why) == -EBADMSG,
	      "page count above 64 bits");
	procmaps_free(&pm);
}

static void junk(void)
{
	static const struct {
		const char *text;
		size_t len;
		const char *what;
	} cases[] = {
		{ TXT("7f0000000000 default N0=1"), "no newline at the end" },
		{ TXT("hello world N0=1\n"), "no hex address" },
		{ TXT("0x7f00 default N0=1\n"), "0x prefix" },
		{ TXT("7f000000000000000 default\n"), "address with 17 digits" },
		{ TXT("\n"), "empty line" },
		{ TXT("7f00 default N0=x kernelpagesize_kB=4\n"), "page count not a number" },
		{ TXT("7f00 default N0=-1 kernelpagesize_kB=4\n"), "negative page count" },
		{ TXT("7f00 default N0 kernelpagesize_kB=4\n"), "N0 without a value" },
		{ TXT("7f00 default N99999=1 kernelpagesize_kB=4\n"), "node id above the limit" },
		{ TXT("7f00 default N01=1 kernelpagesize_kB=4\n"), "node id with a leading zero" },
		{ TXT("7f00 default N0=1 kernelpagesize_kB=0\n"), "page size 0" },
		{ TXT("7f00 default N0=1 kernelpagesize_kB=\n"), "empty page size" },
		{ TXT("7f00 default N0=1\0 kernelpagesize_kB=4\n"), "a NUL byte" },
	};
	struct procmaps pm;
	char why[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		CHECK(parse(&pm, cases[i].text, cases[i].len, why) == -EBADMSG && why[0],
		      "rejected: %s (%s)", cases[i].what, why);
		procmaps_free(&pm);
	}
	{
		size_t len = PROCMAPS_LINE_MAX + 10;
		char *big = malloc(len);

		memset(big, 'a', len);
		big[len - 1] = '\n';
		CHECK(parse(&pm, big, len, why) == -EBADMSG && strstr(why, "too long"),
		      "a line over the limit: %s", why);
		procmaps_free(&pm);
		free(big);
	}
}

/* Weighted interleave mappings against the weights 0:8 1:2 (node 5: none, counts 1). */
static void weighted(void)
{
	static const unsigned wnodes[] = { 0, 1 }, weights[] = { 8, 2 };
	static const char text[] =
		"00400000 default file=/bin/x N0=10 kernelpagesize_kB=4\n"
		"7f0000000000 weighted interleave:0-1 anon=10000 dirty=10000 N0=8000 N1=2000 "
		"kernelpagesize_kB=4\n"
		"7f1000000000 weighted interleave=static|relative:0,5 anon=900 N0=800 N5=100 "
		"kernelpagesize_kB=4\n"
		"7f2000000000 interleave:0-1 N0=5 N1=5 kernelpagesize_kB=4\n"
		"7f3000000000 weighted interleave:1 N0=3 kernelpagesize_kB=4\n";
	struct pm_wi wi = { .wnodes = wnodes, .weights = weights, .nw = 2 };
	struct procmaps pm = { .wi = &wi };
	char why[128] = "";

	CHECK(procmaps_parse(&pm, text, sizeof(text) - 1, why, sizeof(why)) == 0, "parsed: %s",
	      why);
	CHECK(wi.mappings == 3 && wi.pages == 10903,
	      "three weighted interleave mappings, 10903 pages");
	CHECK(wi.n == 3 && wi.v[0].node == 0 && wi.v[1].node == 1 && wi.v[2].node == 5,
	      "nodes 0, 1 and 5, sorted");
	CHECK(wi.v[0].pages == 8803 && wi.v[1].pages == 2000 && wi.v[2].pages == 100,
	      "pages per node, whatever the policy's nodes (3 fell back to node 0)");
	/* 10000 * 8/10 + 900 * 8/9 = 8800; 10000 * 2/10 + 3 * 2/2 = 2003; 900 * 1/9 = 100. */
	CHECK(wi.v[0].wants > 8799.9 && wi.v[0].wants < 8800.1, "node 0 wants 8800 (%.1f)",
	      wi.v[0].wants);
	CHECK(wi.v[1].wants > 2002.9 && wi.v[1].wants < 2003.1, "node 1 wants 2003 (%.1f)",
	      wi.v[1].wants);
	CHECK(wi.v[2].wants > 99.9 && wi.v[2].wants < 100.1,
	      "node 5, without a weight file, counts 1 as the kernel does (%.1f)", wi.v[2].wants);
	procmaps_free(&pm);
	procmaps_wi_free(&wi);
	CHECK(procmaps_parse(&pm, TXT("7f00 weighted interleave N0=1 kernelpagesize_kB=4\n"), why,
			     sizeof(why)) == -EBADMSG,
	      "weighted interleave without its node list: %s", why);
	procmaps_free(&pm);
	procmaps_wi_free(&wi);
}

int main(void)
{
	weighted();
	categories();
	edge_cases();
	junk();
	CHECK(strcmp(procmaps_cat_names[PM_PRIVATE], "Private") == 0, "numastat's row names");
	return tap_done();
}
