// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2 memory.numa_stat (exactly size bytes): every line lists the same
 * nodes in ascending order, items are unique, a copy equals the original, a
 * refusal says why.  The same bytes as a --cgroup argument's unit and
 * pattern tests.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cg-find.h"
#include "cg-numa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct cg_numa *s)
{
	struct cg_numa c;

	for (size_t n = 1; n < s->n_nodes; n++)
		if (s->node[n] <= s->node[n - 1])
			abort();
	for (size_t i = 0; i < s->n_items; i++) {
		if (cg_numa_item(s, s->name[i]) != (int)i || !s->name[i][0])
			abort();
		(void)cg_item_is_count(s->name[i]);
	}
	for (size_t n = 0; n < s->n_nodes; n++)
		if (cg_numa_node(s, s->node[n]) != (int)n)
			abort();
		else
			(void)cg_numa_node_total(s, n);
	if (cg_numa_copy(&c, s) == 0) {
		if (c.n_items != s->n_items || c.n_nodes != s->n_nodes ||
		    memcmp(c.v, s->v, s->n_items * s->n_nodes * sizeof(*c.v)) != 0)
			abort();
		cg_numa_free(&c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), why[256] = "";
	struct cg_numa s;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (cg_numa_parse(buf, size, &s, why, sizeof(why)) == 0) {
		check(&s);
		cg_numa_free(&s);
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0] || s.v || s.name || s.node) {
		abort();
	}
	buf[size] = '\0';
	(void)cg_is_unit(buf);
	(void)cg_is_pattern(buf);
	free(buf);
	return 0;
}
