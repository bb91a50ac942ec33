/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The placement command's rooms and what they share: the options, each
 * target (a process or a cgroup, a container's too) with its plan and
 * verdict, and the run's context.  cmd-placement.c parses the options and
 * drives the run; placement-targets.c finds and reads the targets;
 * placement-text.c, placement-json.c and placement-prom.c print them.
 * Implemented by cmd-placement.c, placement-targets.c, placement-text.c,
 * placement-json.c and placement-prom.c.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "cg-find.h"
#include "placement-containers.h"
#include "placement-machine.h"
#include "placement.h"
#include "procmaps.h"

#define TEXTFILE_NAME "numastatctl-placement.prom"

struct popts {
	const char **pids, **cgroups, **containers, **pods;
	size_t n_pids, n_cgroups, n_containers, n_pods;
	bool check, prometheus, move, dry_run;
	const char *textfile;
	double max_remote_anon;
	double max_near; /* PL_NEAR_NEVER: near memory is never actionable */
};

/*
 * A target's fixes as kept until printed: struct pl_fixes has room for
 * eight PATH_MAX-long quoted commands (some 75 kB), and a pattern may find
 * ten thousand processes; each command kept here takes its length.
 */
struct kept_fix {
	enum pl_class cls;
	char what[sizeof(((struct pl_fix *)0)->what)];
	char *cmd, *note; /* cmd "": no command may be printed, note says why */
};
struct kept_fixes {
	struct kept_fix v[PL_FIXES_MAX];
	size_t n;
	char held[PL_NCLASS][sizeof(((struct pl_fixes *)0)->held[0])];
};

struct target {
	bool is_cgroup;
	unsigned pid;
	char *cgroup;      /* is_cgroup: the path under the hierarchy */
	char name[64];     /* a process's Name: */
	size_t threads;    /* a process's threads, whose CPUs are all its own */
	bool cpuset_found; /* a cgroup's: some group on the way up has a cpuset */
	char *cpuset;      /* and which: the group itself or an ancestor */
	bool by_pattern;   /* a cgroup only a pattern matched */
	/* How --move names it again: "--cgroup" and its path, "--container" and its id. */
	const char *select_opt, *select_arg;
	bool in_prom;          /* its series are in the Prometheus text */
	bool ok;               /* read */
	struct pc_target *ctr; /* a container's: its kubelet assignment */
	struct placement p;
	struct pl_verdict v;
	struct kept_fixes *fixes; /* the commands that act on its verdict; NULL: none */
};

struct pctx {
	const struct popts *o;
	struct target *t;
	size_t n, cap;
	struct placement_machine m;
	char root[CG_ROOT_MAX];    /* the cgroup v2 hierarchy, when --cgroup */
	struct proc_list *per_arg; /* the processes each --pid argument named, sorted */
	struct pc_ctx containers;  /* --container, --pod */
};

/* ---- cmd-placement.c ---- */

/*
 * Is the target's actionable memory (remote anonymous, off-policy, near
 * above --max-near) over --check's share?
 */
bool cmd_placement_over(const struct pctx *x, const struct target *t);

/* ---- placement-targets.c: each returns EXIT_OK or an exit code, after saying why ---- */

/* The machine, once: what every target's verdict is judged against. */
int placement_targets_machine(struct pctx *x);
/* The processes of --pid. */
int placement_targets_add_processes(struct pctx *x);
/* The cgroups, containers and pods of --cgroup, --container, --pod. */
int placement_targets_add_cgroups(struct pctx *x);
/*
 * One process into t (its pid set): 1 read, 0 left out (gone, found by a
 * pattern; a kernel thread), -1 after saying why it could not be read.
 */
int placement_targets_read_process(struct pctx *x, struct target *t, bool by_pid);

/* ---- the output rooms: 0 or -errno ---- */

int placement_text_print(const struct pctx *x);
/* After --move: each moved process's numa_maps read again, its actionable memory said. */
void placement_text_after(struct pctx *x);
int placement_json_print(const struct pctx *x);
int placement_prom_write(FILE *f, struct pctx *x);
/* The Prometheus text to DIR/TEXTFILE_NAME, atomically. */
int placement_prom_textfile(struct pctx *x, const char *dir);
