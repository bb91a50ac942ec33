// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "log.h"
#include "stat-view.h"

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
		missing->range_end ? ": a range's end points must exist" : "", *here ? here : "none");
}
