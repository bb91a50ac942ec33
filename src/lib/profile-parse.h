/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the profile loader: profile-read.c finds the files and feeds their
 * lines through inih; profile.c turns sections and assignments into the
 * model and checks them.  Not for use outside profile*.c.
 * Implemented by profile.c.
 */
#pragma once

#include <stdarg.h>

#include "profile.h"

/* Section ids besides profile indexes (>= 0). */
enum {
	SEC_NONE = -1,   /* before the first header */
	SEC_BROKEN = -2, /* a header with an error: its keys are ignored */
	SEC_MAIN = -3,   /* [numastatctl] */
};

/* Record "FILE:LINE: [section]: problem" (line 0: "FILE: problem"). */
void profile_parse_error(struct profile_config *c, struct cfg_at at, int section, const char *fmt,
			 ...) __attribute__((format(printf, 4, 5)));
/* Record "PATH: problem" about a file or directory as a whole. */
void profile_parse_error_path(struct profile_config *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Errors in file, then line order (checks after loading add theirs at the end). */
void profile_parse_sort_errors(struct profile_config *c);
/* The text between '[' and ']' (untrimmed): a section id, or SEC_BROKEN after an error. */
int profile_parse_section(struct profile_config *c, struct cfg_at at, const char *text);
/* One assignment, continuation lines already joined. */
void profile_parse_assign(struct profile_config *c, struct cfg_at at, int section, const char *key,
			  const char *value);
/* Checks that need every file: includes, loops, the default profile. */
void profile_parse_finish(struct profile_config *c);
/* Append a path to c->files; its index, or -ENOMEM. */
int profile_parse_add_file(struct profile_config *c, const char *path);
