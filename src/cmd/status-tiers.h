/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status's memory tiers: one line per tier (its nodes, fast or slow, with
 * or without CPUs, and the interleave weights where they differ), whether
 * demotion and tiering promotion are on, and the same facts in JSON.
 * Implemented by status-tiers.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "interleave.h"
#include "nodes.h"

struct status_tiers {
	struct memtiers tiers;        /* empty: no memory tiers (before 6.1) */
	struct interleave_weights iw; /* empty: no weighted interleave (before 6.9) */
	unsigned *cpu_nodes;          /* has_cpu */
	size_t n_cpu;
	char demotion[8], balancing[8]; /* live values, "" when absent */
	char autow[8];                  /* interleave auto: "1", "0", "" when absent */
};

/* Read what the lines say.  Never fails: what cannot be read is left out. */
void status_tiers_read(struct status_tiers *t);
void status_tiers_print(const struct status_tiers *t);
struct out_doc;
/* "tiers": [{"tier", "nodes", "memory_only", "weights"}], "interleave_weights". */
int status_tiers_json(const struct status_tiers *t, struct out_doc *d, char *why, size_t whylen);
void status_tiers_free(struct status_tiers *t);
