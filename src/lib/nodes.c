// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nodes.h"
#include "sysfs.h"
#include "value.h"

const char *const numastat_keys[NS_STANDARD] = {
	"numa_hit", "numa_miss", "numa_foreign", "interleave_hit", "local_node", "other_node",
};

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* "node" followed by a plain decimal id; anything else is not a node. */
static bool node_dir_id(const char *name, unsigned *id)
{
	uint64_t v;

	if (strncmp(name, "node", 4) != 0 || parse_u64(name + 4, NODE_ID_MAX, &v) < 0)
		return false;
	*id = (unsigned)v;
	return true;
}

int nodes_enumerate(unsigned **ids)
{
	DIR *d = sysfs_opendir(NODE_DIR);
	unsigned *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	unsigned id;

	*ids = NULL;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((errno = 0, de = readdir(d))) {
		if (!node_dir_id(de->d_name, &id))
			continue;
		if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v[n++] = id;
	}
	closedir(d);
	if (n > 1) /* qsort's pointer must not be NULL, even for 0 items */
		qsort(v, n, sizeof(*v), cmp_unsigned);
	*ids = v;
	return (int)n;
}

int node_line_error(char *why, size_t whylen, unsigned line, const char *what)
{
	snprintf(why, whylen, "line %u: %s", line, what);
	return -EBADMSG;
}


int node_text_lines(const char *buf, size_t len, node_line_fn fn, void *ctx,
		    char *why, size_t whylen)
{
	unsigned line = 1;
	int r;

	if (len == 0)
		return node_line_error(why, whylen, 1, "file is empty");
	if (memchr(buf, '\0', len))
		return node_line_error(why, whylen, 1, "file contains a NUL byte");
	for (const char *p = buf; p < buf + len; line++) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));

		if (!nl)
			return node_line_error(why, whylen, line, "missing newline at end of file");
		r = fn(p, (size_t)(nl - p), line, ctx, why, whylen);
		if (r < 0)
			return r;
		p = nl + 1;
	}
	return 0;
}

const char *counter_name_problem(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '_'))
			return "counter name has characters other than a-z, 0-9, _";
	return NULL;
}

const char *counter_value_problem(const char *s, size_t len, uint64_t *v)
{
	switch (parse_u64_n(s, len, UINT64_MAX, v)) {
	case 0:
		return NULL;
	case -ERANGE:
		return "value does not fit in 64 bits";
	default:
		return "value is not a decimal number";
	}
}

static int parse_line(const char *p, size_t len, struct numastat *out, unsigned line,
		      char *why, size_t whylen)
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
	if ((problem = counter_name_problem(p, klen)))
		return node_line_error(why, whylen, line, problem);
	for (size_t i = 0; i < out->n; i++)
		if (strlen(out->c[i].name) == klen && memcmp(out->c[i].name, p, klen) == 0)
			return node_line_error(why, whylen, line, "counter appears twice");
	if (out->n == NUMASTAT_MAX_COUNTERS)
		return node_line_error(why, whylen, line, "too many counters");
	c = &out->c[out->n];
	if ((problem = counter_value_problem(sp + 1, len - klen - 1, &c->value)))
		return node_line_error(why, whylen, line, problem);
	memcpy(c->name, p, klen);
	c->name[klen] = '\0';
	out->n++;
	return 0;
}

static int numastat_line(const char *p, size_t len, unsigned line, void *ctx,
			 char *why, size_t whylen)
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

ssize_t node_file_read(unsigned node, const char *file, char *buf, size_t size,
		       char *why, size_t whylen)
{
	char path[96];
	ssize_t n;

	snprintf(path, sizeof(path), NODE_DIR "/node%u/%s", node, file);
	n = sysfs_read_file(path, buf, size);
	if (n < 0)
		snprintf(why, whylen, "%s", n == -EFBIG ? "file too large" : sysfs_strerror((int)n));
	return n;
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

static int push_range(unsigned **v, size_t *n, size_t *cap, uint64_t lo, uint64_t hi)
{
	for (uint64_t id = lo; id <= hi; id++) {
		if (array_grow(v, cap, *n + 1, sizeof(**v)) < 0)
			return -ENOMEM;
		(*v)[(*n)++] = (unsigned)id;
	}
	return 0;
}

static int parse_id(const char *s, size_t len, uint64_t *id)
{
	int r = parse_u64_n(s, len, NODE_ID_MAX, id);

	return r == -ERANGE ? -ERANGE : r < 0 ? -EINVAL : 0;
}

/* Call fn for each "lo-hi" or "id" of a range list; 0 or the first error. */
typedef int (*range_fn)(uint64_t lo, uint64_t hi, void *ctx);

static int rangelist_each(const char *s, range_fn fn, void *ctx)
{
	size_t len = strlen(s);
	int r = 0;

	if (len && s[len - 1] == '\n')
		len--;
	for (const char *p = s; len && p <= s + len && r == 0;) {
		const char *end = memchr(p, ',', (size_t)(s + len - p));
		size_t tl = end ? (size_t)(end - p) : (size_t)(s + len - p);
		const char *dash = memchr(p, '-', tl);
		uint64_t lo = 0, hi = 0;

		if (dash) {
			r = parse_id(p, (size_t)(dash - p), &lo);
			if (r == 0)
				r = parse_id(dash + 1, tl - (size_t)(dash - p) - 1, &hi);
			if (r == 0 && hi < lo)
				r = -EINVAL;
		} else {
			r = parse_id(p, tl, &lo);
			hi = lo;
		}
		if (r == 0)
			r = fn(lo, hi, ctx);
		if (!end)
			break;
		p = end + 1;
		if (p == s + len)
			r = -EINVAL; /* trailing comma */
	}
	return r;
}

struct id_vec {
	unsigned *v;
	size_t n, cap;
};

static int push_all(uint64_t lo, uint64_t hi, void *ctx)
{
	struct id_vec *iv = ctx;

	return push_range(&iv->v, &iv->n, &iv->cap, lo, hi);
}

/* Sort and drop duplicates; returns the count or the error r (freeing). */
static int finish_ids(struct id_vec *iv, int r, unsigned **ids)
{
	size_t out = 0;

	if (r < 0) {
		free(iv->v);
		*ids = NULL;
		return r;
	}
	if (iv->n)
		qsort(iv->v, iv->n, sizeof(*iv->v), cmp_unsigned);
	for (size_t i = 0; i < iv->n; i++)
		if (i == 0 || iv->v[i] != iv->v[out - 1])
			iv->v[out++] = iv->v[i];
	*ids = iv->v;
	return (int)out;
}

int rangelist_parse(const char *s, unsigned **ids)
{
	struct id_vec iv = { 0 };

	return finish_ids(&iv, rangelist_each(s, push_all, &iv), ids);
}

struct select_ctx {
	struct id_vec iv;
	const unsigned *present;
	size_t n_present;
	struct node_miss *miss;
};

static bool is_present(const struct select_ctx *c, uint64_t id)
{
	unsigned u = (unsigned)id;

	return c->n_present &&
	       bsearch(&u, c->present, c->n_present, sizeof(u), cmp_unsigned) != NULL;
}

/* A range's end points must exist; the absent ids between them are skipped. */
static int push_present(uint64_t lo, uint64_t hi, void *ctx)
{
	struct select_ctx *c = ctx;

	if (!is_present(c, lo) || !is_present(c, hi)) {
		c->miss->id = (unsigned)(is_present(c, lo) ? hi : lo);
		c->miss->range_end = lo != hi;
		return -ENOENT;
	}
	for (size_t i = 0; i < c->n_present; i++)
		if (c->present[i] >= lo && c->present[i] <= hi) {
			int r = push_range(&c->iv.v, &c->iv.n, &c->iv.cap, c->present[i],
					   c->present[i]);

			if (r < 0)
				return r;
		}
	return 0;
}

int nodelist_select(const char *s, const unsigned *present, size_t n_present, unsigned **ids,
		    struct node_miss *miss)
{
	struct select_ctx c = { .present = present, .n_present = n_present, .miss = miss };

	return finish_ids(&c.iv, rangelist_each(s, push_present, &c), ids);
}

void rangelist_format(const unsigned *ids, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char tok[32];
		size_t j = i, w;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (j == i)
			snprintf(tok, sizeof(tok), "%s%u", i ? "," : "", ids[i]);
		else
			snprintf(tok, sizeof(tok), "%s%u-%u", i ? "," : "", ids[i], ids[j]);
		w = strlen(tok);
		/* A whole range or nothing: "0,2,5" must not stand for "0,2,5-6". */
		if (used + w >= len)
			return;
		memcpy(buf + used, tok, w + 1);
		used += w;
		i = j;
	}
}
