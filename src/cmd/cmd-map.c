// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * map: which node is what.  Each node's CPUs and package, the source of
 * its memory, its zones, tier, demotion targets, performance data and
 * interleave weight, and the policy that onlines hot-added memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "map-cmd.h"

enum {
	OPT_PROMETHEUS = OPT_CMD_BASE,
};

static const struct cmd_option options[] = {
	{ "prometheus", no_argument, OPT_PROMETHEUS, NULL,
	  "print the map as Prometheus info series on stdout" },
	{ 0 },
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " numastatctl map [options]\n"
	      "\nWhich node is what: per node its CPUs, package, tier and demotion targets,\n"
	      "the source of its memory (boot, CXL, dax/kmem, ACPI, unattributed), its\n"
	      "Normal/Movable split, offline blocks, performance data and weight.\n"
	      "\nOptions:\n",
	      out);
	cmd_options_usage(out, options);
	cmd_usage_global_options(out);
	fputs("\nFor more details see numastatctl(8).\n", out);
}

/* A part that could not be read is said; the rest of the map still shows. */
static int say_problems(const struct map_ctx *c)
{
	const struct memmap *m = &c->m;
	int rc = EXIT_OK;

	if (m->zi_err < 0 && m->zi_err != -ENOENT) {
		log_err("%s", m->zi_why);
		rc = EXIT_FAIL;
	}
	if (m->blocks_err < 0 && m->blocks_err != -ENOENT) {
		log_err("%s", m->blocks_why);
		rc = EXIT_FAIL;
	}
	if (m->dev_err < 0) {
		log_err("%s", m->dev_why);
		rc = EXIT_FAIL;
	}
	if (m->tiers_err < 0 && m->tiers_err != -ENOENT) {
		log_err("%s", m->tiers_why);
		rc = EXIT_FAIL;
	}
	if (m->iw_err < 0) {
		log_err("%s", m->iw_why);
		rc = EXIT_FAIL;
	}
	return rc;
}

static int show(bool prometheus)
{
	struct map_ctx c = { 0 };
	unsigned *ids = NULL;
	int n = nodes_enumerate(&ids), rc, prc;

	if (n < 0) {
		log_err(NODE_DIR ": %s", strerror(-n));
		return EXIT_FAIL;
	}
	/* The classes read the distance matrix; the demotion targets take it from them. */
	c.cls_err = node_class_read(&c.cls, c.cls_why, sizeof(c.cls_why));
	if (memmap_read(ids, (size_t)n, c.cls_err == 0 && c.cls.n == (size_t)n ? c.cls.dist : NULL,
			&c.m) < 0) {
		log_err("out of memory");
		free(ids);
		memmap_free(&c.m);
		if (c.cls_err == 0)
			node_class_free(&c.cls);
		return EXIT_FAIL;
	}
	rc = say_problems(&c);
	prc = prometheus        ? map_prom_print(&c, stdout)
	      : cmd_global.json ? map_json_print(&c)
				: map_text_print(&c);
	if (prc != EXIT_OK)
		rc = prc;
	if (c.cls_err == 0)
		node_class_free(&c.cls);
	memmap_free(&c.m);
	free(ids);
	return rc;
}

static int run(int argc, char *argv[])
{
	bool prometheus = false;
	int c, rc;

	while ((c = cmd_getopt(argc, argv, options)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_PROMETHEUS:
			prometheus = true;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (cmd_no_operands(argc, argv) != EXIT_OK)
		return EXIT_USAGE;
	if (prometheus && cmd_global.json) {
		log_usage_err("--prometheus and -J: choose one");
		return EXIT_USAGE;
	}
	if ((rc = cmd_setup()) != EXIT_OK)
		return rc;
	return show(prometheus);
}

const struct cmd cmd_map = {
	.name = "map",
	.run = run,
	.summary = "which node is what: CPUs, memory source, zones, tier, weight",
	.usage = usage,
	.options = options,
};
