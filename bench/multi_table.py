#!/usr/bin/env python3
"""multi_table.py OUTDIR: the table of bench/multi_gpu.sh, from what it left in OUTDIR:
ref.csv (bench/multi_ref.cu's lines), NAME.log (what each sample printed) and
status.txt ("NAME EXIT_STATUS" per program run).  Writes OUTDIR/multi.csv (every
figure: name,N,ms,rate,unit) and OUTDIR/multi.md (the comparisons, with the
issue's targets), and prints the table.  Exits 1 when a sample said WRONG, printed
no verdict or failed, or when multi_ref failed; 0 otherwise.

Ratios are the reference's time over Parray's (Parray's speed as a multiple of the
reference's), or for the all-to-all, Parray's bandwidth over the peer bandwidth.
The all-to-all counts the bytes that cross between GPUs: of an n x n matrix split
by rows over G GPUs, (G-1)/G of it, as the peer copy counts both directions."""
import csv
import math
import os
import re
import sys

SAMPLES = ["sgemm_pthd", "sgemm_mpi", "fft_pthd", "fft_mpi", "transpose_pthd", "transpose_mpi"]
# the one-GPU runs of the SGEMM (see multi_gpu.sh)
VARIANTS = ["sgemm_1gpu", "sgemm_pthd_gpu0"]

NUM = r"([0-9.eE+-]+|nan|inf)"
PATTERNS = {
    "sgemm": re.compile(r"SGEMM N = (\d+) on (\d+) GPUs \((\w+)\): scatter " + NUM + r" ms, compute " + NUM
                        + r" ms \(" + NUM + r" GFLOP/s\), gather " + NUM + r" ms; (correct|WRONG)"),
    "fft": re.compile(r"2-D FFT (\d+) x \d+ over (\d+) GPUs \((\w+)\): rows " + NUM + r" ms, all-to-all " + NUM
                      + r" ms, whole " + NUM + r" ms; pipelined in (\d+) chunks " + NUM + r" ms; cuFFT on one GPU "
                      + NUM + r" ms; .*: (correct|WRONG)"),
    "transpose": re.compile(r"transpose of (\d+) x \d+ over (\d+) GPUs \((\w+)\): all-to-all " + NUM + r" ms, "
                            + NUM + r" GB/s \(the first call " + NUM + r" ms\); (correct|WRONG)"),
}


def read_ref(out):
    ref = {}
    path = os.path.join(out, "ref.csv")
    if not os.path.exists(path):
        return ref
    for r in csv.reader(open(path)):
        if len(r) == 4 and r[0] != "name":
            ref[r[0]] = None if r[2] == "n/a" else (float(r[2]), float(r[3]))
    return ref


def pick(ref, prefix):
    """the reference row whose name starts with prefix: (name, (ms, rate) or None)"""
    for name, v in ref.items():
        if name.startswith(prefix):
            return name, v
    return prefix + "?", None


def read_status(out):
    st = {}
    path = os.path.join(out, "status.txt")
    if os.path.exists(path):
        for line in open(path):
            w = line.split()
            if len(w) == 2:
                st[w[0]] = int(w[1])
    return st


def parse(out, name, any_verdict=False):
    """the sample's printed figures, or None; every line it printed must say correct
    (any_verdict: the figures whatever it said)"""
    path = os.path.join(out, name + ".log")
    if not os.path.exists(path):
        return None, "not run"
    kind = name.split("_")[0]
    found = PATTERNS[kind].findall(open(path, errors="replace").read())
    if not found:
        return None, "no result line"
    if any(f[-1] != "correct" for f in found) and not any_verdict:
        return None, "WRONG"
    f = found[0]
    return [int(f[0]), int(f[1]), f[2]] + [float(x) for x in f[3:-1]], f[-1]


def fmt_ms(ms):
    return "%.4g ms" % ms


def ratio_cell(r):
    return "n/a" if r is None else "%.3f" % r


def verdict(r, target):
    if target is None:
        return "—"
    if r is None:
        return "n/a"
    op, bound = target
    return "met" if (r >= bound if op == ">=" else r > bound) else "not met"


def main():
    out = sys.argv[1]
    ref = read_ref(out)
    status = read_status(out)
    failed = []
    figs = {}
    for name in SAMPLES:
        f, why = parse(out, name)
        rc = status.get(name)
        if f is None or rc not in (0, None):
            failed.append("%s: %s%s" % (name, why, "" if rc in (0, None) else ", exit status %d" % rc))
        figs[name] = f if rc in (0, None) else None
    # the one-GPU runs of the SGEMM compute the whole product: they must be right
    for name in VARIANTS:
        f, why = parse(out, name)
        rc = status.get(name)
        if rc is not None and (f is None or rc != 0):
            failed.append("%s: %s, exit status %d" % (name, why, rc))
        figs[name] = f if rc in (0, None) else None
    if status.get("multi_ref", 0) != 0:
        failed.append("multi_ref: exit status %d (see multi_ref.log)" % status["multi_ref"])

    n = next((f[0] for f in figs.values() if f), None)
    if n is None:
        n = next((int(r) for r in [os.environ.get("N")] if r), 16384)
    flop = 2.0 * n ** 3
    rows = []      # multi.csv: name, N, ms, rate, unit
    table = []     # multi.md: comparison, Parray, reference, ratio, target, status

    for name, v in ref.items():
        unit = "TFLOP/s" if "sgemm" in name or "halves" in name else "GB/s" if "p2p" in name else "GFLOP/s"
        rows.append((name, n, v[0] if v else "n/a", v[1] if v else "n/a", unit))

    def tflops(ms):
        return flop / ms / 1e9

    # ---- SGEMM ----
    one_gpu = None  # (ms of the whole product on one GPU with the same kernel, how)
    if figs.get("sgemm_1gpu"):
        s = figs["sgemm_1gpu"]
        rows.append(("parray_sgemm_1gpu", n, s[4], tflops(s[4]), "TFLOP/s"))
        one_gpu = (s[4], "%s (sgemm_pthd.pa with [1]: the whole product on one GPU)" % fmt_ms(s[4]))
    if figs.get("sgemm_pthd_gpu0"):
        s = figs["sgemm_pthd_gpu0"]
        rows.append(("parray_sgemm_pthd_gpu0", n, s[4], tflops(s[4]), "TFLOP/s"))
        if one_gpu is None:
            one_gpu = (s[4], "%s (sgemm_pthd, both halves on GPU 0)" % fmt_ms(s[4]))
    halves_name, halves = pick(ref, "cublas_halves")
    xt_name, xt = pick(ref, "cublasxt_sgemm")
    c1_name, c1 = pick(ref, "cublas_sgemm_1gpu")
    for form in ("pthd", "mpi"):
        s = figs.get("sgemm_" + form)
        if not s:
            continue
        scatter, compute, gather = s[3], s[4], s[6]
        host = scatter + compute + gather
        for what, ms in (("compute", compute), ("scatter", scatter), ("gather", gather), ("host", host)):
            timed = what in ("compute", "host")  # scatter and gather: no flops
            rows.append(("parray_sgemm_%s_%s" % (form, what), n, ms, tflops(ms) if timed else "",
                         "TFLOP/s" if timed else ""))
        par = "%s, %.1f TFLOP/s" % (fmt_ms(compute), tflops(compute))
        r = one_gpu[0] / compute if one_gpu else None
        table.append(("SGEMM on %d GPUs (%s), data resident, against 2 x one GPU (same kernel)" % (s[1], form),
                      par, one_gpu[1] if one_gpu else "n/a", r, (">=", 1.95)))
        r = halves[0] / compute if halves else None
        table.append(("SGEMM (%s), resident, against cuBLAS on column halves" % form, par,
                      "%s: %s" % (halves_name, fmt_ms(halves[0])) if halves else "n/a", r, None))
        r = xt[0] / host if xt else None
        table.append(("SGEMM (%s) from host: scatter + compute + gather, against cuBLASXt from host" % form,
                      "%s (%.0f + %.0f + %.0f)" % (fmt_ms(host), scatter, compute, gather),
                      "%s: %s" % (xt_name, fmt_ms(xt[0])) if xt else "n/a", r, (">", 1.0)))
        r = xt[0] / compute if xt else None
        table.append(("SGEMM (%s), resident compute only, against cuBLASXt from host" % form, par,
                      "%s: %s" % (xt_name, fmt_ms(xt[0])) if xt else "n/a", r, None))
    if c1 and halves:
        table.append(("cuBLAS: column halves against one GPU (its own scaling)",
                      "%s: %s" % (halves_name, fmt_ms(halves[0])), "%s: %s" % (c1_name, fmt_ms(c1[0])),
                      c1[0] / halves[0], None))

    # ---- all-to-all against the peer bandwidth ----
    p2p_name, p2p = pick(ref, "p2p_bidir")
    for kind, size, at in (("transpose", 4, 3), ("fft", 8, 4)):  # at: where its all-to-all ms is
        for form in ("pthd", "mpi"):
            s = figs.get("%s_%s" % (kind, form))
            if not s:
                continue
            g = s[1]
            ms = s[at]
            link = size * float(n) * n * (g - 1) / g  # bytes that cross between GPUs
            gbs = link / ms / 1e6
            rows.append(("parray_%s_%s_alltoall" % (kind, form), n, ms, gbs, "GB/s"))
            if kind == "transpose":  # its first call sets up peer access or the IPC mappings
                rows.append(("parray_transpose_%s_alltoall_first" % form, n, s[5], "", ""))
            r = gbs / p2p[1] if p2p else None
            table.append(("all-to-all of the %s (%s), %s matrix, bytes crossing between GPUs" %
                          (kind, form, "float" if size == 4 else "float2"),
                          "%s, %.1f GB/s" % (fmt_ms(ms), gbs),
                          "%s: %.1f GB/s" % (p2p_name, p2p[1]) if p2p else "peer copy n/a", r, (">=", 0.8)))

    # ---- 2-D FFT ----
    f1_name, f1 = pick(ref, "cufft_2d_1gpu")
    fx_name, fx = pick(ref, "cufftxt_2d_2gpu")
    fn_name, fnat = pick(ref, "cufftxt_2d_natural")
    for form in ("pthd", "mpi"):
        s = figs.get("fft_" + form)
        if not s:
            continue
        rows_ms, a2a, whole, chunks, piped, own = s[3], s[4], s[5], int(s[6]), s[7], s[8]
        gflops = 5.0 * n * n * math.log2(n * n) / 1e6
        rows.append(("parray_fft_%s_rows" % form, n, rows_ms, "", ""))
        rows.append(("parray_fft_%s_whole" % form, n, whole, gflops / whole, "GFLOP/s"))
        rows.append(("parray_fft_%s_pipelined_%d" % (form, chunks), n, piped, gflops / piped, "GFLOP/s"))
        rows.append(("parray_fft_%s_cufft1_in_sample" % form, n, own, "", ""))
        par = "%s (%d chunks)" % (fmt_ms(piped), chunks)
        table.append(("2-D FFT (%s), pipelined, against one step after another" % form, par, fmt_ms(whole),
                      whole / piped, None))
        table.append(("2-D FFT (%s) on %d GPUs against cuFFT on one GPU" % (form, s[1]), par,
                      "%s: %s" % (f1_name, fmt_ms(f1[0])) if f1 else "n/a", f1[0] / piped if f1 else None, None))
        table.append(("2-D FFT (%s) against cuFFT Xt on 2 GPUs (execution, shuffled result)" % form, par,
                      "%s: %s" % (fx_name, fmt_ms(fx[0])) if fx else "n/a", fx[0] / piped if fx else None,
                      (">=", 1.0)))
        table.append(("2-D FFT (%s) against cuFFT Xt + reorder to natural order" % form, par,
                      "%s: %s" % (fn_name, fmt_ms(fnat[0])) if fnat else "n/a",
                      fnat[0] / piped if fnat else None, None))

    with open(os.path.join(out, "multi.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["name", "N", "ms", "rate", "unit"])
        for r in rows:
            w.writerow([r[0], r[1]] + ["%.4g" % x if isinstance(x, float) else x for x in r[2:]])

    md = ["N = %d. Ratio: the reference's time over Parray's (all-to-all: Parray's GB/s over the "
          "peer copy's). Parray's times are what the samples print (SGEMM compute: the mean of 3 "
          "calls; the all-to-all of the transpose: the mean of 5 calls after the first; the rest one "
          "call); the references' are medians (bench/multi_ref.cu)." % n, "",
          "| comparison | Parray | reference | ratio | target | status |", "|---|---|---|---|---|---|"]
    for what, par, refc, r, target in (t[:5] for t in table):
        tgt = "—" if target is None else "%s %g" % target
        md.append("| %s | %s | %s | %s | %s | %s |" % (what, par, refc, ratio_cell(r), tgt, verdict(r, target)))
    notes = {"sgemm_1gpu": "sgemm_pthd.pa with [1] for [2], N/1 for N/2: the whole product on one GPU",
             "sgemm_pthd_gpu0": "sgemm_pthd with both threads on GPU 0"}
    for name in VARIANTS:
        if name in status:
            why = parse(out, name, any_verdict=True)[1]
            md.append("")
            md.append("%s (%s): exit status %d, %s." % (name, notes[name], status[name], why))
    if failed:
        md.append("")
        md.append("FAILED: " + "; ".join(failed))
    text = "\n".join(md) + "\n"
    open(os.path.join(out, "multi.md"), "w").write(text)
    sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
