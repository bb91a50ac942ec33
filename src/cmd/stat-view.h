/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A view of `stat`: what it shows, as one object of operations.  The stat
 * command (cmd-stat.c) holds the one table of views and picks one (by its
 * option, else --pid, else the counter table); stat_view_run() drives it:
 * setup(), then print() once, or prom() for --prometheus and --textfile,
 * or sample() and print() at each interval (stat-loop.c), with prom() into
 * --textfile after each for a view that keeps its file
 * (STAT_VIEW_TEXTFILE_LOOP).  A view keeps its state in a context the
 * driver allocates (ctx_size bytes, zeroed) and frees after free().  What
 * every view needs besides: node selection, -o and --sort against its
 * columns, its JSON document, titles.  Adding a view: HACKING.md, "Adding
 * a stat view"; the views themselves are in cmd-stat.h.  Implemented by
 * stat-view.c and stat-loop.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "cmd.h"
#include "grid.h"
#include "stat.h"

/* What a sample or the totals cover (print()'s in; NULL: one-shot). */
struct stat_loop_info {
	unsigned long sample; /* 1, 2, ...; 0 for the totals */
	double secs;          /* what the values cover */
	struct timespec when; /* the sample's time; the start for the totals */
	bool total;           /* the totals since the start */
};

/* Why sample() is called. */
enum stat_sample {
	STAT_SAMPLE_FIRST,    /* the baselines, before the first interval; nothing is printed */
	STAT_SAMPLE_NEXT,     /* an interval passed: read again, keep the changes */
	STAT_SAMPLE_TOPOLOGY, /* a kernel uevent: nodes or memory came or went (STAT_VIEW_HOTPLUG) */
};

/* A column of a view: what -o and --sort take, JSON's key, the man page's entry. */
struct stat_view_col {
	const char *name; /* header, -o and --sort name ("N<id>": one per node) */
	const char *json; /* JSON key */
	int key;          /* the view's own (an enum vms_key), or -1 */
	unsigned flags;   /* OUT_COL_* */
	const char *help; /* one line: the man page; a counter's Prometheus HELP */
};

enum {
	STAT_VIEW_HOTPLUG = 1 << 0, /* interval mode listens for kernel uevents (the live system) */
	/*
	 * Interval mode takes --textfile: the file is rewritten after each
	 * sample (the baseline's included) and removed when the run ends,
	 * SIGKILL aside, so that a scraper never exports a stopped run's
	 * counters as if they still counted.  --prometheus stays one-shot.
	 */
	STAT_VIEW_TEXTFILE_LOOP = 1 << 1,
};

struct stat_view {
	const char *name; /* "tiers": messages, and --textfile's numastatctl-<name>.prom */
	/*
	 * The option that picks the view, as --help lists it (its value is the
	 * stat command's); { 0 } for the views the stat command picks itself.
	 * An option with an argument may be given more than once: the
	 * arguments are o->view_args.
	 */
	struct cmd_option option;
	const struct stat_view_col
		*cols;        /* for the man page, ending with { 0 }; NULL: listed apart */
	const char *textfile; /* --textfile's file name; NULL: numastatctl-<name>.prom */
	size_t ctx_size;      /* the context setup() gets, zeroed */
	unsigned flags;       /* STAT_VIEW_* */
	/*
	 * Check the options, read what the view needs once (keeping fds open
	 * for interval mode) and resolve -o and --sort.  EXIT_OK to go on
	 * (*rc EXIT_FAIL when something could not be read, after saying so),
	 * or the exit code after a message.  A view without sample() or prom()
	 * refuses an interval or --prometheus/--textfile here, in its words.
	 */
	int (*setup)(void *ctx, const struct stat_opts *o, int *rc);
	/* Interval mode: read again (one pread per kept fd).  EXIT_OK, or EXIT_FAIL after saying why. */
	int (*sample)(void *ctx, double secs, enum stat_sample how);
	/* The reading (in NULL), a sample or the totals.  0, or -errno after saying why (-EIO: stdout). */
	int (*print)(void *ctx, const struct stat_loop_info *in);
	/*
	 * The Prometheus text of the reading.  0 or -EIO; in interval mode
	 * (STAT_VIEW_TEXTFILE_LOOP), -ENODATA: no reading to write this time
	 * (said by sample()), the file written before stays.
	 */
	int (*prom)(void *ctx, FILE *f);
	/* Release what setup() and sample() took (also after a failed setup()). */
	void (*free)(void *ctx);
};

/* Run view v with o (one-shot, --prometheus/--textfile, or an interval); an EXIT_* code. */
int stat_view_run(const struct stat_view *v, const struct stat_opts *o);
/*
 * stat INTERVAL [COUNT] for v (stat-loop.c): sample, print, the totals at
 * the end.  *stopped_by: the signal (Ctrl-C, SIGTERM) that ended it, or 0;
 * the caller releases the view, then calls stat_loop_end_by() with it.
 */
int stat_loop_run(const struct stat_view *v, void *ctx, const struct stat_opts *o, int *stopped_by);
void stat_loop_end_by(int sig);
/*
 * --textfile: write v's Prometheus text to its file in o->textfile, through
 * a temporary file and a rename.  EXIT_OK or EXIT_FAIL after saying why.
 */
int stat_view_textfile(const struct stat_view *v, void *ctx, const struct stat_opts *o);
/* Remove v's file from o->textfile (a run of STAT_VIEW_TEXTFILE_LOOP ended); says a failure. */
void stat_view_textfile_remove(const struct stat_view *v, const struct stat_opts *o);

/* --nodes named a node that is not here: the message, with the nodes there are. */
void stat_view_say_missing_node(const struct node_miss *missing);
/*
 * The nodes of --nodes (each must exist), else every node: the count with
 * *ids malloc'ed, or -EXIT_USAGE / -EXIT_FAIL after saying why.
 */
int stat_view_nodes(const struct stat_opts *o, unsigned **ids);
/*
 * Resolve -o (a list of column names, "+LIST" appends to the defaults) and
 * --sort against view v's columns (case-insensitive).  names[0..n) are its
 * columns, defaults[0..nd) the indexes shown without -o.  Fills cols (room
 * for cap, at least nd), *ncols and *sort (-1: none).  0, or -EINVAL after
 * a usage message naming v's option and what it takes (or how many).
 */
int stat_view_columns(const struct stat_view *v, const struct stat_opts *o,
		      const char *const *names, size_t n, const int *defaults, size_t nd, int *cols,
		      size_t cap, size_t *ncols, int *sort);
/*
 * A view's JSON document: {"time":...,NAME:[rows]} one-shot (in NULL),
 * {"sample":...,"time":...,"seconds":...,NAME:[...]} on one line per
 * sample, {"since":...,"seconds":...,NAME:[...]} for the totals.  The
 * rows are g's data rows after -z and --sort.  0, or -errno with why.
 */
int stat_view_json(const struct grid *g, const struct stat_opts *o, const struct stat_loop_info *in,
		   const char *name, char *why, size_t whylen);
/*
 * -J of a view too large for one grid: g's rows into the document *d
 * (made, with the leading members, on the first call), printed as they
 * come, so memory holds one part; stat_view_json_end() closes and frees
 * it.  The same text as stat_view_json() of all the rows in one grid.
 * 0 or -errno with why filled.
 */
/*
 * The document of stat_view_json_part() made now, with its leading members,
 * so that whole arrays can go in before the streamed one.  0 or -errno.
 */
int stat_view_json_begin(struct out_doc **d, const struct stat_loop_info *in, char *why,
			 size_t whylen);
int stat_view_json_part(struct out_doc **d, const struct grid *g, const struct stat_opts *o,
			const struct stat_loop_info *in, const char *name, char *why,
			size_t whylen);
int stat_view_json_end(struct out_doc *d, char *why, size_t whylen);
/*
 * A line of text above a view's table (what the kernel has, which knobs are
 * on), escaped (escape.h): one line when piped, wrapped at spaces to o's
 * width on a terminal (or -w), the rest indented by two.
 */
void stat_view_line(const struct stat_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text over a sample's table ("sample 2 at 10:00:01: changes over 1.00 s"). */
void stat_view_title(const struct stat_opts *o, const struct stat_loop_info *in);
