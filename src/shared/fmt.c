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

void fmt_human(uint64_t v, enum fmt_scale scale, char *buf, size_t len)
{
	static const char suffix[] = "KMGTPE";
	double base = scale == FMT_COUNT ? 1000 : 1024, d = (double)v;
	size_t l;
	int i = -1;

	if (v < (scale == FMT_COUNT ? 10000 : 1024)) {
		snprintf(buf, len, scale == FMT_COUNT ? "%" PRIu64 : "%" PRIu64 "B", v);
		return;
	}
	while (d >= base && i < 5) {
		d /= base;
		i++;
	}
	/* From here i >= 0: v >= base, so the loop ran. */
	if (scale == FMT_COUNT) {
		/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
		snprintf(buf, len, d < 10 ? "%.1f%c" : "%.0f%c", d, suffix[i]);
		return;
	}
	snprintf(buf, len, "%.1f", d);
	l = strlen(buf);
	if (l > 2 && strcmp(buf + l - 2, ".0") == 0)
		buf[l -= 2] = '\0';
	if (l + 1 < len) {
		/* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
		buf[l] = suffix[i];
		buf[l + 1] = '\0';
	}
}
