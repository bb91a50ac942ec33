// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "cmd.h"
#include "log.h"
#include "stat-view.h"
#include "sysfs.h"

void stat_say_missing_node(const struct node_miss *missing)
{
	char here[256] = "";
	unsigned *all;
	int n = nodes_enumerate(&all);

	if (n > 0)
		rangelist_format(all, (size_t)n, here, sizeof(here));
	if (n > 0)
		free(all);
	log_err("--nodes: node %u: no such node here%s (nodes here: %s)", missing->id,
		missing->range_end ? ": a range's end points must exist" : "",
		*here ? here : "none");
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
