// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm-toucher MB ALLOC_CPU RUN_CPU SECONDS: the VM test's workload for NUMA
 * balancing and cgroups.  It faults MB of anonymous memory in while it runs
 * on ALLOC_CPU (first touch puts the pages on that CPU's node), moves to
 * RUN_CPU (-1: stays), and reads a word of every page for SECONDS, so that
 * NUMA balancing finds its memory remote and migrates it.  Then it prints
 * "done" and sleeps until killed, keeping the memory.  No libnuma: only
 * the default policy, as a service gets it.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int run_on(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char *argv[])
{
	long page = sysconf(_SC_PAGESIZE), mb, secs;
	int alloc_cpu, run_cpu;
	volatile char *p;
	size_t len, sum = 0;
	double end;

	if (argc != 5) {
		fprintf(stderr, "usage: vm-toucher MB ALLOC_CPU RUN_CPU SECONDS\n");
		return 2;
	}
	mb = atol(argv[1]);
	alloc_cpu = atoi(argv[2]);
	run_cpu = atoi(argv[3]);
	secs = atol(argv[4]);
	len = (size_t)mb << 20;
	if (run_on(alloc_cpu) < 0) {
		perror("vm-toucher: sched_setaffinity");
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("vm-toucher: mmap");
		return 1;
	}
	for (size_t i = 0; i < len; i += (size_t)page)
		p[i] = 1;
	if (run_cpu >= 0 && run_on(run_cpu) < 0) {
		perror("vm-toucher: sched_setaffinity");
		return 1;
	}
	printf("allocated\n");
	fflush(stdout);
	for (end = now() + (double)secs; now() < end;)
		for (size_t i = 0; i < len; i += (size_t)page)
			sum += (size_t)p[i];
	printf("done %zu\n", sum);
	fflush(stdout);
	for (;;)
		pause();
}
