// SPDX-License-Identifier: GPL-2.0-or-later
/* advise: recommendations from this machine's topology and counters, with the evidence. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "out.h"
#include "profiles.h"
#include "sysfs.h"
#include "value.h"
#include "why.h"
#include "wrap.h"

enum { OPT_RULES = OPT_CMD_BASE, OPT_PROFILE, OPT_INTERVAL };

struct advise_opts {
	bool rules;
	const char *profile; /* --profile NAME */
	double interval;     /* --interval SECONDS; 0: one sample */
};

static const struct cmd_option options[] = {
	{ "interval", required_argument, OPT_INTERVAL, "<sec>",
	  "sample the counters twice, <sec> apart: ratios over\n"
	  "that window, and whether they are rising" },
	{ "profile", required_argument, OPT_PROFILE, "<name>",
	  "print the advised knobs as a [profile <name>] section\n"
	  "for numastatctl.conf, reasons as comments" },
	{ "rules", no_argument, OPT_RULES, NULL, "list the rules advise applies" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl advise [options]\n"
	      "\nLook at this machine (nodes, distances, memory tiers, counters, huge pages,\n"
	      "knob values, the configured profile, sysctl.d) and say which NUMA settings\n"
	      "fit it, each with the numbers it rests on.  It changes nothing.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nExit status: 0 nothing to advise, 1 failure, 2 usage error, 3 there is advice.\n"
	      "\nFor more details see numastatctl(8).\n"
	      "This help from its top, a page at a time: numastatctl advise --help | less\n",
	      out);
}

/* ---- --rules ---- */

static int print_rules(void)
{
	static const char *const json_cols[] = { "rule",  "priority",       "name",   "condition",
						 "reads", "recommendation", "reason", "source" };
	static const char *const text_cols[] = { "RULE", "PRIORITY", "KNOB", "CONDITION" };
	struct out_table *t;
	char why[WHY_MAX];
	int r = out_table_new(&t, "rules", cmd_global.json ? OUT_JSON : 0, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print the table: %s", why);
		return EXIT_FAIL;
	}
	for (size_t c = 0; c < (cmd_global.json ? 8u : 4u); c++)
		out_table_add_column(t, cmd_global.json ? json_cols[c] : text_cols[c], 0,
				     c == 3 && !cmd_global.json ? OUT_COL_WRAP : 0);
	for (size_t i = 0; i < advise_rule_count; i++) {
		const struct advise_rule *ru = &advise_rules[i];
		const char *cells[] = { ru->id,     advise_priority_name(ru->priority),
					ru->knob,   ru->condition,
					ru->reads,  ru->recommendation,
					ru->reason, ru->source };
		struct out_row *row = out_table_add_row(t);

		if (!row)
			break;
		for (size_t c = 0; c < (cmd_global.json ? 8u : 4u); c++)
			out_row_set(row, c, cells[c] ? cells[c] : (cmd_global.json ? NULL : "-"));
	}
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/* ---- values for people ---- */

/* A knob value as `get` prints it ("true" for mm.numa.demotion_enabled). */
static const char *shown(const char *knob, const struct kval *v, char *buf, size_t len)
{
	struct knob_ref ref;
	char why[WHY_MAX];

	if (knob_resolve(knob, &ref, why, sizeof(why)) < 0)
		return v->text;
	return knob_display(&ref, v, buf, len);
}

/* ---- text ---- */

/*
 * Text from the outside world (process names, paths, values) as one line:
 * log_info() keeps newlines for multi-line text, so a newline in a process
 * name would forge a line of the list, or a line of the --profile section.
 */
static const char *one_line(const char *s, char *buf, size_t len)
{
	return escape_text(s, buf, len, 0);
}

/*
 * prefix (ours), then text (escaped already) folded at spaces to the
 * terminal's width, its continuation lines indented by indent: a terminal
 * that wraps by itself cuts words.  One line in a pipe, for grep.
 */
static void folded(size_t cols, const char *prefix, size_t indent, const char *text)
{
	if (!cols) {
		log_info("%s%s\n", prefix, text);
		return;
	}
	if (log_is_quiet())
		return;
	fputs(prefix, stdout);
	wrap_fputs(stdout, text, strlen(prefix), indent, cols);
	fputc('\n', stdout);
}

/* The column the why, evidence and source lines start at: "   evidence: ". */
#define ENTRY_INDENT 13

static void print_entry(const struct advice *a, size_t number, size_t cols)
{
	char buf[4 * ADVICE_TEXT_MAX], head[128];

	if (a->kind == ADV_ADVICE)
		snprintf(head, sizeof(head), "%zu. [%s] %s: ", number,
			 advise_priority_name(a->rule->priority), a->rule->id);
	else
		snprintf(head, sizeof(head), "note: %s: ", a->rule->id);
	folded(cols, head, 3, one_line(a->text, buf, sizeof(buf)));
	folded(cols, "   why:      ", ENTRY_INDENT, a->rule->reason);
	for (size_t i = 0; i < a->nevidence; i++)
		folded(cols, i ? "             " : "   evidence: ", ENTRY_INDENT,
		       one_line(a->evidence[i], buf, sizeof(buf)));
	folded(cols, "   source:   ", ENTRY_INDENT, a->rule->source);
}

static void print_summary(const struct advice_list *l)
{
	size_t prio[3] = { 0 }, n = advice_count(l, ADV_ADVICE), notes = advice_count(l, ADV_NOTE),
	       nodata = advice_count(l, ADV_NO_DATA);
	char buf[160] = "";
	size_t o = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == ADV_ADVICE)
			prio[l->v[i].rule->priority]++;
	for (int p = PRIO_HIGH; p <= PRIO_LOW; p++)
		if (prio[p])
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%zu %s", o ? ", " : " (",
					      prio[p], advise_priority_name(p));
	if (o)
		snprintf(buf + o, sizeof(buf) - o, ")");
	if (n)
		log_info("%zu recommendation%s%s", n, n == 1 ? "" : "s", buf);
	else
		log_info("nothing to advise");
	if (notes)
		log_info("; %zu note%s", notes, notes == 1 ? "" : "s");
	if (nodata)
		log_info("; %zu rule%s without enough data", nodata, nodata == 1 ? "" : "s");
	log_info("\n");
}

/* "insufficient data: a, b: why": rules that lack data for the same reason share a line. */
static void print_no_data(const struct advice_list *l, size_t i, size_t cols)
{
	char buf[4 * ADVICE_TEXT_MAX], head[1024];
	size_t o;

	for (size_t k = 0; k < i; k++)
		if (l->v[k].kind == ADV_NO_DATA && strcmp(l->v[k].text, l->v[i].text) == 0)
			return; /* said already */
	o = (size_t)snprintf(head, sizeof(head), "insufficient data: %s", l->v[i].rule->id);
	for (size_t k = i + 1; k < l->n && o < sizeof(head); k++)
		if (l->v[k].kind == ADV_NO_DATA && strcmp(l->v[k].text, l->v[i].text) == 0)
			o += (size_t)snprintf(head + o, sizeof(head) - o, ", %s", l->v[k].rule->id);
	if (o < sizeof(head))
		snprintf(head + o, sizeof(head) - o, ": ");
	folded(cols, head, 3, one_line(l->v[i].text, buf, sizeof(buf)));
}

/* Advice and notes, a blank line after each; then the missing data; then the sum. */
static void print_text(const struct advice_list *l)
{
	size_t number = 0, cols, rows;
	bool nodata = false;

	out_terminal_size(&cols, &rows);

	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].kind == ADV_NO_DATA) {
			print_no_data(l, i, cols);
			nodata = true;
			continue;
		}
		print_entry(&l->v[i], l->v[i].kind == ADV_ADVICE ? ++number : 0, cols);
		log_info("\n");
	}
	if (nodata)
		log_info("\n");
	print_summary(l);
}

/* ---- JSON ---- */

static void json_row(struct out_table *t, const struct advice *a)
{
	struct out_row *row = out_table_add_row(t);
	char v[KVAL_MAX], cur[KVAL_MAX], ev[ADVICE_EVIDENCE_MAX * (ADVICE_LINE_MAX + 1)] = "";
	size_t o = 0;

	if (!row)
		return;
	for (size_t i = 0; i < a->nevidence && o < sizeof(ev); i++)
		o += (size_t)snprintf(ev + o, sizeof(ev) - o, "%s%s", i ? "\n" : "",
				      a->evidence[i]);
	/*
	 * Missing data recommends nothing: why it is missing is its evidence
	 * (and an array is never empty: libsmartcols 2.38 prints [] as [null]).
	 */
	if (a->kind == ADV_NO_DATA || !a->nevidence)
		snprintf(ev, sizeof(ev), "%s", a->text);
	out_row_set(row, 0, a->rule->id);
	out_row_set(row, 1, advice_kind_name(a->kind));
	out_row_set(row, 2, advise_priority_name(a->rule->priority));
	out_row_set(row, 3, a->knob[0] ? a->knob : NULL);
	out_row_set(row, 4,
		    a->knob[0] && a->current.text[0] ? shown(a->knob, &a->current, cur, sizeof(cur))
						     : NULL);
	out_row_set(row, 5, a->has_value ? shown(a->knob, &a->value, v, sizeof(v)) : NULL);
	out_row_set(row, 6, a->kind == ADV_NO_DATA ? NULL : a->text);
	out_row_set(row, 7, a->kind == ADV_NO_DATA ? NULL : a->rule->reason);
	out_row_set(row, 8, ev);
	out_row_set(row, 9, a->rule->source);
}

static int print_json(const struct advice_list *l)
{
	/* The words of every command: "value" is the live value (numastatctl(8), JSON OUTPUT). */
	static const char *const cols[] = { "rule",     "kind",        "priority",       "name",
					    "value",    "recommended", "recommendation", "reason",
					    "evidence", "source" };
	struct out_table *t;
	char why[WHY_MAX];
	int r = out_table_new(&t, "advice", OUT_JSON, why, sizeof(why));

	if (r < 0) {
		log_err("cannot print JSON: %s", why);
		return -1;
	}
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		out_table_add_column(t, cols[c], 0, c == 8 ? OUT_COL_ARRAY : 0);
	for (size_t i = 0; i < l->n; i++)
		json_row(t, &l->v[i]);
	r = out_table_print(t, stdout);
	out_table_free(t);
	return r;
}

/* ---- --profile ---- */

#define HOST_COLUMNS 64

/*
 * "; " comment lines of at most 78 columns (numastatctl.conf takes 199).
 * The section goes out through log_info(), which escapes control characters.
 */
static void comment(const char *text)
{
	char buf[4 * (ADVICE_TEXT_MAX + ADVICE_LINE_MAX)];
	const char *p = one_line(text, buf, sizeof(buf));

	while (*p) {
		size_t len = strlen(p), cut = len;

		if (len > 76) {
			cut = 76;
			while (cut > 20 && p[cut] != ' ')
				cut--;
			if (p[cut] != ' ')
				cut = len > 190 ? 190 : len;
		}
		log_info("; %.*s\n", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
}

/* comment() with a label before the first line: "why: ...". */
static void labelled(const char *label, const char *text)
{
	char line[ADVICE_TEXT_MAX + 32];

	snprintf(line, sizeof(line), "%s: %s", label, text);
	comment(line);
}

static void profile_knob(const struct advice *a)
{
	char vbuf[KVAL_MAX], cur[KVAL_MAX], line[2 * KVAL_MAX + 200];
	/* knob_display() may return a word of its own rather than fill vbuf. */
	const char *v = shown(a->knob, &a->value, vbuf, sizeof(vbuf));

	snprintf(line, sizeof(line), "%s = %s: rule %s (%s), now %s", a->knob, v, a->rule->id,
		 advise_priority_name(a->rule->priority),
		 a->current.text[0] ? shown(a->knob, &a->current, cur, sizeof(cur)) : "unknown");
	log_info(";\n");
	comment(line);
	labelled("why", a->rule->reason);
	for (size_t i = 0; i < a->nevidence; i++)
		labelled("evidence", a->evidence[i]);
	labelled("source", a->rule->source);
	log_info("%s = %s\n", a->knob, v);
}

static void print_profile(const struct advice_list *l, const char *name)
{
	/*
	 * At most 64 columns, what a hostname has bytes: one of control
	 * characters (each \xNN is four) is cut at a whole escape, so that
	 * the summary line stays within what numastatctl.conf reads back.
	 */
	char host[HOST_COLUMNS + 1] = "", buf[128];
	ssize_t n = sysfs_read_file("/proc/sys/kernel/hostname", buf, sizeof(buf));
	bool others = false;

	if (n > 0)
		one_line(str_strip(buf), host, sizeof(host));
	log_info("; Advised by numastatctl advise%s%s.\n", host[0] ? " on " : "", host);
	log_info("; Check: numastatctl apply --check %s; apply: numastatctl apply %s\n", name,
		 name);
	log_info("[profile %s]\n", name);
	log_info("summary = Advised by numastatctl advise%s%s\n", host[0] ? " on " : "", host);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == ADV_ADVICE && l->v[i].has_value)
			profile_knob(&l->v[i]);
		else if (l->v[i].kind == ADV_ADVICE)
			others = true;
	if (!others)
		return;
	log_info(";\n; Also advised, beyond what a profile can set:\n");
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == ADV_ADVICE && !l->v[i].has_value)
			labelled(l->v[i].rule->id, l->v[i].text);
}

/* ---- options ---- */

/* What the user typed, for a message: at most 64 bytes (log.c escapes it). */
static const char *quoted(const char *arg, char *buf, size_t len)
{
	snprintf(buf, len, "%.64s%s", arg, strlen(arg) > 64 ? "..." : "");
	return buf;
}

static int parse_interval(const char *arg, double *out)
{
	char buf[72], *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*out) || *out < 0.1 || *out > 3600) {
		log_usage_err("--interval '%s': expected seconds from 0.1 to 3600",
			      quoted(arg, buf, sizeof(buf)));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int check_options(const struct advise_opts *o, int argc, char *argv[])
{
	char buf[72];

	if (optind < argc) {
		log_usage_err("unexpected argument '%s'", quoted(argv[optind], buf, sizeof(buf)));
		return EXIT_USAGE;
	}
	if (o->rules && (o->profile || o->interval > 0)) {
		log_usage_err("--rules lists the rules; it takes neither --profile nor --interval");
		return EXIT_USAGE;
	}
	if (o->profile && cmd_global.json) {
		log_usage_err(
			"--profile prints a numastatctl.conf section, which has no JSON form");
		return EXIT_USAGE;
	}
	if (o->profile && !profile_name_valid(o->profile)) {
		log_usage_err("--profile '%s': invalid profile name: use letters, digits, '-', '_' "
			      "and '.', starting with a letter or digit, at most %d characters",
			      quoted(o->profile, buf, sizeof(buf)), PROFILE_NAME_MAX - 1);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_options(int argc, char *argv[], struct advise_opts *o)
{
	int c;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return -1;
		case OPT_RULES:
			o->rules = true;
			break;
		case OPT_PROFILE:
			o->profile = optarg;
			break;
		case OPT_INTERVAL:
			if (parse_interval(optarg, &o->interval) != EXIT_OK)
				return EXIT_USAGE;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	return check_options(o, argc, argv);
}

/* ---- the run ---- */

static int report(const struct advice_list *l, const struct advise_opts *o)
{
	int rc = advice_count(l, ADV_ADVICE) ? EXIT_DRIFT : EXIT_OK;

	if (o->profile)
		print_profile(l, o->profile);
	else if (cmd_global.json)
		rc = print_json(l) < 0 ? EXIT_FAIL : rc;
	else
		print_text(l);
	return rc;
}

static int advise(const struct advise_opts *o, const struct profile_config *c, bool cfg_ok)
{
	struct advise_input in = { .interval = o->interval, .cfg = c, .cfg_ok = cfg_ok };
	struct advice_list l = { 0 };
	struct advise_facts f;
	int r = advise_facts_read(&f, &in), rc;

	if (r < 0) {
		log_err("%s: %s", r == -ENOMEM ? "cannot read the facts" : NODE_DIR, strerror(-r));
		advise_facts_free(&f);
		return EXIT_FAIL;
	}
	if (!f.n)
		log_warn(NODE_DIR ": no NUMA node (a kernel without CONFIG_NUMA?): only the knobs "
				  "are judged");
	r = advise_evaluate(&f, &l);
	rc = r < 0 ? EXIT_FAIL : report(&l, o);
	if (r < 0)
		log_err("%s", strerror(-r));
	advice_list_free(&l);
	advise_facts_free(&f);
	return rc;
}

static int run(int argc, char *argv[])
{
	struct advise_opts o = { 0 };
	struct profile_config c = { 0 };
	int rc = parse_options(argc, argv, &o);

	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (o.rules)
		return print_rules();
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	rc = profiles_load(&c, false);
	if (rc == EXIT_FAIL) {
		profile_config_free(&c);
		return rc;
	}
	if (rc != EXIT_OK)
		log_warn("the configuration has problems ('numastatctl profiles' lists them): the "
			 "rules that need it say so");
	if (o.profile && profile_find(&c, o.profile))
		log_warn("--profile %s: the configuration already has a profile of that name; "
			 "appending this section would add to it",
			 o.profile);
	rc = advise(&o, &c, rc == EXIT_OK);
	profile_config_free(&c);
	return rc;
}

const struct cmd cmd_advise = {
	.name = "advise",
	.run = run,
	.summary = "recommendations from this machine's topology and counters",
	.usage = usage,
	.options = options,
};
