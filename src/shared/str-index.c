// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "str-index.h"

/* FNV-1a, 32 bits: short strings, spread well enough for linear probing. */
static size_t hash(const char *s)
{
	uint32_t h = 0x811c9dc5u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x01000193u;
	return h;
}

/* Where s is, or the empty slot it would take (n_slots is a power of 2). */
static size_t slot_of(const struct str_index *x, char *const *strs, const char *s)
{
	size_t mask = x->n_slots - 1, k = hash(s) & mask;

	while (x->slot[k] && strcmp(strs[x->slot[k] - 1], s) != 0)
		k = (k + 1) & mask;
	return k;
}

static int grow(struct str_index *x, size_t n)
{
	size_t want = x->n_slots ? x->n_slots : 64, *slot;

	while (want / 2 < n)
		want *= 2;
	if (want == x->n_slots)
		return 0;
	if (!(slot = calloc(want, sizeof(*slot))))
		return -ENOMEM;
	free(x->slot);
	x->slot = slot;
	x->n_slots = want;
	x->n = 0; /* every string again, in the new table */
	return 0;
}

int str_index_update(struct str_index *x, char *const *strs, size_t n)
{
	if (grow(x, n) < 0)
		return -ENOMEM;
	for (; x->n < n; x->n++) {
		size_t k = slot_of(x, strs, strs[x->n]);

		/* A string appended twice: the first place stays the one found. */
		if (!x->slot[k])
			x->slot[k] = x->n + 1;
	}
	return 0;
}

ssize_t str_index_find(const struct str_index *x, char *const *strs, const char *s)
{
	size_t k;

	if (!x->n_slots)
		return -1;
	k = slot_of(x, strs, s);
	return x->slot[k] ? (ssize_t)(x->slot[k] - 1) : -1;
}

void str_index_free(struct str_index *x)
{
	free(x->slot);
	*x = (struct str_index){ 0 };
}
