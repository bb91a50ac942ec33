// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine as the placement verdict sees it (placement-machine.h): read
 * once per run, before any target.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"
#include "placement-machine.h"
#include "sysfs.h"
#include "value.h"
#include "vmstat.h"
#include "why.h"

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * node's index in the sorted nodes, n when it is not there.  A search, not
 * a scan: it runs for every CPU and for every distance the plan asks.
 */
static size_t index_of(const unsigned *nodes, size_t n, unsigned node)
{
	const unsigned *at = n ? bsearch(&node, nodes, n, sizeof(*nodes), cmp_unsigned) : NULL;

	return at ? (size_t)(at - nodes) : n;
}

static unsigned distance(const void *ctx, unsigned a, unsigned b)
{
	const struct placement_machine *m = ctx;
	size_t i = index_of(m->nodes, m->n_nodes, a), j = index_of(m->nodes, m->n_nodes, b);

	return i < m->n_nodes && j < m->n_nodes && m->dist ? m->dist[i * m->n_nodes + j]
							   : UINT32_MAX;
}

/* The node of every CPU and the nodes with CPUs: linear in CPUs and nodes. */
static int read_cpus(struct placement_machine *m)
{
	bool *with_cpu;

	if (node_cpumap_read(m->nodes, m->n_nodes, &m->map) < 0)
		return -ENOMEM;
	with_cpu = calloc(m->n_nodes ? m->n_nodes : 1, sizeof(*with_cpu));
	m->cpu_nodes = malloc((m->n_nodes ? m->n_nodes : 1) * sizeof(*m->cpu_nodes));
	if (!with_cpu || !m->cpu_nodes) {
		free(with_cpu);
		return -ENOMEM;
	}
	for (size_t c = 0; c < m->map.n; c++) {
		size_t at = index_of(m->nodes, m->n_nodes, m->map.node_of[c]);

		if (at < m->n_nodes)
			with_cpu[at] = true;
	}
	for (size_t i = 0; i < m->n_nodes; i++)
		if (with_cpu[i])
			m->cpu_nodes[m->n_cpu_nodes++] = m->nodes[i];
	free(with_cpu);
	return 0;
}

/*
 * The packages and the distance matrix, one read for both, of the nodes and
 * CPU map read here; the classes count only where some node's package is
 * known.
 */
static int read_classes(struct placement_machine *m)
{
	int r = node_class_read_map(&m->classes, m->nodes, m->n_nodes, &m->map);

	m->dist = m->classes.dist;
	for (size_t i = 0; r == 0 && i < m->classes.n; i++)
		if (m->classes.v[i].package != NODE_CLASS_NONE)
			m->pl.classes = &m->classes;
	return r;
}

/* The memoryless nodes with CPUs and their nearest memory nodes. */
static int read_near(struct placement_machine *m)
{
	unsigned *mem = NULL;
	int n_mem = node_mask_read("has_memory", &mem);

	if (n_mem < 0)
		return n_mem == -ENOMEM ? n_mem : 0; /* no mask: every node has memory */
	m->near = calloc(m->n_cpu_nodes ? m->n_cpu_nodes : 1, sizeof(*m->near));
	if (!m->near) {
		free(mem);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->n_cpu_nodes; i++) {
		unsigned node = m->cpu_nodes[i];
		struct pl_near *nr = &m->near[m->pl.n_near];

		if (rangelist_has(mem, (size_t)n_mem, node))
			continue;
		nr->node = node;
		nr->mem = malloc((m->n_nodes ? m->n_nodes : 1) * sizeof(*nr->mem));
		if (!nr->mem) {
			free(mem);
			return -ENOMEM;
		}
		nr->n = node_distance_nearest(m->dist, m->nodes, m->n_nodes,
					      index_of(m->nodes, m->n_nodes, node), mem,
					      (size_t)n_mem, nr->mem);
		m->pl.n_near++;
	}
	m->pl.near = m->near;
	free(mem);
	return 0;
}

static int tier_index(const struct memtiers *t, unsigned node)
{
	for (size_t i = 0; i < t->n; i++)
		if (rangelist_has(t->v[i].nodes, t->v[i].n, node))
			return (int)i;
	return -1;
}

size_t placement_machine_demoted_to(const struct memtiers *t, const unsigned *nodes,
				    const uint64_t *demoted, size_t n, unsigned *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int here = tier_index(t, nodes[i]);
		bool into = demoted[i] > 0;

		for (size_t j = 0; j < n && !into && here >= 0; j++) {
			int there = tier_index(t, nodes[j]);

			into = demoted[j] > 0 && there >= 0 && there < here;
		}
		if (into && here > 0)
			out[k++] = nodes[i];
	}
	return k;
}

static uint64_t demotions(const struct vmstat_sel *v, bool *have)
{
	uint64_t sum = 0;

	for (int k = VMS_PGDEMOTE_KSWAPD; k <= VMS_PGDEMOTE_PROACTIVE; k++)
		if (v->have & VMS_BIT(k)) {
			sum += v->v[k];
			*have = true;
		}
	return sum;
}

/*
 * The evidence of demotion: pgdemote_* counted, globally and per node where
 * the kernel keeps them there.  demotion_enabled says demotion may happen,
 * not that it did, so it is no evidence.
 */
static int read_demotion(struct placement_machine *m)
{
	char *buf = malloc(VMSTAT_BUF), why[WHY_MAX], path[128];
	uint64_t *per = calloc(m->n_nodes ? m->n_nodes : 1, sizeof(*per));
	struct vmstat_sel v = { 0 };
	bool have = false, per_node = false;

	m->demoted_to = malloc((m->n_nodes ? m->n_nodes : 1) * sizeof(*m->demoted_to));
	if (!buf || !per || !m->demoted_to) {
		free(buf);
		free(per);
		return -ENOMEM;
	}
	if (vmstat_read(VMSTAT_GLOBAL, &v, buf, VMSTAT_BUF, why, sizeof(why)) == 0)
		m->pl.demotion = demotions(&v, &have) > 0;
	for (size_t i = 0; i < m->n_nodes && m->pl.tiers; i++) {
		v = (struct vmstat_sel){ 0 };
		vmstat_node_path(m->nodes[i], path, sizeof(path));
		if (vmstat_read(path, &v, buf, VMSTAT_BUF, why, sizeof(why)) == 0)
			per[i] = demotions(&v, &per_node);
	}
	if (per_node && m->pl.tiers) {
		m->pl.n_demoted_to = placement_machine_demoted_to(m->pl.tiers, m->nodes, per,
								  m->n_nodes, m->demoted_to);
		m->pl.demoted_to = m->demoted_to;
		m->pl.demotion = m->pl.n_demoted_to > 0;
	}
	free(buf);
	free(per);
	return 0;
}

/* The fastest tier, when two or more hold nodes: without tiers there is no fast share. */
static void read_tiers(struct placement_machine *m)
{
	char why[WHY_MAX];
	size_t with_nodes = 0;

	if (node_memtiers_read(&m->tiers, why, sizeof(why)) == 0)
		for (size_t i = 0; i < m->tiers.n; i++)
			if (m->tiers.v[i].n && !with_nodes++) {
				m->fast = m->tiers.v[i].nodes;
				m->n_fast = m->tiers.v[i].n;
			}
	if (with_nodes < 2)
		m->fast = NULL;
	m->pl.tiers = m->fast ? &m->tiers : NULL;
}

int placement_machine_read(struct placement_machine *m, char *why, size_t whylen)
{
	char wwhy[WHY_MAX];
	ssize_t len;
	int n = nodes_enumerate(&m->nodes), r;

	if (n < 0) {
		snprintf(why, whylen, NODE_DIR ": %s", strerror(-n));
		return n;
	}
	m->n_nodes = (size_t)n;
	read_tiers(m);
	r = read_cpus(m);
	if (r == 0)
		r = read_classes(m);
	if (r == 0)
		r = read_near(m);
	if (r == 0)
		r = read_demotion(m);
	if (r < 0) {
		snprintf(why, whylen, "out of memory");
		return r;
	}
	m->pl.distance = distance;
	m->pl.distance_ctx = m;
	/* Weights that cannot be read leave the shares unchecked, nothing else. */
	if (interleave_weights_read(&m->weights, wwhy, sizeof(wwhy)) == 0 && m->weights.n)
		m->pl.weights = &m->weights;
	len = sysfs_read_file("/proc/sys/kernel/numa_balancing", m->balancing,
			      sizeof(m->balancing));
	if (len < 0)
		m->balancing[0] = '\0';
	else
		str_strip(m->balancing);
	return 0;
}

void placement_machine_free(struct placement_machine *m)
{
	for (size_t i = 0; i < m->pl.n_near; i++)
		free(m->near[i].mem);
	free(m->near);
	free(m->nodes);
	node_cpumap_free(&m->map);
	free(m->cpu_nodes);
	node_memtiers_free(&m->tiers);
	free(m->demoted_to);
	node_class_free(&m->classes);
	interleave_weights_free(&m->weights);
	*m = (struct placement_machine){ 0 };
}
