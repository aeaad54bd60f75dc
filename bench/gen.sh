#!/bin/bash
# bench/gen.sh: translate the benchmark's Parray samples with parrayc, once per N,
# into build-perf/gen (git-ignored; bench/run.sh reads it on the GPU machine, which has
# no flex/bison to build parrayc). Run here, after building parrayc:
#   cmake -S . -B build-perf -DCMAKE_BUILD_TYPE=Release && make -C build-perf -j2
#   bash bench/gen.sh
# The layouts whose $cnt$ parrayc must decide are spelled with constant sizes in
# the samples (256 for N); this rewrites them for each N.  Still needed at d3d6b9d:
# with N there, $cnt$ of perf_sgemm's [4 #type_1] over Fig 18a/18b is "cannot decide".
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build-perf/compiler/parrayc}
gen=${GEN_DIR:-$root/build-perf/gen}
ns=${BENCH_NS:-1024 2048 4096 8192}
rm -rf "$gen"
mkdir -p "$gen"
for n in $ns; do
  for s in perf_fig13 perf_fig21 perf_sgemm perf_transpose; do
    sed -E "/^#parray .*\} (RM|A18a|A18b|CM0)\$/ s/\b256\b/$n/g" "$root/samples/$s.pa" \
      > "$gen/${s}_N$n.pa"
    "$parrayc" "$gen/${s}_N$n.pa" -o "$gen/${s}_N$n.cu"
    rm "$gen/${s}_N$n.pa"
  done
done
cp "$root/bench/gen_decls.h" "$gen/"
ls "$gen"
