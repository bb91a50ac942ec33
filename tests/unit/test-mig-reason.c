// SPDX-License-Identifier: GPL-2.0-or-later
/* The migration tracepoint's format and hist parsers (mig-reason.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mig-reason.h"
#include "tap.h"

static char why[256];
static char text[8192];

static const char *fixture(const char *rel)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", getenv("FIXTURES"), rel);
	f = fopen(path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	return text;
}

static int fmt(const char *s, struct mig_format *f)
{
	return mig_reason_parse_format(s, strlen(s), f, why, sizeof(why));
}

static int hist(const char *s, struct mig_hist *h)
{
	return mig_reason_parse_hist(s, strlen(s), h, why, sizeof(why));
}

#define FIELDS                                                              \
	"\tfield:unsigned long succeeded;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long failed;\toffset:16;\tsize:8;\tsigned:0;\n"   \
	"\tfield:int reason;\toffset:28;\tsize:4;\tsigned:1;\n"

static void test_format(void)
{
	struct mig_format f;
	char trig[128];

	why[0] = '\0';
	CHECK(fmt(fixture("tracefs/sys/kernel/tracing/events/migrate/mm_migrate_pages/format"),
		  &f) == 0,
	      "the format file of a kernel with damon and one reason more parses (%s)", why);
	CHECK(f.n == 11 && f.reasons[0].id == 0 && strcmp(f.reasons[0].name, "compaction") == 0,
	      "eleven reasons, compaction first");
	CHECK_STR(mig_reason_name(&f, 9), "damon", "damon is 9");
	CHECK_STR(mig_reason_name(&f, 10), "future_cause",
		  "a reason no kernel we know has is read like the others");
	CHECK(mig_reason_name(&f, 11) == NULL, "an id the table lacks has no name");
	CHECK(f.vals == (1u << MIG_VALS) - 1, "every count field is there");
	CHECK(mig_reason_trigger(&f, 0, trig, sizeof(trig)) > 0 &&
		      strcmp(trig, "hist:keys=reason:vals=succeeded,failed") == 0,
	      "trigger 0: the pages, two values (the kernel's most besides hitcount)");
	CHECK(mig_reason_trigger(&f, 1, trig, sizeof(trig)) > 0 &&
		      strcmp(trig, "hist:keys=reason:vals=thp_succeeded,thp_failed") == 0,
	      "trigger 1: the huge pages");
	CHECK(mig_reason_trigger(&f, 2, trig, sizeof(trig)) > 0 &&
		      strcmp(trig, "hist:keys=reason:vals=thp_split") == 0,
	      "trigger 2: the rest");
	CHECK(mig_reason_trigger(&f, 3, trig, sizeof(trig)) == 0, "no fourth");
	CHECK(fmt(FIELDS
		  "print fmt: \"r=%s\", __print_symbolic(REC->reason, { 0, \"compaction\" }, "
		  "{ 1, \"memory_failure\" })\n",
		  &f) == 0 &&
		      f.n == 2 && f.vals == 3,
	      "5.10's event (no thp fields), spaces inside the braces");
	CHECK(mig_reason_trigger(&f, 0, trig, sizeof(trig)) > 0 &&
		      strcmp(trig, "hist:keys=reason:vals=succeeded,failed") == 0 &&
		      mig_reason_trigger(&f, 1, trig, sizeof(trig)) == 0,
	      "its one trigger sums what it has");
	CHECK(mig_reason_trigger(&f, 0, trig, 20) == -ENOSPC, "a short buffer is -ENOSPC");
}

static void test_format_bad(void)
{
	struct mig_format f;

	CHECK(fmt(FIELDS "print fmt: \"r=%s\", __print_symbolic(REC->reason, {MR_DAMON, "
			 "\"damon\"})\n",
		  &f) == -EBADMSG &&
		      strstr(why, "'MR_DAMON' is not a number"),
	      "an enum the kernel did not resolve is refused: %s", why);
	CHECK(fmt("\tfield:unsigned long succeeded;\n\tfield:unsigned long failed;\n", &f) ==
			      -EBADMSG &&
		      strcmp(why, "the event has no reason field") == 0,
	      "no reason field: %s", why);
	CHECK(fmt(FIELDS "print fmt: \"x\", REC->reason\n", &f) == -EBADMSG &&
		      strstr(why, "no __print_symbolic"),
	      "no table: %s", why);
	CHECK(fmt(FIELDS "print fmt: \"x\", __print_symbolic(REC->reason, {0, \"a\"}, {0, "
			 "\"b\"})\n",
		  &f) == -EBADMSG &&
		      strstr(why, "twice"),
	      "an id twice: %s", why);
	CHECK(fmt(FIELDS "print fmt: \"x\", __print_symbolic(REC->reason, {0, \"a b\"})\n", &f) ==
		      -EBADMSG,
	      "a name with a space: %s", why);
	CHECK(fmt(FIELDS "print fmt: \"x\", __print_symbolic(REC->reason, {0, \"a\"}", &f) ==
		      -EBADMSG,
	      "a table cut short: %s", why);
}

static void test_hist(void)
{
	struct mig_hist h;
	const struct mig_hist_row *r;

	why[0] = '\0';
	CHECK(hist(fixture("tracefs-instance/events/migrate/mm_migrate_pages/hist"), &h) == 0 &&
		      h.n > 0,
	      "the kernel's hist file parses (%s)", why);
	CHECK(h.n == 3 && h.dropped == 0, "three reasons in three sections, nothing dropped");
	r = mig_reason_hist_row(&h, 3);
	CHECK(r && r->hits == 2 && r->v[MIG_SUCCEEDED] == 1024 && r->v[MIG_FAILED] == 3 &&
		      r->v[MIG_THP_SUCCEEDED] == 1 && r->v[MIG_THP_SPLIT] == 0,
	      "syscall_or_cpuset's sums, merged from the three triggers' sections");
	CHECK(mig_reason_hist_row(&h, 0) == NULL, "a reason that did not happen has no row");
	CHECK(hist("# event histogram\n#\n\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n",
		   &h) == 0 &&
		      h.n == 0,
	      "an empty histogram");
	CHECK(hist("{ reason:          5 } hitcount:          1  succeeded:          7\n\nTotals:\n"
		   "    Dropped: 4\n",
		   &h) == 0 &&
		      h.dropped == 4,
	      "drops are kept");
	CHECK(hist("{ reason: 5 } hitcount: 1  pages: 7\n", &h) == -EBADMSG &&
		      strcmp(why, "line 1: unknown value 'pages'") == 0,
	      "an unknown value: %s", why);
	CHECK(hist("{ pid: 5 } hitcount: 1\n", &h) == -EBADMSG, "another key: %s", why);
	CHECK(hist("{ reason: 5 hitcount: 1\n", &h) == -EBADMSG, "a key not closed: %s", why);
	CHECK(hist("{ reason: 5 } hitcount: x\n", &h) == -EBADMSG, "not a number: %s", why);
	CHECK(hist("{ reason: 5 } hitcount: 99999999999999999999\n", &h) == -EBADMSG,
	      "past u64: %s", why);
	CHECK(hist("Hits: 3\n", &h) == -EBADMSG, "a stray line: %s", why);
}

int main(void)
{
	test_format();
	test_format_bad();
	test_hist();
	return tap_done();
}
