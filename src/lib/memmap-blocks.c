// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory blocks (memmap.h): which blocks each node has (nodeN/memoryM
 * links), their state and zones, the ACPI memory device behind them, and
 * the policy that onlines hot-added blocks.
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

const char *const memmap_block_states[MB_STATE_COUNT] = {
	[MB_ONLINE] = "online",
	[MB_OFFLINE] = "offline",
	[MB_GOING_OFFLINE] = "going-offline",
};

/* The ACPI _HID of a memory device (drivers/acpi/acpi_memhotplug.c). */
#define ACPI_MEMORY_HID "PNP0C80:"

static int block_file(unsigned id, const char *file, char *buf, size_t size, char *why,
		      size_t whylen)
{
	char path[128];
	ssize_t n;

	snprintf(path, sizeof(path), MEMORY_DIR "/memory%u/%s", id, file);
	n = sysfs_read_file(path, buf, size);
	if (n < 0)
		snprintf(why, whylen, "%s: %s", path, sysfs_strerror((int)n));
	return (int)n;
}

static int bad_file(unsigned id, const char *file, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, MEMORY_DIR "/memory%u/%s: %s", id, file, what);
	return -EBADMSG;
}

/* firmware_node -> ".../PNP0C80:00": the ACPI memory device, else "". */
static void block_acpi(struct memmap_block *b)
{
	char path[128], link[512];
	const char *base;

	b->acpi[0] = '\0';
	snprintf(path, sizeof(path), MEMORY_DIR "/memory%u/firmware_node", b->id);
	if (sysfs_readlink(path, link, sizeof(link)) < 0)
		return;
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strncmp(base, ACPI_MEMORY_HID, strlen(ACPI_MEMORY_HID)) == 0)
		str_copy(b->acpi, base, sizeof(b->acpi));
}

static int block_read(struct memmap_block *b, char *why, size_t whylen)
{
	char buf[128];
	int n = block_file(b->id, "state", buf, sizeof(buf), why, whylen);

	if (n < 0)
		return n;
	b->state = MB_STATE_COUNT;
	for (int s = 0; s < MB_STATE_COUNT; s++)
		if (n > 0 && buf[n - 1] == '\n' &&
		    str_span_is(buf, (size_t)n - 1, memmap_block_states[s]))
			b->state = (enum memmap_block_state)s;
	if (b->state == MB_STATE_COUNT)
		return bad_file(b->id, "state", "expected online, offline or going-offline", why,
				whylen);
	n = block_file(b->id, "valid_zones", buf, sizeof(buf), why, whylen);
	if (n < 0)
		return n;
	if (memmap_valid_zones_parse(buf, (size_t)n, &b->zones, &b->zone) < 0)
		return bad_file(b->id, "valid_zones", "expected zone names such as Normal Movable",
				why, whylen);
	block_acpi(b);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	unsigned x = ((const struct memmap_block *)a)->id, y = ((const struct memmap_block *)b)->id;

	return (x > y) - (x < y);
}

/* nodeN/memoryM links: the node's blocks, appended to b. */
static int node_blocks(struct memmap_blocks *b, unsigned node, char *why, size_t whylen)
{
	char path[96];
	struct dirent *de;
	size_t first = b->n;
	uint64_t id;
	DIR *d;
	int r = 0;

	snprintf(path, sizeof(path), NODE_DIR "/node%u", node);
	if (!(d = sysfs_opendir(path))) {
		snprintf(why, whylen, "%s: %s", path, sysfs_strerror(-errno));
		return -errno;
	}
	while (r == 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "memory", 6) != 0 ||
		    parse_u64(de->d_name + 6, UINT32_MAX, &id) < 0)
			continue;
		if (array_grow(&b->v, &b->cap, b->n + 1, sizeof(*b->v)) < 0)
			r = -ENOMEM;
		else
			b->v[b->n++] = (struct memmap_block){ .id = (unsigned)id, .node = node };
	}
	closedir(d);
	/* b->v is NULL while no node had a block: qsort() must not see it. */
	if (r == 0 && b->n > first)
		qsort(b->v + first, b->n - first, sizeof(*b->v), by_id);
	for (size_t i = first; r == 0 && i < b->n; i++)
		r = block_read(&b->v[i], why, whylen);
	return r;
}

static int block_size(struct memmap_blocks *b, char *why, size_t whylen)
{
	char buf[64];
	ssize_t n = sysfs_read_file(MEMORY_DIR "/block_size_bytes", buf, sizeof(buf));

	if (n < 0) {
		snprintf(why, whylen, MEMORY_DIR "%s",
			 n == -ENOENT ? ": not present (no memory hotplug in this kernel)"
				      : "/block_size_bytes: cannot be read");
		return (int)n;
	}
	/* "%lx\n" (memory_block_size_bytes()): hexadecimal without 0x. */
	if (n < 2 || buf[n - 1] != '\n' ||
	    parse_hex_u64_n(buf, (size_t)n - 1, false, &b->block_size) < 0 || !b->block_size) {
		snprintf(why, whylen,
			 MEMORY_DIR "/block_size_bytes: expected a size in hexadecimal");
		return -EBADMSG;
	}
	return 0;
}

int memmap_blocks_read(const unsigned *nodes, size_t n, struct memmap_blocks *b, char *why,
		       size_t whylen)
{
	int r;

	*b = (struct memmap_blocks){ 0 };
	r = block_size(b, why, whylen);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = node_blocks(b, nodes[i], why, whylen);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (r < 0)
		memmap_blocks_free(b);
	return r;
}

void memmap_blocks_free(struct memmap_blocks *b)
{
	free(b->v);
	*b = (struct memmap_blocks){ 0 };
}

void memmap_cmdline_value(const char *cmdline, const char *key, char *out, size_t len)
{
	const char *p = cmdline, *end = cmdline + strlen(cmdline), *w;
	size_t wl, kl = strlen(key);

	out[0] = '\0';
	while (str_next_word(&p, end, " \t\n", &w, &wl))
		if (wl >= kl && memcmp(w, key, kl) == 0) {
			size_t vl = wl - kl < len - 1 ? wl - kl : len - 1;

			memcpy(out, w + kl, vl);
			out[vl] = '\0';
		}
}

static void read_word(const char *path, char *out, size_t len)
{
	char buf[256];
	ssize_t n = sysfs_read_file(path, buf, sizeof(buf));

	out[0] = '\0';
	if (n > 0)
		str_copy(out, str_strip(buf), len);
}

void memmap_policy_read(struct memmap_policy *p)
{
	char cmdline[4096];

	*p = (struct memmap_policy){ 0 };
	read_word(MEMORY_DIR "/auto_online_blocks", p->auto_online, sizeof(p->auto_online));
	read_word("/sys/module/memory_hotplug/parameters/online_policy", p->online_policy,
		  sizeof(p->online_policy));
	if (sysfs_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) > 0)
		memmap_cmdline_value(cmdline, "memhp_default_state=", p->cmdline,
				     sizeof(p->cmdline));
}
