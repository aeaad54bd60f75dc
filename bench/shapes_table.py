#!/usr/bin/env python3
"""shapes_table.py CSV OUTDIR: the table of bench/shapes.cu's CSV, one row a shape (TFLOP/s
of each variant, the ratios the targets speak of, the roofline fraction of each parray
kernel), printed and written to OUTDIR/shapes.md, and OUTDIR/shapes.svg: TFLOP/s against
the size (the cube root of M N K) for every variant, drawn without any plotting library."""
import csv
import os
import sys

COLS = ["cublas_fp32", "cublas_tf32", "cublas_tf32_pad", "parray_tf32", "parray_tf32_pad", "parray_x3",
        "parray_x3_pad"]


def load(path):
    shapes = {}
    for r in csv.DictReader(open(path)):
        key = (int(r["M"]), int(r["N"]), int(r["K"]))
        shapes.setdefault(key, {})[r["variant"]] = r
    return shapes


def table(shapes):
    head = ("| M x N x K | " + " | ".join(COLS) +
            " | tf32 / cuBLAS TF32 | tf32_pad / cuBLAS TF32 | x3_pad / cuBLAS FP32 | x3_pad / (cuBLAS TF32 / 3)"
            " | roofline tf32_pad, x3_pad |")
    lines = ["TFLOP/s (median of the rounds); ratios of the medians in the same run; roofline: the fraction of "
             "min(peak of the precision, intensity x bandwidth).", "", head, "|---" * (len(COLS) + 6) + "|"]
    for key, d in shapes.items():
        def rate(v):
            r = d.get(v)
            if r is None:
                return ""
            return ("%.1f" % float(r["tflops"])) + ("" if r["status"] == "ok" else " WRONG")

        def ms(v):
            return float(d[v]["ms_median"]) if v in d else float("nan")
        cells = [rate(v) for v in COLS]
        cells += ["%.2f" % (ms("cublas_tf32") / ms("parray_tf32")),
                  "%.2f" % (ms("cublas_tf32") / ms("parray_tf32_pad")),
                  "%.2f" % (ms("cublas_fp32") / ms("parray_x3_pad")),
                  "%.2f" % (3 * ms("cublas_tf32") / ms("parray_x3_pad")),
                  "%s, %s" % (d.get("parray_tf32_pad", {}).get("roofline", ""),
                              d.get("parray_x3_pad", {}).get("roofline", ""))]
        lines.append("| %d x %d x %d | " % key + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def svg(shapes, path):
    """TFLOP/s against (M N K)^(1/3), a polyline a variant, on a log axis of size"""
    import math
    pts = {v: [] for v in COLS}
    for (m, n, k), d in shapes.items():
        x = (m * n * k) ** (1 / 3)
        for v in COLS:
            if v in d:
                pts[v].append((x, float(d[v]["tflops"])))
    xs = [p[0] for v in pts for p in pts[v]]
    ys = [p[1] for v in pts for p in pts[v]]
    if not xs:
        return
    w, h, l, b = 760, 460, 60, 40
    x0, x1 = math.log(min(xs)), math.log(max(xs)) + 1e-9
    y1 = max(ys) * 1.05
    def px(x):
        return l + (math.log(x) - x0) / (x1 - x0) * (w - l - 160)
    def py(y):
        return h - b - y / y1 * (h - b - 20)
    colours = ["#555", "#1f77b4", "#6baed6", "#d62728", "#ff9896", "#2ca02c", "#98df8a"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (w, h),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (l, h - b, w - 160, h - b),
           '<line x1="%d" y1="20" x2="%d" y2="%d" stroke="black"/>' % (l, l, h - b),
           '<text x="%d" y="%d">size: (M N K)^(1/3), log scale</text>' % (l + 150, h - 8),
           '<text x="8" y="14">TFLOP/s</text>']
    for i in range(6):
        y = y1 * i / 5
        out.append('<text x="4" y="%.0f">%.0f</text>' % (py(y) + 4, y))
    for x in sorted(set(round(v) for v in xs)):
        out.append('<text x="%.0f" y="%d" text-anchor="middle">%d</text>' % (px(x), h - b + 14, x))
    for i, v in enumerate(COLS):
        p = sorted(pts[v])
        if not p:
            continue
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' %
                   (colours[i], " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in p)))
        for x, y in p:
            out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (px(x), py(y), colours[i]))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (w - 150, 30 + 16 * i, colours[i], v))
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def main():
    shapes = load(sys.argv[1])
    md = table(shapes)
    print(md)
    open(os.path.join(sys.argv[2], "shapes.md"), "w").write(md)
    svg(shapes, os.path.join(sys.argv[2], "shapes.svg"))


if __name__ == "__main__":
    main()
