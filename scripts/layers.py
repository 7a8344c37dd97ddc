#!/usr/bin/env python3
"""Checks the engine's structure: its layers, its imports, the length of its files and functions.

    scripts/layers.py [--root engine/src]

The engine (`engine/src`) has two leaves (`limits.rs`, `rng.rs`) and three layers, each a
folder: `kernel/`, `bridges/`, `studies/`, in that order. A *unit* is a leaf or a direct child
of a layer folder (`kernel/sim`, `studies/sweep`, `bridges/aws.rs`...). The checks:

1. a leaf names no other unit; a unit names no unit of a layer above its own (the kernel never
   a bridge or a study, a bridge never a study);
2. no import circle between units, nor between the files of one unit (a file names another
   by `super::x`, `crate::unit::x` or `self::x`);
3. no engine file over 700 lines, no function over 150 lines (tests excluded).

A unit names another by a `crate::` path (the crate root re-exports every unit under its own
name, `crate::sweep` for `studies/sweep`), in a `use` or in code; comments, doc comments and
`#[cfg(test)]` modules do not count. Prints every violation and exits 1 if there is any that
[`PENDING`] does not list, or if a listed one is gone (then the list must shrink): a ratchet.
"""
import argparse
import os
import re
import sys

LAYERS = ["kernel", "bridges", "studies"]
LEAVES = ["limits", "rng"]
MAX_FILE_LINES = 700
MAX_FN_LINES = 150

# Known violations, each waiting for the step that removes it; nothing else may appear.
PENDING: set = set()


def strip(text):
    """The code without comments, string contents and `#[cfg(test)]` modules."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == '"' or (c == "r" and re.match(r'r#*"', text[i:i + 10]) and not text[i - 1:i].isalnum()):
            if c == "r":
                hashes = re.match(r"r(#*)\"", text[i:]).group(1)
                end = '"' + hashes
                j = text.find(end, i + 2 + len(hashes))
                i = n if j < 0 else j + len(end)
            else:
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                i = j + 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or text.startswith("'\\u{", i):
            j = text.find("'", i + 1 + (text[i + 1] == "\\"))
            out.append("' '")
            i = j + 1
        else:
            out.append(c)
            i += 1
    code = "".join(out)
    # Drop `#[cfg(test)] mod name { ... }` blocks.
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", code)
        if not m:
            return code
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        code = code[:m.start()] + "\n" * code[m.start():j].count("\n") + code[j:]


def units(root):
    """{unit: [files]} and {file: unit}."""
    by_unit = {}
    for leaf in LEAVES:
        by_unit[leaf] = [os.path.join(root, leaf + ".rs")]
    for layer in LAYERS:
        base = os.path.join(root, layer)
        for name in sorted(os.listdir(base)):
            if name == "mod.rs":
                continue
            path = os.path.join(base, name)
            unit = f"{layer}/{name[:-3] if name.endswith('.rs') else name}"
            if os.path.isdir(path):
                by_unit[unit] = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(path) for f in fs if f.endswith(".rs"))
            else:
                by_unit[unit] = [path]
    return by_unit


def rank(unit):
    return -1 if "/" not in unit else LAYERS.index(unit.split("/")[0])


def crate_names(code):
    """Every first segment after `crate::`, including those inside `use crate::{a, b::c}`."""
    names = set(re.findall(r"\bcrate::(\w+)", code))
    for m in re.finditer(r"\bcrate::\{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        inner = code[m.end():j - 1]
        # Top-level items of the group: split at depth-0 commas.
        depth, item = 0, ""
        for ch in inner + ",":
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                w = re.match(r"\s*(\w+)", item)
                if w:
                    names.add(w.group(1))
                item = ""
            else:
                item += ch
    return names


def sccs(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def long_functions(path, text):
    """(line, name, length) of every function over MAX_FN_LINES lines outside tests."""
    code = strip(text)
    lines = code.split("\n")
    found = []
    for k, line in enumerate(lines):
        m = re.match(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)", line)
        if not m:
            continue
        # The body: from the first `{` after the signature to its match (`;` first: no body).
        rest = "\n".join(lines[k:])
        j = 0
        while j < len(rest) and rest[j] not in "{;":
            j += 1
        if j >= len(rest) or rest[j] == ";":
            continue
        depth, e = 0, j
        while e < len(rest):
            depth += {"{": 1, "}": -1}.get(rest[e], 0)
            if depth == 0:
                break
            e += 1
        length = rest[:e].count("\n") + 1
        if length > MAX_FN_LINES:
            found.append((k + 1, m.group(6), length))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine", "src"))
    a = ap.parse_args()
    root = a.root
    by_unit = units(root)
    name_of = {u.split("/")[-1]: u for u in by_unit}
    problems = []
    unit_graph = {u: set() for u in by_unit}
    for unit, files in by_unit.items():
        file_graph = {f: set() for f in files}
        for f in files:
            text = open(f).read()
            rel = os.path.relpath(f, root)
            n = text.count("\n")
            if n > MAX_FILE_LINES:
                problems.append(f"{rel}: {n} lines (at most {MAX_FILE_LINES})")
            for line, name, length in long_functions(f, text):
                problems.append(f"{rel}:{line}: fn {name} is {length} lines (at most {MAX_FN_LINES})")
            code = strip(text)
            for name in crate_names(code):
                other = name_of.get(name)
                if other is None or other == unit:
                    continue
                unit_graph[unit].add(other)
                if unit in LEAVES:
                    problems.append(f"{rel}: the leaf {unit} names {other}")
                elif rank(other) > rank(unit):
                    problems.append(f"{rel}: {unit} names {other}, a layer above its own")
            # Files of the same unit it names.
            d = os.path.dirname(f)
            here = os.path.splitext(os.path.basename(f))[0]
            mods = {}
            for g in files:
                gd, gb = os.path.dirname(g), os.path.splitext(os.path.basename(g))[0]
                mods[(gd if gb != "mod" else os.path.dirname(gd), gb if gb != "mod" else os.path.basename(gd))] = g
            # The folder this file's `super::` refers to, and its own child modules.
            own_dir = d if here == "mod" else os.path.join(d, here)
            super_dir = os.path.dirname(d) if here == "mod" else d
            supers = [m.group(1) for m in re.finditer(r"\bsuper::(\w+|\*)", code)]
            for m in re.finditer(r"\bsuper::\{([^}]*)\}", code):
                supers += re.findall(r"(?:^|,)\s*(\w+|\*)", m.group(1))
            for name in supers:
                target = mods.get((super_dir, name))
                if target is None:
                    # An item of the parent module itself.
                    target = next((g for g in files if g in (os.path.join(super_dir, "mod.rs"),)), None)
                if target and target != f:
                    file_graph[f].add(target)
            for m in re.finditer(r"(?:\bself::|^\s*use\s+|[^:\w])(\w+)::", code, re.M):
                target = mods.get((own_dir, m.group(1)))
                if target and target != f:
                    file_graph[f].add(target)
            if "/" in unit:
                inner = unit.split("/")[1]
                unit_dir = os.path.join(root, unit)
                top = os.path.join(unit_dir, "mod.rs")
                for m in re.finditer(r"\bcrate::" + inner + r"::(\w+)", code):
                    # A file of the unit, else an item of its mod.rs.
                    target = mods.get((unit_dir, m.group(1))) or (top if top in files else None)
                    if target and target != f:
                        file_graph[f].add(target)
                for m in re.finditer(r"\bcrate::" + inner + r"::\{([^}]*)\}", code):
                    for w in re.findall(r"(\w+)", m.group(1)):
                        target = mods.get((unit_dir, w)) or (top if top in files else None)
                        if target and target != f:
                            file_graph[f].add(target)
        for comp in sccs(file_graph):
            problems.append("import circle between files: " + " -> ".join(os.path.relpath(c, root) for c in comp))
    for comp in sccs(unit_graph):
        problems.append("import circle between units: " + " -> ".join(comp))
    new = [p for p in problems if p not in PENDING]
    gone = sorted(PENDING - set(problems))
    for p in problems:
        print(("pending: " if p in PENDING else "") + p)
    for p in gone:
        print(f"no longer a problem, take it off PENDING: {p}")
    print(f"{len(by_unit)} units, {sum(len(f) for f in by_unit.values())} files: {len(new)} new problems, "
          f"{len(problems) - len(new)} pending")
    sys.exit(1 if new or gone else 0)


if __name__ == "__main__":
    main()
