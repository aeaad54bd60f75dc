#!/bin/sh
# build_multi_gpus.sh PARRAYC WORKDIR [NVCC]: the programs of samples/multi/ are written once for
# any number of GPUs (G's extent GPUS is the only place the count appears): each builds
# unchanged at -DGPUS=1 and -DGPUS=4 (the ordinary sample tests build them at the
# default, 2), at N = 1024; the SGEMM also with -DSGEMM_X3=1 for sm_90a; and the
# check of the FFT's column kernels (tests/multi/fft_columns_check.cu); and sizes the samples
# refuse (their #error lines: the FFT's CLASSES, N against GPUS and the 3xTF32 kernel's depth).
# Where nvcc is; running them needs the GPUs (bench/multi_gpu.sh).
set -eu
parrayc=$1 wd=$2 nvcc=${3:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$wd" && mkdir -p "$wd"
for g in 1 4; do
  for s in sgemm fft transpose; do
    libs=
    [ $s = fft ] && libs=-lcufft
    for form in pthd mpi; do
      (cd "$wd" && "$parrayc" --build -DN=1024 -DGPUS=$g "$root/samples/multi/${s}_$form.pa" $libs \
        -o "$wd/${s}_${form}_g$g")
    done
  done
  # the SGEMM on the TF32 tensor cores (Hopper's wgmma: sm_90a)
  for form in pthd mpi; do
    (cd "$wd" && "$parrayc" --build -DN=1024 -DGPUS=$g -DSGEMM_X3=1 --arch=sm_90a \
      "$root/samples/multi/sgemm_$form.pa" -o "$wd/sgemm3x_${form}_g$g")
  done
done
# the FFT's column kernels' check (tests/gpu_suite.sh runs it), warning-free
"$nvcc" -O3 -arch=sm_90 -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror \
  "$root/tests/multi/fft_columns_check.cu" -lcufft -o "$wd/fft_columns_check"
# sizes a sample cannot take: refused at its build, by its #error, which names the rule
refuses() { # MESSAGE PARRAYC-ARGS...
  msg=$1
  shift
  if (cd "$wd" && "$parrayc" --build "$@" -o "$wd/refused") >"$wd/refused.log" 2>&1; then
    echo "built, but should have refused ($msg): $*" >&2
    exit 1
  fi
  grep -q "$msg" "$wd/refused.log" || { echo "no '$msg' in the failed build of $*:" >&2; cat "$wd/refused.log" >&2; exit 1; }
}
refuses "CLASSES must be a power of two" -DN=1024 -DCLASSES=3 "$root/samples/multi/fft_pthd.pa" -lcufft
refuses "CLASSES must be a power of two whose square is at most N" -DN=1024 -DCLASSES=64 \
  "$root/samples/multi/fft_mpi.pa" -lcufft
refuses "transpose: N must be a multiple of GPUS" -DN=1000 -DGPUS=3 "$root/samples/multi/transpose_pthd.pa"
echo "samples/multi: 6 programs and the 3xTF32 SGEMM's 2 built at GPUS=1 and GPUS=4, fft_columns_check;"
echo "3 sizes refused with their reasons"
