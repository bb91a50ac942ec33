// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CXL regions (memmap.h): each region's range, mode and access
 * coordinates, and the memdevs its targets name, with their serials, the
 * node of their PCI device and the host bridge they hang from.  The chain,
 * as drivers/cxl builds it: regionZ/targetN names an endpoint decoder
 * decoderE.D of port endpointE, whose uport link is the memdev and whose
 * place in the port tree (rootR/portP/.../endpointE) gives the host
 * bridge portP.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "memmap.h"
#include "sysfs.h"
#include "value.h"

/* Targets of a region: interleave_ways is at most 16 (CXL 2.0 8.2.5.12.7). */
#define REGION_TARGETS_MAX 16

static int bad(const char *path, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s", path, what);
	return -EBADMSG;
}

/* dir/file's one line, without its newline, into buf: the length or -errno. */
static ssize_t read_line(const char *dir, const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = sysfs_read_file(path, buf, size);
	if (n < 0)
		return n;
	if (n == 0 || buf[n - 1] != '\n')
		return -EBADMSG;
	buf[--n] = '\0';
	return n;
}

static int read_hex(const char *dir, const char *file, uint64_t *v, char *why, size_t whylen)
{
	char buf[64], path[256];
	ssize_t n = read_line(dir, file, buf, sizeof(buf));

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (n == -ENOENT || (n >= 0 && parse_hex_u64_n(buf, (size_t)n, true, v) < 0))
		return bad(path, n == -ENOENT ? "missing" : "expected a number such as 0x10000000",
			   why, whylen);
	if (n < 0)
		snprintf(why, whylen, "%s: %s", path, sysfs_strerror((int)n));
	return n < 0 ? (int)n : 0;
}

/* The last part of a link's target ("../../mem0" -> "mem0"), or "" when there is none. */
static void link_base(const char *path, char *out, size_t len)
{
	char link[1024];
	const char *base;

	out[0] = '\0';
	if (sysfs_readlink(path, link, sizeof(link)) < 0)
		return;
	base = strrchr(link, '/');
	str_copy(out, base ? base + 1 : link, len);
}

int memmap_cxl_decoder_port(const char *name, unsigned *port)
{
	const char *dot;
	uint64_t v, d;

	if (strncmp(name, "decoder", 7) != 0 || !(dot = strchr(name + 7, '.')) ||
	    parse_u64_n(name + 7, (size_t)(dot - name - 7), UINT32_MAX, &v) < 0 ||
	    parse_u64(dot + 1, UINT32_MAX, &d) < 0)
		return -EINVAL;
	*port = (unsigned)v;
	return 0;
}

int memmap_cxl_host_port(const char *link, char *port, size_t len)
{
	const char *p = link, *end = link + strlen(link), *w;
	size_t wl;
	bool root = false;

	while (str_next_word(&p, end, "/", &w, &wl)) {
		if (root && str_span_starts(w, wl, "port") && wl < len) {
			memcpy(port, w, wl);
			port[wl] = '\0';
			return 0;
		}
		root = str_span_starts(w, wl, "root");
	}
	return -EINVAL;
}

/* The memdev behind endpoint decoder md->decoder, and its host bridge. */
static void memdev_read(struct memmap_memdev *md)
{
	char path[256], link[1024], port[MEMMAP_NAME_MAX], uport[MEMMAP_NAME_MAX], buf[64];
	unsigned ep;
	int64_t node;

	md->numa_node = -1;
	if (memmap_cxl_decoder_port(md->decoder, &ep) < 0)
		return;
	snprintf(path, sizeof(path), CXL_DEVICES "/endpoint%u/uport", ep);
	link_base(path, md->name, sizeof(md->name));
	snprintf(path, sizeof(path), CXL_DEVICES "/endpoint%u", ep);
	if (sysfs_readlink(path, link, sizeof(link)) >= 0 &&
	    memmap_cxl_host_port(link, port, sizeof(port)) == 0) {
		snprintf(path, sizeof(path), CXL_DEVICES "/%s/uport", port);
		link_base(path, uport, sizeof(uport));
		snprintf(md->host_bridge, sizeof(md->host_bridge), uport[0] ? "%s (%s)" : "%s",
			 port, uport);
	}
	if (!md->name[0])
		return;
	snprintf(path, sizeof(path), CXL_DEVICES "/%s", md->name);
	if (read_line(path, "serial", buf, sizeof(buf)) > 0)
		str_copy(md->serial, buf, sizeof(md->serial));
	/* "%d": -1 when the platform gave the PCI device no node. */
	if (read_line(path, "numa_node", buf, sizeof(buf)) > 0 &&
	    parse_i64(buf, -1, NODE_ID_MAX, &node) == 0)
		md->numa_node = (int)node;
}

static int region_targets(struct memmap_region *r, const char *dir)
{
	char name[16], buf[MEMMAP_NAME_MAX];

	for (unsigned i = 0; i < REGION_TARGETS_MAX; i++) {
		ssize_t n;

		snprintf(name, sizeof(name), "target%u", i);
		n = read_line(dir, name, buf, sizeof(buf));
		if (n == -ENOENT)
			break;
		/* An empty target: a region not set up yet. */
		if (n <= 0)
			continue;
		if (array_grow(&r->memdevs, &r->cap_memdevs, r->n_memdevs + 1,
			       sizeof(*r->memdevs)) < 0)
			return -ENOMEM;
		r->memdevs[r->n_memdevs] = (struct memmap_memdev){ 0 };
		str_copy(r->memdevs[r->n_memdevs].decoder, buf, MEMMAP_NAME_MAX);
		memdev_read(&r->memdevs[r->n_memdevs++]);
	}
	return 0;
}

static int region_read(struct memmap_region *r, char *why, size_t whylen)
{
	char dir[128], sub[160];
	int e;

	snprintf(dir, sizeof(dir), CXL_DEVICES "/%s", r->name);
	r->dax = r->node = -1;
	if ((e = read_hex(dir, "resource", &r->start, why, whylen)) < 0 ||
	    (e = read_hex(dir, "size", &r->size, why, whylen)) < 0)
		return e;
	/* mode came with 6.3; a region before it is read as ram or pmem by nobody here. */
	if (read_line(dir, "mode", r->mode, sizeof(r->mode)) < 0)
		r->mode[0] = '\0';
	for (int a = 0; a < 2; a++) {
		snprintf(sub, sizeof(sub), "%s/access%d", dir, a);
		if (memmap_coord_read(sub, &r->access[a]) < 0)
			return bad(sub,
				   "expected numbers in read_bandwidth, write_bandwidth, "
				   "read_latency and write_latency",
				   why, whylen);
	}
	return region_targets(r, dir);
}

static bool region_name(const char *name)
{
	uint64_t id;

	return strncmp(name, "region", 6) == 0 && parse_u64(name + 6, UINT32_MAX, &id) == 0;
}

static int by_name(const void *a, const void *b)
{
	const char *x = ((const struct memmap_region *)a)->name,
		   *y = ((const struct memmap_region *)b)->name;
	size_t lx = strlen(x), ly = strlen(y);

	/* region2 before region10: the shorter number first. */
	return lx != ly ? (lx > ly) - (lx < ly) : strcmp(x, y);
}

int memmap_cxl_read(struct memmap_devices *d, char *why, size_t whylen)
{
	DIR *dir = sysfs_opendir(CXL_DEVICES);
	struct dirent *de;
	int r = 0;

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	d->cxl = true;
	while (r == 0 && (de = readdir(dir))) {
		if (!region_name(de->d_name))
			continue;
		if (array_grow(&d->regions, &d->cap_regions, d->n_regions + 1,
			       sizeof(*d->regions)) < 0) {
			r = -ENOMEM;
			break;
		}
		d->regions[d->n_regions] = (struct memmap_region){ 0 };
		str_copy(d->regions[d->n_regions++].name, de->d_name, MEMMAP_NAME_MAX);
	}
	closedir(dir);
	/* An empty list is NULL, which qsort() must not be given. */
	if (r == 0 && d->n_regions)
		qsort(d->regions, d->n_regions, sizeof(*d->regions), by_name);
	for (size_t i = 0; r == 0 && i < d->n_regions; i++)
		r = region_read(&d->regions[i], why, whylen);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	return r;
}
