/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a workload's memory is against where it runs: the `placement`
 * command's facts and verdict.  A target is a process (its numa_maps, read
 * mapping by mapping: the policy and the kind of memory of each) or a
 * cgroup (memory.numa_stat and the cpuset's effective CPUs and nodes).
 * Its memory per node is split by kind, and each page is sorted into one
 * class of the verdict as it is read (below: as its policy
 * asks, demoted, local, remote anonymous, remote file and shared,
 * off-policy, unknown); beside them, the share on the fastest memory
 * tier.  Parsers work on buffers and never print.  Implemented by
 * placement.c, placement-maps.c and placement-verdict.c (the verdict's
 * rules: the classes and the commands that act on them, below).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node-class.h"

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

/* The verdict's classes, in the order they are shown (what each means: below). */
enum pl_class {
	PL_C_LOCAL,
	PL_C_AS_POLICY,
	PL_C_DEMOTED,
	PL_C_REMOTE_ANON,
	PL_C_REMOTE_NEAR,
	PL_C_REMOTE_FILE,
	PL_C_OFF_POLICY,
	PL_C_UNKNOWN,
	PL_NCLASS,
};

/* One node of a target's memory. */
struct pl_node {
	unsigned node;
	uint64_t bytes[PL_NKIND];
	uint64_t cls[PL_NCLASS];      /* the same bytes by class: both sum to the node's total */
	uint64_t anon_cls[PL_NCLASS]; /* the anonymous and huge bytes among them, by class */
	unsigned off_to;              /* where its off_policy pages belong, UINT32_MAX: nowhere */
	bool off_to_mixed;            /* mappings disagree on where */
};

/* A memoryless node with CPUs and the memory nodes nearest to it. */
struct pl_near {
	unsigned node;
	unsigned *mem; /* sorted */
	size_t n;
};

/* What the verdict knows of the machine. */
struct memtiers;
struct node_classes;
struct interleave_weights;
struct pl_machine {
	const struct memtiers *tiers; /* two or more tiers with nodes, else NULL */
	/*
	 * Evidence that reclaim demoted: pgdemote_* counted (demotion_enabled
	 * alone says it may, not that it did).  demoted_to, when not NULL, the
	 * nodes the per-node counters show demotions into (sorted).
	 */
	bool demotion;
	const unsigned *demoted_to;
	size_t n_demoted_to;
	/*
	 * Nodes with CPUs and no memory (sorted), each with its nearest memory
	 * nodes by distance: a CPU there allocates from them, so they are its
	 * local memory.
	 */
	const struct pl_near *near;
	size_t n_near;
	/* The distance from node a to node b, UINT32_MAX unknown (NULL: none known). */
	unsigned (*distance)(const void *ctx, unsigned a, unsigned b);
	const void *distance_ctx;
	/* The live weighted interleave weights, NULL where the kernel has none. */
	const struct interleave_weights *weights;
	/*
	 * Each node's package (node-class.h): a remote page on a node of the
	 * same package as a local node is near.  NULL, or packages unknown:
	 * every remote page is remote_anon, as before packages were read.
	 */
	const struct node_classes *classes;
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

/*
 * One move of the plan: the pages of one private anonymous mapping (start
 * address addr, as numa_maps names it) on node from that belong on node to.
 */
struct pl_move {
	unsigned pid;
	uint64_t addr;
	uint64_t page; /* bytes per page */
	uint64_t pages;
	unsigned from, to;
	enum pl_class cls; /* PL_C_REMOTE_ANON or PL_C_OFF_POLICY */
};

struct placement {
	/*
	 * Where it may run (every thread's CPUs, for a process), and the nodes
	 * of those CPUs (sorted).
	 */
	unsigned *cpus, *cpu_nodes;
	size_t n_cpus, n_cpu_nodes;
	/*
	 * Its local memory: the nodes of its CPUs that have memory, and for a
	 * CPU on a memoryless node the memory nodes nearest to it (sorted).
	 */
	unsigned *local;
	size_t n_local;
	/* Where its memory may go (cpuset): mems_known false when nothing says. */
	unsigned *mems;
	size_t n_mems;
	bool mems_known;
	/* Its memory, by node (sorted). */
	struct pl_node *v;
	size_t n, cap;
	/* The machine (NULL: one tier, no demotion); set before memory is added. */
	const struct pl_machine *machine;
	/* Processes only: its mappings and their policies. */
	size_t mappings;
	struct pl_policy_use *pol;
	size_t n_pol, cap_pol, policies_dropped;
	/*
	 * Weighted interleave mappings whose pages per node are off the
	 * weights' shares by more than a round of the weights and 2% (placed
	 * before a weight changed, or a node was full): still as their policy
	 * asks, said apart.
	 */
	size_t wi_off;
	/*
	 * Remote anonymous bytes of mappings with the default policy: the
	 * only ones NUMA balancing moves (MPOL_LOCAL and the rest it leaves).
	 */
	uint64_t remote_default;
	/* The plan: each move of private anonymous pages, in numa_maps order. */
	unsigned pid; /* whose numa_maps the moves name; 0 for a cgroup's own */
	struct pl_move *moves;
	size_t n_moves, cap_moves;
	/* Bytes of actionable pages no allowed node can take: left where they are. */
	uint64_t unplanned;
	/* The same of near pages, counted in unplanned when near is actionable. */
	uint64_t unplanned_near;
	/* Its near memory is over the share the user allows (placement_near_decide()). */
	bool near_actionable;
};

/*
 * The classes --check counts and the text calls actionable whatever the
 * target: remote_anon and off_policy.
 */
bool placement_actionable(enum pl_class c);
/* The classes the plan moves: the actionable ones and remote_near. */
bool placement_plannable(enum pl_class c);
/* Is class c actionable for the target p: as above, and remote_near when over its share. */
bool placement_acts(const struct placement *p, enum pl_class c);

struct pl_verdict {
	uint64_t total;
	uint64_t cls[PL_NCLASS]; /* exclusive: their sum is total */
	bool tiers;              /* the machine has more than one memory tier */
	uint64_t fast;           /* on the fastest tier (when tiers), across the classes */
	uint64_t actionable;     /* the actionable classes' sum */
	bool overflow;           /* a sum did not fit in 64 bits (saturated) */
};

void placement_free(struct placement *p);
/* The entry of node, inserted in order when new; NULL when out of memory. */
struct pl_node *placement_node(struct placement *p, unsigned node);
/*
 * The nodes of cpus, each once and sorted, from cpu_node[] (indexed by CPU;
 * UINT32_MAX or past n_map: unknown, left out) into *nodes (malloc'ed,
 * NULL for none).  0 or -ENOMEM.
 */
int placement_nodes_of_cpus(const unsigned *cpus, size_t n, const unsigned *cpu_node, size_t n_map,
			    unsigned **nodes, size_t *n_nodes);
/*
 * Set the CPUs (taken over: the caller's array is p's now) and compute their
 * nodes from cpu_node[] (indexed by CPU; UINT32_MAX or past n_map: unknown),
 * and the local memory nodes (p->machine's memoryless nodes replaced by
 * their nearest memory nodes; set p->machine first).  0 or -ENOMEM.
 */
int placement_set_cpus(struct placement *p, unsigned *cpus, size_t n, const unsigned *cpu_node,
		       size_t n_map);
/* The local memory nodes from p->cpu_nodes and p->machine, as placement_set_cpus() sets them. */
int placement_set_local(struct placement *p);
/*
 * The verdict over p: its nodes' classes summed, saturating (overflow
 * set); fast_nodes (sorted) is the fastest tier, NULL when one tier only.
 */
void placement_verdict(const struct placement *p, const unsigned *fast_nodes, size_t n_fast,
		       struct pl_verdict *out);
/*
 * Near memory's verdict, after placement_verdict(): actionable when its
 * share of the target's memory is above max_near percent (max_near < 0:
 * never, PL_NEAR_NEVER); then p->near_actionable, v->actionable and
 * p->unplanned count it, else the plan's near moves are dropped.
 */
#define PL_NEAR_NEVER (-1.0)
void placement_near_decide(struct placement *p, double max_near, struct pl_verdict *v);
/* part in percent of whole (0 when whole is 0). */
double placement_pct(uint64_t part, uint64_t whole);

/*
 * One numa_maps line (without its newline) into p: its pages by node,
 * kind and class (placement_classify() against p's CPUs, mems and machine), and
 * its policy.  The kind: "huge" is hugetlbfs; a file= mapping of
 * /dev/shm, /SYSV (System V), /memfd: or /dev/zero (shared anonymous
 * memory) is shmem, of any other file is file, except its anon= pages (a
 * private mapping's copied pages), which count as anonymous on each node
 * in proportion (numa_maps does not say on which node they are), and in
 * the class those nodes agree on, else unknown; a
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
 * file less shmem; shmem; hugetlb where the kernel has it (7.x); each
 * node's bytes classed as a mapping without policy.  0, -ENOMEM or
 * -EOVERFLOW (a node's sizes add up past 64 bits: a dump, not a kernel).
 */
struct cg_numa;
int placement_from_cgroup(struct placement *p, const struct cg_numa *s);

/*
 * A process of a cgroup target into it: its plan's moves (taken over) and
 * what its mappings say of its anonymous memory, node by node, kept in the
 * cgroup's anon_cls (apart from memory.numa_stat's classes until
 * placement_processes_apply()).  0 or -ENOMEM.
 */
int placement_add_process(struct placement *cg, struct placement *proc);
/*
 * The cgroup's anonymous and huge bytes on each node split as its
 * processes' mappings split theirs (their policies, sharing and threads),
 * in place of the cpuset's rule alone: memory.numa_stat's bytes a node's
 * mappings account for, in their classes' proportions; the rest keeps the
 * cpuset's class, or is unknown where that class is actionable (anonymous
 * memory no process maps alone: shared, or in flight).  A node no process
 * maps anything on keeps the cpuset's classes.
 */
void placement_processes_apply(struct placement *cg);

/*
 * ---- The verdict (placement-verdict.c) ----
 *
 * The `placement` verdict: each page of a target sorted into one class by
 * the intent behind it, its plan, and the commands that act on the
 * actionable classes.  The classes are exclusive (their sum is the total):
 *
 *   as_policy    where the mapping's own policy (bind, interleave, weighted
 *                interleave, prefer, prefer (many)) put it: on its nodes
 *   demoted      on a slower memory tier than the nodes the mapping may
 *                use, where pgdemote_* counted demotions (into that node,
 *                where the counters say): reclaim put it there
 *   local        on a node of the CPUs the target's threads may run on (a
 *                memoryless one's nearest memory nodes)
 *   remote_anon  private anonymous or huge pages elsewhere that no policy
 *                asked for, on another package (or any node, where the
 *                packages are not known): actionable
 *   remote_near  the same on a node of the same package and memory tier
 *                as a local node (an SNC or NPS sibling, memory attached
 *                to the package): actionable only above the share the
 *                user allows
 *   remote_file  file and shared memory elsewhere (shared: mapped by other
 *                processes too, mapmax > 1, or shared memory): page cache
 *                stays where it was first read, expected
 *   off_policy   anonymous or huge pages on a node the mapping's policy or
 *                the cpuset refuses, not explained by demotion: actionable
 *   unknown      the anonymous pages of a private file mapping whose nodes
 *                numa_maps does not give (it counts them with the file's
 *                pages), where the nodes it may be on differ in class:
 *                estimates, never acted on
 *
 * The actionable classes (placement_actionable()) are the ones the text
 * calls so, --check counts, -J and Prometheus sum.  The plan (p->moves)
 * moves their private anonymous pages, mapping by mapping, each to the node
 * its class says it belongs on; it never moves a shared page, a page a
 * policy or demotion put where it is, or a page twice.  A printed
 * migratepages(8) moves every page of the process on its source nodes
 * (shared ones too, as root), so it is given only where that is exactly the
 * plan: every page on its sources planned to one destination, and no move
 * of the plan filling a source.  migrate_pages(2) pairs the nodes of the
 * old and new masks by position (nodes_remap(), mm/mempolicy.c
 * do_migrate_pages()) and skips a source that is also in the new mask
 * when the masks differ in size: `migratepages P 0 0-2` moves nothing.
 * Every command printed here has one destination and sources that are not
 * in it.
 */

/* "local", "as_policy", "demoted", "remote_anon", "remote_file", "off_policy", "unknown" */
extern const char *const placement_class_names[PL_NCLASS];

/* What a mapping asks for: its mode and the nodes it names (sorted; none: n 0). */
struct pl_ask {
	enum pl_policy pol;
	const unsigned *nodes;
	size_t n;
	/*
	 * Its pages are mapped by other processes too (numa_maps' mapmax > 1,
	 * or shared memory): they are the other processes' as much as this
	 * one's, so they are never remote anonymous nor moved.
	 */
	bool shared;
};

/*
 * The class of a page of kind on node, of a mapping that asks a (NULL: a
 * cgroup's memory, which has no policy), for the target p (its CPU nodes,
 * its cpuset) on the machine p->machine (NULL: one tier, no demotion).
 */
enum pl_class placement_classify(const struct placement *p, const struct pl_ask *a,
				 enum pl_kind kind, unsigned node);
/*
 * What node is to the target p by package (node-class.h): local (one of
 * its local nodes), near (on the package of one), far (on another package
 * than every one) or unknown (packages not known).
 */
enum node_class placement_node_class(const struct placement *p, unsigned node);
/*
 * Does p's cpuset confine its memory to nodes none of its CPUs are on
 * (podman run --cpuset-mems=1 on node 0's CPUs)?  Its own memory there is
 * then as the cpuset asks, not remote anonymous: a fix would undo the ask.
 */
bool placement_cpuset_away(const struct placement *p);
/*
 * Where an off_policy page on node should go for the mapping a: a node
 * both the policy and the cpuset allow, a local one when it can, else the
 * nearest; UINT32_MAX when none.
 */
unsigned placement_off_policy_home(const struct placement *p, const struct pl_ask *a,
				   unsigned node);
/*
 * Where a remote anonymous page on node should go: the local node the
 * cpuset allows nearest to it; UINT32_MAX when none.
 */
unsigned placement_remote_home(const struct placement *p, unsigned node);

/*
 * migrate_pages(2)'s pairing as the kernel does it (do_migrate_pages()):
 * for each source of from (sorted), the node its pages go to, or
 * UINT32_MAX where nothing moves.  to[] in out, one per from node.  For
 * tests and for checking the commands built here.
 */
void placement_migrate_pairs(const unsigned *from, size_t nf, const unsigned *to, size_t nt,
			     unsigned *out);

/*
 * The commands that act on a verdict, each a line an admin can paste:
 * every word quoted by shell_quote_argv(), whole or not printed at all.
 * PL_FIX_CMD holds a PATH_MAX-long cgroup path quoted as plain text.
 */
#define PL_FIX_TEXT 1024
#define PL_FIX_CMD 8192
#define PL_FIXES_MAX 8
struct pl_fix {
	enum pl_class cls;      /* what it fixes */
	char what[48];          /* "move it now", "start it local", ... */
	char cmd[PL_FIX_CMD];   /* the command; "": none may be printed, note says why */
	char note[PL_FIX_TEXT]; /* a caveat, or "" */
};
struct pl_fixes {
	struct pl_fix v[PL_FIXES_MAX];
	size_t n;
	/*
	 * Per actionable class, the nodes whose pages of it the plan cannot
	 * move ("1,3"): no node its policy and cpuset allow can take them.
	 */
	char held[PL_NCLASS][128];
};

/* What a fix may say about the machine. */
struct cg_unit;
struct pl_fix_ctx {
	bool is_cgroup;
	unsigned pid;
	const char *cgroup;  /* is_cgroup: the path */
	const char *cg_root; /* is_cgroup: the hierarchy; NULL: /sys/fs/cgroup */
	/* is_cgroup: the manager it answers to (cg_unit_of()); NULL: from its path alone */
	const struct cg_unit *unit;
	bool cpuset_found; /* is_cgroup: some cpuset holds it */
	bool managed;      /* is_cgroup: a container's, whose cpuset its runtime and kubelet own */
	/* managed: a podman container outside a pod, its id: podman update sets its cpuset. */
	const char *podman_id;
	const char *balancing; /* kernel.numa_balancing as read, "" when absent */
	/*
	 * How `numastatctl placement` names the target for its own move
	 * ("--cgroup" and the path, "--container" and the id, "--pod" and
	 * namespace/name); NULL: the process, by pid.
	 */
	const char *select_opt, *select_arg;
};

void placement_fixes(const struct placement *p, const struct pl_fix_ctx *c, struct pl_fixes *out);
