// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statedir.h"
#include "value.h"

/* As many symlinks on the way as the kernel itself follows (MAXSYMLINKS). */
#define LINKS_MAX 40

static bool owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* Who may own the state: "root", or "root or uid 1000" for a user's own runs. */
static const char *owners(char *buf, size_t len)
{
	if (geteuid() == 0)
		return "root";
	snprintf(buf, len, "root or uid %u", (unsigned)geteuid());
	return buf;
}

static int check_stat(const struct stat *st, const char *path, bool dir, char *why, size_t whylen)
{
	char who[32];

	if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "%s: not a %s: refusing it", path,
			 dir ? "directory" : "regular file");
		return dir ? -ENOTDIR : -EINVAL;
	}
	if (!owner_ok(st->st_uid)) {
		snprintf(why, whylen,
			 "%s: owned by uid %u, not by %s: refusing it (run 'chown %s %s')", path,
			 (unsigned)st->st_uid, owners(who, sizeof(who)),
			 geteuid() == 0 ? "root" : who + strlen("root or uid "), path);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whylen,
			 "%s: writable by group or others: refusing it "
			 "(run 'chmod go-w %s')",
			 path, path);
		return -EPERM;
	}
	return 0;
}

int statedir_check_fd(int fd, const char *path, bool dir, char *why, size_t whylen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	return check_stat(&st, path, dir, why, whylen);
}

/* A directory on the way: others may write it only when it is root's and sticky (/tmp). */
static int check_step(const struct stat *st, const char *path, const char *target, char *why,
		      size_t whylen)
{
	char who[32];

	if (!owner_ok(st->st_uid)) {
		snprintf(why, whylen,
			 "%s: owned by uid %u, not by %s, on the way to %s: refusing it "
			 "(choose a directory whose parents root owns)",
			 path, (unsigned)st->st_uid, owners(who, sizeof(who)), target);
		return -EPERM;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_uid == 0 && (st->st_mode & S_ISVTX))) {
		snprintf(why, whylen,
			 "%s: writable by group or others and not sticky, on the way "
			 "to %s: refusing it (run 'chmod go-w %s', or choose another directory)",
			 path, target, path);
		return -EPERM;
	}
	return 0;
}

/* path as an absolute path (relative ones start at the working directory). */
static int absolute(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return str_copy(out, path, len) < len ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return (size_t)snprintf(out, len, "%s/%s", cwd, path) < len ? 0 : -ENAMETOOLONG;
}

struct walk {
	int fd;                  /* the directory reached so far (O_PATH) */
	char done[PATH_MAX];     /* its path, for messages ("" for /) */
	char todo[2 * PATH_MAX]; /* what is left to walk */
	const char *target;      /* the whole path, for messages */
	unsigned links;
};

static int walk_root(struct walk *w, char *why, size_t whylen)
{
	struct stat st;

	if (w->fd >= 0)
		close(w->fd);
	w->done[0] = '\0';
	w->fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->fd < 0 || fstat(w->fd, &st) < 0) {
		snprintf(why, whylen, "/: %s", strerror(errno));
		return -errno;
	}
	return check_step(&st, "/", w->target, why, whylen);
}

/* A symlink on the way: trusted only when root (or we) own it; its target goes first. */
static int follow(struct walk *w, int lfd, const struct stat *st, const char *path,
		  const char *rest, char *why, size_t whylen)
{
	char dest[PATH_MAX], todo[sizeof(w->todo)];
	ssize_t n;
	char who[32];

	if (!owner_ok(st->st_uid)) {
		snprintf(why, whylen,
			 "%s: a symlink owned by uid %u, not by %s, on the way to %s: "
			 "refusing it (give the real path)",
			 path, (unsigned)st->st_uid, owners(who, sizeof(who)), w->target);
		return -EPERM;
	}
	if (++w->links > LINKS_MAX) {
		snprintf(why, whylen, "%s: %s", w->target, strerror(ELOOP));
		return -ELOOP;
	}
	n = readlinkat(lfd, "", dest, sizeof(dest) - 1);
	if (n < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	dest[n] = '\0';
	if ((size_t)snprintf(todo, sizeof(todo), "%s/%s", dest, rest) >= sizeof(todo)) {
		snprintf(why, whylen, "%s: %s", w->target, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	memcpy(w->todo, todo, sizeof(todo));
	return dest[0] == '/' ? walk_root(w, why, whylen) : 0;
}

/* No component but "." left in rest: the one at hand is the end of the way. */
static bool at_end(const char *rest)
{
	for (const char *p = rest; *p; p++)
		if (*p != '/' &&
		    !(*p == '.' && (p == rest || p[-1] == '/') && (!p[1] || p[1] == '/')))
			return false;
	return true;
}

/*
 * Open (or create) the next component, and check it as a step on the way;
 * the end of the way gets the stricter check of the state directory itself.
 */
static int step(struct walk *w, const char *name, const char *rest, bool create, char *why,
		size_t whylen)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct stat st;
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", w->done, name);
	if (strcmp(name, "..") == 0) {
		snprintf(why, whylen, "%s: '..' in the path of a state directory: give it without",
			 w->target);
		return -EINVAL;
	}
	fd = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create &&
	    (mkdirat(w->fd, name, 0755) == 0 || errno == EEXIST))
		fd = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (S_ISLNK(st.st_mode))
		r = follow(w, fd, &st, path, rest, why, whylen);
	else if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s: not a directory", path);
		r = -ENOTDIR;
	} else if (!at_end(rest))
		r = check_step(&st, path, w->target, why, whylen);
	else
		r = 0;
	if (r < 0 || S_ISLNK(st.st_mode)) {
		close(fd);
		return r;
	}
	close(w->fd);
	w->fd = fd;
	str_copy(w->done, path, sizeof(w->done));
	return 0;
}

static int walk(struct walk *w, bool create, char *why, size_t whylen)
{
	int r = walk_root(w, why, whylen);

	while (r == 0) {
		char name[NAME_MAX + 1], *p = w->todo + strspn(w->todo, "/");
		size_t len = strcspn(p, "/");

		if (len == 0)
			return 0;
		if (len > NAME_MAX) {
			snprintf(why, whylen, "%s: %s", w->target, strerror(ENAMETOOLONG));
			return -ENAMETOOLONG;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		/* Move the rest to the front first: step() may put a link's target there. */
		memmove(w->todo, p + len, strlen(p + len) + 1);
		if (strcmp(name, ".") != 0)
			r = step(w, name, w->todo, create, why, whylen);
	}
	return r;
}

int statedir_open(const char *path, bool create, char *why, size_t whylen)
{
	char full[PATH_MAX];
	struct walk w = { .fd = -1, .target = full };
	int r = absolute(path, full, sizeof(full)), fd = -1;

	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-r));
		return r;
	}
	str_copy(w.todo, full, sizeof(w.todo));
	r = walk(&w, create, why, whylen);
	/* The end of the way, however it was reached, is the state directory itself. */
	if (r == 0)
		r = statedir_check_fd(w.fd, w.done[0] ? w.done : "/", true, why, whylen);
	if (r == 0 && (fd = openat(w.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		r = -errno;
		snprintf(why, whylen, "%s: %s", full, strerror(errno));
	}
	if (w.fd >= 0)
		close(w.fd);
	return r < 0 ? r : fd;
}

/* Opening name failed with ELOOP or ENOTDIR: say so plainly when it is a symlink. */
static int refuse_link(int dirfd, const char *dirpath, const char *name, int err, char *why,
		       size_t whylen)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
		snprintf(why, whylen,
			 "%s/%s: a symlink inside the state directory: refusing to "
			 "follow it (remove it)",
			 dirpath, name);
		return -ELOOP;
	}
	snprintf(why, whylen, "%s/%s: %s", dirpath, name, strerror(err));
	return -err;
}

/*
 * What openat() of dirpath/name gave (fd, or -1 with errno): the fd once it
 * passed the trust check, else -errno with why (a symlink named as such).
 */
static int checked(int fd, int dirfd, const char *dirpath, const char *name, bool dir, char *why,
		   size_t whylen)
{
	char path[PATH_MAX + NAME_MAX + 2];
	int r;

	if (fd < 0) {
		if (errno == ENOENT) {
			snprintf(why, whylen, "%s/%s: %s", dirpath, name, strerror(ENOENT));
			return -ENOENT;
		}
		return refuse_link(dirfd, dirpath, name, errno, why, whylen);
	}
	snprintf(path, sizeof(path), "%s/%s", dirpath, name);
	r = statedir_check_fd(fd, path, dir, why, whylen);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int statedir_open_sub(int dirfd, const char *dirpath, const char *name, bool create, char *why,
		      size_t whylen)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dirfd, name, flags);

	if (fd < 0 && errno == ENOENT && create &&
	    (mkdirat(dirfd, name, 0755) == 0 || errno == EEXIST))
		fd = openat(dirfd, name, flags);
	return checked(fd, dirfd, dirpath, name, true, why, whylen);
}

int statedir_open_file(int dirfd, const char *dirpath, const char *name, char *why, size_t whylen)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	return checked(fd, dirfd, dirpath, name, false, why, whylen);
}
