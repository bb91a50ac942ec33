// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cg-cpuset.h"
#include "nodes.h"
#include "sysfs.h"

void cg_cpuset_free(struct cg_cpuset *c)
{
	free(c->cpus);
	free(c->mems);
	c->cpus = c->mems = NULL;
	c->n_cpus = c->n_mems = 0;
	c->found = false;
}

/* One effective list: its count, -ENOENT when the file is absent, -EBADMSG, -ENOMEM. */
static int list_read(const char *root, const char *cg, const char *file, unsigned **ids, char *why,
		     size_t whylen)
{
	char path[CG_PATH_MAX + 128], buf[16384];
	ssize_t n;
	int r;

	cg_file_path(root, cg, file, path, sizeof(path));
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	r = n > 0 && buf[n - 1] == '\n' ? rangelist_parse(buf, ids) : -EINVAL;
	if (r == -EINVAL || r == -ERANGE) {
		snprintf(why, whylen, "%s: not a range list", path);
		return -EBADMSG;
	}
	return r;
}

static bool exists(const char *root, const char *cg)
{
	char path[CG_PATH_MAX + 64];
	int fd;

	cg_file_path(root, cg, NULL, path, sizeof(path));
	fd = sysfs_open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int cg_cpuset_read(const char *root, const char *cg, struct cg_cpuset *out, char *why,
		   size_t whylen)
{
	char at[CG_PATH_MAX];
	int r;

	*out = (struct cg_cpuset){ 0 };
	if (!exists(root, cg))
		return -ENOENT;
	snprintf(at, sizeof(at), "%s", cg);
	for (;;) {
		r = list_read(root, at, "cpuset.cpus.effective", &out->cpus, why, whylen);
		if (r >= 0) {
			out->n_cpus = (size_t)r;
			r = list_read(root, at, "cpuset.mems.effective", &out->mems, why, whylen);
		}
		if (r >= 0) {
			out->n_mems = (size_t)r;
			out->found = true;
			snprintf(out->from, sizeof(out->from), "%s", at);
			return 0;
		}
		cg_cpuset_free(out);
		if (r != -ENOENT)
			return r;
		if (strcmp(at, "/") == 0)
			return 0;
		*strrchr(at, '/') = '\0';
		if (!at[0])
			strcpy(at, "/");
	}
}
