// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * page-move.c against the running kernel, on this test's own pages: the
 * plan's mapping found in /proc/self/maps, only the pages on the planned
 * source node moved (here to the node they are on, which move_pages(2)
 * reports as done), a mapping that went, a process that exited, a stop
 * between batches (and which moves it cut short), and a move the kernel ends with EINTR after it moved
 * pages (syscall() is wrapped at link time).  It needs no privilege and
 * one NUMA node.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "page-move.h"
#include "tap.h"

long __real_syscall(long n, ...);
long __wrap_syscall(long n, ...);

/* When set, a move_pages(2) that moves says EINTR after it has moved. */
static bool interrupt_moves;
/* When set, a look at a page in [stop_from, stop_to) asks for a stop (as Ctrl-C would). */
static volatile sig_atomic_t *stop_flag;
static uintptr_t stop_from, stop_to;

long __wrap_syscall(long n, ...)
{
	long a[6];
	va_list ap;
	long r;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	r = __real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (n == SYS_move_pages && stop_flag && (uintptr_t)((void **)a[2])[0] >= stop_from &&
	    (uintptr_t)((void **)a[2])[0] < stop_to)
		*stop_flag = 1;
	if (n == SYS_move_pages && a[3] && interrupt_moves && r >= 0) {
		errno = EINTR;
		return -1;
	}
	return r;
}

/* The node of the page at p, -1 when move_pages cannot say. */
static int node_of(void *p)
{
	int status = -1;

	if (syscall(SYS_move_pages, 0, 1UL, &p, NULL, &status, 0) < 0)
		return -1;
	return status;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 3 * PAGE_MOVE_BATCH / 2, touched = PAGE_MOVE_BATCH + 10;
	char *p = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct page_move_stat st[2];
	char why[256];
	volatile sig_atomic_t stop = 0;
	uintptr_t window;
	size_t first;
	int node, r;
	pid_t child;

	if (p == MAP_FAILED)
		return 1;
	/* A transparent huge page would bring untouched neighbours in. */
	madvise(p, pages * (size_t)page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < touched; i++)
		p[i * (size_t)page] = 1;
	node = node_of(p);
	if (node < 0) {
		printf("1..0 # SKIP move_pages(2) does not work here (no NUMA)\n");
		return 0;
	}
	struct pl_move mv[2] = {
		{ .pid = (unsigned)getpid(),
		  .addr = (uint64_t)(uintptr_t)p,
		  .page = (uint64_t)page,
		  .pages = touched,
		  .from = (unsigned)node,
		  .to = (unsigned)node,
		  .cls = PL_C_REMOTE_ANON },
		{ .pid = (unsigned)getpid(),
		  .addr = 0x1000,
		  .page = (uint64_t)page,
		  .pages = 7,
		  .from = (unsigned)node,
		  .to = (unsigned)node,
		  .cls = PL_C_REMOTE_ANON },
	};

	r = page_move_process(mv, 2, &stop, st, why, sizeof(why));
	CHECK(r == 0, "the plan carried out over two batches (%d %s)", r, why);
	CHECK(st[0].moved == touched && !st[0].failed && !st[0].shared,
	      "every touched page of the mapping, and only those: %llu of %zu",
	      (unsigned long long)st[0].moved, touched);
	CHECK(st[1].absent == 7 && !st[1].moved,
	      "a mapping no longer in /proc/PID/maps: its pages are gone, not an error");
	CHECK(st[0].walked && st[1].walked, "both moves walked to their end");

	stop = 1;
	r = page_move_process(mv, 1, &stop, st, why, sizeof(why));
	CHECK(r == -EINTR && !st[0].moved, "a stop asked before a batch: nothing more is done");

	/* The first batch ends where the mapping's first 4 MiB window of address does. */
	window = PAGE_MOVE_BATCH * (uintptr_t)page;
	first = (window - (uintptr_t)p % window) / (uintptr_t)page;
	first = first < touched ? first : touched;
	stop = 0;
	interrupt_moves = true;
	r = page_move_process(mv, 1, &stop, st, why, sizeof(why));
	CHECK(r == -EINTR && st[0].moved == first,
	      "a move the kernel ends with EINTR: what it moved is counted (%llu of the first "
	      "batch's %zu), and it stops",
	      (unsigned long long)st[0].moved, first);
	interrupt_moves = false;

	/*
	 * Two mappings, a stop asked while the second is moved: the first was
	 * walked whole, the second not (the report's "stopped before the
	 * rest" is for that one alone).
	 */
	char *q = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return 1;
	madvise(q, pages * (size_t)page, MADV_NOHUGEPAGE);
	/* Other flags than p's: the kernel would merge two neighbours into one mapping. */
	madvise(q, pages * (size_t)page, MADV_DONTFORK);
	for (size_t i = 0; i < pages; i++)
		q[i * (size_t)page] = 1;
	mv[1] = mv[0];
	mv[1].addr = (uint64_t)(uintptr_t)q;
	mv[1].pages = pages;
	stop = 0;
	stop_flag = &stop;
	stop_from = (uintptr_t)q;
	stop_to = stop_from + pages * (size_t)page;
	r = page_move_process(mv, 2, &stop, st, why, sizeof(why));
	stop_flag = NULL;
	CHECK(r == -EINTR && st[0].walked && st[0].moved == touched,
	      "stopped in the second mapping: the first was walked whole (%llu pages)",
	      (unsigned long long)st[0].moved);
	CHECK(!st[1].walked && st[1].moved > 0 && st[1].moved < pages,
	      "and the second was not: %llu of its %zu pages", (unsigned long long)st[1].moved,
	      pages);
	munmap(q, pages * (size_t)page);

	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	mv[0].pid = (unsigned)child;
	stop = 0;
	r = page_move_process(mv, 1, &stop, st, why, sizeof(why));
	CHECK(r == -ESRCH, "a process that exited: -ESRCH, for the report (%d)", r);
	munmap(p, pages * (size_t)page);
	return tap_done();
}
