#!/bin/bash
# bench/tiles.sh [OUTDIR]: the benchmark of step 22 of doc/performance.md (block tiles
# per N, N not a multiple of the tile) in one call on the GPU machine, with
# build-perf/gen carried along:
#   1. bench/run.sh at MAIN_NS (1024 2048 4096 8192), every variant: the main table;
#      TILES=1 adds k_fast with every block tile (exp_t*);
#   2. bench/run.sh at CLIP_NS (992 1056 2016 4000, not multiples of the tile, and 1088,
#      the multiple of 64 above 1056, as far from it as 1024), the fast
#      SGEMM only (generated, twin, cuBLAS);
#   3. the spread: the fast SGEMM again at N = 1024 (three more processes) and 4096;
#   4. samples/perf_sgemm.pa's own check (every element against float64) with each tile
#      (-DSGEMM_TILE=64 / 128) at N = 256, 288 and 992, the last two not multiples of it;
#   5. the main loop of each fast kernel at N = 1024 and 4096 (bench/sass_loop.py).
# OUTDIR gets eight files (what the device machine sends back): main.log (machine, every
# line, the table), main.csv, main.png, clip.log, clip.csv, spread.csv, check.txt,
# sass.txt. The tables print last.
set -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(mkdir -p "${1:-${OUT:-/tmp/tiles-out}}" && cd "${1:-${OUT:-/tmp/tiles-out}}" && pwd)
gen=${GEN_DIR:-$root/build-perf/gen}
build=${BENCH_BUILD:-/tmp/bench-build}
work=$(mktemp -d)
export PATH=$PATH:/usr/local/cuda/bin
chk=$build/check
mkdir -p "$chk"
status=0

# 4, built in the background while run.sh builds the benchmark, run at the end
(
  cd "$chk" && rm -f ./*.o.rt &&
    for c in "$root"/runtime/pa_core*.c; do gcc -O2 -c -I"$root/include" "$c" -o "$(basename "$c").o.rt"; done &&
    for c in "$root"/runtime/pa_cuda*.cu; do nvcc -O2 -arch=sm_90 -c -I"$root/include" "$c" -o "$(basename "$c").o.rt"; done &&
    ar rcs libparray_check.a ./*.o.rt &&
    for n in 256 288 992; do
      for t in 64 128; do
        nvcc -O3 -arch=sm_90 -std=c++17 -I"$root/include" -DN=$n -DSGEMM_TILE=$t \
          "$gen/perf_sgemm.cu" libparray_check.a -o "sgemm_N${n}_T$t" || exit 1
      done
    done
) > "$work/check_build.log" 2>&1 &
check_build=$!

# 1
. "$here/progress.sh"
progress 1 5 "bench/run.sh: the main orders (log: $out/main.log)"
BENCH_TILES=${TILES:-0} BENCH_NS="${MAIN_NS:-1024 2048 4096 8192}" bash "$here/run.sh" "$work/main" \
  > "$out/main.log" 2>&1 || status=1
cp "$work/main/bench.csv" "$out/main.csv"
cp "$work/main/bench.png" "$out/main.png" 2>/dev/null

# 2
progress 2 5 "bench/run.sh: the orders that clip tiles (log: $out/clip.log)"
BENCH_NS="${CLIP_NS:-992 1056 1088 2016 4000}" BENCH_ONLY=fast,sgemm bash "$here/run.sh" "$work/clip" \
  > "$out/clip.log" 2>&1 || status=1
cp "$work/clip/bench.csv" "$out/clip.csv"

# 3
progress 3 5 "the spread of repeated runs"
echo "variant,N,unit,ms_median,ms_min,ms_max,rate,ratio,relerr,status,twin,twin_ratio,ref_rate" \
  > "$out/spread.csv"
for n in 1024 1024 1024 4096; do
  BENCH_ONLY=fast,sgemm "$build/bench_N$n" "$out/spread.csv" > /dev/null || status=1
done

# 4
progress 4 5 "the sample checks at other orders and tiles"
wait $check_build || { echo "sample checks: build failed"; cat "$work/check_build.log"; } >> "$out/check.txt"
for n in 256 288 992; do
  for t in 64 128; do
    [ -x "$chk/sgemm_N${n}_T$t" ] || continue
    echo "== perf_sgemm N=$n SGEMM_TILE=$t" >> "$out/check.txt"
    "$chk/sgemm_N${n}_T$t" >> "$out/check.txt" 2>&1
    echo "exit $?" >> "$out/check.txt"
  done
done
grep -q "exit [^0]" "$out/check.txt" && status=1

# 5
progress 5 5 "the SASS of the inner loops"
for n in 1024 4096; do
  echo "== N=$n" >> "$out/sass.txt"
  cuobjdump -sass "$build/bench_N$n" | python3 "$here/sass_loop.py" k_fast pa_kernel_CUDA \
    >> "$out/sass.txt" 2>&1
done

grep -h "FAILED" "$out/main.log" "$out/clip.log"
grep -h "WRONG\|exit [^0]\|failed" "$out/check.txt"
awk -F, 'NR > 1 { printf "spread %-22s N=%-5s %9s ms  %s of cuBLAS  %s of twin\n", $1, $2, $4, $8, $12 }' \
  "$out/spread.csv"
python3 "$here/plot.py" "$out/clip.csv" /dev/null | grep -v "^|---"
python3 "$here/plot.py" "$out/main.csv" /dev/null | grep -v "^|---"
echo "tiles.sh exit $status"
rm -rf "$work"
exit $status
