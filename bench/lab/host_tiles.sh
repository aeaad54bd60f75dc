#!/bin/bash
# bench/lab/host_tiles.sh [OUTDIR]: the register tiles of samples/perf_sgemm_host.pa's
# 16-register path (bench/lab/host_tiles.pa, TILES=0..5) against OpenBLAS's Haswell
# kernel, single thread, each call timed by the thread's CPU time (BENCH_CPUTIME=1: a
# loaded machine's preemption left out), for each gcc -march of MARCHES (default
# "x86-64-v3 znver3 haswell") with the sample's generic tuning and with the one -march
# gives (NO_GENERIC_TUNE).  N = BENCH_N (2048), BENCH_REPS rounds (7) each.
# Writes OUTDIR/host_tiles.csv and prints a table: one row a tile scheme, one column a
# -march and tuning, each cell the ratio of the medians (OpenBLAS's time over the variant's).
set -eo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
parrayc=${PARRAYC:-$root/build-perf/compiler/parrayc}
out=${1:-/tmp/host-tiles}
n=${BENCH_N:-2048}
build=$root/build-perf/host_tiles
mkdir -p "$out" "$build"
read -ra marches <<<"${MARCHES:-x86-64-v3 znver3 haswell}"
"$parrayc" -DN="$n" -DTHREADS=1 "$root/bench/lab/host_tiles.pa" -o "$build/host_tiles.c"
libdir=$(dirname "$parrayc")/../runtime
echo "march,tune,tiles,variant,N,unit,ms_median,ms_min,rate,ratio,relerr,round_ratio_median,round_ratio_min,round_ratio_max" \
  > "$out/host_tiles.csv"
for march in "${marches[@]}"; do
  for tune in generic march; do
    for tiles in 0 1 2 3 4 5; do
      flags=(-O3 -march="$march" -fopenmp -I"$root/include" -DN="$n" -DTHREADS=1 -DTILES="$tiles")
      [ "$tune" = generic ] || flags+=(-DNO_GENERIC_TUNE)
      gcc "${flags[@]}" -Dmain=pa_sample_main -c "$build/host_tiles.c" -o "$build/tiles.o"
      gcc -O2 -march="$march" -fopenmp -DBENCH_N="$n" "$root/bench/host_bench.c" "$build/tiles.o" \
        -L"$libdir" -lparray -lopenblas -lm -lpthread -o "$build/host_tiles"
      echo "== -march=$march, tuning $tune, TILES=$tiles" >&2
      BENCH_CPUTIME=1 OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 BENCH_REPS=${BENCH_REPS:-7} \
        "$build/host_tiles" "$build/part.csv" >&2
      grep parray_sgemm_host "$build/part.csv" | sed "s/^/$march,$tune,$tiles,/" >> "$out/host_tiles.csv"
      rm -f "$build/part.csv"
    done
  done
done
awk -F, 'NR > 1 { col = $1 " " $2; if (!(col in seen)) { seen[col] = 1; cols[++nc] = col }
                  r[$3, col] = $10 }
         END { printf "| TILES |"; for (c = 1; c <= nc; c++) printf " %s |", cols[c]; printf "\n|---|"
               for (c = 1; c <= nc; c++) printf "---|"; printf "\n"
               for (t = 0; t <= 5; t++) { printf "| %d |", t; for (c = 1; c <= nc; c++) printf " %.3f |", r[t, cols[c]]; printf "\n" } }' \
  "$out/host_tiles.csv"
