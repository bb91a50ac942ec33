/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus text exposition format (prometheus.io, "Exposition
 * formats"), which is written by hand: every family's HELP and TYPE lines
 * and every label value of every exposition go through here, so what a
 * scraper reads is escaped in one place.  Implemented by prom.c.
 */
#pragma once

#include <stdio.h>

/* "# HELP name help" and "# TYPE name type" (counter, gauge). */
void prom_family(FILE *f, const char *name, const char *type, const char *help);
/* A label value, without its quotes: backslash, double quote and newline escaped. */
void prom_label_value(FILE *f, const char *s);
