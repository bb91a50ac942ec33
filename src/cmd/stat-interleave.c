// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "log.h"
#include "out.h"
#include "stat-interleave.h"
#include "why.h"

enum { C_PID, C_COMMAND, C_NODE, C_PAGES, C_SHARE, C_WEIGHT, C_WANTS, C_WANTS_PAGES, C_COUNT };

static const struct {
	const char *name;
	unsigned flags;
} cols[C_COUNT] = {
	[C_PID] = { "PID", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_COMMAND] = { "COMMAND", 0 },
	[C_NODE] = { "NODE", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_PAGES] = { "PAGES", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_SHARE] = { "SHARE%", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_WEIGHT] = { "WEIGHT", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_WANTS] = { "WANTS%", OUT_COL_RIGHT | OUT_COL_NUMBER },
	[C_WANTS_PAGES] = { "WANTS_PAGES", OUT_COL_RIGHT | OUT_COL_NUMBER },
};

/* JSON keys as the house spells them: "share_pct", "wants_pct". */
static const char *json_name(int c)
{
	static const char *const names[C_COUNT] = { "pid",       "command",    "node",
						    "pages",     "share_pct",  "weight",
						    "wants_pct", "wants_pages" };
	return names[c];
}

static void fill_row(struct out_row *row, bool json, const struct stat_interleave_proc *p,
		     const struct pm_wi_node *e, const struct interleave_weights *iw)
{
	unsigned w = interleave_weight_of(iw, e->node);
	size_t c = 0;

	if (json) {
		out_row_setf(row, c++, "%u", p->pid);
		out_row_set(row, c++, p->name);
	}
	out_row_setf(row, c++, "%u", e->node);
	out_row_setf(row, c++, "%" PRIu64, e->pages);
	out_row_setf(row, c++, "%.1f",
		     p->wi->pages ? 100.0 * (double)e->pages / (double)p->wi->pages : 0.0);
	if (w)
		out_row_setf(row, c, "%u", w);
	c++;
	out_row_setf(row, c++, "%.1f",
		     p->wi->pages ? 100.0 * e->wants / (double)p->wi->pages : 0.0);
	out_row_setf(row, c++, "%.0f", e->wants);
}

static struct out_table *new_table(bool json)
{
	struct out_table *t;
	char why[WHY_MAX];

	if (out_table_new(&t, "interleave", json ? OUT_JSON : 0, why, sizeof(why)) < 0) {
		log_err("cannot print the table: %s", why);
		return NULL;
	}
	for (int c = json ? 0 : C_NODE; c < C_COUNT; c++)
		out_table_add_column(t, json ? json_name(c) : cols[c].name, 0, cols[c].flags);
	return t;
}

static int print_one(const struct stat_opts *o, const struct stat_interleave_proc *p,
		     const struct interleave_weights *iw, bool first)
{
	struct out_table *t;
	int r = 0;

	if (!o->noheadings)
		printf("%sPID %u (%s): %zu anonymous mapping%s under weighted interleave, %" PRIu64
		       " pages\n",
		       first ? "" : "\n", p->pid, p->shown, p->wi->mappings,
		       p->wi->mappings == 1 ? "" : "s", p->wi->pages);
	if (!o->noheadings && p->wi->file_mappings)
		printf("%zu file mapping%s left out: the page cache is where its first reader "
		       "put it\n",
		       p->wi->file_mappings, p->wi->file_mappings == 1 ? "" : "s");
	if (!p->wi->n)
		return 0;
	if (!(t = new_table(false)))
		return -ENOMEM;
	for (size_t i = 0; i < p->wi->n && r == 0; i++) {
		struct out_row *row = out_table_add_row(t);

		if (!row)
			r = -ENOMEM;
		else
			fill_row(row, false, p, &p->wi->v[i], iw);
	}
	if (r == 0)
		r = out_table_print(t, stdout);
	out_table_free(t);
	return r;
}

int stat_interleave_print(const struct stat_opts *o, const struct stat_interleave_proc *p, size_t n,
			  const struct interleave_weights *iw, const char *autow)
{
	struct out_table *t;
	char list[256] = "";
	int r = 0;

	if (!o->json) {
		for (size_t i = 0; i < n && r == 0; i++)
			r = print_one(o, &p[i], iw, i == 0);
		for (size_t i = 0, used = 0; i < iw->n && used < sizeof(list); i++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%u:%u",
						 i ? " " : "", iw->nodes[i], iw->w[i]);
		if (r == 0 && !o->noheadings)
			printf("\nWANTS%%: each node's share by the weights now (%s%s%s);\n"
			       "pages placed before a weight changed keep their node\n",
			       iw->n ? list : "no weights here", *autow ? ", auto " : "",
			       !*autow           ? ""
			       : autow[0] == '1' ? "on"
						 : "off");
		return r;
	}
	if (!(t = new_table(true)))
		return -ENOMEM;
	for (size_t i = 0; i < n && r == 0; i++)
		for (size_t k = 0; k < p[i].wi->n && r == 0; k++) {
			struct out_row *row = out_table_add_row(t);

			if (!row)
				r = -ENOMEM;
			else
				fill_row(row, true, &p[i], &p[i].wi->v[k], iw);
		}
	if (r == 0)
		r = out_table_print(t, stdout);
	out_table_free(t);
	return r;
}
