/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A command line an administrator can paste into a root shell: each word
 * of argv comes back as exactly that word, whatever it holds.  A word is
 * written bare when it is only [A-Za-z0-9_@%+=:,./-], in single quotes
 * (' as '\'') when it holds nothing a terminal would act on or hide, and
 * otherwise in bash's $'...' with \xNN for every byte of a control
 * character (C0, DEL, C1), a bidi or zero-width mark, invalid UTF-8 and
 * every other byte above 0x7f, so the bytes are exact in any locale and no
 * raw control byte or reordering mark reaches the terminal.  A command is
 * whole or not at all: no cut word ever runs.  Implemented by
 * shell-quote.c.
 */
#pragma once

#include <stddef.h>

/*
 * The NULL-terminated argv as one command line in buf[len] (NUL-terminated);
 * returns its length, or -ENOSPC when it does not fit (buf is then "").
 */
int shell_quote_argv(const char *const argv[], char *buf, size_t len);
/*
 * One word quoted as shell_quote_argv() quotes an argument (never bare
 * when it would be taken as something else: empty, a '=' or '%' first
 * word is for shell_quote_argv() to judge); returns its length or -ENOSPC.
 */
int shell_quote_word(const char *word, char *buf, size_t len);
