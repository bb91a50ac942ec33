/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a workload's memory is against where it runs: the `placement`
 * command's facts and verdict.  A target is a process (its numa_maps, read
 * mapping by mapping: the policy and the kind of memory of each) or a
 * cgroup (memory.numa_stat and the cpuset's effective CPUs and nodes).
 * Its memory per node is split by kind; the verdict sorts the bytes into
 * local (on a node of the CPUs it may run on), remote anonymous (its own
 * memory elsewhere: something can be done about it), remote file and
 * shared (page cache and shared memory sit where whoever first touched
 * them ran), and, across those, off-policy (anonymous memory on a node its
 * cpuset or its mapping's bind policy no longer allows) and the share on
 * the fastest memory tier.  Parsers work on buffers and never print.
 * Implemented by placement.c and placement-maps.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds of memory.  Huge is hugetlbfs (explicit huge pages); THP counts as what it maps. */
enum pl_kind { PL_ANON, PL_FILE, PL_SHMEM, PL_HUGE, PL_NKIND };
extern const char *const placement_kind_names[PL_NKIND]; /* "anon", "file", "shmem", "huge" */

/* The policies mpol_to_str() (mm/mempolicy.c) names in numa_maps. */
enum pl_policy {
	PL_POL_DEFAULT,
	PL_POL_LOCAL,
	PL_POL_PREFER,
	PL_POL_PREFER_MANY,
	PL_POL_BIND,
	PL_POL_INTERLEAVE,
	PL_POL_WEIGHTED,
	PL_NPOL,
};
/* The kernel's words: "default", ..., "prefer (many)", "weighted interleave". */
extern const char *const placement_policy_names[PL_NPOL];

/* One node of a target's memory. */
struct pl_node {
	unsigned node;
	uint64_t bytes[PL_NKIND];
	uint64_t off_policy; /* anonymous and huge bytes here that the policy or cpuset refuses */
};

/* The mappings of one policy ("bind:1"), for the policies line. */
#define PL_POLICY_TEXT 96
/* Distinct policies kept per target; more are counted in policies_dropped. */
#define PL_POLICIES_MAX 32
struct pl_policy_use {
	char text[PL_POLICY_TEXT]; /* as numa_maps writes it, e.g. "prefer=static:1" */
	size_t mappings;
	uint64_t bytes;
};

struct placement {
	/* Where it may run, and the nodes of those CPUs (sorted). */
	unsigned *cpus, *cpu_nodes;
	size_t n_cpus, n_cpu_nodes;
	/* Where its memory may go (cpuset): mems_known false when nothing says. */
	unsigned *mems;
	size_t n_mems;
	bool mems_known;
	/* Its memory, by node (sorted). */
	struct pl_node *v;
	size_t n, cap;
	/* Processes only: its mappings and their policies. */
	size_t mappings;
	struct pl_policy_use *pol;
	size_t n_pol, cap_pol, policies_dropped;
};

struct pl_verdict {
	uint64_t total;
	uint64_t local;       /* any kind, on a node of its CPUs */
	uint64_t remote_anon; /* anonymous and huge pages elsewhere: actionable */
	uint64_t remote_file; /* file and shared memory elsewhere: expected */
	uint64_t off_policy;  /* anonymous and huge pages where policy or cpuset refuses them */
	bool tiers;           /* the machine has more than one memory tier */
	uint64_t fast;        /* on the fastest tier (when tiers) */
};

void placement_free(struct placement *p);
/* The entry of node, inserted in order when new; NULL when out of memory. */
struct pl_node *placement_node(struct placement *p, unsigned node);
/* Is node in the sorted ids? */
bool placement_has(const unsigned *ids, size_t n, unsigned node);
/*
 * Set the CPUs (taken over: the caller's array is p's now) and compute their
 * nodes from cpu_node[] (indexed by CPU; UINT32_MAX or past n_map: unknown).
 * 0 or -ENOMEM.
 */
int placement_set_cpus(struct placement *p, unsigned *cpus, size_t n, const unsigned *cpu_node,
		       size_t n_map);
/* The verdict over p; fast_nodes (sorted) is the fastest tier, NULL when one tier only. */
void placement_verdict(const struct placement *p, const unsigned *fast_nodes, size_t n_fast,
		       struct pl_verdict *out);
/* part in percent of whole (0 when whole is 0). */
double placement_pct(uint64_t part, uint64_t whole);

/*
 * One numa_maps line (without its newline) into p: its pages by node and
 * kind, off-policy pages against p's mems and the mapping's bind nodes,
 * and its policy.  The kind: "huge" is hugetlbfs; a file= mapping of
 * /dev/shm, /SYSV (System V), /memfd: or /dev/zero (shared anonymous
 * memory) is shmem, of any other file is file, except its anon= pages (a
 * private mapping's copied pages), which count as anonymous on each node
 * in proportion (numa_maps does not say on which node they are); a
 * mapping without file= is anonymous.  -EBADMSG with why ("unknown
 * policy 'x'", "malformed N<node>=<pages>"), -ENOMEM.
 */
int placement_maps_add_line(struct placement *p, const char *line, size_t len, char *why,
			    size_t whylen);
/* A whole numa_maps text; reasons name the line ("line 3: ..."). */
int placement_maps_parse(struct placement *p, const char *buf, size_t len, char *why,
			 size_t whylen);
/* Read /proc/<pid>/numa_maps into p (in chunks): -errno (-ENOENT: gone) or -EBADMSG. */
int placement_maps_read(struct placement *p, unsigned pid, char *why, size_t whylen);

/*
 * A cgroup's memory.numa_stat (parsed by cg_numa_parse()) into p: anon;
 * file less shmem; shmem; hugetlb where the kernel has it (7.x).  Bytes on
 * a node outside p's mems count as off-policy for anon and hugetlb.
 * 0 or -ENOMEM.
 */
struct cg_numa;
int placement_from_cgroup(struct placement *p, const struct cg_numa *s);
