// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the KNOBS section of numastatctl(8) in scdoc from knob_table, so
 * the page describes exactly the registry the binary was built with.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"
#include "scd.h"

static void put_words(const struct knob *k)
{
	for (const struct knob_word *w = k->words; w && w->name; w++) {
		fputs("\t- ", stdout);
		if (k->type == KNOB_BITMASK)
			printf("*%" PRId64 "* or ", w->value);
		putchar('*');
		put_escaped(w->name);
		fputs("*: ", stdout);
		put_escaped(w->help);
		putchar('\n');
	}
	if (k->words)
		putchar('\n');
}

static void put_flags(const struct knob *k)
{
	if (k->flags & KNOB_F_DEPRECATED)
		puts("\tDeprecated: the kernel accepts writes and ignores them.\n");
	if (k->flags & KNOB_F_NEEDS_CAP)
		puts("\tWriting it needs CAP\\_SYS\\_ADMIN, not only write access to the file.\n");
	if (k->flags & KNOB_F_NO_FLIP)
		puts("\t*bench* refuses it: it is not safe to flip repeatedly.\n");
	if (k->flags & KNOB_F_PER_NODE)
		puts("\tOne knob per node: _N_ is a node id (*node0*, *node12*), for the nodes "
		     "whose file this kernel has; *knobs* lists them.\n");
	if (k->flags & KNOB_F_READS_WORDS)
		puts("\tThe kernel reads it back as *true* or *false*; *get* prints that.\n");
}

static void put_knob(const struct knob *k)
{
	char allowed[512];

	knob_allowed(k, allowed, sizeof(allowed));
	putchar('*');
	put_escaped(k->name);
	fputs("*\n\t", stdout);
	put_sentence(k->help);
	fputs("\n\n\tType: ", stdout);
	fputs(knob_type_name(k->type), stdout);
	fputs(". Values: ", stdout);
	put_escaped(allowed);
	fputs(". Default: *", stdout);
	put_escaped(k->default_value);
	fputs("*", stdout);
	if (k->default_multinode) {
		/* The kernel's own default by node count (the registry entry says why). */
		fputs(" on one node, *", stdout);
		put_escaped(k->default_multinode);
		fputs("* where more than one node is online at boot", stdout);
	}
	fputs(". ", stdout);
	/* "4.15" is a Linux release; anything else ("never merged") stands alone. */
	fputs(isdigit((unsigned char)k->since[0]) ? "Since Linux " : "Kernel: ", stdout);
	put_escaped(k->since);
	fputs(". File: _", stdout);
	put_escaped(k->path);
	fputs("_", stdout);
	if (k->alt_path) {
		/* Probed, never chosen by version: the same file under another name. */
		fputs(", or _", stdout);
		put_escaped(k->alt_path);
		fputs("_ where the kernel names it so", stdout);
	}
	fputs(".\n\n", stdout);
	put_words(k);
	if (k->note) {
		fputs("\tSide effect: ", stdout);
		put_escaped(k->note);
		fputs(".\n\n", stdout);
	}
	put_flags(k);
	for (const char *const *a = k->aliases; a && *a; a++) {
		fputs("\tAlso accepted as *", stdout);
		put_escaped(*a);
		fputs("*.\n\n", stdout);
	}
}

int main(void)
{
	for (size_t i = 0; i < knob_count; i++)
		put_knob(&knob_table[i]);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
