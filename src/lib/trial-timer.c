// SPDX-License-Identifier: GPL-2.0-or-later
/* A trial's armed revert as a transient systemd timer (trial-timer.h). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"
#include "timespec.h"
#include "trial-timer.h"
#include "value.h"

/*
 * What starting a process takes, looked up in libc when a trial needs it:
 * imported, each would cost every run of numastatctl its look-up at start
 * (the binary is linked -z now), and only a trial starts a process.
 */
static struct {
	pid_t (*fork)(void);
	int (*execvp)(const char *file, char *const argv[]);
	int (*dup2)(int a, int b);
	int (*pipe2)(int fds[2], int flags);
	pid_t (*waitpid)(pid_t pid, int *status, int options);
	int (*kill)(pid_t pid, int sig);
} proc;

static int resolve(char *why, size_t whylen)
{
	static const char *const names[] = { "fork", "execvp", "dup2", "pipe2", "waitpid", "kill" };
	void *got[6];

	if (proc.kill)
		return 0;
	for (size_t i = 0; i < 6; i++)
		if (!(got[i] = dlsym(RTLD_DEFAULT, names[i]))) {
			snprintf(why, whylen, "libc lacks %s", names[i]);
			return -ENOSYS;
		}
	/* POSIX: a function pointer converts from dlsym()'s void *. */
	*(void **)&proc.fork = got[0];
	*(void **)&proc.execvp = got[1];
	*(void **)&proc.dup2 = got[2];
	*(void **)&proc.pipe2 = got[3];
	*(void **)&proc.waitpid = got[4];
	*(void **)&proc.kill = got[5];
	return 0;
}

bool trial_timer_pid_gone(uint64_t pid)
{
	char why[64];

	return pid && resolve(why, sizeof(why)) == 0 && proc.kill((pid_t)pid, 0) < 0 &&
	       errno == ESRCH;
}

/* systemd-run talks to PID 1 over D-Bus: a hang must not hold the change up for ever. */
#define TIMEOUT_MS 30000
#define ARGS_MAX 64

bool trial_timer_available(void)
{
	int fd = sysfs_open("/run/systemd/system", O_PATH | O_DIRECTORY | O_NOFOLLOW);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

void trial_timer_unit(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, TRIAL_TIMER_PREFIX "%s.timer", id);
}

/* In the child: signals as a fresh process has them, output to the pipe, no input. */
static void child(int out, char *const argv[])
{
	sigset_t none;
	char msg[256];
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), n;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (null < 0 || proc.dup2(null, STDIN_FILENO) < 0 || proc.dup2(out, STDOUT_FILENO) < 0 ||
	    proc.dup2(out, STDERR_FILENO) < 0)
		_exit(127);
	proc.execvp(argv[0], argv);
	n = snprintf(msg, sizeof(msg), "cannot run %s: %s\n", argv[0], strerror(errno));
	if (n > 0 && write(STDERR_FILENO, msg, strnlen(msg, sizeof(msg))) < 0)
		_exit(127);
	_exit(127);
}

/* Its output, up to the room in buf, until it closes the pipe or the time is up. */
static bool collect(int fd, char *buf, size_t len)
{
	struct timespec start, now;
	size_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long ms;
		ssize_t got;
		char scratch[256];

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = TIMEOUT_MS - (long)((timespec_ns(&now) - timespec_ns(&start)) / 1000000);
		if (ms <= 0)
			return false;
		if (poll(&p, 1, (int)ms) < 0 && errno != EINTR)
			return false;
		got = read(fd, n + 1 < len ? buf + n : scratch,
			   n + 1 < len ? len - n - 1 : sizeof(scratch));
		if (got == 0)
			break;
		if (got < 0 && errno != EINTR && errno != EAGAIN)
			break;
		if (got > 0 && n + 1 < len)
			n += (size_t)got;
	}
	buf[n] = '\0';
	return true;
}

/* Run argv, wait for it (bounded): 0, or -errno with its words in why; its output in out. */
static int run_out(char *const argv[], char *out, size_t outlen, char *why, size_t whylen)
{
	char said[512];
	int pipefd[2], status = 0;
	bool in_time;
	pid_t pid;
	int e = resolve(why, whylen);

	if (e < 0)
		return e;
	if (proc.pipe2(pipefd, O_CLOEXEC) < 0) {
		e = errno;
		snprintf(why, whylen, "%s: %s", argv[0], strerror(e));
		return -e;
	}
	pid = proc.fork();
	if (pid == 0)
		child(pipefd[1], argv);
	close(pipefd[1]);
	if (pid < 0) {
		e = errno;
		close(pipefd[0]);
		snprintf(why, whylen, "%s: %s", argv[0], strerror(e));
		return -e;
	}
	in_time = collect(pipefd[0], said, sizeof(said));
	close(pipefd[0]);
	if (!in_time)
		proc.kill(pid, SIGKILL);
	while (proc.waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (out && in_time)
		snprintf(out, outlen, "%s", said);
	said[strcspn(said, "\n")] = '\0';
	if (!in_time) {
		snprintf(why, whylen, "%s did not answer within %d s", argv[0], TIMEOUT_MS / 1000);
		return -ETIMEDOUT;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		snprintf(why, whylen, "%s exited %d%s%s", argv[0], WEXITSTATUS(status),
			 said[0] ? ": " : "", said);
	else
		snprintf(why, whylen, "%s was killed by signal %d", argv[0], WTERMSIG(status));
	return -ECHILD;
}

static int run(char *const argv[], char *why, size_t whylen)
{
	return run_out(argv, NULL, 0, why, whylen);
}

/*
 * An argument PID 1 cannot hand on intact: it expands $NAME in ExecStart=
 * ($$ is its $), and systemd 252 writes the transient unit's file with
 * each $ as \$, which it reads back, at the next daemon-reload, as a
 * backslash and a $ to expand; a backslash of ours is read back as an
 * escape.  % is safe: the file has it as %%.  Spaces and quotes are safe.
 */
static const char *unsafe_arg(char *const argv[])
{
	for (size_t i = 1; i < ARGS_MAX && argv[i]; i++)
		if (strpbrk(argv[i], "$\\"))
			return argv[i];
	return NULL;
}

int trial_timer_arm(const char *id, int64_t at_ns, char *const argv[], char *why, size_t whylen)
{
	char unit[TRIAL_TIMER_UNIT_MAX + 16], desc[128], when[64];
	time_t at = (time_t)(at_ns / 1000000000);
	struct tm tm;
	char *args[ARGS_MAX + 12];
	const char *bad = unsafe_arg(argv);
	size_t n = 0;

	if (bad) {
		snprintf(why, whylen,
			 "'%s' holds '$' or '\\', which systemd does not hand to the revert intact "
			 "(PID 1 expands $, and a daemon-reload reads both back otherwise): use a "
			 "path without them, or --foreground",
			 bad);
		return -EINVAL;
	}
	snprintf(unit, sizeof(unit), "--unit=" TRIAL_TIMER_PREFIX "%s", id);
	snprintf(desc, sizeof(desc), "--description=numastatctl: revert trial %s unless confirmed",
		 id);
	/*
	 * The time the trial was told, on the wall clock: a timer armed
	 * --on-active is armed anew by every daemon-reload on systemd 252
	 * (a package install runs one), one --on-calendar keeps its time.
	 */
	if (!gmtime_r(&at, &tm) ||
	    !strftime(when, sizeof(when), "--on-calendar=%Y-%m-%d %H:%M:%S UTC", &tm)) {
		snprintf(why, whylen, "%s", strerror(EOVERFLOW));
		return -EOVERFLOW;
	}
	args[n++] = (char *)TRIAL_TIMER_RUN;
	args[n++] = (char *)"--quiet";
	/* Unloaded once it ran, failed or not: its output stays in the journal. */
	args[n++] = (char *)"--collect";
	args[n++] = unit;
	args[n++] = desc;
	args[n++] = when;
	/* The default accuracy is a minute: a trial of 20s would last up to 80. */
	args[n++] = (char *)"--timer-property=AccuracySec=1s";
	args[n++] = (char *)"--timer-property=RemainAfterElapse=no";
	args[n++] = (char *)"--";
	for (size_t i = 0; i < ARGS_MAX && argv[i]; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	return run(args, why, whylen);
}

/*
 * A time as systemctl show writes it: "@1796399457" (--timestamp=unix), or
 * in its own format, "Fri 2026-12-04 15:50:57 UTC" (local time but for
 * UTC).  Seconds since the epoch, or -1.
 */
static int64_t elapse_secs(const char *v)
{
	static const struct {
		size_t at, len;
		char after;
	} f[6] = { { 0, 4, '-' },  { 5, 2, '-' },  { 8, 2, ' ' },
		   { 11, 2, ':' }, { 14, 2, ':' }, { 17, 2, ' ' } };
	uint64_t n[6];
	struct tm tm = { 0 };
	const char *d;
	time_t t;

	if (v[0] == '@')
		return parse_u64(v + 1, INT64_MAX / 1000000000, &n[0]) == 0 ? (int64_t)n[0] : -1;
	if (!(d = strchr(v, ' ')) || strlen(++d) < 20)
		return -1;
	for (int i = 0; i < 6; i++) {
		/* Fixed width, leading zeros and all (which parse_u64_n() refuses). */
		n[i] = 0;
		for (size_t k = 0; k < f[i].len; k++) {
			char c = d[f[i].at + k];

			if (c < '0' || c > '9')
				return -1;
			n[i] = n[i] * 10 + (uint64_t)(c - '0');
		}
		if (d[f[i].at + f[i].len] != f[i].after)
			return -1;
	}
	tm.tm_year = (int)n[0] - 1900;
	tm.tm_mon = (int)n[1] - 1;
	tm.tm_mday = (int)n[2];
	tm.tm_hour = (int)n[3];
	tm.tm_min = (int)n[4];
	tm.tm_sec = (int)n[5];
	tm.tm_isdst = -1;
	t = strcmp(d + 20, "UTC") == 0 ? timegm(&tm) : mktime(&tm);
	return t == (time_t)-1 ? -1 : (int64_t)t;
}

int trial_timer_next(const char *id, int64_t *next_ns, char *why, size_t whylen)
{
	char unit[TRIAL_TIMER_UNIT_MAX], out[512];
	char *args[] = { (char *)TRIAL_TIMER_CTL,
			 (char *)"show",
			 (char *)"--timestamp=unix",
			 (char *)"-p",
			 (char *)"LoadState",
			 (char *)"-p",
			 (char *)"ActiveState",
			 (char *)"-p",
			 (char *)"NextElapseUSecRealtime",
			 unit,
			 NULL };
	bool loaded = false, active = false;
	int64_t secs = -1;
	int r;

	trial_timer_unit(id, unit, sizeof(unit));
	out[0] = '\0';
	if ((r = run_out(args, out, sizeof(out), why, whylen)) < 0)
		return r;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (strcmp(line, "LoadState=loaded") == 0)
			loaded = true;
		else if (strcmp(line, "ActiveState=active") == 0)
			active = true;
		else if (strncmp(line, "NextElapseUSecRealtime=", 23) == 0)
			secs = elapse_secs(line + 23);
	}
	if (!loaded || !active)
		return 0;
	if (secs < 0)
		return 2;
	*next_ns = (int64_t)secs * 1000000000;
	return 1;
}

int trial_timer_boot_unit_failed(char *why, size_t whylen)
{
	char *failed[] = { (char *)TRIAL_TIMER_CTL, (char *)"is-failed", (char *)"--quiet",
			   (char *)TRIAL_BOOT_UNIT, NULL };
	int r;

	if (!trial_timer_available())
		return 0;
	/* systemctl is-failed: 0 when it failed, 1 when it did not. */
	r = run(failed, why, whylen);
	if (r == -ECHILD && strstr(why, " exited 1"))
		return 0;
	return r < 0 ? r : 1;
}

int trial_timer_boot_unit_again(char *why, size_t whylen)
{
	char *restart[] = { (char *)TRIAL_TIMER_CTL, (char *)"restart", (char *)"--no-block",
			    (char *)TRIAL_BOOT_UNIT, NULL };
	int r = trial_timer_boot_unit_failed(why, whylen);

	if (r <= 0)
		return r;
	r = run(restart, why, whylen);
	return r < 0 ? r : 1;
}

int trial_timer_disarm(const char *id, char *why, size_t whylen)
{
	char unit[TRIAL_TIMER_UNIT_MAX + 16];
	char *args[] = { (char *)TRIAL_TIMER_CTL, (char *)"stop", (char *)"--quiet", unit, NULL };
	int r;

	trial_timer_unit(id, unit, sizeof(unit));
	r = run(args, why, whylen);
	/* systemctl: 5 is "unit not loaded", a timer that elapsed or was stopped already. */
	if (r == -ECHILD && strstr(why, " exited 5") != NULL)
		return 0;
	return r;
}
