#!/bin/sh
# check_bench_table.sh ROOT: bench/plot.py's table (bench/run.sh's bench.md) on a CSV as
# bench.cu writes it at two orders: a variant run at both, one that failed, one not run
# at an order it does not take (bench.cu's `need`), one of a sample whose #error refused
# the order. Each cell must say which. Skipped (77) without python3.
set -u
root=$1
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3"; exit 77; }
wd=$(mktemp -d) || exit 1
trap 'rm -rf "$wd"' EXIT
cat > "$wd/bench.csv" <<'CSV'
variant,N,unit,ms_median,ms_min,ms_max,rate,ratio,relerr,status,twin,twin_ratio,ref_rate
cublas_tf32,999,TFLOP/s,0.03100,0.03000,0.03300,64.300,1.0000,1.2e-04,ok,,0.0000,64.300
parray_tf32_row,999,TFLOP/s,0.02900,0.02800,0.03000,68.700,1.0690,2.1e-04,ok,,0.0000,64.250
parray_tf32_fig18a,999,,,,,,,,not run,,,
parray_sgemm_row,999,,,,,,,,not run,,,
parray_fig21,999,,,,,,,,FAIL,,,
cublas_tf32,1024,TFLOP/s,0.02800,0.02700,0.02900,76.700,1.0000,1.1e-04,ok,,0.0000,76.700
parray_tf32_row,1024,TFLOP/s,0.03309,0.03200,0.03400,64.900,0.8100,2.0e-04,ok,,0.0000,80.120
parray_tf32_fig18a,1024,TFLOP/s,0.03302,0.03200,0.03400,65.000,0.8050,2.0e-04,ok,,0.0000,80.740
CSV
python3 "$root/bench/plot.py" "$wd/bench.csv" "$wd/bench.png" "$wd/bench.md" > "$wd/stdout" 2>&1 ||
  { cat "$wd/stdout"; exit 1; }
cat > "$wd/want.md" <<'MD'
| variant | unit | N=999 | N=1024 |
|---|---|---|---|
| cublas_tf32 | TFLOP/s | 0.031 ms, 64.3 (1.000) | 0.028 ms, 76.7 (1.000) |
| parray_tf32_row | TFLOP/s | 0.029 ms, 68.7 (1.069) | 0.03309 ms, 64.9 (0.810) |
| parray_tf32_fig18a | TFLOP/s | not run | 0.03302 ms, 65.0 (0.805) |
| parray_sgemm_row |  | not run |  |
| parray_fig21 |  | FAIL |  |
MD
diff -u "$wd/want.md" "$wd/bench.md" || exit 1
echo "bench.md: ok, FAIL and not run cells"
