// SPDX-License-Identifier: GPL-2.0-or-later
/* snapshots: the counters saved before vm.numa_stat went 1 -> 0, oldest first. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "out.h"
#include "profiles.h"
#include "snapshot.h"
#include "why.h"

struct list_opts {
	bool names, noheadings, raw;
};

static const struct cmd_option options[] = {
	{ "names", no_argument, 'N', NULL, "print the names only, one per line (-J: as JSON)" },
	{ "noheadings", no_argument, 'n', NULL, "do not print headings" },
	{ "raw", no_argument, 'r', NULL, "raw output, no alignment" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl snapshots [options]\n"
	      "\nList the NUMA counter snapshots saved before vm.numa_stat went from 1 to 0\n"
	      "(which zeroes every counter), oldest first.  'numastatctl stat --snapshot NAME'\n"
	      "shows one; 'numastatctl stat --since NAME' adds it to the live counters.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl snapshots --help | less\n",
	      out);
}

/* "0,2,5" for people, one id per line for a JSON array. */
static void node_list(const struct snapshot *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u",
				      i ? (cmd_global.json ? "\n" : ",") : "", s->ids[i]);
}

/* One row; an unreadable snapshot is named on stderr and listed without nodes. */
static int add_row(struct out_table *t, int dirfd, const char *dir, const struct snapshot *e)
{
	char when[48], nodes[8192], why[WHY_MAX];
	struct out_row *row = out_table_add_row(t);
	struct snapshot s;
	int r;

	if (!row)
		return -ENOMEM;
	r = snapshot_read(dirfd, dir, e->name, &s, why, sizeof(why));
	if (r < 0)
		log_err("%s", why);
	snapshot_format_time(&e->time, when, sizeof(when));
	node_list(&s, nodes, sizeof(nodes));
	out_row_set(row, 0, e->name);
	out_row_set(row, 1, when);
	out_row_set(row, 2, r < 0 ? NULL : nodes);
	snapshot_free(&s);
	return r < 0 ? 1 : 0;
}

static int print_table(int dirfd, const char *dir, const struct snapshot *v, size_t n,
		       const struct list_opts *lo)
{
	unsigned flags = (cmd_global.json ? OUT_JSON : 0) | (lo->raw ? OUT_RAW : 0) |
			 (lo->noheadings ? OUT_NOHEADINGS : 0);
	struct out_table *t;
	char why[WHY_MAX];
	int bad = 0, r = out_table_new(&t, "snapshots", flags, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	out_table_add_column(t, "NAME", 0, 0);
	/* -N -J: the names only, as JSON (-N alone prints them as lines). */
	if (!lo->names) {
		out_table_add_column(t, "TIME", 0, 0);
		out_table_add_column(t, "NODES", 0, OUT_COL_NUMBERS);
	}
	for (size_t i = 0; i < n && r >= 0; i++) {
		struct out_row *row;

		if (!lo->names)
			bad |= r = add_row(t, dirfd, dir, &v[i]);
		else if (!(row = out_table_add_row(t)))
			r = -ENOMEM;
		else
			out_row_set(row, 0, v[i].name);
	}
	if (r >= 0)
		r = out_table_print(t, stdout);
	out_table_free(t);
	return r < 0 || bad ? EXIT_FAIL : EXIT_OK;
}

static int list(const struct list_opts *lo)
{
	const char *data = profiles_effective_data_dir();
	char dir[4200], why[WHY_MAX];
	struct snapshot *v = NULL;
	int fd = snapshot_dir_open(data, dir, sizeof(dir), why, sizeof(why)), n = 0, rc;

	if (fd < 0 && fd != -ENOENT) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	if (fd >= 0 && (n = snapshot_list(fd, &v)) < 0) {
		log_err("%s: %s", dir, strerror(-n));
		close(fd);
		return EXIT_FAIL;
	}
	if (n == 0 && !cmd_global.json && !lo->names) {
		log_line("no counter snapshots in %s/" SNAPSHOT_SUBDIR " (one is saved before "
			 "vm.numa_stat goes from 1 to 0)",
			 data);
		rc = EXIT_OK;
	} else if (lo->names && !cmd_global.json) {
		for (int i = 0; i < n; i++)
			printf("%s\n", v[i].name);
		rc = EXIT_OK;
	} else
		rc = print_table(fd, dir, v, (size_t)n, lo);
	snapshot_list_free(v, (size_t)(n > 0 ? n : 0));
	if (fd >= 0)
		close(fd);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct list_opts lo = { 0 };
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'N':
			lo.names = true;
			break;
		case 'n':
			lo.noheadings = true;
			break;
		case 'r':
			lo.raw = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	return list(&lo);
}

const struct cmd cmd_snapshots = {
	.name = "snapshots",
	.run = run,
	.summary = "list the counter snapshots saved before a reset",
	.usage = usage,
	.options = options,
};
