// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read-cost FILE [COUNT]: the mean wall time of one whole read of FILE on a
 * kept fd (pread(2) from offset 0 into a 64 KiB buffer, more preads only
 * while the buffer fills), in nanoseconds, over COUNT reads (default 20000).
 * Reading nodeN/numastat makes the kernel fold every online CPU's NUMA
 * counters of every populated zone first; comparing it with a file that
 * folds nothing (nodeN/cpulist) gives the fold's share.  A benchmark tool,
 * not part of numastatctl: it reads the live files directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

/* One whole read, as numastatctl's interval sampling does it. */
static int read_whole(int fd)
{
	off_t off = 0;
	ssize_t n;

	do {
		n = pread(fd, buf, sizeof(buf), off);
		if (n < 0)
			return -1;
		off += n;
	} while ((size_t)n == sizeof(buf));
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char *argv[])
{
	long count = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
	double t0;
	int fd;

	if (argc < 2 || count < 1) {
		fprintf(stderr, "usage: read-cost FILE [COUNT]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "read-cost: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* One read first: the page and the dentry are warm for every timed read. */
	if (read_whole(fd) < 0) {
		fprintf(stderr, "read-cost: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t0 = now_ns();
	for (long i = 0; i < count; i++)
		if (read_whole(fd) < 0)
			return 1;
	printf("%.0f\n", (now_ns() - t0) / (double)count);
	close(fd);
	return 0;
}
