// SPDX-License-Identifier: GPL-2.0-or-later
/* The processes of a cgroup and its descendants (cg-procs.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cg-find.h"
#include "cg-procs.h"
#include "sysfs.h"
#include "value.h"

struct pids {
	unsigned *v;
	size_t n, cap, more;
};

/* One cgroup.procs: a pid a line.  0, -ENOENT, -ENOMEM. */
static int read_procs(const char *root, const char *cg, struct pids *l)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX + 32];
	char *buf = malloc(SYSFS_MAX_FILE), *p, *nl;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	cg_file_path(root, cg, "cgroup.procs", path, sizeof(path));
	n = sysfs_read_file(path, buf, SYSFS_MAX_FILE);
	for (p = buf; n > 0 && (nl = strchr(p, '\n')); p = nl + 1) {
		uint64_t pid;

		if (parse_u64_n(p, (size_t)(nl - p), UINT_MAX, &pid) < 0)
			continue;
		if (l->n == CG_PROCS_MAX) {
			l->more++;
			continue;
		}
		if (array_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0) {
			free(buf);
			return -ENOMEM;
		}
		l->v[l->n++] = (unsigned)pid;
	}
	free(buf);
	return n < 0 ? (int)n : 0;
}

static int walk(const char *root, const char *cg, int depth, struct pids *l)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX + 32], child[CG_PATH_MAX];
	struct dirent *e;
	DIR *d;
	int r = read_procs(root, cg, l);

	if (r < 0 || depth == CG_PROCS_DEPTH)
		return r;
	cg_file_path(root, cg, NULL, path, sizeof(path));
	if (!(d = sysfs_opendir(path)))
		return 0;
	while (r != -ENOMEM && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", strcmp(cg, "/") ? cg : "",
				     e->d_name) >= sizeof(child))
			continue;
		r = walk(root, child, depth + 1, l);
	}
	closedir(d);
	return r == -ENOMEM ? r : 0;
}

static int cmp_pid(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int cg_procs_read(const char *root, const char *cg, unsigned **pids, size_t *more)
{
	struct pids l = { 0 };
	size_t o = 0;
	int r = walk(root, cg, 0, &l);

	*pids = NULL;
	*more = 0;
	if (r < 0) {
		free(l.v);
		return r;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_pid);
	for (size_t i = 0; i < l.n; i++)
		if (!o || l.v[o - 1] != l.v[i])
			l.v[o++] = l.v[i];
	*pids = l.v;
	*more = l.more;
	return (int)o;
}
