// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * map's text: three lines on the machine (packages and mode, tiers, the
 * online policy), a table of 80 columns with a row per node, and a line
 * per node below it with what the table has no room for: its CPUs and L3,
 * the devices behind its memory and their figures.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "map-cmd.h"
#include "out.h"
#include "value.h"
#include "why.h"
#include "wrap.h"

#define LINE_MAX_TEXT 4096

/* Text appended to a line being built; a line that would not fit ends where it was. */
struct line {
	char s[LINE_MAX_TEXT];
	size_t used;
};

__attribute__((format(printf, 2, 3))) static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->used >= sizeof(l->s))
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->s + l->used, sizeof(l->s) - l->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n;
}

/* Text from sysfs (device names, serials), escaped for the terminal. */
static const char *esc(const char *s, char *buf, size_t len)
{
	return escape_text(s, buf, len, 0);
}

static void put_line(const struct line *l)
{
	wrap_fputs(stdout, l->s, 0, 2, wrap_width(STDOUT_FILENO));
	putchar('\n');
}

const char *map_text_device(const struct map_ctx *c, const struct memmap_part *p)
{
	if (p->source == MS_CXL)
		return c->m.dev.regions[p->dev].name;
	if (p->source == MS_DAX)
		return c->m.dev.dax[p->dev].name;
	return p->source == MS_ACPI ? p->acpi : "";
}

unsigned map_text_package(const struct map_ctx *c, unsigned node)
{
	const struct node_class_node *k = c->cls_err ? NULL : node_class_find(&c->cls, node);

	return k ? k->package : NODE_CLASS_NONE;
}

const char *map_text_policy_from(const struct memmap_policy *p)
{
	return p->cmdline[0] ? "memhp_default_state= on the kernel command line"
			     : "the kernel's build default, unless written since boot";
}

struct pkg_node {
	unsigned package, node;
};

static int by_package(const void *a, const void *b)
{
	const struct pkg_node *x = a, *y = b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/*
 * "packages: 0 (nodes 0-2,6), 1 (nodes 3-5)": near and far in one line,
 * a node's siblings being its package's other nodes.  Sorted once, so a
 * thousand nodes cost no more than their sort.
 */
static void package_line(const struct map_ctx *c)
{
	struct pkg_node *v = calloc(c->m.n ? c->m.n : 1, sizeof(*v));
	unsigned *ids = calloc(c->m.n ? c->m.n : 1, sizeof(*ids));
	struct line l = { 0 };
	char list[1024];
	size_t n = 0;

	for (size_t i = 0; v && ids && i < c->m.n; i++) {
		unsigned p = map_text_package(c, c->m.nodes[i].node);

		if (p != NODE_CLASS_NONE)
			v[n++] = (struct pkg_node){ p, c->m.nodes[i].node };
	}
	if (n) {
		qsort(v, n, sizeof(*v), by_package);
		add(&l, "packages:");
	}
	for (size_t i = 0, k; i < n; i = k) {
		size_t m = 0;

		for (k = i; k < n && v[k].package == v[i].package; k++)
			ids[m++] = v[k].node;
		rangelist_format(ids, m, list, sizeof(list));
		add(&l, "%s %u (node%s %s)", i ? "," : "", v[i].package, m == 1 ? "" : "s", list);
	}
	if (n)
		put_line(&l);
	free(v);
	free(ids);
}

static void machine_lines(const struct map_ctx *c)
{
	const struct memmap *m = &c->m;
	struct line l = { 0 };
	char nodes[256], word[128];

	add(&l, "nodes: %zu", m->n);
	if (c->cls_err == 0 && c->cls.n_packages)
		add(&l, " in %u package%s%s%s%s", c->cls.n_packages,
		    c->cls.n_packages == 1 ? "" : "s", c->cls.mode_text[0] ? " (" : "",
		    c->cls.mode_text, c->cls.mode_text[0] ? ")" : "");
	else
		add(&l, "; packages not known (no CPU topology here)");
	put_line(&l);
	package_line(c);
	l.used = 0;
	if (m->tiers_err == -ENOENT || m->tiers.n == 0)
		add(&l, "memory tiers: none on this kernel (they came with Linux 6.1)");
	else
		add(&l, "memory tiers: %zu%s", m->tiers.n,
		    m->tiers.n == 1 ? ", so no promotion or demotion" : ", fastest first");
	for (size_t i = 0; m->tiers_err == 0 && i < m->tiers.n; i++) {
		rangelist_format(m->tiers.v[i].nodes, m->tiers.v[i].n, nodes, sizeof(nodes));
		add(&l, "%s memory_tier%u (node%s %s)", i ? "," : ":", m->tiers.v[i].id,
		    m->tiers.v[i].n == 1 ? "" : "s", nodes);
	}
	put_line(&l);
	l.used = 0;
	if (!m->policy.auto_online[0])
		add(&l, "hot-added memory: no " MEMORY_DIR "/auto_online_blocks on this kernel");
	else
		add(&l, "hot-added memory: auto_online_blocks = %s (%s)",
		    esc(m->policy.auto_online, word, sizeof(word)),
		    map_text_policy_from(&m->policy));
	if (m->policy.online_policy[0])
		add(&l, "; memory_hotplug.online_policy = %s",
		    esc(m->policy.online_policy, word, sizeof(word)));
	put_line(&l);
}

/* "cxl region0", "boot", "boot+acpi": a node's sources for its cell. */
static void source_cell(const struct map_ctx *c, const struct memmap_node *nd, char *buf,
			size_t len)
{
	char dev[MEMMAP_NAME_MAX * 4];
	size_t used = 0;

	if (c->m.blocks_err < 0)
		snprintf(buf, len, "%s", nd->memory ? "-" : "none");
	else if (nd->n_parts == 0)
		snprintf(buf, len, "none");
	else if (nd->n_parts == 1 && nd->parts[0].source != MS_BOOT &&
		 nd->parts[0].source != MS_UNATTRIBUTED)
		snprintf(buf, len, "%s %s", memmap_source_names[nd->parts[0].source],
			 esc(map_text_device(c, &nd->parts[0]), dev, sizeof(dev)));
	else
		for (size_t i = 0; i < nd->n_parts && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "+" : "",
						 memmap_source_names[nd->parts[i].source]);
}

static void size_cell(uint64_t bytes, bool known, char *buf, size_t len)
{
	if (known)
		fmt_human(bytes, FMT_SIZE, buf, len);
	else
		snprintf(buf, len, "-");
}

static int add_row(struct out_table *t, const struct map_ctx *c, const struct memmap_node *nd)
{
	struct out_row *r = out_table_add_row(t);
	unsigned pkg = map_text_package(c, nd->node);
	char cell[256];
	const struct memmap *m = &c->m;

	if (!r)
		return -ENOMEM;
	out_row_setf(r, 0, "%u", nd->node);
	out_row_setf(r, 1, "%zu", nd->n_cpus);
	if (pkg == NODE_CLASS_NONE)
		out_row_set(r, 2, "-");
	else
		out_row_setf(r, 2, "%u", pkg);
	if (nd->tier < 0)
		out_row_set(r, 3, "-");
	else
		out_row_setf(r, 3, "%ld", nd->tier);
	rangelist_format(nd->demote, nd->n_demote, cell, sizeof(cell));
	out_row_set(r, 4, nd->n_demote ? cell : "-");
	source_cell(c, nd, cell, sizeof(cell));
	out_row_set(r, 5, cell);
	size_cell(memmap_zone_bytes(m, nd, MEMMAP_KERNEL_ZONES), nd->zones != NULL, cell,
		  sizeof(cell));
	out_row_set(r, 6, cell);
	size_cell(memmap_zone_bytes(m, nd, 1u << MZ_MOVABLE), nd->zones != NULL, cell,
		  sizeof(cell));
	out_row_set(r, 7, cell);
	size_cell(nd->offline * m->blocks.block_size, m->blocks_err == 0, cell, sizeof(cell));
	out_row_set(r, 8, cell);
	out_row_set(r, 9, memmap_perf_names[nd->perf]);
	if (nd->weight)
		out_row_setf(r, 10, "%u", nd->weight);
	else
		out_row_set(r, 10, "-");
	return 0;
}

static int print_table(const struct map_ctx *c)
{
	static const struct {
		const char *name;
		unsigned flags;
	} cols[] = {
		{ "NODE", OUT_COL_RIGHT },
		{ "CPUS", OUT_COL_RIGHT },
		{ "PKG", OUT_COL_RIGHT },
		{ "TIER", OUT_COL_RIGHT },
		{ "DEMOTE", 0 },
		{ "SOURCE", OUT_COL_TRUNC },
		{ "NORMAL", OUT_COL_RIGHT },
		{ "MOVABLE", OUT_COL_RIGHT },
		{ "OFFLINE", OUT_COL_RIGHT },
		{ "PERF", 0 },
		{ "WEIGHT", OUT_COL_RIGHT },
	};
	struct out_table *t;
	char why[WHY_MAX];
	int r = out_table_new(&t, "nodes", 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		out_table_add_column(t, cols[i].name, 0, cols[i].flags);
	for (size_t i = 0; r == 0 && i < c->m.n; i++)
		r = add_row(t, c, &c->m.nodes[i]);
	if (r == 0)
		r = out_table_print(t, stdout);
	out_table_free(t);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

static void coord_text(struct line *l, const char *name, const struct memmap_coord *k)
{
	if (k->present)
		add(l,
		    ", %s read %" PRIu64 " MB/s %" PRIu64 " ns, write %" PRIu64 " MB/s %" PRIu64
		    " ns",
		    name, k->read_bw, k->read_lat, k->write_bw, k->write_lat);
}

static void region_text(struct line *l, const struct map_ctx *c, const struct memmap_region *r)
{
	char a[MEMMAP_NAME_MAX * 4], b[MEMMAP_NAME_MAX * 4], h[MEMMAP_NAME_MAX * 4], size[16];

	fmt_human(r->size, FMT_SIZE, size, sizeof(size));
	add(l, "; CXL %s (%s%s%s) of", esc(r->name, a, sizeof(a)), r->mode[0] ? r->mode : "",
	    r->mode[0] ? ", " : "", size);
	for (size_t i = 0; i < r->n_memdevs; i++) {
		const struct memmap_memdev *md = &r->memdevs[i];

		add(l, "%s %s (serial %s, numa_node %d, host bridge %s)", i ? " and" : "",
		    md->name[0] ? esc(md->name, a, sizeof(a)) : esc(md->decoder, a, sizeof(a)),
		    md->serial[0] ? esc(md->serial, b, sizeof(b)) : "unknown", md->numa_node,
		    md->host_bridge[0] ? esc(md->host_bridge, h, sizeof(h)) : "unknown");
	}
	if (!r->n_memdevs)
		add(l, " no memdev named");
	coord_text(l, "access0", &r->access[0]);
	coord_text(l, "access1", &r->access[1]);
	if (r->dax >= 0)
		add(l, ", as %s (%s)", esc(c->m.dev.dax[r->dax].name, a, sizeof(a)),
		    c->m.dev.dax[r->dax].driver[0] ? esc(c->m.dev.dax[r->dax].driver, b, sizeof(b))
						   : "no driver");
}

static void part_text(struct line *l, const struct map_ctx *c, const struct memmap_part *p)
{
	char a[MEMMAP_NAME_MAX * 4], b[MEMMAP_NAME_MAX * 4];

	switch (p->source) {
	case MS_CXL:
		region_text(l, c, &c->m.dev.regions[p->dev]);
		break;
	case MS_DAX:
		add(l, "; %s onlined by %s", esc(c->m.dev.dax[p->dev].name, a, sizeof(a)),
		    c->m.dev.dax[p->dev].driver[0] ? esc(c->m.dev.dax[p->dev].driver, b, sizeof(b))
						   : "no driver");
		break;
	case MS_ACPI:
		add(l, "; ACPI memory device %s", esc(p->acpi, a, sizeof(a)));
		break;
	case MS_UNATTRIBUTED:
		if (c->m.dev.firmware)
			add(l, "; unattributed: no CXL region, dax device, ACPI memory device or "
			       "firmware map entry covers it");
		else
			add(l, "; unattributed: no CXL region, dax device or ACPI memory device "
			       "covers it, and without " FIRMWARE_MEMMAP " nothing tells boot "
			       "memory");
		break;
	case MS_BOOT:
	case MS_COUNT:
		return;
	}
	add(l, ": %zu block%s", p->blocks, p->blocks == 1 ? "" : "s");
	if (p->offline)
		add(l, ", %zu offline", p->offline);
}

static void node_line(const struct map_ctx *c, const struct memmap_node *nd)
{
	const struct node_class_node *k = c->cls_err ? NULL : node_class_find(&c->cls, nd->node);
	struct line l = { 0 };
	char cpus[512], l3[256];

	rangelist_format(nd->cpus, nd->n_cpus, cpus, sizeof(cpus));
	add(&l, "node %u: %s%s", nd->node, nd->n_cpus ? "CPUs " : "no CPUs", cpus);
	if (k && k->l3_cpus[0])
		add(&l, " (L3 of CPUs %s)", esc(k->l3_cpus, l3, sizeof(l3)));
	if (k && k->from == NODE_PACKAGE_NEAREST)
		add(&l, ", package %u by distance (its nearest nodes with CPUs)", k->package);
	for (size_t i = 0; i < nd->n_parts; i++)
		part_text(&l, c, &nd->parts[i]);
	if (nd->perf == MP_HMAT) {
		add(&l, "; HMAT");
		coord_text(&l, "access0", &nd->access[0]);
		coord_text(&l, "access1", &nd->access[1]);
	}
	put_line(&l);
}

int map_text_print(const struct map_ctx *c)
{
	int rc;

	machine_lines(c);
	rc = print_table(c);
	if (rc != EXIT_OK)
		return rc;
	putchar('\n');
	for (size_t i = 0; i < c->m.n; i++)
		node_line(c, &c->m.nodes[i]);
	return EXIT_OK;
}
