#!/usr/bin/env python3
"""multi_table.py OUTDIR: the scaling table of bench/multi_gpu.sh, from what it left in
OUTDIR: NAME_gG.log (what each program printed on G GPUs: multi_ref's "name,N,ms,rate"
lines, the samples' result lines) and status.txt ("NAME_gG EXIT_STATUS" per program).
Writes OUTDIR/multi.csv (every figure: name,gpus,N,ms,rate,unit), OUTDIR/multi.md (two
tables: each program's time on 1, 2, 4 ... GPUs with its speed-up over one GPU and
parallel efficiency; each comparison with its reference, target and status) and,
where matplotlib is, OUTDIR/multi_time.svg (time against GPUs), and prints multi.md.
Exits 1 when a program said WRONG, printed no result or failed; 0 otherwise.

Ratios are the reference's time over Parray's (Parray's speed as a multiple of the
reference's), both from the same GPU count of one run, or for an all-to-all, Parray's
bandwidth over the peer-copy all-to-all's.  An all-to-all counts the bytes that cross
between GPUs: of an n x n matrix by rows over G GPUs, (G-1)/G of it."""
import csv
import os
import re
import sys

NUM = r"([0-9.eE+-]+|nan|inf)"
PATTERNS = {
    "sgemm": re.compile(r"SGEMM N = (\d+) on (\d+) GPUs \((\w+)(?:, \w+)?\): scatter " + NUM + r" ms, compute " + NUM
                        + r" ms \(" + NUM + r" GFLOP/s\), gather " + NUM + r" ms; (correct|WRONG)"),
    "fft": re.compile(r"2-D FFT (\d+) x \d+ over (\d+) GPUs \((\w+)\): rows " + NUM + r" ms, all-to-all " + NUM
                      + r" ms, whole " + NUM + r" ms; pipelined in (\d+) chunks " + NUM + r" ms; output by columns "
                      + NUM + r" ms(?:, by chunks of columns " + NUM + r" ms)?; cuFFT on one GPU " + NUM
                      + r" ms; .*: (correct|WRONG)"),
    "transpose": re.compile(r"transpose of (\d+) x \d+ over (\d+) GPUs \((\w+)\): all-to-all " + NUM + r" ms, "
                            + NUM + r" GB/s \(the first call " + NUM + r" ms\); (correct|WRONG)"),
}
KINDS = {"sgemm": "sgemm", "sgemm3x": "sgemm", "fft": "fft", "fftbig": "fft", "transpose": "transpose"}
FORMS = ("pthd", "mpi")


def read_status(out):
    st = {}
    path = os.path.join(out, "status.txt")
    if os.path.exists(path):
        for line in open(path):
            w = line.split()
            if len(w) == 2:
                st[w[0]] = int(w[1])
    return st


def parse_sample(out, name):
    """(figures, why): the figures of the first result line, or None and why not"""
    path = os.path.join(out, name + ".log")
    if not os.path.exists(path):
        return None, "not run"
    kind = KINDS[name.split("_")[0]]
    found = PATTERNS[kind].findall(open(path, errors="replace").read())
    if not found:
        return None, "no result line"
    if any(f[-1] != "correct" for f in found):
        return None, "WRONG"
    f = found[0]
    # a figure the line leaves out (the FFT's by chunks of columns, before run 39) is None
    return [int(f[0]), int(f[1]), f[2]] + [float(x) if x else None for x in f[3:-1]], "correct"


def read_ref(out, name):
    ref = {}
    path = os.path.join(out, name + ".log")
    if os.path.exists(path):
        for r in csv.reader(open(path, errors="replace")):
            if len(r) == 4 and r[0] != "name" and re.match(r"^[a-z0-9_]+$", r[0]):
                ref[r[0]] = None if r[2] == "n/a" else (float(r[2]), float(r[3]))
    return ref


def ms(t):
    return "%.4g ms" % t


def main():
    out = sys.argv[1]
    status = read_status(out)
    counts = sorted({int(m.group(1)) for k in status for m in [re.search(r"_g(\d+)$", k)] if m})
    if not counts:
        counts = [1]
    failed = []
    sam = {}  # (program, form, G) -> figures
    for name, rc in sorted(status.items()):
        m = re.match(r"^(sgemm|sgemm3x|fft|fftbig|transpose)_(pthd|mpi)_g(\d+)$", name)
        if m:
            f, why = parse_sample(out, name)
            if f is None or rc != 0:
                failed.append("%s: %s%s" % (name, why, "" if rc == 0 else ", exit status %d" % rc))
            else:
                sam[(m.group(1), m.group(2), int(m.group(3)))] = f
        elif name.startswith("multi_ref") and rc != 0:
            failed.append("%s: exit status %d (see %s.log)" % (name, rc, name))
    ref = {g: read_ref(out, "multi_ref_g%d" % g) for g in counts}
    refb = {g: read_ref(out, "multi_ref_fft_g%d" % g) for g in counts}
    n = next((f[0] for (p, _, _), f in sam.items() if p != "fftbig"), int(os.environ.get("N", "16384") or 16384))
    nb = next((f[0] for (p, _, _), f in sam.items() if p == "fftbig"), None)

    def rv(table, g, name):
        v = table.get(g, {}).get(name)
        return v[0] if v else None

    rows = []   # csv
    series = []  # (label, form, {G: ms}, extra {G: text})
    for g in counts:
        for name, v in sorted(ref[g].items()):
            rows.append((name, g, n, v[0] if v else "n/a", v[1] if v else "n/a"))
        for name, v in sorted(refb[g].items()):
            rows.append((name, g, nb, v[0] if v else "n/a", v[1] if v else "n/a"))

    def add(label, form, get, unit_text=None):
        t = {g: get(g) for g in counts}
        t = {g: v for g, v in t.items() if v is not None}
        if t:
            series.append((label, form, t, unit_text))

    def s(prog, form, k):
        return lambda g: sam[(prog, form, g)][k] if (prog, form, g) in sam else None

    for form in FORMS:
        add("SGEMM N = %d, compute (data on the GPUs)" % n, form, s("sgemm", form, 4))
    for form in FORMS:
        add("SGEMM 3xTF32 (FP32 accuracy on tensor cores), compute", form, s("sgemm3x", form, 4))
    add("cuBLAS SGEMM, column blocks (pedantic FP32)", "—", lambda g: rv(ref, g, "cublas_cols_%dgpu" % g))
    def from_host(prog, form):
        return lambda g: sum(sam[(prog, form, g)][k] for k in (3, 4, 6)) if (prog, form, g) in sam else None
    for form in FORMS:
        add("SGEMM from host: scatter + compute + gather", form, from_host("sgemm", form))
    for form in FORMS:
        add("SGEMM 3xTF32 from host: scatter + compute + gather", form, from_host("sgemm3x", form))
    add("cuBLASXt from host, best tile size", "—", lambda g: rv(ref, g, "cublasxt_sgemm_%dgpu" % g))
    for prog, order, table in (("fft", n, ref), ("fftbig", nb, refb)):
        if order is None:
            continue
        for form in FORMS:
            add("2-D FFT %d, natural order, pipelined" % order, form, s(prog, form, 7))
        for form in FORMS:
            add("2-D FFT %d, output by columns, by residue classes" % order, form, s(prog, form, 8))
        for form in FORMS:
            add("2-D FFT %d, output by columns, by chunks of columns" % order, form, s(prog, form, 9))
        for form in FORMS:
            add("2-D FFT %d, one step after another" % order, form, s(prog, form, 5))
        first = min((g for g in counts if rv(table, g, "cufft_2d_1gpu") is not None), default=None)
        add("cuFFT 2-D %d on one GPU" % order, "—",
            lambda g, t=table, first=first: rv(t, first, "cufft_2d_1gpu") if g == 1 and first else None)
        add("cuFFT Xt 2-D %d (shuffled result)" % order, "—", lambda g, t=table: rv(t, g, "cufftxt_2d_%dgpu" % g))
        add("cuFFT Xt 2-D %d + reorder to natural" % order, "—",
            lambda g, t=table: rv(t, g, "cufftxt_2d_natural_%dgpu" % g))
    for form in FORMS:
        add("all-to-all, transpose %d float" % n, form, s("transpose", form, 3))
    add("peer-copy all-to-all, same bytes (float)", "—", lambda g: rv(ref, g, "p2p_a2a_%dgpu" % g))
    for form in FORMS:
        add("all-to-all, FFT %d float2" % n, form, s("fft", form, 4))
    add("peer-copy all-to-all, same bytes (float2)", "—", lambda g: rv(ref, g, "p2p_a2a_f2_%dgpu" % g))

    for label, form, t, _ in series:
        for g, v in t.items():
            rows.append(("%s [%s]" % (label, form), g, "", v, ""))

    md = ["Order N = %d%s; GPUs %s. Each cell: time (speed-up over one GPU, parallel efficiency). Parray's times "
          "are what the samples print (the mean of their timed calls); the references' are medians "
          "(bench/multi_ref.cu)." % (n, "" if nb is None else ", FFT also at %d" % nb,
                                     ", ".join(str(g) for g in counts)), "",
          "| program | form | " + " | ".join("%d GPU%s" % (g, "" if g == 1 else "s") for g in counts) + " |",
          "|---|---|" + "---|" * len(counts)]
    for label, form, t, _ in series:
        base = t.get(1)
        cells = []
        for g in counts:
            if g not in t:
                cells.append("")
            elif g == 1 or base is None:
                cells.append(ms(t[g]))
            else:
                sp = base / t[g]
                cells.append("%s (%.2fx, %.2f)" % (ms(t[g]), sp, sp / g))
        md.append("| %s | %s | %s |" % (label, form, " | ".join(cells)))

    # ---- comparisons ----
    comp = []  # (what, target, {G: (ratio, detail)})

    def ratio_row(what, target, fn):
        c = {}
        for g in counts:
            r = fn(g)
            if r is not None:
                c[g] = r
        if c:
            comp.append((what, target, c))

    def a2a(prog, form, k, size, refname, order):
        def fn(g):
            if g < 2 or (prog, form, g) not in sam or rv(ref, g, refname % g) is None:
                return None
            t = sam[(prog, form, g)][k]
            gbs = size * float(order) ** 2 * (g - 1) / g / t / 1e6
            pg = ref[g][refname % g][1]
            return gbs / pg, "%.0f / %.0f GB/s" % (gbs, pg)
        return fn

    for form in FORMS:
        ratio_row("all-to-all of the transpose (%s, float) against the peer-copy all-to-all" % form, (">=", 0.8),
                  a2a("transpose", form, 3, 4, "p2p_a2a_%dgpu", n))
    for form in FORMS:
        ratio_row("all-to-all of the FFT (%s, float2) against the peer-copy all-to-all" % form, (">=", 0.8),
                  a2a("fft", form, 4, 8, "p2p_a2a_f2_%dgpu", n))
    for form in FORMS:
        ratio_row("first all-to-all of the transpose (%s) over a later one" % form, ("<=", 1.2),
                  lambda g, form=form: (sam[("transpose", form, g)][5] / sam[("transpose", form, g)][3],
                                        "%s / %s" % (ms(sam[("transpose", form, g)][5]),
                                                     ms(sam[("transpose", form, g)][3])))
                  if g > 1 and ("transpose", form, g) in sam else None)
    for prog, order, table in (("fft", n, ref), ("fftbig", nb, refb)):
        if order is None:
            continue
        for form in FORMS:
            def vs(g, k, name, form=form, prog=prog, table=table):
                r = rv(table, g, name % g)
                if g < 2 or (prog, form, g) not in sam or r is None or sam[(prog, form, g)][k] is None:
                    return None
                return r / sam[(prog, form, g)][k], "%s / %s" % (ms(r), ms(sam[(prog, form, g)][k]))
            ratio_row("FFT %d output by columns (%s) against cuFFT Xt (its order)" % (order, form), (">=", 1.0),
                      lambda g, vs=vs: vs(g, 8, "cufftxt_2d_%dgpu"))
            ratio_row("FFT %d output by chunks of columns (%s) against cuFFT Xt (its order)" % (order, form),
                      (">=", 1.0), lambda g, vs=vs: vs(g, 9, "cufftxt_2d_%dgpu"))
            ratio_row("FFT %d natural order (%s) against cuFFT Xt + reorder" % (order, form), (">=", 1.0),
                      lambda g, vs=vs: vs(g, 7, "cufftxt_2d_natural_%dgpu"))

            def one(g, form=form, prog=prog, table=table):
                r = rv(table, g, "cufft_2d_1gpu")  # on GPU 0, in the same run
                if g < 2 or (prog, form, g) not in sam or r is None:
                    return None
                return r / sam[(prog, form, g)][7], "%s / %s" % (ms(r), ms(sam[(prog, form, g)][7]))
            ratio_row("FFT %d natural order (%s) against cuFFT on one GPU" % (order, form),
                      (">", 1.0) if prog == "fftbig" else None, one)
        if prog == "fftbig":
            for form in FORMS:
                for k, what in ((7, "natural order"), (8, "output by columns"), (9, "output by chunks of columns")):
                    def four(g, form=form, k=k):
                        if g != 4 or ("fftbig", form, 2) not in sam or ("fftbig", form, 4) not in sam:
                            return None
                        a, b = sam[("fftbig", form, 4)][k], sam[("fftbig", form, 2)][k]
                        if a is None or b is None:
                            return None
                        return a / b, "%s / %s" % (ms(a), ms(b))
                    ratio_row("FFT %d %s (%s): 4-GPU time over 2-GPU time" % (order, what, form), ("<=", 0.6), four)
    def cb(g, form, prog):
        r = rv(ref, g, "cublas_cols_%dgpu" % g)
        if (prog, form, g) not in sam or r is None:
            return None
        return r / sam[(prog, form, g)][4], "%s / %s" % (ms(r), ms(sam[(prog, form, g)][4]))
    def xt(g, form, prog):
        r, host = rv(ref, g, "cublasxt_sgemm_%dgpu" % g), from_host(prog, form)(g)
        if r is None or host is None:
            return None
        return r / host, "%s / %s" % (ms(r), ms(host))
    # the FFMA form is the teaching one; the 3xTF32 form (FP32 accuracy too) is
    # the one a user would set beside cuBLASXt, so the target is set on it
    for form in FORMS:
        ratio_row("SGEMM (%s) against cuBLAS on column blocks, data on the GPUs" % form, None,
                  lambda g, form=form: cb(g, form, "sgemm"))
        ratio_row("SGEMM (%s) from host against tuned cuBLASXt from host" % form, None,
                  lambda g, form=form: xt(g, form, "sgemm"))
    for form in FORMS:
        ratio_row("SGEMM 3xTF32 (%s) against cuBLAS on column blocks, data on the GPUs" % form, (">=", 1.8),
                  lambda g, form=form: cb(g, form, "sgemm3x"))
        ratio_row("SGEMM 3xTF32 (%s) from host against tuned cuBLASXt from host" % form, (">", 1.0),
                  lambda g, form=form: xt(g, form, "sgemm3x"))

    md += ["", "Against the references: ratio (reference / Parray; all-to-all: Parray's GB/s over the peer "
           "copy's; first call: its time over a later call's), the two figures, and whether the target is met.",
           "", "| comparison | target | " + " | ".join("%d GPU%s" % (g, "" if g == 1 else "s") for g in counts)
           + " |", "|---|---|" + "---|" * len(counts)]
    for what, target, c in comp:
        cells = []
        for g in counts:
            if g not in c:
                cells.append("")
                continue
            r, detail = c[g]
            ok = ""
            if target:
                op, bound = target
                met = {">=": r >= bound, ">": r > bound, "<=": r <= bound}[op]
                ok = ", met" if met else ", NOT MET"
            cells.append("%.3f (%s%s)" % (r, detail, ok))
        md.append("| %s | %s | %s |" % (what, "—" if not target else "%s %g" % target, " | ".join(cells)))
        for g in counts:
            if g in c:
                rows.append(("ratio: " + what, g, "", "", "%.4g" % c[g][0]))
    if failed:
        md += ["", "FAILED: " + "; ".join(failed)]
    text = "\n".join(md) + "\n"
    with open(os.path.join(out, "multi.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "gpus", "N", "ms", "rate"])
        for r in rows:
            w.writerow([r[0], r[1], r[2]] + ["%.4g" % x if isinstance(x, float) else x for x in r[3:]])
    open(os.path.join(out, "multi.md"), "w").write(text)
    sys.stdout.write(text)
    plot(out, series, counts)
    return 1 if failed else 0


def plot(out, series, counts):
    """time against GPUs, log-log, one line per program and form (where matplotlib is)"""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    if len(counts) < 2:
        return
    fig, ax = plt.subplots(figsize=(12, 6))
    ax.set_prop_cycle(color=[plt.cm.tab20(k % 20) for k in range(40)])
    for label, form, t, _ in series:
        if len(t) < 2 or "one step" in label or "host" in label:
            continue
        g = sorted(t)
        ax.plot(g, [t[x] for x in g], marker="o", linestyle="-" if form != "—" else "--",
                label="%s%s" % (label, "" if form == "—" else " [%s]" % form))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(counts)
    ax.set_xticklabels([str(c) for c in counts])
    ax.set_xlabel("GPUs")
    ax.set_ylabel("time (ms)")
    ax.set_title("samples/multi: time against GPUs (bench/multi_gpu.sh)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "multi_time.svg"))


if __name__ == "__main__":
    sys.exit(main())
