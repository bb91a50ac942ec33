// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nodes.h"
#include "sysfs.h"
#include "value.h"

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}
/* "node" followed by a plain decimal id; anything else is not a node. */
static bool node_dir_id(const char *name, unsigned *id)
{
	uint64_t v;

	if (strncmp(name, "node", 4) != 0 || parse_u64(name + 4, NODE_ID_MAX, &v) < 0)
		return false;
	*id = (unsigned)v;
	return true;
}

int nodes_enumerate(unsigned **ids)
{
	DIR *d = sysfs_opendir(NODE_DIR);
	unsigned *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	unsigned id;

	*ids = NULL;
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((errno = 0, de = readdir(d))) {
		if (!node_dir_id(de->d_name, &id))
			continue;
		if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v[n++] = id;
	}
	closedir(d);
	if (n > 1) /* qsort's pointer must not be NULL, even for 0 items */
		qsort(v, n, sizeof(*v), cmp_unsigned);
	*ids = v;
	return (int)n;
}

int node_line_error(char *why, size_t whylen, unsigned line, const char *what)
{
	snprintf(why, whylen, "line %u: %s", line, what);
	return -EBADMSG;
}

int node_text_lines(const char *buf, size_t len, node_line_fn fn, void *ctx, char *why,
		    size_t whylen)
{
	unsigned line = 1;
	int r;

	if (len == 0)
		return node_line_error(why, whylen, 1, "file is empty");
	if (memchr(buf, '\0', len))
		return node_line_error(why, whylen, 1, "file contains a NUL byte");
	for (const char *p = buf; p < buf + len; line++) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));

		if (!nl)
			return node_line_error(why, whylen, line, "missing newline at end of file");
		r = fn(p, (size_t)(nl - p), line, ctx, why, whylen);
		if (r < 0)
			return r;
		p = nl + 1;
	}
	return 0;
}

const char *node_counter_name_problem(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '_'))
			return "counter name has characters other than a-z, 0-9, _";
	return NULL;
}

const char *node_counter_value_problem(const char *s, size_t len, uint64_t *v)
{
	switch (parse_u64_n(s, len, UINT64_MAX, v)) {
	case 0:
		return NULL;
	case -ERANGE:
		return "value does not fit in 64 bits";
	default:
		return "value is not a decimal number";
	}
}
ssize_t node_file_read(unsigned node, const char *file, char *buf, size_t size, char *why,
		       size_t whylen)
{
	char path[96];
	ssize_t n;

	snprintf(path, sizeof(path), NODE_DIR "/node%u/%s", node, file);
	n = sysfs_read_file(path, buf, size);
	if (n < 0)
		snprintf(why, whylen, "%s",
			 n == -EFBIG ? "file too large" : sysfs_strerror((int)n));
	return n;
}
