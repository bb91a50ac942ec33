// SPDX-License-Identifier: GPL-2.0-or-later
/* placement --move: the plan, the moves and their report (placement-move.h). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cmd.h"
#include "log.h"
#include "out.h"
#include "page-move.h"
#include "placement-move.h"
#include "value.h"
#include "why.h"

/* One row of the plan and report: a process's pages of one class from one node to another. */
struct row {
	unsigned pid, from, to;
	enum pl_class cls;
	uint64_t pages, bytes;
	struct page_move_stat st;
	bool done;   /* carried out (not a dry run, not stopped before it) */
	bool exited; /* the process exited meanwhile */
	bool cut;    /* a move of it was stopped part way (its mapping not walked to the end) */
};

struct rows {
	struct row *v;
	size_t n, cap;
	size_t *of_move; /* the row of each move, the targets' moves in order */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The row of a move, added when new.  A process's moves come together, so
 * its rows are the last ones: the search ends at another process's row,
 * which keeps a pod of thousands of processes linear.
 */
static struct row *row_of(struct rows *r, const struct pl_move *mv)
{
	for (size_t i = r->n; i-- > 0 && r->v[i].pid == mv->pid;) {
		struct row *w = &r->v[i];

		if (w->from == mv->from && w->to == mv->to && w->cls == mv->cls)
			return w;
	}
	if (array_grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v)) < 0)
		return NULL;
	r->v[r->n] = (struct row){ .pid = mv->pid, .from = mv->from, .to = mv->to, .cls = mv->cls };
	return &r->v[r->n++];
}

/* The plan's rows, in the order the moves come, and each move's row. */
static int plan_rows(const struct placement *const *p, size_t n, struct rows *r)
{
	size_t total = 0, k = 0;

	for (size_t t = 0; t < n; t++)
		total += p[t]->n_moves;
	r->of_move = calloc(total ? total : 1, sizeof(*r->of_move));
	if (!r->of_move)
		return -ENOMEM;
	for (size_t t = 0; t < n; t++)
		for (size_t i = 0; i < p[t]->n_moves; i++) {
			const struct pl_move *mv = &p[t]->moves[i];
			struct row *w = row_of(r, mv);

			if (!w)
				return -ENOMEM;
			w->pages += mv->pages;
			w->bytes += mv->pages * mv->page;
			r->of_move[k++] = (size_t)(w - r->v);
		}
	return 0;
}

static void add_stat(struct row *w, const struct page_move_stat *s)
{
	w->st.moved += s->moved;
	w->st.shared += s->shared;
	w->st.absent += s->absent;
	w->st.failed += s->failed;
}

/*
 * One process's moves (consecutive in p->moves), carried out into their
 * rows (of_move: each move's row).
 */
static int move_one(const struct pl_move *mv, size_t k, struct rows *r, const size_t *of_move)
{
	struct page_move_stat *st = calloc(k, sizeof(*st));
	char why[WHY_MAX];
	int ret;

	if (!st)
		return -ENOMEM;
	ret = page_move_process(mv, k, &stop, st, why, sizeof(why));
	for (size_t i = 0; i < k; i++) {
		struct row *w = &r->v[of_move[i]];
		bool begun =
			st[i].walked || st[i].moved || st[i].shared || st[i].absent || st[i].failed;

		add_stat(w, &st[i]);
		/*
		 * A row is a process's mappings of one node pair: done when any
		 * of them was begun, cut when a stop came before the end of one.
		 */
		w->done |= ret != -EINTR || begun;
		w->cut |= ret == -EINTR && !st[i].walked;
		w->exited |= ret == -ESRCH;
	}
	if (ret == -ESRCH)
		log_warn("process %u: exited during the move", mv[0].pid);
	else if (ret < 0 && ret != -EINTR)
		log_err("process %u: %s", mv[0].pid, why);
	free(st);
	return ret;
}

/* Every target's moves, process by process, until Ctrl-C.  -EINTR when stopped. */
static int carry_out(const struct placement *const *p, size_t n, struct rows *r, bool *failed)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	const size_t *of_move = r->of_move;
	int ret = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (size_t t = 0; t < n && ret != -EINTR && ret != -ENOMEM; t++)
		for (size_t i = 0; i < p[t]->n_moves && ret != -EINTR && ret != -ENOMEM;) {
			const struct pl_move *mv = &p[t]->moves[i];
			size_t k = 1;

			while (i + k < p[t]->n_moves && p[t]->moves[i + k].pid == mv->pid)
				k++;
			ret = move_one(mv, k, r, of_move);
			*failed |= ret < 0 && ret != -ESRCH;
			of_move += k;
			i += k;
		}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ret == -EINTR ? -EINTR : ret == -ENOMEM ? -ENOMEM : 0;
}

static bool row_exact(const struct row *w)
{
	return w->done && !w->exited && w->st.moved == w->pages;
}

static const char *class_words(enum pl_class c)
{
	return c == PL_C_OFF_POLICY ? "off-policy" : "remote anonymous";
}

static void print_rows(const struct rows *r, bool dry_run)
{
	uint64_t pages = 0, bytes = 0;
	char size[16];

	for (size_t i = 0; i < r->n; i++) {
		pages += r->v[i].pages;
		bytes += r->v[i].bytes;
	}
	fmt_human(bytes, FMT_SIZE, size, sizeof(size));
	printf("plan: %" PRIu64 " page%s (%s) to move\n", pages, pages == 1 ? "" : "s", size);
	for (size_t i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];

		fmt_human(w->bytes, FMT_SIZE, size, sizeof(size));
		printf("  process %u: node %u -> node %u, %" PRIu64 " pages (%s, %s)\n", w->pid,
		       w->from, w->to, w->pages, size, class_words(w->cls));
		if (dry_run)
			continue;
		if (!w->done) {
			printf("    not done: stopped before it\n");
			continue;
		}
		printf("    moved %" PRIu64 ", shared %" PRIu64 " (left), gone %" PRIu64
		       ", failed %" PRIu64 "%s\n",
		       w->st.moved, w->st.shared, w->st.absent, w->st.failed,
		       w->exited ? "; the process exited"
		       : w->cut  ? "; stopped before the rest"
				 : "");
	}
	if (dry_run)
		printf("dry run: nothing moved\n");
}

static int print_json(const struct rows *r, bool dry_run)
{
	static const char *const cols[] = {
		"pid",   "from",   "to",   "class",  "pages", "bytes",
		"moved", "shared", "gone", "failed", "done",  "exited"
	};
	struct out_table *tb;
	char why[WHY_MAX];
	int ret = out_table_new(&tb, "moves", OUT_JSON, why, sizeof(why));

	if (ret < 0) {
		log_err("cannot print the table: %s", why);
		return ret;
	}
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		out_table_add_column(tb, cols[c], 0,
				     c == 3    ? 0
				     : c >= 10 ? OUT_COL_BOOLEAN
					       : OUT_COL_NUMBER);
	for (size_t i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];
		struct out_row *row = out_table_add_row(tb);

		if (!row)
			break;
		out_row_setf(row, 0, "%u", w->pid);
		out_row_setf(row, 1, "%u", w->from);
		out_row_setf(row, 2, "%u", w->to);
		out_row_set(row, 3, placement_class_names[w->cls]);
		out_row_setf(row, 4, "%" PRIu64, w->pages);
		out_row_setf(row, 5, "%" PRIu64, w->bytes);
		out_row_setf(row, 6, "%" PRIu64, dry_run ? 0 : w->st.moved);
		out_row_setf(row, 7, "%" PRIu64, dry_run ? 0 : w->st.shared);
		out_row_setf(row, 8, "%" PRIu64, dry_run ? 0 : w->st.absent);
		out_row_setf(row, 9, "%" PRIu64, dry_run ? 0 : w->st.failed);
		out_row_set(row, 10, w->done ? "yes" : "no");
		out_row_set(row, 11, w->exited ? "yes" : "no");
	}
	ret = out_table_print(tb, stdout);
	out_table_free(tb);
	return ret;
}

int placement_move_run(const struct placement *const *p, size_t n, bool dry_run, bool json)
{
	struct rows r = { 0 };
	bool failed = false, exact = true;
	int ret = plan_rows(p, n, &r);

	stop = 0;
	if (ret == 0 && !dry_run)
		ret = carry_out(p, n, &r, &failed);
	if (ret == -ENOMEM) {
		log_err("out of memory");
		free(r.v);
		free(r.of_move);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < r.n && !dry_run; i++)
		exact &= row_exact(&r.v[i]);
	if (json)
		failed |= print_json(&r, dry_run) < 0;
	else
		print_rows(&r, dry_run);
	if (ret == -EINTR)
		log_err("--move: stopped by a signal between two batches; the report says what "
			"moved");
	else if (!dry_run && !exact)
		log_warn("--move: the result differs from the plan (pages shared, gone or "
			 "failed)");
	free(r.v);
	free(r.of_move);
	return failed || ret == -EINTR || (!dry_run && !exact) ? EXIT_FAIL : EXIT_OK;
}
