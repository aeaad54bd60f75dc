#!/usr/bin/env python3
"""capture_diff.py: what a detour body sees of the enclosing function's
locals, against the same block compiled by cc alone (issue 55).

    python3 tests/capture_diff.py PARRAYC [--seed S] [--cases N] [--cc CC]
                                  [--dir D] [--kinds pthd,omp,cuda]

A seeded generator writes functions with random locals of many forms
(scalars of every arithmetic type, const, volatile, static and register
ones, pointers, arrays of 1-3 dimensions sized by constants, macros,
enum constants and variables, typedef'd arrays and pointers to them,
structs and unions with array, nested and anonymous members, enums,
several declarators on one line, compound literals, strings, function
pointers, locals in nested blocks and for headers, shadowed names,
locals changed after their declaration, under if, else, do and switch
too, a macro call that brings its own ';' before a declaration, a
product statement 'n * gv;') and a
'#detour' whose body (thread 0 of a [1] or [2] thread array) folds a
random subset of them into a checksum, writes some of them (pthd and omp
share the locals by reference, doc/language.md "Locals of the enclosing
function"), and the function prints the checksum and the values written.

The reference is the same file with '#detour T {' made a plain '{' and
$tid$ made 0, compiled by cc alone; parrayc's translation (built by
`parrayc --build`, -Wall -Wextra) must print the same lines and warn of
nothing the reference does not.  cuda: the translation is only compiled
(nvcc, when it is on PATH), its bodies reading only what a kernel may
receive by value.  A mismatch prints the seed and writes a one-case
reproducer (repro_KIND_K.pa) into the work folder; exit status 1.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

PRELUDE = r"""#include <stddef.h>
#include <stdio.h>
#define M2 2
#define M3 (1 + 2)
#define NOTE(x) (void)(x);
enum { E2 = 2, E3 = 3 };
enum color { RED, GREEN = 5, BLUE };
typedef int tri[3];
typedef double dmat[2][M2];
typedef int (*ptri)[3];
typedef unsigned char bytes4[4];
typedef const char *cstr;
typedef struct pt { int x, y; } pt;
typedef pt pt2[2];
struct rec {
  int a[3];
  struct pt p;
  struct { short s; char c[2]; } in;
  union { int u; float f; };
  struct { long w; };
};
union word { int i; unsigned char b[4]; };
struct grid { double g[2][3]; tri t; };
struct bits { unsigned a : 3; int b : 5; unsigned : 0; unsigned c : 12; };
static int ga[3] = {4, 5, 6};
static double gb[2][2] = {{1, 2}, {3, 4}};
static int gvv[2][3] = {{1, 2, 3}, {4, 5, 6}};
static int twice(int a) { return 2 * a; }
static int thrice(int a) { return 3 * a; }
static int gv = 100, gw = 200;
#define MIX(h, v) ((h) = (h) * 1000003u ^ (unsigned long long)(v))
#define MIXF(h, v) MIX(h, (long long)((v) * 8))
"""

INTS = ["char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long",
        "unsigned long", "long long", "unsigned long long", "_Bool", "size_t"]
FLOATS = ["float", "double", "long double"]


class Var:
    """a local: its name, the reads the body may fold (C text, floating?),
    the statements that may write it, whether an int lvalue of it can be
    pointed to (&expr)"""
    def __init__(self, name, reads, writes=(), addr=None, cuda=True):
        self.name, self.reads, self.writes, self.addr, self.cuda = name, list(reads), list(writes), addr, cuda


class Case:
    def __init__(self, rng, idx, kind):
        self.rng, self.idx, self.kind = rng, idx, kind
        self.lines = []      # the function's text, with @DETOUR@ and @TID@ to be filled
        self.vars = []       # visible at the detour
        self.names = 0
        self.depth = 1
        self.taken = set()   # the names named_like used

    def name(self):
        self.names += 1
        return "v%d_%d" % (self.idx, self.names)

    def say(self, text):
        self.lines.append("  " * self.depth + text)

    def small(self, lo=-9, hi=20):
        return self.rng.randrange(lo, hi)

    # ---- declarations: each says its lines and returns its Vars ----

    def scalar(self, name=None):
        r = self.rng
        t = r.choice([t for t in INTS + FLOATS if t != "_Bool" or self.kind != "cuda"])   # C++: bool
        quals = []
        if r.random() < 0.15:
            quals.append("static")
        if r.random() < 0.15:
            quals.append("const")
        if r.random() < 0.15:
            quals.append("volatile")
        if not quals and r.random() < 0.15 and self.kind != "cuda":   # C++17 has no register
            quals.append("register")
        name = name or self.name()
        v = self.small(0 if t.startswith("unsigned") or t in ("_Bool", "size_t") else -9, 30)
        if t in FLOATS:
            v = "%d.%d" % (v, r.choice([0, 25, 5, 75]))
        attr = r.choice(["", "", "", "", "", "_Alignas(16) ", "__attribute__((unused)) "])
        if self.kind == "cuda" and attr.startswith("_Alignas"):
            attr = "alignas(16) "  # C++'s
        late = r.choice(["", "", "", "", " __attribute__((unused))"])
        if "register" in quals and attr.startswith("_Alignas"):
            attr = ""             # C gives a register object no alignment
        self.say("%s%s %s %s%s = %s;" % (attr, " ".join(quals), t, name, late, v))
        writes = [] if "const" in quals else ["%s = %s;" % (name, self.small(0, 9)), "%s += 2;" % name]
        addr = None if "register" in quals or "const" in quals or "volatile" in quals or t != "int" else name
        return [Var(name, [(name, t in FLOATS), ("sizeof %s" % name, False)], writes, addr)]

    def pointer(self):
        targets = [v for v in self.vars if v.addr]
        if not targets:
            return self.scalar()
        tv = self.rng.choice(targets)
        name = self.name()
        const = self.rng.random() < 0.3
        self.say("%sint *%s = &%s;" % ("const " if const else "", name, tv.addr))
        writes = [] if const else ["*%s = %d;" % (name, self.small(0, 50)), "(*%s)++;" % name]
        return [Var(name, [("*%s" % name, False), ("%s[0]" % name, False)], writes, cuda=False)]

    def size(self):
        r = self.rng
        return r.choice(["2", "3", "M2", "M3", "E2", "E3", "n", "m", "n + 1", "(m - 1)"])

    def array(self):
        r = self.rng
        name = self.name()
        t = r.choice(["int", "short", "unsigned char", "long long", "double", "float", "tri", "pt"])
        dims = [self.size() for _ in range(r.choice([1, 1, 2, 2, 3]))]
        vla = any(ch in d for d in dims for ch in "nm")
        if not vla and r.random() < 0.3 and len(dims) == 1:
            dims = [""]                     # sized by its initialiser
        quals = ""
        if not vla and t not in ("tri", "pt"):
            quals = r.choice(["", "", "", "static ", "const ", "volatile ", "static const "])
        if r.random() < 0.1:
            quals = r.choice(["alignas(16) " if self.kind == "cuda" else "_Alignas(16) ",
                              "__attribute__((aligned(16))) "]) + quals
        decl = "%s%s %s%s" % (quals, t, name, "".join("[%s]" % d for d in dims))
        extents = self.extents(dims)
        if t == "tri":                      # an array of arrays: one more extent, through the typedef
            extents.append(3)
        if vla:
            self.say(decl + ";")
            if t == "pt":
                self.fill(name, extents, ".x")
                self.fill(name, extents, ".y")
            else:
                self.fill(name, extents)
        else:
            self.say("%s = %s;" % (decl, self.init(extents, t == "pt")))
        v = self.array_var(name, extents, t in ("double", "float"), member=".y" if t == "pt" else "")
        if "const" in quals:
            v.writes = []
        return [v]

    def extents(self, dims):
        """the values of dims where the array is declared (n is 2, m 3)"""
        env = {"M2": 2, "M3": 3, "E2": 2, "E3": 3, "n": 2, "m": 3}
        return [eval(d, {}, env) if d else 3 for d in dims]

    def init(self, extents, pair=False):
        if len(extents) == 1 and pair:
            return "{%s}" % ", ".join("{%d, %d}" % (self.small(), self.small()) for _ in range(extents[0]))
        if len(extents) == 1:
            return "{%s}" % ", ".join(str(self.small(0, 99)) for _ in range(extents[0]))
        return "{%s}" % ", ".join(self.init(extents[1:], pair) for _ in range(extents[0]))

    def fill(self, name, extents, member=""):
        idx = ["i%d" % k for k in range(len(extents))]
        loops = " ".join("for (int %s = 0; %s < %d; %s++)" % (i, i, e, i) for i, e in zip(idx, extents))
        self.say("%s %s%s%s = %s;" % (loops, name, "".join("[%s]" % i for i in idx), member,
                                      " + ".join(["%d" % self.small(1, 9)] + ["%s * %d" % (i, self.small(1, 7))
                                                                               for i in idx])))

    def array_var(self, name, extents, floating, base=None, member=""):
        base = base or name
        reads = [("sizeof %s" % base, False), ("sizeof %s[0]" % base, False),
                 ("sizeof %s / sizeof %s[0]" % (base, base), False)]
        writes = []
        for _ in range(3):
            el = base + "".join("[%d]" % self.rng.randrange(e) for e in extents) + member
            reads.append((el, floating))
            writes.append("%s = %d;" % (el, self.small(0, 99)))
        loop = ("for (size_t k = 0; k < sizeof %s / sizeof %s[0]; k++) MIX%s(h, %s[k]%s%s);" %
                (base, base, "F" if floating else "", base, "".join("[0]" for _ in extents[1:]), member))
        reads.append((loop, None))
        return Var(name, reads, writes, cuda=False)

    def typedef_array(self):
        r = self.rng
        name = self.name()
        k = r.randrange(5)
        if k == 0:
            self.say("tri %s = {%d, %d, %d};" % (name, self.small(), self.small(), self.small()))
            return [self.array_var(name, [3], False)]
        if k == 1:
            self.say("dmat %s = {{1.5, 2}, {3, 4.25}};" % name)
            return [self.array_var(name, [2, 2], True)]
        if k == 2:
            arr = self.name()
            self.say("tri %s = {%d, 5, 6};" % (arr, self.small()))
            self.say("ptri %s = &%s;" % (name, arr))
            v = self.array_var(name, [3], False, base="(*%s)" % name)
            return [self.array_var(arr, [3], False), v]
        if k == 3:
            arr = self.name()
            self.say("int %s[2][3] = {{1, 2, 3}, {4, 5, 6}};" % arr)
            self.say("int (*%s)[3] = %s;" % (name, arr))
            return [self.array_var(arr, [2, 3], False),
                    Var(name, [("%s[1][2]" % name, False), ("sizeof *%s" % name, False)],
                        ["%s[0][1] = 9;" % name], cuda=False)]
        self.say("pt2 %s = {{1, 2}, {3, 4}};" % name)
        return [Var(name, [("%s[1].y" % name, False), ("sizeof %s" % name, False)],
                    ["%s[0].x = 7;" % name], cuda=False)]

    def record(self):
        r = self.rng
        name = self.name()
        k = r.randrange(10)
        if k == 0:
            self.say("struct rec %s = {{1, 2, 3}, {4, 5}, {6, {7, 8}}, {9}, {10}};" % name)
            reads = ["%s.a[2]" % name, "%s.p.y" % name, "%s.in.c[1]" % name, "%s.u" % name, "%s.w" % name,
                     "sizeof %s" % name, "sizeof %s.a" % name]
            writes = ["%s.a[0] = 11;" % name, "%s.u = 12;" % name, "%s.in.s = 13;" % name]
        elif k == 1:
            self.say("union word %s;" % name)
            self.say("%s.i = %d;" % (name, self.small(0, 99)))
            reads = ["%s.i" % name, "sizeof %s.b" % name]
            writes = ["%s.i = 3;" % name]
        elif k == 2:
            self.say("struct grid %s = {{{1, 2, 3}, {4, 5, 6}}, {7, 8, 9}};" % name)
            reads = ["%s.g[1][2]" % name, "%s.t[1]" % name, "sizeof %s.t" % name, "sizeof %s.g[0]" % name]
            writes = ["%s.g[0][0] = 5;" % name, "%s.t[2] = 1;" % name]
        elif k == 3:
            self.say("pt %s = {%d, %d}, *%sp = &%s;" % (name, self.small(), self.small(), name, name))
            reads = ["%s.x" % name, "%sp->y" % name, "sizeof(pt)"]
            writes = ["%sp->x = 4;" % name, "%s.y = 6;" % name]
        elif k == 4:
            self.say("struct bits %s = {5, -3, 100};" % name)
            reads = ["%s.a" % name, "%s.b" % name, "%s.c" % name, "sizeof %s" % name]
            writes = ["%s.b = -7;" % name, "%s.a = 6;" % name]
        elif k == 5:
            self.say("struct rec %s[2] = {{{1, 2, 3}}, {{4, 5, 6}, {7, 8}}};" % name)
            reads = ["%s[1].a[2]" % name, "%s[1].p.y" % name, "sizeof %s[0]" % name, "sizeof %s" % name]
            writes = ["%s[0].a[1] = 9;" % name]
            return [Var(name, [(x, False) for x in reads], writes, cuda=False)]
        elif k == 6:
            ints = [v.addr for v in self.vars if v.addr]
            if not ints:
                return self.scalar()
            self.say("int *%s[n];" % name)
            self.say("for (int i = 0; i < n; i++) %s[i] = &%s;" % (name, r.choice(ints)))
            return [Var(name, [("*%s[1]" % name, False), ("sizeof %s" % name, False)], ["*%s[0] = 44;" % name],
                        cuda=False)]
        elif k == 7:
            self.say("const int %sk = %d;" % (name, r.choice([2, 3])))
            self.say("double %s[%sk];" % (name, name))
            self.say("for (int i = 0; i < %sk; i++) %s[i] = i + 0.5;" % (name, name))
            return [Var(name, [("%s[1]" % name, True), ("sizeof %s" % name, False)], ["%s[0] = 2.5;" % name],
                        cuda=False)]
        elif k == 8:
            self.say("static int %ss = %d;" % (name, self.small()))
            self.say("static int *%s = &%ss;" % (name, name))
            reads = ["*%s" % name, "%ss" % name]
            writes = ["*%s = 12;" % name, "%ss = 13;" % name]
            return [Var(name, [(x, False) for x in reads], writes, cuda=False)]
        else:
            self.say("enum color %s = %s;" % (name, r.choice(["RED", "GREEN", "BLUE"])))
            reads = [name, "%s == GREEN" % name]
            writes = ["%s = BLUE;" % name]
        return [Var(name, [(x, False) for x in reads], writes, cuda=k != 3)]

    def several(self):
        """several declarators on one line"""
        a, p, v, b = self.name(), self.name(), self.name(), self.name()
        self.say("int %s = %d, *%s = &%s, %s[3] = {1, 2, 3}, %s;" % (a, self.small(), p, a, v, b))
        self.say("%s = %s[1] + %s;" % (b, v, a))
        return [Var(a, [(a, False)], ["%s = 8;" % a], addr=a),
                Var(p, [("*%s" % p, False)], ["*%s = 21;" % p], cuda=False),
                self.array_var(v, [3], False),
                Var(b, [(b, False)], ["%s -= 3;" % b], addr=b)]

    def literal(self):
        """compound literals, strings, function pointers"""
        r = self.rng
        name = self.name()
        k = r.randrange(7)
        if k == 0 and self.kind != "cuda":     # C++ takes no address of a temporary array
            self.say("int *%s = (int[]){%d, %d, %d};" % (name, self.small(), self.small(), self.small()))
            return [Var(name, [("%s[2]" % name, False)], ["%s[1] = 3;" % name], cuda=False)]
        if k == 1:
            self.say("struct pt %s = (struct pt){%d, %d};" % (name, self.small(), self.small()))
            return [Var(name, [("%s.y" % name, False)], ["%s.x = 2;" % name])]
        if k == 2:
            self.say('char %s[] = "hel;{lo}";' % name)
            return [self.array_var(name, [9], False)]
        if k == 3:
            self.say('char %s[2][4] = {"ab", "cde"};' % name)
            return [self.array_var(name, [2, 4], False)]
        if k == 4:
            self.say('cstr %s = "xyz";' % name)
            return [Var(name, [("%s[1]" % name, False)], ['%s = "q";' % name], cuda=False)]
        if k == 5:
            self.say("int (*%s)(int) = %s;" % (name, r.choice(["twice", "thrice"])))
            return [Var(name, [("%s(%d)" % (name, self.small()), False)], ["%s = thrice;" % name], cuda=False)]
        self.say("int (*%s[2])(int) = {twice, thrice};" % name)
        return [Var(name, [("%s[1](%d)" % (name, self.small()), False), ("sizeof %s" % name, False)],
                    ["%s[0] = thrice;" % name], cuda=False)]

    def indirect(self):
        """pointers to pointers, arrays of pointers, a struct through a
        pointer, a block-scope extern, a declaration broken by comments
        and lines, a bytes4, a const pointer to const"""
        r = self.rng
        name = self.name()
        ints = [v for v in self.vars if v.addr]
        k = r.randrange(7)
        if k == 0 and ints:
            a = r.choice(ints)
            self.say("int *%sp = &%s, **%s = &%sp;" % (name, a.addr, name, name))
            return [Var(name, [("**%s" % name, False), ("*%s[0]" % name, False)], ["**%s = 17;" % name],
                        cuda=False)]
        if k == 1 and ints:
            a, b = r.choice(ints), r.choice(ints)
            self.say("int *%s[] = {&%s, &%s};" % (name, a.addr, b.addr))
            return [Var(name, [("*%s[1]" % name, False), ("sizeof %s" % name, False)], ["*%s[0] = 19;" % name],
                        cuda=False)]
        if k == 2:
            rec = self.name()
            self.say("struct rec %s = {{3, 1, 4}, {1, 5}, {9, {2, 6}}, {5}, {3}}, *%s = &%s;" % (rec, name, rec))
            return [Var(name, [("%s->a[1]" % name, False), ("%s->in.c[0]" % name, False), ("%s->w" % name, False),
                               ("sizeof *%s" % name, False)], ["%s->a[2] = 8;" % name], cuda=False),
                    Var(rec, [("%s.p.x" % rec, False)], ["%s.w = 2;" % rec])]
        if k == 3 and not any(v.name == "gw" for v in self.vars):
            self.say("extern int gw;")
            return [Var("gw", [("gw", False)], ["gw += 5;"], addr="gw", cuda=False)]
        if k == 4:
            self.say("unsigned /* not ; { */ long %s =  // a comment" % name)
            self.say("  %d, /* , */ %sb = 2;" % (self.small(0, 99), name))
            return [Var(name, [(name, False)], ["%s = 1;" % name]), Var(name + "b", [(name + "b", False)])]
        if k == 5:
            self.say("bytes4 %s = {1, 2, 254, 255};" % name)
            return [self.array_var(name, [4], False)]
        self.say('static const char *const %s[] = {"ab", "cde", "f"};' % name)
        return [Var(name, [("%s[1][2]" % name, False), ("sizeof %s / sizeof *%s" % (name, name), False)],
                    cuda=False)]

    def named_like(self):
        """a local named like a member, a typedef or a function at file
        scope, declared last (it hides the file's name from then on)"""
        r = self.rng
        free = [w for w in ["x", "y", "a", "u", "w", "in", "tri", "pt", "twice", "cstr", "q"]
                if w not in self.taken]
        if not free:
            return
        name = r.choice(free)
        self.taken.add(name)
        self.say("%s %s = %d;" % (r.choice(["int", "long", "double"]), name, self.small(0, 50)))
        self.vars = [v for v in self.vars if v.name != name]
        v = Var(name, [(name, True)], ["%s = 3;" % name])
        v.depth = self.depth
        self.vars.append(v)

    def declare(self):
        r = self.rng
        k = r.random()
        for limit, f in [(0.25, self.scalar), (0.33, self.pointer), (0.5, self.array), (0.6, self.typedef_array),
                         (0.7, self.record), (0.77, self.several), (0.88, self.literal), (1.0, self.indirect)]:
            if k < limit:
                new = f()
                for v in new:
                    v.depth = self.depth
                self.vars += new
                return

    def modify(self):
        """a statement that changes a local (or a VLA's size variable)
        between its declaration and the detour"""
        ws = [w for v in self.vars for w in v.writes]
        if ws:
            # under a control statement too: a statement that begins with a keyword
            # ("else gv = 4;", "do n = 5; while (0);") declares nothing
            self.say(self.rng.choice(["%s", "%s", "if (n > 0) %s else %s", "if (n < 0) {} else %s",
                                      "do %s while (0);", "switch (n) { case E2: %s break; default: %s }",
                                      "if (n < -100) return; else %s"]).replace("%s", self.rng.choice(ws)))

    def shadow(self):
        """a name declared again in an inner block: the inner one counts"""
        # (C++ does not let the block of a for declare its header's names again)
        here = {v.name for v in self.vars if getattr(v, "depth", 0) >= self.depth}
        olds = [v for v in self.vars if v.name not in ("n", "m") and getattr(v, "depth", 0) < self.depth
                and v.name not in here and not (self.kind == "cuda" and getattr(v, "for_header", False))]
        if not olds:
            return
        old = self.rng.choice(olds)
        t = self.rng.choice(["double", "int", "unsigned char"])
        value = self.small(0, 9)
        self.say("%s %s = %d;" % (t, old.name, value))
        self.vars.remove(old)
        new = Var(old.name, [(old.name, t == "double")], ["%s = 1;" % old.name], addr=old.name if t == "int" else None)
        new.depth = self.depth
        self.vars.append(new)

    def generate(self):
        r = self.rng
        if self.params:           # parameters declared arrays (C makes them pointers), a struct, a string
            self.lines.append("static void case_%d(int n, int m, int pa[static M3], double pb[const][2], int pv[n][m], "
                              "struct pt sp, register const char *str)" % self.idx)
        else:
            self.lines.append("static void case_%d(int n, int m)" % self.idx)
        self.lines.append("{")
        self.say("(void)n, (void)m;")
        # n and m size arrays: changed only by the body and "n = 5" after the declarations
        self.vars = [Var("n", [("n", False)]), Var("m", [("m", False)])]
        if self.params:
            self.vars += [Var("pa", [("pa[1]", False), ("*pa", False)], ["pa[2] += 1;"], cuda=False),
                          Var("pb", [("pb[1][0]", True), ("sizeof pb[0]", False)], ["pb[0][1] = 7;"], cuda=False),
                          Var("pv", [("pv[1][2]", False), ("sizeof pv[0]", False), ("sizeof *pv / sizeof **pv", False)],
                              ["pv[0][2] = 8;"], cuda=False),
                          Var("sp", [("sp.y", False), ("sizeof sp", False)], ["sp.x = 3;"]),
                          Var("str", [("str[1]", False)], cuda=False)]
        if r.random() < 0.3:      # a closed block's name, declared again after it
            self.say("{ double gv = 1.5; (void)gv; }")
        if r.random() < 0.3:      # a local shadowing a global
            self.say("int gv = %d;" % self.small())
            self.vars.append(Var("gv", [("gv", False)], ["gv = 3;"], addr="gv"))
        else:                     # the global (host memory: no cuda body reads it)
            self.vars.append(Var("gv", [("gv", False)], ["gv = 4;"], addr="gv", cuda=False))
        for _ in range(r.randrange(2, 9)):
            if r.random() < 0.15:  # a macro call that brings its own ';', then a declaration
                self.say("NOTE(%d)" % self.small())
            if r.random() < 0.1:   # a product, which C reads so where its first name is an object
                self.say("n * gv;")
            self.declare()
            if r.random() < 0.25:
                self.modify()
        opened = []
        for _ in range(r.choice([0, 0, 1, 2])):
            k = r.random()
            close = "}"
            if k < 0.3:
                self.say("{")
            elif k < 0.4:
                self.say("if (n > 0) {")
            elif k < 0.45:
                self.say("while (m > 0) {")
                close = "break; }"
            elif k < 0.5:
                self.say("do {")
                close = "} while (0);"
            elif k < 0.55:
                self.say("switch (n) { case 2: {")
                close = "} }"
            else:
                i = self.name()
                self.say("for (int %s = %d, %sb = 1; %s < %d; %s++) {" % (i, 2, i, i, 3, i))
                header = [Var(i, [(i, False)], []), Var(i + "b", [(i + "b", False)], ["%sb = 5;" % i])]
                for v in header:
                    v.for_header = True
                self.vars += header
            self.depth += 1
            opened.append(close)
            for _ in range(r.randrange(0, 3)):
                self.declare()
            if r.random() < 0.5:
                self.shadow()
            if r.random() < 0.3:
                self.modify()
        for _ in range(r.choice([0, 0, 1, 2])):
            self.named_like()
        if r.random() < 0.2:      # n changes: the arrays sized by it keep their extents
            self.say("n = 5;")
        later = "gw" not in self.taken and not any(v.name == "gw" for v in self.vars) and r.random() < 0.3
        if later:
            self.vars.append(Var("gw", [("gw", False)], ["gw = 9;"], addr="gw", cuda=False))
        vs = self.vars if self.kind != "cuda" else [v for v in self.vars if v.cuda]
        used = r.sample(vs, min(len(vs), r.randrange(1, 8)))
        if self.tarray == "PL":   # a thread array of the function, sized by its local
            self.say("int tk%d = %d;" % (self.idx, r.choice([1, 2, 3])))
            self.say("@ARRAY@")
            if r.random() < 0.5:
                self.say("tk%d = 2;" % self.idx)
        self.say("@DETOUR@")
        self.depth += 1
        self.say("if (@TID@ == 0) {")
        self.depth += 1
        self.say("unsigned long long h = 1;")
        if self.tarray == "PQ":
            self.say("MIX(h, q);")
        if r.random() < 0.2 and self.kind != "cuda":   # the body's own declaration shadows a local
            own = r.choice(vs)
            if " " not in own.name and own.name not in ("n", "m"):
                self.say("int %s = 77;" % own.name)
                self.say("MIX(h, %s);" % own.name)
                vs = [v for v in vs if v is not own]
                used = [v for v in used if v is not own]
        written = []
        # a detour in the body (thread 0 forks one more thread), which sees
        # the body's own h and q and the function's locals
        inner = r.randrange(len(used)) if used and self.kind != "cuda" and r.random() < 0.2 else -1
        for k, v in enumerate(used):
            if k == inner:
                self.say("@INNER@")
                self.depth += 1
            for text, floating in r.sample(v.reads, min(len(v.reads), r.randrange(1, 4))):
                if floating is None:
                    self.say(text)
                else:
                    self.say("MIX%s(h, %s);" % ("F" if floating else "", text))
            if v.writes and self.kind != "cuda" and r.random() < 0.4:
                self.say(r.choice(v.writes))
                written.append(v)
            if r.random() < 0.15 and v.name not in ("n", "m", "q"):
                # the body's own v in a block or a for header, the caller's around it
                if r.random() < 0.5:
                    self.say("{ long %s = %d; MIX(h, %s); }" % (v.name, self.small(), v.name))
                else:
                    self.say("for (int %s = 0; %s < 2; %s++) MIX(h, %s * 3);" % ((v.name,) * 4))
                self.say("MIX%s(h, %s);" % ("F" if v.reads[0][1] else "", v.reads[0][0]))
        late = [v for v in used if v.name.startswith("v") and v not in written]
        late = r.choice(late) if late and r.random() < 0.15 else None
        if late:                   # the body's own, declared after it read the caller's
            self.say("long %s = %d;" % (late.name, self.small()))
            self.say("MIX(h, %s);" % late.name)
        named = [v for v in used if v.name.startswith("v")]
        if named and r.random() < 0.1:     # a label named like a local is no use of it
            lab = r.choice(named).name
            self.say("if (h) goto %s;" % lab)
            self.say("MIX(h, 5);")
            self.say("%s: MIX(h, 6);" % lab)
        if r.random() < 0.1 and self.kind != "cuda":    # struct tags are no uses of locals named like them
            self.say("{ struct pt pt_ = {1, 2}; struct rec *rec_ = 0; MIX(h, pt_.y + (rec_ == 0)); }")
        if inner >= 0:
            self.depth -= 1
            self.say("}")
        self.say("cap_out = h;")
        self.depth -= 1
        self.say("}")
        if late and r.random() < 0.5:
            # ... at the body's top level, beside the capture (a kernel's parameter in cuda)
            self.say("long %s = 1; (void)%s;" % (late.name, late.name))
        self.depth -= 1
        self.say("}")
        self.say("unsigned long long after = 1;")
        for v in written:
            for text, floating in v.reads:
                if floating is not None:
                    self.say("MIX%s(after, %s);" % ("F" if floating else "", text))
        shown = "cap_out" if self.kind != "cuda" else "0ull"   # host code cannot read a __device__ variable
        self.say('printf("%d %%llu %%llu\\n", %s, after);' % (self.idx, shown))
        if later:                  # declared after the detour: the body saw the file's gw
            self.say("int gw = 1; (void)gw;")
        for close in reversed(opened):
            self.depth -= 1
            self.say(close)
        self.lines.append("}")


# X1: the other CPU kind, for a detour in a body (omp in pthd, pthd in omp)
ARRAYS = {"pthd": ["#parray {pthd [1]} P1", "#parray {pthd [2]} P2", "#parray {pthd(int q) [2]} PQ",
                   "#parray {omp [1]} X1"],
          "omp": ["#parray {omp [1]} P1", "#parray {omp [2]} P2", "#parray {omp(int q) [2]} PQ",
                  "#parray {pthd [1]} X1"],
          "cuda": ["#parray {cuda [1]} P1", "#parray {cuda [2]} P2", "#parray {cuda(int q) [2]} PQ"]}


def program(cases, kind, reference):
    """the .pa of cases (or the reference C: the same lines, the detours
    plain blocks)"""
    out = PRELUDE.splitlines()
    if kind == "cuda":
        out.append("__device__ unsigned long long cap_out;")
    else:
        out.append("static unsigned long long cap_out;")
    for a in ARRAYS[kind]:
        out.append("" if reference else a)
    where = {}
    for c in cases:
        first = len(out) + 1
        for line in c.lines:
            if "@DETOUR@" in line:
                head = {"P1": "#detour P1 {", "P2": "#detour P2 {", "PQ": "#detour PQ(n + 1) {",
                        "PL": "#detour PL%d {" % c.idx}[c.tarray]
                plain = "{ int q = n + 1;" if c.tarray == "PQ" else "{"
                line = line.replace("@DETOUR@", plain if reference else head)
            if "@ARRAY@" in line:
                kind_word = ARRAYS[kind][0].split()[1][1:]
                line = line.replace("@ARRAY@", "" if reference else
                                    "#parray {%s [tk%d][1]} PL%d" % (kind_word, c.idx, c.idx))
            line = line.replace("@INNER@", "{" if reference else "#detour %s {" % c.inner_array)
            out.append(line.replace("@TID@", "0" if reference else "$tid$"))
        where[c.idx] = (first, len(out))
    out.append("int main(void)")
    out.append("{")
    out += ['  case_%d(2, 3%s);' % (c.idx, ', ga, gb, gvv, (struct pt){1, 2}, "str"' if c.params else "")
            for c in cases]
    out += ["  return 0;", "}"]
    return "\n".join(out) + "\n", where


def make_case(seed, kind, idx):
    rng = random.Random("%d-%s-%d" % (seed, kind, idx))
    c = Case(rng, idx, kind)
    c.tarray = rng.choice(["P1", "P2", "PQ", "PL"])
    c.params = rng.random() < 0.3 and kind != "cuda"
    c.inner_array = rng.choice(["P1", "X1"])
    c.generate()
    return c


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


WARNING = re.compile(r"^(.*?):(\d+):(?:\d+:)? warning: (.*?)(?: \[(-W[^\]]*)\])?$")


def warnings(stderr, name):
    """(line, kind) of each warning about file name; the others unplaced"""
    placed, unplaced = set(), []
    for line in stderr.splitlines():
        m = WARNING.match(line)
        if not m:
            continue
        if os.path.basename(m.group(1)) == name:
            placed.add((int(m.group(2)), m.group(4) or m.group(3)))
        else:
            unplaced.append(line)
    return placed, unplaced


FLAGS = ["-O0", "-Wall", "-Wextra", "-Wno-unused-variable", "-Wno-unused-but-set-variable"]


def check(args, kind, cases, work, tag):
    """the cases' failures: (case index or None, what went wrong)"""
    ref_src, where = program(cases, kind, True)
    pa_src, _ = program(cases, kind, False)
    ref_c = os.path.join(work, "ref_%s.c" % tag)
    pa = os.path.join(work, "cap_%s.pa" % tag)
    with open(ref_c, "w") as f:
        f.write(ref_src)
    with open(pa, "w") as f:
        f.write(pa_src)
    exe = os.path.join(work, "ref_%s" % tag)
    extra = {"omp": ["-fopenmp"], "pthd": ["-fopenmp"], "cuda": ["-D__device__=", "-Dalignas=_Alignas"]}[kind]
    p = run([args.cc, "-std=gnu11", *FLAGS, *extra, ref_c, "-o", exe])
    if p.returncode:
        raise SystemExit("capture_diff: cc rejects the reference program %s:\n%s" % (ref_c, p.stderr[-3000:]))
    ref_warn, _ = warnings(p.stderr, os.path.basename(ref_c))
    want = run([exe]).stdout.splitlines() if kind != "cuda" else []

    def case_of(line):
        return next((k for k, (a, b) in where.items() if a <= line <= b), None)

    env = dict(os.environ, CC=args.cc)
    if kind == "cuda":
        env["NVCC"] = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    out = os.path.join(work, "cap_%s" % tag)
    cmd = [args.parrayc, "--build", *FLAGS, "-save-temps=obj", pa, "-o", out]
    if kind == "cuda":
        cmd = [args.parrayc, "-c", "-Xcompiler=-Wall,-Wextra", "-save-temps=obj", pa, "-o", out + ".o"]
    p = run(cmd, env=env)
    fails = []
    got_warn, unplaced = warnings(p.stderr, os.path.basename(pa))
    if kind == "cuda":     # C++'s warnings are not C's: only the errors count
        got_warn, unplaced = set(), []
    for line, w in sorted(got_warn - ref_warn):
        fails.append((case_of(line), "new warning at line %d: %s" % (line, w)))
    for u in unplaced:
        fails.append((None, "warning: " + u))
    if p.returncode:
        errors = [ln for ln in p.stderr.splitlines() if "error" in ln]
        placed = False
        for e in errors:
            m = re.match(r".*cap_%s\.pa:(\d+):" % tag, e)
            if m:
                fails.append((case_of(int(m.group(1))), e))
                placed = True
        if not placed:
            fails.append((None, "the build failed: " + "; ".join(errors[:5] or [p.stderr[-500:]])))
        return fails
    if kind == "cuda":
        return fails
    r = run([out], timeout=60)
    got = r.stdout.splitlines()
    if r.returncode:
        fails.append((None, "the program exited with %d: %s" % (r.returncode, r.stderr[-300:])))
    mine = {ln.split()[0]: ln for ln in got}
    for ln in want:
        idx = ln.split()[0]
        if mine.get(idx) != ln:
            fails.append((int(idx), "printed %r, cc's block prints %r" % (mine.get(idx), ln)))
    return fails


def reproducer(work, kind, c, why):
    src, _ = program([c], kind, False)
    path = os.path.join(work, "repro_%s_%d.pa" % (kind, c.idx))
    with open(path, "w") as f:
        f.write("// capture_diff: %s\n" % why.replace("\n", " "))
        f.write("// run: parrayc --run -Wall -Wextra %s\n" % os.path.basename(path))
        f.write(src)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parrayc")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--dir", default=None)
    ap.add_argument("--kinds", default="pthd,omp")
    ap.add_argument("--batch", type=int, default=50, help="cases in one program")
    args = ap.parse_args()
    args.parrayc = os.path.abspath(args.parrayc) if os.sep in args.parrayc else args.parrayc
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    work = args.dir or tempfile.mkdtemp(prefix="capture_diff.")
    os.makedirs(work, exist_ok=True)
    bad = 0
    for kind in args.kinds.split(","):
        nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if kind == "cuda" and not shutil.which(nvcc):
            print("capture_diff: cuda skipped: no nvcc (NVCC, PATH, /usr/local/cuda/bin)")
            continue
        cases = [make_case(seed, kind, i) for i in range(args.cases)]
        failures = []
        for b in range(0, len(cases), args.batch):
            batch = cases[b:b + args.batch]
            for attempt in range(5):    # the cases the build rejects set aside, the others run
                fails = check(args, kind, batch, work, "%s%d" % (kind, b))
                rejected = {k for k, why in fails if k is not None and "error" in why}
                if not rejected or len(rejected) == len(batch):
                    break
                failures += [f for f in fails if f[0] in rejected]
                batch = [c for c in batch if c.idx not in rejected]
            if any(k is None for k, _ in fails):     # not placed: each case alone
                fails = [f for f in fails if f[0] is not None]
                for c in batch:
                    if not any(k == c.idx for k, _ in fails):
                        fails += [(c.idx, why) for _, why in check(args, kind, [c], work, "%s_one" % kind)]
            failures += fails
        print("capture_diff: seed %d, %s: %d cases, %d failures" % (seed, kind, len(cases), len(failures)))
        shown = set()
        for k, why in failures:
            if k is None or k in shown or len(shown) >= 10:
                continue
            shown.add(k)
            print("  case %d: %s\n    reproducer: %s" % (k, why, reproducer(work, kind, cases[k], why)))
        bad += len(failures)
    if bad:
        print("capture_diff: FAILED (seed %d; rerun with --seed %d --dir DIR)" % (seed, seed))
        return 1
    if not args.dir:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
