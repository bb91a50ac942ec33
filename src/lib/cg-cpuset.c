// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
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

/* The name of cg's only child group in name (NAME_MAX + 1); false for none or several. */
static bool only_child(const char *root, const char *cg, char *name)
{
	char path[CG_PATH_MAX + 64];
	struct dirent *e;
	int n = 0;
	DIR *d;

	cg_file_path(root, cg, NULL, path, sizeof(path));
	if (!(d = sysfs_opendir(path)))
		return false;
	while (n < 2 && (e = readdir(d)))
		if (e->d_type == DT_DIR && strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 && n++ == 0)
			snprintf(name, NAME_MAX + 1, "%s", e->d_name);
	closedir(d);
	return n == 1;
}

/*
 * Where cg's processes run, into at: cg, or while it holds no process and
 * has a single child, that child.  crun puts a podman container's
 * processes in <scope>/container and writes the cpuset there, leaving the
 * scope's own allowing every CPU and node.  A cgroup.procs that cannot be
 * read (a fixture without one) ends the descent.
 */
static void process_group(const char *root, const char *cg, char *at, size_t len)
{
	char path[CG_PATH_MAX + 64], name[NAME_MAX + 1], pid[8];

	snprintf(at, len, "%s", cg);
	for (int depth = 0; depth < 8; depth++) {
		cg_file_path(root, at, "cgroup.procs", path, sizeof(path));
		if (sysfs_read_file(path, pid, sizeof(pid)) != 0 || !only_child(root, at, name) ||
		    strlen(at) + 1 + strlen(name) >= len)
			return;
		snprintf(at + strlen(at), len - strlen(at), "%s%s", strcmp(at, "/") ? "/" : "",
			 name);
	}
}

int cg_cpuset_read(const char *root, const char *cg, struct cg_cpuset *out, char *why,
		   size_t whylen)
{
	char at[CG_PATH_MAX];
	int r;

	*out = (struct cg_cpuset){ 0 };
	if (!exists(root, cg))
		return -ENOENT;
	process_group(root, cg, at, sizeof(at));
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
