// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise's rules on the memory map (advise.h): what the map (memmap.h)
 * says about where memory is onlined, tiered, measured and attached.  The
 * table entries are in advise-rules.c; these are their evaluations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "memmap.h"
#include "value.h"

/* The map read with the facts: NULL (not read, as in most unit tests) means no verdict. */
static const struct memmap *map_of(const struct advise_facts *f)
{
	return f->map;
}

static void tier_evidence(struct advice *a, const struct memmap *m)
{
	char list[256];

	for (size_t i = 0; i < m->tiers.n; i++) {
		rangelist_format(m->tiers.v[i].nodes, m->tiers.v[i].n, list, sizeof(list));
		advice_evidence(a, MEMTIER_DIR "/memory_tier%u/nodelist: %s", m->tiers.v[i].id,
				list);
	}
}

static void policy_evidence(struct advice *a, const struct memmap *m)
{
	if (m->policy.auto_online[0])
		advice_evidence(a, MEMORY_DIR "/auto_online_blocks: %s", m->policy.auto_online);
	if (m->policy.cmdline[0])
		advice_evidence(a, "/proc/cmdline: memhp_default_state=%s", m->policy.cmdline);
}

int advise_map_lower_tier_normal(const struct advise_facts *f, const struct advise_rule *r,
				 struct advice_list *out)
{
	const struct memmap *m = map_of(f);
	char size[16];

	if (!m || m->zi_err || m->tiers.n < 2)
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct memmap_node *nd = &m->nodes[i];
		uint64_t normal = memmap_zone_bytes(m, nd, MEMMAP_KERNEL_ZONES);
		struct advice *a;

		if (nd->tier < 0 || nd->tier == (long)m->tiers.v[0].id || !normal)
			continue;
		if (!(a = advice_new(out, r, ADV_ADVICE)))
			return -ENOMEM;
		fmt_human(normal, FMT_SIZE, size, sizeof(size));
		advice_text(a,
			    "node %u is in a slower tier (memory_tier%ld) with %s in ZONE_NORMAL: "
			    "online its memory as online_movable (auto_online_blocks, or "
			    "memhp_default_state=online_movable on the kernel command line)",
			    nd->node, nd->tier, size);
		advice_evidence(a, ZONEINFO ": node %u: %s present in the zones below Movable",
				nd->node, size);
		tier_evidence(a, m);
		policy_evidence(a, m);
	}
	return 0;
}

/* Memory of a device (a CXL region, a dax device) on node nd. */
static const struct memmap_part *device_part(const struct memmap_node *nd)
{
	for (size_t i = 0; i < nd->n_parts; i++)
		if (nd->parts[i].source == MS_CXL || nd->parts[i].source == MS_DAX)
			return &nd->parts[i];
	return NULL;
}

static const char *part_device(const struct memmap *m, const struct memmap_part *p)
{
	return p->source == MS_CXL ? m->dev.regions[p->dev].name : m->dev.dax[p->dev].name;
}

bool advise_map_one_tier(const struct advise_facts *f)
{
	const struct memmap *m = map_of(f);
	size_t memory = 0;
	bool device = false;

	if (!m || m->tiers_err || m->tiers.n != 1)
		return false;
	for (size_t i = 0; i < m->n; i++) {
		memory += m->nodes[i].memory;
		device |= m->nodes[i].memory && device_part(&m->nodes[i]);
	}
	return memory >= 2 && device;
}

int advise_map_one_tier_eval(const struct advise_facts *f, const struct advise_rule *r,
			     struct advice_list *out)
{
	const struct memmap *m = map_of(f);
	struct advice *a;

	if (!advise_map_one_tier(f))
		return 0;
	if (!(a = advice_new(out, r, ADV_NOTE)))
		return -ENOMEM;
	advice_text(a,
		    "every node with memory is in memory_tier%u, CXL or dax memory too: "
		    "promotion and demotion cannot happen, so tiering mode and demotion would "
		    "do nothing",
		    m->tiers.v[0].id);
	tier_evidence(a, m);
	for (size_t i = 0; i < m->n; i++) {
		const struct memmap_part *p = device_part(&m->nodes[i]);

		if (p)
			advice_evidence(a, "node %u: memory of %s %s, performance data: %s",
					m->nodes[i].node, memmap_source_names[p->source],
					part_device(m, p), memmap_perf_names[m->nodes[i].perf]);
	}
	advice_evidence(a, "a node goes to a slower tier through its HMAT or CXL figures "
			   "(6.12+) or dax/kmem's default (memory_tier22)");
	return 0;
}

int advise_map_cpuless_no_perf(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out)
{
	const struct memmap *m = map_of(f);

	for (size_t i = 0; m && i < m->n; i++) {
		const struct memmap_node *nd = &m->nodes[i];
		struct advice *a;

		if (!nd->memory || nd->n_cpus || nd->perf != MP_NONE)
			continue;
		if (!(a = advice_new(out, r, ADV_NOTE)))
			return -ENOMEM;
		advice_text(a,
			    "node %u has memory, no CPU and no performance data: weighted "
			    "interleave's auto weights give it 1, as much as any node, and its "
			    "tier comes from no figure",
			    nd->node);
		advice_evidence(a,
				NODE_DIR "/node%u/access0/initiators, access1/initiators: absent",
				nd->node);
		advice_evidence(a, "no CXL region with access coordinates holds node %u's memory",
				nd->node);
	}
	return 0;
}

int advise_map_cxl_memdev_node(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out)
{
	const struct memmap *m = map_of(f);

	for (size_t i = 0; m && i < m->dev.n_regions; i++) {
		const struct memmap_region *g = &m->dev.regions[i];

		for (size_t k = 0; g->node >= 0 && k < g->n_memdevs; k++) {
			const struct memmap_memdev *md = &g->memdevs[k];
			struct advice *a;

			if (md->numa_node < 0 || md->numa_node == g->node)
				continue;
			if (!(a = advice_new(out, r, ADV_NOTE)))
				return -ENOMEM;
			advice_text(
				a,
				"CXL %s's numa_node is %d, the node of its PCI device; its memory "
				"(%s) is node %d: bind, interleave and watch node %d",
				md->name, md->numa_node, g->name, g->node, g->node);
			advice_evidence(a, CXL_DEVICES "/%s/numa_node: %d", md->name,
					md->numa_node);
			advice_evidence(a, CXL_DEVICES "/%s/%s: %s", g->name, "target",
					md->decoder);
			advice_evidence(a, "%s's memory is on node %d (%s)", g->name, g->node,
					g->dax >= 0 ? "its dax device's target_node"
						    : "its memory blocks' node");
		}
	}
	return 0;
}

/* The offline blocks of a hot-added part (CXL, dax, ACPI) of nd, as ids into list. */
static size_t offline_blocks(const struct memmap *m, const struct memmap_node *nd,
			     const struct memmap_part *p, char *list, size_t len)
{
	unsigned *ids = malloc((p->blocks ? p->blocks : 1) * sizeof(*ids));
	size_t n = 0;
	int dev;

	list[0] = '\0';
	for (size_t i = 0; ids && i < m->blocks.n && n < p->blocks; i++) {
		const struct memmap_block *b = &m->blocks.v[i];

		if (b->node == nd->node && b->state != MB_ONLINE &&
		    memmap_block_source(&m->dev, m->blocks.block_size, b, &dev) == p->source &&
		    dev == p->dev && (p->source != MS_ACPI || !strcmp(b->acpi, p->acpi)))
			ids[n++] = b->id;
	}
	if (ids)
		rangelist_format(ids, n, list, len);
	free(ids);
	return n;
}

int advise_map_hotplug_offline(const struct advise_facts *f, const struct advise_rule *r,
			       struct advice_list *out)
{
	const struct memmap *m = map_of(f);
	char list[256], size[16];

	for (size_t i = 0; m && !m->blocks_err && i < m->n; i++)
		for (size_t k = 0; k < m->nodes[i].n_parts; k++) {
			const struct memmap_part *p = &m->nodes[i].parts[k];
			struct advice *a;

			if (!p->offline || p->source == MS_BOOT || p->source == MS_UNATTRIBUTED)
				continue;
			if (!(a = advice_new(out, r, ADV_ADVICE)))
				return -ENOMEM;
			offline_blocks(m, &m->nodes[i], p, list, sizeof(list));
			fmt_human(p->offline * m->blocks.block_size, FMT_SIZE, size, sizeof(size));
			advice_text(
				a,
				"node %u: %zu of the %zu blocks of %s %s are offline (%s): online "
				"them, as online_movable to keep them unpluggable",
				m->nodes[i].node, p->offline, p->blocks,
				memmap_source_names[p->source],
				p->source == MS_ACPI ? p->acpi : part_device(m, p), size);
			advice_evidence(a, MEMORY_DIR "/memoryN/state: offline for N = %s", list);
			policy_evidence(a, m);
		}
	return 0;
}
