/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a node is to another: the package each node belongs to (its CPUs'
 * physical_package_id, or a CPU-less node's nearest node with CPUs), the
 * L3 its CPUs share, the packages' sub-NUMA mode (nodes per package, named
 * SNC or NPS only where the CPU vendor and the L3 domains say it), and the
 * class of the distance from one node to another: local, near (the same
 * package), far (another package) or unknown.  Implemented by
 * node-class.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An unknown package or L3. */
#define NODE_CLASS_NONE UINT32_MAX

enum node_class {
	NODE_CLASS_UNKNOWN, /* a package not known: the machine says nothing */
	NODE_CLASS_LOCAL,   /* the same node */
	NODE_CLASS_NEAR, /* another node of the same package (SNC/NPS sibling, attached memory) */
	NODE_CLASS_FAR,  /* a node of another package */
};

/* How a node's package was found. */
enum node_package_from {
	NODE_PACKAGE_UNKNOWN, /* no CPU says, its CPUs disagree, or no one nearest package */
	NODE_PACKAGE_CPUS,    /* its CPUs' topology/physical_package_id */
	NODE_PACKAGE_NEAREST, /* CPU-less: the package of its nearest nodes with CPUs */
};

struct node_class_node {
	unsigned node;
	bool cpus;        /* the node has CPUs */
	unsigned package; /* NODE_CLASS_NONE: unknown */
	enum node_package_from from;
	bool spans;        /* its CPUs are in more than one package (as AMD's NPS0) */
	unsigned l3;       /* its first CPU's L3, named by that L3's first CPU; NONE: none */
	char l3_cpus[64];  /* that L3's shared_cpu_list as the kernel prints it, "" when none */
	unsigned l3_nodes; /* how many nodes that L3's CPUs are on (0: no L3) */
};

/* The mode's kind: said by vendor only where the L3 domains agree. */
enum node_mode {
	NODE_MODE_UNKNOWN, /* packages not known, or nodes span packages */
	NODE_MODE_PLAIN,   /* "3 nodes per package": no vendor name sound here */
	NODE_MODE_SNC,     /* Intel, each L3 over all the package's nodes */
	NODE_MODE_NPS,     /* AMD, each L3 inside one node */
	NODE_MODE_UNEVEN,  /* packages with different counts of nodes */
};

struct node_classes {
	struct node_class_node *v; /* sorted by node */
	size_t n;
	unsigned *dist;       /* n x n by index (node_distance_matrix_read()) */
	unsigned n_packages;  /* packages with a node of CPUs */
	unsigned per_package; /* nodes with CPUs per package; 0 unless every package has as many */
	enum node_mode mode;
	char mode_text[48]; /* "SNC3: 3 nodes per package", "" when unknown */
	char vendor[16];    /* /proc/cpuinfo's vendor_id, "" when not read */
	bool hypervisor;    /* a guest: its packages and nodes are what its host made up */
};

/*
 * Every node's package and L3, the mode and the distances, from sysfs
 * under the sysroot.  A machine that says nothing of packages reads as
 * every node's package unknown (classes unknown), not as an error.
 * 0, or -errno with why.
 */
int node_class_read(struct node_classes *c, char *why, size_t whylen);
void node_class_free(struct node_classes *c);

/*
 * The packages of the CPU-less nodes and the mode, from the nodes' own
 * packages, L3 spans, the distances, the vendor and hypervisor (set by the
 * reader; the tests set them by hand).  Nothing read.  0 or -ENOMEM.
 */
int node_class_settle(struct node_classes *c);

/* The node's entry, or NULL. */
const struct node_class_node *node_class_find(const struct node_classes *c, unsigned node);
/* The class of memory on node to a CPU on node from. */
enum node_class node_class_of(const struct node_classes *c, unsigned from, unsigned to);
/* "local", "near", "far", "unknown". */
const char *node_class_name(enum node_class k);
