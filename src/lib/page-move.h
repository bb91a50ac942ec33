/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The placement plan carried out: move_pages(2) with MPOL_MF_MOVE over the
 * pages of each planned mapping, in batches, moving only the pages found on
 * a planned source node and mapped by the process alone (the kernel refuses
 * the others with -EACCES; MPOL_MF_MOVE_ALL is never used).  The statuses
 * move_pages() writes per page are tallied.  Implemented by page-move.c.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "placement.h"

/* Pages per move_pages(2) call: the check for Ctrl-C comes between two. */
#define PAGE_MOVE_BATCH 1024

/* What became of one planned move's pages. */
struct page_move_stat {
	uint64_t moved;  /* now on the planned node */
	uint64_t shared; /* -EACCES: mapped by other processes too, left */
	uint64_t absent; /* -ENOENT, -EFAULT: no longer there (freed, or the mapping went) */
	uint64_t failed; /* -EBUSY, -ENOMEM, -EIO, or on another node than asked */
	bool walked;     /* every page of its mapping was looked at: not stopped within it */
};

/*
 * Carry out the moves mv[0..n) of one process (the same pid).  stat[i]
 * gets move i's tally.  Stops between batches when *stop is set.
 * Returns 0, -EINTR (stopped), -ESRCH (the process exited: stat holds what
 * was done), or -errno of the system call or of /proc/<pid>/maps, with why.
 */
int page_move_process(const struct pl_move *mv, size_t n, const volatile sig_atomic_t *stop,
		      struct page_move_stat *stat, char *why, size_t whylen);

/*
 * Tally move_pages(2)'s status for one page asked to go to node to.  For
 * the tests: the kernel's statuses as the report counts them.
 */
void page_move_tally(int status, unsigned to, struct page_move_stat *s);
