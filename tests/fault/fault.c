// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tiny LD_PRELOAD fault injector for the few CLI tests that need a kernel
 * that refuses or clamps a value (a fixture file accepts anything, and root
 * ignores file modes).  In the spirit of kmod's testsuite preloads: rules
 * come from one environment variable, keyed by path or by write count.
 *
 *   FAULT_INJECT="rule[;rule...]"
 *     write:K:ERRNO       the K-th knob write of the process fails (K from 1)
 *     write:SUFFIX:ERRNO  every write to a knob path ending in SUFFIX fails
 *     clamp:SUFFIX:VALUE  the first write to SUFFIX succeeds but stores VALUE
 *                         (later ones, e.g. a rollback, go through)
 *     short:SUFFIX:N      a write to SUFFIX consumes only N bytes
 *     nosys:openat2       openat2(2) fails with ENOSYS, as before Linux 5.6
 *     stall:K:FILE        the K-th knob write creates FILE.waiting, then waits
 *                         until FILE exists (a run caught in the middle)
 *     after:NAME:FILE     the same wait right after a rename(2) or link(2)
 *                         that gave a file a name starting with NAME went
 *                         through: a run caught between saving its revert
 *                         point ("revert") or its counter snapshot
 *                         ("numastat-") and its first knob write
 *   FAULT_LOG=FILE        append one line per knob write and what happened
 *                         to it (tests check the fault fired, and the rollback)
 *
 * A knob write is a write(2) to a file whose path holds "/proc/sys/" or
 * "/sys/".  ERRNO is a name (EIO, EINVAL, ...) or a number.  Never built
 * into the product.
 *
 * A fixture file is opened with O_TRUNC (a no-op on procfs), so a refused
 * write would leave it empty where the kernel keeps the old value.  While
 * rules are active, openat2(2) and openat(2) drop O_TRUNC on knob files and
 * the shim truncates after a write that went through instead: a refused
 * write leaves the file as it was.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef long (*syscall_fn)(long, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*renameat_fn)(int, const char *, int, const char *);
typedef int (*linkat_fn)(int, const char *, int, const char *, int);

#define MAX_FD 1024

static write_fn real_write;
static syscall_fn real_syscall;
static unsigned knob_writes;
static bool truncate_after[MAX_FD];
static bool clamped;

ssize_t write(int fd, const void *buf, size_t count);
int openat(int dirfd, const char *name, int flags, ...);
int renameat(int olddirfd, const char *from, int newdirfd, const char *to);
int linkat(int olddirfd, const char *from, int newdirfd, const char *to, int flags);
long syscall(long number, ...);

static const struct {
	const char *name;
	int value;
} errnos[] = {
	{ "EIO", EIO },       { "EINVAL", EINVAL }, { "EACCES", EACCES }, { "EPERM", EPERM },
	{ "EROFS", EROFS },   { "ENOSPC", ENOSPC }, { "EBUSY", EBUSY },   { "ENOENT", ENOENT },
	{ "ENOMEM", ENOMEM }, { "EAGAIN", EAGAIN }, { "EINTR", EINTR },
};

static int parse_errno(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (strlen(errnos[i].name) == len && strncmp(errnos[i].name, s, len) == 0)
			return errnos[i].value;
	return (int)strtol(s, NULL, 10);
}

static bool fd_path(int fd, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, size - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return true;
}

static bool ends_with(const char *s, const char *suffix, size_t len)
{
	size_t n = strlen(s);

	return n >= len && strncmp(s + n - len, suffix, len) == 0;
}

/* "write #2 /root/proc/sys/vm/x: 41: injected failure" (the value without its newline). */
static void note(const char *k, const char *path, const void *buf, size_t count, const char *what)
{
	const char *logfile = getenv("FAULT_LOG");
	char line[4400];
	int fd, n, vlen = (int)(count > 256 ? 256 : count);

	if (!logfile)
		return;
	if (vlen && ((const char *)buf)[vlen - 1] == '\n')
		vlen--;
	n = snprintf(line, sizeof(line), "write #%s %s: %.*s: %s\n", k, path, vlen,
		     (const char *)buf, what);
	fd = open(logfile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n > 0)
		real_write(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	close(fd);
}

/* Announce FILE.waiting, then wait for FILE: the test decides when we go on. */
static void stall(const char *file, size_t len)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%.*s.waiting", (int)len, file);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	path[len] = '\0';
	while (access(path, F_OK) != 0)
		nanosleep(&tick, NULL);
}

/*
 * Apply the first rule that matches this write.  Returns true when the rule
 * decided the result (*ret, errno set), false to let the write through.
 */
static bool apply_rule(const char *rule, size_t len, int fd, const char *path, const void *buf,
		       size_t count, ssize_t *ret)
{
	const char *a = memchr(rule, ':', len), *b;
	size_t alen, blen;
	char k[32];

	if (!a || !(b = memchr(a + 1, ':', (size_t)(rule + len - a - 1))))
		return false;
	alen = (size_t)(b - a - 1);
	blen = (size_t)(rule + len - b - 1);
	a++, b++;
	snprintf(k, sizeof(k), "%u", knob_writes);
	if (strncmp(rule, "write:", 6) == 0 && ((alen == strlen(k) && strncmp(a, k, alen) == 0) ||
						(a[0] == '/' && ends_with(path, a, alen)))) {
		note(k, path, buf, count, "injected failure");
		errno = parse_errno(b, blen);
		*ret = -1;
		return true;
	}
	if (strncmp(rule, "stall:", 6) == 0 && alen == strlen(k) && strncmp(a, k, alen) == 0) {
		stall(b, blen);
		return false;
	}
	if (strncmp(rule, "clamp:", 6) == 0 && !clamped && ends_with(path, a, alen)) {
		clamped = true;
		note(k, path, buf, count, "stored a clamped value");
		if (real_write(fd, b, blen) != (ssize_t)blen || real_write(fd, "\n", 1) != 1) {
			*ret = -1;
			return true;
		}
		if (fd < MAX_FD && truncate_after[fd] && ftruncate(fd, (off_t)blen + 1) < 0) {
			*ret = -1;
			return true;
		}
		truncate_after[fd < MAX_FD ? fd : 0] = false;
		*ret = (ssize_t)count;
		return true;
	}
	if (strncmp(rule, "short:", 6) == 0 && ends_with(path, a, alen)) {
		size_t n = (size_t)strtoul(b, NULL, 10);

		note(k, path, buf, count, "short write");
		*ret = real_write(fd, buf, n < count ? n : count);
		return true;
	}
	return false;
}

/* The write went through: finish what O_TRUNC would have done. */
static ssize_t truncated(int fd, ssize_t ret)
{
	if (fd < MAX_FD && truncate_after[fd] && ret >= 0 && ftruncate(fd, ret) < 0)
		return -1;
	return ret;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	const char *rules = getenv("FAULT_INJECT");
	char path[4096], k[32];
	ssize_t ret;

	if (!real_write)
		real_write = (write_fn)dlsym(RTLD_NEXT, "write");
	if (!rules || fd <= 2 || !fd_path(fd, path, sizeof(path)) ||
	    (!strstr(path, "/proc/sys/") && !strstr(path, "/sys/")))
		return real_write(fd, buf, count);
	knob_writes++;
	for (const char *r = rules; *r;) {
		size_t len = strcspn(r, ";");

		if (apply_rule(r, len, fd, path, buf, count, &ret))
			return ret < 0 ? ret : truncated(fd, ret);
		r += len + (r[len] == ';');
	}
	snprintf(k, sizeof(k), "%u", knob_writes);
	note(k, path, buf, count, "ok");
	return truncated(fd, real_write(fd, buf, count));
}

/* Without openat2 numastatctl walks the root with openat(): same treatment. */
int openat(int dirfd, const char *name, int flags, ...)
{
	static openat_fn real_openat;
	char path[4096];
	mode_t mode = 0;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (!real_openat)
		real_openat = (openat_fn)dlsym(RTLD_NEXT, "openat");
	if (!getenv("FAULT_INJECT") || !(flags & O_TRUNC))
		return real_openat(dirfd, name, flags, mode);
	fd = real_openat(dirfd, name, flags & ~O_TRUNC, mode);
	if (fd < 0 || fd >= MAX_FD)
		return fd;
	if (fd_path(fd, path, sizeof(path)) &&
	    (strstr(path, "/proc/sys/") || strstr(path, "/sys/")))
		truncate_after[fd] = true;
	else if (ftruncate(fd, 0) < 0) /* not a knob: truncate as asked */
		return -1;
	return fd;
}

/* after:NAME:FILE rules: stall once the file is in place under its new name. */
static void after_naming(const char *to)
{
	const char *rules = getenv("FAULT_INJECT"), *base = strrchr(to, '/');

	base = base ? base + 1 : to;
	for (const char *r = rules; r && *r;) {
		size_t len = strcspn(r, ";");
		const char *a = r + 6, *b = memchr(a, ':', len > 6 ? len - 6 : 0);

		if (len > 6 && strncmp(r, "after:", 6) == 0 && b &&
		    strncmp(base, a, (size_t)(b - a)) == 0)
			stall(b + 1, (size_t)(r + len - b - 1));
		r += len + (r[len] == ';');
	}
}

int renameat(int olddirfd, const char *from, int newdirfd, const char *to)
{
	static renameat_fn real_renameat;
	int r;

	if (!real_renameat)
		real_renameat = (renameat_fn)dlsym(RTLD_NEXT, "renameat");
	r = real_renameat(olddirfd, from, newdirfd, to);
	if (r == 0)
		after_naming(to);
	return r;
}

int linkat(int olddirfd, const char *from, int newdirfd, const char *to, int flags)
{
	static linkat_fn real_linkat;
	int r;

	if (!real_linkat)
		real_linkat = (linkat_fn)dlsym(RTLD_NEXT, "linkat");
	r = real_linkat(olddirfd, from, newdirfd, to, flags);
	if (r == 0)
		after_naming(to);
	return r;
}

long syscall(long number, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		real_syscall = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	if (!real_write)
		real_write = (write_fn)dlsym(RTLD_NEXT, "write");
	if (number == SYS_openat2 && getenv("FAULT_INJECT") &&
	    strstr(getenv("FAULT_INJECT"), "nosys:openat2")) {
		/* Syscall arguments are longs: NOLINTNEXTLINE(performance-no-int-to-ptr) */
		note("-", (const char *)a[1], "openat2", 7, "ENOSYS");
		errno = ENOSYS; /* a kernel before 5.6 */
		return -1;
	}
	if (number == SYS_openat2 && getenv("FAULT_INJECT")) {
		/* NOLINTNEXTLINE(performance-no-int-to-ptr): a syscall argument */
		struct open_how how = *(const struct open_how *)a[2];
		bool trunc = how.flags & O_TRUNC;
		long fd;

		how.flags &= ~(unsigned long long)O_TRUNC;
		fd = real_syscall(number, a[0], a[1], (long)&how, (long)sizeof(how));
		if (fd >= 0 && fd < MAX_FD)
			truncate_after[fd] = trunc;
		return fd;
	}
	return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
