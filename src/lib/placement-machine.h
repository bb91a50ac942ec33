/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the placement verdict knows of the machine, read once: the node of
 * every CPU, the nodes with CPUs, the memory tiers, the evidence of
 * demotion, the memoryless nodes' nearest memory, the distances, the
 * weighted interleave weights and kernel.numa_balancing.  Implemented by
 * placement-machine.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "interleave.h"
#include "nodes.h"
#include "placement.h"

struct placement_machine {
	unsigned *nodes; /* every node, sorted */
	size_t n_nodes;
	struct node_cpumap map;
	unsigned *cpu_nodes; /* every node with CPUs: a cgroup without a cpuset runs there */
	size_t n_cpu_nodes;
	struct memtiers tiers;
	const unsigned *fast; /* the fastest tier with nodes, when there are two or more */
	size_t n_fast;
	unsigned *demoted_to; /* pl.demoted_to's storage */
	struct pl_near *near; /* pl.near's storage */
	unsigned *dist;       /* n_nodes x n_nodes, by index in nodes; UINT32_MAX unknown */
	struct interleave_weights weights;
	char balancing[16]; /* kernel.numa_balancing as read, "" when absent */
	struct pl_machine pl;
};

/* 0, or -errno with why ("/sys/devices/system/node: ..."). */
int placement_machine_read(struct placement_machine *m, char *why, size_t whylen);
void placement_machine_free(struct placement_machine *m);

/*
 * The nodes a demotion may have put pages into, from the pgdemote_*
 * counters: where the kernel counts them per node (6.9+), each node of a
 * slower tier than a node that counted some, or that counted some itself;
 * *per_node false when only /proc/vmstat counts them (then every slower
 * node is possible, if any were counted).  demoted[i] is node nodes[i]'s
 * sum.  For the tests.  Returns how many nodes into out (sorted).
 */
size_t placement_machine_demoted_to(const struct memtiers *t, const unsigned *nodes,
				    const uint64_t *demoted, size_t n, unsigned *out);
