#!/bin/sh
# check_multi_table.sh ROOT: bench/multi_table.py (the scaling table of bench/multi_gpu.sh)
# on the kept outputs of a run, tests/bench/multi_run/: the logs of run 29 (4 H200s,
# doc/performance.md; the FFT lines say "output by columns" where run 29 said
# "transposed output", the words of the sample since run 34), with multi_ref's verdicts on cuFFT Xt's result left out (that
# check failed there, before run 33's fix of its reference) and its exit status 0.  It
# must write exactly tests/bench/multi_table.md and .csv; and fail, naming the program, when a sample says
# WRONG or dies, or multi_ref fails.  Skipped (77) without python3.
set -u
root=$1
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3"; exit 77; }
wd=$(mktemp -d) || exit 1
trap 'rm -rf "$wd"' EXIT
table() { # DIR: run the table on a fresh copy of the kept run, changed by the caller
  python3 "$root/bench/multi_table.py" "$1" > "$1/stdout"
}
fresh() { rm -rf "${wd:?}/$1" && cp -r "$root/tests/bench/multi_run" "$wd/$1"; }

fresh ok
table "$wd/ok" || { echo "the kept run failed"; cat "$wd/ok/stdout"; exit 1; }
diff -u "$root/tests/bench/multi_table.md" "$wd/ok/multi.md" || exit 1
diff -u "$root/tests/bench/multi_table.csv" "$wd/ok/multi.csv" || exit 1
cmp -s "$wd/ok/multi.md" "$wd/ok/stdout" || { echo "stdout is not multi.md"; exit 1; }
# speed-up and efficiency from the one-GPU run of the same form
grep -q '^| SGEMM N = 16384, compute (data on the GPUs) | pthd | 176.5 ms | 89.26 ms (1.98x, 0.99) | 45.96 ms (3.84x, 0.96) |$' \
  "$wd/ok/multi.md" || { echo "no SGEMM scaling row"; exit 1; }

# a sample says WRONG
fresh wrong
sed -i 's/: correct$/: WRONG/' "$wd/wrong/fft_mpi_g2.log"
if table "$wd/wrong"; then echo "WRONG did not fail"; exit 1; fi
grep -q '^FAILED: fft_mpi_g2: WRONG$' "$wd/wrong/multi.md" || { cat "$wd/wrong/multi.md"; exit 1; }

# a sample dies without a result line
fresh died
: > "$wd/died/transpose_pthd_g4.log"
sed -i 's/^transpose_pthd_g4 0$/transpose_pthd_g4 139/' "$wd/died/status.txt"
if table "$wd/died"; then echo "a dead sample did not fail"; exit 1; fi
grep -q '^FAILED: transpose_pthd_g4: no result line, exit status 139$' "$wd/died/multi.md" ||
  { cat "$wd/died/multi.md"; exit 1; }

# the vendor side finds a wrong result
fresh ref
sed -i 's/^multi_ref_g2 0$/multi_ref_g2 1/' "$wd/ref/status.txt"
if table "$wd/ref"; then echo "a failed multi_ref did not fail"; exit 1; fi
grep -q '^FAILED: multi_ref_g2: exit status 1 (see multi_ref_g2.log)$' "$wd/ref/multi.md" ||
  { cat "$wd/ref/multi.md"; exit 1; }
# the 3xTF32 SGEMM (-DSGEMM_X3=1), in today's result lines, which name the kernel: its
# compute row and its ratio to cuBLAS on column blocks (82.73 ms in the kept run), target 1.8
fresh x3
echo "SGEMM N = 16384 on 2 GPUs (pthd, 3xTF32): scatter 30.56 ms, compute 46.443 ms (189394.1 GFLOP/s), gather 12.29 ms; correct" \
  >"$wd/x3/sgemm3x_pthd_g2.log"
echo "SGEMM N = 16384 on 4 GPUs (mpi, 3xTF32): scatter 48.82 ms, compute 41.0 ms (214535.2 GFLOP/s), gather 8.28 ms; correct" \
  >"$wd/x3/sgemm3x_mpi_g4.log"
printf 'sgemm3x_pthd_g2 0\nsgemm3x_mpi_g4 0\n' >>"$wd/x3/status.txt"
table "$wd/x3" || { echo "the run with the 3xTF32 SGEMM failed"; cat "$wd/x3/stdout"; exit 1; }
grep -q '^| SGEMM 3xTF32 (FP32 accuracy on tensor cores), compute | pthd |  | 46.44 ms |  |$' "$wd/x3/multi.md" ||
  { echo "no 3xTF32 compute row"; cat "$wd/x3/multi.md"; exit 1; }
grep -q '^| SGEMM 3xTF32 (pthd) against cuBLAS on column blocks, data on the GPUs | >= 1.8 |  | 1.781 (82.73 ms / 46.44 ms, NOT MET) |  |$' \
  "$wd/x3/multi.md" || { echo "no 3xTF32 ratio row (pthd)"; cat "$wd/x3/multi.md"; exit 1; }
grep -q '^| SGEMM 3xTF32 (mpi) against cuBLAS on column blocks, data on the GPUs | >= 1.8 |  |  | 1.045 (42.84 ms / 41 ms, NOT MET) |$' \
  "$wd/x3/multi.md" || { echo "no 3xTF32 ratio row (mpi)"; grep 3xTF32 "$wd/x3/multi.md"; exit 1; }
# from host (scatter + compute + gather) the target against tuned cuBLASXt (112.5 ms) is the 3xTF32 form's
grep -q '^| SGEMM 3xTF32 (pthd) from host against tuned cuBLASXt from host | > 1 |  | 1.260 (112.5 ms / 89.29 ms, met) |  |$' \
  "$wd/x3/multi.md" || { echo "no 3xTF32 from-host row"; grep 3xTF32 "$wd/x3/multi.md"; exit 1; }
# the FFT's result line since run 39 names the output by chunks of columns too: its
# row and its ratio to cuFFT Xt (2.669 ms on 2 GPUs in the kept run)
fresh chunks
sed -i 's/output by columns 3.303 ms;/output by columns 3.303 ms, by chunks of columns 2.5 ms;/' "$wd/chunks/fft_pthd_g2.log"
table "$wd/chunks" || { echo "the run with the chunks of columns failed"; cat "$wd/chunks/stdout"; exit 1; }
grep -q '^| 2-D FFT 16384, output by columns, by chunks of columns | pthd |  | 2.5 ms |  |$' "$wd/chunks/multi.md" ||
  { echo "no chunks-of-columns row"; grep FFT "$wd/chunks/multi.md"; exit 1; }
grep -q '^| FFT 16384 output by chunks of columns (pthd) against cuFFT Xt (its order) | >= 1 |  | 1.068 (2.669 ms / 2.5 ms, met) |  |$' \
  "$wd/chunks/multi.md" || { echo "no chunks-of-columns ratio row"; grep FFT "$wd/chunks/multi.md"; exit 1; }
echo "multi_table.py: ok"
