// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mappings of /proc/PID/numa_maps under weighted interleave: the pages
 * each node holds against the share the weights give it.  mpol_to_str()
 * (mm/mempolicy.c) writes the policy as "weighted interleave", two words,
 * then "=flags" when there are any and ":" with the policy's node list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nodes.h"
#include "procmaps.h"
#include "value.h"

static unsigned weight_of(const struct pm_wi *wi, unsigned node)
{
	for (size_t i = 0; i < wi->nw; i++)
		if (wi->wnodes[i] == node)
			return wi->weights[i] ? wi->weights[i] : 1;
	return 1;
}

static struct pm_wi_node *node_entry(struct pm_wi *wi, unsigned node)
{
	size_t i = 0;

	while (i < wi->n && wi->v[i].node < node)
		i++;
	if (i < wi->n && wi->v[i].node == node)
		return &wi->v[i];
	if (array_grow(&wi->v, &wi->cap, wi->n + 1, sizeof(*wi->v)) < 0)
		return NULL;
	memmove(wi->v + i + 1, wi->v + i, (wi->n - i) * sizeof(*wi->v));
	wi->n++;
	wi->v[i] = (struct pm_wi_node){ .node = node };
	return &wi->v[i];
}

/* "interleave[=flags]:<nodes>" -> the policy's nodes; count or -EBADMSG. */
static int policy_nodes(const char *w, size_t wl, unsigned **ids)
{
	const char *colon = memchr(w, ':', wl);
	char list[512];

	if (!colon || (size_t)(w + wl - colon - 1) >= sizeof(list))
		return -EBADMSG;
	snprintf(list, sizeof(list), "%.*s", (int)(w + wl - colon - 1), colon + 1);
	return rangelist_parse(list, ids);
}

/* Sum of the N<id>=<pages> words of [p, end), and each into wi. */
static int add_node_pages(struct pm_wi *wi, const char *p, const char *end, uint64_t *total)
{
	const char *w, *eq;
	size_t wl;
	uint64_t node, pages;
	struct pm_wi_node *e;

	*total = 0;
	while (str_next_word(&p, end, " ", &w, &wl)) {
		if (wl < 2 || w[0] != 'N' || w[1] < '0' || w[1] > '9')
			continue;
		eq = memchr(w, '=', wl);
		if (!eq || parse_u64_n(w + 1, (size_t)(eq - w - 1), NODE_ID_MAX, &node) < 0 ||
		    parse_u64_n(eq + 1, wl - (size_t)(eq - w) - 1, UINT64_MAX / 2, &pages) < 0)
			return -EBADMSG;
		if (!(e = node_entry(wi, (unsigned)node)))
			return -ENOMEM;
		e->pages += pages;
		*total += pages;
	}
	return 0;
}

int procmaps_wi_add_line(struct pm_wi *wi, const char *line, size_t len, char *why, size_t whylen)
{
	const char *p = line, *end = line + len, *w;
	unsigned *ids = NULL, sum = 0;
	uint64_t total;
	size_t wl;
	int n, r;

	if (!str_next_word(&p, end, " ", &w, &wl) || !str_next_word(&p, end, " ", &w, &wl) ||
	    !str_span_is(w, wl, "weighted") || !str_next_word(&p, end, " ", &w, &wl) ||
	    !str_span_starts(w, wl, "interleave"))
		return 0;
	/* Page cache: placed by whoever read the file first, not by this policy. */
	if (memmem(p, (size_t)(end - p), " file=", 6)) {
		wi->file_mappings++;
		return 0;
	}
	if ((n = policy_nodes(w, wl, &ids)) <= 0) {
		free(ids);
		snprintf(why, whylen, "weighted interleave without a node list");
		return n == -ENOMEM ? n : -EBADMSG;
	}
	r = add_node_pages(wi, p, end, &total);
	for (int i = 0; i < n && r == 0; i++)
		sum += weight_of(wi, ids[i]);
	for (int i = 0; i < n && r == 0 && total; i++) {
		struct pm_wi_node *e = node_entry(wi, ids[i]);

		if (!e)
			r = -ENOMEM;
		else
			e->wants += (double)total * weight_of(wi, ids[i]) / sum;
	}
	free(ids);
	if (r == -EBADMSG)
		snprintf(why, whylen, "malformed N<node>=<pages>");
	if (r == 0) {
		wi->mappings++;
		wi->pages += total;
	}
	return r;
}

void procmaps_wi_free(struct pm_wi *wi)
{
	free(wi->v);
	wi->v = NULL;
	wi->n = wi->cap = 0;
	wi->mappings = wi->file_mappings = 0;
	wi->pages = 0;
}
