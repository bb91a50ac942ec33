// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysfs.h"

static int root_fd = -1;
static const char *root_name = "/";

int sysfs_init(const char *sysroot)
{
	int fd;

	if (!sysroot || strcmp(sysroot, "/") == 0)
		return 0;
	fd = open(sysroot, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	root_fd = fd;
	root_name = sysroot;
	return 0;
}

bool sysfs_is_live(void)
{
	return root_fd < 0;
}

const char *sysfs_root(void)
{
	return root_name;
}

int sysfs_open(const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned)(flags | O_CLOEXEC),
		/* Symlinks, ".." and absolute targets all stay inside the root. */
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (path[0] != '/')
		return -EINVAL;
	if (root_fd < 0)
		fd = open(path, flags | O_CLOEXEC, 0644);
	else {
		if (flags & O_CREAT)
			how.mode = 0644;
		fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
	}
	return fd < 0 ? -errno : (int)fd;
}

DIR *sysfs_opendir(const char *path)
{
	int fd = sysfs_open(path, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

/*
 * procfs, sysfs and regular files hand over everything that is there in one
 * read(2) when the buffer is larger, so a short read means end of file.  Only
 * a full buffer needs the extra read that proves the file is longer.
 */
static ssize_t read_all(int fd, char *buf, size_t size, bool positional)
{
	size_t len = 0;

	if (size < 2)
		return -EINVAL;
	for (;;) {
		ssize_t n = positional ? pread(fd, buf + len, size - 1 - len, (off_t)len)
				       : read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len += (size_t)n;
		if (n == 0 || len < size - 1)
			break;
		char extra;
		n = positional ? pread(fd, &extra, 1, (off_t)len) : read(fd, &extra, 1);
		if (n > 0)
			return -EFBIG;
		if (n < 0)
			return -errno;
		break;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t sysfs_read_file(const char *path, char *buf, size_t size)
{
	int fd = sysfs_open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read_all(fd, buf, size, false);
	close(fd);
	return n;
}

ssize_t sysfs_pread_fd(int fd, char *buf, size_t size)
{
	return read_all(fd, buf, size, true);
}

int sysfs_write_file(const char *path, const char *data, size_t len)
{
	/* O_TRUNC: a no-op on procfs, but keeps a fixture file exact. */
	int fd = sysfs_open(path, O_WRONLY | O_TRUNC);
	ssize_t n;
	int r = 0;

	if (fd < 0)
		return fd;
	do
		n = write(fd, data, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0 && errno != EINTR)
		r = -errno;
	return r;
}

const char *sysfs_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case EACCES:
	case EPERM:
		return "permission denied (needs root; kernel.* NUMA knobs need CAP_SYS_ADMIN)";
	case EROFS:
		return "read-only file system (/proc/sys or /sys is mounted read-only, as in a container)";
	case ENOENT:
		return "not present on this kernel";
	case EINVAL:
		return "the kernel refused the value";
	case EIO:
		return "the kernel accepted only part of the value";
	case EFBIG:
		return "file too large";
	case EXDEV:
		return "path leads outside the sysroot";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
