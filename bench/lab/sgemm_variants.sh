#!/bin/bash
# bench/lab/sgemm_variants.sh [OUTDIR [N ...]]: on the GPU machine, build sgemm_variants.cu
# (ptxas's register and spill report kept), summarise the kernels' main loops when
# cuobjdump is there, and run it: OUTDIR/sv.md (the tables), ptxas.txt, loops.txt,
# machine.txt. SV_ONLY and SV_ROUNDS pass through (see the header of sgemm_variants.cu).
set -eo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-/tmp/sv-out}}
shift || true
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
  --format=csv,noheader | tee "$out/machine.txt" || true
nvcc --version | tail -1 | tee -a "$out/machine.txt"
bin=${SV_BIN:-/tmp/sv}
nvcc -O3 -arch=sm_90 -std=c++17 -Xcompiler -Wall -Xptxas -v "$here/sgemm_variants.cu" -lcublas \
  -o "$bin" 2> "$out/ptxas.txt"
grep -E -i "warning|[1-9][0-9]* bytes spill" "$out/ptxas.txt" || true
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$bin" | python3 "$here/../sass_loop.py" k_fast k_async > "$out/loops.txt" || true
fi
"$bin" "$@" | tee "$out/sv.md"
