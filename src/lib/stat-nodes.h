/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files of every node shown (numastat, meminfo, hugepages) for the
 * counter table's -m, --compat and --prometheus, kept compactly: the names
 * once, as the first node read has them, and a value per node and name.  A
 * node's parse (struct numastat, 0.9 kB; struct meminfo, 3 kB) goes
 * through one scratch copy, never one per node: at 1024 nodes that was
 * 4 MB touched page by page.  Implemented by stat-nodes.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nodes.h"

struct stat_nodes {
	size_t n;
	unsigned *id;
	int *ns_err, *mi_err, *hp_err; /* 0, the read's -errno, or -ENODATA: not read */
	/* nodeN/numastat: the counters of the first node given, in file order. */
	size_t n_counters;
	char (*counter)[COUNTER_NAME_MAX];
	uint64_t *cv; /* n * n_counters */
	bool *chave;  /* the node's file has that counter */
	/* nodeN/meminfo: the fields of the first node given (names, kB or not). */
	size_t n_fields;
	struct meminfo_field *field; /* .value unused */
	uint64_t *fv;                /* n * n_fields, as the file has them (kB or a count) */
	bool *fhave;
	struct hugepages *hp; /* n (stat_nodes_want_hugepages()), else NULL */
};

/* n nodes with these ids, nothing read yet.  0 or -ENOMEM (free it). */
int stat_nodes_init(struct stat_nodes *t, const unsigned *ids, size_t n);
/* Room for every node's hugepages (t->hp); 0 or -ENOMEM. */
int stat_nodes_want_hugepages(struct stat_nodes *t);
/* Node i's parsed numastat and meminfo (the first given sets the names); 0 or -ENOMEM. */
int stat_nodes_set_numastat(struct stat_nodes *t, size_t i, const struct numastat *s);
int stat_nodes_set_meminfo(struct stat_nodes *t, size_t i, const struct meminfo *m);
/* Counter k (field k) of node i, or false when its file lacks it or was not read. */
bool stat_nodes_counter(const struct stat_nodes *t, size_t i, size_t k, uint64_t *v);
bool stat_nodes_field(const struct stat_nodes *t, size_t i, size_t k, uint64_t *v);
/* The index of a counter or field by name (exact), or -1. */
int stat_nodes_counter_index(const struct stat_nodes *t, const char *name);
int stat_nodes_field_index(const struct stat_nodes *t, const char *name);
void stat_nodes_free(struct stat_nodes *t);
