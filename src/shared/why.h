/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reason a function gives its caller in words (`char *why, size_t
 * whylen`), for the caller's message.  Every buffer that holds one has this
 * size, so a reason passed on from one buffer to another is never cut.
 */
#pragma once

#include <limits.h>

/* A path (PATH_MAX with its NUL) and the words around it. */
#define WHY_MAX (PATH_MAX + 256)
