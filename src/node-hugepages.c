// SPDX-License-Identifier: GPL-2.0-or-later
/* nodeN/hugepages/hugepages-<size>kB/{nr,free,surplus}_hugepages, in bytes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nodes.h"
#include "sysfs.h"
#include "value.h"

int hugepages_dir_kb(const char *name, uint64_t *kb)
{
	size_t len = strlen(name);

	if (strncmp(name, "hugepages-", 10) != 0 || len < 13 || strcmp(name + len - 2, "kB") != 0)
		return -EINVAL;
	if (parse_u64_n(name + 10, len - 12, UINT64_MAX / 1024, kb) < 0 || *kb == 0)
		return -EINVAL;
	return 0;
}

static int read_count(const char *dir, const char *file, uint64_t *v)
{
	char path[384], buf[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (n == 0 || buf[n - 1] != '\n' || parse_u64_n(buf, (size_t)n - 1, UINT64_MAX, v) < 0)
		return -EBADMSG;
	return 0;
}

/* *acc += count * kb * 1024, or -EOVERFLOW. */
static int add_bytes(uint64_t *acc, uint64_t count, uint64_t kb)
{
	uint64_t b;

	if (__builtin_mul_overflow(count, kb * 1024, &b) || __builtin_add_overflow(*acc, b, acc))
		return -EOVERFLOW;
	return 0;
}

static int read_size(const char *dir, uint64_t kb, struct hugepages *out, char *why,
		     size_t whylen)
{
	static const char *const files[] = { "nr_hugepages", "free_hugepages", "surplus_hugepages" };
	uint64_t *acc[] = { &out->total_bytes, &out->free_bytes, &out->surp_bytes };

	for (int i = 0; i < 3; i++) {
		uint64_t v;
		int r = read_count(dir, files[i], &v);

		if (r == 0)
			r = add_bytes(acc[i], v, kb);
		if (r < 0) {
			snprintf(why, whylen, "%s/%s: %s", dir, files[i],
				 r == -EBADMSG ? "not a decimal number" : r == -EOVERFLOW
				 ? "size does not fit in 64 bits" : sysfs_strerror(r));
			return r;
		}
	}
	return 0;
}

int hugepages_read(unsigned node, struct hugepages *out, char *why, size_t whylen)
{
	char base[64], dir[336];
	struct dirent *de;
	DIR *d;
	int r = 0;

	memset(out, 0, sizeof(*out));
	snprintf(base, sizeof(base), NODE_DIR "/node%u/hugepages", node);
	d = sysfs_opendir(base);
	if (!d) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		snprintf(why, whylen, "%s: %s", base, sysfs_strerror(r));
		return r;
	}
	out->present = true;
	while (r == 0 && (de = readdir(d))) {
		uint64_t kb;

		if (hugepages_dir_kb(de->d_name, &kb) < 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		r = read_size(dir, kb, out, why, whylen);
	}
	closedir(d);
	return r;
}
