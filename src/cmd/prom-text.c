// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prometheus text for the --balancing, --tiers and --cgroup views
 * (stat-effect.h): stdout or an atomic --textfile.  Each view writes its own file (numastatctl-<view>.prom), so
 * a textfile directory can hold the counter table's and every view's side
 * by side.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "atomic-file.h"
#include "cmd.h"
#include "log.h"
#include "stat-effect.h"

static int to_textfile(const char *dir, const char *file, int (*write)(FILE *f, void *ctx),
		       void *ctx)
{
	struct atomic_file af;
	int r = atomic_file_begin(&af, dir, file, 0644);

	if (r < 0) {
		log_err("--textfile %s: %s", dir, strerror(-r));
		return EXIT_FAIL;
	}
	if (write(af.f, ctx) < 0 || ferror(af.f)) {
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

int prom_emit(const struct stat_opts *o, const char *file, int (*write)(FILE *f, void *ctx),
	      void *ctx)
{
	int rc = EXIT_OK;

	/* stdout failures are main()'s to report at the final flush. */
	if (o->prometheus)
		write(stdout, ctx);
	if (o->textfile)
		rc = to_textfile(o->textfile, file, write, ctx);
	return rc;
}
