// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "dl.h"

int dl_load(const char *soname, void **handle, const struct dl_sym *syms,
	    char *why, unsigned long whylen)
{
	void *h;

	if (*handle)
		return 0;
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, whylen, "%s", dlerror());
		return -ENOENT;
	}
	for (const struct dl_sym *s = syms; s->name; s++) {
		*s->ptr = dlsym(h, s->name);
		if (!*s->ptr) {
			snprintf(why, whylen, "%s: missing symbol %s", soname, s->name);
			dlclose(h);
			return -ENOENT;
		}
	}
	*handle = h;
	return 0;
}
