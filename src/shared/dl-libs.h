/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libraries numastatctl loads with dlopen(), in one place: what
 * dl_load() says when one is missing, and the .note.dlopen metadata
 * (dl-note.c) that packagers' tools read because dlopen()ed libraries are not
 * in the ELF NEEDED list.  The strings go into a JSON note verbatim: no
 * quotes, backslashes or control characters in them.
 *
 * X(id, soname, Debian package, note priority, what needs it, what works without it)
 */
#pragma once

#define DL_LIBRARIES(X)                                                                        \
	X(smartcols, "libsmartcols.so.1", "libsmartcols1", "required",                         \
	  "tables, JSON output and counter snapshots",                                         \
	  "get, set and apply without a snapshot, stat --compat and stat --prometheus")        \
	X(numa, "libnuma.so.1", "libnuma1", "recommended",                                     \
	  "selftest and bench placing memory and threads on nodes",                            \
	  "every command but selftest and bench")                                              \
	X(mnl, "libmnl.so.0", "libmnl0", "recommended", "stat INTERVAL noticing node hotplug", \
	  "stat INTERVAL samples on without hotplug notices")

#define DL_LIB_ENUM(id, soname, package, priority, needs, without) DL_LIB_##id,
enum dl_lib { DL_LIBRARIES(DL_LIB_ENUM) DL_LIB_COUNT };
#undef DL_LIB_ENUM
