// SPDX-License-Identifier: GPL-2.0-or-later
/* Numbers as text (value.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "value.h"

void fmt_i64(char *buf, size_t size, int64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	/* Unsigned, so INT64_MIN negates without overflow. */
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	*--p = '\0';
	do
		*--p = (char)('0' + mag % 10);
	while (mag /= 10);
	if (v < 0)
		*--p = '-';
	str_copy(buf, p, size);
}

/* "15.6G": powers of 1024, one decimal unless it is .0 (util-linux style). */
void fmt_human(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "KMGTPE";
	double d = (double)v;
	int i = -1;

	if (v < 1024) {
		snprintf(buf, len, "%" PRIu64 "B", v);
		return;
	}
	while (d >= 1024 && i < 5) {
		d /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f", d);
	if (strcmp(buf + strlen(buf) - 2, ".0") == 0)
		buf[strlen(buf) - 2] = '\0';
	size_t l = strlen(buf);

	if (l + 1 < len) {
		/* i >= 0: v >= 1024, so the loop ran: NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
		buf[l] = suffix[i];
		buf[l + 1] = '\0';
	}
}
