// SPDX-License-Identifier: GPL-2.0-or-later
/* The placement plan carried out with move_pages(2) (page-move.h). */
#include <errno.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "page-move.h"
#include "procmaps.h"

/* One mapping of /proc/<pid>/maps: [start, end). */
struct vma {
	uint64_t start, end;
};

struct vmas {
	struct vma *v;
	size_t n, cap;
};

static int hex(const char **p, const char *end, uint64_t *out)
{
	const char *q = *p;

	*out = 0;
	for (; q < end && q - *p < 16; q++) {
		unsigned d = *q >= '0' && *q <= '9'   ? (unsigned)(*q - '0')
			     : *q >= 'a' && *q <= 'f' ? (unsigned)(*q - 'a' + 10)
						      : 16;

		if (d == 16)
			break;
		*out = *out << 4 | d;
	}
	if (q == *p)
		return -EBADMSG;
	*p = q;
	return 0;
}

/* "start-end perms ..." into the list (maps lists them in address order). */
static int add_vma(void *ctx, const char *line, size_t len, char *why, size_t whylen)
{
	struct vmas *l = ctx;
	const char *p = line, *end = line + len;
	struct vma m;

	if (hex(&p, end, &m.start) < 0 || p == end || *p++ != '-' || hex(&p, end, &m.end) < 0) {
		snprintf(why, whylen, "maps: a line that is no address range");
		return -EBADMSG;
	}
	if (array_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -ENOMEM;
	l->v[l->n++] = m;
	return 0;
}

static const struct vma *find_vma(const struct vmas *l, uint64_t start)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (l->v[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->v[lo].start == start ? &l->v[lo] : NULL;
}

void page_move_tally(int status, unsigned to, struct page_move_stat *s)
{
	if (status >= 0)
		*(status == (int)to ? &s->moved : &s->failed) += 1;
	else if (status == -EACCES)
		s->shared++;
	else if (status == -ENOENT || status == -EFAULT)
		s->absent++;
	else
		s->failed++;
}

static long move_pages(unsigned pid, unsigned long count, void **pages, const int *nodes,
		       int *status, int flags)
{
	return syscall(SYS_move_pages, (int)pid, count, pages, nodes, status, flags);
}

/* The moves mv[0..n) of one mapping: which one a page on node from belongs to, or -1. */
static int move_of(const struct pl_move *mv, size_t n, int node)
{
	for (size_t i = 0; i < n; i++)
		if ((int)mv[i].from == node)
			return (int)i;
	return -1;
}

/* Scratch for one batch. */
struct batch {
	void *addr[PAGE_MOVE_BATCH], *sel[PAGE_MOVE_BATCH];
	int status[PAGE_MOVE_BATCH], nodes[PAGE_MOVE_BATCH], which[PAGE_MOVE_BATCH];
	int moved[PAGE_MOVE_BATCH];
};

/*
 * One batch of a mapping: where each page is (nodes NULL moves nothing),
 * the pages on a source node moved to their move's destination, then where
 * they are now.  The report is what the second look finds: move_pages(2)
 * leaves the statuses of a batch unwritten when it stops early, and the
 * tail pages of a transparent huge page move with its head, so its own
 * statuses may not say what happened to each.
 */
static int one_batch(unsigned pid, uint64_t at, uint64_t page, size_t k, const struct pl_move *mv,
		     size_t nm, struct page_move_stat *stat, struct batch *b)
{
	size_t s = 0;
	int err = 0;

	/* Addresses in the target process, never dereferenced here. */
	for (size_t i = 0; i < k; i++)
		/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
		b->addr[i] = (void *)(uintptr_t)(at + i * page);
	if (move_pages(pid, k, b->addr, NULL, b->status, 0) < 0)
		return -errno;
	for (size_t i = 0; i < k; i++) {
		int m = b->status[i] >= 0 ? move_of(mv, nm, b->status[i]) : -1;

		if (m < 0)
			continue;
		b->sel[s] = b->addr[i];
		b->nodes[s] = (int)mv[m].to;
		b->moved[s] = INT_MIN; /* unwritten: the kernel stopped before it */
		b->which[s++] = m;
	}
	if (!s)
		return 0;
	/*
	 * A move that fails (EINTR when a signal comes during it) may have
	 * moved pages before it did: the second look counts them all the same.
	 */
	if (move_pages(pid, s, b->sel, b->nodes, b->moved, MPOL_MF_MOVE) < 0 && errno != ENOMEM &&
	    errno != EBUSY)
		err = -errno;
	if (move_pages(pid, s, b->sel, NULL, b->status, 0) < 0)
		return err ? err : -errno;
	for (size_t i = 0; i < s; i++)
		page_move_tally(b->status[i] == (int)mv[b->which[i]].to || b->moved[i] != -EACCES
					? b->status[i]
					: -EACCES,
				mv[b->which[i]].to, &stat[b->which[i]]);
	return err;
}

/*
 * The moves of one mapping (the same addr), over its pages, in batches that
 * end on multiples of PAGE_MOVE_BATCH pages of address: a transparent huge
 * page (2 MiB, aligned) then lies in one batch, and its tail pages are
 * never found already moved by the batch before.
 */
static int one_mapping(const struct vma *vma, const struct pl_move *mv, size_t nm,
		       const volatile sig_atomic_t *stop, struct page_move_stat *stat,
		       struct batch *b)
{
	uint64_t page = mv[0].page, window = PAGE_MOVE_BATCH * page;

	for (uint64_t at = vma->start; at + page <= vma->end;) {
		uint64_t next = (at / window + 1) * window;
		size_t k = (size_t)(((next < vma->end ? next : vma->end) - at) / page);
		int r;

		if (stop && *stop)
			return -EINTR;
		if (!k)
			break;
		r = one_batch(mv[0].pid, at, page, k, mv, nm, stat, b);
		if (r < 0)
			return r;
		at += k * page;
	}
	return 0;
}

int page_move_process(const struct pl_move *mv, size_t n, const volatile sig_atomic_t *stop,
		      struct page_move_stat *stat, char *why, size_t whylen)
{
	struct vmas l = { 0 };
	struct batch *b = malloc(sizeof(*b));
	int r;

	memset(stat, 0, n * sizeof(*stat));
	why[0] = '\0';
	if (!b)
		return -ENOMEM;
	r = n ? procmaps_read_file_lines(mv[0].pid, "maps", add_vma, &l, why, whylen) : 0;
	if (r == -ENOENT)
		r = -ESRCH;
	for (size_t i = 0; r == 0 && i < n;) {
		size_t k = 1;
		const struct vma *vma = find_vma(&l, mv[i].addr);

		while (i + k < n && mv[i + k].addr == mv[i].addr)
			k++;
		if (!vma) {
			/* The mapping went since numa_maps was read: its pages with it. */
			for (size_t j = i; j < i + k; j++)
				stat[j].absent = mv[j].pages;
		} else
			r = one_mapping(vma, &mv[i], k, stop, &stat[i], b);
		for (size_t j = i; r == 0 && j < i + k; j++)
			stat[j].walked = true;
		i += k;
	}
	if (r < 0 && r != -EINTR && r != -ESRCH && !why[0])
		snprintf(why, whylen, "move_pages: %s", strerror(-r));
	free(b);
	free(l.v);
	return r;
}
