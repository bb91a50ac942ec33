// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory map of each node (memmap.h), put together from the zones,
 * the blocks, the devices, the tiers and the weights: which source each
 * block's address belongs to, the kernel's demotion targets, where the
 * performance figures come from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memmap.h"
#include "sysfs.h"
#include "value.h"

const char *const memmap_source_names[MS_COUNT] = {
	[MS_BOOT] = "boot",
	[MS_CXL] = "cxl",
	[MS_DAX] = "dax",
	[MS_ACPI] = "acpi",
	[MS_UNATTRIBUTED] = "unattributed",
};

const char *const memmap_perf_names[3] = {
	[MP_NONE] = "none", [MP_HMAT] = "hmat", [MP_CXL] = "cxl"
};

static int coord_file(const char *dir, const char *file, uint64_t *v)
{
	char path[256], buf[64];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n == -ENOENT)
		return 0; /* a platform may give read figures and not write ones */
	if (n <= 0 || buf[n - 1] != '\n' || parse_u64_n(buf, (size_t)n - 1, UINT64_MAX, v) < 0)
		return -EBADMSG;
	return 0;
}

int memmap_coord_read(const char *dir, struct memmap_coord *c)
{
	char path[256];
	int fd;

	*c = (struct memmap_coord){ 0 };
	snprintf(path, sizeof(path), "%s/read_bandwidth", dir);
	if ((fd = sysfs_open(path, O_RDONLY)) < 0)
		return 0;
	close(fd);
	c->present = true;
	if (coord_file(dir, "read_bandwidth", &c->read_bw) < 0 ||
	    coord_file(dir, "write_bandwidth", &c->write_bw) < 0 ||
	    coord_file(dir, "read_latency", &c->read_lat) < 0 ||
	    coord_file(dir, "write_latency", &c->write_lat) < 0)
		return -EBADMSG;
	return 0;
}

enum memmap_source memmap_block_source(const struct memmap_devices *d, uint64_t block_size,
				       const struct memmap_block *b, int *dev)
{
	uint64_t start = (uint64_t)b->id * block_size;

	*dev = -1;
	for (size_t i = 0; i < d->n_regions; i++)
		if (start >= d->regions[i].start &&
		    start - d->regions[i].start < d->regions[i].size) {
			*dev = (int)i;
			return MS_CXL;
		}
	for (size_t i = 0; i < d->n_dax; i++)
		if (start >= d->dax[i].start && start - d->dax[i].start < d->dax[i].size) {
			*dev = (int)i;
			return MS_DAX;
		}
	if (b->acpi[0])
		return MS_ACPI;
	for (size_t i = 0; i < d->n_ram; i++)
		if (start >= d->ram[i].start && start <= d->ram[i].end)
			return MS_BOOT;
	return MS_UNATTRIBUTED;
}

/* The part of nd for this source and device; a new one (NULL past MEMMAP_PARTS_MAX). */
static struct memmap_part *part_of(struct memmap_node *nd, enum memmap_source s, int dev,
				   const char *acpi)
{
	for (size_t i = 0; i < nd->n_parts; i++) {
		struct memmap_part *p = &nd->parts[i];

		if (p->source == s && p->dev == dev && (s != MS_ACPI || !strcmp(p->acpi, acpi)))
			return p;
	}
	if (nd->n_parts == MEMMAP_PARTS_MAX)
		return NULL;
	nd->parts[nd->n_parts] = (struct memmap_part){ .source = s, .dev = dev };
	if (s == MS_ACPI)
		str_copy(nd->parts[nd->n_parts].acpi, acpi, MEMMAP_NAME_MAX);
	return &nd->parts[nd->n_parts++];
}

/* The blocks of m->blocks from index *at on that belong to nd. */
static void node_parts(struct memmap *m, struct memmap_node *nd, size_t *at)
{
	for (; *at < m->blocks.n && m->blocks.v[*at].node == nd->node; (*at)++) {
		const struct memmap_block *b = &m->blocks.v[*at];
		int dev;
		enum memmap_source s = memmap_block_source(&m->dev, m->blocks.block_size, b, &dev);
		struct memmap_part *p = part_of(nd, s, dev, b->acpi);

		nd->blocks++;
		nd->offline += b->state != MB_ONLINE;
		if (s == MS_CXL && m->dev.regions[dev].node < 0)
			m->dev.regions[dev].node = (int)nd->node;
		if (!p)
			continue;
		p->blocks++;
		if (b->state != MB_ONLINE)
			p->offline++;
		else if (b->zone == MZ_MOVABLE)
			p->online_movable += m->blocks.block_size;
		else if (b->zone >= 0)
			p->online_normal += m->blocks.block_size;
	}
}

static int by_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int memmap_demotion_targets(const struct memtiers *t, const unsigned *dist, const unsigned *nodes,
			    size_t n, size_t from, unsigned **out)
{
	int at = node_memtiers_of(t, nodes[from]);
	const struct memtier *next;
	size_t k;

	*out = NULL;
	/* The slowest tier demotes nowhere; nor does a node in no tier. */
	if (at < 0 || (size_t)at + 1 >= t->n || !t->v[at + 1].n)
		return 0;
	next = &t->v[at + 1];
	if (!(*out = malloc(next->n * sizeof(**out))))
		return -ENOMEM;
	/* One node is the target at any distance (dist may then be NULL). */
	if (next->n == 1) {
		(*out)[0] = next->nodes[0];
		return 1;
	}
	k = dist ? node_distance_nearest(dist, nodes, n, from, next->nodes, next->n, *out) : 0;
	if (!k) {
		free(*out);
		*out = NULL;
	}
	return (int)k;
}

uint64_t memmap_zone_bytes(const struct memmap *m, const struct memmap_node *nd, unsigned mask)
{
	uint64_t pages = 0;

	for (int z = 0; nd->zones && z < MZ_COUNT; z++)
		if (mask & 1u << z)
			pages += nd->zones->present[z];
	return pages * m->page_size;
}

const struct memmap_node *memmap_node(const struct memmap *m, unsigned node)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->nodes[mid].node == node)
			return &m->nodes[mid];
		if (m->nodes[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A dax device inside a region is the region's; kmem's node is where the region went. */
static void link_dax(struct memmap_devices *d)
{
	for (size_t j = 0; j < d->n_dax; j++)
		for (size_t i = 0; i < d->n_regions; i++) {
			struct memmap_region *r = &d->regions[i];
			struct memmap_dax *x = &d->dax[j];

			if (x->start < r->start || x->start - r->start >= r->size)
				continue;
			x->region = (int)i;
			r->dax = (int)j;
			if (!strcmp(x->driver, "kmem") && x->target_node >= 0)
				r->node = x->target_node;
		}
}

static void read_devices(struct memmap *m)
{
	int r = memmap_cxl_read(&m->dev, m->dev_why, sizeof(m->dev_why));

	if (r == 0)
		r = memmap_ranges_dax_read(&m->dev, m->dev_why, sizeof(m->dev_why));
	if (r == 0)
		r = memmap_ranges_firmware_read(&m->dev, m->dev_why, sizeof(m->dev_why));
	if (r < 0 && r != -EBADMSG && r != -ENOMEM)
		snprintf(m->dev_why, sizeof(m->dev_why), "%s", sysfs_strerror(r));
	m->dev_err = r;
	/* Half-read devices would attribute blocks wrongly: none is better than that. */
	if (r < 0)
		memmap_devices_free(&m->dev);
	link_dax(&m->dev);
}

/* nodeN/cpulist; a node without one has no CPUs here. */
static void node_cpus(struct memmap_node *nd)
{
	char buf[8192], why[WHY_MAX];
	int n;

	if (node_file_read(nd->node, "cpulist", buf, sizeof(buf), why, sizeof(why)) < 0)
		return;
	n = rangelist_parse(buf, &nd->cpus);
	nd->n_cpus = n > 0 ? (size_t)n : 0;
}

/* HMAT's figures, or a CXL region's (which the kernel also gives the node, 6.10+). */
static void node_perf(const struct memmap *m, struct memmap_node *nd)
{
	char dir[128];

	for (int a = 0; a < 2; a++) {
		snprintf(dir, sizeof(dir), NODE_DIR "/node%u/access%d/initiators", nd->node, a);
		if (memmap_coord_read(dir, &nd->access[a]) < 0)
			nd->access[a] = (struct memmap_coord){ 0 };
	}
	nd->perf = nd->access[0].present || nd->access[1].present ? MP_HMAT : MP_NONE;
	for (size_t i = 0; i < nd->n_parts; i++) {
		const struct memmap_part *p = &nd->parts[i];

		if (p->source == MS_CXL && (m->dev.regions[p->dev].access[0].present ||
					    m->dev.regions[p->dev].access[1].present))
			nd->perf = MP_CXL;
	}
}

/* The node's demotion targets, from the distance matrix of the map's nodes (NULL: not read). */
static int node_demotion(const struct memmap *m, struct memmap_node *nd, const unsigned *nodes,
			 const unsigned *dist, size_t i)
{
	unsigned *out = NULL;
	int n = memmap_demotion_targets(&m->tiers, dist, nodes, m->n, i, &out);

	if (n < 0)
		return n;
	nd->demote = out;
	nd->n_demote = (size_t)n;
	return 0;
}

/*
 * Whether a demotion target needs distances: a slower tier of more than
 * one node (one node is every faster node's target whatever the distance).
 */
static bool need_distances(const struct memtiers *t)
{
	for (size_t i = 1; i < t->n; i++)
		if (t->v[i].n > 1)
			return true;
	return false;
}

static int read_nodes(struct memmap *m, const unsigned *nodes, size_t n, const unsigned *given)
{
	unsigned *mem = NULL, *dist = NULL;
	int nmem = node_mask_read("has_memory", &mem);
	const unsigned *d = given;
	size_t at = 0;
	int r = 0;

	/*
	 * The matrix is n² numbers, the one part of the map that grows faster
	 * than the nodes: read only when a target depends on it, and once
	 * (the caller's, when it has read it already).
	 */
	if (!d && m->tiers.n >= 2 && need_distances(&m->tiers)) {
		if (node_distance_matrix_read(nodes, n, &dist) < 0)
			r = -ENOMEM;
		d = dist;
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct memmap_node *nd = &m->nodes[i];
		int t;

		nd->node = nodes[i];
		node_cpus(nd);
		nd->memory =
			nmem > 0 && bsearch(&nd->node, mem, (size_t)nmem, sizeof(*mem), by_uint);
		nd->zones = memmap_zoneinfo_node(&m->zi, nd->node);
		t = node_memtiers_of(&m->tiers, nd->node);
		nd->tier = t < 0 ? -1 : (long)m->tiers.v[t].id;
		node_parts(m, nd, &at);
		node_perf(m, nd);
		nd->weight = interleave_weight_of(&m->iw, nd->node);
		r = node_demotion(m, nd, nodes, d, i);
	}
	free(mem);
	free(dist);
	return r;
}

int memmap_read(const unsigned *nodes, size_t n, const unsigned *dist, struct memmap *m)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof(*m));
	/* zoneinfo counts pages of this kernel's size: the running one's (4 KiB on x86). */
	m->page_size = page > 0 ? (uint64_t)page : 4096;
	m->zi_err = memmap_zoneinfo_read(&m->zi, m->zi_why, sizeof(m->zi_why));
	m->blocks_err =
		memmap_blocks_read(nodes, n, &m->blocks, m->blocks_why, sizeof(m->blocks_why));
	read_devices(m);
	m->tiers_err = node_memtiers_read(&m->tiers, m->tiers_why, sizeof(m->tiers_why));
	m->iw_err = interleave_weights_read(&m->iw, m->iw_why, sizeof(m->iw_why));
	memmap_policy_read(&m->policy);
	m->nodes = calloc(n ? n : 1, sizeof(*m->nodes));
	if (!m->nodes)
		return -ENOMEM;
	m->n = n;
	return read_nodes(m, nodes, n, dist);
}

void memmap_free(struct memmap *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->nodes[i].cpus);
		free(m->nodes[i].demote);
	}
	free(m->nodes);
	memmap_zoneinfo_free(&m->zi);
	memmap_blocks_free(&m->blocks);
	memmap_devices_free(&m->dev);
	node_memtiers_free(&m->tiers);
	interleave_weights_free(&m->iw);
	memset(m, 0, sizeof(*m));
}
