// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dl.h"

static const struct {
	const char *soname, *package, *needs, *without;
} libs[DL_LIB_COUNT] = {
#define DL_LIB_ROW(id, soname, package, priority, needs, without) \
	[DL_LIB_##id] = { soname, package, needs, without },
	DL_LIBRARIES(DL_LIB_ROW)
#undef DL_LIB_ROW
};

void dl_missing(enum dl_lib lib, const char *dlerror_text, char *why, unsigned long whylen)
{
	/* glibc's words for ENOENT: the library is not installed at all. */
	if (strstr(dlerror_text, "No such file or directory"))
		snprintf(why, whylen,
			 "%s is missing: install the Debian package %s (needed for %s; "
			 "works without it: %s)",
			 libs[lib].soname, libs[lib].package, libs[lib].needs, libs[lib].without);
	else
		snprintf(why, whylen, "%s (from the Debian package %s)", dlerror_text,
			 libs[lib].package);
}

int dl_load(enum dl_lib lib, void **handle, const struct dl_sym *syms, char *why,
	    unsigned long whylen)
{
	const char *soname = libs[lib].soname;
	void *h;

	if (*handle)
		return 0;
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		dl_missing(lib, e ? e : "", why, whylen);
		return -ENOENT;
	}
	for (const struct dl_sym *s = syms; s->name; s++) {
		*s->ptr = dlsym(h, s->name);
		if (!*s->ptr) {
			snprintf(why, whylen, "%s: missing symbol %s (from the Debian package %s)",
				 soname, s->name, libs[lib].package);
			dlclose(h);
			return -ENOENT;
		}
	}
	*handle = h;
	return 0;
}
