// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * numastatctl.conf as anyone could write it: the bytes go through the whole
 * loader (our line reader, inih, the model checks, includes and loops), then
 * every profile is resolved and turned into a plan, and every error and
 * origin is formatted.  A memfd stands in for the file, so the loader's own
 * open/fstat path runs too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plan.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const struct profile_config *c)
{
	char why[1024], origin[4200];

	for (size_t i = 0; i < c->nerrors; i++)
		if (!c->errors[i].text || !strchr(c->errors[i].text, ':'))
			abort();
	for (size_t i = 0; i < c->nprofiles; i++) {
		struct profile_resolved r;
		struct plan p = { 0 };

		if (profile_resolve(c, c->profiles[i].name, &r, why, sizeof(why)) < 0)
			continue;
		for (size_t k = 0; k < r.n; k++)
			profile_origin(c, r.knobs[k].def->at, origin, sizeof(origin));
		profile_plan(c, &r, &p);
		plan_free(&p);
		profile_resolved_free(&r);
	}
	profile_names(c, why, sizeof(why));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile_config c = { 0 };
	char path[64];
	int fd = memfd_create("numastatctl.conf", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		profile_config_load(&c, path, NULL, 0);
		/* A configuration with errors is never applied; one without must resolve. */
		exercise(&c);
		profile_config_free(&c);
	}
	close(fd);
	return 0;
}
