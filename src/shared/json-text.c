// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "json-text.h"

/* One past the closing quote of the string starting at s[i] (a '"'); 0 if unterminated. */
static size_t string_end(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t json_compact(char *s, size_t len)
{
	size_t out = 0;

	for (size_t i = 0; i < len;) {
		if (s[i] == '"') {
			size_t e = string_end(s, len, i);

			if (!e)
				e = len;
			memmove(s + out, s + i, e - i);
			out += e - i;
			i = e;
			continue;
		}
		if (is_space(s[i])) {
			i++;
			continue;
		}
		s[out++] = s[i++];
		/* "[null]" can only be structure here: a string would end in '"'. */
		if (s[out - 1] == ']' && out >= 6 && memcmp(s + out - 6, "[null]", 6) == 0) {
			out -= 6;
			memcpy(s + out, "[]", 2);
			out += 2;
		}
	}
	return out;
}

static void indent(FILE *f, int level)
{
	fputc('\n', f);
	for (int i = 0; i < level; i++)
		fputs("   ", f);
}

int json_pretty(const char *s, size_t len, FILE *f)
{
	int level = 0;

	json_pretty_part(s, len, f, &level);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

void json_pretty_part(const char *s, size_t len, FILE *f, int *levelp)
{
	int level = *levelp;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '"') {
			size_t e = string_end(s, len, i);

			e = e ? e : len;
			fwrite(s + i, 1, e - i, f);
			i = e - 1;
		} else if ((c == '{' || c == '[') && i + 1 < len &&
			   s[i + 1] == (c == '{' ? '}' : ']')) {
			fputc(c, f);
			fputc(s[++i], f); /* {} and [] stay on one line */
		} else if (c == '{' || c == '[') {
			fputc(c, f);
			indent(f, ++level);
		} else if (c == '}' || c == ']') {
			indent(f, --level);
			fputc(c, f);
		} else if (c == ',') {
			fputc(',', f);
			/* libsmartcols's "},{" between the objects of an array. */
			if (!(i > 0 && s[i - 1] == '}' && i + 1 < len && s[i + 1] == '{'))
				indent(f, level);
		} else if (c == ':')
			fputs(": ", f);
		else {
			/* A number or a literal: one write up to the next structural byte. */
			size_t e = i + 1;

			while (e < len && !strchr("\"{}[],:", s[e]))
				e++;
			fwrite(s + i, 1, e - i, f);
			i = e - 1;
		}
	}
	*levelp = level;
}

size_t json_value_end(const char *s, size_t len, size_t i)
{
	int depth = 0;

	if (i >= len)
		return 0;
	if (s[i] != '"' && s[i] != '{' && s[i] != '[') {
		/* A literal: up to the next separator or closing bracket. */
		while (i < len && !strchr(",:}] \t\n\r", s[i]))
			i++;
		return i;
	}
	for (; i < len; i++) {
		if (s[i] == '"') {
			size_t e = string_end(s, len, i);

			if (!e)
				return 0;
			i = e - 1;
		} else if (s[i] == '{' || s[i] == '[')
			depth++;
		else if (s[i] == '}' || s[i] == ']')
			depth--;
		if (depth == 0)
			return i + 1;
	}
	return 0;
}

int json_object_inner(const char *s, size_t len, size_t *from, size_t *to)
{
	if (len < 2 || s[0] != '{' || json_value_end(s, len, 0) != len)
		return -EINVAL;
	*from = 1;
	*to = len - 1;
	return 0;
}
