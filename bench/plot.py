#!/usr/bin/env python3
"""plot.py CSV PNG [MD]: rate against N for every variant of bench.csv (one panel for
SGEMM in TFLOP/s, one for copies in GB/s), and a table (variant x N: median time, rate,
ratio to the reference of the same run and, for generated code, to its hand-written
twin), printed and written to MD."""
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


if __name__ == "__main__":
    main()
