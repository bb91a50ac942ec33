/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `status` says about NUMA balancing: whether it is on, in which mode,
 * and what it did since boot (read once; a line of text or a JSON member).
 * stat --balancing (stat-view-balancing.c) shows the counters themselves.
 * Implemented by stat-balance.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stat_balance_status {
	int state;      /* 1 on, 0 off, -ENOENT no kernel.numa_balancing, -errno */
	char mode[128]; /* the knob in words: "normal", "normal|tiering" */
	bool counters;  /* the kernel has the hint fault and migration counters */
	uint64_t faults, local, migrated;
	bool has_promoted;
	uint64_t promoted;
};
void stat_balance_status_read(struct stat_balance_status *b);
/* "NUMA balancing: on (normal); since boot 8200 hint faults, 25.0% local, ..." */
void stat_balance_status_print(const struct stat_balance_status *b, size_t width);
/* "balancing": {"state":..,"mode":..,"hint_faults":..,...} into d. */
struct out_doc;
int stat_balance_status_json(const struct stat_balance_status *b, struct out_doc *d, char *why,
			     size_t whylen);
