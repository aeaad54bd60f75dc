#!/usr/bin/env python3
"""shapes_table.py CSV OUTDIR: the table of bench/shapes.cu's CSV, one row a shape (TFLOP/s
of each variant, the ratios the targets speak of, the roofline fraction of each parray
kernel), printed and written to OUTDIR/shapes.md, and OUTDIR/shapes.svg: TFLOP/s of every
variant against N for the squares and for each other shape, drawn without a plotting
library."""
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
    """two panels: TFLOP/s against N for the squares (N x N x N, log axis of N), and
    TFLOP/s of each other shape, a column of points a shape"""
    import math
    squares = sorted(k for k in shapes if k[0] == k[1] == k[2])
    others = [k for k in shapes if not k[0] == k[1] == k[2]]
    ys = [float(r["tflops"]) for d in shapes.values() for r in d.values()]
    if not ys:
        return
    w1, w2, h, top, b, l = 420, 60 * max(len(others), 1) + 40, 500, 30, 120, 50
    w = l + w1 + w2 + 170
    y1 = max(ys) * 1.05
    def py(y):
        return h - b - y / y1 * (h - b - top)
    colours = ["#555", "#1f77b4", "#6baed6", "#d62728", "#ff9896", "#2ca02c", "#98df8a"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="11">' % (w, h), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="16">TFLOP/s</text>']
    for x0, x1 in ((l, l + w1), (l + w1 + 30, l + w1 + w2)):
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (x0, h - b, x1, h - b))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (x0, top, x0, h - b))
    for i in range(6):
        y = y1 * i / 5
        out.append('<text x="%d" y="%.0f" text-anchor="end">%.0f</text>' % (l - 4, py(y) + 4, y))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (l, py(y), l + w1 + w2, py(y)))
    out.append('<text x="%d" y="%d" text-anchor="middle">N x N x N (log scale)</text>' % (l + w1 / 2, h - b + 32))
    out.append('<text x="%d" y="%d" text-anchor="middle">other shapes (M x N x K)</text>'
               % (l + w1 + 30 + (w2 - 30) / 2, h - 10))
    if squares:
        n0, n1 = math.log(squares[0][0]), math.log(squares[-1][0]) + 1e-9
        def px(n):
            return l + 15 + (math.log(n) - n0) / (n1 - n0 + 1e-12) * (w1 - 30)
        last = -99
        for k in squares:
            if px(k[0]) - last > 28:
                out.append('<text x="%.0f" y="%d" text-anchor="middle">%d</text>' % (px(k[0]), h - b + 14, k[0]))
                last = px(k[0])
        for i, v in enumerate(COLS):
            p = [(px(k[0]), py(float(shapes[k][v]["tflops"]))) for k in squares if v in shapes[k]]
            if p:
                out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' %
                           (colours[i], " ".join("%.1f,%.1f" % q for q in p)))
                out += ['<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (x, y, colours[i]) for x, y in p]
    for j, k in enumerate(others):
        x = l + w1 + 30 + 30 + 60 * j
        out.append('<text transform="translate(%d,%d) rotate(-40)" text-anchor="end">%d x %d x %d</text>'
                   % (x + 4, h - b + 12, k[0], k[1], k[2]))
        for i, v in enumerate(COLS):
            if v in shapes[k]:
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                           % (x - 12 + 4 * i, py(float(shapes[k][v]["tflops"])), colours[i]))
    for i, v in enumerate(COLS):
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (w - 160, top + 16 * i, colours[i], v))
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
