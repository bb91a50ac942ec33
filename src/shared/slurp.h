/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A whole input read into memory, with a limit: files from users are never read
 * without one. Implemented by slurp.c.
 */
#pragma once

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Read f to its end into *buf (malloc'ed, NUL-terminated; the caller frees
 * it, also after an error).  Returns the length; -EFBIG past max bytes
 * (found after reading max + 1, so /dev/zero fails at once); -ENOMEM; or
 * the -errno of a failed read (-EISDIR for a directory): never a short
 * read taken for the end of the file.
 */
ssize_t slurp_stream(FILE *f, size_t max, char **buf);
