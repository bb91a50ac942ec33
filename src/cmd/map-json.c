// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * map -J: one document of the machine's fields and five arrays (nodes,
 * their sources, the CXL regions, their memdevs, the dax devices), each
 * a libsmartcols table joined by out_doc.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "map-cmd.h"
#include "out.h"
#include "why.h"

#define NUM OUT_COL_NUMBER
#define NUMS OUT_COL_NUMBERS

struct col {
	const char *key;
	unsigned flags;
};

/* A JSON table with these columns (n of them); NULL after saying why. */
static struct out_table *table(const char *name, const struct col *cols, size_t n)
{
	struct out_table *t;
	char why[WHY_MAX];

	if (out_table_new(&t, name, OUT_JSON, why, sizeof(why)) < 0) {
		log_err("cannot print JSON: %s", why);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		out_table_add_column(t, cols[i].key, 0, cols[i].flags);
	return t;
}

/* Ids one per line: what a NUMBERS cell holds. */
static void id_lines(const unsigned *ids, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u", i ? "\n" : "", ids[i]);
}

static void set_u64(struct out_row *r, size_t col, uint64_t v, bool known)
{
	if (known)
		out_row_setf(r, col, "%" PRIu64, v);
	else
		out_row_set(r, col, NULL);
}

static const struct col machine_cols[] = {
	{ "packages", NUM },          { "mode", 0 },          { "auto_online_blocks", 0 },
	{ "memhp_default_state", 0 }, { "online_policy", 0 }, { "block_size", NUM },
};

static struct out_table *machine(const struct map_ctx *c)
{
	struct out_table *t = table("machine", machine_cols, 6);
	const struct memmap_policy *p = &c->m.policy;
	struct out_row *r = t ? out_table_add_row(t) : NULL;

	if (!r)
		return t;
	set_u64(r, 0, c->cls.n_packages, c->cls_err == 0 && c->cls.n_packages);
	out_row_set(r, 1, c->cls_err == 0 && c->cls.mode_text[0] ? c->cls.mode_text : NULL);
	out_row_set(r, 2, p->auto_online[0] ? p->auto_online : NULL);
	out_row_set(r, 3, p->cmdline[0] ? p->cmdline : NULL);
	out_row_set(r, 4, p->online_policy[0] ? p->online_policy : NULL);
	set_u64(r, 5, c->m.blocks.block_size, c->m.blocks_err == 0);
	return t;
}

static const struct col node_cols[] = {
	{ "node", NUM },
	{ "cpus", NUMS },
	{ "package", NUM },
	{ "tier", NUM },
	{ "demotion_targets", NUMS },
	{ "normal_bytes", NUM },
	{ "movable_bytes", NUM },
	{ "blocks", NUM },
	{ "offline_blocks", NUM },
	{ "perf", 0 },
	{ "weight", NUM },
};

static void node_row(struct out_row *r, const struct map_ctx *c, const struct memmap_node *nd)
{
	unsigned pkg = map_text_package(c, nd->node);
	char buf[8192];

	out_row_setf(r, 0, "%u", nd->node);
	id_lines(nd->cpus, nd->n_cpus, buf, sizeof(buf));
	out_row_set(r, 1, buf);
	set_u64(r, 2, pkg, pkg != NODE_CLASS_NONE);
	set_u64(r, 3, (uint64_t)nd->tier, nd->tier >= 0);
	id_lines(nd->demote, nd->n_demote, buf, sizeof(buf));
	out_row_set(r, 4, buf);
	set_u64(r, 5, memmap_zone_bytes(&c->m, nd, MEMMAP_KERNEL_ZONES), nd->zones != NULL);
	set_u64(r, 6, memmap_zone_bytes(&c->m, nd, 1u << MZ_MOVABLE), nd->zones != NULL);
	set_u64(r, 7, nd->blocks, c->m.blocks_err == 0);
	set_u64(r, 8, nd->offline, c->m.blocks_err == 0);
	out_row_set(r, 9, memmap_perf_names[nd->perf]);
	set_u64(r, 10, nd->weight, nd->weight != 0);
}

static const struct col source_cols[] = {
	{ "node", NUM },
	{ "source", 0 },
	{ "device", 0 },
	{ "blocks", NUM },
	{ "offline_blocks", NUM },
	{ "online_normal_bytes", NUM },
	{ "online_movable_bytes", NUM },
};

static void source_row(struct out_row *r, const struct map_ctx *c, const struct memmap_node *nd,
		       const struct memmap_part *p)
{
	const char *dev = map_text_device(c, p);

	out_row_setf(r, 0, "%u", nd->node);
	out_row_set(r, 1, memmap_source_names[p->source]);
	out_row_set(r, 2, dev[0] ? dev : NULL);
	out_row_setf(r, 3, "%zu", p->blocks);
	out_row_setf(r, 4, "%zu", p->offline);
	out_row_setf(r, 5, "%" PRIu64, p->online_normal);
	out_row_setf(r, 6, "%" PRIu64, p->online_movable);
}

static const struct col region_cols[] = {
	{ "region", 0 },
	{ "node", NUM },
	{ "mode", 0 },
	{ "start", NUM },
	{ "size", NUM },
	{ "dax", 0 },
	{ "access0_read_bandwidth", NUM },
	{ "access0_write_bandwidth", NUM },
	{ "access0_read_latency", NUM },
	{ "access0_write_latency", NUM },
	{ "access1_read_bandwidth", NUM },
	{ "access1_write_bandwidth", NUM },
	{ "access1_read_latency", NUM },
	{ "access1_write_latency", NUM },
};

static void region_row(struct out_row *r, const struct map_ctx *c, const struct memmap_region *g)
{
	out_row_set(r, 0, g->name);
	set_u64(r, 1, (uint64_t)g->node, g->node >= 0);
	out_row_set(r, 2, g->mode[0] ? g->mode : NULL);
	out_row_setf(r, 3, "%" PRIu64, g->start);
	out_row_setf(r, 4, "%" PRIu64, g->size);
	out_row_set(r, 5, g->dax >= 0 ? c->m.dev.dax[g->dax].name : NULL);
	for (int a = 0; a < 2; a++) {
		const struct memmap_coord *k = &g->access[a];

		set_u64(r, 6 + 4 * (size_t)a, k->read_bw, k->present);
		set_u64(r, 7 + 4 * (size_t)a, k->write_bw, k->present);
		set_u64(r, 8 + 4 * (size_t)a, k->read_lat, k->present);
		set_u64(r, 9 + 4 * (size_t)a, k->write_lat, k->present);
	}
}

static const struct col memdev_cols[] = {
	{ "memdev", 0 },      { "region", 0 },        { "decoder", 0 },     { "serial", 0 },
	{ "numa_node", NUM }, { "region_node", NUM }, { "host_bridge", 0 },
};

static void memdev_row(struct out_row *r, const struct memmap_region *g,
		       const struct memmap_memdev *md)
{
	out_row_set(r, 0, md->name[0] ? md->name : NULL);
	out_row_set(r, 1, g->name);
	out_row_set(r, 2, md->decoder);
	out_row_set(r, 3, md->serial[0] ? md->serial : NULL);
	set_u64(r, 4, (uint64_t)md->numa_node, md->numa_node >= 0);
	set_u64(r, 5, (uint64_t)g->node, g->node >= 0);
	out_row_set(r, 6, md->host_bridge[0] ? md->host_bridge : NULL);
}

static const struct col dax_cols[] = {
	{ "dax", 0 },    { "driver", 0 },  { "target_node", NUM },
	{ "region", 0 }, { "start", NUM }, { "size", NUM },
};

static void dax_row(struct out_row *r, const struct map_ctx *c, const struct memmap_dax *x)
{
	out_row_set(r, 0, x->name);
	out_row_set(r, 1, x->driver[0] ? x->driver : NULL);
	set_u64(r, 2, (uint64_t)x->target_node, x->target_node >= 0);
	out_row_set(r, 3, x->region >= 0 ? c->m.dev.regions[x->region].name : NULL);
	out_row_setf(r, 4, "%" PRIu64, x->start);
	out_row_setf(r, 5, "%" PRIu64, x->size);
}

#define COLS(a) (a), sizeof(a) / sizeof((a)[0])

static int fill(struct out_table **t, const struct map_ctx *c)
{
	const struct memmap *m = &c->m;
	struct out_row *r;

	if (!(t[0] = machine(c)) || !(t[1] = table("nodes", COLS(node_cols))) ||
	    !(t[2] = table("sources", COLS(source_cols))) ||
	    !(t[3] = table("regions", COLS(region_cols))) ||
	    !(t[4] = table("memdevs", COLS(memdev_cols))) || !(t[5] = table("dax", COLS(dax_cols))))
		return -EINVAL;
	for (size_t i = 0; i < m->n; i++) {
		if (!(r = out_table_add_row(t[1])))
			return -ENOMEM;
		node_row(r, c, &m->nodes[i]);
		for (size_t k = 0; k < m->nodes[i].n_parts; k++) {
			if (!(r = out_table_add_row(t[2])))
				return -ENOMEM;
			source_row(r, c, &m->nodes[i], &m->nodes[i].parts[k]);
		}
	}
	for (size_t i = 0; i < m->dev.n_regions; i++) {
		const struct memmap_region *g = &m->dev.regions[i];

		if (!(r = out_table_add_row(t[3])))
			return -ENOMEM;
		region_row(r, c, g);
		for (size_t k = 0; k < g->n_memdevs; k++) {
			if (!(r = out_table_add_row(t[4])))
				return -ENOMEM;
			memdev_row(r, g, &g->memdevs[k]);
		}
	}
	for (size_t i = 0; i < m->dev.n_dax; i++) {
		if (!(r = out_table_add_row(t[5])))
			return -ENOMEM;
		dax_row(r, c, &m->dev.dax[i]);
	}
	return 0;
}

int map_json_print(const struct map_ctx *c)
{
	struct out_table *t[6] = { 0 };
	struct out_doc *d = NULL;
	int r = fill(t, c);

	if (r == 0)
		r = out_doc_new(&d, 0);
	for (size_t i = 0; r == 0 && i < 6; i++)
		r = out_doc_add(d, t[i], i == 0 ? OUT_PART_FIELDS : OUT_PART_ARRAY);
	if (r == 0)
		r = out_doc_print(d, stdout);
	if (r == -ENOMEM)
		log_err("out of memory");
	out_doc_free(d);
	for (size_t i = 0; i < 6; i++)
		out_table_free(t[i]);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}
