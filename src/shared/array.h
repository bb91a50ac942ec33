/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arrays that grow as items are appended: one growth rule (16 items, then
 * doubling) and one overflow check for every list in the tool.
 * Implemented by array.c.
 */
#pragma once

#include <stddef.h>

/*
 * Make room for need items of size bytes in the array whose pointer is at
 * items (so `&l->v`, whatever its type) and whose capacity is *cap.  Returns
 * 0 (also when there is room already), or -ENOMEM with the array and *cap
 * as they were: the caller's items are never lost.
 */
int array_grow(void *items, size_t *cap, size_t need, size_t size);
