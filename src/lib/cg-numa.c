// SPDX-License-Identifier: GPL-2.0-or-later
/* The memory.numa_stat parser (cg-numa.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cg-numa.h"
#include "nodes.h"
#include "value.h"

void cg_numa_free(struct cg_numa *s)
{
	free(s->name);
	free(s->node);
	free(s->v);
	free(s->total);
	*s = (struct cg_numa){ 0 };
}

int cg_numa_copy(struct cg_numa *dst, const struct cg_numa *src)
{
	size_t items = src->n_items ? src->n_items : 1, nodes = src->n_nodes ? src->n_nodes : 1;

	*dst = (struct cg_numa){ .n_items = src->n_items, .n_nodes = src->n_nodes };
	dst->name = calloc(items, sizeof(*dst->name));
	dst->node = calloc(nodes, sizeof(*dst->node));
	dst->v = calloc(items * nodes, sizeof(*dst->v));
	dst->total = calloc(nodes, sizeof(*dst->total));
	if (!dst->name || !dst->node || !dst->v || !dst->total) {
		cg_numa_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->name, src->name, src->n_items * sizeof(*dst->name));
	memcpy(dst->node, src->node, src->n_nodes * sizeof(*dst->node));
	memcpy(dst->v, src->v, src->n_items * src->n_nodes * sizeof(*dst->v));
	memcpy(dst->total, src->total, src->n_nodes * sizeof(*dst->total));
	return 0;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* " N<id>=<value>" at p (len bytes left); the bytes used, or -1. */
static int parse_cell(const char *p, size_t len, unsigned *node, uint64_t *v)
{
	const char *eq, *end;
	uint64_t id;

	if (len < 5 || p[0] != ' ' || p[1] != 'N')
		return -1;
	end = memchr(p + 1, ' ', len - 1);
	end = end ? end : p + len;
	eq = memchr(p + 2, '=', (size_t)(end - p - 2));
	if (!eq || parse_u64_n(p + 2, (size_t)(eq - p - 2), NODE_ID_MAX, &id) < 0 ||
	    parse_u64_n(eq + 1, (size_t)(end - eq - 1), UINT64_MAX, v) < 0)
		return -1;
	*node = (unsigned)id;
	return (int)(end - p);
}

/* Count the cells of the first line: the node list every line must repeat. */
static size_t count_cells(const char *p, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += p[i] == ' ';
	return n;
}

struct parse {
	struct cg_numa *s;
	size_t cap_items;
};

/* Room for need items in name and v (n_nodes values per item), which share cap_items. */
static int grow_items(struct parse *ps, size_t need)
{
	struct cg_numa *s = ps->s;
	size_t cap_name = ps->cap_items;

	if (array_grow(&s->name, &cap_name, need, sizeof(*s->name)) < 0 ||
	    array_grow(&s->v, &ps->cap_items, need, s->n_nodes * sizeof(*s->v)) < 0)
		return -ENOMEM;
	return 0;
}

/* The first line fixes the nodes. */
static int first_line(struct parse *ps, const char *cells, size_t len)
{
	size_t n = count_cells(cells, len);

	if (n == 0)
		return -EBADMSG;
	ps->s->node = calloc(n, sizeof(unsigned));
	if (!ps->s->node)
		return -ENOMEM;
	ps->s->n_nodes = n;
	return 0;
}

static int numa_line(const char *p, size_t len, unsigned line, void *ctx, char *why, size_t whylen)
{
	struct parse *ps = ctx;
	struct cg_numa *s = ps->s;
	size_t klen = 0, at, item = s->n_items;
	int r;

	while (klen < len && name_char(p[klen]))
		klen++;
	if (klen < len && p[klen] == '=')
		return line == 1 ? -EPROTO
				 : node_line_error(why, whylen, line,
						   "expected 'name N<node>=<value> ...'");
	if (klen == 0 || klen >= CG_ITEM_NAME_MAX || (klen < len && p[klen] != ' '))
		return node_line_error(why, whylen, line,
				       "expected an item name of a-z, 0-9, _ (at most 39)");
	if (line == 1 && (r = first_line(ps, p + klen, len - klen)) < 0)
		return r == -ENOMEM ? r : node_line_error(why, whylen, line, "no node values");
	for (size_t i = 0; i < s->n_items; i++)
		if (strlen(s->name[i]) == klen && memcmp(s->name[i], p, klen) == 0)
			return node_line_error(why, whylen, line, "item appears twice");
	if (item == CG_MAX_ITEMS)
		return node_line_error(why, whylen, line, "too many items");
	if ((r = grow_items(ps, item + 1)) < 0)
		return r;
	at = klen;
	for (size_t ni = 0; ni < s->n_nodes; ni++) {
		unsigned node;
		int used = parse_cell(p + at, len - at, &node, &CG_V(s, item, ni));

		if (used < 0)
			return node_line_error(why, whylen, line, "expected N<node>=<value>");
		if (line == 1 && ni > 0 && node <= s->node[ni - 1])
			return node_line_error(why, whylen, line, "nodes out of order");
		if (line == 1)
			s->node[ni] = node;
		else if (node != s->node[ni])
			return node_line_error(why, whylen, line, "other nodes than on line 1");
		at += (size_t)used;
	}
	if (at != len)
		return node_line_error(why, whylen, line, "other nodes than on line 1");
	memcpy(s->name[item], p, klen);
	s->name[item][klen] = '\0';
	s->n_items++;
	return 0;
}

/* Each node's total, once: a table of many cgroups asks for them again and again. */
static int node_totals(struct cg_numa *s)
{
	static const char *const parts[] = {
		"anon",
		"file",
		"kernel_stack",
		"pagetables",
		"sec_pagetables",
		"slab_reclaimable",
		"slab_unreclaimable",
	};

	s->total = calloc(s->n_nodes ? s->n_nodes : 1, sizeof(*s->total));
	if (!s->total)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		int k = cg_numa_item(s, parts[i]);

		for (size_t n = 0; k >= 0 && n < s->n_nodes; n++) {
			uint64_t v = CG_V(s, (size_t)k, n);

			s->total[n] = v > UINT64_MAX - s->total[n] ? UINT64_MAX : s->total[n] + v;
		}
	}
	return 0;
}

int cg_numa_parse(const char *buf, size_t len, struct cg_numa *out, char *why, size_t whylen)
{
	struct parse ps = { .s = out };
	int r;

	*out = (struct cg_numa){ 0 };
	r = node_text_lines(buf, len, numa_line, &ps, why, whylen);
	if (r == 0)
		r = node_totals(out);
	if (r == -EPROTO)
		snprintf(why, whylen, "cgroup v1's format (total=..., in pages), not v2's");
	else if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (r < 0)
		cg_numa_free(out);
	return r;
}

int cg_numa_item(const struct cg_numa *s, const char *name)
{
	for (size_t i = 0; i < s->n_items; i++)
		if (strcmp(s->name[i], name) == 0)
			return (int)i;
	return -1;
}

int cg_numa_node(const struct cg_numa *s, unsigned node)
{
	size_t lo = 0, hi = s->n_nodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->node[mid] == node)
			return (int)mid;
		if (s->node[mid] < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

bool cg_item_is_count(const char *name)
{
	return strncmp(name, "workingset_", 11) == 0 || strncmp(name, "pg", 2) == 0;
}

uint64_t cg_numa_node_total(const struct cg_numa *s, size_t ni)
{
	return s->total ? s->total[ni] : 0;
}
