// SPDX-License-Identifier: GPL-2.0-or-later
/* The zones of each node: /proc/zoneinfo and memoryN/valid_zones (memmap.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "memmap.h"
#include "sysfs.h"
#include "value.h"

const char *const memmap_zone_names[MZ_COUNT] = {
	[MZ_DMA] = "DMA",         [MZ_DMA32] = "DMA32",     [MZ_NORMAL] = "Normal",
	[MZ_HIGHMEM] = "HighMem", [MZ_MOVABLE] = "Movable", [MZ_DEVICE] = "Device",
};

int memmap_zone_of(const char *w, size_t len)
{
	for (int z = 0; z < MZ_COUNT; z++)
		if (str_span_is(w, len, memmap_zone_names[z]))
			return z;
	return -1;
}

static int bad(struct memmap_zoneinfo *z, char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "line %u: %s", z->line, what);
	return -EBADMSG;
}

/* "Node 3, zone   Normal": a new zone of node 3 (the node's entry made on its first zone). */
static int zone_header(struct memmap_zoneinfo *z, const char *p, const char *end, char *why,
		       size_t whylen)
{
	const char *w;
	size_t wl;
	uint64_t node;

	if (!str_next_word(&p, end, " ", &w, &wl) || !str_span_is(w, wl, "Node") ||
	    !str_next_word(&p, end, " ", &w, &wl) || wl < 2 || w[wl - 1] != ',' ||
	    parse_u64_n(w, wl - 1, NODE_ID_MAX, &node) < 0)
		return bad(z, why, whylen, "expected \"Node N, zone NAME\"");
	if (!str_next_word(&p, end, " ", &w, &wl) || !str_span_is(w, wl, "zone") ||
	    !str_next_word(&p, end, " ", &w, &wl) || str_next_word(&p, end, " ", &w, &wl))
		return bad(z, why, whylen, "expected \"Node N, zone NAME\"");
	/* A zone a later kernel adds is passed over: its pages are not ours to name. */
	z->zone = memmap_zone_of(w, wl);
	z->present_seen = z->managed_seen = false;
	if (z->n && z->v[z->n - 1].node == node)
		return 0;
	if (z->n && z->v[z->n - 1].node > node)
		return bad(z, why, whylen, "nodes out of order");
	if (array_grow(&z->v, &z->cap, z->n + 1, sizeof(*z->v)) < 0)
		return -ENOMEM;
	z->v[z->n++] = (struct memmap_node_zones){ .node = (unsigned)node };
	return 0;
}

/* "        present  3998": a page count of the current zone. */
static int zone_count(struct memmap_zoneinfo *z, const char *p, const char *end, bool managed,
		      char *why, size_t whylen)
{
	bool *seen = managed ? &z->managed_seen : &z->present_seen;
	const char *w;
	size_t wl;
	uint64_t v;

	if (!str_next_word(&p, end, " ", &w, &wl) || parse_u64_n(w, wl, UINT64_MAX, &v) < 0 ||
	    str_next_word(&p, end, " ", &w, &wl))
		return bad(z, why, whylen, "expected a page count");
	if (*seen)
		return bad(z, why, whylen,
			   managed ? "managed twice in a zone" : "present twice in a zone");
	*seen = true;
	if (z->zone < 0)
		return 0;
	if (managed)
		z->v[z->n - 1].managed[z->zone] = v;
	else
		z->v[z->n - 1].present[z->zone] = v;
	return 0;
}

int memmap_zoneinfo_line(struct memmap_zoneinfo *z, const char *line, size_t len, char *why,
			 size_t whylen)
{
	const char *p = line, *end = line + len, *w;
	size_t wl;

	z->line++;
	if (memchr(line, '\0', len))
		return bad(z, why, whylen, "a NUL byte");
	if (len >= 5 && memcmp(line, "Node ", 5) == 0)
		return zone_header(z, p, end, why, whylen);
	if (!str_next_word(&p, end, " ", &w, &wl))
		return 0;
	if (!str_span_is(w, wl, "present") && !str_span_is(w, wl, "managed"))
		return 0;
	if (!z->n)
		return bad(z, why, whylen, "a page count before the first zone");
	return zone_count(z, p, end, str_span_is(w, wl, "managed"), why, whylen);
}

static int zoneinfo_end(struct memmap_zoneinfo *z, char *why, size_t whylen)
{
	if (z->n == 0) {
		snprintf(why, whylen, "no zone in it");
		return -EBADMSG;
	}
	return 0;
}

int memmap_zoneinfo_parse(const char *buf, size_t len, struct memmap_zoneinfo *z, char *why,
			  size_t whylen)
{
	const char *p = buf, *end = buf + len;

	*z = (struct memmap_zoneinfo){ .zone = -1 };
	if (len && buf[len - 1] != '\n') {
		snprintf(why, whylen, "the last line has no newline");
		return -EBADMSG;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		int r = memmap_zoneinfo_line(z, p, (size_t)(nl - p), why, whylen);

		if (r < 0)
			return r;
		p = nl + 1;
	}
	return zoneinfo_end(z, why, whylen);
}

int memmap_zoneinfo_read(struct memmap_zoneinfo *z, char *why, size_t whylen)
{
	int fd = sysfs_open(ZONEINFO, O_RDONLY), r = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	*z = (struct memmap_zoneinfo){ .zone = -1 };
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		r = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		snprintf(why, whylen, ZONEINFO ": %s", sysfs_strerror(r));
		return r;
	}
	while (r == 0 && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			r = bad(z, why, whylen, "the last line has no newline");
		else
			r = memmap_zoneinfo_line(z, line, (size_t)len - 1, why, whylen);
	}
	if (r == 0 && ferror(f))
		snprintf(why, whylen, "%s", sysfs_strerror(r = -EIO));
	free(line);
	fclose(f);
	if (r == 0)
		r = zoneinfo_end(z, why, whylen);
	if (r < 0) {
		char inner[WHY_MAX];

		str_copy(inner, why, sizeof(inner));
		snprintf(why, whylen, ZONEINFO ": %s", inner);
		/* Half a zoneinfo would show some nodes' zones as empty. */
		memmap_zoneinfo_free(z);
	}
	return r;
}

void memmap_zoneinfo_free(struct memmap_zoneinfo *z)
{
	free(z->v);
	*z = (struct memmap_zoneinfo){ .zone = -1 };
}

const struct memmap_node_zones *memmap_zoneinfo_node(const struct memmap_zoneinfo *z, unsigned node)
{
	size_t lo = 0, hi = z->n;

	/* The nodes come in id order (checked while parsing): a binary search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->v[mid].node == node)
			return &z->v[mid];
		if (z->v[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int memmap_valid_zones_parse(const char *s, size_t len, unsigned *mask, int *first)
{
	const char *p = s, *end = s + len, *w;
	size_t wl;

	*mask = 0;
	*first = -1;
	if (len == 0 || s[len - 1] != '\n')
		return -EINVAL;
	end--;
	/* An online block that spans two zones says "none" (valid_zones_show()). */
	if (str_span_is(s, len - 1, "none"))
		return 0;
	while (str_next_word(&p, end, " ", &w, &wl)) {
		int z = memmap_zone_of(w, wl);

		if (z < 0 || (*mask & 1u << z))
			return -EINVAL;
		if (*first < 0)
			*first = z;
		*mask |= 1u << z;
	}
	return *mask ? 0 : -EINVAL;
}
