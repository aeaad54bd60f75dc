#!/bin/sh
# build_multi_gpus.sh PARRAYC WORKDIR [NVCC]: the programs of samples/multi/ are written once for
# any number of GPUs (G's extent GPUS is the only place the count appears): each builds
# unchanged at -DGPUS=1 and -DGPUS=4 (the ordinary sample tests build them at the
# default, 2), at N = 1024; the SGEMM also with -DSGEMM_X3=1 for sm_90a; and the
# check of the FFT's column kernels (tests/multi/fft_columns_check.cu).  Where nvcc is; running them needs the GPUs (bench/multi_gpu.sh).
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
echo "samples/multi: 6 programs and the 3xTF32 SGEMM's 2 built at GPUS=1 and GPUS=4, fft_columns_check"
