// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stand-in for tracefs in a fixture tree, for the CLI tests of stat
 * --migration-reasons: tracefs fills a new instance directory with its
 * event files and removes it whole on rmdir(2), which a plain directory
 * does not.  With FAKE_TRACEFS=TEMPLATE, a mkdirat(2) under a directory
 * named ".../sys/kernel/tracing/instances" copies TEMPLATE into the new
 * directory, and unlinkat(AT_REMOVEDIR) there removes its contents first.
 * FAKE_TRACEFS_LOG=FILE gets one line per instance made or removed, and
 * before a removal the last line of the instance's migrate trigger file
 * ("trigger !hist:...": the trigger was taken out first).  A
 * test helper only: never linked into or installed with numastatctl.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*mkdirat_fn)(int, const char *, mode_t);
typedef int (*unlinkat_fn)(int, const char *, int);

extern char **environ;
int mkdirat(int dirfd, const char *name, mode_t mode);
int unlinkat(int dirfd, const char *name, int flags);

static const char instances[] = "/sys/kernel/tracing/instances";

/* The instance directory dirfd/name, when dirfd is a fixture's instances. */
static bool instance_path(int dirfd, const char *name, char *out, size_t size)
{
	char link[64], dir[PATH_MAX];
	ssize_t n;
	size_t len, il = sizeof(instances) - 1;

	if (!getenv("FAKE_TRACEFS") || strchr(name, '/'))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
	n = readlink(link, dir, sizeof(dir) - 1);
	if (n < 0)
		return false;
	dir[n] = '\0';
	len = (size_t)n;
	if (len < il || strcmp(dir + len - il, instances) != 0)
		return false;
	return snprintf(out, size, "%s/%s", dir, name) < (int)size;
}

static void log_line(const char *what, const char *name)
{
	const char *file = getenv("FAKE_TRACEFS_LOG");
	FILE *f = file ? fopen(file, "a") : NULL;

	if (f) {
		fprintf(f, "%s %s\n", what, name);
		fclose(f);
	}
}

/* The last line of an instance's migrate trigger file, into the log. */
static void log_trigger(const char *dir)
{
	char file[PATH_MAX + 64], line[512], last[512] = "";
	FILE *f;

	snprintf(file, sizeof(file), "%s/events/migrate/mm_migrate_pages/trigger", dir);
	f = fopen(file, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		memcpy(last, line, sizeof(last));
	fclose(f);
	last[strcspn(last, "\n")] = '\0';
	log_line("trigger", last);
}

/* A command run without a shell (posix_spawnp), waited for. */
static int run(char *const argv[])
{
	int status;
	pid_t pid;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0)
		return -1;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int mkdirat(int dirfd, const char *name, mode_t mode)
{
	mkdirat_fn real = (mkdirat_fn)dlsym(RTLD_NEXT, "mkdirat");
	char path[PATH_MAX];
	int r = real(dirfd, name, mode);

	if (r == 0 && instance_path(dirfd, name, path, sizeof(path))) {
		char from[PATH_MAX + 4];
		char cp[] = "cp", rec[] = "-R";
		char *argv[] = { cp, rec, from, path, NULL };

		/* TEMPLATE/.: the template's contents, not itself. */
		snprintf(from, sizeof(from), "%s/.", getenv("FAKE_TRACEFS"));
		run(argv);
		log_line("made", name);
	}
	return r;
}

int unlinkat(int dirfd, const char *name, int flags)
{
	unlinkat_fn real = (unlinkat_fn)dlsym(RTLD_NEXT, "unlinkat");
	char path[PATH_MAX];

	if ((flags & AT_REMOVEDIR) && instance_path(dirfd, name, path, sizeof(path))) {
		char find[] = "find", min[] = "-mindepth", one[] = "1", del[] = "-delete";
		char *argv[] = { find, path, min, one, del, NULL };

		log_trigger(path);
		run(argv);
		log_line("removed", name);
	}
	return real(dirfd, name, flags);
}
