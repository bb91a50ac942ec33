// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packages, L3 domains and the sub-NUMA mode (node-class.h).  Per node two
 * CPUs are read, its first and its last, not all of them: the kernel keeps
 * a node inside a package except where the firmware makes one node of two
 * packages (AMD's NPS0), and the first and last CPU show that too.  So the
 * reads grow with the nodes, not with the CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuinfo.h"
#include "node-class.h"
#include "nodes.h"
#include "sysfs.h"
#include "value.h"

#define CPU_DIR "/sys/devices/system/cpu"
/* x86 lists L1d, L1i, L2, L3 as index0-3; other architectures fewer or more. */
#define CACHE_INDEX_MAX 16

/* A CPU's physical_package_id; NODE_CLASS_NONE when absent or -1 (unknown to the kernel). */
static unsigned cpu_package(unsigned cpu)
{
	char path[96], buf[32];
	uint64_t v;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/physical_package_id", cpu);
	if (sysfs_read_file(path, buf, sizeof(buf)) < 0 ||
	    parse_u64(str_strip(buf), INT32_MAX, &v) < 0)
		return NODE_CLASS_NONE;
	return (unsigned)v;
}

/* The shared_cpu_list of cpu's level 3 cache into buf; false when it has none. */
static bool cpu_l3(unsigned cpu, char *buf, size_t size)
{
	for (unsigned i = 0; i < CACHE_INDEX_MAX; i++) {
		char path[128], level[16];

		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cache/index%u/level", cpu, i);
		if (sysfs_read_file(path, level, sizeof(level)) < 0)
			return false;
		if (strcmp(str_strip(level), "3") != 0)
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cache/index%u/shared_cpu_list", cpu,
			 i);
		return sysfs_read_file(path, buf, size) > 0;
	}
	return false;
}

/* The L3 of the node's first CPU: its first CPU, its list, the nodes its CPUs are on. */
static int read_l3(struct node_class_node *nd, unsigned cpu, const struct node_cpumap *map)
{
	char buf[4096];
	unsigned *cpus = NULL, *seen;
	int n;

	if (!cpu_l3(cpu, buf, sizeof(buf)))
		return 0;
	n = rangelist_parse(buf, &cpus);
	if (n == -ENOMEM)
		return n;
	if (n <= 0)
		return 0;
	seen = calloc((size_t)n, sizeof(*seen));
	if (!seen) {
		free(cpus);
		return -ENOMEM;
	}
	nd->l3 = cpus[0];
	rangelist_format(cpus, (size_t)n, nd->l3_cpus, sizeof(nd->l3_cpus));
	for (int i = 0; i < n; i++) {
		unsigned node = cpus[i] < map->n ? map->node_of[cpus[i]] : UINT32_MAX;
		bool dup = node == UINT32_MAX;

		for (unsigned k = 0; k < nd->l3_nodes && !dup; k++)
			dup = seen[k] == node;
		if (!dup)
			seen[nd->l3_nodes++] = node;
	}
	free(seen);
	free(cpus);
	return 0;
}

/* Each node's first and last CPU, by one pass over the CPU map. */
static void node_cpu_bounds(const struct node_classes *c, const struct node_cpumap *map,
			    unsigned *first, unsigned *last)
{
	for (size_t i = 0; i < c->n; i++)
		first[i] = last[i] = UINT32_MAX;
	for (size_t cpu = 0; cpu < map->n; cpu++) {
		const struct node_class_node *nd = node_class_find(c, map->node_of[cpu]);
		size_t i = nd ? (size_t)(nd - c->v) : c->n;

		if (i == c->n)
			continue;
		if (first[i] == UINT32_MAX)
			first[i] = (unsigned)cpu;
		last[i] = (unsigned)cpu;
	}
}

static int read_packages(struct node_classes *c, const struct node_cpumap *map)
{
	unsigned *first = malloc((c->n ? c->n : 1) * 2 * sizeof(*first)), *last;
	int r = 0;

	if (!first)
		return -ENOMEM;
	last = first + (c->n ? c->n : 1);
	node_cpu_bounds(c, map, first, last);
	for (size_t i = 0; i < c->n && r == 0; i++) {
		struct node_class_node *nd = &c->v[i];
		unsigned a, b;

		if (first[i] == UINT32_MAX)
			continue;
		nd->cpus = true;
		a = cpu_package(first[i]);
		b = first[i] == last[i] ? a : cpu_package(last[i]);
		nd->spans = a != b && a != NODE_CLASS_NONE && b != NODE_CLASS_NONE;
		if (a == b && a != NODE_CLASS_NONE) {
			nd->package = a;
			nd->from = NODE_PACKAGE_CPUS;
		}
		r = read_l3(nd, first[i], map);
	}
	free(first);
	return r;
}

static void read_vendor(struct node_classes *c)
{
	char buf[CPUINFO_FIRST_MAX];

	if (cpuinfo_first_read(buf, sizeof(buf)) < 0)
		return;
	cpuinfo_value(buf, "vendor_id", c->vendor, sizeof(c->vendor));
	c->hypervisor = cpuinfo_has_flag(buf, "hypervisor");
}

int node_class_read(struct node_classes *c, char *why, size_t whylen)
{
	struct node_cpumap map = { 0 };
	unsigned *ids = NULL;
	int n = nodes_enumerate(&ids), r;

	*c = (struct node_classes){ 0 };
	if (n < 0) {
		snprintf(why, whylen, NODE_DIR ": %s", sysfs_strerror(n));
		return n;
	}
	c->n = (size_t)n;
	c->v = calloc(c->n ? c->n : 1, sizeof(*c->v));
	r = c->v ? node_cpumap_read(ids, c->n, &map) : -ENOMEM;
	for (size_t i = 0; r == 0 && i < c->n; i++)
		c->v[i] = (struct node_class_node){ .node = ids[i],
						    .package = NODE_CLASS_NONE,
						    .l3 = NODE_CLASS_NONE };
	if (r == 0)
		r = read_packages(c, &map);
	if (r == 0)
		r = node_distance_matrix_read(ids, c->n, &c->dist);
	node_cpumap_free(&map);
	free(ids);
	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		node_class_free(c);
		return r;
	}
	read_vendor(c);
	r = node_class_settle(c);
	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		node_class_free(c);
	}
	return r;
}

void node_class_free(struct node_classes *c)
{
	free(c->v);
	free(c->dist);
	*c = (struct node_classes){ 0 };
}

/* The package of a CPU-less node: its nearest nodes with CPUs', when they share one. */
static void package_by_distance(struct node_classes *c, size_t i, const unsigned *ids,
				const unsigned *cpu_ids, size_t n_cpu, unsigned *near)
{
	size_t k = node_distance_nearest(c->dist, ids, c->n, i, cpu_ids, n_cpu, near);
	unsigned pkg = NODE_CLASS_NONE;

	for (size_t j = 0; j < k; j++) {
		const struct node_class_node *o = node_class_find(c, near[j]);

		if (!o || o->package == NODE_CLASS_NONE || (j && o->package != pkg))
			return;
		pkg = o->package;
	}
	if (k) {
		c->v[i].package = pkg;
		c->v[i].from = NODE_PACKAGE_NEAREST;
	}
}

static int settle_cpuless(struct node_classes *c)
{
	unsigned *ids = malloc((c->n ? c->n : 1) * 3 * sizeof(*ids)), *cpu_ids, *near;
	size_t n_cpu = 0;

	if (!ids)
		return -ENOMEM;
	cpu_ids = ids + c->n;
	near = cpu_ids + c->n;
	for (size_t i = 0; i < c->n; i++) {
		ids[i] = c->v[i].node;
		if (c->v[i].cpus)
			cpu_ids[n_cpu++] = c->v[i].node;
	}
	for (size_t i = 0; i < c->n; i++)
		if (!c->v[i].cpus) {
			c->v[i].package = NODE_CLASS_NONE;
			c->v[i].from = NODE_PACKAGE_UNKNOWN;
			if (c->dist)
				package_by_distance(c, i, ids, cpu_ids, n_cpu, near);
		}
	free(ids);
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * The vendor's name for the mode, only where the L3 domains agree with
 * it: Intel's SNC splits a package whose L3 the kernel still lists over
 * the whole package (resctrl's SNC detection counts nodes per L3 so);
 * AMD's NPS splits a package whose L3s (one per CCX) each lie inside one
 * node.  A guest's vendor says nothing of how its host split it.
 */
static enum node_mode vendor_mode(const struct node_classes *c)
{
	bool intel = strcmp(c->vendor, "GenuineIntel") == 0;
	bool amd = strcmp(c->vendor, "AuthenticAMD") == 0 || strcmp(c->vendor, "HygonGenuine") == 0;
	unsigned want = intel ? c->per_package : 1;

	if (c->hypervisor || (!intel && !amd) || (intel && c->per_package < 2))
		return NODE_MODE_PLAIN;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].cpus && c->v[i].l3_nodes != want)
			return NODE_MODE_PLAIN;
	return intel ? NODE_MODE_SNC : NODE_MODE_NPS;
}

/* Nodes with CPUs per package: the mode's count, or uneven. */
static int settle_mode(struct node_classes *c)
{
	unsigned *pk = malloc((c->n ? c->n : 1) * sizeof(*pk)), lo = UINT32_MAX, hi = 0;
	size_t k = 0;

	if (!pk)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].cpus)
			pk[k++] = c->v[i].package;
	qsort(pk, k, sizeof(*pk), cmp_unsigned);
	for (size_t i = 0, run = 1; i < k; i++, run++)
		if (i + 1 == k || pk[i + 1] != pk[i]) {
			c->n_packages++;
			lo = run < lo ? (unsigned)run : lo;
			hi = run > hi ? (unsigned)run : hi;
			run = 0;
		}
	free(pk);
	c->per_package = lo == hi ? lo : 0;
	c->mode = lo == hi ? vendor_mode(c) : NODE_MODE_UNEVEN;
	if (c->mode == NODE_MODE_UNEVEN)
		snprintf(c->mode_text, sizeof(c->mode_text), "%u to %u nodes per package", lo, hi);
	else if (c->mode == NODE_MODE_PLAIN)
		snprintf(c->mode_text, sizeof(c->mode_text), "%u node%s per package", lo,
			 lo == 1 ? "" : "s");
	else
		snprintf(c->mode_text, sizeof(c->mode_text), "%s%u: %u node%s per package",
			 c->mode == NODE_MODE_SNC ? "SNC" : "NPS", lo, lo, lo == 1 ? "" : "s");
	return 0;
}

int node_class_settle(struct node_classes *c)
{
	bool known = false;

	c->n_packages = c->per_package = 0;
	c->mode = NODE_MODE_UNKNOWN;
	c->mode_text[0] = '\0';
	if (settle_cpuless(c) < 0)
		return -ENOMEM;
	/* Every node with CPUs in one package, or no mode can be said. */
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].cpus && c->v[i].package == NODE_CLASS_NONE)
			return 0;
		known |= c->v[i].cpus;
	}
	return known ? settle_mode(c) : 0;
}

static int cmp_node(const void *key, const void *elem)
{
	unsigned a = *(const unsigned *)key, b = ((const struct node_class_node *)elem)->node;

	return a < b ? -1 : a > b;
}

const struct node_class_node *node_class_find(const struct node_classes *c, unsigned node)
{
	return c->n ? bsearch(&node, c->v, c->n, sizeof(*c->v), cmp_node) : NULL;
}

enum node_class node_class_of(const struct node_classes *c, unsigned from, unsigned to)
{
	const struct node_class_node *a, *b;

	if (from == to)
		return NODE_CLASS_LOCAL;
	a = node_class_find(c, from);
	b = node_class_find(c, to);
	if (!a || !b || a->package == NODE_CLASS_NONE || b->package == NODE_CLASS_NONE)
		return NODE_CLASS_UNKNOWN;
	return a->package == b->package ? NODE_CLASS_NEAR : NODE_CLASS_FAR;
}

const char *node_class_name(enum node_class k)
{
	static const char *const names[] = {
		[NODE_CLASS_UNKNOWN] = "unknown",
		[NODE_CLASS_LOCAL] = "local",
		[NODE_CLASS_NEAR] = "near",
		[NODE_CLASS_FAR] = "far",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}
