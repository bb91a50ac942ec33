/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files numastatctl itself owns (state, snapshots, .prom files): written
 * whole or not at all, through a temporary file in the same directory,
 * fsync, and a rename (replace) or a link (never replace).
 * Implemented by atomic-file.c.
 */
#pragma once

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
	FILE *f;
	int dirfd;
	int own_dirfd;          /* dirfd was opened by atomic_file_begin() */
	char tmp[NAME_MAX + 1]; /* ".name.XXXXXX" in dirfd */
	char name[NAME_MAX + 1];
};

/* Open dir (following symlinks: --textfile) and a temporary file in it.  0 or -errno. */
int atomic_file_begin(struct atomic_file *af, const char *dir, const char *name, mode_t mode);
/* The same in the directory dirfd (kept open by the caller); never follows a symlink. */
int atomic_file_beginat(struct atomic_file *af, int dirfd, const char *name, mode_t mode);
/* Flush, fsync, rename over name, fsync the directory.  0 or -errno (temp file removed). */
int atomic_file_commit(struct atomic_file *af);
/* Flush, fsync and close the temporary file, which stays until link or abort. */
int atomic_file_close(struct atomic_file *af);
/*
 * After atomic_file_close(): give the file the name name, never replacing
 * one (-EEXIST: pick another name and call again), then drop the temporary
 * name and fsync the directory.  0 or -errno.
 */
int atomic_file_link(struct atomic_file *af, const char *name);
/* Drop the temporary file. */
void atomic_file_abort(struct atomic_file *af);
