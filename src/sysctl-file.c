// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysctl-file.h"
#include "value.h"

static int push(struct sysctl_file *sf, const struct sysctl_entry *e)
{
	if (sf->n == sf->cap) {
		size_t cap = sf->cap ? sf->cap * 2 : 16;
		struct sysctl_entry *v = reallocarray(sf->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		sf->v = v;
		sf->cap = cap;
	}
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
	strip(key);
	if (!*key)
		return "missing key before '='";
	if (strlen(key) >= sizeof(e->key))
		return "key too long";
	snprintf(e->key, sizeof(e->key), "%s", key);
	if (eq) {
		char *value = strip(eq + 1);

		if (strlen(value) >= sizeof(e->value))
			return "value too long";
		snprintf(e->value, sizeof(e->value), "%s", value);
	}
	return NULL;
}

int sysctl_file_parse(FILE *f, struct sysctl_file *out,
		      void (*on_error)(void *ctx, unsigned line, const char *msg), void *ctx)
{
	char *buf = NULL;
	size_t cap = 0;
	unsigned line = 0;
	ssize_t len;
	int errors = 0;

	while ((len = getline(&buf, &cap, f)) >= 0) {
		/* One side effect in one initializer: cppcheck 2.10 misreads it. */
		/* cppcheck-suppress unknownEvaluationOrder */
		struct sysctl_entry e = { .line = ++line };
		const char *problem;
		char *s;

		if (memchr(buf, '\0', (size_t)len)) {
			on_error(ctx, line, "line contains a NUL byte");
			errors++;
			continue;
		}
		s = strip(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		problem = parse_line(s, &e);
		if (problem) {
			on_error(ctx, line, problem);
			errors++;
		} else if (push(out, &e) < 0) {
			free(buf);
			return -ENOMEM;
		}
	}
	free(buf);
	return errors;
}

void sysctl_file_free(struct sysctl_file *sf)
{
	free(sf->v);
	*sf = (struct sysctl_file){ 0 };
}
