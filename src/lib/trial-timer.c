// SPDX-License-Identifier: GPL-2.0-or-later
/* A trial's armed revert as a transient systemd timer (trial-timer.h). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"
#include "trial-timer.h"

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
		ms = TIMEOUT_MS -
		     ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
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

/*
 * An argument as PID 1 must get it to pass it on unchanged: it expands
 * $NAME and ${NAME} in ExecStart= (systemd 252 has no way to say no), and
 * $$ is its $.  The command's path (argv[0]) is not expanded: systemd-run
 * looks it up as given.  % needs nothing: specifiers are expanded in unit
 * files, and a transient unit's file is written with them escaped.
 */
static char *exec_escape(const char *arg)
{
	size_t n = strlen(arg) + 1;
	char *out, *o;

	for (const char *c = arg; *c; c++)
		n += *c == '$';
	if (!(o = out = malloc(n)))
		return NULL;
	for (const char *c = arg; *c; c++) {
		if (*c == '$')
			*o++ = '$';
		*o++ = *c;
	}
	*o = '\0';
	return out;
}

static int run(char *const argv[], char *why, size_t whylen)
{
	return run_out(argv, NULL, 0, why, whylen);
}

int trial_timer_arm(const char *id, int64_t at_ns, char *const argv[], char *why, size_t whylen)
{
	char unit[TRIAL_TIMER_UNIT_MAX + 16], desc[128], when[64];
	time_t at = (time_t)(at_ns / 1000000000);
	struct tm tm;
	char *args[ARGS_MAX + 12];
	size_t n = 0, first;
	int e = 0;

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
	first = n;
	for (size_t i = 0; i < ARGS_MAX && argv[i]; i++)
		if (!(args[n++] = i ? exec_escape(argv[i]) : argv[i])) {
			snprintf(why, whylen, "%s", strerror(ENOMEM));
			e = -ENOMEM;
			n--;
			break;
		}
	args[n] = NULL;
	if (e == 0)
		e = run(args, why, whylen);
	for (size_t i = first + 1; i < n; i++)
		free(args[i]);
	return e;
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
	long long secs = -1;
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
		else if (strncmp(line, "NextElapseUSecRealtime=@", 24) == 0 &&
			 sscanf(line + 24, "%lld", &secs) != 1)
			secs = -1;
	}
	if (!loaded || !active || secs < 0)
		return 0;
	*next_ns = (int64_t)secs * 1000000000;
	return 1;
}

int trial_timer_boot_unit_again(char *why, size_t whylen)
{
	char *failed[] = { (char *)TRIAL_TIMER_CTL, (char *)"is-failed", (char *)"--quiet",
			   (char *)TRIAL_BOOT_UNIT, NULL };
	char *restart[] = { (char *)TRIAL_TIMER_CTL, (char *)"restart", (char *)"--no-block",
			    (char *)TRIAL_BOOT_UNIT, NULL };
	int r;

	if (!trial_timer_available())
		return 0;
	/* systemctl is-failed: 0 when it failed, 1 when it did not. */
	r = run(failed, why, whylen);
	if (r == -ECHILD && strstr(why, " exited 1"))
		return 0;
	if (r < 0)
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
