/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `stat`: per-node NUMA statistics.  cmd-stat.c parses every option into
 * struct stat_opts and runs the one-shot modes; interval sampling
 * (stat-interval.c) and per-process memory (stat-pid.c) get the same options
 * and print their counters through the same column table, so a delta sample
 * looks like a one-shot table.  Helpers here return 0 or -errno and never
 * print messages; the table printers write to stdout only.  What only the
 * commands use (messages, exit codes) is in cmd/cmd-stat.h.
 * stat-counters.h prints them.  Implemented by stat-table.c, stat-lines.c
 * and stat-snapshot.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nodes.h"
#include "why.h"

/*
 * The columns of the counter table; `-o` names them (case-insensitive).
 * A column is its value here and its entry in stat_columns[] (stat-table.c),
 * which says how to compute it: every printer asks stat_value().
 */
enum stat_col {
	SCOL_NODE,
	SCOL_NUMA_HIT,
	SCOL_NUMA_MISS,
	SCOL_NUMA_FOREIGN,
	SCOL_INTERLEAVE_HIT,
	SCOL_LOCAL_NODE,
	SCOL_OTHER_NODE,
	SCOL_LOCAL_PCT,
	SCOL_MISS_PCT,
	SCOL_COUNT,
};

/* How a column gets its value from a row; 0 is an entry left unfilled. */
enum stat_kind {
	STAT_KIND_UNSET,
	STAT_KIND_NODE,  /* the row's node id (TOTAL on the sum row) */
	STAT_KIND_COUNT, /* the counter .counter */
	STAT_KIND_PCT,   /* .counter / (.counter + .other), in percent */
};

struct stat_coldesc {
	const char *name; /* header and -o name: "NUMA_HIT", "LOCAL%" */
	const char *json; /* JSON key: "numa_hit", "local_pct" */
	const char *help; /* one line for --help and the man page */
	enum stat_kind kind;
	enum numastat_key counter, other;
	bool by_default; /* among the columns shown without -o */
};
/* SCOL_COUNT entries, indexed by enum stat_col (unsized: stat-table.c checks the count). */
extern const struct stat_coldesc stat_columns[];

/* Every column is a number, right-aligned: its OUT_COL_* flags. */
unsigned stat_column_flags(void);

#define STAT_MAX_COLS 32

/* Every option of `stat`, parsed by cmd-stat.c. */
struct stat_opts {
	/* --nodes LIST: NULL/"all" = every node. nodes[] is sorted, unique. */
	const char *nodes_arg;
	unsigned *nodes;
	size_t n_nodes;

	/* -o: the columns in order (SCOL_*); n_cols == 0 before parsing. */
	int cols[STAT_MAX_COLS];
	size_t n_cols;

	bool noheadings;         /* -n */
	bool raw;                /* -r */
	bool json;               /* -J (global) */
	bool bytes;              /* -b: sizes in bytes, not human units */
	bool meminfo;            /* -m: per-node memory instead of counters */
	bool compat;             /* --compat: numastat's output, byte for byte */
	bool skip_zero;          /* -z: drop all-zero rows and columns */
	bool compact;            /* --compact: narrowest columns, no padding */
	bool prometheus;         /* --prometheus: text exposition format on stdout */
	const char *textfile;    /* --textfile DIR: DIR/numastatctl.prom, atomically */
	bool prom_node_exporter; /* --prometheus-names=node_exporter */
	bool prom_names_set;     /* --prometheus-names was given */

	/* --sort COL: an SCOL_* column of the counter table (sort_set). */
	int sort_col;
	bool sort_set;

	/* --width N or the terminal's (TIOCGWINSZ / COLUMNS); 0 = unlimited. */
	size_t width;

	/* Interval mode (stat-interval.c): stat INTERVAL [COUNT]. */
	double interval; /* seconds; 0 = one-shot */
	long count;      /* samples; 0 = until interrupted */
	bool rate;       /* --rate: per second rather than per interval */
	bool timestamp;  /* -t: a time column on each line */
	bool totals;     /* --totals: the totals since the start, at the end */

	/* --pid (stat-pid.c): PIDs or patterns as given. */
	char **pids;
	size_t n_pids, cap_pids;
	bool interleave; /* --interleave: their mappings under weighted interleave */

	/* The arguments of the option that picked a view (--cgroup PATTERN), as given. */
	char **view_args;
	size_t n_view_args, cap_view_args;
	/* --container, --pod: containers and pods for the cgroup view, as given. */
	char **containers, **pods;
	size_t n_containers, cap_containers, n_pods, cap_pods;

	/* The arguments as given, for the views that resolve them themselves. */
	const char *cols_arg;   /* -o: -m resolves meminfo field names */
	const char *sort_arg;   /* --sort: -m takes a field, --compat a node id or total */
	const char *compat_arg; /* --compat=LETTERS: numastat's option letters (c, m, n, z) */

	/* --snapshot NAME (saved counters) or --since NAME (live plus saved). */
	const char *snapshot_arg;
	bool since;
};

/* One node's counters as the table shows them. */
struct stat_row {
	unsigned node;
	int err;                 /* 0, or -errno/-EBADMSG: the row is left out */
	uint64_t v[NS_STANDARD]; /* indexed by enum numastat_key */
};

/* One cell: what the table, the interval lines, JSON and --sort all show. */
struct stat_value {
	enum { STAT_VAL_NONE, STAT_VAL_NODE, STAT_VAL_COUNT, STAT_VAL_PCT } kind;
	uint64_t n;      /* NODE: the id; COUNT: the count */
	double num, den; /* PCT: num / den, den > 0 */
};
/*
 * Column col of row r: the only place that picks a column's counters out of
 * r->v.  NONE for a row with err (but for NODE), a percentage of nothing, or
 * an entry that is not filled in (a column out of the table, a counter out
 * of v[]): never a read out of bounds.
 */
struct stat_value stat_value(int col, const struct stat_row *r);
/* Its text ("123", "7.3M" when compact, "99.5"); false (buf "") when NONE. */
bool stat_value_text(const struct stat_value *v, bool compact, char *buf, size_t len);
/* Its --sort key, larger first: the count, the fraction; -1 when NONE. */
double stat_value_key(const struct stat_value *v);
/* Whether -z keeps it: not zero (a node id always). */
bool stat_value_nonzero(const struct stat_value *v);

/*
 * The nodes to show: those of --nodes (rangelist_select(): a single id and
 * a range's end points must exist, else -ENOENT and *missing set to the
 * absent id), else every node.
 * *ids is malloc'ed.  Returns the count or -errno.
 */
int stat_select_nodes(const struct stat_opts *o, unsigned **ids, struct node_miss *missing);

/*
 * Read nodeN/numastat for each id into rows[i] (node, v[], err).  A failed
 * node gets err and its reason in whys[i] (may be NULL) and the others are
 * still read.  Returns the number of failed nodes.
 */
size_t stat_read_rows(const unsigned *ids, size_t n, struct stat_row *rows, char (*whys)[WHY_MAX]);

/*
 * Parse an -o list ("NODE,LOCAL%", "+MISS%") into o->cols.  0, -EINVAL (an
 * unknown name at *bad) or -E2BIG (more than STAT_MAX_COLS).
 */
int stat_columns_parse(struct stat_opts *o, const char *list, const char **bad, size_t *badlen);
/* The default columns: NODE and the six counters. */
void stat_default_columns(struct stat_opts *o);
/* The column for a name (case-insensitive), or -1. */
int stat_column_lookup(const char *name, size_t len);

/* True when vm.numa_stat reads 0: the counters are frozen at zero. */
bool stat_counters_frozen(void);

/* ISO 8601 UTC ("2026-01-31T12:00:00Z"): what a script can sort and parse anywhere. */
struct timespec;
void stat_iso_time(const struct timespec *ts, char *buf, size_t len);

/* The terminal's width: TIOCGWINSZ on stdout, else $COLUMNS; 0 = not a tty. */
size_t stat_terminal_width(void);

/*
 * --snapshot NAME / --since NAME (stat-snapshot.c): load the snapshot (NAME
 * or "latest") from <data_dir>/snapshots; from then on
 * stat_numastat_read() answers from it (add false) or adds it to the live
 * counters (add true).  0, -EINVAL (not a snapshot name), -ENOENT (no such
 * snapshot) or -errno, with why.
 */
struct snapshot;
int stat_snapshot_load(const char *data_dir, const char *name, bool add, char *why, size_t whylen);
/* The loaded snapshot, or NULL. */
const struct snapshot *stat_snapshot(void);
/* numastat_read(), or the snapshot's counters (-ENOENT: not in it), or their sum. */
int stat_numastat_read(unsigned id, struct numastat *out, char *why, size_t whylen);
/* --snapshot: the snapshot's nodes (o->nodes of them); count, or -ENOENT with *missing. */
int stat_snapshot_nodes(const struct stat_opts *o, unsigned **ids, struct node_miss *missing);
void stat_snapshot_free(void);
/* When the counters shown were read: the snapshot's time under --snapshot, else now. */
void stat_counters_time(struct timespec *ts);
/* Interval mode's vmstat-style lines (stat-lines.c). */
struct stat_lines {
	const struct stat_opts *o; /* the columns shown */
	bool timestamp;            /* -t: a TIME column first */
	bool time_apart;           /* -t on a screen too narrow for the column: a line of its own */
	size_t width[STAT_MAX_COLS]; /* each column's width so far */
	size_t screen_rows;          /* the terminal's height; 0: not a terminal */
	size_t since_header;         /* lines printed since the last header */
	bool header_due;
};
void stat_lines_init(struct stat_lines *l, const struct stat_opts *shown, bool timestamp,
		     size_t screen_rows);
/* The width of a line with the columns as wide as their names (the header). */
size_t stat_lines_width(const struct stat_lines *l);
/*
 * Fit the lines into width columns: when only -t's TIME column makes them
 * too wide, the time goes on a line of its own before each sample.  True
 * when the lines fit (otherwise each sample is a folded table).
 */
bool stat_lines_fit(struct stat_lines *l, size_t width);
/*
 * One line per row ("-" where a row has no value: err != 0), the header
 * first when due: at the start, once per screenful, or after a column grew.
 * when is the TIME column's text.
 */
void stat_lines_print(struct stat_lines *l, const struct stat_row *rows, size_t n,
		      const char *when);
