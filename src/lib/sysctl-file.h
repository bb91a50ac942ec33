/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Assignments in sysctl.d(5) syntax, as systemd-sysctl reads them: "key =
 * value" (the key with '.' or '/'), '#' and ';' comment lines, blank lines,
 * "-key = value" (a failure is ignored), "-key" alone (excluded from globs),
 * and globs in keys.  Only the syntax is checked here; `set -f` resolves.
 * Implemented by sysctl-file.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "knobs.h"

struct sysctl_entry {
	char key[KNOB_NAME_MAX];
	char value[KVAL_MAX];
	bool ignore_failure; /* "-key = value" */
	bool exclude;        /* "-key": keep globs off this key */
	unsigned line;
};

struct sysctl_file {
	struct sysctl_entry *v;
	size_t n, cap;
};

/* A sysctl.d file larger than this is a mistake (systemd's are a few KiB). */
#define SYSCTL_FILE_MAX (1 << 20)

/*
 * Parse the whole stream, read first (at most SYSCTL_FILE_MAX bytes).  Every
 * malformed line is reported through on_error(ctx, line, message); returns
 * the number of such lines, or -EFBIG (too large), -ENOMEM or the -errno of
 * a failed read (-EISDIR for a directory), with nothing reported.
 */
int sysctl_file_parse(FILE *f, struct sysctl_file *out,
		      void (*on_error)(void *ctx, unsigned line, const char *msg), void *ctx);
void sysctl_file_free(struct sysctl_file *sf);
