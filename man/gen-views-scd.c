// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the column lists of stat's views for numastatctl(8) in scdoc, from
 * the stat command's table of views (cmd_stat_views[]), so the page lists
 * exactly the views and columns the binary has: a part for each view with
 * columns of its own, each column with what it holds and its JSON key.
 */
#include <stdio.h>

#include "cmd-stat.h"
#include "scd.h"
#include "stat-view.h"

static void put_view(const struct stat_view *v)
{
	fputs("## stat --", stdout);
	put_escaped(v->option.name ? v->option.name : v->name);
	fputs(" columns\n\n", stdout);
	for (const struct stat_view_col *c = v->cols; c->name; c++) {
		putchar('*');
		put_escaped(c->name);
		fputs("*\n\t", stdout);
		put_sentence(c->help);
		fputs(" JSON: *", stdout);
		put_escaped(c->json);
		fputs("*.\n\n", stdout);
	}
}

int main(void)
{
	for (const struct stat_view *const *v = cmd_stat_views; *v; v++)
		if ((*v)->cols)
			put_view(*v);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
