// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * map --prometheus: the map as info series (value 1, the facts in labels)
 * and the sizes as gauges, under numastatctl_ as every series here.  The
 * series grow with nodes and devices, which the kernel bounds.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cmd.h"
#include "map-cmd.h"
#include "prom.h"

/* name{label="value"...: labels given as pairs, values escaped; then " value\n". */
static void series_start(FILE *f, const char *name, const char *const *kv, size_t n)
{
	fprintf(f, "%s{", name);
	for (size_t i = 0; i + 1 < n; i += 2) {
		fprintf(f, "%s%s=\"", i ? "," : "", kv[i]);
		prom_label_value(f, kv[i + 1]);
		fputc('"', f);
	}
	fputc('}', f);
}

static void node_info(FILE *f, const struct map_ctx *c, const struct memmap_node *nd)
{
	char node[16], pkg[16], tier[24], demote[256], weight[16];
	unsigned p = map_text_package(c, nd->node);
	const char *kv[] = { "node",
			     node,
			     "package",
			     pkg,
			     "tier",
			     tier,
			     "demotion_targets",
			     demote,
			     "perf",
			     memmap_perf_names[nd->perf],
			     "weight",
			     weight };

	snprintf(node, sizeof(node), "%u", nd->node);
	snprintf(pkg, sizeof(pkg), p == NODE_CLASS_NONE ? "" : "%u", p);
	snprintf(tier, sizeof(tier), nd->tier < 0 ? "" : "%ld", nd->tier);
	rangelist_format(nd->demote, nd->n_demote, demote, sizeof(demote));
	snprintf(weight, sizeof(weight), nd->weight ? "%u" : "", nd->weight);
	series_start(f, "numastatctl_node_map_info", kv, sizeof(kv) / sizeof(kv[0]));
	fputs(" 1\n", f);
}

static void node_sources(FILE *f, const struct map_ctx *c, const struct memmap_node *nd)
{
	char node[16];

	snprintf(node, sizeof(node), "%u", nd->node);
	for (size_t i = 0; i < nd->n_parts; i++) {
		const char *kv[] = { "node",   node,
				     "source", memmap_source_names[nd->parts[i].source],
				     "device", map_text_device(c, &nd->parts[i]) };

		series_start(f, "numastatctl_node_memory_source_info", kv, 6);
		fputs(" 1\n", f);
	}
}

static void node_sizes(FILE *f, const struct map_ctx *c, const struct memmap_node *nd, bool blocks)
{
	char node[16];
	const char *normal[] = { "node", node, "zone", "normal" },
		   *movable[] = { "node", node, "zone", "movable" },
		   *offline[] = { "node", node, "state", "offline" },
		   *online[] = { "node", node, "state", "online" };

	snprintf(node, sizeof(node), "%u", nd->node);
	if (!blocks && nd->zones) {
		series_start(f, "numastatctl_node_zone_present_bytes", normal, 4);
		fprintf(f, " %" PRIu64 "\n", memmap_zone_bytes(&c->m, nd, MEMMAP_KERNEL_ZONES));
		series_start(f, "numastatctl_node_zone_present_bytes", movable, 4);
		fprintf(f, " %" PRIu64 "\n", memmap_zone_bytes(&c->m, nd, 1u << MZ_MOVABLE));
	}
	if (blocks && c->m.blocks_err == 0) {
		series_start(f, "numastatctl_node_memory_blocks", online, 4);
		fprintf(f, " %zu\n", nd->blocks - nd->offline);
		series_start(f, "numastatctl_node_memory_blocks", offline, 4);
		fprintf(f, " %zu\n", nd->offline);
	}
}

static void memdevs(FILE *f, const struct memmap_devices *d)
{
	for (size_t i = 0; i < d->n_regions; i++)
		for (size_t k = 0; k < d->regions[i].n_memdevs; k++) {
			const struct memmap_memdev *md = &d->regions[i].memdevs[k];
			char mnode[16], rnode[16];
			const char *kv[] = { "memdev",    md->name,      "serial",
					     md->serial,  "region",      d->regions[i].name,
					     "numa_node", mnode,         "region_node",
					     rnode,       "host_bridge", md->host_bridge };

			snprintf(mnode, sizeof(mnode), md->numa_node < 0 ? "" : "%d",
				 md->numa_node);
			snprintf(rnode, sizeof(rnode), d->regions[i].node < 0 ? "" : "%d",
				 d->regions[i].node);
			series_start(f, "numastatctl_cxl_memdev_info", kv, 12);
			fputs(" 1\n", f);
		}
}

static void policy(FILE *f, const struct memmap_policy *p)
{
	const char *kv[] = { "auto_online_blocks", p->auto_online,  "memhp_default_state",
			     p->cmdline,           "online_policy", p->online_policy };

	prom_family(f, "numastatctl_memory_online_policy_info", "gauge",
		    "Always 1: how hot-added memory is onlined (auto_online_blocks, "
		    "memhp_default_state= on the kernel command line, "
		    "memory_hotplug.online_policy; empty when absent).");
	series_start(f, "numastatctl_memory_online_policy_info", kv, 6);
	fputs(" 1\n", f);
}

int map_prom_print(const struct map_ctx *c, FILE *f)
{
	const struct memmap *m = &c->m;

	prom_family(f, "numastatctl_node_map_info", "gauge",
		    "Always 1: a node's package, memory tier, demotion targets, source of "
		    "performance data (hmat, cxl, none) and weighted interleave weight.");
	for (size_t i = 0; i < m->n; i++)
		node_info(f, c, &m->nodes[i]);
	prom_family(f, "numastatctl_node_memory_source_info", "gauge",
		    "Always 1: where a node's memory blocks come from (boot, cxl, dax, acpi, "
		    "unattributed) and the device.");
	for (size_t i = 0; i < m->n; i++)
		node_sources(f, c, &m->nodes[i]);
	if (m->zi_err == 0)
		prom_family(f, "numastatctl_node_zone_present_bytes", "gauge",
			    "A node's memory present in the kernel's zones (normal: every zone "
			    "below Movable) and in ZONE_MOVABLE, from /proc/zoneinfo.");
	for (size_t i = 0; i < m->n; i++)
		node_sizes(f, c, &m->nodes[i], false);
	if (m->blocks_err == 0)
		prom_family(f, "numastatctl_node_memory_blocks", "gauge",
			    "A node's memory blocks by state (online; offline, which counts "
			    "going-offline).");
	for (size_t i = 0; i < m->n; i++)
		node_sizes(f, c, &m->nodes[i], true);
	if (m->dev.n_regions)
		prom_family(f, "numastatctl_cxl_memdev_info", "gauge",
			    "Always 1: a CXL memdev of a region, its serial, the node of its PCI "
			    "device (numa_node) and the node its region's memory went to.");
	memdevs(f, &m->dev);
	policy(f, &m->policy);
	return ferror(f) ? EXIT_FAIL : EXIT_OK;
}
