/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only place that touches /proc and /sys.  Every path handed in is the
 * logical, absolute path ("/proc/sys/vm/numa_stat"); under --sysroot it is
 * resolved inside the root with openat2(RESOLVE_IN_ROOT), so no symlink in a
 * dump can lead a read or a write outside it.  Messages use logical paths.
 * Helpers return 0 (or a count / fd) on success and -errno on failure.
 * Implemented by sysfs.c.
 */
#pragma once

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Largest file sysfs_read_file() accepts; sysfs and /proc/sys values are one page. */
#define SYSFS_MAX_FILE 65536

/* NULL or "/" = the live system.  Returns -errno (e.g. -ENOTDIR) on a bad root. */
int sysfs_init(const char *sysroot);
bool sysfs_is_live(void);
/* The root for messages: "/" or the --sysroot argument. */
const char *sysfs_root(void);

/* open(2) relative to the root; returns an fd or -errno. */
int sysfs_open(const char *path, int flags);
/* opendir(3) relative to the root; NULL with errno set on failure. */
DIR *sysfs_opendir(const char *path);

/*
 * Is path (a file or directory) owned by root?  Under --sysroot the owner
 * of the tree's root stands for root: a dump copied by a user reads the
 * same as on its machine.  1 or 0, or -errno.
 */
int sysfs_root_owned(const char *path);

/*
 * Read a whole small file into buf (NUL-terminated, at most size-1 bytes).
 * Returns the length, -EFBIG when the file does not fit, or -errno.
 */
ssize_t sysfs_read_file(const char *path, char *buf, size_t size);
/*
 * A whole regular file of at most max bytes into *buf (malloc'ed,
 * NUL-terminated; NULL on failure): what other programs leave under /var,
 * opened as every file here is (never a FIFO or a device), its size
 * checked before a byte is read (so not for /proc and /sys, whose files
 * say they are empty).  Returns the length, -EFBIG past max,
 * -ENXIO for what is not a regular file, -ENOMEM or -errno.
 */
ssize_t sysfs_read_alloc(const char *path, size_t max, char **buf);
/*
 * The target of the symlink at path (its last component not followed; the
 * directories on the way resolved inside the root), NUL-terminated: what a
 * sysfs link such as memory/memoryN/firmware_node or a dax device's driver
 * names.  The length, -EFBIG when it does not fit, or -errno (-ENOENT
 * also when path is not a link).
 */
ssize_t sysfs_readlink(const char *path, char *buf, size_t size);
/* Read from an open fd at offset 0 (interval sampling keeps fds open). */
ssize_t sysfs_pread_fd(int fd, char *buf, size_t size);

/*
 * One write(2) of len bytes at offset 0 on a fresh fd.  A short write is
 * -EMSGSIZE: the kernel consumed only part of the value.
 */
int sysfs_write_file(const char *path, const char *data, size_t len);

/*
 * One write(2) appended to path, never truncating it (a trace event's
 * trigger file: `>>`).  -EMSGSIZE on a short write, or -errno.
 */
int sysfs_append_file(const char *path, const char *data, size_t len);
/*
 * mkdir(2) and rmdir(2) of path's last component, its directory resolved
 * as sysfs_open() resolves (a trace instance in tracefs).  0 or -errno.
 */
int sysfs_mkdir(const char *path);
int sysfs_rmdir(const char *path);

/*
 * The path of the running numastatctl, from the live /proc/self/exe
 * whatever the sysroot (it is our own binary, not the system's), without
 * the " (deleted)" an upgrade leaves on it: what a trial's armed revert
 * runs.  0, or -errno.
 */
int sysfs_self_exe(char *buf, size_t size);

/* Words for an errno from a knob read or write, for messages. */
const char *sysfs_strerror(int err);
