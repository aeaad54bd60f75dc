#!/usr/bin/env python3
"""check_layers.py SRCDIR BUILDDIR [--list]: the layers of compiler/.

Which file uses which is read twice: from the #include "..." lines of the
sources, and from the names each object file of parrayc uses and the one
that defines them (nm).  Both graphs must have
  - no circle: no file uses, directly or not, a file that uses it;
  - no arrow up: a file uses only files of its own layer or of a lower one
    (the order is LAYERS below; the folder is the layer, a folder of
    targets/ is part of it);
  - targets apart: no target (a file of targets/, or a folder of it such
    as targets/cuda/) uses another target (targets/all, their list, is
    none).
--list prints the name graph (file -> file: names), the drawing that
doc/internals.md summarises.  Exit 0 when the rules hold, 1 otherwise."""
import os
import re
import subprocess
import sys

# bottom up; "" is the root of compiler/ (parrayc.h, util, ctext, diag)
LAYERS = ["", "front", "model", "print", "emit", "targets", "explain", "driver", "main"]


def layer_of(path):
    """'model/types.c' -> 'model'; the command's two files are layers of their own."""
    name = os.path.splitext(os.path.basename(path))[0]
    if name in ("driver", "main"):
        return name
    folder = os.path.dirname(path)
    return "targets" if folder.startswith("targets/") else folder


def target_of(u):
    """The target a unit of targets/ belongs to: its file, or its folder
    below targets/ ('targets/cuda/kernels' -> 'targets/cuda')."""
    parts = u.split("/")
    return "/".join(parts[:2])


def rank(path):
    return LAYERS.index(layer_of(path))


def unit(path):
    """A header and its .c are one unit: 'model/copy_plan.h' -> 'model/copy_plan'."""
    return os.path.splitext(path)[0]


def include_graph(src):
    edges = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith((".c", ".h", ".l", ".y")):
                continue
            path = os.path.relpath(os.path.join(root, f), src)
            for line in open(os.path.join(root, f), encoding="utf-8", errors="replace"):
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if m and os.path.exists(os.path.join(src, m.group(1))):
                    a, b = unit(path), unit(m.group(1))
                    if a != b and not b == "parrayc":  # the data model's header is everyone's
                        edges.setdefault(a, {}).setdefault(b, []).append(m.group(1))
    return edges


def objects(build):
    """(source path relative to compiler/, object file) for parrayc's objects."""
    out = []
    for target in ("parrayc_core.dir", "parrayc.dir"):
        top = os.path.join(build, "compiler", "CMakeFiles", target)
        for root, _, files in os.walk(top):
            for f in files:
                if f.endswith(".c.o"):
                    rel = os.path.relpath(os.path.join(root, f), top)[:-2]
                    # flex and bison write lexer.c and parser.c into the build tree
                    if os.path.basename(rel) in ("lexer.c", "parser.c"):
                        rel = "front/" + os.path.basename(rel)
                    out.append((rel, os.path.join(root, f)))
    return out


def nm(obj, defined):
    args = ["nm", "--defined-only" if defined else "--undefined-only", obj]
    names = []
    for line in subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if defined and len(parts) == 3 and parts[1] in "TDBRC":
            names.append(parts[2])
        elif not defined and len(parts) == 2 and parts[0] == "U":
            names.append(parts[1])
    return names


def name_graph(build):
    objs = objects(build)
    owner = {}
    for path, obj in objs:
        for name in nm(obj, True):
            owner[name] = unit(path)
    edges = {}
    for path, obj in objs:
        for name in nm(obj, False):
            if name in owner and owner[name] != unit(path):
                edges.setdefault(unit(path), {}).setdefault(owner[name], []).append(name)
    return edges


def circles(edges):
    """the strongly connected parts of more than one file"""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def check(kind, edges):
    bad = 0
    for part in circles(edges):
        print(f"FAIL: {kind}: a circle between {', '.join(part)}")
        bad += 1
    for a in sorted(edges):
        for b, why in sorted(edges[a].items()):
            if rank(b) > rank(a):
                print(f"FAIL: {kind}: {a} ({layer_of(a) or 'root'}) uses {b}, a higher layer"
                      f" ({layer_of(b)}): {', '.join(sorted(set(why)))}")
                bad += 1
            elif (layer_of(a) == layer_of(b) == "targets" and "targets/all" not in (a, b)
                  and target_of(a) != target_of(b)):
                print(f"FAIL: {kind}: target {a} uses target {b}: {', '.join(sorted(set(why)))}")
                bad += 1
    return bad


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: check_layers.py SRCDIR BUILDDIR [--list]")
    src = os.path.join(sys.argv[1], "compiler")
    names = name_graph(sys.argv[2])
    if "--list" in sys.argv:
        for a in sorted(names, key=lambda u: (rank(u), u)):
            for b, why in sorted(names[a].items(), key=lambda kv: (rank(kv[0]), kv[0])):
                print(f"{a} -> {b}: {' '.join(sorted(set(why)))}")
    bad = check("includes", include_graph(src)) + check("names", names)
    if not names:
        print("FAIL: no object files of parrayc under " + sys.argv[2])
        bad += 1
    print(f"check_layers: {len(names)} files use others' names; {'ok' if not bad else str(bad) + ' problems'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
