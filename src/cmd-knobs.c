// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs [KNOB...]: the registry as a table, straight from knob_table. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "knob-list.h"
#include "knobs.h"
#include "log.h"
#include "output.h"
#include "suggest.h"
#include "sysfs.h"
#include "value.h"

enum { OPT_CHOICES = OPT_CMD_BASE, OPT_OUTPUT_ALL };

enum kcol {
	KCOL_NAME, KCOL_TYPE, KCOL_VALUES, KCOL_DEFAULT, KCOL_PRESENT, KCOL_SINCE,
	KCOL_DESCRIPTION, KCOL_NOTE, KCOL_COUNT,
};

static const struct {
	const char *name;
	double whint;
	unsigned flags;
	const char *help;
} kcols[KCOL_COUNT] = {
	[KCOL_NAME] = { "NAME", 0, 0, "knob name, sysctl style" },
	[KCOL_TYPE] = { "TYPE", 0, 0, "bool, int, bitmask, enum or string" },
	[KCOL_VALUES] = { "VALUES", 0, OUT_COL_WRAP, "what set and profiles accept" },
	[KCOL_DEFAULT] = { "DEFAULT", 0, 0, "the value on a freshly booted kernel" },
	[KCOL_PRESENT] = { "PRESENT", 0, OUT_COL_BOOLEAN, "whether this kernel has the knob" },
	[KCOL_SINCE] = { "SINCE", 0, OUT_COL_WRAP, "first Linux version with the knob" },
	[KCOL_DESCRIPTION] = { "DESCRIPTION", 0, OUT_COL_WRAP, "what it does" },
	[KCOL_NOTE] = { "NOTE", 0, OUT_COL_WRAP, "side effect of changing it" },
};

#define MAX_COLS 32

struct knobs_opts {
	int cols[MAX_COLS];
	size_t n_cols;
	unsigned flags;   /* OUT_* */
	bool names_only;
	const char *choices;
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl knobs [options] [<knob>...]\n"
	      "\nList the knobs numastatctl knows: type, accepted values, default,\n"
	      "whether this kernel has them, and what changing them does.\n"
	      "\nOptions:\n"
	      " -o, --output <list>    columns to print (+<list> appends to the default)\n"
	      "     --output-all       print every column\n"
	      " -n, --noheadings       do not print headings\n"
	      " -r, --raw              raw output, no alignment\n"
	      " -N, --names            print knob names only, one per line\n"
	      "     --choices <knob>   print the values <knob> accepts, one per line\n"
	      "                          (nothing for integer knobs)\n", out);
	usage_global_options(out);
	fputs("\nAvailable output columns:\n", out);
	for (size_t i = 0; i < KCOL_COUNT; i++)
		fprintf(out, " %11s  %s\n", kcols[i].name, kcols[i].help);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

static int column_lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < KCOL_COUNT; i++)
		if (strlen(kcols[i].name) == len && strncasecmp(kcols[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* "-o NAME,TYPE" replaces the columns; "-o +NOTE" appends to them. */
static int parse_columns(struct knobs_opts *o, const char *list)
{
	const char *p = list;

	if (*p == '+')
		p++;
	else
		o->n_cols = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int c = column_lookup(p, len);

		if (c < 0) {
			char hint[64];
			struct suggest s;

			suggest_init_n(&s, p, len);
			for (size_t i = 0; i < KCOL_COUNT; i++)
				suggest_add(&s, kcols[i].name);
			log_usage_err("-o: unknown column '%.*s': %s", (int)len, p,
				      suggest_result(&s) ? suggest_text(&s, hint, sizeof(hint)) :
				      "one of NAME, TYPE, VALUES, DEFAULT, PRESENT, SINCE, "
				      "DESCRIPTION, NOTE");
			return -EINVAL;
		}
		if (o->n_cols == MAX_COLS) {
			log_usage_err("-o: more than %d columns", MAX_COLS);
			return -EINVAL;
		}
		o->cols[o->n_cols++] = c;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static void default_columns(struct knobs_opts *o)
{
	o->n_cols = 0;
	for (int i = 0; i < KCOL_COUNT; i++)
		o->cols[o->n_cols++] = i;
}

/* Returns -1 to go on, or the exit code. */
static int parse_opts(int argc, char *argv[], struct knobs_opts *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "output-all", no_argument, NULL, OPT_OUTPUT_ALL },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "raw", no_argument, NULL, 'r' },
		{ "names", no_argument, NULL, 'N' },
		{ "choices", required_argument, NULL, OPT_CHOICES },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	default_columns(o);
	while ((c = cmd_getopt(argc, argv, "o:nrN", opts)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'o':
			if (parse_columns(o, optarg) < 0)
				return EXIT_USAGE;
			break;
		case OPT_OUTPUT_ALL: default_columns(o); break;
		case 'n': o->flags |= OUT_NOHEADINGS; break;
		case 'r': o->flags |= OUT_RAW; break;
		case 'N': o->names_only = true; break;
		case OPT_CHOICES: o->choices = optarg; break;
		default:
			return EXIT_USAGE;
		}
	}
	if (o->names_only && o->choices) {
		log_usage_err("--names and --choices exclude each other");
		return EXIT_USAGE;
	}
	return -1;
}

/*
 * A pass-through name, an unknown one, or a typo of a registry knob's: the
 * closest registry knob, else why (the resolver's words, or NULL).
 */
static void not_registry(const char *name, const char *why)
{
	char hint[KNOB_NAME_MAX + 32];
	bool short_form = !strpbrk(name, "./");
	struct suggest s;

	suggest_init(&s, name);
	for (size_t i = 0; i < knob_count; i++) {
		const char *last = strrchr(knob_table[i].name, '.');

		suggest_add_as(&s, short_form ? last + 1 : knob_table[i].name, knob_table[i].name);
	}
	if (suggest_result(&s))
		log_err("%s: not a registry knob: %s", name, suggest_text(&s, hint, sizeof(hint)));
	else if (why)
		log_err("%s", why);
	else
		log_err("%s: not a registry knob: passed to the kernel untyped, which validates it",
			name);
}

/* Registry entries for the operands (every knob without operands). */
static int select_knobs(int argc, char *argv[], const struct knob **sel, size_t *n)
{
	char why[512];
	int rc = EXIT_OK;

	*n = 0;
	if (argc == 0) {
		for (size_t i = 0; i < knob_count; i++)
			sel[(*n)++] = &knob_table[i];
		return EXIT_OK;
	}
	for (int i = 0; i < argc && *n < knob_count; i++) {
		struct knob_ref ref;

		int r = knob_resolve(argv[i], &ref, why, sizeof(why));

		if (r == -EINVAL) {
			log_err("%s", why);
			rc = EXIT_USAGE;
		} else if (r < 0 || !ref.knob) {
			not_registry(r < 0 ? argv[i] : ref.name, r < 0 ? why : NULL);
			rc = EXIT_USAGE;
		} else
			sel[(*n)++] = ref.knob;
	}
	return rc;
}

/* The VALUES cell: compact, from the same fields validation uses. */
static void format_values(const struct knob *k, char *buf, size_t len)
{
	size_t n = 0;

	switch (k->type) {
	case KNOB_BOOL:
		snprintf(buf, len, "0, 1 (off, on)");
		return;
	case KNOB_INT:
		snprintf(buf, len, "%" PRId64 "..%" PRId64, k->min, k->max);
		return;
	case KNOB_BITMASK:
		n = (size_t)snprintf(buf, len, "%" PRId64 "..%" PRId64 ":", k->min, k->max);
		for (const struct knob_word *w = k->words; w->name && n < len; w++)
			n += (size_t)snprintf(buf + n, len - n, "%s %" PRId64 " %s",
					      w == k->words ? "" : ",", w->value, w->name);
		return;
	case KNOB_ENUM:
		for (const struct knob_word *w = k->words; w->name && n < len; w++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      w == k->words ? "" : ", ", w->name);
		return;
	case KNOB_STRING:
		snprintf(buf, len, "any value the kernel accepts");
		return;
	}
}

/* The PRESENT column: the same test as globs and name checks (knob-list.c). */
static bool registry_present(const struct knob *k)
{
	struct knob_ref ref = { .knob = k };

	str_copy(ref.path, k->path, sizeof(ref.path));
	return knob_present(&ref);
}

static void fill_cell(struct out_row *row, size_t i, enum kcol c, const struct knob *k)
{
	char buf[512];

	switch (c) {
	case KCOL_NAME: out_row_set(row, i, k->name); break;
	case KCOL_TYPE: out_row_set(row, i, knob_type_name(k->type)); break;
	case KCOL_VALUES:
		format_values(k, buf, sizeof(buf));
		out_row_set(row, i, buf);
		break;
	case KCOL_DEFAULT: out_row_set(row, i, k->default_value); break;
	case KCOL_PRESENT: out_row_set(row, i, registry_present(k) ? "yes" : "no"); break;
	case KCOL_SINCE: out_row_set(row, i, k->since); break;
	case KCOL_DESCRIPTION: out_row_set(row, i, k->help); break;
	case KCOL_NOTE: out_row_set(row, i, k->note); break;
	case KCOL_COUNT: break;
	}
}

static int print_table(const struct knobs_opts *o, const struct knob *const *sel, size_t n)
{
	struct out_table *t;
	char why[256];
	int r = out_table_new(&t, "knobs", o->flags | (G.json ? OUT_JSON : 0), why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < o->n_cols && r == 0; i++)
		r = out_table_add_column(t, kcols[o->cols[i]].name, kcols[o->cols[i]].whint,
					 kcols[o->cols[i]].flags);
	for (size_t k = 0; k < n && r == 0; k++) {
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < o->n_cols; i++)
			fill_cell(row, i, (enum kcol)o->cols[i], sel[k]);
	}
	if (r == 0)
		r = out_table_print(t, stdout);
	out_table_free(t);
	if (r < 0) {
		log_err("cannot print the table: %s", strerror(-r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* --choices: the finite value set, for shell completion and scripts. */
static int print_choices(const char *name)
{
	struct knob_ref ref;
	char why[512];
	const struct knob *k;
	int rc = cmd_setup();

	/* A misspelt name is an error, not a pass-through sysctl with no choices. */
	if (rc != EXIT_OK)
		return rc;
	if (knob_lookup(name, &ref, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	k = ref.knob;
	if (!k || k->type == KNOB_INT || k->type == KNOB_STRING)
		return EXIT_OK; /* no finite set to offer */
	if (k->type == KNOB_BOOL)
		fputs("0\n1\n", stdout);
	/* Every number of a small bitmask, then the flag names. */
	if (k->type == KNOB_BITMASK && k->max - k->min < 64)
		for (int64_t v = k->min; v <= k->max; v++)
			printf("%" PRId64 "\n", v);
	for (const struct knob_word *w = k->words; w && w->name; w++)
		printf("%s\n", w->name);
	return EXIT_OK;
}

static int run(int argc, char *argv[])
{
	struct knobs_opts o = { 0 };
	const struct knob **sel;
	size_t n;
	int rc = parse_opts(argc, argv, &o);

	if (rc != -1)
		return rc;
	if (o.choices) {
		if (optind < argc) {
			log_usage_err("--choices takes no further knob");
			return EXIT_USAGE;
		}
		return print_choices(o.choices);
	}
	sel = calloc(knob_count, sizeof(*sel));
	if (!sel)
		return EXIT_FAIL;
	rc = select_knobs(argc - optind, argv + optind, sel, &n);
	if (rc == EXIT_OK && o.names_only)
		for (size_t i = 0; i < n; i++)
			printf("%s\n", sel[i]->name);
	else if (rc == EXIT_OK) {
		/* Only the PRESENT column looks at the system. */
		rc = cmd_setup();
		if (rc == EXIT_OK)
			rc = print_table(&o, sel, n);
	}
	free(sel);
	return rc;
}

const struct cmd cmd_knobs = { "knobs", run, "the knob registry: types, values, defaults, effects",
			       usage };
