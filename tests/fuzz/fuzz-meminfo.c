// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The other per-node files: nodeN/meminfo (exactly size bytes, first byte
 * picks the node id), nodeN/distance (parsed whole and folded) and hugepages
 * directory names.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_meminfo(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256];
	struct meminfo m;

	if (!buf)
		return;
	memcpy(buf, data + 1, size);
	if (meminfo_parse(buf, size, data[0] % 4, &m, why, sizeof(why)) == 0) {
		if (m.n > MEMINFO_MAX_FIELDS)
			abort();
		for (size_t i = 0; i < m.n; i++)
			if (meminfo_find(&m, m.f[i].name) == NULL)
				abort();
			else
				(void)meminfo_bytes(&m.f[i]);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	unsigned *dist = NULL;
	uint64_t kb;
	int n;

	if (size == 0)
		return 0;
	one_meminfo(data, size - 1);
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = node_distance_parse(s, &dist);
	for (int i = 0; i < n; i++)
		if (dist[i] > 255)
			abort();
	/* Folding a row as it is read agrees with parsing it whole. */
	{
		size_t self = size % 4, at = 0;
		int far = -2, best = -1;

		if (node_distance_farthest(s, self, &far, &at) != n)
			abort();
		for (int i = 0; i < n; i++)
			if ((size_t)i != self && (int)dist[i] > best)
				best = (int)dist[i];
		if (n > 0 && (far != best || (far >= 0 && (int)dist[at] != far)))
			abort();
	}
	free(dist);
	hugepages_dir_kb(s, &kb);
	free(s);
	return 0;
}
