// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "value.h"

int parse_u64_n(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	bool overflow = false;

	if (len == 0)
		return -EINVAL;
	/* Leading zeros read as octal elsewhere; "0" alone is fine. */
	if (s[0] == '0' && len > 1)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	if (overflow || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	return parse_u64_n(s, strlen(s), max, out);
}

int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	uint64_t mag;
	int r;

	if (s[0] != '-') {
		if (max < 0)
			return parse_u64(s, 0, &mag) == -EINVAL ? -EINVAL : -ERANGE;
		r = parse_u64(s, (uint64_t)max, &mag);
		if (r < 0)
			return r;
		if ((int64_t)mag < min)
			return -ERANGE;
		*out = (int64_t)mag;
		return 0;
	}
	r = parse_u64(s + 1, (uint64_t)INT64_MAX + 1, &mag);
	if (r < 0)
		return r;
	if (mag == 0)
		return -EINVAL; /* "-0" is not a number anyone means */
	if (mag - 1 > (uint64_t)(-(min + 1)) || min >= 0)
		return -ERANGE;
	*out = (int64_t)(0 - mag);
	if (*out > max)
		return -ERANGE;
	return 0;
}

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	size_t n = len < size ? len : size - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
	return len;
}

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

char *strip(char *s)
{
	size_t len = strlen(s);
	char *p = s;

	while (len && strchr(" \t\r\n\v\f", s[len - 1]))
		s[--len] = '\0';
	while (*p && strchr(" \t\r\n\v\f", *p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
	return s;
}

bool word_eq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
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
