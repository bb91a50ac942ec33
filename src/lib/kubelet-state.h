/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet's NUMA intent, from its checkpoint files: the CPU Manager's
 * (/var/lib/kubelet/cpu_manager_state: a container's exclusive CPUs) and
 * the Memory Manager's (memory_manager_state: the NUMA nodes a container's
 * memory was given).  Both are JSON the kubelet writes with a checksum: an
 * FNV-1a (32 bits) of a Go "spew" printing of the decoded struct, which
 * kubelet-state.c prints again byte for byte for the layouts it knows
 * (HACKING-containers.md has the formats).  A file whose checksum does not
 * match is not used (the kubelet refuses it too); a layout it does not know
 * is said as such.  Parsers work on buffers and never print.
 * Implemented by kubelet-state.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "why.h"

#define KUBELET_CPU_STATE "/var/lib/kubelet/cpu_manager_state"
#define KUBELET_MEM_STATE "/var/lib/kubelet/memory_manager_state"
/* Largest checkpoint read: the Memory Manager's grows with nodes and containers. */
#define KUBELET_STATE_MAX (4u << 20)

enum kubelet_sum {
	KUBELET_SUM_OK,         /* the checksum matches the contents */
	KUBELET_SUM_ZERO,       /* 0: the kubelet accepts it unchecked (older file backend) */
	KUBELET_SUM_UNVERIFIED, /* a newer layout whose printing is not known here */
	KUBELET_SUM_BAD,        /* it does not match: not used */
};
/* "verified", "zero", "not-verified", "mismatch" */
extern const char *const kubelet_sum_names[4];

/* One checkpoint file as read. */
struct kubelet_file {
	bool present;         /* the file exists */
	bool used;            /* its entries are taken */
	enum kubelet_sum sum; /* when parsed */
	unsigned version;     /* 1 or 2 (the CPU Manager's), 0 unknown */
	char policy[32];      /* policyName */
	uint32_t computed;    /* the checksum of the contents */
	uint64_t stored;      /* the checksum in the file */
	char why[WHY_MAX];    /* why not used, or not verified */
};

/* What the kubelet assigned one container of a pod. */
struct kubelet_assign {
	char *pod_uid, *container;  /* v1 CPU entries key a container id: pod_uid NULL */
	unsigned *cpus, *mem_nodes; /* sorted */
	size_t n_cpus, n_mem_nodes;
	bool has_cpus, has_mem;
	size_t seq; /* the order read, while entries are merged */
};

struct kubelet_state {
	struct kubelet_file cpu, mem;
	struct kubelet_assign *v;
	size_t n, cap;
};

/*
 * The text of a checkpoint into st (cpu: the CPU Manager's, else the Memory
 * Manager's).  0 (f says whether it is used and why not), -EBADMSG (not
 * JSON, or not this file's format: f->why), -ENOMEM.
 */
int kubelet_state_parse(struct kubelet_state *st, bool cpu, const char *buf, size_t len);
/* Both files, through sysfs (inside --sysroot).  0 or -ENOMEM; each file says its state. */
int kubelet_state_read(struct kubelet_state *st);
/* The assignment of a pod's container (or of a container id, v1), NULL when none. */
const struct kubelet_assign *kubelet_state_find(const struct kubelet_state *st, const char *pod_uid,
						const char *container, const char *container_id);
void kubelet_state_free(struct kubelet_state *st);
/* FNV-1a, 32 bits, as Go's hash/fnv New32a. */
uint32_t kubelet_fnv32a(const void *data, size_t len);
