// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/numa_maps of any process on the box (its file names are chosen
 * by whoever runs it).  The buffer is exactly size bytes.  Whatever parses
 * must give per-node sums that add up without wrapping, and the weighted
 * interleave sums (stat --pid --interleave) nodes sorted and shares that
 * add up to the pages counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procmaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned wnodes[] = { 0, 1, 5 }, weights[] = { 8, 2, 255 };
	char *buf = malloc(size ? size : 1), why[256];
	struct pm_wi wi = { .wnodes = wnodes, .weights = weights, .nw = 3 };
	struct procmaps pm = { .wi = &wi };
	double wants = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (procmaps_parse(&pm, buf, size, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < pm.n; i++)
			if (i && pm.v[i].node <= pm.v[i - 1].node)
				abort(); /* sorted by id, one entry per node */
		for (int c = 0; c < PM_NCAT; c++)
			procmaps_cat_total(&pm, (enum pm_cat)c);
		for (size_t i = 0; i < wi.n; i++) {
			if (i && wi.v[i].node <= wi.v[i - 1].node)
				abort();
			wants += wi.v[i].wants;
		}
		/* Each mapping's shares add up to its pages (rounding aside). */
		if (wants > (double)wi.pages * 1.000001 + 1 ||
		    wants < (double)wi.pages * 0.999999 - 1)
			abort();
	}
	procmaps_free(&pm);
	procmaps_wi_free(&wi);
	free(buf);
	return 0;
}
