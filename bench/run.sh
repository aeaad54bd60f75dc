#!/bin/bash
# bench/run.sh [OUTDIR]: on the GPU machine, build bench.cu once per matrix order N
# (with the parrayc-generated code from build-perf/gen when it is there), check and
# time every variant, and write OUTDIR/bench.csv, OUTDIR/bench.png and a table
# (OUTDIR/bench.md, also printed last).
#   BENCH_NS="1024 2048 4096 8192"   the orders to run
#   BENCH_ONLY=sub1,sub2               run only the variants whose name contains one of them
#   BENCH_EXPERIMENTS=1                also build the kernels of experiments.cuh (exp_*)
#   BENCH_TILES=1                      also build k_fast with each block tile (exp_t*);
#                                      these two are lab kernels of multiples of 128 only:
#                                      at other N their static_asserts stop the build
#   GEN_DIR=build-perf/gen            parrayc outputs (see bench/gen.sh); with them, the
#                                      hand-written twins bench/twin_*.cu (sm_90a code
#                                      bench.cu cannot hold; gen_flags.sh's twin_flags)
#   BENCH_GEN_FLAGS=...                extra nvcc flags for the generated code only
#   TF32_CFG=6                         perf_tf32's kernel (0..5: mma.sync tiles; 6, the
#                                      default here: wgmma, built for sm_90a; gen_flags.sh)
#   BENCH_BUILD=/tmp/bench-build       where the binaries go; BENCH_BUILD_ONLY=1 builds
#                                      them and stops (no GPU needed: build on the CPU
#                                      machine, carry the folder), BENCH_PREBUILT=1 runs them
# Any N: a sample that refuses N stops in its own #error, which the build log prints
# (gen_flags.sh's gen_object), and bench.cu reports its variants "not run", as it does
# those whose layout or tiles do not take N (the `need` of bench.cu's variants).
set -eo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(mkdir -p "${1:-${OUT:-/tmp/bench-out}}" && cd "${1:-${OUT:-/tmp/bench-out}}" && pwd)
build=${BENCH_BUILD:-/tmp/bench-build}
gen=${GEN_DIR:-$root/build-perf/gen}
ns=${BENCH_NS:-1024 2048 4096 8192}
. "$here/gen_flags.sh"
. "$here/progress.sh"
. "$here/runtime.sh"
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$build"
set -- $ns
nn=$#

# BENCH_PREBUILT=1: the binaries of an earlier BENCH_BUILD_ONLY=1 call in $build
if [ "${BENCH_PREBUILT:-0}" != 1 ]; then
  flags=(-O3 -std=c++17 -Xcompiler -Wall -I"$here")
  [ "${BENCH_EXPERIMENTS:-0}" = 1 ] && flags+=(-DBENCH_EXPERIMENTS)
  [ "${BENCH_TILES:-0}" = 1 ] && flags+=(-DBENCH_TILES)
  libs=(-lcublas)
  if [ -f "$gen/gen_decls.h" ]; then
    echo "with the generated code of $gen"
    flags+=(-DWITH_GEN -I"$gen" -I"$root/include")
  fi
  if [ -f "$gen/gen_decls.h" ]; then
    runtime_lib "$root" "$build" || exit 1
  fi
  # one build per N, in parallel: N is a compile-time constant, as in the samples
  echo "building bench.cu for N = $ns, in parallel" >&2
  builds=()
  for n in $ns; do
    (
      gen_objs= gen_built=
      if [ -f "$gen/gen_decls.h" ]; then
        # each sample and twin at this N, unless its own #error refuses N
        gen_objects nvcc "$gen" "$here" "$build" "$n" "${BENCH_GEN_FLAGS:-}" "${flags[@]}" || exit 1
        gen_objs="$gen_objs $build/libparray_cuda_all.a"
      fi
      # shellcheck disable=SC2086
      nvcc "${flags[@]}" $gen_built -arch=sm_90 -DN="$n" -Xptxas -warn-spills "$here/bench.cu" $gen_objs \
        -o "$build/bench_N$n" "${libs[@]}"
    ) > "$build/build_N$n.log" 2>&1 &
    builds+=($! "bench_N$n")
  done
  fail=0
  wait_jobs built "${builds[@]}" || fail=1
  cat "$build"/build_N*.log
  [ $fail = 0 ] || { echo "build failed"; exit 1; }
fi
[ "${BENCH_BUILD_ONLY:-0}" = 1 ] && { echo "built bench_N* in $build"; exit 0; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
  --format=csv,noheader | tee "$out/machine.txt"
nvcc --version | tail -1 | tee -a "$out/machine.txt"

csv="$out/bench.csv"
echo "variant,N,unit,ms_median,ms_min,ms_max,rate,ratio,relerr,status,twin,twin_ratio,ref_rate" > "$csv"
status=0
i=0
for n in $ns; do
  i=$((i + 1))
  progress "$i" "$nn" "running bench_N$n"
  "$build/bench_N$n" "$csv" | tee -a "$out/bench.log" || status=1
done
python3 "$here/plot.py" "$csv" "$out/bench.png" "$out/bench.md" || status=1
exit $status
