/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading a shared library on first use.  libsmartcols, libnuma and libmnl
 * cost more start-up work than a whole `get` (libnuma's constructor alone
 * reads /proc/self/status and every node's meminfo), so each is loaded only
 * by the command path that needs it.  dl-libs.h lists them.
 * Implemented by dl.c.
 */
#pragma once

#include "dl-libs.h"

struct dl_sym {
	const char *name;
	void **ptr;
};

/* clang-format off */
#define DL_SYM(f) { #f, (void **)&sym_##f }
/* clang-format on */

/*
 * dlopen() lib once and resolve every symbol of the NULL-terminated list.
 * Returns 0, or -ENOENT with a one-line reason in why: for a library that
 * is not installed, the Debian package to install and what works without it.
 */
int dl_load(enum dl_lib lib, void **handle, const struct dl_sym *syms, char *why,
	    unsigned long whylen);

/* The one-line reason for a library that dlopen() did not find (dl_load uses it). */
void dl_missing(enum dl_lib lib, const char *dlerror_text, char *why, unsigned long whylen);
