/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages: "numastatctl: <command>: <object>: <problem>", one line each.
 * Implemented by log.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The command name that prefixes every message ("set", "stat"); NULL for none. */
void log_set_command(const char *name);
/* -q: suppress log_info(); errors and warnings still go to stderr. */
void log_set_quiet(bool quiet);
bool log_is_quiet(void);

/*
 * Messages and log_info() text are escaped on the way out (escape.h): a
 * control character in a file or process name never reaches the terminal.
 */

/* "numastatctl: <cmd>: <text>" on stderr. */
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "numastatctl: <cmd>: warning: <text>" on stderr. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Plain text on stdout unless -q. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * One line of text (no newline in it) on stdout unless -q, folded at spaces
 * to width (wrap.h: 0, one line as it is), continuation lines indented by
 * indent; the newline is added.
 */
void log_info_wrapped(size_t width, size_t indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The same at the width of the terminal on stdout (wrap.h), continuation
 * lines indented by 2: a message line that may be longer than 80 columns.
 */
void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The usage-error line pair: the message, then "Try 'numastatctl COMMAND
 * --help' ..." (without a command: "Try 'numastatctl --help' ...").
 */
void log_usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
