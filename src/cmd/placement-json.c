// SPDX-License-Identifier: GPL-2.0-or-later
/* placement -J: the targets, their nodes and the classes (placement-cmd.h). */
#include "cmd.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "placement-cmd.h"
#include "placement-containers.h"
#include "placement.h"
#include "why.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ids one per line: what OUT_COL_NUMBERS makes a JSON array of. */
static void set_numbers(struct out_row *row, size_t col, const unsigned *ids, size_t n)
{
	size_t len = n * 12 + 1, used = 0;
	char *s = malloc(len);

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(s + used, len - used, "%s%u", i ? "\n" : "", ids[i]);
	out_row_set(row, col, s);
	free(s);
}

static void set_policies(struct out_row *row, size_t col, const struct placement *p)
{
	size_t len = p->n_pol * (PL_POLICY_TEXT + 1) + 1, used = 0;
	char *s = malloc(len);

	if (!s)
		return;
	s[0] = '\0';
	for (size_t i = 0; i < p->n_pol; i++)
		used += (size_t)snprintf(s + used, len - used, "%s%s", i ? "\n" : "",
					 p->pol[i].text);
	out_row_set(row, col, s);
	free(s);
}

/* The commands of the fixes, one per line: a JSON array of strings. */
static void set_fixes(struct out_row *row, size_t col, const struct kept_fixes *f)
{
	static char s[PL_FIXES_MAX * (PL_FIX_CMD + 1) + 1];
	size_t used = 0;

	s[0] = '\0';
	for (size_t i = 0; f && i < f->n; i++)
		if (f->v[i].cmd[0])
			used += (size_t)snprintf(s + used, sizeof(s) - used, "%s%s",
						 used ? "\n" : "", f->v[i].cmd);
	out_row_set(row, col, s);
}

static void set_u64(struct out_row *row, size_t col, uint64_t v)
{
	out_row_setf(row, col, "%" PRIu64, v);
}

enum {
	TC_TARGET,
	TC_PID,
	TC_NAME,
	TC_CGROUP,
	TC_CPUSET,
	TC_CPUS,
	TC_CPU_NODES,
	TC_MEM_NODES,
	TC_POLICIES,
	TC_MAPPINGS,
	TC_TOTAL,
	TC_CLASS, /* PL_NCLASS columns, in placement_class_names' order */
	TC_FAST = TC_CLASS + PL_NCLASS,
	TC_REMOTE_ANON_PCT,
	TC_OVER,
	TC_FIXES,
	TC_WI_OFF,
	TC_ACTIONABLE,
	TC_ACTIONABLE_PCT,
	TC_PLANNED,
	TC_UNPLANNED,
	TC_NEAR_ACTIONABLE,
	TC_COUNT,
};

static const struct {
	const char *name;
	unsigned flags;
} target_cols[TC_COUNT] = {
	{ "target", 0 },
	{ "pid", OUT_COL_NUMBER },
	{ "command", 0 },
	{ "cgroup", 0 },
	{ "cpuset", 0 },
	{ "cpus", OUT_COL_NUMBERS },
	{ "cpu_nodes", OUT_COL_NUMBERS },
	{ "mem_nodes", OUT_COL_NUMBERS },
	{ "policies", OUT_COL_ARRAY },
	{ "mappings", OUT_COL_NUMBER },
	{ "total", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_LOCAL] = { "local", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_AS_POLICY] = { "as_policy", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_DEMOTED] = { "demoted", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_REMOTE_ANON] = { "remote_anon", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_REMOTE_NEAR] = { "remote_near", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_REMOTE_FILE] = { "remote_file", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_OFF_POLICY] = { "off_policy", OUT_COL_NUMBER },
	[TC_CLASS + PL_C_UNKNOWN] = { "unknown", OUT_COL_NUMBER },
	[TC_FAST] = { "fast_tier", OUT_COL_NUMBER },
	{ "remote_anon_pct", OUT_COL_NUMBER },
	{ "over", OUT_COL_BOOLEAN_OPT },
	{ "fixes", OUT_COL_ARRAY },
	{ "weights_off", OUT_COL_NUMBER },
	{ "actionable", OUT_COL_NUMBER },
	{ "actionable_pct", OUT_COL_NUMBER },
	{ "planned", OUT_COL_NUMBER },
	{ "unplanned", OUT_COL_NUMBER },
	{ "near_actionable", OUT_COL_BOOLEAN_OPT },
};

/* The bytes the plan moves. */
static uint64_t planned_bytes(const struct placement *p)
{
	uint64_t b = 0;

	for (size_t i = 0; i < p->n_moves; i++)
		b += p->moves[i].pages * p->moves[i].page;
	return b;
}

static void target_row(const struct pctx *x, const struct target *t, struct out_row *row)
{
	const struct pl_verdict *v = &t->v;

	out_row_set(row, TC_TARGET, t->ctr ? "container" : t->is_cgroup ? "cgroup" : "process");
	if (t->ctr)
		placement_containers_row(&x->containers, t->ctr, row, TC_COUNT);
	if (!t->is_cgroup) {
		out_row_setf(row, TC_PID, "%u", t->pid);
		out_row_set(row, TC_NAME, t->name);
		set_policies(row, TC_POLICIES, &t->p);
		out_row_setf(row, TC_MAPPINGS, "%zu", t->p.mappings);
		out_row_setf(row, TC_WI_OFF, "%zu", t->p.wi_off);
	} else {
		out_row_set(row, TC_CGROUP, t->cgroup);
		out_row_set(row, TC_CPUSET, t->cpuset);
	}
	if (!t->is_cgroup || t->cpuset_found)
		set_numbers(row, TC_CPUS, t->p.cpus, t->p.n_cpus);
	set_numbers(row, TC_CPU_NODES, t->p.cpu_nodes, t->p.n_cpu_nodes);
	if (t->p.mems_known)
		set_numbers(row, TC_MEM_NODES, t->p.mems, t->p.n_mems);
	set_u64(row, TC_TOTAL, v->total);
	for (int c = 0; c < PL_NCLASS; c++)
		set_u64(row, TC_CLASS + (size_t)c, v->cls[c]);
	if (v->tiers)
		set_u64(row, TC_FAST, v->fast);
	out_row_setf(row, TC_REMOTE_ANON_PCT, "%.1f",
		     placement_pct(v->cls[PL_C_REMOTE_ANON], v->total));
	if (x->o->check)
		out_row_set(row, TC_OVER, cmd_placement_over(x, t) ? "yes" : "no");
	set_fixes(row, TC_FIXES, t->fixes);
	set_u64(row, TC_ACTIONABLE, v->actionable);
	out_row_setf(row, TC_ACTIONABLE_PCT, "%.1f", placement_pct(v->actionable, v->total));
	set_u64(row, TC_PLANNED, planned_bytes(&t->p));
	set_u64(row, TC_UNPLANNED, t->p.unplanned);
	if (x->m.pl.classes)
		out_row_set(row, TC_NEAR_ACTIONABLE, t->p.near_actionable ? "yes" : "no");
}

/* The classes and which of them are actionable: the vocabulary of the document. */
static void class_rows(struct out_table *tb)
{
	for (int c = 0; c < PL_NCLASS; c++) {
		struct out_row *row = out_table_add_row(tb);

		if (!row)
			return;
		out_row_set(row, 0, placement_class_names[c]);
		out_row_set(row, 1, placement_actionable((enum pl_class)c) ? "yes" : "no");
	}
}

static void node_rows(const struct target *t, struct out_table *tb)
{
	for (size_t i = 0; i < t->p.n; i++) {
		const struct pl_node *nd = &t->p.v[i];
		struct out_row *row = out_table_add_row(tb);
		uint64_t total = 0;

		if (!row)
			return;
		if (t->is_cgroup)
			out_row_set(row, 1, t->cgroup);
		else
			out_row_setf(row, 0, "%u", t->pid);
		out_row_setf(row, 2, "%u", nd->node);
		out_row_set(row, 3,
			    rangelist_has(t->p.local, t->p.n_local, nd->node) ? "yes" : "no");
		for (int k = 0; k < PL_NKIND; k++) {
			set_u64(row, 4 + (size_t)k, nd->bytes[k]);
			total += nd->bytes[k];
		}
		set_u64(row, 8, total);
		set_u64(row, 9, nd->cls[PL_C_OFF_POLICY]);
		out_row_set(row, 10, node_class_name(placement_node_class(&t->p, nd->node)));
	}
}

int placement_json_print(const struct pctx *x)
{
	static const char *const ncols[] = { "pid",   "cgroup",     "node",  "local",
					     "anon",  "file",       "shmem", "huge",
					     "total", "off_policy", "where" };
	struct out_table *tt = NULL, *nt = NULL, *ct = NULL;
	struct out_doc *d = NULL;
	char why[WHY_MAX];
	int r = out_table_new(&tt, "targets", OUT_JSON, why, sizeof(why));

	if (r == 0)
		r = out_table_new(&nt, "nodes", OUT_JSON, why, sizeof(why));
	if (r == 0)
		r = out_table_new(&ct, "classes", OUT_JSON, why, sizeof(why));
	if (r < 0) {
		log_err("cannot print the table: %s", why);
		goto out;
	}
	for (size_t c = 0; c < TC_COUNT; c++)
		out_table_add_column(tt, target_cols[c].name, 0, target_cols[c].flags);
	for (size_t c = 0; c < PC_COLS; c++)
		out_table_add_column(tt, placement_containers_cols[c], 0,
				     placement_containers_col_flags[c]);
	for (size_t c = 0; c < sizeof(ncols) / sizeof(ncols[0]); c++)
		out_table_add_column(nt, ncols[c], 0,
				     c == 1 || c == 10 ? 0
				     : c == 3          ? OUT_COL_BOOLEAN
						       : OUT_COL_NUMBER);
	for (size_t i = 0; i < x->n; i++) {
		struct out_row *row = out_table_add_row(tt);

		if (!row) {
			r = -ENOMEM;
			goto out;
		}
		target_row(x, &x->t[i], row);
		node_rows(&x->t[i], nt);
	}
	out_table_add_column(ct, "class", 0, 0);
	out_table_add_column(ct, "actionable", 0, OUT_COL_BOOLEAN);
	class_rows(ct);
	r = out_doc_new(&d, 0);
	if (r == 0 && (r = out_doc_add(d, tt, OUT_PART_ARRAY)) == 0 &&
	    (r = out_doc_add(d, nt, OUT_PART_ARRAY)) == 0 &&
	    (r = out_doc_add(d, ct, OUT_PART_ARRAY)) == 0)
		r = out_doc_print(d, stdout);
out:
	out_doc_free(d);
	out_table_free(ct);
	out_table_free(nt);
	out_table_free(tt);
	return r;
}
