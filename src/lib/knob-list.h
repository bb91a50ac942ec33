/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which knobs there are: the registry, plus pass-through sysctls on this
 * kernel. Implemented by knob-list.c.
 */
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
/* Append without looking for it first (a list known to lack it).  0 or -ENOMEM. */
int knob_list_append(struct knob_list *l, const struct knob_ref *ref);
/*
 * The node ids of a KNOB_F_PER_NODE family's files here, sorted, into
 * *nodes (malloc'ed, NULL when none): the count, or -errno.
 */
int knob_family_nodes(const struct knob *k, unsigned **nodes);
/*
 * Names matching a shell glob ('/' may stand for '.'), appended to out: only
 * knobs this kernel has, so 'vm.*' never trips over a registry knob it lacks.
 */
int knob_list_glob(const struct knob_list *all, const char *glob, struct knob_list *out);
void knob_list_free(struct knob_list *l);
/* True when s holds a glob character. */
bool knob_is_glob(const char *s);

/*
 * Whether this kernel has the knob's file.  An answer that is not clear
 * (EACCES, a dump's link out of the sysroot) is yes: the read that follows
 * names the real problem.
 */
bool knob_present(const struct knob_ref *ref);

/*
 * What every command uses for a name it was given: knob_resolve(), and a
 * pass-through name must also be a sysctl this kernel has.  A registry knob
 * resolves whether the kernel has it or not ('-' in profiles and set is for
 * those).  -ENOENT for a name that is neither, with why = "unknown knob 'X':
 * did you mean Y?" when one of the registry knobs or of the sysctls here is
 * close; -EINVAL for a malformed or ambiguous name.
 */
int knob_lookup(const char *input, struct knob_ref *out, char *why, size_t whylen);
/*
 * knob_lookup() for a name given with '-' (skip where the kernel lacks it):
 * a registry knob the kernel cannot have here (a node without a weight, no
 * auto) resolves too, and is skipped when it is read.
 */
int knob_lookup_optional(const char *input, struct knob_ref *out, char *why, size_t whylen);
