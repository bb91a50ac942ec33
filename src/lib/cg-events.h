/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NUMA balancing and tiering events of a cgroup v2's memory.stat: what
 * the cgroup (and its descendants) had scanned, faulted, migrated,
 * promoted and demoted, machine-wide for the cgroup (memory.numa_stat has
 * no node for the first three).  The numa_* events came with commit
 * f77f0c751478 "mm,memcg: provide per-cgroup counters for NUMA balancing
 * operations" (6.12; absent in 6.8), pgdemote_* with it, pgpromote_success
 * in a 6.12 tree too; a kernel has the keys it has, so the reader records which it saw:
 * a missing key is "not on this kernel", never 0.  Parsers work on buffers
 * and never print.  Implemented by cg-events.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cg_event {
	CG_EV_NUMA_PTE_UPDATES,
	CG_EV_NUMA_HINT_FAULTS,
	CG_EV_NUMA_PAGES_MIGRATED,
	CG_EV_PGPROMOTE_SUCCESS,
	CG_EV_PGDEMOTE_KSWAPD,
	CG_EV_PGDEMOTE_DIRECT,
	CG_EV_PGDEMOTE_KHUGEPAGED,
	CG_EV_COUNT
};

/* The memory.stat key of each event: "numa_pages_migrated". */
extern const char *const cg_events_key[CG_EV_COUNT];

struct cg_events {
	uint64_t v[CG_EV_COUNT];
	bool have[CG_EV_COUNT]; /* the key is in the file */
};

/*
 * The events of memory.stat's text ("anon 8192\n..."); the other keys are
 * passed over.  One of ours twice, or with a value that is not a number,
 * is -EBADMSG ("line 3: ..."); a NUL, an empty text or a last line without
 * its newline too.
 */
int cg_events_parse(const char *buf, size_t len, struct cg_events *out, char *why, size_t whylen);
/* Does the file have any of the events (a kernel from 6.12 on)? */
bool cg_events_any(const struct cg_events *e);
