// SPDX-License-Identifier: GPL-2.0-or-later
/* What every command shares: the global options, their parsing, setup. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cmd.h"
#include "log.h"
#include "suggest.h"
#include "sysfs.h"

struct globals G;

#define GLOBAL_SHORTOPTS "S:c:Jqh"

static const struct option global_longopts[] = {
	{ "sysroot", required_argument, NULL, 'S' },
	{ "config", required_argument, NULL, 'c' },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
};
#define N_GLOBAL (sizeof(global_longopts) / sizeof(global_longopts[0]))

void usage_global_options(FILE *out)
{
	fputs("\nGlobal options:\n"
	      " -S, --sysroot <dir>    use <dir>/proc and <dir>/sys instead of the live system\n"
	      " -c, --config <file>    profile file (default " SYSCONFDIR "/numastatctl.conf\n"
	      "                          and " SYSCONFDIR "/numastatctl.d/*.conf)\n"
	      "     --state-dir <dir>  keep the revert point, the lock and the snapshots in\n"
	      "                          <dir> (default " RUN_DIR " and " STATE_DIR ")\n"
	      " -J, --json             JSON output\n"
	      " -q, --quiet            print only errors\n"
	      " -h, --help             display this help\n", out);
}

/* Returns 1 when c was a global option (now recorded), 0 otherwise. */
static int global_option(int c, const char *arg)
{
	switch (c) {
	case 'S':
		G.sysroot = arg;
		return 1;
	case 'c':
		G.config = arg;
		return 1;
	case OPT_STATE_DIR:
		G.state_dir = arg;
		return 1;
	case 'J':
		G.json = true;
		return 1;
	case 'q':
		G.quiet = true;
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

int cmd_getopt(int argc, char *argv[], const char *shortopts, const struct option *longopts)
{
	static struct option merged[64];
	static char opts[128];
	size_t n = 0;
	int c;

	/* getopt wants '+' (stop at the first non-option) before ':' (quiet). */
	if (shortopts[0] == '+')
		snprintf(opts, sizeof(opts), "+:%s" GLOBAL_SHORTOPTS, shortopts + 1);
	else
		snprintf(opts, sizeof(opts), ":%s" GLOBAL_SHORTOPTS, shortopts);
	for (const struct option *o = longopts; o && o->name && n < 64 - N_GLOBAL - 1; o++)
		merged[n++] = *o;
	for (size_t i = 0; i < N_GLOBAL; i++)
		merged[n++] = global_longopts[i];
	merged[n] = (struct option){ 0 };
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, opts, merged, NULL);
		if (c == '?' || c == ':') {
			report_bad_option(c, argv, merged);
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

int cmd_setup(void)
{
	int r = sysfs_init(G.sysroot);

	if (r < 0) {
		log_err("--sysroot %s: %s", G.sysroot, strerror(-r));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const char *cmd_run_dir(void)
{
	return G.state_dir ? G.state_dir : RUN_DIR;
}

int cmd_require_live_root(const char *command, const char *why_live)
{
	if (!sysfs_is_live()) {
		log_usage_err("--sysroot %s: %s runs on the live system only (%s)", G.sysroot,
			      command, why_live);
		return EXIT_USAGE;
	}
	if (geteuid() != 0) {
		log_err("must be run as root");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
