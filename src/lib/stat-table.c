// SPDX-License-Identifier: GPL-2.0-or-later
/* The counter table of `stat`: columns, node selection, reading, printing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "knobs.h"
#include "output.h"
#include "stat.h"

#define NUM (OUT_COL_RIGHT | OUT_COL_NUMBER)

const struct stat_coldesc stat_columns[SCOL_COUNT] = {
	[SCOL_NODE] = { "NODE", "node", 4, NUM, "node id" },
	[SCOL_NUMA_HIT] = { "NUMA_HIT", "numa_hit", 10, NUM,
			    "allocations served by this node as intended" },
	[SCOL_NUMA_MISS] = { "NUMA_MISS", "numa_miss", 10, NUM,
			     "allocations served here though meant for another node" },
	[SCOL_NUMA_FOREIGN] = { "NUMA_FOREIGN", "numa_foreign", 10, NUM,
				"allocations meant for this node but served elsewhere" },
	[SCOL_INTERLEAVE_HIT] = { "INTERLEAVE_HIT", "interleave_hit", 10, NUM,
				  "interleaved allocations served here as intended" },
	[SCOL_LOCAL_NODE] = { "LOCAL_NODE", "local_node", 10, NUM,
			      "allocations served here to a CPU of this node" },
	[SCOL_OTHER_NODE] = { "OTHER_NODE", "other_node", 10, NUM,
			      "allocations served here to a CPU of another node" },
	[SCOL_LOCAL_PCT] = { "LOCAL%", "local_pct", 6, NUM,
			     "local_node / (local_node + other_node), percent" },
	[SCOL_MISS_PCT] = { "MISS%", "miss_pct", 6, NUM,
			    "numa_miss / (numa_hit + numa_miss), percent" },
};

int stat_column_lookup(const char *name, size_t len)
{
	for (int i = 0; i < SCOL_COUNT; i++)
		if (strlen(stat_columns[i].name) == len &&
		    strncasecmp(stat_columns[i].name, name, len) == 0)
			return i;
	return -1;
}

void stat_default_columns(struct stat_opts *o)
{
	o->n_cols = 0;
	for (int i = SCOL_NODE; i <= SCOL_OTHER_NODE; i++)
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
	n = nodelist_select(o->nodes_arg, all, (size_t)n, ids, missing);
	free(all);
	return n;
}

size_t stat_read_rows(const unsigned *ids, size_t n, struct stat_row *rows,
		      char (*whys)[STAT_WHY_MAX])
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		struct numastat s;
		char why[STAT_WHY_MAX];

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
	char why[256];

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
