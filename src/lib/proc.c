// SPDX-License-Identifier: GPL-2.0-or-later
/* What /proc tells of a process besides its numa_maps: name, command line, last CPU; the pids. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "procmaps.h"
#include "sysfs.h"
#include "value.h"

int proc_name(unsigned pid, char *name, size_t size)
{
	char path[64], buf[4096];
	const char *p, *nl;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	n = sysfs_read_file(path, buf, sizeof(buf));
	/* Name: is the first line; a status longer than the buffer is fine. */
	if (n == -EFBIG) {
		int fd = sysfs_open(path, O_RDONLY);

		n = fd < 0 ? fd : pread(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0 && fd >= 0)
			n = -errno;
		if (fd >= 0)
			close(fd);
		if (n >= 0)
			buf[n] = '\0';
	}
	if (n < 0)
		return (int)n;
	p = strncmp(buf, "Name:", 5) == 0 ? buf : strstr(buf, "\nName:");
	if (!p)
		return -EBADMSG;
	p += p == buf ? 5 : 6;
	p += strspn(p, " \t");
	nl = strchrnul(p, '\n');
	snprintf(name, size, "%.*s", (int)(nl - p), p);
	return 0;
}

int proc_cmdline(unsigned pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	fd = sysfs_open(path, O_RDONLY);
	if (fd < 0)
		return fd;
	/* Only a pattern match reads it: the first size-1 bytes are plenty. */
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return 0;
}

int proc_last_cpu(unsigned pid, unsigned *cpu)
{
	char path[64], buf[4096], *p;
	uint64_t v;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* The name in "(...)" may hold spaces and ')': count fields after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -EBADMSG;
	/* Field 39, processor, is the 37th word after the name. */
	for (int field = 2; field < 39; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EBADMSG;
	}
	p++;
	if (parse_u64_n(p, strcspn(p, " \n"), UINT32_MAX, &v) < 0)
		return -EBADMSG;
	*cpu = (unsigned)v;
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int proc_pids(unsigned **pids)
{
	DIR *d = sysfs_opendir("/proc");
	unsigned *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	uint64_t pid;

	*pids = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (parse_u64(de->d_name, PROC_PID_MAX, &pid) < 0)
			continue;
		if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v[n++] = (unsigned)pid;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_unsigned);
	*pids = v;
	return (int)n;
}
