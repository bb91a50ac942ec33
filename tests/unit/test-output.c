// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON layout (json-text.c) and documents of several tables (out.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json-text.h"
#include "out.h"
#include "tap.h"

/* json_pretty() of compact text, as a string. */
static char *pretty(const char *compact)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_pretty(compact, strlen(compact), f);
	fclose(f);
	return buf;
}

static char *compact(const char *text)
{
	char *s = strdup(text);

	if (!s)
		abort();
	s[json_compact(s, strlen(s))] = '\0';
	return s;
}

static void test_layout(void)
{
	/* What libsmartcols 2.38 prints for a two-row table. */
	static const char lsc[] =
		"{\n   \"knobs\": [\n      {\n         \"name\": \"a b\",\n         \"n\": 1\n"
		"      },{\n         \"name\": \"x\\\"}, {\",\n         \"n\": null\n      }\n   ]\n}\n";
	char *c = compact(lsc), *p;

	CHECK_STR(c, "{\"knobs\":[{\"name\":\"a b\",\"n\":1},{\"name\":\"x\\\"}, {\",\"n\":null}]}",
		  "compact drops layout whitespace, never a string's");
	p = pretty(c);
	CHECK_STR(p, lsc, "pretty gives libsmartcols's own layout back");
	free(p);
	free(c);
	c = compact("{ \"values\": [\n null\n ], \"s\": \"[null]\", \"e\": [\n\n   ]}");
	CHECK_STR(c, "{\"values\":[],\"s\":\"[null]\",\"e\":[]}",
		  "an array of just null (an empty array column) becomes [], a string stays");
	p = pretty(c);
	CHECK_STR(p, "{\n   \"values\": [],\n   \"s\": \"[null]\",\n   \"e\": []\n}\n",
		  "empty arrays stay on one line");
	free(p);
	free(c);
	p = pretty("{\"a\":{\"b\":[\"x\",\"y\"]},\"t\":true}");
	CHECK_STR(
		p,
		"{\n   \"a\": {\n      \"b\": [\n         \"x\",\n         \"y\"\n      ]\n   },\n"
		"   \"t\": true\n}\n",
		"nested objects and arrays");
	free(p);
}

static void test_value_end(void)
{
	const char *s = "\"k\\\"}\":[{\"a\":\"]\"},2],12,true}";
	size_t len = strlen(s), from, to;

	CHECK(json_value_end(s, len, 0) == 6, "a string with an escaped quote and a brace");
	CHECK(json_value_end(s, len, 7) == 20, "an array with a string holding a bracket");
	CHECK(json_value_end(s, len, 21) == 23, "a number");
	CHECK(json_value_end(s, len, 24) == 28, "a literal before a closing brace");
	CHECK(json_value_end("[1,2", 4, 0) == 0, "an unterminated array");
	CHECK(json_value_end("\"ab", 3, 0) == 0, "an unterminated string");
	CHECK(json_object_inner("{\"a\":1}", 7, &from, &to) == 0 && from == 1 && to == 6,
	      "an object's members");
	CHECK(json_object_inner("{\"a\":1}{}", 9, &from, &to) < 0, "two objects are not one");
	CHECK(json_object_inner("[1]", 3, &from, &to) < 0, "an array is not an object");
}

/* A JSON table named name with columns a (string) and n (number), rows first... */
static struct out_table *table_at(const char *name, size_t rows, size_t first)
{
	struct out_table *t;
	char why[256];

	if (out_table_new(&t, name, OUT_JSON, why, sizeof(why)) < 0)
		return NULL;
	out_table_add_column(t, "A", 0, 0);
	out_table_add_column(t, "N", 0, OUT_COL_NUMBER);
	for (size_t i = first; i < first + rows; i++) {
		struct out_row *r = out_table_add_row(t);

		out_row_setf(r, 0, "row \"%zu\"", i);
		out_row_setf(r, 1, "%zu", i);
	}
	return t;
}

static struct out_table *table(const char *name, size_t rows)
{
	return table_at(name, rows, 0);
}

static char *doc_text(struct out_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	out_doc_print(d, f);
	fclose(f);
	return buf;
}

static void test_doc(void)
{
	struct out_table *fields = table("x", 1), *nodes = table("nodes", 2),
			 *total = table("total", 1), *none = table("profile", 0),
			 *two = table("two", 2), *arr;
	struct out_doc *d;
	char *text, why[256];

	if (!fields || !nodes || !total || !none || !two) {
		CHECK(0, "libsmartcols loads");
		return;
	}
	CHECK(out_doc_new(&d, OUT_ONELINE) == 0, "a document");
	CHECK(out_doc_add(d, fields, OUT_PART_FIELDS) == 0, "fields of a one-row table");
	CHECK(out_doc_add(d, nodes, OUT_PART_ARRAY) == 0, "a table as an array");
	CHECK(out_doc_add(d, total, OUT_PART_OBJECT) == 0, "a one-row table as an object");
	CHECK(out_doc_add(d, none, OUT_PART_OBJECT) == 0, "no row: null");
	CHECK(out_doc_add(d, two, OUT_PART_OBJECT) < 0, "two rows are not one object");
	text = doc_text(d);
	CHECK_STR(text,
		  "{\"a\":\"row \\\"0\\\"\",\"n\":0,\"nodes\":[{\"a\":\"row \\\"0\\\"\",\"n\":0},"
		  "{\"a\":\"row \\\"1\\\"\",\"n\":1}],\"total\":{\"a\":\"row \\\"0\\\"\",\"n\":0},"
		  "\"profile\":null}\n",
		  "one line, every value written by libsmartcols");
	free(text);
	out_doc_free(d);
	CHECK(out_doc_new(&d, 0) == 0 && out_doc_add(d, total, OUT_PART_OBJECT) == 0, "pretty");
	text = doc_text(d);
	CHECK_STR(text,
		  "{\n   \"total\": {\n      \"a\": \"row \\\"0\\\"\",\n      \"n\": 0\n   }\n}\n",
		  "laid out like a table");
	free(text);
	out_doc_free(d);
	CHECK(out_table_new(&arr, "choices", OUT_JSON, why, sizeof(why)) == 0, "an array column");
	out_table_add_column(arr, "VALUES", 0, OUT_COL_ARRAY);
	out_table_add_column(arr, "NONE", 0, OUT_COL_ARRAY);
	out_row_set(out_table_add_row(arr), 0, "0\n1\non");
	out_doc_new(&d, OUT_ONELINE);
	out_doc_add(d, arr, OUT_PART_ARRAY);
	text = doc_text(d);
	CHECK_STR(text, "{\"choices\":[{\"values\":[\"0\",\"1\",\"on\"],\"none\":[]}]}\n",
		  "lines of a cell are array elements; no text is an empty array");
	free(text);
	out_doc_free(d);
	out_table_free(arr);
	out_table_free(fields);
	out_table_free(nodes);
	out_table_free(total);
	out_table_free(none);
	out_table_free(two);
}

/*
 * A document streamed a table at a time (stat --cgroup -J of 1000 cgroups
 * on 1152 nodes): the same text as the one table of all the rows, in both
 * layouts, and without any row.
 */
static void test_stream(void)
{
	static const size_t parts[][3] = { { 2, 0, 3 }, { 0, 0, 0 }, { 5, 0, 0 } };

	for (int oneline = 0; oneline < 2; oneline++)
		for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
			size_t all = parts[p][0] + parts[p][1] + parts[p][2], len = 0;
			struct out_table *fields = table("x", 1), *whole = table("rows", all);
			struct out_doc *d = NULL, *s = NULL;
			char *want, *got = NULL;
			FILE *f = open_memstream(&got, &len);
			int r = 0;

			if (!fields || !whole || !f ||
			    out_doc_new(&d, oneline ? OUT_ONELINE : 0) < 0 ||
			    out_doc_new(&s, oneline ? OUT_ONELINE : 0) < 0) {
				CHECK(0, "libsmartcols loads");
				return;
			}
			out_doc_add(d, fields, OUT_PART_FIELDS);
			out_doc_add(d, whole, OUT_PART_ARRAY);
			want = doc_text(d);
			out_doc_add(s, fields, OUT_PART_FIELDS);
			for (size_t k = 0, at = 0; k < 3 && r == 0; at += parts[p][k++]) {
				struct out_table *t = table_at("rows", parts[p][k], at);

				r = t ? out_doc_stream_rows(s, t, f) : -ENOMEM;
				out_table_free(t);
			}
			if (r == 0)
				r = out_doc_stream_end(s, f);
			fclose(f);
			CHECK(r == 0, "streamed %zu+%zu+%zu rows%s: no error", parts[p][0],
			      parts[p][1], parts[p][2], oneline ? " on one line" : "");
			CHECK_STR(got, want, "and the text of one table of them all");
			free(got);
			free(want);
			out_doc_free(d);
			out_doc_free(s);
			out_table_free(fields);
			out_table_free(whole);
		}
}

/* Tables without columns (stat -J -o NODE has a total of none): members all the same. */
static void test_no_columns(void)
{
	struct out_table *one = NULL, *two = NULL;
	struct out_doc *d = NULL;
	char w[256], *text;

	if (out_table_new(&one, "total", OUT_JSON, w, sizeof(w)) < 0 ||
	    out_table_new(&two, "nodes", OUT_JSON, w, sizeof(w)) < 0 ||
	    out_doc_new(&d, OUT_ONELINE) < 0) {
		CHECK(0, "tables: %s", w);
		return;
	}
	out_table_add_row(one);
	out_table_add_row(two);
	out_table_add_row(two);
	CHECK(out_doc_add(d, one, OUT_PART_FIELDS) == 0 &&
		      out_doc_add(d, one, OUT_PART_OBJECT) == 0 &&
		      out_doc_add(d, two, OUT_PART_ARRAY) == 0,
	      "a table without columns is a member all the same");
	CHECK(out_doc_add(d, two, OUT_PART_OBJECT) < 0, "two rows are still not one object");
	text = doc_text(d);
	CHECK_STR(text, "{\"total\":{},\"nodes\":[{},{}]}\n", "an empty object, empty objects");
	free(text);
	out_doc_free(d);
	out_table_free(one);
	out_table_free(two);
}

/* Bytes that are not UTF-8 and U+2028 in a cell: JSON that any parser takes. */
static void test_utf8(void)
{
	struct out_table *t = NULL;
	struct out_row *row;
	char why[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || out_table_new(&t, "x", OUT_JSON | OUT_ONELINE, why, sizeof(why)) < 0) {
		CHECK(0, "a JSON table: %s", why);
		return;
	}
	out_table_add_column(t, "name", 0, 0);
	row = out_table_add_row(t);
	out_row_set(row, 0, "a\xff\xc3(\x01\xe2\x80\xa8\xe2\x80\x94\\z");
	CHECK(out_table_print(t, f) == 0, "printed");
	fclose(f);
	/* 0xff and the cut C3 as \xNN, SOH by libsmartcols, U+2028 as \u2028, U+2014 as it is. */
	CHECK_STR(buf, "{\"x\":[{\"name\":\"a\\\\xff\\\\xc3(\\u0001\\u2028\xe2\x80\x94\\\\z\"}]}\n",
		  "what is not UTF-8 is \\xNN, U+2028 \\u2028");
	free(buf);
	out_table_free(t);
}

/*
 * A text table escapes its cells as every text output does: a systemd name's
 * own "\x2d" is shown as it is (libsmartcols wrote \x5cx2d), control
 * characters and every byte outside ASCII as \xNN (columns in bytes).
 */
static void test_text_cells(void)
{
	struct out_table *t = NULL;
	struct out_row *row;
	char why[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || out_table_new(&t, "x", OUT_NOHEADINGS, why, sizeof(why)) < 0) {
		CHECK(0, "a text table: %s", why);
		return;
	}
	out_table_add_column(t, "NAME", 0, 0);
	out_table_add_column(t, "N", 0, OUT_COL_RIGHT);
	row = out_table_add_row(t);
	out_row_set(row, 0, "dev-disk-by\\x2duuid.swap");
	out_row_setf(row, 1, "%d", 1);
	row = out_table_add_row(t);
	out_row_setf(row, 0, "caf\xc3\xa9\x1b[2J");
	out_row_set(row, 1, "22");
	CHECK(out_table_print(t, f) == 0, "printed");
	fclose(f);
	CHECK_STR(buf,
		  "dev-disk-by\\x2duuid.swap  1\n"
		  "caf\\xc3\\xa9\\x1b[2J       22\n",
		  "a systemd name as it is, the rest as \\xNN, columns aligned");
	free(buf);
	out_table_free(t);
}

int main(void)
{
	test_layout();
	test_value_end();
	test_doc();
	test_stream();
	test_no_columns();
	test_utf8();
	test_text_cells();
	return tap_done();
}
