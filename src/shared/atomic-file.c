// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"

int atomic_file_begin(struct atomic_file *af, const char *dir, const char *name, mode_t mode)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = atomic_file_beginat(af, fd, name, mode);
	if (r < 0) {
		close(fd);
		return r;
	}
	af->own_dirfd = 1;
	return 0;
}

/* Six hex digits that another run is unlikely to pick at the same time. */
static unsigned tmp_suffix(void)
{
	unsigned v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
		v = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL) ^ (unsigned)clock();
	return v & 0xffffff;
}

int atomic_file_beginat(struct atomic_file *af, int dirfd, const char *name, mode_t mode)
{
	int fd = -1;

	*af = (struct atomic_file){ .dirfd = dirfd };
	if (strlen(name) + 9 > NAME_MAX)
		return -ENAMETOOLONG;
	snprintf(af->name, sizeof(af->name), "%s", name);
	for (int i = 0; i < 100 && fd < 0; i++) {
		snprintf(af->tmp, sizeof(af->tmp), ".%s.%06x", name, tmp_suffix());
		fd = openat(dirfd, af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	/* The mode exactly, whatever the umask: a revert file is for root's eyes. */
	if (fchmod(fd, mode) < 0 || !(af->f = fdopen(fd, "w"))) {
		int e = errno ? errno : EIO; /* never "success" with no FILE */

		close(fd);
		unlinkat(dirfd, af->tmp, 0);
		return -e;
	}
	return 0;
}

static void release_dir(struct atomic_file *af)
{
	if (af->own_dirfd && af->dirfd >= 0)
		close(af->dirfd);
	af->dirfd = -1;
	af->own_dirfd = 0;
}

int atomic_file_close(struct atomic_file *af)
{
	int r = 0;

	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) < 0)
		r = errno ? -errno : -EIO;
	if (fclose(af->f) != 0 && r == 0)
		r = errno ? -errno : -EIO;
	af->f = NULL;
	return r;
}

int atomic_file_commit(struct atomic_file *af)
{
	int r = atomic_file_close(af);

	if (r == 0 && renameat(af->dirfd, af->tmp, af->dirfd, af->name) < 0)
		r = -errno;
	if (r < 0) {
		atomic_file_abort(af);
		return r;
	}
	if (fsync(af->dirfd) < 0)
		r = -errno;
	release_dir(af);
	return r;
}

int atomic_file_link(struct atomic_file *af, const char *name)
{
	if (linkat(af->dirfd, af->tmp, af->dirfd, name, 0) < 0)
		return -errno;
	snprintf(af->name, sizeof(af->name), "%s", name);
	unlinkat(af->dirfd, af->tmp, 0);
	return fsync(af->dirfd) < 0 ? -errno : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->dirfd >= 0)
		unlinkat(af->dirfd, af->tmp, 0);
	release_dir(af);
}
