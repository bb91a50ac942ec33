/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus text exposition format (prometheus.io, "Exposition
 * formats"), which is written by hand: every family's HELP and TYPE lines
 * and every label value of every exposition go through here, so what a
 * scraper reads is escaped in one place.  Implemented by prom.c.
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "str-index.h"

/* "# HELP name help" and "# TYPE name type" (counter, gauge). */
void prom_family(FILE *f, const char *name, const char *type, const char *help);
/* A label value, without its quotes: backslash, double quote and newline escaped. */
void prom_label_value(FILE *f, const char *s);

/*
 * What one Prometheus text may hold: at most max series, each set of
 * series (a target: a cgroup, a container, the processes of a --pid
 * argument) once, and no two sets whose label values are written the same
 * (escaping is not one-to-one: a name holding the byte ESC and one holding
 * the text "\x1b" are both written \\x1b).  Every selector's targets ask
 * here before their series are written.
 */
struct prom_budget {
	size_t max, used;
	size_t left_out; /* targets refused for room */
	size_t clashes;  /* targets refused for labels another's are written as */
	char **raw;      /* "label=value" as given, of each target taken */
	char **text;     /* the same as written */
	size_t n, cap;
	struct str_index raw_index, text_index;
};

enum prom_take {
	PROM_TAKEN, /* room for its series: write them */
	PROM_AGAIN, /* this very target is taken already: one target given twice is one */
	PROM_CLASH, /* another target's labels are written the same: left out */
	PROM_FULL,  /* no room for its series: left out */
};

/*
 * Room for a target of series series whose label label has value value: an
 * enum prom_take, or -ENOMEM.  Counts what it refuses.
 */
int prom_budget_take(struct prom_budget *b, const char *label, const char *value, size_t series);
void prom_budget_free(struct prom_budget *b);
