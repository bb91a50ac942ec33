/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which knobs there are: the registry, plus pass-through sysctls on this kernel. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "knobs.h"

struct knob_list {
	struct knob_ref *refs;
	size_t n, cap;
};

/*
 * The registry knobs in table order (present or not); with passthrough also
 * every other vm.* and kernel.numa_* sysctl found here, sorted by name.
 * 0 or -errno.
 */
int knob_list_build(struct knob_list *l, bool passthrough);
/* Append one resolved knob unless it is already listed.  0 or -ENOMEM. */
int knob_list_add(struct knob_list *l, const struct knob_ref *ref);
/* Names matching a shell glob ('/' may stand for '.'), appended to out. */
int knob_list_glob(const struct knob_list *all, const char *glob, struct knob_list *out);
void knob_list_free(struct knob_list *l);
/* True when s holds a glob character. */
bool knob_is_glob(const char *s);
