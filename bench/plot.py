#!/usr/bin/env python3
"""plot.py CSV PNG [MD]: rate against N for every variant of bench.csv (one panel for
SGEMM in TFLOP/s, one for copies in GB/s), a second picture, PNG with _per_n before
.png, with one panel per N (each variant's ratio to the reference of its rounds: cuBLAS,
cuBLAS TF32 or memcpy), and a table (variant x N: median time, rate, ratio to the
reference of the same run and, for generated code, to its hand-written twin; "not run"
where the variant does not take that N), printed and written to MD."""
import csv
import sys
from collections import OrderedDict


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1]))]
    ns = sorted({int(r["N"]) for r in rows})
    by = OrderedDict()
    for r in rows:
        by.setdefault(r["variant"], {})[int(r["N"])] = r
    lines = ["| variant | unit | " + " | ".join("N=%d" % n for n in ns) + " |",
             "|---|---|" + "---|" * len(ns)]
    for v, d in by.items():
        unit = next((r["unit"] for r in d.values() if r["unit"]), "")
        cells = []
        for n in ns:
            r = d.get(n)
            if r is None:
                cells.append("")
            elif r["status"] == "not run":
                cells.append("not run")
            elif r["status"] != "ok":
                cells.append("FAIL")
            else:
                cell = "%.4g ms, %.1f (%.3f)" % (float(r["ms_median"]), float(r["rate"]),
                                                  float(r["ratio"]))
                if r.get("twin") and float(r.get("twin_ratio") or 0) > 0:
                    cell += " [%.3f of twin]" % float(r["twin_ratio"])
                cells.append(cell)
        lines.append("| %s | %s | %s |" % (v, unit, " | ".join(cells)))
    table = "\n".join(lines)
    print(table)
    if len(sys.argv) > 3:
        open(sys.argv[3], "w").write(table + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 2, figsize=(14, 6))
    colors = plt.get_cmap("tab20").colors
    for ax, unit in zip(axes, ("TFLOP/s", "GB/s")):
        for idx, (v, d) in enumerate(by.items()):
            pts = [(n, float(r["rate"])) for n, r in sorted(d.items())
                   if r["unit"] == unit and r["status"] == "ok"]
            if pts:
                ref = v in ("cublas_sgemm", "cublas_tf32", "memcpy_d2d")
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        linewidth=3 if ref else 1.2, label=v,
                        linestyle="--" if v.startswith("parray") else "-",
                        color=("gray" if v == "cublas_tf32" else "black") if ref
                        else colors[idx % len(colors)])
        ax.set_xscale("log", base=2)
        ax.set_xticks(ns)
        ax.set_xticklabels([str(n) for n in ns])
        ax.set_xlabel("N (matrix order)")
        ax.set_ylabel(unit)
        ax.set_title("SGEMM" if unit == "TFLOP/s" else "copy / transpose (read + write)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    plot_per_n(plt, by, ns, sys.argv[2][:-4] + "_per_n.png" if sys.argv[2].endswith(".png")
               else sys.argv[2] + "_per_n.png")


def plot_per_n(plt, by, ns, path):
    """one panel per N: a bar per variant, its ratio to the reference of its rounds"""
    fig, axes = plt.subplots(1, len(ns), figsize=(4.2 * len(ns), 0.28 * len(by) + 1.6),
                             sharey=True, squeeze=False)
    names = list(by)
    for ax, n in zip(axes[0], ns):
        vals, cols = [], []
        for v in names:
            r = by[v].get(n)
            ok = r is not None and r["status"] == "ok"
            vals.append(float(r["ratio"]) if ok else 0.0)
            cols.append("black" if v in ("cublas_sgemm", "cublas_tf32", "memcpy_d2d") else
                        "tab:blue" if v.startswith("parray") else "tab:gray")
        ax.barh(range(len(names)), vals, color=cols)
        ax.axvline(1.0, color="red", linewidth=1)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names, fontsize=7)
        ax.set_xlim(0, max(1.3, max(vals) * 1.05))
        ax.set_title("N = %d" % n)
        ax.set_xlabel("ratio to the reference (same rounds)")
        ax.grid(True, axis="x", alpha=0.3)
    axes[0][0].invert_yaxis()  # once: the panels share the axis
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
