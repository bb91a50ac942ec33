// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wi-toucher PAGES NODE...: the weighted interleave guest's workload.  Sets
 * its own policy to MPOL_WEIGHTED_INTERLEAVE (mode 6, Linux 6.9+) over the
 * nodes named, faults in PAGES base pages of one anonymous mapping (no
 * transparent huge pages: one folio would be one interleave slot), prints
 * the mapping's address and "ready", and sleeps until killed, so that
 * /proc/PID/numa_maps shows where the kernel put each page.  The syscall
 * is made directly: Debian 12's numactl predates --weighted-interleave.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_WEIGHTED_INTERLEAVE 6

int main(int argc, char **argv)
{
	unsigned long mask[16] = { 0 };
	long pages = argc > 2 ? atol(argv[1]) : 0, size = sysconf(_SC_PAGESIZE);
	char *p;

	if (pages <= 0) {
		fprintf(stderr, "usage: wi-toucher PAGES NODE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		long n = atol(argv[i]);

		if (n < 0 || n >= 16 * 64)
			return 2;
		mask[n / 64] |= 1UL << (n % 64);
	}
	if (syscall(SYS_set_mempolicy, MPOL_WEIGHTED_INTERLEAVE, mask, 16 * 64 + 1) < 0) {
		fprintf(stderr, "set_mempolicy(MPOL_WEIGHTED_INTERLEAVE): %s\n", strerror(errno));
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
	printf("%lx ready\n", (unsigned long)p);
	fflush(stdout);
	for (;;)
		pause();
}
