/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state directories are trusted like the configuration: root writes the
 * knobs a revert file names and shows the counters a snapshot holds.  So a
 * state directory must be owned by root (or by the user running us) and not
 * writable by group or others; every directory on the way to it must be
 * owned by root (or us) and not writable by group or others unless it is a
 * root-owned sticky directory such as /tmp (what systemd calls an unsafe
 * transition); a symlink on the way counts only when root (or we) own it;
 * and nothing inside is reached through a symlink (O_NOFOLLOW, relative to
 * the directory's fd).  Refusals carry the path and the fix in why.
 * Implemented by statedir.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * Open the directory path (absolute, or relative to the working directory),
 * creating missing components (0755) when create.  Returns an O_DIRECTORY
 * fd, -ENOENT when it is absent and !create, or -errno with why.
 */
int statedir_open(const char *path, bool create, char *why, size_t whylen);

/* The subdirectory name of the trusted directory dirfd (dirpath for messages). */
int statedir_open_sub(int dirfd, const char *dirpath, const char *name, bool create, char *why,
		      size_t whylen);

/*
 * Open the file name inside the trusted directory dirfd for reading: not a
 * symlink, a regular file, owned by root (or us), not writable by group or
 * others.  Returns the fd, -ENOENT when absent, or -errno with why.
 */
int statedir_open_file(int dirfd, const char *dirpath, const char *name, char *why, size_t whylen);

/* Check an open file or directory as statedir_open_file() does.  0 or -EPERM with why. */
int statedir_check_fd(int fd, const char *path, bool dir, char *why, size_t whylen);
