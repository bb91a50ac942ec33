// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wi-toucher [bind|bind-late] PAGES NODE...: the weighted interleave
 * guest's workload.  Sets its own policy to MPOL_WEIGHTED_INTERLEAVE (mode
 * 6, Linux 6.9+) over the nodes named, or with "bind" to MPOL_BIND over
 * them, faults in PAGES base pages of one anonymous mapping (no transparent
 * huge pages: one folio would be one interleave slot), prints the mapping's
 * address and "ready", and sleeps until killed, so that /proc/PID/numa_maps
 * shows where the kernel put each page.  "bind-late" faults the pages in
 * under the default policy (on the node of its CPU) and then binds the
 * mapping to the nodes with mbind(2) without MPOL_MF_MOVE: the pages stay
 * where they are, off the policy.  The syscalls are made directly:
 * Debian 12's numactl predates --weighted-interleave.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_BIND 2
#define MPOL_WEIGHTED_INTERLEAVE 6
#define MAXNODE (16 * 64)

int main(int argc, char **argv)
{
	unsigned long mask[MAXNODE / 64] = { 0 };
	int mode = MPOL_WEIGHTED_INTERLEAVE, first = 1;
	int late = argc > 1 && strcmp(argv[1], "bind-late") == 0;
	long pages, size = sysconf(_SC_PAGESIZE);
	char *p;

	if (argc > 1 && (late || strcmp(argv[1], "bind") == 0)) {
		mode = MPOL_BIND;
		first = 2;
	}
	pages = argc > first + 1 ? atol(argv[first]) : 0;
	if (pages <= 0) {
		fprintf(stderr, "usage: wi-toucher [bind|bind-late] PAGES NODE...\n");
		return 2;
	}
	for (int i = first + 1; i < argc; i++) {
		long n = atol(argv[i]);

		if (n < 0 || n >= MAXNODE)
			return 2;
		mask[n / 64] |= 1UL << (n % 64);
	}
	if (!late && syscall(SYS_set_mempolicy, mode, mask, MAXNODE + 1) < 0) {
		fprintf(stderr, "set_mempolicy(%d): %s\n", mode, strerror(errno));
		return 1;
	}
	p = mmap(NULL, (size_t)(pages * size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise(p, (size_t)(pages * size), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		p[i * size] = 1;
	if (late &&
	    syscall(SYS_mbind, p, (size_t)(pages * size), MPOL_BIND, mask, MAXNODE + 1, 0) < 0) {
		fprintf(stderr, "mbind(MPOL_BIND): %s\n", strerror(errno));
		return 1;
	}
	printf("%lx ready\n", (unsigned long)p);
	fflush(stdout);
	for (;;)
		pause();
}
