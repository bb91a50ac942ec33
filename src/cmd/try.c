// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trials on the command line (try.h).  The change is made as every change
 * is (plan-execute.h); a trial adds a baseline measured before it, the
 * trial file saved and the revert armed between the revert point and the
 * first write, and, with --foreground, a wait in the terminal.  The armed
 * revert is `numastatctl revert --trial ID`, whether a systemd timer or
 * the waiting process runs it: one code path, in cmd-revert.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "duration.h"
#include "log.h"
#include "out.h"
#include "report.h"
#include "statedir.h"
#include "sysfs.h"
#include "timespec.h"
#include "trial-counters.h"
#include "trial-timer.h"
#include "try.h"
#include "value.h"
#include "why.h"

/*
 * With --foreground, every signal whose default ends the process and that
 * another process sends: each reverts the change first, then ends the run
 * as it would.  Not the faults the process raises itself (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT): blocking those changes
 * nothing, and no revert could be trusted after one.
 */
static const int held[] = { SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGUSR1,
			    SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF,
			    SIGXCPU, SIGXFSZ, SIGIO,   SIGSTKFLT, SIGPWR };

static void held_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		sigaddset(set, held[i]);
	/* The real-time ones; sigaddset() refuses the two the C library keeps (32, 33). */
	for (int sig = 32; sig < NSIG; sig++)
		sigaddset(set, sig);
}

/* The terminal's width for the sentences a trial says; 0 in a pipe (one line each). */
static size_t say_width(void)
{
	size_t cols, rows;

	out_terminal_size(&cols, &rows);
	return cols;
}

/* ---- options ---- */

int try_parse(struct try_opts *t, bool baseline, const char *arg)
{
	char why[WHY_MAX];
	int r;

	if (baseline) {
		r = duration_parse(arg, 0, TRY_BASELINE_MAX, &t->baseline, why, sizeof(why));
		/* Fewer readings than a spread needs would judge no row at all. */
		if (r == 0 && t->baseline && t->baseline < TRIAL_MIN_SAMPLES) {
			snprintf(why, sizeof(why),
				 "'%s': less than %ds (0 for none, or a duration from %ds to 1h: "
				 "the spread needs %d one-second readings)",
				 arg, TRIAL_MIN_SAMPLES, TRIAL_MIN_SAMPLES, TRIAL_MIN_SAMPLES);
			r = -ERANGE;
		}
		t->baseline_given = r == 0;
	} else
		r = duration_parse(arg, TRY_MIN, TRY_MAX, &t->secs, why, sizeof(why));
	if (r < 0) {
		log_usage_err("--%s: %s", baseline ? "baseline" : "try", why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int try_check(struct try_opts *t, const char *conflict)
{
	if (!t->secs && (t->baseline_given || t->foreground)) {
		log_usage_err("--%s goes with --try <time>",
			      t->foreground ? "foreground" : "baseline");
		return EXIT_USAGE;
	}
	if (t->secs && conflict) {
		log_usage_err("--try and %s exclude each other", conflict);
		return EXIT_USAGE;
	}
	if (t->foreground && cmd_global.json) {
		log_usage_err(
			"--foreground asks for an answer in the terminal: it has no JSON (-J)");
		return EXIT_USAGE;
	}
	if (t->secs && !t->baseline_given)
		t->baseline = t->secs < TRY_BASELINE_DEFAULT ? t->secs : TRY_BASELINE_DEFAULT;
	return EXIT_OK;
}

/* ---- words ---- */

void try_time(int64_t ns, char *buf, size_t len)
{
	time_t secs = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "?");
}

void try_knobs_text(const struct trial *t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n_knobs && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s -> %s", i ? ", " : "",
				      t->knobs[i].name, t->knobs[i].before, t->knobs[i].written);
}

/* "in 14s", "2m ago" from now to ns. */
static void from_now(int64_t ns, char *buf, size_t len)
{
	int64_t d = ns - timespec_now_ns(CLOCK_REALTIME);
	char span[DURATION_TEXT_MAX];

	duration_format((uint64_t)(((d < 0 ? -d : d) + 500000000) / 1000000000), span,
			sizeof(span));
	snprintf(buf, len, d >= 0 ? "in %s" : "%s ago", span);
}

/* A foreground trial's process is gone (kill -9): nothing will revert it. */
static bool orphaned(const struct trial *t)
{
	return t->armed == TRIAL_FOREGROUND && trial_timer_pid_gone(t->pid);
}

/* ---- a running trial ---- */

int try_running(int dirfd, const char *dir, const char *revert_id, struct trial *t)
{
	char why[WHY_MAX];
	int r = trial_load(dirfd, dir, t, why, sizeof(why));

	if (r == -ENOENT || r == -EXDEV)
		return 0;
	if (r < 0) {
		log_warn("%s", why);
		return r;
	}
	if (t->state == TRIAL_RUNNING && revert_id && strcmp(t->point.id, revert_id) == 0)
		return 1;
	trial_free(t);
	return 0;
}

void try_revert_id(int dirfd, const char *dir, char *id, size_t len)
{
	struct state_point h;
	struct plan p = { 0 };
	char why[WHY_MAX];

	id[0] = '\0';
	if (state_load_prior(dirfd, dir, &p, &h, why, sizeof(why)) >= 0)
		str_copy(id, h.id, len);
	plan_free(&p);
}

int try_refuse_running(int dirfd, const char *dir)
{
	char id[STATE_ID_MAX], until[32], knobs[1024];
	struct trial t;

	char why[WHY_MAX];
	int r;

	/* Every set and apply asks: without a trial file, at the cost of one stat. */
	if (!trial_present(dirfd))
		return EXIT_OK;
	/*
	 * A trial file that cannot be read may be a running trial's: its
	 * revert would not find a later revert point, so its change would
	 * never be reverted.  Fail closed.
	 */
	r = trial_load(dirfd, dir, &t, why, sizeof(why));
	if (r < 0 && r != -ENOENT && r != -EXDEV) {
		log_err("%s: a trial may run, whose revert this change would defeat: 'numastatctl "
			"revert' undoes the last change, then remove the file; nothing was changed",
			why);
		return EXIT_FAIL;
	}
	if (r == 0)
		trial_free(&t);
	try_revert_id(dirfd, dir, id, sizeof(id));
	if (!id[0] || try_running(dirfd, dir, id, &t) <= 0)
		return EXIT_OK;
	try_time(trial_deadline_ns(&t), until, sizeof(until));
	try_knobs_text(&t, knobs, sizeof(knobs));
	log_err("trial %s ('%s': %s) runs until %s%s: 'numastatctl confirm' keeps its change, "
		"'numastatctl revert' undoes it now; change again after that: nothing was changed",
		t.point.id, t.point.by, knobs, until,
		orphaned(&t) ? " (its terminal is gone: nothing will revert it)" : "");
	trial_free(&t);
	return EXIT_FAIL;
}

int try_end(int dirfd, const char *dir, struct trial *t, enum trial_state how)
{
	char why[WHY_MAX], unit[TRIAL_TIMER_UNIT_MAX];
	int r;

	if (!t->reading[TRIAL_END].n &&
	    trial_counters_read(&t->reading[TRIAL_END], why, sizeof(why)) < 0) {
		log_warn("the trial's report ends without counters: %s", why);
		trial_counters_add(&t->reading[TRIAL_END], TRIAL_ALL);
	}
	t->state = how;
	t->ended_ns = timespec_now_ns(CLOCK_REALTIME);
	if ((r = trial_save(dirfd, dir, t, why, sizeof(why))) < 0) {
		log_err("%s", why);
		return r;
	}
	if (t->armed == TRIAL_TIMER && trial_timer_disarm(t->point.id, why, sizeof(why)) < 0) {
		trial_timer_unit(t->point.id, unit, sizeof(unit));
		log_warn(
			"cannot stop %s (%s): when it runs, it finds the trial %s and does nothing",
			unit, why, trial_state_name(how));
	}
	/* The boot unit refused during the trial: the profile comes back once it ended. */
	if ((r = trial_timer_boot_unit_again(why, sizeof(why))) < 0)
		log_warn("cannot start " TRIAL_BOOT_UNIT " again after the trial (%s): the profile "
			 "is in force again only once it runs",
			 why);
	else if (r > 0 && !cmd_global.json)
		log_info(TRIAL_BOOT_UNIT " failed during the trial: started again, to put the "
					 "profile back in force\n");
	return 0;
}

/* ---- before the change ---- */

static void sleep_until(int64_t mono_ns)
{
	struct timespec ts = { .tv_sec = mono_ns / 1000000000, .tv_nsec = mono_ns % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void drop_baseline(struct trial *t, const char *why)
{
	log_warn("the trial's report will have no baseline: %s", why);
	trial_counters_free(&t->reading[TRIAL_BASE_START]);
	trial_counters_free(&t->reading[TRIAL_BASE_END]);
	trial_spreads_free(&t->spreads);
}

/*
 * One reading a second for the baseline's length, each second's values
 * into the spreads: the counters move with the workload, and the spread
 * says by how much before anything changed.
 */
static void measure_baseline(struct try_run *r)
{
	struct trial *t = &r->t;
	struct trial_counters prev = { 0 }, cur;
	char span[DURATION_TEXT_MAX], why[WHY_MAX];

	duration_format(r->o->baseline, span, sizeof(span));
	if (!cmd_global.json)
		log_info_wrapped(say_width(), 2,
				 "measuring the counters for %s before the change, the trial's "
				 "baseline (Ctrl-C stops here: nothing is changed yet)",
				 span);
	fflush(stdout);
	if (trial_counters_read(&t->reading[TRIAL_BASE_START], why, sizeof(why)) < 0 ||
	    trial_counters_read(&prev, why, sizeof(why)) < 0) {
		drop_baseline(t, why);
		return;
	}
	for (uint64_t i = 1; i <= r->o->baseline; i++) {
		int e;

		sleep_until(t->reading[TRIAL_BASE_START].mono_ns + (int64_t)i * 1000000000);
		if ((e = trial_counters_read(&cur, why, sizeof(why))) == 0) {
			e = trial_spreads_add(&t->spreads, &prev, &cur);
			trial_counters_free(&prev);
			prev = cur;
		}
		if (e < 0) {
			if (e == -ENOMEM)
				snprintf(why, sizeof(why), "%s", strerror(ENOMEM));
			trial_counters_free(&prev);
			drop_baseline(t, why);
			return;
		}
	}
	t->reading[TRIAL_BASE_END] = prev;
}

/* The runtime directory, when it exists, to look at (no lock: a trial is looked for twice). */
static int peek_running(void)
{
	char why[WHY_MAX];
	int fd = statedir_open(cmd_run_dir(), false, why, sizeof(why)), rc;

	if (fd == -ENOENT)
		return EXIT_OK;
	if (fd < 0) {
		log_err("%s", why);
		return EXIT_FAIL;
	}
	rc = try_refuse_running(fd, cmd_run_dir());
	close(fd);
	return rc;
}

int try_begin(struct try_run *r, const struct try_opts *o, struct plan *p)
{
	int rc;

	*r = (struct try_run){ .o = o, .p = p, .dirfd = -1 };
	if (!o->secs)
		return EXIT_OK;
	if (!o->foreground && !trial_timer_available()) {
		log_err("--try: systemd does not run this machine (no /run/systemd/system), so no "
			"timer can revert the change when its time is up: add --foreground to wait "
			"for it in this terminal; nothing was changed");
		return EXIT_FAIL;
	}
	if ((rc = peek_running()) != EXIT_OK)
		return rc;
	/* A change that changes nothing needs no baseline (and gets no trial). */
	if (plan_read_live(p) == 0 && plan_has_writes(p) && o->baseline)
		measure_baseline(r);
	return EXIT_OK;
}

/* ---- arming, between the revert point and the first write ---- */

/* What the armed revert runs: this binary, the run's global options, revert --trial ID. */
static int revert_argv(const char *id, char *exe, char *paths[3], char *argv[12])
{
	const char *opts[] = { "--sysroot", "--config", "--state-dir" };
	const char *given[] = { sysfs_is_live() ? NULL : cmd_global.sysroot, cmd_global.config,
				cmd_run_dir() };
	size_t n = 0;
	int r = sysfs_self_exe(exe, PATH_MAX);

	if (r < 0)
		return r;
	argv[n++] = exe;
	for (int i = 0; i < 3; i++) {
		/* The timer's service starts in /: every path absolute. */
		if (!given[i])
			continue;
		/* A buffer of PATH_MAX: the checked realpath() the build already imports. */
		if (!(paths[i] = malloc(PATH_MAX)))
			return -ENOMEM;
		if (!realpath(given[i], paths[i]))
			return -errno;
		argv[n++] = (char *)opts[i];
		argv[n++] = paths[i];
	}
	argv[n++] = (char *)"revert";
	argv[n++] = (char *)"--trial";
	argv[n++] = (char *)id;
	argv[n] = NULL;
	return 0;
}

static int arm_timer(struct try_run *r, char *why, size_t whylen)
{
	char exe[PATH_MAX], msg[2048], *paths[3] = { NULL, NULL, NULL }, *argv[12];
	int e = revert_argv(r->t.point.id, exe, paths, argv);

	if (e < 0)
		snprintf(why, whylen, "cannot arm the trial's revert: %s", strerror(-e));
	else if ((e = trial_timer_arm(r->t.point.id, trial_deadline_ns(&r->t), argv, msg,
				      sizeof(msg))) < 0)
		snprintf(why, whylen, "cannot arm the trial's revert: %s", msg);
	for (int i = 0; i < 3; i++)
		free(paths[i]);
	return e;
}

static bool signal_pending(void)
{
	sigset_t pending, block;

	if (sigpending(&pending) < 0)
		return false;
	held_set(&block);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&block, sig) == 1 && sigismember(&pending, sig) == 1)
			return true;
	return false;
}

/* The trial as it starts: who, what, how long, and the counters now. */
static int fill(struct try_run *r, const struct plan_opts *po)
{
	struct trial *t = &r->t;
	char why[WHY_MAX];

	state_this_system(&t->point);
	str_copy(t->point.id, po->revert_id, sizeof(t->point.id));
	str_copy(t->point.by, po->what, sizeof(t->point.by));
	t->armed = r->o->foreground ? TRIAL_FOREGROUND : TRIAL_TIMER;
	t->pid = r->o->foreground ? (uint64_t)getpid() : 0;
	t->seconds = r->o->secs;
	for (size_t i = 0; i < r->p->n; i++) {
		const struct plan_item *it = &r->p->items[i];

		if (it->action == ACT_WRITE &&
		    trial_add_knob(t, it->ref.name, it->old.text, it->want.text) < 0)
			return -ENOMEM;
	}
	if (trial_counters_read(&t->reading[TRIAL_START], why, sizeof(why)) < 0) {
		log_warn("the trial's report will have no counters: %s", why);
		if (!trial_counters_add(&t->reading[TRIAL_START], TRIAL_ALL))
			return -ENOMEM;
	}
	t->start_ns = timespec_now_ns(CLOCK_REALTIME);
	return 0;
}

static int before_write(struct plan_opts *po, void *ctx)
{
	struct try_run *r = ctx;
	int e;

	/* With --foreground a signal reverts; before the first write it cancels. */
	if (r->blocked && signal_pending()) {
		snprintf(po->why, sizeof(po->why), "interrupted before the first write");
		return -EINTR;
	}
	if (fill(r, po) < 0) {
		snprintf(po->why, sizeof(po->why), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	trial_stash(po->run_fd);
	if ((e = trial_save(po->run_fd, po->run_dir, &r->t, po->why, sizeof(po->why))) == 0 &&
	    !r->o->foreground && (e = arm_timer(r, po->why, sizeof(po->why))) == 0) {
		struct trial_counters now;
		char why[WHY_MAX];

		r->armed = true;
		/*
		 * The window starts after systemd-run and PID 1's work for the
		 * timer: their pages are the trial's own, not the change's.
		 */
		if (trial_counters_read(&now, why, sizeof(why)) == 0) {
			trial_counters_free(&r->t.reading[TRIAL_START]);
			r->t.reading[TRIAL_START] = now;
			if (trial_save(po->run_fd, po->run_dir, &r->t, why, sizeof(why)) < 0)
				log_warn("%s: the trial's window starts before its timer was armed",
					 why);
		}
	}
	if (e < 0)
		trial_unstash(po->run_fd, true);
	return e;
}

static void not_made(struct plan_opts *po, void *ctx)
{
	struct try_run *r = ctx;
	char why[WHY_MAX];

	if (r->armed && trial_timer_disarm(r->t.point.id, why, sizeof(why)) < 0)
		log_warn("the change was not made, but its revert stays armed (%s): when it runs, "
			 "it finds another revert point and does nothing",
			 why);
	r->armed = false;
	trial_unstash(po->run_fd, true);
}

void try_arm(struct try_run *r, struct plan_opts *po)
{
	sigset_t block;

	if (!r->o->secs)
		return;
	po->before_write = before_write;
	po->not_made = not_made;
	po->ctx = r;
	r->dirfd = po->run_fd;
	r->dir = po->run_dir;
	if (!r->o->foreground)
		return;
	/* From here a signal reverts the change: it must not end the run first. */
	held_set(&block);
	sigprocmask(SIG_BLOCK, &block, &r->old);
	r->blocked = true;
}

void try_made(struct try_run *r, int rc)
{
	/* Nothing to write: the trial file was never saved, nothing is armed. */
	r->no_change = r->o->secs && rc == 0 && !r->t.point.id[0];
	if (!r->o->secs || rc != 0 || !r->t.point.id[0])
		return;
	trial_unstash(r->dirfd, false);
	r->made = true;
}

/* ---- after the change ---- */

struct out_table *try_json(const struct try_run *r)
{
	char why[WHY_MAX], at[32], unit[TRIAL_TIMER_UNIT_MAX];
	struct out_table *t;
	struct out_row *row;

	if (!r->made || out_table_new(&t, "trial", OUT_JSON, why, sizeof(why)) < 0)
		return NULL;
	out_table_add_column(t, "id", 0, 0);
	out_table_add_column(t, "reverts_at", 0, 0);
	out_table_add_column(t, "seconds", 0, OUT_COL_NUMBER);
	out_table_add_column(t, "armed", 0, 0);
	out_table_add_column(t, "unit", 0, 0);
	out_table_add_column(t, "pid", 0, OUT_COL_NUMBER);
	out_table_add_column(t, "baseline_seconds", 0, OUT_COL_NUMBER);
	if (!(row = out_table_add_row(t))) {
		out_table_free(t);
		return NULL;
	}
	try_time(trial_deadline_ns(&r->t), at, sizeof(at));
	trial_timer_unit(r->t.point.id, unit, sizeof(unit));
	out_row_set(row, 0, r->t.point.id);
	out_row_set(row, 1, at);
	out_row_setf(row, 2, "%" PRIu64, r->t.seconds);
	out_row_set(row, 3, trial_armed_name(r->t.armed));
	out_row_set(row, 4, r->t.armed == TRIAL_TIMER ? unit : NULL);
	if (r->t.armed == TRIAL_FOREGROUND)
		out_row_setf(row, 5, "%" PRIu64, r->t.pid);
	if (r->t.reading[TRIAL_BASE_END].n)
		out_row_setf(row, 6, "%" PRIu64, r->o->baseline);
	return t;
}

void try_say(const struct try_run *r)
{
	char at[32], in[48], unit[TRIAL_TIMER_UNIT_MAX];

	if (r->no_change && !cmd_global.json)
		log_info("no trial: nothing was changed, so there is nothing to revert\n");
	if (!r->made)
		return;
	try_time(trial_deadline_ns(&r->t), at, sizeof(at));
	if (r->t.armed == TRIAL_TIMER) {
		char note[128];

		/* What main says when the report could not be written: the change is a trial. */
		snprintf(note, sizeof(note), "trial %s: it reverts at %s unless confirmed",
			 r->t.point.id, at);
		report_changes_note(note);
	}
	if (cmd_global.json)
		return;
	from_now(trial_deadline_ns(&r->t), in, sizeof(in));
	trial_timer_unit(r->t.point.id, unit, sizeof(unit));
	log_info_wrapped(say_width(), 2,
			 "trial %s: the change reverts at %s (%s) unless it is confirmed",
			 r->t.point.id, at, in);
	if (r->t.armed == TRIAL_TIMER)
		log_info_wrapped(say_width(), 2,
				 "%s runs the revert; 'numastatctl confirm' keeps the change, "
				 "'numastatctl trial' compares the counters with the baseline",
				 unit);
}

static int trial_object(const struct trial *t, struct out_doc *d, char *why, size_t whylen)
{
	static const char *const cols[] = { "id",  "by",      "state",   "armed",      "unit",
					    "pid", "started", "seconds", "reverts_at", "ended" };
	char at[32], unit[TRIAL_TIMER_UNIT_MAX];
	struct out_table *o;
	struct out_row *row;
	int r = out_table_new(&o, "trial", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		out_table_add_column(o, cols[i], 0,
				     strcmp(cols[i], "pid") == 0 || strcmp(cols[i], "seconds") == 0
					     ? OUT_COL_NUMBER
					     : 0);
	if (t && !(row = out_table_add_row(o)))
		r = -ENOMEM;
	else if (t) {
		trial_timer_unit(t->point.id, unit, sizeof(unit));
		out_row_set(row, 0, t->point.id);
		out_row_set(row, 1, t->point.by);
		out_row_set(row, 2, trial_state_name(t->state));
		out_row_set(row, 3, trial_armed_name(t->armed));
		out_row_set(row, 4, t->armed == TRIAL_TIMER ? unit : NULL);
		if (t->armed == TRIAL_FOREGROUND)
			out_row_setf(row, 5, "%" PRIu64, t->pid);
		try_time(t->start_ns, at, sizeof(at));
		out_row_set(row, 6, at);
		out_row_setf(row, 7, "%" PRIu64, t->seconds);
		try_time(trial_deadline_ns(t), at, sizeof(at));
		out_row_set(row, 8, at);
		try_time(t->ended_ns, at, sizeof(at));
		out_row_set(row, 9, t->state != TRIAL_RUNNING ? at : NULL);
	}
	if (r == 0)
		r = out_doc_add(d, o, OUT_PART_OBJECT);
	out_table_free(o);
	return r;
}

int try_trial_json(const struct trial *t, const char *knobs_name, struct out_doc *d, char *why,
		   size_t whylen)
{
	struct out_table *k;
	int r = trial_object(t, d, why, whylen);

	if (r < 0 || (r = out_table_new(&k, knobs_name, OUT_JSON, why, whylen)) < 0)
		return r;
	out_table_add_column(k, "name", 0, 0);
	out_table_add_column(k, "old", 0, 0);
	out_table_add_column(k, "new", 0, 0);
	for (size_t i = 0; t && i < t->n_knobs && r == 0; i++) {
		struct out_row *row = out_table_add_row(k);

		if (!row) {
			r = -ENOMEM;
			break;
		}
		out_row_set(row, 0, t->knobs[i].name);
		out_row_set(row, 1, t->knobs[i].before);
		out_row_set(row, 2, t->knobs[i].written);
	}
	if (r == 0)
		r = out_doc_add(d, k, OUT_PART_ARRAY);
	out_table_free(k);
	return r;
}

void try_status_line(const struct trial *t, bool runs, char *buf, size_t len)
{
	char at[32], rel[48], knobs[512];

	try_knobs_text(t, knobs, sizeof(knobs));
	if (runs) {
		int64_t when = trial_deadline_ns(t);
		const char *note =
			orphaned(t) ? ", but its terminal is gone: nothing will revert it" : "";
		char why[WHY_MAX];

		/* The timer's own time, from systemd: a pending revert is never called late. */
		if (t->armed == TRIAL_TIMER) {
			int r = trial_timer_next(t->point.id, &when, why, sizeof(why));

			if (r == 0 &&
			    trial_deadline_ns(t) < timespec_now_ns(CLOCK_REALTIME) - 5000000000)
				note = ", overdue: its revert did not run (see the journal)";
			else if (r == 0 && trial_deadline_ns(t) > timespec_now_ns(CLOCK_REALTIME))
				note = ", but its timer is not armed: nothing will revert it";
			if (r < 0)
				log_warn("cannot ask systemd when the trial's revert runs: %s",
					 why);
			if (r != 1)
				when = trial_deadline_ns(t);
		}
		try_time(when, at, sizeof(at));
		from_now(when, rel, sizeof(rel));
		snprintf(buf, len, "trial %s: '%s' (%s) reverts at %s (%s)%s unless confirmed",
			 t->point.id, t->point.by, knobs, at, rel, note);
		return;
	}
	try_time(t->ended_ns, at, sizeof(at));
	if (t->state == TRIAL_RUNNING)
		snprintf(buf, len,
			 "last trial %s: '%s' (%s) no longer runs: its revert point is gone",
			 t->point.id, t->point.by, knobs);
	else
		snprintf(buf, len, "last trial %s: '%s' (%s) %s at %s", t->point.id, t->point.by,
			 knobs, trial_state_name(t->state), at);
}

/* ---- --foreground: the wait ---- */

/* Run another command of ours in this process, as `numastatctl NAME ARGS` would. */
static int run_command(const struct cmd *c, const char *arg1, const char *arg2)
{
	char *argv[] = { (char *)c->name, (char *)arg1, (char *)arg2, NULL };

	fflush(stdout);
	log_set_command(c->name);
	optind = 0;
	return c->run(arg2 ? 3 : arg1 ? 2 : 1, argv);
}

static int revert_now(struct try_run *r, int sig)
{
	int rc = run_command(&cmd_revert, "--trial", r->t.point.id);

	if (sig) {
		/* End as the signal ends a run, the change undone. */
		fflush(stdout);
		signal(sig, SIG_DFL);
		sigprocmask(SIG_SETMASK, &r->old, NULL);
		raise(sig);
	}
	return rc;
}

/* The trial file as it stands: any save replaces it (a new inode). */
static bool same_file(int dirfd, struct stat *was)
{
	struct stat st;
	bool same;

	if (fstatat(dirfd, TRIAL_FILE, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	same = st.st_ino == was->st_ino && st.st_dev == was->st_dev &&
	       st.st_mtim.tv_sec == was->st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == was->st_mtim.tv_nsec && st.st_size == was->st_size;
	*was = st;
	return same;
}

/*
 * Another terminal confirmed or reverted it: 1 and said, else 0.  The file
 * is read only once it changed: a read a second would put our own page
 * faults into the trial's counters.
 */
static int ended_elsewhere(struct try_run *r, int dirfd, struct stat *was)
{
	struct trial t;
	char why[WHY_MAX], at[32];
	int e;

	if (same_file(dirfd, was))
		return 0;
	e = trial_load(dirfd, r->dir, &t, why, sizeof(why));
	if (e < 0 && e != -EXDEV) {
		char id[STATE_ID_MAX];

		/* Gone or spoilt while the change stands: saved again, so it still reverts. */
		try_revert_id(dirfd, r->dir, id, sizeof(id));
		if (strcmp(id, r->t.point.id) == 0 &&
		    trial_save(dirfd, r->dir, &r->t, why, sizeof(why)) == 0) {
			log_warn("trial %s: its file was removed or spoilt: saved again, the trial "
				 "goes on",
				 r->t.point.id);
			same_file(dirfd, was);
			return 0;
		}
	}

	if (e == 0 && strcmp(t.point.id, r->t.point.id) == 0 && t.state == TRIAL_RUNNING) {
		trial_free(&t);
		return 0;
	}
	if (e == 0 && strcmp(t.point.id, r->t.point.id) == 0) {
		try_time(t.ended_ns, at, sizeof(at));
		log_line("trial %s was %s elsewhere at %s", t.point.id, trial_state_name(t.state),
			 at);
	} else
		log_warn(
			"trial %s: its file is gone or another trial's: nothing is left to wait for",
			r->t.point.id);
	if (e == 0)
		trial_free(&t);
	return 1;
}

/* A whole line of input: "yes" keeps, "no" reverts; 0 for anything else (said). */
static int answer(const char *line)
{
	if (strcmp(line, "yes") == 0 || strcmp(line, "y") == 0)
		return 1;
	if (strcmp(line, "no") == 0 || strcmp(line, "n") == 0)
		return -1;
	log_info("answer 'yes' to keep the change or 'no' to revert it now\n");
	return 0;
}

/* Input read so far in buf[*len]: the first whole line's answer, or 0. */
static int take_input(char *buf, size_t *len)
{
	char *nl;
	int a = 0;

	while (!a && (nl = memchr(buf, '\n', *len))) {
		size_t n = (size_t)(nl - buf) + 1;

		*nl = '\0';
		a = answer(str_strip(buf));
		memmove(buf, buf + n, *len - n);
		*len -= n;
	}
	if (*len == 63)
		*len = 0; /* a line too long to be an answer */
	return a;
}

static int wait_loop(struct try_run *r, int sfd, int dirfd)
{
	int64_t end = timespec_now_ns(CLOCK_MONOTONIC) + trial_deadline_ns(&r->t) -
		      timespec_now_ns(CLOCK_REALTIME);
	struct stat was = { 0 }; /* none yet: the first look reads the file */
	bool input = true;
	char buf[64];
	size_t len = 0;

	for (;;) {
		int64_t left = end - timespec_now_ns(CLOCK_MONOTONIC);
		struct pollfd fds[2] = { { .fd = sfd, .events = POLLIN },
					 { .fd = input ? STDIN_FILENO : -1, .events = POLLIN } };
		struct signalfd_siginfo si;
		ssize_t n;
		int a;

		if (left <= 0)
			return revert_now(r, 0);
		poll(fds, 2, left > 1000000000 ? 1000 : (int)(left / 1000000) + 1);
		if ((fds[0].revents & POLLIN) &&
		    read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			log_info("trial %s: SIG%s\n", r->t.point.id,
				 sigabbrev_np((int)si.ssi_signo));
			return revert_now(r, (int)si.ssi_signo);
		}
		if (input && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			n = read(STDIN_FILENO, buf + len, sizeof(buf) - 1 - len);
			/* No more input (</dev/null, a closed pipe): the time or a signal decides. */
			input = n > 0 || (n < 0 && errno == EINTR);
			len += n > 0 ? (size_t)n : 0;
			if ((a = take_input(buf, &len)) > 0)
				return run_command(&cmd_confirm, r->t.point.id, NULL);
			if (a < 0)
				return revert_now(r, 0);
		}
		if (ended_elsewhere(r, dirfd, &was))
			return EXIT_OK;
	}
}

int try_wait(struct try_run *r, int rc)
{
	char why[WHY_MAX];
	sigset_t block;
	int sfd, dirfd;

	if (!r->made || !r->o->foreground) {
		if (r->blocked)
			sigprocmask(SIG_SETMASK, &r->old, NULL);
		return rc;
	}
	log_info_wrapped(
		say_width(), 2,
		"type 'yes' to keep the change, 'no' to revert it now ('numastatctl confirm' "
		"elsewhere keeps it too); Ctrl-C, SIGTERM, closing this terminal or any signal "
		"that ends this process reverts it");
	fflush(stdout);
	held_set(&block);
	sfd = signalfd(-1, &block, SFD_CLOEXEC);
	dirfd = statedir_open(r->dir, false, why, sizeof(why));
	if (sfd < 0 || dirfd < 0) {
		log_err("cannot wait for the trial (%s): reverting it now",
			sfd < 0 ? strerror(errno) : why);
		rc = revert_now(r, 0);
	} else
		rc = wait_loop(r, sfd, dirfd);
	if (sfd >= 0)
		close(sfd);
	if (dirfd >= 0)
		close(dirfd);
	sigprocmask(SIG_SETMASK, &r->old, NULL);
	return rc;
}

void try_free(struct try_run *r)
{
	trial_free(&r->t);
}
