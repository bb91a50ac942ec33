// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `set -f FILE`: sysctl.d(5) text from any file a user points at, read as a
 * stream.  Every entry that parses must carry a terminated key and value.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysctl-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_error(void *ctx, unsigned line, const char *msg)
{
	unsigned *errors = ctx;

	if (!msg || !*msg || line == 0)
		abort(); /* an error names its line and says why */
	(*errors)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sysctl_file sf = { 0 };
	unsigned errors = 0;
	FILE *f;
	int r;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	r = sysctl_file_parse(f, &sf, on_error, &errors);
	if (r >= 0 && (unsigned)r != errors)
		abort();
	for (size_t i = 0; i < sf.n; i++)
		if (!memchr(sf.v[i].key, '\0', sizeof(sf.v[i].key)) ||
		    !memchr(sf.v[i].value, '\0', sizeof(sf.v[i].value)))
			abort();
	sysctl_file_free(&sf);
	fclose(f);
	return 0;
}
