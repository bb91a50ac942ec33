// SPDX-License-Identifier: GPL-2.0-or-later
/* The nodeN/meminfo parser. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nodes.h"
#include "value.h"

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '(' || c == ')';
}

struct meminfo_ctx {
	char prefix[24]; /* "Node N ", written once per file, not once per line */
	size_t prefix_len;
	struct meminfo *out;
};

/* "Node N " with N this file's node; returns the length of the prefix or 0. */
static size_t node_prefix(const char *p, size_t len, const struct meminfo_ctx *m)
{
	if (m->prefix_len > len || memcmp(p, m->prefix, m->prefix_len) != 0)
		return 0;
	return m->prefix_len;
}

static int parse_value(const char *p, size_t len, struct meminfo_field *f)
{
	size_t i = 0;

	while (i < len && p[i] == ' ')
		i++;
	if (i == 0)
		return -EINVAL;
	f->kb = len - i > 3 && memcmp(p + len - 3, " kB", 3) == 0;
	if (f->kb)
		len -= 3;
	switch (parse_u64_n(p + i, len - i, f->kb ? UINT64_MAX / 1024 : UINT64_MAX, &f->value)) {
	case 0:
		return 0;
	case -ERANGE:
		return -ERANGE;
	default:
		return -EINVAL;
	}
}

static int parse_line(const char *p, size_t len, const struct meminfo_ctx *m, unsigned line,
		      char *why, size_t whylen)
{
	struct meminfo *out = m->out;
	size_t pre = node_prefix(p, len, m), k = pre;
	struct meminfo_field *f = &out->f[out->n];
	int r;

	if (!pre)
		return node_line_error(why, whylen, line,
				       "expected 'Node <id> <key>: <value>' for this node");
	while (k < len && key_char(p[k]))
		k++;
	if (k == pre || k == len || p[k] != ':')
		return node_line_error(why, whylen, line, "expected '<key>:'");
	if (k - pre >= MEMINFO_NAME_MAX)
		return node_line_error(why, whylen, line, "key too long");
	if (out->n == MEMINFO_MAX_FIELDS)
		return node_line_error(why, whylen, line, "too many fields");
	memcpy(f->name, p + pre, k - pre);
	f->name[k - pre] = '\0';
	if (meminfo_find(out, f->name))
		return node_line_error(why, whylen, line, "key appears twice");
	r = parse_value(p + k + 1, len - k - 1, f);
	if (r == -ERANGE)
		return node_line_error(why, whylen, line, "value does not fit in 64 bits");
	if (r < 0)
		return node_line_error(why, whylen, line, "value is not a decimal number");
	out->n++;
	return 0;
}

static int meminfo_line(const char *p, size_t len, unsigned line, void *ctx, char *why,
			size_t whylen)
{
	return parse_line(p, len, ctx, line, why, whylen);
}

int meminfo_parse(const char *buf, size_t len, unsigned node, struct meminfo *out, char *why,
		  size_t whylen)
{
	struct meminfo_ctx m = { .out = out };
	int n = snprintf(m.prefix, sizeof(m.prefix), "Node %u ", node);

	m.prefix_len = n > 0 ? (size_t)n : 0;
	out->n = 0;
	return node_text_lines(buf, len, meminfo_line, &m, why, whylen);
}

int meminfo_read(unsigned node, struct meminfo *out, char *why, size_t whylen)
{
	char buf[8192];
	ssize_t n = node_file_read(node, "meminfo", buf, sizeof(buf), why, whylen);

	if (n < 0)
		return (int)n;
	return meminfo_parse(buf, (size_t)n, node, out, why, whylen);
}

const struct meminfo_field *meminfo_find(const struct meminfo *m, const char *key)
{
	/* The first byte first: every line of a file is looked up among the earlier ones. */
	for (size_t i = 0; i < m->n; i++)
		if (m->f[i].name[0] == key[0] && strcmp(m->f[i].name, key) == 0)
			return &m->f[i];
	return NULL;
}

uint64_t meminfo_bytes(const struct meminfo_field *f)
{
	return f->kb ? f->value * 1024 : f->value;
}
