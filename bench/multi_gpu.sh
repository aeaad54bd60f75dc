#!/bin/bash
# bench/multi_gpu.sh [OUTDIR]: the several-GPU benchmark (issue 29).  On the machine's
# GPUs, and on the first 1 and 2 of them (CUDA_VISIBLE_DEVICES), it runs the six
# programs of samples/multi/ (sgemm, fft, transpose; pthd and mpi forms), built once per
# GPU count with -DGPUS=G and nothing else changed (and sgemm again with -DSGEMM_X3=1
# --arch=sm_90a: the FP32 product on the TF32 tensor cores, on a Hopper GPU), beside bench/multi_ref.cu (cuBLAS,
# tuned cuBLASXt, the peer-copy all-to-all, cuFFT, cuFFT Xt) on the same GPUs, and the
# FFTs again at order FFT_N; then bench/multi_table.py prints one scaling table (time,
# speed-up over one GPU, parallel efficiency, the references' ratios, each ratio from
# one run) and writes OUTDIR/multi.md, OUTDIR/multi.csv and OUTDIR/multi_time.svg
# (time against GPUs, where matplotlib is).  Every log is OUTDIR/NAME_gG.log, the
# machine OUTDIR/machine.txt.  Exits non-zero when a build fails, a program says
# WRONG or fails, or multi_ref finds a wrong result.
#   N=16384                         the order of everything (-DN=; a power of two: the
#                                   FFT's column kernels take no other)
#   FFT_N=32768                     the order of the second FFT run, on 2 GPUs and more
#                                   (empty: none)
#   GPU_COUNTS="1 2 4"              the GPU counts, those up to the machine's (and its own)
#   PARRAYC=build-stage/bin/parrayc parrayc (its runtime beside it: bin/../lib[/MULTIARCH])
#   MULTI_BUILD=/tmp/multi-build    where the programs are built (MULTI_PREBUILT=1: they
#                                   are there already, built by an earlier call)
#   MPIRUN=mpirun                   the launcher of the mpi forms (G processes, Open MPI
#                                   options: --oversubscribe --bind-to none)
# With one GPU the programs of G > 1 share it (PARRAY_GPU_SHARE=1): good to check the
# script, not for figures.  doc/performance.md ("Several GPUs: method").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(mkdir -p "${1:-/tmp/multi-out}" && cd "${1:-/tmp/multi-out}" && pwd) || exit 2
build=${MULTI_BUILD:-/tmp/multi-build}
n=${N:-16384}
fftn=${FFT_N-32768}
parrayc=${PARRAYC:-$root/build-stage/bin/parrayc}
mpirun=${MPIRUN:-mpirun}
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
. "$here/progress.sh"
mkdir -p "$build" && rm -f "$out"/*.log "$out"/status.txt "$out"/multi.* "$out"/ref*.csv

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
counts=
for g in ${GPU_COUNTS:-1 2 4} $gpus; do
  [ "$g" -le "$gpus" ] || [ "$gpus" -lt 2 ] || continue
  case " $counts " in *" $g "*) ;; *) counts="$counts $g" ;; esac
done
counts=$(echo $counts | tr ' ' '\n' | sort -n | tr '\n' ' ')
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv,noheader; nvidia-smi topo -m; nvcc --version | tail -1
  [ -x "$parrayc" ] && "$parrayc" --version | head -1
  echo "N=$n FFT_N=$fftn GPUs=$gpus counts=$counts"; } 2>&1 | tee "$out/machine.txt"
if [ "$gpus" -lt 2 ]; then
  export PARRAY_GPU_SHARE=1
  echo "one GPU: the programs of several GPUs share it (PARRAY_GPU_SHARE=1); figures not comparable"
fi
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# a Hopper GPU (compute capability 9.0): the 3xTF32 SGEMM's wgmma runs there only
sm90a() { nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | grep -q '^9\.0'; }

# ---- build: everything at once ----
if [ "${MULTI_PREBUILT:-0}" != 1 ]; then
  [ -x "$parrayc" ] || { echo "no parrayc at $parrayc (set PARRAYC)" >&2; exit 2; }
  parrayc=$(cd "$(dirname "$parrayc")" && pwd)/$(basename "$parrayc")  # the builds run elsewhere
  nvcc -O3 -arch=sm_90 -std=c++17 -DN="$n" "$here/multi_ref.cu" -o "$build/multi_ref" \
    -lcublas -lcufft > "$build/multi_ref.build.log" 2>&1 &
  builds=($! multi_ref)
  for g in $counts; do
    mkdir -p "$build/g$g"
    for s in sgemm sgemm3x fft transpose fftbig; do
      src=$s order=$n libs=
      # the large FFT on several GPUs only: on one, the samples' own cuFFT is the reference
      [ $s = fftbig ] && { [ -n "$fftn" ] && [ "$g" -gt 1 ] || continue; src=fft order=$fftn; }
      [ $s = sgemm3x ] && { sm90a || continue; src=sgemm libs="-DSGEMM_X3=1 --arch=sm_90a"; }
      [ $src = fft ] && libs=-lcufft
      for form in pthd mpi; do
        (cd "$build/g$g" && "$parrayc" --build -DN="$order" -DGPUS="$g" "$root/samples/multi/${src}_$form.pa" \
          $libs -o "$build/g$g/${s}_$form") > "$build/g$g/${s}_$form.build.log" 2>&1 &
        builds+=($! "g$g/${s}_$form")
      done
    done
  done
  echo "building $((${#builds[@]} / 2)) programs at once" >&2
  fail=0
  wait_jobs built "${builds[@]}" || fail=1
  for f in "$build"/*.build.log "$build"/g*/*.build.log; do
    [ -s "$f" ] && { echo "== $f"; cat "$f"; }
  done
  [ $fail = 0 ] || { echo "build failed"; exit 1; }
fi

# ---- run, one program at a time, each GPU count on the first G GPUs ----
# (nrun of them: a count first, for the progress lines)
nrun=0 irun=0
for g in $counts; do
  nrun=$((nrun + 1))
  [ -n "$fftn" ] && [ "$g" -gt 1 ] && nrun=$((nrun + 1))
  for s in sgemm sgemm3x fft transpose fftbig; do
    [ -x "$build/g$g/${s}_pthd" ] && nrun=$((nrun + 2))
  done
done
run() { # NAME COMMAND...: its output to OUTDIR/NAME.log and the terminal
  local name=$1
  shift
  irun=$((irun + 1))
  progress "$irun" "$nrun" "$name"
  echo "== $name"
  (cd "$build" && "$@") > "$out/$name.log" 2>&1
  local rc=$?
  cat "$out/$name.log"
  echo "$name $rc" >> "$out/status.txt"
}
for g in $counts; do
  vis=$(seq -s, 0 $((g - 1)))
  [ "$gpus" -lt 2 ] && vis=0
  export CUDA_VISIBLE_DEVICES=$vis
  run "multi_ref_g$g" ./multi_ref "$n"
  [ -n "$fftn" ] && [ "$g" -gt 1 ] && run "multi_ref_fft_g$g" ./multi_ref "$fftn" fft
  for s in sgemm sgemm3x fft transpose fftbig; do
    [ -x "$build/g$g/${s}_pthd" ] || continue
    run "${s}_pthd_g$g" "./g$g/${s}_pthd"
    run "${s}_mpi_g$g" "$mpirun" --oversubscribe --bind-to none -np "$g" -x CUDA_VISIBLE_DEVICES -x NCCL_NVLS_ENABLE \
      "./g$g/${s}_mpi"
  done
done
unset CUDA_VISIBLE_DEVICES

echo
N=$n FFT_N=$fftn python3 "$here/multi_table.py" "$out"
