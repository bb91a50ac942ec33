/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a trial (apply --try, set --try) compares: one reading of the NUMA
 * counters (each node's numastat and vmstat, and /proc/vmstat), the
 * metrics two readings give (a rate per second or a percentage, for each
 * node where the kernel keeps the counter per node and for the whole
 * machine), the spread of a baseline's one-second values, and the verdict
 * on the trial's window against that spread.  Implemented by
 * trial-counters.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vmstat.h"

/* The scope of the whole machine, beside node ids. */
#define TRIAL_ALL (-1)

/* The counters a reading keeps: four of nodeN/numastat, then the vmstat keys. */
enum trial_key {
	TK_NUMA_HIT,
	TK_NUMA_MISS,
	TK_LOCAL_NODE,
	TK_OTHER_NODE,
	TK_VMS, /* TK_VMS + an enum vms_key */
	TK_COUNT = TK_VMS + VMS_COUNT,
};
_Static_assert(TK_COUNT <= 64, "struct trial_scope.have holds 64 keys");
#define TK_BIT(k) ((uint64_t)1 << (k))
#define TK_NUMASTAT_MASK (TK_BIT(TK_VMS) - 1)

/* A key's name as its file spells it ("numa_hit", "pgdemote_kswapd"). */
const char *trial_key_name(int k);
/* The key called name[0..len), or -1. */
int trial_key_of(const char *name, size_t len);

/* One node's counters, or the machine's (node TRIAL_ALL). */
struct trial_scope {
	int node;
	uint64_t have; /* TK_BIT(k): key k was read */
	uint64_t v[TK_COUNT];
};

/* One reading: s[0] is the machine, then each node by ascending id. */
struct trial_counters {
	int64_t real_ns; /* CLOCK_REALTIME */
	int64_t mono_ns; /* CLOCK_MONOTONIC: windows are measured on it */
	size_t n, cap;
	struct trial_scope *s;
};

/*
 * Read every counter now.  The machine's numastat keys are the sum over
 * the nodes; its vmstat keys come from /proc/vmstat.  A node without a
 * vmstat file has only its numastat keys.  0, or -errno with why.
 */
int trial_counters_read(struct trial_counters *c, char *why, size_t whylen);
/* The scope of node (or TRIAL_ALL), NULL when absent. */
struct trial_scope *trial_counters_scope(const struct trial_counters *c, int node);
/* A new empty scope for node after the last one (ids ascending); NULL when out of memory. */
struct trial_scope *trial_counters_add(struct trial_counters *c, int node);
void trial_counters_free(struct trial_counters *c);

/* What the report shows: a rate per second, or a percentage of two sums. */
enum trial_kind {
	TRIAL_RATE,
	TRIAL_PCT,
};

enum trial_metric_id {
	TM_NUMA_HIT,
	TM_NUMA_MISS,
	TM_LOCAL_PCT,
	TM_MISS_PCT,
	TM_HINT_FAULTS,
	TM_HINT_LOCAL_PCT,
	TM_BALANCING_MIGRATED,
	TM_PROMOTED,
	TM_DEMOTED,
	TM_MIGRATED,
	TM_MIGRATE_FAILED,
	TM_SCANNED,
	TM_RECLAIMED,
	TM_COUNT,
};

struct trial_metric {
	const char *name; /* in text and as a Prometheus label: "numa_hit", "local_pct" */
	const char *text; /* the text column: "numa_hit/s", "LOCAL%" */
	enum trial_kind kind;
	uint64_t num; /* keys summed: the rate, or the percentage's numerator */
	uint64_t den; /* TRIAL_PCT: the denominator's keys */
	const char *help;
};
extern const struct trial_metric trial_metrics[TM_COUNT];
/* The metric called name, or -1. */
int trial_metric_of(const char *name);

/* A metric of one scope between two readings. */
enum trial_value_state {
	TRIAL_ABSENT, /* a key the kernel lacks (in either reading) */
	TRIAL_RESET,  /* a counter went down: vm.numa_stat 1 -> 0, a node gone and back */
	TRIAL_NONE,   /* no event to take a percentage of, or no time between the readings */
	TRIAL_OK,
};

struct trial_value {
	enum trial_value_state state;
	double v; /* per second, or percent */
	uint64_t num, den;
	double secs;
};

/* Metric m of scope node from reading a to reading b. */
void trial_value(const struct trial_counters *a, const struct trial_counters *b, int m, int node,
		 struct trial_value *out);

/* The one-second values of a metric in one scope during the baseline. */
struct trial_spread {
	int metric, node;
	uint64_t n;          /* one-second values taken */
	double sd, min, max; /* their standard deviation, least and largest */
	double mean_, m2_;   /* Welford's running sums while sampling */
};

struct trial_spreads {
	struct trial_spread *v;
	size_t n, cap;
};

/* Add the values of every metric and scope from a to b (one sample).  0 or -ENOMEM. */
int trial_spreads_add(struct trial_spreads *s, const struct trial_counters *a,
		      const struct trial_counters *b);
/* The spread of metric m in scope node, or NULL. */
const struct trial_spread *trial_spreads_find(const struct trial_spreads *s, int m, int node);
/* A spread read back (trial.h): NULL when out of memory. */
struct trial_spread *trial_spreads_new(struct trial_spreads *s, int m, int node);
void trial_spreads_free(struct trial_spreads *s);

/* Fewer one-second values than this give no spread to judge by. */
#define TRIAL_MIN_SAMPLES 3
/*
 * A rate that changed by fewer events than this over the whole trial
 * window is within noise: a --foreground run allocates about 20 pages of
 * its own in the window (measured on the idle 4-node guest), which an idle
 * machine's counters show.
 */
#define TRIAL_OWN_EVENTS 64.0
/*
 * The same for the allocation counters (numa_hit, numa_miss): a trial's
 * window holds process starts of its own, each more than that.  Measured
 * as numa_hit on an idle guest: systemd starting the timer's revert
 * service ~400, the revert's own start ~95, a status in the window ~95
 * plus ~260 for the systemctl it asks; /bin/true ~80.  All of them, and
 * some more.
 */
#define TRIAL_OWN_ALLOC_EVENTS 1024.0

enum trial_verdict {
	TRIAL_HIGHER,       /* above the baseline's spread */
	TRIAL_LOWER,        /* below it */
	TRIAL_WITHIN_NOISE, /* inside it */
	TRIAL_NO_BASELINE,  /* no baseline, or too few of its seconds held an event */
	TRIAL_NO_EVENTS,    /* the trial window held no event to take a percentage of */
	TRIAL_COUNTERS_RESET,
};
/* "higher", "lower", "within-noise", "no-baseline", "no-events", "reset" */
const char *trial_verdict_name(enum trial_verdict v);

/* One line of the report: metric m of scope node. */
struct trial_row {
	int metric, node;
	struct trial_value base, trial;
	const struct trial_spread *spread; /* NULL: no baseline */
	bool have_change;
	double change_pct; /* (trial - base) / base, percent */
	enum trial_verdict verdict;
};

/*
 * The report's rows: every metric (in trial_metrics[] order), the machine
 * first, then each node that keeps it, where either window has it.  The
 * baseline is b0 to b1 (NULL, NULL: none) with its spreads, the trial t0 to
 * t1.  Within noise: |trial - baseline| <= max(2 sd, 1 a second or 1
 * percentage point, and for a rate TRIAL_OWN_EVENTS over the window,
 * TRIAL_OWN_ALLOC_EVENTS for the allocation counters).  The
 * count, with *rows malloc'ed, or -ENOMEM.
 */
int trial_rows(const struct trial_counters *b0, const struct trial_counters *b1,
	       const struct trial_spreads *sp, const struct trial_counters *t0,
	       const struct trial_counters *t1, struct trial_row **rows);
