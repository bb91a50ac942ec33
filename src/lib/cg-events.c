// SPDX-License-Identifier: GPL-2.0-or-later
/* The NUMA events of memory.stat (cg-events.h). */
#include <string.h>

#include "cg-events.h"
#include "nodes.h"
#include "value.h"

const char *const cg_events_key[CG_EV_COUNT] = {
	[CG_EV_NUMA_PTE_UPDATES] = "numa_pte_updates",
	[CG_EV_NUMA_HINT_FAULTS] = "numa_hint_faults",
	[CG_EV_NUMA_PAGES_MIGRATED] = "numa_pages_migrated",
	[CG_EV_PGPROMOTE_SUCCESS] = "pgpromote_success",
	[CG_EV_PGDEMOTE_KSWAPD] = "pgdemote_kswapd",
	[CG_EV_PGDEMOTE_DIRECT] = "pgdemote_direct",
	[CG_EV_PGDEMOTE_KHUGEPAGED] = "pgdemote_khugepaged",
};

static int event_line(const char *line, size_t len, unsigned lineno, void *ctx, char *why,
		      size_t whylen)
{
	struct cg_events *e = ctx;
	const char *sp = memchr(line, ' ', len);
	size_t kl = sp ? (size_t)(sp - line) : len;

	for (int i = 0; i < CG_EV_COUNT; i++) {
		if (strlen(cg_events_key[i]) != kl || memcmp(line, cg_events_key[i], kl) != 0)
			continue;
		if (e->have[i])
			return node_line_error(why, whylen, lineno, "a key given twice");
		if (!sp || parse_u64_n(sp + 1, len - kl - 1, UINT64_MAX, &e->v[i]) < 0)
			return node_line_error(why, whylen, lineno, "value is not a number");
		e->have[i] = true;
	}
	return 0;
}

int cg_events_parse(const char *buf, size_t len, struct cg_events *out, char *why, size_t whylen)
{
	*out = (struct cg_events){ 0 };
	return node_text_lines(buf, len, event_line, out, why, whylen);
}

bool cg_events_any(const struct cg_events *e)
{
	for (int i = 0; i < CG_EV_COUNT; i++)
		if (e->have[i])
			return true;
	return false;
}
