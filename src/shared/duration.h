/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time spans as an administrator types them, after systemd.time(7): a
 * whole number of seconds ("90"), or whole numbers each followed by a unit
 * ("20s", "5m", "1h30m"): s, sec, second, seconds; m, min, minute,
 * minutes; h, hr, hour, hours.  No fractions, signs, spaces or exponents:
 * one spelling a reader cannot misread.  Implemented by duration.c.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Longest text duration_format() writes, with its NUL ("9999999h59m59s"). */
#define DURATION_TEXT_MAX 24

/*
 * s into *secs, which must lie in [min, max] seconds.  0, or -EINVAL (not
 * a duration) / -ERANGE (outside the bounds) with why ("'1e9': not a
 * duration: ...", "'0': less than 5s"): the text names s, not an option.
 */
int duration_parse(const char *s, uint64_t min, uint64_t max, uint64_t *secs, char *why,
		   size_t whylen);

/* secs as "1h30m", "20s", "0s": the largest units, none of them zero. */
void duration_format(uint64_t secs, char *buf, size_t len);
