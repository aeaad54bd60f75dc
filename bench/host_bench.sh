#!/bin/bash
# bench/host_bench.sh [OUTDIR]: on this (CPU) machine, translate samples/perf_sgemm_host.pa
# with parrayc, build it with -DN (default 2048) beside bench/host_bench.c, and time it
# against OpenBLAS cblas_sgemm (Debian's libopenblas, one thread per core) in alternating
# rounds (BENCH_REPS of them, default 11), and a naive loop once with BENCH_NAIVE=1.
# Writes OUTDIR/host.csv and prints a table.
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build-perf/compiler/parrayc}
out=${1:-/tmp/host-bench}
n=${BENCH_N:-2048}
build=$root/build-perf/host
mkdir -p "$out" "$build"
. "$root/bench/progress.sh"
cores=$(nproc)
grep -q "^#parray {omp(.*) \[$cores\]} TEAM" "$root/samples/perf_sgemm_host.pa" ||
  echo "note: perf_sgemm_host.pa's thread array TEAM does not have $cores threads" >&2
progress 1 4 "translating perf_sgemm_host.pa"
"$parrayc" "$root/samples/perf_sgemm_host.pa" -o "$build/perf_sgemm_host.c"
libdir=$(dirname "$parrayc")/../runtime
cflags=(-O3 -march=native -fopenmp -I"$root/include" -Wall -Wextra)
progress 2 4 "compiling it for N = $n"
gcc "${cflags[@]}" -DN="$n" -Dmain=pa_sample_main -c "$build/perf_sgemm_host.c" -o "$build/perf_sgemm_host.o"
progress 3 4 "building host_bench"
gcc "${cflags[@]}" -DBENCH_N="$n" "$root/bench/host_bench.c" "$build/perf_sgemm_host.o" \
  -L"$libdir" -lparray -lopenblas -lm -lpthread -o "$build/host_bench"
lscpu | grep -E "Model name|^CPU\(s\)" | tee "$out/host_machine.txt"
echo "variant,N,unit,ms_median,ms_min,rate,ratio,relerr,round_ratio_median,round_ratio_min,round_ratio_max" > "$out/host.csv"
progress 4 4 "timing it against OpenBLAS (${BENCH_REPS:-11} rounds)"
OPENBLAS_NUM_THREADS=$cores "$build/host_bench" "$out/host.csv"
