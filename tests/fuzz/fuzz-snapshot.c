// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A snapshot file as a damaged disk, a hand edit or an older version may
 * leave it, read back by `stat --snapshot` and `snapshots`.  The buffer is
 * exactly size bytes, so ASan catches any read past the file.  The first
 * line is also tried as a snapshot name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const uint8_t *data, size_t size)
{
	size_t len = 0;
	char name[SNAPSHOT_NAME_MAX + 1], out[64];
	struct timespec ts;

	while (len < size && len < SNAPSHOT_NAME_MAX && data[len] != '\n')
		len++;
	memcpy(name, data, len);
	name[len] = '\0';
	if (snapshot_name_time(name, &ts)) {
		if (ts.tv_nsec < 0 || ts.tv_nsec > 999999999)
			abort();
		snapshot_format_time(&ts, out, sizeof(out));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256] = "";
	struct snapshot s = { 0 };
	uint64_t v;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	check_name(data, size);
	if (snapshot_parse(buf, size, &s, why, sizeof(why)) == 0) {
		if (s.n == 0)
			abort();
		for (size_t i = 0; i < s.n; i++) {
			if (s.ids[i] > NODE_ID_MAX || (i && s.ids[i] <= s.ids[i - 1]) ||
			    s.st[i].n > NUMASTAT_MAX_COUNTERS)
				abort();
			for (int k = 0; k < NS_STANDARD; k++)
				if (!numastat_get(&s.st[i], numastat_keys[k], &v))
					abort();
		}
	} else if (!memchr(why, '\0', sizeof(why)) || (!why[0] && s.ids)) {
		abort(); /* a refusal says why (only running out of memory may not) */
	}
	snapshot_free(&s);
	free(buf);
	return 0;
}
