#!/bin/sh
# build_bench.sh PARRAYC NVCC RUNTIME_DIR WORKDIR: translate the benchmark's samples
# with this parrayc (bench/gen.sh) and build bench/bench.cu with them and with
# bench/experiments.cuh at N = 1024, linked as bench/run.sh links it. The benchmark
# runs only on a GPU machine; this keeps its sources building everywhere nvcc is.
set -e
parrayc=$1 nvcc=$2 rt=$3 wd=$4
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
PARRAYC=$parrayc GEN_DIR=$wd/gen bash "$root/bench/gen.sh" > /dev/null
flags="-O1 -arch=sm_90 -std=c++17 -Xcompiler -Wall -I$root/bench -I$wd/gen -I$root/include -DN=1024"
objs=""
for f in "$wd"/gen/*.cu; do
  b=$(basename "$f" .cu)
  extra=""
  [ "$b" = perf_tf32 ] && extra="-arch=sm_90a -DTF32_CFG=6"  # as bench/run.sh builds it
  "$nvcc" $flags $extra -DWITH_GEN -Dmain="pa_main_$b" -c "$f" -o "$wd/$b.o"
  objs="$objs $wd/$b.o"
done
"$nvcc" $flags -DWITH_GEN -DBENCH_EXPERIMENTS "$root/bench/bench.cu" $objs \
  "$rt/libparray_cuda.a" "$rt/libparray.a" -o "$wd/bench_N1024" -lcublas
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/transpose_variants.cu" -o "$wd/transpose_variants"
"$nvcc" -O1 -arch=sm_90 -std=c++17 "$root/bench/sgemm_variants.cu" -o "$wd/sgemm_variants" -lcublas
"$nvcc" -O1 -gencode arch=compute_90a,code=sm_90a -std=c++17 "$root/bench/tf32_wgmma_variants.cu" \
  -o "$wd/tf32_wgmma_variants" -lcublas
echo "bench_N1024, transpose_variants, sgemm_variants and tf32_wgmma_variants built"
