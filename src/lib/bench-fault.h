/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-fault workload of selftest and bench: worker threads run on the
 * CPUs of one node, map anonymous memory bound to a node, touch every page
 * once (one write: a fresh page each, never the shared zero page) and unmap
 * it.  THP is off for the mapping: numastat counts allocation events, and a
 * 2 MiB fault would count once for 512 pages.  Needs numalib_load().
 * Implemented by bench-fault.c.
 */
#pragma once

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define FAULT_MAX_THREADS 1024

struct fault_job {
	unsigned mem_node; /* where the pages go (MPOL_BIND) */
	unsigned cpu_node; /* whose CPUs the workers run on */
	size_t bytes;      /* per thread, a multiple of the page size */
	unsigned threads;  /* 1 .. FAULT_MAX_THREADS */
	/* Non-zero asks the workers to stop early (a signal arrived). */
	const volatile sig_atomic_t *stop;
};

struct fault_result {
	uint64_t faults;       /* pages touched, all threads */
	double ns_per_fault;   /* mean over the threads of time / pages */
	double faults_per_sec; /* all faults / (last end - first start) */
};

/*
 * Run the job once.  Only the touching is timed; mmap, binding and munmap
 * are not.  Returns 0, -EINTR when *stop was set, or -errno with why.
 */
int bench_fault_run(const struct fault_job *job, struct fault_result *res, char *why,
		    size_t whylen);

struct numastat;

/*
 * Fault in `pages` fresh pages on mem_node from one thread on a CPU of
 * cpu_node, and read mem_node's counters before and after.  Returns 0,
 * -EINTR, or -errno with why.
 */
int bench_fault_probe(unsigned mem_node, unsigned cpu_node, size_t pages,
		      const volatile sig_atomic_t *stop, struct numastat *before,
		      struct numastat *after, char *why, size_t whylen);
