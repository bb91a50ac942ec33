// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs [KNOB...]: the registry as a table, straight from knob_table. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "knob-list.h"
#include "knobs.h"
#include "log.h"
#include "nodes.h"
#include "out.h"
#include "suggest.h"
#include "why.h"
#include "wrap.h"

enum { OPT_CHOICES = OPT_CMD_BASE, OPT_OUTPUT_ALL };

enum kcol {
	KCOL_NAME,
	KCOL_TYPE,
	KCOL_VALUES,
	KCOL_MIN,
	KCOL_MAX,
	KCOL_DEFAULT,
	KCOL_PRESENT,
	KCOL_SINCE,
	KCOL_DESCRIPTION,
	KCOL_NOTE,
	KCOL_NODES,
	KCOL_COUNT,
};

static const struct {
	const char *name;
	double whint;
	unsigned flags;
	const char *help;
} kcols[KCOL_COUNT] = {
	[KCOL_NAME] = { "NAME", 0, 0, "knob name, sysctl style" },
	[KCOL_TYPE] = { "TYPE", 0, 0, "bool, int, bitmask, enum or string" },
	[KCOL_VALUES] = { "VALUES", 0, OUT_COL_WRAP,
			  "what set and profiles accept (JSON: the --choices list)" },
	[KCOL_MIN] = { "MIN", 0, OUT_COL_RIGHT | OUT_COL_NUMBER,
		       "smallest number accepted (int, bitmask)" },
	[KCOL_MAX] = { "MAX", 0, OUT_COL_RIGHT | OUT_COL_NUMBER,
		       "largest number accepted (int, bitmask)" },
	[KCOL_DEFAULT] = { "DEFAULT", 0, 0,
			   "the value on a freshly booted kernel with this machine's nodes" },
	[KCOL_PRESENT] = { "PRESENT", 0, OUT_COL_BOOLEAN, "whether this kernel has the knob" },
	[KCOL_SINCE] = { "SINCE", 0, OUT_COL_WRAP, "first Linux version with the knob" },
	[KCOL_DESCRIPTION] = { "DESCRIPTION", 0, OUT_COL_WRAP, "what it does" },
	[KCOL_NOTE] = { "NOTE", 0, OUT_COL_WRAP, "side effect of changing it" },
	[KCOL_NODES] = { "NODES", 0, OUT_COL_WRAP,
			 "a per-node knob (nodeN): the nodes that have it here" },
};

#define MAX_COLS 32

struct knobs_opts {
	int cols[MAX_COLS];
	size_t n_cols;
	bool cols_set;  /* -o or --output-all: a table, not the per-knob layout */
	unsigned flags; /* OUT_* */
	bool names_only;
	const char *choices;
};

static const struct cmd_option options[] = {
	{ "output", required_argument, 'o', "<list>",
	  "a table of these columns (+<list> appends to all)" },
	{ "output-all", no_argument, OPT_OUTPUT_ALL, NULL, "a table of every column" },
	{ "noheadings", no_argument, 'n', NULL, "do not print headings" },
	{ "raw", no_argument, 'r', NULL, "raw output, no alignment" },
	{ "names", no_argument, 'N', NULL, "print knob names only, one per line (-J: as JSON)" },
	{ "choices", required_argument, OPT_CHOICES, "<knob>",
	  "print the values <knob> accepts, one per line\n"
	  "(nothing for integer knobs)" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl knobs [options] [<knob>...]\n"
	      "\nList the knobs numastatctl knows: type, accepted values, default,\n"
	      "whether this kernel has them, and what changing them does.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	fputs("\nWithout -o, -r or -J each knob is a line of its short fields followed by\n"
	      "its description, values, first kernel and note, wrapped to the terminal\n"
	      "(80 columns when the output is not a terminal).\n",
	      out);
	cmd_usage_global_options(out);
	fputs("\nAvailable output columns:\n", out);
	for (size_t i = 0; i < KCOL_COUNT; i++)
		fprintf(out, " %11s  %s\n", kcols[i].name, kcols[i].help);
	fputs("\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl knobs --help | less\n",
	      out);
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
			log_usage_err(
				"-o: unknown column '%.*s': %s", (int)len, p,
				suggest_result(&s)
					? suggest_text(&s, hint, sizeof(hint))
					: "one of NAME, TYPE, VALUES, MIN, MAX, DEFAULT, PRESENT, "
					  "SINCE, DESCRIPTION, NOTE");
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
	int c;

	default_columns(o);
	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'o':
			if (parse_columns(o, optarg) < 0)
				return EXIT_USAGE;
			o->cols_set = true;
			break;
		case OPT_OUTPUT_ALL:
			default_columns(o);
			o->cols_set = true;
			break;
		case 'n':
			o->flags |= OUT_NOHEADINGS;
			break;
		case 'r':
			o->flags |= OUT_RAW;
			break;
		case 'N':
			o->names_only = true;
			break;
		case OPT_CHOICES:
			o->choices = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (o->names_only && o->choices) {
		log_usage_err("--names and --choices exclude each other");
		return EXIT_USAGE;
	}
	/* Lines for shells have no JSON form; knobs -J carries the same facts. */
	if (cmd_global.json && o->choices) {
		log_usage_err("--choices has no JSON form: it prints plain lines for shells "
			      "('knobs -J' gives each knob's \"values\")");
		return EXIT_USAGE;
	}
	/* -N -J: the names as JSON, what -o NAME gives. */
	if (cmd_global.json && o->names_only) {
		o->names_only = false;
		o->n_cols = 0;
		o->cols[o->n_cols++] = KCOL_NAME;
		o->cols_set = true;
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
	char why[WHY_MAX];
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
		} else {
			/* A family once, however many of its nodes were named. */
			size_t j = 0;

			while (j < *n && sel[j] != ref.knob)
				j++;
			if (j == *n)
				sel[(*n)++] = ref.knob;
		}
	}
	return rc;
}

/*
 * The finite value set, one per line: what --choices prints for shell
 * completion and knobs -J gives as "values".  Empty for integer and string
 * knobs.
 */
static void choices_text(const struct knob *k, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (k->type == KNOB_INT || k->type == KNOB_STRING)
		return;
	if (k->type == KNOB_BOOL)
		n = (size_t)snprintf(buf, len, "0\n1\n");
	/* Every number of a small bitmask, then the flag names. */
	if (k->type == KNOB_BITMASK && k->max - k->min < 64)
		for (int64_t v = k->min; v <= k->max && n < len; v++)
			n += (size_t)snprintf(buf + n, len - n, "%" PRId64 "\n", v);
	for (const struct knob_word *w = k->words; w && w->name && n < len; w++)
		n += (size_t)snprintf(buf + n, len - n, "%s\n", w->name);
}

/* The VALUES cell: compact, from the same fields validation uses. */
static void format_values(const struct knob *k, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0'; /* an enum without words adds nothing */
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
			n += (size_t)snprintf(buf + n, len - n, "%s%s", w == k->words ? "" : ", ",
					      w->name);
		return;
	case KNOB_STRING:
		snprintf(buf, len, "any value the kernel accepts");
		return;
	}
}

/* A family's members here as a range list ("0,2,5"), "" when none; false for other knobs. */
static bool family_nodes(const struct knob *k, char *buf, size_t len)
{
	unsigned *nodes;
	int n;

	buf[0] = '\0';
	if (!(k->flags & KNOB_F_PER_NODE))
		return false;
	n = knob_family_nodes(k, &nodes);
	if (n > 0)
		rangelist_format(nodes, (size_t)n, buf, len);
	free(nodes);
	return true;
}

/* The PRESENT column: the same test as globs and name checks (knob-list.c). */
static bool registry_present(const struct knob *k)
{
	struct knob_ref ref;
	char nodes[16];

	if (family_nodes(k, nodes, sizeof(nodes)))
		return nodes[0] != '\0';
	knob_ref_init(&ref, k);
	return knob_present(&ref);
}

/* This machine's nodes, counted once (0 when they cannot be listed): defaults depend on it. */
static size_t node_count(void)
{
	static int n = -1;
	unsigned *ids = NULL;

	if (n < 0) {
		n = nodes_enumerate(&ids);
		free(ids);
		if (n < 0)
			n = 0;
	}
	return (size_t)n;
}

/* A cell's text (NULL: empty, JSON null), in buf when it is made. */
static const char *cell_text(enum kcol c, const struct knob *k, char *buf, size_t len)
{
	bool range = k->type == KNOB_INT || k->type == KNOB_BITMASK;
	size_t n;

	switch (c) {
	case KCOL_NAME:
		return k->name;
	case KCOL_TYPE:
		return knob_type_name(k->type);
	case KCOL_VALUES:
		if (!cmd_global.json) {
			format_values(k, buf, len);
			return buf;
		}
		/* An array: one element per line, without the last newline. */
		choices_text(k, buf, len);
		n = strlen(buf);
		if (n)
			buf[n - 1] = '\0';
		return buf;
	case KCOL_MIN:
	case KCOL_MAX:
		if (!range)
			return NULL;
		snprintf(buf, len, "%" PRId64, c == KCOL_MIN ? k->min : k->max);
		return buf;
	case KCOL_DEFAULT:
		return knob_default(k, node_count());
	case KCOL_PRESENT:
		return registry_present(k) ? "yes" : "no";
	case KCOL_SINCE:
		return k->since;
	case KCOL_DESCRIPTION:
		return k->help;
	case KCOL_NOTE:
		return k->note;
	case KCOL_NODES:
		return family_nodes(k, buf, len) ? buf : NULL;
	case KCOL_COUNT:
		break;
	}
	return NULL;
}

static void fill_cell(struct out_row *row, size_t i, enum kcol c, const struct knob *k)
{
	char buf[2048];

	out_row_set(row, i, cell_text(c, k, buf, sizeof(buf)));
}

/* A table of cols[] for the knobs sel[]; 0 or -errno (why filled). */
static int build_table(struct out_table **tp, const int *cols, size_t n_cols, unsigned flags,
		       const struct knob *const *sel, size_t n, char *why, size_t whylen)
{
	struct out_table *t;
	int r = out_table_new(&t, "knobs", flags, why, whylen);

	for (size_t i = 0; i < n_cols && r == 0; i++)
		r = out_table_add_column(t, kcols[cols[i]].name, kcols[cols[i]].whint,
					 kcols[cols[i]].flags |
						 ((flags & OUT_JSON) && cols[i] == KCOL_VALUES
							  ? OUT_COL_ARRAY
							  : 0));
	for (size_t k = 0; k < n && r == 0; k++) {
		struct out_row *row = out_table_add_row(t);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < n_cols; i++)
			fill_cell(row, i, (enum kcol)cols[i], sel[k]);
	}
	if (r == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (r < 0 && t)
		out_table_free(t);
	*tp = r < 0 ? NULL : t;
	return r;
}

/*
 * The width column c needs on a terminal: its longest cell; for a column
 * that folds at spaces, its longest word or 16, whichever is more (shorter
 * cells take less).
 */
#define FOLD_MIN 16
static size_t column_need(enum kcol c, const struct knob *const *sel, size_t n)
{
	size_t need = strlen(kcols[c].name);
	char buf[2048];

	for (size_t k = 0; k < n; k++) {
		const char *t = cell_text(c, sel[k], buf, sizeof(buf));
		size_t len = t ? strlen(t) : 0;

		if (!(kcols[c].flags & OUT_COL_WRAP)) {
			need = len > need ? len : need;
			continue;
		}
		for (const char *p = t; p && *p; p += strspn(p, " ")) {
			size_t w = strcspn(p, " ");

			need = w > need ? w : need;
			p += w;
		}
		need = (len < FOLD_MIN ? len : FOLD_MIN) > need ? (len < FOLD_MIN ? len : FOLD_MIN)
								: need;
	}
	return need;
}

static int print_one(const int *cols, size_t n_cols, unsigned flags, const struct knob *const *sel,
		     size_t n)
{
	struct out_table *t;
	char why[WHY_MAX];
	int r = build_table(&t, cols, n_cols, flags, sel, n, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	if (r < 0) {
		log_err("cannot print the table: %s", strerror(-r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* "    label: text" word-wrapped to width, continuation lines under the text. */
static void print_wrapped(const char *label, const char *text, size_t width)
{
	size_t lead = 4 + (*label ? strlen(label) + 2 : 0);

	printf("    %s%s", label, *label ? ": " : "");
	wrap_fputs(stdout, text, lead, lead, width);
	putchar('\n');
}

/*
 * Column c when not even it fits beside the first column (a word longer
 * than what is left): under each knob's first cell, as the layout without
 * -o has its long fields.
 */
static void print_under(int key, int c, unsigned flags, const struct knob *const *sel, size_t n,
			size_t width)
{
	char buf[2048], label[16];
	size_t i;

	for (i = 0; kcols[c].name[i] && i + 1 < sizeof(label); i++)
		label[i] = (char)tolower((unsigned char)kcols[c].name[i]);
	label[i] = '\0';
	if (!(flags & OUT_NOHEADINGS))
		printf("%s\n", kcols[key].name);
	for (size_t k = 0; k < n; k++) {
		const char *t = cell_text((enum kcol)c, sel[k], buf, sizeof(buf));

		puts(cell_text((enum kcol)key, sel[k], buf, sizeof(buf)));
		t = cell_text((enum kcol)c, sel[k], buf, sizeof(buf));
		if (t && *t)
			print_wrapped(label, t, width);
	}
}

/*
 * A table wider than the terminal is folded into sections, each led by the
 * first column, as stat folds its tables: nothing is cut and no cell is
 * squeezed to a few characters; a column that does not fit even beside the
 * first alone goes under each knob.  In a pipe, -r and -J: one table, one
 * line per knob.
 */
static int print_table(const struct knobs_opts *o, const struct knob *const *sel, size_t n)
{
	unsigned flags = o->flags | (cmd_global.json ? OUT_JSON : 0);
	size_t width, rows, used = 0, ng = 0, key_need;
	int group[MAX_COLS], rc = EXIT_OK;

	out_terminal_size(&width, &rows);
	if (!width || (flags & (OUT_JSON | OUT_RAW)) || o->n_cols < 2)
		return print_one(o->cols, o->n_cols, flags, sel, n);
	key_need = column_need((enum kcol)o->cols[0], sel, n);
	for (size_t i = 0; i < o->n_cols && rc == EXIT_OK; i++) {
		size_t need = column_need((enum kcol)o->cols[i], sel, n);

		if (ng > 1 && (used + 1 + need > width || key_need + 1 + need > width)) {
			rc = print_one(group, ng, flags, sel, n);
			putchar('\n');
			ng = 1;
			used = key_need;
		}
		if (ng == 1 && key_need + 1 + need > width) {
			print_under(group[0], o->cols[i], flags, sel, n, width);
			if (i + 1 < o->n_cols)
				putchar('\n');
			continue;
		}
		used += (ng ? 1 : 0) + need;
		group[ng++] = o->cols[i];
	}
	return rc == EXIT_OK && ng > 1 ? print_one(group, ng, flags, sel, n) : rc;
}

/*
 * The layout for people: each knob a line of its short fields (a
 * libsmartcols table, so the columns line up), then its description,
 * values, first kernel and note wrapped under it.  Readable at 80 columns, where a table
 * of all the columns wraps each long one to a few characters.
 */
static int print_blocks(const struct knobs_opts *o, const struct knob *const *sel, size_t n)
{
	static const int key_cols[] = { KCOL_NAME, KCOL_TYPE, KCOL_DEFAULT, KCOL_PRESENT };
	size_t cols, rows, width;
	struct out_table *t;
	char why[WHY_MAX], values[512], *text = NULL, *line;
	int r = build_table(&t, key_cols, sizeof(key_cols) / sizeof(key_cols[0]), o->flags, sel, n,
			    why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	r = out_table_text(t, &text);
	out_table_free(t);
	if (r < 0) {
		log_err("cannot print the table: %s", strerror(-r));
		return EXIT_FAIL;
	}
	out_terminal_size(&cols, &rows);
	width = cols ? cols : 80;
	line = strtok(text, "\n");
	/* No cell wraps, so line k (after the header) is knob k. */
	if (!(o->flags & OUT_NOHEADINGS) && line) {
		puts(line);
		line = strtok(NULL, "\n");
	}
	for (size_t k = 0; k < n && line; k++, line = strtok(NULL, "\n")) {
		puts(line);
		print_wrapped("", sel[k]->help, width);
		format_values(sel[k], values, sizeof(values));
		print_wrapped("values", values, width);
		print_wrapped("since", sel[k]->since, width);
		if (sel[k]->note)
			print_wrapped("note", sel[k]->note, width);
		if (family_nodes(sel[k], values, sizeof(values)))
			print_wrapped("nodes", values[0] ? values : "none here", width);
	}
	free(text);
	return EXIT_OK;
}

/* --choices: the finite value set, for shell completion and scripts. */
static int print_choices(const char *name)
{
	struct knob_ref ref;
	char why[WHY_MAX], buf[2048];
	int rc = cmd_setup();

	/* A misspelt name is an error, not a pass-through sysctl with no choices. */
	if (rc != EXIT_OK)
		return rc;
	if (knob_lookup(name, &ref, why, sizeof(why)) < 0) {
		log_err("%s", why);
		return EXIT_USAGE;
	}
	if (!ref.knob)
		return EXIT_OK; /* no finite set to offer */
	choices_text(ref.knob, buf, sizeof(buf));
	fputs(buf, stdout);
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
		if (rc == EXIT_OK && !o.cols_set && !cmd_global.json && !(o.flags & OUT_RAW))
			rc = print_blocks(&o, sel, n);
		else if (rc == EXIT_OK)
			rc = print_table(&o, sel, n);
	}
	free(sel);
	return rc;
}

const struct cmd cmd_knobs = {
	.name = "knobs",
	.run = run,
	.summary = "the knob registry: types, values, defaults, effects",
	.usage = usage,
	.options = options,
};
