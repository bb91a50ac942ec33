// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "slurp.h"
#include "sysctl-file.h"
#include "value.h"

static int push(struct sysctl_file *sf, const struct sysctl_entry *e)
{
	if (array_grow(&sf->v, &sf->cap, sf->n + 1, sizeof(*sf->v)) < 0)
		return -ENOMEM;
	sf->v[sf->n++] = *e;
	return 0;
}

/* One non-blank, non-comment line into e; NULL or the problem. */
static const char *parse_line(char *s, struct sysctl_entry *e)
{
	char *eq = strchr(s, '=');
	char *key = s;

	if (*key == '-') {
		key++;
		if (eq)
			e->ignore_failure = true;
		else
			e->exclude = true;
	}
	if (eq)
		*eq = '\0';
	else if (!e->exclude)
		return "expected 'key = value'";
	str_strip(key);
	if (!*key)
		return "missing key before '='";
	if (strlen(key) >= sizeof(e->key))
		return "key too long";
	snprintf(e->key, sizeof(e->key), "%s", key);
	if (eq) {
		char *value = str_strip(eq + 1);

		if (strlen(value) >= sizeof(e->value))
			return "value too long";
		snprintf(e->value, sizeof(e->value), "%s", value);
	}
	return NULL;
}

/* One physical line, start[0..len), NUL-terminated in place. */
static int parse_one(char *start, size_t len, unsigned line, struct sysctl_file *out,
		     void (*on_error)(void *ctx, unsigned line, const char *msg), void *ctx)
{
	struct sysctl_entry e = { .line = line };
	const char *problem;
	char *s;

	if (memchr(start, '\0', len)) {
		on_error(ctx, line, "line contains a NUL byte");
		return 1;
	}
	start[len] = '\0';
	s = str_strip(start);
	if (!*s || *s == '#' || *s == ';')
		return 0;
	problem = parse_line(s, &e);
	if (problem) {
		on_error(ctx, line, problem);
		return 1;
	}
	return push(out, &e) < 0 ? -ENOMEM : 0;
}

int sysctl_file_parse(FILE *f, struct sysctl_file *out,
		      void (*on_error)(void *ctx, unsigned line, const char *msg), void *ctx)
{
	char *buf = NULL, *p, *end;
	ssize_t len = slurp_stream(f, SYSCTL_FILE_MAX, &buf);
	unsigned line = 0;
	int errors = 0;

	if (len < 0) {
		free(buf);
		return (int)len;
	}
	for (p = buf, end = buf + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int r = parse_one(p, n, ++line, out, on_error, ctx);

		if (r < 0) {
			free(buf);
			return r;
		}
		errors += r;
		p += n + 1;
	}
	free(buf);
	return errors;
}

void sysctl_file_free(struct sysctl_file *sf)
{
	free(sf->v);
	*sf = (struct sysctl_file){ 0 };
}
