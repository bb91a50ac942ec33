/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

#include "stat.h"

/*
 * stat --prometheus / --textfile on the nodes ids: read the nodes, every
 * registry knob and the configured profile's drift, then print the text
 * and/or write DIR/numastatctl.prom atomically.  Prints its own messages;
 * returns an EXIT_* code.
 */
int stat_prom_run(const struct stat_opts *o, const unsigned *ids, size_t n);
