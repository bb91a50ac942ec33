// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "knob-list.h"
#include "suggest.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"

int knob_list_add(struct knob_list *l, const struct knob_ref *ref)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->refs[i].name, ref->name) == 0)
			return 0;
	if (array_grow(&l->refs, &l->cap, l->n + 1, sizeof(*l->refs)) < 0)
		return -ENOMEM;
	l->refs[l->n++] = *ref;
	return 0;
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
		ref.knob = &knob_table[i];
		str_copy(ref.name, knob_table[i].name, sizeof(ref.name));
		str_copy(ref.path, knob_table[i].path, sizeof(ref.path));
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

int knob_list_glob(const struct knob_list *all, const char *glob, struct knob_list *out)
{
	char pat[KNOB_NAME_MAX * 2];
	int r = 0;

	str_copy(pat, glob, sizeof(pat));
	for (char *p = pat; *p; p++)
		if (*p == '/')
			*p = '.';
	for (size_t i = 0; r == 0 && i < all->n; i++) {
		const char *name = all->refs[i].name;
		/* A pattern without a namespace matches the short names. */
		const char *last = strchr(pat, '.') ? name : strrchr(name, '.') + 1;

		/* Pass-through entries came from the directory listing: they are here. */
		if (fnmatch(pat, last, 0) == 0 &&
		    (!all->refs[i].knob || knob_present(&all->refs[i])))
			r = knob_list_add(out, &all->refs[i]);
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

int knob_lookup(const char *input, struct knob_ref *out, char *why, size_t whylen)
{
	char dotted[KNOB_NAME_MAX], hint[KNOB_NAME_MAX + 32];
	int r = knob_resolve(input, out, why, whylen);

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
