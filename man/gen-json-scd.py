#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-json-scd.py DIR SCHEMA...: the parts of numastatctl(8)'s JSON OUTPUT
section, in scdoc, from the JSON Schemas (schemas/meson.build lists them in
the section's order): for each, its title as the heading, its description,
where it is installed (DIR, the schemas' directory) and its examples, so
the page cannot describe another document than the schema checks."""
import json
import os
import sys

# The page shows examples 12 columns in: their lines end by column 80.
WIDTH = 68


def fmt(v, indent=0, col=None):
    """Compact JSON: a value on one line when it fits (starting at column
    col), else one member a line, indented by indent."""
    one = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    if (indent if col is None else col) + len(one) <= WIDTH or \
            not isinstance(v, (dict, list)) or not v:
        return one
    pad = " " * (indent + 2)
    if isinstance(v, dict):
        items = []
        for k, x in v.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(pad + key + fmt(x, indent + 2, indent + 2 + len(key)))
        return "{\n" + pack(items, pad) + "\n" + " " * indent + "}"
    items = [pad + fmt(x, indent + 2) for x in v]
    return "[\n" + pack(items, pad) + "\n" + " " * indent + "]"


def pack(items, pad):
    """Members of one line each joined on lines as wide as WIDTH allows."""
    lines = []
    for it in items:
        if lines and "\n" not in it and "\n" not in lines[-1] and \
                len(lines[-1]) + 2 + len(it) - len(pad) <= WIDTH:
            lines[-1] += ", " + it[len(pad):]
        else:
            lines.append(it)
    return ",\n".join(lines)


def main(where, paths):
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        name = os.path.basename(path)
        out.append(f"## {s['title']}\n")
        if s.get("description"):
            out.append(s["description"] + "\n")
        out.append(f"Schema: _{where}/{name}_.\n")
        for ex in s.get("examples", []):
            out.append("```\n" + fmt(ex) + "\n```\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
