#!/bin/sh
# host_cu.sh NVCC WORKDIR NAME: tests/NAME.cu, a test of the samples' host-side C++ (a
# .pah of plain code: hopper.pah's tensor-map plans for tmap_plan, mnk_plan.pah's grid
# plan for mnk_plan), built warning-free with nvcc and run on the CPU: no GPU needed.
set -e
nvcc=$1 wd=$2 name=$3
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
"$nvcc" -arch=sm_90a -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$root/samples" \
  "$root/tests/$name.cu" -o "$wd/$name"
"$wd/$name"
