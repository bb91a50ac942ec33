/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2 memory.numa_stat (implemented in cg-numa.c): one line per
 * item, "anon N0=98304 N1=180224\n", values per node with memory (N_MEMORY
 * nodes only, not every online node).  Sizes are bytes; workingset_* and the
 * pg* event items are counts.  The values are hierarchical (the cgroup and
 * its descendants).  cgroup v1's file ("total=770492 N0=770492", in pages,
 * LRU classes) is recognised and refused: it means something else.  Parsers
 * work on buffers and never print.  Implemented by cg-numa.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CG_ITEM_NAME_MAX 40
/* 6.1 has 27 items, 7.2 about 45. */
#define CG_MAX_ITEMS 128
/* memory.numa_stat: one line per item, up to 1024 nodes of " N1023=<20 digits>". */
#define CG_NUMA_STAT_BUF (1 << 20)

struct cg_numa {
	size_t n_items, n_nodes;
	char (*name)[CG_ITEM_NAME_MAX]; /* n_items, in file order */
	unsigned *node;                 /* n_nodes, in file order (ascending) */
	uint64_t *v;                    /* n_items * n_nodes */
	uint64_t *total;                /* n_nodes: cg_numa_node_total(), computed once */
};

#define CG_V(s, item, ni) ((s)->v[(item) * (s)->n_nodes + (ni)])

/*
 * Parse memory.numa_stat.  Every line must list the same nodes in the same
 * (ascending) order.  -EPROTO for cgroup v1's format, -EBADMSG with a reason
 * ("line 3: expected N<node>=<value>"), -ENOMEM.  out is freed on failure.
 */
int cg_numa_parse(const char *buf, size_t len, struct cg_numa *out, char *why, size_t whylen);
void cg_numa_free(struct cg_numa *s);
/* A deep copy; 0 or -ENOMEM (dst empty then). */
int cg_numa_copy(struct cg_numa *dst, const struct cg_numa *src);
/* The index of item name, or -1. */
int cg_numa_item(const struct cg_numa *s, const char *name);
/* The index of node in s->node (a binary search: they ascend), or -1. */
int cg_numa_node(const struct cg_numa *s, unsigned node);
/* True for the items that count events (workingset_*, pg*), not bytes. */
bool cg_item_is_count(const char *name);
/*
 * The memory a cgroup has on node index ni: anon + file + kernel_stack +
 * pagetables + sec_pagetables + slab_reclaimable + slab_unreclaimable (those
 * present; shmem and the THP items are already inside anon and file).
 */
uint64_t cg_numa_node_total(const struct cg_numa *s, size_t ni);
