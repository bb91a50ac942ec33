/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * advise: what this machine's topology and counters say about its NUMA
 * knobs.  advise-facts.c reads every fact once into struct advise_facts;
 * each rule of advise_rules[] (advise-rules.c, one const table like the knob
 * registry) is a function of those facts that adds advice, notes or
 * "insufficient data" lines, each with the numbers it rests on.  Nothing
 * here prints or changes anything.
 * Implemented by advice.c, advise-facts.c, advise-interact.c,
 * advise-kubelet.c, advise-map.c, advise-rules.c and advise.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "damon.h"
#include "knobs.h"
#include "kubelet-config.h"
#include "memmap.h"
#include "nodes.h"
#include "plan.h"
#include "profile.h"
#include "sysctld.h"
#include "why.h"

/*
 * How much the counters must cover before a ratio means something.  Just
 * after boot (or after vm.numa_stat went 1 -> 0 -> 1) a handful of
 * allocations decide every percentage.
 */
#define ADVISE_MIN_UPTIME 600         /* seconds since boot for a since-boot judgement */
#define ADVISE_MIN_EVENTS 100000      /* allocation events on all nodes since boot */
#define ADVISE_MIN_NODE_EVENTS 10000  /* on one node since boot, for its ratios */
#define ADVISE_MIN_WINDOW_EVENTS 1000 /* on one node (and in all) over --interval */
/* Thresholds, in percent. */
#define ADVISE_MISS_PCT 5        /* numa_miss of numa_hit + numa_miss */
#define ADVISE_OTHER_PCT 20      /* other_node of local_node + other_node, CPU nodes only */
#define ADVISE_SPILL_PCT 5       /* numa_foreign of numa_hit + numa_foreign */
#define ADVISE_FILE_CACHE_PCT 50 /* page cache (FilePages - Shmem) of MemTotal */
/* RECLAIM_DISTANCE (include/linux/topology.h), and node_reclaim_distance on AMD Zen. */
#define ADVISE_RECLAIM_DISTANCE 30
#define ADVISE_RECLAIM_DISTANCE_ZEN 32
/* Processes named per node in the evidence of remote-allocations. */
#define ADVISE_TOP_PROCS 3

enum advise_priority { PRIO_HIGH, PRIO_MEDIUM, PRIO_LOW };
/* "high", "medium", "low" */
const char *advise_priority_name(enum advise_priority p);

enum advice_kind {
	ADV_ADVICE,  /* change something (exit status 3) */
	ADV_NOTE,    /* worth knowing; nothing to change */
	ADV_NO_DATA, /* the rule could not judge: a file is missing, the counters are too young */
	ADV_OK,      /* the rule judged the knob and its value fits: never printed */
};
/* "advice", "note", "insufficient-data", "ok" */
const char *advice_kind_name(enum advice_kind k);

#define ADVICE_TEXT_MAX 400
#define ADVICE_LINE_MAX 320 /* a longer line ends at its last whole word, with "..." */
#define ADVICE_EVIDENCE_MAX 16

struct advise_rule;

/* One line of output: a rule's verdict about this machine. */
struct advice {
	const struct advise_rule *rule;
	enum advice_kind kind;
	char knob[KNOB_NAME_MAX];   /* "" when the advice is not about one knob */
	bool has_value;             /* value is the advised value of knob */
	struct kval value, current; /* canonical; current is "" when unknown */
	char text[ADVICE_TEXT_MAX]; /* the recommendation, the note, or why there is no data */
	char evidence[ADVICE_EVIDENCE_MAX][ADVICE_LINE_MAX]; /* the numbers read */
	size_t nevidence;
};

struct advice_list {
	struct advice *v;
	size_t n, cap;
};

/* One registry knob as read here. */
struct af_knob {
	struct knob_ref ref;
	int err;             /* 0, or -errno (-ENOENT: not on this kernel) */
	struct kval v;       /* the live value, canonical */
	char explained[200]; /* what sets it to the live value: "profile hpc (FILE:LINE)", "" */
};

struct af_node {
	unsigned id;
	bool cpu, memory; /* listed in has_cpu, has_memory */
	int ns_err;       /* nodeN/numastat: 0 or -errno / -EBADMSG */
	char ns_why[WHY_MAX];
	uint64_t boot[NS_STANDARD]; /* since boot or the last reset */
	bool have_delta;            /* delta holds the --interval window */
	uint64_t delta[NS_STANDARD];
	int mi_err; /* nodeN/meminfo */
	char mi_why[WHY_MAX];
	uint64_t mem_total, file_pages, shmem; /* bytes */
	/*
	 * The file LRU (Active(file) + Inactive(file)), Mapped and Dirty, in
	 * bytes: what zone reclaim can drop (shmem and tmpfs sit on the anon
	 * LRU).  lru_known is false where the node's meminfo lacks a line.
	 */
	bool lru_known;
	uint64_t file_lru, mapped, dirty;
	int dist_err;       /* nodeN/distance */
	int dist_far;       /* the largest distance to another node, -1: none */
	size_t dist_far_at; /* to nodes[dist_far_at] of the facts (the first one as far) */
	int hp_err;         /* nodeN/hugepages */
	char hp_why[WHY_MAX];
	struct hugepage_pool hp[HUGEPAGE_SIZES_MAX];
	size_t nhp;
	/*
	 * The firmware's numbers (HMAT, CDAT): nodeN/access<perf_class>/
	 * initiators/, class 1 (from CPUs, what the kernel's auto weights use)
	 * where the node has it, else class 0.
	 */
	bool have_perf;
	unsigned perf_class;
	uint64_t read_bw, write_bw;   /* MiB/s */
	uint64_t read_lat, write_lat; /* ns */
	unsigned weight;              /* weighted_interleave/nodeN; 0: none */
};

/* A process that holds memory on a node other than the one it runs on. */
struct af_proc {
	unsigned pid;
	char name[64];     /* as the kernel has it: escaped on output */
	unsigned run_node; /* the node of the CPU it last ran on */
	uint64_t bytes;    /* its memory on the node asked about */
};

struct advise_facts {
	struct af_node *nodes; /* sorted by id */
	size_t n;
	int masks_err; /* has_cpu / has_memory: 0, or -errno (cpu/memory then all true) */
	struct memtiers tiers;
	int tiers_err; /* 0, -ENOENT (before 6.1) or -errno */
	char tiers_why[WHY_MAX];
	double uptime; /* seconds, from /proc/uptime */
	int uptime_err;
	double window;         /* seconds between the two samples; 0: one sample */
	int window_err;        /* -ERANGE: a counter went backwards during the window */
	struct af_knob *knobs; /* one per knob_table entry, same order */
	unsigned reclaim_distance;
	char reclaim_why[WHY_MAX]; /* how reclaim_distance was decided */
	/* What reads the NUMA counters (looked for only when it matters). */
	bool readers_checked;
	char readers[4][200];
	size_t nreaders;
	char readers_looked[300]; /* what was looked at, for the evidence */
	/* What runs beside NUMA balancing (advise-interact.c reads it). */
	struct damon_state damon;
	char scx_state[16]; /* /sys/kernel/sched_ext/state: "enabled", ...; "" absent */
	char scx_ops[64];   /* root/ops: the BPF scheduler's name */
	bool pte_have;      /* numa_pte_updates was read */
	uint64_t pte_updates;
	bool pte_delta_have; /* ... and again after --interval */
	uint64_t pte_delta;
	/* The configuration. */
	bool cfg_ok;                    /* loaded without problems */
	char profile[PROFILE_NAME_MAX]; /* the configured profile, "" for none */
	char profile_why[WHY_MAX];      /* why it could not be resolved, "" when it was */
	struct plan plan;               /* the configured profile against the live values */
	struct sysctld_conflicts conflicts;
	bool unit_enabled; /* numastatctl.service runs at boot */
	/*
	 * The processes holding the most memory on node while they run on
	 * another (at most max, most first); the count or -errno, and in
	 * *unreadable how many processes could not be looked at.  NULL when
	 * processes cannot be looked at at all.
	 */
	int (*remote_procs)(const struct advise_facts *f, unsigned node, struct af_proc *out,
			    size_t max, size_t *unreadable);
	/*
	 * The distances from nodes[from] to every node of the facts, in their
	 * order, into row (f->n of them): 0 or -errno.  Read again when a
	 * rule needs them (a spilling node), since a node keeps only its
	 * farthest.  NULL when they cannot be read at all.
	 */
	int (*distance_row)(const struct advise_facts *f, size_t from, unsigned *row);
	/*
	 * Something that uses weighted interleave, the first found, said in
	 * what ("process 42 (db): a mapping in numa_maps", "unit db.service:
	 * NUMAPolicy=weighted-interleave"): a unit file's NUMAPolicy= or a
	 * process's numa_maps.  1 found, 0 none, -errno.  NULL: cannot look.
	 */
	int (*wi_user)(const struct advise_facts *f, char *what, size_t len);
	/*
	 * Our own PID on the live system, which remote_procs passes over
	 * (numastatctl is no process to bind); 0 under --sysroot, whose
	 * processes are another system's.
	 */
	unsigned self;
	/* The kubelet's configuration (KUBELET_CONFIG): present false on a host without one. */
	struct kubelet_config kubelet;
	/*
	 * The memory map (sources, zones, tiers, devices) of the nodes, or
	 * NULL when it was not read (unit tests set it by hand).
	 */
	struct memmap *map;
};

struct advise_rule {
	const char *id; /* "single-node-balancing" */
	enum advise_priority priority;
	const char *knob;           /* the knob it advises on, or NULL */
	const char *condition;      /* when it speaks, in words */
	const char *reads;          /* the files and numbers it reads */
	const char *recommendation; /* what it advises */
	const char *reason;         /* why, in one sentence */
	const char *source;         /* the kernel documentation or commit it rests on */
	/* Add this rule's verdicts to out.  0 or -ENOMEM. */
	int (*eval)(const struct advise_facts *f, const struct advise_rule *r,
		    struct advice_list *out);
};

/*
 * The rules about the kubelet's Topology Manager (advise-kubelet.c): on a
 * kubelet host whose policy is not none, more nodes than it starts with
 * (8, unless max-allowable-numa-nodes says more), and distances that
 * differ without prefer-closest-numa-nodes.
 */
int advise_kubelet_numa_nodes(const struct advise_facts *f, const struct advise_rule *r,
			      struct advice_list *out);
int advise_kubelet_closest(const struct advise_facts *f, const struct advise_rule *r,
			   struct advice_list *out);

extern const struct advise_rule advise_rules[];
extern const size_t advise_rule_count;

/* What to read besides the system itself. */
struct advise_input {
	double interval;                  /* seconds for a second sample; 0: one sample */
	const struct profile_config *cfg; /* the configuration, or NULL */
	bool cfg_ok;                      /* cfg loaded without problems */
};

/*
 * Empty facts with every registry knob resolved and unread (err -ENOENT):
 * advise_facts_read() fills them in, unit tests set them by hand.  0 or -ENOMEM.
 */
int advise_facts_init(struct advise_facts *f);
/* Read everything advise looks at.  0, or -errno when the nodes cannot be listed. */
int advise_facts_read(struct advise_facts *f, const struct advise_input *in);
void advise_facts_free(struct advise_facts *f);
/*
 * The interactions' facts (advise-interact.c): DAMON's kdamonds and
 * DAMON_STAT, sched_ext's state, numa_pte_updates; read() at the start,
 * again() after --interval (numa_pte_updates' change).
 */
void advise_interact_read(struct advise_facts *f);
void advise_interact_again(struct advise_facts *f);
/* The interactions' rules, entries of advise_rules[]. */
int advise_interact_damos_tiering(const struct advise_facts *f, const struct advise_rule *r,
				  struct advice_list *out);
int advise_interact_damon_stat(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out);
int advise_interact_sched_ext(const struct advise_facts *f, const struct advise_rule *r,
			      struct advice_list *out);
/* The facts of registry knob name (never NULL for a registry name). */
const struct af_knob *advise_knob(const struct advise_facts *f, const char *name);
/* Set a knob's live value (canonicalised as the kernel's would be); for tests. */
void advise_facts_set_knob(struct advise_facts *f, const char *name, const char *value);

/*
 * Run every rule, then order the list: advice before notes before missing
 * data, by priority, then in table order; a knob keeps only its first
 * advice.  0 or -ENOMEM.
 */
int advise_evaluate(const struct advise_facts *f, struct advice_list *out);
void advice_list_free(struct advice_list *l);
/* Entries of one kind in l. */
size_t advice_count(const struct advice_list *l, enum advice_kind kind);
/* The rule with this id, or NULL. */
const struct advise_rule *advise_rule_find(const char *id);

/* The rules on the memory map (advise-map.c), as advise_rules[] names them. */
int advise_map_lower_tier_normal(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out);
int advise_map_one_tier_eval(const struct advise_facts *f, const struct advise_rule *r,
			     struct advice_list *out);
int advise_map_cpuless_no_perf(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out);
int advise_map_cxl_memdev_node(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out);
int advise_map_hotplug_offline(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out);
/*
 * Every node with memory in one tier, and some of it a device's (CXL,
 * dax): one-memory-tier speaks, so cpuless-dram-tier need not.
 */
bool advise_map_one_tier(const struct advise_facts *f);

/* For the rules (advise-rules.c): building entries. */
/* A new entry of r in out, or NULL when out of memory. */
struct advice *advice_new(struct advice_list *out, const struct advise_rule *r,
			  enum advice_kind kind);
/* The knob it is about, its live value, and (value non-NULL) the advised value. */
void advice_set_knob(struct advice *a, const struct af_knob *k, const char *value);
void advice_text(struct advice *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One more line of evidence (quietly dropped past ADVICE_EVIDENCE_MAX). */
void advice_evidence(struct advice *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * True when an entry of out is about knob: advice, a note, ok, or missing
 * data (a rule that could not judge it leaves it unjudged by anyone).
 */
bool advice_judged(const struct advice_list *out, const char *knob);
