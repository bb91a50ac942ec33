// SPDX-License-Identifier: GPL-2.0-or-later
/* The counter table of `stat`: columns, node selection, reading, printing. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "knobs.h"
#include "out.h"
#include "stat.h"
#include "value.h"
#include "why.h"

/* Adding a column: its enum stat_col value and its entry here (HACKING.md). */
const struct stat_coldesc stat_columns[] = {
	[SCOL_NODE] = {
		.name = "NODE", .json = "node", .help = "node id",
		.kind = STAT_KIND_NODE, .by_default = true,
	},
	[SCOL_NUMA_HIT] = {
		.name = "NUMA_HIT", .json = "numa_hit",
		.help = "allocations served by this node as intended",
		.kind = STAT_KIND_COUNT, .counter = NS_NUMA_HIT, .by_default = true,
	},
	[SCOL_NUMA_MISS] = {
		.name = "NUMA_MISS", .json = "numa_miss",
		.help = "allocations served here though meant for another node",
		.kind = STAT_KIND_COUNT, .counter = NS_NUMA_MISS, .by_default = true,
	},
	[SCOL_NUMA_FOREIGN] = {
		.name = "NUMA_FOREIGN", .json = "numa_foreign",
		.help = "allocations meant for this node but served elsewhere",
		.kind = STAT_KIND_COUNT, .counter = NS_NUMA_FOREIGN, .by_default = true,
	},
	[SCOL_INTERLEAVE_HIT] = {
		.name = "INTERLEAVE_HIT", .json = "interleave_hit",
		.help = "interleaved allocations served here as intended",
		.kind = STAT_KIND_COUNT, .counter = NS_INTERLEAVE_HIT, .by_default = true,
	},
	[SCOL_LOCAL_NODE] = {
		.name = "LOCAL_NODE", .json = "local_node",
		.help = "allocations served here to a CPU of this node",
		.kind = STAT_KIND_COUNT, .counter = NS_LOCAL_NODE, .by_default = true,
	},
	[SCOL_OTHER_NODE] = {
		.name = "OTHER_NODE", .json = "other_node",
		.help = "allocations served here to a CPU of another node",
		.kind = STAT_KIND_COUNT, .counter = NS_OTHER_NODE, .by_default = true,
	},
	[SCOL_LOCAL_PCT] = {
		.name = "LOCAL%", .json = "local_pct",
		.help = "local_node / (local_node + other_node), percent",
		.kind = STAT_KIND_PCT, .counter = NS_LOCAL_NODE, .other = NS_OTHER_NODE,
	},
	[SCOL_MISS_PCT] = {
		.name = "MISS%", .json = "miss_pct",
		.help = "numa_miss / (numa_hit + numa_miss), percent",
		.kind = STAT_KIND_PCT, .counter = NS_NUMA_MISS, .other = NS_NUMA_HIT,
	},
};
/* A column without an entry at the end fails here; one in the middle fails test-stat. */
_Static_assert(sizeof(stat_columns) / sizeof(stat_columns[0]) == SCOL_COUNT,
	       "stat_columns[] needs one entry per enum stat_col value");

unsigned stat_column_flags(void)
{
	return OUT_COL_RIGHT | OUT_COL_NUMBER;
}

static bool is_counter(enum numastat_key k)
{
	return (unsigned)k < NS_STANDARD;
}

struct stat_value stat_value(int col, const struct stat_row *r)
{
	const struct stat_coldesc *d;

	if (col < 0 || col >= SCOL_COUNT)
		return (struct stat_value){ STAT_VAL_NONE };
	d = &stat_columns[col];
	if (d->kind == STAT_KIND_NODE)
		return (struct stat_value){ STAT_VAL_NODE, .n = r->node };
	if (r->err || !is_counter(d->counter))
		return (struct stat_value){ STAT_VAL_NONE };
	if (d->kind == STAT_KIND_COUNT)
		return (struct stat_value){ STAT_VAL_COUNT, .n = r->v[d->counter] };
	if (d->kind == STAT_KIND_PCT && is_counter(d->other)) {
		double num = (double)r->v[d->counter], den = num + (double)r->v[d->other];

		if (den > 0)
			return (struct stat_value){ STAT_VAL_PCT, .num = num, .den = den };
	}
	return (struct stat_value){ STAT_VAL_NONE };
}

bool stat_value_text(const struct stat_value *v, bool compact, char *buf, size_t len)
{
	switch (v->kind) {
	case STAT_VAL_NODE:
		snprintf(buf, len, "%" PRIu64, v->n);
		return true;
	case STAT_VAL_COUNT:
		if (compact)
			fmt_human(v->n, FMT_COUNT, buf, len);
		else
			snprintf(buf, len, "%" PRIu64, v->n);
		return true;
	case STAT_VAL_PCT:
		snprintf(buf, len, "%.1f", 100.0 * v->num / v->den);
		return true;
	default:
		if (len)
			buf[0] = '\0';
		return false;
	}
}

double stat_value_key(const struct stat_value *v)
{
	switch (v->kind) {
	case STAT_VAL_NODE:
	case STAT_VAL_COUNT:
		return (double)v->n;
	case STAT_VAL_PCT:
		return v->num / v->den;
	default:
		return -1;
	}
}

bool stat_value_nonzero(const struct stat_value *v)
{
	return v->kind == STAT_VAL_NODE || (v->kind == STAT_VAL_COUNT && v->n != 0) ||
	       (v->kind == STAT_VAL_PCT && v->num != 0);
}

int stat_column_lookup(const char *name, size_t len)
{
	for (int i = 0; i < SCOL_COUNT; i++)
		if (stat_columns[i].name && strlen(stat_columns[i].name) == len &&
		    strncasecmp(stat_columns[i].name, name, len) == 0)
			return i;
	return -1;
}

void stat_default_columns(struct stat_opts *o)
{
	o->n_cols = 0;
	for (int i = 0; i < SCOL_COUNT; i++)
		if (stat_columns[i].by_default)
			o->cols[o->n_cols++] = i;
}

int stat_columns_parse(struct stat_opts *o, const char *list, const char **bad, size_t *badlen)
{
	const char *p = list;

	if (*p == '+') {
		if (o->n_cols == 0)
			stat_default_columns(o);
		p++;
	} else
		o->n_cols = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int c = stat_column_lookup(p, len);

		if (c < 0 || o->n_cols == STAT_MAX_COLS) {
			*bad = p;
			*badlen = len;
			return c < 0 ? -EINVAL : -E2BIG;
		}
		o->cols[o->n_cols++] = c;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int stat_select_nodes(const struct stat_opts *o, unsigned **ids, struct node_miss *missing)
{
	unsigned *all;
	int n = nodes_enumerate(&all);

	*ids = NULL;
	if (n < 0 || !o->nodes)
		return (*ids = all, n);
	n = rangelist_select(o->nodes_arg, all, (size_t)n, ids, missing);
	free(all);
	return n;
}

size_t stat_read_rows(const unsigned *ids, size_t n, struct stat_row *rows, char (*whys)[WHY_MAX])
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		struct numastat s;
		char why[WHY_MAX];

		rows[i].node = ids[i];
		rows[i].err = stat_numastat_read(ids[i], &s, why, sizeof(why));
		if (rows[i].err < 0) {
			if (whys)
				memcpy(whys[i], why, sizeof(why));
			failed++;
			continue;
		}
		for (int k = 0; k < NS_STANDARD; k++)
			numastat_get(&s, numastat_keys[k], &rows[i].v[k]);
	}
	return failed;
}

bool stat_counters_frozen(void)
{
	struct knob_ref ref;
	struct kval v;
	char why[WHY_MAX];

	return knob_resolve("vm.numa_stat", &ref, why, sizeof(why)) == 0 &&
	       knob_read(&ref, &v) == 0 && knob_freezes_counters(&ref, &v);
}

size_t stat_terminal_width(void)
{
	size_t cols, rows;

	out_terminal_size(&cols, &rows);
	return cols;
}

void stat_iso_time(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
