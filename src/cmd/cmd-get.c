// SPDX-License-Identifier: GPL-2.0-or-later
/* get [KNOB...]: sysctl-style reading of the NUMA knobs. */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "escape.h"
#include "knob-list.h"
#include "log.h"
#include "out.h"
#include "sysfs.h"
#include "why.h"

enum { OPT_PATTERN = OPT_CMD_BASE };

struct get_opts {
	bool values_only, names_only, all, ignore_missing;
	const char *pattern;
	regex_t re;
};

static const struct cmd_option options[] = {
	{ "values", no_argument, 'n', NULL, "print values only (-J: objects without \"name\")" },
	{ "names", no_argument, 'N', NULL, "print names only (-J: objects without \"value\")" },
	{ "all", no_argument, 'a', NULL, "also every other vm.* and kernel.numa_* sysctl" },
	{ "ignore", no_argument, 'e', NULL, "say nothing about knobs missing on this kernel" },
	{ "pattern", required_argument, OPT_PATTERN, "<regex>",
	  "only names matching the extended regular expression" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl get [options] [<knob>...]\n"
	      "\nPrint NUMA knobs as 'name = value' lines.  Without a knob: every\n"
	      "registry knob present on this kernel.  A knob may be a quoted glob\n"
	      "('vm.numa_*').\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl get --help | less\n",
	      out);
}

static int parse_opts(int argc, char *argv[], struct get_opts *o)
{
	int c;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'n':
			o->values_only = true;
			break;
		case 'N':
			o->names_only = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'e':
			o->ignore_missing = true;
			break;
		case OPT_PATTERN:
			o->pattern = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (o->values_only && o->names_only) {
		log_usage_err("--values and --names exclude each other");
		return EXIT_USAGE;
	}
	if (o->pattern && regcomp(&o->re, o->pattern, REG_EXTENDED | REG_NOSUB) != 0) {
		log_usage_err("--pattern '%s': not a valid extended regular expression",
			      o->pattern);
		o->pattern = NULL;
		return EXIT_USAGE;
	}
	return -1;
}

/* Resolve the operands (names and globs) into the list to print. */
static int select_knobs(int argc, char *argv[], const struct get_opts *o, struct knob_list *sel)
{
	struct knob_list all = { 0 };
	char why[WHY_MAX];
	int rc = EXIT_OK;
	bool globs = false;

	for (int i = 0; i < argc; i++)
		globs |= knob_is_glob(argv[i]);
	/*
	 * The whole list only for no name, -a and globs: it lists
	 * /proc/sys/{vm,kernel} (-a) and every node's weight, which one named
	 * knob on a 1024-node machine does not need.
	 */
	if ((argc == 0 || o->all || globs) && knob_list_build(&all, o->all || globs) < 0)
		return EXIT_FAIL;
	/* all has no name twice: no need to look each one up in sel. */
	for (size_t i = 0; argc == 0 && i < all.n && rc == EXIT_OK; i++)
		if (knob_list_append(sel, &all.refs[i]) < 0)
			rc = EXIT_FAIL;
	for (int i = 0; i < argc; i++) {
		struct knob_ref ref;
		size_t before = sel->n;

		if (knob_is_glob(argv[i])) {
			knob_list_glob(&all, argv[i], sel);
			if (sel->n == before && !o->ignore_missing) {
				log_err("'%s': no knob matches", argv[i]);
				rc = EXIT_FAIL;
			}
		} else if (knob_lookup(argv[i], &ref, why, sizeof(why)) < 0) {
			log_err("%s", why);
			rc = EXIT_USAGE;
		} else
			knob_list_add(sel, &ref);
	}
	knob_list_free(&all);
	return rc;
}

/* The value as the kernel (or a dump) holds it: escaped, as all outside text. */
static void print_line(const struct get_opts *o, const char *name, const char *value)
{
	if (!o->values_only)
		fputs(name, stdout);
	if (!o->values_only && !o->names_only)
		fputs(" = ", stdout);
	if (!o->names_only)
		escape_fputs(value, stdout, 0);
	putchar('\n');
}

/* Read and print (or add to the JSON table) each selected knob. */
static int print_knobs(const struct knob_list *sel, const struct get_opts *o, bool explicit,
		       struct out_table *t)
{
	char buf[KVAL_MAX];
	int rc = EXIT_OK;

	for (size_t i = 0; i < sel->n; i++) {
		const struct knob_ref *ref = &sel->refs[i];
		struct kval v;
		int r;

		if (o->pattern && regexec(&o->re, ref->name, 0, NULL, 0) != 0)
			continue;
		r = knob_read(ref, &v);
		if (r < 0) {
			/* Listing everything: what is absent or unreadable here is not asked for. */
			if (!explicit || (r == -ENOENT && o->ignore_missing))
				continue;
			log_err("%s: %s", ref->name, sysfs_strerror(r));
			rc = EXIT_FAIL;
			continue;
		}
		knob_display(ref, &v, buf, sizeof(buf));
		if (t) {
			struct out_row *row = out_table_add_row(t);
			size_t col = 0;

			/* -N and -n choose the members, as -o chooses columns elsewhere. */
			if (row && !o->values_only)
				out_row_set(row, col++, ref->name);
			if (row && !o->names_only)
				out_row_set(row, col, knob_display(ref, &v, buf, sizeof(buf)));
		} else
			print_line(o, ref->name, knob_display(ref, &v, buf, sizeof(buf)));
	}
	return rc;
}

static int print_json(const struct knob_list *sel, const struct get_opts *o, bool explicit)
{
	struct out_table *t;
	char why[WHY_MAX];
	int rc;

	if (out_table_new(&t, "knobs", OUT_JSON, why, sizeof(why)) < 0) {
		log_err("cannot print JSON: %s", why);
		return EXIT_FAIL;
	}
	if (!o->values_only)
		out_table_add_column(t, "name", 0, 0);
	if (!o->names_only)
		out_table_add_column(t, "value", 0, 0);
	rc = print_knobs(sel, o, explicit, t);
	if (out_table_print(t, stdout) < 0)
		rc = EXIT_FAIL;
	out_table_free(t);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct get_opts o = { 0 };
	struct knob_list sel = { 0 };
	int rc = parse_opts(argc, argv, &o); /* -1: go on; else exit with it */

	if (rc == -1)
		rc = cmd_setup();
	else
		goto out;
	if (rc == EXIT_OK)
		rc = select_knobs(argc - optind, argv + optind, &o, &sel);
	/* A refused name is a usage error: print nothing else. */
	if (rc != EXIT_USAGE) {
		bool explicit = optind < argc;
		int prc = cmd_global.json ? print_json(&sel, &o, explicit)
					  : print_knobs(&sel, &o, explicit, NULL);

		rc = prc > rc ? prc : rc;
	}
out:
	if (o.pattern)
		regfree(&o.re);
	knob_list_free(&sel);
	return rc;
}

const struct cmd cmd_get = {
	.name = "get",
	.run = run,
	.summary = "print knobs, sysctl style",
	.usage = usage,
	.options = options,
};
