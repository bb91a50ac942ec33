// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "cmd.h"
#include "log.h"
#include "stat-view.h"
#include "sysfs.h"

void stat_say_missing_node(const struct node_miss *missing)
{
	unsigned *all = NULL;
	int n = nodes_enumerate(&all);
	size_t len = n > 0 ? rangelist_format(all, (size_t)n, NULL, 0) : 0;
	char *here = len ? malloc(len + 1) : NULL;

	if (here)
		rangelist_format(all, (size_t)n, here, len + 1);
	log_err("--nodes: node %u: no such node here%s (nodes here: %s)", missing->id,
		missing->range_end ? ": a range's end points must exist" : "",
		here    ? here
		: n > 0 ? "cannot say: out of memory"
			: "none");
	free(here);
	free(all);
}

int stat_view_nodes(const struct stat_opts *o, unsigned **ids)
{
	struct node_miss missing;
	int n = stat_select_nodes(o, ids, &missing);

	if (n == -ENOENT) {
		stat_say_missing_node(&missing);
		return -EXIT_USAGE;
	}
	if (n < 0) {
		log_err(NODE_DIR ": %s", sysfs_strerror(n));
		return -EXIT_FAIL;
	}
	return n;
}
