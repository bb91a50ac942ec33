// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every command shares: the command table, the global options, option
 * tables (their getopt form and their --help lines), setup.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "suggest.h"
#include "sysfs.h"
#include "wrap.h"

struct globals cmd_global;

const struct cmd *const cmd_table[] = {
	&cmd_status,    &cmd_advise, &cmd_get,      &cmd_set,    &cmd_stat,    &cmd_map,
	&cmd_placement, &cmd_apply,  &cmd_profiles, &cmd_revert, &cmd_confirm, &cmd_trial,
	&cmd_snapshots, &cmd_knobs,  &cmd_selftest, &cmd_bench,  NULL,
};

const struct cmd_option cmd_global_options[] = {
	{ "sysroot", required_argument, 'S', "<dir>",
	  "use <dir>/proc and <dir>/sys instead of the live system" },
	{ "config", required_argument, 'c', "<file>",
	  "read only <file>, instead of numastatctl.conf and\n"
	  "numastatctl.d/*.conf in " SYSCONFDIR ", " RUNTIME_CONFDIR "\n"
	  "and " VENDOR_CONFDIR },
	{ "state-dir", required_argument, OPT_STATE_DIR, "<dir>",
	  "keep the revert point, the lock and the snapshots in\n"
	  "<dir> (default " RUN_DIR " and\n" STATE_DIR ")" },
	{ "json", no_argument, 'J', NULL, "JSON output" },
	{ "quiet", no_argument, 'q', NULL, "print only errors" },
	{ "help", no_argument, 'h', NULL, "display this help" },
	{ 0 },
};

const struct cmd_option cmd_top_options[] = {
	{ "version", no_argument, 'V', NULL, "display version" },
	{ 0 },
};

/* Where the help starts: after " -x, --name <arg>" and two spaces at least. */
#define HELP_COLUMN 24
/* An option line longer than this has its help start on the next line. */
#define HEAD_MAX 40
/* --help fits a terminal of 80 columns, whatever the configured paths. */
#define HELP_WIDTH 80

/* A val that is a character is also the short option (util-linux style). */
static bool is_short(int val)
{
	return val > 0 && val <= CHAR_MAX;
}

/* " -o, --output <list>    columns to print" and its continuation lines. */
static void option_usage(FILE *out, const struct cmd_option *o)
{
	char head[128];
	int n;

	if (is_short(o->val))
		n = snprintf(head, sizeof(head), " -%c, --%s", o->val, o->name);
	else
		n = snprintf(head, sizeof(head), "     --%s", o->name);
	if (o->arg && n > 0 && (size_t)n < sizeof(head))
		snprintf(head + n, sizeof(head) - (size_t)n,
			 o->has_arg == optional_argument ? "[=%s]" : " %s", o->arg);
	if (strlen(head) > HEAD_MAX)
		fprintf(out, "%s\n%*s", head, HELP_COLUMN, "");
	else
		fprintf(out, "%-*s  ", HELP_COLUMN - 2, head);
	/* Each line of the help, folded at HELP_WIDTH: a configured path may be long. */
	for (const char *h = o->help; *h;) {
		size_t len = strcspn(h, "\n"), col = h == o->help ? HELP_COLUMN : HELP_COLUMN + 2;
		char line[256];

		snprintf(line, sizeof(line), "%.*s", (int)len, h);
		if (h != o->help)
			fprintf(out, "%*s", HELP_COLUMN + 2, "");
		wrap_fputs(out, line, col, HELP_COLUMN + 2, HELP_WIDTH);
		fputc('\n', out);
		h += len + (h[len] == '\n');
	}
	if (!*o->help)
		fputc('\n', out);
}

void cmd_options_usage(FILE *out, const struct cmd_option *options)
{
	for (const struct cmd_option *o = options; o && o->name; o++)
		option_usage(out, o);
}

void cmd_options_brief(FILE *out, const struct cmd_option *const *tables, const char *end)
{
	char text[1024] = "", item[160];
	size_t n;

	for (size_t t = 0; tables[t]; t++)
		for (const struct cmd_option *o = tables[t]; o->name; o++) {
			char flag[4] = "";

			if (is_short(o->val))
				snprintf(flag, sizeof(flag), "-%c/", o->val);
			snprintf(item, sizeof(item), "%s%s--%s%s%s", text[0] ? ", " : "", flag,
				 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
			n = strlen(text);
			snprintf(text + n, sizeof(text) - n, "%s", item);
		}
	n = strlen(text);
	snprintf(text + n, sizeof(text) - n, "%s", end);
	fputc(' ', out);
	wrap_fputs(out, text, 1, 1, HELP_WIDTH);
	fputc('\n', out);
}

void cmd_usage_global_options(FILE *out)
{
	fputs("\nGlobal options:\n", out);
	cmd_options_usage(out, cmd_global_options);
}

/* Returns 1 when c was a global option (now recorded), 0 otherwise. */
static int global_option(int c, const char *arg)
{
	switch (c) {
	case 'S':
		cmd_global.sysroot = arg;
		return 1;
	case 'c':
		cmd_global.config = arg;
		return 1;
	case OPT_STATE_DIR:
		cmd_global.state_dir = arg;
		return 1;
	case 'J':
		cmd_global.json = true;
		return 1;
	case 'q':
		cmd_global.quiet = true;
		log_set_quiet(true);
		return 1;
	default:
		return 0;
	}
}

/* ": did you mean --values?" for "--valuse" or "--valuse=x", or "". */
static void option_hint(const char *arg, const struct option *opts, char *buf, size_t len)
{
	char name[SUGGEST_MAX_LEN + 3];
	struct suggest s;

	suggest_init_n(&s, arg + 2, strcspn(arg + 2, "="));
	for (const struct option *o = opts; o->name; o++) {
		snprintf(name, sizeof(name), "--%s", o->name);
		suggest_add_as(&s, o->name, name);
	}
	buf[0] = '\0';
	if (suggest_result(&s))
		snprintf(buf, len, ": did you mean %s?", suggest_result(&s));
}

static void report_bad_option(int c, char *argv[], const struct option *opts)
{
	const char *arg = argv[optind - 1];
	bool is_long = strncmp(arg, "--", 2) == 0;
	char hint[SUGGEST_MAX_LEN + 32];

	if (c == ':' && is_long)
		log_usage_err("option '%s' requires an argument", arg);
	else if (c == ':')
		log_usage_err("option requires an argument -- '%c'", optopt);
	else if (is_long) {
		option_hint(arg, opts, hint, sizeof(hint));
		log_usage_err("unrecognized option '%s'%s", arg, hint);
	} else
		log_usage_err("invalid option -- '%c'", optopt);
}

/* getopt_long()'s form of a command's options and the global ones. */
#define N_LONGOPTS (CMD_OPTIONS_MAX + 8)
struct getopt_form {
	struct option longopts[N_LONGOPTS];
	char shortopts[3 * N_LONGOPTS + 3]; /* "+:", up to 3 per option, the NUL */
	size_t n, len;
};

static void getopt_add(struct getopt_form *f, const struct cmd_option *options)
{
	/* Never past the end, though the tables are checked to fit (CMD_OPTIONS_MAX). */
	for (const struct cmd_option *o = options; o && o->name && f->n + 1 < N_LONGOPTS; o++) {
		f->longopts[f->n++] = (struct option){ o->name, o->has_arg, NULL, o->val };
		if (!is_short(o->val))
			continue;
		f->shortopts[f->len++] = (char)o->val;
		if (o->has_arg != no_argument)
			f->shortopts[f->len++] = ':';
		if (o->has_arg == optional_argument)
			f->shortopts[f->len++] = ':';
	}
}

/* flags: "+" stops at the first operand (the command's name), "" does not. */
static int getopt_tables(int argc, char *argv[], const char *flags,
			 const struct cmd_option *options)
{
	static struct getopt_form f;
	int c;

	/* getopt wants '+' before ':' (quiet: we report errors ourselves). */
	f.n = 0;
	f.len = (size_t)snprintf(f.shortopts, sizeof(f.shortopts), "%s:", flags);
	getopt_add(&f, options);
	getopt_add(&f, cmd_global_options);
	f.longopts[f.n] = (struct option){ 0 };
	f.shortopts[f.len] = '\0';
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, f.shortopts, f.longopts, NULL);
		if (c == '?' || c == ':') {
			report_bad_option(c, argv, f.longopts);
			return '?';
		}
		/* "" would put the state files in /: /snapshots, /lock. */
		if (c == OPT_STATE_DIR && !*optarg) {
			log_usage_err("--state-dir: empty directory name");
			return '?';
		}
		if (!global_option(c, optarg))
			return c;
	}
}

int cmd_getopt(int argc, char *argv[], const struct cmd_option *options)
{
	return getopt_tables(argc, argv, "", options);
}

int cmd_getopt_top(int argc, char *argv[])
{
	return getopt_tables(argc, argv, "+", cmd_top_options);
}

int cmd_no_operands(int argc, char *argv[])
{
	if (optind >= argc)
		return EXIT_OK;
	log_usage_err("unexpected argument '%s'", argv[optind]);
	return EXIT_USAGE;
}

int cmd_setup(void)
{
	int r = sysfs_init(cmd_global.sysroot);

	if (r < 0) {
		log_err("--sysroot %s: %s", cmd_global.sysroot, strerror(-r));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const char *cmd_run_dir(void)
{
	return cmd_global.state_dir ? cmd_global.state_dir : RUN_DIR;
}

int cmd_require_live_root(const char *command, const char *why_live)
{
	if (!sysfs_is_live()) {
		log_usage_err("--sysroot %s: %s runs on the live system only (%s)",
			      cmd_global.sysroot, command, why_live);
		return EXIT_USAGE;
	}
	if (geteuid() != 0) {
		log_err("must be run as root");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_require_root_to_write(void)
{
	if (geteuid() == 0 || (cmd_global.sysroot && cmd_global.state_dir))
		return EXIT_OK;
	if (!cmd_global.sysroot)
		log_err("must be run as root");
	else
		log_err("must be run as root (or given --state-dir <dir> for the --sysroot tree)");
	return EXIT_FAIL;
}
