// SPDX-License-Identifier: GPL-2.0-or-later
/* placement --prometheus and --textfile, within one series budget (placement-cmd.h). */
#include "atomic-file.h"
#include "cg-find.h"
#include "log.h"
#include "nodes.h"
#include "placement-cmd.h"
#include "placement-containers.h"
#include "placement.h"
#include "procmaps.h"
#include "prom.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The label of a series set: cgroup="/a/b" or process="<the --pid argument>". */
struct series {
	const char *label, *value;
	const struct pc_target *ctr; /* a container's: its namespace, pod and name too */
	struct pl_verdict v;
	size_t processes;
};

static void labels(FILE *f, const struct series *s)
{
	fprintf(f, "%s=\"", s->label);
	prom_label_value(f, s->value);
	fputc('"', f);
	if (s->ctr)
		placement_containers_labels(f, s->ctr);
}

/* The classes: exclusive, so sum() over class is the total. */
static void verdict_series(FILE *f, const struct series *s)
{
	for (int c = 0; c < PL_NCLASS; c++) {
		fputs("numastatctl_placement_bytes{", f);
		labels(f, s);
		fprintf(f, ",class=\"%s\"} %" PRIu64 "\n", placement_class_names[c], s->v.cls[c]);
	}
}

/* The actionable classes' sum: what --check and the text call actionable. */
static void actionable_series(FILE *f, const struct series *s)
{
	fputs("numastatctl_placement_actionable_bytes{", f);
	labels(f, s);
	fprintf(f, "} %" PRIu64 "\n", s->v.actionable);
}

/* The fast tier's share, across the classes: a family of its own. */
static void fast_series(FILE *f, const struct series *s)
{
	if (!s->v.tiers)
		return;
	fputs("numastatctl_placement_fast_tier_bytes{", f);
	labels(f, s);
	fprintf(f, "} %" PRIu64 "\n", s->v.fast);
}

/* The verdict of a --pid argument: its processes' verdicts summed. */
static void sum_processes(const struct pctx *x, const struct proc_list *l, struct series *s)
{
	for (size_t i = 0; i < x->n; i++) {
		const struct target *t = &x->t[i];

		if (t->is_cgroup || !rangelist_has(l->v, l->n, t->pid))
			continue;
		s->processes++;
		s->v.total += t->v.total;
		for (int c = 0; c < PL_NCLASS; c++)
			s->v.cls[c] += t->v.cls[c];
		s->v.fast += t->v.fast;
		s->v.actionable += t->v.actionable;
	}
	s->v.tiers = x->m.fast != NULL;
}

/* The processes of a --pid argument (l) summed by node into sum.  -ENOMEM. */
static int sum_nodes(const struct pctx *x, const struct proc_list *l, struct placement *sum)
{
	for (size_t i = 0; i < x->n; i++) {
		const struct target *t = &x->t[i];

		if (t->is_cgroup || !rangelist_has(l->v, l->n, t->pid))
			continue;
		for (size_t k = 0; k < t->p.n; k++) {
			struct pl_node *n = placement_node(sum, t->p.v[k].node);

			if (!n)
				return -ENOMEM;
			for (int kind = 0; kind < PL_NKIND; kind++)
				n->bytes[kind] += t->p.v[k].bytes[kind];
		}
	}
	return 0;
}

/* Per node and kind, one series set's memory p: a cgroup's, or a --pid argument's summed. */
static void node_series(FILE *f, const struct series *s, const struct placement *p)
{
	for (size_t k = 0; k < p->n; k++)
		for (int kind = 0; kind < PL_NKIND; kind++) {
			fputs("numastatctl_placement_node_bytes{", f);
			labels(f, s);
			fprintf(f, ",node=\"%u\",kind=\"%s\"} %" PRIu64 "\n", p->v[k].node,
				placement_kind_names[kind], p->v[k].bytes[kind]);
		}
}

/*
 * A --pid argument's processes (l) summed by node, since one series cannot
 * have two samples.  -ENOMEM.
 */
static int pid_node_series(FILE *f, const struct pctx *x, const struct series *s,
			   const struct proc_list *l)
{
	struct placement sum = { 0 };
	int r = sum_nodes(x, l, &sum);

	if (r == 0)
		node_series(f, s, &sum);
	placement_free(&sum);
	return r;
}

/* A cgroup's series: its verdict's classes and a kind on each node. */
static size_t cgroup_series(const struct target *t)
{
	return PL_NCLASS + 1 + (t->v.tiers ? 1 : 0) + (size_t)PL_NKIND * t->p.n +
	       (t->ctr ? PC_SERIES : 0);
}

/* A --pid argument's series: the classes, the fast tier, the count, a kind on each node. */
static ssize_t pid_series(const struct pctx *x, const struct proc_list *l)
{
	struct placement sum = { 0 };
	ssize_t n = sum_nodes(x, l, &sum) < 0 ? -ENOMEM
					      : (ssize_t)(PL_NCLASS + 1 + (x->m.fast ? 1 : 0) + 1 +
							  (size_t)PL_NKIND * sum.n);

	placement_free(&sum);
	return n;
}

/*
 * Which targets get series, within one budget whatever named them: every
 * --pid argument and every cgroup or container named by a path, a unit or
 * a name, then the ones a pattern matched, in order.  A plain name can
 * match 20,000 containers, so the named are held to the budget too; a
 * target given twice has its series once.  pid_in[i]: the i-th --pid
 * argument's.  0 or -ENOMEM.
 */
static int targets_shown(struct pctx *x, struct prom_budget *b, bool *pid_in)
{
	for (size_t i = 0; i < x->o->n_pids; i++) {
		ssize_t n = pid_series(x, &x->per_arg[i]);
		int r = n < 0 ? (int)n : prom_budget_take(b, "process", x->o->pids[i], (size_t)n);

		if (r < 0)
			return r;
		pid_in[i] = r == PROM_TAKEN;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < x->n; i++) {
			struct target *t = &x->t[i];
			int r;

			if (!t->is_cgroup || t->by_pattern != (pass == 1))
				continue;
			r = prom_budget_take(b, "cgroup", t->cgroup, cgroup_series(t));
			if (r < 0)
				return r;
			t->in_prom = r == PROM_TAKEN;
		}
	return 0;
}

/* What the budget left out, said once on stderr. */
static void say_left_out(const struct prom_budget *b)
{
	if (b->left_out)
		log_warn("--prometheus: %zu target%s left out, to stay within %zu series "
			 "(numastatctl_placement_cgroups_left_out)",
			 b->left_out, b->left_out == 1 ? "" : "s", b->max);
	if (b->clashes)
		log_warn("--prometheus: %zu target%s left out: %s labels would be written as "
			 "another's are (a name holding a control character and one holding its "
			 "\\xNN text)",
			 b->clashes, b->clashes == 1 ? "" : "s", b->clashes == 1 ? "its" : "their");
}

/* fn over the series set of every target with series: each cgroup's, each --pid argument's. */
static void each_series(FILE *f, const struct pctx *x, const bool *pid_in,
			void (*fn)(FILE *, const struct series *))
{
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].is_cgroup && x->t[i].in_prom)
			fn(f, &(struct series){ .label = "cgroup",
						.value = x->t[i].cgroup,
						.ctr = x->t[i].ctr,
						.v = x->t[i].v });
	for (size_t i = 0; i < x->o->n_pids; i++) {
		struct series s = { .label = "process", .value = x->o->pids[i] };

		if (!pid_in[i])
			continue;
		sum_processes(x, &x->per_arg[i], &s);
		fn(f, &s);
	}
}

static int write_series(FILE *f, struct pctx *x, const bool *pid_in)
{
	int r = 0;

	prom_family(
		f, "numastatctl_placement_bytes", "gauge",
		"Memory of a cgroup or of the processes a --pid argument named, by the verdict's "
		"class (local, as_policy, demoted, remote_anon, remote_near, remote_file, "
		"off_policy, unknown): the classes do not overlap, their sum is the total; "
		"remote_near is remote anonymous memory on a node of the same package.");
	each_series(f, x, pid_in, verdict_series);
	prom_family(f, "numastatctl_placement_actionable_bytes", "gauge",
		    "Memory of a cgroup or of the processes a --pid argument named in the "
		    "actionable classes (remote_anon and off_policy, and remote_near above "
		    "--max-near): what --check counts.");
	each_series(f, x, pid_in, actionable_series);
	if (x->m.fast) {
		prom_family(f, "numastatctl_placement_fast_tier_bytes", "gauge",
			    "Memory of a cgroup or of the processes a --pid argument named on the "
			    "fastest memory tier, whatever its class.");
		each_series(f, x, pid_in, fast_series);
	}
	prom_family(f, "numastatctl_placement_processes", "gauge",
		    "How many processes a --pid argument named (the ones with memory).");
	for (size_t i = 0; i < x->o->n_pids; i++) {
		struct series s = { .label = "process", .value = x->o->pids[i] };

		if (!pid_in[i])
			continue;
		sum_processes(x, &x->per_arg[i], &s);
		fputs("numastatctl_placement_processes{", f);
		labels(f, &s);
		fprintf(f, "} %zu\n", s.processes);
	}
	prom_family(f, "numastatctl_placement_node_bytes", "gauge",
		    "Memory of a cgroup or of the processes a --pid argument named, by node and "
		    "kind (anon, file, shmem, huge).");
	for (size_t i = 0; i < x->n; i++)
		if (x->t[i].is_cgroup && x->t[i].in_prom)
			node_series(f,
				    &(struct series){ .label = "cgroup",
						      .value = x->t[i].cgroup,
						      .ctr = x->t[i].ctr },
				    &x->t[i].p);
	for (size_t i = 0; i < x->o->n_pids && r == 0; i++)
		if (pid_in[i])
			r = pid_node_series(f, x,
					    &(struct series){ .label = "process",
							      .value = x->o->pids[i] },
					    &x->per_arg[i]);
	return r;
}

int placement_prom_write(FILE *f, struct pctx *x)
{
	struct prom_budget b = { .max = CG_PROM_SERIES_MAX };
	bool *pid_in = calloc(x->o->n_pids ? x->o->n_pids : 1, sizeof(*pid_in));
	int r = pid_in ? targets_shown(x, &b, pid_in) : -ENOMEM;

	if (r == 0) {
		say_left_out(&b);
		r = write_series(f, x, pid_in);
	}
	if (r == -ENOMEM)
		log_err("out of memory");
	if (r == 0 && (x->o->n_containers || x->o->n_pods)) {
		placement_containers_prom_family(f);
		for (size_t i = 0; i < x->n; i++)
			if (x->t[i].ctr && x->t[i].in_prom)
				placement_containers_prom(f, x->t[i].ctr, x->t[i].cgroup);
		placement_containers_prom_checkpoints(f, &x->containers);
	}
	if (r == 0 &&
	    (x->o->n_cgroups || x->o->n_containers || x->o->n_pods || b.left_out || b.clashes)) {
		prom_family(f, "numastatctl_placement_cgroups_left_out", "gauge",
			    "Targets (cgroups, containers, --pid arguments) whose series were left "
			    "out, to bound the scrape or because their labels would be written as "
			    "another's are (stat --cgroup has the same bound).");
		fprintf(f, "numastatctl_placement_cgroups_left_out %zu\n", b.left_out + b.clashes);
	}
	prom_budget_free(&b);
	free(pid_in);
	return r < 0 || ferror(f) ? -EIO : 0;
}

int placement_prom_textfile(struct pctx *x, const char *dir)
{
	struct atomic_file af;
	int r = atomic_file_begin(&af, dir, TEXTFILE_NAME, 0644);

	if (r < 0) {
		log_err("--textfile %s: %s", dir, strerror(-r));
		return -EIO;
	}
	if (placement_prom_write(af.f, x) < 0) {
		atomic_file_abort(&af);
		log_err("--textfile %s/" TEXTFILE_NAME ": cannot write", dir);
		return -EIO;
	}
	r = atomic_file_commit(&af);
	if (r < 0)
		log_err("--textfile %s/" TEXTFILE_NAME ": %s", dir, strerror(-r));
	return r < 0 ? -EIO : 0;
}
