// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict, bounded number parsing (value.h). */
#include <errno.h>
#include <string.h>

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

int parse_hex_u64_n(const char *s, size_t len, bool prefix, uint64_t *out)
{
	uint64_t v = 0;

	/* "%#llx" prints 0 bare, everything else with its 0x. */
	if (prefix && len == 1 && s[0] == '0') {
		*out = 0;
		return 0;
	}
	if (prefix) {
		if (len < 3 || s[0] != '0' || s[1] != 'x')
			return -EINVAL;
		s += 2;
		len -= 2;
	}
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned c = (unsigned char)s[i];
		unsigned d = c - '0' <= 9 ? c - '0' : c - 'a' <= 5 ? c - 'a' + 10 : 16;

		if (d > 15)
			return -EINVAL;
		if (v >> 60)
			return -ERANGE;
		v = v << 4 | d;
	}
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
