// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "json-tree.h"

struct rd {
	const char *p, *start, *end;
	char *why;
	size_t whylen;
	int err;
};

static int fail(struct rd *r, const char *what)
{
	if (!r->err) {
		snprintf(r->why, r->whylen, "offset %zu: %s", (size_t)(r->p - r->start), what);
		r->err = -EBADMSG;
	}
	return r->err;
}

static void ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool lit(struct rd *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return false;
	r->p += n;
	return true;
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* The length of a valid UTF-8 sequence at p (at most n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len = p[0] < 0xc2 ? 0 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : p[0] < 0xf5 ? 4 : 0;
	uint32_t c;

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	c = len == 2 ? (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f)
	    : len == 3
		    ? (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f)
		    : (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
			      (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

static int hex4(struct rd *r, uint32_t *v)
{
	*v = 0;
	if (r->end - r->p < 4)
		return fail(r, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *r->p++;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return fail(r, "bad \\u escape");
	}
	return 0;
}

/* A string at r->p (after its '"'), decoded into a new buffer. */
static int string(struct rd *r, char **out, size_t *outlen)
{
	const char *q = r->p;
	size_t cap = 1, n = 0;
	char *s;

	while (q < r->end && *q != '"')
		q += *q == '\\' && q + 1 < r->end ? 2 : 1;
	if (q >= r->end)
		return fail(r, "unterminated string");
	/* Every input byte is at most 3 output bytes (U+FFFD), escapes less. */
	cap += (size_t)(q - r->p) * 3;
	if (!(s = malloc(cap)))
		return r->err = -ENOMEM;
	while (*r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		uint32_t u, lo;
		size_t l;

		if (c < 0x20) {
			free(s);
			return fail(r, "control character in a string");
		}
		if (c != '\\') {
			l = c < 0x80 ? 1
				     : utf8_len((const unsigned char *)r->p, (size_t)(q - r->p));
			if (!l) {
				n += put_utf8(s + n, 0xfffd);
				r->p++;
				continue;
			}
			memcpy(s + n, r->p, l);
			n += l;
			r->p += l;
			continue;
		}
		r->p++;
		switch (*r->p++) {
		case '"':
			s[n++] = '"';
			break;
		case '\\':
			s[n++] = '\\';
			break;
		case '/':
			s[n++] = '/';
			break;
		case 'b':
			s[n++] = '\b';
			break;
		case 'f':
			s[n++] = '\f';
			break;
		case 'n':
			s[n++] = '\n';
			break;
		case 'r':
			s[n++] = '\r';
			break;
		case 't':
			s[n++] = '\t';
			break;
		case 'u':
			if (hex4(r, &u) < 0) {
				free(s);
				return r->err;
			}
			if (u >= 0xd800 && u < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' &&
			    r->p[1] == 'u') {
				const char *back = r->p;

				r->p += 2;
				if (hex4(r, &lo) < 0) {
					free(s);
					return r->err;
				}
				if (lo >= 0xdc00 && lo < 0xe000)
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				else {
					u = 0xfffd;
					r->p = back;
				}
			} else if (u >= 0xd800 && u < 0xe000)
				u = 0xfffd;
			n += put_utf8(s + n, u);
			break;
		default:
			free(s);
			return fail(r, "bad escape in a string");
		}
	}
	r->p++;
	s[n] = '\0';
	*out = s;
	*outlen = n;
	return 0;
}

static int value(struct rd *r, struct json_node *v, unsigned depth);

static int member(struct rd *r, struct json_node *v, size_t cap[2], bool object, unsigned depth)
{
	if (array_grow(&v->v, &cap[0], v->n + 1, sizeof(*v->v)) < 0 ||
	    (object && array_grow(&v->keys, &cap[1], v->n + 1, sizeof(*v->keys)) < 0))
		return r->err = -ENOMEM;
	v->v[v->n] = (struct json_node){ 0 };
	if (object)
		v->keys[v->n] = NULL;
	/* Counted before its name is read: a failure after it frees the name too. */
	v->n++;
	if (object) {
		size_t klen;

		ws(r);
		if (r->p >= r->end || *r->p != '"')
			return fail(r, "expected a member name");
		r->p++;
		if (string(r, &v->keys[v->n - 1], &klen) < 0)
			return r->err;
		ws(r);
		if (r->p >= r->end || *r->p++ != ':')
			return fail(r, "expected ':'");
	}
	return value(r, &v->v[v->n - 1], depth + 1);
}

static int container(struct rd *r, struct json_node *v, char close, unsigned depth)
{
	size_t cap[2] = { 0, 0 };

	v->type = close == '}' ? JSON_OBJECT : JSON_ARRAY;
	ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		if (member(r, v, cap, close == '}', depth) < 0)
			return r->err;
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 0;
		}
		return fail(r, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int number(struct rd *r, struct json_node *v)
{
	const char *b = r->p;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;
	else if (r->p < r->end && *r->p >= '1' && *r->p <= '9')
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	else
		return fail(r, "expected a value");
	if (r->p < r->end && *r->p == '.') {
		if (++r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "bad number");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "bad number");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	v->type = JSON_NUMBER;
	v->len = (size_t)(r->p - b);
	if (!(v->s = strndup(b, v->len)))
		return r->err = -ENOMEM;
	return 0;
}

static int value(struct rd *r, struct json_node *v, unsigned depth)
{
	if (depth > JSON_TREE_DEPTH_MAX)
		return fail(r, "nested too deep");
	ws(r);
	if (r->p >= r->end)
		return fail(r, "unexpected end");
	switch (*r->p) {
	case '{':
		r->p++;
		return container(r, v, '}', depth);
	case '[':
		r->p++;
		return container(r, v, ']', depth);
	case '"':
		r->p++;
		v->type = JSON_STRING;
		return string(r, &v->s, &v->len);
	default:
		break;
	}
	if (lit(r, "null"))
		v->type = JSON_NULL;
	else if (lit(r, "true"))
		*v = (struct json_node){ .type = JSON_BOOL, .b = true };
	else if (lit(r, "false"))
		v->type = JSON_BOOL;
	else
		return number(r, v);
	return 0;
}

int json_tree_parse(const char *buf, size_t len, struct json_node *out, char *why, size_t whylen)
{
	struct rd r = { .p = buf, .start = buf, .end = buf + len, .why = why, .whylen = whylen };

	*out = (struct json_node){ 0 };
	if (value(&r, out, 0) == 0) {
		ws(&r);
		if (r.p != r.end)
			fail(&r, "text after the value");
	}
	if (r.err == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (r.err)
		json_tree_free(out);
	return r.err;
}

void json_tree_free(struct json_node *n)
{
	for (size_t i = 0; i < n->n; i++) {
		json_tree_free(&n->v[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->keys);
	free(n->v);
	free(n->s);
	*n = (struct json_node){ 0 };
}

const struct json_node *json_tree_get(const struct json_node *n, const char *key)
{
	if (n->type != JSON_OBJECT)
		return NULL;
	for (size_t i = n->n; i-- > 0;)
		if (strcasecmp(n->keys[i], key) == 0)
			return &n->v[i];
	return NULL;
}
