// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The driver of stat's views (stat-view.h), and what every view says the
 * same way: node selection, -o and --sort, the JSON document, titles, and
 * the Prometheus text on stdout or in an atomic --textfile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "cmd.h"
#include "escape.h"
#include "log.h"
#include "out.h"
#include "stat-view.h"
#include "suggest.h"
#include "sysfs.h"
#include "wrap.h"

/* The file of v under --textfile: its own, beside the other views'. */
static const char *textfile_name(const struct stat_view *v, char *buf, size_t size)
{
	if (v->textfile)
		return v->textfile;
	snprintf(buf, size, "numastatctl-%s.prom", v->name);
	return buf;
}

/*
 * With an interval, --prometheus is refused (one text on stdout per sample
 * is nothing a scraper reads); --textfile is taken by a view that keeps its
 * file up to date (STAT_VIEW_TEXTFILE_LOOP), and the refusal names it.
 */
static int check_interval_prom(const struct stat_view *v, const struct stat_opts *o)
{
	char file[64];

	if (o->interval <= 0 || (!o->prometheus && !o->textfile))
		return EXIT_OK;
	if (!(v->flags & STAT_VIEW_TEXTFILE_LOOP)) {
		log_usage_err("interval mode: --prometheus and --textfile are one-shot");
		return EXIT_USAGE;
	}
	if (o->prometheus) {
		log_usage_err("--%s: interval mode: --prometheus is one-shot; --textfile DIR keeps "
			      "DIR/%s up to date after each sample",
			      v->option.name, textfile_name(v, file, sizeof(file)));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * A view picked by an option of its own reads its own files: the options
 * of the counter table's other views and sources do not apply.
 */
static int check_own_view(const struct stat_view *v, const struct stat_opts *o)
{
	const char *opt = v->option.name;

	if (o->meminfo || o->compat || o->n_pids || o->snapshot_arg || o->prom_names_set) {
		log_usage_err("--%s is a view of its own: it excludes -m, --compat, --pid, "
			      "--snapshot, --since and --prometheus-names",
			      opt);
		return EXIT_USAGE;
	}
	/* A view's sample is a table titled with its time: -t has no column to add. */
	if (o->timestamp) {
		log_usage_err("-t: --%s prints each sample as a table titled with its time", opt);
		return EXIT_USAGE;
	}
	return check_interval_prom(v, o);
}

/* --textfile takes a directory; say so in one line when it was given a file. */
static int check_textfile_dir(const char *dir, const char *file)
{
	size_t len = strlen(dir);
	struct stat st;
	int err = stat(dir, &st) == 0 ? (S_ISDIR(st.st_mode) ? 0 : ENOTDIR) : errno;

	if (err == ENOTDIR) {
		log_err("--textfile %s: not a directory (the option takes the directory to write "
			"%s in)",
			dir, file);
		return EXIT_USAGE;
	}
	if (err == ENOENT && len > 5 && strcmp(dir + len - 5, ".prom") == 0) {
		log_err("--textfile %s: expected a directory, not a file name (%s is written in "
			"the directory)",
			dir, file);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* DIR/FILE through a temporary file and rename: a scraper never sees half of it. */
static int to_textfile(const struct stat_view *v, void *ctx, const char *dir, const char *file)
{
	struct atomic_file af;
	int r = atomic_file_begin(&af, dir, file, 0644);

	if (r < 0) {
		log_err("--textfile %s: %s", dir, strerror(-r));
		return EXIT_FAIL;
	}
	r = v->prom(ctx, af.f);
	if (r == -ENODATA) {
		atomic_file_abort(&af);
		return EXIT_OK;
	}
	if (r < 0 || ferror(af.f)) {
		atomic_file_abort(&af);
		log_err("--textfile %s/%s: cannot write", dir, file);
		return EXIT_FAIL;
	}
	r = atomic_file_commit(&af);
	if (r < 0) {
		log_err("--textfile %s/%s: %s", dir, file, strerror(-r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int one_shot(const struct stat_view *v, void *ctx, const struct stat_opts *o)
{
	int rc = EXIT_OK;

	if (!o->prometheus && !o->textfile)
		return v->print(ctx, NULL) < 0 ? EXIT_FAIL : EXIT_OK;
	/* stdout failures are main()'s to report at the final flush. */
	if (o->prometheus)
		v->prom(ctx, stdout);
	if (o->textfile)
		rc = stat_view_textfile(v, ctx, o);
	return rc;
}

int stat_view_textfile(const struct stat_view *v, void *ctx, const struct stat_opts *o)
{
	char file[64];

	return to_textfile(v, ctx, o->textfile, textfile_name(v, file, sizeof(file)));
}

void stat_view_textfile_remove(const struct stat_view *v, const struct stat_opts *o)
{
	char file[64], *path = NULL;

	textfile_name(v, file, sizeof(file));
	if (asprintf(&path, "%s/%s", o->textfile, file) < 0) {
		log_err("--textfile %s/%s: cannot remove: out of memory", o->textfile, file);
		return;
	}
	if (unlinkat(AT_FDCWD, path, 0) < 0 && errno != ENOENT)
		log_err("--textfile %s: cannot remove: %s", path, strerror(errno));
	free(path);
}

/* What a view's setup() should have refused: said here should one forget. */
static int check_modes(const struct stat_view *v, const struct stat_opts *o)
{
	const char *what = v->option.name ? v->option.name : v->name;

	if (o->interval > 0 && !v->sample) {
		log_usage_err("--%s has no interval mode: it is one-shot", what);
		return EXIT_USAGE;
	}
	if ((o->prometheus || o->textfile) && !v->prom) {
		log_usage_err("--%s has no Prometheus text", what);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int stat_view_run(const struct stat_view *v, const struct stat_opts *o)
{
	char file[64];
	void *ctx;
	int rc = EXIT_OK, r, sig = 0;

	if (v->option.name && (r = check_own_view(v, o)) != EXIT_OK)
		return r;
	/* Before anything is read: a wrong path is a usage error, whatever the files hold. */
	if (o->textfile && v->prom &&
	    (r = check_textfile_dir(o->textfile, textfile_name(v, file, sizeof(file)))) != EXIT_OK)
		return r;
	ctx = calloc(1, v->ctx_size ? v->ctx_size : 1);
	if (!ctx) {
		log_err("out of memory");
		return EXIT_FAIL;
	}
	r = v->setup(ctx, o, &rc);
	if (r == EXIT_OK)
		r = check_modes(v, o);
	if (r == EXIT_OK)
		r = o->interval > 0 ? stat_loop_run(v, ctx, o, &sig) : one_shot(v, ctx, o);
	v->free(ctx);
	free(ctx);
	if (sig)
		stat_loop_end_by(sig);
	return r > rc ? r : rc;
}

void stat_view_say_missing_node(const struct node_miss *missing)
{
	unsigned *all = NULL;
	int n = nodes_enumerate(&all);
	size_t len = n > 0 ? rangelist_format(all, (size_t)n, NULL, 0) : 0;
	char *here = len ? malloc(len + 1) : NULL;

	if (here)
		rangelist_format(all, (size_t)n, here, len + 1);
	log_err("--nodes: node %u: no such node here%s (nodes here: %s)", missing->id,
		missing->range_end ? ": a range's end points must exist" : "",
		here    ? here
		: n > 0 ? "cannot say: out of memory"
			: "none");
	free(here);
	free(all);
}

int stat_view_nodes(const struct stat_opts *o, unsigned **ids)
{
	struct node_miss missing;
	int n = stat_select_nodes(o, ids, &missing);

	if (n == -ENOENT) {
		stat_view_say_missing_node(&missing);
		return -EXIT_USAGE;
	}
	if (n < 0) {
		log_err(NODE_DIR ": %s", sysfs_strerror(n));
		return -EXIT_FAIL;
	}
	return n;
}

static int lookup(const char *const *names, size_t n, const char *p, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncasecmp(names[i], p, len) == 0)
			return (int)i;
	return -1;
}

/* "A, B, C" into buf: what -o and --sort take here; "A, B and 1200 more" when it is too long. */
static const char *name_list(const char *const *names, size_t n, char *buf, size_t size)
{
	size_t j = 0, i = 0;

	buf[0] = '\0';
	for (; i < n; i++) {
		size_t w = strlen(names[i]) + (i ? 2 : 0);

		/* Room for this name and for " and N more" after it. */
		if (j + w + 32 >= size && i + 1 < n)
			break;
		j += (size_t)snprintf(buf + j, size - j, "%s%s", i ? ", " : "", names[i]);
	}
	if (i < n)
		snprintf(buf + j, size - j, " and %zu more", n - i);
	return buf;
}

/* "'X' for --tiers: did you mean Y?", or the list of what there is. */
static void unknown(const struct stat_view *v, const char *opt, const char *const *names, size_t n,
		    const char *bad, size_t len)
{
	char list[1024], hint[SUGGEST_MAX_LEN + 32];
	struct suggest s;

	suggest_init_n(&s, bad, len);
	for (size_t i = 0; i < n; i++)
		suggest_add(&s, names[i]);
	suggest_text(&s, hint, sizeof(hint));
	log_usage_err("%s: unknown column '%.*s' for --%s: %s", opt, (int)len, bad, v->option.name,
		      hint[0] ? hint : name_list(names, n, list, sizeof(list)));
}

int stat_view_columns(const struct stat_view *v, const struct stat_opts *o,
		      const char *const *names, size_t n, const int *defaults, size_t nd, int *cols,
		      size_t cap, size_t *ncols, int *sort)
{
	const char *p = o->cols_arg;

	*ncols = 0;
	*sort = -1;
	if (!p || *p == '+') {
		memcpy(cols, defaults, nd * sizeof(*cols));
		*ncols = nd;
		p = p ? p + 1 : NULL;
	}
	while (p) {
		size_t len = strcspn(p, ",");
		int c = lookup(names, n, p, len);

		if (c < 0) {
			unknown(v, "-o", names, n, p, len);
			return -EINVAL;
		}
		if (*ncols == cap) {
			log_usage_err("-o: too many columns at '%.*s' for --%s: at most %zu",
				      (int)len, p, v->option.name, cap);
			return -EINVAL;
		}
		cols[(*ncols)++] = c;
		p = p[len] ? p + len + 1 : NULL;
	}
	if (o->sort_arg && (*sort = lookup(names, n, o->sort_arg, strlen(o->sort_arg))) < 0) {
		unknown(v, "--sort", names, n, o->sort_arg, strlen(o->sort_arg));
		return -EINVAL;
	}
	return 0;
}

/* The leading members of a view's document: time; sample, time, seconds; since, seconds. */
static int lead_fields(struct out_doc *d, const struct stat_loop_info *in, char *why, size_t whylen)
{
	struct out_table *t;
	struct out_row *row;
	struct timespec now;
	char when[32];
	size_t c = 0;
	int r = out_table_new(&t, "", OUT_JSON, why, whylen);

	if (r < 0)
		return r;
	if (!in)
		clock_gettime(CLOCK_REALTIME, &now);
	stat_iso_time(in ? &in->when : &now, when, sizeof(when));
	if (in && !in->total)
		out_table_add_column(t, "sample", 0, OUT_COL_NUMBER);
	out_table_add_column(t, in && in->total ? "since" : "time", 0, 0);
	if (in)
		out_table_add_column(t, "seconds", 0, OUT_COL_NUMBER);
	if (!(row = out_table_add_row(t)))
		r = -ENOMEM;
	if (r == 0 && in && !in->total)
		r = out_row_setf(row, c++, "%lu", in->sample);
	if (r == 0)
		r = out_row_set(row, c++, when);
	if (r == 0 && in)
		r = out_row_setf(row, c, "%.2f", in->secs);
	if (r == 0)
		r = out_doc_add(d, t, OUT_PART_FIELDS);
	out_table_free(t);
	return r;
}

int stat_view_json(const struct grid *g, const struct stat_opts *o, const struct stat_loop_info *in,
		   const char *name, char *why, size_t whylen)
{
	struct out_doc *d = NULL;
	int r = out_doc_new(&d, in ? OUT_ONELINE : 0);

	why[0] = '\0';
	if (r == 0)
		r = lead_fields(d, in, why, whylen);
	if (r == 0)
		r = grid_add_json_rows(g, o, d, name, why, whylen);
	if (r == 0)
		r = out_doc_print(d, stdout);
	if (r < 0 && !why[0])
		snprintf(why, whylen,
			 r == -EIO ? "cannot write to standard output" : "out of memory");
	out_doc_free(d);
	return r;
}

int stat_view_json_begin(struct out_doc **d, const struct stat_loop_info *in, char *why,
			 size_t whylen)
{
	int r = out_doc_new(d, in ? OUT_ONELINE : 0);

	why[0] = '\0';
	if (r == 0)
		r = lead_fields(*d, in, why, whylen);
	if (r < 0 && !why[0])
		snprintf(why, whylen, "out of memory");
	return r;
}

int stat_view_json_part(struct out_doc **d, const struct grid *g, const struct stat_opts *o,
			const struct stat_loop_info *in, const char *name, char *why, size_t whylen)
{
	int r = 0;

	why[0] = '\0';
	if (!*d && (r = out_doc_new(d, in ? OUT_ONELINE : 0)) == 0)
		r = lead_fields(*d, in, why, whylen);
	if (r == 0)
		r = grid_stream_json_rows(g, o, *d, name, stdout, why, whylen);
	if (r < 0 && !why[0])
		snprintf(why, whylen,
			 r == -EIO ? "cannot write to standard output" : "out of memory");
	return r;
}

int stat_view_json_end(struct out_doc *d, char *why, size_t whylen)
{
	int r = d ? out_doc_stream_end(d, stdout) : -EINVAL;

	if (r < 0)
		snprintf(why, whylen, "%s",
			 r == -EIO ? "cannot write to standard output" : "no rows to print");
	out_doc_free(d);
	return r;
}

void stat_view_line(const struct stat_opts *o, const char *fmt, ...)
{
	char *text = NULL, *safe;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* At most 4 bytes out per byte in. */
	safe = malloc((size_t)n * 4 + 1);
	if (safe)
		escape_text(text, safe, (size_t)n * 4 + 1, 0);
	if (safe) {
		wrap_fputs(stdout, safe, 0, 2, o->width);
		putchar('\n');
	}
	free(safe);
	free(text);
}

void stat_view_title(const struct stat_opts *o, const struct stat_loop_info *in)
{
	char when[16];
	struct tm tm;

	if (o->noheadings)
		return;
	localtime_r(&in->when.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (in->sample > 1 || in->total)
		putchar('\n');
	if (in->total)
		printf("total since %s: %s over %.2f s\n", when, o->rate ? "per second" : "changes",
		       in->secs);
	else
		printf("sample %lu at %s: %s over %.2f s\n", in->sample, when,
		       o->rate ? "per second" : "changes", in->secs);
}
