#!/usr/bin/env python3
"""editors_textmate.py GRAMMAR.json FILE.pa...

Checks the TextMate grammar of editors/vscode: valid JSON, every pattern
compiles (Python's re: the grammar keeps to what Oniguruma and re share),
every include resolves; then tokenizes each file with a small TextMate
engine (match, begin/end, captures, includes; the end pattern wins ties)
and requires the scopes editors show: directives, type declarations with
their memory and thread kinds and #paths, $...$ (nested), dimension paths."""
import json
import re
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        g = json.load(f)
    for key in ("scopeName", "patterns", "repository"):
        if key not in g:
            sys.exit(f"FAIL: {path}: no '{key}'")
    return g


def compile_all(g):
    """Compiles every regex in place; returns the number compiled."""
    count = 0

    def walk(rule, where):
        nonlocal count
        for key in ("match", "begin", "end"):
            if key in rule:
                try:
                    rule["_" + key] = re.compile(rule[key])
                except re.error as e:
                    sys.exit(f"FAIL: {where}.{key}: {rule[key]!r}: {e}")
                count += 1
        inc = rule.get("include")
        if inc and inc.startswith("#") and inc[1:] not in g["repository"]:
            sys.exit(f"FAIL: {where}: include {inc} is not in the repository")
        for i, p in enumerate(rule.get("patterns", [])):
            walk(p, f"{where}.patterns[{i}]")
        for cap in ("captures", "beginCaptures", "endCaptures"):
            for k, c in rule.get(cap, {}).items():
                walk(c, f"{where}.{cap}[{k}]")

    walk(g, "grammar")
    for name, rule in g["repository"].items():
        walk(rule, f"repository.{name}")
    return count


def flatten(g, patterns):
    out = []
    for p in patterns:
        if "include" in p:
            inc = p["include"]
            target = g if inc == "$self" else g["repository"][inc[1:]]
            if "match" in target or "begin" in target:
                out.append(target)
            else:
                out.extend(flatten(g, target.get("patterns", [])))
        else:
            out.append(p)
    return out


def tokenize(g, text):
    """Scopes per character: a list of lines, each a list of scope lists."""
    stack = [(None, flatten(g, g["patterns"]), ["source"])]  # (rule, patterns, scopes)
    result = []
    for line in text.split("\n"):
        scopes = [list(stack[-1][2]) for _ in range(len(line) + 1)]
        pos = 0
        while pos <= len(line):
            rule, pats, base = stack[-1]
            best = None
            if rule is not None:
                m = rule["_end"].search(line, pos)
                if m:
                    best = (m.start(), 0, m, None)
            for i, p in enumerate(pats):
                m = p.get("_match", p.get("_begin")).search(line, pos)
                if m and (best is None or m.start() < best[0]):
                    best = (m.start(), i + 1, m, p)
            if best is None:
                break
            start, _, m, p = best
            if p is None:  # the end of the open rule
                mark(scopes, m, base, rule.get("endCaptures", rule.get("captures", {})))
                stack.pop()
                for k in range(m.end(), len(line) + 1):
                    scopes[k] = list(stack[-1][2])
            elif "_match" in p:
                inner = base + [p["name"]] if "name" in p else base
                mark(scopes, m, inner, p.get("captures", {}))
            else:
                inner = base + [p["name"]] if "name" in p else base
                mark(scopes, m, inner, p.get("beginCaptures", p.get("captures", {})))
                stack.append((p, flatten(g, p.get("patterns", [])), inner))
                for k in range(m.end(), len(line) + 1):
                    scopes[k] = list(inner)
            if m.end() == pos and p is not None and "_match" in p:
                pos += 1  # an empty match: move on
            else:
                pos = max(m.end(), pos if m.end() > start else pos + 1)
        result.append(scopes)
    return result


def mark(scopes, m, base, captures):
    for k in range(m.start(), m.end()):
        scopes[k] = list(base)
    for key, cap in captures.items():
        gi = int(key)
        if m.start(gi) >= 0 and "name" in cap:
            for k in range(m.start(gi), m.end(gi)):
                scopes[k] = scopes[k] + [cap["name"]]


CHECKS = [
    # (what, regex for the place in the source, scope required there)
    ("#parray", r"^\s*(#)\s*parray\s*\{", "keyword.control.directive.parray"),
    ("memory kind", r"^\s*#\s*parray\s*\{\s*(paged|pinned|dmem|smem|rmem)", "storage.modifier.memory.parray"),
    ("thread kind", r"^\s*#\s*parray\s*\{\s*(pthd|omp|cuda|mpi)", "storage.type.thread.parray"),
    ("#path in a type", r"^\s*#\s*parray\s*\{.*?(#)[A-Za-z_]", "variable.other.dimension-path.parray"),
    ("type name", r"^\s*#\s*parray\s*\{[^}]*\}\s*([A-Za-z_])", "entity.name.type.parray"),
    ("directive", r"^\s*(#)\s*(?:create|insert|detour|mainhost|copy|destroy|sync)", "keyword.control.directive.parray"),
    ("$...$", r"\$([A-Za-z_])", "meta.offset-expression.parray"),
    ("nested $tid$", r"\$[A-Za-z_]\w*\[\$(t)id", "variable.language.tid.parray"),
    ("dimension path", r"\$(?:dim|size)(?:_\d+)*\(([A-Za-z_])\w*_\d", "variable.other.dimension-path.parray"),
    ("C keyword", r"^\s*(r)eturn\b", "keyword.control.c"),
]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: editors_textmate.py GRAMMAR.json FILE...")
    g = load(sys.argv[1])
    n = compile_all(g)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tokens = tokenize(g, text)
        lines = text.split("\n")
        why = []
        for what, pattern, scope in CHECKS:
            found = ((ln, m) for ln, line in enumerate(lines) for m in re.finditer(pattern, line)
                     if not any("comment" in s for s in tokens[ln][m.start(1)]))
            ln, m = next(found, (None, None))
            if m and scope not in tokens[ln][m.start(1)]:
                why.append(f"line {ln + 1}: {what} has {tokens[ln][m.start(1)]}")
        if why:
            bad += 1
            print(f"FAIL {path}: " + "; ".join(why), file=sys.stderr)
    print(f"textmate: {n} patterns compile; {len(sys.argv) - 2 - bad} of {len(sys.argv) - 2} files ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
