// SPDX-License-Identifier: GPL-2.0-or-later
/* Transitional: replaced by the full command in this same change. */
#include "cmd.h"
#include "log.h"

static int run(int argc, char *argv[])
{
	log_err("not built yet");
	return EXIT_FAIL;
}

static void usage(FILE *out)
{
	fputs("Usage:\n numastatctl knobs\n", out);
}

const struct cmd cmd_knobs = { "knobs", run, "(in progress)", usage };
