// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Range lists: the kernel's cpulist/nodelist files and users' --nodes
 * arguments.  A result must be sorted, unique and within NODE_ID_MAX; a
 * --nodes selection holds only ids that are present, and a list that parses
 * selects or names a missing id.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	unsigned *ids = NULL;
	int n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = rangelist_parse(s, &ids);
	for (int i = 0; i < n; i++)
		if (ids[i] > NODE_ID_MAX || (i && ids[i] <= ids[i - 1]))
			abort();
	free(ids);
	{
		static const unsigned present[] = { 0, 2, 5, 6, 64, 1023 };
		struct node_miss miss = { 0 };
		int k = rangelist_select(s, present, 6, &ids, &miss);

		for (int i = 0; i < k; i++)
			if (i && ids[i] <= ids[i - 1])
				abort();
		for (int i = 0; i < k; i++) {
			bool found = false;

			for (size_t j = 0; j < 6; j++)
				found |= ids[i] == present[j];
			if (!found)
				abort();
		}
		/* A list that parses selects, or names an absent id; nothing selects from junk. */
		if ((n >= 0 && k < 0 && k != -ENOENT) || (n < 0 && k >= 0))
			abort();
		free(ids);
	}
	free(s);
	return 0;
}
