// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lock.h"
#include "statedir.h"

#define LOCK_FILE "lock"

static int lock_file(int dirfd, const char *dir, char *why, size_t whylen)
{
	char path[4200];
	int fd = openat(dirfd, LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			0600);

	snprintf(path, sizeof(path), "%s/" LOCK_FILE, dir);
	if (fd < 0) {
		int e = errno;

		if (e == ELOOP)
			snprintf(why, whylen,
				 "%s: a symlink inside the state directory: refusing to "
				 "follow it (remove it)",
				 path);
		else
			snprintf(why, whylen, "cannot lock %s: %s", path, strerror(e));
		return -e;
	}
	if (statedir_check_fd(fd, path, false, why, whylen) < 0) {
		close(fd);
		return -EPERM;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			int e = errno;

			snprintf(why, whylen, "cannot lock %s: %s", path, strerror(e));
			close(fd);
			return -e;
		}
	}
	return fd;
}

int lock_acquire(struct state_lock *l, const char *dir, char *why, size_t whylen)
{
	int r;

	*l = (struct state_lock){ .fd = -1, .dirfd = -1, .dir = dir };
	r = statedir_open(dir, true, why, whylen);
	if (r < 0)
		return r;
	l->dirfd = r;
	r = lock_file(l->dirfd, dir, why, whylen);
	if (r < 0) {
		close(l->dirfd);
		l->dirfd = -1;
		return r;
	}
	l->fd = r;
	return 0;
}

void lock_release(struct state_lock *l)
{
	if (l->fd >= 0)
		close(l->fd);
	if (l->dirfd >= 0)
		close(l->dirfd);
	l->fd = l->dirfd = -1;
}
