#!/bin/bash
# bench/lab/tf32_ws.sh [OUTDIR]: on the GPU machine, build bench/lab/tf32_ws.cu and
# bench/lab/x3_ws.cu (sm_90a), print their register reports, check and time their variants
# beside cuBLAS: tf32_ws at N = 4096 and 8192 and the shapes of issue 53 (TF32_WS_NS: N or
# MxNxK each), x3_ws at X3_WS_NS (4096 8192); WS_ONLY=tf32 or x3 runs one of them. The
# output also goes to OUTDIR/tf32_ws.txt and OUTDIR/x3_ws.txt.
set -eo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-${OUT:-/tmp}}" && cd "${1:-${OUT:-/tmp}}" && pwd)
export PATH=$PATH:/usr/local/cuda/bin
flags=(-O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -Xptxas -v)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
nvcc --version | tail -1
if [ "${WS_ONLY:-}" != x3 ]; then
  {
    nvcc "${flags[@]}" "$here/tf32_ws.cu" -lcublas -o /tmp/tf32_ws 2>&1 | grep -E 'error|registers|spill' || true
    /tmp/tf32_ws ${TF32_WS_NS:-4096 8192 4000 3000 5000 2048 1024 777 8192x8192x128 128x8192x8192 8192x128x8192 12345x6789x4321 1000x3000x777 2047x2049x2051}
  } 2>&1 | tee "$out/tf32_ws.txt"
fi
if [ "${WS_ONLY:-}" != tf32 ]; then
  {
    nvcc "${flags[@]}" "$here/x3_ws.cu" -lcublas -o /tmp/x3_ws 2>&1 | grep -E 'error|registers|spill' || true
    /tmp/x3_ws ${X3_WS_NS:-4096 8192}
  } 2>&1 | tee "$out/x3_ws.txt"
fi
