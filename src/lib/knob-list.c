// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "knob-list.h"
#include "nodes.h"
#include "suggest.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

int knob_list_append(struct knob_list *l, const struct knob_ref *ref)
{
	if (array_grow(&l->refs, &l->cap, l->n + 1, sizeof(*l->refs)) < 0)
		return -ENOMEM;
	l->refs[l->n++] = *ref;
	return 0;
}

static bool listed(const struct knob_list *l, size_t n, const struct knob_ref *ref);

int knob_list_add(struct knob_list *l, const struct knob_ref *ref)
{
	return listed(l, l->n, ref) ? 0 : knob_list_append(l, ref);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The directory of a registry path: "/sys/.../weighted_interleave". */
static void parent_dir(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	snprintf(dir, size, "%.*s", slash ? (int)(slash - path) : 0, path);
}

int knob_family_nodes(const struct knob *k, unsigned **nodes)
{
	char dir[KNOB_PATH_MAX], prefix[KNOB_NAME_MAX];
	const char *base = strrchr(k->path, '/') + 1;
	size_t plen = strlen(base) - 1, n = 0, cap = 0;
	struct dirent *de;
	unsigned *v = NULL;
	uint64_t id;
	DIR *d;

	*nodes = NULL;
	parent_dir(k->path, dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%.*s", (int)plen, base);
	if (!(d = sysfs_opendir(dir)))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((de = readdir(d))) {
		const char *num = de->d_name + plen;

		if (strncmp(de->d_name, prefix, plen) != 0 || !*num || (num[0] == '0' && num[1]) ||
		    parse_u64(num, UINT32_MAX, &id) < 0)
			continue;
		if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) {
			closedir(d);
			free(v);
			return -ENOMEM;
		}
		v[n++] = (unsigned)id;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_uint);
	*nodes = v;
	return (int)n;
}

/* Every member a family has here, by node id. */
static int add_members(struct knob_list *l, const struct knob *k)
{
	struct knob_ref ref;
	unsigned *nodes;
	int n = knob_family_nodes(k, &nodes), r = 0;

	for (int i = 0; r == 0 && nodes && i < n; i++) {
		knob_member(&ref, k, nodes[i]);
		r = knob_list_append(l, &ref);
	}
	free(nodes);
	return n < 0 ? n : r;
}

static int cmp_refs(const void *a, const void *b)
{
	return strcmp(((const struct knob_ref *)a)->name, ((const struct knob_ref *)b)->name);
}

/* Pass-through entries of /proc/sys/<ns> whose names start with prefix. */
static int add_dir(struct knob_list *l, const char *ns, const char *prefix)
{
	char dir[64], name[KNOB_NAME_MAX], why[WHY_MAX];
	struct knob_ref ref;
	struct dirent *de;
	DIR *d;
	int r = 0;

	snprintf(dir, sizeof(dir), "/proc/sys/%s", ns);
	d = sysfs_opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (de->d_type != DT_REG && de->d_type != DT_UNKNOWN)
			continue;
		if ((size_t)snprintf(name, sizeof(name), "%s.%s", ns, de->d_name) >= sizeof(name))
			continue;
		/* Actions (drop_caches) and odd names are not knobs. */
		if (knob_resolve(name, &ref, why, sizeof(why)) == 0 && !ref.knob)
			r = knob_list_add(l, &ref);
	}
	closedir(d);
	return r;
}

int knob_list_build(struct knob_list *l, bool passthrough)
{
	struct knob_ref ref;
	size_t first;
	int r = 0;

	for (size_t i = 0; r == 0 && i < knob_count; i++) {
		if (knob_table[i].flags & KNOB_F_PER_NODE) {
			r = add_members(l, &knob_table[i]);
			continue;
		}
		knob_ref_init(&ref, &knob_table[i]);
		r = knob_list_add(l, &ref);
	}
	if (r < 0 || !passthrough)
		return r;
	first = l->n;
	r = add_dir(l, "vm", "");
	if (r == 0)
		r = add_dir(l, "kernel", "numa_");
	if (l->n > first) /* refs may still be NULL */
		qsort(l->refs + first, l->n - first, sizeof(*l->refs), cmp_refs);
	return r;
}

bool knob_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Whether refs[0, n) of l names ref. */
static bool listed(const struct knob_list *l, size_t n, const struct knob_ref *ref)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l->refs[i].name, ref->name) == 0)
			return true;
	return false;
}

int knob_list_glob(const struct knob_list *all, const char *glob, struct knob_list *out)
{
	char pat[KNOB_NAME_MAX * 2];
	size_t before = out->n;
	int r = 0;

	str_copy(pat, glob, sizeof(pat));
	for (char *p = pat; *p; p++)
		if (*p == '/')
			*p = '.';
	for (size_t i = 0; r == 0 && i < all->n; i++) {
		const char *name = all->refs[i].name;
		/* A pattern without a namespace matches the short names. */
		const char *last = strchr(pat, '.') ? name : strrchr(name, '.') + 1;

		/*
		 * Pass-through entries came from the directory listing: they are
		 * here.  all names each knob once, so only what was in out before
		 * this glob can repeat one: 1024 weights stay linear.
		 */
		if (fnmatch(pat, last, 0) == 0 &&
		    (!all->refs[i].knob || knob_present(&all->refs[i])) &&
		    !listed(out, before, &all->refs[i]))
			r = knob_list_append(out, &all->refs[i]);
	}
	return r;
}

void knob_list_free(struct knob_list *l)
{
	free(l->refs);
	*l = (struct knob_list){ 0 };
}

bool knob_present(const struct knob_ref *ref)
{
	/* O_PATH opens nothing but the name: no handler runs. */
	int fd = sysfs_open(ref->path, O_PATH);
	struct stat st;
	bool yes;

	if (fd < 0)
		return fd != -ENOENT && fd != -ENOTDIR;
	/* A directory (/proc/sys/vm/foo/) is a namespace, not a sysctl. */
	yes = fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode);
	close(fd);
	return yes;
}

/*
 * The names suggestions are drawn from, listed once per root: a file with
 * thousands of typos must not list /proc/sys/vm thousands of times.  Kept
 * until the process ends (reachable, not leaked).
 */
static const struct knob_list *candidates(void)
{
	static struct knob_list all;
	static char root[4096];

	if (all.refs && strcmp(root, sysfs_root()) == 0)
		return &all;
	knob_list_free(&all);
	str_copy(root, sysfs_root(), sizeof(root));
	/* Without the directory listing, the registry alone still helps. */
	knob_list_build(&all, true);
	return &all;
}

/* The closest registry knob or sysctl here to dotted, as "did you mean X?" in buf. */
static bool suggest_knob(const char *dotted, char *buf, size_t len)
{
	const struct knob_list *all = candidates();
	bool short_form = !strchr(dotted, '.');
	struct suggest s;

	suggest_init(&s, dotted);
	for (size_t i = 0; i < all->n; i++) {
		const char *name = all->refs[i].name, *last = strrchr(name, '.');

		suggest_add_as(&s, short_form && last ? last + 1 : name, name);
	}
	if (!suggest_result(&s))
		return false;
	snprintf(buf, len, "did you mean %s?", suggest_result(&s));
	return true;
}

/*
 * A KNOB_F_PROBED knob whose directory is here but whose file is not: the
 * kernel has the feature, so the name asks for something it cannot have.
 */
static bool probed_missing(const struct knob_ref *ref, char *why, size_t whylen)
{
	char dir[KNOB_PATH_MAX], list[256];
	unsigned *nodes;
	int n, fd;

	if (!(ref->knob->flags & KNOB_F_PROBED) || knob_present(ref))
		return false;
	parent_dir(ref->path, dir, sizeof(dir));
	if ((fd = sysfs_open(dir, O_PATH)) < 0)
		return false; /* no such feature here: a knob this kernel lacks */
	close(fd);
	if (!(ref->knob->flags & KNOB_F_PER_NODE)) {
		snprintf(why, whylen, "%s: this kernel has %s but not this file (%s came in %s)",
			 ref->name, dir, ref->name, ref->knob->since);
		return true;
	}
	n = knob_family_nodes(ref->knob, &nodes);
	if (n > 0)
		rangelist_format(nodes, (size_t)n, list, sizeof(list));
	else
		str_copy(list, "none", sizeof(list));
	free(nodes);
	snprintf(why, whylen, "%s: no such node here: this kernel has weights for node%s %s",
		 ref->name, n == 1 ? "" : "s", list);
	return true;
}

int knob_lookup(const char *input, struct knob_ref *out, char *why, size_t whylen)
{
	char dotted[KNOB_NAME_MAX], hint[KNOB_NAME_MAX + 32];
	int r = knob_resolve(input, out, why, whylen);

	if (r == 0 && out->knob && probed_missing(out, why, whylen))
		return -ENOENT;
	if (r == -EINVAL || (r == 0 && (out->knob || knob_present(out))))
		return r;
	/* The name as knob_resolve() spells it: '/' for '.' when '/' came first. */
	str_copy(dotted, input, sizeof(dotted));
	if (strcspn(dotted, "./") < strlen(dotted) && dotted[strcspn(dotted, "./")] == '/')
		for (char *p = dotted; *p; p++)
			*p = *p == '/' ? '.' : *p;
	if (suggest_knob(dotted, hint, sizeof(hint)))
		snprintf(why, whylen, "unknown knob '%s': %s", dotted, hint);
	else if (r == 0)
		snprintf(why, whylen,
			 "unknown knob '%s': no such sysctl on this kernel, and not a "
			 "registry knob ('numastatctl knobs' lists them)",
			 dotted);
	return -ENOENT;
}

int knob_lookup_optional(const char *input, struct knob_ref *out, char *why, size_t whylen)
{
	int r = knob_resolve(input, out, why, whylen);

	return r == 0 && out->knob ? 0 : knob_lookup(input, out, why, whylen);
}
