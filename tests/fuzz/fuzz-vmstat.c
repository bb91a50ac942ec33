// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/vmstat and nodeN/vmstat content (exactly size bytes, no NUL to lean
 * on): a parsed file holds only the wanted keys, each once; a refusal says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vmstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), why[256] = "";
	struct vmstat_sel s;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (vmstat_parse(buf, size, &s, why, sizeof(why)) == 0) {
		if (s.have & ~(VMS_BIT(VMS_COUNT) - 1))
			abort();
		/* Each key found is one line "name value": its name is in the text. */
		for (int k = 0; k < VMS_COUNT; k++)
			if ((s.have & VMS_BIT(k)) &&
			    !memmem(buf, size, vmstat_names[k], strlen(vmstat_names[k])))
				abort();
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0]) {
		abort();
	}
	free(buf);
	return 0;
}
