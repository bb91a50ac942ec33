// SPDX-License-Identifier: GPL-2.0-or-later
/* Dispatch, numastatctl --help, flushing stdout, exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "report.h"
#include "suggest.h"

/*
 * One screen of 24 rows (23 lines and the prompt): the usage, every command and the options by name
 * (each command's --help explains them, numastatctl(8) has everything).
 */
static void usage(FILE *out)
{
	const struct cmd_option *const options[] = { cmd_global_options, cmd_top_options, NULL };

	fputs("Usage: numastatctl [options] [<command> [<args>]]\n"
	      "Read and tune NUMA statistics and NUMA sysctls.\n"
	      "Commands (without one, numastatctl runs 'status'):\n",
	      out);
	for (const struct cmd *const *c = cmd_table; *c; c++)
		fprintf(out, " %-10s %s\n", (*c)->name, (*c)->summary);
	fputs("\nOptions, before or after the command (a command's --help explains them):\n", out);
	cmd_options_brief(out, options, "; for more details see numastatctl(8).");
}

static const struct cmd *find_command(const char *name)
{
	for (const struct cmd *const *c = cmd_table; *c; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

static void unknown_command(const char *name)
{
	char hint[64];
	struct suggest s;

	suggest_init(&s, name);
	for (const struct cmd *const *c = cmd_table; *c; c++)
		suggest_add(&s, (*c)->name);
	suggest_text(&s, hint, sizeof(hint));
	log_usage_err("unknown command '%s'%s%s", name, hint[0] ? ": " : "", hint);
}

/*
 * The util-linux close_stdout idea: a failed write to stdout is a failure.
 * When the report of a change was lost, the change itself was not: say so,
 * or exit 1 would read as "nothing changed".
 */
static int flush_stdout(int rc, const char *command)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	e = errno ? errno : EIO;
	/* A reader that went away (| head -1) is no news to anyone. */
	if (e != EPIPE) {
		log_set_command(NULL);
		log_err("write error: %s", strerror(e));
	}
	if (report_changes_made()[0]) {
		log_set_command(command);
		log_err("the change was made all the same: %s", report_changes_made());
	}
	return rc ? rc : EXIT_FAIL;
}

/*
 * Started with fd 0, 1 or 2 closed, the first files we open would take
 * their numbers, and a warning would land in the lock file: fill them with
 * /dev/null before anything else is opened.
 */
static void sane_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			_exit(EXIT_FAIL); /* no way to say it: no stderr */
	}
}

int main(int argc, char *argv[])
{
	const struct cmd *cmd = &cmd_status;
	int c;

	sane_std_fds();
	for (;;) {
		c = cmd_getopt_top(argc, argv);
		if (c == -1)
			break;
		if (c == 'h') {
			usage(stdout);
			return flush_stdout(EXIT_OK, NULL);
		}
		if (c == 'V') {
			printf("numastatctl %s\n", PACKAGE_VERSION);
			return flush_stdout(EXIT_OK, NULL);
		}
		return EXIT_USAGE;
	}
	if (optind < argc) {
		cmd = find_command(argv[optind]);
		if (!cmd) {
			unknown_command(argv[optind]);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	optind = 0; /* 0, not 1: getopt re-initialises for the new argv */
	log_set_command(cmd->name);
	if (argc == 0) {
		static char *none[] = { NULL, NULL };

		none[0] = (char *)cmd->name;
		argc = 1;
		argv = none;
	}
	return flush_stdout(cmd->run(argc, argv), cmd->name);
}
