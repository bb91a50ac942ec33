// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob-list.h"
#include "sysfs.h"
#include "value.h"

int knob_list_add(struct knob_list *l, const struct knob_ref *ref)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->refs[i].name, ref->name) == 0)
			return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct knob_ref *v = reallocarray(l->refs, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->refs = v;
		l->cap = cap;
	}
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
	char dir[64], name[KNOB_NAME_MAX], why[256];
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

		if (fnmatch(pat, last, 0) == 0)
			r = knob_list_add(out, &all->refs[i]);
	}
	return r;
}

void knob_list_free(struct knob_list *l)
{
	free(l->refs);
	*l = (struct knob_list){ 0 };
}
