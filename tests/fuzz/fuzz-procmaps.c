// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/numa_maps of any process on the box (its file names are chosen
 * by whoever runs it).  The buffer is exactly size bytes.  Whatever parses
 * must give per-node sums that add up without wrapping.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procmaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256];
	struct procmaps pm = { 0 };

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (procmaps_parse(&pm, buf, size, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < pm.n; i++)
			if (i && pm.v[i].node <= pm.v[i - 1].node)
				abort(); /* sorted by id, one entry per node */
		for (int c = 0; c < PM_NCAT; c++)
			procmaps_cat_total(&pm, (enum pm_cat)c);
	}
	procmaps_free(&pm);
	free(buf);
	return 0;
}
