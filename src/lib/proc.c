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
#include "nodes.h"
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

void proc_allowed_free(struct proc_allowed *a)
{
	free(a->cpus);
	free(a->mems);
	*a = (struct proc_allowed){ 0 };
}

/* The value of the status line "key:\t<value>\n", or NULL. */
static const char *status_field(const char *buf, size_t len, const char *key, size_t *vl)
{
	size_t kl = strlen(key);

	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll > kl && memcmp(p, key, kl) == 0 && p[kl] == ':') {
			const char *v = p + kl + 1;

			while (v < p + ll && (*v == '\t' || *v == ' '))
				v++;
			*vl = (size_t)(p + ll - v);
			return v;
		}
		p += ll + 1;
	}
	return NULL;
}

static int allowed_list(const char *buf, size_t len, const char *key, unsigned **ids, size_t *n,
			char *why, size_t whylen)
{
	size_t vl;
	const char *v = status_field(buf, len, key, &vl);
	char list[16384];
	int r;

	if (!v) {
		snprintf(why, whylen, "no %s", key);
		return -ENOENT;
	}
	if (vl >= sizeof(list) || memchr(v, '\0', vl)) {
		snprintf(why, whylen, "%s: not a range list", key);
		return -EBADMSG;
	}
	snprintf(list, sizeof(list), "%.*s", (int)vl, v);
	r = rangelist_parse(list, ids);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(why, whylen, "%s: not a range list", key);
		return -EBADMSG;
	}
	*n = (size_t)r;
	return 0;
}

int proc_allowed_parse(const char *buf, size_t len, struct proc_allowed *out, char *why,
		       size_t whylen)
{
	int r;

	*out = (struct proc_allowed){ 0 };
	r = allowed_list(buf, len, "Cpus_allowed_list", &out->cpus, &out->n_cpus, why, whylen);
	if (r == -ENOENT)
		r = -EBADMSG;
	if (r == 0) {
		r = allowed_list(buf, len, "Mems_allowed_list", &out->mems, &out->n_mems, why,
				 whylen);
		out->has_mems = r == 0;
		r = r == -ENOENT ? 0 : r;
	}
	if (r < 0)
		proc_allowed_free(out);
	return r;
}

int proc_allowed_read(unsigned pid, struct proc_allowed *out, char *why, size_t whylen)
{
	char path[64], *buf = malloc(SYSFS_MAX_FILE);
	ssize_t n;
	int r;

	*out = (struct proc_allowed){ 0 };
	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	n = sysfs_read_file(path, buf, SYSFS_MAX_FILE);
	if (n < 0) {
		snprintf(why, whylen, "%s", sysfs_strerror((int)n));
		free(buf);
		return (int)n;
	}
	r = proc_allowed_parse(buf, (size_t)n, out, why, whylen);
	free(buf);
	return r;
}

/* ids (sorted) merged into *into (sorted, n, capacity cap) without repeats.  0 or -ENOMEM. */
static int merge_ids(unsigned **into, size_t *n, const unsigned *ids, size_t k)
{
	unsigned *m;
	size_t i = 0, j = 0, o = 0;

	if (!k)
		return 0;
	m = malloc((*n + k) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	while (i < *n || j < k) {
		unsigned v = j == k || (i < *n && (*into)[i] <= ids[j]) ? (*into)[i++] : ids[j++];

		if (!o || m[o - 1] != v)
			m[o++] = v;
	}
	free(*into);
	*into = m;
	*n = o;
	return 0;
}

/* One thread's status merged into out: 0, -ENOENT when it ended, or an error. */
static int merge_thread(unsigned pid, const char *tid, struct proc_allowed *out, char *why,
			size_t whylen)
{
	char path[320], *buf = malloc(SYSFS_MAX_FILE);
	struct proc_allowed t;
	ssize_t n;
	int r;

	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%u/task/%s/status", pid, tid);
	n = sysfs_read_file(path, buf, SYSFS_MAX_FILE);
	r = n < 0 ? (int)n : proc_allowed_parse(buf, (size_t)n, &t, why, whylen);
	free(buf);
	if (n < 0 && n != -ENOENT && n != -ESRCH)
		snprintf(why, whylen, "%s", sysfs_strerror((int)n));
	if (r < 0)
		return r == -ESRCH ? -ENOENT : r;
	r = merge_ids(&out->cpus, &out->n_cpus, t.cpus, t.n_cpus);
	if (r == 0)
		r = merge_ids(&out->mems, &out->n_mems, t.mems, t.n_mems);
	out->has_mems |= t.has_mems;
	proc_allowed_free(&t);
	return r;
}

int proc_allowed_read_threads(unsigned pid, struct proc_allowed *out, size_t *threads, char *why,
			      size_t whylen)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int r = proc_allowed_read(pid, out, why, whylen);

	*threads = r == 0;
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	d = sysfs_opendir(path);
	if (!d)
		return 0; /* the main thread's, as before threads could be read */
	while (r == 0 && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    (unsigned)strtoul(e->d_name, NULL, 10) == pid)
			continue;
		r = merge_thread(pid, e->d_name, out, why, whylen);
		if (r == 0)
			(*threads)++;
		else if (r == -ENOENT)
			r = 0;
	}
	closedir(d);
	if (r < 0)
		proc_allowed_free(out);
	return r;
}

void proc_list_free(struct proc_list *l)
{
	free(l->v);
	*l = (struct proc_list){ 0 };
}

int proc_list_add(struct proc_list *l, unsigned pid)
{
	if (array_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -ENOMEM;
	l->v[l->n++] = pid;
	return 0;
}

void proc_list_sort_unique(struct proc_list *l)
{
	size_t out = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_unsigned);
	for (size_t i = 0; i < l->n; i++)
		if (i == 0 || l->v[i] != l->v[out - 1])
			l->v[out++] = l->v[i];
	l->n = out;
}

bool proc_pid_operand(const char *s, unsigned *pid)
{
	uint64_t v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	s += strspn(s, "0");
	if (!*s)
		s = "0";
	if (parse_u64(s, PROC_PID_MAX, &v) < 0)
		v = PROC_PID_MAX + 1ULL; /* too large: reported as not a process */
	*pid = (unsigned)v;
	return true;
}

/*
 * A pattern is looked for in the process's name alone (apt-get's arguments
 * must not make it a python3), or with the "cmdline:" prefix in its command
 * line; numastat's match (stat --compat) in "<Name> <cmdline with spaces>".
 */
static bool matches(unsigned pid, const char *pattern, bool numastat)
{
	char name[256] = "", cmd[4096] = "", both[4096 + 256 + 2];
	size_t plen = strlen(PROC_CMDLINE_PREFIX);

	if (!numastat && strncmp(pattern, PROC_CMDLINE_PREFIX, plen) == 0)
		return proc_cmdline(pid, cmd, sizeof(cmd)) >= 0 && strstr(cmd, pattern + plen);
	if (proc_name(pid, name, sizeof(name)) < 0)
		name[0] = '\0';
	if (!numastat)
		return strstr(name, pattern) != NULL;
	if (proc_cmdline(pid, cmd, sizeof(cmd)) < 0)
		cmd[0] = '\0';
	snprintf(both, sizeof(both), "%s %s", name, cmd);
	return strstr(both, pattern) != NULL;
}

static int match_all(struct proc_list *l, const char *pattern, const unsigned *all, size_t n,
		     unsigned self, bool numastat)
{
	size_t before = l->n;

	for (size_t i = 0; i < n; i++)
		if (all[i] != self && matches(all[i], pattern, numastat) &&
		    proc_list_add(l, all[i]) < 0)
			return -ENOMEM;
	return (int)(l->n - before);
}

int proc_list_match(struct proc_list *l, const char *pattern, const unsigned *all, size_t n,
		    unsigned self)
{
	return match_all(l, pattern, all, n, self, false);
}

int proc_list_match_numastat(struct proc_list *l, const char *pattern, const unsigned *all,
			     size_t n, unsigned self)
{
	return match_all(l, pattern, all, n, self, true);
}
