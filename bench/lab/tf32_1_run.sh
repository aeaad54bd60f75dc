#!/bin/bash
# Kept as run (doc/performance.md, "TF32 tensor cores"): run from a folder holding
# bench/, include/, runtime/ and gen/ (bench/gen.sh's output) of commit issue-24c,
# as `bash tf32-dev/run.sh` on nvidia-h100-x1; it wrote tf32_1_*.
# helper 24c device script: the sample's own check (N = 256, 320), then bench.cu
# (BENCH_ONLY=tf32: cuBLAS FP32, cuBLAS TF32, perf_tf32 on four layouts) at N = 4096, 8192
# for each TF32_CFG; everything compiled in parallel first.
d=$(cd "$(dirname "$0")" && pwd)
export PATH=$PATH:/usr/local/cuda/bin
out=${OUT:-/tmp/out}; mkdir -p "$out"; b=/tmp/tb; mkdir -p $b/rt
fl=(-O3 -arch=sm_90 -std=c++17 -I"$d/include")
( cd $b/rt && for c in "$d"/runtime/pa_core*.c; do gcc -O2 -c -I"$d/include" "$c" -o "$(basename "$c").o"; done &&
  for c in "$d"/runtime/pa_cuda*.cu; do nvcc -O2 -arch=sm_90 -c -I"$d/include" "$c" -o "$(basename "$c").o"; done )
for n in 256 320; do nvcc "${fl[@]}" -DN=$n "$d/gen/perf_tf32.cu" $b/rt/*.o -o $b/sample_$n & done
for n in ${NS:-4096 8192}; do
  for s in perf_fig13 perf_fig21 perf_sgemm perf_transpose; do
    nvcc "${fl[@]}" -DN=$n -Dmain=pa_main_${s}_N$n -c "$d/gen/$s.cu" -o $b/${s}_N$n.o &
  done
  for cfg in ${CFGS:-0 1 2 3}; do
    nvcc "${fl[@]}" -DN=$n -DTF32_CFG=$cfg -Dmain=pa_main_tf32_N$n -c "$d/gen/perf_tf32.cu" -o $b/tf32_N${n}_c$cfg.o &
  done
  nvcc "${fl[@]}" -DN=$n -DWITH_GEN -I"$d/gen" -I"$d/bench" -c "$d/bench/bench.cu" -o $b/bench_N$n.o &
done
wait
for n in 256 320; do echo "== sample, N = $n"; $b/sample_$n; echo "rc=$?"; done 2>&1 | tee $out/sample.txt
for n in ${NS:-4096 8192}; do for cfg in ${CFGS:-0 1 2 3}; do
  nvcc -arch=sm_90 $b/bench_N$n.o $b/perf_{fig13,fig21,sgemm,transpose}_N$n.o $b/tf32_N${n}_c$cfg.o $b/rt/*.o -o $b/bench_N${n}_c$cfg -lcublas &
done; done
wait
echo "variant,N,unit,ms_median,ms_min,ms_max,rate,ratio,relerr,status,twin,twin_ratio,ref_rate" > $out/bench.csv
for cfg in ${CFGS:-0 1 2 3}; do for n in ${NS:-4096 8192}; do
  echo "== bench, TF32_CFG=$cfg, N = $n"
  BENCH_ONLY=tf32 $b/bench_N${n}_c$cfg $out/bench_c$cfg.csv
done; done 2>&1 | tee $out/bench.txt
