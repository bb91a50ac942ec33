/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the cgroup v2 hierarchy is, said the same way by every command
 * that reads cgroups (stat --cgroup, --container, --pod; placement's).
 * Implemented by cgroup-root.c.
 */
#pragma once

#include <stddef.h>

/*
 * Find the hierarchy into root (cg-find.h).  EXIT_OK, or EXIT_FAIL after
 * one line naming option (what the user typed: "--cgroup", "--container",
 * "--pod"), what is there instead and what would make it work.
 */
int cgroup_root_find(char *root, size_t len, const char *option);
/* The option of a command's cgroups the user typed first, for messages. */
const char *cgroup_root_option(size_t n_cgroups, size_t n_containers);
