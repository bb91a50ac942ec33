// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packages, L3 domains, the sub-NUMA mode and the distance classes: read
 * from gen-packages.sh's trees (SNC1-3, NPS4, a guest, a machine that says
 * nothing of packages), and settled by hand for the cases between.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node-class.h"
#include "sysfs.h"
#include "tap.h"

static char root[512];

/* The case's tree read into c; false (and a SKIP) without the generator. */
static bool read_case(const char *name, struct node_classes *c)
{
	const char *fx = getenv("FIXTURES");
	char cmd[1200], why[256] = "";

	snprintf(root, sizeof(root), "%s/numastatctl-class.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!fx || !mkdtemp(root)) {
		tap_result(1, "%s # SKIP needs FIXTURES and a temporary directory", name);
		return false;
	}
	snprintf(cmd, sizeof(cmd), "'%s/gen-packages.sh' '%s' %s", fx, root, name);
	CHECK(system(cmd) == 0 && sysfs_init(root) == 0, "the %s tree", name);
	CHECK(node_class_read(c, why, sizeof(why)) == 0, "%s read (%s)", name, why);
	return true;
}

static void done_case(struct node_classes *c)
{
	char cmd[600];

	node_class_free(c);
	sysfs_init(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}

static void snc(unsigned per)
{
	struct node_classes c;
	char name[8], want[48];
	unsigned cxl = 2 * per;

	snprintf(name, sizeof(name), "snc%u", per);
	if (!read_case(name, &c))
		return;
	if (per == 1)
		snprintf(want, sizeof(want), "1 node per package");
	else
		snprintf(want, sizeof(want), "SNC%u: %u nodes per package", per, per);
	CHECK(c.n == 2 * per + 1 && c.n_packages == 2 && c.per_package == per, "%s: 2 packages",
	      name);
	CHECK_STR(c.mode_text, want, "%s: the mode said", name);
	CHECK(c.mode == (per == 1 ? NODE_MODE_PLAIN : NODE_MODE_SNC), "%s: the mode's kind", name);
	CHECK(c.v[0].package == 0 && c.v[per].package == 1 && c.v[0].from == NODE_PACKAGE_CPUS,
	      "%s: node 0 on package 0, node %u on package 1, by their CPUs", name, per);
	CHECK(c.v[0].l3 == 0 && c.v[0].l3_nodes == per && c.v[per].l3 == 2 * per,
	      "%s: each package's L3 over its %u nodes", name, per);
	CHECK(c.v[cxl].package == 0 && c.v[cxl].from == NODE_PACKAGE_NEAREST && !c.v[cxl].cpus,
	      "%s: the memory-only node on package 0, its nearest", name);
	CHECK(node_class_of(&c, 0, 0) == NODE_CLASS_LOCAL, "%s: 0 to 0 local", name);
	CHECK(per == 1 || node_class_of(&c, 0, 1) == NODE_CLASS_NEAR, "%s: 0 to 1 near", name);
	CHECK(node_class_of(&c, 0, per) == NODE_CLASS_FAR, "%s: 0 to %u far", name, per);
	CHECK(node_class_of(&c, 0, cxl) == NODE_CLASS_NEAR &&
		      node_class_of(&c, per, cxl) == NODE_CLASS_FAR,
	      "%s: the memory-only node near to package 0, far to package 1", name);
	done_case(&c);
}

static void nps4(void)
{
	struct node_classes c;

	if (!read_case("nps4", &c))
		return;
	CHECK_STR(c.mode_text, "NPS4: 4 nodes per package", "nps4: named by AMD's word");
	CHECK_STR(c.vendor, "AuthenticAMD", "nps4: the vendor from /proc/cpuinfo");
	CHECK(c.v[1].l3 == 2 && c.v[1].l3_nodes == 1 && strcmp(c.v[1].l3_cpus, "2-3") == 0,
	      "nps4: node 1's L3 its own CPUs 2-3");
	CHECK(node_class_of(&c, 0, 3) == NODE_CLASS_NEAR &&
		      node_class_of(&c, 3, 4) == NODE_CLASS_FAR,
	      "nps4: 0 to 3 near, 3 to 4 far");
	done_case(&c);
}

static void guest(void)
{
	struct node_classes c;

	if (!read_case("guest", &c))
		return;
	CHECK(c.hypervisor, "guest: the hypervisor flag seen");
	CHECK_STR(c.mode_text, "2 nodes per package", "guest: no vendor's name for its mode");
	CHECK(node_class_of(&c, 0, 1) == NODE_CLASS_NEAR &&
		      node_class_of(&c, 1, 2) == NODE_CLASS_FAR,
	      "guest: the classes all the same");
	done_case(&c);
}

static void noinfo(void)
{
	struct node_classes c;

	if (!read_case("noinfo", &c))
		return;
	CHECK(c.mode == NODE_MODE_UNKNOWN && c.mode_text[0] == '\0' && c.n_packages == 0,
	      "noinfo: no mode without packages");
	CHECK(c.v[0].package == NODE_CLASS_NONE && c.v[0].l3 == NODE_CLASS_NONE &&
		      c.v[4].package == NODE_CLASS_NONE,
	      "noinfo: every package unknown, the memory-only node's too");
	CHECK(node_class_of(&c, 0, 1) == NODE_CLASS_UNKNOWN &&
		      node_class_of(&c, 0, 0) == NODE_CLASS_LOCAL,
	      "noinfo: another node unknown, the same node local");
	done_case(&c);
}

/* Four nodes by hand: 0 and 1 on package 0, 2 on package 1, 3 without CPUs. */
static void by_hand(void)
{
	struct node_class_node v[4] = {
		{ .node = 0, .cpus = true, .package = 0, .from = NODE_PACKAGE_CPUS, .l3_nodes = 2 },
		{ .node = 1, .cpus = true, .package = 0, .from = NODE_PACKAGE_CPUS, .l3_nodes = 2 },
		{ .node = 2, .cpus = true, .package = 1, .from = NODE_PACKAGE_CPUS, .l3_nodes = 1 },
		{ .node = 3, .package = NODE_CLASS_NONE },
	};
	/* Node 3 as far from 1 as from 2: its nearest nodes on two packages. */
	unsigned dist[16] = { 10, 12, 21, 20, 12, 10, 21, 17, 21, 21, 10, 17, 20, 17, 17, 10 };
	struct node_classes c = { .v = v, .n = 4, .dist = dist };

	snprintf(c.vendor, sizeof(c.vendor), "GenuineIntel");
	CHECK(node_class_settle(&c) == 0, "settled");
	CHECK(v[3].package == NODE_CLASS_NONE && v[3].from == NODE_PACKAGE_UNKNOWN,
	      "a memory-only node nearest to two packages: its package unknown");
	CHECK(node_class_of(&c, 0, 3) == NODE_CLASS_UNKNOWN, "and memory there unknown");
	CHECK(c.mode == NODE_MODE_UNEVEN && strcmp(c.mode_text, "1 to 2 nodes per package") == 0,
	      "two nodes on one package, one on the other: uneven");
	dist[13] = 16;
	CHECK(node_class_settle(&c) == 0 && v[3].package == 0 && v[3].from == NODE_PACKAGE_NEAREST,
	      "nearer to node 1: package 0");
	v[2].package = 0;
	CHECK(node_class_settle(&c) == 0 && c.mode == NODE_MODE_PLAIN &&
		      strcmp(c.mode_text, "3 nodes per package") == 0,
	      "an L3 over 2 of 3 nodes: no SNC said");
	v[2].package = NODE_CLASS_NONE;
	CHECK(node_class_settle(&c) == 0 && c.mode == NODE_MODE_UNKNOWN && c.mode_text[0] == '\0',
	      "a node with CPUs of no known package: no mode");
	CHECK(strcmp(node_class_name(NODE_CLASS_NEAR), "near") == 0 &&
		      strcmp(node_class_name(NODE_CLASS_FAR), "far") == 0,
	      "the classes' names");
}

int main(void)
{
	snc(1);
	snc(2);
	snc(3);
	nps4();
	guest();
	noinfo();
	by_hand();
	return tap_done();
}
