/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first processor's lines of /proc/cpuinfo: what advise and the node
 * classes ask of it (vendor, family, flags).  Implemented by cpuinfo.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Room for the first processor's block: its flags line is the longest. */
#define CPUINFO_FIRST_MAX 8192

/*
 * The beginning of /proc/cpuinfo into buf (NUL-terminated): a large
 * machine's whole file is far longer, and the first block is what is asked.
 * Returns the length or -errno.
 */
ssize_t cpuinfo_first_read(char *buf, size_t size);
/* The value of "key\t: value" in the first processor's block of text. */
bool cpuinfo_value(const char *text, const char *key, char *out, size_t len);
/* Whether the first processor's flags line holds the word flag. */
bool cpuinfo_has_flag(const char *text, const char *flag);
