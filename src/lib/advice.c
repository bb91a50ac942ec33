// SPDX-License-Identifier: GPL-2.0-or-later
/* advise: the list of advice the rules fill, one entry at a time. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "array.h"
#include "value.h"
#include "why.h"

const char *advice_kind_name(enum advice_kind k)
{
	static const char *const names[] = {
		[ADV_ADVICE] = "advice",
		[ADV_NOTE] = "note",
		[ADV_NO_DATA] = "insufficient-data",
		[ADV_OK] = "ok",
	};
	return names[k];
}

struct advice *advice_new(struct advice_list *out, const struct advise_rule *r,
			  enum advice_kind kind)
{
	struct advice *a;

	if (array_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v)) < 0)
		return NULL;
	a = &out->v[out->n++];
	memset(a, 0, sizeof(*a));
	a->rule = r;
	a->kind = kind;
	return a;
}

void advice_set_knob(struct advice *a, const struct af_knob *k, const char *value)
{
	char why[WHY_MAX];

	str_copy(a->knob, k->ref.name, sizeof(a->knob));
	if (k->err == 0)
		a->current = k->v;
	a->has_value = value && knob_parse(&k->ref, value, &a->value, why, sizeof(why)) == 0;
}

/*
 * vsnprintf() into buf[len]; a text too long for it ends at its last whole
 * word, with "...": a cut word reads as another word (or another path).
 */
static void put_words(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);
	size_t cut;

	if (n < 0 || (size_t)n < len || len < 8)
		return;
	cut = len - 4; /* room for "..." and the NUL */
	while (cut > 0 && buf[cut] != ' ')
		cut--;
	if (cut == 0) /* one word fills it all: cut between characters */
		for (cut = len - 4; cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80;)
			cut--;
	memcpy(buf + cut, "...", 4);
}

void advice_text(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_words(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
}

void advice_evidence(struct advice *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nevidence == ADVICE_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	put_words(a->evidence[a->nevidence++], ADVICE_LINE_MAX, fmt, ap);
	va_end(ap);
}

bool advice_judged(const struct advice_list *out, const char *knob)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i].knob, knob) == 0)
			return true;
	return false;
}

void advice_list_free(struct advice_list *l)
{
	free(l->v);
	*l = (struct advice_list){ 0 };
}

size_t advice_count(const struct advice_list *l, enum advice_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].kind == kind;
	return n;
}
