// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

#define ARRAY_FIRST 16

int array_grow(void *items, size_t *cap, size_t need, size_t size)
{
	size_t max = size ? SIZE_MAX / size : 0, ncap = *cap ? *cap : ARRAY_FIRST;
	void *old, *v;

	if (need <= *cap)
		return 0;
	if (need > max)
		return -ENOMEM;
	while (ncap < need)
		ncap = ncap <= max / 2 ? ncap * 2 : max;
	if (ncap > max)
		ncap = max;
	/* The pointer is copied, not cast: items may point to any type of pointer. */
	memcpy(&old, items, sizeof(old));
	v = reallocarray(old, ncap, size);
	if (!v)
		return -ENOMEM;
	memcpy(items, &v, sizeof(v));
	*cap = ncap;
	return 0;
}
