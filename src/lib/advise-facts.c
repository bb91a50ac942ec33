// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise: reading the facts the rules judge.  Every read goes through the
 * existing parsers and sysfs.h; a file that cannot be read leaves its error
 * in the facts (the rules say so) rather than failing the whole run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advise.h"
#include "cpuinfo.h"
#include "procmaps.h"
#include "sysfs.h"
#include "timespec.h"
#include "value.h"
#include "why.h"

/* ---- nodes ---- */

static void read_numastat(struct af_node *nd, uint64_t *v)
{
	struct numastat s;

	nd->ns_err = numastat_read(nd->id, &s, nd->ns_why, sizeof(nd->ns_why));
	for (int k = 0; k < NS_STANDARD && !nd->ns_err; k++)
		numastat_get(&s, numastat_keys[k], &v[k]);
}

/* The lines zone reclaim's own count of page cache rests on (mm/vmscan.c). */
static void read_lru(struct af_node *nd, const struct meminfo *m)
{
	static const char *const keys[] = { "Active(file)", "Inactive(file)", "Mapped", "Dirty" };
	uint64_t v[4] = { 0 };

	nd->lru_known = !nd->mi_err;
	for (size_t i = 0; i < 4 && nd->lru_known; i++) {
		const struct meminfo_field *fl = meminfo_find(m, keys[i]);

		nd->lru_known = fl != NULL;
		if (fl)
			v[i] = meminfo_bytes(fl);
	}
	nd->file_lru = v[0] + v[1];
	nd->mapped = v[2];
	nd->dirty = v[3];
}

static void read_meminfo(struct af_node *nd)
{
	static const char *const keys[] = { "MemTotal", "FilePages", "Shmem" };
	uint64_t *dst[] = { &nd->mem_total, &nd->file_pages, &nd->shmem };
	struct meminfo m;

	nd->mi_err = meminfo_read(nd->id, &m, nd->mi_why, sizeof(nd->mi_why));
	for (size_t i = 0; i < 3 && !nd->mi_err; i++) {
		const struct meminfo_field *fl = meminfo_find(&m, keys[i]);

		if (!fl) {
			snprintf(nd->mi_why, sizeof(nd->mi_why), "node%u/meminfo: no %s line",
				 nd->id, keys[i]);
			nd->mi_err = -EBADMSG;
		} else
			*dst[i] = meminfo_bytes(fl);
	}
	read_lru(nd, &m);
}

/*
 * One distance per online node, in id order (the node directories we
 * listed; self is this node's place among them): only the farthest other
 * node is kept, so N rows of N distances take memory for N.
 */
static void read_distance(struct af_node *nd, size_t self, size_t nnodes)
{
	char buf[8192], why[WHY_MAX];
	ssize_t n = node_file_read(nd->id, "distance", buf, sizeof(buf), why, sizeof(why));

	if (n >= 0)
		n = node_distance_farthest(buf, self, &nd->dist_far, &nd->dist_far_at);
	if (n >= 0 && (size_t)n != nnodes)
		n = -EBADMSG;
	nd->dist_err = n < 0 ? (int)n : 0;
	if (n < 0)
		nd->dist_far = -1;
}

/* One number of nodeN/<file>: false when it cannot be read as one. */
static bool node_number(unsigned node, const char *file, uint64_t *v)
{
	char buf[64], why[WHY_MAX];
	ssize_t n = node_file_read(node, file, buf, sizeof(buf), why, sizeof(why));

	return n > 0 && parse_u64(str_strip(buf), UINT64_MAX, v) == 0;
}

/* Bandwidth and latency of access class 1, else 0; the interleave weight. */
static void read_perf(struct af_node *nd)
{
	char path[96], buf[16];
	uint64_t w;

	for (int c = 1; c >= 0 && !nd->have_perf; c--) {
		snprintf(path, sizeof(path), "access%d/initiators/read_bandwidth", c);
		if (!node_number(nd->id, path, &nd->read_bw))
			continue;
		nd->perf_class = (unsigned)c;
		snprintf(path, sizeof(path), "access%d/initiators/write_bandwidth", c);
		nd->have_perf = node_number(nd->id, path, &nd->write_bw);
		snprintf(path, sizeof(path), "access%d/initiators/read_latency", c);
		node_number(nd->id, path, &nd->read_lat);
		snprintf(path, sizeof(path), "access%d/initiators/write_latency", c);
		node_number(nd->id, path, &nd->write_lat);
	}
	snprintf(path, sizeof(path), "/sys/kernel/mm/mempolicy/weighted_interleave/node%u", nd->id);
	if (sysfs_read_file(path, buf, sizeof(buf)) > 0 && parse_u64(str_strip(buf), 255, &w) == 0)
		nd->weight = (unsigned)w;
}

static void read_node(struct af_node *nd, size_t self, size_t nnodes)
{
	int n;

	read_numastat(nd, nd->boot);
	read_meminfo(nd);
	read_distance(nd, self, nnodes);
	n = hugepages_pools_read(nd->id, nd->hp, HUGEPAGE_SIZES_MAX, nd->hp_why,
				 sizeof(nd->hp_why));
	nd->hp_err = n < 0 ? n : 0;
	nd->nhp = n < 0 ? 0 : (size_t)n;
	read_perf(nd);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* ids sorted (sort_ids()): a lookup per node, not a walk of the list. */
static bool in_list(const unsigned *ids, int n, unsigned id)
{
	return n > 0 && bsearch(&id, ids, (size_t)n, sizeof(*ids), cmp_unsigned);
}

static void sort_ids(unsigned *ids, int n)
{
	if (n > 1)
		qsort(ids, (size_t)n, sizeof(*ids), cmp_unsigned);
}

/* has_cpu and has_memory; when unreadable every node counts as having both. */
static void read_masks(struct advise_facts *f)
{
	unsigned *cpu = NULL, *mem = NULL;
	int nc = node_mask_read("has_cpu", &cpu), nm = node_mask_read("has_memory", &mem);

	f->masks_err = nc < 0 ? nc : nm < 0 ? nm : 0;
	sort_ids(cpu, nc);
	sort_ids(mem, nm);
	for (size_t i = 0; i < f->n; i++) {
		f->nodes[i].cpu = f->masks_err || in_list(cpu, nc, f->nodes[i].id);
		f->nodes[i].memory = f->masks_err || in_list(mem, nm, f->nodes[i].id);
	}
	free(cpu);
	free(mem);
}

static int read_nodes(struct advise_facts *f)
{
	unsigned *ids;
	int n = nodes_enumerate(&ids);

	if (n < 0)
		return n;
	f->nodes = calloc(n ? (size_t)n : 1, sizeof(*f->nodes));
	if (!f->nodes) {
		free(ids);
		return -ENOMEM;
	}
	f->n = (size_t)n;
	for (size_t i = 0; i < f->n; i++) {
		f->nodes[i].id = ids[i];
		read_node(&f->nodes[i], i, f->n);
	}
	free(ids);
	read_masks(f);
	return 0;
}

/* ---- the machine ---- */

static void read_uptime(struct advise_facts *f)
{
	char buf[128], *end;
	ssize_t n = sysfs_read_file("/proc/uptime", buf, sizeof(buf));

	f->uptime_err = n < 0 ? (int)n : 0;
	if (n < 0)
		return;
	f->uptime = strtod(buf, &end);
	if (end == buf || (*end != ' ' && *end != '\n') || !(f->uptime >= 0))
		f->uptime_err = -EBADMSG;
}

/*
 * node_reclaim_distance: RECLAIM_DISTANCE 30, but 32 on AMD Zen (family
 * 0x17 and later: arch/x86/kernel/cpu/amd.c).  Only the first processor's
 * lines are read: /proc/cpuinfo of a large machine is far longer.
 */
static void read_reclaim_distance(struct advise_facts *f)
{
	char buf[4096], vendor[64], family[16];
	ssize_t n = cpuinfo_first_read(buf, sizeof(buf));
	uint64_t fam = 0;

	f->reclaim_distance = ADVISE_RECLAIM_DISTANCE;
	if (n < 0) {
		snprintf(f->reclaim_why, sizeof(f->reclaim_why),
			 "RECLAIM_DISTANCE 30 assumed: "
			 "/proc/cpuinfo: %s (it is 32 on AMD Zen)",
			 sysfs_strerror((int)n));
		return;
	}
	if (!cpuinfo_value(buf, "vendor_id", vendor, sizeof(vendor)))
		snprintf(vendor, sizeof(vendor), "none");
	if (cpuinfo_value(buf, "cpu family", family, sizeof(family)))
		parse_u64(family, 255, &fam);
	if (strcmp(vendor, "AuthenticAMD") == 0 && fam >= 0x17) {
		f->reclaim_distance = ADVISE_RECLAIM_DISTANCE_ZEN;
		snprintf(f->reclaim_why, sizeof(f->reclaim_why),
			 "RECLAIM_DISTANCE is 32 on AMD Zen "
			 "(/proc/cpuinfo: AuthenticAMD, cpu family %" PRIu64 "; "
			 "arch/x86/kernel/cpu/amd.c)",
			 fam);
	} else
		snprintf(f->reclaim_why, sizeof(f->reclaim_why),
			 "RECLAIM_DISTANCE is 30 "
			 "(include/linux/topology.h; /proc/cpuinfo vendor_id: %s)",
			 vendor);
}

static void read_knobs(struct advise_facts *f)
{
	for (size_t i = 0; i < knob_count; i++)
		f->knobs[i].err = knob_read(&f->knobs[i].ref, &f->knobs[i].v);
}

/* ---- what reads the counters ---- */

#define TEXTFILE_TIMER "/etc/systemd/system/timers.target.wants/numastatctl-textfile.timer"
#define TEXTFILE_DEFAULT "/var/lib/prometheus/node-exporter/numastatctl.prom"

static bool exists(const char *path)
{
	int fd = sysfs_open(path, O_PATH | O_NOFOLLOW);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void add_reader(struct advise_facts *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_reader(struct advise_facts *f, const char *fmt, ...)
{
	va_list ap;

	if (f->nreaders == sizeof(f->readers) / sizeof(f->readers[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(f->readers[f->nreaders++], sizeof(f->readers[0]), fmt, ap);
	va_end(ap);
}

/* "--collector.textfile.directory=DIR" (or "... DIR"): DIR/numastatctl.prom. */
static bool textfile_dir(const char *cmdline, char *prom, size_t len)
{
	const char *p = strstr(cmdline, "--collector.textfile.directory");
	size_t dl;

	if (!p)
		return false;
	p += strlen("--collector.textfile.directory");
	if (*p != '=' && *p != ' ')
		return false;
	p++;
	dl = strcspn(p, " ");
	return dl && (size_t)snprintf(prom, len, "%.*s/numastatctl.prom", (int)dl, p) < len;
}

/* node_exporter: its meminfo_numa collector, or its textfile collector reading ours. */
static void node_exporter_reader(struct advise_facts *f, unsigned pid)
{
	char cmd[4096], prom[512];
	const char *argv0_end, *base;

	if (proc_cmdline(pid, cmd, sizeof(cmd)) < 0)
		return;
	argv0_end = strchrnul(cmd, ' ');
	base = memrchr(cmd, '/', (size_t)(argv0_end - cmd));
	base = base ? base + 1 : cmd;
	if (strncmp(base, "node_exporter ", 14) != 0 &&
	    strncmp(base, "prometheus-node-exporter ", 25) != 0)
		return;
	if (strstr(cmd, " --collector.meminfo_numa") && !strstr(cmd, "--no-collector.meminfo_numa"))
		add_reader(f, "node_exporter (pid %u) runs with --collector.meminfo_numa", pid);
	if (textfile_dir(cmd, prom, sizeof(prom)) && exists(prom))
		add_reader(f, "node_exporter (pid %u) exports %s (textfile collector)", pid, prom);
}

static void read_readers(struct advise_facts *f)
{
	unsigned *pids;
	int n = proc_pids(&pids);

	f->readers_checked = true;
	snprintf(f->readers_looked, sizeof(f->readers_looked),
		 "node_exporter processes with --collector.meminfo_numa or a textfile directory "
		 "holding numastatctl.prom, %s, %s",
		 TEXTFILE_TIMER, TEXTFILE_DEFAULT);
	for (int i = 0; i < n; i++)
		node_exporter_reader(f, pids[i]);
	free(pids);
	if (exists(TEXTFILE_TIMER))
		add_reader(f, "numastatctl-textfile.timer is enabled (%s)", TEXTFILE_TIMER);
	if (exists(TEXTFILE_DEFAULT))
		add_reader(f, "the textfile %s exists", TEXTFILE_DEFAULT);
}

/* ---- the configuration ---- */

/* Which profile of c sets k to its live value: "profile hpc (FILE:LINE)". */
static void explain_by_profile(const struct profile_config *c, struct af_knob *k)
{
	struct profile_resolved r;
	char why[WHY_MAX], at[4200], text[4300];

	for (size_t i = 0; i < c->nprofiles && !k->explained[0]; i++) {
		if (profile_resolve(c, c->profiles[i].name, &r, why, sizeof(why)) < 0)
			continue;
		for (size_t j = 0; j < r.n; j++) {
			const struct profile_key *d = r.knobs[j].def;

			if (d->ref.knob == k->ref.knob && strcmp(d->val.text, k->v.text) == 0) {
				profile_origin(c, d->at, at, sizeof(at));
				snprintf(text, sizeof(text), "profile %s (%s)", c->profiles[i].name,
					 at);
				str_copy(k->explained, text, sizeof(k->explained));
				break;
			}
		}
		profile_resolved_free(&r);
	}
}

/* sysctl.d setting a knob to its live value: a plan of defaults, whose conflicts name it. */
static int explain_by_sysctld(struct advise_facts *f)
{
	struct sysctld_conflicts c = { 0 };
	struct plan p = { 0 };
	char why[WHY_MAX];
	int r = 0;

	for (size_t i = 0; i < knob_count && r == 0; i++) {
		struct af_knob *k = &f->knobs[i];
		struct kval def;

		if (k->err || k->explained[0] ||
		    knob_parse(&k->ref, knob_default(&knob_table[i], f->n), &def, why,
			       sizeof(why)) < 0)
			continue;
		if (strcmp(def.text, k->v.text) != 0)
			r = plan_add(&p, &k->ref, &def, false, "");
	}
	if (r == 0)
		r = sysctld_conflicts_find(&p, &c);
	for (size_t i = 0; r == 0 && i < c.n; i++) {
		const struct sysctld_setting *s =
			c.v[i].system_differs ? &c.v[i].system : &c.v[i].boot;
		struct af_knob *k = (struct af_knob *)advise_knob(f, c.v[i].item->ref.name);

		if (k && strcmp(s->reads.text, k->v.text) == 0) {
			snprintf(why, sizeof(why), "sysctl.d %s:%u", s->file, s->line);
			str_copy(k->explained, why, sizeof(k->explained));
		}
	}
	sysctld_conflicts_free(&c);
	plan_free(&p);
	return r;
}

/* The configured profile against the live values and sysctl.d. */
static int read_profile(struct advise_facts *f, const struct profile_config *c)
{
	struct profile_resolved r;
	int rc;

	if (!c->default_at.line)
		return 0;
	str_copy(f->profile, c->default_profile, sizeof(f->profile));
	if (profile_resolve(c, f->profile, &r, f->profile_why, sizeof(f->profile_why)) < 0)
		return 0;
	rc = profile_plan(c, &r, &f->plan);
	profile_resolved_free(&r);
	if (rc < 0)
		return rc;
	plan_read_live(&f->plan);
	f->unit_enabled = sysctld_boot_unit_enabled();
	return sysctld_conflicts_find(&f->plan, &f->conflicts);
}

static int read_config(struct advise_facts *f, const struct advise_input *in)
{
	int r;

	f->cfg_ok = in->cfg && in->cfg_ok;
	if (!f->cfg_ok)
		return 0;
	for (size_t i = 0; i < knob_count; i++)
		if (!f->knobs[i].err)
			explain_by_profile(in->cfg, &f->knobs[i]);
	r = explain_by_sysctld(f);
	return r < 0 ? r : read_profile(f, in->cfg);
}

/* ---- the second sample ---- */

static double now(void)
{
	return (double)timespec_now_ns(CLOCK_MONOTONIC) / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t,
			       .tv_nsec = (long)((t - (double)(time_t)t) * 1e9) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void second_sample(struct advise_facts *f, double start, double interval)
{
	sleep_until(start + interval);
	f->window = now() - start;
	for (size_t i = 0; i < f->n; i++) {
		struct af_node *nd = &f->nodes[i];
		uint64_t later[NS_STANDARD];

		if (nd->ns_err)
			continue;
		read_numastat(nd, later);
		if (nd->ns_err)
			continue;
		nd->have_delta = true;
		for (int k = 0; k < NS_STANDARD; k++) {
			/* A decrease is a reset (vm.numa_stat 1 -> 0 -> 1), never a negative rate. */
			if (later[k] < nd->boot[k])
				f->window_err = -ERANGE;
			nd->delta[k] = later[k] - nd->boot[k];
			nd->boot[k] = later[k];
		}
	}
}

/* ---- processes holding remote memory ---- */

/* The node of each CPU, from the nodes advise read. */
static int cpu_map_read(const struct advise_facts *f, struct node_cpumap *m)
{
	unsigned *ids = calloc(f->n ? f->n : 1, sizeof(*ids));
	int r;

	*m = (struct node_cpumap){ 0 };
	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++)
		ids[i] = f->nodes[i].id;
	r = node_cpumap_read(ids, f->n, m);
	free(ids);
	return r;
}

/* Keep the max largest in out[0..*n), largest first. */
static void keep_top(struct af_proc *out, size_t max, size_t *n, const struct af_proc *p)
{
	size_t i = *n < max ? (*n)++ : max;

	while (i > 0 && out[i - 1].bytes < p->bytes) {
		if (i < max)
			out[i] = out[i - 1];
		i--;
	}
	if (i < max)
		out[i] = *p;
}

/* False when the process could not be looked at (gone counts as looked at). */
static bool consider(const struct node_cpumap *m, unsigned pid, unsigned node, struct af_proc *out,
		     size_t max, size_t *n)
{
	struct procmaps pm = { 0 };
	struct af_proc p = { .pid = pid };
	char why[WHY_MAX];
	unsigned cpu;
	int r;

	if (proc_last_cpu(pid, &cpu) < 0 || cpu >= m->n || m->node_of[cpu] == UINT32_MAX ||
	    m->node_of[cpu] == node)
		return true;
	r = procmaps_read(pid, &pm, why, sizeof(why));
	if (r < 0) {
		procmaps_free(&pm);
		return r == -ENOENT || r == -ESRCH;
	}
	p.run_node = m->node_of[cpu];
	for (size_t i = 0; i < pm.n; i++)
		if (pm.v[i].node == node)
			p.bytes = procmaps_node_total(&pm.v[i]);
	procmaps_free(&pm);
	if (!p.bytes)
		return true;
	if (proc_name(pid, p.name, sizeof(p.name)) < 0)
		str_copy(p.name, "?", sizeof(p.name));
	keep_top(out, max, n, &p);
	return true;
}

static int remote_procs(const struct advise_facts *f, unsigned node, struct af_proc *out,
			size_t max, size_t *unreadable)
{
	struct node_cpumap m = { 0 };
	unsigned *pids;
	int n = proc_pids(&pids);
	size_t found = 0;

	*unreadable = 0;
	if (n < 0)
		return n;
	if (cpu_map_read(f, &m) < 0) {
		free(pids);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		if (pids[i] != f->self)
			*unreadable += !consider(&m, pids[i], node, out, max, &found);
	node_cpumap_free(&m);
	free(pids);
	return (int)found;
}

/* ---- a node's distances, read again ---- */

static int distance_row(const struct advise_facts *f, size_t from, unsigned *row)
{
	char buf[8192], why[WHY_MAX];
	unsigned *d = NULL;
	ssize_t n =
		node_file_read(f->nodes[from].id, "distance", buf, sizeof(buf), why, sizeof(why));

	if (n >= 0)
		n = node_distance_parse(buf, &d);
	if (n >= 0 && (size_t)n != f->n)
		n = -EBADMSG;
	if (n >= 0)
		memcpy(row, d, f->n * sizeof(*row));
	free(d);
	return n < 0 ? (int)n : 0;
}

/* ---- who uses weighted interleave ---- */

/* A numa_maps line whose policy is weighted interleave: stop reading (-ECANCELED). */
static int wi_line(void *ctx, const char *line, size_t len, char *why, size_t whylen)
{
	const char *sp = memchr(line, ' ', len);

	(void)ctx;
	(void)why;
	(void)whylen;
	if (sp && (size_t)(line + len - sp) > 20 && memcmp(sp + 1, "weighted interleave", 19) == 0)
		return -ECANCELED;
	return 0;
}

/* A unit file (or drop-in) line NUMAPolicy=weighted... in dir/name. */
static bool unit_file_wi(const char *path)
{
	char buf[16384];
	ssize_t n = sysfs_read_file(path, buf, sizeof(buf));

	if (n < 0)
		return false;
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (strncmp(l, "NUMAPolicy=", 11) == 0 && strncmp(l + 11, "weighted", 8) == 0)
			return true;
	}
	return false;
}

/* The unit directories systemd reads, and the drop-ins beside each unit. */
static int wi_unit(char *what, size_t len)
{
	static const char *const dirs[] = { "/etc/systemd/system", "/run/systemd/system",
					    "/usr/lib/systemd/system", "/lib/systemd/system" };

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dir = sysfs_opendir(dirs[d]);
		struct dirent *e;

		while (dir && (e = readdir(dir))) {
			char path[512];
			size_t nl = strlen(e->d_name);

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
			if (nl > 2 && strcmp(e->d_name + nl - 2, ".d") == 0) {
				DIR *in = sysfs_opendir(path);
				struct dirent *c;
				bool hit = false;

				while (in && !hit && (c = readdir(in))) {
					char conf[800];

					snprintf(conf, sizeof(conf), "%s/%s", path, c->d_name);
					hit = c->d_name[0] != '.' && unit_file_wi(conf);
				}
				if (in)
					closedir(in);
				if (hit) {
					snprintf(what, len,
						 "unit %.*s: NUMAPolicy=weighted-interleave",
						 (int)(nl - 2), e->d_name);
					closedir(dir);
					return 1;
				}
				continue;
			}
			if (unit_file_wi(path)) {
				snprintf(what, len, "unit %s: NUMAPolicy=weighted-interleave",
					 e->d_name);
				closedir(dir);
				return 1;
			}
		}
		if (dir)
			closedir(dir);
	}
	return 0;
}

static int wi_user(const struct advise_facts *f, char *what, size_t len)
{
	unsigned *pids;
	int n, found = wi_unit(what, len);
	char why[WHY_MAX];

	if (found)
		return found;
	n = proc_pids(&pids);
	if (n < 0)
		return n;
	for (int i = 0; i < n && !found; i++) {
		if (pids[i] == f->self ||
		    procmaps_read_lines(pids[i], wi_line, NULL, why, sizeof(why)) != -ECANCELED)
			continue;
		found = 1;
		snprintf(what, len, "process %u: a weighted interleave mapping in its numa_maps",
			 pids[i]);
	}
	free(pids);
	return found;
}

/* ---- all of it ---- */

/* The memory map of the nodes; a part it cannot read stays in it as an error. */
static int read_map(struct advise_facts *f)
{
	unsigned *ids = calloc(f->n ? f->n : 1, sizeof(*ids));
	int r;

	f->map = calloc(1, sizeof(*f->map));
	if (!ids || !f->map) {
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->n; i++)
		ids[i] = f->nodes[i].id;
	r = memmap_read(ids, f->n, NULL, f->map);
	free(ids);
	return r;
}

int advise_facts_read(struct advise_facts *f, const struct advise_input *in)
{
	const struct af_knob *ns;
	double start = now();
	char why[WHY_MAX];
	int r;

	if ((r = advise_facts_init(f)) < 0 || (r = read_nodes(f)) < 0)
		return r;
	r = node_memtiers_read(&f->tiers, why, sizeof(why));
	f->tiers_err = r;
	if (r < 0)
		str_copy(f->tiers_why, why, sizeof(f->tiers_why));
	if ((r = read_map(f)) < 0)
		return r;
	read_uptime(f);
	read_reclaim_distance(f);
	read_knobs(f);
	ns = advise_knob(f, "vm.numa_stat");
	/* Readers matter for one node (is 0 safe?) and for frozen counters (who sees zeros?). */
	if (f->n == 1 || (ns->err == 0 && knob_freezes_counters(&ns->ref, &ns->v)))
		read_readers(f);
	if ((r = read_config(f, in)) < 0)
		return r;
	kubelet_config_read(&f->kubelet);
	f->remote_procs = remote_procs;
	f->distance_row = distance_row;
	f->wi_user = wi_user;
	f->self = sysfs_is_live() ? (unsigned)getpid() : 0;
	advise_interact_read(f);
	if (in->interval > 0) {
		second_sample(f, start, in->interval);
		advise_interact_again(f);
	}
	return 0;
}
