/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every `stat` view says the same way.  Implemented by stat-view.c.
 */
#pragma once

#include "nodes.h"
#include "stat.h"

/* --nodes named a node that is not here: the message, with the nodes there are. */
void stat_say_missing_node(const struct node_miss *missing);
/*
 * The nodes of --nodes (each must exist), else every node: the count with
 * *ids malloc'ed, or -EXIT_USAGE / -EXIT_FAIL after saying why.
 */
int stat_view_nodes(const struct stat_opts *o, unsigned **ids);
