/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing vm.numa_stat=0 zeroes every NUMA counter.  Before that happens the
 * counters of every node are saved as JSON (the `stat -J` shape) to
 * <state_dir>/snapshots/numastat-<UTC time>.json.
 */
#pragma once

#include <stddef.h>

/* 0 with the file's path in path, or -errno with a reason in why. */
int snapshot_save(const char *state_dir, char *path, size_t pathlen, char *why, size_t whylen);
