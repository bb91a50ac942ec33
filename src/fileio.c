// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

int mkdir_p(const char *path, mode_t mode)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;

		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		if (saved == '\0')
			break;
		*p = saved;
	}
	return 0;
}

int atomic_file_begin(struct atomic_file *af, const char *dir, const char *name, mode_t mode)
{
	int fd;

	if ((size_t)snprintf(af->final, sizeof(af->final), "%s/%s", dir, name) >= sizeof(af->final) ||
	    (size_t)snprintf(af->tmp, sizeof(af->tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(af->tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) < 0 || !(af->f = fdopen(fd, "w"))) {
		int e = errno ? errno : EIO; /* never "success" with no FILE */

		close(fd);
		unlink(af->tmp);
		return -e;
	}
	return 0;
}

static int fsync_dir_of(const char *path)
{
	char buf[4096];
	int fd, r = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	fd = open(dirname(buf), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int atomic_file_commit(struct atomic_file *af)
{
	int r = 0;

	if (fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) < 0)
		r = errno ? -errno : -EIO;
	if (fclose(af->f) != 0 && r == 0)
		r = -errno;
	af->f = NULL;
	if (r == 0 && rename(af->tmp, af->final) < 0)
		r = -errno;
	if (r < 0) {
		unlink(af->tmp);
		return r;
	}
	return fsync_dir_of(af->final);
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	unlink(af->tmp);
}
