/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding cgroups in the v2 hierarchy (implemented in cg-find.c): where
 * the hierarchy is mounted and whether it has the memory controller, and
 * what a user's --cgroup argument names: a cgroup path ("/system.slice/
 * nginx.service", also with the mount point in front), a systemd unit
 * ("nginx.service", "user-1000.slice"; no D-Bus: slices follow systemd's
 * dash rule, other units are looked for in system.slice and then anywhere
 * in the tree), or a glob pattern ("*.service" matches names anywhere,
 * a pattern with a '/' matches whole paths) where no cgroup has that very
 * path ('[', '*' and '?' may be part of a name).  Paths here are relative to the hierarchy's
 * root and start with '/' ("/" is the root cgroup).  Nothing prints.
 * Implemented by cg-find.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "str-index.h"

/* systemd's mount points: unified, and the hybrid layout's v2 half. */
#define CG_MOUNT "/sys/fs/cgroup"
#define CG_HYBRID "/sys/fs/cgroup/unified"
/* Where a v1 memory controller sits in the usual layouts. */
#define CG_V1_MEMORY "/sys/fs/cgroup/memory"
#define CG_ROOT_MAX 64
/*
 * The most series of cgroups one Prometheus scrape gets from a view or
 * command (stat --cgroup, placement): the ones a pattern alone matched
 * beyond it are left out and counted.
 */
#define CG_PROM_SERIES_MAX 20000
/* A cgroup path; deeper trees are refused rather than cut. */
#define CG_PATH_MAX 4096

enum cg_root_state {
	CG_ROOT_OK,        /* a v2 hierarchy with the memory controller at root */
	CG_ROOT_NONE,      /* no v2 hierarchy, no v1 memory controller */
	CG_ROOT_V1_ONLY,   /* the memory controller is on cgroup v1 */
	CG_ROOT_NO_MEMORY, /* v2 is mounted at root, without the memory controller */
};

/* Where the v2 hierarchy is (root: CG_MOUNT or CG_HYBRID when found). */
enum cg_root_state cg_root_find(char *root, size_t len);

struct cg_list {
	char **path;
	bool *matched; /* named only by a pattern (not by a path or unit) */
	size_t n, cap;
	struct str_index index; /* of path: cg_list_add() finds a path at once */
};

void cg_list_free(struct cg_list *l);
/*
 * Append a copy of path unless it is there already (then it counts as
 * matched only if both times were).  0 or -ENOMEM.
 */
int cg_list_add(struct cg_list *l, const char *path, bool matched);
/* Does arg hold glob characters (*, ?, [)? */
bool cg_is_pattern(const char *arg);
/*
 * The length of the unit type that ends name[len] (".service", ".scope",
 * ".slice", ...: the types of units that have a cgroup), 0 when none.
 */
size_t cg_unit_type_len(const char *name, size_t len);
/* Is name a systemd unit that has a cgroup (.service, .scope, .slice, ...)? */
bool cg_is_unit(const char *name);

/*
 * Add what arg names under root to out (duplicates are dropped).  Returns
 * the number of cgroups arg named (0: a pattern that matched nothing),
 * -ENOENT (no such cgroup or unit), -EINVAL ("." or ".." in a path, or a
 * path too long) or -ENOMEM, with why saying it in words.
 */
int cg_resolve(const char *root, const char *arg, struct cg_list *out, char *why, size_t whylen);

/* root + path: the logical path of a cgroup's directory (or a file in it). */
void cg_file_path(const char *root, const char *cg, const char *file, char *buf, size_t size);
