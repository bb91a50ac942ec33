// SPDX-License-Identifier: GPL-2.0-or-later
/* The cgroup v2 hierarchy, or the one line that says why not (cgroup-root.h). */
#include "cgroup-root.h"
#include "cg-find.h"
#include "cmd.h"
#include "log.h"

int cgroup_root_find(char *root, size_t len, const char *option)
{
	switch (cg_root_find(root, len)) {
	case CG_ROOT_OK:
		return EXIT_OK;
	case CG_ROOT_V1_ONLY:
		log_err("%s: the memory controller is on cgroup v1 (" CG_V1_MEMORY
			"): the per-node memory of cgroups is read from cgroup v2 only (a kernel "
			"booted with systemd.unified_cgroup_hierarchy=1 has it)",
			option);
		break;
	case CG_ROOT_NO_MEMORY:
		log_err("%s: cgroup v2 at %s has no memory controller (its cgroup.controllers "
			"lacks memory)",
			option, root);
		break;
	case CG_ROOT_NONE:
		log_err("%s: no cgroup v2 hierarchy at " CG_MOUNT " or " CG_HYBRID, option);
		break;
	}
	return EXIT_FAIL;
}

const char *cgroup_root_option(size_t n_cgroups, size_t n_containers)
{
	return n_cgroups ? "--cgroup" : n_containers ? "--container" : "--pod";
}
