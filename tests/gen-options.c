// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the command table, every option table and the exit codes of the
 * commands it is linked with, for the docs and completion tests: they
 * compare the man page and the completions with this, never with the C.
 * One record a line, fields separated by tabs, "-" for none:
 *
 *   command  NAME  SUMMARY
 *   option   SCOPE  --LONG  -S  ARGUMENT  ARG  HELP
 *   view     NAME  --OPTION  ARGUMENT
 *   column   VIEW  NAME  JSON  HELP
 *   exit     CODE
 *
 * SCOPE is a command's name, "global" (every command takes it) or
 * "numastatctl" (before a command only); ARGUMENT is none, required or
 * optional; HELP is the --help text with its lines joined.  A view is one
 * of stat's (cmd_stat_views[], stat-view.h), "-" for the option of the
 * views stat picks itself; its columns are those the man page lists.  It
 * fails (and
 * so does the build) on a table cmd_getopt() cannot hold, an option whose
 * argument and name disagree, a name or value two options share (in a
 * table, or with the global options) and an option without help.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd-stat.h"
#include "cmd.h"
#include "stat-view.h"

static int failed;

static void fail(const char *scope, const struct cmd_option *o, const char *problem)
{
	fprintf(stderr, "gen-options: %s: --%s: %s\n", scope, o->name, problem);
	failed = 1;
}

static const char *argument(int has_arg)
{
	return has_arg == no_argument         ? "none"
	       : has_arg == required_argument ? "required"
					      : "optional";
}

static void put_help(const char *help)
{
	for (const char *h = help; *h; h++)
		putchar(*h == '\n' ? ' ' : *h);
	putchar('\n');
}

/* Whether the global options already take o's long name or its letter. */
static const char *clash(const struct cmd_option *o)
{
	for (const struct cmd_option *g = cmd_global_options; g->name; g++) {
		if (strcmp(g->name, o->name) == 0)
			return "a global option has this name";
		if (g->val == o->val)
			return "a global option has this letter or value";
	}
	return NULL;
}

/* Whether an option before o in its table has its long name or value. */
static const char *twice(const struct cmd_option *options, const struct cmd_option *o)
{
	for (const struct cmd_option *p = options; p != o; p++)
		if (strcmp(p->name, o->name) == 0 || p->val == o->val)
			return "another option of the table has this name or value";
	return NULL;
}

static void check(const char *scope, const struct cmd_option *options, const struct cmd_option *o,
		  bool global)
{
	const char *why = twice(options, o);

	if (!why && !global)
		why = clash(o);

	if ((o->has_arg == no_argument) != (o->arg == NULL))
		fail(scope, o, "an argument needs a name for --help, and only an argument");
	if (!o->help || !o->help[0])
		fail(scope, o, "no help");
	if (why)
		fail(scope, o, why);
}

static void put_options(const char *scope, const struct cmd_option *options, bool global)
{
	size_t n = 0;

	for (const struct cmd_option *o = options; o && o->name; o++, n++) {
		check(scope, options, o, global);
		printf("option\t%s\t--%s\t", scope, o->name);
		if (o->val > 0 && o->val <= CHAR_MAX)
			printf("-%c\t", o->val);
		else
			fputs("-\t", stdout);
		printf("%s\t%s\t", argument(o->has_arg), o->arg ? o->arg : "-");
		put_help(o->help);
	}
	if (n > CMD_OPTIONS_MAX) {
		fprintf(stderr, "gen-options: %s: %zu options, cmd_getopt() holds %d\n", scope, n,
			CMD_OPTIONS_MAX);
		failed = 1;
	}
}

static void put_views(void)
{
	for (const struct stat_view *const *v = cmd_stat_views; *v; v++) {
		const struct cmd_option *o = &(*v)->option;

		printf("view\t%s\t%s%s\t%s\n", (*v)->name, o->name ? "--" : "-",
		       o->name ? o->name : "", o->name ? argument(o->has_arg) : "-");
		for (const struct stat_view_col *c = (*v)->cols; c && c->name; c++) {
			printf("column\t%s\t%s\t%s\t", (*v)->name, c->name, c->json);
			put_help(c->help);
		}
	}
}

int main(void)
{
	/* stat's option table ends with its views' options, added from its table of views. */
	cmd_stat_options();
	for (const struct cmd *const *c = cmd_table; *c; c++)
		printf("command\t%s\t%s\n", (*c)->name, (*c)->summary);
	put_options("global", cmd_global_options, true);
	put_options("numastatctl", cmd_top_options, false);
	for (const struct cmd *const *c = cmd_table; *c; c++)
		put_options((*c)->name, (*c)->options, false);
	put_views();
	for (int code = 0; code < EXIT_CODES; code++)
		printf("exit\t%d\n", code);
	return failed || fflush(stdout) != 0;
}
