#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The layering of src/, checked on the include lines: TAP on stdout.

- src/shared/ includes only shared/, src/lib/ shared/ and lib/, src/cmd/
  all three (the build's include directories enforce the same); lib/ never
  includes the message functions (log.h), except where libnuma itself
  calls back into us (LOG_IN_LIB below);
- each header says which files implement it ("Implemented by a.c, b.c."),
  and those files exist beside it;
- no include cycle between modules (a header with the files implementing it);
- no unused include: a file includes a project header only if it names
  something the header declares;
- the file name predicts what it exports: every non-static function or
  variable of foo-bar.c is foo_bar or starts with foo_bar_ or foo_ (their
  final "s" may go: knobs.c exports knob_*), save the names
  others call us by (EXPORT_EXEMPT).

usage: test-house.py SRCDIR
"""
import os
import re
import sys

LAYERS = ("shared", "lib", "cmd")
# libnuma calls numa_warn() itself, with no caller to hand the text to.
LOG_IN_LIB = {"lib/numalib.c"}
GENERATED = {"config.h"}  # by meson, in the build directory
# Names fixed from outside: the C entry point, and the hooks libnuma calls
# instead of its own (numa(3): "numa_error", "numa_warn").
EXPORT_EXEMPT = {"cmd/main.c": {"main"}, "lib/numalib.c": {"numa_error", "numa_warn"}}
# Words a declaration's pattern can catch that name nothing of the header.
C_WORDS = set("""char short int long unsigned signed float double void bool const
volatile static extern inline struct union enum return sizeof if while for switch
size_t ssize_t uint8_t uint16_t uint32_t uint64_t int64_t""".split())

n = 0
failed = 0


def tap(ok, name, detail=()):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    for line in detail:
        print(f"#   {line}")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def load(src):
    files = {}
    for layer in LAYERS:
        for name in sorted(os.listdir(os.path.join(src, layer))):
            if name.endswith((".c", ".h")):
                with open(os.path.join(src, layer, name)) as f:
                    files[f"{layer}/{name}"] = f.read()
    return files


def includes(text):
    return re.findall(r'^#include "([^"]+)"', text, re.M)


def declared(text):
    """The names a header declares: functions, types, constants, macros, variables."""
    code = strip_comments(text)
    names = set(re.findall(r"^#define\s+(\w+)", code, re.M))
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(\w+)\s*\{", code))
    names |= set(re.findall(r"\btypedef\b[^;]*?\b(\w+)\s*;", code))
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", code, re.S):
        names |= set(re.findall(r"^\s*(\w+)\s*(?:=[^,]*)?,?", body, re.M))
    names |= set(re.findall(r"\b(\w+)\s*\(", code)) - {"sizeof", "__attribute__", "format"}
    # Members (".name", "->name"): reaching into a struct needs its definition.
    for body in re.findall(r"\b(?:struct|union)\b[^{;]*\{(.*?)\}\s*\w*\s*;", code, re.S):
        names |= {"." + m for m in re.findall(r"(\w+)\s*(?:\[[^\]]*\])*\s*(?::\s*\d+)?\s*;", body)}
    names |= set(re.findall(r"\bextern\b[^;(]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*[;,]", code))
    for decl in re.findall(r"\bextern\b([^;(]*);", code):
        names |= set(re.findall(r"\b(\w+)\s*(?:\[[^\]]*\])?\s*(?:,|$)", decl))
    return {x for x in names if x and not x[0].isdigit() and x not in C_WORDS}


def resolve(files, origin, header):
    """The path of a quoted include as the build resolves it, or None."""
    layer = origin.split("/")[0]
    for cand in LAYERS[: LAYERS.index(layer) + 1][::-1]:
        if f"{cand}/{header}" in files:
            return f"{cand}/{header}"
    for cand in LAYERS:
        if f"{cand}/{header}" in files:
            return f"{cand}/{header}"
    return None


def check_layers(files):
    """Includes that go up a layer, and lib/ files that print."""
    wrong = []
    for path, text in files.items():
        rank = LAYERS.index(path.split("/")[0])
        for h in includes(text):
            if h in GENERATED:
                continue
            target = resolve(files, path, h)
            if target is None:
                wrong.append(f"{path}: includes {h}, which is in no layer")
            elif LAYERS.index(target.split("/")[0]) > rank:
                wrong.append(f"{path}: includes {target}, a layer above it")
            elif target == "shared/log.h" and path.startswith("lib/") and path not in LOG_IN_LIB:
                wrong.append(f"{path}: lib/ reports errors to its caller, not through log.h")
    return wrong


def implementers(files):
    """header -> the files its "Implemented by" sentence names; the problems."""
    impl, wrong = {}, []
    for path, text in files.items():
        if not path.endswith(".h"):
            continue
        m = re.search(r"Implemented\s+\*?\s*by\s+\*?\s*((?:[\w-]+\.c(?:,\s*\*?\s*|\s+\*?\s*and\s+)?)+)", text)
        if not m:
            if re.search(r"\w+\s*\([^)]*\)\s*;", strip_comments(text)):
                wrong.append(f"{path}: declares functions but does not say which files implement it")
            impl[path] = []
            continue
        names = re.findall(r"[\w.-]+\.c\b", m.group(1))
        layer = path.split("/")[0]
        for c in names:
            if f"{layer}/{c}" not in files:
                wrong.append(f"{path}: names {c}, which is not in {layer}/")
        impl[path] = [f"{layer}/{c}" for c in names if f"{layer}/{c}" in files]
    return impl, wrong


def module_graph(files, impl):
    """Modules (headers with the files implementing them; a file that
    implements two headers joins them) and the includes between them."""
    parent = {p: p for p in files}

    def root(p):
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for h, cs in impl.items():
        for c in cs:
            parent[root(c)] = root(h)
    edges = {}
    for path, text in files.items():
        a = root(path)
        for h in includes(text):
            target = resolve(files, path, h)
            if target and root(target) != a:
                edges.setdefault(a, set()).add(root(target))
    return edges


def find_cycle(edges):
    state, stack = {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                c = visit(w)
                if c:
                    return c
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(edges):
        if v not in state:
            c = visit(v)
            if c:
                return c
    return None


def check_unused(files):
    """Includes of a header that the file names nothing of."""
    unused = []
    decls = {p: declared(t) for p, t in files.items() if p.endswith(".h")}
    # A member name counts only where one header alone declares it ("->cols"
    # could be anyone's).
    seen = {}
    for names in decls.values():
        for m in (x for x in names if x.startswith(".")):
            seen[m] = seen.get(m, 0) + 1
    decls = {p: {x for x in names if seen.get(x, 1) == 1} for p, names in decls.items()}
    for path, text in files.items():
        body = strip_comments(re.sub(r'^#include [^\n]*', " ", text, flags=re.M))
        words = set(re.findall(r"\w+", body))
        words |= {"." + m for m in re.findall(r"(?:\.|->)\s*(\w+)", body)}
        for h in includes(text):
            target = resolve(files, path, h)
            if target is None or not decls.get(target):
                continue
            if os.path.splitext(os.path.basename(path))[0] == os.path.splitext(h)[0]:
                continue  # a file's own header
            if not decls[target] & words:
                unused.append(f"{path}: includes {h} and uses nothing it declares")
    return unused


def top_level(code):
    """The file-scope declarations of C code: each as (the text before its
    body or its ';', the character that ended it), with comments,
    preprocessor lines, strings and attributes gone."""
    code = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*',
                  lambda m: '""' if m.group(0)[0] in "\"'" else " ", code, flags=re.S)
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", code, flags=re.M)
    code = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", " ", code)
    decls, depth, start = [], 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                decls.append((code[start:i], ch))
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            decls.append((code[start:i], ch))
            start = i + 1
    # "static struct {...} v[] = {...};": v's declaration starts before the body.
    out, carry = [], ""
    for d, end in decls:
        d = " ".join((carry + " " + d).split())
        carry = d if end == "{" and re.search(r"\b(?:struct|union|enum)(?:\s+\w+)?$", d) else ""
        if d and not carry and re.search(r"\w", re.sub(r"\b(?:struct|union|enum)\b", "", d)):
            out.append((d, end))
    return out


def exported(text):
    """The functions and variables a .c file defines without static."""
    names = []
    for decl, end in top_level(text):
        head = decl.split("=")[0]
        if re.search(r"\b(?:static|extern|typedef)\b", head.split("(")[0]):
            continue
        if "=" in decl or "(" not in head:  # a variable
            m = re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", head)
        elif end == "{":  # a function's definition, not a prototype
            m = re.search(r"(\w+)\s*\(", head)
        else:
            continue
        if m and not re.fullmatch(r"(?:struct|union|enum)\s+\w+", head.strip()):
            names.append(m.group(1))
    return names


def prefixes(path):
    """What a file name lets it export: foo-bar.c gives foo_bar and foo."""
    words = os.path.basename(path)[:-2].split("-")
    out = set()
    for cand in ("_".join(words), words[0]):
        out |= {cand, cand[:-1] if cand.endswith("s") else cand}
    return out


def check_names(files):
    """Exported names that the file name does not predict."""
    wrong = []
    for path, text in sorted(files.items()):
        if not path.endswith(".c"):
            continue
        ok = prefixes(path)
        for name in exported(text):
            if name in EXPORT_EXEMPT.get(path, ()):
                continue
            if not any(name == p or name.startswith(p + "_") for p in ok):
                wrong.append(f"{path}: exports {name}, not {' or '.join(sorted(p + '_*' for p in ok))}")
    return wrong


def check(files):
    """Every problem of a tree, by rule."""
    impl, undocumented = implementers(files)
    cycle = find_cycle(module_graph(files, impl))
    return {
        "layers": check_layers(files),
        "implementers": undocumented,
        "cycles": [" -> ".join(cycle)] if cycle else [],
        "unused": check_unused(files),
        "names": check_names(files),
    }


RULES = {
    "layers": "no file includes a header of a layer above it",
    "implementers": "every header says which files implement it, and they exist",
    "cycles": "no include cycle between modules",
    "unused": "no file includes a header it does not use",
    "names": "a file's name predicts the prefix of every name it exports",
}

# Small trees that break one rule each: the checks must see it.
BROKEN = {
    "layers": {"lib/a.c": '#include "b.h"\nint a(void) { return b(); }\n',
               "cmd/b.h": "/* Implemented by b.c. */\nint b(void);\n",
               "cmd/b.c": '#include "b.h"\nint b(void) { return 0; }\n'},
    "implementers": {"lib/a.h": "int a(void);\n",
                     "lib/a.c": '#include "a.h"\nint a(void) { return 0; }\n'},
    "cycles": {"lib/a.h": "/* Implemented by a.c. */\nint a(void);\n",
               "lib/a.c": '#include "a.h"\n#include "b.h"\nint a(void) { return b(); }\n',
               "lib/b.h": "/* Implemented by b.c. */\nint b(void);\n",
               "lib/b.c": '#include "b.h"\n#include "a.h"\nint b(void) { return a(); }\n'},
    "unused": {"lib/a.h": "/* Implemented by a.c. */\nint a(void);\n",
               "lib/a.c": '#include "a.h"\nint a(void) { return 0; }\n',
               "lib/c.c": '#include "a.h"\nint c(void) { return 1; }\n'},
    "names": {"lib/knob-list.h": "/* Implemented by knob-list.c. */\nint knob_list_add(void);\nint grow(void);\n",
              "lib/knob-list.c": '#include "knob-list.h"\nint knob_list_add(void) { return grow(); }\n'
                                 'int grow(void) { return 0; }\n'},
}


def main():
    for rule, problems in check(load(sys.argv[1])).items():
        tap(not problems, RULES[rule], problems)
    for rule, tree in BROKEN.items():
        found = check(tree)[rule]
        tap(bool(found), f"a tree that breaks it is caught: {RULES[rule]}", found)
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
