#!/bin/sh
# build_bench.sh PARRAYC NVCC RUNTIME_DIR WORKDIR: translate the benchmark's samples
# with this parrayc (bench/gen.sh) and build bench/bench.cu with them and with
# bench/experiments.cuh at N = 1024, linked as bench/run.sh links it (each sample
# with bench/gen_flags.sh's flags, and the sm_90a twins bench/twin_*.cu), and without
# the experiments at N = 999, where perf_fig13, perf_fig21, perf_sgemm, perf_transpose and
# the twin of perf_sgemm3x refuse the order in their #error and are left out (which this
# checks), and perf_tf32 and perf_sgemm3x, which take any N, are built. The benchmark
# runs only on a GPU machine; this keeps its sources building everywhere nvcc is.
set -e
parrayc=$1 nvcc=$2 rt=$3 wd=$4
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
PARRAYC=$parrayc GEN_DIR=$wd/gen bash "$root/bench/gen.sh" > /dev/null
. "$root/bench/gen_flags.sh"
flags="-O1 -std=c++17 -Xcompiler -Wall -I$root/bench -I$wd/gen -I$root/include"
for n in 1024 999; do
  # shellcheck disable=SC2086
  gen_objects "$nvcc" "$wd/gen" "$root/bench" "$wd" $n -DWITH_GEN $flags || exit 1
  objs=$gen_objs built=$gen_built
  case $n in
    1024) want=" -DGEN_BUILT_perf_fig13 -DGEN_BUILT_perf_fig21 -DGEN_BUILT_perf_sgemm -DGEN_BUILT_perf_sgemm3x"
          want="$want -DGEN_BUILT_perf_tf32 -DGEN_BUILT_perf_transpose -DGEN_BUILT_twin_3xtf32" ;;
    *) want=" -DGEN_BUILT_perf_sgemm3x -DGEN_BUILT_perf_tf32" ;;
  esac
  [ "$built" = "$want" ] || { echo "build_bench: at N = $n built:$built; expected:$want"; exit 1; }
  exp=""
  [ $n = 1024 ] && exp=-DBENCH_EXPERIMENTS
  "$nvcc" $flags $built -arch=sm_90 -DN=$n -DWITH_GEN $exp "$root/bench/bench.cu" $objs \
    "$rt/libparray_cuda.a" "$rt/libparray.a" -o "$wd/bench_N$n" -lcublas
done
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/lab/transpose_variants.cu" -o "$wd/transpose_variants"
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/lab/sgemm_variants.cu" -o "$wd/sgemm_variants" -lcublas
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/lab/tf32_wgmma_variants.cu" \
  -o "$wd/tf32_wgmma_variants" -lcublas
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/lab/sgemm_3xtf32.cu" \
  -o "$wd/sgemm_3xtf32" -lcublas
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/lab/tf32_ws.cu" -o "$wd/tf32_ws" -lcublas
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/lab/x3_ws.cu" -o "$wd/x3_ws" -lcublas
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/lab/fft_columns_speed.cu" -o "$wd/fft_columns_speed" -lcufft
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/lab/rect_copy_shapes.cu" -o "$wd/rect_copy_shapes"
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/lab/tma_swizzle_probe.cu" \
  -o "$wd/tma_swizzle_probe"
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/lab/thin_row_read.cu" -o "$wd/thin_row_read"
# compiled only: it links with a sample's generated code (its header says how)
"$nvcc" -O1 -arch=sm_90 -std=c++17 -DN=1024 -c "$root/bench/lab/tf32_layouts.cu" -o "$wd/tf32_layouts.o"
"$nvcc" -O1 -arch=sm_90 -std=c++17 -DN=1024 -DPFX=perf_sgemm3x -c "$root/bench/lab/tf32_layouts.cu" \
  -o "$wd/x3_layouts.o"
echo "bench_N1024, bench_N999, transpose_variants, sgemm_variants, tf32_wgmma_variants, sgemm_3xtf32, tf32_ws, x3_ws, fft_columns_speed," \
  "rect_copy_shapes, tma_swizzle_probe, thin_row_read and tf32_layouts built"
