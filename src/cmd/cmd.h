/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command table, option tables, global options and exit codes shared
 * by cmd-*.c.  Implemented by cmd.c; each cmd_X by its command's file.
 */
#pragma once

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit codes: documented in numastatctl(8), relied on by provisioning tools. */
enum {
	EXIT_OK = 0,    /* success; apply --check found no drift */
	EXIT_FAIL = 1,  /* I/O error, kernel refused, knob missing, partial, rolled back */
	EXIT_USAGE = 2, /* bad option, unknown knob, invalid value, bad config: nothing changed */
	EXIT_DRIFT = 3, /* apply --check: the live system differs from the profile */
	EXIT_CODES,     /* how many: the codes are 0 .. EXIT_CODES - 1; keep it last */
};

/* Global options; they may stand before or after the command. */
struct globals {
	const char *sysroot;   /* NULL: the live system */
	const char *config;    /* NULL: /etc/numastatctl.conf + /etc/numastatctl.d */
	const char *state_dir; /* --state-dir, or NULL: RUN_DIR and STATE_DIR */
	bool json;
	bool quiet;
};
extern struct globals cmd_global;

/*
 * One option: its getopt_long() entry and its lines in --help, in one place
 * (systemd's OPTION_LONG).  A table lists a command's options in --help
 * order and ends with { 0 }.  Short options are the values that are
 * characters; long-only ones take an OPT_* value (util-linux style).
 */
struct cmd_option {
	const char *name; /* the long name, without "--" */
	int has_arg;      /* no_argument, required_argument or optional_argument */
	int val;          /* what cmd_getopt() returns; a character is also -<val> */
	const char *arg;  /* the argument as --help names it ("<dir>"), or NULL */
	const char *help; /* each "\n" starts a continuation line, indented by two */
};

struct cmd {
	const char *name;
	int (*run)(int argc, char *argv[]);
	const char *summary;              /* one line for `numastatctl --help` */
	void (*usage)(FILE *out);         /* the command's own --help */
	const struct cmd_option *options; /* its own options, or NULL */
};

extern const struct cmd cmd_status, cmd_advise, cmd_get, cmd_set, cmd_stat, cmd_map, cmd_placement,
	cmd_apply, cmd_profiles, cmd_revert, cmd_confirm, cmd_trial, cmd_snapshots, cmd_knobs,
	cmd_selftest, cmd_bench;
/* NULL-terminated, in --help order. */
extern const struct cmd *const cmd_table[];
/* Options every command takes, and those of numastatctl before a command. */
extern const struct cmd_option cmd_global_options[], cmd_top_options[];

/*
 * The most options a command may have besides the global ones: the size of
 * cmd_getopt()'s tables.  tests/gen-options.c fails the build beyond it.
 */
#define CMD_OPTIONS_MAX 40

/*
 * Option entries that several writers take word for word, with the value
 * each command's getopt switch uses.  One text for each, in every --help.
 */
#define CMD_OPTION_NO_SNAPSHOT(val)                                              \
	{                                                                        \
		"no-snapshot", no_argument, (val), NULL,                         \
			"let vm.numa_stat go 1 -> 0 without saving the counters" \
	}
#define CMD_OPTION_NO_REVERT_POINT(val)                                         \
	{                                                                       \
		"no-revert-point", no_argument, (val), NULL,                    \
			"change even when the old values cannot be saved for\n" \
			"'revert' (which then has nothing to undo)"             \
	}

/* Long-only options count up from here (util-linux style). */
enum {
	OPT_STATE_DIR = CHAR_MAX + 1,
	OPT_CMD_BASE, /* first value free for a command's long-only options */
};

/*
 * getopt_long() for a command with these options (or NULL): also takes the
 * global options (consumed here), prints usage errors itself.  Returns the
 * next command option, 'h' for --help, -1 at the end, or '?' after a usage
 * error was printed.
 */
int cmd_getopt(int argc, char *argv[], const struct cmd_option *options);

/* The same before the command: cmd_top_options, up to the command's name. */
int cmd_getopt_top(int argc, char *argv[]);

/* The --help lines of these options. */
void cmd_options_usage(FILE *out, const struct cmd_option *options);

/*
 * After option parsing, for a command that takes no operands: EXIT_OK, or
 * EXIT_USAGE after saying which argument was not expected.
 */
int cmd_no_operands(int argc, char *argv[]);

/* After option parsing: open the sysroot.  Returns EXIT_OK or an exit code. */
int cmd_setup(void);

/* The runtime directory of the revert point and the lock: --state-dir or RUN_DIR. */
const char *cmd_run_dir(void);

/*
 * For commands that act on the running kernel (selftest, bench): refuse
 * --sysroot (EXIT_USAGE, saying why_live) and non-root (EXIT_FAIL).
 */
int cmd_require_live_root(const char *command, const char *why_live);

/*
 * For a command about to write (set, apply, revert, confirm), before it reads
 * the configuration or touches the state directory: as non-root, say that
 * root is needed (EXIT_FAIL) unless both the knobs and the state are the
 * caller's own (--sysroot and --state-dir).
 */
int cmd_require_root_to_write(void);

/* The options every command shares, for usage() texts. */
void cmd_usage_global_options(FILE *out);
/*
 * The options of tables (NULL-terminated) by name alone, "-S/--sysroot
 * <dir>, ...", then end, folded at 80 columns: where the help must stay short.
 */
void cmd_options_brief(FILE *out, const struct cmd_option *const *tables, const char *end);
