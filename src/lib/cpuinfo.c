// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpuinfo.h"
#include "sysfs.h"
#include "value.h"

/* Reads until buf is full, not to the end: the rest is other processors'. */
ssize_t cpuinfo_first_read(char *buf, size_t size)
{
	int fd = sysfs_open("/proc/cpuinfo", O_RDONLY);
	size_t len = 0;

	if (fd < 0)
		return fd;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

bool cpuinfo_value(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = text; *p && *p != '\n'; p = strchrnul(p, '\n') + 1) {
		const char *colon = strchr(p, ':');

		if (strncmp(p, key, klen) == 0 && strchr(" \t:", p[klen]) && colon) {
			colon += 1 + (colon[1] == ' ');
			snprintf(out, len, "%.*s", (int)(strchrnul(colon, '\n') - colon), colon);
			return true;
		}
		if (!*strchrnul(p, '\n'))
			break;
	}
	return false;
}

bool cpuinfo_has_flag(const char *text, const char *flag)
{
	char flags[CPUINFO_FIRST_MAX];
	const char *p, *end, *w;
	size_t wl;

	if (!cpuinfo_value(text, "flags", flags, sizeof(flags)))
		return false;
	p = flags;
	end = flags + strlen(flags);
	while (str_next_word(&p, end, " ", &w, &wl))
		if (str_span_is(w, wl, flag))
			return true;
	return false;
}
