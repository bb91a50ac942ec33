// SPDX-License-Identifier: GPL-2.0-or-later
/* The systemd unit of a cgroup, from its path and owners (cg-unit.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cg-find.h"
#include "cg-unit.h"
#include "sysfs.h"
#include "value.h"

/* systemd's unit_name_is_valid(): [A-Za-z0-9:_.\\@-], one '@' at most, a prefix, an instance. */
static bool name_valid_n(const char *name, size_t len)
{
	size_t tl = cg_unit_type_len(name, len), stem = len - tl;
	const char *at = memchr(name, '@', stem);

	if (!tl || len > CG_UNIT_NAME_MAX || at == name || (at && at + 1 == name + stem) ||
	    (at && memchr(at + 1, '@', (size_t)(name + stem - at - 1))))
		return false;
	for (size_t i = 0; i < stem; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr(":_.\\@-", c)))
			return false;
	}
	return true;
}

bool cg_unit_name_valid(const char *name)
{
	return name_valid_n(name, strlen(name));
}

static bool is_slice(const char *name, size_t len)
{
	return len > 6 && memcmp(name + len - 6, ".slice", 6) == 0;
}

/*
 * Does slice name (len bytes) sit where systemd puts it, in the slice
 * whose stem (name less ".slice") is parent ("" at a manager's root)?
 * a.slice in the root, a-b.slice in a.slice.
 */
static bool slice_nested(const char *name, size_t len, const char *parent)
{
	size_t pl = strlen(parent), stem = len - 6;
	const char *rest = name;

	if (pl) {
		if (stem <= pl + 1 || memcmp(name, parent, pl) != 0 || name[pl] != '-')
			return false;
		rest = name + pl + 1;
	}
	return rest < name + stem && !memchr(rest, '-', (size_t)(name + stem - rest));
}

/* "user@UID.service" in "/user.slice/user-UID.slice", the same UID: a user manager's root. */
static bool user_manager(const char *slice, const char *name, size_t len, unsigned *uid)
{
	uint64_t u;
	char num[16];
	size_t nl = len - strlen("user@.service");

	if (len <= strlen("user@.service") || nl >= sizeof(num) || strncmp(name, "user@", 5) != 0 ||
	    memcmp(name + len - 8, ".service", 8) != 0)
		return false;
	memcpy(num, name + 5, nl);
	num[nl] = '\0';
	if (parse_u64(num, UINT32_MAX - 1, &u) < 0 || num[0] == '0' || num[0] == '+')
		return false;
	*uid = (unsigned)u;
	snprintf(num, sizeof(num), "user-%u", *uid);
	return strcmp(slice, num) == 0;
}

static void none(struct cg_unit *out, const char *why)
{
	*out = (struct cg_unit){ .kind = CG_UNIT_NONE, .why = why };
}

/*
 * One name of the path, in the slice stem *slice of the manager *user is
 * in: false when the walk stops with *out said.
 */
static bool step(const char *name, size_t len, bool last, char *slice, bool *user,
		 struct cg_unit *out)
{
	if (!len) {
		none(out, "not a cgroup path");
		return false;
	}
	if (!name_valid_n(name, len)) {
		/* A cgroup of root's own making (its children are too), or a user's. */
		if (*user)
			none(out, "in a user manager's tree, and not one of its units");
		else
			*out = (struct cg_unit){ .kind = CG_UNIT_PLAIN };
		return false;
	}
	if (is_slice(name, len)) {
		if (!slice_nested(name, len, slice)) {
			none(out, "a slice where systemd would not put it");
			return false;
		}
		snprintf(slice, CG_UNIT_NAME_MAX + 1, "%.*s", (int)len - 6, name);
	} else if (!last && !*user && user_manager(slice, name, len, &out->uid)) {
		*user = true;
		slice[0] = '\0';
	} else if (!last) {
		none(out, "inside a unit's own cgroup, which its delegate owns");
		return false;
	}
	return true;
}

void cg_unit_of_path(const char *path, struct cg_unit *out)
{
	char slice[CG_UNIT_NAME_MAX + 1] = "";
	bool user = false;
	const char *p = path;

	if (path[0] != '/' || !strcmp(path, "/")) {
		none(out, "the root cgroup's cpuset is the whole machine's");
		return;
	}
	*out = (struct cg_unit){ 0 };
	while (*p == '/') {
		const char *name = ++p;
		size_t len = strcspn(name, "/");
		bool last = name[len] == '\0';

		p = name + len;
		if (!step(name, len, last, slice, &user, out))
			return;
		if (last) {
			out->kind = user ? CG_UNIT_USER : CG_UNIT_SYSTEM;
			snprintf(out->name, sizeof(out->name), "%.*s", (int)len, name);
		}
	}
}

/* Is the cgroup path's parent ("/" for a top-level one) root's, and the cgroup too if self? */
static int owned(const char *root, const char *path, bool self)
{
	char dir[CG_ROOT_MAX + CG_PATH_MAX + 1];
	const char *slash = strrchr(path, '/');
	int r;

	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", root, path) >= sizeof(dir))
		return -ENAMETOOLONG;
	if (self && (r = sysfs_root_owned(dir)) <= 0)
		return r;
	dir[strlen(root) + (size_t)(slash - path)] = '\0';
	return sysfs_root_owned(dir);
}

int cg_unit_of(const char *root, const char *path, struct cg_unit *out)
{
	int r = 1;

	cg_unit_of_path(path, out);
	if (out->kind == CG_UNIT_SYSTEM)
		r = owned(root, path, false);
	else if (out->kind == CG_UNIT_PLAIN)
		r = owned(root, path, true);
	if (r < 0)
		return r;
	if (r == 0)
		none(out, "its cgroup was handed to a user other than root");
	return 0;
}
