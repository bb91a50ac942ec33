// SPDX-License-Identifier: GPL-2.0-or-later
/* Range lists ("0-3,8"): node and CPU lists as sysfs and --nodes write them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nodes.h"
#include "value.h"

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
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

int rangelist_select(const char *s, const unsigned *present, size_t n_present, unsigned **ids,
		     struct node_miss *miss)
{
	struct select_ctx c = { .present = present, .n_present = n_present, .miss = miss };

	return finish_ids(&c.iv, rangelist_each(s, push_present, &c), ids);
}

/* The range starting at ids[i] as text ("0", ",2-5"); its last index in *last. */
static size_t range_token(const unsigned *ids, size_t n, size_t i, char *tok, size_t size,
			  size_t *last)
{
	size_t j = i;

	while (j + 1 < n && ids[j + 1] == ids[j] + 1)
		j++;
	*last = j;
	if (j == i)
		return (size_t)snprintf(tok, size, "%s%u", i ? "," : "", ids[i]);
	return (size_t)snprintf(tok, size, "%s%u-%u", i ? "," : "", ids[i], ids[j]);
}

size_t rangelist_format(const unsigned *ids, size_t n, char *buf, size_t len)
{
	static const char more[] = ",...";
	size_t used = 0, need = 0, j;
	char tok[32];

	for (size_t i = 0; i < n; i = j + 1)
		need += range_token(ids, n, i, tok, sizeof(tok), &j);
	if (len == 0)
		return need;
	/* Cut: whole ranges while one more and ",..." fit, then ",..." (or what fits of "..."). */
	for (size_t i = 0; i < n; i = j + 1) {
		size_t w = range_token(ids, n, i, tok, sizeof(tok), &j);

		if (need >= len && used + w + sizeof(more) - 1 >= len)
			break;
		memcpy(buf + used, tok, w);
		used += w;
	}
	for (size_t k = used ? 0 : 1; need >= len && more[k] && used + 1 < len; k++)
		buf[used++] = more[k];
	buf[used] = '\0';
	return need;
}

void rangelist_text(const unsigned *ids, size_t n, char *buf, size_t len)
{
	if (n)
		rangelist_format(ids, n, buf, len);
	else
		snprintf(buf, len, "none");
}

bool rangelist_has(const unsigned *ids, size_t n, unsigned id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] == id)
			return true;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}
