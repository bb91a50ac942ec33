// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench-guard.h"
#include "bench-run.h"

static int alloc_samples(struct bench_samples *s, unsigned rounds)
{
	for (int v = 0; v < 2; v++) {
		s->ns[v] = calloc(rounds, sizeof(double));
		s->fps[v] = calloc(rounds, sizeof(double));
		if (!s->ns[v] || !s->fps[v])
			return -ENOMEM;
	}
	return 0;
}

/* One round at value v; keep reports whether its numbers are kept. */
static int round_at(struct bench_plan *p, struct knob_guard *g, struct bench_samples *s, int v,
		    bool keep, char *why, size_t whylen)
{
	struct fault_result res;
	int r = bench_guard_set(g, &p->val[v], why, whylen);

	if (r < 0)
		return r;
	r = bench_fault_run(&p->job, &res, why, whylen);
	if (r < 0 || !keep)
		return r;
	s->ns[v][s->done[v]] = res.ns_per_fault;
	s->fps[v][s->done[v]] = res.faults_per_sec;
	s->done[v]++;
	return 0;
}

static int rounds(struct bench_plan *p, struct knob_guard *g, struct bench_samples *s, char *why,
		  size_t whylen)
{
	/* Warm-up: the first round pays for page tables and libnuma's first calls. */
	int r = round_at(p, g, s, 0, false, why, whylen);

	for (unsigned i = 0; r == 0 && i < 2 * p->rounds; i++) {
		if (bench_guard_stop)
			return -EINTR;
		r = round_at(p, g, s, (int)(i % 2), true, why, whylen);
	}
	if (r == 0 && bench_guard_stop)
		r = -EINTR;
	return r;
}

int bench_run(struct bench_plan *p, struct bench_samples *s, char *why, size_t whylen)
{
	struct knob_guard g;
	int r;

	memset(s, 0, sizeof(*s));
	if (alloc_samples(s, p->rounds) < 0)
		return -ENOMEM;
	r = bench_guard_begin(&g, &p->ref, p->run_dir, p->data_dir, p->no_snapshot, why, whylen);
	if (r < 0)
		return r;
	s->orig = g.orig;
	p->job.stop = &bench_guard_stop;
	r = bench_guard_stop ? -EINTR : rounds(p, &g, s, why, whylen);
	s->stop_signal = bench_guard_stop;
	memcpy(s->snapshot_path, g.snapshot_path, sizeof(s->snapshot_path));
	s->touched = g.changed;
	s->restore_err = bench_guard_end(&g, s->restore_why, sizeof(s->restore_why));
	return r;
}

void bench_samples_free(struct bench_samples *s)
{
	for (int v = 0; v < 2; v++) {
		free(s->ns[v]);
		free(s->fps[v]);
	}
}
