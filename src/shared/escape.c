// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

/*
 * Length of the valid UTF-8 sequence at s that is a character (0: s[0] is
 * not valid UTF-8), a C1 control counting as valid only if c1.
 */
static size_t utf8_char(const unsigned char *s, bool c1, uint32_t *out)
{
	uint32_t cp;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond Unicode, and (unless c1) the C1 controls. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (!c1 && cp >= 0x80 && cp <= 0x9f))
		return 0;
	*out = cp;
	return n;
}

static size_t utf8_len(const unsigned char *s, bool c1)
{
	uint32_t cp;

	return utf8_char(s, c1, &cp);
}

size_t escape_utf8_char(const char *s, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;

	if (p[0] && p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	return utf8_char(p, true, cp);
}

static bool kept(unsigned char c, unsigned flags)
{
	if (c == '\n')
		return flags & ESCAPE_KEEP_NEWLINE;
	if (c == '\t')
		return flags & ESCAPE_KEEP_TAB;
	return c >= 0x20 && c < 0x7f;
}

bool escape_hidden_cp(uint32_t cp)
{
	return cp == 0x61c || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff;
}

/* A character shown as it is: valid UTF-8, no C1 control, no hidden mark. */
static size_t shown_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n = utf8_char(s, false, &cp);

	return n && !escape_hidden_cp(cp) ? n : 0;
}

size_t escape_safe_len(const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, k;

	while (p[n] && (k = p[n] < 0x80            ? kept(p[n], flags)
			    : flags & ESCAPE_ASCII ? 0
						   : shown_len(p + n)) > 0)
		n += k;
	return n;
}

size_t escape_utf8_len(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, k;

	/* utf8_len() stops at a NUL, the end of any buffer that ends with one. */
	while (n < len && p[n] && (k = p[n] >= 0x80 ? utf8_len(p + n, true) : 1) > 0 &&
	       n + k <= len)
		n += k;
	return n;
}

char *escape_text(const char *s, char *buf, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (len == 0)
		return buf;
	while (*p) {
		size_t n = escape_safe_len((const char *)p, flags);
		bool cut = o + n >= len;

		/* Cut only between characters: back off to a UTF-8 start byte. */
		if (cut) {
			n = len - 1 - o;
			while (n > 0 && (p[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(buf + o, p, n);
		o += n;
		p += n;
		if (cut || !*p || o + 4 >= len)
			break;
		snprintf(buf + o, 5, "\\x%02x", *p++);
		o += 4;
	}
	buf[o] = '\0';
	return buf;
}

int escape_fputs(const char *s, FILE *f, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = escape_safe_len((const char *)p, flags);

		if (n && fwrite(p, 1, n, f) != n)
			return EOF;
		p += n;
		if (*p && fprintf(f, "\\x%02x", *p++) < 0)
			return EOF;
	}
	return 0;
}

int escape_printf(FILE *f, unsigned flags, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return escape_fputs(buf, f, flags);
}
