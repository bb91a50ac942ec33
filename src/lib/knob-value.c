// SPDX-License-Identifier: GPL-2.0-or-later
/* Typed values of knobs: validation, canonical form, display, live I/O. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "sysfs.h"
#include "value.h"

static const char *const bool_true[] = { "1", "on", "true", "yes", NULL };
static const char *const bool_false[] = { "0", "off", "false", "no", NULL };

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (str_word_eq(s, *list))
			return true;
	return false;
}

void knob_allowed(const struct knob *k, char *buf, size_t len)
{
	size_t n = 0;

	switch (k->type) {
	case KNOB_BOOL:
		snprintf(buf, len, "0 or 1 (or on/off)");
		break;
	case KNOB_INT:
		snprintf(buf, len, "an integer from %" PRId64 " to %" PRId64, k->min, k->max);
		break;
	case KNOB_BITMASK:
		n = (size_t)snprintf(buf, len, "%" PRId64 "..%" PRId64 ", an OR of", k->min,
				     k->max);
		for (const struct knob_word *w = k->words; w->name && n < len; w++)
			n += (size_t)snprintf(buf + n, len - n, "%s %" PRId64 " (%s)",
					      w == k->words ? "" : ",", w->value, w->name);
		if (n < len && k->words[0].name && k->words[1].name)
			snprintf(buf + n, len - n, ", e.g. %" PRId64 "|%" PRId64 " or %s|%s",
				 k->words[0].value, k->words[1].value, k->words[0].name,
				 k->words[1].name);
		break;
	case KNOB_ENUM:
		for (const struct knob_word *w = k->words; w->name && n < len; w++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      w == k->words ? ""
					      : w[1].name   ? ", "
							    : " or ",
					      w->name);
		break;
	case KNOB_STRING:
		snprintf(buf, len, "any value the kernel accepts");
		break;
	}
}

static int parse_bool(const char *in, struct kval *out)
{
	if (in_list(in, bool_true))
		str_copy(out->text, "1", sizeof(out->text));
	else if (in_list(in, bool_false))
		str_copy(out->text, "0", sizeof(out->text));
	else
		return -EINVAL;
	return 0;
}

static int parse_int(const struct knob *k, const char *in, struct kval *out)
{
	int64_t v;
	int r = parse_i64(in, k->min, k->max, &v);

	if (r == 0)
		fmt_i64(out->text, sizeof(out->text), v);
	return r;
}

static int bitmask_token(const struct knob *k, const char *tok, size_t len, int64_t *bit)
{
	uint64_t v;

	if (parse_u64_n(tok, len, (uint64_t)k->max, &v) == 0) {
		*bit = (int64_t)v;
		return 0;
	}
	for (const struct knob_word *w = k->words; w->name; w++)
		if (strlen(w->name) == len && strncasecmp(w->name, tok, len) == 0) {
			*bit = w->value;
			return 0;
		}
	if ((len == 4 && strncasecmp(tok, "none", 4) == 0) ||
	    (len == 3 && strncasecmp(tok, "off", 3) == 0)) {
		*bit = 0;
		return 0;
	}
	return -EINVAL;
}

/* "5", "1|4", "reclaim | unmap", "none". */
static int parse_bitmask(const struct knob *k, const char *in, struct kval *out)
{
	int64_t mask = 0, bit;
	const char *p = in;

	for (;;) {
		const char *end = strchr(p, '|');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (bitmask_token(k, p, len, &bit) < 0)
			return -EINVAL;
		mask |= bit;
		if (!end)
			break;
		p = end + 1;
	}
	if (mask < k->min || mask > k->max)
		return -ERANGE;
	fmt_i64(out->text, sizeof(out->text), mask);
	return 0;
}

static int parse_enum(const struct knob *k, const char *in, struct kval *out)
{
	for (const struct knob_word *w = k->words; w->name; w++)
		if (str_word_eq(w->name, in)) {
			str_copy(out->text, k->words[w->value].name, sizeof(out->text));
			return 0;
		}
	return -EINVAL;
}

/* Pass-through: printable text, whitespace runs folded to one space. */
static int parse_string(const char *in, struct kval *out)
{
	size_t n = 0;
	bool space = false;

	for (const char *p = in; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '\t') {
			space = n > 0;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			return -EINVAL;
		if (n + 2 >= sizeof(out->text))
			return -ERANGE;
		if (space)
			out->text[n++] = ' ';
		space = false;
		out->text[n++] = (char)c;
	}
	out->text[n] = '\0';
	return n ? 0 : -EINVAL;
}

static int parse_typed(const struct knob_ref *ref, const char *in, struct kval *out)
{
	const struct knob *k = ref->knob;

	if (!k)
		return parse_string(in, out);
	switch (k->type) {
	case KNOB_BOOL:
		return parse_bool(in, out);
	case KNOB_INT:
		return parse_int(k, in, out);
	case KNOB_BITMASK:
		return parse_bitmask(k, in, out);
	case KNOB_ENUM:
		return parse_enum(k, in, out);
	case KNOB_STRING:
		break;
	}
	return parse_string(in, out);
}

/* "5.18" (or "6.18.44-fc") as 5018; -1 when it is not a version. */
static int version_number(const char *s)
{
	char *end;
	unsigned long major, minor;

	errno = 0;
	major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	minor = strtoul(end + 1, &end, 10);
	if (errno || major >= 1000 || minor >= 1000)
		return -1;
	return (int)(major * 1000 + minor);
}

int knob_kernel_version(void)
{
	char buf[128];

	/* Under --sysroot this is the dump's kernel, which is the one its knobs belong to. */
	if (sysfs_read_file("/proc/sys/kernel/osrelease", buf, sizeof(buf)) < 0)
		return -1;
	return version_number(buf);
}

/*
 * A value in the registry's range that this (older) kernel's handler still
 * refuses: kernel.numa_balancing=2 before 5.18.  An unknown version gets
 * the current range: the kernel has the last word then.
 */
static int check_older(const struct knob_ref *ref, const struct kval *v, char *why, size_t whylen)
{
	const struct knob *k = ref->knob;
	int64_t n;
	int kv;

	if (!k || !k->older.before || parse_i64(v->text, INT64_MIN, INT64_MAX, &n) < 0 ||
	    n <= k->older.max)
		return 0;
	kv = knob_kernel_version();
	if (kv < 0 || kv >= version_number(k->older.before))
		return 0;
	snprintf(why, whylen,
		 "%s: invalid value '%s': this kernel (%d.%d) takes at most %" PRId64
		 "; more came in %s",
		 ref->name, v->text, kv / 1000, kv % 1000, k->older.max, k->older.before);
	return -ERANGE;
}

int knob_parse(const struct knob_ref *ref, const char *input, struct kval *out, char *why,
	       size_t whylen)
{
	char allowed[200];
	char buf[KVAL_MAX];
	int r;

	if (strlen(input) >= sizeof(buf)) {
		snprintf(why, whylen, "%s: invalid value: longer than %zu characters", ref->name,
			 sizeof(buf) - 1);
		return -ERANGE;
	}
	str_copy(buf, input, sizeof(buf));
	str_strip(buf);
	r = parse_typed(ref, buf, out);
	if (r == 0)
		return check_older(ref, out, why, whylen);
	if (!ref->knob) {
		snprintf(why, whylen, "%s: invalid value '%.64s': %s", ref->name, input,
			 r == -ERANGE ? "too long" : "must be printable text, not empty");
		return r;
	}
	knob_allowed(ref->knob, allowed, sizeof(allowed));
	snprintf(why, whylen, "%s: invalid value '%.64s': must be %s", ref->name, input, allowed);
	return r;
}

void knob_parse_live(const struct knob_ref *ref, const char *raw, struct kval *out)
{
	char buf[KVAL_MAX];

	str_copy(buf, raw, sizeof(buf));
	str_strip(buf);
	if (parse_typed(ref, buf, out) == 0)
		return;
	/* Not a value we would write: keep it as the kernel said it. */
	if (parse_string(buf, out) < 0)
		str_copy(out->text, buf, sizeof(out->text));
}

const char *knob_display(const struct knob_ref *ref, const struct kval *v, char *buf, size_t len)
{
	if (ref->knob && (ref->knob->flags & KNOB_F_READS_WORDS)) {
		if (strcmp(v->text, "1") == 0)
			return "true";
		if (strcmp(v->text, "0") == 0)
			return "false";
	}
	str_copy(buf, v->text, len);
	return buf;
}

int knob_read(const struct knob_ref *ref, struct kval *out)
{
	char raw[KVAL_MAX];
	ssize_t n = sysfs_read_file(ref->path, raw, sizeof(raw));
	const char *nl;

	if (n < 0)
		return (int)n;
	/*
	 * No kernel prints a NUL, nor a value of more than one line: reading up
	 * to either would hide a corrupt dump, and a second line would become a
	 * line of its own wherever the value goes (a profile, a revert file).
	 */
	nl = memchr(raw, '\n', (size_t)n);
	if (memchr(raw, '\0', (size_t)n) || (nl && nl != raw + n - 1))
		return -EBADMSG;
	knob_parse_live(ref, raw, out);
	return 0;
}

int knob_write(const struct knob_ref *ref, const struct kval *v, struct kval *readback)
{
	char line[KVAL_MAX + 1];
	size_t len = str_copy(line, v->text, sizeof(line) - 1);
	int r;

	/* A kval holds less than KVAL_MAX bytes; never write a cut value. */
	if (len >= sizeof(line) - 1)
		return -EINVAL;
	line[len++] = '\n';
	r = sysfs_write_file(ref->path, line, len);

	if (r < 0)
		return r;
	r = knob_read(ref, readback);
	if (r < 0)
		return r;
	return strcmp(readback->text, v->text) == 0 ? 0 : -EAGAIN;
}

/* "reclaim|unmap", "off", "+bit 8" for bits without a name. */
static void describe_bits(const struct knob *k, int64_t v, char *buf, size_t len)
{
	size_t n = 0;
	int64_t named = 0;

	if (v == 0) {
		snprintf(buf, len, "off");
		return;
	}
	buf[0] = '\0';
	for (const struct knob_word *w = k->words; w->name && n < len; w++) {
		named |= w->value;
		if (v & w->value)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", w->name);
	}
	if ((v & ~named) && n < len)
		snprintf(buf + n, len - n, "%sunknown bits 0x%" PRIx64, n ? "|" : "",
			 (uint64_t)(v & ~named));
}

/*
 * A help text that starts with a plural unit ("seconds between ..."), in
 * the singular, for a value of 1: "1 second between ...".  False for any
 * other start (a word not all lower-case letters, as MB/s).
 */
static bool singular(const char *help, char *buf, size_t len)
{
	size_t n = strspn(help, "abcdefghijklmnopqrstuvwxyz");

	if (n < 2 || help[n - 1] != 's' || help[n] != ' ')
		return false;
	snprintf(buf, len, "%.*s%s", (int)(n - 1), help, help + n);
	return true;
}

void knob_describe(const struct knob_ref *ref, const struct kval *v, char *buf, size_t len)
{
	const struct knob *k = ref->knob;
	int64_t num;

	if (!k) {
		snprintf(buf, len, "pass-through sysctl");
		return;
	}
	switch (k->type) {
	case KNOB_BOOL:
		snprintf(buf, len, "%s",
			 strcmp(v->text, "1") == 0   ? "on"
			 : strcmp(v->text, "0") == 0 ? "off"
						     : "not a valid value");
		return;
	case KNOB_BITMASK:
		if (parse_i64(v->text, 0, INT64_MAX, &num) == 0)
			describe_bits(k, num, buf, len);
		else
			snprintf(buf, len, "not a number");
		return;
	case KNOB_INT:
		if (parse_i64(v->text, k->min, k->max, &num) < 0) {
			snprintf(buf, len, "outside %" PRId64 "..%" PRId64, k->min, k->max);
			return;
		}
		if (num == 1 && singular(k->help, buf, len))
			return;
		break;
	case KNOB_ENUM:
	case KNOB_STRING:
		break;
	}
	snprintf(buf, len, "%s", k->flags & KNOB_F_DEPRECATED ? "deprecated: no effect" : "");
}

static bool path_exists(const char *path)
{
	int fd = sysfs_open(path, O_PATH);

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

void knob_ref_init(struct knob_ref *out, const struct knob *k)
{
	out->knob = k;
	str_copy(out->name, k->name, sizeof(out->name));
	/* The file another release names otherwise: whichever this kernel has. */
	str_copy(out->path,
		 k->alt_path && !path_exists(k->path) && path_exists(k->alt_path) ? k->alt_path
										  : k->path,
		 sizeof(out->path));
}

/* "...nodeN" with N replaced: the template's last character is the N. */
static void member_text(char *dst, size_t size, const char *tmpl, unsigned node)
{
	snprintf(dst, size, "%.*s%u", (int)strlen(tmpl) - 1, tmpl, node);
}

void knob_member(struct knob_ref *out, const struct knob *k, unsigned node)
{
	out->knob = k;
	member_text(out->name, sizeof(out->name), k->name, node);
	member_text(out->path, sizeof(out->path), k->path, node);
}

long knob_ref_node(const struct knob_ref *ref)
{
	const char *p;
	uint64_t v;

	if (!ref->knob || !(ref->knob->flags & KNOB_F_PER_NODE))
		return -1;
	p = ref->name + strlen(ref->knob->name) - 1;
	return parse_u64(p, UINT32_MAX, &v) == 0 ? (long)v : -1;
}
