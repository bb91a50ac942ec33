// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Range lists: the kernel's cpulist/nodelist files and users' --nodes
 * arguments.  A result must be sorted, unique and within NODE_ID_MAX.
 */
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
	free(s);
	return 0;
}
