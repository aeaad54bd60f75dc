#!/usr/bin/env python3
"""ceval_diff.py: parrayc's folding of C integer constant expressions
against the C compiler's, on random expressions (issue 50).

    python3 tests/ceval_diff.py PARRAYC [--seed S] [--cases N] [--cc CC] [--dir D]

A seeded generator writes integer constant expressions (casts, mixed
signedness, shifts, / and % of negatives, character constants, macros of
the program and of -D/-U, continued lines) and uses each three ways:

  if     as an #if condition choosing between two #parray of one name:
         parrayc's choice ($dim$) against the branch cc's preprocessor takes;
  size   as the size of a dimension: parrayc's $dim$ against cc's value
         of the same text with every operand widened to long long (the
         size rule of SPEC 2.5 / doc/language.md);
  index  as a constant $...$ index: parrayc's folded offset (or its
         range error) against cc's value of the text in C's own types.

The reference values come from cc alone, compiling the same text; cases
on which cc warns of something C leaves undefined (overflow, a shift past
the width, division by zero) are left out: there is no value to compare.
A mismatch prints the seed and writes a one-file reproducer (a .pa with
that case and the value cc gives) into the work folder; exit status 1.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

INT_TYPES = ["char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned",
             "long", "unsigned long", "long long", "unsigned long long", "_Bool"]
CHARS = ["'a'", "'0'", "'\\n'", "'\\0'", "'\\''", "'\\\\'", "'\\x7f'", "'\\xff'", "'\\x80'", "'\\177'",
         "'\\200'", "'\\377'", "'ab'", "'\\xff\\x01'", "'abcd'", "'\\e'", "'\"'", "'?'", "L'a'", "L'\\xff'"]
BIN = ["+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||"]
SPACES = [" ", "  ", "\t"]


class Gen:
    def __init__(self, rng, mode, macros, names=True):
        self.rng, self.mode, self.macros, self.names = rng, mode, macros, names

    def number(self):
        r = self.rng
        v = r.choice([0, 1, 2, 3, 7, 10, 31, 32, 63, 64, 100, 127, 128, 255, 256, 1000, 32767, 32768, 65535,
                      65536, 2147483647, 2147483648, 4294967295, 4294967296, 9223372036854775807,
                      r.randrange(0, 100), r.randrange(0, 1 << 16), r.randrange(0, 1 << 33)])
        suffix = r.choice(["", "", "", "u", "U", "l", "L", "ul", "UL", "lu", "ll", "LL", "ull", "LLU"])
        form = r.choice(["dec", "dec", "hex", "oct", "bin"]) if v else "dec"
        if form == "dec" and v > 9223372036854775807 and "u" not in suffix.lower():
            suffix += "u"
        text = {"dec": str(v), "hex": hex(v), "oct": "0" + oct(v)[2:], "bin": bin(v)}[form]
        return ("leaf", text + suffix)

    def leaf(self):
        r = self.rng
        k = r.random()
        if k < 0.55:
            return self.number()
        if k < 0.75:
            return ("leaf", r.choice(CHARS))
        if k < 0.95 and self.macros:
            return ("macro", r.choice(self.macros))
        if self.mode == "if" and self.names:
            return ("leaf", r.choice(["defined(DM1)", "defined DM3", "defined(UNDEFINED_NAME)", "UNDEFINED_NAME"]))
        if self.mode != "if" and r.random() < 0.5:
            # in range: a floating value its type cannot hold is undefined
            f = r.choice(["3.75", "-2.5", "255.9", "1e3", "0.5f", "0x1p4"])
            fits = {"3.75": 1, "-2.5": 0, "255.9": 1, "1e3": 2, "0.5f": 1, "0x1p4": 1}[f]
            types = [["int", "long", "_Bool", "signed char"], ["int", "long", "_Bool", "unsigned char", "unsigned"],
                     ["int", "long", "_Bool", "unsigned", "short"]][fits]
            return ("cast", r.choice(types), ("float", f))
        return self.number()

    def expr(self, depth):
        r = self.rng
        if depth == 0 or r.random() < 0.25:
            return self.leaf()
        k = r.random()
        if k < 0.2:
            return ("un", r.choice(["-", "+", "~", "!"]), self.expr(depth - 1))
        if k < 0.35 and self.mode != "if":
            return ("cast", r.choice(INT_TYPES), self.expr(depth - 1))
        if k < 0.45:
            return ("cond", self.expr(depth - 1), self.expr(depth - 1), self.expr(depth - 1))
        op = r.choice(BIN)
        right = self.expr(depth - 1)
        if op in ("<<", ">>") and r.random() < 0.7:
            right = ("leaf", str(r.randrange(0, 40)))
        return ("bin", op, self.expr(depth - 1), right)


def uses_macro(t):
    return t[0] == "macro" or any(isinstance(x, tuple) and uses_macro(x) for x in t[1:])


def show(t, macros_text, widen=False):
    """t as C text; widen: every operand (a number, a character constant, a
    cast's result) converted to long long, macros replaced by their trees;
    widen "run": each operation's result kept in a volatile too, so that
    cc computes it at run time (and UBSan sees its overflow)"""
    k = t[0]
    if k == "leaf":
        if widen and not t[1].startswith("defined"):
            return "PA_WIDE(%s)" % t[1]
        return t[1]
    if k == "float":
        return t[1]
    if k == "macro":
        return show(macros_text[t[1]], macros_text, widen) if widen else t[1]
    if k == "un":
        return "%s(%s)" % (t[1], show(t[2], macros_text, widen))
    if k == "cast":
        inner = "(%s)(%s)" % (t[1], show(t[2], macros_text, widen))
        return "PA_WIDE(%s)" % inner if widen else inner
    if k == "cond":
        return "(%s ? %s : %s)" % tuple(show(x, macros_text, widen) for x in t[1:])
    text = "(%s %s %s)" % (show(t[2], macros_text, widen), t[1], show(t[3], macros_text, widen))
    return "PA_STEP(%s)" % text if widen == "run" else text


def continued(rng, text):
    """text with some of its blanks turned into continued lines"""
    out = []
    for ch in text:
        if ch == " " and rng.random() < 0.1:
            out.append(" \\\n    ")
        else:
            out.append(ch)
    return "".join(out)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


UNDEFINED = re.compile(r"overflow|shift count|shift-count|division by zero|out of range|so large|too large|"
                       r"too long|is negative|width of type|requires \d+ bits|not an integer constant|"
                       r"is not a constant|unsigned only|shift-negative|left shift of negative|"
                       r"overflow in conversion|changes value", re.I)


def diagnosed_lines(stderr, name):
    """the lines of file name on which cc reports something undefined or an
    error, or notes the expansion of a macro where it does"""
    bad, current = set(), False
    for line in stderr.splitlines():
        m = re.match(r"(.*?):(?:(\d+):)?(?:\d+:)? (warning|error|note)(.*)", line)
        if not m:
            continue
        if m.group(3) != "note":
            current = m.group(3) == "error" or bool(UNDEFINED.search(m.group(4)))
        if current and m.group(2) and os.path.basename(m.group(1)) == name:
            bad.add(int(m.group(2)))
    return bad


class Lines(list):
    """source lines (an entry may hold continued lines) and their count"""
    def __init__(self, *first):
        super().__init__()
        self.count = 0
        for x in first:
            self.append(x)

    def append(self, text):
        super().append(text)
        self.count += text.count("\n") + 1

    def __iadd__(self, more):
        for x in more:
            self.append(x)
        return self


class Case:
    def __init__(self, idx, tree, text):
        self.idx, self.tree, self.text = idx, tree, text
        self.lines = (0, 0)  # first and last line in the reference file
        self.ref = None


def macro_defs(rng, mode):
    """program macros (a number or a parenthesised expression each) and the
    command line's -D/-U, the same for cc and parrayc"""
    names = ["PM%d" % i for i in range(4)]
    trees, lines = {}, []
    g = Gen(rng, mode, [], names=False)
    for n in names:
        t = g.expr(1)
        if t[0] != "leaf":
            t = ("un", "+", t) if rng.random() < 0.2 else t
        text = show(t, {})
        if t[0] != "leaf":
            text = "(%s)" % text
            t = ("paren", t)
        trees[n] = t
        lines.append("#define %s %s" % (n, text))
    flags = ["-DDM1=5", "-DDM2=0x10u", "-UDM3", "-DDM3=-7", "-DDM4", "-UDM4", "-DDM5='z'"]
    trees.update({"DM1": ("leaf", "5"), "DM2": ("leaf", "0x10u"), "DM3": ("leaf", "-7"), "DM5": ("leaf", "'z'")})
    for k, v in list(trees.items()):
        if v[0] == "paren":
            trees[k] = v[1]
    return lines, flags, trees


# an operand narrower than 64 bits as long long, a 64-bit one as it is
# (long as long long: the same values), the type chosen by cc
WIDE = '#define PA_WIDE(x) ((__typeof__(0LL + (x)))(x))\n'
PRINT = ('#define PA_UNSIGNED(e) _Generic((e), unsigned long: 1, unsigned long long: 1, unsigned: 1, default: 0)\n'
         '#define PA_PRINT(k, e) printf("%d %s %s\\n", k, PA_UNSIGNED(e) ? "u" : "s", '
         'PA_UNSIGNED(e) ? ulltoa_((unsigned long long)(e)) : lltoa_((long long)(e)))\n')
HELPERS = ('static char buf_[32];\n'
           'static const char *ulltoa_(unsigned long long v) { sprintf(buf_, "%llu", v); return buf_; }\n'
           'static const char *lltoa_(long long v) { sprintf(buf_, "%lld", v); return buf_; }\n')


def reference(cc, work, mode, cases, defines, flags):
    """cc's value of each case (None where cc reports it undefined)"""
    for attempt in range(10):
        live = [c for c in cases if c.ref is None and not getattr(c, "dropped", False)]
        src = Lines("#include <stdio.h>", *defines)
        if mode == "if":
            for c in live:
                first = src.count + 1
                src.append("#if " + c.text)
                src.append("#define R%d 1" % c.idx)
                src.append("#else")
                src.append("#define R%d 0" % c.idx)
                src.append("#endif")
                c.lines = (first, first + c.text.count("\n"))
            src.append(HELPERS + PRINT + "int main(void) {")
            src += ["  PA_PRINT(%d, R%d);" % (c.idx, c.idx) for c in live]
        else:
            src.append(HELPERS + WIDE + PRINT + "int main(void) {")
            for c in live:
                text = show(c.tree, c.macros, widen=True) if mode == "size" else c.text
                src.append("  { static const __typeof__(%s) v = %s; PA_PRINT(%d, v); }" % (text, text, c.idx))
                c.lines = (src.count, src.count)
        src.append("  return 0;\n}")
        path = os.path.join(work, "ref_%s.c" % mode)
        with open(path, "w") as f:
            f.write("\n".join(src) + "\n")
        exe = os.path.join(work, "ref_%s" % mode)
        p = run([cc, "-std=gnu11", "-w" if False else "-Wall", "-Wextra", "-Woverflow", "-Wshift-overflow=2",
                 "-Wshift-count-overflow", "-Wshift-negative-value", "-Wno-unused", "-Wno-multichar",
                 "-Wno-sign-compare", "-Wno-bool-operation", "-Wno-int-in-bool-context", "-Wno-parentheses",
                 "-Wno-type-limits", "-Wno-tautological-compare", "-Wno-bool-compare", *flags, path, "-o", exe])
        bad = diagnosed_lines(p.stderr, os.path.basename(path))
        for c in live:
            if any(c.lines[0] <= ln <= c.lines[1] for ln in bad):
                c.dropped = True
        if p.returncode == 0:
            out = run([exe]).stdout
            for line in out.splitlines():
                k, s, v = line.split()
                c = cases[int(k)]
                if not getattr(c, "dropped", False):
                    c.ref = (s, int(v))
            return
    errors = [line for line in p.stderr.splitlines() if ": error:" in line]
    raise SystemExit("ceval_diff: cc rejects the reference program:\n" + "\n".join(errors[:20]))


def pa_program(mode, cases, defines):
    """the .pa with every case, and the line of each"""
    src = Lines("#include <stdio.h>", *defines)
    where = {}
    if mode == "index":
        src.append("#parray {paged char [4611686018427387904]} X")
    for c in cases:
        if mode == "if":
            first = src.count + 1
            src += ["#if " + c.text, "#parray {paged int [2]} T%d" % c.idx, "#else",
                    "#parray {paged int [3]} T%d" % c.idx, "#endif"]
            where[c.idx] = (first, src.count)
        elif mode == "size":
            src.append("#parray {paged char [%s]} S%d" % (c.text, c.idx))
            where[c.idx] = (src.count, src.count)
    src.append("int main(void) {")
    for c in cases:
        if mode == "if":
            src.append('  printf("%d %%d\\n", $dim(T%d)$);' % (c.idx, c.idx))
        elif mode == "size":
            src.append('  printf("%d %%lld\\n", (long long)$dim(S%d)$);' % (c.idx, c.idx))
        else:
            src.append('  printf("%d %%lld\\n", (long long)$X[%s]$);' % (c.idx, c.text))
            where[c.idx] = (src.count, src.count)
    src += ["  return 0;", "}"]
    return "\n".join(src) + "\n", where


def expected(mode, c):
    """what parrayc must print for case c, or 'error'"""
    s, v = c.ref
    if mode == "if":
        return 2 if v else 3
    if mode == "size":
        return v if 0 < v < (1 << 62) else "error"
    return v if 0 <= v < (1 << 62) else "error"


def check_mode(args, rng, mode, work):
    defines, flags, trees = macro_defs(rng, mode)
    # a size naming a macro is the C compiler's to fold (cc may be given
    # other values): parrayc folds sizes of constants
    g = Gen(rng, mode, [] if mode == "size" else list(trees))
    cases = []
    for i in range(args.cases):
        t = g.expr(rng.randrange(1, 5))
        text = show(t, trees)
        if mode == "if":
            text = continued(rng, text)
        c = Case(i, t, text)
        c.macros = trees
        cases.append(c)
    reference(args.cc, work, mode, cases, defines, flags)
    live = [c for c in cases if c.ref is not None]
    failures = []
    for attempt in range(4):
        src, where = pa_program(mode, live, defines)
        pa = os.path.join(work, "cases_%s.pa" % mode)
        with open(pa, "w") as f:
            f.write(src)
        exe = os.path.join(work, "cases_%s" % mode)
        p = run([args.parrayc, "--build", pa, "-o", exe, "-ferror-limit=0", "-w", *flags])
        errors = {}
        for line in p.stderr.splitlines():
            m = re.match(r".*cases_%s\.pa:(\d+):\d+: error: (.*)" % mode, line)
            if m:
                errors.setdefault(int(m.group(1)), m.group(2))
        if p.returncode != 0 and not errors:
            raise SystemExit("ceval_diff: parrayc --build failed without a located error:\n" + p.stderr[-3000:])
        keep = []
        for c in live:
            first, last = where[c.idx]
            err = next((errors[ln] for ln in errors if first <= ln <= last), None)
            want = expected(mode, c)
            if err is None:
                keep.append(c)
            elif want != "error" and not (mode == "size" and "64-bit" in err and overflows(args.cc, work, c)):
                failures.append((c, "parrayc: error: " + err, want))
        if not errors:
            out = run([exe]).stdout.split("\n")
            got = dict(line.split() for line in out if line)
            for c in keep:
                want = expected(mode, c)
                have = got.get(str(c.idx))
                if want == "error" and mode == "size" and c.ref[1] >= (1 << 62) and have == str(c.ref[1]):
                    continue  # a large size parrayc takes: the type's own limits
                if want == "error" and mode == "size" and have == str(c.ref[1]) and \
                        overflows(args.cc, work, c, "signed-integer-overflow,shift"):
                    continue  # undefined in C, so left to the C compiler (doc/language.md), as cc values it
                if want == "error":
                    # an index of macros (which cc may be given other values
                    # of) or past LLONG_MAX is left to the C compiler
                    if mode == "index" and (c.ref[1] >= (1 << 63) or uses_macro(c.tree)) and \
                            have == str(c.ref[1] - (1 << 64 if c.ref[1] >= (1 << 63) else 0)):
                        continue
                    failures.append((c, "printed %s, no error" % have, want))
                elif have != str(want):
                    failures.append((c, "printed %s" % have, want))
            return failures, len(live)
        live = keep
    raise SystemExit("ceval_diff: parrayc kept reporting errors: " + "; ".join(
        "%d: %s" % kv for kv in sorted(errors.items())[:10]))


def overflows(cc, work, c, checks="signed-integer-overflow"):
    """does case c's widened size overflow in 64 bits (with checks
    "signed-integer-overflow,shift": or shift a negative value, or by a
    count past the width), computed at run time under UBSan?  (cc folding a
    constant may lose its warning under a conversion: (unsigned
    char)(-2 * LLONG_MAX) warns of nothing, nor does (int)(-2.5) << 14)"""
    wide = show(c.tree, c.macros, widen="run")
    path = os.path.join(work, "undefined_%d.c" % c.idx)
    with open(path, "w") as f:
        f.write("#define PA_WIDE(x) ({ volatile __typeof__(0LL + (x)) w_ = (x); w_; })\n"
                "#define PA_STEP(x) ({ volatile __typeof__(x) s_ = (x); s_; })\n"
                "int main(void) { volatile long long sink = (long long)(%s); (void)sink; return 0; }\n" % wide)
    exe = path[:-2]
    if run([cc, "-std=gnu11", "-w", "-fsanitize=" + checks, path, "-o", exe]).returncode:
        return False
    return "runtime error" in run([exe]).stderr


def reproducer(work, mode, c, flags, defines, got, want):
    src, _ = pa_program(mode, [c], defines)
    path = os.path.join(work, "repro_%s_%d.pa" % (mode, c.idx))
    with open(path, "w") as f:
        f.write("// ceval_diff: mode %s, expression as cc values it: %s %s\n" % (mode, *c.ref))
        f.write("// parrayc %s; expected %s\n" % (got, want))
        f.write("// run: parrayc --run %s %s\n" % (os.path.basename(path), " ".join(flags)))
        f.write(src)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parrayc")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cases", type=int, default=700)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--dir", default=None)
    ap.add_argument("--modes", default="if,size,index")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    work = args.dir or tempfile.mkdtemp(prefix="ceval_diff.")
    os.makedirs(work, exist_ok=True)
    bad = 0
    for mode in args.modes.split(","):
        rng = random.Random("%d-%s" % (seed, mode))
        failures, n = check_mode(args, rng, mode, work)
        defines, flags, _ = macro_defs(random.Random("%d-%s" % (seed, mode)), mode)
        print("ceval_diff: seed %d, %s: %d cases compared with %s, %d differ" % (seed, mode, n, args.cc,
                                                                                   len(failures)))
        for c, got, want in failures[:10]:
            path = reproducer(work, mode, c, flags, defines, got, want)
            print("  %s: %s; cc: %s %s; expected %s (%s)" % (mode, c.text.replace("\\\n", " "), *c.ref, want,
                                                           got))
            print("    reproducer: %s" % path)
        bad += len(failures)
    if bad:
        print("ceval_diff: FAILED (seed %d; rerun with --seed %d --dir DIR)" % (seed, seed))
        return 1
    if not args.dir:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
