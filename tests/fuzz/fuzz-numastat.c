// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nodeN/numastat content as a dump or a future kernel may hold it.  The
 * buffer is exactly size bytes (no terminating NUL), so ASan catches any
 * read past what the kernel returned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256];
	struct numastat st;
	uint64_t v;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (numastat_parse(buf, size, &st, why, sizeof(why)) == 0) {
		if (st.n < NS_STANDARD || st.n > NUMASTAT_MAX_COUNTERS)
			abort();
		for (int k = 0; k < NS_STANDARD; k++)
			if (!numastat_get(&st, numastat_keys[k], &v))
				abort();
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0]) {
		abort(); /* a refusal always says why */
	}
	free(buf);
	return 0;
}
