// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

static const char *command;
static bool quiet;

void log_set_command(const char *name)
{
	command = name;
}

void log_set_quiet(bool q)
{
	quiet = q;
}

bool log_is_quiet(void)
{
	return quiet;
}

static void vlog(const char *kind, const char *fmt, va_list ap)
{
	/* stdout may hold earlier results; keep the streams in order on a tty. */
	fflush(stdout);
	fputs("numastatctl: ", stderr);
	if (command)
		fprintf(stderr, "%s: ", command);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NULL, fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void log_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NULL, fmt, ap);
	va_end(ap);
	fputs("Try 'numastatctl --help' for more information.\n", stderr);
}
