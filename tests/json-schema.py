#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check numastatctl's -J output against its JSON Schemas (draft 2020-12).

The schemas are the files schemas/*.json of the source tree, one per -J
document, each with its "title" (the part of numastatctl(8)'s JSON OUTPUT
that prints it, e.g. "status", "set, apply, revert", "stat --pid") and its
"examples".  numastatctl(8)'s JSON OUTPUT section is generated from them.

  json-schema.py [SCHEMAS] --examples
        every schema is a valid draft 2020-12 schema, its examples match it
  json-schema.py [SCHEMAS] PART [--lines] [--partial] < OUTPUT
        OUTPUT (one document, or one per line) matches PART's schema;
        --partial lets objects lack keys (-o chose fewer columns)
  json-schema.py [SCHEMAS] --runs DIR
        every run recorded in DIR (N.argv: the arguments, NUL-separated;
        N.out: what it printed) matches the schema of its command: the
        parts whose title names that command (tests/cli/lib.sh records
        every -J run of a test script there)

SCHEMAS is the directory of the schemas, or (as before the schemas had
files of their own) the man page, which stands for schemas/ beside man/;
left out, schemas/ of the tree this script is in.
"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("python3-jsonschema is not installed")

HERE = os.path.dirname(os.path.abspath(__file__))
# Global options that take a value as the next argument (main.c).
VALUED = {"-S", "--sysroot", "-c", "--config", "--state-dir"}


def load(where):
    """{title: schema} from the directory where."""
    found = {}
    for path in sorted(glob.glob(os.path.join(where, "*.json"))):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        title = schema.get("title")
        if not title:
            sys.exit(f"{path}: no title")
        if title in found:
            sys.exit(f"{path}: title '{title}' twice")
        schema["x-file"] = os.path.basename(path)
        found[title] = schema
    if not found:
        sys.exit(f"{where}: no schemas")
    return found


def lenient(schema):
    """The schema with no key required anywhere (-o chose some columns)."""
    s = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            node.pop("required", None)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(s)
    return s


def problem(doc, schema):
    """None when doc matches schema, else the first problem, with its path."""
    v = jsonschema.Draft202012Validator(schema)
    err = jsonschema.exceptions.best_match(v.iter_errors(doc))
    if err is None:
        return None
    return f"{err.json_path}: {err.message}"


def documents(text, lines):
    """The documents of an output: one, or (interval mode) one per line."""
    if not lines:
        try:
            return [json.loads(text)]
        except json.JSONDecodeError:
            pass
    return [json.loads(l) for l in text.splitlines() if l.strip()]


def command_of(argv):
    """The command word of numastatctl's arguments (status when none)."""
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            break
        if a in VALUED:
            i += 2
            continue
        if not a.startswith("-"):
            return a
        i += 1
    return "status"


def commands_of(title):
    """The commands a part's title names: "set, apply, revert" -> 3."""
    return {p.split()[0] for p in title.split(", ") if p and not p.startswith("-")}


def partial(argv):
    """-o picks columns, -N (--names) leaves only name, -n (--values) only value."""
    return any(a in ("-o", "--output", "-N", "--names", "-n", "--values") or
               a.startswith("--output=") or
               (a.startswith("-") and not a.startswith("--") and ("o" in a or "N" in a))
               for a in argv)


def check_runs(known, where):
    failed = 0
    runs = sorted(glob.glob(os.path.join(where, "*.argv")),
                  key=lambda p: int(os.path.basename(p).split(".")[0]))
    for argv_path in runs:
        with open(argv_path, "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
        with open(argv_path[:-5] + ".out", encoding="utf-8", errors="replace") as f:
            text = f.read()
        cmd = command_of(argv)
        parts = [s for t, s in known.items() if cmd in commands_of(t)]
        shown = "numastatctl " + " ".join(argv)
        if not parts:
            print(f"{shown}: no schema names the command '{cmd}'")
            failed = 1
            continue
        try:
            docs = documents(text, False)
        except json.JSONDecodeError as e:
            print(f"{shown}: not JSON: {e}")
            failed = 1
            continue
        schema = {"anyOf": [lenient(p) if partial(argv) else p for p in parts]}
        for i, doc in enumerate(docs):
            bad = [problem(doc, p) for p in schema["anyOf"]]
            if None not in bad:
                print(f"{shown}: document {i + 1} matches none of "
                      f"{', '.join(p['x-file'] for p in parts)}: " + "; ".join(bad))
                failed = 1
                break
    return failed


def main(argv):
    args = argv[1:]
    where = os.path.join(HERE, "..", "schemas")
    if args and not args[0].startswith("-") and (os.path.isdir(args[0]) or args[0].endswith(".scd")):
        first = args.pop(0)
        where = first if os.path.isdir(first) else os.path.join(os.path.dirname(first), "..", "schemas")
    if not args:
        sys.exit(__doc__)
    known = load(where)
    if args[0] == "--examples":
        failed = 0
        for title, schema in known.items():
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.exceptions.SchemaError as e:
                print(f"{schema['x-file']}: not a draft 2020-12 schema: {e.message}")
                failed = 1
                continue
            if not schema.get("examples"):
                print(f"{schema['x-file']}: no examples")
                failed = 1
            for ex in schema.get("examples", []):
                bad = problem(ex, schema)
                if bad:
                    print(f"{schema['x-file']}: example: {bad}")
                    failed = 1
        return failed
    if args[0] == "--runs":
        return check_runs(known, args[1])
    title = args[0]
    if title not in known:
        sys.exit(f"no part '{title}' (there are: {', '.join(known)})")
    schema = lenient(known[title]) if "--partial" in args else known[title]
    text = sys.stdin.read()
    try:
        docs = documents(text, "--lines" in args)
    except json.JSONDecodeError as e:
        print(f"{title}: not JSON: {e}")
        return 1
    if not docs:
        print(f"{title}: no output")
        return 1
    for i, doc in enumerate(docs):
        bad = problem(doc, schema)
        if bad:
            print(f"{title}: document {i + 1}: {bad}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
