// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The revert file: what state_save_prior() writes, state_load_prior() takes
 * back exactly, whatever bytes the values hold; what it did not write is
 * refused.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state.h"
#include "tap.h"
#include "value.h"
#include "why.h"

static char why[WHY_MAX];

static void add(struct plan *p, const char *name, const char *old, const char *want)
{
	struct knob_ref ref;
	struct kval v;

	knob_resolve(name, &ref, why, sizeof(why));
	str_copy(v.text, want, sizeof(v.text));
	plan_add(p, &ref, &v, false, NULL);
	str_copy(p->items[p->n - 1].old.text, old, sizeof(v.text));
	p->items[p->n - 1].action = ACT_WRITE;
}

static int parse(const char *text, struct plan *p, struct state_point *h)
{
	plan_free(p);
	return state_parse_prior(text, strlen(text), "revert", p, h, why, sizeof(why));
}

/* Entries of dirfd other than "revert": a temporary file left behind. */
static int others(int dirfd)
{
	DIR *d = fdopendir(dup(dirfd));
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		     strcmp(e->d_name, STATE_REVERT_FILE);
	if (d)
		closedir(d);
	return n;
}

static void test_round_trip(int dirfd, const char *dir)
{
	char every[KVAL_MAX], forged[KVAL_MAX];
	struct plan p = { 0 }, back = { 0 };
	struct state_point saved, h;
	bool same = true;

	for (int c = 1; c < 256; c++)
		every[c - 1] = (char)c;
	every[255] = '\0';
	snprintf(forged, sizeof(forged),
		 "0\nnumastatctl-revert 2 id=1-0123456789abcdef for=live at=2026-01-01T00:00:00Z "
		 "by=\"x\"\nknob vm.swappiness \"0\" \"1\" -\nend 1\n\" \\\"\\x41");
	add(&p, "vm.every_byte", every, "1");
	add(&p, "vm.forged", forged, "\"quoted\" \\ back");
	add(&p, "vm.empty", "", "0");
	add(&p, "vm.min_slab_ratio", "37", "50");
	/* As plan_add_side_effect() puts it: in front, written first. */
	add(&p, "vm.side", "1", "0");
	p.items[p.n - 1].side_effect = true;
	CHECK(state_save_prior(dirfd, dir, &p, "apply \"x\"\n", &saved, why, sizeof(why)) == 0,
	      "a revert point of hostile values is saved");
	CHECK(state_load_prior(dirfd, dir, &back, &h, why, sizeof(why)) == 5,
	      "and loaded back, every record and no more");
	CHECK(back.n == 5 && back.items[4].side_effect &&
		      strcmp(back.items[4].ref.name, "vm.side") == 0,
	      "the side effect last, to be restored last");
	for (size_t i = 0; i < back.n && back.n == p.n; i++)
		same = same && strcmp(back.items[i].ref.name, p.items[i].ref.name) == 0 &&
		       strcmp(back.items[i].want.text, p.items[i].old.text) == 0 &&
		       back.items[i].have_written &&
		       strcmp(back.items[i].written.text, p.items[i].want.text) == 0 &&
		       back.items[i].optional;
	CHECK(same, "each value before and written comes back byte for byte");
	CHECK(h.version == STATE_FORMAT && strcmp(h.id, saved.id) == 0 && h.live &&
		      strcmp(h.by, "apply \"x\"\n") == 0 && strcmp(h.at, saved.at) == 0,
	      "the header comes back: version, id, system, what and when");
	CHECK(state_save_prior(dirfd, dir, &p, "set", &h, why, sizeof(why)) == 0 &&
		      strcmp(h.id, saved.id) != 0,
	      "the next revert point has another id");
	plan_free(&p);
	plan_free(&back);
}

static void test_too_large(int dirfd, const char *dir)
{
	char ctl[KVAL_MAX], name[32];
	struct plan p = { 0 };

	memset(ctl, 1, sizeof(ctl) - 1);
	ctl[sizeof(ctl) - 1] = '\0';
	for (int i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "vm.k%d", i);
		add(&p, name, ctl, ctl);
	}
	CHECK(state_save_prior(dirfd, dir, &p, "set", NULL, why, sizeof(why)) == -EFBIG,
	      "more than revert would read is not saved");
	CHECK(strstr(why, "larger than 1024 KiB") != NULL, "saying why");
	CHECK(others(dirfd) == 0, "and leaves no temporary file");
	plan_free(&p);
}

#define HDR "numastatctl-revert 2 id=1764640971123456789-0123456789abcdef for=live "
#define HDR_END "at=2026-12-02T02:02:51Z by=\"set\"\n"

static void test_parse(void)
{
	struct plan p = { 0 };
	struct state_point h;

	CHECK(parse(HDR HDR_END "knob vm.x \"\\x1b[1m\\\\\" \"2\" -\nend 1\n", &p, &h) == 1,
	      "a well-formed file parses");
	CHECK_STR(p.items[0].want.text, "\x1b[1m\\", "escapes are decoded");
	CHECK_STR(h.id, "1764640971123456789-0123456789abcdef", "the id is read");
	CHECK(parse(HDR HDR_END "end 0\n", &p, &h) == 0, "no record is a revert point too");
	CHECK(parse("", &p, &h) == -EBADMSG, "an empty file is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"1\" \"2\" -\n", &p, &h) == -EBADMSG,
	      "a file cut before its end line is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"1\" \"2\" -\nend 1", &p, &h) == -EBADMSG,
	      "a file cut before its last newline is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"1\0\" \"2\" -\nend 1\n", &p, &h) == -EBADMSG,
	      "a NUL byte is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"\\x00\" \"2\" -\nend 1\n", &p, &h) == -EBADMSG,
	      "an escaped NUL is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"\\x7E\" \"2\" -\nend 1\n", &p, &h) == -EBADMSG,
	      "upper-case hex is not the one spelling");
	CHECK(parse(HDR HDR_END "knob vm.x \"\xc3\xa9\" \"2\" -\nend 1\n", &p, &h) == -EBADMSG,
	      "a raw byte above 0x7e is refused");
	CHECK(parse(HDR HDR_END "knob vm.x \"1\" \"2\" side-effect,last\nend 1\n", &p, &h) ==
		      -EBADMSG,
	      "a flag this version does not know is refused");
	CHECK(strstr(why, "flag 'last' is not known") != NULL, "naming the flag");
	CHECK(parse(HDR HDR_END
		    "knob vm.x \"1\" \"2\" -\nknob vm.y \"1\" \"0\" side-effect\nend 2\n",
		    &p, &h) == 2 &&
		      !p.items[0].side_effect && p.items[1].side_effect,
	      "a side effect is read as one");
	CHECK(parse(HDR HDR_END
		    "knob vm.y \"1\" \"0\" side-effect\nknob vm.x \"1\" \"2\" -\nend 2\n",
		    &p, &h) == -EBADMSG,
	      "a knob after the side effects is refused: they are restored last");
	CHECK(parse(HDR HDR_END "knob vm.y \"1\" \"0\" side-effect,side-effect\nend 1\n", &p, &h) ==
		      -EBADMSG,
	      "a flag twice is refused");
	CHECK(parse(HDR HDR_END "knob vm.y \"1\" \"0\" side-effect,\nend 1\n", &p, &h) == -EBADMSG,
	      "an empty flag is refused");
	CHECK(parse(HDR HDR_END HDR HDR_END "end 0\n", &p, &h) == -EBADMSG,
	      "a second header is refused");
	CHECK(parse("numastatctl-revert 2 id=1-0123456789abcdef for=\"\" " HDR_END "end 0\n", &p,
		    &h) == -EBADMSG,
	      "an empty sysroot is refused");
	CHECK(parse("numastatctl-revert 2 id=1-0123456789abcdef for=\"/a b\" " HDR_END "end 0\n",
		    &p, &h) == 0 &&
		      !h.live && strcmp(h.sysroot, "/a b") == 0,
	      "a sysroot is a quoted path");
	CHECK(parse("numastatctl-revert 2 id=1-0123456789abcdef for=live at=2026-12-02T02:02:51Z "
		    "by=\"set\" \nend 0\n",
		    &p, &h) == -EBADMSG,
	      "a space at the end of the header is refused");
	CHECK(parse("numastatctl-revert 02 id=1-0123456789abcdef for=live " HDR_END "end 0\n", &p,
		    &h) == -EBADMSG,
	      "version 02 is not version 2");
	CHECK(parse(HDR HDR_END "end 00000000000000000000000000000001\n", &p, &h) == -EBADMSG,
	      "a count too long is refused");
	plan_free(&p);
}

static void test_v1(void)
{
	struct plan p = { 0 };
	struct state_point h;

#define V1 "# numastatctl revert state: 'numastatctl revert' writes these back\n"
	CHECK(parse(V1 "# values before 'apply x' at 2026-01-01T00:00:00Z\n"
		       "# for the live system\nvm.min_slab_ratio = 37\n",
		    &p, &h) == 1,
	      "the format of 0.1.0 is read");
	CHECK(h.version == 1 && h.live && !h.id[0] && strcmp(h.by, "apply x") == 0 &&
		      strcmp(h.at, "2026-01-01T00:00:00Z") == 0 && !p.items[0].have_written,
	      "with its header, no id and no written values");
	CHECK(parse(V1 "# values before 'set' at 2026-01-01T00:00:00Z\n"
		       "# for --sysroot /x\nvm.x = 1\n# for the live system\n",
		    &p, &h) == -EBADMSG,
	      "a header line after the first three is refused");
	CHECK(parse(V1 "# for the live system\nvm.x = 1\n", &p, &h) == -EBADMSG,
	      "a header of another shape is refused");
	CHECK(parse(V1 "# values before 'set' at 2026-01-01T00:00:00Z\n# for the live system\n"
		       "vm.x = 1\n# a side effect of the change above, restored last:\nvm.y = 1\n",
		    &p, &h) == 2 &&
		      !p.items[0].side_effect && p.items[1].side_effect,
	      "its side effect line marks the knob after it");
	CHECK(parse(V1 "# values before 'set' at 2026-01-01T00:00:00Z\n# for the live system\n"
		       "vm.x = 1\n# a side effect of the change above, restored last:\n",
		    &p, &h) == -EBADMSG,
	      "a side effect line with no knob after it is refused");
	plan_free(&p);
}

int main(void)
{
	char dir[] = "/tmp/test-state.XXXXXX";
	int dirfd;

	if (!mkdtemp(dir) || (dirfd = open(dir, O_RDONLY | O_DIRECTORY)) < 0) {
		printf("Bail out! cannot make a temporary directory\n");
		return 1;
	}
	test_round_trip(dirfd, dir);
	test_too_large(dirfd, dir);
	test_parse();
	test_v1();
	unlinkat(dirfd, STATE_REVERT_FILE, 0);
	close(dirfd);
	rmdir(dir);
	return tap_done();
}
