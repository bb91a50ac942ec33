// SPDX-License-Identifier: GPL-2.0-or-later
/* Lines of strict fields (fields.h). */
#include <errno.h>
#include <string.h>

#include "fields.h"
#include "value.h"

bool field_needs_escape(unsigned char c)
{
	return c < 0x20 || c > 0x7e;
}

void field_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (field_needs_escape(*c))
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	fputc('"', f);
}

int field_bad(struct field_line *l, const char *problem)
{
	snprintf(l->why, l->whylen, "%s:%u: %s: not %s", l->path, l->no, problem, l->kind);
	return -EBADMSG;
}

bool field_take(struct field_line *l, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(l->end - l->p) < n || memcmp(l->p, s, n) != 0)
		return false;
	l->p += n;
	return true;
}

bool field_is(const struct field_line *l, const char *s)
{
	return (size_t)(l->end - l->p) == strlen(s) && memcmp(l->p, s, strlen(s)) == 0;
}

int field_sep(struct field_line *l, bool last)
{
	if (last)
		return l->p == l->end ? 0 : field_bad(l, "unexpected text at the end of the line");
	if (l->p < l->end && *l->p == ' ') {
		l->p++;
		return 0;
	}
	return field_bad(l, l->p == l->end ? "a field is missing"
					   : "expected one space between fields");
}

size_t field_word(struct field_line *l, char *buf, size_t len)
{
	size_t n = 0;

	while (l->p + n < l->end && l->p[n] != ' ' && l->p[n] != '"')
		n++;
	if (n == 0 || n >= len)
		return 0;
	memcpy(buf, l->p, n);
	buf[n] = '\0';
	l->p += n;
	return n;
}

int field_u64(struct field_line *l, uint64_t max, uint64_t *v, const char *what)
{
	char buf[24], msg[96];

	if (!field_word(l, buf, sizeof(buf)) || parse_u64(buf, max, v) < 0) {
		snprintf(msg, sizeof(msg), "no valid %s", what);
		return field_bad(l, msg);
	}
	return 0;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int field_string(struct field_line *l, char *buf, size_t len, const char *what)
{
	char msg[128];
	size_t n = 0;

	if (l->p == l->end || *l->p != '"')
		return field_bad(l, l->p == l->end ? "a field is missing"
						   : "expected a quoted string");
	for (l->p++; l->p < l->end && *l->p != '"'; n++) {
		unsigned char c = (unsigned char)*l->p++;

		if (c == '\\' && l->p < l->end && (*l->p == '"' || *l->p == '\\'))
			c = (unsigned char)*l->p++;
		else if (c == '\\' && l->end - l->p >= 3 && l->p[0] == 'x' && hex(l->p[1]) >= 0 &&
			 hex(l->p[2]) >= 0) {
			c = (unsigned char)(hex(l->p[1]) * 16 + hex(l->p[2]));
			l->p += 3;
			if (c == 0 || !field_needs_escape(c))
				return field_bad(
					l, "an escape that is not the one spelling of its byte");
		} else if (c == '\\' || field_needs_escape(c))
			return field_bad(l, c == '\\' ? "an unknown escape"
						      : "a byte that must be escaped");
		if (n + 1 >= len) {
			snprintf(msg, sizeof(msg), "%s longer than %zu bytes", what, len - 1);
			return field_bad(l, msg);
		}
		buf[n] = (char)c;
	}
	if (l->p == l->end)
		return field_bad(l, "a quoted string without its closing quote");
	l->p++;
	buf[n] = '\0';
	return 0;
}

bool field_next(const char **p, const char *end, struct field_line *l)
{
	const char *nl;

	if (*p == end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	l->p = *p;
	l->end = nl ? nl : end;
	l->no++;
	*p = nl ? nl + 1 : end;
	return true;
}

int field_whole(const struct field_line *l, const char *end, struct field_line *err)
{
	if (l->end == end)
		return field_bad(err, "no newline at the end");
	if (memchr(l->p, '\0', (size_t)(l->end - l->p)))
		return field_bad(err, "a NUL byte");
	return 0;
}
