/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading a shared library on first use.  libsmartcols, libnuma and libmnl
 * cost more start-up work than a whole `get` (libnuma's constructor alone
 * reads /proc/self/status and every node's meminfo), so each is loaded only
 * by the command path that needs it.
 */
#pragma once

struct dl_sym {
	const char *name;
	void **ptr;
};

#define DL_SYM(f) { #f, (void **)&sym_##f }

/*
 * dlopen(soname) once and resolve every symbol of the NULL-terminated list.
 * Returns 0, or -ENOENT with a one-line reason in why ("libsmartcols.so.1:
 * cannot open shared object file ...").
 */
int dl_load(const char *soname, void **handle, const struct dl_sym *syms,
	    char *why, unsigned long whylen);
