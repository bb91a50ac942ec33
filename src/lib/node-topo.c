// SPDX-License-Identifier: GPL-2.0-or-later
/* Node masks (has_cpu, has_memory, ...), distances and memory tiers. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nodes.h"
#include "sysfs.h"
#include "value.h"

int node_mask_read(const char *name, unsigned **ids)
{
	char path[96], buf[4096];
	ssize_t n;

	*ids = NULL;
	snprintf(path, sizeof(path), NODE_DIR "/%s", name);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* "%*pbl\n": a range list, a bare "\n" when empty; nothing else. */
	if (n == 0 || buf[n - 1] != '\n')
		return -EBADMSG;
	n = rangelist_parse(buf, ids);
	return n == -ERANGE || n == -EINVAL ? -EBADMSG : (int)n;
}

/* "memory_tier<digits>" -> id; the kernel's names, nothing else. */
static bool tier_dir_id(const char *name, unsigned *id)
{
	uint64_t v;

	if (strncmp(name, "memory_tier", 11) != 0 || parse_u64(name + 11, UINT32_MAX, &v) < 0)
		return false;
	*id = (unsigned)v;
	return true;
}

static int tier_nodes(struct memtier *t, char *why, size_t whylen)
{
	char path[128], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), MEMTIER_DIR "/memory_tier%u/nodelist", t->id);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n >= 0 && (n == 0 || buf[n - 1] != '\n'))
		n = -EBADMSG;
	if (n >= 0)
		n = rangelist_parse(buf, &t->nodes);
	if (n < 0) {
		snprintf(why, whylen, "%s: %s", path,
			 n == -EBADMSG || n == -EINVAL || n == -ERANGE ? "not a node list"
								       : sysfs_strerror((int)n));
		return n == -EINVAL || n == -ERANGE ? -EBADMSG : (int)n;
	}
	t->n = (size_t)n;
	return 0;
}

static int by_tier_id(const void *a, const void *b)
{
	unsigned x = ((const struct memtier *)a)->id, y = ((const struct memtier *)b)->id;

	return (x > y) - (x < y);
}

static int tier_add(struct memtiers *t, unsigned id)
{
	if (array_grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v)) < 0)
		return -ENOMEM;
	t->v[t->n++] = (struct memtier){ .id = id };
	return 0;
}

int node_memtiers_read(struct memtiers *out, char *why, size_t whylen)
{
	DIR *d = sysfs_opendir(MEMTIER_DIR);
	struct dirent *de;
	unsigned id;
	int r = 0;

	*out = (struct memtiers){ 0 };
	if (!d) {
		r = -errno;
		snprintf(why, whylen, "%s: %s", MEMTIER_DIR,
			 r == -ENOENT ? "not present (memory tiers came with Linux 6.1)"
				      : sysfs_strerror(r));
		return r;
	}
	while (r == 0 && (de = readdir(d)))
		if (tier_dir_id(de->d_name, &id))
			r = tier_add(out, id);
	closedir(d);
	if (r == 0 && out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), by_tier_id);
	for (size_t i = 0; r == 0 && i < out->n; i++)
		r = tier_nodes(&out->v[i], why, whylen);
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (r < 0)
		node_memtiers_free(out);
	return r;
}

void node_memtiers_free(struct memtiers *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].nodes);
	free(t->v);
	*t = (struct memtiers){ 0 };
}

int node_memtiers_of(const struct memtiers *t, unsigned node)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->v[i].n; k++)
			if (t->v[i].nodes[k] == node)
				return (int)i;
	return -1;
}

/*
 * The distances of s, in order: stored in v (room for len / 2 + 1) unless v
 * is NULL, and the largest but the one at index skip in *far / *far_at (-1
 * when there is none).  The count, or -EINVAL / -ERANGE.  The kernel's rows
 * are N numbers for N nodes, so each is read in a few instructions:
 * advise reads N rows.
 */
static int scan_distances(const char *s, size_t len, unsigned *v, size_t skip, int *far,
			  size_t *far_at)
{
	const char *p = s, *end;
	size_t n = 0;

	*far = -1;
	if (len == 0 || s[len - 1] != '\n')
		return -EINVAL;
	end = s + len - 1;
	while (p < end) {
		/* As parse_u64_n(): digits only, no leading zero, at most 255. */
		unsigned d = (unsigned char)*p++ - '0', d2;

		if (d > 9 || (d == 0 && p < end && *p != ' '))
			return -EINVAL;
		/* Most distances have two digits: one step for the second. */
		if (p < end && (d2 = (unsigned char)*p - '0') <= 9) {
			d = d * 10 + d2;
			p++;
		}
		for (; p < end && *p != ' '; p++) {
			unsigned c = (unsigned char)*p - '0';

			if (c > 9)
				return -EINVAL;
			d = d * 10 + c;
			if (d > 255)
				d = 256; /* out of range, unless junk follows */
		}
		if (d > 255)
			return -ERANGE;
		if (v)
			v[n] = d;
		if (n != skip && (int)d > *far) {
			*far = (int)d;
			*far_at = n;
		}
		n++;
		p++;
	}
	/* A space must be followed by another distance (checked last, as the last one's). */
	if (n == 0 || end[-1] == ' ')
		return -EINVAL;
	return (int)n;
}

int node_distance_parse(const char *s, unsigned **out)
{
	size_t len = strlen(s), at;
	unsigned *v;
	int n, far;

	*out = NULL;
	if (len == 0 || s[len - 1] != '\n')
		return -EINVAL;
	/* At most one distance per two bytes ("9 "). */
	v = calloc(len / 2 + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = scan_distances(s, len, v, SIZE_MAX, &far, &at);
	if (n < 0)
		free(v);
	else
		*out = v;
	return n;
}

int node_distance_farthest(const char *s, size_t self, int *far, size_t *at)
{
	return scan_distances(s, strlen(s), NULL, self, far, at);
}

int node_distance_matrix_read(const unsigned *nodes, size_t n, unsigned **dist)
{
	*dist = NULL;
	if (!n)
		return 0;
	*dist = malloc(n * n * sizeof(**dist));
	if (!*dist)
		return -ENOMEM;
	for (size_t i = 0; i < n * n; i++)
		(*dist)[i] = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		char buf[8192], why[64];
		unsigned *row = NULL;
		int k;

		if (node_file_read(nodes[i], "distance", buf, sizeof(buf), why, sizeof(why)) < 0)
			continue;
		k = node_distance_parse(buf, &row);
		/* The row lists the online nodes in order: these, when the counts agree. */
		for (int j = 0; k == (int)n && j < k; j++)
			(*dist)[i * n + (size_t)j] = row[j];
		free(row);
	}
	return 0;
}

size_t node_distance_nearest(const unsigned *dist, const unsigned *nodes, size_t n, size_t from,
			     const unsigned *among, size_t n_among, unsigned *out)
{
	unsigned best = UINT32_MAX;
	size_t k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < n; j++) {
			unsigned d = dist[from * n + j];

			if (j == from || !rangelist_has(among, n_among, nodes[j]) ||
			    d == UINT32_MAX)
				continue;
			if (pass == 0 && d < best)
				best = d;
			else if (pass == 1 && d == best)
				out[k++] = nodes[j];
		}
	return k;
}

static int cpumap_set(struct node_cpumap *m, unsigned cpu, unsigned node)
{
	if (cpu >= m->n) {
		if (array_grow(&m->node_of, &m->cap, (size_t)cpu + 1, sizeof(*m->node_of)) < 0)
			return -ENOMEM;
		for (size_t k = m->n; k <= cpu; k++)
			m->node_of[k] = UINT32_MAX;
		m->n = (size_t)cpu + 1;
	}
	m->node_of[cpu] = node;
	return 0;
}

int node_cpumap_read(const unsigned *nodes, size_t n, struct node_cpumap *m)
{
	*m = (struct node_cpumap){ 0 };
	for (size_t i = 0; i < n; i++) {
		char path[96], buf[4096];
		unsigned *cpus = NULL;
		ssize_t len;
		int nc, r = 0;

		snprintf(path, sizeof(path), NODE_DIR "/node%u/cpulist", nodes[i]);
		len = sysfs_read_file(path, buf, sizeof(buf));
		nc = len < 0 ? 0 : rangelist_parse(buf, &cpus);
		if (nc == -ENOMEM)
			r = nc;
		for (int c = 0; c < nc && r == 0; c++)
			r = cpumap_set(m, cpus[c], nodes[i]);
		free(cpus);
		if (r < 0) {
			node_cpumap_free(m);
			return r;
		}
	}
	return 0;
}

void node_cpumap_free(struct node_cpumap *m)
{
	free(m->node_of);
	*m = (struct node_cpumap){ 0 };
}
