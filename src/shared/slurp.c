// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "slurp.h"

ssize_t slurp_stream(FILE *f, size_t max, char **buf)
{
	size_t len = 0, cap = 0;

	*buf = NULL;
	for (;;) {
		size_t n;

		if (len + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 4096;
			char *nb;

			if (ncap > max + 2)
				ncap = max + 2; /* max + 1 bytes prove the limit, + 1 for the NUL */
			if (ncap <= cap)
				return -EFBIG;
			nb = realloc(*buf, ncap);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			cap = ncap;
		}
		errno = 0;
		n = fread(*buf + len, 1, cap - 1 - len, f);
		len += n;
		(*buf)[len] = '\0';
		if (len > max)
			return -EFBIG;
		if (ferror(f))
			return errno ? -errno : -EIO;
		if (feof(f))
			return (ssize_t)len;
	}
}
