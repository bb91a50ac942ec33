// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fileio.h"
#include "nodes.h"
#include "output.h"
#include "snapshot.h"

/* One row per node: "node" and every counter the first node reports. */
static int fill_table(struct out_table *t, const unsigned *ids, const struct numastat *st,
		      size_t n)
{
	int r = out_table_add_column(t, "node", 0, OUT_COL_NUMBER);

	for (size_t k = 0; r == 0 && k < st[0].n; k++)
		r = out_table_add_column(t, st[0].c[k].name, 0, OUT_COL_NUMBER);
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct out_row *row = out_table_add_row(t);
		uint64_t v;

		if (!row)
			return -ENOMEM;
		r = out_row_setf(row, 0, "%u", ids[i]);
		for (size_t k = 0; r == 0 && k < st[0].n; k++)
			if (numastat_get(&st[i], st[0].c[k].name, &v))
				r = out_row_setf(row, k + 1, "%" PRIu64, v);
	}
	return r;
}

static int read_all_nodes(unsigned **ids, struct numastat **st, char *why, size_t whylen)
{
	char msg[128];
	int n = nodes_enumerate(ids);

	if (n == 0)
		n = -ENOENT; /* no node directory: nothing to save */
	if (n < 0) {
		snprintf(why, whylen, "cannot list NUMA nodes: %s",
			 n == -ENOENT ? "none found" : strerror(-n));
		return n;
	}
	*st = calloc((size_t)n, sizeof(**st));
	if (!*st)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		int r = numastat_read((*ids)[i], &(*st)[i], msg, sizeof(msg));

		if (r < 0) {
			snprintf(why, whylen, NODE_DIR "/node%u/numastat: %s", (*ids)[i], msg);
			return r;
		}
	}
	return n;
}

int snapshot_save(const char *state_dir, char *path, size_t pathlen, char *why, size_t whylen)
{
	char dir[4096], name[64];
	struct out_table *t = NULL;
	struct numastat *st = NULL;
	unsigned *ids = NULL;
	struct atomic_file af;
	time_t now = time(NULL);
	int n, r;

	n = r = read_all_nodes(&ids, &st, why, whylen);
	snprintf(dir, sizeof(dir), "%s/snapshots", state_dir);
	strftime(name, sizeof(name), "numastat-%Y%m%dT%H%M%SZ.json", gmtime(&now));
	if (r >= 0 && (r = mkdir_p(dir, 0755)) < 0)
		snprintf(why, whylen, "cannot create %s: %s", dir, strerror(-r));
	if (r >= 0 && (r = out_table_new(&t, "nodes", OUT_JSON, why, whylen)) == 0)
		r = fill_table(t, ids, st, (size_t)n);
	if (r >= 0 && (r = atomic_file_begin(&af, dir, name, 0644)) < 0)
		snprintf(why, whylen, "cannot write in %s: %s", dir, strerror(-r));
	if (r >= 0) {
		r = out_table_print(t, af.f);
		r = r < 0 ? (atomic_file_abort(&af), r) : atomic_file_commit(&af);
		if (r < 0)
			snprintf(why, whylen, "cannot write %s/%s: %s", dir, name, strerror(-r));
		else
			snprintf(path, pathlen, "%s/%s", dir, name);
	}
	out_table_free(t);
	free(st);
	free(ids);
	return r < 0 ? r : 0;
}
