// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "fileio.h"
#include "lock.h"

#define FALLBACK_LOCK "/run/numastatctl.lock"

static int lock_path(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			int e = errno;

			close(fd);
			return -e;
		}
	}
	return fd;
}

int lock_acquire(const char *state_dir, char *why, size_t whylen)
{
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/lock", state_dir);
	if (mkdir_p(state_dir, 0755) == 0) {
		r = lock_path(path);
		if (r >= 0)
			return r;
	}
	r = lock_path(FALLBACK_LOCK);
	if (r < 0)
		snprintf(why, whylen, "cannot lock %s or " FALLBACK_LOCK ": %s", path,
			 strerror(-r));
	return r;
}
