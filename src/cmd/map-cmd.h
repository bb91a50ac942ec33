/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The map command's rooms and what they share: the map of every node read
 * once (memmap.h) beside its packages and distance classes (node-class.h).
 * cmd-map.c parses the options and reads; map-text.c, map-json.c and
 * map-prom.c print.  Implemented by cmd-map.c, map-text.c, map-json.c and
 * map-prom.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memmap.h"
#include "node-class.h"

struct map_ctx {
	struct memmap m;
	struct node_classes cls;
	int cls_err; /* 0, or -errno: no packages or classes then */
	char cls_why[WHY_MAX];
};

/* The table and the lines around it.  An exit code. */
int map_text_print(const struct map_ctx *c);
/* The -J document.  An exit code. */
int map_json_print(const struct map_ctx *c);
/* The Prometheus text.  An exit code. */
int map_prom_print(const struct map_ctx *c, FILE *f);

/* What both text and JSON say the same way. */
/* "region0", "dax1.0", "PNP0C80:00"; "" for boot memory and the unattributed. */
const char *map_text_device(const struct map_ctx *c, const struct memmap_part *p);
/* The node's package, NODE_CLASS_NONE when unknown. */
unsigned map_text_package(const struct map_ctx *c, unsigned node);
/*
 * Who set where hot-added memory goes: "memhp_default_state= on the
 * kernel command line" or "the kernel's build default, unless written
 * since boot".
 */
const char *map_text_policy_from(const struct memmap_policy *p);
