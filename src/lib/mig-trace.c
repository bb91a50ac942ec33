// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace instance that counts migrations by reason (mig-trace.h).
 * Order matters for cleanup: the instance is made before the trigger is
 * armed, and the trigger removed before the instance, so that whatever
 * step fails, what exists is one rmdir away from gone; a run killed
 * between the two leaves an instance named by its PID, which the next run
 * removes (mig_trace_leftovers()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mig-trace.h"
#include "sysfs.h"
#include "timespec.h"
#include "value.h"

/*
 * A PID's process started this many seconds after an instance named by it
 * was made: another process has the PID (more than a clock step or the
 * rounding of uptime and ticks).
 */
#define REUSE_MARGIN 2.0

/* The hist file of a few dozen reasons: a few kB. */
#define HIST_BUF 32768

static int read_format(struct mig_format *f, char *why, size_t whylen)
{
	char buf[8192];
	char r_why[160];
	ssize_t n = sysfs_read_file(MIG_TRACE_DIR "/" MIG_TRACE_EVENT "/format", buf, sizeof(buf));

	if (n == -ENOENT) {
		/* An unmounted tracefs is an empty directory. */
		bool mounted = sysfs_open(MIG_TRACE_DIR "/events", O_PATH | O_DIRECTORY) >= 0;

		snprintf(why, whylen, "%s",
			 mounted ? MIG_TRACE_DIR ": no migrate:mm_migrate_pages event in this "
						 "kernel"
				 : "tracefs is not mounted at " MIG_TRACE_DIR);
		return MIG_TRACE_NO_TRACEFS;
	}
	if (n == -EACCES || n == -EPERM) {
		snprintf(why, whylen, MIG_TRACE_DIR ": permission denied (root only)");
		return MIG_TRACE_NO_ROOT;
	}
	if (n < 0) {
		snprintf(why, whylen, MIG_TRACE_DIR "/" MIG_TRACE_EVENT "/format: %s",
			 sysfs_strerror((int)n));
		return MIG_TRACE_FAILED;
	}
	if (mig_reason_parse_format(buf, (size_t)n, f, r_why, sizeof(r_why)) < 0) {
		snprintf(why, whylen, MIG_TRACE_EVENT "/format: %s", r_why);
		return MIG_TRACE_FAILED;
	}
	return 0;
}

/* Histogram triggers give every event a hist file (CONFIG_HIST_TRIGGERS). */
static bool have_hist(void)
{
	int fd = sysfs_open(MIG_TRACE_DIR "/" MIG_TRACE_EVENT "/hist", O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void event_path(const struct mig_trace *t, const char *file, char *buf, size_t size)
{
	snprintf(buf, size, "%s/" MIG_TRACE_EVENT "/%s", t->dir, file);
}

static int make_instance(struct mig_trace *t, char *why, size_t whylen)
{
	int r = sysfs_mkdir(t->dir);

	if (r == -EACCES || r == -EPERM) {
		snprintf(why, whylen,
			 "%s: cannot make a trace instance: permission denied (root "
			 "only)",
			 t->dir);
		return MIG_TRACE_NO_ROOT;
	}
	if (r < 0) {
		snprintf(why, whylen, "%s: cannot make a trace instance: %s", t->dir,
			 sysfs_strerror(r));
		return MIG_TRACE_FAILED;
	}
	t->made = true;
	return 0;
}

/* The last line of the instance's error_log: tracefs's own words on a refused command. */
static void kernel_said(const struct mig_trace *t, char *said, size_t size)
{
	char path[160], buf[4096], *last = NULL;
	ssize_t n;

	said[0] = '\0';
	snprintf(path, sizeof(path), "%s/error_log", t->dir);
	n = sysfs_read_file(path, buf, sizeof(buf));
	if (n <= 0)
		return;
	/*
	 * "[  12.3] hist:migrate:mm_migrate_pages: error: Couldn't find field",
	 * then the command and a caret: the last "error: " is the newest.
	 */
	for (char *p = buf; (p = strstr(p, "error: ")); p++)
		last = p + 7;
	if (last)
		snprintf(said, size, "%.*s", (int)strcspn(last, "\n"), last);
}

static int arm(struct mig_trace *t, char *why, size_t whylen)
{
	char path[256], line[MIG_TRIGGER_MAX + 2], cmd[MIG_TRIGGER_MAX];
	int r;

	event_path(t, "trigger", path, sizeof(path));
	for (size_t i = 0; (r = mig_reason_trigger(&t->fmt, i, cmd, sizeof(cmd))) > 0; i++) {
		snprintf(line, sizeof(line), "%s\n", cmd);
		r = sysfs_append_file(path, line, strlen(line));
		if (r < 0) {
			char said[160];

			kernel_said(t, said, sizeof(said));
			snprintf(why, whylen, "%s: '%s' refused: %s%s%s", path, cmd,
				 sysfs_strerror(r), said[0] ? ": " : "", said);
			return MIG_TRACE_FAILED;
		}
		memcpy(t->trigger[t->ntrig++], cmd, sizeof(cmd));
	}
	if (r < 0) {
		snprintf(why, whylen, "the trigger does not fit");
		return MIG_TRACE_FAILED;
	}
	event_path(t, "hist", path, sizeof(path));
	t->hist_fd = sysfs_open(path, O_RDONLY);
	if (t->hist_fd < 0) {
		snprintf(why, whylen, "%s: %s", path, sysfs_strerror(t->hist_fd));
		return MIG_TRACE_FAILED;
	}
	return 0;
}

int mig_trace_open(struct mig_trace *t, pid_t pid, char *why, size_t whylen)
{
	int r;

	*t = (struct mig_trace){ .hist_fd = -1 };
	snprintf(t->dir, sizeof(t->dir), MIG_TRACE_INSTANCES "/" MIG_TRACE_PREFIX "%ld", (long)pid);
	if ((r = read_format(&t->fmt, why, whylen)) != 0)
		return r;
	if (!have_hist()) {
		snprintf(why, whylen,
			 "this kernel has no histogram triggers (CONFIG_HIST_TRIGGERS)");
		return MIG_TRACE_NO_HIST;
	}
	t->buf = malloc(HIST_BUF);
	if (!t->buf) {
		snprintf(why, whylen, "out of memory");
		return MIG_TRACE_FAILED;
	}
	if ((r = make_instance(t, why, whylen)) != 0)
		return r;
	return arm(t, why, whylen);
}

int mig_trace_read(struct mig_trace *t, struct mig_hist *h, char *why, size_t whylen)
{
	char p_why[160];
	ssize_t n = sysfs_pread_fd(t->hist_fd, t->buf, HIST_BUF);

	if (n < 0) {
		snprintf(why, whylen, "%s/" MIG_TRACE_EVENT "/hist: %s", t->dir,
			 sysfs_strerror((int)n));
		return (int)n;
	}
	if (mig_reason_parse_hist(t->buf, (size_t)n, h, p_why, sizeof(p_why)) < 0) {
		snprintf(why, whylen, "%s/" MIG_TRACE_EVENT "/hist: %s", t->dir, p_why);
		return -EBADMSG;
	}
	return 0;
}

/* "!" + each trigger removes it, newest first; rmdir removes the instance. */
static int remove_instance(const char *dir, char (*trigger)[MIG_TRIGGER_MAX], size_t n)
{
	char path[256], undo[MIG_TRIGGER_MAX + 2];

	snprintf(path, sizeof(path), "%s/" MIG_TRACE_EVENT "/trigger", dir);
	while (n--) {
		snprintf(undo, sizeof(undo), "!%s\n", trigger[n]);
		/* Best effort: rmdir clears an instance's triggers too. */
		(void)sysfs_append_file(path, undo, strlen(undo));
	}
	return sysfs_rmdir(dir);
}

int mig_trace_close(struct mig_trace *t, char *why, size_t whylen)
{
	int r = 0;

	if (t->hist_fd >= 0)
		close(t->hist_fd);
	t->hist_fd = -1;
	if (t->made && (r = remove_instance(t->dir, t->trigger, t->ntrig)) < 0)
		snprintf(why, whylen, "%s: cannot remove the trace instance: %s", t->dir,
			 sysfs_strerror(r));
	t->made = false;
	t->ntrig = 0;
	free(t->buf);
	t->buf = NULL;
	return r;
}

/* name is MIG_TRACE_PREFIX and a PID that is not self: its PID, else 0. */
static long ours(const char *name, pid_t self)
{
	size_t plen = strlen(MIG_TRACE_PREFIX);
	uint64_t pid;

	if (strncmp(name, MIG_TRACE_PREFIX, plen) != 0 ||
	    parse_u64(name + plen, 1u << 22, &pid) < 0 || pid == 0 || (pid_t)pid == self)
		return 0;
	return (long)pid;
}

/*
 * Seconds since boot when process pid started (/proc/PID/stat's 22nd
 * field, in clock ticks), or -1 when it cannot be read.
 */
static double started(long pid)
{
	char path[32], buf[1024];
	const char *p;
	ssize_t n;
	uint64_t ticks;
	long hz = sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	n = sysfs_read_file(path, buf, sizeof(buf));
	/* The name in parentheses may hold anything: the fields follow its last ')'. */
	if (n <= 0 || hz <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	/* p: the space before field 3 (state), then before 4, ... up to 22. */
	for (int field = 3; field <= 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || parse_u64_n(p + 1, strcspn(p + 1, " \n"), UINT64_MAX, &ticks) < 0)
		return -1;
	return (double)ticks / (double)hz;
}

/* Seconds since boot when the instance dir was made (its mtime), or -1. */
static double made_at(const char *dir)
{
	char buf[64], *end;
	struct timespec now;
	struct stat st;
	double uptime;
	int fd = sysfs_open(dir, O_PATH | O_DIRECTORY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	if (sysfs_read_file("/proc/uptime", buf, sizeof(buf)) <= 0)
		return -1;
	uptime = strtod(buf, &end);
	if (end == buf || clock_gettime(CLOCK_REALTIME, &now) < 0)
		return -1;
	return uptime - (double)(timespec_ns(&now) - timespec_ns(&st.st_mtim)) / 1e9;
}

/*
 * Whether the run that made instance dir (named by pid) may still run:
 * /proc/PID is there and its process did not start after the instance
 * was made (with a margin for a clock set since).  Unsure is yes.
 */
static bool maker_runs(long pid, const char *dir, bool *reused)
{
	char path[32];
	double start, made;
	int fd;

	*reused = false;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	fd = sysfs_open(path, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd != -ENOENT;
	close(fd);
	start = started(pid);
	made = made_at(dir);
	*reused = start >= 0 && made >= 0 && start > made + REUSE_MARGIN;
	return !*reused;
}

int mig_trace_leftovers(pid_t self, struct mig_leftover *found, size_t cap, size_t *failed)
{
	struct mig_format f;
	char trigger[MIG_TRIGGERS_MAX][MIG_TRIGGER_MAX], dir[128], why[160];
	size_t ntrig = 0;
	DIR *d = sysfs_opendir(MIG_TRACE_INSTANCES);
	struct dirent *e;
	size_t n = 0;

	*failed = 0;
	if (!d)
		return errno == ENOENT || errno == EACCES ? 0 : -errno;
	/* The triggers a run of ours on this kernel armed, to take them out first. */
	if (read_format(&f, why, sizeof(why)) == 0)
		while (ntrig < MIG_TRIGGERS_MAX &&
		       mig_reason_trigger(&f, ntrig, trigger[ntrig], MIG_TRIGGER_MAX) > 0)
			ntrig++;
	while ((e = readdir(d)) && n < cap) {
		long pid = ours(e->d_name, self);
		bool reused;

		if (!pid)
			continue;
		snprintf(dir, sizeof(dir), MIG_TRACE_INSTANCES "/%.31s", e->d_name);
		if (maker_runs(pid, dir, &reused))
			continue;
		found[n].reused = reused;
		snprintf(found[n++].name, sizeof(found->name), "%.31s",
			 e->d_name); /* ours(): ≤ 19 */
	}
	closedir(d);
	/* Removed after the listing: a directory is not changed under readdir(). */
	for (size_t i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), MIG_TRACE_INSTANCES "/%s", found[i].name);
		if (remove_instance(dir, trigger, ntrig) < 0)
			(*failed)++;
	}
	return (int)n;
}
