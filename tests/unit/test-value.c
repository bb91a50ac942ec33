// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include "tap.h"
#include "value.h"
int main(void)
{
	uint64_t u;
	CHECK(parse_u64("0", 10, &u) == 0 && u == 0, "zero");
	return tap_done();
}
