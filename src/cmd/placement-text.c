// SPDX-License-Identifier: GPL-2.0-or-later
/* placement's text: per target its CPUs, nodes, table, verdict and fixes (placement-cmd.h). */
#include "cg-find.h"
#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "placement-cmd.h"
#include "placement-containers.h"
#include "placement-machine.h"
#include "placement.h"
#include "value.h"
#include "why.h"
#include "wrap.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void title(const struct target *t, FILE *f)
{
	char shown[CG_PATH_MAX * 4 + 8];

	if (t->ctr) {
		placement_containers_title(t->ctr, f);
		fprintf(f, "  cgroup: %s\n", escape_text(t->cgroup, shown, sizeof(shown), 0));
	} else if (t->is_cgroup)
		fprintf(f, "cgroup %s\n", escape_text(t->cgroup, shown, sizeof(shown), 0));
	else
		fprintf(f, "process %u (%s)\n", t->pid,
			escape_text(t->name, shown, sizeof(shown), 0));
}

/* The WHERE of a node: local, near or far where the packages are known, else remote. */
static const char *where_word(const struct placement *p, unsigned node)
{
	enum node_class k = placement_node_class(p, node);

	return k == NODE_CLASS_UNKNOWN ? "remote" : node_class_name(k);
}

/* Where a CPU on a memoryless node allocates: said, since the table's "local" follows it. */
static void local_line(const struct target *t)
{
	char local[256], gone[256];
	unsigned ids[64];
	size_t n = 0;

	for (size_t i = 0; i < t->p.n_cpu_nodes && n < 64; i++)
		if (!rangelist_has(t->p.local, t->p.n_local, t->p.cpu_nodes[i]))
			ids[n++] = t->p.cpu_nodes[i];
	if (!n)
		return;
	rangelist_text(t->p.local, t->p.n_local, local, sizeof(local));
	rangelist_text(ids, n, gone, sizeof(gone));
	printf("  local memory: node%s %s (nearest to memoryless node%s %s)\n",
	       t->p.n_local == 1 ? "" : "s", local, n == 1 ? "" : "s", gone);
}

/*
 * Where the packages are known: the packages of its local nodes and every
 * node on them (what near means for it), with the machine's mode.
 */
static void package_line(const struct target *t)
{
	const struct node_classes *nc = t->p.machine ? t->p.machine->classes : NULL;
	unsigned pk[64], ids[256];
	size_t npk = 0, n = 0;
	char pks[256], nodes[512];

	for (size_t i = 0; nc && i < t->p.n_local && npk < 64; i++) {
		const struct node_class_node *nd = node_class_find(nc, t->p.local[i]);

		if (!nd || nd->package == NODE_CLASS_NONE)
			return;
		if (!rangelist_has(pk, npk, nd->package)) {
			pk[npk++] = nd->package;
			/* Kept sorted for rangelist_has() and the list. */
			for (size_t k = npk - 1; k > 0 && pk[k - 1] > pk[k]; k--) {
				unsigned x = pk[k];

				pk[k] = pk[k - 1];
				pk[k - 1] = x;
			}
		}
	}
	if (!npk)
		return;
	for (size_t i = 0; i < nc->n && n < 256; i++)
		if (rangelist_has(pk, npk, nc->v[i].package))
			ids[n++] = nc->v[i].node;
	rangelist_text(pk, npk, pks, sizeof(pks));
	rangelist_text(ids, n, nodes, sizeof(nodes));
	printf("  package%s %s of %u: nodes %s%s%s%s\n", npk == 1 ? "" : "s", pks, nc->n_packages,
	       nodes, nc->mode_text[0] ? " (" : "", nc->mode_text, nc->mode_text[0] ? ")" : "");
}

static void where_lines(const struct target *t)
{
	char cpus[512], cnodes[256], mems[256];

	rangelist_text(t->p.cpus, t->p.n_cpus, cpus, sizeof(cpus));
	rangelist_text(t->p.cpu_nodes, t->p.n_cpu_nodes, cnodes, sizeof(cnodes));
	rangelist_text(t->p.mems, t->p.n_mems, mems, sizeof(mems));
	if (t->is_cgroup && !t->cpuset_found)
		printf("  runs on: every CPU (no cpuset), nodes %s\n", cnodes);
	else if (t->is_cgroup && strcmp(t->cpuset, t->cgroup) != 0) {
		char shown[CG_PATH_MAX * 4];

		printf("  runs on: CPUs %s (the cpuset of %s), node%s %s\n", cpus,
		       escape_text(t->cpuset, shown, sizeof(shown), 0),
		       t->p.n_cpu_nodes == 1 ? "" : "s", cnodes);
	} else if (t->threads > 1)
		printf("  runs on: CPUs %s (%zu threads), node%s %s\n", cpus, t->threads,
		       t->p.n_cpu_nodes == 1 ? "" : "s", cnodes);
	else
		printf("  runs on: CPUs %s, node%s %s\n", cpus, t->p.n_cpu_nodes == 1 ? "" : "s",
		       cnodes);
	local_line(t);
	package_line(t);
	if (t->p.mems_known)
		printf("  memory may go to: node%s %s (%s)\n", t->p.n_mems == 1 ? "" : "s", mems,
		       t->is_cgroup ? "cpuset.mems.effective" : "Mems_allowed_list");
	else
		printf("  memory may go to: any node (no cpuset)\n");
	if (t->is_cgroup)
		return;
	if (!t->p.n_pol)
		printf("  policy: none (no mappings)\n");
	for (size_t i = 0; i < t->p.n_pol; i++) {
		char shown[PL_POLICY_TEXT * 4], size[16];

		fmt_human(t->p.pol[i].bytes, FMT_SIZE, size, sizeof(size));
		printf("  policy %s: %zu mapping%s, %s\n",
		       escape_text(t->p.pol[i].text, shown, sizeof(shown), 0), t->p.pol[i].mappings,
		       t->p.pol[i].mappings == 1 ? "" : "s", size);
	}
	if (t->p.policies_dropped)
		printf("  other policies: %zu mapping%s\n", t->p.policies_dropped,
		       t->p.policies_dropped == 1 ? "" : "s");
}

static int node_table(const struct target *t)
{
	static const char *const cols[] = { "NODE",  "WHERE", "ANON",  "FILE",
					    "SHMEM", "HUGE",  "TOTAL", "OFF-POLICY" };
	struct out_table *tb;
	char why[WHY_MAX];
	uint64_t sum[PL_NKIND + 2] = { 0 };
	int r = out_table_new(&tb, "nodes", 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return r;
	}
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		out_table_add_column(tb, cols[c], 0, c == 1 ? 0 : OUT_COL_RIGHT);
	for (size_t i = 0; i <= t->p.n; i++) {
		const struct pl_node *nd = i < t->p.n ? &t->p.v[i] : NULL;
		struct out_row *row = out_table_add_row(tb);
		uint64_t total = 0;
		char size[16];

		if (!row)
			break;
		if (nd)
			out_row_setf(row, 0, "%u", nd->node);
		else
			out_row_set(row, 0, "TOTAL");
		if (nd)
			out_row_set(row, 1, where_word(&t->p, nd->node));
		for (int k = 0; k < PL_NKIND; k++) {
			uint64_t b = nd ? nd->bytes[k] : sum[k];

			fmt_human(b, FMT_SIZE, size, sizeof(size));
			out_row_set(row, 2 + (size_t)k, size);
			total += b;
			if (nd)
				sum[k] += b;
		}
		fmt_human(total, FMT_SIZE, size, sizeof(size));
		out_row_set(row, 6, size);
		if (nd)
			sum[PL_NKIND] += nd->cls[PL_C_OFF_POLICY];
		fmt_human(nd ? nd->cls[PL_C_OFF_POLICY] : sum[PL_NKIND], FMT_SIZE, size,
			  sizeof(size));
		out_row_set(row, 7, size);
	}
	r = out_table_print(tb, stdout);
	out_table_free(tb);
	return r;
}

static void verdict_line(const char *what, uint64_t part, uint64_t whole, const char *note)
{
	char size[16];

	fmt_human(part, FMT_SIZE, size, sizeof(size));
	printf("  %-22s %7s %6.1f%%%s%s\n", what, size, placement_pct(part, whole),
	       note ? "  " : "", note ? note : "");
}

static bool plural(const char *list)
{
	return strchr(list, ',') || strchr(list, '-');
}

/* The fixes of class cls: each a line under 80 columns where the numbers allow. */
static void fix_lines(const struct target *t, enum pl_class cls)
{
	if (!t->fixes)
		return;
	for (size_t i = 0; i < t->fixes->n; i++) {
		const struct kept_fix *f = &t->fixes->v[i];

		if (f->cls != cls)
			continue;
		/* The command is quoted (shell_quote_argv()): no byte of it needs escaping. */
		int len = printf("    %s: %s", f->what, f->cmd[0] ? f->cmd : "no command");

		if (f->note[0] && len + 3 + (int)strlen(f->note) <= 80) {
			printf(" (%s)\n", f->note);
		} else if (f->note[0]) {
			char note[sizeof(((struct pl_fix *)0)->note) + 2];

			/* A long why folded under itself, at the terminal's width. */
			snprintf(note, sizeof(note), "(%s)", f->note);
			fputs("\n      ", stdout);
			wrap_fputs(stdout, note, 6, 7, wrap_width(STDOUT_FILENO));
			putchar('\n');
		} else
			putchar('\n');
	}
	if (t->fixes->held[cls][0])
		printf("    node%s %s left out of the moves: no node its policy and cpuset\n"
		       "    allow can take %s pages, or they are copies in a file mapping\n",
		       plural(t->fixes->held[cls]) ? "s" : "", t->fixes->held[cls],
		       plural(t->fixes->held[cls]) ? "their" : "its");
}

/* The nodes of class cls, as a list. */
static void class_nodes(const struct target *t, enum pl_class cls, char *buf, size_t len)
{
	unsigned ids[64];
	size_t n = 0;

	for (size_t i = 0; i < t->p.n && n < 64; i++)
		if (t->p.v[i].cls[cls])
			ids[n++] = t->p.v[i].node;
	rangelist_text(ids, n, buf, len);
}

/* The note of an actionable class: the one word --check and -J use too. */
static const char *actionable_note(const struct pctx *x, const struct target *t, uint64_t bytes)
{
	if (!bytes)
		return NULL;
	return x->o->check && cmd_placement_over(x, t) ? "actionable, over --max-remote-anon"
						       : "actionable";
}

/*
 * Remote anonymous memory: one line where the packages are not known, else
 * far (another package) and near (the same package), near actionable only
 * above --max-near.
 */
static void remote_lines(const struct pctx *x, const struct target *t)
{
	const struct pl_verdict *v = &t->v;
	uint64_t ra = v->cls[PL_C_REMOTE_ANON], near = v->cls[PL_C_REMOTE_NEAR];

	if (!x->m.pl.classes) {
		verdict_line("remote anonymous", ra, v->total, actionable_note(x, t, ra));
		fix_lines(t, PL_C_REMOTE_ANON);
		return;
	}
	verdict_line("remote anonymous, far", ra, v->total, actionable_note(x, t, ra));
	verdict_line("remote anonymous, near", near, v->total,
		     t->p.near_actionable ? actionable_note(x, t, near)
		     : near               ? "same package: not actionable"
					  : NULL);
	fix_lines(t, PL_C_REMOTE_ANON);
	fix_lines(t, PL_C_REMOTE_NEAR);
}

static void verdict(const struct pctx *x, const struct target *t)
{
	const struct pl_verdict *v = &t->v;
	char where[256];
	uint64_t ra = v->cls[PL_C_REMOTE_ANON] + v->cls[PL_C_REMOTE_NEAR];
	bool away = placement_cpuset_away(&t->p);

	verdict_line("local", v->cls[PL_C_LOCAL], v->total, NULL);
	/* A cgroup has no policy of its own: what asked is its cpuset. */
	if (v->cls[PL_C_AS_POLICY] && away && t->is_cgroup)
		verdict_line("as its cpuset asks", v->cls[PL_C_AS_POLICY], v->total,
			     "bound away from its CPUs");
	else if (v->cls[PL_C_AS_POLICY])
		verdict_line("as its policy asks", v->cls[PL_C_AS_POLICY], v->total,
			     away ? "on nodes its policy or cpuset names"
				  : "on the nodes its policy names");
	if (t->p.wi_off)
		printf("    %zu weighted interleave mapping%s off the weights' shares:\n"
		       "    numastatctl stat --pid %u --interleave\n",
		       t->p.wi_off, t->p.wi_off == 1 ? "" : "s", t->pid);
	if (v->cls[PL_C_DEMOTED])
		verdict_line("demoted", v->cls[PL_C_DEMOTED], v->total,
			     "to a slower tier by reclaim");
	remote_lines(x, t);
	/* Balancing moves default-policy mappings only (not MPOL_LOCAL): a process says which. */
	if ((t->is_cgroup ? ra : t->p.remote_default) && x->m.balancing[0] &&
	    strcmp(x->m.balancing, "0") != 0)
		printf("    NUMA balancing (kernel.numa_balancing=%s) has not moved it\n",
		       x->m.balancing);
	verdict_line("remote file and shared", v->cls[PL_C_REMOTE_FILE], v->total,
		     v->cls[PL_C_REMOTE_FILE] ? "expected: where first read" : NULL);
	verdict_line("off-policy", v->cls[PL_C_OFF_POLICY], v->total,
		     actionable_note(x, t, v->cls[PL_C_OFF_POLICY]));
	if (v->cls[PL_C_OFF_POLICY]) {
		class_nodes(t, PL_C_OFF_POLICY, where, sizeof(where));
		printf("    on node%s %s: its %s does not allow %s\n", plural(where) ? "s" : "",
		       where, t->is_cgroup ? "cpuset" : "policy or cpuset",
		       plural(where) ? "them" : "it");
	}
	fix_lines(t, PL_C_OFF_POLICY);
	if (v->cls[PL_C_UNKNOWN])
		verdict_line("unknown", v->cls[PL_C_UNKNOWN], v->total,
			     "estimated: copied pages of file mappings");
	if (v->tiers)
		verdict_line("on the fast tier", v->fast, v->total, NULL);
}

int placement_text_print(const struct pctx *x)
{
	int r = 0;

	for (size_t i = 0; i < x->n && r == 0; i++) {
		const struct target *t = &x->t[i];

		if (i)
			putchar('\n');
		title(t, stdout);
		if (t->ctr)
			placement_containers_lines(&x->containers, t->ctr);
		where_lines(t);
		r = node_table(t);
		verdict(x, t);
	}
	return r;
}

/* After the moves: each process's numa_maps read again, its actionable memory said. */
void placement_text_after(struct pctx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		struct target a = { .pid = x->t[i].pid };
		struct pl_verdict v;
		char ra[16], off[16];

		if (x->t[i].is_cgroup || !x->t[i].p.n_moves)
			continue;
		if (placement_targets_read_process(x, &a, false) <= 0) {
			printf("after: process %u: gone\n", a.pid);
			placement_free(&a.p);
			continue;
		}
		placement_verdict(&a.p, x->m.fast, x->m.n_fast, &v);
		fmt_human(v.cls[PL_C_REMOTE_ANON], FMT_SIZE, ra, sizeof(ra));
		fmt_human(v.cls[PL_C_OFF_POLICY], FMT_SIZE, off, sizeof(off));
		printf("after: process %u: remote anonymous %s, off-policy %s (numa_maps read "
		       "again)\n",
		       a.pid, ra, off);
		placement_free(&a.p);
	}
}
