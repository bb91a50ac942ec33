// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm-why: the reasons guest's workloads (init-reasons), one cause of
 * migration each.  Every mapping is anonymous and MADV_NOHUGEPAGE, so
 * that a page count is the same in numa_maps, the tracepoint and vmstat.
 *
 *   hold MB NODE          MB faulted on NODE (MPOL_BIND), then the default
 *                         policy again; "ready", then sleeps (migratepages
 *                         or reclaim moves it)
 *   mbind MB NODE         MB faulted under the default policy, then
 *                         mbind(MPOL_BIND, NODE, MPOL_MF_MOVE); "moved",
 *                         then sleeps
 *   fragment MB           MB faulted, then every other page given back
 *                         (MADV_DONTNEED): work for compaction; "ready"
 *   touch MB NODE SECONDS MB faulted on NODE, then the default policy,
 *                         reading every page for SECONDS (NUMA balancing
 *                         finds it remote); "done", then sleeps
 *   remote MB NODE SECONDS
 *                         MB bound to NODE with MPOL_F_NUMA_BALANCING, read
 *                         for SECONDS: the scanner keeps marking the pages
 *                         (remote ones of a single thread are never left
 *                         out) and none moves (NODE is the only one the
 *                         policy allows); "done", then sleeps
 * No libnuma: the system calls themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MPOL_BIND_ 2
#define MPOL_MF_MOVE_ (1 << 1)
#define MPOL_F_NUMA_BALANCING_ (1 << 13)

static long page;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static char *anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, len, MADV_NOHUGEPAGE) < 0)
		die("madvise");
	return p;
}

static void touch(volatile char *p, size_t len)
{
	for (size_t i = 0; i < len; i += (size_t)page)
		p[i] = 1;
}

static void policy_flags(int node, int flags)
{
	unsigned long mask = 1UL << (node < 0 ? 0 : node);

	if (syscall(SYS_set_mempolicy, node < 0 ? 0 : MPOL_BIND_ | flags, node < 0 ? NULL : &mask,
		    64UL) < 0)
		die("set_mempolicy");
}

static void policy(int node)
{
	policy_flags(node, 0);
}

static void say_and_sleep(const char *word)
{
	printf("%s\n", word);
	fflush(stdout);
	for (;;)
		pause();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every page read for SECONDS, then "done" and sleep. */
static void read_for(const char *p, size_t len, double seconds)
{
	const volatile char *v = p;
	size_t sum = 0;

	for (double end = now() + seconds; now() < end;)
		for (size_t i = 0; i < len; i += (size_t)page)
			sum += (size_t)v[i];
	say_and_sleep(sum ? "done" : "done.");
}

int main(int argc, char *argv[])
{
	size_t mb = argc > 2 ? (size_t)atol(argv[2]) << 20 : 0;
	char *p;

	page = sysconf(_SC_PAGESIZE);
	if (argc == 4 && strcmp(argv[1], "hold") == 0) {
		p = anon(mb);
		policy(atoi(argv[3]));
		touch(p, mb);
		policy(-1);
		say_and_sleep("ready");
	}
	if (argc == 4 && strcmp(argv[1], "mbind") == 0) {
		unsigned long mask = 1UL << atoi(argv[3]);

		touch(p = anon(mb), mb);
		if (syscall(SYS_mbind, p, mb, MPOL_BIND_, &mask, 64UL, MPOL_MF_MOVE_) < 0)
			die("mbind");
		say_and_sleep("moved");
	}
	if (argc == 3 && strcmp(argv[1], "fragment") == 0) {
		touch(p = anon(mb), mb);
		for (size_t i = 0; i < mb; i += 2 * (size_t)page)
			if (madvise(p + i, (size_t)page, MADV_DONTNEED) < 0)
				die("madvise");
		say_and_sleep("ready");
	}
	if (argc == 5 && strcmp(argv[1], "touch") == 0) {
		p = anon(mb);
		policy(atoi(argv[3]));
		touch(p, mb);
		policy(-1);
		read_for(p, mb, atof(argv[4]));
	}
	if (argc == 5 && strcmp(argv[1], "remote") == 0) {
		policy_flags(atoi(argv[3]), MPOL_F_NUMA_BALANCING_);
		touch(p = anon(mb), mb);
		read_for(p, mb, atof(argv[4]));
	}
	fprintf(stderr, "usage: vm-why hold|mbind|fragment|touch|remote ...\n");
	return 2;
}
