/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * status's lines on what runs beside NUMA balancing: a DAMOS scheme that
 * migrates while balancing has the tiering bit, DAMON_STAT's kdamond
 * (PID, CPU time), a sched_ext scheduler while balancing is on (whose
 * effect only advise --interval can show).  The same rules as advise's
 * (advise-interact.c), said in one line each; advise has the evidence.
 * Implemented by status-interact.c.
 */
#pragma once

#include <stddef.h>

#define STATUS_INTERACT_MAX 3

struct status_interact {
	char lines[STATUS_INTERACT_MAX][400];
	size_t n;
};

/* Read and judge.  Never fails: what cannot be read says nothing. */
void status_interact_read(struct status_interact *si);
/* "interaction: ..." lines, folded at cols on a terminal (0: one line each). */
void status_interact_print(const struct status_interact *si, size_t cols);
struct out_doc;
/* "interactions": [the lines]. */
int status_interact_json(const struct status_interact *si, struct out_doc *d, char *why,
			 size_t whylen);
