/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How set, apply and revert tell what they did: text lines or JSON. */
#pragma once

#include <stdbool.h>

#include "plan.h"

/*
 * One line per knob on stdout ("vm.numa_stat: 1 -> 0", "... (unchanged)"),
 * errors on stderr; with G.json the {"knobs":[{name,old,new,action}]} array.
 * dry_run words the ACT_WRITE items as what would happen.  0 or -EIO.
 */
int report_plan(const struct plan *p, bool dry_run);
/* The stderr line for a failed item, e.g. "vm.x: cannot write /proc/...: ...". */
void report_item_error(const struct plan_item *it);
/* The notes that go with an executed plan: snapshot path, state warnings. */
void report_plan_notes(const struct plan_opts *o);
