// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench-fault.h"
#include "nodes.h"
#include "numalib.h"
#include "timespec.h"
#include "why.h"

/* How many pages a worker touches between two looks at job->stop. */
#define STOP_CHECK_PAGES 256

/*
 * Workers prepare (pin, map, bind), then wait here so they all start
 * touching together; the caller opens the gate once every started worker
 * is ready, or tells them to give up when not all could be started.
 */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ready;
	int state; /* 0 wait, 1 go, -1 give up */
};

struct worker {
	pthread_t tid;
	const struct fault_job *job;
	struct gate *gate;
	size_t page;
	uint64_t pages;
	struct timespec t0, t1;
	int err;
	char why[WHY_MAX];
};

static double ns_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(timespec_ns(b) - timespec_ns(a));
}

static void *map_bound(struct worker *w)
{
	const struct fault_job *job = w->job;
	void *p;

	w->err = numalib_run_on_node(job->cpu_node, w->why, sizeof(w->why));
	if (w->err)
		return NULL;
	p = mmap(NULL, job->bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		w->err = -errno;
		snprintf(w->why, sizeof(w->why), "cannot map %zu bytes: %s", job->bytes,
			 strerror(errno));
		return NULL;
	}
	if (madvise(p, job->bytes, MADV_NOHUGEPAGE) < 0) {
		w->err = -errno;
		snprintf(w->why, sizeof(w->why), "madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
	} else
		w->err = numalib_bind(p, job->bytes, job->mem_node, w->why, sizeof(w->why));
	if (w->err) {
		munmap(p, job->bytes);
		return NULL;
	}
	return p;
}

static bool gate_wait(struct gate *g)
{
	bool go;

	pthread_mutex_lock(&g->mu);
	g->ready++;
	pthread_cond_broadcast(&g->cv);
	while (g->state == 0)
		pthread_cond_wait(&g->cv, &g->mu);
	go = g->state > 0;
	pthread_mutex_unlock(&g->mu);
	return go;
}

static void gate_open(struct gate *g, unsigned started, bool go)
{
	pthread_mutex_lock(&g->mu);
	while (g->ready < started)
		pthread_cond_wait(&g->cv, &g->mu);
	g->state = go ? 1 : -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct fault_job *job = w->job;
	volatile char *p = map_bound(w);
	size_t n = job->bytes / w->page;

	if (!gate_wait(w->gate) || !p)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	for (size_t i = 0; i < n; i++) {
		if (i % STOP_CHECK_PAGES == 0 && job->stop && *job->stop)
			break;
		p[i * w->page] = 1;
		w->pages++;
	}
	clock_gettime(CLOCK_MONOTONIC, &w->t1);
out:
	if (p)
		munmap((void *)p, job->bytes);
	return NULL;
}

static void summarise(const struct worker *w, unsigned n, struct fault_result *res)
{
	const struct timespec *first = &w[0].t0, *last = &w[0].t1;
	double sum = 0, wall;

	res->faults = 0;
	for (unsigned i = 0; i < n; i++) {
		res->faults += w[i].pages;
		if (w[i].pages)
			sum += ns_between(&w[i].t0, &w[i].t1) / (double)w[i].pages;
		if (ns_between(&w[i].t0, first) > 0)
			first = &w[i].t0;
		if (ns_between(last, &w[i].t1) > 0)
			last = &w[i].t1;
	}
	wall = ns_between(first, last);
	res->ns_per_fault = sum / n;
	res->faults_per_sec = wall > 0 ? (double)res->faults / (wall / 1e9) : 0;
}

/* Workers start with every signal blocked: only the caller's thread takes them. */
static unsigned start_workers(struct worker *w, unsigned n, char *why, size_t whylen)
{
	sigset_t all, old;
	unsigned started;

	/* What the workers look up in libnuma, filled before two of them race for it. */
	for (unsigned i = 0; i < n; i++)
		numalib_node_cpus_ready(w[i].job->cpu_node);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (started = 0; started < n; started++) {
		int r = pthread_create(&w[started].tid, NULL, worker_main, &w[started]);

		if (r) {
			snprintf(why, whylen, "cannot start thread %u: %s", started + 1,
				 strerror(r));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

/* The first worker error, copied to why. */
static int first_error(const struct worker *w, unsigned n, char *why, size_t whylen)
{
	for (unsigned i = 0; i < n; i++)
		if (w[i].err) {
			snprintf(why, whylen, "%s", w[i].why);
			return w[i].err;
		}
	return 0;
}

int bench_fault_run(const struct fault_job *job, struct fault_result *res, char *why, size_t whylen)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
	long page = sysconf(_SC_PAGESIZE);
	struct worker *w;
	unsigned started;
	int r;

	if (job->threads == 0 || job->threads > FAULT_MAX_THREADS || page <= 0 || job->bytes == 0 ||
	    job->bytes % (size_t)page) {
		snprintf(why, whylen, "invalid workload: %u threads of %zu bytes each",
			 job->threads, job->bytes);
		return -EINVAL;
	}
	w = calloc(job->threads, sizeof(*w));
	if (!w) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < job->threads; i++)
		w[i] = (struct worker){ .job = job, .gate = &gate, .page = (size_t)page };
	started = start_workers(w, job->threads, why, whylen);
	gate_open(&gate, started, started == job->threads);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	if (started < job->threads)
		r = -EAGAIN;
	else if ((r = first_error(w, started, why, whylen)) == 0) {
		summarise(w, started, res);
		if (job->stop && *job->stop)
			r = -EINTR;
	}
	free(w);
	return r;
}

int bench_fault_probe(unsigned mem_node, unsigned cpu_node, size_t pages,
		      const volatile sig_atomic_t *stop, struct numastat *before,
		      struct numastat *after, char *why, size_t whylen)
{
	long page = sysconf(_SC_PAGESIZE);
	struct fault_job job = {
		.mem_node = mem_node,
		.cpu_node = cpu_node,
		.threads = 1,
		.stop = stop,
		.bytes = pages * (size_t)(page > 0 ? page : 4096),
	};
	struct fault_result res;
	char msg[WHY_MAX];
	int r = numastat_read(mem_node, before, msg, sizeof(msg));

	if (r == 0) {
		r = bench_fault_run(&job, &res, why, whylen);
		if (r < 0)
			return r;
		r = numastat_read(mem_node, after, msg, sizeof(msg));
	}
	if (r < 0)
		snprintf(why, whylen, NODE_DIR "/node%u/numastat: %s", mem_node, msg);
	return r;
}
