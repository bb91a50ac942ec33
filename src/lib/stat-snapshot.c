// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat --snapshot NAME and --since NAME: every counter view (table,
 * --compat, -J, --prometheus) reads nodeN/numastat through
 * stat_numastat_read(), which answers from the snapshot instead, or adds the
 * snapshot's counts to the live ones (what the kernel zeroed at the reset).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "snapshot.h"
#include "stat.h"

static struct snapshot saved;
static bool active, adding;

/* The last snapshot by time, or -ENOENT when none was ever saved. */
static int latest(int fd, char *name, size_t len)
{
	struct snapshot *v;
	int n = snapshot_list(fd, &v);

	if (n > 0)
		snprintf(name, len, "%s", v[n - 1].name);
	snapshot_list_free(v, n > 0 ? (size_t)n : 0);
	return n < 0 ? n : n == 0 ? -ENOENT : 0;
}

int stat_snapshot_load(const char *data_dir, const char *name, bool add, char *why, size_t whylen)
{
	char dir[4200], last[SNAPSHOT_NAME_MAX];
	int fd = snapshot_dir_open(data_dir, dir, sizeof(dir), why, whylen), r;

	if (fd == -ENOENT && strcmp(name, "latest") == 0)
		snprintf(why, whylen, "no counter snapshots in %s/" SNAPSHOT_SUBDIR, data_dir);
	if (fd < 0)
		return fd;
	r = strcmp(name, "latest") == 0 ? latest(fd, last, sizeof(last)) : 0;
	if (r == -ENOENT)
		snprintf(why, whylen, "no counter snapshots in %s", dir);
	else if (r < 0)
		snprintf(why, whylen, "%s: %s", dir, strerror(-r));
	else
		r = snapshot_read(fd, dir, strcmp(name, "latest") == 0 ? last : name, &saved, why,
				  whylen);
	close(fd);
	active = r == 0;
	adding = add;
	return r;
}

const struct snapshot *stat_snapshot(void)
{
	return active ? &saved : NULL;
}

static const struct numastat *saved_node(unsigned id)
{
	for (size_t i = 0; i < saved.n; i++)
		if (saved.ids[i] == id)
			return &saved.st[i];
	return NULL;
}

/* What the kernel counted before the reset, plus what it counted since. */
static void add_counts(struct numastat *live, const struct numastat *before)
{
	for (size_t k = 0; k < before->n; k++) {
		const struct counter *c = &before->c[k];
		size_t i = 0;

		while (i < live->n && strcmp(live->c[i].name, c->name) != 0)
			i++;
		if (i == live->n) {
			if (live->n == NUMASTAT_MAX_COUNTERS)
				continue;
			live->c[live->n++] = (struct counter){ .value = 0 };
			memcpy(live->c[i].name, c->name, sizeof(c->name));
		}
		live->c[i].value = live->c[i].value > UINT64_MAX - c->value
					   ? UINT64_MAX
					   : live->c[i].value + c->value;
	}
}

int stat_numastat_read(unsigned id, struct numastat *out, char *why, size_t whylen)
{
	const struct numastat *s = active ? saved_node(id) : NULL;
	int r;

	if (active && !adding) {
		if (!s) {
			snprintf(why, whylen, "not in snapshot %s", saved.name);
			return -ENOENT;
		}
		*out = *s;
		return 0;
	}
	r = numastat_read(id, out, why, whylen);
	if (r == 0 && s)
		add_counts(out, s);
	return r;
}

static int cmp_id(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The snapshot's nodes, with --nodes read by the same rules as on the live system. */
int stat_snapshot_nodes(const struct stat_opts *o, unsigned **ids, struct node_miss *missing)
{
	unsigned *all = malloc((saved.n ? saved.n : 1) * sizeof(*all));
	int n;

	*ids = NULL;
	if (!all)
		return -ENOMEM;
	memcpy(all, saved.ids, saved.n * sizeof(*all));
	qsort(all, saved.n, sizeof(*all), cmp_id);
	if (!o->nodes) {
		*ids = all;
		return (int)saved.n;
	}
	n = rangelist_select(o->nodes_arg, all, saved.n, ids, missing);
	free(all);
	return n;
}

void stat_counters_time(struct timespec *ts)
{
	if (active && !adding)
		*ts = saved.time;
	else
		clock_gettime(CLOCK_REALTIME, ts);
}

void stat_snapshot_free(void)
{
	snapshot_free(&saved);
	active = false;
}
