/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -m table and the counter table's Prometheus text, from the nodes'
 * files (stat-nodes.h).  The counter view reads them (and reports per-node
 * failures); these only format.  They return 0, or -errno with the reason in why.
 * Implemented by stat-mem.c and stat-prom.c.
 */
#pragma once

#include <stdio.h>

#include "knobs.h"
#include "nodes.h"
#include "stat-nodes.h"
#include "stat.h"

/* -m: the fields to show (o->cols_arg, or the defaults present here). */
#define STAT_MEM_MAX_COLS 64
struct stat_mem_cols {
	size_t n;
	char name[STAT_MEM_MAX_COLS][MEMINFO_NAME_MAX];
	int sort; /* index into name[], or -1 */
};

/*
 * Resolve -o and --sort for -m against the first readable node's fields
 * (case-insensitive).  -EINVAL with the unknown name in why.
 */
int stat_mem_columns(const struct stat_opts *o, const struct stat_nodes *t,
		     struct stat_mem_cols *cols, char *why, size_t whylen);
/* The -m table: rows = nodes (mi_err == 0), human sizes or -b bytes, TOTAL. */
int stat_mem_print(const struct stat_opts *o, const struct stat_nodes *t,
		   const struct stat_mem_cols *cols, char *why, size_t whylen);

/* One registry knob's live value for Prometheus. */
struct stat_knob {
	const char *name;
	char value[KVAL_MAX]; /* as `get` prints it; 1/0 for true/false when numeric */
	bool numeric;         /* a decimal integer: numastatctl_knob_value, else _knob_info */
};

/* One knob of the configured profile: does the live system differ from it? */
struct stat_drift {
	char name[KNOB_NAME_MAX];
	bool differs; /* live value differs, or it cannot be read */
};

/* The configured profile (numastatctl.conf profile =) against the live system. */
struct stat_profile {
	size_t config_errors;     /* problems in the configuration files */
	const char *name;         /* NULL: none configured, or the configuration has problems */
	struct stat_drift *knobs; /* the profile's knobs present here (or not optional) */
	size_t n;
};

/* Everything one exposition holds. */
struct stat_prom {
	const struct stat_nodes *nodes;
	const struct stat_knob *knobs;
	size_t nk;
	const struct stat_profile *profile; /* NULL: no configuration file was found */
	long long timestamp;                /* Unix seconds when the values were read */
	bool node_exporter_names;           /* --prometheus-names=node_exporter */
};

/*
 * Prometheus text: per-node memory and counters (our names, or
 * node_exporter's meminfo_numa names), hugepages, knobs, profile drift and
 * the timestamp.  Nodes with a failed read are left out of the families that
 * need that file.  0, or -EIO when f failed.
 */
int stat_prom_write(FILE *f, const struct stat_prom *p);
