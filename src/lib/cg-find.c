// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding cgroups in the v2 hierarchy (cg-find.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cg-find.h"
#include "str-index.h"
#include "sysfs.h"

/* A tree deeper or larger than this is a loop in a dump, not a machine. */
#define WALK_DEPTH_MAX 64
#define WALK_DIRS_MAX 200000

static bool exists(const char *path, int flags)
{
	int fd = sysfs_open(path, flags);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Does the space-separated word list in file contain word? */
static bool file_has_word(const char *file, const char *word)
{
	char buf[4096];
	size_t wl = strlen(word);
	ssize_t n = sysfs_read_file(file, buf, sizeof(buf));

	for (char *p = buf; n > 0 && *p;) {
		size_t l = strcspn(p, " \n");

		if (l == wl && memcmp(p, word, wl) == 0)
			return true;
		p += l;
		p += strspn(p, " \n");
	}
	return false;
}

enum cg_root_state cg_root_find(char *root, size_t len)
{
	static const char *const mounts[] = { CG_MOUNT, CG_HYBRID };
	char path[128];

	root[0] = '\0';
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", mounts[i]);
		if (!exists(path, O_RDONLY))
			continue;
		snprintf(root, len, "%s", mounts[i]);
		if (file_has_word(path, "memory"))
			return CG_ROOT_OK;
		break;
	}
	if (exists(CG_V1_MEMORY "/memory.numa_stat", O_RDONLY) ||
	    exists(CG_V1_MEMORY "/memory.usage_in_bytes", O_RDONLY))
		return CG_ROOT_V1_ONLY;
	return root[0] ? CG_ROOT_NO_MEMORY : CG_ROOT_NONE;
}

void cg_list_free(struct cg_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->path[i]);
	free(l->path);
	free(l->matched);
	str_index_free(&l->index);
	*l = (struct cg_list){ 0 };
}

bool cg_is_pattern(const char *arg)
{
	return strpbrk(arg, "*?[") != NULL;
}

size_t cg_unit_type_len(const char *name, size_t len)
{
	static const char *const types[] = { ".service", ".scope", ".slice",
					     ".socket",  ".mount", ".swap" };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t tl = strlen(types[i]);

		if (len > tl && memcmp(name + len - tl, types[i], tl) == 0)
			return tl;
	}
	return 0;
}

bool cg_is_unit(const char *name)
{
	return !strchr(name, '/') && cg_unit_type_len(name, strlen(name)) > 0;
}

void cg_file_path(const char *root, const char *cg, const char *file, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s", root, strcmp(cg, "/") == 0 ? "" : cg, file ? "/" : "",
		 file ? file : "");
}

/* Append a copy of path. */
static int list_push(struct cg_list *l, const char *path, bool matched)
{
	size_t cap_path = l->cap; /* path and matched share l->cap */
	char *copy;

	if (array_grow(&l->path, &cap_path, l->n + 1, sizeof(*l->path)) < 0 ||
	    array_grow(&l->matched, &l->cap, l->n + 1, sizeof(*l->matched)) < 0)
		return -ENOMEM;
	if (!(copy = strdup(path)))
		return -ENOMEM;
	l->matched[l->n] = matched;
	l->path[l->n++] = copy;
	return 0;
}

int cg_list_add(struct cg_list *l, const char *path, bool matched)
{
	ssize_t at;

	/* Indexed here, not in list_push(): a caller may append on its own. */
	if (str_index_update(&l->index, l->path, l->n) < 0)
		return -ENOMEM;
	if ((at = str_index_find(&l->index, l->path, path)) >= 0) {
		l->matched[at] &= matched;
		return 0;
	}
	return list_push(l, path, matched);
}

/*
 * A user's path into "/a/b": the mount point in front is dropped, empty
 * components and a trailing '/' go; "." and ".." are refused (a cgroup
 * path names a place in the tree, and ".." would leave it).
 */
static int clean_path(const char *root, const char *arg, char *out, size_t size)
{
	size_t rl = strlen(root), j = 0;
	const char *p = arg;

	if (strncmp(arg, root, rl) == 0 && (arg[rl] == '/' || !arg[rl]))
		p = arg + rl;
	while (*p) {
		size_t l;

		p += strspn(p, "/");
		l = strcspn(p, "/");
		if (l == 0)
			break;
		if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
		if (j + l + 2 > size)
			return -ENAMETOOLONG;
		out[j++] = '/';
		memcpy(out + j, p, l);
		j += l;
		p += l;
	}
	if (j == 0)
		out[j++] = '/';
	out[j] = '\0';
	return 0;
}

static bool is_cgroup(const char *root, const char *cg)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX];

	cg_file_path(root, cg, NULL, path, sizeof(path));
	return exists(path, O_RDONLY | O_DIRECTORY);
}

/* What the walk looks for, and what it found. */
struct walk {
	const char *root;
	const char *pattern; /* a glob; NULL: look for name */
	bool whole_path;     /* the pattern has '/': match the path, not the name */
	const char *name;    /* a unit's name */
	struct cg_list *out;
	char found[CG_PATH_MAX]; /* name: the shallowest match */
	unsigned found_depth;
	size_t dirs;
	int err;
};

static bool matches(const struct walk *w, const char *cg, const char *base)
{
	if (!w->pattern)
		return strcmp(base, w->name) == 0;
	if (w->whole_path)
		return fnmatch(w->pattern + (w->pattern[0] == '/'), cg + 1, FNM_PATHNAME) == 0;
	return fnmatch(w->pattern, base, 0) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The subdirectories of cg, sorted, into *names (each malloc'ed). */
static int children(const char *root, const char *cg, char ***names, size_t *n)
{
	char path[CG_PATH_MAX + CG_ROOT_MAX];
	struct cg_list l = { 0 };
	struct dirent *de;
	DIR *d;

	cg_file_path(root, cg, NULL, path, sizeof(path));
	if (!(d = sysfs_opendir(path)))
		return -errno;
	while ((de = readdir(d))) {
		char sub[CG_PATH_MAX];

		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		/* A file system without d_type: only directories are cgroups. */
		snprintf(sub, sizeof(sub), "%s/%s", strcmp(cg, "/") ? cg : "", de->d_name);
		if (de->d_type == DT_UNKNOWN && !is_cgroup(root, sub))
			continue;
		if (list_push(&l, de->d_name, false) < 0) {
			closedir(d);
			cg_list_free(&l);
			return -ENOMEM;
		}
	}
	closedir(d);
	if (l.n > 1)
		qsort(l.path, l.n, sizeof(*l.path), cmp_str);
	*names = l.path;
	*n = l.n;
	free(l.matched); /* the names are the caller's now; the flags are no one's */
	return 0;
}

static void visit(struct walk *w, const char *cg, unsigned depth)
{
	char **names = NULL, sub[CG_PATH_MAX];
	size_t n = 0;

	if (w->err || depth > WALK_DEPTH_MAX || ++w->dirs > WALK_DIRS_MAX ||
	    children(w->root, cg, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && !w->err; i++) {
		int l = snprintf(sub, sizeof(sub), "%s/%s", strcmp(cg, "/") ? cg : "", names[i]);

		if (l < 0 || (size_t)l >= sizeof(sub))
			continue;
		if (matches(w, sub, names[i])) {
			if (w->pattern && cg_list_add(w->out, sub, true) < 0)
				w->err = -ENOMEM;
			if (!w->pattern && (!w->found[0] || depth + 1 < w->found_depth)) {
				snprintf(w->found, sizeof(w->found), "%s", sub);
				w->found_depth = depth + 1;
			}
		}
		visit(w, sub, depth + 1);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int resolve_pattern(const char *root, const char *arg, struct cg_list *out, char *why,
			   size_t whylen)
{
	struct walk w = {
		.root = root, .pattern = arg, .whole_path = strchr(arg, '/') != NULL, .out = out
	};
	size_t before = out->n;

	visit(&w, "/", 0);
	if (w.err) {
		snprintf(why, whylen, "out of memory");
		return w.err;
	}
	return (int)(out->n - before);
}

/* "a-b-c.slice" -> "/a.slice/a-b.slice/a-b-c.slice"; "-.slice" -> "/". */
static void slice_path(const char *unit, char *out, size_t size)
{
	size_t stem = strlen(unit) - strlen(".slice"), j = 0;

	out[0] = '\0';
	if (strcmp(unit, "-.slice") == 0) {
		snprintf(out, size, "/");
		return;
	}
	for (size_t i = 1; i <= stem && j < size; i++)
		if (i == stem || unit[i] == '-')
			j += (size_t)snprintf(out + j, size - j, "/%.*s.slice", (int)i, unit);
}

static int resolve_unit(const char *root, const char *unit, struct cg_list *out, char *why,
			size_t whylen)
{
	struct walk w = { .root = root, .name = unit };
	char path[CG_PATH_MAX];
	size_t len = strlen(unit);

	if (len > 6 && strcmp(unit + len - 6, ".slice") == 0)
		slice_path(unit, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "/system.slice/%s", unit);
	if (is_cgroup(root, path))
		return cg_list_add(out, path, false) < 0 ? -ENOMEM : 1;
	visit(&w, "/", 0);
	if (w.found[0])
		return cg_list_add(out, w.found, false) < 0 ? -ENOMEM : 1;
	snprintf(why, whylen, "no such unit's cgroup (not %s, nor anywhere under %s)", path, root);
	return -ENOENT;
}

int cg_resolve(const char *root, const char *arg, struct cg_list *out, char *why, size_t whylen)
{
	char path[CG_PATH_MAX];
	int r;

	/*
	 * '[', '*' and '?' are allowed in a cgroup's name: a path that names
	 * a cgroup is that cgroup, and a pattern only where none is.
	 */
	if (cg_is_pattern(arg) &&
	    (clean_path(root, arg, path, sizeof(path)) < 0 || !is_cgroup(root, path)))
		return resolve_pattern(root, arg, out, why, whylen);
	if (cg_is_unit(arg) && !cg_is_pattern(arg))
		return resolve_unit(root, arg, out, why, whylen);
	r = clean_path(root, arg, path, sizeof(path));
	if (r < 0) {
		snprintf(why, whylen, "%s",
			 r == -EINVAL ? "'.' and '..' are not allowed in a cgroup path"
				      : "path too long");
		return -EINVAL;
	}
	if (!is_cgroup(root, path)) {
		snprintf(why, whylen, "no such cgroup (%s%s)", root, strcmp(path, "/") ? path : "");
		return -ENOENT;
	}
	return cg_list_add(out, path, false) < 0 ? -ENOMEM : 1;
}
