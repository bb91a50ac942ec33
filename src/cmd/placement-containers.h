/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement --container and --pod: the containers the arguments name (from
 * what is on disk: container-find.h), the kubelet's assignment of each
 * (kubelet-state.h), and how far its memory is from the assigned nodes:
 * its own anonymous memory off them is the actionable class, page cache
 * and shared memory the expected one.  What the placement command prints
 * of a container beyond a cgroup's lines: its title, the assignment lines,
 * the JSON keys, the Prometheus labels and family.
 * Implemented by placement-containers.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cg-find.h"
#include "container-find.h"
#include "kubelet-state.h"
#include "placement.h"

struct out_row;

/* The kubelet's intent for one container, and its memory against it. */
struct pc_target {
	const struct container *c;
	const struct kubelet_assign *a; /* NULL: no entry in either checkpoint */
	unsigned *nodes;                /* the assigned nodes (sorted) */
	size_t n_nodes;
	const char *by; /* "memory-manager", "cpu-manager", NULL: no exclusive assignment */
	uint64_t off_anon, off_file; /* anonymous and huge / file and shared off those nodes */
	uint64_t off_actionable;     /* of off_anon, what the verdict's actionable classes hold */
};

struct pc_ctx {
	struct container_list l;
	struct kubelet_state ks;
	struct container **picked; /* the containers the arguments named, in l's order */
	size_t n_picked;
};

/*
 * The containers the --container and --pod arguments name, marked in x->l
 * (c->picked) and listed in x->picked, and with kubelet the kubelet's
 * checkpoints read.  EXIT_OK, EXIT_FAIL (one named nothing; said) or
 * EXIT_USAGE.
 */
int placement_containers_resolve(struct pc_ctx *x, const char *root, const char *const *ctrs,
				 size_t n_ctrs, const char *const *pods, size_t n_pods,
				 bool kubelet);
/*
 * stat --container, --pod: the cgroups of the containers they name, added
 * to l (matched: named only by a pattern).  As placement_containers_resolve().
 */
int placement_containers_cgroups(const char *root, const char *const *ctrs, size_t n_ctrs,
				 const char *const *pods, size_t n_pods, struct cg_list *l);
/* c's assignment and p's memory against it (cpu_node: the node of each CPU). */
int placement_containers_intent(const struct pc_ctx *x, const struct container *c,
				const unsigned *cpu_node, size_t n_map, const struct placement *p,
				struct pc_target *t);
void placement_containers_title(const struct pc_target *t, FILE *f);
/* The lines under the title: the pod, the assignment, the memory off it. */
void placement_containers_lines(const struct pc_ctx *x, const struct pc_target *t);

/* The JSON keys a container adds to a target, in order. */
#define PC_COLS 13
extern const char *const placement_containers_cols[PC_COLS];
extern const unsigned placement_containers_col_flags[PC_COLS];
void placement_containers_row(const struct pc_ctx *x, const struct pc_target *t,
			      struct out_row *row, size_t first);

/* ,namespace="...",pod="...",container="..." */
void placement_containers_labels(FILE *f, const struct pc_target *t);
/* Series a container adds to a cgroup's (the assignment family). */
#define PC_SERIES 2
/* numastatctl_placement_assigned_off_bytes's header. */
void placement_containers_prom_family(FILE *f);
/* Its series for t after the cgroup label (nothing without an assignment). */
void placement_containers_prom(FILE *f, const struct pc_target *t, const char *cgroup);
/* numastatctl_placement_kubelet_checkpoint: each file's state. */
void placement_containers_prom_checkpoints(FILE *f, const struct pc_ctx *x);
void placement_containers_target_free(struct pc_target *t);
void placement_containers_free(struct pc_ctx *x);
