/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the counter table's Prometheus text holds besides the nodes' files:
 * every registry knob and the configured profile against the live system,
 * gathered for stat_prom_write() (stat-views.h).  Problems in the
 * configuration are warned about with --prometheus, not with --textfile
 * alone (a timer would repeat them).  Implemented by stat-exposition.c.
 */
#pragma once

#include <stddef.h>

#include "knob-list.h"
#include "profile.h"
#include "stat-views.h"
#include "stat.h"

#define STAT_EXPOSITION_KNOBS 64

struct stat_exposition {
	struct stat_prom p; /* what stat_prom_write() takes */
	struct stat_knob knobs[STAT_EXPOSITION_KNOBS];
	struct knob_list all;
	struct stat_profile prof;
	char prof_name[PROFILE_NAME_MAX];
};

/* Fill e for the nodes read (kept by pointer); 0. */
int stat_exposition_read(struct stat_exposition *e, const struct stat_opts *o,
			 const struct stat_nodes *nodes);
void stat_exposition_free(struct stat_exposition *e);
