// SPDX-License-Identifier: GPL-2.0-or-later
/* nodeN/hugepages/hugepages-<size>kB/{nr,free,surplus}_hugepages, in bytes. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

static int read_pool(const char *dir, struct hugepage_pool *p, char *why, size_t whylen)
{
	static const char *const files[] = { "nr_hugepages", "free_hugepages",
					     "surplus_hugepages" };
	uint64_t *v[] = { &p->nr, &p->free, &p->surplus };

	for (int i = 0; i < 3; i++) {
		int r = read_count(dir, files[i], v[i]);

		if (r < 0) {
			snprintf(why, whylen, "%s/%s: %s", dir, files[i],
				 r == -EBADMSG ? "not a decimal number" : sysfs_strerror(r));
			return r;
		}
	}
	return 0;
}

static int by_size(const void *a, const void *b)
{
	uint64_t x = ((const struct hugepage_pool *)a)->kb,
		 y = ((const struct hugepage_pool *)b)->kb;

	return (x > y) - (x < y);
}

/* The pools in base; -ENOENT when the node has no hugepages directory. */
static int read_pools(const char *base, struct hugepage_pool *out, size_t max, char *why,
		      size_t whylen)
{
	char dir[336];
	struct dirent *de;
	size_t n = 0;
	DIR *d = sysfs_opendir(base);
	int r = 0;

	if (!d) {
		r = -errno;
		snprintf(why, whylen, "%s: %s", base, sysfs_strerror(r));
		return r;
	}
	while (r == 0 && (de = readdir(d))) {
		uint64_t kb;

		if (hugepages_dir_kb(de->d_name, &kb) < 0)
			continue;
		if (n == max) {
			snprintf(why, whylen, "%s: more than %zu page sizes", base, max);
			r = -E2BIG;
			break;
		}
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		out[n].kb = kb;
		r = read_pool(dir, &out[n++], why, whylen);
	}
	closedir(d);
	if (r < 0)
		return r;
	if (n > 1)
		qsort(out, n, sizeof(*out), by_size);
	return (int)n;
}

int hugepages_pools_read(unsigned node, struct hugepage_pool *out, size_t max, char *why,
			 size_t whylen)
{
	char base[64];
	int r;

	snprintf(base, sizeof(base), NODE_DIR "/node%u/hugepages", node);
	r = read_pools(base, out, max, why, whylen);
	return r == -ENOENT ? 0 : r;
}

int hugepages_read(unsigned node, struct hugepages *out, char *why, size_t whylen)
{
	struct hugepage_pool pools[HUGEPAGE_SIZES_MAX] = { 0 };
	char base[64];
	int n;

	memset(out, 0, sizeof(*out));
	snprintf(base, sizeof(base), NODE_DIR "/node%u/hugepages", node);
	n = read_pools(base, pools, HUGEPAGE_SIZES_MAX, why, whylen);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	out->present = true;
	for (int i = 0; i < n; i++)
		if (add_bytes(&out->total_bytes, pools[i].nr, pools[i].kb) < 0 ||
		    add_bytes(&out->free_bytes, pools[i].free, pools[i].kb) < 0 ||
		    add_bytes(&out->surp_bytes, pools[i].surplus, pools[i].kb) < 0) {
			snprintf(why, whylen,
				 "%s/hugepages-%" PRIu64 "kB: size does not fit in 64 bits", base,
				 pools[i].kb);
			return -EOVERFLOW;
		}
	return 0;
}
