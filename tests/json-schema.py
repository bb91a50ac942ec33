#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check numastatctl's -J output against the schemas of numastatctl(8).

The schemas live in one place: the JSON OUTPUT section of
man/numastatctl.8.scd, each "## part" holding blocks marked "; json: schema"
or "; json: example".  A schema is JSON whose string values name types
(string, number, boolean, null; alternatives joined by "|"; any other word is
a literal), [X] is an array of X, the key "*" any further key, and a key
ending in "?" one that appears only in some cases (-o, apply --check).

  json-schema.py PAGE --examples        every example matches its part's schema
  json-schema.py PAGE PART [--lines] [--partial] < OUTPUT
        OUTPUT (one document, or one per line) matches one of PART's schemas;
        --partial lets objects lack keys (-o chose fewer columns)
"""
import json
import re
import sys

TYPES = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def parts(page):
    """{part title: {"schema": [...], "example": [...]}} from the page."""
    text = open(page, encoding="utf-8").read()
    sec = re.search(r"^# JSON OUTPUT\n(.*?)^# ", text, re.S | re.M)
    if not sec:
        sys.exit(f"{page}: no JSON OUTPUT section")
    found = {}
    for block in re.split(r"(?m)^## ", sec.group(1))[1:]:
        title = block.split("\n", 1)[0].strip()
        kinds = found.setdefault(title, {"schema": [], "example": []})
        for kind, body in re.findall(r"(?m)^; json: (schema|example)\n```\n(.*?)\n```", block, re.S):
            kinds[kind].append(json.loads(body))
        if not kinds["schema"] or not kinds["example"]:
            sys.exit(f"{page}: part '{title}' needs a schema and an example")
    return found


def check(value, schema, path, partial):
    """The first mismatch as 'path: problem', or None."""
    if isinstance(schema, str):
        for alt in schema.split("|"):
            if TYPES[alt](value) if alt in TYPES else value == alt:
                return None
        return f"{path}: {json.dumps(value)} is not {schema}"
    if isinstance(schema, list):
        if not isinstance(value, list):
            return f"{path}: not an array"
        for i, v in enumerate(value):
            bad = check(v, schema[0], f"{path}[{i}]", partial)
            if bad:
                return bad
        return None
    # {"|": "null", ...}: the object, or null.
    if value is None and schema.get("|") == "null":
        return None
    if not isinstance(value, dict):
        return f"{path}: not an object"
    keys = {k.rstrip("?"): t for k, t in schema.items() if k != "|"}
    if not partial:
        for k in schema:
            if k not in ("*", "|") and not k.endswith("?") and k not in value:
                return f"{path}: missing key '{k}'"
    for k, v in value.items():
        if k not in keys and "*" not in keys:
            return f"{path}: unknown key '{k}'"
        bad = check(v, keys.get(k, keys.get("*")), f"{path}.{k}", partial)
        if bad:
            return bad
    return None


def matches(doc, schemas, partial):
    """None when doc matches one of schemas, else the problems."""
    problems = [check(doc, s, "$", partial) for s in schemas]
    return None if None in problems else "; ".join(problems)


def main(argv):
    if len(argv) == 3 and argv[2] == "--examples":
        failed = 0
        for title, kinds in parts(argv[1]).items():
            for ex in kinds["example"]:
                bad = matches(ex, kinds["schema"], False)
                if bad:
                    print(f"{title}: example: {bad}")
                    failed = 1
        return failed
    if len(argv) < 3:
        sys.exit(__doc__)
    known = parts(argv[1])
    title = argv[2]
    if title not in known:
        sys.exit(f"no part '{title}' (there are: {', '.join(known)})")
    text = sys.stdin.read()
    try:
        docs = [json.loads(l) for l in text.splitlines()] if "--lines" in argv else [json.loads(text)]
    except json.JSONDecodeError as e:
        print(f"{title}: not JSON: {e}")
        return 1
    if not docs:
        print(f"{title}: no output")
        return 1
    for i, doc in enumerate(docs):
        bad = matches(doc, known[title]["schema"], "--partial" in argv)
        if bad:
            print(f"{title}: document {i + 1}: {bad}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
