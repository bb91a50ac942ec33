/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why pages moved, in the kernel's own words: the tracepoint
 * migrate:mm_migrate_pages carries each migrate_pages() call's reason and
 * page counts.  Its `format` file names the reasons (the __print_symbolic
 * table of its print fmt, numbers resolved by the kernel at boot) and the
 * fields; a histogram trigger keyed by reason totals the fields in the
 * kernel, and its `hist` file says the totals.  The reasons are never a
 * table here: kernels add them (demotion in 5.16, damon in 6.11).
 * Implemented by mig-reason.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The event's count fields the ledger sums, as the format file names them. */
enum mig_val {
	MIG_SUCCEEDED,     /* base pages migrated (as pgmigrate_success counts) */
	MIG_FAILED,        /* base pages that failed */
	MIG_THP_SUCCEEDED, /* huge pages moved whole (5.16+) */
	MIG_THP_FAILED,
	MIG_THP_SPLIT, /* huge pages split to be moved */
	MIG_VALS,
};
extern const char *const mig_val_names[MIG_VALS];

#define MIG_REASONS_MAX 64
#define MIG_NAME_MAX 32

struct mig_reason {
	unsigned id;             /* enum migrate_reason's value */
	char name[MIG_NAME_MAX]; /* its name in the trace ("compaction") */
};

/* What the format file says. */
struct mig_format {
	size_t n;
	struct mig_reason reasons[MIG_REASONS_MAX]; /* in the kernel's order */
	unsigned vals;                              /* 1u << enum mig_val: the fields it has */
};

/*
 * Parse an events/migrate/mm_migrate_pages/format file: the fields
 * (succeeded, failed and reason must be there) and the reason table of the
 * print fmt.  A name is lower-case letters, digits and '_'; a number the
 * kernel did not resolve (an enum name left in the table) is refused.
 * 0, or -EBADMSG with why ("print fmt: no __print_symbolic table of reason").
 */
int mig_reason_parse_format(const char *buf, size_t len, struct mig_format *f, char *why,
			    size_t whylen);
/* The reason named id, or NULL when the format has none (a kernel's newer reason). */
const char *mig_reason_name(const struct mig_format *f, unsigned id);

/* One line of the hist file: a reason's totals since the trigger was armed. */
struct mig_hist_row {
	unsigned id;
	uint64_t hits;        /* calls of migrate_pages() */
	uint64_t v[MIG_VALS]; /* the sums of the fields (0 where not a value) */
};
struct mig_hist {
	size_t n;
	struct mig_hist_row rows[MIG_REASONS_MAX];
	uint64_t dropped; /* events the map had no room for: the ledger is short by them */
};

/*
 * Parse a hist file of the triggers mig_reason_trigger() writes: one
 * section per trigger, "{ reason: N } hitcount: H  succeeded: S ..."
 * lines (a reason's values from every section merged) and the Totals.
 * 0, or -EBADMSG with why ("line 7: unknown value 'pages'").
 */
int mig_reason_parse_hist(const char *buf, size_t len, struct mig_hist *h, char *why,
			  size_t whylen);
/* The row of reason id in h, or NULL (none happened). */
const struct mig_hist_row *mig_reason_hist_row(const struct mig_hist *h, unsigned id);

/*
 * A histogram sums at most two fields besides its hitcount
 * (TRACING_MAP_VALS_MAX, kernel/trace/tracing_map.h, is 3): the event's
 * count fields take one trigger per pair, keyed alike, whose hist sections
 * mig_reason_parse_hist() merges by reason.
 */
#define MIG_TRIGGER_VALS 2
#define MIG_TRIGGERS_MAX ((MIG_VALS + MIG_TRIGGER_VALS - 1) / MIG_TRIGGER_VALS)
#define MIG_TRIGGER_MAX 80
/*
 * Trigger command i for f: "hist:keys=reason:vals=succeeded,failed" for
 * 0, the thp fields' pairs after.  The length, 0 past the last, or -ENOSPC.
 */
int mig_reason_trigger(const struct mig_format *f, size_t i, char *buf, size_t size);
