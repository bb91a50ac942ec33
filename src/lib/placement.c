// SPDX-License-Identifier: GPL-2.0-or-later
/* A target's memory by node and kind, its CPUs' nodes, and the verdict over them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cg-numa.h"
#include "nodes.h"
#include "placement.h"

const char *const placement_kind_names[PL_NKIND] = { "anon", "file", "shmem", "huge" };

void placement_free(struct placement *p)
{
	free(p->cpus);
	free(p->cpu_nodes);
	free(p->local);
	free(p->mems);
	free(p->moves);
	free(p->v);
	free(p->pol);
	*p = (struct placement){ 0 };
}

static size_t lower_bound(const unsigned *ids, size_t n, unsigned id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct pl_node *placement_node(struct placement *p, unsigned node)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->v[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n && p->v[lo].node == node)
		return &p->v[lo];
	if (array_grow(&p->v, &p->cap, p->n + 1, sizeof(*p->v)) < 0)
		return NULL;
	memmove(&p->v[lo + 1], &p->v[lo], (p->n - lo) * sizeof(*p->v));
	p->v[lo] = (struct pl_node){ .node = node, .off_to = UINT32_MAX };
	p->n++;
	return &p->v[lo];
}

int placement_nodes_of_cpus(const unsigned *cpus, size_t n, const unsigned *cpu_node, size_t n_map,
			    unsigned **nodes, size_t *n_nodes)
{
	size_t cap = 0;

	*nodes = NULL;
	*n_nodes = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned node = cpus[i] < n_map ? cpu_node[cpus[i]] : UINT32_MAX;
		size_t at;

		if (node == UINT32_MAX || rangelist_has(*nodes, *n_nodes, node))
			continue;
		if (array_grow(nodes, &cap, *n_nodes + 1, sizeof(**nodes)) < 0)
			return -ENOMEM;
		at = lower_bound(*nodes, *n_nodes, node);
		memmove(&(*nodes)[at + 1], &(*nodes)[at], (*n_nodes - at) * sizeof(**nodes));
		(*nodes)[at] = node;
		(*n_nodes)++;
	}
	return 0;
}

/* id into the sorted ids (capacity *cap), once.  0 or -ENOMEM. */
static int insert_sorted(unsigned **ids, size_t *n, size_t *cap, unsigned id)
{
	size_t at = lower_bound(*ids, *n, id);

	if (at < *n && (*ids)[at] == id)
		return 0;
	if (array_grow(ids, cap, *n + 1, sizeof(**ids)) < 0)
		return -ENOMEM;
	memmove(&(*ids)[at + 1], &(*ids)[at], (*n - at) * sizeof(**ids));
	(*ids)[at] = id;
	(*n)++;
	return 0;
}

/* The nearest memory nodes of a memoryless node, NULL when it has memory. */
static const struct pl_near *near_of(const struct pl_machine *m, unsigned node)
{
	for (size_t i = 0; m && i < m->n_near; i++)
		if (m->near[i].node == node)
			return &m->near[i];
	return NULL;
}

int placement_set_local(struct placement *p)
{
	size_t cap = 0;

	free(p->local);
	p->local = NULL;
	p->n_local = 0;
	for (size_t i = 0; i < p->n_cpu_nodes; i++) {
		const struct pl_near *nr = near_of(p->machine, p->cpu_nodes[i]);
		int r = 0;

		if (!nr)
			r = insert_sorted(&p->local, &p->n_local, &cap, p->cpu_nodes[i]);
		for (size_t k = 0; nr && k < nr->n && r == 0; k++)
			r = insert_sorted(&p->local, &p->n_local, &cap, nr->mem[k]);
		if (r < 0)
			return r;
	}
	return 0;
}

int placement_set_cpus(struct placement *p, unsigned *cpus, size_t n, const unsigned *cpu_node,
		       size_t n_map)
{
	int r;

	free(p->cpus);
	free(p->cpu_nodes);
	p->cpus = cpus;
	p->n_cpus = n;
	r = placement_nodes_of_cpus(cpus, n, cpu_node, n_map, &p->cpu_nodes, &p->n_cpu_nodes);
	return r < 0 ? r : placement_set_local(p);
}

bool placement_actionable(enum pl_class c)
{
	return c == PL_C_REMOTE_ANON || c == PL_C_OFF_POLICY;
}

bool placement_plannable(enum pl_class c)
{
	return placement_actionable(c) || c == PL_C_REMOTE_NEAR;
}

bool placement_acts(const struct placement *p, enum pl_class c)
{
	return placement_actionable(c) || (c == PL_C_REMOTE_NEAR && p->near_actionable);
}

/* *to += v, held at UINT64_MAX when it does not fit: true then. */
static bool sat_add(uint64_t *to, uint64_t v)
{
	if (__builtin_add_overflow(*to, v, to)) {
		*to = UINT64_MAX;
		return true;
	}
	return false;
}

void placement_verdict(const struct placement *p, const unsigned *fast_nodes, size_t n_fast,
		       struct pl_verdict *out)
{
	*out = (struct pl_verdict){ .tiers = fast_nodes != NULL };
	for (size_t i = 0; i < p->n; i++) {
		const struct pl_node *n = &p->v[i];
		uint64_t here = 0;

		for (int c = 0; c < PL_NCLASS; c++) {
			out->overflow |= sat_add(&out->cls[c], n->cls[c]);
			out->overflow |= sat_add(&here, n->cls[c]);
			if (placement_actionable((enum pl_class)c))
				out->overflow |= sat_add(&out->actionable, n->cls[c]);
		}
		out->overflow |= sat_add(&out->total, here);
		if (fast_nodes && rangelist_has(fast_nodes, n_fast, n->node))
			out->overflow |= sat_add(&out->fast, here);
	}
}

void placement_near_decide(struct placement *p, double max_near, struct pl_verdict *v)
{
	size_t k = 0;

	p->near_actionable = max_near >= 0 && v->cls[PL_C_REMOTE_NEAR] &&
			     placement_pct(v->cls[PL_C_REMOTE_NEAR], v->total) > max_near;
	if (p->near_actionable) {
		v->overflow |= sat_add(&v->actionable, v->cls[PL_C_REMOTE_NEAR]);
		v->overflow |= sat_add(&p->unplanned, p->unplanned_near);
		return;
	}
	for (size_t i = 0; i < p->n_moves; i++)
		if (p->moves[i].cls != PL_C_REMOTE_NEAR)
			p->moves[k++] = p->moves[i];
	p->n_moves = k;
}

double placement_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * memory.numa_stat's file includes shmem (tmpfs, shared anonymous memory);
 * anon is private anonymous memory; hugetlb (7.x) is apart from both.  The
 * THP items are inside anon and file already.
 */
int placement_from_cgroup(struct placement *p, const struct cg_numa *s)
{
	int anon = cg_numa_item(s, "anon"), file = cg_numa_item(s, "file");
	int shmem = cg_numa_item(s, "shmem"), huge = cg_numa_item(s, "hugetlb");

	for (size_t ni = 0; ni < s->n_nodes; ni++) {
		struct pl_node *n = placement_node(p, s->node[ni]);
		uint64_t sh = shmem >= 0 ? CG_V(s, (size_t)shmem, ni) : 0;
		uint64_t f = file >= 0 ? CG_V(s, (size_t)file, ni) : 0;

		if (!n)
			return -ENOMEM;
		n->bytes[PL_ANON] = anon >= 0 ? CG_V(s, (size_t)anon, ni) : 0;
		n->bytes[PL_SHMEM] = sh;
		/* Staleness of the per-CPU batches can leave shmem a little above file. */
		n->bytes[PL_FILE] = f > sh ? f - sh : 0;
		n->bytes[PL_HUGE] = huge >= 0 ? CG_V(s, (size_t)huge, ni) : 0;
		for (int k = 0; k < PL_NKIND; k++) {
			enum pl_class c = placement_classify(p, NULL, (enum pl_kind)k, n->node);

			if (__builtin_add_overflow(n->cls[c], n->bytes[k], &n->cls[c]))
				return -EOVERFLOW;
		}
	}
	return 0;
}

int placement_add_process(struct placement *cg, struct placement *proc)
{
	for (size_t i = 0; i < proc->n; i++) {
		struct pl_node *n = placement_node(cg, proc->v[i].node);

		if (!n)
			return -ENOMEM;
		for (int c = 0; c < PL_NCLASS; c++)
			sat_add(&n->anon_cls[c], proc->v[i].anon_cls[c]);
	}
	if (proc->n_moves) {
		if (array_grow(&cg->moves, &cg->cap_moves, cg->n_moves + proc->n_moves,
			       sizeof(*cg->moves)) < 0)
			return -ENOMEM;
		memcpy(&cg->moves[cg->n_moves], proc->moves, proc->n_moves * sizeof(*proc->moves));
		cg->n_moves += proc->n_moves;
	}
	sat_add(&cg->remote_default, proc->remote_default);
	sat_add(&cg->unplanned, proc->unplanned);
	sat_add(&cg->unplanned_near, proc->unplanned_near);
	return 0;
}

/* One node: its anonymous bytes b, of the cpuset's class x, split as its mappings say. */
static void split_node(struct pl_node *n, enum pl_class x, uint64_t b)
{
	uint64_t mapped = 0, take, given = 0;
	int most = 0;

	for (int c = 0; c < PL_NCLASS; c++) {
		mapped += n->anon_cls[c];
		if (n->anon_cls[c] > n->anon_cls[most])
			most = c;
	}
	if (!mapped || n->cls[x] < b)
		return;
	take = b < mapped ? b : mapped;
	n->cls[x] -= b;
	for (int c = 0; c < PL_NCLASS; c++) {
		uint64_t part = (uint64_t)((unsigned __int128)take * n->anon_cls[c] / mapped);

		n->cls[c] += part;
		given += part;
	}
	n->cls[most] += take - given;
	n->cls[placement_actionable(x) ? PL_C_UNKNOWN : x] += b - take;
}

void placement_processes_apply(struct placement *cg)
{
	for (size_t i = 0; i < cg->n; i++) {
		struct pl_node *n = &cg->v[i];

		split_node(n, placement_classify(cg, NULL, PL_ANON, n->node),
			   n->bytes[PL_ANON] + n->bytes[PL_HUGE]);
	}
}
