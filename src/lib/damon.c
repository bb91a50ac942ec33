// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DAMON's kdamonds, schemes and DAMON_STAT (damon.h).  Every number is
 * read from sysfs and /proc, never assumed: a kernel before 6.11 has no
 * target_nid and no migrate actions, one before 6.17 no DAMON_STAT.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "array.h"
#include "damon.h"
#include "procmaps.h"
#include "sysfs.h"
#include "value.h"

/* A small sysfs file's first line into buf; 0 or -errno. */
static int line(const char *path, char *buf, size_t size)
{
	ssize_t n = sysfs_read_file(path, buf, size);

	if (n < 0)
		return (int)n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int number(const char *path, uint64_t max, uint64_t *v)
{
	char buf[32];
	int r = line(path, buf, sizeof(buf));

	return r < 0 ? r : parse_u64(buf, max, v) < 0 ? -EBADMSG : 0;
}

static int add(struct damon_state *d, const struct damon_scheme *s)
{
	if (array_grow(&d->s, &d->cap, d->n + 1, sizeof(*d->s)) < 0)
		return -ENOMEM;
	d->s[d->n++] = *s;
	return 0;
}

static int read_scheme(struct damon_state *d, struct damon_scheme *s, const char *dir)
{
	char path[320];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/action", dir);
	if (line(path, s->action, sizeof(s->action)) < 0)
		return 0; /* removed under us */
	snprintf(path, sizeof(path), "%s/target_nid", dir);
	s->target_nid = number(path, 65535, &v) == 0 ? (int)v : -1;
	snprintf(path, sizeof(path), "%s/stats/sz_applied", dir);
	s->have_stats = number(path, UINT64_MAX, &s->sz_applied) == 0;
	snprintf(path, sizeof(path), "%s/stats/nr_applied", dir);
	if (number(path, UINT64_MAX, &s->nr_applied) < 0)
		s->nr_applied = 0;
	return add(d, s);
}

static int read_context(struct damon_state *d, struct damon_scheme *s, const char *kdir)
{
	char path[256], dir[256];
	uint64_t n;
	int r = 0;

	snprintf(path, sizeof(path), "%s/contexts/%u/operations", kdir, s->context);
	if (line(path, s->ops, sizeof(s->ops)) < 0)
		s->ops[0] = '\0';
	snprintf(path, sizeof(path), "%s/contexts/%u/schemes/nr_schemes", kdir, s->context);
	if (number(path, 1024, &n) < 0)
		return 0;
	for (s->scheme = 0; s->scheme < n && r == 0; s->scheme++) {
		snprintf(dir, sizeof(dir), "%s/contexts/%u/schemes/%u", kdir, s->context,
			 s->scheme);
		r = read_scheme(d, s, dir);
	}
	return r;
}

static int read_kdamond(struct damon_state *d, unsigned k, bool refresh)
{
	struct damon_scheme s = { .kdamond = k, .pid = -1 };
	char kdir[128], path[160], state[16];
	uint64_t v, n;
	int r = 0;

	snprintf(kdir, sizeof(kdir), DAMON_ADMIN "/%u", k);
	snprintf(path, sizeof(path), "%s/state", kdir);
	s.on = line(path, state, sizeof(state)) == 0 && strcmp(state, "on") == 0;
	/* The kernel copies the stats to sysfs only when asked. */
	if (s.on && refresh && sysfs_is_live())
		(void)sysfs_write_file(path, "update_schemes_stats", 20);
	snprintf(path, sizeof(path), "%s/pid", kdir);
	if (number(path, 1u << 22, &v) == 0)
		s.pid = (long)v;
	snprintf(path, sizeof(path), "%s/contexts/nr_contexts", kdir);
	if (number(path, 1024, &n) < 0)
		return 0;
	for (s.context = 0; s.context < n && r == 0; s.context++)
		r = read_context(d, &s, kdir);
	return r;
}

static bool sysfs_kdamond(const struct damon_state *d, long pid)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->s[i].pid == pid)
			return true;
	return false;
}

/* utime + stime of /proc/PID/stat (fields 14 and 15). */
static int cpu_ticks(long pid, uint64_t *ticks)
{
	char path[32], buf[1024], *p;
	uint64_t u, s;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (sysfs_read_file(path, buf, sizeof(buf)) < 0 || !(p = strrchr(buf, ')')))
		return -ENOENT;
	for (int field = 2; field < 14 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || parse_u64_n(p + 1, strcspn(p + 1, " "), UINT64_MAX, &u) < 0 ||
	    !(p = strchr(p + 1, ' ')) ||
	    parse_u64_n(p + 1, strcspn(p + 1, " "), UINT64_MAX, &s) < 0)
		return -EBADMSG;
	*ticks = u + s;
	return 0;
}

/* DAMON_STAT's kdamond: a kdamond.N thread that no sysfs kdamond is. */
static void find_stat_kdamond(struct damon_state *d)
{
	unsigned *pids = NULL;
	int n = proc_pids(&pids);
	char name[32];

	for (int i = 0; i < n && d->stat_pid < 0; i++)
		if (proc_name(pids[i], name, sizeof(name)) == 0 &&
		    strncmp(name, "kdamond.", 8) == 0 && !sysfs_kdamond(d, pids[i]))
			d->stat_pid = pids[i];
	free(pids);
	if (d->stat_pid >= 0 && cpu_ticks(d->stat_pid, &d->stat_cpu_ticks) < 0)
		d->stat_cpu_ticks = 0;
}

int damon_read(struct damon_state *d, bool refresh, char *why, size_t whylen)
{
	char buf[8];
	uint64_t n;
	int r = 0;

	*d = (struct damon_state){ .stat_pid = -1 };
	d->sysfs = number(DAMON_ADMIN "/nr_kdamonds", 1024, &n) == 0;
	for (unsigned k = 0; d->sysfs && k < n && r == 0; k++)
		r = read_kdamond(d, k, refresh);
	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	d->stat_module = line(DAMON_STAT_ENABLED, buf, sizeof(buf)) == 0;
	d->stat_enabled = d->stat_module && (buf[0] == 'Y' || buf[0] == '1');
	if (d->stat_enabled)
		find_stat_kdamond(d);
	return 0;
}

void damon_free(struct damon_state *d)
{
	free(d->s);
	*d = (struct damon_state){ .stat_pid = -1 };
}

double damon_stat_cpu_seconds(const struct damon_state *d)
{
	long hz = sysconf(_SC_CLK_TCK);

	/* 100: the tick of every Linux ABI, should sysconf() not say. */
	return (double)d->stat_cpu_ticks / (double)(hz > 0 ? hz : 100);
}

bool damon_scheme_migrates(const struct damon_scheme *s)
{
	return strcmp(s->action, "migrate_hot") == 0 || strcmp(s->action, "migrate_cold") == 0;
}

const struct damon_scheme *damon_find(const struct damon_state *d, const struct damon_scheme *s)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->s[i].kdamond == s->kdamond && d->s[i].context == s->context &&
		    d->s[i].scheme == s->scheme)
			return &d->s[i];
	return NULL;
}
