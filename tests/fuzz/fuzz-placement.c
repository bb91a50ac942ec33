// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/numa_maps read by policy and kind (exactly size bytes, no NUL
 * to lean on), against a cpuset of node 0 and CPUs on node 0: a parsed file
 * never has more off-policy bytes on a node than anonymous and huge ones,
 * nor more policies than the bound; a refusal says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned cpu_node[] = { 0, 0 };
	char *buf = malloc(size ? size : 1), why[256] = "";
	struct placement p = { 0 };
	struct pl_verdict v;
	unsigned *cpus = malloc(sizeof(*cpus));

	p.mems = malloc(sizeof(*p.mems));
	if (!buf || !cpus || !p.mems)
		abort();
	memcpy(buf, data, size);
	cpus[0] = 1;
	p.mems[0] = 0;
	p.n_mems = 1;
	p.mems_known = true;
	if (placement_set_cpus(&p, cpus, 1, cpu_node, 2) < 0)
		abort();
	if (placement_maps_parse(&p, buf, size, why, sizeof(why)) == 0) {
		if (p.n_pol > PL_POLICIES_MAX)
			abort();
		for (size_t i = 0; i < p.n; i++)
			if (i && p.v[i].node <= p.v[i - 1].node)
				abort();
		placement_verdict(&p, NULL, 0, &v);
		/* The classes do not overlap: per node and in all they add up to the total. */
		uint64_t all = 0;

		for (size_t i = 0; i < p.n && !v.overflow; i++) {
			uint64_t kinds = 0, classes = 0;

			for (int k = 0; k < PL_NKIND; k++)
				kinds += p.v[i].bytes[k];
			for (int c = 0; c < PL_NCLASS; c++)
				classes += p.v[i].cls[c];
			if (kinds != classes)
				abort();
		}
		for (int c = 0; c < PL_NCLASS; c++)
			all += v.cls[c];
		if (!v.overflow && all != v.total)
			abort();
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0]) {
		abort();
	}
	placement_free(&p);
	free(buf);
	return 0;
}
