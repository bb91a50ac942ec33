// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dl.h"
#include "log.h"
#include "numalib.h"

static void *libnuma;
static typeof(numa_available) *sym_numa_available;
static typeof(numa_tonode_memory) *sym_numa_tonode_memory;
static typeof(numa_run_on_node) *sym_numa_run_on_node;
static typeof(numa_node_size64) *sym_numa_node_size64;
static typeof(numa_node_to_cpus) *sym_numa_node_to_cpus;
static typeof(numa_allocate_cpumask) *sym_numa_allocate_cpumask;
static typeof(numa_bitmask_free) *sym_numa_bitmask_free;

static const struct dl_sym libnuma_syms[] = {
	/* clang-format off */
	DL_SYM(numa_available),
	DL_SYM(numa_tonode_memory),
	DL_SYM(numa_run_on_node),
	DL_SYM(numa_node_size64),
	DL_SYM(numa_node_to_cpus),
	DL_SYM(numa_allocate_cpumask),
	DL_SYM(numa_bitmask_free),
	/* clang-format on */
	{ NULL, NULL },
};

/*
 * The last libnuma error of this thread.  Several libnuma calls (such as
 * numa_tonode_memory) return void and report only through numa_error(), so
 * each wrapper clears this before the call and looks at it after.  Bench
 * workers bind their own memory at the same time: one record per thread.
 */
static __thread struct {
	int err;
	char where[96];
} last_error;

/*
 * Replaces libnuma's weak default, which perror()s and may exit(1).  The
 * error is returned by the wrapper that called libnuma and printed by the
 * command, with our prefix and the object it concerns.
 */
void numa_error(char *where)
{
	last_error.err = errno ? errno : EIO;
	snprintf(last_error.where, sizeof(last_error.where), "%s", where ? where : "libnuma");
}

/*
 * Replaces libnuma's weak default, which prints "libnuma: Warning:" once per
 * kind of warning, and may exit(1).  Every warning is printed, and never exits.
 */
void numa_warn(int num, char *fmt, ...)
{
	char msg[256];
	size_t len;
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* libnuma's formats often end in '\n' already. */
	len = strlen(msg);
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	log_warn("libnuma: %s", msg);
	errno = saved;
}

static void error_clear(void)
{
	last_error.err = 0;
	last_error.where[0] = '\0';
}

/* -errno of the libnuma error recorded since error_clear(), or 0. */
static int error_take(const char *what, char *why, size_t whylen)
{
	int err = last_error.err;

	if (!err)
		return 0;
	snprintf(why, whylen, "%s: libnuma: %s: %s", what, last_error.where, strerror(err));
	error_clear();
	return -err;
}

int numalib_load(char *why, size_t whylen)
{
	int r;

	if (libnuma)
		return 0;
	r = dl_load(DL_LIB_numa, &libnuma, libnuma_syms, why, whylen);
	if (r < 0)
		return r;
	/*
	 * libnuma resolves numa_warn/numa_error through the global scope: our
	 * definitions win only if the executable exports them (numalib.sym).
	 * Without that, a failed mbind would go unnoticed.
	 */
	if (dlsym(RTLD_DEFAULT, "numa_error") != (void *)numa_error ||
	    dlsym(RTLD_DEFAULT, "numa_warn") != (void *)numa_warn) {
		snprintf(why, whylen,
			 "this build does not export numa_warn and numa_error to libnuma");
		return -ELIBBAD;
	}
	if (sym_numa_available() < 0) {
		snprintf(why, whylen, "NUMA is not available on this system");
		return -ENOSYS;
	}
	return 0;
}

int numalib_bind(void *addr, size_t len, unsigned node, char *why, size_t whylen)
{
	error_clear();
	sym_numa_tonode_memory(addr, len, (int)node);
	return error_take("cannot bind memory to the node", why, whylen);
}

int numalib_run_on_node(unsigned node, char *why, size_t whylen)
{
	int err;

	error_clear();
	errno = 0;
	if (sym_numa_run_on_node((int)node) == 0)
		return 0;
	err = last_error.err ? last_error.err : errno ? errno : EINVAL;
	snprintf(why, whylen, "cannot run on the node's CPUs: %s", strerror(err));
	error_clear();
	return -err;
}

void numalib_node_cpus_ready(unsigned node)
{
	struct bitmask *cpus = sym_numa_allocate_cpumask();

	/* libnuma fills its per-node cache on the first look, without a lock. */
	if (cpus) {
		error_clear();
		sym_numa_node_to_cpus((int)node, cpus);
		error_clear();
		sym_numa_bitmask_free(cpus);
	}
}

int numalib_node_free(unsigned node, unsigned long long *free_bytes, char *why, size_t whylen)
{
	long long fr = 0;

	if (sym_numa_node_size64((int)node, &fr) < 0 || fr < 0) {
		snprintf(why, whylen, "cannot read the node's free memory");
		return -EIO;
	}
	*free_bytes = (unsigned long long)fr;
	return 0;
}
