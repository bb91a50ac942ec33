/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-process memory per node from /proc/PID/numa_maps, summed into
 * numastat's categories (Huge, Heap, Stack, Private), plus the few other
 * /proc/PID facts `stat --pid` needs.  All reads go through sysfs.h, so a
 * --sysroot tree with proc/<pid>/{numa_maps,status,cmdline} works.
 * Implemented by proc.c, procmaps.c and procmaps-wi.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* numastat's categories, in its row order. */
enum pm_cat { PM_HUGE, PM_HEAP, PM_STACK, PM_PRIVATE, PM_NCAT };
extern const char *const procmaps_cat_names[PM_NCAT]; /* "Huge", "Heap", "Stack", "Private" */

struct pm_node {
	unsigned node;
	uint64_t bytes[PM_NCAT];
};

/* One node of the mappings under weighted interleave. */
struct pm_wi_node {
	unsigned node;
	uint64_t pages; /* what numa_maps counts there (N<id>=) */
	double wants; /* its share by the weights: pages * w / (sum of w over the policy's nodes) */
};

/*
 * A process's anonymous mappings whose policy is weighted interleave
 * ("weighted interleave[=flags]:<nodes>"), summed: filled by
 * procmaps_add_line() when procmaps.wi points here.  File mappings are
 * counted and left out: their pages sit in the page cache where whoever
 * first read them put them.  The weights are the configured ones, by node
 * (nodes sorted; a policy node without one counts 1, as the kernel does).
 */
struct pm_wi {
	const unsigned *wnodes, *weights;
	size_t nw;
	size_t file_mappings; /* left out */
	size_t mappings;
	uint64_t pages;
	struct pm_wi_node *v; /* sorted by node */
	size_t n, cap;
};

/* The nodes a process has memory on, sorted by id. */
struct procmaps {
	size_t n, cap;
	struct pm_node *v;
	struct pm_wi *wi; /* non-NULL: also sum the weighted interleave mappings */
};

/* The kernel's PID_MAX_LIMIT (4M): larger numbers are not PIDs. */
#define PROC_PID_MAX 4194304
/* numa_maps lines carry a path (PATH_MAX) and one N<id>=<pages> per node. */
#define PROCMAPS_LINE_MAX 65536

void procmaps_free(struct procmaps *pm);
/*
 * Add one numa_maps line to wi when its policy is weighted interleave (0
 * when it is not); -EBADMSG with why for a broken policy node list, -ENOMEM.
 */
int procmaps_wi_add_line(struct pm_wi *wi, const char *line, size_t len, char *why, size_t whylen);
void procmaps_wi_free(struct pm_wi *wi);
/* Sum over categories of one node, or over every node of one category. */
uint64_t procmaps_node_total(const struct pm_node *n);
uint64_t procmaps_cat_total(const struct procmaps *pm, enum pm_cat cat);

/*
 * Add one numa_maps line (without its newline).  A line whose first word is
 * not a hex address, a malformed N<id>=<pages> or kernelpagesize_kB, or a
 * size that overflows 64 bits is -EBADMSG with a reason; -ENOMEM.
 */
int procmaps_add_line(struct procmaps *pm, const char *line, size_t len, char *why, size_t whylen);
/* A whole numa_maps text; reasons name the line ("line 3: ..."). */
int procmaps_parse(struct procmaps *pm, const char *buf, size_t len, char *why, size_t whylen);
/* "N<id>=<pages>": 1 and the two numbers, 0 for another word, -EBADMSG for a broken one. */
int procmaps_node_word(const char *w, size_t wl, uint64_t *node, uint64_t *pages);
/* One line of numa_maps (without its newline); 0 or -errno with why. */
typedef int (*procmaps_line_fn)(void *ctx, const char *line, size_t len, char *why, size_t whylen);
/*
 * Read /proc/<pid>/numa_maps in chunks and hand fn each line: -errno
 * (ENOENT: gone), fn's error, or -EBADMSG ("line 3: line too long").
 */
int procmaps_read_lines(unsigned pid, procmaps_line_fn fn, void *ctx, char *why, size_t whylen);
/* The same for another file of /proc/<pid>/ with lines ("maps"). */
int procmaps_read_file_lines(unsigned pid, const char *file, procmaps_line_fn fn, void *ctx,
			     char *why, size_t whylen);
/* Read and parse /proc/<pid>/numa_maps: -errno (ENOENT: gone) or -EBADMSG. */
int procmaps_read(unsigned pid, struct procmaps *pm, char *why, size_t whylen);

/* The Name: of /proc/<pid>/status into name[size].  0 or -errno. */
int proc_name(unsigned pid, char *name, size_t size);
/* /proc/<pid>/cmdline with NULs as spaces (truncated to size).  0 or -errno. */
int proc_cmdline(unsigned pid, char *buf, size_t size);
/* The CPU <pid> last ran on (field 39 of /proc/<pid>/stat).  0 or -errno / -EBADMSG. */
int proc_last_cpu(unsigned pid, unsigned *cpu);
/* The numeric entries of /proc, sorted.  *pids is malloc'ed; count or -errno. */
int proc_pids(unsigned **pids);

/*
 * Where a process may run and allocate, from /proc/<pid>/status:
 * Cpus_allowed_list and Mems_allowed_list (range lists; Mems_allowed_list
 * only with CONFIG_CPUSETS, so has_mems may be false).
 */
struct proc_allowed {
	unsigned *cpus, *mems; /* sorted, malloc'ed */
	size_t n_cpus, n_mems;
	bool has_mems;
};
void proc_allowed_free(struct proc_allowed *a);
/* -EBADMSG ("no Cpus_allowed_list", "Mems_allowed_list: not a range list"), -ENOMEM. */
int proc_allowed_parse(const char *buf, size_t len, struct proc_allowed *out, char *why,
		       size_t whylen);
/* Read and parse the status file: -errno (-ENOENT: gone) or -EBADMSG, with why. */
int proc_allowed_read(unsigned pid, struct proc_allowed *out, char *why, size_t whylen);
/*
 * The same over every thread (/proc/<pid>/task/<tid>/status): the union of
 * their CPUs and nodes, since /proc/<pid>/status is the main thread's only
 * and a worker pinned elsewhere uses its own node's memory.  *threads is
 * how many were read.  A thread that ended meanwhile is skipped.  Errors as
 * proc_allowed_read().
 */
int proc_allowed_read_threads(unsigned pid, struct proc_allowed *out, size_t *threads, char *why,
			      size_t whylen);

/* PIDs named by operands: a PID, or a pattern over every process. */
struct proc_list {
	unsigned *v;
	size_t n, cap;
};
void proc_list_free(struct proc_list *l);
/* 0 or -ENOMEM. */
int proc_list_add(struct proc_list *l, unsigned pid);
/* Sort and drop duplicates. */
void proc_list_sort_unique(struct proc_list *l);
/*
 * A PID operand: digits only (leading zeros allowed, as numastat's atoi).
 * *pid is PROC_PID_MAX + 1 or more when the number is too large for a PID.
 */
bool proc_pid_operand(const char *s, unsigned *pid);
/* A pattern with this prefix is looked for in the command line. */
#define PROC_CMDLINE_PREFIX "cmdline:"
/*
 * Add every process of all[] (except self) whose name contains pattern, or
 * whose command line (its arguments joined by spaces) contains what follows
 * PROC_CMDLINE_PREFIX.  The count added or -ENOMEM.
 */
int proc_list_match(struct proc_list *l, const char *pattern, const unsigned *all, size_t n,
		    unsigned self);
/* The same by numastat's match: "<Name> <command line>" contains pattern. */
int proc_list_match_numastat(struct proc_list *l, const char *pattern, const unsigned *all,
			     size_t n, unsigned self);
