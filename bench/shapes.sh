#!/bin/bash
# bench/shapes.sh [OUTDIR]: on the GPU machine, SGEMM of any shape (bench/shapes.cu):
# samples/perf_shapes.pa's TF32 and FP32-accurate (3xTF32) kernels beside cuBLAS FP32
# and TF32, tight and padded leading dimensions, for the shapes of SHAPES (MxNxK ...;
# default: shapes.cu's list). Needs the generated code of bench/gen.sh in GEN_DIR
# (default build-perf/gen): the GPU machine has no flex/bison to build parrayc.
# Writes OUTDIR/shapes.csv, OUTDIR/shapes.md (the table) and OUTDIR/shapes.svg (TFLOP/s
# against size) and prints the table; exits 1 when a check fails.
set -eo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(mkdir -p "${1:-/tmp/shapes-out}" && cd "${1:-/tmp/shapes-out}" && pwd)
build=${BENCH_BUILD:-/tmp/shapes-build}
gen=${GEN_DIR:-$root/build-perf/gen}
export PATH=$PATH:/usr/local/cuda/bin
. "$here/progress.sh"
. "$here/runtime.sh"
[ -f "$gen/perf_shapes.cu" ] || { echo "shapes.sh: no $gen/perf_shapes.cu (run bench/gen.sh first)" >&2; exit 2; }
mkdir -p "$build"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
  --format=csv,noheader | tee "$out/shapes_machine.txt"
progress 1 3 "building the runtime, perf_shapes.cu and shapes.cu"
runtime_lib "$root" "$build" & lib=$!
nvcc -O3 -std=c++17 -arch=sm_90a -I"$root/include" -Dmain=pa_main_perf_shapes -c "$gen/perf_shapes.cu" \
  -o "$build/perf_shapes.o" & sample=$!
wait "$lib" && wait "$sample" || { echo "shapes.sh: a build failed" >&2; exit 1; }
nvcc -O3 -std=c++17 -arch=sm_90a "$here/shapes.cu" "$build/perf_shapes.o" "$build/libparray_cuda_all.a" \
  -o "$build/shapes" -lcublas
rm -f "$out/shapes.csv"
progress 2 3 "timing every shape"
status=0
# shellcheck disable=SC2086
"$build/shapes" "$out/shapes.csv" ${SHAPES:-} | tee "$out/shapes.log" || status=1
progress 3 3 "the table and the plot"
python3 "$here/shapes_table.py" "$out/shapes.csv" "$out" || status=1
exit $status
