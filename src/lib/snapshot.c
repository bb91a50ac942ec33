// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "atomic-file.h"
#include "nodes.h"
#include "out.h"
#include "snapshot.h"
#include "statedir.h"
#include "value.h"
#include "why.h"

/* One row per node: "node" and every counter the first node reports. */
static int fill_table(struct out_table *t, const unsigned *ids, const struct numastat *st, size_t n)
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
	char msg[WHY_MAX];
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

static void snapshot_name(const struct timespec *ts, char *name, size_t len)
{
	char sec[32];
	struct tm tm;

	strftime(sec, sizeof(sec), "%Y%m%dT%H%M%S", gmtime_r(&ts->tv_sec, &tm));
	snprintf(name, len, "numastat-%s.%09ldZ.json", sec, (long)ts->tv_nsec);
}

/* The finished temporary file under the first free name from now on. */
static int publish(struct atomic_file *af, char *name, size_t len)
{
	struct timespec ts;
	int r = -EEXIST;

	clock_gettime(CLOCK_REALTIME, &ts);
	for (int i = 0; i < 1000 && r == -EEXIST; i++) {
		snapshot_name(&ts, name, len);
		r = atomic_file_link(af, name);
		/* Taken (two runs in one clock tick): one nanosecond later is still the truth. */
		if (++ts.tv_nsec == 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec = 0;
		}
	}
	return r;
}

static int write_json(int dirfd, const struct out_table *t, char *name, size_t len)
{
	struct atomic_file af;
	int r = atomic_file_beginat(&af, dirfd, "numastat.json", 0644);

	if (r < 0)
		return r;
	r = out_table_print((struct out_table *)t, af.f);
	/* What stat --since would refuse to read back is never saved. */
	if (r == 0 && ftell(af.f) > SNAPSHOT_FILE_MAX)
		r = -EFBIG;
	if (r == 0)
		r = atomic_file_close(&af);
	if (r == 0)
		r = publish(&af, name, len);
	if (r < 0)
		atomic_file_abort(&af);
	return r;
}

static int open_dirs(const char *data_dir, bool create, char *dir, size_t dirlen, char *why,
		     size_t whylen)
{
	int top = statedir_open(data_dir, create, why, whylen), fd;

	if (top < 0)
		return top;
	snprintf(dir, dirlen, "%s/" SNAPSHOT_SUBDIR, data_dir);
	fd = statedir_open_sub(top, data_dir, SNAPSHOT_SUBDIR, create, why, whylen);
	close(top);
	return fd;
}

int snapshot_save(const char *data_dir, char *path, size_t pathlen, char *why, size_t whylen)
{
	char dir[4200], name[SNAPSHOT_NAME_MAX];
	struct out_table *t = NULL;
	struct numastat *st = NULL;
	unsigned *ids = NULL;
	int n, r, fd = -1;

	n = r = read_all_nodes(&ids, &st, why, whylen);
	if (r >= 0)
		r = fd = open_dirs(data_dir, true, dir, sizeof(dir), why, whylen);
	if (r >= 0 && (r = out_table_new(&t, "nodes", OUT_JSON, why, whylen)) == 0)
		r = fill_table(t, ids, st, (size_t)n);
	if (r >= 0 && (r = write_json(fd, t, name, sizeof(name))) < 0) {
		if (r == -EFBIG)
			snprintf(why, whylen,
				 "the counters of %d nodes make a snapshot larger than %d KiB, "
				 "which stat --since could not read back",
				 n, SNAPSHOT_FILE_MAX / 1024);
		else
			snprintf(why, whylen, "cannot write in %s: %s", dir, strerror(-r));
	}
	if (r >= 0)
		snprintf(path, pathlen, "%s/%s", dir, name);
	if (fd >= 0)
		close(fd);
	out_table_free(t);
	free(st);
	free(ids);
	return r < 0 ? r : 0;
}

int snapshot_remove(const char *data_dir, const char *name)
{
	char dir[4200], why[WHY_MAX];
	struct timespec ts;
	int fd, r = 0;

	if (!snapshot_name_time(name, &ts))
		return -EINVAL;
	fd = open_dirs(data_dir, false, dir, sizeof(dir), why, sizeof(why));
	if (fd < 0)
		return fd;
	if (unlinkat(fd, name, 0) < 0 || fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int snapshot_dir_open(const char *data_dir, char *dirpath, size_t pathlen, char *why, size_t whylen)
{
	return open_dirs(data_dir, false, dirpath, pathlen, why, whylen);
}

static int cmp_time(const void *a, const void *b)
{
	const struct snapshot *x = a, *y = b;

	if (x->time.tv_sec != y->time.tv_sec)
		return x->time.tv_sec < y->time.tv_sec ? -1 : 1;
	if (x->time.tv_nsec != y->time.tv_nsec)
		return x->time.tv_nsec < y->time.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

int snapshot_list(int dirfd, struct snapshot **out)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	size_t n = 0, cap = 0;
	struct dirent *e;

	*out = NULL;
	if (!d) {
		int r = -errno;

		if (fd >= 0)
			close(fd);
		return r;
	}
	while ((e = readdir(d))) {
		struct timespec ts;

		if (strlen(e->d_name) >= SNAPSHOT_NAME_MAX || !snapshot_name_time(e->d_name, &ts) ||
		    !strstr(e->d_name, ".json"))
			continue;
		if (array_grow(out, &cap, n + 1, sizeof(**out)) < 0) {
			closedir(d);
			snapshot_list_free(*out, n);
			*out = NULL;
			return -ENOMEM;
		}
		(*out)[n] = (struct snapshot){ .time = ts };
		str_copy((*out)[n++].name, e->d_name, SNAPSHOT_NAME_MAX);
	}
	closedir(d);
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_time);
	return (int)n;
}

/* The whole file (bounded) into a malloc'ed buffer; its length or -errno. */
static ssize_t slurp(int fd, char **buf)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size > SNAPSHOT_FILE_MAX)
		return -EFBIG;
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf)
		return -ENOMEM;
	while ((n = read(fd, *buf + len, (size_t)st.st_size + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (len += (size_t)n) > (size_t)st.st_size)
			return n < 0 ? -errno : -EFBIG; /* grew while being read */
	}
	return (ssize_t)len;
}

int snapshot_read(int dirfd, const char *dirpath, const char *name, struct snapshot *s, char *why,
		  size_t whylen)
{
	char file[SNAPSHOT_NAME_MAX + 8], msg[WHY_MAX];
	char *buf = NULL;
	ssize_t len;
	int fd, r;

	*s = (struct snapshot){ 0 };
	if (strlen(name) >= SNAPSHOT_NAME_MAX || !snapshot_name_time(name, &s->time)) {
		snprintf(why, whylen, "'%.*s': not a snapshot name (see 'numastatctl snapshots')",
			 SNAPSHOT_NAME_MAX, name);
		return -EINVAL;
	}
	snprintf(file, sizeof(file), "%s%s", name, strstr(name, ".json") ? "" : ".json");
	str_copy(s->name, file, sizeof(s->name));
	fd = statedir_open_file(dirfd, dirpath, file, why, whylen);
	if (fd < 0)
		return fd;
	len = slurp(fd, &buf);
	close(fd);
	if (len < 0) {
		snprintf(why, whylen, "%s/%s: %s", dirpath, file,
			 len == -EFBIG ? "larger than a snapshot can be" : strerror((int)-len));
		free(buf);
		return (int)len;
	}
	r = snapshot_parse(buf, (size_t)len, s, msg, sizeof(msg));
	if (r < 0)
		snprintf(why, whylen, "%s/%s: %s", dirpath, file,
			 r == -ENOMEM ? strerror(ENOMEM) : msg);
	free(buf);
	return r;
}

void snapshot_list_free(struct snapshot *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		snapshot_free(&v[i]);
	free(v);
}
