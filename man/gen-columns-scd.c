// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the "stat columns" list of numastatctl(8) in scdoc from
 * stat_columns[], so the page lists exactly the columns the binary has, each
 * with how it is computed and its JSON key.
 */
#include <stdio.h>

#include "nodes.h"
#include "scd.h"
#include "stat.h"

static void put_counter(enum numastat_key k)
{
	putchar('*');
	put_escaped(numastat_keys[k]);
	putchar('*');
}

/* What the column holds, as stat_value() computes it (a percentage's help is its formula). */
static void put_how(const struct stat_coldesc *d)
{
	switch (d->kind) {
	case STAT_KIND_NODE:
		put_sentence(d->help);
		fputs(" *TOTAL* on the sum row.", stdout);
		break;
	case STAT_KIND_COUNT:
		put_sentence(d->help);
		fputs(" The kernel's counter ", stdout);
		put_counter(d->counter);
		fputs(".", stdout);
		break;
	case STAT_KIND_PCT:
		fputs("The share ", stdout);
		put_counter(d->counter);
		fputs(" / (", stdout);
		put_counter(d->counter);
		fputs(" + ", stdout);
		put_counter(d->other);
		fputs(") in percent, one decimal; empty (JSON null) when both are 0.", stdout);
		break;
	default:
		break;
	}
}

static void put_column(const struct stat_coldesc *d)
{
	putchar('*');
	put_escaped(d->name);
	fputs("*\n\t", stdout);
	put_how(d);
	fputs(" JSON: *", stdout);
	put_escaped(d->json);
	fputs(d->by_default ? "*. Shown by default.\n\n" : "*.\n\n", stdout);
}

int main(void)
{
	for (int i = 0; i < SCOL_COUNT; i++)
		put_column(&stat_columns[i]);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
