/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cpuset of a cgroup v2 group: cpuset.cpus.effective and
 * cpuset.mems.effective, the CPUs and memory nodes its tasks may use.  A
 * group where the cpuset controller is not enabled has no such files and
 * is held by its nearest ancestor's, so the read walks up to the first
 * group that has them.  A group that holds no process itself but one
 * child group is read at that child, where its processes are (crun's
 * <scope>/container).  Implemented by cg-cpuset.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cg-find.h"

struct cg_cpuset {
	unsigned *cpus, *mems; /* sorted, malloc'ed */
	size_t n_cpus, n_mems;
	bool found;             /* false: no group on the way up has a cpuset */
	char from[CG_PATH_MAX]; /* the group whose files were read */
};

/*
 * Read cg's cpuset under root (see cg_root_find()).  0 (found false when
 * no group has the files), -ENOENT when the group itself is gone, -EBADMSG
 * with why for a file that is not a range list, -ENOMEM.
 */
int cg_cpuset_read(const char *root, const char *cg, struct cg_cpuset *out, char *why,
		   size_t whylen);
void cg_cpuset_free(struct cg_cpuset *c);
