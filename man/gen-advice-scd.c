// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the ADVICE RULES section of numastatctl(8) in scdoc from
 * advise_rules[], so the page describes exactly the rules the binary applies.
 */
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "scd.h"

/* The fields start with names (vm.numa_stat, sysctl.d): no capital letter forced. */
static void put_field(const char *label, const char *text)
{
	size_t len = strlen(text);

	printf("\t%s: ", label);
	put_escaped(text);
	fputs(len && text[len - 1] != '.' ? ".\n\n" : "\n\n", stdout);
}

static void put_rule(const struct advise_rule *r)
{
	putchar('*');
	put_escaped(r->id);
	printf("* (priority %s", advise_priority_name(r->priority));
	if (r->knob) {
		fputs("; knob *", stdout);
		put_escaped(r->knob);
		putchar('*');
	}
	fputs(")\n", stdout);
	put_field("When", r->condition);
	put_field("Reads", r->reads);
	put_field("Advice", r->recommendation);
	put_field("Why", r->reason);
	put_field("Source", r->source);
}

int main(void)
{
	for (size_t i = 0; i < advise_rule_count; i++)
		put_rule(&advise_rules[i]);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
