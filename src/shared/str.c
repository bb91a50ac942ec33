// SPDX-License-Identifier: GPL-2.0-or-later
/* Small string helpers (value.h). */
#include <string.h>
#include <strings.h>

#include "value.h"

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	size_t n = len < size ? len : size - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
	return len;
}

char *str_strip(char *s)
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

bool str_word_eq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

static bool is_sep(char c, const char *seps)
{
	return c && strchr(seps, c);
}

bool str_next_word(const char **p, const char *end, const char *seps, const char **w, size_t *wl)
{
	while (*p < end && is_sep(**p, seps))
		(*p)++;
	if (*p == end)
		return false;
	*w = *p;
	while (*p < end && !is_sep(**p, seps))
		(*p)++;
	*wl = (size_t)(*p - *w);
	return true;
}

bool str_span_is(const char *w, size_t wl, const char *s)
{
	return wl == strlen(s) && memcmp(w, s, wl) == 0;
}

bool str_span_starts(const char *w, size_t wl, const char *prefix)
{
	size_t n = strlen(prefix);

	return wl >= n && memcmp(w, prefix, n) == 0;
}
