#!/bin/sh
# build_multi_bench.sh NVCC WORKDIR: the multi-GPU benchmark's sources, checked where
# there is no GPU: bench/multi_gpu.sh must parse (bash -n) and bench/multi_ref.cu
# must compile warning-free (nvcc -c, as multi_gpu.sh builds it, at N = 1024).
set -e
nvcc=$1 wd=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
bash -n "$root/bench/multi_gpu.sh"
"$nvcc" -O3 -arch=sm_90 -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -DN=1024 \
  -c "$root/bench/multi_ref.cu" -o "$wd/multi_ref.o"
echo "multi_gpu.sh parses, multi_ref.o built"
