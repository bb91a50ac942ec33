// SPDX-License-Identifier: GPL-2.0-or-later
/* nodeN/numastat: the six standard counters and whatever else the kernel adds. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nodes.h"

const char *const numastat_keys[NS_STANDARD] = {
	"numa_hit", "numa_miss", "numa_foreign", "interleave_hit", "local_node", "other_node",
};

static int parse_line(const char *p, size_t len, struct numastat *out, unsigned line, char *why,
		      size_t whylen)
{
	const char *sp = memchr(p, ' ', len);
	const char *problem;
	struct counter *c;
	size_t klen;

	if (!sp || sp == p)
		return node_line_error(why, whylen, line, "expected 'name value'");
	klen = (size_t)(sp - p);
	if (klen >= COUNTER_NAME_MAX)
		return node_line_error(why, whylen, line, "counter name too long");
	if ((problem = node_counter_name_problem(p, klen)))
		return node_line_error(why, whylen, line, problem);
	for (size_t i = 0; i < out->n; i++)
		if (strlen(out->c[i].name) == klen && memcmp(out->c[i].name, p, klen) == 0)
			return node_line_error(why, whylen, line, "counter appears twice");
	if (out->n == NUMASTAT_MAX_COUNTERS)
		return node_line_error(why, whylen, line, "too many counters");
	c = &out->c[out->n];
	if ((problem = node_counter_value_problem(sp + 1, len - klen - 1, &c->value)))
		return node_line_error(why, whylen, line, problem);
	memcpy(c->name, p, klen);
	c->name[klen] = '\0';
	out->n++;
	return 0;
}

static int numastat_line(const char *p, size_t len, unsigned line, void *ctx, char *why,
			 size_t whylen)
{
	return parse_line(p, len, ctx, line, why, whylen);
}

int numastat_parse(const char *buf, size_t len, struct numastat *out, char *why, size_t whylen)
{
	uint64_t v;
	int r;

	out->n = 0;
	r = node_text_lines(buf, len, numastat_line, out, why, whylen);
	if (r < 0)
		return r;
	for (int k = 0; k < NS_STANDARD; k++)
		if (!numastat_get(out, numastat_keys[k], &v)) {
			snprintf(why, whylen, "counter %s is missing", numastat_keys[k]);
			return -EBADMSG;
		}
	return 0;
}

int numastat_read(unsigned node, struct numastat *out, char *why, size_t whylen)
{
	char buf[4096];
	ssize_t n = node_file_read(node, "numastat", buf, sizeof(buf), why, whylen);

	if (n < 0)
		return (int)n;
	return numastat_parse(buf, (size_t)n, out, why, whylen);
}

bool numastat_get(const struct numastat *s, const char *key, uint64_t *value)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->c[i].name, key) == 0) {
			*value = s->c[i].value;
			return true;
		}
	return false;
}
