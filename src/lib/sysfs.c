// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * openat2(RESOLVE_IN_ROOT) in user space, for kernels before 5.6, valgrind
 * and seccomp profiles that lack it: walk the path a component at a time
 * and never let the kernel follow a symlink.  A link's target is walked
 * from the root (absolute) or from the link's directory (relative), and
 * ".." stops at the root, so the answers are RESOLVE_IN_ROOT's.
 */
#define WALK_MAX_LINKS 40

struct walk {
	int dir;        /* where the walk stands: root_fd or an O_PATH fd */
	unsigned depth; /* directories below the root */
	unsigned links; /* symlinks followed so far */
};

static void walk_move(struct walk *w, int fd, unsigned depth)
{
	if (w->dir != root_fd)
		close(w->dir);
	w->dir = fd;
	w->depth = depth;
}

static int walk(struct walk *w, const char *path, int flags, bool final);

/* name in w->dir is a symlink: walk its target from there instead. */
static int walk_link(struct walk *w, const char *name, int flags, bool final)
{
	char target[4096];
	ssize_t n = readlinkat(w->dir, name, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	if (++w->links > WALK_MAX_LINKS)
		return -ELOOP;
	target[n] = '\0';
	return walk(w, target, flags, final);
}

/* One component: step into it, or (last) open it with flags. */
static int walk_step(struct walk *w, const char *comp, int flags, bool last)
{
	struct stat st;
	int fd;

	if (strcmp(comp, "..") == 0 && w->depth == 0)
		comp = "."; /* the root is its own parent */
	if (strcmp(comp, "..") == 0) {
		fd = openat(w->dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		walk_move(w, fd, w->depth - 1);
	}
	if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
		return last ? walk_step(w, "", flags, true) : 0;
	if (!*comp && !last)
		return 0; /* a trailing '/' */
	fd = openat(w->dir, *comp ? comp : ".", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && last && (flags & O_CREAT)) {
		fd = openat(w->dir, comp, flags | O_NOFOLLOW | O_CLOEXEC, 0644);
		return fd < 0 ? -errno : fd;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return -e;
	}
	if (S_ISLNK(st.st_mode) && last && (flags & O_NOFOLLOW)) {
		/* As openat2: O_PATH gets the link itself, anything else ELOOP. */
		if (flags & O_PATH)
			return fd;
		close(fd);
		return -ELOOP;
	}
	if (S_ISLNK(st.st_mode)) {
		close(fd);
		return walk_link(w, comp, flags, last);
	}
	if (last) {
		close(fd);
		fd = openat(w->dir, *comp ? comp : ".", flags | O_NOFOLLOW | O_CLOEXEC, 0644);
		return fd < 0 ? -errno : fd;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	walk_move(w, fd, w->depth + 1);
	return 0;
}

/* Walk path from w (from the root when absolute); final: open the end. */
static int walk(struct walk *w, const char *path, int flags, bool final)
{
	char buf[4096], *comp = buf, *next;
	size_t len = strlen(path);
	int r;

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	if (buf[0] == '/')
		walk_move(w, root_fd, 0);
	for (;;) {
		while (*comp == '/')
			comp++;
		next = comp + strcspn(comp, "/");
		while (*next == '/')
			*next++ = '\0';
		r = walk_step(w, comp, flags, final && !*next);
		if (r < 0 || !*next)
			return r;
		comp = next;
	}
}

static int open_in_root(const char *path, int flags)
{
	struct walk w = { .dir = root_fd };
	int fd = walk(&w, path, flags, true);

	walk_move(&w, root_fd, 0);
	return fd;
}

/*
 * /proc and /sys hold only regular files and directories.  A FIFO or a
 * device in a dump would block a read forever (or worse): opened with
 * O_NONBLOCK, it is refused here.  (A directory goes on to fail with EISDIR.)
 */
static int only_regular(int fd, int flags)
{
	struct stat st;

	if (fd < 0 || (flags & (O_DIRECTORY | O_PATH)))
		return fd;
	if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return fd;
	close(fd);
	return -ENXIO;
}

int sysfs_open(const char *path, int flags)
{
	static bool no_openat2;
	/* openat2() refuses O_PATH | O_NONBLOCK; a directory cannot block. */
	int nonblock = flags & (O_PATH | O_DIRECTORY) ? 0 : O_NONBLOCK;
	struct open_how how = {
		.flags = (unsigned)(flags | O_CLOEXEC | nonblock),
		/* Symlinks, ".." and absolute targets all stay inside the root. */
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (path[0] != '/')
		return -EINVAL;
	if (root_fd < 0) {
		/*
		 * The live system too: /var/lib and /var/log hold what others
		 * wrote, and a FIFO named config.v2.json there would block.
		 */
		fd = open(path, flags | O_CLOEXEC | nonblock, 0644);
		if (fd >= 0)
			return only_regular((int)fd, flags);
	} else {
		if (flags & O_CREAT)
			how.mode = 0644;
		if (no_openat2)
			return only_regular(open_in_root(path, flags | nonblock), flags);
		fd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
		if (fd < 0 && errno == ENOSYS) {
			no_openat2 = true;
			return only_regular(open_in_root(path, flags | nonblock), flags);
		}
		if (fd >= 0)
			return only_regular((int)fd, flags);
	}
	return fd < 0 ? -errno : (int)fd;
}

DIR *sysfs_opendir(const char *path)
{
	int fd;
	DIR *d;

	/*
	 * opendir() opens with O_CLOEXEC and checks the type in two syscalls;
	 * fdopendir() repeats both checks with fcntl(2) and fstat(2).
	 */
	if (root_fd < 0 && path[0] == '/')
		return opendir(path);
	fd = sysfs_open(path, O_RDONLY | O_DIRECTORY);
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

int sysfs_root_owned(const char *path)
{
	struct stat st, root;
	int fd = sysfs_open(path, O_PATH);
	int r;

	if (fd < 0)
		return fd;
	r = fstat(fd, &st);
	close(fd);
	if (r < 0)
		return -errno;
	if (root_fd < 0)
		return st.st_uid == 0;
	return fstat(root_fd, &root) < 0 ? -errno : st.st_uid == root.st_uid;
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

ssize_t sysfs_readlink(const char *path, char *buf, size_t size)
{
	/* O_PATH | O_NOFOLLOW opens the link itself, as openat2 does in the root. */
	int fd = sysfs_open(path, O_PATH | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = readlinkat(fd, "", buf, size);
	n = n < 0 ? -errno : n >= (ssize_t)size ? -EFBIG : n;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

ssize_t sysfs_pread_fd(int fd, char *buf, size_t size)
{
	return read_all(fd, buf, size, true);
}

ssize_t sysfs_read_alloc(const char *path, size_t max, char **buf)
{
	int fd = sysfs_open(path, O_RDONLY);
	struct stat st;
	size_t size;
	ssize_t n;

	*buf = NULL;
	if (fd < 0)
		return fd;
	/* The size first: a file past the limit costs one fstat(2), not a read. */
	n = fstat(fd, &st) < 0           ? -errno
	    : !S_ISREG(st.st_mode)       ? -ENXIO
	    : (uint64_t)st.st_size > max ? -EFBIG
					 : 0;
	if (n < 0) {
		close(fd);
		return n;
	}
	/* Room for what it has, a little more in case it grew, and the byte that proves more. */
	size = (size_t)st.st_size + 4096 < max ? (size_t)st.st_size + 4096 : max;
	if (!(*buf = malloc(size + 2))) {
		close(fd);
		return -ENOMEM;
	}
	n = read_all(fd, *buf, size + 2, false);
	close(fd);
	if (n > (ssize_t)max)
		n = -EFBIG;
	if (n < 0) {
		free(*buf);
		*buf = NULL;
	}
	return n;
}

/* One write(2) of data to path opened with flags: 0 or -errno. */
static int write_once(const char *path, int flags, const char *data, size_t len)
{
	int fd = sysfs_open(path, flags);
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
		r = -EMSGSIZE; /* not EIO: that is a driver's own error */
	if (close(fd) < 0 && r == 0 && errno != EINTR)
		r = -errno;
	return r;
}

int sysfs_write_file(const char *path, const char *data, size_t len)
{
	/* O_TRUNC: a no-op on procfs, but keeps a fixture file exact. */
	return write_once(path, O_WRONLY | O_TRUNC, data, len);
}

int sysfs_append_file(const char *path, const char *data, size_t len)
{
	/* No O_TRUNC: on a trace event's trigger file it would remove every trigger. */
	return write_once(path, O_WRONLY | O_APPEND, data, len);
}

/* The directory holding path's last component, opened O_PATH; *leaf points at it. */
static int parent_fd(const char *path, const char **leaf)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t len;

	if (path[0] != '/' || !slash || !slash[1] || strcmp(slash + 1, "..") == 0 ||
	    strcmp(slash + 1, ".") == 0)
		return -EINVAL;
	len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len);
	dir[len] = '\0';
	*leaf = slash + 1;
	return sysfs_open(dir, O_PATH | O_DIRECTORY);
}

int sysfs_mkdir(const char *path)
{
	const char *leaf;
	int dfd = parent_fd(path, &leaf), r;

	if (dfd < 0)
		return dfd;
	r = mkdirat(dfd, leaf, 0755) < 0 ? -errno : 0;
	close(dfd);
	return r;
}

int sysfs_rmdir(const char *path)
{
	const char *leaf;
	int dfd = parent_fd(path, &leaf), r;

	if (dfd < 0)
		return dfd;
	r = unlinkat(dfd, leaf, AT_REMOVEDIR) < 0 ? -errno : 0;
	close(dfd);
	return r;
}

int sysfs_self_exe(char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	ssize_t n = readlinkat(AT_FDCWD, "/proc/self/exe", buf, size - 1);
	size_t d = sizeof(deleted) - 1;

	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	/* The package was upgraded under us: its new binary sits at the same path. */
	if ((size_t)n > d && strcmp(buf + n - d, deleted) == 0)
		buf[n - d] = '\0';
	return buf[0] == '/' ? 0 : -ENOENT;
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
	case EMSGSIZE:
		return "the kernel accepted only part of the value";
	case EFBIG:
		return "file too large";
	case ENXIO:
		return "not a regular file (a FIFO or a device in the sysroot)";
	case EBADMSG:
		return "unexpected content (a NUL byte, or more than one line): not what a kernel "
		       "writes";
	case EXDEV:
		return "path leads outside the sysroot";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
