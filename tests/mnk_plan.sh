#!/bin/sh
# mnk_plan.sh NVCC WORKDIR: tests/mnk_plan.cu (samples/mnk_plan.pah, the plan of the TF32
# kernels' grids) built warning-free and run on the CPU: no GPU needed.
set -e
nvcc=$1 wd=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
"$nvcc" -arch=sm_90a -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$root/samples" \
  "$root/tests/mnk_plan.cu" -o "$wd/mnk_plan"
"$wd/mnk_plan"
