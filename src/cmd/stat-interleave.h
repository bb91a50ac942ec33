/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stat --pid ... --interleave: each process's mappings under weighted
 * interleave, the pages each node holds against the share the configured
 * weights give it (so 8:2 can be seen to land as 8:2).  Text or JSON.
 * Implemented by stat-interleave.c.
 */
#pragma once

#include <stddef.h>

#include "interleave.h"
#include "procmaps.h"
#include "stat.h"

struct stat_interleave_proc {
	unsigned pid;
	const char *name;  /* as the kernel has it (JSON) */
	const char *shown; /* escaped (text) */
	const struct pm_wi *wi;
};

/* Print them; 0 or -errno (after saying why). */
int stat_interleave_print(const struct stat_opts *o, const struct stat_interleave_proc *p, size_t n,
			  const struct interleave_weights *iw, const char *autow);
