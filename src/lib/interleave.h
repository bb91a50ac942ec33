/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Weighted interleave (Linux 6.9+): what the weights and `auto` mean for a
 * plan, whether `auto` can be turned on again, the weights the kernel's
 * `auto` rule derives from bandwidth, and the live weights of a node set.
 * Implemented by interleave.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define INTERLEAVE_AUTO "mm.mempolicy.weighted_interleave.auto"
#define INTERLEAVE_WEIGHTS "mm.mempolicy.weighted_interleave.nodeN"
/* reduce_interleave_weights() (mm/mempolicy.c, 6.16+): weights start in [1, 32]. */
#define INTERLEAVE_WEIGHTINESS 32

bool interleave_is_weight(const struct knob_ref *ref);
bool interleave_is_auto(const struct knob_ref *ref);

/*
 * A plan that turns auto on and sets a weight: the kernel would replace the
 * weight (auto on) or turn auto off again (weight written after): -EINVAL
 * with why, naming both.  0 otherwise.
 */
int interleave_plan_check(const struct plan *p, char *why, size_t whylen);
/*
 * After plan_read_live(): a plan that turns auto on where the kernel cannot
 * (no bandwidth data: it answers ENODEV) is -EINVAL with why, before any
 * write, as every value the kernel would refuse.  0 otherwise.
 */
int interleave_plan_check_live(const struct plan *p, char *why, size_t whylen);
/*
 * After plan_read_live(): a plan that writes a weight while auto is on
 * (and does not name auto) gets auto true -> false in front, as a side
 * effect (plan_add_side_effect()).  0 or -ENOMEM.
 */
int interleave_plan_side_effects(struct plan *p);
/*
 * auto on after every weight, whatever the order typed or saved: a
 * weight written turns auto off, so auto on written first would not hold.
 * interleave_plan_side_effects() does it.
 */
void interleave_plan_order(struct plan *p);
/*
 * A change that turns auto on keeps every live weight as a side effect
 * (derived: read after the write, never written), so revert puts the
 * weights set by hand back.  0 or -ENOMEM.
 */
int interleave_plan_save_weights(struct plan *p);
/*
 * Whether the kernel can turn auto on: only with bandwidth data, which
 * shows as nodeN/access1/initiators/read_bandwidth (access class 1: CPUs).
 */
bool interleave_auto_can_return(void);
/*
 * A plan that took auto from true to false (ACT_CHANGED) where the kernel
 * cannot turn it on again.  Auto on without bandwidth data derived
 * nothing: every weight was 1 (mm/mempolicy.c reads no state as all ones),
 * so what revert restores, the weights, is what the kernel did before.
 */
bool interleave_plan_auto_lost(const struct plan *p);
/*
 * revert: where the kernel cannot turn auto on, drop the plan's auto -> true
 * (it would fail with ENODEV and undo the whole revert): 1 when dropped, with
 * why saying so; 0 otherwise.
 */
int interleave_plan_drop_auto(struct plan *p, char *why, size_t whylen);

/*
 * The kernel's auto rule (reduce_interleave_weights()): per node
 * floor(32 * bw / sum) when bw > 0 and 32 * bw > sum, else 1, then all
 * divided by their GCD.  bw[i] in any unit; w[i] out.
 */
void interleave_auto_weights(const uint64_t *bw, size_t n, unsigned *w);

/* The live weights: one per node that has a weight file, by node id. */
struct interleave_weights {
	unsigned *nodes, *w;
	size_t n;
};
/*
 * Read every nodeN weight here.  0 (n == 0: no weighted interleave), or
 * -errno: -ENOMEM, or a file that cannot be read or holds no weight
 * (-EBADMSG), with why naming it.
 */
int interleave_weights_read(struct interleave_weights *iw, char *why, size_t whylen);
void interleave_weights_free(struct interleave_weights *iw);
/* The weight of node, or 0 when it has none. */
unsigned interleave_weight_of(const struct interleave_weights *iw, unsigned node);
/* True when every node has the same weight (or there are none). */
bool interleave_weights_uniform(const struct interleave_weights *iw);
