// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Physical ranges that say where memory came from (memmap.h): dax devices
 * (the range each covers, the node kmem onlines it into, its driver) and
 * the firmware's map of boot memory.  The firmware map also gains an entry
 * for memory an ACPI device hot-adds (add_memory_resource(),
 * mm/memory_hotplug.c), never for driver-managed memory such as kmem's.
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

#define FIRMWARE_ENTRIES_MAX 4096

static int bad(const char *dir, const char *file, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s/%s: %s", dir, file, what);
	return -EBADMSG;
}

/* dir/file, one line without its newline: the length, -EBADMSG or -errno. */
static ssize_t read_line(const char *dir, const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = sysfs_read_file(path, buf, size);
	if (n >= 0 && (n == 0 || buf[n - 1] != '\n'))
		return -EBADMSG;
	if (n > 0)
		buf[--n] = '\0';
	return n;
}

static int read_hex(const char *dir, const char *file, uint64_t *v, char *why, size_t whylen)
{
	char buf[64];
	ssize_t n = read_line(dir, file, buf, sizeof(buf));

	if (n < 0 || parse_hex_u64_n(buf, (size_t)n, true, v) < 0)
		return bad(dir, file, "expected a number such as 0x10000000", why, whylen);
	return 0;
}

static int dax_read(struct memmap_dax *x, char *why, size_t whylen)
{
	char dir[128], buf[64], link[512];
	const char *base;
	int64_t node;
	uint64_t size;
	int r;

	snprintf(dir, sizeof(dir), DAX_DEVICES "/%s", x->name);
	x->region = -1;
	if ((r = read_hex(dir, "resource", &x->start, why, whylen)) < 0)
		return r;
	/* size is "%llu" (drivers/dax/bus.c), target_node "%d". */
	if (read_line(dir, "size", buf, sizeof(buf)) < 0 || parse_u64(buf, UINT64_MAX, &size) < 0)
		return bad(dir, "size", "expected a size in bytes", why, whylen);
	x->size = size;
	if (read_line(dir, "target_node", buf, sizeof(buf)) < 0 ||
	    parse_i64(buf, -1, NODE_ID_MAX, &node) < 0)
		return bad(dir, "target_node", "expected a node id or -1", why, whylen);
	x->target_node = (int)node;
	snprintf(dir, sizeof(dir), DAX_DEVICES "/%s/driver", x->name);
	if (sysfs_readlink(dir, link, sizeof(link)) >= 0) {
		base = strrchr(link, '/');
		str_copy(x->driver, base ? base + 1 : link, sizeof(x->driver));
	}
	return 0;
}

static bool dax_name(const char *name)
{
	const char *dot;
	uint64_t v;

	return strncmp(name, "dax", 3) == 0 && (dot = strchr(name + 3, '.')) &&
	       parse_u64_n(name + 3, (size_t)(dot - name - 3), UINT32_MAX, &v) == 0 &&
	       parse_u64(dot + 1, UINT32_MAX, &v) == 0;
}

static int by_start(const void *a, const void *b)
{
	uint64_t x = ((const struct memmap_dax *)a)->start,
		 y = ((const struct memmap_dax *)b)->start;

	return (x > y) - (x < y);
}

int memmap_ranges_dax_read(struct memmap_devices *d, char *why, size_t whylen)
{
	DIR *dir = sysfs_opendir(DAX_DEVICES);
	struct dirent *de;
	int r = 0;

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	d->dax_bus = true;
	while (r == 0 && (de = readdir(dir))) {
		if (!dax_name(de->d_name))
			continue;
		if (array_grow(&d->dax, &d->cap_dax, d->n_dax + 1, sizeof(*d->dax)) < 0) {
			r = -ENOMEM;
			break;
		}
		d->dax[d->n_dax] = (struct memmap_dax){ 0 };
		str_copy(d->dax[d->n_dax++].name, de->d_name, MEMMAP_NAME_MAX);
	}
	closedir(dir);
	for (size_t i = 0; r == 0 && i < d->n_dax; i++)
		r = dax_read(&d->dax[i], why, whylen);
	/* An empty list is NULL, which qsort() must not be given. */
	if (r == 0 && d->n_dax)
		qsort(d->dax, d->n_dax, sizeof(*d->dax), by_start);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	return r;
}

/* FIRMWARE_MEMMAP/N: a "System RAM" entry goes into d->ram. */
static int firmware_entry(struct memmap_devices *d, const char *name, char *why, size_t whylen)
{
	char dir[320], type[64];
	struct memmap_range g;
	int r;

	snprintf(dir, sizeof(dir), FIRMWARE_MEMMAP "/%s", name);
	if (read_line(dir, "type", type, sizeof(type)) < 0)
		return bad(dir, "type", "cannot be read", why, whylen);
	if (strcmp(type, "System RAM") != 0)
		return 0;
	if ((r = read_hex(dir, "start", &g.start, why, whylen)) < 0 ||
	    (r = read_hex(dir, "end", &g.end, why, whylen)) < 0)
		return r;
	if (array_grow(&d->ram, &d->cap_ram, d->n_ram + 1, sizeof(*d->ram)) < 0)
		return -ENOMEM;
	d->ram[d->n_ram++] = g;
	return 0;
}

int memmap_ranges_firmware_read(struct memmap_devices *d, char *why, size_t whylen)
{
	DIR *dir = sysfs_opendir(FIRMWARE_MEMMAP);
	struct dirent *de;
	uint64_t id;
	size_t seen = 0;
	int r = 0;

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	d->firmware = true;
	while (r == 0 && (de = readdir(dir)))
		if (parse_u64(de->d_name, FIRMWARE_ENTRIES_MAX, &id) == 0 &&
		    seen++ < FIRMWARE_ENTRIES_MAX)
			r = firmware_entry(d, de->d_name, why, whylen);
	closedir(dir);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	return r;
}

void memmap_devices_free(struct memmap_devices *d)
{
	for (size_t i = 0; i < d->n_regions; i++)
		free(d->regions[i].memdevs);
	free(d->regions);
	free(d->dax);
	free(d->ram);
	*d = (struct memmap_devices){ 0 };
}
