// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "log.h"
#include "wrap.h"

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

/*
 * The formatted text, escaped (escape.h), to f.  No allocation for the usual
 * message: under a memory limit the error that says so must still get out.
 */
__attribute__((format(printf, 3, 0))) static void vput_escaped(FILE *f, unsigned flags,
							       const char *fmt, va_list ap)
{
	char buf[8192], *big = NULL;
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && vasprintf(&big, fmt, copy) < 0)
		big = NULL; /* the cut text is better than none */
	va_end(copy);
	if (n >= 0)
		escape_fputs(big ? big : buf, f, flags);
	free(big);
}

/*
 * On a terminal, the message folded at spaces to its width from column col,
 * continuation lines indented by 2; false when stderr is no terminal or
 * memory is short (then the caller prints it as one line).
 */
__attribute__((format(printf, 2, 0))) static bool vput_folded(size_t col, const char *fmt,
							      va_list ap)
{
	size_t width = wrap_width(STDERR_FILENO), len;
	char *text = NULL, *esc;
	bool done = false;

	if (!width || vasprintf(&text, fmt, ap) < 0)
		return false;
	len = strlen(text);
	esc = malloc(4 * len + 1);
	if (esc) {
		wrap_fputs(stderr, escape_text(text, esc, 4 * len + 1, 0), col, 2, width);
		done = true;
	}
	free(esc);
	free(text);
	return done;
}

__attribute__((format(printf, 2, 0))) static void vlog(const char *kind, const char *fmt,
						       va_list ap)
{
	va_list copy;
	int col;

	/* stdout may hold earlier results; keep the streams in order on a tty. */
	fflush(stdout);
	col = fprintf(stderr, "numastatctl: %s%s%s", command ? command : "", command ? ": " : "",
		      kind ? kind : "");
	/* One line: a newline in a file name must not start a forged message. */
	va_copy(copy, ap);
	if (!vput_folded(col > 0 ? (size_t)col : 0, fmt, copy))
		vput_escaped(stderr, 0, fmt, ap);
	va_end(copy);
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
	vput_escaped(stdout, ESCAPE_KEEP_NEWLINE | ESCAPE_KEEP_TAB, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 3, 0))) static void vinfo_wrapped(size_t width, size_t indent,
								const char *fmt, va_list ap)
{
	char *text = NULL, *esc;
	size_t len;

	if (quiet || vasprintf(&text, fmt, ap) < 0)
		return;
	len = strlen(text);
	/* At most 4 bytes for each byte (escape.h); a control character never wraps. */
	esc = malloc(4 * len + 1);
	if (esc) {
		wrap_fputs(stdout, escape_text(text, esc, 4 * len + 1, 0), 0, indent, width);
		fputc('\n', stdout);
	}
	free(esc);
	free(text);
}

void log_info_wrapped(size_t width, size_t indent, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinfo_wrapped(width, indent, fmt, ap);
	va_end(ap);
}

void log_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinfo_wrapped(wrap_width(STDOUT_FILENO), 2, fmt, ap);
	va_end(ap);
}

void log_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NULL, fmt, ap);
	va_end(ap);
	/* A command's usage error points at that command's options. */
	if (command)
		fprintf(stderr, "Try 'numastatctl %s --help' for more information.\n", command);
	else
		fputs("Try 'numastatctl --help' for more information.\n", stderr);
}
