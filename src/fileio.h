/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files numastatctl itself owns (state, snapshots, .prom files): written
 * whole or not at all, through a temporary file, fsync and rename.
 */
#pragma once

#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
	FILE *f;
	char tmp[4096];
	char final[4096];
};

/* mkdir -p; existing directories are fine.  0 or -errno. */
int mkdir_p(const char *path, mode_t mode);
/* Open dir/.name.XXXXXX for writing.  0 or -errno. */
int atomic_file_begin(struct atomic_file *af, const char *dir, const char *name, mode_t mode);
/* Flush, fsync, rename over dir/name, fsync dir.  0 or -errno (temp file removed). */
int atomic_file_commit(struct atomic_file *af);
/* Drop the temporary file. */
void atomic_file_abort(struct atomic_file *af);
