#!/usr/bin/env python3
"""bench/sass_loop.py [FILTER...] < cuobjdump-sass-output

Summarise the main loop of each kernel in `cuobjdump -sass BINARY` output: the longest
backward branch of a function is taken as its main loop. Prints, per kernel whose
mangled name contains one of the FILTERs (all when none given), the loop's length in
instructions, the count of each opcode class that matters for the SGEMM kernels
(FFMA, LDS, LDG, STS, BAR, the rest), and where in the loop each global load, shared
store and barrier sits (as a percentage of the loop), which is how step 20 of
doc/performance.md found loads sunk to the end of the loop.

Example, on the GPU machine:
  cuobjdump -sass /tmp/bench-build/bench_N4096 | python3 bench/sass_loop.py k_fast k_wide
"""
import re
import sys

FUNC = re.compile(r"^\s*Function : (\S+)")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
BRA = re.compile(r"\bBRA\b.*?(0x[0-9a-f]+)")


def functions(lines):
    """yield (name, [(address, opcode, text)]) for each function of the dump"""
    name, insns = None, []
    for line in lines:
        m = FUNC.match(line)
        if m:
            if name:
                yield name, insns
            name, insns = m.group(1), []
            continue
        m = INSN.match(line)
        if m and name:
            insns.append((int(m.group(1), 16), m.group(3), line.strip()))
    if name:
        yield name, insns


def main_loop(insns):
    """the instructions of the longest backward branch's body, or None"""
    best = None
    for idx, (addr, op, text) in enumerate(insns):
        if not op.startswith("BRA"):
            continue
        m = BRA.search(text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target < addr and (best is None or addr - target > best[1] - best[0]):
            best = (target, addr)
    if best is None:
        return None
    return [i for i in insns if best[0] <= i[0] <= best[1]]


def opclass(op):
    base = op.split(".")[0]
    return base if base in ("FFMA", "LDS", "LDG", "STS", "BAR", "LDSM", "LDGSTS") else "other"


def summary(name, loop):
    counts = {}
    for _, op, _ in loop:
        counts[opclass(op)] = counts.get(opclass(op), 0) + 1
    n = len(loop)
    print(f"{name}\n  loop: {n} instructions, " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    marks = []
    for pos, (_, op, _) in enumerate(loop):
        if opclass(op) in ("LDG", "STS", "BAR", "LDGSTS"):
            marks.append(f"{op.split('.')[0]}@{100 * pos // n}%")
    print("  " + " ".join(marks))
    others = {}
    for _, op, _ in loop:
        if opclass(op) == "other":
            others[op] = others.get(op, 0) + 1
    print("  other: " + ", ".join(f"{k} {v}" for k, v in sorted(others.items(), key=lambda kv: -kv[1])))


def main():
    filters = sys.argv[1:]
    for name, insns in functions(sys.stdin):
        if filters and not any(f in name for f in filters):
            continue
        loop = main_loop(insns)
        if loop:
            summary(name, loop)


if __name__ == "__main__":
    main()
