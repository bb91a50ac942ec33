/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NUMA nodes as sysfs shows them: enumeration of node<digits> directories
 * (sparse ids, no node0 assumption) and the parsers of their files.  Parsers
 * work on buffers and never print; readers go through sysfs.h.
 * Implemented by hugepages.c, meminfo.c, node-topo.c, nodes.c, numastat.c and rangelist.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define NODE_DIR "/sys/devices/system/node"
/* Node ids are ints in the kernel; MAX_NUMNODES is 1 << 10 on x86_64. */
#define NODE_ID_MAX 65535

/* The six counters of nodeN/numastat, in the kernel's order. */
enum numastat_key {
	NS_NUMA_HIT,
	NS_NUMA_MISS,
	NS_NUMA_FOREIGN,
	NS_INTERLEAVE_HIT,
	NS_LOCAL_NODE,
	NS_OTHER_NODE,
	NS_STANDARD, /* count of the standard keys */
};
extern const char *const numastat_keys[NS_STANDARD];

/* Later kernels may add counters; they are kept, up to this many in all. */
#define NUMASTAT_MAX_COUNTERS 16
#define COUNTER_NAME_MAX 48

struct counter {
	char name[COUNTER_NAME_MAX];
	uint64_t value;
};

struct numastat {
	size_t n;
	struct counter c[NUMASTAT_MAX_COUNTERS];
};

/*
 * Sorted ids of the node<digits> directories under NODE_DIR.  Returns the
 * count (0 when the directory is absent: a kernel without CONFIG_NUMA) or
 * -errno.  *ids is malloc'ed (NULL when the count is 0).
 */
int nodes_enumerate(unsigned **ids);

/*
 * Parse "key value\n" lines.  Every standard key must be present; unknown
 * keys are kept.  Rejects NULs, CR, junk, u64 overflow, duplicates and empty
 * input with -EBADMSG and a reason ("line 3: value is not a number").
 */
int numastat_parse(const char *buf, size_t len, struct numastat *out, char *why, size_t whylen);
/* One line of a node file (without its newline); 0 or -EBADMSG with why set. */
typedef int (*node_line_fn)(const char *line, size_t len, unsigned lineno, void *ctx, char *why,
			    size_t whylen);
/*
 * Call fn for each line of a node file's text.  Empty text, a NUL byte and a
 * last line without its newline are -EBADMSG ("line 3: ...") before fn sees them.
 */
int node_text_lines(const char *buf, size_t len, node_line_fn fn, void *ctx, char *why,
		    size_t whylen);
/* "line N: what" into why; returns -EBADMSG. */
int node_line_error(char *why, size_t whylen, unsigned line, const char *what);
/*
 * The two halves of a "name value" counter line (numastat, vmstat): NULL,
 * or what is wrong in words for node_line_error().
 */
const char *node_counter_name_problem(const char *name, size_t len);
const char *node_counter_value_problem(const char *s, size_t len, uint64_t *v);
/*
 * Read NODE_DIR/node<node>/<file> into buf (see sysfs_read_file); on failure
 * why says it in words ("not present on this kernel", "file too large").
 */
ssize_t node_file_read(unsigned node, const char *file, char *buf, size_t size, char *why,
		       size_t whylen);
/* Read and parse nodeN/numastat; -errno or -EBADMSG with a reason. */
int numastat_read(unsigned node, struct numastat *out, char *why, size_t whylen);
/* The value of key, or false when absent. */
bool numastat_get(const struct numastat *s, const char *key, uint64_t *value);

/*
 * Parse a kernel range list ("0-3,8,10-11\n"; "\n" alone is empty) or a
 * user's node list ("0,2-3").  Ids are sorted and unique; *ids is malloc'ed.
 * Returns the count or -EINVAL / -ERANGE (an id above NODE_ID_MAX).
 */
int rangelist_parse(const char *s, unsigned **ids);

/*
 * Sorted ids back into a range list ("0-3,5"): the one node-list
 * formatter.  Whole ranges only: when the list does not fit buf[len], it
 * ends with ",..." after the last range that fits.  Returns the length of
 * the whole list (as snprintf() does), so a buffer of that size + 1 holds
 * it uncut.
 */
size_t rangelist_format(const unsigned *ids, size_t n, char *buf, size_t len);
/* Is id in ids[n] (sorted ascending)?  A binary search. */
bool rangelist_has(const unsigned *ids, size_t n, unsigned id);
/* The same for text people read: "none" for an empty list. */
void rangelist_text(const unsigned *ids, size_t n, char *buf, size_t len);

/*
 * A user's node list ("0-2,5") against the sorted ids present here, by
 * libnuma's numa_parse_nodestring() rules that numactl users know: a single
 * id and both end points of a range must exist, the absent ids inside a
 * range are skipped (0-2 on nodes 0, 2, 5 is 0 and 2).  Returns the count of
 * sorted, unique ids in *ids (malloc'ed), -ENOENT with the first absent id in
 * *miss, or the errors of rangelist_parse().
 */
struct node_miss {
	unsigned id;
	bool range_end; /* the end point of a range, not a single id */
};
int rangelist_select(const char *s, const unsigned *present, size_t n_present, unsigned **ids,
		     struct node_miss *miss);

/*
 * nodeN/meminfo: "Node N Key:   value[ kB]\n" lines, any key set, in file
 * order.  Values with " kB" are kept in kB (bytes() converts); the others
 * (HugePages_*) are counts.
 */
#define MEMINFO_MAX_FIELDS 64
#define MEMINFO_NAME_MAX 32

struct meminfo_field {
	char name[MEMINFO_NAME_MAX];
	uint64_t value;
	bool kb;
};

struct meminfo {
	size_t n;
	struct meminfo_field f[MEMINFO_MAX_FIELDS];
};

/*
 * Parse node's meminfo.  Every line must name this node; rejects NULs, CR,
 * junk, u64 overflow (also of kB * 1024), duplicates, empty input with
 * -EBADMSG and a reason.
 */
int meminfo_parse(const char *buf, size_t len, unsigned node, struct meminfo *out, char *why,
		  size_t whylen);
int meminfo_read(unsigned node, struct meminfo *out, char *why, size_t whylen);
/* The field named key (exact match), or NULL. */
const struct meminfo_field *meminfo_find(const struct meminfo *m, const char *key);
/* A field's value in bytes (kB * 1024) or as the count it is. */
uint64_t meminfo_bytes(const struct meminfo_field *f);

/*
 * nodeN/distance: "10 21 32\n", one distance per online node.  *out is
 * malloc'ed.  Returns the count or -EINVAL / -ERANGE (above 255, the
 * kernel's u8) / -ENOMEM.
 */
int node_distance_parse(const char *s, unsigned **out);
/*
 * The same row folded as it is read, nothing kept: the largest distance
 * but the one at index self (the node's own) in *far and its index in *at,
 * *far -1 when there is no other.  Returns the count or -EINVAL / -ERANGE.
 */
int node_distance_farthest(const char *s, size_t self, int *far, size_t *at);
/*
 * The distance matrix of the sorted nodes, by index (n x n into *dist,
 * malloc'ed): UINT32_MAX where a row cannot be read or does not list n
 * distances.  The one reader of the whole matrix.  0 or -ENOMEM.
 */
int node_distance_matrix_read(const unsigned *nodes, size_t n, unsigned **dist);
/*
 * Of the sorted among, the nodes nearest to nodes[from] by that matrix,
 * itself left out: every node at the least known distance, in id order,
 * into out (room for n).  Returns how many.
 */
size_t node_distance_nearest(const unsigned *dist, const unsigned *nodes, size_t n, size_t from,
			     const unsigned *among, size_t n_among, unsigned *out);

/*
 * NODE_DIR/<name> (has_cpu, has_memory, online, ...): a range list, a bare
 * newline when empty.  Returns the count with *ids malloc'ed, -errno (-ENOENT:
 * not on this kernel) or -EBADMSG.
 */
int node_mask_read(const char *name, unsigned **ids);

/*
 * Which node each CPU belongs to, from nodeN/cpulist of the nodes given:
 * node_of[cpu], UINT32_MAX for a CPU no node lists.  A node whose cpulist
 * is missing or unreadable has no CPUs here.  0 or -ENOMEM.
 */
struct node_cpumap {
	unsigned *node_of;
	size_t n, cap;
};
int node_cpumap_read(const unsigned *nodes, size_t n, struct node_cpumap *m);
void node_cpumap_free(struct node_cpumap *m);
/*
 * Memory tiers (Linux 6.1+): MEMTIER_DIR/memory_tier<id>/nodelist.  A smaller
 * id is a faster tier; ids are sparse (the abstract distance >> 7: DRAM is
 * tier 4, dax/kmem memory tier 22 by default).  A tier may list no node.
 */
#define MEMTIER_DIR "/sys/devices/virtual/memory_tiering"

struct memtier {
	unsigned id;
	unsigned *nodes; /* sorted */
	size_t n;
};

struct memtiers {
	struct memtier *v; /* sorted by id */
	size_t n, cap;
};

/* 0, -ENOENT (no MEMTIER_DIR), -errno or -EBADMSG, with why set on failure. */
int node_memtiers_read(struct memtiers *out, char *why, size_t whylen);
void node_memtiers_free(struct memtiers *t);
/* The index in t->v of the tier holding node, or -1. */
int node_memtiers_of(const struct memtiers *t, unsigned node);

/* Hugepages of one node, summed over nodeN/hugepages/hugepages-<size>kB. */
struct hugepages {
	bool present;         /* false: no hugepages directory for this node */
	uint64_t total_bytes; /* nr_hugepages * size */
	uint64_t free_bytes;  /* free_hugepages * size */
	uint64_t surp_bytes;  /* surplus_hugepages * size */
};

/* One page size's pool on one node. */
struct hugepage_pool {
	uint64_t kb; /* page size */
	uint64_t nr, free, surplus;
};
#define HUGEPAGE_SIZES_MAX 8

/*
 * Every page size's pool of node, sorted by size (at most HUGEPAGE_SIZES_MAX).
 * Returns the count (0 when the node has no hugepages directory) or -errno /
 * -EBADMSG with why set.
 */
int hugepages_pools_read(unsigned node, struct hugepage_pool *out, size_t max, char *why,
			 size_t whylen);

/* "hugepages-2048kB" -> 2048; -EINVAL for any other name. */
int hugepages_dir_kb(const char *name, uint64_t *kb);
/* Read node's hugepages; 0 (present false when absent) or -errno / -EBADMSG. */
int hugepages_read(unsigned node, struct hugepages *out, char *why, size_t whylen);
