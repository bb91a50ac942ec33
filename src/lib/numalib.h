/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnuma for selftest and bench only: loaded with dlopen() on first use, so
 * its constructor (which reads /proc/self/status and every node's meminfo)
 * never runs for any other command.  Live system only: libnuma reads the
 * real /sys and cannot follow --sysroot.  Helpers return 0 or -errno and
 * fill why; libnuma's own errors are folded into why, never printed.
 * (Not "numa.h": on our include path that would hide libnuma's <numa.h>.)
 * Implemented by numalib.c.
 */
#pragma once

#include <stddef.h>

/*
 * dlopen libnuma, check that our numa_warn()/numa_error() are the ones it
 * calls, then numa_available().  -ENOENT: library missing; -ENOSYS: the
 * kernel (or a seccomp filter) offers no NUMA; -ELIBBAD: a build that does
 * not export the overrides.
 */
int numalib_load(char *why, size_t whylen);

/* Bind [addr, addr+len) to node (MPOL_BIND) before it is touched. */
int numalib_bind(void *addr, size_t len, unsigned node, char *why, size_t whylen);

/* Run the calling thread on the CPUs of node. */
int numalib_run_on_node(unsigned node, char *why, size_t whylen);
/*
 * Fill libnuma's cache of node's CPUs (numa_node_to_cpus()), which
 * numalib_run_on_node() reads: libnuma fills it without a lock, so two
 * threads' first looks race and one copy leaks.  Call before the threads
 * start.
 */
void numalib_node_cpus_ready(unsigned node);

/* Free bytes on node, as libnuma reports them from nodeN/meminfo. */
int numalib_node_free(unsigned node, unsigned long long *free_bytes, char *why, size_t whylen);
