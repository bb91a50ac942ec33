/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval mode of the counter table (stat INTERVAL [COUNT]): every node's
 * numastat kept open and pread once per sample, nodes followed as they come
 * and go, each sample as vmstat lines, a folded table or a line of JSON.
 * The counter view's sample() and print() (stat-view-counters.c).
 * Implemented by stat-sampler.c.
 */
#pragma once

#include "stat-view.h"
#include "stat.h"

struct stat_sampler;
/* Check o for interval mode and find the nodes; EXIT_OK or an exit code after a message. */
int stat_sampler_setup(struct stat_sampler **sp, const struct stat_opts *o);
/* EXIT_OK, or EXIT_FAIL when a node could not be read (said once per streak). */
int stat_sampler_sample(struct stat_sampler *s, double secs, enum stat_sample how);
/* A sample or the totals; 0 or -errno (said, but for -EIO: stdout). */
int stat_sampler_print(struct stat_sampler *s, const struct stat_loop_info *in);
void stat_sampler_free(struct stat_sampler *s);
