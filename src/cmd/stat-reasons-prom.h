/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat --migration-reasons INTERVAL --textfile DIR: the ledger since the
 * run started as Prometheus counters, rewritten after each sample
 * (stat-view-reasons.c computes the rows, this writes them).  Counters
 * since the run's start rather than per sample: a scraper's rate() needs a
 * monotonic value, and a new run is a counter reset, which Prometheus
 * takes in its stride.  Implemented by stat-reasons-prom.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "damon.h"
#include "mig-reason.h"

/* One row of the ledger over a window: a reason, the counter or the difference. */
struct stat_reasons_line {
	const char *name;
	char own[MIG_NAME_MAX + 8];
	const char *kind;
	long id; /* -1: none */
	struct mig_hist_row ch;
	bool counts; /* the hist values apply */
	int64_t signed_pages;
	bool is_signed;
	bool no_count; /* MIGRATED has no value */
};

/* What the exposition says, all of it over the window since the run started. */
struct stat_reasons_prom {
	/* The reasons, then pgmigrate_success's row, then the difference's. */
	const struct stat_reasons_line *ls;
	size_t n;
	unsigned vals;               /* 1u << enum mig_val: the fields the kernel has */
	uint64_t dropped;            /* events the histogram dropped since the start */
	struct timespec started;     /* the baseline's reading, CLOCK_REALTIME */
	double secs;                 /* from the baseline to the latest reading */
	const struct damon_state *d; /* the latest reading's */
};

/* The exposition of p into f.  0 or -EIO. */
int stat_reasons_prom_write(FILE *f, const struct stat_reasons_prom *p);
