/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An index of strings the caller keeps in an array of its own and appends
 * to: finding one takes constant time, so a list that holds each string
 * once stays linear however long it grows (a pattern over 10,000 cgroups
 * compared each with every one before it).  Implemented by str-index.c.
 */
#pragma once

#include <stddef.h>
#include <sys/types.h>

struct str_index {
	size_t *slot; /* 1 + a place in the caller's array; 0 is empty */
	size_t n_slots, n;
};

/*
 * Index strs[x->n] to strs[n - 1], the strings appended since the last
 * call (the table stays at most half full).  0 or -ENOMEM (the index as it
 * was).
 */
int str_index_update(struct str_index *x, char *const *strs, size_t n);
/* The place of s in strs among the ones indexed, or -1. */
ssize_t str_index_find(const struct str_index *x, char *const *strs, const char *s);
void str_index_free(struct str_index *x);
