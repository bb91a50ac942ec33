/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Implemented by cmd-set-file.c. */
#pragma once

#include <stdbool.h>

#include "plan.h"

/*
 * Add the assignments of a sysctl.d-syntax file ("-" = stdin) to the plan,
 * each with its file:line.  Prints every problem; returns 0 or -errno
 * (-EINVAL: a syntax error, a refused knob or an invalid value; -ENOMEM:
 * out of memory; others: the file could not be read whole).  With
 * managed_only, a key outside the namespaces numastatctl manages (a real
 * sysctl.d file mixes them) is skipped with a note instead of refused.
 */
int cmd_set_file_add(struct plan *p, const char *path, bool managed_only);
