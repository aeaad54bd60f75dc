#!/bin/bash
# bench/multi_gpu.sh [OUTDIR]: on the 2-GPU machine, build bench/multi_ref.cu (cuBLAS,
# cuBLASXt, peer copies, cuFFT, cuFFT Xt) and the six programs of samples/multi/ at
# order N, run them all, and write the comparisons side by side: OUTDIR/multi.md
# (also printed last), OUTDIR/multi.csv (every figure), OUTDIR/ref.csv, one log per
# program and OUTDIR/machine.txt.  Exits non-zero when a build fails, a sample says
# WRONG or fails, or multi_ref finds a wrong result.
#   N=16384                         the order (-DN= for every program)
#   PARRAYC=build-stage/bin/parrayc parrayc (with its runtime beside it: bin/../lib)
#   MULTI_BUILD=/tmp/multi-build    where the programs are built
#   MPIRUN=mpirun                   the launcher of the mpi forms (2 processes)
# The one-GPU time of the Parray SGEMM comes from sgemm_pthd.pa with '[1]' for '[2]'
# and sgemm.pah with N/1 for N/2 (the whole product on one GPU) when that
# translates, else from sgemm_pthd with both threads on GPU 0 (CUDA_VISIBLE_DEVICES=0,
# PARRAY_GPU_SHARE=1), which runs both halves on one GPU; the latter runs always.
# With one GPU the 2-GPU programs share it (PARRAY_GPU_SHARE=1): good to validate
# the script, not for figures.  doc/performance.md ("Several GPUs: method").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(mkdir -p "${1:-/tmp/multi-out}" && cd "${1:-/tmp/multi-out}" && pwd) || exit 2
build=${MULTI_BUILD:-/tmp/multi-build}
n=${N:-16384}
parrayc=${PARRAYC:-$root/build-stage/bin/parrayc}
mpirun=${MPIRUN:-mpirun}
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
[ -x "$parrayc" ] || { echo "no parrayc at $parrayc (set PARRAYC)" >&2; exit 2; }
parrayc=$(cd "$(dirname "$parrayc")" && pwd)/$(basename "$parrayc")  # the builds run elsewhere
mkdir -p "$build" && rm -f "$out"/*.log "$out"/status.txt "$out"/multi.* "$out"/ref.csv

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv,noheader; nvidia-smi topo -m; nvcc --version | tail -1; "$parrayc" --version | head -1
  echo "N=$n GPUs=$gpus"; } 2>&1 | tee "$out/machine.txt"
if [ "$gpus" -lt 2 ]; then
  export PARRAY_GPU_SHARE=1
  echo "one GPU: the 2-GPU programs share it (PARRAY_GPU_SHARE=1); figures not comparable"
fi
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ---- build: everything at once ----
one=$build/one_gpu  # the one-GPU variant of the SGEMM, next to a copy of its .pah
# (its columns: all N of them, N/1 where the program splits N/2) and, as
# "../fastsgemm.pah" of that, of the kernel's header
mkdir -p "$one" && sed 's|N/2|N/1|g' "$root/samples/multi/sgemm.pah" > "$one/sgemm.pah"
cp "$root/samples/fastsgemm.pah" "$build/fastsgemm.pah"
sed 's/) \[2\]} G$/) [1]} G/' "$root/samples/multi/sgemm_pthd.pa" > "$one/sgemm_1gpu.pa"
grep -q ') \[1\]} G$' "$one/sgemm_1gpu.pa" || { echo "sgemm_pthd.pa: no '[2]} G' to replace" >&2; exit 2; }
nvcc -O3 -arch=sm_90 -std=c++17 -DN="$n" "$here/multi_ref.cu" -o "$build/multi_ref" \
  -lcublas -lcufft > "$build/multi_ref.build.log" 2>&1 &
for s in sgemm fft transpose; do
  libs=
  [ $s = fft ] && libs=-lcufft
  for form in pthd mpi; do
    (cd "$build" && "$parrayc" --build -DN="$n" "$root/samples/multi/${s}_$form.pa" $libs \
      -o "$build/${s}_$form") > "$build/${s}_$form.build.log" 2>&1 &
  done
done
fail=0
for job in $(jobs -p); do wait "$job" || fail=1; done
(cd "$one" && "$parrayc" --build -DN="$n" sgemm_1gpu.pa -o "$build/sgemm_1gpu") \
  > "$build/sgemm_1gpu.build.log" 2>&1 || rm -f "$build/sgemm_1gpu"
for f in "$build"/*.build.log; do
  [ -s "$f" ] && { echo "== $(basename "$f")"; cat "$f"; }
done
[ $fail = 0 ] || { echo "build failed"; exit 1; }
[ -x "$build/sgemm_1gpu" ] ||
  echo "sgemm_1gpu.pa (sgemm_pthd.pa with [1]) does not build: the one-GPU time is both halves on GPU 0"

# ---- run, one program at a time ----
run() { # NAME COMMAND...: its output to OUTDIR/NAME.log and the terminal
  local name=$1
  shift
  echo "== $name"
  (cd "$build" && "$@") > "$out/$name.log" 2>&1
  local rc=$?
  cat "$out/$name.log"
  echo "$name $rc" >> "$out/status.txt"
}
run multi_ref ./multi_ref "$n"
grep -E '^[a-z0-9_]+,[0-9]+,' "$out/multi_ref.log" | sed '1i name,N,ms_median,rate' > "$out/ref.csv"
for s in sgemm fft transpose; do
  run "${s}_pthd" "./${s}_pthd"
  run "${s}_mpi" "$mpirun" --oversubscribe -np 2 "./${s}_mpi"
done
run sgemm_pthd_gpu0 env CUDA_VISIBLE_DEVICES=0 PARRAY_GPU_SHARE=1 ./sgemm_pthd
[ -x "$build/sgemm_1gpu" ] && run sgemm_1gpu ./sgemm_1gpu

echo
N=$n python3 "$here/multi_table.py" "$out"
