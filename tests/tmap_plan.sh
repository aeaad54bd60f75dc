#!/bin/sh
# tmap_plan.sh NVCC WORKDIR: tests/tmap_plan.cu (samples/hopper.pah's tensor-map plans,
# read from layouts' offsets, and its tile order) built warning-free and run on the CPU:
# no GPU needed.
set -e
nvcc=$1 wd=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
"$nvcc" -arch=sm_90a -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$root/samples" \
  "$root/tests/tmap_plan.cu" -o "$wd/tmap_plan"
"$wd/tmap_plan"
