#!/bin/bash
# bench/gen.sh: translate the benchmark's Parray samples with parrayc into
# build-perf/gen (git-ignored; bench/run.sh reads it on the GPU machine, which has
# no flex/bison to build parrayc). Run here, after building parrayc:
#   cmake -S . -B build-perf -DCMAKE_BUILD_TYPE=Release && make -C build-perf -j2
#   bash bench/gen.sh
# The samples keep N symbolic (#ifndef N / #define N 256), so one translation serves
# every order: run.sh compiles each output once per N with -DN=<n>.
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build-perf/compiler/parrayc}
gen=${GEN_DIR:-$root/build-perf/gen}
rm -rf "$gen"
mkdir -p "$gen"
. "$root/bench/progress.sh"
set -- perf_fig13 perf_fig21 perf_sgemm perf_sgemm3x perf_shapes perf_tf32 perf_transpose
i=0
for s; do
  i=$((i + 1))
  "$parrayc" "$root/samples/$s.pa" -o "$gen/$s.cu"
  progress "$i" $# "translated $s"
done
cp "$root/bench/gen_decls.h" "$gen/"
ls "$gen"
